/* The fault-injection hook of os_memory.h, and the memory layer under it: every
   reserve or commit that a run of core operations makes is failed in turn, in a forked
   child, and each failure must come back as NULL/false with a message naming the arena,
   never as a crash. The environment form (STRATA_OS_FAIL_AFTER, STRATA_OS_COUNT) is checked on a
   re-executed copy of this program, since it is read once before main. Windows has no
   fork: there each child is this program again (_spawnl), told what to run by its
   arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#include <process.h> /* _spawnl */
#include <windows.h>
#undef ERROR_NOT_FOUND /* winerror.h's: core/error.h's is meant */
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "check.h"
#include <strata/core/allocator.h>
#include <strata/core/arena.h>
#include <strata/core/chunk_list.h>
#include <strata/core/diag.h>
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

static bool error_names(const char *arena) {
    char want[64];
    snprintf(want, sizeof want, "arena '%s'", arena);
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
        STEP(s, "scratch");
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

/* The sweep's child, with the n-th memory call failing: 0 when it came back clean. */
static int sweep_child(uint64_t n) {
    check_failures_ = 0; /* the parent's, inherited: judge this run alone */
    uint64_t before = st_os_debug_memory_calls();
    st_os_debug_fail_after(n);
    int failed = scenario();
    /* A failure may be absorbed (st_list_add retries with the exact size), so it need
       not surface; but the failing call must have been made, and no check broke. */
    fprintf(stderr, "  (%d step(s) failed)\n", failed);
    return check_failures_ ? 2 : st_os_debug_memory_calls() - before < n ? 3 : 0;
}

#if defined(_WIN32)
/* This program again, running `mode` with n; its exit status (-1: it did not start). */
static int run_self(const char *mode, uint64_t n) {
    char exe[MAX_PATH], arg[32];
    if (GetModuleFileNameA(NULL, exe, sizeof exe) >= sizeof exe) return -1;
    snprintf(arg, sizeof arg, "%llu", (unsigned long long)n);
    fflush(stderr);
    return (int)_spawnl(_P_WAIT, exe, "test_os_faults", mode, arg, NULL);
}

/* The clean run's child: its exit status is the number of memory calls (0: it failed). */
static int count_child(void) {
    uint64_t before = st_os_debug_memory_calls();
    int failed = scenario();
    uint64_t calls = st_os_debug_memory_calls() - before;
    return failed == 0 && !check_failures_ ? (int)calls : 0;
}

static uint64_t count_calls(void) {
    int calls = run_self("count-child", 0);
    CHECK(calls > 0);
    return calls > 0 ? (uint64_t)calls : 0;
}

static int sweep_one(uint64_t n, bool *signalled) {
    *signalled = false;
    return run_self("sweep-child", n);
}
#else
static uint64_t count_calls(void) {
    /* Count in a child, so the parent's own scratch and temp arenas stay uncreated. */
    int fds[2];
    if (pipe(fds) != 0) return 0;
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
    return calls;
}

/* The exit status of a forked sweep_child(n), or the signal that ended it. */
static int sweep_one(uint64_t n, bool *signalled) {
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) _exit(sweep_child(n));
    int status = 0;
    waitpid(pid, &status, 0);
    *signalled = WIFSIGNALED(status);
    return WIFSIGNALED(status) ? WTERMSIG(status) : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
#endif

/* Errors reported while a test listens (core/diag.h's sink), the last one's text kept. */
static int reports;
static char last_report[256];
static void count_report(void *state, const Diag *d) {
    (void)state;
    if (d->level != DIAG_ERROR) return;
    reports++;
    snprintf(last_report, sizeof last_report, "%s", d->message);
}

/* The OS out of memory for good: an arena's refusals are reported once, each push still
   fails with its message for st_arena_error, and once a push succeeds again the next
   refusal is reported again. */
static void test_refusal_reported_once(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "spent", .commit_size = 4096});
    REQUIRE_VOID(a);
    DiagSink old = st_diag_set_sink((DiagSink){count_report, NULL});
    CHECK(st_arena_push(a, 3000, 8) != NULL); /* the committed page filled */
    reports = 0;
    st_os_debug_fail_from(1);
    int refused = 0;
    for (int i = 0; i < 100; i++) refused += st_arena_push(a, 3000, 8) == NULL;
    st_os_debug_fail_after(0);
    CHECK_EQ_I(refused, 100);
    CHECK_EQ_I(reports, 1);
    CHECK(strstr(last_report, "arena 'spent': the OS refused to commit") != NULL);
    CHECK(error_names("spent")); /* every refusal still has its words */
    CHECK(st_arena_push(a, 3000, 8) != NULL); /* the OS is back */
    st_os_debug_fail_from(1);
    CHECK(st_arena_push(a, 8000, 8) == NULL);
    st_os_debug_fail_after(0);
    CHECK_EQ_I(reports, 2);
    st_diag_set_sink(old);
    st_arena_release(a);
}

