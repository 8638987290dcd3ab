/* utf8: every length of well-formed sequence at its edges, and each kind of malformed one
   (overlong, surrogate, past U+10FFFF, truncated, stray continuation) as U+FFFD per maximal
   subpart, with the bytes after it still decoded and nothing read past the string. */
#include <stdio.h>
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

/* st_utf8_quote of `in` (n bytes) is `want`. */
static void quote_is(const char *in, size_t n, const char *want) {
    char out[ST_QUOTE_CAP];
    const char *q = st_utf8_quote(out, sizeof out, st_str8_make(in, n));
    if (strcmp(q, want) != 0) fprintf(stderr, "quote: got '%s', want '%s'\n", q, want);
    CHECK(strcmp(q, want) == 0);
}
#define QUOTE_IS(lit, want) quote_is(lit, sizeof lit - 1, want)

/* What a message quotes: text as it is, a terminal's escapes and bad bytes as \xHH, long
   words cut; never a control byte out, never past the buffer. */
static void test_quote(void) {
    QUOTE_IS("C-4 Caf\xc3\xa9 \xc5\x81\xc3\xb3"
             "d\xc5\xba",
             "C-4 Caf\xc3\xa9 \xc5\x81\xc3\xb3"
             "d\xc5\xba");
    QUOTE_IS("\x1b[31mRED\x07\x01\x02", "\\x1b[31mRED\\x07\\x01\\x02");
    QUOTE_IS("a\tb\nc\rd\\e\x7f", "a\\tb\\nc\\rd\\\\e\\x7f");
    QUOTE_IS("\xc2\x9b"
             "2J",
             "\\xc2\\x9b2J");                            /* C1 CSI */
    QUOTE_IS("x\xe2\x80\xaey", "x\\xe2\\x80\\xaey");     /* U+202E, right-to-left override */
    QUOTE_IS("Caf\xc3 \xff\xfe", "Caf\\xc3 \\xff\\xfe"); /* malformed */
    QUOTE_IS("\xef\xbf\xbd", "\xef\xbf\xbd");            /* a real U+FFFD is text */
    QUOTE_IS("\0z", "\\x00z");
    char longer[200];
    memset(longer, 'w', sizeof longer);
    char want[ST_QUOTE_SHOWN + 4];
    memset(want, 'w', ST_QUOTE_SHOWN);
    memcpy(want + ST_QUOTE_SHOWN, "...", 4);
    quote_is(longer, sizeof longer, want);
    /* Forty bad bytes, or forty overrides of three bytes (twelve out each), then "...": within
       the buffer, never overrun. */
    char bad[ST_QUOTE_SHOWN * 3 + 3];
    memset(bad, 0xff, sizeof bad);
    char out[ST_QUOTE_CAP];
    CHECK_EQ_U(strlen(st_utf8_quote(out, sizeof out, st_str8_make(bad, sizeof bad))), ST_QUOTE_SHOWN * 4 + 3);
    for (size_t i = 0; i < sizeof bad; i += 3) memcpy(bad + i, "\xe2\x80\xae", 3);
    CHECK_EQ_U(strlen(st_utf8_quote(out, sizeof out, st_str8_make(bad, sizeof bad))), ST_QUOTE_SHOWN * 12 + 3);
    char small[8] = "#######";
    CHECK(strlen(st_utf8_quote(small, 5, STR8_LIT("abcdef"))) < 5);
    CHECK(strcmp(ST_QUOTE(STR8_LIT("ok")), "ok") == 0);
}

int main(void) {
    test_quote();
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
