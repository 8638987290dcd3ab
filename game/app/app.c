/* app.c - set-up, the frame loop and tear-down of the game (see app.h). */
#include "app/app.h"

#include <SDL2/SDL_scancode.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../assets/atlas.h"
#include "asset/asset.h"
#include "rules/bot.h"
#include "core/base.h"
#include "core/diag.h"
#include "core/os_file.h"
#include "core/path.h"
#include "render/debug_overlay.h"

/* levels/01-*.lvl next to the assets directory, or in the current directory; of several,
   the first by name, whatever order the folder lists them in. */
static const char *default_level(Arena *perm, const char *assets) {
    const char *dirs[2] = {"levels", NULL};
    if (assets) {
        Str8 parent = path_dir_prefix(str8_cstr(assets)); /* "game/assets" -> "game/" */
        dirs[1] = parent.len ? str8_fmt(perm, "%.*slevels", STR8_FMT(parent)).data : "levels";
    }
    for (int d = 0; d < 2; d++) {
        if (!dirs[d]) continue;
        SCRATCH_SCOPE(tmp, perm);
        OsDirList list;
        if (!os_list_dir(tmp.arena, dirs[d], &list)) continue;
        const char *best = NULL;
        for (uint64_t i = 0; i < list.count; i++) {
            Str8 name = list.entries[i].name;
            if (name.len < 8 || !str8_starts_with(name, STR8_LIT("01-")) || !str8_ends_with(name, STR8_LIT(".lvl")))
                continue;
            if (!best || strcmp(name.data, best) < 0) best = name.data;
        }
        if (best) return str8_fmt(perm, "%s/%s", dirs[d], best).data;
    }
    return NULL;
}

/* Output, not diagnostics: people size their arenas from these lines and tools parse them,
   so they keep this exact form and go straight to stderr, whatever the sink. */
static void report_arenas(Arena *perm, Arena *level, Arena *frame, const Game *g) {
    ArenaStats ls = arena_stats(level), ps = arena_stats(perm), fs = arena_stats(frame);
    fprintf(stderr, "level arena: peak %llu of %llu bytes (%s)\n", (unsigned long long)ls.peak,
            (unsigned long long)arena_capacity(level),
            g && g->sim.level_peak_path[0] ? g->sim.level_peak_path : "no level");
    fprintf(stderr, "permanent arena: peak %llu of %llu bytes\n", (unsigned long long)ps.peak,
            (unsigned long long)ps.reserved);
    fprintf(stderr, "frame arena: peak %llu of %llu bytes\n", (unsigned long long)fs.peak,
            (unsigned long long)fs.reserved);
    /* scratch_stats, not scratch_get: a report must not create the arenas it reports on. */
    ArenaStats ss[ARENA_SCRATCH_COUNT];
    uint32_t n = scratch_stats(ss, ARENA_SCRATCH_COUNT);
    uint64_t sp = 0, sr = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ss[i].peak > sp) sp = ss[i].peak;
        if (ss[i].reserved > sr) sr = ss[i].reserved;
    }
    fprintf(stderr, "scratch arena: peak %llu of %llu bytes (largest of %d per thread)\n", (unsigned long long)sp,
            (unsigned long long)sr, ARENA_SCRATCH_COUNT);
}

/* The App's diag sink: the log first, as before the App, then the HUD. */
static void app_report(void *state, const Diag *d) {
    App *app = state;
    app->diag_before.fn(app->diag_before.state, d);
    if (app->game) game_show_report(app->game, d);
    /* Errors and warnings (an arena that refused a push, a level that did not load) are
       marked events on the timeline, at the frame they happened. */
    if (d->level != DIAG_NOTE) timeline_mark(&app->timeline, app->frames, "%s", d->text);
}

/* Undoes app_create, or as much of it as was done; `perm` stays the caller's. */
static App *app_teardown(App *app) {
    if (app->editor) editor_ui_release(app->editor);
    /* The device first: its callback reads the mixer and the sounds until it is closed. */
    if (app->audio) audio_device_release(app->audio);
    if (app->audio_out.base) virtual_array_release(&app->audio_out);
    timeline_release(&app->timeline);
    diag_set_sink(app->diag_before);
    if (app->rd) render_release(app->rd);
    if (app->pf) platform_release(app->pf);
    if (app->frame) arena_release(app->frame);
    if (app->level) arena_release(app->level);
    return NULL;
}

/* The build's own folders (game/CMakeLists.txt): a build anywhere finds the art of the
   tree it was made from, and an install the art of its prefix. */
#ifndef AD_SOURCE_DIR
#define AD_SOURCE_DIR NULL
#endif
#ifndef AD_INSTALL_PREFIX
#define AD_INSTALL_PREFIX NULL
#endif

AssetSearch app_asset_search(const char *given) {
    return (AssetSearch){
        .given = given, .env = "AD_ASSET_DIR", .app = APP_ID, .prefix = AD_INSTALL_PREFIX, .source = AD_SOURCE_DIR};
}

