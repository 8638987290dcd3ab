/* font.c - glyph advances measured from the font's pixels, the default font baked from
   font_glyphs.inc, and UTF-8 text laid out into sprites. */
#include <strata/render/font.h>

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <strata/core/base.h>
#include <strata/core/utf8.h>
#include <strata/render/render_core.h>

#include <strata/render/font_glyphs.inc>

#define FONT_REPLACEMENT 0x7f /* the cell drawn for what has no glyph: a box in both fonts */

static Font font_base(const Texture *tex, int advance) {
    int cells = tex->cols * tex->rows;
    return (Font){.tex = tex,
                  .first_char = 32,
                  .glyph_count = cells < FONT_MAX_GLYPHS ? cells : FONT_MAX_GLYPHS,
                  .glyph_w = tex->cell_w,
                  .glyph_h = tex->cell_h,
                  .advance = advance > 0 ? advance : tex->cell_w,
                  .line_h = tex->cell_h,
                  .baseline = tex->cell_h,
                  .gap = 1};
}

static uint8_t font_clamp_advance(int a) { return (uint8_t)(a < 1 ? 1 : a > 255 ? 255 : a); }

Font st_font_make(const Texture *tex, int advance) {
    Font f = font_base(tex, advance);
    memset(f.advances, font_clamp_advance(f.advance), (size_t)f.glyph_count);
    return f;
}

Font st_font_make_from_pixels(const Texture *tex, const uint8_t *rgba, int space_advance, int gap) {
    Font f = font_base(tex, space_advance);
    f.gap = gap;
    int digit_advance = 0;
    for (int c = 0; c < f.glyph_count; c++) {
        int x0 = c % tex->cols * tex->cell_w, y0 = c / tex->cols * tex->cell_h, ink = 0, bottom = 0;
        for (int y = 0; y < tex->cell_h; y++)
            for (int x = 0; x < tex->cell_w; x++)
                if (rgba[((size_t)(y0 + y) * tex->w + x0 + x) * 4 + 3]) ink = MAX(ink, x + 1), bottom = y + 1;
        /* An inkless cell is a space (or an unfilled slot): give it the space's width. */
        int a = ink ? ink + gap : f.advance;
        f.advances[c] = font_clamp_advance(a);
        int ch = f.first_char + c;
        if (ch >= '0' && ch <= '9' && a > digit_advance) digit_advance = a;
        /* A capital without descender ends on the baseline: where a fallback's glyphs sit. */
        if (ch == 'H' && bottom) f.baseline = bottom;
    }
    /* Tabular digits: a counting timer keeps its width, so the text after it stays put. */
    for (int ch = '0'; ch <= '9'; ch++)
        if (ch - f.first_char >= 0 && ch - f.first_char < f.glyph_count)
            f.advances[ch - f.first_char] = font_clamp_advance(digit_advance);
    if (' ' - f.first_char >= 0 && ' ' - f.first_char < f.glyph_count)
        f.advances[' ' - f.first_char] = font_clamp_advance(f.advance);
    return f;
}

const Font *st_font_default(Renderer *rd, Arena *perm, Error *err) {
    enum { COLS = 16, ROWS = (FONT_GLYPHS_COUNT + COLS - 1) / COLS, W = COLS * FONT_GLYPHS_CELL_W };
    enum { H = ROWS * FONT_GLYPHS_CELL_H };
    SCRATCH_SCOPE(tmp, perm);
    uint8_t *px = st_arena_push_raw(tmp.arena, (uint64_t)W * H * 4, 16);
    Font *f = st_arena_push_struct(perm, Font);
    if (!px || !f) return st_arena_error(err), NULL;
    memset(px, 0, (size_t)W * H * 4);
    for (int c = 0; c < FONT_GLYPHS_COUNT; c++)
        for (int y = 0; y < FONT_GLYPHS_CELL_H; y++)
            for (int x = 0; x < FONT_GLYPHS_CELL_W; x++)
                if (font_glyph_rows[c][y] >> x & 1) {
                    int px_x = c % COLS * FONT_GLYPHS_CELL_W + x, px_y = c / COLS * FONT_GLYPHS_CELL_H + y;
                    memset(px + ((size_t)px_y * W + px_x) * 4, 0xff, 4); /* white: tinted when drawn */
                }
    Texture *t = st_render_texture_create(rd, perm, "default font", px, W, H, FONT_GLYPHS_CELL_W, FONT_GLYPHS_CELL_H);
    if (!t) return st_error_set(err, ERROR_IO, "default font", 0, 0, "cannot create its texture"), NULL;
    *f = st_font_make_from_pixels(t, px, 4, 1);
    /* The C1 control codes have cells (the table is dense) but no glyphs. */
    memset(f->advances + (0x80 - f->first_char), 0, 0xa0 - 0x80);
    return f;
}

float st_font_line_height(const Font *f, float scale) { return f->line_h * scale; }

/* Where a code point's glyph is: a cell of `font` (f or its fallback). */
typedef struct FontGlyph {
    const Font *font;
    int cell;
} FontGlyph;

static bool font_has(const Font *f, uint32_t cp) {
    int64_t cell = (int64_t)cp - f->first_char;
    return cell >= 0 && cell < f->glyph_count && f->advances[cell];
}

/* The glyph drawn (and measured) for `cp`: f's own, its fallback's, or the replacement. */
static FontGlyph font_glyph(const Font *f, uint32_t cp) {
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) cp = FONT_REPLACEMENT; /* controls have no picture */
    const Font *fb = f->fallback;
    if (font_has(f, cp)) return (FontGlyph){f, (int)cp - f->first_char};
    if (fb && fb->tex && font_has(fb, cp)) return (FontGlyph){fb, (int)cp - fb->first_char};
    uint32_t r = font_has(f, FONT_REPLACEMENT) ? FONT_REPLACEMENT : '?';
    return (FontGlyph){f, font_has(f, r) ? (int)r - f->first_char : 0};
}

