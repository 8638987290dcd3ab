/* render_sdl.c - batches through SDL_RenderGeometry, and the software renderer's copies. */
#include <strata/render/sdl/render_sdl.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <SDL2/SDL.h>

#include <strata/core/diag.h>

_Static_assert(sizeof(RenderVertex) == sizeof(SDL_Vertex) && offsetof(RenderVertex, r) == offsetof(SDL_Vertex, color) &&
                   offsetof(RenderVertex, u) == offsetof(SDL_Vertex, tex_coord),
               "RenderVertex is laid out as SDL_Vertex, so batches go to SDL unconverted");

struct RenderSdl {
    SDL_Renderer *sdl;
    bool software;
    bool no_raster;      /* STRATA_NO_RASTER=1 under the software renderer (render_sdl.h) */
    uint64_t copy_bytes; /* of textures with copies, against RENDER_COPY_BUDGET_BYTES */
    char describe[96];
};

RenderSdl *st_render_sdl_create(Arena *perm, SDL_Renderer *sdl) {
    if (!sdl) return NULL;
    RenderSdl *s = st_arena_push_struct(perm, RenderSdl);
    if (!s) return NULL;
    s->sdl = sdl;
    SDL_RendererInfo info;
    const char *name = "?";
    if (SDL_GetRendererInfo(sdl, &info) == 0) {
        s->software = (info.flags & SDL_RENDERER_SOFTWARE) != 0;
        name = info.name;
    }
    const char *no_raster = getenv("STRATA_NO_RASTER");
    s->no_raster = s->software && no_raster && SDL_strcmp(no_raster, "1") == 0;
    SDL_snprintf(s->describe, sizeof s->describe, "SDL_Renderer (%s%s)", name, s->no_raster ? ", no raster" : "");
    return s;
}

const char *st_render_sdl_describe(const RenderSdl *s) { return s->describe; }

/* An RGBA32 ("bytes in R, G, B, A order" whatever the endianness) SDL texture of `rgba`,
   alpha-blended. NULL with a report (core/diag.h). */
static SDL_Texture *render_sdl_upload(RenderSdl *s, const char *name, const uint8_t *rgba, int w, int h) {
    SDL_Texture *st = SDL_CreateTexture(s->sdl, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, w, h);
    if (!st) {
        st_diag_report(DIAG_ERROR, "render: %s: SDL_CreateTexture: %s", name, SDL_GetError());
        return NULL;
    }
    if (SDL_UpdateTexture(st, NULL, rgba, w * 4) != 0) {
        st_diag_report(DIAG_ERROR, "render: %s: SDL_UpdateTexture: %s", name, SDL_GetError());
        SDL_DestroyTexture(st);
        return NULL;
    }
    SDL_SetTextureBlendMode(st, SDL_BLENDMODE_BLEND);
    return st;
}

/* Blits one texel of every copy the way it will be used, so that SDL builds each copy's
   mapping to the target now, at start-up, and not on the frame that first draws a tinted
   or stretched quad from it. The dots land in the corner of a target that the next
   st_render_begin clears. */
static void render_sdl_prime(RenderSdl *s, const Texture *t, int tw, int th) {
    static const int quad[6] = {0, 1, 2, 0, 2, 3};
    float sx = 1, sy = 1;
    SDL_RenderGetScale(s->sdl, &sx, &sy);
    for (int m = 0; m < 8; m++) {
        Uint8 c = (m & RENDER_MOD_COLOR) ? 254 : 255, a = (m & RENDER_MOD_ALPHA) ? 254 : 255;
        SDL_Color col = {c, c, c, a};
        float w = (m & RENDER_MOD_STRETCH) ? 2 : 1 / sx, h = (m & RENDER_MOD_STRETCH) ? 2 : 1 / sy;
        float u = 1.0f / tw, v = 1.0f / th;
        SDL_Vertex q[4] = {{{0, 0}, col, {0, 0}}, {{w, 0}, col, {u, 0}}, {{w, h}, col, {u, v}}, {{0, h}, col, {0, v}}};
        SDL_RenderGeometry(s->sdl, t->sdl.mod[m], q, 4, quad, 6);
    }
    SDL_RenderFlush(s->sdl);
}

