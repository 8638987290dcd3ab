/* game.c - screens and level flow around the simulation (see game.h). */
#include "rules/game.h"

#include <stdio.h>
#include <string.h>

#include <strata/core/base.h>
#include <strata/core/hash.h>
#include <strata/core/path.h>

static void menu_open(Game *g);

static void set_screen(Game *g, GameScreen s) {
    g->screen = s;
    g->screen_ticks = 0;
    g->menu = 0;
    g->menu_scroll = 0;
    g->hold_ticks = 0;
    menu_open(g);
}

void game_show_report(Game *g, const Diag *d) {
    if (d->level == DIAG_NOTE) return;
    snprintf(g->message, sizeof g->message, "%s", d->text);
    g->message_ticks = 5 * SIM_HZ;
    g->message_kind = GAME_MESSAGE_ERROR;
}

void game_show_notice(Game *g, const char *text) {
    snprintf(g->message, sizeof g->message, "%s", text);
    g->message_ticks = 3 * SIM_HZ;
    g->message_kind = GAME_MESSAGE_NOTICE;
}

/* A fresh run from `level`: new progress, same seed (replays depend on it). */
static bool start_run_at(Game *g, const char *level, Error *err) {
    if (!sim_start_run(&g->sim, g->level_arena, level, err)) return false;
    g->rewound = false;
    g->level_number = 1;
    g->run_coins_total = 0;
    return true;
}

static bool start_run(Game *g, Error *err) { return start_run_at(g, g->start_level, err); }

static void write_progress(Game *g) {
    if (!g->save_enabled) return;
    Error err;
    if (!save_write(&g->save, g->save_path, &err))
        st_diag_report(DIAG_WARNING, "warning: progress not saved: %s", st_error_message(&err));
}

static bool write_settings(Game *g) {
    g->settings_dirty = false;
    if (!g->settings_enabled) return false;
    Error err;
    if (save_settings_write(&g->save.settings, g->settings_path, &err)) return true;
    st_diag_report(DIAG_WARNING, "warning: settings not saved: %s", st_error_message(&err));
    return false;
}

/* The settings to disk: their file, and while an older game's progress file still holds
   them (their file could not be written yet), that file too, so that nothing is lost; the
   first time their own file is written they leave the progress. */
static void store_settings(Game *g) {
    bool written = write_settings(g);
    if (!g->save.settings_inside) return;
    if (written) g->save.settings_inside = false;
    write_progress(g);
}

/* A file that exists but cannot be used is never overwritten: it is set aside first, and
   if even that fails the game does not write it (false). `what`: "progress", "settings". */
static bool set_aside(Game *g, const char *path, const char *msg, const char *what, bool other_version,
                      const char *then) {
    char moved[SAVE_PATH_MAX + 16];
    Error why;
    if (save_set_aside(path, moved, sizeof moved, &why)) {
        st_diag_report(DIAG_WARNING, "%s; kept as %s, %s", msg, moved, then);
        if (!g->save_notice[0])
            snprintf(g->save_notice, sizeof g->save_notice, "%s %s: kept as %.80s, %s", what,
                     other_version ? "from another version" : "unreadable", st_path_base_name(st_str8_cstr(moved)).data,
                     then);
        return true;
    }
    st_diag_report(DIAG_WARNING, "%s; %s: playing without saving the %s", msg, st_error_message(&why), what);
    snprintf(g->save_notice, sizeof g->save_notice, "%s unreadable and cannot be moved: not saving", what);
    return false;
}

/* Reads the progress, then the settings file over what it held (an older game kept the
   settings in the progress), and finishes moving them out of the progress: their own file
   first, then the progress without them, so that a failure between the two loses nothing. */
