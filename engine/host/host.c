/* host.c - the lifetimes, the window, the loop and the report around a game (see host.h). */
#include <strata/host/host.h>

#include <SDL2/SDL.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <strata/asset/asset.h>
#include <strata/core/base.h>
#include <strata/core/diag.h>
#include <strata/core/error.h>
#include <strata/core/os_file.h>
#include <strata/core/os_memory.h>
#include <strata/core/path.h>
#include <strata/core/str8.h>
#include <strata/render/debug_overlay.h>

/* The "of" of a chaining arena is one block's reserve: a peak past it is what chained
   blocks held, and the line says so rather than read as a peak over the whole. */
static const char *past_block(const ArenaStats *s) {
    return s->peak > s->reserved ? ", past one block's reserve: more blocks were chained" : "";
}

/* Output, not diagnostics: people size their arenas from these lines and tools parse them,
   so they keep this exact form and go straight to stderr, whatever the sink. */
static void report_arenas(const Host *h) {
    Arena *level = h->life.level, *perm = h->life.perm, *frame = h->life.frame;
    ArenaStats ls = st_arena_stats(level), ps = st_arena_stats(perm), fs = st_arena_stats(frame);
    const char *peak = h->scene.level_peak_path;
    fprintf(stderr, "level arena: peak %llu of %llu bytes (%s)\n", (unsigned long long)ls.peak,
            (unsigned long long)st_arena_capacity(level), peak && peak[0] ? peak : "no level");
    fprintf(stderr, "permanent arena: peak %llu of %llu bytes%s\n", (unsigned long long)ps.peak,
            (unsigned long long)ps.reserved, past_block(&ps));
    fprintf(stderr, "frame arena: peak %llu of %llu bytes%s\n", (unsigned long long)fs.peak,
            (unsigned long long)fs.reserved, past_block(&fs));
    /* The scratch arenas up to the last one the run put memory in. */
    ArenaStats ss[ARENA_SCRATCH_COUNT];
    uint32_t n = st_scratch_stats(ss, ARENA_SCRATCH_COUNT);
    uint64_t sp = 0, sr = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ss[i].peak > sp) sp = ss[i].peak;
        if (ss[i].reserved > sr) sr = ss[i].reserved;
    }
    ArenaStats largest = {.peak = sp, .reserved = sr};
    fprintf(stderr, "scratch arena: peak %llu of %llu bytes%s (largest of %d per thread)\n", (unsigned long long)sp,
            (unsigned long long)sr, past_block(&largest), ARENA_SCRATCH_COUNT);
    fprintf(stderr, "history arena: peak %llu of %llu bytes\n",
            (unsigned long long)st_arena_stats(h->life.history).peak,
            (unsigned long long)st_arena_capacity(h->life.history));
}

/* The host's diag sink: the log first, as before the host, then the game, then the
   timeline (errors and warnings are marked events at the frame they happened). */
static void host_report(void *state, const Diag *d) {
    Host *h = state;
    h->diag_before.fn(h->diag_before.state, d);
    if (h->game && h->module.api) h->module.api->report(h->game, d);
    if (d->level != DIAG_NOTE) st_timeline_mark(&h->timeline, h->frames, "%s", d->text);
}

/* Undoes st_host_create, or as much of it as was done; `perm` stays the caller's. */
static Host *host_teardown(Host *h) {
    if (h->game) h->module.api->release(h->game, h);
    h->game = NULL;
    st_asset_watch_release(h->assets); /* after the game, which closed its audio device */
    h->assets = NULL;
    st_timeline_release(&h->timeline);
    st_diag_set_sink(h->diag_before);
    if (h->rd) st_render_release(h->rd);
    if (h->pf) st_platform_release(h->pf);
    if (h->life.frame) st_arena_release(h->life.frame);
    if (h->life.level) st_arena_release(h->life.level);
    if (h->life.history) st_arena_release(h->life.history);
    return NULL;
}

bool st_host_screenshot_dir(const GameApi *api, char *out, size_t cap) {
    char dir[PATH_MAX];
    if (!st_os_user_path(dir, sizeof dir, OS_USER_DATA, api->name, "screenshots")) return snprintf(out, cap, ".") > 0;
    int n = snprintf(out, cap, "%s", dir);
    return n > 0 && (size_t)n < cap;
}

