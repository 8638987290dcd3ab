/* main.c - the game executable: command line, the four arenas, the loop, the arena report.

   Lifetimes, one arena each:
     permanent  the Game (progress, settings), textures, replay buffer - until exit
     level      everything in the current level (level.h) - cleared on every level change
     frame      draw commands and HUD strings - cleared at the top of every frame
     scratch    the loader's file text, path searches, PNG encoding - per scope */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../assets/atlas.h"
#include "asset/asset.h"
#include "bot.h"
#include "draw.h"
#include "game.h"
#include "platform/platform.h"
#include "render/debug_overlay.h"
#include "render/render.h"
#include "replay.h"

#define FRAME_ARENA_BYTES (16ull << 20)
#define HEADLESS_DEFAULT_FRAMES 600

typedef struct Options {
    const char *level;
    const char *record;
    const char *replay;
    const char *screenshot;
    bool headless;
    uint64_t frames; /* 0: no limit */
    uint64_t level_arena;
    uint64_t seed;
    bool seed_given;
    int64_t autoplay; /* -1 off; 0 until victory; N: stop after N levels */
    bool no_save;
} Options;

static void usage(FILE *f) {
    fprintf(f,
            "usage: game [--level FILE] [--headless] [--frames N] [--record FILE] [--replay FILE]\n"
            "            [--screenshot PATH] [--level-arena BYTES] [--seed N] [--help] [--version]\n"
            "            [--autoplay N] [--no-save]\n"
            "  --level FILE         start on this level file (default: levels/01-*.lvl)\n"
            "  --headless           no window: software rendering, one 60 Hz tick per frame\n"
            "                       (stops after %d frames unless --frames or --replay says)\n"
            "  --frames N           stop after N frames\n"
            "  --record FILE        write this run's seed, level and inputs to FILE at exit\n"
            "  --replay FILE        play a recorded run back and check its final hash\n"
            "  --screenshot PATH    write the last frame as PNG\n"
            "  --level-arena BYTES  size of the level arena (default %llu)\n"
            "  --seed N             seed of the game's random numbers (default 1)\n"
            "  --autoplay N         a bot plays: stop after N completed levels (0: the whole run)\n"
            "  --no-save            do not read or write the progress file\n"
            "keys: WASD/arrows move, Space/J fire, Esc/P pause, R restart, F1 debug overlay,\n"
            "      F11 fullscreen, F12 screenshot\n",
            HEADLESS_DEFAULT_FRAMES, (unsigned long long)LEVEL_ARENA_BYTES);
}

static bool parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-' || *s == '+') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static int bad_usage(const char *what, const char *arg) {
    fprintf(stderr, "game: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
    usage(stderr);
    return 2;
}

static int parse_args(int argc, char **argv, Options *o) {
    *o = (Options){.level_arena = LEVEL_ARENA_BYTES, .seed = 1, .autoplay = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t v;
#define NEED_VALUE() \
    if (!next) return bad_usage("missing value for", a); \
    i++
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("arena-dungeon %s\n", AD_VERSION);
            return 0;
        } else if (!strcmp(a, "--headless")) {
            o->headless = true;
        } else if (!strcmp(a, "--no-save")) {
            o->no_save = true;
        } else if (!strcmp(a, "--level")) {
            NEED_VALUE();
            o->level = next;
        } else if (!strcmp(a, "--record")) {
            NEED_VALUE();
            o->record = next;
        } else if (!strcmp(a, "--replay")) {
            NEED_VALUE();
            o->replay = next;
        } else if (!strcmp(a, "--screenshot")) {
            NEED_VALUE();
            o->screenshot = next;
        } else if (!strcmp(a, "--frames")) {
            NEED_VALUE();
            if (!parse_u64(next, &v) || v == 0) return bad_usage("bad --frames value", next);
            o->frames = v;
        } else if (!strcmp(a, "--level-arena")) {
            NEED_VALUE();
            if (!parse_u64(next, &v) || v < 4096 || v > (1ull << 40))
                return bad_usage("bad --level-arena value (4096 .. 2^40 bytes)", next);
            o->level_arena = v;
        } else if (!strcmp(a, "--seed")) {
            NEED_VALUE();
            if (!parse_u64(next, &v)) return bad_usage("bad --seed value", next);
            o->seed = v;
            o->seed_given = true;
        } else if (!strcmp(a, "--autoplay")) {
            NEED_VALUE();
            if (!parse_u64(next, &v) || v > 1000) return bad_usage("bad --autoplay value", next);
            o->autoplay = (int64_t)v;
        } else {
            return bad_usage("unknown option", a);
        }
#undef NEED_VALUE
    }
    if (o->record && o->replay) return bad_usage("--record and --replay exclude each other", NULL);
    return -1; /* carry on */
}

