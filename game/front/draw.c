/* draw.c - the game's picture (see draw.h). */
#include "front/draw.h"

#include <math.h>

#include "../../assets/atlas.h"
#include <strata/core/base.h>
#include <strata/core/hash.h>
#include "front/palette.h"
#include <strata/platform/platform.h>

#define PX(fix) ((float)(fix) / (float)FIX_ONE)

/* The game's facings onto the art's (assets/atlas.h), here and nowhere else. The player has
   a row of cells per atlas Facing; enemy art faces right and is mirrored to face left. */
static Facing atlas_facing(Facing8 f) {
    static const uint8_t face[8] = {
        [FACE_E] = FACING_RIGHT, [FACE_SE] = FACING_RIGHT, [FACE_S] = FACING_DOWN, [FACE_SW] = FACING_LEFT,
        [FACE_W] = FACING_LEFT,  [FACE_NW] = FACING_LEFT,  [FACE_N] = FACING_UP,   [FACE_NE] = FACING_RIGHT};
    return (unsigned)f < 8 ? (Facing)face[f] : FACING_DOWN;
}
static uint32_t enemy_flip(Dir4 d) { return d == DIR4_LEFT ? RENDER_FLIP_X : 0; }

DrawView draw_view_make(float w, float h) {
    /* The HUD bar is opaque and the world lives below it: otherwise the top row of a tall
       level, the player's spawn included, is hidden under the bar, and a level a little
       shorter than the screen is centred on the screen instead of on what is visible. */
    DrawView v = {.cam = st_camera_make(w, h), .w = w, .h = h};
    st_camera_set_viewport(&v.cam, 0, DRAW_HUD_H, w, h - DRAW_HUD_H);
    return v;
}

void draw_view_dock(DrawView *v, float right_w) {
    float w = CLAMP(v->w - right_w, TILE_PX, v->w);
    if (v->cam.size[0] != w) st_camera_set_viewport(&v->cam, 0, DRAW_HUD_H, w, v->h - DRAW_HUD_H);
}

/* The right edge of the screen the game's own pictures use: the whole width, or up to a
   panel docked on the right (draw_view_dock). */
static float view_right(const DrawView *v) { return v->cam.offset[0] + v->cam.size[0]; }

void draw_view_update(DrawView *v, const Game *g) {
    const Level *lv = &g->sim.level;
    float tx = PX(g->sim.player.x), ty = PX(g->sim.player.y);
    if (g->sim.level_serial != v->level_serial) {
        v->level_serial = g->sim.level_serial;
        st_camera_set_bounds(&v->cam, 0, 0, (float)(lv->width * TILE_PX), (float)(lv->height * TILE_PX));
        st_camera_snap(&v->cam, tx, ty);
    } else {
        st_camera_follow(&v->cam, tx, ty, 0.12f);
    }
}

static int tile_sprite(const Sim *s, int32_t tx, int32_t ty, uint32_t tick) {
    const Level *lv = &s->level;
    switch (level_tile(lv, tx, ty)) {
    case TILE_WALL: return level_tile(lv, tx, ty + 1) == TILE_WALL ? TS_WALL : TS_WALL_FACE;
    case TILE_WATER: return ((tick / 30 + (uint32_t)(tx + ty)) & 1) ? TS_WATER_1 : TS_WATER_0;
    case TILE_SPIKES: return TS_SPIKES;
    case TILE_DOOR: {
        int32_t i = level_door_index(lv, tx, ty);
        if (i >= 0 && s->door_open[i]) return TS_DOOR_OPEN;
        return TS_DOOR_RED + (i >= 0 ? (int)lv->doors[i].color : 0);
    }
    case TILE_EXIT: return TS_EXIT;
    case TILE_PORTAL: return ((tick / 15) & 1) ? TS_PORTAL_1 : TS_PORTAL_0;
    default: {
        uint32_t h = st_hash_mix2(tx, ty) % 16;
        return h < 10 ? TS_FLOOR_0 : h < 13 ? TS_FLOOR_1 : h < 15 ? TS_FLOOR_2 : TS_FLOOR_3;
    }
    }
}

/* The turret's visor (its second frame): blinking while it aims at you and may not fire yet
   (the warning), lit when armed, and always lit in the moment before a shot. */
static int turret_visor(const Enemy *e, uint32_t tick) {
    if (sim_turret_armed(e)) return 1;
    if (sim_turret_aiming(e)) return (tick / 4) % 2 == 0;
    return e->timer < 12 && e->timer > 0;
}

static int actor_layer(const DrawView *v, float world_y) {
    int row = (int)((world_y - v->cam.pos[1]) / 2.0f);
    if (row < 0) row = 0;
    if (row > 140) row = 140;
    return LAYER_ACTOR + row;
}

/* What every step of a frame's picture reads: draw_game makes one, each step and each
   screen takes it. */
typedef struct DrawFrame {
    Renderer *rd;
    const DrawAssets *a;
    const DrawView *v;
    const Game *g;
    const Sim *s;
    const Effects *fx; /* NULL: no particles, shake or flashes */
    uint32_t tick;     /* the game's ticks: what animations count */
    Arena *frame;      /* the renderer's frame arena, for text made this frame */
    float cx, cy;      /* the view's centre (left of a docked panel), where the cards go */
    bool blink;        /* on for half a second, off for half: prompts */
    float *sign_y;     /* the view's memory of where the sign's panel was (DrawView) */
} DrawFrame;

typedef struct TileRange { /* tiles [x0, x1) x [y0, y1) */
    int x0, y0, x1, y1;
} TileRange;

/* The tiles the camera sees, and one more round them, which the shake may reveal. */
static TileRange visible_tiles(const DrawView *v, const Level *lv) {
    TileRange r;
    st_camera_tile_range(&v->cam, TILE_PX, &r.x0, &r.y0, &r.x1, &r.y1);
    r.x0 -= 1, r.y0 -= 1;
    if (r.x1 + 1 < lv->width) r.x1 += 1;
    else r.x1 = lv->width;
    if (r.y1 + 1 < lv->height) r.y1 += 1;
    else r.y1 = lv->height;
    if (r.x0 < 0) r.x0 = 0;
    if (r.y0 < 0) r.y0 = 0;
    return r;
}

