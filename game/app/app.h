/* app.h - the game's front end: the arenas, SDL, the assets, the Game, replays and
   recordings, and the frame loop that ties them together. main.c is only its command line.

   Lifetimes, one arena each:
     permanent  the App, the Game (progress, settings), textures, replay buffer - the caller's
     level      the current level (level.h) and its runtime state (sim.h) - cleared on
                every level change
     frame      draw commands and HUD strings - cleared at the top of every frame
     scratch    the loader's file text, path searches, PNG encoding - per scope

       Arena *perm = arena_create((ArenaParams){ .name = "permanent" });
       App *app = app_create(perm, &(AppOptions){ .level = "levels/01-first-steps.lvl" });
       if (!app) return 1;                  // the reason is reported (stderr)
       while (app_frame(app)) {}            // one displayed frame per call
       int status = app_release(app);       // verdicts, then the arena report on stderr
       arena_release(perm);
       return status;

   Headless (`.headless`), platform.h's clock advances one 60 Hz tick per frame, so a test
   can push SDL events (SDL_PushEvent) and know that the next app_frame's tick sees them.
   After app_create nothing here touches the heap: every frame, level change and save runs
   on the arenas. The App is plain data so tests can look at what a frame did.

   From app_create to app_release the App is core/diag.h's sink: every report goes on to the
   sink that was there before (stderr), and warnings and errors also to the HUD
   (game_show_report), so a player sees a level that failed to load or progress that could
   not be saved, not only the log. */
#ifndef APP_H
#define APP_H

#include <stdbool.h>
#include <stdint.h>

#include "asset/asset.h"
#include "audio/audio_device.h"
#include "audio/mixer.h"
#include "front/controls.h"
#include "core/virtual_array.h"
#include "front/cues.h"
#include "editor/editor_ui.h"
#include "app/timeline.h"
#include "level/watch.h"
#include "front/draw.h"
#include "front/effects.h"
#include "rules/game.h"
#include "app/game_module.h"
#include "platform/platform.h"
#include "render/render.h"
#include "rules/replay.h"

#define APP_FRAME_ARENA_BYTES (16ull << 20)

typedef enum AppAudio { APP_AUDIO_AUTO, APP_AUDIO_DEVICE, APP_AUDIO_OFF } AppAudio;

/* The mixer's output per 60 Hz tick when mixing offline: AUDIO_RATE / SIM_HZ frames. */
#define APP_AUDIO_TICK_FRAMES (AUDIO_RATE / SIM_HZ)

/* Zero is the default for every field. */
/* Who the game is, to the engine: the window's title and class, and the picture's size. */
#define APP_TITLE "Arena Dungeon"
#define APP_ID "arena-dungeon"
#define APP_LOGICAL_W 480
#define APP_LOGICAL_H 270

/* Where the game's art is looked for (asset.h): the folder `given` (--assets DIR), else
   $AD_ASSET_DIR, else beside the executable, an install's share/arena-dungeon/, the install
   prefix and the source tree this build was made for, then ./assets. */
AssetSearch app_asset_search(const char *given);

typedef struct AppOptions {
    const char *level;        /* NULL: the replay's level, else levels/01-*.lvl */
    const char *record;       /* write this run's seed, level and inputs here at app_release */
    const char *replay;       /* play a recorded run back; app_release checks its hash */
    const char *screenshot;   /* the last frame as PNG */
    const char *assets;       /* the assets folder; NULL: searched (app_asset_search) */
    bool headless;            /* software rendering on a surface, one tick per frame */
    RendererKind renderer;    /* --renderer; RENDERER_DEFAULT: the setting, else OpenGL */
    bool fixed_clock;         /* --fixed-clock: one tick per frame in a window too */
    int scale;                /* --scale: the window's scale this run (0: the setting) */
    bool skip_title;          /* start playing at once */
    bool no_save;             /* do not read or write the progress file */
    bool autoplay;            /* the bot plays ... */
    uint32_t autoplay_levels; /* ... until this many levels are completed (0: victory) */
    uint64_t frames;          /* stop after this many frames; 0: no limit */
    uint64_t level_arena;     /* bytes; 0: LEVEL_ARENA_BYTES */
    uint64_t seed;
    bool seed_given;            /* else the replay's seed, or 1 */
    const char *audio_out;      /* mix the run's sound offline, in step with the ticks, into this WAV */
    AppAudio audio;             /* the sound device: APP_AUDIO_AUTO opens it only in a window */
    const char *edit;           /* open this level file in the editor (created when edit_w > 0) */
    int32_t edit_w, edit_h;     /* --size WxH: a new level of that size */
    bool no_watch;              /* do not reload the level when its file changes */
    const char *arena_trace;    /* write every arena's use, frame by frame, as CSV (timeline.h) */
    uint32_t arena_trace_every; /* ... one row per this many frames (0: 1) */
    bool hot_reload;            /* the game's code from a shared library, swapped when rebuilt */
    const char *hot_library;    /* ... that library; NULL: libgame_hot.so beside the executable */
} AppOptions;

