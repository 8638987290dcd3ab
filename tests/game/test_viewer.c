/* test_viewer.c - the replay viewer's seeks are exact (app/viewer.h).

   full-run.rep is played straight once, the hash after every tick kept; then the viewer opens
   on a second Game (its own level arena, a history arena) and seeks to 20 random ticks
   (seeded: the seed is printed, AD_SCRUB_SEED=N runs that one again), each level change and
   the ticks on either side of it, the start and the end, backwards and forwards, and steps a
   tick each way: every hash must be the straight run's at that tick. Then the keyframes'
   bounds: an arena too small for them is an error, never a wrong state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/viewer.h"
#include "check.h"

static Arena *perm;

typedef struct Run {
    Replay r;
    Game g;
    Arena *level;
    HistoryRegion regions[2];
} Run;

static void step(void *ctx, uint16_t input) { game_update(&((Run *)ctx)->g, input); }

static bool run_begin(Run *run) {
    Error err;
    if (!replay_load(&run->r, perm, "tests/replays/full-run.rep", &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    run->level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    GameConfig cfg = {.start_level = run->r.level, .seed = run->r.seed, .skip_title = true};
    if (!game_init(&run->g, run->level, &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    run->regions[0] = (HistoryRegion){.data = &run->g, .size = sizeof run->g};
    run->regions[1] = (HistoryRegion){.arena = run->level};
    return true;
}

static Viewer *viewer_on(Run *run, Arena *history, uint64_t state_max, Error *err) {
    ViewerParams p = {.replay = &run->r,
                      .g = &run->g,
                      .regions = run->regions,
                      .region_count = 2,
                      .step = step,
                      .ctx = run,
                      .state_max = state_max};
    Viewer *v = viewer_create(history, &p, err);
    return v && viewer_open(v, err) ? v : NULL;
}

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int seek_and_check(Viewer *v, Run *run, const uint64_t *hashes, uint64_t t, uint64_t seed) {
    uint64_t from = v->tick;
    uint64_t got = viewer_seek(v, t);
    uint64_t h = game_hash(&run->g);
    CHECK_EQ_U(got, t);
    if (h != hashes[t]) {
        printf("MISMATCH: seek %llu -> %llu: hash %016llx, straight %016llx (seed %llu)\n", (unsigned long long)from,
               (unsigned long long)t, (unsigned long long)h, (unsigned long long)hashes[t], (unsigned long long)seed);
        CHECK_EQ_U(h, hashes[t]);
        return 1;
    }
    return 0;
}

static void test_seeks_are_exact(void) {
    static Run straight, viewed;
    REQUIRE_VOID(run_begin(&straight) && run_begin(&viewed));
    uint32_t n = straight.r.ticks;
    uint64_t *hashes = st_arena_push_array(perm, uint64_t, n + 1);
    REQUIRE_VOID(hashes);
    uint16_t in;
    uint32_t t = 0;
    hashes[0] = game_hash(&straight.g);
    while (replay_next(&straight.r, &in)) game_update(&straight.g, in), hashes[++t] = game_hash(&straight.g);
    CHECK_EQ_U(t, n);
    CHECK_EQ_U(hashes[n], straight.r.hash);

    Arena *history = st_arena_create((ArenaParams){.reserve_size = 16u << 20, .flags = ARENA_FLAG_NO_CHAIN,
                                                   .name = "history"});
    Error err;
    Viewer *v = viewer_on(&viewed, history, 1u << 20, &err);
    if (!v) fprintf(stderr, "%s\n", err.message);
    REQUIRE_VOID(v);
    CHECK_EQ_U(v->end_hash, straight.r.hash);
    CHECK_EQ_U(v->tick, 0);
    CHECK_EQ_U(game_hash(&viewed.g), hashes[0]);
    uint32_t levels = 0;
    for (uint32_t i = 0; i < v->mark_count; i++) levels += v->marks[i].kind == VIEWER_MARK_LEVEL;
    CHECK_EQ_U(levels, 6); /* seven levels: six changes */

    uint64_t seed = getenv("AD_SCRUB_SEED") ? strtoull(getenv("AD_SCRUB_SEED"), NULL, 10) : 20260601;
    printf("scrub: seed %llu (AD_SCRUB_SEED=%llu to run these seeks again)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    int bad = 0;
    uint64_t s = seed | 1;
    for (int i = 0; i < 20; i++) {
        uint64_t to = rng_next(&s) % (n + 1);
        printf("  seek %2d: tick %llu\n", i, (unsigned long long)to);
        bad += seek_and_check(v, &viewed, hashes, to, seed);
        if (to > 0) bad += seek_and_check(v, &viewed, hashes, to - 1, seed); /* a tick back */
        if (to + 1 <= n) bad += seek_and_check(v, &viewed, hashes, to + 1, seed);
        if (to + 2 <= n) bad += seek_and_check(v, &viewed, hashes, to + 2, seed); /* and on */
    }
    for (uint32_t i = 0; i < v->mark_count; i++) {
        uint32_t m = v->marks[i].tick;
        bad += seek_and_check(v, &viewed, hashes, m, seed) + seek_and_check(v, &viewed, hashes, m - 1, seed);
        if (m < n) bad += seek_and_check(v, &viewed, hashes, m + 1, seed);
    }
    bad += seek_and_check(v, &viewed, hashes, n, seed) + seek_and_check(v, &viewed, hashes, 0, seed);
    CHECK_EQ_U(viewer_seek(v, n + 100), n); /* past the end: the end */
    printf("scrub: %llu seeks, %d wrong; the longest played %u ticks\n", (unsigned long long)v->seeks, bad,
           v->worst_seek_ticks);
    CHECK(v->worst_seek_ticks < VIEWER_KEYFRAME_EVERY);
    st_arena_release(history);
    st_arena_release(viewed.level);
    st_arena_release(straight.level);
}

/* The keyframes of a whole run in an arena too small for them: the viewer says so. */
static void test_too_small(void) {
    static Run run;
    REQUIRE_VOID(run_begin(&run));
    Arena *history = st_arena_create((ArenaParams){.reserve_size = 600u << 10, .flags = ARENA_FLAG_NO_CHAIN,
                                                   .name = "history"});
    Error err = {0};
    CHECK(viewer_on(&run, history, 128u << 10, &err) == NULL);
    printf("too small: %s\n", err.message);
    CHECK(strstr(err.message, "viewer: the history arena holds") != NULL);
    st_arena_release(history);
    st_arena_release(run.level);
}

int main(void) {
    if (chdir(SOURCE_DIR) != 0) return 1; /* the replay names its levels from the repository */
    perm = st_arena_create((ArenaParams){.name = "permanent"});
    test_seeks_are_exact();
    test_too_small();
    st_arena_release(perm);
    return check_result();
}
