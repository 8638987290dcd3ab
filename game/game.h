/* game.h - the game's screens around the simulation: title, playing, paused, level
   transition, game over, victory. No SDL: one call per 60 Hz tick with one input byte.

   The input byte is the replay format (replay.h): the five SIM_IN_* bits held this tick,
   plus three edges (GAME_IN_CONFIRM, GAME_IN_PAUSE, GAME_IN_RESTART: pressed this tick).
   Everything that happens follows from the bytes, so recording them records the run.

       Game *g = arena_push_struct(perm, Game);
       if (!game_init(g, level_arena, &(GameConfig){ .start_level = path, .seed = 1 }, &err)) ...
       while (!g->quit) game_update(g, input_byte);   // draw.h shows it

   The Game lives in the permanent arena; its Sim's Level points into `level_arena`. */
#ifndef GAME_H
#define GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"
#include "save.h"
#include "sim.h"

enum {
    GAME_IN_CONFIRM = 1u << 5,
    GAME_IN_PAUSE = 1u << 6,
    GAME_IN_RESTART = 1u << 7,
};

/* A new screen is one entry here, one in game.c's table (its name and its update) and one
   in draw.c's (its picture); both tables fail to compile until it has them. */
typedef enum GameScreen {
    SCREEN_TITLE,
    SCREEN_PLAYING,
    SCREEN_PAUSED,
    SCREEN_TRANSITION,
    SCREEN_GAME_OVER,
    SCREEN_VICTORY,
    SCREEN_COUNT
} GameScreen;

typedef enum PauseItem { PAUSE_RESUME, PAUSE_RESTART, PAUSE_QUIT, PAUSE_ITEM_COUNT } PauseItem;

#define TRANSITION_CLEAR_TICKS 60 /* "clear" card: the level's time and coins */
#define TRANSITION_OUT_TICKS 84   /* ... fade out, then the load */
#define TRANSITION_TICKS 144      /* ... then the level's name card and the fade in */
#define GAME_OVER_DELAY 50      /* the death burst plays before the game-over card */

typedef struct GameConfig {
    const char *start_level;
    uint64_t seed;
    bool skip_title;       /* replays, tests and --headless start playing at once */
    const char *save_path; /* NULL: progress is not saved */
} GameConfig;

typedef struct Game {
    Sim sim;
    GameScreen screen;
    Arena *level_arena;
    char start_level[SIM_PATH_MAX];
    uint64_t seed;
    uint32_t prev_input;
    int32_t menu;         /* pause menu selection */
    int32_t screen_ticks; /* ticks since the screen changed */
    uint32_t ticks;       /* game ticks since start */
    char message[512];    /* last warning or error reported (game_show_report), shown for message_ticks */
    int32_t message_ticks;
    int32_t level_number; /* 1-based count of levels entered in this run */
    uint32_t clear_ticks; /* the level just completed: its time and coins, for the clear card */
    int32_t clear_coins, clear_coins_total;
    char clear_level[SIM_PATH_MAX]; /* ... and its file, recorded once the next one loads */
    bool quit;
    bool save_enabled;
    char save_path[SAVE_PATH_MAX];
    SaveData save;
    char save_notice[160]; /* for the title screen: a save that could not be read, and
                              where it went (or that the game is not saving) */
    uint32_t load_failures;
} Game;

bool game_init(Game *g, Arena *level_arena, const GameConfig *cfg, LevelError *err);
/* What the player must see: a warning or an error (notes are left out) becomes the HUD's
   message for five seconds. The game reports its failures through core/diag.h, never to
   the screen directly; the front end's sink passes each report here as well as on to stderr
   (app.c), so the screen says what the log says. */
void game_show_report(Game *g, const Diag *d);
void game_update(Game *g, uint32_t input);
/* The simulation's hash plus the screen: what a replay checks at its end. */
uint64_t game_hash(const Game *g);
const char *game_screen_name(GameScreen s);

#endif
