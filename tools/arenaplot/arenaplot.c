/* arenaplot - draws an arena timeline, the CSV `game --arena-trace FILE.csv` writes, as a PNG.

       arenaplot FILE.csv OUT.png [--log] [--width W] [--height H] [--assets DIR]

   One lane per arena, stacked top to bottom in the order of the CSV's columns; x is the
   frame (tick labels in frames and in time at 60 Hz), y is bytes (linear from 0, or --log:
   powers of two). In each lane the bytes `used` at the end of each frame are a filled
   area, the frame's high mark (what was pushed and popped within it) a brighter line above
   it, `committed` a dim line, and the capacity (`reserved`) a dashed red line, or a note
   at the top when it is far above everything else on a linear scale. A level change is a
   solid vertical line through every lane and an event a dotted one, both labelled above
   the lanes with the event's text (cut to fit); a recommended level arena size is a dashed
   yellow line on the lane named "level"; every other level's stretch of frames is tinted.
   W defaults to 1280 and H to what gives each lane a box of 150 pixels. Text is drawn with the game's font (assets/font.png, found as the game
   finds its assets: st_asset_dir_search, or --assets DIR); the pixels are drawn here, with no
   renderer and no window, and written with st_asset_write_png.

   The CSV's rules are in trace_csv.h, which reads it. A file that breaks one is an error
   "FILE.csv:LINE: error: ..." and exit status 1, as is a PNG that cannot be written; bad
   usage is exit status 2. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../assets/atlas.h" /* the font's cells */
#include <strata/asset/asset.h>
#include <strata/core/arena.h>
#include <strata/core/base.h>
#include <strata/core/cli.h>
#include <strata/version.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include <strata/core/str8.h>
#include "trace_csv.h"

#define PLOT_MAX_SIDE 8192
#define PLOT_HZ 60

/* ==== Pixels and text =================================================================== */

typedef struct Canvas {
    uint8_t *px; /* RGBA8, row-major */
    int w, h;
} Canvas;

/* Draws over what is there with `alpha` (0..255). Outside the canvas: nothing. */
static void blend(Canvas *cv, int x, int y, uint32_t rgb, int alpha) {
    if (x < 0 || y < 0 || x >= cv->w || y >= cv->h || alpha <= 0) return;
    uint8_t *p = cv->px + ((size_t)y * (size_t)cv->w + (size_t)x) * 4;
    int c[3] = {(int)(rgb >> 16 & 255), (int)(rgb >> 8 & 255), (int)(rgb & 255)};
    if (alpha > 255) alpha = 255;
    for (int i = 0; i < 3; i++) p[i] = (uint8_t)(p[i] + (c[i] - p[i]) * alpha / 255);
    p[3] = 255;
}

/* [x0, x1) x [y0, y1). */
static void fill(Canvas *cv, int x0, int y0, int x1, int y1, uint32_t rgb, int alpha) {
    x0 = MAX(x0, 0), y0 = MAX(y0, 0), x1 = MIN(x1, cv->w), y1 = MIN(y1, cv->h);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) blend(cv, x, y, rgb, alpha);
}

/* [x0, x1] at y; dash > 0: dash pixels on, dash off (counted from x = 0, so lines line up). */
static void hline(Canvas *cv, int x0, int x1, int y, uint32_t rgb, int alpha, int dash) {
    for (int x = x0; x <= x1; x++)
        if (!dash || (x / dash) % 2 == 0) blend(cv, x, y, rgb, alpha);
}

static void vline(Canvas *cv, int x, int y0, int y1, uint32_t rgb, int alpha, int dash) {
    if (y0 > y1) {
        int s = y0;
        y0 = y1, y1 = s;
    }
    for (int y = y0; y <= y1; y++)
        if (!dash || (y / dash) % 2 == 0) blend(cv, x, y, rgb, alpha);
}

/* The game's font: cells of FONT_CELL_W x FONT_CELL_H from FONT_FIRST_CHAR, proportional
   as the game draws it (ink + 1 pixel; a fixed space; digits as wide as the widest). */
typedef struct Glyphs {
    const uint8_t *rgba;
    int w, h, count;
    uint8_t adv[96];
} Glyphs;

