/* 09_sprites_text.c - sprites and text: a draw is a list of commands in the frame arena.

   The idea: st_render_* calls do not draw; they append a command (texture, rectangles,
   layer, tint) to the frame arena. st_render_end (the host calls it) sorts them by layer
   and texture and submits them in batches. So the draw order in code does not matter, the
   layer does, and a frame costs its commands' bytes in the frame arena, nothing on the heap.
   Look at: the textures loaded once into the permanent arena in start(), the layers (the
   shadows are drawn last in code but layer 1, under the actors), text measured to centre
   it, and the command count printed at the end.

   Run: ./09_sprites_text --headless --frames 90 --screenshot out.png */
#include "example.h"

enum { CELL = 16, SPR_PLAYER = 0, SPR_PATROLLER = 12, SPR_COIN = 18, SPR_HEART = 23, SPR_SHADOW = 29 };
enum { LAYER_FLOOR, LAYER_SHADOW, LAYER_ACTOR, LAYER_HUD };

typedef struct Game {
    Font font;
    Texture *sprites;
    uint64_t ticks;
    uint32_t commands; /* of the last frame */
} Game;

static void *create(Host *h, const void *options) {
    (void)options;
    return st_arena_push_struct(h->life.perm, Game);
}

static bool start(void *s, Host *h) {
    Game *g = s;
    Error err;
    g->sprites = st_asset_load_texture(h->rd, h->life.perm, EXAMPLE_ASSETS "/sprites.png", CELL, CELL, &err);
    if (!g->sprites) return st_error_report(&err), false;
    return example_font(h, &g->font);
}

static bool tick(void *s, Host *h) {
    (void)h;
    ((Game *)s)->ticks++;
    return true;
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)hh;
    Game *g = s;
    int step = (int)(g->ticks / 8 % 3); /* the player's walk: stand, left foot, right foot */
    float px = 40 + (float)(g->ticks % 240);
    st_render_rect(h->rd, (RectF){0, 100, w, 40}, LAYER_FLOOR, (Color){44, 40, 60, 255});
    st_render_cell(h->rd, g->sprites, SPR_PLAYER + 3 * 3 + step, px, 100, LAYER_ACTOR, 0); /* facing right */
    for (int i = 0; i < 4; i++) {
        float ex = 60 + i * 60.f;
        st_render_cell(h->rd, g->sprites, SPR_PATROLLER + (int)(g->ticks / 16 % 2), ex, 120, LAYER_ACTOR,
                       i & 1 ? RENDER_FLIP_X : 0);
        st_render_cell(h->rd, g->sprites, SPR_COIN + (int)((g->ticks / 10 + i) % 2), ex + 20, 104, LAYER_ACTOR, 0);
    }
    for (int i = 0; i < 3; i++) /* tinted copies of one sprite */
        st_render_sprite(h->rd, g->sprites, (RectF){SPR_HEART % 8 * CELL, SPR_HEART / 8 * CELL, CELL, CELL},
                         (RectF){8 + i * 18.f, 8, CELL, CELL}, LAYER_HUD,
                         i == 2 ? (Color){90, 90, 90, 255} : COLOR_WHITE, 0);
    Str8 title = STR8_LIT("Sprites and text");
    float tw = st_font_measure(&g->font, title, 2);
    st_font_draw(h->rd, &g->font, (w - tw) / 2, 40, title, (Color){255, 214, 120, 255}, LAYER_HUD, TEXT_ALIGN_LEFT, 2);
    st_font_drawf(h->rd, &g->font, 8, 160, COLOR_WHITE, LAYER_HUD, "tick %llu, %u commands last frame",
                  (unsigned long long)g->ticks, g->commands);
    /* Drawn last, shown under the actors: the layer decides, not the order. */
    st_render_cell(h->rd, g->sprites, SPR_SHADOW, px, 104, LAYER_SHADOW, 0);
    g->commands = st_render_command_count(h->rd);
}

static int release(void *s, Host *h) {
    Game *g = s;
    printf("%u draw commands a frame; frame arena peak %llu bytes\n", g->commands,
           (unsigned long long)st_arena_stats(h->life.frame).peak);
    return 0;
}

static const GameApi API = {
    EXAMPLE_API_DEFAULTS, .name = "09_sprites_text", .create = create, .start = start, .tick = tick,
    .draw = draw,         .release = release};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
