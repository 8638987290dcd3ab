/* save.h - the player's progress on disk: furthest level, best time and coins per level.

   The file lives at $XDG_DATA_HOME/<game>/progress (or ~/.local/share/<game>/progress) and
   is small, plain text, and ends with a checksum line so a damaged file is recognised:

       arena-dungeon-save 1
       furthest 04-patrol.lvl
       level 01-first-steps.lvl 1834 12          # file, best ticks, best coins
       checksum 5c1e0b7a93d2f001

   Writing is atomic (os_write_file_atomic): the new contents go to "progress.tmp", are
   fsync'ed, and rename() replaces the old file in one step (then the directory is
   fsync'ed), so a crash mid-write leaves the previous save whole. Reading never crashes: a
   missing file is a fresh start; one that cannot be read, is corrupt or comes from another
   version is never overwritten: save_set_aside renames it to "progress.bad" (or
   "progress.<n>.bad") before the game writes a new one, and the game says where. Levels are keyed by file name (not path), so the
   same save works whatever directory the game was started from. No heap: os_file.h's
   open/read/write helpers, the file's text in a scratch arena, and fixed arrays. */
#ifndef SAVE_H
#define SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SAVE_NAME_MAX 128
#define SAVE_MAX_LEVELS 64
#define SAVE_PATH_MAX 1024
#define SAVE_GAME_NAME "arena-dungeon"

typedef struct SaveLevel {
    char file[SAVE_NAME_MAX]; /* base name: "03-spikes-and-water.lvl" */
    uint32_t best_ticks;      /* fastest completion */
    int32_t best_coins;       /* most coins collected in one visit */
} SaveLevel;

/* The keys a player can rebind, in the order of the front end's actions (platform.h's
   ACTION_UP .. ACTION_RESTART: app.c checks that they agree), two keys each. */
#define SAVE_BIND_ACTIONS 8
#define SAVE_BIND_SLOTS 2
#define SAVE_SCALE_MAX 6

typedef enum SaveVolume { SAVE_VOLUME_MASTER, SAVE_VOLUME_MUSIC, SAVE_VOLUME_EFFECTS, SAVE_VOLUMES } SaveVolume;

/* The player's settings. The Game keeps them (it has no SDL); the front end applies them
   whenever they change. Zero scale means "not chosen": the front end's default. */
/* The renderer setting; the command line's --renderer wins over it. */
typedef enum SaveRenderer { SAVE_RENDERER_DEFAULT, SAVE_RENDERER_GL, SAVE_RENDERER_SDL } SaveRenderer;

typedef struct SaveSettings {
    int32_t scale;
    bool fullscreen;
    bool has_binds; /* false: the front end's default keys */
    uint16_t binds[SAVE_BIND_ACTIONS][SAVE_BIND_SLOTS];
    bool has_volume; /* false: the game's defaults */
    int32_t volume[SAVE_VOLUMES]; /* percent, 0..100 */
    int32_t renderer; /* SaveRenderer: what draws the next start */
} SaveSettings;

typedef struct SaveData {
    char furthest[SAVE_NAME_MAX]; /* "" when nothing was completed yet */
    SaveLevel levels[SAVE_MAX_LEVELS];
    int32_t level_count;
    SaveSettings settings;
} SaveData;

/* What one completion changed in the records. */
typedef struct SaveRecordResult {
    bool first;      /* the level had no record */
    bool best_time;  /* faster than the record (not set for a first) */
    bool best_coins; /* more coins than the record (not set for a first) */
} SaveRecordResult;

typedef enum SaveStatus {
    SAVE_OK,
    SAVE_MISSING,
    SAVE_CORRUPT,       /* damaged, or not a save file */
    SAVE_IO_ERROR,      /* exists but cannot be read (permissions, a directory, ...) */
    SAVE_OTHER_VERSION, /* a save of another format version: not ours to read or replace */
} SaveStatus;

#define SAVE_ASIDE_MAX 100 /* progress.bad, then progress.1.bad ... progress.99.bad */

/* "<data home>/<game>/progress" into out. False if neither XDG_DATA_HOME nor HOME is set. */
bool save_default_path(char *out, size_t cap);
/* Reads `path`. Anything but SAVE_OK leaves *out empty (a fresh start) and, for a corrupt
   or unreadable file, a warning in msg. */
SaveStatus save_load(SaveData *out, const char *path, char *msg, size_t msg_cap);
/* Moves the file at `path` out of the way, to "<path>.bad" or the first free
   "<path>.<n>.bad", so that what could not be read is kept for the player (or a newer
   version of the game). True with the new name in `moved_to`; false with the reason in
   msg, when nothing was moved (the caller must then not write to `path`). */
bool save_set_aside(const char *path, char *moved_to, size_t moved_cap, char *msg, size_t msg_cap);
/* Writes atomically, creating the directories. False with a message on failure (the old
   file is then untouched). */
bool save_write(const SaveData *d, const char *path, char *msg, size_t msg_cap);
/* Records one completion of `level_path` (its base name is the key) and advances
   `furthest` to `reached_path` if that sorts later ("NN-" prefixes order the levels). */
SaveRecordResult save_record(SaveData *d, const char *level_path, uint32_t ticks, int32_t coins,
                             const char *reached_path);
/* The name a bind line uses for action i ("up", "fire", ...), NULL out of range. */
const char *save_bind_name(int32_t action);
const SaveLevel *save_find(const SaveData *d, const char *level_path);

#endif
