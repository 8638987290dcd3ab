/* The arena's guarantees, one block of checks each. */
#if !defined(_WIN32)
#include <signal.h>
#endif
#include <stdio.h>
#include <string.h>
#if defined(_WIN32)
#include <io.h> /* dup, dup2, close */
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "check.h"
#include <strata/core/arena.h>

#include <strata/core/os_memory.h>

/* This thread's last arena refusal, as a module would quote it (st_arena_error). */
static const char *last_refusal(void) {
    static Error e;
    st_error_clear(&e);
    st_arena_error(&e);
    return e.message;
}

#define MiB (1ull << 20)
#define KiB (1ull << 10)

static void test_reserve_is_address_space(void) {
    uint64_t before = st_os_resident_bytes();
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "big"});
    CHECK(a != NULL);
    CHECK(st_os_resident_bytes() - before < 1 * MiB);
    ArenaStats s = st_arena_stats(a);
    CHECK(s.reserved == 1ull << 30);
    CHECK(s.committed > 0 && s.committed <= ARENA_DEFAULT_COMMIT); /* one step, less the header */
    uint64_t overhead = ARENA_DEFAULT_COMMIT - s.committed;

    /* Committed memory follows the cursor in commit_size steps. */
    for (uint64_t n = 1; n < 4 * MiB; n = n * 3 + 7) {
        st_arena_push_raw(a, n, 1);
        s = st_arena_stats(a);
        CHECK((s.committed + overhead) % ARENA_DEFAULT_COMMIT == 0);
        CHECK(s.committed >= s.used);
        CHECK(s.committed - s.used < ARENA_DEFAULT_COMMIT);
    }
    st_arena_release(a);
}

static void test_stats_units(void) {
    /* used <= committed <= reserved, even for an arena smaller than one commit step. */
    uint64_t sizes[] = {1, 100, 4096, 5000, 65536, 70000};
    for (int i = 0; i < 6; i++) {
        Arena *a = st_arena_create((ArenaParams){.reserve_size = sizes[i],
                                              .flags = ARENA_FLAG_NO_CHAIN, .name = "units"});
        while (st_arena_push(a, 64, 8)) {}
        ArenaStats s = st_arena_stats(a);
        CHECK(s.reserved == sizes[i]);
        CHECK(s.used <= s.committed && s.committed <= s.reserved);
        st_arena_release(a);
    }
}

static void test_fits_and_null(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 64 * KiB, .name = "fits"});
    CHECK(st_arena_fits(a, 64 * KiB, 1));
    CHECK(!st_arena_fits(a, 64 * KiB + 1, 1));
    st_arena_push(a, 60 * KiB, 8);
    CHECK(st_arena_fits(a, 4 * KiB, 8) && !st_arena_fits(a, 5 * KiB, 8));
    uint32_t blocks = st_arena_stats(a).blocks;
    CHECK(!st_arena_fits(a, UINT64_MAX, 8));
    CHECK(st_arena_stats(a).blocks == blocks); /* asking changes nothing */
    st_arena_release(a);

    /* A scratch arena always exists (an OS refusal is its push's NULL); there is none past
       the last. */
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) CHECK(st_scratch_get(i) != NULL);
    CHECK(st_scratch_get(ARENA_SCRATCH_COUNT) == NULL);
}

static void test_zeroed_push_of_fresh_memory_touches_nothing(void) {
    /* If st_arena_push memset fresh pages, 256 MiB would become resident. */
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .name = "fresh"});
    uint64_t before = st_os_resident_bytes();
    uint8_t *p = st_arena_push(a, 256 * MiB, 64);
    CHECK(p != NULL);
#if !defined(__SANITIZE_ADDRESS__)
    /* (Under ASan, unpoisoning 256 MiB writes 32 MiB of shadow memory by design.) */
    CHECK(st_os_resident_bytes() - before < 4 * MiB);
#else
    (void)before;
