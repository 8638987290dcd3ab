/* editor.c - the level editor's model (editor.h): cells, history, the text through
   level_write, the live check through level_parse, saving.

   The history is one list of records in memory order. A record says what one change did
   (a cell: before and after; the header: before and after; a resize: both grids), so undo
   and redo are the same assignment in two directions and never copy a grid. A resize's old
   grid stays where it was: from the resize on, the edits go to the new one, so the old one
   is exactly as the resize left it whenever undo comes back to it (the edits before the
   resize that undo then reverts are redone on it before the resize can be redone). */
#include "editor/editor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/base.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include <strata/core/utf8.h>
#include "level/level_write.h"
#include "level/level_load.h"

/* ---- History records ------------------------------------------------------------------ */

typedef enum EditRecordKind { RECORD_CELL, RECORD_RESIZE, RECORD_HEADER } EditRecordKind;

typedef struct EditHeader {
    Str8 name, exit;
    int32_t bullets, particles;
} EditHeader;

typedef struct EditRecord {
    uint64_t step;  /* records of one step (a drag, a fill) share it, and undo together */
    uint32_t kind;  /* EditRecordKind */
    uint32_t index; /* RECORD_CELL: the cell, row-major in the grid of the time */
    union {
        struct {
            EditCell before, after;
        } cell;
        struct {
            int32_t old_w, old_h, new_w, new_h;
            EditCell *old_cells, *new_cells;
        } resize;
        struct {
            EditHeader before, after;
        } header;
    };
} EditRecord;

/* Record i of the history (i < history.count), through the chunk last looked at: undo and
   redo walk the records one by one, so this walks the chunk list once per chunk. */
static EditRecord *hist_at(Editor *e, uint64_t i) {
    uint32_t per = e->history.per_chunk;
    ChunkListChunk *c = e->hist_chunk_;
    if (!c || i < e->hist_base_ || i >= e->hist_base_ + per) {
        uint64_t base = 0;
        for (c = e->history.first; i >= base + per; c = c->next) base += per;
        e->hist_chunk_ = c;
        e->hist_base_ = base;
    }
    return (EditRecord *)(void *)(c->data + (i - e->hist_base_) * sizeof(EditRecord));
}

static uint64_t next_step(Editor *e) {
    if (e->group_depth <= 0) return ++e->step_serial;
    if (!e->group_step) e->group_step = ++e->step_serial;
    return e->group_step;
}

/* A slot for the next record, which the caller fills and applies: it drops what could have
   been redone (reusing its slots). NULL, and nothing changed, when the arena is full. */
static EditRecord *hist_new(Editor *e, EditRecordKind kind) {
    uint64_t at = e->undo_count;
    EditRecord *r = at < e->history.count ? hist_at(e, at) : st_chunk_list_push_struct(&e->history, EditRecord);
    if (!r) return NULL;
    uint64_t step = next_step(e);
    if (at == 0 || hist_at(e, at - 1)->step != step) e->undo_steps++;
    if (e->saved_at != UINT64_MAX && e->saved_at > at)
        e->saved_at = UINT64_MAX; /* the saved state was undone, now gone */
    memset(r, 0, sizeof *r);
    r->step = step;
    r->kind = kind;
    e->redo_steps = 0;
    e->undo_count = e->record_count = at + 1;
    return r;
}

static EditHeader header_of(const Editor *e) {
    return (EditHeader){e->lv.name, e->lv.exit, e->lv.bullets, e->lv.particles};
}

static void record_apply(Editor *e, const EditRecord *r, bool forward) {
    switch ((EditRecordKind)r->kind) {
    case RECORD_CELL: e->lv.cells[r->index] = forward ? r->cell.after : r->cell.before; break;
    case RECORD_RESIZE:
        e->lv.width = forward ? r->resize.new_w : r->resize.old_w;
        e->lv.height = forward ? r->resize.new_h : r->resize.old_h;
        e->lv.cells = forward ? r->resize.new_cells : r->resize.old_cells;
        break;
    case RECORD_HEADER: {
        const EditHeader *h = forward ? &r->header.after : &r->header.before;
        e->lv.name = h->name;
        e->lv.exit = h->exit;
        e->lv.bullets = h->bullets;
        e->lv.particles = h->particles;
        break;
    }
    }
}

/* After every change, undo and redo. */
static void changed(Editor *e) {
    e->revision++;
    e->dirty = e->undo_count != e->saved_at;
}

void editor_begin(Editor *e) {
    if (e->group_depth++ == 0) e->group_step = 0;
}

void editor_end(Editor *e) {
    if (e->group_depth > 0 && --e->group_depth == 0) e->group_step = 0;
}

bool editor_undo(Editor *e) {
    e->group_depth = 0; /* an open drag ends here */
    e->group_step = 0;
    if (!e->undo_count) return false;
    uint64_t step = hist_at(e, e->undo_count - 1)->step;
    for (EditRecord *r; e->undo_count && (r = hist_at(e, e->undo_count - 1))->step == step; e->undo_count--)
        record_apply(e, r, false);
    e->undo_steps--;
    e->redo_steps++;
    changed(e);
    return true;
}