static void open_files(Game *g) {
    Error err;
    if (g->save_enabled) {
        ErrorCode st = save_load(&g->save, g->save_path, &err);
        if (st != ERROR_OK && st != ERROR_NOT_FOUND)
            g->save_enabled =
                set_aside(g, g->save_path, st_error_message(&err), "progress", st == ERROR_VERSION, "starting fresh");
    }
    if (g->settings_enabled) {
        int32_t skipped = 0;
        ErrorCode st = save_settings_load(&g->save.settings, g->settings_path, &skipped, &err);
        if (st == ERROR_IO)
            g->settings_enabled =
                set_aside(g, g->settings_path, st_error_message(&err), "settings", false, "using the defaults");
        else if (skipped && !g->save_notice[0])
            snprintf(g->save_notice, sizeof g->save_notice, "settings: %d bad line%s skipped (see the log)", skipped,
                     skipped == 1 ? "" : "s");
    }
    if (!g->save_enabled || g->save.format == 0) return;
    bool rewrite = g->save.format != SAVE_FORMAT;
    if (g->save.settings_inside) {
        /* Their file is (re)written even when it exists: the keys it lacks keep the values
           the progress gave them. */
        if (!write_settings(g)) return;
        g->save.settings_inside = false;
        rewrite = true;
    }
    if (rewrite) write_progress(g);
}

bool game_init(Game *g, Arena *level_arena, const GameConfig *cfg, Error *err) {
    memset(g, 0, sizeof *g);
    g->level_arena = level_arena;
    g->seed = cfg->seed;
    size_t n = strlen(cfg->start_level);
    if (n >= sizeof g->start_level) {
        st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "%.100s...: error: path too long", cfg->start_level);
        return false;
    }
    memcpy(g->start_level, cfg->start_level, n + 1);
    memcpy(g->default_binds, cfg->default_binds, sizeof g->default_binds);
    g->level_chosen = cfg->level_chosen;
    g->recorded = cfg->recorded;
    g->course = HASH_FNV1A_INIT;
    g->rebinding = -1;
    sim_init(&g->sim, cfg->seed);
    if (!start_run(g, err)) return false;
    /* The defaults, until a file says otherwise. Music under the effects: the effects carry
       what the player must hear. */
    static const int32_t volumes[SAVE_VOLUMES] = {
        [SAVE_VOLUME_MASTER] = 80, [SAVE_VOLUME_MUSIC] = 60, [SAVE_VOLUME_EFFECTS] = 90};
    memcpy(g->save.settings.volume, volumes, sizeof volumes);
    memcpy(g->save.settings.binds, g->default_binds, sizeof g->default_binds);
    if (cfg->save_path && strlen(cfg->save_path) < sizeof g->save_path) {
        g->save_enabled = true;
        memcpy(g->save_path, cfg->save_path, strlen(cfg->save_path) + 1);
    }
    if (cfg->settings_path && strlen(cfg->settings_path) < sizeof g->settings_path) {
        g->settings_enabled = true;
        memcpy(g->settings_path, cfg->settings_path, strlen(cfg->settings_path) + 1);
    }
    open_files(g);
    set_screen(g, cfg->skip_title ? SCREEN_PLAYING : SCREEN_TITLE);
    return true;
}

void game_save_settings(Game *g) {
    if (g->settings_dirty) store_settings(g);
}

/* Records a completion of `level` and how far the run got, in memory (the level select
   shows records even when nothing is saved) and on disk. Called only once `reached` is
   known to load (or is the victory), so a level that fails to load is never the furthest.
   A clear a rewind went back into is not counted: its clock went back with it. */
static void record_completion(Game *g, const char *level, uint32_t ticks, int32_t coins, const char *reached) {
    if (g->clear_rewound) return;
    save_record(&g->save, level, ticks, coins, reached);
    write_progress(g);
}

/* What the clear card shows, taken before the load replaces the level: the time and coins,
   and how they compare with the record that stands. */
