/* test_level.c - the level loader: a full fixture loads into the exact fields (signs
   included), every error has its exact message, a failed load leaves the loaded level untouched (also when the arena
   is too small), and the arena need is exact to the byte, the caller's room (LevelRoom)
   included. Runs from tests/game, so fixture paths are "levels/good/..." and
   "levels/bad/...". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include <strata/core/str8.h>
#include "level/level.h"
#include "level/level_load.h"

static Arena *new_level_arena(uint64_t bytes) {
    return st_arena_create((ArenaParams){.reserve_size = bytes, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
}

/* A room like the simulation's (sized by the pools and counts), of an odd size so that the
   level's end and the room's alignment are both exercised. */
static uint64_t test_room_bytes(const Level *lv) {
    return (uint64_t)lv->bullet_cap * 20 + (uint64_t)lv->particle_cap * 28 + (uint64_t)lv->enemy_count * 32 +
           (uint64_t)lv->pickup_count + (uint64_t)lv->door_count + 3;
}

/* ---- Snapshots: a deep copy of a Level, to prove a failed load changed nothing. -------- */

typedef struct Snapshot {
    Level shallow; /* the struct itself, pointers included */
    Level deep;    /* the same with every array and string copied into the test arena */
    uint64_t st_arena_pos;
} Snapshot;

static void *copy_of(Arena *a, const void *src, uint64_t n) {
    if (!src || !n) return NULL;
    void *d = st_arena_push(a, n, 8);
    memcpy(d, src, n);
    return d;
}

static Snapshot snapshot(Arena *keep, const Level *lv, Arena *level_arena) {
    Snapshot s = {.shallow = *lv, .deep = *lv, .st_arena_pos = st_arena_pos(level_arena)};
    Level *d = &s.deep;
    d->name = st_arena_strdup(keep, lv->name);
    d->path = st_arena_strdup(keep, lv->path);
    d->exit_to = st_arena_strdup(keep, lv->exit_to);
    d->tiles = copy_of(keep, lv->tiles, (uint64_t)lv->width * lv->height);
    d->enemies = copy_of(keep, lv->enemies, sizeof(EnemySpawn) * lv->enemy_count);
    d->pickups = copy_of(keep, lv->pickups, sizeof(Pickup) * lv->pickup_count);
    d->doors = copy_of(keep, lv->doors, sizeof(LevelDoor) * lv->door_count);
    LevelLink *links = copy_of(keep, lv->links, sizeof(LevelLink) * lv->link_count);
    for (int i = 0; i < lv->link_count; i++) {
        links[i].target_path = st_arena_strdup(keep, lv->links[i].target_path);
        links[i].entry = st_arena_strdup(keep, lv->links[i].entry);
    }
    d->links = links;
    LevelEntry *entries = copy_of(keep, lv->entries, sizeof(LevelEntry) * lv->entry_count);
    for (int i = 0; i < lv->entry_count; i++) entries[i].name = st_arena_strdup(keep, lv->entries[i].name);
    d->entries = entries;
    LevelSign *signs = copy_of(keep, lv->signs, sizeof(LevelSign) * lv->sign_count);
    for (int i = 0; i < lv->sign_count; i++) signs[i].text = st_str8_copy(keep, lv->signs[i].text);
    d->signs = signs;
    return s;
}

static bool str_same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }
static bool mem_same(const void *a, const void *b, uint64_t n) { return n == 0 || memcmp(a, b, n) == 0; }

/* True when lv is still exactly what the snapshot saw, contents and all. */
static bool snapshot_same(const Snapshot *s, const Level *lv, Arena *level_arena) {
    const Level *d = &s->deep;
    bool same = memcmp(&s->shallow, lv, sizeof *lv) == 0 && st_arena_pos(level_arena) == s->st_arena_pos;
    same = same && str_same(d->name, lv->name) && str_same(d->path, lv->path) && str_same(d->exit_to, lv->exit_to);
    same = same && mem_same(d->tiles, lv->tiles, (uint64_t)lv->width * lv->height);
    same = same && mem_same(d->enemies, lv->enemies, sizeof(EnemySpawn) * lv->enemy_count);
    same = same && mem_same(d->pickups, lv->pickups, sizeof(Pickup) * lv->pickup_count);
    same = same && mem_same(d->doors, lv->doors, sizeof(LevelDoor) * lv->door_count);
    for (int i = 0; same && i < lv->link_count; i++)
        same = lv->links[i].tx == d->links[i].tx && lv->links[i].ty == d->links[i].ty &&
               str_same(lv->links[i].target_path, d->links[i].target_path) &&
               str_same(lv->links[i].entry, d->links[i].entry);
    for (int i = 0; same && i < lv->entry_count; i++)
        same = lv->entries[i].tx == d->entries[i].tx && lv->entries[i].ty == d->entries[i].ty &&
               str_same(lv->entries[i].name, d->entries[i].name);
    for (int i = 0; same && i < lv->sign_count; i++)
        same = lv->signs[i].tx == d->signs[i].tx && lv->signs[i].ty == d->signs[i].ty &&
               st_str8_eq(lv->signs[i].text, d->signs[i].text);
    return same;
}

/* ---- The full fixture ---------------------------------------------------------------- */

/* The legend, written out independently of the loader's tables. */
static TileKind expected_tile(char c) {
    switch (c) {
    case '#': return TILE_WALL;
    case '~': return TILE_WATER;
    case '^': return TILE_SPIKES;
    case 'X': return TILE_EXIT;
    case '>': return TILE_PORTAL;
    case 'R': case 'G': case 'B': return TILE_DOOR;
    default: return TILE_FLOOR;
    }
}

