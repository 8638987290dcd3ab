/* bench_render - the batched renderer against one SDL_RenderCopy per sprite.

   usage: bench_render [--only batched|copy] [--n N] [--size PX] [--scale S] [--frames F] [ASSETS_DIR]
     (no options: the full report; --only draws one path F times on the software renderer,
      for perf/callgrind)

   Both paths draw the same sprites: same atlas texture, same cells, same integer positions,
   same blend mode (the texture's, BLEND), same output size, same clear. Each round runs every
   variant once in a rotating order, and the tables show medians over the rounds, so drift on a
   shared machine hits all variants alike. Per frame four figures are taken:

     submit  CPU time (this thread) from the clear up to and including the last draw call:
             render_cell pushes + render_end (sort, vertices, SDL_RenderGeometry), or the
             SDL_RenderCopy loop. This is the renderer's per-frame CPU price.
     flush   wall time of SDL_RenderFlush: SDL hands its queued commands to the backend
             (0 when SDL does not batch: every call was executed as it was made)
     present wall time of SDL_RenderPresent (the GL driver rasterises and swaps here)
     frame   wall time of the three together

   Sections:
     1. SDL's software renderer on a surface (what headless tests and GPU-less machines use).
        SDL_CreateSoftwareRenderer never batches, so every call blits at once and "submit"
        is the whole frame. Shown at 480x270 (scale 1), at 1440x810 (scale 3: same sprites,
        9x the pixels) and with 1x1-pixel sprites (per-call cost with almost no pixels).
     2. The window's accelerated renderer (OpenGL; llvmpipe under Xvfb) when a display is
        present, at the default window scale (3: 1440x810) and at scale 1 (480x270, a ninth
        of the pixels), each twice in the same process: SDL's render batching ON (SDL's default, it merges
        consecutive RenderCopy calls into one glDrawArrays at flush time) and OFF
        (SDL_HINT_RENDER_BATCHING=0, set for that renderer only: what one call per sprite costs
        on a backend that does not batch for you).
     3. The engine's own CPU cost for 10k commands in 7 layers x 3 textures: render_cell pushes
        into the frame arena, and the stable sort render_end runs on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL2/SDL.h>

#include "asset/asset.h"
#include "bench.h"
#include "platform/platform.h"
#include "render/render.h"

#define MAX_SPRITES 50000
#define MAX_ROUNDS 31

static double now_ms_(void) { return (double)SDL_GetPerformanceCounter() * 1000.0 / (double)SDL_GetPerformanceFrequency(); }
static double cpu_ms_(void) { return (double)bench_thread_cpu_ns() / 1e6; }

typedef struct Spr {
    float x, y;
    int cell;
} Spr;

static Spr g_sprites[MAX_SPRITES];

static void make_sprites_(Spr *s, int n)
{
    uint32_t r = 2463534242u;
    for (int i = 0; i < n; i++) {
        r ^= r << 13, r ^= r >> 17, r ^= r << 5;
        s[i].x = (float)(r % (PLATFORM_LOGICAL_W - 16));
        r ^= r << 13, r ^= r >> 17, r ^= r << 5;
        s[i].y = (float)(r % (PLATFORM_LOGICAL_H - 16));
        s[i].cell = 12 + (int)(r >> 8) % 20;
    }
}

/* One renderer under test: an SDL renderer, the engine's Renderer over it, the atlas. */
typedef struct Target {
    const char *label;
    SDL_Renderer *sdl;
    Renderer *rd;
    Texture *tex;
    Arena *frame;
} Target;

typedef struct Sample {
    double submit, flush, present, frame;
} Sample;

enum { PATH_BATCHED, PATH_COPY };

/* Draws n sprites of px x px texels (the top-left px x px of each 16x16 cell) at their
   positions, px x px logical pixels each, by one path. */
