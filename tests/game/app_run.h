/* app_run.h - the game's App under the engine's host, for tests: one options struct with
   the host's fields and the game's (as the command line gives both), split on the way in,
   and the App returned with its Host beside it (app->host). A test reads what a frame did
   in both: app->game, app->mode, app->host->frames, app->host->rd... */
#ifndef APP_RUN_H
#define APP_RUN_H

#include <SDL2/SDL.h>

#include "app/app.h"
#include "app/game_api.h"
#include "check.h"

typedef struct AppRunOptions {
    /* The host's (HostOptions) */
    bool headless, fixed_clock, hot_reload;
    RendererKind renderer;
    int scale;
    uint64_t frames, level_arena;
    const char *screenshot, *arena_trace, *hot_library;
    uint32_t arena_trace_every;
    /* The game's (AppOptions) */
    const char *level, *record, *replay, *assets, *audio_out, *edit;
    bool skip_title, no_save, autoplay, seed_given, no_watch;
    uint32_t autoplay_levels;
    uint64_t seed, seek;
    bool seek_given;
    AppAudio audio;
    int32_t edit_w, edit_h;
} AppRunOptions;

/* What the command line would have made of the same words (game_api.c's parse and
   st_host_main's defaults), then the host. NULL with the reason reported. */
static inline App *app_run_create(Arena *perm, const AppRunOptions *o) {
    HostOptions ho = {.headless = o->headless,
                      .fixed_clock = o->fixed_clock,
                      .hot_reload = o->hot_reload || o->hot_library,
                      .renderer = o->renderer,
                      .scale = o->scale,
                      .frames = o->frames,
                      .level_arena = o->level_arena,
                      .screenshot = o->screenshot,
                      .arena_trace = o->arena_trace,
                      .hot_library = o->hot_library,
                      .arena_trace_every = o->arena_trace_every};
    AppOptions ao = {.level = o->level,
                     .record = o->record,
                     .replay = o->replay,
                     .assets = o->assets,
                     .audio_out = o->audio_out,
                     .edit = o->edit,
                     .skip_title = o->skip_title,
                     .no_save = o->no_save,
                     .autoplay = o->autoplay,
                     .seed_given = o->seed_given,
                     .no_watch = o->no_watch,
                     .autoplay_levels = o->autoplay_levels,
                     .seed = o->seed,
                     .seek = o->seek,
                     .seek_given = o->seek_given,
                     .audio = o->audio,
                     .edit_w = o->edit_w,
                     .edit_h = o->edit_h};
    Host *h = st_host_create(perm, game_api(), &ho, &ao);
    return h ? (App *)h->game : NULL;
}

/* A key going down or up, into SDL's queue: the next frame's poll sees it. */
static inline void app_run_key(SDL_Scancode sc, bool down) {
    SDL_Event e = {0};
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    CHECK(SDL_PushEvent(&e) == 1);
}

static inline bool app_run_frame(App *app) { return st_host_frame(app->host); }
static inline int app_run_release(App *app) { return st_host_release(app->host); }

#endif
