/* level_tiled.h - maps made in the Tiled editor, saved as JSON (.tmj), read into the level
   loader's intermediate form. Internal to the loader, like level_parse.h: level_load and
   level_parse call it for a path ending in LEVEL_TILED_EXT, and everything after it is the
   .lvl path's own code: the map's grid goes through the same conversion as a .lvl map
   (level_parse_map_rows), names, files, entries, signs and hit points through the same
   checks, then the checks that need the disk, the fit check and the copy into the level
   arena (level.c). What each tile, object and property means is in levels/README.md
   ("Levels from Tiled").

       if (level_is_tiled_path(path)) ok = level_tiled_parse(&parser, text, len);

   The JSON is parsed by cJSON, whose allocator hooks are global: this module installs, once,
   hooks that push into the scratch arena of the parse under way (a thread-local pointer,
   free a no-op), so a parse leaves nothing on the heap and its tree goes with the scratch
   scope. With no parse under way the hooks refuse: nothing else in the program may use
   cJSON's allocating calls. */
#ifndef LEVEL_TILED_H
#define LEVEL_TILED_H

#include <stdbool.h>
#include <stdint.h>

#include "level/level_parse.h"

/* Bounds on memory: the file, and the scratch cJSON's tree may take (a value of a tile
   layer as a JSON array is a 64-byte node for 2 to 12 bytes of text; as base64 it is 5.3
   bytes of one string). A map past them fails with a message that says which. */
#define LEVEL_TILED_MAX_FILE_BYTES (16ull << 20)
#define LEVEL_TILED_MAX_TREE_BYTES (192ull << 20)

/* The JSON text (len bytes, after any BOM) into p, which level.c has set up as for a .lvl
   text. Fails with "path: error: WHERE: expected ..." where WHERE names the map, a layer, a
   tileset, a property or an object ("object 21 'link'"); a JSON syntax error has its line
   and column. */
bool level_tiled_parse(Parser *p, const char *text, uint64_t len);

#endif
