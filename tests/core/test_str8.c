/* Str8: construction, slicing at and past the edges, search, trim, line and token
   splitting, integer parsing at the int64 limits, copies, and st_str8_fmt. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include <strata/core/str8.h>

static const Str8 static_lit = STR8_INIT("static");

static void test_basics(void) {
    Str8 s = st_str8_cstr("hello world");
    CHECK_EQ_U(s.len, 11);
    CHECK(st_str8_eq(s, STR8_LIT("hello world")));
    CHECK(!st_str8_eq(s, STR8_LIT("hello worlD")));
    CHECK(!st_str8_eq(s, STR8_LIT("hello")));
    CHECK(st_str8_eq_cstr(s, "hello world"));
    CHECK(!st_str8_eq_cstr(s, "hello world!"));
    CHECK(st_str8_eq_cstr(static_lit, "static"));
    CHECK_EQ_U(st_str8_cstr(NULL).len, 0);
    CHECK(st_str8_eq(st_str8_cstr(NULL), STR8_LIT("")));
    CHECK(st_str8_eq_cstr((Str8){0}, ""));
    CHECK(st_str8_eq_cstr((Str8){0}, NULL));
    CHECK_EQ_U(st_str8_make(NULL, 5).len, 0); /* a NULL pointer never claims bytes */

    CHECK(st_str8_eq(st_str8_slice(s, 0, 5), STR8_LIT("hello")));
    CHECK(st_str8_eq(st_str8_slice(s, 6, 11), STR8_LIT("world")));
    CHECK(st_str8_eq(st_str8_slice(s, 6, 1000), STR8_LIT("world")));  /* end clamped */
    CHECK_EQ_U(st_str8_slice(s, 1000, 2000).len, 0);                /* start clamped */
    CHECK_EQ_U(st_str8_slice(s, 7, 3).len, 0);                      /* reversed: empty */
    CHECK_EQ_U(st_str8_slice(s, UINT64_MAX, UINT64_MAX).len, 0);
    CHECK(st_str8_slice(s, 1000, 2000).data == s.data + 11);         /* still inside s */
    CHECK_EQ_U(st_str8_slice((Str8){0}, 1, 2).len, 0);
    CHECK(st_str8_eq(st_str8_prefix(s, 4), STR8_LIT("hell")));
    CHECK(st_str8_eq(st_str8_skip(s, 10), STR8_LIT("d")));
    CHECK_EQ_U(st_str8_skip(s, 99).len, 0);

    CHECK(st_str8_starts_with(s, STR8_LIT("hello")));
    CHECK(st_str8_starts_with(s, STR8_LIT("")));
    CHECK(!st_str8_starts_with(s, STR8_LIT("world")));
    CHECK(!st_str8_starts_with(STR8_LIT("he"), STR8_LIT("hello")));
    CHECK(st_str8_ends_with(s, STR8_LIT("world")));
    CHECK(!st_str8_ends_with(STR8_LIT("ld"), STR8_LIT("world")));
    /* A suffix as long as the string: equal or not, never a read before it. */
    CHECK(st_str8_ends_with(s, s));
    CHECK(!st_str8_ends_with(STR8_LIT("hello"), STR8_LIT("jello")));
    CHECK(st_str8_ends_with(STR8_LIT(""), STR8_LIT("")));
    CHECK(st_str8_ends_with(s, STR8_LIT("")));
    CHECK(!st_str8_starts_with(STR8_LIT("hello"), STR8_LIT("hellp")));
    CHECK(st_str8_starts_with(s, s));

    CHECK_EQ_I(st_str8_find_byte(s, 'o', 0), 4);
    CHECK_EQ_I(st_str8_find_byte(s, 'o', 5), 7);
    CHECK_EQ_I(st_str8_find_byte(s, 'o', 8), -1);
    CHECK_EQ_I(st_str8_find_byte(s, 'z', 0), -1);
    CHECK_EQ_I(st_str8_find_byte(s, 'd', 10), 10);
    CHECK_EQ_I(st_str8_find_byte(s, 'h', 11), -1);
    CHECK_EQ_I(st_str8_find_byte(s, 'h', UINT64_MAX), -1);
    CHECK_EQ_I(st_str8_find_byte((Str8){0}, 'h', 0), -1);
    /* The search must stop at len even when the bytes after it match. */
    CHECK_EQ_I(st_str8_find_byte(st_str8_prefix(s, 4), 'o', 0), -1);
    CHECK_EQ_I(st_str8_find_byte(STR8_LIT("a\0b"), '\0', 0), 1);
}

