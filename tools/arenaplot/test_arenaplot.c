/* test_arenaplot - runs the arenaplot binary as a user would and checks what it leaves.

   Good input: the committed run (three levels, an event at each change) at a requested size
   and at the default one, on both scales; a CSV of every corner case the format allows (BOM,
   CRLF, comments between rows, quoted events with commas, quotes and line breaks, an unknown
   column, six arenas with any names); a 10,000-row trace written here. Each must give exit
   status 0 and a PNG whose signature and IHDR are right, that decodes to the size asked
   for, and that is not blank (many colours, much of it not the background).
   Bad input: every file in testdata/bad gives exit status 1 and its exact "file:line:
   error: ..." message, and no PNG; bad usage gives 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <strata/asset/asset.h>
#include "check.h"
#include <strata/core/arena.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>

static Arena *arena;

/* Runs arenaplot with `args` (already quoted for sh); its stderr into *err. The exit status,
   or -1 when it did not exit (a crash). */
static int run(const char *args, Str8 *err) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>'%s/stderr.txt'", ARENAPLOT, args, OUT_DIR);
    int st = system(cmd);
    char path[1024];
    snprintf(path, sizeof path, "%s/stderr.txt", OUT_DIR);
    if (!st_os_read_file(arena, path, 1 << 20, err, NULL)) *err = (Str8){0};
    if (st == -1 || !WIFEXITED(st)) return -1;
    int rc = WEXITSTATUS(st);
    /* A sanitizer's report exits 1 too: never take it for the expected failure. */
    for (uint64_t i = 0; i + 14 <= err->len; i++)
        if (!memcmp(err->data + i, "Sanitizer", 9) || !memcmp(err->data + i, "runtime error:", 14)) return -1;
    return rc >= 128 ? -1 : rc; /* sh's 128 + signal */
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The PNG at `path` is w x h by its header and by decoding, and has a picture in it. */
static void check_png(const char *path, int w, int h) {
    ArenaTemp tmp = st_arena_temp_begin(arena);
    Str8 png;
    bool read = st_os_read_file(arena, path, 1u << 30, &png, NULL);
    CHECK(read);
    if (!read) {
        fprintf(stderr, "  %s: not written\n", path);
        st_arena_temp_end(tmp);
        return;
    }
    const uint8_t *b = (const uint8_t *)png.data;
    CHECK(png.len > 33 && !memcmp(b, "\x89PNG\r\n\x1a\n", 8));
    CHECK(png.len > 33 && be32(b + 8) == 13 && !memcmp(b + 12, "IHDR", 4));
    if (png.len > 33) {
        CHECK_EQ_U(be32(b + 16), (uint32_t)w);
        CHECK_EQ_U(be32(b + 20), (uint32_t)h);
    }
    Error err;
    uint8_t *px;
    int dw = 0, dh = 0;
    CHECK(st_asset_load_rgba(arena, path, &px, &dw, &dh, &err));
    if (dw == w && dh == h) {
        /* Distinct colours (an open-addressed set), and pixels that are not the background. */
        enum { SET = 1 << 16 };
        uint32_t *set = st_arena_push_array(arena, uint32_t, SET);
        uint32_t colours = 0, bg;
        memcpy(&bg, px, 4);
        uint64_t painted = 0;
        for (int i = 0; i < w * h && set; i++) {
            uint32_t c;
            memcpy(&c, px + (size_t)i * 4, 4);
            painted += c != bg;
            uint32_t k = (c | 1u) * 2654435761u >> 16; /* 0 marks an empty slot */
            /* At most SET probes: a set that was not zeroed as promised must fail the
               count below, not spin here for ever. */
            uint32_t probes = 0;
            for (; set[k] && set[k] != (c | 1u) && probes < SET; probes++) k = (k + 1) & (SET - 1);
            if (probes == SET) {
                fprintf(stderr, "  %s: the colour set is full of junk (was the push zeroed?)\n", path);
                CHECK(false);
                break;
            }
            if (!set[k] && colours < SET / 2) set[k] = c | 1u, colours++;
        }
        if (colours < 24 || painted < (uint64_t)w * h / 4)
            fprintf(stderr, "  %s: %u colours, %llu of %d pixels painted\n", path, colours, (unsigned long long)painted,
                    w * h);
        CHECK(colours >= 24);
        CHECK(painted >= (uint64_t)w * h / 4);
    } else {
        fprintf(stderr, "  %s: decoded %dx%d, expected %dx%d\n", path, dw, dh, w, h);
        CHECK(false);
    }
    st_arena_temp_end(tmp);
}

static bool contains(Str8 s, const char *needle) {
    uint64_t n = strlen(needle);
    for (uint64_t i = 0; i + n <= s.len; i++)
        if (!memcmp(s.data + i, needle, n)) return true;
    return false;
}

