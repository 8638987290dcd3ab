/* level_load.h - reads a level file (.lvl text or a Tiled map) into the level arena, with
   every check of the format (levels/README.md), or parses one already in memory; the types
   (Level, Error, LevelRoom, LevelLoadStats) and the lookups are level.h's.

       Level lv;
       Error err;
       if (!level_load(&lv, level_arena, "levels/01-first-steps.lvl", &err)) st_error_report(&err);
*/
#ifndef LEVEL_LOAD_H
#define LEVEL_LOAD_H

#include "level/level.h"

/* Reads, validates and loads `path`, with the caller's `room` beside it (NULL: none). On
   failure returns false, fills *err and leaves *out, *room and the level arena exactly as
   they were. `stats` may be NULL.

   The level's exit and links must name existing level files inside the folder tree `root`
   (NULL: the folder of `path`): the game passes the folder of the level that started the
   run, so a level can never lead to /etc/passwd or to a file the player did not mean to
   ship. Checked with the real paths (symbolic links followed), on the line that names them.

   `path` may point anywhere, even into the level arena that the load clears: loading
   lv.exit_to or lv.links[i].target_path of the current level is the normal way to change
   levels, and the loader copies the path to scratch memory before anything is cleared.

   `level_arena` must be created with ARENA_FLAG_NO_CHAIN (arena.h has no flag getter, so
   this is not checked). The fit check compares the level's exact need with
   st_arena_capacity(), which is what a NO_CHAIN arena can ever hold; for a chaining arena it
   is only the first block, and a level would be refused that the arena could have taken. */
bool level_load_ex(Level *out, Arena *level_arena, const char *path, const char *root, LevelRoom *room, Error *err,
                   LevelLoadStats *stats);
bool level_load(Level *out, Arena *level_arena, const char *path, Error *err);

/* Parses text already in memory (the fuzzer's entry point; JSON when `path` ends in
   LEVEL_TILED_EXT), with every check level_load
   makes except those that need the disk: exit and link targets are resolved (extension and
   length checked) but not looked up. The same rules for `path` and `level_arena`; `text`
   must not lie in the level arena. */
bool level_parse(Level *out, Arena *level_arena, const char *path, const char *text, uint64_t len, LevelRoom *room,
                 Error *err, LevelLoadStats *stats);

#endif
