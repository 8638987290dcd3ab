/* test_game_alloc.c - no heap allocation during play: after start-up (arenas created, the
   first level and the replay loaded), the whole committed full-run replay - seven levels,
   six level changes, saves of progress included - runs without one call to malloc,
   calloc, realloc or their kin. The count comes from the interposer of heap_count.h, which
   the dynamic linker prefers to libc's. (Not built under the sanitizers, which bring their
   own allocator.)

   Without arguments (ctest test_game_alloc): the simulation alone, game_update from the
   replay's bytes. With "app" (ctest test_app_alloc): the real front end (app.h), twice -
   playing the replay headless, drawing every frame through SDL's software renderer with the
   HUD and the screens' cards; then played through its keyboard path, every tick's input
   byte pushed as SDL key events, with progress saved to a temporary XDG_DATA_HOME and the
   run recorded. Each run must end on the replay's hash, and the recording must be the
   replay, tick for tick. Counting starts after app_create and 3 frames. With "viewer"
   (ctest test_viewer_alloc): the replay viewer (app/viewer.h) opened with --seek, then
   driven by its keys (steps, held steps, seconds, Home/End, PageUp/PageDown, play, the
   mouse on the bar) and by seeks across the whole run: not one heap call either. */
#include <SDL2/SDL.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_run.h"
#include "check.h"
#include "rules/game.h"
#include "rules/replay.h"

#include "heap_count.h"

#define WARM_FRAMES 3

/* The simulation alone. */
static void run_sim(const char *save_path) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Replay r;
    Error msg;
    if (!replay_load(&r, perm, REPLAYS_DIR "/full-run.rep", &msg)) {
        fprintf(stderr, "%s\n", msg.message);
        CHECK(!"replay loads");
        return;
    }
    Game *g = st_arena_push_struct(perm, Game);
    Error err;
    REQUIRE_VOID(game_init(
        g, level, &(GameConfig){.start_level = r.level, .seed = r.seed, .skip_title = true, .save_path = save_path},
        &err));
    /* Warm the scratch arenas the path searches use, as the first frames of a game would. */
    st_scratch_get(0);
    st_scratch_get(1);

    heap_calls = 0;
    heap_counting = 1;
    uint16_t in;
    while (replay_next(&r, &in)) game_update(g, in);
    heap_counting = 0;

    printf("simulation: %d levels, %u ticks, %lu heap allocations during play\n", g->sim.progress.levels_completed,
           r.ticks, heap_calls);
    CHECK(g->sim.progress.levels_completed >= 6);
    CHECK_EQ_I(g->screen, SCREEN_VICTORY);
    CHECK_EQ_U(game_hash(g), r.hash);
    CHECK_EQ_U(heap_calls, 0);
    SaveData d;
    CHECK_EQ_I(save_load(&d, save_path, &msg), ERROR_OK); /* saves did happen */
    CHECK(d.level_count >= 6);

    st_arena_release(level);
    st_arena_release(perm);
}

/* The front end replaying the file: the same path as `game --headless --replay`. */
static void run_app_replay(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    App *app = app_run_create(
        perm,
        &(AppRunOptions){.replay = REPLAYS_DIR "/full-run.rep", .headless = true, .skip_title = true, .no_save = true});
    REQUIRE_VOID(app);
    bool more = true;
    for (int i = 0; i < WARM_FRAMES && more; i++) more = app_run_frame(app);
    heap_calls = 0;
    heap_counting = 1;
    while (more) more = app_run_frame(app);
    heap_counting = 0;

    printf("front end, replay: %d levels, %llu frames, %lu heap allocations during play\n",
           app->game->sim.progress.levels_completed, (unsigned long long)app->host->frames, heap_calls);
    CHECK((app->mode == APP_MODE_OVER) && replay_done(&app->replay));
    CHECK_EQ_U(app->host->frames, app->replay.ticks + 1); /* the last frame finds the replay over */
    CHECK_EQ_I(app->game->screen, SCREEN_VICTORY);
    CHECK_EQ_U(game_hash(app->game), app->replay.hash);
    CHECK_EQ_U(heap_calls, 0);
    CHECK_EQ_I(app_run_release(app), 0); /* its own verdict: "(matches)" */
    st_arena_release(perm);
}

