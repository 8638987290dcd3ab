/* game.c - screens and level flow around the simulation (see game.h). */
#include "game.h"

#include <stdio.h>
#include <string.h>

#include "core/base.h"
#include "core/path.h"

static void set_screen(Game *g, GameScreen s) {
    g->screen = s;
    g->screen_ticks = 0;
    g->menu = 0;
}

void game_show_report(Game *g, const Diag *d) {
    if (d->level == DIAG_NOTE) return;
    snprintf(g->message, sizeof g->message, "%s", d->text);
    g->message_ticks = 5 * SIM_HZ;
}

/* A fresh run from the first level: new progress, same seed (replays depend on it). */
static bool start_run(Game *g, LevelError *err) {
    if (!sim_start_run(&g->sim, g->level_arena, g->start_level, err)) return false;
    g->level_number = 1;
    return true;
}

/* Reads the progress file. One that exists but cannot be used is never overwritten: it is
   set aside first, and if even that fails the game plays on without saving. */
static void open_save(Game *g) {
    char msg[600], moved[SAVE_PATH_MAX + 16], why[600];
    SaveStatus st = save_load(&g->save, g->save_path, msg, sizeof msg);
    if (st == SAVE_OK || st == SAVE_MISSING) return;
    if (save_set_aside(g->save_path, moved, sizeof moved, why, sizeof why)) {
        diag_report(DIAG_WARNING, "%s; kept as %s, starting fresh", msg, moved);
        snprintf(g->save_notice, sizeof g->save_notice, "progress %s: kept as %.80s, starting fresh",
                 st == SAVE_OTHER_VERSION ? "from another version" : "unreadable", path_base_name(str8_cstr(moved)).data);
    } else {
        g->save_enabled = false;
        diag_report(DIAG_WARNING, "%s; %s: playing without saving", msg, why);
        snprintf(g->save_notice, sizeof g->save_notice, "progress unreadable and cannot be moved: not saving");
    }
}

bool game_init(Game *g, Arena *level_arena, const GameConfig *cfg, LevelError *err) {
    memset(g, 0, sizeof *g);
    g->level_arena = level_arena;
    g->seed = cfg->seed;
    size_t n = strlen(cfg->start_level);
    if (n >= sizeof g->start_level) {
        snprintf(err->message, sizeof err->message, "%.100s...: error: path too long", cfg->start_level);
        return false;
    }
    memcpy(g->start_level, cfg->start_level, n + 1);
    sim_init(&g->sim, cfg->seed);
    if (!start_run(g, err)) return false;
    if (cfg->save_path && strlen(cfg->save_path) < sizeof g->save_path) {
        g->save_enabled = true;
        memcpy(g->save_path, cfg->save_path, strlen(cfg->save_path) + 1);
        open_save(g);
    }
    set_screen(g, cfg->skip_title ? SCREEN_PLAYING : SCREEN_TITLE);
    return true;
}

/* Saves a completion of `level` and how far the run got. Called only once `reached` is known
   to load (or is the victory), so a level that fails to load is never the furthest. */
static void record_completion(Game *g, const char *level, uint32_t ticks, int32_t coins, const char *reached) {
    if (!g->save_enabled) return;
    save_record(&g->save, level, ticks, coins, reached);
    char msg[600];
    if (!save_write(&g->save, g->save_path, msg, sizeof msg))
        diag_report(DIAG_WARNING, "warning: progress not saved: %s", msg);
}

/* What the clear card shows, taken before the load replaces the level. */
static void note_clear(Game *g) {
    const Sim *s = &g->sim;
    g->clear_ticks = s->tick;
    g->clear_coins = s->progress.coins - s->progress_entry.coins;
    memcpy(g->clear_level, s->level_path, sizeof g->clear_level);
    g->clear_coins_total = 0;
    for (int32_t i = 0; i < s->level.pickup_count; i++)
        g->clear_coins_total += s->level.pickups[i].kind == PICKUP_COIN;
}

static void restart_level(Game *g) {
    LevelError err;
    if (!sim_restart_level(&g->sim, g->level_arena, &err)) {
        level_error_report(&err);
        return;
    }
    set_screen(g, SCREEN_PLAYING);
}

/* ---- The screens: one update each, in a table by GameScreen (a new screen is one entry).
   Each gets the input held this tick and the bits newly pressed. ---- */

static bool confirmed(uint32_t input) { return (input & GAME_IN_CONFIRM) != 0; }

static void update_title(Game *g, uint32_t input, uint32_t pressed) {
    if (!confirmed(input) && !(pressed & SIM_IN_FIRE)) return;
    LevelError err;
    if (start_run(g, &err)) set_screen(g, SCREEN_PLAYING);
    else level_error_report(&err);
}

