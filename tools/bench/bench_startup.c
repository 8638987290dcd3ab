/* bench_startup.c - the game in a window to its first frame, against the engine's minimal
   program: the host with a game that does nothing, opening the same 1440x810 window (scale
   3 of 480x270) with the same renderer and GL context, showing one frame and exiting.

   Each contestant is a process (`game --frames 1`, and this program with --minimal): its
   CPU time is the whole process's, every thread (Mesa's included), from the rusage of the
   waited-for children (bench.h's bench_children_cpu_ns, bench_rounds' clock).
   Rounds interleave the two in rotating order (a round starts with the other one each
   time), so a load that comes and goes falls on both alike; the ratio is the median of the
   rounds' ratios, with its min-max. Needs an X server (tools/bench.sh gives it Xvfb).

       bench_startup [GAME [ROUNDS]]     GAME: the game's executable (default: beside the build)
       bench_startup --minimal ...       the minimal program itself (host options accepted) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <strata/host/game_api.h>
#include <strata/host/host.h>

#include "bench.h"

/* ---- The minimal program: a table whose entries do nothing. */

static int minimal_state;
static void *minimal_parse(Arena *perm, const CliValue *v, HostOptions *ho) {
    return (void)perm, (void)v, (void)ho, &minimal_state;
}
static void *minimal_create(Host *h, const void *o) {
    h->want = (HostWindowWish){.scale = 3};
    return (void)o, &minimal_state;
}
static bool minimal_start(void *s, Host *h) { return (void)s, (void)h, true; }
static bool minimal_frame(void *s, Host *h) { return (void)s, (void)h, true; }
static bool minimal_tick(void *s, Host *h) { return (void)s, (void)h, false; }
static void minimal_draw(void *s, Host *h, float w, float hp) { (void)s, (void)h, (void)w, (void)hp; }
static void minimal_report(void *s, const Diag *d) { (void)s, (void)d; }
static void minimal_notice(void *s, const char *l) { (void)s, (void)l; }
static void minimal_reloaded(void *s, Host *h) { (void)s, (void)h; }
static int minimal_restart(const void *s, int c, char **v, char **o, int cap) {
    return (void)s, (void)c, (void)v, (void)o, (void)cap, 0;
}
static int minimal_describe(const void *s, char *o, size_t cap) { return (void)s, (void)o, (void)cap, 0; }
static int minimal_release(void *s, Host *h) { return (void)s, (void)h, 0; }

static const GameApi MINIMAL = {
    .version = GAME_API_VERSION,
    .layout_hash = 1,
    .build = "minimal",
    .name = "arena-dungeon",
    .title = "Arena Dungeon",
    .version_text = "0",
    .logical_w = 480,
    .logical_h = 270,
    .tick_hz = 60,
    .clear_rgba = 0x000000FFu,
    .level_arena_bytes = 64 << 10,
    .usage = "\n",
    .help = "",
    .parse = minimal_parse,
    .create = minimal_create,
    .start = minimal_start,
    .frame = minimal_frame,
    .tick = minimal_tick,
    .draw = minimal_draw,
    .report = minimal_report,
    .notice = minimal_notice,
    .reloaded = minimal_reloaded,
    .restart = minimal_restart,
    .describe = minimal_describe,
    .release = minimal_release,
};

/* ---- The bench. */

/* Runs the program to its exit; false when it failed. Its CPU is read by the caller's
   clock, bench_children_cpu_ns (the waited-for child's every thread). */
static bool run_program(char *const argv[]) {
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

typedef struct Ctx {
    char *const *who[2];
    bool failed;
} Ctx;

static void run(void *ctx, int c) {
    Ctx *x = ctx;
    if (!run_program(x->who[c])) {
        fprintf(stderr, "bench_startup: %s failed\n", x->who[c][0]);
        x->failed = true;
    }
}

static double ms(double ns) { return ns / 1e6; }

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--minimal") == 0) {
        argv[1] = argv[0];
        return st_host_main(&MINIMAL, argc - 1, argv + 1);
    }
    char self[4096], game[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 1;
    self[n] = 0;
    if (argc > 1 && argv[1][0]) snprintf(game, sizeof game, "%s", argv[1]);
    else snprintf(game, sizeof game, "%.*s/../../game/game", (int)(strrchr(self, '/') - self), self);
    int rounds = argc > 2 ? atoi(argv[2]) : 21;
    if (rounds < 1 || rounds > 99) rounds = 21;
    if (!getenv("DISPLAY")) {
        printf("bench_startup: no X server (DISPLAY): skipped\n");
        return 0;
    }
    setenv("SDL_AUDIODRIVER", getenv("SDL_AUDIODRIVER") ? getenv("SDL_AUDIODRIVER") : "dummy", 1);
    char *game_argv[] = {game, "--frames", "1", "--no-save", "--scale", "3", "--renderer", "gl", NULL};
    char *min_argv[] = {self, "--minimal", "--frames", "1", "--scale", "3", "--renderer", "gl", NULL};
    Ctx x = {{game_argv, min_argv}, false};
    uint64_t t[2 * 99];
    bench_rounds(2, rounds, run, &x, bench_children_cpu_ns, t); /* the game first in even rounds */
    if (x.failed) return 1;
    double g = bench_stat_u64(t, rounds).median, m = bench_stat_u64(t + rounds, rounds).median;
    BenchStat q = bench_ratio(t, t + rounds, rounds);
    printf("start-up to the first frame, 1440x810 window, GL, process CPU (every thread), %d rounds in rotating "
           "order:\n",
           rounds);
    printf("  the game (--frames 1)        %8.1f ms\n", ms(g));
    printf("  the engine's minimal program %8.1f ms\n", ms(m));
    bench_row("game / minimal (the bar: 1.25x)", q, "x");
    char ours[64], alt[64];
    snprintf(ours, sizeof ours, "%.0f ms CPU", ms(g));
    snprintf(alt, sizeof alt, "minimal window %.0f ms", ms(m));
    bench_summary("startup", "start-up to the first frame: game / minimal", ours, alt, q);
    return 0;
}
