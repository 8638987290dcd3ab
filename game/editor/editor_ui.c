/* editor_ui.c - the level editor's screen (see editor_ui.h). */
#include "editor/editor_ui.h"

#include <SDL2/SDL_keycode.h>
#include <SDL2/SDL_scancode.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../assets/atlas.h"
#include <strata/core/base.h>
#include <strata/core/diag.h>
#include <strata/core/hash.h>
#include <strata/core/path.h>
#include "rules/sim.h"

#define TOP_H EDITOR_TOP_H

/* ---- The palette: every tile and every thing the format has ---- */

typedef struct Brush {
    const char *name;
    EditCell cell;
    bool sprite; /* drawn from sprites.png, else tiles.png */
    int cell_index;
    EditorPromptKind prompt; /* what it asks for when placed */
} Brush;

#define T(k) \
    { .tile = (k) }
#define THING(t, k, c) \
    { .tile = TILE_FLOOR, .thing = (t), .kind = (k), .color = (c) }
static const Brush BRUSHES[] = {
    {"floor", T(TILE_FLOOR), false, TS_FLOOR_0, PROMPT_NONE},
    {"wall", T(TILE_WALL), false, TS_WALL_FACE, PROMPT_NONE},
    {"water", T(TILE_WATER), false, TS_WATER_0, PROMPT_NONE},
    {"spikes", T(TILE_SPIKES), false, TS_SPIKES, PROMPT_NONE},
    {"exit", T(TILE_EXIT), false, TS_EXIT, PROMPT_NONE},
    {"portal", T(TILE_PORTAL), false, TS_PORTAL_0, PROMPT_LINK_FILE},
    {"red door", {.tile = TILE_DOOR, .color = KEY_RED}, false, TS_DOOR_RED, PROMPT_NONE},
    {"green door", {.tile = TILE_DOOR, .color = KEY_GREEN}, false, TS_DOOR_GREEN, PROMPT_NONE},
    {"blue door", {.tile = TILE_DOOR, .color = KEY_BLUE}, false, TS_DOOR_BLUE, PROMPT_NONE},
    {"player start", THING(EDIT_START, 0, 0), true, SPR_PLAYER, PROMPT_NONE},
    {"patroller", THING(EDIT_ENEMY, ENEMY_PATROLLER, 0), true, SPR_PATROLLER, PROMPT_NONE},
    {"chaser", THING(EDIT_ENEMY, ENEMY_CHASER, 0), true, SPR_CHASER, PROMPT_NONE},
    {"turret", THING(EDIT_ENEMY, ENEMY_TURRET, 0), true, SPR_TURRET, PROMPT_NONE},
    {"coin", THING(EDIT_PICKUP, PICKUP_COIN, 0), true, SPR_COIN, PROMPT_NONE},
    {"red key", THING(EDIT_PICKUP, PICKUP_KEY, KEY_RED), true, SPR_KEY_RED, PROMPT_NONE},
    {"green key", THING(EDIT_PICKUP, PICKUP_KEY, KEY_GREEN), true, SPR_KEY_GREEN, PROMPT_NONE},
    {"blue key", THING(EDIT_PICKUP, PICKUP_KEY, KEY_BLUE), true, SPR_KEY_BLUE, PROMPT_NONE},
    {"heart", THING(EDIT_PICKUP, PICKUP_HEART, 0), true, SPR_HEART, PROMPT_NONE},
    {"entry", THING(EDIT_ENTRY, 0, 0), true, SPR_SPARK, PROMPT_ENTRY},
    {"sign", THING(EDIT_SIGN, 0, 0), true, SPR_SIGN, PROMPT_SIGN},
};
#undef T
#undef THING
#define BRUSH_COUNT ((int32_t)ARRAY_COUNT(BRUSHES))

/* What one + or - does to an enemy's hit points (a build may change it: the hot-reload
   test swaps in a library with another, and sees the editor take it). */
#ifndef EDITOR_HP_STEP
#define EDITOR_HP_STEP 1
#endif

/* ---- Opening and closing: the two arenas live exactly as long as the editor ---- */

static bool make_arenas(Arena **arena, Arena **check, uint64_t level_arena) {
    *arena = st_arena_create((ArenaParams){.name = "editor"});
    /* The live check parses into this one as the game loads into its level arena: the same
       capacity, so a level the editor accepts is one the game can load. */
    *check = st_arena_create((ArenaParams){.reserve_size = level_arena ? level_arena : LEVEL_ARENA_BYTES,
                                           .flags = ARENA_FLAG_NO_CHAIN,
                                           .name = "editor check"});
    if (*arena && *check) return true;
    if (*arena) st_arena_release(*arena);
    if (*check) st_arena_release(*check);
    return false;
}

/* `file`: the level is a file's, which may have edits kept beside it to offer back. */
static void opened(EditorUi *ui, bool file) {
    ui->open = true;
    ui->brush = 1;
    ui->prompt = PROMPT_NONE;
    ui->ed.room_bytes = sim_runtime_bytes;      /* what the game keeps beside the level */
    ui->checked_revision = ui->ed.revision - 1; /* check on the first frame */
    EditorUnsaved u = file ? editor_unsaved_find(ui->ed.path) : EDITOR_UNSAVED_NONE;
    if (u == EDITOR_UNSAVED_NEWER) {
        ui->question = QUESTION_UNSAVED;
    } else if (u == EDITOR_UNSAVED_OLDER) {
        /* Saved since: the file is the later work; the old edits stay where they are. */
        char line[LEVEL_PATH_MAX + 100];
        snprintf(line, sizeof line,
                 "%s" EDITOR_UNSAVED_EXT " is older than the file: not offered (delete it when it is not needed)",
                 ui->ed.path);
        st_diag_report_at(DIAG_NOTE, ui->ed.path, 0, 0, "%s", line);
        editor_ui_status(ui, false, line);
    }
}