#endif
    CHECK(p[0] == 0 && p[128 * MiB] == 0 && p[256 * MiB - 1] == 0);
    st_arena_release(a);
}

static void test_header_lives_in_the_region(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "header"});
    uint8_t *p = st_arena_push(a, 1, 1);
    CHECK(p > (uint8_t *)a && p - (uint8_t *)a < 4096);
    CHECK(st_arena_pos(a) == 1);
    st_arena_release(a);
}

static void test_chaining_keeps_pointers(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 64 * KiB, .name = "chain"});
    enum { N = 1000 };
    uint32_t *ptrs[N];
    for (uint32_t i = 0; i < N; i++) {
        ptrs[i] = st_arena_push_array(a, uint32_t, 250);
        CHECK(ptrs[i] != NULL);
        for (int k = 0; k < 250; k++) ptrs[i][k] = i * 1000 + (uint32_t)k;
    }
    ArenaStats s = st_arena_stats(a);
    CHECK(s.blocks > 10);
    CHECK(s.used >= N * 1000ull);
    for (uint32_t i = 0; i < N; i++) {
        CHECK(ptrs[i][0] == i * 1000 && ptrs[i][249] == i * 1000 + 249);
    }

    /* One allocation bigger than the reserve gets one enlarged block, whole. */
    uint32_t blocks = st_arena_stats(a).blocks;
    uint64_t before_big = st_arena_pos(a);
    uint8_t *big = st_arena_push(a, 1 * MiB, 4096);
    CHECK(big != NULL && ((uintptr_t)big & 4095) == 0);
    memset(big, 0x5a, 1 * MiB);
    CHECK(st_arena_stats(a).blocks == blocks + 1);
    CHECK(ptrs[N - 1][249] == (N - 1) * 1000 + 249);

    /* Rewinding across blocks gives them back. */
    uint64_t mid = st_arena_pos(a);
    st_arena_push(a, 200 * KiB, 8);
    CHECK(st_arena_stats(a).blocks == blocks + 2);
    st_arena_pop_to(a, mid);
    CHECK(st_arena_stats(a).blocks == blocks + 1);
    CHECK(st_arena_pos(a) == mid);
    st_arena_pop(a, 1000);
    CHECK(st_arena_pos(a) == mid - 1000);
    CHECK(st_arena_stats(a).blocks == blocks + 1);
    st_arena_pop_to(a, before_big);
    CHECK(st_arena_stats(a).blocks == blocks);

    st_arena_clear(a);
    s = st_arena_stats(a);
    CHECK(s.blocks == 1 && s.used == 0 && s.reserved == 64 * KiB);
    CHECK(st_arena_is_empty(a));
    CHECK(s.peak >= N * 1000ull + 1 * MiB); /* peak survives clear */
    CHECK(st_arena_push(a, 16, 8) != NULL);
    CHECK(!st_arena_is_empty(a));
    st_arena_release(a);
}

static void test_no_chain_fails_with_message(void) {
    Arena *a = st_arena_create(
        (ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "lvl"});
    CHECK(st_arena_push(a, 4000, 8) != NULL);

    /* The message also goes to stderr: capture it. */
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    void *p = st_arena_push(a, 200, 8);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char printed[256] = {0};
    rewind(tmp);
    CHECK(fread(printed, 1, sizeof printed - 1, tmp) > 0);
    fclose(tmp);

    CHECK(p == NULL);
    CHECK_STR(last_refusal(), "arena 'lvl' full: 4000 of 4096 bytes used, asked for 200 more");
    CHECK_STR(printed, "arena 'lvl' full: 4000 of 4096 bytes used, asked for 200 more\n");

    /* Sizes that would wrap around are refused the same way. */
    CHECK(st_arena_push(a, UINT64_MAX, 8) == NULL);
    CHECK_STR(last_refusal(),
              "arena 'lvl' full: 4000 of 4096 bytes used, asked for 18446744073709551615 more");
    CHECK(st_arena_push(a, UINT64_MAX - 100, 4096) == NULL);
    CHECK(st_arena_push_array(a, uint64_t, UINT64_MAX / 4) == NULL);
    CHECK(st_arena_pos(a) == 4000);
    CHECK(st_arena_push(a, 96, 8) != NULL); /* exactly fills it */
    CHECK(st_arena_pos(a) == 4096);
    st_arena_release(a);

    /* A chaining arena refuses absurd sizes too, without wrapping. */
    Arena *c = st_arena_create((ArenaParams){.reserve_size = 4096, .name = "chained"});
    CHECK(st_arena_push(c, UINT64_MAX, 8) == NULL);
    CHECK(st_arena_push(c, UINT64_MAX - 4000, 16) == NULL);
    CHECK(st_arena_push(c, 10, 8) != NULL);
    st_arena_release(c);
}

