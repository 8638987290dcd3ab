/* test_editor.c - the level editor's model (editor.h): every shipped level opens as itself
   (its text is level_write's of the loaded level, and it checks back equal), survives a few
   hundred random edits undone to the byte and redone to the byte; a new edit drops the redo
   tail; a resize and a drag undo as one step; a new level, and one built tile by tile with
   every kind of thing, save and load back with level_load; the check names the tile of a
   problem; a refused save leaves the file as it was, a forced one writes; close leaves the
   arenas empty. The level arena's limit, the game's room beside the level included, is a
   problem no save gets past; a Tiled map's name is never written. Edits kept beside the
   file (.unsaved) come back byte for byte, are set aside, never overwritten unasked.
   Prints the figures: bytes per edit record, the check's time. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "check.h"
#include "portable.h"
#include "test_levels.h"
#include <strata/core/os_file.h>
#include <strata/core/str8.h>
#include "editor/editor.h"
#include "level/level.h"
#include "level/level_load.h"
#include "level/level_write.h"
#include "rules/sim.h"

static Arena *perm, *ed_arena, *check_arena, *load_arena;
static char tmp_dir[] = "/tmp/test_editor_XXXXXX";

static Arena *new_level_arena(const char *name) {
    return st_arena_create((ArenaParams){
        .reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = name});
}


static Str8 read_all(const char *path) {
    Str8 s = {0};
    if (!st_os_read_file(perm, path, 1 << 20, &s, NULL)) return (Str8){0};
    return s;
}

static const char *tmp_path(const char *name) {
    return st_str8_fmt(perm, "%s/%s", tmp_dir, name).data;
}

/* ---- Random edits ------------------------------------------------------------------------ */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static Str8 pick(const char *const *pool, uint32_t n) { return st_str8_cstr(pool[rnd(n)]); }

static EditCell random_cell(void) {
    static const char *const texts[] = {"",           "Hello there",     "  padded  ",
                                        "two\nlines", "Keys open doors", "#bad"};
    static const char *const targets[] = {"", "02-keys-and-doors.lvl", "sub/x.lvl", "nope",
                                          "a b.lvl"};
    static const char *const names[] = {"", "west", "gate", "e-1", "bad name"};
    EditCell c = {.tile = (uint8_t)rnd(TILE_KIND_COUNT), .thing = (uint8_t)rnd(EDIT_THING_COUNT)};
    c.kind = (uint8_t)(c.thing == EDIT_ENEMY ? rnd(ENEMY_KIND_COUNT) : rnd(PICKUP_KIND_COUNT));
    c.color = (uint8_t)rnd(KEY_COLOR_COUNT);
    c.hp = rnd(4) ? 0 : (int32_t)rnd(12000);
    c.text = pick(texts, 6);
    c.target = pick(targets, 5);
    c.target_entry = pick(names, 5);
    c.entry = rnd(3) ? (Str8){0} : pick(names, 5);
    return c;
}

/* One random edit of any kind, some out of the grid or out of their enum (refused). */
static void random_edit(Editor *e) {
    int32_t w = e->lv.width, h = e->lv.height;
    uint32_t op = rnd(100);
    EditCell c = random_cell();
    if (op < 45) {
        editor_set(e, (int32_t)rnd((uint32_t)w + 2) - 1, (int32_t)rnd((uint32_t)h + 2) - 1, &c);
    } else if (op < 55) {
        editor_fill(e, (int32_t)rnd((uint32_t)w + 4) - 2, (int32_t)rnd((uint32_t)h),
                    (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h + 4) - 2, &c);
    } else if (op < 65) {
        editor_erase(e, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h));
    } else if (op < 70) {
        editor_set_entry(e, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h), c.entry);
    } else if (op < 75) {
        editor_set_name(e, c.text);
    } else if (op < 78) {
        editor_set_exit(e, c.target);
    } else if (op < 80) {
        editor_set_pools(e, (int32_t)rnd(300), (int32_t)rnd(3000));
    } else if (op < 84) {
        editor_resize(e, (int32_t)rnd(60) + 1, (int32_t)rnd(30) + 1);
    } else if (op < 90) { /* a drag */
        editor_begin(e);
        for (uint32_t k = rnd(8); k; k--)
            editor_set(e, (int32_t)rnd((uint32_t)w), (int32_t)rnd((uint32_t)h), &c);
        editor_end(e);
    } else if (op < 93) {
        c.tile = 99; /* not a tile: refused, nothing recorded */
        CHECK(!editor_set(e, 0, 0, &c));
    } else if (op < 97) {
        editor_undo(e);
    } else {
        editor_redo(e);
    }
}

