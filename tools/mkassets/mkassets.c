/* mkassets - draws the game's pixel art and writes assets/{tiles,sprites,font}.png.

   usage: mkassets OUT_DIR

   Everything is deterministic (no clock, no rand(): a fixed integer hash where texture is
   wanted), so the committed PNGs can be regenerated and compared byte for byte. Sprites
   are palette-indexed character grids: one character per pixel, '.' transparent. Where a
   sprite is left/right symmetric only the left 8 columns are written (HALF rows) and the
   right half is their mirror. The palette is Sweetie 16 plus a few in-between tones.
   Cell positions come from assets/atlas.h, shared with the game. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/asset/asset.h>
#include <strata/core/cli.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include "../../assets/atlas.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "easy_glyph.h"
#pragma GCC diagnostic pop

typedef struct Rgba {
    uint8_t r, g, b, a;
} Rgba;

static Rgba palette_(char ch)
{
    switch (ch) {
    case '0': return (Rgba){0x1a, 0x1c, 0x2c, 255}; /* ink */
    case '1': return (Rgba){0x5d, 0x27, 0x5d, 255}; /* plum */
    case '2': return (Rgba){0xb1, 0x3e, 0x53, 255}; /* red */
    case '3': return (Rgba){0xef, 0x7d, 0x57, 255}; /* orange */
    case '4': return (Rgba){0xff, 0xcd, 0x75, 255}; /* yellow / skin */
    case '5': return (Rgba){0xa7, 0xf0, 0x70, 255}; /* lime */
    case '6': return (Rgba){0x38, 0xb7, 0x64, 255}; /* green */
    case '7': return (Rgba){0x25, 0x71, 0x79, 255}; /* teal */
    case '8': return (Rgba){0x29, 0x36, 0x6f, 255}; /* navy */
    case '9': return (Rgba){0x3b, 0x5d, 0xc9, 255}; /* blue */
    case 'a': return (Rgba){0x41, 0xa6, 0xf6, 255}; /* sky */
    case 'b': return (Rgba){0x73, 0xef, 0xf7, 255}; /* cyan */
    case 'c': return (Rgba){0xf4, 0xf4, 0xf4, 255}; /* white */
    case 'd': return (Rgba){0x94, 0xb0, 0xc2, 255}; /* light grey */
    case 'e': return (Rgba){0x56, 0x6c, 0x86, 255}; /* grey */
    case 'f': return (Rgba){0x33, 0x3c, 0x57, 255}; /* dark grey */
    case 'g': return (Rgba){0x8f, 0x56, 0x3b, 255}; /* wood */
    case 'h': return (Rgba){0x5b, 0x34, 0x2e, 255}; /* dark wood */
    case 'i': return (Rgba){0x2a, 0x2f, 0x46, 255}; /* floor shadow */
    case 'j': return (Rgba){0x3d, 0x47, 0x66, 255}; /* floor light */
    case 'k': return (Rgba){0x7a, 0x1f, 0x3d, 255}; /* dark red */
    case 'l': return (Rgba){0x1f, 0x5e, 0x3a, 255}; /* dark green */
    case 'm': return (Rgba){0x1f, 0x2a, 0x5a, 255}; /* dark blue */
    case 'w': return (Rgba){0xff, 0xff, 0xff, 255}; /* pure white: the font, tinted at draw time */
    case 'x': return (Rgba){0x10, 0x10, 0x1a, 110}; /* shadow, translucent */
    case 'y': return (Rgba){0xf4, 0xf4, 0xf4, 150}; /* soft white */
    default: return (Rgba){0, 0, 0, 0};
    }
}

typedef struct Sheet {
    int w, h, cell_w, cell_h;
    uint8_t *px;
} Sheet;

static Sheet sheet_make(int cols, int rows, int cell_w, int cell_h)
{
    Sheet s = {cols * cell_w, rows * cell_h, cell_w, cell_h, NULL};
    s.px = calloc((size_t)s.w * s.h, 4); /* a tool, not the engine: the heap is fine here */
    if (!s.px) {
        fprintf(stderr, "mkassets: out of memory\n");
        exit(1);
    }
    return s;
}

