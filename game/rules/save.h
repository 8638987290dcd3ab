/* save.h - what the game keeps between runs, in two files of plain text.

   The progress, $XDG_DATA_HOME/arena-dungeon/progress (or ~/.local/share/arena-dungeon/...):
   the furthest level, best time and coins per level. It ends with a checksum line, FNV-1a
   64 of every byte before it, so a damaged file is recognised:

       arena-dungeon-save 2
       furthest 04-patrol.lvl
       level 01-first-steps.lvl 1834 12          # file, best ticks, best coins
       checksum 5c1e0b7a93d2f001

   The settings, $XDG_CONFIG_HOME/arena-dungeon/settings (or ~/.config/arena-dungeon/...),
   are for a person to edit: no checksum, one "key value" a line, '#' starts a comment.

       volume_master 80        # percent, 0 to 100; also volume_music, volume_effects
       scale 3                 # window scale, 1 to 6, or auto
       fullscreen off          # on or off
       renderer default        # default, opengl or sdl: from the next start
       key_fire 44 13          # SDL scancodes, one or two (0: none); key_up ... key_restart

   A line that is not one of these (an unknown key, a value out of range) is skipped with a
   warning that names its file and line, and its setting keeps the value it had (the
   default): the other lines still count. The last line of a key wins. When a setting
   changes the game rewrites the file: every line of a key it knows with the value now (its
   comment kept), keys the file lacked at the end, and every other line (comments, unknown
   keys) as it was.

   Older games kept the settings in the progress file, as "setting scale 3" and
   "bind fire 44 13" lines of format 2 (format 1 had none). save_load reads those too; the
   game writes them to the settings file, and only once that is written does it rewrite the
   progress without them (until then save_write keeps them: `settings_inside`). So a move
   that fails half way loses nothing, and an older game can still read the progress.

       SaveData d = {.settings = defaults};
       Error err;
       save_load(&d, progress_path, &err);              // progress (+ old settings)
       save_settings_load(&d.settings, settings_path, NULL, &err);  // the file wins
       ...
       save_settings_write(&d.settings, settings_path, &err);
       save_write(&d, progress_path, &err);

   Writing is atomic (st_os_write_file_atomic): the new contents go to "<file>.tmp", are
   fsync'ed, and rename() replaces the old file in one step, so a crash mid-write leaves the
   previous file whole. Reading never crashes, and a load that fails leaves the caller's
   data as it was. A missing file is a fresh start; a progress file that cannot be read, is
   corrupt or comes from another version is never overwritten: save_set_aside renames it to
   "progress.bad" (or "progress.<n>.bad") before the game writes a new one, and the game says
   where. Levels are keyed by file name (not path), so the same save works whatever
   directory the game was started from. No heap: os_file.h's helpers, the files' text in a
   scratch arena, fixed arrays. */
#ifndef SAVE_H
#define SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/error.h>
#include <strata/core/str8.h>

#define SAVE_NAME_MAX 128
#define SAVE_MAX_LEVELS 64
#define SAVE_PATH_MAX 1024
#define SAVE_GAME_NAME "arena-dungeon"
#define SAVE_FILE_MAX (64u << 10) /* either file: a larger one is not ours */

typedef struct SaveLevel {
    char file[SAVE_NAME_MAX]; /* base name: "03-spikes-and-water.lvl" */
    uint32_t best_ticks;      /* fastest completion */
    int32_t best_coins;       /* most coins collected in one visit */
} SaveLevel;

/* The keys a player can rebind, in the order of the front end's actions (platform.h's
   ACTION_UP .. ACTION_REWIND: app.c checks that they agree), two keys each. */
#define SAVE_BIND_ACTIONS 9
#define SAVE_BIND_SLOTS 2
#define SAVE_KEY_MAX 512 /* key numbers are SDL scancodes, below SDL_NUM_SCANCODES */
#define SAVE_SCALE_MAX 6

typedef enum SaveVolume { SAVE_VOLUME_MASTER, SAVE_VOLUME_MUSIC, SAVE_VOLUME_EFFECTS, SAVE_VOLUMES } SaveVolume;

/* The renderer setting; the command line's --renderer wins over it. */
typedef enum SaveRenderer { SAVE_RENDERER_DEFAULT, SAVE_RENDERER_GL, SAVE_RENDERER_SDL } SaveRenderer;

/* The player's settings. The Game keeps them (it has no SDL) and fills in the defaults
   before a load; the front end applies them whenever they change. */
typedef struct SaveSettings {
    int32_t scale; /* 1..SAVE_SCALE_MAX; 0 ("auto"): the front end's default */
    bool fullscreen;
    uint16_t binds[SAVE_BIND_ACTIONS][SAVE_BIND_SLOTS]; /* 0: no key */
    int32_t volume[SAVE_VOLUMES];                       /* percent, 0..100 */
    int32_t renderer;                                   /* SaveRenderer: what draws the next start */
} SaveSettings;

