/* controls.h - the player's keys and buttons (platform.h's Input) turned into the game's
   per-tick input byte (game.h), plus the front end's own switches: F1 overlay, F12 shot.

   platform_poll latches every press in Input until input_end_step. The game runs zero, one
   or several ticks per displayed frame, so the frame's presses are collected once, right
   after the poll, into `pending` and the Input's edges are consumed there and then; the
   next tick to run takes `pending` and empties it. One press is one effect: one confirm,
   one pause toggle, one overlay toggle, one screenshot, however many frames follow.

       Controls c = {0};
       while (platform_poll(pf, &in)) {
           controls_collect(&c, &in, g->screen);   // once per displayed frame
           for (int i = 0; i < steps; i++) game_update(g, controls_tick_input(&c, &in));
           if (c.show_debug) ...                   // overlay on / off
           if (c.screenshot) ...                   // F12 went down this frame
       }

   The byte is what replays record, so everything here must follow from the Input alone. */
#ifndef CONTROLS_H
#define CONTROLS_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "platform/platform.h"

typedef struct Controls {
    uint32_t pending; /* edges collected from polls, not yet seen by a tick */
    bool show_debug;  /* the F1 overlay */
    bool screenshot;  /* F12 went down in the frame collected last */
} Controls;

/* Once per displayed frame, after platform_poll: folds in's edges into c (a focus loss
   pauses when `screen` is SCREEN_PLAYING), then input_end_step(in). */
void controls_collect(Controls *c, Input *in, GameScreen screen);
/* The input byte of the next tick: the SIM_IN_* bits held now plus the pending edges,
   which it consumes. */
uint8_t controls_tick_input(Controls *c, const Input *in);

#endif
