/* editor.h - a level being edited: a grid of cells (a tile, at most one thing on it, an
   entry name), the header's strings, and the history that undoes and redoes every change
   without limit. The model only: no drawing, no input; a front end paints with it.

       Editor ed;
       Error err;
       if (!editor_load_file(&ed, editor_arena, check_arena, "levels/02-keys-and-doors.lvl", &err))
           st_error_report(&err);
       EditCell coin = {.tile = TILE_FLOOR, .thing = EDIT_PICKUP, .kind = PICKUP_COIN};
       editor_begin(&ed);                           // a drag: one undo step
       editor_set(&ed, 3, 2, &coin);
       editor_set(&ed, 4, 2, &coin);
       editor_end(&ed);
       editor_undo(&ed);                            // both coins gone
       if (!editor_check(&ed))                      // the loader's rules, on the text it would save
           ... ed.problem.message, at tile (ed.problem.tx, ed.problem.ty) when tx >= 0 ...
       Error err;
       if (!editor_save(&ed, false, &err)) st_error_report(&err);    // else err is a note: "saved x.lvl"
       editor_release(&ed);                           // both arenas cleared

   Memory: the grid, every string and the history live in the editor arena, which the
   editor owns from open to close (open clears it, close clears it): nothing is freed before
   close. Strings are copied in once and never changed, so cells and history records share
   them as Str8 views. An edit record is 160 bytes (a cell before and after, a step number)
   plus the strings it brought; a resize keeps the old grid (undo puts it back in place) and
   allocates the new one. `check` is where the live check
   parses the level (level_parse clears it): create it like the level arena, with
   ARENA_FLAG_NO_CHAIN.

   The cells are what the map draws. A door is TILE_DOOR with its `color`, a portal
   TILE_PORTAL with its link; a thing stands on floor, so setting one makes the tile floor.
   An entry is a name, not a thing, because the format lets it share its tile with the start,
   an enemy, a pickup or a sign (on floor or spikes); EDIT_ENTRY is the brush for an entry
   alone on its tile (`text` is its name), stored as `entry`. Strings are stored trimmed,
   with line breaks as spaces (each is one line of the file). Anything else goes in as
   given, even what the format refuses (two starts, a sign text with '#', an hp past 9999):
   editor_check says what is wrong and where, and editor_save refuses it.

   The loader's limits hold too: the check parses into `check`, created with the capacity
   of the game's level arena, and asks for the room the game keeps beside a level
   (Editor.room_bytes: sim_runtime_bytes), so a level too large for the game's arena is a
   problem (EditProblem.need, .cap) that no save writes, forced or not. A file that ends in
   LEVEL_TILED_EXT is never written either: the editor's text is not a Tiled map.

   Edits not saved when the program must end (a signal, nobody to ask) are kept beside the
   file, in "<path>.unsaved", and the next opening offers them back:

       if (ed.dirty && editor_keep_unsaved(&ed, &err)) ...   // at exit; err's note says where
       ...
       if (editor_unsaved_find(path) == EDITOR_UNSAVED_NEWER)           // after opening `path`
           editor_take_unsaved(&ed, &err);   // the edits, dirty, to save at `path`; or
           editor_set_aside_unsaved(path, &err);   // -> "<path>.unsaved.old"

   Nothing there is deleted: a file set aside replaces the previous ".unsaved.old" only,
   and "<path>.unsaved" goes only when the level taken from it is saved (its edits are then
   in the file), or aside when they are dropped (editor_ui.h: leaving without saving).

   The text is level_write's canonical form (level_write.h) of the level the cells make, the
   one writer of .lvl files; entries and signs in row order. What no Level can hold (no
   start, several, a portal without a target) is written too, so that the check can name
   it and a forced save keeps it. */
#ifndef EDITOR_H
#define EDITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/chunk_list.h>
#include <strata/core/str8.h>
#include "level/level.h"

typedef enum EditThing {
    EDIT_NONE,
    EDIT_START,
    EDIT_ENEMY,  /* kind: EnemyKind; hp */
    EDIT_PICKUP, /* kind: PickupKind; color for keys */
    EDIT_ENTRY,  /* a brush only: editor_set stores it as `entry` = text, nothing on the tile */
    EDIT_SIGN,   /* text */
    EDIT_THING_COUNT
} EditThing;

