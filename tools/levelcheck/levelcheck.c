/* levelcheck - validates level files and says how big the level arena must be.

       levelcheck [--csv] [--level-arena BYTES] [--root DIR] FILE...

   Loads every FILE exactly as the game does (level_load_ex into a NO_CHAIN arena named
   "level" of BYTES, default LEVEL_ARENA_BYTES, with the simulation's runtime state as its
   room: sim_runtime_bytes), prints one row per level (size, entity and sign counts, bytes it needs in
   the level arena, peak scratch while loading it), then the largest
   need and a recommended LEVEL_ARENA_BYTES: the largest need plus 25%, rounded up to 64 KiB.
   It also loads what each portal and exit leads to and checks that a named entry exists
   there. Exits and links must stay inside the folder tree DIR, as they must inside the
   folder of the level that starts a run in the game (default: each FILE's own folder).
   Exit status 1 if any file is invalid or does not fit, 2 on bad usage.

   --csv prints the same figures for scripts instead of the table (see CSV_HELP below): a
   header row, then one row per FILE in the order given, invalid ones included, then the
   recommendation as a comment line. Errors still go to stderr, with the same exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/core/cli.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include <strata/core/str8.h>
#include "level/level.h"
#include "level/level_load.h"
#include "rules/sim.h"

#define KIB 1024ull

#define USAGE "usage: levelcheck [--csv] [--level-arena BYTES[K|M|G]] [--root DIR] FILE...\n       levelcheck --help | --version\n"

/* The contract of --csv, printed by --help: scripts are written against this text. */
#define CSV_HELP                                                                                  \
    "--csv: CSV (RFC 4180) on stdout instead of the table:\n"                                    \
    "  file,width,height,enemies,pickups,doors,links,entries,signs,level_bytes,scratch_peak,name,status\n" \
    "  one row per FILE, in the order given. status is ok, does_not_fit (valid, but it needs\n"  \
    "  more than the level arena: level_bytes and scratch_peak are known, the rest is empty),\n" \
    "  bad_link (it loads, but a portal or its exit leads to a level or entry that is not\n"     \
    "  there) or invalid (it does not load: every figure is empty). A field holding a comma,\n"  \
    "  a double quote or a line break is quoted, its quotes doubled. level_bytes is the\n"       \
    "  level arena's need, scratch_peak the scratch used while loading, name the level's\n"     \
    "  name (UTF-8). After the rows, when any need is known, one comment line:\n"               \
    "  # recommended_level_arena_bytes=N\n"                                                     \
    "  (the largest need + 25%%, rounded up to 64 KiB). Skip lines starting with '#'.\n"          \
    "  Errors go to stderr as without --csv, and so does the exit status.\n"

static int usage(void) {
    fprintf(stderr, USAGE "levelcheck --help says more\n");
    return 2;
}

static int help(void) {
    printf(USAGE
           "Loads every FILE as the game does and prints, per level, its size, entity counts, the\n"
           "bytes it needs in the level arena and the scratch used to load it, then a recommended\n"
           "LEVEL_ARENA_BYTES. Exit status 1 if any file is invalid or does not fit, 2 on bad usage.\n"
           "  --level-arena BYTES  the level arena to load into (default %llu; K, M, G suffixes)\n"
           "  --root DIR           exits and links must stay inside DIR (default: each FILE's folder)\n"
           CSV_HELP,
           (unsigned long long)LEVEL_ARENA_BYTES);
    return 0;
}

/* One CSV field (RFC 4180): as it is, or quoted with its quotes doubled when it holds a
   comma, a quote or a line break. `sep` goes before it: ',' or 0 for the first field. */