static void put_(Sheet *s, int cell, int x, int y, Rgba c)
{
    if (x < 0 || y < 0 || x >= s->cell_w || y >= s->cell_h || c.a == 0) return;
    int cols = s->w / s->cell_w;
    int px = cell % cols * s->cell_w + x, py = cell / cols * s->cell_h + y;
    uint8_t *p = s->px + ((size_t)py * s->w + px) * 4;
    p[0] = c.r, p[1] = c.g, p[2] = c.b, p[3] = c.a;
}

static void put_ch_(Sheet *s, int cell, int x, int y, char ch) { put_(s, cell, x, y, palette_(ch)); }

static void fill_(Sheet *s, int cell, int x, int y, int w, int h, char ch)
{
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++) put_ch_(s, cell, i, j, ch);
}

/* A grid of 16 full rows. `dx, dy` shift it; `mirror` flips it left-right; `subst` maps
   'K','L','M' (key colour, light, dark) to palette characters. */
static void grid_(Sheet *s, int cell, const char *const rows[16], int dx, int dy, int mirror,
                  const char *subst)
{
    for (int y = 0; y < 16; y++) {
        if (strlen(rows[y]) != 16) {
            fprintf(stderr, "mkassets: cell %d row %d is %zu wide, not 16: \"%s\"\n", cell, y,
                    strlen(rows[y]), rows[y]);
            exit(1);
        }
        for (int x = 0; x < 16; x++) {
            char ch = rows[y][mirror ? 15 - x : x];
            if (subst && ch >= 'K' && ch <= 'M') ch = subst[ch - 'K'];
            put_ch_(s, cell, x + dx, y + dy, ch);
        }
    }
}

/* A left-right symmetric sprite from its left halves (8 chars per row). */
static void half_(Sheet *s, int cell, const char *const rows[16], int dx, int dy)
{
    for (int y = 0; y < 16; y++) {
        if (strlen(rows[y]) != 8) {
            fprintf(stderr, "mkassets: cell %d half row %d is %zu wide, not 8\n", cell, y, strlen(rows[y]));
            exit(1);
        }
        for (int x = 0; x < 8; x++) {
            put_ch_(s, cell, x + dx, y + dy, rows[y][x]);
            put_ch_(s, cell, 15 - x + dx, y + dy, rows[y][x]);
        }
    }
}

/* Deterministic texture noise. */
static uint32_t hash_(uint32_t x, uint32_t y, uint32_t seed)
{
    uint32_t h = x * 374761393u + y * 668265263u + seed * 2246822519u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return h ^ (h >> 16);
}

/* ------------------------------------------------------------------ key shapes */

/* Each key colour has a shape too, the same on the key's bow and on its doors' plates, so
   keys and doors never differ by colour alone: red is round, green a triangle, blue a
   diamond, three outlines unlike at any size (red and green, which look alike to most
   colour-blind players, get the two most unlike). The plates, 6 x 6 in KeyColor order,
   'X' inside, 'h' the keyhole. */
static const char *const door_plate[3][6] = {
    {".XXXX.", "XXXXXX", "XXhhXX", "XXhhXX", "XXXXXX", ".XXXX."},
    {"..XX..", "..XX..", ".XXXX.", ".XhhX.", "XXhhXX", "XXXXXX"},
    {"..XX..", ".XXXX.", "XXhhXX", "XXhhXX", ".XXXX.", "..XX.."},
};

/* ------------------------------------------------------------------ tiles *//* ------------------------------------------------------------------ tiles *//* ------------------------------------------------------------------ tiles */

