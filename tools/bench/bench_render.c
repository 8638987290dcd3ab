/* bench_render - the renderer's backends against one SDL_RenderCopy per sprite.

   usage: bench_render [--only gl|sdl|copy] [--n N] [--frames F] [ASSETS_DIR]
          bench_render --callgrind [ASSETS_DIR]
     (--only draws one variant F times in a window, for perf/callgrind)

   Every variant draws the same frame: N (1,000, 10,000, 100,000) 16x16 sprites from the sprite atlas at the
   same integer positions, alpha-blended, at the logical 480x270, shown in a window at the
   default scale (3: 1440x810). The variants:

     gl      the engine's OpenGL 3.3 backend (st_render_cell pushes, st_render_end, st_render_present)
     sdl     the engine's SDL_Renderer backend, the same calls (SDL's own GL renderer here)
     copy    one SDL_RenderCopy per sprite on that SDL_Renderer, SDL's batching on (what a
             program without a draw list of its own does)

   For 1,000, 10,000 and 100,000 sprites, each round runs a block of frames of every
   variant in rotating order (bench.h: round r starts at variant r % 3), timed as PROCESS
   CPU (all threads: llvmpipe rasterises on several); each ratio is the median of the
   rounds' ratios with its min-max, and the CPU per sprite at each count shows the scaling.

   Then the engine's own CPU for the same commands (7 layers x 3 textures), headless: the
   pushes into the frame arena and the sort st_render_end runs, thread CPU, the three counts
   in rotating rounds, per sprite. --callgrind counts that share's instructions per sprite
   (tools/bench_ir.sh bench_render): the engine's part, which callgrind can count (Mesa's
   rasteriser it cannot, usefully). Without a display the window section says so and is
   skipped (tools/bench.sh starts Xvfb for it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <SDL2/SDL.h>

#include "app/app.h"
#include <strata/asset/asset.h>
#include "bench.h"
#include <strata/platform/platform.h>
#include <strata/render/render.h>
#include <strata/render/render_core.h> /* the SDL texture under a Texture, for the RenderCopy loop */

/* The picture the sprites are drawn into, as a game of 480x270 pixels would. */
#define BENCH_LOGICAL_W 480
#define BENCH_LOGICAL_H 270

#define N_SPRITES 100000
#define MAX_ROUNDS 31

static const int counts[3] = {1000, 10000, 100000};

static double now_ms_(void) { return (double)bench_now_ns() / 1e6; }
static double proc_ms_(void) { return (double)bench_process_cpu_ns() / 1e6; }

typedef struct Spr {
    float x, y;
    int cell;
} Spr;

static Spr g_sprites[N_SPRITES];

static void make_sprites_(Spr *s, int n) {
    uint32_t r = 2463534242u;
    for (int i = 0; i < n; i++) {
        r ^= r << 13, r ^= r >> 17, r ^= r << 5;
        s[i].x = (float)(r % (BENCH_LOGICAL_W - 16));
        r ^= r << 13, r ^= r >> 17, r ^= r << 5;
        s[i].y = (float)(r % (BENCH_LOGICAL_H - 16));
        s[i].cell = 12 + (int)(r >> 8) % 20;
    }
}

enum { V_GL, V_SDL, V_COPY, V_COUNT };
static const char *const variant_names[V_COUNT] = {"gl", "sdl", "copy"};

/* One window with its renderer and the atlas on it. */
typedef struct Target {
    Platform *pf;
    Renderer *rd;
    Texture *tex;
    Arena *frame;
} Target;

static bool target_open_(Target *t, Arena *perm, const char *dir, RendererKind kind, bool headless) {
    char title[64];
    snprintf(title, sizeof title, "bench_render %s", st_platform_renderer_name(kind));
    t->frame = st_arena_create((ArenaParams){.name = "frame"});
    t->pf = st_platform_create(perm, &(PlatformDesc){.logical_w = BENCH_LOGICAL_W,
                                                  .logical_h = BENCH_LOGICAL_H,
                                                  .title = title,
                                                  .no_vsync = true,
                                                  .renderer = kind,
                                                  .headless = headless});
    t->rd = t->pf ? st_render_create(perm, t->pf) : NULL;
    if (!t->rd) return false;
    if (st_render_kind(t->rd) != kind && !headless) {
        fprintf(stderr, "bench_render: asked for %s, got %s\n", st_platform_renderer_name(kind),
                st_platform_renderer_name(st_render_kind(t->rd)));
        return false;
    }
    Error err;
    t->tex = st_asset_load_texture(t->rd, perm, st_asset_path(perm, dir, "sprites.png"), 16, 16, &err);
    if (!t->tex) fprintf(stderr, "%s\n", err.message);
    return t->tex != NULL;
}