void st_host_logical_size(const Host *h, int *w, int *hh) { st_platform_logical_size(h->pf, w, hh); }

/* The window the game asked for, this run's options over it. */
static bool open_window(Host *h) {
    const GameApi *api = h->module.api;
    const HostOptions *o = &h->opt;
    RendererKind kind = o->renderer != RENDERER_DEFAULT ? o->renderer : h->want.renderer;
    h->pf = st_platform_create(h->life.perm, &(PlatformDesc){.title = api->title,
                                                             .app_id = api->name,
                                                             .logical_w = api->logical_w,
                                                             .logical_h = api->logical_h,
                                                             .headless = o->headless,
                                                             .scale = o->scale ? o->scale : h->want.scale,
                                                             .fullscreen = h->want.fullscreen,
                                                             .renderer = kind,
                                                             .fixed_clock = o->fixed_clock});
    if (!h->pf) return false;
    h->rd = st_render_create(h->life.perm, h->pf);
    if (!h->rd) st_diag_report(DIAG_ERROR, "%s: no renderer", api->name);
    return h->rd != NULL;
}

/* A reloaded asset, said on the game's notice line (the log has it already). */
static void host_asset_notice(void *state, const char *line) {
    Host *h = state;
    if (h->game && h->module.api) h->module.api->notice(h->game, line);
}

/* The host once the game's code is known (linked, or the library already loaded). */
static Host *host_make(Arena *perm, const GameModule *module, const HostOptions *opt, const void *options) {
    Host *h = st_arena_push_struct(perm, Host);
    if (!h) return NULL;
    h->opt = *opt;
    h->module = *module;
    h->life.perm = perm;
    h->diag_before = st_diag_set_sink((DiagSink){host_report, h});
    const GameApi *api = h->module.api;
    uint64_t level_bytes = opt->level_arena ? opt->level_arena : api->level_arena_bytes;
    h->life.level = st_arena_create((ArenaParams){.reserve_size = level_bytes ? level_bytes : ARENA_DEFAULT_RESERVE,
                                                  .flags = ARENA_FLAG_NO_CHAIN,
                                                  .name = "level"});
    h->life.frame = st_arena_create((ArenaParams){.reserve_size = HOST_FRAME_ARENA_BYTES, .name = "frame"});
    /* One block that never moves, like the level's: a snapshot ring is one span. Its pushes
       are few and large (a state's copy, the ring as it grows), so it commits in large
       steps: a handful of OS calls in all, not one per 64 KiB. */
    uint64_t history_bytes = opt->history_arena ? opt->history_arena : api->history_arena_bytes;
    h->life.history =
        st_arena_create((ArenaParams){.reserve_size = history_bytes ? history_bytes : ARENA_DEFAULT_RESERVE,
                                      .commit_size = HOST_HISTORY_COMMIT_BYTES,
                                      .flags = ARENA_FLAG_NO_CHAIN,
                                      .name = "history"});
    if (!h->life.level || !h->life.frame || !h->life.history) return host_teardown(h);
    if (!st_timeline_create(&h->timeline, perm, opt->arena_trace != NULL, opt->arena_trace_every))
        return host_teardown(h);
    h->game = api->create(h, options);
    if (!h->game || !open_window(h)) return host_teardown(h);
    if (opt->watch_assets == HOST_ASSET_WATCH_ON || (opt->watch_assets == HOST_ASSET_WATCH_DEFAULT && !opt->headless)) {
        h->assets = st_asset_watch_create(perm);
        st_asset_watch_set_notice(h->assets, host_asset_notice, h);
    }
    if (!h->module.api->start(h->game, h)) return host_teardown(h);
    /* Said now, the game there to show it: a player sees a library that did not load. */
    if (h->module.path && h->module.loads) st_diag_report(DIAG_NOTE, "%s", h->module.message);
    else if (h->module.path)
        st_diag_report(DIAG_WARNING, "%s; playing the code linked in until it changes", h->module.message);
    h->clock = st_fixed_step_make(api->tick_hz ? api->tick_hz : 60);
    h->last_frame = st_platform_seconds(h->pf);
    return h;
}