static Str8 text_of(const Editor *e) {
    Str8 t = editor_text(perm, e);
    CHECK(t.data != NULL);
    return t;
}

/* ---- Every shipped level -------------------------------------------------------------------- */

static void test_shipped_level(const char *path, uint64_t seed) {
    Level orig;
    Error err;
    REQUIRE_VOID(level_load(&orig, load_arena, path, &err));
    Editor e;
    if (!editor_load_file(&e, ed_arena, check_arena, path, &err)) {
        fprintf(stderr, "%s\n", err.message);
        REQUIRE_VOID(!"editor_load_file");
    }
    CHECK(!e.dirty);
    /* Opened as itself: the same text as level_write of the loaded level, and it checks equal. */
    Str8 t0 = text_of(&e);
    CHECK(same_text(t0, level_write(perm, &orig), path));
    CHECK(editor_check(&e));
    CHECK(!e.has_problem);
    CHECK(editor_level(&e) && level_equal(&orig, editor_level(&e)));

    rng_state = seed;
    int problems = 0;
    for (int i = 0; i < 400; i++) {
        random_edit(&e);
        if (i % 20 == 0 && !editor_check(&e)) { /* on whatever the edits made: never a crash */
            problems++;
            CHECK(e.problem.tx < e.lv.width && e.problem.ty < e.lv.height && e.problem.message[0]);
            CHECK((e.problem.tx < 0) == (e.problem.ty < 0));
        }
    }
    CHECK(problems > 0);
    while (editor_redo(&e)) {
    } /* so that undo starts at the very end */
    Str8 t_end = text_of(&e);
    uint64_t steps = editor_history_count(&e);
    CHECK(steps > 100);

    uint64_t undone = 0;
    while (editor_undo(&e)) undone++;
    CHECK_EQ_U(undone, steps);
    CHECK_EQ_U(editor_redo_count(&e), steps);
    CHECK_EQ_U(editor_history_count(&e), 0);
    CHECK(same_text(text_of(&e), t0, path));
    CHECK(!e.dirty);
    CHECK(editor_check(&e));
    CHECK(editor_level(&e) && level_equal(&orig, editor_level(&e)));

    uint64_t redone = 0;
    while (editor_redo(&e)) redone++;
    CHECK_EQ_U(redone, steps);
    CHECK(same_text(text_of(&e), t_end, path));
    CHECK(e.dirty);
    editor_release(&e);
    CHECK_EQ_U(st_arena_pos(ed_arena), 0);
    CHECK_EQ_U(st_arena_pos(check_arena), 0);
}

/* ---- History ---------------------------------------------------------------------------------- */

static const EditCell wall = {.tile = TILE_WALL};
static const EditCell coin = {.thing = EDIT_PICKUP, .kind = PICKUP_COIN};

