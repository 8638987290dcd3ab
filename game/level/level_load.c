/* level_load.c - the loader of level files (.lvl and Tiled maps) on the level arena.

   Loading is three phases, and only the last one touches the level arena:
     1. read the file into a scratch arena (a scratch scope that names the level arena as its
        conflict, so it can never be the level arena);
     2. parse and validate all of it with Str8 slices into that text, gathering entities in
        scratch ChunkLists;
     3. measure the exact bytes the level will need (by running the same emit code that
        copies it, without copying), refuse with the arena-full message if that is more than
        the arena can hold, make sure the pages are committed, and only then clear the level
        arena and copy arrays and strings in, then push the caller's room (LevelRoom) for the
        level's runtime state. Nothing after the clear can fail.

   This file holds phases 1 and 3, the checks of phase 2 that need the whole level, and the
   entry points. The rest of phase 2, from the text to the Parser (character classes, UTF-8
   and binary checks, header, map and entity lines), is level_parse.c for .lvl text and
   level_tiled.c for Tiled maps; level_parse.h is what they share. The lookups on a loaded
   level are level.c's. */
#include "level/level_load.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/core/chunk_list.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include <strata/core/str8.h>
#include "level/level_parse.h"
#include "level/level_tiled.h"

/* ---- Reading ------------------------------------------------------------------------ */

/* An arena refused: `lead` about the whole file, then the arena's words, ERROR_OUT_OF_MEMORY. */
static bool level_fail_memory(Error *err, const char *path, const char *lead) {
    level_fail(err, path, 0, 0, "%s", lead);
    return st_arena_error(err);
}

#define LEVEL_MAX_FILE_BYTES (256ull << 20)

/* Reads the whole file into `arena` (st_os_read_file: regular files only, so a FIFO cannot
   hang the load), turning the OS's reason into the loader's own message. */
static bool level_read_file(Arena *arena, const char *path, Str8 *out, Error *err) {
    uint64_t max = level_is_tiled_path(path) ? LEVEL_TILED_MAX_FILE_BYTES : LEVEL_MAX_FILE_BYTES;
    Error why;
    if (st_os_read_file(arena, path, max, out, &why)) return true;
    if (why.code == ERROR_OUT_OF_MEMORY)
        return level_fail_memory(err, path, "expected scratch memory for the file, found ");
    if (why.code == ERROR_NOT_FOUND || why.code == ERROR_REFUSED)
        level_fail(err, path, 0, 0, "cannot open %s: %s", path, strerror(why.err_no));
    else if (why.code == ERROR_NOT_FILE && why.err_no == EISDIR)
        level_fail(err, path, 0, 0, "expected a level file, found a directory");
    else if (why.code == ERROR_NOT_FILE)
        level_fail(err, path, 0, 0, "expected a level file, found a special file (device, FIFO or socket)");
    else if (why.code == ERROR_TOO_BIG)
        level_fail(err, path, 0, 0, "expected a level file of at most %llu bytes, found %llu bytes",
                   (unsigned long long)max, (unsigned long long)st_os_file_info(path).size);
    else
        level_fail(err, path, 0, 0, "expected a readable file, found one that cannot be read (%s)",
                   strerror(why.err_no));
    /* The loader's words, the reader's code: a caller tells a missing file from a bad one. */
    if (err) err->code = why.code, err->err_no = why.err_no;
    return false;
}

/* ---- Checks that need the whole level ----------------------------------------------- */

/* Every portal drawn in the map got a target from a `link` line. */
static bool check_links(const Parser *p) {
    for (uint64_t i = 0; i < p->link_count; i++)
        if (!p->portal_arr[i].link_line)
            return level_fail(p->err, p->path, p->portal_arr[i].line, p->portal_arr[i].col,
                              "expected a 'link %d %d FILE' line for this portal, found none", p->link_arr[i].tx,
                              p->link_arr[i].ty);
    return true;
}

/* An error about the file a LevelRef names: at its line and column, or, in a Tiled map, with
   the object or property that names it. */
