/* Text beyond ASCII: the default font (st_font_default) and the game's font falling back to
   it. Drawn glyphs are checked pixel by pixel against the default font's own texture: "é"
   and "Ł" through the game's font are the default font's glyphs on the game's baseline,
   what has no glyph (U+20AC, a malformed byte) is the box, st_font_measure agrees with
   st_font_draw's width and pen, st_font_wrap never cuts inside a character, and plain ASCII
   through the game's font is what it was. Writes the sample text to argv[2] for eyes. */
#include <string.h>

#include "engine_test.h"
#include <strata/core/utf8.h>

static const Color CLEAR = {20, 16, 28, 255};
static const char SAMPLE[] = "Café Ñandú Łódź Šťastný Ærøskøbing ĞüŞ İı";

typedef struct Image {
    uint8_t *px;
    int w, h;
} Image;

static bool lit(Image im, int x, int y) {
    if (x < 0 || y < 0 || x >= im.w || y >= im.h) return false;
    const uint8_t *p = im.px + ((size_t)y * im.w + x) * 4;
    return p[0] != CLEAR.r || p[1] != CLEAR.g || p[2] != CLEAR.b;
}

/* Pixels that differ between the w x h boxes at (ax, ay) and (bx, by) of `out`. */
static int box_mismatches(Image out, int ax, int ay, int bx, int by, int w, int h) {
    int bad = 0;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) bad += lit(out, ax + i, ay + j) != lit(out, bx + i, by + j);
    return bad;
}

/* Lit pixels in the rectangle: to tell a drawn glyph from none. */
static int lit_count(Image out, int x, int y, int w, int h) {
    int n = 0;
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) n += lit(out, i, j);
    return n;
}

static Image frame_pixels(TestEngine *t) {
    st_render_end(t->rd);
    Image im = {0};
    CHECK(st_render_read_pixels(t->rd, t->perm, &im.px, &im.w, &im.h));
    return im;
}

/* Widths: what st_font_draw returns is st_font_measure; a fallback glyph adds its own
   advance; the replacement box stands for what has no glyph and for malformed bytes. */
static void check_measure(const Font *def, const Font *game, const Font *ascii_only) {
    CHECK_EQ_I(def->glyph_count, 352);
    CHECK_EQ_I(def->baseline, 10);
    CHECK_EQ_I(game->baseline, 7);
    int covered = 0;
    for (int c = 0; c < def->glyph_count; c++) covered += def->advances[c] != 0;
    CHECK_EQ_I(covered, 352 - 32); /* all but the C1 controls */
    CHECK(def->advances[0xe9 - 32] > 1 && def->advances[0x141 - 32] > 1);
    float cafe = st_font_measure(game, STR8_LIT("Café"), 1), caf = st_font_measure(game, STR8_LIT("Caf"), 1);
    CHECK(cafe == caf + 1 + st_font_measure(def, STR8_LIT("é"), 1)); /* the gap, then é's ink */
    /* ASCII measures as it did without a fallback. */
    CHECK(st_font_measure(game, STR8_LIT("Quit level 10 MW"), 1) ==
          st_font_measure(ascii_only, STR8_LIT("Quit level 10 MW"), 1));
    float box = st_font_measure(game, STR8_LIT("\x7f"), 1);
    CHECK(box > 0);
    CHECK(st_font_measure(game, STR8_LIT("€"), 1) == box);                      /* not covered */
    CHECK(st_font_measure(game, STR8_LIT("\xc3"), 1) == box);                   /* truncated: one box */
    CHECK(st_font_measure(game, STR8_LIT("\xe2\x82"), 1) == box);               /* one box for both bytes */
    CHECK(st_font_measure(game, STR8_LIT("\xc0\xaf"), 1) == 2 * box + 1);       /* overlong: two */
    CHECK(st_font_measure(ascii_only, STR8_LIT("é"), 1) == box);                /* no fallback: the box */
    CHECK(st_font_measure(game, (Str8){"Caf\xc3\xa9", 4}, 1) == caf + 1 + box); /* never past len */
    static const char *const texts[] = {SAMPLE, "Łódź\nCafé au lait", "\xff\xfe Ğ\xc3"};
    for (int k = 0; k < 3; k++) {
        Str8 s = st_str8_cstr(texts[k]);
        CHECK(st_font_measure(def, s, 2) == 2 * st_font_measure(def, s, 1));
        CHECK(st_font_measure(game, s, 1) > 0);
    }
}

