/* platform.h - the window (or a headless surface), its events and its clock, on SDL2.

   One Platform owns the SDL window (or, headless, an SDL_Surface) and the SDL_Renderer the
   render module draws with. Pixel art is drawn at a fixed logical size (the game's own)
   and scaled by whole multiples with nearest filtering, letterboxed on odd window sizes; a
   window smaller than the logical size (a tiny display, a WM that ignores the minimum size)
   scales the whole view down instead of cropping it (st_platform_viewport_fit).

       Platform *pf = st_platform_create(perm, &(PlatformDesc){ .title = "Dungeon" });
       if (!pf) return 1;                         // the reason is already reported (core/diag.h)
       Input in = {0};                            // default key bindings
       FixedStep clock = st_fixed_step_make(60);
       while (st_platform_poll(pf, &in)) {           // false once the player asked to quit
           int steps = st_fixed_step_advance(&clock, st_platform_seconds(pf));
           for (int i = 0; i < steps; i++) {
               update(&in, clock.dt);             // reads in.down[] / in.pressed[]
               st_input_end_step(&in);               // edges are consumed by one step
           }
           draw(...);                             // render.h, once per displayed frame
       }
       st_platform_release(pf);

   Headless (`.headless = true`): no window and no vsync; SDL's software renderer draws into
   a surface, so tests and CI run the same draw code under SDL_VIDEODRIVER=dummy. Its clock
   is a fake that advances exactly one 60 Hz step per st_platform_poll, which makes `--frames N`
   runs deterministic. The settings calls (window scale, fullscreen) only record their value.
   The input it fills is input.h's, the clock a game runs on fixed_step.h's. */
#ifndef PLATFORM_H
#define PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/platform/fixed_step.h>
#include <strata/platform/input.h>

/* A game says its own logical size (PlatformDesc); without one, this 16:9 pixel-art size. */
#define PLATFORM_DEFAULT_LOGICAL_W 320
#define PLATFORM_DEFAULT_LOGICAL_H 180
#define PLATFORM_DEFAULT_SCALE 3
#define PLATFORM_MAX_SCALE 6 /* window scales offered: 1..6 */

typedef enum RendererKind {
    RENDERER_DEFAULT, /* OpenGL in a window, SDL_Renderer headless */
    RENDERER_GL,
    RENDERER_SDL,
} RendererKind;
/* "gl" / "sdl" (and "default"), as the command line and the settings spell them. */
const char *st_platform_renderer_name(RendererKind k);
/* RENDERER_GL for "gl", RENDERER_SDL for "sdl"; false for anything else. */
bool st_platform_renderer_parse(const char *s, RendererKind *out);

typedef struct PlatformDesc {
    const char *title; /* the window's title; NULL: "untitled" */
    /* WM_CLASS on X11, app id on Wayland ("my-game"; $SDL_VIDEO_X11_WMCLASS, when set,
       wins); NULL: SDL's own choice */
    const char *app_id;
    int logical_w, logical_h; /* the picture's size in pixels; 0 -> PLATFORM_DEFAULT_LOGICAL_W/H */
    /* initial window = logical * scale, clamped to the display;
       0 -> PLATFORM_DEFAULT_SCALE (headless: the surface, 0 -> 1) */
    int scale;
    bool headless;   /* software renderer on a surface, no window */
    bool no_vsync;   /* vsync is on by default in a window */
    bool fullscreen; /* start in (desktop) fullscreen */
    /* in a window too: the headless clock, one 60 Hz step per poll
       (and no vsync), so a windowed run is as deterministic */
    bool fixed_clock;
    /* GL falls back to SDL_Renderer, one line saying why, when no
       OpenGL 3.3 core context can be made */
    RendererKind renderer;
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
PlatformViewport st_platform_viewport_fit(int win_w, int win_h, int logical_w, int logical_h);

typedef struct Platform Platform;
struct SDL_Renderer;

/* NULL, with the reason reported (core/diag.h), when SDL cannot give us a renderer. */
Platform *st_platform_create(Arena *perm, const PlatformDesc *desc);
void st_platform_release(Platform *pf);
/* Drains SDL's queue into `in` (st_input_handle_event), opens and closes hot-plugged pads,
   toggles fullscreen on F11 / Alt+Enter, refits the viewport to a resized window. False
   once quit was requested: in->quit stays set until the caller clears it (a program that
   asks "save first?" clears it and goes on; the next request sets it again).
   SIGINT, SIGTERM and SIGHUP are quit requests too, from st_platform_create to
   st_platform_release (SDL's own handlers are off): the handler only records the signal, and
   the next poll sets in->quit and in->quit_signal. */
bool st_platform_poll(Platform *pf, Input *in);
/* Seconds since st_platform_create: the real clock in a window, the fake one headless. */
double st_platform_seconds(const Platform *pf);
bool st_platform_is_headless(const Platform *pf);
/* What the platform made to draw with: RENDERER_GL (a current GL context on
   st_platform_window) or RENDERER_SDL (st_platform_renderer). Never RENDERER_DEFAULT. */
RendererKind st_platform_renderer_kind(const Platform *pf);
/* The SDL_Renderer under RENDERER_SDL, else NULL (an SDL_Renderer *, kept opaque here). */
struct SDL_Renderer *st_platform_renderer(Platform *pf);
/* The window (an SDL_Window *); NULL headless. */
struct SDL_Window *st_platform_window(Platform *pf);
/* Gives up the GL context for an SDL_Renderer on the same window, reporting one warning
   line with `why` (what GL could not do). For st_render_create, when the GL backend cannot
   start on a context that was made. False (reported) when no SDL_Renderer can be made. */
bool st_platform_use_sdl_renderer(Platform *pf, const char *why);
void st_platform_logical_size(const Platform *pf, int *w, int *h);
/* The output in pixels (window or surface) and where the picture is in it. */
void st_platform_output_size(const Platform *pf, int *w, int *h);
PlatformViewport st_platform_viewport(const Platform *pf);

/* Settings. A window of logical * scale (1..PLATFORM_MAX_SCALE), centred on its display;
   leaves fullscreen first; a scale whose window would not fit the display's usable area is
   lowered to the largest that does. st_platform_window_scale is the scale last set (after that
   clamp), or the one the window was created with. */
void st_platform_set_window_scale(Platform *pf, int scale);
int st_platform_window_scale(const Platform *pf);
/* The largest scale whose window fits the usable area of the display the window is on now
   (PLATFORM_MAX_SCALE headless), for a settings menu to offer only those. Asks the display:
   call it when the menu needs it, not every frame. */
int st_platform_max_window_scale(Platform *pf);
/* Desktop fullscreen (the display's own mode, no mode switch), or back to the window it was. */
void st_platform_set_fullscreen(Platform *pf, bool on);
bool st_platform_is_fullscreen(const Platform *pf);
void st_platform_toggle_fullscreen(Platform *pf);

#endif
