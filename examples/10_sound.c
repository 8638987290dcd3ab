/* 10_sound.c - sound without an audio device: synthesise, mix, measure, write a WAV.

   The idea: a Sound is samples in an arena. The synthesiser renders a patch (a wave, an
   envelope, a pitch sweep) into a scratch buffer; st_synth_to_i16 turns it into the samples
   of a Sound kept in the permanent arena. The mixer plays Sounds on voices and renders
   stereo on demand: a device's callback would call st_mixer_render, and so can a program
   that writes a file or a test that checks the output, with no device at all.
   Look at: where each buffer lives (the patch's float render in scratch, the Sound in perm,
   the mixed output in perm), the peak printed per sound, and the WAV it writes.
   In the picture: the mix, left and right, a thin bar per 80 frames (its loudest sample):
   the boom (red) at once, the coin (gold) later; below, the permanent arena in the order
   things landed in it: the two Sounds, the mixer, the mix.

   Run: ./10_sound --headless --frames 10 --screenshot out.png [--wav out.wav] */
#include <stdlib.h>

#include <strata/audio/mixer.h>
#include <strata/audio/sound.h>
#include <strata/audio/synth.h>

#include "example.h"

static bool make_sound(Arena *perm, const SynthPatch *p, Sound *out) {
    uint32_t n = st_synth_patch_frames(p, AUDIO_RATE);
    SCRATCH_SCOPE(tmp, perm);
    float *f = st_arena_push_array(tmp.arena, float, n); /* zeroed: the synth adds into it */
    int16_t *s = st_arena_push_array(perm, int16_t, n);
    if (!f || !s) return false;
    st_synth_render(p, f, n, AUDIO_RATE, 1);
    st_synth_to_i16(f, s, n);
    *out = (Sound){.samples = s, .frames = n};
    return true;
}

static int peak16(const int16_t *s, uint64_t n) {
    int peak = 0;
    for (uint64_t i = 0; i < n; i++) peak = abs(s[i]) > peak ? abs(s[i]) : peak;
    return peak;
}

/* The two effects, as data: a wave, a pitch sweep, an envelope. */
// clang-format off
static const SynthPatch COIN = {.wave = SYNTH_SQUARE, .freq_start = 988, .freq_end = 1319, .sweep_time = 0.05f,
    .duration = 0.12f, .attack = 0.002f, .decay = 0.05f, .sustain = 0.6f, .release = 0.1f, .duty = 0.5f, .volume = 0.5f};
static const SynthPatch BOOM = {.wave = SYNTH_NOISE, .freq_start = 3000, .freq_end = 200, .sweep_time = 0.3f,
    .sweep = SYNTH_SWEEP_EXP, .duration = 0.25f, .attack = 0.001f, .decay = 0.2f, .sustain = 0.3f, .release = 0.2f,
    .lowpass = 2000, .volume = 0.8f};
// clang-format on

enum { COLUMNS = 300 };
typedef struct Game {
    Font font;
    const char *wav;
    uint64_t at[5];   /* the permanent arena's position before and after each buffer */
    uint32_t coin[2]; /* the columns the coin plays in */
    int16_t left[COLUMNS], right[COLUMNS];
} Game;

static void columns(Game *g, const int16_t *mix, uint32_t frames) {
    for (uint32_t f = 0, c; f < frames; f++) {
        c = f / (frames / COLUMNS);
        if (abs(mix[2 * f]) > g->left[c]) g->left[c] = (int16_t)abs(mix[2 * f]);
        if (abs(mix[2 * f + 1]) > g->right[c]) g->right[c] = (int16_t)abs(mix[2 * f + 1]);
    }
}