static void test_trim(void) {
    CHECK(st_str8_eq(st_str8_trim(STR8_LIT(" \t\r\n x y \v\f\n")), STR8_LIT("x y")));
    CHECK(st_str8_eq(st_str8_trim_left(STR8_LIT("  x ")), STR8_LIT("x ")));
    CHECK(st_str8_eq(st_str8_trim_right(STR8_LIT("  x ")), STR8_LIT("  x")));
    CHECK_EQ_U(st_str8_trim(STR8_LIT("   \t ")).len, 0);
    CHECK_EQ_U(st_str8_trim((Str8){0}).len, 0);
    CHECK(st_str8_eq(st_str8_trim(STR8_LIT("abc")), STR8_LIT("abc")));
    /* Trimming must not look past the end of a slice. */
    Str8 full = STR8_LIT("ab   ");
    CHECK(st_str8_eq(st_str8_trim(st_str8_prefix(full, 2)), STR8_LIT("ab")));
}

static void test_lines(void) {
    Str8 rest = STR8_LIT("one\r\ntwo\n\nfour\rx\nfive"), line;
    const char *want[] = {"one", "two", "", "four\rx", "five"};
    int n = 0;
    while (st_str8_next_line(&rest, &line)) {
        if (n < 5) CHECK(st_str8_eq_cstr(line, want[n]));
        n++;
    }
    CHECK_EQ_I(n, 5);
    CHECK_EQ_U(rest.len, 0);

    rest = STR8_LIT("a\n");
    n = 0;
    while (st_str8_next_line(&rest, &line)) n++;
    CHECK_EQ_I(n, 1); /* a final newline does not make an extra empty line */

    rest = STR8_LIT("\r\n");
    CHECK(st_str8_next_line(&rest, &line));
    CHECK_EQ_U(line.len, 0);
    CHECK(!st_str8_next_line(&rest, &line));

    rest = STR8_LIT("\r"); /* a lone \r is a line "" */
    CHECK(st_str8_next_line(&rest, &line));
    CHECK_EQ_U(line.len, 0);

    rest = (Str8){0};
    CHECK(!st_str8_next_line(&rest, &line));

    rest = STR8_LIT("k=v,,last"), line = (Str8){0};
    Str8 tok;
    CHECK(st_str8_next_token(&rest, ',', &tok) && st_str8_eq_cstr(tok, "k=v"));
    CHECK(st_str8_next_token(&rest, ',', &tok) && tok.len == 0);
    CHECK(st_str8_next_token(&rest, ',', &tok) && st_str8_eq_cstr(tok, "last"));
    CHECK(!st_str8_next_token(&rest, ',', &tok));
}

static void test_parse(void) {
    struct { const char *text; bool ok; int64_t value; } cases[] = {
        {"0", true, 0},
        {"-0", true, 0},
        {"+7", true, 7},
        {"42", true, 42},
        {"-42", true, -42},
        {"000123", true, 123},
        {"9223372036854775807", true, INT64_MAX},
        {"-9223372036854775808", true, INT64_MIN},
        {"+9223372036854775807", true, INT64_MAX},
        {"9223372036854775808", false, 0},   /* INT64_MAX + 1 */
        {"-9223372036854775809", false, 0},  /* INT64_MIN - 1 */
        {"18446744073709551615", false, 0},  /* UINT64_MAX */
        {"18446744073709551616", false, 0},  /* wraps uint64 to 0 */
        {"99999999999999999999999", false, 0},
        {"92233720368547758070", false, 0},  /* INT64_MAX * 10 */
        {"", false, 0},
        {"-", false, 0},
        {"+", false, 0},
        {"--1", false, 0},
        {"+-1", false, 0},
        {" 1", false, 0},
        {"1 ", false, 0},
        {"12a", false, 0},
        {"0x10", false, 0},
        {"1.5", false, 0},
        {"1e3", false, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = 12345;
        bool ok = st_str8_parse_i64(st_str8_cstr(cases[i].text), &v);
        if (ok != cases[i].ok) fprintf(stderr, "case '%s'\n", cases[i].text);
        CHECK(ok == cases[i].ok);
        if (cases[i].ok) CHECK_EQ_I(v, cases[i].value);
        else CHECK_EQ_I(v, 12345); /* untouched on failure */
    }
    /* Every value near the edges round-trips through text. */
    int64_t edges[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX - 9, INT64_MIN, INT64_MIN + 1,
                       INT64_MIN + 10, -1, 1, 1000000007};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRId64, edges[i]);
        int64_t v = 0;
        CHECK(st_str8_parse_i64(st_str8_cstr(buf), &v));
        CHECK_EQ_I(v, edges[i]);
    }
    /* A slice parses only its own bytes. */
    int64_t v = 0;
    CHECK(st_str8_parse_i64(st_str8_prefix(STR8_LIT("12x"), 2), &v) && v == 12);
    CHECK(!st_str8_parse_i64((Str8){0}, &v));
}