/* The game's keys as the player set them (the Game holds the numbers, save.h's order). */
static void apply_keys(App *app) {
    InputBindings b = input_bindings_default(&app->in);
    const SaveSettings *st = &app->game->save.settings;
    for (int a = 0; a < SAVE_BIND_ACTIONS; a++)
        for (int k = 0; k < SAVE_BIND_SLOTS; k++) b.keys[a][k] = st->binds[a][k];
    input_set_bindings(&app->in, &b);
}

/* Every setting takes effect the frame the menu changes it. */
static void apply_settings(App *app) {
    SaveSettings *want = &app->game->save.settings;
    SaveSettings *have = &app->applied;
    if (want->fullscreen != have->fullscreen) platform_set_fullscreen(app->pf, want->fullscreen);
#if !defined(__EMSCRIPTEN__) /* in a browser the page sizes the canvas, in whole steps */
    if (want->scale != have->scale && want->scale > 0) {
        /* The menu shows the scale the window has: the display may have taken it lower. */
        platform_set_window_scale(app->pf, want->scale);
        want->scale = platform_window_scale(app->pf);
        app->game->scale_max = platform_max_window_scale(app->pf);
    }
#endif
    bool keys = memcmp(want->binds, have->binds, sizeof want->binds) != 0;
    bool volumes = memcmp(want->volume, have->volume, sizeof want->volume) != 0;
    *have = *want;
    if (keys) apply_keys(app);
    if (volumes) cues_set_volumes(&app->cues, want, app->muted, app->ducked);
}

/* The sound: the bank, then the mixer at the device's rate, or at AUDIO_RATE offline. No
   device is not an error: the game plays silently, with the one warning the device gave. */
static bool open_audio(App *app, const char *assets) {
    const AppOptions *o = &app->opt;
    bool device = !o->audio_out && (o->audio == APP_AUDIO_DEVICE || (o->audio == APP_AUDIO_AUTO && !o->headless));
    if (!device && !o->audio_out) return true;
    cues_load(&app->bank, app->perm, assets);
    if (device) app->audio = audio_device_create(app->perm);
    uint32_t rate = app->audio ? audio_device_rate(app->audio) : AUDIO_RATE;
    if (app->audio || o->audio_out) app->mixer = mixer_create(app->perm, rate);
    if (o->audio_out && (!app->mixer || !virtual_array_init(&app->audio_out, 2 * sizeof(int16_t), 0))) return false;
    cues_init(&app->cues, app->mixer, &app->bank, o->seed);
    cues_set_volumes(&app->cues, &app->game->save.settings, false, false);
    if (app->audio && app->mixer) audio_device_start(app->audio, app->mixer);
    return true;
}

/* One tick's sound, mixed offline into the --audio-out buffer (1 GiB of address space:
   93 minutes; a longer run keeps its first 93). */
static void mix_tick(App *app) {
    int16_t *out = virtual_array_push_n(&app->audio_out, APP_AUDIO_TICK_FRAMES);
    if (out) mixer_render_s16(app->mixer, out, APP_AUDIO_TICK_FRAMES);
}

bool app_screenshot_dir(char *out, size_t cap) {
    char progress[SAVE_PATH_MAX];
    if (!save_default_path(progress, sizeof progress)) return snprintf(out, cap, ".") > 0;
    Str8 dir = path_dir(str8_cstr(progress));
    int n = snprintf(out, cap, "%.*s/screenshots", STR8_FMT(dir));
    return n > 0 && (size_t)n < cap;
}

/* F12: the first free screenshot-NNN.png in the screenshot folder, and a line on screen
   that says where it went ("~" for the home folder, to keep it short). */
static void take_screenshot(App *app) {
    char dir[SAVE_PATH_MAX], path[SAVE_PATH_MAX + 32];
    if (!app_screenshot_dir(dir, sizeof dir)) {
        diag_report(DIAG_ERROR, "screenshot: the folder's path is too long");
        return;
    }
    if (!os_make_dirs(dir)) {
        diag_report(DIAG_ERROR, "screenshot: cannot create %s", dir);
        return;
    }
    for (;; app->shots++) {
        snprintf(path, sizeof path, "%s/screenshot-%03d.png", dir, app->shots);
        if (os_file_info(path).kind == OS_FILE_NONE || app->shots >= 999) break;
    }
    app->shots++;
    Error err;
    if (!asset_write_screenshot(app->rd, path, &err)) {
        diag_report(DIAG_ERROR, "%s", err.message);
        return;
    }
    diag_report(DIAG_NOTE, "wrote %s", path);
    const char *home = getenv("HOME");
    size_t hl = home ? strlen(home) : 0;
    char line[SAVE_PATH_MAX + 64];
    if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
        snprintf(line, sizeof line, "screenshot saved: ~%s", path + hl);
    else snprintf(line, sizeof line, "screenshot saved: %s", path);
    game_show_notice(app->game, line);
}

/* --edit FILE --size WxH: a new level, written at once (there is no file to lose), so the
   game, which starts on a level file, starts on it like on any other. Never one the game
   would refuse, nor over a file; the reason when not. */
