/* startbench N PROG...: fork+exec PROG N times; wall time per run (CLOCK_MONOTONIC, fork to reaped) p50/p90,
 * child user+sys CPU and max RSS (ru_maxrss, kB) from wait4. Programs given are run round-robin (alternating). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    int n = atoi(argv[1]), np = argc - 2;
    double *w = calloc(n * np, sizeof *w), *cpu = calloc(n * np, sizeof *cpu); long *rss = calloc(n * np, sizeof *rss);
    for (int i = 0; i < n; i++) for (int p = 0; p < np; p++) {
        double t = now(); pid_t pid = fork();
        if (!pid) { execl(argv[2 + p], argv[2 + p], (char *)0); _exit(127); }
        int st; struct rusage ru; wait4(pid, &st, 0, &ru);
        w[p * n + i] = (now() - t) * 1e3;
        cpu[p * n + i] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
        rss[p * n + i] = ru.ru_maxrss;
    }
    printf("| program | runs | wall fork→exit p50 / p90 (ms) | CPU user+sys mean (ms) | max RSS (kB) |\n|---|---|---|---|---|\n");
    for (int p = 0; p < np; p++) {
        double *x = w + p * n, cs = 0; long r = 0;
        for (int i = 0; i < n; i++) { cs += cpu[p * n + i]; if (rss[p * n + i] > r) r = rss[p * n + i]; }
        qsort(x, n, sizeof *x, cmp);
        printf("| %s | %d | %.2f / %.2f | %.2f | %ld |\n", argv[2 + p], n, x[n / 2], x[n * 9 / 10], cs / n, r);
    }
    return 0;
}