/* `room`: the room it was loaded with (test_room_bytes), or NULL for none. */
static void check_fixture_a(const Level *lv, Arena *level_arena, const LevelLoadStats *st, uint64_t file_bytes,
                            const LevelRoom *room) {
    CHECK(strcmp(lv->name, "Fixture \xC3\x84 \xE2\x80\x94 keys") == 0);
    CHECK(strcmp(lv->path, "levels/good/a.lvl") == 0);
    CHECK(lv->exit_to && strcmp(lv->exit_to, "levels/good/b.lvl") == 0);
    CHECK_EQ_I(lv->width, 10);
    CHECK_EQ_I(lv->height, 6);
    CHECK_EQ_I(lv->start_tx, 1);
    CHECK_EQ_I(lv->start_ty, 1);
    /* Every legend character, row by row; entities stand on floor, doors and portals are tiles. */
    static const char *expect[6] = {"##########", "#@..$..p.#", "#..~~~..>#",
                                    "#r...R..X#", "#^g+cGtbB#", "##########"};
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 10; x++) {
            TileKind want = expected_tile(expect[y][x]);
            if (level_tile(lv, x, y) != want) {
                fprintf(stderr, "tile %d %d ('%c'): %d, want %d\n", x, y, expect[y][x], level_tile(lv, x, y), want);
                CHECK(!"tile");
            }
        }
    CHECK(level_tile(lv, -1, 0) == TILE_WALL && level_tile(lv, 10, 0) == TILE_WALL);

    /* Enemies in map order; the enemy lines set hp, the chaser has none: 0, so the game's
       default for its kind applies (a rule of the simulation, not of the file). */
    REQUIRE_VOID(lv->enemy_count == 3);
    struct { EnemyKind kind; int x, y, hp; } ew[3] = {
        {ENEMY_PATROLLER, 7, 1, 5}, {ENEMY_CHASER, 4, 4, 0}, {ENEMY_TURRET, 6, 4, 9}};
    for (int i = 0; i < 3; i++) {
        const EnemySpawn *e = &lv->enemies[i];
        CHECK(e->kind == ew[i].kind);
        CHECK_EQ_I(e->hp, ew[i].hp);
        CHECK_EQ_I(e->tx, ew[i].x);
        CHECK_EQ_I(e->ty, ew[i].y);
    }
    REQUIRE_VOID(lv->pickup_count == 5);
    struct { PickupKind kind; KeyColor color; int x, y; } pw[5] = {
        {PICKUP_COIN, KEY_RED, 4, 1}, {PICKUP_KEY, KEY_RED, 1, 3}, {PICKUP_KEY, KEY_GREEN, 2, 4},
        {PICKUP_HEART, KEY_RED, 3, 4}, {PICKUP_KEY, KEY_BLUE, 7, 4}};
    for (int i = 0; i < 5; i++) {
        const Pickup *k = &lv->pickups[i];
        CHECK(k->kind == pw[i].kind && k->tx == pw[i].x && k->ty == pw[i].y);
        if (k->kind == PICKUP_KEY) CHECK(k->color == pw[i].color);
    }
    REQUIRE_VOID(lv->door_count == 3);
    CHECK(level_door_at(lv, 5, 3) && level_door_at(lv, 5, 3)->color == KEY_RED);
    CHECK(level_door_at(lv, 5, 4) && level_door_at(lv, 5, 4)->color == KEY_GREEN);
    CHECK(level_door_at(lv, 8, 4) && level_door_at(lv, 8, 4)->color == KEY_BLUE);
    CHECK(level_door_at(lv, 4, 3) == NULL && level_door_index(lv, 4, 3) == -1);
    CHECK(level_door_index(lv, 5, 3) == 0 && level_door_index(lv, 8, 4) == 2);
    REQUIRE_VOID(lv->link_count == 1);
    const LevelLink *l = level_link_at(lv, 8, 2);
    CHECK(l && strcmp(l->target_path, "levels/good/b.lvl") == 0 && l->entry && strcmp(l->entry, "west") == 0);
    CHECK(level_link_at(lv, 8, 3) == NULL);
    REQUIRE_VOID(lv->entry_count == 2);
    const LevelEntry *door = level_entry_find(lv, "door"), *spiky = level_entry_find(lv, "spiky");
    CHECK(door && door->tx == 1 && door->ty == 2);
    CHECK(spiky && spiky->tx == 1 && spiky->ty == 4);
    CHECK(level_entry_find(lv, "west") == NULL && level_entry_find(lv, NULL) == NULL);
    /* Signs, in file order: the text up to the comment, trimmed, inner blanks kept, UTF-8,
       NUL-terminated in the level arena; one shares its tile with an entry. */
    REQUIRE_VOID(lv->sign_count == 2);
    static const char *const sign_text[2] = {"Keys open doors: 100% sure, (once) \xE2\x80\x94 go!",
                                             "Entries may share   a tile"};
    static const int sign_xy[2][2] = {{2, 1}, {6, 3}};
    for (int i = 0; i < 2; i++) {
        const LevelSign *g = &lv->signs[i];
        CHECK(g->tx == sign_xy[i][0] && g->ty == sign_xy[i][1]);
        CHECK(g->text.len == strlen(sign_text[i]) && memcmp(g->text.data, sign_text[i], g->text.len) == 0);
        CHECK(g->text.data[g->text.len] == '\0');
        CHECK((const char *)lv->tiles < g->text.data); /* in the level arena, after the map */
    }
    /* Pool sizes from the header; the pools themselves are the room's business. */
    CHECK_EQ_I(lv->bullet_cap, 64);
    CHECK_EQ_I(lv->particle_cap, 128);
    /* The measured need is exactly what the level took, its room included. */
    CHECK_EQ_U(lv->arena_bytes, st_arena_pos(level_arena));
    if (st) {
        CHECK_EQ_U(st->level_bytes, lv->arena_bytes);
        CHECK(st->scratch_peak > file_bytes); /* the text plus the parse's lists */
    }
    CHECK(lv->arena_bytes >= 60 + 3 * sizeof(EnemySpawn));
    if (room) {
        /* The room: the size asked for, aligned, zeroed, and the last thing in the arena. */
        REQUIRE_VOID(room->block);
        CHECK_EQ_U(room->size, test_room_bytes(lv));
        CHECK_EQ_U((uintptr_t)room->block % LEVEL_ROOM_ALIGN, 0);
        const uint8_t *b = room->block;
        uint64_t nonzero = 0;
        for (uint64_t i = 0; i < room->size; i++) nonzero += b[i] != 0;
        CHECK_EQ_U(nonzero, 0);
        CHECK((const uint8_t *)lv->tiles < b && (const uint8_t *)lv->enemies < b && (const uint8_t *)lv->entries < b);
        CHECK(lv->arena_bytes >= room->size + 60 + 3 * sizeof(EnemySpawn));
    }
}

static uint64_t file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Reads a fixture into the arena (tests may read files however they like). */
static Str8 slurp(Arena *a, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return (Str8){0};
    uint64_t n = file_size(path);
    char *buf = st_arena_push(a, n + 1, 1);
    uint64_t got = fread(buf, 1, n, f);
    fclose(f);
    return (Str8){buf, got};
}

/* ---- Error table --------------------------------------------------------------------- */

typedef struct BadCase {
    const char *file, *message;
} BadCase;

