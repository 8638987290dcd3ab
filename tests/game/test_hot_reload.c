/* test_hot_reload.c - the game's code swapped while it runs (game_api.h, game_module.h).

   1. The full committed replay, headless, through the real front end with --hot-reload:
      the library is loaded at start, loaded again (the same file) at frame 3000, and the run
      ends on the replay's hash, as a run without reload does. Not one heap call per frame
      with the library watched; what the reload itself costs the loader is counted and
      printed. Nothing in the state points into a loaded library (no function pointers, no
      constant strings of its own): every pointer-sized word of the Game, the effects and
      the view is looked up with dladdr.
   2. A variant of the library built with -DPLAYER_SPEED doubled (game_hot_fast) is copied
      over the watched file between two walks of the real front end (keys pushed into SDL's
      queue) and the watch takes it: from then on the player walks twice as far per tick
      as the linked-in code makes it walk, from the same place in the same level: the state
      went on, the code changed.
   3. The editor's code is the library's too: a variant with another hit-point step for +,
      swapped in while the editor is open, steps by its own.
   4. A library built from other state headers (GAME_LAYOUT_HASH differs), or a file that
      is no library at all, is refused, and the code running goes on. The new layout, met
      while a level is played, ends the run for a restart of that level in a new process,
      whose command line app_restart makes.
   Under AddressSanitizer the same runs must report no memory error (the asan preset). */
#include <SDL2/SDL.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_run.h"
#include "check.h"
#include <strata/core/os_file.h>
#include <strata/host/game_api.h>
#include <strata/host/game_module.h>

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
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    App *app = app_run_create(perm, &(AppRunOptions){.replay = REPLAYS_DIR "/full-run.rep",
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .hot_reload = true,
                                                     .hot_library = GAME_HOT_LIBRARY});
    REQUIRE_VOID(app);
    CHECK_EQ_U(app->host->module.loads, 1);
    CHECK(app->host->module.api != game_api()); /* the library's table, not the linked-in one */
    CHECK(in_hot_library((const void *)app->host->module.api->tick));
    bool more = true;
    for (int i = 0; i < 3 && more; i++) more = app_run_frame(app);
    heap_calls = 0;
    heap_counting = 1;
    uint64_t reload_calls = 0;
    while (more) {
        if (app->host->frames == RELOAD_AT) {
            uint64_t before = heap_calls;
            CHECK(st_host_reload_game(app->host));
            reload_calls = heap_calls - before;
        }
        more = app_run_frame(app);
    }
    heap_counting = 0;
    uint64_t frame_calls = heap_calls - reload_calls;
    printf("replay with a reload at frame %d: %llu frames, %u libraries loaded, hash %016llx; heap calls: "
           "%llu in the frames, %llu in the reload (the dynamic loader's)\n",
           RELOAD_AT, (unsigned long long)app->host->frames, app->host->module.loads,
           (unsigned long long)game_hash(app->game), (unsigned long long)frame_calls, (unsigned long long)reload_calls);
    CHECK_EQ_U(app->host->module.loads, 2);
    CHECK(app->host->frames > RELOAD_AT);
    CHECK((app->mode == APP_MODE_OVER));
    CHECK_EQ_U(game_hash(app->game), app->replay.hash);
    if (HEAP_COUNT) CHECK_EQ_U(frame_calls, 0);
    CHECK_EQ_I(pointers_into_library(app->game, sizeof *app->game), 0);
    CHECK_EQ_I(pointers_into_library(&app->effects, sizeof app->effects), 0);
    CHECK_EQ_I(pointers_into_library(&app->view, sizeof app->view), 0);
    CHECK_EQ_I(app_run_release(app), 0); /* its own verdict on the hash */
    st_arena_release(perm);
}

/* Frames of walking down (one tick each, headless) through the host, the key held. */
static int32_t walk_app(App *app, int frames) {
    int32_t y0 = app->game->sim.player.y;
    app_run_key(SDL_SCANCODE_DOWN, true);
    for (int i = 0; i < frames; i++) CHECK(app_run_frame(app));
    app_run_key(SDL_SCANCODE_DOWN, false);
    CHECK(app_run_frame(app)); /* the release: a tick without the bit */
    return app->game->sim.player.y - y0;
}

/* The same ticks with the code linked into this test, as a yardstick. */
static int32_t walk_ref(Game *g, int ticks) {
    int32_t y0 = g->sim.player.y;
    for (int i = 0; i < ticks; i++) game_update(g, SIM_IN_DOWN);
    game_update(g, 0);
    return g->sim.player.y - y0;
}

