/* heap_count.h - counts this test program's calls to the C heap, SDL's and libc's own
   included: it defines malloc and its kin in the executable, which the dynamic linker
   prefers to libc's, and they forward to glibc's __libc_* entry points. Include it in one
   source file of a test program (it defines functions), then:

       heap_calls = 0;
       heap_counting = 1;              // on from the start; a test may turn it off and on
       ... the code that must not touch the heap ...
       CHECK_EQ_U(heap_calls, 0);

   With heap_record_callers set, each counted call also records its caller's return address
   (up to HEAP_CALLERS_MAX, from any thread), so a test can say WHOSE call it was: dladdr on
   the addresses afterwards (not inside malloc) names the executable or library.

   Under AddressSanitizer, which owns malloc (two interposers cannot both win), it defines
   nothing and HEAP_COUNT is 0: the test skips what it would count, or is not built. So on
   Windows, where a program's malloc does not replace msvcrt's for the DLLs. */
#ifndef HEAP_COUNT_H
#define HEAP_COUNT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__) || defined(_WIN32) /* Windows: no interposing msvcrt's malloc */
#define HEAP_COUNT 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_COUNT 0
#endif
#endif
#ifndef HEAP_COUNT
#define HEAP_COUNT 1
#endif

/* malloc, calloc, realloc and the aligned ones: every request for memory while counting. */
static volatile uint64_t heap_calls;
static volatile int heap_counting = 1;
#define HEAP_CALLERS_MAX (1u << 20)
static void *heap_callers[HEAP_CALLERS_MAX] __attribute__((unused));
static uint64_t heap_caller_count __attribute__((unused)); /* may pass HEAP_CALLERS_MAX: only the first are kept */
static volatile int heap_record_callers;

#if HEAP_COUNT
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static inline void heap_count_one_(void *caller) {
    if (!heap_counting) return;
    __atomic_fetch_add(&heap_calls, 1, __ATOMIC_RELAXED); /* driver threads allocate too */
    if (!heap_record_callers) return;
    uint64_t i = __atomic_fetch_add(&heap_caller_count, 1, __ATOMIC_RELAXED);
    if (i < HEAP_CALLERS_MAX) heap_callers[i] = caller;
}
#define HEAP_CALLER_ __builtin_return_address(0)
void *malloc(size_t n) {
    heap_count_one_(HEAP_CALLER_);
    return __libc_malloc(n);
}
void *calloc(size_t a, size_t b) {
    heap_count_one_(HEAP_CALLER_);
    return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n) {
    heap_count_one_(HEAP_CALLER_);
    return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }
void *memalign(size_t al, size_t n) {
    heap_count_one_(HEAP_CALLER_);
    return __libc_memalign(al, n);
}
void *aligned_alloc(size_t al, size_t n) {
    heap_count_one_(HEAP_CALLER_);
    return __libc_memalign(al, n);
}
int posix_memalign(void **out, size_t al, size_t n) {
    heap_count_one_(HEAP_CALLER_);
    void *p = __libc_memalign(al, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
#endif

#endif
