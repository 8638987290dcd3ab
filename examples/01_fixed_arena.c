/* 01_fixed_arena.c - a fixed arena: a budget you set once, and what happens when it is spent.

   The idea: an arena with ARENA_FLAG_NO_CHAIN never grows past its reserve. A push that
   does not fit returns NULL (and nothing else changes), so "out of memory" is one `if`,
   at the place that asked, and the program decides what it means: here, stop spawning.
   Look at: the NULL check in spawn(), st_arena_error() turning the refusal into words
   ("arena 'enemies' full: ..."), and the peak, which tells you the budget you really used.

   Run: ./01_fixed_arena   (prints how many enemies fit, the refusal, and the peak) */
#include <stdio.h>

#include <strata/core/arena.h>

typedef struct Enemy {
    float x, y, vx, vy;
    int hp, kind;
    char name[40];
} Enemy; /* 64 bytes */

static Enemy *spawn(Arena *enemies, int i) {
    Enemy *e = st_arena_push_struct(enemies, Enemy); /* zeroed; NULL when the budget is spent */
    if (!e) return NULL;
    e->x = (float)(i % 16) * 20, e->y = (float)(i / 16) * 20, e->hp = 3;
    snprintf(e->name, sizeof e->name, "goblin %d", i);
    return e;
}

int main(void) {
    /* 4 KiB of enemies, never more: a level designer's budget, not the machine's. */
    Arena *enemies =
        st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "enemies"});
    if (!enemies) return 1;
    int count = 0;
    for (int i = 0; i < 100; i++) {
        if (!spawn(enemies, i)) {
            Error err;
            st_error_clear(&err);
            st_arena_error(&err); /* the arena's own words for what it refused */
            printf("spawn %d refused: %s\n", i, err.message);
            break;
        }
        count++;
    }
    ArenaStats s = st_arena_stats(enemies);
    printf("%d enemies fit in %llu bytes\n", count, (unsigned long long)st_arena_capacity(enemies));
    printf("peak %llu of %llu bytes\n", (unsigned long long)s.peak, (unsigned long long)s.reserved);

    /* Clearing gives the whole budget back at once; the peak remembers the worst moment. */
    st_arena_clear(enemies);
    printf("after clear: used %llu, peak still %llu\n", (unsigned long long)st_arena_stats(enemies).used,
           (unsigned long long)st_arena_stats(enemies).peak);
    st_arena_release(enemies);
    return count > 0 ? 0 : 1;
}
