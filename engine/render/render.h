/* render.h - a batched 2D sprite renderer whose draw list lives in the frame arena.

   Every frame: clear the frame arena, begin, push commands (sprites from an atlas cell or
   region, filled rects, text through font.h), end. The commands are plain structs pushed
   into the frame arena; st_render_end() orders them by (layer, texture) with a stable
   two-pass counting sort in a scratch scope, builds the vertices in the same scope and
   hands the backend one batch per run of one texture, so draw calls per frame = texture
   runs, not sprites. Within a layer and texture, draw order is push order (the sort is
   stable).

   Two backends draw the batches (render_core.h): OpenGL 3.3 (gl/render_gl.c: one streamed
   vertex buffer, one glDrawElements per batch, the picture drawn at its logical size and
   scaled by whole steps, or below 1x to fit) and SDL_Renderer (sdl/render_sdl.c: one SDL_RenderGeometry per
   batch; the headless and software path). Which one is the platform's choice
   (PlatformDesc.renderer); st_render_create takes what the platform made.

       enum { LAYER_TILES = 0, LAYER_HUD = 100 };           // the game numbers its layers
       st_arena_clear(frame);
       st_render_begin(rd, frame, (Color){20, 16, 28, 255});
       st_render_set_view(rd, cam.pos[0], cam.pos[1]);          // world space from here on
       st_render_cell(rd, tiles, 4, x, y, LAYER_TILES, 0);      // cell 4 of the atlas grid
       st_render_set_view(rd, 0, 0);                            // screen space for the HUD
       st_font_drawf(rd, font, 4, 4, COLOR_WHITE, LAYER_HUD, "Coins %d", coins);
       st_render_end(rd);                                       // sort + submit
       if (want_shot) st_asset_write_screenshot(rd, "shot.png", &err); // asset.h; before present
       st_render_present(rd);

   Layers are 0..RENDER_MAX_LAYERS-1, drawn low to high. Textures are created through the
   renderer (asset.h loads PNGs into them); at most RENDER_MAX_TEXTURES. Coordinates are
   logical pixels (floats; the view offset is rounded to whole pixels so tiles never shimmer).
   A full frame arena drops commands (counted in stats.dropped) instead of crashing.

   Heap: none of the renderer's per frame. SDL 2.26's software renderer (the headless path)
   scales a stretched quad it must clip at the picture's edge through a temporary surface
   of its own (SDL_render_sw.c: 4 heap calls a frame for a 16x16 rect half past the border).
   The SDL backend cuts rects to the picture before SDL sees them, lighting the same pixels
   (test_render_edges), so rects cost nothing there; what still allocates is a scaled
   sprite (a texture's cell drawn at another size) half past the edge, and any stretched
   quad there when the software renderer draws a window at a scale other than 1. */
#ifndef RENDER_H
#define RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/str8.h>
#include <strata/render/render_types.h>

#include <strata/platform/platform.h>

TextureInfo st_render_texture_info(const Texture *tex);

typedef struct Renderer Renderer;

/* A renderer on what `pf` made for drawing: its GL context (the GL backend) or its
   SDL_Renderer. Textures and bookkeeping go to `perm`. When the GL backend cannot start
   on the context (a shader or framebuffer the driver refuses), the platform falls back to
   an SDL_Renderer (st_platform_use_sdl_renderer), with one line saying why, and this returns
   a renderer on that. NULL (reported) when neither works. */
Renderer *st_render_create(Arena *perm, Platform *pf);
void st_render_release(Renderer *rd); /* destroys the textures it created */
/* RENDERER_GL or RENDERER_SDL: the backend drawing. */
RendererKind st_render_kind(const Renderer *rd);
/* One line about the backend, for the overlay and logs: "OpenGL 3.3 (llvmpipe ...)". */
const char *st_render_describe(const Renderer *rd);

/* RGBA8 pixels (row-major, w*h*4 bytes) -> a Texture in `perm`. cell_w/cell_h 0 = whole
   image. NULL (and a report, core/diag.h) if SDL refuses or RENDER_MAX_TEXTURES is reached. */
Texture *st_render_texture_create(Renderer *rd, Arena *perm, const char *name, const uint8_t *rgba, int w, int h,
                                  int cell_w, int cell_h);

/* New pixels behind the same handle (a file reloaded): every later draw of `tex`, through
   the pointers already held, shows them. The grid keeps its cell size; cols and rows follow
   a new image size. The same size is an upload into the texture the backend has (no new
   texture, no heap of ours); a new size under SDL_Renderer makes the new texture before the
   old one goes. False (reported, the old image kept) when the backend refuses or the image
   is smaller than one cell. */
bool st_render_texture_replace(Renderer *rd, Texture *tex, const uint8_t *rgba, int w, int h);

void st_render_begin(Renderer *rd, Arena *frame, Color clear);
/* Offset subtracted from every later push (the camera's top-left); (0, 0) = screen space. */
void st_render_set_view(Renderer *rd, float x, float y);
/* Cell `index` of `tex`'s grid at (x, y), drawn at the cell's size. */
void st_render_cell(Renderer *rd, const Texture *tex, int index, float x, float y, int layer, uint32_t flip);
/* The same, tinted (multiplied by `tint`, alpha included). */
void st_render_cell_tinted(Renderer *rd, const Texture *tex, int index, float x, float y, int layer, Color tint,
                           uint32_t flip);
/* The general form: any source rectangle (texels), any destination size, tint, flip. */
void st_render_sprite(Renderer *rd, const Texture *tex, RectF src, RectF dst, int layer, Color tint, uint32_t flip);
void st_render_rect(Renderer *rd, RectF dst, int layer, Color color);
void st_render_rect_outline(Renderer *rd, RectF dst, int layer, Color color);
void st_render_end(Renderer *rd);     /* sort + submit */
void st_render_present(Renderer *rd); /* scale to the window and swap */

RenderStats st_render_stats(const Renderer *rd); /* of the last ended frame */
/* Commands pushed so far this frame (for tests and the overlay). */
uint32_t st_render_command_count(const Renderer *rd);
/* Command i, in push order, of the frame being built; after st_render_present, of the frame
   just shown, until the next st_render_begin or the frame arena's clear, whichever is first
   (its memory is the frame arena's). NULL past the end. What tests measure a frame by:
   where each quad went, from which texture, on which layer (TextureInfo.id). */
const DrawCmd *st_render_command(const Renderer *rd, uint32_t i);

/* The picture as the player sees it (call between st_render_end and st_render_present): the
   viewport of the output, in output pixels, as RGBA8 pixels in `out` (w*h*4 bytes, rows
   top to bottom). False when the backend cannot read it back (the reason reported through
   core/diag.h) or `out` is full. Writing them as a PNG is asset.h's (st_asset_write_screenshot):
   the renderer includes nothing of the asset side, which includes the renderer. */
bool st_render_read_pixels(Renderer *rd, Arena *out, uint8_t **rgba, int *w, int *h);

/* Stable LSD counting sort of `cmds` by (layer, tex) into `out` (distinct from cmds):
   two 8-bit passes, O(n), no comparisons. It computes the order with the same internal
   function st_render_end draws by, so tests and the bench check the order the game gets. */
void st_render_sort_commands(const DrawCmd *cmds, DrawCmd *out, uint32_t count);

/* The frame arena of the current frame, for callers that format their own strings. */
Arena *st_render_frame_arena(Renderer *rd);

#endif