static void test_redo_tail(void) {
    Editor e;
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, tmp_path("tail.lvl"), 10, 8));
    Str8 t0 = text_of(&e);
    uint32_t rev = e.revision;
    CHECK(editor_set(&e, 2, 2, &wall));
    CHECK(e.revision != rev);
    CHECK(editor_set(&e, 3, 3, &coin));
    Str8 t2 = text_of(&e);
    CHECK(editor_set(&e, 3, 3, &coin)); /* no change: no record */
    CHECK_EQ_U(editor_history_count(&e), 2);
    CHECK(editor_undo(&e));
    CHECK_EQ_U(editor_redo_count(&e), 1);
    CHECK(editor_set(&e, 4, 4, &wall)); /* drops the coin's redo */
    CHECK_EQ_U(editor_redo_count(&e), 0);
    CHECK(!editor_redo(&e));
    CHECK_EQ_U(editor_get(&e, 3, 3).thing, EDIT_NONE);
    CHECK_EQ_U(editor_get(&e, 4, 4).tile, TILE_WALL);
    CHECK(editor_undo(&e));
    CHECK(editor_undo(&e));
    CHECK(!editor_undo(&e));
    CHECK(same_text(text_of(&e), t0, "undo after a new edit"));
    CHECK(editor_redo(&e));
    CHECK(editor_redo(&e));
    CHECK(!editor_redo(&e));
    CHECK_EQ_U(editor_get(&e, 3, 3).thing, EDIT_NONE);
    CHECK(!st_str8_eq(text_of(&e), t2));
    /* Two undone, one new edit: both redos are gone, not only the one it replaced. */
    CHECK(editor_set(&e, 5, 5, &coin));
    CHECK(editor_set(&e, 6, 5, &coin));
    CHECK(editor_undo(&e));
    CHECK(editor_undo(&e));
    CHECK(editor_set(&e, 7, 5, &coin));
    CHECK(!editor_redo(&e));
    CHECK(editor_get(&e, 5, 5).thing == EDIT_NONE && editor_get(&e, 6, 5).thing == EDIT_NONE);
    CHECK(editor_undo(&e));

    /* A drag is one step, and a fill is one; nested groups are one. */
    uint64_t before = editor_history_count(&e);
    Str8 t_before = text_of(&e);
    editor_begin(&e);
    for (int32_t x = 1; x < 9; x++) editor_set(&e, x, 5, &coin);
    editor_begin(&e);
    editor_fill(&e, 1, 6, 8, 6, &wall);
    editor_end(&e);
    editor_end(&e);
    editor_fill(&e, 8, 2, 6, 1, &wall); /* any corner order */
    CHECK_EQ_U(editor_get(&e, 7, 1).tile, TILE_WALL);
    CHECK_EQ_U(editor_history_count(&e), before + 2);
    CHECK(editor_undo(&e));
    CHECK_EQ_U(editor_get(&e, 7, 1).tile, TILE_FLOOR);
    CHECK_EQ_U(editor_get(&e, 4, 5).thing, EDIT_PICKUP);
    CHECK(editor_undo(&e));
    CHECK(same_text(text_of(&e), t_before, "a drag undone"));
    editor_begin(&e);
    editor_end(&e); /* an empty drag is no step */
    CHECK_EQ_U(editor_history_count(&e), before);

    /* Resize: top-left kept, new border walls, undone to the byte, redone the same. */
    editor_set(&e, 9, 7, &coin);
    Str8 t_small = text_of(&e);
    CHECK(editor_resize(&e, 14, 9));
    CHECK_EQ_I(e.lv.width, 14);
    CHECK_EQ_U(editor_get(&e, 13, 4).tile, TILE_WALL);
    CHECK_EQ_U(editor_get(&e, 11, 8).tile, TILE_WALL);
    CHECK_EQ_U(editor_get(&e, 11, 4).tile, TILE_FLOOR);
    CHECK_EQ_U(editor_get(&e, 9, 7).thing, EDIT_PICKUP);
    editor_set(&e, 12, 3, &coin);
    Str8 t_big = text_of(&e);
    CHECK(editor_resize(&e, 5, 4)); /* crops the coins */
    CHECK(editor_check(&e));
    CHECK(!editor_resize(&e, 0, 4));
    CHECK(!editor_resize(&e, LEVEL_MAX_SIDE + 1, 4));
    CHECK(editor_undo(&e));
    CHECK(same_text(text_of(&e), t_big, "resize undone"));
    CHECK(editor_undo(&e));
    CHECK(editor_undo(&e));
    CHECK(same_text(text_of(&e), t_small, "resize undone"));
    CHECK(editor_redo(&e));
    CHECK(editor_redo(&e));
    CHECK(same_text(text_of(&e), t_big, "resize redone"));

    /* Outside the grid: refused, a wall to the eyedropper. */
    CHECK(!editor_set(&e, -1, 0, &wall));
    CHECK(!editor_set(&e, 0, 9, &wall));
    CHECK_EQ_U(editor_get(&e, 99, 0).tile, TILE_WALL);

    /* Dirty follows the saved state through undo and redo. */
    Error msg;
    CHECK(e.dirty);
    CHECK(editor_save(&e, false, &msg));
    CHECK(!e.dirty);
    editor_set(&e, 2, 2, &coin);
    CHECK(e.dirty);
    editor_undo(&e);
    CHECK(!e.dirty);
    editor_undo(&e);
    CHECK(e.dirty);
    editor_set(&e, 1, 3, &wall); /* as many edits as saved, not the same: the saved state is gone */
    CHECK(e.dirty);
    editor_undo(&e);
    CHECK(e.dirty);
    editor_release(&e);
}

/* ---- New levels, built ones, saving ---------------------------------------------------------- */

