/* The history ring (history.h) on a state of two regions, a struct by value and a NO_CHAIN
   arena's used bytes whose size changes (a "level change"): every tick held restores to
   the bytes it was recorded with, the arena's cursor included, and pointers into the arena
   kept in the struct read the restored bytes; the oldest go first, by ticks and by bytes,
   a keyframe with the deltas that need it; pop walks back one tick at a time; a seek on
   keyframes and inputs rebuilds any tick; an empty history restores nothing; the arena
   helpers (st_arena_base, st_arena_set_pos) keep their promises; recording and restoring
   make no heap call. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "heap_count.h"
#include <strata/core/base.h>
#include <strata/core/diag_capture.h>
#include <strata/core/hash.h>
#include <strata/core/history.h>

typedef struct World {
    uint32_t tick, seed;
    int32_t x, y;
    uint8_t *cells; /* into the level arena */
    uint32_t cell_count;
    uint8_t pool[512]; /* mostly zero, as a bullet pool is */
} World;

static Arena *level;
static World w;

/* A new "level" of `cells` bytes: the arena cleared and refilled, as a level load does. */
static void load(uint32_t cells, uint8_t fill) {
    st_arena_clear(level);
    st_arena_push(level, 64, 8); /* something before the cells, as a Level header is */
    w.cells = st_arena_push_array(level, uint8_t, cells);
    for (uint32_t i = 0; i < cells; i++) w.cells[i] = (uint8_t)(fill + i / 7);
    w.cell_count = cells;
}

/* One deterministic tick of the world from an input. */
static void step(uint16_t in) {
    w.tick++;
    w.seed = w.seed * 1103515245u + 12345u + in;
    w.x += (in & 1) ? 3 : -1, w.y += (in & 2) ? 2 : 0;
    w.cells[w.seed % w.cell_count] ^= (uint8_t)(w.seed >> 24);
    w.pool[w.tick % sizeof w.pool] = (uint8_t)in;
    if (w.tick % 97 == 0) load(w.cell_count == 3000 ? 5000 : 3000, (uint8_t)w.tick);
}

static uint64_t world_hash(void) {
    uint64_t h = st_hash_fnv1a(HASH_FNV1A_INIT, &w, offsetof(World, cells));
    h = st_hash_fnv1a_u64(h, w.cell_count);
    h = st_hash_fnv1a(h, w.pool, sizeof w.pool);
    h = st_hash_fnv1a(h, st_arena_base(level), st_arena_pos(level));
    return st_hash_fnv1a_u64(h, st_arena_pos(level));
}

static HistoryRegion regions[2];

static void reset_world(void) {
    memset(&w, 0, sizeof w);
    w.seed = 7;
    load(3000, 1);
    regions[0] = (HistoryRegion){.data = &w, .size = sizeof w};
    regions[1] = (HistoryRegion){.arena = level};
}

static uint16_t input_at(uint64_t t) { return (uint16_t)((t * 2654435761u) >> 7) & 3; }

/* Every tick recorded, then each one held restored: the world as it was before that tick. */
static void test_every_tick_restores(void) {
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 8 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(ha);
    Error err;
    History *h = st_history_create(ha, &(HistoryParams){.ticks = 300, .keyframe_every = 30, .deltas = true}, &err);
    REQUIRE_VOID(h);
    uint64_t ring_at = st_arena_pos(ha);
    reset_world();
    static uint64_t want[400];
    for (uint64_t t = 0; t < 400; t++) {
        want[t] = world_hash();
        CHECK_EQ_U(st_history_record(h, input_at(t), regions, 2, &err), t);
        step(input_at(t));
    }
    HistoryStats s = st_history_stats(h);
    /* The ring's ticks: the oldest 100 went, and with the keyframe first the deltas that
       needed it (a keyframe every 30 ticks, and at each change of the arena's size). */
    CHECK(s.count <= 300 && s.count > 270);
    CHECK(s.first >= 100 && s.first < 130);
    CHECK_EQ_U(s.next, 400);
    CHECK(s.keyframes >= 10);
    CHECK(s.held_bytes < 300 * (sizeof w + 5000) / 4); /* deltas: far below the raw bytes */
    CHECK_EQ_U(st_history_restore(h, s.first - 1, regions, 2), HISTORY_NONE);
    int bad = 0;
    for (uint64_t t = s.first; t < s.next; t++) {
        if (st_history_restore(h, t, regions, 2) != t || world_hash() != want[t]) bad++;
        CHECK_EQ_U(st_history_input(h, t), input_at(t));
    }
    CHECK_EQ_I(bad, 0);
    /* The pointer kept in the struct reads the restored arena. */
    CHECK((uint8_t *)w.cells > (uint8_t *)st_arena_base(level));
    CHECK((uint8_t *)w.cells + w.cell_count <= (uint8_t *)st_arena_base(level) + st_arena_pos(level));
    /* The ring goes back to its start rather than through the whole arena: after many times
       what it holds, what it pushed is within a few times that, plus one state's room. */
    st_history_restore(h, s.next - 1, regions, 2); /* the world as of the newest tick */
    for (uint64_t t = 400; t < 4000; t++) {
        st_history_record(h, input_at(t), regions, 2, &err);
        step(input_at(t));
    }
    s = st_history_stats(h);
    CHECK(s.recorded_bytes > 8 * s.held_bytes);
    CHECK(st_arena_pos(ha) - ring_at <= 4 * s.held_bytes + sizeof w + 5000 + 64);
    st_arena_release(ha);
}

