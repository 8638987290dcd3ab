/* trace_csv.c - the arena timeline CSV, read in two passes (see trace_csv.h). */
#include "trace_csv.h"

#include <stdio.h>
#include <string.h>

#include <strata/core/base.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>

static const Str8 value_suffix[TRACE_VALUES] = {STR8_INIT("_used"), STR8_INIT("_committed"), STR8_INIT("_high"),
                                                STR8_INIT("_reserved")};

/* ==== Reading the CSV =================================================================== */

typedef struct Csv {
    const char *path;
    Str8 text;
    uint64_t pos;
    int64_t line; /* of text[pos], from 1 */
} Csv;

/* A field as it may be shown in a message: at most 40 bytes, bytes that are not printable
   ASCII as '?'. */
static const char *shown(Str8 s, char *buf, size_t cap) {
    size_t n = 0;
    for (uint64_t i = 0; i < s.len && n + 4 < cap; i++) {
        if (i == 40) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        unsigned char ch = (unsigned char)s.data[i];
        buf[n++] = ch >= 32 && ch < 127 ? (char)ch : '?';
    }
    buf[n] = '\0';
    return buf;
}

/* A quoted field's text with each "" made one ", in `a`. */
/* An arena refused: its words again, as this reader's own error (the arena reported them
   as it failed, not knowing a trace was being read). */
static bool no_memory(void) {
    Error why;
    st_error_clear(&why);
    st_arena_error(&why);
    st_error_report(&why);
    return false;
}

static Str8 unquote(Arena *a, Str8 s) {
    char *o = st_arena_push_raw(a, s.len + 1, 1);
    if (!o) return (Str8){0};
    uint64_t n = 0;
    for (uint64_t i = 0; i < s.len; i++) {
        o[n++] = s.data[i];
        if (s.data[i] == '"') i++; /* the second of a pair */
    }
    o[n] = '\0';
    return st_str8_make(o, n);
}

/* Reads one record at c->pos: its first `cap` fields into `fields` (quoted ones with
   doubled quotes unescaped into `a`), the number of all of them into *count. False after
   reporting a syntax error. */
static bool csv_record(Csv *c, Arena *a, Str8 *fields, int cap, int *count) {
    const char *t = c->text.data;
    uint64_t len = c->text.len;
    int n = 0;
    for (;;) {
        Str8 f;
        if (c->pos < len && t[c->pos] == '"') {
            int64_t open_line = c->line;
            uint64_t p = c->pos + 1, begin = p;
            bool doubled = false;
            for (;;) {
                if (p >= len) {
                    st_diag_report_at(DIAG_ERROR, c->path, open_line, 0,
                                   "the quoted field that starts on this line never ends (no closing '\"')");
                    return false;
                }
                if (t[p] == '"') {
                    if (p + 1 < len && t[p + 1] == '"') {
                        doubled = true;
                        p += 2;
                        continue;
                    }
                    break;
                }
                if (t[p] == '\n') c->line++;
                p++;
            }
            f = st_str8_make(t + begin, p - begin);
            if (doubled && n < cap) {
                f = unquote(a, f);
                if (!f.data) {
                    return no_memory();
                }
            }
            c->pos = ++p;
            bool end = p >= len || t[p] == ',' || t[p] == '\n' || (t[p] == '\r' && (p + 1 >= len || t[p + 1] == '\n'));
            if (!end) {
                char b[8];
                st_diag_report_at(DIAG_ERROR, c->path, c->line, 0,
                               "expected ',' or the end of the line after a quoted field, found '%s'",
                               shown(st_str8_make(t + p, 1), b, sizeof b));
                return false;
            }
        } else {
            uint64_t p = c->pos;
            while (p < len && t[p] != ',' && t[p] != '\n') {
                if (t[p] == '"') {
                    st_diag_report_at(DIAG_ERROR, c->path, c->line, 0,
                                   "a '\"' inside a field that does not start with one: quote the whole "
                                   "field and double its quotes");
                    return false;
                }
                p++;
            }
            uint64_t e = p;
            if (e > c->pos && t[e - 1] == '\r') e--; /* "\r\n", or "\r" at the end of the file */
            f = st_str8_make(t + c->pos, e - c->pos);
            c->pos = p;
        }
        if (n < cap) fields[n] = f;
        n++;
        if (c->pos < len && t[c->pos] == ',') {
            c->pos++;
            continue;
        }
        if (c->pos < len && t[c->pos] == '\r') c->pos++;
        if (c->pos < len && t[c->pos] == '\n') {
            c->pos++;
            c->line++;
        }
        break;
    }
    *count = n;
    return true;
}

