/* vorbis_check.h - an Ogg Vorbis file checked whole before stb_vorbis reads a byte of it.

   stb_vorbis trusts its input: a length in a header is a length it copies, an index is an
   index it follows. So the file is checked here first, with every read bounded:
   - the Ogg layer: every page whole, its CRC right, one logical stream that ends with its
     end-of-stream page (a cut or damaged file stops here);
   - the three Vorbis headers, reassembled from the pages and read bit by bit exactly as
     the decoder reads them: the identification header's fields, the comment header's
     lengths against the bytes its packet holds, and the setup header's codebooks, floors,
     residues, mappings and modes, every count inside the packet and every index inside
     the table it names, with the reference decoder's limits on top (a codebook's entries
     times its dimensions under 2^24, at most 65 floor points, residue books that carry
     values), and what stb_vorbis itself mishandles (more than its 15 submaps, residues
     that outgrow the scratch it sizes at setup). A file crafted with valid CRCs and a
     lying header is refused like a damaged one, with what is wrong with it.

       char why[200];
       if (!st_vorbis_check(bytes, len, scratch, why, sizeof why))
           return fail("%s", why);      // "invalid Vorbis comment header: ..."
       ... stb_vorbis_open_memory(bytes, len, ...)

   The packets are reassembled in `scratch`, whose position is restored before it returns. */
#ifndef VORBIS_CHECK_H
#define VORBIS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/error.h>

#define VORBIS_MAX_CHANNELS 16        /* stb_vorbis's STB_VORBIS_MAX_CHANNELS */
#define VORBIS_COMMENT_MAX (1u << 20) /* a comment header's bytes: tags, cover art */

/* True when the Ogg pages and the Vorbis headers in [b, b + len) are sound; false with the
   reason in why (no path: the caller names the file). */
bool st_vorbis_check(const uint8_t *b, uint64_t len, Arena *scratch, Error *why);

#endif
