/* level.c - lookups on a loaded level (level.h); loading it is level_load.c's. */
#include "level/level.h"

#include <stddef.h>
#include <string.h>

/* Binary search of an array sorted row-major: the readers use it on the entity lines, the
   lookups below on the loaded level. */
int64_t level_find_tile(const void *base, uint64_t count, size_t size, size_t off, int32_t tx, int32_t ty) {
    uint64_t lo = 0, hi = count;
    int64_t key = (int64_t)ty * 65536 + tx;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        const int16_t *xy = (const int16_t *)((const char *)base + mid * size + off);
        int64_t k = (int64_t)xy[1] * 65536 + xy[0];
        if (k == key) return (int64_t)mid;
        if (k < key) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

int32_t level_door_index(const Level *lv, int32_t tx, int32_t ty) {
    return (int32_t)level_find_tile(lv->doors, (uint64_t)lv->door_count, sizeof(LevelDoor), offsetof(LevelDoor, tx), tx,
                                    ty);
}

const LevelDoor *level_door_at(const Level *lv, int32_t tx, int32_t ty) {
    int32_t i = level_door_index(lv, tx, ty);
    return i < 0 ? NULL : &lv->doors[i];
}

const LevelLink *level_link_at(const Level *lv, int32_t tx, int32_t ty) {
    int64_t i =
        level_find_tile(lv->links, (uint64_t)lv->link_count, sizeof(LevelLink), offsetof(LevelLink, tx), tx, ty);
    return i < 0 ? NULL : &lv->links[i];
}

const LevelEntry *level_entry_find(const Level *lv, const char *name) {
    if (!name) return NULL;
    for (int32_t i = 0; i < lv->entry_count; i++)
        if (strcmp(lv->entries[i].name, name) == 0) return &lv->entries[i];
    return NULL;
}