#define LEG "(one of .#~^X>@pct$+rgbRGB)"
static const BadCase bad_cases[] = {
    {"unknown_tile", "4:4: error: expected a tile character " LEG ", found 'Z'"},
    {"ragged", "5:5: error: expected a row of 5 tiles like the first, found 4"},
    {"no_start", "2:1: error: expected a player start '@' in the map, found none"},
    {"two_starts", "4:4: error: expected one player start '@', found a second one (the first is at 1 1)"},
    {"enemy_on_wall", "7:7: error: expected an enemy (p, c or t) at 0 0, found a wall"},
    {"enemy_outside", "7:7: error: expected a tile column from 0 to 4, found 5"},
    {"enemy_on_coin", "7:7: error: expected an enemy (p, c or t) at 2 1, found a coin"},
    {"enemy_twice", "8:1: error: expected one 'enemy' line for the enemy at 3 1, found a second one (the first is on line 7)"},
    {"enemy_prop", "7:11: error: expected a property 'hp=N', found 'speed=3'"},
    {"hp_overflow", "7:14: error: expected hit points from 1 to 9999, found '99999999999999999999', which overflows"},
    {"link_no_file", "7:10: error: expected an existing level file, found 'nope.lvl' (levels/bad/nope.lvl: No such file or directory)"},
    {"link_not_portal", "7:6: error: expected a portal '>' at 2 1, found floor"},
    {"link_twice", "8:1: error: expected one 'link' line for the portal at 3 1, found a second one (the first is on line 7)"},
    {"link_junk", "7:29: error: expected end of line, found 'extra'"},
    {"link_bad_entry", "7:26: error: expected an entry name (letters, digits, '_' or '-'), found 'we$t'"},
    {"portal_no_link", "5:2: error: expected a 'link 1 2 FILE' line for this portal, found none"},
    {"exit_no_file", "2:7: error: expected an existing level file, found 'missing.lvl' (levels/bad/missing.lvl: No such file or directory)"},
    {"exit_dir", "2:7: error: expected an existing level file, found 'folder.lvl' (levels/bad/folder.lvl: not a regular file)"},
    {"exit_not_level", "2:7: error: expected a level file name ending in .lvl or .tmj, found '../../../../../../../../etc/passwd'"},
    {"link_not_level", "7:10: error: expected a level file name ending in .lvl or .tmj, found '../../../../etc/passwd'"},
    {"exit_too_long", "2:7: error: expected a level path of at most 511 bytes once resolved, found 623 bytes "
                      "('././././././././././././././././././././...')"},
    {"entry_on_wall", "7:12: error: expected a walkable tile (floor or spikes) for entry 'west' at 0 1, found a wall"},
    {"entry_on_water", "7:12: error: expected a walkable tile (floor or spikes) for entry 'west' at 3 1, found water"},
    {"entry_twice", "8:7: error: expected a new entry name, found 'west' again"},
    {"entry_outside", "7:14: error: expected a tile row from 0 to 2, found -1"},
    {"bullets_overflow", "2:10: error: expected a bullet pool size from 1 to 65536, found '99999999999999999999', which overflows"},
    {"bullets_zero", "2:10: error: expected a bullet pool size from 1 to 65536, found 0"},
    {"particles_junk", "2:12: error: expected a particle pool size from 1 to 65536, found 'lots'"},
    {"unknown_key", "2:1: error: expected a header key (name, exit, bullets, particles) or 'map:', found 'size'"},
    {"not_key_value", "2:1: error: expected 'key: value' or 'map:', found 'just some words'"},
    {"duplicate_name", "2:1: error: expected one 'name:' line, found a second one (the first is on line 1)"},
    {"missing_name", "2:1: error: expected a 'name:' line before 'map:', found 'map:'"},
    {"empty_name", "1:6: error: expected a level name, found nothing"},
    {"bad_utf8", "1:10: error: expected a UTF-8 name, found the invalid byte 0xC3"},
    {"missing_map", "3:1: error: expected 'map:', found end of file"},
    {"only_comments", "4:1: error: expected 'map:', found end of file"},
    {"missing_end", "6:1: error: expected 'end' after the map rows, found end of file"},
    {"end_after_entities", "6:1: error: expected 'end' after the map rows, found 'enemy'"},
    /* A mistyped `end` is the line reported, not the entity line after it. */
    {"end_mistyped", "6:1: error: expected 'end' after the map rows, found 'stop'"},
    {"end_mistyped_last", "6:1: error: expected 'end' after the map rows, found 'ned'"},
    {"sign_del", "7:11: error: expected text, found binary data (the byte 0x7F)"},
    {"empty_map", "3:1: error: expected at least one map row, found 'end'"},
    {"empty_row", "3:1: error: expected a map row of 1 to 4096 tiles, found an empty line"},
    {"space_in_map", "4:6: error: expected a tile character " LEG ", found a space"},
    {"tab_in_map", "4:4: error: expected a tile character " LEG ", found a tab"},
    {"utf8_in_map", "4:4: error: expected a tile character " LEG ", found the byte 0xC3"},
    {"bad_keyword", "7:1: error: expected 'enemy', 'link', 'entry' or 'sign', found 'spawn'"},
    {"sign_on_wall", "7:6: error: expected a floor tile '.' for the sign at 0 1, found a wall"},
    {"sign_on_coin", "7:6: error: expected a floor tile '.' for the sign at 2 1, found a coin"},
    {"sign_on_spikes", "7:6: error: expected a floor tile '.' for the sign at 3 1, found spikes"},
    {"sign_outside", "7:8: error: expected a tile row from 0 to 2, found 3"},
    {"sign_twice", "9:1: error: expected one sign at 2 1, found a second one (the first is on line 7)"},
    {"sign_no_text", "7:9: error: expected the sign's text after its tile, found end of line"},
    {"sign_too_long", "7:10: error: expected a sign text of at most 96 bytes, found 97 bytes"},
    {"sign_tab", "7:13: error: expected printable text on the sign, found a tab"},
    {"sign_bad_utf8", "7:13: error: expected UTF-8 text on the sign, found the invalid byte 0xC3"},
    {"sign_control", "7:14: error: expected printable text on the sign, found the control character U+0085"},
    {"sign_cr", "7:12: error: expected printable text on the sign, found the control character U+000D"},
    {"sign_in_map", "5:1: error: expected 'end' after the map rows, found 'sign'"},
    {"binary", "3:2: error: expected text, found binary data (the byte 0x01)"},
};

/* Every bad fixture fails with its exact message, while fixture A stays loaded and intact. */
static void test_bad_fixtures(Arena *keep) {
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    CHECK(level_load(&lv, level_arena, "levels/good/a.lvl", &err));
    Snapshot before = snapshot(keep, &lv, level_arena);
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        char path[256], want[768];
        snprintf(path, sizeof path, "levels/bad/%s.lvl", bad_cases[i].file);
        snprintf(want, sizeof want, "%s:%s", path, bad_cases[i].message);
        LevelLoadStats st = {.level_bytes = 77};
        bool ok = level_load_ex(&lv, level_arena, path, NULL, NULL, &err, &st);
        CHECK(!ok);
        if (ok || strcmp(err.message, want) != 0) {
            fprintf(stderr, "%s:\n  got  '%s'\n  want '%s'\n", path, ok ? "(loaded)" : err.message, want);
            check_failures_++;
            if (ok) {
                CHECK(level_load(&lv, level_arena, "levels/good/a.lvl", &err));
                before = snapshot(keep, &lv, level_arena);
            }
            continue;
        }
        /* line and col match the message's "path:line:col". */
        int line = 0, col = 0;
        CHECK(sscanf(bad_cases[i].message, "%d:%d:", &line, &col) == 2 && line == err.line && col == err.col);
        CHECK_EQ_U(st.level_bytes, 0); /* invalid: never measured */
        if (!snapshot_same(&before, &lv, level_arena)) {
            fprintf(stderr, "%s: the loaded level changed\n", path);
            check_failures_++;
        }
    }
    /* And A is still usable as a level, field by field. */
    check_fixture_a(&lv, level_arena, NULL, 0, NULL);
    st_arena_release(level_arena);
}

/* ---- Whole-file errors, from files made at test time ------------------------------ */

/* The code a failed load leaves: what a caller that branches reads. */
static ErrorCode err_code_of(Level *lv, Arena *level_arena, const char *path) {
    Error err;
    return level_load(lv, level_arena, path, &err) ? ERROR_OK : err.code;
}

static void expect_fail(Level *lv, Arena *level_arena, const Snapshot *before, const char *path, const char *want) {
    Error err;
    bool ok = level_load(lv, level_arena, path, &err);
    CHECK(!ok);
    if (ok || strcmp(err.message, want) != 0) {
        fprintf(stderr, "%s:\n  got  '%s'\n  want '%s'\n", path, ok ? "(loaded)" : err.message, want);
        check_failures_++;
        return;
    }
    CHECK(err.line == 0 && err.col == 0);
    if (!snapshot_same(before, lv, level_arena)) {
        fprintf(stderr, "%s: the loaded level changed\n", path);
        check_failures_++;
    }
}

static void write_file(const char *path, const char *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, n, f);
    fclose(f);
}

