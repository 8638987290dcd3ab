/* test_render_edges - rects that reach past the picture's edges, headless (SDL's software
   renderer). The SDL backend cuts them to what shows before SDL sees them, since SDL would
   otherwise scale each through a temporary surface, heap calls every frame
   (render_sdl_clip_rect). The cut must light exactly the pixels SDL lights itself: the same
   rects, drawn as a texture of the program's own (white too, but not the renderer's, so the
   backend leaves them to SDL), must give the same picture, pixel for pixel, at fractional
   positions and sizes, over every edge and corner, opaque and translucent. And a frame
   arena that refuses the draw list's second chunk: the rest of the frame is dropped and
   counted, and the refusal reported once, not once per command (a frame of a run the OS
   refused memory for good made a thousand reports, every frame). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "engine_test.h"

static const RectF RECTS[] = {
    {-3.5f, 20, 16, 10},          {470.6f, 40, 16.7f, 10},  {100, -5.25f, 12, 9.5f}, {200, 262.9f, 10, 20},
    {-7.2f, -7.9f, 20.4f, 20.6f}, {471.3f, 261.6f, 30, 30}, {-40, 100, 30, 10},      {300.5f, 100.5f, 9.5f, 9.5f},
    {-0.5f, 130, 481, 3.7f},      {240, -2, 6, 275},
};
#define RECT_COUNT (int)(sizeof RECTS / sizeof RECTS[0])

static Color rect_color(int i) {
    return (Color){(uint8_t)(40 + i * 20), (uint8_t)(250 - i * 17), (uint8_t)(90 + i * 13),
                   (uint8_t)(i % 3 ? 255 : 150)};
}

/* One frame of the rects, through the renderer's rects (own = NULL) or as sprites of `own`. */
static uint8_t *draw(TestEngine *t, Texture *own) {
    st_arena_clear(t->frame);
    st_render_begin(t->rd, t->frame, (Color){20, 16, 28, 255});
    for (int i = 0; i < RECT_COUNT; i++) {
        if (own) st_render_sprite(t->rd, own, (RectF){1, 1, 2, 2}, RECTS[i], 1 + i, rect_color(i), 0);
        else st_render_rect(t->rd, RECTS[i], 1 + i, rect_color(i));
    }
    st_render_end(t->rd);
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (!st_render_read_pixels(t->rd, t->perm, &px, &w, &h) || w != 480 || h != 270) return NULL;
    st_render_present(t->rd);
    return px;
}

static void count_report(void *state, const Diag *d) {
    (void)d;
    ++*(int *)state;
}

/* 3000 sprites into a frame arena with room for one chunk of commands (1024) and no more. */
static void refused_frame(TestEngine *t) {
    Arena *small = st_arena_create((ArenaParams){.reserve_size = 64 << 10, .flags = ARENA_FLAG_NO_CHAIN,
                                                 .name = "small frame"});
    CHECK(small != NULL);
    if (!small) return;
    int reports = 0;
    DiagSink before = st_diag_set_sink((DiagSink){count_report, &reports});
    st_render_begin(t->rd, small, (Color){0, 0, 0, 255});
    for (int i = 0; i < 3000; i++)
        st_render_rect(t->rd, (RectF){(float)(i % 400), (float)(i % 200), 4, 4}, 1, (Color){255, 255, 255, 255});
    st_render_end(t->rd);
    st_render_present(t->rd);
    st_diag_set_sink(before);
    RenderStats st = st_render_stats(t->rd);
    printf("refused frame: %u sprites, %u dropped, %d reports\n", st.sprites, st.dropped, reports);
    CHECK_EQ_U(st.sprites + st.dropped, 3000);
    CHECK(st.sprites >= 512 && st.dropped >= 1000); /* one chunk in, the others refused */
    CHECK_EQ_I(reports, 1);
    st_arena_release(small);
}

int main(int argc, char **argv) {
    REQUIRE(argc == 2); /* the assets folder */
    TestEngine t;
    REQUIRE(test_engine_open(&t, argv[1]));
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    Texture *own = st_render_texture_create(t.rd, t.perm, "own white", white, 4, 4, 0, 0);
    REQUIRE(own);
    uint8_t *cut = draw(&t, NULL), *sdl = draw(&t, own);
    REQUIRE(cut && sdl);
    int differ = 0, lit = 0;
    for (int i = 0; i < 480 * 270; i++) {
        differ += memcmp(cut + i * 4, sdl + i * 4, 3) != 0;
        lit += cut[i * 4] != 20 || cut[i * 4 + 1] != 16 || cut[i * 4 + 2] != 28;
    }
    CHECK_EQ_I(differ, 0);
    CHECK(lit > 2000); /* the rects were drawn at all */
    refused_frame(&t);
    test_engine_close(&t);
    return check_result();
}
