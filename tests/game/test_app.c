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

#include "app.h"
#include "check.h"

static void push_key(SDL_Scancode sc, bool down) {
    SDL_Event e = {0};
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    CHECK(SDL_PushEvent(&e) == 1);
}

static void push_window(SDL_WindowEventID ev) {
    SDL_Event e = {0};
    e.type = SDL_WINDOWEVENT;
    e.window.event = (Uint8)ev;
    CHECK(SDL_PushEvent(&e) == 1);
}

/* Down and up in one frame: the shortest press there is. */
static void tap(SDL_Scancode sc) {
    push_key(sc, true);
    push_key(sc, false);
}

static bool frame(App *app) {
    bool more = app_frame(app);
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

static int count_screenshots(void) {
    int n = 0;
    DIR *d = opendir(".");
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, "screenshot-", 11) == 0;
    if (d) closedir(d);
    return n;
}

int main(void) {
    char dir[] = "/tmp/test_app_XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    REQUIRE(chdir(dir) == 0); /* F12 writes into the working directory */

    Arena *perm = arena_create((ArenaParams){.name = "permanent"});
    REQUIRE(perm);
    /* What reaches the sink the App replaces (core/diag.h). */
    Arena *reports = arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    diag_capture_begin(&cap, reports);
    App *app = app_create(perm, &(AppOptions){.level = LEVELS_DIR "/01-first-steps.lvl", .headless = true,
                                              .no_save = true});
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
    push_key(SDL_SCANCODE_D, true);
    for (int i = 0; i < 10; i++) frame(app);
    int32_t x1 = g->sim.player.x;
    CHECK(x1 - x0 >= 10 * PLAYER_SPEED * 9 / 10); /* about 10 ticks' worth */
    CHECK_EQ_I(g->sim.player.y, y0);
    push_key(SDL_SCANCODE_D, false);
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
    uint32_t base = render_stats(app->rd).sprites;
    tap(SDL_SCANCODE_F1);
    int overlay = 0;
    for (int i = 0; i < 31 && frame(app); i++)
        overlay += app->controls.show_debug && render_stats(app->rd).sprites > base + 40;
    CHECK_EQ_I(overlay, 31);
    tap(SDL_SCANCODE_F1);
    frame(app);
    CHECK(!app->controls.show_debug);
    CHECK_EQ_U(render_stats(app->rd).sprites, base);

    /* F12: one press, one file. */
    CHECK_EQ_I(count_screenshots(), 0);
    tap(SDL_SCANCODE_F12);
    for (int i = 0; i < 30; i++) frame(app);
    CHECK_EQ_I(count_screenshots(), 1);
    FILE *f = fopen("screenshot-000.png", "rb");
    unsigned char sig[8] = {0};
    CHECK(f && fread(sig, 1, 8, f) == 8 && memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0);
    if (f) fclose(f);
    /* The file is announced as a note: in the log, not on the screen. */
    CHECK(cap.last && strcmp(cap.last->d.text, "wrote screenshot-000.png") == 0 && cap.last->d.level == DIAG_NOTE);
    CHECK_EQ_I(g->message_ticks, 0);

    /* A warning while playing: on the HUD, and passed on to the log. */
    uint32_t before = cap.count;
    diag_report_at(DIAG_WARNING, "progress", 0, 0, "cannot write: %s", "No space left on device");
    CHECK(strcmp(g->message, "progress: warning: cannot write: No space left on device") == 0);
    CHECK(g->message_ticks > 0);
    CHECK(cap.count == before + 1 && cap.last && cap.last->d.level == DIAG_WARNING);
    frame(app);

    /* The window loses focus while playing: paused, and it stays paused. */
    push_window(SDL_WINDOWEVENT_FOCUS_LOST);
    frame(app);
    CHECK_EQ_I(g->screen, SCREEN_PAUSED);
    CHECK_EQ_I(frames_on(app, 30, SCREEN_PAUSED), 30);
    /* Losing it again while paused must not toggle the pause off. */
    push_window(SDL_WINDOWEVENT_FOCUS_GAINED);
    push_window(SDL_WINDOWEVENT_FOCUS_LOST);
    CHECK_EQ_I(frames_on(app, 5, SCREEN_PAUSED), 5);
    push_window(SDL_WINDOWEVENT_FOCUS_GAINED);
    tap(SDL_SCANCODE_ESCAPE);
    CHECK_EQ_I(frames_on(app, 30, SCREEN_PLAYING), 30);

    /* Closing the window ends the run. */
    SDL_Event quit = {.type = SDL_QUIT};
    CHECK(SDL_PushEvent(&quit) == 1);
    CHECK(!app_frame(app));
    CHECK_EQ_I(app_release(app), 0);
    CHECK(diag_sink().state == &cap); /* the App's sink is gone with it */
    diag_capture_end(&cap);
    CHECK_EQ_U(cap.of[DIAG_ERROR], 0);
    arena_release(reports);
    arena_release(perm);

    unlink("screenshot-000.png");
    REQUIRE(chdir("/") == 0);
    CHECK(rmdir(dir) == 0); /* nothing else was written there */
    return check_result();
}
