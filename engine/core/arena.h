/* arena.h - virtual-memory arenas: memory grouped by lifetime, freed by rewinding.

   An arena reserves address space (ARENA_DEFAULT_RESERVE, no physical cost), commits it in
   ARENA_DEFAULT_COMMIT steps as its cursor advances, and hands out memory by bumping that
   cursor. You never free one object: you decide when a group of objects dies and rewind.

       Arena *level = st_arena_create((ArenaParams){ .reserve_size = 4 << 20,
                                                  .flags = ARENA_FLAG_NO_CHAIN, .name = "level" });
       Enemy *e = st_arena_push_array(level, Enemy, count);   // zeroed, aligned to _Alignof(Enemy)
       if (!e) return false;                                // NO_CHAIN: full -> NULL + message
       ...
       st_arena_clear(level);                                  // the whole level is gone at once

   Temporary work takes a scratch arena through a scope guard that rewinds on every exit
   path, early return included. Name the arenas the result lives in, so the scratch arena
   picked is never one of them:

       Span parse(Arena *out, Str8 text) {
           SCRATCH_SCOPE(tmp, out);                  // tmp.arena != out
           Range *r = st_arena_push_array(tmp.arena, Range, n);
           ...                                       // tmp.arena rewinds at the closing brace
       }

   Names that other arena libraries use (HolyC, C++ and jai-style ones), mapped onto this API:
       ArenaInit / Arena::Create      -> st_arena_create(params)      (zero fields take defaults)
       ArenaFree / Release            -> st_arena_release
       ArenaAlloc(a, n)               -> st_arena_push(a, n, 8)       (zeroed; align 0 means 8)
       Push(size, align)              -> st_arena_push_raw            (not zeroed)
       Push<T>(count)                 -> st_arena_push_array(a, T, count)
       ArenaReset / Clear             -> st_arena_clear               (keeps the first block)
       ArenaMark / GetPosition        -> st_arena_pos
       ArenaRestore / PopTo           -> st_arena_pop_to
       Pop(amount)                    -> st_arena_pop
       IsEmpty                        -> st_arena_is_empty
       ArenaStrNew                    -> st_arena_strdup
       ArenaScope                     -> ARENA_SCOPE(name, arena)
       ScratchScope(a, b)             -> SCRATCH_SCOPE(name, a, b)  (0, 1 or 2 conflicts)
       Arena::GetScratch(i)           -> st_scratch_get(i)            (no conflict avoidance)
       arena->peak                    -> st_arena_stats(a).peak       (survives clear)
       per-frame high-water mark      -> st_arena_high_take(a)        (read and restart)

   Committed memory is a high-water mark: a rewind or clear keeps the first block's pages
   committed (and dirty) for the next use, which is what a frame or level arena wants;
   chained blocks are unmapped when the cursor leaves them, and st_arena_release returns all.

   Guarantees: the Arena * never changes (an st_arena_create'd one is the start of its own
   region; a scratch arena is a slot of this thread's); pointers never
   move; one allocation is never split across blocks; past the reserve a new block is
   chained (or, with ARENA_FLAG_NO_CHAIN, the push fails with "arena '<name>' full: ...").
   Positions are byte counts of what was handed out (padding included), so an empty arena
   is at 0 and `used` is what your data cost. Not thread-safe: one arena, one thread;
   scratch arenas are per thread. Under AddressSanitizer every byte past the cursor is
   poisoned, so a pointer kept across a rewind is reported when it is used. */
#ifndef ARENA_H
#define ARENA_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <strata/core/error.h>

#define ARENA_DEFAULT_RESERVE (64ull << 20) /* address space per block */
/* Physical memory per growth step. A test hook: STRATA_ARENA_COMMIT=bytes in the environment
   replaces it (read once, before main). */
#define ARENA_DEFAULT_COMMIT (64ull << 10)
#define ARENA_SCRATCH_COUNT 3 /* per thread: one is free even when two conflict */

