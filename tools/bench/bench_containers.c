/* bench_containers - what the Allocator choice costs.

   1. List growth to 1,000,000 int32 through st_allocator_arena (grows in place: no copy)
      vs st_allocator_system (realloc) [vs a mimalloc Allocator when available].
   2. Formatting a HUD line: st_str8_fmt into an arena vs snprintf into a malloc'ed buffer
      (measure, malloc, format; freed per "frame" of 1000 lines), plus stbsp_snprintf into
      malloc to tell formatter cost from allocation cost.
   Every figure is the median of REPS runs, all measured in this one process. "buffer moves"
   counts how often the List's data pointer changed while growing: each is a realloc that
   could not extend in place (glibc may still avoid the byte copy with mremap). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The bench's own stb_sprintf: the engine's copy is private to it. */
#define STB_SPRINTF_IMPLEMENTATION
#define STB_SPRINTF_NOUNALIGNED /* as the engine's: UBSan checks alignment */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include <stb_sprintf.h>
#pragma GCC diagnostic pop

#include "bench.h"
#include <strata/core/allocator.h>
#include <strata/core/list.h>
#include <strata/core/str8.h>

#ifdef HAVE_MIMALLOC
#include <mimalloc.h>
#endif

enum { REPS = 11, LIST_N = 1000000, FMT_N = 200000, FRAME = 1000 };

static volatile uint64_t sink; /* keeps results observable so no loop is optimised away */

/* ---- 1. List growth */

static int list_moves; /* times the buffer moved in the last run (a move is a copy) */

static double list_run(Allocator alloc, Arena *arena, bool reserve) {
    list_moves = 0;
    double t0 = (double)bench_now_ns();
    List l = st_list_make(sizeof(int32_t), alloc);
    if (reserve && !st_list_reserve(&l, LIST_N)) exit(1);
    int32_t *last = NULL;
    for (int32_t i = 0; i < LIST_N; i++) {
        int32_t *p = st_list_add(&l);
        if (!p) {
            fprintf(stderr, "st_list_add failed at %d\n", i);
            exit(1);
        }
        *p = i;
        if (p != LIST_DATA(&l, int32_t) + i) exit(1);
        if (i && p - 1 != last) list_moves++;
        last = p;
    }
    sink += (uint64_t)LIST_DATA(&l, int32_t)[LIST_N - 1];
    st_list_reset(&l);
    if (arena) st_arena_clear(arena);
    return (double)bench_now_ns() - t0;
}

#ifdef HAVE_MIMALLOC
static void *mimalloc_fn(AllocParams p) {
    switch (p.mode) {
    case ALLOC_MODE_ALLOC: return mi_zalloc_aligned(p.request, p.align);
    case ALLOC_MODE_REALLOC: return mi_rezalloc_aligned(p.ptr, p.request, p.align);
    case ALLOC_MODE_FREE: mi_free(p.ptr); return NULL;
    case ALLOC_MODE_FREE_ALL: return NULL;
    }
    return NULL;
}
#endif

/* ---- 2. Formatting */

#define HUD_FMT "HP %d/%d  score %08d  keys %s  t=%.2f"
#define HUD_ARGS(i) (int)((i) % 100), 100, (int)(i)*37, ((i)&1) ? "RG" : "B", (double)(i)*0.016

static double fmt_arena(Arena *frame) {
    double t0 = (double)bench_now_ns();
    uint64_t total = 0;
    for (int i = 0; i < FMT_N; i++) {
        Str8 s = st_str8_fmt(frame, HUD_FMT, HUD_ARGS(i));
        total += s.len + (uint8_t)s.data[s.len - 1];
        if ((i + 1) % FRAME == 0) st_arena_clear(frame);
    }
    st_arena_clear(frame);
    sink += total;
    return (double)bench_now_ns() - t0;
}

