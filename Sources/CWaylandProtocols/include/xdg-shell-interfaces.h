// Written by hand, not by Tools/wayland-glue: the address of xdg_wm_base's interface for wl_registry_bind
// (Swift imports a C `const` global as a copy).
#include "xdg-shell-client-protocol.h"

static inline const struct wl_interface *cwayland_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
