/* 01_fixed_arena.c - a fixed arena: a budget you set once, and what happens when it is spent.

   The idea: an arena with ARENA_FLAG_NO_CHAIN never grows past its reserve. A push that
   does not fit returns NULL (and nothing else changes), so "out of memory" is one `if`,
   at the place that asked, and the program decides what it means: here, stop spawning.
   Look at: the NULL check in spawn(), st_arena_error() turning the refusal into words
   ("arena 'enemies' full: ..."), and the peak, which tells you the budget you really used.
   In the picture: one enemy pushed per tick, the bar filling to 4096 of 4096 bytes, and
   spawn 64 (the red box) answered NULL: "arena full", and the peak below it.

   Run: ./01_fixed_arena --headless --frames 100 --screenshot out.png
        (prints how many enemies fit, the refusal, and the peak) */
#include "example.h"

typedef struct Enemy {
    float x, y, vx, vy;
    int hp, kind;
    char name[40];
} Enemy; /* 64 bytes */

typedef struct Game {
    Font font;
    Texture *sprites;   /* a goblin is cell 12 */
    Arena *enemies;     /* 4 KiB of enemies, never more: a level designer's budget */
    int count, refused; /* refused: the index the arena said NULL to, or -1 */
} Game;

static Enemy *spawn(Arena *enemies, int i) {
    Enemy *e = st_arena_push_struct(enemies, Enemy); /* zeroed; NULL when the budget is spent */
    if (!e) return NULL;
    e->x = (float)(i % 16) * 20, e->y = (float)(i / 16) * 20, e->hp = 3;
    snprintf(e->name, sizeof e->name, "goblin %d", i);
    return e;
}

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    if (!g) return NULL;
    g->enemies = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "enemies"});
    g->refused = -1;
    return g->enemies ? g : NULL;
}

static bool start(void *s, Host *h) {
    Game *g = s;
    Error err;
    g->sprites = st_asset_load_texture(h->rd, h->life.perm, EXAMPLE_ASSETS "/sprites.png", 16, 16, &err);
    if (!g->sprites) return st_error_report(&err), false;
    return example_font(h, &g->font);
}

static bool tick(void *s, Host *h) {
    (void)h;
    Game *g = s;
    if (g->refused >= 0) return true;
    if (spawn(g->enemies, g->count)) return g->count++, true;
    Error err;
    st_error_clear(&err);
    st_arena_error(&err); /* the arena's own words for what it refused */
    printf("spawn %d refused: %s\n", g->count, err.message);
    ArenaStats st = st_arena_stats(g->enemies);
    printf("%d enemies fit in %llu bytes\n", g->count, (unsigned long long)st_arena_capacity(g->enemies));
    printf("peak %llu of %llu bytes\n", (unsigned long long)st.peak, (unsigned long long)st.reserved);
    g->refused = g->count;
    return true;
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    for (int i = 0; i < 64; i++) /* a slot per enemy the budget holds: spawned ones lit */
        st_render_cell_tinted(h->rd, g->sprites, 12, 10 + i % 16 * 19.f, 8 + i / 16 * 20.f, 1,
                              i < g->count ? COLOR_WHITE : (Color){60, 60, 72, 255}, 0);
    ArenaStats st = st_arena_stats(g->enemies);
    example_bar(h, &g->font, 112, "arena 'enemies' (NO_CHAIN)", st.used, st.reserved, (Color){90, 200, 120, 255});
    if (g->refused < 0) {
        st_font_drawf(h->rd, &g->font, 8, 140, COLOR_WHITE, 3, "spawn %d: an enemy", g->count);
        return;
    }
    Color red = {240, 80, 70, 255};
    st_render_rect_outline(h->rd, (RectF){10 + g->refused % 16 * 19.f, 8 + g->refused / 16 * 20.f, 16, 16}, 1, red);
    st_font_drawf(h->rd, &g->font, 8, 140, red, 3, "spawn %d -> NULL: arena full", g->refused);
    st_font_drawf(h->rd, &g->font, 8, 156, COLOR_WHITE, 3, "%d enemies fit; peak %llu of %llu", g->count,
                  (unsigned long long)st.peak, (unsigned long long)st.reserved);
}

static int release(void *s, Host *h) {
    (void)h;
    Game *g = s;
    /* Clearing gives the whole budget back at once; the peak remembers the worst moment. */
    st_arena_clear(g->enemies);
    printf("after clear: used %llu, peak still %llu\n", (unsigned long long)st_arena_stats(g->enemies).used,
           (unsigned long long)st_arena_stats(g->enemies).peak);
    st_arena_release(g->enemies);
    return g->count > 0 ? 0 : 1;
}

static const GameApi API = {
    EXAMPLE_API_DEFAULTS, .name = "01_fixed_arena", .create = create, .start = start, .tick = tick,
    .draw = draw,         .release = release};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
