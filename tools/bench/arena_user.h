/* arena_user.h - bench_arena's user side: the loops that allocate, compiled at -O2 in a
   translation unit apart from arena.c (as a user's program would be, linking libstrata.a
   without LTO), with every contestant beside the engine's arena in the same file and at
   the same optimisation: a naive inline bump, a RAD-Debugger-style arena, glibc, mimalloc. */
#ifndef ARENA_USER_H
#define ARENA_USER_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    AU_PUSH_RAW,   /* st_arena_push_raw + st_arena_clear */
    AU_PUSH_ZERO,  /* st_arena_push + st_arena_clear, memory reused */
    AU_FRESH_RAW,  /* st_arena_push_raw into a fresh arena */
    AU_FRESH_ZERO, /* st_arena_push into a fresh arena */
    AU_NAIVE,      /* a naive inline bump + reset */
    AU_RAD,        /* the RAD-style arena: push + pop to 0 */
    AU_MALLOC,     /* glibc malloc + free */
    AU_CALLOC,     /* glibc calloc + free */
    AU_MIMALLOC,   /* mi_malloc + mi_free */
    AU_COUNT
} AuContestant;

const char *arena_user_name(AuContestant c);
bool arena_user_available(AuContestant c);
/* Allocates n objects of sizes[i] bytes (writing one word into each when `touch`), then
   frees them all; returns this thread's CPU time for it in ns. */
uint64_t arena_user_run(AuContestant c, const uint32_t *sizes, void **ptrs, uint64_t n, bool touch);
/* The --callgrind loops: one noinline function per operation (see tools/arena_ir.sh). */
int arena_user_callgrind(void);

#endif
