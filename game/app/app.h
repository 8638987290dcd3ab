/* app.h - the game behind its table (game_api.h: game_api()): its options, the Game, the
   art, sound, replays and recordings, the editor and its play-test, and what each frame and
   tick does with them. The engine's host (host/host.h) owns the lifetimes, the window and
   the loop, and calls these through the table only; main.c is one line.

   Lifetimes, the host's arenas (host.h):
     permanent  the App, the Game (progress, settings), textures, sounds, the replay buffer
     level      the current level (level.h) and its runtime state (sim.h): cleared by the
                Game on every level change
     history    the last REWIND_TICKS states of play, for the rewind (rules/rewind.h)
     frame      draw commands and HUD strings: cleared by the host before every draw
     scratch    the loader's file text, path searches, the editor's text: per scope

   In a test, the host with this game and typed options (what the command line would give):
       Host *h = st_host_create(perm, game_api(), &(HostOptions){.headless = true},
                             &(AppOptions){.level = "levels/01-first-steps.lvl"});
       App *app = h->game;                  // plain data: tests look at what a frame did
       while (st_host_frame(h)) {}
       int status = st_host_release(h);       // verdicts, then the host's arena report

   The App runs in one mode at a time (AppMode), each with its own frame and tick; the
   options say only how the run started. Warnings and errors the host's sink passes on
   (app_report) show on the HUD, so a player sees a level that failed to load or progress
   that could not be saved, not only the log. */
#ifndef APP_H
#define APP_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/asset/asset.h>
#include <strata/audio/audio_device.h>
#include <strata/audio/mixer.h>
#include <strata/core/virtual_array.h>
#include "editor/editor_ui.h"
#include "front/controls.h"
#include "front/cues.h"
#include "front/draw.h"
#include "front/effects.h"
#include <strata/host/host.h>
#include "level/watch.h"
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/rewind.h"
#include "app/viewer.h"

typedef enum AppAudio { APP_AUDIO_AUTO, APP_AUDIO_DEVICE, APP_AUDIO_OFF } AppAudio;

/* The mixer's output per 60 Hz tick when mixing offline: AUDIO_RATE / SIM_HZ frames. */
#define APP_AUDIO_TICK_FRAMES (AUDIO_RATE / SIM_HZ)

/* The history arena's default (host.h: --history-arena): the rewind's (rules/rewind.h). In
   a browser an arena's reservation is memory taken at once (os_memory.h), so the page asks
   for what the shipped game needs and some room: the full run's viewer (1.2 MB) and the
   Vault's 10 s of rewind (2.1 MB) in 6 MiB, where 16 MiB cost the page 12 MB more (README). */
#if defined(__EMSCRIPTEN__)
#define APP_HISTORY_ARENA_BYTES (6ull << 20)
#else
#define APP_HISTORY_ARENA_BYTES REWIND_ARENA_BYTES
#endif

/* The replay viewer's largest state (the Game's play span and its level arena's used
   bytes): the shipped levels take about 40 KB; a run with a larger one is played
   straight, said so. */
#define APP_VIEWER_STATE_MAX (256ull << 10)
/* Its keyframes' ring is half of the history arena's free bytes after its entries (the
   rewind has the other half). At the full committed run's rate (an entry of 24 bytes and
   28 bytes of keyframes a tick) the default arena holds a run of about 55 minutes, and a
   larger --history-arena proportionally more. */

/* Who the game is, to the engine: the window's title and class, and the picture's size. */
#define APP_TITLE "Arena Dungeon"
#define APP_ID "arena-dungeon"
#define APP_LOGICAL_W 480
#define APP_LOGICAL_H 270

/* Where the game's art is looked for (asset.h): the folder `given` (--assets DIR), else
   $AD_ASSET_DIR, else beside the executable, an install's share/arena-dungeon/, the install
   prefix and the source tree this build was made for, then ./assets. */
AssetSearch app_asset_search(const char *given);

