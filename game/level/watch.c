/* watch.c - polling a level file for changes (see watch.h). */
#include "level/watch.h"

#include <string.h>

#include <strata/core/os_file.h>

void watch_start(LevelWatch *w, const char *path) {
    memset(w, 0, sizeof *w);
    size_t n = path ? strlen(path) : 0;
    if (n < sizeof w->path) memcpy(w->path, path ? path : "", n + 1);
    st_os_file_changed(w->path, &w->stamp);
}

bool watch_poll(LevelWatch *w) {
    w->polls++;
    return st_os_file_changed(w->path, &w->stamp); /* gone: nothing to load; its return is the change */
}

bool watch_follow(LevelWatch *w, const char *path) {
    if (path && strcmp(w->path, path) == 0) return false;
    watch_start(w, path);
    return true;
}
