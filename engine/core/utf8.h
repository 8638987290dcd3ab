/* utf8.h - one code point at a time out of UTF-8 text, strictly, and never past its end.

   Strict means what the Unicode standard calls well-formed: no overlong forms, no
   surrogates (U+D800..U+DFFF), nothing past U+10FFFF, no truncated sequence. Whatever is not
   well-formed decodes as UTF8_REPLACEMENT (U+FFFD), one per "maximal subpart" (the lead byte
   and the continuation bytes that were still possible), so "Caf\xC3" is "Caf" + one U+FFFD
   and the next character after a bad run is never swallowed.

       uint64_t i = 0;
       while (i < text.len) {
           uint32_t cp = st_utf8_next(text, &i);  // i moves past the character (at least 1 byte)
           if (cp == UTF8_REPLACEMENT) ...        // bad bytes, or a real U+FFFD
       }
*/
/* Quoting input in a message: st_utf8_quote gives the bytes of `s` as a message may show
   them to a terminal or a log, whatever they are (a hostile file's escape sequences, a
   binary blob, a word of a megabyte). Printable ASCII and well-formed UTF-8 stay as they
   are; a backslash is `\\`; a tab, a newline and a return are `\t`, `\n`, `\r`; every
   other control byte (C0, DEL, the C1 code points), a bidirectional override and every byte
   of a malformed sequence is `\xHH`. At most ST_QUOTE_SHOWN characters are shown, the rest
   said as "...". Every reader that quotes what it read (levels, Tiled maps, scores,
   settings, replays, saves) quotes through it:
       return st_error_set(err, ERROR_PARSE, path, line, col, "expected a note, found '%s'", ST_QUOTE(word));
*/
#ifndef UTF8_H
#define UTF8_H

#include <stdint.h>

#include <strata/core/str8.h>

#define UTF8_REPLACEMENT 0xFFFDu

/* The code point at byte *i of `s`, and *i moved past it; UTF8_REPLACEMENT for a malformed
   sequence (see above). *i >= s.len (or an empty `s`): returns UTF8_REPLACEMENT and leaves
   *i as it was, so a caller's `while (i < s.len)` is the only loop test it needs. */
uint32_t st_utf8_next(Str8 s, uint64_t *i);

#define ST_QUOTE_SHOWN 40                      /* characters shown of what is quoted */
#define ST_QUOTE_CAP (ST_QUOTE_SHOWN * 16 + 4) /* the most st_utf8_quote writes, its NUL included */
/* `s` quoted (above) into out[cap], NUL-terminated; returns out. */
const char *st_utf8_quote(char *out, uint64_t cap, Str8 s);
/* st_utf8_quote into one of this thread's ST_QUOTE_RING buffers, in turn: for a message's
   arguments (up to ST_QUOTE_RING quotes in one), good until that many more quotes. A
   buffer of the caller's would grow the stack frame of every function with an error path,
   hot loops included. */
#define ST_QUOTE_RING 4
const char *st_utf8_quoted(Str8 s);
#define ST_QUOTE(s) st_utf8_quoted(s)

#endif
