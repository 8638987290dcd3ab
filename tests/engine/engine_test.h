/* engine_test.h - shared set-up for the headless engine tests: arenas, a platform on SDL's
   software renderer, the renderer and the three atlases from the assets dir in argv[1]. */
#ifndef ENGINE_TEST_H
#define ENGINE_TEST_H

#include <stdio.h>

#include "check.h"
#include <strata/asset/asset.h>
#include <strata/platform/platform.h>
#include <strata/render/font.h>
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
    t->perm = st_arena_create((ArenaParams){.name = "perm"});
    t->frame = st_arena_create((ArenaParams){.name = "frame"});
    if (!t->perm || !t->frame) return false;
    t->pf = st_platform_create(t->perm, &(PlatformDesc){.logical_w = 480, .logical_h = 270, .headless = true});
    if (!t->pf) return false;
    int w, h;
    st_platform_logical_size(t->pf, &w, &h);
    t->rd = st_render_create(t->perm, t->pf);
    if (!t->rd) return false;
    Error err;
    const char *names[2] = {"tiles.png", "sprites.png"};
    Texture **out[2] = {&t->tiles, &t->sprites};
    int cell[2] = {TILE_CELL, SPRITE_CELL};
    for (int i = 0; i < 2; i++) {
        *out[i] = st_asset_load_texture(t->rd, t->perm, st_asset_path(t->perm, asset_dir, names[i]),
                                     cell[i], cell[i], &err);
        if (!*out[i]) {
            fprintf(stderr, "%s\n", err.message);
            return false;
        }
    }
    /* The game's font, as game/app/app.c loads it: proportional, a TEST_FONT_SPACE-px space. */
    if (!st_asset_load_font(t->rd, t->perm, st_asset_path(t->perm, asset_dir, "font.png"), FONT_CELL_W,
                         FONT_CELL_H, TEST_FONT_SPACE, &t->font, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    return true;
}

static inline void test_engine_close(TestEngine *t) {
    st_render_release(t->rd);
    st_platform_release(t->pf);
    st_arena_release(t->frame);
    st_arena_release(t->perm);
}

#endif