/* Flagstones: a staggered 8x8 slab pattern, light top-left edges, dark mortar. */
static void floor_(Sheet *s, int cell, uint32_t seed, int cracked)
{
    fill_(s, cell, 0, 0, 16, 16, 'f');
    for (int y = 0; y < 16; y++) {
        int row = y / 8, off = row ? 4 : 0;
        for (int x = 0; x < 16; x++) {
            int lx = (x + off) % 8, ly = y % 8;
            char ch = 'f';
            if (ly == 7 || lx == 7) ch = 'i';
            else if (ly == 0 || lx == 0) ch = 'j';
            else if (hash_((uint32_t)x, (uint32_t)y, seed) % 23 == 0) ch = 'i';
            else if (hash_((uint32_t)x, (uint32_t)y, seed + 7) % 29 == 0) ch = 'j';
            put_ch_(s, cell, x, y, ch);
        }
    }
    if (seed == 2) { /* moss in the mortar */
        static const int moss[][2] = {{6, 7}, {7, 7}, {7, 6}, {8, 7}, {11, 15}, {12, 15}, {3, 11}, {3, 12}};
        for (size_t i = 0; i < sizeof moss / sizeof moss[0]; i++) put_ch_(s, cell, moss[i][0], moss[i][1], '7');
        put_ch_(s, cell, 7, 7, '6');
        put_ch_(s, cell, 3, 12, '6');
    }
    if (seed == 3) { /* a pebble */
        fill_(s, cell, 10, 3, 2, 2, 'e');
        put_ch_(s, cell, 10, 3, 'd');
        put_ch_(s, cell, 12, 4, 'i');
        put_ch_(s, cell, 11, 5, 'i');
    }
    if (cracked) {
        static const int crack[][2] = {{2, 3}, {3, 4}, {4, 4}, {5, 5}, {5, 6}, {9, 9}, {10, 10},
                                       {10, 11}, {11, 12}, {12, 12}, {13, 13}, {6, 6}};
        for (size_t i = 0; i < sizeof crack / sizeof crack[0]; i++) put_ch_(s, cell, crack[i][0], crack[i][1], '0');
    }
}

static void wall_top_(Sheet *s, int cell)
{
    /* Seen from above: a rough stone cap, blocks of 8x4 with light tops. */
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            int off = (y / 4) % 2 ? 4 : 0, lx = (x + off) % 8, ly = y % 4;
            char ch = 'e';
            if (ly == 3 || lx == 7) ch = 'f';
            else if (ly == 0) ch = 'd';
            else if (hash_((uint32_t)x, (uint32_t)y, 11) % 17 == 0) ch = 'f';
            put_ch_(s, cell, x, y, ch);
        }
}

static void wall_face_(Sheet *s, int cell)
{
    /* A cap of 4 rows, then a brick face that darkens toward the floor. */
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            char ch;
            if (y == 0) ch = 'd';
            else if (y < 3) ch = (x % 8 == 7) ? 'e' : 'd';
            else if (y == 3) ch = '0';
            else {
                int by = (y - 4) / 4, off = by % 2 ? 4 : 0, lx = (x + off) % 8, ly = (y - 4) % 4;
                if (ly == 3 || lx == 7) ch = '0';
                else if (ly == 0) ch = y < 10 ? 'e' : 'f';
                else ch = y < 10 ? 'f' : 'i';
            }
            put_ch_(s, cell, x, y, ch);
        }
}

static void water_(Sheet *s, int cell, int phase)
{
    fill_(s, cell, 0, 0, 16, 16, '8');
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            int wave = (x + phase * 4 + (y / 4) * 3) % 8;
            if (y % 4 == 1 && wave < 3) put_ch_(s, cell, x, y, '9');
            if (y % 4 == 2 && wave >= 3 && wave < 4) put_ch_(s, cell, x, y, '9');
            if (y % 8 == 1 && wave == 1) put_ch_(s, cell, x, y, 'a');
        }
    put_ch_(s, cell, (5 + phase * 6) % 16, 5 + phase * 4, 'b');
    put_ch_(s, cell, (12 + phase * 3) % 16, 12 - phase * 6, 'b');
}

static void spikes_(Sheet *s, int cell, int up)
{
    floor_(s, cell, 0, 0);
    static const int base[4][2] = {{2, 2}, {10, 2}, {2, 10}, {10, 10}};
    for (int k = 0; k < 4; k++) {
        int bx = base[k][0], by = base[k][1];
        fill_(s, cell, bx, by + 3, 4, 2, '0'); /* hole */
        if (!up) continue;
        static const char *const spike[5] = {".cd.", ".cd.", "cdde", "cdde", "0000"};
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 4; x++) put_ch_(s, cell, bx + x, by + y - 1, spike[y][x]);
    }
}

