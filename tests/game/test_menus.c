/* test_menus.c - the menus as a player drives them, one input byte per tick: the title's
   Continue resumes the furthest level, the level select starts the level chosen and refuses
   a locked one, a completion is recorded and compared with the record on the clear card,
   settings and keys persist across a restart, Esc on the title quits, the pause menu goes
   back to the title. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "portable.h"
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/save.h"

static char dir[] = "/tmp/test_menus_XXXXXX";
static char save_path[300], settings_path[300];
static Arena *level;
static Game g;

/* The front end's keys, as numbers (the Game never knows what they are). */
static const uint16_t KEYS[SAVE_BIND_ACTIONS][SAVE_BIND_SLOTS] = {{26, 82}, {22, 81}, {4, 80},  {7, 79},
                                                                  {44, 13}, {40, 88}, {41, 19}, {21, 0}};

static bool start_with(bool skip_title, const char *first, bool chosen) {
    GameConfig cfg = {.start_level = first,
                      .seed = 1,
                      .skip_title = skip_title,
                      .save_path = save_path,
                      .settings_path = settings_path,
                      .level_chosen = chosen};
    memcpy(cfg.default_binds, KEYS, sizeof KEYS);
    Error err;
    bool ok = game_init(&g, level, &cfg, &err);
    if (!ok) fprintf(stderr, "%s\n", err.message);
    return ok;
}

static bool start(bool skip_title, const char *first) { return start_with(skip_title, first, false); }

/* One press: a tick with the bits, then one with nothing held. */
static void press(uint32_t bits) {
    game_update(&g, bits);
    game_update(&g, 0);
}

/* Presses `bits` until the menu is on `row`, on the screen it started on: false (a failed
   check, with where it stood) when a whole lap of the longest menu does not get there, so
   a game that went elsewhere fails here instead of looping for ever. */
#define PRESS_UNTIL_MAX 64
static bool press_until_at(uint32_t bits, int32_t row, int line) {
    GameScreen screen = g.screen;
    for (int i = 0; i < PRESS_UNTIL_MAX && g.menu != row && g.screen == screen; i++) press(bits);
    if (g.menu == row && g.screen == screen) return true;
    fprintf(stderr, "%s:%d: menu row %d not reached: on row %d of screen '%s' (started on '%s')\n", __FILE__, line, row,
            g.menu, game_screen_name(g.screen), game_screen_name(screen));
    return false;
}
#define press_until(bits, row) press_until_at(bits, row, __LINE__)

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    REQUIRE_VOID(f);
    fputs(text, f);
    fclose(f);
}

/* Plays a committed replay's bytes until its level's clear card shows. */
static bool play_to_clear(const char *rep_path) {
    Arena *a = st_arena_create((ArenaParams){.name = "replay"});
    Replay r;
    Error msg;
    bool ok = replay_load(&r, a, rep_path, &msg);
    uint16_t b;
    while (ok && g.screen == SCREEN_PLAYING && replay_next(&r, &b)) game_update(&g, b);
    st_arena_release(a);
    return g.screen == SCREEN_TRANSITION;
}

static void test_fresh_title(void) {
    unlink(save_path);
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
    /* Nothing to continue: the menu opens on New run, and Continue cannot be chosen. */
    CHECK_EQ_I(game_continue_level(&g), -1);
    CHECK_EQ_I(g.menu, TITLE_NEW_RUN);
    press(SIM_IN_UP);
    CHECK_EQ_I(g.menu, TITLE_QUIT); /* skips Continue, wraps */
    press(SIM_IN_DOWN);
    CHECK_EQ_I(g.menu, TITLE_NEW_RUN);
    /* The catalog: the seven shipped levels by number and name. */
    CHECK_EQ_I(g.catalog.count, 7);
    CHECK(strcmp(g.catalog.levels[3].label, "4. Patrol") == 0);
    CHECK(strcmp(g.catalog.levels[0].file, "01-first-steps.lvl") == 0);
    CHECK(g.catalog.levels[0].coins > 0 && !g.catalog.levels[0].broken);
    /* Only the first level is open. */
    CHECK(game_level_unlocked(&g, 0));
    CHECK(!game_level_unlocked(&g, 1));
    /* New run plays level 1. */
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(ends_with(g.sim.level_path, "01-first-steps.lvl"));
}