/* The image four times, [plain | flipped X] over [flipped Y | flipped XY], in `a`; NULL
   when it is full. */
static uint8_t *render_sdl_mirror_image(Arena *a, const uint8_t *rgba, int w, int h) {
    int tw = 2 * w, th = 2 * h;
    uint8_t *quad = st_arena_push_raw(a, (uint64_t)w * (uint64_t)h * 16, 16);
    if (!quad) return NULL;
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
    return quad;
}

bool st_render_sdl_texture_create(RenderSdl *s, Texture *t, const uint8_t *rgba) {
    int w = t->w, h = t->h, tw = w, th = h;
    const uint8_t *upload = rgba;
    uint64_t image_bytes = (uint64_t)w * (uint64_t)h * 4;
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(s->sdl, &info) != 0) info = (SDL_RendererInfo){0};
    /* 4 mirrored x 8 modulation copies: only where they spare an allocation per quad (the
       software renderer), and only within the budget, so one large image cannot cost 32
       times itself (render.h). The first test keeps copies_cost from overflowing. */
    uint64_t copies_cost = image_bytes * 32;
    bool copies = s->software && image_bytes <= RENDER_COPY_BUDGET_BYTES / 32 &&
                  s->copy_bytes + copies_cost <= RENDER_COPY_BUDGET_BYTES &&
                  (info.max_texture_width == 0 || 2 * w <= info.max_texture_width) &&
                  (info.max_texture_height == 0 || 2 * h <= info.max_texture_height);
    SCRATCH_SCOPE(tmp);
    uint8_t *quad = copies ? render_sdl_mirror_image(tmp.arena, rgba, w, h) : NULL;
    if (quad) tw = 2 * w, th = 2 * h, upload = quad;
    copies = quad != NULL;
    t->sdl.mirrored = copies;
    t->sdl.mod[0] = render_sdl_upload(s, t->name, upload, tw, th);
    if (!t->sdl.mod[0]) return false;
    for (int m = 1; m < 8; m++) {
        t->sdl.mod[m] = copies ? render_sdl_upload(s, t->name, upload, tw, th) : t->sdl.mod[0];
        if (!t->sdl.mod[m]) {
            while (--m >= 0) SDL_DestroyTexture(t->sdl.mod[m]);
            memset(t->sdl.mod, 0, sizeof t->sdl.mod);
            return false;
        }
    }
    t->bytes = copies ? copies_cost : image_bytes;
    if (copies) {
        s->copy_bytes += copies_cost;
        render_sdl_prime(s, t, tw, th);
    }
    return true;
}

bool st_render_sdl_texture_update(RenderSdl *s, Texture *t, const uint8_t *rgba) {
    int w = t->w, h = t->h;
    SCRATCH_SCOPE(tmp);
    const uint8_t *upload = t->sdl.mirrored ? render_sdl_mirror_image(tmp.arena, rgba, w, h) : rgba;
    if (!upload) {
        st_diag_report(DIAG_ERROR, "render: %s: no scratch memory for the mirrored copies", t->name);
        return false;
    }
    int pitch = (t->sdl.mirrored ? 2 * w : w) * 4;
    for (int m = 0; m < 8; m++) {
        if (m > 0 && t->sdl.mod[m] == t->sdl.mod[0]) continue;
        if (SDL_UpdateTexture(t->sdl.mod[m], NULL, upload, pitch) != 0) {
            st_diag_report(DIAG_ERROR, "render: %s: SDL_UpdateTexture: %s", t->name, SDL_GetError());
            return false;
        }
    }
    (void)s;
    return true;
}

