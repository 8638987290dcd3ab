/* test_hot_reload.c - the game's code swapped while it runs (game_api.h, game_module.h).

   1. The full committed replay, headless, through the real front end with --hot-reload:
      the library is loaded at start, loaded again (the same file) at frame 3000, and the run
      ends on the replay's hash, as a run without reload does. Not one heap call per frame
      with the library watched; what the reload itself costs the loader is counted and
      printed. Nothing in the state points into a loaded library (no function pointers, no
      constant strings of its own): every pointer-sized word of the Game, the effects and
      the view is looked up with dladdr.
   2. A variant of the library built with -DPLAYER_SPEED doubled (game_hot_fast) is copied
      over the watched file mid-walk and the watch takes it: from the next tick the player
      walks twice as far per tick as the linked-in code makes it walk, from the same place
      in the same level: the state went on, the code changed.
   3. A library built from other state headers (GAME_LAYOUT_HASH differs), or a file that
      is no library at all, is refused, and the code running goes on. The new layout, met
      while a level is played, ends the run for a restart of that level in a new process,
      whose command line app_restart_args makes.
   Under AddressSanitizer the same runs must report no memory error (the asan preset). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "check.h"
#include "core/os_file.h"
#include "app/game_api.h"
#include "app/game_module.h"

#include "heap_count.h"

#define RELOAD_AT 3000

/* The loaded libraries' files are copies named "<library>.hot-<pid>-<n>". */
static bool in_hot_library(const void *p) {
    Dl_info info;
    return dladdr(p, &info) && info.dli_fname && strstr(info.dli_fname, ".hot-") != NULL;
}

static int pointers_into_library(const void *state, size_t bytes) {
    int found = 0;
    for (size_t off = 0; off + sizeof(void *) <= bytes; off += sizeof(void *)) {
        const void *word;
        memcpy(&word, (const char *)state + off, sizeof word);
        if (word && in_hot_library(word)) {
            fprintf(stderr, "  offset %zu holds %p, inside a loaded game library\n", off, word);
            found++;
        }
    }
    return found;
}

static void run_replay_with_reload(void) {
    Arena *perm = arena_create((ArenaParams){.name = "permanent"});
    App *app = app_create(perm, &(AppOptions){.replay = REPLAYS_DIR "/full-run.rep", .headless = true,
                                              .skip_title = true, .no_save = true, .hot_reload = true,
                                              .hot_library = GAME_HOT_LIBRARY});
    REQUIRE_VOID(app);
    CHECK_EQ_U(app->module.loads, 1);
    CHECK(app->module.api != game_api()); /* the library's table, not the linked-in one */
    CHECK(in_hot_library(app->module.api->update));
    bool more = true;
    for (int i = 0; i < 3 && more; i++) more = app_frame(app);
    heap_calls = 0;
    heap_counting = 1;
    uint64_t reload_calls = 0;
    while (more) {
        if (app->frames == RELOAD_AT) {
            uint64_t before = heap_calls;
            CHECK(app_reload_game(app));
            reload_calls = heap_calls - before;
        }
        more = app_frame(app);
    }
    heap_counting = 0;
    uint64_t frame_calls = heap_calls - reload_calls;
    printf("replay with a reload at frame %d: %llu frames, %u libraries loaded, hash %016llx; heap calls: "
           "%llu in the frames, %llu in the reload (the dynamic loader's)\n",
           RELOAD_AT, (unsigned long long)app->frames, app->module.loads, (unsigned long long)game_hash(app->game),
           (unsigned long long)frame_calls, (unsigned long long)reload_calls);
    CHECK_EQ_U(app->module.loads, 2);
    CHECK(app->frames > RELOAD_AT);
    CHECK(app->replay_over);
    CHECK_EQ_U(game_hash(app->game), app->replay.hash);
    if (HEAP_COUNT) CHECK_EQ_U(frame_calls, 0);
    CHECK_EQ_I(pointers_into_library(app->game, sizeof *app->game), 0);
    CHECK_EQ_I(pointers_into_library(&app->effects, sizeof app->effects), 0);
    CHECK_EQ_I(pointers_into_library(&app->view, sizeof app->view), 0);
    CHECK_EQ_I(app_release(app), 0); /* its own verdict on the hash */
    arena_release(perm);
}

/* Ticks of walking down from the start of level 1 (open floor for 5 tiles below it). */
static int32_t walk(const GameApi *api, Game *g, int ticks) {
    int32_t y0 = g->sim.player.y;
    for (int i = 0; i < ticks; i++) api->update(g, SIM_IN_DOWN);
    return g->sim.player.y - y0;
}

static bool copy_file(const char *from, const char *to) {
    SCRATCH_SCOPE(tmp);
    Str8 bytes;
    return os_read_file(tmp.arena, from, 256ull << 20, &bytes, NULL) &&
           os_write_file_atomic(to, bytes.data, bytes.len, NULL);
}

