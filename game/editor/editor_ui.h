/* editor_ui.h - the level editor's screen: mouse and keys on an Editor (editor.h), drawn
   with the game's own art. The model (cells, undo, the live check, saving) is editor.h,
   game logic without SDL; this is the front end around it, like draw.c around game.h.

       EditorUi *ui = st_arena_push_struct(perm, EditorUi);
       if (!editor_ui_open_level(ui, &g->sim.level, 0)) ...    // E while playing; 0: LEVEL_ARENA_BYTES
       // or editor_ui_open_file(ui, "levels/mine.lvl", 0, &err) / editor_ui_new(ui, path, 40, 24, 0)
       for (bool done = false; !done;) {
           if (in.quit && ui->ed.dirty && !editor_ui_ask_quit(ui)) in.quit = false; // asks first
           EditorAction act = editor_ui_frame(ui, &in, dt, 480, 270); // each frame; dt in seconds
           if (act == EDITOR_PLAYTEST) ...                      // Tab: play editor_text as it stands
           done = act == EDITOR_LEAVE || act == EDITOR_QUIT;    // saved, or dropped on purpose
           editor_ui_draw(ui, rd, &art, 480, 270);
       }
       // (a run ended by a signal instead, changes unsaved: editor_keep_unsaved, editor.h)
       editor_ui_release(ui);                                    // both editor arenas released

   Mouse: left paints the brush (drag to paint a stroke, one undo step), Shift+left drags a
   rectangle to fill, right picks the cell under it as the brush (eyedropper), middle
   erases; the wheel or 1-9, 0 choose from the palette along the bottom, which can also be
   clicked. Keys: arrows or WASD pan (not under a modifier), Home back to the start,
   Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z redo, Ctrl+S save (a level with problems asks for
   Ctrl+S again), Ctrl+arrows grow or shrink the grid, N the
   level's name, X its exit, + and - an enemy's hit points under the cursor, Tab play-test
   from the cursor, Esc leave. Portals, signs and entries ask for their text in a prompt at
   the bottom (Enter, Esc).

   Questions, over the map, that nothing else gets past: leaving (Esc) or quitting (a closed
   window, editor_ui_ask_quit) with unsaved changes asks "Ctrl+S save, Esc (or closing
   again) without saving, another key: keep editing"; opening a file with edits kept beside
   it ("<path>.unsaved", editor.h) asks "Enter take them back, D discard (set aside), Esc
   not now"; edits taken back and then left without saving go aside as D sets them.
   The level arena's size is the one the game runs with (0: LEVEL_ARENA_BYTES): the check
   holds the level to it, with the game's room beside it.

   Memory: the editor's two arenas (the model with its history, and the one the live check
   parses into) are created when it opens and released when it closes; the F1 overlay lists
   them with the others (EditorUi.ed.arena, .check). */
#ifndef EDITOR_UI_H
#define EDITOR_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "front/controls.h"
#include "front/draw.h"
#include "editor/editor.h"
#include <strata/platform/platform.h>

#define EDITOR_PROMPT_MAX 128
#define EDITOR_PALETTE_H 20     /* the palette strip along the bottom */
#define EDITOR_TOP_H 18         /* the status bar over the map */
#define EDITOR_BRUSH_W 18       /* one palette entry's width, from x = 2 */
#define EDITOR_PAN_SPEED 240.0f /* world pixels a second, arrows or WASD held */
#define EDITOR_PAN_DT_MAX 0.1f  /* a frame that took longer pans as far as this one */

/* EDITOR_LEAVE: Esc (back to the game, or the end of an --edit session: leave_quits);
   EDITOR_QUIT: the answer to editor_ui_ask_quit. Either way the changes are saved or the
   user said to drop them: the editor may be closed. */
typedef enum EditorAction { EDITOR_STAY, EDITOR_PLAYTEST, EDITOR_LEAVE, EDITOR_QUIT } EditorAction;

typedef enum EditorQuestion {
    QUESTION_NONE,
    QUESTION_LEAVE,   /* Esc with unsaved changes */
    QUESTION_QUIT,    /* the window closed with unsaved changes */
    QUESTION_UNSAVED, /* "<path>.unsaved" is newer than the file: take it back? */
} EditorQuestion;

typedef enum EditorPromptKind {
    PROMPT_NONE,
    PROMPT_LINK_FILE,  /* a portal's target file, then ... */
    PROMPT_LINK_ENTRY, /* ... the entry there (empty: its start) */
    PROMPT_SIGN,
    PROMPT_ENTRY,
    PROMPT_NAME,
    PROMPT_EXIT,
} EditorPromptKind;

typedef struct EditorUi {
    Editor ed;
    bool open;
    int32_t brush;        /* palette index */
    EditCell picked;      /* the eyedropper's cell, painted while brush is EDITOR_BRUSH_PICKED */
    float view_x, view_y; /* the map's scroll, world pixels */
    int32_t cursor_tx, cursor_ty;
    bool cursor_on_map;
    int drag; /* mouse button held on the map: 0 none, 1 paint, 2 fill */
    int32_t last_tx, last_ty, fill_tx, fill_ty;
    EditorPromptKind prompt;
    char prompt_text[EDITOR_PROMPT_MAX];
    int32_t prompt_len;
    int32_t prompt_tx, prompt_ty;
    EditCell prompt_cell; /* what the prompt is filling in */
    uint32_t frames;
    uint32_t confirm_until; /* a second Ctrl+S (force) before this frame */
    int confirm_what;       /* 1 save */
    EditorQuestion question;
    bool leave_quits; /* leaving ends the program (an --edit session), not back to play */
    char status[768];
    uint32_t status_until;
    bool status_error;
    uint32_t checked_revision;
} EditorUi;

#define EDITOR_BRUSH_PICKED (-1)

/* Opening a level that has a file asks about the edits kept beside it, if any. Opening
   refuses a Tiled map (err / false): it is edited in Tiled. */
bool editor_ui_open_level(EditorUi *ui, const Level *lv, uint64_t level_arena);
bool editor_ui_open_file(EditorUi *ui, const char *path, uint64_t level_arena, Error *err);
bool editor_ui_new(EditorUi *ui, const char *path, int32_t w, int32_t h, uint64_t level_arena);
void editor_ui_release(EditorUi *ui);
/* Puts the view on a tile (the player's, when the editor opens from play). */
void editor_ui_center(EditorUi *ui, int32_t tx, int32_t ty, float view_w, float view_h);
/* dt: seconds since the previous frame (the pan's speed is per second). */
EditorAction editor_ui_frame(EditorUi *ui, const Input *in, float dt, float view_w, float view_h);
void editor_ui_draw(EditorUi *ui, Renderer *rd, const DrawAssets *a, float w, float h);
/* A line for the editor's status bar ("saved levels/x.lvl"). */
void editor_ui_status(EditorUi *ui, bool error, const char *text);
/* A quit request (the window closed) with unsaved changes: true when the quit question was
   already asked (a second close: quit without saving), else asks it and returns false. */
bool editor_ui_ask_quit(EditorUi *ui);
/* Over the game's picture during a play-test: what this is and how to get back. */
void editor_ui_draw_playtest(Renderer *rd, const DrawAssets *a, float w, float h);

#endif