static Sample frame_(Target *t, int path, int n, int px)
{
    const Texture *tex = t->tex;
    Sample s;
    double w0 = now_ms_(), c0 = cpu_ms_();
    if (path == PATH_BATCHED) {
        arena_clear(t->frame);
        render_begin(t->rd, t->frame, (Color){0, 0, 0, 255});
        for (int i = 0; i < n; i++) {
            const Spr *p = &g_sprites[i];
            if (px == tex->cell_w && px == tex->cell_h) { /* the common call */
                render_cell(t->rd, tex, p->cell, p->x, p->y, 1, 0);
            } else {
                RectF src = {(float)(p->cell % tex->cols * tex->cell_w), (float)(p->cell / tex->cols * tex->cell_h),
                             (float)px, (float)px};
                render_sprite(t->rd, tex, src, (RectF){p->x, p->y, (float)px, (float)px}, 1, COLOR_WHITE, 0);
            }
        }
        render_end(t->rd);
    } else {
        SDL_SetRenderDrawColor(t->sdl, 0, 0, 0, 255);
        SDL_RenderClear(t->sdl);
        for (int i = 0; i < n; i++) {
            const Spr *p = &g_sprites[i];
            SDL_Rect src = {p->cell % tex->cols * tex->cell_w, p->cell / tex->cols * tex->cell_h, px, px};
            SDL_Rect dst = {(int)p->x, (int)p->y, px, px};
            SDL_RenderCopy(t->sdl, tex->sdl, &src, &dst);
        }
    }
    s.submit = cpu_ms_() - c0;
    double w1 = now_ms_();
    SDL_RenderFlush(t->sdl);
    double w2 = now_ms_();
    if (path == PATH_BATCHED) render_present(t->rd);
    else SDL_RenderPresent(t->sdl);
    double w3 = now_ms_();
    s.flush = w2 - w1;
    s.present = w3 - w2;
    s.frame = w3 - w0;
    return s;
}

typedef struct Result {
    double submit, flush, present, frame;
    uint32_t calls;
} Result;

/* Every (target, path) pair `rounds` times, interleaved, rotating the order each round.
   res[t * 2 + path]. */
static void measure_(Target *targets, int nt, int n, int px, Result *res)
{
    double v[8][4][MAX_ROUNDS];
    int np = nt * 2;
    uint32_t calls[8] = {0};
    /* warm-up (SDL grows its command and vertex buffers), and a round-time estimate */
    double t0 = now_ms_();
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < np; k++) frame_(&targets[k / 2], k % 2, n, px);
    double per_round = (now_ms_() - t0) / 2;
    int rounds = per_round > 0 ? (int)(5000.0 / per_round) : MAX_ROUNDS; /* ~5 s per table row */
    if (rounds > 21) rounds = 21;
    if (rounds < 5) rounds = 5;
    rounds |= 1;
    for (int r = 0; r < rounds; r++) {
        for (int j = 0; j < np; j++) {
            int k = (j + r) % np;
            Sample s = frame_(&targets[k / 2], k % 2, n, px);
            v[k][0][r] = s.submit, v[k][1][r] = s.flush, v[k][2][r] = s.present, v[k][3][r] = s.frame;
            if (k % 2 == PATH_BATCHED) calls[k] = render_stats(targets[k / 2].rd).draw_calls;
            else calls[k] = (uint32_t)n;
        }
    }
    for (int k = 0; k < np; k++)
        res[k] = (Result){bench_median_f64(v[k][0], rounds), bench_median_f64(v[k][1], rounds), bench_median_f64(v[k][2], rounds),
                          bench_median_f64(v[k][3], rounds), calls[k]};
}

static void print_header_(void)
{
    printf("  %-8s %5s | %-29s | %-29s | %-7s %-7s\n", "", "", "batched (render_end)", "one SDL_RenderCopy/sprite",
           "ratio", "ratio");
    printf("  %-8s %5s | %7s %7s %6s %7s | %7s %7s %6s %7s | %-7s %-7s\n", "sprites", "calls", "submit", "flush", "prsnt",
           "frame", "submit", "flush", "prsnt", "frame", "frame", "submit");
}