/* Byte counts: digits with an optional binary K/M/G, overflow refused exactly at the edge,
   nothing else accepted. */
static void test_parse_size(void) {
    struct { const char *text; bool ok; uint64_t value; } cases[] = {
        {"0", true, 0},
        {"4096", true, 4096},
        {"64K", true, 64ull << 10},
        {"64k", true, 64ull << 10},
        {"4M", true, 4ull << 20},
        {"4m", true, 4ull << 20},
        {"1G", true, 1ull << 30},
        {"3g", true, 3ull << 30},
        {"0K", true, 0},
        {"18446744073709551615", true, UINT64_MAX},
        {"18446744073709551616", false, 0},   /* UINT64_MAX + 1 */
        {"99999999999999999999", false, 0},
        {"17179869183G", true, 17179869183ull << 30}, /* (2^64 - 1) >> 30: the largest G */
        {"17179869184G", false, 0},           /* 2^34 G = 2^64 */
        {"18014398509481983K", true, 18014398509481983ull << 10},
        {"18014398509481984K", false, 0},
        {"", false, 0},
        {"K", false, 0},
        {"-1", false, 0},
        {"+1", false, 0},
        {" 1", false, 0},
        {"1 ", false, 0},
        {"1 K", false, 0},
        {"1KB", false, 0},
        {"1KK", false, 0},
        {"1T", false, 0},
        {"0x10", false, 0},
        {"1.5M", false, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v = 12345;
        bool ok = st_str8_parse_size(st_str8_cstr(cases[i].text), &v);
        if (ok != cases[i].ok) fprintf(stderr, "size case '%s'\n", cases[i].text);
        CHECK(ok == cases[i].ok);
        if (cases[i].ok) CHECK_EQ_U(v, cases[i].value);
        else CHECK_EQ_U(v, 12345); /* untouched on failure */
    }
    /* A slice parses only its own bytes: "4M" out of "4MB". */
    uint64_t v = 0;
    CHECK(st_str8_parse_size(st_str8_prefix(STR8_LIT("4MB"), 2), &v) && v == 4ull << 20);
    CHECK(!st_str8_parse_size((Str8){0}, &v));
}

/* Unsigned numbers in base 10 or 16: what the command line and the replay files hold. */
static void test_parse_u64(void) {
    struct { const char *text; uint32_t base; bool ok; uint64_t value; } cases[] = {
        {"0", 10, true, 0},
        {"600", 10, true, 600},
        {"18446744073709551615", 10, true, UINT64_MAX},
        {"18446744073709551616", 10, false, 0},
        {"00000000000000000000042", 10, true, 42}, /* leading zeros are no overflow */
        {"ffffffffffffffff", 16, true, UINT64_MAX},
        {"10000000000000000", 16, false, 0},
        {"8badF00d", 16, true, 0x8badf00dull},
        {"ff", 10, false, 0},
        {"", 10, false, 0},
        {"-1", 10, false, 0},
        {"+1", 10, false, 0},
        {" 1", 10, false, 0},
        {"1 ", 10, false, 0},
        {"0x10", 16, false, 0},
        {"12", 8, false, 0}, /* only the bases the files use */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v = 12345;
        bool ok = st_str8_parse_u64(st_str8_cstr(cases[i].text), cases[i].base, &v);
        if (ok != cases[i].ok) fprintf(stderr, "u64 case '%s' base %u\n", cases[i].text, cases[i].base);
        CHECK(ok == cases[i].ok);
        if (cases[i].ok) CHECK_EQ_U(v, cases[i].value);
        else CHECK_EQ_U(v, 12345);
    }
    uint64_t v = 0;
    CHECK(st_str8_parse_u64(st_str8_prefix(STR8_LIT("12x"), 2), 10, &v) && v == 12);
    CHECK(!st_str8_parse_u64((Str8){0}, 10, &v));
}

static void test_alloc(Arena *a) {
    Str8 src = STR8_LIT("copy me");
    Str8 c = st_str8_copy(a, st_str8_prefix(src, 4));
    CHECK(st_str8_eq_cstr(c, "copy"));
    CHECK(c.data != src.data);
    CHECK(c.data[4] == '\0');
    char *z = st_str8_to_cstr(a, st_str8_slice(src, 5, 7));
    REQUIRE_VOID(z);
    CHECK(strcmp(z, "me") == 0);
    char *e = st_str8_to_cstr(a, (Str8){0});
    CHECK(e && e[0] == '\0');

    Str8 f = st_str8_fmt(a, "%d-%s-%05.2f|%.*s|%llu", -12, "ab", 3.14159, STR8_FMT(src),
                      (unsigned long long)UINT64_MAX);
    CHECK(st_str8_eq_cstr(f, "-12-ab-03.14|copy me|18446744073709551615"));
    CHECK(f.data[f.len] == '\0');

    Str8 empty = st_str8_fmt(a, "%s", "");
    CHECK(empty.data && empty.len == 0 && empty.data[0] == '\0');

    /* Long output: well past any internal buffer of stb_sprintf (512 bytes). */
    enum { LONG = 100000 };
    char *big = st_arena_push_raw(a, LONG + 1, 1);
    REQUIRE_VOID(big);
    for (int i = 0; i < LONG; i++) big[i] = (char)('a' + i % 26);
    big[LONG] = 0;
    Str8 l = st_str8_fmt(a, "[%s][%d]", big, 7);
    CHECK_EQ_U(l.len, LONG + 5);
    CHECK(l.data[0] == '[' && memcmp(l.data + 1, big, LONG) == 0);
    CHECK(memcmp(l.data + LONG + 1, "][7]", 4) == 0 && l.data[l.len] == 0);
    Str8 pad = st_str8_fmt(a, "%5000d|", 1);
    CHECK_EQ_U(pad.len, 5001);
    CHECK(pad.data[4998] == ' ' && pad.data[4999] == '1' && pad.data[5000] == '|');

    /* Exactly len + 1 bytes leave the arena. */
    uint64_t before = st_arena_pos(a);
    Str8 exact = st_str8_fmt(a, "%d", 123456);
    CHECK_EQ_U(exact.len, 6);
    CHECK_EQ_U(st_arena_pos(a) - before, 7);
}

static void test_full_arena(void) {
    Arena *small = st_arena_create((ArenaParams){.reserve_size = 64, .flags = ARENA_FLAG_NO_CHAIN,
                                              .name = "str8-small"});
    if (!small) { CHECK(small); return; }
    Str8 ok = st_str8_fmt(small, "%s", "fits");
    CHECK(st_str8_eq_cstr(ok, "fits"));
    uint64_t pos = st_arena_pos(small);
    Str8 big = st_str8_fmt(small, "%200d", 1);
    CHECK(big.data == NULL && big.len == 0);
    CHECK_EQ_U(st_arena_pos(small), pos); /* a failed format takes nothing */
    CHECK(st_str8_copy(small, st_str8_cstr("a string much longer than sixty-four bytes, which cannot fit")).data == NULL);
    CHECK(st_str8_to_cstr(small, (Str8){"x", UINT64_MAX}) == NULL);
    st_arena_release(small);
}

/* Random short texts, each placed at the very end of its arena allocation (8-aligned, so
   ASan sees a read one byte past it), through every reader; parse_i64 is compared with
   strtoll, and the lines must tile the text exactly. */
static void test_random(Arena *a) {
    static const char alphabet[] = "0123456789+- \r\n\tx";
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int iter = 0; iter < 50000; iter++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t len = (seed >> 33) % 24, r = seed;
        ARENA_SCOPE(scope, a);
        char *buf = st_arena_push_raw(a, len ? len : 1, 8);
        REQUIRE_VOID(buf);
        for (uint64_t i = 0; i < len; i++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = alphabet[(r >> 40) % (sizeof alphabet - 1)];
        }
        if (len > 0 && iter % 3 == 0) buf[0] = (iter & 4) ? '-' : '9';
        Str8 text = {buf, len};

        /* Reference: an optional sign then only digits, and strtoll agrees on the range. */
        char z[32] = {0};
        memcpy(z, buf, len);
        uint64_t i = (len && (z[0] == '+' || z[0] == '-')) ? 1 : 0;
        bool digits = i < len;
        for (uint64_t k = i; k < len; k++) digits &= z[k] >= '0' && z[k] <= '9';
        errno = 0;
        long long ref = digits ? strtoll(z, NULL, 10) : 0;
        bool ref_ok = digits && errno != ERANGE;
        int64_t v = 0;
        bool ok = st_str8_parse_i64(text, &v);
        CHECK(ok == ref_ok);
        if (ok && ref_ok) CHECK_EQ_I(v, ref);

        Str8 rest = text, line;
        uint64_t at = 0;
        while (st_str8_next_line(&rest, &line)) {
            CHECK(line.data == text.data + at);
            CHECK(st_str8_find_byte(line, '\n', 0) < 0);
            at += line.len;
            if (at < len && buf[at] == '\r') at++;
            if (at < len) CHECK(buf[at] == '\n');
            if (at < len) at++;
        }
        CHECK_EQ_U(at, len);
        Str8 t = st_str8_trim(text);
        CHECK(t.len == 0 || (!isspace((unsigned char)t.data[0]) &&
                             !isspace((unsigned char)t.data[t.len - 1])));
        (void)st_str8_find_byte(text, 'x', (uint64_t)iter % 30);
        if (check_failures_) return;
    }
}