static bool is_tiled(const char *path) {
    size_t n = path ? strlen(path) : 0, x = strlen(LEVEL_TILED_EXT);
    return n >= x && strcmp(path + n - x, LEVEL_TILED_EXT) == 0;
}

bool editor_ui_open_level(EditorUi *ui, const Level *lv, uint64_t level_arena) {
    memset(ui, 0, sizeof *ui);
    if (is_tiled(lv->path)) return false; /* edited in Tiled: the editor writes .lvl text */
    Arena *a, *c;
    if (!make_arenas(&a, &c, level_arena)) return false;
    if (!editor_create(&ui->ed, a, c, lv)) {
        st_arena_release(a), st_arena_release(c);
        return false;
    }
    opened(ui, true);
    return true;
}

bool editor_ui_open_file(EditorUi *ui, const char *path, uint64_t level_arena, Error *err) {
    memset(ui, 0, sizeof *ui);
    Arena *a, *c;
    if (!make_arenas(&a, &c, level_arena)) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "%s: error: no memory for the editor", path);
        return false;
    }
    if (!editor_load_file(&ui->ed, a, c, path, err)) {
        st_arena_release(a), st_arena_release(c);
        return false;
    }
    opened(ui, true);
    return true;
}

bool editor_ui_new(EditorUi *ui, const char *path, int32_t w, int32_t h, uint64_t level_arena) {
    memset(ui, 0, sizeof *ui);
    Arena *a, *c;
    if (!make_arenas(&a, &c, level_arena)) return false;
    if (!editor_new(&ui->ed, a, c, path, w, h)) {
        st_arena_release(a), st_arena_release(c);
        return false;
    }
    opened(ui, false);
    return true;
}

void editor_ui_release(EditorUi *ui) {
    if (!ui->open) return;
    Arena *a = ui->ed.arena, *c = ui->ed.check;
    editor_release(&ui->ed);
    st_arena_release(a);
    st_arena_release(c);
    ui->open = false;
}

void editor_ui_status(EditorUi *ui, bool error, const char *text) {
    snprintf(ui->status, sizeof ui->status, "%.*s", (int)sizeof ui->status - 1, text);
    ui->status_until = ui->frames + 4 * 60;
    ui->status_error = error;
}

/* One axis of the view: a level that fits is centred; a larger one scrolls to put `at` in
   the middle, but never past its edges. */
static float view_axis(float at, float level, float view) {
    if (level <= view) return -(view - level) / 2;
    return CLAMP(at - view / 2, 0, level - view);
}

/* The map's part of the view's height: under the status bar, over the palette and its hint
   line. */
static float map_h(float view_h) { return view_h - TOP_H - EDITOR_PALETTE_H - 14; }

void editor_ui_center(EditorUi *ui, int32_t tx, int32_t ty, float view_w, float view_h) {
    ui->view_x = view_axis((float)(tx * TILE_PX + TILE_PX / 2), (float)(ui->ed.lv.width * TILE_PX), view_w);
    ui->view_y = view_axis((float)(ty * TILE_PX + TILE_PX / 2), (float)(ui->ed.lv.height * TILE_PX), map_h(view_h));
}

/* ---- Input ---- */

static EditCell brush_cell(const EditorUi *ui) {
    return ui->brush == EDITOR_BRUSH_PICKED ? ui->picked : BRUSHES[CLAMP(ui->brush, 0, BRUSH_COUNT - 1)].cell;
}

static EditorPromptKind brush_prompt(const EditorUi *ui) {
    return ui->brush == EDITOR_BRUSH_PICKED ? PROMPT_NONE : BRUSHES[CLAMP(ui->brush, 0, BRUSH_COUNT - 1)].prompt;
}

static void start_prompt(EditorUi *ui, EditorPromptKind k, int32_t tx, int32_t ty, EditCell cell, Str8 initial) {
    ui->prompt = k;
    ui->prompt_tx = tx, ui->prompt_ty = ty;
    ui->prompt_cell = cell;
    ui->prompt_len = (int32_t)MIN(initial.len, (uint64_t)EDITOR_PROMPT_MAX - 1);
    if (ui->prompt_len) memcpy(ui->prompt_text, initial.data, (size_t)ui->prompt_len);
    ui->prompt_text[ui->prompt_len] = '\0';
}

/* Text into the editor arena: the model keeps views of immutable strings. */
static Str8 keep(EditorUi *ui, const char *s, int32_t n) {
    return st_str8_copy(ui->ed.arena, st_str8_make(s, (uint64_t)n));
}

static void finish_prompt(EditorUi *ui) {
    Editor *e = &ui->ed;
    Str8 text = keep(ui, ui->prompt_text, ui->prompt_len);
    EditCell c = ui->prompt_cell;
    EditorPromptKind k = ui->prompt;
    ui->prompt = PROMPT_NONE;
    switch (k) {
    case PROMPT_LINK_FILE:
        c.target = text;
        start_prompt(ui, PROMPT_LINK_ENTRY, ui->prompt_tx, ui->prompt_ty, c, c.target_entry);
        return;
    case PROMPT_LINK_ENTRY: c.target_entry = text; break;
    case PROMPT_SIGN:
    case PROMPT_ENTRY: c.text = text; break;
    case PROMPT_NAME: editor_set_name(e, text); return;
    case PROMPT_EXIT: editor_set_exit(e, text); return;
    default: return;
    }
    editor_begin(e);
    editor_set(e, ui->prompt_tx, ui->prompt_ty, &c);
    editor_end(e);
}

/* Backspace removes one UTF-8 character, not one byte. */
static void prompt_backspace(EditorUi *ui) {
    while (ui->prompt_len > 0) {
        uint8_t ch = (uint8_t)ui->prompt_text[--ui->prompt_len];
        if ((ch & 0xC0) != 0x80) break;
    }
    ui->prompt_text[ui->prompt_len] = '\0';
}