bool editor_redo(Editor *e) {
    e->group_depth = 0;
    e->group_step = 0;
    if (e->undo_count == e->record_count) return false;
    uint64_t step = hist_at(e, e->undo_count)->step;
    for (EditRecord *r; e->undo_count < e->record_count && (r = hist_at(e, e->undo_count))->step == step;
         e->undo_count++)
        record_apply(e, r, true);
    e->redo_steps--;
    e->undo_steps++;
    changed(e);
    return true;
}

uint64_t editor_history_count(const Editor *e) { return e->undo_steps; }
uint64_t editor_redo_count(const Editor *e) { return e->redo_steps; }

/* ---- Cells and strings ------------------------------------------------------------------- */

static bool in_grid(const Editor *e, int32_t tx, int32_t ty) {
    return tx >= 0 && ty >= 0 && tx < e->lv.width && ty < e->lv.height;
}

static bool cell_eq(const EditCell *a, const EditCell *b) {
    return a->tile == b->tile && a->thing == b->thing && a->kind == b->kind && a->color == b->color && a->hp == b->hp &&
           st_str8_eq(a->text, b->text) && st_str8_eq(a->target, b->target) &&
           st_str8_eq(a->target_entry, b->target_entry) && st_str8_eq(a->entry, b->entry);
}

/* `s` as the editor keeps it: trimmed, line breaks as spaces, NUL-terminated in the editor
   arena, and shared with `current` or a recent string when it is the same. False when the
   arena is full. */
static bool keep_str(Editor *e, Str8 s, Str8 current, Str8 *out) {
    s = st_str8_trim(s);
    if (!s.len) {
        *out = (Str8){0};
        return true;
    }
    bool breaks = memchr(s.data, '\n', s.len) || memchr(s.data, '\r', s.len);
    if (!breaks) {
        if (st_str8_eq(s, current)) {
            *out = current;
            return true;
        }
        for (uint32_t i = 0; i < 4; i++)
            if (st_str8_eq(s, e->recent_[i])) {
                *out = e->recent_[i];
                return true;
            }
    }
    char *m = st_arena_push_raw(e->arena, s.len + 1, 1);
    if (!m) return false;
    for (uint64_t i = 0; i < s.len; i++) m[i] = s.data[i] == '\n' || s.data[i] == '\r' ? ' ' : s.data[i];
    m[s.len] = 0;
    *out = (Str8){m, s.len};
    e->recent_[e->recent_next_++ % 4] = *out;
    return true;
}

/* The cell as it is kept (editor.h): things on floor, the fields that do not apply zeroed,
   the strings kept. False for a value outside its enum, or a full arena. */
static bool cell_normal(Editor *e, const EditCell *in, const EditCell *current, EditCell *out) {
    EditCell c = *in;
    if (c.tile >= TILE_KIND_COUNT || c.thing >= EDIT_THING_COUNT) return false;
    if (c.thing == EDIT_ENTRY) {
        if (c.text.len) c.entry = c.text;
        c.thing = EDIT_NONE;
    }
    if (c.thing != EDIT_NONE) c.tile = TILE_FLOOR;
    if (c.thing == EDIT_ENEMY) {
        if (c.kind >= ENEMY_KIND_COUNT) return false;
    } else if (c.thing == EDIT_PICKUP) {
        if (c.kind >= PICKUP_KIND_COUNT) return false;
    } else {
        c.kind = 0;
    }
    if (c.thing != EDIT_ENEMY) c.hp = 0;
    if (c.tile == TILE_DOOR || (c.thing == EDIT_PICKUP && c.kind == PICKUP_KEY)) {
        if (c.color >= KEY_COLOR_COUNT) return false;
    } else {
        c.color = 0;
    }
    if (c.thing != EDIT_SIGN) c.text = (Str8){0};
    if (c.tile != TILE_PORTAL) c.target = c.target_entry = (Str8){0};
    if (!keep_str(e, c.text, current->text, &c.text) || !keep_str(e, c.target, current->target, &c.target) ||
        !keep_str(e, c.target_entry, current->target_entry, &c.target_entry) ||
        !keep_str(e, c.entry, current->entry, &c.entry))
        return false;
    *out = c;
    return true;
}

/* One cell to a kept value: recorded when it changes anything. */
static bool cell_put(Editor *e, uint64_t index, const EditCell *c) {
    EditCell *cur = &e->lv.cells[index];
    if (cell_eq(cur, c)) return true;
    EditRecord *r = hist_new(e, RECORD_CELL);
    if (!r) return false;
    r->index = (uint32_t)index;
    r->cell.before = *cur;
    r->cell.after = *c;
    *cur = *c;
    return true;
}

bool editor_set(Editor *e, int32_t tx, int32_t ty, const EditCell *c) {
    if (!in_grid(e, tx, ty)) return false;
    uint64_t i = (uint64_t)ty * (uint64_t)e->lv.width + (uint64_t)tx;
    EditCell kept;
    if (!cell_normal(e, c, &e->lv.cells[i], &kept)) return false;
    uint64_t before = e->undo_count;
    if (!cell_put(e, i, &kept)) return false;
    if (e->undo_count != before) changed(e);
    return true;
}

