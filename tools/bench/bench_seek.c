/* bench_seek.c - what the replay viewer (game/app/viewer.h) costs on the full committed run:
   the pass that opens it (the run played through, a keyframe a second kept), and a seek,
   against the alternative without keyframes, playing from the start to the tick.

   Set up as the App does it: the Game, the rewind (rules/rewind.h, every tick through
   rewind_update, its history recorded), the viewer's part of the history arena first. Three
   contestants, in rotating order round by round (round r starts with contestant r % 3),
   each timed in this thread's CPU time:
     pass      viewer_open again (the keyframes dropped, the Game put back on tick 0)
     seek      to the tick before each keyframe (59 ticks to play, the most a seek plays)
               from half the run away: every keyframe's, the worst of them kept
     straight  the same ticks, every 8th, from tick 0 (restore it, play to the tick)
   The ratio straight / seek is taken per round on the same ticks, then its median and
   min-max. With --callgrind, one pass and every keyframe's worst seek, each between
   bench.h's callgrind markers for tools/bench_ir.sh (instructions per pass and per seek).

   Usage: bench_seek [ROUNDS] | --callgrind     (default 15 rounds; run from the source tree) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/viewer.h"
#include "bench.h"
#include <strata/core/base.h>
#include "rules/rewind.h"

enum { CONTESTANTS = 3, STRAIGHT_EVERY = 8 };

typedef struct Bench {
    Replay r;
    Game g;
    Rewind rw;
    Arena *level, *history;
    Viewer *v;
} Bench;

static void step(void *ctx, uint16_t input) {
    Bench *b = ctx;
    rewind_update(&b->rw, &b->g, input);
}

static void forget(void *ctx) { rewind_forget(&((Bench *)ctx)->rw); }

static bool setup(Bench *b, Arena *perm) {
    Error err;
    b->level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    b->history =
        st_arena_create((ArenaParams){.reserve_size = 16u << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    if (!replay_load(&b->r, perm, "tests/replays/full-run.rep", &err) ||
        !game_init(&b->g, b->level, &(GameConfig){.start_level = b->r.level, .seed = b->r.seed, .skip_title = true},
                   &err)) {
        fprintf(stderr, "bench_seek: %s (run from the source tree)\n", err.message);
        return false;
    }
    ViewerParams p = {.replay = &b->r,
                      .g = &b->g,
                      .regions = b->rw.regions,
                      .region_count = 2,
                      .step = step,
                      .forget = forget,
                      .ctx = b,
                      .history_bits = GAME_IN_REWIND,
                      .bytes = 1u << 20,
                      .state_max = 1u << 20};
    b->v = viewer_create(b->history, &p, &err);
    if (!b->v || !rewind_init(&b->rw, b->history, &b->g, &err) || !viewer_open(b->v, &err)) {
        fprintf(stderr, "bench_seek: %s\n", err.message);
        return false;
    }
    return true;
}

/* The pass again, from tick 0 with nothing kept. */
static void cg_pass(Bench *b) {
    Viewer *v = b->v;
    viewer_seek(v, 0);
    st_history_clear(v->keys, 0);
    rewind_forget(&b->rw);
    v->opened = false, v->mark_count = 0;
    Error err;
    if (!viewer_open(v, &err)) fprintf(stderr, "bench_seek: %s\n", err.message), exit(1);
}

static uint64_t worst_tick(const Viewer *v, uint32_t k) {
    return MIN((uint64_t)k * v->p.keyframe_every + v->p.keyframe_every - 1, (uint64_t)v->ticks);
}

/* A seek to the worst tick of keyframe k, from half the run away; its CPU time. */
static uint64_t seek_from_afar(Viewer *v, uint32_t k) {
    uint64_t to = worst_tick(v, k);
    viewer_seek(v, (to + v->ticks / 2) % (v->ticks + 1));
    uint64_t t0 = bench_thread_cpu_ns();
    viewer_seek(v, to);
    return bench_thread_cpu_ns() - t0;
}

static void cg_seeks(Bench *b, uint32_t keyframes) {
    for (uint32_t k = 0; k < keyframes; k++) viewer_seek(b->v, worst_tick(b->v, k));
}

