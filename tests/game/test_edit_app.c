/* test_edit_app.c - the level editor and the live reload through the real front end,
   headless, driven by synthetic SDL mouse and keyboard events:
   - `--edit NEW.lvl --size 14x9`: paint a wall stroke, place an exit, a coin (chosen with
     the wheel), a sign (chosen on the palette, its text typed), undo and redo, save; the file
     loads, and levelcheck accepts it;
   - Tab play-tests from the cursor and Tab comes back; Esc leaves to play the saved file;
   - the file changed on disk under the running game is reloaded in place; a broken change
     is shown on screen with its line and column, and the level that ran keeps running;
   - `--size` refuses, with the reason, what it cannot make into a level the game loads: a
     Tiled map's name, a level too large for the level arena in force (and by how much), a
     folder that is not there;
   - the view pans at its speed, stops at the map's edges, never under Ctrl, goes back to
     the start on Home, and a map that fits stays centred. */
#include <SDL2/SDL.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <strata/core/diag_capture.h>
#include "app_run.h"
#include "check.h"
#include "portable.h"
#include "level/level_load.h"

static char dir[] = "/tmp/test_edit_app_XXXXXX";

static void push(SDL_Event e) { CHECK(SDL_PushEvent(&e) == 1); }

static void key(SDL_Scancode sc, uint16_t mods) {
    SDL_Event e = {.type = SDL_KEYDOWN};
    e.key.state = SDL_PRESSED;
    e.key.keysym.scancode = sc;
    e.key.keysym.mod = mods;
    push(e);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    push(e);
}

static void mouse_move(int x, int y) {
    SDL_Event e = {.type = SDL_MOUSEMOTION};
    e.motion.x = x, e.motion.y = y;
    push(e);
}

static void mouse_button(int x, int y, int button, bool down) {
    SDL_Event e = {.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP};
    e.button.x = x, e.button.y = y, e.button.button = (Uint8)button;
    e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
    push(e);
}

static void text_input(const char *s) {
    SDL_Event e = {.type = SDL_TEXTINPUT};
    snprintf(e.text.text, sizeof e.text.text, "%s", s);
    push(e);
}

static void frames(App *app, int n) {
    for (int i = 0; i < n; i++) CHECK(app_run_frame(app));
}

/* The logical pixel at the centre of tile (tx, ty), with the editor's view at 0, 0. */
static int px(int tx) { return tx * TILE_PX + TILE_PX / 2; }
static int py(int ty) { return EDITOR_TOP_H + ty * TILE_PX + TILE_PX / 2; }

static void click(App *app, int tx, int ty, int button) {
    mouse_move(px(tx), py(ty));
    mouse_button(px(tx), py(ty), button, true);
    frames(app, 1);
    mouse_button(px(tx), py(ty), button, false);
    frames(app, 1);
}

