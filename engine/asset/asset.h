/* asset.h - loading PNG textures from disk without touching the heap.

   stb_image is compiled once, here, with its STBI_MALLOC / STBI_REALLOC_SIZED / STBI_FREE
   hooks routed through an Allocator onto a scratch arena: the file bytes, the zlib buffers
   and the decoded pixels all live in one scratch scope that rewinds when the load returns.
   What survives (name, size, grid, the Texture itself) goes to the permanent arena; the
   pixels go to the GPU/SDL texture.

       AssetError err;
       Texture *tiles = asset_load_texture(rd, perm, "assets/tiles.png", 16, 16, &err);
       if (!tiles) { fprintf(stderr, "%s\n", err.message); return 1; }
       // missing file -> err.message: "assets/tiles.png: cannot open: No such file or directory"

   Loading never crashes on bad input: a missing, unreadable, truncated or corrupt file comes
   back as NULL with a message naming the file and the reason - os_read_describe()'s when the
   file cannot be read ("cannot open: <strerror>", "not a regular file (a directory)"), or
   "cannot load image: " and stb_image's stbi_failure_reason() when it does not decode.

   asset_dir() finds the assets/ folder: $AD_ASSET_DIR, else ./assets, else assets/ next to
   or above the executable (build/<preset>/game/.. /..), so the game runs from anywhere. */
#ifndef ASSET_H
#define ASSET_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "render/render.h"

typedef struct AssetError {
    char message[512];
} AssetError;

Texture *asset_load_texture(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h,
                            AssetError *err);

/* A font sheet (glyph cells of cell_w x cell_h from char 32, see render.h) as a texture plus
   the proportional Font over it, measured from the decoded pixels while they are still in
   the scratch scope: font_make_from_pixels(tex, px, space_advance, 1). The Texture lives in
   `perm`; the Font is a plain value (its advances are a fixed array). False + message. */
bool asset_load_font(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h,
                     int space_advance, Font *out, AssetError *err);

/* Decodes a PNG file into RGBA8 pixels in `out` (tests, tools). False + message on error. */
bool asset_load_rgba(Arena *out, const char *path, uint8_t **rgba, int *w, int *h,
                     AssetError *err);

/* Writes RGBA8 pixels as PNG; stb_image_write's buffers come from a scratch arena. */
bool asset_write_png(const char *path, const uint8_t *rgba, int w, int h, AssetError *err);

/* The assets directory (no trailing slash), in `perm`; NULL if none was found. */
const char *asset_dir(Arena *perm);
/* "<dir>/<name>" in `a`. */
const char *asset_path(Arena *a, const char *dir, const char *name);

#endif
