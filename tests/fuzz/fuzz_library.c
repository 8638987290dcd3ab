/* fuzz_library.c - libFuzzer target for the game library checks (game_library.h), the ones
   the host runs before the dynamic loader maps a hot-reloaded library and before it calls
   any entry of the library's table. An input is one of two things:

   - anything but a leading 'T': a library file, through st_game_library_check_file. When it
     is accepted, the image keeps every promise the loader relies on, checked here from the
     file's own program headers: each loadable segment's bytes inside the file, no more of
     them than of its memory, the segments in address order without overlap, the dynamic
     section inside one of them, and the headers' extent inside the file; the same bytes
     cut to one byte short of that extent, or to half of it, are refused as cut short;
     st_game_library_map places every segment.
   - 'T' and a table case: a fake library in a 64 KiB buffer of ASan-guarded heap (up to
     four ranges of it, with their flags), and a GameApi somewhere in it or at a wild
     address, its entries and build name pointing into the buffer, just past it, or
     anywhere. st_game_library_check_table must give exactly the verdict this file works out
     on its own from the ranges (a table it calls sound is sound, and the other way round),
     and it reads nothing outside the ranges (the buffer's ends are ASan's redzones).

   Either way a refusal says why in printable text that fits its buffer, and the same input
   gives the same answer twice. A broken promise traps, which libFuzzer reports as a crash
   with the input saved. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include <strata/host/game_library.h>
#include "fuzz.h"

#define FAKE_BYTES 65536u
#define FAKE_HASH 0x0123456789abcdefull

/* A refusal: ERROR_REFUSED, its message printable text that ends inside the Error. */
static void check_why(const Error *e) {
    PROMISE(e->code == ERROR_REFUSED);
    size_t n = strnlen(e->message, sizeof e->message);
    PROMISE(n > 0 && n < sizeof e->message);
    for (size_t i = 0; i < n; i++) PROMISE(e->message[i] >= 0x20 && e->message[i] < 0x7F);
}

/* ---- Files */

static void fuzz_file(const uint8_t *data, size_t size) {
    GameLibraryImage img, again;
    Error e, e2;
    memset(&e, 0xAA, sizeof e);
    bool ok = st_game_library_check_file(data, size, &img, &e);
    PROMISE(st_game_library_check_file(data, size, &again, &e2) == ok);
    const char *why = e.message, *why2 = e2.message;
    if (!ok) {
        check_why(&e);
        PROMISE(strcmp(why, why2) == 0);
        return;
    }
    PROMISE(memcmp(&img, &again, sizeof img) == 0);
    PROMISE(img.count >= 1 && img.count <= GAME_LIBRARY_MAX_SEGMENTS && img.extent <= size);
    /* The file's own program headers, read here without the checker's help. */
    Elf64_Ehdr eh;
    PROMISE(size >= sizeof eh);
    memcpy(&eh, data, sizeof eh);
    PROMISE(eh.e_type == ET_DYN && eh.e_phentsize == sizeof(Elf64_Phdr));
    PROMISE(eh.e_phoff <= size && (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) <= size - eh.e_phoff);
    uint32_t loads = 0;
    bool dyn_inside = false;
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr p;
        memcpy(&p, data + eh.e_phoff + i * sizeof p, sizeof p);
        if (p.p_type == PT_NULL) continue;
        PROMISE(p.p_offset <= img.extent && p.p_filesz <= img.extent - p.p_offset);
        if (p.p_type != PT_LOAD) continue;
        const GameLibrarySegment *s = &img.segments[loads++];
        PROMISE(loads <= img.count && s->vaddr == p.p_vaddr && s->memsz == p.p_memsz && s->offset == p.p_offset &&
                s->filesz == p.p_filesz);
    }
    PROMISE(loads == img.count);
    for (uint32_t i = 0; i < img.count; i++) {
        const GameLibrarySegment *s = &img.segments[i];
        PROMISE(s->filesz <= s->memsz && s->memsz > 0 && s->offset <= size && s->filesz <= size - s->offset);
        if (i) PROMISE(s->vaddr >= img.segments[i - 1].vaddr + img.segments[i - 1].memsz);
    }
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr p;
        memcpy(&p, data + eh.e_phoff + i * sizeof p, sizeof p);
        if (p.p_type != PT_DYNAMIC) continue;
        for (uint32_t k = 0; k < img.count; k++) {
            const GameLibrarySegment *s = &img.segments[k];
            dyn_inside |= p.p_offset >= s->offset && p.p_offset - s->offset <= s->filesz &&
                          p.p_filesz <= s->filesz - (p.p_offset - s->offset);
        }
    }
    PROMISE(dyn_inside);
    /* Cut, it is refused: what a build still writing it would leave. */
    uint64_t cuts[2] = {img.extent - 1, img.extent / 2};
    for (int c = 0; c < 2; c++) {
        PROMISE(!st_game_library_check_file(data, cuts[c], &again, &e));
        check_why(&e);
        PROMISE(strstr(why, "cut short") || strstr(why, "empty"));
    }
    GameLibraryMap map = st_game_library_map(&img, (uintptr_t)0x7f0000000000ull);
    PROMISE(map.count == img.count);
    for (uint32_t i = 0; i < map.count; i++) PROMISE(map.ranges[i].lo < map.ranges[i].hi);
}