static void write_file(const char *path, const char *text, int64_t mtime_s) {
    FILE *f = fopen(path, "wb");
    REQUIRE_VOID(f);
    fputs(text, f);
    fclose(f);
    /* A different second for each version: the watch compares times, and the test must not
       depend on the file system's clock resolution. */
    struct timespec t[2] = {{.tv_sec = mtime_s}, {.tv_sec = mtime_s}};
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

static void test_editor(Arena *perm, const char *path) {
    App *app = app_run_create(
        perm, &(AppRunOptions){.edit = path, .edit_w = 14, .edit_h = 9, .headless = true, .no_save = true});
    REQUIRE_VOID(app);
    CHECK((app->mode == APP_MODE_EDIT));
    EditorUi *ui = app->editor;
    Editor *e = &ui->ed;
    CHECK_EQ_I(e->lv.width, 14);
    CHECK_EQ_I(e->lv.height, 9);
    ui->view_x = ui->view_y = 0;
    frames(app, 1);

    /* Walls: brush 2 (key 2), a stroke from (3,3) to (6,3), one undo step. */
    key(SDL_SCANCODE_2, 0);
    frames(app, 1);
    uint64_t before = editor_history_count(e);
    mouse_move(px(3), py(3));
    mouse_button(px(3), py(3), 1, true);
    frames(app, 1);
    mouse_move(px(6), py(3));
    frames(app, 1);
    mouse_button(px(6), py(3), 1, false);
    frames(app, 1);
    for (int x = 3; x <= 6; x++) CHECK_EQ_I(editor_get(e, x, 3).tile, TILE_WALL);
    /* An exit (key 5), then a coin: the wheel turns the palette from the exit to it. */
    key(SDL_SCANCODE_5, 0);
    frames(app, 1);
    click(app, 12, 7, 1);
    CHECK_EQ_I(editor_get(e, 12, 7).tile, TILE_EXIT);
    SDL_Event wheel = {.type = SDL_MOUSEWHEEL};
    wheel.wheel.y = -9; /* down: nine entries on */
    push(wheel);
    frames(app, 1);
    CHECK_EQ_I(ui->brush, 13);
    click(app, 8, 2, 1);
    CHECK_EQ_I(editor_get(e, 8, 2).thing, EDIT_PICKUP);
    /* Undo the coin, redo it. */
    key(SDL_SCANCODE_Z, KMOD_LCTRL);
    frames(app, 1);
    CHECK_EQ_I(editor_get(e, 8, 2).thing, EDIT_NONE);
    key(SDL_SCANCODE_Y, KMOD_LCTRL);
    frames(app, 1);
    CHECK_EQ_I(editor_get(e, 8, 2).thing, EDIT_PICKUP);
    CHECK(editor_history_count(e) >= before + 3);
    /* A sign, chosen on the palette; its text typed into the prompt. */
    int sign_x = 2 + 19 * EDITOR_BRUSH_W + EDITOR_BRUSH_W / 2, sign_y = 270 - EDITOR_PALETTE_H / 2;
    mouse_move(sign_x, sign_y);
    mouse_button(sign_x, sign_y, 1, true);
    frames(app, 1);
    mouse_button(sign_x, sign_y, 1, false);
    frames(app, 1);
    CHECK_EQ_I(ui->brush, 19);
    click(app, 2, 5, 1);
    CHECK_EQ_I(ui->prompt, PROMPT_SIGN);
    text_input("Mind the wall");
    frames(app, 1);
    key(SDL_SCANCODE_RETURN, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->prompt, PROMPT_NONE);
    EditCell sign = editor_get(e, 2, 5);
    CHECK(sign.thing == EDIT_SIGN && st_str8_eq_cstr(sign.text, "Mind the wall"));
    CHECK(!e->has_problem);
    /* Typed fast, in one frame: N opens the name prompt, and the keys after it are its text,
       in order, a Backspace taking what came before it; Return ends it in the same frame. */
    char name_before[64];
    snprintf(name_before, sizeof name_before, "%.*s", STR8_FMT(e->lv.name));
    REQUIRE_VOID(strlen(name_before) >= 2);
    name_before[strlen(name_before) - 2] = 0; /* what two Backspaces leave */
    key(SDL_SCANCODE_N, 0);
    text_input("n");
    key(SDL_SCANCODE_BACKSPACE, 0);
    key(SDL_SCANCODE_BACKSPACE, 0);
    key(SDL_SCANCODE_X, 0);
    text_input("x");
    key(SDL_SCANCODE_Y, 0);
    text_input("y");
    key(SDL_SCANCODE_RETURN, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->prompt, PROMPT_NONE);
    char want[80];
    snprintf(want, sizeof want, "%sxy", name_before);
    if (!st_str8_eq_cstr(e->lv.name, want))
        fprintf(stderr, "name after fast typing: '%.*s', wanted '%s'\n", STR8_FMT(e->lv.name), want);
    CHECK(st_str8_eq_cstr(e->lv.name, want));

    /* A patroller with 5 hit points: placed, then + five times under the cursor. */
    key(SDL_SCANCODE_9, 0); /* 1 .. 9 are entries 0 .. 8; the patroller is 10: wheel on */
    frames(app, 1);
    SDL_Event w2 = {.type = SDL_MOUSEWHEEL};
    w2.wheel.y = -2; /* 8 -> 10 */
    push(w2);
    frames(app, 1);
    CHECK_EQ_I(ui->brush, 10);
    click(app, 11, 6, 1);
    for (int i = 0; i < 6; i++) key(SDL_SCANCODE_EQUALS, 0);
    key(SDL_SCANCODE_MINUS, 0);
    frames(app, 1);
    EditCell foe = editor_get(e, 11, 6);
    CHECK(foe.thing == EDIT_ENEMY && foe.kind == ENEMY_PATROLLER && foe.hp == 5);

    /* Save, then the file is a level: loaded here and by levelcheck. */
    key(SDL_SCANCODE_S, KMOD_LCTRL);
    frames(app, 1);
    CHECK(!e->dirty);
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "check"});
    Level lv;
    Error err;
    CHECK(level_load(&lv, level, path, &err));
    CHECK(lv.width == 14 && lv.height == 9 && lv.sign_count == 1 && lv.pickup_count == 1);
    CHECK(lv.enemy_count == 1 && lv.enemies[0].hp == 5);
    st_arena_release(level);
