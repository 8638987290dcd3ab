/* draw.h - breakout's picture, from the rules' state alone: the same Sim draws the same
   frame, which is what the golden screenshot test relies on. Everything is rectangles and
   the code-drawn font (glyphs.h): no image files.

       draw_frame(rd, &font, &sim, "REPLAY");   // between st_render_begin and st_render_end
*/
#ifndef BREAKOUT_DRAW_H_
#define BREAKOUT_DRAW_H_

#include <strata/render/font.h>
#include <strata/render/render.h>

#include "sim.h"

/* `badge`: a word for the corner ("REPLAY", "DEMO"), or NULL. HUD text is formatted into
   the renderer's frame arena. */
void draw_frame(Renderer *rd, const Font *font, const Sim *s, const char *badge);

#endif