static bool ref_fail(const Parser *p, const LevelRef *r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool ref_fail(const Parser *p, const LevelRef *r, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->where) return level_fail(p->err, p->path, 0, 0, "%s: %s", r->where, msg);
    return level_fail(p->err, p->path, r->line, r->col, "%s", msg);
}

/* A level file that an exit or link names: it exists, is a regular file, and its real path
   lies inside `root_real` (a real path, without a trailing slash). */
static bool check_level_file(const Parser *p, const LevelRef *r, const char *root_real, const char *root) {
    const char *full = r->resolved.data;
    OsFileInfo fi = st_os_file_info(full);
    if (fi.kind == OS_FILE_NONE)
        return ref_fail(p, r, "expected an existing level file, found '%s' (%s: %s)", QUOTE(r->written), full,
                        strerror(fi.error));
    if (fi.kind != OS_FILE_REGULAR)
        return level_fail(p->err, p->path, r->line, r->col,
                          "expected an existing level file, found '%s' (%s: not a regular file)", QUOTE(r->written),
                          full);
    char real[PATH_MAX];
    if (!st_os_real_path(full, real, sizeof real))
        return ref_fail(p, r, "expected an existing level file, found '%s' (%s: %s)", QUOTE(r->written), full,
                        strerror(errno));
    size_t n = strlen(root_real);
    bool inside = strncmp(real, root_real, n) == 0 && (real[n] == '/' || (n == 1 && root_real[0] == '/'));
    if (!inside)
        return level_fail(p->err, p->path, r->line, r->col,
                          "expected a level file inside '%s', the folder of the run, found '%s' (%s)", root,
                          QUOTE(r->written), real);
    return true;
}

/* The checks that need the disk: every exit and link target (check_level_file) against the
   run's root folder, `root`, or the level's own folder when it is NULL. */
static bool check_level_files(const Parser *p, const char *root) {
    if (!p->exit.resolved.len && !p->link_count) return true;
    char dir[LEVEL_PATH_MAX];
    if (!root) {
        snprintf(dir, sizeof dir, "%.*s", (int)p->dir.len, p->dir.data);
        root = dir[0] ? dir : ".";
    }
    char root_real[PATH_MAX];
    if (!st_os_real_path(root, root_real, sizeof root_real))
        return level_fail(p->err, p->path, 0, 0, "expected the run's folder '%s' to exist, found %s", root,
                          strerror(errno));
    if (p->exit.resolved.len && !check_level_file(p, &p->exit, root_real, root)) return false;
    for (uint64_t i = 0; i < p->link_count; i++)
        if (!check_level_file(p, &p->portal_arr[i].target, root_real, root)) return false;
    return true;
}

/* The error for the binary byte at text[at]. Columns count from after a BOM, as the
   parser's do (a BOM is never binary, so `at` is past it). */
static bool binary_error(Error *err, const char *path, const char *text, int64_t at) {
    int64_t line = 1, col = 1, i = at >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (; i < at; i++) {
        if (text[i] == '\n') line++, col = 1;
        else col++;
    }
    return level_fail(err, path, line, col, "expected text, found binary data (the byte 0x%02X)",
                      (unsigned)(uint8_t)text[at]);
}

/* ---- Emitting into the level arena -------------------------------------------------- */

/* Measures (commit false) or performs (commit true) the level arena pushes. Both runs go
   through the same code, so the measured need is exactly what the commit takes. */
typedef struct Emit {
    Arena *arena;
    uint64_t pos;
    bool commit, failed;
} Emit;

static void *emit_push(Emit *o, uint64_t size, uint64_t align, bool zero) {
    if (size == 0) return NULL;
    if (!o->commit) {
        o->pos = ((o->pos + align - 1) & ~(align - 1)) + size;
        return NULL;
    }
    void *m = zero ? st_arena_push(o->arena, size, align) : st_arena_push_raw(o->arena, size, align);
    if (!m) o->failed = true;
    return m;
}

static const char *emit_str(Emit *o, Str8 s) {
    char *m = emit_push(o, s.len + 1, 1, false);
    if (m) {
        if (s.len) memcpy(m, s.data, s.len);
        m[s.len] = 0;
    }
    return m;
}