static bool create_level(App *app) {
    const AppOptions *o = &app->opt;
    const char *path = o->edit;
    Str8 p = str8_cstr(path);
    if (!str8_ends_with(p, STR8_LIT(LEVEL_FILE_EXT))) {
        bool tiled = str8_ends_with(p, STR8_LIT(LEVEL_TILED_EXT));
        diag_report_at(DIAG_ERROR, path, 0, 0, "not created: expected a name that ends in %s, the editor's format%s",
                       LEVEL_FILE_EXT,
                       tiled ? " (a .tmj is a Tiled map: make the level as .lvl and convert it"
                               " with lvl2tiled, or make the map in Tiled)"
                             : "");
        return false;
    }
    OsFileInfo fi = os_file_info(path);
    if (fi.kind != OS_FILE_NONE) {
        diag_report_at(DIAG_ERROR, path, 0, 0,
                       "not created: it exists (--size makes new levels; --edit alone opens it)");
        return false;
    }
    /* The writer would say "cannot write x.lvl.tmp": say what is wrong with the folder. */
    char folder[SIM_PATH_MAX];
    Str8 dir = path_dir(p);
    snprintf(folder, sizeof folder, "%.*s", STR8_FMT(dir));
    OsFileInfo di = os_file_info(folder[0] ? folder : ".");
    if (di.kind == OS_FILE_NONE) {
        diag_report_at(DIAG_ERROR, path, 0, 0, "not created: there is no folder %s (%s)", folder, strerror(di.error));
        return false;
    }
    if (di.kind != OS_FILE_DIRECTORY) {
        diag_report_at(DIAG_ERROR, path, 0, 0, "not created: %s is not a folder", folder);
        return false;
    }
    if (fi.error != ENOENT) {
        diag_report_at(DIAG_ERROR, path, 0, 0, "not created: cannot look at it: %s", strerror(fi.error));
        return false;
    }
    EditorUi *ui = app->editor;
    if (!editor_ui_new(ui, path, o->edit_w, o->edit_h, o->level_arena)) {
        Error why = {0};
        arena_error(&why);
        diag_report_at(DIAG_ERROR, path, 0, 0, "not created: no memory for a %dx%d level in the editor: %s", o->edit_w,
                       o->edit_h, strlen(path) >= LEVEL_PATH_MAX ? "the path is too long" : error_message(&why));
        return false;
    }
    Error msg;
    if (!editor_save(&ui->ed, false, &msg)) {
        if (ui->ed.has_problem) diag_report_at(DIAG_ERROR, path, 0, 0, "not created: %s", ui->ed.problem.message);
        else diag_report_at(DIAG_ERROR, path, 0, 0, "not created: %s", msg.message);
        editor_ui_release(ui);
        return false;
    }
    return true;
}

