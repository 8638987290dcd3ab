/* 03_frame_arena.c - a frame arena for per-frame text: format freely, free nothing.

   The idea: the HUD's strings live one frame. They go in the frame arena (h->life.frame),
   which the host clears before every draw, so st_str8_fmt can be called as often as you
   like: the memory a frame used is reused by the next, and the heap is never touched.
   Look at: draw() formatting five strings a frame, and the printed peak of the frame
   arena, which stays one frame's worth however long the program runs.

   Run: ./03_frame_arena --headless --frames 120 --screenshot out.png */
#include "example.h"

typedef struct Game {
    Font font;
    uint64_t ticks;
    int coins, hp;
    uint64_t frame_high; /* the most one draw's text took of the frame arena */
} Game;

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    if (g) g->hp = 5;
    return g;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

static bool tick(void *s, Host *h) {
    (void)h;
    Game *g = s;
    g->ticks++;
    if (g->ticks % 7 == 0) g->coins++;
    if (g->ticks % 50 == 0) g->hp--;
    return true;
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    Arena *frame = h->life.frame; /* cleared before this draw */
    uint64_t at_start = st_arena_stats(frame).used;
    Str8 lines[] = {
        st_str8_fmt(frame, "Coins %d", g->coins),
        st_str8_fmt(frame, "Hit points %d of 5", g->hp),
        st_str8_fmt(frame, "Time %llu.%02llu s", (unsigned long long)g->ticks / 60,
                    (unsigned long long)g->ticks % 60 * 100 / 60),
        st_str8_fmt(frame, "Frame %llu", (unsigned long long)h->frames),
    };
    uint64_t used = st_arena_stats(frame).used - at_start; /* what the text cost */
    for (int i = 0; i < 4; i++)
        st_font_draw(h->rd, &g->font, 8, 8 + i * 14.f, lines[i], COLOR_WHITE, 3, TEXT_ALIGN_LEFT, 1);
    if (used > g->frame_high) g->frame_high = used;
    Str8 note = st_str8_fmt(frame, "this frame's text: %llu bytes", (unsigned long long)used);
    st_font_draw(h->rd, &g->font, 160, 100, note, (Color){255, 214, 120, 255}, 3, TEXT_ALIGN_CENTER, 1);
    example_bar(h, &g->font, 150, "frame arena", used, 1024, (Color){120, 160, 255, 255});
}

static int release(void *s, Host *h) {
    Game *g = s;
    printf("%llu frames; one frame's text took at most %llu bytes of the frame arena\n", (unsigned long long)h->frames,
           (unsigned long long)g->frame_high);
    return g->frame_high < 1024 ? 0 : 1;
}

static const GameApi API = {
    EXAMPLE_API_DEFAULTS, .name = "03_frame_arena", .create = create, .start = start, .tick = tick,
    .draw = draw,         .release = release};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
