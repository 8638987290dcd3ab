/* draw.c - the game's picture (see draw.h). */
#include "draw.h"

#include "../assets/atlas.h"

#define PX(fix) ((float)(fix) / (float)FIX_ONE)

/* The game's facings onto the art's (assets/atlas.h), here and nowhere else. The player has
   a row of cells per atlas Facing; enemy art faces right and is mirrored to face left. */
static Facing atlas_facing(Facing8 f) {
    static const uint8_t face[8] = {[FACE_E] = FACING_RIGHT, [FACE_SE] = FACING_RIGHT, [FACE_S] = FACING_DOWN,
                                    [FACE_SW] = FACING_LEFT, [FACE_W] = FACING_LEFT,   [FACE_NW] = FACING_LEFT,
                                    [FACE_N] = FACING_UP,    [FACE_NE] = FACING_RIGHT};
    return (unsigned)f < 8 ? (Facing)face[f] : FACING_DOWN;
}
static uint32_t enemy_flip(Dir4 d) { return d == DIR4_LEFT ? RENDER_FLIP_X : 0; }

static const Color KEY_COLORS[KEY_COLOR_COUNT] = {{230, 70, 70, 255}, {80, 210, 100, 255}, {80, 140, 255, 255}};

DrawView draw_view_make(float w, float h) {
    /* The HUD bar is opaque and the world lives below it: otherwise the top row of a tall
       level, the player's spawn included, is hidden under the bar, and a level a little
       shorter than the screen is centred on the screen instead of on what is visible. */
    DrawView v = {.cam = camera_make(w, h), .w = w, .h = h};
    camera_set_viewport(&v.cam, 0, DRAW_HUD_H, w, h - DRAW_HUD_H);
    return v;
}

void draw_view_update(DrawView *v, const Game *g) {
    const Level *lv = &g->sim.level;
    vec2 target = {PX(g->sim.player.x), PX(g->sim.player.y)};
    if (g->sim.level_serial != v->level_serial) {
        v->level_serial = g->sim.level_serial;
        camera_set_bounds(&v->cam, 0, 0, (float)(lv->width * TILE_PX), (float)(lv->height * TILE_PX));
        camera_snap(&v->cam, target);
    } else {
        camera_follow(&v->cam, target, 0.12f);
    }
}

static uint32_t hash2(int32_t x, int32_t y) {
    uint32_t h = (uint32_t)x * 374761393u + (uint32_t)y * 668265263u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return h ^ (h >> 16);
}

static int tile_sprite(const Level *lv, int32_t tx, int32_t ty, uint32_t tick) {
    switch (level_tile(lv, tx, ty)) {
    case TILE_WALL: return level_tile(lv, tx, ty + 1) == TILE_WALL ? TS_WALL : TS_WALL_FACE;
    case TILE_WATER: return ((tick / 30 + (uint32_t)(tx + ty)) & 1) ? TS_WATER_1 : TS_WATER_0;
    case TILE_SPIKES: return TS_SPIKES;
    case TILE_DOOR: {
        const LevelDoor *d = level_door_at(lv, tx, ty);
        return TS_DOOR_RED + (d ? (int)d->color : 0);
    }
    case TILE_EXIT: return TS_EXIT;
    case TILE_PORTAL: return ((tick / 15) & 1) ? TS_PORTAL_1 : TS_PORTAL_0;
    default: {
        const LevelDoor *d = level_door_at(lv, tx, ty);
        if (d && d->open) return TS_DOOR_OPEN;
        uint32_t h = hash2(tx, ty) % 16;
        return h < 10 ? TS_FLOOR_0 : h < 13 ? TS_FLOOR_1 : h < 15 ? TS_FLOOR_2 : TS_FLOOR_3;
    }
    }
}

