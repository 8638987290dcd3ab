/* frame_read.h - what a drawn frame shows, read back from its draw commands
   (st_render_command): the text it wrote, as strings with their ink rectangles, and the quads
   of one texture or one atlas cell, so a test can measure the picture (does this panel
   cover that sprite, is this label inside its panel) without hashing pixels.

       FrameText t[FRAME_TEXT_MAX];
       int n = frame_text(rd, &font, t, FRAME_TEXT_MAX);   // every run of glyphs
       const FrameText *hit = frame_text_find(t, n, "permanent", HOST_LAYER_PANEL, 255);
       DrawCmd c; int cell;
       for (uint32_t i = 0; frame_quad(rd, sprites, i, &c, &cell); i++) ...

   A run is the glyphs one st_font_draw line pushed: consecutive in push order, on one
   baseline, one layer and one tint, each after the last by its advance (a gap of whole
   spaces is a space). Its rectangle is the ink: from the first glyph's pen position to the
   last one's advance minus the font's gap, one line high. */
#ifndef FRAME_READ_H
#define FRAME_READ_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <strata/render/font.h>
#include <strata/render/render.h>

#define FRAME_TEXT_MAX 512
#define FRAME_TEXT_LEN 256

typedef struct FrameText {
    char s[FRAME_TEXT_LEN];
    RectF r;
    int layer;
    Color tint;
} FrameText;

static inline bool frame_rect_overlap(RectF a, RectF b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static inline bool frame_rect_inside(RectF in, RectF out) {
    return in.x >= out.x && in.y >= out.y && in.x + in.w <= out.x + out.w && in.y + in.h <= out.y + out.h;
}

static inline RectF frame_rect_clip(RectF a, RectF b) {
    float x0 = fmaxf(a.x, b.x), y0 = fmaxf(a.y, b.y);
    float x1 = fminf(a.x + a.w, b.x + b.w), y1 = fminf(a.y + a.h, b.y + b.h);
    return (RectF){x0, y0, fmaxf(0, x1 - x0), fmaxf(0, y1 - y0)};
}

static inline RectF frame_cmd_rect(const DrawCmd *c) { return (RectF){c->x, c->y, c->w, c->h}; }

static inline bool frame_same_color(Color a, Color b) {
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/* The atlas cell a quad of `tex` was cut from (its top-left texel's cell); -1 if unknown. */
static inline int frame_cell(const DrawCmd *c, TextureInfo tex) {
    if (tex.cell_w <= 0 || tex.cell_h <= 0 || tex.cols <= 0) return -1;
    float u = fminf(c->u0, c->u1), v = fminf(c->v0, c->v1);
    int tx = (int)floorf(u * (float)tex.w + 0.5f), ty = (int)floorf(v * (float)tex.h + 0.5f);
    return ty / tex.cell_h * tex.cols + tx / tex.cell_w;
}

/* The i-th quad of the frame drawn from `tex` (NULL: rects, the white texture); false past
   the last. *cell gets its atlas cell. */
static inline bool frame_quad_of(const Renderer *rd, const Texture *tex, uint32_t *i, DrawCmd *out, int *cell) {
    uint16_t id = tex ? st_render_texture_info(tex).id : 0;
    for (const DrawCmd *c; (c = st_render_command(rd, *i)) != NULL; (*i)++) {
        if (c->tex != id) continue;
        *out = *c;
        if (cell) *cell = tex ? frame_cell(c, st_render_texture_info(tex)) : -1;
        (*i)++;
        return true;
    }
    return false;
}

/* Every run of text in the frame, in push order; returns how many (at most cap). */
static inline int frame_text(const Renderer *rd, const Font *f, FrameText *out, int cap) {
    TextureInfo ti = st_render_texture_info(f->tex);
    int n = 0;
    float pen = 0; /* where the next glyph of the current run would start */
    FrameText *cur = NULL;
    for (uint32_t i = 0;; i++) {
        const DrawCmd *c = st_render_command(rd, i);
        if (!c) break;
        if (c->tex != ti.id) {
            cur = NULL;
            continue;
        }
        int cell = frame_cell(c, ti);
        if (cell < 0 || cell >= f->glyph_count) continue;
        float scale = c->h / (float)f->glyph_h;
        float adv = (float)f->advances[cell] * scale, space = (float)f->advance * scale;
        bool joins = cur && cur->layer == c->layer && frame_same_color(cur->tint, c->tint) && c->y == cur->r.y &&
                     c->x >= pen - 0.5f && c->x <= pen + 4 * space + 0.5f;
        if (joins) {
            size_t len = strlen(cur->s);
            for (int k = (int)floorf((c->x - pen) / space + 0.5f); k > 0 && len + 2 < FRAME_TEXT_LEN; k--)
                cur->s[len++] = ' ';
            if (len + 1 < FRAME_TEXT_LEN) cur->s[len++] = (char)(f->first_char + cell);
            cur->s[len] = '\0';
        } else {
            if (n >= cap) break;
            cur = &out[n++];
            memset(cur, 0, sizeof *cur);
            cur->s[0] = (char)(f->first_char + cell);
            cur->r = (RectF){c->x, c->y, 0, (float)f->line_h * scale};
            cur->layer = c->layer;
            cur->tint = c->tint;
        }
        pen = c->x + adv;
        cur->r.w = pen - (float)f->gap * scale - cur->r.x;
    }
    return n;
}

/* The first run that contains `needle`, on `layer` (-1: any) with alpha `alpha` (-1: any). */
static inline const FrameText *frame_text_find(const FrameText *t, int n, const char *needle, int layer, int alpha) {
    for (int i = 0; i < n; i++)
        if ((layer < 0 || t[i].layer == layer) && (alpha < 0 || t[i].tint.a == alpha) && strstr(t[i].s, needle))
            return &t[i];
    return NULL;
}

#endif
