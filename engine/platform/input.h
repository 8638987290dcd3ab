/* input.h - what the player presses: the raw state (every key by scancode, every game
   controller button, the left stick, the mouse, the text typed) and, over it, the game's
   own actions. The engine names no action: a game declares its actions, each with a name,
   default keys, pad buttons, a stick direction and whether the player may rebind it, and
   hands the table in once:

       enum { MY_LEFT, MY_RIGHT, MY_JUMP, MY_ACTIONS };
       static const InputActionDesc my_actions[MY_ACTIONS] = {
           [MY_LEFT] = {"left", {SDL_SCANCODE_A, SDL_SCANCODE_LEFT}, {SDL_CONTROLLER_BUTTON_DPAD_LEFT + 1},
                        INPUT_STICK_LEFT, true},
           [MY_RIGHT] = {"right", {SDL_SCANCODE_D, SDL_SCANCODE_RIGHT}, {0}, INPUT_STICK_RIGHT, true},
           [MY_JUMP] = {"jump", {SDL_SCANCODE_SPACE}, {SDL_CONTROLLER_BUTTON_A + 1}, 0, true},
       };
       Input in = {0};
       st_input_set_actions(&in, my_actions, MY_ACTIONS);
       ... st_platform_poll(pf, &in) ...
       if (in.pressed[MY_JUMP]) ...                 // the actions
       if (st_input_key_hit(&in, SDL_SCANCODE_F5)) ... // or any key, raw

   Keys are SCANCODES (physical positions: WASD is ZQSD on AZERTY without remapping); an
   action has two key slots, rebindable when its desc says so (st_input_set_bindings); game
   controllers are opened on hot-plug. An action is `down` while any of its keys, buttons or
   its stick direction is held; `pressed` latches when it goes down and stays set until
   st_input_end_step(), so a press is seen by exactly one simulation step even when a display
   frame runs zero steps (high refresh rates) or several (catching up); `presses` counts
   them, so two taps before the next step are two. The same holds for the raw keys and
   buttons (st_input_key_hit, st_input_pad_hit). F11 and Alt+Enter are the engine's fullscreen
   toggle (counted in `fullscreen_presses`, which st_platform_poll consumes): Alt+Enter drives
   no action. st_input_handle_event() maps one SDL_Event, so tests can feed synthetic events. */
#ifndef INPUT_H
#define INPUT_H

#include <stdbool.h>
#include <stdint.h>

union SDL_Event;

#define INPUT_MAX_ACTIONS 32
#define INPUT_KEY_SLOTS 2
#define INPUT_PAD_SLOTS 2
#define INPUT_SCANCODES 512 /* SDL_NUM_SCANCODES */
#define INPUT_KEY_QUEUE 16
#define INPUT_TEXT_MAX 64

/* A direction of the left stick that drives an action as a key would (menus, grids). */
typedef enum InputStick {
    INPUT_STICK_NONE,
    INPUT_STICK_LEFT,
    INPUT_STICK_RIGHT,
    INPUT_STICK_UP,
    INPUT_STICK_DOWN
} InputStick;

/* One of the game's actions. */
typedef struct InputActionDesc {
    const char *name;               /* "fire": for settings and messages */
    uint16_t keys[INPUT_KEY_SLOTS]; /* default scancodes, 0 for an empty slot */
    uint8_t pads[INPUT_PAD_SLOTS];  /* SDL_GameControllerButton + 1, 0 for none: not rebindable */
    uint8_t stick;                  /* InputStick */
    bool rebindable;                /* the player may change its keys (st_input_set_bindings) */
} InputActionDesc;

/* Keyboard bindings: the key slots of every action, in the game's order. */
typedef struct InputBindings {
    uint16_t keys[INPUT_MAX_ACTIONS][INPUT_KEY_SLOTS];
} InputBindings;

