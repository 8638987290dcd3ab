/* draw.c - breakout's picture (draw.h). */
#include "draw.h"

#include <strata/core/base.h>

enum { LAYER_BACK, LAYER_FRAME, LAYER_BRICKS, LAYER_DEBRIS, LAYER_ACTORS, LAYER_HUD = 10, LAYER_DIM = 20, LAYER_TEXT };

/* By brick kind: the colour rows from the bottom up (purple to red), silver, gold. */
static const Color BRICK_COLORS[9] = {
    {0, 0, 0, 0},        {156, 89, 209, 255}, {64, 160, 235, 255},  {76, 201, 106, 255}, {247, 211, 67, 255},
    {247, 145, 54, 255}, {232, 72, 72, 255},  {190, 198, 210, 255}, {226, 178, 54, 255},
};

static Color shade(Color c, int num, int den) {
    return (Color){(uint8_t)MIN(255, c.r * num / den), (uint8_t)MIN(255, c.g * num / den),
                   (uint8_t)MIN(255, c.b * num / den), c.a};
}

static void rect(Renderer *rd, float x, float y, float w, float h, int layer, Color c) {
    st_render_rect(rd, (RectF){x, y, w, h}, layer, c);
}

/* Text with a one-pixel shadow, for legibility over anything. */
static void text(Renderer *rd, const Font *f, float x, float y, const char *s, Color c, TextAlign al, float scale) {
    Str8 t = st_str8_cstr(s);
    st_font_draw(rd, f, x + scale, y + scale, t, (Color){10, 8, 24, 200}, LAYER_TEXT, al, scale);
    st_font_draw(rd, f, x, y, t, c, LAYER_TEXT, al, scale);
}

/* The walls end at the picture's edge: the engine cuts a rect that reaches past it before
   SDL's software renderer sees it (render.h, "Heap"), but a picture that fits is what was meant. */
static void background(Renderer *rd) {
    for (int i = 0; i < SIM_H / 4; i++) {
        int t = i * 255 / (SIM_H / 4);
        rect(rd, 0, (float)i * 4, SIM_W, 4, LAYER_BACK,
             (Color){(uint8_t)(18 + t / 10), (uint8_t)(16 + t / 20), (uint8_t)(44 + t / 6), 255});
    }
    Color steel = {92, 102, 130, 255}, light = {150, 162, 190, 255};
    rect(rd, 0, SIM_FIELD_Y0 - 6, SIM_FIELD_X0, SIM_H - SIM_FIELD_Y0 + 6, LAYER_FRAME, steel);
    rect(rd, SIM_FIELD_X1, SIM_FIELD_Y0 - 6, SIM_W - SIM_FIELD_X1, SIM_H - SIM_FIELD_Y0 + 6, LAYER_FRAME, steel);
    rect(rd, 0, SIM_FIELD_Y0 - 6, SIM_W, 6, LAYER_FRAME, steel);
    rect(rd, SIM_FIELD_X0 - 1, SIM_FIELD_Y0 - 1, 1, SIM_H - SIM_FIELD_Y0 + 1, LAYER_FRAME, light);
    rect(rd, SIM_FIELD_X1, SIM_FIELD_Y0 - 1, 1, SIM_H - SIM_FIELD_Y0 + 1, LAYER_FRAME, light);
    rect(rd, SIM_FIELD_X0 - 1, SIM_FIELD_Y0 - 1, SIM_FIELD_X1 - SIM_FIELD_X0 + 2, 1, LAYER_FRAME, light);
    for (int y = SIM_FIELD_Y0 + 10; y < SIM_H; y += 24) { /* rivets */
        rect(rd, 4, (float)y, 2, 2, LAYER_FRAME, light);
        rect(rd, SIM_W - 6, (float)y, 2, 2, LAYER_FRAME, light);
    }
}