static void test_file_errors(Arena *keep) {
    char dir[] = "/tmp/test_level_XXXXXX";
    REQUIRE_VOID(mkdtemp(dir));
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    CHECK(level_load(&lv, level_arena, "levels/good/a.lvl", &err));
    Snapshot before = snapshot(keep, &lv, level_arena);
    char path[512], want[1200];

    snprintf(path, sizeof path, "%s/empty.lvl", dir);
    write_file(path, "", 0);
    snprintf(want, sizeof want, "%s: error: expected a level, found an empty file", path);
    expect_fail(&lv, level_arena, &before, path, want);
    unlink(path);

    snprintf(want, sizeof want, "%s: error: expected a level file, found a directory", dir);
    expect_fail(&lv, level_arena, &before, dir, want);
    CHECK(err_code_of(&lv, level_arena, dir) == ERROR_NOT_FILE);

    snprintf(path, sizeof path, "%s/none.lvl", dir);
    snprintf(want, sizeof want, "%s: error: cannot open %s: No such file or directory", path, path);
    expect_fail(&lv, level_arena, &before, path, want);
    CHECK(err_code_of(&lv, level_arena, path) == ERROR_NOT_FOUND);

    snprintf(path, sizeof path, "%s/fifo.lvl", dir);
    if (mkfifo(path, 0600) == 0) {
        snprintf(want, sizeof want, "%s: error: expected a level file, found a special file (device, FIFO or socket)", path);
        expect_fail(&lv, level_arena, &before, path, want);
        unlink(path);
    }

    /* A NUL byte in an otherwise good file is binary, located by line and column. */
    snprintf(path, sizeof path, "%s/nul.lvl", dir);
    write_file(path, "name: x\nmap:\n#@\0#\n", 17);
    snprintf(want, sizeof want, "%s:3:3: error: expected text, found binary data (the byte 0x00)", path);
    CHECK(!level_load(&lv, level_arena, path, &err) && strcmp(err.message, want) == 0);
    CHECK(err.code == ERROR_PARSE && err.line == 3 && err.col == 3);
    CHECK(snapshot_same(&before, &lv, level_arena));
    unlink(path);

    /* Unreadable. Root reads anything, so as root the load runs in a child that has given
       up root for "nobody", where the open really fails. */
    snprintf(path, sizeof path, "%s/locked.lvl", dir);
    write_file(path, "name: x\n", 8);
    chmod(path, 0);
    snprintf(want, sizeof want, "%s: error: cannot open %s: Permission denied", path, path);
    if (geteuid() != 0) {
        expect_fail(&lv, level_arena, &before, path, want);
    } else {
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
            check_failures_ = 0;
            expect_fail(&lv, level_arena, &before, path, want);
            _exit(check_failures_ ? 1 : 0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    unlink(path);
    rmdir(dir);
    st_arena_release(level_arena);
}

/* ---- Text variants and size limits, parsed from memory ----------------------------- */

static char *crlf(Arena *a, Str8 s, uint64_t *n) {
    char *out = st_arena_push(a, s.len * 2 + 4, 1);
    uint64_t k = 0;
    memcpy(out, "\xEF\xBB\xBF", 3), k = 3; /* a BOM, as some editors write */
    for (uint64_t i = 0; i < s.len; i++) {
        if (s.data[i] == '\n') out[k++] = '\r';
        out[k++] = s.data[i];
    }
    while (k && (out[k - 1] == '\n' || out[k - 1] == '\r')) k--; /* no final newline */
    *n = k;
    return out;
}

static void test_text_variants(Arena *keep) {
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Str8 a = slurp(keep, "levels/good/a.lvl");
    REQUIRE_VOID(a.len > 0);
    Level lv;
    Error err;
    LevelLoadStats st;
    LevelRoom room = {.bytes = test_room_bytes};
    CHECK(level_load_ex(&lv, level_arena, "levels/good/a.lvl", NULL, &room, &err, &st));
    check_fixture_a(&lv, level_arena, &st, a.len, &room);
    Snapshot lf = snapshot(keep, &lv, level_arena);

    /* CRLF, a BOM and no final newline give the same level. */
    uint64_t n;
    char *text = crlf(keep, a, &n);
    LevelRoom room2 = {.bytes = test_room_bytes};
    CHECK(level_parse(&lv, level_arena, "levels/good/a.lvl", text, n, &room2, &err, NULL));
    check_fixture_a(&lv, level_arena, NULL, 0, &room2);
    CHECK(mem_same(lf.deep.tiles, lv.tiles, 60) && mem_same(lf.deep.enemies, lv.enemies, 3 * sizeof(EnemySpawn)));
    CHECK_EQ_U(lf.deep.arena_bytes, lv.arena_bytes);
    CHECK(room2.block == room.block && room2.size == room.size); /* the same level, the same place */

    /* Width and height: 4096 is the limit, 4097 is an error. */
    uint64_t side = LEVEL_MAX_SIDE + 1;
    char *big = st_arena_push(keep, side * (side + 1) + 64, 1);
    uint64_t k = (uint64_t)sprintf(big, "name: wide\nmap:\n@");
    memset(big + k, '.', side - 1), k += side - 1;
    k += (uint64_t)sprintf(big + k, "\nend\n");
    Snapshot before = snapshot(keep, &lv, level_arena);
    CHECK(!level_parse(&lv, level_arena, "wide.lvl", big, k, NULL, &err, NULL));
    CHECK(strcmp(err.message, "wide.lvl:3:4097: error: expected a map row of 1 to 4096 tiles, found 4097") == 0);
    CHECK(snapshot_same(&before, &lv, level_arena));

    k = (uint64_t)sprintf(big, "name: tall\nmap:\n@\n");
    for (uint64_t y = 1; y < side; y++) big[k++] = '.', big[k++] = '\n';
    k += (uint64_t)sprintf(big + k, "end\n");
    CHECK(!level_parse(&lv, level_arena, "tall.lvl", big, k, NULL, &err, NULL));
    CHECK(strcmp(err.message, "tall.lvl:4099:1: error: expected at most 4096 map rows, found more") == 0);
    CHECK(snapshot_same(&before, &lv, level_arena));

    /* 4096 x 4096 loads (16 MiB of tiles), given an arena that holds it. */
    uint64_t s4 = LEVEL_MAX_SIDE;
    uint64_t head = (uint64_t)sprintf(big, "name: max\nmap:\n");
    k = head;
    for (uint64_t y = 0; y < s4; y++) {
        memset(big + k, y == 0 || y == s4 - 1 ? '#' : '.', s4);
        big[k] = big[k + s4 - 1] = '#';
        k += s4;
        big[k++] = '\n';
    }
    big[head + (s4 + 1) + 1] = '@'; /* row 1, column 1 */
    k += (uint64_t)sprintf(big + k, "end\n");
    Arena *huge = new_level_arena(32ull << 20);
    CHECK(level_parse(&lv, huge, "max.lvl", big, k, NULL, &err, NULL));
    CHECK(lv.width == 4096 && lv.height == 4096 && lv.start_tx == 1 && lv.start_ty == 1);
    CHECK(level_tile(&lv, 4095, 4095) == TILE_WALL && level_tile(&lv, 2, 1) == TILE_FLOOR);
    CHECK_EQ_U(lv.arena_bytes, st_arena_pos(huge));
    st_arena_release(huge);
    st_arena_release(level_arena);
}

/* ---- The arena need is exact: a level fits an arena of exactly its need, not one less. */

static void test_arena_fit(Arena *keep) {
    Level lv;
    Error err;
    LevelLoadStats st_a, st_b, st_alone;
    LevelRoom room = {.bytes = test_room_bytes};
    Arena *big = new_level_arena(LEVEL_ARENA_BYTES);
    CHECK(level_load_ex(&lv, big, "levels/good/a.lvl", NULL, NULL, &err, &st_alone));
    CHECK_EQ_U(st_alone.level_bytes, st_arena_pos(big));
    CHECK(level_load_ex(&lv, big, "levels/good/a.lvl", NULL, &room, &err, &st_a));
    CHECK_EQ_U(st_a.level_bytes, st_arena_pos(big));
    /* The room comes after the level, aligned: the need is the level's plus the room's. */
    CHECK(st_a.level_bytes >= st_alone.level_bytes + room.size);
    CHECK(st_a.level_bytes < st_alone.level_bytes + room.size + LEVEL_ROOM_ALIGN);
    CHECK(level_load_ex(&lv, big, "levels/good/b.lvl", NULL, &room, &err, &st_b));
    CHECK_EQ_U(st_b.level_bytes, st_arena_pos(big));
    st_arena_release(big);
    /* a has small pools (64 bullets, 128 particles), b the defaults: b's room is larger. */
    REQUIRE_VOID(st_b.level_bytes > st_a.level_bytes);

    /* a in an arena of exactly its need: loads, and b then fails with the arena-full text,
       leaving a and its room as they were (the room as play left it, not zeroed). */
    Arena *tiny = new_level_arena(st_a.level_bytes);
    REQUIRE_VOID(tiny);
    CHECK_EQ_U(st_arena_capacity(tiny), st_a.level_bytes);
    CHECK(level_load_ex(&lv, tiny, "levels/good/a.lvl", NULL, &room, &err, NULL));
    CHECK_EQ_U(st_arena_pos(tiny), st_arena_capacity(tiny));
    REQUIRE_VOID(room.block);
    memset(room.block, 0x5A, room.size);
    LevelRoom kept = room;
    Snapshot before = snapshot(keep, &lv, tiny);
    LevelLoadStats st;
    CHECK(!level_load_ex(&lv, tiny, "levels/good/b.lvl", NULL, &room, &err, &st));
    char want[512];
    snprintf(want, sizeof want,
             "levels/good/b.lvl: error: level does not fit: arena 'level' full: 0 of %llu bytes used, asked for %llu more",
             (unsigned long long)st_a.level_bytes, (unsigned long long)st_b.level_bytes);
    CHECK(strcmp(err.message, want) == 0);
    if (strcmp(err.message, want) != 0) fprintf(stderr, "  got  '%s'\n  want '%s'\n", err.message, want);
    /* The code says what the text says, for the caller that branches on it. */
    CHECK_EQ_I(err.code, ERROR_OUT_OF_MEMORY);
    CHECK(err.line == 0 && err.at.path_len == strlen("levels/good/b.lvl"));
    CHECK_EQ_U(st.level_bytes, st_b.level_bytes); /* a misfit still reports its need */
    CHECK(snapshot_same(&before, &lv, tiny));
    CHECK(room.block == kept.block && room.size == kept.size);
    uint64_t changed = 0;
    for (uint64_t i = 0; i < kept.size; i++) changed += ((const uint8_t *)kept.block)[i] != 0x5A;
    CHECK_EQ_U(changed, 0);
    check_fixture_a(&lv, tiny, NULL, 0, NULL);
    /* Every kind of bad file fails the same way in a tiny arena, and a stays intact. */
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "levels/bad/%s.lvl", bad_cases[i].file);
        CHECK(!level_load(&lv, tiny, path, &err));
        CHECK(strstr(err.message, bad_cases[i].message) != NULL);
        CHECK(snapshot_same(&before, &lv, tiny));
    }
    st_arena_release(tiny);

    /* One byte less than a needs with its room: a does not fit into the empty arena, and *out
       is untouched; a alone does fit, so it was the room that tipped it. */
    Arena *less = new_level_arena(st_a.level_bytes - 1);
    Level empty = {0};
    lv = empty;
    LevelRoom untouched = {.bytes = test_room_bytes};
    room = untouched;
    CHECK(!level_load_ex(&lv, less, "levels/good/a.lvl", NULL, &room, &err, NULL));
    CHECK(strstr(err.message, "level does not fit: arena 'level' full: 0 of ") != NULL);
    CHECK(memcmp(&lv, &empty, sizeof lv) == 0 && st_arena_pos(less) == 0);
    CHECK(memcmp(&room, &untouched, sizeof room) == 0);
    CHECK(level_load(&lv, less, "levels/good/a.lvl", &err));
    st_arena_release(less);

    /* Loading the same level twice in a row gives the same level and the same need: the
       arena is cleared on load, not appended to; and the room comes zeroed again over the
       bytes the last level's play left in it (a restart starts from nothing). */
    Arena *again = new_level_arena(st_a.level_bytes);
    CHECK(level_load_ex(&lv, again, "levels/good/a.lvl", NULL, &room, &err, NULL));
    REQUIRE_VOID(room.block);
    memset(room.block, 0x5A, room.size);
    CHECK(level_load_ex(&lv, again, "levels/good/a.lvl", NULL, &room, &err, NULL));
    check_fixture_a(&lv, again, NULL, 0, &room);
    st_arena_release(again);
}

