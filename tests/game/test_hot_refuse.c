/* test_hot_refuse.c - hostile game libraries (game_module.h, game_library.h) are refused,
   with the reason, and the code running goes on:
   1. The real library cut at nine points (0 B, 1 B, 64 B, 1,000 B, 4 KiB, 25%, 50%, 75% and
      one byte short), at start-up and swapped in over the watched file: the loader would
      map pages past the end of the file (SIGBUS); each is refused as cut short.
   2. A library that changes while it is read (a build writing it at that moment) is refused
      as such, and the file it settles as is taken on the next looks.
   3. Tables with the right version and layout hash that lie: NULL entries, an entry at a
      wild address, an entry into the host's code, the table at a wild address, no build
      name; and a sound table of stubs, which is taken (the checks refuse no good table).
   4. Through the front end: a cut library at start-up and one swapped in while playing put
      the reason on the HUD (the game's message line), and the frames go on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_run.h"
#include "check.h"
#include "portable.h"
#include <strata/core/os_file.h>
#include <strata/host/game_api.h>
#include <strata/host/game_module.h>

static char dir[] = "/tmp/test_hot_refuse_XXXXXX";

static bool write_bytes(const char *path, const void *b, uint64_t n) {
    return st_os_write_file_atomic(path, b, n, NULL);
}

static Str8 read_all(Arena *a, const char *path) {
    Str8 s = {0};
    if (!st_os_read_file(a, path, 256ull << 20, &s, NULL)) s = (Str8){0};
    return s;
}

/* Polls until the watch does something (a bound, never a hang). */
static GameModuleEvent poll_event(GameModule *m) {
    GameModuleEvent ev = GAME_MODULE_SAME;
    for (int i = 0; i < 4 * GAME_MODULE_POLL_FRAMES && ev == GAME_MODULE_SAME; i++)
        ev = st_game_module_poll(m);
    return ev;
}

static void test_cuts(Arena *perm, Str8 lib) {
    char watched[512], cut[512];
    snprintf(watched, sizeof watched, "%s/libgame_hot.so", dir);
    snprintf(cut, sizeof cut, "%s/cut.so", dir);
    REQUIRE_VOID(write_bytes(watched, lib.data, lib.len));
    GameModule m;
    REQUIRE_VOID(st_game_module_create(&m, perm, game_api(), watched));
    const GameApi *good = m.api;
    CHECK(good != game_api());
    uint64_t n = lib.len, cuts[9] = {0, 1, 64, 1000, 4096, n / 4, n / 2, n * 3 / 4, n - 1};
    for (int i = 0; i < 9; i++) {
        /* At start-up: the linked-in code, and why. */
        REQUIRE_VOID(write_bytes(cut, lib.data, cuts[i]));
        GameModule s;
        CHECK(!st_game_module_create(&s, perm, game_api(), cut));
        CHECK(s.api == game_api());
        bool said = strstr(s.message, "cut short") || strstr(s.message, "empty");
        if (!said || i == 4)
            printf("cut at %llu bytes: %s\n", (unsigned long long)cuts[i], s.message);
        CHECK(said);
        /* Swapped in: refused, the loaded code stays. */
        REQUIRE_VOID(write_bytes(watched, lib.data, cuts[i]));
        CHECK_EQ_I(poll_event(&m), GAME_MODULE_REFUSED);
        CHECK(m.api == good);
        CHECK(strstr(m.message, "cut short") || strstr(m.message, "empty"));
    }
    /* The whole file again is taken. */
    REQUIRE_VOID(write_bytes(watched, lib.data, lib.len));
    CHECK_EQ_I(poll_event(&m), GAME_MODULE_SWAPPED);
}

/* The build's next write lands between the read and the look after it. */
static const char *changed_to;
static void rewrite(void *user, const char *path) {
    Arena *a = user;
    SCRATCH_SCOPE(tmp, a);
    Str8 b = read_all(tmp.arena, changed_to);
    CHECK(write_bytes(path, b.data, b.len));
}

