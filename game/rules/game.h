/* game.h - the game's screens around the simulation: the title menu, level select and
   settings, playing, paused, the level transition, game over, victory. No SDL: one call per
   60 Hz tick with one input byte.

   The input byte is the replay format (replay.h): the five SIM_IN_* bits held this tick,
   plus three edges (GAME_IN_CONFIRM, GAME_IN_PAUSE, GAME_IN_RESTART: pressed this tick),
   and a ninth bit past the byte, GAME_IN_REWIND, held: the rewind (rules/rewind.h takes it
   before game_update, which ignores it). Everything that happens follows from the inputs,
   so recording them records the run.

       Game *g = st_arena_push_struct(perm, Game);
       if (!game_init(g, level_arena, &(GameConfig){ .start_level = path, .seed = 1 }, &err)) ...
       while (!g->quit) game_update(g, input_byte);   // draw.h shows it

   Menus read the same byte: up/down (with repeat while held) move, left/right change a
   value, Enter or fire chooses, the pause edge (Esc) goes back. The settings the menus
   change live in `save.settings` and are written to the settings file (save.h) when they
   change; the front end applies them (app.c), tells the Game the largest window scale the
   screen fits (`scale_max`), and captures the key for a binding the player asked for
   (game_rebinding, game_bind_key): keys are the front end's business, the Game only
   stores their numbers.

   The Game lives in the permanent arena; its Sim's Level points into `level_arena`. */
#ifndef GAME_H
#define GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/catalog.h"
#include <strata/core/diag.h>
#include "rules/save.h"
#include "rules/sim.h"

enum {
    GAME_IN_CONFIRM = 1u << 5,
    GAME_IN_PAUSE = 1u << 6,
    GAME_IN_RESTART = 1u << 7,
    GAME_IN_REWIND = 1u << 8,
};

/* A new screen is one entry here, one in game.c's table (its name and its update) and one
   in draw.c's (its picture); both tables fail to compile until it has them. New screens go
   last: game_hash mixes in the screen's number, and the committed replays hold it. */
typedef enum GameScreen {
    SCREEN_TITLE,
    SCREEN_PLAYING,
    SCREEN_PAUSED,
    SCREEN_TRANSITION,
    SCREEN_GAME_OVER,
    SCREEN_VICTORY,
    SCREEN_LEVEL_SELECT,
    SCREEN_SETTINGS,
    SCREEN_COUNT
} GameScreen;

typedef enum TitleItem {
    TITLE_CONTINUE, /* the furthest level reached; only when there is one */
    TITLE_NEW_RUN,
    TITLE_LEVEL_SELECT,
    TITLE_SETTINGS,
    TITLE_QUIT,
    TITLE_ITEM_COUNT
} TitleItem;

typedef enum PauseItem { PAUSE_RESUME, PAUSE_RESTART, PAUSE_SETTINGS, PAUSE_TITLE, PAUSE_ITEM_COUNT } PauseItem;

/* The settings screen's rows: three volumes, scale, fullscreen, one per rebindable action,
   then two more. */
typedef enum SettingsItem {
    SETTINGS_VOLUME, /* SETTINGS_VOLUME + SaveVolume, for each of SAVE_VOLUMES */
    SETTINGS_SCALE = SETTINGS_VOLUME + SAVE_VOLUMES,
    SETTINGS_FULLSCREEN,
    SETTINGS_RENDERER, /* takes effect at the next start */
    SETTINGS_KEYS,     /* SETTINGS_KEYS + action, for each of SAVE_BIND_ACTIONS */
    SETTINGS_RESET_KEYS = SETTINGS_KEYS + SAVE_BIND_ACTIONS,
    SETTINGS_BACK,
    SETTINGS_ITEM_COUNT
} SettingsItem;

typedef enum GameMessageKind { GAME_MESSAGE_ERROR, GAME_MESSAGE_NOTICE } GameMessageKind;

#define TRANSITION_CLEAR_TICKS 60 /* "clear" card: the level's time and coins */
#define TRANSITION_OUT_TICKS 84   /* ... fade out, then the load */
#define TRANSITION_TICKS 144      /* ... then the level's name card and the fade in */
#define GAME_OVER_DELAY 50        /* the death burst plays before the game-over card */
#define MENU_REPEAT_DELAY 18      /* a direction held this long on a menu starts repeating ... */
#define MENU_REPEAT_EVERY 5       /* ... one step this often */
#define VOLUME_STEP 10            /* percent per left/right on a volume row */

typedef struct GameConfig {
    const char *start_level;
    uint64_t seed;
    bool skip_title;           /* replays, tests and --headless start playing at once */
    const char *save_path;     /* NULL: progress is not saved */
    const char *settings_path; /* NULL: settings are not saved (save.h: the settings file) */
    bool level_chosen;         /* start_level was asked for (--level): the title's Enter plays it */
    /* The run is recorded or replayed: keys cannot be rebound in the settings, since the
       key a rebinding waits for comes from the front end, not from the recorded input. */
    bool recorded;
    /* The front end's keys for the rebindable actions (save.h's order), used until the
       player binds their own and by "reset keys". */
    uint16_t default_binds[SAVE_BIND_ACTIONS][SAVE_BIND_SLOTS];
} GameConfig;