static void test_continue_and_select(void) {
    SaveData d = {0};
    save_record(&d, "01-first-steps.lvl", 900, 3, "02-keys-and-doors.lvl");
    save_record(&d, "02-keys-and-doors.lvl", 1200, 2, "03-spikes-and-water.lvl");
    save_record(&d, "03-spikes-and-water.lvl", 1500, 4, "04-patrol.lvl");
    Error msg;
    REQUIRE_VOID(save_write(&d, save_path, &msg));

    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    CHECK_EQ_I(g.menu, TITLE_CONTINUE);
    CHECK_EQ_I(game_continue_level(&g), 3);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(ends_with(g.sim.level_path, "04-patrol.lvl"));
    CHECK(strcmp(g.sim.level.name, "Patrol") == 0);

    /* Back to the title from the pause menu: Resume, Restart, Settings, Back to title. */
    press(GAME_IN_PAUSE);
    CHECK_EQ_I(g.screen, SCREEN_PAUSED);
    press(SIM_IN_DOWN), press(SIM_IN_DOWN), press(SIM_IN_DOWN);
    CHECK_EQ_I(g.menu, PAUSE_TITLE);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_TITLE);

    /* Level select opens on the furthest level; up one and Enter plays level 3. */
    REQUIRE_VOID(press_until(SIM_IN_DOWN, TITLE_LEVEL_SELECT));
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_LEVEL_SELECT);
    CHECK_EQ_I(g.menu, 3);
    CHECK(game_level_unlocked(&g, 3));
    CHECK(!game_level_unlocked(&g, 4));
    /* A locked level is refused. */
    press(SIM_IN_DOWN);
    CHECK_EQ_I(g.menu, 4);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_LEVEL_SELECT);
    /* Esc goes back to the title, on the row it came from. */
    press(GAME_IN_PAUSE);
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
    CHECK_EQ_I(g.menu, TITLE_LEVEL_SELECT);
    press(GAME_IN_CONFIRM);
    press(SIM_IN_UP);
    CHECK_EQ_I(g.menu, 2);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(ends_with(g.sim.level_path, "03-spikes-and-water.lvl"));

    /* Held, a direction repeats: one step, then one per MENU_REPEAT_EVERY ticks after
       MENU_REPEAT_DELAY. */
    press(GAME_IN_PAUSE), press(SIM_IN_DOWN), press(SIM_IN_DOWN), press(SIM_IN_DOWN), press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
    REQUIRE_VOID(press_until(SIM_IN_DOWN, TITLE_LEVEL_SELECT));
    press(GAME_IN_CONFIRM);
    press(SIM_IN_UP), press(SIM_IN_UP), press(SIM_IN_UP);
    CHECK_EQ_I(g.menu, 0);
    for (int i = 0; i <= MENU_REPEAT_DELAY + 2 * MENU_REPEAT_EVERY; i++) game_update(&g, SIM_IN_DOWN);
    CHECK_EQ_I(g.menu, 4); /* the press, then repeats at DELAY, +EVERY, +2*EVERY */
    game_update(&g, 0);
}

