/* game_api.h - a game, to the engine's host (host.h): one table of data and entry points,
   the way Quake II's game_export_t is. The host calls nothing of the game but this table;
   the game calls the engine freely (it is the layer above).

       static const GameApi api = {
           .version = GAME_API_VERSION, .layout_hash = MY_LAYOUT_HASH, .build = "mygame 1.0",
           .name = "mygame", .title = "My Game", .logical_w = 320, .logical_h = 180, .tick_hz = 60,
           .create = my_create, .start = my_start, .frame = my_frame, .tick = my_tick,
           .draw = my_draw, ...                     // every entry is set: none may be NULL
       };
       int main(int argc, char **argv) { return st_host_main(&api, argc, argv); }

   A run, as the host calls it (host.h says what each entry may use):
     parse     the game's options (its `options` table, parsed by the host with its own) into a
               struct of the game's, in the permanent arena; may change the host's options
               (run_ends: a replay ends by itself); returns the options, or NULL (a bad
               combination, reported)
     create    before the window: the game's state in the permanent arena, its first level
               in the level arena; may ask for the window (host->want: scale, fullscreen,
               renderer) from its saved settings
     start     the window and renderer are there: textures, sound, the view
     frame     once per displayed frame, after the poll: menus, the editor, whatever is not
               a tick; false ends the run at once (the window closed, nothing held it)
     tick      one fixed step, as many as the clock owes; false: no more ticks this frame
     draw      the picture, into the w x h logical pixels left of the host's F1 panel
     report    a warning or error the host's sink passes on (the game shows it on screen)
     notice    one line for the player from the host ("screenshot saved: ...")
     reloaded  a new library's code now runs on the same state (--hot-reload)
     restart   when a new library changes the state's layout: the command line of a new
               process that goes on from here, NULL-ended in out[0..cap), and its length
               (0: not now - a replay, unsaved edits; -1: cap too small, so cap 0 asks
               whether it can)
     describe  the state as JSON members, for the browser page's tests
     release   the end: the game's outputs and verdicts; returns the exit status

   The state is the game's, opaque to the host: a pointer into the host's arenas. With
   --hot-reload the table comes from a shared library (game_module.h) that is swapped while
   the game runs, so:
   - the state holds no pointer into the library's code (no function pointers), and the
     library has no static data that holds state (only const tables);
   - the library has no copy of the engine: its calls into the engine resolve to the host's;
   - layout_hash is a hash of the state's declarations as the compiler saw them: a library
     with another hash than the one running is not swapped in (its code would misread the
     state); the host asks `restart` for a new process instead.
   GAME_API_VERSION changes whenever this table changes. */
#ifndef GAME_API_H
#define GAME_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/cli.h>
#include <strata/core/diag.h>

#define GAME_API_VERSION 3u

typedef struct Host Host;
typedef struct HostOptions HostOptions;

typedef struct GameApi {
    uint32_t version;     /* GAME_API_VERSION of the code that made the table */
    uint64_t layout_hash; /* of the state's declarations (see above) */
    const char *build;    /* what it is: "game 0.1.0" */
    /* Who the game is: --version's name and the window's class (and its data folders'
       name: host.h), the window's title, the picture's size, the simulation's rate, the
       level and history arenas' default sizes (host.h) and the game's own options with
       their help. */
    const char *name, *title, *version_text;
    int32_t logical_w, logical_h;
    uint32_t tick_hz;
    uint32_t clear_rgba; /* what the frame starts as, 0xRRGGBBAA */
    uint64_t level_arena_bytes;
    uint64_t history_arena_bytes; /* 0: ARENA_DEFAULT_RESERVE (address space: nothing is used until pushed) */
    const CliOption *options;
    int32_t option_count;
    const char *usage; /* the synopsis of the game's options: "usage: prog " and this, then the host's */
    const char *help;  /* what each does, before the host's options */

    void *(*parse)(Arena *perm, const CliValue *values, HostOptions *ho);
    void *(*create)(Host *h, const void *options);
    bool (*start)(void *state, Host *h);
    bool (*frame)(void *state, Host *h);
    bool (*tick)(void *state, Host *h);
    void (*draw)(void *state, Host *h, float w, float h_px);
    void (*report)(void *state, const Diag *d);
    void (*notice)(void *state, const char *line);
    void (*reloaded)(void *state, Host *h);
    int (*restart)(const void *state, int argc, char **argv, char **out, int cap);
    int (*describe)(const void *state, char *out, size_t cap);
    int (*release)(void *state, Host *h);
} GameApi;

/* The symbol a game library exports its table by: `const GameApi *game_api(void)`. */
#define GAME_API_SYMBOL "game_api"

#endif
