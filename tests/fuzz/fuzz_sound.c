/* fuzz_sound.c - libFuzzer target for the sound loader (sound.h): WAV and Ogg Vorbis bytes
   through st_sound_decode, the engine's own entry point, with stb_vorbis inside it.

   The mutator knows Ogg (LLVMFuzzerCustomMutator): most of the time it takes the stream
   apart into its packets, mutates one of them (the three Vorbis headers more often than
   the audio), and puts the stream back together with the lacing, the page flags and every
   page's CRC recomputed, so the fuzzer works on what the decoder reads rather than on CRC
   mismatches the page check stops at once; the rest of the time it mutates the bytes
   anywhere (the page structure itself) and still recomputes the CRCs of the pages it can
   find. A WAV input is mutated as bytes.

   Beyond "no crash, no leak, no undefined behaviour" it checks the loader's promises on
   every input:
     - a decode that succeeds gives 1 to SOUND_MAX_SECONDS * AUDIO_RATE frames, in the
       arena given, at its end, and nothing more than them; the same bytes decode to the
       same samples again;
     - a decode that fails leaves the arena where it was, and says so as
       "fuzz.ogg: error: ..." (or fuzz.wav);
     - either way the scratch arenas are back where they were.
   A broken promise traps, which libFuzzer reports as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/audio/sound.h>
#include "fuzz.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static Arena *perm;

static uint64_t scratch_used(void) {
    ArenaStats st[ARENA_SCRATCH_COUNT];
    uint32_t n = st_scratch_stats(st, ARENA_SCRATCH_COUNT);
    uint64_t used = 0;
    for (uint32_t i = 0; i < n; i++) used = used * 1000003u + st[i].used;
    return used;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!perm)
        perm = st_arena_create((ArenaParams){
            .reserve_size = 1ull << 30, .flags = ARENA_FLAG_NO_CHAIN, .name = "perm"});
    const char *path = size >= 4 && !memcmp(data, "OggS", 4) ? "fuzz.ogg" : "fuzz.wav";
    uint64_t before = st_arena_pos(perm), scratch = scratch_used();
    Sound s = {0};
    Error err;
    memset(&err, 0, sizeof err);
    bool ok = st_sound_decode(perm, (Str8){(const char *)data, size}, path, &s, &err);
    PROMISE(scratch_used() == scratch);
    if (!ok) {
        PROMISE(st_arena_pos(perm) == before);
        PROMISE(strncmp(err.message, path, 8) == 0 &&
                strncmp(err.message + 8, ": error: ", 9) == 0);
        PROMISE(strlen(err.message) > 17);
        return 0;
    }
    PROMISE(s.frames >= 1 && s.frames <= (uint64_t)SOUND_MAX_SECONDS * AUDIO_RATE && s.samples);
    uint64_t after = st_arena_pos(perm), bytes = (uint64_t)s.frames * sizeof(int16_t);
    PROMISE(after - before >= bytes && after - before < bytes + 64);
    /* The samples end where the arena's cursor is (give or take its alignment). */
    Sound again = {0};
    PROMISE(st_sound_decode(perm, (Str8){(const char *)data, size}, path, &again, &err));
    PROMISE(again.frames == s.frames && memcmp(again.samples, s.samples, bytes) == 0);
    PROMISE((const uint8_t *)again.samples >= (const uint8_t *)s.samples + bytes);
    st_arena_pop_to(perm, before);
    return 0;
}

/* ---- The Ogg-aware mutator */

static uint32_t rnd_state;
static uint32_t rnd(void) {
    rnd_state ^= rnd_state << 13, rnd_state ^= rnd_state >> 17, rnd_state ^= rnd_state << 5;
    return rnd_state;
}

static uint32_t rd32(const uint8_t *p) {
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void fix_crc(uint8_t *page, size_t size) {
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t r = i << 24;
            for (int k = 0; k < 8; k++) r = r & 0x80000000u ? r << 1 ^ 0x04C11DB7u : r << 1;
            table[i] = r;
        }
    memset(page + 22, 0, 4);
    uint32_t crc = 0;
    for (size_t i = 0; i < size; i++) crc = crc << 8 ^ table[(crc >> 24) ^ page[i]];
    for (int k = 0; k < 4; k++) page[22 + k] = (uint8_t)(crc >> 8 * k);
}

/* The CRC of every page that is whole, from the start; stops at the first that is not. */
static void fix_crcs(uint8_t *b, size_t n) {
    for (size_t at = 0; n - at >= 27 && !memcmp(b + at, "OggS", 4);) {
        size_t size = 27 + b[at + 26];
        if (n - at < size) return;
        for (uint32_t i = 0; i < b[at + 26]; i++) size += b[at + 27 + i];
        if (n - at < size) return;
        fix_crc(b + at, size);
        at += size;
    }
}

#define MAX_PACKETS 4096
typedef struct Packet {
    uint32_t at, len; /* in the reassembled bytes */
    uint64_t granule; /* of the page the packet ends on */
    bool page_end;    /* the last packet to end on its page */
} Packet;

typedef struct Stream {
    uint8_t *bytes; /* the packets, back to back */
    uint32_t len, count, serial;
    Packet packets[MAX_PACKETS];
} Stream;

