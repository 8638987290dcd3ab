/* arena.c - the arena behind arena.h.

   Layout: an arena is a root (struct Arena) and a chain of blocks, each one OS reservation
   that starts with its Block header. `current` is the newest block, which takes the pushes;
   each block points back at the one before. A block is committed from its start up to
   `committed`, in commit_size steps, as the cursor needs it. st_arena_create puts the root in
   its first block's reservation, before that block's header, so the handle is the start of
   its own region; a scratch arena's root is a thread-local slot (arena.h's ArenaScratch_),
   zero until its first push maps a block.

   The root's first fields are arena.h's ArenaHot_: the current block seen in the arena's
   positions (cursor, limit, base, dirty) and the gate, which the inline fast paths read and
   write in the caller's code. Positions run on across blocks with no gaps: block N's bytes
   start at `base_pos`, where the cursor was when N was chained, so st_arena_pos() is what the
   data cost. A block's first user byte is placed so that `base` (its address less base_pos)
   is a multiple of ARENA_INLINE_ALIGN_, which makes an aligned position an aligned address.

   Marks are kept lazily, because the fast path must stay a handful of instructions:
   `dirty` (how far the current block was ever handed out: past it the OS's zero pages are
   untouched, so st_arena_push need not memset them; a block that is not current keeps its
   own in its header) and `high`. Between two rewinds the cursor only grows, so both are
   brought up to date when the cursor moves back (st_arena_pop_to) or leaves a block
   (chaining), and the readers (st_arena_stats, st_arena_high_take) fold in the current
   position. `high` is the cursor's mark since the last st_arena_high_take; the all-time
   `peak` absorbs it only when it is taken. Only this file moves the marks: arena.h's inline
   rewind runs only from a cursor at or below `gate`, the lower of `high` and `dirty` while
   there is one block (arena_set_gate, after every change to either), where both already
   cover it, and leaves them alone; a cursor past the gate comes to st_arena_pop_to. */
#include <strata/core/arena.h>

#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/core/diag.h>
#include <strata/core/os_memory.h>

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#if ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef struct Block Block;
struct Block {
    Block *prev;        /* the block before this one in the chain */
    uint8_t *map;       /* the reservation: the root (first block of a created arena), then this */
    uint8_t *user;      /* the first user byte, at position base_pos */
    uint64_t base_pos;  /* where the cursor was when this block was chained */
    uint64_t capacity;  /* user bytes this block may hold */
    uint64_t committed; /* bytes committed from map */
    uint64_t mapped;    /* bytes reserved from map */
    uint64_t dirty;     /* while another block is current: how far this one was handed out */
};

/* ArenaHot_ first (arena.h's inline code reads it), then what only this file reads. */
struct Arena {
    ArenaHot_ hot;
    Block *current;                     /* the block pushes go to; NULL: none yet (an unused scratch arena) */
    uint64_t high;                      /* the cursor's high mark as of the last rewind */
    uint64_t peak;                      /* the all-time high mark as of the last st_arena_high_take */
    const char *name;                   /* NULL: "scratch" */
    uint64_t reserve_size, commit_size; /* 0 (a scratch arena): the defaults */
    uint32_t flags;
};

enum {
    ARENA_ROOT_BYTES = 128,     /* room for the root before a created arena's first block */
    ARENA_BLOCK_BYTES = 128,    /* a block's header, with the padding that aligns its bytes */
    ARENA_OWNS_ROOT = 1u << 31, /* the root is in the first block's reservation */
    ARENA_QUIET = 1u << 30,     /* the OS refused a push, reported; none has succeeded since */
};
_Static_assert(sizeof(Arena) <= ARENA_ROOT_BYTES, "Arena outgrew its reserved bytes");
_Static_assert(sizeof(Block) <= ARENA_BLOCK_BYTES, "Block outgrew its reserved bytes");
_Static_assert(ARENA_BLOCK_BYTES % ARENA_INLINE_ALIGN_ == 0 && ARENA_ROOT_BYTES % ARENA_INLINE_ALIGN_ == 0,
               "a block's bytes start on the inline alignment");
