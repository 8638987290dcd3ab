/* os_memory.h - the operating-system memory services the arena stands on.

   Address space is reserved without cost, then committed page by page as it is used:

       void *p = st_os_reserve(1ull << 30);        // 1 GiB of addresses, no memory yet
       if (p && st_os_commit(p, 64 << 10)) ...     // now 64 KiB are usable (and zero)
       st_os_release(p, 1ull << 30);

   POSIX uses mmap/mprotect/madvise/munmap; Windows uses VirtualAlloc/VirtualFree. Every
   call reports failure instead of hiding it; the arena turns a failure into a message.

   WebAssembly (emscripten) has no virtual memory: one linear memory in 64 KiB pages that
   grows and never shrinks. A "reservation" there is memory taken at once (emscripten's
   mmap is a zeroed, page-aligned malloc; a 64 MiB PROT_NONE reserve grows the heap by
   64 MiB), st_os_commit has nothing left to do and a release only returns the block to the
   allocator for reuse. So the arena asks st_os_reserve_limit() and, on the web, reserves
   small blocks and relies on chaining (an ARENA_FLAG_NO_CHAIN arena still gets exactly its
   capacity), and counts a block as committed whole when st_os_reserve_commits() says so.

   This module sits BELOW the arena: of the engine it includes only core/diag.h (which
   includes nothing), and arena.c, allocator.c and virtual_array.c include it. Files, which
   need an arena to read into, are the module above the arena, os_file.h. */
#ifndef OS_MEMORY_H
#define OS_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint64_t st_os_page_size(void);
void *st_os_reserve(uint64_t size);          /* NULL when refused; no physical memory yet */
bool st_os_commit(void *p, uint64_t size);   /* false when refused; fresh pages read as zero */
void st_os_decommit(void *p, uint64_t size); /* gives the pages back; they read as zero later */
void st_os_release(void *p, uint64_t size);  /* size: what was reserved */

/* The largest block a chaining arena should reserve at once: UINT64_MAX where address
   space is free (reserve what you like), OS_WEB_BLOCK_BYTES on the web, where every
   reserved byte is memory the page keeps. */
#define OS_WEB_BLOCK_BYTES (1ull << 20)
uint64_t st_os_reserve_limit(void);
/* True where a reservation is already memory (the web): what is reserved is committed. */
bool st_os_reserve_commits(void);

/* Resident memory of this process in bytes (0 where the OS will not say; on the web the
   size of the wasm memory, which is all the page holds). For tests and reports; makes no
   heap allocation. */
uint64_t st_os_resident_bytes(void);

/* Test hook: the next `count` calls to st_os_commit fail as if the OS refused, so the error
   paths above it can be exercised. Not for production use. */
void st_os_debug_fail_commits(uint32_t count);
/* Test hook: how many reservations (st_os_reserve calls, each one a mapping) this process has
   asked for, so a test can see mapping churn that leaves no other trace. */
uint64_t st_os_debug_reserve_count(void);
/* Test hooks for fault injection. Every st_os_reserve and st_os_commit is one "memory call",
   numbered from 1 in the order the process makes them. st_os_debug_fail_after(n) makes the
   n-th memory call from now fail as if the OS refused (1: the next one; 0: cancel); that
   one call only, the ones after it succeed again. The injected failure is announced in a
   note (core/diag.h: stderr by default), "os: injected failure of memory call 12 (st_os_commit
   of 65536 bytes)".
   st_os_debug_fail_from(n) is the same but sticky: that call and every one after it fail
   (the OS has run out for good). Either call replaces what the other set.
   The same from outside, read once before main, for sweeping a whole program:
       STRATA_OS_FAIL_AFTER=n   the n-th memory call of the process fails
       STRATA_OS_FAIL_FROM=n    the n-th memory call and all later ones fail
       STRATA_OS_COUNT=1        note "os: N memory calls (reserve + commit)" at exit (stderr)
   Always compiled: the cost is one atomic add per reserve or commit, which are system
   calls anyway and never on the push fast path. */
void st_os_debug_fail_after(uint64_t n);
void st_os_debug_fail_from(uint64_t n);
uint64_t st_os_debug_memory_calls(void); /* reserve + commit calls so far */

#endif
