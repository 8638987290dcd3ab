/* arena.c - the arena behind arena.h.

   Layout: an arena is a chain of blocks, each one OS reservation whose first ARENA_HEADER
   bytes hold a `struct Arena`. The first block's header is the handle the caller keeps;
   `current` points at the newest block, which takes the pushes, and each block points back
   at the one before. A block is committed from its start up to `committed`, in commit_size
   steps, as its cursor needs it.

   The fields a push or a scope touches come first, as the ArenaHot_ of arena.h, whose
   inline fast path reads and writes them in the caller's code; `limit` there is kept here
   (block_set_limit) whenever `committed` changes.

   Marks are kept lazily, because the fast path must stay a handful of instructions:
   `dirty` (how far a block was ever handed out: past it the OS's zero pages are untouched,
   so st_arena_push need not memset them) and `high`. Between two rewinds the cursor only
   grows, so both are brought up to date when the cursor moves back (st_arena_pop_to) or leaves
   a block (chaining), and the readers (st_arena_stats, st_arena_high_take) fold in the current
   position. `high` is the cursor's mark since the last st_arena_high_take; the all-time `peak`
   absorbs it only when it is taken. Only this file moves the marks: arena.h's inline rewind
   runs only from a cursor at or below `gate`, the lower of `high` and the first block's
   `dirty` (arena_set_gate, after every change to either), where both already cover it, and
   leaves them alone; a cursor past the gate comes to st_arena_pop_to. */
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

/* Every block starts with this header; the first block's header is the Arena itself, so
   the handle is the base of its own region. Positions are counted in user bytes (headers
   excluded): block N's bytes start at `base_pos`, the end of what block N-1 held when N
   was chained, so positions have no gaps and st_arena_pos() is what the data cost. */
struct Arena {
    /* First cache line: everything a push or a rewind touches, in the layout arena.h's
       inline push reads (current, pos, limit, dirty, base_pos, high). */
    ArenaHot_ hot;
    uint64_t capacity;  /* user bytes this block may hold */
    uint64_t committed; /* bytes committed from the block's base, header included */
    Arena *prev;        /* the block before this one in the chain */
    /* Second line: creation, chaining and reports. */
    const char *name;
    uint64_t peak;   /* first block only; the all-time high mark as of the last take */
    uint64_t mapped; /* bytes reserved from the block's base */
    uint64_t reserve_size, commit_size;
    uint32_t flags;
};

enum { ARENA_HEADER = ARENA_HEADER_ };
_Static_assert(sizeof(Arena) <= ARENA_HEADER, "Arena header outgrew its reserved bytes");
_Static_assert(offsetof(Arena, hot) == 0, "st_arena_hot_ casts the Arena * to its first member");
_Static_assert(sizeof(ArenaHot_) <= 64, "the hot fields span two lines");

static _Thread_local char arena_error_text[256];

bool st_arena_error(Error *e) {
    if (!e) return false;
    st_error_append(e, "%s", arena_error_text);
    e->code = ERROR_OUT_OF_MEMORY;
    return false;
}

/* Kept for the callers that quote the reason in their own report (a level that does not fit
   says why), and reported, not being about a file, as written. */
__attribute__((format(printf, 1, 2))) static void arena_fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_diag_vformat(arena_error_text, sizeof arena_error_text, DIAG_ERROR, NULL, 0, 0, fmt, ap);
    va_end(ap);
    st_diag_report(DIAG_ERROR, "%s", arena_error_text);
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

static uint8_t *block_user(Arena *b) { return (uint8_t *)b + ARENA_HEADER; }

/* The inline push's bound (arena.h): the user bytes that are both committed and within the
   capacity. Under ASan it is 0, so every push that moves the cursor takes the out-of-line
   path, which unpoisons what it hands out, even for a caller compiled without ASan. */
static void block_set_limit(Arena *b) {
#if ARENA_ASAN
    b->hot.limit = 0;
#else
    uint64_t usable = b->committed - ARENA_HEADER;
    b->hot.limit = usable < b->capacity ? usable : b->capacity;
#endif
}

