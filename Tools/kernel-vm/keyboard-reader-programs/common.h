/* Shared by evread.c (libevdev, as Sources/EvdevInput does) and liread.c (libinput path backend).
 * Records every key event the "handler" sees: code, value, handler time (CLOCK_MONOTONIC ns),
 * kernel event time (ns, CLOCK_MONOTONIC), and the process CPU time around the keys. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/input.h>
#include <libseat.h>

static inline int64_t now_ns(clockid_t c) { struct timespec t; clock_gettime(c, &t); return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec; }
static inline int64_t mono(void) { return now_ns(CLOCK_MONOTONIC); }

struct opts { const char *dev, *out, *ready; int seat, grab, count, run; };
static struct opts O = { .count = 0, .run = 60 };
static FILE *outf;
static int64_t t_main, t0_exec, t_ready;
static int64_t cpu_first = -1, cpu_last, cpu_at_ready, mono_first, mono_last;
static long n_press, n_release, n_repeat, n_keys;
static long n_dropped_reports __attribute__((unused));  // counted by evread only

static void logf_(const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    fprintf(outf, "# [%.6f] ", (mono() - t_main) / 1e9); vfprintf(outf, fmt, ap); fputc('\n', outf); fflush(outf);
    va_end(ap);
}
#define LOG(...) logf_(__VA_ARGS__)

static void parse_opts(int argc, char **argv) {
    t_main = mono();
    const char *e = getenv("T0_NS"); t0_exec = e ? atoll(e) : 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seat")) O.seat = 1;
        else if (!strcmp(argv[i], "--grab")) O.grab = 1;
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) O.count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--run") && i + 1 < argc) O.run = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) O.out = argv[++i];
        else if (!strcmp(argv[i], "--ready") && i + 1 < argc) O.ready = argv[++i];
        else O.dev = argv[i];
    }
    outf = O.out ? fopen(O.out, "w") : stdout;
    if (!outf || !O.dev) { fprintf(stderr, "usage: %s [--seat] [--grab] [--count N] [--run S] [--out F] [--ready F] /dev/input/eventN\n", argv[0]); exit(2); }
}

/* one key event reached the handler */
static void on_key(unsigned code, int value, int64_t kernel_ns) {
    int64_t h = mono();
    int64_t c = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    if (cpu_first < 0) { cpu_first = c; mono_first = h; }
    cpu_last = c; mono_last = h;
    if (value == 1) n_press++; else if (value == 0) n_release++; else n_repeat++;
    n_keys++;
    fprintf(outf, "K %u %d %lld %lld\n", code, value, (long long)h, (long long)kernel_ns);
}

static long status_kb(const char *key) {
    FILE *f = fopen("/proc/self/status", "r"); char line[256]; long v = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) if (!strncmp(line, key, strlen(key))) { v = atol(line + strlen(key) + 1); break; }
    fclose(f); return v;
}

static void mark_ready(void) {
    t_ready = mono();
    cpu_at_ready = now_ns(CLOCK_PROCESS_CPUTIME_ID);
    LOG("ready: main->ready %.3f ms, exec->ready %.3f ms, cpu to ready %.3f ms, VmRSS %ld kB, VmHWM %ld kB",
        (t_ready - t_main) / 1e6, t0_exec ? (t_ready - t0_exec) / 1e6 : -1.0, cpu_at_ready / 1e6,
        status_kb("VmRSS"), status_kb("VmHWM"));
    if (O.ready) { int fd = open(O.ready, O_CREAT | O_WRONLY, 0666); if (fd >= 0) close(fd); }
}

static void summary(const char *why) {
    /* CPU per key: process CPU time from the first key handled to the last, over keys-1 intervals
       (the first key's own cost is in 'cpu to first key'). */
    double per = n_keys > 1 ? (double)(cpu_last - cpu_first) / (n_keys - 1) : 0;
    LOG("end (%s): keys %ld (press %ld release %ld repeat %ld), cpu first->last %.3f ms = %.1f us/key-event, "
        "wall first->last %.3f s, total cpu %.3f ms, VmHWM %ld kB, VmRSS %ld kB, exec->ready %.3f ms",
        why, n_keys, n_press, n_release, n_repeat, (cpu_last - cpu_first) / 1e6, per / 1e3,
        (mono_last - mono_first) / 1e9, now_ns(CLOCK_PROCESS_CPUTIME_ID) / 1e6, status_kb("VmHWM"),
        status_kb("VmRSS"), t0_exec ? (t_ready - t0_exec) / 1e6 : -1.0);
    fprintf(outf, "S keys=%ld press=%ld release=%ld repeat=%ld cpu_ns=%lld wall_ns=%lld hwm_kb=%ld ready_ns=%lld main_ready_ns=%lld cpu_ready_ns=%lld\n",
        n_keys, n_press, n_release, n_repeat, (long long)(cpu_last - cpu_first), (long long)(mono_last - mono_first),
        status_kb("VmHWM"), (long long)(t0_exec ? t_ready - t0_exec : -1), (long long)(t_ready - t_main),
        (long long)cpu_at_ready);
    fflush(outf);
}

/* ---- seat (libseat, as Sources' Seat does) ---- */
static struct libseat *seat;
static int seat_enabled;
static void seat_enable(struct libseat *s, void *d) { (void)s; (void)d; seat_enabled = 1; LOG("libseat: enable_seat"); }
static void seat_disable(struct libseat *s, void *d) { (void)d; seat_enabled = 0; LOG("libseat: disable_seat"); libseat_disable_seat(s); }
static struct libseat_seat_listener seat_listener = { .enable_seat = seat_enable, .disable_seat = seat_disable };
static struct { int fd, id; } seat_devs[16];
static void seat_open(void) {
    seat = libseat_open_seat(&seat_listener, NULL);
    if (!seat) { LOG("libseat_open_seat failed: %s", strerror(errno)); exit(3); }
    while (!seat_enabled) if (libseat_dispatch(seat, 1000) < 0) { LOG("libseat_dispatch: %s", strerror(errno)); exit(3); }
    LOG("seat '%s' enabled", libseat_seat_name(seat));
}
static int seat_open_device(const char *path) {
    int fd = -1, id = libseat_open_device(seat, path, &fd);
    if (id < 0) { int e = errno; LOG("libseat_open_device(%s): %s", path, strerror(e)); errno = e; return -1; }
    for (int i = 0; i < 16; i++) if (!seat_devs[i].fd) { seat_devs[i].fd = fd; seat_devs[i].id = id; break; }
    /* seatd hands out a blocking fd: set O_NONBLOCK as EvdevSource does */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    LOG("libseat_open_device(%s) -> id %d fd %d", path, id, fd);
    return fd;
}
static void seat_close_device(int fd) {
    for (int i = 0; i < 16; i++) if (seat_devs[i].fd == fd) { libseat_close_device(seat, seat_devs[i].id); seat_devs[i].fd = 0; break; }
    close(fd);
}
