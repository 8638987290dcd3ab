/* bench_render - the batched renderer against one SDL_RenderCopy per sprite.

   usage: bench_render [ASSETS_DIR]      (default: the assets dir found by asset_dir)

   For 1k, 10k and 50k sprites from one atlas, on SDL's software renderer (always) and on
   the window's accelerated renderer (when a display is present, e.g. under xvfb-run):
   median frame time of (push + sort + SDL_RenderGeometry batches + present) versus
   (SDL_RenderCopy per sprite + present), and their ratio. Then the CPU time to build and
   sort 10k draw commands in the frame arena, without SDL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL2/SDL.h>

#include "asset/asset.h"
#include "platform/platform.h"
#include "render/render.h"

#define RUNS 21

static double now_ms_(void) { return (double)SDL_GetPerformanceCounter() * 1000.0 / (double)SDL_GetPerformanceFrequency(); }

static int cmp_double_(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median_(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double_);
    return v[n / 2];
}

typedef struct Spr {
    float x, y;
    int cell;
} Spr;

static void make_sprites_(Spr *s, int n)
{
    uint32_t r = 2463534242u;
    for (int i = 0; i < n; i++) {
        r ^= r << 13, r ^= r >> 17, r ^= r << 5;
        s[i].x = (float)(r % (480 - 16));
        r ^= r << 13, r ^= r >> 17, r ^= r << 5;
        s[i].y = (float)(r % (270 - 16));
        s[i].cell = 12 + (int)(r >> 8) % 20;
    }
}

/* Returns the whole frame; *submit gets the part before SDL_RenderPresent (building and
   handing the work to SDL), where per-call overhead shows even when rasterising dominates. */
static double frame_batched_(Renderer *rd, Arena *frame, const Texture *tex, const Spr *s, int n, double *submit)
{
    double t0 = now_ms_();
    arena_clear(frame);
    render_begin(rd, frame, (Color){0, 0, 0, 255});
    for (int i = 0; i < n; i++) render_cell(rd, tex, s[i].cell, s[i].x, s[i].y, 1, 0);
    render_end(rd);
    *submit = now_ms_() - t0;
    render_present(rd);
    return now_ms_() - t0;
}

static double frame_copy_(SDL_Renderer *sdl, const Texture *tex, const Spr *s, int n, double *submit)
{
    double t0 = now_ms_();
    SDL_SetRenderDrawColor(sdl, 0, 0, 0, 255);
    SDL_RenderClear(sdl);
    for (int i = 0; i < n; i++) {
        SDL_Rect src = {s[i].cell % tex->cols * tex->cell_w, s[i].cell / tex->cols * tex->cell_h, tex->cell_w,
                        tex->cell_h};
        SDL_Rect dst = {(int)s[i].x, (int)s[i].y, tex->cell_w, tex->cell_h};
        SDL_RenderCopy(sdl, tex->sdl, &src, &dst);
    }
    *submit = now_ms_() - t0;
    SDL_RenderPresent(sdl);
    return now_ms_() - t0;
}

static int run_(const char *label, bool headless, const char *dir, Spr *sprites)
{
    Arena *perm = arena_create((ArenaParams){.name = "perm"});
    Arena *frame = arena_create((ArenaParams){.name = "frame"});
    Platform *pf = platform_create(perm, &(PlatformDesc){.title = "bench_render", .headless = headless, .no_vsync = true});
    if (!pf) return 1;
    SDL_RendererInfo info;
    SDL_GetRendererInfo(platform_renderer(pf), &info);
    Renderer *rd = render_create(perm, platform_renderer(pf), PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H);
    AssetError err;
    Texture *tex = rd ? asset_load_texture(rd, perm, asset_path(perm, dir, "sprites.png"), 16, 16, &err) : NULL;
    if (!tex) {
        fprintf(stderr, "%s\n", rd ? err.message : "render_create failed");
        return 1;
    }
    printf("\n%s renderer (SDL driver \"%s\"), %dx%d logical, median of %d frames:\n", label, info.name,
           PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H, RUNS);
    printf("  %7s  %11s %6s %8s  %14s %6s  %7s  %13s\n", "sprites", "batched ms", "calls", "submit",
           "RenderCopy ms", "calls", "ratio", "submit ratio");
    static const int counts[] = {1000, 10000, 50000};
    for (int c = 0; c < 3; c++) {
        int n = counts[c];
        double b[RUNS], p[RUNS], bs[RUNS], ps[RUNS];
        for (int w = 0; w < 3; w++) { /* warm-up: SDL grows its buffers */
            frame_batched_(rd, frame, tex, sprites, n, &bs[0]);
            frame_copy_(platform_renderer(pf), tex, sprites, n, &ps[0]);
        }
        for (int r = 0; r < RUNS; r++) { /* interleaved, so drift hits both alike */
            b[r] = frame_batched_(rd, frame, tex, sprites, n, &bs[r]);
            p[r] = frame_copy_(platform_renderer(pf), tex, sprites, n, &ps[r]);
        }
        double mb = median_(b, RUNS), mp = median_(p, RUNS), mbs = median_(bs, RUNS), mps = median_(ps, RUNS);
        printf("  %7d  %11.3f %6u %8.3f  %14.3f %6d  %6.2fx  %12.2fx\n", n, mb, render_stats(rd).draw_calls, mbs,
               mp, n, mp / mb, mps / mbs);
    }
    render_destroy(rd);
    platform_destroy(pf);
    arena_release(frame);
    arena_release(perm);
    return 0;
}

