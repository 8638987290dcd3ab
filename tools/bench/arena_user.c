/* arena_user.c - see arena_user.h. Compiled at -O2 (tools/bench/CMakeLists.txt), whatever
   the preset, because a user's program is more often built so than at the release -O3. */
#include "arena_user.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <sys/mman.h>

#include "bench.h"
#include <strata/core/arena.h>
#ifdef HAVE_MIMALLOC
#include <mimalloc.h>
#endif

/* glibc's allocator, looked up in the C library itself: with mimalloc linked, `malloc`
   (and __libc_malloc) are mimalloc's, which replaces them process-wide. */
static void *(*glibc_malloc)(size_t);
static void *(*glibc_calloc)(size_t, size_t);
static void (*glibc_free)(void *);
static void glibc_find(void) {
    if (glibc_malloc) return;
    void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (libc) {
        *(void **)&glibc_malloc = dlsym(libc, "malloc");
        *(void **)&glibc_calloc = dlsym(libc, "calloc");
        *(void **)&glibc_free = dlsym(libc, "free");
    }
    if (!glibc_malloc || !glibc_calloc || !glibc_free) {
        fprintf(stderr, "bench_arena: glibc's malloc not found; using this process's\n");
        glibc_malloc = malloc, glibc_calloc = calloc, glibc_free = free;
    }
}

/* ---- The naive arena: one fixed buffer, a cursor and its capacity check. What an arena
   costs when it keeps no guarantee (no chaining, no marks, no poisoning, no message). */
typedef struct NaiveArena {
    char *base;
    size_t pos, cap;
} NaiveArena;

__attribute__((noinline, cold)) static void *naive_full(void) {
    fprintf(stderr, "naive arena full\n");
    return NULL;
}
static inline void *naive_push(NaiveArena *a, size_t size) {
    size_t start = (a->pos + 7) & ~(size_t)7;
    if (start + size > a->cap) return naive_full();
    a->pos = start + size;
    return a->base + start;
}

/* ---- An arena after the RAD Debugger's published design (base_arena.h there), written
   here from that description: every block starts with a header holding its cursor `pos`,
   how far it is committed (`cmt`) and reserved (`res`), all counted from the block's base,
   header included; the first block's `current` is the newest block, which takes pushes; a
   push aligns, checks the reserve (chaining a new block past it), commits if needed, and
   bumps; a temp saves arena_pos and pops back to it, releasing blocks it leaves. Scratch:
   two per thread, the first that is not a conflict. Its functions are `static`, as in a
   unity build, and left to the compiler to inline or not. */
enum { RAD_HEADER = 128 };
typedef struct RadArena RadArena;
struct RadArena {
    RadArena *prev, *current;
    uint64_t cmt_size, res_size, base_pos, pos, cmt, res;
    int no_chain;
};
typedef struct RadTemp {
    RadArena *arena;
    uint64_t pos;
} RadTemp;

static uint64_t rad_align(uint64_t x, uint64_t a) { return (x + a - 1) & ~(a - 1); }