void st_render_sdl_texture_release(RenderSdl *s, Texture *t) {
    if (t->sdl.mirrored && s->copy_bytes >= t->bytes) s->copy_bytes -= t->bytes; /* the budget back */
    for (int m = 1; m < 8; m++)
        if (t->sdl.mod[m] && t->sdl.mod[m] != t->sdl.mod[0]) SDL_DestroyTexture(t->sdl.mod[m]);
    if (t->sdl.mod[0]) SDL_DestroyTexture(t->sdl.mod[0]);
    memset(t->sdl.mod, 0, sizeof t->sdl.mod);
}

void st_render_sdl_begin(RenderSdl *s, Color clear) {
    if (s->no_raster) return;
    SDL_SetRenderDrawColor(s->sdl, clear.r, clear.g, clear.b, clear.a);
    SDL_RenderClear(s->sdl);
}

/* A quad of a mirrored texture: its image coordinates (u0 > u1 when flipped in X) moved to
   the matching quarter of the mirrored copy. Region [x, x + w) of the image is
   [x, x + w) of the left half, and, flipped, [2W - x - w, 2W - x) of the right half. */
static void render_sdl_mirror(SDL_Vertex *q) {
    bool fx = q[0].tex_coord.x > q[2].tex_coord.x, fy = q[0].tex_coord.y > q[2].tex_coord.y;
    for (int k = 0; k < 4; k++) {
        float u = q[k].tex_coord.x * 0.5f, v = q[k].tex_coord.y * 0.5f;
        q[k].tex_coord.x = fx ? 1.0f - u : u;
        q[k].tex_coord.y = fy ? 1.0f - v : v;
    }
}

/* Which of TextureSdl.mod the quad at `v` is drawn from: what SDL's software renderer
   will set for it - modulation by its colour, and stretching unless its size in pixels
   (after the renderer's scale) is the size of its texels, both as SDL truncates them. */
static inline int render_sdl_mod(const Texture *t, const SDL_Vertex *v, float sx, float sy) {
    SDL_Color c = v[0].color;
    float tw = t->sdl.mirrored ? 2.0f * t->w : (float)t->w;
    float th = t->sdl.mirrored ? 2.0f * t->h : (float)t->h;
    int src_w = (int)(v[2].tex_coord.x * tw) - (int)(v[0].tex_coord.x * tw);
    int src_h = (int)(v[2].tex_coord.y * th) - (int)(v[0].tex_coord.y * th);
    int dst_w = (int)((v[2].position.x - v[0].position.x) * sx);
    int dst_h = (int)((v[2].position.y - v[0].position.y) * sy);
    bool stretch = (src_w < 0 ? -src_w : src_w) != dst_w || (src_h < 0 ? -src_h : src_h) != dst_h;
    return ((c.r & c.g & c.b) != 0xff ? RENDER_MOD_COLOR : 0) | (c.a != 0xff ? RENDER_MOD_ALPHA : 0) |
           (stretch ? RENDER_MOD_STRETCH : 0);
}

/* A rect (a quad of the white texture, where every texel is the same) that reaches past the
   picture, cut to the part that shows. SDL's software renderer scales a quad it must clip
   through a temporary surface, heap calls for every such quad in every frame; cut here, it
   is drawn straight. The cut is made on the whole pixels SDL would draw (its copy truncates
   position and size), so the same pixels are lit, and only at a scale of 1, where whole
   logical pixels are whole pixels of the picture. A rect wholly outside SDL drops itself. */
static void render_sdl_clip_rect(SDL_Vertex *q, int vw, int vh) {
    float fx = q[0].position.x, fy = q[0].position.y;
    if (!(q[2].position.x > fx && q[2].position.y > fy)) return; /* empty or turned over */
    int x = (int)fx, y = (int)fy, w = (int)(q[2].position.x - fx), h = (int)(q[2].position.y - fy);
    if (x >= 0 && y >= 0 && x + w <= vw && y + h <= vh) return;
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y, x1 = x + w > vw ? vw : x + w, y1 = y + h > vh ? vh : y + h;
    if (x1 < x0) x1 = x0;
    if (y1 < y0) y1 = y0;
    q[0].position = (SDL_FPoint){(float)x0, (float)y0};
    q[1].position = (SDL_FPoint){(float)x1, (float)y0};
    q[2].position = (SDL_FPoint){(float)x1, (float)y1};
    q[3].position = (SDL_FPoint){(float)x0, (float)y1};
}