static bool glyphs_load(Glyphs *g, Arena *a, const char *assets_opt) {
    Error err;
    /* The font, installed with the engine's tools (share/strata/assets) or the source's. */
    AssetSearch search = {.given = assets_opt,
                          .env = "AD_ASSET_DIR",
                          .app = "strata",
                          .prefix = AD_INSTALL_PREFIX,
                          .source = AD_SOURCE_DIR};
    const char *dir = st_asset_dir_search(a, &search, &err);
    uint8_t *px;
    int w, h;
    if (!dir || !st_asset_load_rgba(a, st_asset_path(a, dir, "font.png"), &px, &w, &h, &err)) {
        st_diag_report(DIAG_ERROR, "arenaplot: %s", err.message);
        return false;
    }
    *g = (Glyphs){.rgba = px, .w = w, .h = h};
    g->count = MIN((w / FONT_CELL_W) * (h / FONT_CELL_H), (int)sizeof g->adv);
    int digits = 0;
    for (int i = 0; i < g->count; i++) {
        int cx = i % (w / FONT_CELL_W) * FONT_CELL_W, cy = i / (w / FONT_CELL_W) * FONT_CELL_H, ink = 0;
        for (int y = 0; y < FONT_CELL_H; y++)
            for (int x = 0; x < FONT_CELL_W; x++)
                if (px[((size_t)(cy + y) * (size_t)w + (size_t)(cx + x)) * 4 + 3]) ink = MAX(ink, x + 1);
        g->adv[i] = (uint8_t)(ink + 1);
        if (i + FONT_FIRST_CHAR >= '0' && i + FONT_FIRST_CHAR <= '9') digits = MAX(digits, ink + 1);
    }
    for (int c = '0'; c <= '9' && c - FONT_FIRST_CHAR < g->count; c++) g->adv[c - FONT_FIRST_CHAR] = (uint8_t)digits;
    if (g->count > ' ' - FONT_FIRST_CHAR) g->adv[' ' - FONT_FIRST_CHAR] = FONT_SPACE_ADVANCE;
    if (g->count <= '~' - FONT_FIRST_CHAR) {
        st_diag_report(DIAG_ERROR, "arenaplot: %s/font.png: %dx%d is too small for a font of %dx%d cells", dir, w, h,
                       FONT_CELL_W, FONT_CELL_H);
        return false;
    }
    return true;
}

/* The cell of byte `ch`, or -1 for a byte that draws nothing: a UTF-8 sequence draws one
   '?' (at its first byte), as does any other byte that is not printable ASCII but a line
   break or a tab, which draw a space. */
static int glyph_cell(const Glyphs *g, unsigned char ch) {
    if (ch >= 0x80 && ch < 0xC0) return -1;
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' '; /* a multi-line event reads as one line */
    if (ch < FONT_FIRST_CHAR || ch >= 127 || ch - FONT_FIRST_CHAR >= g->count) ch = '?';
    return ch - FONT_FIRST_CHAR;
}

static int text_width(const Glyphs *g, Str8 s, int scale) {
    int w = 0;
    for (uint64_t i = 0; i < s.len; i++) {
        int c = glyph_cell(g, (unsigned char)s.data[i]);
        if (c >= 0) w += g->adv[c] * scale;
    }
    return w ? w - scale : 0; /* the last glyph's gap is not part of the text */
}

/* Draws `s` with its top-left corner at (x, y); returns its width. */
static int draw_text(Canvas *cv, const Glyphs *g, int x, int y, Str8 s, uint32_t rgb, int scale) {
    int x_start = x, cols = g->w / FONT_CELL_W;
    for (uint64_t i = 0; i < s.len; i++) {
        int c = glyph_cell(g, (unsigned char)s.data[i]);
        if (c < 0) continue;
        int cx = c % cols * FONT_CELL_W, cy = c / cols * FONT_CELL_H;
        for (int gy = 0; gy < FONT_CELL_H; gy++)
            for (int gx = 0; gx < FONT_CELL_W; gx++) {
                int a = g->rgba[((size_t)(cy + gy) * (size_t)g->w + (size_t)(cx + gx)) * 4 + 3];
                if (a) fill(cv, x + gx * scale, y + gy * scale, x + (gx + 1) * scale, y + (gy + 1) * scale, rgb, a);
            }
        x += g->adv[c] * scale;
    }
    return x > x_start ? x - x_start - scale : 0;
}

static int draw_cstr(Canvas *cv, const Glyphs *g, int x, int y, const char *s, uint32_t rgb, int scale) {
    return draw_text(cv, g, x, y, st_str8_cstr(s), rgb, scale);
}

/* `s` cut to at most max_w pixels, ending in ".." when cut, in buf. */
static Str8 text_fit(const Glyphs *g, Str8 s, int max_w, int scale, char *buf, size_t cap) {
    if (text_width(g, s, scale) <= max_w) return s;
    int dots = text_width(g, STR8_LIT(".."), scale) + scale, w = 0;
    uint64_t keep = 0;
    for (uint64_t i = 0; i < s.len && i + 3 < cap; i++) {
        int c = glyph_cell(g, (unsigned char)s.data[i]);
        if (c >= 0 && w + g->adv[c] * scale + dots > max_w) break;
        if (c >= 0) w += g->adv[c] * scale;
        keep = i + 1;
    }
    while (keep > 0 && keep < s.len && ((unsigned char)s.data[keep] & 0xC0) == 0x80) keep--; /* whole UTF-8 */
    if (keep == 0) return (Str8){0};
    memcpy(buf, s.data, keep);
    memcpy(buf + keep, "..", 3);
    return st_str8_make(buf, keep + 2);
}