/* Reads the line at c->pos as a comment (it starts with '#'). */
static bool csv_comment(Csv *c, Trace *t) {
    Str8 rest = st_str8_skip(c->text, c->pos), line;
    st_str8_next_line(&rest, &line);
    c->pos = c->text.len - rest.len;
    int64_t at = c->line++;
    Str8 body = st_str8_trim(st_str8_skip(line, 1));
    Str8 key = STR8_LIT("recommended_level_arena_bytes=");
    if (!st_str8_starts_with(body, key)) return true;
    Str8 num = st_str8_trim(st_str8_skip(body, key.len));
    uint64_t v;
    if (!st_str8_parse_u64(num, 10, &v)) {
        char b[64];
        st_diag_report_at(DIAG_ERROR, c->path, at, 0, "recommended_level_arena_bytes: expected a byte count, found '%s'",
                       shown(num, b, sizeof b));
        return false;
    }
    t->has_recommended = true;
    t->recommended = v;
    return true;
}

/* The header's columns into t (arena names are slices of the text). */
static bool read_header(Csv *c, Arena *a, Trace *t, int64_t line, Str8 *f, int n) {
    t->column_count = n;
    t->col_frame = t->col_level = t->col_screen = t->col_event = -1;
    t->arena_count = 0;
    t->arena_names = st_arena_push_array(a, Str8, (uint64_t)n);
    t->arena_col = st_arena_push_array(a, int, (uint64_t)n *TRACE_VALUES);
    if (!t->arena_names || !t->arena_col) {
        return no_memory();
    }
    for (int i = 0; i < n * TRACE_VALUES; i++) t->arena_col[i] = -1;
    struct {
        const char *name;
        int *col;
    } fixed[] = {
        {"frame", &t->col_frame}, {"level", &t->col_level}, {"screen", &t->col_screen}, {"event", &t->col_event}};
    char b[64];
    for (int i = 0; i < n; i++) {
        bool known = false;
        for (size_t k = 0; k < ARRAY_COUNT(fixed); k++) {
            if (!st_str8_eq_cstr(f[i], fixed[k].name)) continue;
            if (*fixed[k].col >= 0) {
                st_diag_report_at(DIAG_ERROR, c->path, line, 0, "column '%s' appears twice", fixed[k].name);
                return false;
            }
            *fixed[k].col = i;
            known = true;
        }
        for (int v = 0; v < TRACE_VALUES && !known; v++) {
            if (f[i].len <= value_suffix[v].len || !st_str8_ends_with(f[i], value_suffix[v])) continue;
            Str8 name = st_str8_prefix(f[i], f[i].len - value_suffix[v].len);
            int k = 0;
            while (k < t->arena_count && !st_str8_eq(t->arena_names[k], name)) k++;
            if (k == t->arena_count) t->arena_names[t->arena_count++] = name;
            if (t->arena_col[k * TRACE_VALUES + v] >= 0) {
                st_diag_report_at(DIAG_ERROR, c->path, line, 0, "column '%s' appears twice", shown(f[i], b, sizeof b));
                return false;
            }
            t->arena_col[k * TRACE_VALUES + v] = i;
            known = true;
        }
    }
    if (t->col_frame < 0) {
        st_diag_report_at(DIAG_ERROR, c->path, line, 0,
                       "expected the header row (frame,level,screen,event,<arena>_used,...), found no 'frame' "
                       "column in a row that starts with '%s'",
                       shown(n ? f[0] : (Str8){0}, b, sizeof b));
        return false;
    }
    if (t->arena_count == 0) {
        st_diag_report_at(DIAG_ERROR, c->path, line, 0,
                       "no arena columns: expected <arena>_used, <arena>_committed, <arena>_high and "
                       "<arena>_reserved for each arena");
        return false;
    }
    for (int k = 0; k < t->arena_count; k++)
        for (int v = 0; v < TRACE_VALUES; v++)
            if (t->arena_col[k * TRACE_VALUES + v] < 0) {
                st_diag_report_at(DIAG_ERROR, c->path, line, 0,
                               "arena '%.*s' has no column '%.*s%.*s' (each arena needs _used, _committed, "
                               "_high and _reserved)",
                               STR8_FMT(t->arena_names[k]), STR8_FMT(t->arena_names[k]), STR8_FMT(value_suffix[v]));
                return false;
            }
    return true;
}

static bool read_number(const Csv *c, int64_t line, Str8 field, Str8 column, uint64_t *out) {
    if (st_str8_parse_u64(field, 10, out)) return true;
    char b[64];
    st_diag_report_at(DIAG_ERROR, c->path, line, 0, "column '%.*s': expected a whole number (0 or more), found '%s'",
                   STR8_FMT(column), shown(field, b, sizeof b));
    return false;
}

/* One pass over the text. Without `store`, it checks everything and counts the rows into
   t->row_count; with it, it fills the arrays the caller sized from that count. */
