/* test_app.c - the real front end (app.h), headless on levels/01-first-steps.lvl with its
   title screen, driven by synthetic key and window events pushed into SDL's queue, as a
   player's keyboard would. One press must be one effect, frames later too:
     Enter on the title starts play, and no later tick sees another confirm;
     holding D walks right, releasing it stops;
     Esc pauses and the game stays paused for 30 frames; Esc again resumes, for 30 frames;
     F1 shows the debug overlay (more sprites drawn) for 30 frames; F1 again hides it;
     F12 writes exactly one screenshot (in a temporary working directory);
     losing the window's focus pauses while playing, and only then;
     a warning reported while playing reaches the HUD and the sink there was before the App
     (notes only the latter), and app_release puts that sink back;
     closing the window ends the run with status 0. */
#include <SDL2/SDL.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <strata/core/diag_capture.h>
#include <strata/core/os_file.h>
#include "app_run.h"
#include "check.h"
#include "portable.h"

static void push_window(SDL_WindowEventID ev) {
    SDL_Event e = {0};
    e.type = SDL_WINDOWEVENT;
    e.window.event = (Uint8)ev;
    CHECK(SDL_PushEvent(&e) == 1);
}

/* Down and up in one frame: the shortest press there is. */
static void tap(SDL_Scancode sc) {
    app_run_key(sc, true);
    app_run_key(sc, false);
}

static bool frame(App *app) {
    bool more = app_run_frame(app);
    CHECK(more);
    return more;
}

/* Frames, out of n, whose screen was `s` after the frame. */
static int frames_on(App *app, int n, GameScreen s) {
    int on = 0;
    for (int i = 0; i < n; i++) {
        if (!frame(app)) break;
        on += app->game->screen == s;
    }
    return on;
}

static int count_screenshots(const char *where) {
    int n = 0;
    DIR *d = opendir(where);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) n += strncmp(e->d_name, "screenshot-", 11) == 0;
    if (d) closedir(d);
    return n;
}

/* Taps a key and runs frames until the game has seen it. */
static void tap_frames(App *app, SDL_Scancode sc) {
    tap(sc);
    frame(app);
    frame(app);
}

/* Taps `sc` until the menu is on `row`: false (a failed check) when a lap of the longest
   menu does not get there, so a game that went elsewhere fails here, never loops. */
static bool tap_until_at(App *app, SDL_Scancode sc, int32_t row, int line) {
    for (int i = 0; i < 64 && app->game->menu != row; i++) tap_frames(app, sc);
    if (app->game->menu == row) return true;
    fprintf(stderr, "%s:%d: menu row %d not reached: on row %d of '%s'\n", __FILE__, line, row, app->game->menu,
            game_screen_name(app->game->screen));
    check_failures_++;
    return false;
}
#define tap_until(app, sc, row) tap_until_at(app, sc, row, __LINE__)

/* Settings through the real front end: the keys chosen in the menu drive the game at once,
   the window scale and fullscreen reach the platform at once, and a new App (a restart)
   starts with all of them. */