/* The shipped levels (levels/NN-*.lvl) are covered by the levelcheck test. Here: the link in
   fixture b leads back to a with no entry, a's link names an entry b has. */
static void test_links_resolve(void) {
    Arena *arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level a, b;
    Error err;
    CHECK(level_load(&a, arena, "levels/good/a.lvl", &err));
    const LevelLink *l = level_link_at(&a, 8, 2);
    REQUIRE_VOID(l);
    Arena *arena2 = new_level_arena(LEVEL_ARENA_BYTES);
    CHECK(level_load(&b, arena2, l->target_path, &err));
    const LevelEntry *e = level_entry_find(&b, l->entry);
    CHECK(e && e->tx == 2 && e->ty == 1 && level_tile(&b, e->tx, e->ty) == TILE_FLOOR);
    const LevelLink *back = level_link_at(&b, 3, 1);
    CHECK(back && back->entry == NULL && strcmp(back->target_path, "levels/good/a.lvl") == 0);
    st_arena_release(arena2);
    st_arena_release(arena);
}

/* Changing levels loads a path that lives in the level arena itself (the exit, a link's
   target), which the load clears before it copies the path: the loader must have copied it
   first. Under AddressSanitizer a kept slice is a use-after-poison in the copy. */
static void test_load_own_paths(void) {
    Arena *arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    REQUIRE_VOID(level_load(&lv, arena, "levels/good/a.lvl", &err));
    REQUIRE_VOID(lv.link_count == 1);
    CHECK(level_load(&lv, arena, lv.links[0].target_path, &err));
    CHECK(strcmp(lv.path, "levels/good/b.lvl") == 0 && strcmp(lv.name, "B") == 0);
    /* b's link leads back to a, through a path in the arena again. */
    REQUIRE_VOID(lv.link_count == 1);
    CHECK(level_load(&lv, arena, lv.links[0].target_path, &err));
    CHECK(strcmp(lv.path, "levels/good/a.lvl") == 0);
    REQUIRE_VOID(lv.exit_to);
    CHECK(level_load(&lv, arena, lv.exit_to, &err));
    CHECK(strcmp(lv.path, "levels/good/b.lvl") == 0);
    CHECK_EQ_U(lv.arena_bytes, st_arena_pos(arena));
    st_arena_release(arena);
}

/* Wide rows take the 16-at-a-time path: random rows of every legend character (at every
   offset, across 16-byte boundaries, with a width that is no multiple of 16) must give the
   same tiles and entities as the legend says, character by character. */
