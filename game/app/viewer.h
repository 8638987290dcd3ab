/* viewer.h - a recorded run you can scrub: step it a tick at a time, seek anywhere, pause,
   with a bar of the whole run along the bottom (the level changes and the restarts marked).

   Opening plays the run through once, at the simulation's speed (no drawing), and keeps a
   keyframe of the game's state every `keyframe_every` ticks and every tick's input in a
   History (core/history.h, deltas off) in the history arena. A seek to tick T restores the
   keyframe at or before T and plays the inputs from there, through the same step as a
   straight run, so the state at T is the one playing straight to T gives, hash and all.
   Inputs with one of `history_bits` (the rewind) read state the regions do not hold (the
   rewind's own history): a seek whose stretch holds one starts from tick 0 instead, where
   that state is the empty one a straight run starts with (`forget` empties it). The tick
   before T counts too, on a keyframe's tick as well, since the picture at T shows what it
   did (the rewind's tint); and playing on into such an input after a seek that emptied
   that state is a seek (VIEWER_TICK_MOVED), not a tick that would not go back.

       ViewerGame vg = {.g = g, .rw = &rw};                 // a Game that rewinds, or
       ViewerParams p = viewer_game_params(&r, &vg, 0, 0);  // ViewerParams of your own
       Viewer *v = viewer_create(history_arena, &p, &err);
       viewer_open(v, &err);       // the pass: keyframes, marks, the run's end and hash
       viewer_seek(v, 1234);       // the state after 1234 ticks
       // every frame: the keys (true: the state jumped, effects and camera start afresh)
       if (viewer_frame(v, &host->in)) ...
       // every tick the clock owes: the next input while it plays, or a held step key's
       uint16_t in; ViewerTick t = viewer_next(v, &in);
       if (t == VIEWER_TICK_PLAY) step(app, in);   // MOVED: it sought; NONE: nothing to do
       viewer_draw(v, rd, &font, w, h);   // the bar

   Keys: Left/Right a tick (held: repeating), with Shift a second; PageUp/PageDown ten
   seconds; Home/End the start and the end; Space pauses and plays. The mouse on the bar
   seeks (click or drag). A pad: d-pad left/right a tick, the shoulders a second, A plays.

   Memory: viewer_create takes the Viewer and the History's entries (one per tick of the run)
   from `arena` at once, then the keyframes' ring, `bytes` of it
   (0: the rest of the arena, pushed as far as used: create it last). Opening, seeking,
   stepping and drawing never allocate (the bar's text goes in the frame arena). */
#ifndef VIEWER_H
#define VIEWER_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/history.h>
#include <strata/platform/input.h>
#include <strata/render/font.h>
#include <strata/render/render.h>
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/rewind.h"

#define VIEWER_KEYFRAME_EVERY 60 /* a second of play between keyframes */
#define VIEWER_MARKS_MAX 256     /* level changes and restarts marked on the bar */
#define VIEWER_BAR_H 22          /* the bar's panel at the bottom of the screen, in pixels */
#define VIEWER_REPEAT_AFTER 15   /* ticks a step key is held before it repeats, once a tick */

typedef void ViewerStep(void *ctx, uint16_t input);

typedef struct ViewerParams {
    Replay *replay; /* loaded; the viewer reads its runs (and moves its cursor) */
    Game *g;        /* on the run's first tick (what game_init made of the replay's level) */
    const HistoryRegion *regions;
    uint32_t region_count;
    ViewerStep *step;          /* one tick of the game as a straight run plays it */
    void (*forget)(void *ctx); /* empties what `history_bits` inputs read (may be NULL) */
    void *ctx;                 /* for step and forget */
    uint16_t history_bits;     /* inputs that read state outside the regions */
    uint32_t keyframe_every;   /* 0: VIEWER_KEYFRAME_EVERY */
    uint64_t bytes;            /* the keyframes' ring; 0: the rest of the arena */
    uint64_t state_max;        /* the largest state (0: core/history.h's default) */
} ViewerParams;