static RadArena *rad_alloc(uint64_t res, uint64_t cmt) {
    res = rad_align(res, 4096), cmt = rad_align(cmt, 4096);
    void *base = mmap(NULL, res, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) return NULL;
    if (mprotect(base, cmt, PROT_READ | PROT_WRITE) != 0) return NULL;
    RadArena *a = base;
    *a = (RadArena){.current = a, .cmt_size = cmt, .res_size = res, .pos = RAD_HEADER, .cmt = cmt, .res = res};
    return a;
}
static void rad_release(RadArena *a) {
    for (RadArena *b = a->current, *prev; b; b = prev) prev = b->prev, munmap(b, b->res);
}
static void *rad_push(RadArena *arena, uint64_t size, uint64_t align) {
    RadArena *current = arena->current;
    uint64_t pre = rad_align(current->pos, align), post = pre + size;
    if (current->res < post && !arena->no_chain) {
        uint64_t res = arena->res_size, cmt = arena->cmt_size;
        if (size + RAD_HEADER > res) res = cmt = rad_align(size + RAD_HEADER, align);
        RadArena *block = rad_alloc(res, cmt);
        if (!block) return NULL;
        block->base_pos = current->base_pos + current->res;
        block->prev = current;
        arena->current = current = block;
        pre = rad_align(current->pos, align), post = pre + size;
    }
    if (current->cmt < post) {
        uint64_t to = rad_align(post, current->cmt_size);
        if (to > current->res) to = current->res;
        if (mprotect((char *)current + current->cmt, to - current->cmt, PROT_READ | PROT_WRITE) == 0)
            current->cmt = to;
    }
    void *result = NULL;
    if (current->cmt >= post) {
        result = (char *)current + pre;
        current->pos = post;
    }
    if (!result) fprintf(stderr, "rad arena: allocation failed\n");
    return result;
}
static uint64_t rad_pos(RadArena *arena) { return arena->current->base_pos + arena->current->pos; }
static void rad_pop_to(RadArena *arena, uint64_t pos) {
    uint64_t big = pos < RAD_HEADER ? RAD_HEADER : pos;
    RadArena *current = arena->current;
    for (RadArena *prev; current->base_pos >= big; current = prev) prev = current->prev, munmap(current, current->res);
    arena->current = current;
    current->pos = big - current->base_pos;
}
static RadTemp rad_temp_begin(RadArena *arena) { return (RadTemp){arena, rad_pos(arena)}; }
static void rad_temp_end(RadTemp t) { rad_pop_to(t.arena, t.pos); }

static _Thread_local RadArena *rad_scratch[2];
static RadTemp rad_scratch_begin(RadArena **conflicts, uint64_t count) {
    RadArena *result = NULL;
    for (int i = 0; i < 2; i++) {
        int conflict = 0;
        for (uint64_t c = 0; c < count; c++)
            if (conflicts[c] == rad_scratch[i]) {
                conflict = 1;
                break;
            }
        if (!conflict) {
            result = rad_scratch[i];
            break;
        }
    }
    return rad_temp_begin(result);
}
#define rad_scratch_end(t) rad_temp_end(t)

/* ---- The timed runs. */

static uint64_t run_arena(AuContestant c, const uint32_t *sizes, void **ptrs, uint64_t n, bool touch) {
    static Arena *warm;
    bool fresh = c == AU_FRESH_RAW || c == AU_FRESH_ZERO, zero = c == AU_PUSH_ZERO || c == AU_FRESH_ZERO;
    if (!warm) {
        warm = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "warm"});
        for (uint64_t i = 0; i < n; i++) st_arena_push(warm, sizes[i], 8); /* commit and dirty once */
        st_arena_clear(warm);
    }
    Arena *a = fresh ? st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "fresh"}) : warm;
    uint64_t t0 = bench_thread_cpu_ns();
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *p = zero ? st_arena_push(a, sizes[i], 8) : st_arena_push_raw(a, sizes[i], 8);
        if (touch) *p = i;
        ptrs[i] = p;
    }
    st_arena_clear(a);
    uint64_t t = bench_thread_cpu_ns() - t0;
    if (fresh) st_arena_release(a);
    return t;
}

static uint64_t run_naive(const uint32_t *sizes, void **ptrs, uint64_t n, bool touch) {
    static NaiveArena a;
    if (!a.base) a = (NaiveArena){.base = malloc(n * 264), .cap = n * 264};
    uint64_t t0 = bench_thread_cpu_ns();
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *p = naive_push(&a, sizes[i]);
        if (touch) *p = i;
        ptrs[i] = p;
    }
    a.pos = 0;
    return bench_thread_cpu_ns() - t0;
}