/* levels/01-*.lvl next to the assets directory, or in the current directory. */
static const char *default_level(Arena *perm, const char *assets) {
    const char *dirs[2] = {"levels", NULL};
    if (assets) {
        const char *slash = strrchr(assets, '/');
        dirs[1] = slash ? str8_fmt(perm, "%.*s/levels", (int)(slash - assets), assets).data : "levels";
    }
    for (int d = 0; d < 2; d++) {
        if (!dirs[d]) continue;
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        char best[256] = "";
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            size_t n = strlen(e->d_name);
            if (n < 8 || n >= sizeof best || strncmp(e->d_name, "01-", 3) || strcmp(e->d_name + n - 4, ".lvl"))
                continue;
            if (!best[0] || strcmp(e->d_name, best) < 0) memcpy(best, e->d_name, n + 1);
        }
        closedir(dir);
        if (best[0]) return str8_fmt(perm, "%s/%s", dirs[d], best).data;
    }
    return NULL;
}

static void report_arenas(Arena *perm, Arena *level, Arena *frame, const Game *g) {
    ArenaStats ls = arena_stats(level), ps = arena_stats(perm), fs = arena_stats(frame);
    fprintf(stderr, "level arena: peak %llu of %llu bytes (%s)\n", (unsigned long long)ls.peak,
            (unsigned long long)arena_capacity(level),
            g && g->sim.level_peak_path[0] ? g->sim.level_peak_path : "no level");
    fprintf(stderr, "permanent arena: peak %llu of %llu bytes\n", (unsigned long long)ps.peak,
            (unsigned long long)ps.reserved);
    fprintf(stderr, "frame arena: peak %llu of %llu bytes\n", (unsigned long long)fs.peak,
            (unsigned long long)fs.reserved);
    uint64_t sp = 0, sr = 0;
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) {
        ArenaStats ss = arena_stats(scratch_get(i));
        if (ss.peak > sp) sp = ss.peak;
        sr = ss.reserved;
    }
    fprintf(stderr, "scratch arena: peak %llu of %llu bytes (largest of %d per thread)\n",
            (unsigned long long)sp, (unsigned long long)sr, ARENA_SCRATCH_COUNT);
}

static uint32_t held_bits(const Input *in) {
    uint32_t b = 0;
    if (in->down[ACTION_UP] || in->move_y < -0.5f) b |= SIM_IN_UP;
    if (in->down[ACTION_DOWN] || in->move_y > 0.5f) b |= SIM_IN_DOWN;
    if (in->down[ACTION_LEFT] || in->move_x < -0.5f) b |= SIM_IN_LEFT;
    if (in->down[ACTION_RIGHT] || in->move_x > 0.5f) b |= SIM_IN_RIGHT;
    if (in->down[ACTION_FIRE]) b |= SIM_IN_FIRE;
    return b;
}

