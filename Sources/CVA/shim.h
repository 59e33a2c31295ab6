#pragma once
#include <va/va.h>
#include <va/va_drm.h>
#include <va/va_str.h>