static void test_alignment(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1 * MiB, .name = "align"});
    for (int round = 0; round < 3; round++) {
        for (uint64_t align = 1; align <= st_os_page_size(); align *= 2) {
            st_arena_push(a, 3, 1); /* knock the cursor off alignment */
            uint8_t *p = st_arena_push(a, align * 3 + 1, align);
            CHECK(p != NULL && ((uintptr_t)p & (align - 1)) == 0);
            uint8_t *q = st_arena_push_raw(a, 5, align);
            CHECK(q != NULL && ((uintptr_t)q & (align - 1)) == 0);
        }
    }
    uint64_t *u = st_arena_push(a, 8, 0); /* 0 means the default, 8 */
    CHECK(((uintptr_t)u & 7) == 0);
    typedef struct { _Alignas(64) char c[3]; } Wide;
    Wide *w = st_arena_push_struct(a, Wide);
    CHECK(((uintptr_t)w & 63) == 0);
    st_arena_release(a);
}

/* A block chained where the cursor is at an odd position still hands out aligned addresses,
   inline (which aligns the position) and out of line, and zeroes what it reuses. */
static void test_alignment_in_chained_blocks(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 8 * KiB, .name = "odd-chain"});
    for (int round = 0; round < 2; round++) {
        for (uint64_t odd = 1; odd < 300; odd += 37) {
            uint64_t start = st_arena_pos(a);
            CHECK(st_arena_push_raw(a, odd, 1) != NULL);
            CHECK(st_arena_push_raw(a, 8 * KiB - 1, 1) != NULL); /* chains at an odd position */
            for (uint64_t align = 1; align <= 2 * st_os_page_size(); align *= 2) {
                uint8_t *p = st_arena_push(a, 40, align);
                CHECK(p != NULL && ((uintptr_t)p & (align - 1)) == 0);
                for (int i = 0; i < 40; i++) CHECK(p[i] == 0);
                memset(p, 0xCD, 40);
                st_arena_push_raw(a, 3, 1);
            }
            st_arena_pop_to(a, start);
        }
    }
    CHECK_EQ_U(st_arena_stats(a).blocks, 1);
    st_arena_release(a);
}

static void test_push_zeroes_reused_memory(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 64 * KiB, .name = "zero"});
    uint64_t mark = st_arena_pos(a);
    uint8_t *p = st_arena_push_raw(a, 1000, 8);
    memset(p, 0xab, 1000);
    st_arena_pop_to(a, mark);
    uint8_t *q = st_arena_push(a, 3000, 8); /* half reused, half fresh */
    CHECK(q == p);
    for (int i = 0; i < 3000; i++) CHECK(q[i] == 0);
    memset(q, 0xcd, 3000);
    st_arena_clear(a);
    uint8_t *r = st_arena_push(a, 2000, 1);
    for (int i = 0; i < 2000; i++) CHECK(r[i] == 0);
    /* Across a block that was chained, dropped and chained again. */
    st_arena_clear(a);
    for (int i = 0; i < 3; i++) memset(st_arena_push_raw(a, 40 * KiB, 8), 0xee, 40 * KiB);
    st_arena_clear(a);
    for (int i = 0; i < 3; i++) {
        uint8_t *z = st_arena_push(a, 40 * KiB, 8);
        for (uint64_t k = 0; k < 40 * KiB; k++) CHECK(z[k] == 0);
    }
    st_arena_release(a);
}