/* The game's options (the engine's are HostOptions). Zero is the default for every field. */
typedef struct AppOptions {
    const char *level;        /* NULL: the replay's level, else levels/01-*.lvl */
    const char *record;       /* write this run's seed, level and inputs here at the end */
    const char *replay;       /* play a recorded run back; the end checks its hash */
    const char *assets;       /* the assets folder; NULL: searched (app_asset_search) */
    bool skip_title;          /* start playing at once */
    bool no_save;             /* do not read or write the progress file */
    bool autoplay;            /* the bot plays ... */
    uint32_t autoplay_levels; /* ... until this many levels are completed (0: victory) */
    uint64_t seed;
    bool seed_given;        /* else the replay's seed, or 1 */
    const char *audio_out;  /* mix the run's sound offline, in step with the ticks, into this WAV */
    AppAudio audio;         /* the sound device: APP_AUDIO_AUTO opens it only in a window */
    const char *edit;       /* open this level file in the editor (created when edit_w > 0) */
    int32_t edit_w, edit_h; /* --size WxH: a new level of that size */
    bool no_watch;          /* do not reload the level when its file changes */
    uint64_t seek;          /* --seek TICK: the viewer starts there (headless: prints its hash, ends) */
    bool seek_given;
} AppOptions;

/* What the App is doing; each has its frame and its tick (app.c). */
typedef enum AppMode {
    APP_MODE_PLAY,     /* the player's input drives the ticks */
    APP_MODE_REPLAY,   /* a recorded run's input does, straight to its end */
    APP_MODE_VIEW,     /* ... in the viewer (viewer.h): stepped, sought, paused */
    APP_MODE_AUTOPLAY, /* the bot's does */
    APP_MODE_EDIT,     /* the level editor has the keys; no ticks */
    APP_MODE_PLAYTEST, /* the editor's level played; Tab or Esc goes back */
    APP_MODE_OVER,     /* the replay or the bot is done: the last picture stays, no ticks */
    APP_MODE_COUNT
} AppMode;

typedef struct App {
    AppOptions opt; /* level and seed resolved */
    AppMode mode;
    Host *host;         /* the engine around it: the lifetimes, the window, the input */
    const char *assets; /* the art's folder, found (app_asset_search) */
    Game *game;
    Effects effects; /* particles, shake and flashes, after every tick */
    DrawAssets art;
    DrawView view;
    Replay replay, record;
    Viewer *viewer;       /* in the history arena: APP_MODE_VIEW */
    ViewerGame view_game; /* what the viewer steps: the Game and its rewind */
    uint64_t viewer_at;   /* the history arena's cursor before the viewer */
    bool seek_failed;     /* --seek headless, and no viewer to answer it */
    Controls controls;
    SaveSettings applied; /* the settings the window and keys have now (the Game's may differ) */
    uint16_t last_input;  /* the input of the last tick that ran */
    Rewind rewind;        /* the past states, in the host's history arena (rules/rewind.h) */
    bool started;         /* app_start ran: app_release writes the run's outputs */
    int status;           /* exit status so far */
    /* Sound: the bank in the permanent arena, the mixer, and either the device (its callback
       mixes) or the offline WAV (each tick mixes APP_AUDIO_TICK_FRAMES into `audio_out`,
       stereo frames in one buffer that grows without moving: a run's length is not known in
       advance, and the WAV is written from it in one piece). */
    CueBank bank;
    Cues cues;
    MusicWorker *music;    /* with a device: the sounds and music, made after the first frame */
    int32_t music_waiting; /* files the bank has not taken from it yet */
    Mixer *mixer;
    AudioDevice *audio;
    VirtualArray audio_out;
    bool muted, ducked;
    /* The level editor (E, --edit) and the play-test of what it holds (Tab); the watch that
       reloads the level being played when its file changes on disk. */
    EditorUi *editor;
    bool edits_dropped; /* the user said to quit without saving: nothing to keep at exit */
    /* The game as it was before the first play-test of an editor opened from play, which
       plays over it: leaving the editor starts the level again with this progress. */
    bool playtested;
    PlayerProgress before_test, before_test_entry;
    char before_test_path[SIM_PATH_MAX], before_test_entry_name[SIM_ENTRY_MAX];
    LevelWatch watch;
} App;

/* The table's entries (game_api.c: game_api()), each also callable directly. */
void *app_create(Host *h, const void *options);
bool app_start(void *app, Host *h);
bool app_frame(void *app, Host *h);
bool app_tick(void *app, Host *h);
void app_draw(void *app, Host *h, float w, float hh);
void app_report(void *app, const Diag *d);
void app_notice(void *app, const char *line);
void app_reloaded(void *app, Host *h);
/* The command line of a new process for a new layout of the state: this one's, with the
   level playing as --level, no title, no editor (host.h: restart). */
int app_restart(const void *app, int argc, char **argv, char **out, int cap);
int app_describe(const void *app, char *out, size_t cap);
/* Saves the recording, prints the replay's verdict, keeps unsaved edits, writes the WAV;
   releases the editor and the sound. The exit status: 0, 1 (an output failed) or 3
   (replay mismatch). */
int app_release(void *app, Host *h);

#endif
