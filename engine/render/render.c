/* render.c - draw list in the frame arena, counting sort, SDL_RenderGeometry batches.

   Commands are appended to chunks of RENDER_CHUNK_CMDS pushed into the frame arena (other
   frame data, such as formatted HUD strings, is pushed in between, so one growing array
   would not stay contiguous). render_end() sorts their 16-bit keys into an order in a
   scratch scope, builds vertices and indices from the chunks in that order in the same
   scope, and submits one SDL_RenderGeometry per texture run. */
#include "render/render.h"

#include <stdarg.h>
#include <string.h>

#include <SDL2/SDL.h>

#include "core/diag.h"

#define RENDER_CHUNK_CMDS 1024

typedef struct CmdChunk {
    struct CmdChunk *next;
    uint32_t count;
    DrawCmd cmds[RENDER_CHUNK_CMDS];
} CmdChunk;

struct Renderer {
    SDL_Renderer *sdl;
    int logical_w, logical_h;
    Texture *textures[RENDER_MAX_TEXTURES];
    uint32_t texture_count;
    Texture *white; /* id 0: rects are textured quads too, so they batch like sprites */
    uint64_t copy_bytes; /* of textures with copies, against RENDER_COPY_BUDGET_BYTES */

    Arena *frame;
    uint64_t frame_start;
    CmdChunk *first, *last;
    uint32_t count;
    float view_x, view_y;
    RenderStats cur, last_stats;
};