/* A long run: 10,000 frames, four arenas, a level every 2,000 frames, an event every 250. */
static bool write_big(const char *path) {
    ArenaTemp tmp = st_arena_temp_begin(arena);
    uint64_t cap = 4u << 20, n = 0;
    char *buf = st_arena_push_raw(arena, cap, 1);
    if (!buf) return false;
    n += (uint64_t)snprintf(buf + n, cap - n,
                            "# recommended_level_arena_bytes=65536\nframe,level,screen,event,permanent_used,"
                            "permanent_committed,permanent_high,permanent_reserved,level_used,level_committed,"
                            "level_high,level_reserved,frame_used,frame_committed,frame_high,frame_reserved,"
                            "scratch_used,scratch_committed,scratch_high,scratch_reserved\n");
    for (int f = 0; f < 10000; f++) {
        int lv = 1 + f / 2000;
        char ev[96] = "";
        if (f % 2000 == 0) snprintf(ev, sizeof ev, "\"level levels/0%d.lvl\"", lv);
        else if (f % 250 == 0) snprintf(ev, sizeof ev, "\"checkpoint %d, \"\"quoted\"\"\"", f);
        n += (uint64_t)snprintf(buf + n, cap - n,
                                "%d,%d,playing,%s,38251,65536,38251,67108864,%d,65536,%d,4194304,%d,65536,%d,"
                                "67108864,0,262144,%d,67108864\n",
                                f, lv, ev, 30000 + lv * 1000, 30000 + lv * 1000, 20000 + f % 97 * 100,
                                26000 + f % 89 * 100, f % 2000 == 0 ? 9000 : 0);
    }
    Error msg;
    bool ok = n < cap && st_os_write_file_atomic(path, buf, n, &msg);
    st_arena_temp_end(tmp);
    return ok;
}

/* Two frames of `count` arenas named a0, a1, ... */
static bool write_wide(const char *path, int count) {
    ArenaTemp tmp = st_arena_temp_begin(arena);
    uint64_t cap = 64u << 20, n = 0;
    char *buf = st_arena_push_raw(arena, cap, 1);
    if (!buf) return false;
    n += (uint64_t)snprintf(buf + n, cap - n, "frame,level,screen,event");
    for (int i = 0; i < count; i++)
        n += (uint64_t)snprintf(buf + n, cap - n, ",a%d_used,a%d_committed,a%d_high,a%d_reserved", i, i, i, i);
    for (int f = 0; f < 2; f++) {
        n += (uint64_t)snprintf(buf + n, cap - n, "\n%d,0,playing,", f);
        for (int i = 0; i < count; i++)
            n += (uint64_t)snprintf(buf + n, cap - n, ",%d,4096,%d,65536", 100 + f, 200 + i);
    }
    n += (uint64_t)snprintf(buf + n, cap - n, "\n");
    Error msg;
    bool ok = n < cap && st_os_write_file_atomic(path, buf, n, &msg);
    st_arena_temp_end(tmp);
    return ok;
}

typedef struct Bad {
    const char *file, *message;
} Bad;

static const Bad bad[] = {
    {"empty.csv", "empty.csv:1: error: empty file: expected the header row"},
    {"comments_only.csv", "comments_only.csv:3: error: only comments: expected the header row"},
    {"header_only.csv", "header_only.csv:2: error: no rows after the header: nothing to plot"},
    {"no_header.csv", "no_header.csv:1: error: expected the header row (frame,level,screen,event,<arena>_used,...), "
                      "found no 'frame' column in a row that starts with '0'"},
    {"no_frame.csv", "no_frame.csv:1: error: expected the header row"},
    {"no_arenas.csv", "no_arenas.csv:1: error: no arena columns"},
    {"missing_column.csv", "missing_column.csv:1: error: arena 'level' has no column 'level_high'"},
    {"duplicate_column.csv", "duplicate_column.csv:1: error: column 'perm_used' appears twice"},
    {"ragged.csv", "ragged.csv:4: error: this row has 11 fields, the header has 12"},
    {"not_a_number.csv", "not_a_number.csv:3: error: column 'level_used': expected a whole number "
                         "(0 or more), found '12k'"},
    {"negative.csv", "negative.csv:3: error: column 'level_used': expected a whole number (0 or more), found '-5'"},
    {"bad_frame.csv", "bad_frame.csv:3: error: column 'frame': expected a whole number (0 or more), found 'x'"},
    {"frame_order.csv", "frame_order.csv:4: error: frame 4 comes after frame 5: rows must be in frame order"},
    {"unterminated.csv", "unterminated.csv:3: error: the quoted field that starts on this line never ends"},
    {"stray_quote.csv", "stray_quote.csv:3: error: a '\"' inside a field that does not start with one"},
    {"after_quote.csv", "after_quote.csv:3: error: expected ',' or the end of the line after a "
                        "quoted field, found 's'"},
    {"bad_recommended.csv", "bad_recommended.csv:1: error: recommended_level_arena_bytes: expected "
                            "a byte count, found 'lots'"},
};

