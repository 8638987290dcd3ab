/* Sizes and alignments at the edge of 64 bits: every request whose
   arithmetic would wrap must fail with NULL and a message naming the arena and the
   request, never hand out a tiny block or write through an unmapped page. The cases that
   crashed before the fix run in a forked child, so a crash is reported as a failed check
   instead of ending the test. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if !defined(_WIN32)
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "check.h"
#include <strata/core/allocator.h>
#include <strata/core/arena.h>
#include <strata/core/os_memory.h>

/* This thread's last arena refusal, as a module would quote it (st_arena_error). */
static const char *last_refusal(void) {
    static Error e;
    st_error_clear(&e);
    st_arena_error(&e);
    return e.message;
}

#define CHECK_ERROR_HAS(text)                                                                  \
    do {                                                                                       \
        if (!strstr(last_refusal(), (text))) {                                             \
            fprintf(stderr, "%s:%d: CHECK failed: last_refusal() \"%s\" lacks \"%s\"\n",    \
                    __FILE__, __LINE__, last_refusal(), (text));                           \
            check_failures_++;                                                                 \
        }                                                                                      \
    } while (0)

/* Runs fn in a child and checks that it exited 0 (its own checks passed, no crash). */
static void in_child(const char *what, void (*fn)(void)) {
#if defined(_WIN32)
    (void)what;
    fn(); /* no fork on Windows: a crash ends the whole test, which fails all the same */
#else
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        fflush(stderr);
        _exit(check_failures_ ? 1 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "%s: the child died of signal %d\n", what, WTERMSIG(status));
        check_failures_++;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "%s: the child exited with status %d\n", what, WEXITSTATUS(status));
        check_failures_++;
    }
#endif
}

/* align_up(commit_size, page) wrapped to 0: nothing was committed and the header was
   written through a PROT_NONE page. */
static void create_with_huge_commit(void) {
    const uint64_t sizes[] = {UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 4095, UINT64_MAX / 4 + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "commit_size %llu", (unsigned long long)sizes[i]);
        Arena *a = st_arena_create((ArenaParams){.commit_size = sizes[i], .name = "huge-commit"});
        CHECK(a == NULL);
        CHECK_ERROR_HAS("arena 'huge-commit'");
        CHECK_ERROR_HAS(want);
        if (a) st_arena_release(a);
    }
}

static void create_with_huge_reserve(void) {
    const uint64_t sizes[] = {UINT64_MAX, UINT64_MAX - 127, UINT64_MAX / 4 + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "reserve_size %llu", (unsigned long long)sizes[i]);
        Arena *a = st_arena_create((ArenaParams){.reserve_size = sizes[i], .name = "huge-reserve"});
        CHECK(a == NULL);
        CHECK_ERROR_HAS("arena 'huge-reserve'");
        CHECK_ERROR_HAS(want);
        if (a) st_arena_release(a);
    }
    /* A commit_size larger than the reserve (but sane) still means "commit it all". */
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .commit_size = 1ull << 40,
                                          .name = "commit-all"});
    CHECK(a != NULL);
    if (a) {
        CHECK_EQ_U(st_arena_stats(a).committed, 1 << 20);
        st_arena_release(a);
    }
}

/* sizeof(T) * n wrapped to a few bytes, and the array came back "successfully". */
typedef struct Triple {
    uint64_t a, b, c;
} Triple;

static void push_array_that_wraps(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "wrap"});
    REQUIRE_VOID(a);
    st_arena_push(a, 8, 8);
    uint64_t pos = st_arena_pos(a);
    uint64_t n = (UINT64_MAX / sizeof(Triple)) + 2; /* 24 * n wraps to 32 */
    CHECK(st_arena_push_array(a, Triple, n) == NULL);
    CHECK_ERROR_HAS("arena 'wrap'");
    CHECK_ERROR_HAS("elements of 24 bytes");
    CHECK(st_arena_push_array_raw(a, uint64_t, (1ull << 61) + 1) == NULL); /* wraps to 8 */
    CHECK_ERROR_HAS("arena 'wrap'");
    CHECK_ERROR_HAS("2305843009213693953 elements of 8 bytes");
    CHECK(st_arena_push_array(a, uint32_t, -1) == NULL); /* a negative count */
    CHECK_ERROR_HAS("arena 'wrap'");
    CHECK_EQ_U(st_arena_pos(a), pos);
    /* The largest count that does not wrap is an ordinary "too big" failure. */
    CHECK(st_arena_push_array(a, uint64_t, UINT64_MAX / 8) == NULL);
    CHECK_ERROR_HAS("arena 'wrap'");
    CHECK(st_arena_push_array(a, Triple, 3) != NULL);
    st_arena_release(a);
}

