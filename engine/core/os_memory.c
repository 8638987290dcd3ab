/* os_memory.c - reserve/commit/release of address space, on mmap (POSIX) or VirtualAlloc
   (Windows), the resident-memory reading the tests use, and the fault-injection hooks.
   Everything the OS refuses is reported to the caller; nothing here allocates from the heap. */
#include <strata/core/os_memory.h>

#include <strata/core/diag.h>

#include <stdatomic.h>
#include <stdlib.h>

static atomic_uint os_fail_commits;
static atomic_uint_least64_t os_reserves;
/* Every st_os_reserve and st_os_commit is one numbered memory call (1, 2, ...); os_fail_at is
   the number of the one the fault-injection hook fails (0: none). */
static atomic_uint_least64_t os_memory_calls;
static atomic_uint_least64_t os_fail_at;
static atomic_bool os_fail_sticky; /* every call from os_fail_at on fails, not just that one */

void st_os_debug_fail_commits(uint32_t count) { atomic_store(&os_fail_commits, count); }

uint64_t st_os_debug_reserve_count(void) { return atomic_load(&os_reserves); }

uint64_t st_os_debug_memory_calls(void) { return atomic_load(&os_memory_calls); }

void st_os_debug_fail_after(uint64_t n) {
    atomic_store(&os_fail_sticky, false);
    atomic_store(&os_fail_at, n ? atomic_load(&os_memory_calls) + n : 0);
}

void st_os_debug_fail_from(uint64_t n) {
    atomic_store(&os_fail_at, 0);
    atomic_store(&os_fail_sticky, n != 0);
    atomic_store(&os_fail_at, n ? atomic_load(&os_memory_calls) + n : 0);
}

static void os_debug_print_count(void) {
    st_diag_report(DIAG_NOTE, "os: %llu memory calls (reserve + commit)",
                   (unsigned long long)atomic_load(&os_memory_calls));
}

/* The environment is read once, before main, so a whole program can be swept from outside
   (tests/game/fault_sweep.sh) without the hot path ever calling getenv. */
__attribute__((constructor)) static void os_debug_read_env(void) {
    const char *once = getenv("STRATA_OS_FAIL_AFTER"), *from = getenv("STRATA_OS_FAIL_FROM");
    char *end;
    if (once && *once) {
        unsigned long long n = strtoull(once, &end, 10);
        if (*end == 0) st_os_debug_fail_after(n);
    }
    if (from && *from) {
        unsigned long long n = strtoull(from, &end, 10);
        if (*end == 0) st_os_debug_fail_from(n);
    }
    const char *count = getenv("STRATA_OS_COUNT");
    if (count && *count && *count != '0') atexit(os_debug_print_count);
}

/* Counts one memory call; true when the fault-injection hook says it must fail. The call
   that fails is named in a note (core/diag.h), so a report can be traced back to the
   injected fault. */
static bool os_memory_call_fails(const char *what, uint64_t size) {
    uint64_t n = atomic_fetch_add(&os_memory_calls, 1) + 1, at = atomic_load(&os_fail_at);
    if (!at || (atomic_load(&os_fail_sticky) ? n < at : n != at)) return false;
    st_diag_report(DIAG_NOTE, "os: injected failure of memory call %llu (%s of %llu bytes)", (unsigned long long)n,
                   what, (unsigned long long)size);
    return true;
}

/* True when the test hook says this commit must fail; consumes one failure. */
static bool os_commit_should_fail(void) {
    unsigned n = atomic_load(&os_fail_commits);
    while (n > 0) {
        if (atomic_compare_exchange_weak(&os_fail_commits, &n, n - 1)) return true;
    }
    return false;
}

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <psapi.h>

uint64_t st_os_page_size(void) {
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return info.dwPageSize;
}

void *st_os_reserve(uint64_t size) {
    atomic_fetch_add(&os_reserves, 1);
    if (os_memory_call_fails("st_os_reserve", size)) return NULL;
    if (size > (uint64_t)SIZE_MAX) return NULL;
    return VirtualAlloc(NULL, (SIZE_T)size, MEM_RESERVE, PAGE_NOACCESS);
}

bool st_os_commit(void *p, uint64_t size) {
    if (os_memory_call_fails("st_os_commit", size) || os_commit_should_fail()) return false;
    return VirtualAlloc(p, (SIZE_T)size, MEM_COMMIT, PAGE_READWRITE) != NULL;
}

void st_os_decommit(void *p, uint64_t size) { VirtualFree(p, (SIZE_T)size, MEM_DECOMMIT); }

void st_os_release(void *p, uint64_t size) {
    (void)size; /* MEM_RELEASE frees the whole reservation and requires size 0 */
    VirtualFree(p, 0, MEM_RELEASE);
}

uint64_t st_os_reserve_limit(void) { return UINT64_MAX; }

bool st_os_reserve_commits(void) { return false; }

uint64_t st_os_resident_bytes(void) {
    PROCESS_MEMORY_COUNTERS pmc;
    if (!K32GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc)) return 0;
    return pmc.WorkingSetSize;
}

#else
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

uint64_t st_os_page_size(void) {
    long n = sysconf(_SC_PAGESIZE);
    return n > 0 ? (uint64_t)n : 4096;
}

void *st_os_reserve(uint64_t size) {
    atomic_fetch_add(&os_reserves, 1);
    if (os_memory_call_fails("st_os_reserve", size)) return NULL;
    if (size == 0 || size > (uint64_t)SIZE_MAX / 2) return NULL;
    /* PROT_NONE + NORESERVE: addresses only, no commit charge until st_os_commit. */
    void *p = mmap(NULL, (size_t)size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

bool st_os_commit(void *p, uint64_t size) {
    if (os_memory_call_fails("st_os_commit", size) || os_commit_should_fail()) return false;
    return mprotect(p, (size_t)size, PROT_READ | PROT_WRITE) == 0;
}

void st_os_decommit(void *p, uint64_t size) {
    /* DONTNEED drops the pages now; PROT_NONE makes a stray access fault instead of
       silently re-faulting zero pages in. */
    madvise(p, (size_t)size, MADV_DONTNEED);
    mprotect(p, (size_t)size, PROT_NONE);
}

void st_os_release(void *p, uint64_t size) { munmap(p, (size_t)size); }

#if defined(__EMSCRIPTEN__)
#include <emscripten/heap.h>

/* mmap above is emscripten's: memory taken now, zeroed, in 64 KiB pages; mprotect is a
   no-op and munmap gives the block back to malloc (the wasm memory itself never shrinks).
   Reserving big and committing as the cursor moves would cost the whole reservation up
   front, so arenas reserve small blocks here and chain. */
uint64_t st_os_reserve_limit(void) { return OS_WEB_BLOCK_BYTES; }

bool st_os_reserve_commits(void) { return true; }

/* All the page holds is the wasm memory: its size is what this program costs. */
uint64_t st_os_resident_bytes(void) { return (uint64_t)emscripten_get_heap_size(); }
#else
uint64_t st_os_reserve_limit(void) { return UINT64_MAX; }

bool st_os_reserve_commits(void) { return false; }

uint64_t st_os_resident_bytes(void) {
    /* statm: "size resident shared ..." in pages. read(2), not stdio, so no heap. */
    char buf[128];
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    const char *s = buf;
    while (*s && *s != ' ') s++;
    uint64_t pages = 0;
    while (*s == ' ') s++;
    while (*s >= '0' && *s <= '9') pages = pages * 10 + (uint64_t)(*s++ - '0');
    return pages * st_os_page_size();
}
#endif
#endif
