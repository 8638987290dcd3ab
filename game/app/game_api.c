/* game_api.c - the game as the host sees it (host/game_api.h): who it is, its options, and
   its entry points (app.h). The shared library exports game_api and nothing else
   (-fvisibility=hidden); the release executable links the same table in. */
#include "app/game_api.h"

#include <stdio.h>

#include "app/app.h"
#include "game_layout.h" /* GAME_LAYOUT_HASH, generated from the state headers */

enum {
    GO_LEVEL,
    GO_RECORD,
    GO_REPLAY,
    GO_SEED,
    GO_AUTOPLAY,
    GO_NO_SAVE,
    GO_ASSETS,
    GO_AUDIO_OUT,
    GO_EDIT,
    GO_SIZE,
    GO_SKIP_TITLE,
    GO_SEEK,
    GO_COUNT
};

static const CliOption GAME_OPTIONS[GO_COUNT] = {
    [GO_LEVEL] = {.name = "--level", .arg = CLI_PATH},
    [GO_RECORD] = {.name = "--record", .arg = CLI_PATH},
    [GO_REPLAY] = {.name = "--replay", .arg = CLI_PATH},
    [GO_SEED] = {.name = "--seed", .arg = CLI_NUMBER, .lo = 0, .hi = UINT64_MAX},
    [GO_AUTOPLAY] = {.name = "--autoplay", .arg = CLI_NUMBER, .lo = 0, .hi = 1000},
    [GO_NO_SAVE] = {.name = "--no-save", .arg = CLI_SWITCH},
    [GO_ASSETS] = {.name = "--assets", .arg = CLI_PATH},
    [GO_AUDIO_OUT] = {.name = "--audio-out", .arg = CLI_PATH},
    [GO_EDIT] = {.name = "--edit", .arg = CLI_PATH},
    [GO_SIZE] = {.name = "--size", .arg = CLI_SIZE, .lo = 3, .hi = LEVEL_MAX_SIDE, .needs = GO_EDIT + 1},
    [GO_SKIP_TITLE] = {.name = "--skip-title", .arg = CLI_SWITCH},
    [GO_SEEK] = {.name = "--seek", .arg = CLI_NUMBER, .lo = 0, .hi = UINT32_MAX, .needs = GO_REPLAY + 1},
};

static const char GAME_USAGE[] =
    "[--level FILE] [--record FILE] [--replay FILE] [--seed N] [--autoplay N]\n"
    "            [--no-save] [--assets DIR] [--audio-out FILE.wav] [--edit FILE [--size WxH]]\n"
    "            [--skip-title] [--seek TICK]\n";

static const char GAME_HELP[] = "  --level FILE         start on this level file (default: levels/01-*.lvl)\n"
                                "  --record FILE        write this run's seed, level and inputs to FILE at exit\n"
                                "  --replay FILE        play a recorded run back and check its final hash; in a\n"
                                "                       window, in the viewer (--headless or --frames N: straight)\n"
                                "  --seed N             seed of the game's random numbers (default 1)\n"
                                "  --autoplay N         a bot plays: stop after N completed levels (0: the whole run)\n"
                                "  --no-save            do not read or write the progress and settings files\n"
                                "  --assets DIR         the art's folder (else $AD_ASSET_DIR, beside the executable,\n"
                                "                       share/arena-dungeon/, the source tree, ./assets)\n"
                                "  --audio-out FILE     mix the run's sound offline, tick by tick, into a WAV (no\n"
                                "                       sound device; the same replay always gives the same bytes)\n"
                                "  --edit FILE          open FILE in the level editor (E does it while playing)\n"
                                "  --size WxH           with --edit: make FILE a new level of W x H tiles\n"
                                "  --skip-title         start playing the level at once\n"
                                "  --seek TICK          with --replay: the viewer starts at this tick (headless:\n"
                                "                       prints 'seek: tick T hash H' and ends)\n"
                                "keys: WASD/arrows move, Space/J fire, Enter choose, Esc/P pause and back, R restart,\n"
                                "      E edit the level, M mute; the keys can be changed in Settings\n"
