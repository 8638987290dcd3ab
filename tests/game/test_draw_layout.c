/* test_draw_layout.c - what the player sees, measured on the frames the real front end
   draws (headless, read back from the draw commands, frame_read.h), not on pixel hashes:
   - F1, at 1x and 3x: one panel, outside the playfield, with the frame time, the draw
     calls, the sprites and every arena's used, committed, reserved and peak bytes, every
     label whole and inside the panel;
   - the sign the player reads never covers a sprite (the player, an enemy, a pickup, a
     signpost) or a tile that matters (a closed door, the stairs, a portal, spikes) that is
     on screen, at every frame of the full committed run where a sign shows; one wider
     than the view wraps inside its panel;
   - the Settings card does not overlap the HUD, and every line of it is inside it;
   - in the editor, an enemy's hit points are never drawn over an enemy, and every enemy's
     are shown: beside it on the map, or under the cursor in the status bar;
   - a prompt draws its caret at the insertion point on every frame, on screen even when
     the text is longer than the screen;
   - each key and door colour has a shape of its own: with the hues taken away (what a
     colour-blind player may see), no two keys and no two doors look the same;
   - the replay viewer paused on a tick the run rewound draws the rewind's tint and speed,
     as the game did at that tick (rewind.rep, on a keyframe's tick and beside it). */
#include <SDL2/SDL.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../assets/atlas.h"
#include "app_run.h"
#include <strata/asset/asset.h>
#include "check.h"
#include "portable.h"
#include <strata/core/base.h>
#include "frame_read.h"

static void push(SDL_Event e) { CHECK(SDL_PushEvent(&e) == 1); }

static void tap(SDL_Scancode sc) {
    SDL_Event e = {.type = SDL_KEYDOWN};
    e.key.state = SDL_PRESSED;
    e.key.keysym.scancode = sc;
    push(e);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    push(e);
}

static void frames(App *app, int n) {
    for (int i = 0; i < n; i++) CHECK(app_run_frame(app));
}

static FrameText texts[FRAME_TEXT_MAX];

static int screen_w(const App *app) { return (int)app->view.w; }
static int screen_h(const App *app) { return (int)app->view.h; }

static void print_rect(const char *what, RectF r) {
    fprintf(stderr, "  %s: %.0f,%.0f %.0fx%.0f\n", what, r.x, r.y, r.w, r.h);
}

/* ---- F1 ---- */

/* Where the level is seen: the camera's viewport, cut to the level's own rectangle on
   screen (a level smaller than the view is centred in it). */
static RectF playfield(const App *app) {
    const Camera *c = &app->view.cam;
    RectF view = {c->offset[0], c->offset[1], c->size[0], c->size[1]};
    float ox = floorf(st_camera_view_x(c) + 0.5f), oy = floorf(st_camera_view_y(c) + 0.5f);
    const Level *lv = &app->game->sim.level;
    RectF level = {-ox, -oy, (float)(lv->width * TILE_PX), (float)(lv->height * TILE_PX)};
    return frame_rect_clip(view, level);
}

/* A byte figure as the overlay writes them: digits, maybe a point, a unit. */
static bool is_bytes(const char *tok) {
    size_t n = strlen(tok);
    if (n < 2 || !strchr("BKMGT", tok[n - 1])) return false;
    for (size_t i = 0; i + 1 < n; i++)
        if (!isdigit((unsigned char)tok[i]) && tok[i] != '.') return false;
    return isdigit((unsigned char)tok[0]);
}

/* The text of the panel's row at height y: its runs left to right, space-joined. */
static void row_text(const FrameText *t, int n, RectF panel, float y, char *out, size_t cap) {
    out[0] = '\0';
    float from = -1e9f;
    for (;;) {
        const FrameText *next = NULL;
        for (int i = 0; i < n; i++)
            if (t[i].r.y == y && t[i].tint.a == 255 && frame_rect_inside(t[i].r, panel) && t[i].r.x > from &&
                (!next || t[i].r.x < next->r.x))
                next = &t[i];
        if (!next) return;
        from = next->r.x;
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", len ? " " : "", next->s);
    }
}

