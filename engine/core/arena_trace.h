/* arena_trace.h - arena timelines: what every arena held, frame by frame, for the last few
   seconds, and the events (a level loaded, an arena full) that explain a jump.

   The exit report says how big each arena ever got; a trace says *when*. Once per frame
   it records, for up to ARENA_TRACE_ARENAS arenas, `used` and `committed` at the end of
   the frame and the frame's high mark (st_arena_high_take), which catches what was pushed
   and popped within the frame (a scratch scope, a level parse) that `used` misses. The
   samples go into a ring sized once at start-up in the permanent arena: recording costs
   no heap and no arena growth, and the ring keeps the newest `capacity` frames.

       ArenaTrace trace;
       if (!st_arena_trace_init(&trace, perm, 60 * 60, 64)) ...;    // 60 s at 60 Hz, 64 marks
       st_arena_trace_name(&trace, 0, "perm");                      // slot numbers are yours
       st_arena_trace_name(&trace, 1, "level");
       st_arena_trace_name(&trace, 2, "frame");
       ...
       // every frame, once everything that frame pushes is pushed (after st_render_end):
       Arena *slots[3] = {perm, level, frame};
       st_arena_trace_sample(&trace, slots, 3, frame_number, level_index, screen_id);
       // when something happens, with the frame it happened in:
       st_arena_trace_mark(&trace, frame_number, "level %s", path);
       // reading: oldest first
       const ArenaTraceSample *s;
       for (uint64_t i = 0; (s = st_arena_trace_at(&trace, i)); i++) { ... s->used[1] ... }

   A NULL in `arenas` records zeros for that slot (a scratch arena not created yet, an
   editor that is closed), so slots keep their meaning from frame to frame.

   The trace is the one reader of each sampled arena's high mark: st_arena_trace_sample
   takes it, so nothing else should call st_arena_high_take on those arenas.

   Arena failures as marks: arena.c reports a failed push ("arena 'level' full: ...")
   through core/diag.h. A program that wants them on its timeline passes its reports on
   from its diag sink:

       static void sink(void *state, const Diag *d) {
           App *app = state;
           app->diag_before.fn(app->diag_before.state, d);          // the log, as before
           st_arena_trace_mark_diag(&app->trace, app->frames, d);     // errors and warnings
       }

   Not thread-safe: sample and mark from the thread that owns the arenas. */
#ifndef ARENA_TRACE_H
#define ARENA_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/diag.h>

#define ARENA_TRACE_ARENAS 8 /* arenas per sample at most */
#define ARENA_TRACE_MARK_TEXT 96

typedef struct ArenaTraceSample {
    uint64_t frame;
    uint32_t level;  /* the caller's level number (an index it chooses), 0 none */
    uint16_t screen; /* the caller's screen id */
    uint16_t marks;  /* marks recorded in this frame (saturates at 65535) */
    uint64_t used[ARENA_TRACE_ARENAS], committed[ARENA_TRACE_ARENAS], high[ARENA_TRACE_ARENAS];
} ArenaTraceSample;

typedef struct ArenaTraceMark {
    uint64_t frame;
    char text[ARENA_TRACE_MARK_TEXT]; /* NUL-terminated; a longer text is cut */
} ArenaTraceMark;

typedef struct ArenaTrace {
    const char *names[ARENA_TRACE_ARENAS]; /* NULL: the slot was never named */
    uint64_t reserved[ARENA_TRACE_ARENAS]; /* as of the last sample (0 while the arena is NULL) */
    int arena_count;                       /* slots in use: past the highest named or sampled */
    ArenaTraceSample *samples;
    uint32_t capacity;
    uint64_t count; /* samples ever recorded; the ring keeps the last `capacity` */
    ArenaTraceMark *marks;
    uint32_t mark_capacity;
    uint64_t mark_count; /* marks ever recorded; the ring keeps the last `mark_capacity` */
    /* each arena's all-time peak (st_arena_stats), as of
       the last sample that held it */
    uint64_t peak[ARENA_TRACE_ARENAS];
    /* Marks of a frame not sampled yet, counted into that frame's sample. */
    uint64_t pending_frame;
    uint32_t pending_marks;
} ArenaTrace;

/* Bytes st_arena_trace_init takes from `perm`, alignment padding aside: size the permanent
   arena with it. 60 s at 60 Hz (3600 samples of 208 bytes) and 64 marks: 755,456 bytes. */
#define ARENA_TRACE_BYTES(capacity, mark_capacity) \
    ((uint64_t)(capacity) * sizeof(ArenaTraceSample) + (uint64_t)(mark_capacity) * sizeof(ArenaTraceMark))

/* capacity samples and mark_capacity marks in `perm`; NULL-safe: false when perm cannot hold
   them (perm is then as it was; a NO_CHAIN perm also reports "arena ... full"), or when t or
   perm is NULL or capacity is 0. mark_capacity 0 keeps no mark text (samples still count
   their marks). On failure *t is zeroed, and sampling or marking it does nothing. */
bool st_arena_trace_init(ArenaTrace *t, Arena *perm, uint32_t capacity, uint32_t mark_capacity);
/* Names an arena slot (0..ARENA_TRACE_ARENAS-1) once; its reserved size is read at each
   sample. The name is kept by pointer: pass a string that outlives the trace. */
void st_arena_trace_name(ArenaTrace *t, int slot, const char *name);
/* One frame: for each slot below `count` (at most ARENA_TRACE_ARENAS), used/committed from
   st_arena_stats and high from st_arena_high_take; a slot whose Arena * is NULL, and every slot
   from `count` on, records zeros. */
void st_arena_trace_sample(ArenaTrace *t, Arena *const *arenas, int count, uint64_t frame, uint32_t level,
                           uint16_t screen);
/* An event in frame `frame` ("level 02-keys-and-doors.lvl", "load failed ...",
   "arena full: level"), formatted without the heap and cut to ARENA_TRACE_MARK_TEXT - 1
   bytes. Counted in the sample of that frame, whether it is taken before or after. */
void st_arena_trace_mark(ArenaTrace *t, uint64_t frame, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Marks an error or a warning report (its whole text, path included); notes are left out. */
void st_arena_trace_mark_diag(ArenaTrace *t, uint64_t frame, const Diag *d);

/* Samples the ring holds now: min(count, capacity). */
uint64_t st_arena_trace_held(const ArenaTrace *t);
/* The i-th sample from the oldest still held (0 .. held - 1), NULL past the end. */
const ArenaTraceSample *st_arena_trace_at(const ArenaTrace *t, uint64_t i);
/* The same for marks: min(mark_count, mark_capacity) held, the i-th from the oldest. */
uint64_t st_arena_trace_marks_held(const ArenaTrace *t);
const ArenaTraceMark *st_arena_trace_mark_at(const ArenaTrace *t, uint64_t i);

#endif
