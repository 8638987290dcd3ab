/* fuzz_settings.c - libFuzzer target for the settings file (game/rules/save.c, tests/fuzz/settings.sh).

   Beyond "no crash, no leak, no hang" it checks the promises save.h makes for a file a
   person edits:
     - every setting read is in its range, and every skipped line is one warning that names
       the file and a line of it (the count save_settings_parse returns);
     - lines are independent: reading the file line by line, each alone, gives the same
       settings and the same number of skipped lines, so a bad line never costs another;
       a line whose first word is no key is always skipped, and changes nothing;
     - the writer keeps what it does not know: in save_settings_format's text, line i is
       the file's line i as it was when its key is not a setting (a comment, a blank, an
       unknown key), and that key's line with the value now when it is; it reads back to
       the same settings, and writing it again gives the same bytes.
   A broken promise traps, which libFuzzer reports as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/arena.h>
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include "rules/save.h"
#include "fuzz.h"

#define PATH "fuzz/settings"

/* The keys, as save.h lists them: a line whose first word is one of these is a setting. */
static const char *const KEYS[] = {"volume_master", "volume_music", "volume_effects", "scale",
                                   "fullscreen",    "renderer",     "key_up",         "key_down",
                                   "key_left",      "key_right",    "key_fire",       "key_confirm",
                                   "key_pause",     "key_restart",  "key_rewind"};

static Arena *arena, *reports;

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The line's first word, before any '#'. */
static Str8 first_word(Str8 line) {
    uint64_t i = 0;
    while (i < line.len && blank(line.data[i])) i++;
    uint64_t start = i;
    while (i < line.len && !blank(line.data[i]) && line.data[i] != '#') i++;
    return st_str8_slice(line, start, i);
}

static int known(Str8 word) {
    for (int k = 0; k < (int)(sizeof KEYS / sizeof KEYS[0]); k++)
        if (st_str8_eq_cstr(word, KEYS[k])) return k;
    return -1;
}

static bool same(const SaveSettings *a, const SaveSettings *b) {
    return a->scale == b->scale && a->fullscreen == b->fullscreen && a->renderer == b->renderer &&
           memcmp(a->volume, b->volume, sizeof a->volume) == 0 &&
           memcmp(a->binds, b->binds, sizeof a->binds) == 0;
}

static const SaveSettings BASE = {
    .volume = {80, 60, 90},
    .binds = {{26, 82}, {22, 81}, {4, 80}, {7, 79}, {44, 13}, {40, 88}, {41, 19}, {21, 0}}};

static int32_t parse(SaveSettings *st, Str8 text, uint32_t *warnings, int32_t max_line) {
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    int32_t skipped = save_settings_parse(st, PATH, text);
    st_diag_capture_end(&cap);
    PROMISE(cap.count == cap.of[DIAG_WARNING] && cap.lost == 0);
    for (DiagCaptured *c = cap.first; c; c = c->next)
        PROMISE(c->d.path_len == strlen(PATH) && memcmp(c->d.path, PATH, c->d.path_len) == 0 &&
                c->d.line >= 1 && c->d.line <= max_line);
    *warnings = cap.count;
    st_arena_clear(reports);
    return skipped;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!arena) {
        arena = st_arena_create((ArenaParams){.name = "fuzz"});
        reports = st_arena_create((ArenaParams){.name = "reports"});
    }
    st_arena_clear(arena);
    Str8 text = st_str8_make((const char *)data, size);
    int32_t lines = 0;
    Str8 rest = text, line;
    while (st_str8_next_line(&rest, &line)) lines++;

    SaveSettings st = BASE;
    uint32_t warnings;
    int32_t skipped = parse(&st, text, &warnings, lines);
    PROMISE(skipped >= 0 && (uint32_t)skipped == warnings && skipped <= lines);
    PROMISE(st.scale >= 0 && st.scale <= SAVE_SCALE_MAX);
    PROMISE(st.renderer >= SAVE_RENDERER_DEFAULT && st.renderer <= SAVE_RENDERER_SDL);
    for (int i = 0; i < SAVE_VOLUMES; i++) PROMISE(st.volume[i] >= 0 && st.volume[i] <= 100);
    for (int a = 0; a < SAVE_BIND_ACTIONS; a++) {
        const uint16_t *b = st.binds[a];
        PROMISE(b[0] < SAVE_KEY_MAX && b[1] < SAVE_KEY_MAX);
        if (b[0] != BASE.binds[a][0] || b[1] != BASE.binds[a][1])
            PROMISE((b[0] || !b[1]) && (b[0] != b[1] || !b[0]));
    }

    /* Line by line, each alone: the same. */
    SaveSettings fold = BASE;
    int32_t fold_skipped = 0;
    rest = text;
    while (st_str8_next_line(&rest, &line)) {
        SaveSettings was = fold;
        uint32_t w;
        int32_t s = parse(&fold, line, &w, 1);
        if (s) PROMISE(same(&was, &fold)); /* a skipped line changed nothing */
        Str8 word = first_word(line);
        if (word.len && known(word) < 0) PROMISE(s == 1); /* an unknown key is never taken */
        fold_skipped += s;
    }
    PROMISE(same(&fold, &st) && fold_skipped == skipped);

    /* Written: every line where it was, the unknown ones as they were. */
    Str8 out = save_settings_format(arena, &st, text);
    PROMISE(out.len > 0);
    Str8 in_rest = text, out_rest = out, in_line, out_line;
    while (st_str8_next_line(&in_rest, &in_line)) {
        PROMISE(st_str8_next_line(&out_rest, &out_line));
        int k = known(first_word(in_line));
        if (k < 0) {
            while (in_line.len && in_line.data[in_line.len - 1] == '\r') in_line.len--;
            PROMISE(st_str8_eq(in_line, out_line));
        } else {
            PROMISE(st_str8_starts_with(out_line, st_str8_cstr(KEYS[k])) &&
                    out_line.len > strlen(KEYS[k]) && out_line.data[strlen(KEYS[k])] == ' ');
        }
    }
    SaveSettings back = BASE;
    uint32_t w;
    int32_t out_lines = 0;
    rest = out;
    while (st_str8_next_line(&rest, &line)) out_lines++;
    PROMISE(parse(&back, out, &w, out_lines) <= skipped);
    PROMISE(same(&back, &st));
    PROMISE(st_str8_eq(save_settings_format(arena, &st, out), out));
    return 0;
}