static void test_sweep_core(void) {
    uint64_t calls = count_calls();
    CHECK(calls >= 8);
    uint32_t clean = 0;
    for (uint64_t n = 1; n <= calls; n++) {
        bool signalled;
        int status = sweep_one(n, &signalled);
        if (status != 0) {
            fprintf(stderr, "core sweep: memory call %llu of %llu: %s %d\n", (unsigned long long)n,
                    (unsigned long long)calls, signalled ? "signal" : "exit status", status);
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
   at a time (its 256 bytes of headers included), and the count is printed at exit. */
static int env_child(void) {
    uint64_t step = 2 * st_os_page_size();
    Arena *a = st_arena_create((ArenaParams){.name = "env-first"});
    Arena *b = st_arena_create((ArenaParams){.name = "env-second"});
    int rc = !a && b && st_arena_stats(b).committed == step - 256 ? 0 : 1;
    if (b && (!st_arena_push(b, step, 8) || st_arena_stats(b).committed != 2 * step - 256)) rc = 1;
    st_arena_release(b);
    return rc;
}

#if defined(_WIN32)
/* The env child's stderr, through a file (no pipe to fork across); its exit status. */
static int env_run(char *out, size_t cap) {
    char step[32];
    snprintf(step, sizeof step, "%llu", (unsigned long long)(2 * st_os_page_size()));
    _putenv_s("STRATA_OS_FAIL_AFTER", "2"), _putenv_s("STRATA_OS_COUNT", "1");
    _putenv_s("STRATA_ARENA_COMMIT", step);
    const char *path = "test_os_faults_env.txt";
    int fd = _open(path, _O_CREAT | _O_TRUNC | _O_RDWR | _O_BINARY, 0600);
    if (fd < 0) return -1;
    fflush(stderr);
    int saved = _dup(2);
    _dup2(fd, 2);
    int rc = run_self("env-child", 0);
    _dup2(saved, 2), _close(saved);
    _putenv_s("STRATA_OS_FAIL_AFTER", ""), _putenv_s("STRATA_OS_COUNT", ""), _putenv_s("STRATA_ARENA_COMMIT", "");
    int got = _lseek(fd, 0, SEEK_SET) == 0 ? _read(fd, out, (unsigned)cap - 1) : 0;
    out[got > 0 ? got : 0] = 0;
    _close(fd);
    remove(path);
    return rc;
}
#else
static int env_run(char *out, size_t cap) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
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
    size_t got = 0;
    ssize_t n;
    while (got < cap - 1 && (n = read(fds[0], out + got, cap - 1 - got)) > 0)
        got += (size_t)n;
    out[got] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
#endif

static void test_env(void) {
    char out[4096];
    CHECK_EQ_I(env_run(out, sizeof out), 0);
    CHECK(strstr(out, "os: injected failure of memory call 2 (st_os_commit of") != NULL);
    CHECK(strstr(out, "arena 'env-first': the OS refused to commit") != NULL);
    CHECK(strstr(out, "os: 5 memory calls (reserve + commit)") != NULL);
    if (check_failures_) fprintf(stderr, "env child said:\n%s", out);
}


int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "env-child")) return env_child();
    if (argc > 2 && !strcmp(argv[1], "sweep-child")) return sweep_child(strtoull(argv[2], NULL, 10));
#if defined(_WIN32)
    if (argc > 1 && !strcmp(argv[1], "count-child")) return count_child();
#endif
    test_hook();
    test_refusal_reported_once();
    test_sweep_core();
    test_env();
    return check_result();
}