/* Build + sort only: no SDL submission, so this is the engine's own CPU cost. */
static void bench_build_sort_(Spr *s)
{
    enum { N = 10000 };
    Arena *frame = arena_create((ArenaParams){.name = "frame"});
    Arena *tmp = arena_create((ArenaParams){.name = "tmp"});
    DrawCmd *cmds = arena_push_array(tmp, DrawCmd, N), *out = arena_push_array(tmp, DrawCmd, N);
    double build[RUNS], sort[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_ms_();
        arena_clear(frame);
        /* The same work render_cell does per sprite: cull test, UVs, append to a chunk. */
        DrawCmd *dst = arena_push_array_raw(frame, DrawCmd, N);
        for (int i = 0; i < N; i++) {
            float u = (float)(s[i].cell % 8 * 16) / 256.0f, v = (float)(s[i].cell / 8 * 16) / 128.0f;
            dst[i] = (DrawCmd){s[i].x, s[i].y, 16, 16, u, v, u + 16 / 256.0f, v + 16 / 128.0f,
                               {255, 255, 255, 255}, (uint16_t)(i % 7), (uint16_t)(i % 3)};
        }
        double t1 = now_ms_();
        memcpy(cmds, dst, sizeof(DrawCmd) * N);
        double t2 = now_ms_();
        render_sort_commands(cmds, out, N);
        double t3 = now_ms_();
        build[r] = t1 - t0;
        sort[r] = t3 - t2;
    }
    printf("\n10k draw commands (7 layers x 3 textures), median of %d: build %.3f ms, stable sort %.3f ms\n",
           RUNS, median_(build, RUNS), median_(sort, RUNS));
    arena_release(tmp);
    arena_release(frame);
}

/* The same through the public API (render_cell into the frame arena), timed without present. */
static void bench_render_cell_(const char *dir, Spr *s)
{
    Arena *perm = arena_create((ArenaParams){.name = "perm"});
    Arena *frame = arena_create((ArenaParams){.name = "frame"});
    Platform *pf = platform_create(perm, &(PlatformDesc){.headless = true});
    Renderer *rd = pf ? render_create(perm, platform_renderer(pf), PLATFORM_LOGICAL_W, PLATFORM_LOGICAL_H) : NULL;
    AssetError err;
    Texture *tex = rd ? asset_load_texture(rd, perm, asset_path(perm, dir, "sprites.png"), 16, 16, &err) : NULL;
    if (!tex) return;
    double push[RUNS];
    for (int r = 0; r < RUNS; r++) {
        arena_clear(frame);
        render_begin(rd, frame, (Color){0, 0, 0, 255});
        double t0 = now_ms_();
        for (int i = 0; i < 10000; i++) render_cell(rd, tex, s[i].cell, s[i].x, s[i].y, i % 7, 0);
        push[r] = now_ms_() - t0;
        render_present(rd); /* drops the list unsubmitted */
    }
    printf("10k render_cell() pushes into the frame arena: %.3f ms (frame arena peak %llu bytes)\n",
           median_(push, RUNS), (unsigned long long)arena_stats(frame).peak);
    platform_destroy(pf);
    arena_release(frame);
    arena_release(perm);
}

int main(int argc, char **argv)
{
    Arena *boot = arena_create((ArenaParams){.name = "boot"});
    const char *dir = argc > 1 ? argv[1] : asset_dir(boot);
    if (!dir) {
        fprintf(stderr, "bench_render: no assets directory (pass one, or set AD_ASSET_DIR)\n");
        return 1;
    }
    static Spr sprites[50000];
    make_sprites_(sprites, 50000);
    if (run_("software", true, dir, sprites)) return 1;
    if (getenv("DISPLAY") || getenv("WAYLAND_DISPLAY")) {
        if (run_("window", false, dir, sprites)) return 1;
    } else {
        printf("\n(no display: window renderer skipped; run under xvfb-run for OpenGL)\n");
    }
    bench_build_sort_(sprites);
    bench_render_cell_(dir, sprites);
    arena_release(boot);
    return 0;
}