/* Adds in->text[from, to) to the prompt. */
static void prompt_text(EditorUi *ui, const Input *in, int from, int to) {
    for (int i = from; i < to && ui->prompt_len < EDITOR_PROMPT_MAX - 1; i++) {
        char ch = in->text[i];
        if (ch == '#') continue; /* the format's comment: never inside a text */
        ui->prompt_text[ui->prompt_len++] = ch;
    }
    ui->prompt_text[ui->prompt_len] = '\0';
}

/* The frame's keys from `first` on, and the text they typed, in the order they came: a
   Backspace takes what was typed before it, and the keys after the one that opened the
   prompt (`first` past it) are the prompt's, not lost. */
static void prompt_input(EditorUi *ui, const Input *in, int first) {
    int at = first == 0 ? 0 : first < in->key_count ? in->key_text_at[first] : in->text_len;
    for (int i = first; i < in->key_count; i++) {
        prompt_text(ui, in, at, in->key_text_at[i]);
        at = MAX(at, (int)in->key_text_at[i]);
        uint16_t k = in->keys[i];
        if (k == SDL_SCANCODE_BACKSPACE) prompt_backspace(ui);
        else if (k == SDL_SCANCODE_RETURN || k == SDL_SCANCODE_KP_ENTER) finish_prompt(ui);
        else if (k == SDL_SCANCODE_ESCAPE) ui->prompt = PROMPT_NONE;
        if (ui->prompt == PROMPT_NONE) return;
    }
    prompt_text(ui, in, at, in->text_len);
}

/* One tile of a stroke; a thing that needs words asks for them (one prompt per click, not
   per tile dragged over). */
static void paint(EditorUi *ui, int32_t tx, int32_t ty, bool first) {
    EditCell c = brush_cell(ui);
    EditorPromptKind p = brush_prompt(ui);
    if (p != PROMPT_NONE) {
        if (first) start_prompt(ui, p, tx, ty, c, (Str8){0});
        return;
    }
    editor_set(&ui->ed, tx, ty, &c);
}

/* Every tile on the segment, so a fast drag leaves no gaps. */
static void paint_line(EditorUi *ui, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
    int32_t n = MAX(ABS(x1 - x0), ABS(y1 - y0));
    for (int32_t i = 1; i <= n; i++) paint(ui, x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n, false);
}

/* The palette index whose cell matches (the eyedropper), else the picked cell itself. */
static void pick(EditorUi *ui, int32_t tx, int32_t ty) {
    EditCell c = editor_get(&ui->ed, tx, ty);
    for (int32_t i = 0; i < BRUSH_COUNT; i++) {
        const EditCell *b = &BRUSHES[i].cell;
        if (b->tile == c.tile && b->thing == c.thing && b->kind == c.kind && b->color == c.color &&
            BRUSHES[i].prompt == PROMPT_NONE && c.hp == 0) {
            ui->brush = i;
            return;
        }
    }
    ui->picked = c; /* a portal with its link, a sign with its text, an enemy with its hp */
    ui->brush = EDITOR_BRUSH_PICKED;
}

static bool ctrl(uint16_t mods) { return (mods & KMOD_CTRL) != 0; }
static bool shift(uint16_t mods) { return (mods & KMOD_SHIFT) != 0; }

static bool save(EditorUi *ui, bool force) {
    Error msg;
    if (editor_save(&ui->ed, force, &msg)) {
        editor_ui_status(ui, false, msg.message);
        ui->confirm_what = 0;
        return true;
    }
    if (!force && ui->ed.has_problem && !ui->ed.problem.need) {
        editor_ui_status(ui, true, "the level has problems: Ctrl+S again saves it anyway");
        ui->confirm_what = 1;
        ui->confirm_until = ui->frames + 3 * 60;
    } else {
        editor_ui_status(ui, true, msg.message);
    }
    return false;
}

/* ---- Questions: the only keys they see are their answers; no other input gets past ---- */

/* No answer: a modifier alone, or a function key (F1 overlay, F11 fullscreen, F12 screenshot:
   the front end's, which work under a question too). */
static bool not_an_answer(uint16_t k) {
    return (k >= SDL_SCANCODE_LCTRL && k <= SDL_SCANCODE_RGUI) || (k >= SDL_SCANCODE_F1 && k <= SDL_SCANCODE_F12);
}

static void ask(EditorUi *ui, EditorQuestion q) {
    if (ui->drag) editor_end(&ui->ed); /* a stroke in progress ends where it is */
    ui->drag = 0;
    ui->prompt = PROMPT_NONE;
    ui->question = q;
}

/* Leaving without saving edits taken back from "<path>.unsaved": they were seen and
   dropped, so they go aside (".unsaved.old", as D does) instead of being offered again. */
static void drop_taken(EditorUi *ui) {
    if (!ui->ed.unsaved_taken) return;
    Error aside;
    if (editor_set_aside_unsaved(ui->ed.path, &aside)) ui->ed.unsaved_taken = false;
    st_error_report(&aside);
    editor_ui_status(ui, aside.code != ERROR_OK, aside.message);
}

bool editor_ui_ask_quit(EditorUi *ui) {
    if (ui->question == QUESTION_QUIT) {
        drop_taken(ui);
        return true;
    }
    ask(ui, QUESTION_QUIT);
    return false;
}

static void take_unsaved(EditorUi *ui) {
    Error err;
    char line[LEVEL_PATH_MAX + 120];
    if (editor_take_unsaved(&ui->ed, &err)) {
        ui->question = QUESTION_NONE;
        ui->checked_revision = ui->ed.revision - 1;
        snprintf(line, sizeof line, "took back the edits of %s" EDITOR_UNSAVED_EXT ": Ctrl+S saves them", ui->ed.path);
        editor_ui_status(ui, false, line);
        return;
    }
    /* It stays on disk and the question stays up: discard it or leave it for later. */
    st_error_report(&err);
    editor_ui_status(ui, true, err.message);
    ui->status_until = UINT32_MAX;
}

