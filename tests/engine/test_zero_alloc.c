/* Zero heap allocations per frame: 600 headless frames that clear the frame arena, draw a
   scrolling tile map, sprites and HUD text formatted with st_str8_fmt, sort, submit through
   SDL's software renderer and present. The C heap is counted by interposing malloc and
   friends in this executable (tests/core/heap_count.h), so SDL's own allocations are
   counted too, not only ours. After a warm-up of a few frames (SDL grows its
   command and vertex buffers to the working size once), the count must stay at zero.
   Not built under AddressSanitizer: ASan owns malloc, and two interposers cannot both win. */
#include <stddef.h>
#include <stdint.h>

#include "engine_test.h"
#include "heap_count.h"
#include <strata/asset/asset_watch.h>
#include <strata/render/camera.h>

#define FRAMES 600
#define WARMUP 5

static void draw_frame(TestEngine *t, Camera *cam, Input *in, int frame) {
    st_arena_clear(t->frame);
    st_render_begin(t->rd, t->frame, (Color){20, 16, 28, 255});
    st_camera_follow(cam, (float)(frame * 2 % 1200), (float)(frame % 600), 0.2f);
    st_render_set_view(t->rd, cam->pos[0], cam->pos[1]);
    int x0, y0, x1, y1;
    st_camera_tile_range(cam, 16, &x0, &y0, &x1, &y1);
    for (int y = y0; y < y1 && y < 64; y++)
        for (int x = x0; x < x1 && x < 96; x++) {
            int kind = (x * 7 + y * 13) % 11 == 0 ? TS_WALL : TS_FLOOR_0 + (x ^ y) % 4;
            st_render_cell(t->rd, t->tiles, kind, (float)x * 16, (float)y * 16, 0, 0);
        }
    for (int i = 0; i < 200; i++) {
        float sx = (float)((i * 37 + frame) % 1500), sy = (float)((i * 53 + frame / 2) % 1000);
        st_render_cell(t->rd, t->sprites, SPR_PATROLLER + (i + frame / 8) % 6, sx, sy, 2, (i & 1) ? RENDER_FLIP_X : 0);
    }
    st_render_set_view(t->rd, 0, 0);
    st_font_drawf(t->rd, &t->font, 4, 4, COLOR_WHITE, 10, "Coins %d  Keys %d  Frame %d", frame * 3, frame % 4, frame);
    Str8 msg = st_str8_fmt(st_render_frame_arena(t->rd), "Level %d: the long hall", 1 + frame / 100);
    st_font_draw(t->rd, &t->font, 240, 250, msg, COLOR_WHITE, 10, TEXT_ALIGN_CENTER, 1);
    st_render_rect(t->rd, (RectF){0, 0, 480, 14}, 9, (Color){0, 0, 0, 160});
    /* Rects half past the edges, moving (a shaken fade, a bar sliding in): SDL's software
       renderer would scale each through a surface of its own; the backend cuts them first. */
    st_render_rect(t->rd, (RectF){-8.5f + (float)(frame % 7), 200, 16, 8}, 9, (Color){90, 200, 120, 255});
    st_render_rect(t->rd, (RectF){470.25f, 180, 16, 8}, 9, (Color){90, 200, 120, 200});
    st_render_rect(t->rd, (RectF){300, 264.5f - (float)(frame % 5), 12, 12}, 9, (Color){200, 90, 120, 255});
    for (int h = 0; h < 5; h++)
        st_render_cell(t->rd, t->sprites, h < 3 ? SPR_HEART : SPR_HEART_EMPTY, 400 + h * 14, 0, 10, 0);
    /* Each texture drawn plain and modulated, and at two sizes, in turn, as a game's HUD
       and actors are: text in two colours and two scales, opaque and translucent rects, a
       tinted sprite among plain ones (see Texture.sdl_mod). */
    st_font_drawf(t->rd, &t->font, 4, 20, (Color){255, 214, 120, 255}, 10, "Best %d", frame / 60);
    st_font_draw(t->rd, &t->font, 4, 30, STR8_LIT("paused"), COLOR_WHITE, 10, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t->rd, &t->font, 240, 60, STR8_LIT("PAUSED"), COLOR_WHITE, 10, TEXT_ALIGN_CENTER, 2);
    st_render_rect_outline(t->rd, (RectF){100, 100, 80, 40}, 11, (Color){255, 214, 120, 255});
    st_render_rect(t->rd, (RectF){101, 101, 78, 38}, 11, (Color){24, 20, 40, 235});
    st_render_cell(t->rd, t->sprites, SPR_COIN, 110, 110, 12, 0);
    st_render_sprite(t->rd, t->sprites, (RectF){0, 0, 16, 16}, (RectF){130, 110, 16, 16}, 12, (Color){255, 90, 90, 255},
                     0);
    st_render_cell(t->rd, t->sprites, SPR_COIN, 150, 110, 12, 0);
    st_render_end(t->rd);
    st_render_present(t->rd);
    (void)in;
}