/* The audio thread's hook (audio_device.h): counts callbacks, and once, when asked, makes a
   deliberate allocation on that thread, so the test knows the counter sees that thread. */
static volatile int callbacks_, canary_asked_, canary_done_;

static void audio_hook(void *user, const float *stereo, uint32_t frames, bool mixed) {
    (void)user, (void)stereo, (void)frames;
    if (mixed) return;
    callbacks_++;
    if (canary_asked_ && !canary_done_) {
        free(malloc(32));
        canary_done_ = 1;
    }
}

/* The same replay with the sound device open (SDL's dummy driver runs the callback on its
   own thread, in real time, while the replay runs as fast as it can): the effects and the
   music go through the mixer's command ring, and not one heap call is made on either
   thread. The count covers both threads at once; the game thread alone is proven heap-free
   above, and the canary proves an allocation on the audio thread would be seen. */
static void run_app_audio(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    App *app = app_run_create(perm, &(AppRunOptions){.replay = REPLAYS_DIR "/full-run.rep",
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .audio = APP_AUDIO_DEVICE});
    REQUIRE_VOID(app);
    if (!app->audio) {
        printf("front end, audio: no sound device could be opened (SDL_AUDIODRIVER=%s)\n",
               getenv("SDL_AUDIODRIVER") ? getenv("SDL_AUDIODRIVER") : "");
        CHECK(!"an audio device (SDL's dummy driver)");
        app_run_release(app);
        st_arena_release(perm);
        return;
    }
    st_audio_device_set_hook(app->audio, audio_hook, NULL);
    /* Loaded, or asked of the music worker, which makes them during the counted frames. */
    CHECK(app->bank.missing == 0 && app->bank.loaded + app->music_waiting == CUE_SOUND_COUNT + CUE_MUSIC_COUNT);
    heap_calls = 0;
    heap_counting = 1;
    canary_asked_ = 1;
    /* As long as the audio thread takes: the bound is a guard against a hang. */
    for (uint64_t until = SDL_GetTicks64() + 3 * 60 * 1000; !canary_done_ && SDL_GetTicks64() < until;) SDL_Delay(5);
    heap_counting = 0;
    CHECK(canary_done_);
    CHECK(heap_calls >= 1);

    bool more = true;
    for (int i = 0; i < WARM_FRAMES && more; i++) more = app_run_frame(app);
    int before = callbacks_;
    heap_calls = 0;
    heap_counting = 1;
    while (more) {
        more = app_run_frame(app);
        /* The device's clock beside the replay: every 64 frames, play waits for a callback,
           so that callbacks overlap play however the machine schedules the two threads. */
        if (app->host->frames % 64 == 0) {
            int seen = callbacks_;
            for (uint64_t until = SDL_GetTicks64() + 3 * 60 * 1000; callbacks_ == seen && SDL_GetTicks64() < until;)
                SDL_Delay(1);
        }
    }
    heap_counting = 0;
    int during = callbacks_ - before;
    MixerStats ms = st_mixer_stats(app->mixer);
    printf("front end, audio: %llu frames, %d callbacks during play, %llu effects asked, %llu frames mixed, "
           "%lu heap allocations\n",
           (unsigned long long)app->host->frames, during, (unsigned long long)app->cues.plays,
           (unsigned long long)ms.frames_mixed, heap_calls);
    CHECK(during >= 20);
    CHECK(app->cues.plays > 100);
    CHECK_EQ_U(game_hash(app->game), app->replay.hash);
    CHECK_EQ_U(heap_calls, 0);
    st_audio_device_set_hook(app->audio, NULL, NULL);
    CHECK_EQ_I(app_run_release(app), 0);
    st_arena_release(perm);
}