/* The answer to a question, or EDITOR_STAY while it is still asked. */
static EditorAction answer(EditorUi *ui, const Input *in) {
    Editor *e = &ui->ed;
    char msg[sizeof ui->status];
    for (int i = 0; i < in->key_count && ui->question != QUESTION_NONE; i++) {
        uint16_t k = in->keys[i], m = in->key_mods[i];
        if (not_an_answer(k)) continue;
        if (ui->question == QUESTION_UNSAVED) {
            if (k == SDL_SCANCODE_RETURN || k == SDL_SCANCODE_KP_ENTER || k == SDL_SCANCODE_Y) {
                take_unsaved(ui);
            } else if (k == SDL_SCANCODE_D) {
                Error aside;
                bool ok = editor_set_aside_unsaved(e->path, &aside);
                editor_ui_status(ui, !ok, aside.message);
                if (ok) ui->question = QUESTION_NONE;
            } else if (k == SDL_SCANCODE_ESCAPE) {
                snprintf(msg, sizeof msg, "%s" EDITOR_UNSAVED_EXT " stays: it is offered again next time", e->path);
                editor_ui_status(ui, false, msg);
                ui->question = QUESTION_NONE;
            }
            continue;
        }
        EditorAction leave = ui->question == QUESTION_QUIT ? EDITOR_QUIT : EDITOR_LEAVE;
        if (k == SDL_SCANCODE_ESCAPE) {
            ui->question = QUESTION_NONE;
            drop_taken(ui);
            return leave;
        }
        if (ctrl(m) && k == SDL_SCANCODE_S) {
            if (save(ui, false)) {
                ui->question = QUESTION_NONE;
                return leave;
            }
            ui->status_until = UINT32_MAX; /* why it was not saved, while the question is up */
            continue;
        }
        ui->question = QUESTION_NONE;
        editor_ui_status(ui, false, "kept editing: nothing is saved yet");
    }
    return EDITOR_STAY;
}

static EditorAction keys(EditorUi *ui, const Input *in) {
    Editor *e = &ui->ed;
    for (int i = 0; i < in->key_count; i++) {
        uint16_t k = in->keys[i], m = in->key_mods[i];
        bool confirming = ui->frames <= ui->confirm_until;
        if (ctrl(m)) {
            if (k == SDL_SCANCODE_Z && !shift(m)) {
                if (!editor_undo(e)) editor_ui_status(ui, false, "nothing to undo");
            } else if (k == SDL_SCANCODE_Y || (k == SDL_SCANCODE_Z && shift(m))) {
                if (!editor_redo(e)) editor_ui_status(ui, false, "nothing to redo");
            } else if (k == SDL_SCANCODE_S) {
                save(ui, confirming && ui->confirm_what == 1);
            } else if (k == SDL_SCANCODE_RIGHT || k == SDL_SCANCODE_LEFT || k == SDL_SCANCODE_DOWN ||
                       k == SDL_SCANCODE_UP) {
                int32_t w = e->lv.width + (k == SDL_SCANCODE_RIGHT) - (k == SDL_SCANCODE_LEFT);
                int32_t h = e->lv.height + (k == SDL_SCANCODE_DOWN) - (k == SDL_SCANCODE_UP);
                if (!editor_resize(e, w, h)) editor_ui_status(ui, true, "the grid cannot be that size");
            }
            continue;
        }
        switch (k) {
        case SDL_SCANCODE_TAB: return EDITOR_PLAYTEST;
        case SDL_SCANCODE_ESCAPE:
            if (!e->dirty) return EDITOR_LEAVE;
            ask(ui, QUESTION_LEAVE);
            return EDITOR_STAY; /* the rest of the frame's keys would answer it unseen */
        case SDL_SCANCODE_N: start_prompt(ui, PROMPT_NAME, 0, 0, (EditCell){0}, e->lv.name); break;
        case SDL_SCANCODE_X: start_prompt(ui, PROMPT_EXIT, 0, 0, (EditCell){0}, e->lv.exit); break;
        case SDL_SCANCODE_EQUALS:
        case SDL_SCANCODE_KP_PLUS:
        case SDL_SCANCODE_MINUS:
        case SDL_SCANCODE_KP_MINUS: {
            /* An enemy's hit points under the cursor: 0 is its kind's default. */
            EditCell c = editor_get(e, ui->cursor_tx, ui->cursor_ty);
            if (!ui->cursor_on_map || c.thing != EDIT_ENEMY) break;
            int32_t step = (k == SDL_SCANCODE_MINUS || k == SDL_SCANCODE_KP_MINUS) ? -EDITOR_HP_STEP : EDITOR_HP_STEP;
            c.hp = CLAMP(c.hp + step, 0, 9999);
            editor_begin(e);
            editor_set(e, ui->cursor_tx, ui->cursor_ty, &c);
            editor_end(e);
            break;
        }
        case SDL_SCANCODE_DELETE:
            if (ui->cursor_on_map) {
                editor_begin(e);
                editor_erase(e, ui->cursor_tx, ui->cursor_ty);
                editor_end(e);
            }
            break;
        default:
            if (k >= SDL_SCANCODE_1 && k <= SDL_SCANCODE_0) ui->brush = k - SDL_SCANCODE_1; /* 1..9, 0 */
            break;
        }
        if (ui->prompt != PROMPT_NONE) { /* the rest of the frame's keys are its text */
            prompt_input(ui, in, i + 1);
            return EDITOR_STAY;
        }
    }
    return EDITOR_STAY;
}

/* Home puts the view on the start (the middle, before the map has one). Held arrows or WASD
   move it at EDITOR_PAN_SPEED, never past the map's edges (a map that fits stays centred),
   and not under a modifier: Ctrl+S saves and Ctrl+arrows resize, and neither may also
   scroll. */