static void check_overlay(Arena *perm, int scale) {
    App *app = app_run_create(perm, &(AppRunOptions){.level = LEVELS_DIR "/07-the-vault.lvl",
                                                     .headless = true,
                                                     .no_save = true,
                                                     .skip_title = true,
                                                     .scale = scale});
    REQUIRE_VOID(app);
    frames(app, 10);
    tap(SDL_SCANCODE_F1);
    frames(app, 200); /* the timelines fill */
    CHECK(app->host->show_debug);
    Renderer *rd = app->host->rd;
    const Font *font = &app->art.font;

    /* The panel: the rects on the overlay's bottom layer. */
    int panels = 0;
    RectF panel = {0};
    DrawCmd c;
    for (uint32_t i = 0; frame_quad_of(rd, NULL, &i, &c, NULL);)
        if (c.layer == HOST_LAYER_PANEL) panel = panels++ ? panel : frame_cmd_rect(&c);
    CHECK_EQ_I(panels, 1);
    RectF field = playfield(app), screen = {0, 0, (float)screen_w(app), (float)screen_h(app)};
    bool clear = !frame_rect_overlap(panel, field);
    if (!clear) {
        fprintf(stderr, "%dx: the overlay covers the playfield\n", scale);
        print_rect("panel", panel), print_rect("playfield", field);
    }
    CHECK(clear);
    CHECK(frame_rect_inside(panel, screen));
    /* The play keeps most of the screen. */
    CHECK(field.w * field.h >= 0.55f * screen.w * (screen.h - DRAW_HUD_H));

    /* Its text: whole, inside the panel. */
    int n = frame_text(rd, font, texts, FRAME_TEXT_MAX), mine = 0;
    for (int i = 0; i < n; i++) {
        if (texts[i].layer < HOST_LAYER_PANEL) continue;
        mine++;
        if (!frame_rect_inside(texts[i].r, panel)) {
            fprintf(stderr, "%dx: \"%s\" is not inside the overlay's panel\n", scale, texts[i].s);
            print_rect("text", texts[i].r), print_rect("panel", panel);
            CHECK(false);
        }
    }
    CHECK(mine > 5);
    static const char *const labels[] = {"frame", "ms", "draws", "sprites", "used", "committed", "reserved", "peak"};
    for (size_t i = 0; i < ARRAY_COUNT(labels); i++) {
        bool found = false;
        for (int k = 0; k < n && !found; k++)
            found = texts[k].layer >= HOST_LAYER_PANEL && strstr(texts[k].s, labels[i]) != NULL;
        if (!found) fprintf(stderr, "%dx: the overlay has no \"%s\"\n", scale, labels[i]);
        CHECK(found);
    }
    /* A row per arena: its whole name, then four figures (used, committed, reserved, peak). */
    static const char *const arenas[] = {"permanent", "level", "frame", "scratch"};
    for (size_t a = 0; a < ARRAY_COUNT(arenas); a++) {
        bool row = false;
        for (int k = 0; k < n && !row; k++) {
            if (texts[k].layer < HOST_LAYER_PANEL || strncmp(texts[k].s, arenas[a], strlen(arenas[a])) != 0) continue;
            char line[512];
            row_text(texts, n, panel, texts[k].r.y, line, sizeof line);
            int figures = 0;
            for (char *tok = strtok(line, " /"); tok; tok = strtok(NULL, " /")) figures += is_bytes(tok);
            row = figures >= 4;
        }
        if (!row) fprintf(stderr, "%dx: no overlay row \"%s\" with four byte figures\n", scale, arenas[a]);
        CHECK(row);
    }
    CHECK_EQ_I(app_run_release(app), 0);
}

/* ---- Signs ---- */

static bool interesting_tile(int cell) {
    return cell == TS_DOOR_RED || cell == TS_DOOR_GREEN || cell == TS_DOOR_BLUE || cell == TS_EXIT ||
           cell == TS_PORTAL_0 || cell == TS_PORTAL_1 || cell == TS_SPIKES;
}

/* What a sign box must leave visible, cut to the playfield: the number of them it covers
   (reported, the first few). */
