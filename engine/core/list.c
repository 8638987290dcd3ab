/* list.c - List: a contiguous array growing geometrically through an Allocator. */
#include <strata/core/list.h>

#include <string.h>

enum { LIST_FIRST_CAPACITY = 8 };

List st_list_make_aligned(uint64_t elem_size, uint64_t align, Allocator allocator) {
    return (List){.elem_size = elem_size, .align = align, .allocator = allocator};
}

List st_list_make(uint64_t elem_size, Allocator allocator) {
    /* _Alignof(T) divides sizeof(T) and is a power of two, so the lowest set bit of the
       size is always enough. */
    uint64_t align = elem_size & (~elem_size + 1);
    if (align == 0 || align > 16) align = 16;
    return st_list_make_aligned(elem_size, align, allocator);
}

bool st_list_reserve(List *l, uint64_t capacity) {
    if (capacity <= l->capacity) return true;
    if (l->elem_size == 0 || capacity > SIZE_MAX / l->elem_size) return false;
    void *p =
        st_allocator_realloc(l->allocator, l->data, l->capacity * l->elem_size, capacity * l->elem_size, l->align);
    if (!p) return false;
    l->data = p;
    l->capacity = capacity;
    return true;
}

void *st_list_add_n(List *l, uint64_t n) {
    if (n > UINT64_MAX - l->count) return NULL;
    uint64_t need = l->count + n;
    if (need > l->capacity) {
        uint64_t cap = l->capacity ? l->capacity : LIST_FIRST_CAPACITY;
        while (cap < need) cap = cap > UINT64_MAX / 2 ? need : cap * 2;
        if (!st_list_reserve(l, cap) && !st_list_reserve(l, need)) return NULL;
    }
    char *slot = (char *)l->data + l->count * l->elem_size;
    /* Slots freed by st_list_pop/list_clear still hold old values. */
    if (n) memset(slot, 0, n * l->elem_size);
    l->count = need;
    return slot;
}

void *st_list_add(List *l) {
    /* The common case, kept short: room left, one slot. */
    if (l->count < l->capacity) {
        char *slot = (char *)l->data + l->count++ * l->elem_size;
        memset(slot, 0, l->elem_size);
        return slot;
    }
    return st_list_add_n(l, 1);
}

bool st_list_add_value_(List *l, const void *value, uint64_t size) {
    if (size != l->elem_size) return false;
    void *slot = st_list_add(l);
    if (!slot) return false;
    memcpy(slot, value, size);
    return true;
}

void *st_list_at(const List *l, uint64_t i) { return i < l->count ? (char *)l->data + i * l->elem_size : NULL; }

void st_list_pop(List *l) {
    if (l->count) l->count--;
}

void st_list_clear(List *l) { l->count = 0; }

void st_list_reset(List *l) {
    if (l->data) st_allocator_free(l->allocator, l->data, l->capacity * l->elem_size);
    l->data = NULL;
    l->count = l->capacity = 0;
}