/* A Game that rewinds (rules/rewind.h), as a straight run plays it: the viewer's params for
   it (viewer_game_params) step each tick through rewind_update, empty the rewind's history
   as `forget`, and keep the regions a rewind restores and the save's (the progress a clear
   records, which the title and the cards read: a rewind never undoes it, but a seek back
   before the clear must). */
typedef struct ViewerGame {
    Game *g;
    Rewind *rw;
    HistoryRegion regions[3]; /* viewer_game_params fills them */
} ViewerGame;

/* The params for replay r played on vg (which outlives the viewer). */
ViewerParams viewer_game_params(Replay *r, ViewerGame *vg, uint64_t bytes, uint64_t state_max);

typedef enum ViewerMarkKind { VIEWER_MARK_LEVEL, VIEWER_MARK_RESTART } ViewerMarkKind;

typedef struct ViewerMark {
    uint32_t tick;
    uint8_t kind; /* ViewerMarkKind */
} ViewerMark;

typedef struct Viewer {
    ViewerParams p;
    History *keys;
    uint32_t ticks; /* the run's length */
    uint64_t tick;  /* the state shown is the one after this many ticks */
    bool paused;
    bool opened;    /* viewer_open played the run through */
    bool forgotten; /* `forget` ran since the last start from tick 0: history_bits inputs are not exact */
    ViewerMark marks[VIEWER_MARKS_MAX];
    uint32_t mark_count, marks_dropped;
    uint64_t end_hash;           /* game_hash at the run's end, from the pass */
    uint64_t end_run_hash;       /* ... and game_run_hash */
    int32_t end_levels;          /* levels completed at the end */
    uint64_t arena_bytes;        /* what viewer_create took of its arena */
    uint64_t ring_need;          /* the pass stopped for room: the ring the run needs (estimated) */
    uint64_t open_ns;            /* the pass's CPU time (viewer_open) */
    uint64_t seeks, seek_ticks;  /* seeks made, and the ticks they played */
    uint32_t worst_seek_ticks;   /* the most ticks one seek played */
    int32_t held;                /* ticks the step key has been held */
    int32_t hold_dir, hold_unit; /* the step key held (-1, 0, 1) and its ticks (1, or a second's) */
    bool dragging;               /* the mouse holds the bar */
} Viewer;

/* NULL with err filled, and the arena as it was, when it cannot hold it. */
Viewer *viewer_create(Arena *arena, const ViewerParams *p, Error *err);
/* What viewer_create takes of its arena besides the ring's `bytes`. */
uint64_t viewer_size(const ViewerParams *p);
/* Plays the run through from the state given (keyframes, marks, the end's hash), then back
   to tick 0. False with err filled when a state is larger than state_max or the keyframes
   do not fit the ring (--history-arena): the viewer is then unusable, and the Game back on
   the run's first tick (v->tick 0: it can be played straight) or, when even that is not
   held, where the pass stopped (v->tick HISTORY_NONE). */
bool viewer_open(Viewer *v, Error *err);
/* The state after `tick` ticks (clamped to the run's length); returns the tick reached. */
uint64_t viewer_seek(Viewer *v, uint64_t tick);
typedef enum ViewerTick {
    VIEWER_TICK_NONE, /* paused, or at the end (which pauses) */
    VIEWER_TICK_PLAY, /* *input is the next tick's, counted: play it */
    VIEWER_TICK_MOVED /* a held step key moved the state itself (a seek) */
} ViewerTick;

/* One tick the clock owes (above). */
ViewerTick viewer_next(Viewer *v, uint16_t *input);
/* The frame's keys, pad and mouse (above). True when the state jumped (a seek or a step). */
bool viewer_frame(Viewer *v, const Input *in, float w, float h);
/* The tick under logical x on a bar of width w (the bar's inset included). */
uint64_t viewer_tick_at(const Viewer *v, float x, float w);
/* The bar along the bottom of a w x h screen (VIEWER_BAR_H of it: the game draws above). */
void viewer_draw(const Viewer *v, Renderer *rd, const Font *font, float w, float h);

#endif
