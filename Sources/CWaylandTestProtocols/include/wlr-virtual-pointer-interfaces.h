// Written by hand, not by Tools/wayland-glue: the address of the virtual-pointer manager's interface for
// wl_registry_bind (Swift imports a C `const` global as a copy).
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

static inline const struct wl_interface *cwayland_virtual_pointer_manager_interface(void) {
    return &zwlr_virtual_pointer_manager_v1_interface;
}
