/* render.c - the front end: the draw list in the frame arena, the counting sort, and the
   vertices and batches built in a scratch scope for the backend (render_core.h).

   Commands are appended to chunks of RENDER_CHUNK_CMDS pushed into the frame arena (other
   frame data, such as formatted HUD strings, is pushed in between, so one growing array
   would not stay contiguous). st_render_end() sorts their 16-bit keys into an order, builds
   four vertices per command in that order and one batch per texture run, and hands both
   to the backend. */
#include <strata/render/render.h>

#include <math.h>
#include <string.h>

#include <strata/core/diag.h>
#include <strata/render/gl/render_gl.h>
#include <strata/render/render_core.h>
#include <strata/render/sdl/render_sdl.h>

#define RENDER_CHUNK_CMDS 1024

typedef struct CmdChunk {
    struct CmdChunk *next;
    uint32_t count;
    DrawCmd cmds[RENDER_CHUNK_CMDS];
} CmdChunk;

struct Renderer {
    RendererKind kind;
    RenderSdl *sdl; /* the backend in use: exactly one of these */
    RenderGl *gl;
    Platform *pf;
    int logical_w, logical_h;
    Texture *textures[RENDER_MAX_TEXTURES];
    uint32_t texture_count;
    Texture *white; /* id 0: rects are textured quads too, so they batch like sprites */

    Arena *frame;
    uint64_t frame_start;
    bool frame_refused; /* a chunk was refused this frame: the rest of it is dropped */
    CmdChunk *first, *last;
    uint32_t count;
    const CmdChunk *shown; /* the list st_render_present last showed, for st_render_command */
    uint32_t shown_count;
    float view_x, view_y;
    RenderStats cur, last_stats;
};