static uint64_t run_rad(const uint32_t *sizes, void **ptrs, uint64_t n, bool touch) {
    static RadArena *a;
    if (!a) {
        a = rad_alloc(1ull << 30, 64 << 10);
        for (uint64_t i = 0; i < n; i++) memset(rad_push(a, sizes[i], 8), 0, sizes[i]);
        rad_pop_to(a, 0);
    }
    uint64_t t0 = bench_thread_cpu_ns();
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *p = rad_push(a, sizes[i], 8);
        if (touch) *p = i;
        ptrs[i] = p;
    }
    rad_pop_to(a, 0);
    return bench_thread_cpu_ns() - t0;
}

static uint64_t run_heap(AuContestant c, const uint32_t *sizes, void **ptrs, uint64_t n, bool touch) {
    uint64_t t0 = bench_thread_cpu_ns();
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *p;
#ifdef HAVE_MIMALLOC
        if (c == AU_MIMALLOC) p = mi_malloc(sizes[i]);
        else
#endif
            p = c == AU_CALLOC ? glibc_calloc(1, sizes[i]) : glibc_malloc(sizes[i]);
        if (touch) *p = i;
        ptrs[i] = p;
    }
    for (uint64_t i = 0; i < n; i++) {
#ifdef HAVE_MIMALLOC
        if (c == AU_MIMALLOC) {
            mi_free(ptrs[i]);
            continue;
        }
#endif
        glibc_free(ptrs[i]);
    }
    return bench_thread_cpu_ns() - t0;
}

uint64_t arena_user_run(AuContestant c, const uint32_t *sizes, void **ptrs, uint64_t n, bool touch) {
    glibc_find();
    switch (c) {
    case AU_NAIVE: return run_naive(sizes, ptrs, n, touch);
    case AU_RAD: return run_rad(sizes, ptrs, n, touch);
    case AU_MALLOC:
    case AU_CALLOC:
    case AU_MIMALLOC: return run_heap(c, sizes, ptrs, n, touch);
    default: return run_arena(c, sizes, ptrs, n, touch);
    }
}

const char *arena_user_name(AuContestant c) {
    static const char *names[AU_COUNT] = {
        "st_arena_push_raw + st_arena_clear",
        "st_arena_push + st_arena_clear (reused memory)",
        "st_arena_push_raw, fresh arena",
        "st_arena_push, fresh arena",
        "naive inline bump (no guarantees)",
        "RAD-style arena push + pop",
        "glibc malloc + free",
        "glibc calloc + free",
        "mimalloc mi_malloc + mi_free",
    };
    return names[c];
}

bool arena_user_available(AuContestant c) {
#ifdef HAVE_MIMALLOC
    (void)c;
    return true;
#else
    return c != AU_MIMALLOC;
#endif
}

/* ---- Instruction counts. Each loop is its own function so that callgrind's
   --toggle-collect counts it alone; tools/arena_ir.sh subtracts cg_empty and divides by
   CG_LOOPS. The size is read from a volatile so that it does not fold into a constant.
   A push loop keeps each pointer (cg_sink); a scope loop writes one word into its block. */
enum { CG_LOOPS = 100000 };
static void *volatile cg_sink;
static volatile uint64_t cg_size = 32;
static void *cg_ptrs[CG_LOOPS];

#define CG_LOOP(name, arg_t, body)                                         \
    __attribute__((noipa)) static void name(arg_t a) {                  \
        uint64_t size = cg_size;                                           \
        for (int i = 0; i < CG_LOOPS; i++) body;                           \
    }