static void note_clear(Game *g) {
    const Sim *s = &g->sim;
    g->clear_ticks = s->tick;
    g->clear_coins = s->progress.coins - s->progress_entry.coins;
    memcpy(g->clear_level, s->level_path, sizeof g->clear_level);
    g->clear_coins_total = 0;
    for (int32_t i = 0; i < s->level.pickup_count; i++) g->clear_coins_total += s->level.pickups[i].kind == PICKUP_COIN;
    g->run_coins_total += g->clear_coins_total;
    const SaveLevel *best = save_find(&g->save, s->level_path);
    g->clear_best_ticks = best ? best->best_ticks : 0;
    g->clear_record = (SaveRecordResult){.first = !best,
                                         .best_time = best && g->clear_ticks < best->best_ticks,
                                         .best_coins = best && g->clear_coins > best->best_coins};
    g->clear_hurt = s->progress.hearts < s->progress.max_hearts;
    g->clear_rewound = g->rewound;
}

static void restart_level(Game *g) {
    Error err;
    if (!sim_restart_level(&g->sim, g->level_arena, &err)) {
        st_error_report(&err);
        return;
    }
    g->rewound = false;
    set_screen(g, SCREEN_PLAYING);
}

bool game_playtest(Game *g, const char *path, Str8 text, int32_t tx, int32_t ty, Error *err) {
    if (!sim_load_level_text(&g->sim, g->level_arena, path, text, err)) return false;
    g->rewound = false;
    sim_place_player(&g->sim, tx, ty);
    set_screen(g, SCREEN_PLAYING);
    return true;
}

bool game_reload_level(Game *g, Error *err) {
    if (!sim_reload_level(&g->sim, g->level_arena, err)) return false;
    set_screen(g, SCREEN_PLAYING);
    return true;
}

/* ---- The screens: one update each, in a table by GameScreen (a new screen is one entry).
   Each gets the input held this tick and the bits newly pressed. ---- */

static bool confirmed(uint32_t input, uint32_t pressed) { return (input & GAME_IN_CONFIRM) || (pressed & SIM_IN_FIRE); }
static bool went_back(uint32_t input) { return (input & GAME_IN_PAUSE) != 0; }

/* A menu's vertical step this tick: -1, 0 or +1. A press moves once; held, it repeats after
   MENU_REPEAT_DELAY ticks every MENU_REPEAT_EVERY, like a key held in a text field. */
static int32_t menu_step(Game *g, uint32_t input, uint32_t pressed) {
    int32_t dir = (input & SIM_IN_UP) ? -1 : (input & SIM_IN_DOWN) ? 1 : 0;
    if (pressed & (SIM_IN_UP | SIM_IN_DOWN)) {
        g->hold_ticks = 0;
        return (pressed & SIM_IN_UP) ? -1 : 1;
    }
    if (!dir) {
        g->hold_ticks = 0;
        return 0;
    }
    g->hold_ticks++;
    return g->hold_ticks >= MENU_REPEAT_DELAY && (g->hold_ticks - MENU_REPEAT_DELAY) % MENU_REPEAT_EVERY == 0 ? dir : 0;
}

/* Moves the selection among `count` rows, skipping the rows `usable` refuses (wrapping). */
static void menu_move(Game *g, int32_t step, int32_t count, bool (*usable)(const Game *g, int32_t row)) {
    if (!step || count <= 0) return;
    int32_t m = g->menu;
    for (int32_t tries = 0; tries < count; tries++) {
        m = (m + step + count) % count;
        if (!usable || usable(g, m)) break;
    }
    g->menu = m;
}

/* ---- Title ---- */

int32_t game_continue_level(const Game *g) {
    int32_t i = catalog_find(&g->catalog, g->save.furthest);
    return i >= 0 && !g->catalog.levels[i].broken ? i : -1;
}

bool game_level_unlocked(const Game *g, int32_t i) {
    const Catalog *c = &g->catalog;
    if (i < 0 || i >= c->count) return false;
    const char *file = c->levels[i].file;
    return catalog_find(c, g->start_level) == i || save_find(&g->save, file) || strcmp(file, g->save.furthest) == 0;
}