void editor_fill(Editor *e, int32_t x0, int32_t y0, int32_t x1, int32_t y1, const EditCell *c) {
    EditCell none = {0}, kept;
    if (!cell_normal(e, c, &none, &kept)) return;
    int32_t lx = MIN(x0, x1), hx = MAX(x0, x1), ly = MIN(y0, y1), hy = MAX(y0, y1);
    lx = MAX(lx, 0), ly = MAX(ly, 0), hx = MIN(hx, e->lv.width - 1), hy = MIN(hy, e->lv.height - 1);
    uint64_t before = e->undo_count;
    editor_begin(e);
    for (int32_t y = ly; y <= hy; y++)
        for (int32_t x = lx; x <= hx; x++)
            if (!cell_put(e, (uint64_t)y * (uint64_t)e->lv.width + (uint64_t)x, &kept)) goto full;
full:
    editor_end(e);
    if (e->undo_count != before) changed(e);
}

EditCell editor_get(const Editor *e, int32_t tx, int32_t ty) {
    if (!in_grid(e, tx, ty)) return (EditCell){.tile = TILE_WALL};
    return e->lv.cells[(uint64_t)ty * (uint64_t)e->lv.width + (uint64_t)tx];
}

void editor_erase(Editor *e, int32_t tx, int32_t ty) { editor_set(e, tx, ty, &(EditCell){.tile = TILE_FLOOR}); }

bool editor_set_entry(Editor *e, int32_t tx, int32_t ty, Str8 name) {
    EditCell c = editor_get(e, tx, ty);
    c.entry = name;
    return editor_set(e, tx, ty, &c);
}

bool editor_resize(Editor *e, int32_t w, int32_t h) {
    if (w < 1 || h < 1 || w > LEVEL_MAX_SIDE || h > LEVEL_MAX_SIDE) return false;
    int32_t ow = e->lv.width, oh = e->lv.height;
    if (w == ow && h == oh) return true;
    EditCell *cells = st_arena_push_array(e->arena, EditCell, (uint64_t)w * (uint64_t)h);
    if (!cells) return false;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            EditCell *c = &cells[(uint64_t)y * (uint64_t)w + (uint64_t)x];
            if (x < ow && y < oh) *c = e->lv.cells[(uint64_t)y * (uint64_t)ow + (uint64_t)x];
            else if (x == 0 || y == 0 || x == w - 1 || y == h - 1) c->tile = TILE_WALL;
        }
    EditRecord *r = hist_new(e, RECORD_RESIZE);
    if (!r) return false;
    r->resize.old_w = ow;
    r->resize.old_h = oh;
    r->resize.old_cells = e->lv.cells;
    r->resize.new_w = w;
    r->resize.new_h = h;
    r->resize.new_cells = cells;
    record_apply(e, r, true);
    changed(e);
    return true;
}

static void header_put(Editor *e, EditHeader h) {
    EditHeader cur = header_of(e);
    if (st_str8_eq(h.name, cur.name) && st_str8_eq(h.exit, cur.exit) && h.bullets == cur.bullets &&
        h.particles == cur.particles)
        return;
    EditRecord *r = hist_new(e, RECORD_HEADER);
    if (!r) return;
    r->header.before = cur;
    r->header.after = h;
    record_apply(e, r, true);
    changed(e);
}

void editor_set_name(Editor *e, Str8 name) {
    EditHeader h = header_of(e);
    if (keep_str(e, name, h.name, &h.name)) header_put(e, h);
}

void editor_set_exit(Editor *e, Str8 exit) {
    EditHeader h = header_of(e);
    if (keep_str(e, exit, h.exit, &h.exit)) header_put(e, h);
}

void editor_set_pools(Editor *e, int32_t bullets, int32_t particles) {
    EditHeader h = header_of(e);
    h.bullets = bullets;
    h.particles = particles;
    header_put(e, h);
}

bool editor_set_path(Editor *e, const char *path) {
    size_t n = strlen(path);
    if (n >= LEVEL_PATH_MAX) return false;
    memcpy(e->path, path, n + 1);
    e->saved_at = UINT64_MAX; /* the file there is not this level */
    changed(e);
    return true;
}

/* ---- The text ------------------------------------------------------------------------------ */

/* Kept strings are NUL-terminated. */
static const char *cstr(Str8 s) { return s.len ? s.data : ""; }

/* A written exit or link file as the parser resolves it: against the level's folder. */
static const char *resolve(Arena *a, Str8 dir, Str8 written) {
    if (written.data[0] == '/') return written.data;
    return st_str8_fmt(a, "%.*s%.*s", STR8_FMT(dir), STR8_FMT(written)).data;
}

/* The cells as a Level, for level_write (its arrays in `a`, sorted by row then column as
   the loader's are). A Level has one start: the first is *start_at (-1: none), and the
   count of them in *starts. False when `a` is full. */