/* Both paths of a zeroed push clear reused bytes: the inline one (room in the committed
   part) and the out-of-line one (a push that must commit more first, or chain a block), each
   over memory that was written before a rewind, and over fresh memory. */
static void test_push_zeroes_on_both_paths(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1024 * KiB, .commit_size = 4 * KiB, .name = "paths"});
    REQUIRE_VOID(a);
    for (int round = 0; round < 3; round++) {
        uint64_t mark = st_arena_pos(a);
        uint64_t room = st_arena_stats(a).committed - st_arena_pos(a) - 256; /* inside the commit */
        uint8_t *p = st_arena_push_raw(a, room, 8);
        memset(p, 0xab, room);
        st_arena_pop_to(a, mark);
        uint8_t *inline_ = st_arena_push(a, room, 8); /* reused, no commit needed */
        bool zero = inline_ == p;
        for (uint64_t i = 0; i < room; i++) zero &= inline_[i] == 0;
        CHECK(zero);
        memset(inline_, 0xcd, room);
        st_arena_pop_to(a, mark);
        uint64_t big = st_arena_stats(a).committed + 64 * KiB; /* past the commit: out of line */
        uint8_t *out = st_arena_push(a, big, 8);
        REQUIRE_VOID(out == p);
        zero = true;
        for (uint64_t i = 0; i < big; i++) zero &= out[i] == 0;
        CHECK(zero);
        memset(out, 0xef, big);
        st_arena_clear(a);
    }
    /* A chained block: the first push into it is out of line too, and so is a push larger
       than the block's rest. */
    Arena *c = st_arena_create((ArenaParams){.reserve_size = 64 * KiB, .name = "chain"});
    REQUIRE_VOID(c);
    for (int round = 0; round < 2; round++) {
        uint8_t *first = st_arena_push(c, 48 * KiB, 8);
        uint8_t *second = st_arena_push(c, 48 * KiB, 8); /* does not fit: a new block */
        REQUIRE_VOID(first && second);
        bool zero = true;
        for (uint64_t i = 0; i < 48 * KiB; i++) zero &= first[i] == 0 && second[i] == 0;
        CHECK(zero);
        memset(first, 0x11, 48 * KiB);
        memset(second, 0x22, 48 * KiB);
        st_arena_clear(c);
    }
    st_arena_release(c);
    st_arena_release(a);
}

static void test_strdup(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "str"});
    const char *src = "Level 3 \xe2\x80\x94 the vault";
    char *s = st_arena_strdup(a, src);
    CHECK(s != src);
    CHECK_STR(s, src);
    CHECK(st_arena_strdup(a, NULL) == NULL);
    st_arena_release(a);
}

static void test_failed_commit(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1 * MiB, .name = "flaky"});
    CHECK(st_arena_push(a, 1000, 8) != NULL);
    st_os_debug_fail_commits(1);
    void *p = st_arena_push(a, 200 * KiB, 8);
    CHECK(p == NULL);
    CHECK(strstr(last_refusal(), "arena 'flaky'") != NULL);
    CHECK(strstr(last_refusal(), "refused to commit") != NULL);
    CHECK(st_arena_pos(a) == 1000);
    /* Still works for pushes that fit what is committed, and for big ones once the OS agrees. */
    uint8_t *small = st_arena_push(a, 100, 8);
    CHECK(small != NULL && small[99] == 0);
    uint8_t *big = st_arena_push(a, 200 * KiB, 8);
    CHECK(big != NULL);
    memset(big, 1, 200 * KiB);

    /* A refused chain block is reported too. */
    Arena *c = st_arena_create((ArenaParams){.reserve_size = 64 * KiB, .name = "flaky-chain"});
    st_arena_push(c, 60 * KiB, 8);
    st_os_debug_fail_commits(1);
    CHECK(st_arena_push(c, 10 * KiB, 8) == NULL);
    CHECK(strstr(last_refusal(), "arena 'flaky-chain'") != NULL);
    CHECK(st_arena_stats(c).blocks == 1);
    CHECK(st_arena_push(c, 10 * KiB, 8) != NULL);
    CHECK(st_arena_stats(c).blocks == 2);
    st_arena_release(c);
    st_arena_release(a);
}

