/* platform.h - the window, the input actions and the fixed-step clock, on SDL2.

   One Platform owns the SDL window (or, headless, an SDL_Surface) and the SDL_Renderer the
   render module draws with. Pixel art is drawn at a fixed logical size (480x270 by default)
   and scaled by whole multiples with nearest filtering, letterboxed on odd window sizes.

       Platform *pf = platform_create(perm, &(PlatformDesc){ .title = "Dungeon" });
       if (!pf) return 1;                         // the reason is already reported (core/diag.h)
       Input in = {0};
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
   runs deterministic.

   Input is actions, not keys. Keyboard bindings use SCANCODES (physical positions: WASD is
   ZQSD on AZERTY without remapping); game controllers are opened on hot-plug. An action is
   `down` while any of its bindings is held; `pressed` latches when it goes down and stays
   set until input_end_step(), so a press is seen by exactly one simulation step even when
   a display frame runs zero steps (high refresh rates) or several (catching up).
   input_handle_event() maps one SDL_Event, so tests can feed synthetic events. */
#ifndef PLATFORM_H
#define PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"

#define PLATFORM_LOGICAL_W 480
#define PLATFORM_LOGICAL_H 270
#define PLATFORM_DEFAULT_SCALE 3

typedef enum Action {
    ACTION_UP,
    ACTION_DOWN,
    ACTION_LEFT,
    ACTION_RIGHT,
    ACTION_FIRE,       /* Space, J; pad A */
    ACTION_CONFIRM,    /* Enter, keypad Enter; pad A as well */
    ACTION_PAUSE,      /* Esc, P; pad Start */
    ACTION_RESTART,    /* R; pad Back */
    ACTION_DEBUG,      /* F1; pad Y */
    ACTION_SCREENSHOT, /* F12 */
    ACTION_FULLSCREEN, /* F11, Alt+Enter (handled by platform_poll itself) */
    ACTION_COUNT
} Action;

typedef struct Input {
    bool down[ACTION_COUNT];
    bool pressed[ACTION_COUNT]; /* went down since the last input_end_step */
    bool released[ACTION_COUNT];
    float move_x, move_y;       /* -1..1: digital directions and left stick, dead zone applied */
    bool focused;               /* the window has keyboard focus (always true headless) */
    bool focus_lost;            /* edge: focus went away this frame -> the game pauses */
    bool quit;                  /* window closed / SDL_QUIT */
    int pads;                   /* game controllers currently open */

    /* Per-source state so that W and Up, or a key and a pad button, can be held together
       without the release of one cancelling the other: one bit per binding. */
    uint32_t key_bits, pad_bits;
    float stick_x, stick_y;         /* after the dead zone */
    float stick_raw_x, stick_raw_y; /* as the pad reported it */
} Input;

/* Stick dead zone, as a fraction of full deflection. */
#define INPUT_DEAD_ZONE 0.25f

void input_end_step(Input *in); /* clears edges (pressed, released, focus_lost) */
/* Updates `in` from one event. Returns true when the event was an input event it used. */
union SDL_Event;
bool input_handle_event(Input *in, const union SDL_Event *e);
/* Forget everything held (focus loss: releases happen while we are not looking). */
void input_release_all(Input *in);
const char *action_name(Action a);

typedef struct PlatformDesc {
    const char *title;
    int logical_w, logical_h; /* 0 -> PLATFORM_LOGICAL_W/H */
    int scale;                /* initial window = logical * scale; 0 -> PLATFORM_DEFAULT_SCALE */
    bool headless;            /* software renderer on a surface, no window */
    bool no_vsync;            /* vsync is on by default in a window */
    bool fullscreen;
} PlatformDesc;

typedef struct Platform Platform;
struct SDL_Renderer;

/* NULL, with the reason reported (core/diag.h), when SDL cannot give us a renderer. */
Platform *platform_create(Arena *perm, const PlatformDesc *desc);
void platform_release(Platform *pf);
/* Drains SDL's queue into `in` (input_handle_event), opens and closes hot-plugged pads,
   toggles fullscreen on F11 / Alt+Enter. False once quit was requested. */
bool platform_poll(Platform *pf, Input *in);
/* Seconds since platform_create: the real clock in a window, the fake one headless. */
double platform_seconds(const Platform *pf);
void platform_toggle_fullscreen(Platform *pf);
bool platform_is_headless(const Platform *pf);
/* The renderer to pass to render_create (an SDL_Renderer *, kept opaque here). */
struct SDL_Renderer *platform_renderer(Platform *pf);
void platform_logical_size(const Platform *pf, int *w, int *h);

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