/* Heap calls by the file of the code that made them (dladdr of the recorded callers). */
typedef struct CallerTally {
    const char *file[32];
    uint64_t calls[32];
    int count;
} CallerTally;

static void tally_callers(CallerTally *t) {
    uint64_t n = heap_caller_count < HEAP_CALLERS_MAX ? heap_caller_count : HEAP_CALLERS_MAX;
    for (uint64_t i = 0; i < n; i++) {
        Dl_info info;
        const char *f = dladdr(heap_callers[i], &info) && info.dli_fname ? info.dli_fname : "?";
        const char *base = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
        int k = 0;
        while (k < t->count && strcmp(t->file[k], base) != 0) k++;
        if (k == t->count && t->count < 32) t->file[t->count++] = base;
        if (k < 32) t->calls[k]++;
    }
}

/* The GL driver and the window system: their heap calls inside our GL calls and buffer
   swaps are theirs to make. Any other caller - the game, the engine, SDL, or libc on our
   behalf (strdup, fopen) - fails the test. */
static bool driver_library(const char *file) {
    static const char *const prefixes[] = {"swrast_dri", "libgallium", "libX11",  "libxcb",   "libGLX",
                                           "libGL.",     "libEGL",     "libLLVM", "libglapi", "libdrm"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(file, prefixes[i], strlen(prefixes[i])) == 0) return true;
    return false;
}

/* The replay in a real window drawn by the OpenGL backend (ctest: test_gl_alloc, under
   Xvfb): the engine, the game and SDL make no heap call per frame; the GL driver (Mesa)
   and Xlib make some inside our GL calls and buffer swaps, which we cannot change: they are
   measured, by library, and reported. --fixed-clock makes the windowed run tick for tick
   the headless one, so it ends on the replay's hash. Exits 77 (a skip) when the X server
   gives no OpenGL 3.3 context: there is no GL backend to measure then. */
static void run_app_gl(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    /* --frames: a replay in a window otherwise opens the viewer (app/viewer.h), which waits
       for its keys; the run still ends with the replay, long before the bound. */
    App *app = app_run_create(perm, &(AppRunOptions){.replay = REPLAYS_DIR "/full-run.rep",
                                                     .renderer = RENDERER_GL,
                                                     .frames = 1u << 20,
                                                     .fixed_clock = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .audio = APP_AUDIO_OFF});
    REQUIRE_VOID(app);
    if (st_render_kind(app->host->rd) != RENDERER_GL) {
        printf("SKIP: no OpenGL 3.3 context on this display (%s)\n", st_render_describe(app->host->rd));
        exit(77);
    }
    printf("front end, window: %s\n", st_render_describe(app->host->rd));
    bool more = true;
    for (int i = 0; i < 30 && more; i++) more = app_run_frame(app); /* the driver's first-use setup */
    uint64_t frames0 = app->host->frames;
    heap_calls = 0;
    heap_caller_count = 0;
    heap_record_callers = 1;
    heap_counting = 1;
    while (more && !(app->mode == APP_MODE_OVER)) more = app_run_frame(app);
    heap_counting = 0;
    heap_record_callers = 0;
    uint64_t frames = app->host->frames - frames0;
    CallerTally t = {0};
    tally_callers(&t);
    Dl_info self;
    dladdr((void *)run_app_gl, &self);
    const char *exe = strrchr(self.dli_fname, '/') ? strrchr(self.dli_fname, '/') + 1 : self.dli_fname;
    uint64_t others = 0;
    printf("front end, window, OpenGL: %llu frames, %llu heap calls (%.2f per frame), by caller:\n",
           (unsigned long long)frames, (unsigned long long)heap_calls, frames ? (double)heap_calls / frames : 0.0);
    for (int k = 0; k < t.count; k++) {
        bool driver = driver_library(t.file[k]);
        if (!driver) others += t.calls[k];
        printf("  %-28s %8llu  %.2f per frame%s\n", t.file[k], (unsigned long long)t.calls[k],
               frames ? (double)t.calls[k] / frames : 0.0,
               driver                        ? ""
               : strcmp(t.file[k], exe) == 0 ? "  (the engine and the game!)"
                                             : "  (not the driver's!)");
    }
    CHECK(frames > 1000);
    CHECK((app->mode == APP_MODE_OVER));
    CHECK_EQ_U(game_hash(app->game), app->replay.hash);
    CHECK(heap_caller_count <= HEAP_CALLERS_MAX); /* every call was attributed */
    CHECK_EQ_U(others, 0);
    CHECK_EQ_I(app_run_release(app), 0);
    st_arena_release(perm);
}