/* Maps and initialises one block able to hold `capacity` user bytes (<= ARENA_SIZE_LIMIT),
   committing its first `commit_size` bytes (a page multiple, <= ARENA_SIZE_LIMIT). On failure
   says which arena, what was asked and which OS call refused, and returns NULL. */
static Arena *block_create(const char *name, uint64_t capacity, uint64_t commit_size, const char *what,
                           uint64_t asked) {
    uint64_t page = st_os_page_size();
    uint64_t mapped = align_up(ARENA_HEADER + capacity, page);
    void *base = st_os_reserve(mapped);
    if (!base) {
        arena_fail("arena '%s': the OS refused to reserve %llu bytes (%s %llu)", name, (unsigned long long)mapped, what,
                   (unsigned long long)asked);
        return NULL;
    }
    /* Where reserving already took the memory (the web, os_memory.h), the whole block is
       committed, and the reports say so. */
    uint64_t committed = commit_size < mapped && !st_os_reserve_commits() ? commit_size : mapped;
    if (!st_os_commit(base, committed)) {
        st_os_release(base, mapped);
        arena_fail("arena '%s': the OS refused to commit the first %llu bytes (%s %llu)", name,
                   (unsigned long long)committed, what, (unsigned long long)asked);
        return NULL;
    }
    /* arena.h's inline push aligns offsets, not addresses, up to ARENA_HEADER: the same
       thing while a block starts on a multiple of it (every OS maps pages). */
    assert((uintptr_t)base % ARENA_HEADER == 0);
    Arena *b = base;
    *b = (Arena){.name = name, .capacity = capacity, .committed = committed, .mapped = mapped};
    POISON(block_user(b), committed - ARENA_HEADER);
    block_set_limit(b);
    return b;
}

/* The inline rewind's bound (arena.h): with one block, the cursor up to which both marks
   already cover what a rewind gives back. 0 under ASan, so that every rewind that moves the
   cursor poisons, even from a caller compiled without ASan; 0 while chained (arena.h checks
   that anyway). */
static void arena_set_gate(Arena *a) {
#if ARENA_ASAN
    a->hot.gate = 0;
#else
    a->hot.gate = a->hot.current != a ? 0 : a->hot.high < a->hot.dirty ? a->hot.high : a->hot.dirty;
#endif
}

