/* synth.h - a tiny procedural synthesizer: a sound effect or a note is a SynthPatch, plain
   data, rendered into a float buffer. The game's sound effects (tools/mksounds) and its
   music (music.h) are made with it.

       SynthPatch coin = {.wave = SYNTH_SQUARE, .duty = 0.25f, .freq_start = 988,
                          .duration = 0.06f, .decay = 0.06f, .release = 0.02f, .volume = 0.8f};
       uint32_t n = st_synth_patch_frames(&coin, AUDIO_RATE);
       float *mix = st_arena_push_array(tmp.arena, float, n);    // zeroed: st_synth_render ADDS
       st_synth_render(&coin, mix, n, AUDIO_RATE, 1);
       int16_t *pcm = st_arena_push_array(perm, int16_t, n);
       st_synth_to_i16(mix, pcm, n);                             // clips; returns how many

   A patch sounds for `duration` seconds (the gate) and then for `release` more: ADSR with
   linear segments, the release starting from whatever level the gate closed at. The pitch
   slides from freq_start to freq_end (linearly in Hz or exponentially) over sweep_time,
   then stays; vibrato wobbles it by vibrato_depth semitones. Zero fields take defaults
   where zero makes no sense: duty 0 is 0.5, volume 0 is 1, freq_end 0 is "no sweep",
   sweep_time 0 is "the whole patch", lowpass 0 is "no filter".

   Output is the same bits on every run and every machine with IEEE single floats evaluated
   in single precision (x86-64 SSE, ARM64; not x87): only + - * / and conversions are used,
   no libm, because the committed sound files are compared byte for byte with what
   mksounds makes today, and a libm update must not change them. The sine, 2^x and log2
   below are polynomials written here for that reason. Noise comes from a xorshift
   generator seeded by the caller: same seed, same noise. No allocation, no SDL. */
#ifndef SYNTH_H
#define SYNTH_H

#include <stdint.h>

typedef enum SynthWave {
    SYNTH_SQUARE, /* pulse of width `duty`, band-limited edges, no DC */
    SYNTH_TRIANGLE,
    SYNTH_SAW,
    SYNTH_SINE,
    SYNTH_NOISE, /* sample-and-hold noise: a new value freq times a second (the pitch) */
    SYNTH_WAVE_COUNT
} SynthWave;

typedef enum SynthSweep { SYNTH_SWEEP_LINEAR, SYNTH_SWEEP_EXP } SynthSweep;

typedef struct SynthPatch {
    SynthWave wave;
    SynthSweep sweep;
    float freq_start, freq_end;                       /* Hz */
    float sweep_time;                                 /* seconds the slide takes */
    float duration;                                   /* seconds to the release: the gate */
    float attack, decay, sustain, release;            /* seconds, seconds, 0..1, seconds */
    float duty;                                       /* SYNTH_SQUARE: the high part, 0..1 */
    float noise_mix;                                  /* 0..1 of white noise in the wave */
    float vibrato_rate, vibrato_depth, vibrato_delay; /* Hz, semitones, seconds */
    float lowpass;                                    /* one-pole low-pass cutoff, Hz */
    float volume;                                     /* peak gain */
} SynthPatch;

/* Frames the patch sounds for: round(duration * rate) + round(release * rate). */
uint32_t st_synth_patch_frames(const SynthPatch *p, uint32_t rate);
/* Adds the first `frames` frames of the patch into out[0, frames); past the patch's own
   length it adds nothing. `seed` picks the noise. */
void st_synth_render(const SynthPatch *p, float *out, uint32_t frames, uint32_t rate, uint32_t seed);
/* The envelope's level (0..1, before volume) at `frame` from the start. */
float st_synth_envelope(const SynthPatch *p, uint32_t frame, uint32_t rate);
/* Scales to 16 bits (1.0 -> 32767), rounding to nearest and clipping to the int16 range;
   NaN becomes 0. Returns how many samples were clipped. */
uint64_t st_synth_to_i16(const float *in, int16_t *out, uint64_t n);

/* The deterministic helpers, for callers that must match the synth's own arithmetic. */
float st_synth_sin2pi(float turns); /* sin(2 pi turns), error < 4e-6 */
float st_synth_exp2(float x);       /* 2^x, relative error < 2e-7; clamped to 2^+-126 */
float st_synth_log2(float x);       /* x > 0; else -126 */
float st_synth_note_hz(int note);   /* MIDI note number -> Hz, A4 (69) = 440 */
/* One step of the noise generator: xorshift32 (state never 0), returned in [-1, 1). */
float st_synth_noise(uint32_t *state);

#endif
