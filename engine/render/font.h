/* font.h - text layout over a bitmap font cut from a grid texture of printable ASCII.

   Each glyph has its own advance, so "il" is narrower than "MW" and no letter leaves a hole
   after it. st_font_make_from_pixels() measures them once, at load time, from the image the
   texture was made from: a glyph's ink (its rightmost opaque column + 1) plus `gap` pixels.
   Two kinds of glyph keep a fixed width instead, because their ink says nothing useful:
   ' ' (no ink at all) gets `space_advance`, and the digits share the widest digit's
   advance, so a timer or a counter does not jiggle as it ticks ("11" is as wide as "88").
   st_font_measure and st_font_draw walk the same table, so centred and right-aligned text
   lands exactly where it was measured. st_asset_load_font() (asset.h) does all of this from
   a PNG; st_font_make() is the monospace form for a grid without pixels at hand.

   Layout is all this module does: st_font_draw turns a string into st_render_sprite calls, one
   per glyph, so text batches with everything else drawn from the font's texture. */
#ifndef FONT_H
#define FONT_H

#include <strata/render/render.h>

#define FONT_MAX_GLYPHS 96 /* chars 32..127: printable ASCII plus DEL's cell */

typedef struct Font {
    const Texture *tex;
    int first_char;  /* code of cell 0 (32) */
    int glyph_count; /* cells with an advance: min(cells in tex, FONT_MAX_GLYPHS) */
    int glyph_w, glyph_h;
    int advance, line_h;               /* fixed advance (space; every glyph under st_font_make) / line, scale 1 */
    int gap;                           /* trailing pixels of the last glyph that are not part of a width */
    uint8_t advances[FONT_MAX_GLYPHS]; /* pixels per glyph at scale 1, by cell */
} Font;

typedef enum TextAlign { TEXT_ALIGN_LEFT, TEXT_ALIGN_CENTER, TEXT_ALIGN_RIGHT } TextAlign;

/* A monospace Font over `tex` (cells are glyphs starting at char 32): every glyph advances
   `advance` pixels (<= 0: the cell width), of which the last 1 is gap. */
Font st_font_make(const Texture *tex, int advance);
/* A proportional Font over `tex`, measured from `rgba`: the tex->w x tex->h RGBA8 image
   `tex` was created from (only read here, not kept). Glyph advance = ink + `gap`; ' ' gets
   `space_advance`, digits the widest digit's advance (see above). */
Font st_font_make_from_pixels(const Texture *tex, const uint8_t *rgba, int space_advance, int gap);
/* Width in pixels of `text`'s widest line: the sum of its advances minus the last glyph's
   gap, so centred text is centred on its ink. */
float st_font_measure(const Font *f, Str8 text, float scale);
float st_font_line_height(const Font *f, float scale);
/* `text` broken into lines of at most `width` pixels at `scale`, in `a`: each space where a
   line ends becomes '\n' (a word wider than a line is cut between its bytes; a '\n' in the
   text stays one). *lines (may be NULL) gets how many lines. {0} when `a` is full. */
Str8 st_font_wrap(Arena *a, const Font *f, Str8 text, float width, float scale, int *lines);
/* Draws `text` with its left edge (or centre / right edge, per `align`) at x; returns the
   width. '\n' starts a new line; bytes outside printable ASCII draw as '?'. */
float st_font_draw(Renderer *rd, const Font *f, float x, float y, Str8 text, Color color, int layer, TextAlign align,
                   float scale);
/* printf into the frame arena, then st_font_draw (left aligned, scale 1). */
float st_font_drawf(Renderer *rd, const Font *f, float x, float y, Color color, int layer, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

#endif
