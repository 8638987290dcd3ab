/* hash.h - the hashes the engine and game use, written once.

   FNV-1a 64 (Fowler-Noll-Vo): what a save file's checksum line holds and what a replay's
   final hash is built from, so its values are part of file formats and must never change.
   Feed it bytes, or integers as their 8 bytes from the lowest:

       uint64_t h = HASH_FNV1A_INIT;
       h = st_hash_fnv1a(h, text, len);          // a checksum of bytes
       h = st_hash_fnv1a_u64(h, (uint64_t)x);    // field by field, so padding never leaks in

   st_hash_mix2 scatters a pair of integers (a tile's x and y) into 32 well-mixed bits: the
   floor pattern and the screen shake use it to look random but be the same every frame.

   Header only, static inline: the mixer runs per tile per frame. */
#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A_INIT 0xcbf29ce484222325ull
#define HASH_FNV1A_PRIME 0x100000001b3ull

static inline uint64_t st_hash_fnv1a(uint64_t h, const void *data, size_t n) {
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= HASH_FNV1A_PRIME;
    }
    return h;
}

/* The 8 bytes of v, lowest first, whatever the machine's byte order. */
static inline uint64_t st_hash_fnv1a_u64(uint64_t h, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (i * 8)) & 0xff;
        h *= HASH_FNV1A_PRIME;
    }
    return h;
}

static inline uint32_t st_hash_mix2(int32_t x, int32_t y) {
    uint32_t h = (uint32_t)x * 374761393u + (uint32_t)y * 668265263u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return h ^ (h >> 16);
}

#endif
