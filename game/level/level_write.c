/* level_write.c - a Level as canonical .lvl text (level_write.h), and level_equal.

   The text is produced twice by the same code: once counting bytes, once filling a buffer
   of exactly that size, so the result is one contiguous push into the caller's arena and
   nothing else (no scratch, no guess at a size). */
#include "level/level_write.h"

#include <stdio.h>
#include <string.h>

#include <strata/core/path.h>

/* ---- Paths as written ------------------------------------------------------------------ */

/* `resolved` (exit_to or a link's target_path) as lv's file writes it. The parser resolves
   a written FILE as itself when it starts with '/', else as the folder of the level's path
   followed by it (level_parse.c: resolve_level_file), so the written form is a suffix of
   the resolved one. `written` is the loader's record of it, used when it still resolves to
   `resolved` (an editor may have changed the target and not the record); without one, the
   folder is taken off. NULL for NULL. */
static const char *written_form(const Level *lv, const char *resolved, const char *written) {
    if (!resolved) return NULL;
    Str8 dir = st_path_dir_prefix(st_str8_cstr(lv->path));
    Str8 r = st_str8_cstr(resolved);
    Str8 w = st_str8_cstr(written);
    if (w.len) {
        bool same = w.data[0] == '/'
                        ? st_str8_eq(w, r)
                        : r.len == dir.len + w.len && st_str8_starts_with(r, dir) && st_str8_ends_with(r, w);
        if (same) return resolved + (r.len - w.len);
    }
    if (dir.len && r.len > dir.len && st_str8_starts_with(r, dir) && r.data[dir.len] != '/') return resolved + dir.len;
    return resolved;
}

/* ---- Output ------------------------------------------------------------------------------ */

/* With buf NULL only counts: the first pass sizes the buffer the second one fills. */
typedef struct Out {
    char *buf;
    uint64_t len;
} Out;

static void put(Out *o, const char *s, uint64_t n) {
    if (o->buf && n) memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void put_str(Out *o, const char *s) { put(o, s, s ? strlen(s) : 0); }

static void put_int(Out *o, int64_t v) {
    char num[24];
    int n = snprintf(num, sizeof num, "%lld", (long long)v);
    put(o, num, (uint64_t)n);
}

/* " X Y": a tile's column and row, after a keyword. */
static void put_xy(Out *o, int32_t x, int32_t y) {
    put(o, " ", 1);
    put_int(o, x);
    put(o, " ", 1);
    put_int(o, y);
}

/* ---- The map ----------------------------------------------------------------------------- */

/* A tile's character before the entities are drawn on it. A door's colour is its LevelDoor's,
   drawn with the entities; '?' (not in the legend) marks a tile the writer cannot name, so
   that the text of an inconsistent level fails to parse instead of meaning something else. */
static char tile_char(uint8_t t) {
    switch ((TileKind)t) {
    case TILE_FLOOR: return '.';
    case TILE_WALL: return '#';
    case TILE_WATER: return '~';
    case TILE_SPIKES: return '^';
    case TILE_EXIT: return 'X';
    case TILE_PORTAL: return '>';
    case TILE_DOOR:
    case TILE_KIND_COUNT: break;
    }
    return '?';
}

static void put_at(Out *o, uint64_t map_at, const Level *lv, int32_t x, int32_t y, char c) {
    if (x < 0 || y < 0 || x >= lv->width || y >= lv->height) return; /* never outside the map */
    o->buf[map_at + (uint64_t)y * ((uint64_t)lv->width + 1) + (uint64_t)x] = c;
}

/* Every row, then the entities drawn over the tiles: the player start, enemies, pickups and
   the doors' colours. */
static void put_map(Out *o, const Level *lv) {
    uint64_t w = lv->width > 0 ? (uint64_t)lv->width : 0, h = lv->height > 0 ? (uint64_t)lv->height : 0;
    uint64_t map_at = o->len;
    o->len += (w + 1) * h;
    if (!o->buf) return;
    for (uint64_t y = 0; y < h; y++) {
        char *row = o->buf + map_at + y * (w + 1);
        for (uint64_t x = 0; x < w; x++) row[x] = tile_char(lv->tiles[y * w + x]);
        row[w] = '\n';
    }
    static const char enemy_char[ENEMY_KIND_COUNT] = {
        [ENEMY_PATROLLER] = 'p', [ENEMY_CHASER] = 'c', [ENEMY_TURRET] = 't'};
    static const char key_char[KEY_COLOR_COUNT] = {[KEY_RED] = 'r', [KEY_GREEN] = 'g', [KEY_BLUE] = 'b'};
    static const char door_char[KEY_COLOR_COUNT] = {[KEY_RED] = 'R', [KEY_GREEN] = 'G', [KEY_BLUE] = 'B'};
    for (int32_t i = 0; i < lv->door_count; i++) {
        const LevelDoor *d = &lv->doors[i];
        put_at(o, map_at, lv, d->tx, d->ty, (unsigned)d->color < KEY_COLOR_COUNT ? door_char[d->color] : '?');
    }
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const EnemySpawn *e = &lv->enemies[i];
        put_at(o, map_at, lv, e->tx, e->ty, (unsigned)e->kind < ENEMY_KIND_COUNT ? enemy_char[e->kind] : '?');
    }
    for (int32_t i = 0; i < lv->pickup_count; i++) {
        const Pickup *k = &lv->pickups[i];
        char c = k->kind == PICKUP_COIN ? '$' : k->kind == PICKUP_HEART ? '+' : '?';
        if (k->kind == PICKUP_KEY && (unsigned)k->color < KEY_COLOR_COUNT) c = key_char[k->color];
        put_at(o, map_at, lv, k->tx, k->ty, c);
    }
    put_at(o, map_at, lv, lv->start_tx, lv->start_ty, '@');
}

