/* breakout.c - the game behind its table (breakout.h): options, the four lifetimes' use,
   input to buttons, the recorded and replayed runs, sound, and the verdict at exit. */
#include "breakout.h"

#include <SDL2/SDL_gamecontroller.h>
#include <SDL2/SDL_scancode.h>
#include <stdio.h>

#include <strata/audio/audio_device.h>
#include <strata/core/diag.h>

#include "draw.h"
#include "glyphs.h"
#include "input_log.h"
#include "sounds.h"

typedef struct Breakout {
    Host *host;
    BreakoutOptions opt;
    Sim sim;
    Font font;
    InputLog log; /* recording (--record) or playing (--replay) */
    Sounds sounds;
    AudioDevice *audio;
    Mixer *mixer;
    int status;
} Breakout;

enum { ACT_LEFT, ACT_RIGHT, ACT_FIRE, ACT_PAUSE, ACT_COUNT };
#define PAD(b) (SDL_CONTROLLER_BUTTON_##b + 1)
static const InputActionDesc ACTIONS[ACT_COUNT] = {
    [ACT_LEFT] = {"left", {SDL_SCANCODE_LEFT, SDL_SCANCODE_A}, {PAD(DPAD_LEFT)}, INPUT_STICK_LEFT, true},
    [ACT_RIGHT] = {"right", {SDL_SCANCODE_RIGHT, SDL_SCANCODE_D}, {PAD(DPAD_RIGHT)}, INPUT_STICK_RIGHT, true},
    [ACT_FIRE] = {"launch", {SDL_SCANCODE_SPACE, SDL_SCANCODE_RETURN}, {PAD(A), PAD(B)}, 0, true},
    [ACT_PAUSE] = {"pause", {SDL_SCANCODE_P, SDL_SCANCODE_ESCAPE}, {PAD(START)}, 0, true},
};

enum { BO_RECORD, BO_REPLAY, BO_AUTOPLAY, BO_MUTE, BO_COUNT };
static const CliOption OPTIONS[BO_COUNT] = {
    [BO_RECORD] = {.name = "--record", .arg = CLI_PATH},
    [BO_REPLAY] = {.name = "--replay", .arg = CLI_PATH},
    [BO_AUTOPLAY] = {.name = "--autoplay", .arg = CLI_SWITCH},
    [BO_MUTE] = {.name = "--mute", .arg = CLI_SWITCH},
};

static void *breakout_parse(Arena *perm, const CliValue *v, HostOptions *ho) {
    BreakoutOptions *o = st_arena_push_struct(perm, BreakoutOptions);
    if (!o) return NULL;
    *o = (BreakoutOptions){.record = v[BO_RECORD].text,
                           .replay = v[BO_REPLAY].text,
                           .autoplay = v[BO_AUTOPLAY].given,
                           .mute = v[BO_MUTE].given};
    if (o->replay && (o->record || o->autoplay)) {
        st_diag_report(DIAG_ERROR, "breakout: --replay excludes --record and --autoplay");
        return NULL;
    }
    if (!st_host_output_writable("breakout", "--record", o->record)) return NULL;
    ho->run_ends = o->replay != NULL; /* a replay ends with its log */
    return o;
}

static void *breakout_create(Host *h, const void *options) {
    Breakout *b = st_arena_push_struct(h->life.perm, Breakout);
    if (!b) return NULL;
    b->host = h;
    b->opt = *(const BreakoutOptions *)options;
    sim_init(&b->sim);
    if (b->opt.replay && !input_log_read(h->life.perm, b->opt.replay, &b->log)) return NULL;
    if (b->opt.record && !input_log_create(h->life.perm, &b->log)) return NULL;
    return b;
}

static bool breakout_start(void *state, Host *h) {
    Breakout *b = state;
    if (!glyphs_font(h->rd, h->life.perm, &b->font)) return false;
    h->font = &b->font; /* the F1 panel writes with it */
    h->panel_top = 14;
    st_input_set_actions(&h->in, ACTIONS, ACT_COUNT);
    if (h->opt.headless || b->opt.mute) return true; /* headless runs are silent */
    if (!sounds_make(h->life.perm, &b->sounds)) return true;
    b->audio = st_audio_device_create(h->life.perm);
    if (!b->audio) return true;
    b->mixer = st_mixer_create(h->life.perm, st_audio_device_rate(b->audio));
    if (b->mixer) st_audio_device_start(b->audio, b->mixer);
    return true;
}

static bool breakout_frame(void *state, Host *h) {
    Breakout *b = state;
    if (b->audio) st_audio_device_check(b->audio);
    /* Esc on the title screen leaves; in a game it pauses (an action). */
    if (b->sim.screen == SIM_TITLE && st_input_key_hit(&h->in, SDL_SCANCODE_ESCAPE)) return false;
    return !h->in.quit;
}

/* The player's buttons for one tick: held, or tapped within the frame. */
static uint8_t player_buttons(const Input *in) {
    static const uint8_t BIT[ACT_COUNT] = {SIM_LEFT, SIM_RIGHT, SIM_FIRE, SIM_PAUSE};
    uint8_t bits = 0;
    for (int a = 0; a < ACT_COUNT; a++)
        if (in->down[a] || in->pressed[a]) bits |= BIT[a];
    return bits;
}

