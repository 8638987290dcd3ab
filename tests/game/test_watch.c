/* test_watch.c - live reload of level files: the watch (watch.h) sees a file written in
   place, renamed over (an atomic save), deleted and written again, once per change; the
   Sim reloads the edited level where the player stands (sim_reload_level), or at the start
   when that spot became a wall, and a file that does not parse changes nothing, bit for
   bit; a level from text in memory (sim_load_level_text) and a player put on a tile
   (sim_place_player); and the whole rule as the front end applies it, on a Game whose file
   changes on disk while it plays. Modification times are set explicitly (utimensat), so
   no change depends on the clock moving between two writes. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "portable.h"
#include <strata/core/diag.h>
#include "rules/game.h"
#include "rules/sim.h"
#include "level/watch.h"

static char dir[] = "/tmp/test_watch_XXXXXX";
static Arena *level_arena;

static const char *path_of(const char *name) {
    static char paths[16][256];
    static int n;
    char *p = paths[n++ % 16];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void set_mtime(const char *path, int64_t sec) {
    struct timespec ts[2] = {{.tv_sec = sec, .tv_nsec = 0}, {.tv_sec = sec, .tv_nsec = 0}};
    if (utimensat(AT_FDCWD, path, ts, 0) != 0) {
        perror(path);
        exit(1);
    }
}

/* Writes `text` to `path` in place (truncate, write), its modification time set to `sec`
   when it is not 0. */
static const char *write_file(const char *path, const char *text, int64_t sec) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
    if (sec) set_mtime(path, sec);
    return path;
}

/* An atomic save: a new file beside it, renamed over it. */
static void save_atomic(const char *path, const char *text, int64_t sec) {
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    write_file(tmp, text, sec);
    if (rename(tmp, path) != 0) {
        perror(tmp);
        exit(1);
    }
}

static void test_watch_changes(void) {
    const char *p = write_file(path_of("w.lvl"), "first\n", 1000);
    LevelWatch w;
    watch_start(&w, p);
    CHECK(w.stamp.kind == OS_FILE_REGULAR);
    CHECK_EQ_I(w.stamp.mtime_ns, 1000ll * 1000000000);
    CHECK_EQ_U(w.stamp.size, 6);
    CHECK(strcmp(w.path, p) == 0);
    /* Nothing changed: nothing to report, however often it looks. */
    CHECK(!watch_poll(&w));
    CHECK(!watch_poll(&w));
    CHECK_EQ_U(w.polls, 2);

    /* Written in place: a new time, the same size. Once. */
    write_file(p, "again\n", 1001);
    CHECK(watch_poll(&w));
    CHECK(!watch_poll(&w));
    /* The same time, another size (a clock too coarse to move between two saves). */
    write_file(p, "again, longer\n", 1001);
    CHECK(watch_poll(&w));
    CHECK(!watch_poll(&w));
    /* Renamed over: the path now names another file, with its own time. */
    save_atomic(p, "renamed over\n", 1002);
    CHECK(watch_poll(&w));
    CHECK(!watch_poll(&w));
    CHECK_EQ_I(w.stamp.mtime_ns, 1002ll * 1000000000);

    /* Deleted: nothing to load, so nothing to report; back, even exactly as it was: a change. */
    CHECK(unlink(p) == 0);
    CHECK(!watch_poll(&w));
    CHECK(w.stamp.kind != OS_FILE_REGULAR);
    CHECK(!watch_poll(&w));
    write_file(p, "renamed over\n", 1002);
    CHECK(watch_poll(&w));
    CHECK(w.stamp.kind == OS_FILE_REGULAR);
    CHECK(!watch_poll(&w));

    /* A watch started on a missing file reports it when it appears. */
    const char *q = path_of("later.lvl");
    LevelWatch m;
    watch_start(&m, q);
    CHECK(m.stamp.kind != OS_FILE_REGULAR);
    CHECK(!watch_poll(&m));
    save_atomic(q, "here\n", 2000);
    CHECK(watch_poll(&m));
    CHECK(!watch_poll(&m));
    /* Even an empty file dated 1970 (all that the watch remembers of a missing one is 0). */
    const char *e = path_of("empty.lvl");
    watch_start(&m, e);
    write_file(e, "", 0);
    set_mtime(e, 0);
    CHECK(watch_poll(&m));
    CHECK(!watch_poll(&m));
    /* A folder at the path is not a level: as good as missing. */
    LevelWatch d;
    watch_start(&d, dir);
    CHECK(d.stamp.kind != OS_FILE_REGULAR);
    CHECK(!watch_poll(&d));

    /* watch_follow restarts only for another path, and then reports only later changes. */
    CHECK(!watch_follow(&w, p));
    CHECK_EQ_U(w.polls, 12);
    CHECK(watch_follow(&w, q));
    CHECK(strcmp(w.path, q) == 0);
    CHECK_EQ_U(w.polls, 0);
    CHECK(!watch_poll(&w));
    write_file(q, "here, edited\n", 2001);
    CHECK(watch_poll(&w));

    /* A path that does not fit is watched as nothing: never a change. */
    char longp[LEVEL_PATH_MAX + 8];
    memset(longp, 'a', sizeof longp - 1);
    longp[sizeof longp - 1] = '\0';
    LevelWatch l;
    watch_start(&l, longp);
    CHECK(l.path[0] == '\0' && l.stamp.kind != OS_FILE_REGULAR);
    CHECK(!watch_poll(&l));
}