static void pan(EditorUi *ui, const Input *in, float dt, float view_w, float view_h) {
    float level_w = (float)(ui->ed.lv.width * TILE_PX), level_h = (float)(ui->ed.lv.height * TILE_PX);
    float step = EDITOR_PAN_SPEED * CLAMP(dt, 0.0f, EDITOR_PAN_DT_MAX);
    for (int i = 0; i < in->key_count; i++) {
        if (in->keys[i] != SDL_SCANCODE_HOME || (in->key_mods[i] & (KMOD_CTRL | KMOD_ALT | KMOD_GUI))) continue;
        const Level *at = ui->ed.has_checked ? &ui->ed.checked : NULL; /* the start, else the middle */
        editor_ui_center(ui, at ? at->start_tx : ui->ed.lv.width / 2, at ? at->start_ty : ui->ed.lv.height / 2, view_w,
                         view_h);
    }
    bool held = in->down[ACTION_RIGHT] || in->down[ACTION_LEFT] || in->down[ACTION_DOWN] || in->down[ACTION_UP];
    if (!held || (in->mods & (KMOD_CTRL | KMOD_SHIFT | KMOD_ALT | KMOD_GUI))) return;
    ui->view_x += (in->down[ACTION_RIGHT] ? step : 0) - (in->down[ACTION_LEFT] ? step : 0);
    ui->view_y += (in->down[ACTION_DOWN] ? step : 0) - (in->down[ACTION_UP] ? step : 0);
    float mh = map_h(view_h);
    ui->view_x = view_axis(ui->view_x + view_w / 2, level_w, view_w);
    ui->view_y = view_axis(ui->view_y + mh / 2, level_h, mh);
}

EditorAction editor_ui_frame(EditorUi *ui, const Input *in, float dt, float view_w, float view_h) {
    Editor *e = &ui->ed;
    ui->frames++;
    if (ui->question != QUESTION_NONE) {
        EditorAction act = answer(ui, in);
        if (e->revision != ui->checked_revision) {
            ui->checked_revision = e->revision;
            editor_check(e);
        }
        return act;
    }
    if (ui->prompt != PROMPT_NONE) {
        prompt_input(ui, in, 0);
        return EDITOR_STAY;
    }
    EditorAction act = keys(ui, in);
    if (act != EDITOR_STAY || ui->prompt != PROMPT_NONE) return act;

    pan(ui, in, dt, view_w, view_h);
    if (in->wheel) ui->brush = ((ui->brush < 0 ? 0 : ui->brush) - in->wheel % BRUSH_COUNT + BRUSH_COUNT) % BRUSH_COUNT;

    float palette_y = view_h - EDITOR_PALETTE_H;
    float mx = in->mouse_x, my = in->mouse_y;
    ui->cursor_on_map = in->mouse_seen && my >= TOP_H && my < palette_y && mx >= 0 && mx < view_w;
    int32_t tx = (int32_t)((mx + ui->view_x) / TILE_PX + 1000) - 1000;
    int32_t ty = (int32_t)((my - TOP_H + ui->view_y) / TILE_PX + 1000) - 1000;
    ui->cursor_on_map = ui->cursor_on_map && tx >= 0 && ty >= 0 && tx < e->lv.width && ty < e->lv.height;
    if (ui->cursor_on_map) ui->cursor_tx = tx, ui->cursor_ty = ty;

    /* The palette: a click chooses. */
    if (in->mouse_pressed[1] && my >= palette_y) {
        int32_t i = (int32_t)((mx - 2) / EDITOR_BRUSH_W);
        if (i >= 0 && i < BRUSH_COUNT) ui->brush = i;
        return EDITOR_STAY;
    }
    bool shift_held = shift(in->mods);
    if (ui->cursor_on_map) {
        if (in->mouse_pressed[1]) {
            editor_begin(e);
            ui->drag = shift_held ? 2 : 1;
            ui->fill_tx = ui->last_tx = tx, ui->fill_ty = ui->last_ty = ty;
            if (ui->drag == 1) paint(ui, tx, ty, true);
        } else if (ui->drag == 1 && in->mouse_down[1] && (tx != ui->last_tx || ty != ui->last_ty)) {
            paint_line(ui, ui->last_tx, ui->last_ty, tx, ty);
            ui->last_tx = tx, ui->last_ty = ty;
        } else if (ui->drag == 2) {
            ui->last_tx = tx, ui->last_ty = ty;
        }
        if (in->mouse_pressed[3]) pick(ui, tx, ty);
        if (in->mouse_pressed[2]) {
            editor_begin(e);
            editor_erase(e, tx, ty);
            editor_end(e);
        }
    }
    if (ui->drag && (in->mouse_released[1] || !in->mouse_down[1])) {
        if (ui->drag == 2) {
            EditCell c = brush_cell(ui);
            editor_fill(e, ui->fill_tx, ui->fill_ty, ui->last_tx, ui->last_ty, &c);
        }
        editor_end(e);
        ui->drag = 0;
    }
    /* The live check: after every change, the loader's own rules. */
    if (e->revision != ui->checked_revision) {
        ui->checked_revision = e->revision;
        editor_check(e);
    }
    return EDITOR_STAY;
}

/* ---- Drawing ---- */

static int tile_cell(const Editor *e, int32_t tx, int32_t ty, const EditCell *c, uint32_t frames) {
    switch (c->tile) {
    case TILE_WALL: {
        EditCell below = editor_get(e, tx, ty + 1);
        return below.tile == TILE_WALL ? TS_WALL : TS_WALL_FACE;
    }
    case TILE_WATER: return ((frames / 30 + (uint32_t)(tx + ty)) & 1) ? TS_WATER_1 : TS_WATER_0;
    case TILE_SPIKES: return TS_SPIKES;
    case TILE_DOOR: return TS_DOOR_RED + c->color;
    case TILE_EXIT: return TS_EXIT;
    case TILE_PORTAL: return TS_PORTAL_0;
    default: {
        uint32_t h = st_hash_mix2(tx, ty) % 16;
        return h < 10 ? TS_FLOOR_0 : h < 13 ? TS_FLOOR_1 : h < 15 ? TS_FLOOR_2 : TS_FLOOR_3;
    }
    }
}