/* A door of key colour `color`: its panel in the colour (main, light, dark) and, on it,
   a white plate of the colour's shape with the keyhole. */
static void door_(Sheet *s, int cell, int color, char main, char light, char dark)
{
    static const char *const rows[16] = {
        "0dddddddddddddd0",
        "0deeeeeeeeeeeed0",
        "0de0000000000ed0",
        "0de0LLLKKLLL0ed0",
        "0de0LKKKKKKM0ed0",
        "0de0LKMKKMKM0ed0",
        "0de0LKMKKMKM0ed0",
        "0de0LKKKKKKM0ed0",
        "0de0LKKKKKKM0ed0",
        "0de0LKKKKKKM0ed0",
        "0de0LKMKKMKM0ed0",
        "0de0LKMKKMKM0ed0",
        "0de0LKKKKKKM0ed0",
        "0de0MMMMMMMM0ed0",
        "0ee0000000000ee0",
        "0000000000000000",
    };
    char subst[3] = {main, light, dark};
    grid_(s, cell, rows, 0, 0, 0, subst);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++) {
            char ch = door_plate[color][y][x];
            if (ch != '.') put_ch_(s, cell, 5 + x, 5 + y, ch == 'h' ? '0' : 'c');
        }
}

static void door_open_(Sheet *s, int cell)
{
    floor_(s, cell, 1, 0);
    fill_(s, cell, 0, 0, 3, 16, 'e');
    fill_(s, cell, 13, 0, 3, 16, 'e');
    fill_(s, cell, 0, 0, 1, 16, '0');
    fill_(s, cell, 15, 0, 1, 16, '0');
    fill_(s, cell, 1, 0, 1, 16, 'd');
    fill_(s, cell, 14, 0, 1, 16, 'd');
    fill_(s, cell, 3, 0, 10, 1, 'i');
}

static void exit_(Sheet *s, int cell)
{
    /* Stairs going down into the dark, inside a stone frame. */
    fill_(s, cell, 0, 0, 16, 16, '0');
    fill_(s, cell, 0, 0, 16, 2, 'd');
    fill_(s, cell, 0, 0, 2, 16, 'e');
    fill_(s, cell, 14, 0, 2, 16, 'e');
    static const char steps[] = {'d', 'e', 'f', 'i', '0'};
    for (int k = 0; k < 5; k++) {
        int y = 3 + k * 3, inset = 2 + k;
        fill_(s, cell, inset, y, 16 - 2 * inset, 2, steps[k]);
        if (k < 4) fill_(s, cell, inset, y + 2, 16 - 2 * inset, 1, 'i');
    }
    put_ch_(s, cell, 7, 0, '4');
    put_ch_(s, cell, 8, 0, '4');
}

static void portal_(Sheet *s, int cell, int phase)
{
    floor_(s, cell, 1, 0);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            int dx = 2 * x - 15, dy = 2 * y - 15, d2 = dx * dx + dy * dy; /* doubled coordinates */
            if (d2 > 14 * 14) continue;
            /* Rings that drift outward with the phase, plus a swirl from the angle. */
            int ring = (d2 / 28 + phase * 2 + ((dx > 0) ^ (dy > 0))) % 4;
            static const char ring_ch[4] = {'1', '9', 'a', 'b'};
            char ch = d2 > 12 * 12 ? '0' : ring_ch[ring];
            if (d2 < 3 * 3) ch = phase ? 'c' : 'b';
            put_ch_(s, cell, x, y, ch);
        }
}