_Static_assert(offsetof(Arena, hot) == 0, "st_arena_hot_ casts the Arena * to its first member");
_Static_assert(sizeof(Arena) <= sizeof(ArenaScratch_) && _Alignof(Arena) <= _Alignof(ArenaScratch_),
               "a scratch slot holds an Arena");
_Static_assert(sizeof(ArenaHot_) <= 64, "the hot fields span two lines");

static _Thread_local char arena_error_text[256];
/* st_arena_push_out_'s: an OS refusal keeps its text and is not reported (arena_muted);
   one happened (arena_os_refused). */
static _Thread_local bool arena_muted, arena_os_refused;

bool st_arena_error(Error *e) {
    if (!e) return false;
    st_error_append(e, "%s", arena_error_text);
    e->code = ERROR_OUT_OF_MEMORY;
    return false;
}

/* Kept for the callers that quote the reason in their own report (a level that does not fit
   says why), and reported, not being about a file, as written. */
static void arena_vfail(bool os, const char *fmt, va_list ap) {
    st_diag_vformat(arena_error_text, sizeof arena_error_text, DIAG_ERROR, NULL, 0, 0, fmt, ap);
    arena_os_refused |= os;
    if (!(os && arena_muted)) st_diag_report(DIAG_ERROR, "%s", arena_error_text);
}
__attribute__((format(printf, 1, 2))) static void arena_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    arena_vfail(false, fmt, ap);
    va_end(ap);
}
/* The OS refused a reserve or a commit. */
__attribute__((format(printf, 1, 2))) static void arena_fail_os(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    arena_vfail(true, fmt, ap);
    va_end(ap);
}

void *st_arena_array_overflow_(const char *kind, const char *name, uint64_t size, uint64_t count) {
    arena_fail("%s '%s': cannot push an array of %llu elements of %llu bytes (the size does "
               "not fit in 64 bits)",
               kind, name, (unsigned long long)count, (unsigned long long)size);
    return NULL;
}

/* `a` must be a power of two, and x + a - 1 must not wrap: callers keep both below
   ARENA_SIZE_LIMIT, or check the result (the push fast path). */
static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) & ~(a - 1); }

/* Past this no OS maps anything, and below it the sum of any two sizes, or of a size and
   an alignment, cannot wrap: every size and alignment is checked against it before it
   enters arithmetic. */
#define ARENA_SIZE_LIMIT (UINT64_MAX / 4)

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static const char *arena_name(const Arena *a) { return a->name ? a->name : "scratch"; }

/* Where reserving costs memory (the web) a chaining arena takes small blocks and chains;
   a NO_CHAIN arena gets exactly its capacity, as everywhere. */
static uint64_t reserve_for(uint64_t reserve, uint32_t flags) {
    uint64_t limit = st_os_reserve_limit();
    return !(flags & ARENA_FLAG_NO_CHAIN) && reserve > limit ? limit : reserve;
}

/* A scratch arena takes the defaults (its root is zero until its first push). */
static uint64_t arena_reserve(const Arena *a) {
    return a->reserve_size ? a->reserve_size : reserve_for(ARENA_DEFAULT_RESERVE, 0);
}

/* Test hook (arena.h): STRATA_ARENA_COMMIT=bytes replaces ARENA_DEFAULT_COMMIT, read once
   before main, so a fault sweep can make arenas grow, and ask the OS, at many more points. */
static uint64_t arena_default_commit = ARENA_DEFAULT_COMMIT;

__attribute__((constructor)) static void arena_read_env(void) {
    const char *s = getenv("STRATA_ARENA_COMMIT");
    if (!s || !*s) return;
    char *end;
    unsigned long long n = strtoull(s, &end, 10);
    if (*end == 0 && n > 0 && n <= ARENA_SIZE_LIMIT) arena_default_commit = n;
}