static void test_changing(Arena *perm, Str8 lib) {
    char watched[512];
    snprintf(watched, sizeof watched, "%s/libgame_changing.so", dir);
    REQUIRE_VOID(write_bytes(watched, lib.data, lib.len));
    GameModule m;
    REQUIRE_VOID(st_game_module_create(&m, perm, game_api(), watched));
    const GameApi *before = m.api;
    /* The file settles as the fast variant, but the bytes read were the old file's. */
    changed_to = GAME_HOT_FAST_LIBRARY;
    m.after_read = rewrite;
    m.hook_user = perm;
    CHECK_EQ_I(st_game_module_reload(&m), GAME_MODULE_REFUSED);
    printf("changed while read: %s\n", m.message);
    CHECK(strstr(m.message, "changed while it was read") != NULL);
    CHECK(m.api == before);
    /* Once it is left alone, the watch takes what it settled as. */
    m.after_read = NULL;
    CHECK_EQ_I(poll_event(&m), GAME_MODULE_SWAPPED);
    CHECK(m.api != before);
}

static void test_tables(Arena *perm) {
    const struct {
        const char *path, *says;
        bool taken;
    } cases[] = {
        {HOT_BAD_TABLE_1, "'parse' is NULL", false},
        {HOT_BAD_TABLE_2, "'tick' (0x1000) is not in the library's code", false},
        {HOT_BAD_TABLE_3, "'tick'", false},
        {HOT_BAD_TABLE_4, "table (0x10000) is not in the library's data", false},
        {HOT_BAD_TABLE_5, "build name", false},
        {HOT_BAD_TABLE_6, "game code loaded", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GameModule m;
        bool ok = st_game_module_create(&m, perm, game_api(), cases[i].path);
        printf("%s: %s\n", strrchr(cases[i].path, '/') + 1, m.message);
        CHECK(ok == cases[i].taken);
        CHECK(strstr(m.message, cases[i].says) != NULL);
        if (!cases[i].taken) CHECK(m.api == game_api());
    }
}

/* The front end: the reason on the HUD at start-up and mid-play, and play goes on. */
static void test_app(Arena *perm, Str8 lib) {
    char watched[512];
    snprintf(watched, sizeof watched, "%s/libgame_app.so", dir);
    REQUIRE_VOID(write_bytes(watched, lib.data, lib.len / 2));
    App *app = app_run_create(perm, &(AppRunOptions){.level = LEVELS_DIR "/01-first-steps.lvl",
                                              .headless = true,
                                              .skip_title = true,
                                              .no_save = true,
                                              .hot_reload = true,
                                              .hot_library = watched});
    REQUIRE_VOID(app);
    printf("HUD at start-up: %s\n", app->game->message);
    CHECK(strstr(app->game->message, "cut short") != NULL && app->game->message_ticks > 0);
    CHECK(app->host->module.api == game_api());
    /* The whole library, then a cut one over it while playing. */
    REQUIRE_VOID(write_bytes(watched, lib.data, lib.len));
    for (int i = 0; i < 3 * GAME_MODULE_POLL_FRAMES && app->host->module.api == game_api(); i++)
        REQUIRE_VOID(app_run_frame(app));
    CHECK(app->host->module.api != game_api());
    const GameApi *loaded = app->host->module.api;
    REQUIRE_VOID(write_bytes(watched, lib.data, lib.len * 3 / 4));
    bool shown = false;
    for (int i = 0; i < 3 * GAME_MODULE_POLL_FRAMES && !shown; i++) {
        REQUIRE_VOID(app_run_frame(app));
        shown = strstr(app->game->message, "cut short") != NULL;
    }
    printf("HUD while playing: %s\n", app->game->message);
    CHECK(shown);
    CHECK(app->host->module.api == loaded);
    for (int i = 0; i < 10; i++) CHECK(app_run_frame(app));
    app_run_release(app);
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    if (chdir(SOURCE_DIR) != 0) return 1;
    REQUIRE(mkdtemp(dir) != NULL);
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    REQUIRE(perm);
    Str8 lib = read_all(perm, GAME_HOT_LIBRARY);
    REQUIRE(lib.len > 8192);
    test_cuts(perm, lib);
    test_changing(perm, lib);
    test_tables(perm);
    test_app(perm, lib);
    st_arena_release(perm);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
    return check_result();
}
