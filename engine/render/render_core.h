/* render_core.h - what the renderer front end (render.c) and its backends share. Internal
   to engine/render: game code sees render.h, where a Texture is an opaque handle.

   The front end owns the draw list, the sort and the vertices; a backend only turns a
   sorted list of batches into pixels. Per frame:

       backend_begin(clear)                   clear the target
       backend_submit(verts, batches)         one batch = one texture run of the sorted list
       backend_present()                      show it

   plus texture create/destroy and reading the picture back. The model is RAD Debugger's
   render_core.h, with one folder per backend (sdl/, gl/). The backend is chosen at run
   time (`--renderer gl|sdl`), so render.c calls the one it has (`rd->gl` or `rd->sdl`):
   plain functions, no table of pointers to go stale. */
#ifndef RENDER_CORE_H
#define RENDER_CORE_H

#include <strata/core/arena.h>
#include <strata/render/render_types.h>

/* The SDL_Renderer backend's share of a texture. Under SDL's software renderer, and within
   RENDER_COPY_BUDGET_BYTES, the SDL texture holds the image four times, [plain | flipped X]
   over [flipped Y | flipped XY], so a flip is a UV offset in the same batch: that renderer
   turns a quad with mirrored UVs into SDL_RenderCopyEx, which allocates a temporary surface
   per call. It also keeps one blit mapping per texture and rebuilds it, allocating, each
   time colour or alpha modulation or stretching switches on or off, so each combination
   (the RENDER_MOD_* bits of how a quad is drawn) gets its own copy of the image and no
   switch ever happens. GPU renderers need none of this: there `mirrored` is false and all
   eight `mod` are the one texture. */
typedef struct TextureSdl {
    struct SDL_Texture *mod[8]; /* [0] is the plain texture */
    bool mirrored;
} TextureSdl;

enum { RENDER_MOD_COLOR = 1u << 0, RENDER_MOD_ALPHA = 1u << 1, RENDER_MOD_STRETCH = 1u << 2 };

struct Texture {
    const char *name;
    int w, h; /* of the image */
    int cell_w, cell_h, cols, rows;
    uint16_t id;    /* sort key; 0 is the renderer's white texture (rects) */
    uint64_t bytes; /* pixel bytes the backend holds for it, copies included */
    TextureSdl sdl;
    uint32_t gl; /* the GL texture name */
};

/* One vertex as both backends consume it: the layout of SDL_Vertex (position, colour,
   texture coordinates), so the SDL backend hands the array to SDL_RenderGeometry as is and
   the GL backend streams it to its vertex buffer as is. Static-asserted in render_sdl.c. */
typedef struct RenderVertex {
    float x, y;
    uint8_t r, g, b, a;
    float u, v;
} RenderVertex;

/* `count` quads (4 vertices each, corners TL TR BR BL) from quad `first`, of one texture. */
typedef struct RenderBatch {
    const Texture *tex;
    uint32_t first, count;
} RenderBatch;

typedef struct RenderSdl RenderSdl;
typedef struct RenderGl RenderGl;

#endif