Renderer *render_create(Arena *perm, struct SDL_Renderer *sdl_renderer, int logical_w,
                        int logical_h) {
    Renderer *rd = arena_push_struct(perm, Renderer);
    if (!rd) return NULL;
    rd->sdl = sdl_renderer;
    rd->logical_w = logical_w;
    rd->logical_h = logical_h;
    static const uint8_t white[4 * 4 * 4] = {
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    rd->white = render_texture_create(rd, perm, "white", white, 4, 4, 0, 0);
    if (!rd->white) return NULL;
    return rd;
}

void render_release(Renderer *rd) {
    if (!rd) return;
    for (uint32_t i = 0; i < rd->texture_count; i++) {
        Texture *t = rd->textures[i];
        for (int m = 1; m < 8; m++)
            if (t->sdl_mod[m] && t->sdl_mod[m] != t->sdl) SDL_DestroyTexture(t->sdl_mod[m]);
        if (t->sdl) SDL_DestroyTexture(t->sdl);
        t->sdl = NULL;
        memset(t->sdl_mod, 0, sizeof t->sdl_mod);
    }
    rd->texture_count = 0;
}

/* An RGBA32 ("bytes in R, G, B, A order" whatever the endianness) SDL texture of `rgba`,
   alpha-blended. NULL with a report (core/diag.h). */
static SDL_Texture *render_sdl_texture(Renderer *rd, const char *name, const uint8_t *rgba, int w,
                                       int h) {
    SDL_Texture *st =
        SDL_CreateTexture(rd->sdl, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, w, h);
    if (!st) {
        diag_report(DIAG_ERROR, "render: %s: SDL_CreateTexture: %s", name, SDL_GetError());
        return NULL;
    }
    if (SDL_UpdateTexture(st, NULL, rgba, w * 4) != 0) {
        diag_report(DIAG_ERROR, "render: %s: SDL_UpdateTexture: %s", name, SDL_GetError());
        SDL_DestroyTexture(st);
        return NULL;
    }
    SDL_SetTextureBlendMode(st, SDL_BLENDMODE_BLEND);
    return st;
}

/* Blits one texel of every copy in sdl_mod the way it will be used, so that SDL builds
   each copy's mapping to the target now, at start-up, and not on the frame that first draws
   a tinted or stretched quad from it. The dots land in the corner of a target that the next
   render_begin clears. */
static void render_prime(Renderer *rd, const Texture *t, int tw, int th) {
    static const int quad[6] = {0, 1, 2, 0, 2, 3};
    float sx = 1, sy = 1;
    SDL_RenderGetScale(rd->sdl, &sx, &sy);
    for (int m = 0; m < 8; m++) {
        Uint8 c = (m & RENDER_MOD_COLOR) ? 254 : 255, a = (m & RENDER_MOD_ALPHA) ? 254 : 255;
        SDL_Color col = {c, c, c, a};
        float w = (m & RENDER_MOD_STRETCH) ? 2 : 1 / sx, h = (m & RENDER_MOD_STRETCH) ? 2 : 1 / sy;
        float u = 1.0f / tw, v = 1.0f / th;
        SDL_Vertex q[4] = {{{0, 0}, col, {0, 0}},
                           {{w, 0}, col, {u, 0}},
                           {{w, h}, col, {u, v}},
                           {{0, h}, col, {0, v}}};
        SDL_RenderGeometry(rd->sdl, t->sdl_mod[m], q, 4, quad, 6);
    }
    SDL_RenderFlush(rd->sdl);
}

Texture *render_texture_create(Renderer *rd, Arena *perm, const char *name, const uint8_t *rgba,
                               int w, int h, int cell_w, int cell_h) {
    if (rd->texture_count >= RENDER_MAX_TEXTURES) {
        SDL_SetError("more than %d textures", RENDER_MAX_TEXTURES);
        diag_report(DIAG_ERROR, "render: %s: %s", name, SDL_GetError());
        return NULL;
    }
    if (w <= 0 || h <= 0) {
        SDL_SetError("empty image (%dx%d)", w, h);
        return NULL;
    }
    Texture *t = arena_push_struct(perm, Texture);
    if (!t) return NULL;
    SCRATCH_SCOPE(tmp, perm);
    int tw = w, th = h;
    const uint8_t *upload = rgba;
    uint64_t image_bytes = (uint64_t)w * (uint64_t)h * 4;
    SDL_RendererInfo info;
    bool software =
        SDL_GetRendererInfo(rd->sdl, &info) == 0 && (info.flags & SDL_RENDERER_SOFTWARE);
    /* 4 mirrored x 8 modulation copies: only where they spare an allocation per quad (the
       software renderer), and only within the budget, so one large image cannot cost 32
       times itself (render.h). The first test keeps copies_cost from overflowing. */
    uint64_t copies_cost = image_bytes * 32;
    bool copies = software && image_bytes <= RENDER_COPY_BUDGET_BYTES / 32 &&
                  rd->copy_bytes + copies_cost <= RENDER_COPY_BUDGET_BYTES &&
                  (info.max_texture_width == 0 || 2 * w <= info.max_texture_width) &&
                  (info.max_texture_height == 0 || 2 * h <= info.max_texture_height);
    uint8_t *quad = copies ? arena_push_raw(tmp.arena, image_bytes * 4, 16) : NULL;
    if (quad) {
        tw = 2 * w, th = 2 * h;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint32_t p;
                memcpy(&p, rgba + ((size_t)y * w + x) * 4, 4);
                int mx = tw - 1 - x, my = th - 1 - y;
                memcpy(quad + ((size_t)y * tw + x) * 4, &p, 4);
                memcpy(quad + ((size_t)y * tw + mx) * 4, &p, 4);
                memcpy(quad + ((size_t)my * tw + x) * 4, &p, 4);
                memcpy(quad + ((size_t)my * tw + mx) * 4, &p, 4);
            }
        upload = quad;
        t->mirrored = true;
    }
    copies = quad != NULL;
    t->sdl = render_sdl_texture(rd, name, upload, tw, th);
    if (!t->sdl) return NULL;
    t->sdl_mod[0] = t->sdl;
    for (int m = 1; m < 8; m++) {
        t->sdl_mod[m] = copies ? render_sdl_texture(rd, name, upload, tw, th) : t->sdl;
        if (!t->sdl_mod[m]) {
            while (--m > 0) SDL_DestroyTexture(t->sdl_mod[m]);
            SDL_DestroyTexture(t->sdl);
            return NULL;
        }
    }
    t->bytes = copies ? copies_cost : image_bytes;
    if (copies) {
        rd->copy_bytes += copies_cost;
        render_prime(rd, t, tw, th);
    }
    t->name = arena_strdup(perm, name);
    t->w = w;
    t->h = h;
    t->cell_w = cell_w > 0 ? cell_w : w;
    t->cell_h = cell_h > 0 ? cell_h : h;
    t->cols = w / t->cell_w;
    t->rows = h / t->cell_h;
    t->id = (uint16_t)rd->texture_count;
    rd->textures[rd->texture_count++] = t;
    return t;
}

