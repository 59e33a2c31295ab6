// The libass and fontconfig functions Marquee calls, each a trampoline
// through a pointer filled by `marquee_libass_load`: neither library is
// linked, so a process that draws no text never maps them (or FreeType,
// HarfBuzz, GLib and the rest they bring). Hidden: libass's own calls
// into fontconfig never land here.

#include "CLibass.h"

#include <CSharedLibrary.h>
#include <pthread.h>

#define TRAMPOLINE __attribute__((visibility("hidden")))

#define FONTCONFIG_FUNCTIONS(X) \
    X(FcConfigDestroy) X(FcConfigSubstitute) X(FcDefaultSubstitute) X(FcFontMatch) \
    X(FcInitLoadConfigAndFonts) X(FcNameParse) X(FcPatternDestroy) X(FcPatternGetString)

#define LIBASS_FUNCTIONS(X) \
    X(ass_library_init) X(ass_library_done) X(ass_set_message_cb) X(ass_renderer_init) \
    X(ass_renderer_done) X(ass_set_fonts) X(ass_set_frame_size) X(ass_set_storage_size) \
    X(ass_new_track) X(ass_free_track) X(ass_process_chunk) X(ass_process_codec_private) \
    X(ass_read_memory) X(ass_render_frame)

#define NAME(function) #function,
#define SLOT(function) __typeof__(&function) function;

static struct { FONTCONFIG_FUNCTIONS(SLOT) } fontconfig;
static struct { LIBASS_FUNCTIONS(SLOT) } libass;
static const char *const fontconfigNames[] = { FONTCONFIG_FUNCTIONS(NAME) };
static const char *const libassNames[] = { LIBASS_FUNCTIONS(NAME) };

static const char *loadFailure;

static void load(void) {
    // Debian 12's sonames (libfontconfig1, libass9), the package's Depends.
    // fontconfig first: libass calls into it as soon as it renders.
    const struct marquee_shared_library libraries[] = {
        { "libfontconfig.so.1", fontconfigNames, (void **)&fontconfig, sizeof fontconfigNames / sizeof *fontconfigNames },
        { "libass.so.9", libassNames, (void **)&libass, sizeof libassNames / sizeof *libassNames },
    };
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries && !loadFailure; i++) {
        loadFailure = marquee_shared_library_open(&libraries[i]);
    }
}

const char *marquee_libass_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load);
    return loadFailure;
}

TRAMPOLINE void FcConfigDestroy(FcConfig *config) { fontconfig.FcConfigDestroy(config); }
TRAMPOLINE FcBool FcConfigSubstitute(FcConfig *config, FcPattern *p, FcMatchKind kind) {
    return fontconfig.FcConfigSubstitute(config, p, kind);
}
TRAMPOLINE void FcDefaultSubstitute(FcPattern *pattern) { fontconfig.FcDefaultSubstitute(pattern); }
TRAMPOLINE FcPattern *FcFontMatch(FcConfig *config, FcPattern *p, FcResult *result) {
    return fontconfig.FcFontMatch(config, p, result);
}
TRAMPOLINE FcConfig *FcInitLoadConfigAndFonts(void) { return fontconfig.FcInitLoadConfigAndFonts(); }
TRAMPOLINE FcPattern *FcNameParse(const FcChar8 *name) { return fontconfig.FcNameParse(name); }
TRAMPOLINE void FcPatternDestroy(FcPattern *p) { fontconfig.FcPatternDestroy(p); }
TRAMPOLINE FcResult FcPatternGetString(const FcPattern *p, const char *object, int n, FcChar8 **s) {
    return fontconfig.FcPatternGetString(p, object, n, s);
}

TRAMPOLINE ASS_Library *ass_library_init(void) { return libass.ass_library_init(); }
TRAMPOLINE void ass_library_done(ASS_Library *priv) { libass.ass_library_done(priv); }
TRAMPOLINE void ass_set_message_cb(ASS_Library *priv, void (*msg_cb)(int, const char *, va_list, void *), void *data) {
    libass.ass_set_message_cb(priv, msg_cb, data);
}
TRAMPOLINE ASS_Renderer *ass_renderer_init(ASS_Library *library) { return libass.ass_renderer_init(library); }
TRAMPOLINE void ass_renderer_done(ASS_Renderer *priv) { libass.ass_renderer_done(priv); }
TRAMPOLINE void ass_set_fonts(ASS_Renderer *priv, const char *default_font, const char *default_family, int dfp,
                              const char *config, int update) {
    libass.ass_set_fonts(priv, default_font, default_family, dfp, config, update);
}
TRAMPOLINE void ass_set_frame_size(ASS_Renderer *priv, int w, int h) { libass.ass_set_frame_size(priv, w, h); }
TRAMPOLINE void ass_set_storage_size(ASS_Renderer *priv, int w, int h) { libass.ass_set_storage_size(priv, w, h); }
TRAMPOLINE ASS_Track *ass_new_track(ASS_Library *library) { return libass.ass_new_track(library); }
TRAMPOLINE void ass_free_track(ASS_Track *track) { libass.ass_free_track(track); }
TRAMPOLINE void ass_process_chunk(ASS_Track *track, char *data, int size, long long timecode, long long duration) {
    libass.ass_process_chunk(track, data, size, timecode, duration);
}
TRAMPOLINE void ass_process_codec_private(ASS_Track *track, char *data, int size) {
    libass.ass_process_codec_private(track, data, size);
}
TRAMPOLINE ASS_Track *ass_read_memory(ASS_Library *library, char *buf, size_t bufsize, char *codepage) {
    return libass.ass_read_memory(library, buf, bufsize, codepage);
}
TRAMPOLINE ASS_Image *ass_render_frame(ASS_Renderer *priv, ASS_Track *track, long long now, int *detect_change) {
    return libass.ass_render_frame(priv, track, now, detect_change);
}
