/* zero_alloc.c - breakout makes no heap call per frame: the committed replay played
   headless through the host (the title, a wall laid in the level arena, a ball
   lost, HUD text every frame), with the C heap counted by defining malloc and its kin in
   this executable, which the dynamic linker prefers to libc's: SDL's calls are counted as
   well as ours. After WARMUP frames (SDL sizes its buffers once) the count must stay 0.
       breakout_zero_alloc demo.rep
   Exit 77 (a skip) under AddressSanitizer, which owns malloc itself. */
#include <stdint.h>
#include <stdio.h>

#include "breakout.h"

#if defined(__SANITIZE_ADDRESS__)
#define COUNTING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNTING 0
#endif
#endif
#ifndef COUNTING
#define COUNTING 1
#endif

static volatile uint64_t heap_calls;

#if COUNTING
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
static void count(void) { __atomic_fetch_add(&heap_calls, 1, __ATOMIC_RELAXED); }
void *malloc(size_t n) { return count(), __libc_malloc(n); }
void *calloc(size_t a, size_t b) { return count(), __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { return count(), __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t al, size_t n) { return count(), __libc_memalign(al, n); }
void *aligned_alloc(size_t al, size_t n) { return count(), __libc_memalign(al, n); }
int posix_memalign(void **out, size_t al, size_t n) {
    count();
    return (*out = __libc_memalign(al, n)) ? 0 : 12;
}
#endif

#define WARMUP 5

int main(int argc, char **argv) {
    if (argc != 2) return fprintf(stderr, "usage: breakout_zero_alloc DEMO.rep\n"), 2;
    if (!COUNTING) return printf("skipped: AddressSanitizer owns malloc\n"), 77;
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    Host *h = perm ? st_host_create(perm, breakout_api(), &(HostOptions){.headless = true, .run_ends = true},
                                    &(BreakoutOptions){.replay = argv[1]})
                   : NULL;
    if (!h) return fprintf(stderr, "zero_alloc: no host\n"), 1;
    const void *game = h->game;
    uint64_t frames = 0, at_warmup = 0;
    while (st_host_frame(h))
        if (++frames == WARMUP) at_warmup = heap_calls;
    uint64_t after = heap_calls - at_warmup;
    const Sim *s = breakout_sim(game);
    uint64_t serial = s->level_serial, ticks = s->tick;
    int status = st_host_release(h);
    printf("heap calls: %llu before frame %d, %llu in the %llu frames after; %llu ticks, %llu walls laid\n",
           (unsigned long long)at_warmup, WARMUP, (unsigned long long)after, (unsigned long long)(frames - WARMUP),
           (unsigned long long)ticks, (unsigned long long)serial);
    bool ok = status == 0 && at_warmup > 0 && after == 0 && frames > 1000 && serial >= 1 && s->lives < SIM_LIVES;
    if (!ok) fprintf(stderr, "zero_alloc: FAIL (status %d)\n", status);
    st_arena_release(perm);
    return ok ? 0 : 1;
}
