/* utf8: every length of well-formed sequence at its edges, and each kind of malformed one
   (overlong, surrogate, past U+10FFFF, truncated, stray continuation) as U+FFFD per maximal
   subpart, with the bytes after it still decoded and nothing read past the string. */
#include <string.h>

#include "check.h"
#include <strata/core/utf8.h>

/* Decodes all of `bytes` (n of them) into `out`; returns how many code points. */
static int decode_all(const char *bytes, uint64_t n, uint32_t *out, int cap) {
    Str8 s = {bytes, n};
    uint64_t i = 0;
    int k = 0;
    while (i < s.len && k < cap) {
        uint64_t before = i;
        out[k++] = st_utf8_next(s, &i);
        CHECK(i > before && i <= s.len); /* always moves, never past the end */
    }
    return k;
}

#define EXPECT(bytes, ...)                                                                                  \
    do {                                                                                                    \
        static const uint32_t want_[] = {__VA_ARGS__};                                                      \
        uint32_t got_[16];                                                                                  \
        int n_ = decode_all(bytes, sizeof(bytes) - 1, got_, 16);                                            \
        CHECK_EQ_I(n_, (int)(sizeof want_ / sizeof want_[0]));                                              \
        for (int k_ = 0; k_ < n_ && k_ < (int)(sizeof want_ / sizeof want_[0]); k_++)                       \
            if (got_[k_] != want_[k_]) {                                                                    \
                fprintf(stderr, "%s: code point %d: U+%04X, want U+%04X\n", #bytes, k_, (unsigned)got_[k_], \
                        (unsigned)want_[k_]);                                                               \
                check_failures_++;                                                                          \
            }                                                                                               \
    } while (0)

#define R UTF8_REPLACEMENT

int main(void) {
    /* Well-formed, each length at its smallest and largest. */
    EXPECT("Caf\xc3\xa9", 'C', 'a', 'f', 0xe9);
    EXPECT("\x00\x7f", 0, 0x7f);
    EXPECT("\xc2\x80\xdf\xbf", 0x80, 0x7ff);
    EXPECT("\xe0\xa0\x80\xef\xbf\xbf", 0x800, 0xffff);
    EXPECT("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", 0x10000, 0x10ffff);
    EXPECT("\xc5\x81\xc3\xb3\x64\xc5\xba", 0x141, 0xf3, 'd', 0x17a); /* Łódź */
    EXPECT("\xed\x9f\xbf\xee\x80\x80", 0xd7ff, 0xe000);              /* either side of the surrogates */
    EXPECT("\xef\xbf\xbd", R);                                       /* a real U+FFFD */

    /* Overlong forms: C0, C1 are never leads; E0 and F0 need a high enough second byte. */
    EXPECT("\xc0\xaf", R, R);
    EXPECT("\xc1\xbf"
           "a",
           R, R, 'a');
    EXPECT("\xe0\x80\xaf", R, R, R);
    EXPECT("\xf0\x8f\xbf\xbf", R, R, R, R);
    /* Surrogates, and past U+10FFFF. */
    EXPECT("\xed\xa0\x80", R, R, R);
    EXPECT("\xed\xbf\xbf"
           "b",
           R, R, R, 'b');
    EXPECT("\xf4\x90\x80\x80", R, R, R, R);
    EXPECT("\xf5\x80\x80\x80", R, R, R, R);
    EXPECT("\xff\xfe", R, R);
    /* Truncated: one U+FFFD for the whole started sequence, and the next character kept. */
    EXPECT("Caf\xc3", 'C', 'a', 'f', R);
    EXPECT("\xe2\x82"
           "x",
           R, 'x');
    EXPECT("\xf0\x9f\x98", R);
    EXPECT("\xe2\x82\xc3\xa9", R, 0xe9);
    /* A stray continuation byte is one U+FFFD each. */
    EXPECT("\x80\xbf"
           "z",
           R, R, 'z');

    /* Never past the end: a 3-byte lead as the last byte of a longer buffer. */
    const char buf[4] = {'a', '\xe2', '\x82', '\xac'};
    uint64_t i = 1;
    CHECK_EQ_U(st_utf8_next((Str8){buf, 2}, &i), R);
    CHECK_EQ_U(i, 2);
    i = 1;
    CHECK_EQ_U(st_utf8_next((Str8){buf, 4}, &i), 0x20ac);
    CHECK_EQ_U(i, 4);
    /* At or past the end, and the empty string: nothing moves. */
    CHECK_EQ_U(st_utf8_next((Str8){buf, 4}, &i), R);
    CHECK_EQ_U(i, 4);
    i = 0;
    CHECK_EQ_U(st_utf8_next((Str8){0}, &i), R);
    CHECK_EQ_U(i, 0);
    return check_result();
}