static void test_new_sizes(void) {
    static const int32_t sizes[][2] = {{1, 1}, {2, 5}, {3, 3}, {40, 20}, {7, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        Editor e;
        const char *path = tmp_path(st_str8_fmt(perm, "new-%dx%d.lvl", sizes[i][0], sizes[i][1]).data);
        REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, path, sizes[i][0], sizes[i][1]));
        CHECK(e.dirty);
        CHECK(editor_check(&e));
        Error msg;
        CHECK(editor_save(&e, false, &msg));
        Level lv;
        Error err;
        if (!level_load(&lv, load_arena, path, &err)) {
            fprintf(stderr, "%s\n", err.message);
            CHECK(!"load");
        } else {
            CHECK_EQ_I(lv.width, sizes[i][0]);
            CHECK_EQ_I(lv.height, sizes[i][1]);
            CHECK(strcmp(lv.name, st_str8_fmt(perm, "new-%dx%d", sizes[i][0], sizes[i][1]).data) == 0);
        }
        editor_release(&e);
    }
    Editor e;
    CHECK(!editor_new(&e, ed_arena, check_arena, tmp_path("x.lvl"), 0, 5));
    CHECK(!editor_new(&e, ed_arena, check_arena, tmp_path("x.lvl"), 5, LEVEL_MAX_SIDE + 1));
}

static void test_build_level(void) {
    Error msg;
    /* The level the portal leads to, with an entry 'west'. */
    Editor b;
    const char *b_path = tmp_path("b.lvl");
    REQUIRE_VOID(editor_new(&b, ed_arena, check_arena, b_path, 6, 5));
    CHECK(editor_set_entry(&b, 2, 2, STR8_LIT("west")));
    CHECK(editor_save(&b, false, &msg));
    editor_release(&b);

    Editor e;
    const char *a_path = tmp_path("a.lvl");
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, a_path, 12, 7));
    editor_fill(&e, 0, 0, 11, 6, &(EditCell){.tile = TILE_FLOOR}); /* an empty grid */
    editor_erase(&e, 1, 1);                                        /* no start either */
    CHECK(!editor_check(&e));
    CHECK_EQ_I(e.problem.tx, -1);
    CHECK(strstr(e.problem.message, "player start") != NULL);

    editor_begin(&e); /* the walls, as one drag */
    editor_fill(&e, 0, 0, 11, 0, &wall);
    editor_fill(&e, 0, 6, 11, 6, &wall);
    editor_fill(&e, 0, 0, 0, 6, &wall);
    editor_fill(&e, 11, 0, 11, 6, &wall);
    editor_fill(&e, 6, 1, 6, 5, &wall);
    editor_end(&e);
    CHECK(editor_set(&e, 1, 1, &(EditCell){.thing = EDIT_START}));
    CHECK(editor_set(&e, 10, 5, &(EditCell){.tile = TILE_EXIT}));
    CHECK(editor_set(&e, 2, 2, &coin));
    CHECK(editor_set(
        &e, 3, 2,
        &(EditCell){
            .tile = TILE_WALL, .thing = EDIT_PICKUP, .kind = PICKUP_KEY, .color = KEY_RED}));
    CHECK(editor_set(&e, 6, 3, &(EditCell){.tile = TILE_DOOR, .color = KEY_RED}));
    CHECK(editor_set(&e, 8, 2, &(EditCell){.thing = EDIT_ENEMY, .kind = ENEMY_CHASER, .hp = 7}));
    CHECK(editor_set(&e, 9, 1,
                     &(EditCell){.tile = TILE_PORTAL,
                                 .target = STR8_LIT("b.lvl"),
                                 .target_entry = STR8_LIT("west")}));
    CHECK(editor_set(&e, 4, 4, &(EditCell){.thing = EDIT_ENTRY, .text = STR8_LIT("east")}));
    CHECK(editor_set_entry(&e, 1, 1, STR8_LIT("home"))); /* shares the start's tile */
    CHECK(editor_set(&e, 2, 4,
                     &(EditCell){.thing = EDIT_SIGN, .text = STR8_LIT("  Red key, red door.  ")}));
    editor_set_name(&e, STR8_LIT("Built"));
    editor_set_exit(&e, STR8_LIT("b.lvl"));
    editor_set_pools(&e, 64, 0);
    CHECK_EQ_U(editor_get(&e, 3, 2).tile, TILE_FLOOR); /* a thing stands on floor */
    CHECK(st_str8_eq(editor_get(&e, 2, 4).text, STR8_LIT("Red key, red door.")));
    CHECK(editor_check(&e));
    if (e.has_problem)
        fprintf(stderr, "%d %d: %s\n", e.problem.tx, e.problem.ty, e.problem.message);
    CHECK(editor_save(&e, false, &msg));
    CHECK(!e.dirty);

    Level lv;
    Error err;
    if (!level_load(&lv, load_arena, a_path, &err)) {
        fprintf(stderr, "%s\n", err.message);
        CHECK(!"built level loads");
        editor_release(&e);
        return;
    }
    CHECK(strcmp(lv.name, "Built") == 0);
    CHECK(lv.exit_to && strcmp(lv.exit_to, b_path) == 0);
    CHECK_EQ_I(lv.bullet_cap, 64);
    CHECK_EQ_I(lv.particle_cap, LEVEL_DEFAULT_PARTICLES);
    CHECK(lv.start_tx == 1 && lv.start_ty == 1);
    CHECK_EQ_I(level_tile(&lv, 10, 5), TILE_EXIT);
    CHECK_EQ_I(level_tile(&lv, 0, 3), TILE_WALL);
    CHECK_EQ_I(level_tile(&lv, 6, 2), TILE_WALL);
    CHECK_EQ_I(lv.pickup_count, 2);
    CHECK(lv.pickups[0].kind == PICKUP_COIN && lv.pickups[0].tx == 2);
    CHECK(lv.pickups[1].kind == PICKUP_KEY && lv.pickups[1].color == KEY_RED &&
          lv.pickups[1].tx == 3);
    CHECK(lv.door_count == 1 && lv.doors[0].color == KEY_RED && lv.doors[0].tx == 6 &&
          lv.doors[0].ty == 3);
    CHECK(lv.enemy_count == 1 && lv.enemies[0].kind == ENEMY_CHASER && lv.enemies[0].hp == 7);
    CHECK(lv.link_count == 1 && strcmp(lv.links[0].target_path, b_path) == 0 && lv.links[0].entry &&
          strcmp(lv.links[0].entry, "west") == 0);
    CHECK(lv.entry_count == 2 && strcmp(lv.entries[0].name, "home") == 0 &&
          strcmp(lv.entries[1].name, "east") == 0);
    CHECK(lv.sign_count == 1 && st_str8_eq(lv.signs[0].text, STR8_LIT("Red key, red door.")));
    CHECK(level_equal(&lv, editor_level(&e)));

    /* It opens again as the same level. */
    Str8 text = text_of(&e);
    editor_release(&e);
    REQUIRE_VOID(editor_load_file(&e, ed_arena, check_arena, a_path, &err));
    CHECK(same_text(text_of(&e), text, "reopened"));
    editor_release(&e);
}

