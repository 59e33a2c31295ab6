#include "CMarqueeShims.h"
#include <errno.h>
#include <stdio.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <drm_fourcc.h>

int64_t marquee_av_nopts_value(void) { return AV_NOPTS_VALUE; }
int marquee_averror(int posix_errno) { return AVERROR(posix_errno); }
int marquee_averror_eof(void) { return AVERROR_EOF; }
int marquee_averror_eagain(void) { return AVERROR(EAGAIN); }
int marquee_averror_exit(void) { return AVERROR_EXIT; }
int marquee_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
int marquee_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
int marquee_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
int marquee_av_time_base(void) { return AV_TIME_BASE; }

void marquee_av_strerror(int code, char *buf, size_t size) {
    if (size == 0) return;
    if (av_strerror(code, buf, size) < 0) {
        snprintf(buf, size, "libav error %d", code);
    }
}

uint32_t marquee_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
uint32_t marquee_drm_format_argb8888(void) { return DRM_FORMAT_ARGB8888; }
uint32_t marquee_drm_format_nv12(void) { return DRM_FORMAT_NV12; }
uint32_t marquee_drm_format_yuv420(void) { return DRM_FORMAT_YUV420; }
uint32_t marquee_drm_format_p010(void) { return DRM_FORMAT_P010; }
uint64_t marquee_drm_format_mod_linear(void) { return DRM_FORMAT_MOD_LINEAR; }
uint64_t marquee_drm_format_mod_invalid(void) { return DRM_FORMAT_MOD_INVALID; }
