/* The inline fast paths of arena.h keep every mark arena.c keeps: a scope that pushed past
   the high mark is seen by st_arena_high_take and the peak, and the memory it wrote is
   zeroed by the next st_arena_push (dirty), whether the scope is an ARENA_SCOPE or a
   SCRATCH_SCOPE, with the high restarted by a take or not; a scope in a chained arena (a
   first push larger than the first block included) unmaps the block it leaves; a thread's
   scratch arenas hold no memory until a push maps it, and are picked around the conflicts. */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include <strata/core/arena.h>

static bool all_zero(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/* A scope that fills `n` bytes with 0xAB and rewinds. */
static void spike_arena(Arena *a, size_t n) {
    ARENA_SCOPE(s, a);
    memset(st_arena_push_raw(a, n, 8), 0xAB, n);
}
static void spike_scratch(size_t n) {
    SCRATCH_SCOPE(tmp);
    memset(st_arena_push_raw(tmp.arena, n, 8), 0xAB, n);
}

/* The marks after scopes on `a`, spiked by `spike` (a scope on `a` of so many bytes). */
static void check_marks(Arena *a, void (*spike)(Arena *, size_t)) {
    uint64_t base = st_arena_pos(a);
    st_arena_push_raw(a, 1000, 8);
    st_arena_high_take(a);
    spike(a, 5000); /* past the high (the take restarted it at the cursor) and past dirty */
    CHECK_EQ_U(st_arena_pos(a), base + 1000);
    CHECK(st_arena_stats(a).peak >= base + 6000);
    CHECK_EQ_U(st_arena_high_take(a), base + 6000);
    unsigned char *p = st_arena_push(a, 5000, 8);
    REQUIRE_VOID(p);
    CHECK(all_zero(p, 5000)); /* the spike's bytes were handed out: dirty covers them */
    memset(p, 0xCD, 5000);
    st_arena_pop_to(a, base + 1000);

    spike(a, 3000); /* within both marks: nothing to move */
    CHECK_EQ_U(st_arena_high_take(a), base + 6000); /* the pop_to above came after the take */
    spike(a, 2000);
    CHECK_EQ_U(st_arena_high_take(a), base + 3000); /* restarted at 1000, spiked to 3000 */
    spike(a, 9000); /* past both again, with no take before the next scope */
    spike(a, 100);
    CHECK_EQ_U(st_arena_high_take(a), base + 10000);
    p = st_arena_push(a, 9000, 8);
    REQUIRE_VOID(p);
    CHECK(all_zero(p, 9000));
    st_arena_pop_to(a, base);
}

static void scratch_spike(Arena *a, size_t n) {
    CHECK(a == st_scratch_get(0)); /* SCRATCH_SCOPE with no conflict picks the first */
    spike_scratch(n);
}

static void test_marks(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "marks"});
    REQUIRE_VOID(a);
    check_marks(a, spike_arena);
    st_arena_release(a);
    Arena *s = st_scratch_get(0);
    REQUIRE_VOID(s);
    check_marks(s, scratch_spike);
}

