/* level_json.c - the JSON of a Tiled map, checked and indexed in place (level_json.h). */
#include "level/level_json.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <strata/core/base.h>
#include <strata/core/utf8.h>

/* ---- The check ------------------------------------------------------------------------- */

typedef struct Scan {
    LevelJson *j;
    Arena *a;
    const char *s;
    uint64_t len, at;
    uint32_t cap;
} Scan;

typedef enum ScanFail { SCAN_OK, SCAN_SYNTAX, SCAN_NUL, SCAN_TRAILING, SCAN_MEMORY } ScanFail;

/* ' ', '\n', '\r' and '\t' as bits 32, 10, 13 and 9: one compare and one shift. */
static inline bool is_blank(char c) { return (uint8_t)c <= ' ' && (0x100002600ull >> (uint8_t)c & 1); }

/* Past the blanks at s[at..len). Most runs are none or one (", "), the rest a line's
   indentation, tens of spaces in a map Tiled wrote, which SSE2 takes 16 at a time. */
static inline uint64_t blanks_end(const char *s, uint64_t at, uint64_t len) {
    if (at >= len || !is_blank(s[at])) return at;
    if (++at >= len || !is_blank(s[at])) return at;
#if defined(__SSE2__)
    for (; at + 16 <= len; at += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + at));
        __m128i b =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
        uint32_t other = ~(uint32_t)_mm_movemask_epi8(b) & 0xFFFF;
        if (other) return at + (uint64_t)__builtin_ctz(other);
    }
#endif
    while (at < len && is_blank(s[at])) at++;
    return at;
}

/* The first '"' or '\\' at or after s[at], or len: a string's body in one search, 16 bytes a
   step with SSE2 (a base64 tile layer is a string of megabytes). */
static inline uint64_t quote_or_escape(const char *s, uint64_t at, uint64_t len) {
#if defined(__SSE2__)
    for (; at + 16 <= len; at += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + at));
        __m128i q = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        uint32_t m = (uint32_t)_mm_movemask_epi8(q);
        if (m) return at + (uint64_t)__builtin_ctz(m);
    }
#endif
    while (at < len && s[at] != '"' && s[at] != '\\') at++;
    return at;
}

static inline void skip_blanks(Scan *sc) { sc->at = blanks_end(sc->s, sc->at, sc->len); }

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

static inline bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* A new span, its end and inner count filled in when it closes. The index grows by doubling
   on the arena: what it leaves behind is less than what it keeps. */
static uint32_t span_open(Scan *sc, bool *ok) {
    LevelJson *j = sc->j;
    if (j->span_count == sc->cap) {
        uint32_t cap = sc->cap ? sc->cap * 2 : 64;
        LevelJsonSpan *grown = st_arena_push_array_raw(sc->a, LevelJsonSpan, cap);
        if (!grown) {
            *ok = false;
            return 0;
        }
        if (j->span_count) memcpy(grown, j->spans, sizeof *grown * j->span_count);
        j->spans = grown;
        sc->cap = cap;
    }
    return j->span_count++;
}

static uint32_t hex4(const char *h) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = h[i];
        v = v << 4 | (uint32_t)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* A string, from its opening quote. */
static ScanFail scan_string(Scan *sc) {
    bool ok = true;
    uint32_t span = span_open(sc, &ok);
    if (!ok) return SCAN_MEMORY;
    const char *s = sc->s;
    uint64_t i = sc->at + 1, len = sc->len;
    uint32_t escapes = 0;
    for (;;) {
        i = quote_or_escape(s, i, len);
        if (i >= len) {
            sc->at = len;
            return SCAN_SYNTAX;
        }
        if (s[i] == '"') break;
        escapes = 1;
        sc->at = i;
        if (i + 1 >= len) return SCAN_SYNTAX;
        char e = s[i + 1];
        if (e == 'u') {
            if (i + 6 > len || !is_hex(s[i + 2]) || !is_hex(s[i + 3]) || !is_hex(s[i + 4]) || !is_hex(s[i + 5]))
                return SCAN_SYNTAX;
            uint32_t u = hex4(s + i + 2);
            if (u == 0) return SCAN_NUL;
            if (u >= 0xDC00 && u <= 0xDFFF) return SCAN_SYNTAX; /* a low surrogate alone */
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (i + 12 > len || s[i + 6] != '\\' || s[i + 7] != 'u' || !is_hex(s[i + 8]) || !is_hex(s[i + 9]) ||
                    !is_hex(s[i + 10]) || !is_hex(s[i + 11]))
                    return SCAN_SYNTAX;
                uint32_t lo = hex4(s + i + 8);
                if (lo < 0xDC00 || lo > 0xDFFF) return SCAN_SYNTAX;
                i += 6;
            }
            i += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
            i += 2;
        } else {
            return SCAN_SYNTAX;
        }
    }
    sc->at = i + 1;
    sc->j->spans[span] = (LevelJsonSpan){(uint32_t)sc->at, escapes};
    return SCAN_OK;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool scan_number(Scan *sc) {
    const char *s = sc->s;
    uint64_t i = sc->at, len = sc->len;
    if (i < len && s[i] == '-') i++;
    if (i >= len || !is_digit(s[i])) return false;
    if (s[i] == '0') i++;
    else
        while (i < len && is_digit(s[i])) i++;
    if (i < len && s[i] == '.') {
        if (++i >= len || !is_digit(s[i])) return false;
        while (i < len && is_digit(s[i])) i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= len || !is_digit(s[i])) return false;
        while (i < len && is_digit(s[i])) i++;
    }
    sc->at = i;
    return true;
}

