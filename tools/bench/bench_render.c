/* bench_render - the renderer's backends against one SDL_RenderCopy per sprite.

   usage: bench_render [--only gl|sdl|copy] [--n N] [--frames F] [ASSETS_DIR]
     (--only draws one variant F times in a window, for perf/callgrind)

   Every variant draws the same frame: N (10,000) 16x16 sprites from the sprite atlas at the
   same integer positions, alpha-blended, at the logical 480x270, shown in a window at the
   default scale (3: 1440x810). The variants:

     gl      the engine's OpenGL 3.3 backend (st_render_cell pushes, st_render_end, st_render_present)
     sdl     the engine's SDL_Renderer backend, the same calls (SDL's own GL renderer here)
     copy    one SDL_RenderCopy per sprite on that SDL_Renderer, SDL's batching on (what a
             program without a draw list of its own does)

   Each round runs a block of frames of every variant in a rotating order, so drift on a
   shared machine hits all alike; tables show medians over the rounds. Per frame:

     cpu     PROCESS CPU time per frame (all threads: llvmpipe rasterises on several), the
             figure that says what the frame costs the machine
     fps     frames per second (wall clock; no vsync)

   Then the engine's own CPU for the same 10k commands (7 layers x 3 textures), headless:
   the pushes into the frame arena and the sort st_render_end runs. Without a display the
   window section says so and is skipped (tools/bench.sh starts Xvfb for it). */
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

#define N_SPRITES 10000
#define MAX_ROUNDS 31

static double now_ms_(void) { return (double)bench_now_ns() / 1e6; }
static double cpu_ms_(void) { return (double)bench_thread_cpu_ns() / 1e6; }
static double proc_ms_(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

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

typedef struct Result {
    double cpu, fps;
} Result;

/* Blocks of `block` frames of every variant, `rounds` times, rotating the order. */
static void measure_(Target *targets[V_COUNT], int n, int block, Result res[V_COUNT]) {
    double cpu[V_COUNT][MAX_ROUNDS], fps[V_COUNT][MAX_ROUNDS];
    for (int w = 0; w < 3; w++) /* warm-up: buffers grow, shaders compile, caches fill */
        for (int v = 0; v < V_COUNT; v++) frame_(targets[v], v, n);
    double t0 = now_ms_();
    for (int v = 0; v < V_COUNT; v++)
        for (int f = 0; f < block; f++) frame_(targets[v], v, n);
    double per_round = now_ms_() - t0;
    int rounds = per_round > 0 ? (int)(20000.0 / per_round) : MAX_ROUNDS; /* ~20 s in all */
    if (rounds > 21) rounds = 21;
    if (rounds < 5) rounds = 5;
    rounds |= 1;
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < V_COUNT; j++) {
            int v = (j + r) % V_COUNT;
            double w0 = now_ms_(), c0 = proc_ms_();
            for (int f = 0; f < block; f++) frame_(targets[v], v, n);
            double c1 = proc_ms_(), w1 = now_ms_();
            cpu[v][r] = (c1 - c0) / block;
            fps[v][r] = block * 1000.0 / (w1 - w0);
        }
    for (int v = 0; v < V_COUNT; v++)
        res[v] = (Result){bench_median_f64(cpu[v], rounds), bench_median_f64(fps[v], rounds)};
}

