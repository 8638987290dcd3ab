/* allocator.c - the system, arena and temporary allocators behind allocator.h.
   The C heap is used here on purpose: st_allocator_system is the boundary to it. */
#include <strata/core/allocator.h>

#include <strata/core/os_memory.h>

#include <stdint.h>
#if defined(_WIN32)
#include <malloc.h> /* _aligned_malloc */
#endif
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_ALIGN = 16 };

static bool align_ok(size_t align) { return align != 0 && (align & (align - 1)) == 0; }

static size_t align_or_default(size_t align) { return align ? align : DEFAULT_ALIGN; }

static void *call(Allocator a, AllocParams p) {
    if (!a.fn) return NULL; /* a zero Allocator: refuse instead of jumping to NULL */
    p.data = a.data;
    p.align = align_or_default(p.align);
    if (!align_ok(p.align)) return NULL;
    return a.fn(p);
}

void *st_allocator_alloc(Allocator a, size_t size, size_t align) {
    return call(a, (AllocParams){.mode = ALLOC_MODE_ALLOC, .request = size, .align = align});
}

void *st_allocator_realloc(Allocator a, void *ptr, size_t old_size, size_t new_size, size_t align) {
    return call(
        a, (AllocParams){
               .mode = ALLOC_MODE_REALLOC, .ptr = ptr, .request = new_size, .original_size = old_size, .align = align});
}

void st_allocator_free(Allocator a, void *ptr, size_t size) {
    if (ptr) call(a, (AllocParams){.mode = ALLOC_MODE_FREE, .ptr = ptr, .original_size = size});
}

void st_allocator_free_all(Allocator a) { call(a, (AllocParams){.mode = ALLOC_MODE_FREE_ALL}); }

/* ---- System heap. malloc's own alignment covers max_align_t; beyond that, aligned_alloc,
   whose size must be a multiple of the alignment, and realloc must copy by hand. */

/* Past this no heap delivers, and AddressSanitizer aborts instead of returning NULL:
   refuse up front so that "too big" is a NULL under every build. 2^40 with a 64-bit size_t;
   where size_t is 32 bits (wasm32) shifting by 40 is undefined behaviour, and no heap in a
   4 GiB address space delivers half of it, so the limit there is SIZE_MAX / 2. */
#if SIZE_MAX > 0xffffffffu
#define HEAP_MAX_REQUEST ((size_t)1 << 40)
#else
#define HEAP_MAX_REQUEST (SIZE_MAX / 2)
#endif

/* On Windows every block is _aligned_malloc's, however small its alignment: msvcrt has no
   aligned_alloc, and what _aligned_malloc gives only _aligned_free takes back, so a free,
   which is not told the alignment, must know which heap a block came from. */
#if defined(_WIN32)
#define HEAP_ALIGN(align) ((align) < _Alignof(max_align_t) ? _Alignof(max_align_t) : (align))
#endif

static void *heap_alloc(size_t size, size_t align) {
    if (size > HEAP_MAX_REQUEST) return NULL;
    if (size == 0) size = 1; /* malloc(0) may return NULL, which would read as failure */
    if (size > SIZE_MAX - align) return NULL;
#if defined(_WIN32)
    void *p = _aligned_malloc(size, HEAP_ALIGN(align));
#else
    if (align <= _Alignof(max_align_t)) return calloc(1, size);
    void *p = aligned_alloc(align, (size + align - 1) & ~(align - 1));
#endif
    if (p) memset(p, 0, size);
    return p;
}

static void heap_free(void *p) {
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}

static void *heap_realloc(void *p, size_t size, size_t align) {
#if defined(_WIN32)
    return _aligned_realloc(p, size, HEAP_ALIGN(align));
#else
    (void)align;
    return realloc(p, size);
#endif
}