typedef struct Game {
    /* What play changes, from `sim` up to `level_arena` (game_play_bytes): with the level
       arena's bytes, the state a rewind puts back (rules/rewind.h). Nothing in it points
       anywhere but the level arena. Outside it, what a rewind must not undo: the progress
       and settings as the files have them, the HUD's message, the run's configuration. */
    Sim sim;
    GameScreen screen;
    uint32_t prev_input;
    int32_t menu;         /* the selected row of the screen's menu */
    int32_t menu_scroll;  /* level select: the first row shown */
    int32_t hold_ticks;   /* how long the direction that moves the menu has been held */
    int32_t screen_ticks; /* ticks since the screen changed */
    uint32_t ticks;       /* game ticks since start */
    int32_t level_number; /* 1-based count of levels entered in this run */
    uint32_t clear_ticks; /* the level just completed: its time and coins, for the clear card */
    int32_t clear_coins, clear_coins_total;
    char clear_level[SIM_PATH_MAX]; /* ... and its file, recorded once the next one loads */
    SaveRecordResult clear_record;  /* ... what it did to the records */
    uint32_t clear_best_ticks;      /* ... the record before it (0: none) */
    bool clear_hurt;                /* ... the player had lost hearts: the next level refills them */
    /* ... a rewind went back into it: it is not counted (no record, no progress saved) */
    bool clear_rewound;
    bool rewound; /* this level was rewound since it was entered */
    bool quit;    /* the player chose Quit: the run is over */
    /* Every tick's screen and menu row, mixed: two runs with one course through the menus
       and cards have one course hash (game_run_hash). */
    uint64_t course;
    int32_t run_coins_total;  /* coins in the levels completed this run */
    GameScreen settings_from; /* where the settings screen goes back to */
    uint32_t load_failures;
    Arena *level_arena; /* the end of the play span */
    char start_level[SIM_PATH_MAX];
    uint64_t seed;
    char message[512]; /* last report or notice, shown for message_ticks */
    int32_t message_ticks;
    GameMessageKind message_kind;
    int32_t rebinding;        /* the action waiting for a key, -1: none */
    bool wait_release;        /* after a binding: input ignored until nothing is held */
    bool settings_dirty;      /* changed since last written */
    int32_t renderer_running; /* SaveRenderer drawing now (the front end says; 0: unknown) */
    /* the largest window scale the screen fits (the front end
       says; 0: unknown, SAVE_SCALE_MAX) */
    int32_t scale_max;
    bool level_chosen; /* GameConfig's */
    uint16_t default_binds[SAVE_BIND_ACTIONS][SAVE_BIND_SLOTS];
    bool recorded;   /* GameConfig's */
    Catalog catalog; /* the run folder's levels, scanned when a menu needs it */
    bool save_enabled;
    char save_path[SAVE_PATH_MAX];
    bool settings_enabled;
    char settings_path[SAVE_PATH_MAX];
    SaveData save;
    /* for the title screen: a save that could not be read, and
       where it went (or that the game is not saving) */
    char save_notice[160];
} Game;

/* The bytes of the Game that play changes: [0, game_play_bytes()) (above). */
static inline uint64_t game_play_bytes(void) { return offsetof(Game, level_arena); }

bool game_init(Game *g, Arena *level_arena, const GameConfig *cfg, Error *err);
/* What the player must see: a warning or an error (notes are left out) becomes the HUD's
   message for five seconds. The game reports its failures through core/diag.h, never to
   the screen directly; the front end's sink passes each report here as well as on to stderr
   (app.c), so the screen says what the log says. */
void game_show_report(Game *g, const Diag *d);
/* A short line for the player that is not a problem ("screenshot saved: ..."). */
void game_show_notice(Game *g, const char *text);
void game_update(Game *g, uint32_t input);
/* The simulation's hash plus the screen: what a replay of version 1 or 2 checks at its end. */
uint64_t game_hash(const Game *g);
/* game_hash with the course through the menus and cards (Game.course) and the menu's row:
   what a replay of version 3 checks, so a run that went another way through the title,
   the settings or a card fails even where the play after it is the same. */
uint64_t game_run_hash(const Game *g);
const char *game_screen_name(GameScreen s);

/* The title's "Continue": the catalog index of the furthest level reached, -1 if none. */
int32_t game_continue_level(const Game *g);
/* Whether the level select lets the player start catalog level i. */
bool game_level_unlocked(const Game *g, int32_t i);
/* The action whose key the settings screen is waiting for, -1 if none. */
int32_t game_rebinding(const Game *g);
/* What a binding moved, for the front end to say (it knows the keys' names). */
typedef struct GameBind {
    int32_t action;     /* the action bound; -1: nothing changed (cancelled, or its key already) */
    uint16_t key;       /* ... now its front key */
    int32_t taken_from; /* the action that had `key` and lost it; -1: none */
    uint16_t dropped;   /* a key `action` gave up to make room (0: none) ... */
    int32_t dropped_to; /* ... and the action that took it instead (-1: none: it is unbound) */
} GameBind;
/* The front end's answer: the key pressed (its number; 0 cancels). The key takes the front
   of the action's two and the back one stays: the front key is given up (or, when the key
   pressed was the back one, the two swap and none is). A key belongs to one action:
   another action that had it loses it, and if that leaves it none, it takes the key this
   action gave up (a swap). Saved at once. */
GameBind game_bind_key(Game *g, uint16_t key);
/* The editor's play-test: the level from its text as if it were the file `path`, the
   player on tile (tx, ty) when it is walkable, playing at once. False with the loader's
   error; the running level is then untouched. */
bool game_playtest(Game *g, const char *path, Str8 text, int32_t tx, int32_t ty, Error *err);
/* The current level's file read again from disk (an edit saved, or changed by another
   program), the player kept where they stand if they can; playing. */
bool game_reload_level(Game *g, Error *err);
/* Writes the settings if they changed and saving is on (the front end calls it at exit,
   for changes made outside the menus such as F11). */
void game_save_settings(Game *g);

#endif