int main(void) {
    arena = st_arena_create((ArenaParams){.reserve_size = 1ull << 32, .name = "test_arenaplot"});
    REQUIRE(arena);
    REQUIRE(st_os_make_dirs(OUT_DIR));
    char args[4096], png[1024];
    Str8 err;

    /* The committed run, at a requested size, both scales; then at the default size. */
    snprintf(png, sizeof png, "%s/run.png", OUT_DIR);
    st_os_remove(png);
    snprintf(args, sizeof args, "'%s/run.csv' '%s' --width 900 --height 600", TESTDATA, png);
    CHECK_EQ_I(run(args, &err), 0);
    check_png(png, 900, 600);
    snprintf(png, sizeof png, "%s/run-log.png", OUT_DIR);
    snprintf(args, sizeof args, "--log '%s/run.csv' --height 480 '%s' --width 640", TESTDATA, png);
    CHECK_EQ_I(run(args, &err), 0);
    check_png(png, 640, 480);
    /* Default: 1280 wide; four lanes of 13 + 150 pixels, 10 between, the bands above and
       below (56 + 40 with marks, 44). */
    snprintf(png, sizeof png, "%s/run-default.png", OUT_DIR);
    snprintf(args, sizeof args, "'%s/run.csv' '%s'", TESTDATA, png);
    CHECK_EQ_I(run(args, &err), 0);
    check_png(png, 1280, 96 + 4 * 163 + 3 * 10 + 44);

    /* Every corner case of the format at once. */
    snprintf(png, sizeof png, "%s/odd.png", OUT_DIR);
    snprintf(args, sizeof args, "'%s/odd.csv' '%s' --width 800 --height 900", TESTDATA, png);
    CHECK_EQ_I(run(args, &err), 0);
    if (err.len) fprintf(stderr, "  odd.csv: %.*s\n", STR8_FMT(err));
    check_png(png, 800, 900);

    /* A long run. */
    char big[1024];
    snprintf(big, sizeof big, "%s/big.csv", OUT_DIR);
    REQUIRE(write_big(big));
    snprintf(png, sizeof png, "%s/big.png", OUT_DIR);
    snprintf(args, sizeof args, "'%s' '%s' --width 1600 --height 900 --log", big, png);
    CHECK_EQ_I(run(args, &err), 0);
    check_png(png, 1600, 900);

    /* Bad CSVs: exit status 1, the message, no PNG left behind. */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(png, sizeof png, "%s/bad.png", OUT_DIR);
        st_os_remove(png);
        snprintf(args, sizeof args, "'%s/bad/%s' '%s'", TESTDATA, bad[i].file, png);
        int rc = run(args, &err);
        bool said = contains(err, bad[i].message);
        if (rc != 1 || !said)
            fprintf(stderr, "  %s: exit %d, said: %.*s  expected: %s\n", bad[i].file, rc, STR8_FMT(err),
                    bad[i].message);
        CHECK_EQ_I(rc, 1);
        CHECK(said);
        CHECK(st_os_file_info(png).kind == OS_FILE_NONE);
    }
    snprintf(args, sizeof args, "'%s/no such file.csv' '%s/x.png'", TESTDATA, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 1);
    CHECK(contains(err, "no such file.csv: error: cannot open: No such file or directory"));
    snprintf(args, sizeof args, "'%s/run.csv' '%s/no such folder/x.png'", TESTDATA, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 1);
    CHECK(contains(err, "x.png: cannot write: the folder "));
    CHECK(contains(err, "no such folder does not exist"));
    snprintf(args, sizeof args, "'%s/run.csv' '%s/small.png' --height 250", TESTDATA, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 1);
    CHECK(contains(err, "4 arenas need a height of"));
    /* Too many arenas for any height: said as such, with how many would fit, which do. */
    char wide[1024];
    snprintf(wide, sizeof wide, "%s/wide.csv", OUT_DIR);
    REQUIRE(write_wide(wide, 5000));
    snprintf(args, sizeof args, "'%s' '%s/wide.png'", wide, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 1);
    CHECK(contains(err, "arenaplot: 5000 arenas do not fit in one plot: they need a height of at least "));
    CHECK(contains(err, "and a plot is at most 8192 (152 arenas at most)"));
    REQUIRE(write_wide(wide, 153));
    CHECK_EQ_I(run(args, &err), 1);
    CHECK(contains(err, "153 arenas do not fit in one plot"));
    REQUIRE(write_wide(wide, 152));
    snprintf(args, sizeof args, "'%s' '%s/wide.png' --width 400", wide, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 0);

    /* Usage: exit status 2. */
    CHECK_EQ_I(run("", &err), 2);
    CHECK(contains(err, "usage: arenaplot FILE.csv OUT.png"));
    snprintf(args, sizeof args, "'%s/run.csv' '%s/x.png' --width 12", TESTDATA, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 2);
    snprintf(args, sizeof args, "'%s/run.csv' '%s/x.png' --colour red", TESTDATA, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 2);
    snprintf(args, sizeof args, "'%s/run.csv' '%s/x.png' third", TESTDATA, OUT_DIR);
    CHECK_EQ_I(run(args, &err), 2);
    CHECK_EQ_I(run("--help", &err), 0);

    st_arena_release(arena);
    return check_result();
}