int main(int argc, char **argv) {
    REQUIRE(argc == 2);
    TestEngine t;
    REQUIRE(test_engine_open(&t, argv[1]));
    /* Decoding a PNG goes through stb_image's hooks onto a scratch arena: no heap at all. */
    uint64_t before_decode = heap_calls;
    uint8_t *px;
    int w, h;
    Error err;
    REQUIRE(st_asset_load_rgba(t.perm, st_asset_path(t.perm, argv[1], "sprites.png"), &px, &w, &h, &err));
    CHECK_EQ_U(heap_calls - before_decode, 0);
    CHECK(w == ATLAS_COLS * SPRITE_CELL && px[3 + 4 * (w * 8 + 8)] == 255);
    /* The asset watch polled every frame, as the host does: a look every ASSET_WATCH_EVERY
       frames is a stat(2) per file, no heap. */
    AssetWatch *aw = st_asset_watch_create(t.perm);
    REQUIRE(aw);
    REQUIRE(st_asset_watch_texture(aw, t.rd, t.perm, st_asset_path(t.perm, argv[1], "tiles.png"), 16, 16, &err));
    Sound coin;
    REQUIRE(st_asset_watch_sound(aw, t.perm, st_asset_path(t.perm, argv[1], "sounds/coin.wav"), st_sound_load, &coin,
                                 &err));
    Camera cam = st_camera_make(480, 270);
    st_camera_set_bounds(&cam, 0, 0, 96 * 16, 64 * 16);
    Input in = {0};
    FixedStep clock = st_fixed_step_make(60);
    uint64_t at_warmup = 0, steps = 0;
    uint32_t sprites_seen = 0;
    for (int f = 0; f < FRAMES; f++) {
        if (f == WARMUP) at_warmup = heap_calls;
        if (!st_platform_poll(t.pf, &in)) break;
        int n = st_fixed_step_advance(&clock, st_platform_seconds(t.pf));
        for (int i = 0; i < n; i++) {
            steps++;
            st_input_end_step(&in);
        }
        st_asset_watch_poll(aw, (uint64_t)f);
        draw_frame(&t, &cam, &in, f);
        sprites_seen += st_render_stats(t.rd).sprites;
    }
    uint64_t after = heap_calls - at_warmup;
    printf("heap allocations: %llu during warm-up (%d frames incl. set-up), %llu in the next %d "
           "frames; %u sprites drawn, frame arena peak %llu bytes\n",
           (unsigned long long)at_warmup, WARMUP, (unsigned long long)after, FRAMES - WARMUP, sprites_seen,
           (unsigned long long)st_arena_stats(t.frame).peak);
    CHECK(at_warmup > 0); /* the counter works: SDL_Init and texture creation do allocate */
    CHECK_EQ_U(after, 0);
    CHECK_EQ_U(steps, FRAMES); /* headless clock: exactly one 60 Hz step per frame */
    CHECK(sprites_seen > FRAMES * 500);
    CHECK_EQ_U(st_asset_watch_stats(aw).looks, FRAMES / ASSET_WATCH_EVERY); /* it did look */
    st_asset_watch_release(aw);
    test_engine_close(&t);
    return check_result();
}