static bool level_view(Arena *a, const Editor *e, Level *v, int64_t *start_at, int64_t *starts) {
    const EditLevel *lv = &e->lv;
    uint64_t n = (uint64_t)lv->width * (uint64_t)lv->height;
    uint64_t enemies = 0, pickups = 0, doors = 0, links = 0, entries = 0, signs = 0;
    *starts = 0;
    *start_at = -1;
    for (uint64_t i = 0; i < n; i++) {
        const EditCell *c = &lv->cells[i];
        enemies += c->thing == EDIT_ENEMY;
        pickups += c->thing == EDIT_PICKUP;
        signs += c->thing == EDIT_SIGN;
        doors += c->tile == TILE_DOOR;
        links += c->tile == TILE_PORTAL && c->target.len; /* none: the portal has no `link` line */
        entries += c->entry.len != 0;
        if (c->thing == EDIT_START && (*starts)++ == 0) *start_at = (int64_t)i;
    }
    Str8 dir = st_path_dir_prefix(st_str8_cstr(e->path));
    uint8_t *tiles = st_arena_push_array_raw(a, uint8_t, n);
    EnemySpawn *en = st_arena_push_array(a, EnemySpawn, enemies);
    Pickup *pk = st_arena_push_array(a, Pickup, pickups);
    LevelDoor *dr = st_arena_push_array(a, LevelDoor, doors);
    LevelLink *lk = st_arena_push_array(a, LevelLink, links);
    LevelEntry *et = st_arena_push_array(a, LevelEntry, entries);
    LevelSign *sg = st_arena_push_array(a, LevelSign, signs);
    if (!tiles || (enemies && !en) || (pickups && !pk) || (doors && !dr) || (links && !lk) || (entries && !et) ||
        (signs && !sg))
        return false;
    *v = (Level){.width = lv->width,
                 .height = lv->height,
                 .tiles = tiles,
                 .enemies = en,
                 .pickups = pk,
                 .doors = dr,
                 .links = lk,
                 .entries = et,
                 .signs = sg,
                 .name = cstr(lv->name),
                 .path = e->path,
                 .start_tx = -1,
                 .start_ty = -1,
                 .bullet_cap = lv->bullets ? lv->bullets : LEVEL_DEFAULT_BULLETS,
                 .particle_cap = lv->particles ? lv->particles : LEVEL_DEFAULT_PARTICLES};
    if (lv->exit.len) {
        v->exit_to = resolve(a, dir, lv->exit);
        v->exit_written = lv->exit.data;
        if (!v->exit_to) return false;
    }
    if (*start_at >= 0) {
        v->start_tx = (int16_t)(*start_at % lv->width);
        v->start_ty = (int16_t)(*start_at / lv->width);
    }
    for (uint64_t i = 0; i < n; i++) {
        const EditCell *c = &lv->cells[i];
        int16_t x = (int16_t)(i % (uint64_t)lv->width), y = (int16_t)(i / (uint64_t)lv->width);
        tiles[i] = c->tile;
        if (c->thing == EDIT_ENEMY)
            en[v->enemy_count++] = (EnemySpawn){.tx = x, .ty = y, .kind = (EnemyKind)c->kind, .hp = c->hp};
        if (c->thing == EDIT_PICKUP)
            pk[v->pickup_count++] =
                (Pickup){.tx = x, .ty = y, .kind = (PickupKind)c->kind, .color = (KeyColor)c->color};
        if (c->thing == EDIT_SIGN) sg[v->sign_count++] = (LevelSign){.tx = x, .ty = y, .text = c->text};
        if (c->tile == TILE_DOOR) dr[v->door_count++] = (LevelDoor){.tx = x, .ty = y, .color = (KeyColor)c->color};
        if (c->tile == TILE_PORTAL && c->target.len) {
            const char *target = resolve(a, dir, c->target);
            if (!target) return false;
            lk[v->link_count++] = (LevelLink){.tx = x,
                                              .ty = y,
                                              .target_path = target,
                                              .target_written = c->target.data,
                                              .entry = c->target_entry.len ? c->target_entry.data : NULL};
        }
        if (c->entry.len) et[v->entry_count++] = (LevelEntry){.name = c->entry.data, .tx = x, .ty = y};
    }
    return true;
}

Str8 editor_text(Arena *a, const Editor *e) {
    SCRATCH_SCOPE(tmp, a);
    Level v;
    int64_t start_at, starts;
    if (!tmp.arena || !level_view(tmp.arena, e, &v, &start_at, &starts)) return (Str8){0};
    Str8 text = level_write(a, &v);
    if (!text.data || starts < 2) return text;
    /* The starts after the first, drawn where level_write drew the tiles under them: the
       map follows the line "map:", one row of width + 1 bytes per line. No header line is
       "map:" (strings are kept without line breaks). */
    const char *m = strstr(text.data, "\nmap:\n");
    if (!m) return text;
    char *map = (char *)m + 6;
    uint64_t n = (uint64_t)e->lv.width * (uint64_t)e->lv.height;
    for (uint64_t i = (uint64_t)start_at + 1; i < n; i++)
        if (e->lv.cells[i].thing == EDIT_START)
            map[i / (uint64_t)e->lv.width * ((uint64_t)e->lv.width + 1) + i % (uint64_t)e->lv.width] = '@';
    return text;
}

/* ---- The check ------------------------------------------------------------------------------ */

