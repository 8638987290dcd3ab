/* bench.h - what every benchmark here needs to tell the truth on a shared machine: CPU
   clocks (this thread's, this process's), a runner that interleaves the contestants in
   rotating order round by round, each ratio taken per round and reported as its median with
   the min-max, and the rows those print. tools/bench/bench_startup.c is the model.

       static void run(void *ctx, int c) { c == 0 ? ours(ctx) : theirs(ctx); }
       uint64_t t[2 * ROUNDS];                 // t[c * ROUNDS + r]: contestant c, round r
       bench_rounds(2, ROUNDS, run, ctx, bench_thread_cpu_ns, t);
       BenchStat q = bench_ratio(t + ROUNDS, t, ROUNDS);   // theirs / ours, per round
       bench_row("SDL_mixer / ours", q, "x");  // "SDL_mixer / ours  1.41x (1.30-1.62)"

   Medians, not means: on a shared machine the noise only ever adds time, and one
   descheduled round would drag a mean along with it. A ratio per round, not a ratio of
   medians: both sides of one round saw the same load. Rotating order (round r starts at
   contestant r % n): none always runs first, after the same neighbour, on a cache another
   left. Under callgrind (bench_callgrind_*, tools/bench_ir.sh) a --callgrind mode counts
   instructions, the figure that load does not change. Header-only (static inline) because
   each benchmark is one source file and one program. */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAVE_CALLGRIND 1
#endif
#endif
#ifndef BENCH_HAVE_CALLGRIND
#define BENCH_HAVE_CALLGRIND 0
#endif

static inline uint64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time of the calling thread: what the code cost, without the time spent waiting
   (for the GPU, for a descheduled core). */
static inline uint64_t bench_thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time of the whole process, every thread (an audio thread, Mesa's rasterisers). */
static inline uint64_t bench_process_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time of the children this process has waited for (user + system, every thread of
   theirs): the clock for a contestant that is a program (fork, exec, wait). */
static inline uint64_t bench_children_cpu_ns(void) {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    uint64_t us = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u;
    return (us + (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec)) * 1000u;
}

static inline int bench_cmp_u64_(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static inline int bench_cmp_f64_(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n), n >= 1; sorts v in place. An even n gives the mean of the two
   middle samples. */
static inline uint64_t bench_median_u64(uint64_t *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_cmp_u64_);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

static inline double bench_median_f64(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_cmp_f64_);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A median with the smallest and the largest sample beside it. */
typedef struct BenchStat {
    double median, min, max;
} BenchStat;

/* The median and min-max of v[0..n), n >= 1; sorts v in place. */
static inline BenchStat bench_stat_f64(double *v, int n) {
    double med = bench_median_f64(v, n);
    return (BenchStat){med, v[0], v[n - 1]};
}

static inline BenchStat bench_stat_u64(const uint64_t *v, int n) {
    double *d = malloc(sizeof(double) * (size_t)n);
    if (!d) exit(1);
    for (int i = 0; i < n; i++) d[i] = (double)v[i];
    BenchStat s = bench_stat_f64(d, n);
    free(d);
    return s;
}

/* num[r] / den[r] for every round r, then their median and min-max. */
static inline BenchStat bench_ratio(const uint64_t *num, const uint64_t *den, int rounds) {
    double *q = malloc(sizeof(double) * (size_t)rounds);
    if (!q) exit(1);
    for (int r = 0; r < rounds; r++) q[r] = den[r] ? (double)num[r] / (double)den[r] : 0;
    BenchStat s = bench_stat_f64(q, rounds);
    free(q);
    return s;
}

/* Runs contestants 0..n-1 `rounds` times, round r in the order r % n, r % n + 1, ...;
   t[c * rounds + r] is what `clock` says contestant c's run(ctx, c) took in round r. */
static inline void bench_rounds(int n, int rounds, void (*run)(void *ctx, int c), void *ctx,
                                uint64_t (*clock)(void), uint64_t *t) {
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < n; j++) {
            int c = (r + j) % n;
            uint64_t t0 = clock();
            run(ctx, c);
            t[c * rounds + r] = clock() - t0;
        }
}

/* "name  median (min-max)unit", the one shape every bench's ratio is printed in. */
static inline void bench_row(const char *name, BenchStat s, const char *unit) {
    printf("  %-44s %8.2f%s (%.2f-%.2f)\n", name, s.median, unit, s.min, s.max);
}

/* One line of tools/bench.sh's summary table: KEY names the row (tools/bench_ir.sh's
   counts join it by the same key), then what, our figure, the alternative measured in the
   same run, and the ratio. */
static inline void bench_summary(const char *key, const char *what, const char *ours, const char *alt,
                                 BenchStat ratio) {
    printf("summary: %s | %s | %s | %s | %.2fx (%.2f-%.2f)\n", key, what, ours, alt, ratio.median, ratio.min,
           ratio.max);
}

/* --callgrind modes: instructions of the code between begin and end alone, dumped under
   `name` (tools/bench_ir.sh runs the program with --collect-atstart=no and reads each
   dump), with the operations it did, what one is (`unit`, one word) and what it was, so
   the driver prints Ir per operation. bench_callgrind_pair names a ratio the driver
   prints, and puts beside the summary row `key`: alt's Ir per operation over ours.
   Outside valgrind the requests do nothing. */
static inline void bench_callgrind_begin(void) {
#if BENCH_HAVE_CALLGRIND
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
#endif
}

static inline void bench_callgrind_end(const char *name, double ops, const char *unit, const char *label) {
#if BENCH_HAVE_CALLGRIND
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(name);
#endif
    printf("callgrind: %s %.0f %s %s\n", name, ops, unit, label);
    fflush(stdout);
}

static inline void bench_callgrind_pair(const char *key, const char *ours, const char *alt) {
    printf("callgrind-pair: %s %s %s\n", key, ours, alt);
}

#endif
