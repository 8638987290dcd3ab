/* engine_test.h - shared set-up for the headless engine tests: arenas, a platform on SDL's
   software renderer, the renderer and the three atlases from the assets dir in argv[1]. */
#ifndef ENGINE_TEST_H
#define ENGINE_TEST_H

#include <stdio.h>

#include "check.h"
#include "asset/asset.h"
#include "platform/platform.h"
#include "render/render.h"
#include "../../assets/atlas.h"

typedef struct TestEngine {
    Arena *perm, *frame;
    Platform *pf;
    Renderer *rd;
    Texture *tiles, *sprites, *font_tex;
    Font font;
} TestEngine;

static inline bool test_engine_open(TestEngine *t, const char *asset_dir) {
    t->perm = arena_create((ArenaParams){.name = "perm"});
    t->frame = arena_create((ArenaParams){.name = "frame"});
    if (!t->perm || !t->frame) return false;
    t->pf = platform_create(t->perm, &(PlatformDesc){.headless = true});
    if (!t->pf) return false;
    int w, h;
    platform_logical_size(t->pf, &w, &h);
    t->rd = render_create(t->perm, platform_renderer(t->pf), w, h);
    if (!t->rd) return false;
    AssetError err;
    const char *names[3] = {"tiles.png", "sprites.png", "font.png"};
    Texture **out[3] = {&t->tiles, &t->sprites, &t->font_tex};
    int cw[3] = {TILE_CELL, SPRITE_CELL, FONT_CELL_W};
    int ch[3] = {TILE_CELL, SPRITE_CELL, FONT_CELL_H};
    for (int i = 0; i < 3; i++) {
        *out[i] = asset_load_texture(t->rd, t->perm, asset_path(t->perm, asset_dir, names[i]),
                                     cw[i], ch[i], &err);
        if (!*out[i]) {
            fprintf(stderr, "%s\n", err.message);
            return false;
        }
    }
    t->font = font_make(t->font_tex, FONT_ADVANCE);
    return true;
}

static inline void test_engine_close(TestEngine *t) {
    render_destroy(t->rd);
    platform_destroy(t->pf);
    arena_release(t->frame);
    arena_release(t->perm);
}

#endif