App *app_create(Arena *perm, const AppOptions *opt) {
    App *app = arena_push_struct(perm, App);
    if (!app) return NULL;
    app->opt = *opt;
    AppOptions *o = &app->opt;
    app->perm = perm;
    app->diag_before = diag_set_sink((DiagSink){app_report, app});
    app->level = arena_create((ArenaParams){.reserve_size = o->level_arena ? o->level_arena : LEVEL_ARENA_BYTES,
                                            .flags = ARENA_FLAG_NO_CHAIN,
                                            .name = "level"});
    app->frame = arena_create((ArenaParams){.reserve_size = APP_FRAME_ARENA_BYTES, .name = "frame"});
    if (!app->level || !app->frame) return app_teardown(app);
    if (!timeline_create(&app->timeline, perm, o->arena_trace != NULL, o->arena_trace_every)) return app_teardown(app);

    Error aerr;
    AssetSearch search = app_asset_search(o->assets);
    const char *assets = asset_dir_search(perm, &search, &aerr);
    if (!assets) {
        diag_report(DIAG_ERROR, "game: %s", aerr.message);
        return app_teardown(app);
    }
    Error msg;
    if (!o->seed_given) o->seed = 1;
    if (o->replay) {
        if (!replay_load(&app->replay, perm, o->replay, &msg)) {
            error_report(&msg);
            return app_teardown(app);
        }
        if (!o->level) o->level = app->replay.level;
        if (!o->seed_given) o->seed = app->replay.seed;
    }
    if (o->edit) {
        app->editor = arena_push_struct(perm, EditorUi);
        Error lerr0;
        if (!app->editor) {
            error_set(&lerr0, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "game: no memory for the editor: ");
            arena_error(&lerr0);
            error_report(&lerr0);
            return app_teardown(app);
        }
        if (o->edit_w > 0) {
            if (!create_level(app)) return app_teardown(app);
        } else if (!editor_ui_open_file(app->editor, o->edit, o->level_arena, &lerr0)) {
            error_report(&lerr0);
            return app_teardown(app);
        }
        app->editor->leave_quits = true; /* the session is the editor: leaving it ends the run */
        app->editing = true;
        o->level = o->edit;
        o->skip_title = true;
    }
    bool level_chosen = o->level != NULL && !o->replay;
    if (!o->level) o->level = default_level(perm, assets);
    if (!o->level) {
        diag_report(DIAG_ERROR, "game: no levels/01-*.lvl found; pass --level FILE");
        return app_teardown(app);
    }
    /* A replay or the bot must not overwrite the player's own progress. */
    char save_path[SAVE_PATH_MAX], settings_path[SAVE_PATH_MAX];
    bool save = !o->no_save && !o->replay && !o->autoplay && save_default_path(save_path, sizeof save_path);
    bool settings = save && save_settings_default_path(settings_path, sizeof settings_path);

    app->game = arena_push_struct(perm, Game);
    Error lerr;
    GameConfig cfg = {.start_level = o->level,
                      .seed = o->seed,
                      .skip_title = o->skip_title,
                      .save_path = save ? save_path : NULL,
                      .settings_path = settings ? settings_path : NULL,
                      .level_chosen = level_chosen};
    _Static_assert(SAVE_BIND_ACTIONS == ACTION_RESTART + 1, "save.h binds the actions up to restart, in order");
    input_set_actions(&app->in, CONTROLS_ACTIONS, ACTION_COUNT);
    InputBindings keys = input_bindings_default(&app->in);
    for (int a = 0; a < SAVE_BIND_ACTIONS; a++)
        for (int k = 0; k < SAVE_BIND_SLOTS; k++) cfg.default_binds[a][k] = keys.keys[a][k];
    /* The game's code: linked in, or (--hot-reload) the library, watched from now on. */
    const char *lib = NULL;
    if (o->hot_reload) {
        const char *dir = o->hot_library ? NULL : os_exe_dir(perm);
        lib = o->hot_library ? o->hot_library : dir ? str8_fmt(perm, "%s/libgame_hot.so", dir).data : "libgame_hot.so";
    }
    bool module_ok = game_module_create(&app->module, perm, lib);
    if (!app->game || !app->module.api->init(app->game, app->level, &cfg, &lerr)) {
        if (app->game) error_report(&lerr);
        else diag_report(DIAG_ERROR, "out of memory");
        return app_teardown(app);
    }
    effects_init(&app->effects, app->game, NULL);
    if (o->record && !replay_begin_record(&app->record, perm, o->seed, o->level)) {
        diag_report(DIAG_ERROR, "game: cannot start recording");
        return app_teardown(app);
    }

    /* The window as the player left it. */
    SaveSettings *st = &app->game->save.settings;
    RendererKind kind = o->renderer;
    if (kind == RENDERER_DEFAULT)
        kind = st->renderer == SAVE_RENDERER_SDL  ? RENDERER_SDL
               : st->renderer == SAVE_RENDERER_GL ? RENDERER_GL
                                                  : RENDERER_DEFAULT;
    app->pf = platform_create(perm, &(PlatformDesc){.title = APP_TITLE,
                                                    .app_id = APP_ID,
                                                    .logical_w = APP_LOGICAL_W,
                                                    .logical_h = APP_LOGICAL_H,
                                                    .headless = o->headless,
                                                    .scale = o->scale ? o->scale : st->scale,
                                                    .fullscreen = st->fullscreen,
                                                    .renderer = kind,
                                                    .fixed_clock = o->fixed_clock});
    if (!app->pf) return app_teardown(app);
    app->game->scale_max = platform_max_window_scale(app->pf);
    if (st->scale <= 0 || (!o->scale && st->scale > platform_window_scale(app->pf)))
        st->scale = platform_window_scale(app->pf);
    app->applied = *st;
    apply_keys(app);
    int lw, lh;
    platform_logical_size(app->pf, &lw, &lh);
    app->rd = render_create(perm, app->pf);
    if (!app->rd) {
        diag_report(DIAG_ERROR, "game: no renderer");
        return app_teardown(app);
    }
    Renderer *rd = app->rd;
    app->game->renderer_running = render_kind(rd) == RENDERER_GL ? SAVE_RENDERER_GL : SAVE_RENDERER_SDL;
    const Texture *tiles =
        asset_load_texture(rd, perm, asset_path(perm, assets, "tiles.png"), TILE_CELL, TILE_CELL, &aerr);
    const Texture *sprites =
        tiles ? asset_load_texture(rd, perm, asset_path(perm, assets, "sprites.png"), SPRITE_CELL, SPRITE_CELL, &aerr)
              : NULL;
    /* Proportional glyphs; a 4-px space (5 px between words with the gap) reads as one word
       break where the old monospace 6 looked like two. */
    Font font;
    if (!sprites || !asset_load_font(rd, perm, asset_path(perm, assets, "font.png"), FONT_CELL_W, FONT_CELL_H,
                                     FONT_SPACE_ADVANCE, &font, &aerr)) {
        diag_report(DIAG_ERROR, "%s", aerr.message);
        return app_teardown(app);
    }
    app->art = (DrawAssets){.tiles = tiles, .sprites = sprites, .font = font};
    if (!open_audio(app, assets)) {
        diag_report(DIAG_ERROR, "game: cannot set up the sound for --audio-out");
        return app_teardown(app);
    }
    app->view = draw_view_make((float)lw, (float)lh);
    if (app->editing)
        editor_ui_center(app->editor, app->game->sim.level.start_tx, app->game->sim.level.start_ty, (float)lw,
                         (float)lh);
    app->module.api->view_update(&app->view, app->game);
    if (lib)
        diag_report(module_ok ? DIAG_NOTE : DIAG_WARNING, "%s%s", app->module.message,
                    module_ok ? "" : "; playing the code linked into the game until it changes");
    app->clock = fixed_step_make(SIM_HZ);
    app->last_frame = platform_seconds(app->pf);
    return app;
}