typedef struct Arena Arena; /* opaque: `Arena copy = *arena;` must not compile */
enum { ARENA_FLAG_NONE = 0, ARENA_FLAG_NO_CHAIN = 1u << 0 };
typedef struct ArenaParams {
    uint64_t reserve_size, commit_size;
    uint32_t flags;
    const char *name; /* kept by pointer: pass a string that outlives the arena */
} ArenaParams;
/* All sizes in user bytes (block headers excluded): `used` is the cursor, `peak` its high
   mark (it survives clear), `committed` what is backed by memory now, `reserved` what the
   blocks can ever hold; used <= committed <= reserved. */
typedef struct ArenaStats {
    const char *name;
    uint64_t used, peak, committed, reserved;
    uint32_t blocks;
} ArenaStats;
typedef struct ArenaTemp {
    Arena *arena;
    uint64_t pos;
} ArenaTemp;

/* NULL (and a message) when the OS refuses, or when reserve_size or commit_size is past
   any address space (2^62 bytes or more). */
Arena *st_arena_create(ArenaParams params);
/* Returns every block to the OS. A scratch arena is left empty, usable again (its thread's
   exit does this). */
void st_arena_release(Arena *a);
/* align: a power of two, 0 meaning 8; any other alignment fails like a full arena (NULL and
   a message), as does a size that no block could hold. `a` is never NULL: a scratch arena
   always exists, and st_arena_create's NULL is for its caller to check (a push does not pay
   for that test: it is a crash at the push, and an assertion in a build without NDEBUG).
   A push the OS refused memory for is reported once: the arena's next refusals, until one of
   its pushes succeeds again, keep their words for st_arena_error and print nothing. */
static inline void *st_arena_push(Arena *a, uint64_t size, uint64_t align);     /* zeroed; NULL if full */
static inline void *st_arena_push_raw(Arena *a, uint64_t size, uint64_t align); /* not zeroed */
/* True when a push of `size` at `align` would land in the current block: no chaining, no
   failure for lack of room (committing more may still be needed, and may still fail). */
bool st_arena_fits(const Arena *a, uint64_t size, uint64_t align);
/* A push of size 0 with align 1 returns the cursor's address and moves nothing: the
   arena allocator uses it to recognise the most recent allocation. */
uint64_t st_arena_pos(const Arena *a);
/* The arena's bytes [0, st_arena_pos(a)) as one span: its first block's first user byte, or
   NULL once pushes have chained a second block (never, for ARENA_FLAG_NO_CHAIN) or, for a
   scratch arena, before its first push has mapped its first block. Since the
   arena never moves, pointers into it stay valid when those bytes are put back as they were:
   a snapshot of a whole lifetime is a copy of this span (history.h). Under AddressSanitizer
   the whole span is made addressable, the gaps between allocations included. */
void *st_arena_base(const Arena *a);
/* The cursor moved to `pos`, forward or back, in the first block, the bytes below it kept as
   they are; those between the old cursor and `pos` are NOT zeroed (the caller writes them: a
   snapshot's restore). False with a message, and nothing changed, when a second block is
   chained or `pos` is past what the first block holds or can commit. */
bool st_arena_set_pos(Arena *a, uint64_t pos);
void st_arena_pop_to(Arena *a, uint64_t pos);
void st_arena_pop(Arena *a, uint64_t amount);
void st_arena_clear(Arena *a);
bool st_arena_is_empty(const Arena *a);
ArenaStats st_arena_stats(const Arena *a);
/* The highest `used` since the last call (or since creation), then that mark starts again
   from the current `used`: a per-frame high that catches a push-then-pop spike which `used`
   at the end of the frame misses. It costs the push nothing (the mark is folded in lazily,
   like the peak). One reader per arena: two would split the frames between them.
   st_arena_stats(a).peak is unaffected. */
uint64_t st_arena_high_take(Arena *a);
uint64_t st_arena_capacity(const Arena *a); /* bytes a NO_CHAIN arena can ever hold */
/* The reserve to give an arena whose largest need was measured: that plus 25%, rounded up
   to 64 KiB (what the exit report and levelcheck recommend). */