static void draw_tiles(const DrawFrame *f, TileRange r) {
    const Level *lv = &f->s->level;
    for (int ty = r.y0; ty < r.y1; ty++)
        for (int tx = r.x0; tx < r.x1; tx++) {
            TileKind k = level_tile(lv, tx, ty);
            st_render_cell(f->rd, f->a->tiles, tile_sprite(f->s, tx, ty, f->tick), (float)(tx * TILE_PX),
                           (float)(ty * TILE_PX), k == TILE_WALL ? LAYER_WALL : LAYER_FLOOR, 0);
        }
}

/* The exit is the goal: a slow gold pulse over it, visible from across the room. */
static void draw_exit_glow(const DrawFrame *f, TileRange r) {
    const Level *lv = &f->s->level;
    int pulse = (int)(f->tick % 72);
    pulse = pulse < 36 ? pulse : 72 - pulse; /* 0..36..0 */
    for (int ty = r.y0; ty < r.y1; ty++)
        for (int tx = r.x0; tx < r.x1; tx++) {
            if (level_tile(lv, tx, ty) != TILE_EXIT) continue;
            /* The stairs drawn again over themselves, brightened and fading in and out, and a
               spark bobbing above. Sprites, not rects: translucent rects here made SDL's
               software renderer allocate during play (test_app_alloc counts them). */
            st_render_cell_tinted(f->rd, f->a->tiles, TS_EXIT, (float)(tx * TILE_PX), (float)(ty * TILE_PX) - 1,
                                  LAYER_GOAL, (Color){255, 236, 170, (uint8_t)(pulse * 5)}, 0);
            st_render_cell_tinted(f->rd, f->a->sprites, SPR_SPARK, (float)(tx * TILE_PX),
                                  (float)(ty * TILE_PX) - 6 - (float)(pulse / 9), LAYER_PARTICLE,
                                  (Color){255, 224, 140, (uint8_t)(90 + pulse * 4)}, 0);
        }
}

/* Signposts stand on their tiles; what one says is drawn by the HUD (draw_sign_text). */
static void draw_signs(const DrawFrame *f) {
    const Level *lv = &f->s->level;
    for (int32_t i = 0; i < lv->sign_count; i++) {
        float x = (float)(lv->signs[i].tx * TILE_PX), y = (float)(lv->signs[i].ty * TILE_PX);
        if (!st_camera_visible(&f->v->cam, x, y, TILE_PX, TILE_PX)) continue;
        st_render_cell(f->rd, f->a->sprites, SPR_SHADOW, x, y + 3, LAYER_SHADOW, 0);
        st_render_cell(f->rd, f->a->sprites, SPR_SIGN, x, y, LAYER_PICKUP, 0);
    }
}

static void draw_pickups(const DrawFrame *f) {
    const Level *lv = &f->s->level;
    uint32_t tick = f->tick;
    for (int32_t i = 0; i < lv->pickup_count; i++) {
        const Pickup *p = &lv->pickups[i];
        if (f->s->pickup_taken[i]) continue;
        float x = (float)(p->tx * TILE_PX), y = (float)(p->ty * TILE_PX);
        if (!st_camera_visible(&f->v->cam, x, y, TILE_PX, TILE_PX)) continue;
        float bob = ((tick / 10 + (uint32_t)i) % 4 == 1) ? -1.0f : 0.0f;
        int spr = p->kind == PICKUP_COIN  ? SPR_COIN + (int)((tick / 12 + (uint32_t)i) % 2)
                  : p->kind == PICKUP_KEY ? SPR_KEY_RED + (int)p->color
                                          : SPR_HEART;
        st_render_cell(f->rd, f->a->sprites, SPR_SHADOW, x, y + 2, LAYER_SHADOW, 0);
        st_render_cell(f->rd, f->a->sprites, spr, x, y + bob, LAYER_PICKUP, 0);
    }
}

/* Enemy `index`: its frame, its tint (a hit's red flash, a turret warming up) and the "!"
   over one that has seen the player. */
static void draw_enemy(const DrawFrame *f, const Enemy *e, int32_t index) {
    Renderer *rd = f->rd;
    const DrawAssets *a = f->a;
    uint32_t tick = f->tick;
    float x = PX(e->x) - 8, y = PX(e->y) - 8;
    if (!st_camera_visible(&f->v->cam, x, y, 16, 16)) return;
    int spr = e->kind == ENEMY_PATROLLER ? SPR_PATROLLER + (int)((tick / 12) % 2)
              : e->kind == ENEMY_CHASER  ? SPR_CHASER + (e->state ? (int)((tick / 6) % 2) : 0)
                                         : SPR_TURRET + turret_visor(e, tick);
    Color tint = COLOR_WHITE;
    int32_t flash = f->fx ? effects_enemy_flash(f->fx, index) : 0;
    if (flash > 0 && (flash / 2) % 2 == 0) tint = (Color){255, 90, 90, 255};
    else if (sim_turret_aiming(e) && !sim_turret_armed(e) && (tick / 4) % 2 == 0)
        tint = (Color){255, 170, 120, 255}; /* warming up: the whole turret glows */
    uint32_t flip = enemy_flip((Dir4)e->facing);
    st_render_cell(rd, a->sprites, SPR_SHADOW, x, y + 3, LAYER_SHADOW, 0);
    st_render_cell_tinted(rd, a->sprites, spr, x, y, actor_layer(f->v, y + 16), tint, flip);
    bool warn = sim_turret_aiming(e) && !sim_turret_armed(e);
    if (warn)
        st_font_draw(rd, &a->font, x + 8, y - 10, STR8_LIT("!"), (Color){255, 120, 80, 255}, LAYER_PARTICLE,
                     TEXT_ALIGN_CENTER, 1);
    if (e->kind == ENEMY_CHASER && e->state && e->timer > CHASER_MEMORY_TICKS - 40)
        st_font_draw(rd, &a->font, x + 8, y - 10, STR8_LIT("!"), (Color){255, 220, 80, 255}, LAYER_PARTICLE,
                     TEXT_ALIGN_CENTER, 1);
}