static void test_wide_rows(Arena *keep) {
    enum { W = 77, H = 40 };
    static const char plain[] = ".....#~^X", special[] = "pct$+rgbRGB";
    char *text = st_arena_push(keep, (W + 1) * H + 64, 1);
    char grid[H][W];
    uint32_t seed = 12345;
    int enemies = 0, pickups = 0, doors = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            seed = seed * 1103515245u + 12345u;
            uint32_t r = (seed >> 16) % 100;
            char c = r < 90 ? plain[r % 9] : special[r % 11];
            grid[y][x] = c;
        }
    grid[3][17] = '@';
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            char c = grid[y][x];
            enemies += c == 'p' || c == 'c' || c == 't';
            pickups += c == '$' || c == '+' || c == 'r' || c == 'g' || c == 'b';
            doors += c == 'R' || c == 'G' || c == 'B';
        }
    uint64_t k = (uint64_t)sprintf(text, "name: wide\nmap:\n");
    for (int y = 0; y < H; y++) {
        memcpy(text + k, grid[y], W);
        k += W;
        text[k++] = '\n';
    }
    k += (uint64_t)sprintf(text + k, "end\n");
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    REQUIRE_VOID(level_parse(&lv, level_arena, "wide.lvl", text, k, NULL, &err, NULL));
    CHECK(lv.width == W && lv.height == H && lv.start_tx == 17 && lv.start_ty == 3);
    int wrong = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) wrong += level_tile(&lv, x, y) != expected_tile(grid[y][x]);
    CHECK_EQ_I(wrong, 0);
    CHECK_EQ_I(lv.enemy_count, enemies);
    CHECK_EQ_I(lv.pickup_count, pickups);
    CHECK_EQ_I(lv.door_count, doors);
    CHECK(enemies > 10 && pickups > 10 && doors > 10); /* the seed really mixes them in */
    for (int i = 0; i < lv.door_count; i++) {
        char c = grid[lv.doors[i].ty][lv.doors[i].tx];
        CHECK(lv.doors[i].color == (c == 'R' ? KEY_RED : c == 'G' ? KEY_GREEN : KEY_BLUE));
    }
    /* An unknown character deep in a wide row is found at its exact column. */
    text[strlen("name: wide\nmap:\n") + 5 * (W + 1) + 50] = 'Q';
    CHECK(!level_parse(&lv, level_arena, "wide.lvl", text, k, NULL, &err, NULL));
    CHECK(strcmp(err.message, "wide.lvl:8:51: error: expected a tile character (one of .#~^X>@pct$+rgbRGB), found 'Q'") == 0);
    st_arena_release(level_arena);
}

/* The map's row loop lists the columns of entity and unknown characters without a branch
   per character (collect_bits in level_parse.c): an entity or an unknown character at every
   column, for widths on both sides of the 16- and 64-character steps, and rows that are
   entities from end to end (more than the branch-free slots of a 64-character word). */
static void test_row_offsets(Arena *keep) {
    static const int widths[] = {1, 2, 15, 16, 17, 63, 64, 65, 79, 80, 128, 129, 200};
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    char *text = st_arena_push(keep, 4096, 1);
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        int w = widths[wi];
        /* Row 0 holds the start; row 1 a single coin (or an unknown 'Q') at column x. */
        for (int x = 0; x < w; x++) {
            for (int bad = 0; bad < 2; bad++) {
                int k = sprintf(text, "name: offsets\nmap:\n@");
                for (int i = 1; i < w; i++) text[k++] = '.';
                text[k++] = '\n';
                for (int i = 0; i < w; i++) text[k++] = i == x ? (bad ? 'Q' : '$') : '#';
                k += sprintf(text + k, "\nend\n");
                bool ok = level_parse(&lv, level_arena, "o.lvl", text, (uint64_t)k, NULL, &err, NULL);
                if (bad) {
                    char want[160];
                    snprintf(want, sizeof want,
                             "o.lvl:4:%d: error: expected a tile character (one of .#~^X>@pct$+rgbRGB), found 'Q'", x + 1);
                    CHECK(!ok && strcmp(err.message, want) == 0);
                } else {
                    CHECK(ok && lv.pickup_count == 1 && lv.pickups[0].tx == x && lv.pickups[0].ty == 1);
                    CHECK(ok && level_tile(&lv, x, 1) == TILE_FLOOR && (x == 0 || level_tile(&lv, x - 1, 1) == TILE_WALL));
                }
            }
        }
        /* Three rows of nothing but enemies, in order, with their kinds and hit points. */
        int k = sprintf(text, "name: dense\nmap:\n@");
        for (int i = 1; i < w; i++) text[k++] = '.';
        text[k++] = '\n';
        for (int y = 1; y <= 3; y++) {
            for (int i = 0; i < w; i++) text[k++] = "pct"[(i + y) % 3];
            text[k++] = '\n';
        }
        k += sprintf(text + k, "end\nenemy %d 2 hp=77\n", w - 1);
        REQUIRE_VOID(level_parse(&lv, level_arena, "d.lvl", text, (uint64_t)k, NULL, &err, NULL));
        CHECK_EQ_I(lv.enemy_count, 3 * w);
        int wrong = 0;
        for (int i = 0; i < lv.enemy_count; i++) {
            const EnemySpawn *e = &lv.enemies[i];
            int x = i % w, y = 1 + i / w;
            wrong += e->tx != x || e->ty != y || e->kind != (EnemyKind)((x + y) % 3);
            wrong += e->hp != (x == w - 1 && y == 2 ? 77 : 0); /* 0: the kind's default */
        }
        CHECK_EQ_I(wrong, 0);
    }
    st_arena_release(level_arena);
}

/* Every byte value at a column of a wide row that the vector conversion takes (16 at a
   time, by table where the CPU has SSSE3): the plain tiles give their tile, and every byte
   that is not in the legend is refused at its column. */
static void test_every_byte(Arena *keep) {
    enum { W = 70, AT = 37 };
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    char *text = st_arena_push(keep, 4 * (W + 1) + 64, 1);
    Level lv;
    Error err;
    int wrong = 0;
    for (int b = 1; b < 256; b++) {
        if (b == '\n' || b == '\r') continue; /* line ends: another row */
        int k = sprintf(text, "name: bytes\nmap:\n@");
        memset(text + k, '.', W - 1), k += W - 1;
        text[k++] = '\n';
        memset(text + k, '#', W), text[k + AT] = (char)b, k += W;
        k += sprintf(text + k, "\nend\n");
        bool ok = level_parse(&lv, level_arena, "b.lvl", text, (uint64_t)k, NULL, &err, NULL);
        if (b && strchr(".#~^X", b)) {
            wrong += !ok || level_tile(&lv, AT, 1) != expected_tile((char)b) || level_tile(&lv, AT + 1, 1) != TILE_WALL;
        } else if (!strchr(".#~^X>@pct$+rgbRGB", b)) {
            char col[16];
            snprintf(col, sizeof col, ":4:%d: ", AT + 1);
            bool binary = (b < 0x20 && b != '\t') || b == 0x7f;
            wrong += ok || (!binary && !strstr(err.message, col));
        }
        if (wrong) {
            fprintf(stderr, "byte 0x%02X: %s\n", (unsigned)b, ok ? "loaded" : err.message);
            break;
        }
    }
    CHECK_EQ_I(wrong, 0);
    st_arena_release(level_arena);
}

/* The parse of one text, "ok" or its error message, into out. */
enum { SAYS_MAX = sizeof(((Error *)0)->message) };
static const char *parse_says(Arena *level_arena, const char *text, int32_t *hp, char out[SAYS_MAX]) {
    Level lv;
    Error err;
    if (!level_parse(&lv, level_arena, "e.lvl", text, strlen(text), NULL, &err, NULL)) {
        snprintf(out, SAYS_MAX, "%s", err.message);
        return out;
    }
    for (int i = 0; i < lv.enemy_count && i < 8; i++) hp[i] = lv.enemies[i].hp;
    return strcpy(out, "ok");
}

/* `enemy` lines have a quick path for the plain form (`enemy X Y hp=N` and a newline) and
   leave everything else to the general one: each line here, alone at the end of the text
   (where the quick path never looks: it wants 32 bytes ahead) and followed by comment lines
   (where it does), must give the same hit points or the same error. */
