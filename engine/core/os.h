/* os.h - the few operating-system services the memory layer stands on.

   Address space is reserved without cost, then committed page by page as it is used:

       void *p = os_reserve(1ull << 30);        // 1 GiB of addresses, no memory yet
       if (p && os_commit(p, 64 << 10)) ...     // now 64 KiB are usable (and zero)
       os_release(p, 1ull << 30);

   POSIX uses mmap/mprotect/madvise/munmap; Windows uses VirtualAlloc/VirtualFree. Every
   call reports failure instead of hiding it; the arena turns a failure into a message. */
#ifndef OS_H
#define OS_H

#include <stdbool.h>
#include <stdint.h>

uint64_t os_page_size(void);
void *os_reserve(uint64_t size);          /* NULL when refused; no physical memory yet */
bool os_commit(void *p, uint64_t size);   /* false when refused; fresh pages read as zero */
void os_decommit(void *p, uint64_t size); /* gives the pages back; they read as zero later */
void os_release(void *p, uint64_t size);  /* size: what was reserved */

/* Resident memory of this process in bytes (0 where the OS will not say). For tests and
   reports; makes no heap allocation. */
uint64_t os_resident_bytes(void);

/* Test hook: the next `count` calls to os_commit fail as if the OS refused, so the error
   paths above it can be exercised. Not for production use. */
void os_debug_fail_commits(uint32_t count);

#endif
