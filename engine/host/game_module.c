/* game_module.c - the linked-in table, or a shared library read, checked, copied and loaded. */
#include <strata/host/game_module.h>

#include <stdio.h>
#include <string.h>
#include <time.h>
#if !defined(_WIN32)
#include <dlfcn.h>
#include <unistd.h>
#endif

#include <SDL2/SDL.h>

#include <strata/core/os_file.h>
#include <strata/core/str8.h>
#include <strata/host/game_library.h>

#define GAME_MODULE_MAX_BYTES (256ull << 20)

#if defined(_WIN32)
/* A DLL's table could be checked against its PE sections as game_library.c checks an ELF
   file's; until then a Windows game runs its linked-in table, and says so when asked for a
   library. */
static const GameApi *game_module_load(GameModule *m, const OsFileInfo *expect, bool *layout_changed) {
    (void)expect;
    *layout_changed = false;
    snprintf(m->message, sizeof m->message,
             "%s: not loaded: hot reload of game code is not available on Windows (it is on Linux)", m->path);
    return NULL;
}
#else

/* The library at m->path, after its bytes passed st_game_library_check_file: loaded from a
   copy of those very bytes (so the file the loader maps is the one that was checked), its
   table checked against where the loader put it. NULL with m->message saying why. */
static const GameApi *game_module_load_bytes(GameModule *m, Str8 bytes, const GameLibraryImage *img,
                                             bool *layout_changed) {
    /* A copy under a name of its own: the build replaces the original while the game runs,
       and a loader asked for a path it has loaded before hands back the old library. */
    char copy[1024];
    Error why;
    int len = snprintf(copy, sizeof copy, "%s.hot-%ld-%u", m->path, (long)getpid(), m->loads + 1);
    if (len < 0 || (size_t)len >= sizeof copy) { /* a cut name could be the original's */
        snprintf(m->message, sizeof m->message, "%s: the path is too long", m->path);
        return NULL;
    }
    Error werr;
    if (!st_os_write_file_atomic(copy, bytes.data, bytes.len, &werr)) {
        snprintf(m->message, sizeof m->message, "%s: cannot copy it: %.200s", m->path, werr.message);
        return NULL;
    }
    void *lib = SDL_LoadObject(copy);
    if (!lib) {
        st_os_remove(copy);
        snprintf(m->message, sizeof m->message, "%s: %s", m->path, SDL_GetError());
        return NULL;
    }
    const GameApi *(*get)(void) = NULL;
    void *sym = SDL_LoadFunction(lib, GAME_API_SYMBOL);
    memcpy(&get, &sym, sizeof sym); /* object to function pointer, defined by POSIX */
    /* Where the loader put it: the object that holds the symbol must be this copy (a
       library without one of its own could hand back another's), and its base gives the
       segments' addresses. */
    Dl_info info;
    GameLibraryMap map = {0};
    bool own = sym && dladdr(sym, &info) && info.dli_fname && strcmp(info.dli_fname, copy) == 0;
    st_os_remove(copy); /* the loader has it mapped; the name is not needed */
    if (own) {
        /* dli_fbase is the start of the lowest page mapped, the first segment's page. */
        uintptr_t first = (uintptr_t)(img->segments[0].vaddr & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1));
        map = st_game_library_map(img, (uintptr_t)info.dli_fbase - first);
    }
    GameLibraryVerdict verdict = GAME_LIBRARY_REFUSED;
    const GameApi *api = NULL;
    if (!get) st_error_set(&why, ERROR_REFUSED, NULL, 0, 0, "it has no " GAME_API_SYMBOL " table");
    else if (!own || !st_game_library_holds(&map, sym, 1, GAME_LIBRARY_EXEC))
        st_error_set(&why, ERROR_REFUSED, NULL, 0, 0, "its " GAME_API_SYMBOL " is not in its own code");
    else
        verdict = st_game_library_check_table(api = get(), &map, GAME_API_VERSION, m->api ? m->api->layout_hash : 0,
                                              m->api == NULL, &why);
    if (verdict != GAME_LIBRARY_OK) {
        *layout_changed = verdict == GAME_LIBRARY_LAYOUT;
        snprintf(m->message, sizeof m->message, "%s: not loaded: %.240s", m->path, why.message);
        SDL_UnloadObject(lib); /* nothing of it was used */
        return NULL;
    }
    return api;
}

/* The table in the library at m->path, or NULL with m->message saying why. `expect`: the
   file as the watch last saw it settle, NULL to take it as it is now. */
