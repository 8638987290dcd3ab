/* allocator.h - "where does this memory come from" as a value: one function, one pointer.

   A data structure or library that must not care about its memory source takes an
   Allocator and calls it for ALLOC / REALLOC / FREE / FREE_ALL (the allocator pattern of
   jai's context and of many C libraries). The caller picks the source:

       List l = st_list_make(sizeof(int), st_allocator_arena(level_arena));  // dies with the level
       List t = st_list_make(sizeof(int), st_allocator_temp());              // dies at st_allocator_temp_reset()
       List h = st_list_make(sizeof(int), st_allocator_system());            // st_list_reset() frees

   Contract of every allocator here:
   - ALLOC returns zeroed memory aligned to `align` (0 means 16), or NULL.
   - REALLOC keeps the first min(old, new) bytes, zeroes the new tail, and returns NULL
     leaving the old block valid and untouched when it cannot grow. ptr NULL acts as ALLOC.
   - FREE and REALLOC need the size the block was allocated with (`original_size`): the
     caller knows it, so no allocator stores a header.
   - FREE_ALL drops everything the allocator ever gave out, where that is possible (arena,
     temp); it is a no-op for the system heap.
   st_allocator_arena: REALLOC of the most recent allocation grows or shrinks it in place
   (only the cursor moves; nothing is copied), FREE of the most recent allocation gives
   its bytes back, FREE of anything else is a harmless no-op, anything else is push + copy.
   st_allocator_temp: the same, on this thread's temporary arena, until st_allocator_temp_reset(). */
#ifndef ALLOCATOR_H
#define ALLOCATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>

typedef enum AllocMode { ALLOC_MODE_ALLOC, ALLOC_MODE_REALLOC, ALLOC_MODE_FREE, ALLOC_MODE_FREE_ALL } AllocMode;
typedef struct AllocParams {
    AllocMode mode;
    void *ptr;
    size_t request, original_size, align;
    void *data; /* Allocator.data */
} AllocParams;
typedef void *(*AllocFn)(AllocParams p);
typedef struct Allocator {
    AllocFn fn;
    void *data;
} Allocator;

void *st_allocator_alloc(Allocator a, size_t size, size_t align); /* zeroed */
void *st_allocator_realloc(Allocator a, void *ptr, size_t old_size, size_t new_size, size_t align);
void st_allocator_free(Allocator a, void *ptr, size_t size);
void st_allocator_free_all(Allocator a); /* no-op where unsupported */

Allocator st_allocator_system(void);    /* the C heap; honours align */
Allocator st_allocator_arena(Arena *a); /* FREE of anything but the last allocation is a no-op */
Allocator st_allocator_temp(void);      /* thread-local temporary storage */
void st_allocator_temp_reset(void);     /* the reference's reset_temporary_storage() */

/* n zeroed T's. When sizeof(T) * n does not fit in a size_t: NULL, and a message naming the
   allocator and the request (st_arena_error, core/diag.h), never a tiny block. */
#define st_allocator_new(a, T, n) ((T *)st_allocator_alloc_array_((a), sizeof(T), (uint64_t)(n), _Alignof(T)))

void *st_allocator_array_overflow_(Allocator a, size_t size, uint64_t count);
static inline void *st_allocator_alloc_array_(Allocator a, size_t size, uint64_t count, size_t align) {
    /* size is a constant sizeof at every call site, so the division folds away. */
    if (size && count > SIZE_MAX / size) return st_allocator_array_overflow_(a, size, count);
    return st_allocator_alloc(a, size * (size_t)count, align);
}

#endif
