/* main.c - the game executable: the command line. Everything else is the App (app.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "asset/asset.h"
#include "core/cli.h"
#include "core/diag.h"
#include "core/os_file.h"
#include "core/str8.h"

#define HEADLESS_DEFAULT_FRAMES 600

#if defined(__EMSCRIPTEN__)
/* ---- The browser (tools/web.sh): the page owns the loop, and calls web_frame once per
   animation frame; main returns after setting it up and the runtime stays alive. Headless
   runs (a replay as data, tests/web) are not tied to the display: they use the page's
   fastest timer and play one 60 Hz tick per frame in slices of WEB_SLICE_MS, so the page
   stays responsive while a whole run plays in seconds. */
#include <emscripten.h>

#include "core/os_memory.h"

#define WEB_SLICE_MS 12.0

typedef struct WebRun {
    App *app;
    Arena *perm;
    bool batch;
} WebRun;
static WebRun web_run;

/* engine/platform/web/library.js: empty, but calling it links in the JS helpers SDL's
   audio code calls (emcc's own SDL port would add them; our SDL is Debian's source). */
extern void web_sdl_deps(void);

/* The page learns the run is over and how (engine/platform/web/pre.js: Module.adExit). */
EM_JS(void, web_exit, (int status), {
    if (Module["adExit"]) Module["adExit"](status);
});

static void web_frame(void *arg) {
    WebRun *w = arg;
    double until = emscripten_get_now() + (w->batch ? WEB_SLICE_MS : 0.0);
    bool more;
    do more = app_frame(w->app);
    while (more && w->batch && emscripten_get_now() < until);
    if (more) return;
    emscripten_cancel_main_loop();
    int rc = app_release(w->app);
    arena_release(w->perm);
    w->app = NULL;
    /* The arenas' report above counts committed = reserved here (os_memory.h); this is what
       the page holds in all, and it never shrinks. */
    fprintf(stderr, "web: wasm memory %llu bytes at exit\n", (unsigned long long)os_resident_bytes());
    web_exit(rc);
}

/* For the page's tests (tests/web), read through ccall: what a player would see, as JSON.
   The buffer is static: no heap, and the page copies the string at once. */
EMSCRIPTEN_KEEPALIVE const char *web_state(void) {
    static char buf[512];
    const App *app = web_run.app;
    if (!app) return "{\"running\":false}";
    const Game *g = app->game;
    snprintf(buf, sizeof buf,
             "{\"running\":true,\"frames\":%llu,\"screen\":\"%s\",\"level\":\"%s\",\"player_x\":%d,"
             "\"player_y\":%d,\"volume\":%d,\"furthest\":\"%s\",\"focused\":%s,\"memory\":%llu}",
             (unsigned long long)app->frames, game_screen_name(g->screen), g->sim.level.path, (int)g->sim.player.x,
             (int)g->sim.player.y, (int)g->save.settings.volume[0], g->save.furthest,
             app->in.focused ? "true" : "false", (unsigned long long)os_resident_bytes());
    return buf;
}
#endif

