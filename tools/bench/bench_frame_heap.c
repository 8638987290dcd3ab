/* bench_frame_heap: heap calls per frame of the real game, headless: the host and the game
   behind its table (the path of `game --headless`), the bot playing from level 1 for
   FRAMES frames (SDL's software renderer, every frame drawn, HUD text and level changes
   included). Every malloc, calloc, realloc and aligned allocation in the process is
   counted by tests/core/heap_count.h's interposer (SDL's and libc's own calls included),
   from after WARM frames to the end; the figure is calls per frame, and the claim is 0.

   Beside it, for scale, what the frame asks of its arenas instead: the draw commands a
   frame pushes (a renderer that allocated each one would make that many calls a frame).

   Usage: bench_frame_heap [FRAMES]   (default 1200) */
#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "app/game_api.h"
#include "bench.h"
#include <strata/host/host.h>
#include <strata/render/render.h>

#include "heap_count.h"

enum { WARM = 3 };

int main(int argc, char **argv) {
    uint64_t frames = argc > 1 ? strtoull(argv[1], NULL, 10) : 1200;
    if (frames <= WARM) frames = 1200;
    if (!HEAP_COUNT) {
        printf("bench_frame_heap: this build cannot interpose malloc (a sanitizer owns it): skipped\n");
        return 0;
    }
    heap_calls = 0; /* the counter sees this program's calls, or the figure would mean nothing */
    free(malloc(16));
    if (heap_calls != 1) {
        fprintf(stderr, "bench_frame_heap: the malloc interposer is not in effect\n");
        return 1;
    }
    heap_counting = 0;
    setenv("SDL_VIDEODRIVER", getenv("SDL_VIDEODRIVER") ? getenv("SDL_VIDEODRIVER") : "dummy", 1);
    setenv("SDL_AUDIODRIVER", getenv("SDL_AUDIODRIVER") ? getenv("SDL_AUDIODRIVER") : "dummy", 1);
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    HostOptions ho = {.headless = true, .fixed_clock = true, .frames = frames};
    AppOptions ao = {.level = "levels/01-first-steps.lvl", .skip_title = true, .no_save = true, .autoplay = true,
                     .seed = 1, .seed_given = true};
    Host *h = perm ? st_host_create(perm, game_api(), &ho, &ao) : NULL;
    if (!h) {
        fprintf(stderr, "bench_frame_heap: the game did not start (run from the source folder)\n");
        return 1;
    }
    bool more = true;
    for (int i = 0; i < WARM && more; i++) more = st_host_frame(h);
    uint64_t f0 = h->frames, sprites = 0;
    heap_calls = 0;
    heap_counting = 1;
    while (more) {
        more = st_host_frame(h);
        heap_counting = 0;
        sprites += st_render_stats(h->rd).sprites;
        heap_counting = 1;
    }
    heap_counting = 0;
    uint64_t n = h->frames - f0, calls = heap_calls;
    int status = st_host_release(h);
    st_arena_release(perm);
    if (!n) return 1;
    printf("the game headless (SDL software renderer), the bot from level 1, %llu frames counted after %d:\n",
           (unsigned long long)n, WARM);
    printf("  heap calls (malloc, calloc, realloc, aligned; every library's)  %llu: %.2f per frame\n",
           (unsigned long long)calls, (double)calls / (double)n);
    printf("  draw commands a frame pushes into the frame arena instead        %.0f per frame\n",
           (double)sprites / (double)n);
    char ours[64], alt[64];
    snprintf(ours, sizeof ours, "%.2f heap calls/frame", (double)calls / (double)n);
    snprintf(alt, sizeof alt, "%.0f draw cmds/frame in an arena", (double)sprites / (double)n);
    printf("summary: heap_frame | heap calls per frame, headless game | %s | %s | -\n", ours, alt);
    return status == 0 && calls == 0 ? 0 : 1;
}