static bool copy_file(const char *from, const char *to) {
    SCRATCH_SCOPE(tmp);
    Str8 bytes;
    return st_os_read_file(tmp.arena, from, 256ull << 20, &bytes, NULL) &&
           st_os_write_file_atomic(to, bytes.data, bytes.len, NULL);
}

/* Frames, up to a bound, until the watch has taken or refused the changed file. */
static void frames_until_looked(App *app, const char *expect) {
    for (int i = 0; i < 4 * GAME_MODULE_POLL_FRAMES && !strstr(app->host->module.message, expect); i++)
        CHECK(app_run_frame(app));
}

static void run_variant_swap(const char *dir) {
    char watched[512], junk[512];
    snprintf(watched, sizeof watched, "%s/libgame_hot.so", dir);
    snprintf(junk, sizeof junk, "%s/not-a-library.so", dir);
    REQUIRE_VOID(copy_file(GAME_HOT_LIBRARY, watched));
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    Arena *level_ref = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level ref"});
    App *app = app_run_create(perm, &(AppRunOptions){.level = LEVELS_DIR "/01-first-steps.lvl",
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .hot_library = watched});
    REQUIRE_VOID(app);
    GameConfig cfg = {.start_level = LEVELS_DIR "/01-first-steps.lvl", .seed = 1, .skip_title = true};
    Game *ref = st_arena_push_struct(perm, Game);
    Error err;
    REQUIRE_VOID(game_init(ref, level_ref, &cfg, &err));
    int32_t a = walk_app(app, 8), a_ref = walk_ref(ref, 8);
    CHECK_EQ_I(a, a_ref); /* the same code, loaded or linked */
    CHECK_EQ_I(app->game->sim.player.y, ref->sim.player.y);

    /* "The build" writes the fast variant over the watched file; the watch sees it settle. */
    const GameApi *before = app->host->module.api;
    REQUIRE_VOID(copy_file(GAME_HOT_FAST_LIBRARY, watched));
    frames_until_looked(app, "reloaded");
    CHECK(app->host->module.api != before);
    CHECK_EQ_U(app->host->module.loads, 2);
    printf("%s\n", app->host->module.message);
    int32_t y_at_swap = app->game->sim.player.y;
    int32_t b = walk_app(app, 6), b_ref = walk_ref(ref, 6);
    printf("player speed: %d then %d fixed-point units per tick with the library, %d linked in\n", a / 8, b / 6,
           b_ref / 6);
    CHECK_EQ_I(y_at_swap, ref->sim.player.y - b_ref); /* went on from where it was */
    CHECK_EQ_I(b, 2 * b_ref);
    CHECK(b_ref > 0);

    /* Refused: a library built from other state headers (another layout hash) than the
       table running, then a file that is no library; the running code goes on. */
    GameModule other;
    CHECK(!st_game_module_create(&other, perm, game_api(), GAME_HOT_OTHER_LAYOUT_LIBRARY));
    printf("refused: %s\n", other.message);
    CHECK(strstr(other.message, "layout of the game's state changed") != NULL);
    FILE *f = fopen(junk, "wb");
    REQUIRE_VOID(f);
    fputs("not an ELF file\n", f);
    fclose(f);
    GameModule bad;
    CHECK(!st_game_module_create(&bad, perm, game_api(), junk));
    CHECK(bad.api == game_api());
    printf("refused: %s\n", bad.message);
    CHECK(strstr(bad.message, "not-a-library.so") != NULL);
    before = app->host->module.api;
    REQUIRE_VOID(copy_file(junk, watched));
    frames_until_looked(app, "not an ELF");
    CHECK(strstr(app->host->module.message, "not an ELF") != NULL);
    CHECK(app->host->module.api == before);
    CHECK_EQ_I(walk_app(app, 2), 2 * walk_ref(ref, 2));

    app_run_release(app);
    st_arena_release(level_ref);
    st_arena_release(perm);
}

/* The editor runs the library's code too: a variant whose + steps an enemy's hit points by
   10 (game_hot_editor) swapped in while the editor is open, and the next + is 10. */