static void draw_enemies(const DrawFrame *f) {
    for (int32_t i = 0; i < f->s->level.enemy_count; i++)
        if (f->s->enemies[i].alive) draw_enemy(f, &f->s->enemies[i], i);
}

/* The player, blinking while invulnerable. */
static void draw_player(const DrawFrame *f) {
    const Player *pl = &f->s->player;
    if (pl->dead || (pl->invuln > 0 && (pl->invuln / 4) % 2 == 1)) return;
    int frame = pl->moving ? 1 + (pl->walk_ticks / 8) % 2 : 0;
    float x = PX(pl->x) - 8, y = PX(pl->y) - 10;
    st_render_cell(f->rd, f->a->sprites, SPR_SHADOW, x, y + 5, LAYER_SHADOW, 0);
    int cell = SPR_PLAYER + (int)atlas_facing((Facing8)pl->facing) * PLAYER_FRAMES + frame;
    st_render_cell(f->rd, f->a->sprites, cell, x, y, LAYER_PLAYER, 0);
}

static void draw_bullets(const DrawFrame *f) {
    for (int32_t i = 0; i < f->s->level.bullet_cap; i++) {
        const Bullet *b = &f->s->bullets[i];
        if (!b->alive) continue;
        float x = PX(b->x) - 8, y = PX(b->y) - 8;
        if (!st_camera_visible(&f->v->cam, x, y, 16, 16)) continue;
        st_render_cell(f->rd, f->a->sprites, b->from_player ? SPR_BULLET_PLAYER : SPR_BULLET_ENEMY, x, y, LAYER_BULLET,
                       0);
    }
}

/* The effects' sparks (effects.h), fading with the life they have left. */
static void draw_particles(const DrawFrame *f) {
    for (int32_t i = 0; i < f->s->level.particle_cap; i++) {
        const Particle *p = &f->s->particles[i];
        if (!p->alive) continue;
        float x = PX(p->x) - 8, y = PX(p->y) - 8;
        if (!st_camera_visible(&f->v->cam, x, y, 16, 16)) continue;
        uint32_t c = p->color;
        int alpha = p->max_ttl > 0 ? 255 * p->ttl / p->max_ttl : 255;
        Color tint = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)alpha};
        st_render_cell_tinted(f->rd, f->a->sprites, p->ttl > p->max_ttl / 2 ? SPR_SPARK : SPR_PARTICLE, x, y,
                              LAYER_PARTICLE, tint, 0);
    }
}

/* The level under every screen, seen through the camera (shaken by the effects). */
static void draw_world(const DrawFrame *f) {
    float shake_x = f->fx ? (float)f->fx->shake_x : 0, shake_y = f->fx ? (float)f->fx->shake_y : 0;
    st_render_set_view(f->rd, st_camera_view_x(&f->v->cam) + shake_x, st_camera_view_y(&f->v->cam) + shake_y);
    TileRange r = visible_tiles(f->v, &f->s->level);
    draw_tiles(f, r);
    draw_exit_glow(f, r);
    draw_signs(f);
    draw_pickups(f);
    draw_enemies(f);
    draw_player(f);
    draw_bullets(f);
    draw_particles(f);
}

static void text(Renderer *rd, const DrawAssets *a, float x, float y, Str8 s, Color c, int layer, TextAlign al,
                 float scale) {
    /* A one-pixel drop shadow keeps text readable on any tile. */
    st_font_draw(rd, &a->font, x + scale, y + scale, s, (Color){10, 8, 16, c.a}, layer, al, scale);
    st_font_draw(rd, &a->font, x, y, s, c, layer + 1, al, scale);
}

/* "1:23.45": minutes, seconds, hundredths. */
static Str8 fmt_time(Arena *frame, uint32_t ticks) {
    uint32_t secs = ticks / SIM_HZ;
    return st_str8_fmt(frame, "%u:%02u.%02u", secs / 60, secs % 60, (ticks % SIM_HZ) * 100 / SIM_HZ);
}

static int32_t level_coin_total(const Level *lv) {
    int32_t n = 0;
    for (int32_t i = 0; i < lv->pickup_count; i++) n += lv->pickups[i].kind == PICKUP_COIN;
    return n;
}

/* The last report (red) or notice (blue) along the bottom, on every screen: wrapped to the
   width left of the F1 panel, the band as tall as its lines (a path or a loader's message
   is often longer than the screen is wide). */
static void draw_message(Renderer *rd, const DrawAssets *a, const DrawView *v, const Game *g) {
    if (g->message_ticks <= 0) return;
    Color bg = g->message_kind == GAME_MESSAGE_NOTICE ? (Color){24, 50, 90, 225} : (Color){90, 20, 30, 225};
    int lines = 1;
    Str8 t = st_font_wrap(st_render_frame_arena(rd), &a->font, st_str8_cstr(g->message), view_right(v) - 8, 1, &lines);
    if (!t.data) t = st_str8_cstr(g->message), lines = 1;
    float line_h = st_font_line_height(&a->font, 1), h = 4 + line_h * (float)MAX(lines, 1);
    st_render_rect(rd, (RectF){0, v->h - h, view_right(v), h}, LAYER_MESSAGE, bg);
    text(rd, a, 4, v->h - h + 2, t, COLOR_WHITE, LAYER_MESSAGE + 1, TEXT_ALIGN_LEFT, 1);
}