static bool problem(Editor *e, int32_t tx, int32_t ty, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool problem(Editor *e, int32_t tx, int32_t ty, const char *fmt, ...) {
    e->has_problem = true;
    e->problem.tx = tx;
    e->problem.ty = tx < 0 ? -1 : ty;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->problem.message, sizeof e->problem.message, fmt, ap);
    va_end(ap);
    return false;
}

/* An arena refused: `lead` (about `path`, or no file when NULL), then the arena's words;
   the one place the editor reads a refusal. */
static bool no_room(Error *err, const char *path, const char *lead) {
    st_error_set(err, ERROR_OUT_OF_MEMORY, path, 0, 0, "%s", lead);
    return st_arena_error(err);
}

/* The same as a problem: "expected memory for <what>, found <the arena's words>". */
static bool problem_memory(Editor *e, const char *what) {
    Error why;
    no_room(&why, NULL, "");
    return problem(e, -1, -1, "expected memory for %s, found %s", what, st_error_message(&why));
}

#define QUOTED(s) ST_QUOTE(s)

static bool has_byte(Str8 s, const char *set) {
    for (uint64_t i = 0; i < s.len; i++)
        if (strchr(set, s.data[i]) && s.data[i]) return true;
    return false;
}

/* What the text cannot say: a '#' anywhere starts a comment (the rest of the line would be
   lost, silently), and a blank in a file or entry name splits it into two words. The loader
   would read such a level as another one, so the check names these first. */
static bool check_strings(Editor *e) {
    const EditLevel *lv = &e->lv;
    if (has_byte(lv->name, "#"))
        return problem(e, -1, -1, "expected a level name without '#' (it starts a comment), found '%s'",
                       QUOTED(lv->name));
    if (has_byte(lv->exit, "# \t"))
        return problem(e, -1, -1, "expected an exit file name without '#' or blanks, found '%s'", QUOTED(lv->exit));
    for (int32_t y = 0; y < lv->height; y++)
        for (int32_t x = 0; x < lv->width; x++) {
            const EditCell *c = &lv->cells[(uint64_t)y * (uint64_t)lv->width + (uint64_t)x];
            if (has_byte(c->text, "#"))
                return problem(e, x, y, "expected a sign text without '#' (it starts a comment), found '%s'",
                               QUOTED(c->text));
            if (has_byte(c->target, "# \t"))
                return problem(e, x, y, "expected a link file name without '#' or blanks, found '%s'",
                               QUOTED(c->target));
            if (has_byte(c->target_entry, "# \t"))
                return problem(e, x, y, "expected a link entry name without '#' or blanks, found '%s'",
                               QUOTED(c->target_entry));
            if (has_byte(c->entry, "# \t"))
                return problem(e, x, y, "expected an entry name without '#' or blanks, found '%s'", QUOTED(c->entry));
        }
    return true;
}

/* The tile a loader error names in the editor's own text: a map character (line and column),
   or the X Y of an entity line (`enemy|link|sign X Y ...`, `entry NAME X Y`); -1 otherwise. */
static void error_tile(const Editor *e, Str8 text, const Error *err, int32_t *tx, int32_t *ty) {
    *tx = *ty = -1;
    if (err->line <= 0) return;
    Str8 rest = text, line = {0};
    int64_t no = 0, map_line = 0;
    while (no < err->line && st_str8_next_line(&rest, &line)) {
        no++;
        if (!map_line && st_str8_eq_cstr(line, "map:")) map_line = no;
    }
    if (no != err->line || !map_line || no == map_line) return;
    if (no <= map_line + e->lv.height) {
        *tx = CLAMP(err->col - 1, 0, e->lv.width - 1);
        *ty = (int32_t)(no - map_line - 1);
        return;
    }
    Str8 words[4];
    int n = 0;
    for (Str8 w; n < 4 && st_str8_next_token(&line, ' ', &w);)
        if (w.len) words[n++] = w;
    int first = n > 0 && st_str8_eq_cstr(words[0], "entry") ? 2 : 1;
    int64_t x, y;
    if (first + 1 < n && st_str8_parse_i64(words[first], &x) && st_str8_parse_i64(words[first + 1], &y) && x >= 0 &&
        y >= 0 && x < e->lv.width && y < e->lv.height) {
        *tx = (int32_t)x;
        *ty = (int32_t)y;
    }
}

/* The check of `text`, the editor's text now. */
static bool check_text(Editor *e, Str8 text, LevelRoom *room) {
    e->has_checked = false;
    e->has_problem = false;
    e->problem = (EditProblem){.tx = -1, .ty = -1};
    if (!text.data) return problem_memory(e, "the level's text");
    if (!check_strings(e)) return false;
    Error err;
    LevelRoom own = {.bytes = e->room_bytes};
    if (!room && e->room_bytes) room = &own;
    LevelLoadStats stats;
    if (!level_parse(&e->checked, e->check, e->path, text.data, text.len, room, &err, &stats)) {
        /* The loader measured it and found it too large: in the editor's words, since the
           loader's name the check's arena, not the game's. */
        uint64_t cap = st_arena_capacity(e->check);
        if (stats.level_bytes > cap) {
            problem(e, -1, -1,
                    "expected a level that fits the level arena (%llu bytes; --level-arena sets "
                    "it), found a %dx%d level that needs %llu: %llu bytes too many",
                    (unsigned long long)cap, e->lv.width, e->lv.height, (unsigned long long)stats.level_bytes,
                    (unsigned long long)(stats.level_bytes - cap));
            e->problem.need = stats.level_bytes;
            e->problem.cap = cap;
            return false;
        }
        int32_t tx, ty;
        error_tile(e, text, &err, &tx, &ty);
        return problem(e, tx, ty, "%s", err.message + err.at.message_at);
    }
    e->has_checked = true;
    return true;
}