static int covered_by(const App *app, RectF box, int *reported) {
    RectF field = playfield(app);
    int bad = 0;
    DrawCmd c;
    int cell;
    for (uint32_t i = 0; frame_quad_of(app->host->rd, app->art.sprites, &i, &c, &cell);) {
        if (c.layer < LAYER_PICKUP || c.layer > LAYER_PLAYER || cell == SPR_SHADOW) continue;
        RectF seen = frame_rect_clip(frame_cmd_rect(&c), field);
        if (seen.w <= 0 || seen.h <= 0 || !frame_rect_overlap(seen, box)) continue;
        if ((*reported)++ < 8) fprintf(stderr, "  sprite cell %d at %.0f,%.0f under the sign box\n", cell, c.x, c.y);
        bad++;
    }
    for (uint32_t i = 0; frame_quad_of(app->host->rd, app->art.tiles, &i, &c, &cell);) {
        if (!interesting_tile(cell)) continue;
        RectF seen = frame_rect_clip(frame_cmd_rect(&c), field);
        if (seen.w <= 0 || seen.h <= 0 || !frame_rect_overlap(seen, box)) continue;
        if ((*reported)++ < 8) fprintf(stderr, "  tile cell %d at %.0f,%.0f under the sign box\n", cell, c.x, c.y);
        bad++;
    }
    return bad;
}

/* A sign wider than the view (the longest, beside F1's panel) wraps in its panel: every
   glyph inside the panel, the panel inside the view, on more than one line. */
static void check_long_sign(Arena *perm, const char *path) {
    FILE *f = fopen(path, "wb");
    REQUIRE_VOID(f);
    fputs("name: Long\nmap:\n######\n#@...#\n#...X#\n######\nend\nsign 2 1 ", f);
    for (int i = 0; i < LEVEL_SIGN_TEXT_MAX / 6; i++) fputs(i % 4 ? "wider " : "WWWWW ", f);
    fputs("\n", f);
    fclose(f);
    App *app =
        app_run_create(perm, &(AppRunOptions){.level = path, .headless = true, .no_save = true, .skip_title = true});
    REQUIRE_VOID(app);
    /* With F1's panel beside it the view is narrower than the longest sign. */
    frames(app, 3);
    tap(SDL_SCANCODE_F1);
    frames(app, 3);
    CHECK(app->host->show_debug);
    const Camera *cam = &app->view.cam;
    RectF view = {cam->offset[0], cam->offset[1], cam->size[0], cam->size[1]}, panel = {0};
    DrawCmd c;
    for (uint32_t i = 0; frame_quad_of(app->host->rd, NULL, &i, &c, NULL);)
        if (c.layer == LAYER_HUD && frame_same_color(c.tint, (Color){40, 30, 22, 235})) panel = frame_cmd_rect(&c);
    CHECK(panel.w > 0 && frame_rect_inside(panel, view));
    int glyphs = 0, outside = 0;
    float top = 1e9f, bottom = -1e9f;
    for (uint32_t i = 0; frame_quad_of(app->host->rd, app->art.font.tex, &i, &c, NULL);) {
        if (c.layer != LAYER_HUD_TEXT + 1 || !frame_rect_overlap(frame_cmd_rect(&c), panel)) continue;
        glyphs++;
        outside += !frame_rect_inside(frame_cmd_rect(&c), panel);
        top = MIN(top, c.y), bottom = MAX(bottom, c.y);
    }
    if (outside) fprintf(stderr, "long sign: %d of %d glyphs outside its panel\n", outside, glyphs);
    CHECK(glyphs > 60 && outside == 0);
    if (!(bottom > top)) fprintf(stderr, "long sign: one line in a view %.0f wide, panel %.0f\n", view.w, panel.w);
    CHECK(bottom > top); /* more than one line */
    CHECK_EQ_I(app_run_release(app), 0);
}

