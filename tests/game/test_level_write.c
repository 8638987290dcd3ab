/* test_level_write.c - the canonical writer (level_write) and level_equal: every shipped
   level and valid fixture survives load -> write -> parse -> write with the same text and
   an equal level, and its canonical text loads from disk as the same level; a messy
   hand-written level comes out exactly canonical; exit and link paths come back as they
   were written; level_equal tells apart every field it compares, and the writer keeps each
   of them (a mutated level round-trips as mutated); a generated level with every character
   comes back map for map; a full arena is an empty result, not a crash. Runs from
   tests/game, so fixture paths are "levels/good/...". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "portable.h"
#include "test_levels.h"
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>
#include "level/level.h"
#include "level/level_load.h"
#include "level/level_write.h"

static Arena *new_level_arena(const char *name) {
    return st_arena_create(
        (ArenaParams){.reserve_size = 64ull << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = name});
}

static void print_err(const Error *err) { fprintf(stderr, "  %s\n", err->message); }

/* Shows both texts when a comparison of them fails, so the difference can be read. */

/* load -> write -> parse (same path) -> write: the same text twice and equal levels. The
   first text, in `text_arena`, is returned for the disk round trip. */
static Str8 round_trip(const char *path, Arena *la, Arena *lb, Arena *text_arena, Level *first) {
    Error err;
    if (!level_load(first, la, path, &err)) {
        fprintf(stderr, "%s does not load:\n", path);
        print_err(&err);
        CHECK(!"load");
        return (Str8){0};
    }
    Str8 t1 = level_write(text_arena, first);
    CHECK(t1.data && t1.len && t1.data[t1.len] == 0);
    if (!t1.data) return t1;
    CHECK(strlen(t1.data) == t1.len); /* one NUL, at the end */
    Level second;
    if (!level_parse(&second, lb, path, t1.data, t1.len, NULL, &err, NULL)) {
        fprintf(stderr, "%s: canonical text does not parse:\n", path);
        print_err(&err);
        CHECK(!"parse");
        return (Str8){0};
    }
    Str8 t2 = level_write(text_arena, &second);
    CHECK(same_text(t2, t1, path));
    CHECK(level_equal(first, &second));
    CHECK(level_equal(&second, first));
    /* No comment survives: a '#' is only ever a wall, inside the map. */
    const char *map = strstr(t1.data, "\nmap:\n"), *end = strstr(t1.data, "\nend\n");
    CHECK(map && end && !memchr(t1.data, '#', (size_t)(map - t1.data)) && !strchr(end, '#'));
    return t1;
}

/* Every file of `dir`: the round trip, then the canonical texts written to a temporary
   folder under their own names (so exits and links lead to each other there too) and
   loaded from it with level_load: the same levels. Returns how many files there were. */
static int round_trip_folder(const char *dir, Arena *keep) {
    Arena *la = new_level_arena("level a"), *lb = new_level_arena("level b");
    int n = 0;
    const char **files = list_levels(keep, dir, &n);
    char tmp[] = "/tmp/test_level_write_XXXXXX";
    if (!la || !lb || !files || !mkdtemp(tmp)) {
        CHECK(!"set-up");
        return 0;
    }
    Str8 *texts = st_arena_push_array(keep, Str8, (uint64_t)n + 1);
    const char **copies = st_arena_push_array(keep, const char *, (uint64_t)n + 1);
    for (int i = 0; i < n; i++) {
        Level first;
        texts[i] = round_trip(files[i], la, lb, keep, &first);
        const char *base = strrchr(files[i], '/') + 1;
        copies[i] = st_str8_fmt(keep, "%s/%s", tmp, base).data;
        Error msg;
        if (texts[i].data &&
            !st_os_write_file_atomic(copies[i], texts[i].data, texts[i].len, &msg)) {
            fprintf(stderr, "%s\n", msg.message);
            CHECK(!"write");
        }
    }
    for (int i = 0; i < n; i++) {
        Level orig, back;
        Error err;
        if (!level_load(&orig, la, files[i], &err) || !texts[i].data ||
            !level_load(&back, lb, copies[i], &err)) {
            fprintf(stderr, "%s: canonical copy does not load:\n", files[i]);
            print_err(&err);
            CHECK(!"canonical copy loads");
            continue;
        }
        CHECK(level_equal(&orig, &back)); /* paths: as written, relative to each level's folder */
        CHECK(same_text(level_write(keep, &back), texts[i], copies[i]));
    }
    for (int i = 0; i < n; i++) st_os_remove(copies[i]);
    CHECK(rmdir(tmp) == 0);
    st_arena_release(la);
    st_arena_release(lb);
    return n;
}