static void test_records(void) {
    unlink(save_path);
    const char *rep = REPLAYS_DIR "/01-first-steps.rep";
    REQUIRE_VOID(start(true, LEVELS_DIR "/01-first-steps.lvl"));
    REQUIRE_VOID(play_to_clear(rep));
    CHECK(g.clear_record.first);
    CHECK(!g.clear_record.best_time && !g.clear_record.best_coins);
    uint32_t ticks = g.clear_ticks;
    int32_t coins = g.clear_coins;
    CHECK(ticks > 0);
    /* Recorded once the next level has loaded. */
    for (int i = 0; i < TRANSITION_TICKS + 2; i++) game_update(&g, 0);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    SaveData back;
    Error msg;
    CHECK_EQ_I(save_load(&back, save_path, &msg), ERROR_OK);
    const SaveLevel *l = save_find(&back, "01-first-steps.lvl");
    CHECK(l && l->best_ticks == ticks && l->best_coins == coins);

    /* The same run again: no record broken, the card shows the best. */
    REQUIRE_VOID(start(true, LEVELS_DIR "/01-first-steps.lvl"));
    REQUIRE_VOID(play_to_clear(rep));
    CHECK(!g.clear_record.first && !g.clear_record.best_time && !g.clear_record.best_coins);
    CHECK_EQ_U(g.clear_best_ticks, ticks);

    /* Against a slower record with fewer coins: both are beaten, and saved. */
    SaveData d = {0};
    save_record(&d, "01-first-steps.lvl", ticks + 100, coins - 1, "01-first-steps.lvl");
    REQUIRE_VOID(save_write(&d, save_path, &msg));
    REQUIRE_VOID(start(true, LEVELS_DIR "/01-first-steps.lvl"));
    REQUIRE_VOID(play_to_clear(rep));
    CHECK(g.clear_record.best_time && g.clear_record.best_coins);
    CHECK_EQ_U(g.clear_best_ticks, ticks + 100);
    for (int i = 0; i < TRANSITION_TICKS + 2; i++) game_update(&g, 0);
    CHECK_EQ_I(save_load(&back, save_path, &msg), ERROR_OK);
    l = save_find(&back, "01-first-steps.lvl");
    CHECK(l && l->best_ticks == ticks && l->best_coins == coins);
}

