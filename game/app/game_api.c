/* game_api.c - the table of game_api.h, over the game's own functions. */
#include "app/game_api.h"

#include "rules/bot.h"
#include "game_layout.h" /* GAME_LAYOUT_HASH, generated from the state headers */

static void game_api_reloaded(Game *g) { (void)g; }

/* The shared library exports game_api and nothing else (-fvisibility=hidden). */
__attribute__((visibility("default"))) const GameApi *game_api(void) {
    static const GameApi api = {
        .version = GAME_API_VERSION,
        .layout_hash = GAME_LAYOUT_HASH,
        .build = "game " AD_VERSION,
        .init = game_init,
        .update = game_update,
        .bot_input = bot_input,
        .effects_update = effects_update,
        .view_update = draw_view_update,
        .draw = draw_game,
        .reloaded = game_api_reloaded,
    };
    return &api;
}
