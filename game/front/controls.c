/* controls.c - Input to the game's input byte (see controls.h). */
#include "front/controls.h"

#include <stdio.h>

#include <SDL2/SDL.h>

/* Scancodes: physical keys, so WASD stays under the left hand on AZERTY or Dvorak. Pad
   buttons are SDL_GameControllerButton + 1, and are the same for everyone. */
#define PAD(b) (uint8_t)(SDL_CONTROLLER_BUTTON_##b + 1)
const InputActionDesc CONTROLS_ACTIONS[ACTION_COUNT] = {
    [ACTION_UP] = {"up", {SDL_SCANCODE_W, SDL_SCANCODE_UP}, {PAD(DPAD_UP)}, INPUT_STICK_UP, true},
    [ACTION_DOWN] = {"down", {SDL_SCANCODE_S, SDL_SCANCODE_DOWN}, {PAD(DPAD_DOWN)}, INPUT_STICK_DOWN, true},
    [ACTION_LEFT] = {"left", {SDL_SCANCODE_A, SDL_SCANCODE_LEFT}, {PAD(DPAD_LEFT)}, INPUT_STICK_LEFT, true},
    [ACTION_RIGHT] = {"right", {SDL_SCANCODE_D, SDL_SCANCODE_RIGHT}, {PAD(DPAD_RIGHT)}, INPUT_STICK_RIGHT, true},
    [ACTION_FIRE] = {"fire", {SDL_SCANCODE_SPACE, SDL_SCANCODE_J}, {PAD(A), PAD(X)}, 0, true},
    [ACTION_CONFIRM] = {"confirm", {SDL_SCANCODE_RETURN, SDL_SCANCODE_KP_ENTER}, {PAD(A)}, 0, true},
    [ACTION_PAUSE] = {"pause", {SDL_SCANCODE_ESCAPE, SDL_SCANCODE_P}, {PAD(START)}, 0, true},
    [ACTION_RESTART] = {"restart", {SDL_SCANCODE_R}, {PAD(BACK)}, 0, true},
    [ACTION_REWIND] = {"rewind", {SDL_SCANCODE_BACKSPACE, SDL_SCANCODE_Q}, {PAD(LEFTSHOULDER), PAD(B)}, 0, true},
    [ACTION_MUTE] = {"mute", {SDL_SCANCODE_M}, {0}, 0, false},
    [ACTION_EDIT] = {"edit", {SDL_SCANCODE_E}, {0}, 0, false},
};
_Static_assert(ACTION_COUNT <= INPUT_MAX_ACTIONS, "input.h holds this many actions");

/* Which action presses each bit of the input: bit i is (1 << i). */
static const Action bit_action[CONTROLS_BITS] = {ACTION_UP,    ACTION_DOWN,    ACTION_LEFT,
                                                 ACTION_RIGHT, ACTION_FIRE,    ACTION_CONFIRM,
                                                 ACTION_PAUSE, ACTION_RESTART, ACTION_REWIND};
_Static_assert(SIM_IN_UP == 1u << 0 && SIM_IN_DOWN == 1u << 1 && SIM_IN_LEFT == 1u << 2 && SIM_IN_RIGHT == 1u << 3 &&
                   SIM_IN_FIRE == 1u << 4 && GAME_IN_CONFIRM == 1u << 5 && GAME_IN_PAUSE == 1u << 6 &&
                   GAME_IN_RESTART == 1u << 7 && GAME_IN_REWIND == 1u << 8,
               "bit_action follows the input's layout");
/* The bits the game reads as held (their edges from the previous tick), not as edges. */
#define HELD_BITS (SIM_IN_MASK | GAME_IN_REWIND)
enum { PAUSE_BIT = 6 };

static uint32_t held_bits(const Input *in) {
    uint32_t b = 0;
    /* The stick drives the directions past INPUT_STICK_DIGITAL (their descs say so). */
    if (in->down[ACTION_UP]) b |= SIM_IN_UP;
    if (in->down[ACTION_DOWN]) b |= SIM_IN_DOWN;
    if (in->down[ACTION_LEFT]) b |= SIM_IN_LEFT;
    if (in->down[ACTION_RIGHT]) b |= SIM_IN_RIGHT;
    if (in->down[ACTION_FIRE]) b |= SIM_IN_FIRE;
    if (in->down[ACTION_REWIND]) b |= GAME_IN_REWIND;
    return b;
}

