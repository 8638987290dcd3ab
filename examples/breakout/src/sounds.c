/* sounds.c - breakout's sound effects (sounds.h). */
#include "sounds.h"

#include <strata/audio/synth.h>
#include <strata/core/diag.h>

#include "sim.h"

/* A sound is up to four patches, each starting `at` seconds in (an arpeggio, a chord). */
typedef struct Recipe {
    SynthPatch note[4];
    float at[4];
    int count;
} Recipe;

#define BLIP(w, f0, f1, dur, vol)                                                                               \
    {                                                                                                           \
        .wave = (w), .freq_start = (f0), .freq_end = (f1), .duration = (dur), .decay = (dur), .release = 0.02f, \
        .volume = (vol)                                                                                         \
    }

static const Recipe RECIPES[SND_COUNT] = {
    [SND_PADDLE] = {{BLIP(SYNTH_SQUARE, 392, 440, 0.05f, 0.5f)}, {0}, 1},
    [SND_WALL] = {{BLIP(SYNTH_TRIANGLE, 220, 0, 0.04f, 0.5f)}, {0}, 1},
    [SND_BRICK] = {{BLIP(SYNTH_SQUARE, 660, 880, 0.06f, 0.45f)}, {0}, 1},
    [SND_METAL] = {{BLIP(SYNTH_TRIANGLE, 1320, 1240, 0.12f, 0.5f), BLIP(SYNTH_SINE, 1980, 0, 0.1f, 0.25f)}, {0, 0}, 2},
    [SND_LOST] = {{{.wave = SYNTH_SAW,
                    .sweep = SYNTH_SWEEP_EXP,
                    .freq_start = 440,
                    .freq_end = 70,
                    .duration = 0.5f,
                    .decay = 0.5f,
                    .sustain = 0.3f,
                    .release = 0.1f,
                    .lowpass = 2400,
                    .volume = 0.45f}},
                  {0},
                  1},
    [SND_CLEAR] = {{BLIP(SYNTH_SQUARE, 523, 0, 0.1f, 0.4f), BLIP(SYNTH_SQUARE, 659, 0, 0.1f, 0.4f),
                    BLIP(SYNTH_SQUARE, 784, 0, 0.1f, 0.4f), BLIP(SYNTH_SQUARE, 1047, 0, 0.3f, 0.4f)},
                   {0, 0.1f, 0.2f, 0.3f},
                   4},
    [SND_OVER] = {{BLIP(SYNTH_TRIANGLE, 392, 0, 0.2f, 0.5f), BLIP(SYNTH_TRIANGLE, 330, 0, 0.2f, 0.5f),
                   BLIP(SYNTH_TRIANGLE, 262, 0, 0.2f, 0.5f), BLIP(SYNTH_TRIANGLE, 196, 0, 0.6f, 0.5f)},
                  {0, 0.22f, 0.44f, 0.66f},
                  4},
    [SND_LAUNCH] = {{BLIP(SYNTH_SQUARE, 523, 1047, 0.08f, 0.4f)}, {0}, 1},
};

static bool make(Arena *perm, const Recipe *r, Sound *out, uint32_t seed) {
    uint32_t frames = 0;
    for (int i = 0; i < r->count; i++) {
        uint32_t end = (uint32_t)(r->at[i] * AUDIO_RATE) + st_synth_patch_frames(&r->note[i], AUDIO_RATE);
        frames = end > frames ? end : frames;
    }
    SCRATCH_SCOPE(tmp, perm);
    float *mix = st_arena_push_array(tmp.arena, float, frames); /* zeroed: the synth adds */
    int16_t *pcm = st_arena_push_array(perm, int16_t, frames);
    if (!mix || !pcm) return st_diag_report(DIAG_ERROR, "breakout: no memory for the sounds"), false;
    for (int i = 0; i < r->count; i++) {
        uint32_t at = (uint32_t)(r->at[i] * AUDIO_RATE);
        st_synth_render(&r->note[i], mix + at, frames - at, AUDIO_RATE, seed + (uint32_t)i);
    }
    st_synth_to_i16(mix, pcm, frames);
    *out = (Sound){.samples = pcm, .frames = frames};
    return true;
}

bool sounds_make(Arena *perm, Sounds *out) {
    *out = (Sounds){0};
    uint64_t before = st_arena_stats(perm).used;
    for (int i = 0; i < SND_COUNT; i++)
        if (!make(perm, &RECIPES[i], &out->sound[i], 7u + (uint32_t)i)) return false;
    out->bytes = st_arena_stats(perm).used - before;
    return true;
}

void sounds_play(const Sounds *s, Mixer *m, uint32_t events, float where) {
    if (!m || !events) return;
    static const struct {
        uint32_t event;
        int sound;
        bool panned;
    } MAP[] = {{SIM_EV_PADDLE, SND_PADDLE, true}, {SIM_EV_WALL, SND_WALL, true},     {SIM_EV_BRICK, SND_BRICK, true},
               {SIM_EV_METAL, SND_METAL, true},   {SIM_EV_LOST, SND_LOST, false},    {SIM_EV_CLEAR, SND_CLEAR, false},
               {SIM_EV_OVER, SND_OVER, false},    {SIM_EV_LAUNCH, SND_LAUNCH, true}, {SIM_EV_START, SND_LAUNCH, false}};
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (events & MAP[i].event)
            st_mixer_play(m, &(MixerPlay){.sound = &s->sound[MAP[i].sound],
                                          .volume = 0.7f,
                                          .pan = MAP[i].panned ? (where * 2 - 1) * 0.6f : 0,
                                          .priority = 10});
}
