/* font.c - glyph advances measured from the font's pixels, and text laid out into sprites. */
#include <strata/render/font.h>

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <strata/render/render_core.h>

static Font font_base(const Texture *tex, int advance) {
    int cells = tex->cols * tex->rows;
    return (Font){.tex = tex,
                  .first_char = 32,
                  .glyph_count = cells < FONT_MAX_GLYPHS ? cells : FONT_MAX_GLYPHS,
                  .glyph_w = tex->cell_w,
                  .glyph_h = tex->cell_h,
                  .advance = advance > 0 ? advance : tex->cell_w,
                  .line_h = tex->cell_h,
                  .gap = 1};
}

static uint8_t font_clamp_advance(int a) { return (uint8_t)(a < 1 ? 1 : a > 255 ? 255 : a); }

Font st_font_make(const Texture *tex, int advance) {
    Font f = font_base(tex, advance);
    memset(f.advances, font_clamp_advance(f.advance), sizeof f.advances);
    return f;
}

Font st_font_make_from_pixels(const Texture *tex, const uint8_t *rgba, int space_advance, int gap) {
    Font f = font_base(tex, space_advance);
    f.gap = gap;
    int digit_advance = 0;
    for (int c = 0; c < f.glyph_count; c++) {
        int x0 = c % tex->cols * tex->cell_w, y0 = c / tex->cols * tex->cell_h, ink = 0;
        for (int y = 0; y < tex->cell_h; y++)
            for (int x = ink; x < tex->cell_w; x++)
                if (rgba[((size_t)(y0 + y) * tex->w + x0 + x) * 4 + 3]) ink = x + 1;
        /* An inkless cell is a space (or an unfilled slot): give it the space's width. */
        int a = ink ? ink + gap : f.advance;
        f.advances[c] = font_clamp_advance(a);
        int ch = f.first_char + c;
        if (ch >= '0' && ch <= '9' && a > digit_advance) digit_advance = a;
    }
    /* Tabular digits: a counting timer keeps its width, so the text after it stays put. */
    for (int ch = '0'; ch <= '9'; ch++)
        if (ch - f.first_char >= 0 && ch - f.first_char < f.glyph_count)
            f.advances[ch - f.first_char] = font_clamp_advance(digit_advance);
    if (' ' - f.first_char >= 0 && ' ' - f.first_char < f.glyph_count)
        f.advances[' ' - f.first_char] = font_clamp_advance(f.advance);
    return f;
}

float st_font_line_height(const Font *f, float scale) { return f->line_h * scale; }

/* The cell drawn for byte `ch`: bytes without a glyph draw (and measure) as '?'. */
static int font_cell(const Font *f, unsigned char ch) {
    int cell = ch - f->first_char;
    if (cell < 0 || cell >= f->glyph_count) cell = '?' - f->first_char;
    return cell >= 0 && cell < f->glyph_count ? cell : 0;
}

/* Pixels from the start of `text`'s first line to its end (at the first '\n'), at scale 1,
   including the last glyph's gap; *end gets the index of that '\n' (or text.len). */
static int font_line_advance(const Font *f, Str8 text, uint64_t from, uint64_t *end) {
    int w = 0;
    uint64_t i = from;
    for (; i < text.len && text.data[i] != '\n'; i++) w += f->advances[font_cell(f, (unsigned char)text.data[i])];
    *end = i;
    return w;
}

float st_font_measure(const Font *f, Str8 text, float scale) {
    if (!f || !text.data) return 0; /* NULL + from is undefined even for from == 0 */
    int widest = 0;
    for (uint64_t i = 0; i <= text.len; i++) {
        uint64_t end;
        int w = font_line_advance(f, text, i, &end);
        /* The gap after the last glyph is not part of the visible width, so centred text
           is centred on its ink. */
        if (end > i && w - f->gap > widest) widest = w - f->gap;
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
    for (uint64_t i = 0; i < text.len; i++) {
        char ch = text.data[i];
        if (ch == '\n') {
            out[o++] = ch;
            n++, line = 0, space = -1;
            continue;
        }
        int adv = f->advances[font_cell(f, (unsigned char)ch)];
        if (line > 0 && line + adv - f->gap > limit) {
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
        out[o++] = ch;
        if (ch == ' ') space = (int64_t)(o - 1), after_space = 0;
        else after_space += adv;
        line += adv;
    }
    out[o] = 0;
    if (lines) *lines = n;
    return st_str8_make(out, o);
}

float st_font_draw(Renderer *rd, const Font *f, float x, float y, Str8 text, Color color, int layer, TextAlign align,
                   float scale) {
    /* {NULL, 0} is what st_str8_fmt returns when the frame arena is full: nothing to draw. */
    if (!f || !f->tex || !text.data) return 0;
    float widest = 0, pen_y = y;
    uint64_t i = 0;
    while (i <= text.len) {
        uint64_t end;
        int adv = font_line_advance(f, text, i, &end);
        float w = end > i ? (float)(adv - f->gap) * scale : 0;
        if (w > widest) widest = w;
        float pen_x = align == TEXT_ALIGN_CENTER ? x - floorf(w / 2) : align == TEXT_ALIGN_RIGHT ? x - w : x;
        for (; i < end; i++) {
            int cell = font_cell(f, (unsigned char)text.data[i]);
            if (text.data[i] != ' ') {
                RectF src = {(float)(cell % f->tex->cols * f->tex->cell_w),
                             (float)(cell / f->tex->cols * f->tex->cell_h), (float)f->glyph_w, (float)f->glyph_h};
                st_render_sprite(rd, f->tex, src, (RectF){pen_x, pen_y, f->glyph_w * scale, f->glyph_h * scale}, layer,
                                 color, 0);
            }
            pen_x += f->advances[cell] * scale;
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
