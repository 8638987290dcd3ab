/* 02_level_arena.c - a level arena, cleared on every level change, with nothing to free.

   The idea: everything one level owns (its map, its enemies, its name) goes in the level
   arena the host hands the game (h->life.level). Changing level is one st_arena_clear:
   no list of things to free, no leak when a level gains a new kind of thing, no dangling
   pointer kept by accident (the game keeps a level *number*, never an address into it).
   Look at: load_level() (pushes only), the clear before it, and the printed use per level,
   which differs per level while the cost of forgetting is zero.

   Run: ./02_level_arena --headless --frames 200 --screenshot out.png */
#include "example.h"

typedef struct Level {
    int number, w, h;
    uint8_t *tiles; /* w * h, in the level arena */
    Str8 name;      /* in the level arena too */
} Level;

typedef struct Game {
    Font font;
    Level *level; /* points into the level arena: replaced, never freed, at every change */
    uint64_t ticks;
} Game;

static Level *load_level(Arena *level, int number) {
    Level *l = st_arena_push_struct(level, Level);
    if (!l) return NULL;
    l->number = number, l->w = 8 + number * 6, l->h = 4 + number * 2;
    l->tiles = st_arena_push_array(level, uint8_t, l->w * l->h);
    if (!l->tiles) return NULL;
    for (int i = 0; i < l->w * l->h; i++) l->tiles[i] = (uint8_t)((i * 7 + number) % 5 == 0);
    l->name = st_str8_fmt(level, "level %d: %d x %d tiles", number, l->w, l->h);
    return l;
}

static bool change_level(Game *g, Host *h, int number) {
    st_arena_clear(h->life.level); /* the previous level, all of it, gone */
    g->level = load_level(h->life.level, number);
    if (!g->level) return false;
    printf("%.*s: level arena used %llu bytes\n", STR8_FMT(g->level->name),
           (unsigned long long)st_arena_stats(h->life.level).used);
    return true;
}

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    return g && change_level(g, h, 1) ? g : NULL;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

static bool tick(void *s, Host *h) {
    Game *g = s;
    if (++g->ticks % 60 == 0) return change_level(g, h, g->level->number % 4 + 1);
    return true;
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    const Level *l = g->level;
    for (int y = 0; y < l->h; y++)
        for (int x = 0; x < l->w; x++) {
            Color c = l->tiles[y * l->w + x] ? (Color){120, 90, 60, 255} : (Color){50, 70, 60, 255};
            st_render_rect(h->rd, (RectF){8 + x * 8.f, 24 + y * 8.f, 7, 7}, 0, c);
        }
    st_font_draw(h->rd, &g->font, 8, 8, l->name, COLOR_WHITE, 3, TEXT_ALIGN_LEFT, 1);
    ArenaStats ls = st_arena_stats(h->life.level);
    example_bar(h, &g->font, 150, "level arena (used / peak)", ls.used, ls.peak, (Color){90, 200, 120, 255});
}

static int release(void *s, Host *h) {
    (void)s;
    printf("level arena peak %llu bytes\n", (unsigned long long)st_arena_stats(h->life.level).peak);
    return 0;
}

static const GameApi API = {
    EXAMPLE_API_DEFAULTS, .name = "02_level_arena", .create = create, .start = start, .tick = tick,
    .draw = draw,         .release = release};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