static int bench_window_(const char *dir, int n) {
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Target gl = {0}, sdl = {0};
    if (!target_open_(&gl, perm, dir, RENDERER_GL, false) || !target_open_(&sdl, perm, dir, RENDERER_SDL, false))
        return 1;
    int ow, oh;
    st_platform_output_size(gl.pf, &ow, &oh);
    printf("1. %d sprites 16x16 at 480x270, shown at %dx%d, no vsync; process CPU ms per frame and fps, medians:\n"
           "   gl   = %s\n   sdl  = %s\n",
           n, ow, oh, st_render_describe(gl.rd), st_render_describe(sdl.rd));
    Target *targets[V_COUNT] = {&gl, &sdl, &sdl};
    Result res[V_COUNT];
    measure_(targets, n, 10, res);
    printf("   %-6s %9s %8s %10s %10s\n", "", "cpu ms", "fps", "cpu / sdl", "fps / sdl");
    for (int v = 0; v < V_COUNT; v++)
        printf("   %-6s %9.3f %8.1f %9.2fx %9.2fx\n", variant_names[v], res[v].cpu, res[v].fps,
               res[v].cpu / res[V_SDL].cpu, res[v].fps / res[V_SDL].fps);
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
static int bench_cpu_(const char *dir) {
    enum { N = N_SPRITES, R = 21 };
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Arena *frame = st_arena_create((ArenaParams){.name = "frame"});
    Arena *tmp = st_arena_create((ArenaParams){.name = "tmp"});
    Platform *pf = st_platform_create(
        perm, &(PlatformDesc){.logical_w = BENCH_LOGICAL_W, .logical_h = BENCH_LOGICAL_H, .headless = true});
    Renderer *rd = pf ? st_render_create(perm, pf) : NULL;
    Error err;
    const Texture *texs[3] = {
        rd ? st_asset_load_texture(rd, perm, st_asset_path(perm, dir, "sprites.png"), 16, 16, &err) : NULL,
        rd ? st_asset_load_texture(rd, perm, st_asset_path(perm, dir, "tiles.png"), 16, 16, &err) : NULL,
        rd ? st_asset_load_texture(rd, perm, st_asset_path(perm, dir, "font.png"), 8, 10, &err) : NULL};
    if (!texs[0] || !texs[1] || !texs[2]) {
        fprintf(stderr, "bench_render: %s\n", rd ? err.message : "no renderer");
        return 1;
    }
    DrawCmd *flat = st_arena_push_array(tmp, DrawCmd, N), *out = st_arena_push_array(tmp, DrawCmd, N);
    double push[R], sort[R];
    for (int r = 0; r < R + 2; r++) {
        st_arena_clear(frame);
        st_render_begin(rd, frame, (Color){0, 0, 0, 255});
        double c0 = cpu_ms_();
        for (int i = 0; i < N; i++) {
            const Texture *t = texs[i % 3];
            TextureInfo ti = st_render_texture_info(t);
            st_render_cell(rd, t, g_sprites[i].cell % (ti.cols * ti.rows), g_sprites[i].x, g_sprites[i].y, i % 7, 0);
        }
        double c1 = cpu_ms_();
        st_render_present(rd); /* drops the list unsubmitted */
        if (r >= 2) push[r - 2] = c1 - c0;
    }
    uint64_t peak = st_arena_stats(frame).peak;
    for (int i = 0; i < N; i++)
        flat[i] = (DrawCmd){g_sprites[i].x,    g_sprites[i].y,       16, 16, 0, 0, 1, 1, COLOR_WHITE,
                            (uint16_t)(i % 7), (uint16_t)(i % 3 + 1)};
    for (int r = 0; r < R + 2; r++) {
        double c0 = cpu_ms_();
        st_render_sort_commands(flat, out, N);
        double c1 = cpu_ms_();
        if (r >= 2) sort[r - 2] = c1 - c0;
    }
    printf("\n2. engine CPU for 10k draw commands (7 layers x 3 textures -> 21 runs), thread CPU ms, median of %d:\n"
           "   st_render_cell pushes into the frame arena %.3f, stable sort %.3f, together %.3f"
           " (frame arena peak %llu bytes)\n",
           R, bench_median_f64(push, R), bench_median_f64(sort, R),
           bench_median_f64(push, R) + bench_median_f64(sort, R), (unsigned long long)peak);
    st_render_release(rd);
    st_platform_release(pf);
    st_arena_release(tmp);
    st_arena_release(frame);
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
    int only = -1, n = N_SPRITES, frames = 200;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            i++;
            for (int v = 0; v < V_COUNT; v++)
                if (!strcmp(argv[i], variant_names[v])) only = v;
        } else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
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
    if (display) {
        if (bench_window_(dir, n)) return 1;
    } else {
        printf("1. (no display: the window section is skipped; tools/bench.sh runs it under Xvfb)\n");
    }
    if (bench_cpu_(dir)) return 1;
    st_arena_release(boot);
    return 0;
}