static void *emit_copy(Emit *o, const void *src, uint64_t count, uint64_t size, uint64_t align) {
    void *m = emit_push(o, count * size, align, false);
    if (m) memcpy(m, src, count * size);
    return m;
}

/* The level, then the caller's room (LevelRoom): last, so the level's own arrays sit at the
   same offsets with or without one. */
static void emit_level(Emit *o, const Parser *p, Level *lv, LevelRoom *room) {
    *lv = (Level){0};
    lv->path = emit_str(o, st_str8_cstr(p->path));
    lv->name = emit_str(o, p->name);
    lv->exit_to = p->exit.resolved.len ? emit_str(o, p->exit.resolved) : NULL;
    /* The written form is a suffix of the resolved one (level_parse.c: resolve_level_file):
       a pointer into it, at no cost in the arena. */
    lv->exit_written = lv->exit_to ? lv->exit_to + (p->exit.resolved.len - p->exit.written.len) : NULL;
    lv->width = p->width;
    lv->height = p->height;
    uint8_t *tiles = emit_push(o, (uint64_t)p->width * (uint64_t)p->height, 1, false);
    if (tiles) level_write_tiles(p, tiles);
    lv->tiles = tiles;
    lv->start_tx = (int16_t)p->start_tx;
    lv->start_ty = (int16_t)p->start_ty;
    lv->enemies = emit_copy(o, p->enemy_arr, p->enemy_count, sizeof(EnemySpawn), _Alignof(EnemySpawn));
    lv->enemy_count = (int32_t)p->enemy_count;
    lv->pickups = emit_copy(o, p->pickup_arr, p->pickup_count, sizeof(Pickup), _Alignof(Pickup));
    lv->pickup_count = (int32_t)p->pickup_count;
    lv->doors = emit_copy(o, p->door_arr, p->door_count, sizeof(LevelDoor), _Alignof(LevelDoor));
    lv->door_count = (int32_t)p->door_count;
    LevelLink *links = emit_copy(o, p->link_arr, p->link_count, sizeof(LevelLink), _Alignof(LevelLink));
    lv->links = links;
    lv->link_count = (int32_t)p->link_count;
    for (uint64_t i = 0; i < p->link_count; i++) {
        const LevelRef *ref = &p->portal_arr[i].target;
        const char *target = emit_str(o, ref->resolved);
        const char *entry = p->link_arr[i].entry ? emit_str(o, st_str8_cstr(p->link_arr[i].entry)) : NULL;
        if (links) {
            links[i].target_path = target;
            links[i].entry = entry;
            links[i].target_written = target + (ref->resolved.len - ref->written.len);
        }
    }
    lv->entry_count = (int32_t)p->entries.count;
    LevelEntry *entries = emit_push(o, p->entries.count * sizeof(LevelEntry), _Alignof(LevelEntry), false);
    lv->entries = entries;
    ChunkListIter it = st_chunk_list_iter(&p->entries);
    for (uint64_t i = 0; i < p->entries.count; i++) {
        const LevelEntry *e = st_chunk_list_next(&it);
        const char *name = emit_str(o, st_str8_cstr(e->name));
        if (entries) entries[i] = (LevelEntry){.name = name, .tx = e->tx, .ty = e->ty};
    }
    lv->sign_count = (int32_t)p->signs.count;
    LevelSign *signs = emit_push(o, p->signs.count * sizeof(LevelSign), _Alignof(LevelSign), false);
    lv->signs = signs;
    ChunkListIter sit = st_chunk_list_iter(&p->signs);
    for (uint64_t i = 0; i < p->signs.count; i++) {
        const LevelSign *g = st_chunk_list_next(&sit);
        const char *text = emit_str(o, g->text);
        if (signs) signs[i] = (LevelSign){.tx = g->tx, .ty = g->ty, .text = {text, g->text.len}};
    }
    lv->bullet_cap = (int32_t)p->bullets;
    lv->particle_cap = (int32_t)p->particles;
    if (room && room->bytes) {
        /* The counts are all set by now, which is all `bytes` may read. */
        room->size = room->bytes(lv);
        room->block = emit_push(o, room->size, LEVEL_ROOM_ALIGN, true);
    }
}