static uint64_t commit_step(uint64_t commit) {
    uint64_t page = st_os_page_size();
    return align_up(commit < page ? page : commit, page);
}

static uint64_t arena_commit(const Arena *a) {
    return a->commit_size ? a->commit_size : commit_step(arena_default_commit);
}

/* Where block b's committed user bytes end, as a position. */
static uint64_t block_end(const Block *b) {
    uint64_t usable = b->committed - (uint64_t)(b->user - b->map);
    return b->base_pos + (usable < b->capacity ? usable : b->capacity);
}

/* The inline push's bound (arena.h), which a push must end below. 0 with no block and under
   ASan, so that every push then takes the out-of-line path, which maps the first block or
   unpoisons what it hands out, even for a caller compiled without ASan. */
static void arena_set_limit(Arena *a) {
#if ARENA_ASAN
    a->hot.limit = 0;
#else
    a->hot.limit = a->current ? block_end(a->current) : 0;
#endif
}

/* The inline rewind's bound (arena.h): with one block, the cursor up to which both marks
   already cover what a rewind gives back. 0 under ASan, so that every rewind that moves the
   cursor poisons, even from a caller compiled without ASan; 0 while chained, where a rewind
   may leave a block, which is unmapped; 0 with no block, where the cursor is 0. */
static void arena_set_gate(Arena *a) {
#if ARENA_ASAN
    a->hot.gate = 0;
#else
    bool one = a->current && !a->current->prev;
    a->hot.gate = !one ? 0 : a->high < a->hot.dirty ? a->high : a->hot.dirty;
#endif
}

/* Block b takes the pushes from now on, the cursor at `pos` in it. */
static void arena_enter(Arena *a, Block *b, uint64_t pos) {
    a->current = b;
    a->hot.pos = pos;
    a->hot.base = (uintptr_t)b->user - b->base_pos;
    a->hot.dirty = b->dirty;
    arena_set_limit(a);
    arena_set_gate(a);
}

/* Maps and initialises one block able to hold `capacity` user bytes (<= ARENA_SIZE_LIMIT)
   from position `base_pos`, with `lead` bytes before its header (a created arena's root),
   committing its first `commit_size` bytes (a page multiple, <= ARENA_SIZE_LIMIT). On
   failure says which arena, what was asked and which OS call refused, and returns NULL. */
static Block *block_create(const char *name, uint64_t lead, uint64_t capacity, uint64_t commit_size, uint64_t base_pos,
                           const char *what, uint64_t asked) {
    uint64_t page = st_os_page_size();
    /* The first user byte's address less base_pos is then a multiple of the inline
       alignment, the reservation starting on a page. */
    uint64_t offset = lead + ARENA_BLOCK_BYTES + base_pos % ARENA_INLINE_ALIGN_;
    uint64_t mapped = align_up(offset + capacity, page);
    uint8_t *map = st_os_reserve(mapped);
    if (!map) {
        arena_fail_os("arena '%s': the OS refused to reserve %llu bytes (%s %llu)", name, (unsigned long long)mapped,
                      what, (unsigned long long)asked);
        return NULL;
    }
    /* Where reserving already took the memory (the web, os_memory.h), the whole block is
       committed, and the reports say so. commit_size is a page at least: the headers fit. */
    uint64_t committed = commit_size < mapped && !st_os_reserve_commits() ? commit_size : mapped;
    if (!st_os_commit(map, committed)) {
        st_os_release(map, mapped);
        arena_fail_os("arena '%s': the OS refused to commit the first %llu bytes (%s %llu)", name,
                      (unsigned long long)committed, what, (unsigned long long)asked);
        return NULL;
    }
    assert((uintptr_t)map % ARENA_INLINE_ALIGN_ == 0);
    Block *b = (Block *)(void *)(map + lead);
    *b = (Block){.map = map,
                 .user = map + offset,
                 .base_pos = base_pos,
                 .capacity = capacity,
                 .committed = committed,
                 .mapped = mapped,
                 .dirty = base_pos};
    POISON(b->user, committed - offset);
    return b;
}

