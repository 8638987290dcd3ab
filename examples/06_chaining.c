/* 06_chaining.c - chaining versus a fixed capacity: two answers to "the arena is full".

   The idea: an arena reserves address space up front (reserve_size). When a push does not
   fit, a chaining arena (the default) maps another block and goes on; pointers already
   handed out never move, because nothing is copied. A NO_CHAIN arena refuses instead (as
   in 01). Chain when the size is unknown and growth is fine (tools, loaders, the permanent
   arena); fix the capacity when exceeding it is a bug you want to hear about (a level's
   budget, a frame's).
   Look at: the same 1000 pushes into both arenas, the blocks count of the chaining one,
   and that its first pointer is still valid after it grew.

   Run: ./06_chaining */
#include <stdio.h>
#include <string.h>

#include <strata/core/arena.h>

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

static void show(const Arena *a, int pushed) {
    ArenaStats s = st_arena_stats(a);
    printf("%-8s %4d pushed, used %6llu, reserved %6llu, blocks %u\n", s.name, pushed, (unsigned long long)s.used,
           (unsigned long long)s.reserved, s.blocks);
}

int main(void) {
    uint64_t reserve = 64 << 10; /* room for 512 particles per block */
    Arena *fixed =
        st_arena_create((ArenaParams){.reserve_size = reserve, .flags = ARENA_FLAG_NO_CHAIN, .name = "fixed"});
    Arena *chained = st_arena_create((ArenaParams){.reserve_size = reserve, .name = "chained"});
    if (!fixed || !chained) return 1;
    Particle *f0 = NULL, *c0 = NULL;
    int nf = fill(fixed, 1000, &f0); /* stops at the capacity: the rest are refused */
    int nc = fill(chained, 1000, &c0);
    show(fixed, nf);
    show(chained, nc);
    c0->life += 1; /* still valid after the arena grew: nothing was copied */
    printf("chained: particle 0 still valid after growing (life %.0f)\n", c0->life);

    /* Rewinding past a block boundary unmaps the later blocks: the memory goes back. */
    st_arena_pop_to(chained, 100 * sizeof(Particle));
    show(chained, 100);
    st_arena_release(fixed);
    st_arena_release(chained);
    return nf < 1000 && nc == 1000 ? 0 : 1;
}