static void brick(Renderer *rd, float x, float y, uint8_t kind, uint8_t hp) {
    Color c = BRICK_COLORS[kind];
    if (kind == BRICK_SILVER && hp == 1) c = shade(c, 3, 4);
    rect(rd, x, y, SIM_BRICK_W - 1, SIM_BRICK_H - 1, LAYER_BRICKS, c);
    rect(rd, x, y, SIM_BRICK_W - 1, 1, LAYER_BRICKS, shade(c, 5, 4));
    rect(rd, x, y + SIM_BRICK_H - 2, SIM_BRICK_W - 1, 1, LAYER_BRICKS, shade(c, 2, 3));
    if (kind >= BRICK_SILVER) rect(rd, x + 2, y + 2, 3, 1, LAYER_BRICKS, (Color){255, 255, 255, 200});
}

static void wall(Renderer *rd, const Wall *w) {
    for (int r = 0; r < SIM_ROWS; r++)
        for (int c = 0; c < SIM_COLS; c++)
            if (w->kind[r][c])
                brick(rd, (float)(SIM_FIELD_X0 + c * SIM_BRICK_W), (float)(SIM_WALL_Y + r * SIM_BRICK_H), w->kind[r][c],
                      w->hp[r][c]);
}

static void paddle(Renderer *rd, float x, float y) {
    Color body = {214, 220, 236, 255}, cap = {220, 70, 80, 255};
    rect(rd, x + 4, y, SIM_PADDLE_W - 8, SIM_PADDLE_H, LAYER_ACTORS, body);
    rect(rd, x + 4, y, SIM_PADDLE_W - 8, 1, LAYER_ACTORS, COLOR_WHITE);
    rect(rd, x + 4, y + SIM_PADDLE_H - 1, SIM_PADDLE_W - 8, 1, LAYER_ACTORS, shade(body, 2, 3));
    rect(rd, x, y + 1, 4, SIM_PADDLE_H - 2, LAYER_ACTORS, cap);
    rect(rd, x + SIM_PADDLE_W - 4, y + 1, 4, SIM_PADDLE_H - 2, LAYER_ACTORS, cap);
    rect(rd, x + 1, y, 3, 1, LAYER_ACTORS, cap);
    rect(rd, x + SIM_PADDLE_W - 4, y, 3, 1, LAYER_ACTORS, cap);
}

static void actors(Renderer *rd, const Sim *s) {
    paddle(rd, (float)(s->paddle_x / SIM_FP), SIM_PADDLE_Y);
    float bx = (float)(s->ball_x / SIM_FP), by = (float)(s->ball_y / SIM_FP);
    if ((s->screen == SIM_PLAY || s->screen == SIM_SERVE) && by + SIM_BALL <= SIM_H) {
        rect(rd, bx + 1, by, 2, 4, LAYER_ACTORS, COLOR_WHITE);
        rect(rd, bx, by + 1, 4, 2, LAYER_ACTORS, COLOR_WHITE);
    }
    for (int i = 0; i < SIM_PARTICLES; i++) {
        const Particle *p = &s->particles[i];
        float x = (float)(p->x / SIM_FP), y = (float)(p->y / SIM_FP);
        if (!p->life || x < 0 || y < 0 || x + 2 > SIM_W || y + 2 > SIM_H) continue;
        Color c = BRICK_COLORS[p->kind];
        c.a = (uint8_t)MIN(255, p->life * 8);
        rect(rd, x, y, 2, 2, LAYER_DEBRIS, c);
    }
}

static void hud(Renderer *rd, const Font *f, const Sim *s, const char *badge) {
    Color gold = {255, 214, 120, 255};
    st_font_drawf(rd, f, 4, 3, gold, LAYER_HUD, "SCORE %06d", s->score);
    st_font_drawf(rd, f, 96, 3, COLOR_WHITE, LAYER_HUD, "BEST %06d", s->best);
    if (s->wall && s->screen != SIM_TITLE)
        st_font_drawf(rd, f, 180, 3, COLOR_WHITE, LAYER_HUD, "LEVEL %d %s", s->level + 1 + s->loop * sim_level_count(),
                      s->wall->name);
    for (int i = 0; i < s->lives - (s->screen != SIM_SERVE && s->screen != SIM_PLAY ? 0 : 1) && i < 6; i++) {
        rect(rd, (float)(SIM_W - 16 - i * 14), 4, 12, 4, LAYER_HUD, (Color){214, 220, 236, 255});
        rect(rd, (float)(SIM_W - 16 - i * 14), 5, 2, 2, LAYER_HUD, (Color){220, 70, 80, 255});
        rect(rd, (float)(SIM_W - 6 - i * 14), 5, 2, 2, LAYER_HUD, (Color){220, 70, 80, 255});
    }
    if (badge)
        st_font_draw(rd, f, SIM_W - 14, SIM_H - 10, st_str8_cstr(badge), (Color){255, 255, 255, 120}, LAYER_HUD,
                     TEXT_ALIGN_RIGHT, 1);
}