static inline uint64_t st_arena_recommend_reserve(uint64_t largest_need) {
    uint64_t rec = largest_need + largest_need / 4, step = 64ull << 10;
    return (rec + step - 1) / step * step;
}
const char *st_arena_name(const Arena *a);
char *st_arena_strdup(Arena *a, const char *s);
ArenaTemp st_arena_temp_begin(Arena *a);
static inline void st_arena_temp_end(ArenaTemp t);
static inline ArenaTemp st_scratch_begin(Arena *const *conflicts, size_t count); /* count 0, 1 or 2 */
static inline void st_scratch_end(ArenaTemp t);
/* This thread's scratch arena `index` (NULL past the last). It needs no creating: an unused
   one holds no memory, and maps its first block on its first push (a push the OS refuses
   fails as any other, "arena 'scratch': the OS refused to reserve ..."). */
Arena *st_scratch_get(uint32_t index);
/* A per-thread arena kept in the _Thread_local `*slot`: created with `params` on first use
   (NULL, and the message, when the OS refuses), released when the thread exits, as the
   scratch arenas' memory is. allocator.h's temporary arena is made this way. */
Arena *st_arena_thread_get(Arena **slot, ArenaParams params);
/* Stats of this thread's scratch arenas, from the first up to the last one that holds memory
   (so index i is st_scratch_get(i)); returns how many were written. */
uint32_t st_scratch_stats(ArenaStats *out, uint32_t max);

/* Ends the message in *e with this thread's last refusal ("arena 'level' full: ...") and
   makes it ERROR_OUT_OF_MEMORY; returns false. The caller has written its own words first
   (st_error_set, or its module's fail helper), so a loader says why in its own report:

       if (!p) {
           st_error_set(err, ERROR_PARSE, path, 0, 0, "level does not fit: ");
           return st_arena_error(err);
       }   // a.lvl: error: level does not fit: arena 'level' full: 0 of 4096 bytes used, ...

   A cleared Error (st_error_clear) gets the refusal alone, as the arena reported it. The
   refusal is kept per thread, not in the Arena, because a push can fail with no arena to
   keep it in (a scratch arena the OS refused to create, an st_arena_create refused) and the
   Arena's header is the push's hot cache line; an arena is one thread's, so the thread's
   last refusal is the one of the push that just returned NULL. It is read through this
   call only, where a module turns an arena's NULL into its own Error (check-layering's
   errors rule keeps it so). */
bool st_arena_error(Error *e);

/* An array whose byte size does not fit in 64 bits (a negative or absurd n) fails like a
   full arena, "arena 'level': cannot push an array of 4611686018427387904 elements of 8
   bytes (the size does not fit in 64 bits)", instead of wrapping to a tiny block. */
#define st_arena_push_array(a, T, n) ((T *)st_arena_push_array_((a), sizeof(T), (uint64_t)(n), _Alignof(T), true))
#define st_arena_push_array_raw(a, T, n) ((T *)st_arena_push_array_((a), sizeof(T), (uint64_t)(n), _Alignof(T), false))
#define st_arena_push_struct(a, T) st_arena_push_array(a, T, 1)

/* Reports an array of `count` elements of `size` bytes whose size wraps, for `kind` 'name'
   ("arena", "level"), as every arena failure is reported; returns NULL. */
void *st_arena_array_overflow_(const char *kind, const char *name, uint64_t size, uint64_t count);
static inline void *st_arena_push_array_(Arena *a, uint64_t size, uint64_t count, uint64_t align, bool zero) {
    /* size is a constant sizeof at every call site, so the division folds away. */
    if (size && count > UINT64_MAX / size)
        return st_arena_array_overflow_("arena", a ? st_arena_name(a) : "(none)", size, count);
    return zero ? st_arena_push(a, size * count, align) : st_arena_push_raw(a, size * count, align);
}

