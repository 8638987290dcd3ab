/* bench_rewind: what the rewind's history (game/rules/rewind.h) costs, per shipped level.

   For every .lvl in levels/ (run from the repository's root), the bot plays it from its start
   to its exit, or for 30 s, as the game records it: a snapshot of the play span and the
   level arena before every tick, in a history arena of the game's default size. Printed
   per level: the raw state (bytes a copy would take), the history's coded bytes per second
   of play (keyframes and deltas), the mean keyframe and delta, and what 10 s held at the
   end (REWIND_TICKS, the ring's bound).

   Every tick is the App's (app_tick): the rules, then the effects, whose sparks move in the
   level arena and so in the snapshots.

   Then the cost of a snapshot per frame, in thread CPU time: two contestants replay the same
   inputs on the same level, `tick` (game_update and the effects) and `tick+snapshot`
   (rewind_update: the snapshot, then game_update; the effects), interleaved round by round in rotating order; printed,
   the ratio per round as a median with its min-max, and the median snapshot's cost in ns.
   Exit status 0 always: on a shared machine the figures are a report, not a test.

   Usage: bench_rewind [ROUNDS]            (default 31)
          bench_rewind --callgrind LEVEL   cg_tick, cg_snapshot and cg_rewind once each, in
                                           functions of their own, for tools/rewind_ir.sh */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include <strata/core/arena.h>
#include "front/effects.h"
#include "rules/bot.h"
#include "rules/rewind.h"

#define PLAY_MAX (30 * SIM_HZ)
#define TIMED_TICKS 600

static Arena *level_arena, *history_arena;
static Game g;
static Rewind rw;
static Effects fx; /* the sparks live in the level arena: what the game snapshots moves with them */
static uint16_t inputs[PLAY_MAX];

static bool start(const char *path, bool history) {
    st_arena_clear(level_arena);
    st_arena_clear(history_arena);
    Error err;
    if (!game_init(&g, level_arena, &(GameConfig){.start_level = path, .seed = 1, .skip_title = true}, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    effects_init(&fx, &g, NULL);
    return !history || rewind_init(&rw, history_arena, &g, &err);
}

/* One tick as app_tick makes it: the rules (through the rewind, or not), then the effects. */
static void tick(uint16_t in, bool history) {
    if (history) rewind_update(&rw, &g, in);
    else game_update(&g, in);
    if (history && (rw.speed || rw.at_start)) effects_rewound(&fx, &g);
    else effects_update(&fx, &g);
}

/* The bot's run of the level, its inputs kept; the history's figures printed (NULL name:
   not). Returns the ticks played. */
static int figures(const char *path, const char *name) {
    if (!start(path, true)) return 0;
    int n = 0;
    uint64_t raw_max = 0;
    while (n < PLAY_MAX && g.screen == SCREEN_PLAYING) {
        uint64_t raw = game_play_bytes() + st_arena_pos(level_arena);
        if (raw > raw_max) raw_max = raw;
        inputs[n] = (uint16_t)bot_input(&g);
        tick(inputs[n++], true);
    }
    HistoryStats s = st_history_stats(rw.history);
    if (name)
        printf("%-26s %5d ticks  state %6llu B  history %7.0f B/s (raw %8.0f)  held 10 s %7llu B  largest %6llu B\n",
               name, n, (unsigned long long)raw_max, (double)s.recorded_bytes * SIM_HZ / n, (double)raw_max * SIM_HZ,
               (unsigned long long)s.held_bytes, (unsigned long long)s.largest);
    return n;
}

/* One contestant: the level's first `ticks` inputs from its start, with or without the
   history; thread CPU ns. */
static uint64_t run(const char *path, int ticks, bool history) {
    start(path, history);
    uint64_t t0 = bench_thread_cpu_ns();
    for (int i = 0; i < ticks; i++) tick(inputs[i], history);
    return bench_thread_cpu_ns() - t0;
}

static void timing(const char *path, const char *name, int ticks, int rounds) {
    double ratio[256];
    uint64_t cost[256];
    for (int r = 0; r < rounds; r++) {
        uint64_t t[2];
        for (int k = 0; k < 2; k++) {
            int c = (r + k) % 2;
            t[c] = run(path, ticks, c == 1);
        }
        ratio[r] = (double)t[1] / (double)t[0];
        cost[r] = t[1] > t[0] ? (t[1] - t[0]) / (uint64_t)ticks : 0;
    }
    double lo = ratio[0], hi = ratio[0];
    for (int r = 1; r < rounds; r++) lo = ratio[r] < lo ? ratio[r] : lo, hi = ratio[r] > hi ? ratio[r] : hi;
    double med = bench_median_f64(ratio, rounds);
    uint64_t ns = bench_median_u64(cost, rounds);
    printf("%-26s tick+snapshot / tick %.2fx (%.2f-%.2f), a snapshot %llu ns CPU, %.3f%% of a 60 Hz frame"
           " (median of %d rounds of %d ticks)\n",
           name, med, lo, hi, (unsigned long long)ns, (double)ns / 1e9 * SIM_HZ * 100, rounds, ticks);
}

/* For callgrind (--toggle-collect): each part alone. */
__attribute__((noinline)) void cg_tick(int n) {
    for (int i = 0; i < n; i++) tick(inputs[i], false);
}
__attribute__((noinline)) void cg_snapshot(int n) {
    for (int i = 0; i < n; i++) tick(inputs[i], true);
}
__attribute__((noinline)) void cg_rewind(int n) {
    for (int i = 0; i < n; i++) tick(GAME_IN_REWIND, true);
}

static int callgrind(const char *path) {
    int n = figures(path, path);
    if (n > TIMED_TICKS) n = TIMED_TICKS;
    start(path, false);
    cg_tick(n);
    start(path, true);
    cg_snapshot(n);
    cg_rewind(n); /* back over the same ticks: 1x, 2x then 4x, as a held key goes */
    printf("ticks %d rewound %llu\n", n, (unsigned long long)rw.ticks_rewound);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    level_arena = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    history_arena = st_arena_create(
        (ArenaParams){.reserve_size = REWIND_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    if (!level_arena || !history_arena) return 1;
    if (argc > 2 && strcmp(argv[1], "--callgrind") == 0) return callgrind(argv[2]);
    int rounds = argc > 1 ? atoi(argv[1]) : 31;
    if (rounds < 1 || rounds > 256) rounds = 31;
    static char names[64][256];
    int count = 0;
    DIR *d = opendir("levels");
    for (struct dirent *e; d && (e = readdir(d)) != NULL && count < 64;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < 200 && strcmp(e->d_name + len - 4, ".lvl") == 0)
            memcpy(names[count++], e->d_name, len + 1);
    }
    if (d) closedir(d);
    if (!count) {
        fprintf(stderr, "bench_rewind: no levels/*.lvl here (run it from the repository's root)\n");
        return 1;
    }
    qsort(names, (size_t)count, sizeof names[0], by_name);
    printf("the history while the bot plays each level (a snapshot before every tick, keyframes every %d):\n",
           REWIND_KEYFRAME_EVERY);
    int ticks[64];
    char path[300];
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "levels/%.200s", names[i]);
        ticks[i] = figures(path, names[i]);
    }
    printf("\nthe cost of a snapshot per tick, thread CPU time:\n");
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "levels/%.200s", names[i]);
        figures(path, NULL); /* the level's inputs again */
        timing(path, names[i], ticks[i] < TIMED_TICKS ? ticks[i] : TIMED_TICKS, rounds);
    }
    return 0;
}