static void check_signs(Arena *perm) {
    /* The replay names its level as the game was started: from the source tree. */
    char here[1024];
    REQUIRE_VOID(getcwd(here, sizeof here) && chdir(SOURCE_DIR) == 0);
    App *app = app_run_create(perm, &(AppRunOptions){.replay = REPLAYS_DIR "/full-run.rep",
                                                     .headless = true,
                                                     .no_save = true,
                                                     .skip_title = true}); /* as main.c starts a replay */
    REQUIRE_VOID(app);
    const Game *g = app->game;
    int shown = 0, shown_tall = 0, bad = 0, reported = 0;
    for (int f = 0; f < 20000 && app_run_frame(app); f++) {
        int32_t sign = sim_sign_near(&g->sim);
        if (g->screen != SCREEN_PLAYING || sign < 0) continue;
        const LevelSign *s = &g->sim.level.signs[sign];
        char want[FRAME_TEXT_LEN];
        snprintf(want, sizeof want, "%.*s", (int)s->text.len, (const char *)s->text.data);
        int n = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
        const FrameText *t = NULL;
        for (int i = 0; i < n && !t; i++)
            if (strcmp(texts[i].s, want) == 0 && texts[i].tint.a == 255) t = &texts[i];
        CHECK(t != NULL);
        if (!t) continue;
        /* The box: the smallest rect that holds the text. */
        RectF box = {0};
        DrawCmd c;
        for (uint32_t i = 0; frame_quad_of(app->host->rd, NULL, &i, &c, NULL);) {
            RectF r = frame_cmd_rect(&c);
            if (frame_rect_inside(t->r, r) && c.layer < LAYER_FADE + 20 && (box.w == 0 || r.w * r.h < box.w * box.h))
                box = r;
        }
        CHECK(box.w > 0);
        shown++;
        shown_tall += g->sim.level.height * TILE_PX > app->view.cam.size[1];
        int k = covered_by(app, box, &reported);
        if (k && reported <= 8)
            fprintf(stderr, "  %s, tick %u: the sign \"%s\" at %.0f,%.0f %.0fx%.0f\n", g->sim.level_path, g->sim.tick,
                    want, box.x, box.y, box.w, box.h);
        bad += k;
    }
    printf("signs: shown on %d frames (%d on levels taller than the screen), %d things covered\n", shown, shown_tall,
           bad);
    CHECK(shown_tall > 100);
    CHECK_EQ_I(bad, 0);
    app_run_release(app);
    CHECK(chdir(here) == 0);
}

/* ---- The replay viewer where the run rewinds ---- */

/* What the viewer draws paused at tick t of rewind.rep (--seek t): the rewind's label in
   its corner ("" when none) and whether its tint (a rect on LAYER_REWIND) covers the play;
   *covered: something is drawn over the label (a card, where the rewind would not show). */
static bool viewer_rewind_drawn(Arena *perm, uint64_t t, char *label, size_t cap, bool *covered) {
    App *app = app_run_create(perm, &(AppRunOptions){.replay = REPLAYS_DIR "/rewind.rep",
                                                     .headless = true,
                                                     .no_save = true,
                                                     .skip_title = true,
                                                     .seek = t,
                                                     .seek_given = true});
    label[0] = 0;
    if (!app || !app->viewer || !app->viewer->opened) {
        CHECK(app && app->viewer && app->viewer->opened);
        if (app) app_run_release(app);
        return false;
    }
    /* The App's viewer steps the Game as test_viewer's does: through viewer_game_params. */
    const ViewerParams *p = &app->viewer->p;
    ViewerParams same = viewer_game_params(&app->replay, &app->view_game, p->bytes, p->state_max);
    CHECK(p->step == same.step && p->forget == same.forget && p->ctx == same.ctx && p->regions == same.regions);
    CHECK(p->g == app->game && p->region_count == same.region_count && p->history_bits == same.history_bits);
    app->mode = APP_MODE_VIEW; /* headless, --seek ends the run: the window's mode put back */
    frames(app, 2);            /* paused: no tick runs, the picture is the seek's */
    CHECK_EQ_U(app->viewer->tick, t);
    int n = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
    const FrameText *l = NULL;
    for (int i = 0; i < n; i++)
        if (strncmp(texts[i].s, "<<", 2) == 0) {
            snprintf(label, cap, "%.*s", (int)(FRAME_TEXT_LEN - 1), texts[i].s);
            l = &texts[i];
        }
    bool tint = false;
    *covered = false;
    DrawCmd c;
    for (uint32_t i = 0; frame_quad_of(app->host->rd, NULL, &i, &c, NULL);) {
        tint |= c.layer == LAYER_REWIND && c.w >= (float)screen_w(app);
        *covered |= l && c.layer > l->layer && frame_rect_overlap(frame_cmd_rect(&c), l->r);
    }
    app_run_release(app);
    return tint;
}

/* Paused (or stepped) on a tick the run rewound, the viewer shows what the game showed then:
   the tint and the speed, on a keyframe's tick too (where no tick is played to reach it). */
