/* game_layout_src.h - included by nothing: preprocessed (cc -E) by the build into what the layout hash
   of the game's table (host/game_api.h) is taken from. The headers that declare the game's state, as the compiler
   sees them: comments and macros that no declaration uses are gone (a tunable such as
   PLAYER_SPEED is not part of the layout), while array sizes are expanded and every type
   is spelled out. */
#include "app/app.h"              /* the App: the whole state the host holds for the game */
#include <strata/host/game_api.h> /* the table itself: its order is a layout the host relies on too */
