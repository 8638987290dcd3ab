/* Every command-line option of every program (the game and the tools), from one table:
   each option that takes a value is run without it, with an empty one, a negative one, a
   huge one, a non-numeric one and twice; each switch twice and with "=value"; each program
   with --help, --version, an unknown option and a flag where a file name goes. A bad command
   line exits 2 with "program: why" on stderr, naming the option, and leaves the folder it
   ran in empty (no flag was taken for a file to write). A good value is taken: the row's
   `ok` command line exits 0.

   test_cli GAME LEVELCHECK LEVELFMT ARENAPLOT LVL2TILED MKASSETS MKSOUNDS SOURCE_DIR */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

enum { GAME, LEVELCHECK, LEVELFMT, ARENAPLOT, LVL2TILED, MKASSETS, MKSOUNDS, PROGRAMS };
static const char *const NAMES[PROGRAMS] = {"game", "levelcheck", "levelfmt", "arenaplot",
                                            "lvl2tiled", "mkassets", "mksounds"};
static const char *exe[PROGRAMS];
static char src[PATH_MAX], work[64], out[1 << 16], err[1 << 16];
static int rc_of_last;

typedef enum Kind { SWITCH, PATH, NUMBER, BYTES, SIZE, WORD } Kind;

/* One option: what it takes, and for a number one value past each end of its range. A
   command line that runs it well is built from `ok` (the option and a good value, with
   what it needs): "%S" is the source folder. */
typedef struct Row {
    int prog;
    const char *opt;
    Kind kind;
    const char *good;          /* a value it takes ("x" for a path) */
    const char *below, *above; /* NULL: no such end (0 allowed, or no upper limit) */
    const char *ok;            /* a whole command line that must exit 0; NULL: none */
} Row;

#define LVL "%S/levels/01-first-steps.lvl"
#define CSV "%S/tools/arenaplot/testdata/run.csv"
static const Row ROWS[] = {
    {GAME, "--level", PATH, "x", 0, 0, "--headless --no-save --frames 2 --level " LVL},
    {GAME, "--headless", SWITCH, 0, 0, 0, "--headless --no-save --frames 2"},
    {GAME, "--frames", NUMBER, "30", "0", "1000000001", "--headless --no-save --frames 2"},
    {GAME, "--record", PATH, "x", 0, 0, "--headless --no-save --frames 2 --record run.rep"},
    {GAME, "--replay", PATH, "x", 0, 0, NULL}, /* below: a run recorded here */
    {GAME, "--screenshot", PATH, "x", 0, 0, "--headless --no-save --frames 2 --screenshot shot.png"},
    {GAME, "--level-arena", BYTES, "8M", "4095", "1099511627777", "--headless --no-save --frames 2 --level-arena 8M"},
    {GAME, "--seed", NUMBER, "7", NULL, "18446744073709551616", "--headless --no-save --frames 2 --seed 18446744073709551615"},
    {GAME, "--autoplay", NUMBER, "1", NULL, "1001", "--headless --no-save --frames 2 --autoplay 1"},
    {GAME, "--no-save", SWITCH, 0, 0, 0, "--headless --no-save --frames 2"},
    {GAME, "--assets", PATH, "x", 0, 0, "--headless --no-save --frames 2 --assets %S/assets"},
    {GAME, "--audio-out", PATH, "x", 0, 0, "--headless --no-save --frames 2 --audio-out a.wav"},
    {GAME, "--edit", PATH, "x", 0, 0, NULL},
    {GAME, "--size", SIZE, "5x5", "2x3", "3x4097", NULL},
    {GAME, "--arena-trace", PATH, "x", 0, 0, "--headless --no-save --frames 2 --arena-trace t.csv"},
    {GAME, "--trace-every", NUMBER, "2", "0", "1000001", "--headless --no-save --frames 2 --arena-trace t.csv --trace-every 2"},
    {GAME, "--renderer", WORD, "sdl", 0, 0, "--headless --no-save --frames 2 --renderer sdl"},
    {GAME, "--scale", NUMBER, "2", "0", "7", "--headless --no-save --frames 2 --scale 2"},
    {GAME, "--fixed-clock", SWITCH, 0, 0, 0, "--headless --no-save --frames 2 --fixed-clock"},
    {GAME, "--skip-title", SWITCH, 0, 0, 0, "--headless --no-save --frames 2 --skip-title"},
    {GAME, "--hot-reload", SWITCH, 0, 0, 0, NULL},
    {GAME, "--hot-library", PATH, "x", 0, 0, NULL},
    {LEVELCHECK, "--csv", SWITCH, 0, 0, 0, "--csv " LVL},
    {LEVELCHECK, "--level-arena", BYTES, "64K", "0", "1099511627777", "--level-arena 64K " LVL},
    {LEVELCHECK, "--root", PATH, "x", 0, 0, "--root %S/levels " LVL},
    {LEVELFMT, "-w", SWITCH, 0, 0, 0, NULL},
    {LEVELFMT, "--check", SWITCH, 0, 0, 0, NULL}, /* the shipped levels keep their comments */
    {LEVELFMT, "--root", PATH, "x", 0, 0, "--root %S/levels " LVL},
    {ARENAPLOT, "--log", SWITCH, 0, 0, 0, CSV " p.png --log"},
    {ARENAPLOT, "--width", NUMBER, "640", "239", "8193", CSV " p.png --width 640"},
    {ARENAPLOT, "--height", NUMBER, "700", "239", "8193", CSV " p.png --height 700"},
    {ARENAPLOT, "--assets", PATH, "x", 0, 0, CSV " p.png --assets %S/assets"},
    {LVL2TILED, "-o", PATH, "x", 0, 0, "-o maps --assets %S/assets " LVL},
    {LVL2TILED, "--assets", PATH, "x", 0, 0, "-o maps --assets %S/assets " LVL},
    {LVL2TILED, "--keep-links", SWITCH, 0, 0, 0, "-o maps --assets %S/assets --keep-links " LVL},
};

