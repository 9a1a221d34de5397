/* (a) our path: libevdev, non-blocking fd in epoll, libevdev_next_event, sync mode after SYN_DROPPED
 * (the loop of Sources/EvdevInput/Devices/InputDevice.swift readAvailable + EvdevSource's epoll).
 * Key events are handed to the handler at their frame's SYN_REPORT, as EvdevDecoder does. */
#include "common.h"
#include <libevdev/libevdev.h>

int main(int argc, char **argv) {
    parse_opts(argc, argv);
    if (O.seat) seat_open();
    int fd = O.seat ? seat_open_device(O.dev) : open(O.dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { LOG("open %s: %s", O.dev, strerror(errno)); return 4; }
    struct libevdev *d = NULL;
    int64_t t_new = mono();
    int rc = libevdev_new_from_fd(fd, &d);
    LOG("startup: main->open done %.3f ms, libevdev_new_from_fd %.3f ms", (t_new - t_main) / 1e6, (mono() - t_new) / 1e6);
    if (rc < 0) { LOG("libevdev_new_from_fd: %s", strerror(-rc)); return 4; }
    libevdev_set_clock_id(d, CLOCK_MONOTONIC);
    LOG("device '%s' EV_REP=%d KEY_A=%d KEY_OK=%d BTN_SOUTH=%d", libevdev_get_name(d),
        libevdev_has_event_type(d, EV_REP), libevdev_has_event_code(d, EV_KEY, KEY_A),
        libevdev_has_event_code(d, EV_KEY, KEY_OK), libevdev_has_event_code(d, EV_KEY, BTN_SOUTH));
    if (O.grab) { rc = libevdev_grab(d, LIBEVDEV_GRAB); LOG("libevdev_grab -> %d (%s)", rc, rc ? strerror(-rc) : "ok"); }
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    if (seat) { struct epoll_event sv = { .events = EPOLLIN, .data.fd = libseat_get_fd(seat) }; epoll_ctl(ep, EPOLL_CTL_ADD, sv.data.fd, &sv); }
    mark_ready();
    struct input_event frame[64]; int nframe = 0;
    int64_t deadline = mono() + (int64_t)O.run * 1000000000LL;
    const char *why = "timeout";
    for (;;) {
        if (O.count && n_release >= O.count) { why = "count"; break; }
        int64_t left = (deadline - mono()) / 1000000; if (left <= 0) break;
        struct epoll_event got[4];
        int n = epoll_wait(ep, got, 4, left > 1000 ? 1000 : (int)left);
        for (int k = 0; k < n; k++) {
            if (seat && got[k].data.fd == libseat_get_fd(seat)) { libseat_dispatch(seat, 0); continue; }
            unsigned flags = LIBEVDEV_READ_FLAG_NORMAL;
            for (;;) {
                struct input_event e;
                rc = libevdev_next_event(d, flags, &e);
                if (rc == LIBEVDEV_READ_STATUS_SUCCESS) {
                    if (flags == LIBEVDEV_READ_FLAG_SYNC) {  /* sync delta: logged, state query below covers it */
                        if (e.type == EV_KEY) LOG("  sync delta: key %d value %d", e.code, e.value);
                        continue;
                    }
                    if (e.type == EV_KEY) { if (nframe < 64) frame[nframe++] = e; }
                    else if (e.type == EV_SYN && e.code == SYN_REPORT) {
                        if (e.value == 1 && nframe) LOG("kernel-made frame (SYN_REPORT 1): %d key events (EvdevDecoder: releases -> cancel, value 2 = kernel repeat)", nframe);
                        for (int j = 0; j < nframe; j++)
                            on_key(frame[j].code, frame[j].value, frame[j].input_event_sec * 1000000000LL + frame[j].input_event_usec * 1000LL);
                        nframe = 0;
                    }
                } else if (rc == LIBEVDEV_READ_STATUS_SYNC) {
                    if (flags == LIBEVDEV_READ_FLAG_NORMAL) {
                        n_dropped_reports++;
                        LOG("SYN_DROPPED (#%ld): partial frame of %d key events dropped; entering libevdev sync mode", n_dropped_reports, nframe);
                        nframe = 0; flags = LIBEVDEV_READ_FLAG_SYNC;
                    }
                } else if (rc == -EAGAIN) {
                    if (flags == LIBEVDEV_READ_FLAG_SYNC) {
                        char held[256] = ""; int h = 0;
                        for (int c = 1; c < KEY_MAX; c++) if (libevdev_has_event_code(d, EV_KEY, c) && libevdev_get_event_value(d, EV_KEY, c))
                            h += snprintf(held + h, sizeof held - h, " %d", c);
                        LOG("sync complete: keys held now:%s (EvdevDecoder.resynchronize: others end cancelled)", h ? held : " none");
                        flags = LIBEVDEV_READ_FLAG_NORMAL; continue;
                    }
                    break;
                } else if (rc == -ENODEV) {
                    char held[256] = ""; int h = 0;
                    for (int c = 1; c < KEY_MAX; c++) if (libevdev_has_event_code(d, EV_KEY, c) && libevdev_get_event_value(d, EV_KEY, c))
                        h += snprintf(held + h, sizeof held - h, " %d", c);
                    LOG("read: ENODEV, device gone; libevdev state still holds:%s (EvdevSource cancels held presses)", h ? held : " none");
                    why = "removed"; goto done;
                } else { LOG("libevdev_next_event: %d (%s)", rc, strerror(-rc)); break; }
            }
        }
    }
done:
    LOG("SYN_DROPPED reports: %ld", n_dropped_reports);
    summary(why);
    libevdev_free(d);
    if (seat) { seat_close_device(fd); libseat_close_seat(seat); } else close(fd);
    return 0;
}