/* ---- A hand-written level ---------------------------------------------------------------- */

/* A BOM, CRLF line ends, comments everywhere, odd spacing, a default pool size written out,
   an `enemy` line without hp, entity lines in no order: none of it survives. */
static const char messy[] = "\xEF\xBB\xBF# A hand-written level\r\n"
                            "particles:   1024   # the default, written out\r\n"
                            "   name:   Hand  Made: yes   \r\n"
                            "\r\n"
                            "exit:sub/next.lvl\r\n"
                            "bullets:\t32\r\n"
                            "map:   # the map starts\r\n"
                            "#######\r\n"
                            "#@.p.>#\r\n"
                            "#..c..#\r\n"
                            "#######\r\n"
                            "end\r\n"
                            "sign 2 1    Read me:  twice.   # a comment\r\n"
                            "\r\n"
                            "   entry   e1   1 2\r\n"
                            "link 5 1 ../other.lvl    e9\r\n"
                            "enemy 3 2\r\n"
                            "# the patroller\r\n"
                            "sign 4 2 Second\r\n"
                            "enemy\t3 1 hp=7 \r\n"
                            "entry e0 2 2";

static const char messy_canonical[] = "name: Hand  Made: yes\n"
                                      "exit: sub/next.lvl\n"
                                      "bullets: 32\n"
                                      "\n"
                                      "map:\n"
                                      "#######\n"
                                      "#@.p.>#\n"
                                      "#..c..#\n"
                                      "#######\n"
                                      "end\n"
                                      "\n"
                                      "enemy 3 1 hp=7\n"
                                      "\n"
                                      "link 5 1 ../other.lvl e9\n"
                                      "\n"
                                      "entry e1 1 2\n"
                                      "entry e0 2 2\n"
                                      "\n"
                                      "sign 2 1 Read me:  twice.\n"
                                      "sign 4 2 Second\n";

/* Parses `text` at `path` into `la`; false (and the error) when it does not parse. */
static bool parse(Level *lv, Arena *la, const char *path, const char *text) {
    Error err;
    if (level_parse(lv, la, path, text, strlen(text), NULL, &err, NULL)) return true;
    print_err(&err);
    return false;
}

static void test_messy(Arena *keep) {
    Arena *la = new_level_arena("level a"), *lb = new_level_arena("level b");
    Level lv, back;
    REQUIRE_VOID(parse(&lv, la, "levels/good/messy.lvl", messy));
    Str8 t = level_write(keep, &lv);
    CHECK(same_text(t, STR8_LIT(messy_canonical), "messy"));
    REQUIRE_VOID(parse(&back, lb, "levels/good/messy.lvl", t.data));
    CHECK(level_equal(&lv, &back));
    CHECK(same_text(level_write(keep, &back), t, "messy, again")); /* idempotent */
    /* The same level under another folder: the written paths are what is compared. */
    REQUIRE_VOID(parse(&back, lb, "elsewhere/messy.lvl", t.data));
    CHECK(level_equal(&lv, &back));
    CHECK(strcmp(back.exit_to, "elsewhere/sub/next.lvl") == 0);
    st_arena_release(la);
    st_arena_release(lb);
}

/* ---- Paths as written --------------------------------------------------------------------- */