static void test_settings_persist(void) {
    unlink(save_path);
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    /* No keys saved yet: the front end's. */
    CHECK(memcmp(g.save.settings.binds, KEYS, sizeof KEYS) == 0);
    g.save.settings.scale = 3; /* what the front end fills in from the window */
    REQUIRE_VOID(press_until(SIM_IN_DOWN, TITLE_SETTINGS));
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_SETTINGS);
    CHECK_EQ_I(g.menu, SETTINGS_VOLUME);
    /* Volumes: defaults, then steps of VOLUME_STEP, clamped. */
    CHECK_EQ_I(g.save.settings.volume[SAVE_VOLUME_MASTER], 80);
    press(SIM_IN_LEFT);
    CHECK_EQ_I(g.save.settings.volume[SAVE_VOLUME_MASTER], 80 - VOLUME_STEP);
    press(SIM_IN_DOWN);
    for (int i = 0; i < 12; i++) press(SIM_IN_RIGHT);
    CHECK_EQ_I(g.save.settings.volume[SAVE_VOLUME_MUSIC], 100);
    press(SIM_IN_DOWN);
    for (int i = 0; i < 12; i++) press(SIM_IN_LEFT);
    CHECK_EQ_I(g.save.settings.volume[SAVE_VOLUME_EFFECTS], 0);
    REQUIRE_VOID(press_until(SIM_IN_DOWN, SETTINGS_SCALE));
    press(SIM_IN_RIGHT);
    CHECK_EQ_I(g.save.settings.scale, 4);
    for (int i = 0; i < 10; i++) press(SIM_IN_RIGHT);
    CHECK_EQ_I(g.save.settings.scale, SAVE_SCALE_MAX);
    press(SIM_IN_LEFT), press(SIM_IN_LEFT);
    CHECK_EQ_I(g.save.settings.scale, SAVE_SCALE_MAX - 2);
    press(SIM_IN_DOWN);
    press(GAME_IN_CONFIRM);
    CHECK(g.save.settings.fullscreen);
    /* The renderer: from the default (OpenGL) the other choice, and back with Left. */
    CHECK_EQ_I(g.save.settings.renderer, SAVE_RENDERER_DEFAULT);
    press(SIM_IN_DOWN);
    CHECK_EQ_I(g.menu, SETTINGS_RENDERER);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.save.settings.renderer, SAVE_RENDERER_SDL);
    press(SIM_IN_LEFT);
    CHECK_EQ_I(g.save.settings.renderer, SAVE_RENDERER_GL);
    press(SIM_IN_RIGHT);
    CHECK_EQ_I(g.save.settings.renderer, SAVE_RENDERER_SDL);

    /* Fire: Enter on its row waits for a key; A (4) takes Space's place in front, Enter
       (13) stays behind it, Space is given up, and Left keeps its other key. */
    REQUIRE_VOID(press_until(SIM_IN_DOWN, SETTINGS_KEYS + 4));
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(game_rebinding(&g), 4);
    press(SIM_IN_DOWN | GAME_IN_CONFIRM); /* ignored while the front end captures */
    CHECK_EQ_I(g.menu, SETTINGS_KEYS + 4);
    GameBind moved = game_bind_key(&g, 4);
    CHECK_EQ_I(game_rebinding(&g), -1);
    CHECK(g.save.settings.binds[4][0] == 4 && g.save.settings.binds[4][1] == 13);
    CHECK(g.save.settings.binds[2][0] == 80 && g.save.settings.binds[2][1] == 0);
    /* ... and it says so: A taken from Left, Space unbound. */
    CHECK(moved.action == 4 && moved.key == 4 && moved.taken_from == 2);
    CHECK(moved.dropped == 44 && moved.dropped_to == -1);
    /* The key just bound is still held: it does not move the menu. */
    game_update(&g, SIM_IN_DOWN);
    game_update(&g, SIM_IN_DOWN);
    CHECK_EQ_I(g.menu, SETTINGS_KEYS + 4);
    game_update(&g, 0);
    /* Confirm takes R, Restart's only key: Restart gets the key Confirm gave up (Enter). */
    press(SIM_IN_DOWN);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(game_rebinding(&g), 5);
    moved = game_bind_key(&g, 21);
    CHECK(g.save.settings.binds[5][0] == 21 && g.save.settings.binds[5][1] == 88);
    CHECK(g.save.settings.binds[7][0] == 40 && g.save.settings.binds[7][1] == 0);
    CHECK(moved.action == 5 && moved.key == 21 && moved.taken_from == 7 && moved.dropped == 40 &&
          moved.dropped_to == 7);
    /* A key no other action has: Confirm's front key (R) goes, and says so; 88 stays. */
    game_update(&g, 0);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(game_rebinding(&g), 5);
    moved = game_bind_key(&g, 99);
    CHECK(g.save.settings.binds[5][0] == 99 && g.save.settings.binds[5][1] == 88);
    CHECK(moved.action == 5 && moved.taken_from == -1 && moved.dropped == 21 && moved.dropped_to == -1);
    game_update(&g, 0);
    press(GAME_IN_CONFIRM);
    moved = game_bind_key(&g, 88); /* the back key in front: the two swap, nothing dropped or taken */
    CHECK(g.save.settings.binds[5][0] == 88 && g.save.settings.binds[5][1] == 99);
    CHECK(moved.action == 5 && moved.taken_from == -1 && moved.dropped == 0);
    game_update(&g, 0);
    press(GAME_IN_CONFIRM);
    moved = game_bind_key(&g, 40); /* Restart's only key: Restart gets 88 for it */
    CHECK(g.save.settings.binds[5][0] == 40 && g.save.settings.binds[5][1] == 99);
    CHECK(g.save.settings.binds[7][0] == 88 && moved.dropped_to == 7);
    game_update(&g, 0);
    /* 0 cancels: nothing changes. */
    press(GAME_IN_CONFIRM);
    moved = game_bind_key(&g, 0);
    CHECK_EQ_I(moved.action, -1);
    game_update(&g, 0);
    CHECK(g.save.settings.binds[5][0] == 40);
    SaveSettings want = g.save.settings;
    /* Esc: back to the title, written. */
    press(GAME_IN_PAUSE);
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
    CHECK_EQ_I(g.menu, TITLE_SETTINGS);

    /* A restart reads them back. */
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    CHECK_EQ_I(g.save.settings.scale, want.scale);
    CHECK(g.save.settings.fullscreen);
    CHECK_EQ_I(g.save.settings.renderer, SAVE_RENDERER_SDL);
    CHECK(memcmp(g.save.settings.volume, want.volume, sizeof want.volume) == 0);
    CHECK_EQ_I(g.save.settings.volume[SAVE_VOLUME_EFFECTS], 0);
    CHECK(memcmp(g.save.settings.binds, want.binds, sizeof want.binds) == 0);

    /* Reset keys gives the front end's back. */
    REQUIRE_VOID(press_until(SIM_IN_DOWN, TITLE_SETTINGS));
    press(GAME_IN_CONFIRM);
    REQUIRE_VOID(press_until(SIM_IN_DOWN, SETTINGS_RESET_KEYS));
    press(GAME_IN_CONFIRM);
    CHECK(memcmp(g.save.settings.binds, KEYS, sizeof KEYS) == 0);
    press(SIM_IN_DOWN);
    press(GAME_IN_CONFIRM); /* Back */
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    CHECK(memcmp(g.save.settings.binds, KEYS, sizeof KEYS) == 0);

    /* Settings from the pause menu go back to it. */
    REQUIRE_VOID(start(true, LEVELS_DIR "/01-first-steps.lvl"));
    press(GAME_IN_PAUSE);
    press(SIM_IN_DOWN), press(SIM_IN_DOWN);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_SETTINGS);
    press(GAME_IN_PAUSE);
    CHECK_EQ_I(g.screen, SCREEN_PAUSED);
    CHECK_EQ_I(g.menu, PAUSE_SETTINGS);
}