/* ---- sim_reload_level ---- */

/* Nine columns, five rows: the player at (1, 1), a coin at (2, 1), a patroller at (6, 2). */
static const char LEVEL_V1[] = "name: Reload\n"
                               "map:\n"
                               "#########\n"
                               "#@$.....#\n"
                               "#.....p.#\n"
                               "#.......#\n"
                               "#########\n"
                               "end\n";
/* Edited: a wall below (3, 1), the patroller moved to (2, 3), a water tile at (5, 1). */
static const char LEVEL_V2[] = "name: Reload\n"
                               "map:\n"
                               "#########\n"
                               "#@$..~..#\n"
                               "#..#....#\n"
                               "#.p.....#\n"
                               "#########\n"
                               "end\n";
/* The player's tile (3, 1) a wall, the start moved to (1, 3). */
static const char LEVEL_V3[] = "name: Reload\n"
                               "map:\n"
                               "#########\n"
                               "#.$#....#\n"
                               "#.......#\n"
                               "#@....p.#\n"
                               "#########\n"
                               "end\n";
/* A tile that does not exist on line 5, column 3. */
static const char LEVEL_BROKEN[] = "name: Reload\n"
                                   "map:\n"
                                   "#########\n"
                                   "#@$.....#\n"
                                   "#.Z...p.#\n"
                                   "#.......#\n"
                                   "#########\n"
                                   "end\n";

static Sim *load(Sim *s, Arena *arena, const char *path) {
    sim_init(s, 5);
    Error err;
    if (!sim_start_run(s, arena, path, &err)) {
        fprintf(stderr, "load failed: %s\n", err.message);
        exit(1);
    }
    return s;
}

static void run(Sim *s, uint32_t in, int ticks) {
    for (int i = 0; i < ticks; i++) sim_tick(s, in);
}

