/* levelcheck - validates level files and says how big the level arena must be.

       levelcheck [--level-arena BYTES] [--root DIR] FILE...

   Loads every FILE exactly as the game does (level_load_ex into a NO_CHAIN arena named
   "level" of BYTES, default LEVEL_ARENA_BYTES, with the simulation's runtime state as its
   room: sim_runtime_bytes), prints one row per level (size, entity and sign counts, bytes it needs in
   the level arena, peak scratch while loading it), then the largest
   need and a recommended LEVEL_ARENA_BYTES: the largest need plus 25%, rounded up to 64 KiB.
   It also loads what each portal and exit leads to and checks that a named entry exists
   there. Exits and links must stay inside the folder tree DIR, as they must inside the
   folder of the level that starts a run in the game (default: each FILE's own folder).
   Exit status 1 if any file is invalid or does not fit, 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path.h"
#include "core/str8.h"
#include "level.h"
#include "sim.h"

#define KIB 1024ull

/* str8_parse_size, then the range an arena can be: at least one byte, at most 1 TiB. */
static bool parse_size(const char *s, uint64_t *out) {
    uint64_t v;
    if (!str8_parse_size(str8_cstr(s), &v) || v == 0 || v > (1ull << 40)) return false;
    *out = v;
    return true;
}

static int usage(void) {
    fprintf(stderr, "usage: levelcheck [--level-arena BYTES[K|M|G]] [--root DIR] FILE...\n");
    return 2;
}

/* Loads what `target` names into `check_arena` and, if `entry` is given, looks it up. */
static bool check_target(const char *from, const char *what, const char *target, const char *entry,
                         const char *root, Arena *check_arena) {
    Level t;
    LevelError err;
    fflush(stdout); /* keep the rows and the errors in order on a terminal */
    if (!level_load_ex(&t, check_arena, target, root, NULL, &err, NULL)) {
        fprintf(stderr, "%s: error: %s leads to a level that does not load:\n  %s\n", from, what, err.message);
        return false;
    }
    if (entry && !level_entry_find(&t, entry)) {
        fprintf(stderr, "%s: error: %s names entry '%s', which %s does not have\n", from, what, entry, target);
        return false;
    }
    return true;
}

int main(int argc, char **argv) {
    uint64_t arena_bytes = LEVEL_ARENA_BYTES;
    const char *root_opt = NULL;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        const char *a = argv[first];
        if (strcmp(a, "--level-arena") == 0 && first + 1 < argc) {
            if (!parse_size(argv[++first], &arena_bytes)) return usage();
        } else if (strncmp(a, "--level-arena=", 14) == 0) {
            if (!parse_size(a + 14, &arena_bytes)) return usage();
        } else if (strcmp(a, "--root") == 0 && first + 1 < argc) {
            root_opt = argv[++first];
        } else {
            return usage();
        }
    }
    if (first >= argc) return usage();

    Arena *level_arena = arena_create((ArenaParams){.reserve_size = arena_bytes, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    /* Targets of links are only validated, so their arena may be as large as anything. */
    Arena *check_arena = arena_create((ArenaParams){.reserve_size = 1ull << 30, .flags = ARENA_FLAG_NO_CHAIN, .name = "levelcheck"});
    if (!level_arena || !check_arena) return 1;

    int w = 4; /* the file column fits the longest path, within reason */
    for (int i = first; i < argc; i++) {
        int n = (int)strlen(argv[i]);
        if (n > w) w = n < 60 ? n : 60;
    }
    printf("%-*s %11s %7s %7s %5s %5s %7s %5s %12s %12s  %s\n", w, "file", "size", "enemies", "pickups", "doors",
           "links", "entries", "signs", "level bytes", "scratch peak", "name");
    int invalid = 0, misfits = 0, files = argc - first;
    uint64_t largest = 0;
    const char *largest_path = NULL;
    for (int i = first; i < argc; i++) {
        const char *path = argv[i];
        Level lv;
        LevelError err;
        LevelLoadStats st;
        /* The run's root: --root, else the file's own folder (what the game uses when a
           run starts on this file). */
        char dir[LEVEL_PATH_MAX];
        Str8 folder = path_dir_prefix(str8_cstr(path));
        if (!folder.len) folder = STR8_LIT(".");
        snprintf(dir, sizeof dir, "%.*s", STR8_FMT(folder));
        const char *root = root_opt ? root_opt : dir;
        /* The room the game asks for, so the need is what the game's level arena holds. */
        LevelRoom room = {.bytes = sim_runtime_bytes};
        if (!level_load_ex(&lv, level_arena, path, root, &room, &err, &st)) {
            if (st.level_bytes > arena_capacity(level_arena)) {
                /* Valid, but too big: the need is known, so it still counts for the size. */
                printf("%-*s %11s %7s %7s %5s %5s %7s %5s %12llu %12llu  (does not fit)\n", w, path, "-", "-", "-", "-",
                       "-", "-", "-", (unsigned long long)st.level_bytes, (unsigned long long)st.scratch_peak);
                misfits++;
                if (st.level_bytes > largest) largest = st.level_bytes, largest_path = path;
            } else {
                invalid++;
            }
            fflush(stdout);
            fprintf(stderr, "%s\n", err.message);
            continue;
        }
        char size[32];
        snprintf(size, sizeof size, "%dx%d", lv.width, lv.height);
        printf("%-*s %11s %7d %7d %5d %5d %7d %5d %12llu %12llu  %s\n", w, path, size, lv.enemy_count, lv.pickup_count,
               lv.door_count, lv.link_count, lv.entry_count, lv.sign_count, (unsigned long long)st.level_bytes,
               (unsigned long long)st.scratch_peak, lv.name);
        if (st.level_bytes > largest) largest = st.level_bytes, largest_path = path;
        bool links_ok = true;
        for (int k = 0; k < lv.link_count; k++) {
            char what[64];
            snprintf(what, sizeof what, "the portal at %d %d", lv.links[k].tx, lv.links[k].ty);
            links_ok &= check_target(path, what, lv.links[k].target_path, lv.links[k].entry, root, check_arena);
        }
        if (lv.exit_to) links_ok &= check_target(path, "the exit", lv.exit_to, NULL, root, check_arena);
        invalid += !links_ok;
    }
    if (largest_path) {
        uint64_t rec = largest + largest / 4;
        rec = (rec + 64 * KIB - 1) / (64 * KIB) * (64 * KIB);
        printf("largest need: %llu bytes (%s)\n", (unsigned long long)largest, largest_path);
        printf("recommended LEVEL_ARENA_BYTES=%llu (largest need + 25%%, rounded up to 64 KiB)\n",
               (unsigned long long)rec);
    }
    printf("level arena: %llu bytes; ", (unsigned long long)arena_capacity(level_arena));
    if (misfits) printf("%d of %d files do not fit", misfits, files);
    else printf("every valid level fits");
    printf("\n");
    if (invalid) printf("%d of %d files invalid\n", invalid, files);
    arena_release(check_arena);
    arena_release(level_arena);
    return invalid || misfits ? 1 : 0;
}
