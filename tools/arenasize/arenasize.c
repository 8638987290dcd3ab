/* arenasize - how big to make each arena, from what a run needed.

       game --arena-trace run.csv ...        (any program on the engine's host writes one)
       arenasize run.csv

   For every arena in the timeline: the peak (the highest mark any frame reached: what the
   arena had to hold at its fullest), what it reserved during the run, and the reserve to
   give it, the peak plus 25% rounded up to 64 KiB (st_arena_recommend_reserve, the rule of
   the host's exit report and of levelcheck). A peak above the reserve cannot happen in a
   fixed arena; in a chained one it means the chain grew. Exit status 1 on a bad CSV, 2 on
   bad usage. */
#include <stdio.h>

#include <strata/core/arena.h>
#include <strata/core/cli.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>
#include <strata/version.h>

#include "../arenaplot/trace_csv.h"

static void arena_figures(const Trace *t, int arena, uint64_t *peak, uint64_t *reserved) {
    *peak = *reserved = 0;
    for (uint64_t r = 0; r < t->row_count; r++) {
        uint64_t high = trace_value(t, r, arena, TRACE_HIGH), used = trace_value(t, r, arena, TRACE_USED);
        uint64_t res = trace_value(t, r, arena, TRACE_RESERVED);
        if (high > *peak) *peak = high;
        if (used > *peak) *peak = used;
        if (res > *reserved) *reserved = res;
    }
}

static void print_sizes(const char *path, const Trace *t) {
    printf("%s: %llu frames, %d arenas (peak: the highest mark a frame reached)\n", path,
           (unsigned long long)t->row_count, t->arena_count);
    printf("  %-16s %14s %14s %14s\n", "arena", "peak", "reserved", "recommended");
    for (int i = 0; i < t->arena_count; i++) {
        uint64_t peak, reserved;
        arena_figures(t, i, &peak, &reserved);
        printf("  %-16.*s %14llu %14llu %14llu%s\n", (int)t->arena_names[i].len, t->arena_names[i].data,
               (unsigned long long)peak, (unsigned long long)reserved,
               (unsigned long long)st_arena_recommend_reserve(peak),
               peak > reserved ? "  (grew past its reserve)" : "");
    }
    printf("recommended: the peak + 25%%, rounded up to 64 KiB\n");
}

static const CliOption OPTS[CLI_OPT_VERSION + 1] = {CLI_STANDARD_OPTIONS};
#define ARENASIZE_USAGE "usage: arenasize FILE.csv\n"
static const CliProgram PROGRAM = {
    "arenasize",
    ARENASIZE_USAGE,
    ARENASIZE_USAGE "       arenasize --help | --version\n"
                    "Prints, for every arena of the timeline a program on the engine's host writes with\n"
                    "--arena-trace FILE.csv, its peak, its reserve and the reserve to give it: the peak\n"
                    "plus 25%, rounded up to 64 KiB. Exit status 1 on a bad CSV, 2 on bad usage.\n",
    OPTS,
    CLI_OPT_VERSION + 1,
    1,
    1};

int main(int argc, char **argv) {
    CliValue v[CLI_OPT_VERSION + 1];
    const char *files[1];
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 2ull << 30, .name = "arenasize"});
    if (!a || !st_os_args_utf8(a, &argc, &argv)) return 1; /* Windows: UTF-8 paths */
    int n, rc = st_cli_run(&PROGRAM, STRATA_VERSION, argc, argv, v, files, &n);
    if (rc >= 0) return rc;
    Trace t;
    bool ok = trace_csv_read(a, files[0], &t);
    if (ok) print_sizes(files[0], &t);
    st_arena_release(a);
    return ok ? 0 : 1;
}