#if !defined(_WIN32) /* through a shell; on Windows the level_load above is the check */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' '%s' > /dev/null", LEVELCHECK, path);
    CHECK(system(cmd) == 0);
#endif

    /* Tab: play-test from the cursor; Tab: back. */
    mouse_move(px(9), py(6));
    frames(app, 1);
    key(SDL_SCANCODE_TAB, 0);
    frames(app, 1);
    CHECK((app->mode == APP_MODE_PLAYTEST) && !(app->mode == APP_MODE_EDIT));
    CHECK_EQ_I(app->game->screen, SCREEN_PLAYING);
    CHECK_EQ_I(app->game->sim.player.x / (TILE_PX * FIX_ONE), 9);
    CHECK_EQ_I(app->game->sim.player.y / (TILE_PX * FIX_ONE), 6);
    frames(app, 10);
    key(SDL_SCANCODE_TAB, 0);
    frames(app, 1);
    CHECK((app->mode == APP_MODE_EDIT) && !(app->mode == APP_MODE_PLAYTEST));

    /* A problem: a second start. Saving asks for Ctrl+S twice and keeps the file until then. */
    key(SDL_SCANCODE_0, 0); /* 0: the tenth entry, the player start */
    frames(app, 1);
    CHECK_EQ_I(ui->brush, 9);
    click(app, 10, 1, 1);
    CHECK(e->has_problem);
    key(SDL_SCANCODE_S, KMOD_LCTRL);
    frames(app, 1);
    CHECK(e->dirty);
    CHECK(level_load(
        &lv, level = st_arena_create((ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN}),
        path, &err));
    st_arena_release(level);
    key(SDL_SCANCODE_Z, KMOD_LCTRL); /* take it back instead: as saved again */
    frames(app, 1);
    CHECK(!e->has_problem);
    CHECK(!e->dirty);

    /* Esc with a change not saved asks; another key keeps editing, and the next Esc asks
       again; Esc at the question ends the --edit session without saving, and without
       keeping anything beside the file: that was the answer. */
    key(SDL_SCANCODE_2, 0);
    frames(app, 1);
    click(app, 9, 5, 1);
    CHECK(e->dirty);
    key(SDL_SCANCODE_ESCAPE, 0);
    frames(app, 1);
    CHECK((app->mode == APP_MODE_EDIT));
    CHECK_EQ_I(ui->question, QUESTION_LEAVE);
    key(SDL_SCANCODE_LCTRL, KMOD_LCTRL); /* a modifier alone is no answer, nor F1 or F12 */
    key(SDL_SCANCODE_F1, 0);
    key(SDL_SCANCODE_F1, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_LEAVE);
    click(app, 9, 6, 1); /* nor is the mouse: nothing is painted under the question */
    CHECK_EQ_I(editor_get(e, 9, 6).tile, TILE_FLOOR);
    key(SDL_SCANCODE_K, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_NONE);
    CHECK((app->mode == APP_MODE_EDIT) && e->dirty);
    key(SDL_SCANCODE_ESCAPE, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_LEAVE);
    key(SDL_SCANCODE_ESCAPE, 0);
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
    CHECK_EQ_I(level_load(&lv,
                          level = st_arena_create(
                              (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN}),
                          path, &err),
               true);
    CHECK_EQ_I(level_tile(&lv, 9, 5), TILE_FLOOR); /* the unsaved wall is gone */
    CHECK_EQ_I(lv.sign_count, 1);
    st_arena_release(level);
    char unsaved[400];
    snprintf(unsaved, sizeof unsaved, "%s.unsaved", path);
    CHECK(access(unsaved, F_OK) != 0);
}

