/* render_sdl.h - the SDL_Renderer backend (render_core.h): one SDL_RenderGeometry per batch.

   The headless path (SDL's software renderer on a surface: tests, CI, --headless runs) and
   the fallback where no OpenGL 3.3 context can be made. Under the software renderer it
   keeps mirrored and modulation copies of small textures so that no quad makes SDL
   allocate (render_core.h, TextureSdl).

   STRATA_NO_RASTER=1 in the environment (a test hook, like STRATA_OS_FAIL_AFTER): under
   the software renderer, every batch is built, clipped and counted as before, and SDL is
   not asked to draw its pixels (nine tenths of a headless run's time), so the picture
   stays blank. For the runs that judge something other than pixels, many times over
   (tests/game/fault_sweep.sh); the replays, goldens and screenshots draw as always. */
#ifndef RENDER_SDL_H
#define RENDER_SDL_H

#include <strata/render/render_core.h>

struct SDL_Renderer;

RenderSdl *st_render_sdl_create(Arena *perm, struct SDL_Renderer *sdl);
/* Fills t->sdl and t->bytes from `rgba` (t->w x t->h); false with a report. */
bool st_render_sdl_texture_create(RenderSdl *s, Texture *t, const uint8_t *rgba);
/* New pixels of the same size into the textures t->sdl holds (copies too); false with a
   report. SDL_UpdateTexture only: no texture is made. */
bool st_render_sdl_texture_update(RenderSdl *s, Texture *t, const uint8_t *rgba);
void st_render_sdl_texture_release(RenderSdl *s, Texture *t);
void st_render_sdl_begin(RenderSdl *s, Color clear);
/* `verts` (4 per quad, texture coordinates of the image) may be rewritten in place;
   `scratch` is the caller's scratch scope. */
void st_render_sdl_submit(RenderSdl *s, RenderVertex *verts, const RenderBatch *batches, uint32_t batch_count,
                          uint32_t quad_count, Arena *scratch, RenderStats *stats);
void st_render_sdl_present(RenderSdl *s);
bool st_render_sdl_read_pixels(RenderSdl *s, Arena *out, uint8_t **rgba, int *w, int *h);
const char *st_render_sdl_describe(const RenderSdl *s);

#endif
