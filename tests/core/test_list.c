/* List: growth to 1,000,000 on an idle arena never moves the buffer (no copy at all);
   contents survive growth through the system heap and through copying arena growth;
   reused slots come back zeroed; out of memory is a NULL that leaves the list intact. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include <strata/core/list.h>

typedef struct Pair { int32_t a; int64_t b; } Pair;

static void test_arena_no_copy(void) {
    Arena *arena = st_arena_create((ArenaParams){.name = "list-grow"});
    REQUIRE_VOID(arena);
    List l = st_list_make(sizeof(int32_t), st_allocator_arena(arena));
    CHECK_EQ_U(l.align, 4);
    int32_t *first = st_list_add(&l);
    REQUIRE_VOID(first);
    *first = 0;
    uint64_t start = st_arena_pos(arena) - l.capacity * sizeof(int32_t); /* padding before it */
    uint64_t moves = 0, growths = 0, cap = l.capacity;
    for (int32_t i = 1; i < 1000000; i++) {
        int32_t *slot = st_list_add(&l);
        REQUIRE_VOID(slot);
        *slot = i;
        if (l.data != first) moves++;
        if (l.capacity != cap) growths++, cap = l.capacity;
    }
    CHECK_EQ_U(l.count, 1000000);
    CHECK_EQ_U(moves, 0);        /* the base pointer never changed */
    CHECK(growths >= 15);        /* it really grew, many times (8 -> 2^20) */
    /* Not one byte was wasted on an abandoned copy: the arena holds exactly the buffer. */
    CHECK_EQ_U(st_arena_pos(arena) - start, l.capacity * sizeof(int32_t));
    bool ok = true;
    for (int32_t i = 0; i < 1000000; i++) ok &= *LIST_AT(&l, int32_t, i) == i;
    CHECK(ok);
    /* st_list_reset of the last allocation gives everything back to the arena. */
    st_list_reset(&l);
    CHECK_EQ_U(st_arena_pos(arena), start);
    CHECK(l.data == NULL && l.count == 0 && l.capacity == 0);
    st_arena_release(arena);
}

static void test_interleaved(Allocator alloc, Arena *arena) {
    /* With other pushes in between, growth must copy; the contents must survive. */
    List l = LIST_MAKE(Pair, alloc);
    for (int i = 0; i < 5000; i++) {
        REQUIRE_VOID(LIST_ADD(&l, Pair, .a = i, .b = (int64_t)i * 3));
        if (arena) st_arena_push(arena, 24, 8);
    }
    CHECK_EQ_U(l.count, 5000);
    CHECK(((uintptr_t)l.data & (_Alignof(Pair) - 1)) == 0);
    bool ok = true;
    for (int i = 0; i < 5000; i++) {
        Pair *p = LIST_AT(&l, Pair, i);
        ok &= p->a == i && p->b == (int64_t)i * 3;
    }
    CHECK(ok);
    st_list_reset(&l);
}

static void test_ops(void) {
    List l = st_list_make(sizeof(uint64_t), st_allocator_system());
    CHECK(st_list_at(&l, 0) == NULL);
    CHECK(st_list_reserve(&l, 100));
    CHECK(l.capacity >= 100 && l.count == 0);
    void *data = l.data;
    for (uint64_t i = 0; i < 100; i++) *(uint64_t *)st_list_add(&l) = i + 1;
    CHECK(l.data == data); /* reserved: no growth */
    CHECK(st_list_at(&l, 99) && *LIST_AT(&l, uint64_t, 99) == 100);
    CHECK(st_list_at(&l, 100) == NULL);
    CHECK(st_list_at(&l, UINT64_MAX) == NULL);
    st_list_pop(&l);
    CHECK_EQ_U(l.count, 99);
    uint64_t *again = st_list_add(&l);
    CHECK(again && *again == 0); /* the reused slot is zeroed */
    st_list_clear(&l);
    CHECK_EQ_U(l.count, 0);
    uint64_t *block = st_list_add_n(&l, 50);
    REQUIRE_VOID(block);
    bool zero = true;
    for (int i = 0; i < 50; i++) zero &= block[i] == 0;
    CHECK(zero);
    CHECK(st_list_add_n(&l, UINT64_MAX) == NULL);             /* overflow: refused */
    CHECK(st_list_add_n(&l, UINT64_MAX / 16) == NULL);        /* too big: refused */
    CHECK_EQ_U(l.count, 50);
    CHECK(!st_list_add_value_(&l, "x", 1));                    /* wrong size */
    st_list_pop(&(List){0});                                   /* empty: harmless */
    st_list_reset(&l);
    st_list_reset(&l);                                         /* twice: harmless */
    List zero_list = {0};
    CHECK(st_list_add(&zero_list) == NULL); /* no element size, no allocator: NULL, no crash */
    List bad = st_list_make(8, (Allocator){0});
    CHECK(st_list_add(&bad) == NULL);
}

static void test_out_of_memory(void) {
    Arena *arena = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN,
                                              .name = "list-small"});
    REQUIRE_VOID(arena);
    List l = st_list_make(sizeof(int32_t), st_allocator_arena(arena));
    int32_t i = 0;
    while (st_list_add(&l)) *LIST_AT(&l, int32_t, l.count - 1) = i++;
    CHECK(l.count >= 512);        /* 4096 bytes hold 1024 ints; doubling stops at 512+ */
    CHECK(l.count <= 1024);
    uint64_t count = l.count;
    CHECK(st_list_add(&l) == NULL);  /* still failing, still intact */
    CHECK_EQ_U(l.count, count);
    bool ok = true;
    for (uint64_t k = 0; k < count; k++) ok &= *LIST_AT(&l, int32_t, k) == (int32_t)k;
    CHECK(ok);
    st_arena_release(arena);
}

int main(void) {
    test_arena_no_copy();
    test_interleaved(st_allocator_system(), NULL);
    Arena *arena = st_arena_create((ArenaParams){.name = "list-interleaved"});
    REQUIRE(arena);
    test_interleaved(st_allocator_arena(arena), arena);
    st_arena_release(arena);
    test_interleaved(st_allocator_temp(), NULL);
    st_allocator_temp_reset();
    test_ops();
    test_out_of_memory();
    return check_result();
}