/* ---- Entry points ------------------------------------------------------------------- */

/* The .lvl text s (text without its BOM) into p, with the binary check. */
static bool level_parse_lvl(Parser *p, const char *text, uint64_t len, Str8 s) {
    bool parsed = level_parse_text(p, s) && check_links(p);
    /* The binary check runs after the parse but its error still wins over any other, as if
       it ran first. A map that parsed holds only legend characters and line ends, so after a
       successful parse only the text around the map needs the check (the map is most of a
       big level); after a failed one all of the text is checked, and a binary byte replaces
       the parse's error. The parser is safe on any bytes: it is fuzzed with them. */
    int64_t bin = level_binary_at(parsed ? (Str8){text, (uint64_t)(p->map_begin - text)} : (Str8){text, len});
    if (bin < 0 && parsed) {
        bin = level_binary_at((Str8){p->map_end, (uint64_t)(text + len - p->map_end)});
        if (bin >= 0) bin += p->map_end - text;
    }
    if (bin >= 0) return binary_error(p->err, p->path, text, bin);
    return parsed;
}

/* A parser on `path` whose lists grow in the scratch arena `tmp`. */
static void parser_init(Parser *p, const char *path, Error *err, Arena *tmp) {
    *p = (Parser){
        .path = path, .err = err, .tmp = tmp, .bullets = LEVEL_DEFAULT_BULLETS, .particles = LEVEL_DEFAULT_PARTICLES};
    p->dir = st_path_dir_prefix(st_str8_cstr(path));
    st_chunk_list_init(&p->enemies, tmp, sizeof(EnemySpawn), 256);
    st_chunk_list_init(&p->pickups, tmp, sizeof(Pickup), 256);
    st_chunk_list_init(&p->doors, tmp, sizeof(LevelDoor), 64);
    st_chunk_list_init(&p->links, tmp, sizeof(LevelLink), 64);
    st_chunk_list_init(&p->portals, tmp, sizeof(PortalInfo), 64);
    st_chunk_list_init(&p->entries, tmp, sizeof(LevelEntry), 64);
    st_chunk_list_init(&p->signs, tmp, sizeof(LevelSign), 16);
    st_chunk_list_init(&p->sign_lines, tmp, sizeof(int32_t), 16);
}

/* Measures what the parsed level (and the room `measured` asks for, whose size it sets)
   needs in the level arena, and commits those pages while the old level is still intact,
   so that nothing after the arena is cleared can fail. False, the old level untouched,
   when it does not fit. `tmp` is the load's scratch, for the stats. */
static bool level_reserve(Arena *level_arena, const Parser *p, LevelRoom *measured, const ArenaTemp *tmp,
                          LevelLoadStats *stats) {
    Emit measure = {.arena = level_arena};
    Level scratch_level;
    emit_level(&measure, p, &scratch_level, measured);
    uint64_t need = measure.pos;
    if (stats) {
        stats->level_bytes = need;
        stats->scratch_peak = st_arena_pos(tmp->arena) - tmp->pos;
    }
    uint64_t cap = st_arena_capacity(level_arena);
    if (need > cap)
        return st_error_set(p->err, ERROR_OUT_OF_MEMORY, p->path, 0, 0,
                            "level does not fit: arena '%s' full: 0 of %llu bytes used, asked for %llu more",
                            st_arena_name(level_arena), (unsigned long long)cap, (unsigned long long)need);
    /* Pushing to `need` and popping back leaves the pages committed. */
    uint64_t old = st_arena_pos(level_arena);
    if (need > old) {
        if (!st_arena_push_raw(level_arena, need - old, 1))
            return level_fail_memory(p->err, p->path, "level does not fit: ");
        st_arena_pop_to(level_arena, old);
    }
    return true;
}

/* Clears the level arena and writes the parsed level into it, where level_reserve made
   room: *out and the caller's room on success. */