static void test_paths(Arena *keep) {
    Arena *la = new_level_arena("level a"), *lb = new_level_arena("level b");
    const char *map = "map:\n#####\n#@.>#\n#####\nend\n";
    /* An absolute path inside the level's own absolute folder stays absolute, a relative one
       relative: both resolve to the same file, but they are not the same text. */
    Level abs_lv, rel_lv;
    char text[512];
    snprintf(text, sizeof text, "name: P\nexit: /x/lv/b.lvl\n%slink 3 1 /x/lv/c.lvl\n", map);
    REQUIRE_VOID(parse(&abs_lv, la, "/x/lv/a.lvl", text));
    snprintf(text, sizeof text, "name: P\nexit: b.lvl\n%slink 3 1 c.lvl\n", map);
    REQUIRE_VOID(parse(&rel_lv, lb, "/x/lv/a.lvl", text));
    CHECK(strcmp(abs_lv.exit_to, rel_lv.exit_to) == 0);
    CHECK(strcmp(abs_lv.links[0].target_path, rel_lv.links[0].target_path) == 0);
    Str8 ta = level_write(keep, &abs_lv), tr = level_write(keep, &rel_lv);
    CHECK(strstr(ta.data, "\nexit: /x/lv/b.lvl\n") && strstr(ta.data, "\nlink 3 1 /x/lv/c.lvl\n"));
    CHECK(strstr(tr.data, "\nexit: b.lvl\n") && strstr(tr.data, "\nlink 3 1 c.lvl\n"));
    CHECK(!level_equal(&abs_lv, &rel_lv));
    /* A path given with no folder, a sub-folder, a way up, an entry. */
    snprintf(text, sizeof text, "name: P\nexit: ../up/b.lvl\n%slink 3 1 sub/c.lvl east\n", map);
    REQUIRE_VOID(parse(&rel_lv, lb, "a.lvl", text));
    CHECK(strcmp(rel_lv.exit_to, "../up/b.lvl") == 0);
    tr = level_write(keep, &rel_lv);
    CHECK(strstr(tr.data, "\nexit: ../up/b.lvl\n") &&
          strstr(tr.data, "\nlink 3 1 sub/c.lvl east\n"));
    REQUIRE_VOID(parse(&rel_lv, lb, "deep/er/a.lvl", text));
    CHECK(strcmp(rel_lv.exit_to, "deep/er/../up/b.lvl") == 0);
    tr = level_write(keep, &rel_lv);
    CHECK(strstr(tr.data, "\nexit: ../up/b.lvl\n") &&
          strstr(tr.data, "\nlink 3 1 sub/c.lvl east\n"));

    /* A target changed without its written form (an editor's): the level's folder comes off
       the new target, and a stale written form is not used. */
    Level ed = abs_lv;
    LevelLink link = abs_lv.links[0];
    link.target_path = "/x/lv/sub/d.lvl"; /* target_written still says /x/lv/c.lvl */
    ed.links = &link;
    ed.exit_to = "/x/lv/e.lvl";
    ed.exit_written = NULL;
    Str8 te = level_write(keep, &ed);
    CHECK(strstr(te.data, "\nexit: e.lvl\n") && strstr(te.data, "\nlink 3 1 sub/d.lvl\n"));
    ed.exit_to = "/elsewhere/e.lvl"; /* outside the folder: as it is */
    te = level_write(keep, &ed);
    CHECK(strstr(te.data, "\nexit: /elsewhere/e.lvl\n"));
    Level back;
    REQUIRE_VOID(parse(&back, lb, "/x/lv/a.lvl", te.data));
    CHECK(level_equal(&ed, &back));
    st_arena_release(la);
    st_arena_release(lb);
}

/* ---- Every field counts -------------------------------------------------------------------- */

