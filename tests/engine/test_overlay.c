/* The F1 overlay, drawn headless into the software renderer and read back: the arena
   timelines from an ArenaTrace draw inside their box and nowhere else, with the used bars,
   the high-mark tick of a spike and a line at a marked frame; an empty trace or a box too
   small to hold anything draws no more than its panel, or nothing; the arena panel can be
   right-aligned to an edge and is translucent, is measured before it is drawn, can be
   docked at a given height, opaque, with the timelines inside, and the old call still works. */
#include <string.h>

#include "engine_test.h"
#include <strata/core/arena_trace.h>
#include <strata/render/debug_overlay.h>

static const Color CLEAR = {20, 16, 28, 255};
enum { LAYER = 200 };

typedef struct Image {
    uint8_t *px;
    int w, h;
} Image;

static const uint8_t *pixel(Image im, int x, int y) { return im.px + ((size_t)y * im.w + x) * 4; }

static bool same_rgb(const uint8_t *p, Color c) {
    return p[0] == c.r && p[1] == c.g && p[2] == c.b;
}

/* Pixel (x, y) lies wholly inside r: a box with fractional edges owns no pixel it only
   partly covers. */
static bool inside(RectF r, int x, int y) {
    return x >= r.x && x + 1 <= r.x + r.w && y >= r.y && y + 1 <= r.y + r.h;
}

/* Pixels outside `box` that are not the clear colour. */
static int outside_changed(Image im, RectF box) {
    int n = 0;
    for (int y = 0; y < im.h; y++)
        for (int x = 0; x < im.w; x++)
            if (!inside(box, x, y) && !same_rgb(pixel(im, x, y), CLEAR)) n++;
    return n;
}

/* Pixels inside `box` of exactly colour c. */
static int count_rgb(Image im, RectF box, Color c) {
    int n = 0;
    for (int y = 0; y < im.h; y++)
        for (int x = 0; x < im.w; x++)
            if (inside(box, x, y) && same_rgb(pixel(im, x, y), c)) n++;
    return n;
}

