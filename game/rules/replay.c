/* replay.c - recording and playing back runs (see replay.h). */
#include "rules/replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>

bool replay_begin_record(Replay *r, Arena *a, uint64_t seed, const char *level) {
    memset(r, 0, sizeof *r);
    r->seed = seed;
    r->levels = -1;
    size_t n = strlen(level);
    if (n >= sizeof r->level) return false;
    memcpy(r->level, level, n + 1);
    r->runs = st_arena_push_array(a, ReplayRun, REPLAY_MAX_RUNS);
    if (!r->runs) return false;
    r->run_cap = REPLAY_MAX_RUNS;
    return true;
}

void replay_append(Replay *r, uint16_t input) {
    /* Once a tick is lost, nothing after it may be recorded, not even a tick that would
       only lengthen the last run: the file would skip the lost one. */
    if (r->overflowed) return;
    if (r->ticks >= REPLAY_TICKS_MAX) {
        st_diag_report(DIAG_WARNING, "replay: a day of ticks recorded, recording stops here");
        r->overflowed = true;
        return;
    }
    if (r->run_count > 0 && r->runs[r->run_count - 1].input == input && r->runs[r->run_count - 1].count < UINT32_MAX) {
        r->runs[r->run_count - 1].count++;
    } else if (r->run_count < r->run_cap) {
        r->runs[r->run_count++] = (ReplayRun){.count = 1, .input = input};
    } else {
        if (!r->overflowed) st_diag_report(DIAG_WARNING, "replay: buffer full, recording stops here");
        r->overflowed = true;
        return;
    }
    r->ticks++;
}

Str8 replay_format(Arena *a, const Replay *r) {
    /* Worst case per run: "4294967295x1ff " = 15 bytes; plus the header, its paths and the
       progress's lines. */
    const ReplayStart *st = &r->start;
    uint64_t cap = (uint64_t)r->run_count * 16 + sizeof r->level + sizeof st->levels + 1024;
    char *buf = st_arena_push_array_raw(a, char, cap);
    if (!buf) return (Str8){0};
    size_t len = (size_t)snprintf(buf, cap,
                                  "# arena-dungeon replay: the input of every 60 Hz tick as COUNTxHEX runs\n"
                                  "# (bits: 1 up, 2 down, 4 left, 8 right, 16 fire, 32 confirm, 64 pause, 128 restart,"
                                  " 256 rewind)\n"
                                  "replay %d\nseed %" PRIu64 "\nlevel %s\nchosen %s\n",
                                  REPLAY_VERSION, r->seed, r->level, st->level_chosen ? "yes" : "no");
    if (st->furthest[0]) len += (size_t)snprintf(buf + len, cap - len, "furthest %s\n", st->furthest);
    for (int32_t i = 0; i < st->level_count && i < SAVE_MAX_LEVELS; i++)
        len += (size_t)snprintf(buf + len, cap - len, "best %s %u %d\n", st->levels[i].file, st->levels[i].best_ticks,
                                st->levels[i].best_coins);
    len += (size_t)snprintf(buf + len, cap - len, "ticks %u\n", r->ticks);
    if (r->overflowed)
        len += (size_t)snprintf(buf + len, cap - len,
                                "# the recording buffer overflowed: no final levels or hash to check\n");
    if (r->levels >= 0) len += (size_t)snprintf(buf + len, cap - len, "levels %d\n", r->levels);
    if (r->has_hash) len += (size_t)snprintf(buf + len, cap - len, "hash %016" PRIx64 "\n", r->hash);
    len += (size_t)snprintf(buf + len, cap - len, "inputs\n");
    for (uint32_t i = 0; i < r->run_count; i++) {
        len += (size_t)snprintf(buf + len, cap - len, "%ux%02x%s", r->runs[i].count, r->runs[i].input,
                                (i % 12 == 11 || i + 1 == r->run_count) ? "\n" : " ");
    }
    len += (size_t)snprintf(buf + len, cap - len, "end\n");
    return st_str8_make(buf, len);
}

