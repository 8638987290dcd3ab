/* rewind.h - time run backwards: the Game's past states in the history arena (core/history.h),
   a snapshot before every tick played, and the rewind input (GAME_IN_REWIND) held: back one
   tick per tick at first, two after REWIND_FASTER_TICKS, four after twice that; let go and
   play goes on from the tick reached, recording over what was undone.

   A snapshot is the Game's play span (game.h: game_play_bytes, the Sim by value and the
   screens' state) and the level arena's used bytes [0, pos) with its cursor: the level arena
   never moves, so the Sim's pointers into it read the restored bytes, and a rewind across a
   level change puts the old level back whole. Nothing else: not the progress and settings
   (a rewind never writes a file and never undoes a record the file has), not the HUD's
   message. A level the player rewound in, and a clear a rewind went back into, is not
   counted (game.h: rewound, clear_rewound): no record, no progress saved.

       Rewind rw;
       rewind_init(&rw, host->life.history, g, &err);  // at start-up (false: no rewinding)
       rewind_update(&rw, g, input);                   // every tick, instead of game_update
       if (rw.speed) ...                               // this tick went back (tint, sound)

   The history is taken on the screens of play (playing, the level transition, game over,
   victory) and cleared on the title and level select, so a rewind never leaves the run.
   Holding the input with nothing held behind does nothing (the tick plays); once a hold has
   gone back as far as the history reaches, the game stands still there until it is let go.
   Whether a tick rewinds and how far follows from the inputs and the history the ticks
   before made, so a recorded run that rewinds replays exactly, given a history arena that
   holds the REWIND_TICKS it held when recorded (the default does, for every shipped level;
   a smaller one drops the oldest sooner, and says so once). */
#ifndef REWIND_H
#define REWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/game.h"
#include <strata/core/history.h>

#define REWIND_TICKS (10 * SIM_HZ) /* how far back: 10 s */
#define REWIND_KEYFRAME_EVERY 30   /* a keyframe every half second, deltas between */
#define REWIND_FASTER_TICKS SIM_HZ /* held this long: twice as fast, twice that: four times */
/* The history arena the game asks for (host.h: --history-arena): the copy of a keyframe (as
   large as the largest state recorded: the play span and the level's bytes, at most a level
   arena full to its end) and a ring that holds REWIND_TICKS of the largest shipped level
   many times over (README: "Rewind"). */
#define REWIND_ARENA_BYTES (16ull << 20)

typedef struct Rewind {
    History *history; /* NULL: no rewinding (the input does nothing) */
    HistoryRegion regions[2];
    int32_t held;      /* ticks the rewind input has been held */
    int32_t speed;     /* ticks the last tick went back; 0: it played */
    bool at_start;     /* this hold went back as far as the history reaches */
    bool empty_hold;   /* this hold began with nothing behind: it does nothing */
    bool short_warned; /* the arena dropped states within REWIND_TICKS, said once */
    uint64_t ticks_rewound;
} Rewind;

/* The state a rewind restores: the Game's play span and its level arena (above). */
void rewind_regions(Game *g, HistoryRegion out[2]);
/* The history in `history_arena` (what remains of it), for Game g. False with err filled
   when it does not fit: rw is then a Rewind that never rewinds. */
bool rewind_init(Rewind *rw, Arena *history_arena, Game *g, Error *err);
/* One tick: back in time while the input holds GAME_IN_REWIND on a screen of play (above),
   else the snapshot of the state and game_update. */
void rewind_update(Rewind *rw, Game *g, uint32_t input);
/* Ticks back per tick after the input was held `held` ticks: 1, 2, 4. */
int32_t rewind_speed_for(int32_t held);
/* The history dropped: what is held no longer leads here (the editor changed the level). */
void rewind_forget(Rewind *rw);

#endif