static void block_release(Block *b) {
    /* A later mapping may reuse these addresses: it must not inherit our poison. */
    uint8_t *map = b->map;
    uint64_t committed = b->committed, mapped = b->mapped;
    UNPOISON(map, committed);
    st_os_release(map, mapped);
}

Arena *st_arena_create(ArenaParams params) {
    uint64_t reserve = params.reserve_size ? params.reserve_size : ARENA_DEFAULT_RESERVE;
    uint64_t commit = params.commit_size ? params.commit_size : arena_default_commit;
    const char *name = params.name ? params.name : "unnamed";
    if (reserve > ARENA_SIZE_LIMIT || commit > ARENA_SIZE_LIMIT) {
        arena_fail("arena '%s': cannot create with reserve_size %llu and commit_size %llu "
                   "(the limit is %llu bytes)",
                   name, (unsigned long long)reserve, (unsigned long long)commit, (unsigned long long)ARENA_SIZE_LIMIT);
        return NULL;
    }
    commit = commit_step(commit);
    reserve = reserve_for(reserve, params.flags);
    Block *b = block_create(name, ARENA_ROOT_BYTES, reserve, commit, 0, "reserve_size", reserve);
    if (!b) return NULL;
    Arena *a = (Arena *)(void *)b->map;
    *a = (Arena){.name = name,
                 .reserve_size = reserve,
                 .commit_size = commit,
                 .flags = (params.flags & ~(uint32_t)(ARENA_OWNS_ROOT | ARENA_QUIET)) | ARENA_OWNS_ROOT};
    arena_enter(a, b, 0);
    return a;
}

void st_arena_release(Arena *a) {
    if (!a) return;
    bool owns_root = a->flags & ARENA_OWNS_ROOT;
    /* The first block goes last: a created arena's root is in its reservation. */
    for (Block *b = a->current, *prev; b; b = prev) {
        prev = b->prev;
        block_release(b);
    }
    if (!owns_root) *a = (Arena){0}; /* a scratch slot: empty again, mapped anew by its next push */
}

uint64_t st_arena_pos(const Arena *a) { return a->hot.pos; }

/* Grows the committed range of the current block b to cover the position `end`. */
static bool block_commit_to(Arena *a, Block *b, uint64_t end) {
    uint64_t need = (uint64_t)(b->user - b->map) + (end - b->base_pos);
    if (need <= b->committed) return true;
    /* The commit step is a page multiple but not always a power of two: round by division. */
    uint64_t step = arena_commit(a), target = (need + step - 1) / step * step;
    if (target > b->mapped) target = b->mapped;
    if (!st_os_commit(b->map + b->committed, target - b->committed)) {
        arena_fail_os("arena '%s': the OS refused to commit %llu more bytes (asked for %llu)", arena_name(a),
                      (unsigned long long)(target - b->committed), (unsigned long long)(end - a->hot.pos));
        return false;
    }
    POISON(b->map + b->committed, target - b->committed);
    b->committed = target;
    arena_set_limit(a);
    return true;
}

/* Where an allocation of `size` at `align` would start in the current block b, or
   UINT64_MAX when it does not fit. Written so that no sum can wrap. */
static uint64_t block_fit(const Arena *a, const Block *b, uint64_t size, uint64_t align) {
    uintptr_t at = a->hot.base + a->hot.pos;
    uint64_t pad = (uint64_t)(align_up(at, align) - at), used = a->hot.pos - b->base_pos;
    if (size > b->capacity || used > b->capacity - size || pad > b->capacity - size - used) return UINT64_MAX;
    return a->hot.pos + pad;
}