static void test_old_save(void) {
    /* A version 1 file (no settings) is read, and written back as version 2 at once. */
    const char *body = "arena-dungeon-save 1\nfurthest 02-keys-and-doors.lvl\nlevel 01-first-steps.lvl 900 3\n";
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *p = body; *p; p++) h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
    char text[400];
    snprintf(text, sizeof text, "%schecksum %016llx\n", body, (unsigned long long)h);
    write_text(save_path, text);
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    CHECK(g.save_notice[0] == '\0');
    CHECK_EQ_I(game_continue_level(&g), 1);
    CHECK(game_level_unlocked(&g, 1));
    SaveData back = {0};
    Error msg;
    CHECK_EQ_I(save_load(&back, save_path, &msg), ERROR_OK);
    CHECK(strcmp(back.furthest, "02-keys-and-doors.lvl") == 0);
    CHECK(back.level_count == 1 && back.levels[0].best_ticks == 900 && back.levels[0].best_coins == 3);
    CHECK_EQ_I(back.format, SAVE_FORMAT);
    CHECK(!back.settings_inside);
    FILE *f = fopen(save_path, "rb");
    char first[64] = {0};
    CHECK(f && fgets(first, sizeof first, f) && strcmp(first, "arena-dungeon-save 2\n") == 0);
    if (f) fclose(f);
}

/* A level asked for by name (--level) is what Enter on the title plays, whatever the save
   says; without it, Enter continues where the player left off. */
static void test_level_chosen(void) {
    SaveData d = {0};
    save_record(&d, "01-first-steps.lvl", 900, 3, "02-keys-and-doors.lvl");
    save_record(&d, "02-keys-and-doors.lvl", 900, 3, "03-spikes-and-water.lvl");
    Error msg;
    REQUIRE_VOID(save_write(&d, save_path, &msg));
    REQUIRE_VOID(start_with(false, LEVELS_DIR "/05-the-hunt.lvl", true));
    CHECK_EQ_I(game_continue_level(&g), 2); /* Continue is there, but not chosen */
    CHECK_EQ_I(g.menu, TITLE_NEW_RUN);
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(ends_with(g.sim.level_path, "05-the-hunt.lvl"));
    /* Back on the title (pause, Back to title): Enter still plays it. */
    press(GAME_IN_PAUSE);
    REQUIRE_VOID(press_until(SIM_IN_DOWN, PAUSE_TITLE));
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
    CHECK_EQ_I(g.menu, TITLE_NEW_RUN);
    /* The default level, not asked for: Continue. */
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    CHECK_EQ_I(g.menu, TITLE_CONTINUE);
    press(GAME_IN_CONFIRM);
    CHECK(ends_with(g.sim.level_path, "03-spikes-and-water.lvl"));
}

/* The window scale offers only what the screen fits (the front end says: scale_max), and
   says so when the player asks for more. */