static void test_settings(Arena *perm) {
    AppRunOptions opt = {.level = LEVELS_DIR "/01-first-steps.lvl", .headless = true};
    App *app = app_run_create(perm, &opt);
    REQUIRE_VOID(app);
    Game *g = app->game;
    CHECK_EQ_I(g->screen, SCREEN_TITLE);
    CHECK_EQ_I(g->save.settings.scale, st_platform_window_scale(app->host->pf));
    if (!tap_until(app, SDL_SCANCODE_DOWN, TITLE_SETTINGS)) {
        app_run_release(app);
        return;
    }
    tap_frames(app, SDL_SCANCODE_RETURN);
    CHECK_EQ_I(g->screen, SCREEN_SETTINGS);
    if (!tap_until(app, SDL_SCANCODE_DOWN, SETTINGS_SCALE)) {
        app_run_release(app);
        return;
    }
    int scale = st_platform_window_scale(app->host->pf);
    tap_frames(app, scale < SAVE_SCALE_MAX ? SDL_SCANCODE_RIGHT : SDL_SCANCODE_LEFT);
    int want_scale = scale < SAVE_SCALE_MAX ? scale + 1 : scale - 1;
    CHECK_EQ_I(st_platform_window_scale(app->host->pf), want_scale);
    tap_frames(app, SDL_SCANCODE_DOWN);
    tap_frames(app, SDL_SCANCODE_RETURN);
    CHECK(st_platform_is_fullscreen(app->host->pf));
    /* Down rebinds to K: Enter on its row, then K is captured, not read as input. */
    if (!tap_until(app, SDL_SCANCODE_DOWN, SETTINGS_KEYS + ACTION_DOWN)) {
        app_run_release(app);
        return;
    }
    tap_frames(app, SDL_SCANCODE_RETURN);
    CHECK_EQ_I(game_rebinding(g), ACTION_DOWN);
    tap_frames(app, SDL_SCANCODE_K);
    CHECK_EQ_I(game_rebinding(g), -1);
    CHECK_EQ_I(g->save.settings.binds[ACTION_DOWN][0], SDL_SCANCODE_K);
    CHECK_EQ_I(g->save.settings.binds[ACTION_DOWN][1], SDL_SCANCODE_DOWN);
    CHECK_EQ_I(g->menu, SETTINGS_KEYS + ACTION_DOWN);
    /* What moved is said on the HUD: S, the front key K took the place of, is no key of
       anything now; the Down arrow stays behind K. */
    CHECK(g->message_ticks > 0 && strcmp(g->message, "'K' now for Down; 'S' unbound") == 0);
    /* ... and written to the settings file, under XDG_CONFIG_HOME. */
    char settings[SAVE_PATH_MAX];
    Error msg;
    CHECK(save_settings_default_path(settings, sizeof settings));
    SaveSettings file = g->save.settings;
    file.binds[ACTION_DOWN][0] = 0;
    CHECK_EQ_I(save_settings_load(&file, settings, NULL, &msg), ERROR_OK);
    CHECK_EQ_I(file.binds[ACTION_DOWN][0], SDL_SCANCODE_K);
    /* K moves the menu down now. */
    tap_frames(app, SDL_SCANCODE_K);
    CHECK_EQ_I(g->menu, SETTINGS_KEYS + ACTION_DOWN + 1);
    /* Esc while waiting cancels and keeps the key. */
    tap_frames(app, SDL_SCANCODE_RETURN);
    CHECK_EQ_I(game_rebinding(g), ACTION_DOWN + 1);
    tap_frames(app, SDL_SCANCODE_ESCAPE);
    CHECK_EQ_I(game_rebinding(g), -1);
    CHECK_EQ_I(g->screen, SCREEN_SETTINGS);
    tap_frames(app, SDL_SCANCODE_ESCAPE);
    CHECK_EQ_I(g->screen, SCREEN_TITLE);
    CHECK_EQ_I(app_run_release(app), 0);

    app = app_run_create(perm, &opt);
    REQUIRE_VOID(app);
    g = app->game;
    CHECK_EQ_I(st_platform_window_scale(app->host->pf), want_scale);
    CHECK(st_platform_is_fullscreen(app->host->pf));
    CHECK_EQ_I(g->save.settings.binds[ACTION_DOWN][0], SDL_SCANCODE_K);
    int before = g->menu;
    tap_frames(app, SDL_SCANCODE_K);
    CHECK(g->menu != before);
    CHECK_EQ_I(app_run_release(app), 0);
}

/* --level FILE: Enter on the title plays FILE, even with a save to continue; without
   --level (the default first level) Enter continues. */
static void test_level_option(Arena *perm) {
    SaveData d = {0};
    save_record(&d, "01-first-steps.lvl", 900, 3, "03-spikes-and-water.lvl");
    char path[SAVE_PATH_MAX];
    Error msg;
    REQUIRE_VOID(save_default_path(path, sizeof path));
    REQUIRE_VOID(save_write(&d, path, &msg));
    App *app = app_run_create(perm, &(AppRunOptions){.level = LEVELS_DIR "/05-the-hunt.lvl", .headless = true});
    REQUIRE_VOID(app);
    CHECK_EQ_I(app->game->menu, TITLE_NEW_RUN);
    tap_frames(app, SDL_SCANCODE_RETURN);
    CHECK_EQ_I(app->game->screen, SCREEN_PLAYING);
    CHECK(strstr(app->game->sim.level_path, "05-the-hunt.lvl") != NULL);
    CHECK_EQ_I(app_run_release(app), 0);
    app = app_run_create(perm, &(AppRunOptions){.headless = true});
    REQUIRE_VOID(app);
    CHECK_EQ_I(app->game->menu, TITLE_CONTINUE);
    tap_frames(app, SDL_SCANCODE_RETURN);
    CHECK(strstr(app->game->sim.level_path, "03-spikes-and-water.lvl") != NULL);
    CHECK_EQ_I(app_run_release(app), 0);
}

