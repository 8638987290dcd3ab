/* fuzz_level.c - libFuzzer target for the level parser (tests/fuzz/run.sh builds and runs it),
   on .lvl text, or built with a FUZZ_LEVEL_PATH ending in .tmj, on Tiled JSON maps.

   Beyond "no crash, no leak, no hang" it checks the loader's promises on every input:
     - a failed parse leaves the loaded level (a known-good one) and the arena untouched, and
       its message starts with "path:" and carries ": error: ";
     - a successful parse is self-consistent: st_arena_pos == arena_bytes == the measured need,
       with the simulation's runtime state as its room (sim_runtime_bytes, as the game loads
       it), that room zeroed and aligned; every tile is a TileKind, every entity stands where
       the format says it may, every sign's text is what the format allows, and every exit
       and link names a level file by a path shorter than LEVEL_PATH_MAX;
     - a successful parse survives the canonical writer: level_write's text parses back to an
       equal level (level_equal) whose text is the same again, so the editor and levelfmt
       can never turn a level that loads into a different one.
   A broken promise traps, which libFuzzer reports as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "level/level.h"
#include "level/level_load.h"
#include "level/level_write.h"
#include "rules/sim.h"
#include "fuzz.h"

#ifndef FUZZ_LEVEL_DIR /* run.sh passes a scratch copy of levels/ */
#define FUZZ_LEVEL_DIR "levels"
#endif
#ifndef FUZZ_LEVEL_PATH /* ending in .tmj, the input is a Tiled map (run.sh's tmj target) */
#define FUZZ_LEVEL_PATH "levels/fuzz.lvl"
#endif
#ifndef FUZZ_TEXT_PATH /* where the round trip's .lvl text claims to be: the same folder */
#define FUZZ_TEXT_PATH "levels/fuzz.lvl"
#endif

static const char good_text[] = "name: base\nbullets: 8\nparticles: 8\nmap:\n#######\n#@.p.>#\n#$~R^X#\n#######\nend\n"
                                "enemy 3 1 hp=7\nlink 5 1 fuzz_target.lvl\nentry a 2 1\nsign 2 1 Hello, (world) 100%\n";

static Arena *arena, *text_arena, *again_arena;
static Level base;

static LevelRoom base_room;

