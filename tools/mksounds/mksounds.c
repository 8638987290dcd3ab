/* mksounds - synthesizes the game's sound effects and writes assets/sounds/<name>.wav.

   usage: mksounds OUT_DIR

   Each effect is a few SynthPatch layers (engine/audio/synth.h) started at given times,
   mixed, then scaled so its peak sits at the effect's level in dBFS, and written as 16-bit
   mono PCM at AUDIO_RATE. synth.h renders the same bits on every machine and the seeds are
   fixed, so the committed files are exactly what this program writes: the ctest
   mksounds_reproducible compares them byte for byte. Prints one line per file with its
   length, peak, RMS and DC offset, the figures that stand in for listening. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <strata/audio/sound.h>
#include <strata/audio/synth.h>
#include <strata/core/arena.h>
#include <strata/core/cli.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>

#define MAX_LAYERS 6

typedef struct Layer {
    float at; /* seconds from the start of the effect */
    SynthPatch p;
} Layer;

typedef struct Effect {
    const char *name;
    float peak_db; /* where the loudest sample lands; menu ticks are quieter on purpose */
    Layer layers[MAX_LAYERS];
} Effect;

/* Note frequencies used below (equal temperament, A4 = 440 Hz). */
#define A5 880.0f
#define B5 987.77f
#define C5 523.25f
#define E5 659.26f
#define G5 783.99f
#define C6 1046.5f
#define E6 1318.51f
#define GS5 830.61f
#define B6 1975.53f
#define E7 2637.02f

