/* levelfmt - level files in the canonical form (levels/README.md, "The canonical form").

       levelfmt [--root DIR] FILE...           print each file's canonical form
       levelfmt -w [--root DIR] FILE...        rewrite the files that are not in it
       levelfmt --check [--root DIR] FILE...   list the files that are not in it

   Each FILE is loaded exactly as the game loads it (level_load_ex, exits and links checked
   inside DIR, default the file's own folder) and written back with level_write, its
   comments put back with the lines they go with (keep_comments). A file that
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
#include <strata/core/hash.h>
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
    "the map, then the entity lines grouped (enemy, link, entry, sign); comments kept\n"
    "with the lines they go with.\n"
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

/* ---- Comments: kept as gofmt keeps them. A block of comment lines belongs to the line
   after it, and a trailing "# ..." to its line; in the canonical text each goes with the
   same line, found by its key: a header's "name:", "map:", "end", an entity's kind and
   place ("sign 2 1", "entry west"). The comments of a line the canonical form drops (an
   enemy without hp=, a default pool size) go with the next line that stays, and blocks
   after the last line end the file. A Tiled map has none (it is JSON). */

typedef struct Kept {
    Str8 key, block, trailing; /* block: its lines, each ending in '\n' (in the source) */
    int32_t next;              /* the next record with the same key, -1: none */
    bool used;
} Kept;

static Str8 line_key(Str8 content, bool before_map) {
    int64_t colon = st_str8_find_byte(content, ':', 0);
    if (before_map && colon >= 0) return st_str8_prefix(content, (uint64_t)colon + 1);
    /* The kind, then its place: 3 words (enemy, link, sign X Y) or 2 (entry NAME). */
    int words = st_str8_starts_with(content, STR8_LIT("entry")) ? 2 : 3;
    uint64_t i = 0;
    for (int w = 0; w < words && i < content.len; w++) {
        while (i < content.len && content.data[i] != ' ' && content.data[i] != '\t') i++;
        while (w + 1 < words && i < content.len && (content.data[i] == ' ' || content.data[i] == '\t')) i++;
    }
    return st_str8_prefix(content, i);
}

/* Keys compare in one-space form: "sign  2 1" and "sign 2 1" are one key. */
static uint64_t key_hash(Str8 k) {
    uint64_t h = HASH_FNV1A_INIT;
    bool blank = false;
    for (uint64_t i = 0; i < k.len; i++) {
        bool b = k.data[i] == ' ' || k.data[i] == '\t';
        if (!b) h = st_hash_fnv1a(blank ? st_hash_fnv1a(h, " ", 1) : h, k.data + i, 1);
        blank = b;
    }
    return h;
}

static bool key_eq(Str8 a, Str8 b) {
    uint64_t i = 0, j = 0;
    for (;;) {
        bool ba = i < a.len && (a.data[i] == ' ' || a.data[i] == '\t');
        bool bb = j < b.len && (b.data[j] == ' ' || b.data[j] == '\t');
        if (ba != bb) return false;
        while (i < a.len && (a.data[i] == ' ' || a.data[i] == '\t')) i++;
        while (j < b.len && (b.data[j] == ' ' || b.data[j] == '\t')) j++;
        if (i == a.len || j == b.len) return i == a.len && j == b.len;
        if (a.data[i++] != b.data[j++]) return false;
    }
}

/* The table's slot for `key`: first[s] is the first record with that key, -1 an empty slot. */
static uint64_t slot_of(const Kept *rec, const int32_t *first, uint64_t cap, Str8 key) {
    uint64_t s = key_hash(key) & (cap - 1);
    while (first[s] >= 0 && !key_eq(rec[first[s]].key, key)) s = (s + 1) & (cap - 1);
    return s;
}

/* A line outside the map: its content (the comment cut off), and the comment. */
static void split_line(Str8 line, Str8 *content, Str8 *comment) {
    int64_t hash = st_str8_find_byte(line, '#', 0);
    *content = st_str8_trim(hash < 0 ? line : st_str8_prefix(line, (uint64_t)hash));
    *comment = hash < 0 ? (Str8){0} : st_str8_trim(st_str8_skip(line, (uint64_t)hash));
}

