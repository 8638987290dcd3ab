/* bench_containers - what the Allocator choice costs.

   1. List growth to 1,000,000 int32 through st_allocator_arena (grows in place: no copy)
      vs st_allocator_system (realloc) [vs a mimalloc Allocator when available].
   2. Formatting a HUD line: st_str8_fmt into an arena vs snprintf into a malloc'ed buffer
      (measure, malloc, format; freed per "frame" of 1000 lines), plus stbsp_snprintf into
      malloc to tell formatter cost from allocation cost.
   Thread CPU, the contestants in rotating order round by round (bench.h), each ratio the
   median of the rounds' ratios with its min-max. "buffer moves" counts how often the List's
   data pointer changed while growing: each is a realloc that could not extend in place
   (glibc may still avoid the byte copy with mremap). --callgrind: one run of each under
   callgrind's client requests, for tools/bench_ir.sh (instructions per add, per line).

   Usage: bench_containers [--callgrind] */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

enum { REPS = 11, LIST_N = 1000000, FMT_N = 200000, FRAME = 1000, ROWS = 4 };

static volatile uint64_t sink; /* keeps results observable so no loop is optimised away */

/* ---- 1. List growth */

static int list_moves; /* times the buffer moved in the last run (a move is a copy) */

static void list_run(Allocator alloc, Arena *arena, bool reserve) {
    list_moves = 0;
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
/* Lines a run formats: FMT_N timed; a tenth under callgrind, where each line costs 40 times
   as long and the count per line is the same to a few instructions. */
static int fmt_n = FMT_N;

static void fmt_arena(Arena *frame) {
    uint64_t total = 0;
    for (int i = 0; i < fmt_n; i++) {
        Str8 s = st_str8_fmt(frame, HUD_FMT, HUD_ARGS(i));
        total += s.len + (uint8_t)s.data[s.len - 1];
        if ((i + 1) % FRAME == 0) st_arena_clear(frame);
    }
    st_arena_clear(frame);
    sink += total;
}

static void fmt_malloc(bool use_stb) {
    static char *frame_bufs[FRAME];
    uint64_t total = 0;
    for (int i = 0; i < fmt_n; i++) {
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
}

typedef struct Row {
    const char *name, *cg;
    Allocator alloc;
    Arena *arena;
    bool reserve;
    int moves;
} Row;

typedef struct Ctx {
    Row rows[ROWS];
    int nrows;
    Arena *frame;
} Ctx;

static void run_list(void *ctx, int c) {
    Row *r = &((Ctx *)ctx)->rows[c];
    list_run(r->alloc, r->arena, r->reserve);
    r->moves = list_moves;
}

static void run_fmt(void *ctx, int c) {
    if (c == 0) fmt_arena(((Ctx *)ctx)->frame);
    else fmt_malloc(c == 2);
}

static const char *const fmt_names[3] = {"st_str8_fmt into arena (stb_sprintf)", "snprintf into malloc",
                                         "stbsp_snprintf into malloc"};

static void callgrind_mode(Ctx *x) {
    static const char *const cg_fmt[3] = {"fmt_arena", "fmt_malloc", "fmt_stb_malloc"};
    fmt_n = FMT_N / 10;
    for (int r = 0; r < x->nrows; r++) {
        run_list(x, r);
        bench_callgrind_begin();
        run_list(x, r);
        bench_callgrind_end(x->rows[r].cg, LIST_N, "add", x->rows[r].name);
    }
    for (int c = 0; c < 3; c++) {
        run_fmt(x, c);
        bench_callgrind_begin();
        run_fmt(x, c);
        bench_callgrind_end(cg_fmt[c], (uint64_t)fmt_n, "line", fmt_names[c]);
    }
    bench_callgrind_pair("list_growth", "list_arena", "list_system");
    bench_callgrind_pair("hud_fmt", "fmt_arena", "fmt_malloc");
}

static void report_list(Ctx *x, const uint64_t *t) {
    printf("List growth to %d int32 (st_list_add one at a time), thread CPU, %d rounds in rotating order\n", LIST_N,
           REPS);
    printf("  %-22s %12s %10s %14s\n", "allocator", "total ms", "ns/add", "buffer moves");
    for (int r = 0; r < x->nrows; r++) {
        double m = bench_stat_u64(t + r * REPS, REPS).median;
        printf("  %-22s %12.3f %10.2f %14d\n", x->rows[r].name, m / 1e6, m / LIST_N, x->rows[r].moves);
    }
    for (int r = 0; r < x->nrows; r++) {
        if (r == 1) continue;
        char name[64];
        snprintf(name, sizeof name, "st_allocator_system / %s", x->rows[r].name);
        bench_row(name, bench_ratio(t + 1 * REPS, t + r * REPS, REPS), "x");
    }
    BenchStat q = bench_ratio(t + 1 * REPS, t, REPS);
    char ours[64], alt[64];
    snprintf(ours, sizeof ours, "%.2f ns/add, %d moves", bench_stat_u64(t, REPS).median / LIST_N, x->rows[0].moves);
    snprintf(alt, sizeof alt, "realloc %.2f ns/add, %d moves", bench_stat_u64(t + REPS, REPS).median / LIST_N,
             x->rows[1].moves);
    bench_summary("list_growth", "List growth to 1M: realloc / arena", ours, alt, q);
}

static void report_fmt(const uint64_t *t) {
    printf("\nFormatting \"%s\" x %d (freed every %d), thread CPU, %d rounds in rotating order\n", HUD_FMT, FMT_N,
           FRAME, REPS);
    printf("  %-44s %10s\n", "method", "ns/line");
    for (int c = 0; c < 3; c++)
        printf("  %-44s %10.1f\n", fmt_names[c], bench_stat_u64(t + c * REPS, REPS).median / FMT_N);
    BenchStat q = bench_ratio(t + 1 * REPS, t, REPS);
    bench_row("snprintf+malloc / st_str8_fmt", q, "x");
    bench_row("stbsp_snprintf+malloc / st_str8_fmt", bench_ratio(t + 2 * REPS, t, REPS), "x");
    char ours[64], alt[64];
    snprintf(ours, sizeof ours, "%.1f ns/line", bench_stat_u64(t, REPS).median / FMT_N);
    snprintf(alt, sizeof alt, "snprintf+malloc %.1f ns", bench_stat_u64(t + REPS, REPS).median / FMT_N);
    bench_summary("hud_fmt", "HUD line: snprintf+malloc / st_str8_fmt", ours, alt, q);
}

int main(int argc, char **argv) {
    Arena *arena = st_arena_create((ArenaParams){.name = "bench-list"});
    Arena *frame = st_arena_create((ArenaParams){.name = "bench-frame"});
    if (!arena || !frame) return 1;

    static Ctx x;
    x.frame = frame;
    x.rows[0] = (Row){.name = "st_allocator_arena", .cg = "list_arena", .alloc = st_allocator_arena(arena), .arena = arena};
    x.rows[1] = (Row){.name = "st_allocator_system", .cg = "list_system", .alloc = st_allocator_system()};
    x.rows[2] = (Row){.name = "system, reserved 1st", .cg = "list_reserved", .alloc = st_allocator_system(), .reserve = true};
    x.nrows = 3;
#ifdef HAVE_MIMALLOC
    x.rows[x.nrows++] = (Row){.name = "mimalloc Allocator", .cg = "list_mimalloc", .alloc = {mimalloc_fn, NULL}};
#endif
    if (argc > 1 && strcmp(argv[1], "--callgrind") == 0) {
        callgrind_mode(&x);
    } else {
        static uint64_t t[ROWS * REPS];
        for (int r = 0; r < x.nrows; r++) run_list(&x, r); /* warm */
        bench_rounds(x.nrows, REPS, run_list, &x, bench_thread_cpu_ns, t);
        report_list(&x, t);
        for (int c = 0; c < 3; c++) run_fmt(&x, c);
        bench_rounds(3, REPS, run_fmt, &x, bench_thread_cpu_ns, t);
        report_fmt(t);
    }

    st_arena_release(arena);
    st_arena_release(frame);
    return sink == 42 ? 2 : 0;
}