/* ---- The inline fast paths.

   A push is a bump of the cursor, a handful of instructions; a call into arena.c and back
   (arguments, the call, the prologue, the return) would cost as much again, and more for a
   scratch scope, which is three such calls. So the common case is compiled into the caller:
   a push that fits the committed part of the current block, a scratch scope's begin (always),
   and a rewind within one block. Everything else (alignment refused or past 128, commit,
   chaining, a scratch arena's first block, failure and its message, a chained arena's
   rewind, a rewind past the marks) goes to arena.c, which does the whole operation, as if
   the inline part had not been tried.

   The inline code reads and writes only ArenaHot_, an arena's first bytes, which describe
   the current block in the arena's own positions: the cursor `pos`; `limit`, how far the
   current block is both committed and within its capacity, which an inline push must end
   below (arena.c keeps it, and keeps it 0 with no block and under ASan, so that every push
   then goes out of line, which maps the block or unpoisons what it hands out); `base`, the
   address of position 0 as the current block lays them out (a multiple of 128, so an
   aligned position is an aligned address); `dirty` (past it the pages are as the OS zeroed
   them, so st_arena_push zeroes only memory used before); and `gate`. The marks (`dirty`,
   and the high mark behind st_arena_high_take and the peak) are arena.c's alone: `gate` is
   the lower of the two while the arena has one block, 0 when it has none, is chained, or
   runs under ASan. A rewind from a cursor at or under the gate leaves both marks as they
   are, since they already cover it; any other is st_arena_pop_to's, which moves the marks
   and the gate. Reading the current block through the arena itself, not through a pointer
   to the block, is what lets a scope save and restore a cursor that is right whichever
   block it is in.

   The scratch arenas are this thread's ArenaScratch_ slots themselves, not pointers to
   arenas made on first use: an empty slot is an arena with no block (`limit` 0), whose first
   push maps one. So a scope's begin is a choice between three fixed addresses and a load,
   with no test that the arena exists and no call, and the compiler keeps one callee-saved
   register for a scope where a call there made it keep three. struct Arena stays incomplete
   here (its first member is an ArenaHot_; a slot is opaque bytes big enough for one), so an
   Arena still cannot be copied, nor its other fields reached. */
typedef struct ArenaHot_ {
    uint64_t pos;   /* the cursor: user bytes handed out, padding included */
    uint64_t limit; /* an inline push ends below this position (0 under ASan, or no block) */
    uintptr_t base; /* the address of position 0 in the current block's layout */
    uint64_t dirty; /* positions below this were handed out since the block was mapped */
    uint64_t gate;  /* an inline rewind from at most this position leaves the marks */
} ArenaHot_;
static inline ArenaHot_ *st_arena_hot_(Arena *a) { return (ArenaHot_ *)(void *)a; }
enum { ARENA_INLINE_ALIGN_ = 128 }; /* `base` is a multiple of this */
typedef struct ArenaScratch_ {
    ArenaHot_ hot;
    uint64_t private_[11]; /* the rest of a struct Arena (arena.c checks that it fits) */
} ArenaScratch_;

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_INLINE_REWIND_ 0 /* a rewind must poison: arena.c does it */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_INLINE_REWIND_ 0
#endif
#endif
#ifndef ARENA_INLINE_REWIND_
#define ARENA_INLINE_REWIND_ 1
#endif
#define ARENA_LIKELY_(x) __builtin_expect(!!(x), 1)
#define ARENA_UNLIKELY_(x) __builtin_expect(!!(x), 0)

/* Cold: the compiler lays the call out of the fast path's way. */
void *st_arena_push_out_(Arena *a, uint64_t size, uint64_t align, bool zero) __attribute__((cold));
ArenaTemp st_scratch_begin_many_(Arena *const *conflicts, size_t count);
/* In an ELF executable the slots are the executable's own (libstrata is a static library,
   and a hot-reloaded module compiled -fPIC reaches the host's through the dynamic linker):
   the local-exec model makes a slot's address one instruction, not a load from the GOT. */
#if defined(__ELF__) && (defined(__PIE__) || !defined(__PIC__))
#define ARENA_TLS_MODEL_ __attribute__((tls_model("local-exec")))
#else
#define ARENA_TLS_MODEL_
#endif
extern _Thread_local ArenaScratch_ st_arena_scratch_[ARENA_SCRATCH_COUNT] ARENA_TLS_MODEL_;

