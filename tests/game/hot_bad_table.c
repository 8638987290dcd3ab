/* hot_bad_table.c - game libraries whose table lies (test_hot_refuse.c): the right
   GAME_API_VERSION and GAME_LAYOUT_HASH, with entries that would crash a host that took the
   table at its word. One source, built once per kind (BAD_TABLE_KIND):
     1 every entry NULL            2 update at address 0x1000
     3 update is the host's own game_update, outside the library
     4 the table itself at a wild address   5 no build name
     6 a sound table of stubs (the control: it must be taken). */
#include "app/game_api.h"
#include "game_layout.h"

__attribute__((unused)) static bool stub_init(Game *g, Arena *a, const GameConfig *c,
                                              Error *e) {
    (void)g, (void)a, (void)c, (void)e;
    return false;
}
__attribute__((unused)) static void stub_update(Game *g, uint32_t in) { (void)g, (void)in; }
__attribute__((unused)) static uint32_t stub_bot(const Game *g) { return (void)g, 0; }
__attribute__((unused)) static void stub_effects(Effects *fx, const Game *g) { (void)fx, (void)g; }
__attribute__((unused)) static void stub_view(DrawView *v, const Game *g) { (void)v, (void)g; }
__attribute__((unused)) static void stub_draw(Renderer *rd, const DrawAssets *a, DrawView *v,
                                              const Game *g, const Effects *fx) {
    (void)rd, (void)a, (void)v, (void)g, (void)fx;
}
__attribute__((unused)) static void stub_reloaded(Game *g) { (void)g; }

#define STUBS                                                                                      \
    .init = stub_init, .bot_input = stub_bot, .effects_update = stub_effects,                      \
    .view_update = stub_view, .draw = stub_draw, .reloaded = stub_reloaded

__attribute__((visibility("default"))) const GameApi *game_api(void) {
    static const GameApi api = {
        .version = GAME_API_VERSION,
        .layout_hash = GAME_LAYOUT_HASH,
#if BAD_TABLE_KIND == 1
        .build = "null entries",
#elif BAD_TABLE_KIND == 2
        .build = "wild entry",
        STUBS,
        .update = (void (*)(Game *, uint32_t))(uintptr_t)0x1000,
#elif BAD_TABLE_KIND == 3
        .build = "host entry",
        STUBS,
        .update = game_update,
#elif BAD_TABLE_KIND == 5
        STUBS,
        .update = stub_update,
#else
        .build = "stubs",
        STUBS,
        .update = stub_update,
#endif
    };
#if BAD_TABLE_KIND == 4
    return (void)api, (const GameApi *)(uintptr_t)0x10000;
#else
    return &api;
#endif
}