static void check_viewer_rewind(Arena *perm) {
    char here[1024];
    REQUIRE_VOID(getcwd(here, sizeof here) && chdir(SOURCE_DIR) == 0);
    static const struct {
        uint64_t tick;
        const char *label; /* "" none */
    } want[] = {
        {399, ""}, {420, "<< REWIND 1x"}, {421, "<< REWIND 1x"}, {1548, "<< REWIND 2x"}, {1549, "<< REWIND 2x"}};
    /* 1548 and 1549 rewind on the level card: the label over it, not under. */
    for (size_t i = 0; i < ARRAY_COUNT(want); i++) {
        char label[FRAME_TEXT_LEN];
        bool covered = false;
        bool tint = viewer_rewind_drawn(perm, want[i].tick, label, sizeof label, &covered);
        printf("viewer paused at tick %llu of rewind.rep: %s, label \"%s\"%s\n", (unsigned long long)want[i].tick,
               tint ? "tinted" : "no tint", label, covered ? ", covered" : "");
        CHECK(strcmp(label, want[i].label) == 0);
        CHECK(tint == (want[i].label[0] != 0));
        CHECK(!covered);
    }
    CHECK(chdir(here) == 0);
}

/* ---- Settings ---- */

static void check_settings(Arena *perm) {
    App *app = app_run_create(
        perm, &(AppRunOptions){
                  .level = LEVELS_DIR "/05-the-hunt.lvl", .headless = true, .no_save = true, .skip_title = true});
    REQUIRE_VOID(app);
    Game *g = app->game;
    frames(app, 5);
    tap(SDL_SCANCODE_ESCAPE);
    frames(app, 2);
    CHECK_EQ_I(g->screen, SCREEN_PAUSED);
    while (g->menu != PAUSE_SETTINGS) {
        tap(SDL_SCANCODE_DOWN);
        frames(app, 2);
    }
    tap(SDL_SCANCODE_RETURN);
    frames(app, 2);
    CHECK_EQ_I(g->screen, SCREEN_SETTINGS);
    int checked = 0;
    for (int item = 0; item < SETTINGS_ITEM_COUNT; item++) {
        RectF hud = {0}, card = {0};
        DrawCmd c;
        for (uint32_t i = 0; frame_quad_of(app->host->rd, NULL, &i, &c, NULL);) {
            RectF r = frame_cmd_rect(&c);
            if (c.layer == LAYER_HUD && r.x == 0 && r.y == 0 && r.w == screen_w(app)) hud = r;
            if (c.layer == LAYER_CARD && r.w * r.h > card.w * card.h) card = r;
        }
        CHECK(hud.h == DRAW_HUD_H && card.w > 0);
        if (frame_rect_overlap(hud, card)) {
            fprintf(stderr, "the settings card overlaps the HUD (item %d)\n", item);
            print_rect("hud", hud), print_rect("card", card);
            CHECK(false);
        }
        int n = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
        bool selected = false;
        for (int i = 0; i < n; i++) {
            if (texts[i].layer < LAYER_CARD_TEXT || texts[i].layer > LAYER_CARD_TEXT + 1) continue;
            if (!frame_rect_inside(texts[i].r, card) || frame_rect_overlap(texts[i].r, hud)) {
                fprintf(stderr, "settings: \"%s\" is outside its card or under the HUD\n", texts[i].s);
                print_rect("text", texts[i].r), print_rect("card", card);
                CHECK(false);
            }
            selected |= texts[i].s[0] == '>';
        }
        CHECK(selected); /* the chosen row is on the card, wherever it is in the list */
        /* A notice (what a change says) leaves the card whole: the help line above its band. */
        if (item == 0) {
            snprintf(g->message, sizeof g->message, "2x does not fit this screen: 1x is the largest");
            g->message_ticks = 100, g->message_kind = GAME_MESSAGE_NOTICE;
            frames(app, 1);
            RectF band = {0}, card_now = {0};
            for (uint32_t i = 0; frame_quad_of(app->host->rd, NULL, &i, &c, NULL);) {
                if (c.layer == LAYER_MESSAGE) band = frame_cmd_rect(&c);
                if (c.layer == LAYER_CARD && c.w * c.h > card_now.w * card_now.h) card_now = frame_cmd_rect(&c);
            }
            CHECK(band.h > 0);
            if (frame_rect_overlap(band, card_now)) {
                fprintf(stderr, "a notice covers the settings card\n");
                print_rect("notice", band), print_rect("card", card_now);
                CHECK(false);
            }
            g->message_ticks = 0;
        }
        checked++;
        tap(SDL_SCANCODE_DOWN);
        frames(app, 2);
    }
    CHECK_EQ_I(checked, SETTINGS_ITEM_COUNT);
    CHECK_EQ_I(app_run_release(app), 0);
}

/* A report longer than the screen is wide wraps inside it, whole: every line of it on
   screen, left of the F1 panel when that is open, in a band tall enough for all of them,
   and the band clear of the HUD. */
