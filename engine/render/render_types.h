/* render_types.h - the plain types the renderer's front end (render.h), its backends
   (render_core.h) and their callers share: colours, rectangles, a texture's description,
   one quad of the draw list, a frame's figures, where the picture lands. Data only: no
   functions, nothing of the platform, so a backend sees these and nothing of the front end
   or the window system's layer. */
#ifndef RENDER_TYPES_H
#define RENDER_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#define RENDER_MAX_LAYERS 256
#define RENDER_MAX_TEXTURES 256

typedef struct Color {
    uint8_t r, g, b, a;
} Color;
#define COLOR_WHITE ((Color){255, 255, 255, 255})
#define COLOR_BLACK ((Color){0, 0, 0, 255})
#define COLOR_RGBA(r, g, b, a) ((Color){(r), (g), (b), (a)})

typedef struct RectF {
    float x, y, w, h;
} RectF;

/* A texture plus the grid it is cut into (cell_w x cell_h cells, row-major). Opaque: it
   lives in the permanent arena and belongs to the backend that made it;
   st_render_texture_info tells what it is. */
typedef struct Texture Texture;

typedef struct TextureInfo {
    const char *name;
    int w, h; /* of the image */
    int cell_w, cell_h, cols, rows;
    uint64_t bytes; /* pixel bytes the backend keeps for it (copies included, see below) */
    uint16_t id;    /* DrawCmd.tex of its quads (0 is the renderer's own white: rects) */
} TextureInfo;

/* Under SDL's software renderer only, a texture keeps mirrored and modulation copies of its
   image (32 times the image: they spare an allocation per flipped or tinted quad there; see
   render_core.h). A renderer makes them only while the copies of all its textures, together,
   stay within this many bytes; a texture whose copies would pass it is uploaded once
   (`bytes` = w * h * 4) and drawn correctly, only not allocation-free under that renderer.
   The game's three atlases need 2.7 MiB of it; the copies of one 256x256 image would be the
   whole budget, so no such image gets them (TextureInfo.bytes says what each one got). */
#define RENDER_COPY_BUDGET_BYTES (8ull << 20)

enum { RENDER_FLIP_X = 1u << 0, RENDER_FLIP_Y = 1u << 1 };

/* One quad. Pushed by the render_* calls below; exposed for st_render_sort_commands. */
typedef struct DrawCmd {
    float x, y, w, h;     /* destination, logical pixels, view already applied */
    float u0, v0, u1, v1; /* texture coordinates 0..1, flips already applied */
    Color tint;
    uint16_t layer, tex;
} DrawCmd;

typedef struct RenderStats {
    /* texture runs submitted last frame: one draw call each (two
       or more under SDL's software renderer when a run's quads are
       modulated differently, see render_core.h) */
    uint32_t draw_calls;
    uint32_t sprites;     /* quads submitted last frame */
    uint32_t culled;      /* pushes skipped because they were off screen */
    uint32_t dropped;     /* pushes lost because the frame arena was full */
    uint64_t frame_bytes; /* frame-arena bytes used by last frame's commands */
} RenderStats;

/* Where the logical picture lands in the output: a rectangle in output pixels, and the
   factor from logical to output pixels (the platform's viewport, as a backend sees it). */
typedef struct RenderViewport {
    int x, y, w, h;
    float scale;
} RenderViewport;

#endif
