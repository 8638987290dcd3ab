/* list.h - a growable contiguous array whose memory comes from an Allocator.

   Elements are contiguous (st_list_at is an index), so growing may move them: do not keep
   pointers into a List across st_list_add/list_reserve (use a ChunkList for that). Capacity
   doubles through st_allocator_realloc, so on st_allocator_arena, with nothing else pushed into
   the arena in between, every growth is in place and nothing is ever copied.

       List xs = st_list_make(sizeof(int), st_allocator_arena(arena));
       int *x = st_list_add(&xs);                 // zeroed slot; NULL when out of memory
       if (x) *x = 42;
       LIST_ADD(&xs, int, 7);                  // typed: false when out of memory
       for (uint64_t i = 0; i < xs.count; i++) printf("%d\n", *LIST_AT(&xs, int, i));
       st_list_reset(&xs);                        // gives the memory back to the allocator

   A zero List ({0}) is empty; it needs st_list_make (element size and allocator) before use. */
#ifndef LIST_H
#define LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/allocator.h>

typedef struct List {
    void *data;
    uint64_t count;    /* elements in use */
    uint64_t capacity; /* elements allocated */
    uint64_t elem_size;
    /* of the buffer: st_list_make takes the largest power of two dividing
       elem_size (at most 16), which suits any type of that size */
    uint64_t align;
    Allocator allocator;
} List;

List st_list_make(uint64_t elem_size, Allocator allocator);
List st_list_make_aligned(uint64_t elem_size, uint64_t align, Allocator allocator);
void *st_list_add(List *l);                       /* zeroed slot at the end; NULL if out of memory */
void *st_list_add_n(List *l, uint64_t n);         /* n zeroed slots; NULL (count unchanged) if not */
bool st_list_reserve(List *l, uint64_t capacity); /* capacity >= the argument, or false */
void *st_list_at(const List *l, uint64_t i);      /* NULL when i >= count */
void st_list_pop(List *l);                        /* drops the last element (no-op when empty) */
void st_list_clear(List *l);                      /* count = 0, memory kept */
void st_list_reset(List *l);                      /* frees the memory; count = capacity = 0 */

/* Typed helpers: T must be the element type the list was made with. */
#define LIST_MAKE(T, allocator) st_list_make_aligned(sizeof(T), _Alignof(T), (allocator))
#define LIST_ADD(l, T, ...) st_list_add_value_((l), &(T){__VA_ARGS__}, sizeof(T))
#define LIST_AT(l, T, i) ((T *)st_list_at((l), (i)))
#define LIST_DATA(l, T) ((T *)(l)->data)
bool st_list_add_value_(List *l, const void *value, uint64_t size);

#endif
