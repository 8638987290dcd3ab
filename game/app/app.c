/* app.c - the game's frame, ticks and drawing, mode by mode, behind its table (app.h). */
#include "app/app.h"

#include <SDL2/SDL_scancode.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../assets/atlas.h"
#include <strata/asset/asset.h>
#include <strata/core/base.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include "rules/bot.h"

/* levels/01-*.lvl next to the assets directory, or in the current directory; of several,
   the first by name, whatever order the folder lists them in. */
static const char *default_level(Arena *perm, const char *assets) {
    const char *dirs[2] = {"levels", NULL};
    if (assets) {
        Str8 parent = st_path_dir_prefix(st_str8_cstr(assets)); /* "game/assets" -> "game/" */
        dirs[1] = parent.len ? st_str8_fmt(perm, "%.*slevels", STR8_FMT(parent)).data : "levels";
    }
    for (int d = 0; d < 2; d++) {
        if (!dirs[d]) continue;
        SCRATCH_SCOPE(tmp, perm);
        OsDirList list;
        if (!st_os_list_dir(tmp.arena, dirs[d], &list)) continue;
        const char *best = NULL;
        for (uint64_t i = 0; i < list.count; i++) {
            Str8 name = list.entries[i].name;
            if (name.len < 8 || !st_str8_starts_with(name, STR8_LIT("01-")) ||
                !st_str8_ends_with(name, STR8_LIT(".lvl")))
                continue;
            if (!best || strcmp(name.data, best) < 0) best = name.data;
        }
        if (best) return st_str8_fmt(perm, "%s/%s", dirs[d], best).data;
    }
    return NULL;
}

/* The build's own folders (game/CMakeLists.txt): a build anywhere finds the art of the
   tree it was made from, and an install the art of its prefix. */
#if defined(AD_PORTABLE) /* game_dist: a package's art is beside it (game/CMakeLists.txt) */
#undef AD_SOURCE_DIR
#undef AD_INSTALL_PREFIX
#endif
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
    InputBindings b = st_input_bindings_default(&app->host->in);
    const SaveSettings *st = &app->game->save.settings;
    for (int a = 0; a < SAVE_BIND_ACTIONS; a++)
        for (int k = 0; k < SAVE_BIND_SLOTS; k++) b.keys[a][k] = st->binds[a][k];
    st_input_set_bindings(&app->host->in, &b);
}