static void *system_fn(AllocParams p) {
    switch (p.mode) {
    case ALLOC_MODE_ALLOC: return heap_alloc(p.request, p.align);
    case ALLOC_MODE_REALLOC: {
        if (!p.ptr) return heap_alloc(p.request, p.align);
        size_t new_size = p.request ? p.request : 1;
        if (new_size > HEAP_MAX_REQUEST) return NULL;
        void *q;
        if (p.align <= _Alignof(max_align_t)) {
            q = heap_realloc(p.ptr, new_size, p.align);
        } else {
            q = heap_alloc(new_size, p.align);
            if (q) {
                memcpy(q, p.ptr, p.original_size < new_size ? p.original_size : new_size);
                heap_free(p.ptr);
            }
        }
        if (q && new_size > p.original_size) memset((char *)q + p.original_size, 0, new_size - p.original_size);
        return q;
    }
    case ALLOC_MODE_FREE: heap_free(p.ptr); return NULL;
    case ALLOC_MODE_FREE_ALL: return NULL; /* the heap cannot enumerate what it gave out */
    }
    return NULL;
}

Allocator st_allocator_system(void) { return (Allocator){system_fn, NULL}; }

/* ---- Arena. "The most recent allocation" is detected by address: a block ends at the
   arena's cursor exactly when nothing was pushed after it. A zero-byte push returns the
   cursor without moving it. */

static char *arena_cursor(Arena *a) { return st_arena_push_raw(a, 0, 1); }

static bool is_last(Arena *a, void *ptr, size_t size) { return ptr && (char *)ptr + size == arena_cursor(a); }

static void *arena_fn(AllocParams p) {
    Arena *a = p.data;
    if (!a || p.align > st_os_page_size()) return NULL; /* the arena aligns up to a page */
    switch (p.mode) {
    case ALLOC_MODE_ALLOC: return st_arena_push(a, p.request, p.align);
    case ALLOC_MODE_REALLOC: {
        if (!p.ptr) return st_arena_push(a, p.request, p.align);
        size_t old = p.original_size, req = p.request;
        bool last = is_last(a, p.ptr, old);
        if (req <= old) {
            if (last) st_arena_pop(a, old - req); /* shrink in place, bytes go back */
            return p.ptr;
        }
        if (last && ((uintptr_t)p.ptr & (p.align - 1)) == 0 && st_arena_fits(a, req - old, 1)) {
            /* Grow in place: the tail lands right after the block (align 1, no padding)
               and only the cursor moves. Asked first rather than pushed and taken back:
               a push that does not fit would chain (map) a block, only to drop it again
               before the copy below maps one of its own. */
            if (!st_arena_push(a, req - old, 1)) return NULL; /* commit refused; old block intact */
            return p.ptr;
        }
        char *q = st_arena_push_raw(a, req, p.align);
        if (!q) return NULL; /* the old block stays valid */
        memcpy(q, p.ptr, old);
        memset(q + old, 0, req - old);
        return q;
    }
    case ALLOC_MODE_FREE:
        if (is_last(a, p.ptr, p.original_size)) st_arena_pop(a, p.original_size);
        return NULL;
    case ALLOC_MODE_FREE_ALL: st_arena_clear(a); return NULL;
    }
    return NULL;
}

Allocator st_allocator_arena(Arena *a) { return (Allocator){arena_fn, a}; }

/* ---- Temporary storage: one arena per thread, created on first use, cleared by
   st_allocator_temp_reset(), returned to the OS when the thread exits. */

static _Thread_local Arena *temp_arena;

static Arena *temp_get(void) { return st_arena_thread_get(&temp_arena, (ArenaParams){.name = "temp"}); }

static void *temp_fn(AllocParams p) {
    p.data = temp_get();
    return arena_fn(p);
}

Allocator st_allocator_temp(void) { return (Allocator){temp_fn, NULL}; }

void st_allocator_temp_reset(void) {
    if (temp_arena) st_arena_clear(temp_arena);
}

/* Which allocator failed, named the way the arena names itself in its failures. */
void *st_allocator_array_overflow_(Allocator a, size_t size, uint64_t count) {
    if (a.fn == arena_fn && a.data) return st_arena_array_overflow_("arena", st_arena_name(a.data), size, count);
    if (a.fn == temp_fn) return st_arena_array_overflow_("arena", "temp", size, count);
    return st_arena_array_overflow_("allocator", a.fn == system_fn ? "system" : "custom", size, count);
}