CG_LOOP(cg_empty, Arena *, cg_sink = (char *)a + size)
CG_LOOP(cg_push_raw, Arena *, cg_sink = st_arena_push_raw(a, size, 8))
CG_LOOP(cg_push_zero, Arena *, cg_sink = st_arena_push(a, size, 8))
CG_LOOP(cg_naive_push, NaiveArena *, cg_sink = naive_push(a, size))
CG_LOOP(cg_rad_push, RadArena *, cg_sink = rad_push(a, size, 8))
CG_LOOP(cg_malloc, void *, cg_ptrs[i] = glibc_malloc(size + 0 * (uintptr_t)a))
CG_LOOP(cg_scratch, Arena *, {
    ArenaTemp tmp = st_scratch_begin(&a, 1);
    *(uint64_t *)st_arena_push_raw(tmp.arena, size, 8) = size;
    st_scratch_end(tmp);
})
CG_LOOP(cg_scratch_scope, Arena *, {
    SCRATCH_SCOPE(tmp, a);
    *(uint64_t *)st_arena_push_raw(tmp.arena, size, 8) = size;
})
CG_LOOP(cg_naive_scope, NaiveArena *, {
    size_t save = a->pos;
    *(uint64_t *)naive_push(a, size) = size;
    a->pos = save;
})
CG_LOOP(cg_rad_scope, RadArena *, {
    RadTemp tmp = rad_scratch_begin(&a, 1);
    *(uint64_t *)rad_push(tmp.arena, size, 8) = size;
    rad_scratch_end(tmp);
})
CG_LOOP(cg_malloc_scope, void *, {
    uint64_t *p = glibc_malloc(size + 0 * (uintptr_t)a);
    *p = size;
    cg_sink = p;
    glibc_free(p);
})
/* The same operations each in a function of its own, as a user's function does one: no
   loop around them lets the compiler keep what they load in registers from one to the
   next (the scratch arena, its block, the naive arena's cursor). op_empty is the call. */
#define CG_OP(name, arg_t, body)                                                     \
    __attribute__((noipa)) static void op_##name(arg_t a, uint64_t size) { body; } \
    __attribute__((noipa)) static void cg_op_##name(arg_t a) {                    \
        uint64_t size = cg_size;                                                     \
        for (int i = 0; i < CG_LOOPS; i++) op_##name(a, size);                       \
    }
CG_OP(empty, Arena *, cg_sink = (char *)a + size)
CG_OP(push_raw, Arena *, cg_sink = st_arena_push_raw(a, size, 8))
CG_OP(naive_push, NaiveArena *, cg_sink = naive_push(a, size))
CG_OP(rad_push, RadArena *, cg_sink = rad_push(a, size, 8))
CG_OP(scratch_scope, Arena *, {
    SCRATCH_SCOPE(tmp, a);
    *(uint64_t *)st_arena_push_raw(tmp.arena, size, 8) = size;
})
CG_OP(naive_scope, NaiveArena *, {
    size_t save = a->pos;
    *(uint64_t *)naive_push(a, size) = size;
    a->pos = save;
})
CG_OP(rad_scope, RadArena *, {
    RadTemp tmp = rad_scratch_begin(&a, 1);
    *(uint64_t *)rad_push(tmp.arena, size, 8) = size;
    rad_scratch_end(tmp);
})

/* A frame's arena: 100 pushes, then the clear at the top of the next frame. */
__attribute__((noipa)) static void cg_frame(Arena *a) {
    uint64_t size = cg_size;
    for (int f = 0; f < CG_LOOPS / 100; f++) {
        for (int i = 0; i < 100; i++) cg_sink = st_arena_push_raw(a, size, 8);
        st_arena_clear(a);
    }
}
/* st_arena_clear alone, CG_CLEARS times, of an arena holding `count` allocations. */
enum { CG_CLEARS = 10 };
__attribute__((noipa)) static void cg_clear_one(Arena *a) { st_arena_clear(a); }
static void cg_clears(Arena *a, uint64_t count, void (*clear)(Arena *)) {
    for (int r = 0; r < CG_CLEARS; r++) {
        for (uint64_t i = 0; i < count; i++) st_arena_push_raw(a, cg_size, 8);
        clear(a);
    }
}
__attribute__((noipa)) static void cg_clear_1k(Arena *a) { cg_clear_one(a); }
__attribute__((noipa)) static void cg_clear_1m(Arena *a) { cg_clear_one(a); }
#ifdef HAVE_MIMALLOC
CG_LOOP(cg_mimalloc, void *, cg_ptrs[i] = mi_malloc(size + 0 * (uintptr_t)a))
CG_LOOP(cg_mimalloc_scope, void *, {
    uint64_t *p = mi_malloc(size + 0 * (uintptr_t)a);
    *p = size;
    cg_sink = p;
    mi_free(p);
})
#endif

