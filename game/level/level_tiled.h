/* level_tiled.h - maps made in the Tiled editor, saved as JSON (.tmj), read into the level
   loader's intermediate form. Internal to the loader, like level_parse.h: level_load and
   level_parse call it for a path ending in LEVEL_TILED_EXT, and everything after it is the
   .lvl path's own code: the map's grid goes through the same conversion as a .lvl map
   (level_parse_map_rows), names, files, entries, signs and hit points through the same
   checks, then the checks that need the disk, the fit check and the copy into the level
   arena (level.c). What each tile, object and property means is in levels/README.md
   ("Levels from Tiled").

       if (level_is_tiled_path(path)) ok = level_tiled_parse(&parser, text, len);

   The JSON is read in place by level_json.h: checked whole first (a syntax error is
   reported before any meaning, with its line and column), then walked for what the map
   needs, the tile layer's ids drawn as they come; the scratch it takes is the grid the
   loader needs anyway plus 8 bytes per string, array and object of the text. */
#ifndef LEVEL_TILED_H
#define LEVEL_TILED_H

#include <stdbool.h>
#include <stdint.h>

#include "level/level_parse.h"

/* The largest .tmj file read (level_load.c refuses a larger one unread). */
#define LEVEL_TILED_MAX_FILE_BYTES (16ull << 20)

/* The JSON text (len bytes, after any BOM) into p, which level.c has set up as for a .lvl
   text. Fails with "path: error: WHERE: expected ..." where WHERE names the map, a layer, a
   tileset, a property or an object ("object 21 'link'"); a JSON syntax error has its line
   and column. */
bool level_tiled_parse(Parser *p, const char *text, uint64_t len);

#endif
