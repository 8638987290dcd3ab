/* 12_peak_sizing.c - sizing arenas from measured peaks instead of guesses.

   The idea: give arenas generous sizes while developing, measure what a real run used, and
   then size them from the measurement. Three numbers answer it: st_arena_stats(a).peak (the
   worst moment since creation, surviving clears), st_arena_high_take(a) (the worst moment
   since the last take: a per-frame high that catches a push-then-pop spike), and
   st_arena_recommend_reserve(peak) (that plus 25%, rounded up to 64 KiB). An ArenaTrace
   records the use of several arenas frame by frame, to find *when* the peak happened.
   (A program on the host gets the same: the arena report at exit and --arena-trace FILE.)
   Look at: the spike in frame 150 that the end-of-frame `used` never shows, and the table.
   In the picture: the frame arena over 300 frames, a column per frame: its `used` at the
   frame's end (blue, low and steady) and its high (red): one column, frame 150, shoots up
   where `used` shows nothing; below, each arena's peak and the reserve it recommends.

   Run: ./12_peak_sizing --headless --frames 10 --screenshot out.png */
#include <strata/core/arena_trace.h>

#include "example.h"

enum { FRAMES = 300 };

typedef struct Game {
    Font font;
    uint32_t used[FRAMES], high[FRAMES]; /* the frame arena's, per frame */
    uint64_t peak[3], spike, spike_frame;
} Game;

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    Arena *level = st_arena_create((ArenaParams){.name = "level"});
    Arena *frame = st_arena_create((ArenaParams){.name = "frame"});
    if (!g || !perm || !level || !frame) return NULL;
    ArenaTrace trace;
    if (!st_arena_trace_init(&trace, perm, FRAMES, 16)) return NULL;
    const char *names[] = {"permanent", "level", "frame"};
    for (int i = 0; i < 3; i++) st_arena_trace_name(&trace, i, names[i]);

    uint64_t spike_frame = 0, spike = 0;
    for (uint64_t f = 0; f < FRAMES; f++) {
        if (f % 100 == 0) { /* a new level: bigger each time */
            st_arena_clear(level);
            st_arena_push(level, 40000 + f * 300, 16);
            st_arena_trace_mark(&trace, f, "level %llu", (unsigned long long)(f / 100 + 1));
        }
        st_arena_clear(frame);
        st_arena_push(frame, 2000 + f % 7 * 100, 16); /* draw commands, HUD text */
        ArenaTemp t = st_arena_temp_begin(frame);
        st_arena_push(frame, f == 150 ? 50000 : 500, 16); /* a one-frame spike, popped at once */
        st_arena_temp_end(t);
        uint64_t high = st_arena_high_take(frame);
        if (high > spike) spike = high, spike_frame = f;
        g->used[f] = (uint32_t)st_arena_stats(frame).used, g->high[f] = (uint32_t)high;
        st_arena_trace_sample(&trace, (Arena *const[]){perm, level, frame}, 3, f, (uint32_t)(f / 100 + 1), 0);
    }
    printf("frame arena: used %llu at the last frame's end; worst frame %llu with %llu bytes\n",
           (unsigned long long)st_arena_stats(frame).used, (unsigned long long)spike_frame, (unsigned long long)spike);
    for (uint64_t i = 0; i < st_arena_trace_marks_held(&trace); i++)
        printf("mark at frame %llu: %s\n", (unsigned long long)st_arena_trace_mark_at(&trace, i)->frame,
               st_arena_trace_mark_at(&trace, i)->text);
    printf("%-10s %10s %14s\n", "arena", "peak", "recommended");
    Arena *all[] = {perm, level, frame};
    for (int i = 0; i < 3; i++) {
        uint64_t peak = g->peak[i] = st_arena_stats(all[i]).peak;
        printf("%-10s %10llu %14llu\n", names[i], (unsigned long long)peak,
               (unsigned long long)st_arena_recommend_reserve(peak));
    }
    for (int i = 2; i >= 0; i--) st_arena_release(all[i]);
    g->spike = spike, g->spike_frame = spike_frame;
    return g;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    Color red = {240, 90, 70, 255}, blue = {120, 160, 255, 255}, grey = {150, 144, 160, 255};
    float base = 108, scale = 84.f / (float)g->spike;
    st_font_drawf(h->rd, &g->font, 8, 4, COLOR_WHITE, 3, "frame arena, per frame:");
    st_font_drawf(h->rd, &g->font, 120, 4, blue, 3, "used at its end");
    st_font_drawf(h->rd, &g->font, 200, 4, red, 3, "and its high");
    for (int f = 0; f < FRAMES; f++) {
        st_render_rect(h->rd, (RectF){10.f + f, base - g->high[f] * scale, 1, g->high[f] * scale}, 1, red);
        st_render_rect(h->rd, (RectF){10.f + f, base - g->used[f] * scale, 1, g->used[f] * scale}, 2, blue);
    }
    for (int l = 0; l < 3; l++) {
        st_render_rect(h->rd, (RectF){10.f + l * 100, base, 1, 4}, 1, grey);
        st_font_drawf(h->rd, &g->font, 13.f + l * 100, base + 2, grey, 3, "level %d", l + 1);
    }
    st_font_drawf(h->rd, &g->font, 14.f + (float)g->spike_frame, 24, red, 3, "frame %llu: high %llu, used %u",
                  (unsigned long long)g->spike_frame, (unsigned long long)g->spike, g->used[g->spike_frame]);
    static const char *names[] = {"permanent", "level", "frame"};
    st_font_drawf(h->rd, &g->font, 8, 124, grey, 3, "arena       peak    recommended reserve");
    for (int i = 0; i < 3; i++) {
        st_font_drawf(h->rd, &g->font, 8, 136.f + i * 12, COLOR_WHITE, 3, "%s", names[i]);
        st_font_drawf(h->rd, &g->font, 60, 136.f + i * 12, COLOR_WHITE, 3, "%llu", (unsigned long long)g->peak[i]);
        st_font_drawf(h->rd, &g->font, 110, 136.f + i * 12, COLOR_WHITE, 3, "%llu",
                      (unsigned long long)st_arena_recommend_reserve(g->peak[i]));
    }
}

static const GameApi API = {EXAMPLE_API_DEFAULTS, .name = "12_peak_sizing", .create = create, .start = start,
                            .draw = draw};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
