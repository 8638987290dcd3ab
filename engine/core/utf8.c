/* utf8.c - the strict decoder: the well-formed byte sequences of Unicode's table 3-7. */
#include <strata/core/utf8.h>

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
