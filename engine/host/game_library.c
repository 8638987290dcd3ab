/* game_library.c - a game library's ELF file and its table, checked before either is used.

   The file is read field by field with memcpy (the bytes may sit at any alignment) and
   every offset + size is compared in a form that cannot wrap. The table is compared as
   addresses (uintptr_t) against the segments the loader mapped, and read only once the
   whole GameApi is known to lie inside one of them. */
#include <strata/host/game_library.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ELF's headers, where the platform has them (Linux, and the web build's libc); elsewhere
   (Windows' DLLs are PE files) every library is refused as one this checker cannot read. */
#if defined(__has_include)
#if __has_include(<elf.h>)
#define LIB_ELF 1
#endif
#endif

/* A library's address span; far beyond any game library, and keeps every sum below in range. */
#define LIB_SPAN_MAX (1ull << 32)

/* The reason, as the message alone (no path: the caller names the file). */
static bool refuse(Error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(Error *err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(err, ERROR_REFUSED, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return false;
}

/* [off, off + size) inside len bytes, without wrapping. */
static bool inside(uint64_t off, uint64_t size, uint64_t len) { return off <= len && size <= len - off; }

#if LIB_ELF
#include <elf.h>

#if UINTPTR_MAX > 0xFFFFFFFFu
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Phdr Phdr;
typedef Elf64_Shdr Shdr;
#define LIB_CLASS ELFCLASS64
#else
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Phdr Phdr;
typedef Elf32_Shdr Shdr;
#define LIB_CLASS ELFCLASS32
#endif

#if defined(__x86_64__)
#define LIB_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define LIB_MACHINE EM_AARCH64
#elif defined(__i386__)
#define LIB_MACHINE EM_386
#elif defined(__arm__)
#define LIB_MACHINE EM_ARM
#elif defined(__riscv)
#define LIB_MACHINE EM_RISCV
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LIB_DATA ELFDATA2LSB
#else
#define LIB_DATA ELFDATA2MSB
#endif

static uint32_t segment_flags(uint32_t p_flags) {
    return (p_flags & PF_R ? GAME_LIBRARY_READ : 0) | (p_flags & PF_W ? GAME_LIBRARY_WRITE : 0) |
           (p_flags & PF_X ? GAME_LIBRARY_EXEC : 0);
}

/* The header's own fields: what kind of file this is. */
static bool check_header(const uint8_t *b, uint64_t len, Ehdr *eh, Error *err) {
    if (len == 0) return refuse(err, "the file is empty (still being written?)");
    if (len < SELFMAG && memcmp(b, ELFMAG, len) == 0)
        return refuse(err, "cut short: %llu bytes, less than an ELF header", (unsigned long long)len);
    if (len < SELFMAG || memcmp(b, ELFMAG, SELFMAG) != 0)
        return refuse(err, "not an ELF file (%llu bytes, no \\177ELF at the start)", (unsigned long long)len);
    if (len < sizeof *eh)
        return refuse(err, "cut short: %llu bytes, less than an ELF header (%zu)", (unsigned long long)len, sizeof *eh);
    memcpy(eh, b, sizeof *eh);
    if (eh->e_ident[EI_CLASS] != LIB_CLASS || eh->e_ident[EI_DATA] != LIB_DATA)
        return refuse(err, "an ELF file of another word size or byte order than this machine's");
    if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
        return refuse(err, "an ELF file of unknown version %u", (unsigned)eh->e_version);
    if (eh->e_type != ET_DYN) return refuse(err, "not a shared library (ELF type %u)", (unsigned)eh->e_type);
#ifdef LIB_MACHINE
    if (eh->e_machine != LIB_MACHINE)
        return refuse(err, "built for another machine (ELF machine %u, this one is %u)", (unsigned)eh->e_machine,
                      (unsigned)LIB_MACHINE);
#endif
    if (eh->e_phnum == 0 || eh->e_phentsize != sizeof(Phdr))
        return refuse(err, "no program headers of this machine's size (%u of %u bytes)", (unsigned)eh->e_phnum,
                      (unsigned)eh->e_phentsize);
    if (eh->e_shnum == 0 && eh->e_shoff != 0)
        return refuse(err, "more sections than an ELF header counts (extended numbering)");
    if (eh->e_shnum != 0 && eh->e_shentsize != sizeof(Shdr))
        return refuse(err, "section headers of %u bytes, this machine's are %zu", (unsigned)eh->e_shentsize,
                      sizeof(Shdr));
    return true;
}

/* How many bytes the headers describe: the first check on every file, so that a cut file,
   the common case (a build still writing it), says so rather than what the cut broke. */
static uint64_t described_extent(const uint8_t *b, uint64_t len, const Ehdr *eh) {
    uint64_t end = sizeof *eh;
    uint64_t ph = (uint64_t)eh->e_phnum * sizeof(Phdr), sh = (uint64_t)eh->e_shnum * sizeof(Shdr);
    /* A table whose own end wraps describes more than any file. */
    if (eh->e_phoff > UINT64_MAX - ph || (eh->e_shnum && eh->e_shoff > UINT64_MAX - sh)) return UINT64_MAX;
    if (eh->e_phoff + ph > end) end = eh->e_phoff + ph;
    if (eh->e_shnum && eh->e_shoff + sh > end) end = eh->e_shoff + sh;
    if (inside(eh->e_phoff, ph, len)) {
        for (uint32_t i = 0; i < eh->e_phnum; i++) {
            Phdr p;
            memcpy(&p, b + eh->e_phoff + (uint64_t)i * sizeof p, sizeof p);
            if (p.p_type == PT_NULL) continue;
            if (p.p_offset > UINT64_MAX - p.p_filesz) return UINT64_MAX;
            if (p.p_offset + p.p_filesz > end) end = p.p_offset + p.p_filesz;
        }
    }
    if (eh->e_shnum && inside(eh->e_shoff, sh, len)) {
        for (uint32_t i = 0; i < eh->e_shnum; i++) {
            Shdr s;
            memcpy(&s, b + eh->e_shoff + (uint64_t)i * sizeof s, sizeof s);
            if (s.sh_type == SHT_NOBITS || s.sh_type == SHT_NULL) continue;
            if (s.sh_offset > UINT64_MAX - s.sh_size) return UINT64_MAX;
            if (s.sh_offset + s.sh_size > end) end = s.sh_offset + s.sh_size;
        }
    }
    return end;
}

bool st_game_library_check_file(const uint8_t *b, uint64_t len, GameLibraryImage *img, Error *err) {
    *img = (GameLibraryImage){0};
    Ehdr eh;
    if (!b) len = 0;
    if (!check_header(b, len, &eh, err)) return false;
    uint64_t extent = described_extent(b, len, &eh);
    if (extent > len) {
        if (extent == UINT64_MAX) return refuse(err, "its headers describe more bytes than any file holds");
        return refuse(err, "cut short: %llu of %llu bytes (still being written?)", (unsigned long long)len,
                      (unsigned long long)extent);
    }
    bool dynamic = false;
    uint64_t dyn_off = 0, dyn_size = 0;
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        Phdr p;
        memcpy(&p, b + eh.e_phoff + (uint64_t)i * sizeof p, sizeof p);
        if (p.p_type == PT_DYNAMIC) {
            dynamic = true;
            dyn_off = p.p_offset, dyn_size = p.p_filesz;
        }
        if (p.p_type != PT_LOAD) continue;
        if (img->count == GAME_LIBRARY_MAX_SEGMENTS)
            return refuse(err, "more than %d loadable segments", GAME_LIBRARY_MAX_SEGMENTS);
        if (p.p_memsz == 0 || p.p_filesz > p.p_memsz)
            return refuse(err, "loadable segment %u holds %llu bytes of the file in %llu of memory", img->count,
                          (unsigned long long)p.p_filesz, (unsigned long long)p.p_memsz);
        if (p.p_align > 1 && ((p.p_align & (p.p_align - 1)) || (p.p_vaddr - p.p_offset) % p.p_align))
            return refuse(err, "loadable segment %u is not aligned as it says (%llu)", img->count,
                          (unsigned long long)p.p_align);
        if (!inside(p.p_vaddr, p.p_memsz, LIB_SPAN_MAX))
            return refuse(err, "loadable segment %u lies beyond %llu bytes of addresses", img->count,
                          (unsigned long long)LIB_SPAN_MAX);
        if (img->count && p.p_vaddr < img->segments[img->count - 1].vaddr + img->segments[img->count - 1].memsz)
            return refuse(err, "loadable segment %u overlaps the one before it, or comes before it", img->count);
        img->segments[img->count++] = (GameLibrarySegment){.vaddr = p.p_vaddr,
                                                           .memsz = p.p_memsz,
                                                           .offset = p.p_offset,
                                                           .filesz = p.p_filesz,
                                                           .flags = segment_flags(p.p_flags)};
    }
    if (!img->count) return refuse(err, "no loadable segments");
    if (!dynamic) return refuse(err, "no dynamic section: nothing can be looked up in it");
    bool dyn_loaded = false;
    for (uint32_t i = 0; i < img->count; i++) {
        const GameLibrarySegment *s = &img->segments[i];
        dyn_loaded |= dyn_off >= s->offset && inside(dyn_off - s->offset, dyn_size, s->filesz);
    }
    if (!dyn_loaded) return refuse(err, "its dynamic section lies outside its loadable segments");
    img->extent = extent;
    return true;
}
#else
bool st_game_library_check_file(const uint8_t *b, uint64_t len, GameLibraryImage *img, Error *err) {
    (void)b, (void)len;
    *img = (GameLibraryImage){0};
    return refuse(err, "not an ELF shared library this build can check (game libraries are Linux's)");
}
#endif

GameLibraryMap st_game_library_map(const GameLibraryImage *img, uintptr_t base) {
    GameLibraryMap map = {0};
    for (uint32_t i = 0; i < img->count && i < GAME_LIBRARY_MAX_SEGMENTS; i++) {
        const GameLibrarySegment *s = &img->segments[i];
        if (s->vaddr > UINTPTR_MAX - base || s->memsz > UINTPTR_MAX - base - s->vaddr) continue;
        map.ranges[map.count++] =
            (GameLibraryRange){base + (uintptr_t)s->vaddr, base + (uintptr_t)(s->vaddr + s->memsz), s->flags};
    }
    return map;
}

bool st_game_library_holds(const GameLibraryMap *map, const void *p, uint64_t n, uint32_t flags) {
    uintptr_t a = (uintptr_t)p;
    for (uint32_t i = 0; i < map->count; i++) {
        const GameLibraryRange *r = &map->ranges[i];
        if ((r->flags & flags) == flags && a >= r->lo && a < r->hi && n <= r->hi - a) return true;
    }
    return false;
}

/* refuse, for the table's checks, whose answer is a verdict. */
#define TABLE_REFUSE(err, ...) (refuse((err), __VA_ARGS__), GAME_LIBRARY_REFUSED)

/* An entry of the table: there, and inside the library's code. */
static bool check_entry(const GameLibraryMap *map, const char *name, const void *fn_bytes, Error *err) {
    uintptr_t a;
    memcpy(&a, fn_bytes, sizeof a); /* a function pointer, as an address */
    if (!a) return refuse(err, "its table's entry '%s' is NULL", name);
    if (!st_game_library_holds(map, (const void *)a, 1, GAME_LIBRARY_EXEC))
        return refuse(err, "its table's entry '%s' (%#llx) is not in the library's code", name, (unsigned long long)a);
    return true;
}

/* A string of the table: inside the library's data, NUL-terminated there, 1..max printable
   bytes (newlines too where `lines`). */
static bool check_string(const GameLibraryMap *map, const char *name, const char *s, uint64_t max, bool lines,
                         Error *err) {
    if (!s || !st_game_library_holds(map, s, 1, GAME_LIBRARY_READ))
        return refuse(err, "its %s (%p) is not in the library's data", name, (const void *)s);
    uint64_t n = 0;
    while (n <= max && st_game_library_holds(map, s + n, 1, GAME_LIBRARY_READ) && s[n]) {
        bool ok = (s[n] >= 0x20 && s[n] <= 0x7E) || (lines && s[n] == '\n');
        if (!ok) return refuse(err, "its %s holds byte %#x", name, (unsigned)(uint8_t)s[n]);
        n++;
    }
    if (n > max || n == 0 || !st_game_library_holds(map, s + n, 1, GAME_LIBRARY_READ))
        return refuse(err, "its %s is not a string of 1 to %llu characters inside the library", name,
                      (unsigned long long)max);
    return true;
}

/* The game's options: an array inside the library's data, each name a short string there. */
static bool check_options(const GameApi *api, const GameLibraryMap *map, Error *err) {
    if (api->option_count < 0 || api->option_count > GAME_LIBRARY_OPTIONS_MAX)
        return refuse(err, "its table has %d options (0 to %d)", api->option_count, GAME_LIBRARY_OPTIONS_MAX);
    if (api->option_count == 0) return true;
    const CliOption *o = api->options;
    if (!o || (uintptr_t)o % _Alignof(CliOption) ||
        !st_game_library_holds(map, o, sizeof *o * (uint64_t)api->option_count, GAME_LIBRARY_READ))
        return refuse(err, "its options (%p) are not in the library's data", (const void *)o);
    for (int32_t i = 0; i < api->option_count; i++) {
        if (!check_string(map, "option name", o[i].name, 64, false, err)) return false;
        if (o[i].needs < 0 || o[i].needs > api->option_count || o[i].alias_of < 0 || o[i].alias_of > api->option_count)
            return refuse(err, "its option %s names an option it does not have", o[i].name);
        if (o[i].arg == CLI_WORD) {
            const char *const *w = o[i].words;
            int k = 0;
            for (; k < 16 && w && st_game_library_holds(map, &w[k], sizeof w[k], GAME_LIBRARY_READ) && w[k]; k++)
                if (!check_string(map, "option word", w[k], 64, false, err)) return false;
            if (!w || k == 16 || !st_game_library_holds(map, &w[k], sizeof w[k], GAME_LIBRARY_READ))
                return refuse(err, "its option %s has no word list inside the library", o[i].name);
        }
    }
    return true;
}

GameLibraryVerdict st_game_library_check_table(const GameApi *api, const GameLibraryMap *map, uint32_t version,
                                               uint64_t layout_hash, bool any_layout, Error *err) {
    if (!api) return TABLE_REFUSE(err, "it has no " GAME_API_SYMBOL " table");
    if ((uintptr_t)api % _Alignof(GameApi) || !st_game_library_holds(map, api, sizeof *api, GAME_LIBRARY_READ))
        return TABLE_REFUSE(err, "its " GAME_API_SYMBOL " table (%p) is not in the library's data", (const void *)api);
    if (api->version != version)
        return TABLE_REFUSE(err, "its table is version %u, the host's is %u", api->version, version);
    if (!any_layout && api->layout_hash != layout_hash) {
        refuse(err, "the layout of the game's state changed (%016llx, the game running has %016llx)",
               (unsigned long long)api->layout_hash, (unsigned long long)layout_hash);
        return GAME_LIBRARY_LAYOUT;
    }
    /* Each entry by name, so the message says which. */
#define ENTRY(f) \
    { #f, &api->f }
    const struct {
        const char *name;
        const void *at;
    } entries[] = {ENTRY(parse),  ENTRY(create), ENTRY(start),    ENTRY(frame),   ENTRY(tick),     ENTRY(draw),
                   ENTRY(report), ENTRY(notice), ENTRY(reloaded), ENTRY(restart), ENTRY(describe), ENTRY(release)};
#undef ENTRY
    _Static_assert((sizeof(GameApi) - offsetof(GameApi, parse)) / sizeof(void (*)(void)) == 12,
                   "a GameApi entry was added: name it in entries[]");
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (!check_entry(map, entries[i].name, entries[i].at, err)) return GAME_LIBRARY_REFUSED;
    const struct {
        const char *name, *s;
        uint64_t max;
        bool lines;
    } strings[] = {{"build name", api->build, GAME_LIBRARY_BUILD_MAX, false},
                   {"name", api->name, 64, false},
                   {"title", api->title, 128, false},
                   {"version", api->version_text, 64, false},
                   {"usage", api->usage, 4096, true},
                   {"help", api->help, 16384, true}};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if (!check_string(map, strings[i].name, strings[i].s, strings[i].max, strings[i].lines, err))
            return GAME_LIBRARY_REFUSED;
    if (!check_options(api, map, err)) return GAME_LIBRARY_REFUSED;
    return GAME_LIBRARY_OK;
}
