/* str8.c - Str8 operations, and the engine's one copy of stb_sprintf, private to this file
   (a program may have its own): the rest of the engine formats through st_str8_fmt and
   st_str8_vsnprintf. */
#include <strata/core/str8.h>

#include <string.h>

#include <strata/core/base.h>

/* UBSan checks alignment: keep stb_sprintf's output writes aligned. */
#define STB_SPRINTF_NOUNALIGNED
#define STB_SPRINTF_STATIC
#define STB_SPRINTF_IMPLEMENTATION
/* Third-party code: its warnings are not ours to fix, whichever way the include path is
   set up. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <stb_sprintf.h>
#pragma GCC diagnostic pop

Str8 st_str8_make(const char *data, uint64_t len) {
    if (!data) len = 0;
    return (Str8){data, len};
}

Str8 st_str8_cstr(const char *s) { return s ? (Str8){s, strlen(s)} : (Str8){0}; }

Str8 st_str8_slice(Str8 s, uint64_t start, uint64_t end) {
    if (end > s.len) end = s.len;
    if (start > end) start = end;
    /* NULL + 0 is undefined behaviour in C, and UBSan says so. */
    return s.data ? (Str8){s.data + start, end - start} : (Str8){0};
}

Str8 st_str8_prefix(Str8 s, uint64_t n) { return st_str8_slice(s, 0, n); }
Str8 st_str8_skip(Str8 s, uint64_t n) { return st_str8_slice(s, n, s.len); }

bool st_str8_eq(Str8 a, Str8 b) {
    if (a.len != b.len) return false;
    return a.len == 0 || memcmp(a.data, b.data, a.len) == 0;
}

bool st_str8_eq_cstr(Str8 a, const char *b) { return st_str8_eq(a, st_str8_cstr(b)); }

bool st_str8_starts_with(Str8 s, Str8 prefix) {
    return prefix.len <= s.len && st_str8_eq(st_str8_prefix(s, prefix.len), prefix);
}

bool st_str8_ends_with(Str8 s, Str8 suffix) {
    return suffix.len <= s.len && st_str8_eq(st_str8_skip(s, s.len - suffix.len), suffix);
}