/* Runs program p with the words of `line` (split at spaces, "%S" the source folder, "''"
   an empty word) after `pre`; stdout and stderr into out and err. The exit status, or -1
   for a crash. */
static int run(int p, const char *pre, const char *line) {
    char buf[8192], *argv[64];
    int argc = 0;
    argv[argc++] = (char *)exe[p];
    snprintf(buf, sizeof buf, "%s%s%s", pre, pre[0] && line[0] ? " " : "", line);
    /* %S: the source folder. */
    char expanded[8192];
    size_t n = 0;
    for (const char *c = buf; *c && n + PATH_MAX < sizeof expanded; c++) {
        if (c[0] == '%' && c[1] == 'S') n += (size_t)snprintf(expanded + n, sizeof expanded - n, "%s", src), c++;
        else expanded[n++] = *c;
    }
    expanded[n] = 0;
    for (char *w = strtok(expanded, " "); w && argc < 63; w = strtok(NULL, " ")) argv[argc++] = strcmp(w, "''") ? w : "";
    argv[argc] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* A guard, not a measure: a program that took a bad value and ran on (a billion
           frames) dies here and fails its row, rather than hanging the test. */
        struct rlimit cpu = {60, 60};
        setrlimit(RLIMIT_CPU, &cpu);
        if (chdir(work) != 0) _exit(126);
        int o = open("../test_cli.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open("../test_cli.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1), dup2(e, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/../test_cli.out", work);
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[got] = 0;
    if (f) fclose(f);
    snprintf(path, sizeof path, "%s/../test_cli.err", work);
    f = fopen(path, "rb");
    got = f ? fread(err, 1, sizeof err - 1, f) : 0;
    err[got] = 0;
    if (f) fclose(f);
    rc_of_last = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return rc_of_last;
}

/* The folder the programs run in holds nothing: no flag became a file. */
static bool work_empty(void) {
    char cmd[160];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", work);
    return system(cmd) == 0;
}

static void clear_work(void) {
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", work, work);
    if (system(cmd) != 0) fprintf(stderr, "cannot reset %s\n", work);
}

/* What a game run is bounded by, minus the options of `line` itself: a bad value the game
   took would play one headless frame and exit 0 (a failure here), never open a window
   and wait. */
static const char *game_bound(const char *line, char *buf, size_t cap) {
    static const char *const bound[] = {"--headless", "--no-save", "--frames 1"};
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(bound[i], " "), bound[i]);
        if (!strstr(line, name)) n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? " " : "", bound[i]);
    }
    return buf;
}