bool replay_save(const Replay *r, const char *path, uint64_t hash, int32_t levels, Error *err) {
    SCRATCH_SCOPE(tmp);
    /* The hash and level count are the game's at the end of the run. When the buffer
       overflowed the run went on past the last recorded tick, so they are not what these
       inputs lead to: leave them out (unknown), or playback would report a mismatch. */
    Replay ended = *r;
    ended.levels = r->overflowed ? -1 : levels;
    ended.hash = r->overflowed ? 0 : hash;
    ended.has_hash = !r->overflowed;
    Str8 text = replay_format(tmp.arena, &ended);
    if (!text.len) return st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "%s: out of scratch memory", path);
    return st_os_write_file_atomic(path, text.data, text.len, err);
}

/* A line without its `# comment` and the blanks around it. */
static Str8 strip_comment(Str8 line) {
    int64_t hash = st_str8_find_byte(line, '#', 0);
    return st_str8_trim(hash < 0 ? line : st_str8_prefix(line, (uint64_t)hash));
}

static bool fail(Error *err, const char *path, int line, const char *why) {
    return st_error_set(err, ERROR_PARSE, path, line, 0, "%s", why);
}

static bool parse(Replay *r, Arena *a, const char *path, Str8 text, Error *err);

bool replay_load(Replay *r, Arena *a, const char *path, Error *err) {
    SCRATCH_SCOPE(tmp, a);
    Str8 text;
    Error why;
    if (!st_os_read_file(tmp.arena, path, REPLAY_FILE_MAX, &text, &why)) {
        if (why.code == ERROR_NOT_FOUND || why.code == ERROR_REFUSED)
            st_error_set(err, why.code, NULL, 0, 0, "%s: cannot open replay: %s", path, strerror(why.err_no));
        else st_error_set(err, why.code, NULL, 0, 0, "%s: cannot read replay: %s", path, st_error_what(&why));
        if (err) err->err_no = why.err_no;
        return false;
    }
    return replay_parse(r, a, path, text, err);
}

/* A level path as the header holds it: one line, no control bytes (it goes to a C string). */
static bool valid_level(Str8 s) {
    if (s.len == 0 || s.len >= REPLAY_PATH_MAX) return false;
    for (uint64_t i = 0; i < s.len; i++)
        if ((uint8_t)s.data[i] < ' ' || s.data[i] == 127) return false;
    return true;
}

bool replay_parse(Replay *out, Arena *a, const char *path, Str8 text, Error *err) {
    /* Into a copy, and the arena back where it was on failure: a load that fails leaves
       the caller's Replay and arena as they were. */
    if (!text.len) return fail(err, path, 0, "an empty file (0 bytes): expected a replay");
    Replay rr = {.levels = -1}, *r = &rr;
    uint64_t mark = st_arena_pos(a);
    bool ok = parse(r, a, path, text, err);
    if (!ok) {
        st_arena_pop_to(a, mark);
        return false;
    }
    *out = rr;
    return true;
}

/* What the first pass over a file learns: the header's fields go straight into the Replay;
   these are what the second pass and the final checks need. */
typedef struct ReplayScan {
    int line_no;
    bool in_inputs, ended, has_level;
    uint32_t runs;     /* words between `inputs` and `end`: the runs to make room for */
    Str8 inputs_start; /* the text after the `inputs` line */
    int inputs_line, ticks_line;
    uint64_t header_ticks;
} ReplayScan;

/* A level's file name as the save keys it: one word, no control bytes. */
static bool valid_name(Str8 s) {
    if (s.len == 0 || s.len >= SAVE_NAME_MAX) return false;
    for (uint64_t i = 0; i < s.len; i++)
        if ((uint8_t)s.data[i] <= ' ' || s.data[i] == 127) return false;
    return true;
}

