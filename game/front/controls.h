/* controls.h - the game's actions (its keys and buttons, handed to input.h), and the Input
   turned into the game's per-tick input byte (game.h), plus the front end's own switches:
   M mute, E edit (F1, F11 and F12 are the host's: host/host.h).

   st_platform_poll latches every press in Input until st_input_end_step. The game runs zero, one
   or several ticks per displayed frame, so the frame's presses are collected once, right
   after the poll, into `queued` and the Input's edges are consumed there and then; the
   ticks that run next take them one at a time. One press is one effect: one confirm, one
   pause toggle, one mute, however many frames follow; and two
   presses are two, even when both land before a tick runs (two menu taps 20 ms apart).

       Controls c = {0};
       while (st_platform_poll(pf, &in)) {
           controls_collect(&c, &in, g->screen);   // once per displayed frame
           for (int i = 0; i < steps; i++) game_update(g, controls_tick_input(&c, &in));
           if (c.mute) ...                         // M went down this frame
       }

   The game takes GAME_IN_* as edges (set: pressed this tick) and SIM_IN_* as held bits,
   whose edges it finds by comparing with the previous tick's byte; GAME_IN_REWIND, the
   ninth bit past the byte, is held too (rules/rewind.h). So two queued confirms
   go to two successive ticks, while a second press of a held-style bit first gets a tick
   with the bit clear: Down, (none), Down is two steps through a menu, Down, Down only one.

   The byte is what replays record, so everything here must follow from the Input alone. */
#ifndef CONTROLS_H
#define CONTROLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/game.h"
#include <strata/platform/platform.h>

/* The game's actions (input.h: the engine knows none of them), in this order; the first
   SAVE_BIND_ACTIONS are the ones the player rebinds (save.h keeps their keys). */
typedef enum Action {
    ACTION_UP,
    ACTION_DOWN,
    ACTION_LEFT,
    ACTION_RIGHT,
    ACTION_FIRE,    /* Space, J; pad A, X */
    ACTION_CONFIRM, /* Enter, keypad Enter; pad A as well */
    ACTION_PAUSE,   /* Esc, P; pad Start */
    ACTION_RESTART, /* R; pad Back */
    ACTION_REWIND,  /* Backspace, Q; pad left shoulder, B: held, time runs backwards */
    /* Fixed (F1, F11 and F12 are the engine's host's): */
    ACTION_MUTE, /* M */
    ACTION_EDIT, /* E: the level editor */
    ACTION_COUNT
} Action;

/* Their names, default keys, pad buttons and stick directions, for st_input_set_actions. */
extern const InputActionDesc CONTROLS_ACTIONS[ACTION_COUNT];

/* Presses of one bit kept for later ticks; more are dropped (a stall does not turn into a
   burst of menu steps afterwards). */
#define CONTROLS_MAX_QUEUED 4
#define CONTROLS_BITS 9 /* the input's bits: the byte's eight and GAME_IN_REWIND */

typedef struct Controls {
    uint8_t queued[CONTROLS_BITS]; /* per bit of the input: presses not yet given to a tick */
    uint16_t last;                 /* the input the previous tick got */
    bool mute;                     /* M went down (an odd number of times) in the frame collected last */
    bool edit;                     /* E went down in the frame collected last: the level editor */
    /* scancode of the last key down in the frame collected last, 0: none
       (Input.key_pressed, kept past st_input_end_step for a rebind prompt) */
    uint16_t key_pressed;
} Controls;

/* What a rebinding moved (game_bind_key's answer), in words for the HUD, with the keys'
   names on the player's layout: "'D' now for Fire (taken from Right); 'Return' unbound",
   "'R' now for Confirm (taken from Restart, which gets 'Return')".
   False (and out empty) when nothing changed. */
bool controls_bind_notice(const GameBind *b, char *out, size_t cap);

/* Once per displayed frame, after st_platform_poll: folds in's edges into c (a focus loss
   pauses when `screen` is SCREEN_PLAYING), then st_input_end_step(in). */
void controls_collect(Controls *c, Input *in, GameScreen screen);
/* The input of the next tick: the SIM_IN_* bits and GAME_IN_REWIND held now plus at most
   one queued press of each bit, which it consumes. */
uint16_t controls_tick_input(Controls *c, const Input *in);

#endif