/* A bad command line: exit 2, "program: " and `want` on stderr, nothing written. */
static void expect_bad(int p, const char *line, const char *want) {
    char pre[64];
    int rc = run(p, p == GAME ? game_bound(line, pre, sizeof pre) : "", line);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s: ", NAMES[p]);
    bool ok = rc == 2 && !strncmp(err, prefix, strlen(prefix)) && strstr(err, want) && work_empty();
    if (!ok) {
        fprintf(stderr, "%s %s: exit %d, wanted 2 with \"%s\"; stderr:\n%.600s\n", NAMES[p], line, rc, want, err);
        check_failures_++;
    }
    clear_work();
}

static void check_row(const Row *r) {
    char line[512];
    int p = r->prog;
    const char *o = r->opt;
    if (r->kind == SWITCH) {
        snprintf(line, sizeof line, "%s %s", o, o);
        expect_bad(p, line, "is given twice");
        snprintf(line, sizeof line, "%s=1", o);
        if (o[1] == '-') expect_bad(p, line, "takes no value");
    } else {
        expect_bad(p, o, "wants a value after it");                      /* missing */
        snprintf(line, sizeof line, "%s ''", o);
        expect_bad(p, line, o);                                          /* empty */
        snprintf(line, sizeof line, "%s -1", o);
        expect_bad(p, line, o);                                          /* negative */
        snprintf(line, sizeof line, "%s --headless", o);
        expect_bad(p, line, o);                                          /* a flag */
        snprintf(line, sizeof line, "%s %s %s %s", o, r->good, o, r->good);
        expect_bad(p, line, "is given twice");                           /* duplicated */
        if (r->kind != PATH) {
            snprintf(line, sizeof line, "%s 99999999999999999999", o);
            expect_bad(p, line, o);                                      /* huge */
            snprintf(line, sizeof line, "%s abc", o);
            expect_bad(p, line, o);                                      /* non-numeric */
            snprintf(line, sizeof line, "%s 12abc", o);
            expect_bad(p, line, o);
        }
        if (r->kind == SIZE) { /* wraps at 2^32 in a 32-bit parse: 10x3 */
            snprintf(line, sizeof line, "%s 4294967306x4294967299", o);
            expect_bad(p, line, o);
            snprintf(line, sizeof line, "%s 5x", o);
            expect_bad(p, line, o);
        }
        if (r->below) {
            snprintf(line, sizeof line, "%s %s", o, r->below);
            expect_bad(p, line, o);
        }
        if (r->above) {
            snprintf(line, sizeof line, "%s %s", o, r->above);
            expect_bad(p, line, o);
        }
    }
    if (r->ok) {
        int rc = run(p, "", r->ok);
        if (rc != 0) {
            fprintf(stderr, "%s %s: exit %d, wanted 0; stderr:\n%.600s\n", NAMES[p], r->ok, rc, err);
            check_failures_++;
        }
        clear_work();
    }
}

