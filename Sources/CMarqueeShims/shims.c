#include "CMarqueeShims.h"
#include <errno.h>
#include <malloc.h>
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
int marquee_averror_filter_not_found(void) { return AVERROR_FILTER_NOT_FOUND; }
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

#include <xf86drm.h>
#include <drm_mode.h>

int marquee_drm_create_dumb(int fd, uint32_t width, uint32_t height, uint32_t bpp,
                            uint32_t *handle, uint32_t *pitch, uint64_t *size) {
    struct drm_mode_create_dumb request = { .width = width, .height = height, .bpp = bpp };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &request) < 0) return -errno;
    *handle = request.handle;
    *pitch = request.pitch;
    *size = request.size;
    return 0;
}

int marquee_drm_map_dumb(int fd, uint32_t handle, uint64_t *offset) {
    struct drm_mode_map_dumb request = { .handle = handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &request) < 0) return -errno;
    *offset = request.offset;
    return 0;
}

int marquee_drm_destroy_dumb(int fd, uint32_t handle) {
    struct drm_mode_destroy_dumb request = { .handle = handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &request) < 0) return -errno;
    return 0;
}

int marquee_malloc_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}
