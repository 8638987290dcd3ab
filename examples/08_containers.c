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

   Run: ./08_containers */
#include <stdio.h>

#include <strata/core/allocator.h>
#include <strata/core/arena.h>
#include <strata/core/chunk_list.h>
#include <strata/core/list.h>
#include <strata/core/virtual_array.h>

typedef struct Wall {
    int32_t x, y;
} Wall;
enum { WALLS = 1000 };

static Wall wall_at(int i) { return (Wall){i % 40, i / 40}; }

int main(void) {
    Arena *level = st_arena_create((ArenaParams){.name = "level"});
    if (!level) return 1;

    /* List: an array that doubles, on the arena's allocator. */
    uint64_t before = st_arena_pos(level);
    List walls = LIST_MAKE(Wall, st_allocator_arena(level));
    for (int i = 0; i < WALLS; i++)
        if (!LIST_ADD(&walls, Wall, .x = wall_at(i).x, .y = wall_at(i).y)) return 1;
    printf("List:         %llu walls, capacity %llu, %llu bytes of the arena\n", (unsigned long long)walls.count,
           (unsigned long long)walls.capacity, (unsigned long long)(st_arena_pos(level) - before));

    /* ChunkList: collected in scratch, kept as one flat array in the level arena. */
    Wall *kept;
    uint64_t kept_count;
    {
        SCRATCH_SCOPE(tmp, level);
        ChunkList cl;
        st_chunk_list_init(&cl, tmp.arena, sizeof(Wall), 256);
        for (int i = 0; i < WALLS; i++) {
            Wall *w = st_chunk_list_push_struct(&cl, Wall);
            if (!w) return 1;
            *w = wall_at(i);
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
    if (!st_virtual_array_init(&va, sizeof(Wall), 1 << 20)) return 1;
    Wall *base = va.base;
    for (int i = 0; i < WALLS; i++) {
        Wall *w = st_virtual_array_push(&va);
        if (!w) return 1;
        *w = wall_at(i);
    }
    printf("VirtualArray: %llu walls, %llu bytes committed of %llu reserved, base %s\n", (unsigned long long)va.count,
           (unsigned long long)va.committed, (unsigned long long)va.reserved,
           base == va.base ? "never moved" : "MOVED");
    st_virtual_array_release(&va);

    st_arena_clear(level); /* the List's blocks and the flat walls, all at once */
    st_arena_release(level);
    return 0;
}