static void print_row_(const char *tag, int n, const Result *b, const Result *c)
{
    char lab[32];
    snprintf(lab, sizeof lab, "%d%s", n, tag);
    printf("  %-8s %5u | %7.3f %7.3f %6.3f %7.3f | %7.3f %7.3f %6.3f %7.3f | %6.2fx %6.2fx\n", lab, b->calls, b->submit,
           b->flush, b->present, b->frame, c->submit, c->flush, c->present, c->frame, c->frame / b->frame,
           c->submit / b->submit);
}

static Texture *load_atlas_(Renderer *rd, Arena *perm, const char *dir)
{
    AssetError err;
    Texture *tex = asset_load_texture(rd, perm, asset_path(perm, dir, "sprites.png"), 16, 16, &err);
    if (!tex) fprintf(stderr, "%s\n", err.message);
    return tex;
}

/* ---- 1. software renderer on a surface ---- */

static int bench_software_(const char *dir)
{
    static const int scales[] = {1, 3};
    for (int si = 0; si < 2; si++) {
        int scale = scales[si];
        Arena *perm = arena_create((ArenaParams){.name = "perm"});
        Arena *frame = arena_create((ArenaParams){.name = "frame"});
        Platform *pf = platform_create(perm, &(PlatformDesc){.headless = true, .scale = scale});
        if (!pf) return 1;
        Renderer *rd = render_create(perm, platform_renderer(pf), PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H);
        Texture *tex = rd ? load_atlas_(rd, perm, dir) : NULL;
        if (!tex) return 1;
        Target t = {"software", platform_renderer(pf), rd, tex, frame};
        printf("\n1%c. SDL software renderer on a %dx%d surface (logical %dx%d, 16x16 sprites drawn %dx%d), ms, "
               "medians:\n",
               "ab"[si], PLATFORM_LOGICAL_W * scale, PLATFORM_LOGICAL_H * scale, PLATFORM_LOGICAL_W,
               PLATFORM_LOGICAL_H, 16 * scale, 16 * scale);
        print_header_();
        static const int counts[] = {1000, 10000, 50000};
        for (int c = 0; c < 3; c++) {
            if (scale != 1 && counts[c] != 10000) continue;
            Result res[2];
            measure_(&t, 1, counts[c], 16, res);
            print_row_("", counts[c], &res[0], &res[1]);
        }
        if (scale == 1) { /* the same positions and cells, 1x1 texel each: per-call cost alone */
            Result res[2];
            measure_(&t, 1, 10000, 1, res);
            print_row_(" 1px", 10000, &res[0], &res[1]);
        }
        render_release(rd);
        platform_release(pf);
        arena_release(frame);
        arena_release(perm);
    }
    return 0;
}

/* ---- 2. window renderer, SDL batching on and off, same process ---- */