static void usage(FILE *f) {
    fprintf(f,
            "usage: game [--level FILE] [--headless] [--frames N] [--record FILE] [--replay FILE]\n"
            "            [--screenshot PATH] [--level-arena BYTES] [--seed N] [--help] [--version]\n"
            "            [--autoplay N] [--no-save] [--assets DIR] [--audio-out FILE.wav]\n"
            "            [--edit FILE [--size WxH]] [--arena-trace FILE.csv [--trace-every N]]\n"
            "            [--renderer gl|sdl] [--scale N] [--fixed-clock] [--skip-title]\n"
            "            [--hot-reload [--hot-library FILE]]\n"
            "  --level FILE         start on this level file (default: levels/01-*.lvl)\n"
            "  --headless           no window: software rendering, one 60 Hz tick per frame\n"
            "                       (stops after %d frames unless --frames or --replay says)\n"
            "  --frames N           stop after N frames\n"
            "  --renderer gl|sdl    draw with OpenGL 3.3 (the default in a window) or SDL_Renderer;\n"
            "                       wins over the setting; headless is always SDL's software one\n"
            "  --scale N            window scale 1..6 for this run (default: the setting, else 3)\n"
            "  --hot-reload         the game's code from libgame_hot.so beside the executable,\n"
            "                       swapped in, state kept, whenever it is rebuilt (tools/dev.sh)\n"
            "  --hot-library FILE   with --hot-reload: that library instead; a build that changes\n"
            "                       the layout of the game's state restarts the level in a new\n"
            "                       process, the executable rebuilt beside it\n"
            "  --skip-title         start playing the level at once\n"
            "  --fixed-clock        one 60 Hz tick per frame in a window too, no vsync: a windowed\n"
            "                       run as repeatable as a headless one (tests, benchmarks)\n"
            "  --record FILE        write this run's seed, level and inputs to FILE at exit\n"
            "  --replay FILE        play a recorded run back and check its final hash\n"
            "  --screenshot PATH    write the last frame as PNG\n"
            "  --level-arena BYTES  size of the level arena, e.g. 8M (default %llu)\n"
            "  --seed N             seed of the game's random numbers (default 1)\n"
            "  --autoplay N         a bot plays: stop after N completed levels (0: the whole run)\n"
            "  --no-save            do not read or write the progress and settings files\n"
            "  --audio-out FILE     mix the run's sound offline, tick by tick, into a WAV (no\n"
            "                       sound device; the same replay always gives the same bytes)\n"
            "  --arena-trace FILE   write every arena's use, frame by frame, as CSV (README: \"Sizing\n"
            "                       your arenas\"); tools/arenaplot draws it\n"
            "  --trace-every N      one CSV row per N frames (frames with an event always)\n"
            "  --edit FILE          open FILE in the level editor (E does it while playing)\n"
            "  --size WxH           with --edit: make FILE a new level of W x H tiles\n"
            "  --assets DIR         the art's folder (the search's order is below)\n"
            "keys: WASD/arrows move, Space/J fire, Enter choose, Esc/P pause and back, R restart,\n"
            "      E edit the level, M mute, F1 debug overlay, F11 or Alt+Enter fullscreen, F12\n"
            "      screenshot (saved under $XDG_DATA_HOME/arena-dungeon/screenshots, else\n"
            "      ~/.local/share/...); the keys can be changed in Settings\n"
            "files: progress in $XDG_DATA_HOME/arena-dungeon/progress (else ~/.local/share/...),\n"
            "      settings in $XDG_CONFIG_HOME/arena-dungeon/settings (else ~/.config/...),\n"
            "      a text file of 'key value' lines to edit by hand\n",
            HEADLESS_DEFAULT_FRAMES, (unsigned long long)LEVEL_ARENA_BYTES);
    char order[2048];
    AssetSearch search = app_asset_search(NULL);
    fprintf(f, "the assets folder, first found:\n%s", asset_dir_order(&search, order, sizeof order));
}

static int bad_usage(const char *what, const char *arg) {
    diag_report(DIAG_ERROR, "game: %s%s%s", what, arg ? ": " : "", arg ? arg : "");
    usage(stderr);
    return 2;
}

/* ---- The options, as data (cli.h): parsing fills one value per option, then parse_args
   moves them into AppOptions by name, so each field's type is the compiler's to check. */
enum {
    OPT_HELP,
    OPT_HELP_SHORT,
    OPT_VERSION,
    OPT_LEVEL,
    OPT_HEADLESS,
    OPT_FRAMES,
    OPT_RECORD,
    OPT_REPLAY,
    OPT_SCREENSHOT,
    OPT_LEVEL_ARENA,
    OPT_SEED,
    OPT_AUTOPLAY,
    OPT_NO_SAVE,
    OPT_ASSETS,
    OPT_AUDIO_OUT,
    OPT_EDIT,
    OPT_SIZE,
    OPT_ARENA_TRACE,
    OPT_TRACE_EVERY,
    OPT_RENDERER,
    OPT_SCALE,
    OPT_FIXED_CLOCK,
    OPT_SKIP_TITLE,
    OPT_HOT_RELOAD,
    OPT_HOT_LIBRARY,
    OPT_COUNT
};

static const char *const RENDERER_WORDS[] = {"gl", "sdl", NULL};