/* One frame of variant v on t. */
static void frame_(Target *t, int v, int n) {
    if (v != V_COPY) {
        st_arena_clear(t->frame);
        st_render_begin(t->rd, t->frame, (Color){0, 0, 0, 255});
        for (int i = 0; i < n; i++) st_render_cell(t->rd, t->tex, g_sprites[i].cell, g_sprites[i].x, g_sprites[i].y, 1, 0);
        st_render_end(t->rd);
        st_render_present(t->rd);
        return;
    }
    SDL_Renderer *r = st_platform_renderer(t->pf);
    SDL_Texture *st = t->tex->sdl.mod[0];
    TextureInfo ti = st_render_texture_info(t->tex);
    SDL_SetRenderDrawColor(r, 0, 0, 0, 255);
    SDL_RenderClear(r);
    for (int i = 0; i < n; i++) {
        const Spr *p = &g_sprites[i];
        SDL_Rect src = {p->cell % ti.cols * 16, p->cell / ti.cols * 16, 16, 16};
        SDL_Rect dst = {(int)p->x, (int)p->y, 16, 16};
        SDL_RenderCopy(r, st, &src, &dst);
    }
    SDL_RenderPresent(r);
}

typedef struct WinCtx {
    Target *targets[V_COUNT];
    int n, block;
} WinCtx;

static void win_run_(void *ctx, int v) {
    WinCtx *x = ctx;
    for (int f = 0; f < x->block; f++) frame_(x->targets[v], v, x->n);
}

/* Rounds of `block` frames of every variant at n sprites, in rotating order; t[v * rounds + r]. */
static int measure_(WinCtx *x, uint64_t *t) {
    for (int w = 0; w < 3; w++) /* warm-up: buffers grow, shaders compile, caches fill */
        for (int v = 0; v < V_COUNT; v++) frame_(x->targets[v], v, x->n);
    x->block = 1;
    double t0 = now_ms_();
    for (int v = 0; v < V_COUNT; v++) win_run_(x, v);
    double per_frame = (now_ms_() - t0) / V_COUNT;
    x->block = per_frame > 0 ? (int)(100 / per_frame) : 10; /* about 0.1 s a block */
    x->block = x->block < 1 ? 1 : x->block > 20 ? 20 : x->block;
    int rounds = per_frame > 0 ? (int)(6000.0 / (per_frame * x->block * V_COUNT)) : 15; /* ~6 s */
    rounds = (rounds < 5 ? 5 : rounds > 15 ? 15 : rounds) | 1;
    bench_rounds(V_COUNT, rounds, win_run_, x, bench_process_cpu_ns, t);
    return rounds;
}

static int bench_window_(const char *dir) {
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Target gl = {0}, sdl = {0};
    if (!target_open_(&gl, perm, dir, RENDERER_GL, false) || !target_open_(&sdl, perm, dir, RENDERER_SDL, false))
        return 1;
    int ow, oh;
    st_platform_output_size(gl.pf, &ow, &oh);
    printf("1. N sprites 16x16 at 480x270, shown at %dx%d, no vsync; process CPU per frame, medians of rotating\n"
           "   rounds, ratios the median of the rounds' ratios (min-max):\n   gl   = %s\n   sdl  = %s\n",
           ow, oh, st_render_describe(gl.rd), st_render_describe(sdl.rd));
    printf("   %-8s %-6s %10s %14s %24s\n", "sprites", "", "cpu ms", "cpu us/sprite", "copy / this");
    WinCtx x = {{&gl, &sdl, &sdl}, 0, 0};
    double per_sprite_10k = 0;
    for (int k = 0; k < 3; k++) {
        static uint64_t t[V_COUNT * MAX_ROUNDS];
        x.n = counts[k];
        int rounds = measure_(&x, t);
        for (int v = 0; v < V_COUNT; v++) {
            double ms = bench_stat_u64(t + v * rounds, rounds).median / 1e6 / x.block;
            BenchStat q = bench_ratio(t + V_COUNT * rounds - rounds, t + v * rounds, rounds);
            printf("   %-8d %-6s %10.3f %14.4f %14.2fx (%.2f-%.2f)\n", x.n, variant_names[v], ms, ms * 1e3 / x.n,
                   q.median, q.min, q.max);
            if (v == V_GL && k == 1) per_sprite_10k = ms / x.n;
            if (v == V_GL && k == 2)
                printf("   gl CPU per sprite at 100k / at 10k: %.2fx (1.00x is linear)\n", ms / x.n / per_sprite_10k);
        }
        BenchStat q = bench_ratio(t + V_COPY * rounds, t + V_GL * rounds, rounds);
        char key[32], what[64], ours[64], alt[64];
        snprintf(key, sizeof key, "sprites_%dk", x.n / 1000);
        snprintf(what, sizeof what, "%dk sprites: SDL_RenderCopy / engine (gl)", x.n / 1000);
        snprintf(ours, sizeof ours, "%.2f ms/frame", bench_stat_u64(t + V_GL * rounds, rounds).median / 1e6 / x.block);
        snprintf(alt, sizeof alt, "RenderCopy %.2f ms",
                 bench_stat_u64(t + V_COPY * rounds, rounds).median / 1e6 / x.block);
        bench_summary(key, what, ours, alt, q);
    }
    RenderStats st = st_render_stats(gl.rd);
    printf("   (gl: %u draw calls for %u sprites per frame)\n", st.draw_calls, st.sprites);
    st_render_release(sdl.rd);
    st_render_release(gl.rd);
    st_platform_release(sdl.pf);
    st_platform_release(gl.pf);
    st_arena_release(sdl.frame);
    st_arena_release(gl.frame);
    st_arena_release(perm);
    return 0;
}