/* ---- The whole level --------------------------------------------------------------------- */

/* Each group of entity lines after a blank line, so the groups read apart. */
static void put_group_break(Out *o, bool *first_of_group) {
    if (*first_of_group) put(o, "\n", 1);
    *first_of_group = false;
}

static void put_level(Out *o, const Level *lv) {
    put(o, "name: ", 6);
    put_str(o, lv->name);
    put(o, "\n", 1);
    if (lv->exit_to) {
        put(o, "exit: ", 6);
        put_str(o, written_form(lv, lv->exit_to, lv->exit_written));
        put(o, "\n", 1);
    }
    if (lv->bullet_cap != LEVEL_DEFAULT_BULLETS) {
        put(o, "bullets: ", 9);
        put_int(o, lv->bullet_cap);
        put(o, "\n", 1);
    }
    if (lv->particle_cap != LEVEL_DEFAULT_PARTICLES) {
        put(o, "particles: ", 11);
        put_int(o, lv->particle_cap);
        put(o, "\n", 1);
    }
    put(o, "\nmap:\n", 6);
    put_map(o, lv);
    put(o, "end\n", 4);

    /* Enemies and links in the order of their arrays, which the loader sorts by row then
       column; entries and signs in the order of their lines, which the level keeps (a sign
       nearer the front wins a tie). */
    bool first = true;
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const EnemySpawn *e = &lv->enemies[i];
        if (!e->hp) continue; /* the kind's default: no line */
        put_group_break(o, &first);
        put(o, "enemy", 5);
        put_xy(o, e->tx, e->ty);
        put(o, " hp=", 4);
        put_int(o, e->hp);
        put(o, "\n", 1);
    }
    first = true;
    for (int32_t i = 0; i < lv->link_count; i++) {
        const LevelLink *l = &lv->links[i];
        put_group_break(o, &first);
        put(o, "link", 4);
        put_xy(o, l->tx, l->ty);
        put(o, " ", 1);
        put_str(o, written_form(lv, l->target_path, l->target_written));
        if (l->entry) {
            put(o, " ", 1);
            put_str(o, l->entry);
        }
        put(o, "\n", 1);
    }
    first = true;
    for (int32_t i = 0; i < lv->entry_count; i++) {
        const LevelEntry *e = &lv->entries[i];
        put_group_break(o, &first);
        put(o, "entry ", 6);
        put_str(o, e->name);
        put_xy(o, e->tx, e->ty);
        put(o, "\n", 1);
    }
    first = true;
    for (int32_t i = 0; i < lv->sign_count; i++) {
        const LevelSign *g = &lv->signs[i];
        put_group_break(o, &first);
        put(o, "sign", 4);
        put_xy(o, g->tx, g->ty);
        put(o, " ", 1);
        put(o, g->text.data, g->text.len);
        put(o, "\n", 1);
    }
}