static bool title_usable(const Game *g, int32_t row) { return row != TITLE_CONTINUE || game_continue_level(g) >= 0; }

/* What a screen's menu needs when it opens: the catalog (read once, when a menu first shows
   it), and a first row that can be chosen. */
static void menu_open(Game *g) {
    if ((g->screen == SCREEN_TITLE || g->screen == SCREEN_LEVEL_SELECT) && !g->catalog.scanned)
        catalog_scan(&g->catalog, g->start_level);
    /* A level asked for by name is what Enter plays; else where the player left off. */
    if (g->screen == SCREEN_TITLE)
        g->menu = !g->level_chosen && title_usable(g, TITLE_CONTINUE) ? TITLE_CONTINUE : TITLE_NEW_RUN;
    if (g->screen == SCREEN_LEVEL_SELECT) {
        /* On the furthest level reached: where a returning player wants to be. */
        int32_t i = game_continue_level(g);
        g->menu = i >= 0 ? i : 0;
    }
}

static void open_settings(Game *g, GameScreen from) {
    set_screen(g, SCREEN_SETTINGS);
    g->settings_from = from;
}

/* Starts a run on catalog level i, or says on screen why it cannot. */
static void start_catalog_level(Game *g, int32_t i) {
    char path[SIM_PATH_MAX];
    Error err;
    if (!catalog_path(&g->catalog, i, path, sizeof path)) {
        st_diag_report(DIAG_ERROR, "%s%s: error: path too long", g->catalog.dir, g->catalog.levels[i].file);
        return;
    }
    if (start_run_at(g, path, &err)) set_screen(g, SCREEN_PLAYING);
    else st_error_report(&err);
}

static void update_title(Game *g, uint32_t input, uint32_t pressed) {
    menu_move(g, menu_step(g, input, pressed), TITLE_ITEM_COUNT, title_usable);
    if (went_back(input)) {
        /* Esc: first to "Quit", then it quits. */
        if (g->menu == TITLE_QUIT) g->quit = true;
        g->menu = TITLE_QUIT;
        return;
    }
    if (!confirmed(input, pressed)) return;
    Error err;
    switch ((TitleItem)g->menu) {
    case TITLE_CONTINUE: start_catalog_level(g, game_continue_level(g)); break;
    case TITLE_NEW_RUN:
        if (start_run(g, &err)) set_screen(g, SCREEN_PLAYING);
        else st_error_report(&err);
        break;
    case TITLE_LEVEL_SELECT: set_screen(g, SCREEN_LEVEL_SELECT); break;
    case TITLE_SETTINGS: open_settings(g, SCREEN_TITLE); break;
    default: g->quit = true; break;
    }
}

/* ---- Level select: every level of the folder, the locked ones shown but not chosen ---- */

static void update_level_select(Game *g, uint32_t input, uint32_t pressed) {
    const Catalog *c = &g->catalog;
    if (went_back(input)) {
        set_screen(g, SCREEN_TITLE);
        g->menu = TITLE_LEVEL_SELECT;
        return;
    }
    menu_move(g, menu_step(g, input, pressed), c->count, NULL);
    if (confirmed(input, pressed) && game_level_unlocked(g, g->menu)) start_catalog_level(g, g->menu);
}

/* ---- Settings ---- */

int32_t game_rebinding(const Game *g) { return g->rebinding; }

static void settings_changed(Game *g) { g->settings_dirty = true; }

static void remove_key(uint16_t slots[SAVE_BIND_SLOTS], uint16_t key) {
    if (slots[1] == key) slots[1] = 0;
    if (slots[0] == key) slots[0] = slots[1], slots[1] = 0;
}

