/* timeline.h - a run's arenas over time: every displayed frame sampled into a ring
   (core/arena_trace.h) with marks for what happened, the levels played with what each
   needed, and with --arena-trace the whole run as CSV. The host's (host.h); plain data held in
   the Host, its ring in the permanent arena.

       Timeline *t = &app->timeline;
       st_timeline_create(t, perm, csv_wanted, every);        // once, at start-up
       st_timeline_mark(t, frame, "%s", report_text);       // from the diag sink: errors, warnings
       st_timeline_frame(t, &scene, arenas, frame);        // after drawing, every frame
       uint64_t rec = st_timeline_report(t);                // at exit: the table, on stderr
       st_timeline_write_csv(t, path, rec, &err);       // and the file, when asked for

   The CSV: a comment line `# recommended_level_arena_bytes=N`, the header ST_TIMELINE_CSV_HEADER,
   then one row per frame (or per `every` frames and every frame with an event): frame,
   level (the table's number, 1 = the first played), screen, the frame's events "; "-joined,
   and used, committed, high and reserved of each arena (permanent, level, frame, scratch,
   history); the scratch group is the largest of the main thread's scratch arenas. */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena_trace.h>
#include <strata/core/virtual_array.h>

#define TIMELINE_FRAMES 600 /* the ring: 10 s at 60 Hz, for the F1 graph */
#define TIMELINE_MARKS 256
#define TIMELINE_LEVELS_MAX 64
#define TIMELINE_PATH_MAX 256
/* The slots of a sample: the arenas st_timeline_frame is given, in this order. */
enum {
    TIMELINE_PERM,
    TIMELINE_LEVEL,
    TIMELINE_FRAME,
    TIMELINE_SCRATCH,
    TIMELINE_HISTORY = TIMELINE_SCRATCH + 3,
    TIMELINE_SLOTS
};

extern const char ST_TIMELINE_CSV_HEADER[];

/* One level played, for the table printed at exit. */
typedef struct TimelineLevel {
    char path[TIMELINE_PATH_MAX];
    uint64_t level_bytes;  /* in the level arena, its room included */
    uint64_t frame_peak;   /* the frame arena's highest use while it was played */
    uint64_t scratch_load; /* the scratch peak while it loaded */
} TimelineLevel;

/* What the game plays now, as it tells the timeline every frame (host.h: Host.scene): the
   level (a new serial when one loads, with what its load took) and the screen, by number
   into the game's names. Zero is "nothing yet". */
typedef struct TimelineScene {
    uint32_t level_serial;
    const char *level_path;      /* "" or NULL: none */
    const char *level_peak_path; /* the level that made the level arena's peak, for the report */
    uint64_t level_bytes;        /* its need in the level arena, its room included */
    uint64_t scratch_load;       /* the scratch peak while it loaded */
    uint16_t screen;
    const char *const *screen_names;
    uint16_t screen_count;
} TimelineScene;

typedef struct Timeline {
    ArenaTrace trace;
    VirtualArray csv; /* the rows so far; base NULL when no CSV was asked for */
    uint32_t every;
    char events[256]; /* this frame's marks, for the CSV's event column */
    uint32_t level_serial;
    uint16_t screen;
    const char *const *screen_names; /* the last scene's: the CSV's screen column */
    uint16_t screen_count;
    TimelineLevel played[TIMELINE_LEVELS_MAX];
    int32_t played_count, played_now; /* played_now: the record of the level running, -1 none */
} Timeline;

/* False when the permanent arena cannot hold the ring or the CSV's address space cannot be
   reserved. */
bool st_timeline_create(Timeline *t, Arena *perm, bool csv, uint32_t every);
void st_timeline_release(Timeline *t);
void st_timeline_mark(Timeline *t, uint64_t frame, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* After the frame is drawn: marks for a new level or screen, one sample of `arenas`
   (TIMELINE_SLOTS of them, NULL for one that does not exist), the frame's CSV row. */
void st_timeline_frame(Timeline *t, const TimelineScene *scene, Arena *const arenas[TIMELINE_SLOTS], uint64_t frame);
/* The levels played and the recommended LEVEL_ARENA_BYTES (levelcheck's rule) on stderr;
   returns the recommendation (0 when nothing was played). */
uint64_t st_timeline_report(const Timeline *t);
bool st_timeline_write_csv(const Timeline *t, const char *path, uint64_t recommended, Error *err);

#endif