/* A run of plain numbers in an array ("1, 17, 0, ..."), the bulk of a tile layer, in one
   loop from the digit at sc->at: digits, a comma, a blank or two. It stops before anything
   else (a sign, a fraction, an exponent, a leading zero, twenty digits, the bracket, an
   error), and the general path goes on from there, so that what is accepted and where a
   failure is named are the same. Away from the text's end (32 bytes, more than an element
   of the run reads), no byte needs a bounds check. False when it took nothing. */
static bool scan_digit_run(Scan *sc) {
    const char *s = sc->s;
    uint64_t i = sc->at, len = sc->len, done = i;
    if (len < 32) return false;
    for (uint64_t end = len - 32, from; i < end;) {
        from = i++;
        if (s[from] != '0')
            while (is_digit(s[i]) && i - from < 20) i++;
        char c = s[i];
        if (is_digit(c) || c == '.' || (c | 0x20) == 'e') break;
        done = i;
        if (c != ',') {
            i = blanks_end(s, i, len);
            if (i >= len || s[i] != ',') break;
        }
        c = s[++i];
        if (c == ' ') c = s[++i];
        if (!is_digit(c)) {
            i = blanks_end(s, i, len);
            if (i >= len || !is_digit(s[i])) break;
        }
    }
    bool took = done != sc->at;
    sc->at = done;
    return took;
}

static bool scan_word(Scan *sc, const char *w, uint64_t n) {
    if (sc->len - sc->at < n || memcmp(sc->s + sc->at, w, n) != 0) return false;
    sc->at += n;
    return true;
}

static void span_close(Scan *sc, uint32_t span) {
    sc->j->spans[span] = (LevelJsonSpan){(uint32_t)++sc->at, sc->j->span_count - span - 1};
}

typedef enum ScanState { ST_VALUE, ST_FIRST_VALUE, ST_KEY, ST_FIRST_KEY, ST_AFTER } ScanState;

/* A scalar, or the opening of an array or object (pushed on the stack): the state after it. */
static ScanFail scan_value(Scan *sc, uint32_t *stack, char *kind, uint32_t *depth, ScanState *st) {
    char c = sc->s[sc->at];
    *st = ST_AFTER;
    if (c == '"') return scan_string(sc);
    if (c == '{' || c == '[') {
        if (*depth == LEVEL_JSON_MAX_DEPTH) return SCAN_SYNTAX;
        bool ok = true;
        uint32_t span = span_open(sc, &ok);
        if (!ok) return SCAN_MEMORY;
        kind[*depth] = c;
        stack[(*depth)++] = span;
        sc->at++;
        *st = c == '{' ? ST_FIRST_KEY : ST_FIRST_VALUE;
        return SCAN_OK;
    }
    if (is_digit(c) && *depth && kind[*depth - 1] == '[' && scan_digit_run(sc)) return SCAN_OK;
    if (c == '-' || is_digit(c)) return scan_number(sc) ? SCAN_OK : SCAN_SYNTAX;
    if (scan_word(sc, "true", 4) || scan_word(sc, "false", 5) || scan_word(sc, "null", 4)) return SCAN_OK;
    return SCAN_SYNTAX;
}

