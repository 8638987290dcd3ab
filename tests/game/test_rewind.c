/* test_rewind.c - the rewind (rules/rewind.h) on a Game driven by the bot, headless:
   - a stretch of play rewound N ticks lands on the state recorded N ticks before (the
     game's hash and the level arena's bytes and cursor), and the same inputs played again
     from there give the same hash at every tick, for N within a level and across a level
     change (which puts the old level's arena back whole);
   - the speed grows the longer the input is held (1, 2, 4 ticks back per tick);
   - an empty history keeps the level: a hold that starts with nothing behind does nothing,
     and a hold that reaches the oldest state stands there;
   - the history's bound holds: never more than REWIND_TICKS, and with a small arena the
     oldest go first, said once;
   - rewinding never writes the progress file: a clear a rewind went back into is not
     counted, while the same clear played straight is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "portable.h"
#include <strata/core/base.h>
#include <strata/core/diag_capture.h>
#include <strata/core/hash.h>
#include <strata/core/os_file.h>
#include "rules/bot.h"
#include "rules/rewind.h"

#define LEVEL1 LEVELS_DIR "/01-first-steps.lvl"
#define MAX_TICKS 6000

static Arena *level_arena;
static Game g;
static Rewind rw;
static uint64_t hash_at[MAX_TICKS + 1], level_at[MAX_TICKS + 1];
static uint16_t input_at[MAX_TICKS];
static uint64_t played; /* ticks played forward since start (the index into the arrays) */

/* The level arena's bytes and cursor: what a rewind across a level change must restore. */
static uint64_t level_hash(void) {
    uint64_t n = st_arena_pos(level_arena);
    return st_hash_fnv1a_u64(st_hash_fnv1a(HASH_FNV1A_INIT, st_arena_base(level_arena), n), n);
}

static bool start(Arena *history_arena, const char *save_path) {
    st_arena_clear(level_arena);
    if (history_arena) st_arena_clear(history_arena);
    Error err;
    GameConfig cfg = {.start_level = LEVEL1, .seed = 1, .skip_title = true, .save_path = save_path};
    if (!game_init(&g, level_arena, &cfg, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    played = 0;
    if (!rewind_init(&rw, history_arena, &g, &err) && history_arena) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    return true;
}

/* One tick forward with the bot's input, remembered. */
static void play(void) {
    hash_at[played] = game_hash(&g), level_at[played] = level_hash();
    input_at[played] = (uint16_t)bot_input(&g);
    rewind_update(&rw, &g, input_at[played]);
    played++;
    hash_at[played] = game_hash(&g), level_at[played] = level_hash();
}

/* Holds the rewind until `ticks` have been undone (or `max_hold` ticks held); returns how
   many were. */
static uint64_t hold_rewind(uint64_t ticks, int max_hold) {
    uint64_t before = rw.ticks_rewound;
    for (int i = 0; i < max_hold && rw.ticks_rewound - before < ticks; i++) rewind_update(&rw, &g, GAME_IN_REWIND);
    return rw.ticks_rewound - before;
}

/* After going back to tick t: that tick's state exactly, then the recorded inputs again
   from t to `to` (the first of them is the release), the same hash at every tick. Returns
   the ticks whose state differed. */
static int replay_from(uint64_t t, uint64_t to) {
    int bad = level_at[t] != level_hash();
    for (uint64_t k = t; k < to; k++) {
        bad += hash_at[k] != game_hash(&g);
        rewind_update(&rw, &g, input_at[k]);
    }
    return bad + (hash_at[to] != game_hash(&g));
}

static void test_rewind_and_replay(Arena *ha) {
    REQUIRE_VOID(start(ha, NULL));
    REQUIRE_VOID(rw.history);
    /* Level 1 to its exit, the transition, then a second of level 2. */
    uint64_t change = 0;
    while (played < MAX_TICKS && !(g.level_number == 2 && g.screen == SCREEN_PLAYING)) {
        play();
        if (!change && g.level_number == 2) change = played;
    }
    for (int i = 0; i < 60; i++) play();
    REQUIRE_VOID(change > 0 && played < MAX_TICKS);
    CHECK(played - change < REWIND_TICKS / 2); /* the change is within reach */
    printf("level 2 loaded at tick %llu of %llu\n", (unsigned long long)change, (unsigned long long)played);

    /* Within level 2: 30 ticks at 1x. */
    uint64_t end = played;
    uint64_t back = hold_rewind(30, 100);
    CHECK_EQ_U(back, 30);
    CHECK_EQ_U(rw.speed, 1);
    CHECK_EQ_I(replay_from(end - back, end), 0);

    /* Across the change, into level 1's last seconds: 1x, then 2x, then 4x. */
    uint64_t target = change - 200;
    back = hold_rewind(end - target, 1000);
    CHECK_EQ_U(back, end - target);
    CHECK_EQ_I(rw.speed, 4);
    CHECK_EQ_I(g.level_number, 1);
    CHECK(strstr(g.sim.level_path, "01-first-steps") != NULL);
    CHECK(g.rewound);
    CHECK_EQ_U(level_at[target], level_hash()); /* the old level's arena, byte for byte */
    CHECK_EQ_I(replay_from(target, end), 0);
    CHECK_EQ_I(g.level_number, 2);
    /* The rewound clear was not counted (nothing is saved here, but the game says so). */
    CHECK(g.clear_rewound);
    CHECK_EQ_I(g.save.level_count, 1); /* the first, straight clear's record stands */
}

static void test_speed(void) {
    CHECK_EQ_I(rewind_speed_for(1), 1);
    CHECK_EQ_I(rewind_speed_for(REWIND_FASTER_TICKS), 1);
    CHECK_EQ_I(rewind_speed_for(REWIND_FASTER_TICKS + 1), 2);
    CHECK_EQ_I(rewind_speed_for(2 * REWIND_FASTER_TICKS + 1), 4);
}

/* Nothing behind: the hold does nothing, the level plays on as if it were not held. */
static void test_empty_history(Arena *ha) {
    static Game other;
    REQUIRE_VOID(start(ha, NULL));
    Error err;
    GameConfig cfg = {.start_level = LEVEL1, .seed = 1, .skip_title = true};
    Arena *other_level = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN});
    REQUIRE_VOID(other_level && game_init(&other, other_level, &cfg, &err));
    int bad = 0;
    for (int i = 0; i < 120; i++) {
        uint32_t in = bot_input(&g);
        rewind_update(&rw, &g, in | GAME_IN_REWIND);
        game_update(&other, in);
        bad += game_hash(&g) != game_hash(&other);
    }
    CHECK_EQ_I(bad, 0);
    CHECK_EQ_U(rw.ticks_rewound, 0);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK_EQ_U(g.sim.tick, 120);
    st_arena_release(other_level);
    /* Let go, then a hold that goes back to the start stands there, the level kept. */
    rewind_update(&rw, &g, 0);
    uint64_t back = hold_rewind(100000, 400);
    CHECK(back > 0 && back <= 121);
    CHECK(rw.at_start);
    CHECK_EQ_U(st_history_count(rw.history), 0);
    CHECK_EQ_U(g.sim.tick, 0);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(g.sim.level.width > 0 && strstr(g.sim.level_path, "01-first-steps") != NULL);
    rewind_update(&rw, &g, 0); /* let go: it plays on from there */
    CHECK_EQ_U(g.sim.tick, 1);
    /* No history arena at all: the input does nothing, the game plays. */
    REQUIRE_VOID(start(NULL, NULL));
    CHECK(rw.history == NULL);
    for (int i = 0; i < 10; i++) rewind_update(&rw, &g, GAME_IN_REWIND);
    CHECK_EQ_U(g.sim.tick, 10);
}