static int thing_cell(const EditCell *c) {
    switch (c->thing) {
    case EDIT_START: return SPR_PLAYER;
    case EDIT_ENEMY:
        return c->kind == ENEMY_PATROLLER ? SPR_PATROLLER : c->kind == ENEMY_CHASER ? SPR_CHASER : SPR_TURRET;
    case EDIT_PICKUP:
        return c->kind == PICKUP_COIN ? SPR_COIN : c->kind == PICKUP_KEY ? SPR_KEY_RED + c->color : SPR_HEART;
    case EDIT_ENTRY: return SPR_SPARK;
    case EDIT_SIGN: return SPR_SIGN;
    default: return -1;
    }
}

static void text(Renderer *rd, const DrawAssets *a, float x, float y, Str8 s, Color c, TextAlign al) {
    st_font_draw(rd, &a->font, x + 1, y + 1, s, (Color){10, 8, 16, c.a}, LAYER_HUD_TEXT, al, 1);
    st_font_draw(rd, &a->font, x, y, s, c, LAYER_HUD_TEXT + 1, al, 1);
}

/* Does the rectangle (world pixels) reach into a cell with an enemy? */
static bool over_enemy(const Editor *e, RectF r) {
    for (int32_t ty = (int32_t)floorf(r.y / TILE_PX); ty <= (int32_t)floorf((r.y + r.h - 1) / TILE_PX); ty++)
        for (int32_t tx = (int32_t)floorf(r.x / TILE_PX); tx <= (int32_t)floorf((r.x + r.w - 1) / TILE_PX); tx++)
            if (editor_get(e, tx, ty).thing == EDIT_ENEMY) return true;
    return false;
}

/* The hit points' tags drawn so far this frame, so that no tag covers another. */
typedef struct HpTags {
    RectF r[64];
    int n;
} HpTags;

/* An enemy's own hit points, on a dark tag beside it: the first place above, below, right
   or left of it (then above and below it, flush with either side) where the tag covers no
   enemy and no other tag. Hemmed in, the status bar says them when the cursor is on it. */
static void draw_hp(const Editor *e, Renderer *rd, const DrawAssets *a, HpTags *tags, int32_t tx, int32_t ty,
                    int32_t hp) {
    Str8 s = st_str8_fmt(st_render_frame_arena(rd), "%d", hp);
    float tw = st_font_measure(&a->font, s, 1) + 2, th = st_font_line_height(&a->font, 1);
    float x = (float)(tx * TILE_PX), y = (float)(ty * TILE_PX), cx = floorf(x + (TILE_PX - tw) / 2);
    const RectF places[] = {{cx, y - th, tw, th},         {cx, y + TILE_PX, tw, th},
                            {x + TILE_PX, y + 3, tw, th}, {x - tw, y + 3, tw, th},
                            {x, y - th, tw, th},          {x + TILE_PX - tw, y - th, tw, th},
                            {x, y + TILE_PX, tw, th},     {x + TILE_PX - tw, y + TILE_PX, tw, th}};
    for (size_t i = 0; i < ARRAY_COUNT(places); i++) {
        RectF r = places[i];
        bool free = !over_enemy(e, r);
        for (int k = 0; k < tags->n && free; k++) {
            RectF o = tags->r[k]; /* a pixel apart at least, or the figures read as one */
            free = !(r.x <= o.x + o.w && o.x <= r.x + r.w && r.y <= o.y + o.h && o.y <= r.y + r.h);
        }
        if (!free) continue;
        if (tags->n < (int)ARRAY_COUNT(tags->r)) tags->r[tags->n++] = r;
        st_render_rect(rd, r, LAYER_PARTICLE, (Color){12, 10, 20, 200});
        st_font_draw(rd, &a->font, r.x + 1, r.y, s, COLOR_WHITE, LAYER_PARTICLE, TEXT_ALIGN_LEFT, 1);
        return;
    }
}

static void draw_map(EditorUi *ui, Renderer *rd, const DrawAssets *a, float w, float h) {
    const Editor *e = &ui->ed;
    st_render_set_view(rd, ui->view_x, ui->view_y - TOP_H);
    int32_t x0 = MAX(0, (int32_t)(ui->view_x / TILE_PX)), y0 = MAX(0, (int32_t)(ui->view_y / TILE_PX));
    int32_t x1 = MIN(e->lv.width, (int32_t)((ui->view_x + w) / TILE_PX) + 1);
    int32_t y1 = MIN(e->lv.height, (int32_t)((ui->view_y + h) / TILE_PX) + 1);
    HpTags tags = {.n = 0};
    for (int32_t ty = y0; ty < y1; ty++)
        for (int32_t tx = x0; tx < x1; tx++) {
            EditCell c = editor_get(e, tx, ty);
            float x = (float)(tx * TILE_PX), y = (float)(ty * TILE_PX);
            st_render_cell(rd, a->tiles, tile_cell(e, tx, ty, &c, ui->frames), x, y,
                           c.tile == TILE_WALL ? LAYER_WALL : LAYER_FLOOR, 0);
            int spr = thing_cell(&c);
            if (spr >= 0) st_render_cell(rd, a->sprites, spr, x, y, LAYER_PICKUP, 0);
            if (c.thing == EDIT_ENEMY && c.hp > 0) draw_hp(e, rd, a, &tags, tx, ty, c.hp);
        }
    /* The level's edge, the fill being dragged, the cursor, the tile with a problem. */
    st_render_rect_outline(rd, (RectF){-1, -1, (float)(e->lv.width * TILE_PX) + 2, (float)(e->lv.height * TILE_PX) + 2},
                           LAYER_PARTICLE, (Color){120, 110, 160, 255});
    if (ui->drag == 2) {
        int32_t fx0 = MIN(ui->fill_tx, ui->last_tx), fy0 = MIN(ui->fill_ty, ui->last_ty);
        int32_t fx1 = MAX(ui->fill_tx, ui->last_tx), fy1 = MAX(ui->fill_ty, ui->last_ty);
        st_render_rect_outline(rd,
                               (RectF){(float)(fx0 * TILE_PX), (float)(fy0 * TILE_PX),
                                       (float)((fx1 - fx0 + 1) * TILE_PX), (float)((fy1 - fy0 + 1) * TILE_PX)},
                               LAYER_PARTICLE + 1, (Color){140, 220, 255, 255});
    }
    if (e->has_problem && e->problem.tx >= 0) {
        uint8_t pulse = (uint8_t)(ui->frames / 8 % 2 ? 255 : 150);
        st_render_rect_outline(
            rd, (RectF){(float)(e->problem.tx * TILE_PX), (float)(e->problem.ty * TILE_PX), TILE_PX, TILE_PX},
            LAYER_PARTICLE + 2, (Color){255, 60, 60, pulse});
    }
    if (ui->cursor_on_map)
        st_render_rect_outline(
            rd, (RectF){(float)(ui->cursor_tx * TILE_PX), (float)(ui->cursor_ty * TILE_PX), TILE_PX, TILE_PX},
            LAYER_PARTICLE + 3, COLOR_WHITE);
    st_render_set_view(rd, 0, 0);
}