static void block_release(Arena *b) {
    /* A later mapping may reuse these addresses: it must not inherit our poison. */
    UNPOISON(b, b->committed);
    st_os_release(b, b->mapped);
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

Arena *st_arena_create(ArenaParams params) {
    uint64_t page = st_os_page_size();
    uint64_t reserve = params.reserve_size ? params.reserve_size : ARENA_DEFAULT_RESERVE;
    uint64_t commit = params.commit_size ? params.commit_size : arena_default_commit;
    const char *name = params.name ? params.name : "unnamed";
    if (reserve > ARENA_SIZE_LIMIT || commit > ARENA_SIZE_LIMIT) {
        arena_fail("arena '%s': cannot create with reserve_size %llu and commit_size %llu "
                   "(the limit is %llu bytes)",
                   name, (unsigned long long)reserve, (unsigned long long)commit, (unsigned long long)ARENA_SIZE_LIMIT);
        return NULL;
    }
    commit = align_up(commit < page ? page : commit, page);
    /* Where reserving costs memory (the web) a chaining arena takes small blocks and chains;
       a NO_CHAIN arena gets exactly its capacity, as everywhere. */
    if (!(params.flags & ARENA_FLAG_NO_CHAIN) && reserve > st_os_reserve_limit()) reserve = st_os_reserve_limit();
    Arena *a = block_create(name, reserve, commit, "reserve_size", reserve);
    if (!a) return NULL;
    a->hot.current = a;
    a->reserve_size = reserve;
    a->commit_size = commit;
    a->flags = params.flags;
    return a;
}

void st_arena_release(Arena *a) {
    if (!a) return;
    Arena *b = a->hot.current;
    while (b) {
        Arena *prev = b->prev;
        block_release(b);
        b = prev;
    }
}

uint64_t st_arena_pos(const Arena *a) {
    const Arena *b = a->hot.current;
    return b->hot.base_pos + b->hot.pos;
}

/* Grows the block's committed range to cover `end` user bytes. */
static bool block_commit_to(Arena *root, Arena *b, uint64_t end) {
    uint64_t need = ARENA_HEADER + end;
    if (need <= b->committed) return true;
    /* commit_size is a page multiple but not always a power of two: round by division. */
    uint64_t step = root->commit_size, target = (need + step - 1) / step * step;
    if (target > b->mapped) target = b->mapped;
    if (!st_os_commit((uint8_t *)b + b->committed, target - b->committed)) {
        arena_fail("arena '%s': the OS refused to commit %llu more bytes (asked for %llu)", root->name,
                   (unsigned long long)(target - b->committed), (unsigned long long)(end - b->hot.pos));
        return false;
    }
    POISON((uint8_t *)b + b->committed, target - b->committed);
    b->committed = target;
    block_set_limit(b);
    return true;
}

/* Where an allocation of `size` at `align` would start in block b, or UINT64_MAX when it
   does not fit. Written so that no sum can wrap. */
static inline uint64_t block_fit(const Arena *b, uint64_t size, uint64_t align) {
    uintptr_t at = (uintptr_t)b + ARENA_HEADER + b->hot.pos;
    uint64_t pad = (uint64_t)(align_up(at, align) - at);
    uint64_t pos = b->hot.pos;
    if (size > b->capacity || pos > b->capacity - size || pad > b->capacity - size - pos) return UINT64_MAX;
    return b->hot.pos + pad;
}

/* Hands out [start, start + size) of block b, which fits and is committed. */
static inline void *block_take(Arena *b, uint64_t start, uint64_t size, bool zero) {
    uint64_t end = start + size;
    uint8_t *p = block_user(b) + start;
    UNPOISON(p, size);
    /* Bytes past `dirty` were never handed out since the OS zeroed them. Bytes handed out
       since the last rewind all lie below `start`, so `dirty` (and `high`) need updating
       only when the cursor moves back or leaves the block: see st_arena_pop_to. */
    uint64_t dirty = b->hot.dirty;
    if (zero && start < dirty) memset(p, 0, (end < dirty ? end : dirty) - start);
    b->hot.pos = end;
    return p;
}

/* Everything but the common case: chaining a block, committing, failing. Kept out of line
   so the fast path stays a handful of instructions with no register spills. */
__attribute__((noinline)) static void *arena_push_slow(Arena *a, uint64_t size, uint64_t align, bool zero) {
    if (!is_pow2(align) || align > ARENA_SIZE_LIMIT) {
        arena_fail("arena '%s': cannot push %llu bytes at alignment %llu (not a power of two%s)", a->name,
                   (unsigned long long)size, (unsigned long long)align, is_pow2(align) ? " up to 2^61" : "");
        return NULL;
    }
    Arena *b = a->hot.current;
    uint64_t start = block_fit(b, size, align);
    if (start == UINT64_MAX) {
        if ((a->flags & ARENA_FLAG_NO_CHAIN) || size > ARENA_SIZE_LIMIT - align) {
            arena_fail("arena '%s' full: %llu of %llu bytes used, asked for %llu more", a->name,
                       (unsigned long long)st_arena_pos(a), (unsigned long long)st_arena_stats(a).reserved,
                       (unsigned long long)size);
            return NULL;
        }
        /* One allocation is never split: a block too small for it is enlarged. */
        uint64_t capacity = size + align > a->reserve_size ? size + align : a->reserve_size;
        Arena *nb = block_create(a->name, capacity, a->commit_size, "for a new block, asked for", size);
        if (!nb) return NULL;
        if (b->hot.pos > b->hot.dirty) b->hot.dirty = b->hot.pos;
        nb->prev = b;
        nb->hot.base_pos = st_arena_pos(a);
        /* While chained, the first block's cursor is a value that arena.h's inline rewind
           refuses (pop_to sets it again when the chain is left). */
        if (b == a) a->hot.pos = UINT64_MAX;
        a->hot.current = b = nb;
        arena_set_gate(a);
        start = block_fit(b, size, align);
    }
    if (!block_commit_to(a, b, start + size)) return NULL;
    return block_take(b, start, size, zero);
}

/* The whole push: arena.h's inline path comes here for everything it does not do itself. */
void *st_arena_push_out_(Arena *a, uint64_t size, uint64_t align, bool zero) {
    if (!a) {
        /* A scratch arena the OS refused to create reaches here as NULL: fail, don't crash. */
        arena_fail("arena (none): no arena to push %llu bytes into", (unsigned long long)size);
        return NULL;
    }
    if (align == 0) align = 8;
    Arena *b = a->hot.current;
    uintptr_t user = (uintptr_t)block_user(b);
    uint64_t start = (uint64_t)(align_up(user + b->hot.pos, align) - user);
    uint64_t end = start + size;
    /* A wrapped sum shows as end < start. An alignment that is not a power of two makes
       align_up meaningless (with a huge one it lands before the cursor): the slow path
       refuses it. */
    if (end >= start && end <= b->capacity && ARENA_HEADER + end <= b->committed && !(align & (align - 1)))
        return block_take(b, start, size, zero);
    return arena_push_slow(a, size, align, zero);
}

bool st_arena_fits(const Arena *a, uint64_t size, uint64_t align) {
    if (align == 0) align = 8;
    if (!is_pow2(align) || align > ARENA_SIZE_LIMIT) return false;
    return block_fit(a->hot.current, size, align) != UINT64_MAX;
}

void st_arena_pop_to(Arena *a, uint64_t pos) {
    if (pos > st_arena_pos(a)) {
        /* An outer scope ended before an inner one: a bug in the caller. */
        assert(!"st_arena_pop_to: position is beyond the cursor");
        return;
    }
    if (st_arena_pos(a) > a->hot.high) a->hot.high = st_arena_pos(a);
    Arena *b = a->hot.current;
    if (b->hot.pos > b->hot.dirty) b->hot.dirty = b->hot.pos;
    while (b->prev && b->hot.base_pos >= pos) {
        Arena *prev = b->prev;
        block_release(b);
        b = prev;
    }
    a->hot.current = b;
    b->hot.pos = pos - b->hot.base_pos;
    arena_set_gate(a);
    POISON(block_user(b) + b->hot.pos, b->committed - ARENA_HEADER - b->hot.pos);
}

/* Under ASan the gaps between allocations (alignment, a scope's rewound tail) stay
   poisoned; the span is handed out whole, to be read and written as bytes, so it is made
   addressable whole. Past the cursor stays poisoned. */
void *st_arena_base(const Arena *a) {
    if (a->hot.current != a) return NULL;
    UNPOISON(block_user((Arena *)a), a->hot.pos);
    return block_user((Arena *)a);
}

bool st_arena_set_pos(Arena *a, uint64_t pos) {
    if (a->hot.current != a || pos > a->capacity) {
        arena_fail("arena '%s': cannot set the cursor to %llu (%s)", a->name, (unsigned long long)pos,
                   a->hot.current != a ? "a second block is chained" : "past the first block");
        return false;
    }
    uint64_t now = a->hot.pos;
    if (pos <= now) {
        st_arena_pop_to(a, pos);
    } else {
        if (!block_commit_to(a, a, pos)) return false;
        block_take(a, now, pos - now, false);
    }
    UNPOISON(block_user(a), pos); /* the span is the caller's to write whole (st_arena_base) */
    return true;
}

void st_arena_pop(Arena *a, uint64_t amount) {
    uint64_t pos = st_arena_pos(a);
    st_arena_pop_to(a, amount < pos ? pos - amount : 0);
}

void st_arena_clear(Arena *a) { st_arena_pop_to(a, 0); }

bool st_arena_is_empty(const Arena *a) { return st_arena_pos(a) == 0; }

uint64_t st_arena_high_take(Arena *a) {
    uint64_t used = st_arena_pos(a), high = used > a->hot.high ? used : a->hot.high;
    if (high > a->peak) a->peak = high;
    a->hot.high = used;
    arena_set_gate(a);
    return high;
}

ArenaStats st_arena_stats(const Arena *a) {
    uint64_t used = st_arena_pos(a), peak = a->peak > a->hot.high ? a->peak : a->hot.high;
    ArenaStats s = {.name = a->name, .used = used, .peak = used > peak ? used : peak};
    for (const Arena *b = a->hot.current; b; b = b->prev) {
        /* In user bytes, like `used` and `reserved`: the header and the page rounding past
           the capacity are the arena's overhead, not room for data. */
        uint64_t usable = b->committed - ARENA_HEADER;
        s.committed += usable < b->capacity ? usable : b->capacity;
        s.reserved += b->capacity;
        s.blocks++;
    }
    return s;
}

uint64_t st_arena_capacity(const Arena *a) { return a->capacity; }

const char *st_arena_name(const Arena *a) { return a->name; }

char *st_arena_strdup(Arena *a, const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *copy = st_arena_push_raw(a, n, 1);
    if (copy) memcpy(copy, s, n);
    return copy;
}

ArenaTemp st_arena_temp_begin(Arena *a) { return (ArenaTemp){a, st_arena_pos(a)}; }

/* ---- Arenas per thread: created on first use, released when the thread ends. */

/* Every slot st_arena_thread_get filled on this thread, for the release at its exit. */
enum { ARENA_THREAD_SLOTS = 8 };
static _Thread_local Arena **arena_thread_slots[ARENA_THREAD_SLOTS];
static _Thread_local uint32_t arena_thread_slot_count;

static void arena_scratch_reset(void);

static void arena_thread_exit(void *unused) {
    (void)unused;
    for (uint32_t i = 0; i < arena_thread_slot_count; i++) {
        st_arena_release(*arena_thread_slots[i]);
        *arena_thread_slots[i] = NULL;
    }
    arena_thread_slot_count = 0;
    arena_scratch_reset();
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

/* ---- Scratch: ARENA_SCRATCH_COUNT arenas per thread. */

/* What a slot holds before its arena is made, or after the OS refused it or the thread
   released it: arena.h's inline begin reads its `current` (NULL, never the stand-in itself)
   instead of testing the slot for NULL. Never written. */
static Arena scratch_absent;
#define SCRATCH_ABSENT (&scratch_absent)
_Thread_local Arena *st_arena_scratch_[ARENA_SCRATCH_COUNT] = {SCRATCH_ABSENT, SCRATCH_ABSENT, SCRATCH_ABSENT};
_Static_assert(ARENA_SCRATCH_COUNT == 3, "st_arena_scratch_'s initialiser names every slot");

static Arena *scratch_slot(uint32_t i) { return st_arena_scratch_[i] == SCRATCH_ABSENT ? NULL : st_arena_scratch_[i]; }

Arena *st_scratch_get(uint32_t index) {
    if (index >= ARENA_SCRATCH_COUNT) return NULL;
    Arena **slot = &st_arena_scratch_[index];
    if (*slot == SCRATCH_ABSENT) *slot = NULL;
    Arena *s = st_arena_thread_get(slot, (ArenaParams){.name = "scratch"});
    if (!s) *slot = SCRATCH_ABSENT;
    return s;
}

/* The released scratch slots hold the stand-in again, for a scope begun later on the thread. */
static void arena_scratch_reset(void) {
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++)
        if (!st_arena_scratch_[i]) st_arena_scratch_[i] = SCRATCH_ABSENT;
}

uint32_t st_scratch_stats(ArenaStats *out, uint32_t max) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT && n < max; i++)
        if (scratch_slot(i)) out[n++] = st_arena_stats(scratch_slot(i));
    return n;
}

/* arena.h's st_scratch_begin comes here for what its inline part does not do: a scratch
   arena not created yet, the third one, a chained one. */
ArenaTemp st_scratch_begin_many_(Arena *const *conflicts, size_t count) {
    assert(count < ARENA_SCRATCH_COUNT);
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) {
        Arena *s = st_scratch_get(i);
        if (!s) break;
        bool taken = false;
        for (size_t c = 0; c < count; c++) taken |= conflicts[c] == s;
        if (!taken) return st_arena_temp_begin(s);
    }
    /* Only reachable when the OS refused to create a scratch arena. */
    return (ArenaTemp){0};
}

ArenaTemp st_scratch_begin_out_(Arena *c0, Arena *c1) {
    Arena *conflicts[2] = {c0, c1};
    return st_scratch_begin_many_(conflicts, 2);
}