static void test_scale_fits(void) {
    unlink(settings_path);
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    g.save.settings.scale = 2;
    g.scale_max = 3;
    REQUIRE_VOID(press_until(SIM_IN_DOWN, TITLE_SETTINGS));
    press(GAME_IN_CONFIRM);
    REQUIRE_VOID(press_until(SIM_IN_DOWN, SETTINGS_SCALE));
    press(SIM_IN_RIGHT);
    CHECK_EQ_I(g.save.settings.scale, 3);
    CHECK_EQ_I(g.message_ticks, 0);
    press(SIM_IN_RIGHT);
    CHECK_EQ_I(g.save.settings.scale, 3);
    CHECK(g.message_ticks > 0 && g.message_kind == GAME_MESSAGE_NOTICE);
    CHECK(strcmp(g.message, "4x does not fit this screen: 3x is the largest") == 0);
    press(SIM_IN_LEFT);
    CHECK_EQ_I(g.save.settings.scale, 2);
    /* A screen that fits them all: up to SAVE_SCALE_MAX, no notice. */
    g.scale_max = 0;
    g.message_ticks = 0;
    for (int i = 0; i < 10; i++) press(SIM_IN_RIGHT);
    CHECK_EQ_I(g.save.settings.scale, SAVE_SCALE_MAX);
    CHECK_EQ_I(g.message_ticks, 0);
}

static void test_title_quit(void) {
    unlink(save_path);
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    press(GAME_IN_PAUSE); /* Esc: to "Quit" first */
    CHECK(!g.quit);
    CHECK_EQ_I(g.menu, TITLE_QUIT);
    press(GAME_IN_PAUSE);
    CHECK(g.quit);
    REQUIRE_VOID(start(false, LEVELS_DIR "/01-first-steps.lvl"));
    press(SIM_IN_UP);
    CHECK_EQ_I(g.menu, TITLE_QUIT);
    press(GAME_IN_CONFIRM);
    CHECK(g.quit);
}

/* The run hash covers the way through the menus: two runs that end in one state, one of
   which went down the pause menu and back, have one game_hash and two game_run_hash; the
   same way twice has one. A recorded run cannot rebind keys (the key is not in its inputs). */
static uint64_t run_paused(bool detour, uint64_t *play_hash) {
    unlink(save_path);
    GameConfig cfg = {.start_level = LEVELS_DIR "/01-first-steps.lvl", .seed = 1, .skip_title = true, .recorded = true};
    memcpy(cfg.default_binds, KEYS, sizeof KEYS);
    Error err;
    if (!game_init(&g, level, &cfg, &err)) return 0;
    press(GAME_IN_PAUSE);
    press(detour ? SIM_IN_DOWN : 0);
    press(detour ? SIM_IN_UP : 0);
    press(GAME_IN_PAUSE);
    *play_hash = game_hash(&g);
    return game_run_hash(&g);
}

static void test_run_hash(void) {
    uint64_t play_a, play_b, play_c;
    uint64_t a = run_paused(false, &play_a), b = run_paused(true, &play_b), c = run_paused(true, &play_c);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK_EQ_U(play_a, play_b); /* play alone cannot tell them apart */
    CHECK(a != b);
    CHECK_EQ_U(b, c);
    CHECK_EQ_U(play_b, play_c);
    /* Settings, a key row: refused with a notice, nothing waits for a key. */
    press(GAME_IN_PAUSE);
    REQUIRE_VOID(press_until(SIM_IN_DOWN, PAUSE_SETTINGS));
    press(GAME_IN_CONFIRM);
    REQUIRE_VOID(press_until(SIM_IN_DOWN, SETTINGS_KEYS));
    press(GAME_IN_CONFIRM);
    CHECK_EQ_I(game_rebinding(&g), -1);
    CHECK(strstr(g.message, "cannot be rebound") != NULL);
}

int main(void) {
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(save_path, sizeof save_path, "%s/progress", dir);
    snprintf(settings_path, sizeof settings_path, "%s/config/settings", dir);
    level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    REQUIRE(level);
    test_fresh_title();
    test_continue_and_select();
    test_records();
    test_settings_persist();
    test_old_save();
    test_level_chosen();
    test_scale_fits();
    test_title_quit();
    test_run_hash();
    st_arena_release(level);
    CHECK(test_remove_tree(dir));
    return check_result();
}