static int bench_window_(const char *dir, int scale, char sub)
{
    Arena *perm = arena_create((ArenaParams){.name = "perm"});
    Arena *frame_on = arena_create((ArenaParams){.name = "frame on"});
    Arena *frame_off = arena_create((ArenaParams){.name = "frame off"});
    Platform *pf = platform_create(perm, &(PlatformDesc){.title = "bench_render batching on", .no_vsync = true,
                                                          .scale = scale});
    if (!pf) return 1;
    SDL_Renderer *on = platform_renderer(pf);
    /* The second renderer is set up as platform_create sets up its own, except for the hint,
       which SDL reads once, when the renderer is created. */
    SDL_SetHint(SDL_HINT_RENDER_BATCHING, "0");
    SDL_Window *win_off = SDL_CreateWindow("bench_render batching off", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                           PLATFORM_LOGICAL_W * scale, PLATFORM_LOGICAL_H * scale, SDL_WINDOW_RESIZABLE);
    SDL_Renderer *off = win_off ? SDL_CreateRenderer(win_off, -1, SDL_RENDERER_ACCELERATED) : NULL;
    SDL_ResetHint(SDL_HINT_RENDER_BATCHING);
    if (!off) {
        fprintf(stderr, "bench_render: second window/renderer: %s\n", SDL_GetError());
        return 1;
    }
    SDL_RenderSetLogicalSize(off, PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H);
    SDL_RenderSetIntegerScale(off, SDL_TRUE);
    SDL_RendererInfo info_on, info_off;
    SDL_GetRendererInfo(on, &info_on);
    SDL_GetRendererInfo(off, &info_off);
    int ow, oh, ow2, oh2;
    SDL_GetRendererOutputSize(on, &ow, &oh);
    SDL_GetRendererOutputSize(off, &ow2, &oh2);
    Renderer *rd_on = render_create(perm, on, PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H);
    Renderer *rd_off = render_create(perm, off, PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H);
    Texture *tex_on = rd_on ? load_atlas_(rd_on, perm, dir) : NULL;
    Texture *tex_off = rd_off ? load_atlas_(rd_off, perm, dir) : NULL;
    if (!tex_on || !tex_off) return 1;
    printf("\n2%c. window renderer \"%s\" with SDL batching on / \"%s\" with it off, output %dx%d / %dx%d\n"
           "    (16x16 sprites drawn %dx%d), ms, medians; ratios = RenderCopy / batched on the same renderer:\n",
           sub, info_on.name, info_off.name, ow, oh, ow2, oh2, 16 * scale, 16 * scale);
    Target ts[2] = {{"on", on, rd_on, tex_on, frame_on}, {"off", off, rd_off, tex_off, frame_off}};
    print_header_();
    static const int counts[] = {1000, 10000, 50000};
    for (int c = 0; c < 3; c++) {
        Result res[4];
        measure_(ts, 2, counts[c], 16, res);
        print_row_(" on", counts[c], &res[0], &res[1]);
        print_row_(" off", counts[c], &res[2], &res[3]);
    }
    render_release(rd_off);
    SDL_DestroyRenderer(off);
    SDL_DestroyWindow(win_off);
    render_release(rd_on);
    platform_release(pf);
    arena_release(frame_off);
    arena_release(frame_on);
    arena_release(perm);
    return 0;
}

/* ---- 3. the engine's own CPU cost ---- */

static int bench_cpu_(const char *dir)
{
    enum { N = 10000, R = 21 };
    Arena *perm = arena_create((ArenaParams){.name = "perm"});
    Arena *frame = arena_create((ArenaParams){.name = "frame"});
    Arena *tmp = arena_create((ArenaParams){.name = "tmp"});
    Platform *pf = platform_create(perm, &(PlatformDesc){.headless = true});
    Renderer *rd = pf ? render_create(perm, platform_renderer(pf), PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H) : NULL;
    AssetError err;
    const Texture *texs[3] = {
        rd ? asset_load_texture(rd, perm, asset_path(perm, dir, "sprites.png"), 16, 16, &err) : NULL,
        rd ? asset_load_texture(rd, perm, asset_path(perm, dir, "tiles.png"), 16, 16, &err) : NULL,
        rd ? asset_load_texture(rd, perm, asset_path(perm, dir, "font.png"), 8, 10, &err) : NULL};
    if (!texs[0] || !texs[1] || !texs[2]) {
        fprintf(stderr, "bench_render: %s\n", rd ? err.message : "no renderer");
        return 1;
    }
    DrawCmd *flat = arena_push_array(tmp, DrawCmd, N), *out = arena_push_array(tmp, DrawCmd, N);
    double push[R], sort[R];
    for (int r = 0; r < R + 2; r++) {
        arena_clear(frame);
        render_begin(rd, frame, (Color){0, 0, 0, 255});
        double c0 = cpu_ms_();
        for (int i = 0; i < N; i++) {
            const Texture *t = texs[i % 3];
            render_cell(rd, t, g_sprites[i].cell % (t->cols * t->rows), g_sprites[i].x, g_sprites[i].y, i % 7, 0);
        }
        double c1 = cpu_ms_();
        render_present(rd); /* drops the list unsubmitted */
        if (r >= 2) push[r - 2] = c1 - c0;
    }
    uint64_t peak = arena_stats(frame).peak;
    /* The same 10k commands, sorted by render_sort_commands (what render_end calls). */
    for (int i = 0; i < N; i++) {
        const Texture *t = texs[i % 3];
        flat[i] = (DrawCmd){g_sprites[i].x, g_sprites[i].y, 16, 16, 0, 0, 1, 1, COLOR_WHITE, (uint16_t)(i % 7), t->id};
    }
    for (int r = 0; r < R + 2; r++) {
        double c0 = cpu_ms_();
        render_sort_commands(flat, out, N);
        double c1 = cpu_ms_();
        if (r >= 2) sort[r - 2] = c1 - c0;
    }
    printf("\n3. engine CPU for 10k draw commands (7 layers x 3 textures -> 21 runs), thread CPU ms, median of %d:\n"
           "   render_cell pushes into the frame arena %.3f, stable sort %.3f, together %.3f"
           " (frame arena peak %llu bytes)\n",
           R, bench_median_f64(push, R), bench_median_f64(sort, R), bench_median_f64(push, R) + bench_median_f64(sort, R), (unsigned long long)peak);
    render_release(rd);
    platform_release(pf);
    arena_release(tmp);
    arena_release(frame);
    arena_release(perm);
    return 0;
}

