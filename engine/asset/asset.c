/* asset.c - PNG in (stb_image), PNG out (stb_image_write), both on scratch arenas.

   Both libraries are compiled here, once, with their allocation hooks pointed at
   asset_stb_allocator, a thread-local Allocator that each call sets to a scratch arena for
   its own duration. Files are read, written and looked up through os_file.h rather than
   stdio, because fopen allocates its buffer on the heap. */
#include <strata/asset/asset.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include <strata/core/allocator.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>

static _Thread_local Allocator asset_stb_allocator;

static void *asset_stb_malloc(size_t size) { return st_allocator_alloc(asset_stb_allocator, size, 16); }
static void *asset_stb_realloc(void *p, size_t old_size, size_t new_size) {
    return st_allocator_realloc(asset_stb_allocator, p, old_size, new_size, 16);
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
#define STB_IMAGE_STATIC /* private to the engine: a program may have its own stb_image */
#define STB_IMAGE_IMPLEMENTATION
/* Static, stb's API functions this file does not call are unused; the compiler says so at
   the end of the file, so this one warning is off for all of it. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_image.h>

#define STBIW_MALLOC(sz) asset_stb_malloc(sz)
#define STBIW_REALLOC_SIZED(p, oldsz, newsz) asset_stb_realloc((p), (oldsz), (newsz))
#define STBIW_FREE(p) asset_stb_free(p)
#define STBI_WRITE_NO_STDIO
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

/* Asset messages name their file themselves ("path: cannot load image: ..."): the text is
   as written, not a diag line about a file. */
static void asset_error(Error *err, ErrorCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void asset_error(Error *err, ErrorCode code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(err, code, NULL, 0, 0, fmt, ap);
    va_end(ap);
}

/* An arena refused: the lead, then the arena's words. */
static bool asset_no_memory(Error *err, const char *lead) {
    asset_error(err, ERROR_OUT_OF_MEMORY, "%s", lead);
    return st_arena_error(err);
}

/* Whole file into `a`. Images are read whole anyway; the cap only keeps the size an int
   for stb_image. */
static bool asset_read_file(Arena *a, const char *path, uint8_t **data, uint64_t *size, Error *err) {
    Str8 file;
    if (!path) { /* st_asset_path ran out of memory */
        asset_no_memory(err, "(no path): cannot load: ");
        return false;
    }
    if (!st_os_read_file(a, path, INT32_MAX, &file, err)) return false;
    *data = (uint8_t *)file.data; /* our own buffer in `a`, read-only only to Str8 */
    *size = file.len;
    return true;
}

/* stb_image's reason for the last failure, or ours when it gives none: some of its paths
   fail with an empty one (data cut inside the first chunk after IHDR reads as a chunk type
   of four zero bytes, which its "XXXX PNG chunk not known" message copies in, NUL first). */
static const char *asset_stb_reason(void) {
    const char *r = stbi_failure_reason();
    return r && *r ? r : "truncated or corrupt PNG data";
}

static bool asset_too_large(const char *path, int w, int h, Error *err) {
    if (w <= ASSET_MAX_IMAGE_SIDE && h <= ASSET_MAX_IMAGE_SIDE) return false;
    asset_error(err, ERROR_TOO_BIG, "%s: image too large: %dx%d, the limit is %dx%d", path, w, h, ASSET_MAX_IMAGE_SIDE,
                ASSET_MAX_IMAGE_SIDE);
    return true;
}

/* stb_image grows its buffer of image data to whatever an IDAT chunk's length says before
   it finds the file too short for it: a hundred bytes can claim a gigabyte, and the scratch
   arena would commit (and zero) it. So every IDAT must fit in the file first (and the first
   must not be empty, which stb_image copies to a buffer it does not have yet). Anything else
   is left to stb_image, for its own reason. */
static bool asset_png_chunks_fit(const uint8_t *b, uint64_t size, const char *path, Error *err) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (size < 8 || memcmp(b, sig, 8) != 0) return true;
    bool first_idat = true;
    for (uint64_t at = 8; size - at >= 8;) {
        uint64_t len = (uint64_t)b[at] << 24 | (uint64_t)b[at + 1] << 16 | (uint64_t)b[at + 2] << 8 | b[at + 3];
        bool idat = memcmp(b + at + 4, "IDAT", 4) == 0;
        if (len > size - at - 8 || size - at - 8 - len < 4) {
            if (!idat) return true;
            asset_error(err, ERROR_PARSE,
                        "%s: cannot load image: truncated or corrupt PNG: chunk IDAT at byte %llu "
                        "says %llu bytes, %llu are left",
                        path, (unsigned long long)at, (unsigned long long)len, (unsigned long long)(size - at - 8));
            return false;
        }
        if (idat && len == 0 && first_idat) {
            asset_error(err, ERROR_PARSE,
                        "%s: cannot load image: an empty IDAT chunk at byte %llu before any image data", path,
                        (unsigned long long)at);
            return false;
        }
        first_idat &= !idat;
        if (memcmp(b + at + 4, "IEND", 4) == 0) return true;
        at += 12 + len;
    }
    return true;
}

/* Decodes `size` bytes of PNG into `scratch`; the caller owns the scope. */
static uint8_t *asset_decode_bytes(Arena *scratch, const uint8_t *file, uint64_t size, const char *path, int *w, int *h,
                                   Error *err) {
    if (size == 0) {
        asset_error(err, ERROR_PARSE, "%s: cannot load image: an empty file (0 bytes): expected a PNG", path);
        return NULL;
    }
    if (size > INT32_MAX) { /* stb_image counts in int */
        asset_error(err, ERROR_PARSE, "%s: cannot load image: the file is larger than 2 GiB", path);
        return NULL;
    }
    int comp = 0;
    /* The header says how big the pixels will be; a small file can claim gigabytes, so the
       size is checked before anything is decoded. A header that cannot be read is still
       handed to the decoder, which stops at the same header, allocating nothing large: only
       for its precise reason ("first not IHDR", where the header probe says "unknown image
       type" of anything it does not recognise). */
    bool sized = stbi_info_from_memory(file, (int)size, w, h, &comp);
    if (sized && asset_too_large(path, *w, *h, err)) return NULL;
    if (!asset_png_chunks_fit(file, size, path, err)) return NULL;
    /* stb keeps the reason of an earlier failure (the probe's, another file's) until a new
       one replaces it: start clean, so the reason given is this decode's or ours. */
    stbi__g_failure_reason = NULL;
    asset_stb_allocator = st_allocator_arena(scratch);
    uint8_t *px = stbi_load_from_memory(file, (int)size, w, h, &comp, 4);
    asset_stb_allocator = (Allocator){0};
    if (!px) {
        asset_error(err, ERROR_PARSE, "%s: cannot load image: %s", path, asset_stb_reason());
        return NULL;
    }
    if (asset_too_large(path, *w, *h, err)) return NULL; /* should the probe ever miss one */
    return px;
}

/* The file at `path`, decoded into `scratch`. */
static uint8_t *asset_decode(Arena *scratch, const char *path, int *w, int *h, Error *err) {
    uint8_t *file;
    uint64_t size;
    if (!asset_read_file(scratch, path, &file, &size, err)) return NULL;
    return asset_decode_bytes(scratch, file, size, path, w, h, err);
}

/* The pixels, copied from scratch into `out` (the decode's own buffers stay behind). */
static bool asset_keep_rgba(Arena *out, const char *path, const uint8_t *px, int w, int h, uint8_t **rgba, Error *err) {
    uint64_t n = (uint64_t)w * (uint64_t)h * 4;
    uint8_t *copy = st_arena_push_raw(out, n, 16);
    if (!copy) {
        char lead[PATH_MAX + 80];
        snprintf(lead, sizeof lead, "%s: no room for %llu bytes of pixels: ", path, (unsigned long long)n);
        return asset_no_memory(err, lead);
    }
    memcpy(copy, px, n);
    *rgba = copy;
    return true;
}

bool st_asset_load_rgba(Arena *out, const char *path, uint8_t **rgba, int *w, int *h, Error *err) {
    SCRATCH_SCOPE(tmp, out);
    uint8_t *px = asset_decode(tmp.arena, path, w, h, err);
    return px && asset_keep_rgba(out, path, px, *w, *h, rgba, err);
}

bool st_asset_decode_rgba(Arena *out, const uint8_t *png, uint64_t size, const char *path, uint8_t **rgba, int *w,
                          int *h, Error *err) {
    SCRATCH_SCOPE(tmp, out);
    uint8_t *px = asset_decode_bytes(tmp.arena, png, size, path, w, h, err);
    return px && asset_keep_rgba(out, path, px, *w, *h, rgba, err);
}

/* The texture of the decoded `px` (w x h); st_asset_load_texture without the decode, so a
   caller can still read the pixels afterwards. */
bool st_asset_check_sheet(const char *path, int w, int h, int cell_w, int cell_h, Error *err) {
    if ((cell_w > 0 && w % cell_w) || (cell_h > 0 && h % cell_h)) {
        asset_error(err, ERROR_PARSE, "%s: image is %dx%d, not a whole number of %dx%d cells", path, w, h, cell_w,
                    cell_h);
        return false;
    }
    return true;
}

static Texture *asset_texture_from(Renderer *rd, Arena *perm, const char *path, const uint8_t *px, int w, int h,
                                   int cell_w, int cell_h, Error *err) {
    if (!st_asset_check_sheet(path, w, h, cell_w, cell_h, err)) return NULL;
    Texture *t = st_render_texture_create(rd, perm, path, px, w, h, cell_w, cell_h);
    if (!t) {
        asset_error(err, ERROR_IO, "%s: cannot create texture: %s", path, SDL_GetError());
        return NULL;
    }
    return t;
}

Texture *st_asset_load_texture(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h, Error *err) {
    SCRATCH_SCOPE(tmp, perm);
    int w = 0, h = 0;
    uint8_t *px = asset_decode(tmp.arena, path, &w, &h, err);
    if (!px) return NULL;
    return asset_texture_from(rd, perm, path, px, w, h, cell_w, cell_h, err);
}

bool st_asset_load_font(Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h, int space_advance,
                        Font *out, Error *err) {
    SCRATCH_SCOPE(tmp, perm);
    int w = 0, h = 0;
    uint8_t *px = asset_decode(tmp.arena, path, &w, &h, err);
    if (!px) return false;
    /* A whole-image "grid" has no glyphs to measure. */
    if (cell_w <= 0 || cell_h <= 0) {
        asset_error(err, ERROR_PARSE, "%s: a font needs a glyph cell size, got %dx%d", path, cell_w, cell_h);
        return false;
    }
    Texture *t = asset_texture_from(rd, perm, path, px, w, h, cell_w, cell_h, err);
    if (!t) return false;
    *out = st_font_make_from_pixels(t, px, space_advance, 1);
    return true;
}

bool st_asset_write_png(const char *path, const uint8_t *rgba, int w, int h, Error *err) {
    SCRATCH_SCOPE(tmp);
    asset_stb_allocator = st_allocator_arena(tmp.arena);
    int len = 0;
    uint8_t *png = stbi_write_png_to_mem(rgba, w * 4, w, h, 4, &len);
    asset_stb_allocator = (Allocator){0};
    if (!png) {
        asset_error(err, ERROR_OUT_OF_MEMORY, "%s: cannot encode PNG (%dx%d): out of scratch memory", path, w, h);
        return false;
    }
    /* Atomically: a screenshot interrupted half-way never replaces a good file with half of one. */
    return st_os_write_file_atomic(path, png, (uint64_t)len, err);
}

bool st_asset_write_screenshot(Renderer *rd, const char *path, Error *err) {
    SCRATCH_SCOPE(tmp);
    uint8_t *px;
    int w, h;
    if (!st_render_read_pixels(rd, tmp.arena, &px, &w, &h)) {
        asset_error(err, ERROR_IO, "%s: cannot read the frame back", path);
        return false;
    }
    return st_asset_write_png(path, px, w, h, err);
}

const char *st_asset_path(Arena *a, const char *dir, const char *name) {
    Str8 s = st_str8_fmt(a, "%s/%s", dir, name);
    return s.data;
}

static bool asset_is_dir(const char *p) { return st_os_file_info(p).kind == OS_FILE_DIRECTORY; }

/* Appends "<sep><dir>" to the list of searched folders, for the error. */
static void asset_note(char *list, size_t cap, const char *dir) {
    size_t n = strlen(list);
    if (n < cap) snprintf(list + n, cap - n, "%s%s", n ? ", " : "", dir);
}

/* Tries `dir`: true (and *found) when it is a folder, else it joins the list searched. */
static bool asset_try(Arena *perm, const char *dir, const char **found, char *searched, size_t cap) {
    if (!dir) return false;
    if (asset_is_dir(dir)) {
        *found = st_arena_strdup(perm, dir);
        return true;
    }
    asset_note(searched, cap, dir);
    return false;
}

const char *st_asset_dir_search(Arena *perm, const AssetSearch *s, Error *err) {
    /* A folder that was named and is wrong is an error, not a hint: falling back would run
       the game on art the user did not ask for, silently. */
    const char *env = s->env ? getenv(s->env) : NULL;
    const char *named = s->given ? s->given : env && *env ? env : NULL;
    if (named) {
        OsFileInfo fi = st_os_file_info(named);
        if (fi.kind == OS_FILE_DIRECTORY) return st_arena_strdup(perm, named);
        asset_error(err, fi.kind == OS_FILE_NONE ? ERROR_NOT_FOUND : ERROR_NOT_FILE,
                    "%s: cannot use as the assets folder%s%s%s: %s", named, s->given ? "" : " ($",
                    s->given ? "" : s->env, s->given ? "" : ")",
                    fi.kind == OS_FILE_NONE ? strerror(fi.error) : "not a directory");
        return NULL;
    }
    /* The executable's own folder, an install and the source tree come before the working
       directory, whose ./assets may be anything (a project of the user's, a decoy). */
    SCRATCH_SCOPE(tmp, perm);
    char searched[ERROR_TEXT_MAX - 160];
    searched[0] = '\0';
    const char *found = NULL;
    const char *exe = st_os_exe_dir(tmp.arena);
    if (exe) {
        Str8 up = st_path_dir(st_str8_cstr(exe)); /* "/opt/game/bin" -> "/opt/game" */
        if (asset_try(perm, st_str8_fmt(tmp.arena, "%s/assets", exe).data, &found, searched, sizeof searched) ||
            (s->app && up.len &&
             asset_try(perm, st_str8_fmt(tmp.arena, "%.*s/share/%s/assets", STR8_FMT(up), s->app).data, &found,
                       searched, sizeof searched)))
            return found;
    }
    if (s->app && s->prefix && s->prefix[0] &&
        asset_try(perm, st_str8_fmt(tmp.arena, "%s/share/%s/assets", s->prefix, s->app).data, &found, searched,
                  sizeof searched))
        return found;
    if (s->source && s->source[0] &&
        asset_try(perm, st_str8_fmt(tmp.arena, "%s/assets", s->source).data, &found, searched, sizeof searched))
        return found;
    if (asset_is_dir("assets")) return st_arena_strdup(perm, "assets");
    char cwd[PATH_MAX];
    const char *here = getcwd(cwd, sizeof cwd) ? st_str8_fmt(tmp.arena, "%s/assets", cwd).data : NULL;
    asset_note(searched, sizeof searched, here ? here : "./assets");
    asset_error(err, ERROR_NOT_FOUND, "no assets folder found; looked in %s (name one with --assets DIR%s%s)", searched,
                s->env ? " or $" : "", s->env ? s->env : "");
    return NULL;
}

const char *st_asset_dir_order(const AssetSearch *s, char *buf, size_t cap) {
    int n = 0;
    n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, "1. %s%s", s->given ? s->given : "(none named)",
                  s->env ? "  2. $" : "");
    if (s->env) n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, "%s", s->env);
    n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, "  3. assets/ beside the executable\n");
    if (s->app) {
        n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0,
                      "4. ../share/%s/assets from the executable's folder (an installed program)\n", s->app);
        if (s->prefix && s->prefix[0])
            n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0,
                          "5. %s/share/%s/assets (the prefix it was built for)\n", s->prefix, s->app);
    }
    if (s->source && s->source[0])
        n += snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0,
                      "6. %s/assets (the source tree it was built from)\n", s->source);
    snprintf(buf + n, (size_t)n < cap ? cap - (size_t)n : 0, "7. ./assets\n");
    return buf;
}
