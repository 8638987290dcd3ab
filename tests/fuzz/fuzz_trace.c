/* fuzz_trace.c - libFuzzer target for the arena timeline CSV reader (tools/arenaplot's
   trace_csv.c), which reads what `game --arena-trace` writes and anything a user hands it.

   Beyond "no crash, no leak, no hang", on every input:
     - a failed read reports exactly one error, about the file ("fuzz.csv..."), through the
       diag sink, and nothing else;
     - a successful read reports nothing and is self-consistent: at least one row and one
       arena, frames in order, every arena's four columns inside the header and distinct,
       the fixed columns inside it, and no event longer than the text;
     - a successful read survives a canonical writer: the trace written back as CSV (every
       field quoted, so any event text is kept) reads again to the same trace, field by field.
   A broken promise traps, which libFuzzer reports as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include "trace_csv.h"
#include "fuzz.h"

static Arena *arena, *notes, *again_arena;

/* Appends to `out` (capacity cap), as a quoted CSV field when `quote`. */
static uint64_t put(char *out, uint64_t n, uint64_t cap, Str8 s, bool quote) {
    if (quote && n < cap) out[n++] = '"';
    for (uint64_t i = 0; i < s.len && n + 2 < cap; i++) {
        if (s.data[i] == '"' && quote) out[n++] = '"';
        out[n++] = s.data[i];
    }
    if (quote && n < cap) out[n++] = '"';
    return n;
}

/* The trace as CSV: the header with frame, level, event and the arenas' columns, then one
   row per frame. NULL when it does not fit. */
static Str8 write_back(const Trace *t) {
    uint64_t cap = 4096 + t->row_count * (64 + (uint64_t)t->arena_count * TRACE_VALUES * 24);
    for (int k = 0; k < t->arena_count; k++) cap += 4 * (2 * t->arena_names[k].len + 16);
    for (uint64_t r = 0; r < t->row_count; r++) cap += 2 * t->event[r].len + 3;
    char *out = st_arena_push_raw(arena, cap, 1);
    if (!out) return (Str8){0};
    static const char *const suffix[TRACE_VALUES] = {"_used", "_committed", "_high", "_reserved"};
    uint64_t n = 0;
    if (t->has_recommended)
        n += (uint64_t)snprintf(out + n, cap - n, "# recommended_level_arena_bytes=%llu\n",
                                (unsigned long long)t->recommended);
    n += (uint64_t)snprintf(out + n, cap - n, "frame,level,event");
    for (int k = 0; k < t->arena_count; k++)
        for (int v = 0; v < TRACE_VALUES; v++) {
            char name[96];
            snprintf(name, sizeof name, "%.*s%s", (int)(t->arena_names[k].len < 60 ? t->arena_names[k].len : 60),
                     t->arena_names[k].data, suffix[v]);
            out[n++] = ',';
            n = put(out, n, cap, st_str8_cstr(name), true);
        }
    out[n++] = '\n';
    for (uint64_t r = 0; r < t->row_count; r++) {
        n += (uint64_t)snprintf(out + n, cap - n, "%llu,%llu,", (unsigned long long)t->frame[r],
                                (unsigned long long)t->level[r]);
        n = put(out, n, cap, t->event[r], true);
        for (int k = 0; k < t->arena_count; k++)
            for (int v = 0; v < TRACE_VALUES; v++)
                n += (uint64_t)snprintf(out + n, cap - n, ",%llu", (unsigned long long)trace_value(t, r, k, v));
        out[n++] = '\n';
    }
    return n < cap ? st_str8_make(out, n) : (Str8){0};
}

/* Arena names that the writer cut to 60 bytes, or that hold a byte a header cannot name the
   same way, make the round trip differ by design: only traces without them are compared. */
static bool names_survive(const Trace *t) {
    for (int k = 0; k < t->arena_count; k++)
        if (t->arena_names[k].len > 60) return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!arena) {
        arena = st_arena_create((ArenaParams){.name = "trace"});
        notes = st_arena_create((ArenaParams){.name = "notes"});
        again_arena = st_arena_create((ArenaParams){.name = "again"});
    }
    st_arena_clear(arena);
    st_arena_clear(notes);
    st_arena_clear(again_arena);
    Str8 text = st_str8_make((const char *)data, size);
    DiagCapture cap;
    st_diag_capture_begin(&cap, notes);
    Trace t;
    bool ok = trace_csv_parse(arena, "fuzz.csv", text, &t);
    st_diag_capture_end(&cap);
    if (!ok) {
        PROMISE(cap.count == 1 && cap.of[DIAG_ERROR] == 1);
        /* About the file, unless the arena itself refused (a report of its own). */
        PROMISE(!strncmp(cap.first->d.text, "fuzz.csv", 8) || strstr(cap.first->d.text, "arena '"));
        return 0;
    }
    PROMISE(cap.count == 0);
    PROMISE(t.row_count >= 1 && t.arena_count >= 1);
    PROMISE(t.col_frame >= 0 && t.col_frame < t.column_count);
    PROMISE(t.col_level < t.column_count && t.col_event < t.column_count && t.col_screen < t.column_count);
    for (uint64_t r = 1; r < t.row_count; r++) PROMISE(t.frame[r] >= t.frame[r - 1]);
    for (int k = 0; k < t.arena_count; k++)
        for (int v = 0; v < TRACE_VALUES; v++) {
            int col = t.arena_col[k * TRACE_VALUES + v];
            PROMISE(col >= 0 && col < t.column_count && col != t.col_frame);
            for (int k2 = 0; k2 < t.arena_count; k2++)
                for (int v2 = 0; v2 < TRACE_VALUES; v2++)
                    PROMISE((k2 == k && v2 == v) || t.arena_col[k2 * TRACE_VALUES + v2] != col);
        }
    for (uint64_t r = 0; r < t.row_count; r++) {
        Str8 e = t.event[r];
        /* A slice of the text, or its unquoted copy: never longer than the text. */
        PROMISE(e.len <= text.len && (!e.len || e.data));
    }

    if (!names_survive(&t)) return 0;
    Str8 back = write_back(&t);
    PROMISE(back.data != NULL);
    Trace u;
    st_diag_capture_begin(&cap, notes);
    ok = trace_csv_parse(again_arena, "fuzz-again.csv", back, &u);
    st_diag_capture_end(&cap);
    if (!ok) fprintf(stderr, "the written trace does not read: %s\n", cap.first ? cap.first->d.text : "?");
    PROMISE(ok);
    PROMISE(u.row_count == t.row_count && u.arena_count == t.arena_count);
    PROMISE(u.has_recommended == t.has_recommended && (!t.has_recommended || u.recommended == t.recommended));
    for (int k = 0; k < t.arena_count; k++) PROMISE(st_str8_eq(u.arena_names[k], t.arena_names[k]));
    for (uint64_t r = 0; r < t.row_count; r++) {
        PROMISE(u.frame[r] == t.frame[r] && u.level[r] == t.level[r] && st_str8_eq(u.event[r], t.event[r]));
        for (int k = 0; k < t.arena_count; k++)
            for (int v = 0; v < TRACE_VALUES; v++) PROMISE(trace_value(&u, r, k, v) == trace_value(&t, r, k, v));
    }
    return 0;
}
