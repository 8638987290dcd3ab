/* level_tiled.c - a Tiled JSON map (.tmj) into the loader's Parser (level_tiled.h).

   The reader draws the map as a .lvl map is drawn: one character per tile ('.', '#', '~',
   '^', 'X' from the tile layer, then '@', 'p', '$', 'R', '>'... where the objects stand),
   and hands the rows to the same conversion as a .lvl map. What a .lvl map cannot express
   wrongly and a Tiled map can (an object off the map, two objects on one tile, a coin on a
   wall, an empty cell, a flipped or foreign tile) is checked here, on the way to the rows;
   the rest (names, files, entries, signs, hit points, pool sizes) by level_parse.c's
   checks, with the object named in the message instead of a line and column. */
#include "level/level_tiled.h"

#include "level/level_json.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../assets/atlas.h"
#include <strata/core/base.h>
#include <strata/core/chunk_list.h>
#include <strata/core/path.h>
#include <strata/core/str8.h>

/* ---- Values ---------------------------------------------------------------------------- */

/* A value of the map's JSON, with the text it is in. */
typedef struct Json {
    const LevelJson *j;
    LevelJsonValue v;
} Json;

static LevelJsonKind kind_of(Json v) { return level_json_kind(v.j, v.v); }
static bool is_none(Json v) { return kind_of(v) == LEVEL_JSON_NONE; }
static bool is_number(Json v) { return kind_of(v) == LEVEL_JSON_NUMBER; }
static bool is_string(Json v) { return kind_of(v) == LEVEL_JSON_STRING; }
static bool is_array(Json v) { return kind_of(v) == LEVEL_JSON_ARRAY; }
static bool is_object(Json v) { return kind_of(v) == LEVEL_JSON_OBJECT; }
static double number_of(Json v) { return level_json_number(v.j, v.v); }

static LevelJsonIter iter_of(Json v) { return level_json_iter(v.j, v.v); }
static bool iter_next(LevelJsonIter *it, Json *out) {
    out->j = it->j;
    return level_json_next(it, &out->v);
}
#define JSON_FOR_EACH(it, v, of) for (LevelJsonIter it = iter_of(of); iter_next(&it, &(v));)

/* ---- Errors ----------------------------------------------------------------------------- */

/* Fails with "path: error: WHERE: message", WHERE being p->where (the map, a layer, an
   object...). */