GameBind game_bind_key(Game *g, uint16_t key) {
    GameBind r = {.action = -1, .taken_from = -1, .dropped_to = -1};
    int32_t a = g->rebinding;
    g->rebinding = -1;
    g->wait_release = true;
    if (a < 0 || a >= SAVE_BIND_ACTIONS || key == 0) return r;
    uint16_t(*b)[SAVE_BIND_SLOTS] = g->save.settings.binds;
    if (b[a][0] == key) return r;
    r.action = a;
    r.key = key;
    /* The new key takes the front, and the back key stays: the one given up is the front
       key, or none when the new key was the back one (the two swap). */
    uint16_t dropped = b[a][0];
    if (b[a][1] == key) b[a][1] = b[a][0], dropped = 0;
    b[a][0] = key;
    for (int32_t o = 0; o < SAVE_BIND_ACTIONS; o++) {
        if (o == a || (b[o][0] != key && b[o][1] != key)) continue;
        remove_key(b[o], key);
        r.taken_from = o;
        if (b[o][0] != 0) continue;
        /* Left with no key, it takes the one this action gave up. */
        if (!dropped) dropped = b[a][1], b[a][1] = 0;
        b[o][0] = dropped;
        r.dropped_to = dropped ? o : -1;
    }
    r.dropped = dropped;
    store_settings(g);
    return r;
}

/* Back where the settings were opened from, on their row, with the changes written. */
static void leave_settings(Game *g) {
    game_save_settings(g);
    GameScreen from = g->settings_from;
    set_screen(g, from);
    g->menu = from == SCREEN_PAUSED ? PAUSE_SETTINGS : TITLE_SETTINGS;
}

static void update_settings(Game *g, uint32_t input, uint32_t pressed) {
    if (g->rebinding >= 0) return; /* the front end is capturing a key */
    if (g->wait_release) {
        /* The key just bound may still be held: it must not act on the menu too. */
        if (input & (SIM_IN_MASK | GAME_IN_CONFIRM | GAME_IN_PAUSE)) return;
        g->wait_release = false;
    }
    SaveSettings *st = &g->save.settings;
    if (went_back(input)) {
        leave_settings(g);
        return;
    }
    menu_move(g, menu_step(g, input, pressed), SETTINGS_ITEM_COUNT, NULL);
    int32_t side = (pressed & SIM_IN_LEFT) ? -1 : (pressed & SIM_IN_RIGHT) ? 1 : 0;
    bool choose = confirmed(input, pressed);
    if (g->menu >= SETTINGS_VOLUME && g->menu < SETTINGS_VOLUME + SAVE_VOLUMES && side) {
        int32_t *v = &st->volume[g->menu - SETTINGS_VOLUME];
        int32_t nv = CLAMP(*v + side * VOLUME_STEP, 0, 100);
        if (nv != *v) *v = nv, settings_changed(g);
        return;
    }
    switch (g->menu) {
    case SETTINGS_SCALE: {
        /* Only the scales the screen fits: a larger one would not be what the window does. */
        int32_t max = g->scale_max > 0 ? MIN(g->scale_max, SAVE_SCALE_MAX) : SAVE_SCALE_MAX;
        if (side > 0 && st->scale >= max && max < SAVE_SCALE_MAX) {
            char line[96];
            snprintf(line, sizeof line, "%dx does not fit this screen: %dx is the largest", st->scale + 1, max);
            game_show_notice(g, line);
        }
        int32_t scale = CLAMP(st->scale + side, 1, max);
        if (scale != st->scale && st->scale > 0) st->scale = scale, settings_changed(g);
        break;
    }
    case SETTINGS_FULLSCREEN:
        if (side || choose) st->fullscreen = !st->fullscreen, settings_changed(g);
        break;
    case SETTINGS_RENDERER:
        /* Two choices: the default is OpenGL, so from it the one other is SDL_Renderer. */
        if (side || choose) {
            st->renderer = st->renderer == SAVE_RENDERER_SDL ? SAVE_RENDERER_GL : SAVE_RENDERER_SDL;
            settings_changed(g);
        }
        break;
    case SETTINGS_RESET_KEYS:
        if (choose) {
            memcpy(st->binds, g->default_binds, sizeof st->binds);
            settings_changed(g);
        }
        break;
    case SETTINGS_BACK:
        if (choose) leave_settings(g);
        break;
    default:
        if (!choose || g->menu < SETTINGS_KEYS || g->menu >= SETTINGS_RESET_KEYS) break;
        if (g->recorded) game_show_notice(g, "keys cannot be rebound while a run is recorded or replayed");
        else g->rebinding = g->menu - SETTINGS_KEYS;
        break;
    }
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
        note_clear(g);
        record_completion(g, s->level_path, s->tick, s->progress.coins - s->progress_entry.coins, s->level_path);
        set_screen(g, SCREEN_VICTORY);
        break;
    case SIM_REQUEST_DIED: set_screen(g, SCREEN_GAME_OVER); break;
    default: break;
    }
}