/* A level whose arrays the test may change: copies of lv's, in `a`. */
static Level mutable_copy(Arena *a, const Level *lv, EnemySpawn **en, Pickup **pk, LevelDoor **dr,
                          LevelLink **lk, LevelEntry **et, LevelSign **sg, uint8_t **tiles) {
    Level c = *lv;
    uint64_t nt = (uint64_t)lv->width * (uint64_t)lv->height;
    *tiles = st_arena_push_array(a, uint8_t, nt);
    memcpy(*tiles, lv->tiles, nt);
    *en = st_arena_push_array(a, EnemySpawn, lv->enemy_count + 1);
    memcpy(*en, lv->enemies, sizeof **en * (size_t)lv->enemy_count);
    *pk = st_arena_push_array(a, Pickup, lv->pickup_count + 1);
    memcpy(*pk, lv->pickups, sizeof **pk * (size_t)lv->pickup_count);
    *dr = st_arena_push_array(a, LevelDoor, lv->door_count + 1);
    memcpy(*dr, lv->doors, sizeof **dr * (size_t)lv->door_count);
    *lk = st_arena_push_array(a, LevelLink, lv->link_count + 1);
    memcpy(*lk, lv->links, sizeof **lk * (size_t)lv->link_count);
    *et = st_arena_push_array(a, LevelEntry, lv->entry_count + 1);
    memcpy(*et, lv->entries, sizeof **et * (size_t)lv->entry_count);
    *sg = st_arena_push_array(a, LevelSign, lv->sign_count + 1);
    memcpy(*sg, lv->signs, sizeof **sg * (size_t)lv->sign_count);
    c.tiles = *tiles;
    c.enemies = *en;
    c.pickups = *pk;
    c.doors = *dr;
    c.links = *lk;
    c.entries = *et;
    c.signs = *sg;
    return c;
}

enum { MUTATION_COUNT = 26 };

/* The first key gets the next colour. */
static void next_key_colour(Pickup *pk, int32_t count) {
    for (int32_t i = 0; i < count; i++)
        if (pk[i].kind == PICKUP_KEY) {
            pk[i].color = (KeyColor)((pk[i].color + 1) % KEY_COLOR_COUNT);
            return;
        }
}

/* Changes field number `m` of c (the fixture a.lvl's copy); every change leaves a valid
   level. Returns what it changed, for the failure message. */
static const char *mutate(int m, Level *c, EnemySpawn *en, Pickup *pk, LevelDoor *dr, LevelLink *lk,
                          LevelEntry *et, LevelSign *sg, uint8_t *tiles) {
    switch (m) {
    case 0: c->name = "Another name"; return "name";
    case 1:
        c->exit_to = NULL;
        c->exit_written = NULL;
        return "exit removed";
    case 2:
        c->exit_to = "levels/good/a.lvl";
        c->exit_written = NULL;
        return "exit target";
    case 3: c->bullet_cap = 65; return "bullets";
    case 4: c->particle_cap = LEVEL_DEFAULT_PARTICLES; return "particles back to the default";
    case 5: c->bullet_cap = LEVEL_DEFAULT_BULLETS; return "bullets back to the default";
    case 6: tiles[1 * c->width + 8] = TILE_WATER; return "a tile";
    case 7: c->start_tx = 3; return "the player start";
    case 8: en[0].hp = 6; return "an enemy's hp";
    case 9: en[2].hp = 0; return "an enemy's hp back to the default";
    case 10: en[1].hp = 1; return "hp given to an enemy without one";
    case 11: en[0].kind = ENEMY_TURRET; return "an enemy's kind";
    case 12: c->enemy_count--; return "the last enemy removed";
    case 13: pk[0].kind = PICKUP_HEART; return "a pickup's kind";
    case 14: next_key_colour(pk, c->pickup_count); return "a key's colour";
    case 15: c->pickup_count--; return "the last pickup removed";
    case 16: dr[0].color = KEY_BLUE; return "a door's colour";
    case 17: lk[0].entry = NULL; return "a link's entry removed";
    case 18: lk[0].entry = "east"; return "a link's entry";
    case 19:
        lk[0].target_path = "levels/good/c.lvl";
        lk[0].target_written = NULL;
        return "a link's target";
    case 20: et[0].name = "gate"; return "an entry's name";
    case 21: et[1].tx = 2; return "an entry's tile";
    case 22: c->entry_count--; return "the last entry removed";
    case 23: sg[0].text = STR8_LIT("Another text"); return "a sign's text";
    case 24: c->sign_count--; return "the last sign removed";
    case 25: {
        LevelSign s = sg[0];
        sg[0] = sg[1];
        sg[1] = s;
    }
        return "the signs' order";
    }
    return NULL;
}

