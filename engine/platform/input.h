/* input.h - what the player presses, as the game's actions: keys (by scancode), game
   controllers, the mouse and typed text, gathered from SDL's events into one Input.

   Input is actions, not keys. Keyboard bindings use SCANCODES (physical positions: WASD is
   ZQSD on AZERTY without remapping); two keys per action, rebindable for the game's own
   actions (input_set_bindings); game controllers are opened on hot-plug. An action is
   `down` while any of its bindings is held; `pressed` latches when it goes down and stays
   set until input_end_step(), so a press is seen by exactly one simulation step even when
   a display frame runs zero steps (high refresh rates) or several (catching up); `presses`
   counts them, so two taps before the next step are two. input_handle_event() maps one
   SDL_Event, so tests can feed synthetic events. */
#ifndef INPUT_H
#define INPUT_H

#include <stdbool.h>
#include <stdint.h>

union SDL_Event;

typedef enum Action {
    /* Rebindable (input_action_rebindable): */
    ACTION_UP,
    ACTION_DOWN,
    ACTION_LEFT,
    ACTION_RIGHT,
    ACTION_FIRE,    /* Space, J; pad A */
    ACTION_CONFIRM, /* Enter, keypad Enter; pad A as well */
    ACTION_PAUSE,   /* Esc, P; pad Start */
    ACTION_RESTART, /* R; pad Back */
    /* Fixed: */
    ACTION_DEBUG,      /* F1; pad Y */
    ACTION_SCREENSHOT, /* F12 */
    ACTION_FULLSCREEN, /* F11, Alt+Enter (handled by platform_poll itself) */
    ACTION_MUTE,       /* M */
    ACTION_EDIT,       /* E: the level editor */
    ACTION_COUNT
} Action;

/* Keyboard bindings: up to INPUT_KEY_SLOTS SDL scancodes per action, 0 for an empty slot.
   Scancodes are physical keys; input_key_name says what the current layout prints on one. */
#define INPUT_KEY_SLOTS 2
typedef struct InputBindings {
    uint16_t keys[ACTION_COUNT][INPUT_KEY_SLOTS];
} InputBindings;

#define INPUT_KEY_QUEUE 16
#define INPUT_TEXT_MAX 64

typedef struct Input {
    bool down[ACTION_COUNT];
    bool pressed[ACTION_COUNT]; /* went down since the last input_end_step */
    bool released[ACTION_COUNT];
    uint8_t presses[ACTION_COUNT]; /* how many times it went down since then (saturates) */
    /* scancode of the last key that went down since then, bound
       or not (0: none), for a "press a key for Fire" prompt */
    uint16_t key_pressed;
    float move_x, move_y; /* -1..1: digital directions and left stick, dead zone applied */
    bool focused;         /* the window has keyboard focus (always true headless) */
    bool focus_lost;      /* edge: focus went away this frame -> the game pauses */
    bool quit;            /* window closed / SDL_QUIT, or a signal below */
    /* SIGINT, SIGTERM or SIGHUP when one asked to quit (nobody
       is at the window to answer a question); 0: the window */
    int quit_signal;
    int pads; /* game controllers currently open */

    /* The keys in use; until input_set_bindings is called (custom_bindings false, as in a
       zeroed Input) the defaults, input_bindings_default(). */
    InputBindings bindings;
    bool custom_bindings;
    /* Per-source state so that W and Up, or a key and a pad button, can be held together
       without the release of one cancelling the other: key_bits has one bit per binding
       slot (action * INPUT_KEY_SLOTS + slot), pad_bits one per SDL controller button. */
    uint32_t key_bits, pad_bits;
    float stick_x, stick_y;         /* after the dead zone */
    float stick_raw_x, stick_raw_y; /* as the pad reported it */

    /* For tools that need the whole keyboard and the mouse (the level editor), beside the
       actions: every key that went down since input_end_step, in order, with the modifiers
       held (SDL's KMOD_* bits); the text typed (UTF-8); the mouse in logical pixels (the
       platform maps the window's pixels through the viewport), its buttons (SDL_BUTTON_LEFT,
       _MIDDLE, _RIGHT: 1, 2, 3) and the wheel's clicks. */
    uint16_t keys[INPUT_KEY_QUEUE];
    uint16_t key_mods[INPUT_KEY_QUEUE];
    int key_count;
    uint16_t mods;             /* the modifiers as of the last key event (KMOD_* bits) */
    char text[INPUT_TEXT_MAX]; /* NUL-terminated */
    int text_len;
    float mouse_x, mouse_y; /* logical pixels */
    int mouse_wx, mouse_wy; /* window pixels, as SDL gave them */
    bool mouse_down[4];     /* [1] left, [2] middle, [3] right */
    bool mouse_pressed[4], mouse_released[4];
    int wheel;       /* clicks since input_end_step: up positive */
    bool mouse_seen; /* a mouse event has come: mouse_x/y mean something */
} Input;

/* Stick dead zone, as a fraction of full deflection. */
#define INPUT_DEAD_ZONE 0.25f

/* Clears the edges: pressed, presses, released, key_pressed, focus_lost, and the keys,
   text, mouse edges and wheel of the frame. */
void input_end_step(Input *in);
/* Updates `in` from one event. Returns true when the event was an input event it used (a
   key that drives no action is not, though it is still recorded in key_pressed). */
union SDL_Event;
bool input_handle_event(Input *in, const union SDL_Event *e);
/* Forget everything held (focus loss: releases happen while we are not looking). */
void input_release_all(Input *in);
const char *input_action_name(Action a);

/* Today's keys: WASD / arrows, Space / J, Enter / keypad Enter, Esc / P, R, F1, F12, F11. */
InputBindings input_bindings_default(void);
/* Only the game's actions can be rebound; the front end's keys (F1, F11, F12) and all the
   pad buttons stay as they are. */
bool input_action_rebindable(Action a);
/* Takes the rebindable actions' keys from `b` (NULL: back to the defaults); the fixed ones
   keep theirs. Everything held through a key is released (released edges, no stuck keys):
   the player presses again under the new bindings. */
void input_set_bindings(Input *in, const InputBindings *b);
/* The key's name on the current keyboard layout ("W", "Space", "Z" for the W key on
   AZERTY), "none" for 0. Works without a window (the US names then). The pointer stays
   valid, and is rewritten only by the next call for the same scancode, so two names can be
   used in one printf (SDL_GetKeyName itself reuses one buffer for every key). */
const char *input_key_name(uint16_t scancode);

/* What the picture is drawn with (render.h): an OpenGL 3.3 core context on the window, or
   an SDL_Renderer (SDL's own GL or software renderer; the only one headless). */
#endif
