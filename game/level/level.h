/* level.h - a level as loaded: its tiles, entity spawns, links, signs and pool sizes, all in
   the level arena, and never changed after the load.

   A level lives exactly as long as the level arena's contents: level_load() reads and
   parses the file in scratch memory, validates all of it, checks that it fits, and only then
   clears the level arena and copies the final arrays into it. Nothing in a Level needs a
   free, and a failed load leaves the previously loaded Level untouched and playable.

   A Level is what the file says, read only (its arrays are const): where each enemy
   spawns, where the pickups and doors are, the tiles as drawn. What changes in play (enemy
   positions and hit points, bullets, taken pickups, open doors) is the simulation's
   (sim.h), in a block the caller asks the loader to reserve beside the level (LevelRoom),
   so the one fit check covers both and a level editor can share a Level with no game.

       Level lv;  Error err;
       if (!level_load(&lv, level_arena, "levels/01-first-steps.lvl", &err))
           st_error_report(&err);   // stderr: "path:line:col: error: ..."

   The file format is documented in levels/README.md; a path ending in LEVEL_TILED_EXT is a
   map saved by the Tiled editor (JSON), read through the same checks (levels/README.md,
   "Levels from Tiled"). Coordinates: tiles are (tx, ty) with
   (0, 0) the top-left tile; world positions are fixed-point, FIX_ONE units per pixel,
   TILE_PX pixels per tile, so a tile's centre is ((tx * TILE_PX + TILE_PX / 2) * FIX_ONE). */
#ifndef LEVEL_H
#define LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/diag.h>
#include <strata/core/error.h>
#include <strata/core/str8.h>

#ifndef LEVEL_ARENA_BYTES
#define LEVEL_ARENA_BYTES (4ull << 20)
#endif

#define TILE_PX 16
#define FIX_ONE 256
#define LEVEL_MAX_SIDE 4096
#define LEVEL_DEFAULT_BULLETS 256
#define LEVEL_DEFAULT_PARTICLES 1024
/* Exits and links lead only to level files: these extensions (a .lvl text level, or a map
   saved by the Tiled editor as JSON, levels/README.md), at most LEVEL_PATH_MAX - 1 bytes
   once resolved against the level's folder, inside the run's root folder. */
#define LEVEL_FILE_EXT ".lvl"
#define LEVEL_TILED_EXT ".tmj"
#define LEVEL_PATH_MAX 512
/* Signs: at most this many per level, each text at most this many bytes. */
#define LEVEL_MAX_SIGNS 256
#define LEVEL_SIGN_TEXT_MAX 96

typedef enum TileKind {
    TILE_FLOOR,
    TILE_WALL,
    TILE_WATER,  /* blocks walking, not bullets */
    TILE_SPIKES, /* hurts when stepped on */
    TILE_DOOR,   /* locked door; its colour is in LevelDoor (door_at) */
    TILE_EXIT,   /* leads to Level.exit_to (NULL: the run is won) */
    TILE_PORTAL, /* a door to another level: LevelLink */
    TILE_KIND_COUNT
} TileKind;

typedef enum KeyColor { KEY_RED, KEY_GREEN, KEY_BLUE, KEY_COLOR_COUNT } KeyColor;

typedef enum EnemyKind { ENEMY_PATROLLER, ENEMY_CHASER, ENEMY_TURRET, ENEMY_KIND_COUNT } EnemyKind;

typedef enum PickupKind { PICKUP_COIN, PICKUP_KEY, PICKUP_HEART, PICKUP_KIND_COUNT } PickupKind;

typedef struct EnemySpawn { /* an enemy as drawn in the map; in play it is a sim.h Enemy */
    int16_t tx, ty;
    EnemyKind kind;
    int32_t hp; /* from the file's `enemy` line; 0: none, the kind's default (sim.h's rules) */
} EnemySpawn;

typedef struct Pickup {
    int16_t tx, ty;
    PickupKind kind;
    KeyColor color; /* keys only */
} Pickup;

typedef struct LevelDoor { /* a locked door tile */
    int16_t tx, ty;
    KeyColor color;
} LevelDoor;

typedef struct LevelEntry { /* a named arrival point that links from other levels target */
    const char *name;
    int16_t tx, ty;
} LevelEntry;