/* ---- Problems and refused saves --------------------------------------------------------------- */

static void expect_problem(Editor *e, int32_t tx, int32_t ty, const char *words) {
    CHECK(!editor_check(e));
    CHECK(e->has_problem && !editor_level(e));
    if (e->problem.tx != tx || e->problem.ty != ty || !strstr(e->problem.message, words)) {
        fprintf(stderr, "expected a problem at %d %d with '%s', found at %d %d: %s\n", tx, ty,
                words, e->problem.tx, e->problem.ty, e->problem.message);
        CHECK(!"problem");
    }
    editor_undo(e);
    CHECK(editor_check(e));
}

static void test_problems(void) {
    Editor e;
    const char *path = tmp_path("problems.lvl");
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, path, 12, 8));
    CHECK(editor_check(&e));
    EditCell start = {.thing = EDIT_START};
    editor_set(&e, 5, 3, &start);
    expect_problem(&e, 5, 3, "one player start");
    editor_set(&e, 4, 2, &(EditCell){.tile = TILE_PORTAL});
    expect_problem(&e, 4, 2, "'link 4 2 FILE' line");
    editor_set(&e, 4, 2, &(EditCell){.tile = TILE_PORTAL, .target = STR8_LIT("next.txt")});
    expect_problem(&e, 4, 2, "ending in .lvl");
    editor_set(&e, 7, 6, &(EditCell){.thing = EDIT_ENEMY, .kind = ENEMY_TURRET, .hp = 10000});
    expect_problem(&e, 7, 6, "hit points");
    editor_set(&e, 3, 5, &(EditCell){.thing = EDIT_SIGN, .text = STR8_LIT("Press # now")});
    expect_problem(&e, 3, 5, "without '#'");
    editor_set(&e, 3, 5, &(EditCell){.thing = EDIT_SIGN});
    expect_problem(&e, 3, 5, "sign's text");
    editor_set_entry(&e, 0, 4, STR8_LIT("door"));
    expect_problem(&e, 0, 4, "walkable tile");
    editor_set_entry(&e, 2, 4, STR8_LIT("bad name"));
    expect_problem(&e, 2, 4, "entry name");
    editor_set_entry(&e, 2, 4, STR8_LIT("twice"));
    editor_set_entry(&e, 6, 4, STR8_LIT("twice"));
    expect_problem(&e, 6, 4, "new entry name");
    editor_undo(&e);
    editor_set_name(&e, STR8_LIT(""));
    expect_problem(&e, -1, -1, "level name");
    editor_set_exit(&e, STR8_LIT("../up.lv"));
    expect_problem(&e, -1, -1, "ending in .lvl");
    editor_set_pools(&e, 70000, 0);
    expect_problem(&e, -1, -1, "bullet pool");

    /* A refused save leaves the file as it was; a forced one writes the level as it is. */
    Error msg;
    CHECK(editor_save(&e, false, &msg));
    Str8 saved = read_all(path);
    REQUIRE_VOID(saved.data);
    editor_set(&e, 9, 6, &start);
    CHECK(!editor_save(&e, false, &msg));
    CHECK(strstr(msg.message, "not saved") && strstr(msg.message, "at 9 6"));
    CHECK(e.dirty);
    Str8 after = read_all(path);
    CHECK(after.data && st_str8_eq(after, saved));
    CHECK(editor_save(&e, true, &msg));
    CHECK(strstr(msg.message, "with a problem") != NULL);
    CHECK(!e.dirty);
    Str8 forced = read_all(path);
    CHECK(forced.data && !st_str8_eq(forced, saved));
    Level lv;
    Error err;
    CHECK(!level_load(&lv, load_arena, path, &err));
    CHECK(err.line > 0 && strstr(err.message, "one player start"));
    CHECK(!editor_load_file(&e, ed_arena, check_arena, path, &err));
    CHECK(!editor_load_file(&e, ed_arena, check_arena, tmp_path("missing.lvl"), &err));
    CHECK(strstr(err.message, "missing.lvl") != NULL);
    editor_release(&e);

    /* A link to a level not written yet: the editor checks, saves and opens it again; the
       game's loader, which looks the target up, does not load it until it exists. */
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, path, 8, 5));
    CHECK(editor_set(&e, 5, 2, &(EditCell){.tile = TILE_PORTAL, .target = STR8_LIT("later.lvl")}));
    CHECK(editor_save(&e, false, &msg));
    CHECK(!level_load(&lv, load_arena, path, &err));
    CHECK(strstr(err.message, "later.lvl") != NULL);
    CHECK(editor_load_file(&e, ed_arena, check_arena, path, &err));
    CHECK(st_str8_eq(editor_get(&e, 5, 2).target, STR8_LIT("later.lvl")));
    editor_release(&e);

    /* A save into a folder that is not there fails and says so. */
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, tmp_path("no/such/dir.lvl"), 5, 5));
    CHECK(!editor_save(&e, false, &msg));
    CHECK(strstr(msg.message, "cannot write") != NULL);
    CHECK(e.dirty);
    editor_release(&e);
}