/* --hot-reload's library: the one named, else libgame_hot.so beside the executable. */
static const char *hot_library(Arena *perm, const HostOptions *opt) {
    if (!opt->hot_reload && !opt->hot_library) return NULL;
    if (opt->hot_library) return opt->hot_library;
    const char *dir = st_os_exe_dir(perm);
    return dir ? st_str8_fmt(perm, "%s/libgame_hot.so", dir).data : "libgame_hot.so";
}

/* The game's code: `api`, or the library, watched. False with the reason reported when
   there is no game to run at all. */
static bool load_module(GameModule *m, Arena *perm, const GameApi *api, const HostOptions *opt) {
    const char *lib = hot_library(perm, opt);
    /* A library that did not load is said by host_make, once the game is there to show it. */
    st_game_module_create(m, perm, api, lib);
    if (!m->api) {
        st_diag_report(DIAG_ERROR, "host: no game to run: %s", lib ? m->message : "no table and no --hot-library");
        return false;
    }
    return true;
}

Host *st_host_create(Arena *perm, const GameApi *api, const HostOptions *opt, const void *options) {
    GameModule m;
    if (!load_module(&m, perm, api, opt)) return NULL;
    return host_make(perm, &m, opt, options);
}

/* What a swap (or a refused library) did, on the log and the game's screen. */
static bool host_module_event(Host *h, GameModuleEvent ev) {
    if (ev == GAME_MODULE_SAME) return false;
    const GameApi *api = h->module.api;
    /* The code running reads the state with the layout it was built with: a new process
       (the executable rebuilt beside the library) goes on, if the game can say how. */
    if (ev == GAME_MODULE_LAYOUT_CHANGED) {
        bool can = api->restart(h->game, 0, NULL, NULL, 0) != 0; /* cap 0: only whether it can */
        if (can) {
            st_diag_report(DIAG_WARNING, "%s: restarting with the new build", h->module.message);
            h->restart = true;
        } else {
            st_diag_report(DIAG_WARNING, "%s: save your work, then restart to use it", h->module.message);
        }
        return false;
    }
    if (ev != GAME_MODULE_SWAPPED) {
        st_diag_report(DIAG_WARNING, "%s", h->module.message);
        return false;
    }
    api->reloaded(h->game, h);
    st_diag_report(DIAG_NOTE, "%s", h->module.message);
    char notice[160];
    snprintf(notice, sizeof notice, "game code reloaded (%u): %s, built %s", h->module.loads, api->build,
             h->module.built);
    api->notice(h->game, notice);
    return true;
}

bool st_host_reload_game(Host *h) { return host_module_event(h, st_game_module_reload(&h->module)); }

/* F12: the first free screenshot-NNN.png in the screenshot folder, and a line on screen
   that says where it went ("~" for the home folder, to keep it short). */
static void take_screenshot(Host *h) {
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (!st_host_screenshot_dir(h->module.api, dir, sizeof dir)) {
        st_diag_report(DIAG_ERROR, "screenshot: the folder's path is too long");
        return;
    }
    if (!st_os_make_dirs(dir)) {
        st_diag_report(DIAG_ERROR, "screenshot: cannot create %s", dir);
        return;
    }
    for (;; h->shots++) {
        snprintf(path, sizeof path, "%s/screenshot-%03d.png", dir, h->shots);
        if (st_os_file_info(path).kind == OS_FILE_NONE || h->shots >= 999) break;
    }
    h->shots++;
    Error err;
    if (!st_asset_write_screenshot(h->rd, path, &err)) {
        st_diag_report(DIAG_ERROR, "%s", err.message);
        return;
    }
    st_diag_report(DIAG_NOTE, "wrote %s", path);
    const char *home = getenv("HOME");
    size_t hl = home ? strlen(home) : 0;
    char line[PATH_MAX + 64];
    if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
        snprintf(line, sizeof line, "screenshot saved: ~%s", path + hl);
    else snprintf(line, sizeof line, "screenshot saved: %s", path);
    h->module.api->notice(h->game, line);
}

/* The arenas the F1 panel and the timeline show: the lifetimes, the scratch arenas up to the
   last one that holds memory (st_scratch_stats) and, for the panel, the game's own. The
   history comes after the scratch arenas, where the timeline's slot for it is. */
