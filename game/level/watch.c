/* watch.c - polling a level file for changes (see watch.h). */
#include "level/watch.h"

#include <string.h>

#include <strata/core/os_file.h>

/* Looks at the file now: only a regular file counts, since only one can be loaded. */
static void watch_look(LevelWatch *w) {
    OsFileInfo fi = w->path[0] ? st_os_file_info(w->path) : (OsFileInfo){.kind = OS_FILE_NONE};
    w->exists = fi.kind == OS_FILE_REGULAR;
    w->mtime_ns = w->exists ? fi.mtime_ns : 0;
    w->size = w->exists ? fi.size : 0;
}

void watch_start(LevelWatch *w, const char *path) {
    memset(w, 0, sizeof *w);
    size_t n = path ? strlen(path) : 0;
    if (n < sizeof w->path) memcpy(w->path, path ? path : "", n + 1);
    watch_look(w);
}

bool watch_poll(LevelWatch *w) {
    w->polls++;
    bool existed = w->exists;
    int64_t mtime_ns = w->mtime_ns;
    uint64_t size = w->size;
    watch_look(w);
    if (!w->exists) return false; /* gone: nothing to load; its return is the change */
    return !existed || w->mtime_ns != mtime_ns || w->size != size;
}

bool watch_follow(LevelWatch *w, const char *path) {
    if (path && strcmp(w->path, path) == 0) return false;
    watch_start(w, path);
    return true;
}
