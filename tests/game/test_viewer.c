/* test_viewer.c - the replay viewer's seeks are exact (app/viewer.h).

   full-run.rep is played straight once, the hash after every tick kept; then the viewer opens
   on a second Game (its own level arena, a history arena) and seeks to 20 random ticks
   (seeded: the seed is printed, AD_SCRUB_SEED=N runs that one again), each level change and
   the ticks on either side of it, the start and the end, backwards and forwards, and steps a
   tick each way: every hash must be the straight run's at that tick. Both run as the App
   runs them, through rewind_update (rules/rewind.h), the viewer's keyframes the rewind's
   state. Then runs that rewind (full-run's inputs with the rewind held three times, once
   back across a level change; the committed rewind.rep), whose seeks must start where the
   rewind's history is the straight run's, and where they rewind every seek to a keyframe
   (and beside it) draws the rewind as the straight run did (the tint's speed, rules/rewind.h)
   and playing on from before each hold gives the straight run's ticks; and the keyframes' bounds: an arena too small for them is an error,
   never a wrong state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include "app/viewer.h"
#include <strata/core/base.h>
#include "check.h"
#include "rules/rewind.h"

static Arena *perm;

typedef struct Run {
    Replay r;
    Game g;
    Rewind rw;
    ViewerGame vg; /* the Game and its rewind, as the viewer steps them */
    Arena *level, *history;
} Run;

/* One tick as a straight run (and the viewer, viewer_game_params) plays it. */
static void step(Run *run, uint16_t input) { rewind_update(&run->rw, &run->g, input); }

/* A Game on the run's first tick, with its history arena (the viewer's part not yet
   taken: the rewind's is made by run_rewind). */