/* A key and its colon. */
static ScanFail scan_key(Scan *sc) {
    if (sc->s[sc->at] != '"') return SCAN_SYNTAX;
    ScanFail f = scan_string(sc);
    if (f != SCAN_OK) return f;
    skip_blanks(sc);
    if (sc->at >= sc->len || sc->s[sc->at] != ':') return SCAN_SYNTAX;
    sc->at++;
    return SCAN_OK;
}

/* The whole text: one value, then blanks. Iterative, so that nesting costs no C stack past
   the two arrays of LEVEL_JSON_MAX_DEPTH. On failure sc->at is where the text goes wrong. */
static ScanFail scan_text(Scan *sc) {
    uint32_t stack[LEVEL_JSON_MAX_DEPTH], depth = 0;
    char kind[LEVEL_JSON_MAX_DEPTH];
    ScanState st = ST_VALUE;
    for (;;) {
        skip_blanks(sc);
        if (sc->at >= sc->len) return st == ST_AFTER && !depth ? SCAN_OK : SCAN_SYNTAX;
        char c = sc->s[sc->at];
        ScanFail f = SCAN_OK;
        switch (st) {
        case ST_FIRST_VALUE:
        case ST_FIRST_KEY:
            if (c == (st == ST_FIRST_KEY ? '}' : ']')) {
                span_close(sc, stack[--depth]);
                st = ST_AFTER;
                break;
            }
            if (st == ST_FIRST_VALUE) f = scan_value(sc, stack, kind, &depth, &st);
            else if ((f = scan_key(sc)) == SCAN_OK) st = ST_VALUE;
            break;
        case ST_VALUE: f = scan_value(sc, stack, kind, &depth, &st); break;
        case ST_KEY:
            if ((f = scan_key(sc)) == SCAN_OK) st = ST_VALUE;
            break;
        case ST_AFTER:
            if (!depth) return SCAN_TRAILING;
            if (c == ',') {
                sc->at++;
                st = kind[depth - 1] == '{' ? ST_KEY : ST_VALUE;
            } else if (c == (kind[depth - 1] == '{' ? '}' : ']')) {
                span_close(sc, stack[--depth]);
            } else {
                return SCAN_SYNTAX;
            }
            break;
        }
        if (f != SCAN_OK) return f;
    }
}

/* The line and column of byte `at`, for an error. */
static void text_position(const char *text, uint64_t at, int64_t *line, int64_t *col) {
    *line = 1;
    *col = 1;
    for (uint64_t i = 0; i < at; i++) {
        if (text[i] == '\n') ++*line, *col = 1;
        else ++*col;
    }
}

bool level_json_parse(LevelJson *j, Arena *a, const char *path, const char *text, uint64_t len, Error *err) {
    *j = (LevelJson){.text = text, .len = len};
    if (len >= UINT32_MAX)
        return st_error_set(err, ERROR_TOO_BIG, path, 0, 0, "expected JSON of less than 4 GiB, found %llu bytes",
                            (unsigned long long)len);
    Scan sc = {.j = j, .a = a, .s = text, .len = len};
    ScanFail f = scan_text(&sc);
    if (f == SCAN_OK) return true;
    if (f == SCAN_MEMORY) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, path, 0, 0, "expected scratch memory for the JSON's index, found ");
        return st_arena_error(err);
    }
    int64_t line, col;
    text_position(text, sc.at, &line, &col);
    if (f == SCAN_NUL)
        return st_error_set(err, ERROR_PARSE, path, line, col,
                            "expected text without U+0000 in a string, found '\\u0000'");
    if (f == SCAN_TRAILING)
        return st_error_set(err, ERROR_PARSE, path, line, col, "expected end of file after the map, found '%s'",
                            ST_QUOTE(st_str8_make(text + sc.at, 1)));
    if (sc.at >= len)
        return st_error_set(err, ERROR_PARSE, path, line, col, "expected JSON (a Tiled map), found end of file");
    uint64_t n = len - sc.at < 20 ? len - sc.at : 20;
    return st_error_set(err, ERROR_PARSE, path, line, col, "expected JSON (a Tiled map), found '%s'",
                        ST_QUOTE(st_str8_make(text + sc.at, n)));
}

/* ---- The walk -------------------------------------------------------------------------- */

static const LevelJsonValue NONE = {UINT32_MAX, 0};

static inline uint32_t walk_blanks(const LevelJson *j, uint32_t at) {
    return (uint32_t)blanks_end(j->text, at, j->len);
}

