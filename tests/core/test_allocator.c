/* Allocator: the system heap honours alignment and realloc's contract; the arena allocator
   grows and shrinks its last allocation in place, copies anything else, treats FREE of a
   non-last block as a harmless no-op, and fails without harming the old block; the temp
   allocator is per thread and reset by st_allocator_temp_reset. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include <strata/core/allocator.h>
#include <strata/core/os_memory.h>

static bool all_bytes(const void *p, int value, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)value) return false;
    return true;
}

static void test_system(void) {
    Allocator s = st_allocator_system();
    size_t aligns[] = {0, 1, 8, 16, 64, 256, 4096};
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
        size_t al = aligns[i] ? aligns[i] : 16;
        unsigned char *p = st_allocator_alloc(s, 100, aligns[i]);
        REQUIRE_VOID(p);
        CHECK(((uintptr_t)p & (al - 1)) == 0);
        CHECK(all_bytes(p, 0, 100));
        memset(p, 0xAB, 100);
        p = st_allocator_realloc(s, p, 100, 5000, aligns[i]);
        REQUIRE_VOID(p);
        CHECK(((uintptr_t)p & (al - 1)) == 0);
        CHECK(all_bytes(p, 0xAB, 100));       /* contents kept */
        CHECK(all_bytes(p + 100, 0, 4900));   /* new tail zeroed */
        p = st_allocator_realloc(s, p, 5000, 10, aligns[i]);
        REQUIRE_VOID(p);
        CHECK(all_bytes(p, 0xAB, 10));
        st_allocator_free(s, p, 10);
    }
    void *z = st_allocator_alloc(s, 0, 0); /* a zero-size block is still a block */
    CHECK(z != NULL);
    st_allocator_free(s, z, 0);
    void *r = st_allocator_realloc(s, NULL, 0, 32, 0); /* NULL ptr: acts as alloc */
    CHECK(r && all_bytes(r, 0, 32));
    st_allocator_free(s, r, 32);
    st_allocator_free(s, NULL, 0);   /* harmless */
    st_allocator_free_all(s);        /* no-op, must not crash */
    CHECK(st_allocator_alloc(s, (size_t)-1, 0) == NULL);
    CHECK(st_allocator_alloc(s, 16, 3) == NULL);            /* not a power of two */
    CHECK(st_allocator_alloc((Allocator){0}, 16, 0) == NULL); /* zero Allocator */
}

static void test_arena_in_place(void) {
    Arena *arena = st_arena_create((ArenaParams){.name = "alloc-in-place"});
    REQUIRE_VOID(arena);
    Allocator a = st_allocator_arena(arena);

    unsigned char *p = st_allocator_alloc(a, 64, 16);
    REQUIRE_VOID(p);
    uint64_t pos = st_arena_pos(arena);
    memset(p, 0x11, 64);

    /* Growth of the last allocation: same pointer, cursor moved by exactly the delta. */
    unsigned char *g = st_allocator_realloc(a, p, 64, 4096, 16);
    CHECK(g == p);
    CHECK_EQ_U(st_arena_pos(arena), pos + 4096 - 64);
    CHECK(all_bytes(g, 0x11, 64));
    CHECK(all_bytes(g + 64, 0, 4096 - 64));

    /* Shrink of the last allocation gives the bytes back. */
    memset(g, 0x22, 4096);
    unsigned char *sh = st_allocator_realloc(a, g, 4096, 100, 16);
    CHECK(sh == p);
    CHECK_EQ_U(st_arena_pos(arena), pos + 100 - 64);
    CHECK(all_bytes(sh, 0x22, 100));

    /* Growing again over bytes that held data must zero them (the arena reuses memory). */
    unsigned char *g2 = st_allocator_realloc(a, sh, 100, 2000, 16);
    CHECK(g2 == p);
    CHECK(all_bytes(g2, 0x22, 100));
    CHECK(all_bytes(g2 + 100, 0, 1900));

    /* FREE of the last allocation gives its bytes back. */
    uint64_t before = st_arena_pos(arena);
    unsigned char *q = st_allocator_alloc(a, 1000, 8);
    REQUIRE_VOID(q);
    CHECK(st_arena_pos(arena) > before);
    st_allocator_free(a, q, 1000);
    CHECK_EQ_U(st_arena_pos(arena), before);

    /* FREE of anything else is a no-op: nothing moves, later data survives. */
    unsigned char *x = st_allocator_alloc(a, 256, 8);
    unsigned char *y = st_allocator_alloc(a, 256, 8);
    REQUIRE_VOID(x && y);
    memset(x, 0x33, 256);
    memset(y, 0x44, 256);
    uint64_t at = st_arena_pos(arena);
    st_allocator_free(a, x, 256);
    CHECK_EQ_U(st_arena_pos(arena), at);
    CHECK(all_bytes(x, 0x33, 256));
    CHECK(all_bytes(y, 0x44, 256));

    /* REALLOC of a non-last block: push + copy, the old block untouched. */
    unsigned char *x2 = st_allocator_realloc(a, x, 256, 512, 8);
    REQUIRE_VOID(x2);
    CHECK(x2 != x);
    CHECK(all_bytes(x2, 0x33, 256));
    CHECK(all_bytes(x2 + 256, 0, 256));
    CHECK(all_bytes(x, 0x33, 256));
    CHECK(all_bytes(y, 0x44, 256));
    /* Shrinking a non-last block keeps it where it is. */
    CHECK(st_allocator_realloc(a, y, 256, 16, 8) == y);
    CHECK(all_bytes(y, 0x44, 16));

    /* A last block that is not aligned for the new request is moved, not grown. */
    unsigned char *odd = st_allocator_alloc(a, 3, 1);
    unsigned char *odd2 = st_allocator_realloc(a, odd + 0, 3, 64, 4096);
    CHECK(odd2 && ((uintptr_t)odd2 & 4095) == 0);

    st_allocator_free_all(a);
    CHECK_EQ_U(st_arena_pos(arena), 0);
    CHECK(st_allocator_alloc(a, 16, 8192 * 4) == NULL); /* beyond a page: refused, no crash */
    st_arena_release(arena);
}

