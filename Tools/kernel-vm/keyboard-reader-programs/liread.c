/* (b) libinput's path backend: libinput_path_create_context, libinput_path_add_device,
 * libinput_get_fd in epoll, libinput_dispatch, LIBINPUT_EVENT_KEYBOARD_KEY.
 * open_restricted opens the node directly (root) or through libseat (--seat). */
#include "common.h"
#include <libinput.h>

static long dispatch_no;
static int open_restricted(const char *path, int flags, void *data) {
    (void)data;
    int fd = seat ? seat_open_device(path) : open(path, flags | O_CLOEXEC);
    if (fd < 0) { int e = errno; LOG("open_restricted(%s): %s", path, strerror(e)); return -e; }
    if (O.grab) { int rc = ioctl(fd, EVIOCGRAB, (void *)1); LOG("EVIOCGRAB on libinput's fd (no libinput API; done in open_restricted) -> %d %s", rc, rc ? strerror(errno) : "ok"); }
    return fd;
}
static void close_restricted(int fd, void *data) { (void)data; if (seat) seat_close_device(fd); else close(fd); }
static const struct libinput_interface iface = { open_restricted, close_restricted };

static void log_handler(struct libinput *li, enum libinput_log_priority p, const char *fmt, va_list args) {
    (void)li;
    char buf[512]; vsnprintf(buf, sizeof buf, fmt, args);
    size_t n = strlen(buf); if (n && buf[n - 1] == '\n') buf[n - 1] = 0;
    LOG("libinput[%d]: %s", p, buf);
}

int main(int argc, char **argv) {
    parse_opts(argc, argv);
    if (O.seat) seat_open();
    int64_t t_ctx = mono();
    struct libinput *li = libinput_path_create_context(&iface, NULL);
    if (!li) { LOG("libinput_path_create_context failed"); return 4; }
    LOG("startup: main->context start %.3f ms, libinput_path_create_context %.3f ms", (t_ctx - t_main) / 1e6, (mono() - t_ctx) / 1e6);
    libinput_log_set_handler(li, log_handler);
    libinput_log_set_priority(li, LIBINPUT_LOG_PRIORITY_INFO);
    int64_t t_add = mono();
    struct libinput_device *dev = libinput_path_add_device(li, O.dev);
    LOG("startup: libinput_path_add_device %.3f ms (udev lookup, quirks, device setup)", (mono() - t_add) / 1e6);
    if (!dev) { LOG("libinput_path_add_device(%s) returned NULL: libinput will not read this device", O.dev); summary("not-added"); libinput_unref(li); return 5; }
    LOG("added '%s': keyboard=%d pointer=%d touch=%d gesture=%d tablet=%d switch=%d; KEY_A=%d KEY_OK=%d BTN_SOUTH=%d",
        libinput_device_get_name(dev),
        libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_KEYBOARD),
        libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_POINTER),
        libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TOUCH),
        libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_GESTURE),
        libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TABLET_TOOL),
        libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_SWITCH),
        libinput_device_keyboard_has_key(dev, KEY_A), libinput_device_keyboard_has_key(dev, KEY_OK),
        libinput_device_keyboard_has_key(dev, BTN_SOUTH));
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = libinput_get_fd(li) };
    epoll_ctl(ep, EPOLL_CTL_ADD, ev.data.fd, &ev);
    if (seat) { struct epoll_event sv = { .events = EPOLLIN, .data.fd = libseat_get_fd(seat) }; epoll_ctl(ep, EPOLL_CTL_ADD, sv.data.fd, &sv); }
    /* drain DEVICE_ADDED so the next event is a key */
    libinput_dispatch(li);
    struct libinput_event *e;
    while ((e = libinput_get_event(li))) { LOG("initial event type %d", libinput_event_get_type(e)); libinput_event_destroy(e); }
    mark_ready();
    int64_t deadline = mono() + (int64_t)O.run * 1000000000LL;
    const char *why = "timeout"; int removed = 0;
    while (!removed) {
        if (O.count && n_release >= O.count) { why = "count"; break; }
        int64_t left = (deadline - mono()) / 1000000; if (left <= 0) break;
        struct epoll_event got[4];
        int n = epoll_wait(ep, got, 4, left > 1000 ? 1000 : (int)left);
        for (int k = 0; k < n; k++) {
            if (seat && got[k].data.fd == libseat_get_fd(seat)) { libseat_dispatch(seat, 0); continue; }
            libinput_dispatch(li); dispatch_no++;
            while ((e = libinput_get_event(li))) {
                enum libinput_event_type t = libinput_event_get_type(e);
                if (t == LIBINPUT_EVENT_KEYBOARD_KEY) {
                    struct libinput_event_keyboard *kb = libinput_event_get_keyboard_event(e);
                    int v = libinput_event_keyboard_get_key_state(kb) == LIBINPUT_KEY_STATE_PRESSED;
                    on_key(libinput_event_keyboard_get_key(kb), v, (int64_t)libinput_event_keyboard_get_time_usec(kb) * 1000);
                    if (!O.count) LOG("dispatch #%ld: KEYBOARD_KEY %u %s (seat count %u)", dispatch_no, libinput_event_keyboard_get_key(kb),
                                      v ? "pressed" : "released", libinput_event_keyboard_get_seat_key_count(kb));
                } else if (t == LIBINPUT_EVENT_DEVICE_REMOVED) {
                    LOG("dispatch #%ld: DEVICE_REMOVED", dispatch_no); removed = 1; why = "removed";
                } else LOG("dispatch #%ld: event type %d", dispatch_no, t);
                libinput_event_destroy(e);
            }
        }
    }
    summary(why);
    libinput_unref(li);
    if (seat) libseat_close_seat(seat);
    return 0;
}
