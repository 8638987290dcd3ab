/* render.h - a batched 2D sprite renderer whose draw list lives in the frame arena.

   Every frame: clear the frame arena, begin, push commands (sprites from an atlas cell or
   region, filled rects, text), end. The commands are plain structs pushed into the frame
   arena; render_end() orders them by (layer, texture) with a stable two-pass counting
   sort in a scratch scope and submits each run of one texture as ONE SDL_RenderGeometry
   call, so draw calls per frame = texture runs, not sprites. Within a layer and texture,
   draw order is push order (the sort is stable).

       enum { LAYER_TILES = 0, LAYER_HUD = 100 };           // the game numbers its layers
       arena_clear(frame);
       render_begin(rd, frame, (Color){20, 16, 28, 255});
       render_set_view(rd, cam.pos[0], cam.pos[1]);          // world space from here on
       render_cell(rd, tiles, 4, x, y, LAYER_TILES, 0);      // cell 4 of the atlas grid
       render_set_view(rd, 0, 0);                            // screen space for the HUD
       render_textf(rd, font, 4, 4, COLOR_WHITE, LAYER_HUD, "Coins %d", coins);
       render_end(rd);                                       // sort + submit
       if (want_shot) asset_write_screenshot(rd, "shot.png", &err); // asset.h; before present
       render_present(rd);

   Layers are 0..RENDER_MAX_LAYERS-1, drawn low to high. Textures are created through the
   renderer (asset.h loads PNGs into them); at most RENDER_MAX_TEXTURES. Coordinates are
   logical pixels (floats; the view offset is rounded to whole pixels so tiles never shimmer).
   A full frame arena drops commands (counted in stats.dropped) instead of crashing. */
#ifndef RENDER_H
#define RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/str8.h"

struct SDL_Renderer; /* SDL types stay opaque here: game code needs no SDL header */
struct SDL_Texture;

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

/* A texture plus the grid it is cut into (cell_w x cell_h cells, row-major, `cols` per row).
   Everything here lives in the permanent arena; `sdl` is an SDL_Texture *. */
typedef struct Texture {
    struct SDL_Texture *sdl;
    const char *name;
    int w, h; /* of the image */
    int cell_w, cell_h, cols, rows;
    uint16_t id; /* sort key; 0 is the renderer's white texture (rects) */
    /* Under SDL's software renderer, and within RENDER_COPY_BUDGET_BYTES (below), the SDL
       texture holds the image four times, [plain | flipped X] over [flipped Y | flipped XY],
       so a flip is a UV offset in the same batch: that renderer turns a quad with mirrored
       UVs into SDL_RenderCopyEx, which allocates a temporary surface per call. GPU renderers
       flip by swapping UVs for free, so there `mirrored` is false and the texture is the
       image alone. */
    bool mirrored;
    /* The SDL texture a quad is drawn from, by the RENDER_MOD_* bits of how it is drawn;
       [0] is `sdl`. SDL's software renderer keeps one blit mapping per texture and rebuilds
       it, allocating, each time colour or alpha modulation or stretching switches on or
       off - which a texture drawn plain and tinted, or at two sizes, in one frame (text,
       rects) would do over and over. Under that renderer, within the budget, each
       combination has its own copy of the image, so no switch ever happens; otherwise all
       eight are `sdl`. */
    struct SDL_Texture *sdl_mod[8];
    uint64_t bytes; /* pixel bytes of every SDL texture above: copies included */
} Texture;

/* The mirrored image and its modulation copies cost 32 times the image (4 mirrored x 8).
   A renderer makes them only under SDL's software renderer and only while the copies of
   all its textures, together, stay within this many bytes; a texture whose copies would
   pass it is uploaded once (`bytes` = w * h * 4) and drawn correctly, only not
   allocation-free under that renderer: a flipped quad goes through SDL_RenderCopyEx and a
   change of modulation rebuilds the blit mapping. The game's three atlases need 2.7 MiB of
   it; the copies of one 256x256 image would be the whole budget, so no such image gets
   them (Texture.bytes says what each texture got). */
#define RENDER_COPY_BUDGET_BYTES (8ull << 20)

/* The bits of an sdl_mod index. */
enum { RENDER_MOD_COLOR = 1u << 0, RENDER_MOD_ALPHA = 1u << 1, RENDER_MOD_STRETCH = 1u << 2 };

enum { RENDER_FLIP_X = 1u << 0, RENDER_FLIP_Y = 1u << 1 };

/* One quad. Pushed by the render_* calls below; exposed for render_sort_commands. */
typedef struct DrawCmd {
    float x, y, w, h;       /* destination, logical pixels, view already applied */
    float u0, v0, u1, v1;   /* texture coordinates 0..1, flips already applied */
    Color tint;
    uint16_t layer, tex;
} DrawCmd;

typedef struct RenderStats {
    uint32_t draw_calls;   /* texture runs submitted last frame: one SDL_RenderGeometry each
                              (two or more under the software renderer when a run's quads
                              are modulated differently, see Texture.sdl_mod) */
    uint32_t sprites;      /* quads submitted last frame */
    uint32_t culled;       /* pushes skipped because they were off screen */
    uint32_t dropped;      /* pushes lost because the frame arena was full */
    uint64_t frame_bytes;  /* frame-arena bytes used by last frame's commands */
} RenderStats;

typedef struct Renderer Renderer;

/* `sdl_renderer` is platform_renderer(pf). Textures and bookkeeping go to `perm`. */
Renderer *render_create(Arena *perm, struct SDL_Renderer *sdl_renderer, int logical_w,
                        int logical_h);