static bool tfail(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool tfail(Parser *p, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return level_fail(p->err, p->path, 0, 0, "%s: %s", p->where ? p->where : "map", msg);
}

/* An arena refused: "WHERE: expected <what>, found <the refusal>", ERROR_OUT_OF_MEMORY. */
static bool tfail_memory(Parser *p, const char *what) {
    tfail(p, "expected %s, found ", what);
    return st_arena_error(p->err);
}

static const char *json_kind(Json v) {
    switch (kind_of(v)) {
    case LEVEL_JSON_NONE: return "none";
    case LEVEL_JSON_STRING: return "a string";
    case LEVEL_JSON_NUMBER: return "a number";
    case LEVEL_JSON_TRUE:
    case LEVEL_JSON_FALSE: return "a boolean";
    case LEVEL_JSON_NULL: return "null";
    case LEVEL_JSON_ARRAY: return "an array";
    case LEVEL_JSON_OBJECT: return "an object";
    }
    return "something else";
}

static const char *where_fmt(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *where_fmt(Parser *p, const char *fmt, ...) {
    char buf[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return st_arena_strdup(p->tmp, buf); /* NULL when full: then errors say "map" */
}

/* ---- Members ---------------------------------------------------------------------------- */

static Json member(Json obj, const char *key) {
    Json m = {obj.j, {0, 0}};
    level_json_members(obj.j, obj.v, &key, 1, &m.v);
    return m;
}

/* The members named keys[0..n) of obj, in one walk: an object of the map asks for many. */
static void members(Json obj, const char *const *keys, uint32_t n, Json *out) {
    LevelJsonValue v[16];
    level_json_members(obj.j, obj.v, keys, n, v);
    for (uint32_t i = 0; i < n; i++) out[i] = (Json){obj.j, v[i]};
}

/* A whole number in [lo, hi]: JSON numbers are doubles, so this reads the double (a flipped
   tile id is past INT32_MAX). */
static bool whole_number(Json v, int64_t lo, int64_t hi, int64_t *out) {
    if (!is_number(v)) return false;
    double d = number_of(v);
    if (!(d >= (double)lo && d <= (double)hi)) return false; /* NaN and infinities too */
    int64_t i = (int64_t)d;
    if ((double)i != d) return false;
    *out = i;
    return true;
}

/* Member v (named key) as a whole number in [lo, hi]; `dflt` when it is missing, or an
   error when `required`. */
static bool get_int(Parser *p, Json v, const char *key, bool required, int64_t dflt, int64_t lo, int64_t hi,
                    int64_t *out) {
    if (is_none(v)) {
        if (required) return tfail(p, "expected a member \"%s\", found none", key);
        *out = dflt;
        return true;
    }
    if (whole_number(v, lo, hi, out)) return true;
    if (is_number(v))
        return tfail(p, "expected \"%s\" to be a whole number from %lld to %lld, found %.17g", key, (long long)lo,
                     (long long)hi, number_of(v));
    return tfail(p, "expected \"%s\" to be a number, found %s", key, json_kind(v));
}

static bool string_of(Parser *p, Json v, Str8 *out) {
    return level_json_string(v.j, v.v, p->tmp, out) || tfail_memory(p, "scratch memory for a string");
}

/* Member v (named key) as a string; empty when missing and not `required`. */
static bool get_str(Parser *p, Json v, const char *key, bool required, Str8 *out) {
    *out = (Str8){"", 0};
    if (is_none(v)) return required ? tfail(p, "expected a member \"%s\", found none", key) : true;
    if (!is_string(v)) return tfail(p, "expected \"%s\" to be a string, found %s", key, json_kind(v));
    return string_of(p, v, out);
}

static bool get_bool(Parser *p, Json v, const char *key, bool *out) {
    *out = false;
    if (is_none(v)) return true;
    if (kind_of(v) != LEVEL_JSON_TRUE && kind_of(v) != LEVEL_JSON_FALSE)
        return tfail(p, "expected \"%s\" to be true or false, found %s", key, json_kind(v));
    *out = kind_of(v) == LEVEL_JSON_TRUE;
    return true;
}

/* ---- Custom properties ------------------------------------------------------------------ */

static const char *const prop_keys[2] = {"name", "value"};

/* Tiled writes custom properties as [{"name": ..., "type": ..., "value": ...}, ...]. Each
   name must be one of `allowed` (a space-separated list): a misspelt property is an error,
   not a silent default. */
static bool props_check(Parser *p, Json props, const char *allowed, const char *what) {
    if (is_none(props)) return true;
    if (!is_array(props)) return tfail(p, "expected \"properties\" to be an array, found %s", json_kind(props));
    Json prop;
    JSON_FOR_EACH(it, prop, props) {
        Json m[2];
        members(prop, prop_keys, 2, m);
        if (!is_string(m[0]) || is_none(m[1]))
            return tfail(p, "expected each property to have a \"name\" and a \"value\", found one without");
        Str8 n, list = st_str8_cstr(allowed);
        if (!string_of(p, m[0], &n)) return false;
        bool known = false;
        for (Str8 rest = list, w; !known && st_str8_next_token(&rest, ' ', &w);) known = st_str8_eq(w, n);
        if (!known) {
            if (!allowed[0]) return tfail(p, "expected no custom property on %s, found '%s'", what, QUOTE(n));
            return tfail(p, "expected a property of %s (%s), found '%s'", what, allowed, QUOTE(n));
        }
    }
    return true;
}

/* The value of the property `name` in props (checked by props_check), or none. */
static Json prop_value(Parser *p, Json props, const char *name) {
    Json prop;
    JSON_FOR_EACH(it, prop, props) {
        Json m[2];
        Str8 n;
        members(prop, prop_keys, 2, m);
        if (is_string(m[0]) && string_of(p, m[0], &n) && st_str8_eq_cstr(n, name)) return m[1];
    }
    return (Json){props.j, {UINT32_MAX, 0}};
}

static bool prop_int(Parser *p, Json props, const char *name, int64_t *out, bool *found) {
    Json v = prop_value(p, props, name);
    *found = !is_none(v);
    if (!*found) return true;
    if (whole_number(v, INT32_MIN, INT32_MAX, out)) return true;
    if (is_number(v)) return tfail(p, "expected property '%s' to be a whole number, found %.17g", name, number_of(v));
    return tfail(p, "expected property '%s' to be a number (type int), found %s", name, json_kind(v));
}

/* A string property, trimmed (a .lvl value is); empty when missing. */
static bool prop_str(Parser *p, Json props, const char *name, Str8 *out) {
    Json v = prop_value(p, props, name);
    *out = (Str8){"", 0};
    if (is_none(v)) return true;
    if (!is_string(v)) return tfail(p, "expected property '%s' to be a string, found %s", name, json_kind(v));
    if (!string_of(p, v, out)) return false;
    *out = st_str8_trim(*out);
    return true;
}

/* What a .lvl line can hold, so that the level writes back as .lvl (level_write.h): no '#'
   (a .lvl comment) anywhere, no blank or control character inside a file name (.lvl splits
   words at blanks, and its binary check refuses control characters; a name's and a sign's
   are refused by their own checks, level_parse.c). */
static bool check_lvl_text(Parser *p, Str8 s, const char *what, bool is_word) {
    for (uint64_t i = 0; i < s.len; i++) {
        uint8_t c = (uint8_t)s.data[i];
        if (is_word && c != '\t' && (c < 0x20 || c == 0x7f))
            return tfail(p, "expected %s without control characters, found the byte 0x%02X", what, (unsigned)c);
        if (s.data[i] == '#') return tfail(p, "expected %s without '#', found '%s'", what, QUOTE(s));
        if (is_word && (s.data[i] == ' ' || s.data[i] == '\t'))
            return tfail(p, "expected %s without blanks, found '%s'", what, QUOTE(s));
    }
    return true;
}

/* A level file named by a property (the map's exit, a portal's target). */
static bool prop_file(Parser *p, Json props, const char *name, LevelRef *out, bool *found) {
    Str8 file;
    if (!prop_str(p, props, name, &file)) return false;
    *found = file.len != 0;
    if (!file.len) return true;
    return check_lvl_text(p, file, "a file name", true) && level_resolve_file(p, file, out);
}

/* ---- Tilesets and tiles ----------------------------------------------------------------- */

#define GID_FLAGS 0xF0000000u /* flips, diagonal flip, hexagonal rotation: where a tile is turned */
#define GID_MASK 0x0FFFFFFFu

typedef struct Tileset {
    int64_t firstgid;
    Str8 name;     /* embedded: its "name"; external: its file's base name without extension */
    bool is_tiles; /* named 'tiles': the one tileset whose tiles mean terrain */
} Tileset;

#define TILES_LUT 256 /* the ids a map of one 'tiles' tileset uses, and more */

typedef struct Tiles {
    Tileset *sets;
    uint32_t count;
    char lut[TILES_LUT]; /* the terrain of the global ids below TILES_LUT; 0: ask tile_char */
} Tiles;

/* The tileset a global tile id belongs to: the one with the largest firstgid at most gid. */
static const Tileset *tileset_of(const Tiles *t, uint32_t gid) {
    const Tileset *best = NULL;
    for (uint32_t i = 0; i < t->count; i++)
        if (t->sets[i].firstgid <= gid && (!best || t->sets[i].firstgid > best->firstgid)) best = &t->sets[i];
    return best;
}

static bool read_tilesets(Parser *p, Json root, Tiles *t) {
    p->where = "map";
    Json sets = member(root, "tilesets"), s;
    if (is_none(sets)) return true;
    if (!is_array(sets)) return tfail(p, "expected \"tilesets\" to be an array, found %s", json_kind(sets));
    JSON_FOR_EACH(it, s, sets) t->count++;
    t->sets = st_arena_push_array(p->tmp, Tileset, t->count ? t->count : 1);
    if (!t->sets) return tfail_memory(p, "scratch memory");
    uint32_t i = 0;
    static const char *const keys[3] = {"firstgid", "source", "name"};
    JSON_FOR_EACH(it, s, sets) {
        p->where = where_fmt(p, "tileset %u", i + 1);
        if (!is_object(s)) return tfail(p, "expected an object, found %s", json_kind(s));
        Json m[3];
        members(s, keys, 3, m);
        Tileset *ts = &t->sets[i++];
        if (!get_int(p, m[0], "firstgid", true, 0, 1, GID_MASK, &ts->firstgid)) return false;
        Str8 source;
        if (!get_str(p, m[1], "source", false, &source)) return false;
        if (source.len) {
            /* An external tileset (.tsx or .tsj): what a tile means depends only on its index
               in the tileset, and the tileset is known by its file's name, so the file is not
               read. */
            Str8 base = st_path_base_name(source);
            int64_t dot = -1;
            for (uint64_t k = 0; k < base.len; k++)
                if (base.data[k] == '.') dot = (int64_t)k;
            ts->name = dot > 0 ? st_str8_prefix(base, (uint64_t)dot) : base;
        } else if (!get_str(p, m[2], "name", true, &ts->name)) {
            return false;
        }
        ts->is_tiles = st_str8_eq_cstr(ts->name, "tiles");
    }
    return true;
}

/* The terrain of each tile of the 'tiles' tileset (assets/tiles.png, atlas.h), as the .lvl
   map's character; 0 for a tile that is not terrain: doors and portals are objects. */
static char terrain_char(uint32_t local) {
    switch (local) {
    case TS_FLOOR_0:
    case TS_FLOOR_1:
    case TS_FLOOR_2:
    case TS_FLOOR_3:
    case TS_FLOOR_CRACKED: return '.';
    case TS_WALL:
    case TS_WALL_FACE: return '#';
    case TS_WATER_0:
    case TS_WATER_1: return '~';
    case TS_SPIKES:
    case TS_SPIKES_DOWN: return '^';
    case TS_EXIT: return 'X';
    default: return 0;
    }
}

/* ---- The tile layer --------------------------------------------------------------------- */

static int8_t base64_value(uint8_t c) {
    if (c >= 'A' && c <= 'Z') return (int8_t)(c - 'A');
    if (c >= 'a' && c <= 'z') return (int8_t)(c - 'a' + 26);
    if (c >= '0' && c <= '9') return (int8_t)(c - '0' + 52);
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Base64 (blanks skipped, '=' padding at the end) into out[0..cap); the decoded length in
   *n, or false on a character outside the alphabet or more than cap bytes. */
static bool base64_decode(Str8 s, uint8_t *out, uint64_t cap, uint64_t *n, char *bad) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int8_t value[256];
    memset(value, -1, sizeof value);
    for (int k = 0; k < 64; k++) value[(uint8_t)alphabet[k]] = (int8_t)k;
    const uint8_t *u = (const uint8_t *)s.data;
    uint64_t i = 0, len = 0;
    /* Four characters to three bytes by the table while they are all of the alphabet (a
       layer Tiled wrote is, to its padding); from the first blank, '=' or stray character,
       one at a time below, from the same state (no bits pending at a group's end). */
    for (; i + 4 <= s.len && len + 3 <= cap; i += 4, len += 3) {
        int32_t a = value[u[i]], b = value[u[i + 1]], c = value[u[i + 2]], d = value[u[i + 3]];
        if ((a | b | c | d) < 0) break;
        uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
        out[len] = (uint8_t)(v >> 16), out[len + 1] = (uint8_t)(v >> 8), out[len + 2] = (uint8_t)v;
    }
    uint32_t acc = 0;
    int bits = 0;
    bool padded = false;
    for (; i < s.len; i++) {
        uint8_t c = (uint8_t)s.data[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') {
            padded = true;
            continue;
        }
        int8_t v = base64_value(c);
        if (v < 0 || padded) {
            *bad = (char)c;
            return false;
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (len == cap) {
                *n = cap + 1;
                return true;
            }
            out[len++] = (uint8_t)(acc >> bits);
        }
    }
    *n = len;
    return true;
}

/* The terrain of each small global id, known once per map instead of per tile: the
   tileset it falls in and what its tile is. An id that is not terrain keeps 0, and
   tile_char says why. */
static void tiles_lut(Tiles *t) {
    for (uint32_t gid = 1; gid < TILES_LUT; gid++) {
        const Tileset *ts = tileset_of(t, gid);
        t->lut[gid] = ts && ts->is_tiles ? terrain_char(gid - (uint32_t)ts->firstgid) : 0;
    }
}

/* One global tile id of the layer into the map's character at (x, y). */
static bool tile_char(Parser *p, const Tiles *t, uint64_t raw, int32_t x, int32_t y, char *out) {
    uint32_t gid = (uint32_t)raw & GID_MASK; /* a turned tile is the same tile */
    if (gid == 0)
        return tfail(p, "tile %d %d: expected a tile (floor, wall, water, spikes or exit), found an empty cell", x, y);
    const Tileset *ts = tileset_of(t, gid);
    if (!ts)
        return tfail(p, "tile %d %d: expected a tile of the 'tiles' tileset, found tile id %u of no tileset", x, y,
                     gid);
    uint32_t local = gid - (uint32_t)ts->firstgid;
    if (!ts->is_tiles)
        return tfail(p, "tile %d %d: expected a tile of the 'tiles' tileset, found tile %u of the tileset '%s'", x, y,
                     local, QUOTE(ts->name));
    char c = terrain_char(local);
    if (!c)
        return tfail(p,
                     "tile %d %d: expected a floor, wall, water, spikes or exit tile, found tile %u of 'tiles' "
                     "(doors, portals and the rest are objects)",
                     x, y, local);
    *out = c;
    return true;
}

/* Tile ids into the map's characters from grid[i]: the table for most, tile_char for the
   rest (and for its error). */
static bool tile_chars(Parser *p, const Tiles *t, const uint32_t *raw, uint32_t n, char *grid, uint64_t i, int64_t w) {
    for (uint32_t k = 0; k < n; k++, i++) {
        char c = raw[k] < TILES_LUT ? t->lut[raw[k]] : 0;
        if (!c && !tile_char(p, t, raw[k], (int32_t)(i % (uint64_t)w), (int32_t)(i / (uint64_t)w), &c)) return false;
        grid[i] = c;
    }
    return true;
}

/* An element that is not plain digits (1.0, 1e2, -1, a string...): as JSON reads it. */
static bool tile_element(Parser *p, Json v, const Tiles *t, char *grid, uint64_t i, int64_t w) {
    int64_t raw;
    int32_t x = (int32_t)(i % (uint64_t)w), y = (int32_t)(i / (uint64_t)w);
    if (!whole_number(v, 0, UINT32_MAX, &raw)) {
        if (is_number(v))
            return tfail(p, "tile %d %d: expected a tile id from 0 to 4294967295, found %.17g", x, y, number_of(v));
        return tfail(p, "tile %d %d: expected a tile id, found %s", x, y, json_kind(v));
    }
    return tile_char(p, t, (uint64_t)raw, x, y, &grid[i]);
}

/* The tile ids of a layer as a JSON array into the rows: read in batches of plain numbers
   and drawn as they come, without a copy of the array. */
static bool read_tile_array(Parser *p, Json data, const Tiles *t, char *grid, int64_t w, int64_t h) {
    uint64_t cells = (uint64_t)w * (uint64_t)h, i = 0;
    uint32_t raw[256];
    Json v = {data.j, {0, 0}};
    LevelJsonIter it = iter_of(data);
    for (;;) {
        uint32_t n = level_json_next_uints(&it, raw, 256);
        uint32_t take = (uint64_t)n < cells - i ? n : (uint32_t)(cells - i);
        if (!tile_chars(p, t, raw, take, grid, i, w)) return false;
        i += n;
        if (i > cells) break;
        if (n == 256) continue;
        if (!iter_next(&it, &v)) break;
        if (i == cells) {
            i++;
            break;
        }
        if (!tile_element(p, v, t, grid, i, w)) return false;
        i++;
    }
    if (i > cells) /* for the count in the message */
        for (uint32_t n; (n = level_json_next_uints(&it, raw, 256)) || iter_next(&it, &v);) i += n ? n : 1;
    if (i != cells)
        return tfail(p, "expected %llu tile ids (%lldx%lld), found %llu", (unsigned long long)cells, (long long)w,
                     (long long)h, (unsigned long long)i);
    return true;
}

/* The layer's tiles into the rows (width * height characters, row-major). Not inlined:
   inlined into read_map, GCC 12 keeps the base64 loop's state on the stack, 13 instructions
   more a tile at 1024x1024 (callgrind, tools/level_ir.sh). */
__attribute__((noinline)) static bool read_tile_layer(Parser *p, Json layer, const Tiles *t, char *grid) {
    enum { L_WIDTH, L_HEIGHT, L_CHUNKS, L_DATA, L_ENCODING, L_COMPRESSION, L_COUNT };
    static const char *const keys[L_COUNT] = {"width", "height", "chunks", "data", "encoding", "compression"};
    Json m[L_COUNT];
    members(layer, keys, L_COUNT, m);
    int64_t w = 0, h = 0;
    if (!get_int(p, m[L_WIDTH], "width", true, 0, 1, LEVEL_MAX_SIDE, &w) ||
        !get_int(p, m[L_HEIGHT], "height", true, 0, 1, LEVEL_MAX_SIDE, &h))
        return false;
    if (w != p->width || h != p->height)
        return tfail(p, "expected the map's size, %dx%d, found %lldx%lld", p->width, p->height, (long long)w,
                     (long long)h);
    if (!is_none(m[L_CHUNKS])) return tfail(p, "expected \"data\", found \"chunks\" (an infinite map's layer)");
    uint64_t cells = (uint64_t)w * (uint64_t)h;
    Json data = m[L_DATA];
    Str8 encoding, compression, text;
    if (!get_str(p, m[L_ENCODING], "encoding", false, &encoding) ||
        !get_str(p, m[L_COMPRESSION], "compression", false, &compression))
        return false;
    if (compression.len)
        return tfail(p,
                     "expected an uncompressed layer (Tile Layer Format: CSV or Base64 (uncompressed)), found "
                     "'%s' compression",
                     QUOTE(compression));
    if (is_none(data)) return tfail(p, "expected a member \"data\", found none");
    if (is_array(data)) {
        if (encoding.len && !st_str8_eq_cstr(encoding, "csv"))
            return tfail(p, "expected an array of tile ids with encoding csv, found encoding '%s'", QUOTE(encoding));
        return read_tile_array(p, data, t, grid, w, h);
    }
    if (!is_string(data))
        return tfail(p, "expected \"data\" to be an array or a base64 string, found %s", json_kind(data));
    if (!st_str8_eq_cstr(encoding, "base64"))
        return tfail(p, "expected \"data\" as a string to have encoding base64, found encoding '%s'", QUOTE(encoding));
    if (!string_of(p, data, &text)) return false;
    uint8_t *bytes = st_arena_push_raw(p->tmp, cells * 4, 4);
    if (!bytes) return tfail_memory(p, "scratch memory for the tiles");
    uint64_t n;
    char bad = 0;
    if (!base64_decode(text, bytes, cells * 4, &n, &bad))
        return tfail(p, "expected base64 tile data, found the character '%s'", QUOTE(st_str8_make(&bad, 1)));
    if (n != cells * 4)
        return tfail(p, "expected %llu bytes of tile data (%lldx%lld tiles of 4 bytes), found %s%llu",
                     (unsigned long long)cells * 4, (long long)w, (long long)h, n > cells * 4 ? "more than " : "",
                     (unsigned long long)(n > cells * 4 ? cells * 4 : n));
    uint32_t raw[256];
    for (uint64_t i = 0; i < cells; i += 256) {
        uint32_t n = cells - i < 256 ? (uint32_t)(cells - i) : 256;
        for (uint32_t k = 0; k < n; k++) { /* little-endian, as Tiled writes them */
            const uint8_t *b = bytes + (i + k) * 4;
            raw[k] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        }
        if (!tile_chars(p, t, raw, n, grid, i, w)) return false;
    }
    return true;
}

/* ---- Objects ---------------------------------------------------------------------------- */

typedef enum ObjKind { OBJ_GRID, OBJ_ENTRY, OBJ_SIGN } ObjKind;

/* What an object's type (or class) means: a character of the map, or an entry or sign. */
static const struct {
    const char *type;
    char ch; /* 0: by its colour (key, door), or not on the grid */
    ObjKind kind;
    const char *props; /* the custom properties it may have */
} object_types[] = {
    {"player", '@', OBJ_GRID, ""},   {"patroller", 'p', OBJ_GRID, "hp"}, {"chaser", 'c', OBJ_GRID, "hp"},
    {"turret", 't', OBJ_GRID, "hp"}, {"coin", '$', OBJ_GRID, ""},        {"heart", '+', OBJ_GRID, ""},
    {"key", 0, OBJ_GRID, "color"},   {"door", 0, OBJ_GRID, "color"},     {"portal", '>', OBJ_GRID, "target entry"},
    {"entry", 0, OBJ_ENTRY, ""},     {"sign", 0, OBJ_SIGN, "text"},
};
#define OBJECT_TYPES "player, patroller, chaser, turret, coin, heart, key, door, portal, entry or sign"

/* What the grid needs done after it is converted, in the order of the objects. */
typedef struct Later {
    ObjKind kind;
    char ch;
    int32_t id, x, y;
    const char *where;
    int64_t hp;      /* enemies: 0 none */
    LevelRef target; /* portals */
    Str8 text;       /* a portal's entry, an entry's name, a sign's text */
} Later;

typedef struct Objects {
    char *grid;
    int32_t player_id;
    const char *player_where;
    ChunkList later;
} Objects;

/* The tile an object stands on: its box's centre (a tile object's box rises from its y, a
   rectangle's falls), or its point; Tiled draws either way, the designer sees the centre. */
static bool object_tile(Parser *p, const Json *xs, bool tile_object, int32_t *tx, int32_t *ty) {
    static const char *const names[4] = {"x", "y", "width", "height"};
    double v[4] = {0};
    for (int i = 0; i < 4; i++) {
        if (is_none(xs[i])) {
            if (i < 2) return tfail(p, "expected a member \"%s\", found none", names[i]);
            continue;
        }
        if (!is_number(xs[i])) return tfail(p, "expected \"%s\" to be a number, found %s", names[i], json_kind(xs[i]));
        v[i] = number_of(xs[i]);
    }
    double cx = v[0] + v[2] / 2, cy = tile_object ? v[1] - v[3] / 2 : v[1] + v[3] / 2;
    double wpx = (double)p->width * TILE_PX, hpx = (double)p->height * TILE_PX;
    if (!(cx >= 0 && cx < wpx && cy >= 0 && cy < hpx))
        return tfail(p, "expected its centre inside the map (%dx%d tiles, %.0fx%.0f pixels), found %.17g, %.17g",
                     p->width, p->height, wpx, hpx, cx, cy);
    *tx = (int32_t)(cx / TILE_PX);
    *ty = (int32_t)(cy / TILE_PX);
    return true;
}

static bool key_color(Parser *p, Json props, const char *what, char red, char *out) {
    Str8 c;
    if (!prop_str(p, props, "color", &c)) return false;
    if (!c.len) return tfail(p, "expected a property 'color' (red, green or blue) for the %s, found none", what);
    if (st_str8_eq_cstr(c, "red")) *out = red;
    else if (st_str8_eq_cstr(c, "green")) *out = (char)(red + ('g' - 'r'));
    else if (st_str8_eq_cstr(c, "blue")) *out = (char)(red + ('b' - 'r'));
    else return tfail(p, "expected property 'color' to be red, green or blue, found '%s'", QUOTE(c));
    return true;
}

enum { O_X, O_Y, O_WIDTH, O_HEIGHT, O_ID, O_NAME, O_TYPE, O_CLASS, O_TEMPLATE, O_PROPS, O_GID, O_COUNT };
static const char *const object_keys[O_COUNT] = {"x",    "y",     "width",    "height",     "id", "name",
                                                 "type", "class", "template", "properties", "gid"};

/* The object's line in object_types, for an object made from no template. */
static bool object_type(Parser *p, Json template, Str8 type, int *k) {
    Str8 tmpl;
    if (!get_str(p, template, "template", false, &tmpl)) return false;
    if (tmpl.len)
        return tfail(p, "expected an object without a template (Detach Template in Tiled), found '%s'", QUOTE(tmpl));
    *k = -1;
    for (int i = 0; i < (int)ARRAY_COUNT(object_types); i++)
        if (st_str8_eq_cstr(type, object_types[i].type)) *k = i;
    if (*k >= 0) return true;
    if (!type.len) return tfail(p, "expected a type (or class): " OBJECT_TYPES ", found none");
    return tfail(p, "expected a type (or class): " OBJECT_TYPES ", found '%s'", QUOTE(type));
}

static bool read_object(Parser *p, Json o, Objects *ob) {
    p->where = "object";
    if (!is_object(o)) return tfail(p, "expected an object, found %s", json_kind(o));
    Json m[O_COUNT];
    members(o, object_keys, O_COUNT, m);
    int64_t id = 0;
    Str8 name, type, class;
    if (!get_int(p, m[O_ID], "id", true, 0, 1, INT32_MAX, &id) || !get_str(p, m[O_NAME], "name", false, &name) ||
        !get_str(p, m[O_TYPE], "type", false, &type) || !get_str(p, m[O_CLASS], "class", false, &class))
        return false;
    if (!type.len) type = class; /* Tiled 1.9 calls it class */
    Str8 label = name.len ? name : type;
    const char *where = label.len ? where_fmt(p, "object %lld '%s'", (long long)id, QUOTE(label))
                                  : where_fmt(p, "object %lld", (long long)id);
    if (!where) return tfail_memory(p, "scratch memory");
    p->where = where;
    p->line_no = id; /* what the loader records as an entity's "line" */
    int k;
    if (!object_type(p, m[O_TEMPLATE], type, &k)) return false;
    Json props = m[O_PROPS];
    if (!props_check(p, props, object_types[k].props, object_types[k].type)) return false;
    int32_t x = 0, y = 0;
    if (!object_tile(p, m, !is_none(m[O_GID]), &x, &y)) return false;
    Later l = {
        .kind = object_types[k].kind, .ch = object_types[k].ch, .id = (int32_t)id, .x = x, .y = y, .where = where};
    char *cell = &ob->grid[(int64_t)y * p->width + x];
    if (l.kind == OBJ_GRID) {
        if (st_str8_eq_cstr(type, "key") && !key_color(p, props, "key", 'r', &l.ch)) return false;
        if (st_str8_eq_cstr(type, "door") && !key_color(p, props, "door", 'R', &l.ch)) return false;
        if (l.ch == '@') {
            if (ob->player_id)
                return tfail(p, "expected one player, found a second one (the first is %s)", ob->player_where);
            ob->player_id = (int32_t)id;
            ob->player_where = where;
        }
        if (*cell != '.') {
            const char *first = p->cell_where[(int64_t)y * p->width + x];
            if (first)
                return tfail(p, "expected one entity on tile %d %d, found a second one (the first is %s)", x, y, first);
            return tfail(p, "expected floor under the %.*s at tile %d %d, found %s", STR8_FMT(type), x, y,
                         level_describe_char(*cell));
        }
        *cell = l.ch;
        p->cell_where[(int64_t)y * p->width + x] = where;
        bool found;
        if (l.ch == 'p' || l.ch == 'c' || l.ch == 't') {
            if (!prop_int(p, props, "hp", &l.hp, &found)) return false;
            if (found && !level_check_range(p, NULL, l.hp, 1, 9999, "hit points")) return false;
        } else if (l.ch == '>') {
            if (!prop_file(p, props, "target", &l.target, &found)) return false;
            if (!found)
                return tfail(p, "expected a property 'target' (the level file the portal leads to), found none");
            if (!prop_str(p, props, "entry", &l.text)) return false;
            if (l.text.len && !level_check_entry_name(p, l.text)) return false;
        } else if (l.ch == '@' || l.ch == '$' || l.ch == '+') {
            return true; /* nothing to do after the grid */
        } else {
            return true; /* keys and doors: the colour is the character */
        }
    } else if (l.kind == OBJ_ENTRY) {
        if (!name.len) return tfail(p, "expected a name (the entry's name, which portals lead to), found none");
        if (!level_check_entry_name(p, name)) return false;
        l.text = name;
    } else {
        if (!prop_str(p, props, "text", &l.text)) return false;
        if (!l.text.len) return tfail(p, "expected a property 'text' (what the sign says), found none");
        if (!check_lvl_text(p, l.text, "a sign text", false)) return false;
    }
    Later *slot = st_chunk_list_push(&ob->later);
    if (!slot) return tfail_memory(p, "scratch memory");
    *slot = l;
    return true;
}

static bool read_object_layer(Parser *p, Json objects, Objects *ob) {
    if (is_none(objects)) return true;
    if (!is_array(objects)) return tfail(p, "expected \"objects\" to be an array, found %s", json_kind(objects));
    Json o;
    JSON_FOR_EACH(it, o, objects) if (!read_object(p, o, ob)) return false;
    return true;
}

/* After the grid's conversion: hit points, portal targets, entries and signs, by the same
   setters as the .lvl lines, in the order of the objects. */
static bool apply_later(Parser *p, const Objects *ob) {
    ChunkListIter it = st_chunk_list_iter(&ob->later);
    for (const Later *l; (l = st_chunk_list_next(&it));) {
        p->where = l->where;
        p->line_no = l->id;
        if (l->kind == OBJ_ENTRY) {
            if (!level_add_entry(p, l->text, l->x, l->y, NULL)) return false;
        } else if (l->kind == OBJ_SIGN) {
            if (!level_add_sign(p, NULL, l->x, l->y, NULL, l->text)) return false;
        } else if (l->ch == '>') {
            int64_t i =
                level_find_tile(p->link_arr, p->link_count, sizeof(LevelLink), offsetof(LevelLink, tx), l->x, l->y);
            if (i < 0 || !level_set_link(p, i, &l->target, l->text))
                return i < 0 ? tfail(p, "internal error: no portal") : false;
        } else if (l->hp) {
            uint32_t row0 = p->enemy_row[l->y];
            int64_t i = level_find_tile(p->enemy_arr + row0, p->enemy_row[l->y + 1] - row0, sizeof(EnemySpawn),
                                        offsetof(EnemySpawn, tx), l->x, l->y);
            if (i < 0) return tfail(p, "internal error: no enemy");
            p->enemy_arr[row0 + i].hp = (int32_t)l->hp;
        }
    }
    return true;
}

/* ---- The map ---------------------------------------------------------------------------- */

static bool read_map_properties(Parser *p, Json root) {
    p->where = "map";
    Json props = member(root, "properties");
    if (!props_check(p, props, "name exit bullets particles", "the map")) return false;
    Str8 name;
    p->where = "map property 'name'";
    if (!prop_str(p, props, "name", &name)) return false;
    if (!name.len) {
        p->where = "map";
        return tfail(p, "expected a property 'name' (the level's name), found none");
    }
    if (!check_lvl_text(p, name, "a name", false) || !level_set_name(p, name, NULL)) return false;
    bool found;
    p->where = "map property 'exit'";
    if (!prop_file(p, props, "exit", &p->exit, &found)) return false;
    static const char *const pools[2] = {"bullets", "particles"};
    for (int i = 0; i < 2; i++) {
        p->where = i ? "map property 'particles'" : "map property 'bullets'";
        int64_t v;
        if (!prop_int(p, props, pools[i], &v, &found)) return false;
        if (!found) continue;
        if (!level_check_range(p, NULL, v, 1, 65536, i ? "a particle pool size" : "a bullet pool size")) return false;
        *(i ? &p->particles : &p->bullets) = v;
    }
    return true;
}

/* The header of the map: its kind, size and tiles. */
static bool read_map_header(Parser *p, Json root) {
    p->where = "map";
    if (!is_object(root)) return tfail(p, "expected a JSON object (a Tiled map), found %s", json_kind(root));
    Str8 type, orientation;
    if (!get_str(p, member(root, "type"), "type", false, &type)) return false;
    if (type.len && !st_str8_eq_cstr(type, "map")) return tfail(p, "expected \"type\" map, found '%s'", QUOTE(type));
    if (!get_str(p, member(root, "orientation"), "orientation", true, &orientation)) return false;
    if (!st_str8_eq_cstr(orientation, "orthogonal"))
        return tfail(p, "expected an orthogonal map, found '%s'", QUOTE(orientation));
    bool infinite;
    if (!get_bool(p, member(root, "infinite"), "infinite", &infinite)) return false;
    if (infinite)
        return tfail(p, "expected a map of fixed size, found an infinite one (untick Infinite in Map Properties)");
    int64_t w = 0, h = 0, tw = 0, th = 0;
    if (!get_int(p, member(root, "tilewidth"), "tilewidth", true, 0, 0, INT32_MAX, &tw) ||
        !get_int(p, member(root, "tileheight"), "tileheight", true, 0, 0, INT32_MAX, &th))
        return false;
    if (tw != TILE_PX || th != TILE_PX)
        return tfail(p, "expected tiles of %dx%d pixels, found %lldx%lld", TILE_PX, TILE_PX, (long long)tw,
                     (long long)th);
    if (!get_int(p, member(root, "width"), "width", true, 0, 1, LEVEL_MAX_SIDE, &w) ||
        !get_int(p, member(root, "height"), "height", true, 0, 1, LEVEL_MAX_SIDE, &h))
        return false;
    p->width = (int32_t)w;
    p->height = (int32_t)h;
    return true;
}

static bool read_map(Parser *p, Json root) {
    Tiles tiles = {0};
    if (!read_map_header(p, root) || !read_map_properties(p, root) || !read_tilesets(p, root, &tiles)) return false;
    tiles_lut(&tiles);
    uint64_t cells = (uint64_t)p->width * (uint64_t)p->height;
    Objects ob = {.grid = st_arena_push_raw(p->tmp, cells, 1)};
    p->cell_where = st_arena_push_array(p->tmp, const char *, cells);
    p->rows = st_arena_push_array(p->tmp, const char *, (uint64_t)p->height);
    uint32_t *lens = st_arena_push_array(p->tmp, uint32_t, (uint64_t)p->height);
    p->where = "map";
    if (!ob.grid || !p->cell_where || !p->rows || !lens) return tfail_memory(p, "scratch memory for the map");
    st_chunk_list_init(&ob.later, p->tmp, sizeof(Later), 64);

    Json layers = member(root, "layers"), layer, lm[4];
    if (!is_array(layers)) return tfail(p, "expected \"layers\" to be an array, found %s", json_kind(layers));
    static const char *const keys[4] = {"name", "type", "properties", "objects"};
    bool tile_layer = false;
    const char *tile_layer_where = NULL;
    JSON_FOR_EACH(it, layer, layers) {
        p->where = "layer";
        Str8 type, name;
        if (!is_object(layer)) return tfail(p, "expected an object, found %s", json_kind(layer));
        members(layer, keys, 4, lm);
        if (!get_str(p, lm[0], "name", false, &name) || !get_str(p, lm[1], "type", true, &type)) return false;
        p->where = where_fmt(p, "layer '%s'", QUOTE(name));
        if (st_str8_eq_cstr(type, "tilelayer")) {
            if (tile_layer)
                return tfail(p, "expected one tile layer, found a second one (the first is %s)", tile_layer_where);
            tile_layer = true;
            tile_layer_where = p->where;
            if (!props_check(p, lm[2], "", "a layer") || !read_tile_layer(p, layer, &tiles, ob.grid)) return false;
        } else if (st_str8_eq_cstr(type, "group")) {
            return tfail(p, "expected tile and object layers at the top, found a group (Ungroup Layers in Tiled)");
        } else if (!st_str8_eq_cstr(type, "objectgroup") && !st_str8_eq_cstr(type, "imagelayer")) {
            return tfail(p, "expected a tilelayer, objectgroup or imagelayer, found '%s'", QUOTE(type));
        }
    }
    p->where = "map";
    if (!tile_layer) return tfail(p, "expected one tile layer (the floor, walls, water, spikes and exit), found none");
    /* Objects after the tiles, whatever the layers' order: they stand on the terrain. */
    JSON_FOR_EACH(it, layer, layers) {
        Str8 type, name;
        members(layer, keys, 4, lm);
        if (!string_of(p, lm[1], &type) || !string_of(p, lm[0], &name)) return false;
        if (!st_str8_eq_cstr(type, "objectgroup")) continue;
        p->where = where_fmt(p, "layer '%.*s'", STR8_FMT(name));
        if (!read_object_layer(p, lm[3], &ob)) return false;
    }
    p->where = "map";
    if (!ob.player_id) return tfail(p, "expected an object of type 'player' (where the level starts), found none");

    for (int32_t y = 0; y < p->height; y++) {
        p->rows[y] = ob.grid + (int64_t)y * p->width;
        lens[y] = (uint32_t)p->width;
    }
    p->where = NULL; /* the conversion names objects through cell_where */
    p->line_no = 0;
    if (!level_parse_map_rows(p, lens)) return false;
    return apply_later(p, &ob);
}

bool level_tiled_parse(Parser *p, const char *text, uint64_t len) {
    p->objects = true;
    LevelJson j;
    if (!level_json_parse(&j, p->tmp, p->path, text, len, p->err)) return false;
    return read_map(p, (Json){&j, level_json_root(&j)});
}