/* A scope in a chaining arena: the rewind leaves the chained block, whichever scope kind. */
static void test_chained(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 64 << 10, .name = "chain"});
    REQUIRE_VOID(a);
    {
        ARENA_SCOPE(s, a);
        CHECK(st_arena_push_raw(a, 100 << 10, 8) != NULL); /* larger than the first block */
        CHECK_EQ_U(st_arena_stats(a).blocks, 2);
    }
    CHECK_EQ_U(st_arena_stats(a).blocks, 1);
    CHECK_EQ_U(st_arena_pos(a), 0);
    st_arena_push_raw(a, 1000, 8);
    {
        ARENA_SCOPE(s, a);
        st_arena_push_raw(a, 60 << 10, 8);
        st_arena_push_raw(a, 30 << 10, 8); /* chained */
        {
            ARENA_SCOPE(inner, a); /* begins and ends in the chained block */
            memset(st_arena_push_raw(a, 4000, 8), 0xAB, 4000);
        }
        CHECK_EQ_U(st_arena_stats(a).blocks, 2);
        CHECK_EQ_U(st_arena_pos(a), 1000 + (90 << 10));
        unsigned char *p = st_arena_push(a, 4000, 8);
        REQUIRE_VOID(p);
        CHECK(all_zero(p, 4000));
    }
    CHECK_EQ_U(st_arena_stats(a).blocks, 1);
    CHECK_EQ_U(st_arena_pos(a), 1000);
    CHECK(st_arena_high_take(a) >= 1000 + (90 << 10) + 4000);
    /* Back in one block, the inline path runs again and still keeps the marks. */
    check_marks(a, spike_arena);
    st_arena_release(a);

    /* A chained scratch arena: begun and ended out of line, at the right positions. */
    Arena *s = st_scratch_get(1);
    REQUIRE_VOID(s);
    CHECK(st_arena_push_raw(s, 64, 8) != NULL); /* its first block, of the default reserve */
    uint64_t before = st_arena_pos(s);
    CHECK(st_arena_push_raw(s, ARENA_DEFAULT_RESERVE + 1, 8) != NULL); /* never touched: no memory */
    CHECK(st_arena_stats(s).blocks >= 2);
    uint64_t chained = st_arena_pos(s);
    {
        SCRATCH_SCOPE(t, st_scratch_get(0));
        CHECK(t.arena == s && t.pos == chained);
        st_arena_push_raw(t.arena, 100, 8);
    }
    CHECK_EQ_U(st_arena_pos(s), chained);
    st_arena_pop_to(s, before);
    CHECK_EQ_U(st_arena_stats(s).blocks, 1);
}

/* On a new thread no scratch arena holds memory: pushes map it, in the arena the scope
   picked around its conflicts; the stats run up to the last arena that holds some. */
static void fresh_scopes(void) {
    ArenaStats st[ARENA_SCRATCH_COUNT];
    CHECK_EQ_U(st_scratch_stats(st, ARENA_SCRATCH_COUNT), 0);
    {
        SCRATCH_SCOPE(a);
        REQUIRE_VOID(a.arena);
        CHECK(a.arena == st_scratch_get(0) && a.pos == 0);
        CHECK(st_arena_base(a.arena) == NULL && st_arena_stats(a.arena).blocks == 0);
        CHECK_EQ_U(st_scratch_stats(st, ARENA_SCRATCH_COUNT), 0);
        CHECK(st_arena_push_raw(a.arena, 64, 8) != NULL);
        CHECK_EQ_U(st_scratch_stats(st, ARENA_SCRATCH_COUNT), 1);
        SCRATCH_SCOPE(b, a.arena);
        REQUIRE_VOID(b.arena);
        CHECK(b.arena == st_scratch_get(1));
        SCRATCH_SCOPE(c, a.arena, b.arena);
        REQUIRE_VOID(c.arena);
        CHECK(c.arena == st_scratch_get(2));
        CHECK(st_arena_push_raw(c.arena, 64, 8) != NULL);
        CHECK_EQ_U(st_scratch_stats(st, ARENA_SCRATCH_COUNT), 3);
        CHECK_EQ_U(st[1].blocks, 0);
        SCRATCH_SCOPE(d, b.arena);
        CHECK(d.arena == a.arena && d.pos == 64);
    }
    CHECK_EQ_U(st_arena_pos(st_scratch_get(0)), 0);
}
static void *fresh_thread(void *unused) {
    (void)unused;
    fresh_scopes();
    return NULL;
}

static void test_fresh_thread(void) {
    pthread_t th;
    REQUIRE_VOID(pthread_create(&th, NULL, fresh_thread, NULL) == 0);
    pthread_join(th, NULL);
}

int main(void) {
    test_marks();
    test_chained();
    test_fresh_thread();
    return check_result();
}
