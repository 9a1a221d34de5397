#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

// The dumb-buffer ioctls: their request numbers are macros Swift cannot import.

/// Creates a dumb buffer of 32 bits per pixel; 0, or -1 with errno set.
static inline int cdrm_create_dumb(int fd, uint32_t width, uint32_t height, uint32_t *handle, uint32_t *pitch,
                                   uint64_t *size) {
    struct drm_mode_create_dumb request;
    memset(&request, 0, sizeof request);
    request.width = width;
    request.height = height;
    request.bpp = 32;
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &request) != 0) return -1;
    *handle = request.handle;
    *pitch = request.pitch;
    *size = request.size;
    return 0;
}

/// The offset to mmap a dumb buffer at; 0, or -1 with errno set.
static inline int cdrm_map_dumb(int fd, uint32_t handle, uint64_t *offset) {
    struct drm_mode_map_dumb request;
    memset(&request, 0, sizeof request);
    request.handle = handle;
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &request) != 0) return -1;
    *offset = request.offset;
    return 0;
}

/// Destroys a dumb buffer; 0, or -1 with errno set.
static inline int cdrm_destroy_dumb(int fd, uint32_t handle) {
    struct drm_mode_destroy_dumb request;
    memset(&request, 0, sizeof request);
    request.handle = handle;
    return drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &request);
}

/// The calling thread's errno (after a libdrm call that returned -errno or -1).
static inline int cdrm_errno(void) { return errno; }
