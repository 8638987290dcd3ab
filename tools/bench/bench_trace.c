/* bench_trace: what arena timelines cost a frame. A stand-in frame (clear the frame arena,
   push a few hundred draw-sized blocks into it, parse something in a scratch scope, touch
   the level arena) runs FRAMES times with st_arena_trace_sample of 6 arenas at its end and
   FRAMES times without, in interleaved rounds; the difference of the medians is the cost of
   one sample, and the ratio is what it adds to the frame. The sample alone is timed too,
   in a loop of nothing else, and the ring's size for 60 s at 60 Hz is printed.

   Usage: bench_trace [FRAMES]   (default 20,000) */
#include <stdio.h>
#include <stdlib.h>

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

static uint64_t run(World *w, uint64_t frames, bool trace) {
    uint64_t t0 = bench_now_ns();
    for (uint64_t f = 0; f < frames; f++) frame(w, f, trace);
    return bench_now_ns() - t0;
}

static uint64_t run_sample_only(World *w, uint64_t frames) {
    uint64_t t0 = bench_now_ns();
    for (uint64_t f = 0; f < frames; f++) st_arena_trace_sample(&w->trace, w->arenas, ARENAS, f, 1, 2);
    return bench_now_ns() - t0;
}

int main(int argc, char **argv) {
    uint64_t frames = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
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
    run(&w, frames, true); /* warm: every page of the ring and the arenas touched once */

    uint64_t with[ROUNDS], without[ROUNDS], alone[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        /* Alternate which goes first, so neither always follows the other's cache state. */
        if (r % 2) {
            with[r] = run(&w, frames, true);
            without[r] = run(&w, frames, false);
        } else {
            without[r] = run(&w, frames, false);
            with[r] = run(&w, frames, true);
        }
        alone[r] = run_sample_only(&w, frames);
    }
    double mw = (double)bench_median_u64(with, ROUNDS) / (double)frames;
    double mo = (double)bench_median_u64(without, ROUNDS) / (double)frames;
    double ma = (double)bench_median_u64(alone, ROUNDS) / (double)frames;
    printf("stand-in frame: %d pushes, a scratch scope, a level scope; %llu frames, median of "
           "%d interleaved rounds\n",
           PUSHES, (unsigned long long)frames, ROUNDS);
    printf("%-44s %10.1f ns/frame\n", "frame without st_arena_trace_sample", mo);
    printf("%-44s %10.1f ns/frame  (%.3fx)\n", "frame with st_arena_trace_sample (6 arenas)", mw,
           mw / mo);
    printf("%-44s %10.1f ns\n", "  difference: one sample in the frame", mw - mo);
    printf("%-44s %10.1f ns  (%.4f%% of a 16.7 ms frame)\n", "st_arena_trace_sample alone, 6 arenas",
           ma, ma / 16.67e6 * 100);
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