Str8 level_write(Arena *a, const Level *lv) {
    Out size = {0};
    put_level(&size, lv);
    char *buf = st_arena_push_raw(a, size.len + 1, 1);
    if (!buf) return (Str8){0};
    Out fill = {.buf = buf};
    put_level(&fill, lv);
    buf[fill.len] = 0;
    return (Str8){buf, fill.len};
}

/* ---- Comparison ---------------------------------------------------------------------------- */

static bool str_same(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

bool level_equal(const Level *a, const Level *b) {
    if (a->width != b->width || a->height != b->height || a->start_tx != b->start_tx || a->start_ty != b->start_ty ||
        a->bullet_cap != b->bullet_cap || a->particle_cap != b->particle_cap || a->enemy_count != b->enemy_count ||
        a->pickup_count != b->pickup_count || a->door_count != b->door_count || a->link_count != b->link_count ||
        a->entry_count != b->entry_count || a->sign_count != b->sign_count)
        return false;
    if (!str_same(a->name, b->name)) return false;
    if (!str_same(written_form(a, a->exit_to, a->exit_written), written_form(b, b->exit_to, b->exit_written)))
        return false;
    uint64_t tiles = a->width > 0 && a->height > 0 ? (uint64_t)a->width * (uint64_t)a->height : 0;
    if (tiles && memcmp(a->tiles, b->tiles, tiles) != 0) return false;
    for (int32_t i = 0; i < a->enemy_count; i++) {
        const EnemySpawn *x = &a->enemies[i], *y = &b->enemies[i];
        if (x->tx != y->tx || x->ty != y->ty || x->kind != y->kind || x->hp != y->hp) return false;
    }
    for (int32_t i = 0; i < a->pickup_count; i++) {
        const Pickup *x = &a->pickups[i], *y = &b->pickups[i];
        /* A key's colour counts; the loader leaves KEY_RED in the other pickups, an editor may not. */
        if (x->tx != y->tx || x->ty != y->ty || x->kind != y->kind || (x->kind == PICKUP_KEY && x->color != y->color))
            return false;
    }
    for (int32_t i = 0; i < a->door_count; i++) {
        const LevelDoor *x = &a->doors[i], *y = &b->doors[i];
        if (x->tx != y->tx || x->ty != y->ty || x->color != y->color) return false;
    }
    for (int32_t i = 0; i < a->link_count; i++) {
        const LevelLink *x = &a->links[i], *y = &b->links[i];
        if (x->tx != y->tx || x->ty != y->ty || !str_same(x->entry, y->entry) ||
            !str_same(written_form(a, x->target_path, x->target_written),
                      written_form(b, y->target_path, y->target_written)))
            return false;
    }
    for (int32_t i = 0; i < a->entry_count; i++) {
        const LevelEntry *x = &a->entries[i], *y = &b->entries[i];
        if (x->tx != y->tx || x->ty != y->ty || !str_same(x->name, y->name)) return false;
    }
    for (int32_t i = 0; i < a->sign_count; i++) {
        const LevelSign *x = &a->signs[i], *y = &b->signs[i];
        if (x->tx != y->tx || x->ty != y->ty || !st_str8_eq(x->text, y->text)) return false;
    }
    return true;
}