Renderer *st_render_create(Arena *perm, Platform *pf) {
    Renderer *rd = st_arena_push_struct(perm, Renderer);
    if (!rd) return NULL;
    rd->pf = pf;
    st_platform_logical_size(pf, &rd->logical_w, &rd->logical_h);
    if (st_platform_renderer_kind(pf) == RENDERER_GL) {
        Error why;
        rd->gl = st_render_gl_create(perm, st_platform_window(pf), rd->logical_w, rd->logical_h, &why);
        /* The context exists but the backend cannot draw on it: fall back (one line why). */
        if (!rd->gl && !st_platform_use_sdl_renderer(pf, why.message)) return NULL;
    }
    rd->kind = st_platform_renderer_kind(pf);
    if (rd->kind == RENDERER_SDL) {
        rd->sdl = st_render_sdl_create(perm, st_platform_renderer(pf));
        if (!rd->sdl) return NULL;
    }
    static const uint8_t white[4 * 4 * 4] = {
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    rd->white = st_render_texture_create(rd, perm, "white", white, 4, 4, 0, 0);
    if (!rd->white) return NULL;
    return rd;
}

void st_render_release(Renderer *rd) {
    if (!rd) return;
    for (uint32_t i = 0; i < rd->texture_count; i++) {
        if (rd->sdl) st_render_sdl_texture_release(rd->sdl, rd->textures[i]);
        if (rd->gl) st_render_gl_texture_release(rd->gl, rd->textures[i]);
    }
    rd->texture_count = 0;
    if (rd->gl) st_render_gl_release(rd->gl);
    rd->gl = NULL;
}

RendererKind st_render_kind(const Renderer *rd) { return rd->kind; }

const char *st_render_describe(const Renderer *rd) {
    return rd->gl ? st_render_gl_describe(rd->gl) : st_render_sdl_describe(rd->sdl);
}

TextureInfo st_render_texture_info(const Texture *t) {
    if (!t) return (TextureInfo){0};
    return (TextureInfo){t->name, t->w, t->h, t->cell_w, t->cell_h, t->cols, t->rows, t->bytes, t->id};
}

Texture *st_render_texture_create(Renderer *rd, Arena *perm, const char *name, const uint8_t *rgba, int w, int h,
                                  int cell_w, int cell_h) {
    if (rd->texture_count >= RENDER_MAX_TEXTURES) {
        st_diag_report(DIAG_ERROR, "render: %s: more than %d textures", name, RENDER_MAX_TEXTURES);
        return NULL;
    }
    if (w <= 0 || h <= 0) {
        st_diag_report(DIAG_ERROR, "render: %s: empty image (%dx%d)", name, w, h);
        return NULL;
    }
    Texture *t = st_arena_push_struct(perm, Texture);
    if (!t) return NULL;
    t->name = st_arena_strdup(perm, name);
    t->w = w;
    t->h = h;
    t->cell_w = cell_w > 0 ? cell_w : w;
    t->cell_h = cell_h > 0 ? cell_h : h;
    t->cols = w / t->cell_w;
    t->rows = h / t->cell_h;
    t->id = (uint16_t)rd->texture_count;
    bool ok = rd->gl ? st_render_gl_texture_create(rd->gl, t, rgba) : st_render_sdl_texture_create(rd->sdl, t, rgba);
    if (!ok) return NULL;
    rd->textures[rd->texture_count++] = t;
    return t;
}

bool st_render_texture_replace(Renderer *rd, Texture *t, const uint8_t *rgba, int w, int h) {
    if (!t || w <= 0 || h <= 0 || w < t->cell_w || h < t->cell_h) {
        st_diag_report(DIAG_ERROR, "render: %s: %dx%d cannot replace an image cut into %dx%d cells",
                       t ? t->name : "(none)", w, h, t ? t->cell_w : 0, t ? t->cell_h : 0);
        return false;
    }
    if (rd->gl) {
        /* Same name, new storage: glTexImage2D takes any size. */
        Texture fresh = *t;
        fresh.w = w, fresh.h = h;
        if (!st_render_gl_texture_update(rd->gl, &fresh, rgba)) return false;
        *t = fresh;
    } else if (w == t->w && h == t->h) {
        if (!st_render_sdl_texture_update(rd->sdl, t, rgba)) return false;
    } else {
        /* A new size is a new SDL texture; the old one goes once the new one is made, so a
           refusal leaves the image that was there. */
        Texture fresh = *t;
        fresh.w = w, fresh.h = h;
        fresh.sdl = (TextureSdl){0};
        if (!st_render_sdl_texture_create(rd->sdl, &fresh, rgba)) return false;
        st_render_sdl_texture_release(rd->sdl, t);
        *t = fresh;
    }
    t->cols = w / t->cell_w;
    t->rows = h / t->cell_h;
    return true;
}

void st_render_begin(Renderer *rd, Arena *frame, Color clear) {
    rd->frame = frame;
    rd->frame_start = st_arena_pos(frame);
    rd->frame_refused = false;
    rd->first = rd->last = NULL;
    rd->count = 0;
    rd->shown = NULL;
    rd->shown_count = 0;
    rd->view_x = rd->view_y = 0;
    rd->cur = (RenderStats){0};
    if (rd->gl) st_render_gl_begin(rd->gl, clear);
    else st_render_sdl_begin(rd->sdl, clear);
}

void st_render_set_view(Renderer *rd, float x, float y) {
    /* Whole pixels: a fractional camera would make the tile grid shimmer. */
    rd->view_x = floorf(x + 0.5f);
    rd->view_y = floorf(y + 0.5f);
}

Arena *st_render_frame_arena(Renderer *rd) { return rd->frame; }
uint32_t st_render_command_count(const Renderer *rd) { return rd->count; }

const DrawCmd *st_render_command(const Renderer *rd, uint32_t i) {
    const CmdChunk *c = rd->first ? rd->first : rd->shown;
    uint32_t n = rd->first ? rd->count : rd->shown_count;
    if (i >= n) return NULL;
    for (; c && i >= c->count; c = c->next) i -= c->count;
    return c ? &c->cmds[i] : NULL;
}
RenderStats st_render_stats(const Renderer *rd) { return rd->last_stats; }

static DrawCmd *render_push(Renderer *rd) {
    if (!rd->frame) return NULL;
    if (!rd->last || rd->last->count == RENDER_CHUNK_CMDS) {
        /* Refused once, not asked again this frame: every command would ask (and the arena
           report its refusal) once more, a thousand times a frame when the OS is out. */
        CmdChunk *c = rd->frame_refused ? NULL : st_arena_push_raw(rd->frame, sizeof(CmdChunk), _Alignof(CmdChunk));
        if (!c) {
            rd->frame_refused = true;
            rd->cur.dropped++;
            return NULL;
        }
        c->next = NULL;
        c->count = 0;
        if (rd->last) rd->last->next = c;
        else rd->first = c;
        rd->last = c;
    }
    rd->count++;
    return &rd->last->cmds[rd->last->count++];
}

void st_render_sprite(Renderer *rd, const Texture *tex, RectF src, RectF dst, int layer, Color tint, uint32_t flip) {
    if (!tex) return;
    /* Whole logical pixels: a quad covers the same pixels whoever rasterises it (SDL's
       software renderer truncates to whole pixels, a GPU covers the pixel centres inside),
       and pixel art has no business between pixels. */
    float x = floorf(dst.x - rd->view_x), y = floorf(dst.y - rd->view_y);
    dst.w = floorf(dst.x - rd->view_x + dst.w) - x;
    dst.h = floorf(dst.y - rd->view_y + dst.h) - y;
    if (x >= rd->logical_w || y >= rd->logical_h || x + dst.w <= 0 || y + dst.h <= 0) {
        rd->cur.culled++;
        return;
    }
    DrawCmd *c = render_push(rd);
    if (!c) return;
    /* Texture coordinates of the image; a flip swaps them (a backend that draws flips some
       other way, the SDL one under the software renderer, sees u0 > u1 and knows). */
    float u0 = src.x / tex->w, v0 = src.y / tex->h;
    float u1 = (src.x + src.w) / tex->w, v1 = (src.y + src.h) / tex->h;
    if (flip & RENDER_FLIP_X) {
        float t = u0;
        u0 = u1;
        u1 = t;
    }
    if (flip & RENDER_FLIP_Y) {
        float t = v0;
        v0 = v1;
        v1 = t;
    }
    if (layer < 0) layer = 0;
    if (layer >= RENDER_MAX_LAYERS) layer = RENDER_MAX_LAYERS - 1;
    *c = (DrawCmd){x, y, dst.w, dst.h, u0, v0, u1, v1, tint, (uint16_t)layer, tex->id};
}

void st_render_cell_tinted(Renderer *rd, const Texture *tex, int index, float x, float y, int layer, Color tint,
                           uint32_t flip) {
    if (!tex || index < 0 || index >= tex->cols * tex->rows) return;
    float sx = (float)(index % tex->cols * tex->cell_w);
    float sy = (float)(index / tex->cols * tex->cell_h);
    st_render_sprite(rd, tex, (RectF){sx, sy, (float)tex->cell_w, (float)tex->cell_h},
                     (RectF){x, y, (float)tex->cell_w, (float)tex->cell_h}, layer, tint, flip);
}

void st_render_cell(Renderer *rd, const Texture *tex, int index, float x, float y, int layer, uint32_t flip) {
    st_render_cell_tinted(rd, tex, index, x, y, layer, COLOR_WHITE, flip);
}

void st_render_rect(Renderer *rd, RectF dst, int layer, Color color) {
    /* The middle texel of the 4x4 white texture: no edge sampling surprises. */
    st_render_sprite(rd, rd->white, (RectF){1, 1, 2, 2}, dst, layer, color, 0);
}

void st_render_rect_outline(Renderer *rd, RectF r, int layer, Color color) {
    st_render_rect(rd, (RectF){r.x, r.y, r.w, 1}, layer, color);
    st_render_rect(rd, (RectF){r.x, r.y + r.h - 1, r.w, 1}, layer, color);
    st_render_rect(rd, (RectF){r.x, r.y + 1, 1, r.h - 2}, layer, color);
    st_render_rect(rd, (RectF){r.x + r.w - 1, r.y + 1, 1, r.h - 2}, layer, color);
}

static inline uint16_t render_key(const DrawCmd *c) { return (uint16_t)((c->layer & 0xff) << 8 | (c->tex & 0xff)); }

/* The draw order, shared by st_render_end and st_render_sort_commands. Command i of a draw list
   is chunks[i / RENDER_CHUNK_CMDS][i % RENDER_CHUNK_CMDS] (every chunk but the last is
   full). Pushes into `scratch` the commands' 16-bit keys (layer << 8 | tex) and their
   stable order by key, `count` of each, and returns them through `keys` and `order`; false
   if `scratch` is full.

   LSD radix sort, texture digit first, then layer; each pass is a counting sort, which is
   stable, so equal keys keep push order. Layers and texture ids are both < 256, so two
   8-bit passes cover the key. Only 16-bit keys and 32-bit indices move, never the 40-byte
   commands. */
static bool render_order(Arena *scratch, const DrawCmd *const *chunks, uint32_t count, uint16_t **keys,
                         uint32_t **order) {
    _Static_assert(RENDER_MAX_LAYERS <= 256 && RENDER_MAX_TEXTURES <= 256, "8-bit radix digits");
    uint16_t *key = st_arena_push_array_raw(scratch, uint16_t, count);
    uint32_t *tmp = st_arena_push_array_raw(scratch, uint32_t, count);
    uint32_t *ord = st_arena_push_array_raw(scratch, uint32_t, count);
    if (!key || !tmp || !ord) return false;
    for (uint32_t i = 0, ci = 0; i < count; ci++) {
        uint32_t n = count - i < RENDER_CHUNK_CMDS ? count - i : RENDER_CHUNK_CMDS;
        for (uint32_t j = 0; j < n; j++) key[i++] = render_key(&chunks[ci][j]);
    }
    uint32_t lo[256], hi[256];
    memset(lo, 0, sizeof lo);
    memset(hi, 0, sizeof hi);
    for (uint32_t i = 0; i < count; i++) {
        lo[key[i] & 0xff]++;
        hi[key[i] >> 8]++;
    }
    for (uint32_t d = 0, a = 0, b = 0; d < 256; d++) {
        uint32_t ca = lo[d], cb = hi[d];
        lo[d] = a, hi[d] = b;
        a += ca, b += cb;
    }
    for (uint32_t i = 0; i < count; i++) tmp[lo[key[i] & 0xff]++] = i;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = tmp[k];
        ord[hi[key[i] >> 8]++] = i;
    }
    *keys = key;
    *order = ord;
    return true;
}