static void test_reload(Arena *perm, const char *path) {
    const char *v1 = "name: Reload\nmap:\n##########\n#@.......#\n#........#\n#.......X#\n##########\nend\n";
    const char *v2 = "name: Reload\nmap:\n##########\n#@..$....#\n#........#\n#.......X#\n##########\nend\n";
    const char *broken = "name: Reload\nmap:\n##########\n#@..$....#\n#...?....#\n#.......X#\n##########\nend\n";
    write_file(path, v1, 1000000000);
    App *app =
        app_run_create(perm, &(AppRunOptions){.level = path, .headless = true, .skip_title = true, .no_save = true});
    REQUIRE_VOID(app);
    Game *g = app->game;
    frames(app, 30);
    CHECK_EQ_I(g->sim.level.pickup_count, 0);
    write_file(path, v2, 1000000100);
    frames(app, 40);
    CHECK_EQ_I(g->sim.level.pickup_count, 1);
    CHECK(strncmp(g->message, "reloaded ", 9) == 0);
    /* Broken: the error on screen with its place, the level that ran still running. */
    uint32_t serial = g->sim.level_serial;
    write_file(path, broken, 1000000200);
    frames(app, 40);
    CHECK_EQ_U(g->sim.level_serial, serial);
    CHECK_EQ_I(g->sim.level.pickup_count, 1);
    char want[400];
    snprintf(want, sizeof want, "%s:5:5: error", path);
    CHECK(strncmp(g->message, want, strlen(want)) == 0 && g->message_kind == GAME_MESSAGE_ERROR);
    CHECK_EQ_I(g->screen, SCREEN_PLAYING);
    /* Fixed again: reloaded. */
    write_file(path, v1, 1000000300);
    frames(app, 40);
    CHECK_EQ_I(g->sim.level.pickup_count, 0);
    CHECK_EQ_I(app_run_release(app), 0);
}

/* An error was reported whose text holds every one of the words. */
static bool reported(const DiagCapture *c, const char *const *words, int n) {
    for (const DiagCaptured *r = c->first; r; r = r->next) {
        int i = 0;
        while (i < n && r->d.level == DIAG_ERROR && strstr(r->d.text, words[i])) i++;
        if (i == n) return true;
    }
    return false;
}

static void test_create(Arena *perm) {
    Arena *cap_arena = st_arena_create((ArenaParams){.name = "capture"});
    REQUIRE_VOID(cap_arena);
    struct {
        const char *name;
        uint64_t arena;
        int32_t w, h;
        const char *says[3];
    } refused[] = {
        {"new.tmj", 0, 10, 8, {"new.tmj: error: not created", "ends in .lvl", "Tiled map"}},
        {"huge.lvl",
         65536,
         300,
         300,
         {"huge.lvl: error: not created", "fits the level arena (65536 bytes", "bytes too many"}},
        {"max.lvl",
         0,
         LEVEL_MAX_SIDE,
         LEVEL_MAX_SIDE,
         {"max.lvl: error: not created", "a 4096x4096 level that needs", "bytes too many"}},
        {"nodir/x.lvl",
         0,
         10,
         8,
         {"nodir/x.lvl: error: not created", "there is no folder", "No such file or directory"}},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/%s", dir, refused[i].name);
        DiagCapture cap;
        st_diag_capture_begin(&cap, cap_arena);
        App *app = app_run_create(perm, &(AppRunOptions){.edit = path,
                                                         .edit_w = refused[i].w,
                                                         .edit_h = refused[i].h,
                                                         .level_arena = refused[i].arena,
                                                         .headless = true,
                                                         .no_save = true});
        st_diag_capture_end(&cap);
        CHECK(!app);
        CHECK(access(path, F_OK) != 0);
        if (!reported(&cap, refused[i].says, 3)) {
            fprintf(stderr, "%s: expected an error with '%s', '%s', '%s'; got:\n", refused[i].name, refused[i].says[0],
                    refused[i].says[1], refused[i].says[2]);
            fprintf(stderr, "  (%u reports, %u lost)\n", cap.count, cap.lost);
            for (const DiagCaptured *r = cap.first; r; r = r->next) fprintf(stderr, "  %s\n", r->d.text);
            CHECK(!"the reason");
        }
        st_arena_clear(cap_arena);
    }
    /* The same level with an arena that holds it: made, and the game plays it. */
    char path[300];
    snprintf(path, sizeof path, "%s/huge.lvl", dir);
    App *app = app_run_create(
        perm,
        &(AppRunOptions){
            .edit = path, .edit_w = 300, .edit_h = 300, .level_arena = 1 << 20, .headless = true, .no_save = true});
    REQUIRE_VOID(app);
    CHECK_EQ_I(app->game->sim.level.width, 300);
    CHECK_EQ_I(app_run_release(app), 0);
    st_arena_release(cap_arena);
}

static void hold(SDL_Scancode sc, uint16_t mods, bool down) {
    SDL_Event e = {.type = down ? SDL_KEYDOWN : SDL_KEYUP};
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    e.key.keysym.mod = mods;
    push(e);
}

/* Held for n frames (headless: 1/60 s each), then let go. */
static void hold_for(App *app, SDL_Scancode sc, uint16_t mods, int n) {
    hold(sc, mods, true);
    frames(app, n);
    hold(sc, mods, false);
    frames(app, 1);
}

