/* input_log.h - a recorded game: the buttons of every tick (sim.h's SIM_LEFT...) as runs,
   with the run's length and the hash the rules ended on. A text file, to read and diff:

       breakout-input-log 1
       ticks 3600
       hash 3a6f0c2d9e1b7a44
       90 0          <- 90 ticks with nothing pressed
       12 4          <- 12 ticks of SIM_FIRE
       ...

   Recording pushes a tick at a time into a log made in the permanent arena; playing reads
   one back, tick by tick:

       InputLog log;
       if (!input_log_read(perm, "demo.bkr", &log)) ...   // reported: path:line:col: error: ...
       uint8_t b = input_log_next(&log);                   // one per tick; done once log.at == log.ticks
*/
#ifndef BREAKOUT_INPUT_LOG_H_
#define BREAKOUT_INPUT_LOG_H_

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/error.h>

#define INPUT_LOG_MAX_RUNS (1u << 16) /* a recording stops growing there (about 20 minutes of play) */
#define INPUT_LOG_FILE_MAX (4u << 20)

typedef struct InputRun {
    uint32_t ticks;
    uint8_t buttons;
} InputRun;

typedef struct InputLog {
    InputRun *runs;
    uint32_t count, cap;
    uint64_t ticks, hash;
    bool full;                /* a recording past INPUT_LOG_MAX_RUNS */
    uint64_t at;              /* playing: ticks handed out */
    uint32_t run, run_offset; /* playing: where `at` is */
} InputLog;

/* An empty log to record into, its runs in `perm`. False when perm is full (reported). */
bool input_log_create(Arena *perm, InputLog *out);
/* One tick's buttons. */
void input_log_push(InputLog *log, uint8_t buttons);
/* Writes the log with `hash` as the run's verdict, atomically. False with err filled. */
bool input_log_write(const InputLog *log, const char *path, uint64_t hash, Error *err);
/* Reads a log into `perm` (the file itself in a scratch scope). False, reported, on a file
   that is not one: the line and column of what is wrong and what was expected there. */
bool input_log_read(Arena *perm, const char *path, InputLog *out);
/* The next tick's buttons (0 past the end). */
uint8_t input_log_next(InputLog *log);

#endif