static void make_tiles(Sheet *s)
{
    floor_(s, TS_FLOOR_0, 0, 0);
    floor_(s, TS_FLOOR_1, 1, 0);
    floor_(s, TS_FLOOR_2, 2, 0);
    floor_(s, TS_FLOOR_3, 3, 0);
    wall_top_(s, TS_WALL);
    wall_face_(s, TS_WALL_FACE);
    water_(s, TS_WATER_0, 0);
    water_(s, TS_WATER_1, 1);
    spikes_(s, TS_SPIKES, 1);
    door_(s, TS_DOOR_RED, 0, '2', '3', 'k');
    door_(s, TS_DOOR_GREEN, 1, '6', '5', 'l');
    door_(s, TS_DOOR_BLUE, 2, '9', 'a', 'm');
    exit_(s, TS_EXIT);
    portal_(s, TS_PORTAL_0, 0);
    portal_(s, TS_PORTAL_1, 1);
    door_open_(s, TS_DOOR_OPEN);
    spikes_(s, TS_SPIKES_DOWN, 0);
    floor_(s, TS_FLOOR_CRACKED, 0, 1);
}

/* ------------------------------------------------------------------ sprites */

/* The hero: a blue-hooded adventurer. Head and body share one grid per facing; the last
   three rows are the legs, swapped per walk frame; on step frames the body bobs 1 px. */
static const char *const hero_down[13] = {
    "................",
    "......0000......",
    "....00999900....",
    "...0999999a90...",
    "..099999999a90..",
    "..099444444990..",
    "..094404404490..",
    "..094444444490..",
    "...0944334490...",
    "...0099999900...",
    "..04a999999a40..",
    "..00gg4ggggg00..",
    "...0999999990...",
};
static const char *const hero_up[13] = {
    "................",
    "......0000......",
    "....00999900....",
    "...09a9999990...",
    "..09a999999990..",
    "..099999999990..",
    "..099999999990..",
    "..089999999980..",
    "...0899999980...",
    "...0088888800...",
    "..049999999940..",
    "..00gggggggg00..",
    "...0999999990...",
};
static const char *const hero_left[13] = {
    "................",
    "......00000.....",
    "....009999900...",
    "...09a99999990..",
    "..09a9999999990.",
    "..0444499999990.",
    "..0404499999980.",
    "..0444449999980.",
    "...03444999980..",
    "....0099999800..",
    "....0a99999a0...",
    "....0ggg4ggg0...",
    "....09999990....",
};
static const char *const legs_front[3][3] = {
    {"....0ff00ff0....", "....0ff00ff0....", "....000..000...."},
    {"....0ff00ff0....", "....000.0ff0....", "........000....."},
    {"....0ff00ff0....", "....0ff.000.....", "....000........."},
};
static const char *const legs_side[3][3] = {
    {".....0ff0ff0....", ".....0ff0ff0....", "....000.000....."},
    {"....0ff000ff0...", "...0ff0..0ff0...", "...000....000..."},
    {".....0fff0......", ".....0ff0.......", "....0000........"},
};

static void hero_(Sheet *s, int cell, const char *const body[13], const char *const legs[3], int bob,
                  int mirror)
{
    const char *rows[16];
    /* Blank-padded copy: '.' rows above when bobbing. */
    static const char blank[] = "................";
    for (int y = 0; y < 16; y++) rows[y] = blank;
    for (int y = 0; y < 13; y++) rows[y] = body[y];
    for (int y = 0; y < 3; y++) rows[13 + y] = legs[y];
    /* Legs stay planted, the body bobs: draw legs, then the body shifted. */
    const char *leg_rows[16], *body_rows[16];
    for (int y = 0; y < 16; y++) leg_rows[y] = y >= 13 ? rows[y] : blank;
    for (int y = 0; y < 16; y++) body_rows[y] = y < 13 ? rows[y] : blank;
    grid_(s, cell, leg_rows, 0, 0, mirror, NULL);
    grid_(s, cell, body_rows, 0, bob, mirror, NULL);
}