static void run_editor_swap(const char *dir) {
    char watched[512], level[512];
    snprintf(watched, sizeof watched, "%s/libgame_hot_editor.so", dir);
    snprintf(level, sizeof level, "%s/edited.lvl", dir);
    REQUIRE_VOID(copy_file(GAME_HOT_LIBRARY, watched));
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    App *app = app_run_create(perm, &(AppRunOptions){.edit = level,
                                                     .edit_w = 20,
                                                     .edit_h = 12,
                                                     .headless = true,
                                                     .no_save = true,
                                                     .hot_reload = true,
                                                     .hot_library = watched});
    REQUIRE_VOID(app);
    REQUIRE_VOID(app->mode == APP_MODE_EDIT);
    EditorUi *ui = app->editor;
    int32_t tx = app->game->sim.level.start_tx + 1, ty = app->game->sim.level.start_ty;
    editor_set(&ui->ed, tx, ty, &(EditCell){.tile = TILE_FLOOR, .thing = EDIT_ENEMY});
    /* The mouse over that tile, so the cursor is on it. */
    SDL_Event e = {0};
    e.type = SDL_MOUSEMOTION;
    e.motion.x = (int)(tx * TILE_PX - ui->view_x + TILE_PX / 2);
    e.motion.y = (int)(EDITOR_TOP_H + ty * TILE_PX - ui->view_y + TILE_PX / 2);
    CHECK(SDL_PushEvent(&e) == 1);
    CHECK(app_run_frame(app));
    CHECK(ui->cursor_on_map && ui->cursor_tx == tx && ui->cursor_ty == ty);
    app_run_key(SDL_SCANCODE_EQUALS, true), app_run_key(SDL_SCANCODE_EQUALS, false);
    CHECK(app_run_frame(app));
    CHECK_EQ_I(editor_get(&ui->ed, tx, ty).hp, 1);
    REQUIRE_VOID(copy_file(GAME_HOT_EDITOR_LIBRARY, watched));
    CHECK(st_host_reload_game(app->host));
    app_run_key(SDL_SCANCODE_EQUALS, true), app_run_key(SDL_SCANCODE_EQUALS, false);
    CHECK(app_run_frame(app));
    printf("editor: + made the hit points 1 with the library, then %d with the variant swapped in\n",
           editor_get(&ui->ed, tx, ty).hp);
    CHECK_EQ_I(editor_get(&ui->ed, tx, ty).hp, 11);
    app_run_release(app); /* headless with unsaved edits: kept beside the file, in the temporary folder */
    st_arena_release(perm);
}

/* A new layout mid-run, in a game being played: the run ends for a restart of the level,
   and the new process's command line is this one's with that level and no title. */
static void run_layout_restart(const char *dir) {
    char watched[512];
    snprintf(watched, sizeof watched, "%s/libgame_hot_restart.so", dir);
    REQUIRE_VOID(copy_file(GAME_HOT_LIBRARY, watched));
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    App *app = app_run_create(perm, &(AppRunOptions){.level = LEVELS_DIR "/01-first-steps.lvl",
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .hot_reload = true,
                                                     .hot_library = watched});
    REQUIRE_VOID(app);
    for (int i = 0; i < 10; i++) REQUIRE_VOID(app_run_frame(app));
    REQUIRE_VOID(copy_file(GAME_HOT_OTHER_LAYOUT_LIBRARY, watched));
    CHECK(!st_host_reload_game(app->host));
    CHECK(app->host->restart);
    CHECK(strstr(app->game->sim.level_path, "01-first-steps.lvl") != NULL);
    CHECK(!app_run_frame(app)); /* the run is over: main execs the new build */
    char *argv[] = {"/opt/game/game", "--level", "levels/05-the-hunt.lvl", "--hot-reload", "--no-save", "--skip-title"};
    char *out[16];
    int n = app_restart(app, 6, argv, out, 16);
    CHECK_EQ_I(n, 6);
    if (n == 6) {
        CHECK(!strcmp(out[0], "/opt/game/game") && !strcmp(out[1], "--hot-reload") && !strcmp(out[2], "--no-save"));
        CHECK(!strcmp(out[3], "--level") && out[4] == app->game->sim.level_path && !strcmp(out[5], "--skip-title"));
        CHECK(out[6] == NULL);
    }
    CHECK_EQ_I(app_restart(app, 6, argv, out, 8), -1); /* too small: said, not overrun */
    app_run_release(app);
    st_arena_release(perm);
}

int main(void) {
    if (chdir(SOURCE_DIR) != 0) return 1;
    char dir[] = "/tmp/test_hot_reload_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    heap_counting = 0;
    run_replay_with_reload();
    run_variant_swap(dir);
    run_editor_swap(dir);
    run_layout_restart(dir);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
    return check_result();
}
