/* level_parse.c - the text-to-intermediate half of the level loader (the other half, and
   the overview of the three loading phases, is level.c): the map's character classes, the
   UTF-8 and binary checks, and the parsing of the header, the map and the entity lines into
   the Parser (level_parse.h): Str8 slices into the text, and entities gathered in scratch
   ChunkLists, then flattened into scratch arrays. Nothing here touches the level arena. */
#include "level/level_parse.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* SSSE3's byte shuffle makes the map's conversion a table lookup, twice as fast as SSE2's
   compares; it is not in the x86-64 baseline, so the CPU is asked at run time. */
#if defined(__SSE2__) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define LEVEL_SSSE3 1
#include <tmmintrin.h>
#endif

#include <strata/core/chunk_list.h>
#include <strata/core/str8.h>

/* ---- Errors ------------------------------------------------------------------------- */

/* Writes "path:line:col: error: ..." (or "path: error: ..." for line 0) into err, formatted
   by core/diag.h as every report is. Both halves of the loader fail through this
   (level_parse.h). */
bool level_fail(Error *err, const char *path, int64_t line, int64_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(err, ERROR_PARSE, path, line, col, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- Character classes -------------------------------------------------------------- */

/* One table lookup per map character. Values below TILE_KIND_COUNT are plain tiles; the
   rest say what stands on the tile (SPECIAL_*), or that the character is not in the legend. */
enum {
    SPECIAL_START = 0x40,
    SPECIAL_PATROLLER,
    SPECIAL_CHASER,
    SPECIAL_TURRET,
    SPECIAL_COIN,
    SPECIAL_HEART,
    SPECIAL_KEY_R,
    SPECIAL_KEY_G,
    SPECIAL_KEY_B,
    SPECIAL_DOOR_R,
    SPECIAL_DOOR_G,
    SPECIAL_DOOR_B,
    SPECIAL_PORTAL,
    CHAR_INVALID = 0xff,
};

/* Stored as code + 1 so that the zero of every unlisted byte means "not in the legend":
   tile_code[c] - 1 wraps to CHAR_INVALID for those. */
static const uint8_t tile_code1[256] = {
    ['.'] = TILE_FLOOR + 1,     ['#'] = TILE_WALL + 1,      ['~'] = TILE_WATER + 1,    ['^'] = TILE_SPIKES + 1,
    ['X'] = TILE_EXIT + 1,      ['>'] = SPECIAL_PORTAL + 1, ['@'] = SPECIAL_START + 1, ['p'] = SPECIAL_PATROLLER + 1,
    ['c'] = SPECIAL_CHASER + 1, ['t'] = SPECIAL_TURRET + 1, ['$'] = SPECIAL_COIN + 1,  ['+'] = SPECIAL_HEART + 1,
    ['r'] = SPECIAL_KEY_R + 1,  ['g'] = SPECIAL_KEY_G + 1,  ['b'] = SPECIAL_KEY_B + 1, ['R'] = SPECIAL_DOOR_R + 1,
    ['G'] = SPECIAL_DOOR_G + 1, ['B'] = SPECIAL_DOOR_B + 1,
};

#define LEGEND ".#~^X>@pct$+rgbRGB"

/* The map is nearly all plain tiles, and it is most of the file: this converts 16
   characters with vector compares (GCC/Clang vector extensions, SSE2 on x86-64), writing
   the plain tiles and 0 elsewhere, and returns a bit mask (bit i for character i) of the
   characters that are an entity or not in the legend; in most groups of 16 there are none. */
typedef uint8_t Bytes16 __attribute__((vector_size(16)));
_Static_assert(TILE_FLOOR == 0, "floor is the zero the compares leave");

/* The top bit of each byte of v, as a 16-bit mask. One instruction with SSE2; the vector
   must not go through memory to get there (storing it and loading it back as integers
   stalls on store forwarding, and that was a tenth of the whole parse). */
static uint32_t mask16(Bytes16 v) {
#if defined(__SSE2__)
    return (uint32_t)_mm_movemask_epi8((__m128i)v);
#else
    uint32_t m = 0;
    for (int i = 0; i < 16; i++) m |= (uint32_t)(v[i] >> 7) << i;
    return m;
#endif
}

static uint32_t map_plain16(const uint8_t *src, uint8_t *dst) {
    Bytes16 c;
    memcpy(&c, src, 16);
    Bytes16 wall = (Bytes16)(c == '#'), water = (Bytes16)(c == '~'), spikes = (Bytes16)(c == '^');
    Bytes16 exit = (Bytes16)(c == 'X'), floor = (Bytes16)(c == '.');
    Bytes16 t = (wall & TILE_WALL) | (water & TILE_WATER) | (spikes & TILE_SPIKES) | (exit & TILE_EXIT);
    memcpy(dst, &t, 16);
    return ~mask16(wall | water | spikes | exit | floor) & 0xFFFF;
}

#if LEVEL_SSSE3
/* As map_plain16, with one lookup: each plain character has a slot of its own in a table of
   16, (c ^ c >> 4) & 15 ('#' 1, '~' 9, '^' 11, '.' 12, 'X' 13), which holds the character (a
   byte whose own slot is another one where no character goes) and its tile. */
__attribute__((target("ssse3"))) static uint32_t map_plain16_ssse3(const uint8_t *src, uint8_t *dst) {
    const __m128i chars = _mm_setr_epi8(1, '#', 0, 0, 0, 0, 0, 0, 0, '~', 0, '^', '.', 'X', 0, 0);
    const __m128i tiles =
        _mm_setr_epi8(0, TILE_WALL, 0, 0, 0, 0, 0, 0, 0, TILE_WATER, 0, TILE_SPIKES, TILE_FLOOR, TILE_EXIT, 0, 0);
    __m128i c = _mm_loadu_si128((const __m128i *)src);
    /* A 16-bit shift: the bits it brings in from the next byte are masked off. */
    __m128i slot = _mm_and_si128(_mm_xor_si128(c, _mm_srli_epi16(c, 4)), _mm_set1_epi8(15));
    __m128i plain = _mm_cmpeq_epi8(_mm_shuffle_epi8(chars, slot), c);
    _mm_storeu_si128((__m128i *)dst, _mm_and_si128(_mm_shuffle_epi8(tiles, slot), plain));
    return ~(uint32_t)_mm_movemask_epi8(plain) & 0xFFFF;
}
#endif

/* Appends to out[count...] x0 + the index of each set bit of `bits` (lowest first) and
   returns the new count. Entities stand at random places, so a loop that branches once per
   entity mispredicts about once per entity, which cost more than all the vector work on the
   map. This handles the first COLLECT_SLACK bits without a branch (it always writes that
   many slots: `out` needs that much room past the last real one), and loops only for more,
   which is rare in 64 characters (4% of them in bench_level's crowded map, 0.7 entities
   each; four slots instead of two cost more than that loop saved). ctz of `bits | 1 << 63` is the lowest set bit of `bits`,
   or 63 when there is none (a slot that is written but not counted). */
enum { COLLECT_SLACK = 2 };

static uint32_t collect_bits(uint64_t bits, uint32_t x0, uint32_t *out, uint32_t count) {
    for (int k = 0; k < COLLECT_SLACK; k++) {
        out[count] = x0 + (uint32_t)__builtin_ctzll(bits | 1ull << 63);
        count += bits != 0;
        bits &= bits - 1;
    }
    for (; bits; bits &= bits - 1) out[count++] = x0 + (uint32_t)__builtin_ctzll(bits);
    return count;
}

const char *level_describe_char(char c) {
    switch (c) {
    case '.': return "floor";
    case '#': return "a wall";
    case '~': return "water";
    case '^': return "spikes";
    case 'X': return "the exit";
    case '>': return "a portal";
    case '@': return "the player start";
    case 'p': return "a patroller";
    case 'c': return "a chaser";
    case 't': return "a turret";
    case '$': return "a coin";
    case '+': return "a heart";
    case 'r': return "a red key";
    case 'g': return "a green key";
    case 'b': return "a blue key";
    case 'R': return "a red door";
    case 'G': return "a green door";
    case 'B': return "a blue door";
    default: return "an unknown tile";
    }
}

/* Strict UTF-8: no overlongs, no surrogates, nothing past U+10FFFF. Returns the offset of
   the first bad byte, or -1 when all of s is valid. */
static int64_t utf8_invalid_at(Str8 s) {
    const uint8_t *p = (const uint8_t *)s.data;
    uint64_t i = 0;
    while (i < s.len) {
        uint8_t c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        uint64_t n;
        uint8_t lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) n = 1;
        else if (c == 0xe0) {
            n = 2;
            lo = 0xa0;
        } else if (c == 0xed) {
            n = 2;
            hi = 0x9f;
        } else if (c >= 0xe1 && c <= 0xef) n = 2;
        else if (c == 0xf0) {
            n = 3;
            lo = 0x90;
        } else if (c >= 0xf1 && c <= 0xf3) n = 3;
        else if (c == 0xf4) {
            n = 3;
            hi = 0x8f;
        } else return (int64_t)i;
        if (i + n >= s.len) return (int64_t)i; /* truncated sequence */
        if (p[i + 1] < lo || p[i + 1] > hi) return (int64_t)i;
        for (uint64_t k = 2; k <= n; k++)
            if (p[i + k] < 0x80 || p[i + k] > 0xbf) return (int64_t)i;
        i += n + 1;
    }
    return -1;
}

/* Offset of the first byte that makes the text binary: a control character other than tab,
   LF and CR, or DEL; -1 when there is none. This touches every byte of the file, so it
   checks 16 at a time and only looks for the exact offset in a 4 KiB block that has one. */
static bool binary_byte(uint8_t c) { return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f; }

int64_t level_binary_at(Str8 s) {
    const uint8_t *p = (const uint8_t *)s.data;
    for (uint64_t at = 0; at < s.len; at += 4096) {
        uint64_t end = s.len - at < 4096 ? s.len : at + 4096, i = at;
        Bytes16 acc = {0};
        for (; i + 16 <= end; i += 16) {
            Bytes16 c;
            memcpy(&c, p + i, 16);
            acc |= ((Bytes16)((c & 0xE0) == 0) & (Bytes16)(c != '\t') & (Bytes16)(c != '\n') & (Bytes16)(c != '\r')) |
                   (Bytes16)(c == 0x7f);
        }
        bool bad = mask16(acc) != 0;
        for (; i < end; i++) bad |= binary_byte(p[i]);
        if (bad)
            for (i = at; i < end; i++)
                if (binary_byte(p[i])) return (int64_t)i;
    }
    return -1;
}

static bool fail(Parser *p, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* An error at byte `at` of the current line (NULL: column 1). */
static bool fail(Parser *p, const char *at, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->where) return level_fail(p->err, p->path, 0, 0, "%s: %s", p->where, msg);
    int64_t col = at ? (int64_t)(at - p->line_start) + 1 : 1;
    return level_fail(p->err, p->path, p->line_no, col, "%s", msg);
}

/* An arena refused: "expected <what>, found <the arena's refusal>" at byte `at`, as fail, and
   ERROR_OUT_OF_MEMORY. */
static bool fail_memory(Parser *p, const char *at, const char *what) {
    fail(p, at, "expected %s, found ", what);
    return st_arena_error(p->err);
}

/* How a duplicate names the first one: its line, or in a Tiled map its object. */
static const char *first_one(const Parser *p, int32_t line, char buf[40]) {
    snprintf(buf, 40, p->objects ? "object %d" : "on line %d", line);
    return buf;
}

static Str8 strip_comment(Str8 line) {
    int64_t hash = st_str8_find_byte(line, '#', 0);
    return st_str8_trim(hash < 0 ? line : st_str8_prefix(line, (uint64_t)hash));
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* The next whitespace-separated word of *rest, or an empty Str8 at the end. */
static Str8 next_word(Str8 *rest) {
    uint64_t i = 0;
    while (i < rest->len && is_blank(rest->data[i])) i++;
    uint64_t j = i;
    while (j < rest->len && !is_blank(rest->data[j])) j++;
    /* Built by hand: this runs for every word of every entity line. */
    Str8 w = {rest->data + i, j - i};
    rest->data += j;
    rest->len -= j;
    return w;
}

/* A decimal integer in [lo, hi]; `what` names it in the error. */
static bool parse_number(Parser *p, Str8 tok, int64_t lo, int64_t hi, const char *what, int64_t *out) {
    if (tok.len == 0)
        return fail(p, tok.data, "expected %s from %lld to %lld, found end of line", what, (long long)lo,
                    (long long)hi);
    int64_t v = 0;
    /* Nearly every number in a level is a few plain digits: take those here, without the
       sign and overflow handling of st_str8_parse_i64 (nine digits cannot overflow). */
    uint64_t n = 0;
    if (tok.len <= 9)
        while (n < tok.len && (uint8_t)(tok.data[n] - '0') < 10) v = v * 10 + (tok.data[n++] - '0');
    if (n != tok.len && !st_str8_parse_i64(tok, &v)) {
        bool digits = true;
        for (uint64_t i = 0; i < tok.len; i++)
            digits &=
                (tok.data[i] >= '0' && tok.data[i] <= '9') || (i == 0 && (tok.data[i] == '-' || tok.data[i] == '+'));
        if (digits && tok.len > 1)
            return fail(p, tok.data, "expected %s from %lld to %lld, found '%s', which overflows", what, (long long)lo,
                        (long long)hi, QUOTE(tok));
        return fail(p, tok.data, "expected %s from %lld to %lld, found '%s'", what, (long long)lo, (long long)hi,
                    QUOTE(tok));
    }
    if (!level_check_range(p, tok.data, v, lo, hi, what)) return false;
    *out = v;
    return true;
}

bool level_check_range(Parser *p, const char *at, int64_t v, int64_t lo, int64_t hi, const char *what) {
    if (v < lo || v > hi)
        return fail(p, at, "expected %s from %lld to %lld, found %lld", what, (long long)lo, (long long)hi,
                    (long long)v);
    return true;
}

static bool expect_eol(Parser *p, Str8 rest) {
    Str8 w = next_word(&rest);
    if (w.len) return fail(p, w.data, "expected end of line, found '%s'", QUOTE(w));
    return true;
}

/* A name for entries: letters, digits, '_' and '-'. */
bool level_check_entry_name(Parser *p, Str8 tok) {
    if (tok.len == 0) return fail(p, tok.data, "expected an entry name, found end of line");
    if (tok.len > 32)
        return fail(p, tok.data, "expected an entry name of at most 32 bytes, found %llu bytes",
                    (unsigned long long)tok.len);
    for (uint64_t i = 0; i < tok.len; i++) {
        char c = tok.data[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return fail(p, tok.data + i, "expected an entry name (letters, digits, '_' or '-'), found '%s'",
                        QUOTE(tok));
    }
    return true;
}

/* Whether `name` ends in `ext` after a base name of at least one byte. */
static bool has_level_ext(Str8 name, const char *ext) {
    Str8 e = st_str8_cstr(ext);
    return name.len > e.len && st_str8_eq(st_str8_skip(name, name.len - e.len), e) &&
           name.data[name.len - e.len - 1] != '/';
}

bool level_is_tiled_path(const char *path) { return path && has_level_ext(st_str8_cstr(path), LEVEL_TILED_EXT); }

/* Resolves `rel` (the word at rel.data) against the level's folder, without the disk: it
   must name a level file (LEVEL_FILE_EXT or LEVEL_TILED_EXT) and fit LEVEL_PATH_MAX once
   resolved, so that every copy the game makes of it holds all of it. level.c checks the
   file itself. */
bool level_resolve_file(Parser *p, Str8 rel, LevelRef *out) {
    if (rel.len == 0) return fail(p, rel.data, "expected a level file name, found end of line");
    if (!has_level_ext(rel, LEVEL_FILE_EXT) && !has_level_ext(rel, LEVEL_TILED_EXT))
        return fail(p, rel.data, "expected a level file name ending in %s or %s, found '%s'", LEVEL_FILE_EXT,
                    LEVEL_TILED_EXT, QUOTE(rel));
    uint64_t n = rel.data[0] == '/' ? rel.len : p->dir.len + rel.len;
    if (n >= LEVEL_PATH_MAX)
        return fail(p, rel.data, "expected a level path of at most %d bytes once resolved, found %llu bytes ('%s')",
                    LEVEL_PATH_MAX - 1, (unsigned long long)n, QUOTE(rel));
    Str8 full = rel.data[0] == '/' ? st_str8_copy(p->tmp, rel)
                                   : st_str8_fmt(p->tmp, "%.*s%.*s", STR8_FMT(p->dir), STR8_FMT(rel));
    if (!full.data) return fail_memory(p, rel.data, "scratch memory");
    *out = p->where ? (LevelRef){.written = rel, .resolved = full, .where = p->where}
                    : (LevelRef){.written = rel,
                                 .resolved = full,
                                 .line = (int32_t)p->line_no,
                                 .col = (int32_t)(rel.data - p->line_start) + 1};
    return true;
}

/* ---- Header ------------------------------------------------------------------------- */

bool level_set_name(Parser *p, Str8 value, const char *at) {
    if (value.len == 0) return fail(p, at, "expected a level name, found nothing");
    int64_t bad = utf8_invalid_at(value);
    if (bad >= 0)
        return fail(p, value.data + bad, "expected a UTF-8 name, found the invalid byte 0x%02X",
                    (unsigned)(uint8_t)value.data[bad]);
    /* A .lvl line cannot hold a control character (the binary check refuses them); a JSON
       string can, and the name is drawn on screen. */
    for (uint64_t i = 0; p->objects && i < value.len; i++)
        if ((uint8_t)value.data[i] < 0x20 || value.data[i] == 0x7f)
            return fail(p, value.data + i, "expected printable text in the name, found the control character U+%04X",
                        (unsigned)(uint8_t)value.data[i]);
    p->name = value;
    return true;
}

static bool parse_header_line(Parser *p, Str8 raw) {
    Str8 line = strip_comment(raw);
    int64_t colon = st_str8_find_byte(line, ':', 0);
    if (colon < 0) return fail(p, line.data, "expected 'key: value' or 'map:', found '%s'", QUOTE(line));
    Str8 key = st_str8_trim(st_str8_prefix(line, (uint64_t)colon));
    Str8 value = st_str8_trim(st_str8_skip(line, (uint64_t)colon + 1));
    const char *vat = value.len ? value.data : line.data + line.len;
    int32_t *seen;
    if (st_str8_eq_cstr(key, "name")) seen = &p->name_line;
    else if (st_str8_eq_cstr(key, "exit")) seen = &p->exit_line;
    else if (st_str8_eq_cstr(key, "bullets")) seen = &p->bullets_line;
    else if (st_str8_eq_cstr(key, "particles")) seen = &p->particles_line;
    else
        return fail(p, key.data, "expected a header key (name, exit, bullets, particles) or 'map:', found '%s'",
                    QUOTE(key));
    if (*seen)
        return fail(p, key.data, "expected one '%.*s:' line, found a second one (the first is on line %d)",
                    STR8_FMT(key), *seen);
    *seen = (int32_t)p->line_no;
    if (seen == &p->name_line) {
        if (!level_set_name(p, value, vat)) return false;
    } else if (seen == &p->exit_line) {
        Str8 rest = value;
        Str8 file = next_word(&rest);
        if (file.len == 0) file.data = vat;
        if (!level_resolve_file(p, file, &p->exit) || !expect_eol(p, rest)) return false;
    } else {
        Str8 rest = value;
        Str8 tok = next_word(&rest);
        if (tok.len == 0) tok.data = vat;
        int64_t *dst = seen == &p->bullets_line ? &p->bullets : &p->particles;
        const char *what = seen == &p->bullets_line ? "a bullet pool size" : "a particle pool size";
        if (!parse_number(p, tok, 1, 65536, what, dst) || !expect_eol(p, rest)) return false;
    }
    return true;
}

/* ---- Map ---------------------------------------------------------------------------- */

/* Where a map error points: the row's line, the tile's column. */
static bool fail_tile(Parser *p, int32_t tx, int32_t ty, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail_tile(Parser *p, int32_t tx, int32_t ty, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->cell_where) {
        const char *w =
            tx >= 0 && ty >= 0 && tx < p->width && ty < p->height ? p->cell_where[(int64_t)ty * p->width + tx] : NULL;
        if (w) return level_fail(p->err, p->path, 0, 0, "%s: %s", w, msg);
        return level_fail(p->err, p->path, 0, 0, "tile %d %d: %s", tx, ty, msg);
    }
    return level_fail(p->err, p->path, p->map_line + 1 + ty, (int64_t)tx + 1, "%s", msg);
}

/* An arena refused, about a tile: as fail_memory. */
static bool fail_tile_memory(Parser *p, int32_t tx, int32_t ty, const char *what) {
    fail_tile(p, tx, ty, "expected %s, found ", what);
    return st_arena_error(p->err);
}

static bool bad_char(Parser *p, int32_t x, int32_t y) {
    char c = p->rows[y][x];
    if (c == ' ') return fail_tile(p, x, y, "expected a tile character (one of %s), found a space", LEGEND);
    if (c == '\t') return fail_tile(p, x, y, "expected a tile character (one of %s), found a tab", LEGEND);
    if ((uint8_t)c >= 0x80)
        return fail_tile(p, x, y, "expected a tile character (one of %s), found the byte 0x%02X", LEGEND,
                         (unsigned)(uint8_t)c);
    return fail_tile(p, x, y, "expected a tile character (one of %s), found '%s'", LEGEND, QUOTE(st_str8_make(&c, 1)));
}

static bool map_special(Parser *p, uint8_t code, int32_t x, int32_t y, uint8_t *tile) {
    *tile = TILE_FLOOR;
    switch (code) {
    case SPECIAL_START:
        if (p->start_count++)
            return fail_tile(p, x, y, "expected one player start '@', found a second one (the first is at %d %d)",
                             p->start_tx, p->start_ty);
        p->start_tx = x;
        p->start_ty = y;
        return true;
    case SPECIAL_PATROLLER:
    case SPECIAL_CHASER:
    case SPECIAL_TURRET: {
        /* hp stays 0 unless an `enemy` line gives one: the kind's default is a rule of the
           game (sim.h), not of the format. */
        EnemySpawn *e = st_chunk_list_push(&p->enemies);
        if (!e) break;
        e->kind = (EnemyKind)(code - SPECIAL_PATROLLER);
        e->tx = (int16_t)x;
        e->ty = (int16_t)y;
        return true;
    }
    case SPECIAL_COIN:
    case SPECIAL_HEART:
    case SPECIAL_KEY_R:
    case SPECIAL_KEY_G:
    case SPECIAL_KEY_B: {
        Pickup *k = st_chunk_list_push(&p->pickups);
        if (!k) break;
        k->tx = (int16_t)x;
        k->ty = (int16_t)y;
        k->kind = code == SPECIAL_COIN ? PICKUP_COIN : code == SPECIAL_HEART ? PICKUP_HEART : PICKUP_KEY;
        k->color = code >= SPECIAL_KEY_R ? (KeyColor)(code - SPECIAL_KEY_R) : KEY_RED;
        return true;
    }
    case SPECIAL_DOOR_R:
    case SPECIAL_DOOR_G:
    case SPECIAL_DOOR_B: {
        LevelDoor *d = st_chunk_list_push(&p->doors);
        if (!d) break;
        d->tx = (int16_t)x;
        d->ty = (int16_t)y;
        d->color = (KeyColor)(code - SPECIAL_DOOR_R);
        *tile = TILE_DOOR;
        return true;
    }
    case SPECIAL_PORTAL: {
        LevelLink *l = st_chunk_list_push(&p->links);
        PortalInfo *pi = st_chunk_list_push(&p->portals);
        if (!l || !pi) break;
        l->tx = (int16_t)x;
        l->ty = (int16_t)y;
        pi->line = (int32_t)(p->map_line + 1 + y);
        pi->col = x + 1;
        *tile = TILE_PORTAL;
        return true;
    }
    default: return bad_char(p, x, y);
    }
    return fail_tile_memory(p, x, y, "scratch memory for the entities");
}

/* A row of lower-case letters, at least half of which are no map character: a word, where
   the `end` line should be, not a row of entities ("ptc" is three of them). */
static bool looks_like_a_word(Str8 t) {
    if (t.len < 2 || t.len > 16) return false;
    uint64_t unknown = 0;
    for (uint64_t i = 0; i < t.len; i++) {
        char c = t.data[i];
        if (c < 'a' || c > 'z') return false;
        unknown += !strcmp(level_describe_char(c), "an unknown tile");
    }
    return unknown * 2 >= t.len;
}

/* Pass 1: the map rows, up to the `end` line (leaving *rest after it), as pointers into the
   text and their lengths; sets height and width (from the first row). */
static bool collect_map_rows(Parser *p, Str8 *rest, const uint32_t **lens_out) {
    ChunkList rows;
    st_chunk_list_init(&rows, p->tmp, sizeof(const char *), 256);
    ChunkList lens;
    st_chunk_list_init(&lens, p->tmp, sizeof(uint32_t), 256);
    Str8 line;
    bool ended = false;
    p->map_begin = rest->data;
    while (st_str8_next_line(rest, &line)) {
        p->line_no++;
        p->line_start = line.data;
        Str8 t = strip_comment(line);
        if (st_str8_eq_cstr(t, "end")) {
            ended = true;
            p->map_end = line.data;
            break;
        }
        if (looks_like_a_word(t)) /* "stop", "ned": a mistyped `end` is that line's error */
            return fail(p, line.data, "expected 'end' after the map rows, found '%s'", QUOTE(t));
        if (st_str8_starts_with(line, STR8_LIT("enemy ")) || st_str8_starts_with(line, STR8_LIT("link ")) ||
            st_str8_starts_with(line, STR8_LIT("entry ")) || st_str8_starts_with(line, STR8_LIT("sign ")))
            return fail(p, line.data, "expected 'end' after the map rows, found '%s'",
                        QUOTE(st_str8_prefix(line, (uint64_t)st_str8_find_byte(line, ' ', 0))));
        if (rows.count >= LEVEL_MAX_SIDE)
            return fail(p, line.data, "expected at most %d map rows, found more", LEVEL_MAX_SIDE);
        const char **r = st_chunk_list_push(&rows);
        uint32_t *n = st_chunk_list_push(&lens);
        if (!r || !n) return fail_memory(p, line.data, "scratch memory");
        *r = line.data;
        *n = line.len > UINT32_MAX ? UINT32_MAX : (uint32_t)line.len;
    }
    if (!ended) {
        p->line_no++;
        p->line_start = NULL;
        return fail(p, NULL, "expected 'end' after the map rows, found end of file");
    }
    if (rows.count == 0) return fail(p, line.data, "expected at least one map row, found 'end'");

    Span rs = st_chunk_list_flatten(&rows, p->tmp);
    Span ls = st_chunk_list_flatten(&lens, p->tmp);
    if (!rs.data || !ls.data) return fail_memory(p, line.data, "scratch memory");
    p->rows = rs.data;
    *lens_out = ls.data;
    p->height = (int32_t)rs.count;
    uint32_t w = (*lens_out)[0];
    if (w == 0) return fail_tile(p, 0, 0, "expected a map row of 1 to %d tiles, found an empty line", LEVEL_MAX_SIDE);
    if (w > LEVEL_MAX_SIDE)
        return fail_tile(p, LEVEL_MAX_SIDE, 0, "expected a map row of 1 to %d tiles, found %u", LEVEL_MAX_SIDE, w);
    p->width = (int32_t)w;
    return true;
}

/* The first n characters of a row (n a multiple of 16) into dst, listing in others[] the
   columns of those that are not plain tiles; returns how many. Inlined into one function per
   instruction set, with its map16 inlined too. */
typedef uint32_t Map16(const uint8_t *src, uint8_t *dst);
static inline __attribute__((always_inline)) uint32_t convert_plain_with(Map16 *map16, const uint8_t *src, uint8_t *dst,
                                                                         uint32_t n, uint32_t *others) {
    uint32_t x = 0, count = 0;
    for (; x + 64 <= n; x += 64) {
        uint64_t m = map16(src + x, dst + x) | (uint64_t)map16(src + x + 16, dst + x + 16) << 16 |
                     (uint64_t)map16(src + x + 32, dst + x + 32) << 32 |
                     (uint64_t)map16(src + x + 48, dst + x + 48) << 48;
        count = collect_bits(m, x, others, count);
    }
    for (; x < n; x += 16) count = collect_bits(map16(src + x, dst + x), x, others, count);
    return count;
}

static uint32_t convert_plain(const uint8_t *src, uint8_t *dst, uint32_t n, uint32_t *others) {
    return convert_plain_with(map_plain16, src, dst, n, others);
}

#if LEVEL_SSSE3
__attribute__((target("ssse3"))) static uint32_t convert_plain_ssse3(const uint8_t *src, uint8_t *dst, uint32_t n,
                                                                     uint32_t *others) {
    return convert_plain_with(map_plain16_ssse3, src, dst, n, others);
}
#endif

/* Pass 2: each row into tiles and entities, in two steps: convert it and list the columns of
   its other (entity or unknown) characters, then handle those in order. */
static bool convert_map_rows(Parser *p, const uint32_t *len) {
    uint32_t w = (uint32_t)p->width;
#if LEVEL_SSSE3
    bool ssse3 = __builtin_cpu_supports("ssse3");
#endif
    /* One row's tiles, for the checks: the level's own are written where it will live, from
       the rows, once the level arena can be cleared (level_write_tiles). */
    uint8_t *dst = st_arena_push_raw(p->tmp, w, 1);
    /* Slack for collect_bits' writes. */
    uint32_t *others = st_arena_push_array(p->tmp, uint32_t, (uint64_t)w + COLLECT_SLACK);
    if (!dst || !others) return fail_tile_memory(p, 0, 0, "scratch memory for the tiles");
    for (int32_t y = 0; y < p->height; y++) {
        const uint8_t *src = (const uint8_t *)p->rows[y];
        uint32_t n = len[y];
        /* Check the characters before the width, so the error names the first thing wrong
           on the line. */
        uint32_t common = n < w ? n : w;
        uint32_t x = common & ~15u;
#if LEVEL_SSSE3
        uint32_t count = ssse3 ? convert_plain_ssse3(src, dst, x, others) : convert_plain(src, dst, x, others);
#else
        uint32_t count = convert_plain(src, dst, x, others);
#endif
        for (; x < common; x++) {
            uint8_t code = (uint8_t)(tile_code1[src[x]] - 1);
            dst[x] = code;
            others[count] = x;
            count += code >= TILE_KIND_COUNT;
        }
        for (uint32_t i = 0; i < count; i++) {
            uint32_t at = others[i];
            uint8_t code = (uint8_t)(tile_code1[src[at]] - 1);
            dst[at] = code;
            if (!map_special(p, code, (int32_t)at, y, &dst[at])) return false;
        }
        /* A too-long row often holds a comment: name the character, not just the length. */
        for (uint32_t x = w; x < n && x < LEVEL_MAX_SIDE; x++)
            if (tile_code1[src[x]] == 0) return bad_char(p, (int32_t)x, y);
        if (n != w)
            return fail_tile(p, (int32_t)common, y, "expected a row of %u tiles like the first, found %u", w, n);
    }
    if (p->start_count == 0) {
        p->line_no = p->map_line;
        p->line_start = NULL;
        return fail(p, NULL, "expected a player start '@' in the map, found none");
    }
    return true;
}

/* The entities the map gathered, from scratch ChunkLists into scratch arrays, with an index
   of each row's enemies for the `enemy` lines. They were gathered in row-major order, so
   every array is sorted by (ty, tx). */
static bool flatten_map_entities(Parser *p) {
    Span es = st_chunk_list_flatten(&p->enemies, p->tmp);
    Span ps = st_chunk_list_flatten(&p->pickups, p->tmp);
    Span ds = st_chunk_list_flatten(&p->doors, p->tmp);
    Span ks = st_chunk_list_flatten(&p->links, p->tmp);
    Span is = st_chunk_list_flatten(&p->portals, p->tmp);
    p->enemy_line = st_arena_push_array(p->tmp, int32_t, es.count + 1);
    p->enemy_row = st_arena_push_array(p->tmp, uint32_t, (uint64_t)p->height + 1);
    if (!es.data || !ps.data || !ds.data || !ks.data || !is.data || !p->enemy_line || !p->enemy_row)
        return fail_memory(p, p->map_end, "scratch memory");
    p->enemy_arr = es.data;
    p->enemy_count = es.count;
    for (uint64_t i = 0; i < es.count; i++) p->enemy_row[p->enemy_arr[i].ty + 1]++;
    for (int32_t y = 0; y < p->height; y++) p->enemy_row[y + 1] += p->enemy_row[y];
    p->pickup_arr = ps.data;
    p->pickup_count = ps.count;
    p->door_arr = ds.data;
    p->door_count = ds.count;
    p->link_arr = ks.data;
    p->portal_arr = is.data;
    p->link_count = ks.count;
    return true;
}

/* The tile a map character stands for (entities stand on floor). */
static TileKind tile_of(char c) {
    uint8_t code = (uint8_t)(tile_code1[(uint8_t)c] - 1);
    if (code < TILE_KIND_COUNT) return (TileKind)code;
    return code >= SPECIAL_DOOR_R && code <= SPECIAL_DOOR_B ? TILE_DOOR
           : code == SPECIAL_PORTAL                         ? TILE_PORTAL
                                                            : TILE_FLOOR;
}

/* The plain tiles of n characters (a multiple of 16), 0 for the others. */
static inline __attribute__((always_inline)) void write_plain_with(Map16 *map16, const uint8_t *src, uint8_t *dst,
                                                                   uint32_t n) {
    for (uint32_t x = 0; x < n; x += 16) map16(src + x, dst + x);
}

static void write_plain(const uint8_t *src, uint8_t *dst, uint32_t n) { write_plain_with(map_plain16, src, dst, n); }

#if LEVEL_SSSE3
__attribute__((target("ssse3"))) static void write_plain_ssse3(const uint8_t *src, uint8_t *dst, uint32_t n) {
    write_plain_with(map_plain16_ssse3, src, dst, n);
}
#endif

void level_write_tiles(const Parser *p, uint8_t *tiles) {
    uint32_t w = (uint32_t)p->width, vec = w & ~15u;
#if LEVEL_SSSE3
    bool ssse3 = __builtin_cpu_supports("ssse3");
#endif
    for (int32_t y = 0; y < p->height; y++) {
        const uint8_t *src = (const uint8_t *)p->rows[y];
        uint8_t *dst = tiles + (uint64_t)y * w;
#if LEVEL_SSSE3
        if (ssse3) write_plain_ssse3(src, dst, vec);
        else write_plain(src, dst, vec);
#else
        write_plain(src, dst, vec);
#endif
        for (uint32_t x = vec; x < w; x++) dst[x] = (uint8_t)tile_of((char)src[x]);
    }
    /* The only tiles among the others: doors and portals, few, and listed. */
    for (uint64_t i = 0; i < p->door_count; i++) tiles[(int64_t)p->door_arr[i].ty * w + p->door_arr[i].tx] = TILE_DOOR;
    for (uint64_t i = 0; i < p->link_count; i++)
        tiles[(int64_t)p->link_arr[i].ty * w + p->link_arr[i].tx] = TILE_PORTAL;
}

/* The map: its rows (pass 1), then tiles and entities (pass 2). Stops at the `end` line,
   leaving *rest after it. */
static bool parse_map(Parser *p, Str8 *rest) {
    const uint32_t *lens = NULL;
    return collect_map_rows(p, rest, &lens) && level_parse_map_rows(p, lens);
}

bool level_parse_map_rows(Parser *p, const uint32_t *lens) {
    return convert_map_rows(p, lens) && flatten_map_entities(p);
}

/* ---- Entity lines ------------------------------------------------------------------- */

/* "X Y": a tile inside the map. *at is where X starts (or the end of the line), for errors
   about what is at that tile. */
static bool parse_xy(Parser *p, Str8 *rest, int32_t *x, int32_t *y, const char **at) {
    int64_t vx = 0, vy = 0;
    Str8 wx = next_word(rest);
    *at = wx.data;
    if (!parse_number(p, wx, 0, p->width - 1, "a tile column", &vx) ||
        !parse_number(p, next_word(rest), 0, p->height - 1, "a tile row", &vy))
        return false;
    *x = (int32_t)vx;
    *y = (int32_t)vy;
    return true;
}

static const char *describe_tile(Parser *p, int32_t x, int32_t y) { return level_describe_char(p->rows[y][x]); }

/* A sign's text, the rest of its line (without the comment, trimmed): 1 to
   LEVEL_SIGN_TEXT_MAX bytes of UTF-8 with no control character (a tab, a carriage return
   inside the line, U+0080-U+009F; the binary check has refused the others). '#' cannot be
   in it: it starts the comment. */
static bool check_sign_text(Parser *p, Str8 text) {
    if (text.len == 0) return fail(p, text.data, "expected the sign's text after its tile, found end of line");
    if (text.len > LEVEL_SIGN_TEXT_MAX)
        return fail(p, text.data, "expected a sign text of at most %d bytes, found %llu bytes", LEVEL_SIGN_TEXT_MAX,
                    (unsigned long long)text.len);
    int64_t bad = utf8_invalid_at(text);
    for (uint64_t i = 0; i < text.len && (bad < 0 || i < (uint64_t)bad); i++) {
        uint8_t c = (uint8_t)text.data[i];
        if (c == '\t') return fail(p, text.data + i, "expected printable text on the sign, found a tab");
        if (c < 0x20 || c == 0x7F) /* a CR inside the line (the binary check refused the rest), DEL */
            return fail(p, text.data + i, "expected printable text on the sign, found the control character U+%04X",
                        (unsigned)c);
        if (c == 0xC2 && (uint8_t)text.data[i + 1] < 0xA0) /* valid up to `bad`: a second byte follows */
            return fail(p, text.data + i, "expected printable text on the sign, found the control character U+%04X",
                        (unsigned)(uint8_t)text.data[i + 1]);
    }
    if (bad >= 0)
        return fail(p, text.data + bad, "expected UTF-8 text on the sign, found the invalid byte 0x%02X",
                    (unsigned)(uint8_t)text.data[bad]);
    return true;
}

/* `sign X Y TEXT`: on a plain floor tile ('.': no entity there either), one per tile. */
static bool parse_sign(Parser *p, Str8 kw, Str8 rest) {
    int32_t x, y;
    const char *at;
    if (!parse_xy(p, &rest, &x, &y, &at)) return false;
    Str8 text = st_str8_trim(rest);
    if (!text.len) text.data = rest.data + rest.len;
    return level_add_sign(p, kw.data, x, y, at, text);
}

bool level_add_sign(Parser *p, const char *kw, int32_t x, int32_t y, const char *at, Str8 text) {
    char first[40];
    if (p->rows[y][x] != '.')
        return fail(p, at, "expected a floor tile '.' for the sign at %d %d, found %s", x, y, describe_tile(p, x, y));
    ChunkListIter lines = st_chunk_list_iter(&p->sign_lines);
    for (ChunkListIter it = st_chunk_list_iter(&p->signs);;) {
        const LevelSign *g = st_chunk_list_next(&it);
        const int32_t *line = st_chunk_list_next(&lines);
        if (!g || !line) break;
        if (g->tx == x && g->ty == y)
            return fail(p, kw, "expected one sign at %d %d, found a second one (the first is %s)", x, y,
                        first_one(p, *line, first));
    }
    if (p->signs.count >= LEVEL_MAX_SIGNS) return fail(p, kw, "expected at most %d signs, found more", LEVEL_MAX_SIGNS);
    if (!check_sign_text(p, text)) return false;
    LevelSign *g = st_chunk_list_push(&p->signs);
    int32_t *line = st_chunk_list_push(&p->sign_lines);
    if (!g || !line) return fail_memory(p, kw, "scratch memory");
    *g = (LevelSign){.tx = x, .ty = y, .text = text};
    *line = (int32_t)p->line_no;
    return true;
}

/* The index of the enemy drawn at (x, y), or -1. The `enemy` lines of a file written by
   level_write, and of most others, come in the map's order, so the enemy after the last
   one found is tried first; otherwise the search is in row y's run of them (enemies are
   sorted row-major). An index per tile was tried: its loads miss the cache, and that cost
   more than this search. */
static int64_t find_enemy(Parser *p, int32_t x, int32_t y) {
    uint64_t next = p->enemy_next;
    int64_t i;
    if (next < p->enemy_count && p->enemy_arr[next].tx == x && p->enemy_arr[next].ty == y) {
        i = (int64_t)next;
    } else {
        uint32_t row0 = p->enemy_row[y];
        i = level_find_tile(p->enemy_arr + row0, p->enemy_row[y + 1] - row0, sizeof(EnemySpawn),
                            offsetof(EnemySpawn, tx), x, y);
        if (i < 0) return -1;
        i += row0;
    }
    p->enemy_next = (uint64_t)i + 1;
    return i;
}

/* How many decimal digits start c, 1 to 4, with their value in *v; 0 when there are none
   or more than 4. Reads c[0..4] (the caller makes sure they are in the text), with no branch
   per digit: the numbers' lengths vary from line to line, and a loop over the digits
   mispredicted on most lines. */
static int32_t quick_digits(const char *c, int32_t *v) {
    int32_t n = 0, k = 0, on = 1;
    for (int i = 0; i < 4; i++) {
        int32_t d = (uint8_t)c[i] - '0';
        on &= (uint32_t)d < 10;
        n = on ? n * 10 + d : n;
        k += on;
    }
    *v = n;
    return k == 4 && (uint8_t)(c[4] - '0') < 10 ? 0 : k;
}

/* The plain `enemy X Y` or `enemy X Y hp=N` line at the start of *rest, ended by '\n' (the
   form level_write writes, and most of a big level's lines), read in one pass without
   splitting it into words: true, with the line taken and *rest after it. Anything else
   (spaces, a comment, a CR, another property, a value out of range, no enemy there, a
   second line for one, the last few bytes of the text) returns false and changes nothing,
   and the general path parses the line or refuses it in its own words. */
static bool quick_enemy_line(Parser *p, Str8 *rest) {
    const char *c = rest->data;
    int32_t x, y, hp = 0, k;
    /* 32 bytes: every read below stays inside the text. */
    if (rest->len < 32 || memcmp(c, "enemy ", 6) != 0) return false;
    c += 6;
    if (!(k = quick_digits(c, &x)) || c[k] != ' ') return false;
    c += k + 1;
    if (!(k = quick_digits(c, &y))) return false;
    c += k;
    if (memcmp(c, " hp=", 4) == 0) {
        if (!(k = quick_digits(c + 4, &hp)) || hp < 1) return false;
        c += 4 + k;
    }
    if (*c != '\n' || x >= p->width || y >= p->height) return false;
    uint64_t next = p->enemy_next;
    int64_t i = find_enemy(p, x, y);
    if (i < 0 || p->enemy_line[i]) {
        p->enemy_next = next;
        return false;
    }
    p->line_no++;
    p->enemy_line[i] = (int32_t)p->line_no;
    if (hp) p->enemy_arr[i].hp = hp;
    rest->len -= (uint64_t)(c + 1 - rest->data);
    rest->data = c + 1;
    return true;
}

/* `line` is without its comment and trimmed (strip_comment), and not empty. */
static bool parse_entity_line(Parser *p, Str8 line) {
    Str8 rest = line;
    Str8 kw = next_word(&rest);
    int32_t x, y;
    const char *at;
    if (st_str8_eq(kw, STR8_LIT("enemy"))) {
        if (!parse_xy(p, &rest, &x, &y, &at)) return false;
        int64_t i = find_enemy(p, x, y);
        if (i < 0) return fail(p, at, "expected an enemy (p, c or t) at %d %d, found %s", x, y, describe_tile(p, x, y));
        if (p->enemy_line[i])
            return fail(
                p, kw.data,
                "expected one 'enemy' line for the enemy at %d %d, found a second one (the first is on line %d)", x, y,
                p->enemy_line[i]);
        p->enemy_line[i] = (int32_t)p->line_no;
        for (Str8 prop; (prop = next_word(&rest)).len;) {
            if (prop.len < 3 || memcmp(prop.data, "hp=", 3) != 0)
                return fail(p, prop.data, "expected a property 'hp=N', found '%s'", QUOTE(prop));
            int64_t hp;
            if (!parse_number(p, (Str8){prop.data + 3, prop.len - 3}, 1, 9999, "hit points", &hp)) return false;
            p->enemy_arr[i].hp = (int32_t)hp;
        }
        return true;
    }
    if (st_str8_eq(kw, STR8_LIT("link"))) {
        if (!parse_xy(p, &rest, &x, &y, &at)) return false;
        int64_t i = level_find_tile(p->link_arr, p->link_count, sizeof(LevelLink), offsetof(LevelLink, tx), x, y);
        if (i < 0) return fail(p, at, "expected a portal '>' at %d %d, found %s", x, y, describe_tile(p, x, y));
        if (p->portal_arr[i].link_line)
            return fail(
                p, kw.data,
                "expected one 'link' line for the portal at %d %d, found a second one (the first is on line %d)", x, y,
                p->portal_arr[i].link_line);
        Str8 file = next_word(&rest);
        LevelRef target;
        if (!level_resolve_file(p, file, &target)) return false;
        Str8 entry = next_word(&rest);
        if (entry.len && !level_check_entry_name(p, entry)) return false;
        if (!expect_eol(p, rest)) return false;
        return level_set_link(p, i, &target, entry);
    }
    if (st_str8_eq(kw, STR8_LIT("entry"))) {
        Str8 name = next_word(&rest);
        if (!level_check_entry_name(p, name)) return false;
        if (!parse_xy(p, &rest, &x, &y, &at) || !expect_eol(p, rest)) return false;
        return level_add_entry(p, name, x, y, at);
    }
    if (st_str8_eq(kw, STR8_LIT("sign"))) return parse_sign(p, kw, rest);
    return fail(p, kw.data, "expected 'enemy', 'link', 'entry' or 'sign', found '%s'", QUOTE(kw));
}

bool level_set_link(Parser *p, int64_t i, const LevelRef *target, Str8 entry) {
    p->portal_arr[i].link_line = (int32_t)p->line_no;
    p->portal_arr[i].target = *target;
    p->link_arr[i].target_path = target->resolved.data;
    p->link_arr[i].entry = entry.len ? st_str8_to_cstr(p->tmp, entry) : NULL;
    if (entry.len && !p->link_arr[i].entry) return fail_memory(p, entry.data, "scratch memory");
    return true;
}

bool level_add_entry(Parser *p, Str8 name, int32_t x, int32_t y, const char *at) {
    TileKind t = tile_of(p->rows[y][x]);
    if (t != TILE_FLOOR && t != TILE_SPIKES)
        return fail(p, at, "expected a walkable tile (floor or spikes) for entry '%.*s' at %d %d, found %s",
                    STR8_FMT(name), x, y, describe_tile(p, x, y));
    for (ChunkListIter it = st_chunk_list_iter(&p->entries);;) {
        LevelEntry *e = st_chunk_list_next(&it);
        if (!e) break;
        if (st_str8_eq_cstr(name, e->name))
            return fail(p, name.data, "expected a new entry name, found '%s' again", QUOTE(name));
    }
    LevelEntry *e = st_chunk_list_push(&p->entries);
    char *copy = st_str8_to_cstr(p->tmp, name);
    if (!e || !copy) return fail_memory(p, name.data, "scratch memory");
    e->name = copy;
    e->tx = (int16_t)x;
    e->ty = (int16_t)y;
    return true;
}

/* ---- The whole text ----------------------------------------------------------------- */

/* The header, the map and the entity lines of s (the text after a BOM). The checks that
   need all of them (every portal linked; no binary byte anywhere) are level.c's. */
bool level_parse_text(Parser *p, Str8 s) {
    Str8 rest = s, line;
    bool in_map = false;
    while (!in_map && st_str8_next_line(&rest, &line)) {
        p->line_no++;
        p->line_start = line.data;
        Str8 t = strip_comment(line);
        if (t.len == 0) continue;
        if (st_str8_eq_cstr(t, "map:")) {
            in_map = true;
            p->map_line = p->line_no;
            if (!p->name_line) return fail(p, t.data, "expected a 'name:' line before 'map:', found 'map:'");
            break;
        }
        if (!parse_header_line(p, line)) return false;
    }
    if (!in_map) {
        p->line_no++;
        p->line_start = NULL;
        return fail(p, NULL, "expected 'map:', found end of file");
    }
    if (!parse_map(p, &rest)) return false;

    for (;;) {
        if (quick_enemy_line(p, &rest)) continue;
        if (!st_str8_next_line(&rest, &line)) break;
        p->line_no++;
        p->line_start = line.data;
        Str8 t = strip_comment(line);
        if (t.len == 0) continue;
        if (!parse_entity_line(p, t)) return false;
    }
    return true;
}