void st_render_sort_commands(const DrawCmd *cmds, DrawCmd *out, uint32_t count) {
    if (count == 0) return;
    SCRATCH_SCOPE(tmp);
    /* The flat array cut at the same chunk size as a frame's draw list, so the order is
       computed exactly as st_render_end computes it. */
    uint32_t nchunks = (count + RENDER_CHUNK_CMDS - 1) / RENDER_CHUNK_CMDS;
    const DrawCmd **chunks = st_arena_push_array_raw(tmp.arena, const DrawCmd *, nchunks);
    uint16_t *keys;
    uint32_t *order;
    if (chunks)
        for (uint32_t ci = 0; ci < nchunks; ci++) chunks[ci] = cmds + (uint64_t)ci * RENDER_CHUNK_CMDS;
    if (!chunks || !render_order(tmp.arena, chunks, count, &keys, &order)) {
        memcpy(out, cmds, sizeof(DrawCmd) * count); /* no scratch: unsorted rather than nothing */
        return;
    }
    for (uint32_t k = 0; k < count; k++) out[k] = cmds[order[k]];
}

void st_render_end(Renderer *rd) {
    uint32_t n = rd->count;
    rd->cur.frame_bytes = rd->frame ? st_arena_pos(rd->frame) - rd->frame_start : 0;
    if (n == 0) {
        rd->last_stats = rd->cur;
        return;
    }
    /* Every chunk but the last is full, so command i is chunks[i / CHUNK][i % CHUNK]: the
       sort reads keys and the vertex loop reads commands in place, through the order. */
    uint32_t nchunks = (n + RENDER_CHUNK_CMDS - 1) / RENDER_CHUNK_CMDS;
    SCRATCH_SCOPE(tmp, rd->frame);
    const DrawCmd **chunks = st_arena_push_array_raw(tmp.arena, const DrawCmd *, nchunks);
    uint16_t *keys = NULL;
    uint32_t *order = NULL;
    if (chunks) {
        uint32_t ci = 0;
        for (const CmdChunk *c = rd->first; c; c = c->next) chunks[ci++] = c->cmds;
    }
    bool sorted = chunks && render_order(tmp.arena, chunks, n, &keys, &order);
    RenderVertex *verts = st_arena_push_array_raw(tmp.arena, RenderVertex, (uint64_t)n * 4);
    /* At most one batch per texture id and layer: n is a safe bound, and cheap. */
    RenderBatch *batches = st_arena_push_array_raw(tmp.arena, RenderBatch, n);
    if (!sorted || !verts || !batches) {
        rd->cur.dropped += n;
        rd->last_stats = rd->cur;
        return;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t o = order[i];
        const DrawCmd *c = &chunks[o / RENDER_CHUNK_CMDS][o % RENDER_CHUNK_CMDS];
        uint8_t r = c->tint.r, g = c->tint.g, b = c->tint.b, a = c->tint.a;
        float x1 = c->x + c->w, y1 = c->y + c->h;
        RenderVertex *v = verts + (uint64_t)i * 4;
        v[0] = (RenderVertex){c->x, c->y, r, g, b, a, c->u0, c->v0};
        v[1] = (RenderVertex){x1, c->y, r, g, b, a, c->u1, c->v0};
        v[2] = (RenderVertex){x1, y1, r, g, b, a, c->u1, c->v1};
        v[3] = (RenderVertex){c->x, y1, r, g, b, a, c->u0, c->v1};
        if (nb == 0 || batches[nb - 1].tex->id != c->tex) batches[nb++] = (RenderBatch){rd->textures[c->tex], i, 0};
        batches[nb - 1].count++;
    }
    if (rd->gl) st_render_gl_submit(rd->gl, verts, batches, nb, n, tmp.arena, &rd->cur);
    else st_render_sdl_submit(rd->sdl, verts, batches, nb, n, tmp.arena, &rd->cur);
    rd->last_stats = rd->cur;
}
/* The platform's viewport, as the backends take it (render_types.h: they see no platform). */
static RenderViewport render_viewport(const Renderer *rd) {
    PlatformViewport v = st_platform_viewport(rd->pf);
    return (RenderViewport){v.x, v.y, v.w, v.h, v.scale};
}

void st_render_present(Renderer *rd) {
    if (rd->gl) st_render_gl_present(rd->gl, render_viewport(rd));
    else st_render_sdl_present(rd->sdl);
    rd->frame = NULL; /* its memory dies with the next st_arena_clear; stop pushing into it */
    rd->shown = rd->first;
    rd->shown_count = rd->count;
    rd->first = rd->last = NULL;
    rd->count = 0;
}

bool st_render_read_pixels(Renderer *rd, Arena *out, uint8_t **rgba, int *w, int *h) {
    if (rd->gl) return st_render_gl_read_pixels(rd->gl, render_viewport(rd), out, rgba, w, h);
    return st_render_sdl_read_pixels(rd->sdl, out, rgba, w, h);
}