/* The builder: pieces in order, NUL-terminated; one that does not fit is dropped whole and
   the text marked cut; an arena too full for the buffer gives a cut one. */
static void test_buf(Arena *a) {
    Str8Buf b = st_str8_buf(a, 16);
    CHECK(!b.cut && b.len == 0 && b.data && b.data[0] == 0);
    st_str8_buf_fmt(&b, "%s=%d", "hp", 12);
    st_str8_buf_put(&b, STR8_LIT(", ok"));
    CHECK(st_str8_eq(st_str8_buf_str(&b), STR8_LIT("hp=12, ok")) && !b.cut && b.data[b.len] == 0);
    st_str8_buf_put(&b, STR8_LIT("123456")); /* 9 + 6 = 15 bytes and the NUL: fits exactly */
    CHECK(!b.cut && b.len == 15);
    st_str8_buf_put(&b, STR8_LIT("x"));
    CHECK(b.cut && b.len == 15 && b.data[15] == 0); /* dropped whole */
    st_str8_buf_fmt(&b, "more");
    CHECK(b.len == 15);
    Str8Buf f = st_str8_buf(a, 8);
    st_str8_buf_fmt(&f, "%s", "too long a piece");
    CHECK(f.cut && f.len == 0 && f.data[0] == 0);
    Arena *tiny = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "tiny"});
    Str8Buf none = st_str8_buf(tiny, 1 << 20);
    CHECK(none.cut && none.data == NULL && none.cap == 0);
    st_str8_buf_put(&none, STR8_LIT("x"));
    CHECK(none.len == 0);
    st_arena_release(tiny);
}

int main(void) {
    test_basics();
    test_trim();
    test_lines();
    test_parse();
    test_parse_size();
    test_parse_u64();
    Arena *a = st_arena_create((ArenaParams){.name = "test-str8"});
    REQUIRE(a);
    test_alloc(a);
    test_random(a);
    test_buf(a);
    st_arena_release(a);
    test_full_arena();
    return check_result();
}
