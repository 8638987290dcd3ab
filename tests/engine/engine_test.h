/* engine_test.h - shared set-up for the headless engine tests: arenas, a platform on SDL's
   software renderer, the renderer and the three atlases from the assets dir in argv[1]. */
#ifndef ENGINE_TEST_H
#define ENGINE_TEST_H

#include <stdio.h>

#include "check.h"
#include "asset/asset.h"
#include "platform/platform.h"
#include "render/font.h"
#include "../../assets/atlas.h"

#define TEST_FONT_SPACE (FONT_ADVANCE - 2) /* as game/app/app.c */

typedef struct TestEngine {
    Arena *perm, *frame;
    Platform *pf;
    Renderer *rd;
    Texture *tiles, *sprites;
    Font font; /* font.tex is the font atlas */
} TestEngine;

static inline bool test_engine_open(TestEngine *t, const char *asset_dir) {
    t->perm = arena_create((ArenaParams){.name = "perm"});
    t->frame = arena_create((ArenaParams){.name = "frame"});
    if (!t->perm || !t->frame) return false;
    t->pf = platform_create(t->perm, &(PlatformDesc){.logical_w = 480, .logical_h = 270, .headless = true});
    if (!t->pf) return false;
    int w, h;
    platform_logical_size(t->pf, &w, &h);
    t->rd = render_create(t->perm, t->pf);
    if (!t->rd) return false;
    Error err;
    const char *names[2] = {"tiles.png", "sprites.png"};
    Texture **out[2] = {&t->tiles, &t->sprites};
    int cell[2] = {TILE_CELL, SPRITE_CELL};
    for (int i = 0; i < 2; i++) {
        *out[i] = asset_load_texture(t->rd, t->perm, asset_path(t->perm, asset_dir, names[i]),
                                     cell[i], cell[i], &err);
        if (!*out[i]) {
            fprintf(stderr, "%s\n", err.message);
            return false;
        }
    }
    /* The game's font, as game/app/app.c loads it: proportional, a TEST_FONT_SPACE-px space. */
    if (!asset_load_font(t->rd, t->perm, asset_path(t->perm, asset_dir, "font.png"), FONT_CELL_W,
                         FONT_CELL_H, TEST_FONT_SPACE, &t->font, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    return true;
}

static inline void test_engine_close(TestEngine *t) {
    render_release(t->rd);
    platform_release(t->pf);
    arena_release(t->frame);
    arena_release(t->perm);
}

#endif
