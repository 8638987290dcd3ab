/* What a texture costs in SDL texture memory under the software renderer the tests run on,
   measured through SDL (the size of every distinct SDL texture behind it), not taken from
   the engine's own count:
   - the game's atlases keep their mirrored and modulation copies (32x the image: what the
     zero-allocation tests rely on), and all copies together stay within
     RENDER_COPY_BUDGET_BYTES;
   - a 512x512 image costs what it is, 1 MiB, not 32 MiB;
   - and such a texture, drawn from its one SDL texture, still draws right: plain, flipped
     on each axis, and tinted. argv[1] is the assets dir. */
#include <SDL2/SDL.h>

#include "engine_test.h"
#include <strata/render/render_core.h> /* the SDL backend's copies */

static uint64_t sdl_bytes(const Texture *t) {
    SDL_Texture *seen[9];
    int n = 0;
    uint64_t bytes = 0;
    for (int i = -1; i < 8; i++) {
        SDL_Texture *st = i < 0 ? t->sdl.mod[0] : t->sdl.mod[i];
        bool dup = !st;
        for (int j = 0; j < n && !dup; j++) dup = seen[j] == st;
        if (dup) continue;
        seen[n++] = st;
        int w = 0, h = 0;
        SDL_QueryTexture(st, NULL, NULL, &w, &h);
        bytes += (uint64_t)w * (uint64_t)h * 4;
    }
    return bytes;
}

static uint64_t image_bytes(const Texture *t) { return (uint64_t)t->w * (uint64_t)t->h * 4; }

#define BIG 512

/* Texel (x, y) of the big image: every texel of a 16x16 patch distinct, none grey. */
static void big_texel(int x, int y, uint8_t out[4]) {
    out[0] = (uint8_t)(x * 7), out[1] = (uint8_t)(y * 5 + 1), out[2] = (uint8_t)(x + y * 16);
    out[3] = 255;
}

/* The 16x16 patch of the big image at (sx, sy), drawn at (dx, dy) with `flip` and with
   green modulated to 0 when `no_green`, is what the frame shows there. */
static int patch_mismatches(const uint8_t *px, int pw, int sx, int sy, int dx, int dy,
                            uint32_t flip, bool no_green) {
    int bad = 0;
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 16; i++) {
            int si = flip & RENDER_FLIP_X ? 15 - i : i, sj = flip & RENDER_FLIP_Y ? 15 - j : j;
            uint8_t want[4];
            big_texel(sx + si, sy + sj, want);
            if (no_green) want[1] = 0;
            const uint8_t *got = px + ((size_t)(dy + j) * pw + dx + i) * 4;
            bad += got[0] != want[0] || got[1] != want[1] || got[2] != want[2];
        }
    return bad;
}

int main(int argc, char **argv) {
    REQUIRE(argc == 2);
    TestEngine t;
    REQUIRE(test_engine_open(&t, argv[1]));

    /* The game's textures: the full set of copies, as before. */
    const Texture *game[3] = {t.tiles, t.sprites, t.font.tex};
    uint64_t with_copies = 0;
    for (int i = 0; i < 3; i++) {
        printf("%s: %dx%d, %llu bytes of image, %llu in SDL textures\n", game[i]->name,
               game[i]->w, game[i]->h, (unsigned long long)image_bytes(game[i]),
               (unsigned long long)sdl_bytes(game[i]));
        CHECK(game[i]->sdl.mirrored);
        CHECK_EQ_U(sdl_bytes(game[i]), 32 * image_bytes(game[i]));
        CHECK_EQ_U(game[i]->bytes, sdl_bytes(game[i]));
        with_copies += sdl_bytes(game[i]);
    }
    CHECK(with_copies <= RENDER_COPY_BUDGET_BYTES);

    /* A 512x512 image: one SDL texture of exactly its size. */
    uint8_t *big = st_arena_push_raw(t.perm, (uint64_t)BIG * BIG * 4, 16);
    REQUIRE(big);
    for (int y = 0; y < BIG; y++)
        for (int x = 0; x < BIG; x++) big_texel(x, y, big + ((size_t)y * BIG + x) * 4);
    Texture *tex = st_render_texture_create(t.rd, t.perm, "big", big, BIG, BIG, 16, 16);
    REQUIRE(tex);
    printf("big: %dx%d, %llu bytes of image, %llu in SDL textures\n", tex->w, tex->h,
           (unsigned long long)image_bytes(tex), (unsigned long long)sdl_bytes(tex));
    CHECK_EQ_U(sdl_bytes(tex), image_bytes(tex));
    CHECK_EQ_U(tex->bytes, image_bytes(tex));
    CHECK(!tex->sdl.mirrored);

    /* Drawn from that one texture, through SDL's own flips and modulation. */
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, COLOR_BLACK);
    RectF src = {100, 200, 16, 16};
    st_render_sprite(t.rd, tex, src, (RectF){10, 10, 16, 16}, 0, COLOR_WHITE, 0);
    st_render_sprite(t.rd, tex, src, (RectF){40, 10, 16, 16}, 0, COLOR_WHITE, RENDER_FLIP_X);
    st_render_sprite(t.rd, tex, src, (RectF){70, 10, 16, 16}, 0, COLOR_WHITE, RENDER_FLIP_Y);
    st_render_sprite(t.rd, tex, src, (RectF){100, 10, 16, 16}, 0, COLOR_WHITE,
                  RENDER_FLIP_X | RENDER_FLIP_Y);
    st_render_sprite(t.rd, tex, src, (RectF){130, 10, 16, 16}, 0, (Color){255, 0, 255, 255},
                  RENDER_FLIP_X);
    st_render_end(t.rd);
    uint8_t *px;
    int pw, ph;
    REQUIRE(st_render_read_pixels(t.rd, t.frame, &px, &pw, &ph));
    REQUIRE(pw >= 160 && ph >= 30);
    CHECK_EQ_I(patch_mismatches(px, pw, 100, 200, 10, 10, 0, false), 0);
    CHECK_EQ_I(patch_mismatches(px, pw, 100, 200, 40, 10, RENDER_FLIP_X, false), 0);
    CHECK_EQ_I(patch_mismatches(px, pw, 100, 200, 70, 10, RENDER_FLIP_Y, false), 0);
    CHECK_EQ_I(patch_mismatches(px, pw, 100, 200, 100, 10, RENDER_FLIP_X | RENDER_FLIP_Y, false),
               0);
    CHECK_EQ_I(patch_mismatches(px, pw, 100, 200, 130, 10, RENDER_FLIP_X, true), 0);
    st_render_present(t.rd);

    test_engine_close(&t);
    return check_result();
}