static bool run_begin(Run *run, const Replay *r) {
    Error err;
    run->r = *r;
    run->r.cursor_run = run->r.cursor_in_run = 0;
    run->history =
        st_arena_create((ArenaParams){.reserve_size = 16u << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    run->level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    GameConfig cfg = {.start_level = run->r.level, .seed = run->r.seed, .skip_title = true};
    if (!game_init(&run->g, run->level, &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    return true;
}

static bool run_rewind(Run *run) {
    Error err;
    if (rewind_init(&run->rw, run->history, &run->g, &err)) return true;
    fprintf(stderr, "%s\n", err.message);
    return false;
}

static void run_end(Run *run) {
    st_arena_release(run->level);
    st_arena_release(run->history);
}

/* The viewer as the App makes it: its part of the history arena first, then the rewind's. */
static Viewer *viewer_on(Run *run, uint64_t state_max, uint64_t bytes, Viewer **made, Error *err) {
    run->vg = (ViewerGame){.g = &run->g, .rw = &run->rw};
    ViewerParams p = viewer_game_params(&run->r, &run->vg, bytes, state_max);
    Viewer *v = viewer_create(run->history, &p, err);
    if (made) *made = v;
    if (!v || !run_rewind(run)) return NULL;
    return viewer_open(v, err) ? v : NULL;
}

/* What the App draws of the rewind after a tick (app.c: view.rewind): the ticks it went
   back, -1 standing at the oldest, 0 none. */
static int32_t drawn_back(const Rewind *rw) { return rw->speed ? rw->speed : rw->at_start ? -1 : 0; }

/* The rewind drawn after every tick of the last straight run (straight_hashes). */
static int32_t *straight_back;

/* The hash after every tick of a straight run of r, in perm (and straight_back). */
static uint64_t *straight_hashes(const Replay *r) {
    static Run run;
    uint64_t *hashes = st_arena_push_array(perm, uint64_t, r->ticks + 1);
    straight_back = st_arena_push_array(perm, int32_t, r->ticks + 1);
    if (!hashes || !straight_back || !run_begin(&run, r) || !run_rewind(&run)) return NULL;
    uint16_t in;
    uint32_t t = 0;
    hashes[0] = game_hash(&run.g);
    while (replay_next(&run.r, &in))
        step(&run, in), hashes[++t] = game_hash(&run.g), straight_back[t] = drawn_back(&run.rw);
    CHECK_EQ_U(t, r->ticks);
    printf("straight: %u ticks, %llu rewound, hash %016llx\n", t, (unsigned long long)run.rw.ticks_rewound,
           (unsigned long long)hashes[t]);
    run_end(&run);
    return hashes;
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
    if (drawn_back(&run->rw) != straight_back[t]) {
        printf("MISMATCH: seek %llu -> %llu: the rewind drawn %d, straight %d\n", (unsigned long long)from,
               (unsigned long long)t, drawn_back(&run->rw), straight_back[t]);
        CHECK_EQ_I(drawn_back(&run->rw), straight_back[t]);
        return 1;
    }
    if (h != hashes[t]) {
        printf("MISMATCH: seek %llu -> %llu: hash %016llx, straight %016llx (seed %llu)\n", (unsigned long long)from,
               (unsigned long long)t, (unsigned long long)h, (unsigned long long)hashes[t], (unsigned long long)seed);
        CHECK_EQ_U(h, hashes[t]);
        return 1;
    }
    return 0;
}

/* Is there a keyframe at t? Every keyframe_every ticks from the start or from the last
   level change (the state's size changed: a keyframe then, history.h). */
static bool keyframe_at(const Viewer *v, uint64_t t) {
    uint64_t from = 0;
    for (uint32_t i = 0; i < v->mark_count; i++)
        if (v->marks[i].kind == VIEWER_MARK_LEVEL && v->marks[i].tick <= t) from = v->marks[i].tick;
    return (t - from) % v->p.keyframe_every == 0;
}

/* Where the run rewinds: a seek to each keyframe after a tick that went back, and the
   ticks beside it (paused there, the picture shows the rewind as a straight run does); and
   played on, as the viewer plays, from a little before each hold: every tick the straight
   run's, the rewind drawn included. Returns the ticks that differed. */
static int rewind_ticks(Viewer *v, Run *run, const uint64_t *hashes, uint64_t seed) {
    int bad = 0;
    for (uint64_t t = 1; t <= v->ticks; t++) {
        if (!(st_history_input(v->keys, t - 1) & GAME_IN_REWIND)) continue;
        if (keyframe_at(v, t))
            for (uint64_t d = t - 1; d <= t + 1 && d <= v->ticks; d++) bad += seek_and_check(v, run, hashes, d, seed);
        bool starts = t == 1 || !(st_history_input(v->keys, t - 2) & GAME_IN_REWIND);
        if (!starts || t < 12) continue;
        viewer_seek(v, t - 11);
        v->paused = false;
        uint16_t in;
        for (int i = 0; i < 30 && v->tick < v->ticks; i++) {
            if (viewer_next(v, &in) == VIEWER_TICK_PLAY) step(run, in);
            if (game_hash(&run->g) != hashes[v->tick] || drawn_back(&run->rw) != straight_back[v->tick]) {
                printf("MISMATCH: played on from %llu: tick %llu (seed %llu)\n", (unsigned long long)(t - 11),
                       (unsigned long long)v->tick, (unsigned long long)seed);
                CHECK_EQ_U(game_hash(&run->g), hashes[v->tick]);
                bad++;
                break;
            }
        }
        v->paused = true;
    }
    return bad;
}

/* 20 seeded random ticks of r (and the ticks around each), every level change and the ticks
   beside it, the end and the start: each the straight run's hash. Returns the most ticks a
   seek played (1 when the viewer could not be made: the test has failed then). */
static uint32_t scrub(const Replay *r, uint64_t seed, uint32_t want_levels) {
    static Run viewed;
    uint32_t n = r->ticks;
    uint64_t *hashes = straight_hashes(r);
    REQUIRE(hashes && run_begin(&viewed, r));
    Error err;
    Viewer *v = viewer_on(&viewed, 1u << 20, 1u << 20, NULL, &err);
    if (!v) fprintf(stderr, "%s\n", err.message);
    REQUIRE(v);
    CHECK_EQ_U(v->end_hash, hashes[n]);
    CHECK_EQ_U(v->tick, 0);
    CHECK_EQ_U(game_hash(&viewed.g), hashes[0]);
    uint32_t levels = 0;
    for (uint32_t i = 0; i < v->mark_count; i++) levels += v->marks[i].kind == VIEWER_MARK_LEVEL;
    CHECK(levels >= want_levels);
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
    bad += rewind_ticks(v, &viewed, hashes, seed);
    bad += seek_and_check(v, &viewed, hashes, n, seed) + seek_and_check(v, &viewed, hashes, 0, seed);
    CHECK_EQ_U(viewer_seek(v, n + 100), n); /* past the end: the end */
    uint32_t worst = v->worst_seek_ticks;
    printf("scrub: %llu seeks, %d wrong; the longest played %u ticks\n", (unsigned long long)v->seeks, bad, worst);
    run_end(&viewed);
    return worst;
}

static uint64_t seed_given(void) {
    return getenv("AD_SCRUB_SEED") ? strtoull(getenv("AD_SCRUB_SEED"), NULL, 10) : 20260601;
}

static void test_seeks_are_exact(void) {
    Replay r;
    Error err;
    REQUIRE_VOID(replay_load(&r, perm, "tests/replays/full-run.rep", &err));
    uint32_t worst = scrub(&r, seed_given(), 6); /* seven levels: six changes at least */
    CHECK(worst < VIEWER_KEYFRAME_EVERY);        /* from a keyframe, never from the start */
}

/* full-run's inputs with the rewind held: 150 ticks at 1,200, 400 (up to four ticks back
   per tick) at 4,000, and 240 from 30 ticks after the first level change, back across it.
   The inputs after a rewind are the recorded run's, played from where the rewind left off. */
static void test_rewinding_run(void) {
    Replay full, r;
    Error err;
    REQUIRE_VOID(replay_load(&full, perm, "tests/replays/full-run.rep", &err));
    REQUIRE_VOID(replay_begin_record(&r, perm, full.seed, full.level));
    uint16_t in;
    uint32_t t = 0, change = 0;
    uint64_t *h = straight_hashes(&full); /* the first level change: the level's number moves */
    REQUIRE_VOID(h);
    static Run probe;
    REQUIRE_VOID(run_begin(&probe, &full) && run_rewind(&probe));
    while (!change && replay_next(&probe.r, &in)) step(&probe, in), t++, change = probe.g.level_number > 1 ? t : 0;
    run_end(&probe);
    REQUIRE_VOID(change > 0);
    t = 0;
    while (replay_next(&full, &in)) {
        uint32_t hold = t == 1200 ? 150 : t == 4000 ? 400 : t == change + 30 ? 240 : 0;
        for (uint32_t k = 0; k < hold; k++) replay_append(&r, GAME_IN_REWIND);
        replay_append(&r, in);
        t++;
    }
    printf("a rewinding run: %u ticks, the level changes at %u\n", r.ticks, change);
    scrub(&r, seed_given() + 1, 2); /* and back across one */
}

/* The committed run that rewinds (tests/replays/rewind.rep: four holds, one across a level
   change), scrubbed the same way. */
static void test_rewind_rep(void) {
    Replay r;
    Error err;
    REQUIRE_VOID(replay_load(&r, perm, "tests/replays/rewind.rep", &err));
    scrub(&r, seed_given() + 2, 1);
}

/* The keyframes of a whole run in a ring too small for them: the viewer says so and puts
   the Game back on the run's first tick (the App then plays it straight); a state larger
   than the viewer takes is refused the same way, at once. */
static void test_too_small(void) {
    static Run run;
    Replay r;
    Error err = {0};
    REQUIRE_VOID(replay_load(&r, perm, "tests/replays/full-run.rep", &err) && run_begin(&run, &r));
    uint64_t start = game_hash(&run.g);
    Viewer *v = NULL;
    CHECK(viewer_on(&run, 128u << 10, 100u << 10, &v, &err) == NULL);
    printf("too small: %s\n", err.message);
    CHECK(strstr(err.message, "viewer: the run's keyframes do not fit") != NULL);
    REQUIRE_VOID(v);
    CHECK_EQ_U(v->tick, 0);
    CHECK_EQ_U(game_hash(&run.g), start);
    CHECK(st_history_count(run.rw.history) == 0); /* and the rewind's history empty */
    run_end(&run);

    static Run big;
    REQUIRE_VOID(run_begin(&big, &r));
    CHECK(viewer_on(&big, 4096, 1u << 20, &v, &err) == NULL);
    printf("too large a state: %s\n", err.message);
    CHECK(v && v->tick == 0 && game_hash(&big.g) == start);
    run_end(&big);
}

/* Tap KEY as a slow frame sees it: down and up again before the frame reads the input. */
static void tap(Input *in, SDL_Scancode key) {
    SDL_Event e = {.type = SDL_KEYDOWN};
    e.key.state = SDL_PRESSED;
    e.key.keysym.scancode = key;
    CHECK(st_input_handle_event(in, &e));
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    CHECK(st_input_handle_event(in, &e));
}

/* A step key that went down and up within one frame is one step all the same (a player's
   quick tap, or any tap on a slow frame); both at once cancel out. */
static void test_taps(void) {
    static Run run;
    Replay r;
    Error err;
    REQUIRE_VOID(replay_load(&r, perm, "tests/replays/full-run.rep", &err) && run_begin(&run, &r));
    Viewer *v = viewer_on(&run, 1u << 20, 1u << 20, NULL, &err);
    REQUIRE_VOID(v);
    CHECK_EQ_U(viewer_seek(v, 3000), 3000);
    v->paused = true;
    static const struct {
        SDL_Scancode keys[2];
        uint64_t want;
    } taps[] = {
        {{SDL_SCANCODE_RIGHT}, 3001},
        {{SDL_SCANCODE_RIGHT}, 3002},
        {{SDL_SCANCODE_LEFT}, 3001},
        {{SDL_SCANCODE_LEFT, SDL_SCANCODE_RIGHT}, 3001},
    };
    Input in = {0};
    for (size_t i = 0; i < ARRAY_COUNT(taps); i++) {
        for (int k = 0; k < 2 && taps[i].keys[k]; k++) tap(&in, taps[i].keys[k]);
        viewer_frame(v, &in, 480, 270);
        st_input_end_step(&in);
        CHECK_EQ_U(v->tick, taps[i].want);
    }
    /* A click on the bar pressed and released within the frame (a touchpad's tap) seeks. */
    in = (Input){.mouse_seen = true, .mouse_x = 240, .mouse_y = 270 - VIEWER_BAR_H / 2};
    in.mouse_pressed[1] = in.mouse_released[1] = true;
    uint64_t want = viewer_tick_at(v, 240, 480);
    CHECK(want != v->tick);
    viewer_frame(v, &in, 480, 270);
    CHECK_EQ_U(v->tick, want);
    CHECK(!v->dragging);
    run_end(&run);
}

int main(int argc, char **argv) { /* argc and argv: SDL's main on Windows has them */
    (void)argc, (void)argv;
    if (chdir(SOURCE_DIR) != 0) return 1; /* the replay names its levels from the repository */
    perm = st_arena_create((ArenaParams){.name = "permanent"});
    test_seeks_are_exact();
    test_rewinding_run();
    test_rewind_rep();
    test_too_small();
    test_taps();
    st_arena_release(perm);
    return check_result();
}