static void draw_hud(Renderer *rd, const DrawAssets *a, const DrawView *v, const Game *g) {
    const Sim *s = &g->sim;
    const PlayerProgress *p = &s->progress;
    Arena *frame = st_render_frame_arena(rd);
    st_render_rect(rd, (RectF){0, 0, v->w, DRAW_HUD_H}, LAYER_HUD, (Color){12, 10, 20, 255});
    /* Hearts, coins and keys sit on the right: the F1 overlay covers the top-left corner. */
    float x = v->w - 2.0f - (float)p->max_hearts * 14;
    for (int i = 0; i < p->max_hearts; i++)
        st_render_cell(rd, a->sprites, i < p->hearts ? SPR_HEART : SPR_HEART_EMPTY, x + (float)i * 14, 1, LAYER_HUD + 1,
                       0);
    /* Coins of this level out of its total: what is left to find here. */
    int32_t got = p->coins - s->progress_entry.coins, total = level_coin_total(&s->level);
    x -= 58;
    st_render_cell(rd, a->sprites, SPR_COIN, x, 1, LAYER_HUD + 1, 0);
    text(rd, a, x + 16, 5, st_str8_fmt(frame, "%d/%d", got, total),
         got >= total && total > 0 ? (Color){255, 214, 120, 255} : COLOR_WHITE, LAYER_HUD_TEXT, TEXT_ALIGN_LEFT, 1);
    for (int k = KEY_COLOR_COUNT - 1; k >= 0; k--) {
        if (p->keys[k] <= 0) continue;
        x -= 20;
        st_render_cell(rd, a->sprites, SPR_KEY_RED + k, x, 1, LAYER_HUD + 1, 0);
        if (p->keys[k] > 1)
            text(rd, a, x + 14, 8, st_str8_fmt(frame, "%d", p->keys[k]), palette_color(PALETTE_KEY_RGBA[k]),
                 LAYER_HUD_TEXT, TEXT_ALIGN_LEFT, 1);
    }
    /* The level's own time, the one its clear card and records show (the run's total is on
       the victory card). */
    uint32_t secs = s->tick / SIM_HZ;
    text(rd, a, v->w / 2, 5, st_str8_fmt(frame, "time %u:%02u", secs / 60, secs % 60), (Color){190, 190, 210, 255},
         LAYER_HUD_TEXT, TEXT_ALIGN_CENTER, 1);
    const char *name = s->level.name ? s->level.name : "";
    int num = catalog_file_number(s->level_path);
    text(rd, a, 4, 5, num > 0 ? st_str8_fmt(frame, "%d. %s", num, name) : st_str8_cstr(name),
         (Color){255, 230, 150, 255}, LAYER_HUD_TEXT, TEXT_ALIGN_LEFT, 1);
}

static void dim(Renderer *rd, const DrawView *v, uint8_t alpha) {
    st_render_rect(rd, (RectF){0, 0, v->w, v->h}, LAYER_FADE, (Color){8, 6, 14, alpha});
}

/* The cards' two text colours. */
static const Color CARD_GOLD = {255, 214, 120, 255}, CARD_SOFT = {200, 200, 220, 255};

static void card_at(Renderer *rd, RectF r) {
    st_render_rect(rd, r, LAYER_CARD, (Color){24, 20, 40, 235});
    st_render_rect_outline(rd, r, LAYER_CARD + 1, (Color){255, 214, 120, 255});
}

/* A card of w x h in the middle of the view. */
static void card(Renderer *rd, const DrawView *v, float w, float h) {
    card_at(rd, (RectF){floorf((view_right(v) - w) / 2), (v->h - h) / 2, w, h});
}

/* ---- The screens: one function each, in a table by GameScreen (a new screen is one
   entry), drawn over the world. ---- */

/* A menu row: the selected one bright with markers, the others soft, unusable ones dim. */
static void menu_row(const DrawFrame *f, float x, float y, Str8 label, bool selected, bool usable, TextAlign align) {
    Color c = !usable ? (Color){110, 104, 130, 255} : selected ? COLOR_WHITE : CARD_SOFT;
    Str8 shown = selected ? st_str8_fmt(f->frame, "> %.*s <", STR8_FMT(label)) : label;
    text(f->rd, f->a, x, y, shown, c, LAYER_CARD_TEXT, align, 1);
}