#if !defined(_WIN32) /* the assert is seen from a forked child: POSIX only */
static void test_pop_forward(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "fwd"});
    st_arena_push(a, 100, 8);
    uint64_t pos = st_arena_pos(a);
    pid_t pid = fork();
    if (pid == 0) {
        st_arena_pop_to(a, pos + 64);
        _exit(st_arena_pos(a) == pos ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
#ifdef NDEBUG
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* release: a no-op */
#else
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT); /* debug: an assert */
#endif
    st_arena_release(a);
}
#endif

static int early_return(Arena *a, bool leave) {
    ARENA_SCOPE(scope, a);
    st_arena_push(a, 512, 8);
    if (leave) return 1;
    st_arena_push(a, 512, 8);
    return 2;
}

static void test_scope_guard(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "scope"});
    st_arena_push(a, 24, 8);
    uint64_t pos = st_arena_pos(a);
    CHECK(early_return(a, true) == 1);
    CHECK(st_arena_pos(a) == pos);
    CHECK(early_return(a, false) == 2);
    CHECK(st_arena_pos(a) == pos);
    {
        ArenaTemp t = st_arena_temp_begin(a);
        st_arena_push(a, 1 * MiB, 8);
        st_arena_temp_end(t);
    }
    CHECK(st_arena_pos(a) == pos);
    st_arena_release(a);
}

/* A scope's end that stays in one block is compiled into the caller (arena.h): it must
   leave the arena as st_arena_pop_to would, chained blocks and marks included. */
static void test_scope_end_matches_pop_to(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 64 * KiB, .name = "scope_end"});
    st_arena_push(a, 60 * KiB, 8);
    ArenaTemp t = st_arena_temp_begin(a);
    st_arena_push(a, 16 * KiB, 8); /* chains a block that starts exactly at t.pos */
    CHECK(st_arena_stats(a).blocks == 2);
    st_arena_temp_end(t);
    CHECK(st_arena_stats(a).blocks == 1); /* the cursor left the block: it is given back */
    CHECK_EQ_U(st_arena_pos(a), 60 * KiB);
    CHECK_EQ_U(st_arena_high_take(a), 76 * KiB);

    t = st_arena_temp_begin(a);
    memset(st_arena_push_raw(a, 1024, 8), 0xff, 1024);
    st_arena_temp_end(t);
    CHECK_EQ_U(st_arena_high_take(a), 60 * KiB + 1024); /* the rewind kept the spike */
    uint8_t *p = st_arena_push(a, 1024, 8);
    bool zero = true;
    for (int i = 0; i < 1024; i++) zero &= p[i] == 0;
    CHECK(zero); /* and knew those bytes were used */
    st_arena_release(a);
}

int main(void) {
    test_reserve_is_address_space();
    test_zeroed_push_of_fresh_memory_touches_nothing();
    test_header_lives_in_the_region();
    test_stats_units();
    test_fits_and_null();
    test_chaining_keeps_pointers();
    test_no_chain_fails_with_message();
    test_alignment();
    test_alignment_in_chained_blocks();
    test_push_zeroes_reused_memory();
    test_push_zeroes_on_both_paths();
    test_strdup();
    test_failed_commit();
#if !defined(_WIN32)
    test_pop_forward();
#endif
    test_scope_guard();
    test_scope_end_matches_pop_to();
    return check_result();
}
