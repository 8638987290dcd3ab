/* level_write.h - a Level back to .lvl text, in the canonical form (levels/README.md,
   "The canonical form"), and the field-by-field comparison of two levels.

   The text is what level_parse and level_load read back into the same level: the round trip
   load -> write -> parse gives a level that level_equal calls the same, and writing that
   one gives the same text again. Comments, blank lines, the order of the entity lines and
   spacing are not kept; everything that makes the level is. `levelfmt` is this on files;
   the editor saves with it.

       SCRATCH_SCOPE(tmp, level_arena);
       Str8 text = level_write(tmp.arena, &lv);      // NUL-terminated; {NULL, 0}: arena full
       if (!text.data) return false;
       Level back;
       Error err;
       if (!level_parse(&back, other_level_arena, lv.path, text.data, text.len, NULL, &err, NULL))
           st_error_report(&err);                 // lv was not a valid level
       bool same = level_equal(&lv, &back);          // true for every level as loaded

   The writer does not validate: give it a level as the loader makes them (or as an editor
   keeps them valid: entity arrays sorted by row then column, an entity on a floor tile, a
   LevelDoor for each door tile and a LevelLink for each portal) and parse the text to check
   one that may not be. Exit and link targets are written as the file wrote them, relative
   to the folder of lv->path (Level.exit_written, LevelLink.target_written); for a target
   set without its written form, exit_to or target_path minus that folder. */
#ifndef LEVEL_WRITE_H
#define LEVEL_WRITE_H

#include <stdbool.h>

#include <strata/core/arena.h>
#include <strata/core/str8.h>
#include "level/level.h"

/* Writes `lv` (as loaded: level_load / level_parse) as .lvl text into `a`, NUL-terminated: the canonical form. */
Str8 level_write(Arena *a, const Level *lv);
/* Field by field: the same level (sizes, tiles, every entity list in order, name, exit and link targets, entries,
   signs, pool sizes). For tests and the editor. Paths compared as written relative to each level's own folder. */
bool level_equal(const Level *a, const Level *b);

#endif