bool editor_check_ex(Editor *e, LevelRoom *room) {
    SCRATCH_SCOPE(tmp, e->arena, e->check);
    return check_text(e, editor_text(tmp.arena, e), room);
}

bool editor_check(Editor *e) { return editor_check_ex(e, NULL); }

const Level *editor_level(const Editor *e) { return e->has_checked ? &e->checked : NULL; }

static bool is_tiled_path(const char *path) {
    size_t n = strlen(path), x = strlen(LEVEL_TILED_EXT);
    return n >= x && strcmp(path + n - x, LEVEL_TILED_EXT) == 0;
}

bool editor_save(Editor *e, bool force, Error *err) {
    if (is_tiled_path(e->path))
        return st_error_set(err, ERROR_REFUSED, NULL, 0, 0,
                            "%s: not saved: the editor writes .lvl text, and a %s file is a Tiled map "
                            "(edit it in Tiled, or save the level as a .lvl)",
                            e->path, LEVEL_TILED_EXT);
    SCRATCH_SCOPE(tmp, e->arena, e->check);
    Str8 text = editor_text(tmp.arena, e);
    bool ok = check_text(e, text, NULL);
    /* Forcing keeps a level with a problem to finish later; one the game's arena cannot
       hold is never written: no game could load it. */
    if (!text.data || (!ok && (!force || e->problem.need))) {
        ErrorCode code = e->problem.need ? ERROR_TOO_BIG : ERROR_REFUSED;
        if (e->problem.tx >= 0)
            return st_error_set(err, code, NULL, 0, 0, "%s: not saved: at %d %d: %s", e->path, e->problem.tx,
                                e->problem.ty, e->problem.message);
        return st_error_set(err, code, NULL, 0, 0, "%s: not saved: %s", e->path, e->problem.message);
    }
    if (!st_os_write_file_atomic(e->path, text.data, text.len, err)) return false;
    e->saved_at = e->undo_count;
    e->dirty = false;
    if (ok) st_error_note(err, "saved %s", e->path);
    else st_error_note(err, "saved %s, with a problem: %s", e->path, e->problem.message);
    /* The edits taken back from beside the file are in the file now. */
    char unsaved[LEVEL_PATH_MAX];
    if (e->unsaved_taken && editor_unsaved_path(e->path, EDITOR_UNSAVED_EXT, unsaved, sizeof unsaved) &&
        (st_os_remove(unsaved) || errno == ENOENT)) {
        e->unsaved_taken = false;
        st_error_append(err, " (%s, now in it, removed)", unsaved);
    }
    return true;
}

/* ---- Unsaved edits ---------------------------------------------------------------------- */

bool editor_unsaved_path(const char *path, const char *ext, char *out, size_t cap) {
    int n = snprintf(out, cap, "%s%s", path, ext);
    return path[0] && n > 0 && (size_t)n < cap && n < LEVEL_PATH_MAX;
}

EditorUnsaved editor_unsaved_find(const char *path) {
    char up[LEVEL_PATH_MAX];
    if (!editor_unsaved_path(path, EDITOR_UNSAVED_EXT, up, sizeof up)) return EDITOR_UNSAVED_NONE;
    OsFileInfo u = st_os_file_info(up);
    if (u.kind != OS_FILE_REGULAR) return EDITOR_UNSAVED_NONE;
    OsFileInfo f = st_os_file_info(path);
    /* Equal times: written in the same clock tick as the file (a coarse file system), and
       the file's own writer is the one that removes it; offered, never lost. */
    return f.kind == OS_FILE_NONE || u.mtime_ns >= f.mtime_ns ? EDITOR_UNSAVED_NEWER : EDITOR_UNSAVED_OLDER;
}

bool editor_set_aside_unsaved(const char *path, Error *err) {
    char up[LEVEL_PATH_MAX], old[LEVEL_PATH_MAX + 8];
    if (!editor_unsaved_path(path, EDITOR_UNSAVED_EXT, up, sizeof up) ||
        !editor_unsaved_path(path, EDITOR_UNSAVED_OLD_EXT, old, sizeof old))
        return st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "%s: cannot set its unsaved edits aside: path too long",
                            path);
    if (!st_os_rename(up, old)) {
        int e = errno;
        st_error_set(err, ERROR_IO, NULL, 0, 0, "%s: cannot move it to %s: %s", up, old, strerror(e));
        if (err) err->err_no = e;
        return false;
    }
    st_error_note(err, "moved %s aside to %s", up, old);
    return true;
}