static void push_key(SDL_Scancode sc, bool down) {
    SDL_Event e = {0};
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    SDL_PushEvent(&e);
}

/* The keys that make a tick's byte: held bits stay down while set, edges are tapped. */
static const struct {
    uint16_t bit;
    SDL_Scancode key;
    bool held;
} keys_[] = {
    {SIM_IN_UP, SDL_SCANCODE_W, true},
    {SIM_IN_DOWN, SDL_SCANCODE_S, true},
    {SIM_IN_LEFT, SDL_SCANCODE_A, true},
    {SIM_IN_RIGHT, SDL_SCANCODE_D, true},
    {SIM_IN_FIRE, SDL_SCANCODE_SPACE, true},
    {GAME_IN_CONFIRM, SDL_SCANCODE_RETURN, false},
    {GAME_IN_PAUSE, SDL_SCANCODE_ESCAPE, false},
    {GAME_IN_RESTART, SDL_SCANCODE_R, false},
    {GAME_IN_REWIND, SDL_SCANCODE_BACKSPACE, true},
};

static void push_byte(uint16_t prev, uint16_t b) {
    for (size_t k = 0; k < sizeof keys_ / sizeof keys_[0]; k++) {
        bool was = prev & keys_[k].bit, now = b & keys_[k].bit;
        if (keys_[k].held) {
            if (now != was) push_key(keys_[k].key, now);
        } else if (now) {
            push_key(keys_[k].key, true);
            push_key(keys_[k].key, false);
        }
    }
}

/* The front end played from the keyboard, saving progress and recording: full-run.rep to
   the victory, and rewind.rep, whose Backspace held goes back in time (rules/rewind.h:
   the history recorded every tick and restored, with no heap call either), to its second
   level's exit, with no progress saved: it rewound in level 1, so that clear is not
   counted, and level 2's would be recorded when level 3 loads. */
