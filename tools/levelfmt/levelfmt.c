/* levelfmt - level files in the canonical form (levels/README.md, "The canonical form").

       levelfmt [--root DIR] FILE...           print each file's canonical form
       levelfmt -w [--root DIR] FILE...        rewrite the files that are not in it
       levelfmt --check [--root DIR] FILE...   list the files that are not in it

   Each FILE is loaded exactly as the game loads it (level_load_ex, exits and links checked
   inside DIR, default the file's own folder) and written back with level_write. A file that
   does not load is reported with the loader's "path:line:col: error: ..." and never
   written. -w replaces a file only when its text changes, atomically (st_os_write_file_atomic:
   a crash leaves the old file or the new one, never a mix); through a symbolic link it
   rewrites the file the link points to. Exit status 1 when a file does not load or cannot
   be written, or, with --check, is not canonical; 2 on bad usage. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/cli.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>
#include "level/level.h"
#include "level/level_load.h"
#include "level/level_write.h"

/* What level.c reads at most: a larger file never loads, so it is never compared. */
#define LEVELFMT_MAX_FILE_BYTES (256ull << 20)

static const char usage_text[] =
    "usage: levelfmt [-w | --check] [--root DIR] FILE...\n"
    "Writes level files (.lvl) in the canonical form: the header keys in a fixed order,\n"
    "the map, then the entity lines grouped (enemy, link, entry, sign), no comments.\n"
    "\n"
    "  (no option)  print the canonical form of each FILE on stdout; with several files,\n"
    "               each is preceded by a line '==> FILE <==' and the next by a blank line\n"
    "  -w           rewrite each FILE that is not in the canonical form, atomically;\n"
    "               a file that does not load is reported and left as it was\n"
    "  --check      print the name of each FILE that is not in the canonical form;\n"
    "               exit 1 if there is one (nothing is written)\n"
    "  --root DIR   exits and links must lead inside DIR (default: each FILE's folder)\n"
    "  --help       this text; --version: the version\n"
    "  --           what follows is files, even names that start with '-'\n"
    "\n"
    "Errors are the loader's, 'path:line:col: error: ...', on stderr.\n"
    "Exit status: 0 all well, 1 a file does not load or cannot be written (or, with\n"
    "--check, is not canonical), 2 bad usage.\n";

static int usage(void) {
    fputs(usage_text, stderr);
    return 2;
}

typedef enum Mode { MODE_PRINT, MODE_WRITE, MODE_CHECK } Mode;

/* Rewrites `path` with `text` when its bytes differ. False (reported) on failure. */
static bool rewrite(Arena *tmp, const char *path, Str8 text) {
    Str8 old;
    Error why;
    if (!st_os_read_file(tmp, path, LEVELFMT_MAX_FILE_BYTES, &old, &why)) {
        st_error_report(&why);
        return false;
    }
    if (st_str8_eq(old, text)) return true;
    Error err; /* the writer replaces what a symbolic link points to */
    if (!st_os_write_file_atomic(path, text.data, text.len, &err)) {
        st_error_report(&err);
        return false;
    }
    return true;
}

enum { OPT_WRITE = CLI_OPT_VERSION + 1, OPT_CHECK, OPT_ROOT, OPT_COUNT };
static const CliOption OPTS[OPT_COUNT] = {
    CLI_STANDARD_OPTIONS,
    [OPT_WRITE] = {.name = "-w", .arg = CLI_SWITCH},
    [OPT_CHECK] = {.name = "--check", .arg = CLI_SWITCH},
    [OPT_ROOT] = {.name = "--root", .arg = CLI_PATH},
};

int main(int argc, char **argv) {
    CliValue v[OPT_COUNT];
    Arena *args = st_arena_create((ArenaParams){.name = "arguments"});
    if (!args || !st_os_args_utf8(args, &argc, &argv)) return 1; /* Windows: UTF-8 paths */
    const char **paths = args ? st_arena_push_array(args, const char *, (uint64_t)argc) : NULL;
    if (!paths) return 1;
    CliProgram prog = {"levelfmt", usage_text, NULL, OPTS, OPT_COUNT, 1, argc};
    int files, rc = st_cli_run(&prog, AD_VERSION, argc, argv, v, paths, &files);
    if (rc >= 0) return rc;
    if (v[OPT_WRITE].given && v[OPT_CHECK].given) {
        st_diag_report(DIAG_ERROR, "levelfmt: -w and --check exclude each other");
        return usage();
    }
    Mode mode = v[OPT_WRITE].given ? MODE_WRITE : v[OPT_CHECK].given ? MODE_CHECK : MODE_PRINT;
    const char *root = v[OPT_ROOT].text;
    int first = 0;
    argc = files;
    argv = (char **)paths; /* the files, from argv[0] on */

    /* Any valid level formats, however large: whether it fits the game's arena is
       levelcheck's question. */
    Arena *level_arena = st_arena_create(
        (ArenaParams){.reserve_size = 1ull << 30, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Arena *text_arena = st_arena_create((ArenaParams){.name = "levelfmt"});
    if (!level_arena || !text_arena) return 1;

    int failed = 0, unformatted = 0;
    bool printed = false;
    for (int i = first; i < argc; i++) {
        const char *path = argv[i];
        st_arena_clear(text_arena);
        Level lv;
        Error err;
        /* A Tiled map prints as .lvl text, but is never rewritten as one or called
           unformatted: its format is Tiled's. */
        size_t plen = strlen(path);
        if (mode != MODE_PRINT && plen > 4 && strcmp(path + plen - 4, LEVEL_TILED_EXT) == 0) {
            st_diag_report_at(DIAG_ERROR, path, 0, 0,
                           "expected a .lvl file, found a Tiled map (print it as .lvl: levelfmt FILE.tmj > FILE.lvl)");
            failed++;
            continue;
        }
        if (!level_load_ex(&lv, level_arena, path, root, NULL, &err, NULL)) {
            fflush(stdout); /* keep the output and the errors in order on a terminal */
            st_error_report(&err);
            failed++;
            continue;
        }
        Str8 text = level_write(text_arena, &lv);
        if (!text.data) {
            Error why;
            st_error_set(&why, ERROR_OUT_OF_MEMORY, path, 0, 0, "cannot write the canonical form: ");
            st_arena_error(&why);
            st_error_report(&why);
            failed++;
            continue;
        }
        if (mode == MODE_PRINT) {
            if (argc - first > 1) printf("%s==> %s <==\n", printed ? "\n" : "", path);
            fwrite(text.data, 1, text.len, stdout);
            printed = true;
        } else if (mode == MODE_CHECK) {
            Str8 old;
            Error why;
            if (!st_os_read_file(text_arena, path, LEVELFMT_MAX_FILE_BYTES, &old, &why)) {
                st_error_report(&why);
                failed++;
            } else if (!st_str8_eq(old, text)) {
                printf("%s\n", path);
                unformatted++;
            }
        } else {
            if (!rewrite(text_arena, path, text)) failed++;
        }
    }
    fflush(stdout);
    st_arena_release(text_arena);
    st_arena_release(level_arena);
    return failed || unformatted ? 1 : 0;
}