static const GameApi *game_module_load(GameModule *m, const OsFileInfo *expect, bool *layout_changed) {
    *layout_changed = false;
    SCRATCH_SCOPE(tmp);
    OsFileInfo before = st_os_file_info(m->path);
    Str8 bytes;
    Error rerr;
    if (!st_os_read_file(tmp.arena, m->path, GAME_MODULE_MAX_BYTES, &bytes, &rerr)) {
        snprintf(m->message, sizeof m->message, "%s: %.200s", m->path, st_error_what(&rerr));
        return NULL;
    }
    if (m->after_read) m->after_read(m->hook_user, m->path);
    /* A build writes the library in pieces: bytes read while it did are a mix of two files,
       whatever the headers say. Refused, and taken once it settles again. */
    OsFileInfo after = st_os_file_info(m->path);
    bool moved = after.kind != OS_FILE_REGULAR || after.size != before.size || after.mtime_ns != before.mtime_ns ||
                 bytes.len != after.size ||
                 (expect && (expect->size != before.size || expect->mtime_ns != before.mtime_ns));
    if (moved) {
        snprintf(m->message, sizeof m->message,
                 "%s: not loaded: it changed while it was read (still being written?); trying "
                 "again when it settles",
                 m->path);
        return NULL;
    }
    GameLibraryImage img;
    if (!st_game_library_check_file((const uint8_t *)bytes.data, bytes.len, &img, &rerr)) {
        snprintf(m->message, sizeof m->message, "%s: not loaded: %.240s", m->path, rerr.message);
        return NULL;
    }
    const GameApi *api = game_module_load_bytes(m, bytes, &img, layout_changed);
    if (!api) return NULL;
    m->loads++;
    /* When the build wrote it: what a developer looks for to know which change is in. */
    time_t t = (time_t)(after.mtime_ns / 1000000000);
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(m->built, sizeof m->built, "%H:%M:%S", &tm))
        snprintf(m->built, sizeof m->built, "?");
    snprintf(m->message, sizeof m->message, "game code %s from %s (%u): %s, built %s",
             m->loads == 1 ? "loaded" : "reloaded", m->path, m->loads, api->build, m->built);
    return api;
}
#endif

static GameModuleEvent game_module_take(GameModule *m, const OsFileInfo *expect) {
    bool layout_changed;
    const GameApi *api = game_module_load(m, expect, &layout_changed);
    if (!api) return layout_changed ? GAME_MODULE_LAYOUT_CHANGED : GAME_MODULE_REFUSED;
    m->api = api;
    return GAME_MODULE_SWAPPED;
}

bool st_game_module_create(GameModule *m, Arena *perm, const GameApi *linked, const char *path) {
    *m = (GameModule){.api = linked, .polls = GAME_MODULE_POLL_FRAMES};
    if (!path) return linked != NULL;
    /* A name without a '/' would send the loader to the system's library folders. */
    m->path = strchr(path, '/') ? st_arena_strdup(perm, path) : st_str8_fmt(perm, "./%s", path).data;
    if (!m->path) {
        snprintf(m->message, sizeof m->message, "%s: out of memory", path);
        return false;
    }
    OsFileInfo fi = st_os_file_info(m->path);
    m->mtime_ns = m->seen_mtime_ns = fi.mtime_ns;
    m->size = m->seen_size = fi.size;
    return game_module_take(m, NULL) == GAME_MODULE_SWAPPED;
}

GameModuleEvent st_game_module_reload(GameModule *m) {
    if (!m->path) return GAME_MODULE_SAME;
    return game_module_take(m, NULL);
}

GameModuleEvent st_game_module_poll(GameModule *m) {
    if (!m->path || --m->polls > 0) return GAME_MODULE_SAME;
    m->polls = GAME_MODULE_POLL_FRAMES;
    OsFileInfo fi = st_os_file_info(m->path);
    if (fi.kind != OS_FILE_REGULAR) return GAME_MODULE_SAME; /* mid-rebuild: not there yet */
    bool settled = fi.mtime_ns == m->seen_mtime_ns && fi.size == m->seen_size;
    m->seen_mtime_ns = fi.mtime_ns;
    m->seen_size = fi.size;
    if (!settled || (fi.mtime_ns == m->mtime_ns && fi.size == m->size)) return GAME_MODULE_SAME;
    m->mtime_ns = fi.mtime_ns;
    m->size = fi.size;
    return game_module_take(m, &fi);
}