/* A run of 1500 ticks whose state grows at tick 1300 (a larger "level" than any before), in
   a fresh arena, recorded with state_max as given: every tick held still restores exactly.
   Returns the arena's peak; *largest and *held: the largest state and the most held. */
static uint64_t peak_of_run(uint64_t state_max, uint64_t *largest, uint64_t *held) {
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 8 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE(ha);
    Error err;
    HistoryParams p = {.ticks = 300, .state_max = state_max, .keyframe_every = 30, .deltas = true};
    History *h = st_history_create(ha, &p, &err);
    if (!h) {
        CHECK(h != NULL);
        st_arena_release(ha);
        return 0;
    }
    reset_world();
    static uint64_t want[1500];
    *largest = *held = 0;
    for (uint64_t t = 0; t < 1500; t++) {
        if (t == 1300) load(20000, 9);
        want[t] = world_hash();
        *largest = MAX(*largest, sizeof w + st_arena_pos(level));
        CHECK_EQ_U(st_history_record(h, input_at(t), regions, 2, &err), t);
        *held = MAX(*held, st_history_stats(h).held_bytes);
        step(input_at(t));
        if (w.cell_count != 20000 && t >= 1300) load(20000, 9); /* it stays large */
    }
    HistoryStats s = st_history_stats(h);
    CHECK(s.first < 1300); /* the larger state came with smaller ones held, which stay */
    int bad = 0;
    for (uint64_t t = s.first; t < s.next; t++)
        if (st_history_restore(h, t, regions, 2) != t || world_hash() != want[t]) bad++;
    CHECK_EQ_I(bad, 0);
    uint64_t peak = st_arena_stats(ha).peak;
    st_arena_release(ha);
    return peak;
}

/* What a history takes of its arena is what it needs: its entries, a copy of the largest
   state it recorded, and a ring within three times the most it held plus two states' worst
   case (the wrap rule in history.c); never state_max, a limit only (1 MiB by default, here
   for states of 20 KB at most): the same run with state_max its largest state peaks the same. */
static void test_peak_is_need(void) {
    uint64_t largest, held, exact_largest, exact_held;
    uint64_t peak = peak_of_run(0, &largest, &held);
    uint64_t exact = peak_of_run(largest, &exact_largest, &exact_held);
    uint64_t room = largest + 2 * 16 + 1 + 10 * HISTORY_REGIONS_MAX; /* a snapshot's worst case */
    uint64_t need = 300 * 32 + 1024 + largest + 64 + 3 * held + 2 * room;
    printf("history peak %llu (state_max its largest state: %llu), need at most %llu (largest state %llu, most"
           " held %llu)\n",
           (unsigned long long)peak, (unsigned long long)exact, (unsigned long long)need, (unsigned long long)largest,
           (unsigned long long)held);
    CHECK_EQ_U(peak, exact);
    CHECK(peak <= need);
    CHECK(peak >= largest + held);
}

/* Pop: back one tick at a time to the oldest, then nothing; play resumes from there and
   records over what was popped. */
static void test_pop_and_branch(void) {
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 8 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(ha);
    Error err;
    History *h = st_history_create(ha, &(HistoryParams){.ticks = 1000, .keyframe_every = 16, .deltas = true}, &err);
    REQUIRE_VOID(h);
    reset_world();
    static uint64_t want[250];
    for (uint64_t t = 0; t < 250; t++) {
        want[t] = world_hash();
        st_history_record(h, input_at(t), regions, 2, &err);
        step(input_at(t));
    }
    int bad = 0;
    for (uint64_t t = 250; t-- > 150;)
        if (st_history_pop(h, regions, 2) != t || world_hash() != want[t]) bad++;
    CHECK_EQ_I(bad, 0);
    CHECK_EQ_U(st_history_stats(h).next, 150);
    /* The same inputs again from tick 150: the same worlds, recorded anew. */
    for (uint64_t t = 150; t < 250; t++) {
        if (world_hash() != want[t]) bad++;
        CHECK_EQ_U(st_history_record(h, input_at(t), regions, 2, &err), t);
        step(input_at(t));
    }
    CHECK_EQ_I(bad, 0);
    while (st_history_count(h)) st_history_pop(h, regions, 2);
    CHECK_EQ_U(world_hash(), want[0]);
    /* Empty: nothing restored, the world left as it is. */
    step(3);
    uint64_t now = world_hash();
    CHECK_EQ_U(st_history_pop(h, regions, 2), HISTORY_NONE);
    CHECK_EQ_U(st_history_restore(h, 0, regions, 2), HISTORY_NONE);
    CHECK_EQ_U(world_hash(), now);
    st_arena_release(ha);
}

