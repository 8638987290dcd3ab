/* test_level_tiled.c - levels from the Tiled editor (.tmj, game/level/level_tiled.c), on maps the
   real Tiled 1.8.2 wrote (tests/game/tiled, regen.sh):
     - every shipped level, exported by lvl2tiled and by Tiled, loads as the same level as
       its .lvl, field by field (level_equal; exits and portals lead to the .tmj siblings),
       with external tilesets, embedded ones, and minimised;
     - flip flags are masked, a base64 layer reads as its array twin, a map with "class"
       (Tiled 1.9) instead of "type" reads the same, and each tile and object lands where
       levels/README.md says;
     - every broken map fails with its exact message, the loaded level intact;
     - the file is bounded, with its message, and a large map's scratch memory too;
     - a parse makes no heap call (the JSON is read in place, on the scratch arena);
     - a .tmj level written as .lvl (levelfmt, the editor's writer) loads back the same.
   Runs from tests/game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "heap_count.h"
#include <strata/core/base.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>
#include "level/level.h"
#include "level/level_load.h"
#include "level/level_write.h"

#define T "tiled/"

static Arena *new_level_arena(void) {
    return st_arena_create((ArenaParams){.reserve_size = 64ull << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
}

static bool load(Level *lv, Arena *a, const char *path) {
    Error err;
    if (level_load(lv, a, path, &err)) return true;
    fprintf(stderr, "%s does not load: %s\n", path, err.message);
    return false;
}

/* `written` with its .tmj turned into .lvl, resolved in lv's folder as the loader would. */
static void lvl_paths(Arena *keep, const char *written, const char *dir_of, const char **resolved, const char **out) {
    Str8 w = st_str8_cstr(written);
    if (st_str8_ends_with(w, STR8_LIT(".tmj"))) w = st_str8_fmt(keep, "%.*s.lvl", (int)(w.len - 4), w.data);
    Str8 dir = {dir_of, (uint64_t)(strrchr(dir_of, '/') ? strrchr(dir_of, '/') - dir_of + 1 : 0)};
    Str8 full = st_str8_fmt(keep, "%.*s%.*s", STR8_FMT(dir), STR8_FMT(w));
    *resolved = full.data;
    *out = full.data + dir.len;
}

/* A shallow copy of a level loaded from .tmj whose exit and portals lead to .lvl files, so
   that level_equal can compare it with the .lvl it was exported from. */
static Level as_lvl_links(Arena *keep, const Level *t) {
    Level c = *t;
    if (t->exit_written) lvl_paths(keep, t->exit_written, t->path, &c.exit_to, &c.exit_written);
    LevelLink *links = st_arena_push_array(keep, LevelLink, (uint64_t)t->link_count + 1);
    for (int32_t i = 0; i < t->link_count; i++) {
        links[i] = t->links[i];
        lvl_paths(keep, t->links[i].target_written, t->path, &links[i].target_path, &links[i].target_written);
    }
    c.links = links;
    return c;
}