static const CliOption OPTS[OPT_COUNT] = {
    [OPT_HELP] = {.name = "--help", .arg = CLI_SWITCH},
    [OPT_HELP_SHORT] = {.name = "-h", .arg = CLI_SWITCH, .alias_of = OPT_HELP + 1},
    [OPT_VERSION] = {.name = "--version", .arg = CLI_SWITCH},
    [OPT_LEVEL] = {.name = "--level", .arg = CLI_PATH},
    [OPT_HEADLESS] = {.name = "--headless", .arg = CLI_SWITCH},
    /* 1e9 frames: 193 days at 60 Hz */
    [OPT_FRAMES] = {.name = "--frames", .arg = CLI_NUMBER, .lo = 1, .hi = 1000000000},
    [OPT_RECORD] = {.name = "--record", .arg = CLI_PATH},
    [OPT_REPLAY] = {.name = "--replay", .arg = CLI_PATH},
    [OPT_SCREENSHOT] = {.name = "--screenshot", .arg = CLI_PATH},
    [OPT_LEVEL_ARENA] = {.name = "--level-arena", .arg = CLI_BYTES, .lo = 4096, .hi = 1ull << 40},
    [OPT_SEED] = {.name = "--seed", .arg = CLI_NUMBER, .lo = 0, .hi = UINT64_MAX},
    [OPT_AUTOPLAY] = {.name = "--autoplay", .arg = CLI_NUMBER, .lo = 0, .hi = 1000},
    [OPT_NO_SAVE] = {.name = "--no-save", .arg = CLI_SWITCH},
    [OPT_ASSETS] = {.name = "--assets", .arg = CLI_PATH},
    [OPT_AUDIO_OUT] = {.name = "--audio-out", .arg = CLI_PATH},
    [OPT_EDIT] = {.name = "--edit", .arg = CLI_PATH},
    [OPT_SIZE] = {.name = "--size", .arg = CLI_SIZE, .lo = 3, .hi = LEVEL_MAX_SIDE, .needs = OPT_EDIT + 1},
    [OPT_ARENA_TRACE] = {.name = "--arena-trace", .arg = CLI_PATH},
    [OPT_TRACE_EVERY] =
        {.name = "--trace-every", .arg = CLI_NUMBER, .lo = 1, .hi = 1000000, .needs = OPT_ARENA_TRACE + 1},
    [OPT_RENDERER] = {.name = "--renderer", .arg = CLI_WORD, .words = RENDERER_WORDS},
    [OPT_SCALE] = {.name = "--scale", .arg = CLI_NUMBER, .lo = 1, .hi = PLATFORM_MAX_SCALE},
    [OPT_FIXED_CLOCK] = {.name = "--fixed-clock", .arg = CLI_SWITCH},
    [OPT_SKIP_TITLE] = {.name = "--skip-title", .arg = CLI_SWITCH},
    [OPT_HOT_RELOAD] = {.name = "--hot-reload", .arg = CLI_SWITCH},
    [OPT_HOT_LIBRARY] = {.name = "--hot-library", .arg = CLI_PATH, .needs = OPT_HOT_RELOAD + 1},
};

