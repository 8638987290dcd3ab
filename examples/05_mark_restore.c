/* 05_mark_restore.c - mark and restore: temporary work in the arena you already have.

   The idea: an arena's position is a number. Read it (st_arena_pos), do temporary work,
   and go back to it (st_arena_pop_to): everything pushed since is gone, everything before
   is untouched. ArenaTemp (st_arena_temp_begin / _end) is the same pair as a value, and
   ARENA_SCOPE does the restore for you at the end of a block.
   Look at: find_path() keeping only its answer (the path is pushed *before* the mark, the
   search's open list after it), and the three positions printed by main().

   Run: ./05_mark_restore */
#include <stdio.h>
#include <string.h>

#include <strata/core/arena.h>

enum { W = 12, H = 6 };
static const char MAP[H][W + 1] = {
    "S...#.......", "..#.#.####..", "..#...#.....", "..####.#.##.", "......#....#", "####.....#.G",
};

typedef struct Cell {
    int8_t x, y;
} Cell;

/* Breadth-first search from S to G. The answer (the path) stays in `a`; the search's
   bookkeeping is pushed after a mark and dropped before returning. */
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
    printf("find_path: searched %d cells, used %llu bytes before the restore\n", tail,
           (unsigned long long)st_arena_pos(a));
    st_arena_temp_end(t); /* open and from are gone; path is kept */
    *out = path;
    return n;
}

int main(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "level"});
    if (!a) return 1;
    printf("before: pos %llu\n", (unsigned long long)st_arena_pos(a));
    Cell *path;
    int n = find_path(a, &path);
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
    st_arena_release(a);
    return n > 0 ? 0 : 1;
}
