/* tstamp CMD...: puts CLOCK_MONOTONIC (ns) into T0_NS and execs CMD: the readers report exec->ready from it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    struct timespec t; char b[32]; clock_gettime(CLOCK_MONOTONIC, &t);
    snprintf(b, sizeof b, "%lld", (long long)t.tv_sec * 1000000000LL + t.tv_nsec); setenv("T0_NS", b, 1);
    execvp(argv[1], argv + 1); perror(argv[1]); return 127;
}