typedef struct EditCell {
    uint8_t tile;  /* TileKind; a door's colour and a portal's link are below */
    uint8_t thing; /* EditThing (on floor: setting one makes the tile floor) */
    uint8_t kind;  /* EnemyKind or PickupKind */
    uint8_t color; /* KeyColor: keys and doors */
    int32_t hp;    /* enemies; 0: the kind's default */
    Str8 text;     /* the sign's text */
    /* Portals: the link's file (as written, relative to the level's folder) and entry ("" none). */
    Str8 target, target_entry;
    Str8 entry; /* the name of the entry on this tile ("" none), whatever stands on it */
} EditCell;

typedef struct EditLevel {
    int32_t width, height;
    EditCell *cells;            /* width * height, row-major: read it to draw */
    Str8 name, exit;            /* exit as written ("" none) */
    int32_t bullets, particles; /* 0: the defaults */
} EditLevel;

typedef struct EditProblem {
    int32_t tx, ty; /* the tile it is about; tx -1: not about a tile (the header, the level) */
    /* The loader's message without path and line: "expected one player start ...". */
    char message[512];
    /* need > 0: the level does not fit the level arena, which holds `cap` bytes. */
    uint64_t need, cap;
} EditProblem;

typedef struct Editor {
    Arena *arena; /* model, strings, history */
    Arena *check; /* where the live check parses the level (level_parse clears the arena it gets) */
    EditLevel lv;
    char path[LEVEL_PATH_MAX]; /* where it saves; relative exits and links are from its folder */
    /* History: EditRecords (editor.c) in memory order, record_count of them kept (slots past
       it are a discarded redo tail, reused by the next edits), undo_count of those applied.
       Records of one step (a drag, a fill) share a step number and undo together. */
    ChunkList history;
    uint64_t record_count, undo_count;
    uint64_t undo_steps, redo_steps;
    uint64_t step_serial; /* the last step number given */
    uint64_t group_step;  /* the open group's step number; 0: none yet */
    int32_t group_depth;  /* editor_begin nesting */
    uint64_t saved_at;    /* undo_count when it matched the file; UINT64_MAX: never */
    bool dirty;           /* changed since opened or saved */
    EditProblem problem;  /* the first problem the last check found */
    bool has_problem;
    /* Bumped by every change, undo and redo: the front end redraws / re-checks on it. */
    uint32_t revision;
    Level checked; /* the last successful check's level, in `check` */
    bool has_checked;
    /* The room the game keeps beside a level (sim_runtime_bytes), asked for by every check
       and save; NULL: none. Set after opening (opening clears the Editor). */
    uint64_t (*room_bytes)(const Level *shape);
    bool unsaved_taken; /* the level is "<path>.unsaved"'s (editor_take_unsaved), not saved yet */
    /* Internal: the last history chunk looked at, and recently copied strings (a drag
       paints one sign text or target many times, and copies it once). */
    void *hist_chunk_;
    uint64_t hist_base_;
    Str8 recent_[4];
    uint32_t recent_next_;
} Editor;

/* Opening clears `arena` and copies the level into it; `from` must not lie in it (it may lie
   in `check`). False (and nothing open) when the arena is full or lv->path does not fit. */
bool editor_create(Editor *e, Arena *arena, Arena *check, const Level *from);
/* A new w x h level to be saved at `path` (1..LEVEL_MAX_SIDE each side): walls round floor
   and a start at (1, 1), or all floor and the start at (0, 0) when a side is under 3; named
   after the file. Dirty until saved. */
bool editor_new(Editor *e, Arena *arena, Arena *check, const char *path, int32_t w, int32_t h);
/* Reads and parses `path` (level_parse into `check`, then editor_create). The exit and link
   targets need not exist yet (an editor makes levels that lead to each other): the loader's
   other rules apply, and its message is in *err when the file does not load. */
bool editor_load_file(Editor *e, Arena *arena, Arena *check, const char *path, Error *err);
void editor_release(Editor *e); /* clears both arenas */

/* Edits: each is recorded (one that changes nothing is not); everything between begin and
   end (a drag; they nest) undoes as one step, as does one fill. An edit after undos drops
   what could have been redone; undo and redo end an open drag. editor_set replaces the whole
   cell (entry included: editor_set_entry keeps the rest). False when out of the grid, a
   value is not one of its enum, or the editor arena is full (then nothing changed). */
