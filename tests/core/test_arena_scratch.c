/* Scratch arenas: per thread, conflict-avoiding, nestable, and returned to the OS with the
   thread (as every st_arena_thread_get arena is, the temporary allocator's included). */
#include <pthread.h>
#include <string.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "check.h"
#include <strata/core/allocator.h>
#include <strata/core/arena.h>

static Arena *returns_from_scope(Arena *out, int *value) {
    SCRATCH_SCOPE(tmp, out);
    int *work = st_arena_push_array(tmp.arena, int, 1000);
    for (int i = 0; i < 1000; i++) work[i] = i;
    int *result = st_arena_push_struct(out, int);
    *result = work[999];
    *value = *result;
    return tmp.arena;
}

static void test_conflicts(void) {
    Arena *s0 = st_scratch_get(0), *s1 = st_scratch_get(1), *s2 = st_scratch_get(2);
    CHECK(s0 && s1 && s2 && s0 != s1 && s1 != s2 && s0 != s2);
    {
        SCRATCH_SCOPE(t);
        CHECK(t.arena == s0);
    }
    {
        SCRATCH_SCOPE(t, s0);
        CHECK(t.arena != s0);
    }
    {
        SCRATCH_SCOPE(t, s0, s1);
        CHECK(t.arena != s0 && t.arena != s1);
    }
    {
        SCRATCH_SCOPE(t, s1, s0);
        CHECK(t.arena != s0 && t.arena != s1);
    }
    {
        SCRATCH_SCOPE(t, s2, s0);
        CHECK(t.arena == s1);
    }
    /* A function handed a scratch arena as its output gets a different one for work,
       and its result survives the scope. */
    SCRATCH_SCOPE(outer);
    uint64_t before = st_arena_pos(outer.arena);
    int value = 0;
    Arena *used = returns_from_scope(outer.arena, &value);
    CHECK(used != outer.arena);
    CHECK(value == 999);
    CHECK(st_arena_pos(outer.arena) > before);
    CHECK(st_arena_is_empty(used));
}

static void test_nesting(void) {
    SCRATCH_SCOPE(a);
    int *x = st_arena_push_struct(a.arena, int);
    *x = 42;
    {
        SCRATCH_SCOPE(b); /* same arena, nested */
        CHECK(b.arena == a.arena);
        int *y = st_arena_push_array(b.arena, int, 10000);
        y[0] = 7;
    }
    CHECK(*x == 42);
    CHECK(st_arena_pos(a.arena) == a.pos + sizeof(int) + (a.pos % 4 ? 4 - a.pos % 4 : 0));
}

static int early_exit(bool leave) {
    SCRATCH_SCOPE(t);
    st_arena_push(t.arena, 4096, 8);
    if (leave) return 1;
    return 0;
}

typedef struct Worker {
    int id;
    Arena *seen;
    int errors;
} Worker;

/* Both workers hold their scratch arena at the same time: without the barrier the second
   could start after the first exited and be handed the same, recycled, addresses. */
static pthread_barrier_t both_alive;

static void *worker_main(void *arg) {
    Worker *w = arg;
    w->seen = st_scratch_get(0);
    pthread_barrier_wait(&both_alive);
    for (int round = 0; round < 2000; round++) {
        SCRATCH_SCOPE(t);
        w->errors += t.arena != w->seen;
        int n = 64 + round % 512;
        int *v = st_arena_push_array(t.arena, int, n);
        for (int i = 0; i < n; i++) v[i] = w->id * 1000000 + i;
        sched_yield();
        for (int i = 0; i < n; i++) w->errors += v[i] != w->id * 1000000 + i;
    }
    pthread_barrier_wait(&both_alive);
    return NULL;
}

static void test_threads(void) {
    Worker w[2] = {{.id = 1}, {.id = 2}};
    pthread_t th[2];
    pthread_barrier_init(&both_alive, NULL, 2);
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, worker_main, &w[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&both_alive);
    CHECK(w[0].errors == 0 && w[1].errors == 0);
    CHECK(w[0].seen != w[1].seen);
    CHECK(w[0].seen != st_scratch_get(0) && w[1].seen != st_scratch_get(0));
}

/* The per-thread arenas of a thread that has ended: what it was handed, and a slot the
   test can still read (not _Thread_local: st_arena_thread_get takes any slot). */
static void *ended_addr[ARENA_SCRATCH_COUNT + 2];
static Arena *ended_slot;

static void *thread_with_arenas(void *unused) {
    (void)unused;
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) ended_addr[i] = st_arena_push(st_scratch_get(i), 64, 8);
    ended_addr[ARENA_SCRATCH_COUNT] = st_allocator_alloc(st_allocator_temp(), 64, 16);
    ended_addr[ARENA_SCRATCH_COUNT + 1] = st_arena_thread_get(&ended_slot, (ArenaParams){.name = "mine"});
    return NULL;
}

/* Whether the page holding p is mapped: mincore fails with ENOMEM on an unmapped one. */
static bool mapped(const void *p) {
#if defined(_WIN32) /* a released region is MEM_FREE */
    MEMORY_BASIC_INFORMATION mbi;
    return VirtualQuery(p, &mbi, sizeof mbi) == sizeof mbi && mbi.State != MEM_FREE;
#else
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    unsigned char v;
    return mincore((void *)((uintptr_t)p & ~(page - 1)), 1, &v) == 0;
#endif
}

static void test_thread_exit(void) {
    CHECK(mapped(st_arena_push(st_scratch_get(0), 64, 8))); /* the probe sees a live arena */
    pthread_t th;
    REQUIRE_VOID(pthread_create(&th, NULL, thread_with_arenas, NULL) == 0);
    pthread_join(th, NULL);
    CHECK(ended_slot == NULL);
    for (size_t i = 0; i < sizeof ended_addr / sizeof ended_addr[0]; i++) {
        CHECK(ended_addr[i] != NULL);
        if (ended_addr[i] && mapped(ended_addr[i])) fprintf(stderr, "per-thread arena %zu outlived its thread\n", i);
        CHECK(ended_addr[i] && !mapped(ended_addr[i]));
    }
}

int main(void) {
    test_conflicts();
    test_nesting();
    uint64_t pos = st_arena_pos(st_scratch_get(0));
    CHECK(early_exit(true) == 1 && early_exit(false) == 0);
    CHECK(st_arena_pos(st_scratch_get(0)) == pos);
    test_threads();
    test_thread_exit();
    ArenaStats stats[ARENA_SCRATCH_COUNT];
    /* The first two hold memory here (the nested scopes pushed into both), the third only
       ever was picked, empty. */
    CHECK(st_scratch_stats(stats, ARENA_SCRATCH_COUNT) == 2);
    CHECK(strcmp(stats[0].name, "scratch") == 0 && stats[0].peak >= 40000);
    return check_result();
}
