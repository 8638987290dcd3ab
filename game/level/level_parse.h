/* level_parse.h - internal to the level loader (game/level/level.c and game/level/level_parse.c); not
   part of the level API, which is level.h. It is what crosses the seam between the two:
   level_parse.c turns the text into a Parser (slices of the text, and entities in scratch
   ChunkLists and arrays); level.c reads the file, runs the checks that need the whole level,
   and emits the Parser's result into the level arena. */
#ifndef LEVEL_PARSE_H
#define LEVEL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/chunk_list.h>
#include <strata/core/str8.h>
#include <strata/core/utf8.h>
#include "level/level.h"

/* ---- Parser state ------------------------------------------------------------------- */

/* A level file named by an `exit:` or `link` line: as written, as resolved against the
   level's folder, and where it was written, for the checks that need the disk (level.c). */
typedef struct LevelRef {
    Str8 written, resolved;
    int32_t line, col;
    const char *where; /* in a Tiled map, the object or property that names it (Parser.where) */
} LevelRef;

typedef struct PortalInfo { /* parallel to the links list: where each portal was drawn */
    int32_t line, col;
    int32_t link_line; /* the link line that gave it a target; 0 until one does */
    LevelRef target;   /* the link line's file */
} PortalInfo;

typedef struct Parser {
    const char *path;
    Error *err;
    Arena *tmp;
    Str8 dir; /* path up to and including its last '/', or empty */
    /* Where errors point. A .lvl error points at the line and column of the text. A Tiled
       map's text positions mean nothing to its author, so its reader (level_tiled.c) names
       the object or property being read ("object 21 'link'") in `where`, and the object on
       each tile of the map in `cell_where` (width * height, NULL where none); with
       `objects` set, the "line" fields (sign_lines, link_line, PortalInfo.line) hold
       object ids. */
    const char *where;
    const char **cell_where;
    bool objects;
    int64_t line_no;
    const char *line_start;

    Str8 name;
    LevelRef exit; /* exit.resolved empty: none */
    int32_t name_line, exit_line, bullets_line, particles_line;
    int64_t bullets, particles;

    int32_t width, height;
    int64_t map_line;                /* line of "map:" */
    const char *map_begin, *map_end; /* the map rows: from the first one to the 'end' line */
    const char **rows;               /* height pointers into the text */
    int32_t start_tx, start_ty, start_count;

    ChunkList enemies, pickups, doors, links, portals, entries;
    EnemySpawn *enemy_arr;
    int32_t *enemy_line; /* line of the `enemy` line that set it; 0 = none yet */
    uint32_t *enemy_row; /* height + 1: enemies of row y are [enemy_row[y], enemy_row[y + 1]) */
    uint64_t enemy_next; /* the enemy after the last one an `enemy` line named */
    LevelLink *link_arr;
    PortalInfo *portal_arr;
    LevelDoor *door_arr;
    Pickup *pickup_arr;
    LevelEntry *entry_arr;
    int32_t *entry_line;
    ChunkList signs;      /* LevelSign, text a slice of the file */
    ChunkList sign_lines; /* int32_t, parallel: the line of each sign, for "the first is on line N" */
    uint64_t enemy_count, link_count, door_count, pickup_count;
} Parser;

/* What a "found '%s'" quotes: the offending text made safe to print (core/utf8.h). */
#define QUOTE(s) ST_QUOTE(s)

/* Writes "path:line:col: error: ..." (or "path: error: ..." for line 0) into err; returns
   false, so a failing check can `return level_fail(...)`. */
__attribute__((format(printf, 5, 6))) bool level_fail(Error *err, const char *path, int64_t line, int64_t col,
                                                      const char *fmt, ...);

/* The header, the map and the entity lines of s (the text after a BOM) into p, which the
   caller has set up (path, err, tmp, dir, pool defaults, the ChunkLists). */
bool level_parse_text(Parser *p, Str8 s);

/* The map's rows (p->rows, p->width, p->height; lens[y] the length of row y) into tiles and
   entities, sorted row-major in the Parser's arrays. The .lvl map and a Tiled map's grid
   (level_tiled.c draws one in the same characters) go through this one conversion. */
bool level_parse_map_rows(Parser *p, const uint32_t *lens);

/* The map's tiles (width * height, row-major, doors closed) from its rows, which
   level_parse_map_rows has checked: written straight into the level arena by the loader's
   commit, so they are never copied. */
void level_write_tiles(const Parser *p, uint8_t *tiles);

/* The checks and setters of the entity lines and the header, for both formats: each fails
   with the message for its line (.lvl) or its object (p->where). `at` is where in the line
   the tile's column was written (ignored for a Tiled map). */
bool level_check_range(Parser *p, const char *at, int64_t v, int64_t lo, int64_t hi, const char *what);
/* How an error names what a map character stands for: "floor", "a wall", "a red key"... */
const char *level_describe_char(char c);
bool level_check_entry_name(Parser *p, Str8 name);
bool level_resolve_file(Parser *p, Str8 rel, LevelRef *out);
bool level_set_name(Parser *p, Str8 value, const char *at);
bool level_set_link(Parser *p, int64_t portal, const LevelRef *target, Str8 entry);
bool level_add_entry(Parser *p, Str8 name, int32_t x, int32_t y, const char *at);
bool level_add_sign(Parser *p, const char *kw, int32_t x, int32_t y, const char *at, Str8 text);

/* Whether `path` names a Tiled map (ends in LEVEL_TILED_EXT). */
bool level_is_tiled_path(const char *path);

/* Offset of the first byte of s that makes the text binary, or -1 when there is none. */
int64_t level_binary_at(Str8 s);

#endif
