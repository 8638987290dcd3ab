/* test_edit_quit.c - nothing the editor holds is lost when the run ends, through the real
   front end, headless, driven by synthetic SDL events and real signals (raised in-process):
   - SIGTERM with unsaved edits: the run ends, the edits are in FILE.unsaved byte for byte,
     FILE is untouched, and the log says where they went and how to get them back;
   - the next --edit FILE asks; Enter takes them back, Ctrl+S saves them into FILE and the
     .unsaved goes; D sets it aside (FILE.unsaved.old), Esc leaves it for next time, and
     edits kept again later set the one left aside rather than overwrite it;
   - a headless quit (SDL_QUIT, nobody to ask) keeps them too; kept edits that do not load
     are refused with the loader's message, and the question stays; edits taken back and
     then left without saving go aside and are not offered again;
   - E in play on FILE asks as well; the play-test is labelled on screen, Esc comes back
     from it, and leaving the editor starts the level again on a fresh clock, not on the
     play-test's. */
#include <SDL2/SDL.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <strata/core/diag_capture.h>
#include "app_run.h"
#include "check.h"
#include "portable.h"

static char dir[] = "/tmp/test_edit_quit_XXXXXX";
static Arena *scratch;

static const char *LEVEL_TEXT = "name: Quit\nmap:\n############\n#@.........#\n#..........#\n"
                                "#.........X#\n############\nend\n";

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

static void mouse_button(int x, int y, int button, bool down) {
    SDL_Event e = {.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP};
    e.button.x = x, e.button.y = y, e.button.button = (Uint8)button;
    e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
    push(e);
}

static void mouse_move(int x, int y) {
    SDL_Event e = {.type = SDL_MOUSEMOTION};
    e.motion.x = x, e.motion.y = y;
    push(e);
}

static void frames(App *app, int n) {
    for (int i = 0; i < n; i++) CHECK(app_run_frame(app));
}

/* A left click on tile (tx, ty), the editor's view at 0, 0. */
static void click(App *app, int tx, int ty) {
    int x = tx * TILE_PX + TILE_PX / 2, y = EDITOR_TOP_H + ty * TILE_PX + TILE_PX / 2;
    mouse_move(x, y);
    mouse_button(x, y, 1, true);
    frames(app, 1);
    mouse_button(x, y, 1, false);
    frames(app, 1);
}

static const char *path_of(const char *name) { return st_str8_fmt(scratch, "%s/%s", dir, name).data; }

/* The whole file, NUL-terminated, or NULL when there is none. */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = st_arena_push_raw(scratch, 1 << 16, 1);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static bool exists(const char *path) { return access(path, F_OK) == 0; }