static void *create(Host *h, const void *options) {
    Game *g = st_arena_push_struct(h->life.perm, Game);
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    if (!g || !perm) return NULL;
    g->wav = *(const char *const *)options;
    Sound s_coin, s_boom;
    g->at[0] = st_arena_pos(perm);
    if (!make_sound(perm, &COIN, &s_coin)) return NULL;
    g->at[1] = st_arena_pos(perm);
    if (!make_sound(perm, &BOOM, &s_boom)) return NULL;
    g->at[2] = st_arena_pos(perm);
    printf("coin: %u frames, peak %d\n", s_coin.frames, peak16(s_coin.samples, s_coin.frames));
    printf("boom: %u frames, peak %d\n", s_boom.frames, peak16(s_boom.samples, s_boom.frames));

    /* Half a second of the two, mixed: the boom panned left, the coin right and later. */
    Mixer *mx = st_mixer_create(perm, AUDIO_RATE);
    g->at[3] = st_arena_pos(perm);
    enum { FRAMES = AUDIO_RATE / 2, BLOCK = 1024 };
    int16_t *mix = st_arena_push_array(perm, int16_t, 2 * FRAMES);
    g->at[4] = st_arena_pos(perm);
    if (!mx || !mix) return NULL;
    st_mixer_play(mx, &(MixerPlay){.sound = &s_boom, .volume = 1, .pan = -0.6f});
    for (uint32_t at = 0; at < FRAMES; at += BLOCK) {
        if (at == 8 * BLOCK) st_mixer_play(mx, &(MixerPlay){.sound = &s_coin, .volume = 1, .pan = 0.6f});
        uint32_t n = FRAMES - at < BLOCK ? FRAMES - at : BLOCK;
        st_mixer_render_s16(mx, mix + 2 * at, n); /* what a device callback would do */
    }
    printf("mix: %d frames, peak %d, %llu frames mixed\n", FRAMES, peak16(mix, 2 * (uint64_t)FRAMES),
           (unsigned long long)st_mixer_stats(mx).frames_mixed);
    columns(g, mix, FRAMES);
    g->coin[0] = 8 * BLOCK / (FRAMES / COLUMNS), g->coin[1] = (8 * BLOCK + s_coin.frames) / (FRAMES / COLUMNS);
    Error err;
    if (g->wav && !st_sound_write_wav(g->wav, mix, FRAMES, AUDIO_RATE, &err)) return st_error_report(&err), NULL;
    if (g->wav) printf("wrote %s\n", g->wav);
    printf("permanent arena: %llu bytes (two sounds, the mixer, the mix)\n",
           (unsigned long long)st_arena_stats(perm).used);
    st_arena_release(perm); /* the picture keeps only its columns */
    return g;
}

static const CliOption OPTIONS[] = {{.name = "--wav", .arg = CLI_PATH}};
static void *parse(Arena *perm, const CliValue *v, HostOptions *ho) {
    (void)ho;
    const char **wav = st_arena_push_struct(perm, const char *);
    if (wav) *wav = v[0].text; /* NULL when not given */
    return wav;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

/* One channel: a bar per column, as high above the line as below it; gold while the coin plays. */
static void wave(Host *h, const Game *g, float mid, const int16_t *col, const char *label) {
    for (uint32_t c = 0; c < COLUMNS; c++) {
        float half = 1 + 22.f * col[c] / 32768.f;
        bool coin = c >= g->coin[0] && c < g->coin[1];
        st_render_rect(h->rd, (RectF){10.f + c, mid - half, 1, 2 * half}, 1,
                       coin ? (Color){255, 214, 120, 255} : (Color){240, 110, 70, 255});
    }
    st_font_drawf(h->rd, &g->font, 8, mid - 24, COLOR_WHITE, 3, "%s", label);
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    wave(h, g, 34, g->left, "left: the boom (red), panned here");
    wave(h, g, 88, g->right, "right: the coin (gold, later), panned here");
    static const char *what[] = {"coin", "boom", "mixer", "mix"};
    static const Color col[] = {{255, 214, 120, 255}, {240, 110, 70, 255}, {150, 144, 160, 255}, {120, 160, 255, 255}};
    float scale = 304.f / (float)g->at[4], x = 8;
    st_font_drawf(h->rd, &g->font, 8, 118, COLOR_WHITE, 3,
                  "permanent arena, %llu bytes:", (unsigned long long)g->at[4]);
    for (int i = 0; i < 4; i++) {
        float bw = (float)(g->at[i + 1] - g->at[i]) * scale;
        st_render_rect(h->rd, (RectF){x, 131, bw - 1, 6}, 1, col[i]);
        st_font_drawf(h->rd, &g->font, x, 140, col[i], 3, "%s", what[i]);
        x += bw;
    }
    st_font_drawf(h->rd, &g->font, 8, 160, (Color){150, 144, 160, 255}, 3,
                  "each patch rendered in scratch first (floats), rewound after");
}

static const GameApi API = {EXAMPLE_API_DEFAULTS,
                            .name = "10_sound",
                            .options = OPTIONS,
                            .option_count = 1,
                            .usage = "[--wav out.wav]\n",
                            .help = "  --wav PATH  write the mix as a WAV file\n",
                            .parse = parse,
                            .create = create,
                            .start = start,
                            .draw = draw};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