/* `chosen yes|no`, `furthest FILE` or `best FILE TICKS COINS`: what the run started from. */
static bool parse_start_line(Replay *r, Str8 key, Str8 val, const char *path, int line_no, Error *err) {
    ReplayStart *st = &r->start;
    if (r->version < 3) return fail(err, path, line_no, "a start line in a replay older than version 3");
    if (st_str8_eq_cstr(key, "chosen")) {
        if (!st_str8_eq_cstr(val, "yes") && !st_str8_eq_cstr(val, "no"))
            return fail(err, path, line_no, "bad chosen (want yes or no)");
        st->level_chosen = st_str8_eq_cstr(val, "yes");
        return true;
    }
    if (st_str8_eq_cstr(key, "furthest")) {
        if (!valid_name(val)) return fail(err, path, line_no, "bad furthest (want a level's file name)");
        memcpy(st->furthest, val.data, val.len);
        st->furthest[val.len] = '\0';
        return true;
    }
    Str8 file, ticks, coins;
    uint64_t t, c;
    st_str8_next_token(&val, ' ', &file);
    st_str8_next_token(&val, ' ', &ticks);
    coins = st_str8_trim(val);
    if (!valid_name(file) || !st_str8_parse_u64(ticks, 10, &t) || t > UINT32_MAX || !st_str8_parse_u64(coins, 10, &c) ||
        c > INT32_MAX)
        return fail(err, path, line_no, "bad best (want FILE TICKS COINS)");
    if (st->level_count == SAVE_MAX_LEVELS) return fail(err, path, line_no, "more best lines than a save holds");
    SaveLevel *l = &st->levels[st->level_count++];
    memcpy(l->file, file.data, file.len);
    l->file[file.len] = '\0';
    l->best_ticks = (uint32_t)t;
    l->best_coins = (int32_t)c;
    return true;
}

/* One `key value` line of the header. */
static bool parse_header_line(Replay *r, ReplayScan *sc, Str8 line, Str8 rest, const char *path, Error *err) {
    int line_no = sc->line_no;
    Str8 key, val = line;
    st_str8_next_token(&val, ' ', &key);
    val = st_str8_trim(val);
    uint64_t v = 0;
    if (st_str8_eq_cstr(key, "replay")) {
        if (!st_str8_parse_u64(val, 10, &v) || v < 1 || v > REPLAY_VERSION)
            return fail(err, path, line_no, "unknown replay version");
        r->version = (uint32_t)v;
    } else if (st_str8_eq_cstr(key, "seed")) {
        if (!st_str8_parse_u64(val, 10, &r->seed)) return fail(err, path, line_no, "bad seed");
    } else if (st_str8_eq_cstr(key, "level")) {
        if (!valid_level(val)) return fail(err, path, line_no, "bad level path");
        memcpy(r->level, val.data, val.len);
        r->level[val.len] = '\0';
        sc->has_level = true;
    } else if (st_str8_eq_cstr(key, "chosen") || st_str8_eq_cstr(key, "furthest") || st_str8_eq_cstr(key, "best")) {
        return parse_start_line(r, key, val, path, line_no, err);
    } else if (st_str8_eq_cstr(key, "ticks")) {
        if (!st_str8_parse_u64(val, 10, &sc->header_ticks) || sc->header_ticks > REPLAY_TICKS_MAX) {
            char why[96];
            snprintf(why, sizeof why, "bad ticks (want at most %u: a day at 60 Hz)", REPLAY_TICKS_MAX);
            return fail(err, path, line_no, why);
        }
        sc->ticks_line = line_no;
    } else if (st_str8_eq_cstr(key, "levels")) {
        if (!st_str8_parse_u64(val, 10, &v) || v > INT32_MAX) return fail(err, path, line_no, "bad levels");
        r->levels = (int32_t)v;
    } else if (st_str8_eq_cstr(key, "hash")) {
        if (!st_str8_parse_u64(val, 16, &r->hash)) return fail(err, path, line_no, "bad hash");
        r->has_hash = true;
    } else if (st_str8_eq_cstr(key, "inputs")) {
        sc->in_inputs = true;
        sc->inputs_start = rest;
        sc->inputs_line = line_no;
    } else {
        return fail(err, path, line_no, "unknown line");
    }
    return true;
}