typedef struct LevelLink { /* a portal tile that leads to another level file */
    int16_t tx, ty;
    const char *target_path; /* resolved relative to this level's directory */
    const char *entry;       /* entry name in the target level; NULL: its player start */
    /* target_path as the `link` line wrote it (a suffix of it: without the level's folder
       when it was relative), for level_write; NULL in a link the loader did not make. */
    const char *target_written;
} LevelLink;

typedef struct LevelSign { /* a signpost on a floor tile; not solid, the player walks by it */
    int32_t tx, ty;
    Str8 text; /* 1 to LEVEL_SIGN_TEXT_MAX bytes of printable UTF-8, no '#'; NUL-terminated too */
} LevelSign;

typedef struct Level {
    /* What every tile level has. */
    int32_t width, height;
    const uint8_t *tiles; /* TileKind, width * height, row-major, as drawn (doors closed) */
    const EnemySpawn *enemies;
    int32_t enemy_count;
    const char *name; /* UTF-8 */
    /* What the game adds. */
    const char *path;         /* as given to level_load, copied into the level arena */
    const char *exit_to;      /* level file the exit leads to, resolved; NULL: victory */
    const char *exit_written; /* exit_to as the `exit:` line wrote it (a suffix of it), or NULL */
    int16_t start_tx, start_ty;
    const Pickup *pickups;
    int32_t pickup_count;
    const LevelDoor *doors;
    int32_t door_count;
    const LevelLink *links;
    int32_t link_count;
    const LevelEntry *entries;
    int32_t entry_count;
    const LevelSign *signs; /* in the order of their lines in the file */
    int32_t sign_count;
    int32_t bullet_cap; /* pool sizes from the header: the pools are in the caller's room */
    int32_t particle_cap;
    uint64_t arena_bytes; /* what this level took in the level arena, its room included */
} Level;

/* Room beside the level: what the caller keeps in the level arena for as long as the level
   lives (the simulation's runtime state, sim.h). The loader measures it with the level and
   pushes it last, zeroed, after every check, so a level whose room does not fit is refused
   like one that does not fit itself, while the old level and its room are still intact.
   The room depends only on the level's sizes and counts, which is what `bytes` reads from
   `shape` (whose arrays may be NULL while the loader measures). */
#define LEVEL_ROOM_ALIGN 16 /* the room's alignment: what any array carved from it needs */
typedef struct LevelRoom {
    uint64_t (*bytes)(const Level *shape); /* in */
    void *block;                           /* out, on success: NULL when `bytes` said 0 */
    uint64_t size;                         /* out, on success */
} LevelRoom;

typedef struct LevelLoadStats {
    uint64_t level_bytes;  /* bytes the level needs in the level arena, its room included */
    uint64_t scratch_peak; /* peak scratch used while loading */
} LevelLoadStats;

/* The level arena a set of levels needs, from the largest of their needs (LevelLoadStats.
   level_bytes): that plus 25%, rounded up to 64 KiB. levelcheck and the game's exit report
   both say it, from the files and from what was played. */
static inline uint64_t level_arena_recommend(uint64_t largest_need) { return st_arena_recommend_reserve(largest_need); }

static inline TileKind level_tile(const Level *lv, int32_t tx, int32_t ty) {
    if (tx < 0 || ty < 0 || tx >= lv->width || ty >= lv->height) return TILE_WALL;
    return (TileKind)lv->tiles[(int64_t)ty * lv->width + tx];
}
/* The door or link at a tile, or NULL; level_door_index gives the door's index, or -1. */
/* Binary search of an array sorted row-major, whose elements hold int16 tx, ty at `off`:
   the index of the element at (tx, ty), or -1. */
int64_t level_find_tile(const void *base, uint64_t count, size_t size, size_t off, int32_t tx, int32_t ty);
const LevelDoor *level_door_at(const Level *lv, int32_t tx, int32_t ty);
int32_t level_door_index(const Level *lv, int32_t tx, int32_t ty);
const LevelLink *level_link_at(const Level *lv, int32_t tx, int32_t ty);
const LevelEntry *level_entry_find(const Level *lv, const char *name);

#endif
