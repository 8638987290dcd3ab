/* bench_arena: allocate N objects of 16-256 bytes, then free them all, with the arena and
   with the heap allocators it replaces, in one process. Prints ns per object (median of
   several rounds) and each allocator's ratio against st_arena_push_raw.

   Usage: bench_arena [N]   (default 1,000,000)
          bench_arena --callgrind   one loop per operation, for tools/arena_ir.sh, which
                                    runs it under callgrind and prints instructions per
                                    push and per scratch scope */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include <strata/core/arena.h>
#ifdef HAVE_MIMALLOC
#include <mimalloc.h>
#endif

enum { ROUNDS = 11 };

static uint32_t *sizes;
static void **ptrs;
static uint64_t n_objects;
static volatile uint64_t sink;
static bool touch; /* write one word into every object, as a real caller would */

typedef enum { ARENA_RAW, ARENA_ZERO, ARENA_RAW_FRESH, ARENA_ZERO_FRESH } ArenaMode;

static uint64_t run_arena(Arena *warm, ArenaMode mode) {
    Arena *a = warm;
    if (mode == ARENA_RAW_FRESH || mode == ARENA_ZERO_FRESH)
        a = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "fresh"});
    bool zero = mode == ARENA_ZERO || mode == ARENA_ZERO_FRESH;
    uint64_t t0 = bench_now_ns();
    for (uint64_t i = 0; i < n_objects; i++) {
        uint64_t *p = zero ? st_arena_push(a, sizes[i], 8) : st_arena_push_raw(a, sizes[i], 8);
        if (touch) *p = i;
        ptrs[i] = p;
    }
    st_arena_clear(a);
    uint64_t t = bench_now_ns() - t0;
    if (a != warm) st_arena_release(a);
    return t;
}

typedef enum { HEAP_MALLOC, HEAP_CALLOC, HEAP_MIMALLOC } HeapMode;

static uint64_t run_heap(HeapMode mode) {
    uint64_t t0 = bench_now_ns();
    for (uint64_t i = 0; i < n_objects; i++) {
        uint64_t *p;
        switch (mode) {
        case HEAP_MALLOC: p = malloc(sizes[i]); break;
        case HEAP_CALLOC: p = calloc(1, sizes[i]); break;
#ifdef HAVE_MIMALLOC
        case HEAP_MIMALLOC: p = mi_malloc(sizes[i]); break;
#endif
        default: p = NULL;
        }
        if (touch) *p = i;
        ptrs[i] = p;
    }
    for (uint64_t i = 0; i < n_objects; i++) {
#ifdef HAVE_MIMALLOC
        if (mode == HEAP_MIMALLOC) {
            mi_free(ptrs[i]);
            continue;
        }
#endif
        free(ptrs[i]);
    }
    return bench_now_ns() - t0;
}

/* The cost of st_arena_clear alone, on an arena holding `count` allocations. */
static uint64_t run_clear(Arena *a, Arena *empty, uint64_t count) {
    for (uint64_t i = 0; i < count; i++) *(uint64_t *)st_arena_push_raw(a, sizes[i % n_objects], 8) = i;
    /* Filling 136 MB evicted the header, the clear's code and the clock's from the caches;
       bring them back so the timing is of the clear, not of cache misses. */
    st_arena_clear(empty);
    sink = st_arena_pos(a) + bench_now_ns();
    uint64_t t0 = bench_now_ns();
    st_arena_clear(a);
    return bench_now_ns() - t0;
}

static void table(Arena *warm) {
    struct { const char *name; uint64_t t[ROUNDS]; int kind, mode; } rows[] = {
        {"st_arena_push_raw + st_arena_clear", {0}, 0, ARENA_RAW},
        {"st_arena_push + st_arena_clear (reused memory)", {0}, 0, ARENA_ZERO},
        {"st_arena_push_raw, fresh arena", {0}, 0, ARENA_RAW_FRESH},
        {"st_arena_push, fresh arena", {0}, 0, ARENA_ZERO_FRESH},
        {"glibc malloc + free", {0}, 1, HEAP_MALLOC},
        {"glibc calloc + free", {0}, 1, HEAP_CALLOC},
#ifdef HAVE_MIMALLOC
        {"mimalloc mi_malloc + mi_free", {0}, 1, HEAP_MIMALLOC},
#endif
    };
    int nrows = (int)(sizeof rows / sizeof rows[0]);
    /* Rounds interleave the allocators so that noise on this shared machine hits all alike. */
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < nrows; i++)
            rows[i].t[r] = rows[i].kind == 0 ? run_arena(warm, (ArenaMode)rows[i].mode)
                                             : run_heap((HeapMode)rows[i].mode);

    printf("allocate %llu objects of 16-256 bytes, then free all; median of %d rounds; %s\n",
           (unsigned long long)n_objects, ROUNDS,
           touch ? "one write into each object" : "no writes (allocator cost alone)");
    printf("%-44s %10s %12s\n", "", "ns/object", "vs raw push");
    double raw = 0, fresh_raw = 0;
    for (int i = 0; i < nrows; i++) {
        double ns = (double)bench_median_u64(rows[i].t, ROUNDS) / (double)n_objects;
        if (i == 0) raw = ns;
        if (rows[i].mode == ARENA_RAW_FRESH && rows[i].kind == 0) fresh_raw = ns;
        printf("%-44s %10.2f %11.1fx\n", rows[i].name, ns, ns / raw);
        if (rows[i].mode == ARENA_ZERO_FRESH && rows[i].kind == 0)
            printf("%-44s %10s %11.2fx\n", "  (zeroed fresh vs raw fresh)", "", ns / fresh_raw);
    }

    printf("\n");
}

