/* platform.h - the window, the input actions and the fixed-step clock, on SDL2.

   One Platform owns the SDL window (or, headless, an SDL_Surface) and the SDL_Renderer the
   render module draws with. Pixel art is drawn at a fixed logical size (480x270 by default)
   and scaled by whole multiples with nearest filtering, letterboxed on odd window sizes; a
   window smaller than the logical size (a tiny display, a WM that ignores the minimum size)
   scales the whole view down instead of cropping it (platform_viewport_fit).

       Platform *pf = platform_create(perm, &(PlatformDesc){ .title = "Dungeon" });
       if (!pf) return 1;                         // the reason is already reported (core/diag.h)
       Input in = {0};                            // default key bindings
       FixedStep clock = fixed_step_make(60);
       while (platform_poll(pf, &in)) {           // false once the player asked to quit
           int steps = fixed_step_advance(&clock, platform_seconds(pf));
           for (int i = 0; i < steps; i++) {
               update(&in, clock.dt);             // reads in.down[] / in.pressed[]
               input_end_step(&in);               // edges are consumed by one step
           }
           draw(...);                             // render.h, once per displayed frame
       }
       platform_release(pf);

   Headless (`.headless = true`): no window and no vsync; SDL's software renderer draws into
   a surface, so tests and CI run the same draw code under SDL_VIDEODRIVER=dummy. Its clock
   is a fake that advances exactly one 60 Hz step per platform_poll, which makes `--frames N`
   runs deterministic. The settings calls (window scale, fullscreen) only record their value.

   Input is actions, not keys. Keyboard bindings use SCANCODES (physical positions: WASD is
   ZQSD on AZERTY without remapping); two keys per action, rebindable for the game's own
   actions (input_set_bindings); game controllers are opened on hot-plug. An action is
   `down` while any of its bindings is held; `pressed` latches when it goes down and stays
   set until input_end_step(), so a press is seen by exactly one simulation step even when
   a display frame runs zero steps (high refresh rates) or several (catching up); `presses`
   counts them, so two taps before the next step are two. input_handle_event() maps one
   SDL_Event, so tests can feed synthetic events. */
#ifndef PLATFORM_H
#define PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"

#define PLATFORM_LOGICAL_W 480
#define PLATFORM_LOGICAL_H 270
#define PLATFORM_DEFAULT_SCALE 3
#define PLATFORM_MAX_SCALE 6 /* window scales offered: 1..6 (480x270 .. 2880x1620) */