static void run_variant_swap(const char *dir) {
    char watched[512], junk[512];
    snprintf(watched, sizeof watched, "%s/libgame_hot.so", dir);
    snprintf(junk, sizeof junk, "%s/not-a-library.so", dir);
    REQUIRE_VOID(copy_file(GAME_HOT_LIBRARY, watched));
    Arena *perm = arena_create((ArenaParams){.name = "permanent"});
    Arena *level = arena_create((ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Arena *level_ref = arena_create((ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level ref"});
    GameModule m;
    REQUIRE_VOID(game_module_create(&m, perm, watched));
    GameConfig cfg = {.start_level = LEVELS_DIR "/01-first-steps.lvl", .seed = 1, .skip_title = true};
    Game *g = arena_push_struct(perm, Game), *ref = arena_push_struct(perm, Game);
    Error err;
    REQUIRE_VOID(m.api->init(g, level, &cfg, &err));
    REQUIRE_VOID(game_api()->init(ref, level_ref, &cfg, &err)); /* the linked-in code, as a yardstick */
    int32_t a = walk(m.api, g, 8), a_ref = walk(game_api(), ref, 8);
    CHECK_EQ_I(a, a_ref); /* the same code, loaded or linked */
    CHECK_EQ_I(g->sim.player.y, ref->sim.player.y);

    /* "The build" writes the fast variant over the watched file; the watch sees it settle. */
    const GameApi *before = m.api;
    REQUIRE_VOID(copy_file(GAME_HOT_FAST_LIBRARY, watched));
    GameModuleEvent ev = GAME_MODULE_SAME;
    for (int i = 0; i < 4 * GAME_MODULE_POLL_FRAMES && ev == GAME_MODULE_SAME; i++) ev = game_module_poll(&m);
    CHECK_EQ_I(ev, GAME_MODULE_SWAPPED);
    CHECK(m.api != before);
    printf("%s\n", m.message);
    m.api->reloaded(g);
    int32_t y_at_swap = g->sim.player.y;
    int32_t b = walk(m.api, g, 6), b_ref = walk(game_api(), ref, 6);
    printf("player speed: %d then %d fixed-point units per tick with the library, %d linked in\n", a / 8, b / 6,
           b_ref / 6);
    CHECK_EQ_I(y_at_swap, ref->sim.player.y - b_ref); /* went on from where it was */
    CHECK_EQ_I(b, 2 * b_ref);
    CHECK(b_ref > 0);

    /* Refused: a library built from other state headers (another GAME_LAYOUT_HASH), then a
       file that is no library; the running code goes on. */
    GameModule other;
    CHECK(!game_module_create(&other, perm, GAME_HOT_OTHER_LAYOUT_LIBRARY));
    printf("refused: %s\n", other.message);
    CHECK(strstr(other.message, "layout of the game's state changed") != NULL);
    FILE *f = fopen(junk, "wb");
    REQUIRE_VOID(f);
    fputs("not an ELF file\n", f);
    fclose(f);
    GameModule bad;
    CHECK(!game_module_create(&bad, perm, junk));
    CHECK(bad.api == game_api());
    printf("refused: %s\n", bad.message);
    CHECK(strstr(bad.message, "not-a-library.so") != NULL);
    before = m.api;
    REQUIRE_VOID(copy_file(junk, watched));
    ev = GAME_MODULE_SAME;
    for (int i = 0; i < 4 * GAME_MODULE_POLL_FRAMES && ev == GAME_MODULE_SAME; i++) ev = game_module_poll(&m);
    CHECK_EQ_I(ev, GAME_MODULE_REFUSED);
    CHECK(m.api == before);
    CHECK_EQ_I(walk(m.api, g, 2), 2 * walk(game_api(), ref, 2));

    arena_release(level_ref);
    arena_release(level);
    arena_release(perm);
}

/* A new layout mid-run, in a game being played: the run ends for a restart of the level,
   and the new process's command line is this one's with that level and no title. */
static void run_layout_restart(const char *dir) {
    char watched[512];
    snprintf(watched, sizeof watched, "%s/libgame_hot_restart.so", dir);
    REQUIRE_VOID(copy_file(GAME_HOT_LIBRARY, watched));
    Arena *perm = arena_create((ArenaParams){.name = "permanent"});
    App *app = app_create(perm, &(AppOptions){.level = LEVELS_DIR "/01-first-steps.lvl", .headless = true,
                                              .skip_title = true, .no_save = true, .hot_reload = true,
                                              .hot_library = watched});
    REQUIRE_VOID(app);
    for (int i = 0; i < 10; i++) REQUIRE_VOID(app_frame(app));
    REQUIRE_VOID(copy_file(GAME_HOT_OTHER_LAYOUT_LIBRARY, watched));
    CHECK(!app_reload_game(app));
    CHECK(app->restart_level);
    CHECK(strstr(app->restart_path, "01-first-steps.lvl") != NULL);
    CHECK(!app_frame(app)); /* the run is over: main execs the new build */
    char *argv[] = {"/opt/game/game", "--level", "levels/05-the-hunt.lvl", "--hot-reload", "--no-save", "--skip-title"};
    char *out[16];
    int n = app_restart_args(app, 6, argv, out, 16);
    CHECK_EQ_I(n, 6);
    if (n == 6) {
        CHECK(!strcmp(out[0], "/opt/game/game") && !strcmp(out[1], "--hot-reload") && !strcmp(out[2], "--no-save"));
        CHECK(!strcmp(out[3], "--level") && out[4] == app->restart_path && !strcmp(out[5], "--skip-title"));
        CHECK(out[6] == NULL);
    }
    CHECK_EQ_I(app_restart_args(app, 6, argv, out, 8), -1); /* too small: said, not overrun */
    app_release(app);
    arena_release(perm);
}

int main(void) {
    if (chdir(SOURCE_DIR) != 0) return 1;
    char dir[] = "/tmp/test_hot_reload_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    heap_counting = 0;
    run_replay_with_reload();
    run_variant_swap(dir);
    run_layout_restart(dir);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
    return check_result();
}
