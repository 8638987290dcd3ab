/* VirtualArray: growth past 100 MiB keeps the base address; resident memory rises with
   the count and falls back when it shrinks; the reservation is a hard limit; a refused
   commit is a NULL that leaves the array intact; regrown elements are zero. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include <strata/core/os_memory.h>
#include <strata/core/virtual_array.h>

#define MIB (1ull << 20)

static void test_growth_and_rss(void) {
    VirtualArray va;
    REQUIRE_VOID(st_virtual_array_init(&va, sizeof(uint64_t), 0));
    CHECK_EQ_U(va.reserved, VIRTUAL_ARRAY_DEFAULT_RESERVE);
    void *base = va.base;
    uint64_t rss0 = st_os_resident_bytes();

    const uint64_t n = 128 * MIB / sizeof(uint64_t); /* 128 MiB of elements */
    bool stable = true;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *p = st_virtual_array_push(&va);
        if (!p) { CHECK(p); break; }
        *p = i * 7;
        stable &= va.base == base && p == (uint64_t *)base + i;
    }
    CHECK(stable);
    CHECK_EQ_U(va.count, n);
    CHECK(va.committed >= n * sizeof(uint64_t));
    CHECK(va.committed < n * sizeof(uint64_t) + MIB); /* commits follow the count */
    bool ok = true;
    for (uint64_t i = 0; i < n; i += 4093) ok &= *(uint64_t *)st_virtual_array_at(&va, i) == i * 7;
    CHECK(ok);
    CHECK(st_virtual_array_at(&va, n) == NULL);

    uint64_t rss1 = st_os_resident_bytes();
    if (rss0 && rss1) {
        CHECK(rss1 > rss0 + 100 * MIB); /* the pages are really there */
        st_virtual_array_set_count(&va, n / 8);
        uint64_t rss2 = st_os_resident_bytes();
        CHECK(rss2 + 100 * MIB < rss1 + 16 * MIB); /* ~112 MiB returned to the OS */
        CHECK(rss2 + 90 * MIB < rss1);
        st_virtual_array_clear(&va);
        CHECK_EQ_U(va.committed, 0);
        CHECK(st_os_resident_bytes() < rss2);
    } else {
        fprintf(stderr, "note: resident size not available, RSS checks skipped\n");
        st_virtual_array_clear(&va);
    }
    CHECK(va.base == base);

    /* Regrowth over pages that held data reads zero. */
    uint64_t *again = st_virtual_array_push_n(&va, 1000);
    REQUIRE_VOID(again);
    bool zero = true;
    for (int i = 0; i < 1000; i++) zero &= again[i] == 0;
    CHECK(zero);
    memset(again, 0xAB, 1000 * sizeof(uint64_t));
    CHECK(st_virtual_array_set_count(&va, 10));        /* shrink within a commit step... */
    CHECK(st_virtual_array_set_count(&va, 1000));      /* ...and grow back: still zeroed */
    zero = true;
    for (int i = 10; i < 1000; i++) zero &= again[i] == 0;
    CHECK(zero);
    CHECK(again[9] == 0xABABABABABABABABull);        /* kept below the count */
    st_virtual_array_release(&va);
    CHECK(va.base == NULL && va.count == 0);
}

static void test_limits(void) {
    VirtualArray va;
    CHECK(!st_virtual_array_init(&va, 0, 0));                     /* no element size */
    CHECK(va.base == NULL);
    CHECK(st_virtual_array_push(&va) == NULL);                    /* uninitialised: NULL */
    CHECK(!st_virtual_array_init(&va, 8, UINT64_MAX));            /* absurd reservation */

    REQUIRE_VOID(st_virtual_array_init(&va, 24, 1 * MIB));
    uint64_t cap = st_virtual_array_capacity(&va);
    CHECK_EQ_U(cap, va.reserved / 24);
    CHECK(st_virtual_array_push_n(&va, cap) != NULL);
    CHECK(st_virtual_array_push(&va) == NULL);                    /* the reservation is full */
    CHECK_EQ_U(va.count, cap);
    CHECK(st_virtual_array_push_n(&va, UINT64_MAX) == NULL);      /* no overflow */
    CHECK(!st_virtual_array_set_count(&va, cap + 1));
    CHECK_EQ_U(va.count, cap);
    st_virtual_array_release(&va);
    st_virtual_array_release(&va); /* twice: harmless */

    /* A commit the OS refuses: NULL, count unchanged, earlier data intact. */
    REQUIRE_VOID(st_virtual_array_init(&va, sizeof(uint32_t), 16 * MIB));
    uint32_t *first = st_virtual_array_push(&va);
    REQUIRE_VOID(first);
    *first = 99;
    uint64_t in_step = va.committed / sizeof(uint32_t);
    st_os_debug_fail_commits(1);
    CHECK(st_virtual_array_push_n(&va, in_step) == NULL);         /* needs a new commit */
    CHECK_EQ_U(va.count, 1);
    CHECK(*first == 99);
    CHECK(st_virtual_array_push_n(&va, in_step) != NULL);         /* the OS relents */
    CHECK_EQ_U(va.count, 1 + in_step);
    st_virtual_array_release(&va);
}

int main(void) {
    test_growth_and_rss();
    test_limits();
    return check_result();
}