static bool breakout_tick(void *state, Host *h) {
    Breakout *b = state;
    uint8_t buttons = b->opt.replay     ? input_log_next(&b->log)
                      : b->opt.autoplay ? sim_bot(&b->sim)
                                        : player_buttons(&h->in);
    if (b->opt.record) input_log_push(&b->log, buttons);
    if (!sim_step(&b->sim, h->life.level, buttons)) {
        b->status = 1, h->quit = true;
        return false;
    }
    sounds_play(&b->sounds, b->mixer, b->sim.events,
                (float)(b->sim.ball_x / SIM_FP - SIM_FIELD_X0) / (SIM_FIELD_X1 - SIM_FIELD_X0));
    if (b->opt.replay && b->log.at >= b->log.ticks) {
        h->quit = true; /* the log is spent: this frame is the last */
        return false;
    }
    return true;
}

static void breakout_draw(void *state, Host *h, float w, float hh) {
    (void)w, (void)hh;
    const Breakout *b = state;
    draw_frame(h->rd, &b->font, &b->sim, b->opt.replay ? "REPLAY" : b->opt.autoplay ? "DEMO" : NULL);
}

static void breakout_report(void *state, const Diag *d) { (void)state, (void)d; }
static void breakout_notice(void *state, const char *line) { (void)state, (void)line; }
static void breakout_reloaded(void *state, Host *h) { (void)state, (void)h; }
static int breakout_restart(const void *state, int argc, char **argv, char **out, int cap) {
    return (void)state, (void)argc, (void)argv, (void)out, (void)cap, 0;
}

static int breakout_describe(const void *state, char *out, size_t cap) {
    const Sim *s = &((const Breakout *)state)->sim;
    int n = snprintf(out, cap,
                     "\"screen\":\"%s\",\"level\":%d,\"score\":%d,\"lives\":%d,\"tick\":%llu,\"hash\":\"%016llx\"",
                     sim_screen_name(s->screen), s->level + 1, s->score, s->lives, (unsigned long long)s->tick,
                     (unsigned long long)sim_hash(s));
    return n > 0 && (size_t)n < cap ? n : 0;
}

/* The replay's verdict, the recording written. */
static void verdicts(Breakout *b) {
    uint64_t hash = sim_hash(&b->sim);
    if (b->opt.replay) {
        bool done = b->log.at >= b->log.ticks, ok = done && hash == b->log.hash;
        st_diag_report(ok ? DIAG_NOTE : DIAG_ERROR,
                       "replay %s: %s after %llu ticks, score %d, lives %d, hash %016llx%s", b->opt.replay,
                       done ? "played to the end" : "stopped early", (unsigned long long)b->log.at, b->sim.score,
                       b->sim.lives, (unsigned long long)hash,
                       !done ? ""
                       : ok  ? " (matches)"
                             : " (MISMATCH)");
        if (done && !ok) b->status = 3;
    }
    if (b->opt.record) {
        Error err;
        if (b->log.full) st_diag_report(DIAG_WARNING, "breakout: --record: the log filled up; it ends early");
        if (!input_log_write(&b->log, b->opt.record, hash, &err)) {
            st_error_report(&err);
            b->status = 1;
        } else {
            st_diag_report(DIAG_NOTE, "recorded %llu ticks in %u runs, hash %016llx -> %s",
                           (unsigned long long)b->log.ticks, b->log.count, (unsigned long long)hash, b->opt.record);
        }
    }
}

static int breakout_release(void *state, Host *h) {
    (void)h;
    Breakout *b = state;
    if (b->audio) st_audio_device_release(b->audio); /* its thread reads the sounds until then */
    verdicts(b);
    if (b->sounds.bytes)
        fprintf(stderr, "sound data: %llu bytes of the permanent arena\n", (unsigned long long)b->sounds.bytes);
    return b->status;
}

const Sim *breakout_sim(const void *state) { return &((const Breakout *)state)->sim; }

const GameApi *breakout_api(void) {
    static const GameApi api = {
        .version = GAME_API_VERSION,
        .layout_hash = sizeof(Breakout), /* no hot reload: the size is hash enough */
        .build = "breakout 1.0",
        .name = "breakout",
        .title = "Breakout",
        .version_text = "1.0",
        .logical_w = SIM_W,
        .logical_h = SIM_H,
        .tick_hz = 60,
        .clear_rgba = 0x12102CFFu,
        .level_arena_bytes = 64 << 10,
        .options = OPTIONS,
        .option_count = BO_COUNT,
        .usage = "[--record FILE] [--replay FILE] [--autoplay] [--mute]\n",
        .help = "  --record FILE        write this run's buttons and final hash to FILE at exit\n"
                "  --replay FILE        play a recorded run back and check its final hash\n"
                "  --autoplay           a bot plays (for ever: stop it with --frames N)\n"
                "  --mute               no sound\n"
                "keys: Left/Right or A/D move, Space/Enter launch, P/Esc pause, Esc on the title quits;\n"
                "      a game controller: d-pad or stick, A launch, Start pause\n",
        .parse = breakout_parse,
        .create = breakout_create,
        .start = breakout_start,
        .frame = breakout_frame,
        .tick = breakout_tick,
        .draw = breakout_draw,
        .report = breakout_report,
        .notice = breakout_notice,
        .reloaded = breakout_reloaded,
        .restart = breakout_restart,
        .describe = breakout_describe,
        .release = breakout_release,
    };
    return &api;
}
