/* mkfont - writes the engine's default font, engine/render/font_glyphs.inc: 8 x 12 bitmaps of
   U+0020..U+017F (printable ASCII, Latin-1 Supplement, Latin Extended-A) as C data.

   usage: mkfont OUT_FILE

   ASCII is stb_easy_font rasterised exactly as tools/mkassets draws the game's font.png
   (but for '|', which easy_font draws as its 'l'),
   three rows lower (so the glyphs the engine falls back to match the game's font pixel for
   pixel, on the same baseline): caps on rows 3..9, x-height from row 5, baseline row 10,
   descenders on rows 10..11, and rows 0..2 free for the accents of capitals. An accented
   letter is its base letter plus one diacritic from a small set, placed from the base's ink
   (centred over it, a gap row above its top, or under the baseline), so the ~170 of them
   stay consistent; the letters and signs with no base (Æ, ß, Ł, ¿...) are drawn by hand
   below. Deterministic: the committed file is compared byte for byte (ctest
   mkfont_reproducible). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/cli.h>
#include <strata/core/os_file.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "../mkassets/easy_glyph.h"
#pragma GCC diagnostic pop

#define FIRST 0x20
#define COUNT (0x180 - FIRST)
#define CELL_W 8
#define CELL_H 12
#define TOP 3 /* rows above the game font's cell: where capitals' accents go */

typedef struct Glyph {
    uint8_t row[CELL_H]; /* bit x = column x */
} Glyph;

static Glyph glyphs[COUNT];

static Glyph *at(uint32_t cp) { return &glyphs[cp - FIRST]; }
static void put(Glyph *g, int x, int y) {
    if (x >= 0 && x < CELL_W && y >= 0 && y < CELL_H) g->row[y] |= (uint8_t)(1u << x);
}
static int ink(const Glyph *g, int x, int y) {
    return x >= 0 && x < CELL_W && y >= 0 && y < CELL_H && g->row[y] >> x & 1;
}

/* Rows such as ".#/#." (top first, '/' between rows) with their top-left pixel at (x, y). */
static void draw(Glyph *g, int x, int y, const char *rows) {
    for (int dx = 0; *rows; rows++, dx++) {
        if (*rows == '/') y++, dx = -1;
        else if (*rows == '#') put(g, x + dx, y);
    }
}

/* The ink's bounding box: columns x0..x1, rows y0..y1 (x1 < x0 when there is none). */
typedef struct Box {
    int x0, x1, y0, y1;
} Box;

static Box box_of(const Glyph *g) {
    Box b = {CELL_W, -1, CELL_H, -1};
    for (int y = 0; y < CELL_H; y++)
        for (int x = 0; x < CELL_W; x++)
            if (ink(g, x, y)) {
                if (x < b.x0) b.x0 = x;
                if (x > b.x1) b.x1 = x;
                if (y < b.y0) b.y0 = y;
                if (y > b.y1) b.y1 = y;
            }
    return b;
}

/* Moves the ink so its leftmost column is column 0: advances are measured from column 0. */
static void align_left(Glyph *g) {
    Box b = box_of(g);
    if (b.x1 < b.x0 || b.x0 == 0) return;
    for (int y = 0; y < CELL_H; y++) g->row[y] = (uint8_t)(g->row[y] >> b.x0);
}

/* ------------------------------------------------------------------ ASCII */

/* stb_easy_font's quads on an integer grid, filled, as mkassets' make_font draws them; DEL's
   cell is the hollow box the engine draws for what it has no glyph for. */
static void make_ascii(void) {
    int r[256][4];
    for (int ch = FIRST; ch < 0x7f; ch++) {
        int n = easy_glyph_rects((char)ch, r, 256);
        for (int q = 0; q < n; q++)
            for (int y = r[q][1]; y < r[q][3]; y++)
                for (int x = r[q][0]; x < r[q][2]; x++) put(at((uint32_t)ch), x, y + TOP);
    }
    for (int y = 1; y < 8; y++)
        for (int x = 0; x < 5; x++)
            if (y == 1 || y == 7 || x == 0 || x == 4) put(at(0x7f), x, y + TOP);
    /* stb_easy_font's '|' is its 'l' to the pixel: here it runs from the capitals' accent
       row down through the descenders, so "A|B" never reads "AlB". */
    memset(at('|')->row, 0, sizeof at('|')->row);
    for (int y = 2; y < CELL_H; y++) put(at('|'), 0, y);
}

