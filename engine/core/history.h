/* history.h - a bounded ring of a program's past states, in one arena: rewinding time and
   seeking in a recorded run. A state is what the program says it is, a list of regions of
   bytes (a struct by value, an arena's used bytes); because those hold no pointer that a
   copy would break (an arena never moves, so pointers into it stay valid when its bytes are
   put back), a snapshot is a copy and a restore is a copy back, with nothing to chase or
   free. Every tick gets an entry: its input (what the program's tick was given) and, as the
   params say, a snapshot of the state BEFORE that tick ran:

     keyframe  every `keyframe_every` ticks (and whenever a region's size changes, or the
               last keyframe is gone): the regions' bytes, zero runs coded out;
     delta     the ticks between, when `deltas` is set: the XOR with the tick's keyframe,
               zero runs coded out, so bytes that did not change since it cost nothing
               (a level's tiles, an idle pool); restoring one is the keyframe then the XOR;
     input     the ticks between, otherwise: the input alone (a seek restores the keyframe
               at or before the tick and runs the inputs from there).

   When the ring is full (`ticks` entries, or no room left in its bytes) the oldest entries
   go first, a keyframe with the entries that depend on it, so what is held always starts
   with a keyframe. Rewinding while playing, one tick back per tick (deltas on):

       HistoryRegion st[2] = {{.data = &game, .size = sizeof game}, {.arena = level_arena}};
       History *h = st_history_create(history_arena, &(HistoryParams){.ticks = 600,
                                          .keyframe_every = 30, .deltas = true}, &err);
       // every tick played: the state before it, then the tick
       st_history_record(h, input, st, 2, &err);  game_tick(&game, input);
       // every tick rewound: back to the state before the last tick played, which is
       // dropped, so play goes on from there and records over it
       if (st_history_count(h)) st_history_pop(h, st, 2);

   Seeking (a replay viewer: keyframes only, `deltas` off), to rebuild tick T exactly:

       uint64_t k = st_history_restore(h, t, st, 2);             // the keyframe at or before T
       for (; k < t; k++) game_tick(&game, st_history_input(h, k)); // the inputs between

   Ticks are numbered by the history from 0 (st_history_record returns the tick's number),
   and a restore leaves what is held as it was; st_history_truncate(h, t) drops everything
   after tick t when play branches off there (st_history_pop is restore + truncate).

   A whole recorded run for a viewer that seeks (a replay scrubbed) is a History of its own,
   deltas off, `ticks` the run's length and a keyframe every N ticks: any tick is then the
   keyframe's copy and at most N - 1 ticks replayed from the inputs it holds; N trades the
   seek's time for the keyframes' bytes (bench_rewind prints a level's coded keyframe).
   The numbering is the history's own: tick k is the k-th st_history_record since the
   history was made or cleared, so a replay's tick T is T when it records every tick.

   Memory: st_history_create takes the entries from `arena` at once, then, with deltas, a
   copy of the last keyframe (what a delta is taken against), then the ring. With `bytes` 0
   the ring is the rest of the arena, pushed only as far as it is used, and the copy grows
   as larger states are recorded (the ring's bytes move up to make room: rare, a state
   larger than any before), so the arena's peak is what the history needed, never
   `state_max`, which is then only the largest state accepted: create it last in its arena.
   Else the copy (`state_max` bytes) and `bytes` of ring are pushed at once. A snapshot is
   coded in place in the ring, which must have room for its raw bytes plus a few. Recording
   and restoring never allocate from the heap. An arena region must be one block
   (st_arena_base): a NO_CHAIN arena's always is. Not thread-safe. */
#ifndef HISTORY_H
#define HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/error.h>

#define HISTORY_REGIONS_MAX 8
#define HISTORY_NONE UINT64_MAX /* no tick */

/* One region of the state: `size` bytes at `data`, or, when `arena` is set, that arena's
   used bytes [0, st_arena_pos) (restored with its cursor: st_arena_set_pos). */
typedef struct HistoryRegion {
    void *data;
    uint64_t size;
    Arena *arena;
} HistoryRegion;

typedef struct HistoryParams {
    uint32_t ticks;          /* entries held at most (the ring's length in ticks); > 0 */
    uint64_t bytes;          /* the coded snapshots' ring; 0: the rest of the arena */
    uint64_t state_max;      /* the largest state accepted, all regions together (0: 1 MiB) */
    uint32_t keyframe_every; /* 0: 60 */
    bool deltas;             /* a snapshot every tick (rewind), else keyframes and inputs (seek) */
} HistoryParams;

typedef struct HistoryStats {
    uint64_t first, next;       /* ticks held: [first, next) (first == next: none) */
    uint32_t count;             /* entries held */
    uint32_t keyframes;         /* ... of which keyframes */
    uint64_t ring_bytes;        /* the ring's size */
    uint64_t held_bytes;        /* coded bytes held now */
    uint64_t recorded_bytes;    /* coded bytes ever recorded */
    uint64_t recorded;          /* entries ever recorded */
    uint64_t dropped;           /* entries dropped to make room (oldest first) */
    uint64_t dropped_for_bytes; /* ... of those, for the ring's bytes (not its ticks) */
    uint64_t largest;           /* the largest coded snapshot */
} HistoryStats;

typedef struct History History;

/* NULL with err filled (the arena's words after "history: ") when `arena` cannot hold it. */
History *st_history_create(Arena *arena, const HistoryParams *p, Error *err);
/* What st_history_create takes of its arena besides the ring's bytes (the History, its
   entries, a fixed ring's keyframe copy): with it a caller sizes a ring to share an arena. */
uint64_t st_history_size(const HistoryParams *p);
/* The state before tick st_history_stats(h).next, and that tick's input; returns the tick's
   number. HISTORY_NONE, and nothing held changed, when the state is larger than state_max
   or a keyframe of it does not fit the ring even empty (err filled). */
uint64_t st_history_record(History *h, uint16_t input, const HistoryRegion *r, uint32_t n, Error *err);
/* Puts the state of the latest snapshot at or before `tick` into the regions (the same list
   as recorded, its arenas' cursors moved); returns that snapshot's tick, HISTORY_NONE when
   none is held (the regions then untouched). */
uint64_t st_history_restore(History *h, uint64_t tick, const HistoryRegion *r, uint32_t n);
/* The newest entry restored (it must hold a snapshot: deltas on) and dropped; its tick, or
   HISTORY_NONE (nothing held: the regions untouched). */
uint64_t st_history_pop(History *h, const HistoryRegion *r, uint32_t n);
/* Tick `tick`'s input (0 when it is not held). */
uint16_t st_history_input(const History *h, uint64_t tick);
/* Drops every entry after `tick`; the next recorded is tick + 1. */
void st_history_truncate(History *h, uint64_t tick);
/* Drops everything; the next tick recorded is `next` (numbers go on, or start again at 0). */
void st_history_clear(History *h, uint64_t next);
uint32_t st_history_count(const History *h);
HistoryStats st_history_stats(const History *h);

#endif
