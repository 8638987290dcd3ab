/* asset.c - PNG in (stb_image), PNG out (stb_image_write), both on scratch arenas.

   Both libraries are compiled here, once, with their allocation hooks pointed at
   asset_stb_allocator, a thread-local Allocator that each call sets to a scratch arena for
   its own duration. Files are read and written with os.h's POSIX open/read/write helpers
   rather than stdio, because fopen allocates its buffer on the heap. */
#include "asset/asset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include "core/allocator.h"
#include "core/os.h"

static _Thread_local Allocator asset_stb_allocator;

static void *asset_stb_malloc(size_t size) {
    return allocator_alloc(asset_stb_allocator, size, 16);
}
static void *asset_stb_realloc(void *p, size_t old_size, size_t new_size) {
    return allocator_realloc(asset_stb_allocator, p, old_size, new_size, 16);
}
/* The size is unknown here, and the whole scratch scope is rewound when the call returns,
   so a free has nothing to do. */
static void asset_stb_free(void *p) { (void)p; }

#define STBI_MALLOC(sz) asset_stb_malloc(sz)
#define STBI_REALLOC_SIZED(p, oldsz, newsz) asset_stb_realloc((p), (oldsz), (newsz))
#define STBI_FREE(p) asset_stb_free(p)
#define STBI_NO_STDIO
#define STBI_ONLY_PNG
#define STBI_NO_THREAD_LOCALS_CHECK
#define STB_IMAGE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image.h>

#define STBIW_MALLOC(sz) asset_stb_malloc(sz)
#define STBIW_REALLOC_SIZED(p, oldsz, newsz) asset_stb_realloc((p), (oldsz), (newsz))
#define STBIW_FREE(p) asset_stb_free(p)
#define STBI_WRITE_NO_STDIO
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