/* 0 or 2: exit with it (help, version, usage error); -1: run the game. */
static int parse_args(int argc, char **argv, AppOptions *o) {
    *o = (AppOptions){.level_arena = LEVEL_ARENA_BYTES, .seed = 1};
    CliValue v[OPT_COUNT];
    const char *stray[1];
    Error why;
    CliParse r = cli_parse(OPTS, OPT_COUNT, argc, argv, v, stray, 0, &why);
    if (r.status != CLI_OK) return bad_usage(why.message, NULL);
    if (v[OPT_HELP].given) return usage(stdout), 0;
    if (v[OPT_VERSION].given) return printf("arena-dungeon %s\n", AD_VERSION), 0;
    o->level = v[OPT_LEVEL].text;
    o->headless = v[OPT_HEADLESS].given;
    o->frames = v[OPT_FRAMES].n;
    o->record = v[OPT_RECORD].text;
    o->replay = v[OPT_REPLAY].text;
    o->screenshot = v[OPT_SCREENSHOT].text;
    if (v[OPT_LEVEL_ARENA].given) o->level_arena = v[OPT_LEVEL_ARENA].n;
    if (v[OPT_SEED].given) o->seed = v[OPT_SEED].n, o->seed_given = true;
    o->autoplay = v[OPT_AUTOPLAY].given;
    o->autoplay_levels = (uint32_t)v[OPT_AUTOPLAY].n;
    o->no_save = v[OPT_NO_SAVE].given;
    o->assets = v[OPT_ASSETS].text;
    o->audio_out = v[OPT_AUDIO_OUT].text;
    o->edit = v[OPT_EDIT].text;
    o->edit_w = (int32_t)v[OPT_SIZE].n, o->edit_h = (int32_t)v[OPT_SIZE].m;
    o->arena_trace = v[OPT_ARENA_TRACE].text;
    o->arena_trace_every = (uint32_t)v[OPT_TRACE_EVERY].n;
    if (v[OPT_RENDERER].given) o->renderer = v[OPT_RENDERER].n == 0 ? RENDERER_GL : RENDERER_SDL;
    o->scale = (int)v[OPT_SCALE].n;
    o->fixed_clock = v[OPT_FIXED_CLOCK].given;
    o->skip_title = v[OPT_SKIP_TITLE].given;
    o->hot_reload = v[OPT_HOT_RELOAD].given;
    o->hot_library = v[OPT_HOT_LIBRARY].text;
    if (o->record && o->replay) return bad_usage("--record and --replay exclude each other", NULL);
    if (o->edit && (o->replay || o->record || o->autoplay))
        return bad_usage("--edit excludes --replay, --record and --autoplay", NULL);
    /* A player at a window gets the title screen; runs that are data start at once. */
    o->skip_title = o->skip_title || o->headless || o->replay || o->record || o->autoplay;
    if (!o->frames && o->headless && !o->replay && !o->autoplay) o->frames = HEADLESS_DEFAULT_FRAMES;
    return -1;
}

/* An output file named on the command line must be writable before the run is played, not
   found unwritable at the end of it: the writer's own checks, writing nothing. */
static bool output_writable(const char *flag, const char *path) {
    Error msg;
    if (os_write_check(path, &msg)) return true;
    diag_report(DIAG_ERROR, "game: %s %s", flag, msg.message);
    return false;
}

int main(int argc, char **argv) {
    AppOptions opt;
    int rc = parse_args(argc, argv, &opt);
    if (rc >= 0) return rc;
    if ((opt.record && !output_writable("--record", opt.record)) ||
        (opt.screenshot && !output_writable("--screenshot", opt.screenshot)) ||
        (opt.audio_out && !output_writable("--audio-out", opt.audio_out)) ||
        (opt.arena_trace && !output_writable("--arena-trace", opt.arena_trace)))
        return 2;
    Arena *perm = arena_create((ArenaParams){.name = "permanent"});
    if (!perm) return 1;
    App *app = app_create(perm, &opt);
    if (!app) {
        arena_release(perm);
        return 1;
    }
#if defined(__EMSCRIPTEN__)
    web_sdl_deps();
    fprintf(stderr, "web: wasm memory %llu bytes after start-up\n", (unsigned long long)os_resident_bytes());
    web_run = (WebRun){.app = app, .perm = perm, .batch = opt.headless};
    emscripten_set_main_loop_arg(web_frame, &web_run, 0, false);
    if (opt.headless) emscripten_set_main_loop_timing(EM_TIMING_SETIMMEDIATE, 0);
    return 0;
#else
    while (app_frame(app)) {
    }
    /* --hot-reload met a new layout of the game's state: the level again, in a new process
       of the executable the build has just made (same path), with this command line. */
    char *args[256];
    int nargs = app_restart_args(app, argc, argv, args, 256);
    const char *dir = nargs > 0 ? os_exe_dir(perm) : NULL;
    rc = app_release(app);
    if (nargs < 0 || (nargs > 0 && !dir)) {
        diag_report(DIAG_ERROR, "game: cannot restart the level: %s",
                    nargs < 0 ? "too many arguments" : "the executable's folder is unknown");
        rc = 1;
    } else if (nargs > 0) {
        const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
        Str8 exe = str8_fmt(perm, "%s/%s", dir, base);
        fflush(NULL);
        execv(exe.data, args);
        diag_report(DIAG_ERROR, "game: cannot restart as %s: %s", exe.data, strerror(errno));
        rc = 1;
    }
    arena_release(perm);
    return rc;
#endif
}