static void cell_tinted(Renderer *rd, const Texture *tex, int idx, float x, float y, int layer,
                        Color tint, uint32_t flip) {
    RectF src = {(float)((idx % tex->cols) * tex->cell_w), (float)((idx / tex->cols) * tex->cell_h),
                 (float)tex->cell_w, (float)tex->cell_h};
    render_sprite(rd, tex, src, (RectF){x, y, (float)tex->cell_w, (float)tex->cell_h}, layer, tint, flip);
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

static void draw_world(Renderer *rd, const DrawAssets *a, DrawView *v, const Game *g, const Effects *fx) {
    const Sim *s = &g->sim;
    const Level *lv = &s->level;
    uint32_t tick = g->ticks;
    float shake_x = fx ? (float)fx->shake_x : 0, shake_y = fx ? (float)fx->shake_y : 0;
    render_set_view(rd, camera_view_x(&v->cam) + shake_x, camera_view_y(&v->cam) + shake_y);

    int x0, y0, x1, y1;
    camera_tile_range(&v->cam, TILE_PX, &x0, &y0, &x1, &y1);
    x0 -= 1, y0 -= 1; /* shake may reveal one more tile */
    if (x1 + 1 < lv->width) x1 += 1; else x1 = lv->width;
    if (y1 + 1 < lv->height) y1 += 1; else y1 = lv->height;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    for (int ty = y0; ty < y1; ty++)
        for (int tx = x0; tx < x1; tx++) {
            TileKind k = level_tile(lv, tx, ty);
            render_cell(rd, a->tiles, tile_sprite(lv, tx, ty, tick), (float)(tx * TILE_PX),
                        (float)(ty * TILE_PX), k == TILE_WALL ? LAYER_WALL : LAYER_FLOOR, 0);
        }

    /* The exit is the goal: a slow gold pulse over it, visible from across the room. */
    int pulse = (int)(tick % 72);
    pulse = pulse < 36 ? pulse : 72 - pulse; /* 0..36..0 */
    for (int ty = y0; ty < y1; ty++)
        for (int tx = x0; tx < x1; tx++) {
            if (level_tile(lv, tx, ty) != TILE_EXIT) continue;
            /* The stairs drawn again over themselves, brightened and fading in and out, and a
               spark bobbing above. Sprites, not rects: translucent rects here made SDL's
               software renderer allocate during play (test_app_alloc counts them). */
            cell_tinted(rd, a->tiles, TS_EXIT, (float)(tx * TILE_PX), (float)(ty * TILE_PX) - 1,
                        LAYER_GOAL, (Color){255, 236, 170, (uint8_t)(pulse * 5)}, 0);
            cell_tinted(rd, a->sprites, SPR_SPARK, (float)(tx * TILE_PX),
                        (float)(ty * TILE_PX) - 6 - (float)(pulse / 9), LAYER_PARTICLE, (Color){255, 224, 140, (uint8_t)(90 + pulse * 4)}, 0);
        }

    for (int32_t i = 0; i < lv->pickup_count; i++) {
        const Pickup *p = &lv->pickups[i];
        if (p->taken) continue;
        float x = (float)(p->tx * TILE_PX), y = (float)(p->ty * TILE_PX);
        if (!camera_visible(&v->cam, x, y, TILE_PX, TILE_PX)) continue;
        float bob = ((tick / 10 + (uint32_t)i) % 4 == 1) ? -1.0f : 0.0f;
        int spr = p->kind == PICKUP_COIN ? SPR_COIN + (int)((tick / 12 + (uint32_t)i) % 2)
                  : p->kind == PICKUP_KEY ? SPR_KEY_RED + (int)p->color
                                          : SPR_HEART;
        render_cell(rd, a->sprites, SPR_SHADOW, x, y + 2, LAYER_SHADOW, 0);
        render_cell(rd, a->sprites, spr, x, y + bob, LAYER_PICKUP, 0);
    }

    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &lv->enemies[i];
        if (!e->alive) continue;
        float x = PX(e->x) - 8, y = PX(e->y) - 8;
        if (!camera_visible(&v->cam, x, y, 16, 16)) continue;
        int spr = e->kind == ENEMY_PATROLLER ? SPR_PATROLLER + (int)((tick / 12) % 2)
                  : e->kind == ENEMY_CHASER  ? SPR_CHASER + (e->state ? (int)((tick / 6) % 2) : 0)
                                             : SPR_TURRET + turret_visor(e, tick);
        Color tint = COLOR_WHITE;
        int32_t flash = fx ? effects_enemy_flash(fx, i) : 0;
        if (flash > 0 && (flash / 2) % 2 == 0) tint = (Color){255, 90, 90, 255};
        else if (sim_turret_aiming(e) && !sim_turret_armed(e) && (tick / 4) % 2 == 0)
            tint = (Color){255, 170, 120, 255}; /* warming up: the whole turret glows */
        uint32_t flip = enemy_flip((Dir4)e->facing);
        render_cell(rd, a->sprites, SPR_SHADOW, x, y + 3, LAYER_SHADOW, 0);
        cell_tinted(rd, a->sprites, spr, x, y, actor_layer(v, y + 16), tint, flip);
        bool warn = sim_turret_aiming(e) && !sim_turret_armed(e);
        if (warn)
            render_text(rd, &a->font, x + 8, y - 10, STR8_LIT("!"), (Color){255, 120, 80, 255},
                        LAYER_PARTICLE, TEXT_ALIGN_CENTER, 1);
        if (e->kind == ENEMY_CHASER && e->state && e->timer > CHASER_MEMORY_TICKS - 40)
            render_text(rd, &a->font, x + 8, y - 10, STR8_LIT("!"), (Color){255, 220, 80, 255},
                        LAYER_PARTICLE, TEXT_ALIGN_CENTER, 1);
    }

    const Player *pl = &s->player;
    if (!pl->dead && !(pl->invuln > 0 && (pl->invuln / 4) % 2 == 1)) {
        int frame = pl->moving ? 1 + (pl->walk_ticks / 8) % 2 : 0;
        float x = PX(pl->x) - 8, y = PX(pl->y) - 10;
        render_cell(rd, a->sprites, SPR_SHADOW, x, y + 5, LAYER_SHADOW, 0);
        int cell = SPR_PLAYER + (int)atlas_facing((Facing8)pl->facing) * PLAYER_FRAMES + frame;
        render_cell(rd, a->sprites, cell, x, y, LAYER_PLAYER, 0);
    }

    for (int32_t i = 0; i < lv->bullet_cap; i++) {
        const Bullet *b = &lv->bullets[i];
        if (!b->alive) continue;
        float x = PX(b->x) - 8, y = PX(b->y) - 8;
        if (!camera_visible(&v->cam, x, y, 16, 16)) continue;
        render_cell(rd, a->sprites, b->from_player ? SPR_BULLET_PLAYER : SPR_BULLET_ENEMY, x, y,
                    LAYER_BULLET, 0);
    }
    for (int32_t i = 0; i < lv->particle_cap; i++) {
        const Particle *p = &lv->particles[i];
        if (!p->alive) continue;
        float x = PX(p->x) - 8, y = PX(p->y) - 8;
        if (!camera_visible(&v->cam, x, y, 16, 16)) continue;
        uint32_t c = p->color;
        int alpha = p->max_ttl > 0 ? 255 * p->ttl / p->max_ttl : 255;
        Color tint = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)alpha};
        cell_tinted(rd, a->sprites, p->ttl > p->max_ttl / 2 ? SPR_SPARK : SPR_PARTICLE, x, y,
                    LAYER_PARTICLE, tint, 0);
    }
}