/* ---- Limits: the level arena, the room beside the level, the file's format ------------------ */

static void test_limits(void) {
    Arena *small = st_arena_create(
        (ArenaParams){.reserve_size = 64 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "small"});
    REQUIRE_VOID(small);
    Editor e;
    Error msg;
    const char *path = tmp_path("big.lvl");
    REQUIRE_VOID(editor_new(&e, ed_arena, small, path, 300, 300));
    CHECK(!editor_check(&e));
    CHECK(e.problem.need > e.problem.cap && e.problem.cap == st_arena_capacity(small));
    char over[80];
    snprintf(over, sizeof over, "needs %llu: %llu bytes too many",
             (unsigned long long)e.problem.need,
             (unsigned long long)(e.problem.need - e.problem.cap));
    CHECK(strstr(e.problem.message, "fits the level arena (65536 bytes") &&
          strstr(e.problem.message, "300x300") && strstr(e.problem.message, over));
    CHECK(!editor_save(&e, false, &msg));
    CHECK(!editor_save(&e, true, &msg)); /* not even forced: nothing could load it */
    CHECK(strstr(msg.message, "not saved") && strstr(msg.message, over));
    CHECK(st_os_file_info(path).kind == OS_FILE_NONE);
    CHECK(e.dirty);
    /* Smaller, it fits, saves and loads. */
    CHECK(editor_resize(&e, 100, 100));
    CHECK(editor_check(&e));
    CHECK(editor_save(&e, false, &msg));
    Level lv;
    Error err;
    CHECK(level_load(&lv, load_arena, path, &err));
    editor_release(&e);

    /* The game's room counts: an arena that holds the level alone, not with the runtime. */
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, path, 60, 40));
    REQUIRE_VOID(editor_check(&e));
    uint64_t alone = e.checked.arena_bytes + 64; /* the level, and a little for alignment */
    editor_release(&e);
    REQUIRE_VOID(sim_runtime_bytes(&(Level){.width = 60,
                                            .height = 40,
                                            .bullet_cap = LEVEL_DEFAULT_BULLETS,
                                            .particle_cap = LEVEL_DEFAULT_PARTICLES}) > 64);
    Arena *tight = st_arena_create(
        (ArenaParams){.reserve_size = alone, .flags = ARENA_FLAG_NO_CHAIN, .name = "tight"});
    REQUIRE_VOID(tight && st_arena_capacity(tight) >= alone);
    REQUIRE_VOID(editor_new(&e, ed_arena, tight, tmp_path("tight.lvl"), 60, 40));
    CHECK(editor_check(&e));
    e.room_bytes = sim_runtime_bytes;
    CHECK(!editor_check(&e));
    CHECK(e.problem.need > st_arena_capacity(tight));
    CHECK(!editor_save(&e, true, &msg));
    CHECK(st_os_file_info(tmp_path("tight.lvl")).kind == OS_FILE_NONE);
    editor_release(&e);
    st_arena_release(tight);
    st_arena_release(small);

    /* A Tiled map's name: .lvl text never goes into it. */
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, tmp_path("map.tmj"), 8, 5));
    CHECK(!editor_save(&e, true, &msg));
    CHECK(strstr(msg.message, "Tiled") != NULL);
    CHECK(st_os_file_info(tmp_path("map.tmj")).kind == OS_FILE_NONE);
    editor_release(&e);
}

