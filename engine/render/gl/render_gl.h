/* render_gl.h - the OpenGL 3.3 core backend (render_core.h).

   Why 3.3 core: it is the newest version every desktop GPU and driver of the last fifteen
   years offers (Mesa's llvmpipe and every Intel, AMD and NVIDIA driver since 2010; macOS
   stops at 4.1 core and has no compatibility profile above 2.1), and its shaders are the
   GLSL of OpenGL ES 3.0 / WebGL 2 but for the version line. Nothing here needs more: one
   vertex array, one streamed vertex buffer, one static index buffer, one framebuffer. In
   the browser the same code runs on OpenGL ES 3.0 (WebGL 2). Functions come from
   SDL_GL_GetProcAddress, so the engine links no GL library.

   Per frame: the picture is drawn at its logical size into an offscreen framebuffer with
   nearest sampling; the vertices of all batches go to the vertex buffer in one upload;
   each batch is one glDrawElements; present blits the framebuffer to the window at the
   platform's viewport (whole-number scale, letterboxed) and swaps. */
#ifndef RENDER_GL_H
#define RENDER_GL_H

#include <strata/core/error.h>
#include <strata/render/render_core.h>

struct SDL_Window;

/* On the current GL context of `window` (the platform made it). NULL when the driver
   refuses something the backend needs; `why` then says what (ERROR_REFUSED). */
RenderGl *st_render_gl_create(Arena *perm, struct SDL_Window *window, int logical_w, int logical_h, Error *why);
void st_render_gl_release(RenderGl *g);
bool st_render_gl_texture_create(RenderGl *g, Texture *t, const uint8_t *rgba);
/* New pixels, of t->w x t->h (which may be a new size), into the same GL texture name. */
bool st_render_gl_texture_update(RenderGl *g, Texture *t, const uint8_t *rgba);
void st_render_gl_texture_release(RenderGl *g, Texture *t);
void st_render_gl_begin(RenderGl *g, Color clear);
void st_render_gl_submit(RenderGl *g, const RenderVertex *verts, const RenderBatch *batches, uint32_t batch_count,
                         uint32_t quad_count, Arena *scratch, RenderStats *stats);
void st_render_gl_present(RenderGl *g, RenderViewport vp);
bool st_render_gl_read_pixels(RenderGl *g, RenderViewport vp, Arena *out, uint8_t **rgba, int *w, int *h);
const char *st_render_gl_describe(const RenderGl *g);

#endif
