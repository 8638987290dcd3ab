/* vorbis_check.c - the Ogg pages, then the three Vorbis headers, read the way stb_vorbis
   reads them (the same fields in the same order, so that the bits checked here are the bits
   it will take), with every count bounded by the packet and every index by its table.

   The setup header is where a lie does damage: stb_vorbis sizes its tables from the counts
   and then indexes them with values read later. Checked here: codebooks (sync pattern,
   entries and dimensions with ilog(dimensions) + ilog(entries) <= 24 as the reference
   decoder requires, code lengths under 32, lookup values within the packet), floors (type
   1 only, as stb_vorbis; books inside the codebook table; at most 65 distinct points),
   residues (books inside the table and carrying values, a classification book that can
   express every partition, no more partitions than stb_vorbis sizes its decoding scratch
   for), mappings (channels, submaps, floors and residues inside their tables; at most the
   15 submaps stb_vorbis has room for) and modes. Where stb_vorbis itself would overflow
   an int (a 31-bit code in a small book, pow() cast for a lattice), that is refused too. */
#include <strata/audio/vorbis_check.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define VORBIS_MAX_BOOKS 256
#define VORBIS_FLOOR1_MAX_VALUES 65

/* The reason, about no file (the caller names it): ERROR_PARSE, false. */
static bool fail(Error *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Error *why, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(why, ERROR_PARSE, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return false;
}

/* An arena refused: "no scratch memory <what>: <the arena's words>". */
static bool fail_memory(Error *why, const char *what) {
    st_error_set(why, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "no scratch memory %s: ", what);
    return st_arena_error(why);
}

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* ---- The Ogg layer */

typedef struct OggHeaders {
    uint64_t size[3]; /* the first three packets' lengths */
    uint32_t packets; /* how many of them are complete */
} OggHeaders;

/* Every page whole, its CRC right, one logical stream that ends; counts the header packets.
   `copy`: when not NULL, the first three packets are written there back to back. */
static bool ogg_pages(const uint8_t *b, uint64_t len, OggHeaders *h, uint8_t *copy, Error *why) {
    uint32_t table[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t r = i << 24;
        for (int k = 0; k < 8; k++) r = r & 0x80000000u ? r << 1 ^ 0x04C11DB7u : r << 1;
        table[i] = r;
    }
    *h = (OggHeaders){0};
    uint32_t serial = 0, pages = 0;
    uint64_t copied = 0;
    bool eos = false;
    for (uint64_t at = 0; at < len; pages++) {
        unsigned long long where = at;
        if (eos)
            return fail(why,
                        "more data after the end of the Ogg stream at byte %llu (chained streams "
                        "are not supported)",
                        where);
        if (len - at < 27) return fail(why, "truncated Ogg page header at byte %llu", where);
        const uint8_t *p = b + at;
        if (memcmp(p, "OggS", 4)) return fail(why, "no Ogg page at byte %llu", where);
        if (p[4]) return fail(why, "unknown Ogg version %u at byte %llu", p[4], where);
        uint64_t size = 27 + (uint64_t)p[26];
        if (len - at < size) return fail(why, "truncated Ogg page at byte %llu", where);
        for (uint32_t i = 0; i < p[26]; i++) size += p[27 + i];
        if (len - at < size)
            return fail(why, "truncated Ogg page at byte %llu: %llu bytes, %llu left", where, (unsigned long long)size,
                        (unsigned long long)(len - at));
        bool first = (p[5] & 2) != 0;
        if (pages == 0) serial = rd32(p + 14);
        if (first != (pages == 0) || rd32(p + 14) != serial)
            return fail(why, "more than one logical stream (page at byte %llu)", where);
        uint32_t crc = 0;
        for (uint64_t i = 0; i < size; i++) crc = crc << 8 ^ table[(crc >> 24) ^ (i >= 22 && i < 26 ? 0 : p[i])];
        if (crc != rd32(p + 22)) return fail(why, "corrupt Ogg page at byte %llu (CRC mismatch)", where);
        /* The header packets, segment by segment. */
        const uint8_t *body = p + 27 + p[26];
        for (uint32_t i = 0; i < p[26] && h->packets < 3; i++) {
            uint32_t n = p[27 + i];
            if (copy) memcpy(copy + copied, body, n);
            copied += n, body += n;
            h->size[h->packets] += n;
            if (n < 255) h->packets++;
        }
        eos = (p[5] & 4) != 0;
        at += size;
    }
    if (!eos) return fail(why, "truncated Ogg stream: no end-of-stream page after %u pages", pages);
    return true;
}

/* ---- Bits, least significant first, never past the packet */

typedef struct Bits {
    const uint8_t *p;
    uint64_t bits, pos; /* the packet's length and the position, in bits */
} Bits;

static uint32_t get(Bits *b, uint32_t n) {
    if (n == 0) return 0;
    if (b->pos > b->bits || b->bits - b->pos < n) {
        b->pos = b->bits + 1; /* past the end: every later read fails too */
        return 0;
    }
    uint64_t v = 0;
    for (uint32_t got = 0; got < n;) {
        uint32_t off = (uint32_t)(b->pos & 7), take = 8 - off < n - got ? 8 - off : n - got;
        v |= (uint64_t)((b->p[b->pos >> 3] >> off) & ((1u << take) - 1)) << got;
        got += take, b->pos += take;
    }
    return (uint32_t)v;
}

static bool over(const Bits *b) { return b->pos > b->bits; }

static uint32_t ilog(uint32_t v) {
    uint32_t n = 0;
    for (; v; v >>= 1) n++;
    return n;
}

/* stb_vorbis's own computation, float for float: the count of lookup values decides how
   many bits it reads next, so the check must count the same. Its casts of pow() to int are
   undefined past INT_MAX: called only where lookup1_exact says they stay below. */
static int lookup1_stb(int entries, int dim) {
    int r = (int)floor(exp((float)log((float)entries) / dim));
    if ((int)floor(pow((float)r + 1, dim)) <= entries) ++r;
    if (pow((float)r + 1, dim) <= entries) return -1;
    if ((int)floor(pow((float)r, dim)) > entries) return -1;
    return r;
}

/* The largest r with r^dim <= entries, or -1 when (r + 2)^dim passes INT_MAX (stb_vorbis's
   float estimate may be one above r, and then casts (estimate + 1)^dim). */
static int64_t lookup1_exact(uint32_t entries, uint32_t dim) {
    int64_t r = (int64_t)floor(pow((double)entries, 1.0 / dim));
    r = r > 2 ? r - 2 : 1; /* an estimate from below; the loop finds the exact one */
    for (;; r++) {
        int64_t p = 1, q = 1; /* (r + 1)^dim and (r + 2)^dim, stopped past INT_MAX */
        for (uint32_t d = 0; d < dim && q <= INT32_MAX; d++) p *= r + 1, q *= r + 2;
        if (q > INT32_MAX) return -1;
        if (p > entries) return r;
    }
}

/* ---- The headers */

typedef struct VorbisStream {
    uint32_t channels, block[2]; /* the short and the long block size */
} VorbisStream;

static bool check_identification(const uint8_t *p, uint64_t n, VorbisStream *vs, Error *why) {
    if (n < 30)
        return fail(why, "invalid Vorbis identification header: %llu bytes, 30 expected", (unsigned long long)n);
    if (p[0] != 1 || memcmp(p + 1, "vorbis", 6))
        return fail(why, "the first packet is not a Vorbis identification header");
    if (rd32(p + 7) != 0) return fail(why, "unknown Vorbis version %u", rd32(p + 7));
    vs->channels = p[11];
    if (vs->channels == 0 || vs->channels > VORBIS_MAX_CHANNELS)
        return fail(why, "invalid Vorbis identification header: %u channels (1 to %d)", vs->channels,
                    VORBIS_MAX_CHANNELS);
    uint32_t b0 = p[28] & 15, b1 = p[28] >> 4;
    if (b0 < 6 || b0 > 13 || b1 < 6 || b1 > 13 || b0 > b1)
        return fail(why, "invalid Vorbis identification header: block sizes 2^%u and 2^%u", b0, b1);
    if (!(p[29] & 1)) return fail(why, "invalid Vorbis identification header: no framing bit");
    vs->block[0] = 1u << b0, vs->block[1] = 1u << b1;
    return true;
}

static bool check_comment(const uint8_t *p, uint64_t n, Error *why) {
    const char *what = "invalid Vorbis comment header";
    if (n < 7 || p[0] != 3 || memcmp(p + 1, "vorbis", 6))
        return fail(why, "the second packet is not a Vorbis comment header");
    if (n > VORBIS_COMMENT_MAX)
        return fail(why, "%s: %llu bytes, the limit is %u", what, (unsigned long long)n, VORBIS_COMMENT_MAX);
    uint64_t at = 7;
    if (n - at < 4) return fail(why, "%s: cut short before the vendor string", what);
    uint32_t vendor = rd32(p + at);
    at += 4;
    if (vendor > n - at)
        return fail(why, "%s: a vendor string of %u bytes, %llu left in the packet", what, vendor,
                    (unsigned long long)(n - at));
    at += vendor;
    if (n - at < 4) return fail(why, "%s: cut short before the comment count", what);
    uint32_t count = rd32(p + at);
    at += 4;
    if (count > (n - at) / 4)
        return fail(why, "%s: %u comments, %llu bytes left in the packet", what, count, (unsigned long long)(n - at));
    for (uint32_t i = 0; i < count; i++) {
        if (n - at < 4) return fail(why, "%s: cut short at comment %u", what, i);
        uint32_t len = rd32(p + at);
        at += 4;
        if (len > n - at)
            return fail(why, "%s: comment %u of %u bytes, %llu left in the packet", what, i, len,
                        (unsigned long long)(n - at));
        at += len;
    }
    if (at >= n || !(p[at] & 1)) return fail(why, "%s: no framing bit", what);
    return true;
}

typedef struct Book {
    uint32_t entries, dims, lookup;
} Book;

static bool check_codebook(Bits *b, uint32_t i, Book *book, Error *why) {
    if (get(b, 24) != 0x564342) return fail(why, "codebook %u: no sync pattern", i);
    uint32_t dims = get(b, 16), entries = get(b, 24);
    uint32_t ordered = get(b, 1), sparse = ordered ? 0 : get(b, 1);
    if (over(b)) return false;
    if (!entries || !dims || ilog(dims) + ilog(entries) > 24)
        return fail(why, "codebook %u: %u entries of %u dimensions", i, entries, dims);
    uint32_t longest = 0;
    if (ordered) {
        uint32_t entry = 0, length = get(b, 5) + 1;
        while (entry < entries && !over(b)) {
            uint32_t count = get(b, ilog(entries - entry));
            if (length >= 32 || count > entries - entry)
                return fail(why, "codebook %u: ordered code lengths do not add up", i);
            if (count) longest = length;
            entry += count, length++;
        }
    } else {
        for (uint32_t e = 0; e < entries && !over(b); e++) {
            if (sparse && !get(b, 1)) continue;
            uint32_t length = get(b, 5) + 1;
            if (length == 32) return fail(why, "codebook %u: a 32-bit code", i);
            if (length > longest) longest = length;
        }
    }
    /* stb_vorbis searches a book of up to 8 entries with 1 << length, an int: a 31-bit code
       there (which no real code of 8 entries needs) overflows it. */
    if (entries <= 8 && longest >= 31)
        return fail(why, "codebook %u: a %u-bit code among %u entries", i, longest, entries);
    uint32_t lookup = get(b, 4);
    if (lookup > 2) return fail(why, "codebook %u: lookup type %u", i, lookup);
    if (lookup) {
        get(b, 32), get(b, 32);
        uint32_t value_bits = get(b, 4) + 1;
        get(b, 1);
        int64_t values = (int64_t)entries * dims;
        if (lookup == 1) {
            values = lookup1_exact(entries, dims);
            if (values < 0 || lookup1_stb((int)entries, (int)dims) != values)
                return fail(why, "codebook %u: %u entries of %u dimensions as a lattice", i, entries, dims);
        }
        if (values <= 0) return fail(why, "codebook %u: no lookup values", i);
        if ((uint64_t)values * value_bits > b->bits - (b->pos > b->bits ? b->bits : b->pos)) {
            b->pos = b->bits + 1;
            return false;
        }
        b->pos += (uint64_t)values * value_bits;
    }
    *book = (Book){entries, dims, lookup};
    return !over(b);
}

static bool check_floor(Bits *b, uint32_t i, uint32_t books, Error *why) {
    uint32_t type = get(b, 16);
    if (type == 0) return fail(why, "floor %u is of type 0, which stb_vorbis does not support", i);
    if (type != 1) return fail(why, "floor %u: unknown type %u", i, type);
    uint32_t partitions = get(b, 5), classes[32], dims[16] = {0};
    int max_class = -1;
    for (uint32_t j = 0; j < partitions; j++) {
        classes[j] = get(b, 4);
        if ((int)classes[j] > max_class) max_class = (int)classes[j];
    }
    for (int j = 0; j <= max_class; j++) {
        dims[j] = get(b, 3) + 1;
        uint32_t sub = get(b, 2);
        if (sub && get(b, 8) >= books) return fail(why, "floor %u: class %d's master book is not a codebook", i, j);
        for (uint32_t k = 0; k < 1u << sub; k++)
            if ((int)get(b, 8) - 1 >= (int)books) return fail(why, "floor %u: class %d names no codebook", i, j);
    }
    get(b, 2);
    uint32_t range_bits = get(b, 4), values = 2, x[VORBIS_FLOOR1_MAX_VALUES] = {0, 1u << range_bits};
    for (uint32_t j = 0; j < partitions; j++) {
        for (uint32_t k = 0; k < dims[classes[j]]; k++) {
            if (values == VORBIS_FLOOR1_MAX_VALUES)
                return fail(why, "floor %u: more than %d points", i, VORBIS_FLOOR1_MAX_VALUES);
            x[values++] = get(b, range_bits);
        }
    }
    for (uint32_t j = 0; j < values; j++)
        for (uint32_t k = 0; k < j; k++)
            if (x[j] == x[k] && !over(b)) return fail(why, "floor %u: two points at x = %u", i, x[j]);
    return !over(b);
}

typedef struct Residue {
    uint32_t type, begin, end, part_size;
} Residue;

static bool check_residue(Bits *b, uint32_t i, const Book *book, uint32_t books, Residue *res, Error *why) {
    uint32_t type = get(b, 16);
    if (type > 2) return fail(why, "residue %u: unknown type %u", i, type);
    uint32_t begin = get(b, 24), end = get(b, 24), part_size = get(b, 24) + 1;
    *res = (Residue){type, begin, end, part_size};
    uint32_t classifications = get(b, 6) + 1, classbook = get(b, 8), cascade[64];
    if (over(b)) return false;
    if (end < begin) return fail(why, "residue %u ends before it begins", i);
    if (classbook >= books) return fail(why, "residue %u: its classification book is not a codebook", i);
    for (uint32_t j = 0; j < classifications; j++) {
        uint32_t low = get(b, 3), high = get(b, 1) ? get(b, 5) : 0;
        cascade[j] = high * 8 + low;
    }
    for (uint32_t j = 0; j < classifications; j++)
        for (uint32_t k = 0; k < 8; k++) {
            if (!(cascade[j] & 1u << k)) continue;
            uint32_t n = get(b, 8);
            if (over(b)) return false;
            if (n >= books || !book[n].lookup)
                return fail(why, "residue %u: book %u is not a codebook with values", i, n);
        }
    /* Every partition's classes, classifications^dims of them, must be codes of its book. */
    uint64_t partvals = 1;
    for (uint32_t d = 0; d < book[classbook].dims; d++) {
        partvals *= classifications;
        if (partvals > book[classbook].entries) return fail(why, "residue %u: its classification book is too small", i);
    }
    return !over(b);
}

static bool check_mapping(Bits *b, uint32_t i, uint32_t channels, uint32_t floors, uint32_t residues, Error *why) {
    if (get(b, 16) != 0) return fail(why, "mapping %u: unknown type", i);
    uint32_t submaps = get(b, 1) ? get(b, 4) + 1 : 1;
    if (submaps > 15) return fail(why, "mapping %u: %u submaps (stb_vorbis takes 15)", i, submaps);
    if (get(b, 1)) {
        uint32_t steps = get(b, 8) + 1;
        if (steps > channels) return fail(why, "mapping %u: %u coupling steps for %u channels", i, steps, channels);
        for (uint32_t k = 0; k < steps; k++) {
            uint32_t mag = get(b, ilog(channels - 1)), ang = get(b, ilog(channels - 1));
            if (mag >= channels || ang >= channels || mag == ang)
                return fail(why, "mapping %u: coupling step %u joins channels %u and %u", i, k, mag, ang);
        }
    }
    if (get(b, 2)) return fail(why, "mapping %u: reserved bits set", i);
    if (submaps > 1)
        for (uint32_t c = 0; c < channels; c++)
            if (get(b, 4) >= submaps) return fail(why, "mapping %u: channel %u has no submap", i, c);
    for (uint32_t j = 0; j < submaps; j++) {
        get(b, 8);
        uint32_t floor = get(b, 8), residue = get(b, 8);
        if (floor >= floors || residue >= residues)
            return fail(why, "mapping %u: submap %u names floor %u and residue %u", i, j, floor, residue);
    }
    return !over(b);
}

/* Partitions a residue reads in a block of n / 2 values per channel, as stb_vorbis counts
   them: type 2 reads all channels' values as one vector, twice as long. */
static uint32_t residue_parts(const Residue *r, uint32_t half, bool decoding) {
    uint32_t size = decoding && r->type == 2 ? 2 * half : half;
    uint32_t begin = r->begin < size ? r->begin : size, end = r->end < size ? r->end : size;
    return (end - begin) / r->part_size;
}

/* stb_vorbis sizes its scratch for decoding at setup, and a residue of type 2 can ask for
   more when it decodes (it counts that one's partitions as if it were of the other types):
   its allocation then fails and it writes through the NULL. Refused here instead. */
static bool check_scratch(const Residue *res, uint32_t residues, const VorbisStream *vs, Error *why) {
    uint64_t most = 0;
    for (uint32_t i = 0; i < residues; i++) {
        uint32_t parts = residue_parts(&res[i], vs->block[1] / 2, false);
        if (parts > most) most = parts;
    }
    uint64_t ptr = sizeof(void *), room = vs->channels * (ptr + most * ptr), imdct = vs->block[1] * sizeof(float) / 2;
    if (imdct > room) room = imdct;
    for (uint32_t i = 0; i < residues; i++)
        for (int b = 0; b < 2; b++) {
            uint64_t need = vs->channels * (ptr + residue_parts(&res[i], vs->block[b] / 2, true) * ptr);
            if (need > room)
                return fail(why,
                            "residue %u of type %u reads %llu partitions, more than stb_vorbis "
                            "makes room for",
                            i, res[i].type, (unsigned long long)residue_parts(&res[i], vs->block[b] / 2, true));
        }
    return true;
}

static bool check_setup(const uint8_t *p, uint64_t n, const VorbisStream *vs, Arena *scratch, Error *why) {
    uint32_t channels = vs->channels;
    if (n < 7 || p[0] != 5 || memcmp(p + 1, "vorbis", 6))
        return fail(why, "the third packet is not a Vorbis setup header");
    Error detail;
    st_error_clear(&detail);
    Bits b = {p + 7, (n - 7) * 8, 0};
    bool ok = false;
    uint32_t books = get(&b, 8) + 1;
    Book *book = st_arena_push_array(scratch, Book, VORBIS_MAX_BOOKS);
    Residue *res = st_arena_push_array(scratch, Residue, 64);
    if (!book || !res) return fail_memory(why, "to check the setup header");
    for (uint32_t i = 0; i < books; i++)
        if (!check_codebook(&b, i, &book[i], &detail)) goto done;
    uint32_t times = get(&b, 6) + 1;
    for (uint32_t i = 0; i < times; i++)
        if (get(&b, 16)) {
            fail(&detail, "time domain transform %u is not 0", i);
            goto done;
        }
    uint32_t floors = get(&b, 6) + 1;
    for (uint32_t i = 0; i < floors; i++)
        if (!check_floor(&b, i, books, &detail)) goto done;
    uint32_t residues = get(&b, 6) + 1;
    for (uint32_t i = 0; i < residues; i++)
        if (!check_residue(&b, i, book, books, &res[i], &detail)) goto done;
    if (!check_scratch(res, residues, vs, &detail)) goto done;
    uint32_t mappings = get(&b, 6) + 1;
    for (uint32_t i = 0; i < mappings; i++)
        if (!check_mapping(&b, i, channels, floors, residues, &detail)) goto done;
    uint32_t modes = get(&b, 6) + 1;
    for (uint32_t i = 0; i < modes; i++) {
        get(&b, 1);
        uint32_t window = get(&b, 16), transform = get(&b, 16), mapping = get(&b, 8);
        if (!over(&b) && (window || transform || mapping >= mappings)) {
            fail(&detail, "mode %u: window %u, transform %u, mapping %u", i, window, transform, mapping);
            goto done;
        }
    }
    if (!over(&b) && !get(&b, 1)) {
        fail(&detail, "no framing bit");
        goto done;
    }
    ok = !over(&b);
done:
    if (ok) return true;
    if (over(&b)) return fail(why, "invalid Vorbis setup header: cut short (%llu bytes)", (unsigned long long)n);
    return fail(why, "invalid Vorbis setup header: %s", detail.message);
}

bool st_vorbis_check(const uint8_t *b, uint64_t len, Arena *scratch, Error *why) {
    OggHeaders h;
    if (!ogg_pages(b, len, &h, NULL, why)) return false;
    if (h.packets < 3)
        return fail(why, "the stream ends inside its headers (%u of the 3 Vorbis header packets)", h.packets);
    uint64_t mark = st_arena_pos(scratch), total = h.size[0] + h.size[1] + h.size[2];
    uint8_t *p = st_arena_push_raw(scratch, total ? total : 1, 16);
    if (!p) return fail_memory(why, "for the Vorbis headers");
    ogg_pages(b, len, &h, p, why);
    VorbisStream vs = {0};
    bool ok = check_identification(p, h.size[0], &vs, why) && check_comment(p + h.size[0], h.size[1], why) &&
              check_setup(p + h.size[0] + h.size[1], h.size[2], &vs, scratch, why);
    st_arena_pop_to(scratch, mark);
    return ok;
}
