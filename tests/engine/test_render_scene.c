/* A headless scene rendered to pixels and to a PNG, checked pixel by pixel against the
   atlases it was drawn from: cells land where they were pushed, layers beat push order,
   equal keys keep push order, flips mirror, text is the font's glyphs in the text colour at
   proportional advances measured independently from font.png (ink + 1 px),
   the view offset applies, off-screen pushes are culled, one draw call per texture run,
   and the frame arena reports its peak. */
#include <string.h>

#include "engine_test.h"

static const Color CLEAR = {20, 16, 28, 255};

typedef struct Image {
    uint8_t *px;
    int w, h;
} Image;

static const uint8_t *pixel(Image im, int x, int y) { return im.px + ((size_t)y * im.w + x) * 4; }

static bool same_rgb(const uint8_t *p, uint8_t r, uint8_t g, uint8_t b) {
    return p[0] == r && p[1] == g && p[2] == b;
}

/* Every opaque texel of cell `cell` (16 px grid, `cols` per row) of `atlas` appears at
   (x, y) of `out`, mirrored when flip; transparent texels show `under` (or anything when
   `under` is NULL). Returns the number of mismatches. */
static int cell_mismatches(Image out, Image atlas, int cell, int cw, int ch, int x, int y,
                           bool flip, const Color *under) {
    int cols = atlas.w / cw, bad = 0;
    for (int j = 0; j < ch; j++)
        for (int i = 0; i < cw; i++) {
            int si = flip ? cw - 1 - i : i;
            const uint8_t *a = pixel(atlas, cell % cols * cw + si, cell / cols * ch + j);
            const uint8_t *o = pixel(out, x + i, y + j);
            if (a[3] == 255) bad += !same_rgb(o, a[0], a[1], a[2]);
            else if (a[3] == 0 && under) bad += !same_rgb(o, under->r, under->g, under->b);
        }
    return bad;
}

/* Rightmost opaque column + 1 of char `ch`'s cell in font.png: the ink the advances are
   measured from, computed here without the engine. */
static int glyph_ink(Image font, int ch) {
    int cell = ch - FONT_FIRST_CHAR, ink = 0;
    for (int j = 0; j < FONT_CELL_H; j++)
        for (int i = 0; i < FONT_CELL_W; i++)
            if (pixel(font, cell % FONT_COLS * FONT_CELL_W + i, cell / FONT_COLS * FONT_CELL_H + j)[3])
                ink = i + 1 > ink ? i + 1 : ink;
    return ink;
}

/* Every texel of char `ch`'s cell, columns 0..cols-1, drawn at (x, y): ink in `tint`, the
   rest `CLEAR`. Returns the number of mismatches; *ink counts the inked texels. */
static int glyph_mismatches(Image out, Image font, int ch, int cols, int x, int y, Color tint,
                            int *ink) {
    int cell = ch - FONT_FIRST_CHAR, bad = 0;
    for (int j = 0; j < FONT_CELL_H; j++)
        for (int i = 0; i < cols; i++) {
            const uint8_t *a =
                pixel(font, cell % FONT_COLS * FONT_CELL_W + i, cell / FONT_COLS * FONT_CELL_H + j);
            const uint8_t *o = pixel(out, x + i, y + j);
            if (a[3]) {
                bad += !same_rgb(o, tint.r, tint.g, tint.b);
                ++*ink;
            } else {
                bad += !same_rgb(o, CLEAR.r, CLEAR.g, CLEAR.b);
            }
        }
    return bad;
}