/* ---- The editor and the live reload ---- */

static void open_editor(App *app) {
    Game *g = app->game;
    const char *path = g->sim.level.path ? g->sim.level.path : "";
    if (str8_ends_with(str8_cstr(path), STR8_LIT(LEVEL_TILED_EXT))) {
        diag_report_at(DIAG_ERROR, path, 0, 0,
                       "a Tiled map is edited in Tiled (the game reloads it when it is saved there)");
        return;
    }
    if (!app->editor) app->editor = arena_push_struct(app->perm, EditorUi);
    if (!app->editor || !editor_ui_open_level(app->editor, &g->sim.level, app->opt.level_arena)) {
        diag_report(DIAG_ERROR, "game: cannot open the editor (no memory)");
        return;
    }
    app->playtested = false;
    app->edits_dropped = false;
    int lw, lh;
    platform_logical_size(app->pf, &lw, &lh);
    editor_ui_center(app->editor, g->sim.player.x / (TILE_PX * FIX_ONE), g->sim.player.y / (TILE_PX * FIX_ONE),
                     (float)lw, (float)lh);
    app->editing = true;
}

/* Tab: the level as it stands, from the text the editor would save, the player on the
   cursor; the file on disk is not touched. */
static void start_playtest(App *app) {
    EditorUi *ui = app->editor;
    SCRATCH_SCOPE(tmp);
    Str8 text = editor_text(tmp.arena, &ui->ed);
    Error err;
    Sim *s = &app->game->sim;
    PlayerProgress progress = s->progress, entry = s->progress_entry;
    char path[SIM_PATH_MAX], entry_name[SIM_ENTRY_MAX];
    memcpy(path, s->level_path, sizeof path);
    memcpy(entry_name, s->entry_name, sizeof entry_name);
    if (!game_playtest(app->game, ui->ed.path, text, ui->cursor_tx, ui->cursor_ty, &err)) {
        editor_ui_status(ui, true, err.message);
        return;
    }
    if (!app->playtested) {
        app->playtested = true;
        app->before_test = progress, app->before_test_entry = entry;
        memcpy(app->before_test_path, path, sizeof path);
        memcpy(app->before_test_entry_name, entry_name, sizeof entry_name);
    }
    app->editing = false;
    app->playtest = true;
    app->module.api->view_update(&app->view, app->game);
}

/* From the play-test back to the editor, saying how it ended. */
static void back_to_editor(App *app) {
    Game *g = app->game;
    const char *how = g->screen == SCREEN_GAME_OVER    ? "play-test: you died"
                      : g->screen == SCREEN_TRANSITION ? "play-test: you reached the exit"
                      : g->screen == SCREEN_VICTORY    ? "play-test: you won"
                                                       : "play-test over";
    editor_ui_status(app->editor, false, how);
    g->screen = SCREEN_PLAYING;
    app->playtest = false;
    app->editing = true;
}

/* From the editor opened in play back to the game, on the file as it is on disk now: where
   the player stood, or, when play-tests played over the game, the level from its entry with
   the progress the player had (as R restarts it), never the play-test's run and clock. */
static void back_to_game(App *app) {
    Game *g = app->game;
    editor_ui_release(app->editor);
    app->editing = false;
    Error err;
    bool ok;
    if (app->playtested) {
        Sim *s = &g->sim;
        s->progress = app->before_test;
        s->progress_entry = app->before_test_entry;
        memcpy(s->level_path, app->before_test_path, sizeof s->level_path);
        memcpy(s->entry_name, app->before_test_entry_name, sizeof s->entry_name);
        ok = sim_restart_level(s, g->level_arena, &err);
        if (ok) g->screen = SCREEN_PLAYING;
    } else {
        ok = game_reload_level(g, &err);
    }
    if (!ok) error_report(&err);
    app->playtested = false;
}

static void editor_frame(App *app) {
    int lw, lh;
    platform_logical_size(app->pf, &lw, &lh);
    EditorAction act = editor_ui_frame(app->editor, &app->in, (float)lw - app->debug_w, (float)lh);
    if (act == EDITOR_PLAYTEST) {
        start_playtest(app);
    } else if (act == EDITOR_QUIT || (act == EDITOR_LEAVE && app->editor->leave_quits)) {
        /* Saved, or the user said to drop the changes: nothing to keep. The editor stays
           on screen for this last frame. */
        app->edits_dropped = true;
        app->quit = true;
    } else if (act == EDITOR_LEAVE) {
        back_to_game(app);
    }
}

/* A quit request (the window closed, a signal) with unsaved edits. At a window the editor
   asks first, the question Esc asks, and a second close is the answer "without saving". A
   signal or a headless run has nobody to ask: the run ends, and app_release keeps the
   edits beside the file. True when the run goes on. */