/* The first pass: the header into r, and the runs between `inputs` and `end` counted. */
static bool scan_file(Replay *r, ReplayScan *sc, Str8 text, const char *path, Error *err) {
    Str8 rest = text, line;
    while (!sc->ended && st_str8_next_line(&rest, &line)) {
        sc->line_no++;
        line = strip_comment(line);
        if (line.len == 0) continue;
        if (sc->in_inputs) {
            if (st_str8_eq_cstr(line, "end")) {
                sc->ended = true;
                break;
            }
            Str8 words = line, w;
            while (st_str8_next_token(&words, ' ', &w))
                if (w.len) sc->runs++;
            continue;
        }
        if (!parse_header_line(r, sc, line, rest, path, err)) return false;
    }
    return true;
}

/* The second pass: the `COUNTxHEX` runs from the line after `inputs` (line_no) to `end`,
   into r->runs, which has room for all of them. */
static bool parse_runs(Replay *r, Str8 rest, int line_no, const char *path, Error *err) {
    Str8 line;
    while (st_str8_next_line(&rest, &line)) {
        line_no++;
        line = strip_comment(line);
        if (line.len == 0) continue;
        if (st_str8_eq_cstr(line, "end")) break;
        Str8 words = line, w;
        while (st_str8_next_token(&words, ' ', &w)) {
            if (!w.len) continue;
            int64_t x = st_str8_find_byte(w, 'x', 0);
            uint64_t count, input;
            if (x <= 0 || !st_str8_parse_u64(st_str8_prefix(w, (uint64_t)x), 10, &count) ||
                !st_str8_parse_u64(st_str8_skip(w, (uint64_t)x + 1), 16, &input) || count == 0 || count > UINT32_MAX ||
                input > (r->version > 1 ? REPLAY_INPUT_MAX : REPLAY_INPUT_MAX_V1) ||
                r->ticks + count > REPLAY_TICKS_MAX)
                return fail(err, path, line_no, "bad input run (want COUNTxHEX)");
            r->runs[r->run_count++] = (ReplayRun){.count = (uint32_t)count, .input = (uint16_t)input};
            r->ticks += (uint32_t)count;
        }
    }
    return true;
}

static bool parse(Replay *r, Arena *a, const char *path, Str8 text, Error *err) {
    /* Two passes over the inputs: count the runs, then store them in `a`. */
    ReplayScan sc = {0};
    if (!scan_file(r, &sc, text, path, err)) return false;
    if (!sc.has_level) return fail(err, path, sc.line_no, "no level line");
    if (!sc.ended) return fail(err, path, sc.line_no, "no 'end' after the inputs");
    r->runs = st_arena_push_array(a, ReplayRun, sc.runs ? sc.runs : 1);
    if (!r->runs) return st_error_set(err, ERROR_OUT_OF_MEMORY, path, 0, 0, "out of memory for the inputs");
    r->run_cap = sc.runs;
    if (!parse_runs(r, sc.inputs_start, sc.inputs_line, path, err)) return false;
    /* The header's count is what the recorder wrote: a file whose inputs were cut or added
       to is not the run it claims to be. */
    if (sc.ticks_line && sc.header_ticks != r->ticks) {
        char why[160];
        snprintf(why, sizeof why, "the header says %llu ticks, the inputs hold %u", (unsigned long long)sc.header_ticks,
                 r->ticks);
        return fail(err, path, sc.ticks_line, why);
    }
    return true;
}

bool replay_next(Replay *r, uint16_t *input) {
    while (r->cursor_run < r->run_count && r->cursor_in_run >= r->runs[r->cursor_run].count) {
        r->cursor_run++;
        r->cursor_in_run = 0;
    }
    if (r->cursor_run >= r->run_count) return false;
    *input = r->runs[r->cursor_run].input;
    r->cursor_in_run++;
    return true;
}

bool replay_done(const Replay *r) {
    if (r->cursor_run >= r->run_count) return true;
    return r->cursor_run + 1 == r->run_count && r->cursor_in_run >= r->runs[r->cursor_run].count;
}
