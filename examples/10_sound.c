/* 10_sound.c - sound without an audio device: synthesise, mix, measure, write a WAV.

   The idea: a Sound is samples in an arena. The synthesiser renders a patch (a wave, an
   envelope, a pitch sweep) into a scratch buffer; st_synth_to_i16 turns it into the samples
   of a Sound kept in the permanent arena. The mixer plays Sounds on voices and renders
   stereo on demand: a device's callback would call st_mixer_render, and so can a program
   that writes a file or a test that checks the output, with no device at all.
   Look at: where each buffer lives (the patch's float render in scratch, the Sound in perm,
   the mixed output in perm), the peak printed per sound, and the WAV it writes.

   Run: ./10_sound [out.wav]   (prints each sound's peak and the mix's) */
#include <stdlib.h>
#include <stdio.h>

#include <strata/audio/mixer.h>
#include <strata/audio/sound.h>
#include <strata/audio/synth.h>
#include <strata/core/arena.h>

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

int main(int argc, char **argv) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    if (!perm) return 1;
    SynthPatch coin = {.wave = SYNTH_SQUARE,
                       .freq_start = 988,
                       .freq_end = 1319,
                       .sweep_time = 0.05f,
                       .duration = 0.12f,
                       .attack = 0.002f,
                       .decay = 0.05f,
                       .sustain = 0.6f,
                       .release = 0.1f,
                       .duty = 0.5f,
                       .volume = 0.5f};
    SynthPatch boom = {.wave = SYNTH_NOISE,
                       .freq_start = 3000,
                       .freq_end = 200,
                       .sweep_time = 0.3f,
                       .sweep = SYNTH_SWEEP_EXP,
                       .duration = 0.25f,
                       .attack = 0.001f,
                       .decay = 0.2f,
                       .sustain = 0.3f,
                       .release = 0.2f,
                       .lowpass = 2000,
                       .volume = 0.8f};
    Sound s_coin, s_boom;
    if (!make_sound(perm, &coin, &s_coin) || !make_sound(perm, &boom, &s_boom)) return 1;
    printf("coin: %u frames, peak %d\n", s_coin.frames, peak16(s_coin.samples, s_coin.frames));
    printf("boom: %u frames, peak %d\n", s_boom.frames, peak16(s_boom.samples, s_boom.frames));

    /* Half a second of the two, mixed: the boom panned left, the coin right and later. */
    Mixer *mx = st_mixer_create(perm, AUDIO_RATE);
    enum { FRAMES = AUDIO_RATE / 2, BLOCK = 1024 };
    int16_t *mix = st_arena_push_array(perm, int16_t, 2 * FRAMES);
    if (!mx || !mix) return 1;
    st_mixer_play(mx, &(MixerPlay){.sound = &s_boom, .volume = 1, .pan = -0.6f});
    for (uint32_t at = 0; at < FRAMES; at += BLOCK) {
        if (at == 8 * BLOCK) st_mixer_play(mx, &(MixerPlay){.sound = &s_coin, .volume = 1, .pan = 0.6f});
        uint32_t n = FRAMES - at < BLOCK ? FRAMES - at : BLOCK;
        st_mixer_render_s16(mx, mix + 2 * at, n); /* what a device callback would do */
    }
    printf("mix: %d frames, peak %d, %llu frames mixed\n", FRAMES, peak16(mix, 2 * (uint64_t)FRAMES),
           (unsigned long long)st_mixer_stats(mx).frames_mixed);
    Error err;
    if (argc > 1 && !st_sound_write_wav(argv[1], mix, FRAMES, AUDIO_RATE, &err)) return st_error_report(&err), 1;
    if (argc > 1) printf("wrote %s\n", argv[1]);
    printf("permanent arena: %llu bytes (two sounds, the mixer, the mix)\n",
           (unsigned long long)st_arena_stats(perm).used);
    st_arena_release(perm);
    return 0;
}