static void run_app_keys(const char *dir, const char *replay, GameScreen end, int32_t saved) {
    char rec_path[300], save_path[300];
    Error msg;
    snprintf(rec_path, sizeof rec_path, "%s/run.rep", dir);
    snprintf(save_path, sizeof save_path, "%s/" SAVE_GAME_NAME "/progress", dir);
    setenv("XDG_DATA_HOME", dir, 1);
    setenv("XDG_CONFIG_HOME", dir, 1); /* the settings file too: never the user's own */
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    Replay r;
    if (!replay_load(&r, perm, replay, &msg)) {
        fprintf(stderr, "%s\n", msg.message);
        CHECK(!"replay loads");
        return;
    }
    App *app = app_run_create(perm, &(AppRunOptions){.level = r.level,
                                                     .seed = r.seed,
                                                     .seed_given = true,
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .record = rec_path});
    REQUIRE_VOID(app);
    REQUIRE_VOID(app->game->save_enabled);
    /* SDL keeps queue entries for reuse: let it make more than a frame ever needs now. */
    for (int i = 0; i < 64; i++) SDL_PushEvent(&(SDL_Event){.type = SDL_USEREVENT});

    uint16_t prev = 0, b;
    uint32_t ticks = 0;
    bool more = true;
    while (more && replay_next(&r, &b)) {
        if (ticks == WARM_FRAMES) {
            heap_calls = 0;
            heap_counting = 1;
        }
        push_byte(prev, b);
        prev = b;
        more = app_run_frame(app);
        ticks++;
        if (app->last_input != b) {
            fprintf(stderr, "tick %u: input %02x, the replay has %02x\n", ticks, app->last_input, b);
            CHECK_EQ_U(app->last_input, b);
            break;
        }
    }
    heap_counting = 0;

    printf("front end, keys, %s: %d levels, %u ticks (%llu rewound), %lu heap allocations during play\n", replay,
           app->game->sim.progress.levels_completed, ticks, (unsigned long long)app->rewind.ticks_rewound, heap_calls);
    CHECK(more);
    CHECK_EQ_U(ticks, r.ticks);
    CHECK_EQ_I(app->game->screen, end);
    CHECK(r.version < 2 || app->rewind.ticks_rewound > 300);
    CHECK_EQ_U(game_hash(app->game), r.hash);
    uint64_t run_hash = game_run_hash(app->game); /* what a recording of today holds */
    CHECK_EQ_U(heap_calls, 0);
    CHECK_EQ_I(app_run_release(app), 0);

    SaveData d;
    if (saved) {
        CHECK_EQ_I(save_load(&d, save_path, &msg), ERROR_OK); /* saves did happen */
        CHECK(d.level_count >= saved);
    } else { /* its clears were all rewound into: not counted, nothing written */
        CHECK_EQ_I(save_load(&d, save_path, &msg), ERROR_NOT_FOUND);
    }
    /* The recording is the replay, tick for tick, and knows its hash. */
    Replay rec;
    REQUIRE_VOID(replay_load(&rec, perm, rec_path, &msg));
    CHECK_EQ_U(rec.ticks, r.ticks);
    CHECK_EQ_U(rec.version, REPLAY_VERSION);
    CHECK_EQ_U(rec.hash, run_hash);
    CHECK_EQ_I(rec.levels, r.levels);
    Replay orig;
    REQUIRE_VOID(replay_load(&orig, perm, replay, &msg));
    uint16_t x, y;
    uint32_t same = 0;
    while (replay_next(&orig, &x) && replay_next(&rec, &y) && x == y) same++;
    CHECK_EQ_U(same, r.ticks);
    st_arena_release(perm);
}

static void push_mouse(float x, float y, bool down) {
    SDL_Event e = {0};
    e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.button.x = (int)x, e.button.y = (int)y;
    SDL_PushEvent(&e);
}

/* Frames of the viewer with a key tapped (down, then up `hold` frames later). */
static bool view_frames(App *app, SDL_Scancode key, int hold, int after) {
    bool more = true;
    if (key) push_key(key, true);
    for (int i = 0; i < hold && more; i++) more = app_run_frame(app);
    if (key) push_key(key, false);
    for (int i = 0; i < after && more; i++) more = app_run_frame(app);
    return more;
}