static const char *const slime_a[16] = {
    "........", "........", "........", "........", "........", "........",
    "........", "......00", "....0066", "...06666", "..065666", "..066066",
    ".0666666", ".0666660", ".0777777", "..000000",
};
static const char *const slime_b[16] = {
    "........", "........", "........", "........", "......00", ".....066",
    "....0666", "....0656", "...06566", "...06606", "...06666", "...06666",
    "...06660", "...07777", "....0000", "........",
};
static const char *const ghost_a[16] = {
    "........", "......00", "....00cc", "...0cccc", "..0ccccc", "..0ccccc",
    "..0c00cc", "..0c02cc", "..0ccccc", "..0cccc0", "..0ccccc", "..0dcccc",
    "..0ddddd", "..0dd0dd", "..00.00.", "........",
};
static const char *const ghost_b[16] = {
    "........", "........", "......00", "....00cc", "...0cccc", "..0ccccc",
    "..0ccccc", "..0c00cc", "..0c02cc", "..0ccccc", "..0cccc0", "..0dcccc",
    "..0ddddd", "..0ddddd", "..0d0dd0", "..0.0..0",
};
static const char *const turret_a[16] = {
    "........", "........", "....0000", "...0dddd", "..0ddccd", "..0deeee",
    "..0ee000", "..0ee022", "..0ee000", "..0eeeee", ".0feeeee", ".0ffffff",
    ".0fefffe", ".0000000", "........", "........",
};
static const char *const turret_b[16] = {
    "........", "........", "....0000", "...0dddd", "..0ddccd", "..0deeee",
    "..0ee000", "..0ee034", "..0ee000", "..0eeeee", ".0feeeee", ".0ffffff",
    ".0fefffe", ".0000000", "........", "........",
};
static const char *const coin_a[16] = {
    "........", "........", "........", "......00", "....0044", "...04444",
    "...04433", "...04434", "...04434", "...04433", "...04444", "....0033",
    "......00", "........", "........", "........",
};
static const char *const coin_b[16] = {
    "........", "........", "........", "......00", "......04", "......04",
    "......03", "......04", "......04", "......03", "......04", "......03",
    "......00", "........", "........", "........",
};
/* The keys, by KeyColor: a round bow, a triangular one, a diamond (see door_plate). */
static const char *const key_rows[3][16] = {
    {
        "................",
        "................",
        "................",
        "................",
        "..0000..........",
        ".0LLKK0.........",
        "0LK00KK0000000..",
        "0K0..0KLLLLLLLK0",
        "0K0..0KKKKKKKKK0",
        "0KK00KK00MM0MM0.",
        ".0KKKK0.0MM00M0.",
        "..0000...00..0..",
        "................",
        "................",
        "................",
        "................",
    },
    {
        "................",
        "................",
        "................",
        "...00...........",
        "..0LK0..........",
        "..0KK0..........",
        ".0LKKK00000000..",
        ".0KKKKKLLLLLLLK0",
        "0LK00KKKKKKKKKK0",
        "0KK00KM00MM0MM0.",
        "000000000MM00M0.",
        ".........00..0..",
        "................",
        "................",
        "................",
        "................",
    },
    {
        "................",
        "................",
        "................",
        "................",
        "...00...........",
        "..0LK0..........",
        ".0LKKK00000000..",
        "0LK00KKLLLLLLLK0",
        "0KK00KMKKKKKKKK0",
        ".0KKMM000MM0MM0.",
        "..0MM0..0MM00M0.",
        "...00....00..0..",
        "................",
        "................",
        "................",
        "................",
    },
};

static const char *const heart_rows[16] = {
    "................",
    "................",
    "...000....000...",
    "..0LKK0..0KKK0..",
    ".0LcKKK00KKKKK0.",
    ".0LKKKKKKKKKKM0.",
    ".0KKKKKKKKKKKM0.",
    "..0KKKKKKKKKM0..",
    "...0KKKKKKKM0...",
    "....0KKKKKM0....",
    ".....0KKKM0.....",
    "......0KM0......",
    ".......00.......",
    "................",
    "................",
    "................",
};
static const char *const bullet_rows[16] = {
    "........", "........", "........", "........", "........", "......00",
    ".....0KL", "....0KLc", "....0KLc", ".....0KK", "......00", "........",
    "........", "........", "........", "........",
};
/* Enemy bullets must read at a glance against any floor, wall or actor: bigger than the
   player's, a white-hot core in warm rings, and a dark outline that separates it from both
   light and dark tiles. */