static void text(Renderer *rd, const DrawAssets *a, float x, float y, Str8 s, Color c, int layer,
                 TextAlign al, float scale) {
    /* A one-pixel drop shadow keeps text readable on any tile. */
    render_text(rd, &a->font, x + scale, y + scale, s, (Color){10, 8, 16, c.a}, layer, al, scale);
    render_text(rd, &a->font, x, y, s, c, layer + 1, al, scale);
}

/* The level's own number, from its file name ("07-the-vault.lvl" -> 7), so a run started
   with --level on the seventh level does not call it "1."; 0 when the name has none. */
static int level_file_number(const char *path) {
    if (!path) return 0;
    const char *base = path;
    for (const char *c = path; *c; c++)
        if (*c == '/') base = c + 1;
    int n = 0, digits = 0;
    while (base[digits] >= '0' && base[digits] <= '9' && digits < 4) n = n * 10 + (base[digits++] - '0');
    return digits > 0 && (base[digits] == '-' || base[digits] == '_' || base[digits] == '.') ? n : 0;
}

static int32_t level_coin_total(const Level *lv) {
    int32_t n = 0;
    for (int32_t i = 0; i < lv->pickup_count; i++) n += lv->pickups[i].kind == PICKUP_COIN;
    return n;
}

static void draw_hud(Renderer *rd, const DrawAssets *a, const DrawView *v, const Game *g) {
    const Sim *s = &g->sim;
    const PlayerProgress *p = &s->progress;
    Arena *frame = render_frame_arena(rd);
    render_rect(rd, (RectF){0, 0, v->w, DRAW_HUD_H}, LAYER_HUD, (Color){12, 10, 20, 255});
    /* Hearts, coins and keys sit on the right: the F1 overlay covers the top-left corner. */
    float x = v->w - 2.0f - (float)p->max_hearts * 14;
    for (int i = 0; i < p->max_hearts; i++)
        render_cell(rd, a->sprites, i < p->hearts ? SPR_HEART : SPR_HEART_EMPTY, x + (float)i * 14, 1,
                    LAYER_HUD + 1, 0);
    /* Coins of this level out of its total: what is left to find here. */
    int32_t got = p->coins - s->progress_entry.coins, total = level_coin_total(&s->level);
    x -= 58;
    render_cell(rd, a->sprites, SPR_COIN, x, 1, LAYER_HUD + 1, 0);
    text(rd, a, x + 16, 5, str8_fmt(frame, "%d/%d", got, total),
         got >= total && total > 0 ? (Color){255, 214, 120, 255} : COLOR_WHITE, LAYER_HUD_TEXT,
         TEXT_ALIGN_LEFT, 1);
    for (int k = KEY_COLOR_COUNT - 1; k >= 0; k--) {
        if (p->keys[k] <= 0) continue;
        x -= 20;
        render_cell(rd, a->sprites, SPR_KEY_RED + k, x, 1, LAYER_HUD + 1, 0);
        if (p->keys[k] > 1)
            text(rd, a, x + 14, 8, str8_fmt(frame, "%d", p->keys[k]), KEY_COLORS[k], LAYER_HUD_TEXT,
                 TEXT_ALIGN_LEFT, 1);
    }
    uint32_t secs = p->ticks / SIM_HZ;
    text(rd, a, v->w / 2, 5, str8_fmt(frame, "%u:%02u", secs / 60, secs % 60),
         (Color){190, 190, 210, 255}, LAYER_HUD_TEXT, TEXT_ALIGN_CENTER, 1);
    const char *name = s->level.name ? s->level.name : "";
    int num = level_file_number(s->level_path);
    text(rd, a, 4, 5, num > 0 ? str8_fmt(frame, "%d. %s", num, name) : str8_cstr(name),
         (Color){255, 230, 150, 255}, LAYER_HUD_TEXT, TEXT_ALIGN_LEFT, 1);
    if (g->message_ticks > 0) {
        render_rect(rd, (RectF){0, v->h - 14, v->w, 14}, LAYER_HUD, (Color){90, 20, 30, 220});
        text(rd, a, 4, v->h - 12, str8_cstr(g->message), COLOR_WHITE, LAYER_HUD_TEXT, TEXT_ALIGN_LEFT, 1);
    }
}