/* The engine's own CPU: the pushes, and the sort (st_render_sort_commands, the order
   st_render_end draws by), timed apart from any backend's submit. */
typedef struct CpuCtx {
    Renderer *rd;
    Arena *frame;
    const Texture *texs[3];
    DrawCmd *flat, *out;
} CpuCtx;

/* Contestant k: counts[k] sprites pushed and sorted, 100,000 / counts[k] times over, so
   every contestant does the work of 100,000 sprites and the ratio is per sprite. */
static void cpu_run_(void *ctx, int k) {
    CpuCtx *x = ctx;
    int n = counts[k];
    for (int rep = 0; rep < N_SPRITES / n; rep++) {
        st_arena_clear(x->frame);
        st_render_begin(x->rd, x->frame, (Color){0, 0, 0, 255});
        for (int i = 0; i < n; i++) {
            const Texture *t = x->texs[i % 3];
            TextureInfo ti = st_render_texture_info(t);
            st_render_cell(x->rd, t, g_sprites[i].cell % (ti.cols * ti.rows), g_sprites[i].x, g_sprites[i].y, i % 7, 0);
        }
        st_render_present(x->rd); /* drops the list unsubmitted */
        st_render_sort_commands(x->flat, x->out, (size_t)n);
    }
}

static void cpu_report_(const uint64_t *t, int rounds, uint64_t peak) {
    printf("\n2. the engine's CPU for N draw commands (7 layers x 3 textures -> 21 runs): st_render_cell pushes into\n"
           "   the frame arena and the stable sort; thread CPU, %d rotating rounds of 100,000 sprites' work each:\n",
           rounds);
    for (int k = 0; k < 3; k++)
        printf("   %-8d %10.3f ms a frame %10.2f ns a sprite\n", counts[k],
               bench_stat_u64(t + k * rounds, rounds).median / 1e6 / (N_SPRITES / counts[k]),
               bench_stat_u64(t + k * rounds, rounds).median / N_SPRITES);
    bench_row("per sprite, 1k / 10k (a frame's fixed cost)", bench_ratio(t, t + rounds, rounds), "x");
    BenchStat q = bench_ratio(t + 2 * rounds, t + rounds, rounds);
    bench_row("per sprite, 100k / 10k (1.00x: linear)", q, "x");
    printf("   (frame arena peak at 100k: %llu bytes)\n", (unsigned long long)peak);
    char ours[64], alt[64];
    snprintf(ours, sizeof ours, "%.1f ns/sprite at 100k", bench_stat_u64(t + 2 * rounds, rounds).median / N_SPRITES);
    snprintf(alt, sizeof alt, "%.1f ns/sprite at 10k", bench_stat_u64(t + rounds, rounds).median / N_SPRITES);
    bench_summary("sprites_linear", "engine share per sprite: 100k / 10k", ours, alt, q);
}