static void queue_presses(Controls *c, int bit, int n) {
    int q = c->queued[bit] + n;
    c->queued[bit] = (uint8_t)(q < CONTROLS_MAX_QUEUED ? q : CONTROLS_MAX_QUEUED);
}

/* How many times `a` went down; `pressed` alone (an Input filled by hand) is once. */
static int presses_of(const Input *in, Action a) { return in->presses[a] ? in->presses[a] : in->pressed[a]; }

void controls_collect(Controls *c, Input *in, GameScreen screen) {
    /* A key pressed and released between two polls is not down any more, but it was a
       press: a later tick still sees it (a menu step, a shot), once per press. */
    for (int bit = 0; bit < CONTROLS_BITS; bit++) queue_presses(c, bit, presses_of(in, bit_action[bit]));
    /* Losing focus while playing must leave the game paused, and pause is a toggle: add a
       pause only when the queued ones would otherwise cancel out. */
    if (in->focus_lost && screen == SCREEN_PLAYING && c->queued[PAUSE_BIT] % 2 == 0) {
        if (c->queued[PAUSE_BIT] == CONTROLS_MAX_QUEUED) c->queued[PAUSE_BIT]--;
        else c->queued[PAUSE_BIT]++;
    }
    c->mute = presses_of(in, ACTION_MUTE) % 2 == 1;
    c->edit = in->pressed[ACTION_EDIT];
    c->key_pressed = in->key_pressed;
    /* Everything the edges mean is in `c` now; left latched, they would act again on every
       later frame. */
    st_input_end_step(in);
}

uint16_t controls_tick_input(Controls *c, const Input *in) {
    uint32_t held = held_bits(in), b = 0;
    for (int bit = 0; bit < CONTROLS_BITS; bit++) {
        uint32_t m = 1u << bit;
        if (c->queued[bit]) {
            /* The game sees a held-style bit's press only as a change from the previous
               tick: if that tick had it, this one goes without it (the release in between). */
            if ((m & HELD_BITS) && (c->last & m)) continue;
            b |= m;
            c->queued[bit]--;
        } else {
            b |= held & m;
        }
    }
    c->last = (uint16_t)b;
    return (uint16_t)b;
}

/* The settings screen's names of the rebindable actions. */
static const char *const ACTION_LABELS[SAVE_BIND_ACTIONS] = {"Up",      "Down",  "Left",    "Right", "Fire",
                                                             "Confirm", "Pause", "Restart", "Rewind"};

static const char *label(int32_t a) { return a >= 0 && a < SAVE_BIND_ACTIONS ? ACTION_LABELS[a] : "?"; }

/* Appends to out[0, cap) after *len, cut to fit. */
static void append(char *out, size_t cap, size_t *len, const char *fmt, const char *a, const char *b) {
    if (*len + 1 >= cap) return;
    int n = snprintf(out + *len, cap - *len, fmt, a, b);
    if (n > 0) *len = *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

bool controls_bind_notice(const GameBind *b, char *out, size_t cap) {
    if (cap) out[0] = '\0';
    if (b->action < 0 || b->action >= SAVE_BIND_ACTIONS || !cap) return false;
    /* st_input_key_name keeps one buffer per key: several names can be used at once. */
    size_t n = 0;
    append(out, cap, &n, "'%s' now for %s", st_input_key_name(b->key), label(b->action));
    if (b->taken_from >= 0 && b->dropped && b->dropped_to == b->taken_from)
        append(out, cap, &n, " (taken from %s, which gets '%s')", label(b->taken_from), st_input_key_name(b->dropped));
    else if (b->taken_from >= 0) append(out, cap, &n, " (taken from %s)%s", label(b->taken_from), "");
    if (b->dropped && b->dropped_to < 0) append(out, cap, &n, "; '%s' unbound%s", st_input_key_name(b->dropped), "");
    return true;
}