int main(int argc, char **argv) {
    Options opt;
    int rc = parse_args(argc, argv, &opt);
    if (rc >= 0) return rc;

    Arena *perm = arena_create((ArenaParams){.name = "permanent"});
    Arena *level = arena_create((ArenaParams){.reserve_size = opt.level_arena,
                                              .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Arena *frame = arena_create((ArenaParams){.reserve_size = FRAME_ARENA_BYTES, .name = "frame"});
    if (!perm || !level || !frame) return 1;

    const char *assets = asset_dir(perm);
    Replay replay = {0}, record = {0};
    char msg[1024];
    if (opt.replay) {
        if (!replay_load(&replay, perm, opt.replay, msg, sizeof msg)) {
            fprintf(stderr, "%s\n", msg);
            return 1;
        }
        if (!opt.level) opt.level = replay.level;
        if (!opt.seed_given) opt.seed = replay.seed;
    }
    if (!opt.level) opt.level = default_level(perm, assets);
    if (!opt.level) {
        fprintf(stderr, "game: no levels/01-*.lvl found; pass --level FILE\n");
        return 1;
    }
    char save_path[SAVE_PATH_MAX];
    bool save = !opt.no_save && !opt.replay && opt.autoplay < 0 && save_default_path(save_path, sizeof save_path);

    Game *g = arena_push_struct(perm, Game);
    LevelError lerr;
    GameConfig cfg = {.start_level = opt.level, .seed = opt.seed,
                      .skip_title = opt.headless || opt.replay || opt.record || opt.autoplay >= 0,
                      .save_path = save ? save_path : NULL};
    if (!g || !game_init(g, level, &cfg, &lerr)) {
        fprintf(stderr, "%s\n", g ? lerr.message : "out of memory");
        return 1;
    }
    if (opt.record && !replay_begin_record(&record, perm, opt.seed, opt.level)) {
        fprintf(stderr, "game: cannot start recording\n");
        return 1;
    }

    Platform *pf = platform_create(perm, &(PlatformDesc){.title = "Arena Dungeon", .headless = opt.headless});
    if (!pf) return 1;
    int lw, lh;
    platform_logical_size(pf, &lw, &lh);
    Renderer *rd = render_create(perm, platform_renderer(pf), lw, lh);
    if (!rd || !assets) {
        fprintf(stderr, "game: %s\n", rd ? "assets/ directory not found (set AD_ASSET_DIR)" : "no renderer");
        platform_destroy(pf);
        return 1;
    }
    AssetError aerr;
    const Texture *tiles = asset_load_texture(rd, perm, asset_path(perm, assets, "tiles.png"), TILE_CELL, TILE_CELL, &aerr);
    const Texture *sprites = tiles ? asset_load_texture(rd, perm, asset_path(perm, assets, "sprites.png"), SPRITE_CELL, SPRITE_CELL, &aerr) : NULL;
    const Texture *font_tex = sprites ? asset_load_texture(rd, perm, asset_path(perm, assets, "font.png"), FONT_CELL_W, FONT_CELL_H, &aerr) : NULL;
    if (!font_tex) {
        fprintf(stderr, "%s\n", aerr.message);
        render_destroy(rd);
        platform_destroy(pf);
        return 1;
    }
    DrawAssets art = {.tiles = tiles, .sprites = sprites, .font = font_make(font_tex, FONT_ADVANCE)};
    DrawView view = draw_view_make((float)lw, (float)lh);
    draw_view_update(&view, g);

    uint64_t frame_limit = opt.frames;
    if (!frame_limit && opt.headless && !opt.replay && opt.autoplay < 0) frame_limit = HEADLESS_DEFAULT_FRAMES;
    Input in = {0};
    FixedStep clock = fixed_step_make(SIM_HZ);
    uint32_t pending = 0; /* edges seen by a poll, not yet consumed by a tick */
    bool show_debug = false, replay_over = false, autoplay_over = false;
    uint64_t frames = 0;
    int shots = 0;
    double last_frame = platform_seconds(pf), frame_ms = 0, update_ms = 0;
    for (;;) {
        if (!platform_poll(pf, &in)) break;
        if (in.pressed[ACTION_CONFIRM]) pending |= GAME_IN_CONFIRM;
        if (in.pressed[ACTION_PAUSE] || (in.focus_lost && g->screen == SCREEN_PLAYING)) pending |= GAME_IN_PAUSE;
        if (in.pressed[ACTION_RESTART]) pending |= GAME_IN_RESTART;
        if (in.pressed[ACTION_DEBUG]) show_debug = !show_debug;
        /* Menus are driven by direction edges too: a tap in the pause menu is one step. */
        double now = platform_seconds(pf);
        int steps = fixed_step_advance(&clock, now);
        for (int i = 0; i < steps && !replay_over && !autoplay_over; i++) {
            uint8_t b;
            if (opt.replay) {
                if (!replay_next(&replay, &b)) {
                    replay_over = true;
                    break;
                }
            } else if (opt.autoplay >= 0) {
                b = (uint8_t)bot_input(g);
            } else {
                b = (uint8_t)(held_bits(&in) | pending);
                pending = 0;
            }
            if (opt.record) replay_append(&record, b);
            game_update(g, b);
            draw_view_update(&view, g);
            if (opt.autoplay >= 0 &&
                (g->screen == SCREEN_VICTORY ||
                 (opt.autoplay > 0 && g->sim.progress.levels_completed >= opt.autoplay)))
                autoplay_over = true;
        }
        double after_update = platform_seconds(pf);

        arena_clear(frame);
        render_begin(rd, frame, (Color){20, 16, 28, 255});
        draw_game(rd, &art, &view, g);
        if (show_debug) {
            Arena *arenas[] = {perm, level, frame, scratch_get(0), scratch_get(1)};
            DebugFrameInfo info = {.frame_ms = frame_ms, .update_ms = update_ms, .stats = render_stats(rd)};
            debug_overlay_draw(rd, &art.font, arenas, 5, &info, LAYER_DEBUG);
        }
        render_end(rd);
        frames++;
        bool last = g->quit || (frame_limit && frames >= frame_limit) ||
                    (opt.headless && (replay_over || autoplay_over));
        if (in.pressed[ACTION_SCREENSHOT]) {
            char name[64];
            snprintf(name, sizeof name, "screenshot-%03d.png", shots++);
            if (render_screenshot(rd, name)) fprintf(stderr, "wrote %s\n", name);
        }
        if (last && opt.screenshot && !render_screenshot(rd, opt.screenshot)) rc = 1;
        render_present(rd);
        double t = platform_seconds(pf);
        frame_ms = (t - last_frame) * 1000.0;
        update_ms = (after_update - now) * 1000.0;
        last_frame = t;
        if (last) break;
    }

    if (opt.record) {
        if (!replay_save(&record, opt.record, game_hash(g), g->sim.progress.levels_completed, msg, sizeof msg)) {
            fprintf(stderr, "%s\n", msg);
            rc = 1;
        } else {
            fprintf(stderr, "recorded %u ticks, %d levels completed, hash %016llx -> %s\n", record.ticks,
                    g->sim.progress.levels_completed, (unsigned long long)game_hash(g), opt.record);
        }
    }
    if (opt.replay) {
        uint64_t h = game_hash(g);
        bool complete = replay_done(&replay);
        bool ok = !complete || !replay.has_hash ||
                  (h == replay.hash && (replay.levels < 0 || replay.levels == g->sim.progress.levels_completed));
        fprintf(stderr, "replay %s: %s, %d levels completed, hash %016llx%s\n", opt.replay,
                complete ? "played to the end" : "stopped early", g->sim.progress.levels_completed,
                (unsigned long long)h, !complete ? "" : ok ? " (matches)" : " (MISMATCH)");
        if (!ok) rc = 3;
    }
    report_arenas(perm, level, frame, g);
    render_destroy(rd);
    platform_destroy(pf);
    arena_release(frame);
    arena_release(level);
    arena_release(perm);
    return rc < 0 ? 0 : rc;
}