static void test_shipped_levels(Arena *keep) {
    static const char *const names[] = {"01-first-steps", "02-keys-and-doors", "03-spikes-and-water", "04-patrol",
                                        "05-the-hunt",    "06-crossfire",      "07-the-vault"};
    Arena *la = new_level_arena(), *lb = new_level_arena();
    int compared = 0;
    for (size_t i = 0; i < ARRAY_COUNT(names); i++) {
        char lvl[512], tmj[512], variant[512];
        snprintf(lvl, sizeof lvl, "%s/%s.lvl", LEVELS_DIR, names[i]);
        snprintf(tmj, sizeof tmj, T "levels/%s.tmj", names[i]);
        Level a, b;
        REQUIRE_VOID(load(&a, la, lvl));
        const char *suffixes[] = {"", "-embedded", "-minimized"};
        for (int s = 0; s < 3; s++) {
            snprintf(variant, sizeof variant, T "levels/%s%s.tmj", names[i], suffixes[s]);
            FILE *f = fopen(variant, "rb");
            if (!f) continue;
            fclose(f);
            if (!load(&b, lb, variant)) {
                CHECK(!"load");
                continue;
            }
            Level c = as_lvl_links(keep, &b);
            if (!level_equal(&a, &c)) fprintf(stderr, "%s differs from %s\n", variant, lvl);
            CHECK(level_equal(&a, &c));
            CHECK(level_equal(&c, &a));
            /* The fields level_equal reads through its own rules, checked plainly too. */
            CHECK(strcmp(a.name, b.name) == 0 && a.width == b.width && a.height == b.height);
            CHECK(memcmp(a.tiles, b.tiles, (size_t)a.width * (size_t)a.height) == 0);
            CHECK(a.start_tx == b.start_tx && a.start_ty == b.start_ty && a.enemy_count == b.enemy_count);
            CHECK_EQ_U(b.arena_bytes, st_arena_pos(lb));
            compared++;
        }
        (void)tmj;
    }
    CHECK_EQ_I(compared, 9); /* seven levels, one embedded, one minimised */
    /* Following the exported exits from the first map plays through the .tmj set. */
    Level lv;
    REQUIRE_VOID(load(&lv, la, T "levels/01-first-steps.tmj"));
    int steps = 1;
    while (lv.exit_to && steps < 10) {
        CHECK(st_str8_ends_with(st_str8_cstr(lv.exit_to), STR8_LIT(".tmj")));
        if (!load(&lv, la, lv.exit_to)) break;
        steps++;
    }
    CHECK_EQ_I(steps, 4); /* 01 -> 02 -> 03 -> 04, whose way on is a portal */
    CHECK(lv.link_count == 1 && st_str8_ends_with(st_str8_cstr(lv.links[0].target_path), STR8_LIT("05-the-hunt.tmj")));
    CHECK(load(&lv, la, lv.links[0].target_path) && level_entry_find(&lv, "gate"));
    st_arena_release(la);
    st_arena_release(lb);
}

/* variants/flips.tmx: a 6x4 map whose tiles are turned every way Tiled can. */
static void check_flips(const Level *lv) {
    static const char *const rows[4] = {"######", "#...X#", "#~^..#", "######"};
    CHECK_EQ_I(lv->width, 6);
    CHECK_EQ_I(lv->height, 4);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++) {
            char c = rows[y][x];
            TileKind want = c == '#'   ? TILE_WALL
                            : c == '~' ? TILE_WATER
                            : c == '^' ? TILE_SPIKES
                            : c == 'X' ? TILE_EXIT
                                       : TILE_FLOOR;
            if (level_tile(lv, x, y) != want)
                fprintf(stderr, "tile %d %d: %d, want %d\n", x, y, level_tile(lv, x, y), want);
            CHECK(level_tile(lv, x, y) == want);
        }
    CHECK(strcmp(lv->name, "Flips & friends") == 0);
    CHECK_EQ_I(lv->bullet_cap, 32);
    CHECK_EQ_I(lv->particle_cap, LEVEL_DEFAULT_PARTICLES);
    CHECK(lv->exit_to == NULL);
    CHECK(lv->start_tx == 1 && lv->start_ty == 1); /* a rectangle: its centre (24, 24) */
    REQUIRE_VOID(lv->enemy_count == 1);            /* a point at (40, 24) */
    CHECK(lv->enemies[0].tx == 2 && lv->enemies[0].ty == 1 && lv->enemies[0].kind == ENEMY_CHASER);
    CHECK_EQ_I(lv->enemies[0].hp, 12);
    REQUIRE_VOID(lv->entry_count == 1);
    CHECK(strcmp(lv->entries[0].name, "door") == 0 && lv->entries[0].tx == 3 && lv->entries[0].ty == 2);
    REQUIRE_VOID(lv->sign_count == 1);
    CHECK(lv->signs[0].tx == 3 && lv->signs[0].ty == 1);
    CHECK(st_str8_eq_cstr(lv->signs[0].text, "Flipped tiles are the same tiles."));
    CHECK(lv->pickup_count == 0 && lv->door_count == 0 && lv->link_count == 0);
}