/* Ends the frame and reads it back; writes it to `png` too when not NULL (to look at). */
static bool frame_pixels(TestEngine *t, Image *out, const char *png) {
    st_render_end(t->rd);
    bool ok = st_render_read_pixels(t->rd, t->perm, &out->px, &out->w, &out->h);
    Error err;
    if (ok && png && !st_asset_write_screenshot(t->rd, png, &err)) {
        fprintf(stderr, "%s\n", err.message);
        ok = false;
    }
    st_render_present(t->rd);
    return ok;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_overlay ASSET_DIR [TRACE.png [PANEL.png [DOCKED.png]]]\n");
        return 2;
    }
    TestEngine t = {0};
    REQUIRE(test_engine_open(&t, argv[1]));

    /* 240 frames of a small game: a level arena filled at frame 100 (marked), a work arena
       cleared every frame with a spike inside frame 200 that is gone by its end, a slot
       that exists only from frame 150 on. */
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = 120 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Arena *work = st_arena_create((ArenaParams){.name = "work"});
    REQUIRE(level && work);
    ArenaTrace trace;
    REQUIRE(st_arena_trace_init(&trace, t.perm, 600, 8));
    const char *names[] = {"perm", "level", "work", "late"};
    for (int i = 0; i < 4; i++) st_arena_trace_name(&trace, i, names[i]);

    /* Before any sample: the panel and a line of text, inside the box. */
    RectF box = {40, 30, 300, 120};
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    st_debug_overlay_draw_trace(t.rd, &t.font, &trace, 180, box.x, box.y, box.w, box.h, LAYER);
    CHECK(st_render_command_count(t.rd) > 1);
    Image im;
    REQUIRE(frame_pixels(&t, &im, NULL));
    CHECK_EQ_I(outside_changed(im, box), 0);

    for (uint64_t f = 0; f < 240; f++) {
        st_arena_clear(work);
        st_arena_push(work, 2000 + f * 10, 8);
        if (f == 100) {
            st_arena_push(level, 100 << 10, 8);
            st_arena_trace_mark(&trace, f, "level %s", "02-keys-and-doors.lvl");
        }
        if (f == 200) {
            ARENA_SCOPE(tmp, work);
            st_arena_push(work, 40 << 10, 8);
        }
        Arena *slots[4] = {t.perm, level, work, f >= 150 ? work : NULL};
        st_arena_trace_sample(&trace, slots, 4, f, f >= 100 ? 2 : 1, 0);
    }

    /* The timelines, in a box that does not start on a whole pixel. */
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    st_debug_overlay_draw_trace(t.rd, &t.font, &trace, 180, box.x + 0.5f, box.y, box.w - 0.5f, box.h,
                             LAYER);
    uint32_t cmds = st_render_command_count(t.rd);
    CHECK(cmds > 4 * 4);       /* per lane: a background, a top edge, bars, a label */
    CHECK(cmds < 4 * 4 * 180); /* runs of equal columns are merged */
    REQUIRE(frame_pixels(&t, &im, argc > 2 ? argv[2] : NULL));
    RenderStats st = st_render_stats(t.rd);
    CHECK(st.sprites > 0);
    CHECK_EQ_U(st.dropped, 0);
    CHECK_EQ_I(outside_changed(im, box), 0);
    CHECK(count_rgb(im, box, (Color){120, 230, 140, 255}) > 100); /* used bars */
    CHECK(count_rgb(im, box, (Color){255, 240, 140, 255}) > 0);   /* frame 200's high tick */
    CHECK(count_rgb(im, box, (Color){230, 100, 230, 255}) > 10);  /* frame 100's mark line */
    CHECK(count_rgb(im, box, (Color){220, 60, 60, 255}) > 0);     /* level: top = its capacity */
    printf("trace: %u commands, %u sprites, %u draw calls\n", cmds, st.sprites, st.draw_calls);

    /* Any last_n, 0 included, and narrow or short boxes stay inside; a box too small for
       anything draws nothing. */
    const RectF boxes[] = {{0, 0, 480, 270},
                           {10, 200, 60, 30},
                           {400, 10, 70, 200},
                           {5, 5, 40, 6},
                           {10.5f, 30.25f, 200.3f, 80.6f}};
    const uint32_t ns[] = {0, 1, 60, 100000};
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            st_arena_clear(t.frame);
            st_render_begin(t.rd, t.frame, CLEAR);
            RectF r = boxes[b];
            st_debug_overlay_draw_trace(t.rd, &t.font, &trace, ns[k], r.x, r.y, r.w, r.h, LAYER);
            REQUIRE(frame_pixels(&t, &im, NULL));
            int bad = outside_changed(im, r);
            if (bad) fprintf(stderr, "box %zu, last_n %u: %d pixels outside\n", b, ns[k], bad);
            CHECK_EQ_I(bad, 0);
        }
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    st_debug_overlay_draw_trace(t.rd, &t.font, &trace, 60, 10, 10, 5, 100, LAYER);
    st_debug_overlay_draw_trace(t.rd, &t.font, &trace, 60, 10, 10, 100, 2, LAYER);
    st_debug_overlay_draw_trace(t.rd, &t.font, NULL, 60, 10, 10, 100, 100, LAYER);
    CHECK_EQ_U(st_render_command_count(t.rd), 0);
    st_render_end(t.rd);
    st_render_present(t.rd);

    /* The arena panel, right-aligned to the screen's edge: inside what it returns, its
       right edge on x, and translucent over a red square under it. */
    Arena *arenas[] = {t.perm, level, NULL, work};
    DebugFrameInfo info = {.frame_ms = 16.6, .update_ms = 1.2};
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    RectF red = {250, 20, 230, 140};
    st_render_rect(t.rd, red, 0, (Color){255, 0, 0, 255});
    DebugOverlayOptions right = {.x = 480, .y = 20, .layer = LAYER, .right = true};
    RectF measured = st_debug_overlay_measure(t.rd, &t.font, arenas, 4, &info, &right);
    CHECK_EQ_U(st_render_command_count(t.rd), 1); /* measuring draws nothing */
    RectF panel = st_debug_overlay_draw_ex(t.rd, &t.font, arenas, 4, &info, &right);
    REQUIRE(frame_pixels(&t, &im, argc > 3 ? argv[3] : NULL));
    CHECK(memcmp(&measured, &panel, sizeof panel) == 0);
    CHECK(panel.w > 100 && panel.h > 0);
    CHECK(panel.x + panel.w == 480);
    CHECK(panel.x >= red.x);
    RectF both = {red.x, red.y, 230, red.h > panel.h ? red.h : panel.h};
    CHECK_EQ_I(outside_changed(im, both), 0);
    /* The panel's bottom-right corner has no text or bar: red shows through the panel. */
    const uint8_t *corner = pixel(im, 478, (int)(panel.y + panel.h) - 2);
    CHECK(corner[0] > 60 && corner[0] < 255 && corner[2] < 100);
    /* Two frame lines, two heading lines, three arena rows with their bars. */
    float lh = st_font_line_height(&t.font, 1);
    CHECK(panel.h >= 7 * lh + 3 * 5);
    CHECK(panel.h < 7 * lh + 3 * (lh + 7) + 20);

    /* Docked: a given height, opaque, the timelines in what is left, and nothing outside;
       the panel keeps its width whatever the figures (the frame line's usual ones). */
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    DebugOverlayOptions dock = {.x = 480, .y = 18, .layer = LAYER, .right = true, .h = 252, .alpha = 255,
                                .trace = &trace, .trace_frames = 180};
    RectF docked = st_debug_overlay_draw_ex(t.rd, &t.font, arenas, 4, &info, &dock);
    REQUIRE(frame_pixels(&t, &im, argc > 4 ? argv[4] : NULL));
    CHECK(docked.h == 252 && docked.w == panel.w);
    CHECK_EQ_I(outside_changed(im, docked), 0);
    CHECK(count_rgb(im, docked, (Color){120, 230, 140, 255}) > 100); /* bars and timelines */
    CHECK(count_rgb(im, docked, (Color){230, 160, 230, 255}) > 10);  /* the last mark, at the foot */
    CHECK(same_rgb(pixel(im, 478, 268), (Color){8, 8, 16, 255}));    /* opaque */
    info.frame_ms = 3.1, info.stats.sprites = 12;
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    CHECK(st_debug_overlay_measure(t.rd, &t.font, arenas, 4, &info, &dock).w == docked.w);
    st_render_end(t.rd);
    st_render_present(t.rd);

    /* The panel through the old call, at its place: still drawn, and nothing outside. */
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    RectF full = st_debug_overlay_draw_ex(t.rd, &t.font, arenas, 4, &info,
                                       &(DebugOverlayOptions){.x = 0, .y = 18, .layer = LAYER});
    st_render_end(t.rd);
    st_render_present(t.rd);
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    st_debug_overlay_draw(t.rd, &t.font, arenas, 4, &info, 0, 18, LAYER);
    CHECK(st_render_command_count(t.rd) > 50);
    REQUIRE(frame_pixels(&t, &im, NULL));
    CHECK_EQ_I(outside_changed(im, full), 0);

    st_arena_release(work);
    st_arena_release(level);
    test_engine_close(&t);
    return check_result();
}