/* Hands out [start, start + size) of the current block, which fits and is committed. */
static void *arena_take(Arena *a, uint64_t start, uint64_t size, bool zero) {
    uint64_t end = start + size, dirty = a->hot.dirty;
    uint8_t *p = (uint8_t *)(a->hot.base + start);
    UNPOISON(p, size);
    /* Bytes past `dirty` were never handed out since the OS zeroed them. Bytes handed out
       since the last rewind all lie below `start`, so `dirty` (and `high`) need updating
       only when the cursor moves back or leaves the block: see st_arena_pop_to. */
    if (zero && start < dirty) memset(p, 0, (end < dirty ? end : dirty) - start);
    a->hot.pos = end;
    return p;
}

static void arena_thread_watch(void);

/* The block for a push the current one cannot hold (or a scratch arena's first), chained
   after it and made current; NULL, with the message, when the arena may not chain or the OS
   refuses. One allocation is never split: a block too small for it is enlarged. */
static Block *arena_chain(Arena *a, uint64_t size, uint64_t align) {
    Block *b = a->current;
    if ((b && (a->flags & ARENA_FLAG_NO_CHAIN)) || size > ARENA_SIZE_LIMIT - align) {
        arena_fail("arena '%s' full: %llu of %llu bytes used, asked for %llu more", arena_name(a),
                   (unsigned long long)a->hot.pos, (unsigned long long)st_arena_stats(a).reserved,
                   (unsigned long long)size);
        return NULL;
    }
    uint64_t reserve = arena_reserve(a), capacity = size + align > reserve ? size + align : reserve;
    Block *nb =
        block_create(arena_name(a), 0, capacity, arena_commit(a), a->hot.pos, "for a new block, asked for", size);
    if (!nb) return NULL;
    if (b) b->dirty = a->hot.dirty > a->hot.pos ? a->hot.dirty : a->hot.pos;
    else arena_thread_watch(); /* a scratch arena's memory goes back with its thread */
    nb->prev = b;
    arena_enter(a, nb, a->hot.pos);
    return nb;
}

static void *arena_push(Arena *a, uint64_t size, uint64_t align, bool zero) {
    if (align == 0) align = 8;
    if (!is_pow2(align) || align > ARENA_SIZE_LIMIT) {
        arena_fail("arena '%s': cannot push %llu bytes at alignment %llu (not a power of two%s)", arena_name(a),
                   (unsigned long long)size, (unsigned long long)align, is_pow2(align) ? " up to 2^61" : "");
        return NULL;
    }
    Block *b = a->current;
    uint64_t start = b ? block_fit(a, b, size, align) : UINT64_MAX;
    if (start == UINT64_MAX) {
        if (!(b = arena_chain(a, size, align))) return NULL;
        start = block_fit(a, b, size, align);
    }
    if (!block_commit_to(a, b, start + size)) return NULL;
    return arena_take(a, start, size, zero);
}

/* The whole push: arena.h's inline path comes here for everything it does not do itself.
   The OS's refusal is reported once: until one of the arena's pushes succeeds here again,
   the next ones keep their message for st_arena_error and print nothing (a frame arena the
   OS has no more memory for would print one a push, every frame). Other failures (full,
   an alignment refused) are reported each time. */
void *st_arena_push_out_(Arena *a, uint64_t size, uint64_t align, bool zero) {
    arena_muted = a->flags & ARENA_QUIET, arena_os_refused = false;
    void *p = arena_push(a, size, align, zero);
    arena_muted = false;
    if (p) a->flags &= ~(uint32_t)ARENA_QUIET;
    else if (arena_os_refused) a->flags |= ARENA_QUIET;
    return p;
}

bool st_arena_fits(const Arena *a, uint64_t size, uint64_t align) {
    if (align == 0) align = 8;
    if (!is_pow2(align) || align > ARENA_SIZE_LIMIT || !a->current) return false;
    return block_fit(a, a->current, size, align) != UINT64_MAX;
}