static int shown_arenas(const Host *h, Arena **out, const char **labels, bool game_too) {
    static const char *const scratch_names[] = {"scratch0", "scratch1", "scratch2", "scratch3"};
    int n = 0;
    out[n++] = h->life.perm, out[n++] = h->life.level, out[n++] = h->life.frame;
    ArenaStats ss[ARENA_SCRATCH_COUNT];
    uint32_t ns = st_scratch_stats(ss, ARENA_SCRATCH_COUNT);
    for (uint32_t i = 0; i < ns; i++, n++)
        out[n] = st_scratch_get(i), labels[n] = i < ARRAY_COUNT(scratch_names) ? scratch_names[i] : NULL;
    out[n++] = h->life.history;
    for (int i = 0; game_too && i < HOST_SHOWN_MAX; i++)
        if (h->shown[i]) out[n++] = h->shown[i];
    return n;
}

/* The frame's picture: the game's, left of the F1 panel when it is shown, then the panel. */
static void host_draw(Host *h) {
    Renderer *rd = h->rd;
    st_arena_clear(h->life.frame);
    uint32_t c = h->module.api->clear_rgba;
    st_render_begin(rd, h->life.frame, (Color){c >> 24, (c >> 16) & 255, (c >> 8) & 255, c & 255});
    int lw, lh;
    st_platform_logical_size(h->pf, &lw, &lh);
    Arena *arenas[4 + ARENA_SCRATCH_COUNT + HOST_SHOWN_MAX];
    const char *labels[ARRAY_COUNT(arenas)] = {0};
    int n = 0;
    DebugFrameInfo info = {.frame_ms = h->frame_ms, .update_ms = h->update_ms, .stats = st_render_stats(rd)};
    DebugOverlayOptions dopt = {.x = (float)lw,
                                .y = h->panel_top,
                                .right = true,
                                .h = (float)lh - h->panel_top,
                                .layer = HOST_LAYER_PANEL,
                                .alpha = 255,
                                .labels = labels,
                                .trace = &h->timeline.trace,
                                .trace_frames = 180};
    h->debug_w = 0;
    bool panel = h->show_debug && h->font;
    if (panel) {
        n = shown_arenas(h, arenas, labels, true);
        h->debug_w = st_debug_overlay_measure(rd, h->font, arenas, n, &info, &dopt).w;
    }
    h->module.api->draw(h->game, h, (float)lw - h->debug_w, (float)lh);
    if (panel) st_debug_overlay_draw_ex(rd, h->font, arenas, n, &info, &dopt);
    st_render_end(rd);
}

/* The frame after the picture: F12, the last frame's --screenshot, the timeline's sample. */
static void host_after_draw(Host *h, bool shot, bool last) {
    if (shot) take_screenshot(h);
    Error err;
    if (last && h->opt.screenshot && !st_asset_write_screenshot(h->rd, h->opt.screenshot, &err)) {
        st_diag_report(DIAG_ERROR, "%s", err.message);
        h->status = 1;
    }
    Arena *traced[4 + ARENA_SCRATCH_COUNT + HOST_SHOWN_MAX] = {0};
    const char *labels[ARRAY_COUNT(traced)];
    int n = shown_arenas(h, traced, labels, false) - 1; /* the history last: its own slot */
    Arena *slots[TIMELINE_SLOTS] = {0};
    for (int i = 0; i < n && i < TIMELINE_HISTORY; i++) slots[i] = traced[i];
    slots[TIMELINE_HISTORY] = h->life.history;
    st_timeline_frame(&h->timeline, &h->scene, slots, h->frames);
}

/* The host's keys, read before the game takes the frame's input: F1 (and pad Y) toggles the
   panel once per press, two in one frame being on and off again; F12 asks for a shot. */
static bool host_keys(Host *h) {
    int f1 = st_input_pad_hit(&h->in, SDL_CONTROLLER_BUTTON_Y);
    for (int i = 0; i < h->in.key_count; i++) f1 += h->in.keys[i] == SDL_SCANCODE_F1;
    if (f1 % 2) h->show_debug = !h->show_debug;
    return st_input_key_hit(&h->in, SDL_SCANCODE_F12);
}

