/* font.h - text layout over bitmap fonts: UTF-8 in, one sprite per glyph out.

   A program needs no font file to print: st_font_default() bakes the engine's own font
   (8 x 12 cells, printable ASCII, Latin-1 Supplement U+00A0..U+00FF and Latin Extended-A
   U+0100..U+017F: 319 glyphs from static data, font_glyphs.inc) into a texture once, in the
   permanent arena. A game with a font of its own (a 16-column grid PNG of printable ASCII
   through st_asset_load_font, asset.h) points the font's `fallback` at the default one, and
   every letter its sheet lacks ("é", "Ł") is drawn from the default font at the same scale,
   its baseline on the game font's baseline:

       Error err;
       const Font *def = st_font_default(rd, perm, &err);         // NULL + err.message
       if (!def) st_error_report(&err);                          // and draw nothing
       st_font_draw(rd, def, 8, 8, STR8_LIT("Café Łódź"), COLOR_WHITE, 100, TEXT_ALIGN_LEFT, 1);
       Font own;
       if (st_asset_load_font(rd, perm, "font.png", 8, 10, 4, &own, &err)) own.fallback = def;

   Text is UTF-8 (utf8.h decodes it strictly). A code point neither the font nor its fallback
   has a glyph for, a control character, and each malformed sequence (st_utf8_next's U+FFFD)
   draw as the replacement glyph: the font's cell of U+007F, a hollow box, when it has one
   ('?' otherwise). Each glyph has its own advance, so "il" is narrower than "MW".
   st_font_make_from_pixels() measures them once, at load time, from the image the texture
   was made from: a glyph's ink (its rightmost opaque column + 1) plus `gap` pixels. ' '
   gets `space_advance`, and the digits share the widest digit's advance, so a timer does
   not jiggle as it ticks ("11" is as wide as "88"). st_font_measure, st_font_wrap and
   st_font_draw walk the same glyphs, so centred and right-aligned text lands exactly where
   it was measured. st_font_draw turns a string into st_render_sprite calls, one per glyph,
   so text batches with everything else drawn from the font's texture. */
#ifndef FONT_H
#define FONT_H

#include <strata/core/error.h>
#include <strata/render/render.h>

#define FONT_MAX_GLYPHS 352 /* U+0020..U+017F: a cell per code point, from first_char */

typedef struct Font {
    const Texture *tex;
    const struct Font *fallback; /* drawn for what this font has no glyph for (NULL: none) */
    int first_char;              /* code point of cell 0 (32) */
    int glyph_count;             /* cells: min(cells in tex, FONT_MAX_GLYPHS) */
    int glyph_w, glyph_h;
    int advance, line_h;               /* fixed advance (space; every glyph under st_font_make) / line, scale 1 */
    int baseline;                      /* rows from a cell's top to the baseline: 'H''s last ink row + 1 */
    int gap;                           /* trailing pixels of the last glyph that are not part of a width */
    uint8_t advances[FONT_MAX_GLYPHS]; /* pixels per glyph at scale 1, by cell; 0: no glyph */
} Font;

typedef enum TextAlign { TEXT_ALIGN_LEFT, TEXT_ALIGN_CENTER, TEXT_ALIGN_RIGHT } TextAlign;

/* A monospace Font over `tex` (cells are glyphs starting at char 32): every glyph advances
   `advance` pixels (<= 0: the cell width), of which the last 1 is gap. */
Font st_font_make(const Texture *tex, int advance);
/* A proportional Font over `tex`, measured from `rgba`: the tex->w x tex->h RGBA8 image
   `tex` was created from (only read here, not kept). Glyph advance = ink + `gap`; ' ' gets
   `space_advance`, digits the widest digit's advance (see above). */
Font st_font_make_from_pixels(const Texture *tex, const uint8_t *rgba, int space_advance, int gap);
/* The engine's default font (see above), its texture and the Font in `perm`; its pixels are
   built in a scratch scope (135 KB). Each call bakes a new texture: call it once. NULL and
   `err` filled when the renderer refuses the texture or `perm` is full. */
const Font *st_font_default(Renderer *rd, Arena *perm, Error *err);
/* Width in pixels of `text`'s widest line: the sum of its advances minus the last glyph's
   gap, so centred text is centred on its ink. */
float st_font_measure(const Font *f, Str8 text, float scale);
float st_font_line_height(const Font *f, float scale);
/* `text` broken into lines of at most `width` pixels at `scale`, in `a`: each space where a
   line ends becomes '\n' (a word wider than a line is cut between its characters, never
   inside one; a '\n' in the text stays one). *lines (may be NULL) gets how many lines. {0}
   when `a` is full. */
Str8 st_font_wrap(Arena *a, const Font *f, Str8 text, float width, float scale, int *lines);
/* Draws `text` with its left edge (or centre / right edge, per `align`) at x; returns the
   width. '\n' starts a new line. */
float st_font_draw(Renderer *rd, const Font *f, float x, float y, Str8 text, Color color, int layer, TextAlign align,
                   float scale);
/* printf into the frame arena, then st_font_draw (left aligned, scale 1). */
float st_font_drawf(Renderer *rd, const Font *f, float x, float y, Color color, int layer, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

#endif