static const char *prompt_label(EditorPromptKind k) {
    switch (k) {
    case PROMPT_LINK_FILE: return "portal leads to file";
    case PROMPT_LINK_ENTRY: return "arriving at entry (empty: its start)";
    case PROMPT_SIGN: return "sign says";
    case PROMPT_ENTRY: return "entry name";
    case PROMPT_NAME: return "level name";
    case PROMPT_EXIT: return "exit leads to file (empty: the run is won)";
    default: return "";
    }
}

/* Text with its shadow on `layer`: the question's card and the play-test's label lie over the HUD. */
static void text_on(Renderer *rd, const DrawAssets *a, float x, float y, Str8 s, Color c, int layer) {
    st_font_draw(rd, &a->font, x + 1, y + 1, s, (Color){10, 8, 16, c.a}, layer, TEXT_ALIGN_LEFT, 1);
    st_font_draw(rd, &a->font, x, y, s, c, layer + 1, TEXT_ALIGN_LEFT, 1);
}

/* The question, in a card over the map: what it is about, then the answers, a key and
   what it does on each line. */
static void draw_question(const EditorUi *ui, Renderer *rd, const DrawAssets *a, float w, float h) {
    Arena *frame = st_render_frame_arena(rd);
    Str8 file = st_path_base_name(st_str8_cstr(ui->ed.path));
    const char *leave = ui->question == QUESTION_QUIT || ui->leave_quits ? "quit" : "go back to the game";
    Str8 title, keys[3], says[3];
    if (ui->question == QUESTION_UNSAVED) {
        title = st_str8_fmt(frame, "%.*s" EDITOR_UNSAVED_EXT " holds edits that were never saved", STR8_FMT(file));
        keys[0] = STR8_LIT("Enter"), says[0] = STR8_LIT("take them back (Ctrl+S then saves them)");
        keys[1] = STR8_LIT("D"),
        says[1] = st_str8_fmt(frame, "discard them (moved to %.*s" EDITOR_UNSAVED_OLD_EXT ")", STR8_FMT(file));
        keys[2] = STR8_LIT("Esc"), says[2] = STR8_LIT("not now: keep the file, ask again next time");
    } else {
        title = st_str8_fmt(frame, "%.*s has unsaved changes", STR8_FMT(file));
        keys[0] = STR8_LIT("Ctrl+S"), says[0] = st_str8_fmt(frame, "save, then %s", leave);
        keys[1] = ui->question == QUESTION_QUIT ? STR8_LIT("Esc, close") : STR8_LIT("Esc");
        says[1] = st_str8_fmt(frame, "%s without saving", leave);
        keys[2] = STR8_LIT("other keys"), says[2] = STR8_LIT("keep editing");
    }
    float kw = 0, sw = 0;
    for (int i = 0; i < 3; i++) {
        kw = MAX(kw, st_font_measure(&a->font, keys[i], 1));
        sw = MAX(sw, st_font_measure(&a->font, says[i], 1));
    }
    float cw = MIN(MAX(st_font_measure(&a->font, title, 1), kw + 10 + sw) + 16, w - 8), ch = 12.0f * 4 + 14;
    float x = (w - cw) / 2, y = TOP_H + (h - TOP_H - EDITOR_PALETTE_H - ch) / 2;
    st_render_rect(rd, (RectF){0, TOP_H, w, h - TOP_H - EDITOR_PALETTE_H}, LAYER_FADE, (Color){8, 6, 14, 150});
    st_render_rect(rd, (RectF){x, y, cw, ch}, LAYER_CARD, (Color){24, 20, 40, 240});
    st_render_rect_outline(rd, (RectF){x, y, cw, ch}, LAYER_CARD + 1, (Color){255, 214, 120, 255});
    text_on(rd, a, x + 8, y + 6, title, (Color){255, 230, 150, 255}, LAYER_CARD_TEXT);
    for (int i = 0; i < 3; i++) {
        float ly = y + 22 + 12.0f * (float)i;
        text_on(rd, a, x + 8, ly, keys[i], (Color){140, 220, 255, 255}, LAYER_CARD_TEXT);
        text_on(rd, a, x + 18 + kw, ly, says[i], COLOR_WHITE, LAYER_CARD_TEXT);
    }
}

