/* test_replay.c - every committed replay in tests/replays plays back through the game's
   screens and simulation (no SDL) to the stored end: the same number of levels completed,
   the same final hash, and the run really finished its level(s). Every shipped level must be
   the start of one replay, so each level is proven completable to its exit. And a recording
   whose buffer overflowed is saved without the final hash it no longer leads to. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/rewind.h"

/* The `ticks` line of a replay file, read here on its own so that the count the game plays
   is checked against what the recorder wrote, not against the loader's own sum. */
static long header_ticks(const char *path) {
    FILE *f = fopen(path, "r");
    char line[512];
    long ticks = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "ticks %ld", &ticks) == 1) break;
    if (f) fclose(f);
    return ticks;
}

/* Every replay plays through the rewind as the App does (rules/rewind.h), with a history
   arena of the game's default size: rewind.rep goes back in time, the others never ask. */
static int play(const char *file, Arena *perm, Arena *level, Arena *history) {
    char path[512];
    Error msg;
    snprintf(path, sizeof path, "%s/%.200s", REPLAYS_DIR, file);
    Replay r;
    if (!replay_load(&r, perm, path, &msg)) {
        fprintf(stderr, "%s\n", msg.message);
        CHECK(!"replay loads");
        return 0;
    }
    static Game g;
    Error err;
    if (!game_init(&g, level, &(GameConfig){.start_level = r.level, .seed = r.seed, .skip_title = true}, &err)) {
        fprintf(stderr, "%s\n", err.message);
        CHECK(!"level loads");
        return 0;
    }
    static Rewind rw;
    st_arena_clear(history);
    CHECK(rewind_init(&rw, history, &g, &err));
    uint16_t in;
    uint32_t ticks = 0;
    while (replay_next(&r, &in)) {
        rewind_update(&rw, &g, in);
        ticks++;
    }
    /* The one that rewinds did, several times, across its level change. */
    if (strcmp(file, "rewind.rep") == 0) CHECK(rw.ticks_rewound > 300 && r.version == 2);
    printf("%-28s %6u ticks  %d level(s)  hash %016llx  coins %d  deaths %d\n", file, ticks,
           g.sim.progress.levels_completed, (unsigned long long)game_hash(&g), g.sim.progress.coins,
           g.sim.progress.deaths);
    CHECK_EQ_I((long)ticks, header_ticks(path));
    CHECK(r.has_hash);
    CHECK_EQ_U(game_hash(&g), r.hash);
    CHECK_EQ_I(g.sim.progress.levels_completed, r.levels);
    CHECK(r.levels >= 1);
    /* Completed means: leaving for the next level, or the victory screen. */
    CHECK(g.screen == SCREEN_TRANSITION || g.screen == SCREEN_VICTORY);
    return r.levels;
}

/* A recording whose buffer overflowed stops at its last input while the run goes on, so
   the run's final hash and level count belong to inputs that are not in the file: they
   must not be saved (a replay of it would report a mismatch), and the file must still load. */
static void test_overflow_save(Arena *perm) {
    Replay r;
    REQUIRE_VOID(replay_begin_record(&r, perm, 7, "levels/01-first-steps.lvl"));
    r.run_cap = 3; /* a small buffer instead of a long run */
    /* 01 08 01 fill the three runs; the 08 is lost, and so must be every tick after it,
       including the 01s that would only lengthen the last run. */
    for (int i = 0; i < 10; i++) replay_append(&r, (uint8_t)(i & 1 ? 0x08 : 0x01));
    CHECK(r.overflowed);
    CHECK_EQ_U(r.ticks, 3);
    char path[] = "/tmp/test_replay_XXXXXX";
    Error msg;
    int fd = mkstemp(path);
    REQUIRE_VOID(fd >= 0);
    close(fd);
    CHECK(replay_save(&r, path, 0x1234, 5, &msg));
    Replay back;
    CHECK(replay_load(&back, perm, path, &msg));
    CHECK(!back.has_hash);
    CHECK_EQ_I(back.levels, -1);
    CHECK_EQ_U(back.ticks, 3);
    CHECK_EQ_U(back.seed, 7);
    /* Without the overflow, the same call stores both. */
    Replay ok;
    REQUIRE_VOID(replay_begin_record(&ok, perm, 7, "levels/01-first-steps.lvl"));
    replay_append(&ok, 0x01);
    CHECK(replay_save(&ok, path, 0x1234, 5, &msg));
    CHECK(replay_load(&back, perm, path, &msg));
    CHECK(back.has_hash && back.hash == 0x1234 && back.levels == 5);
    unlink(path);
}

