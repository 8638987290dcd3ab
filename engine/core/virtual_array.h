/* virtual_array.h - one buffer that grows to an unknown size and never moves.

   It reserves address space once (VIRTUAL_ARRAY_DEFAULT_RESERVE: costs nothing physical)
   and commits pages as the element count grows, so the base pointer and every element
   pointer stay valid until st_virtual_array_release. Shrinking (st_virtual_array_set_count to a
   smaller count, or st_virtual_array_clear) decommits the pages no longer used, so resident
   memory follows the count. Use it for a buffer that is one contiguous array, must grow
   without copying, and has no sensible upper bound known up front.

       VirtualArray va;
       if (!st_virtual_array_init(&va, sizeof(Particle), 0)) return false;   // 0: default reserve
       Particle *p = st_virtual_array_push(&va);         // zeroed; NULL past the reservation
       Particle *all = va.base;                       // never changes
       st_virtual_array_release(&va);

   Not an arena: it holds one element type, and owns its address space (release it). */
#ifndef VIRTUAL_ARRAY_H
#define VIRTUAL_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#define VIRTUAL_ARRAY_DEFAULT_RESERVE (1ull << 30) /* 1 GiB of address space */

typedef struct VirtualArray {
    void *base;     /* NULL until init succeeds, and after release */
    uint64_t count; /* elements in use */
    uint64_t elem_size;
    uint64_t reserved;  /* bytes of address space */
    uint64_t committed; /* bytes backed by memory, a multiple of the page size */
} VirtualArray;

/* False (and a report, core/diag.h) when elem_size is 0 or the OS refuses the reservation. */
bool st_virtual_array_init(VirtualArray *va, uint64_t elem_size, uint64_t reserve_bytes);
void st_virtual_array_release(VirtualArray *va);
void *st_virtual_array_push(VirtualArray *va);                     /* zeroed; NULL when full */
void *st_virtual_array_push_n(VirtualArray *va, uint64_t n);       /* n zeroed; NULL, count unchanged */
bool st_virtual_array_set_count(VirtualArray *va, uint64_t count); /* growth is zeroed */
void st_virtual_array_clear(VirtualArray *va);                     /* count 0, all pages decommitted */
void *st_virtual_array_at(const VirtualArray *va, uint64_t i);     /* NULL when i >= count */
uint64_t st_virtual_array_capacity(const VirtualArray *va);        /* max elements ever */

#endif
