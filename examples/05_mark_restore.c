/* 05_mark_restore.c - mark and restore: temporary work in the arena you already have.

   The idea: an arena's position is a number. Read it (st_arena_pos), do temporary work,
   and go back to it (st_arena_pop_to): everything pushed since is gone, everything before
   is untouched. ArenaTemp (st_arena_temp_begin / _end) is the same pair as a value, and
   ARENA_SCOPE does the restore for you at the end of a block.
   Look at: find_path() keeping only its answer (the path is pushed *before* the mark, the
   search's open list after it), and the three positions printed by main().
   In the picture: the map, the cells the search visited and the path it kept; under it
   the arena at the mark, at its fullest during the search, and after the restore.

   Run: ./05_mark_restore --headless --frames 10 --screenshot out.png */
#include <string.h>

#include "example.h"

enum { W = 12, H = 6 };
static const char MAP[H][W + 1] = {
    "S...#.......", "..#.#.####..", "..#...#.....", "..####.#.##.", "......#....#", "####.....#.G",
};

typedef struct Cell {
    int8_t x, y;
} Cell;

/* Breadth-first search from S to G. The answer (the path) stays in `a`; the search's
   bookkeeping is pushed after a mark and dropped before returning. */
static int16_t seen[W * H]; /* a copy of the search's `from`, for the picture */
static uint64_t search_pos; /* the arena's position at the search's fullest */

static int find_path(Arena *a, Cell **out) {
    Cell *path = st_arena_push_array(a, Cell, W * H); /* the answer: before the mark */
    ArenaTemp t = st_arena_temp_begin(a);             /* the mark */
    Cell *open = st_arena_push_array(a, Cell, W * H);
    int16_t *from = st_arena_push_array(a, int16_t, W * H);
    if (!path || !open || !from) return st_arena_temp_end(t), 0;
    memset(from, 0xff, sizeof(int16_t) * W * H);
    int head = 0, tail = 0, goal = -1;
    open[tail++] = (Cell){0, 0}, from[0] = 0;
    while (head < tail && goal < 0) {
        Cell c = open[head++];
        static const int8_t dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
        for (int d = 0; d < 4; d++) {
            int x = c.x + dx[d], y = c.y + dy[d], i = y * W + x;
            if (x < 0 || y < 0 || x >= W || y >= H || MAP[y][x] == '#' || from[i] >= 0) continue;
            from[i] = (int16_t)(c.y * W + c.x), open[tail++] = (Cell){(int8_t)x, (int8_t)y};
            if (MAP[y][x] == 'G') goal = i;
        }
    }
    int n = 0;
    for (int i = goal; i > 0; i = from[i]) path[n++] = (Cell){(int8_t)(i % W), (int8_t)(i / W)};
    search_pos = st_arena_pos(a), memcpy(seen, from, sizeof seen);
    printf("find_path: searched %d cells, used %llu bytes before the restore\n", tail, (unsigned long long)search_pos);
    st_arena_temp_end(t); /* open and from are gone; path is kept */
    *out = path;
    return n;
}

typedef struct Game {
    Font font;
    Arena *arena;
    Cell *path; /* in the arena, kept past the restore */
    int n;
    uint64_t after;
} Game;

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    if (!g) return NULL;
    Arena *a = st_arena_create((ArenaParams){.name = "level"});
    if (!a) return NULL;
    printf("before: pos %llu\n", (unsigned long long)st_arena_pos(a));
    Cell *path = NULL;
    int n = g->n = find_path(a, &path);
    g->arena = a, g->path = path, g->after = st_arena_pos(a);
    printf("after:  pos %llu (the path's %d steps, nothing of the search)\n", (unsigned long long)st_arena_pos(a), n);
    char grid[H][W + 1];
    memcpy(grid, MAP, sizeof grid);
    for (int i = 1; i < n; i++) grid[path[i].y][path[i].x] = '*';
    for (int y = 0; y < H; y++) printf("  %s\n", grid[y]);

    /* The same by hand, with the raw position: */
    uint64_t mark = st_arena_pos(a);
    st_arena_push(a, 10000, 8);
    st_arena_pop_to(a, mark);
    printf("pushed 10000 bytes and popped back: pos %llu, peak %llu\n", (unsigned long long)st_arena_pos(a),
           (unsigned long long)st_arena_stats(a).peak);
    return n > 0 ? g : NULL; /* the arena stays: the picture reads the path from it */
}

static int release(void *s, Host *h) {
    (void)h;
    st_arena_release(((Game *)s)->arena);
    return 0;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool wall = MAP[y][x] == '#', seen_here = seen[y * W + x] >= 0;
            Color c = wall        ? (Color){120, 90, 60, 255}
                      : seen_here ? (Color){70, 80, 120, 255}
                                  : (Color){50, 70, 60, 255};
            st_render_rect(h->rd, (RectF){8 + x * 8.f, 8 + y * 8.f, 7, 7}, 0, c);
        }
    for (int i = 0; i < g->n; i++)
        st_render_rect(h->rd, (RectF){9 + g->path[i].x * 8.f, 9 + g->path[i].y * 8.f, 5, 5}, 1,
                       (Color){255, 214, 120, 255});
    st_font_drawf(h->rd, &g->font, 112, 8, (Color){70, 120, 200, 255}, 3, "blue: searched (dropped)");
    st_font_drawf(h->rd, &g->font, 112, 22, (Color){255, 214, 120, 255}, 3, "gold: the path (kept)");
    example_bar(h, &g->font, 64, "at the mark: the path's room", g->after, search_pos, (Color){255, 214, 120, 255});
    example_bar(h, &g->font, 94, "search: open list + from", search_pos, search_pos, (Color){70, 120, 200, 255});
    example_bar(h, &g->font, 124, "after the restore", g->after, search_pos, (Color){90, 200, 120, 255});
    st_font_drawf(h->rd, &g->font, 8, 154, COLOR_WHITE, 3, "%d steps kept; the search's bytes gone", g->n);
}

static const GameApi API = {EXAMPLE_API_DEFAULTS, .name = "05_mark_restore", .create = create, .start = start,
                            .draw = draw,         .release = release};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
