/* Writer: injects key frames into an existing event node (write(2) on /dev/input/eventN, as evemu-play does),
 * stamping CLOCK_MONOTONIC immediately before each write(2). Same seed -> same keys and spacing every run.
 *   kbdwrite NODE type  N STAMPS     N keys, inter-key gap uniform 10..30 ms, release written half-way
 *   kbdwrite NODE burst N STAMPS     groups of 10 keys written back to back (20 writes), 20 ms between groups
 *   kbdwrite NODE flood N            one write(2) of N keys (4N events) + KEY_X release + KEY_C press
 *                                    (run it while the reader is stopped: the 64-event client buffer overflows)
 *   kbdwrite NODE hold CODE          press CODE and exit (the device is destroyed afterwards)
 *   kbdwrite NODE release CODE       release CODE
 *   kbdwrite NODE repeat CODE MS     press CODE, hold MS, release (kernel autorepeat if the device has EV_REP) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/input.h>

static const int codes[] = { KEY_Q, KEY_W, KEY_E, KEY_R, KEY_T, KEY_Y, KEY_U, KEY_I, KEY_O, KEY_P,
                             KEY_A, KEY_S, KEY_D, KEY_F, KEY_G, KEY_H, KEY_J, KEY_K, KEY_L };
#define NCODES (int)(sizeof codes / sizeof codes[0])
static int fd; static FILE *st; static long idx;
static int64_t mono(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec; }
static void sleep_us(long us) { struct timespec t = { us / 1000000, (us % 1000000) * 1000 }; nanosleep(&t, NULL); }
static void frame(int code, int value) {
    struct input_event e[2]; memset(e, 0, sizeof e);
    e[0].type = EV_KEY; e[0].code = code; e[0].value = value; e[1].type = EV_SYN; e[1].code = SYN_REPORT;
    int64_t t = mono();
    if (write(fd, e, sizeof e) != sizeof e) { perror("write"); exit(1); }
    if (st) fprintf(st, "W %ld %d %d %lld\n", idx++, code, value, (long long)t);
}
int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "see source\n"); return 2; }
    fd = open(argv[1], O_WRONLY | O_CLOEXEC); if (fd < 0) { perror(argv[1]); return 1; }
    const char *m = argv[2]; srand(42);
    if (!strcmp(m, "type") || !strcmp(m, "burst")) {
        int n = atoi(argv[3]); st = fopen(argv[4], "w");
        for (int i = 0; i < n; i++) {
            int c = codes[rand() % NCODES];
            if (m[0] == 't') {
                long gap = 10000 + rand() % 20001;          /* 10..30 ms between key presses */
                frame(c, 1); sleep_us(gap / 2); frame(c, 0); sleep_us(gap - gap / 2);
            } else {
                frame(c, 1); frame(c, 0);
                if (i % 10 == 9) sleep_us(20000);
            }
        }
        fclose(st);
    } else if (!strcmp(m, "flood")) {
        int n = atoi(argv[3]), k = 4 * n + 4; struct input_event *e = calloc(k, sizeof *e);
        for (int i = 0; i < n; i++) for (int j = 0; j < 4; j++) {
            struct input_event *x = &e[4 * i + j];
            x->type = (j & 1) ? EV_SYN : EV_KEY; x->code = (j & 1) ? SYN_REPORT : codes[i % NCODES]; x->value = (j & 1) ? 0 : (j == 0);
        }
        e[4 * n + 0].type = EV_KEY; e[4 * n + 0].code = KEY_X; e[4 * n + 0].value = 0; e[4 * n + 1].type = EV_SYN;
        e[4 * n + 2].type = EV_KEY; e[4 * n + 2].code = KEY_C; e[4 * n + 2].value = 1; e[4 * n + 3].type = EV_SYN;
        ssize_t w = write(fd, e, k * sizeof *e);
        fprintf(stderr, "flood: wrote %zd events in one write: %d keys, KEY_X(45) up, KEY_C(46) down\n", w / (ssize_t)sizeof *e, n);
    } else if (!strcmp(m, "hold")) {
        frame(atoi(argv[3]), 1);
    } else if (!strcmp(m, "release")) {
        frame(atoi(argv[3]), 0);
    } else if (!strcmp(m, "repeat")) {
        frame(atoi(argv[3]), 1); sleep_us(atol(argv[4]) * 1000); frame(atoi(argv[3]), 0);
    }
    return 0;
}