/* The stream's packets, or false when the pages are not whole and in order. */
static bool split(const uint8_t *b, size_t n, Stream *s) {
    s->len = s->count = 0;
    bool open = false;
    for (size_t at = 0; at < n;) {
        if (n - at < 27 || memcmp(b + at, "OggS", 4)) return false;
        const uint8_t *p = b + at, *body = p + 27 + p[26];
        size_t size = 27 + p[26];
        if (n - at < size) return false;
        for (uint32_t i = 0; i < p[26]; i++) size += p[27 + i];
        if (n - at < size) return false;
        if (at == 0) s->serial = rd32(p + 14);
        uint64_t granule = rd32(p + 6) | (uint64_t)rd32(p + 10) << 32;
        int last_on_page = -1;
        for (uint32_t i = 0; i < p[26]; i++) {
            if (!open) {
                if (s->count == MAX_PACKETS) return false;
                s->packets[s->count++] = (Packet){.at = s->len};
                open = true;
            }
            memcpy(s->bytes + s->len, body, p[27 + i]);
            s->len += p[27 + i], body += p[27 + i];
            s->packets[s->count - 1].len += p[27 + i];
            if (p[27 + i] < 255) {
                open = false;
                s->packets[s->count - 1].granule = granule;
                last_on_page = (int)s->count - 1;
            }
        }
        if (last_on_page >= 0) s->packets[last_on_page].page_end = true;
        at += size;
    }
    if (open) s->count--; /* a packet the stream never finished */
    return s->count > 0;
}

/* The packets as pages again: a new page after the identification header, after the
   setup header and wherever a page ended before; lacing, flags and CRCs made right. */
static size_t join(const Stream *s, uint8_t *out, size_t cap) {
    size_t o = 0;
    uint32_t seq = 0, k = 0, done = 0; /* packet k, `done` of its bytes already paged */
    while (k < s->count) {
        if (cap - o < 27 + 255) return 0;
        uint8_t *page = out + o, *lacing = page + 27;
        uint32_t segs = 0, body = 0;
        bool continued = done > 0;
        uint64_t granule = ~0ull;
        while (k < s->count && segs < 255) {
            const Packet *pk = &s->packets[k];
            uint32_t left = pk->len - done, take = left < 255 ? left : 255;
            if (cap - o < 27 + 255 + body + take) return 0;
            lacing[segs++] = (uint8_t)take;
            memcpy(page + 27 + 255 + body, s->bytes + pk->at + done, take); /* moved down below */
            body += take, done += take;
            if (take == 255 && done == pk->len) {
                /* A length that is a multiple of 255 ends with a lacing value of 0, on the
                   next page if this one is full. */
                if (segs == 255) break;
                lacing[segs++] = 0;
            } else if (take == 255) {
                continue;
            }
            granule = pk->granule;
            bool flush = k == 0 || k == 2 || pk->page_end;
            k++, done = 0;
            if (flush) break;
        }
        memmove(page + 27 + segs, page + 27 + 255, body);
        memcpy(page, "OggS", 4);
        page[4] = 0;
        page[5] = (uint8_t)((continued ? 1 : 0) | (seq == 0 ? 2 : 0) |
                            (k == s->count && done == 0 ? 4 : 0));
        for (int i = 0; i < 8; i++) page[6 + i] = (uint8_t)(granule >> 8 * i);
        for (int i = 0; i < 4; i++) page[14 + i] = (uint8_t)(s->serial >> 8 * i);
        for (int i = 0; i < 4; i++) page[18 + i] = (uint8_t)(seq >> 8 * i);
        page[26] = (uint8_t)segs;
        size_t size = 27 + segs + body;
        fix_crc(page, size);
        o += size, seq++;
    }
    return o;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    rnd_state = seed | 1;
    bool ogg = size >= 4 && !memcmp(data, "OggS", 4);
    if (!ogg || rnd() % 4 == 0) {
        size = LLVMFuzzerMutate(data, size, max_size);
        if (size >= 4 && !memcmp(data, "OggS", 4)) fix_crcs(data, size);
        return size;
    }
    static Stream s;
    static uint8_t packet_bytes[1 << 20], scratch[1 << 20];
    s.bytes = packet_bytes;
    if (max_size > sizeof scratch || !split(data, size, &s)) {
        size = LLVMFuzzerMutate(data, size, max_size);
        fix_crcs(data, size);
        return size;
    }
    /* Which packet: a header half the time (the setup most), else any. */
    uint32_t r = rnd() % 8, k = r < 1 ? 0 : r < 2 ? 1 : r < 4 ? 2 : rnd() % s.count;
    if (k >= s.count) k = s.count - 1;
    Packet *pk = &s.packets[k];
    /* The packet moves to the end of the bytes, where it may grow. */
    uint32_t room = (uint32_t)(sizeof packet_bytes - s.len);
    uint32_t grow = pk->len + 64 < room ? pk->len + 64 : room;
    memmove(s.bytes + s.len, s.bytes + pk->at, pk->len);
    pk->at = s.len;
    pk->len = (uint32_t)LLVMFuzzerMutate(s.bytes + pk->at, pk->len, grow);
    s.len += pk->len;
    size_t n = join(&s, scratch, max_size);
    if (n == 0) return LLVMFuzzerMutate(data, size, max_size);
    memcpy(data, scratch, n);
    return n;
}