static void test_reload_keeps_player(void) {
    const char *p = write_file(path_of("reload.lvl"), LEVEL_V1, 3000);
    static Sim sim;
    Sim *s = load(&sim, level_arena, p);
    /* Walk right over the coin to the middle of (3, 1), and lose a heart's worth of hearts. */
    run(s, SIM_IN_RIGHT, 18);
    CHECK_EQ_I(s->progress.coins, 1);
    CHECK_EQ_I(sim_tile_of(s->player.x), 3);
    s->progress.hearts = 1;
    s->progress.deaths = 2;
    int32_t x = s->player.x, y = s->player.y;
    uint8_t facing = s->player.facing;
    uint32_t serial = s->level_serial, ticks = s->progress.ticks, tick = s->tick;
    CHECK(x != sim_tile_center(3)); /* not at a centre: kept to the fixed-point unit */

    write_file(p, LEVEL_V2, 3001);
    Error err;
    CHECK(sim_reload_level(s, level_arena, &err));
    CHECK_EQ_U(s->level_serial, serial + 1);
    /* The new tiles ... */
    CHECK_EQ_I(level_tile(&s->level, 3, 2), TILE_WALL);
    CHECK_EQ_I(level_tile(&s->level, 5, 1), TILE_WATER);
    /* ... the player where they stood, facing the same way, ... */
    CHECK_EQ_I(s->player.x, x);
    CHECK_EQ_I(s->player.y, y);
    CHECK_EQ_I(s->player.facing, facing);
    CHECK(!s->player.dead);
    /* ... the enemy where the new file has it, ... */
    REQUIRE_VOID(s->level.enemy_count == 1);
    CHECK_EQ_I(s->enemies[0].x, sim_tile_center(2));
    CHECK_EQ_I(s->enemies[0].y, sim_tile_center(3));
    /* ... the progress as the level was entered (the coin is back to take), hearts full,
       the record of deaths and time kept, and the level's clock running on. */
    CHECK_EQ_I(s->progress.coins, 0);
    CHECK_EQ_I(s->pickup_taken[0], 0);
    CHECK_EQ_I(s->progress.hearts, s->progress.max_hearts);
    CHECK_EQ_I(s->progress.deaths, 2);
    CHECK_EQ_U(s->progress.ticks, ticks);
    CHECK_EQ_U(s->tick, tick);
    CHECK(strcmp(s->level_path, p) == 0);
    CHECK(!s->level_from_text);
    /* The front end hears of it as a level event of its own. */
    CHECK_EQ_I(s->events.count, 1);
    CHECK_EQ_I(s->events.list[0].kind, SIM_EV_LEVEL);
    CHECK_EQ_I(s->events.list[0].a, SIM_LEVEL_RELOAD);
    /* It plays on: the wall below stops the player. */
    run(s, SIM_IN_DOWN, 30);
    CHECK_EQ_I(s->player.y, 2 * TILE_FIX - PLAYER_HALF);

    /* The body would overlap a new wall, its centre tile is floor: that tile's centre. */
    s->player.x = 4 * TILE_FIX - 2 * FIX_ONE; /* tile 3, its right part: the box reaches tile 4 */
    s->player.y = sim_tile_center(1);
    write_file(p, "name: Reload\nmap:\n#########\n#@$.#...#\n#.......#\n#.......#\n#########\nend\n", 3002);
    CHECK(sim_reload_level(s, level_arena, &err));
    CHECK_EQ_I(s->player.x, sim_tile_center(3));
    CHECK_EQ_I(s->player.y, sim_tile_center(1));

    /* The player's tile a wall now: at the new start. */
    write_file(p, LEVEL_V3, 3003);
    CHECK(sim_reload_level(s, level_arena, &err));
    CHECK_EQ_I(s->player.x, sim_tile_center(1));
    CHECK_EQ_I(s->player.y, sim_tile_center(3));
    CHECK_EQ_U(s->level_serial, serial + 3);

    /* An exit under the player stays quiet until they step off it, as on arrival. */
    write_file(p, "name: Reload\nmap:\n#########\n#.$.....#\n#.......#\n#X@.....#\n#########\nend\n", 3004);
    CHECK(sim_reload_level(s, level_arena, &err));
    CHECK(s->player.trigger_lock);
    run(s, 0, 5);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_NONE);
}