/* A ring of few bytes: the oldest go for room, a keyframe with its deltas, what is held is
   within the arena, and each tick held still restores exactly. */
static void test_bytes_bound(void) {
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 256 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(ha);
    Error err;
    History *h = st_history_create(
        ha, &(HistoryParams){.ticks = 2500, .state_max = 8192, .keyframe_every = 20, .deltas = true}, &err);
    REQUIRE_VOID(h);
    reset_world();
    static uint64_t want[2000];
    for (uint64_t t = 0; t < 2000; t++) {
        want[t] = world_hash();
        CHECK_EQ_U(st_history_record(h, input_at(t), regions, 2, &err), t);
        step(input_at(t));
    }
    HistoryStats s = st_history_stats(h);
    CHECK(s.dropped_for_bytes > 0);
    CHECK(s.count < 2000 && s.count > 20);
    CHECK(s.held_bytes <= s.ring_bytes);
    CHECK(st_arena_pos(ha) <= st_arena_capacity(ha));
    int bad = 0;
    for (uint64_t t = s.first; t < s.next; t++)
        if (st_history_restore(h, t, regions, 2) != t || world_hash() != want[t]) bad++;
    CHECK_EQ_I(bad, 0);
    /* A state past state_max is refused, and what is held stays. */
    load(9000, 0);
    CHECK_EQ_U(st_history_record(h, 0, regions, 2, &err), HISTORY_NONE);
    CHECK(strstr(err.message, "history: a state") != NULL);
    CHECK_EQ_U(st_history_stats(h).count, s.count);
    st_arena_release(ha);
}

/* A coded snapshot whose counts run past its region (the ring's bytes overwritten: a stray
   write, a bad cosmic day) restores nothing: the restore refuses, and not one byte is
   written past the region, whichever count is too large. */
static void test_corrupt_stream(void) {
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(ha);
    Error err;
    History *h = st_history_create(ha, &(HistoryParams){.ticks = 4, .bytes = 4096, .state_max = 64}, &err);
    REQUIRE_VOID(h);
    uint8_t *ring = (uint8_t *)st_arena_base(ha) + st_arena_pos(ha) - 4096;
    static uint8_t store[512]; /* the region is the first 64 bytes; the rest must stay 0xee */
    HistoryRegion r = {.data = store, .size = 64};
    /* [count 1][size 64] then tokens [zeros][literals][bytes]: one literal run of 64. */
    static const uint8_t bad[][3] = {{0x00, 0xff, 0x01},  /* 255 literals */
                                     {0x41, 0x00, 0x00},  /* 65 zeros */
                                     {0x20, 0x21, 0x00}}; /* 32 zeros, then 33 literals */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st_history_clear(h, 0);
        for (int k = 0; k < 64; k++) store[k] = (uint8_t)(k + 1);
        memset(store + 64, 0xee, sizeof store - 64);
        REQUIRE_VOID(st_history_record(h, 0, &r, 1, &err) == 0);
        CHECK(ring[0] == 1 && ring[1] == 64 && ring[2] == 0 && ring[3] == 64);
        memcpy(ring + 2, bad[i], sizeof bad[i]);
        CHECK_EQ_U(st_history_restore(h, 0, &r, 1), HISTORY_NONE);
        int spilled = 0;
        for (size_t k = 64; k < sizeof store; k++) spilled += store[k] != 0xee;
        CHECK_EQ_I(spilled, 0);
    }
    st_arena_release(ha);
}

