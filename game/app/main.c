/* main.c - the game executable: the engine's host (host/host.h) with the game's table. */
#include "app/game_api.h"
#include <strata/host/host.h>

int main(int argc, char **argv) { return st_host_main(game_api(), argc, argv); }