static void asset_error(AssetError *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void asset_error(AssetError *err, const char *fmt, ...) {
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* Whole file into `a`. Images are read whole anyway; the cap only keeps the size an int
   for stb_image. */
static bool asset_read_file(Arena *a, const char *path, uint8_t **data, uint64_t *size,
                            AssetError *err) {
    Str8 file;
    OsReadResult r = os_read_file(a, path, INT32_MAX, &file);
    if (r.status != OS_READ_OK) {
        char why[300];
        asset_error(err, "%s: %s", path, os_read_describe(r, why, sizeof why));
        return false;
    }
    *data = (uint8_t *)file.data; /* our own buffer in `a`, read-only only to Str8 */
    *size = file.len;
    return true;
}

/* Decodes into `scratch`; the caller owns the scope. */
static uint8_t *asset_decode(Arena *scratch, const char *path, int *w, int *h, AssetError *err) {
    uint8_t *file;
    uint64_t size;
    if (!asset_read_file(scratch, path, &file, &size, err)) return NULL;
    asset_stb_allocator = arena_allocator(scratch);
    int comp = 0;
    uint8_t *px = stbi_load_from_memory(file, (int)size, w, h, &comp, 4);
    asset_stb_allocator = (Allocator){0};
    if (!px) {
        asset_error(err, "%s: cannot load image: %s", path, stbi_failure_reason());
        return NULL;
    }
    return px;
}

bool asset_load_rgba(Arena *out, const char *path, uint8_t **rgba, int *w, int *h,
                     AssetError *err) {
    SCRATCH_SCOPE(tmp, out);
    uint8_t *px = asset_decode(tmp.arena, path, w, h, err);
    if (!px) return false;
    uint64_t n = (uint64_t)*w * (uint64_t)*h * 4;
    uint8_t *copy = arena_push_raw(out, n, 16);
    if (!copy) {
        asset_error(err, "%s: no room for %llu bytes of pixels: %s", path, (unsigned long long)n,
                    arena_last_error());
        return false;
    }
    memcpy(copy, px, n);
    *rgba = copy;
    return true;
}

/* The texture of the decoded `px` (w x h); asset_load_texture without the decode, so a
   caller can still read the pixels afterwards. */
static Texture *asset_texture_from(Renderer *rd, Arena *perm, const char *path, const uint8_t *px,
                                   int w, int h, int cell_w, int cell_h, AssetError *err) {
    if ((cell_w > 0 && w % cell_w) || (cell_h > 0 && h % cell_h)) {
        asset_error(err, "%s: image is %dx%d, not a whole number of %dx%d cells", path, w, h,
                    cell_w, cell_h);
        return NULL;
    }
    Texture *t = render_texture_create(rd, perm, path, px, w, h, cell_w, cell_h);
    if (!t) {
        asset_error(err, "%s: cannot create texture: %s", path, SDL_GetError());
        return NULL;
    }
    return t;
}

Texture *asset_load_texture(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h,
                            AssetError *err) {
    SCRATCH_SCOPE(tmp, perm);
    int w = 0, h = 0;
    uint8_t *px = asset_decode(tmp.arena, path, &w, &h, err);
    if (!px) return NULL;
    return asset_texture_from(rd, perm, path, px, w, h, cell_w, cell_h, err);
}

bool asset_load_font(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h,
                     int space_advance, Font *out, AssetError *err) {
    SCRATCH_SCOPE(tmp, perm);
    int w = 0, h = 0;
    uint8_t *px = asset_decode(tmp.arena, path, &w, &h, err);
    if (!px) return false;
    /* A whole-image "grid" has no glyphs to measure. */
    if (cell_w <= 0 || cell_h <= 0) {
        asset_error(err, "%s: a font needs a glyph cell size, got %dx%d", path, cell_w, cell_h);
        return false;
    }
    Texture *t = asset_texture_from(rd, perm, path, px, w, h, cell_w, cell_h, err);
    if (!t) return false;
    *out = font_make_from_pixels(t, px, space_advance, 1);
    return true;
}

bool asset_write_png(const char *path, const uint8_t *rgba, int w, int h, AssetError *err) {
    SCRATCH_SCOPE(tmp);
    asset_stb_allocator = arena_allocator(tmp.arena);
    int len = 0;
    uint8_t *png = stbi_write_png_to_mem(rgba, w * 4, w, h, 4, &len);
    asset_stb_allocator = (Allocator){0};
    if (!png) {
        asset_error(err, "%s: cannot encode PNG (%dx%d): out of scratch memory", path, w, h);
        return false;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        asset_error(err, "%s: cannot create: %s", path, strerror(errno));
        return false;
    }
    bool ok = os_write_all(fd, png, (uint64_t)len);
    int e = errno;
    if (close(fd) != 0 && ok) ok = false, e = errno;
    if (!ok) {
        asset_error(err, "%s: write error: %s", path, strerror(e));
        return false;
    }
    return true;
}

const char *asset_path(Arena *a, const char *dir, const char *name) {
    Str8 s = str8_fmt(a, "%s/%s", dir, name);
    return s.data;
}

static bool asset_is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *asset_dir(Arena *perm) {
    const char *env = getenv("AD_ASSET_DIR");
    if (env && *env && asset_is_dir(env)) return arena_strdup(perm, env);
    if (asset_is_dir("assets")) return arena_strdup(perm, "assets");
    /* Build trees put executables a few levels under the repository root. */
    char *base = SDL_GetBasePath(); /* heap (SDL's); once at start-up */
    if (!base) return NULL;
    const char *found = NULL;
    static const char *ups[] = {"", "../", "../../", "../../../", "../../../../"};
    for (size_t i = 0; i < sizeof ups / sizeof ups[0] && !found; i++) {
        Str8 p = str8_fmt(perm, "%s%sassets", base, ups[i]);
        if (p.data && asset_is_dir(p.data)) found = p.data;
    }
    SDL_free(base);
    return found;
}
