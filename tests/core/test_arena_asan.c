/* Under AddressSanitizer, memory past the cursor is poisoned: reading through a pointer
   kept across a rewind must be reported. The read happens in a child process, which has
   to die with an ASan report; the parent checks both. */
#include <stdio.h>
#include <string.h>
#if !defined(_WIN32) /* the child is forked; mingw has no AddressSanitizer either */
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "check.h"
#include <strata/core/arena.h>

#if !defined(__SANITIZE_ADDRESS__) || defined(_WIN32)
int main(void) {
    printf("test_arena_asan: skipped, this build has no AddressSanitizer\n");
    return 77;
}
#else
typedef enum { AFTER_POP_TO, AFTER_CLEAR, PAST_END, CLEAN } Misuse;

static volatile int sink;

static int child(Misuse m) {
    Arena *a = st_arena_create((ArenaParams){.name = "poison"});
    uint64_t mark = st_arena_pos(a);
    char *p = st_arena_push(a, 100, 8);
    switch (m) {
    case AFTER_POP_TO: st_arena_pop_to(a, mark); sink = p[10]; break;
    case AFTER_CLEAR: st_arena_clear(a); sink = p[0]; break;
    case PAST_END: sink = p[104]; break; /* beyond the allocation, past ASan's 8-byte granule */
    case CLEAN: sink = p[99]; st_arena_release(a); break;
    }
    return 0;
}

/* Runs child(m) with stderr captured; returns its exit status and fills `report`. */
static int run(Misuse m, char *report, size_t cap) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        _exit(child(m));
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fds[0], report + n, cap - 1 - n)) > 0) n += (size_t)r;
    report[n] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

int main(void) {
    static char report[1 << 16];
    Misuse bad[] = {AFTER_POP_TO, AFTER_CLEAR, PAST_END};
    for (int i = 0; i < 3; i++) {
        int status = run(bad[i], report, sizeof report);
        CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));
        CHECK(strstr(report, "AddressSanitizer: use-after-poison") != NULL);
    }
    int status = run(CLEAN, report, sizeof report);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(strstr(report, "AddressSanitizer") == NULL);

    /* Addresses given back to the OS carry no poison into the next mapping: map the same
       range again and read what used to be past the cursor. A leftover poison would kill
       this process with a report. */
    Arena *a = st_arena_create((ArenaParams){.name = "remap", .reserve_size = 1 << 20});
    char *base = (char *)a;
    st_arena_push(a, 1000, 8);
    st_arena_clear(a);
    st_arena_release(a);
    char *m = mmap(base, 1 << 16, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    CHECK(m == base);
    if (m == base) {
        int sum = 0;
        for (int i = 0; i < 1 << 16; i += 8) sum += m[i];
        CHECK(sum == 0);
        munmap(m, 1 << 16);
    }
    return check_result();
}
#endif