static int font_advance(FontGlyph g) { return g.font->advances[g.cell]; }

/* Pixels from byte `from` of `text` to the end of its line (the next '\n'), at scale 1,
   including the last glyph's gap (*gap gets it); *end gets the index of that '\n' (or text.len). */
static int font_line_advance(const Font *f, Str8 text, uint64_t from, uint64_t *end, int *gap) {
    int w = 0;
    uint64_t i = from;
    *gap = f->gap;
    while (i < text.len && text.data[i] != '\n') {
        FontGlyph g = font_glyph(f, st_utf8_next(text, &i));
        w += font_advance(g);
        *gap = g.font->gap;
    }
    *end = i;
    return w;
}

float st_font_measure(const Font *f, Str8 text, float scale) {
    if (!f || !text.data) return 0; /* NULL + from is undefined even for from == 0 */
    int widest = 0;
    for (uint64_t i = 0; i <= text.len; i++) {
        uint64_t end;
        int gap, w = font_line_advance(f, text, i, &end, &gap);
        /* The gap after the last glyph is not part of the visible width, so centred text
           is centred on its ink. */
        if (end > i && w - gap > widest) widest = w - gap;
        i = end; /* the loop steps past the '\n' */
    }
    return (float)widest * scale;
}

Str8 st_font_wrap(Arena *a, const Font *f, Str8 text, float width, float scale, int *lines) {
    if (lines) *lines = 0;
    /* A cut word adds a '\n': at most one a byte. */
    char *out = text.len < UINT64_MAX / 2 ? st_arena_push_raw(a, text.len * 2 + 1, 1) : NULL;
    if (!out) return (Str8){0};
    int limit = scale > 0 ? (int)(width / scale) : 0;
    uint64_t o = 0;
    int n = text.len ? 1 : 0, line = 0, after_space = 0; /* lines; pixels on this line, since its last space */
    int64_t space = -1;                                  /* where in `out` this line's last space is */
    for (uint64_t i = 0, next = 0; i < text.len; i = next) {
        char ch = text.data[i];
        FontGlyph g = font_glyph(f, st_utf8_next(text, &next)); /* next: past this character's bytes */
        if (ch == '\n') {
            out[o++] = ch;
            n++, line = 0, space = -1;
            continue;
        }
        int adv = font_advance(g);
        if (line > 0 && line + adv - g.font->gap > limit) {
            n++;
            if (ch == ' ') { /* the line is full at a space: that space is the break */
                out[o++] = '\n';
                line = 0, space = -1;
                continue;
            }
            if (space >= 0) { /* back to the last space: the word moves down whole */
                out[space] = '\n';
                line = after_space;
            } else { /* a word wider than the line: cut it here */
                out[o++] = '\n';
                line = 0;
            }
            space = -1;
        }
        memcpy(out + o, text.data + i, (size_t)(next - i));
        o += next - i;
        if (ch == ' ') space = (int64_t)(o - 1), after_space = 0;
        else after_space += adv;
        line += adv;
    }
    out[o] = 0;
    if (lines) *lines = n;
    return st_str8_make(out, o);
}

/* One glyph with its cell's top-left at the pen; a fallback's glyph is moved so its
   baseline lies on f's. */
static void font_draw_glyph(Renderer *rd, const Font *f, FontGlyph g, float pen_x, float pen_y, Color color, int layer,
                            float scale) {
    const Font *gf = g.font;
    RectF src = {(float)(g.cell % gf->tex->cols * gf->tex->cell_w), (float)(g.cell / gf->tex->cols * gf->tex->cell_h),
                 (float)gf->glyph_w, (float)gf->glyph_h};
    float top = pen_y + (float)(f->baseline - gf->baseline) * scale;
    st_render_sprite(rd, gf->tex, src, (RectF){pen_x, top, gf->glyph_w * scale, gf->glyph_h * scale}, layer, color, 0);
}

float st_font_draw(Renderer *rd, const Font *f, float x, float y, Str8 text, Color color, int layer, TextAlign align,
                   float scale) {
    /* {NULL, 0} is what st_str8_fmt returns when the frame arena is full: nothing to draw. */
    if (!f || !f->tex || !text.data) return 0;
    float widest = 0, pen_y = y;
    uint64_t i = 0;
    while (i <= text.len) {
        uint64_t end;
        int gap, adv = font_line_advance(f, text, i, &end, &gap);
        float w = end > i ? (float)(adv - gap) * scale : 0;
        if (w > widest) widest = w;
        float pen_x = align == TEXT_ALIGN_CENTER ? x - floorf(w / 2) : align == TEXT_ALIGN_RIGHT ? x - w : x;
        while (i < end) {
            uint32_t cp = st_utf8_next(text, &i);
            FontGlyph g = font_glyph(f, cp);
            if (cp != ' ') font_draw_glyph(rd, f, g, pen_x, pen_y, color, layer, scale);
            pen_x += font_advance(g) * scale;
        }
        i++; /* past '\n' (or past the end) */
        pen_y += f->line_h * scale;
    }
    return widest;
}

float st_font_drawf(Renderer *rd, const Font *f, float x, float y, Color color, int layer, const char *fmt, ...) {
    Arena *frame = st_render_frame_arena(rd);
    if (!frame) return 0;
    va_list ap;
    va_start(ap, fmt);
    Str8 s = st_str8_fmtv(frame, fmt, ap);
    va_end(ap);
    return st_font_draw(rd, f, x, y, s, color, layer, TEXT_ALIGN_LEFT, 1);
}