static bool quit_held(App *app) {
    EditorUi *ui = app->editor;
    if (!ui || !ui->open || !ui->ed.dirty || app->in.quit_signal || app->opt.headless) return false;
    if (app->playtest) back_to_editor(app);
    if (editor_ui_ask_quit(ui)) {
        app->edits_dropped = true;
        return false;
    }
    app->in.quit = false;
    return true;
}

/* At the end of a run with edits nobody saved or dropped: beside the file, and said so. */
static void keep_unsaved(App *app) {
    EditorUi *ui = app->editor;
    if (!ui || !ui->open || !ui->ed.dirty || app->edits_dropped) return;
    int sig = app->in.quit_signal;
    const char *why = sig == SIGINT       ? "interrupted (SIGINT)"
                      : sig == SIGTERM    ? "terminated (SIGTERM)"
                      : sig == SIGHUP     ? "its terminal closed (SIGHUP)"
                      : sig               ? "ended by a signal"
                      : app->opt.headless ? "ended headless, with nobody to ask"
                                          : "ended";
    Error msg;
    if (!editor_keep_unsaved(&ui->ed, &msg)) {
        diag_report(DIAG_ERROR, "game: %s: %s", why, msg.message);
        app->status = 1;
        return;
    }
    diag_report(DIAG_WARNING, "game: %s: %s; the next --edit %s offers them back", why, msg.message, ui->ed.path);
}

/* A few times a second: has the level's file changed on disk? Reload it in place, or show
   why not and keep playing the level that runs. Paused too: switching to a text editor
   takes the focus, which pauses. Never in a replay or a recording: a reload is not in the
   input bytes. */
static void watch_level(App *app) {
    Game *g = app->game;
    if (app->frames % 15 != 0) return;
    watch_follow(&app->watch, g->sim.level_path);
    if ((g->screen != SCREEN_PLAYING && g->screen != SCREEN_PAUSED) || g->sim.level_from_text ||
        !watch_poll(&app->watch))
        return;
    Error err;
    if (sim_reload_level(&g->sim, g->level_arena, &err)) {
        char line[SIM_PATH_MAX + 32];
        snprintf(line, sizeof line, "reloaded %s", g->sim.level_path);
        diag_report(DIAG_NOTE, "%s", line);
        game_show_notice(g, line);
    } else {
        error_report(&err); /* on screen too (the App's sink); the level keeps running */
    }
}

/* What a swap (or a refused library) did, on the log and the HUD. */
static bool app_module_event(App *app, GameModuleEvent ev) {
    if (ev == GAME_MODULE_SAME) return false;
    const AppOptions *o = &app->opt;
    /* The host's own code reads the state with the layout it was built with: a new process
       (the executable rebuilt beside the library) takes the level from its start. Not
       during a replay or a recording, whose run it would cut, nor in the editor or its
       play-test, whose unsaved level a new process would not have. */
    if (ev == GAME_MODULE_LAYOUT_CHANGED && !o->replay && !o->record && !o->autoplay && !app->editing &&
        !app->playtest && app->game->sim.level_path[0]) {
        diag_report(DIAG_WARNING, "%s: restarting the level with the new build", app->module.message);
        snprintf(app->restart_path, sizeof app->restart_path, "%s", app->game->sim.level_path);
        app->restart_level = true;
        return false;
    }
    if (ev != GAME_MODULE_SWAPPED) { /* the log and the HUD, as any warning */
        diag_report(DIAG_WARNING, "%s%s", app->module.message,
                    ev == GAME_MODULE_LAYOUT_CHANGED ? ": save the level, then restart the game to use it" : "");
        return false;
    }
    app->module.api->reloaded(app->game);
    diag_report(DIAG_NOTE, "%s", app->module.message);
    char notice[160];
    snprintf(notice, sizeof notice, "game code reloaded (%u): %s, built %s", app->module.loads, app->module.api->build,
             app->module.built);
    game_show_notice(app->game, notice);
    return true;
}

bool app_reload_game(App *app) { return app_module_event(app, game_module_reload(&app->module)); }

int app_restart_args(const App *app, int argc, char **argv, char **out, int cap) {
    if (!app->restart_level) return 0;
    int n = 0;
    if (cap < argc + 4) return -1;
    out[n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        /* What chose the level or the screen to start on goes; the rest stays. */
        bool with_value = !strcmp(argv[i], "--level") || !strcmp(argv[i], "--edit") || !strcmp(argv[i], "--size");
        if (with_value) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "--skip-title")) continue;
        out[n++] = argv[i];
    }
    out[n++] = "--level";
    out[n++] = (char *)app->restart_path;
    out[n++] = "--skip-title";
    out[n] = NULL;
    return n;
}