static void draw_title(const DrawFrame *f) {
    Renderer *rd = f->rd;
    const DrawAssets *a = f->a;
    const Game *g = f->g;
    float cx = f->cx, cy = f->cy;
    dim(rd, f->v, 170);
    text(rd, a, cx, cy - 96, STR8_LIT("ARENA DUNGEON"), CARD_GOLD, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 4);
    text(rd, a, cx, cy - 50, STR8_LIT("find the stairs down in every room"), CARD_SOFT, LAYER_CARD_TEXT,
         TEXT_ALIGN_CENTER, 1);
    int32_t cont = game_continue_level(g);
    Str8 items[TITLE_ITEM_COUNT] = {
        [TITLE_CONTINUE] =
            cont >= 0 ? st_str8_fmt(f->frame, "Continue: %s", g->catalog.levels[cont].label) : STR8_LIT("Continue"),
        [TITLE_NEW_RUN] = STR8_LIT("New run"),
        [TITLE_LEVEL_SELECT] = STR8_LIT("Level select"),
        [TITLE_SETTINGS] = STR8_LIT("Settings"),
        [TITLE_QUIT] = STR8_LIT("Quit"),
    };
    for (int i = 0; i < TITLE_ITEM_COUNT; i++)
        menu_row(f, cx, cy - 24 + (float)i * 16, items[i], i == g->menu, i != TITLE_CONTINUE || cont >= 0,
                 TEXT_ALIGN_CENTER);
    text(rd, a, cx, cy + 64, STR8_LIT("arrows: choose    Enter: go    Esc: quit"), (Color){150, 150, 175, 255},
         LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
    if (g->save_notice[0])
        text(rd, a, cx, f->v->h - 30, st_str8_cstr(g->save_notice), (Color){255, 150, 120, 255}, LAYER_CARD_TEXT,
             TEXT_ALIGN_CENTER, 1);
}

/* Every level of the folder with its record; locked ones are listed, dimmed. */
#define LEVEL_SELECT_ROWS 9

static void draw_level_select(const DrawFrame *f) {
    Renderer *rd = f->rd;
    const Game *g = f->g;
    const Catalog *c = &g->catalog;
    float cx = f->cx, cy = f->cy, w = MIN(360, view_right(f->v) - 8), left = cx - w / 2 + 16, right = cx + w / 2 - 16;
    dim(rd, f->v, 190);
    card(rd, f->v, w, 210);
    text(rd, f->a, cx, cy - 96, STR8_LIT("LEVEL SELECT"), CARD_GOLD, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
    text(rd, f->a, right - 56, cy - 70, STR8_LIT("best time"), (Color){150, 150, 175, 255}, LAYER_CARD_TEXT,
         TEXT_ALIGN_RIGHT, 1);
    text(rd, f->a, right, cy - 70, STR8_LIT("coins"), (Color){150, 150, 175, 255}, LAYER_CARD_TEXT, TEXT_ALIGN_RIGHT,
         1);
    if (c->count == 0)
        text(rd, f->a, cx, cy, STR8_LIT("no levels found"), CARD_SOFT, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
    /* The window of rows keeps the selection inside it. */
    int32_t first = g->menu - LEVEL_SELECT_ROWS / 2;
    first = MAX(0, MIN(first, c->count - LEVEL_SELECT_ROWS));
    for (int32_t i = first; i < c->count && i < first + LEVEL_SELECT_ROWS; i++) {
        const CatalogLevel *l = &c->levels[i];
        float y = cy - 56 + (float)(i - first) * 15;
        bool open = game_level_unlocked(g, i), sel = i == g->menu;
        menu_row(f, left, y, st_str8_cstr(l->label), sel, open && !l->broken, TEXT_ALIGN_LEFT);
        const SaveLevel *best = save_find(&g->save, l->file);
        Color dimmed = {110, 104, 130, 255};
        if (l->broken || !open) {
            text(rd, f->a, right, y, l->broken ? STR8_LIT("does not load") : STR8_LIT("locked"), dimmed,
                 LAYER_CARD_TEXT, TEXT_ALIGN_RIGHT, 1);
            continue;
        }
        bool all = best && best->best_coins >= l->coins && l->coins > 0;
        text(rd, f->a, right - 56, y, best ? fmt_time(f->frame, best->best_ticks) : STR8_LIT("-"), CARD_SOFT,
             LAYER_CARD_TEXT, TEXT_ALIGN_RIGHT, 1);
        text(rd, f->a, right, y, st_str8_fmt(f->frame, "%d/%d", best ? best->best_coins : 0, l->coins),
             all ? CARD_GOLD : CARD_SOFT, LAYER_CARD_TEXT, TEXT_ALIGN_RIGHT, 1);
    }
    text(rd, f->a, cx, cy + 86, STR8_LIT("Enter: play    Esc: back"), (Color){150, 150, 175, 255}, LAYER_CARD_TEXT,
         TEXT_ALIGN_CENTER, 1);
}

static const char *const SETTINGS_ACTION_LABELS[SAVE_BIND_ACTIONS] = {
    "Up", "Down", "Left", "Right", "Fire", "Confirm", "Pause / back", "Restart", "Rewind (hold)"};

static void draw_settings(const DrawFrame *f) {
    Renderer *rd = f->rd;
    const Game *g = f->g;
    const SaveSettings *st = &g->save.settings;
    float cx = f->cx, w = 300, left = cx - w / 2 + 16, right = cx + w / 2 - 16;
    if (g->settings_from == SCREEN_PAUSED) draw_hud(rd, f->a, f->v, g);
    dim(rd, f->v, 190);
    /* The card fits between the HUD's band and a line of notice at the bottom (what a
       change says, draw_message), on every screen: rows of 12 px, 11 when that is what
       fits, and past that a window of rows that keeps the selection inside it. */
    const float pad = 6, title_h = 20, hint_h = 10, gaps = 12; /* three groups 4 px apart */
    float notice_h = 4 + st_font_line_height(&f->a->font, 1);
    float top = DRAW_HUD_H + 2, room = f->v->h - 2 - top - notice_h, chrome = pad * 4 + title_h + hint_h;
    float pitch = chrome + gaps + SETTINGS_ITEM_COUNT * 12.0f <= room ? 12 : 11;
    int32_t shown = MIN(SETTINGS_ITEM_COUNT, (int32_t)((room - chrome - gaps) / pitch));
    int32_t first = MAX(0, MIN(g->menu - shown / 2, SETTINGS_ITEM_COUNT - shown));
    float h = chrome + gaps + (float)shown * pitch, y0 = floorf(top + (room - h) / 2);
    card_at(rd, (RectF){floorf(cx - w / 2), y0, w, h});
    text(rd, f->a, cx, y0 + h - pad - hint_h, STR8_LIT("left/right: change    Enter: choose a key    Esc: back"),
         (Color){150, 150, 175, 255}, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
    text(rd, f->a, cx, y0 + pad, STR8_LIT("SETTINGS"), CARD_GOLD, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
    for (int32_t i = first; i < first + shown; i++) {
        /* Three groups, a little apart: sound, window, keys. */
        float y = y0 + pad * 2 + title_h + (float)(i - first) * pitch +
                  (i >= SETTINGS_SCALE && first < SETTINGS_SCALE ? 4.0f : 0) +
                  (i >= SETTINGS_KEYS && first < SETTINGS_KEYS ? 4.0f : 0);
        bool sel = i == g->menu;
        Str8 label, value = {0};
        if (i >= SETTINGS_VOLUME && i < SETTINGS_VOLUME + SAVE_VOLUMES) {
            static const char *const names[SAVE_VOLUMES] = {"Volume", "Music", "Effects"};
            label = st_str8_cstr(names[i - SETTINGS_VOLUME]);
            value = st_str8_fmt(f->frame, "< %d%% >", st->volume[i - SETTINGS_VOLUME]);
        } else if (i == SETTINGS_SCALE) {
            label = STR8_LIT("Window scale");
            value = st_str8_fmt(f->frame, "< %dx >", st->scale);
        } else if (i == SETTINGS_FULLSCREEN) {
            label = STR8_LIT("Fullscreen");
            value = st->fullscreen ? STR8_LIT("on") : STR8_LIT("off");
        } else if (i == SETTINGS_RENDERER) {
            label = STR8_LIT("Renderer");
            int32_t want = st->renderer == SAVE_RENDERER_SDL ? SAVE_RENDERER_SDL : SAVE_RENDERER_GL;
            Str8 name = want == SAVE_RENDERER_SDL ? STR8_LIT("SDL_Renderer") : STR8_LIT("OpenGL");
            /* It applies at the next start: say so while it differs from what draws now. */
            value = g->renderer_running && g->renderer_running != want
                        ? st_str8_fmt(f->frame, "< %.*s > (next start)", STR8_FMT(name))
                        : st_str8_fmt(f->frame, "< %.*s >", STR8_FMT(name));
        } else if (i >= SETTINGS_KEYS && i < SETTINGS_RESET_KEYS) {
            int32_t act = i - SETTINGS_KEYS;
            label = st_str8_cstr(SETTINGS_ACTION_LABELS[act]);
            if (g->rebinding == act) {
                value = STR8_LIT("press a key (Esc: cancel)"); /* steady: it blinks in colour */
            } else {
                const uint16_t *k = st->binds[act];
                /* Names on the keyboard layout in use: what is printed on the player's keys. */
                value = k[1] ? st_str8_fmt(f->frame, "%s / %s", st_input_key_name(k[0]), st_input_key_name(k[1]))
                             : st_str8_cstr(st_input_key_name(k[0]));
            }
        } else {
            label = i == SETTINGS_RESET_KEYS ? STR8_LIT("Reset keys") : STR8_LIT("Back");
        }
        if (i >= SETTINGS_RESET_KEYS && first < SETTINGS_RESET_KEYS) y += 4;
        menu_row(f, left, y, label, sel, true, TEXT_ALIGN_LEFT);
        if (value.len)
            text(rd, f->a, right, y, value,
                 i < SETTINGS_KEYS || g->rebinding != i - SETTINGS_KEYS ? COLOR_WHITE
                 : f->blink                                             ? CARD_GOLD
                                                                        : (Color){170, 140, 90, 255},
                 LAYER_CARD_TEXT, TEXT_ALIGN_RIGHT, 1);
    }
}

/* ---- The sign the player stands by: its text on a panel across the view, placed where
   it hides nothing that matters. ---- */

enum { SIGN_AVOID_MAX = 256 };

typedef struct SignAvoid {
    RectF r[SIGN_AVOID_MAX];
    int weight[SIGN_AVOID_MAX];
    int n;
} SignAvoid;

static void avoid_add(SignAvoid *a, float x, float y, float w, float h, int weight) {
    if (a->n < SIGN_AVOID_MAX) a->r[a->n] = (RectF){x, y, w, h}, a->weight[a->n++] = weight;
}

/* What the sign must not cover, on the screen as draw_world puts it (its view offset,
   shake included): the player above all, then enemies with their "!", then pickups,
   signposts and the tiles that matter (a closed door, the stairs, a portal, spikes). */
static void sign_avoid(const DrawFrame *f, SignAvoid *a) {
    const Sim *s = f->s;
    const Level *lv = &s->level;
    const Camera *cam = &f->v->cam;
    float shake_x = f->fx ? (float)f->fx->shake_x : 0, shake_y = f->fx ? (float)f->fx->shake_y : 0;
    float ox = floorf(st_camera_view_x(cam) + shake_x + 0.5f), oy = floorf(st_camera_view_y(cam) + shake_y + 0.5f);
    a->n = 0;
    if (!s->player.dead) avoid_add(a, PX(s->player.x) - 8 - ox, PX(s->player.y) - 10 - oy, 16, 16, 1000);
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &s->enemies[i];
        if (e->alive) avoid_add(a, PX(e->x) - 8 - ox, PX(e->y) - 18 - oy, 16, 26, 20);
    }
    for (int32_t i = 0; i < lv->pickup_count; i++)
        if (!s->pickup_taken[i])
            avoid_add(a, (float)(lv->pickups[i].tx * TILE_PX) - ox, (float)(lv->pickups[i].ty * TILE_PX) - 1 - oy,
                      TILE_PX, TILE_PX + 1, 4);
    for (int32_t i = 0; i < lv->sign_count; i++)
        avoid_add(a, (float)(lv->signs[i].tx * TILE_PX) - ox, (float)(lv->signs[i].ty * TILE_PX) - oy, TILE_PX, TILE_PX,
                  2);
    TileRange r = visible_tiles(f->v, lv);
    for (int ty = r.y0; ty < r.y1; ty++)
        for (int tx = r.x0; tx < r.x1; tx++) {
            TileKind k = level_tile(lv, tx, ty);
            bool closed =
                k == TILE_DOOR && !(level_door_index(lv, tx, ty) >= 0 && s->door_open[level_door_index(lv, tx, ty)]);
            if (closed || k == TILE_EXIT || k == TILE_PORTAL || k == TILE_SPIKES)
                avoid_add(a, (float)(tx * TILE_PX) - ox, (float)(ty * TILE_PX) - oy, TILE_PX, TILE_PX, 3);
        }
}

/* The weight of what `box` would hide; only what is seen counts (inside the view). */
static int sign_cost(const SignAvoid *a, RectF box, RectF view) {
    int cost = 0;
    for (int i = 0; i < a->n; i++) {
        RectF r = a->r[i];
        float x0 = MAX(r.x, view.x), y0 = MAX(r.y, view.y);
        float x1 = MIN(r.x + r.w, view.x + view.w), y1 = MIN(r.y + r.h, view.y + view.h);
        if (x0 < x1 && y0 < y1 && x0 < box.x + box.w && box.x < x1 && y0 < box.y + box.h && box.y < y1)
            cost += a->weight[i];
    }
    return cost;
}

/* Always on screen and centred on the view: where it was while that stays clear (no jumps
   while nothing comes near), else at the bottom, else at the top, else as near the bottom
   as hides nothing, else where it hides least. */
static void draw_sign_text(const DrawFrame *f) {
    int32_t i = sim_sign_near(f->s);
    if (i < 0) {
        *f->sign_y = 0;
        return;
    }
    Str8 t = f->s->level.signs[i].text;
    const Camera *cam = &f->v->cam;
    RectF view = {cam->offset[0], cam->offset[1], cam->size[0], cam->size[1]};
    /* Wider than the view: wrapped in the panel, a line more for each. */
    int lines = 1;
    float tw = st_font_measure(&f->a->font, t, 1);
    if (tw + 16 > view.w) {
        Str8 wrapped = st_font_wrap(st_render_frame_arena(f->rd), &f->a->font, t, view.w - 16, 1, &lines);
        if (wrapped.data) t = wrapped, tw = st_font_measure(&f->a->font, t, 1);
        else lines = 1;
    }
    float w = MIN(tw + 16, view.w);
    float h = 16 + (float)(lines - 1) * st_font_line_height(&f->a->font, 1);
    float x = floorf(view.x + (view.w - w) / 2), bottom = view.y + view.h - 20 - h, top = view.y + 4;
    SignAvoid avoid;
    sign_avoid(f, &avoid);
    float best_y = bottom;
    int best = -1;
    if (*f->sign_y >= top && *f->sign_y <= bottom && sign_cost(&avoid, (RectF){x, *f->sign_y, w, h}, view) == 0)
        best_y = *f->sign_y, best = 0;
    /* The bottom, the top, then upwards from the bottom in steps of 4. */
    for (float k = -1, y = bottom; best != 0 && y >= top - 0.5f; k++, y = k == 0 ? top : bottom - 4 * k) {
        int c = sign_cost(&avoid, (RectF){x, y, w, h}, view);
        if (best < 0 || c < best) best = c, best_y = y;
    }
    *f->sign_y = best_y;
    RectF box = {x, best_y, w, h};
    st_render_rect(f->rd, box, LAYER_HUD, (Color){40, 30, 22, 235});
    st_render_rect_outline(f->rd, box, LAYER_HUD + 1, (Color){196, 150, 90, 255});
    text(f->rd, f->a, floorf(view.x + view.w / 2), best_y + 4, t, (Color){255, 240, 210, 255}, LAYER_HUD_TEXT,
         TEXT_ALIGN_CENTER, 1);
}

static void draw_playing(const DrawFrame *f) {
    draw_hud(f->rd, f->a, f->v, f->g);
    draw_sign_text(f);
}

static void draw_paused(const DrawFrame *f) {
    Renderer *rd = f->rd;
    const DrawAssets *a = f->a;
    float cx = f->cx, cy = f->cy;
    draw_hud(rd, a, f->v, f->g);
    dim(rd, f->v, 140);
    card(rd, f->v, 170, 104);
    text(rd, a, cx, cy - 42, STR8_LIT("PAUSED"), CARD_GOLD, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
    static const char *const items[PAUSE_ITEM_COUNT] = {"Resume", "Restart level", "Settings", "Back to title"};
    for (int i = 0; i < PAUSE_ITEM_COUNT; i++)
        menu_row(f, cx, cy - 14 + (float)i * 14, st_str8_cstr(items[i]), i == f->g->menu, true, TEXT_ALIGN_CENTER);
}

/* Clear card over the dimmed level, then the fade to black and the load, then the new
   level's name card and the fade in. */
static void draw_transition(const DrawFrame *f) {
    Renderer *rd = f->rd;
    const DrawAssets *a = f->a;
    const Game *g = f->g;
    float cx = f->cx, cy = f->cy;
    int t = g->screen_ticks, fade = TRANSITION_OUT_TICKS - TRANSITION_CLEAR_TICKS;
    int alpha = t < TRANSITION_CLEAR_TICKS  ? 120 * t / TRANSITION_CLEAR_TICKS
                : t < TRANSITION_OUT_TICKS  ? 120 + 135 * (t - TRANSITION_CLEAR_TICKS) / fade
                : t < TRANSITION_TICKS - 24 ? 255
                                            : 255 * (TRANSITION_TICKS - t) / 24;
    dim(rd, f->v, (uint8_t)(alpha < 0 ? 0 : alpha > 255 ? 255 : alpha));
    if (t < TRANSITION_OUT_TICKS) {
        /* A clear a rewind went back into makes no record (rewind.h): nothing gold. */
        const SaveRecordResult *rec = g->clear_rewound ? &(SaveRecordResult){0} : &g->clear_record;
        card(rd, f->v, 190, 84);
        text(rd, a, cx, cy - 34, STR8_LIT("CLEAR!"), CARD_GOLD, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
        text(rd, a, cx, cy - 10, st_str8_fmt(f->frame, "time %.*s", STR8_FMT(fmt_time(f->frame, g->clear_ticks))),
             rec->best_time ? CARD_GOLD : COLOR_WHITE, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
        text(rd, a, cx, cy + 2, st_str8_fmt(f->frame, "coins %d of %d", g->clear_coins, g->clear_coins_total),
             g->clear_coins >= g->clear_coins_total || rec->best_coins ? CARD_GOLD : COLOR_WHITE, LAYER_CARD_TEXT,
             TEXT_ALIGN_CENTER, 1);
        Str8 note = g->clear_rewound ? STR8_LIT("rewound: not counted")
                    : rec->first     ? STR8_LIT("first clear")
                    : rec->best_time || rec->best_coins
                        ? STR8_LIT("new record!")
                        : st_str8_fmt(f->frame, "best %.*s", STR8_FMT(fmt_time(f->frame, g->clear_best_ticks)));
        text(rd, a, cx, cy + 18, note, rec->best_time || rec->best_coins ? (Color){140, 230, 140, 255} : CARD_SOFT,
             LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
    } else if (t < TRANSITION_TICKS - 12) {
        int num = catalog_file_number(g->sim.level_path);
        if (num > 0)
            text(rd, a, cx, cy - 20, st_str8_fmt(f->frame, "LEVEL %d", num), CARD_SOFT, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 1);
        text(rd, a, cx, cy - 6, st_str8_cstr(g->sim.level.name), CARD_GOLD, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
        /* Every level starts with full hearts (sim.h); say so when it made a difference. */
        if (g->clear_hurt)
            text(rd, a, cx, cy + 20, STR8_LIT("hearts refilled"), (Color){255, 140, 150, 255}, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 1);
    }
}

static void draw_game_over(const DrawFrame *f) {
    Renderer *rd = f->rd;
    const DrawAssets *a = f->a;
    const Game *g = f->g;
    float cx = f->cx, cy = f->cy;
    draw_hud(rd, a, f->v, g);
    if (g->screen_ticks <= GAME_OVER_DELAY / 2) return;
    dim(rd, f->v, 150);
    card(rd, f->v, 200, 80);
    st_render_cell(rd, a->sprites, SPR_SKULL, cx - 8, cy - 34, LAYER_CARD_TEXT, 0);
    text(rd, a, cx, cy - 14, STR8_LIT("YOU DIED"), (Color){255, 90, 90, 255}, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
    if (g->screen_ticks > GAME_OVER_DELAY && f->blink)
        text(rd, a, cx, cy + 14, STR8_LIT("Enter or R: try again, hearts full"), COLOR_WHITE, LAYER_CARD_TEXT,
             TEXT_ALIGN_CENTER, 1);
}

/* The run's summary: its own totals, not the last level's. */
static void draw_victory(const DrawFrame *f) {
    Renderer *rd = f->rd;
    const DrawAssets *a = f->a;
    const Game *g = f->g;
    float cx = f->cx, cy = f->cy;
    const PlayerProgress *p = &g->sim.progress;
    dim(rd, f->v, 170);
    card(rd, f->v, 250, 140);
    text(rd, a, cx, cy - 58, STR8_LIT("VICTORY!"), CARD_GOLD, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 3);
    text(rd, a, cx, cy - 20, st_str8_fmt(f->frame, "run time %.*s", STR8_FMT(fmt_time(f->frame, p->ticks))),
         COLOR_WHITE, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
    text(rd, a, cx, cy - 8,
         st_str8_fmt(f->frame, "levels %d    coins %d of %d", g->level_number, p->coins, g->run_coins_total),
         p->coins >= g->run_coins_total && g->run_coins_total > 0 ? CARD_GOLD : COLOR_WHITE, LAYER_CARD_TEXT,
         TEXT_ALIGN_CENTER, 1);
    text(rd, a, cx, cy + 4, st_str8_fmt(f->frame, "deaths %d    foes defeated %d", p->deaths, p->kills), COLOR_WHITE,
         LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
    text(rd, a, cx, cy + 20, st_str8_fmt(f->frame, "last level %.*s", STR8_FMT(fmt_time(f->frame, g->clear_ticks))),
         CARD_SOFT, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
    if (g->screen_ticks > SIM_HZ && f->blink)
        text(rd, a, cx, cy + 44, STR8_LIT("Enter: back to the title"), CARD_SOFT, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER,
             1);
}

static void (*const DRAW_SCREENS[])(const DrawFrame *f) = {
    [SCREEN_TITLE] = draw_title,
    [SCREEN_PLAYING] = draw_playing,
    [SCREEN_PAUSED] = draw_paused,
    [SCREEN_TRANSITION] = draw_transition,
    [SCREEN_GAME_OVER] = draw_game_over,
    [SCREEN_VICTORY] = draw_victory,
    [SCREEN_LEVEL_SELECT] = draw_level_select,
    [SCREEN_SETTINGS] = draw_settings,
};
_Static_assert(sizeof DRAW_SCREENS / sizeof DRAW_SCREENS[0] == SCREEN_COUNT, "every GameScreen is drawn");

/* Time running backwards (DrawView.rewind): the world washed blue, scan lines rolling up
   (the way a tape wound back looks), and the speed in the corner; at the oldest state the
   lines stand still and the corner says so. Below the HUD's bar, over the world and the
   cards: a rewind on the clear or the level card is seen as clearly as in play. */
static void draw_rewind(const DrawFrame *f) {
    const DrawView *v = f->v;
    if (!v->rewind) return;
    float w = view_right(v), top = DRAW_HUD_H, h = v->h - top;
    st_render_rect(f->rd, (RectF){0, top, w, h}, LAYER_REWIND, (Color){40, 90, 200, 70});
    int roll = v->rewind > 0 ? (int)(f->tick * (uint32_t)v->rewind % 6) : 0;
    for (float y = top + (float)(5 - roll); y < v->h; y += 6)
        st_render_rect(f->rd, (RectF){0, y, w, 1}, LAYER_REWIND, (Color){200, 230, 255, 40});
    Str8 label =
        v->rewind > 0 ? st_str8_fmt(f->frame, "<< REWIND %dx", v->rewind) : STR8_LIT("<< as far back as it goes");
    if (label.data)
        text(f->rd, f->a, 6, top + 4, label, (Color){190, 225, 255, 255}, LAYER_REWIND + 1, TEXT_ALIGN_LEFT, 1);
}

void draw_game(Renderer *rd, const DrawAssets *a, DrawView *v, const Game *g, const Effects *fx) {
    DrawFrame f = {.rd = rd,
                   .a = a,
                   .v = v,
                   .g = g,
                   .s = &g->sim,
                   .fx = fx,
                   .tick = g->ticks,
                   .frame = st_render_frame_arena(rd),
                   .cx = floorf(view_right(v) / 2),
                   .cy = v->h / 2,
                   .blink = (g->ticks / 30) % 2 == 0,
                   .sign_y = &v->sign_y};
    draw_world(&f);
    st_render_set_view(rd, 0, 0);
    draw_rewind(&f);
    if ((unsigned)g->screen < SCREEN_COUNT && DRAW_SCREENS[g->screen]) DRAW_SCREENS[g->screen](&f);
    /* Over every screen: a level that would not start, a screenshot saved from the title. */
    draw_message(rd, a, v, g);
}