bool editor_keep_unsaved(Editor *e, Error *err) {
    char up[LEVEL_PATH_MAX];
    if (!editor_unsaved_path(e->path, EDITOR_UNSAVED_EXT, up, sizeof up))
        return st_error_set(err, ERROR_REFUSED, NULL, 0, 0,
                            "%s: unsaved edits lost: no room for the path of a file beside it",
                            e->path[0] ? e->path : "(no file)");
    SCRATCH_SCOPE(tmp, e->arena, e->check);
    Str8 text = editor_text(tmp.arena, e);
    if (!text.data) {
        char lead[LEVEL_PATH_MAX + 64];
        snprintf(lead, sizeof lead, "%s: unsaved edits lost: no memory for their text: ", e->path);
        return no_room(err, NULL, lead);
    }
    /* Edits kept before and not taken back are other work: moved aside, not overwritten. */
    char aside[700] = "";
    if (!e->unsaved_taken && st_os_file_info(up).kind == OS_FILE_REGULAR) {
        if (editor_set_aside_unsaved(e->path, NULL))
            snprintf(aside, sizeof aside, " (the edits kept there before: %s" EDITOR_UNSAVED_OLD_EXT ")", e->path);
    }
    if (!st_os_write_file_atomic(up, text.data, text.len, err)) return false;
    e->unsaved_taken = true; /* what is there now is this editor's */
    st_error_note(err, "unsaved edits of %s kept in %s%s", e->path, up, aside);
    return true;
}

bool editor_take_unsaved(Editor *e, Error *err) {
    char up[LEVEL_PATH_MAX], path[LEVEL_PATH_MAX];
    st_error_clear(err);
    if (!editor_unsaved_path(e->path, EDITOR_UNSAVED_EXT, up, sizeof up)) {
        return st_error_set(err, ERROR_REFUSED, e->path, 0, 0,
                            "expected a path short enough for its unsaved edits beside it");
    }
    SCRATCH_SCOPE(tmp, e->arena, e->check);
    Str8 text;
    if (!st_os_read_file(tmp.arena, up, 256ull << 20, &text, err)) return false;
    /* Parsed under its own name: it is .lvl text whatever the file it belongs to, and it
       lies in the same folder, so its relative exits and links read the same. */
    Level lv;
    LevelRoom room = {.bytes = e->room_bytes};
    if (!level_parse(&lv, e->check, up, text.data, text.len, e->room_bytes ? &room : NULL, err, NULL)) return false;
    memcpy(path, e->path, sizeof path);
    uint64_t (*room_bytes)(const Level *) = e->room_bytes;
    if (!editor_create(e, e->arena, e->check, &lv)) {
        return no_room(err, up, "expected room for the level in the editor, found ");
    }
    memcpy(e->path, path, sizeof e->path);
    e->room_bytes = room_bytes;
    e->saved_at = UINT64_MAX; /* not in the file until saved */
    e->dirty = true;
    e->unsaved_taken = true;
    return true;
}

/* ---- Opening and closing --------------------------------------------------------------------- */

/* The editor on `arena`, empty: 0 x 0, nothing in the history. */
static bool editor_start(Editor *e, Arena *arena, Arena *check, const char *path) {
    *e = (Editor){.arena = arena, .check = check, .saved_at = 0};
    st_arena_clear(arena);
    st_chunk_list_init(&e->history, arena, sizeof(EditRecord), 256);
    size_t n = strlen(path);
    if (n >= LEVEL_PATH_MAX) return false;
    memcpy(e->path, path, n + 1);
    return true;
}

static bool grid_alloc(Editor *e, int32_t w, int32_t h) {
    if (w < 1 || h < 1 || w > LEVEL_MAX_SIDE || h > LEVEL_MAX_SIDE) return false;
    e->lv.cells = st_arena_push_array(e->arena, EditCell, (uint64_t)w * (uint64_t)h);
    if (!e->lv.cells) return false;
    e->lv.width = w;
    e->lv.height = h;
    return true;
}

/* `resolved` as the level's file wrote it: `written` when the loader kept it, else without
   the level's folder (what the parser put in front of it). */
static Str8 written_form(const Level *lv, const char *resolved, const char *written) {
    if (written && *written) return st_str8_cstr(written);
    Str8 r = st_str8_cstr(resolved), dir = st_path_dir_prefix(st_str8_cstr(lv->path));
    return dir.len && st_str8_starts_with(r, dir) ? st_str8_skip(r, dir.len) : r;
}

