/* fuzz_save.c - libFuzzer target for the progress file (game/rules/save.c, tests/fuzz/save.sh).

   Every input is tried twice: as it is, and with its checksum line made right (whatever
   line comes last is replaced by the checksum of what comes before), so that the lines
   behind the checksum are explored too. Beyond "no crash, no leak, no hang":
     - a load that fails leaves the caller's SaveData byte for byte as it was, reports
       nothing, and its message starts with the file's path and says "warning:";
     - a load that succeeds holds only what the format allows: at most SAVE_MAX_LEVELS
       levels, every name one printable token shorter than SAVE_NAME_MAX, format 1 or 2,
       every setting in its range; its only reports are warnings about the file's setting
       lines (an older game's), each naming the file and a line past the first;
     - a load that succeeds survives the writer: save_format's text loads back to the same
       progress (and settings, when they are in it) and formats to the same bytes.
   A broken promise traps, which libFuzzer reports as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/arena.h>
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include <strata/core/hash.h>
#include "rules/save.h"
#include "fuzz.h"

#define PATH "fuzz/progress"

static Arena *arena, *reports;

static bool valid_name(const char *s) {
    size_t n = strnlen(s, SAVE_NAME_MAX);
    if (n == 0 || n >= SAVE_NAME_MAX) return false;
    for (size_t i = 0; i < n; i++)
        if ((uint8_t)s[i] <= ' ' || s[i] == 127) return false;
    return true;
}

static void check_settings(const SaveSettings *st) {
    PROMISE(st->scale >= 0 && st->scale <= SAVE_SCALE_MAX);
    PROMISE(st->renderer >= SAVE_RENDERER_DEFAULT && st->renderer <= SAVE_RENDERER_SDL);
    for (int i = 0; i < SAVE_VOLUMES; i++) PROMISE(st->volume[i] >= 0 && st->volume[i] <= 100);
    for (int a = 0; a < SAVE_BIND_ACTIONS; a++)
        for (int k = 0; k < SAVE_BIND_SLOTS; k++) PROMISE(st->binds[a][k] < SAVE_KEY_MAX);
}

static bool same_settings(const SaveSettings *a, const SaveSettings *b) {
    return a->scale == b->scale && a->fullscreen == b->fullscreen && a->renderer == b->renderer &&
           memcmp(a->volume, b->volume, sizeof a->volume) == 0 &&
           memcmp(a->binds, b->binds, sizeof a->binds) == 0;
}

static bool same_progress(const SaveData *a, const SaveData *b) {
    if (strcmp(a->furthest, b->furthest) != 0 || a->level_count != b->level_count) return false;
    for (int32_t i = 0; i < a->level_count; i++)
        if (strcmp(a->levels[i].file, b->levels[i].file) != 0 ||
            a->levels[i].best_ticks != b->levels[i].best_ticks ||
            a->levels[i].best_coins != b->levels[i].best_coins)
            return false;
    return true;
}

static void try_text(Str8 text) {
    /* The caller's data: a progress and settings of its own, with every byte known. */
    static SaveData d, before;
    memset(&d, 0xA5, sizeof d);
    snprintf(d.furthest, sizeof d.furthest, "02-keys-and-doors.lvl");
    d.level_count = 1;
    snprintf(d.levels[0].file, sizeof d.levels[0].file, "01-first-steps.lvl");
    d.settings = (SaveSettings){
        .scale = 2, .volume = {80, 60, 90}, .binds = {{26, 82}, {22, 81}, {4, 80}, {7, 79}}};
    d.format = 0;
    d.settings_inside = false;
    before = d;
    Error msg;
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    ErrorCode st = save_parse(&d, PATH, text, &msg);
    st_diag_capture_end(&cap);
    if (st != ERROR_OK) {
        PROMISE(memcmp(&d, &before, sizeof d) == 0);
        PROMISE(cap.count == 0);
        PROMISE(strncmp(msg.message, PATH, strlen(PATH)) == 0 && strstr(msg.message, "warning: ") != NULL);
        st_arena_clear(reports);
        return;
    }
    PROMISE(d.format == 1 || d.format == 2);
    PROMISE(d.level_count >= 0 && d.level_count <= SAVE_MAX_LEVELS);
    PROMISE(d.furthest[0] == '\0' || valid_name(d.furthest));
    for (int32_t i = 0; i < d.level_count; i++)
        PROMISE(valid_name(d.levels[i].file) && d.levels[i].best_coins >= 0);
    check_settings(&d.settings);
    PROMISE(cap.count == cap.of[DIAG_WARNING]);
    PROMISE(cap.count == 0 || d.settings_inside);
    for (DiagCaptured *c = cap.first; c; c = c->next)
        PROMISE(c->d.path_len == strlen(PATH) && memcmp(c->d.path, PATH, c->d.path_len) == 0 &&
                c->d.line >= 2);
    st_arena_clear(reports);

    /* Written and read back: the same progress, the same settings when they are in it. */
    st_arena_clear(arena);
    Str8 out = save_format(arena, &d);
    PROMISE(out.len > 0);
    static SaveData back;
    back = before;
    PROMISE(save_parse(&back, PATH, out, &msg) == ERROR_OK);
    PROMISE(same_progress(&back, &d) && back.format == SAVE_FORMAT &&
            back.settings_inside == d.settings_inside);
    if (d.settings_inside) PROMISE(same_settings(&back.settings, &d.settings));
    else PROMISE(same_settings(&back.settings, &before.settings));
    PROMISE(st_str8_eq(save_format(arena, &back), out));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!arena) {
        arena = st_arena_create((ArenaParams){.name = "fuzz"});
        reports = st_arena_create((ArenaParams){.name = "reports"});
    }
    Str8 text = st_str8_make((const char *)data, size);
    try_text(text);
    /* The same lines under a checksum that matches them: the last line (the checksum's
       place) replaced by the right one. */
    int64_t cut = (int64_t)size - 1;
    while (cut > 0 && data[cut - 1] != '\n') cut--;
    if (cut < 0) cut = 0;
    st_arena_clear(arena);
    char *fixed = st_arena_push_array_raw(arena, char, (uint64_t)cut + 32);
    if (!fixed) return 0;
    memcpy(fixed, data, (size_t)cut);
    int n = snprintf(fixed + cut, 32, "checksum %016llx\n",
                     (unsigned long long)st_hash_fnv1a(HASH_FNV1A_INIT, data, (size_t)cut));
    try_text(st_str8_make(fixed, (uint64_t)cut + (uint64_t)n));
    return 0;
}
