#define _GNU_SOURCE  // asprintf
#include "CSharedLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *failure(const char *call, const char *soname) {
    const char *reason = dlerror();
    char *message = NULL;
    if (asprintf(&message, "%s: %s", call, reason ? reason : soname) < 0) return call;
    return message;
}

const char *marquee_shared_library_open(const struct marquee_shared_library *library) {
    // RTLD_LOCAL: the library's symbols are reached through the slots only,
    // never interposed on the trampolines of the same names.
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return failure("dlopen", library->soname);
    for (size_t i = 0; i < library->count; i++) {
        void *symbol = dlsym(handle, library->names[i]);
        if (!symbol) {
            const char *message = failure("dlsym", library->soname);
            dlclose(handle);
            memset(library->slots, 0, library->count * sizeof(void *));
            return message;
        }
        library->slots[i] = symbol;
    }
    return NULL;
}
