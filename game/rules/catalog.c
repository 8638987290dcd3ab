/* catalog.c - the levels of a folder, for the menus (see catalog.h). */
#include "rules/catalog.h"

#include <stdio.h>
#include <string.h>

#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include "level/level_load.h"

int32_t catalog_file_number(const char *path) {
    if (!path) return 0;
    const char *base = st_path_base_name(st_str8_cstr(path)).data;
    int32_t n = 0, digits = 0;
    while (base[digits] >= '0' && base[digits] <= '9' && digits < 4) n = n * 10 + (base[digits++] - '0');
    return digits > 0 && (base[digits] == '-' || base[digits] == '_' || base[digits] == '.') ? n : 0;
}

/* One level's facts, from a load into `room`: level_load owns the arena it is given (it
   clears it first, as it does the level arena), so it gets one of its own, not a scratch
   arena that others' scopes share. */
static void describe(CatalogLevel *out, Arena *room, const char *path) {
    Level lv;
    Error err;
    out->number = catalog_file_number(out->file);
    if (!level_load(&lv, room, path, &err)) {
        out->broken = true;
        snprintf(out->label, sizeof out->label, "%.*s", (int)sizeof out->label - 1, out->file);
        return;
    }
    for (int32_t i = 0; i < lv.pickup_count; i++) out->coins += lv.pickups[i].kind == PICKUP_COIN;
    if (out->number > 0) snprintf(out->label, sizeof out->label, "%d. %s", out->number, lv.name);
    else snprintf(out->label, sizeof out->label, "%s", lv.name);
}

bool catalog_scan(Catalog *c, const char *first_level) {
    memset(c, 0, sizeof *c);
    c->scanned = true;
    Str8 dir = st_path_dir_prefix(st_str8_cstr(first_level));
    if (dir.len >= sizeof c->dir) return false;
    memcpy(c->dir, dir.data, dir.len);
    SCRATCH_SCOPE(tmp);
    OsDirList list;
    if (!st_os_list_dir(tmp.arena, c->dir[0] ? c->dir : ".", &list)) return false;
    /* The first CATALOG_MAX names in name order, kept sorted as they come (the folder's own
       order is not stable, and the list must not depend on it). No qsort: glibc's takes its
       work buffer from the heap. */
    for (uint64_t i = 0; i < list.count; i++) {
        Str8 name = list.entries[i].name;
        if (!st_str8_ends_with(name, STR8_LIT(LEVEL_FILE_EXT)) || name.len >= SAVE_NAME_MAX) continue;
        if (list.entries[i].kind == OS_FILE_DIRECTORY) continue;
        int32_t at = c->count;
        while (at > 0 && strcmp(name.data, c->levels[at - 1].file) < 0) at--;
        if (at >= CATALOG_MAX) continue;
        int32_t keep = c->count < CATALOG_MAX ? c->count : CATALOG_MAX - 1;
        memmove(&c->levels[at + 1], &c->levels[at], (size_t)(keep - at) * sizeof c->levels[0]);
        memset(&c->levels[at], 0, sizeof c->levels[at]);
        memcpy(c->levels[at].file, name.data, name.len + 1);
        if (c->count < CATALOG_MAX) c->count++;
    }
    Arena *room = st_arena_create((ArenaParams){.name = "catalog"});
    char path[SIM_PATH_MAX];
    for (int32_t i = 0; i < c->count; i++) {
        if (room && catalog_path(c, i, path, sizeof path)) describe(&c->levels[i], room, path);
        else c->levels[i].broken = true;
    }
    if (room) st_arena_release(room);
    return true;
}

int32_t catalog_find(const Catalog *c, const char *file) {
    if (!file || !file[0]) return -1;
    const char *base = st_path_base_name(st_str8_cstr(file)).data;
    for (int32_t i = 0; i < c->count; i++)
        if (strcmp(c->levels[i].file, base) == 0) return i;
    return -1;
}

bool catalog_path(const Catalog *c, int32_t i, char *out, size_t cap) {
    if (i < 0 || i >= c->count) return false;
    int n = snprintf(out, cap, "%s%s", c->dir, c->levels[i].file);
    return n > 0 && (size_t)n < cap;
}