/* Past the value at v (checked: it is well formed), with *span the first span after it. */
static uint32_t walk_skip(const LevelJson *j, uint32_t at, uint32_t *span) {
    char c = j->text[at];
    if (c == '"') return j->spans[(*span)++].end;
    if (c == '{' || c == '[') {
        const LevelJsonSpan *s = &j->spans[*span];
        *span += 1 + s->inner;
        return s->end;
    }
    while (at < j->len && (is_digit(j->text[at]) || (j->text[at] >= 'a' && j->text[at] <= 'z') || j->text[at] == '-' ||
                           j->text[at] == '+' || j->text[at] == '.' || j->text[at] == 'E'))
        at++;
    return at;
}

LevelJsonValue level_json_root(const LevelJson *j) { return (LevelJsonValue){walk_blanks(j, 0), 0}; }

LevelJsonKind level_json_kind(const LevelJson *j, LevelJsonValue v) {
    if (v.at >= j->len) return LEVEL_JSON_NONE;
    switch (j->text[v.at]) {
    case '"': return LEVEL_JSON_STRING;
    case '[': return LEVEL_JSON_ARRAY;
    case '{': return LEVEL_JSON_OBJECT;
    case 't': return LEVEL_JSON_TRUE;
    case 'f': return LEVEL_JSON_FALSE;
    case 'n': return LEVEL_JSON_NULL;
    default: return LEVEL_JSON_NUMBER;
    }
}

LevelJsonIter level_json_iter(const LevelJson *j, LevelJsonValue v) {
    LevelJsonKind k = level_json_kind(j, v);
    if (k != LEVEL_JSON_ARRAY && k != LEVEL_JSON_OBJECT) return (LevelJsonIter){.j = j, .done = true};
    uint32_t at = walk_blanks(j, v.at + 1);
    bool empty = j->text[at] == (k == LEVEL_JSON_OBJECT ? '}' : ']');
    return (LevelJsonIter){.j = j, .at = at, .span = v.span + 1, .object = k == LEVEL_JSON_OBJECT, .done = empty};
}

/* The next member's key (raw, between its quotes) and value, or the next element. */
static bool iter_step(LevelJsonIter *it, Str8 *key, LevelJsonValue *out) {
    if (it->done) return false;
    const LevelJson *j = it->j;
    uint32_t at = it->at;
    if (it->object) {
        uint32_t end = j->spans[it->span].end;
        if (key) *key = (Str8){j->text + at + 1, end - at - 2};
        it->span++;
        at = walk_blanks(j, walk_blanks(j, end) + 1); /* past the colon */
    }
    *out = (LevelJsonValue){at, it->span};
    at = walk_blanks(j, walk_skip(j, at, &it->span));
    if (j->text[at] == ',') at = walk_blanks(j, at + 1);
    else it->done = true;
    it->at = at;
    return true;
}

bool level_json_next(LevelJsonIter *it, LevelJsonValue *out) { return iter_step(it, NULL, out); }

/* A raw key (escapes as written) against a plain one. The first byte tells most keys apart
   before any length is taken. */
static bool key_is(const LevelJson *j, Str8 raw, uint32_t span, const char *want) {
    if (!j->spans[span].inner) {
        if (!raw.len) return !want[0];
        return raw.data[0] == want[0] && raw.len == strlen(want) && memcmp(raw.data, want, raw.len) == 0;
    }
    char buf[128];
    uint64_t n = 0;
    for (uint64_t i = 0; i < raw.len && n < sizeof buf; i++) {
        char c = raw.data[i];
        if (c == '\\') {
            char e = raw.data[++i];
            if (e == 'u') {
                uint32_t u = hex4(raw.data + i + 1);
                i += 4;
                if (u >= 0x80) return false; /* the keys a map is asked for are ASCII */
                c = (char)u;
            } else {
                c = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
            }
        }
        buf[n++] = c;
    }
    return n == strlen(want) && memcmp(buf, want, n) == 0;
}

void level_json_members(const LevelJson *j, LevelJsonValue obj, const char *const *keys, uint32_t n,
                        LevelJsonValue *out) {
    for (uint32_t i = 0; i < n; i++) out[i] = NONE;
    if (level_json_kind(j, obj) != LEVEL_JSON_OBJECT) return;
    LevelJsonIter it = level_json_iter(j, obj);
    Str8 key = {0};
    LevelJsonValue v;
    for (uint32_t key_span = it.span; iter_step(&it, &key, &v); key_span = it.span)
        for (uint32_t i = 0; i < n; i++)
            if (out[i].at == UINT32_MAX && key_is(j, key, key_span, keys[i])) {
                out[i] = v;
                break;
            }
}