bool st_host_frame(Host *h) {
    st_platform_poll(h->pf, &h->in); /* a quit request is in h->in.quit: the game's to take */
    host_module_event(h, st_game_module_poll(&h->module));
    if (h->restart) return false;
    st_asset_watch_poll(h->assets, h->frames);
    const GameApi *api = h->module.api;
    bool shot = host_keys(h);
    if (!api->frame(h->game, h)) return false;
    double now = st_platform_seconds(h->pf); /* --fixed-clock: the platform's headless clock */
    int steps = st_fixed_step_advance(&h->clock, now);
    for (int i = 0; i < steps; i++)
        if (!api->tick(h->game, h)) break;
    st_input_end_step(&h->in); /* the frame's presses are spent: the next frame sees its own */
    double after_update = st_platform_seconds(h->pf);
    host_draw(h);
    h->frames++;
    bool last = h->quit || (h->opt.frames && h->frames >= h->opt.frames);
    host_after_draw(h, shot, last);
    st_render_present(h->rd);
    double t = st_platform_seconds(h->pf);
    h->frame_ms = (t - h->last_frame) * 1000.0;
    h->update_ms = (after_update - now) * 1000.0;
    h->last_frame = t;
    return !last;
}

int st_host_release(Host *h) {
    int status = h->module.api->release(h->game, h);
    h->game = NULL;
    if (h->status > status) status = h->status;
    report_arenas(h);
    uint64_t recommended = st_timeline_report(&h->timeline);
    Error err;
    if (h->opt.arena_trace && !st_timeline_write_csv(&h->timeline, h->opt.arena_trace, recommended, &err)) {
        st_error_report(&err);
        if (status == 0) status = 1;
    }
    host_teardown(h);
    return status;
}

/* ---- The program: the command line, the loop, the restart. */

enum {
    HO_HELP,
    HO_HELP_SHORT,
    HO_VERSION,
    HO_HEADLESS,
    HO_FRAMES,
    HO_RENDERER,
    HO_SCALE,
    HO_FIXED_CLOCK,
    HO_SCREENSHOT,
    HO_LEVEL_ARENA,
    HO_HISTORY_ARENA,
    HO_ARENA_TRACE,
    HO_TRACE_EVERY,
    HO_HOT_RELOAD,
    HO_HOT_LIBRARY,
    HO_WATCH_ASSETS,
    HO_COUNT
};

static const char *const RENDERER_WORDS[] = {"gl", "sdl", NULL};
static const char *const ON_OFF_WORDS[] = {"on", "off", NULL};

static const CliOption HOST_OPTS[HO_COUNT] = {
    CLI_STANDARD_OPTIONS,
    [HO_HEADLESS] = {.name = "--headless", .arg = CLI_SWITCH},
    /* 1e9 frames: 193 days at 60 Hz */
    [HO_FRAMES] = {.name = "--frames", .arg = CLI_NUMBER, .lo = 1, .hi = 1000000000},
    [HO_RENDERER] = {.name = "--renderer", .arg = CLI_WORD, .words = RENDERER_WORDS},
    [HO_SCALE] = {.name = "--scale", .arg = CLI_NUMBER, .lo = 1, .hi = PLATFORM_MAX_SCALE},
    [HO_FIXED_CLOCK] = {.name = "--fixed-clock", .arg = CLI_SWITCH},
    [HO_SCREENSHOT] = {.name = "--screenshot", .arg = CLI_PATH},
    [HO_LEVEL_ARENA] = {.name = "--level-arena", .arg = CLI_BYTES, .lo = 4096, .hi = 1ull << 40},
    [HO_HISTORY_ARENA] = {.name = "--history-arena", .arg = CLI_BYTES, .lo = 4096, .hi = 1ull << 40},
    [HO_ARENA_TRACE] = {.name = "--arena-trace", .arg = CLI_PATH},
    [HO_TRACE_EVERY] =
        {.name = "--trace-every", .arg = CLI_NUMBER, .lo = 1, .hi = 1000000, .needs = HO_ARENA_TRACE + 1},
    [HO_HOT_RELOAD] = {.name = "--hot-reload", .arg = CLI_SWITCH},
    [HO_HOT_LIBRARY] = {.name = "--hot-library", .arg = CLI_PATH, .needs = HO_HOT_RELOAD + 1},
    [HO_WATCH_ASSETS] = {.name = "--watch-assets", .arg = CLI_WORD, .words = ON_OFF_WORDS},
};