void st_arena_pop_to(Arena *a, uint64_t pos) {
    if (pos > a->hot.pos) {
        /* An outer scope ended before an inner one: a bug in the caller. */
        assert(!"st_arena_pop_to: position is beyond the cursor");
        return;
    }
    if (a->hot.pos > a->high) a->high = a->hot.pos;
    if (a->hot.pos > a->hot.dirty) a->hot.dirty = a->hot.pos;
    Block *b = a->current;
    if (!b) return; /* no block yet: the cursor is 0, and so is pos */
    if (b->prev && b->base_pos >= pos) {
        while (b->prev && b->base_pos >= pos) {
            Block *prev = b->prev;
            block_release(b);
            b = prev;
        }
        arena_enter(a, b, pos); /* its `dirty` as it was left */
    } else {
        a->hot.pos = pos;
        arena_set_gate(a);
    }
    uint8_t *at = (uint8_t *)(a->hot.base + pos);
    POISON(at, (uint64_t)(b->map + b->committed - at));
}

/* Under ASan the gaps between allocations (alignment, a scope's rewound tail) stay
   poisoned; the span is handed out whole, to be read and written as bytes, so it is made
   addressable whole. Past the cursor stays poisoned. */
void *st_arena_base(const Arena *a) {
    Block *b = a->current;
    if (!b || b->prev) return NULL;
    UNPOISON(b->user, a->hot.pos);
    return b->user;
}

bool st_arena_set_pos(Arena *a, uint64_t pos) {
    Block *b = a->current;
    if (!b || b->prev || pos > b->capacity) {
        arena_fail("arena '%s': cannot set the cursor to %llu (%s)", arena_name(a), (unsigned long long)pos,
                   !b        ? "it has no block yet"
                   : b->prev ? "a second block is chained"
                             : "past the first block");
        return false;
    }
    uint64_t now = a->hot.pos;
    if (pos <= now) {
        st_arena_pop_to(a, pos);
    } else {
        if (!block_commit_to(a, b, pos)) return false;
        arena_take(a, now, pos - now, false);
    }
    UNPOISON(b->user, pos); /* the span is the caller's to write whole (st_arena_base) */
    return true;
}

void st_arena_pop(Arena *a, uint64_t amount) {
    uint64_t pos = st_arena_pos(a);
    st_arena_pop_to(a, amount < pos ? pos - amount : 0);
}

void st_arena_clear(Arena *a) { st_arena_pop_to(a, 0); }

bool st_arena_is_empty(const Arena *a) { return st_arena_pos(a) == 0; }

uint64_t st_arena_high_take(Arena *a) {
    uint64_t used = a->hot.pos, high = used > a->high ? used : a->high;
    if (high > a->peak) a->peak = high;
    a->high = used;
    arena_set_gate(a);
    return high;
}

ArenaStats st_arena_stats(const Arena *a) {
    uint64_t used = a->hot.pos, peak = a->peak > a->high ? a->peak : a->high;
    ArenaStats s = {.name = arena_name(a), .used = used, .peak = used > peak ? used : peak};
    for (const Block *b = a->current; b; b = b->prev) {
        /* In user bytes, like `used` and `reserved`: the headers and the page rounding past
           the capacity are the arena's overhead, not room for data. */
        s.committed += block_end(b) - b->base_pos;
        s.reserved += b->capacity;
        s.blocks++;
    }
    return s;
}

uint64_t st_arena_capacity(const Arena *a) {
    const Block *b = a->current;
    if (!b) return arena_reserve(a);
    while (b->prev) b = b->prev;
    return b->capacity;
}

const char *st_arena_name(const Arena *a) { return arena_name(a); }

char *st_arena_strdup(Arena *a, const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *copy = st_arena_push_raw(a, n, 1);
    if (copy) memcpy(copy, s, n);
    return copy;
}