static void dim(Renderer *rd, const DrawView *v, uint8_t alpha) {
    render_rect(rd, (RectF){0, 0, v->w, v->h}, LAYER_FADE, (Color){8, 6, 14, alpha});
}

static void card(Renderer *rd, const DrawView *v, float w, float h) {
    RectF r = {(v->w - w) / 2, (v->h - h) / 2, w, h};
    render_rect(rd, r, LAYER_CARD, (Color){24, 20, 40, 235});
    render_rect_outline(rd, r, LAYER_CARD + 1, (Color){255, 214, 120, 255});
}

void draw_game(Renderer *rd, const DrawAssets *a, DrawView *v, const Game *g, const Effects *fx) {
    draw_world(rd, a, v, g, fx);
    render_set_view(rd, 0, 0);
    Arena *frame = render_frame_arena(rd);
    float cx = v->w / 2, cy = v->h / 2;
    const Color gold = {255, 214, 120, 255}, soft = {200, 200, 220, 255};
    bool blink = (g->ticks / 30) % 2 == 0;
    switch (g->screen) {
    case SCREEN_TITLE:
        dim(rd, v, 170);
        text(rd, a, cx, cy - 70, STR8_LIT("ARENA DUNGEON"), gold, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 4);
        text(rd, a, cx, cy - 22, STR8_LIT("seven rooms, one arena each"), soft, LAYER_CARD_TEXT,
             TEXT_ALIGN_CENTER, 1);
        text(rd, a, cx, cy - 8, STR8_LIT("find the stairs down in every room"), gold, LAYER_CARD_TEXT,
             TEXT_ALIGN_CENTER, 1);
        text(rd, a, cx, cy + 10, STR8_LIT("move: WASD / arrows    fire: Space / J"), soft,
             LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
        text(rd, a, cx, cy + 22, STR8_LIT("pause: Esc / P    restart: R    debug: F1"), soft,
             LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
        if (g->save.furthest[0])
            text(rd, a, cx, cy + 40, str8_fmt(frame, "furthest so far: %s", g->save.furthest),
                 (Color){150, 200, 150, 255}, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
        if (blink)
            text(rd, a, cx, cy + 62, STR8_LIT("press Enter to start"), COLOR_WHITE, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 2);
        if (g->save_notice[0])
            text(rd, a, cx, v->h - 16, str8_cstr(g->save_notice), (Color){255, 150, 120, 255}, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 1);
        break;
    case SCREEN_PLAYING: draw_hud(rd, a, v, g); break;
    case SCREEN_PAUSED: {
        draw_hud(rd, a, v, g);
        dim(rd, v, 140);
        card(rd, v, 160, 90);
        text(rd, a, cx, cy - 36, STR8_LIT("PAUSED"), gold, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
        static const char *items[PAUSE_ITEM_COUNT] = {"Resume", "Restart level", "Quit"};
        for (int i = 0; i < PAUSE_ITEM_COUNT; i++) {
            bool sel = i == g->menu;
            text(rd, a, cx, cy - 8 + (float)i * 14,
                 sel ? str8_fmt(frame, "> %s <", items[i]) : str8_cstr(items[i]),
                 sel ? COLOR_WHITE : soft, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
        }
        break;
    }
    case SCREEN_TRANSITION: {
        /* Clear card over the dimmed level, then the fade to black and the load, then the new
           level's name card and the fade in. */
        int t = g->screen_ticks, fade = TRANSITION_OUT_TICKS - TRANSITION_CLEAR_TICKS;
        int alpha = t < TRANSITION_CLEAR_TICKS ? 120 * t / TRANSITION_CLEAR_TICKS
                    : t < TRANSITION_OUT_TICKS ? 120 + 135 * (t - TRANSITION_CLEAR_TICKS) / fade
                    : t < TRANSITION_TICKS - 24 ? 255
                                                : 255 * (TRANSITION_TICKS - t) / 24;
        dim(rd, v, (uint8_t)(alpha < 0 ? 0 : alpha > 255 ? 255 : alpha));
        if (t < TRANSITION_OUT_TICKS) {
            uint32_t secs = g->clear_ticks / SIM_HZ;
            card(rd, v, 180, 64);
            text(rd, a, cx, cy - 24, STR8_LIT("CLEAR!"), gold, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 2);
            text(rd, a, cx, cy, str8_fmt(frame, "time %u:%02u.%02u", secs / 60, secs % 60,
                                         (g->clear_ticks % SIM_HZ) * 100 / SIM_HZ),
                 COLOR_WHITE, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
            text(rd, a, cx, cy + 12, str8_fmt(frame, "coins %d/%d", g->clear_coins, g->clear_coins_total),
                 g->clear_coins >= g->clear_coins_total ? gold : COLOR_WHITE, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 1);
        } else if (t < TRANSITION_TICKS - 12) {
            int num = level_file_number(g->sim.level_path);
            if (num > 0)
                text(rd, a, cx, cy - 20, str8_fmt(frame, "LEVEL %d", num), soft, LAYER_CARD_TEXT,
                     TEXT_ALIGN_CENTER, 1);
            text(rd, a, cx, cy - 6, str8_cstr(g->sim.level.name), gold, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 2);
        }
        break;
    }
    case SCREEN_GAME_OVER:
        draw_hud(rd, a, v, g);
        if (g->screen_ticks > GAME_OVER_DELAY / 2) {
            dim(rd, v, 150);
            card(rd, v, 200, 80);
            render_cell(rd, a->sprites, SPR_SKULL, cx - 8, cy - 34, LAYER_CARD_TEXT, 0);
            text(rd, a, cx, cy - 14, STR8_LIT("YOU DIED"), (Color){255, 90, 90, 255}, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 2);
            if (g->screen_ticks > GAME_OVER_DELAY && blink)
                text(rd, a, cx, cy + 14, STR8_LIT("Enter or R: try again"), COLOR_WHITE, LAYER_CARD_TEXT,
                     TEXT_ALIGN_CENTER, 1);
        }
        break;
    case SCREEN_VICTORY: {
        const PlayerProgress *p = &g->sim.progress;
        uint32_t secs = p->ticks / SIM_HZ;
        dim(rd, v, 170);
        card(rd, v, 240, 130);
        text(rd, a, cx, cy - 52, STR8_LIT("VICTORY!"), gold, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 3);
        text(rd, a, cx, cy - 14,
             str8_fmt(frame, "time %u:%02u.%02u", secs / 60, secs % 60, (p->ticks % SIM_HZ) * 100 / SIM_HZ),
             COLOR_WHITE, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
        text(rd, a, cx, cy - 2, str8_fmt(frame, "coins %d", p->coins), COLOR_WHITE, LAYER_CARD_TEXT,
             TEXT_ALIGN_CENTER, 1);
        text(rd, a, cx, cy + 10, str8_fmt(frame, "deaths %d   foes defeated %d", p->deaths, p->kills),
             COLOR_WHITE, LAYER_CARD_TEXT, TEXT_ALIGN_CENTER, 1);
        if (g->screen_ticks > SIM_HZ && blink)
            text(rd, a, cx, cy + 38, STR8_LIT("Enter: back to the title"), soft, LAYER_CARD_TEXT,
                 TEXT_ALIGN_CENTER, 1);
        break;
    }
    }
}
