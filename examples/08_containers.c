/* 08_containers.c - three containers on arenas, and which one to reach for.

   The idea: growable storage without malloc.
     List         (list.h)          a dynamic array over any Allocator: on an arena's, the
                                    last allocation grows in place; anything pushed after it
                                    makes growth copy (the old block stays until a clear)
     ChunkList    (chunk_list.h)    chunks pushed into an arena: nothing ever moves or is
                                    copied; walk it, or flatten it into one array at the end
     VirtualArray (virtual_array.h) one contiguous array that grows in place by committing
                                    pages of a big reservation: pointers never move either
   Look at: the same 1000 walls collected three ways, and the bytes each left in its arena.
   The usual shape is the ChunkList's: collect in scratch, flatten into the arena that keeps.
   In the picture: the bytes each one holds as the walls come in (a bar per 40 walls; the
   light part is the walls themselves): the List doubles, the ChunkList adds a chunk per
   256, the VirtualArray commits 64 KiB of its megabyte at the first push.

   Run: ./08_containers --headless --frames 10 --screenshot out.png */
#include <strata/core/allocator.h>
#include <strata/core/chunk_list.h>
#include <strata/core/list.h>
#include <strata/core/virtual_array.h>

#include "example.h"

typedef struct Wall {
    int32_t x, y;
} Wall;
enum { WALLS = 1000, EVERY = 40, SAMPLES = WALLS / EVERY };

static Wall wall_at(int i) { return (Wall){i % 40, i / 40}; }

typedef struct Game {
    Font font;
    uint64_t held[3][SAMPLES]; /* List, ChunkList, VirtualArray: bytes held after each 40 walls */
} Game;

static void sample(Game *g, int c, int i, uint64_t held) {
    if ((i + 1) % EVERY == 0) g->held[c][(i + 1) / EVERY - 1] = held;
}

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    Arena *level = st_arena_create((ArenaParams){.name = "level"});
    if (!g || !level) return NULL;

    /* List: an array that doubles, on the arena's allocator. */
    uint64_t before = st_arena_pos(level);
    List walls = LIST_MAKE(Wall, st_allocator_arena(level));
    for (int i = 0; i < WALLS; i++) {
        if (!LIST_ADD(&walls, Wall, .x = wall_at(i).x, .y = wall_at(i).y)) return NULL;
        sample(g, 0, i, st_arena_pos(level) - before);
    }
    printf("List:         %llu walls, capacity %llu, %llu bytes of the arena\n", (unsigned long long)walls.count,
           (unsigned long long)walls.capacity, (unsigned long long)(st_arena_pos(level) - before));

    /* ChunkList: collected in scratch, kept as one flat array in the level arena. */
    Wall *kept;
    uint64_t kept_count;
    {
        SCRATCH_SCOPE(tmp, level);
        uint64_t start = st_arena_pos(tmp.arena);
        ChunkList cl;
        st_chunk_list_init(&cl, tmp.arena, sizeof(Wall), 256);
        for (int i = 0; i < WALLS; i++) {
            Wall *w = st_chunk_list_push_struct(&cl, Wall);
            if (!w) return NULL;
            *w = wall_at(i);
            sample(g, 1, i, st_arena_pos(tmp.arena) - start);
        }
        before = st_arena_pos(level);
        Span flat = st_chunk_list_flatten(&cl, level);
        kept = flat.data, kept_count = flat.count;
        printf("ChunkList:    %llu walls in %llu bytes of scratch; flattened: %llu bytes of the level arena\n",
               (unsigned long long)cl.count, (unsigned long long)st_arena_pos(tmp.arena),
               (unsigned long long)(st_arena_pos(level) - before));
    } /* the chunks are gone with the scope; `kept` is in the level arena */
    printf("              wall 999 kept at (%d, %d)\n", kept[kept_count - 1].x, kept[kept_count - 1].y);

    /* VirtualArray: its own reservation, committed a page at a time. */
    VirtualArray va;
    if (!st_virtual_array_init(&va, sizeof(Wall), 1 << 20)) return NULL;
    Wall *base = va.base;
    for (int i = 0; i < WALLS; i++) {
        Wall *w = st_virtual_array_push(&va);
        if (!w) return NULL;
        *w = wall_at(i);
        sample(g, 2, i, va.committed);
    }
    printf("VirtualArray: %llu walls, %llu bytes committed of %llu reserved, base %s\n", (unsigned long long)va.count,
           (unsigned long long)va.committed, (unsigned long long)va.reserved,
           base == va.base ? "never moved" : "MOVED");
    st_virtual_array_release(&va);

    st_arena_clear(level); /* the List's blocks and the flat walls, all at once */
    st_arena_release(level);
    return g;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

/* One container's growth: a bar per sample, its height the bytes held on the chart's own
   scale (its last figure), the walls' own bytes lighter inside it. */
static void chart(Host *h, const Game *g, int c, const char *name, const char *how, Color col) {
    float x0 = 8 + c * 106.f, base = 130, hmax = 80;
    uint64_t scale = g->held[c][SAMPLES - 1];
    st_font_drawf(h->rd, &g->font, x0, 8, col, 3, "%s", name);
    st_font_drawf(h->rd, &g->font, x0, 20, COLOR_WHITE, 3, "%llu bytes", (unsigned long long)scale);
    for (int k = 0; k < SAMPLES; k++) {
        float held = hmax * (float)g->held[c][k] / (float)scale;
        float used = hmax * (float)((k + 1) * EVERY * sizeof(Wall)) / (float)scale;
        st_render_rect(h->rd, (RectF){x0 + k * 4.f, base - held, 3, held}, 1, col);
        st_render_rect(h->rd, (RectF){x0 + k * 4.f, base - used, 3, used}, 2, (Color){230, 230, 240, 255});
    }
    st_render_rect(h->rd, (RectF){x0, base, 100, 1}, 1, (Color){110, 104, 120, 255});
    st_font_drawf(h->rd, &g->font, x0, base + 6, col, 3, "%s", how);
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    chart(h, g, 0, "List", "doubles, in place", (Color){255, 214, 120, 255});
    chart(h, g, 1, "ChunkList", "a chunk per 256", (Color){70, 120, 200, 255});
    chart(h, g, 2, "VirtualArray", "64 KiB committed", (Color){90, 200, 120, 255});
    st_font_drawf(h->rd, &g->font, 8, 152, COLOR_WHITE, 3, "bytes held per 40 walls pushed (light: the walls)");
    st_font_drawf(h->rd, &g->font, 8, 164, (Color){70, 120, 200, 255}, 3,
                  "the chunks are scratch: flattened into the level arena");
}

static const GameApi API = {EXAMPLE_API_DEFAULTS, .name = "08_containers", .create = create, .start = start,
                            .draw = draw};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