/* Laid out by hand, a layer a line or two. */
// clang-format off
static const Effect effects[] = {
    /* A short dry "pew": a narrow pulse diving fast, with a click of noise on the front. */
    {"shot", -3.0f, {
        {0, {.wave = SYNTH_SQUARE, .duty = 0.25f, .freq_start = 1500, .freq_end = 320,
             .sweep = SYNTH_SWEEP_EXP, .duration = 0.085f, .attack = 0.001f, .decay = 0.085f,
             .release = 0.01f, .lowpass = 9000}},
        {0, {.wave = SYNTH_NOISE, .freq_start = 24000, .duration = 0.015f, .decay = 0.015f,
             .release = 0.005f, .volume = 0.35f}},
    }},
    /* A bullet landing: a dull knock, half tone and half filtered noise. */
    {"hit", -2.0f, {
        {0, {.wave = SYNTH_SQUARE, .freq_start = 520, .freq_end = 150, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.07f, .attack = 0.001f, .decay = 0.07f, .release = 0.01f,
             .lowpass = 3000}},
        {0, {.wave = SYNTH_NOISE, .freq_start = 9000, .duration = 0.05f, .decay = 0.05f,
             .release = 0.01f, .lowpass = 4000, .volume = 0.6f}},
    }},
    /* The player hurt: a low buzz, two detuned saws growling (fast vibrato) and sagging. */
    {"hurt", -1.5f, {
        {0, {.wave = SYNTH_SAW, .freq_start = 170, .freq_end = 95, .duration = 0.22f,
             .attack = 0.004f, .decay = 0.05f, .sustain = 0.75f, .release = 0.08f,
             .vibrato_rate = 28, .vibrato_depth = 0.9f, .lowpass = 2400}},
        {0, {.wave = SYNTH_SQUARE, .duty = 0.4f, .freq_start = 86, .freq_end = 50,
             .duration = 0.22f, .attack = 0.004f, .decay = 0.05f, .sustain = 0.75f,
             .release = 0.08f, .lowpass = 1500, .volume = 0.7f}},
    }},
    /* An enemy destroyed: a crunch of noise sliding down, over a collapsing tone. */
    {"kill", -1.5f, {
        {0, {.wave = SYNTH_NOISE, .freq_start = 7000, .freq_end = 700, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.26f, .attack = 0.001f, .decay = 0.26f, .release = 0.04f,
             .lowpass = 6000}},
        {0, {.wave = SYNTH_SQUARE, .freq_start = 320, .freq_end = 45, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.18f, .attack = 0.001f, .decay = 0.18f, .release = 0.02f,
             .lowpass = 2500, .volume = 0.55f}},
    }},
    /* A coin: the bright two-note blip, B5 then a ringing E6. */
    {"coin", -1.5f, {
        {0, {.wave = SYNTH_SQUARE, .freq_start = B5, .duration = 0.07f, .attack = 0.001f,
             .sustain = 1, .release = 0.004f}},
        {0.07f, {.wave = SYNTH_SQUARE, .freq_start = E6, .duration = 0.26f, .attack = 0.001f,
                 .decay = 0.26f, .release = 0.02f}},
    }},
    /* A key: a thin, jingling run up an E major chord. */
    {"key", -1.5f, {
        {0.000f, {.wave = SYNTH_SQUARE, .duty = 0.125f, .freq_start = E6, .duration = 0.045f,
                  .attack = 0.001f, .decay = 0.06f, .sustain = 0.6f, .release = 0.005f}},
        {0.045f, {.wave = SYNTH_SQUARE, .duty = 0.125f, .freq_start = GS5 * 2, .duration = 0.045f,
                  .attack = 0.001f, .decay = 0.06f, .sustain = 0.6f, .release = 0.005f}},
        {0.090f, {.wave = SYNTH_SQUARE, .duty = 0.125f, .freq_start = B6, .duration = 0.045f,
                  .attack = 0.001f, .decay = 0.06f, .sustain = 0.6f, .release = 0.005f}},
        {0.135f, {.wave = SYNTH_SQUARE, .duty = 0.125f, .freq_start = E7, .duration = 0.22f,
                  .attack = 0.001f, .decay = 0.22f, .release = 0.02f}},
        {0.135f, {.wave = SYNTH_TRIANGLE, .freq_start = E6, .duration = 0.22f, .attack = 0.002f,
                  .decay = 0.22f, .release = 0.02f, .volume = 0.5f}},
    }},
    /* A heart: a warm, round rise C-E-G-C, the last note held with a little vibrato. */
    {"heart", -1.5f, {
        {0.00f, {.wave = SYNTH_SQUARE, .freq_start = C5, .duration = 0.06f, .attack = 0.002f,
                 .sustain = 1, .release = 0.006f, .lowpass = 2500}},
        {0.06f, {.wave = SYNTH_SQUARE, .freq_start = E5, .duration = 0.06f, .attack = 0.002f,
                 .sustain = 1, .release = 0.006f, .lowpass = 2500}},
        {0.12f, {.wave = SYNTH_SQUARE, .freq_start = G5, .duration = 0.06f, .attack = 0.002f,
                 .sustain = 1, .release = 0.006f, .lowpass = 2500}},
        {0.18f, {.wave = SYNTH_SQUARE, .freq_start = C6, .duration = 0.26f, .attack = 0.002f,
                 .decay = 0.26f, .release = 0.02f, .lowpass = 2500, .vibrato_rate = 7,
                 .vibrato_depth = 0.25f, .vibrato_delay = 0.05f}},
        {0.18f, {.wave = SYNTH_TRIANGLE, .freq_start = C5, .duration = 0.26f, .attack = 0.002f,
                 .decay = 0.26f, .release = 0.02f, .volume = 0.6f}},
    }},
    /* A door: a thunk, a sine dropping low under a short knock of dark noise. */
    {"door", -1.5f, {
        {0, {.wave = SYNTH_SINE, .freq_start = 150, .freq_end = 48, .sweep = SYNTH_SWEEP_EXP,
             .sweep_time = 0.12f, .duration = 0.2f, .attack = 0.002f, .decay = 0.2f,
             .release = 0.03f}},
        {0, {.wave = SYNTH_NOISE, .freq_start = 2500, .duration = 0.06f, .decay = 0.06f,
             .release = 0.01f, .lowpass = 1200, .volume = 0.8f}},
        {0.035f, {.wave = SYNTH_SQUARE, .freq_start = 95, .freq_end = 70, .duration = 0.08f,
                  .attack = 0.002f, .decay = 0.08f, .release = 0.02f, .lowpass = 600,
                  .volume = 0.5f}},
    }},
    /* The stairs: a long rising sweep that lands on a ringing high C. */
    {"exit", -1.5f, {
        {0, {.wave = SYNTH_SQUARE, .freq_start = 196, .freq_end = C6, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.6f, .attack = 0.02f, .decay = 0.1f, .sustain = 0.7f, .release = 0.03f,
             .vibrato_rate = 9, .vibrato_depth = 0.3f, .lowpass = 5000}},
        {0, {.wave = SYNTH_TRIANGLE, .freq_start = 98, .freq_end = C5, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.6f, .attack = 0.02f, .sustain = 1, .release = 0.03f, .volume = 0.6f}},
        {0.6f, {.wave = SYNTH_SQUARE, .duty = 0.25f, .freq_start = C6, .duration = 0.45f,
                .attack = 0.002f, .decay = 0.45f, .release = 0.05f, .vibrato_rate = 6,
                .vibrato_depth = 0.2f, .lowpass = 6000}},
        {0.6f, {.wave = SYNTH_TRIANGLE, .freq_start = C5, .duration = 0.45f, .attack = 0.002f,
                .decay = 0.45f, .release = 0.05f, .volume = 0.6f}},
    }},
    /* Death: a falling wail, a wide vibrato sliding down three octaves. */
    {"death", -1.5f, {
        {0, {.wave = SYNTH_SQUARE, .freq_start = A5, .freq_end = 110, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.9f, .attack = 0.01f, .decay = 0.3f, .sustain = 0.6f, .release = 0.25f,
             .vibrato_rate = 6, .vibrato_depth = 0.7f, .lowpass = 3500}},
        {0, {.wave = SYNTH_TRIANGLE, .freq_start = A5 / 2, .freq_end = 55,
             .sweep = SYNTH_SWEEP_EXP, .duration = 0.9f, .attack = 0.01f, .decay = 0.3f,
             .sustain = 0.6f, .release = 0.25f, .vibrato_rate = 6, .vibrato_depth = 0.7f,
             .volume = 0.7f}},
        {0, {.wave = SYNTH_NOISE, .freq_start = 5000, .freq_end = 500, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.15f, .decay = 0.15f, .release = 0.02f, .lowpass = 3000,
             .volume = 0.5f}},
    }},
    /* Menu ticks: soft, short and low in level, since they repeat under the player's thumb. */
    {"menu_move", -9.0f, {
        {0, {.wave = SYNTH_TRIANGLE, .freq_start = 1320, .duration = 0.035f, .attack = 0.001f,
             .decay = 0.035f, .release = 0.005f}},
    }},
    {"menu_select", -5.0f, {
        {0, {.wave = SYNTH_SQUARE, .freq_start = A5, .duration = 0.05f, .attack = 0.001f,
             .sustain = 1, .release = 0.004f, .lowpass = 4000}},
        {0.05f, {.wave = SYNTH_SQUARE, .freq_start = E6, .duration = 0.12f, .attack = 0.001f,
                 .decay = 0.12f, .release = 0.01f, .lowpass = 4000}},
    }},
    /* A portal: a rising, warbling sweep, a fifth above it shimmering. */
    {"portal", -1.5f, {
        {0, {.wave = SYNTH_SINE, .freq_start = 280, .freq_end = 1400, .sweep = SYNTH_SWEEP_EXP,
             .duration = 0.45f, .attack = 0.03f, .decay = 0.1f, .sustain = 0.8f,
             .release = 0.12f, .vibrato_rate = 14, .vibrato_depth = 1.2f}},
        {0, {.wave = SYNTH_SQUARE, .duty = 0.25f, .freq_start = 420, .freq_end = 2100,
             .sweep = SYNTH_SWEEP_EXP, .duration = 0.45f, .attack = 0.05f, .decay = 0.1f,
             .sustain = 0.6f, .release = 0.12f, .vibrato_rate = 14, .vibrato_depth = 1.2f,
             .lowpass = 5000, .volume = 0.35f}},
    }},
    /* Time running backwards, played again every fifth of a second while it does: a tape
       wound back, a falling square warbling fast over a hiss. */
    {"rewind", -6.0f, {
        {0, {.wave = SYNTH_SQUARE, .duty = 0.4f, .freq_start = 1500, .freq_end = 700,
             .sweep = SYNTH_SWEEP_EXP, .duration = 0.2f, .attack = 0.01f, .decay = 0.05f,
             .sustain = 0.7f, .release = 0.06f, .vibrato_rate = 30, .vibrato_depth = 2.0f,
             .lowpass = 4500}},
        {0, {.wave = SYNTH_NOISE, .freq_start = 24000, .duration = 0.2f, .attack = 0.01f,
             .decay = 0.05f, .sustain = 0.5f, .release = 0.06f, .lowpass = 2500, .volume = 0.25f}},
    }},
};
// clang-format on