/* ------------------------------------------------------------------ diacritics */

typedef enum Mark {
    ACUTE,
    GRAVE,
    CIRCUMFLEX,
    TILDE,
    DIAERESIS,
    RING,
    CARON,
    CEDILLA,
    OGONEK,
    MACRON,
    BREVE,
    DOT,
    DOUBLE_ACUTE,
    APOSTROPHE, /* the caron of ď ľ ť Ľ: a tick after the ascender */
    MARK_COUNT
} Mark;

/* Each mark twice: for a base of even ink width and of odd, so it sits centred on either. */
static const struct {
    const char *even, *odd;
    int below; /* under the baseline instead of above the ink */
    int gap;   /* empty rows between the mark and the base's ink */
} MARKS[MARK_COUNT] = {
    [ACUTE] = {".#/#.", "..#/.#.", 0, 1},
    [GRAVE] = {"#./.#", "#../.#.", 0, 1},
    [CIRCUMFLEX] = {".##./#..#", ".#./#.#", 0, 1},
    [TILDE] = {".#.#/#.#.", ".#.#/#.#.", 0, 1},
    [DIAERESIS] = {"#..#", "#.#", 0, 1},
    [RING] = {".##./#..#/.##.", ".#./#.#/.#.", 0, 0},
    [CARON] = {"#..#/.##.", "#.#/.#.", 0, 1},
    [CEDILLA] = {".#/#.", ".#/#.", 1, 0},
    [OGONEK] = {".#/#.", ".#/#.", 1, 0},
    [MACRON] = {"####", "###", 0, 1},
    [BREVE] = {"#..#/.##.", "#...#/.###.", 0, 1},
    [DOT] = {"#", "#", 0, 1},
    [DOUBLE_ACUTE] = {".#.#/#.#.", ".#.#/#.#.", 0, 1},
    [APOSTROPHE] = {"#/#", "#/#", 0, 0},
};

static int rows_w(const char *r) {
    int w = 0, n = 0;
    for (; *r; r++) n = *r == '/' ? 0 : n + 1, w = n > w ? n : w;
    return w;
}
static int rows_h(const char *r) {
    int h = 1;
    for (; *r; r++) h += *r == '/';
    return h;
}

/* `base` with mark `m` on it, into code point `cp`. */
static void compose(uint32_t cp, const Glyph *base, Mark m) {
    Glyph g = *base;
    Box b = box_of(&g);
    int bw = b.x1 - b.x0 + 1;
    const char *r = bw % 2 ? MARKS[m].odd : MARKS[m].even;
    int mw = rows_w(r), mh = rows_h(r);
    int d = bw - mw + 1; /* centred, rounding towards the left when it cannot be exact */
    int x = b.x0 + (d >= 0 ? d / 2 : -((1 - d) / 2)),
        y = MARKS[m].below ? b.y1 + 1 + MARKS[m].gap : b.y0 - MARKS[m].gap - mh;
    if (m == OGONEK) x = b.x1 - 1; /* under the last stem, curling left: not q's straight tail */
    if (m == APOSTROPHE) {         /* after the ink of the base's top row */
        x = 0;
        for (int i = 0; i < CELL_W; i++)
            if (ink(&g, i, b.y0)) x = i + 2;
        y = b.y0;
    }
    if (x < 0) { /* a mark wider than a narrow base (ī, î): the base moves right under it */
        for (int i = 0; i < CELL_H; i++) g.row[i] = (uint8_t)(g.row[i] << -x);
        x = 0;
    }
    draw(&g, x, y, r);
    align_left(&g);
    *at(cp) = g;
}

/* Latin-1's letters and Latin Extended-A's, as base + mark. DOTLESS_I / DOTLESS_J stand for
   ı and ȷ, made first (a mark replaces the dot). Upper and lower case pairs of Latin
   Extended-A are listed once, by the capital: the small letter is the next code point. */
