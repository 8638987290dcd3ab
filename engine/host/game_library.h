/* game_library.h - what the host checks in a game library (game_module.h) before it trusts
   it: the file's bytes before the dynamic loader maps them, and the table after it, before
   any entry is called. Pure functions over memory the caller hands in, so a fuzz target can
   call them without loading anything (tests/fuzz/library.sh).

       GameLibraryImage img;
       Error why;
       if (!st_game_library_check_file(bytes.data, bytes.len, &img, &why))
           refuse(why.message);                // "the file is cut short: ..." and the like
       ... the loader maps it; `base` is where (its first segment's address minus its vaddr):
       GameLibraryMap map = st_game_library_map(&img, base);
       GameLibraryVerdict v = st_game_library_check_table(api, &map, GAME_API_VERSION,
                                                       running->layout_hash, false, &why);
       if (v != GAME_LIBRARY_OK) refuse(why.message);  // GAME_LIBRARY_LAYOUT: only a restart takes it

   Why the file first: the loader maps the segments the headers describe straight from the
   file, and a page of a segment that lies past the end of the file is a SIGBUS on first
   touch, long after dlopen said yes. So a library is refused unless everything its headers
   describe (the program headers, the segments, the section headers and the sections) lies
   inside the bytes, it is a shared object for this machine, and its loadable segments are
   in order and do not overlap. And the table: the version and the layout hash are only its
   word; every entry is checked to point into the library's own code (the build name into
   its own data, NUL-terminated there) before the table replaces the one in use.

   What none of this is: a sandbox. dlopen runs the library's constructors (and those of
   every library it needs) before the table can be looked at, with the program's rights, and
   a table that passes is then called like the code linked in. A library given to the host
   (--hot-library, the one the build writes for hot reload) is trusted code, as a plugin of
   any native program is: these checks stop a build cut short or a mistake, not a hostile
   file. */
#ifndef GAME_LIBRARY_H
#define GAME_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/error.h>
#include <strata/host/game_api.h>

#define GAME_LIBRARY_MAX_SEGMENTS 16 /* a linker makes 4 or 5 loadable segments */
#define GAME_LIBRARY_BUILD_MAX 96    /* the longest build name taken ("game 0.1.0") */
#define GAME_LIBRARY_OPTIONS_MAX 64  /* the most options a game's table may declare */

enum { GAME_LIBRARY_READ = 1, GAME_LIBRARY_WRITE = 2, GAME_LIBRARY_EXEC = 4 };

typedef struct GameLibrarySegment {
    uint64_t vaddr, memsz;   /* where the loader puts it, relative to the library's base */
    uint64_t offset, filesz; /* where it lies in the file */
    uint32_t flags;          /* GAME_LIBRARY_READ | _WRITE | _EXEC */
} GameLibrarySegment;

/* What st_game_library_check_file found: the loadable segments, in address order, and how
   many bytes of the file the headers describe (never more than the file has). */
typedef struct GameLibraryImage {
    GameLibrarySegment segments[GAME_LIBRARY_MAX_SEGMENTS];
    uint32_t count;
    uint64_t extent;
} GameLibraryImage;

/* The segments where the loader put them: [lo, hi) in the process's addresses. */
typedef struct GameLibraryRange {
    uintptr_t lo, hi;
    uint32_t flags;
} GameLibraryRange;

typedef struct GameLibraryMap {
    GameLibraryRange ranges[GAME_LIBRARY_MAX_SEGMENTS];
    uint32_t count;
} GameLibraryMap;

typedef enum GameLibraryVerdict {
    GAME_LIBRARY_OK,
    GAME_LIBRARY_REFUSED, /* err says what is wrong */
    GAME_LIBRARY_LAYOUT,  /* a sound table for another layout of the state */
} GameLibraryVerdict;

/* True when `bytes` (len of them) are a whole shared object for this machine, with *img
   filled; false with the reason in err (no path: the caller names the file). */
bool st_game_library_check_file(const uint8_t *bytes, uint64_t len, GameLibraryImage *img, Error *err);
/* The image's segments at `base`; a segment whose addresses would wrap is left out. */
GameLibraryMap st_game_library_map(const GameLibraryImage *img, uintptr_t base);
/* The table at `api`, read only where `map` says the library is: the table itself inside a
   readable segment, then the version and the layout hash (the table running's; any, when
   `any_layout`: the first library of a host with no game of its own), then every entry,
   every string and the option table. */
GameLibraryVerdict st_game_library_check_table(const GameApi *api, const GameLibraryMap *map, uint32_t version,
                                               uint64_t layout_hash, bool any_layout, Error *err);
/* True when [p, p + n) lies inside one range of `map` that has all of `flags`. */
bool st_game_library_holds(const GameLibraryMap *map, const void *p, uint64_t n, uint32_t flags);

#endif
