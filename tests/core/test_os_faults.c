/* The fault-injection hook of os_memory.h, and the memory layer under it: every
   reserve or commit that a run of core operations makes is failed in turn, in a forked
   child, and each failure must come back as NULL/false with a message naming the arena,
   never as a crash. The environment form (STRATA_OS_FAIL_AFTER, STRATA_OS_COUNT) is checked on a
   re-executed copy of this program, since it is read once before main. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include <strata/core/allocator.h>
#include <strata/core/arena.h>
#include <strata/core/chunk_list.h>
#include <strata/core/list.h>
#include <strata/core/os_memory.h>
#include <strata/core/virtual_array.h>

/* This thread's last arena refusal, as a module would quote it (st_arena_error). */
static const char *last_refusal(void) {
    static Error e;
    st_error_clear(&e);
    st_arena_error(&e);
    return e.message;
}

/* NULL: the push went to a scratch arena that could not be created ("arena (none)"). */
static bool error_names(const char *arena) {
    char want[64];
    snprintf(want, sizeof want, arena ? "arena '%s'" : "arena (none)", arena);
    if (strstr(last_refusal(), want)) return true;
    fprintf(stderr, "expected a message naming %s, found \"%s\"\n", want, last_refusal());
    return false;
}

static void test_hook(void) {
    uint64_t before = st_os_debug_memory_calls();
    Arena *a = st_arena_create((ArenaParams){.name = "counted"});
    REQUIRE_VOID(a);
    CHECK_EQ_U(st_os_debug_memory_calls() - before, 2); /* one reserve, one commit */

    st_os_debug_fail_after(1); /* the reserve */
    CHECK(st_arena_create((ArenaParams){.name = "no-reserve"}) == NULL);
    CHECK(error_names("no-reserve"));
    CHECK(strstr(last_refusal(), "refused to reserve") != NULL);
    st_os_debug_fail_after(2); /* the first commit */
    CHECK(st_arena_create((ArenaParams){.name = "no-commit"}) == NULL);
    CHECK(error_names("no-commit"));
    CHECK(strstr(last_refusal(), "refused to commit") != NULL);
    /* One call only: the next one succeeds again. */
    Arena *b = st_arena_create((ArenaParams){.name = "again"});
    CHECK(b != NULL);
    /* 0 cancels. */
    st_os_debug_fail_after(1);
    st_os_debug_fail_after(0);
    Arena *c = st_arena_create((ArenaParams){.name = "cancelled"});
    CHECK(c != NULL);
    st_arena_release(c);
    /* Sticky: every call from the n-th on fails, until cancelled. */
    st_os_debug_fail_from(2);
    CHECK(st_arena_create((ArenaParams){.name = "from-1"}) == NULL);
    CHECK(error_names("from-1"));
    CHECK(st_arena_create((ArenaParams){.name = "from-2"}) == NULL);
    CHECK(error_names("from-2"));
    CHECK(strstr(last_refusal(), "refused to reserve") != NULL);
    st_os_debug_fail_from(0);
    c = st_arena_create((ArenaParams){.name = "from-cancelled"});
    CHECK(c != NULL);
    st_arena_release(c);
    st_arena_release(b);
    st_arena_release(a);
}

/* Core operations that make OS calls: create, grow the commit, chain, scratch, temp,
   virtual array. Each step either succeeds or fails with NULL/false and a message naming
   its arena; the scenario goes on after a failure, as a game would. Returns how many
   steps failed. */
static int scenario(void) {
    int failed = 0;
#define STEP(ok, arena)                       \
    do {                                      \
        if (!(ok)) {                          \
            failed++;                         \
            CHECK(error_names(arena));        \
        }                                     \
    } while (0)
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 256 << 10, .name = "sweep"});
    STEP(a, "sweep");
    if (a) {
        uint8_t *big = st_arena_push(a, 200 << 10, 16); /* grows the commit */
        STEP(big, "sweep");
        if (big) big[(200 << 10) - 1] = 1;
        uint8_t *chained = st_arena_push(a, 100 << 10, 16); /* chains a block */
        STEP(chained, "sweep");
        if (chained) chained[0] = 1;
        List l = st_list_make(sizeof(uint64_t), st_allocator_arena(a));
        for (int i = 0; i < 50000; i++) {
            uint64_t *v = st_list_add(&l);
            STEP(v, "sweep");
            if (!v) break;
            *v = (uint64_t)i;
        }
        ChunkList cl;
        st_chunk_list_init(&cl, a, 64, 1024);
        for (int i = 0; i < 3000; i++) {
            void *s = st_chunk_list_push(&cl);
            STEP(s, "sweep");
            if (!s) break;
        }
        st_arena_release(a);
    }
    {
        SCRATCH_SCOPE(tmp);
        uint8_t *s = st_arena_push(tmp.arena, 1 << 20, 16);
        STEP(s, tmp.arena ? "scratch" : NULL);
        if (s) s[(1 << 20) - 1] = 1;
    }
    uint8_t *t = st_allocator_new(st_allocator_temp(), uint8_t, 300 << 10);
    STEP(t, "temp");
    st_allocator_temp_reset();
    VirtualArray va;
    if (st_virtual_array_init(&va, 8, 1 << 20)) {
        if (!st_virtual_array_push_n(&va, 20000)) failed++; /* it reports on stderr itself */
        st_virtual_array_release(&va);
    } else {
        failed++;
    }