static void test_arena_failure(void) {
    Arena *arena = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN,
                                              .name = "alloc-small"});
    REQUIRE_VOID(arena);
    Allocator a = st_allocator_arena(arena);
    unsigned char *p = st_allocator_alloc(a, 1000, 8);
    REQUIRE_VOID(p);
    memset(p, 0x55, 1000);
    uint64_t pos = st_arena_pos(arena);
    /* Growing the last block past the end fails; the old block stays valid and whole. */
    CHECK(st_allocator_realloc(a, p, 1000, 8000, 8) == NULL);
    CHECK_EQ_U(st_arena_pos(arena), pos);
    CHECK(all_bytes(p, 0x55, 1000));
    /* A non-last block that cannot be copied anywhere: same contract. */
    unsigned char *q = st_allocator_alloc(a, 8, 8);
    REQUIRE_VOID(q);
    pos = st_arena_pos(arena);
    CHECK(st_allocator_realloc(a, p, 1000, 3500, 8) == NULL);
    CHECK_EQ_U(st_arena_pos(arena), pos);
    CHECK(all_bytes(p, 0x55, 1000));
    /* FREE of the last block at a full arena still works. */
    CHECK(st_allocator_alloc(a, 99999, 8) == NULL);
    st_allocator_free(a, q, 8);
    CHECK(st_arena_pos(arena) < pos);
    st_arena_release(arena);
    CHECK(st_allocator_alloc(st_allocator_arena(NULL), 8, 8) == NULL);
}

static void test_arena_chained(void) {
    /* A last block at the very end of a chained arena's block cannot grow in place: it is
       copied into the next block, contents intact. */
    Arena *arena = st_arena_create((ArenaParams){.reserve_size = 1 << 16, .name = "alloc-chain"});
    REQUIRE_VOID(arena);
    Allocator a = st_allocator_arena(arena);
    unsigned char *p = st_allocator_alloc(a, 60000, 16);
    REQUIRE_VOID(p);
    memset(p, 0x66, 60000);
    uint64_t maps = st_os_debug_reserve_count();
    unsigned char *g = st_allocator_realloc(a, p, 60000, 70000, 16);
    REQUIRE_VOID(g);
    CHECK(g != p);
    CHECK(all_bytes(g, 0x66, 60000));
    CHECK(all_bytes(g + 60000, 0, 10000));
    /* One new block, mapped once: no block chained for an in-place attempt and dropped
       again, and no peak above where the cursor ended. */
    CHECK(st_arena_stats(arena).blocks == 2);
    CHECK_EQ_U(st_os_debug_reserve_count() - maps, 1);
    CHECK_EQ_U(st_arena_stats(arena).peak, st_arena_pos(arena));
    st_arena_release(arena);
}

static void *thread_temp(void *out) {
    *(void **)out = st_allocator_alloc(st_allocator_temp(), 64, 16);
    st_allocator_temp_reset();
    return NULL;
}

static void test_temp(void) {
    Allocator t = st_allocator_temp();
    unsigned char *p = st_allocator_alloc(t, 128, 16);
    REQUIRE_VOID(p);
    memset(p, 0x77, 128);
    unsigned char *g = st_allocator_realloc(t, p, 128, 1024, 16); /* arena semantics */
    CHECK(g == p);
    CHECK(all_bytes(g + 128, 0, 896));
    st_allocator_temp_reset();
    unsigned char *again = st_allocator_alloc(t, 128, 16);
    CHECK(again == p);                   /* reset: the same memory is handed out again */
    CHECK(all_bytes(again, 0, 128));     /* and zeroed */

    void *other = NULL;
    pthread_t th;
    REQUIRE_VOID(pthread_create(&th, NULL, thread_temp, &other) == 0);
    pthread_join(th, NULL);
    CHECK(other != NULL);
    CHECK((unsigned char *)other != again); /* another thread, another arena */
    st_allocator_free_all(t);
    st_allocator_temp_reset();
}

int main(void) {
    test_system();
    test_arena_in_place();
    test_arena_failure();
    test_arena_chained();
    test_temp();
    return check_result();
}
