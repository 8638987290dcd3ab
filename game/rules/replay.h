/* replay.h - a run as data: seed, start level, and the input of every 60 Hz tick.

   Because the game is deterministic (sim.h), these three things reproduce a run exactly.
   The file is text, run-length encoded, and records what the run ended with so a replay
   can check itself:

       # arena-dungeon replay
       replay 1
       seed 1
       level levels/01-first-steps.lvl
       ticks 1834            # game ticks recorded
       levels 1              # levels completed at the end
       hash 9f0c2d4b7a115e20 # game_hash() at the end
       inputs
       40x00 12x08 3x18 ...  # COUNTxHEX: HEX held for COUNT ticks (bits: see game.h)
       end

   Version 1 holds the eight bits of the first input byte (0..ff); version 2 adds the ninth,
   GAME_IN_REWIND (0..1ff). A recording is written as version 1 unless a tick has the ninth
   bit set, so a run that never rewound is a file every version of the game plays.
   `#` starts a comment on any line. `ticks` must equal the sum of the COUNTs, so a file
   whose inputs were cut short or added to fails to load instead of replaying another run.

       Replay r;
       replay_begin_record(&r, perm, seed, level);         // start-up: reserves the buffer
       replay_append(&r, input);                           // every tick, no allocation
       replay_save(&r, "run.rep", hash, levels, &err);  // Error err (core/error.h)

       replay_load(&r, perm, "run.rep", &err);  // start-up
       uint16_t in; while (replay_next(&r, &in)) game_update(g, in);

   Memory: the run buffer is reserved in the arena given at start-up (REPLAY_MAX_RUNS runs);
   recording past it stops with a warning rather than allocate during play. Such a recording
   is saved without its `levels` and `hash` lines (the run went on past its last input, so
   they would not match), and plays back unchecked. replay_save writes atomically
   (st_os_write_file_atomic): an interrupted save leaves the previous file whole. */
#ifndef REPLAY_H
#define REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/str8.h>

#define REPLAY_MAX_RUNS (1u << 18)
#define REPLAY_PATH_MAX 512
#define REPLAY_FILE_MAX (64ull << 20)
#define REPLAY_VERSION 2          /* the newest read */
#define REPLAY_INPUT_MAX_V1 0xffu /* the largest input of a version 1 file */
#define REPLAY_INPUT_MAX 0x1ffu   /* ... of version 2 */

typedef struct ReplayRun {
    uint32_t count;
    uint16_t input;
} ReplayRun;

typedef struct Replay {
    uint32_t version; /* from the file (0: it had no `replay` line, read as 1) */
    uint64_t seed;
    char level[REPLAY_PATH_MAX];
    uint32_t ticks; /* ticks recorded (or stored in the file) */
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
