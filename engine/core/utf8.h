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
#ifndef UTF8_H
#define UTF8_H

#include <stdint.h>

#include <strata/core/str8.h>

#define UTF8_REPLACEMENT 0xFFFDu

/* The code point at byte *i of `s`, and *i moved past it; UTF8_REPLACEMENT for a malformed
   sequence (see above). *i >= s.len (or an empty `s`): returns UTF8_REPLACEMENT and leaves
   *i as it was, so a caller's `while (i < s.len)` is the only loop test it needs. */
uint32_t st_utf8_next(Str8 s, uint64_t *i);

#endif