static void update_playing(Game *g, uint32_t input, uint32_t pressed) {
    (void)pressed;
    Sim *s = &g->sim;
    if (input & GAME_IN_PAUSE) {
        set_screen(g, SCREEN_PAUSED);
        return;
    }
    if (input & GAME_IN_RESTART) {
        restart_level(g);
        return;
    }
    sim_tick(s, input & SIM_IN_MASK);
    switch (s->request.kind) {
    case SIM_REQUEST_LEVEL:
        note_clear(g);
        set_screen(g, SCREEN_TRANSITION);
        break;
    case SIM_REQUEST_VICTORY:
        record_completion(g, s->level_path, s->tick, s->progress.coins - s->progress_entry.coins,
                          s->level_path);
        set_screen(g, SCREEN_VICTORY);
        break;
    case SIM_REQUEST_DIED: set_screen(g, SCREEN_GAME_OVER); break;
    default: break;
    }
}

static void update_paused(Game *g, uint32_t input, uint32_t pressed) {
    if (input & GAME_IN_PAUSE) {
        set_screen(g, SCREEN_PLAYING);
        return;
    }
    if (pressed & SIM_IN_UP) g->menu = (g->menu + PAUSE_ITEM_COUNT - 1) % PAUSE_ITEM_COUNT;
    if (pressed & SIM_IN_DOWN) g->menu = (g->menu + 1) % PAUSE_ITEM_COUNT;
    if (input & GAME_IN_RESTART) restart_level(g);
    else if (confirmed(input)) {
        switch (g->menu) {
        case PAUSE_RESUME: set_screen(g, SCREEN_PLAYING); break;
        case PAUSE_RESTART: restart_level(g); break;
        default: g->quit = true; break;
        }
    }
}

/* Frozen steps (the request holds the rules still) that the front end's sparks settle on.
   After the load the new level waits for the fade in: its enemies must not move while the
   player cannot. */
static void update_transition(Game *g, uint32_t input, uint32_t pressed) {
    (void)input, (void)pressed;
    Sim *s = &g->sim;
    if (g->screen_ticks <= TRANSITION_OUT_TICKS) sim_tick(s, 0);
    if (g->screen_ticks == TRANSITION_OUT_TICKS) {
        LevelError err;
        if (sim_follow_request(s, g->level_arena, &err)) {
            g->level_number++;
            record_completion(g, g->clear_level, g->clear_ticks, g->clear_coins, s->level_path);
        } else {
            /* The level we are in is untouched: carry on playing it. */
            g->load_failures++;
            level_error_report(&err);
            sim_cancel_request(s);
            set_screen(g, SCREEN_PLAYING);
        }
    } else if (g->screen_ticks >= TRANSITION_TICKS) {
        set_screen(g, SCREEN_PLAYING);
    }
}

static void update_game_over(Game *g, uint32_t input, uint32_t pressed) {
    (void)pressed;
    sim_tick(&g->sim, 0);
    if (g->screen_ticks > GAME_OVER_DELAY && (confirmed(input) || (input & GAME_IN_RESTART))) restart_level(g);
}

static void update_victory(Game *g, uint32_t input, uint32_t pressed) {
    (void)pressed;
    sim_tick(&g->sim, 0);
    if (g->screen_ticks > SIM_HZ && confirmed(input)) set_screen(g, SCREEN_TITLE);
}

static const struct {
    const char *name;
    void (*update)(Game *g, uint32_t input, uint32_t pressed);
} GAME_SCREENS[] = {
    [SCREEN_TITLE] = {"title", update_title},
    [SCREEN_PLAYING] = {"playing", update_playing},
    [SCREEN_PAUSED] = {"paused", update_paused},
    [SCREEN_TRANSITION] = {"transition", update_transition},
    [SCREEN_GAME_OVER] = {"game over", update_game_over},
    [SCREEN_VICTORY] = {"victory", update_victory},
};
_Static_assert(sizeof GAME_SCREENS / sizeof GAME_SCREENS[0] == SCREEN_COUNT, "every GameScreen has an update");

const char *game_screen_name(GameScreen s) {
    return (unsigned)s < SCREEN_COUNT && GAME_SCREENS[s].name ? GAME_SCREENS[s].name : "?";
}

void game_update(Game *g, uint32_t input) {
    uint32_t pressed = input & ~g->prev_input;
    g->prev_input = input;
    g->ticks++;
    g->screen_ticks++;
    if (g->message_ticks > 0) g->message_ticks--;
    if ((unsigned)g->screen < SCREEN_COUNT && GAME_SCREENS[g->screen].update)
        GAME_SCREENS[g->screen].update(g, input, pressed);
}

uint64_t game_hash(const Game *g) {
    uint64_t h = sim_hash(&g->sim);
    h ^= (uint64_t)g->screen + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h ^= (uint64_t)g->level_number * 0x100000001b3ull;
    return h;
}