typedef enum Action {
    /* Rebindable (action_rebindable): */
    ACTION_UP,
    ACTION_DOWN,
    ACTION_LEFT,
    ACTION_RIGHT,
    ACTION_FIRE,       /* Space, J; pad A */
    ACTION_CONFIRM,    /* Enter, keypad Enter; pad A as well */
    ACTION_PAUSE,      /* Esc, P; pad Start */
    ACTION_RESTART,    /* R; pad Back */
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
    bool pressed[ACTION_COUNT];    /* went down since the last input_end_step */
    bool released[ACTION_COUNT];
    uint8_t presses[ACTION_COUNT]; /* how many times it went down since then (saturates) */
    uint16_t key_pressed;          /* scancode of the last key that went down since then, bound
                                      or not (0: none), for a "press a key for Fire" prompt */
    float move_x, move_y;          /* -1..1: digital directions and left stick, dead zone applied */
    bool focused;                  /* the window has keyboard focus (always true headless) */
    bool focus_lost;               /* edge: focus went away this frame -> the game pauses */
    bool quit;                     /* window closed / SDL_QUIT, or a signal below */
    int quit_signal;               /* SIGINT, SIGTERM or SIGHUP when one asked to quit (nobody
                                      is at the window to answer a question); 0: the window */
    int pads;                      /* game controllers currently open */

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
    float mouse_x, mouse_y;       /* logical pixels */
    int mouse_wx, mouse_wy;       /* window pixels, as SDL gave them */
    bool mouse_down[4];           /* [1] left, [2] middle, [3] right */
    bool mouse_pressed[4], mouse_released[4];
    int wheel;                    /* clicks since input_end_step: up positive */
    bool mouse_seen;              /* a mouse event has come: mouse_x/y mean something */
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
const char *action_name(Action a);

/* Today's keys: WASD / arrows, Space / J, Enter / keypad Enter, Esc / P, R, F1, F12, F11. */
InputBindings input_bindings_default(void);
/* Only the game's actions can be rebound; the front end's keys (F1, F11, F12) and all the
   pad buttons stay as they are. */
bool action_rebindable(Action a);
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
typedef enum RendererKind {
    RENDERER_DEFAULT, /* OpenGL in a window, SDL_Renderer headless */
    RENDERER_GL,
    RENDERER_SDL,
} RendererKind;
/* "gl" / "sdl" (and "default"), as the command line and the settings spell them. */
const char *renderer_kind_name(RendererKind k);
/* RENDERER_GL for "gl", RENDERER_SDL for "sdl"; false for anything else. */
bool renderer_kind_parse(const char *s, RendererKind *out);

typedef struct PlatformDesc {
    const char *title;
    const char *app_id;       /* WM_CLASS on X11, app id on Wayland; 0 -> "arena-dungeon"
                                 ($SDL_VIDEO_X11_WMCLASS, when set, wins) */
    int logical_w, logical_h; /* 0 -> PLATFORM_LOGICAL_W/H */
    int scale;                /* initial window = logical * scale, clamped to the display;
                                 0 -> PLATFORM_DEFAULT_SCALE (headless: the surface, 0 -> 1) */
    bool headless;            /* software renderer on a surface, no window */
    bool no_vsync;            /* vsync is on by default in a window */
    bool fullscreen;          /* start in (desktop) fullscreen */
    bool fixed_clock;         /* in a window too: the headless clock, one 60 Hz step per poll
                                 (and no vsync), so a windowed run is as deterministic */
    RendererKind renderer;    /* GL falls back to SDL_Renderer, one line saying why, when no
                                 OpenGL 3.3 core context can be made */
} PlatformDesc;

/* Where the logical picture lands in the output: a rectangle in output pixels, and the
   factor from logical to output pixels. */
typedef struct PlatformViewport {
    int x, y, w, h;
    float scale;
} PlatformViewport;

/* The largest whole multiple of the logical size that fits the window, centred; when not
   even 1x fits, the largest fractional scale that does (aspect kept, letterboxed), so the
   whole view is always on screen. A zero rectangle (scale 0) for an empty window. Pure. */
PlatformViewport platform_viewport_fit(int win_w, int win_h, int logical_w, int logical_h);

typedef struct Platform Platform;
struct SDL_Renderer;

/* NULL, with the reason reported (core/diag.h), when SDL cannot give us a renderer. */
Platform *platform_create(Arena *perm, const PlatformDesc *desc);
void platform_release(Platform *pf);
/* Drains SDL's queue into `in` (input_handle_event), opens and closes hot-plugged pads,
   toggles fullscreen on F11 / Alt+Enter, refits the viewport to a resized window. False
   once quit was requested: in->quit stays set until the caller clears it (a program that
   asks "save first?" clears it and goes on; the next request sets it again).
   SIGINT, SIGTERM and SIGHUP are quit requests too, from platform_create to
   platform_release (SDL's own handlers are off): the handler only records the signal, and
   the next poll sets in->quit and in->quit_signal. */
bool platform_poll(Platform *pf, Input *in);
/* Seconds since platform_create: the real clock in a window, the fake one headless. */
double platform_seconds(const Platform *pf);
bool platform_is_headless(const Platform *pf);
/* What the platform made to draw with: RENDERER_GL (a current GL context on
   platform_window) or RENDERER_SDL (platform_renderer). Never RENDERER_DEFAULT. */
RendererKind platform_renderer_kind(const Platform *pf);
/* The SDL_Renderer under RENDERER_SDL, else NULL (an SDL_Renderer *, kept opaque here). */
struct SDL_Renderer *platform_renderer(Platform *pf);
/* The window (an SDL_Window *); NULL headless. */
struct SDL_Window *platform_window(Platform *pf);
/* Gives up the GL context for an SDL_Renderer on the same window, reporting one warning
   line with `why` (what GL could not do). For render_create, when the GL backend cannot
   start on a context that was made. False (reported) when no SDL_Renderer can be made. */
bool platform_use_sdl_renderer(Platform *pf, const char *why);
void platform_logical_size(const Platform *pf, int *w, int *h);
/* The output in pixels (window or surface) and where the picture is in it. */
void platform_output_size(const Platform *pf, int *w, int *h);
PlatformViewport platform_viewport(const Platform *pf);

/* Settings. A window of logical * scale (1..PLATFORM_MAX_SCALE), centred on its display;
   leaves fullscreen first; a scale whose window would not fit the display's usable area is
   lowered to the largest that does. platform_window_scale is the scale last set (after that
   clamp), or the one the window was created with. */
void platform_set_window_scale(Platform *pf, int scale);
int platform_window_scale(const Platform *pf);
/* The largest scale whose window fits the usable area of the display the window is on now
   (PLATFORM_MAX_SCALE headless), for a settings menu to offer only those. Asks the display:
   call it when the menu needs it, not every frame. */
int platform_max_window_scale(Platform *pf);
/* Desktop fullscreen (the display's own mode, no mode switch), or back to the window it was. */
void platform_set_fullscreen(Platform *pf, bool on);
bool platform_is_fullscreen(const Platform *pf);
void platform_toggle_fullscreen(Platform *pf);

/* Fixed simulation step with an accumulator. advance() returns how many steps to simulate
   for the time that passed, never more than max_steps: after a long stall (debugger, window
   drag) the surplus is dropped instead of being simulated in a burst that takes longer
   still (the spiral of death). `alpha` is the leftover fraction of a step, for interpolation. */
typedef struct FixedStep {
    double dt;          /* seconds per step */
    double accumulator; /* seconds not yet simulated */
    double last;        /* time of the previous advance; < 0 before the first */
    double alpha;
    int max_steps;
    uint64_t steps;   /* total steps handed out */
    uint64_t dropped; /* steps skipped by the clamp */
} FixedStep;

FixedStep fixed_step_make(int hz); /* max_steps = 5 */
int fixed_step_advance(FixedStep *fs, double now_seconds);

#endif
