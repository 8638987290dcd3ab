/* 13_hot_reload.c - hot reload: the game's code swapped while it runs, its state kept.

   The idea: the game is a shared library that exports its table (game_api()); the engine's
   host, strata-host, loads it, watches the file, and when it changes loads the new one and
   calls its `reloaded` on the *same* state. That works because the state lives in the
   host's arenas (not in the library's static data) and holds no pointer into the library's
   code. The library links no engine: its engine calls resolve to strata-host's copy.
   Look at: Game (plain data, in the permanent arena), SPEED and COLOR (build it twice with
   other -D values to see the change), and reloaded(), which runs in the new code.

   Build and run (two terminals, or the gallery's test, which does exactly this):
       cc -shared -fPIC -DSPEED=1 13_hot_reload.c $(pkg-config --cflags strata) -o hot.so
       strata-host --hot-reload --hot-library hot.so
       cc -shared -fPIC -DSPEED=3 -DCOLOR=0xF07030FFu 13_hot_reload.c ... -o new.so && mv new.so hot.so */
#include "example.h"

#ifndef SPEED
#define SPEED 1 /* pixels per tick */
#endif
#ifndef COLOR
#define COLOR 0x50A0F0FFu
#endif

typedef struct Game {
    Font font;
    float x;
    uint64_t ticks, reloaded_at; /* reloaded_at: the tick the new code came (0: never) */
    float x_at_reload;
} Game;

static void *create(Host *h, const void *options) {
    (void)options;
    return st_arena_push_struct(h->life.perm, Game);
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

static bool tick(void *s, Host *h) {
    Game *g = s;
    g->x += SPEED;
    if (++g->ticks == 30) printf("ready: speed %d\n", SPEED), fflush(stdout);
    /* Sixty ticks of the new code, then the run ends: the test's bound is this, not a clock. */
    if (g->reloaded_at && g->ticks == g->reloaded_at + 60) {
        printf("after the reload: %d px in 60 ticks\n", (int)(g->x - g->x_at_reload));
        h->quit = true;
    }
    return true;
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)hh;
    Game *g = s;
    Color c = {COLOR >> 24, COLOR >> 16 & 255, COLOR >> 8 & 255, COLOR & 255};
    float x = (float)((int)g->x % (int)(w - 16));
    st_render_rect(h->rd, (RectF){x, 80, 16, 16}, 1, c);
    st_font_drawf(h->rd, &g->font, 8, 8, COLOR_WHITE, 3, "this code: speed %d, tick %llu", SPEED,
                  (unsigned long long)g->ticks);
    if (g->reloaded_at)
        st_font_drawf(h->rd, &g->font, 8, 22, c, 3, "reloaded at tick %llu", (unsigned long long)g->reloaded_at);
}

static void reloaded(void *s, Host *h) {
    (void)h;
    Game *g = s; /* the old code's state, read by the new code */
    g->reloaded_at = g->ticks, g->x_at_reload = g->x;
    printf("reloaded at tick %llu: now speed %d, x %d kept\n", (unsigned long long)g->ticks, SPEED, (int)g->x);
    fflush(stdout);
}

static const GameApi API = {
    EXAMPLE_API_DEFAULTS, .name = "13_hot_reload", .create = create, .start = start, .tick = tick,
    .draw = draw,         .reloaded = reloaded};

const GameApi *game_api(void) { return &API; }