/* Wrapping cuts between characters: the pieces put together are the text, each valid. */
static void check_wrap(Arena *a, const Font *game) {
    Str8 text = STR8_LIT("ŁaŁŁaĞiĞŁŁŁa ĞiĞ é"), w;
    for (int width = 4; width < 40; width++) {
        int lines = 0;
        w = st_font_wrap(a, game, text, (float)width, 1, &lines);
        CHECK(lines > (width < 20 ? 2 : 0));
        uint64_t k = 0, i = 0;
        for (; i < w.len; i++) {
            if (w.data[i] != '\n') {
                CHECK(k < text.len && w.data[i] == text.data[k]);
                k++;
            } else if (k < text.len && text.data[k] == ' ') {
                k++; /* the space the line ended at */
            }
        }
        CHECK_EQ_U(k, text.len);
        for (i = 0; i < w.len;) CHECK(st_utf8_next(w, &i) != UTF8_REPLACEMENT);
    }
}

/* Pixels: a fallback glyph through the game's font is the default font's glyph moved onto
   the game's baseline; ASCII is unchanged by the fallback; the box is drawn for "€". */
static void check_pixels(TestEngine *t, const Font *def, const Font *game) {
    int dy = def->baseline - game->baseline; /* 3: the default font's cells start higher */
    st_arena_clear(t->frame);
    st_render_begin(t->rd, t->frame, CLEAR);
    float w = st_font_draw(t->rd, game, 10, 20, STR8_LIT("É Łódź"), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    CHECK(w == st_font_measure(game, STR8_LIT("É Łódź"), 1));
    st_font_draw(t->rd, def, 10, 60, STR8_LIT("É Łódź"), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t->rd, game, 10, 100, STR8_LIT("Hello, World 123"), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t->rd, &t->font, 10, 120, STR8_LIT("Hello, World 123"), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t->rd, game, 10, 140, STR8_LIT("€"), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t->rd, game, 30, 140, STR8_LIT("\x7f"), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t->rd, game, 50, 140, STR8_LIT("?"), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    Image out = frame_pixels(t);
    if (!out.px) return;
    /* The whole line, accents included, as the default font draws it dy rows lower. */
    CHECK_EQ_I(box_mismatches(out, 10, 20 - dy, 10, 60, (int)w + 2, def->glyph_h), 0);
    CHECK(lit_count(out, 10, 20 - dy, 6, dy) > 0);  /* É's acute, above the game's cell */
    CHECK(lit_count(out, 10, 60, (int)w, 12) > 40); /* and something was drawn at all */
    CHECK_EQ_I(box_mismatches(out, 10, 100, 10, 120, 120, 12), 0);
    CHECK_EQ_I(box_mismatches(out, 10, 140, 30, 140, 8, 10), 0);
    CHECK(box_mismatches(out, 10, 140, 50, 140, 8, 10) > 0); /* the box, not a '?' */
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: test_font ASSET_DIR OUT_PNG\n");
        return 2;
    }
    TestEngine t;
    REQUIRE(test_engine_open(&t, argv[1]));
    Error err;
    const Font *def = st_font_default(t.rd, t.perm, &err);
    REQUIRE(def);
    Font game = t.font;
    game.fallback = def;

    /* The sample, for eyes: the default font at 1x and 2x, the game's font at 1x and 2x. */
    st_arena_clear(t.frame);
    st_render_begin(t.rd, t.frame, CLEAR);
    Str8 s = STR8_LIT(SAMPLE);
    st_font_draw(t.rd, def, 4, 4, s, COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t.rd, def, 4, 20, s, COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 2);
    st_font_draw(t.rd, &game, 4, 60, s, COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    st_font_draw(t.rd, &game, 4, 76, s, COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 2);
    /* Every glyph of the default font, 16 a row, in two blocks from (4, 110). */
    for (int c = 0; c < def->glyph_count; c++) {
        char u[3] = {0};
        uint32_t cp = (uint32_t)(def->first_char + c);
        if (cp < 0x80) u[0] = (char)cp;
        else u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f));
        st_font_draw(t.rd, def, 4 + (float)(c % 16 * 9 + c / 176 * 160), 110 + (float)(c / 16 % 11 * 13),
                     st_str8_cstr(u), COLOR_WHITE, 1, TEXT_ALIGN_LEFT, 1);
    }
    frame_pixels(&t);
    REQUIRE(st_asset_write_screenshot(t.rd, argv[2], &err));
    check_measure(def, &game, &t.font);
    check_wrap(t.perm, &game);
    check_pixels(&t, def, &game);
    test_engine_close(&t);
    return check_result();
}
