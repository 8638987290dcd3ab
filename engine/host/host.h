/* host.h - the engine's host: everything a game needs around its own code. It creates the
   five lifetimes and hands them to the game, opens the window, runs the fixed-step loop (in
   a terminal's process or as the browser's main loop), and owns the F1 arena panel, F12
   and --screenshot, fullscreen (F11, Alt+Enter), the arena report at exit, --arena-trace
   and --hot-reload. A game is one table (game_api.h); its main is one line:

       int main(int argc, char **argv) { return st_host_main(my_game_api(), argc, argv); }

   The lifetimes, one arena each (core/arena.h):
     perm     the Host, the game's state, its textures and sounds: the whole run
     level    what one level holds: cleared by the game on every level change (it owns
              the clearing; the host only sizes it: --level-arena, else the table's
              level_arena_bytes; it never grows, so a level that does not fit is refused)
     frame    draw commands and per-frame text: cleared by the host before every draw
     scratch  per thread, per scope: SCRATCH_SCOPE (core/arena.h); nothing to hand over
     history  the game's past states (core/history.h: rewinding, seeking), which outlive
              levels and frames but not the run; the game owns what is in it, the host only
              sizes it (--history-arena, else the table's history_arena_bytes; it never
              grows: the history drops its oldest states to stay inside it)
   At exit the host prints each one's peak ("level arena: peak N of M bytes (path)"), the
   levels played and the level arena size they call for: what a game sizes its arenas from.

   One displayed frame (st_host_frame):
       poll the window -> the library looked at (--hot-reload) -> the asset files looked at
       (--watch-assets) -> F1, F12 -> game.frame
       -> game.tick as many times as the clock owes (one per frame headless or with
       --fixed-clock) -> the input's edges cleared (st_input_end_step) -> clear the frame arena -> game.draw -> the F1 panel -> screenshots
       -> the timeline's sample -> present
   After st_host_create nothing here touches the heap. The host is core/diag.h's sink from
   create to release: reports go on to the sink before it (stderr), and warnings and errors
   to the game's `report` too and onto the timeline.

   In a test, or a program that drives its own loop:
       Host *h = st_host_create(perm, api, &(HostOptions){.headless = true, .frames = 60}, opts);
       while (st_host_frame(h)) {}
       int status = st_host_release(h);
   `opts` is what the table's parse would have made (the game's options struct). */
#ifndef HOST_H
#define HOST_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/asset/asset_watch.h>
#include <strata/host/game_api.h>
#include <strata/host/game_module.h>
#include <strata/host/timeline.h>
#include <strata/core/arena.h>
#include <strata/platform/fixed_step.h>
#include <strata/platform/input.h>
#include <strata/platform/platform.h>
#include <strata/render/font.h>
#include <strata/render/render.h>

#define HOST_FRAME_ARENA_BYTES (16ull << 20)
#define HOST_HISTORY_COMMIT_BYTES (4ull << 20) /* the history arena's commit step: few, large pushes */
#define HOST_HEADLESS_FRAMES 600               /* a headless run stops there unless told (the game may say) */
#define HOST_SHOWN_MAX 4                       /* arenas of the game's own the F1 panel shows */
#define HOST_LAYER_PANEL 240                   /* the F1 panel's draw layer: a game draws below it */

/* Whether the asset files are watched (Host.assets): by default with a window, where
   someone may be editing them, and not headless, where runs are tests and replays whose
   files do not change and whose frames should not stat them. */
typedef enum HostAssetWatch { HOST_ASSET_WATCH_DEFAULT, HOST_ASSET_WATCH_ON, HOST_ASSET_WATCH_OFF } HostAssetWatch;