void render_begin(Renderer *rd, Arena *frame, Color clear) {
    rd->frame = frame;
    rd->frame_start = arena_pos(frame);
    rd->first = rd->last = NULL;
    rd->count = 0;
    rd->view_x = rd->view_y = 0;
    rd->cur = (RenderStats){0};
    SDL_SetRenderDrawColor(rd->sdl, clear.r, clear.g, clear.b, clear.a);
    SDL_RenderClear(rd->sdl);
}

void render_set_view(Renderer *rd, float x, float y) {
    /* Whole pixels: a fractional camera would make the tile grid shimmer. */
    rd->view_x = SDL_floorf(x + 0.5f);
    rd->view_y = SDL_floorf(y + 0.5f);
}

Arena *render_frame_arena(Renderer *rd) { return rd->frame; }
uint32_t render_command_count(const Renderer *rd) { return rd->count; }
RenderStats render_stats(const Renderer *rd) { return rd->last_stats; }

static DrawCmd *render_push(Renderer *rd) {
    if (!rd->frame) return NULL;
    if (!rd->last || rd->last->count == RENDER_CHUNK_CMDS) {
        CmdChunk *c = arena_push_raw(rd->frame, sizeof(CmdChunk), _Alignof(CmdChunk));
        if (!c) {
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

void render_sprite(Renderer *rd, const Texture *tex, RectF src, RectF dst, int layer, Color tint,
                   uint32_t flip) {
    if (!tex) return;
    float x = dst.x - rd->view_x, y = dst.y - rd->view_y;
    if (x >= rd->logical_w || y >= rd->logical_h || x + dst.w <= 0 || y + dst.h <= 0) {
        rd->cur.culled++;
        return;
    }
    DrawCmd *c = render_push(rd);
    if (!c) return;
    float u0, v0, u1, v1;
    if (tex->mirrored) {
        /* Region [x, x + w) of the image is [2W - x - w, 2W - x) of the mirrored copy. */
        float tw = 2.0f * tex->w, th = 2.0f * tex->h;
        float sx = (flip & RENDER_FLIP_X) ? tw - src.x - src.w : src.x;
        float sy = (flip & RENDER_FLIP_Y) ? th - src.y - src.h : src.y;
        u0 = sx / tw, v0 = sy / th, u1 = (sx + src.w) / tw, v1 = (sy + src.h) / th;
    } else {
        u0 = src.x / tex->w, v0 = src.y / tex->h;
        u1 = (src.x + src.w) / tex->w, v1 = (src.y + src.h) / tex->h;
        if (flip & RENDER_FLIP_X) { float t = u0; u0 = u1; u1 = t; }
        if (flip & RENDER_FLIP_Y) { float t = v0; v0 = v1; v1 = t; }
    }
    if (layer < 0) layer = 0;
    if (layer >= RENDER_MAX_LAYERS) layer = RENDER_MAX_LAYERS - 1;
    *c = (DrawCmd){x, y, dst.w, dst.h, u0, v0, u1, v1, tint, (uint16_t)layer, tex->id};
}

void render_cell(Renderer *rd, const Texture *tex, int index, float x, float y, int layer,
                 uint32_t flip) {
    if (!tex || index < 0 || index >= tex->cols * tex->rows) return;
    float sx = (float)(index % tex->cols * tex->cell_w);
    float sy = (float)(index / tex->cols * tex->cell_h);
    render_sprite(rd, tex, (RectF){sx, sy, (float)tex->cell_w, (float)tex->cell_h},
                  (RectF){x, y, (float)tex->cell_w, (float)tex->cell_h}, layer, COLOR_WHITE, flip);
}

void render_rect(Renderer *rd, RectF dst, int layer, Color color) {
    /* The middle texel of the 4x4 white texture: no edge sampling surprises. */
    render_sprite(rd, rd->white, (RectF){1, 1, 2, 2}, dst, layer, color, 0);
}

void render_rect_outline(Renderer *rd, RectF r, int layer, Color color) {
    render_rect(rd, (RectF){r.x, r.y, r.w, 1}, layer, color);
    render_rect(rd, (RectF){r.x, r.y + r.h - 1, r.w, 1}, layer, color);
    render_rect(rd, (RectF){r.x, r.y + 1, 1, r.h - 2}, layer, color);
    render_rect(rd, (RectF){r.x + r.w - 1, r.y + 1, 1, r.h - 2}, layer, color);
}

static inline uint16_t render_key(const DrawCmd *c) {
    return (uint16_t)((c->layer & 0xff) << 8 | (c->tex & 0xff));
}

/* The draw order, shared by render_end and render_sort_commands. Command i of a draw list
   is chunks[i / RENDER_CHUNK_CMDS][i % RENDER_CHUNK_CMDS] (every chunk but the last is
   full). Pushes into `scratch` the commands' 16-bit keys (layer << 8 | tex) and their
   stable order by key, `count` of each, and returns them through `keys` and `order`; false
   if `scratch` is full.

   LSD radix sort, texture digit first, then layer; each pass is a counting sort, which is
   stable, so equal keys keep push order. Layers and texture ids are both < 256, so two
   8-bit passes cover the key. Only 16-bit keys and 32-bit indices move, never the 40-byte
   commands. */
static bool render_order(Arena *scratch, const DrawCmd *const *chunks, uint32_t count,
                         uint16_t **keys, uint32_t **order) {
    _Static_assert(RENDER_MAX_LAYERS <= 256 && RENDER_MAX_TEXTURES <= 256, "8-bit radix digits");
    uint16_t *key = arena_push_array_raw(scratch, uint16_t, count);
    uint32_t *tmp = arena_push_array_raw(scratch, uint32_t, count);
    uint32_t *ord = arena_push_array_raw(scratch, uint32_t, count);
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

void render_sort_commands(const DrawCmd *cmds, DrawCmd *out, uint32_t count) {
    if (count == 0) return;
    SCRATCH_SCOPE(tmp);
    /* The flat array cut at the same chunk size as a frame's draw list, so the order is
       computed exactly as render_end computes it. */
    uint32_t nchunks = (count + RENDER_CHUNK_CMDS - 1) / RENDER_CHUNK_CMDS;
    const DrawCmd **chunks = arena_push_array_raw(tmp.arena, const DrawCmd *, nchunks);
    uint16_t *keys;
    uint32_t *order;
    if (chunks)
        for (uint32_t ci = 0; ci < nchunks; ci++)
            chunks[ci] = cmds + (uint64_t)ci * RENDER_CHUNK_CMDS;
    if (!chunks || !render_order(tmp.arena, chunks, count, &keys, &order)) {
        memcpy(out, cmds, sizeof(DrawCmd) * count); /* no scratch: unsorted rather than nothing */
        return;
    }
    for (uint32_t k = 0; k < count; k++) out[k] = cmds[order[k]];
}

/* Which of Texture.sdl_mod the quad at `v` is drawn from: what SDL's software renderer
   will set for it - modulation by its colour, and stretching unless its size in pixels
   (after the renderer's scale) is the size of its texels, both as SDL truncates them. */
static inline int render_mod(const Texture *t, const SDL_Vertex *v, float sx, float sy) {
    SDL_Color c = v[0].color;
    float tw = t->mirrored ? 2.0f * t->w : (float)t->w;
    float th = t->mirrored ? 2.0f * t->h : (float)t->h;
    int src_w = (int)(v[2].tex_coord.x * tw) - (int)(v[0].tex_coord.x * tw);
    int src_h = (int)(v[2].tex_coord.y * th) - (int)(v[0].tex_coord.y * th);
    int dst_w = (int)((v[2].position.x - v[0].position.x) * sx);
    int dst_h = (int)((v[2].position.y - v[0].position.y) * sy);
    bool stretch = (src_w < 0 ? -src_w : src_w) != dst_w || (src_h < 0 ? -src_h : src_h) != dst_h;
    return ((c.r & c.g & c.b) != 0xff ? RENDER_MOD_COLOR : 0) |
           (c.a != 0xff ? RENDER_MOD_ALPHA : 0) | (stretch ? RENDER_MOD_STRETCH : 0);
}

void render_end(Renderer *rd) {
    uint32_t n = rd->count;
    rd->cur.frame_bytes = rd->frame ? arena_pos(rd->frame) - rd->frame_start : 0;
    if (n == 0) {
        rd->last_stats = rd->cur;
        return;
    }
    /* Every chunk but the last is full, so command i is chunks[i / CHUNK][i % CHUNK]: the
       sort reads keys and the vertex loop reads commands in place, through the order. */
    uint32_t nchunks = (n + RENDER_CHUNK_CMDS - 1) / RENDER_CHUNK_CMDS;
    SCRATCH_SCOPE(tmp, rd->frame);
    const DrawCmd **chunks = arena_push_array_raw(tmp.arena, const DrawCmd *, nchunks);
    uint16_t *keys = NULL;
    uint32_t *order = NULL;
    if (chunks) {
        uint32_t ci = 0;
        for (const CmdChunk *c = rd->first; c; c = c->next) chunks[ci++] = c->cmds;
    }
    bool sorted = chunks && render_order(tmp.arena, chunks, n, &keys, &order);
    SDL_Vertex *verts = arena_push_array_raw(tmp.arena, SDL_Vertex, (uint64_t)n * 4);
    int *indices = arena_push_array_raw(tmp.arena, int, (uint64_t)n * 6);
    if (!sorted || !verts || !indices) {
        rd->cur.dropped += n;
        rd->last_stats = rd->cur;
        return;
    }

    for (uint32_t i = 0; i < n; i++) {
        uint32_t o = order[i];
        const DrawCmd *c = &chunks[o / RENDER_CHUNK_CMDS][o % RENDER_CHUNK_CMDS];
        SDL_Color col = {c->tint.r, c->tint.g, c->tint.b, c->tint.a};
        float x1 = c->x + c->w, y1 = c->y + c->h;
        SDL_Vertex *v = verts + i * 4;
        v[0] = (SDL_Vertex){{c->x, c->y}, col, {c->u0, c->v0}};
        v[1] = (SDL_Vertex){{x1, c->y}, col, {c->u1, c->v0}};
        v[2] = (SDL_Vertex){{x1, y1}, col, {c->u1, c->v1}};
        v[3] = (SDL_Vertex){{c->x, y1}, col, {c->u0, c->v1}};
    }
    /* Indices are per run, relative to the run's first vertex, so one index list serves
       every run: (0 1 2)(0 2 3) per quad. SDL's software renderer recognises this
       two-triangle pattern as an axis-aligned quad and blits it. */
    for (uint32_t i = 0; i < n; i++) {
        int b = (int)i * 4, *ix = indices + i * 6;
        ix[0] = b; ix[1] = b + 1; ix[2] = b + 2;
        ix[3] = b; ix[4] = b + 2; ix[5] = b + 3;
    }
    float sx = 1, sy = 1;
    SDL_RenderGetScale(rd->sdl, &sx, &sy);
    uint32_t start = 0;
    while (start < n) {
        uint32_t tex = keys[order[start]] & 0xffu, end = start;
        const Texture *t = rd->textures[tex];
        bool ok = true;
        while (end < n && (keys[order[end]] & 0xffu) == tex) {
            /* One call per texture run, split only where sdl_mod says the copy changes. */
            uint32_t from = end;
            SDL_Texture *st = t->sdl_mod[render_mod(t, verts + from * 4, sx, sy)];
            while (end < n && (keys[order[end]] & 0xffu) == tex &&
                   t->sdl_mod[render_mod(t, verts + end * 4, sx, sy)] == st)
                end++;
            if (SDL_RenderGeometry(rd->sdl, st, verts + from * 4, (int)(end - from) * 4, indices,
                                   (int)(end - from) * 6) == 0)
                rd->cur.sprites += end - from;
            else
                ok = false;
        }
        rd->cur.draw_calls += ok;
        start = end;
    }
    rd->last_stats = rd->cur;
}

void render_present(Renderer *rd) {
    SDL_RenderPresent(rd->sdl);
    rd->frame = NULL; /* its memory dies with the next arena_clear; stop pushing into it */
    rd->first = rd->last = NULL;
    rd->count = 0;
}

bool render_read_pixels(Renderer *rd, Arena *out, uint8_t **rgba, int *w, int *h) {
    /* SDL reads the viewport (the letterboxed picture) in output pixels. */
    SDL_Rect vp;
    SDL_RenderGetViewport(rd->sdl, &vp);
    float sx = 1, sy = 1;
    SDL_RenderGetScale(rd->sdl, &sx, &sy);
    int pw = (int)(vp.w * sx + 0.5f), ph = (int)(vp.h * sy + 0.5f);
    if (pw <= 0 || ph <= 0) return false;
    uint8_t *px = arena_push_raw(out, (uint64_t)pw * ph * 4, 16);
    if (!px) return false;
    if (SDL_RenderReadPixels(rd->sdl, NULL, SDL_PIXELFORMAT_RGBA32, px, pw * 4) != 0) {
        diag_report(DIAG_ERROR, "render: SDL_RenderReadPixels: %s", SDL_GetError());
        return false;
    }
    *rgba = px;
    *w = pw;
    *h = ph;
    return true;
}

/* ---- text ---- */

static Font font_base(const Texture *tex, int advance) {
    int cells = tex->cols * tex->rows;
    return (Font){.tex = tex, .first_char = 32,
                  .glyph_count = cells < FONT_MAX_GLYPHS ? cells : FONT_MAX_GLYPHS,
                  .glyph_w = tex->cell_w, .glyph_h = tex->cell_h,
                  .advance = advance > 0 ? advance : tex->cell_w, .line_h = tex->cell_h, .gap = 1};
}

static uint8_t font_clamp_advance(int a) { return (uint8_t)(a < 1 ? 1 : a > 255 ? 255 : a); }

Font font_make(const Texture *tex, int advance) {
    Font f = font_base(tex, advance);
    memset(f.advances, font_clamp_advance(f.advance), sizeof f.advances);
    return f;
}

Font font_make_from_pixels(const Texture *tex, const uint8_t *rgba, int space_advance, int gap) {
    Font f = font_base(tex, space_advance);
    f.gap = gap;
    int digit_advance = 0;
    for (int c = 0; c < f.glyph_count; c++) {
        int x0 = c % tex->cols * tex->cell_w, y0 = c / tex->cols * tex->cell_h, ink = 0;
        for (int y = 0; y < tex->cell_h; y++)
            for (int x = ink; x < tex->cell_w; x++)
                if (rgba[((size_t)(y0 + y) * tex->w + x0 + x) * 4 + 3]) ink = x + 1;
        /* An inkless cell is a space (or an unfilled slot): give it the space's width. */
        int a = ink ? ink + gap : f.advance;
        f.advances[c] = font_clamp_advance(a);
        int ch = f.first_char + c;
        if (ch >= '0' && ch <= '9' && a > digit_advance) digit_advance = a;
    }
    /* Tabular digits: a counting timer keeps its width, so the text after it stays put. */
    for (int ch = '0'; ch <= '9'; ch++)
        if (ch - f.first_char >= 0 && ch - f.first_char < f.glyph_count)
            f.advances[ch - f.first_char] = font_clamp_advance(digit_advance);
    if (' ' - f.first_char >= 0 && ' ' - f.first_char < f.glyph_count)
        f.advances[' ' - f.first_char] = font_clamp_advance(f.advance);
    return f;
}

float font_line_height(const Font *f, float scale) { return f->line_h * scale; }

/* The cell drawn for byte `ch`: bytes without a glyph draw (and measure) as '?'. */
static int font_cell(const Font *f, unsigned char ch) {
    int cell = ch - f->first_char;
    if (cell < 0 || cell >= f->glyph_count) cell = '?' - f->first_char;
    return cell >= 0 && cell < f->glyph_count ? cell : 0;
}

/* Pixels from the start of `text`'s first line to its end (at the first '\n'), at scale 1,
   including the last glyph's gap; *end gets the index of that '\n' (or text.len). */
static int font_line_advance(const Font *f, Str8 text, uint64_t from, uint64_t *end) {
    int w = 0;
    uint64_t i = from;
    for (; i < text.len && text.data[i] != '\n'; i++)
        w += f->advances[font_cell(f, (unsigned char)text.data[i])];
    *end = i;
    return w;
}

float font_measure(const Font *f, Str8 text, float scale) {
    if (!f || !text.data) return 0; /* NULL + from is undefined even for from == 0 */
    int widest = 0;
    for (uint64_t i = 0; i <= text.len; i++) {
        uint64_t end;
        int w = font_line_advance(f, text, i, &end);
        /* The gap after the last glyph is not part of the visible width, so centred text
           is centred on its ink. */
        if (end > i && w - f->gap > widest) widest = w - f->gap;
        i = end; /* the loop steps past the '\n' */
    }
    return (float)widest * scale;
}

float render_text(Renderer *rd, const Font *f, float x, float y, Str8 text, Color color, int layer,
                  TextAlign align, float scale) {
    /* {NULL, 0} is what str8_fmt returns when the frame arena is full: nothing to draw. */
    if (!f || !f->tex || !text.data) return 0;
    float widest = 0, pen_y = y;
    uint64_t i = 0;
    while (i <= text.len) {
        uint64_t end;
        int adv = font_line_advance(f, text, i, &end);
        float w = end > i ? (float)(adv - f->gap) * scale : 0;
        if (w > widest) widest = w;
        float pen_x = align == TEXT_ALIGN_CENTER ? x - SDL_floorf(w / 2)
                      : align == TEXT_ALIGN_RIGHT ? x - w
                                                  : x;
        for (; i < end; i++) {
            int cell = font_cell(f, (unsigned char)text.data[i]);
            if (text.data[i] != ' ') {
                RectF src = {(float)(cell % f->tex->cols * f->tex->cell_w),
                             (float)(cell / f->tex->cols * f->tex->cell_h), (float)f->glyph_w,
                             (float)f->glyph_h};
                render_sprite(rd, f->tex, src,
                              (RectF){pen_x, pen_y, f->glyph_w * scale, f->glyph_h * scale}, layer,
                              color, 0);
            }
            pen_x += f->advances[cell] * scale;
        }
        i++; /* past '\n' (or past the end) */
        pen_y += f->line_h * scale;
    }
    return widest;
}

float render_textf(Renderer *rd, const Font *f, float x, float y, Color color, int layer,
                   const char *fmt, ...) {
    if (!rd->frame) return 0;
    va_list ap;
    va_start(ap, fmt);
    Str8 s = str8_fmtv(rd->frame, fmt, ap);
    va_end(ap);
    return render_text(rd, f, x, y, s, color, layer, TEXT_ALIGN_LEFT, 1);
}