int main(int argc, char **argv) {
    REQUIRE(argc == 3); /* assets dir, output PNG path */
    TestEngine t;
    REQUIRE(test_engine_open(&t, argv[1]));
    Error err;
    Image tiles, sprites, font;
    REQUIRE(st_asset_load_rgba(t.perm, st_asset_path(t.perm, argv[1], "tiles.png"), &tiles.px, &tiles.w,
                            &tiles.h, &err));
    REQUIRE(st_asset_load_rgba(t.perm, st_asset_path(t.perm, argv[1], "sprites.png"), &sprites.px,
                            &sprites.w, &sprites.h, &err));
    REQUIRE(st_asset_load_rgba(t.perm, st_asset_path(t.perm, argv[1], "font.png"), &font.px, &font.w,
                            &font.h, &err));
    CHECK_EQ_I(st_render_texture_info(t.tiles).cols, ATLAS_COLS);
    CHECK_EQ_I(st_render_texture_info(t.sprites).rows, SPRITES_ROWS);

    /* Advances: ink + 1 for letters, one width for all digits, a fixed one for space. */
    int ink_E = glyph_ink(font, 'E'), ink_N = glyph_ink(font, 'N'), ink_D = glyph_ink(font, 'D');
    CHECK(ink_E > 0 && ink_N > 0 && ink_D > 0);
    CHECK_EQ_I(t.font.advances['i' - FONT_FIRST_CHAR], glyph_ink(font, 'i') + 1);
    CHECK_EQ_I(t.font.advances['M' - FONT_FIRST_CHAR], glyph_ink(font, 'M') + 1);
    CHECK_EQ_I(t.font.advances[' ' - FONT_FIRST_CHAR], TEST_FONT_SPACE);
    CHECK(st_font_measure(&t.font, STR8_LIT("il"), 1) < st_font_measure(&t.font, STR8_LIT("MW"), 1));
    CHECK(t.font.advances['i' - FONT_FIRST_CHAR] < FONT_ADVANCE); /* the "Fi rst" hole is gone */
    CHECK(st_font_measure(&t.font, STR8_LIT("11"), 1) == st_font_measure(&t.font, STR8_LIT("88"), 1));
    CHECK(st_font_measure(&t.font, STR8_LIT("il\nMW"), 1) == st_font_measure(&t.font, STR8_LIT("MW"), 1));
    CHECK(st_font_measure(&t.font, STR8_LIT("MW"), 2) == 2 * st_font_measure(&t.font, STR8_LIT("MW"), 1));
    CHECK(st_font_measure(&t.font, STR8_LIT(""), 1) == 0);

    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    /* layer 0: tiles. (0,0) wall, (32,0) floor under a heart pushed before it. */
    st_render_cell(t.rd, t.sprites, SPR_HEART, 32, 0, 1, 0);
    st_render_cell(t.rd, t.tiles, TS_WALL, 0, 0, 0, 0);
    st_render_cell(t.rd, t.tiles, TS_FLOOR_0, 32, 0, 0, 0);
    /* layer 1: flipped left-facing hero must equal the right-facing cell */
    st_render_cell(t.rd, t.sprites, SPR_PLAYER + FACING_LEFT * PLAYER_FRAMES, 64, 0, 1, RENDER_FLIP_X);
    /* layers 4/5: the higher layer wins although pushed first */
    st_render_rect(t.rd, (RectF){100, 100, 10, 10}, 5, (Color){255, 0, 0, 255});
    st_render_rect(t.rd, (RectF){105, 105, 10, 10}, 4, (Color){0, 255, 0, 255});
    /* layer 6: same key -> push order */
    st_render_rect(t.rd, (RectF){200, 100, 10, 10}, 6, (Color){0, 0, 255, 255});
    st_render_rect(t.rd, (RectF){205, 100, 10, 10}, 6, (Color){255, 255, 0, 255});
    /* off screen: culled, not drawn */
    st_render_cell(t.rd, t.sprites, SPR_COIN, -100, -100, 1, 0);
    st_render_cell(t.rd, t.sprites, SPR_COIN, 480, 10, 1, 0);
    /* view offset */
    st_render_set_view(t.rd, 16, 8);
    st_render_cell(t.rd, t.sprites, SPR_KEY_BLUE, 16 + 400, 8 + 240, 1, 0);
    st_render_set_view(t.rd, 0, 0);
    /* text, tinted, layer 7; right-aligned text ends at x = 470 */
    Str8 hi = st_str8_fmt(st_render_frame_arena(t.rd), "H%c", 'i');
    st_font_draw(t.rd, &t.font, 300, 200, hi, (Color){255, 80, 0, 255}, 7, TEXT_ALIGN_LEFT, 1);
    float rw =
        st_font_draw(t.rd, &t.font, 470, 220, STR8_LIT("END"), COLOR_WHITE, 7, TEXT_ALIGN_RIGHT, 1);
    CHECK(rw == st_font_measure(&t.font, STR8_LIT("END"), 1));
    CHECK(rw == ink_E + 1 + ink_N + 1 + ink_D);
    /* A line of narrow and wide glyphs, to check each lands at the measured advance. */
    static const char line[] = "Quit level 10 MW";
    const Color line_tint = {0, 200, 255, 255};
    float lw = st_font_draw(t.rd, &t.font, 20, 150, STR8_LIT(line), line_tint, 7, TEXT_ALIGN_LEFT, 1);
    CHECK(lw == st_font_measure(&t.font, STR8_LIT(line), 1));
    CHECK(lw < (sizeof line - 1) * FONT_ADVANCE - 1); /* narrower than monospace */
    /* 2 culled; glyphs: "Hi", "END", and the line without its 3 spaces */
    CHECK_EQ_U(st_render_command_count(t.rd), 3 + 1 + 4 + 1 + 2 + 3 + (sizeof line - 1 - 3));
    st_render_end(t.rd);

    RenderStats st = st_render_stats(t.rd);
    /* runs: L0 tiles | L1 sprites | L4-L6 white (consecutive layers, one texture: one run) |
       L7 font */
    CHECK_EQ_U(st.draw_calls, 4);
    CHECK_EQ_U(st.sprites, 14 + (sizeof line - 1 - 3));
    CHECK_EQ_U(st.culled, 2);
    CHECK_EQ_U(st.dropped, 0);
    CHECK(st.frame_bytes > (14 + sizeof line - 1 - 3) * sizeof(DrawCmd));

    Image out;
    REQUIRE(st_render_read_pixels(t.rd, t.perm, &out.px, &out.w, &out.h));
    CHECK_EQ_I(out.w, 480);
    CHECK_EQ_I(out.h, 270);
    CHECK(same_rgb(pixel(out, 479, 269), CLEAR.r, CLEAR.g, CLEAR.b));
    CHECK_EQ_I(cell_mismatches(out, tiles, TS_WALL, 16, 16, 0, 0, false, NULL), 0);
    /* heart over floor: heart where opaque; the floor where the heart is clear */
    CHECK_EQ_I(cell_mismatches(out, sprites, SPR_HEART, 16, 16, 32, 0, false, NULL), 0);
    int floor_seen = 0;
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 16; i++) {
            int hc = SPR_HEART;
            const uint8_t *h = pixel(sprites, hc % 8 * 16 + i, hc / 8 * 16 + j);
            if (h[3] != 0) continue;
            const uint8_t *f = pixel(tiles, TS_FLOOR_0 % 8 * 16 + i, TS_FLOOR_0 / 8 * 16 + j);
            CHECK(same_rgb(pixel(out, 32 + i, j), f[0], f[1], f[2]));
            floor_seen++;
        }
    CHECK(floor_seen > 20);
    CHECK_EQ_I(cell_mismatches(out, sprites, SPR_PLAYER + FACING_RIGHT * PLAYER_FRAMES, 16, 16,
                               64, 0, false, &CLEAR), 0);
    CHECK_EQ_I(cell_mismatches(out, sprites, SPR_PLAYER + FACING_LEFT * PLAYER_FRAMES, 16, 16,
                               64, 0, true, &CLEAR), 0);
    CHECK(same_rgb(pixel(out, 102, 102), 255, 0, 0));
    CHECK(same_rgb(pixel(out, 107, 107), 255, 0, 0)); /* layer 5 over layer 4 */
    CHECK(same_rgb(pixel(out, 112, 112), 0, 255, 0));
    CHECK(same_rgb(pixel(out, 202, 102), 0, 0, 255));
    CHECK(same_rgb(pixel(out, 207, 102), 255, 255, 0)); /* later push on top */
    CHECK_EQ_I(cell_mismatches(out, sprites, SPR_KEY_BLUE, 16, 16, 400, 240, false, &CLEAR), 0);
    /* Text: every glyph texel is the tint, every other texel the clear colour: for 'H' up
       to its advance (its gap column is clear, then 'i' starts), for 'i' the whole cell. */
    int ink = 0, adv_H = glyph_ink(font, 'H') + 1;
    CHECK_EQ_I(glyph_mismatches(out, font, 'H', adv_H, 300, 200, (Color){255, 80, 0, 255}, &ink), 0);
    CHECK_EQ_I(glyph_mismatches(out, font, 'i', FONT_CELL_W, 300 + adv_H, 200,
                                (Color){255, 80, 0, 255}, &ink), 0);
    CHECK(ink > 15);
    /* The line: glyph k starts where st_font_measure of the k glyphs before it ends, plus the
       1-px gap - so what is measured is exactly what is drawn. */
    int line_ink = 0;
    for (int k = 0; line[k]; k++) {
        if (line[k] == ' ') continue;
        int pen = 20 + (int)st_font_measure(&t.font, st_str8_make(line, (uint64_t)k), 1) + (k ? 1 : 0);
        int adv = line[k + 1] ? t.font.advances[line[k] - FONT_FIRST_CHAR] : FONT_CELL_W;
        int bad = glyph_mismatches(out, font, line[k], adv, pen, 150, line_tint, &line_ink);
        if (bad) fprintf(stderr, "glyph '%c' at x=%d: %d mismatches\n", line[k], pen, bad);
        CHECK_EQ_I(bad, 0);
    }
    CHECK(line_ink > 60);
    /* Right alignment: "END" starts at 470 - width and nothing is drawn from 470. */
    bool ink_start = false, ink_470 = false;
    for (int j = 220; j < 230; j++) {
        ink_start |= same_rgb(pixel(out, 470 - (int)rw, j), 255, 255, 255);
        CHECK(same_rgb(pixel(out, 470 - (int)rw - 1, j), CLEAR.r, CLEAR.g, CLEAR.b));
        for (int i = 470; i < 480; i++)
            ink_470 |= !same_rgb(pixel(out, i, j), CLEAR.r, CLEAR.g, CLEAR.b);
    }
    CHECK(ink_start); /* the E's stem */
    CHECK(!ink_470);

    /* The PNG on disk holds exactly these pixels. */
    REQUIRE(st_asset_write_screenshot(t.rd, argv[2], &err));
    /* A PNG that cannot be written says so, naming the file. */
    CHECK(!st_asset_write_screenshot(t.rd, "/nonexistent-folder/shot.png", &err));
    CHECK(strstr(err.message, "/nonexistent-folder/shot.png") != NULL);
    Image png;
    REQUIRE(st_asset_load_rgba(t.perm, argv[2], &png.px, &png.w, &png.h, &err));
    CHECK_EQ_I(png.w, out.w);
    CHECK_EQ_I(png.h, out.h);
    CHECK(memcmp(png.px, out.px, (size_t)out.w * out.h * 4) == 0);
    /* The frame's commands read back in push order, before and after it is shown (what
       tests measure frames by): the heart first, on its layer, from the sprites' texture,
       at its place; the shown frame's list until the next begin; nothing past the end. */
    uint32_t pushed = st_render_command_count(t.rd);
    const DrawCmd *first = st_render_command(t.rd, 0);
    CHECK(first && first->tex == st_render_texture_info(t.sprites).id && first->layer == 1 && first->x == 32 &&
          first->y == 0 && first->w == 16);
    CHECK(st_render_command(t.rd, 1)->tex == st_render_texture_info(t.tiles).id);
    CHECK(st_render_command(t.rd, pushed - 1) != NULL && st_render_command(t.rd, pushed) == NULL);
    CHECK_EQ_U(st_render_texture_info(NULL).id, 0);
    st_render_present(t.rd);
    CHECK(st_render_command(t.rd, 0) == first && st_render_command(t.rd, pushed) == NULL);

    /* The frame arena's peak survives the clear and covers this frame's commands. */
    ArenaStats fs = st_arena_stats(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    CHECK(st_render_command(t.rd, 0) == NULL); /* a new frame has none yet */
    st_render_end(t.rd);
    st_render_present(t.rd);
    st_arena_clear(t.frame);
    ArenaStats after = st_arena_stats(t.frame);
    CHECK_EQ_U(after.used, 0);
    CHECK(after.peak >= st.frame_bytes);
    CHECK_EQ_U(after.peak, fs.peak);
    printf("frame arena peak: %llu bytes (%u commands, %llu bytes of draw list)\n",
           (unsigned long long)after.peak, st.sprites + st.culled,
           (unsigned long long)st.frame_bytes);

    test_engine_close(&t);
    return check_result();
}