/* A replay of `path` headless to its end: the App's status, and what it ended on. */
typedef struct Replayed {
    int status;
    bool done, quit;
    GameScreen screen;
} Replayed;
static Replayed replay_run(Arena *perm, const char *path, uint64_t seek, bool seek_given) {
    Replayed r = {.status = -1};
    App *app = app_run_create(
        perm,
        &(AppRunOptions){.replay = path, .headless = true, .skip_title = true, .seek = seek, .seek_given = seek_given});
    if (!app) return r;
    for (int i = 0; i < 100000 && app_run_frame(app); i++) {
    }
    r.done = replay_done(&app->replay), r.quit = app->game->quit, r.screen = app->game->screen;
    r.status = app_run_release(app);
    return r;
}

/* The file's text, NUL-terminated, in `a` (NULL: unreadable). */
static char *read_text(Arena *a, const char *path) {
    Str8 text;
    Error msg;
    if (!st_os_read_file(a, path, 1 << 20, &text, &msg)) return NULL;
    char *t = st_arena_push_array(a, char, text.len + 1);
    if (t) memcpy(t, text.data, text.len);
    return t;
}

/* `text` with `from` replaced by `to`, written to `path`. */
static bool write_changed(const char *path, const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    FILE *f = at ? fopen(path, "wb") : NULL;
    if (!f) return false;
    fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return fclose(f) == 0;
}

/* Ten ticks of walking right, then Esc and the pause menu's "Back to title". */
static void walk_to_title(App *app) {
    app_run_key(SDL_SCANCODE_D, true);
    for (int i = 0; i < 10; i++) frame(app);
    app_run_key(SDL_SCANCODE_D, false);
    tap_frames(app, SDL_SCANCODE_ESCAPE);
    tap_until(app, SDL_SCANCODE_DOWN, PAUSE_TITLE);
    tap_frames(app, SDL_SCANCODE_RETURN);
}

/* A recorded run that visits the title: --level names the level, the player has a save to
   continue, and the run goes back to the title, takes "Continue" there, and quits from it.
   Its replay is that run (the title on the same rows, to the Quit on its last input); a
   replay whose start differs (the level not named, no progress) or that has inputs left
   when the game quits is a MISMATCH (status 3), never a pass that "stopped early". */
