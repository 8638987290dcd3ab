/* game_module.h - where the host (host.h) gets the game's code from (game_api.h): a table
   linked into the executable, or a shared library that is watched and swapped while the
   game runs (--hot-reload).

       GameModule m;
       st_game_module_create(&m, perm, my_api, NULL);              // the linked-in table
       st_game_module_create(&m, perm, NULL, "game/libgame_hot.so"); // the library, watched
       ... every frame:
       GameModuleEvent ev = st_game_module_poll(&m);    // looks at the file twice a second
       if (ev == GAME_MODULE_SWAPPED) m.api->reloaded(state, host); // the new code, same state
       if (ev != GAME_MODULE_SAME) show(m.message);  // what happened, in one line

   A change is taken once the file has stayed the same size and time for one look (the
   build has finished writing it). The library is read whole, checked (game_library.h: a
   cut file, one that changed while it was read, one for another machine), written to a new
   name beside it and that copy is loaded, so the build may overwrite the original while it
   is in use and the loader maps exactly the bytes that were checked. A library that does
   not pass, does not load, lacks the table, has another GAME_API_VERSION or a table entry
   that is NULL or points outside its own code is refused before any of its entries is
   called, and the code running goes on; the message says which. One with another
   layout_hash than the table running is refused too, as GAME_MODULE_LAYOUT_CHANGED: its
   code would misread the state, so only a new process can take it (host.h: restart).
   Libraries once loaded stay loaded (the state may point at their constant strings): a
   few hundred KiB per swap, in a development session. Loading is the only heap use here
   (the dynamic loader's); looking at the file is a stat. */
#ifndef GAME_MODULE_H
#define GAME_MODULE_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/host/game_api.h>

#define GAME_MODULE_POLL_FRAMES 30 /* a look at the library every half second at 60 Hz */

typedef enum GameModuleEvent {
    GAME_MODULE_SAME,    /* nothing changed (or nothing to look at this frame) */
    GAME_MODULE_SWAPPED, /* a new library's table is in m->api */
    GAME_MODULE_REFUSED, /* a changed library could not be used: m->message says why */
    /* ... because the state's layout changed: the host must
       restart to take it (host.h: restart) */
    GAME_MODULE_LAYOUT_CHANGED,
} GameModuleEvent;

/* Tests: called between reading the library's bytes and the look that they did not change
   meanwhile, as a build writing the file at that moment would. */
typedef void GameModuleHook(void *user, const char *path);

typedef struct GameModule {
    const GameApi *api; /* the table in use (NULL: none, st_game_module_create said false) */
    const char *path;   /* the library watched (in the arena given to open); NULL: linked in */
    int64_t mtime_ns;   /* the file as last taken or refused */
    uint64_t size;
    int64_t seen_mtime_ns; /* ... and as last seen, to wait for it to settle */
    uint64_t seen_size;
    uint32_t polls;             /* calls until the next look */
    uint32_t loads;             /* libraries loaded so far (swaps + 1 when the first came from it) */
    char built[16];             /* the loaded library file's time, "16:48:30" (local) */
    char message[320];          /* the last load's outcome, one line */
    GameModuleHook *after_read; /* NULL but in tests */
    void *hook_user;
} GameModule;

/* `path` NULL: the `linked` table. Else the library at `path` (any layout, the first time);
   when it cannot be used, `linked` is kept and false returned, with the reason in
   m->message (the game still runs when there is a linked table, and the file is watched for
   a better one). m->api is NULL only when there is neither. */
bool st_game_module_create(GameModule *m, Arena *perm, const GameApi *linked, const char *path);
/* Once per frame: every GAME_MODULE_POLL_FRAMES calls, a stat of the library. */
GameModuleEvent st_game_module_poll(GameModule *m);
/* Loads the library now, changed or not (tests; the same file gives the same code). */
GameModuleEvent st_game_module_reload(GameModule *m);

#endif
