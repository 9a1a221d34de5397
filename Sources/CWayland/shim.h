#include <wayland-client.h>

// memfd_create(2): glibc declares it only under _GNU_SOURCE, which Swift's Glibc module is not built with.
extern int memfd_create(const char *name, unsigned int flags);

/// An anonymous shared-memory file for a wl_shm pool, closed on exec (MFD_CLOEXEC).
static inline int cwayland_memfd(const char *name) { return memfd_create(name, 1U); }

#include <sys/mman.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
/// Makes pages of a shared mapping resident and writable now (madvise MADV_POPULATE_WRITE): 0, or -1
/// with errno (EINVAL before Linux 5.14).
static inline int cwayland_populate_write(void *start, size_t length) {
    return madvise(start, length, MADV_POPULATE_WRITE);
}

// The interfaces' addresses, for wl_registry_bind: Swift imports a C `const` global as a copy.
static inline const struct wl_interface *cwayland_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *cwayland_shm_interface(void) { return &wl_shm_interface; }
static inline const struct wl_interface *cwayland_seat_interface(void) { return &wl_seat_interface; }
static inline const struct wl_interface *cwayland_output_interface(void) { return &wl_output_interface; }
static inline const struct wl_interface *cwayland_subcompositor_interface(void) { return &wl_subcompositor_interface; }