static bool load_text(Arena *perm, const char *text, Error *msg, Replay *r) {
    char path[] = "/tmp/test_replay_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return false;
    bool wrote = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    close(fd);
    bool ok = wrote && replay_load(r, perm, path, msg);
    /* The message names the temporary file: keep only what follows it. */
    size_t n = strlen(path);
    if (!ok && strncmp(msg->message, path, n) == 0)
        memmove(msg->message, msg->message + n, strlen(msg->message + n) + 1);
    unlink(path);
    return ok;
}

/* The header form that replay.h documents, comments and all, loads; a `ticks` line that
   disagrees with the inputs does not, and the error names its line. */
static void test_header(Arena *perm) {
    static const char documented[] = "# arena-dungeon replay\n"
                                     "replay 1\n"
                                     "seed 1\n"
                                     "level levels/01-first-steps.lvl\n"
                                     "ticks 55              # game ticks recorded\n"
                                     "levels 1              # levels completed at the end\n"
                                     "hash 9f0c2d4b7a115e20 # game_hash() at the end\n"
                                     "inputs\n"
                                     "40x00 12x08 3x18      # COUNTxHEX: HEX held for COUNT ticks (bits: see game.h)\n"
                                     "end\n";
    Replay r;
    Error msg;
    CHECK(load_text(perm, documented, &msg, &r));
    if (msg.message[0]) fprintf(stderr, "%s\n", msg.message);
    CHECK_EQ_U(r.ticks, 55);
    CHECK(r.has_hash && r.hash == 0x9f0c2d4b7a115e20ull && r.levels == 1 && r.seed == 1);
    CHECK(strcmp(r.level, "levels/01-first-steps.lvl") == 0);
    CHECK_EQ_U(r.run_count, 3);

    static const char wrong[] = "replay 1\nseed 1\nlevel x.lvl\nticks 56\ninputs\n40x00 12x08 3x18\nend\n";
    CHECK(!load_text(perm, wrong, &msg, &r));
    CHECK(strcmp(msg.message, ":4: error: the header says 56 ticks, the inputs hold 55") == 0);
    static const char short_by_one[] = "replay 1\nseed 1\nlevel x.lvl\nticks 54\ninputs\n40x00 12x08 3x18\nend\n";
    CHECK(!load_text(perm, short_by_one, &msg, &r));
    CHECK(strcmp(msg.message, ":4: error: the header says 54 ticks, the inputs hold 55") == 0);

    /* A run of no ticks is not a run: refused, though the ticks still add up. */
    static const char zero[] = "replay 1\nseed 1\nlevel x.lvl\nticks 55\ninputs\n40x00 0x01 12x08 3x18\nend\n";
    CHECK(!load_text(perm, zero, &msg, &r));
    CHECK(strcmp(msg.message, ":6: error: bad input run (want COUNTxHEX)") == 0);
    CHECK(!load_text(perm, "", &msg, &r));
    CHECK(strstr(msg.message, "error: an empty file (0 bytes): expected a replay") != NULL);
    /* A level path with a control byte in it (it would be cut where it goes). */
    static const char ctl[] = "replay 1\nseed 1\nlevel x\001.lvl\ninputs\n1x00\nend\n";
    CHECK(!load_text(perm, ctl, &msg, &r));
    CHECK(strcmp(msg.message, ":3: error: bad level path") == 0);

    /* A failed load leaves the caller's replay and arena as they were. */
    REQUIRE_VOID(load_text(perm, documented, &msg, &r));
    Replay kept = r;
    uint64_t pos = st_arena_pos(perm);
    static const char late[] = "replay 1\nseed 9\nlevel y.lvl\nticks 2\ninputs\n1x00 1x01\n1x02 zz\nend\n";
    CHECK(!load_text(perm, late, &msg, &r));
    CHECK(memcmp(&r, &kept, sizeof r) == 0);
    CHECK_EQ_U(st_arena_pos(perm), pos);

    /* What loads, written again, reads back the same and writes the same text. */
    Arena *a = st_arena_create((ArenaParams){.name = "format"});
    Str8 text = replay_format(a, &r);
    Replay back;
    CHECK(replay_parse(&back, a, "x.rep", text, &msg));
    CHECK(back.seed == r.seed && back.ticks == r.ticks && back.levels == r.levels && back.has_hash == r.has_hash &&
          back.hash == r.hash && strcmp(back.level, r.level) == 0 && back.run_count == r.run_count);
    for (uint32_t i = 0; i < r.run_count && i < back.run_count; i++)
        CHECK(back.runs[i].count == r.runs[i].count && back.runs[i].input == r.runs[i].input);
    CHECK(st_str8_eq(replay_format(a, &back), text));
    st_arena_release(a);
}

/* Version 3's start lines load into r.start and are written back the same; a start line
   in an older version, a bad one, and a day's ticks or more are refused at their line. */
