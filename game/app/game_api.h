/* game_api.h - this game's table for the engine's host (host/game_api.h says what a table
   is): linked into the release executable, and the one symbol libgame_hot.so exports.

       int main(int argc, char **argv) { return st_host_main(game_api(), argc, argv); }  */
#ifndef APP_GAME_API_H
#define APP_GAME_API_H

#include <strata/host/game_api.h>

const GameApi *game_api(void);

#endif