static void write_level(const char *path) {
    FILE *f = fopen(path, "wb");
    REQUIRE_VOID(f);
    fputs(LEVEL_TEXT, f);
    fclose(f);
    /* In the past: whatever is kept beside it later is newer, on any file system clock. */
    struct timespec t[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

/* A warning or error whose text holds every one of the words. */
static bool reported(const DiagCapture *c, const char *a, const char *b, const char *d) {
    for (const DiagCaptured *r = c->first; r; r = r->next)
        if (r->d.level != DIAG_NOTE && strstr(r->d.text, a) && (!b || strstr(r->d.text, b)) &&
            (!d || strstr(r->d.text, d)))
            return true;
    return false;
}

static App *edit(Arena *perm, const char *path) {
    App *app =
        app_run_create(perm, &(AppRunOptions){.edit = path, .headless = true, .no_save = true, .no_watch = true});
    if (!app) return NULL;
    app->editor->view_x = app->editor->view_y = 0;
    return app;
}

/* A wall painted at (tx, ty): the editor's text then, which is what must be kept. */
static const char *paint_wall(App *app, int tx, int ty) {
    key(SDL_SCANCODE_2, 0);
    frames(app, 1);
    click(app, tx, ty);
    CHECK_EQ_I(editor_get(&app->editor->ed, tx, ty).tile, TILE_WALL);
    CHECK(app->editor->ed.dirty);
    Str8 text = editor_text(scratch, &app->editor->ed);
    return text.data;
}

static void test_signal_keeps(Arena *perm, const char *path, const char *unsaved) {
    write_level(path);
    DiagCapture cap;
    st_diag_capture_begin(&cap, scratch);
    App *app = edit(perm, path);
    REQUIRE_VOID(app);
    frames(app, 1);
    CHECK_EQ_I(app->editor->question, QUESTION_NONE);
    const char *want = paint_wall(app, 3, 2);
    raise(SIGTERM);
    CHECK(!app_run_frame(app)); /* the run ends: nobody to ask */
    CHECK_EQ_I(app->host->in.quit_signal, SIGTERM);
    CHECK_EQ_I(app_run_release(app), 0);
    st_diag_capture_end(&cap);
    char *kept = slurp(unsaved);
    CHECK(kept && want && strcmp(kept, want) == 0);
    char *file = slurp(path);
    CHECK(file && strcmp(file, LEVEL_TEXT) == 0);
    CHECK(reported(&cap, "SIGTERM", unsaved, "offers them back"));
}

static void test_take_back(Arena *perm, const char *path, const char *unsaved) {
    char *want = slurp(unsaved);
    REQUIRE_VOID(want);
    App *app = edit(perm, path);
    REQUIRE_VOID(app);
    EditorUi *ui = app->editor;
    CHECK_EQ_I(ui->question, QUESTION_UNSAVED);
    CHECK_EQ_I(editor_get(&ui->ed, 3, 2).tile, TILE_FLOOR); /* the file, until answered */
    click(app, 5, 2);                                       /* not an answer: nothing painted */
    key(SDL_SCANCODE_X, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_UNSAVED);
    CHECK_EQ_I(editor_get(&ui->ed, 5, 2).tile, TILE_FLOOR);
    key(SDL_SCANCODE_RETURN, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_NONE);
    CHECK_EQ_I(editor_get(&ui->ed, 3, 2).tile, TILE_WALL);
    CHECK(ui->ed.dirty);
    CHECK(exists(unsaved)); /* until it is saved */
    key(SDL_SCANCODE_S, KMOD_LCTRL);
    frames(app, 1);
    CHECK(!ui->ed.dirty);
    char *file = slurp(path);
    CHECK(file && strcmp(file, want) == 0);
    CHECK(!exists(unsaved));
    key(SDL_SCANCODE_ESCAPE, 0); /* nothing unsaved: the session ends at once */
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
    CHECK(!exists(unsaved));
}

static void test_set_aside(Arena *perm, const char *path, const char *unsaved) {
    write_level(path);
    App *app = edit(perm, path);
    REQUIRE_VOID(app);
    const char *want = paint_wall(app, 4, 3);
    raise(SIGINT);
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
    CHECK(exists(unsaved));

    app = edit(perm, path);
    REQUIRE_VOID(app);
    CHECK_EQ_I(app->editor->question, QUESTION_UNSAVED);
    key(SDL_SCANCODE_D, 0);
    frames(app, 1);
    CHECK_EQ_I(app->editor->question, QUESTION_NONE);
    CHECK(!exists(unsaved));
    char *old = slurp(path_of("q.lvl.unsaved.old"));
    CHECK(old && want && strcmp(old, want) == 0);
    CHECK_EQ_I(editor_get(&app->editor->ed, 4, 3).tile, TILE_FLOOR);
    CHECK(!app->editor->ed.dirty);
    key(SDL_SCANCODE_ESCAPE, 0);
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
    CHECK(!exists(unsaved));
}

/* Headless, SDL_QUIT is a quit with nobody to ask; then "not now" keeps that file, and the
   next edits kept go beside it without overwriting it. */
static void test_later(Arena *perm, const char *path, const char *unsaved) {
    write_level(path);
    remove(path_of("q.lvl.unsaved.old"));
    DiagCapture cap;
    st_diag_capture_begin(&cap, scratch);
    App *app = edit(perm, path);
    REQUIRE_VOID(app);
    const char *first = paint_wall(app, 6, 1);
    push((SDL_Event){.type = SDL_QUIT});
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app->host->in.quit_signal, 0);
    CHECK_EQ_I(app_run_release(app), 0);
    st_diag_capture_end(&cap);
    CHECK(reported(&cap, "headless", unsaved, NULL));
    char *kept = slurp(unsaved);
    CHECK(kept && first && strcmp(kept, first) == 0);

    app = edit(perm, path);
    REQUIRE_VOID(app);
    CHECK_EQ_I(app->editor->question, QUESTION_UNSAVED);
    key(SDL_SCANCODE_ESCAPE, 0);
    frames(app, 1);
    CHECK_EQ_I(app->editor->question, QUESTION_NONE);
    CHECK((app->mode == APP_MODE_EDIT));
    kept = slurp(unsaved);
    CHECK(kept && strcmp(kept, first) == 0);
    const char *second = paint_wall(app, 7, 2);
    raise(SIGTERM);
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
    kept = slurp(unsaved);
    char *old = slurp(path_of("q.lvl.unsaved.old"));
    CHECK(kept && second && strcmp(kept, second) == 0);
    CHECK(old && strcmp(old, first) == 0);
}

/* Kept edits that do not load (two starts, kept as they stood): Enter says why, on the log
   and the status line, and the question stays; D sets them aside. */
static void test_broken(Arena *perm, const char *path, const char *unsaved) {
    write_level(path);
    FILE *f = fopen(unsaved, "wb");
    REQUIRE_VOID(f);
    fputs("name: Quit\nmap:\n####\n#@@#\n####\nend\n", f);
    fclose(f);
    DiagCapture cap;
    st_diag_capture_begin(&cap, scratch);
    App *app = edit(perm, path);
    REQUIRE_VOID(app);
    EditorUi *ui = app->editor;
    CHECK_EQ_I(ui->question, QUESTION_UNSAVED);
    key(SDL_SCANCODE_RETURN, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_UNSAVED);
    CHECK(ui->status_error && strstr(ui->status, unsaved) && strstr(ui->status, ":4:"));
    CHECK(!ui->ed.dirty && ui->ed.lv.width == 12);
    key(SDL_SCANCODE_D, 0);
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_NONE);
    CHECK(!exists(unsaved) && exists(path_of("q.lvl.unsaved.old")));
    key(SDL_SCANCODE_ESCAPE, 0);
    CHECK(!app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
    st_diag_capture_end(&cap);
    CHECK(reported(&cap, unsaved, "error", NULL));
    char *file = slurp(path);
    CHECK(file && strcmp(file, LEVEL_TEXT) == 0);
}

/* Pixels of row y, x0..x1 (logical), that are `c` exactly, out of all of them. */
static double share_of(App *app, int y, int x0, int x1, Color c) {
    uint8_t *px;
    int w, h;
    if (!st_render_read_pixels(app->host->rd, scratch, &px, &w, &h)) return -1;
    double s = (double)w / APP_LOGICAL_W;
    int hits = 0, n = 0;
    for (int x = x0; x < x1; x++, n++) {
        const uint8_t *p = px + ((size_t)(y * s) * (size_t)w + (size_t)(x * s)) * 4;
        hits += p[0] == c.r && p[1] == c.g && p[2] == c.b;
    }
    return (double)hits / n;
}

static void test_from_play(Arena *perm, const char *path, const char *unsaved) {
    REQUIRE_VOID(exists(unsaved));
    App *app = app_run_create(
        perm, &(AppRunOptions){.level = path, .headless = true, .skip_title = true, .no_save = true, .no_watch = true});
    REQUIRE_VOID(app);
    Game *g = app->game;
    frames(app, 100);
    CHECK(g->sim.tick >= 90);
    key(SDL_SCANCODE_E, 0);
    frames(app, 1);
    REQUIRE_VOID((app->mode == APP_MODE_EDIT));
    EditorUi *ui = app->editor;
    CHECK_EQ_I(ui->question, QUESTION_UNSAVED);
    CHECK(!ui->leave_quits);
    key(SDL_SCANCODE_ESCAPE, 0); /* not now: edit the file as it is */
    frames(app, 1);
    CHECK_EQ_I(ui->question, QUESTION_NONE);
    ui->view_x = ui->view_y = 0;
    mouse_move(5 * TILE_PX + 8, EDITOR_TOP_H + 2 * TILE_PX + 8);
    frames(app, 1);
    key(SDL_SCANCODE_TAB, 0);
    frames(app, 1);
    REQUIRE_VOID((app->mode == APP_MODE_PLAYTEST));
    frames(app, 300);
    CHECK((app->mode == APP_MODE_PLAYTEST));
    CHECK(g->sim.tick >= 290);
    /* The label: its gold outline across the top of the world. */
    Color gold = {255, 214, 120, 255};
    CHECK(share_of(app, DRAW_HUD_H + 3, 220, 260, gold) > 0.95);
    key(SDL_SCANCODE_ESCAPE, 0);
    frames(app, 1);
    CHECK((app->mode == APP_MODE_EDIT) && !(app->mode == APP_MODE_PLAYTEST));
    CHECK(share_of(app, DRAW_HUD_H + 3, 220, 260, gold) < 0.5); /* the editor: no label */
    key(SDL_SCANCODE_ESCAPE, 0);                                /* nothing unsaved: back to the game */
    frames(app, 1);
    CHECK(!(app->mode == APP_MODE_EDIT) && !(app->mode == APP_MODE_PLAYTEST));
    CHECK_EQ_I(g->screen, SCREEN_PLAYING);
    CHECK(g->sim.tick < 10); /* the level again, not the play-test's run and clock */
    CHECK(!g->sim.level_from_text);
    CHECK_EQ_I(g->sim.player.x / (TILE_PX * FIX_ONE), 1); /* at its start */
    CHECK_EQ_I(app_run_release(app), 0);
    CHECK(exists(unsaved)); /* still there: it was not taken */
}

/* Edits taken back and then dropped (Esc twice: leave without saving, or a second close)
   were seen and refused: they go aside as D sets them, and are not offered again. */
static void test_take_then_drop(Arena *perm, const char *path, const char *unsaved) {
    for (int closing = 0; closing < 2; closing++) {
        write_level(path);
        remove(path_of("q.lvl.unsaved.old"));
        App *app = edit(perm, path);
        REQUIRE_VOID(app);
        const char *want = paint_wall(app, 4, 1);
        raise(SIGTERM);
        CHECK(!app_run_frame(app));
        CHECK_EQ_I(app_run_release(app), 0);
        REQUIRE_VOID(exists(unsaved));

        app = edit(perm, path);
        REQUIRE_VOID(app);
        EditorUi *ui = app->editor;
        key(SDL_SCANCODE_RETURN, 0);
        frames(app, 1);
        CHECK(ui->ed.dirty && ui->ed.unsaved_taken);
        if (closing) {
            CHECK(!editor_ui_ask_quit(ui)); /* the first close asks */
            CHECK(editor_ui_ask_quit(ui));  /* the second is "without saving" */
        } else {
            key(SDL_SCANCODE_ESCAPE, 0);
            frames(app, 1);
            CHECK_EQ_I(ui->question, QUESTION_LEAVE);
            key(SDL_SCANCODE_ESCAPE, 0);
            CHECK(!app_run_frame(app));
        }
        CHECK(!exists(unsaved));
        char *old = slurp(path_of("q.lvl.unsaved.old"));
        CHECK(old && want && strcmp(old, want) == 0);
        char *file = slurp(path);
        CHECK(file && strcmp(file, LEVEL_TEXT) == 0);
        app->edits_dropped = true;
        CHECK_EQ_I(app_run_release(app), 0);
        CHECK(!exists(unsaved));

        app = edit(perm, path); /* nothing offered */
        REQUIRE_VOID(app);
        CHECK_EQ_I(app->editor->question, QUESTION_NONE);
        key(SDL_SCANCODE_ESCAPE, 0);
        CHECK(!app_run_frame(app));
        CHECK_EQ_I(app_run_release(app), 0);
    }
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    REQUIRE(mkdtemp(dir) != NULL);
    scratch = st_arena_create((ArenaParams){.name = "test"});
    REQUIRE(scratch);
    char data[300];
    snprintf(data, sizeof data, "%s/data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    const char *path = path_of("q.lvl"), *unsaved = path_of("q.lvl.unsaved");
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    REQUIRE(perm);
    test_signal_keeps(perm, path, unsaved);
    test_take_back(perm, path, unsaved);
    test_set_aside(perm, path, unsaved);
    test_later(perm, path, unsaved);
    test_from_play(perm, path, unsaved);
    test_broken(perm, path, unsaved);
    test_take_then_drop(perm, path, unsaved);
    st_arena_release(perm);
    st_arena_release(scratch);
    CHECK(test_remove_tree(dir));
    return check_result();
}