/* Every setting takes effect the frame the menu changes it. */
static void apply_settings(App *app) {
    SaveSettings *want = &app->game->save.settings;
    SaveSettings *have = &app->applied;
    if (want->fullscreen != have->fullscreen) st_platform_set_fullscreen(app->host->pf, want->fullscreen);
#if !defined(__EMSCRIPTEN__) /* in a browser the page sizes the canvas, in whole steps */
    if (want->scale != have->scale && want->scale > 0) {
        /* The menu shows the scale the window has: the display may have taken it lower. */
        st_platform_set_window_scale(app->host->pf, want->scale);
        want->scale = st_platform_window_scale(app->host->pf);
        app->game->scale_max = st_platform_max_window_scale(app->host->pf);
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
    bool device =
        !o->audio_out && (o->audio == APP_AUDIO_DEVICE || (o->audio == APP_AUDIO_AUTO && !app->host->opt.headless));
    if (!device && !o->audio_out) return true;
    Arena *perm = app->host->life.perm;
    /* With a device, the sounds and music are made after the first frame, on a thread
       (nobody hears them before); offline, where the first tick mixes them, here. */
    if (device) app->music = st_music_worker_create(perm);
    CueMusic first = app->game->screen == SCREEN_PLAYING ? CUE_MUSIC_PLAY : CUE_MUSIC_TITLE;
    cues_load_later(&app->bank, perm, app->host->assets, assets, app->music, first);
    for (int i = 0; i < CUE_SOUND_COUNT + CUE_MUSIC_COUNT; i++) app->music_waiting += app->bank.later[i] != 0;
    if (device) app->audio = st_audio_device_create(perm);
    uint32_t rate = app->audio ? st_audio_device_rate(app->audio) : AUDIO_RATE;
    if (app->audio || o->audio_out) app->mixer = st_mixer_create(perm, rate);
    st_asset_watch_set_mixer(app->host->assets, app->mixer); /* the voices a reload moves over */
    if (o->audio_out && (!app->mixer || !st_virtual_array_init(&app->audio_out, 2 * sizeof(int16_t), 0))) return false;
    cues_init(&app->cues, app->mixer, &app->bank, o->seed);
    cues_set_volumes(&app->cues, &app->game->save.settings, false, false);
    if (app->audio && app->mixer) st_audio_device_start(app->audio, app->mixer);
    return true;
}

/* One tick's sound, mixed offline into the --audio-out buffer (1 GiB of address space:
   93 minutes; a longer run keeps its first 93). */
static void mix_tick(App *app) {
    int16_t *out = st_virtual_array_push_n(&app->audio_out, APP_AUDIO_TICK_FRAMES);
    if (out) st_mixer_render_s16(app->mixer, out, APP_AUDIO_TICK_FRAMES);
}

/* --edit FILE --size WxH: a new level, written at once (there is no file to lose), so the
   game, which starts on a level file, starts on it like on any other. Never one the game
   would refuse, nor over a file; the reason when not. */
static bool create_level(App *app) {
    const AppOptions *o = &app->opt;
    const char *path = o->edit;
    Str8 p = st_str8_cstr(path);
    if (!st_str8_ends_with(p, STR8_LIT(LEVEL_FILE_EXT))) {
        bool tiled = st_str8_ends_with(p, STR8_LIT(LEVEL_TILED_EXT));
        st_diag_report_at(DIAG_ERROR, path, 0, 0, "not created: expected a name that ends in %s, the editor's format%s",
                          LEVEL_FILE_EXT,
                          tiled ? " (a .tmj is a Tiled map: make the level as .lvl and convert it"
                                  " with lvl2tiled, or make the map in Tiled)"
                                : "");
        return false;
    }
    OsFileInfo fi = st_os_file_info(path);
    if (fi.kind != OS_FILE_NONE) {
        st_diag_report_at(DIAG_ERROR, path, 0, 0,
                          "not created: it exists (--size makes new levels; --edit alone opens it)");
        return false;
    }
    /* The writer would say "cannot write x.lvl.tmp": say what is wrong with the folder. */
    char folder[SIM_PATH_MAX];
    Str8 dir = st_path_dir(p);
    snprintf(folder, sizeof folder, "%.*s", STR8_FMT(dir));
    OsFileInfo di = st_os_file_info(folder[0] ? folder : ".");
    if (di.kind == OS_FILE_NONE) {
        st_diag_report_at(DIAG_ERROR, path, 0, 0, "not created: there is no folder %s (%s)", folder,
                          strerror(di.error));
        return false;
    }
    if (di.kind != OS_FILE_DIRECTORY) {
        st_diag_report_at(DIAG_ERROR, path, 0, 0, "not created: %s is not a folder", folder);
        return false;
    }
    if (fi.error != ENOENT) {
        st_diag_report_at(DIAG_ERROR, path, 0, 0, "not created: cannot look at it: %s", strerror(fi.error));
        return false;
    }
    EditorUi *ui = app->editor;
    if (!editor_ui_new(ui, path, o->edit_w, o->edit_h, st_arena_capacity(app->host->life.level))) {
        Error why = {0};
        st_arena_error(&why);
        st_diag_report_at(DIAG_ERROR, path, 0, 0, "not created: no memory for a %dx%d level in the editor: %s",
                          o->edit_w, o->edit_h,
                          strlen(path) >= LEVEL_PATH_MAX ? "the path is too long" : st_error_message(&why));
        return false;
    }
    Error msg;
    if (!editor_save(&ui->ed, false, &msg)) {
        if (ui->ed.has_problem) st_diag_report_at(DIAG_ERROR, path, 0, 0, "not created: %s", ui->ed.problem.message);
        else st_diag_report_at(DIAG_ERROR, path, 0, 0, "not created: %s", msg.message);
        editor_ui_release(ui);
        return false;
    }
    return true;
}

/* ---- The editor and the live reload ---- */

static void open_editor(App *app) {
    Game *g = app->game;
    const char *path = g->sim.level.path ? g->sim.level.path : "";
    if (st_str8_ends_with(st_str8_cstr(path), STR8_LIT(LEVEL_TILED_EXT))) {
        st_diag_report_at(DIAG_ERROR, path, 0, 0,
                          "a Tiled map is edited in Tiled (the game reloads it when it is saved there)");
        return;
    }
    Host *h = app->host;
    if (!app->editor) app->editor = st_arena_push_struct(h->life.perm, EditorUi);
    if (!app->editor || !editor_ui_open_level(app->editor, &g->sim.level, st_arena_capacity(h->life.level))) {
        st_diag_report(DIAG_ERROR, "game: cannot open the editor (no memory)");
        return;
    }
    app->playtested = false;
    app->edits_dropped = false;
    rewind_forget(&app->rewind); /* the editor changes the level under what was recorded */
    int lw, lh;
    st_host_logical_size(h, &lw, &lh);
    editor_ui_center(app->editor, g->sim.player.x / (TILE_PX * FIX_ONE), g->sim.player.y / (TILE_PX * FIX_ONE),
                     (float)lw, (float)lh);
    app->mode = APP_MODE_EDIT;
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
    app->mode = APP_MODE_PLAYTEST;
    rewind_forget(&app->rewind); /* each play-test is a level of its own */
    draw_view_update(&app->view, app->game);
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
    app->mode = APP_MODE_EDIT;
}

/* From the editor opened in play back to the game, on the file as it is on disk now: where
   the player stood, or, when play-tests played over the game, the level from its entry with
   the progress the player had (as R restarts it), never the play-test's run and clock. */
static void back_to_game(App *app) {
    Game *g = app->game;
    editor_ui_release(app->editor);
    app->mode = APP_MODE_PLAY;
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
    if (!ok) st_error_report(&err);
    app->playtested = false;
    rewind_forget(&app->rewind);
}

static void editor_frame(App *app) {
    Host *h = app->host;
    int lw, lh;
    st_host_logical_size(h, &lw, &lh);
    EditorAction act =
        editor_ui_frame(app->editor, &h->in, (float)(h->frame_ms / 1000.0), (float)lw - h->debug_w, (float)lh);
    if (act == EDITOR_PLAYTEST) {
        start_playtest(app);
    } else if (act == EDITOR_QUIT || (act == EDITOR_LEAVE && app->editor->leave_quits)) {
        /* Saved, or the user said to drop the changes: nothing to keep. The editor stays
           on screen for this last frame. */
        app->edits_dropped = true;
        h->quit = true;
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
    Input *in = &app->host->in;
    if (!ui || !ui->open || !ui->ed.dirty || in->quit_signal || app->host->opt.headless) return false;
    if (app->mode == APP_MODE_PLAYTEST) back_to_editor(app);
    if (editor_ui_ask_quit(ui)) {
        app->edits_dropped = true;
        return false;
    }
    in->quit = false;
    return true;
}

/* At the end of a run with edits nobody saved or dropped: beside the file, and said so. */
static void keep_unsaved(App *app) {
    EditorUi *ui = app->editor;
    if (!ui || !ui->open || !ui->ed.dirty || app->edits_dropped) return;
    int sig = app->host->in.quit_signal;
    const char *why = sig == SIGINT    ? "interrupted (SIGINT)"
                      : sig == SIGTERM ? "terminated (SIGTERM)"
#if defined(SIGHUP)
                      : sig == SIGHUP ? "its terminal closed (SIGHUP)"
#endif
                      : sig                     ? "ended by a signal"
                      : app->host->opt.headless ? "ended headless, with nobody to ask"
                                                : "ended";
    Error msg;
    if (!editor_keep_unsaved(&ui->ed, &msg)) {
        st_diag_report(DIAG_ERROR, "game: %s: %s", why, msg.message);
        app->status = 1;
        return;
    }
    st_diag_report(DIAG_WARNING, "game: %s: %s; the next --edit %s offers them back", why, msg.message, ui->ed.path);
}

/* A few times a second: has the level's file changed on disk? Reload it in place, or show
   why not and keep playing the level that runs. Paused too: switching to a text editor
   takes the focus, which pauses. Never in a replay or a recording: a reload is not in the
   input bytes. */
static void watch_level(App *app) {
    Game *g = app->game;
    if (app->host->frames % 15 != 0) return;
    watch_follow(&app->watch, g->sim.level_path);
    if ((g->screen != SCREEN_PLAYING && g->screen != SCREEN_PAUSED) || g->sim.level_from_text ||
        !watch_poll(&app->watch))
        return;
    Error err;
    if (sim_reload_level(&g->sim, g->level_arena, &err)) {
        char line[SIM_PATH_MAX + 32];
        snprintf(line, sizeof line, "reloaded %s", g->sim.level_path);
        st_diag_report(DIAG_NOTE, "%s", line);
        game_show_notice(g, line);
    } else {
        st_error_report(&err); /* on screen too (the App's sink); the level keeps running */
    }
}

/* The editor and the sound, as far as they were made. */
static void app_teardown(App *app) {
    if (app->editor) editor_ui_release(app->editor);
    /* The device first: its callback reads the mixer and the sounds until it is closed. */
    if (app->audio) st_audio_device_release(app->audio);
    st_music_worker_release(app->music); /* its samples with it: nothing plays them now */
    app->music = NULL;
    if (app->audio_out.base) st_virtual_array_release(&app->audio_out);
}

/* ---- Start-up: before the window (app_create), then with it (app_start). */

/* A replay names its level as it was played, from the game's folder
   ("levels/01-first-steps.lvl"): run from another working folder, the same path beside the
   assets folder (a package's own levels/) is the one meant. */
static const char *replay_level(Arena *perm, const char *level, const char *assets) {
    if (!level || !assets || level[0] == '/' || st_os_file_info(level).kind != OS_FILE_NONE) return level;
    Str8 parent = st_path_dir_prefix(st_str8_cstr(assets)); /* "game/assets" -> "game/" */
    if (!parent.len) return level;
    const char *there = st_str8_fmt(perm, "%.*s%s", STR8_FMT(parent), level).data;
    return there && st_os_file_info(there).kind == OS_FILE_REGULAR ? there : level;
}

/* What the run starts on: a replay's level and seed, the editor's file, or the first
   level. False with the reason reported. */
static bool choose_start(App *app, const char *assets) {
    AppOptions *o = &app->opt;
    Arena *perm = app->host->life.perm;
    Error msg;
    if (o->replay) {
        if (!replay_load(&app->replay, perm, o->replay, &msg)) {
            st_error_report(&msg);
            return false;
        }
        if (!o->level) o->level = replay_level(perm, app->replay.level, assets);
        if (!o->seed_given) o->seed = app->replay.seed;
    }
    if (o->edit) {
        app->editor = st_arena_push_struct(perm, EditorUi);
        Error lerr;
        if (!app->editor) {
            st_error_set(&lerr, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "game: no memory for the editor: ");
            st_arena_error(&lerr);
            st_error_report(&lerr);
            return false;
        }
        if (o->edit_w > 0) {
            if (!create_level(app)) return false;
        } else if (!editor_ui_open_file(app->editor, o->edit, st_arena_capacity(app->host->life.level), &lerr)) {
            st_error_report(&lerr);
            return false;
        }
        app->editor->leave_quits = true; /* the session is the editor: leaving it ends the run */
        o->level = o->edit;
        o->skip_title = true;
    }
    if (!o->level) o->level = default_level(perm, assets);
    if (!o->level) st_diag_report(DIAG_ERROR, "game: no levels/01-*.lvl found; pass --level FILE");
    return o->level != NULL;
}

/* The progress a run starts from, into the save (a replay's) or out of it (a recording's). */
static void start_progress(SaveData *d, const ReplayStart *st) {
    memcpy(d->furthest, st->furthest, sizeof d->furthest);
    memcpy(d->levels, st->levels, sizeof d->levels);
    d->level_count = st->level_count;
}
static ReplayStart recorded_start(const Game *g) {
    ReplayStart st = {.level_chosen = g->level_chosen, .level_count = g->save.level_count};
    memcpy(st.furthest, g->save.furthest, sizeof st.furthest);
    memcpy(st.levels, g->save.levels, sizeof st.levels);
    return st;
}

/* The Game on its first level, with the player's progress and settings. */
static bool create_game(App *app, bool level_chosen) {
    const AppOptions *o = &app->opt;
    Host *h = app->host;
    /* A replay or the bot must not overwrite the player's own progress. */
    char save_path[SAVE_PATH_MAX], settings_path[SAVE_PATH_MAX];
    bool save = !o->no_save && !o->replay && !o->autoplay && save_default_path(save_path, sizeof save_path);
    bool settings = save && save_settings_default_path(settings_path, sizeof settings_path);
    app->game = st_arena_push_struct(h->life.perm, Game);
    GameConfig cfg = {.start_level = o->level,
                      .seed = o->seed,
                      .skip_title = o->skip_title,
                      .save_path = save ? save_path : NULL,
                      .settings_path = settings ? settings_path : NULL,
                      .level_chosen = level_chosen,
                      .recorded = o->record || o->replay};
    _Static_assert(SAVE_BIND_ACTIONS == ACTION_REWIND + 1, "save.h binds the actions up to rewind, in order");
    st_input_set_actions(&h->in, CONTROLS_ACTIONS, ACTION_COUNT);
    InputBindings keys = st_input_bindings_default(&h->in);
    for (int a = 0; a < SAVE_BIND_ACTIONS; a++)
        for (int k = 0; k < SAVE_BIND_SLOTS; k++) cfg.default_binds[a][k] = keys.keys[a][k];
    Error lerr;
    if (!app->game || !game_init(app->game, h->life.level, &cfg, &lerr)) {
        if (app->game) st_error_report(&lerr);
        else st_diag_report(DIAG_ERROR, "game: out of memory");
        return false;
    }
    /* A replay starts from the progress its run started from, not from this player's. */
    if (o->replay) start_progress(&app->game->save, &app->replay.start);
    return true;
}

void *app_create(Host *h, const void *options) {
    App *app = st_arena_push_struct(h->life.perm, App);
    if (!app) {
        st_diag_report(DIAG_ERROR, "game: out of memory");
        return NULL;
    }
    app->host = h;
    app->opt = *(const AppOptions *)options;
    AppOptions *o = &app->opt;
    if (!o->seed_given) o->seed = 1;
    Error aerr;
    AssetSearch search = app_asset_search(o->assets);
    app->assets = st_asset_dir_search(h->life.perm, &search, &aerr);
    if (!app->assets) st_diag_report(DIAG_ERROR, "game: %s", aerr.message);
    bool asked = o->level != NULL; /* before choose_start picks one */
    if (!app->assets || !choose_start(app, app->assets) ||
        !create_game(app, o->replay ? app->replay.start.level_chosen : asked)) {
        app_teardown(app);
        return NULL;
    }
    /* A replay in a window opens the viewer; headless or for --frames N it plays straight. */
    bool view = o->replay && (o->seek_given || (!h->opt.headless && !h->opt.frames));
    app->mode = o->edit       ? APP_MODE_EDIT
                : view        ? APP_MODE_VIEW
                : o->replay   ? APP_MODE_REPLAY
                : o->autoplay ? APP_MODE_AUTOPLAY
                              : APP_MODE_PLAY;
    /* The window as the player left it. */
    const SaveSettings *st = &app->game->save.settings;
    h->want = (HostWindowWish){.scale = st->scale,
                               .fullscreen = st->fullscreen,
                               .renderer = st->renderer == SAVE_RENDERER_SDL  ? RENDERER_SDL
                                           : st->renderer == SAVE_RENDERER_GL ? RENDERER_GL
                                                                              : RENDERER_DEFAULT};
    return app;
}

/* The art: tiles, sprites and the font, into the permanent arena; the tiles and sprites
   watched (the host's --watch-assets). The font is not: its glyph widths are measured from
   its pixels when it loads, and a new sheet would need them measured again. */
static bool load_art(App *app) {
    Host *h = app->host;
    Arena *perm = h->life.perm;
    Renderer *rd = h->rd;
    const char *dir = app->assets;
    Error aerr;
    AssetWatch *aw = h->assets; /* NULL: loaded once */
    const Texture *tiles =
        st_asset_watch_texture(aw, rd, perm, st_asset_path(perm, dir, "tiles.png"), TILE_CELL, TILE_CELL, &aerr);
    const Texture *sprites = tiles ? st_asset_watch_texture(aw, rd, perm, st_asset_path(perm, dir, "sprites.png"),
                                                            SPRITE_CELL, SPRITE_CELL, &aerr)
                                   : NULL;
    /* Proportional glyphs; a 4-px space (5 px between words with the gap) reads as one word
       break where the old monospace 6 looked like two. */
    Font font;
    if (!sprites || !st_asset_load_font(rd, perm, st_asset_path(perm, dir, "font.png"), FONT_CELL_W, FONT_CELL_H,
                                        FONT_SPACE_ADVANCE, &font, &aerr)) {
        st_diag_report(DIAG_ERROR, "%s", aerr.message);
        return false;
    }
    /* font.png is printable ASCII; a name or sign in "Café" or "Łódź" takes its other letters
       from the engine's font, cut from the same stb_easy_font shapes on the same baseline. */
    font.fallback = st_font_default(rd, perm, &aerr);
    if (!font.fallback) st_error_report(&aerr); /* still playable: those letters draw as boxes */
    app->art = (DrawAssets){.tiles = tiles, .sprites = sprites, .font = font};
    h->font = &app->art.font;
    h->panel_top = DRAW_HUD_H;
    return true;
}

/* ---- The replay viewer (viewer.h): opened on the run's first tick. */

/* No viewer for this run (err says why): the replay plays straight, from its first tick;
   a headless --seek, which only the viewer answers, fails instead. */
static void view_straight(App *app, Error *err) {
    const Viewer *v = app->viewer;
    if (v && v->ring_need) {
        /* The ring is half the free bytes after the viewer's own: an arena that holds it. */
        uint64_t need = MAX(app->viewer_at + viewer_size(&v->p) + 2 * v->ring_need, APP_HISTORY_ARENA_BYTES);
        st_error_append(err, "; --history-arena %lluM holds it", (unsigned long long)((need >> 20) + 1));
    }
    if (app->opt.seek_given && app->host->opt.headless) {
        st_diag_report(DIAG_ERROR, "game: --seek %llu: cannot seek: %s", (unsigned long long)app->opt.seek,
                       err->message);
        app->seek_failed = true;
    } else {
        st_diag_report(DIAG_WARNING, "warning: %s: the replay plays straight, without the viewer", err->message);
    }
    app->viewer = NULL;
    app->mode = APP_MODE_REPLAY;
}

/* The viewer's keyframes, in half of the history arena's free bytes: the rewind's ring
   takes the rest. */
static bool create_viewer(App *app) {
    Game *g = app->game;
    Arena *ha = app->host->life.history;
    uint64_t state = game_play_bytes() + st_arena_capacity(g->level_arena) + sizeof g->save;
    /* Its ticks as a straight replay plays them: the rewind's history recorded, its input obeyed. */
    app->view_game = (ViewerGame){.g = g, .rw = &app->rewind};
    ViewerParams p = viewer_game_params(&app->replay, &app->view_game, 1, MIN(state, APP_VIEWER_STATE_MAX));
    app->viewer_at = st_arena_pos(ha);
    uint64_t free = st_arena_capacity(ha) - app->viewer_at, own = viewer_size(&p);
    p.bytes = free > own + 2 ? (free - own) / 2 : 1;
    Error err;
    app->viewer = viewer_create(ha, &p, &err);
    if (!app->viewer) view_straight(app, &err);
    return true;
}

/* Whether the run holds a tick of the rewind input. */
static bool replay_rewinds(const Replay *r) {
    for (uint32_t i = 0; i < r->run_count; i++)
        if (r->runs[i].input & GAME_IN_REWIND) return true;
    return false;
}

/* The run played through (the rewind set up: a run that rewinds needs it), --seek. */
static bool open_viewer(App *app) {
    Host *h = app->host;
    Game *g = app->game;
    Viewer *v = app->viewer;
    if (!v) return !app->seek_failed; /* create_viewer said why: straight */
    Error err;
    /* Without the rewind a run that rewinds goes another way: no seek would be true. */
    if (!app->rewind.history && replay_rewinds(&app->replay)) {
        st_error_set(&err, ERROR_REFUSED, NULL, 0, 0,
                     "viewer: the run rewinds, and the rewind does not fit the history arena");
        view_straight(app, &err);
        return !app->seek_failed;
    }
    if (!viewer_open(v, &err)) {
        if (v->tick != 0) {
            st_error_report(&err);
            return false;
        }
        view_straight(app, &err);
        return !app->seek_failed;
    }
    /* A pass that did not end where the recording did is another run: a seek into it
       would answer with a state the recorded run never had. */
    const Replay *r = &app->replay;
    uint64_t end = r->version >= 3 ? v->end_run_hash : v->end_hash;
    if (r->has_hash && (end != r->hash || (r->levels >= 0 && v->end_levels != r->levels)) && app->opt.seek_given) {
        st_error_set(&err, ERROR_PARSE, NULL, 0, 0,
                     "viewer: the run played through ends on hash %016llx, %d levels, the recording on %016llx, %d",
                     (unsigned long long)end, v->end_levels, (unsigned long long)r->hash, r->levels);
        view_straight(app, &err);
        return !app->seek_failed;
    }
    HistoryStats s = st_history_stats(v->keys);
    st_diag_report(DIAG_NOTE,
                   "viewer: %u ticks, %u keyframes (%llu bytes) in %llu bytes of the history arena, played through in "
                   "%.1f ms",
                   v->ticks, s.keyframes, (unsigned long long)s.held_bytes, (unsigned long long)v->arena_bytes,
                   (double)v->open_ns / 1e6);
    if (app->opt.seek_given) {
        viewer_seek(v, app->opt.seek);
        printf("seek: tick %llu hash %016llx\n", (unsigned long long)v->tick, (unsigned long long)game_hash(g));
        fflush(stdout);
    }
    v->paused = app->opt.seek_given; /* --seek: the picture at that tick, held */
    if (h->opt.headless) app->mode = APP_MODE_OVER;
    draw_view_update(&app->view, g);
    return true;
}

/* The viewer sought: the effects start afresh and the camera snaps. */
static void view_jumped(App *app) {
    effects_init(&app->effects, app->game, NULL);
    app->view.level_serial = 0;
    draw_view_update(&app->view, app->game);
}

/* The viewer's keys. */
static void frame_view(App *app) {
    int lw, lh;
    st_host_logical_size(app->host, &lw, &lh);
    if (viewer_frame(app->viewer, &app->host->in, (float)lw, (float)lh)) view_jumped(app);
}

bool app_start(void *state, Host *h) {
    App *app = state;
    const AppOptions *o = &app->opt;
    SaveSettings *st = &app->game->save.settings;
    app->game->scale_max = st_platform_max_window_scale(h->pf);
    if (st->scale <= 0 || (!h->opt.scale && st->scale > st_platform_window_scale(h->pf)))
        st->scale = st_platform_window_scale(h->pf);
    app->applied = *st;
    apply_keys(app);
    app->game->renderer_running = st_render_kind(h->rd) == RENDERER_GL ? SAVE_RENDERER_GL : SAVE_RENDERER_SDL;
    if (!load_art(app)) return false;
    if (!open_audio(app, app->assets)) {
        st_diag_report(DIAG_ERROR, "game: cannot set up the sound for --audio-out");
        return false;
    }
    effects_init(&app->effects, app->game, NULL);
    /* The viewer's keyframes first: the rewind's ring takes the rest of the history arena. */
    if (app->mode == APP_MODE_VIEW && !create_viewer(app)) return false;
    Error rerr;
    if (!rewind_init(&app->rewind, h->life.history, app->game, &rerr))
        st_diag_report(DIAG_WARNING, "warning: %s: playing without rewinding", rerr.message);
    if (app->mode == APP_MODE_VIEW && !open_viewer(app)) return false;
    if (o->record && !replay_begin_record(&app->record, h->life.perm, o->seed, o->level)) {
        st_diag_report(DIAG_ERROR, "game: cannot start recording");
        return false;
    }
    if (o->record) app->record.start = recorded_start(app->game);
    int lw, lh;
    st_host_logical_size(h, &lw, &lh);
    /* The viewer's bar has the bottom of the screen: the game's pictures fit above it. */
    app->view = draw_view_make((float)lw, (float)lh - (app->viewer ? VIEWER_BAR_H : 0));
    if (app->mode == APP_MODE_EDIT)
        editor_ui_center(app->editor, app->game->sim.level.start_tx, app->game->sim.level.start_ty, (float)lw,
                         (float)lh);
    draw_view_update(&app->view, app->game);
    const char **names = st_arena_push_array(h->life.perm, const char *, SCREEN_COUNT);
    for (int s = 0; names && s < SCREEN_COUNT; s++) names[s] = game_screen_name((GameScreen)s);
    h->scene.screen_names = names;
    h->scene.screen_count = names ? SCREEN_COUNT : 0;
    app->started = true;
    return true;
}

int app_restart(const void *state, int argc, char **argv, char **out, int cap) {
    const App *app = state;
    const AppOptions *o = &app->opt;
    /* Not during a replay or a recording, whose run it would cut, nor in the editor or its
       play-test, whose unsaved level a new process would not have. */
    bool can = !o->replay && !o->record && !o->autoplay && app->mode == APP_MODE_PLAY && app->game->sim.level_path[0];
    if (!can) return 0;
    if (cap < argc + 4) return -1;
    int n = 0;
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
    out[n++] = (char *)app->game->sim.level_path;
    out[n++] = "--skip-title";
    out[n] = NULL;
    return n;
}

void app_report(void *state, const Diag *d) {
    App *app = state;
    if (app->game) game_show_report(app->game, d);
}

void app_notice(void *state, const char *line) {
    App *app = state;
    if (app->game) game_show_notice(app->game, line);
}

/* Nothing is derived from the state that new code would rebuild; the hook is the contract. */
void app_reloaded(void *state, Host *h) { (void)state, (void)h; }

int app_describe(const void *state, char *out, size_t cap) {
    const App *app = state;
    const Game *g = app->game;
    int n =
        snprintf(out, cap,
                 "\"screen\":\"%s\",\"level\":\"%s\",\"player_x\":%d,\"player_y\":%d,\"volume\":%d,\"furthest\":\"%s\","
                 "\"tick\":%u",
                 game_screen_name(g->screen), g->sim.level.path ? g->sim.level.path : "", (int)g->sim.player.x,
                 (int)g->sim.player.y, (int)g->save.settings.volume[0], g->save.furthest, g->ticks);
    /* The viewer's place in the run it shows, and whether it plays. */
    const Viewer *v = app->viewer;
    if (n > 0 && (size_t)n < cap && v && v->opened)
        n += snprintf(out + n, cap - (size_t)n, ",\"view_tick\":%llu,\"view_ticks\":%u,\"view_paused\":%s",
                      (unsigned long long)v->tick, v->ticks, v->paused ? "true" : "false");
    return n > 0 && (size_t)n < cap ? n : 0;
}

/* ---- One displayed frame, mode by mode. */

/* The frame's keys before the mode's: F11 and Alt+Enter (the host's) moved the setting; a
   key the settings screen waits for is the binding, not input (Esc cancels). */
static void frame_settings_keys(App *app) {
    Host *h = app->host;
    Game *g = app->game;
    if (st_platform_is_fullscreen(h->pf) != app->applied.fullscreen) {
        app->applied.fullscreen = g->save.settings.fullscreen = st_platform_is_fullscreen(h->pf);
        g->settings_dirty = true;
    }
    if (game_rebinding(g) >= 0 && h->in.key_pressed) {
        uint16_t key = h->in.key_pressed;
        GameBind moved = game_bind_key(g, key == SDL_SCANCODE_ESCAPE ? 0 : key);
        char line[160];
        if (controls_bind_notice(&moved, line, sizeof line)) game_show_notice(g, line);
        st_input_end_step(&h->in);
    }
}

/* The play-test: Tab or Esc goes back, whatever the keys are bound to. */
static void frame_playtest(App *app) {
    Input *in = &app->host->in;
    bool back = false;
    for (int i = 0; i < in->key_count; i++)
        back |= in->keys[i] == SDL_SCANCODE_TAB || in->keys[i] == SDL_SCANCODE_ESCAPE;
    if (!back) return;
    back_to_editor(app);
    st_input_end_step(in); /* that Tab was the way back, not the editor's */
}

/* Play: E opens the editor on the level played (never over a replay or the bot's run). */
static void frame_play(App *app) {
    Game *g = app->game;
    if (app->mode == APP_MODE_PLAY && app->controls.edit && (g->screen == SCREEN_PLAYING || g->screen == SCREEN_PAUSED))
        open_editor(app);
}

/* M mutes; a window without focus pauses the game (controls.h) and ducks the sound. */
static void frame_sound(App *app) {
    Host *h = app->host;
    bool ducked = !h->in.focused;
    if (app->controls.mute || ducked != app->ducked) {
        if (app->controls.mute) {
            app->muted = !app->muted;
            game_show_notice(app->game, app->muted ? "sound off (M)" : "sound on");
        }
        app->ducked = ducked;
        cues_set_volumes(&app->cues, &app->game->save.settings, app->muted, app->ducked);
    }
    if (app->audio) st_audio_device_check(app->audio);
    /* The worker goes once a frame is on the screen, and what it made comes in. */
    if (app->music && app->mixer && h->frames >= 1) {
        st_music_worker_go(app->music);
        if (app->music_waiting) app->music_waiting = cues_take_later(&app->cues, &app->bank, app->music, h->assets);
    }
}

bool app_frame(void *state, Host *h) {
    App *app = state;
    if (h->in.quit && !quit_held(app)) return false;
    frame_settings_keys(app);
    if (app->mode == APP_MODE_PLAYTEST) {
        frame_playtest(app);
    } else if (app->mode == APP_MODE_EDIT) {
        editor_frame(app);
        st_input_end_step(&h->in); /* the editor had the keys: none of them is game input */
    }
    if (app->mode == APP_MODE_VIEW) frame_view(app);
    controls_collect(&app->controls, &h->in, app->game->screen);
    frame_play(app);
    frame_sound(app);
    /* The editor's own arenas, on the F1 panel beside the host's. */
    bool open = app->editor && app->editor->open;
    h->shown[0] = open ? app->editor->ed.arena : NULL;
    h->shown[1] = open ? app->editor->ed.check : NULL;
    return true;
}

/* ---- One tick: its input byte from the mode, then the rules, the effects, the sound. */

bool app_tick(void *state, Host *h) {
    App *app = state;
    Game *g = app->game;
    const AppOptions *o = &app->opt;
    uint16_t b = 0;
    /* No tick after the player chose Quit: a recording ends on the tick that quit, and its
       replay quits on its last input. */
    if (g->quit && app->mode != APP_MODE_VIEW) return false;
    switch (app->mode) {
    case APP_MODE_EDIT:
    case APP_MODE_OVER:
    case APP_MODE_COUNT: return false;
    case APP_MODE_REPLAY:
        if (!replay_next(&app->replay, &b)) {
            app->mode = APP_MODE_OVER;
            return false;
        }
        break;
    case APP_MODE_VIEW: {
        ViewerTick t = viewer_next(app->viewer, &b);
        if (t == VIEWER_TICK_MOVED) view_jumped(app);
        if (t != VIEWER_TICK_PLAY) return t == VIEWER_TICK_MOVED;
    } break;
    case APP_MODE_AUTOPLAY: b = (uint16_t)bot_input(g); break;
    case APP_MODE_PLAY:
    case APP_MODE_PLAYTEST: b = controls_tick_input(&app->controls, &h->in); break;
    }
    if (o->record) replay_append(&app->record, b);
    app->last_input = b;
    rewind_update(&app->rewind, g, b);
    /* Going back, the sparks are the ones restored with the level and the sound is the
       rewind's: no event of a restored tick is played again. */
    bool back = app->rewind.speed || app->rewind.at_start;
    if (back) effects_rewound(&app->effects, g);
    else effects_update(&app->effects, g);
    draw_view_update(&app->view, g);
    if (back) cues_rewind(&app->cues, g, app->rewind.speed);
    else cues_update(&app->cues, g, &app->view);
    if (app->audio_out.base) mix_tick(app);
    if (app->mode == APP_MODE_PLAYTEST && g->screen != SCREEN_PLAYING) {
        back_to_editor(app);
        return false;
    }
    bool bot_done = g->screen == SCREEN_VICTORY ||
                    (o->autoplay_levels > 0 && g->sim.progress.levels_completed >= (int32_t)o->autoplay_levels);
    if (app->mode == APP_MODE_AUTOPLAY && bot_done) app->mode = APP_MODE_OVER;
    return app->mode != APP_MODE_OVER;
}

/* ---- The picture, after the frame's ticks. */

/* What follows the ticks: the settings take effect, the level file is looked at, and the
   run's end is told to the host (a headless replay or bot run ends when it is over). */
static void after_ticks(App *app) {
    Host *h = app->host;
    const AppOptions *o = &app->opt;
    apply_settings(app);
    if (!o->no_watch && app->mode == APP_MODE_PLAY && !o->record) watch_level(app);
    /* In the viewer the run's Quit is a tick like another: the viewer's window stays. */
    bool quit = app->game->quit && app->mode != APP_MODE_VIEW;
    if (quit || (h->opt.headless && app->mode == APP_MODE_OVER)) h->quit = true;
}

void app_draw(void *state, Host *h, float w, float hh) {
    App *app = state;
    Game *g = app->game;
    after_ticks(app);
    draw_view_dock(&app->view, h->debug_w);
    app->view.rewind = app->rewind.speed ? app->rewind.speed : app->rewind.at_start ? -1 : 0;
    if (app->mode == APP_MODE_EDIT) editor_ui_draw(app->editor, h->rd, &app->art, w, hh);
    else draw_game(h->rd, &app->art, &app->view, g, &app->effects);
    if (app->viewer && app->viewer->opened) viewer_draw(app->viewer, h->rd, &app->art.font, w, hh);
    if (app->mode == APP_MODE_PLAYTEST) editor_ui_draw_playtest(h->rd, &app->art, w, hh);
    /* What the timeline marks: the level played (with what its load took) and the screen. */
    TimelineScene *sc = &h->scene;
    sc->level_serial = g->sim.level_serial;
    sc->level_path = g->sim.level_path;
    sc->level_peak_path = g->sim.level_peak_path;
    sc->level_bytes = g->sim.last_load.level_bytes;
    sc->scratch_load = g->sim.last_load.scratch_peak;
    sc->screen = (uint16_t)g->screen;
}

/* The run's end in the files it asked for: the recording, the replay's verdict. */
static void app_verdicts(App *app) {
    const AppOptions *o = &app->opt;
    Game *g = app->game;
    Error msg;
    if (o->record) {
        if (!replay_save(&app->record, o->record, game_run_hash(g), g->sim.progress.levels_completed, &msg)) {
            st_error_report(&msg);
            app->status = 1;
        } else if (app->record.overflowed) {
            st_diag_report(DIAG_WARNING,
                           "warning: recorded only the first %u ticks (the buffer was full); %s has no final hash"
                           " and its playback cannot be checked",
                           app->record.ticks, o->record);
        } else {
            st_diag_report(DIAG_NOTE, "recorded %u ticks, %d levels completed, hash %016llx -> %s", app->record.ticks,
                           g->sim.progress.levels_completed, (unsigned long long)game_run_hash(g), o->record);
        }
    }
    if (o->replay) {
        const Replay *r = &app->replay;
        /* The viewer played the whole run through when it opened: its end is the verdict. */
        const Viewer *v = app->viewer && app->viewer->opened ? app->viewer : NULL;
        bool run_hash = r->version >= 3;
        uint64_t h = v ? (run_hash ? v->end_run_hash : v->end_hash) : run_hash ? game_run_hash(g) : game_hash(g);
        int32_t levels = v ? v->end_levels : g->sim.progress.levels_completed;
        bool complete = v || replay_done(r);
        /* The run quit with inputs left: it went another way than the one recorded. Stopped
           from outside (the window closed, --frames), it is only unchecked. */
        bool diverged = !complete && g->quit;
        bool ok = !diverged && (!complete || !r->has_hash || (h == r->hash && (r->levels < 0 || r->levels == levels)));
        /* The verdict: a note, or an error when the run is not the one recorded. */
        st_diag_report(ok ? DIAG_NOTE : DIAG_ERROR, "replay %s: %s, %d levels completed, hash %016llx%s", o->replay,
                       diverged   ? "the game quit with inputs left"
                       : complete ? "played to the end"
                                  : "stopped early",
                       levels, (unsigned long long)h,
                       diverged       ? " (MISMATCH)"
                       : !complete    ? " (unchecked)"
                       : !r->has_hash ? " (no hash to check)"
                       : ok           ? " (matches)"
                                      : " (MISMATCH)");
        if (!ok) app->status = 3;
    }
}

int app_release(void *state, Host *h) {
    (void)h;
    App *app = state;
    const AppOptions *o = &app->opt;
    Error msg;
    if (!app->started) {
        app_teardown(app);
        return 1;
    }
    app_verdicts(app);
    keep_unsaved(app);
    game_save_settings(app->game);
    if (o->audio_out) {
        const int16_t *pcm = app->audio_out.base;
        if (!st_sound_write_wav(o->audio_out, pcm, app->audio_out.count, AUDIO_RATE, &msg)) {
            st_error_report(&msg);
            app->status = 1;
        } else {
            st_diag_report(DIAG_NOTE, "wrote %llu frames of sound -> %s", (unsigned long long)app->audio_out.count,
                           o->audio_out);
        }
    }
    if (app->bank.loaded || app->bank.missing)
        fprintf(stderr, "sound data: %llu bytes of the permanent arena (%d files, %d missing)\n",
                (unsigned long long)app->bank.bytes, app->bank.loaded, app->bank.missing);
    app_teardown(app);
    return app->status;
}
