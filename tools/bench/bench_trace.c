/* bench_trace: what arena timelines cost a frame. A stand-in frame (clear the frame arena,
   push a few hundred draw-sized blocks into it, parse something in a scratch scope, touch
   the level arena) runs FRAMES times with st_arena_trace_sample of 6 arenas at its end and
   FRAMES times without, and the sample alone in a loop of nothing else: thread CPU, the
   three in rotating order round by round (bench.h); with / without is the median of the
   rounds' ratios with its min-max, the difference of the medians the cost of one sample.
   The ring's size for 60 s at 60 Hz is printed. --callgrind: the three under callgrind's
   client requests, for tools/bench_ir.sh (instructions per frame, per sample).

   Usage: bench_trace [FRAMES]   (default 20,000)
          bench_trace --callgrind */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include <strata/core/arena.h>
#include <strata/core/arena_trace.h>

enum { ROUNDS = 15, ARENAS = 6, PUSHES = 300 };

static volatile uint64_t sink;

typedef struct World {
    Arena *arenas[ARENAS]; /* perm, level, frame, scratch x3 */
    ArenaTrace trace;
} World;

/* One frame of the stand-in loop; samples at its end when `trace` is set. */
static void frame(World *w, uint64_t f, bool trace) {
    Arena *level = w->arenas[1], *fr = w->arenas[2];
    st_arena_clear(fr);
    for (int i = 0; i < PUSHES; i++) {
        uint64_t *p = st_arena_push_raw(fr, 48, 8); /* about a DrawCmd */
        *p = f + (uint64_t)i;
    }
    {
        SCRATCH_SCOPE(tmp, fr, level);
        uint8_t *buf = st_arena_push_raw(tmp.arena, 4096 + f % 1024, 16);
        buf[0] = (uint8_t)f;
        sink += buf[0];
    }
    ArenaTemp t = st_arena_temp_begin(level);
    *(uint64_t *)st_arena_push_raw(level, 64, 8) = f;
    st_arena_temp_end(t);
    if (trace) st_arena_trace_sample(&w->trace, w->arenas, ARENAS, f, 1, 2);
}

typedef struct Ctx {
    World *w;
    uint64_t frames;
} Ctx;

/* 0: the frame without the sample, 1: with it, 2: the sample alone. */
static void run(void *ctx, int c) {
    Ctx *x = ctx;
    for (uint64_t f = 0; f < x->frames; f++) {
        if (c < 2) frame(x->w, f, c == 1);
        else st_arena_trace_sample(&x->w->trace, x->w->arenas, ARENAS, f, 1, 2);
    }
}

static void callgrind_mode(Ctx *x) {
    static const char *const name[3] = {"frame", "frame_traced", "sample"};
    static const char *const label[3] = {"stand-in frame", "stand-in frame with st_arena_trace_sample",
                                         "st_arena_trace_sample alone, 6 arenas"};
    x->frames = 2000;
    for (int c = 0; c < 3; c++) {
        bench_callgrind_begin();
        run(x, c);
        bench_callgrind_end(name[c], (double)x->frames, c == 2 ? "sample" : "frame", label[c]);
    }
    bench_callgrind_pair("trace", "frame", "frame_traced");
}

int main(int argc, char **argv) {
    bool cg = argc > 1 && strcmp(argv[1], "--callgrind") == 0;
    uint64_t frames = argc > 1 && !cg ? strtoull(argv[1], NULL, 10) : 20000;
    if (frames == 0) frames = 20000;
    World w = {0};
    w.arenas[0] = st_arena_create((ArenaParams){.name = "perm"});
    w.arenas[1] = st_arena_create(
        (ArenaParams){.reserve_size = 4 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    w.arenas[2] = st_arena_create((ArenaParams){.reserve_size = 16 << 20, .name = "frame"});
    for (int i = 0; i < ARENA_SCRATCH_COUNT; i++) w.arenas[3 + i] = st_scratch_get((uint32_t)i);
    for (int i = 0; i < ARENAS; i++)
        if (!w.arenas[i]) return 1;
    st_arena_push(w.arenas[1], 40000, 8);
    const uint32_t capacity = 60 * 60, marks = 64;
    if (!st_arena_trace_init(&w.trace, w.arenas[0], capacity, marks)) return 1;
    static const char *const names[ARENAS] = {"perm",     "level",    "frame",
                                              "scratch0", "scratch1", "scratch2"};
    for (int i = 0; i < ARENAS; i++) st_arena_trace_name(&w.trace, i, names[i]);
    Ctx x = {&w, frames};
    run(&x, 1); /* warm: every page of the ring and the arenas touched once */
    if (cg) {
        callgrind_mode(&x);
    } else {
        uint64_t t[3 * ROUNDS];
        bench_rounds(3, ROUNDS, run, &x, bench_thread_cpu_ns, t);
        double mo = bench_stat_u64(t, ROUNDS).median / (double)frames;
        double mw = bench_stat_u64(t + ROUNDS, ROUNDS).median / (double)frames;
        double ma = bench_stat_u64(t + 2 * ROUNDS, ROUNDS).median / (double)frames;
        BenchStat q = bench_ratio(t + ROUNDS, t, ROUNDS);
        printf("stand-in frame: %d pushes, a scratch scope, a level scope; %llu frames, thread CPU, %d rounds "
               "in rotating order\n",
               PUSHES, (unsigned long long)frames, ROUNDS);
        printf("  %-44s %10.1f ns/frame\n", "frame without st_arena_trace_sample", mo);
        printf("  %-44s %10.1f ns/frame\n", "frame with st_arena_trace_sample (6 arenas)", mw);
        bench_row("with / without", q, "x");
        printf("  %-44s %10.1f ns\n", "difference: one sample in the frame", mw - mo);
        printf("  %-44s %10.1f ns  (%.4f%% of a 16.7 ms frame)\n", "st_arena_trace_sample alone, 6 arenas", ma,
               ma / 16.67e6 * 100);
        char ours[64], alt[64];
        snprintf(ours, sizeof ours, "%.0f ns/frame traced", mw);
        snprintf(alt, sizeof alt, "untraced %.0f ns/frame", mo);
        bench_summary("trace", "arena timeline sample: frame with / without", ours, alt, q);
    }
    printf("\nring: %zu bytes a sample, %zu a mark; 60 s at 60 Hz = %u samples = %llu bytes, "
           "+ %u marks = %llu bytes\n",
           sizeof(ArenaTraceSample), sizeof(ArenaTraceMark), capacity,
           (unsigned long long)ARENA_TRACE_BYTES(capacity, 0), marks,
           (unsigned long long)ARENA_TRACE_BYTES(capacity, marks));
    sink += st_arena_trace_at(&w.trace, 0)->used[2];
    st_arena_release(w.arenas[2]);
    st_arena_release(w.arenas[1]);
    st_arena_release(w.arenas[0]);
    return 0;
}