void editor_begin(Editor *e);
void editor_end(Editor *e);
bool editor_set(Editor *e, int32_t tx, int32_t ty, const EditCell *c);
/* The rectangle between two corners in any order, both included, clipped to the grid. */
void editor_fill(Editor *e, int32_t x0, int32_t y0, int32_t x1, int32_t y1, const EditCell *c);
EditCell editor_get(const Editor *e, int32_t tx, int32_t ty); /* the eyedropper; outside: a wall */
void editor_erase(Editor *e, int32_t tx, int32_t ty);         /* floor, nothing on it, no entry */
/* Sets the entry name on a tile ("" removes it), keeping what stands there. */
bool editor_set_entry(Editor *e, int32_t tx, int32_t ty, Str8 name);
/* Keeps the top-left cells; new cells are floor, walls on the new grid's border, so a walled
   level grows walled (its old border stays inside, to be erased). 1..LEVEL_MAX_SIDE. */
bool editor_resize(Editor *e, int32_t w, int32_t h);
void editor_set_name(Editor *e, Str8 name);
void editor_set_exit(Editor *e, Str8 exit);                           /* "" : none, the exit wins the game */
void editor_set_pools(Editor *e, int32_t bullets, int32_t particles); /* 0: the defaults */
/* Where it saves (not an edit: not undone). Relative targets follow the new folder. */
bool editor_set_path(Editor *e, const char *path);
bool editor_undo(Editor *e); /* false when there is nothing to undo / redo */
bool editor_redo(Editor *e);
uint64_t editor_history_count(const Editor *e); /* steps that can be undone */
uint64_t editor_redo_count(const Editor *e);    /* steps that can be redone */

/* The level as .lvl text (level_write's canonical form), NUL-terminated, into `a`; {NULL, 0}
   when `a` is full. */
Str8 editor_text(Arena *a, const Editor *e);
/* Runs the loader's rules on the text (level_parse into e->check, with `room` beside it when
   not NULL, as sim_load_level would ask) and sets problem / has_problem, with the tile the
   error names (a map row and column, or an entity line's X Y). True when it loads. It also
   refuses what the format would read as something else: a '#' in any string (it starts a
   comment), blanks in a file name or an entry name. Link and exit targets are not looked
   up on disk (the loader does that when the game plays it). With `room` NULL, the room is
   e->room_bytes's. */
bool editor_check(Editor *e);
bool editor_check_ex(Editor *e, LevelRoom *room);
/* The checked level, in e->check: valid after editor_check returned true, until the next
   check; NULL when the last one failed. For play-testing. */
const Level *editor_level(const Editor *e);
/* Writes the text atomically to e->path (st_os_write_file_atomic: the previous file is kept
   until the new one is whole). Checks first, and refuses (false, msg) when the level has a
   problem unless `force` (ERROR_REFUSED); never when it does not fit the level arena (a
   file the game could not load: ERROR_TOO_BIG), nor to a Tiled map's path. Clears dirty on
   success; err is then a note (ERROR_OK, DIAG_NOTE) that says what was written. A level taken from "<path>.unsaved" removes that file once saved. */
bool editor_save(Editor *e, bool force, Error *err);

/* ---- Unsaved edits beside the file ---- */

#define EDITOR_UNSAVED_EXT ".unsaved"
#define EDITOR_UNSAVED_OLD_EXT ".unsaved.old"

typedef enum EditorUnsaved {
    EDITOR_UNSAVED_NONE,  /* no "<path>.unsaved" */
    EDITOR_UNSAVED_NEWER, /* one written after the file (or no file): to offer back */
    EDITOR_UNSAVED_OLDER, /* the file was saved since: stale, left alone */
} EditorUnsaved;

/* "<path><ext>" into out; false when it does not fit (cap, or LEVEL_PATH_MAX). */
bool editor_unsaved_path(const char *path, const char *ext, char *out, size_t cap);
EditorUnsaved editor_unsaved_find(const char *path);
/* Writes the text as it stands, problems and all, atomically to "<e->path>.unsaved"; one
   already there that this editor did not take is first set aside (".unsaved.old"). err
   says where the edits went (a note), or why they could not be written. */
bool editor_keep_unsaved(Editor *e, Error *err);
/* Replaces the level being edited with "<e->path>.unsaved"'s (parsed as the loader would,
   into e->check), to be saved at e->path: dirty, a fresh history. False with the loader's
   message in *err ("x.lvl.unsaved:4:2: error: ..."), the level being edited kept, when it
   cannot be read or does not load; false with the editor empty when its arena is full. */
bool editor_take_unsaved(Editor *e, Error *err);
/* Renames "<path>.unsaved" to "<path>.unsaved.old" (replacing an older one); err says so
   (a note) or why not. */
bool editor_set_aside_unsaved(const char *path, Error *err);

#endif
