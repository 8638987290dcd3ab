/* replay.h - a run as data: seed, start level, and the input of every 60 Hz tick.

   Because the game is deterministic (sim.h), these and what the run started from reproduce
   it exactly. The file is text, run-length encoded, and records what the run ended with so
   a replay can check itself:

       # arena-dungeon replay
       replay 3
       seed 1
       level levels/01-first-steps.lvl
       chosen yes            # --level named it: the title's Enter plays it
       furthest 03-spikes-and-water.lvl      # the progress at the start ...
       best 01-first-steps.lvl 1834 12       # ... a level's best ticks and coins
       ticks 1834            # game ticks recorded
       levels 1              # levels completed at the end
       hash 9f0c2d4b7a115e20 # game_run_hash() at the end
       inputs
       40x00 12x08 3x18 ...  # COUNTxHEX: HEX held for COUNT ticks (bits: see game.h)
       end

   Version 3 is what the game writes: the start's `chosen`, `furthest` and `best` lines, the
   ninth input bit (GAME_IN_REWIND, 0..1ff), and a hash over the course through the menus
   and cards as well as play (game_run_hash). Versions 1 (eight bits) and 2 (nine) are read
   as they were written: no start lines (a level not chosen, no progress) and game_hash.
   `#` starts a comment on any line. `ticks` must equal the sum of the COUNTs and is at most
   REPLAY_TICKS_MAX, so a file whose inputs were cut short or added to fails to load instead
   of replaying another run, and none plays for longer than a day.

       Replay r;
       replay_begin_record(&r, perm, seed, level);      // start-up: reserves the buffer
       r.start = (ReplayStart){.level_chosen = true};    // what else the run starts from
       replay_append(&r, input);                        // every tick, no allocation
       replay_save(&r, "run.rep", hash, levels, &err);  // Error err (core/error.h)

       replay_load(&r, perm, "run.rep", &err);  // start-up
       uint16_t in; while (replay_next(&r, &in)) game_update(g, in);

   Memory: the run buffer is reserved in the arena given at start-up (REPLAY_MAX_RUNS runs);
   recording past it (or past REPLAY_TICKS_MAX) stops with a warning rather than allocate
   during play. Such a recording is saved without its `levels` and `hash` lines (the run went
   on past its last input, so they would not match), and plays back unchecked. replay_save
   writes atomically (st_os_write_file_atomic): an interrupted save leaves the previous file
   whole. */
#ifndef REPLAY_H
#define REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/str8.h>
#include "rules/save.h"

#define REPLAY_MAX_RUNS (1u << 18)
#define REPLAY_PATH_MAX 512
#define REPLAY_FILE_MAX (64ull << 20)
#define REPLAY_VERSION 3                      /* the newest read, and the one written */
#define REPLAY_INPUT_MAX_V1 0xffu             /* the largest input of a version 1 file */
#define REPLAY_INPUT_MAX 0x1ffu               /* ... of versions 2 and 3 */
#define REPLAY_TICKS_MAX (24u * 60 * 60 * 60) /* a day at 60 Hz */

typedef struct ReplayRun {
    uint32_t count;
    uint16_t input;
} ReplayRun;

/* What a run's course depends on besides its level, seed and inputs (version 3): whether
   the level was named (--level: the title opens on "New run", whose Enter plays it) and the
   progress the save held (the title's "Continue", the unlocked levels, the records the
   cards compare with). */
typedef struct ReplayStart {
    bool level_chosen;
    char furthest[SAVE_NAME_MAX];
    SaveLevel levels[SAVE_MAX_LEVELS];
    int32_t level_count;
} ReplayStart;

typedef struct Replay {
    uint32_t version; /* from the file (0: it had no `replay` line, read as 1) */
    uint64_t seed;
    char level[REPLAY_PATH_MAX];
    ReplayStart start;
    uint32_t ticks; /* ticks recorded (or stored in the file), at most REPLAY_TICKS_MAX */
    int32_t levels; /* from the file: levels completed at the end (-1: unknown) */
    uint64_t hash;  /* from the file */
    bool has_hash;
    ReplayRun *runs;
    uint32_t run_count, run_cap;
    bool overflowed;
    uint32_t cursor_run, cursor_in_run; /* playback position */
} Replay;

bool replay_begin_record(Replay *r, Arena *a, uint64_t seed, const char *level);
void replay_append(Replay *r, uint16_t input);
bool replay_save(const Replay *r, const char *path, uint64_t hash, int32_t levels, Error *err);
/* Reads the file at `path` (at most REPLAY_FILE_MAX bytes); its runs go in `a`. False with
   a message naming the file (path:line: error: ...), and *r and `a` as they were. */
bool replay_load(Replay *r, Arena *a, const char *path, Error *err);
/* replay_load on text in memory, said to come from `path`. */
bool replay_parse(Replay *r, Arena *a, const char *path, Str8 text, Error *err);
/* The file's text for r as it stands (its `levels` and hash when it has them), in `a`;
   empty when `a` is full. replay_save is this with the run's end filled in. */
Str8 replay_format(Arena *a, const Replay *r);
/* The next tick's input; false when the replay is over. */
bool replay_next(Replay *r, uint16_t *input);
bool replay_done(const Replay *r);

#endif
