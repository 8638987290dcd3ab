/* bench.h - what every benchmark here needs to time things: a monotonic clock, this
   thread's CPU clock, and the median of a set of samples.

       uint64_t t[ROUNDS];
       for (int r = 0; r < ROUNDS; r++) {
           uint64_t t0 = bench_now_ns();
           work();
           t[r] = bench_now_ns() - t0;
       }
       printf("%llu ns\n", (unsigned long long)bench_median_u64(t, ROUNDS));   // sorts t

   Medians, not means: on a shared machine the noise only ever adds time, and one
   descheduled round would drag a mean along with it. Header-only (static inline) because
   each benchmark is one source file and one program. */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

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

#endif