/* Keyframes and inputs (a seek): restore the keyframe at or before T, run the inputs. */
static void test_seek(void) {
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 8 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(ha);
    Error err;
    History *h = st_history_create(ha, &(HistoryParams){.ticks = 4000, .keyframe_every = 50}, &err);
    REQUIRE_VOID(h);
    reset_world();
    static uint64_t want[1000];
    for (uint64_t t = 0; t < 1000; t++) {
        want[t] = world_hash();
        st_history_record(h, input_at(t), regions, 2, &err);
        step(input_at(t));
    }
    CHECK(st_history_stats(h).keyframes >= 20); /* every 50 ticks, and at each size change */
    int bad = 0;
    for (uint64_t t = 999; t > 0 && t < 1000; t -= 37) {
        uint64_t k = st_history_restore(h, t, regions, 2);
        if (k > t || t - k >= 50) bad++;
        for (; k < t; k++) step(st_history_input(h, k));
        if (world_hash() != want[t]) bad++;
    }
    CHECK_EQ_I(bad, 0);
    st_arena_release(ha);
}

/* st_arena_base and st_arena_set_pos: one span while one block; the cursor moves both ways
   keeping the bytes below it; refused past the block, or once a block is chained. */
static void test_arena_span(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 64 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "span"});
    REQUIRE_VOID(a);
    uint8_t *p = st_arena_push(a, 100, 1);
    REQUIRE_VOID(p);
    CHECK(st_arena_base(a) == p);
    memset(p, 0xab, 100);
    CHECK(st_arena_set_pos(a, 40));
    CHECK_EQ_U(st_arena_pos(a), 40);
    CHECK(st_arena_set_pos(a, 30000));
    CHECK_EQ_U(st_arena_pos(a), 30000);
    CHECK_EQ_U(p[39], 0xab);
    memset(p + 40, 1, 30000 - 40); /* the bytes it handed out are writable (ASan: unpoisoned) */
    CHECK(!st_arena_set_pos(a, st_arena_capacity(a) + 1));
    CHECK_EQ_U(st_arena_pos(a), 30000);
    CHECK(st_arena_stats(a).peak >= 30000);
    st_arena_release(a);
    Arena *c = st_arena_create((ArenaParams){.reserve_size = 64 << 10, .name = "chained"});
    REQUIRE_VOID(c);
    st_arena_push(c, 60 << 10, 8);
    st_arena_push(c, 10 << 10, 8); /* a second block */
    CHECK(st_arena_base(c) == NULL);
    CHECK(!st_arena_set_pos(c, 100));
    st_arena_release(c);
}

/* A history that cannot fit its arena says so once, in err (the arena reports nothing of
   its own), leaving the arena as it was. */
static void test_create_refused(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 16 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "tiny"});
    REQUIRE_VOID(a);
    Error err;
    Arena *reports = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    CHECK(st_history_create(a, &(HistoryParams){.ticks = 1000, .state_max = 1 << 10}, &err) == NULL);
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.count, 0);
    CHECK(strstr(err.message, "arena 'tiny' has 16384 of 16384 bytes free, needs ") != NULL);
    st_arena_release(reports);
    /* Entries past the arena; a fixed ring with deltas, whose keyframe copy is pushed with it. */
    CHECK(st_history_create(a, &(HistoryParams){.ticks = 1000, .state_max = 1 << 10}, &err) == NULL);
    CHECK(strstr(err.message, "history: no room") != NULL);
    CHECK_EQ_U(st_arena_pos(a), 0);
    HistoryParams fixed = {.ticks = 100, .bytes = 4096, .state_max = 1 << 20, .deltas = true};
    CHECK(st_history_create(a, &fixed, &err) == NULL);
    CHECK(strstr(err.message, "history: no room") != NULL);
    CHECK_EQ_U(st_arena_pos(a), 0);
    CHECK(st_history_create(a, &(HistoryParams){.ticks = 0}, &err) == NULL);
    st_arena_release(a);
}

static void test_no_heap(void) {
    if (!HEAP_COUNT) return;
    Arena *ha =
        st_arena_create((ArenaParams){.reserve_size = 8 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    REQUIRE_VOID(ha);
    Error err;
    History *h = st_history_create(ha, &(HistoryParams){.ticks = 200, .keyframe_every = 30, .deltas = true}, &err);
    REQUIRE_VOID(h);
    reset_world();
    heap_calls = 0;
    heap_counting = 1;
    for (uint64_t t = 0; t < 500; t++) {
        st_history_record(h, input_at(t), regions, 2, &err);
        step(input_at(t));
    }
    for (int i = 0; i < 100; i++) st_history_pop(h, regions, 2);
    st_history_restore(h, st_history_stats(h).first, regions, 2);
    heap_counting = 0;
    CHECK_EQ_U(heap_calls, 0);
    st_arena_release(ha);
}

int main(void) {
    level = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    REQUIRE(level);
    test_every_tick_restores();
    test_peak_is_need();
    test_pop_and_branch();
    test_bytes_bound();
    test_seek();
    test_arena_span();
    test_create_refused();
    test_corrupt_stream();
    test_no_heap();
    st_arena_release(level);
    return check_result();
}