/* The bound: REWIND_TICKS at most; a small arena holds fewer, says so once, and every
   tick it holds restores exactly. */
static void test_bound(Arena *ha) {
    REQUIRE_VOID(start(ha, NULL));
    uint64_t level1 = st_arena_pos(level_arena);
    for (int i = 0; i < 1000; i++) play();
    HistoryStats s = st_history_stats(rw.history);
    /* The oldest keyframe goes with the deltas that need it: between 600 and 570 held. */
    CHECK(s.count <= REWIND_TICKS && s.count > REWIND_TICKS - REWIND_KEYFRAME_EVERY);
    CHECK(s.dropped >= 1000 - REWIND_TICKS);
    uint64_t back = hold_rewind(100000, 2000);
    CHECK_EQ_U(back, s.count);
    CHECK_EQ_U(hash_at[played - back], game_hash(&g));
    CHECK_EQ_U(level_at[played - back], level_hash());

    /* Room for the entries, the copy of a keyframe (the state), and a ring that takes two
       states' worst case (a snapshot is coded where its raw bytes would fit) and 32 KB. */
    uint64_t state = game_play_bytes() + level1;
    Arena *small = st_arena_create(
        (ArenaParams){.reserve_size = 3 * state + (48 << 10), .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(small);
    DiagCapture cap;
    Arena *capture = st_arena_create((ArenaParams){.name = "capture"});
    st_diag_capture_begin(&cap, capture);
    REQUIRE_VOID(start(small, NULL));
    for (int i = 0; i < 1000; i++) play();
    st_diag_capture_end(&cap);
    s = st_history_stats(rw.history);
    printf("small arena: %u ticks held, %llu dropped for room, a ring of %llu bytes\n", s.count,
           (unsigned long long)s.dropped_for_bytes, (unsigned long long)s.ring_bytes);
    CHECK(s.count < REWIND_TICKS && s.count > 30);
    CHECK(s.dropped_for_bytes > 0);
    /* Said once, in the log (a note: not over the play). */
    CHECK(cap.of[DIAG_WARNING] == 0 && cap.of[DIAG_NOTE] == 1 && cap.first &&
          strstr(cap.first->d.text, "rewind: the history arena's ring") != NULL);
    st_arena_release(capture);
    CHECK(st_arena_pos(small) <= st_arena_capacity(small));
    back = hold_rewind(100000, 2000);
    CHECK_EQ_U(back, s.count);
    CHECK_EQ_U(hash_at[played - back], game_hash(&g));
    CHECK_EQ_U(level_at[played - back], level_hash());
    st_arena_release(small);
}

/* The history arena's peak is what the rewind needs (the exit report's figure, from which
   users size the arena): the entries, a copy of the largest state recorded (the play span
   and the level's bytes, not the level arena's capacity: 1 MiB here), and a ring within
   three times the most it held plus two states' room (history.c's wrap rule). */
static void test_peak(void) {
    Arena *fresh =
        st_arena_create((ArenaParams){.reserve_size = 16 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(fresh);
    REQUIRE_VOID(start(fresh, NULL));
    uint64_t largest = 0, held = 0;
    for (int i = 0; i < 2 * REWIND_TICKS; i++) {
        largest = MAX(largest, game_play_bytes() + st_arena_pos(level_arena));
        play();
        held = MAX(held, st_history_stats(rw.history).held_bytes);
    }
    uint64_t room = largest + 2 * 16 + 1 + 10 * HISTORY_REGIONS_MAX; /* a snapshot's worst case */
    uint64_t need = REWIND_TICKS * 32 + 1024 + largest + 64 + 3 * held + 2 * room;
    uint64_t peak = st_arena_stats(fresh).peak;
    printf("history arena: peak %llu, need at most %llu (largest state %llu, most held %llu)\n",
           (unsigned long long)peak, (unsigned long long)need, (unsigned long long)largest, (unsigned long long)held);
    CHECK(peak <= need);
    CHECK(peak >= largest + held);
    st_arena_release(fresh);
}

/* The clear played straight writes the progress; rewound into and played again, it does
   not (the file, deleted meanwhile, stays gone), and neither does the rewind itself, nor
   the level load that comes again after a rewind into the clear card. */
static void test_no_progress_written(Arena *ha) {
    char dir[] = "/tmp/test_rewind_XXXXXX", save[300];
    REQUIRE_VOID(mkdtemp(dir));
    snprintf(save, sizeof save, "%s/progress", dir);
    REQUIRE_VOID(start(ha, save));
    uint64_t change = 0;
    while (played < MAX_TICKS && !change) {
        play();
        if (g.level_number == 2) change = played;
    }
    REQUIRE_VOID(change);
    CHECK(st_os_file_info(save).kind == OS_FILE_REGULAR);
    SaveData before = g.save;
    remove(save);
    for (int i = 0; i < 30; i++) play();
    uint64_t end = played, target = change - 150;
    CHECK_EQ_U(hold_rewind(end - target, 1000), end - target);
    CHECK(st_os_file_info(save).kind == OS_FILE_NONE);
    CHECK_EQ_I(replay_from(target, end), 0);
    CHECK_EQ_I(g.level_number, 2);
    CHECK(st_os_file_info(save).kind == OS_FILE_NONE); /* the second clear was not counted */
    CHECK(memcmp(&before.levels, &g.save.levels, sizeof before.levels) == 0);
    CHECK_STR(g.save.furthest, before.furthest);
    /* Back into the clear card only, after the clear was noted and before the next level
       loaded: the load comes again, and still writes nothing. */
    REQUIRE_VOID(start(ha, save));
    for (change = 0; played < MAX_TICKS && !change;)
        if (play(), g.level_number == 2) change = played;
    for (int i = 0; i < 30; i++) play();
    remove(save);
    end = played, target = change - 20;
    CHECK_EQ_U(hold_rewind(end - target, 1000), end - target);
    CHECK_EQ_I(g.screen, SCREEN_TRANSITION);
    CHECK_EQ_I(replay_from(target, end), 0);
    CHECK(st_os_file_info(save).kind == OS_FILE_NONE);
    rmdir(dir);
}

/* A death can be undone however long the game-over card has waited: its ticks are not
   recorded once it waits, so the play before it stays in the history. */
static void test_card_waits(Arena *ha) {
    REQUIRE_VOID(start(ha, NULL));
    for (int i = 0; i < 300; i++) play();
    g.screen = SCREEN_GAME_OVER, g.screen_ticks = 0; /* as the sim's death sets it */
    for (int i = 0; i < 40 * SIM_HZ; i++) rewind_update(&rw, &g, 0);
    CHECK_EQ_I(g.screen, SCREEN_GAME_OVER);
    uint64_t back = hold_rewind(GAME_OVER_DELAY + 2, 2000);
    CHECK_EQ_U(back, GAME_OVER_DELAY + 2);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK_EQ_U(game_hash(&g), hash_at[played - 1]);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    level_arena =
        st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 16 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE(level_arena && ha);
    test_speed();
    test_rewind_and_replay(ha);
    test_empty_history(ha);
    test_bound(ha);
    test_peak();
    test_no_progress_written(ha);
    test_card_waits(ha);
    st_arena_release(ha);
    st_arena_release(level_arena);
    return check_result();
}