static const char HOST_USAGE[] =
    "            [--headless] [--frames N] [--screenshot PATH] [--level-arena BYTES]\n"
    "            [--history-arena BYTES] [--arena-trace FILE.csv [--trace-every N]]\n"
    "            [--renderer gl|sdl] [--scale N]\n"
    "            [--fixed-clock] [--hot-reload [--hot-library FILE]] [--watch-assets on|off]\n"
    "            [--help] [--version]\n";

static const char HOST_HELP[] =
    "the engine's host:\n"
    "  --headless           no window: software rendering, one tick per frame\n"
    "                       (stops after %d frames unless --frames or the game says)\n"
    "  --frames N           stop after N frames\n"
    "  --screenshot PATH    write the last frame as PNG\n"
    "  --level-arena BYTES  size of the level arena, e.g. 8M (default %llu)\n"
    "  --history-arena BYTES\n"
    "                       size of the history arena, the game's past states (default %llu)\n"
    "  --arena-trace FILE   write every arena's use, frame by frame, as CSV (README: \"Sizing\n"
    "                       your arenas\"); tools/arenaplot draws it\n"
    "  --trace-every N      one CSV row per N frames (frames with an event always)\n"
    "  --renderer gl|sdl    draw with OpenGL 3.3 (the default in a window) or SDL_Renderer;\n"
    "                       wins over the setting; headless is always SDL's software one\n"
    "  --scale N            window scale 1..6 for this run (default: the setting, else 3)\n"
    "  --fixed-clock        one tick per frame in a window too, no vsync: a windowed\n"
    "                       run as repeatable as a headless one (tests, benchmarks)\n"
    "  --hot-reload         the game's code from libgame_hot.so beside the executable,\n"
    "                       swapped in, state kept, whenever it is rebuilt (tools/dev.sh)\n"
    "  --hot-library FILE   with --hot-reload: that library instead; a build that changes\n"
    "                       the layout of the game's state restarts in a new process, the\n"
    "                       executable rebuilt beside it\n"
    "  --watch-assets on|off\n"
    "                       reload textures, sounds and music when their files change\n"
    "                       (default: on in a window, off headless)\n"
    "host keys: F1 arena panel, F11 or Alt+Enter fullscreen, F12 screenshot (saved under\n"
#if defined(_WIN32)
    "      %%APPDATA%%\\%s\\screenshots)\n";
#else
    "      $XDG_DATA_HOME/%s/screenshots, else ~/.local/share/...)\n";
#endif

/* The program's own name for its messages: argv[0]'s last part, without Windows' ".exe"
   (so "game: ..." on every platform). */
static const char *host_program_name(Arena *perm, const GameApi *api, int argc, char **argv) {
    if (argc <= 0 || !argv[0]) return api->name;
    Str8 base = st_path_base_name(st_str8_cstr(argv[0]));
#if defined(_WIN32)
    if (base.len > 4 && !SDL_strcasecmp(base.data + base.len - 4, ".exe")) base.len -= 4;
#endif
    const char *name = st_str8_to_cstr(perm, base);
    return name ? name : api->name;
}

/* `prog`: the program's own name (argv[0]'s last part), as in every message it writes. */
static void host_usage(const GameApi *api, const char *prog, FILE *f, bool help) {
    fprintf(f, "usage: %s %s%s", prog, api->usage, HOST_USAGE);
    if (!help) return;
    fputs(api->help, f);
    uint64_t history = api->history_arena_bytes ? api->history_arena_bytes : ARENA_DEFAULT_RESERVE;
    fprintf(f, HOST_HELP, HOST_HEADLESS_FRAMES, (unsigned long long)api->level_arena_bytes, (unsigned long long)history,
            api->name);
}

bool st_host_output_writable(const char *who, const char *flag, const char *path) {
    Error err;
    if (!path || st_os_write_check(path, &err)) return true;
    st_diag_report(DIAG_ERROR, "%s: %s %s", who, flag, err.message);
    return false;
}