/* --only: one path on the software renderer, for profilers. */
static int profile_one_(const char *dir, int path, int n, int px, int scale, int frames)
{
    Arena *perm = arena_create((ArenaParams){.name = "perm"});
    Arena *frame = arena_create((ArenaParams){.name = "frame"});
    Platform *pf = platform_create(perm, &(PlatformDesc){.headless = true, .scale = scale});
    Renderer *rd = pf ? render_create(perm, platform_renderer(pf), PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H) : NULL;
    Texture *tex = rd ? load_atlas_(rd, perm, dir) : NULL;
    if (!tex) return 1;
    Target t = {"software", platform_renderer(pf), rd, tex, frame};
    double v[MAX_ROUNDS];
    int k = 0;
    for (int f = 0; f < frames; f++) {
        Sample s = frame_(&t, path, n, px);
        v[k++ % MAX_ROUNDS] = s.frame;
    }
    printf("%s n=%d px=%d scale=%d: median frame %.3f ms\n", path == PATH_BATCHED ? "batched" : "copy", n, px, scale,
           bench_median_f64(v, k < MAX_ROUNDS ? k : MAX_ROUNDS));
    return 0;
}

int main(int argc, char **argv)
{
    Arena *boot = arena_create((ArenaParams){.name = "boot"});
    const char *dir = NULL;
    int only = -1, n = 10000, px = 16, scale = 1, frames = 200;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            i++;
            only = !strcmp(argv[i], "copy") ? PATH_COPY : PATH_BATCHED;
        } else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) px = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
        else dir = argv[i];
    }
    if (!dir) dir = asset_dir(boot);
    if (!dir) {
        fprintf(stderr, "bench_render: no assets directory (pass one, or set AD_ASSET_DIR)\n");
        return 1;
    }
    if (n < 1 || n > MAX_SPRITES || px < 1 || px > 16 || scale < 1 || frames < 1) {
        fprintf(stderr, "bench_render: bad option value\n");
        return 1;
    }
    make_sprites_(g_sprites, MAX_SPRITES);
    if (only >= 0) return profile_one_(dir, only, n, px, scale, frames);

    if (bench_software_(dir)) return 1;
    if (getenv("DISPLAY") || getenv("WAYLAND_DISPLAY")) {
        if (bench_window_(dir, PLATFORM_DEFAULT_SCALE, 'a')) return 1;
        if (bench_window_(dir, 1, 'b')) return 1;
    } else {
        printf("\n2. (no display: window renderer skipped; run under xvfb-run for OpenGL)\n");
    }
    if (bench_cpu_(dir)) return 1;
    arena_release(boot);
    return 0;
}