/* level_equal tells each change apart, and the writer keeps it: the mutated level's text
   parses back into the mutated level, not the original. */
static void test_every_field(Arena *keep) {
    Arena *la = new_level_arena("level a"), *lb = new_level_arena("level b");
    Level a;
    Error err;
    REQUIRE_VOID(level_load(&a, la, "levels/good/a.lvl", &err));
    REQUIRE_VOID(a.enemy_count == 3 && a.link_count == 1 && a.entry_count == 2 &&
                 a.sign_count == 2 && a.door_count >= 1 && a.pickup_count >= 2 &&
                 a.enemies[1].hp == 0 && a.enemies[2].hp == 9);
    Str8 orig = level_write(keep, &a);
    CHECK(level_equal(&a, &a));
    for (int m = 0; m < MUTATION_COUNT; m++) {
        EnemySpawn *en;
        Pickup *pk;
        LevelDoor *dr;
        LevelLink *lk;
        LevelEntry *et;
        LevelSign *sg;
        uint8_t *tiles;
        Level c = mutable_copy(keep, &a, &en, &pk, &dr, &lk, &et, &sg, &tiles);
        CHECK(level_equal(&a, &c));
        const char *what = mutate(m, &c, en, pk, dr, lk, et, sg, tiles);
        if (level_equal(&a, &c) || level_equal(&c, &a)) {
            fprintf(stderr, "level_equal misses a change: %s\n", what);
            CHECK(!"level_equal sees the change");
        }
        Str8 t = level_write(keep, &c);
        if (st_str8_eq(t, orig)) {
            fprintf(stderr, "level_write misses a change: %s\n", what);
            CHECK(!"level_write writes the change");
        }
        Level back;
        if (!level_parse(&back, lb, a.path, t.data, t.len, NULL, &err, NULL)) {
            fprintf(stderr, "after '%s' the text does not parse:\n%s", what, t.data);
            print_err(&err);
            CHECK(!"parse");
            continue;
        }
        if (!level_equal(&c, &back)) {
            fprintf(stderr, "after '%s' the text parses into another level:\n%s", what, t.data);
            CHECK(!"the change round-trips");
        }
    }
    /* Two different levels; and sizes. */
    Level b;
    REQUIRE_VOID(level_load(&b, lb, "levels/good/b.lvl", &err));
    CHECK(!level_equal(&a, &b));
    st_arena_release(la);
    st_arena_release(lb);
}

/* ---- A generated level ----------------------------------------------------------------------- */

static uint32_t rng_state = 12345;
static uint32_t rng(uint32_t n) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

/* A 150 x 70 map of every legend character at random (wide rows, so the parser's 64-wide
   vector path runs), every portal linked, some enemies with hp, some signs: its canonical
   text has exactly its rows, and it round-trips. */
