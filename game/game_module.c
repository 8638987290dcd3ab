/* game_module.c - the linked-in table, or a shared library copied, loaded and checked. */
#include "game_module.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include "core/os_file.h"
#include "core/str8.h"
#include "game_layout.h"

#define GAME_MODULE_MAX_BYTES (256ull << 20)

/* The table in the library at m->path, or NULL with m->message saying why. */
static const GameApi *game_module_load(GameModule *m, bool *layout_changed) {
    *layout_changed = false;
    /* A copy under a name of its own: the build replaces the original while the game runs,
       and a loader asked for a path it has loaded before hands back the old library. */
    char copy[1024];
    int len = snprintf(copy, sizeof copy, "%s.hot-%ld-%u", m->path, (long)getpid(), m->loads + 1);
    if (len < 0 || (size_t)len >= sizeof copy) { /* a cut name could be the original's */
        snprintf(m->message, sizeof m->message, "%s: the path is too long", m->path);
        return NULL;
    }
    {
        SCRATCH_SCOPE(tmp);
        Str8 bytes;
        OsReadResult r = os_read_file(tmp.arena, m->path, GAME_MODULE_MAX_BYTES, &bytes);
        char why[160];
        if (r.status != OS_READ_OK) {
            snprintf(m->message, sizeof m->message, "%s: %s", m->path,
                     os_read_describe(r, why, sizeof why));
            return NULL;
        }
        if (!os_write_file_atomic(copy, bytes.data, bytes.len, why, sizeof why)) {
            snprintf(m->message, sizeof m->message, "%s: cannot copy it: %s", m->path, why);
            return NULL;
        }
    }
    void *lib = SDL_LoadObject(copy);
    os_remove(copy); /* the loader has it mapped; the name is not needed */
    if (!lib) {
        snprintf(m->message, sizeof m->message, "%s: %s", m->path, SDL_GetError());
        return NULL;
    }
    const GameApi *(*get)(void) = NULL;
    void *sym = SDL_LoadFunction(lib, GAME_API_SYMBOL);
    memcpy(&get, &sym, sizeof sym); /* object to function pointer, defined by POSIX */
    const GameApi *api = get ? get() : NULL;
    const char *refused = NULL;
    char why[160];
    if (!api) {
        refused = "it has no " GAME_API_SYMBOL " table";
    } else if (api->version != GAME_API_VERSION) {
        snprintf(why, sizeof why, "its table is version %u, the game's is %u", api->version,
                 GAME_API_VERSION);
        refused = why;
    } else if (api->layout_hash != GAME_LAYOUT_HASH) {
        snprintf(why, sizeof why,
                 "the layout of the game's state changed (%016llx, the game has %016llx)",
                 (unsigned long long)api->layout_hash, (unsigned long long)GAME_LAYOUT_HASH);
        refused = why;
        *layout_changed = true;
    }
    if (refused) {
        snprintf(m->message, sizeof m->message, "%s: not loaded: %s", m->path, refused);
        SDL_UnloadObject(lib); /* nothing of it was used */
        return NULL;
    }
    m->loads++;
    /* When the build wrote it: what a developer looks for to know which change is in. */
    time_t t = (time_t)(os_file_info(m->path).mtime_ns / 1000000000);
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(m->built, sizeof m->built, "%H:%M:%S", &tm))
        snprintf(m->built, sizeof m->built, "?");
    snprintf(m->message, sizeof m->message, "game code %s from %s (%u): %s, built %s",
             m->loads == 1 ? "loaded" : "reloaded", m->path, m->loads, api->build, m->built);
    return api;
}

static GameModuleEvent game_module_take(GameModule *m) {
    bool layout_changed;
    const GameApi *api = game_module_load(m, &layout_changed);
    if (!api) return layout_changed ? GAME_MODULE_LAYOUT_CHANGED : GAME_MODULE_REFUSED;
    m->api = api;
    return GAME_MODULE_SWAPPED;
}

bool game_module_open(GameModule *m, Arena *perm, const char *path) {
    *m = (GameModule){.api = game_api(), .polls = GAME_MODULE_POLL_FRAMES};
    if (!path) return true;
    /* A name without a '/' would send the loader to the system's library folders. */
    m->path = strchr(path, '/') ? arena_strdup(perm, path) : str8_fmt(perm, "./%s", path).data;
    if (!m->path) {
        snprintf(m->message, sizeof m->message, "%s: out of memory", path);
        return false;
    }
    OsFileInfo fi = os_file_info(m->path);
    m->mtime_ns = m->seen_mtime_ns = fi.mtime_ns;
    m->size = m->seen_size = fi.size;
    return game_module_take(m) == GAME_MODULE_SWAPPED;
}

GameModuleEvent game_module_reload(GameModule *m) {
    if (!m->path) return GAME_MODULE_SAME;
    return game_module_take(m);
}

GameModuleEvent game_module_poll(GameModule *m) {
    if (!m->path || --m->polls > 0) return GAME_MODULE_SAME;
    m->polls = GAME_MODULE_POLL_FRAMES;
    OsFileInfo fi = os_file_info(m->path);
    if (fi.kind != OS_FILE_REGULAR) return GAME_MODULE_SAME; /* mid-rebuild: not there yet */
    bool settled = fi.mtime_ns == m->seen_mtime_ns && fi.size == m->seen_size;
    m->seen_mtime_ns = fi.mtime_ns;
    m->seen_size = fi.size;
    if (!settled || (fi.mtime_ns == m->mtime_ns && fi.size == m->size)) return GAME_MODULE_SAME;
    m->mtime_ns = fi.mtime_ns;
    m->size = fi.size;
    return game_module_take(m);
}