static bool level_commit(Level *out, Arena *level_arena, const Parser *p, const LevelRoom *measured, LevelRoom *room) {
    st_arena_clear(level_arena);
    Emit commit = {.arena = level_arena, .commit = true};
    Level lv;
    LevelRoom made = *measured;
    emit_level(&commit, p, &lv, &made);
    /* Unreachable while the measure is exact (and `bytes` gives the same answer twice);
       test_level checks st_arena_pos == arena_bytes. */
    if (commit.failed) return level_fail_memory(p->err, p->path, "internal error: ");
    if (made.size != measured->size) return level_fail(p->err, p->path, 0, 0, "internal error: room size changed");
    lv.arena_bytes = st_arena_pos(level_arena);
    *out = lv;
    if (room) {
        room->block = made.block;
        room->size = made.size;
    }
    return true;
}

/* level_parse, and with `check_files` the disk checks of level_load_ex against `root`. */
static bool level_build(Level *out, Arena *level_arena, const char *path, const char *text, uint64_t len,
                        bool check_files, const char *root, LevelRoom *room, Error *err, LevelLoadStats *stats) {
    Error dummy;
    if (!err) err = &dummy;
    st_error_clear(err);
    if (stats) *stats = (LevelLoadStats){0};
    if (!path) path = "(memory)";
    SCRATCH_SCOPE(tmp, level_arena);
    if (!tmp.arena) return level_fail_memory(err, path, "expected scratch memory, found ");
    /* The caller's path may live in the level arena (the current level's exit_to or a
       link's target_path), which the commit below clears before emit_level copies the
       path: from here on, only this copy (and slices of it, like p.dir) is used. */
    const char *own_path = st_arena_strdup(tmp.arena, path);
    if (!own_path) return level_fail_memory(err, path, "expected scratch memory, found ");
    path = own_path;

    Str8 s = {text, text ? len : 0};
    if (s.len == 0) return level_fail(err, path, 0, 0, "expected a level, found an empty file");
    if (st_str8_starts_with(s, STR8_LIT("\xEF\xBB\xBF"))) s = st_str8_skip(s, 3); /* a UTF-8 BOM */

    Parser p;
    parser_init(&p, path, err, tmp.arena);
    if (level_is_tiled_path(path)) {
        /* JSON: level_json.c checks the syntax, the reader every string it keeps (level_tiled.c). */
        if (!level_tiled_parse(&p, s.data, s.len) || !check_links(&p)) return false;
    } else if (!level_parse_lvl(&p, text, len, s)) {
        return false;
    }
    if (check_files && !check_level_files(&p, root)) return false;

    /* Everything is valid. Now the level arena: measure, check, commit. */
    LevelRoom measured = {.bytes = room ? room->bytes : NULL};
    return level_reserve(level_arena, &p, &measured, &tmp, stats) &&
           level_commit(out, level_arena, &p, &measured, room);
}

bool level_parse(Level *out, Arena *level_arena, const char *path, const char *text, uint64_t len, LevelRoom *room,
                 Error *err, LevelLoadStats *stats) {
    return level_build(out, level_arena, path, text, len, false, NULL, room, err, stats);
}

bool level_load_ex(Level *out, Arena *level_arena, const char *path, const char *root, LevelRoom *room, Error *err,
                   LevelLoadStats *stats) {
    Error dummy;
    if (!err) err = &dummy;
    st_error_clear(err);
    if (stats) *stats = (LevelLoadStats){0};
    SCRATCH_SCOPE(tmp, level_arena);
    if (!tmp.arena) return level_fail_memory(err, path, "expected scratch memory, found ");
    Str8 text = {0};
    if (!level_read_file(tmp.arena, path, &text, err)) return false;
    uint64_t file_bytes = st_arena_pos(tmp.arena) - tmp.pos;
    bool ok = level_build(out, level_arena, path, text.data, text.len, true, root, room, err, stats);
    if (stats) stats->scratch_peak += file_bytes;
    return ok;
}

bool level_load(Level *out, Arena *level_arena, const char *path, Error *err) {
    return level_load_ex(out, level_arena, path, NULL, NULL, err, NULL);
}