static void check_message(Arena *perm) {
    App *app = app_run_create(
        perm, &(AppRunOptions){
                  .level = LEVELS_DIR "/01-first-steps.lvl", .headless = true, .no_save = true, .skip_title = true});
    REQUIRE_VOID(app);
    for (int debug = 0; debug < 2; debug++) {
        if (debug) tap(SDL_SCANCODE_F1);
        frames(app, 2);
        Game *g = app->game;
        snprintf(g->message, sizeof g->message,
                 "/home/someone/games/arena-dungeon/levels/a-folder-with-a-long-name/mine.tmj: error: object 21 "
                 "'link': expected an existing level file, found 'the-next-level-of-mine.tmj' "
                 "(/home/someone/games/arena-dungeon/levels/the-next-level-of-mine.tmj: No such file or directory)");
        g->message_ticks = 100;
        g->message_kind = GAME_MESSAGE_ERROR;
        frames(app, 1);
        int n = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
        float right = (float)screen_w(app) - app->host->debug_w;
        static char all[2048];
        all[0] = 0;
        int lines = 0;
        RectF band = {0};
        DrawCmd c;
        for (uint32_t i = 0; frame_quad_of(app->host->rd, NULL, &i, &c, NULL);)
            if (c.layer == LAYER_MESSAGE && c.w * c.h > band.w * band.h) band = frame_cmd_rect(&c);
        for (int i = 0; i < n; i++) {
            if (texts[i].layer != LAYER_MESSAGE + 2) continue; /* the text, not its shadow */
            lines++;
            if (texts[i].r.x < 0 || texts[i].r.x + texts[i].r.w > right || !frame_rect_inside(texts[i].r, band)) {
                fprintf(stderr, "message line \"%s\" is off the screen or its band (F1 %s)\n", texts[i].s,
                        debug ? "on" : "off");
                print_rect("line", texts[i].r), print_rect("band", band);
                CHECK(false);
            }
            size_t used = strlen(all);
            snprintf(all + used, sizeof all - used, "%s%.200s", used ? " " : "", texts[i].s);
        }
        CHECK(lines >= 2);
        CHECK(band.y >= DRAW_HUD_H && band.y + band.h <= (float)screen_h(app));
        /* Nothing lost in the wrapping: the lines, joined, are the message (but for the
           spaces at the breaks, and none where a word too long for a line was cut). */
        char a_[2048], b_[2048];
        size_t na = 0, nb = 0;
        for (const char *p = all; *p && na + 1 < sizeof a_; p++)
            if (*p != ' ') a_[na++] = *p;
        for (const char *p = g->message; *p && nb + 1 < sizeof b_; p++)
            if (*p != ' ') b_[nb++] = *p;
        a_[na] = b_[nb] = 0;
        if (strcmp(a_, b_) != 0) {
            fprintf(stderr, "the message's lines do not make the message:\n  %s\n  %s\n", all, g->message);
            CHECK(false);
        }
    }
    CHECK_EQ_I(app_run_release(app), 0);
}

/* ---- The editor ---- */

static void text_input(const char *s) {
    SDL_Event e = {.type = SDL_TEXTINPUT};
    snprintf(e.text.text, sizeof e.text.text, "%s", s);
    push(e);
}

static void mouse_move(int x, int y) {
    SDL_Event e = {.type = SDL_MOUSEMOTION};
    e.motion.x = x, e.motion.y = y;
    push(e);
}

/* A level with enemies side by side, every one with its own hit points: a row, a column,
   and one fully surrounded. */
static const char *const HP_LEVEL = "name: HP\n"
                                    "map:\n"
                                    "##############\n"
                                    "#@...........#\n"
                                    "#.ppp....p...#\n"
                                    "#.pcp....c...#\n"
                                    "#.ptp....t...#\n"
                                    "#............#\n"
                                    "#.....ppp....#\n"
                                    "##############\n"
                                    "end\n";

/* Figures, or figures side by side that read as one run. */
static bool all_digits(const char *s) {
    if (!isdigit((unsigned char)*s)) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s) && *s != ' ') return false;
    return true;
}

static bool enemy_cell(int cell) { return cell >= SPR_PATROLLER && cell < SPR_TURRET + ENEMY_FRAMES; }