/* The array was checked whole: a ']' closes it, so no byte of an element needs a bounds
   check, and no number in it has a leading zero. */
uint32_t level_json_next_uints(LevelJsonIter *it, uint32_t *out, uint32_t n) {
    if (it->object || it->done) return 0;
    const char *s = it->j->text;
    uint32_t k = 0, at = it->at;
    while (k < n && is_digit(s[at])) {
        uint64_t v = (uint64_t)(s[at] - '0');
        uint32_t i = at + 1;
        for (; is_digit(s[i]) && i - at < 11; i++) v = v * 10 + (uint64_t)(s[i] - '0');
        char c = s[i];
        if (v > UINT32_MAX || is_digit(c) || c == '.' || (c | 0x20) == 'e') break;
        out[k++] = (uint32_t)v;
        if (c != ',') i = walk_blanks(it->j, i);
        if (s[i] != ',') {
            it->at = i;
            it->done = true;
            return k;
        }
        at = i + 1;
        if (s[at] == ' ') at++;
        if (is_blank(s[at])) at = walk_blanks(it->j, at);
    }
    it->at = at;
    return k;
}

double level_json_number(const LevelJson *j, LevelJsonValue v) {
    if (level_json_kind(j, v) != LEVEL_JSON_NUMBER) return 0;
    const char *s = j->text + v.at;
    uint64_t room = j->len - v.at, n = 0;
    int64_t whole = 0;
    bool neg = s[0] == '-';
    for (n = neg; n < room && n < 16u + neg && is_digit(s[n]); n++) whole = whole * 10 + (s[n] - '0');
    if (n == room || !(is_digit(s[n]) || s[n] == '.' || s[n] == 'e' || s[n] == 'E'))
        return neg ? -(double)whole : (double)whole; /* up to 16 digits: exact */
    uint32_t span = v.span, end = walk_skip(j, v.at, &span);
    if (end < j->len) return strtod(s, NULL); /* a blank, comma or bracket ends it there */
    char buf[64];                             /* a number that ends the text, which need not be NUL-terminated */
    uint64_t len = MIN(end - v.at, sizeof buf - 1);
    memcpy(buf, s, len);
    buf[len] = 0;
    return strtod(buf, NULL);
}

static uint32_t utf8_put(char *o, uint32_t u) {
    if (u < 0x80) return o[0] = (char)u, 1;
    if (u < 0x800) return o[0] = (char)(0xC0 | u >> 6), o[1] = (char)(0x80 | (u & 63)), 2;
    if (u < 0x10000)
        return o[0] = (char)(0xE0 | u >> 12), o[1] = (char)(0x80 | (u >> 6 & 63)), o[2] = (char)(0x80 | (u & 63)), 3;
    o[0] = (char)(0xF0 | u >> 18), o[1] = (char)(0x80 | (u >> 12 & 63));
    o[2] = (char)(0x80 | (u >> 6 & 63)), o[3] = (char)(0x80 | (u & 63));
    return 4;
}

bool level_json_string(const LevelJson *j, LevelJsonValue v, Arena *a, Str8 *out) {
    *out = (Str8){"", 0};
    if (level_json_kind(j, v) != LEVEL_JSON_STRING) return true;
    const LevelJsonSpan *sp = &j->spans[v.span];
    Str8 raw = {j->text + v.at + 1, sp->end - v.at - 2};
    if (!sp->inner) {
        *out = raw;
        return true;
    }
    char *o = st_arena_push_raw(a, raw.len + 1, 1); /* an escape never decodes longer */
    if (!o) return false;
    uint64_t n = 0;
    for (uint64_t i = 0; i < raw.len; i++) {
        char c = raw.data[i];
        if (c != '\\') {
            o[n++] = c;
            continue;
        }
        char e = raw.data[++i];
        if (e == 'u') {
            uint32_t u = hex4(raw.data + i + 1);
            i += 4;
            if (u >= 0xD800 && u <= 0xDBFF) { /* checked: a low surrogate follows */
                u = 0x10000 + ((u - 0xD800) << 10) + (hex4(raw.data + i + 3) - 0xDC00);
                i += 6;
            }
            n += utf8_put(o + n, u);
            continue;
        }
        o[n++] = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
    }
    o[n] = 0;
    *out = (Str8){o, n};
    return true;
}
