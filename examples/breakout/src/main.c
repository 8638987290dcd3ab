/* main.c - breakout: the engine's host runs the game's table. */
#include "breakout.h"

int main(int argc, char **argv) { return st_host_main(breakout_api(), argc, argv); }