static void check_editor_hp(Arena *perm, const char *path) {
    FILE *f = fopen(path, "wb");
    REQUIRE_VOID(f);
    fputs(HP_LEVEL, f);
    int hp = 100, count = 0;
    int want[64][3];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 14; x++) {
            const char *row = HP_LEVEL + strlen("name: HP\nmap:\n") + (size_t)y * 15;
            if (row[x] != 'p' && row[x] != 'c' && row[x] != 't') continue;
            fprintf(f, "enemy %d %d hp=%d\n", x, y, hp);
            want[count][0] = x, want[count][1] = y, want[count][2] = hp;
            count++, hp += 613;
        }
    fclose(f);
    App *app = app_run_create(perm, &(AppRunOptions){.edit = path, .headless = true, .no_save = true});
    REQUIRE_VOID(app);
    REQUIRE_VOID((app->mode == APP_MODE_EDIT));
    app->editor->view_x = app->editor->view_y = 0;
    mouse_move(0, 2); /* over the status bar: no cell under the cursor */
    frames(app, 3);
    int n = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
    int overlaps = 0;
    DrawCmd c;
    int cell;
    for (uint32_t i = 0; frame_quad_of(app->host->rd, app->art.sprites, &i, &c, &cell);) {
        if (!enemy_cell(cell)) continue;
        for (int k = 0; k < n; k++)
            if (all_digits(texts[k].s) && frame_rect_overlap(texts[k].r, frame_cmd_rect(&c))) {
                if (overlaps++ < 8)
                    fprintf(stderr, "editor: hit points \"%s\" over the enemy at %.0f,%.0f\n", texts[k].s, c.x, c.y);
            }
    }
    CHECK_EQ_I(overlaps, 0);
    /* Each enemy's figure is on the map, or under the cursor when it is pointed at. */
    int on_map = 0;
    for (int e = 0; e < count; e++) {
        char s[16];
        snprintf(s, sizeof s, "%d", want[e][2]);
        bool shown = false;
        for (int k = 0; k < n && !shown; k++) shown = strcmp(texts[k].s, s) == 0;
        on_map += shown;
        if (shown) continue;
        int mx = want[e][0] * TILE_PX + TILE_PX / 2, my = EDITOR_TOP_H + want[e][1] * TILE_PX + TILE_PX / 2;
        mouse_move(mx, my);
        frames(app, 2);
        char hover[32];
        snprintf(hover, sizeof hover, "hp %d", want[e][2]);
        int m = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
        bool status = frame_text_find(texts, m, hover, -1, 255) != NULL;
        if (!status)
            fprintf(stderr, "editor: the enemy at %d,%d (hp %d) shows its hit points nowhere\n", want[e][0], want[e][1],
                    want[e][2]);
        CHECK(status);
        mouse_move(0, 2);
        frames(app, 2);
        n = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
    }
    printf("editor: %d of %d enemies' hit points beside them on the map\n", on_map, count);
    CHECK(on_map >= count / 2);
    app_run_release(app);
}

/* The caret of the prompt whose text ends with `tail` (a caret glyph after it aside): a
   thin bar at the end of the text's ink, or a glyph '_' or '|' ending the text. Its x, or
   -1 when there is none. */
static float prompt_caret(const App *app, const char *tail) {
    int n = frame_text(app->host->rd, &app->art.font, texts, FRAME_TEXT_MAX);
    size_t tl = strlen(tail);
    for (int i = 0; i < n; i++) {
        const FrameText *t = &texts[i];
        size_t len = strlen(t->s);
        bool glyph = len && (t->s[len - 1] == '_' || t->s[len - 1] == '|');
        size_t body = len - glyph;
        if (t->tint.a != 255 || body < tl || memcmp(t->s + body - tl, tail, tl) != 0) continue;
        if (glyph) return t->r.x + t->r.w;
        float end = t->r.x + t->r.w;
        DrawCmd c;
        for (uint32_t k = 0; frame_quad_of(app->host->rd, NULL, &k, &c, NULL);)
            if (c.w <= 2 && c.h >= 6 && c.x >= end - 1 && c.x <= end + 3 && c.y < t->r.y + t->r.h &&
                c.y + c.h > t->r.y && c.tint.a > 0)
                return c.x;
    }
    return -1;
}