static const char *const enemy_bullet_rows[16] = {
    "........", "........", "........", "........", "......00", ".....033",
    "....0344", "....034c", "....034c", "....0344", ".....033", "......00",
    "........", "........", "........", "........",
};
static const char *const particle_rows[16] = {
    "........", "........", "........", "........", "........", "........",
    "........", "......yc", "......yc", "........", "........", "........",
    "........", "........", "........", "........",
};
static const char *const spark_rows[16] = {
    "........", "........", "........", "........", "........", ".......c",
    ".......c", ".....ccc", ".....ccc", ".......c", "........", "........",
    "........", "........", "........", "........",
};
static const char *const shadow_rows[16] = {
    "........", "........", "........", "........", "........", "........",
    "........", "........", "........", "........", "........", "........",
    "........", "...xxxxx", "..xxxxxx", "...xxxxx",
};
static const char *const skull_rows[16] = {
    "........", "........", ".....000", "...00ccc", "..0ccccc", "..0ccccc",
    "..0c00cc", "..0c00cc", "..0ccccc", "...0ccc0", "....0cdc", "....0c0c",
    ".....000", "........", "........", "........",
};

/* A signpost: a plank with a few lines of dark "writing", on a short post, ink outlined. */
static const char *const sign_rows[16] = {
    "................",
    "................",
    "..000000000000..",
    ".03ggggggggggh0.",
    ".0ghhhhhghhhgh0.",
    ".0gggggggggggh0.",
    ".0ghhhghhhhggh0.",
    ".0gggggggggggh0.",
    ".0hhhhhhhhhhhh0.",
    "..000000000000..",
    "......0gh0......",
    "......0gh0......",
    "......0gh0......",
    "......0gh0......",
    ".....0hhhh0.....",
    "......0000......",
};

/* half_() with K/L/M substitution, for tinted symmetric sprites. */
static void half_subst_(Sheet *s, int cell, const char *const rows[16], const char *subst)
{
    char buf[16][17];
    const char *full[16];
    for (int y = 0; y < 16; y++) {
        if (strlen(rows[y]) != 8) {
            fprintf(stderr, "mkassets: cell %d half row %d is not 8 wide\n", cell, y);
            exit(1);
        }
        for (int x = 0; x < 8; x++) buf[y][x] = buf[y][15 - x] = rows[y][x];
        buf[y][16] = 0;
        full[y] = buf[y];
    }
    grid_(s, cell, full, 0, 0, 0, subst);
}

static void make_sprites(Sheet *s)
{
    const char *const *bodies[FACING_COUNT] = {hero_down, hero_up, hero_left, hero_left};
    for (int f = 0; f < FACING_COUNT; f++) {
        for (int fr = 0; fr < PLAYER_FRAMES; fr++) {
            int cell = SPR_PLAYER + f * PLAYER_FRAMES + fr;
            int side = f == FACING_LEFT || f == FACING_RIGHT;
            const char *const *legs = side ? legs_side[fr] : legs_front[fr];
            hero_(s, cell, bodies[f], legs, fr ? 1 : 0, f == FACING_RIGHT);
        }
    }
    half_(s, SPR_PATROLLER, slime_a, 0, 0);
    half_(s, SPR_PATROLLER + 1, slime_b, 0, 0);
    half_(s, SPR_CHASER, ghost_a, 0, 0);
    half_(s, SPR_CHASER + 1, ghost_b, 0, 0);
    half_(s, SPR_TURRET, turret_a, 0, 0);
    half_(s, SPR_TURRET + 1, turret_b, 0, 0);
    half_(s, SPR_COIN, coin_a, 0, 0);
    half_(s, SPR_COIN + 1, coin_b, 0, 0);
    grid_(s, SPR_KEY_RED, key_rows[0], 0, 0, 0, "23k");
    grid_(s, SPR_KEY_GREEN, key_rows[1], 0, 0, 0, "65l");
    grid_(s, SPR_KEY_BLUE, key_rows[2], 0, 0, 0, "9am");
    grid_(s, SPR_HEART, heart_rows, 0, 0, 0, "23k");
    grid_(s, SPR_HEART_EMPTY, heart_rows, 0, 0, 0, "fei");
    /* Half heart: the full one with its right half drawn empty. */
    grid_(s, SPR_HEART_HALF, heart_rows, 0, 0, 0, "fei");
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 8; x++) {
            char ch = heart_rows[y][x];
            if (ch >= 'K' && ch <= 'M') ch = "23k"[ch - 'K'];
            put_ch_(s, SPR_HEART_HALF, x, y, ch);
        }
    half_subst_(s, SPR_BULLET_PLAYER, bullet_rows, "abc");
    half_(s, SPR_BULLET_ENEMY, enemy_bullet_rows, 0, 0);
    half_(s, SPR_PARTICLE, particle_rows, 0, 0);
    half_(s, SPR_SPARK, spark_rows, 0, 0);
    half_(s, SPR_SHADOW, shadow_rows, 0, 0);
    half_(s, SPR_SKULL, skull_rows, 0, 0);
    grid_(s, SPR_SIGN, sign_rows, 0, 0, 0, NULL);
}