static void test_failed_reload_changes_nothing(void) {
    const char *p = write_file(path_of("broken.lvl"), LEVEL_V1, 4000);
    static Sim sim, twin;
    Arena *twin_arena =
        st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Sim *s = load(&sim, level_arena, p);
    Sim *t = load(&twin, twin_arena, p);
    run(s, SIM_IN_RIGHT | SIM_IN_FIRE, 40);
    run(t, SIM_IN_RIGHT | SIM_IN_FIRE, 40);
    uint64_t hash = sim_hash(s);
    CHECK_EQ_U(hash, sim_hash(t));
    Level before;
    memcpy(&before, &s->level, sizeof before);
    static uint8_t tiles[9 * 5];
    memcpy(tiles, s->level.tiles, sizeof tiles);
    uint32_t serial = s->level_serial;

    write_file(p, LEVEL_BROKEN, 4001);
    Error err;
    CHECK(!sim_reload_level(s, level_arena, &err));
    CHECK(strstr(err.message, "broken.lvl:5:3: error:") != NULL);
    CHECK_EQ_I(err.line, 5);
    CHECK_EQ_I(err.col, 3);
    /* The running level untouched: the state, the level as loaded, its tiles. */
    CHECK_EQ_U(sim_hash(s), hash);
    CHECK_EQ_U(s->level_serial, serial);
    CHECK(memcmp(&before, &s->level, sizeof before) == 0);
    CHECK(memcmp(tiles, s->level.tiles, sizeof tiles) == 0);
    /* ... and it plays on exactly as the twin that never saw the broken file. */
    run(s, SIM_IN_DOWN | SIM_IN_FIRE, 60);
    run(t, SIM_IN_DOWN | SIM_IN_FIRE, 60);
    CHECK_EQ_U(sim_hash(s), sim_hash(t));

    /* Caught half-written: the watch reports it, the reload fails; once the file is whole,
       the next poll reports it again and the reload takes. */
    LevelWatch w;
    watch_start(&w, p);
    const char *half = "name: Reload\nmap:\n#########\n#@$..";
    write_file(p, half, 4002);
    CHECK(watch_poll(&w));
    CHECK(!sim_reload_level(s, level_arena, &err));
    CHECK_EQ_U(sim_hash(s), sim_hash(t));
    write_file(p, LEVEL_V2, 4003);
    CHECK(watch_poll(&w));
    CHECK(sim_reload_level(s, level_arena, &err));
    CHECK_EQ_U(s->level_serial, serial + 1);
    CHECK_EQ_I(level_tile(&s->level, 3, 2), TILE_WALL);
    CHECK(!watch_poll(&w));

    /* The file gone: the reload fails and says so, the level plays on. */
    CHECK(unlink(p) == 0);
    uint64_t h = sim_hash(s);
    CHECK(!sim_reload_level(s, level_arena, &err));
    CHECK(strstr(err.message, "broken.lvl") != NULL);
    CHECK_EQ_U(sim_hash(s), h);
    st_arena_release(twin_arena);
}

/* ---- sim_load_level_text and sim_place_player ---- */

static void test_load_text_and_place(void) {
    const char *next = write_file(path_of("next.lvl"), "name: Next\nmap:\n#####\n#@..#\n#####\nend\n", 0);
    const char *other = write_file(path_of("other.lvl"), LEVEL_V1, 0);
    static Sim sim;
    Sim *s = load(&sim, level_arena, other);
    uint32_t serial = s->level_serial;
    s->progress.coins = 4;
    s->progress.hearts = 1;

    /* Text in a larger buffer: only `len` bytes are the level (what follows is not read). */
    static char buf[512];
    const char *text = "name: Draft\nexit: next.lvl\nmap:\n#######\n#@...X#\n#..#..#\n#######\nend\n";
    snprintf(buf, sizeof buf, "%s#### not the level ####", text);
    const char *draft = path_of("draft.lvl"); /* never written: the level is in memory only */
    Error err;
    CHECK(sim_load_level_text(s, level_arena, draft, (Str8){buf, strlen(text)}, &err));
    CHECK_EQ_U(s->level_serial, serial + 1);
    CHECK(s->level_from_text);
    CHECK(strcmp(s->level_path, draft) == 0);
    CHECK(strcmp(s->level.name, "Draft") == 0);
    CHECK(s->level.exit_to && strcmp(s->level.exit_to, next) == 0); /* beside `path` */
    CHECK_EQ_I(s->player.x, sim_tile_center(1));
    CHECK_EQ_I(s->progress.coins, 4); /* progress kept, hearts full: as sim_load_level */
    CHECK_EQ_I(s->progress.hearts, s->progress.max_hearts);
    CHECK_EQ_I(s->events.list[0].a, SIM_LEVEL_ENTER);

    /* Play-test from the cursor: onto floor, yes; a wall or off the map, no. */
    sim_place_player(s, 3, 2); /* a wall */
    CHECK_EQ_I(s->player.x, sim_tile_center(1));
    sim_place_player(s, 40, 1); /* off the map */
    CHECK_EQ_I(s->player.x, sim_tile_center(1));
    sim_place_player(s, 4, 2);
    CHECK_EQ_I(s->player.x, sim_tile_center(4));
    CHECK_EQ_I(s->player.y, sim_tile_center(2));
    CHECK_EQ_I(s->events.list[0].x, sim_tile_center(4)); /* the arrival is where they are */
    /* Onto the exit: it stays quiet until they step off it and back. */
    sim_place_player(s, 5, 1);
    CHECK_EQ_I(s->player.x, sim_tile_center(5));
    run(s, 0, 3);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_NONE);
    run(s, SIM_IN_LEFT, 12);
    run(s, SIM_IN_RIGHT, 20);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_LEVEL);
    /* The exit leads to the file beside `path`, which loads. */
    CHECK(sim_follow_request(s, level_arena, &err));
    CHECK(strcmp(s->level_path, next) == 0);
    CHECK(!s->level_from_text);

    /* Bad text: false, the error at path:line:col, the level untouched. */
    serial = s->level_serial;
    uint64_t h = sim_hash(s);
    const char *bad = "name: Bad\nmap:\n###\n#@#\n#?#\n###\nend\n";
    CHECK(!sim_load_level_text(s, level_arena, draft, st_str8_cstr(bad), &err));
    CHECK(strstr(err.message, "draft.lvl:5:2: error:") != NULL);
    CHECK_EQ_U(s->level_serial, serial);
    CHECK_EQ_U(sim_hash(s), h);
    CHECK(strcmp(s->level_path, next) == 0);
}