bool app_frame(App *app) {
    const AppOptions *o = &app->opt;
    Game *g = app->game;
    if (!platform_poll(app->pf, &app->in) && !quit_held(app)) return false;
    /* --hot-reload: a rebuilt library takes over from the next tick, on the same state. */
    app_module_event(app, game_module_poll(&app->module));
    if (app->restart_level) return false;
    /* F11 and Alt+Enter switch fullscreen in the platform: the setting follows. */
    if (platform_is_fullscreen(app->pf) != app->applied.fullscreen) {
        app->applied.fullscreen = g->save.settings.fullscreen = platform_is_fullscreen(app->pf);
        g->settings_dirty = true;
    }
    /* A key the settings screen waits for is the binding, not input: Esc cancels. */
    if (game_rebinding(g) >= 0 && app->in.key_pressed) {
        uint16_t key = app->in.key_pressed;
        GameBind moved = game_bind_key(g, key == SDL_SCANCODE_ESCAPE ? 0 : key);
        char line[160];
        if (controls_bind_notice(&moved, line, sizeof line)) game_show_notice(g, line);
        input_end_step(&app->in);
    }
    bool back = false; /* Tab or Esc: the play-test's way back, whatever the keys are bound to */
    for (int i = 0; i < app->in.key_count; i++)
        back |= app->in.keys[i] == SDL_SCANCODE_TAB || app->in.keys[i] == SDL_SCANCODE_ESCAPE;
    if (app->playtest && back) {
        back_to_editor(app);
        input_end_step(&app->in); /* that Tab was the way back, not the editor's */
    } else if (app->editing) {
        editor_frame(app);
        /* The editor had the keys: none of them is game input; F1 and F12 still work. */
        if (app->in.pressed[ACTION_DEBUG]) app->controls.show_debug = !app->controls.show_debug;
        bool shot = app->in.pressed[ACTION_SCREENSHOT];
        input_end_step(&app->in);
        app->in.pressed[ACTION_SCREENSHOT] = shot;
    }
    controls_collect(&app->controls, &app->in, g->screen);
    if (!app->editing && app->controls.edit && !o->replay && !o->autoplay &&
        (g->screen == SCREEN_PLAYING || g->screen == SCREEN_PAUSED))
        open_editor(app);
    /* M mutes; a window without focus pauses the game (controls.h) and ducks the sound. */
    bool ducked = !app->in.focused;
    if (app->controls.mute || ducked != app->ducked) {
        if (app->controls.mute) {
            app->muted = !app->muted;
            game_show_notice(g, app->muted ? "sound off (M)" : "sound on");
        }
        app->ducked = ducked;
        cues_set_volumes(&app->cues, &g->save.settings, app->muted, app->ducked);
    }
    if (app->audio) audio_device_check(app->audio);
    double now = platform_seconds(app->pf); /* --fixed-clock: the platform's headless clock */
    int steps = fixed_step_advance(&app->clock, now);
    for (int i = 0; i < steps && !app->replay_over && !app->autoplay_over && !app->editing; i++) {
        uint8_t b;
        if (o->replay) {
            if (!replay_next(&app->replay, &b)) {
                app->replay_over = true;
                break;
            }
        } else if (o->autoplay) {
            b = (uint8_t)app->module.api->bot_input(g);
        } else {
            b = controls_tick_input(&app->controls, &app->in);
        }
        if (o->record) replay_append(&app->record, b);
        app->last_input = b;
        app->module.api->update(g, b);
        app->module.api->effects_update(&app->effects, g);
        app->module.api->view_update(&app->view, g);
        cues_update(&app->cues, g, &app->view);
        if (app->audio_out.base) mix_tick(app);
        if (app->playtest && g->screen != SCREEN_PLAYING) back_to_editor(app);
        if (o->autoplay &&
            (g->screen == SCREEN_VICTORY ||
             (o->autoplay_levels > 0 && g->sim.progress.levels_completed >= (int32_t)o->autoplay_levels)))
            app->autoplay_over = true;
    }
    apply_settings(app);
    if (!o->no_watch && !o->replay && !o->record && !o->autoplay && !app->editing && !app->playtest) watch_level(app);
    double after_update = platform_seconds(app->pf);

    Renderer *rd = app->rd;
    arena_clear(app->frame);
    render_begin(rd, app->frame, (Color){20, 16, 28, 255});
    int lw, lh;
    platform_logical_size(app->pf, &lw, &lh);
    /* F1: one panel docked on the right under the HUD, opaque, its height the screen's:
       the world, the editor and the cards make room for it instead of being covered. */
    Arena *dbg[5 + ARENA_SCRATCH_COUNT] = {app->perm, app->level, app->frame};
    const char *labels[5 + ARENA_SCRATCH_COUNT] = {0};
    int ndbg = 3;
    DebugFrameInfo info = {.frame_ms = app->frame_ms, .update_ms = app->update_ms, .stats = render_stats(rd)};
    DebugOverlayOptions dopt = {.x = (float)lw,
                                .y = DRAW_HUD_H,
                                .right = true,
                                .h = (float)lh - DRAW_HUD_H,
                                .layer = LAYER_DEBUG,
                                .alpha = 255,
                                .labels = labels,
                                .trace = &app->timeline.trace,
                                .trace_frames = 180};
    app->debug_w = 0;
    if (app->controls.show_debug) {
        /* Only the scratch arenas that exist: scratch_get would create (map) the others.
           scratch_begin creates them in index order, so the first n are the ones there are. */
        static const char *const scratch_names[] = {"scratch0", "scratch1", "scratch2", "scratch3"};
        ArenaStats ss[ARENA_SCRATCH_COUNT];
        uint32_t n = scratch_stats(ss, ARENA_SCRATCH_COUNT);
        for (uint32_t i = 0; i < n; i++, ndbg++)
            dbg[ndbg] = scratch_get(i), labels[ndbg] = i < ARRAY_COUNT(scratch_names) ? scratch_names[i] : NULL;
        if (app->editor && app->editor->open) dbg[ndbg++] = app->editor->ed.arena, dbg[ndbg++] = app->editor->ed.check;
        app->debug_w = debug_overlay_measure(rd, &app->art.font, dbg, ndbg, &info, &dopt).w;
    }
    draw_view_dock(&app->view, app->debug_w);
    if (app->editing) editor_ui_draw(app->editor, rd, &app->art, (float)lw - app->debug_w, (float)lh);
    else app->module.api->draw(rd, &app->art, &app->view, g, &app->effects);
    if (app->playtest) editor_ui_draw_playtest(rd, &app->art, (float)lw - app->debug_w, (float)lh);
    if (app->controls.show_debug) debug_overlay_draw_ex(rd, &app->art.font, dbg, ndbg, &info, &dopt);
    render_end(rd);
    app->frames++;
    bool last = g->quit || app->quit || (o->frames && app->frames >= o->frames) ||
                (o->headless && (app->replay_over || app->autoplay_over));
    if (app->controls.screenshot) take_screenshot(app);
    Error err;
    if (last && o->screenshot && !asset_write_screenshot(rd, o->screenshot, &err)) {
        diag_report(DIAG_ERROR, "%s", err.message);
        app->status = 1;
    }
    /* The scratch arenas that exist (scratch_get would create the others). */
    Arena *traced[TIMELINE_SLOTS] = {app->perm, app->level, app->frame};
    ArenaStats ss[ARENA_SCRATCH_COUNT];
    uint32_t ns = scratch_stats(ss, ARENA_SCRATCH_COUNT);
    for (uint32_t i = 0; i < ns && TIMELINE_SCRATCH + i < TIMELINE_SLOTS; i++)
        traced[TIMELINE_SCRATCH + i] = scratch_get(i);
    timeline_frame(&app->timeline, g, traced, app->frames);
    render_present(rd);
    double t = platform_seconds(app->pf);
    app->frame_ms = (t - app->last_frame) * 1000.0;
    app->update_ms = (after_update - now) * 1000.0;
    app->last_frame = t;
    return !last;
}