void st_render_sdl_submit(RenderSdl *s, RenderVertex *rverts, const RenderBatch *batches, uint32_t batch_count,
                          uint32_t quad_count, Arena *scratch, RenderStats *stats) {
    SDL_Vertex *verts = (SDL_Vertex *)(void *)rverts;
    /* Indices are per call, relative to the call's first vertex, so one index list serves
       every call: (0 1 2)(0 2 3) per quad. SDL's software renderer recognises this
       two-triangle pattern as an axis-aligned quad and blits it. */
    int *indices = st_arena_push_array_raw(scratch, int, (uint64_t)quad_count * 6);
    if (!indices) {
        stats->dropped += quad_count;
        return;
    }
    for (uint32_t i = 0; i < quad_count; i++) {
        int b = (int)i * 4, *ix = indices + i * 6;
        ix[0] = b;
        ix[1] = b + 1;
        ix[2] = b + 2;
        ix[3] = b;
        ix[4] = b + 2;
        ix[5] = b + 3;
    }
    float sx = 1, sy = 1;
    SDL_RenderGetScale(s->sdl, &sx, &sy);
    SDL_Rect vp;
    SDL_RenderGetViewport(s->sdl, &vp);
    bool clip = s->software && sx == 1 && sy == 1;
    for (uint32_t bi = 0; bi < batch_count; bi++) {
        const RenderBatch *b = &batches[bi];
        const Texture *t = b->tex;
        SDL_Vertex *bv = verts + (uint64_t)b->first * 4;
        if (clip && t->id == 0)
            for (uint32_t q = 0; q < b->count; q++) render_sdl_clip_rect(bv + q * 4, vp.w, vp.h);
        if (t->sdl.mirrored)
            for (uint32_t q = 0; q < b->count; q++) render_sdl_mirror(bv + q * 4);
        /* One call per batch, split only where the copy in TextureSdl.mod changes. */
        bool ok = true;
        for (uint32_t start = 0; start < b->count;) {
            SDL_Texture *st = t->sdl.mod[render_sdl_mod(t, bv + start * 4, sx, sy)];
            uint32_t end = start + 1;
            while (end < b->count && t->sdl.mod[render_sdl_mod(t, bv + end * 4, sx, sy)] == st) end++;
            if (s->no_raster || SDL_RenderGeometry(s->sdl, st, bv + start * 4, (int)(end - start) * 4, indices,
                                                   (int)(end - start) * 6) == 0)
                stats->sprites += end - start;
            else ok = false;
            start = end;
        }
        stats->draw_calls += ok;
    }
}

void st_render_sdl_present(RenderSdl *s) { SDL_RenderPresent(s->sdl); }

bool st_render_sdl_read_pixels(RenderSdl *s, Arena *out, uint8_t **rgba, int *w, int *h) {
    /* SDL reads the viewport (the letterboxed picture) in output pixels. */
    SDL_Rect vp;
    SDL_RenderGetViewport(s->sdl, &vp);
    float sx = 1, sy = 1;
    SDL_RenderGetScale(s->sdl, &sx, &sy);
    int pw = (int)(vp.w * sx + 0.5f), ph = (int)(vp.h * sy + 0.5f);
    if (pw <= 0 || ph <= 0) return false;
    uint8_t *px = st_arena_push_raw(out, (uint64_t)pw * ph * 4, 16);
    if (!px) return false;
    if (SDL_RenderReadPixels(s->sdl, NULL, SDL_PIXELFORMAT_RGBA32, px, pw * 4) != 0) {
        st_diag_report(DIAG_ERROR, "render: SDL_RenderReadPixels: %s", SDL_GetError());
        return false;
    }
    *rgba = px;
    *w = pw;
    *h = ph;
    return true;
}
