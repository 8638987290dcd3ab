/* utf8.c - the strict decoder: the well-formed byte sequences of Unicode's table 3-7. */
#include <strata/core/utf8.h>

#include <stdbool.h>
#include <string.h>

uint32_t st_utf8_next(Str8 s, uint64_t *i) {
    if (!s.data || *i >= s.len) return UTF8_REPLACEMENT;
    const uint8_t *p = (const uint8_t *)s.data;
    uint8_t c = p[*i];
    (*i)++;
    if (c < 0x80) return c;
    int n;                        /* continuation bytes to come */
    uint8_t lo = 0x80, hi = 0xbf; /* the second byte's range: it rules out overlongs, surrogates, > U+10FFFF */
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) n = 1, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef) n = 2, cp = c & 0x0f, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4) n = 3, cp = c & 0x07, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else return UTF8_REPLACEMENT; /* a stray continuation byte, C0/C1 (overlong leads), F5..FF */
    for (int k = 0; k < n; k++, lo = 0x80, hi = 0xbf) {
        /* A byte that cannot continue the sequence is not consumed: it starts the next one. */
        if (*i >= s.len || p[*i] < lo || p[*i] > hi) return UTF8_REPLACEMENT;
        cp = cp << 6 | (p[*i] & 0x3f);
        (*i)++;
    }
    return cp;
}

/* Shown as it is: printable, and nothing a terminal would act on. */
static bool shown_plain(uint32_t cp) {
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) return false;             /* C0, DEL, C1 */
    if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return false; /* bidi overrides */
    return cp != UTF8_REPLACEMENT;
}

const char *st_utf8_quoted(Str8 s) {
    static _Thread_local char ring[ST_QUOTE_RING][ST_QUOTE_CAP];
    static _Thread_local unsigned next;
    char *out = ring[next++ % ST_QUOTE_RING];
    return st_utf8_quote(out, ST_QUOTE_CAP, s);
}

const char *st_utf8_quote(char *out, uint64_t cap, Str8 s) {
    static const char hex[] = "0123456789abcdef";
    if (!out || cap == 0) return "";
    uint64_t o = 0, i = 0;
    int shown = 0;
    /* Room for one character's worst (four bytes, each \xHH), "..." and the NUL. */
    while (i < s.len && shown < ST_QUOTE_SHOWN && o + 16 + 4 <= cap) {
        uint64_t at = i;
        uint32_t cp = st_utf8_next(s, &i);
        bool real_fffd = cp == UTF8_REPLACEMENT && i - at == 3 && (uint8_t)s.data[at] == 0xef;
        const char *esc = cp == '\\' ? "\\\\" : cp == '\t' ? "\\t" : cp == '\n' ? "\\n" : cp == '\r' ? "\\r" : NULL;
        if (esc) {
            memcpy(out + o, esc, 2), o += 2;
        } else if (shown_plain(cp) || real_fffd) {
            memcpy(out + o, s.data + at, i - at), o += i - at;
        } else {
            for (uint64_t k = at; k < i; k++) {
                uint8_t b = (uint8_t)s.data[k];
                out[o++] = '\\', out[o++] = 'x', out[o++] = hex[b >> 4], out[o++] = hex[b & 15];
            }
        }
        shown++;
    }
    if (i < s.len && o + 4 <= cap) memcpy(out + o, "...", 3), o += 3;
    out[o] = '\0';
    return out;
}