static void test_generated(Arena *keep) {
    enum { W = 150, H = 70 };
    static const char chars[] = "...............####~~^^X>$+rgbRGBpct";
    static char rows[H][W + 1];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            rows[y][x] =
                x == 0 || y == 0 || x == W - 1 || y == H - 1 ? '#' : chars[rng(sizeof chars - 1)];
        rows[y][W] = 0;
    }
    rows[H / 2][W / 2] = '@';
    Str8 body = st_str8_fmt(keep, "name: Generated\nbullets: 4096\nparticles: 1\n\nmap:\n");
    for (int y = 0; y < H; y++) body = st_str8_fmt(keep, "%.*s%s\n", STR8_FMT(body), rows[y]);
    body = st_str8_fmt(keep, "%.*send\n", STR8_FMT(body));
    Str8 lines = st_str8_fmt(keep, "%s", "");
    int signs = 0;
    for (int y = H - 1; y >= 0; y--) /* backwards: out of order on purpose */
        for (int x = W - 1; x >= 0; x--) {
            char ch = rows[y][x];
            if (ch == '>')
                lines = st_str8_fmt(keep, "%.*slink %d %d lv%d.lvl%s\n", STR8_FMT(lines), x, y, x % 7,
                                 x % 2 ? " in" : "");
            if ((ch == 'p' || ch == 'c' || ch == 't') && rng(3) == 0)
                lines =
                    st_str8_fmt(keep, "%.*senemy %d %d hp=%u\n", STR8_FMT(lines), x, y, 1 + rng(9999));
            if (ch == '.' && signs < LEVEL_MAX_SIGNS && rng(40) == 0)
                lines = st_str8_fmt(keep, "%.*ssign %d %d Sign number %d.\n", STR8_FMT(lines), x, y,
                                 signs++);
        }
    Str8 text = st_str8_fmt(keep, "%.*s%.*s", STR8_FMT(body), STR8_FMT(lines));
    Arena *la = new_level_arena("level a"), *lb = new_level_arena("level b");
    Level lv, back;
    REQUIRE_VOID(parse(&lv, la, "gen/generated.lvl", text.data));
    CHECK(lv.enemy_count > 100 && lv.link_count > 100 && lv.sign_count > 50);
    Str8 t = level_write(keep, &lv);
    CHECK(st_str8_starts_with(t, body)); /* this header is already canonical, and the map is */
    REQUIRE_VOID(parse(&back, lb, "gen/generated.lvl", t.data));
    CHECK(level_equal(&lv, &back));
    CHECK(same_text(level_write(keep, &back), t, "generated"));
    st_arena_release(la);
    st_arena_release(lb);
}

/* ---- A full arena -------------------------------------------------------------------------- */

static void test_full_arena(void) {
    Arena *la = new_level_arena("level a");
    Level lv;
    Error err;
    REQUIRE_VOID(level_load(&lv, la, "levels/good/a.lvl", &err));
    Arena *small = st_arena_create(
        (ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "small"});
    REQUIRE_VOID(small);
    st_arena_push(small, st_arena_capacity(small) - 16, 1);
    Arena *cap = new_level_arena("capture");
    DiagCapture dc;
    st_diag_capture_begin(&dc, cap);
    Str8 t = level_write(small, &lv);
    st_diag_capture_end(&dc);
    CHECK(t.data == NULL && t.len == 0);
    CHECK(dc.of[DIAG_ERROR] == 1 && dc.first && strstr(dc.first->d.text, "arena 'small' full"));
    st_arena_pop_to(small, 0);
    t = level_write(small, &lv); /* the same arena with room: the text */
    CHECK(t.data && t.len > 100);
    st_arena_release(cap);
    st_arena_release(small);
    st_arena_release(la);
}

int main(void) {
    Arena *keep = st_arena_create((ArenaParams){.name = "test"});
    REQUIRE(keep);
    /* Nothing to round-trip is a failure, not a pass: the folders must hold their levels. */
    int shipped = round_trip_folder(LEVELS_DIR, keep);
    CHECK(shipped >= 7);
    int fixtures = round_trip_folder("levels/good", keep);
    CHECK(fixtures >= 2);
    test_messy(keep);
    test_paths(keep);
    test_every_field(keep);
    test_generated(keep);
    test_full_arena();
    st_arena_release(keep);
    printf("test_level_write: %d shipped levels, %d fixtures\n", shipped, fixtures);
    return check_result();
}
