/* debug_overlay.h - the F1 overlay: one panel with the frame time, the draw calls and the
   sprites, a row per arena (used, committed, reserved and peak bytes, and a live bar), and
   the arena timelines of the last few seconds from an ArenaTrace (core/arena_trace.h).

   Each bar is the arena's reserved address space; inside it, the committed part (lighter)
   and the used part (bright), with a tick at the peak. Above it: the name and the figures,
   in the colours of the bar's parts. It is the picture the arena documents describe:
   reserve is cheap, commit follows use, peak tells you how big a fixed arena must be.

       Arena *arenas[] = { perm, level, frame };
       DebugFrameInfo info = { .frame_ms = ms, .update_ms = ums, .stats = st_render_stats(rd) };
       if (show_debug) st_debug_overlay_draw(rd, font, arenas, 3, &info, 0, 18, 250);

   The panel is translucent by default, so the play under it stays visible. Better, keep it
   off the play: st_debug_overlay_measure says how big it will be, before it is drawn, so a
   game can narrow its view by the panel's width and dock the panel, opaque, beside it,
   the timelines under the table in the height left:

       DebugOverlayOptions o = {.x = 480, .y = 18, .right = true, .h = 252, .layer = 250,
                                .alpha = 255, .trace = &trace, .trace_frames = 180};
       RectF box = st_debug_overlay_measure(rd, font, arenas, 3, &info, &o);
       st_camera_set_viewport(&cam, 0, 18, 480 - box.w, 252);   // the world left of it
       ...
       st_debug_overlay_draw_ex(rd, font, arenas, 3, &info, &o); // the same rectangle

   The panel's width depends on the font and the arenas' names only (figures are at most
   four characters in a fixed-width column, "232K"), and on the frame line's figures when
   they grow past the usual ("88.8 ms"), so it stays still from frame to frame.

   To show the scratch arenas too, add st_scratch_get(i) for i below st_scratch_stats()'s count:
   those exist already, while st_scratch_get of a higher index would create one just to show it.

   It draws through the renderer like everything else (rects + text in the frame arena), so
   call it before st_render_end. Stats are the previous frame's (this one is not submitted yet).
   (x, y) is the panel's top-left on the screen, so a game can keep its own status bar clear.
   Everything uses `layer` to `layer` + 4. */
#ifndef DEBUG_OVERLAY_H
#define DEBUG_OVERLAY_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/arena_trace.h>
#include <strata/render/font.h>

typedef struct DebugFrameInfo {
    double frame_ms;  /* wall time of the last frame */
    double update_ms; /* time spent simulating in it */
    RenderStats stats;
    uint32_t entities; /* optional, 0 = not shown */
} DebugFrameInfo;

typedef struct DebugOverlayOptions {
    float x, y; /* the panel's top-left corner; with `right`, its top-right corner */
    int layer;
    bool right; /* x is the panel's right edge: the panel grows leftwards */
    /* the panel's height; 0: as tall as what it holds. A table taller than
       this loses its last rows, the timelines go where there is room */
    float h;
    const char *const *labels; /* a name per arena (NULL, or a NULL entry: the arena's own) */
    const ArenaTrace *trace;   /* the timelines, under the table; NULL: none */
    uint32_t trace_frames;     /* ... of the last this many samples (0: as many as fit) */
    uint8_t alpha;             /* the panel's opacity; 0 = DEBUG_OVERLAY_ALPHA */
} DebugOverlayOptions;

#define DEBUG_OVERLAY_ALPHA 150 /* translucent: the player, and what is near, show through */

void st_debug_overlay_draw(Renderer *rd, const Font *font, Arena *const *arenas, int count, const DebugFrameInfo *info,
                           float x, float y, int layer);
/* The same with options; returns the rectangle the panel covers ({0} when nothing drawn). */
RectF st_debug_overlay_draw_ex(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                               const DebugFrameInfo *info, const DebugOverlayOptions *opt);
/* The rectangle st_debug_overlay_draw_ex would cover with the same arguments, drawing nothing
   (between st_render_begin and st_render_end: it formats in the frame arena, and gives it back). */
RectF st_debug_overlay_measure(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                               const DebugFrameInfo *info, const DebugOverlayOptions *opt);

/* The last `last_n` samples of `t` (0: as many as the box is wide), one lane per arena slot,
   drawn inside the box (x, y, w, h) and nowhere else: the used bytes as bars (committed
   behind them, dimmer), the frame's high mark as a brighter tick where it rose above what
   was left at the end of the frame, the arena's name with its newest `used` and all-time
   peak, and each mark as a vertical line, the newest one's text on the bottom line.

   The newest sample is at the right edge, one column per frame (wider when last_n is less
   than the box's width in pixels). Each lane is linear from 0 to its top: the next power
   of two above the highest mark shown, or the arena's capacity (reserved bytes) when that
   is lower, in which case the top edge is red: the lane's top is where the arena is full.
   A power of two keeps the scale still from frame to frame, and a spike sets it for as
   long as it is on screen. */
void st_debug_overlay_draw_trace(Renderer *rd, const Font *font, const ArenaTrace *t, uint32_t last_n, float x, float y,
                                 float w, float h, int layer);

#endif
