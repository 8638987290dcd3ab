/* bench_arena: allocate N objects of 16-256 bytes, then free them all, with the arena and
   with its alternatives (a naive inline bump, a RAD-Debugger-style arena, glibc, mimalloc),
   in one process. The loops are arena_user.c's, compiled at -O2 apart from arena.c as a
   user's program would be. Timing is this thread's CPU time; rounds interleave the
   contestants in rotating order (round r starts at contestant r % n), and each ratio
   against st_arena_push_raw is the median of the rounds' ratios, with its min-max.

   Usage: bench_arena [N [ROUNDS]]   (default 1,000,000 objects, 11 rounds)
          bench_arena --callgrind   one loop per operation, for tools/arena_ir.sh, which
                                    runs it under callgrind and prints instructions per
                                    push and per scratch scope for every contestant */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena_user.h"
#include "bench.h"
#include <strata/core/arena.h>

enum { ROUNDS_MAX = 99 };
static int rounds = 11;
static uint32_t *sizes;
static void **ptrs;
static uint64_t n_objects;

static void print_ratio(const char *name, double ns, double *ratio, int n) {
    double lo = ratio[0], hi = ratio[0];
    for (int r = 1; r < n; r++) lo = ratio[r] < lo ? ratio[r] : lo, hi = ratio[r] > hi ? ratio[r] : hi;
    double med = bench_median_f64(ratio, n);
    if (ns < 0) printf("%-48s %9s %8.2fx  (%.2f-%.2f)\n", name, "", med, lo, hi);
    else printf("%-48s %9.2f %8.2fx  (%.2f-%.2f)\n", name, ns, med, lo, hi);
}

static void table(bool touch) {
    AuContestant who[AU_COUNT];
    int n = 0;
    for (int c = 0; c < AU_COUNT; c++)
        if (arena_user_available((AuContestant)c)) who[n++] = (AuContestant)c;
    static uint64_t t[AU_COUNT][ROUNDS_MAX];
    static double ratio[AU_COUNT][ROUNDS_MAX];
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < n; k++) {
            int i = (r + k) % n;
            t[i][r] = arena_user_run(who[i], sizes, ptrs, n_objects, touch);
        }
        for (int i = 0; i < n; i++) ratio[i][r] = (double)t[i][r] / (double)(t[0][r] ? t[0][r] : 1);
    }
    printf("allocate %llu objects of 16-256 bytes, then free all; thread CPU, %d rotating rounds; %s\n",
           (unsigned long long)n_objects, rounds,
           touch ? "one write into each object" : "no writes (allocator cost alone)");
    printf("%-48s %9s %9s  %s\n", "", "ns/object", "vs raw", "(min-max of the rounds' ratios)");
    for (int i = 0; i < n; i++)
        print_ratio(arena_user_name(who[i]), (double)bench_median_u64(t[i], rounds) / (double)n_objects, ratio[i],
                    rounds);
    printf("\n");
    if (!touch) return;
    /* The summary's rows (tools/bench.sh): the arena's push against each alternative, the
       median of the rounds' ratios. */
    static const struct {
        AuContestant c;
        const char *key;
    } rows[] = {{AU_NAIVE, "naive"}, {AU_RAD, "rad"}, {AU_MALLOC, "malloc"}, {AU_MIMALLOC, "mimalloc"}};
    double ns0 = (double)bench_median_u64(t[0], rounds) / (double)n_objects;
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        int i = 0;
        while (i < n && who[i] != rows[k].c) i++;
        if (i == n) continue; /* not built in (mimalloc missing) */
        double rr[ROUNDS_MAX], lo = 0, hi = 0;
        for (int r = 0; r < rounds; r++) {
            rr[r] = (double)t[0][r] / (double)(t[i][r] ? t[i][r] : 1);
            lo = r == 0 || rr[r] < lo ? rr[r] : lo, hi = r == 0 || rr[r] > hi ? rr[r] : hi;
        }
        printf("summary: arena_vs_%s | arena push + write, 16-256 B | st_arena_push_raw %.2f ns | %s %.2f ns |"
               " %.2fx (%.2f-%.2f)\n",
               rows[k].key, ns0, arena_user_name(rows[k].c), (double)bench_median_u64(t[i], rounds) / (double)n_objects,
               bench_median_f64(rr, rounds), lo, hi);
    }
}

/* st_arena_clear of an arena holding `count` allocations. A clear is O(1) (the cursor, the
   marks and the gate of one block), which the instruction counts show exactly (arena_ir.sh:
   the same count for 1,000 and 1,000,000); timed, it is shorter than the thread CPU clock's
   own read (a system call), so the figure that can be honest is the clear beside an empty
   interval, each sample after a fill of its own and with the clear's code, the arena's header
   and the clock warm again (filling 136 MB evicts them), the three in rotating order. */
enum { CLEAR_MAX = 1000000 };
static uint64_t run_clear(Arena *a, Arena *other, uint64_t count) {
    /* Every sample writes as much (the rest into `other`), so that it leaves the caches as
       full of dirty lines whatever the count. */
    for (uint64_t i = 0; i < count; i++) *(uint64_t *)st_arena_push_raw(a, sizes[i % n_objects], 8) = i;
    for (uint64_t i = count; i < CLEAR_MAX; i++) *(uint64_t *)st_arena_push_raw(other, sizes[i % n_objects], 8) = i;
    st_arena_clear(other);
    volatile uint64_t warm = st_arena_pos(a) + bench_thread_cpu_ns();
    (void)warm;
    uint64_t t0 = bench_thread_cpu_ns();
    if (count) st_arena_clear(a);
    return bench_thread_cpu_ns() - t0;
}

static void clears(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "clear"});
    Arena *other = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "other"});
    enum { CLEAR_ROUNDS = 99 };
    static const uint64_t count[3] = {0, 1000, CLEAR_MAX};
    uint64_t t[3][CLEAR_ROUNDS];
    double ratio[CLEAR_ROUNDS];
    for (int r = 0; r < CLEAR_ROUNDS; r++) {
        for (int k = 0; k < 3; k++) {
            int c = (r + k) % 3;
            t[c][r] = run_clear(a, other, count[c]);
        }
        ratio[r] = (double)t[2][r] / (double)(t[1][r] ? t[1][r] : 1);
    }
    st_arena_release(other);
    st_arena_release(a);
    printf("st_arena_clear, thread CPU, %d rotating rounds (median ns, the clock's own read included):\n",
           CLEAR_ROUNDS);
    printf("  nothing (the clock alone) %llu; holding 1,000 allocations %llu; holding 1,000,000 %llu\n",
           (unsigned long long)bench_median_u64(t[0], CLEAR_ROUNDS),
           (unsigned long long)bench_median_u64(t[1], CLEAR_ROUNDS),
           (unsigned long long)bench_median_u64(t[2], CLEAR_ROUNDS));
    print_ratio("  1,000,000 vs 1,000", -1, ratio, CLEAR_ROUNDS);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--callgrind") == 0) return arena_user_callgrind();
    n_objects = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    if (n_objects == 0) n_objects = 1000000;
    if (argc > 2) rounds = atoi(argv[2]);
    if (rounds < 1 || rounds > ROUNDS_MAX) rounds = 11;
    Arena *perm = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "bench"});
    sizes = st_arena_push_array(perm, uint32_t, n_objects);
    ptrs = st_arena_push_array(perm, void *, n_objects);
    uint32_t x = 2463534242u;
    for (uint64_t i = 0; i < n_objects; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        sizes[i] = 16 + x % 241;
    }
    table(false);
    table(true);
    clears();
    st_arena_release(perm);
    return 0;
}
