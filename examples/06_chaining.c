/* 06_chaining.c - chaining versus a fixed capacity: two answers to "the arena is full".

   The idea: an arena reserves address space up front (reserve_size). When a push does not
   fit, a chaining arena (the default) maps another block and goes on; pointers already
   handed out never move, because nothing is copied. A NO_CHAIN arena refuses instead (as
   in 01). Chain when the size is unknown and growth is fine (tools, loaders, the permanent
   arena); fix the capacity when exceeding it is a bug you want to hear about (a level's
   budget, a frame's).
   Look at: the same 1000 pushes into both arenas, the blocks count of the chaining one,
   and that its first pointer is still valid after it grew.
   In the picture: both bars on one scale, 128 KiB: the fixed arena stops at its 64 KiB and
   refuses the rest, the chained one goes on into a second block (the tick is the block's
   edge), and after the rewind it is one block again.

   Run: ./06_chaining --headless --frames 10 --screenshot out.png */
#include "example.h"

typedef struct Particle {
    float x, y, vx, vy, life;
    uint32_t color;
    char pad[104];
} Particle; /* 128 bytes */

static int fill(Arena *a, int n, Particle **first) {
    int pushed = 0;
    for (int i = 0; i < n; i++) {
        Particle *p = st_arena_push_struct(a, Particle);
        if (!p) break;
        p->life = (float)i;
        if (i == 0) *first = p;
        pushed++;
    }
    return pushed;
}

static ArenaStats show(const Arena *a, int pushed) {
    ArenaStats s = st_arena_stats(a);
    printf("%-8s %4d pushed, used %6llu, reserved %6llu, blocks %u\n", s.name, pushed, (unsigned long long)s.used,
           (unsigned long long)s.reserved, s.blocks);
    return s;
}

typedef struct Game {
    Font font;
    ArenaStats fixed, grown, rewound; /* what show() printed */
    int nf;
} Game;

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    uint64_t reserve = 64 << 10; /* room for 512 particles per block */
    Arena *fixed =
        st_arena_create((ArenaParams){.reserve_size = reserve, .flags = ARENA_FLAG_NO_CHAIN, .name = "fixed"});
    Arena *chained = st_arena_create((ArenaParams){.reserve_size = reserve, .name = "chained"});
    if (!g || !fixed || !chained) return NULL;
    Particle *f0 = NULL, *c0 = NULL;
    g->nf = fill(fixed, 1000, &f0); /* stops at the capacity: the rest are refused */
    int nc = fill(chained, 1000, &c0);
    g->fixed = show(fixed, g->nf);
    g->grown = show(chained, nc);
    c0->life += 1; /* still valid after the arena grew: nothing was copied */
    printf("chained: particle 0 still valid after growing (life %.0f)\n", c0->life);

    /* Rewinding past a block boundary unmaps the later blocks: the memory goes back. */
    st_arena_pop_to(chained, 100 * sizeof(Particle));
    g->rewound = show(chained, 100);
    st_arena_release(fixed);
    st_arena_release(chained);
    return g->nf < 1000 && nc == 1000 ? g : NULL;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

/* One arena's row: its bar on the shared scale, and a tick at each block's edge. */
static void row(Host *h, const Font *f, float y, const char *label, ArenaStats a, uint64_t scale, Color c) {
    st_render_rect(h->rd, (RectF){8, y + 12, 304, 6}, 1, (Color){60, 56, 70, 255});
    st_render_rect(h->rd, (RectF){8, y + 12, 304.f * (float)a.used / (float)scale, 6}, 2, c);
    st_font_drawf(h->rd, f, 8, y, COLOR_WHITE, 3, "%s  used %llu, reserved %llu", label, (unsigned long long)a.used,
                  (unsigned long long)a.reserved);
    for (uint32_t b = 1; b <= a.blocks; b++)
        st_render_rect(h->rd, (RectF){8 + 304.f * (float)(b * (a.reserved / a.blocks)) / (float)scale, y + 10, 1, 10},
                       3, COLOR_WHITE);
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    uint64_t scale = g->grown.reserved;
    st_font_drawf(h->rd, &g->font, 8, 8, COLOR_WHITE, 3, "1000 pushes of 128 bytes, 64 KiB reserved");
    row(h, &g->font, 30, "fixed (NO_CHAIN)", g->fixed, scale, (Color){240, 80, 70, 255});
    st_font_drawf(h->rd, &g->font, 8, 52, (Color){240, 80, 70, 255}, 3, "%d pushed, %d refused: NULL", g->nf,
                  1000 - g->nf);
    row(h, &g->font, 78, "chained", g->grown, scale, (Color){90, 200, 120, 255});
    st_font_drawf(h->rd, &g->font, 8, 100, (Color){90, 200, 120, 255}, 3, "1000 pushed, %u blocks, nothing moved",
                  g->grown.blocks);
    row(h, &g->font, 126, "rewound", g->rewound, scale, (Color){120, 160, 255, 255});
    st_font_drawf(h->rd, &g->font, 8, 148, (Color){120, 160, 255, 255}, 3, "%u block: the second unmapped",
                  g->rewound.blocks);
}

static const GameApi API = {EXAMPLE_API_DEFAULTS, .name = "06_chaining", .create = create, .start = start,
                            .draw = draw};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