void render_release(Renderer *rd); /* destroys the SDL textures it created */

/* RGBA8 pixels (row-major, w*h*4 bytes) -> a Texture in `perm`. cell_w/cell_h 0 = whole
   image. NULL (and a report, core/diag.h) if SDL refuses or RENDER_MAX_TEXTURES is reached. */
Texture *render_texture_create(Renderer *rd, Arena *perm, const char *name, const uint8_t *rgba,
                               int w, int h, int cell_w, int cell_h);

void render_begin(Renderer *rd, Arena *frame, Color clear);
/* Offset subtracted from every later push (the camera's top-left); (0, 0) = screen space. */
void render_set_view(Renderer *rd, float x, float y);
/* Cell `index` of `tex`'s grid at (x, y), drawn at the cell's size. */
void render_cell(Renderer *rd, const Texture *tex, int index, float x, float y, int layer,
                 uint32_t flip);
/* The general form: any source rectangle (texels), any destination size, tint, flip. */
void render_sprite(Renderer *rd, const Texture *tex, RectF src, RectF dst, int layer, Color tint,
                   uint32_t flip);
void render_rect(Renderer *rd, RectF dst, int layer, Color color);
void render_rect_outline(Renderer *rd, RectF dst, int layer, Color color);
void render_end(Renderer *rd);    /* sort + submit */
void render_present(Renderer *rd); /* SDL_RenderPresent */

RenderStats render_stats(const Renderer *rd); /* of the last ended frame */
/* Commands pushed so far this frame (for tests and the overlay). */
uint32_t render_command_count(const Renderer *rd);

/* The current back buffer (call between render_end and render_present) as RGBA8 pixels in
   `out` (w*h*4 bytes, rows top to bottom). False when SDL cannot read it back (the reason
   reported through core/diag.h) or `out` is full. Writing them as a PNG is asset.h's (asset_write_screenshot):
   the renderer includes nothing of the asset side, which includes the renderer. */
bool render_read_pixels(Renderer *rd, Arena *out, uint8_t **rgba, int *w, int *h);

/* Stable LSD counting sort of `cmds` by (layer, tex) into `out` (distinct from cmds):
   two 8-bit passes, O(n), no comparisons. It computes the order with the same internal
   function render_end draws by, so tests and the bench check the order the game gets. */
void render_sort_commands(const DrawCmd *cmds, DrawCmd *out, uint32_t count);

/* ---- Text: a bitmap font cut from a grid texture of printable ASCII. ----

   Each glyph has its own advance, so "il" is narrower than "MW" and no letter leaves a hole
   after it. font_make_from_pixels() measures them once, at load time, from the image the
   texture was made from: a glyph's ink (its rightmost opaque column + 1) plus `gap` pixels.
   Two kinds of glyph keep a fixed width instead, because their ink says nothing useful:
   ' ' (no ink at all) gets `space_advance`, and the digits share the widest digit's
   advance, so a timer or a counter does not jiggle as it ticks ("11" is as wide as "88").
   font_measure and render_text walk the same table, so centred and right-aligned text
   lands exactly where it was measured. asset_load_font() (asset.h) does all of this from
   a PNG; font_make() is the monospace form for a grid without pixels at hand. */
#define FONT_MAX_GLYPHS 96 /* chars 32..127: printable ASCII plus DEL's cell */

typedef struct Font {
    const Texture *tex;
    int first_char;   /* code of cell 0 (32) */
    int glyph_count;  /* cells with an advance: min(cells in tex, FONT_MAX_GLYPHS) */
    int glyph_w, glyph_h;
    int advance, line_h; /* fixed advance (space; every glyph under font_make) / line, scale 1 */
    int gap;             /* trailing pixels of the last glyph that are not part of a width */
    uint8_t advances[FONT_MAX_GLYPHS]; /* pixels per glyph at scale 1, by cell */
} Font;

typedef enum TextAlign { TEXT_ALIGN_LEFT, TEXT_ALIGN_CENTER, TEXT_ALIGN_RIGHT } TextAlign;

/* A monospace Font over `tex` (cells are glyphs starting at char 32): every glyph advances
   `advance` pixels (<= 0: the cell width), of which the last 1 is gap. */
Font font_make(const Texture *tex, int advance);
/* A proportional Font over `tex`, measured from `rgba`: the tex->w x tex->h RGBA8 image
   `tex` was created from (only read here, not kept). Glyph advance = ink + `gap`; ' ' gets
   `space_advance`, digits the widest digit's advance (see above). */
Font font_make_from_pixels(const Texture *tex, const uint8_t *rgba, int space_advance, int gap);
/* Width in pixels of `text`'s widest line: the sum of its advances minus the last glyph's
   gap, so centred text is centred on its ink. */
float font_measure(const Font *f, Str8 text, float scale);
float font_line_height(const Font *f, float scale);
/* Draws `text` with its left edge (or centre / right edge, per `align`) at x; returns the
   width. '\n' starts a new line; bytes outside printable ASCII draw as '?'. */
float render_text(Renderer *rd, const Font *f, float x, float y, Str8 text, Color color, int layer,
                  TextAlign align, float scale);
/* printf into the frame arena, then render_text (left aligned, scale 1). */
float render_textf(Renderer *rd, const Font *f, float x, float y, Color color, int layer,
                   const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* The frame arena of the current frame, for callers that format their own strings. */
Arena *render_frame_arena(Renderer *rd);

#endif