static int bench_cpu_(const char *dir, bool cg) {
    enum { R = 15 };
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Arena *tmp = st_arena_create((ArenaParams){.name = "tmp"});
    CpuCtx x = {.frame = st_arena_create((ArenaParams){.name = "frame"})};
    Platform *pf = st_platform_create(
        perm, &(PlatformDesc){.logical_w = BENCH_LOGICAL_W, .logical_h = BENCH_LOGICAL_H, .headless = true});
    x.rd = pf ? st_render_create(perm, pf) : NULL;
    Error err;
    static const char *const files[3] = {"sprites.png", "tiles.png", "font.png"};
    for (int k = 0; k < 3; k++) {
        x.texs[k] = x.rd ? st_asset_load_texture(x.rd, perm, st_asset_path(perm, dir, files[k]), k == 2 ? 8 : 16,
                                                 k == 2 ? 10 : 16, &err)
                         : NULL;
        if (!x.texs[k]) {
            fprintf(stderr, "bench_render: %s\n", x.rd ? err.message : "no renderer");
            return 1;
        }
    }
    x.flat = st_arena_push_array(tmp, DrawCmd, N_SPRITES), x.out = st_arena_push_array(tmp, DrawCmd, N_SPRITES);
    for (int i = 0; i < N_SPRITES; i++)
        x.flat[i] = (DrawCmd){g_sprites[i].x,    g_sprites[i].y,       16, 16, 0, 0, 1, 1, COLOR_WHITE,
                              (uint16_t)(i % 7), (uint16_t)(i % 3 + 1)};
    for (int k = 0; k < 3; k++) cpu_run_(&x, k); /* warm: the frame arena's pages */
    if (cg) {
        static const char *const name[3] = {"sprites_1k", "sprites_10k", "sprites_100k"};
        static const char *const label[3] = {"1k sprites: pushes + sort", "10k sprites: pushes + sort",
                                             "100k sprites: pushes + sort"};
        for (int k = 0; k < 3; k++) {
            bench_callgrind_begin();
            cpu_run_(&x, k);
            bench_callgrind_end(name[k], N_SPRITES, "sprite", label[k]);
        }
        bench_callgrind_pair("sprites_linear", "sprites_10k", "sprites_100k");
    } else {
        uint64_t t[3 * R];
        bench_rounds(3, R, cpu_run_, &x, bench_thread_cpu_ns, t);
        cpu_report_(t, R, st_arena_stats(x.frame).peak);
    }
    st_render_release(x.rd);
    st_platform_release(pf);
    st_arena_release(tmp);
    st_arena_release(x.frame);
    st_arena_release(perm);
    return 0;
}

/* --only: one variant in a window, for profilers. */
static int profile_one_(const char *dir, int v, int n, int frames) {
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Target t = {0};
    if (!target_open_(&t, perm, dir, v == V_GL ? RENDERER_GL : RENDERER_SDL, false)) return 1;
    double w0 = now_ms_(), c0 = proc_ms_();
    for (int f = 0; f < frames; f++) frame_(&t, v, n);
    double c1 = proc_ms_(), w1 = now_ms_();
    printf("%s n=%d: %.3f process CPU ms per frame, %.1f fps\n", variant_names[v], n, (c1 - c0) / frames,
           frames * 1000.0 / (w1 - w0));
    st_render_release(t.rd);
    st_platform_release(t.pf);
    return 0;
}

int main(int argc, char **argv) {
    Arena *boot = st_arena_create((ArenaParams){.name = "boot"});
    const char *dir = NULL;
    int only = -1, n = 10000, frames = 200;
    bool cg = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            i++;
            for (int v = 0; v < V_COUNT; v++)
                if (!strcmp(argv[i], variant_names[v])) only = v;
        } else if (!strcmp(argv[i], "--callgrind")) cg = true;
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
        else dir = argv[i];
    }
    AssetSearch search = app_asset_search(NULL);
    if (!dir) dir = st_asset_dir_search(boot, &search, NULL);
    if (!dir) {
        fprintf(stderr, "bench_render: no assets directory (pass one, or set AD_ASSET_DIR)\n");
        return 1;
    }
    if (n < 1 || n > N_SPRITES || frames < 1) {
        fprintf(stderr, "bench_render: bad option value\n");
        return 1;
    }
    make_sprites_(g_sprites, N_SPRITES);
    bool display = getenv("DISPLAY") || getenv("WAYLAND_DISPLAY");
    if (only >= 0) {
        if (!display) {
            fprintf(stderr, "bench_render: --only needs a display (run under xvfb-run)\n");
            return 1;
        }
        return profile_one_(dir, only, n, frames);
    }
    if (cg) return bench_cpu_(dir, true);
    if (display) {
        if (bench_window_(dir)) return 1;
    } else {
        printf("1. (no display: the window section is skipped; tools/bench.sh runs it under Xvfb)\n");
    }
    if (bench_cpu_(dir, false)) return 1;
    st_arena_release(boot);
    return 0;
}
