/* str8.h - byte strings that know their length (Str8), typed-less views (Span), and
   printf-style formatting straight into an arena.

   A Str8 is a pointer and a length. It is NOT NUL-terminated in general (a slice of a file
   is not), so never hand `s.data` to a C API: use st_str8_to_cstr(), or build the string with
   st_str8_fmt(), whose output does carry a NUL after the last byte. Every function here accepts
   any Str8, including {NULL, 0}, and any index, however large: slicing clamps, searches
   return -1, parsing returns false. They never read outside [data, data + len).

       Str8 rest = file_text, line;
       while (st_str8_next_line(&rest, &line)) {     // "\n" or "\r\n", last line may lack one
           line = st_str8_trim(line);
           if (line.len == 0 || st_str8_starts_with(line, STR8_LIT("#"))) continue;
           int64_t w;
           if (!st_str8_parse_i64(st_str8_slice(line, 0, 4), &w)) ...   // false on junk, overflow
       }
       Str8 msg = st_str8_fmt(frame_arena, "HP %d/%d", hp, max_hp);  // checked like printf

   Allocating functions return {NULL, 0} (and arena.h's message) when the arena is full. */
#ifndef STR8_H
#define STR8_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>

typedef struct Str8 {
    const char *data;
    uint64_t len;
} Str8;

/* A run of `count` elements whose type the caller knows (e.g. st_chunk_list_flatten). It lives
   here rather than in a header of its own because it is two fields and Str8 is its only
   sibling: a Str8 is a Span of bytes that knows it is text. */
typedef struct Span {
    void *data;
    uint64_t count;
} Span;

/* A string literal as a Str8, without strlen: STR8_LIT("wall"). Literals only. */
#define STR8_LIT(s) ((Str8){(s), sizeof(s) - 1})
/* The same as a constant initializer, for static tables: static const Str8 k = STR8_INIT("x"); */
#define STR8_INIT(s) \
    { (s), sizeof(s) - 1 }
/* For printf: printf("%.*s", STR8_FMT(s)). Lengths past INT_MAX are not supported. */
#define STR8_FMT(s) (int)(s).len, (s).data

Str8 st_str8_make(const char *data, uint64_t len);
Str8 st_str8_cstr(const char *s);                         /* NULL -> empty */
Str8 st_str8_slice(Str8 s, uint64_t start, uint64_t end); /* [start, end), clamped to s */
Str8 st_str8_prefix(Str8 s, uint64_t n);
Str8 st_str8_skip(Str8 s, uint64_t n);
bool st_str8_eq(Str8 a, Str8 b);
bool st_str8_eq_cstr(Str8 a, const char *b);
bool st_str8_starts_with(Str8 s, Str8 prefix);
bool st_str8_ends_with(Str8 s, Str8 suffix);
int64_t st_str8_find_byte(Str8 s, char c, uint64_t from); /* index, or -1 */
Str8 st_str8_trim(Str8 s);                                /* ' ', \t, \r, \n, \v, \f */
Str8 st_str8_trim_left(Str8 s);
Str8 st_str8_trim_right(Str8 s);

/* Cuts the first line off *rest into *line (without its "\n" or "\r\n") and advances *rest
   past it. False when *rest is empty. "a\nb" gives "a", "b"; "a\n" gives just "a". */
bool st_str8_next_line(Str8 *rest, Str8 *line);
/* Splits at the first `sep`: *head is the part before it, *rest the part after. Without a
   sep, *head is everything and *rest becomes empty. False when *rest was already empty. */
bool st_str8_next_token(Str8 *rest, char sep, Str8 *head);

/* Decimal integer, optional leading '+' or '-', nothing else (no spaces: trim first).
   False, and *out untouched, on empty input, any junk, or a value outside int64_t. */
bool st_str8_parse_i64(Str8 s, int64_t *out);
/* An unsigned integer in `base` (10, or 16 with digits a-f or A-F): digits only, no sign,
   no "0x", no spaces. False, and *out untouched, on empty input, any junk, a value past
   UINT64_MAX, or another base. */
bool st_str8_parse_u64(Str8 s, uint32_t base, uint64_t *out);
/* A byte count: decimal digits, then optionally one binary suffix K, M or G (or k, m, g:
   times 2^10, 2^20, 2^30). "4096", "64K", "4M". No sign, no spaces, no other suffix. False,
   and *out untouched, on anything else or a value past UINT64_MAX. Range checks (at least
   a page, at most what the OS will map) are the caller's. */
bool st_str8_parse_size(Str8 s, uint64_t *out);

Str8 st_str8_copy(Arena *a, Str8 s);     /* NUL-terminated copy */
char *st_str8_to_cstr(Arena *a, Str8 s); /* NULL when the arena is full */

/* printf into the arena, exactly the bytes needed plus a NUL (not counted in len). */
Str8 st_str8_fmt(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
Str8 st_str8_fmtv(Arena *a, const char *fmt, va_list args) __attribute__((format(printf, 2, 0)));
/* vsnprintf with the engine's formatter into a fixed buffer: no locale, no heap, the same
   output on every platform. Returns the length the whole text needs, as vsnprintf. */
int st_str8_vsnprintf(char *buf, int cap, const char *fmt, va_list args) __attribute__((format(printf, 3, 0)));

/* A text built piece by piece into a buffer whose size the caller worked out (a file about
   to be written whole): the pieces go in order, NUL-terminated; one that does not fit is
   dropped whole and `cut` is set, so a caller never writes a text missing its middle.

       Str8Buf b = st_str8_buf(scratch, 4096);
       st_str8_buf_fmt(&b, "level %s %u\n", name, ticks);
       if (b.cut) ... the bound was wrong: a bug, or the arena was full ...
       st_os_write_file_atomic(path, b.data, b.len, msg, sizeof msg); */
typedef struct Str8Buf {
    char *data;
    uint64_t len, cap;
    bool cut;
} Str8Buf;

Str8Buf st_str8_buf(Arena *a, uint64_t cap); /* cap bytes (a NUL included); cut when a is full */
void st_str8_buf_put(Str8Buf *b, Str8 s);
void st_str8_buf_fmt(Str8Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline Str8 st_str8_buf_str(const Str8Buf *b) { return (Str8){b->data, b->len}; }

#endif