int app_release(App *app) {
    const AppOptions *o = &app->opt;
    Game *g = app->game;
    Error msg;
    if (o->record) {
        if (!replay_save(&app->record, o->record, game_hash(g), g->sim.progress.levels_completed, &msg)) {
            error_report(&msg);
            app->status = 1;
        } else if (app->record.overflowed) {
            diag_report(DIAG_WARNING,
                        "warning: recorded only the first %u ticks (the buffer was full); %s has no final hash"
                        " and its playback cannot be checked",
                        app->record.ticks, o->record);
        } else {
            diag_report(DIAG_NOTE, "recorded %u ticks, %d levels completed, hash %016llx -> %s", app->record.ticks,
                        g->sim.progress.levels_completed, (unsigned long long)game_hash(g), o->record);
        }
    }
    if (o->replay) {
        const Replay *r = &app->replay;
        uint64_t h = game_hash(g);
        bool complete = replay_done(r);
        bool ok = !complete || !r->has_hash ||
                  (h == r->hash && (r->levels < 0 || r->levels == g->sim.progress.levels_completed));
        /* The verdict: a note, or an error when the run is not the one recorded. */
        diag_report(ok ? DIAG_NOTE : DIAG_ERROR, "replay %s: %s, %d levels completed, hash %016llx%s", o->replay,
                    complete ? "played to the end" : "stopped early", g->sim.progress.levels_completed,
                    (unsigned long long)h,
                    !complete      ? ""
                    : !r->has_hash ? " (no hash to check)"
                    : ok           ? " (matches)"
                                   : " (MISMATCH)");
        if (!ok) app->status = 3;
    }
    keep_unsaved(app);
    game_save_settings(app->game);
    if (o->audio_out) {
        const int16_t *pcm = app->audio_out.base;
        if (!sound_write_wav(o->audio_out, pcm, app->audio_out.count, AUDIO_RATE, &msg)) {
            error_report(&msg);
            app->status = 1;
        } else {
            diag_report(DIAG_NOTE, "wrote %llu frames of sound -> %s", (unsigned long long)app->audio_out.count,
                        o->audio_out);
        }
    }
    report_arenas(app->perm, app->level, app->frame, g);
    uint64_t recommended = timeline_report(&app->timeline);
    if (o->arena_trace && !timeline_write_csv(&app->timeline, o->arena_trace, recommended, &msg)) {
        error_report(&msg);
        app->status = 1;
    }
    if (app->bank.loaded || app->bank.missing)
        fprintf(stderr, "sound data: %llu bytes of the permanent arena (%d files, %d missing)\n",
                (unsigned long long)app->bank.bytes, app->bank.loaded, app->bank.missing);
    int status = app->status;
    app_teardown(app);
    return status;
}