static void check_prompt_caret(Arena *perm, const char *path) {
    App *app = app_run_create(perm, &(AppRunOptions){.edit = path, .headless = true, .no_save = true});
    REQUIRE_VOID(app);
    frames(app, 2);
    tap(SDL_SCANCODE_N); /* the level's name */
    frames(app, 2);
    CHECK_EQ_I(app->editor->prompt, PROMPT_NAME);
    text_input(" two");
    frames(app, 2);
    int with = 0;
    for (int i = 0; i < 90; i++) {
        frames(app, 1);
        with += prompt_caret(app, "level name: HP two") >= 0;
    }
    printf("prompt: a caret on %d of 90 frames\n", with);
    CHECK_EQ_I(with, 90);
    /* Longer than the screen: the end of the text, with the caret, stays on screen. */
    for (int i = 0; i < 10; i++) {
        text_input("abcdefghij");
        frames(app, 1);
    }
    frames(app, 1);
    int seen = 0;
    for (int i = 0; i < 60; i++) {
        frames(app, 1);
        float x = prompt_caret(app, "abcdefghij");
        seen += x >= 0 && x < screen_w(app) - 1;
    }
    printf("prompt, longer than the screen: a caret on screen on %d of 60 frames\n", seen);
    CHECK_EQ_I(seen, 60);
    tap(SDL_SCANCODE_ESCAPE);
    frames(app, 2);
    app_run_release(app);
}

/* ---- Keys and doors ---- */

/* A cell as a colour-blind eye may see it: transparent, a neutral shade (grey, white,
   black, in 4 steps of lightness), or "coloured", whatever the hue or its shade. Two cells
   that differ by colour alone look the same. */
static void colourless(const uint8_t *px, int w, int cell, int cell_px, uint8_t out[256]) {
    int cols = w / cell_px;
    for (int y = 0; y < cell_px; y++)
        for (int x = 0; x < cell_px; x++) {
            const uint8_t *p = px + ((size_t)(cell / cols * cell_px + y) * w + cell % cols * cell_px + x) * 4;
            int hi = MAX(p[0], MAX(p[1], p[2])), lo = MIN(p[0], MIN(p[1], p[2]));
            uint8_t v = 0;
            if (p[3] >= 128) v = hi - lo > 48 ? 5 : (uint8_t)(1 + hi / 64);
            out[y * cell_px + x] = v;
        }
}

static int differ(const uint8_t a[256], const uint8_t b[256]) {
    int n = 0;
    for (int i = 0; i < 256; i++) n += a[i] != b[i];
    return n;
}

static void check_keys_and_doors(Arena *perm) {
    const char *dir = getenv("AD_ASSET_DIR");
    REQUIRE_VOID(dir);
    Error err;
    uint8_t *sprites, *tiles;
    int sw, sh, tw, th;
    REQUIRE_VOID(st_asset_load_rgba(perm, st_asset_path(perm, dir, "sprites.png"), &sprites, &sw, &sh, &err));
    REQUIRE_VOID(st_asset_load_rgba(perm, st_asset_path(perm, dir, "tiles.png"), &tiles, &tw, &th, &err));
    uint8_t keys[KEY_COLOR_COUNT][256], doors[KEY_COLOR_COUNT][256];
    for (int k = 0; k < KEY_COLOR_COUNT; k++) {
        colourless(sprites, sw, SPR_KEY_RED + k, SPRITE_CELL, keys[k]);
        colourless(tiles, tw, TS_DOOR_RED + k, TILE_CELL, doors[k]);
    }
    for (int a = 0; a < KEY_COLOR_COUNT; a++)
        for (int b = a + 1; b < KEY_COLOR_COUNT; b++) {
            int dk = differ(keys[a], keys[b]), dd = differ(doors[a], doors[b]);
            printf("keys %d and %d: %d pixels apart without colour; doors: %d\n", a, b, dk, dd);
            CHECK(dk >= 6);
            CHECK(dd >= 6);
        }
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    char dir[] = "/tmp/test_draw_layout_XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    char data[300], level[300];
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(level, sizeof level, "%s/hp.lvl", dir);
    REQUIRE(setenv("XDG_DATA_HOME", data, 1) == 0);
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    REQUIRE(perm);
    check_overlay(perm, 1);
    check_overlay(perm, 3);
    check_signs(perm);
    check_long_sign(perm, level);
    check_viewer_rewind(perm);
    check_settings(perm);
    check_message(perm);
    check_editor_hp(perm, level);
    check_prompt_caret(perm, level);
    check_keys_and_doors(perm);
    unlink(level);
    rmdir(dir);
    st_arena_release(perm);
    return check_result();
}
