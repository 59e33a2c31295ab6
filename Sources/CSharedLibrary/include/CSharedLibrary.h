#pragma once
#include <stddef.h>

/// A library opened on first use rather than by the loader at every start:
/// the text and fleet libraries (libass with fontconfig, FreeType and
/// HarfBuzz; libmosquitto with OpenSSL) are megabytes resident that a
/// screen without overlays or a fleet never needs.
struct marquee_shared_library {
    /// The soname to dlopen.
    const char *soname;
    /// The functions to resolve, in the order of `slots`.
    const char *const *names;
    void **slots;
    size_t count;
};

/// Opens `library` and resolves every name into its slot, all or nothing;
/// NULL on success, else what failed ("dlopen: ...", "dlsym: ..."), in
/// storage that lives as long as the process. Call once (pthread_once).
const char *marquee_shared_library_open(const struct marquee_shared_library *library);
