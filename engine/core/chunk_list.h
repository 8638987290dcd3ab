/* chunk_list.h - a sequence of unknown length, built once in an arena, then read.

   Elements live in fixed-size chunks pushed into the arena as the list grows, so a pointer
   to an element stays valid for as long as the arena keeps it (no element ever moves), and
   growing never copies. Other allocations may be interleaved in the same arena. The usual
   shape is "collect in scratch, keep the result elsewhere": push while parsing into a
   scratch arena, then flatten into one contiguous array in the arena that keeps it.

       ChunkList walls;
       st_chunk_list_init(&walls, scratch, sizeof(Wall), 256);
       Wall *w = st_chunk_list_push(&walls);            // zeroed; NULL when the arena is full
       if (!w) return fail("out of memory");
       ...
       ChunkListIter it = st_chunk_list_iter(&walls);
       for (Wall *p; (p = st_chunk_list_next(&it));) ...
       Span kept = st_chunk_list_flatten(&walls, level_arena);   // kept.data NULL if full
       level->walls = kept.data; level->wall_count = kept.count;

   Elements are aligned to 16 bytes at most (the alignment of the chunk, and of elem_size
   within it: elem_size should be sizeof(T), which is a multiple of _Alignof(T)). */
#ifndef CHUNK_LIST_H
#define CHUNK_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/str8.h>

typedef struct ChunkListChunk {
    struct ChunkListChunk *next;
    uint32_t count;
    uint32_t pad_;
    _Alignas(16) unsigned char data[];
} ChunkListChunk;

typedef struct ChunkList {
    Arena *arena;
    ChunkListChunk *first, *last;
    uint64_t count;     /* elements pushed so far */
    uint32_t elem_size; /* bytes per element */
    uint32_t per_chunk; /* elements per chunk */
} ChunkList;

typedef struct ChunkListIter {
    const ChunkListChunk *chunk;
    uint32_t index;
    uint32_t elem_size;
} ChunkListIter;

/* elem_size 0 is treated as 1 and per_chunk 0 as 64, so a list is never unusable. */
void st_chunk_list_init(ChunkList *l, Arena *arena, uint32_t elem_size, uint32_t per_chunk);
void *st_chunk_list_push(ChunkList *l);                 /* zeroed slot; NULL when the arena is full */
void *st_chunk_list_at(const ChunkList *l, uint64_t i); /* walks the chunks; NULL past the end */
ChunkListIter st_chunk_list_iter(const ChunkList *l);
void *st_chunk_list_next(ChunkListIter *it); /* NULL after the last element */
/* One contiguous copy of every element, in order, in `dst`. data is NULL (count 0) when it
   does not fit, and never NULL on success: an empty list gives a valid zero-length span. */
Span st_chunk_list_flatten(const ChunkList *l, Arena *dst);

#define st_chunk_list_push_struct(l, T) ((T *)st_chunk_list_push(l))

#endif