static double fmt_malloc(bool use_stb) {
    static char *frame_bufs[FRAME];
    double t0 = (double)bench_now_ns();
    uint64_t total = 0;
    for (int i = 0; i < FMT_N; i++) {
        int n = use_stb ? stbsp_snprintf(NULL, 0, HUD_FMT, HUD_ARGS(i)) : snprintf(NULL, 0, HUD_FMT, HUD_ARGS(i));
        char *buf = malloc((size_t)n + 1);
        if (!buf) exit(1);
        if (use_stb) stbsp_snprintf(buf, n + 1, HUD_FMT, HUD_ARGS(i));
        else snprintf(buf, (size_t)n + 1, HUD_FMT, HUD_ARGS(i));
        total += (uint64_t)n + (uint8_t)buf[n - 1];
        frame_bufs[i % FRAME] = buf;
        if ((i + 1) % FRAME == 0)
            for (int k = 0; k < FRAME; k++) free(frame_bufs[k]);
    }
    sink += total;
    return (double)bench_now_ns() - t0;
}

int main(void) {
    Arena *arena = st_arena_create((ArenaParams){.name = "bench-list"});
    Arena *frame = st_arena_create((ArenaParams){.name = "bench-frame"});
    if (!arena || !frame) return 1;

    typedef struct Row {
        const char *name;
        Allocator alloc;
        Arena *arena;
        bool reserve;
        double t[REPS];
        int moves;
    } Row;
    Row rows[4] = {
        {.name = "st_allocator_arena", .alloc = st_allocator_arena(arena), .arena = arena},
        {.name = "st_allocator_system", .alloc = st_allocator_system()},
        {.name = "system, reserved 1st", .alloc = st_allocator_system(), .reserve = true},
    };
    int nrows = 3;
#ifdef HAVE_MIMALLOC
    rows[nrows++] = (Row){.name = "mimalloc Allocator", .alloc = {mimalloc_fn, NULL}};
#endif
    for (int r = 0; r < nrows; r++) list_run(rows[r].alloc, rows[r].arena, rows[r].reserve);
    for (int rep = 0; rep < REPS; rep++) /* interleaved, so drift hits every row alike */
        for (int r = 0; r < nrows; r++)
            rows[r].t[rep] = list_run(rows[r].alloc, rows[r].arena, rows[r].reserve), rows[r].moves = list_moves;

    printf("List growth to %d int32 (st_list_add one at a time), median of %d runs\n", LIST_N, REPS);
    printf("%-22s %12s %10s %14s %14s\n", "allocator", "total ms", "ns/add", "vs system", "buffer moves");
    double sys_med = 0, meds[4];
    for (int r = 0; r < nrows; r++) meds[r] = bench_median_f64(rows[r].t, REPS);
    sys_med = meds[1];
    for (int r = 0; r < nrows; r++)
        printf("%-22s %12.3f %10.2f %13.2fx %14d\n", rows[r].name, meds[r] / 1e6, meds[r] / LIST_N, sys_med / meds[r],
               rows[r].moves);

    double ta[REPS], tm[REPS], ts[REPS];
    fmt_arena(frame), fmt_malloc(false), fmt_malloc(true); /* warm up */
    for (int rep = 0; rep < REPS; rep++) {
        ta[rep] = fmt_arena(frame);
        tm[rep] = fmt_malloc(false);
        ts[rep] = fmt_malloc(true);
    }
    double ma = bench_median_f64(ta, REPS), mm = bench_median_f64(tm, REPS), ms = bench_median_f64(ts, REPS);
    printf("\nFormatting \"%s\" x %d (freed every %d), median of %d runs\n", HUD_FMT, FMT_N, FRAME, REPS);
    printf("%-34s %10s %16s\n", "method", "ns/op", "vs snprintf+malloc");
    printf("%-34s %10.1f %15.2fx\n", "st_str8_fmt into arena (stb_sprintf)", ma / FMT_N, mm / ma);
    printf("%-34s %10.1f %15.2fx\n", "snprintf into malloc", mm / FMT_N, 1.0);
    printf("%-34s %10.1f %15.2fx\n", "stbsp_snprintf into malloc", ms / FMT_N, mm / ms);

    st_arena_release(arena);
    st_arena_release(frame);
    return sink == 42 ? 2 : 0;
}