/* ------------------------------------------------------------------ font */

/* stb_easy_font draws ASCII as axis-aligned quads on an integer grid (glyphs up to 6 x 10
   including descenders): rasterising those quads gives a crisp bitmap font. */
static void make_font(Sheet *s)
{
    int r[256][4];
    for (int ch = FONT_FIRST_CHAR; ch < FONT_FIRST_CHAR + 96; ch++) {
        int cell = ch - FONT_FIRST_CHAR;
        if (ch == 127) {
            for (int y = 1; y < 8; y++)
                for (int x = 0; x < 5; x++)
                    if (y == 1 || y == 7 || x == 0 || x == 4) put_ch_(s, cell, x, y, 'w');
            continue;
        }
        int n = easy_glyph_rects((char)ch, r, 256);
        for (int q = 0; q < n; q++)
            for (int y = r[q][1]; y < r[q][3]; y++)
                for (int x = r[q][0]; x < r[q][2]; x++) put_ch_(s, cell, x, y, 'w');
    }
}

/* ------------------------------------------------------------------ main */

static int write_(const char *dir, const char *name, const Sheet *s)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    Error err;
    if (!st_asset_write_png(path, s->px, s->w, s->h, &err)) {
        fprintf(stderr, "mkassets: %s\n", err.message);
        return 1;
    }
    printf("mkassets: wrote %s (%dx%d)\n", path, s->w, s->h);
    return 0;
}

static const CliOption OPTS[] = {CLI_STANDARD_OPTIONS};
static const CliProgram PROGRAM = {"mkassets", "usage: mkassets OUT_DIR  (writes OUT_DIR/tiles.png, sprites.png and font.png)\n"
                            "       mkassets --help | --version\n", NULL, OPTS, 3, 1, 1};

int main(int argc, char **argv)
{
    const char *dir;
    CliValue v[3];
    int n, rc = st_cli_run(&PROGRAM, AD_VERSION, argc, argv, v, &dir, &n);
    if (rc >= 0) return rc;
    if (!st_os_make_dirs(dir)) {
        st_diag_report(DIAG_ERROR, "mkassets: cannot make the folder %s: %s", dir, strerror(errno));
        return 1;
    }
    Sheet tiles = sheet_make(ATLAS_COLS, TILES_ROWS, TILE_CELL, TILE_CELL);
    Sheet sprites = sheet_make(ATLAS_COLS, SPRITES_ROWS, SPRITE_CELL, SPRITE_CELL);
    Sheet font = sheet_make(FONT_COLS, 96 / FONT_COLS, FONT_CELL_W, FONT_CELL_H);
    make_tiles(&tiles);
    make_sprites(&sprites);
    make_font(&font);
    rc = write_(dir, "tiles.png", &tiles) | write_(dir, "sprites.png", &sprites) | write_(dir, "font.png", &font);
    free(tiles.px);
    free(sprites.px);
    free(font.px);
    return rc;
}
