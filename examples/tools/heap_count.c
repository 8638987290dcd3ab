/* heap_count.c - an LD_PRELOAD library that counts a program's calls to malloc and its kin
   (SDL's and libc's included) and writes the total to $HEAP_COUNT_FILE at exit. Run a
   program twice, for N and for M frames: the same total means the extra frames made no
   heap call at all. Not for sanitizer builds (ASan owns malloc). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static unsigned long long calls;
#define COUNT() __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED)

void *malloc(size_t n) { return COUNT(), __libc_malloc(n); }
void *calloc(size_t a, size_t b) { return COUNT(), __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { return COUNT(), __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t al, size_t n) { return COUNT(), __libc_memalign(al, n); }
void *aligned_alloc(size_t al, size_t n) { return COUNT(), __libc_memalign(al, n); }
int posix_memalign(void **out, size_t al, size_t n) {
    COUNT();
    return (*out = __libc_memalign(al, n)) ? 0 : 12;
}

__attribute__((destructor)) static void heap_count_write(void) {
    const char *path = getenv("HEAP_COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (f) fprintf(f, "%llu\n", calls), fclose(f);
}
