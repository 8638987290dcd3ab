/* watch.h - notices that a level file changed on disk, so the game can reload it while you
   edit it (live reload). No SDL, no heap, no thread: the caller polls.

   A LevelWatch remembers one file's modification time (nanoseconds) and size, as
   st_os_file_info reports them. watch_poll looks again and says true once for each change it
   sees: either differs from the last poll, or the file is back after it was gone. Polling
   costs one stat(2); call it a few times a second, not every frame:

       LevelWatch w;
       watch_start(&w, sim->level_path);                 // remembers the file as it is now
       ...                                               // every 15 frames, say:
       watch_follow(&w, sim->level_path);                // the level changed: watch the new one
       if (watch_poll(&w)) {
           Error err;
           if (sim_reload_level(sim, level_arena, &err)) st_diag_report(DIAG_NOTE, "reloaded %s", w.path);
           else st_error_report(&err);                // the old level keeps running
       }

   What editors do to a file, and what the poll sees:
     - written in place: the time and size change; the poll may catch it half-written, and
       the reload then fails (reported, the old level kept). Writing goes on changing the
       time or the size, so a later poll reports the file again once it is whole.
     - written to a new file renamed over the old one (an atomic save): the file at the path
       now has the new file's time and size, which is a change.
     - deleted, then written again: nothing while it is gone (there is nothing to load), a
       change when it is back.
   Not seen: a change that keeps both the size and the time to the nanosecond (a file system
   whose clock is coarse, two saves of the same length within one of its ticks). Saving
   again shows it. */
#ifndef WATCH_H
#define WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/os_file.h>

#include "level/level.h"

typedef struct LevelWatch {
    char path[LEVEL_PATH_MAX]; /* "" when the path given did not fit: then nothing changes */
    OsFileStamp stamp;         /* the file at the last look (os_file.h) */
    uint32_t polls;            /* watch_poll calls since watch_start */
} LevelWatch;

/* Starts watching `path`, remembering the file's current state (a missing file is a state
   too: its appearance will be a change). */
void watch_start(LevelWatch *w, const char *path);
/* True once per change seen since the last poll: the time or the size differs, or the file
   is back after it was gone. A missing file is never a change by itself. */
bool watch_poll(LevelWatch *w);
/* Restarts the watch on `path` when it is not the one watched (the level changed); true
   when it did. Polling the new file then reports only its later changes. */
bool watch_follow(LevelWatch *w, const char *path);

#endif
