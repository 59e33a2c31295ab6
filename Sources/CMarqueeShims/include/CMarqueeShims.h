// What Swift cannot import from the C headers: function-like macros and
// macros built from casts or compound literals. Every symbol is prefixed
// marquee_ so it never collides with the libraries' own names.
#pragma once
#include <stdint.h>
#include <stddef.h>

// libav
int64_t marquee_av_nopts_value(void);
int marquee_averror(int posix_errno);
int marquee_averror_eof(void);
int marquee_averror_eagain(void);
int marquee_averror_exit(void);
int marquee_averror_invaliddata(void);
int marquee_averror_decoder_not_found(void);
int marquee_averror_filter_not_found(void);
int marquee_averror_stream_not_found(void);
int marquee_av_time_base(void);
/// Writes libav's message for `code` into buf (NUL-terminated, never overruns).
void marquee_av_strerror(int code, char *buf, size_t size);

// DRM fourccs used by the KMS backend (drm_fourcc.h builds them with fourcc_code()).
uint32_t marquee_drm_format_xrgb8888(void);
uint32_t marquee_drm_format_argb8888(void);
uint32_t marquee_drm_format_nv12(void);
uint32_t marquee_drm_format_yuv420(void);
uint32_t marquee_drm_format_p010(void);
uint64_t marquee_drm_format_mod_linear(void);
uint64_t marquee_drm_format_mod_invalid(void);

// DRM dumb buffers: the ioctl request numbers are function-like macros.
/// Creates a dumb buffer; returns 0 or -errno.
int marquee_drm_create_dumb(int fd, uint32_t width, uint32_t height, uint32_t bpp,
                            uint32_t *handle, uint32_t *pitch, uint64_t *size);
/// The fake mmap offset of a dumb buffer; returns 0 or -errno.
int marquee_drm_map_dumb(int fd, uint32_t handle, uint64_t *offset);
/// Returns 0 or -errno.
int marquee_drm_destroy_dumb(int fd, uint32_t handle);

// glibc's malloc.h, which Swift's Glibc module leaves out.
/// mallopt(M_MMAP_THRESHOLD, bytes): 1 when glibc took it, 0 when it refused.
int marquee_malloc_mmap_threshold(int bytes);