/* ---- Tables */

typedef struct Reader {
    const uint8_t *p;
    size_t left;
} Reader;

static uint32_t take(Reader *r, int bytes) {
    uint32_t v = 0;
    for (int i = 0; i < bytes; i++) {
        v = v << 8 | (r->left ? *r->p : 0);
        if (r->left) r->p++, r->left--;
    }
    return v;
}

/* Where a pointer of the case points: into the fake library (or a little past its end),
   or a small wild address (NULL among them). Bit 30 set: 8-byte aligned, as a real table
   would be (else the fuzzer would seldom find one). */
static uintptr_t place(uint8_t *fake, uint32_t v) {
    if (v & 0x80000000u) return (uintptr_t)(v & 0xFFFFu);
    uint32_t off = (v & 0x3FFFFFFFu) % (FAKE_BYTES + 4096);
    if (v & 0x40000000u) off &= ~7u;
    return (uintptr_t)fake + off;
}

static bool in_ranges(const GameLibraryMap *map, uintptr_t a, uint64_t n, uint32_t flags) {
    for (uint32_t i = 0; i < map->count; i++) {
        const GameLibraryRange *r = &map->ranges[i];
        if ((r->flags & flags) != flags) continue;
        bool all = true;
        for (uint64_t k = 0; k < n && all; k++) all = a + k >= r->lo && a + k < r->hi;
        if (all && n) return true;
    }
    return false;
}

/* A string of the table, worked out here: 1..max bytes of 0x20..0x7E (and '\n' where
   `lines`) inside readable ranges, then a NUL there. */
static bool string_ok(const GameLibraryMap *map, uintptr_t s, uint64_t max, bool lines) {
    for (uint64_t n = 0; n <= max; n++) {
        if (!s || !in_ranges(map, s + n, 1, GAME_LIBRARY_READ)) return false;
        uint8_t c = *(const uint8_t *)(s + n);
        if (c == 0) return n > 0;
        if ((c < 0x20 || c > 0x7E) && !(lines && c == '\n')) return false;
    }
    return false;
}

static bool options_ok(const GameLibraryMap *map, const GameApi *api) {
    if (api->option_count < 0 || api->option_count > GAME_LIBRARY_OPTIONS_MAX) return false;
    if (api->option_count == 0) return true;
    uintptr_t o = (uintptr_t)api->options;
    if (!o || o % _Alignof(CliOption) ||
        !in_ranges(map, o, sizeof(CliOption) * (uint64_t)api->option_count, GAME_LIBRARY_READ))
        return false;
    for (int32_t i = 0; i < api->option_count; i++) {
        const CliOption *op = &api->options[i];
        if (!string_ok(map, (uintptr_t)op->name, 64, false)) return false;
        if (op->needs < 0 || op->needs > api->option_count || op->alias_of < 0 || op->alias_of > api->option_count)
            return false;
        if (op->arg != CLI_WORD) continue;
        uintptr_t w = (uintptr_t)op->words;
        int k = 0;
        for (;; k++) {
            if (!w || k == 16 || !in_ranges(map, w + k * sizeof(char *), sizeof(char *), GAME_LIBRARY_READ))
                return false;
            const char *word = op->words[k];
            if (!word) break;
            if (!string_ok(map, (uintptr_t)word, 64, false)) return false;
        }
    }
    return true;
}

