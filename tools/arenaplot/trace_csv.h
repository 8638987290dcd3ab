/* trace_csv.h - reads an arena timeline, the CSV `game --arena-trace FILE.csv` writes, into
   arrays in an arena (arenaplot draws it; tests/fuzz/fuzz_trace fuzzes it).

       Trace t;
       if (!trace_csv_read(arena, "run.csv", &t)) return 1;        // said: "run.csv:7: error: ..."
       for (uint64_t r = 0; r < t.row_count; r++) ... t.frame[r], trace_value(&t, r, 0, TRACE_USED) ...

   The CSV (RFC 4180, "\n" or "\r\n" line ends, an optional UTF-8 BOM):
     - lines starting with '#' are comments, anywhere; one of the form
       "# recommended_level_arena_bytes=N" gives the recommended level arena size;
       empty lines are skipped;
     - the first other line is the header; it needs a `frame` column, and may have `level`
       (the level's number in the run, 0 none: where it changes is a level change), `screen`
       (read, not drawn) and `event` (text, "; " between several); every column named <arena>_used,
       <arena>_committed, <arena>_high or <arena>_reserved belongs to the arena <arena>,
       which must have all four; any other column is ignored;
     - every row has as many fields as the header; frame, level and the arena columns are
       whole numbers (0 or more); rows come in frame order (equal frames are allowed);
     - a field holding a comma, a quote or a line break is quoted, its quotes doubled; a
       quote anywhere else is an error.
   Memory: the CSV's text and everything parsed from it live in one arena, read in one piece
   (st_os_read_file); the rows are counted in a first pass over the text, then stored in arrays
   of exactly that size in a second.
   A file that breaks a rule is reported through diag.h as "FILE.csv:LINE: error: ..."
   and the read is false. */
#ifndef TRACE_CSV_H
#define TRACE_CSV_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/str8.h>

#define TRACE_CSV_MAX_BYTES (1ull << 30)

/* The four figures of an arena in a row. */
enum { TRACE_USED, TRACE_COMMITTED, TRACE_HIGH, TRACE_RESERVED, TRACE_VALUES };

typedef struct Trace {
    int column_count;
    int col_frame, col_level, col_screen, col_event; /* -1: absent */
    int arena_count;
    Str8 *arena_names; /* slices of the header */
    int *arena_col;    /* [arena * TRACE_VALUES + value]: the column, -1 until found */
    uint64_t row_count;
    uint64_t *frame, *level;
    Str8 *event;
    uint64_t *value; /* [(row * arena_count + arena) * TRACE_VALUES + value] */
    bool has_recommended;
    uint64_t recommended;
} Trace;

static inline uint64_t trace_value(const Trace *t, uint64_t row, int arena, int v) {
    return t->value[(row * (uint64_t)t->arena_count + (uint64_t)arena) * TRACE_VALUES + (uint64_t)v];
}

/* Reads the file at `path` into *t, its text and arrays in `a`. False when it cannot be
   read or breaks a rule, with the report made. */
bool trace_csv_read(Arena *a, const char *path, Trace *t);
/* The same on text already in memory; `path` names it in the reports. */
bool trace_csv_parse(Arena *a, const char *path, Str8 text, Trace *t);

#endif