#define DOTLESS_I 0x131
#define DOTLESS_J 0x237 /* outside the range: drawn into dotless_j, never stored */
static const struct {
    uint16_t cp;
    uint16_t base;
    uint8_t mark;
    uint8_t pair; /* cp + 1 is base's small letter with the same mark */
} COMPOSED[] = {
    {0xc0, 'A', GRAVE, 0},
    {0xc1, 'A', ACUTE, 0},
    {0xc2, 'A', CIRCUMFLEX, 0},
    {0xc3, 'A', TILDE, 0},
    {0xc4, 'A', DIAERESIS, 0},
    {0xc5, 'A', RING, 0},
    {0xc7, 'C', CEDILLA, 0},
    {0xc8, 'E', GRAVE, 0},
    {0xc9, 'E', ACUTE, 0},
    {0xca, 'E', CIRCUMFLEX, 0},
    {0xcb, 'E', DIAERESIS, 0},
    {0xcc, 'I', GRAVE, 0},
    {0xcd, 'I', ACUTE, 0},
    {0xce, 'I', CIRCUMFLEX, 0},
    {0xcf, 'I', DIAERESIS, 0},
    {0xd1, 'N', TILDE, 0},
    {0xd2, 'O', GRAVE, 0},
    {0xd3, 'O', ACUTE, 0},
    {0xd4, 'O', CIRCUMFLEX, 0},
    {0xd5, 'O', TILDE, 0},
    {0xd6, 'O', DIAERESIS, 0},
    {0xd9, 'U', GRAVE, 0},
    {0xda, 'U', ACUTE, 0},
    {0xdb, 'U', CIRCUMFLEX, 0},
    {0xdc, 'U', DIAERESIS, 0},
    {0xdd, 'Y', ACUTE, 0},
    {0xe0, 'a', GRAVE, 0},
    {0xe1, 'a', ACUTE, 0},
    {0xe2, 'a', CIRCUMFLEX, 0},
    {0xe3, 'a', TILDE, 0},
    {0xe4, 'a', DIAERESIS, 0},
    {0xe5, 'a', RING, 0},
    {0xe7, 'c', CEDILLA, 0},
    {0xe8, 'e', GRAVE, 0},
    {0xe9, 'e', ACUTE, 0},
    {0xea, 'e', CIRCUMFLEX, 0},
    {0xeb, 'e', DIAERESIS, 0},
    {0xec, DOTLESS_I, GRAVE, 0},
    {0xed, DOTLESS_I, ACUTE, 0},
    {0xee, DOTLESS_I, CIRCUMFLEX, 0},
    {0xef, DOTLESS_I, DIAERESIS, 0},
    {0xf1, 'n', TILDE, 0},
    {0xf2, 'o', GRAVE, 0},
    {0xf3, 'o', ACUTE, 0},
    {0xf4, 'o', CIRCUMFLEX, 0},
    {0xf5, 'o', TILDE, 0},
    {0xf6, 'o', DIAERESIS, 0},
    {0xf9, 'u', GRAVE, 0},
    {0xfa, 'u', ACUTE, 0},
    {0xfb, 'u', CIRCUMFLEX, 0},
    {0xfc, 'u', DIAERESIS, 0},
    {0xfd, 'y', ACUTE, 0},
    {0xff, 'y', DIAERESIS, 0},
    {0x100, 'A', MACRON, 1},
    {0x102, 'A', BREVE, 1},
    {0x104, 'A', OGONEK, 1},
    {0x106, 'C', ACUTE, 1},
    {0x108, 'C', CIRCUMFLEX, 1},
    {0x10a, 'C', DOT, 1},
    {0x10c, 'C', CARON, 1},
    {0x10e, 'D', CARON, 0},
    {0x10f, 'd', APOSTROPHE, 0},
    {0x112, 'E', MACRON, 1},
    {0x114, 'E', BREVE, 1},
    {0x116, 'E', DOT, 1},
    {0x118, 'E', OGONEK, 1},
    {0x11a, 'E', CARON, 1},
    {0x11c, 'G', CIRCUMFLEX, 1},
    {0x11e, 'G', BREVE, 1},
    {0x120, 'G', DOT, 1},
    {0x122, 'G', CEDILLA, 0},
    {0x123, 'g', ACUTE, 0},
    {0x124, 'H', CIRCUMFLEX, 1},
    {0x128, 'I', TILDE, 0},
    {0x129, DOTLESS_I, TILDE, 0},
    {0x12a, 'I', MACRON, 0},
    {0x12b, DOTLESS_I, MACRON, 0},
    {0x12c, 'I', BREVE, 0},
    {0x12d, DOTLESS_I, BREVE, 0},
    {0x12e, 'I', OGONEK, 1},
    {0x130, 'I', DOT, 0},
    {0x134, 'J', CIRCUMFLEX, 0},
    {0x135, DOTLESS_J, CIRCUMFLEX, 0},
    {0x136, 'K', CEDILLA, 1},
    {0x139, 'L', ACUTE, 1},
    {0x13b, 'L', CEDILLA, 1},
    {0x13d, 'L', APOSTROPHE, 1},
    {0x143, 'N', ACUTE, 1},
    {0x145, 'N', CEDILLA, 1},
    {0x147, 'N', CARON, 1},
    {0x14c, 'O', MACRON, 1},
    {0x14e, 'O', BREVE, 1},
    {0x150, 'O', DOUBLE_ACUTE, 1},
    {0x154, 'R', ACUTE, 1},
    {0x156, 'R', CEDILLA, 1},
    {0x158, 'R', CARON, 1},
    {0x15a, 'S', ACUTE, 1},
    {0x15c, 'S', CIRCUMFLEX, 1},
    {0x15e, 'S', CEDILLA, 1},
    {0x160, 'S', CARON, 1},
    {0x162, 'T', CEDILLA, 1},
    {0x164, 'T', CARON, 0},
    {0x165, 't', APOSTROPHE, 0},
    {0x168, 'U', TILDE, 1},
    {0x16a, 'U', MACRON, 1},
    {0x16c, 'U', BREVE, 1},
    {0x16e, 'U', RING, 1},
    {0x170, 'U', DOUBLE_ACUTE, 1},
    {0x172, 'U', OGONEK, 1},
    {0x174, 'W', CIRCUMFLEX, 1},
    {0x176, 'Y', CIRCUMFLEX, 1},
    {0x178, 'Y', DIAERESIS, 0},
    {0x179, 'Z', ACUTE, 1},
    {0x17b, 'Z', DOT, 1},
    {0x17d, 'Z', CARON, 1},
};