#if defined(_WIN32)
                                "files: progress in %APPDATA%\\arena-dungeon\\progress,\n"
                                "      settings in %APPDATA%\\arena-dungeon\\settings,\n"
                                "      a text file of 'key value' lines to edit by hand\n";
#else
                                "files: progress in $XDG_DATA_HOME/arena-dungeon/progress (else ~/.local/share/...),\n"
                                "      settings in $XDG_CONFIG_HOME/arena-dungeon/settings (else ~/.config/...),\n"
                                "      a text file of 'key value' lines to edit by hand\n";
#endif

/* The values into AppOptions by name, so each field's type is the compiler's to check. */
static void *game_api_parse(Arena *perm, const CliValue *v, HostOptions *ho) {
    AppOptions *o = st_arena_push_struct(perm, AppOptions);
    if (!o) return NULL;
    o->level = v[GO_LEVEL].text;
    o->record = v[GO_RECORD].text;
    o->replay = v[GO_REPLAY].text;
    if (v[GO_SEED].given) o->seed = v[GO_SEED].n, o->seed_given = true;
    o->autoplay = v[GO_AUTOPLAY].given;
    o->autoplay_levels = (uint32_t)v[GO_AUTOPLAY].n;
    o->no_save = v[GO_NO_SAVE].given;
    o->assets = v[GO_ASSETS].text;
    o->audio_out = v[GO_AUDIO_OUT].text;
    o->edit = v[GO_EDIT].text;
    o->edit_w = (int32_t)v[GO_SIZE].n, o->edit_h = (int32_t)v[GO_SIZE].m;
    o->skip_title = v[GO_SKIP_TITLE].given;
    if (v[GO_SEEK].given) o->seek = v[GO_SEEK].n, o->seek_given = true;
    if (o->record && o->replay) {
        st_diag_report(DIAG_ERROR, "game: --record and --replay exclude each other");
        return NULL;
    }
    if (o->edit && (o->replay || o->record || o->autoplay)) {
        st_diag_report(DIAG_ERROR, "game: --edit excludes --replay, --record and --autoplay");
        return NULL;
    }
    if (!st_host_output_writable("game", "--record", o->record) ||
        !st_host_output_writable("game", "--audio-out", o->audio_out))
        return NULL;
    /* A player at a window gets the title screen; runs that are data start at once. */
    o->skip_title = o->skip_title || ho->headless || o->replay || o->record || o->autoplay;
    ho->run_ends = o->replay || o->autoplay;
    return o;
}

__attribute__((visibility("default"))) const GameApi *game_api(void) {
    static const GameApi api = {
        .version = GAME_API_VERSION,
        .layout_hash = GAME_LAYOUT_HASH,
        .build = "game " AD_VERSION,
        .name = APP_ID,
        .title = APP_TITLE,
        .version_text = AD_VERSION,
        .logical_w = APP_LOGICAL_W,
        .logical_h = APP_LOGICAL_H,
        .tick_hz = SIM_HZ,
        .clear_rgba = 0x14101CFFu, /* the dungeon's dark violet: (20, 16, 28) */
        .level_arena_bytes = LEVEL_ARENA_BYTES,
        .history_arena_bytes = APP_HISTORY_ARENA_BYTES,
        .options = GAME_OPTIONS,
        .option_count = GO_COUNT,
        .usage = GAME_USAGE,
        .help = GAME_HELP,
        .parse = game_api_parse,
        .create = app_create,
        .start = app_start,
        .frame = app_frame,
        .tick = app_tick,
        .draw = app_draw,
        .report = app_report,
        .notice = app_notice,
        .reloaded = app_reloaded,
        .restart = app_restart,
        .describe = app_describe,
        .release = app_release,
    };
    return &api;
}