static void test_enemy_lines(void) {
    static const char *lines[] = {
        "enemy 3 1 hp=5\n", "enemy 3 1\n", "enemy 003 1 hp=0042\n", "enemy 3 1 hp=5  \n", "enemy 3 1 hp=5 # c\n",
        "enemy 3 1\thp=5\n", "enemy 3 1 hp=5\r\n", "enemy 3 1 hp=5 hp=6\n", "enemy  3 1 hp=5\n", "enemy 3 1 hp=9999\n",
        "enemy 3 1 hp=0\n", "enemy 3 1 hp=10000\n", "enemy 3 1 hp=12345\n", "enemy 3 1 hp=\n", "enemy 3 1 hp=-1\n",
        "enemy 3 1 x=5\n", "enemy 8 1 hp=5\n", "enemy 3 2 hp=5\n", "enemy 3 0 hp=5\n", "enemy 2 1 hp=5\n",
        "enemy 33333 1\n", "enemy 3\n", "enemy 3 1 hp=5\nenemy 3 1 hp=6\n", "enemy 5 1 hp=2\nenemy 3 1 hp=6\n",
        "enemy 3 1 hp=7\nenemy 5 1 hp=8\nenemy 4 1 hp=9\n", "enemy 3 1hp=5\n", "enemyy 3 1\n", "enemy 3 1 hp=5"};
    /* Enemies at columns 3, 4 and 5 of row 1 (a portal-free, exit-free map). */
    static const char head[] = "name: e\nmap:\n@......\n...pct.\nend\n";
    static const char pad[] = "# a comment line of more than thirty-two bytes\n# and another one\n";
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    char alone[256], padded[256], a[SAYS_MAX], b[SAYS_MAX];
    int differ = 0, quick_ok = 0;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        snprintf(alone, sizeof alone, "%s%s", head, lines[i]);
        bool ends_in_newline = lines[i][strlen(lines[i]) - 1] == '\n';
        snprintf(padded, sizeof padded, "%s%s%s%s", head, lines[i], ends_in_newline ? "" : "\n", pad);
        int32_t hp_a[8] = {0}, hp_b[8] = {0};
        parse_says(level_arena, alone, hp_a, a);
        parse_says(level_arena, padded, hp_b, b);
        if (strcmp(a, b) != 0 || memcmp(hp_a, hp_b, sizeof hp_a) != 0) {
            fprintf(stderr, "line %zu '%s': alone %s (hp %d %d %d), padded %s (hp %d %d %d)\n", i, lines[i], a,
                    hp_a[0], hp_a[1], hp_a[2], b, hp_b[0], hp_b[1], hp_b[2]);
            differ++;
        }
        quick_ok += strcmp(a, "ok") == 0;
    }
    CHECK_EQ_I(differ, 0);
    CHECK(quick_ok >= 10 && quick_ok < (int)(sizeof lines / sizeof lines[0])); /* both kinds are there */
    /* And what the quick path reads, exactly: values, hit points, the line of a second one. */
    int32_t hp[8] = {0};
    snprintf(padded, sizeof padded, "%senemy 4 1 hp=0042\nenemy 3 1\nenemy 5 1 hp=9999\n%s", head, pad);
    CHECK(strcmp(parse_says(level_arena, padded, hp, a), "ok") == 0 && hp[0] == 0 && hp[1] == 42 && hp[2] == 9999);
    snprintf(padded, sizeof padded, "%senemy 4 1 hp=3\nenemy 4 1 hp=4\n%s", head, pad);
    CHECK(strcmp(parse_says(level_arena, padded, hp, a),
                 "e.lvl:7:1: error: expected one 'enemy' line for the enemy at 4 1, found a second one (the first is "
                 "on line 6)") == 0);
    st_arena_release(level_arena);
}

/* The binary check runs after the parse (a map that parsed cannot hold a binary byte, so
   only the text around it is checked), yet its error wins as if it ran first: in the
   header, in the map, in the entity lines and their comments, at the last byte, and ahead
   of a parse error earlier in the file. */
static void test_binary_anywhere(void) {
    static const struct {
        const char *text;
        int len;
        const char *want;
    } cases[] = {
#define BIN(text, want) {text, (int)sizeof text - 1, want} /* sizeof: the texts hold NULs */
        BIN("name: x\x01y\nmap:\n#@#\nend\n", "b.lvl:1:8: error: expected text, found binary data (the byte 0x01)"),
        BIN("name: x # \x7f\nmap:\n#@#\nend\n", "b.lvl:1:11: error: expected text, found binary data (the byte 0x7F)"),
        BIN("name: x\nmap:\n#@\x02\nend\n", "b.lvl:3:3: error: expected text, found binary data (the byte 0x02)"),
        BIN("name: x\nmap:\n#@#\nend\n# \x03\n", "b.lvl:5:3: error: expected text, found binary data (the byte 0x03)"),
        BIN("name: x\nmap:\n#p#\n#@#\nend\nenemy 1 0 hp=3 #\x04\n", "b.lvl:6:17: error: expected text, found binary data (the byte 0x04)"),
        BIN("name: x\nmap:\n#@#\nend\n\x1b", "b.lvl:5:1: error: expected text, found binary data (the byte 0x1B)"),
        BIN("name: x\nmap:\n#@#\nend\0", "b.lvl:4:4: error: expected text, found binary data (the byte 0x00)"),
        /* A parse error first (an unknown tile, a bad key, a bad entity line), binary later. */
        BIN("name: x\nmap:\n#@Q\nend\n\x05", "b.lvl:5:1: error: expected text, found binary data (the byte 0x05)"),
        BIN("nmae: x\nmap:\n#@#\nend\n\x06", "b.lvl:5:1: error: expected text, found binary data (the byte 0x06)"),
        BIN("name: x\nmap:\n#@#\nend\nfoo\n\x0e", "b.lvl:6:1: error: expected text, found binary data (the byte 0x0E)"),
        /* A BOM is not a column: line 1 counts from after it, in this error as in all others. */
        BIN("\xEF\xBB\xBFname: x\x01y\nmap:\n#@#\nend\n", "b.lvl:1:8: error: expected text, found binary data (the byte 0x01)"),
        BIN("\xEF\xBB\xBFname: x\nmap:\n#@#\nend\n\x01", "b.lvl:5:1: error: expected text, found binary data (the byte 0x01)"),
        BIN("\xEF\xBB\xBFnmae: x\nmap:\n#@#\nend\n", "b.lvl:1:1: error: expected a header key (name, exit, bullets, particles) or 'map:', found 'nmae'"),
#undef BIN
    };
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    static const char good[] = "name: x\nmap:\n#@#\nend\n";
    REQUIRE_VOID(level_parse(&lv, level_arena, "good.lvl", good, sizeof good - 1, NULL, &err, NULL));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool ok = level_parse(&lv, level_arena, "b.lvl", cases[i].text, (uint64_t)cases[i].len, NULL, &err, NULL);
        if (ok || strcmp(err.message, cases[i].want) != 0)
            fprintf(stderr, "case %zu: got '%s'\n", i, ok ? "(loaded)" : err.message);
        CHECK(!ok && strcmp(err.message, cases[i].want) == 0);
        CHECK(strcmp(lv.path, "good.lvl") == 0 && lv.width == 3); /* the good level is still there */
    }
    st_arena_release(level_arena);
}

/* Signs: up to LEVEL_MAX_SIGNS, each text up to LEVEL_SIGN_TEXT_MAX bytes, all of it in
   the level arena: the need grows by the array and the texts (with their NULs), exactly. */