static void csv_field(char sep, const char *s) {
    if (sep) putchar(sep);
    if (!s || !strpbrk(s, ",\"\r\n")) {
        fputs(s ? s : "", stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"') putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void csv_u64(uint64_t v) { printf(",%llu", (unsigned long long)v); }

/* The recommended LEVEL_ARENA_BYTES for the largest need: level.h's rule, which the game's
   exit report uses too. */
static uint64_t recommend(uint64_t largest) { return level_arena_recommend(largest); }

/* Loads what `target` names into `check_arena` and, if `entry` is given, looks it up. */
static bool check_target(const char *from, const char *what, const char *target, const char *entry,
                         const char *root, Arena *check_arena) {
    Level t;
    Error err;
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

enum { OPT_HELP, OPT_HELP_SHORT, OPT_VERSION, OPT_CSV, OPT_LEVEL_ARENA, OPT_ROOT, OPT_COUNT };
static const CliOption OPTS[OPT_COUNT] = {
    [OPT_HELP] = {.name = "--help", .arg = CLI_SWITCH},
    [OPT_HELP_SHORT] = {.name = "-h", .arg = CLI_SWITCH, .alias_of = OPT_HELP + 1},
    [OPT_VERSION] = {.name = "--version", .arg = CLI_SWITCH},
    [OPT_CSV] = {.name = "--csv", .arg = CLI_SWITCH},
    [OPT_LEVEL_ARENA] = {.name = "--level-arena", .arg = CLI_BYTES, .lo = 1, .hi = 1ull << 40}, /* what an arena can be */
    [OPT_ROOT] = {.name = "--root", .arg = CLI_PATH},
};

int main(int argc, char **argv) {
    CliValue v[OPT_COUNT];
    Arena *args = st_arena_create((ArenaParams){.name = "arguments"});
    if (!args || !st_os_args_utf8(args, &argc, &argv)) return 1; /* Windows: UTF-8 paths */
    const char **paths = args ? st_arena_push_array(args, const char *, (uint64_t)argc) : NULL;
    if (!paths) return 1;
    Error why;
    CliParse r = st_cli_parse(OPTS, OPT_COUNT, argc, argv, v, paths, argc, &why);
    if (r.status != CLI_OK) {
        st_diag_report(DIAG_ERROR, "levelcheck: %s", why.message);
        return usage();
    }
    if (v[OPT_HELP].given) return help();
    if (v[OPT_VERSION].given) return printf("levelcheck %s\n", AD_VERSION), 0;
    if (r.positional == 0) {
        st_diag_report(DIAG_ERROR, "levelcheck: an argument is missing: which level files?");
        return usage();
    }
    uint64_t arena_bytes = v[OPT_LEVEL_ARENA].given ? v[OPT_LEVEL_ARENA].n : LEVEL_ARENA_BYTES;
    const char *root_opt = v[OPT_ROOT].text;
    bool csv = v[OPT_CSV].given;
    int first = 0;
    argc = r.positional;
    argv = (char **)paths; /* the files, from argv[0] on */

    Arena *level_arena = st_arena_create((ArenaParams){.reserve_size = arena_bytes, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    /* Targets of links are only validated, so their arena may be as large as anything. */
    Arena *check_arena = st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .flags = ARENA_FLAG_NO_CHAIN, .name = "levelcheck"});
    if (!level_arena || !check_arena) return 1;

    int w = 4; /* the file column fits the longest path, within reason */
    for (int i = first; i < argc; i++) {
        int n = (int)strlen(argv[i]);
        if (n > w) w = n < 60 ? n : 60;
    }
    if (csv)
        printf("file,width,height,enemies,pickups,doors,links,entries,signs,level_bytes,scratch_peak,name,status\n");
    else
        printf("%-*s %11s %7s %7s %5s %5s %7s %5s %12s %12s  %s\n", w, "file", "size", "enemies", "pickups", "doors",
               "links", "entries", "signs", "level bytes", "scratch peak", "name");
    int invalid = 0, misfits = 0, files = argc - first;
    uint64_t largest = 0;
    const char *largest_path = NULL;
    for (int i = first; i < argc; i++) {
        const char *path = argv[i];
        Level lv;
        Error err;
        LevelLoadStats st;
        /* The run's root: --root, else the file's own folder (what the game uses when a
           run starts on this file). */
        char dir[LEVEL_PATH_MAX];
        Str8 folder = st_path_dir_prefix(st_str8_cstr(path));
        if (!folder.len) folder = STR8_LIT(".");
        snprintf(dir, sizeof dir, "%.*s", STR8_FMT(folder));
        const char *root = root_opt ? root_opt : dir;
        /* The room the game asks for, so the need is what the game's level arena holds. */
        LevelRoom room = {.bytes = sim_runtime_bytes};
        if (!level_load_ex(&lv, level_arena, path, root, &room, &err, &st)) {
            if (st.level_bytes > st_arena_capacity(level_arena)) {
                /* Valid, but too big: the need is known, so it still counts for the size. */
                if (csv) {
                    csv_field(0, path);
                    fputs(",,,,,,,,", stdout);
                    csv_u64(st.level_bytes);
                    csv_u64(st.scratch_peak);
                    fputs(",,does_not_fit\n", stdout);
                } else
                    printf("%-*s %11s %7s %7s %5s %5s %7s %5s %12llu %12llu  (does not fit)\n", w, path, "-", "-", "-", "-",
                       "-", "-", "-", (unsigned long long)st.level_bytes, (unsigned long long)st.scratch_peak);
                misfits++;
                if (st.level_bytes > largest) largest = st.level_bytes, largest_path = path;
            } else {
                invalid++;
                if (csv) {
                    csv_field(0, path);
                    fputs(",,,,,,,,,,,,invalid\n", stdout);
                }
            }
            fflush(stdout);
            fprintf(stderr, "%s\n", err.message);
            continue;
        }
        char size[32];
        snprintf(size, sizeof size, "%dx%d", lv.width, lv.height);
        if (!csv)
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
        if (csv) { /* after the links, so the row can say whether they lead anywhere */
            csv_field(0, path);
            printf(",%d,%d,%d,%d,%d,%d,%d,%d", lv.width, lv.height, lv.enemy_count, lv.pickup_count, lv.door_count,
                   lv.link_count, lv.entry_count, lv.sign_count);
            csv_u64(st.level_bytes);
            csv_u64(st.scratch_peak);
            csv_field(',', lv.name);
            fputs(links_ok ? ",ok\n" : ",bad_link\n", stdout);
        }
    }
    if (csv) {
        if (largest_path) printf("# recommended_level_arena_bytes=%llu\n", (unsigned long long)recommend(largest));
        st_arena_release(check_arena);
        st_arena_release(level_arena);
        return invalid || misfits ? 1 : 0;
    }
    if (largest_path) {
        uint64_t rec = recommend(largest);
        printf("largest need: %llu bytes (%s)\n", (unsigned long long)largest, largest_path);
        printf("recommended LEVEL_ARENA_BYTES=%llu (largest need + 25%%, rounded up to 64 KiB)\n",
               (unsigned long long)rec);
    }
    printf("level arena: %llu bytes; ", (unsigned long long)st_arena_capacity(level_arena));
    if (misfits) printf("%d of %d files do not fit", misfits, files);
    else printf("every valid level fits");
    printf("\n");
    if (invalid) printf("%d of %d files invalid\n", invalid, files);
    st_arena_release(check_arena);
    st_arena_release(level_arena);
    return invalid || misfits ? 1 : 0;
}
