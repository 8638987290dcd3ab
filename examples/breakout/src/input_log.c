/* input_log.c - the recorded game's file (input_log.h). */
#include "input_log.h"

#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>

#define INPUT_LOG_MAGIC "breakout-input-log 1"

bool input_log_create(Arena *perm, InputLog *out) {
    *out = (InputLog){.cap = INPUT_LOG_MAX_RUNS};
    out->runs = st_arena_push_array(perm, InputRun, out->cap);
    if (!out->runs) st_diag_report(DIAG_ERROR, "breakout: no room in the permanent arena for the input log");
    return out->runs != NULL;
}

void input_log_push(InputLog *log, uint8_t buttons) {
    InputRun *last = log->count ? &log->runs[log->count - 1] : NULL;
    if (last && last->buttons == buttons && last->ticks < UINT32_MAX) {
        last->ticks++;
    } else if (log->count < log->cap) {
        log->runs[log->count++] = (InputRun){1, buttons};
    } else {
        log->full = true;
        return;
    }
    log->ticks++;
}

bool input_log_write(const InputLog *log, const char *path, uint64_t hash, Error *err) {
    SCRATCH_SCOPE(tmp);
    Str8Buf b = st_str8_buf(tmp.arena, 64 + (uint64_t)log->count * 16);
    st_str8_buf_fmt(&b, INPUT_LOG_MAGIC "\nticks %llu\nhash %016llx\n", (unsigned long long)log->ticks,
                    (unsigned long long)hash);
    for (uint32_t i = 0; i < log->count; i++) st_str8_buf_fmt(&b, "%u %u\n", log->runs[i].ticks, log->runs[i].buttons);
    if (b.cut) return st_error_set(err, ERROR_OUT_OF_MEMORY, path, 0, 0, "no scratch memory for the log");
    return st_os_write_file_atomic(path, b.data, b.len, err);
}

/* "name N" with N in `base`: false (reported at the line) otherwise. */
static bool header(const char *path, int64_t line_no, Str8 line, const char *name, uint32_t base, uint64_t *out) {
    Str8 rest = line, word;
    st_str8_next_token(&rest, ' ', &word);
    if (!st_str8_eq_cstr(word, name) || !st_str8_parse_u64(st_str8_trim(rest), base, out)) {
        st_diag_report_at(DIAG_ERROR, path, line_no, 1, "expected '%s %s', found '%.*s'", name,
                          base == 16 ? "HEX" : "N", STR8_FMT(line));
        return false;
    }
    return true;
}

static bool run_line(const char *path, int64_t line_no, Str8 line, InputRun *out) {
    Str8 rest = line, n;
    uint64_t ticks = 0, buttons = 0;
    st_str8_next_token(&rest, ' ', &n);
    if (!st_str8_parse_u64(n, 10, &ticks) || ticks == 0 || ticks > UINT32_MAX) {
        st_diag_report_at(DIAG_ERROR, path, line_no, 1, "expected a tick count (1 or more), found '%.*s'", STR8_FMT(n));
        return false;
    }
    if (!st_str8_parse_u64(st_str8_trim(rest), 10, &buttons) || buttons > 15) {
        st_diag_report_at(DIAG_ERROR, path, line_no, (int64_t)n.len + 2, "expected buttons 0..15, found '%.*s'",
                          STR8_FMT(rest));
        return false;
    }
    *out = (InputRun){(uint32_t)ticks, (uint8_t)buttons};
    return true;
}

static bool parse(Arena *perm, const char *path, Str8 text, InputLog *out) {
    Str8 rest = text, line;
    int64_t no = 1;
    if (!st_str8_next_line(&rest, &line) || !st_str8_eq_cstr(st_str8_trim(line), INPUT_LOG_MAGIC)) {
        st_diag_report_at(DIAG_ERROR, path, 1, 1, "expected '" INPUT_LOG_MAGIC "', found '%.*s'", STR8_FMT(line));
        return false;
    }
    uint64_t ticks = 0, hash = 0, sum = 0;
    if (!st_str8_next_line(&rest, &line) || !header(path, ++no, st_str8_trim(line), "ticks", 10, &ticks)) return false;
    if (!st_str8_next_line(&rest, &line) || !header(path, ++no, st_str8_trim(line), "hash", 16, &hash)) return false;
    if (!input_log_create(perm, out)) return false;
    while (st_str8_next_line(&rest, &line)) {
        no++;
        line = st_str8_trim(line);
        if (!line.len) continue;
        if (out->count == out->cap) {
            st_diag_report_at(DIAG_ERROR, path, no, 1, "expected at most %u runs", out->cap);
            return false;
        }
        if (!run_line(path, no, line, &out->runs[out->count])) return false;
        sum += out->runs[out->count++].ticks;
    }
    if (sum != ticks) {
        st_diag_report_at(DIAG_ERROR, path, no, 1, "expected runs of %llu ticks in all, found %llu",
                          (unsigned long long)ticks, (unsigned long long)sum);
        return false;
    }
    out->ticks = ticks, out->hash = hash;
    return true;
}

bool input_log_read(Arena *perm, const char *path, InputLog *out) {
    SCRATCH_SCOPE(tmp, perm);
    Str8 text;
    Error err;
    if (!st_os_read_file(tmp.arena, path, INPUT_LOG_FILE_MAX, &text, &err)) {
        st_error_report(&err);
        return false;
    }
    uint64_t pos = st_arena_pos(perm);
    if (parse(perm, path, text, out)) return true;
    st_arena_pop_to(perm, pos); /* a refused file leaves nothing behind */
    return false;
}

uint8_t input_log_next(InputLog *log) {
    while (log->run < log->count && log->run_offset >= log->runs[log->run].ticks) log->run++, log->run_offset = 0;
    if (log->run >= log->count) return 0;
    log->run_offset++;
    log->at++;
    return log->runs[log->run].buttons;
}