/* ---- Edits kept beside the file ------------------------------------------------------------ */

static void set_mtime(const char *path, int64_t s) {
    struct timespec t[2] = {{.tv_sec = s}, {.tv_sec = s}};
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

static bool file_there(const char *path) { return st_os_file_info(path).kind == OS_FILE_REGULAR; }

static void test_unsaved(void) {
    const char *path = tmp_path("u.lvl"), *up = tmp_path("u.lvl.unsaved"),
               *old = tmp_path("u.lvl.unsaved.old");
    Editor e;
    Error err;
    Error msg;
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, path, 10, 6));
    REQUIRE_VOID(editor_save(&e, false, &msg));
    set_mtime(path, 1000000000);
    Str8 file = read_all(path);
    CHECK_EQ_I(editor_unsaved_find(path), EDITOR_UNSAVED_NONE);
    CHECK(editor_set(&e, 3, 2, &wall));
    Str8 text = editor_text(perm, &e);
    CHECK(editor_keep_unsaved(&e, &msg));
    CHECK(strstr(msg.message, up) != NULL);
    CHECK(st_str8_eq(read_all(up), text));
    CHECK(st_str8_eq(read_all(path), file)); /* the file is not touched */
    CHECK_EQ_I(editor_unsaved_find(path), EDITOR_UNSAVED_NEWER);
    editor_release(&e);

    /* Taken back: the edits, to save at the file's path; saving removes the .unsaved. */
    REQUIRE_VOID(editor_load_file(&e, ed_arena, check_arena, path, &err));
    CHECK_EQ_I(editor_get(&e, 3, 2).tile, TILE_FLOOR);
    CHECK(editor_take_unsaved(&e, &err));
    CHECK_EQ_I(editor_get(&e, 3, 2).tile, TILE_WALL);
    CHECK(e.dirty && strcmp(e.path, path) == 0);
    CHECK(st_str8_eq(editor_text(perm, &e), text));
    CHECK(editor_check(&e));
    CHECK(editor_save(&e, false, &msg));
    CHECK(strstr(msg.message, "removed") != NULL);
    CHECK(st_str8_eq(read_all(path), text));
    CHECK(!file_there(up));
    CHECK_EQ_I(editor_unsaved_find(path), EDITOR_UNSAVED_NONE);

    /* Older than the file: left alone. Set aside: moved, not deleted. */
    CHECK(editor_set(&e, 4, 2, &wall));
    CHECK(editor_keep_unsaved(&e, &msg));
    Str8 second = read_all(up);
    set_mtime(up, 1000000000);
    set_mtime(path, 1000000100);
    CHECK_EQ_I(editor_unsaved_find(path), EDITOR_UNSAVED_OLDER);
    CHECK(editor_set_aside_unsaved(path, &msg));
    CHECK(!file_there(up) && st_str8_eq(read_all(old), second));
    CHECK(!editor_set_aside_unsaved(path, &msg)); /* nothing to move: says why */
    CHECK(strstr(msg.message, up) != NULL);
    editor_release(&e);

    /* One that does not load: the loader's message with its place; the level stays. */
    REQUIRE_VOID(st_os_write_file_atomic(up, "name: x\nmap:\n#@@#\nend\n", 22, &msg));
    REQUIRE_VOID(editor_load_file(&e, ed_arena, check_arena, path, &err));
    Str8 before = editor_text(perm, &e);
    CHECK(!editor_take_unsaved(&e, &err));
    CHECK(strncmp(err.message, up, strlen(up)) == 0 && err.line == 3);
    CHECK(st_str8_eq(editor_text(perm, &e), before));
    CHECK(!e.dirty);

    /* Kept again while that one is there, not taken: it goes aside, not overwritten. */
    Str8 broken = read_all(up);
    CHECK(editor_set(&e, 5, 3, &coin));
    CHECK(editor_keep_unsaved(&e, &msg));
    CHECK(strstr(msg.message, old) != NULL);
    CHECK(st_str8_eq(read_all(old), broken));
    CHECK(st_str8_eq(read_all(up), editor_text(perm, &e)));
    editor_release(&e);
}