/* The canonical text with the source's comments put back; NULL data when the arena is full. */
static Str8 keep_comments(Arena *a, Str8 source, Str8 canon) {
    if (st_str8_starts_with(source, STR8_LIT("\xEF\xBB\xBF"))) source = st_str8_skip(source, 3);
    uint64_t lines = 1;
    for (uint64_t i = 0; i < source.len; i++) lines += source.data[i] == '\n';
    Kept *rec = st_arena_push_array(a, Kept, lines);
    char *blocks = st_arena_push_array_raw(a, char, source.len + lines);
    if (!rec || !blocks) return (Str8){0};
    uint64_t n = 0, bl = 0, block_at = 0;
    bool in_map = false, before_map = true;
    Str8 rest = source, line;
    while (st_str8_next_line(&rest, &line)) {
        Str8 t = st_str8_trim(line);
        if (in_map) {
            if (st_str8_eq(t, STR8_LIT("end"))) in_map = false;
            else continue;
        }
        if (!t.len) continue;
        if (t.data[0] == '#') {
            memcpy(blocks + bl, t.data, t.len), bl += t.len, blocks[bl++] = '\n';
            continue;
        }
        Str8 content, comment;
        split_line(t, &content, &comment);
        rec[n++] = (Kept){.key = line_key(content, before_map),
                          .block = {blocks + block_at, bl - block_at},
                          .trailing = comment,
                          .next = -1};
        block_at = bl;
        if (st_str8_eq(content, STR8_LIT("map:"))) in_map = true, before_map = false;
    }
    Str8 tail = {blocks + block_at, bl - block_at};

    /* The records by key, each key's in source order. */
    uint64_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    int32_t *first = st_arena_push_array_raw(a, int32_t, cap), *head = st_arena_push_array_raw(a, int32_t, cap);
    int32_t *last = st_arena_push_array_raw(a, int32_t, cap);
    char *out = st_arena_push_array_raw(a, char, canon.len + source.len + 2 * lines + 2);
    if (!first || !head || !last || !out) return (Str8){0};
    memset(first, -1, cap * sizeof *first);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t s = slot_of(rec, first, cap, rec[i].key);
        if (first[s] < 0) first[s] = head[s] = (int32_t)i;
        else rec[last[s]].next = (int32_t)i;
        last[s] = (int32_t)i;
    }

    /* Which source line each canonical line is; then the blocks of lines not there move on. */
    uint64_t canon_lines = 1;
    for (uint64_t i = 0; i < canon.len; i++) canon_lines += canon.data[i] == '\n';
    int32_t *match = st_arena_push_array_raw(a, int32_t, canon_lines);
    if (!match) return (Str8){0};
    in_map = false, before_map = true;
    rest = canon;
    for (uint64_t c = 0; st_str8_next_line(&rest, &line); c++) {
        match[c] = -1;
        if (in_map) {
            if (!st_str8_eq(line, STR8_LIT("end"))) continue;
            in_map = false;
        }
        if (!line.len) continue;
        Str8 key = line_key(line, before_map);
        if (st_str8_eq(line, STR8_LIT("map:"))) in_map = true, before_map = false;
        uint64_t s = slot_of(rec, first, cap, key);
        if (first[s] < 0 || head[s] < 0) continue;
        match[c] = head[s];
        rec[head[s]].used = true;
        head[s] = rec[head[s]].next;
    }
    /* A dropped line's block and trailing comment go with the next line that stays (or
       end the file), in the order they came. */
    char *more = st_arena_push_array_raw(a, char, source.len + 2 * lines + 1);
    if (!more) return (Str8){0};
    uint64_t m = 0, from = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (rec[i].used && m == from) continue; /* nothing carried to it */
        memcpy(more + m, rec[i].block.data, rec[i].block.len), m += rec[i].block.len;
        if (!rec[i].used) {
            if (rec[i].trailing.len)
                memcpy(more + m, rec[i].trailing.data, rec[i].trailing.len), m += rec[i].trailing.len, more[m++] = '\n';
            continue;
        }
        rec[i].block = (Str8){more + from, m - from};
        from = m;
    }
    if (m > from) {
        memcpy(more + m, tail.data, tail.len), m += tail.len;
        tail = (Str8){more + from, m - from};
    }

    uint64_t o = 0;
    rest = canon;
    for (uint64_t c = 0; st_str8_next_line(&rest, &line); c++) {
        const Kept *k = match[c] >= 0 ? &rec[match[c]] : NULL;
        if (k) memcpy(out + o, k->block.data, k->block.len), o += k->block.len;
        memcpy(out + o, line.data, line.len), o += line.len;
        if (k && k->trailing.len)
            out[o++] = ' ', memcpy(out + o, k->trailing.data, k->trailing.len), o += k->trailing.len;
        out[o++] = '\n';
    }
    if (tail.len) out[o++] = '\n', memcpy(out + o, tail.data, tail.len), o += tail.len;
    return (Str8){out, o};
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
    Arena *level_arena =
        st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
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
        bool tiled = plen > 4 && strcmp(path + plen - 4, LEVEL_TILED_EXT) == 0;
        if (mode != MODE_PRINT && tiled) {
            st_diag_report_at(
                DIAG_ERROR, path, 0, 0,
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
        /* The source, for its comments (a Tiled map, JSON, has none) and for --check. */
        Str8 old = {0};
        Error why;
        if (!tiled && !st_os_read_file(text_arena, path, LEVELFMT_MAX_FILE_BYTES, &old, &why)) {
            st_error_report(&why);
            failed++;
            continue;
        }
        Str8 text = level_write(text_arena, &lv);
        if (text.data && !tiled) text = keep_comments(text_arena, old, text);
        if (!text.data) {
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
            if (!st_str8_eq(old, text)) {
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