typedef struct SaveData {
    char furthest[SAVE_NAME_MAX]; /* "" when nothing was completed yet */
    SaveLevel levels[SAVE_MAX_LEVELS];
    int32_t level_count;
    SaveSettings settings; /* on disk in their own file (save_settings_*) */
    int32_t format;        /* the progress file's format as last read (0: none) */
    /* the progress file holds the settings too: it did when read
       (an older game's), and save_write keeps them there until the
       caller clears this, once the settings file is written */
    bool settings_inside;
} SaveData;

/* What one completion changed in the records. */
typedef struct SaveRecordResult {
    bool first;      /* the level had no record */
    bool best_time;  /* faster than the record (not set for a first, nor for a tie) */
    bool best_coins; /* more coins than the record (not set for a first, nor for a tie) */
} SaveRecordResult;

/* What save_load and save_settings_load return, and leave in err->code (core/error.h):
   ERROR_OK; ERROR_NOT_FOUND, no file yet; ERROR_PARSE, damaged or not a save file;
   ERROR_IO, there but unreadable (permissions, a directory); ERROR_VERSION, a save of
   another format version, not ours to read or replace. Every failure is a warning. */

#define SAVE_FORMAT 2      /* the progress format written */
#define SAVE_ASIDE_MAX 100 /* progress.bad, then progress.1.bad ... progress.99.bad */

/* "<data home>/arena-dungeon/progress" into out. False if neither an absolute
   XDG_DATA_HOME nor HOME is set. */
bool save_default_path(char *out, size_t cap);
/* "<config home>/arena-dungeon/settings": $XDG_CONFIG_HOME when absolute, else
   ~/.config. False as save_default_path. */
bool save_settings_default_path(char *out, size_t cap);

/* Reads the progress file at `path`. ERROR_OK replaces the progress in *out (and sets
   `format`, `settings_inside`); a file with settings lines also sets those it names in
   out->settings, each bad one reported as a warning and skipped. Anything else leaves *out
   as it was, with a warning naming the file in err for a corrupt or unreadable file. */
ErrorCode save_load(SaveData *out, const char *path, Error *err);
/* save_load on text in memory, said to come from `path`. */
ErrorCode save_parse(SaveData *out, const char *path, Str8 text, Error *err);
/* The progress file's text for d, in `a` (its settings too when d->settings_inside). */
Str8 save_format(Arena *a, const SaveData *d);
/* Writes atomically, creating the directories. False with a message on failure (the old
   file is then untouched). */
bool save_write(const SaveData *d, const char *path, Error *err);
/* Moves the file at `path` out of the way, to "<path>.bad" or the first free
   "<path>.<n>.bad", so that what could not be read is kept for the player (or a newer
   version of the game). True with the new name in `moved_to`; false with the reason in
   err, when nothing was moved (the caller must then not write to `path`). */
bool save_set_aside(const char *path, char *moved_to, size_t moved_cap, Error *err);

/* Reads the settings file at `path` over *st: every good line sets its value, every other
   one is a warning (path:line:col) and skipped. ERROR_OK (however many lines were
   skipped: *skipped says how many when not NULL), ERROR_NOT_FOUND, or ERROR_IO with a
   warning in err (unreadable, a directory, larger than SAVE_FILE_MAX); *st is untouched
   but for ERROR_OK. */
ErrorCode save_settings_load(SaveSettings *st, const char *path, int32_t *skipped, Error *err);
/* save_settings_load on text in memory; returns the number of lines skipped. */
int32_t save_settings_parse(SaveSettings *st, const char *path, Str8 text);
/* The settings file's text for st, in `a`: `old` (the file as it is) with the value of
   every key it names replaced, the keys it lacks added at the end; an empty `old` gives
   the whole file, with a comment that says how to edit it. */
Str8 save_settings_format(Arena *a, const SaveSettings *st, Str8 old);
/* Rewrites the settings file at `path` (save_settings_format over what is there now),
   atomically, creating the directories. False with a message on failure. */
bool save_settings_write(const SaveSettings *st, const char *path, Error *err);

/* Records one completion of `level_path` (its base name is the key) and advances
   `furthest` to `reached_path` if that sorts later ("NN-" prefixes order the levels). */
SaveRecordResult save_record(SaveData *d, const char *level_path, uint32_t ticks, int32_t coins,
                             const char *reached_path);
/* The name an action has in the files ("up", "fire", ...), NULL out of range. */
const char *save_bind_name(int32_t action);
const SaveLevel *save_find(const SaveData *d, const char *level_path);

#endif