static bool open_level(Editor *e, const Level *from) {
    if (!grid_alloc(e, from->width, from->height)) return false;
    EditLevel *lv = &e->lv;
    EditCell none = {0};
#define CELL(x, y) (&lv->cells[(uint64_t)(y) * (uint64_t)lv->width + (uint64_t)(x)])
    for (uint64_t i = 0; i < (uint64_t)from->width * (uint64_t)from->height; i++) lv->cells[i].tile = from->tiles[i];
    for (int32_t i = 0; i < from->door_count; i++)
        CELL(from->doors[i].tx, from->doors[i].ty)->color = (uint8_t)from->doors[i].color;
    CELL(from->start_tx, from->start_ty)->thing = EDIT_START;
    for (int32_t i = 0; i < from->enemy_count; i++) {
        const EnemySpawn *s = &from->enemies[i];
        *CELL(s->tx, s->ty) = (EditCell){.thing = EDIT_ENEMY, .kind = (uint8_t)s->kind, .hp = s->hp};
    }
    for (int32_t i = 0; i < from->pickup_count; i++) {
        const Pickup *p = &from->pickups[i];
        *CELL(p->tx, p->ty) = (EditCell){
            .thing = EDIT_PICKUP, .kind = (uint8_t)p->kind, .color = p->kind == PICKUP_KEY ? (uint8_t)p->color : 0};
    }
    for (int32_t i = 0; i < from->sign_count; i++) {
        EditCell *c = CELL(from->signs[i].tx, from->signs[i].ty);
        c->thing = EDIT_SIGN;
        if (!keep_str(e, from->signs[i].text, none.text, &c->text)) return false;
    }
    for (int32_t i = 0; i < from->link_count; i++) {
        const LevelLink *l = &from->links[i];
        EditCell *c = CELL(l->tx, l->ty);
        if (!keep_str(e, written_form(from, l->target_path, l->target_written), none.text, &c->target) ||
            !keep_str(e, st_str8_cstr(l->entry), none.text, &c->target_entry))
            return false;
    }
    for (int32_t i = 0; i < from->entry_count; i++)
        if (!keep_str(e, st_str8_cstr(from->entries[i].name), none.text,
                      &CELL(from->entries[i].tx, from->entries[i].ty)->entry))
            return false;
#undef CELL
    if (!keep_str(e, st_str8_cstr(from->name), none.text, &lv->name)) return false;
    if (from->exit_to && !keep_str(e, written_form(from, from->exit_to, from->exit_written), none.text, &lv->exit))
        return false;
    lv->bullets = from->bullet_cap == LEVEL_DEFAULT_BULLETS ? 0 : from->bullet_cap;
    lv->particles = from->particle_cap == LEVEL_DEFAULT_PARTICLES ? 0 : from->particle_cap;
    return true;
}

bool editor_create(Editor *e, Arena *arena, Arena *check, const Level *from) {
    if (editor_start(e, arena, check, from->path ? from->path : "") && open_level(e, from)) {
        e->revision = 1;
        return true;
    }
    editor_start(e, arena, check, "");
    return false;
}

bool editor_new(Editor *e, Arena *arena, Arena *check, const char *path, int32_t w, int32_t h) {
    if (!editor_start(e, arena, check, path) || !grid_alloc(e, w, h)) {
        editor_start(e, arena, check, "");
        return false;
    }
    bool walled = w >= 3 && h >= 3;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            if (walled && (x == 0 || y == 0 || x == w - 1 || y == h - 1))
                e->lv.cells[(uint64_t)y * (uint64_t)w + (uint64_t)x].tile = TILE_WALL;
    e->lv.cells[walled ? (uint64_t)w + 1 : 0].thing = EDIT_START;
    Str8 name = st_path_base_name(st_str8_cstr(path));
    if (st_str8_ends_with(name, STR8_LIT(LEVEL_FILE_EXT))) name = st_str8_prefix(name, name.len - 4);
    if (!keep_str(e, name.len ? name : STR8_LIT("Untitled"), (Str8){0}, &e->lv.name)) {
        editor_start(e, arena, check, "");
        return false;
    }
    e->saved_at = UINT64_MAX; /* nothing on disk yet */
    e->dirty = true;
    e->revision = 1;
    return true;
}

bool editor_load_file(Editor *e, Arena *arena, Arena *check, const char *path, Error *err) {
    Error dummy;
    if (!err) err = &dummy;
    st_error_clear(err);
    editor_start(e, arena, check, "");
    /* The editor saves .lvl text over the file it opened: a Tiled map is edited in Tiled
       (the game reloads it when it is saved there). */
    size_t plen = strlen(path);
    if (plen > 4 && strcmp(path + plen - 4, LEVEL_TILED_EXT) == 0) {
        return st_error_set(err, ERROR_REFUSED, path, 0, 0,
                            "expected a .lvl file, found a Tiled map: edit it in Tiled, which the game reloads from");
    }
    SCRATCH_SCOPE(tmp, arena, check);
    Str8 text;
    Level lv;
    /* The loader's own limit on a level file. */
    if (!st_os_read_file(tmp.arena, path, 256ull << 20, &text, NULL)) {
        /* level_load says why in the loader's words (and loads it if it is there now). */
        if (!level_load(&lv, check, path, err)) return false;
    } else if (!level_parse(&lv, check, path, text.data, text.len, NULL, err, NULL)) {
        return false;
    }
    if (editor_create(e, arena, check, &lv)) return true;
    if (strlen(path) >= LEVEL_PATH_MAX)
        return st_error_set(err, ERROR_REFUSED, path, 0, 0,
                            "expected room for the level in the editor, found a path too long");
    return no_room(err, path, "expected room for the level in the editor, found ");
}

void editor_release(Editor *e) {
    if (e->arena) st_arena_clear(e->arena);
    if (e->check) st_arena_clear(e->check);
    *e = (Editor){0};
}