/* From tick 0 to `to`, every tick played (what a seek would cost without keyframes). */
static void straight_to(Bench *b, uint64_t to) {
    Viewer *v = b->v;
    st_history_restore(v->keys, 0, v->p.regions, v->p.region_count);
    rewind_forget(&b->rw);
    for (uint64_t i = 0; i < to; i++) step(b, st_history_input(v->keys, i));
    v->tick = to;
}

typedef struct Round {
    uint64_t pass, worst, seek_sum, seek_some, straight_some;
} Round;

static void contestant(Bench *b, int c, uint32_t keyframes, Round *out) {
    if (c == 0) {
        uint64_t t0 = bench_thread_cpu_ns();
        cg_pass(b);
        out->pass = bench_thread_cpu_ns() - t0;
    } else if (c == 1) {
        for (uint32_t k = 0; k < keyframes; k++) {
            uint64_t t = seek_from_afar(b->v, k);
            out->worst = MAX(out->worst, t);
            out->seek_sum += t;
            if (k % STRAIGHT_EVERY == 0) out->seek_some += t;
        }
    } else {
        for (uint32_t k = 0; k < keyframes; k += STRAIGHT_EVERY) {
            uint64_t t0 = bench_thread_cpu_ns();
            straight_to(b, worst_tick(b->v, k));
            out->straight_some += bench_thread_cpu_ns() - t0;
        }
    }
}

static void print_ms(const char *what, uint64_t *v, int n) {
    uint64_t lo = v[0], hi = v[0];
    for (int i = 1; i < n; i++) lo = MIN(lo, v[i]), hi = MAX(hi, v[i]);
    printf("%-52s %9.3f ms  (%.3f-%.3f)\n", what, (double)bench_median_u64(v, n) / 1e6, (double)lo / 1e6,
           (double)hi / 1e6);
}

int main(int argc, char **argv) {
    bool callgrind = argc > 1 && strcmp(argv[1], "--callgrind") == 0;
    int rounds = argc > 1 && !callgrind ? atoi(argv[1]) : 15;
    if (rounds < 1 || rounds > 1001) rounds = 15;
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    static Bench b;
    if (!perm || !setup(&b, perm)) return 1;
    uint32_t keyframes = st_history_stats(b.v->keys).keyframes;
    if (callgrind) {
        bench_callgrind_begin();
        cg_pass(&b);
        bench_callgrind_end("cg_pass", 1, "pass", "the pass (the run played through, keyframes kept)");
        bench_callgrind_begin();
        cg_seeks(&b, keyframes);
        bench_callgrind_end("cg_seeks", keyframes, "seek", "a seek to a keyframe's last tick");
        return 0;
    }
    uint64_t *pass = calloc((size_t)rounds * 5, sizeof *pass), *worst = pass + rounds, *mean = worst + rounds;
    double *ratio = calloc((size_t)rounds, sizeof *ratio);
    if (!pass || !ratio) return 1;
    for (int r = 0; r < rounds; r++) {
        Round rd = {0};
        for (int i = 0; i < CONTESTANTS; i++) contestant(&b, (r + i) % CONTESTANTS, keyframes, &rd);
        pass[r] = rd.pass, worst[r] = rd.worst, mean[r] = rd.seek_sum / keyframes;
        ratio[r] = (double)rd.straight_some / (double)rd.seek_some;
    }
    double rlo = ratio[0], rhi = ratio[0];
    for (int i = 1; i < rounds; i++) rlo = ratio[i] < rlo ? ratio[i] : rlo, rhi = ratio[i] > rhi ? ratio[i] : rhi;
    HistoryStats s = st_history_stats(b.v->keys);
    printf("full-run.rep: %u ticks, %u keyframes (one every %u ticks), %llu bytes of them; thread CPU time, "
           "median of %d rounds in rotating order (min-max)\n",
           b.v->ticks, keyframes, b.v->p.keyframe_every, (unsigned long long)s.held_bytes, rounds);
    print_ms("the pass (opening the viewer: the run played through)", pass, rounds);
    print_ms("a seek to a keyframe's last tick from afar, the worst", worst, rounds);
    print_ms("... the mean of those", mean, rounds);
    printf("%-52s %9.1fx    (%.1f-%.1f)\n", "playing from tick 0 instead / the seek", bench_median_f64(ratio, rounds),
           rlo, rhi);
    free(ratio);
    free(pass);
    return 0;
}