static void test_recorded_title(Arena *perm) {
    SaveData d = {0};
    save_record(&d, "01-first-steps.lvl", 900, 3, "03-spikes-and-water.lvl");
    char save[SAVE_PATH_MAX], rec[SAVE_PATH_MAX + 16], bad[SAVE_PATH_MAX + 16];
    Error msg;
    REQUIRE_VOID(save_default_path(save, sizeof save));
    REQUIRE_VOID(save_write(&d, save, &msg));
    char settings[SAVE_PATH_MAX]; /* the default keys: test_settings rebound some */
    REQUIRE_VOID(save_settings_default_path(settings, sizeof settings));
    remove(settings);
    snprintf(rec, sizeof rec, "%s/run.rep", getenv("XDG_DATA_HOME"));
    snprintf(bad, sizeof bad, "%s/bad.rep", getenv("XDG_DATA_HOME"));
    App *app = app_run_create(
        perm,
        &(AppRunOptions){.level = LEVELS_DIR "/05-the-hunt.lvl", .record = rec, .headless = true, .skip_title = true});
    REQUIRE_VOID(app);
    Game *g = app->game;
    CHECK_EQ_I(g->screen, SCREEN_PLAYING);
    walk_to_title(app);
    CHECK_EQ_I(g->screen, SCREEN_TITLE);
    CHECK_EQ_I(g->menu, TITLE_NEW_RUN); /* the level was named: Enter would play it */
    tap_until(app, SDL_SCANCODE_UP, TITLE_CONTINUE);
    uint32_t title_tick = g->ticks;
    tap_frames(app, SDL_SCANCODE_RETURN);
    CHECK(strstr(g->sim.level_path, "03-spikes-and-water.lvl") != NULL);
    walk_to_title(app);
    tap_until(app, SDL_SCANCODE_DOWN, TITLE_QUIT);
    tap(SDL_SCANCODE_RETURN);
    bool more = true;
    for (int i = 0; i < 4 && more; i++) more = app_run_frame(app);
    CHECK(!more && g->quit);
    uint32_t ticks = g->ticks;
    CHECK_EQ_I(app_run_release(app), 0);

    Replay r;
    REQUIRE_VOID(replay_load(&r, perm, rec, &msg));
    CHECK_EQ_U(r.version, 3);
    CHECK_EQ_U(r.ticks, ticks); /* not a tick after the Quit */
    CHECK(r.start.level_chosen);
    CHECK_STR(r.start.furthest, "03-spikes-and-water.lvl");
    CHECK_EQ_I(r.start.level_count, 1);

    /* The replay is the run: the title on its rows, the Quit on the last input. */
    Replayed p = replay_run(perm, rec, 0, false);
    CHECK_EQ_I(p.status, 0);
    CHECK(p.done && p.quit);
    CHECK_EQ_I(p.screen, SCREEN_TITLE);
    /* The viewer's seek to the title shows it as the run had it, and its verdict matches. */
    app = app_run_create(
        perm,
        &(AppRunOptions){.replay = rec, .headless = true, .skip_title = true, .seek = title_tick, .seek_given = true});
    REQUIRE_VOID(app);
    CHECK_EQ_I(app->game->screen, SCREEN_TITLE);
    CHECK_EQ_I(app->game->menu, TITLE_CONTINUE);
    CHECK(!app->game->quit);
    while (app_run_frame(app)) {
    }
    CHECK_EQ_I(app_run_release(app), 0);

    /* Another start, or inputs past the Quit: the run goes another way, and says so. */
    char *t = read_text(perm, rec);
    REQUIRE_VOID(t);
    char ticks_line[40], more_ticks[40];
    snprintf(ticks_line, sizeof ticks_line, "ticks %u\n", ticks);
    snprintf(more_ticks, sizeof more_ticks, "ticks %u\n", ticks + 60);
    struct {
        const char *from, *to, *what;
    } cases[] = {{"chosen yes", "chosen no", "the level not named"},
                 {"furthest 03-spikes-and-water.lvl\n", "", "no progress to continue"},
                 {"\nend", " 60x00\nend", "inputs past the Quit"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        REQUIRE_VOID(write_changed(bad, t, cases[i].from, cases[i].to));
        char *b = i == 2 ? read_text(perm, bad) : NULL; /* and the header's count with them */
        if (i == 2) REQUIRE_VOID(b && write_changed(bad, b, ticks_line, more_ticks));
        p = replay_run(perm, bad, 0, false);
        if (p.status != 3) fprintf(stderr, "%s: status %d, want 3 (MISMATCH)\n", cases[i].what, p.status);
        CHECK_EQ_I(p.status, 3);
    }
}

/* The default history arena holds the rewind's full REWIND_TICKS in ordinary play through
   the real front end: the full run's first 1000 ticks, then idle, a hold, a restart, a
   walk, another hold and idle again. Nothing is dropped for room, and nothing is said. */
static void test_full_window(Arena *perm) {
    Replay full;
    Error msg;
    REQUIRE_VOID(replay_load(&full, perm, REPLAYS_DIR "/full-run.rep", &msg));
    Replay r;
    REQUIRE_VOID(replay_begin_record(&r, perm, full.seed, full.level));
    uint16_t in;
    for (int i = 0; i < 1000 && replay_next(&full, &in); i++) replay_append(&r, in);
    static const ReplayRun then[] = {{2000, 0}, {200, GAME_IN_REWIND}, {1, 0}, {1, GAME_IN_RESTART}, {100, 0},
                                     {600, 8},  {300, GAME_IN_REWIND}, {1, 0}, {1, GAME_IN_RESTART}, {900, 0}};
    for (size_t i = 0; i < sizeof then / sizeof then[0]; i++)
        for (uint32_t k = 0; k < then[i].count; k++) replay_append(&r, then[i].input);
    char path[SAVE_PATH_MAX];
    snprintf(path, sizeof path, "%s/window.rep", getenv("XDG_DATA_HOME"));
    REQUIRE_VOID(replay_save(&r, path, 0, 0, &msg));
    App *app = app_run_create(perm, &(AppRunOptions){.replay = path, .headless = true, .skip_title = true});
    REQUIRE_VOID(app);
    uint64_t most = 0;
    while (app_run_frame(app)) {
        HistoryStats s = st_history_stats(app->rewind.history);
        CHECK_EQ_U(s.dropped_for_bytes, 0);
        if (s.dropped_for_bytes) break;
        if (s.count > most) most = s.count;
    }
    HistoryStats s = st_history_stats(app->rewind.history);
    printf("full window: %u ticks held at the end (%llu at most), %llu dropped for room\n", s.count,
           (unsigned long long)most, (unsigned long long)s.dropped_for_bytes);
    CHECK_EQ_U(most, REWIND_TICKS);
    app_run_release(app);
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    char dir[] = "/tmp/test_app_XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    REQUIRE(chdir(dir) == 0); /* nothing may be written here: F12 writes under the data folder */
    char data[300], shots[400];
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(shots, sizeof shots, "%s/arena-dungeon/screenshots", data);
    REQUIRE(setenv("XDG_DATA_HOME", data, 1) == 0);
    REQUIRE(setenv("XDG_CONFIG_HOME", data, 1) == 0); /* the settings file: never the user's own */
    REQUIRE(setenv("APPDATA", data, 1) == 0);         /* the same on Windows */
    char want_dir[400];
    CHECK(st_host_screenshot_dir(game_api(), want_dir, sizeof want_dir) && strcmp(want_dir, shots) == 0);

    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    REQUIRE(perm);
    /* What reaches the sink the App replaces (core/diag.h). */
    Arena *reports = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    App *app = app_run_create(
        perm, &(AppRunOptions){.level = LEVELS_DIR "/01-first-steps.lvl", .headless = true, .no_save = true});
    REQUIRE(app);
    Game *g = app->game;

    /* The title waits for the player. */
    CHECK_EQ_I(frames_on(app, 5, SCREEN_TITLE), 5);

    /* Enter starts play; the confirm reaches one tick only. */
    tap(SDL_SCANCODE_RETURN);
    frame(app);
    CHECK_EQ_I(g->screen, SCREEN_PLAYING);
    CHECK(app->last_input & GAME_IN_CONFIRM);
    int confirms = 0;
    for (int i = 0; i < 30 && frame(app); i++) confirms += (app->last_input & GAME_IN_CONFIRM) != 0;
    CHECK_EQ_I(confirms, 0);
    CHECK_EQ_I(g->screen, SCREEN_PLAYING);

    /* Holding D walks right; released, the player stops. */
    int32_t x0 = g->sim.player.x, y0 = g->sim.player.y;
    app_run_key(SDL_SCANCODE_D, true);
    for (int i = 0; i < 10; i++) frame(app);
    int32_t x1 = g->sim.player.x;
    CHECK(x1 - x0 >= 10 * PLAYER_SPEED * 9 / 10); /* about 10 ticks' worth */
    CHECK_EQ_I(g->sim.player.y, y0);
    app_run_key(SDL_SCANCODE_D, false);
    frame(app);
    int32_t x2 = g->sim.player.x;
    for (int i = 0; i < 10; i++) frame(app);
    CHECK_EQ_I(g->sim.player.x, x2);

    /* Esc pauses, and it stays paused; Esc resumes, and it stays playing. */
    tap(SDL_SCANCODE_ESCAPE);
    frame(app);
    CHECK_EQ_I(g->screen, SCREEN_PAUSED);
    CHECK_EQ_I(frames_on(app, 30, SCREEN_PAUSED), 30);
    tap(SDL_SCANCODE_ESCAPE);
    frame(app);
    CHECK_EQ_I(g->screen, SCREEN_PLAYING);
    CHECK_EQ_I(frames_on(app, 30, SCREEN_PLAYING), 30);

    /* F1: the overlay is drawn, every frame, until F1 again. Nothing moves in the level
       while the player stands still, so the frame before is the baseline. */
    uint32_t base = st_render_stats(app->host->rd).sprites;
    tap(SDL_SCANCODE_F1);
    int overlay = 0;
    for (int i = 0; i < 31 && frame(app); i++)
        overlay += app->host->show_debug && st_render_stats(app->host->rd).sprites > base + 40;
    CHECK_EQ_I(overlay, 31);
    tap(SDL_SCANCODE_F1);
    frame(app);
    CHECK(!app->host->show_debug);
    CHECK_EQ_U(st_render_stats(app->host->rd).sprites, base);

    /* F12: one press, one file, in the data folder (created), never the working directory;
       the screen says where. */
    CHECK_EQ_I(count_screenshots(shots), 0);
    tap(SDL_SCANCODE_F12);
    frame(app);
    char shot[480], line[600];
    snprintf(shot, sizeof shot, "%s/screenshot-000.png", shots);
    snprintf(line, sizeof line, "screenshot saved: %s", shot);
    CHECK(strcmp(g->message, line) == 0);
    CHECK(g->message_ticks > 0 && g->message_kind == GAME_MESSAGE_NOTICE);
    for (int i = 0; i < 30; i++) frame(app);
    CHECK_EQ_I(count_screenshots(shots), 1);
    CHECK_EQ_I(count_screenshots("."), 0);
    FILE *f = fopen(shot, "rb");
    unsigned char sig[8] = {0};
    CHECK(f && fread(sig, 1, 8, f) == 8 && memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0);
    if (f) fclose(f);
    char note[500];
    snprintf(note, sizeof note, "wrote %s", shot);
    CHECK(cap.last && strcmp(cap.last->d.text, note) == 0 && cap.last->d.level == DIAG_NOTE);
    /* A second one takes the next free number, even in a new session (shots counts from 0). */
    app->host->shots = 0;
    tap(SDL_SCANCODE_F12);
    frame(app);
    CHECK_EQ_I(count_screenshots(shots), 2);
    g->message_ticks = 0;

    /* A warning while playing: on the HUD, and passed on to the log. */
    uint32_t before = cap.count;
    st_diag_report_at(DIAG_WARNING, "progress", 0, 0, "cannot write: %s", "No space left on device");
    CHECK(strcmp(g->message, "progress: warning: cannot write: No space left on device") == 0);
    CHECK(g->message_ticks > 0);
    CHECK(cap.count == before + 1 && cap.last && cap.last->d.level == DIAG_WARNING);
    frame(app);

    /* M mutes and says so; M again brings the sound back. */
    CHECK(!app->muted);
    tap(SDL_SCANCODE_M);
    frame(app);
    CHECK(app->muted);
    CHECK(strcmp(g->message, "sound off (M)") == 0);
    tap(SDL_SCANCODE_M);
    frame(app);
    CHECK(!app->muted);
    g->message_ticks = 0;

    /* The window loses focus while playing: paused, and it stays paused. */
    push_window(SDL_WINDOWEVENT_FOCUS_LOST);
    frame(app);
    CHECK_EQ_I(g->screen, SCREEN_PAUSED);
    CHECK(app->ducked); /* and the sound is ducked */
    CHECK_EQ_I(frames_on(app, 30, SCREEN_PAUSED), 30);
    /* Losing it again while paused must not toggle the pause off. */
    push_window(SDL_WINDOWEVENT_FOCUS_GAINED);
    push_window(SDL_WINDOWEVENT_FOCUS_LOST);
    CHECK_EQ_I(frames_on(app, 5, SCREEN_PAUSED), 5);
    push_window(SDL_WINDOWEVENT_FOCUS_GAINED);
    tap(SDL_SCANCODE_ESCAPE);
    CHECK_EQ_I(frames_on(app, 30, SCREEN_PLAYING), 30);
    CHECK(!app->ducked); /* focus back: full volume */

    /* Closing the window ends the run. */
    SDL_Event quit = {.type = SDL_QUIT};
    CHECK(SDL_PushEvent(&quit) == 1);
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
    CHECK(st_diag_sink().state == &cap); /* the App's sink is gone with it */
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.of[DIAG_ERROR], 0);
    st_arena_release(reports);

    test_settings(perm);
    test_level_option(perm);
    test_recorded_title(perm);
    test_full_window(perm);
    st_arena_release(perm);

    CHECK(test_remove_tree(data));
    REQUIRE(chdir("/") == 0);
    CHECK(rmdir(dir) == 0); /* nothing else was written there */
    return check_result();
}