/* Signs and letters with no base to put a mark on, in the game font's rows (0 = the top of
   a capital, 7 = the baseline): top row, then the rows as in draw(). */
static const struct {
    uint16_t cp;
    int8_t top;
    const char *rows;
} DRAWN[] = {
    {0xa1, 2, "#/./#/#/#/#/#"},
    {0xa2, 1, "..#./.###/#.#./#.#./#.#./.###/..#."},
    {0xa3, 0, "..##/.#../.#../###./.#../.#../####"},
    {0xa4, 1, "#...#/.###./.#.#./.###./#...#"},
    {0xa5, 0, "#...#/.#.#./..#../#####/..#../#####/..#.."},
    {0xa6, 0, "#/#/#/./#/#/#"},
    {0xa7, 0, ".###/#.../.##./#..#/#..#/.##./...#/###."},
    {0xa8, 0, "#.#"},
    {0xa9, 0, ".#####./#.....#/#..##.#/#.#...#/#..##.#/#.....#/.#####."},
    {0xaa, 0, ".##/#.#/.##/.../###"},
    {0xab, 2, "..#.#/.#.#./#.#../.#.#./..#.#"},
    {0xac, 3, "####/...#"},
    {0xad, 3, "####"},
    {0xae, 0, ".#####./#.##..#/#.#.#.#/#.##..#/#.#.#.#/#.....#/.#####."},
    {0xaf, 0, "####"},
    {0xb0, 0, ".#./#.#/.#."},
    {0xb1, 0, "..#../..#../#####/..#../..#../...../#####"},
    {0xb2, 0, "##./..#/.#./###"},
    {0xb3, 0, "##./..#/.#./..#/##."},
    {0xb4, 0, ".#/#."},
    {0xb5, 2, "#..#/#..#/#..#/#..#/###./#.../#..."},
    {0xb6, 0, ".####/###.#/###.#/.##.#/..#.#/..#.#/..#.#"},
    {0xb7, 3, "#"},
    {0xb8, 7, ".#/#."},
    {0xb9, 0, ".#/##/.#/.#"},
    {0xba, 0, ".#./#.#/.#./.../###"},
    {0xbb, 2, "#.#../.#.#./..#.#/.#.#./#.#.."},
    {0xbc, 0, "#...#./#..#../#.#.../.#.#.#/#..#.#/...###/.....#"},
    {0xbd, 0, "#...#./#..#../#.#.../.#.##./#....#/....#./...###"},
    {0xbe, 0, "##..#./.#.#../##.../.#.#.#/#..#.#/...###/.....#"},
    {0xbf, 2, "..#../...../..#../.#.../#..../#...#/.###."},
    {0xc6, 0, ".#####/#..#../#..#../#####./#..#../#..#../#..###"},
    {0xd0, 0, ".###./.#..#/.#..#/###.#/.#..#/.#..#/.###."},
    {0xd7, 1, "#...#/.#.#./..#../.#.#./#...#"},
    {0xd8, 0, ".###/#..#/#.##/#.##/##.#/##.#/###."},
    {0xde, 0, "#.../###./#..#/#..#/###./#.../#..."},
    {0xdf, 0, ".##./#..#/#..#/#.#./#..#/#..#/#.#."},
    {0xe6, 2, ".##.##./...#..#/.######/#..#.../.##.###"},
    {0xf0, 0, "#.#./.#../#.#./.###/#..#/#..#/.##."},
    {0xf7, 1, "..#../...../#####/...../..#.."},
    {0xf8, 2, ".###/#.##/#.##/##.#/###."},
    {0xfe, 0, "#.../#.../###./#..#/#..#/#..#/###./#.../#..."},
    {0x110, 0, ".###./.#..#/.#..#/###.#/.#..#/.#..#/.###."},
    {0x111, 0, "...#./..###/.###./#..#./#..#./#..#./.###."},
    {0x126, 0, ".#..#./######/.#..#./.####./.#..#./.#..#./.#..#."},
    {0x127, 0, ".#.../###../.###./.#..#/.#..#/.#..#/.#..#"},
    {DOTLESS_I, 2, "#/#/#/#/#"}, /* x-height tall, as the letters beside it (i's stem is a row shorter) */
    {0x132, 0, "#...#/#...#/#...#/#...#/#...#/#...#/#.##."},
    {0x133, 1, "#.#/.../#.#/#.#/#.#/#.#/..#/##."},
    {0x138, 2, "#..#/#.#./##../#.#./#..#"},
    {0x13f, 0, "#.../#.../#.../#.#./#.../#.../####"},
    {0x140, 0, "#../#../#../#.#/#../#../#.."},
    {0x141, 0, ".#.../.#.../.#.#./.##../##.../.#.../.####"},
    {0x142, 0, ".#./.#./.##/##./.#./.#./.#."},
    {0x149, 0, "#...../#...../..###./..#..#/..#..#/..#..#/..#..#"},
    {0x14a, 0, "#..#/##.#/#.##/#..#/#..#/#..#/#..#/...#/..#."},
    {0x14b, 2, "###./#..#/#..#/#..#/#..#/...#/..#."},
    {0x152, 0, ".#####/#..#../#..#../#..###/#..#../#..#../.#####"},
    {0x153, 2, ".##.##./#..#..#/#..####/#..#.../.##.###"},
    {0x166, 0, "#####/..#../..#../.###./..#../..#../..#.."},
    {0x167, 0, ".#./.#./###/.#./###/.#./.#."},
    {0x17f, 0, "..##/.#../.#../.#../.#../.#../.#.."},
};