#undef STEP
    return failed;
}

static void test_sweep_core(void) {
    /* Count in a child, so the parent's own scratch and temp arenas stay uncreated. */
    int fds[2];
    REQUIRE_VOID(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        uint64_t before = st_os_debug_memory_calls();
        int failed = scenario();
        uint64_t calls = st_os_debug_memory_calls() - before;
        ssize_t w = write(fds[1], &calls, sizeof calls);
        _exit(failed == 0 && w == sizeof calls && !check_failures_ ? 0 : 1);
    }
    uint64_t calls = 0;
    close(fds[1]);
    CHECK(read(fds[0], &calls, sizeof calls) == sizeof calls);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(calls >= 8);
    uint32_t clean = 0;
    for (uint64_t n = 1; n <= calls; n++) {
        fflush(stderr);
        pid = fork();
        if (pid == 0) {
            check_failures_ = 0; /* the parent's, inherited: judge this run alone */
            uint64_t before = st_os_debug_memory_calls();
            st_os_debug_fail_after(n);
            int failed = scenario();
            /* A failure may be absorbed (st_list_add retries with the exact size), so it need
               not surface; but the failing call must have been made, and no check broke. */
            fprintf(stderr, "  (%d step(s) failed)\n", failed);
            _exit(check_failures_ ? 2 : st_os_debug_memory_calls() - before < n ? 3 : 0);
        }
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "core sweep: memory call %llu of %llu: %s %d\n", (unsigned long long)n,
                    (unsigned long long)calls, WIFSIGNALED(status) ? "signal" : "exit status",
                    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            check_failures_++;
        } else {
            clean++;
        }
    }
    fprintf(stderr, "core sweep: %llu memory calls, %u runs with one failing, all clean\n",
            (unsigned long long)calls, clean);
}

/* Started by test_env with STRATA_OS_FAIL_AFTER=2 STRATA_OS_COUNT=1 STRATA_ARENA_COMMIT=<2 pages>:
   the first arena's commit (call 2) fails, the second arena is fine and commits two pages
   at a time (its 128-byte header included), and the count is printed at exit. */
static int env_child(void) {
    uint64_t step = 2 * st_os_page_size();
    Arena *a = st_arena_create((ArenaParams){.name = "env-first"});
    Arena *b = st_arena_create((ArenaParams){.name = "env-second"});
    int rc = !a && b && st_arena_stats(b).committed == step - 128 ? 0 : 1;
    if (b && (!st_arena_push(b, step, 8) || st_arena_stats(b).committed != 2 * step - 128)) rc = 1;
    st_arena_release(b);
    return rc;
}

static void test_env(void) {
    int fds[2];
    REQUIRE_VOID(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        setenv("STRATA_OS_FAIL_AFTER", "2", 1);
        setenv("STRATA_OS_COUNT", "1", 1);
        char step[32];
        snprintf(step, sizeof step, "%llu", (unsigned long long)(2 * st_os_page_size()));
        setenv("STRATA_ARENA_COMMIT", step, 1);
        execl("/proc/self/exe", "test_os_faults", "env-child", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char out[4096];
    size_t got = 0;
    ssize_t n;
    while (got < sizeof out - 1 && (n = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
        got += (size_t)n;
    out[got] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(strstr(out, "os: injected failure of memory call 2 (st_os_commit of") != NULL);
    CHECK(strstr(out, "arena 'env-first': the OS refused to commit") != NULL);
    CHECK(strstr(out, "os: 5 memory calls (reserve + commit)") != NULL);
    if (check_failures_) fprintf(stderr, "env child said:\n%s", out);
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "env-child")) return env_child();
    test_hook();
    test_sweep_core();
    test_env();
    return check_result();
}