static bool at(float got, float want) {
    if (fabsf(got - want) < 0.01f) return true;
    fprintf(stderr, "view at %.2f, expected %.2f\n", got, want);
    return false;
}

/* The view pans at EDITOR_PAN_SPEED (4 px a 1/60 s frame), never past the map's edges; not
   under Ctrl (three Ctrl+S leave it where it was); Home goes back to the start; a map that
   fits stays centred. */
static void test_pan(Arena *perm) {
    char path[300];
    snprintf(path, sizeof path, "%s/pan.lvl", dir);
    App *app = app_run_create(
        perm, &(AppRunOptions){.edit = path, .edit_w = 60, .edit_h = 40, .headless = true, .no_save = true});
    REQUIRE_VOID(app);
    EditorUi *ui = app->editor;
    int lw, lh;
    st_host_logical_size(app->host, &lw, &lh);
    float max_x = 60 * TILE_PX - (float)lw, max_y = 40 * TILE_PX - ((float)lh - EDITOR_TOP_H - EDITOR_PALETTE_H - 14);
    REQUIRE_VOID(max_x > 100 && max_y > 100);
    frames(app, 1);
    CHECK(at(ui->view_x, 0) && at(ui->view_y, 0)); /* on the start, (1, 1) */
    hold_for(app, SDL_SCANCODE_D, 0, 10);
    CHECK(at(ui->view_x, 40));
    hold_for(app, SDL_SCANCODE_DOWN, 0, 5);
    CHECK(at(ui->view_y, 20) && at(ui->view_x, 40));
    /* Ctrl held: S saves, D and the arrows do not scroll. */
    hold(SDL_SCANCODE_LCTRL, KMOD_LCTRL, true);
    for (int i = 0; i < 3; i++) hold_for(app, SDL_SCANCODE_S, KMOD_LCTRL, 4);
    hold_for(app, SDL_SCANCODE_D, KMOD_LCTRL, 6);
    hold(SDL_SCANCODE_LCTRL, 0, false);
    frames(app, 1);
    CHECK(at(ui->view_x, 40) && at(ui->view_y, 20));
    CHECK_EQ_I(ui->ed.lv.width, 60); /* and Ctrl+D is not a resize either */
    /* Far right and down: it stops at the edges. */
    hold(SDL_SCANCODE_RIGHT, 0, true);
    hold_for(app, SDL_SCANCODE_S, 0, 400);
    hold(SDL_SCANCODE_RIGHT, 0, false);
    frames(app, 1);
    CHECK(at(ui->view_x, max_x) && at(ui->view_y, max_y));
    hold_for(app, SDL_SCANCODE_A, 0, 1000);
    CHECK(at(ui->view_x, 0));
    hold_for(app, SDL_SCANCODE_D, 0, 1000);
    CHECK(at(ui->view_x, max_x));
    key(SDL_SCANCODE_HOME, 0);
    frames(app, 1);
    CHECK(at(ui->view_x, 0) && at(ui->view_y, 0));
    CHECK_EQ_I(app_run_release(app), 0);

    /* A map that fits: centred, and held keys leave it so. */
    snprintf(path, sizeof path, "%s/small.lvl", dir);
    app = app_run_create(perm,
                         &(AppRunOptions){.edit = path, .edit_w = 10, .edit_h = 6, .headless = true, .no_save = true});
    REQUIRE_VOID(app);
    ui = app->editor;
    frames(app, 1);
    float cx = -((float)lw - 10 * TILE_PX) / 2;
    CHECK(at(ui->view_x, cx));
    float y0 = ui->view_y;
    hold_for(app, SDL_SCANCODE_D, 0, 30);
    hold_for(app, SDL_SCANCODE_W, 0, 30);
    CHECK(at(ui->view_x, cx) && at(ui->view_y, y0));
    CHECK_EQ_I(app_run_release(app), 0);
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    REQUIRE(mkdtemp(dir) != NULL);
    char data[300], path[300], reload[300];
    snprintf(data, sizeof data, "%s/data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    snprintf(path, sizeof path, "%s/new.lvl", dir);
    snprintf(reload, sizeof reload, "%s/reload.lvl", dir);
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    REQUIRE(perm);
    test_editor(perm, path);
    test_reload(perm, reload);
    test_create(perm);
    test_pan(perm);
    st_arena_release(perm);
    CHECK(test_remove_tree(dir));
    return check_result();
}