int main(int argc, char **argv) {
    if (argc != PROGRAMS + 2) {
        fprintf(stderr, "usage: test_cli GAME LEVELCHECK LEVELFMT ARENAPLOT LVL2TILED MKASSETS MKSOUNDS SOURCE_DIR\n");
        return 2;
    }
    static char real[PROGRAMS][PATH_MAX]; /* the programs run in another folder */
    for (int i = 0; i < PROGRAMS; i++) {
        REQUIRE(realpath(argv[1 + i], real[i]));
        exe[i] = real[i];
    }
    REQUIRE(realpath(argv[PROGRAMS + 1], src));
    char base[] = "/tmp/test_cli.XXXXXX";
    REQUIRE(mkdtemp(base));
    snprintf(work, sizeof work, "%s/run", base);
    clear_work();
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    setenv("SDL_AUDIODRIVER", "dummy", 1);

    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) check_row(&ROWS[i]);

    /* What every program shares: --help and --version on stdout with exit 0, an unknown
       option and a flag taken for a file refused. */
    for (int p = 0; p < PROGRAMS; p++) {
        CHECK_EQ_I(run(p, "", "--help"), 0);
        CHECK(strstr(out, "usage: ") != NULL);
        CHECK(work_empty());
        CHECK_EQ_I(run(p, "", "-h"), 0);
        CHECK_EQ_I(run(p, "", "--version"), 0);
        char want[64];
        snprintf(want, sizeof want, "%s ", p == GAME ? "arena-dungeon" : NAMES[p]);
        CHECK(strncmp(out, want, strlen(want)) == 0);
        CHECK(work_empty());
        expect_bad(p, "--frobnicate", "unknown option '--frobnicate'");
        clear_work();
    }
    /* A flag where a tool wants its folder or files is an unknown option, never a name. */
    expect_bad(MKASSETS, "--help-me", "unknown option");
    expect_bad(MKSOUNDS, "--out", "unknown option");
    expect_bad(MKASSETS, "", "missing");
    expect_bad(MKSOUNDS, "a b", "too many arguments");
    expect_bad(LEVELCHECK, "", "missing");
    expect_bad(ARENAPLOT, CSV, "missing");
    expect_bad(ARENAPLOT, CSV " a.png b.png", "too many arguments");
    expect_bad(LVL2TILED, LVL, "-o OUTDIR is missing");
    expect_bad(LEVELFMT, "-w --check " LVL, "-w and --check exclude each other");
    /* "--" ends the options: a file named like a flag is a file. */
    CHECK_EQ_I(run(LEVELFMT, "", "-- -w"), 1);
    CHECK(strstr(err, "-w: error: cannot open -w: ") != NULL);
    clear_work();
    /* A run recorded and replayed where the programs run. */
    CHECK_EQ_I(run(GAME, "", "--headless --no-save --frames 30 --level " LVL " --record r.rep"), 0);
    CHECK_EQ_I(run(GAME, "", "--headless --no-save --replay r.rep"), 0);
    CHECK(strstr(err, "replay r.rep: played to the end") != NULL && strstr(err, "(matches)") != NULL);
    clear_work();
    /* The game's own rules between options. */
    expect_bad(GAME, "--size 5x5", "--size goes with --edit, which is not given");
    expect_bad(GAME, "--hot-library lib.so", "--hot-library goes with --hot-reload, which is not given");
    expect_bad(GAME, "--trace-every 5", "--trace-every goes with --arena-trace, which is not given");
    expect_bad(GAME, "--record a.rep --replay b.rep", "--record and --replay exclude each other");
    expect_bad(GAME, "--edit x.lvl --autoplay 1", "--edit excludes");
    expect_bad(GAME, "stray", "'stray' is no option");
    expect_bad(GAME, "--record nodir/run.rep --headless", "the folder nodir does not exist");
    expect_bad(GAME, "--level=", "--level wants a file name, not an empty one");
    CHECK_EQ_I(run(GAME, "", "--headless --no-save --frames=2 --seed=7"), 0);
    clear_work();

    /* Output flags write a FIFO in place, and its reader gets the bytes; a device is never
       replaced (a private /dev/full as root, since a broken writer would replace the real
       one; the machine's own otherwise, which a user cannot replace). */
    char fifo[128], full[128];
    snprintf(fifo, sizeof fifo, "%s/../pipe.rep", work);
    unlink(fifo);
    REQUIRE(mkfifo(fifo, 0644) == 0);
    pid_t reader = fork();
    if (reader == 0) {
        int fd = open(fifo, O_RDONLY);
        char got[64] = {0};
        ssize_t n = fd >= 0 ? read(fd, got, 22) : -1;
        _exit(n == 22 && !memcmp(got, "# arena-dungeon replay", 22) ? 0 : 1);
    }
    char line[512];
    snprintf(line, sizeof line, "%s %s", "--headless --no-save --frames 20 --level " LVL " --record", fifo);
    CHECK_EQ_I(run(GAME, "", line), 0);
    struct stat st;
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    /* A reader still waiting means no writer came (a game that failed, a file put in the
       FIFO's place): it would wait for ever. */
    if (!(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode)) || rc_of_last != 0) kill(reader, SIGKILL);
    int status = -1;
    waitpid(reader, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    unlink(fifo);
    snprintf(full, sizeof full, "%s/../full", work);
    unlink(full);
    const char *dev = geteuid() == 0 && mknod(full, S_IFCHR | 0666, makedev(1, 7)) == 0 ? full : "/dev/full";
    snprintf(line, sizeof line, "%s %s", "--headless --no-save --frames 20 --level " LVL " --audio-out", dev);
    CHECK_EQ_I(run(GAME, "", line), 1);
    CHECK(strstr(err, ": cannot write: No space left on device") != NULL);
    CHECK(lstat(dev, &st) == 0 && S_ISCHR(st.st_mode));
    unlink(full);
    clear_work();

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", base);
    return check_result();
}