/* ---- The rule as the front end applies it, on a Game ---- */

typedef struct Reports {
    int notes, errors;
    char last[512];
} Reports;

static void keep_report(void *state, const Diag *d) {
    Reports *r = state;
    if (d->level == DIAG_NOTE) r->notes++;
    if (d->level == DIAG_ERROR) r->errors++;
    snprintf(r->last, sizeof r->last, "%s", d->text);
}

/* What app_frame does every 15 frames, outside game_update (so replays never see it). */
static void watch_rule(Game *g, LevelWatch *w) {
    watch_follow(w, g->sim.level_path);
    if (g->screen != SCREEN_PLAYING && g->screen != SCREEN_PAUSED) return;
    if (g->sim.level_from_text || !watch_poll(w)) return;
    Error err;
    if (sim_reload_level(&g->sim, g->level_arena, &err)) st_diag_report(DIAG_NOTE, "reloaded %s", g->sim.level_path);
    else st_error_report(&err);
}

static void frames(Game *g, LevelWatch *w, uint32_t input, int n, uint64_t *frame) {
    for (int i = 0; i < n; i++) {
        game_update(g, input);
        if (++*frame % 15 == 0) watch_rule(g, w);
    }
}

static void test_game_reload(void) {
    write_file(path_of("end.lvl"), "name: End\nmap:\n#####\n#@..#\n#####\nend\n", 0);
    const char *p = write_file(path_of("game.lvl"), LEVEL_V1, 5000);
    static Game g;
    Error err;
    REQUIRE_VOID(game_init(&g, level_arena, &(GameConfig){.start_level = p, .seed = 9, .skip_title = true}, &err));
    Reports rep = {0};
    DiagSink before = st_diag_set_sink((DiagSink){keep_report, &rep});
    LevelWatch w;
    watch_start(&w, g.sim.level_path);
    uint64_t frame = 0;

    frames(&g, &w, SIM_IN_RIGHT, 20, &frame); /* to (3, 1), clear of V2's water */
    CHECK_EQ_I(rep.notes, 0);
    uint32_t serial = g.sim.level_serial, ticks = g.sim.progress.ticks;
    int32_t x = g.sim.player.x;

    /* Saved from an editor: the next poll reloads it, the player stays, play goes on. */
    save_atomic(p, LEVEL_V2, 5001);
    frames(&g, &w, 0, 15, &frame);
    CHECK_EQ_I(rep.notes, 1);
    CHECK(strstr(rep.last, "reloaded") && strstr(rep.last, "game.lvl"));
    CHECK_EQ_U(g.sim.level_serial, serial + 1);
    CHECK_EQ_I(level_tile(&g.sim.level, 5, 1), TILE_WATER);
    CHECK_EQ_I(g.sim.player.x, x);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    frames(&g, &w, SIM_IN_DOWN, 45, &frame);
    CHECK_EQ_U(g.sim.progress.ticks, ticks + 60);
    CHECK_EQ_I(rep.notes, 1); /* once per change */

    /* Broken while paused: the error is reported (path:line:col), the level plays on. */
    game_update(&g, GAME_IN_PAUSE);
    frame++;
    CHECK_EQ_I(g.screen, SCREEN_PAUSED);
    uint64_t h = game_hash(&g);
    write_file(p, LEVEL_BROKEN, 5002);
    frames(&g, &w, 0, 15, &frame);
    CHECK_EQ_I(rep.errors, 1);
    CHECK(strstr(rep.last, "game.lvl:5:3: error:") != NULL);
    CHECK_EQ_U(game_hash(&g), h);
    CHECK_EQ_U(g.sim.level_serial, serial + 1);
    /* Fixed, with an exit beside the player: reloaded, and the run goes through it. */
    write_file(p, "name: Game\nexit: end.lvl\nmap:\n#########\n#@$..X..#\n#.......#\n#########\nend\n", 5003);
    frames(&g, &w, 0, 15, &frame);
    CHECK_EQ_I(rep.notes, 2);
    CHECK_EQ_U(g.sim.level_serial, serial + 2);
    game_update(&g, GAME_IN_PAUSE); /* resume */
    frame++;
    frames(&g, &w, SIM_IN_RIGHT, 30, &frame);
    frames(&g, &w, 0, TRANSITION_TICKS + 15, &frame);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(strstr(g.sim.level_path, "end.lvl") != NULL);
    /* The watch follows the level the Game is on. */
    CHECK(strcmp(w.path, g.sim.level_path) == 0);
    CHECK_EQ_I(rep.errors, 1);
    st_diag_set_sink(before);
}