static void test_sign_limits(Arena *keep) {
    enum { W = 30, H = 12 };
    char *text = st_arena_push(keep, 64 * 1024, 1);
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    LevelLoadStats st;
    uint64_t without = 0;
    for (int n = 0; n <= LEVEL_MAX_SIGNS + 1; n++) {
        if (n > 2 && n < LEVEL_MAX_SIGNS) continue;
        int k = sprintf(text, "name: signs\nmap:\n");
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) text[k++] = y == 0 && x == 0 ? '@' : '.';
            text[k++] = '\n';
        }
        k += sprintf(text + k, "end\n");
        uint64_t texts = 0;
        for (int i = 0; i < n; i++) {
            int x = 1 + i % (W - 1), y = i / (W - 1);
            if (i == 0) { /* the longest text there may be */
                k += sprintf(text + k, "sign %d %d ", x, y);
                memset(text + k, 'x', LEVEL_SIGN_TEXT_MAX), k += LEVEL_SIGN_TEXT_MAX;
                text[k++] = '\n';
                texts += LEVEL_SIGN_TEXT_MAX + 1;
            } else {
                k += sprintf(text + k, "sign %d %d Sign %d\n", x, y, i);
                texts += (uint64_t)snprintf(NULL, 0, "Sign %d", i) + 1;
            }
        }
        bool ok = level_parse(&lv, level_arena, "s.lvl", text, (uint64_t)k, NULL, &err, &st);
        if (n > LEVEL_MAX_SIGNS) {
            char want[128];
            snprintf(want, sizeof want, "s.lvl:%d:1: error: expected at most %d signs, found more", 3 + H + n,
                     LEVEL_MAX_SIGNS);
            CHECK(!ok && strcmp(err.message, want) == 0);
            if (ok || strcmp(err.message, want) != 0) fprintf(stderr, "  got '%s'\n", ok ? "(loaded)" : err.message);
            continue;
        }
        REQUIRE_VOID(ok);
        CHECK_EQ_I(lv.sign_count, n);
        CHECK_EQ_U(st.level_bytes, lv.arena_bytes);
        if (n == 0) without = lv.arena_bytes;
        /* The array (its alignment padding at most) and the texts. */
        uint64_t grew = lv.arena_bytes - without, want = (uint64_t)n * sizeof(LevelSign) + texts;
        CHECK(n == 0 || (grew >= want && grew < want + _Alignof(LevelSign)));
        for (int i = 0; i < n; i++) CHECK_EQ_I(lv.signs[i].tx, 1 + i % (W - 1)); /* in file order */
        if (n) CHECK_EQ_U(lv.signs[0].text.len, LEVEL_SIGN_TEXT_MAX);
    }
    st_arena_release(level_arena);
}

/* ---- Where exits and links may lead ---------------------------------------------- */

static void put_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The level file names an exit or link target outside the run's folder: refused on its line,
   naming the folder and the real path, with no symbolic link as a way round. */
static void expect_outside(const char *path, const char *root, int line, int col, const char *written,
                           const char *target) {
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    char real[4096], want[8192];
    REQUIRE_VOID(realpath(target, real) != NULL);
    snprintf(want, sizeof want, "%s:%d:%d: error: expected a level file inside '%s', the folder of the run, found '%s' (%s)",
             path, line, col, root, written, real);
    bool ok = level_load_ex(&lv, level_arena, path, strcmp(root, "levels/bad/") ? root : NULL, NULL, &err, NULL);
    CHECK(!ok && strcmp(err.message, want) == 0);
    if (ok || strcmp(err.message, want) != 0) fprintf(stderr, "  got  '%s'\n  want '%s'\n", ok ? "(loaded)" : err.message, want);
    st_arena_release(level_arena);
}

static void test_paths_stay_inside(void) {
    /* The folder of the level is the root unless the caller names one. */
    expect_outside("levels/bad/exit_outside.lvl", "levels/bad/", 2, 7, "../good/a.lvl", "levels/good/a.lvl");
    expect_outside("levels/bad/link_outside.lvl", "levels/bad/", 7, 10, "../good/b.lvl", "levels/good/b.lvl");
    /* A run that starts higher up may go there. */
    Arena *level_arena = new_level_arena(LEVEL_ARENA_BYTES);
    Level lv;
    Error err;
    CHECK(level_load_ex(&lv, level_arena, "levels/bad/exit_outside.lvl", "levels", NULL, &err, NULL));
    CHECK(level_load_ex(&lv, level_arena, "levels/bad/link_outside.lvl", "levels/", NULL, &err, NULL));

    /* A symbolic link inside the root that points out of it is outside. */
    char dir[] = "/tmp/ad-level-XXXXXX";
    REQUIRE_VOID(mkdtemp(dir) != NULL);
    char root[64], a[128], out[128], link[128], b[128], far[128];
    snprintf(root, sizeof root, "%s/run", dir);
    REQUIRE_VOID(mkdir(root, 0755) == 0);
    snprintf(a, sizeof a, "%s/a.lvl", root);
    snprintf(out, sizeof out, "%s/outside.lvl", dir);
    snprintf(link, sizeof link, "%s/sneaky.lvl", root);
    put_file(a, "name: A\nexit: sneaky.lvl\nmap:\n#####\n#@.X#\n#####\nend\n");
    put_file(out, "name: Out\nmap:\n###\n#@#\n###\nend\n");
    REQUIRE_VOID(symlink("../outside.lvl", link) == 0);
    char root_slash[128];
    snprintf(root_slash, sizeof root_slash, "%s/", root);
    expect_outside(a, root_slash, 2, 7, "sneaky.lvl", out);
    /* A sibling folder whose name starts with the root's ("run2" beside "run") is outside:
       containment is by whole path components, not a string prefix. */
    char sibling[128], next[256];
    snprintf(sibling, sizeof sibling, "%s/run2", dir);
    REQUIRE_VOID(mkdir(sibling, 0755) == 0);
    snprintf(next, sizeof next, "%s/next.lvl", sibling);
    put_file(next, "name: Next\nmap:\n###\n#@#\n###\nend\n");
    put_file(a, "name: A\nexit: ../run2/next.lvl\nmap:\n#####\n#@.X#\n#####\nend\n");
    expect_outside(a, root, 2, 7, "../run2/next.lvl", next);
    expect_outside(a, root_slash, 2, 7, "../run2/next.lvl", next);
    CHECK(level_load_ex(&lv, level_arena, a, dir, NULL, &err, NULL)); /* their parent holds both */

    /* The long path of the audit: A leads to B, whose exit resolves to more than a Sim can
       hold. B fails on its exit line (as levelcheck says), so the game can never follow A's
       exit into a truncated name: the load of B fails and A keeps running. */
    snprintf(b, sizeof b, "%s/B.lvl", root);
    put_file(a, "name: A\nexit: B.lvl\nmap:\n#####\n#@.X#\n#####\nend\n");
    char text[2048];
    int k = snprintf(text, sizeof text, "name: B\nexit: ");
    for (int i = 0; i < 300; i++) k += snprintf(text + k, sizeof text - (size_t)k, "./");
    snprintf(text + k, sizeof text - (size_t)k, "B.lvl\nmap:\n#####\n#@.X#\n#####\nend\n");
    put_file(b, text);
    CHECK(level_load_ex(&lv, level_arena, a, root, NULL, &err, NULL));
    CHECK(!level_load_ex(&lv, level_arena, lv.exit_to, root, NULL, &err, NULL));
    char want[1024];
    snprintf(want, sizeof want, "%s:2:7: error: expected a level path of at most %d bytes once resolved", b, LEVEL_PATH_MAX - 1);
    CHECK(strncmp(err.message, want, strlen(want)) == 0);
    CHECK(strcmp(lv.name, "A") == 0); /* still A */
    snprintf(far, sizeof far, "rm -rf '%s'", dir);
    CHECK(system(far) == 0);
    st_arena_release(level_arena);
}

int main(void) {
    Arena *keep = st_arena_create((ArenaParams){.name = "test"});
    test_text_variants(keep);
    test_wide_rows(keep);
    test_row_offsets(keep);
    test_every_byte(keep);
    test_enemy_lines();
    test_binary_anywhere();
    test_sign_limits(keep);
    test_bad_fixtures(keep);
    test_file_errors(keep);
    test_arena_fit(keep);
    test_links_resolve();
    test_load_own_paths();
    test_paths_stay_inside();
    st_arena_release(keep);
    return check_result();
}