static void update_paused(Game *g, uint32_t input, uint32_t pressed) {
    if (went_back(input)) {
        set_screen(g, SCREEN_PLAYING);
        return;
    }
    menu_move(g, menu_step(g, input, pressed), PAUSE_ITEM_COUNT, NULL);
    if (input & GAME_IN_RESTART) restart_level(g);
    else if (confirmed(input, pressed)) {
        switch (g->menu) {
        case PAUSE_RESUME: set_screen(g, SCREEN_PLAYING); break;
        case PAUSE_RESTART: restart_level(g); break;
        case PAUSE_SETTINGS: open_settings(g, SCREEN_PAUSED); break;
        default: set_screen(g, SCREEN_TITLE); break;
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
        Error err;
        if (sim_follow_request(s, g->level_arena, &err)) {
            g->level_number++;
            g->rewound = false;
            record_completion(g, g->clear_level, g->clear_ticks, g->clear_coins, s->level_path);
        } else {
            /* The level we are in is untouched: carry on playing it. */
            g->load_failures++;
            st_error_report(&err);
            sim_cancel_request(s);
            set_screen(g, SCREEN_PLAYING);
        }
    } else if (g->screen_ticks >= TRANSITION_TICKS) {
        set_screen(g, SCREEN_PLAYING);
    }
}

static void update_game_over(Game *g, uint32_t input, uint32_t pressed) {
    sim_tick(&g->sim, 0);
    if (g->screen_ticks > GAME_OVER_DELAY && (confirmed(input, pressed) || (input & GAME_IN_RESTART))) restart_level(g);
}

static void update_victory(Game *g, uint32_t input, uint32_t pressed) {
    sim_tick(&g->sim, 0);
    if (g->screen_ticks > SIM_HZ && confirmed(input, pressed)) set_screen(g, SCREEN_TITLE);
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
    [SCREEN_LEVEL_SELECT] = {"level select", update_level_select},
    [SCREEN_SETTINGS] = {"settings", update_settings},
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
    /* FNV-1a over what the menus and cards show: the screen, its row, the level's number
       and what the clear card says of the records. */
    const SaveRecordResult *c = &g->clear_record;
    uint64_t words[] = {(uint64_t)g->screen | (uint64_t)(uint32_t)g->menu << 8,
                        (uint64_t)(uint32_t)g->menu_scroll | (uint64_t)(uint32_t)g->level_number << 32,
                        (uint64_t)c->first | (uint64_t)c->best_time << 1 | (uint64_t)c->best_coins << 2};
    g->course = st_hash_fnv1a(g->course, words, sizeof words);
}

uint64_t game_hash(const Game *g) {
    uint64_t h = sim_hash(&g->sim);
    h ^= (uint64_t)g->screen + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h ^= (uint64_t)g->level_number * 0x100000001b3ull;
    return h;
}

uint64_t game_run_hash(const Game *g) {
    uint64_t h = game_hash(g);
    h = (h ^ g->course) * 0x100000001b3ull;
    return (h ^ (uint64_t)(uint32_t)g->menu) * 0x100000001b3ull;
}