static void dim(Renderer *rd, float y, float h) { rect(rd, 0, y, SIM_W, h, LAYER_DIM, (Color){8, 6, 20, 190}); }

static void title(Renderer *rd, const Font *f, const Sim *s) {
    for (int r = 0; r < 6; r++) /* a rainbow wall behind the name */
        for (int c = 0; c < SIM_COLS; c++)
            if ((r + c) % 3)
                brick(rd, (float)(SIM_FIELD_X0 + c * SIM_BRICK_W), (float)(SIM_WALL_Y + r * SIM_BRICK_H),
                      (uint8_t)(6 - r), 1);
    dim(rd, 40, 34);
    text(rd, f, SIM_W / 2, 44, "BREAKOUT", (Color){255, 214, 120, 255}, TEXT_ALIGN_CENTER, 3);
    text(rd, f, SIM_W / 2, 104, "A LITTLE GAME ON THE STRATA ENGINE", (Color){180, 190, 230, 255}, TEXT_ALIGN_CENTER,
         1);
    if (s->tick / 30 % 2 == 0)
        text(rd, f, SIM_W / 2, 124, "PRESS SPACE OR (A) TO PLAY", COLOR_WHITE, TEXT_ALIGN_CENTER, 1);
    text(rd, f, SIM_W / 2, 140, "ARROWS/A-D MOVE   SPACE LAUNCH   P PAUSE", (Color){150, 160, 200, 255},
         TEXT_ALIGN_CENTER, 1);
    paddle(rd, SIM_W / 2 - SIM_PADDLE_W / 2, SIM_PADDLE_Y);
}

static void banners(Renderer *rd, const Font *f, const Sim *s) {
    Color gold = {255, 214, 120, 255};
    if (s->paused) {
        dim(rd, 104, 22);
        text(rd, f, SIM_W / 2, 108, "PAUSED", COLOR_WHITE, TEXT_ALIGN_CENTER, 2);
    } else if (s->screen == SIM_SERVE && s->tick / 30 % 2 == 0) {
        text(rd, f, SIM_W / 2, 130, "SPACE TO LAUNCH", COLOR_WHITE, TEXT_ALIGN_CENTER, 1);
    } else if (s->screen == SIM_CLEAR) {
        dim(rd, 100, 30);
        text(rd, f, SIM_W / 2, 104, "LEVEL CLEAR!", gold, TEXT_ALIGN_CENTER, 2);
        text(rd, f, SIM_W / 2, 120, "GET READY...", COLOR_WHITE, TEXT_ALIGN_CENTER, 1);
    } else if (s->screen == SIM_OVER) {
        dim(rd, 70, 60);
        text(rd, f, SIM_W / 2, 76, "GAME OVER", (Color){232, 72, 72, 255}, TEXT_ALIGN_CENTER, 3);
        Str8 line = st_str8_fmt(st_render_frame_arena(rd), "SCORE %d   BEST %d", s->score, s->best);
        text(rd, f, SIM_W / 2, 104, line.data ? line.data : "", gold, TEXT_ALIGN_CENTER, 1);
        if (s->timer == 0 && s->tick / 30 % 2 == 0)
            text(rd, f, SIM_W / 2, 116, "PRESS SPACE", COLOR_WHITE, TEXT_ALIGN_CENTER, 1);
    }
}

void draw_frame(Renderer *rd, const Font *font, const Sim *s, const char *badge) {
    background(rd);
    if (s->screen == SIM_TITLE) {
        title(rd, font, s);
        hud(rd, font, s, badge);
        return;
    }
    if (s->wall) wall(rd, s->wall);
    actors(rd, s);
    hud(rd, font, s, badge);
    banners(rd, font, s);
}