static void test_version3(Arena *perm) {
    static const char v3[] = "replay 3\nseed 1\nlevel levels/05-the-hunt.lvl\nchosen yes\n"
                             "furthest 03-spikes-and-water.lvl\nbest 01-first-steps.lvl 1834 12\n"
                             "best 02-keys-and-doors.lvl 900 0\nticks 3\nhash 1\ninputs\n2x00 1x1ff\nend\n";
    Replay r;
    Error msg;
    REQUIRE_VOID(load_text(perm, v3, &msg, &r));
    CHECK(r.start.level_chosen);
    CHECK(strcmp(r.start.furthest, "03-spikes-and-water.lvl") == 0);
    CHECK_EQ_I(r.start.level_count, 2);
    CHECK(strcmp(r.start.levels[1].file, "02-keys-and-doors.lvl") == 0 && r.start.levels[1].best_ticks == 900);
    CHECK(r.start.levels[0].best_ticks == 1834 && r.start.levels[0].best_coins == 12);
    Replay back;
    Str8 text = replay_format(perm, &r);
    REQUIRE_VOID(replay_parse(&back, perm, "x.rep", text, &msg));
    CHECK(memcmp(&back.start, &r.start, sizeof r.start) == 0 && back.version == REPLAY_VERSION);
    static const struct {
        const char *text, *error;
    } bad[] = {
        {"replay 2\nseed 1\nlevel x.lvl\nchosen yes\ninputs\n1x00\nend\n",
         ":4: error: a start line in a replay older than version 3"},
        {"replay 3\nseed 1\nlevel x.lvl\nchosen maybe\ninputs\n1x00\nend\n", ":4: error: bad chosen (want yes or no)"},
        {"replay 3\nseed 1\nlevel x.lvl\nbest a.lvl 12\ninputs\n1x00\nend\n",
         ":4: error: bad best (want FILE TICKS COINS)"},
        {"replay 3\nseed 1\nlevel x.lvl\nfurthest a b\ninputs\n1x00\nend\n",
         ":4: error: bad furthest (want a level's file name)"},
        {"replay 3\nseed 1\nlevel x.lvl\nticks 4294967295\ninputs\n4294967295x00\nend\n",
         ":4: error: bad ticks (want at most 5184000: a day at 60 Hz)"},
        {"replay 3\nseed 1\nlevel x.lvl\ninputs\n5184000x00 1x00\nend\n", ":5: error: bad input run (want COUNTxHEX)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!load_text(perm, bad[i].text, &msg, &r));
        if (strcmp(msg.message, bad[i].error) != 0) fprintf(stderr, "case %zu: %s\n", i, msg.message);
        CHECK(strcmp(msg.message, bad[i].error) == 0);
    }
    /* The recorder stops at a day: one tick more is not recorded. */
    Replay rec;
    REQUIRE_VOID(replay_begin_record(&rec, perm, 1, "x.lvl"));
    rec.ticks = REPLAY_TICKS_MAX - 1;
    replay_append(&rec, 0);
    CHECK(!rec.overflowed && rec.ticks == REPLAY_TICKS_MAX);
    replay_append(&rec, 0);
    CHECK(rec.overflowed && rec.ticks == REPLAY_TICKS_MAX);
}

int main(void) {
    if (chdir(SOURCE_DIR) != 0) return 1; /* replays name levels relative to the repository */
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    char names[64][256];
    int n = 0;
    DIR *d = opendir(REPLAYS_DIR);
    CHECK(d != NULL);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < 256 && strcmp(e->d_name + len - 4, ".rep") == 0 && n < 64)
            memcpy(names[n++], e->d_name, len + 1);
    }
    if (d) closedir(d);
    CHECK(n >= 6);
    Arena *history = st_arena_create(
        (ArenaParams){.reserve_size = REWIND_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    bool rewinds = false;
    for (int i = 0; i < n; i++) play(names[i], perm, level, history), rewinds |= strcmp(names[i], "rewind.rep") == 0;
    CHECK(rewinds);
    st_arena_release(history);

    /* Each shipped level has its own replay. */
    d = opendir("levels");
    int levels = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".lvl") != 0) continue;
        levels++;
        char want[256];
        snprintf(want, sizeof want, "%.*s.rep", (int)(len - 4), e->d_name);
        bool found = false;
        for (int i = 0; i < n; i++) found |= strcmp(names[i], want) == 0;
        if (!found) fprintf(stderr, "no replay for levels/%s (want tests/replays/%s)\n", e->d_name, want);
        CHECK(found);
    }
    if (d) closedir(d);
    CHECK(levels >= 6);
    test_overflow_save(perm);
    test_header(perm);
    test_version3(perm);
    st_arena_release(level);
    st_arena_release(perm);
    return check_result();
}
