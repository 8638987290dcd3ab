/* debug_overlay.h - the F1 overlay: one live bar per arena, frame time, draw calls, sprites.

   Each bar is the arena's reserved address space; inside it, the committed part (lighter)
   and the used part (bright), with a tick at the peak. Next to it: the name and the numbers.
   It is the picture the arena documents describe: reserve is cheap, commit follows use,
   peak tells you how big a fixed arena must be.

       Arena *arenas[] = { perm, level, frame };
       DebugFrameInfo info = { .frame_ms = ms, .update_ms = ums, .stats = render_stats(rd) };
       if (show_debug) debug_overlay_draw(rd, font, arenas, 3, &info, 0, 18, 250);

   To show the scratch arenas too, add scratch_get(i) for i below scratch_stats()'s count:
   those exist already, while scratch_get of a higher index would create one just to show it.

   It draws through the renderer like everything else (rects + text in the frame arena), so
   call it before render_end. Stats are the previous frame's (this one is not submitted yet).
   (x, y) is the panel's top-left on the screen, so a game can keep its own status bar clear. */
#ifndef DEBUG_OVERLAY_H
#define DEBUG_OVERLAY_H

#include <stdint.h>

#include "core/arena.h"
#include "render/render.h"

typedef struct DebugFrameInfo {
    double frame_ms;  /* wall time of the last frame */
    double update_ms; /* time spent simulating in it */
    RenderStats stats;
    uint32_t entities; /* optional, 0 = not shown */
} DebugFrameInfo;

void debug_overlay_draw(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                        const DebugFrameInfo *info, float x, float y, int layer);

#endif