/* Each loop runs once, on memory already committed and dirtied by the warm-up before it,
   so that its count is the steady state. */
int arena_user_callgrind(void) {
    glibc_find();
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "cg"});
    Arena *out = st_arena_create((ArenaParams){.name = "out"});
    for (int i = 0; i < CG_LOOPS; i++) st_arena_push(a, cg_size, 8);
    st_arena_clear(a);
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) st_arena_push(st_scratch_get(i), cg_size, 8);
    NaiveArena naive = {.base = malloc(CG_LOOPS * 48), .cap = CG_LOOPS * 48};
    RadArena *rad = rad_alloc(1ull << 30, 64 << 10), *rad_out = rad_alloc(1 << 20, 64 << 10);
    for (int i = 0; i < 2; i++) rad_scratch[i] = rad_alloc(64ull << 20, 64 << 10);
    for (int i = 0; i < CG_LOOPS; i++) memset(rad_push(rad, cg_size, 8), 0, cg_size);
    rad_pop_to(rad, 0);
    for (int i = 0; i < 2; i++) rad_push(rad_scratch[i], cg_size, 8);

    cg_empty(a);
    cg_push_raw(a);
    st_arena_clear(a);
    cg_push_zero(a); /* on reused memory: every byte is zeroed */
    st_arena_clear(a);
    cg_frame(a);
    st_arena_clear(a);
    cg_scratch(out);
    cg_scratch_scope(out);
    cg_op_empty(a);
    cg_op_push_raw(a);
    st_arena_clear(a);
    cg_op_scratch_scope(out);
    cg_naive_push(&naive);
    naive.pos = 0;
    cg_naive_scope(&naive);
    cg_op_naive_push(&naive);
    naive.pos = 0;
    cg_op_naive_scope(&naive);
    cg_rad_push(rad);
    cg_rad_scope(rad_out);
    rad_pop_to(rad, 0);
    cg_op_rad_push(rad);
    cg_op_rad_scope(rad_out);
    /* The heaps warmed as the arenas are: grown once, their memory back in their lists. */
    for (int i = 0; i < CG_LOOPS; i++) cg_ptrs[i] = glibc_malloc(cg_size);
    for (int i = 0; i < CG_LOOPS; i++) glibc_free(cg_ptrs[i]);
    cg_malloc(NULL);
    for (int i = 0; i < CG_LOOPS; i++) glibc_free(cg_ptrs[i]);
    cg_malloc_scope(NULL);
#ifdef HAVE_MIMALLOC
    for (int i = 0; i < CG_LOOPS; i++) cg_ptrs[i] = mi_malloc(cg_size);
    for (int i = 0; i < CG_LOOPS; i++) mi_free(cg_ptrs[i]);
    cg_mimalloc(NULL);
    for (int i = 0; i < CG_LOOPS; i++) mi_free(cg_ptrs[i]);
    cg_mimalloc_scope(NULL);
#endif
    cg_clears(a, 1000, cg_clear_1k);
    cg_clears(a, 1000000, cg_clear_1m);
    printf("loops %d\nclears %d\n", CG_LOOPS, CG_CLEARS);

    for (int i = 0; i < 2; i++) rad_release(rad_scratch[i]);
    rad_release(rad_out);
    rad_release(rad);
    free(naive.base);
    st_arena_release(out);
    st_arena_release(a);
    return 0;
}