/* The verdict worked out here, byte by byte. */
static GameLibraryVerdict expected(const GameLibraryMap *map, uintptr_t at, uint32_t version, uint64_t hash) {
    if (!at || at % _Alignof(GameApi) || !in_ranges(map, at, sizeof(GameApi), GAME_LIBRARY_READ))
        return GAME_LIBRARY_REFUSED;
    const GameApi *api = (const GameApi *)at;
    if (api->version != version) return GAME_LIBRARY_REFUSED;
    if (api->layout_hash != hash) return GAME_LIBRARY_LAYOUT;
    for (size_t off = offsetof(GameApi, parse); off < sizeof(GameApi); off += sizeof(void (*)(void))) {
        uintptr_t f;
        memcpy(&f, (const char *)api + off, sizeof f);
        if (!f || !in_ranges(map, f, 1, GAME_LIBRARY_EXEC)) return GAME_LIBRARY_REFUSED;
    }
    bool strings =
        string_ok(map, (uintptr_t)api->build, GAME_LIBRARY_BUILD_MAX, false) &&
        string_ok(map, (uintptr_t)api->name, 64, false) && string_ok(map, (uintptr_t)api->title, 128, false) &&
        string_ok(map, (uintptr_t)api->version_text, 64, false) && string_ok(map, (uintptr_t)api->usage, 4096, true) &&
        string_ok(map, (uintptr_t)api->help, 16384, true);
    return strings && options_ok(map, api) ? GAME_LIBRARY_OK : GAME_LIBRARY_REFUSED;
}

static void fuzz_table(const uint8_t *data, size_t size) {
    static uint8_t *fake;
    if (!fake) fake = malloc(FAKE_BYTES); /* its own block: ASan guards both ends */
    Reader r = {data, size};
    GameLibraryMap map = {0};
    uint32_t ranges = 1 + take(&r, 1) % 4;
    for (uint32_t i = 0; i < ranges; i++) {
        uint32_t lo = take(&r, 2), len = take(&r, 2), flags = take(&r, 1) & 7;
        if (lo + len > FAKE_BYTES) len = FAKE_BYTES - lo;
        if (!len) continue;
        map.ranges[map.count++] = (GameLibraryRange){(uintptr_t)fake + lo, (uintptr_t)fake + lo + len, flags};
    }
    uint32_t how = take(&r, 1);
    uintptr_t at = place(fake, take(&r, 4));
    /* The bytes of the library: the rest of the input, over a background of 'x' so that
       strings end only where the input says. */
    memset(fake, 'x', FAKE_BYTES);
    memcpy(fake, r.p, r.left < FAKE_BYTES ? r.left : FAKE_BYTES);
    uint32_t version = GAME_API_VERSION;
    uint64_t hash = FAKE_HASH;
    /* A table inside the buffer gets its fields from the case: the version and hash right
       or wrong, each pointer placed. */
    if (at >= (uintptr_t)fake && at + sizeof(GameApi) <= (uintptr_t)fake + FAKE_BYTES && at % _Alignof(GameApi) == 0) {
        GameApi api;
        memcpy(&api, (const void *)at, sizeof api);
        api.version = how & 1 ? version + 1 : version;
        api.layout_hash = how & 2 ? hash ^ 1 : hash;
        /* The strings and the option table placed, the count small; then every entry. */
        const char **strs[] = {&api.build, &api.name, &api.title, &api.version_text, &api.usage, &api.help};
        for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
            uintptr_t q = place(fake, take(&r, 4));
            memcpy(strs[i], &q, sizeof q);
        }
        uintptr_t q = place(fake, take(&r, 4));
        memcpy(&api.options, &q, sizeof q);
        api.option_count = (int32_t)((how >> 2) % 4) - (how & 0x80 ? 4 : 0);
        for (size_t off = offsetof(GameApi, parse); off < sizeof api; off += sizeof(void (*)(void))) {
            uintptr_t f = place(fake, take(&r, 4));
            memcpy((char *)&api + off, &f, sizeof f);
        }
        memcpy((void *)at, &api, sizeof api);
    }
    Error e;
    memset(&e, 0xAA, sizeof e);
    GameLibraryVerdict v = st_game_library_check_table((const GameApi *)at, &map, version, hash, false, &e);
    PROMISE(v == expected(&map, at, version, hash));
    if (v != GAME_LIBRARY_OK) check_why(&e);
    PROMISE(st_game_library_check_table((const GameApi *)at, &map, version, hash, false, &e) == v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 1 && data[0] == 'T') fuzz_table(data + 1, size - 1);
    else fuzz_file(data, size);
    return 0;
}