/* ------------------------------------------------------------------ output */

static void make_glyphs(void) {
    make_ascii();
    for (size_t i = 0; i < sizeof DRAWN / sizeof DRAWN[0]; i++)
        draw(at(DRAWN[i].cp), 0, DRAWN[i].top + TOP, DRAWN[i].rows);
    Glyph dotless_j = {0};
    draw(&dotless_j, 0, 2 + TOP, "..#/..#/..#/..#/..#/..#/##.");
    for (size_t i = 0; i < sizeof COMPOSED / sizeof COMPOSED[0]; i++) {
        uint32_t b = COMPOSED[i].base;
        compose(COMPOSED[i].cp, b == DOTLESS_J ? &dotless_j : at(b), (Mark)COMPOSED[i].mark);
        if (COMPOSED[i].pair) {
            uint32_t small = b >= 'A' && b <= 'Z' ? b + 32 : b;
            if (b == 'I') small = 'i'; /* į keeps its dot */
            compose(COMPOSED[i].cp + 1u, at(small), (Mark)COMPOSED[i].mark);
        }
    }
}

/* One code point as UTF-8, for the comment beside its glyph. */
static const char *utf8_of(uint32_t cp, char out[4]) {
    if (cp < 0x80) out[0] = (char)cp, out[1] = 0;
    else out[0] = (char)(0xc0 | cp >> 6), out[1] = (char)(0x80 | (cp & 0x3f)), out[2] = 0;
    return out;
}