/* The engine's options (st_host_main parses them with the game's). Zero: the default. */
struct HostOptions {
    bool headless;               /* software rendering on a surface, one tick per frame */
    RendererKind renderer;       /* --renderer; RENDERER_DEFAULT: what the game wants, else GL */
    bool fixed_clock;            /* --fixed-clock: one tick per frame in a window too */
    int scale;                   /* --scale: this run's window scale (0: the game's) */
    uint64_t frames;             /* stop after this many frames; 0: no limit */
    const char *screenshot;      /* the last frame as PNG */
    uint64_t level_arena;        /* bytes; 0: the table's level_arena_bytes */
    uint64_t history_arena;      /* bytes; 0: the table's history_arena_bytes */
    const char *arena_trace;     /* every arena's use, frame by frame, as CSV (timeline.h) */
    uint32_t arena_trace_every;  /* ... one row per this many frames (0: 1) */
    bool hot_reload;             /* the game from a shared library, swapped when rebuilt */
    const char *hot_library;     /* ... that library (NULL: libgame_hot.so beside the executable) */
    bool run_ends;               /* the game's word: this run ends by itself (no HOST_HEADLESS_FRAMES) */
    HostAssetWatch watch_assets; /* --watch-assets on|off */
};

/* The lifetimes, as the game gets them (scratch is per thread: core/arena.h). */
typedef struct HostLifetimes {
    Arena *perm, *level, *frame, *history;
} HostLifetimes;

/* What the game asks of the window before it opens (its saved settings). */
typedef struct HostWindowWish {
    int scale;
    bool fullscreen;
    RendererKind renderer;
} HostWindowWish;

struct Host {
    HostOptions opt;
    HostLifetimes life;
    GameModule module; /* module.api: the game's table in use */
    void *game;        /* the game's state (create's answer) */
    Platform *pf;
    Renderer *rd;
    /* The asset files watched (asset_watch.h), made before the game's start and polled
       before its frame; the reload's note goes to the game's notice. NULL when the watch
       is off: the game loads through st_asset_watch_* all the same, once. */
    AssetWatch *assets;
    Input in; /* polled by the host; the game reads it and declares its actions on it */
    FixedStep clock;
    uint64_t frames; /* displayed so far */
    int status;      /* the exit status so far (a failed --screenshot makes it 1) */
    bool quit;       /* the game's word: this frame is the last */
    bool restart;    /* a new layout came: st_host_main runs `restart_args` in a new process */
    HostWindowWish want;
    /* The game's part in the host's own screens and report: the font the F1 panel writes
       with, arenas of its own to show there, and what it plays now for the timeline. */
    const Font *font;
    float panel_top; /* the F1 panel starts this far down (under the game's status bar) */
    Arena *shown[HOST_SHOWN_MAX];
    TimelineScene scene;
    bool show_debug; /* F1 */
    float debug_w;   /* the F1 panel's width this frame (0: not shown) */
    int shots;       /* F12: the next is the first free number from here */
    double last_frame, frame_ms, update_ms;
    Timeline timeline;
    DiagSink diag_before;
};

/* The lifetimes, the sink, the game's code (linked, or the library), the game's create,
   the window, the renderer and the game's start. NULL with the reason reported; what was
   made is undone. `options` is the game's (its parse's answer). */
Host *st_host_create(Arena *perm, const GameApi *api, const HostOptions *opt, const void *options);
/* One displayed frame (above). False once the run is over. */
bool st_host_frame(Host *h);
/* The game's release, the arena report, the trace; everything but `perm` released.
   Returns the exit status. */
int st_host_release(Host *h);
/* The whole program: the command line (the host's options, then the game's), the
   permanent arena, the loop (natively, or the browser's), the restart --hot-reload may
   ask for. `api` NULL: the game comes only from --hot-library (a host with no game in it). */
int st_host_main(const GameApi *api, int argc, char **argv);

/* --hot-reload: takes the library now, changed or not, as the watch does when it changes
   (tests swap code at a chosen frame). False when it was refused. */
bool st_host_reload_game(Host *h);
/* The folder F12 writes to: "<data home>/<name>/screenshots", or "." with no home. */
bool st_host_screenshot_dir(const GameApi *api, char *out, size_t cap);
/* An output named on the command line (the host's or a game's parse) must be writable
   before the run, not found unwritable at its end: the writer's own checks, writing
   nothing. False with "who: --flag path: why" reported; a NULL path is fine. */
bool st_host_output_writable(const char *who, const char *flag, const char *path);
/* The logical size of the picture (the table's, or the window's in a browser). */
void st_host_logical_size(const Host *h, int *w, int *hh);

#endif