static inline void *st_arena_push_(Arena *a, uint64_t size, uint64_t align, bool zero) {
    if (align == 0) align = 8;
    /* A wrapped sum shows as end < start; pos + align - 1 cannot wrap (pos < 2^62). */
    assert(a && "st_arena_push: no arena (st_arena_create returned NULL?)");
    if (ARENA_LIKELY_(!(align & (align - 1)) && align <= ARENA_INLINE_ALIGN_)) {
        ArenaHot_ *h = st_arena_hot_(a);
        uint64_t start = (h->pos + align - 1) & ~(align - 1), end = start + size;
        if (ARENA_LIKELY_(end >= start && end < h->limit)) {
            void *p = (void *)(h->base + start);
            if (zero && start < h->dirty) memset(p, 0, (end < h->dirty ? end : h->dirty) - start);
            h->pos = end;
            return p;
        }
    }
    return st_arena_push_out_(a, size, align, zero);
}
static inline void *st_arena_push(Arena *a, uint64_t size, uint64_t align) {
    return st_arena_push_(a, size, align, true);
}
static inline void *st_arena_push_raw(Arena *a, uint64_t size, uint64_t align) {
    return st_arena_push_(a, size, align, false);
}

/* A rewind in an arena of one block, from a cursor the marks cover; anything else (leaving
   a chained block, which is unmapped, a cursor past the gate, whose marks move, and, in a
   caller built without NDEBUG, a position past the cursor, which is a bug pop_to asserts)
   and every rewind under ASan, which poisons, is st_arena_pop_to's. With NDEBUG that bug
   (an outer temp ended before an inner one, by hand: the scope macros cannot) moves the
   cursor forward, memory-safely: pushes still check it against the block's committed
   bytes, and what it skips was handed out before, so `dirty` covers it. */
#ifdef NDEBUG
#define ARENA_TEMP_ORDERED_(t, h) 1
#else
#define ARENA_TEMP_ORDERED_(t, h) ((t).pos <= (h)->pos)
#endif
static inline void st_arena_temp_end(ArenaTemp t) {
    if (!t.arena) return;
    ArenaHot_ *h = st_arena_hot_(t.arena);
    if (ARENA_INLINE_REWIND_ && ARENA_LIKELY_(ARENA_TEMP_ORDERED_(t, h) && h->pos <= h->gate)) {
        h->pos = t.pos;
        return;
    }
    st_arena_pop_to(t.arena, t.pos);
}

/* This thread's first scratch arena that is no conflict: slot 0, unless it is named. */
static inline Arena *st_scratch_at_(uint32_t i) { return (Arena *)(void *)&st_arena_scratch_[i]; }
static inline ArenaTemp st_scratch_begin2_(size_t count, Arena *c0, Arena *c1) {
    Arena *s = st_scratch_at_(0);
    if (ARENA_UNLIKELY_((count > 0 && s == c0) || (count > 1 && s == c1))) {
        s = st_scratch_at_(1);
        if (count > 1 && (s == c0 || s == c1)) s = st_scratch_at_(2);
        /* An empty asm that "changes" s: GCC cannot turn this rare path into conditional
           moves, which every scope would pay for (3 instructions where the branch is 2). */
        __asm__("" : "+r"(s));
    }
    return (ArenaTemp){s, st_arena_hot_(s)->pos};
}
static inline ArenaTemp st_scratch_begin(Arena *const *conflicts, size_t count) {
    if (count > 2) return st_scratch_begin_many_(conflicts, count);
    return st_scratch_begin2_(count, count > 0 ? conflicts[0] : NULL, count > 1 ? conflicts[1] : NULL);
}

static inline void st_scratch_end(ArenaTemp t) { st_arena_temp_end(t); }

/* Scope guards (GCC/Clang cleanup attribute): the arena rewinds when `name` goes out of
   scope, whichever way the block is left. */
static inline void st_arena_temp_end_ptr_(ArenaTemp *t) { st_arena_temp_end(*t); }
static inline void st_scratch_end_ptr_(ArenaTemp *t) { st_scratch_end(*t); }
/* `unused`: a scope that only rewinds (its name never read) is the point, not a slip. */
#define ARENA_SCOPE(name, arena) \
    ArenaTemp name __attribute__((cleanup(st_arena_temp_end_ptr_), unused)) = st_arena_temp_begin(arena)
#define SCRATCH_SCOPE(name, ...)                                                             \
    ArenaTemp name __attribute__((cleanup(st_scratch_end_ptr_), unused)) = st_scratch_begin( \
        (Arena *const[]){NULL, __VA_ARGS__} + 1, sizeof((Arena *const[]){NULL, __VA_ARGS__}) / sizeof(Arena *) - 1)

#endif