static uint32_t at_frames_(float seconds) { return (uint32_t)((double)seconds * AUDIO_RATE + 0.5); }

static void put16_(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32_(uint8_t *p, uint32_t v) { put16_(p, v), put16_(p + 2, v >> 16); }

/* 16-bit mono PCM WAV: the canonical 44-byte header, then the samples little-endian. */
static bool write_wav_(Arena *a, const char *path, const int16_t *pcm, uint32_t frames) {
    uint32_t data = frames * 2;
    uint8_t *f = st_arena_push_raw(a, 44 + (uint64_t)data, 16);
    if (!f) return false;
    memcpy(f, "RIFF", 4), put32_(f + 4, 36 + data), memcpy(f + 8, "WAVEfmt ", 8);
    put32_(f + 16, 16), put16_(f + 20, 1), put16_(f + 22, 1), put32_(f + 24, AUDIO_RATE);
    put32_(f + 28, AUDIO_RATE * 2), put16_(f + 32, 2), put16_(f + 34, 16);
    memcpy(f + 36, "data", 4), put32_(f + 40, data);
    for (uint32_t i = 0; i < frames; i++) put16_(f + 44 + 2 * i, (uint16_t)pcm[i]);
    Error err;
    if (st_os_write_file_atomic(path, f, 44 + (uint64_t)data, &err)) return true;
    fprintf(stderr, "mksounds: %s\n", err.message);
    return false;
}

static bool make_(Arena *a, const char *dir, const Effect *e) {
    ARENA_SCOPE(scope, a); /* this effect's buffers go at the closing brace */
    uint32_t frames = 0, count = 0;
    while (count < MAX_LAYERS && e->layers[count].p.duration > 0) count++;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t end =
            at_frames_(e->layers[i].at) + st_synth_patch_frames(&e->layers[i].p, AUDIO_RATE);
        if (end > frames) frames = end;
    }
    float *mix = st_arena_push_array(scope.arena, float, frames);
    int16_t *pcm = st_arena_push_array(scope.arena, int16_t, frames);
    if (!mix || !pcm) return false;
    for (uint32_t i = 0; i < count; i++) {
        const Layer *l = &e->layers[i];
        uint32_t at = at_frames_(l->at);
        st_synth_render(&l->p, mix + at, frames - at, AUDIO_RATE, 0x5eed0000u + i);
    }
    /* Scaled to the level: one division and multiplications, the same bits everywhere.
       10^(dB/20) is computed with st_synth_exp2 rather than libm's pow for that reason. */
    float peak = 0;
    for (uint32_t i = 0; i < frames; i++) {
        float v = mix[i] < 0 ? -mix[i] : mix[i];
        if (v > peak) peak = v;
    }
    float gain = st_synth_exp2(e->peak_db / 20.0f * 3.3219281f) / peak;
    for (uint32_t i = 0; i < frames; i++) mix[i] *= gain;
    if (st_synth_to_i16(mix, pcm, frames)) fprintf(stderr, "mksounds: %s clips\n", e->name);

    double sum = 0, sq = 0;
    int32_t top = 0;
    for (uint32_t i = 0; i < frames; i++) {
        int32_t v = pcm[i] < 0 ? -pcm[i] : pcm[i];
        if (v > top) top = v;
        sum += pcm[i], sq += (double)pcm[i] * pcm[i];
    }
    printf("%-12s %5.3f s  peak %6.2f dBFS  rms %6.2f dBFS  dc %+.5f\n", e->name,
           (double)frames / AUDIO_RATE, 20 * log10(top / 32767.0),
           10 * log10(sq / frames / (32767.0 * 32767.0)), sum / frames / 32767.0);

    char path[1024];
    if (snprintf(path, sizeof path, "%s/%s.wav", dir, e->name) >= (int)sizeof path) {
        fprintf(stderr, "mksounds: path too long: %s\n", dir);
        return false;
    }
    return write_wav_(scope.arena, path, pcm, frames);
}

static const CliOption OPTS[] = {CLI_STANDARD_OPTIONS};
static const CliProgram PROGRAM = {"mksounds", "usage: mksounds OUT_DIR  (writes the sound effects as OUT_DIR/*.wav, making the folder)\n"
                            "       mksounds --help | --version\n", NULL, OPTS, 3, 1, 1};

int main(int argc, char **argv) {
    const char *dir;
    CliValue v[3];
    int n, rc = st_cli_run(&PROGRAM, AD_VERSION, argc, argv, v, &dir, &n);
    if (rc >= 0) return rc;
    if (!st_os_make_dirs(dir)) {
        st_diag_report(DIAG_ERROR, "mksounds: cannot make the folder %s: %s", dir, strerror(errno));
        return 1;
    }
    Arena *a = st_arena_create((ArenaParams){.name = "mksounds"});
    if (!a) return 1;
    for (size_t i = 0; i < sizeof effects / sizeof effects[0]; i++)
        if (!make_(a, dir, &effects[i])) return 1;
    st_arena_release(a);
    return 0;
}