/* A Tiled map is watched and reloaded like a .lvl: the shipped level 1 as Tiled exported it
   (with the rest of the set beside it, so its exit resolves), a wall drawn into its tile
   layer - tile 5 of the tiles tileset, firstgid 1 - and saved over it atomically. */
static void test_reload_tmj(void) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cp tiled/levels/*.tmj '%s'/", dir);
    REQUIRE_VOID(system(cmd) == 0);
    const char *p = path_of("01-first-steps.tmj");
    set_mtime(p, 5000);
    static Sim sim;
    Sim *s = load(&sim, level_arena, p);
    REQUIRE_VOID(s->level.width == 30);
    CHECK_EQ_I(level_tile(&s->level, 3, 2), TILE_FLOOR);
    int32_t x = s->player.x, y = s->player.y;
    LevelWatch w;
    watch_start(&w, p);
    CHECK(!watch_poll(&w));

    static char text[1 << 16];
    FILE *f = fopen(p, "rb");
    REQUIRE_VOID(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char *c = strstr(text, "\"data\":[");
    REQUIRE_VOID(c);
    c += strlen("\"data\":[");
    for (int i = 0; i < 2 * 30 + 3; i++) c = strchr(c, ',') + 1; /* to the id of tile (3, 2) */
    while (*c == ' ' || *c == '\n') c++;
    REQUIRE_VOID(c[0] >= '1' && c[0] <= '4' && c[1] == ','); /* a floor (the art has four) */
    c[0] = '5';
    save_atomic(p, text, 5001);

    CHECK(watch_poll(&w));
    Error err;
    CHECK(sim_reload_level(s, level_arena, &err));
    CHECK_EQ_I(level_tile(&s->level, 3, 2), TILE_WALL);
    CHECK_EQ_I(s->player.x, x);
    CHECK_EQ_I(s->player.y, y);
    CHECK(strcmp(s->level_path, p) == 0);

    /* A broken map: the level stays, and the message names the file. */
    save_atomic(p, "{\"width\": 30,", 5002);
    CHECK(watch_poll(&w));
    CHECK(!sim_reload_level(s, level_arena, &err));
    CHECK(strstr(err.message, "01-first-steps.tmj") != NULL);
    CHECK_EQ_I(level_tile(&s->level, 3, 2), TILE_WALL);
}

int main(void) {
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    level_arena =
        st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    test_watch_changes();
    test_reload_keeps_player();
    test_failed_reload_changes_nothing();
    test_load_text_and_place();
    test_game_reload();
    test_reload_tmj();
    st_arena_release(level_arena);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_result();
}