static bool read_pass(const char *path, Str8 text, Arena *a, Trace *t, bool store) {
    Csv c = {.path = path, .text = text, .line = 1};
    if (st_str8_starts_with(text, STR8_LIT("\xEF\xBB\xBF"))) c.pos = 3;
    Str8 *header = NULL, *fields = NULL;
    uint64_t rows = 0, last_frame = 0;
    while (c.pos < text.len) {
        char ch = text.data[c.pos];
        if (ch == '#') {
            if (!csv_comment(&c, t)) return false;
            continue;
        }
        if (ch == '\n' || (ch == '\r' && c.pos + 1 < text.len && text.data[c.pos + 1] == '\n')) {
            c.pos += ch == '\r' ? 2 : 1;
            c.line++;
            continue;
        }
        int64_t line = c.line;
        int n;
        if (!header) {
            Csv probe = c; /* count the fields, then read them */
            if (!csv_record(&probe, a, NULL, 0, &n)) return false;
            header = st_arena_push_array(a, Str8, (uint64_t)n);
            if (!header) {
                return no_memory();
            }
            if (!csv_record(&c, a, header, n, &n) || !read_header(&c, a, t, line, header, n)) return false;
            fields = st_arena_push_array(a, Str8, (uint64_t)n);
            if (!fields) {
                return no_memory();
            }
            continue;
        }
        uint64_t mark = st_arena_pos(a);
        if (!csv_record(&c, a, fields, t->column_count, &n)) return false;
        if (n != t->column_count) {
            st_diag_report_at(DIAG_ERROR, path, line, 0, "this row has %d field%s, the header has %d", n,
                           n == 1 ? "" : "s", t->column_count);
            return false;
        }
        uint64_t frame, level = 0;
        if (!read_number(&c, line, fields[t->col_frame], STR8_LIT("frame"), &frame)) return false;
        if (t->col_level >= 0 && !read_number(&c, line, fields[t->col_level], STR8_LIT("level"), &level)) return false;
        if (rows > 0 && frame < last_frame) {
            st_diag_report_at(DIAG_ERROR, path, line, 0, "frame %llu comes after frame %llu: rows must be in frame order",
                           (unsigned long long)frame, (unsigned long long)last_frame);
            return false;
        }
        last_frame = frame;
        for (int k = 0; k < t->arena_count; k++)
            for (int v = 0; v < TRACE_VALUES; v++) {
                int col = t->arena_col[k * TRACE_VALUES + v];
                uint64_t x;
                if (!read_number(&c, line, fields[col], header[col], &x)) return false;
                if (store) t->value[(rows * (uint64_t)t->arena_count + (uint64_t)k) * TRACE_VALUES + (uint64_t)v] = x;
            }
        if (store) {
            t->frame[rows] = frame;
            t->level[rows] = level;
            /* A quoted event with doubled quotes was unescaped into `a`: keep it. */
            t->event[rows] = t->col_event >= 0 ? fields[t->col_event] : (Str8){0};
        } else {
            st_arena_pop_to(a, mark); /* counting: unescaped fields are not kept */
        }
        rows++;
    }
    if (!header) {
        st_diag_report_at(DIAG_ERROR, path, c.line, 0,
                       "%s: expected the header row (frame,level,screen,event,<arena>_used,...)",
                       text.len ? "only comments" : "empty file");
        return false;
    }
    if (rows == 0) {
        st_diag_report_at(DIAG_ERROR, path, c.line, 0, "no rows after the header: nothing to plot");
        return false;
    }
    t->row_count = rows;
    return true;
}

bool trace_csv_parse(Arena *a, const char *path, Str8 text, Trace *t) {
    Trace count = {0};
    uint64_t mark = st_arena_pos(a);
    if (!read_pass(path, text, a, &count, false)) return false;
    st_arena_pop_to(a, mark);
    uint64_t rows = count.row_count, values = rows * (uint64_t)count.arena_count * TRACE_VALUES;
    *t = (Trace){0};
    t->frame = st_arena_push_array(a, uint64_t, rows);
    t->level = st_arena_push_array(a, uint64_t, rows);
    t->event = st_arena_push_array(a, Str8, rows);
    t->value = st_arena_push_array(a, uint64_t, values);
    if (!t->frame || !t->level || !t->event || !t->value) {
        return no_memory();
    }
    /* The same text, checked already: this pass only stores. */
    return read_pass(path, text, a, t, true);
}

bool trace_csv_read(Arena *a, const char *path, Trace *t) {
    Str8 text;
    Error why;
    if (!st_os_read_file(a, path, TRACE_CSV_MAX_BYTES, &text, &why)) {
        st_error_report(&why);
        return false;
    }
    return trace_csv_parse(a, path, text, t);
}
