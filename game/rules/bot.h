/* bot.h - a deterministic player: reads the game state, returns the next input byte.

   It is how the committed replays were made (`game --autoplay --record FILE`) and how the
   game is played with synthetic input under Xvfb. Each tick it searches the tile grid
   (Dijkstra in a scratch scope, spikes expensive, doors passable only with their key) for
   the nearest key, heart it needs or coin close by, else the exit or portal, steers toward
   the next tile centre on the path, and turns to shoot enemies it can see. Before a move it
   looks ahead for bullets and bodies, predicting its own steps with the rules' movement
   (sim_move_player), so what it expects is what the tick will do. On any screen
   but `playing` it presses confirm. Same state in, same input out: no clock, no RNG. */
#ifndef BOT_H
#define BOT_H

#include <stdint.h>

#include "rules/game.h"

uint32_t bot_input(const Game *g);

#endif