/* The viewer as a window has it (headless, --seek ends the run: the mode is put back). */
static void run_app_viewer(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    App *app = app_run_create(perm, &(AppRunOptions){.replay = REPLAYS_DIR "/full-run.rep",
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .seek = 3000,
                                                     .seek_given = true});
    REQUIRE_VOID(app && app->viewer && app->viewer->opened);
    Viewer *v = app->viewer;
    CHECK_EQ_U(v->tick, 3000);
    app->mode = APP_MODE_VIEW;
    for (int i = 0; i < 64; i++) SDL_PushEvent(&(SDL_Event){.type = SDL_USEREVENT});
    bool more = view_frames(app, 0, 0, WARM_FRAMES);
    heap_calls = 0;
    heap_counting = 1;
    uint64_t seeks = v->seeks;
    more = more && view_frames(app, SDL_SCANCODE_RIGHT, 1, 1) && view_frames(app, SDL_SCANCODE_LEFT, 1, 1);
    more = more && view_frames(app, SDL_SCANCODE_LEFT, 90, 1) && view_frames(app, SDL_SCANCODE_RIGHT, 90, 1);
    push_key(SDL_SCANCODE_LSHIFT, true);
    more = more && view_frames(app, SDL_SCANCODE_RIGHT, 60, 1) && view_frames(app, SDL_SCANCODE_LEFT, 60, 1);
    push_key(SDL_SCANCODE_LSHIFT, false);
    more = more && view_frames(app, SDL_SCANCODE_PAGEDOWN, 1, 1) && view_frames(app, SDL_SCANCODE_END, 1, 1);
    more = more && view_frames(app, SDL_SCANCODE_HOME, 1, 1) && view_frames(app, SDL_SCANCODE_SPACE, 1, 200);
    push_mouse(240, APP_LOGICAL_H - 4, true);
    more = more && view_frames(app, 0, 0, 2);
    push_mouse(240, APP_LOGICAL_H - 4, false);
    uint64_t clicked = v->tick;
    for (uint64_t t = 0; t <= v->ticks && more; t += 383) {
        viewer_seek(v, (t * 7919) % (v->ticks + 1)); /* all over the run, both ways */
        more = app_run_frame(app);
    }
    heap_counting = 0;
    printf("viewer: %llu seeks (the longest %u ticks), %llu frames, %lu heap allocations\n",
           (unsigned long long)(v->seeks - seeks), v->worst_seek_ticks, (unsigned long long)app->host->frames,
           heap_calls);
    CHECK(more);
    CHECK(v->seeks - seeks > 150);           /* the keys moved it */
    CHECK(clicked > 3000 && clicked < 4700); /* the bar's middle: the run's */
    CHECK_EQ_U(heap_calls, 0);
    CHECK_EQ_I(app_run_release(app), 0);
    st_arena_release(perm);
}

/* No argument: the simulation alone. "app": the two front-end runs (ctest: test_app_alloc).
   "audio": the replay with the sound device (ctest: test_audio_alloc). */
int main(int argc, char **argv) {
    bool app = argc > 1 && strcmp(argv[1], "app") == 0;
    bool audio = argc > 1 && strcmp(argv[1], "audio") == 0;
    bool gl = argc > 1 && strcmp(argv[1], "gl") == 0;
    bool viewer = argc > 1 && strcmp(argv[1], "viewer") == 0;
    if (chdir(SOURCE_DIR) != 0) return 1;
    /* The interposer is live: a malloc during start-up is counted when asked. */
    heap_calls = 0;
    heap_counting = 1;
    void *probe = malloc(16);
    heap_counting = 0;
    CHECK_EQ_U(heap_calls, 1);
    free(probe);
    heap_calls = 0;

    char save_dir[] = "/tmp/test_game_alloc_XXXXXX";
    if (!mkdtemp(save_dir)) return 1;
    char save_path[SAVE_PATH_MAX];
    snprintf(save_path, sizeof save_path, "%s/progress", save_dir);

    if (viewer) {
        run_app_viewer();
    } else if (gl) {
        run_app_gl();
    } else if (audio) {
        run_app_audio();
    } else if (app) {
        run_app_replay();
        run_app_keys(save_dir, REPLAYS_DIR "/full-run.rep", SCREEN_VICTORY, 6);
        char rewind_dir[] = "/tmp/test_game_alloc_rewind_XXXXXX";
        if (!mkdtemp(rewind_dir)) return 1;
        run_app_keys(rewind_dir, REPLAYS_DIR "/rewind.rep", SCREEN_TRANSITION, 0);
        char rm[300];
        snprintf(rm, sizeof rm, "rm -rf '%s'", rewind_dir);
        if (system(rm) != 0) return 1;
    } else {
        run_sim(save_path);
    }

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", save_dir);
    if (system(cmd) != 0) return 1;
    return check_result();
}