/* ---- Figures ------------------------------------------------------------------------------------ */

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void figures(const char **levels, int count) {
    /* Bytes per edit record: many one-cell edits without strings, chunks included. */
    Editor e;
    REQUIRE_VOID(editor_new(&e, ed_arena, check_arena, tmp_path("fig.lvl"), 100, 100));
    uint64_t pos = st_arena_pos(ed_arena);
    const int n = 10000;
    for (int i = 0; i < n; i++)
        editor_set(&e, 1 + i % 98, 1 + i / 98 % 98, i / 9604 % 2 ? &coin : &wall);
    printf("edit record: %.1f bytes each (EditCell %zu bytes)\n",
           (double)(st_arena_pos(ed_arena) - pos) / n, sizeof(EditCell));
    editor_release(&e);

    /* The check on the largest shipped level (by tiles). */
    const char *largest = NULL;
    int64_t tiles = -1;
    for (int i = 0; i < count; i++) {
        Level lv;
        Error err;
        if (level_load(&lv, load_arena, levels[i], &err) && (int64_t)lv.width * lv.height > tiles) {
            tiles = (int64_t)lv.width * lv.height;
            largest = levels[i];
        }
    }
    Error err;
    REQUIRE_VOID(largest && editor_load_file(&e, ed_arena, check_arena, largest, &err));
    const int runs = 200;
    double t0 = now_ms();
    for (int i = 0; i < runs; i++) CHECK(editor_check(&e));
    double t1 = now_ms();
    printf("editor_check of %s (%dx%d): %.3f ms\n", largest, e.lv.width, e.lv.height,
           (t1 - t0) / runs);
    editor_release(&e);
}

int main(void) {
    perm = st_arena_create((ArenaParams){.name = "test"});
    ed_arena = st_arena_create((ArenaParams){.name = "editor"});
    check_arena = new_level_arena("check");
    load_arena = new_level_arena("load");
    REQUIRE(perm && ed_arena && check_arena && load_arena);
    REQUIRE(mkdtemp(tmp_dir) != NULL);

    int count;
    const char **levels = list_levels(perm, LEVELS_DIR, &count);
    REQUIRE(levels && count > 0);
    for (int i = 0; i < count; i++)
        test_shipped_level(levels[i], 0x9E3779B97F4A7C15ull + (uint64_t)i * 7919);
    test_redo_tail();
    test_new_sizes();
    test_build_level();
    test_problems();
    test_limits();
    test_unsaved();
    figures(levels, count);

    /* The temporary folder: every file written above, then the folder. */
    OsDirList l;
    if (st_os_list_dir(perm, tmp_dir, &l))
        for (uint64_t i = 0; i < l.count; i++)
            remove(st_str8_fmt(perm, "%s/%.*s", tmp_dir, STR8_FMT(l.entries[i].name)).data);
    remove(tmp_dir);
    st_arena_release(load_arena);
    st_arena_release(check_arena);
    st_arena_release(ed_arena);
    st_arena_release(perm);
    return check_result();
}
