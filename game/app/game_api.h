/* game_api.h - the game's code as one table of entry points, so the host can swap it.

   The executable is the host: the window, input, sound, the renderer, the arenas and the
   frame loop (app.c). Everything that decides what happens and what is drawn - the
   simulation, the screens, the bot, the effects, the drawing calls - is reached through
   ONE table, the way Quake II's game_export_t is:

       const GameApi *api = game_api();            // linked in, or from the shared library
       api->update(g, input);                      // one tick
       api->draw(rd, &art, &view, g, &fx);         // one frame

   In a release build the table is linked into the executable. With `--hot-reload`
   (game_module.h) it comes from libgame_hot.so, which holds the same code built as a
   shared library: the state stays where it is - in the host's arenas - and a rebuilt
   library is swapped in while the game runs. For that to be safe:
   - the state holds no pointer into the library's code (no function pointers: a test scans
     for them), and the library has no static data that holds state (only const tables);
   - the library has no copy of the engine: its calls into core/ and engine/ (arenas, the
     thread's scratch arenas, the report sink) resolve to the host's at load time;
   - the layout of the state structs is part of the table: GAME_LAYOUT_HASH is a hash of
     the state headers as the compiler sees them (game_layout.cmake), and a library whose
     hash differs from the host's is not swapped in (the host's code reads those structs
     too): the game restarts the level in a new process of the rebuilt executable, or,
     where it cannot (a replay, the editor), says so and goes on with the code it has.
   GAME_API_VERSION changes whenever this table changes.

   What the table does not cover runs the host's linked-in copy of the same code, and a
   swap does not change it: the editor and its play-test, the settings calls of the front
   end (key binding, notices, saving settings), the reload of a level file changed on disk,
   and the Tiled reader (level_tiled.c stays in the host: cJSON's allocation hooks are one
   per process and read its thread-local arena). The per-tick rules, the screens, the bot,
   the effects and the drawing all go through it. */
#ifndef GAME_API_H
#define GAME_API_H

#include <stdint.h>

#include "front/draw.h"
#include "front/effects.h"
#include "rules/game.h"

#define GAME_API_VERSION 1u

typedef struct GameApi {
    uint32_t version;     /* GAME_API_VERSION of the code that made the table */
    uint64_t layout_hash; /* GAME_LAYOUT_HASH of the state headers it was compiled with */
    const char *build;    /* what it is: "game 0.1.0" */
    bool (*init)(Game *g, Arena *level_arena, const GameConfig *cfg, Error *err);
    void (*update)(Game *g, uint32_t input); /* one tick */
    uint32_t (*bot_input)(const Game *g);    /* the bot's input for the next tick */
    void (*effects_update)(Effects *fx, const Game *g);
    void (*view_update)(DrawView *v, const Game *g);
    void (*draw)(Renderer *rd, const DrawAssets *a, DrawView *v, const Game *g, const Effects *fx);
    /* After a swap, before the next tick: the new code may rebuild what it derives from
       the state (nothing needs it today; the hook is part of the contract). */
    void (*reloaded)(Game *g);
} GameApi;

/* The table. The shared library exports this one symbol; the host looks it up by name
   (GAME_API_SYMBOL). */
#define GAME_API_SYMBOL "game_api"
const GameApi *game_api(void);

#endif