typedef struct Input {
    /* The game's actions (st_input_set_actions) and their state. */
    const InputActionDesc *actions;
    int action_count;
    InputBindings bindings;
    bool down[INPUT_MAX_ACTIONS];
    bool pressed[INPUT_MAX_ACTIONS]; /* went down since the last st_input_end_step */
    bool released[INPUT_MAX_ACTIONS];
    uint8_t presses[INPUT_MAX_ACTIONS]; /* how many times it went down since then (saturates) */

    /* Raw: every key held, and hit since st_input_end_step; the pad buttons likewise (bit b:
       SDL_GameControllerButton b, of any pad); the left stick after the dead zone. */
    uint32_t key_down[INPUT_SCANCODES / 32], key_hit[INPUT_SCANCODES / 32];
    uint32_t pad_down, pad_hit;
    float stick_x, stick_y;         /* -1..1 */
    float stick_raw_x, stick_raw_y; /* as the pad reported it */
    int fullscreen_presses;         /* F11 and Alt+Enter since the last poll */

    /* scancode of the last key that went down since st_input_end_step, bound or not (0: none),
       for a "press a key for Fire" prompt */
    uint16_t key_pressed;
    bool focused;    /* the window has keyboard focus (always true headless) */
    bool focus_lost; /* edge: focus went away this frame -> the game pauses */
    bool quit;       /* window closed / SDL_QUIT, or a signal below */
    /* SIGINT, SIGTERM or SIGHUP when one asked to quit (nobody is at the window to answer a
       question); 0: the window */
    int quit_signal;
    int pads; /* game controllers currently open */

    /* For tools that need the whole keyboard and the mouse (a level editor): every key that
       went down since st_input_end_step, in order, with the modifiers held (SDL's KMOD_* bits)
       and where the text typed stood when it went down (key_text_at: the text its own press
       typed starts there); the text typed (UTF-8); the mouse in logical pixels (the platform
       maps the window's pixels through the viewport), its buttons (SDL_BUTTON_LEFT,
       _MIDDLE, _RIGHT: 1, 2, 3) and the wheel's clicks. */
    uint16_t keys[INPUT_KEY_QUEUE];
    uint16_t key_mods[INPUT_KEY_QUEUE];
    uint8_t key_text_at[INPUT_KEY_QUEUE];
    int key_count;
    uint16_t mods;             /* the modifiers as of the last key event (KMOD_* bits) */
    char text[INPUT_TEXT_MAX]; /* NUL-terminated */
    int text_len;
    float mouse_x, mouse_y; /* logical pixels */
    int mouse_wx, mouse_wy; /* window pixels, as SDL gave them */
    bool mouse_down[4];     /* [1] left, [2] middle, [3] right */
    bool mouse_pressed[4], mouse_released[4];
    int wheel;       /* clicks since st_input_end_step: up positive */
    bool mouse_seen; /* a mouse event has come: mouse_x/y mean something */
} Input;

/* Stick dead zone, as a fraction of full deflection; past INPUT_STICK_DIGITAL (after it) a
   stick direction drives its actions. */
#define INPUT_DEAD_ZONE 0.25f
#define INPUT_STICK_DIGITAL 0.5f

/* The game's actions (at most INPUT_MAX_ACTIONS; the table must outlive `in`), with their
   default keys; everything held is released. */
void st_input_set_actions(Input *in, const InputActionDesc *actions, int count);
/* Clears the edges: pressed, presses, released, the raw hits, key_pressed, focus_lost, and
   the keys, text, mouse edges and wheel of the frame. */
void st_input_end_step(Input *in);
/* Updates `in` from one event. Returns true when the event was an input event it used. */
bool st_input_handle_event(Input *in, const union SDL_Event *e);
/* Forget everything held (focus loss: releases happen while we are not looking). */
void st_input_release_all(Input *in);

/* Raw keys and pad buttons: held now, or went down since st_input_end_step. */
bool st_input_key_held(const Input *in, uint16_t scancode);
bool st_input_key_hit(const Input *in, uint16_t scancode);
bool st_input_pad_hit(const Input *in, int button);

/* The action's name from the game's table ("?" out of range). */
const char *st_input_action_name(const Input *in, int action);
bool st_input_action_rebindable(const Input *in, int action);
/* The defaults of the game's table. */
InputBindings st_input_bindings_default(const Input *in);
/* Takes the rebindable actions' keys from `b` (NULL: back to the defaults); the others keep
   the table's. Everything held is released (released edges, no stuck keys): the player
   presses again under the new bindings. */
void st_input_set_bindings(Input *in, const InputBindings *b);
/* The key's name on the current keyboard layout ("W", "Space", "Z" for the W key on
   AZERTY), "none" for 0. Works without a window (the US names then). The pointer stays
   valid, and is rewritten only by the next call for the same scancode, so two names can be
   used in one printf (SDL_GetKeyName itself reuses one buffer for every key). */
const char *st_input_key_name(uint16_t scancode);

#endif