static void host_options_from(const CliValue *v, HostOptions *o) {
    *o = (HostOptions){0};
    o->headless = v[HO_HEADLESS].given;
    o->frames = v[HO_FRAMES].n;
    if (v[HO_RENDERER].given) o->renderer = v[HO_RENDERER].n == 0 ? RENDERER_GL : RENDERER_SDL;
    o->scale = (int)v[HO_SCALE].n;
    o->fixed_clock = v[HO_FIXED_CLOCK].given;
    o->screenshot = v[HO_SCREENSHOT].text;
    o->level_arena = v[HO_LEVEL_ARENA].n;
    o->history_arena = v[HO_HISTORY_ARENA].n;
    o->arena_trace = v[HO_ARENA_TRACE].text;
    o->arena_trace_every = (uint32_t)v[HO_TRACE_EVERY].n;
    o->hot_reload = v[HO_HOT_RELOAD].given;
    o->hot_library = v[HO_HOT_LIBRARY].text;
    if (v[HO_WATCH_ASSETS].given)
        o->watch_assets = v[HO_WATCH_ASSETS].n == 0 ? HOST_ASSET_WATCH_ON : HOST_ASSET_WATCH_OFF;
}

/* The host's options and the game's, as one table: one parse, one message for a mistake.
   The game's indexes (needs, alias_of) move up by HO_COUNT. */
static const CliOption *merged_options(Arena *perm, const GameApi *api, int *count) {
    int n = HO_COUNT + api->option_count;
    CliOption *all = st_arena_push_array(perm, CliOption, (uint64_t)n);
    if (!all) return NULL;
    memcpy(all, HOST_OPTS, sizeof HOST_OPTS);
    for (int i = 0; i < api->option_count; i++) {
        CliOption o = api->options[i];
        if (o.needs) o.needs += HO_COUNT;
        if (o.alias_of) o.alias_of += HO_COUNT;
        all[HO_COUNT + i] = o;
    }
    *count = n;
    return all;
}

/* -1: run with *ho and *options; else the exit status (help, version, a bad line). */
static int host_parse(Arena *perm, const GameApi *api, int argc, char **argv, HostOptions *ho, void **options) {
    int n;
    const CliOption *opts = merged_options(perm, api, &n);
    CliValue *v = opts ? st_arena_push_array(perm, CliValue, (uint64_t)n) : NULL;
    if (!v) return 1;
    Error why;
    const char *stray[1];
    const char *prog = host_program_name(perm, api, argc, argv);
    CliParse r = st_cli_parse(opts, n, argc, argv, v, stray, 0, &why);
    if (r.status != CLI_OK) {
        st_diag_report(DIAG_ERROR, "%s: %s", prog, why.message);
        host_usage(api, prog, stderr, false);
        return 2;
    }
    if (v[HO_HELP].given) return host_usage(api, prog, stdout, true), 0;
    if (v[HO_VERSION].given) return printf("%s %s\n", api->name, api->version_text), 0;
    host_options_from(v, ho);
    *options = api->parse(perm, v + HO_COUNT, ho);
    if (!*options) {
        host_usage(api, prog, stderr, false);
        return 2;
    }
    if (!ho->frames && ho->headless && !ho->run_ends) ho->frames = HOST_HEADLESS_FRAMES;
    if (!st_host_output_writable(prog, "--screenshot", ho->screenshot) ||
        !st_host_output_writable(prog, "--arena-trace", ho->arena_trace))
        return 2;
    return -1;
}

/* A host with no game linked in (host_run.c) needs the game's code before the command line
   is read: its options are in its table. --hot-library has it, else libgame_hot.so beside
   the executable; the parse that follows checks the line as a whole. */
static bool host_first_module(GameModule *m, Arena *perm, int argc, char **argv) {
    HostOptions pre = {.hot_reload = true};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--hot-library") && i + 1 < argc) pre.hot_library = argv[i + 1];
        if (!strncmp(argv[i], "--hot-library=", 14)) pre.hot_library = argv[i] + 14;
    }
    return load_module(m, perm, NULL, &pre);
}

#if defined(__EMSCRIPTEN__)
/* ---- The browser (tools/web.sh): the page owns the loop and calls web_frame once per
   animation frame; st_host_main returns after setting it up and the runtime stays alive.
   Headless runs (a replay as data, tests/web) are not tied to the display: they use the
   page's fastest timer and play one tick per frame in slices of WEB_SLICE_MS, so the page
   stays responsive while a whole run plays in seconds. */
#include <emscripten.h>

#define WEB_SLICE_MS 12.0