typedef struct App {
    AppOptions opt; /* level and seed resolved */
    Arena *perm, *level, *frame;
    Platform *pf;
    Renderer *rd;
    Game *game;
    GameModule module; /* where the game's code comes from: module.api (game_api.h) */
    /* --hot-reload met a new state layout: run the level again in a
       new process (app_restart_args) */
    bool restart_level;
    char restart_path[SIM_PATH_MAX]; /* ... that level's file */
    Effects effects;                 /* particles, shake and flashes, after every game_update */
    DrawAssets art;
    DrawView view;
    Replay replay, record;
    Input in;
    Controls controls;
    FixedStep clock;
    uint64_t frames;      /* displayed so far */
    int shots;            /* F12 screenshots taken: the next is the first free number after it */
    SaveSettings applied; /* the settings the window and keys have now (the Game's may differ) */
    uint8_t last_input;   /* the input byte of the last tick that ran */
    bool replay_over, autoplay_over;
    double last_frame, frame_ms, update_ms; /* for the overlay */
    float debug_w;                          /* the F1 panel's width, docked on the right (0: not shown) */
    int status;                             /* exit status so far (a failed --screenshot makes it 1) */
    DiagSink diag_before;                   /* the sink app_create replaced, to pass reports on to and restore */
    /* Sound: the bank in the permanent arena, the mixer, and either the device (its callback
       mixes) or the offline WAV (app_frame mixes APP_AUDIO_TICK_FRAMES after every tick
       into `audio_out`, stereo frames in one buffer that grows without moving: a run's
       length is not known in advance, and the WAV is written from it in one piece). */
    CueBank bank;
    Cues cues;
    Mixer *mixer;
    AudioDevice *audio;
    VirtualArray audio_out;
    bool muted, ducked;
    /* The level editor (E, --edit) and the play-test of what it holds (Tab); the watch that
       reloads the level being played when its file changes on disk. */
    EditorUi *editor;
    bool editing, playtest;
    bool edits_dropped; /* the user said to quit without saving: nothing to keep at exit */
    bool quit;          /* the editor's answer ended the run (an --edit session, or a quit asked) */
    /* The game as it was before the first play-test of an editor opened from play, which
       plays over it: leaving the editor starts the level again with this progress. */
    bool playtested;
    PlayerProgress before_test, before_test_entry;
    char before_test_path[SIM_PATH_MAX], before_test_entry_name[SIM_ENTRY_MAX];
    LevelWatch watch;
    Timeline timeline; /* the arenas over time: the F1 graph, the exit's table, --arena-trace */
} App;

/* --hot-reload: loads the game's library now, changed or not, as the watch does when it
   changes (tests swap code at a chosen frame with it). False when it was refused. */
bool app_reload_game(App *app);

/* When the run ended for a restart of the level (restart_level): the command line of the
   new process in `out` (at most `cap` entries, NULL-terminated) - this one's, with the
   level to restart as --level, no title, no editor - and its length; 0 when there is no
   restart; -1 when `cap` is too small. The strings are argv's and the App's. */
int app_restart_args(const App *app, int argc, char **argv, char **out, int cap);

/* Creates the level and frame arenas, the Game, the window (or surface) and renderer, loads
   the art, opens the replay or starts the recording. NULL with the reason reported. */
App *app_create(Arena *perm, const AppOptions *opt);
/* Where F12 writes: "<data home>/arena-dungeon/screenshots" (save.h's folder), or the
   current directory when there is no home. */
bool app_screenshot_dir(char *out, size_t cap);
/* One displayed frame: poll, the fixed steps it owes, draw, F12 / --screenshot, present.
   False once the run is over (quit, frame limit, end of a headless replay or autoplay). */
bool app_frame(App *app);
/* Saves the recording, prints the replay's verdict and the arena report, releases all but
   `perm`. Returns the exit status: 0, 1 (an output failed) or 3 (replay mismatch). */
int app_release(App *app);

#endif