int64_t st_str8_find_byte(Str8 s, char c, uint64_t from) {
    if (from >= s.len) return -1;
    const char *hit = memchr(s.data + from, c, s.len - from);
    return hit ? (int64_t)(hit - s.data) : -1;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

Str8 st_str8_trim_left(Str8 s) {
    uint64_t i = 0;
    while (i < s.len && is_space(s.data[i])) i++;
    return st_str8_skip(s, i);
}

Str8 st_str8_trim_right(Str8 s) {
    uint64_t n = s.len;
    while (n > 0 && is_space(s.data[n - 1])) n--;
    return st_str8_prefix(s, n);
}

Str8 st_str8_trim(Str8 s) { return st_str8_trim_right(st_str8_trim_left(s)); }

bool st_str8_next_token(Str8 *rest, char sep, Str8 *head) {
    if (rest->len == 0) {
        *head = (Str8){0};
        return false;
    }
    int64_t at = st_str8_find_byte(*rest, sep, 0);
    if (at < 0) {
        *head = *rest;
        *rest = st_str8_skip(*rest, rest->len);
    } else {
        *head = st_str8_prefix(*rest, (uint64_t)at);
        *rest = st_str8_skip(*rest, (uint64_t)at + 1);
    }
    return true;
}

bool st_str8_next_line(Str8 *rest, Str8 *line) {
    if (!st_str8_next_token(rest, '\n', line)) return false;
    if (line->len > 0 && line->data[line->len - 1] == '\r') line->len--;
    return true;
}

bool st_str8_parse_i64(Str8 s, int64_t *out) {
    uint64_t i = 0;
    bool neg = false;
    if (s.len > 0 && (s.data[0] == '+' || s.data[0] == '-')) {
        neg = s.data[0] == '-';
        i = 1;
    }
    if (i == s.len) return false; /* empty, or a sign alone */
    /* Accumulate the magnitude unsigned: |INT64_MIN| = INT64_MAX + 1 only fits there. */
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t v = 0;
    for (; i < s.len; i++) {
        char c = s.data[i];
        if (c < '0' || c > '9') return false;
        uint64_t d = (uint64_t)(c - '0');
        if (v > (limit - d) / 10) return false;
        v = v * 10 + d;
    }
    /* -(v - 1) - 1 reaches INT64_MIN without overflowing int64_t. */
    *out = neg ? (v == 0 ? 0 : -(int64_t)(v - 1) - 1) : (int64_t)v;
    return true;
}

bool st_str8_parse_u64(Str8 s, uint32_t base, uint64_t *out) {
    if (s.len == 0 || (base != 10 && base != 16)) return false;
    uint64_t v = 0;
    for (uint64_t i = 0; i < s.len; i++) {
        char c = s.data[i];
        uint64_t d;
        if (c >= '0' && c <= '9') d = (uint64_t)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f') d = (uint64_t)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F') d = (uint64_t)(c - 'A' + 10);
        else return false;
        if (v > (UINT64_MAX - d) / base) return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

bool st_str8_parse_size(Str8 s, uint64_t *out) {
    uint64_t shift = 0;
    if (s.len > 0) {
        switch (s.data[s.len - 1]) {
        case 'K':
        case 'k': shift = 10; break;
        case 'M':
        case 'm': shift = 20; break;
        case 'G':
        case 'g': shift = 30; break;
        default: break;
        }
    }
    uint64_t v;
    /* A suffix alone leaves nothing to parse, which st_str8_parse_u64 refuses. */
    if (!st_str8_parse_u64(st_str8_prefix(s, shift ? s.len - 1 : s.len), 10, &v)) return false;
    if (v > UINT64_MAX >> shift) return false;
    *out = v << shift;
    return true;
}

Str8 st_str8_copy(Arena *a, Str8 s) {
    char *p = st_str8_to_cstr(a, s);
    return p ? (Str8){p, s.len} : (Str8){0};
}

char *st_str8_to_cstr(Arena *a, Str8 s) {
    if (s.len == UINT64_MAX) return NULL;
    char *p = st_arena_push_raw(a, s.len + 1, 1);
    if (!p) return NULL;
    if (s.len) memcpy(p, s.data, s.len);
    p[s.len] = 0;
    return p;
}

Str8 st_str8_fmtv(Arena *a, const char *fmt, va_list args) {
    if (!fmt) return (Str8){0};
    /* Measure, then write: exactly len + 1 bytes leave the arena, nothing is wasted. */
    va_list measure;
    va_copy(measure, args);
    int n = stbsp_vsnprintf(NULL, 0, fmt, measure);
    va_end(measure);
    if (n < 0) return (Str8){0};
    char *p = st_arena_push_raw(a, (uint64_t)n + 1, 1);
    if (!p) return (Str8){0};
    stbsp_vsnprintf(p, n + 1, fmt, args);
    return (Str8){p, (uint64_t)n};
}

int st_str8_vsnprintf(char *buf, int cap, const char *fmt, va_list args) {
    return stbsp_vsnprintf(buf, cap, fmt, args);
}

Str8 st_str8_fmt(Arena *a, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    Str8 s = st_str8_fmtv(a, fmt, args);
    va_end(args);
    return s;
}

Str8Buf st_str8_buf(Arena *a, uint64_t cap) {
    char *data = cap ? st_arena_push_raw(a, cap, 1) : NULL;
    if (data) data[0] = 0;
    return (Str8Buf){.data = data, .cap = data ? cap : 0, .cut = !data};
}

void st_str8_buf_put(Str8Buf *b, Str8 s) {
    if (b->cut || s.len >= b->cap - b->len) { /* room for the bytes and the NUL */
        b->cut = true;
        return;
    }
    if (s.len) memcpy(b->data + b->len, s.data, s.len);
    b->len += s.len;
    b->data[b->len] = 0;
}

void st_str8_buf_fmt(Str8Buf *b, const char *fmt, ...) {
    if (b->cut) return;
    va_list ap;
    va_start(ap, fmt);
    int n = stbsp_vsnprintf(b->data + b->len, (int)MIN(b->cap - b->len, (uint64_t)INT32_MAX), fmt, ap);
    va_end(ap);
    if (n < 0 || (uint64_t)n >= b->cap - b->len) {
        b->data[b->len] = 0; /* the piece goes whole */
        b->cut = true;
        return;
    }
    b->len += (uint64_t)n;
}