typedef struct WebRun {
    Host *host;
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
    do more = st_host_frame(w->host);
    while (more && w->batch && emscripten_get_now() < until);
    if (more) return;
    emscripten_cancel_main_loop();
    int rc = st_host_release(w->host);
    st_arena_release(w->perm);
    w->host = NULL;
    /* The arenas' report above counts committed = reserved here (os_memory.h); this is what
       the page holds in all, and it never shrinks. */
    fprintf(stderr, "web: wasm memory %llu bytes at exit\n", (unsigned long long)st_os_resident_bytes());
    web_exit(rc);
}

/* For the page's tests (tests/web), read through ccall: the host's figures and the game's
   own (its describe), as JSON. The buffer is static: no heap, and the page copies it. */
EMSCRIPTEN_KEEPALIVE const char *st_web_state(void) {
    static char buf[1024];
    const Host *h = web_run.host;
    if (!h) return "{\"running\":false}";
    int n = snprintf(buf, sizeof buf, "{\"running\":true,\"frames\":%llu,\"focused\":%s,\"memory\":%llu",
                     (unsigned long long)h->frames, h->in.focused ? "true" : "false",
                     (unsigned long long)st_os_resident_bytes());
    int m = h->module.api->describe(h->game, buf + n + 1, sizeof buf - (size_t)n - 3);
    if (m > 0) buf[n] = ',', n += 1 + m;
    snprintf(buf + n, sizeof buf - (size_t)n, "}");
    return buf;
}

static int host_loop(Host *h, Arena *perm, int argc, char **argv) {
    (void)argc, (void)argv;
    web_sdl_deps();
    fprintf(stderr, "web: wasm memory %llu bytes after start-up\n", (unsigned long long)st_os_resident_bytes());
    web_run = (WebRun){.host = h, .perm = perm, .batch = h->opt.headless};
    emscripten_set_main_loop_arg(web_frame, &web_run, 0, false);
    if (h->opt.headless) emscripten_set_main_loop_timing(EM_TIMING_SETIMMEDIATE, 0);
    return 0;
}
#else
/* The loop, then, when a new layout of the game's state came (--hot-reload), the same run
   again in a new process of the executable the build has just made (same path), with the
   command line the game gives. */
static int host_loop(Host *h, Arena *perm, int argc, char **argv) {
    while (st_host_frame(h)) {
    }
    char *args[256];
    int nargs = h->restart ? h->module.api->restart(h->game, argc, argv, args, 256) : 0;
    const char *dir = nargs > 0 ? st_os_exe_dir(perm) : NULL;
    int rc = st_host_release(h);
    if (nargs < 0 || (nargs > 0 && !dir)) {
        st_diag_report(DIAG_ERROR, "host: cannot restart: %s",
                       nargs < 0 ? "too many arguments" : "the executable's folder is unknown");
        rc = 1;
    } else if (nargs > 0) {
        const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
        Str8 exe = st_str8_fmt(perm, "%s/%s", dir, base);
        fflush(NULL);
        execv(exe.data, args);
        st_diag_report(DIAG_ERROR, "host: cannot restart as %s: %s", exe.data, strerror(errno));
        rc = 1;
    }
    st_arena_release(perm);
    return rc;
}
#endif

int st_host_main(const GameApi *api, int argc, char **argv) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    /* Windows: a window program started from a console reports there, and main's line is
       in the ANSI code page: "Café levels/x.lvl" as UTF-8. */
    st_os_attach_console();
    if (!perm || !st_os_args_utf8(perm, &argc, &argv)) return 1;
    GameModule m;
    HostOptions ho;
    void *options = NULL;
    int rc;
    if (api) { /* the table linked in: the line first, then the library it may name */
        rc = host_parse(perm, api, argc, argv, &ho, &options);
        if (rc < 0 && !load_module(&m, perm, api, &ho)) rc = 1;
    } else {
        rc = host_first_module(&m, perm, argc, argv) ? host_parse(perm, m.api, argc, argv, &ho, &options) : 1;
        ho.hot_reload = true;
    }
    Host *h = rc < 0 ? host_make(perm, &m, &ho, options) : NULL;
    if (!h) {
        st_arena_release(perm);
        return rc < 0 ? 1 : rc;
    }
    return host_loop(h, perm, argc, argv);
}
