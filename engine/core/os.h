/* os.h - the few operating-system services the memory layer stands on.

   Address space is reserved without cost, then committed page by page as it is used:

       void *p = os_reserve(1ull << 30);        // 1 GiB of addresses, no memory yet
       if (p && os_commit(p, 64 << 10)) ...     // now 64 KiB are usable (and zero)
       os_release(p, 1ull << 30);

   POSIX uses mmap/mprotect/madvise/munmap; Windows uses VirtualAlloc/VirtualFree. Every
   call reports failure instead of hiding it; the arena turns a failure into a message.

   Whole files are read into an arena and written in one piece, with plain open/read/write
   (stdio would put its buffer on the heap):

       Str8 text;
       OsReadResult r = os_read_file(scratch, "levels/01.lvl", 1 << 20, &text);
       if (r.status != OS_READ_OK) {
           char why[256];
           fprintf(stderr, "levels/01.lvl: %s\n", os_read_describe(r, why, sizeof why));
       }
       if (!os_write_file_atomic("save/progress", text.data, text.len, msg, sizeof msg)) ...

   The file functions are POSIX only for now: on Windows they are not compiled. */
#ifndef OS_H
#define OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/str8.h"

uint64_t os_page_size(void);
void *os_reserve(uint64_t size);          /* NULL when refused; no physical memory yet */
bool os_commit(void *p, uint64_t size);   /* false when refused; fresh pages read as zero */
void os_decommit(void *p, uint64_t size); /* gives the pages back; they read as zero later */
void os_release(void *p, uint64_t size);  /* size: what was reserved */

/* Resident memory of this process in bytes (0 where the OS will not say). For tests and
   reports; makes no heap allocation. */
uint64_t os_resident_bytes(void);

/* ---- Files ---------------------------------------------------------------------------- */

typedef enum OsReadStatus {
    OS_READ_OK,
    OS_READ_CANNOT_OPEN,    /* open failed: `error` holds errno (ENOENT: no such file) */
    OS_READ_CANNOT_EXAMINE, /* fstat failed: `error` holds errno */
    OS_READ_DIRECTORY,
    OS_READ_SPECIAL,        /* a device, FIFO or socket: refused before it can block */
    OS_READ_TOO_LARGE,      /* more than max_bytes: `size` holds the file's size */
    OS_READ_NO_MEMORY,      /* the arena refused the buffer: arena_last_error() says why */
    OS_READ_CANNOT_READ,    /* read failed: `error` holds errno */
} OsReadStatus;

typedef struct OsReadResult {
    OsReadStatus status;
    int error;     /* errno, for the statuses that say so; else 0 */
    uint64_t size; /* the file's size as fstat saw it, once known */
} OsReadResult;

/* Reads the whole regular file at `path` into `a`. On OS_READ_OK *out holds the bytes,
   followed by a NUL that `len` does not count (so the text may go to C string functions
   when it holds no NUL of its own); otherwise *out is {NULL, 0} and the buffer, if one
   was pushed, is left in `a` for the caller's scope to rewind. A file that shrinks while
   it is read gives what was there; one that grows gives its first fstat-size bytes. */
OsReadResult os_read_file(Arena *a, const char *path, uint64_t max_bytes, Str8 *out);
/* A lower-case phrase for a failed read, for "path: <phrase>" messages:
   "cannot open: No such file or directory", "not a regular file (a directory)", ...
   Written into buf (and returned). */
const char *os_read_describe(OsReadResult r, char *buf, size_t cap);

/* write(2) until all n bytes are written, retrying on EINTR. False with errno set (EIO
   when the OS wrote nothing without saying why). */
bool os_write_all(int fd, const void *p, uint64_t n);

/* Replaces the file at `path` with n bytes, so that a crash leaves the old file or the new
   one whole, never a mix: writes "<path>.tmp", fsyncs it, renames it over `path`, then
   fsyncs the directory (the rename is durable only then). The directory must exist. False
   with "path: cannot write: reason" in msg; the old file is then untouched and no
   temporary is left behind. */
bool os_write_file_atomic(const char *path, const void *p, uint64_t n, char *msg, size_t msg_cap);

/* Test hook: the next `count` calls to os_commit fail as if the OS refused, so the error
   paths above it can be exercised. Not for production use. */
void os_debug_fail_commits(uint32_t count);
/* Test hook: how many reservations (os_reserve calls, each one a mapping) this process has
   asked for, so a test can see mapping churn that leaves no other trace. */
uint64_t os_debug_reserve_count(void);
/* Test hooks for fault injection. Every os_reserve and os_commit is one "memory call",
   numbered from 1 in the order the process makes them. os_debug_fail_after(n) makes the
   n-th memory call from now fail as if the OS refused (1: the next one; 0: cancel); that
   one call only, the ones after it succeed again. The injected failure is announced on
   stderr ("os: injected failure of memory call 12 (os_commit of 65536 bytes)").
   os_debug_fail_from(n) is the same but sticky: that call and every one after it fail
   (the OS has run out for good). Either call replaces what the other set.
   The same from outside, read once before main, for sweeping a whole program:
       AD_OS_FAIL_AFTER=n   the n-th memory call of the process fails
       AD_OS_FAIL_FROM=n    the n-th memory call and all later ones fail
       AD_OS_COUNT=1        print "os: N memory calls (reserve + commit)" on stderr at exit
   Always compiled: the cost is one atomic add per reserve or commit, which are system
   calls anyway and never on the push fast path. */
void os_debug_fail_after(uint64_t n);
void os_debug_fail_from(uint64_t n);
uint64_t os_debug_memory_calls(void); /* reserve + commit calls so far */

#endif
