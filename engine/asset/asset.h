/* asset.h - loading PNG textures from disk without touching the heap.

   stb_image is compiled once, here, with its STBI_MALLOC / STBI_REALLOC_SIZED / STBI_FREE
   hooks routed through an Allocator onto a scratch arena: the file bytes, the zlib buffers
   and the decoded pixels all live in one scratch scope that rewinds when the load returns.
   What survives (name, size, grid, the Texture itself) goes to the permanent arena; the
   pixels go to the GPU/SDL texture.

       Error err;
       Texture *tiles = st_asset_load_texture(rd, perm, "assets/tiles.png", 16, 16, &err);
       if (!tiles) { st_diag_report(DIAG_ERROR, "%s", err.message); return 1; }   // core/diag.h
       // missing file -> err.message: "assets/tiles.png: error: cannot open: No such file or directory"

   Loading never crashes on bad input: a missing, unreadable, truncated or corrupt file comes
   back as NULL with a message naming the file and the reason - st_os_read_file's when the
   file cannot be read ("cannot open: <strerror>", "not a regular file (a directory)"), or
   "cannot load image: " and stb_image's stbi_failure_reason() when it does not decode (or
   "truncated or corrupt PNG data" where stb_image gives no reason), or "image too large".

   Images are at most ASSET_MAX_IMAGE_SIDE pixels on each side. The size is read from the
   PNG header before anything is decoded, because a file of a few hundred KB can claim
   8192x8192 (256 MiB of pixels, and a texture and its copies on top, see render.h):
   "assets/tiles.png: image too large: 8192x8192, the limit is 4096x4096".

   st_asset_dir_search() finds a program's assets folder, first match wins, in the places the
   program names (AssetSearch):
     1. the folder the user named (a --assets DIR),
     2. the folder an environment variable names (either one, named and not a folder, is an
        error, not a fallback),
     3. assets/ beside the executable (a folder unpacked anywhere),
     4. ../share/<app>/assets from the executable's folder (an installed program, wherever
        its prefix was moved), and <prefix>/share/<app>/assets for the prefix it was built for,
     5. the assets/ of the source tree the program was built from: a build anywhere,
        `cmake -S . -B /elsewhere` included, finds the art it was built with,
     6. ./assets, last, so that a folder in the working directory cannot hide the program's own. */
#ifndef ASSET_H
#define ASSET_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/error.h>
#include <strata/render/font.h>

/* 4096x4096 RGBA8 is 64 MiB decoded, and the size most GPUs take as one texture. */
#define ASSET_MAX_IMAGE_SIDE 4096

Texture *st_asset_load_texture(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h, Error *err);

/* Whether a w x h image can be a sheet of cell_w x cell_h cells (0: the whole image is one):
   a whole number of them. The first load and every reload are held to it
   (st_asset_load_texture, asset_watch.h). False + message naming `path`. */
bool st_asset_check_sheet(const char *path, int w, int h, int cell_w, int cell_h, Error *err);

/* A font sheet (glyph cells of cell_w x cell_h from char 32, see render.h) as a texture plus
   the proportional Font over it, measured from the decoded pixels while they are still in
   the scratch scope: st_font_make_from_pixels(tex, px, space_advance, 1). The Texture lives in
   `perm`; the Font is a plain value (its advances are a fixed array). False + message. */
bool st_asset_load_font(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h, int space_advance,
                        Font *out, Error *err);

/* Decodes a PNG file into RGBA8 pixels in `out` (tests, tools). False + message on error,
   and `out` unchanged. */
bool st_asset_load_rgba(Arena *out, const char *path, uint8_t **rgba, int *w, int *h, Error *err);
/* The same from `size` bytes of PNG in memory; `path` is only for messages. */
bool st_asset_decode_rgba(Arena *out, const uint8_t *png, uint64_t size, const char *path, uint8_t **rgba, int *w,
                          int *h, Error *err);

/* Writes RGBA8 pixels as PNG; stb_image_write's buffers come from a scratch arena. */
bool st_asset_write_png(const char *path, const uint8_t *rgba, int w, int h, Error *err);
/* The renderer's back buffer as a PNG (call between st_render_end and st_render_present):
   st_render_read_pixels into a scratch arena, then st_asset_write_png. False + message,
   "shot.png: cannot read the frame back" or st_asset_write_png's. */
bool st_asset_write_screenshot(Renderer *rd, const char *path, Error *err);

/* Where st_asset_dir_search looks. */
typedef struct AssetSearch {
    const char *given;  /* named by the user: used, or an error; NULL: not named */
    const char *env;    /* an environment variable that may name it; NULL: none */
    const char *app;    /* share/<app>/assets, installed; NULL: not looked for */
    const char *prefix; /* the install prefix built for ("/usr/local"); NULL: none */
    const char *source; /* the source tree built from; NULL: none */
} AssetSearch;

/* The assets directory (no trailing slash), in `perm`, searched as described at the top.
   NULL + err naming the folder that was named, or every folder that was searched: "no
   assets folder found; looked in /opt/game/assets, ..., /home/me/assets". */
const char *st_asset_dir_search(Arena *perm, const AssetSearch *s, Error *err);
/* The order st_asset_dir_search looks in, with the folders of `s`, for a program's --help: a
   few lines, each ending in '\n', in buf (returned). */
const char *st_asset_dir_order(const AssetSearch *s, char *buf, size_t cap);
/* "<dir>/<name>" in `a`. */
const char *st_asset_path(Arena *a, const char *dir, const char *name);

#endif
