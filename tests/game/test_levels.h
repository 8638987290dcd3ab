/* test_levels.h - what the level tests share: the *.lvl files of a folder, sorted, and a
   comparison of two texts that prints both when they differ. Include in one test source. */
#ifndef TEST_LEVELS_H
#define TEST_LEVELS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/core/os_file.h>
#include <strata/core/str8.h>

static bool same_text(Str8 got, Str8 want, const char *what) {
    if (st_str8_eq(got, want)) return true;
    fprintf(stderr, "%s: texts differ\n--- got:\n%.*s--- want:\n%.*s---\n", what, STR8_FMT(got),
            STR8_FMT(want));
    return false;
}

static int cmp_cstr(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.lvl files of `dir` as "dir/name", sorted, into `a`; *count of them. */
static const char **list_levels(Arena *a, const char *dir, int *count) {
    OsDirList l;
    *count = 0;
    if (!st_os_list_dir(a, dir, &l)) return NULL;
    const char **out = st_arena_push_array(a, const char *, l.count + 1);
    for (uint64_t i = 0; i < l.count; i++)
        if (l.entries[i].kind == OS_FILE_REGULAR &&
            st_str8_ends_with(l.entries[i].name, STR8_LIT(".lvl")))
            out[(*count)++] = st_str8_fmt(a, "%s/%.*s", dir, STR8_FMT(l.entries[i].name)).data;
    qsort(out, (size_t)*count, sizeof *out, cmp_cstr);
    return out;
}

#endif
