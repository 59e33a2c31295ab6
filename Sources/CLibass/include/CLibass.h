#pragma once
#include <ass/ass.h>
#include <fontconfig/fontconfig.h>

/// Opens fontconfig and libass (once per process): NULL when both are
/// ready, else what failed. No libass or fontconfig function may be
/// called before it has returned NULL.
const char *marquee_libass_load(void);