ArenaTemp st_arena_temp_begin(Arena *a) { return (ArenaTemp){a, st_arena_pos(a)}; }

/* ---- Arenas per thread, released when the thread ends: the scratch arenas, and those made
   on first use by st_arena_thread_get. */

_Thread_local ArenaScratch_ st_arena_scratch_[ARENA_SCRATCH_COUNT];

/* Every slot st_arena_thread_get filled on this thread, for the release at its exit. */
enum { ARENA_THREAD_SLOTS = 8 };
static _Thread_local Arena **arena_thread_slots[ARENA_THREAD_SLOTS];
static _Thread_local uint32_t arena_thread_slot_count;

static void arena_thread_exit(void *unused) {
    (void)unused;
    for (uint32_t i = 0; i < arena_thread_slot_count; i++) {
        st_arena_release(*arena_thread_slots[i]);
        *arena_thread_slots[i] = NULL;
    }
    arena_thread_slot_count = 0;
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) st_arena_release(st_scratch_at_(i));
}

#include <pthread.h>
static pthread_key_t arena_thread_key;
#if defined(__MINGW32__)
/* mingw's thread-local variables are emulated on a pthread key of their own, whose
   destructor frees them; keys' destructors run in the order the keys were made, so ours
   is made before any thread-local variable is touched, and runs while they are there. */
static bool arena_thread_key_made;
__attribute__((constructor)) static void arena_thread_key_create(void) {
    arena_thread_key_made = pthread_key_create(&arena_thread_key, arena_thread_exit) == 0;
}
static void arena_thread_watch(void) {
    if (arena_thread_key_made) pthread_setspecific(arena_thread_key, arena_thread_slots);
}
#else
static pthread_once_t arena_thread_once = PTHREAD_ONCE_INIT;
static void arena_thread_key_create(void) { pthread_key_create(&arena_thread_key, arena_thread_exit); }
/* A non-NULL value makes pthreads call the destructor at thread exit. */
static void arena_thread_watch(void) {
    pthread_once(&arena_thread_once, arena_thread_key_create);
    pthread_setspecific(arena_thread_key, arena_thread_slots);
}
#endif

Arena *st_arena_thread_get(Arena **slot, ArenaParams params) {
    if (*slot) return *slot;
    *slot = st_arena_create(params);
    if (!*slot) return NULL;
    bool known = false;
    for (uint32_t i = 0; i < arena_thread_slot_count; i++) known |= arena_thread_slots[i] == slot;
    if (!known) {
        /* Past the table the arena still works; it is only not returned at thread exit. */
        assert(arena_thread_slot_count < ARENA_THREAD_SLOTS);
        if (arena_thread_slot_count < ARENA_THREAD_SLOTS) arena_thread_slots[arena_thread_slot_count++] = slot;
    }
    arena_thread_watch();
    return *slot;
}

Arena *st_scratch_get(uint32_t index) { return index < ARENA_SCRATCH_COUNT ? st_scratch_at_(index) : NULL; }

uint32_t st_scratch_stats(ArenaStats *out, uint32_t max) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++)
        if (st_scratch_at_(i)->current) n = i + 1;
    if (n > max) n = max;
    for (uint32_t i = 0; i < n; i++) out[i] = st_arena_stats(st_scratch_at_(i));
    return n;
}

/* arena.h's st_scratch_begin comes here for three conflicts or more. */
ArenaTemp st_scratch_begin_many_(Arena *const *conflicts, size_t count) {
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) {
        Arena *s = st_scratch_at_(i);
        bool taken = false;
        for (size_t c = 0; c < count; c++) taken |= conflicts[c] == s;
        if (!taken) return st_arena_temp_begin(s);
    }
    /* Every scratch arena is named: a bug in the caller. */
    assert(!"st_scratch_begin: every scratch arena is a conflict");
    return (ArenaTemp){0};
}