/* 512, 37.4K, 64K, 1.3M: binary units, one decimal below 100 unless the value is exact. */
static const char *fmt_bytes(uint64_t v, char *buf, size_t cap) {
    if (v < 1024) {
        snprintf(buf, cap, "%llu", (unsigned long long)v);
        return buf;
    }
    static const char units[] = "KMGTPE";
    uint64_t div = 1024;
    int u = 0;
    while (v / div >= 1024 && u < 5) div *= 1024, u++;
    double x = (double)v / (double)div;
    if (v % div == 0) snprintf(buf, cap, "%llu%c", (unsigned long long)(v / div), units[u]);
    else if (x < 99.95) snprintf(buf, cap, "%.1f%c", x, units[u]);
    else snprintf(buf, cap, "%.0f%c", x, units[u]);
    return buf;
}

/* A time at PLOT_HZ: 45s, 2m05s on whole seconds; 0.25s, 12.3s, 2m05.5s between them. */
static const char *fmt_time(uint64_t frame, char *buf, size_t cap) {
    uint64_t s = frame / PLOT_HZ;
    double x = (double)frame / PLOT_HZ;
    if (frame % PLOT_HZ == 0 && s < 60) snprintf(buf, cap, "%llus", (unsigned long long)s);
    else if (frame % PLOT_HZ == 0)
        snprintf(buf, cap, "%llum%02llus", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
    else if (s < 10) snprintf(buf, cap, "%.2fs", x);
    else if (s < 60) snprintf(buf, cap, "%.1fs", x);
    else snprintf(buf, cap, "%llum%04.1fs", (unsigned long long)(s / 60), x - (double)(s / 60 * 60));
    return buf;
}

/* ==== The plot ========================================================================== */

#define COL_BG 0x121318u
#define COL_BOX 0x1a1c23u
#define COL_TINT 0x232634u
#define COL_GRID 0x2a2d38u
#define COL_BORDER 0x3a3e4au
#define COL_TEXT 0xd6dae4u
#define COL_DIM 0x8a8f9cu
#define COL_COMMITTED 0x9aa0b4u
#define COL_RESERVED 0xe05a5au
#define COL_RECOMMENDED 0xe8c547u
#define COL_LEVEL_LINE 0xd0d4e0u
#define COL_EVENT_LINE 0x8890a4u
#define COL_ERROR 0xff7070u

static const uint32_t lane_palette[] = {0x5b9cf0, 0x5fd38a, 0xf0a35b, 0xb78cf0, 0x4fd0d0, 0xf07aa8, 0xd8d860, 0x9ab0c0};

static uint32_t lighten(uint32_t rgb, int pct) {
    uint32_t out = 0;
    for (int sh = 0; sh <= 16; sh += 8) {
        uint32_t c = rgb >> sh & 255;
        out |= (c + (255 - c) * (uint32_t)pct / 100) << sh;
    }
    return out;
}

typedef struct Options {
    const char *csv, *png, *assets;
    int w, h; /* 0: the default */
    bool log;
} Options;

/* One lane's plot box, [x0, x1) x [y0, y1), and its y scale: bytes 0..hi, or log2 lo..hi. */
typedef struct Lane {
    int x0, x1, y0, y1;
    bool log;
    double lo, hi;
} Lane;

/* The pixel row of `v` bytes, clamped into the box; *above: v is past the top. */
static int lane_y(const Lane *l, uint64_t v, bool *above) {
    double f;
    if (l->log) f = v < 1 ? 0 : (log2((double)v) - l->lo) / (l->hi - l->lo);
    else f = (double)v / l->hi;
    if (above) *above = f > 1.0001;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return l->y1 - 1 - (int)lround(f * (l->y1 - 1 - l->y0));
}

typedef enum MarkKind { MARK_LEVEL, MARK_EVENT, MARK_ERROR } MarkKind;
typedef struct Mark {
    int x;
    MarkKind kind;
    Str8 text;
} Mark;

/* Per pixel column: the maxima of one arena's values over the rows that column shows (the
   row in effect at its first frame, and every row that starts inside it). */
typedef struct Columns {
    uint64_t *v; /* [column * TRACE_VALUES + value] */
    uint64_t *level;
} Columns;

static uint64_t column_frame(uint64_t f_lo, uint64_t span, int c, int pw) {
    return f_lo + (uint64_t)((double)c * (double)span / (double)pw);
}

static void columns_fill(const Trace *t, int arena, int pw, uint64_t f_lo, uint64_t span, Columns *out) {
    uint64_t r = 0;
    for (int c = 0; c < pw; c++) {
        uint64_t fa = column_frame(f_lo, span, c, pw), fb = column_frame(f_lo, span, c + 1, pw);
        while (r + 1 < t->row_count && t->frame[r + 1] <= fa) r++;
        uint64_t *o = out->v + (size_t)c * TRACE_VALUES;
        for (int v = 0; v < TRACE_VALUES; v++) o[v] = trace_value(t, r, arena, v);
        if (out->level) out->level[c] = t->level[r];
        for (uint64_t k = r + 1; k < t->row_count && t->frame[k] < fb; k++)
            for (int v = 0; v < TRACE_VALUES; v++) o[v] = MAX(o[v], trace_value(t, k, arena, v));
    }
}

/* The y scale and its ticks for one lane, from every value it shows. */
static int lane_scale(Lane *l, const Trace *t, int arena, bool show_rec, uint64_t *ticks, int max_ticks,
                      bool *reserved_off) {
    uint64_t data = 0, reserved = 0, min_pos = UINT64_MAX;
    for (uint64_t r = 0; r < t->row_count; r++) {
        for (int v = 0; v < TRACE_VALUES; v++) {
            uint64_t x = trace_value(t, r, arena, v);
            if (x && x < min_pos) min_pos = x;
        }
        data = MAX(data, MAX(trace_value(t, r, arena, TRACE_HIGH), trace_value(t, r, arena, TRACE_USED)));
        data = MAX(data, trace_value(t, r, arena, TRACE_COMMITTED));
        reserved = MAX(reserved, trace_value(t, r, arena, TRACE_RESERVED));
    }
    if (show_rec) {
        data = MAX(data, t->recommended);
        if (t->recommended) min_pos = MIN(min_pos, t->recommended);
    }
    int n = 0;
    *reserved_off = false;
    if (l->log) {
        uint64_t top = MAX(data, reserved);
        /* Two powers below the smallest value, so that it stands above the floor. */
        int e_lo = min_pos == UINT64_MAX ? 10 : MAX((int)floor(log2((double)min_pos)) - 2, 0);
        int e_hi = top ? (int)ceil(log2((double)top)) : e_lo + 10;
        if (e_hi < e_lo + 2) e_hi = e_lo + 2;
        int step = 1;
        while ((e_hi - e_lo) / step + 1 > max_ticks) step++;
        e_lo = e_lo / step * step;
        while ((e_hi - e_lo) % step) e_hi++;
        l->lo = e_lo, l->hi = e_hi;
        for (int e = e_lo; e <= e_hi && e < 64; e += step) ticks[n++] = 1ull << e;
        return n;
    }
    /* Linear: a capacity far above the data would flatten it; it is noted instead. */
    if (reserved && reserved <= data + data / 2) data = reserved;
    else if (reserved) *reserved_off = true;
    if (!data) data = 1024;
    uint64_t want = data + data / 16, step = 1;
    while ((want + step - 1) / step > (uint64_t)max_ticks) step *= 2;
    uint64_t k = (want + step - 1) / step;
    l->lo = 0, l->hi = (double)(k * step);
    for (uint64_t i = 0; i <= k; i++) ticks[n++] = i * step;
    return n;
}

enum { PAD = 8, LEFT = 64, RIGHT = 18, LANE_HEAD = 13, LANE_GAP = 10, BOTTOM = 44, EVENT_ROWS = 3, EVENT_ROW_H = 12 };

static int top_of_lanes(bool events) { return 56 + (events ? EVENT_ROWS * EVENT_ROW_H + 4 : 0); }

/* One line of swatches and names, in short words when the long ones do not fit. */
static void draw_legend(Canvas *cv, const Glyphs *g, int x, int y, bool recommended) {
    static const char *const names[2][7] = {{"used at the end of the frame", "high mark within the frame", "committed",
                                             "reserved", "recommended level arena", "level change", "event"},
                                            {"used", "high", "committed", "reserved", "recommended", "level", "event"}};
    for (int s = 0; s < 2; s++) {
        int width = 0;
        for (int i = 0; i < 7; i++)
            if (i != 4 || recommended) width += 18 + text_width(g, st_str8_cstr(names[s][i]), 1) + 14;
        if (s == 0 && x + width > cv->w - PAD) continue;
        uint32_t swatch = lane_palette[0];
        for (int i = 0; i < 7; i++) {
            if (i == 4 && !recommended) continue;
            if (i == 0) fill(cv, x, y + 1, x + 14, y + 8, swatch, 120);
            if (i == 1) hline(cv, x, x + 13, y + 4, lighten(swatch, 45), 255, 0);
            if (i == 2) hline(cv, x, x + 13, y + 4, COL_COMMITTED, 170, 0);
            if (i == 3) hline(cv, x, x + 13, y + 4, COL_RESERVED, 255, 3);
            if (i == 4) hline(cv, x, x + 13, y + 4, COL_RECOMMENDED, 255, 4);
            if (i == 5) vline(cv, x + 7, y, y + 8, COL_LEVEL_LINE, 200, 0);
            if (i == 6) vline(cv, x + 7, y, y + 8, COL_EVENT_LINE, 220, 2);
            x += 18 + draw_cstr(cv, g, x + 18, y, names[s][i], COL_DIM, 1) + 14;
        }
        return;
    }
}

static bool plot(const Options *o, const Trace *t, const Glyphs *g, Arena *a) {
    int n = t->arena_count;
    bool any_marks = false;
    for (uint64_t r = 0; r < t->row_count && !any_marks; r++)
        any_marks = t->event[r].len || (r && t->level[r] != t->level[r - 1]);
    int lanes_top = top_of_lanes(any_marks);
    int w = o->w ? o->w : 1280;
    int h = o->h ? o->h : lanes_top + n * (LANE_HEAD + 150) + (n - 1) * LANE_GAP + BOTTOM;
    if (!o->h && h > PLOT_MAX_SIDE) h = PLOT_MAX_SIDE; /* many arenas: smaller lanes, not no plot */
    int min_h = lanes_top + n * (LANE_HEAD + 30) + (n - 1) * LANE_GAP + BOTTOM;
    if (min_h > PLOT_MAX_SIDE) {
        int fit = (PLOT_MAX_SIDE - lanes_top - BOTTOM + LANE_GAP) / (LANE_HEAD + 30 + LANE_GAP);
        st_diag_report(DIAG_ERROR,
                       "arenaplot: %d arenas do not fit in one plot: they need a height of at least %d pixels, and "
                       "a plot is at most %d (%d arenas at most)",
                       n, min_h, PLOT_MAX_SIDE, fit);
        return false;
    }
    if (h < min_h || h > PLOT_MAX_SIDE) {
        st_diag_report(DIAG_ERROR, "arenaplot: %d arenas need a height of %d to %d pixels, not %d", n, min_h,
                       PLOT_MAX_SIDE, h);
        return false;
    }
    Canvas cv = {st_arena_push_array(a, uint8_t, (uint64_t)w * (uint64_t)h * 4), w, h};
    int px0 = LEFT, px1 = w - RIGHT, pw = px1 - px0;
    Columns col = {st_arena_push_array(a, uint64_t, (uint64_t)pw * TRACE_VALUES),
                   st_arena_push_array(a, uint64_t, (uint64_t)pw)};
    Mark *marks = st_arena_push_array(a, Mark, t->row_count);
    if (!cv.px || !col.v || !col.level || !marks) {
        Error why;
        st_error_set(&why, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "arenaplot: ");
        st_arena_error(&why);
        st_error_report(&why);
        return false;
    }
    fill(&cv, 0, 0, w, h, COL_BG, 255);

    uint64_t f_lo = t->frame[0], f_hi = t->frame[t->row_count - 1] + 1, span = f_hi - f_lo;
    int lane_h = (h - lanes_top - BOTTOM - (n - 1) * LANE_GAP) / n;
    int lanes_bottom = lanes_top + n * lane_h + (n - 1) * LANE_GAP - 1;
    char b[256], b2[64], b3[64], b4[64], b5[64];

    /* Marks: level changes and events, at their frame. */
    uint64_t mark_count = 0, levels = 0;
    for (uint64_t r = 0; r < t->row_count; r++) {
        bool level_change = r && t->level[r] != t->level[r - 1];
        if (t->level[r] && (r == 0 || t->level[r] != t->level[r - 1])) levels++;
        if (!level_change && !t->event[r].len) continue;
        Mark *m = &marks[mark_count++];
        m->x = px0 + (int)((double)(t->frame[r] - f_lo) * pw / (double)span);
        m->text = t->event[r];
        m->kind = level_change ? MARK_LEVEL : MARK_EVENT;
        Str8 lower = m->text;
        for (uint64_t i = 0; i + 5 <= lower.len && m->kind == MARK_EVENT; i++)
            if (!memcmp(lower.data + i, "error", 5) || !memcmp(lower.data + i, " full", 5)) m->kind = MARK_ERROR;
        if (!m->text.len) m->text = st_str8_fmt(a, "level %llu", (unsigned long long)t->level[r]);
    }

    /* Title, summary and legend. */
    int title_scale = w >= 640 ? 2 : 1;
    Str8 base = st_path_base_name(st_str8_cstr(o->csv));
    int tw = draw_text(&cv, g, PAD, PAD, st_str8_fmt(a, "Arena timeline: %.*s", STR8_FMT(base)), COL_TEXT, title_scale);
    snprintf(b, sizeof b, "frames %llu-%llu (%s), %llu level%s, %llu mark%s, %s scale", (unsigned long long)f_lo,
             (unsigned long long)(f_hi - 1), fmt_time(span, b2, sizeof b2), (unsigned long long)levels,
             levels == 1 ? "" : "s", (unsigned long long)mark_count, mark_count == 1 ? "" : "s",
             o->log ? "log2" : "linear");
    Str8 sum = text_fit(g, st_str8_cstr(b), w - PAD - (PAD + tw + 16), 1, b5, sizeof b5);
    draw_text(&cv, g, w - PAD - text_width(g, sum, 1), PAD + (title_scale - 1) * FONT_CELL_H, sum, COL_DIM, 1);
    draw_legend(&cv, g, PAD, PAD + FONT_CELL_H * title_scale + 10, t->has_recommended);

    /* The x ticks, shared by every lane. */
    static const uint64_t steps[] = {1,     2,      5,      10,      20,      30,      60,      120,
                                     300,   600,    900,    1800,    3600,    7200,    18000,   36000,
                                     72000, 216000, 432000, 1296000, 2592000, 5184000, 15552000};
    uint64_t xstep = steps[ARRAY_COUNT(steps) - 1];
    for (size_t i = 0; i < ARRAY_COUNT(steps); i++)
        if (span / steps[i] <= (uint64_t)MAX(pw / 90, 1)) {
            xstep = steps[i];
            break;
        }
    while (span / xstep > (uint64_t)MAX(pw / 90, 1)) xstep *= 2;
    uint64_t xfirst = (f_lo + xstep - 1) / xstep * xstep;

    for (int k = 0; k < n; k++) {
        Lane l = {.x0 = px0, .x1 = px1, .y0 = lanes_top + k * (lane_h + LANE_GAP) + LANE_HEAD, .log = o->log};
        l.y1 = lanes_top + k * (lane_h + LANE_GAP) + lane_h;
        bool show_rec = t->has_recommended && st_str8_eq_cstr(t->arena_names[k], "level");
        uint64_t ticks[72];
        bool reserved_off;
        int nt = lane_scale(&l, t, k, show_rec, ticks, CLAMP((l.y1 - l.y0) / 18, 2, 6), &reserved_off);
        columns_fill(t, k, pw, f_lo, span, &col);
        uint32_t hue = lane_palette[k % (int)ARRAY_COUNT(lane_palette)];

        /* The box, tinted under every other level, and the grid. */
        fill(&cv, l.x0, l.y0, l.x1, l.y1, COL_BOX, 255);
        for (int c = 0; c < pw; c++)
            if (col.level[c] && col.level[c] % 2 == 0) vline(&cv, px0 + c, l.y0, l.y1 - 1, COL_TINT, 255, 0);
        for (int i = 0; i < nt; i++) {
            int y = lane_y(&l, ticks[i], NULL);
            if (i > 0) hline(&cv, l.x0, l.x1 - 1, y, COL_GRID, 255, 0);
            Str8 s = st_str8_cstr(fmt_bytes(ticks[i], b2, sizeof b2));
            draw_text(&cv, g, l.x0 - 5 - text_width(g, s, 1), y - 4, s, COL_DIM, 1);
        }
        for (uint64_t f = xfirst; f < f_hi; f += xstep) {
            int x = px0 + (int)((double)(f - f_lo) * pw / (double)span);
            vline(&cv, x, l.y0, l.y1 - 1, COL_GRID, 255, 0);
        }

        /* used (filled), committed, the high mark, reserved: each column joined to the last. */
        int prev_c = -1, prev_h = -1, prev_r = -1;
        for (int c = 0; c < pw; c++) {
            uint64_t *v = col.v + (size_t)c * TRACE_VALUES;
            int x = px0 + c;
            if (v[TRACE_USED]) vline(&cv, x, lane_y(&l, v[TRACE_USED], NULL), l.y1 - 1, hue, 110, 0);
            int yc = lane_y(&l, v[TRACE_COMMITTED], NULL);
            vline(&cv, x, prev_c < 0 ? yc : prev_c, yc, COL_COMMITTED, 150, 0);
            prev_c = yc;
            bool above;
            int yr = lane_y(&l, v[TRACE_RESERVED], &above);
            if (v[TRACE_RESERVED] && !above) {
                if (prev_r >= 0 && prev_r != yr) vline(&cv, x, prev_r, yr, COL_RESERVED, 255, 0);
                else if ((x / 4) % 2 == 0) blend(&cv, x, yr, COL_RESERVED, 255);
                prev_r = yr;
            } else {
                prev_r = -1;
            }
        }
        for (int c = 0; c < pw; c++) {
            int yh = lane_y(&l, col.v[(size_t)c * TRACE_VALUES + TRACE_HIGH], NULL);
            vline(&cv, px0 + c, prev_h < 0 ? yh : prev_h, yh, lighten(hue, 45), 255, 0);
            prev_h = yh;
        }
        if (show_rec) {
            bool above;
            int y = lane_y(&l, t->recommended, &above);
            hline(&cv, l.x0, l.x1 - 1, y, COL_RECOMMENDED, 255, 4);
            snprintf(b, sizeof b, "recommended %s", fmt_bytes(t->recommended, b2, sizeof b2));
            draw_cstr(&cv, g, l.x0 + 4, y - 11, b, COL_RECOMMENDED, 1);
        }
        if (reserved_off) {
            uint64_t res = 0;
            for (uint64_t r = 0; r < t->row_count; r++) res = MAX(res, trace_value(t, r, k, TRACE_RESERVED));
            snprintf(b, sizeof b, "reserved %s: off the top (--log shows it)", fmt_bytes(res, b2, sizeof b2));
            Str8 s = st_str8_cstr(b);
            draw_text(&cv, g, l.x1 - 4 - text_width(g, s, 1), l.y0 + 3, s, COL_RESERVED, 1);
        }

        /* Level changes and events through the lane. */
        for (uint64_t i = 0; i < mark_count; i++)
            vline(&cv, marks[i].x, l.y0, l.y1 - 1, marks[i].kind == MARK_LEVEL ? COL_LEVEL_LINE : COL_EVENT_LINE,
                  marks[i].kind == MARK_LEVEL ? 170 : 150, marks[i].kind == MARK_LEVEL ? 0 : 2);

        hline(&cv, l.x0 - 1, l.x1, l.y0 - 1, COL_BORDER, 255, 0);
        hline(&cv, l.x0 - 1, l.x1, l.y1, COL_BORDER, 255, 0);
        vline(&cv, l.x0 - 1, l.y0 - 1, l.y1, COL_BORDER, 255, 0);
        vline(&cv, l.x1, l.y0 - 1, l.y1, COL_BORDER, 255, 0);

        /* The lane's name and figures over its box. */
        uint64_t peak = 0, committed = 0, reserved = 0, last = trace_value(t, t->row_count - 1, k, TRACE_USED);
        for (uint64_t r = 0; r < t->row_count; r++) {
            peak = MAX(peak, MAX(trace_value(t, r, k, TRACE_HIGH), trace_value(t, r, k, TRACE_USED)));
            committed = MAX(committed, trace_value(t, r, k, TRACE_COMMITTED));
            reserved = MAX(reserved, trace_value(t, r, k, TRACE_RESERVED));
        }
        int nx = l.x0 + draw_text(&cv, g, l.x0, l.y0 - LANE_HEAD + 1, t->arena_names[k], lighten(hue, 30), 1);
        snprintf(b, sizeof b, "peak %s   at the end %s   committed up to %s   reserved %s",
                 fmt_bytes(peak, b2, sizeof b2), fmt_bytes(last, b3, sizeof b3), fmt_bytes(committed, b4, sizeof b4),
                 fmt_bytes(reserved, b5, sizeof b5));
        char fit[256];
        draw_text(&cv, g, nx + 12, l.y0 - LANE_HEAD + 1,
                  text_fit(g, st_str8_cstr(b), l.x1 - nx - 12, 1, fit, sizeof fit), COL_DIM, 1);
    }

    /* Labels over the lanes: each on the first of EVENT_ROWS rows that is free at its x,
       cut to what is left before the mark EVENT_ROWS further on (the next that could need
       the row); a mark with no free row keeps its line and loses its label. */
    int row_end[EVENT_ROWS];
    for (int r = 0; r < EVENT_ROWS; r++) row_end[r] = -1000;
    int band = lanes_top - 4 - EVENT_ROWS * EVENT_ROW_H;
    for (uint64_t i = 0; i < mark_count; i++) {
        Mark *m = &marks[i];
        int room = px1 - (m->x + 3);
        if (i + EVENT_ROWS < mark_count) room = MIN(room, marks[i + EVENT_ROWS].x - m->x - 6);
        room = MIN(MAX(room, 48), 320);
        int r = 0;
        while (r < EVENT_ROWS && row_end[r] > m->x) r++;
        if (r == EVENT_ROWS) continue;
        char fit[512];
        Str8 s = text_fit(g, m->text, MIN(room, w - PAD - m->x - 3), 1, fit, sizeof fit);
        uint32_t colour = m->kind == MARK_ERROR ? COL_ERROR : m->kind == MARK_LEVEL ? COL_TEXT : COL_DIM;
        int y = band + r * EVENT_ROW_H;
        vline(&cv, m->x, y, lanes_top - 1, m->kind == MARK_LEVEL ? COL_LEVEL_LINE : COL_EVENT_LINE, 150,
              m->kind == MARK_LEVEL ? 0 : 2);
        row_end[r] = m->x + 3 + draw_text(&cv, g, m->x + 3, y, s, colour, 1) + 6;
    }

    /* The x axis under the last lane: frames, and the time at PLOT_HZ under them. */
    int last_label = -1000;
    for (uint64_t f = xfirst; f < f_hi; f += xstep) {
        int x = px0 + (int)((double)(f - f_lo) * pw / (double)span);
        vline(&cv, x, lanes_bottom + 1, lanes_bottom + 4, COL_BORDER, 255, 0);
        snprintf(b, sizeof b, "%llu", (unsigned long long)f);
        Str8 fs = st_str8_cstr(b), ts = st_str8_cstr(fmt_time(f, b2, sizeof b2));
        int lw = MAX(text_width(g, fs, 1), text_width(g, ts, 1));
        int lx0 = CLAMP(x - lw / 2, 0, w - lw - 1);
        if (lx0 < last_label + 8) continue;
        draw_text(&cv, g, x - text_width(g, fs, 1) / 2, lanes_bottom + 7, fs, COL_DIM, 1);
        draw_text(&cv, g, x - text_width(g, ts, 1) / 2, lanes_bottom + 18, ts, COL_DIM, 1);
        last_label = lx0 + lw;
    }
    Str8 cap = STR8_LIT("frame, and the time at 60 frames per second");
    draw_text(&cv, g, px0 + (pw - text_width(g, cap, 1)) / 2, h - 12, cap, COL_DIM, 1);

    Error err;
    if (!st_asset_write_png(o->png, cv.px, w, h, &err)) {
        st_diag_report(DIAG_ERROR, "%s", err.message);
        return false;
    }
    return true;
}

/* ==== Main ============================================================================== */

enum { OPT_LOG = CLI_OPT_VERSION + 1, OPT_WIDTH, OPT_HEIGHT, OPT_ASSETS, OPT_COUNT };
static const CliOption OPTS[OPT_COUNT] = {
    CLI_STANDARD_OPTIONS,
    [OPT_LOG] = {.name = "--log", .arg = CLI_SWITCH},
    [OPT_WIDTH] = {.name = "--width", .arg = CLI_NUMBER, .lo = 240, .hi = PLOT_MAX_SIDE},
    [OPT_HEIGHT] = {.name = "--height", .arg = CLI_NUMBER, .lo = 240, .hi = PLOT_MAX_SIDE},
    [OPT_ASSETS] = {.name = "--assets", .arg = CLI_PATH},
};
#define ARENAPLOT_USAGE "usage: arenaplot FILE.csv OUT.png [--log] [--width W] [--height H] [--assets DIR]\n"
static const CliProgram PROGRAM = {
    "arenaplot",
    ARENAPLOT_USAGE,
    ARENAPLOT_USAGE "       arenaplot --help | --version\n"
                    "Draws the arena timeline `game --arena-trace FILE.csv` writes as a PNG: one lane per\n"
                    "arena, used (filled), the high mark within each frame, committed and reserved over\n"
                    "the frames, level changes and events as labelled lines. --log: a log2 byte scale.\n"
                    "W x H (240 to 8192 each) default to 1280 x what gives each lane a box of 150 pixels.\n"
                    "--assets DIR: where font.png is (default: share/strata/assets, installed with it). The\n"
                    "CSV's rules are at the top of tools/arenaplot/arenaplot.c. Exit status 1 on a bad CSV,\n"
                    "2 on bad usage.\n",
    OPTS,
    OPT_COUNT,
    2,
    2};

int main(int argc, char **argv) {
    Options o = {0};
    CliValue v[OPT_COUNT];
    const char *files[2];
    int n, rc = st_cli_run(&PROGRAM, STRATA_VERSION, argc, argv, v, files, &n);
    if (rc >= 0) return rc;
    o.csv = files[0];
    o.png = files[1];
    o.log = v[OPT_LOG].given;
    o.w = (int)v[OPT_WIDTH].n;
    o.h = (int)v[OPT_HEIGHT].n;
    o.assets = v[OPT_ASSETS].text;
    Error why;
    if (!st_os_write_check(o.png, &why)) {
        st_error_report(&why);
        return 1;
    }
    /* Everything lives here until exit: the text, the rows, the font, the pixels. A large
       reserve, because the pixels of an 8192 x 8192 plot are one 256 MiB push. */
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 4ull << 30, .name = "arenaplot"});
    if (!a) return 1;
    Trace t;
    Glyphs g;
    bool ok = trace_csv_read(a, o.csv, &t) && glyphs_load(&g, a, o.assets) && plot(&o, &t, &g, a);
    st_arena_release(a);
    return ok ? 0 : 1;
}