static char *slurp(Arena *a, const char *path, uint64_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = st_arena_push(a, (uint64_t)n + 1, 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

static Str8 replace_all(Arena *a, Str8 s, const char *from, const char *to) {
    Str8 out = {0};
    uint64_t fl = strlen(from), n = 0;
    char *buf = st_arena_push(a, s.len * 2 + 1, 1);
    for (uint64_t i = 0; i < s.len;) {
        if (i + fl <= s.len && memcmp(s.data + i, from, fl) == 0) {
            memcpy(buf + n, to, strlen(to));
            n += strlen(to);
            i += fl;
        } else {
            buf[n++] = s.data[i++];
        }
    }
    out.data = buf;
    out.len = n;
    return out;
}

static void test_variants(Arena *keep) {
    Arena *la = new_level_arena(), *lb = new_level_arena();
    Level a, b;
    REQUIRE_VOID(load(&a, la, T "variants/flips.tmj"));
    check_flips(&a);
    REQUIRE_VOID(load(&b, lb, T "variants/base64.tmj"));
    check_flips(&b);
    CHECK(level_equal(&a, &b));
    /* Tiled 1.9 writes "class" where 1.8 writes "type": the same map. */
    uint64_t len;
    char *text = slurp(keep, T "variants/flips.tmj", &len);
    REQUIRE_VOID(text);
    Str8 s = {text, len};
    static const char *const types[] = {"player", "chaser", "entry", "sign"};
    for (size_t i = 0; i < ARRAY_COUNT(types); i++) {
        char from[64], to[64];
        snprintf(from, sizeof from, "\"type\":\"%s\"", types[i]);
        snprintf(to, sizeof to, "\"class\":\"%s\"", types[i]);
        s = replace_all(keep, s, from, to);
    }
    CHECK(strstr(s.data, "\"class\":\"chaser\"") != NULL);
    Error err;
    CHECK(level_parse(&b, lb, T "variants/flips.tmj", s.data, s.len, NULL, &err, NULL));
    check_flips(&b);
    /* A BOM before the JSON is skipped, as before a .lvl. */
    Str8 bom = st_str8_fmt(keep, "\xEF\xBB\xBF%.*s", STR8_FMT(((Str8){text, len})));
    CHECK(level_parse(&b, lb, T "variants/flips.tmj", bom.data, bom.len, NULL, &err, NULL));
    check_flips(&b);
    /* The same map as .lvl text (what levelfmt and the editor write) is the same level. */
    Str8 lvl = level_write(keep, &a);
    REQUIRE_VOID(lvl.data);
    CHECK(level_parse(&b, lb, T "variants/flips.lvl", lvl.data, lvl.len, NULL, &err, NULL));
    CHECK(level_equal(&a, &b));
    st_arena_release(la);
    st_arena_release(lb);
}

/* The tile layer's ids read in runs of plain digits, and any other number as JSON reads it:
   a run broken by 5.0 or 5e0 and taken up again is the same map, and each wrong id, a
   leading zero and a count past a batch of ids say what they said before. */
static void test_tile_ids(Arena *keep) {
    Arena *la = new_level_arena();
    Level lv;
    uint64_t len;
    char *text = slurp(keep, T "variants/flips.tmj", &len);
    REQUIRE_VOID(text);
    Str8 map = {text, len};
    const char *ids = "\"data\":[5, 5, 5, 5, 5, 5, 5,";
    REQUIRE_VOID(strstr(text, ids));
    Error err;
    Str8 mixed = replace_all(keep, map, ids, "\"data\":[5.0, 5e0, 5,5 , 5E+0,\n 5, 5,");
    CHECK(level_parse(&lv, la, "mixed.tmj", mixed.data, mixed.len, NULL, &err, NULL));
    check_flips(&lv);
    static const struct {
        const char *ids, *message;
    } wrong[] = {
        {"\"data\":[5, 5, 5, 4294967296, 5, 5, 5,",
         "ids.tmj: error: layer 'ground': tile 3 0: expected a tile id from 0 to 4294967295, found 4294967296"},
        {"\"data\":[5, -5, 5, 5, 5, 5, 5,",
         "ids.tmj: error: layer 'ground': tile 1 0: expected a tile id from 0 to 4294967295, found -5"},
        {"\"data\":[5, 5, 100000000000, 5, 5, 5, 5,",
         "ids.tmj: error: layer 'ground': tile 2 0: expected a tile id from 0 to 4294967295, found 100000000000"},
        {"\"data\":[5, 5, \"5\", 5, 5, 5, 5,", "ids.tmj: error: layer 'ground': tile 2 0: expected a tile id, found a string"},
        {"\"data\":[5, 5, 5, 5, 5, 5, 0,",
         "ids.tmj: error: layer 'ground': tile 0 1: expected a tile (floor, wall, water, spikes or exit), found an empty cell"},
        {"\"data\":[5, 5, 05, 5, 5, 5, 5,", "ids.tmj:6:25: error: expected JSON (a Tiled map), found '5, 5, 5, 5, 5, 21474'"},
    };
    for (size_t i = 0; i < ARRAY_COUNT(wrong); i++) {
        Str8 t = replace_all(keep, map, ids, wrong[i].ids);
        CHECK(!level_parse(&lv, la, "ids.tmj", t.data, t.len, NULL, &err, NULL));
        if (!strstr(err.message, wrong[i].message)) {
            fprintf(stderr, "tile ids %zu:\n  got  '%s'\n  want '%s'\n", i, err.message, wrong[i].message);
            check_failures_++;
        }
    }
    /* 300 ids more than the 24 cells: counted past the batches. */
    char *more = st_arena_push(keep, 2048, 1);
    strcpy(more, ids);
    for (int i = 0; i < 300; i++) strcat(more, " 1,");
    Str8 t = replace_all(keep, map, ids, more);
    CHECK(!level_parse(&lv, la, "ids.tmj", t.data, t.len, NULL, &err, NULL));
    CHECK(strstr(err.message, "ids.tmj: error: layer 'ground': expected 24 tile ids (6x4), found 324") != NULL);
    st_arena_release(la);
}

typedef struct BadCase {
    const char *file, *message;
} BadCase;

#define TYPES "player, patroller, chaser, turret, coin, heart, key, door, portal, entry or sign"
static const BadCase bad_cases[] = {
    {"variants/infinite",
     "map: expected a map of fixed size, found an infinite one (untick Infinite in Map Properties)"},
    {"variants/zlib", "layer 'ground': expected an uncompressed layer (Tile Layer Format: CSV or Base64 "
                      "(uncompressed)), found 'zlib' compression"},
    {"bad/truncated", "32:1: error: expected JSON (a Tiled map), found end of file"},
    {"bad/not_xml", "1:1: error: expected JSON (a Tiled map), found '<?xml version=\"1.0\"?'"},
    {"bad/trailing", "154:1: error: expected end of file after the map, found '}'"},
    {"bad/not_object", "map: expected a JSON object (a Tiled map), found an array"},
    {"bad/orientation", "map: expected an orthogonal map, found 'isometric'"},
    {"bad/tile_size", "map: expected tiles of 16x16 pixels, found 32x16"},
    {"bad/too_wide", "map: expected \"width\" to be a whole number from 1 to 4096, found 5000"},
    {"bad/no_name", "map: expected a property 'name' (the level's name), found none"},
    {"bad/name_hash", "map property 'name': expected a name without '#', found 'Level #2'"},
    {"bad/unknown_map_property", "map: expected a property of the map (name exit bullets particles), found 'nmae'"},
    {"bad/properties_not_array", "map: expected \"properties\" to be an array, found an object"},
    {"bad/bullets_zero", "map property 'bullets': expected a bullet pool size from 1 to 65536, found 0"},
    {"bad/bullets_string",
     "map property 'bullets': expected property 'bullets' to be a number (type int), found a string"},
    {"bad/exit_not_level", "map property 'exit': expected a level file name ending in .lvl or .tmj, found 'next.txt'"},
    {"bad/exit_blank", "map property 'exit': expected a file name without blanks, found 'my level.tmj'"},
    {"bad/exit_control", "map property 'exit': expected a file name without control characters, found the byte 0x03"},
    {"bad/exit_missing", "map property 'exit': expected an existing level file, found 'missing.tmj' (" T
                         "bad/missing.tmj: No such file or directory)"},
    {"bad/tileset_no_firstgid", "tileset 1: expected a member \"firstgid\", found none"},
    {"bad/two_tile_layers", "layer 'more': expected one tile layer, found a second one (the first is layer 'ground')"},
    {"bad/no_tile_layer", "map: expected one tile layer (the floor, walls, water, spikes and exit), found none"},
    {"bad/group_layer",
     "layer 'grouped': expected tile and object layers at the top, found a group (Ungroup Layers in Tiled)"},
    {"bad/layer_size", "layer 'ground': expected the map's size, 6x4, found 5x4"},
    {"bad/data_count", "layer 'ground': expected 24 tile ids (6x4), found 23"},
    {"bad/empty_cell",
     "layer 'ground': tile 2 1: expected a tile (floor, wall, water, spikes or exit), found an empty cell"},
    {"bad/door_tile", "layer 'ground': tile 2 1: expected a floor, wall, water, spikes or exit tile, found tile 9 of "
                      "'tiles' (doors, portals and the rest are objects)"},
    {"bad/foreign_tile",
     "layer 'ground': tile 2 1: expected a tile of the 'tiles' tileset, found tile 2 of the tileset 'sprites'"},
    {"bad/external_other",
     "layer 'ground': tile 0 0: expected a tile of the 'tiles' tileset, found tile 4 of the tileset 'dungeon'"},
    {"bad/gid_fraction", "layer 'ground': tile 2 1: expected a tile id from 0 to 4294967295, found 1.5"},
    {"bad/gid_negative", "layer 'ground': tile 2 1: expected a tile id from 0 to 4294967295, found -1"},
    {"bad/big_gid", "layer 'ground': tile 2 1: expected a tile id from 0 to 4294967295, found 4294967296"},
    {"bad/gid_string", "layer 'ground': tile 2 1: expected a tile id, found a string"},
    {"bad/base64_char", "layer 'ground': expected base64 tile data, found the character '*'"},
    {"bad/base64_short", "layer 'ground': expected 96 bytes of tile data (6x4 tiles of 4 bytes), found 8"},
    {"bad/encoding_unknown",
     "layer 'ground': expected \"data\" as a string to have encoding base64, found encoding 'hex'"},
    {"bad/object_no_id", "object: expected a member \"id\", found none"},
    {"bad/no_type", "object 20: expected a type (or class): " TYPES ", found none"},
    {"bad/unknown_type", "object 20 'spawn': expected a type (or class): " TYPES ", found 'spawn'"},
    {"bad/class_unknown", "object 20 'goblin': expected a type (or class): " TYPES ", found 'goblin'"},
    {"bad/template",
     "object 20 'coin': expected an object without a template (Detach Template in Tiled), found 'coin.tx'"},
    {"bad/outside", "object 20 'far': expected its centre inside the map (6x4 tiles, 96x64 pixels), found 208, 40"},
    {"bad/on_wall", "object 20 'coin': expected floor under the coin at tile 0 0, found a wall"},
    {"bad/on_water", "object 20 'heart': expected floor under the heart at tile 1 2, found water"},
    {"bad/two_on_tile",
     "object 20 'coin': expected one entity on tile 1 1, found a second one (the first is object 3 'hero')"},
    {"bad/two_players", "object 20 'twin': expected one player, found a second one (the first is object 3 'hero')"},
    {"bad/no_player", "map: expected an object of type 'player' (where the level starts), found none"},
    {"bad/hp_zero", "object 20 'turret': expected hit points from 1 to 9999, found 0"},
    {"bad/hp_string", "object 20 'patroller': expected property 'hp' to be a number (type int), found a string"},
    {"bad/color_on_enemy", "object 20 'chaser': expected a property of chaser (hp), found 'color'"},
    {"bad/key_no_color", "object 20 'key': expected a property 'color' (red, green or blue) for the key, found none"},
    {"bad/key_pink", "object 20 'key': expected property 'color' to be red, green or blue, found 'pink'"},
    {"bad/portal_no_target",
     "object 21 'link': expected a property 'target' (the level file the portal leads to), found none"},
    {"bad/portal_not_level",
     "object 21 'link': expected a level file name ending in .lvl or .tmj, found '../../etc/passwd'"},
    {"bad/portal_missing", "object 21 'link': expected an existing level file, found 'nowhere.tmj' (" T
                           "bad/nowhere.tmj: No such file or directory)"},
    {"bad/portal_bad_entry", "object 21 'link': expected an entry name (letters, digits, '_' or '-'), found 'we$t'"},
    {"bad/entry_no_name", "object 20 'entry': expected a name (the entry's name, which portals lead to), found none"},
    {"bad/entry_on_wall",
     "object 20 'west': expected a walkable tile (floor or spikes) for entry 'west' at 0 1, found a wall"},
    {"bad/entry_twice", "object 20 'door': expected a new entry name, found 'door' again"},
    {"bad/sign_no_text", "object 20 'sign': expected a property 'text' (what the sign says), found none"},
    {"bad/sign_on_coin", "object 20 'sign': expected a floor tile '.' for the sign at 4 2, found a coin"},
    {"bad/sign_twice", "object 20 'sign': expected one sign at 3 1, found a second one (the first is object 9)"},
    {"bad/sign_hash", "object 20 'sign': expected a sign text without '#', found 'room #3'"},
    {"bad/sign_newline", "object 20 'sign': expected printable text on the sign, found the control character U+000A"},
    {"bad/sign_too_long", "object 20 'sign': expected a sign text of at most 96 bytes, found 97 bytes"},
    /* DEL: the .lvl text the writer made of it would be refused as binary. */
    {"bad/sign_del", "object 20 'sign': expected printable text on the sign, found the control character U+007F"},
    /* A NUL would cut the string there: refused where it stands. */
    {"bad/sign_nul", "122:21: error: expected text without U+0000 in a string, found '\\u0000'"},
    /* An escaped backslash before "u0000" is no escape of a NUL; the real one after it is. */
    {"bad/name_nul", "51:26: error: expected text without U+0000 in a string, found '\\u0000'"},
};

/* Each broken map fails with its message; the level loaded before stays as it was. */
static void test_bad(void) {
    Arena *la = new_level_arena(), *ref = new_level_arena();
    Level lv, kept, same;
    REQUIRE_VOID(load(&lv, la, T "variants/flips.tmj") && load(&same, ref, T "variants/flips.tmj"));
    kept = lv;
    uint64_t pos = st_arena_pos(la);
    int files = 0;
    for (size_t i = 0; i < ARRAY_COUNT(bad_cases); i++) {
        char path[256], want[1024];
        snprintf(path, sizeof path, T "%s.tmj", bad_cases[i].file);
        bool positioned = bad_cases[i].message[0] >= '0' && bad_cases[i].message[0] <= '9';
        snprintf(want, sizeof want, "%s:%s%s", path, positioned ? "" : " error: ", bad_cases[i].message);
        Error err;
        LevelLoadStats st = {.level_bytes = 7};
        bool ok = level_load_ex(&lv, la, path, NULL, NULL, &err, &st);
        CHECK(!ok);
        if (ok || strcmp(err.message, want) != 0) {
            fprintf(stderr, "%s:\n  got  '%s'\n  want '%s'\n", path, ok ? "(loaded)" : err.message, want);
            check_failures_++;
        }
        CHECK_EQ_U(st.level_bytes, 0);
        CHECK(memcmp(&lv, &kept, sizeof lv) == 0 && st_arena_pos(la) == pos && level_equal(&lv, &same));
        files++;
    }
    /* Every file in bad/ has its case. */
    CHECK_EQ_I(files, (int)ARRAY_COUNT(bad_cases));
    /* ... and every .tmj there has one: 66 files. */
    OsDirList bad;
    REQUIRE_VOID(st_os_list_dir(la, T "bad", &bad));
    int on_disk = 0;
    for (uint64_t i = 0; i < bad.count; i++) on_disk += st_str8_ends_with(bad.entries[i].name, STR8_LIT(".tmj"));
    CHECK_EQ_I(on_disk, 66);
    st_arena_release(la);
    st_arena_release(ref);
}

/* A map near the file's bound reads with scratch memory of a small multiple of its size
   (no tree per value: the tile layer's ids are drawn as they come); past the bound the file
   is refused unread. */
static void test_limits(Arena *keep) {
    Arena *la = new_level_arena();
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[512];
    snprintf(path, sizeof path, "%s/test_level_tiled_%d.tmj", dir, (int)getpid());
    /* A tile layer of 2048 x 2048 floor tiles as a JSON array: 8.4 MB of text. */
    FILE *f = fopen(path, "wb");
    REQUIRE_VOID(f);
    fputs("{\"type\":\"map\",\"orientation\":\"orthogonal\",\"infinite\":false,\"tilewidth\":16,\"tileheight\":16,"
          "\"width\":2048,\"height\":2048,\"properties\":[{\"name\":\"name\",\"type\":\"string\",\"value\":\"Big\"}],"
          "\"tilesets\":[{\"firstgid\":1,\"source\":\"tiles.tsx\"}],"
          "\"layers\":[{\"type\":\"objectgroup\",\"name\":\"o\",\"objects\":[{\"id\":1,\"type\":\"player\","
          "\"x\":16,\"y\":16,\"width\":16,\"height\":16}]},{\"type\":\"tilelayer\",\"name\":\"t\",\"width\":2048,"
          "\"height\":2048,\"data\":[",
          f);
    for (long i = 0; i < 2048L * 2048; i++) fputs(i ? ",1" : "1", f);
    fputs("]}]}", f);
    long file_bytes = ftell(f);
    fclose(f);
    Level lv;
    Error err;
    LevelLoadStats st = {0};
    bool ok = level_load_ex(&lv, la, path, NULL, NULL, &err, &st);
    if (!ok) fprintf(stderr, "the 2048x2048 map does not load: %s\n", err.message);
    CHECK(ok);
    CHECK_EQ_I(lv.width, 2048);
    printf("2048x2048 map: file %ld bytes, scratch peak %llu bytes (%.1fx)\n", file_bytes,
           (unsigned long long)st.scratch_peak, (double)st.scratch_peak / (double)file_bytes);
    CHECK(st.scratch_peak <= 8 * (uint64_t)file_bytes); /* the file, the grid and who stands where */
    /* Past 16 MiB the file is not even read. */
    f = fopen(path, "ab");
    REQUIRE_VOID(f);
    for (int i = 0; i < 900000; i++) fputs("          ", f);
    fclose(f);
    CHECK(!level_load(&lv, la, path, &err));
    CHECK(strstr(err.message, "error: expected a level file of at most 16777216 bytes, found") != NULL);
    remove(path);
    (void)keep;
    st_arena_release(la);
}

/* The reader allocates only from the loader's scratch arena: a whole load, parse included,
   makes no heap call. */
static void test_no_heap(void) {
#if HEAP_COUNT
    Arena *la = new_level_arena();
    Level lv;
    Error err;
    CHECK(level_load(&lv, la, T "levels/07-the-vault.tmj", &err)); /* scratch arenas made */
    heap_calls = 0;
    heap_counting = 1;
    for (int i = 0; i < 3; i++) {
        CHECK(level_load(&lv, la, T "levels/07-the-vault.tmj", &err));
        CHECK(level_load(&lv, la, T "variants/base64.tmj", &err));
        CHECK(!level_load(&lv, la, T "bad/truncated.tmj", &err));
    }
    heap_counting = 0;
    CHECK_EQ_U(heap_calls, 0);
    printf("heap calls in 9 .tmj loads: %llu\n", (unsigned long long)heap_calls);
    st_arena_release(la);
#else
    printf("heap count: not under AddressSanitizer, which owns malloc\n");
#endif
}

int main(void) {
    Arena *keep = st_arena_create((ArenaParams){.name = "test"});
    test_shipped_levels(keep);
    test_variants(keep);
    test_tile_ids(keep);
    test_bad();
    test_no_heap();
    test_limits(keep);
    st_arena_release(keep);
    return check_result();
}