/* ---- Instruction counts. Each loop is its own function so that callgrind's
   --toggle-collect can count it alone; the pushes are compiled here, in a translation unit
   apart from arena.c, as in any caller. The size is read from a volatile so that it does not
   fold into a constant. */
enum { CG_LOOPS = 100000 };
static void *volatile cg_sink;
static volatile uint64_t cg_size = 32;

__attribute__((noinline)) static void cg_empty(Arena *a) {
    uint64_t size = cg_size;
    for (int i = 0; i < CG_LOOPS; i++) cg_sink = (char *)a + size;
}
__attribute__((noinline)) static void cg_push_raw(Arena *a) {
    uint64_t size = cg_size;
    for (int i = 0; i < CG_LOOPS; i++) cg_sink = st_arena_push_raw(a, size, 8);
}
__attribute__((noinline)) static void cg_push_zero(Arena *a) {
    uint64_t size = cg_size;
    for (int i = 0; i < CG_LOOPS; i++) cg_sink = st_arena_push(a, size, 8);
}
/* A frame's arena: 100 pushes, then the clear at the top of the next frame. */
__attribute__((noinline)) static void cg_frame(Arena *a) {
    uint64_t size = cg_size;
    for (int f = 0; f < CG_LOOPS / 100; f++) {
        for (int i = 0; i < 100; i++) cg_sink = st_arena_push_raw(a, size, 8);
        st_arena_clear(a);
    }
}
__attribute__((noinline)) static void cg_scratch(Arena *out) {
    uint64_t size = cg_size;
    for (int i = 0; i < CG_LOOPS; i++) {
        ArenaTemp tmp = st_scratch_begin(&out, 1);
        cg_sink = st_arena_push_raw(tmp.arena, size, 8);
        st_scratch_end(tmp);
    }
}

/* Each loop runs once, on memory already committed and dirtied by the warm-up above it,
   so that its count is the steady state. */
static int callgrind_loops(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "cg"});
    Arena *out = st_arena_create((ArenaParams){.name = "out"});
    for (int i = 0; i < CG_LOOPS; i++) st_arena_push(a, cg_size, 8);
    st_arena_clear(a);
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) st_arena_push(st_scratch_get(i), cg_size, 8);
    cg_empty(a);
    cg_push_raw(a);
    st_arena_clear(a);
    cg_push_zero(a); /* on reused memory: every byte is zeroed */
    st_arena_clear(a);
    cg_frame(a);
    st_arena_clear(a);
    cg_scratch(out);
    printf("loops %d\n", CG_LOOPS);
    st_arena_release(out);
    st_arena_release(a);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--callgrind") == 0) return callgrind_loops();
    n_objects = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    if (n_objects == 0) n_objects = 1000000;
    Arena *perm = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "bench"});
    sizes = st_arena_push_array(perm, uint32_t, n_objects);
    ptrs = st_arena_push_array(perm, void *, n_objects);
    uint32_t x = 2463534242u;
    for (uint64_t i = 0; i < n_objects; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        sizes[i] = 16 + x % 241;
    }
    Arena *warm = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "warm"});
    run_arena(warm, ARENA_ZERO); /* commit and dirty the pages once */
    for (int pass = 0; pass < 2; pass++) {
        touch = pass == 1;
        table(warm);
    }

    uint64_t small[ROUNDS], big[ROUNDS];
    Arena *empty = st_arena_create((ArenaParams){.name = "empty"});
    for (int r = 0; r < ROUNDS; r++) {
        small[r] = run_clear(warm, empty, 1000);
        big[r] = run_clear(warm, empty, 1000000);
    }
    st_arena_release(empty);
    uint64_t s = bench_median_u64(small, ROUNDS), b = bench_median_u64(big, ROUNDS);
    printf("\narena_clear holding 1,000 allocations:     %6llu ns\n", (unsigned long long)s);
    printf("st_arena_clear holding 1,000,000 allocations: %6llu ns  (%.2fx the 1,000 case)\n",
           (unsigned long long)b, s ? (double)b / (double)s : 0.0);
    st_arena_release(warm);
    st_arena_release(perm);
    return 0;
}