static uint64_t hash_bytes(uint64_t h, const void *p, uint64_t n) {
    const uint8_t *b = p;
    for (uint64_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static uint64_t hash_str(uint64_t h, const char *s) { return s ? hash_bytes(h, s, strlen(s) + 1) : hash_bytes(h, "", 0) + 1; }

static uint64_t level_hash(const Level *lv) {
    uint64_t h = 14695981039346656037ull;
    h = hash_bytes(h, lv, sizeof *lv);
    h = hash_str(h, lv->name);
    h = hash_str(h, lv->path);
    h = hash_str(h, lv->exit_to);
    h = hash_bytes(h, lv->tiles, (uint64_t)lv->width * (uint64_t)lv->height);
    if (lv->enemy_count) h = hash_bytes(h, lv->enemies, sizeof(EnemySpawn) * (uint64_t)lv->enemy_count);
    if (lv->pickup_count) h = hash_bytes(h, lv->pickups, sizeof(Pickup) * (uint64_t)lv->pickup_count);
    if (lv->door_count) h = hash_bytes(h, lv->doors, sizeof(LevelDoor) * (uint64_t)lv->door_count);
    for (int32_t i = 0; i < lv->link_count; i++)
        h = hash_str(hash_str(h, lv->links[i].target_path), lv->links[i].entry);
    for (int32_t i = 0; i < lv->entry_count; i++) h = hash_str(h, lv->entries[i].name);
    for (int32_t i = 0; i < lv->sign_count; i++)
        h = hash_str(hash_bytes(h, &lv->signs[i].tx, 2 * sizeof(int32_t)), lv->signs[i].text.data);
    return h;
}

static void load_base(void) {
    /* The base level links to a file next to it: make sure there is one. */
    FILE *f = fopen(FUZZ_LEVEL_DIR "/fuzz_target.lvl", "wb");
    if (f) {
        fputs(good_text, f);
        fclose(f);
    }
    Error err;
    base_room = (LevelRoom){.bytes = sim_runtime_bytes};
    if (!level_parse(&base, arena, FUZZ_LEVEL_DIR "/fuzz_base.lvl", good_text, sizeof good_text - 1, &base_room, &err,
                     NULL)) {
        fprintf(stderr, "%s\n", err.message);
        __builtin_trap();
    }
}

static void check_level(const Level *lv, const LevelLoadStats *st, const LevelRoom *room) {
    PROMISE(lv->arena_bytes == st_arena_pos(arena) && lv->arena_bytes == st->level_bytes);
    PROMISE(room->size == sim_runtime_bytes(lv) && room->block && (uintptr_t)room->block % LEVEL_ROOM_ALIGN == 0);
    for (uint64_t i = 0; i < room->size; i++) PROMISE(((const uint8_t *)room->block)[i] == 0);
    PROMISE(lv->width >= 1 && lv->width <= LEVEL_MAX_SIDE && lv->height >= 1 && lv->height <= LEVEL_MAX_SIDE);
    uint64_t portals = 0;
    for (int64_t i = 0; i < (int64_t)lv->width * lv->height; i++) {
        PROMISE(lv->tiles[i] < TILE_KIND_COUNT);
        portals += lv->tiles[i] == TILE_PORTAL;
    }
    PROMISE(portals == (uint64_t)lv->link_count);
    PROMISE(level_tile(lv, lv->start_tx, lv->start_ty) == TILE_FLOOR);
    PROMISE(lv->name && lv->name[0] && lv->path);
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const EnemySpawn *e = &lv->enemies[i];
        PROMISE(level_tile(lv, e->tx, e->ty) == TILE_FLOOR && e->kind < ENEMY_KIND_COUNT);
        PROMISE(e->hp >= 0 && e->hp <= 9999); /* 0: none given, the kind's default */
        PROMISE(sim_enemy_hp(e) >= 1);
    }
    for (int32_t i = 0; i < lv->pickup_count; i++)
        PROMISE(level_tile(lv, lv->pickups[i].tx, lv->pickups[i].ty) == TILE_FLOOR);
    for (int32_t i = 0; i < lv->door_count; i++) {
        PROMISE(level_tile(lv, lv->doors[i].tx, lv->doors[i].ty) == TILE_DOOR);
        PROMISE(level_door_at(lv, lv->doors[i].tx, lv->doors[i].ty) == &lv->doors[i]);
    }
    for (int32_t i = 0; i < lv->link_count; i++) {
        PROMISE(level_tile(lv, lv->links[i].tx, lv->links[i].ty) == TILE_PORTAL && lv->links[i].target_path);
        PROMISE(level_link_at(lv, lv->links[i].tx, lv->links[i].ty) == &lv->links[i]);
    }
    for (int32_t i = 0; i < lv->entry_count; i++) {
        TileKind t = level_tile(lv, lv->entries[i].tx, lv->entries[i].ty);
        PROMISE((t == TILE_FLOOR || t == TILE_SPIKES) && level_entry_find(lv, lv->entries[i].name));
    }
    /* Signs stand on floor, one per tile, with 1 to LEVEL_SIGN_TEXT_MAX bytes of text that
       is NUL-terminated and holds no '#', tab or line end. */
    PROMISE(lv->sign_count >= 0 && lv->sign_count <= LEVEL_MAX_SIGNS && (lv->sign_count == 0 || lv->signs));
    for (int32_t i = 0; i < lv->sign_count; i++) {
        const LevelSign *g = &lv->signs[i];
        PROMISE(level_tile(lv, g->tx, g->ty) == TILE_FLOOR);
        PROMISE(g->text.len >= 1 && g->text.len <= LEVEL_SIGN_TEXT_MAX && g->text.data[g->text.len] == '\0');
        PROMISE(memchr(g->text.data, '#', g->text.len) == NULL && memchr(g->text.data, '\t', g->text.len) == NULL &&
                memchr(g->text.data, '\n', g->text.len) == NULL && memchr(g->text.data, '\r', g->text.len) == NULL);
        PROMISE(g->text.data[0] != ' ' && g->text.data[g->text.len - 1] != ' ');
        for (int32_t j = 0; j < i; j++) PROMISE(lv->signs[j].tx != g->tx || lv->signs[j].ty != g->ty);
    }
    /* Exits and links lead to level files, by paths that fit every buffer that copies them. */
    for (int32_t i = -1; i < lv->link_count; i++) {
        const char *q = i < 0 ? lv->exit_to : lv->links[i].target_path;
        if (!q) continue;
        size_t n = strlen(q), e = sizeof LEVEL_FILE_EXT - 1;
        PROMISE(n < LEVEL_PATH_MAX && n > e &&
                (strcmp(q + n - e, LEVEL_FILE_EXT) == 0 || strcmp(q + n - e, LEVEL_TILED_EXT) == 0));
    }
    PROMISE(lv->bullet_cap >= 1 && lv->particle_cap >= 1);
}

/* Write, parse, write: the same level, the same text. */
static void check_round_trip(const Level *lv) {
    st_arena_clear(text_arena);
    Str8 text = level_write(text_arena, lv);
    PROMISE(text.len > 0);
    Level back;
    Error err;
    bool ok = level_parse(&back, again_arena, FUZZ_TEXT_PATH, (const char *)text.data, text.len, NULL, &err, NULL);
    if (!ok) fprintf(stderr, "canonical text does not parse: %s\n%.*s\n", err.message, (int)text.len, text.data);
    PROMISE(ok);
    PROMISE(level_equal(lv, &back));
    Str8 text2 = level_write(text_arena, &back);
    PROMISE(st_str8_eq(text, text2));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!arena) {
        arena = st_arena_create((ArenaParams){.reserve_size = 64ull << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
        text_arena = st_arena_create((ArenaParams){.name = "text"});
        again_arena = st_arena_create((ArenaParams){.reserve_size = 64ull << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "again"});
        load_base();
    }
    uint64_t before = level_hash(&base), pos = st_arena_pos(arena);
    Level lv = base;
    LevelRoom room = base_room;
    Error err;
    LevelLoadStats st;
    if (level_parse(&lv, arena, FUZZ_LEVEL_PATH, (const char *)data, size, &room, &err, &st)) {
        check_level(&lv, &st, &room);
        check_round_trip(&lv);
        load_base();
    } else {
        PROMISE(memcmp(&lv, &base, sizeof lv) == 0 && memcmp(&room, &base_room, sizeof room) == 0);
        PROMISE(level_hash(&base) == before && st_arena_pos(arena) == pos);
        for (uint64_t i = 0; i < base_room.size; i++) PROMISE(((const uint8_t *)base_room.block)[i] == 0);
        PROMISE(strncmp(err.message, FUZZ_LEVEL_PATH ":", strlen(FUZZ_LEVEL_PATH) + 1) == 0);
        PROMISE(strstr(err.message, ": error: ") != NULL);
    }
    return 0;
}