/* The file's text, built whole and then written at once (os_file.h). */
static char text[128 * 1024];
static uint64_t text_len;

__attribute__((format(printf, 1, 2))) static void emit(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text + text_len, sizeof text - text_len, fmt, ap);
    va_end(ap);
    if (n > 0) text_len = text_len + (uint64_t)n < sizeof text ? text_len + (uint64_t)n : sizeof text - 1;
}

static int write_glyphs(const char *path) {
    emit("/* font_glyphs.inc - the engine's default font, written by tools/mkfont (`ninja font_glyphs`):\n"
         "   do not edit, change the tool. Code points U+%04X..U+%04X, %d x %d pixels each, row by row\n"
         "   from the top, bit x = column x; baseline at row %d. Included by font.c only. */\n",
         FIRST, FIRST + COUNT - 1, CELL_W, CELL_H, 7 + TOP);
    emit("#define FONT_GLYPHS_FIRST 0x%x\n#define FONT_GLYPHS_COUNT %d\n", FIRST, COUNT);
    emit("#define FONT_GLYPHS_CELL_W %d\n#define FONT_GLYPHS_CELL_H %d\n\n", CELL_W, CELL_H);
    emit("static const uint8_t font_glyph_rows[FONT_GLYPHS_COUNT][FONT_GLYPHS_CELL_H] = {\n");
    for (uint32_t cp = FIRST; cp < FIRST + COUNT; cp++) {
        char u[4];
        emit("    {");
        for (int y = 0; y < CELL_H; y++) emit("0x%02x%s", at(cp)->row[y], y + 1 < CELL_H ? ", " : "");
        if (cp >= 0x80 && cp < 0xa0) emit("}, /* U+%04X (a control code: no glyph) */\n", cp);
        else if (cp == 0x7f || cp == 0xa0 || cp == 0xad) emit("}, /* U+%04X */\n", cp);
        else emit("}, /* U+%04X %s */\n", cp, utf8_of(cp, u));
    }
    emit("};\n");
    Error err;
    if (!st_os_write_file_atomic(path, text, text_len, &err)) {
        fprintf(stderr, "mkfont: %s\n", err.message);
        return 1;
    }
    return 0;
}

static const CliOption OPTS[] = {CLI_STANDARD_OPTIONS};
static const CliProgram PROGRAM = {"mkfont",
                                   "usage: mkfont OUT_FILE  (writes the default font's glyphs as C data)\n"
                                   "       mkfont --help | --version\n",
                                   NULL,
                                   OPTS,
                                   3,
                                   1,
                                   1};

int main(int argc, char **argv) {
    const char *out;
    CliValue v[3];
    int n, rc = st_cli_run(&PROGRAM, AD_VERSION, argc, argv, v, &out, &n);
    if (rc >= 0) return rc;
    make_glyphs();
    return write_glyphs(out);
}