void editor_ui_draw_playtest(Renderer *rd, const DrawAssets *a, float w, float h) {
    (void)h;
    Str8 label = STR8_LIT("PLAY-TEST    Tab or Esc: back to the editor");
    float tw = st_font_measure(&a->font, label, 1) + 12, x = (w - tw) / 2, y = DRAW_HUD_H + 3;
    st_render_rect(rd, (RectF){x, y, tw, 13}, LAYER_MESSAGE, (Color){110, 60, 10, 220});
    st_render_rect_outline(rd, (RectF){x, y, tw, 13}, LAYER_MESSAGE, (Color){255, 214, 120, 255});
    text_on(rd, a, x + 6, y + 3, label, (Color){255, 240, 210, 255}, LAYER_MESSAGE + 1);
}

void editor_ui_draw(EditorUi *ui, Renderer *rd, const DrawAssets *a, float w, float h) {
    const Editor *e = &ui->ed;
    Arena *frame = st_render_frame_arena(rd);
    draw_map(ui, rd, a, w, h);
    /* The status bar: what is being edited, and where. */
    st_render_rect(rd, (RectF){0, 0, w, TOP_H}, LAYER_HUD, (Color){12, 10, 20, 255});
    text(rd, a, 4, 5,
         st_str8_fmt(frame, "EDIT %s%s  %.*s  %dx%d", e->path, e->dirty ? "*" : "", STR8_FMT(e->lv.name), e->lv.width,
                     e->lv.height),
         (Color){255, 230, 150, 255}, TEXT_ALIGN_LEFT);
    EditCell under = ui->cursor_on_map ? editor_get(e, ui->cursor_tx, ui->cursor_ty) : (EditCell){0};
    Str8 hp = under.thing == EDIT_ENEMY && under.hp > 0 ? st_str8_fmt(frame, "  hp %d", under.hp) : STR8_LIT("");
    Str8 where = ui->cursor_on_map ? st_str8_fmt(frame, "%d,%d%.*s  undo %llu", ui->cursor_tx, ui->cursor_ty,
                                                 STR8_FMT(hp), (unsigned long long)editor_history_count(e))
                                   : st_str8_fmt(frame, "undo %llu", (unsigned long long)editor_history_count(e));
    text(rd, a, w - 4, 5, where, (Color){190, 190, 210, 255}, TEXT_ALIGN_RIGHT);

    /* The palette. */
    float py = h - EDITOR_PALETTE_H;
    st_render_rect(rd, (RectF){0, py, w, EDITOR_PALETTE_H}, LAYER_HUD, (Color){12, 10, 20, 255});
    for (int32_t i = 0; i < BRUSH_COUNT; i++) {
        const Brush *b = &BRUSHES[i];
        float x = 2 + (float)i * EDITOR_BRUSH_W;
        st_render_cell(rd, b->sprite ? a->sprites : a->tiles, b->cell_index, x + 1, py + 2, LAYER_HUD + 1, 0);
        if (i == ui->brush)
            st_render_rect_outline(rd, (RectF){x, py + 1, 18, 18}, LAYER_HUD + 2, (Color){255, 214, 120, 255});
    }
    Str8 brush = ui->brush == EDITOR_BRUSH_PICKED ? STR8_LIT("picked") : st_str8_cstr(BRUSHES[ui->brush].name);
    text(rd, a, w - 4, py + 6, brush, COLOR_WHITE, TEXT_ALIGN_RIGHT);

    /* Above the palette: the prompt, else the first problem, else the last status. */
    float ly = py - 14;
    if (ui->prompt != PROMPT_NONE) {
        st_render_rect(rd, (RectF){0, ly, w, 14}, LAYER_HUD, (Color){40, 30, 22, 240});
        /* The caret is where typing goes, the end, on every frame (it blinks dim, never
           off); a line wider than the screen shows its end, the caret with it. */
        Str8 line = st_str8_fmt(frame, "%s: %s", prompt_label(ui->prompt), ui->prompt_text);
        bool cut = false;
        while (line.len > 1 && st_font_measure(&a->font, line, 1) > w - 20) line.data++, line.len--, cut = true;
        Str8 shown = cut ? st_str8_fmt(frame, "..%.*s", STR8_FMT(line)) : line;
        float tw = st_font_measure(&a->font, shown, 1);
        text(rd, a, 4, ly + 2, shown, (Color){255, 240, 210, 255}, TEXT_ALIGN_LEFT);
        st_render_rect(rd, (RectF){4 + tw + 1, ly + 2, 1, 9}, LAYER_HUD_TEXT + 1,
                       (Color){255, 240, 210, (uint8_t)(ui->frames / 20 % 2 == 0 ? 255 : 110)});
    } else if (ui->frames < ui->status_until) {
        st_render_rect(rd, (RectF){0, ly, w, 14}, LAYER_HUD,
                       ui->status_error ? (Color){90, 20, 30, 230} : (Color){24, 50, 90, 230});
        text(rd, a, 4, ly + 2, st_str8_cstr(ui->status), COLOR_WHITE, TEXT_ALIGN_LEFT);
    } else if (e->has_problem) {
        st_render_rect(rd, (RectF){0, ly, w, 14}, LAYER_HUD, (Color){90, 20, 30, 230});
        text(rd, a, 4, ly + 2, st_str8_cstr(e->problem.message), COLOR_WHITE, TEXT_ALIGN_LEFT);
    } else {
        st_render_rect(rd, (RectF){0, ly, w, 14}, LAYER_HUD, (Color){12, 10, 20, 200});
        text(rd, a, 4, ly + 2,
             STR8_LIT("Tab play  Ctrl+S save  Ctrl+Z undo  N name  X exit  right-click pick  Shift-drag fill"),
             (Color){150, 150, 175, 255}, TEXT_ALIGN_LEFT);
    }
    if (ui->question != QUESTION_NONE) draw_question(ui, rd, a, w, h);
}