static void allocator_new_that_wraps(void) {
    Arena *arena = st_arena_create((ArenaParams){.name = "alloc-wrap"});
    REQUIRE_VOID(arena);
    uint64_t pos = st_arena_pos(arena);
    uint64_t n = (SIZE_MAX / sizeof(Triple)) + 2;
    CHECK(st_allocator_new(st_allocator_arena(arena), Triple, n) == NULL);
    CHECK_ERROR_HAS("arena 'alloc-wrap'");
    CHECK_ERROR_HAS("elements of 24 bytes");
    CHECK_EQ_U(st_arena_pos(arena), pos);
    CHECK(st_allocator_new(st_allocator_temp(), Triple, n) == NULL);
    CHECK_ERROR_HAS("arena 'temp'");
    Triple *h = st_allocator_new(st_allocator_system(), Triple, n);
    CHECK(h == NULL);
    CHECK_ERROR_HAS("allocator 'system'");
    if (h) st_allocator_free(st_allocator_system(), h, 32);
    Triple *ok = st_allocator_new(st_allocator_arena(arena), Triple, 2);
    CHECK(ok != NULL && ok[1].c == 0);
    st_arena_release(arena);
}

/* An alignment that is not a power of two made align_up meaningless: misaligned blocks,
   and with a huge one, a start before the cursor (blocks overlapping) or, on the chaining
   path, size + align wrapping to a block too small. Debug builds only asserted. */
static void bad_alignments(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .name = "align"});
    REQUIRE_VOID(a);
    uint8_t *first = st_arena_push(a, 64, 8);
    REQUIRE_VOID(first);
    memset(first, 0xAB, 64);
    const uint64_t bad[] = {3, 24, 4097, UINT64_MAX, UINT64_MAX - 100, (1ull << 63) + 1,
                            1ull << 63, 1ull << 62};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t pos = st_arena_pos(a);
        CHECK(st_arena_push(a, 16, bad[i]) == NULL);
        CHECK(st_arena_push_raw(a, 16, bad[i]) == NULL);
        CHECK_ERROR_HAS("arena 'align'");
        CHECK_ERROR_HAS("alignment");
        CHECK(!st_arena_fits(a, 16, bad[i]));
        CHECK_EQ_U(st_arena_pos(a), pos);
    }
    uint8_t *ok = st_arena_push(a, 16, 1 << 13); /* a power of two above the page still works */
    CHECK(ok != NULL && ((uintptr_t)ok & ((1 << 13) - 1)) == 0);
    for (int i = 0; i < 64; i++) CHECK(first[i] == 0xAB);
    st_arena_release(a);
}

/* commit_size is a page multiple, not always a power of two: growth goes in whole steps. */
static void commit_steps_that_are_not_powers_of_two(void) {
    uint64_t page = st_os_page_size(), step = 3 * page;
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 64 * page, .commit_size = step,
                                          .name = "steps"});
    REQUIRE_VOID(a);
    for (uint64_t want = page; want < 40 * page; want += page) {
        st_arena_push(a, want - st_arena_pos(a), 1);
        uint64_t committed = st_arena_stats(a).committed + 256; /* the root's and the block's headers count */
        if (committed % step != 0) {
            fprintf(stderr, "steps: at %llu used, %llu committed is not a multiple of %llu\n",
                    (unsigned long long)want, (unsigned long long)committed,
                    (unsigned long long)step);
            check_failures_++;
            break;
        }
    }
    st_arena_release(a);
}

int main(void) {
    in_child("st_arena_create with a huge commit_size", create_with_huge_commit);
    in_child("st_arena_create with a huge reserve_size", create_with_huge_reserve);
    in_child("st_arena_push_array that wraps", push_array_that_wraps);
    in_child("st_allocator_new that wraps", allocator_new_that_wraps);
    in_child("pushes at bad alignments", bad_alignments);
    in_child("commit steps", commit_steps_that_are_not_powers_of_two);
    return check_result();
}
