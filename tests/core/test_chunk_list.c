/* ChunkList: elements never move across thousands of pushes interleaved with other
   allocations; iteration and indexing see push order; flatten copies everything into
   another arena; a full arena gives NULL without corrupting the list. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include <strata/core/chunk_list.h>

typedef struct Item { uint64_t id; double x; char tag[13]; } Item;

static void test_stability(Arena *arena, Arena *keep) {
    enum { N = 10000 };
    ChunkList l;
    st_chunk_list_init(&l, arena, sizeof(Item), 100);
    Item **ptrs = st_arena_push_array(keep, Item *, N);
    REQUIRE_VOID(ptrs);
    for (uint64_t i = 0; i < N; i++) {
        Item *it = st_chunk_list_push_struct(&l, Item);
        REQUIRE_VOID(it);
        CHECK(it->id == 0 && it->x == 0.0 && it->tag[0] == 0); /* zeroed */
        it->id = i;
        it->x = (double)i * 0.5;
        ptrs[i] = it;
        st_arena_push(arena, 40, 8); /* something else grows the same arena in between */
    }
    CHECK_EQ_U(l.count, N);
    bool same = true, values = true;
    for (uint64_t i = 0; i < N; i++) {
        same &= st_chunk_list_at(&l, i) == ptrs[i];
        values &= ptrs[i]->id == i && ptrs[i]->x == (double)i * 0.5;
        values &= ((uintptr_t)ptrs[i] & (_Alignof(Item) - 1)) == 0;
    }
    CHECK(same);   /* every pointer taken during growth is still the element's address */
    CHECK(values);
    CHECK(st_chunk_list_at(&l, N) == NULL);

    ChunkListIter iter = st_chunk_list_iter(&l);
    uint64_t n = 0;
    bool order = true;
    for (Item *p; (p = st_chunk_list_next(&iter));) order &= p == ptrs[n++];
    CHECK(order);
    CHECK_EQ_U(n, N);
    CHECK(st_chunk_list_next(&iter) == NULL); /* stays at the end */

    uint64_t keep_pos = st_arena_pos(keep);
    Span flat = st_chunk_list_flatten(&l, keep);
    REQUIRE_VOID(flat.data);
    CHECK_EQ_U(flat.count, N);
    CHECK_EQ_U(st_arena_pos(keep) - keep_pos, (uint64_t)N * sizeof(Item) +
               ((16 - keep_pos % 16) % 16));
    Item *items = flat.data;
    bool copied = true;
    for (uint64_t i = 0; i < N; i++) copied &= items[i].id == i && items + i != ptrs[i];
    CHECK(copied);
}

static void test_edges(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "chunk-edges"});
    REQUIRE_VOID(a);
    ChunkList l;
    st_chunk_list_init(&l, a, sizeof(uint32_t), 0); /* 0 per chunk: a default, still works */
    ChunkListIter it = st_chunk_list_iter(&l);
    CHECK(st_chunk_list_next(&it) == NULL);        /* empty */
    CHECK(st_chunk_list_at(&l, 0) == NULL);
    Span empty = st_chunk_list_flatten(&l, a);
    CHECK(empty.data != NULL && empty.count == 0); /* empty is a success */

    /* Slots come back zeroed even over memory the arena handed out before. */
    uint64_t pos = st_arena_pos(a);
    memset(st_arena_push(a, 4096, 16), 0xFF, 4096);
    st_arena_pop_to(a, pos);
    for (int i = 0; i < 300; i++) {
        uint32_t *p = st_chunk_list_push(&l);
        REQUIRE_VOID(p);
        CHECK(*p == 0);
        *p = (uint32_t)i;
    }
    uint64_t i = 0;
    it = st_chunk_list_iter(&l);
    bool order = true;
    for (uint32_t *p; (p = st_chunk_list_next(&it));) order &= *p == i++;
    CHECK(order && i == 300);

    ChunkList one;
    st_chunk_list_init(&one, a, 0, 1); /* elem_size 0 treated as 1 */
    CHECK(st_chunk_list_push(&one) && st_chunk_list_push(&one) && one.count == 2);
    st_arena_release(a);
}

static void test_full(void) {
    Arena *small = st_arena_create((ArenaParams){.reserve_size = 1024, .flags = ARENA_FLAG_NO_CHAIN,
                                              .name = "chunk-small"});
    Arena *tiny = st_arena_create((ArenaParams){.reserve_size = 64, .flags = ARENA_FLAG_NO_CHAIN,
                                             .name = "chunk-tiny"});
    REQUIRE_VOID(small && tiny);
    ChunkList l;
    st_chunk_list_init(&l, small, sizeof(uint64_t), 16);
    uint64_t n = 0;
    for (uint64_t *p; (p = st_chunk_list_push(&l));) *p = n++;
    CHECK(n > 0);
    CHECK_EQ_U(l.count, n);          /* the failed push did not count */
    CHECK(st_chunk_list_push(&l) == NULL);
    CHECK_EQ_U(l.count, n);
    bool ok = true;
    for (uint64_t i = 0; i < n; i++) ok &= *(uint64_t *)st_chunk_list_at(&l, i) == i;
    CHECK(ok);
    Span none = st_chunk_list_flatten(&l, tiny); /* does not fit: NULL, not a crash */
    CHECK(none.data == NULL && none.count == 0);
    st_arena_release(small);
    st_arena_release(tiny);
}

int main(void) {
    Arena *arena = st_arena_create((ArenaParams){.name = "chunk-work"});
    Arena *keep = st_arena_create((ArenaParams){.name = "chunk-keep"});
    REQUIRE(arena && keep);
    test_stability(arena, keep);
    st_arena_release(arena);
    st_arena_release(keep);
    test_edges();
    test_full();
    return check_result();
}
