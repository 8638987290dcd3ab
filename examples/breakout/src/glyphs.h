/* glyphs.h - breakout's font, drawn by code: a 5 x 7 pixel face of capitals, digits and
   punctuation (lower case shows as capitals), made into a texture and a proportional Font
   at start-up, so the game ships no image.

       Font font;
       if (!glyphs_font(rd, perm, &font)) ...            // the texture in perm
       st_font_drawf(rd, &font, 4, 4, COLOR_WHITE, 10, "SCORE %d", score);
*/
#ifndef BREAKOUT_GLYPHS_H_
#define BREAKOUT_GLYPHS_H_

#include <stdbool.h>

#include <strata/core/arena.h>
#include <strata/render/font.h>

#define GLYPHS_CELL_W 6
#define GLYPHS_CELL_H 8

/* The sheet's pixels in a scratch scope, the texture in `perm`. False (reported) when the
   renderer refuses the texture. */
bool glyphs_font(Renderer *rd, Arena *perm, Font *out);

#endif
