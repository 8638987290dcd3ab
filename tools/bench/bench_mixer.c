/* bench_mixer: what one 10 ms audio buffer costs, 480 frames at 48 kHz with all 32 voices
   playing (looping, each its own pan and volume), against the alternatives, in one run.

   1. Mixed pitches (every voice its own between 0.5 and 2):
     mixer   st_mixer_render, the engine's: 32.32 fixed-point positions, interpolation runs
             without bounds checks, gains ramped per block; its master limiter off, as the
             alternatives have none (they add and clip);
     limited the same with the limiter on, as the game plays (a true-peak limiter, about
             the mix's own cost again);
     s16     st_mixer_render_s16: the same mix, rounded to 16 bits;
     naive   a reference written here the obvious way: a float position advanced by
             pitch * rate / output_rate, divided per sample, wrapped with fmodf, samples
             divided by 32768, no ramps (so it does less than the mixer, not more).
   2. Every voice at pitch 1, the one thing SDL_mixer can do (it has no pitch):
     mixer    st_mixer_render, the same 32 voices at pitch 1;
     SDL_mixer  Mix_PlayChannel of 32 chunks (already in the device's float stereo format,
             as Mix_LoadWAV leaves them), Mix_Volume and Mix_SetPanning per channel, mixed by
             SDL_mixer's own callback on SDL's audio thread. The device is SDL's "disk" driver
             writing to /dev/null with no delay; a post-mix hook parks that thread between
             rounds, so a round is exactly BUFFERS of its buffers.
   Process CPU (the audio thread's included), contestants in rotating order round by round,
   each ratio the median of the rounds' ratios with its min-max. --callgrind: one loop of
   each under callgrind's client requests, for tools/bench_ir.sh (instructions per buffer).

   Usage: bench_mixer [ROUNDS]   (default 31)
          bench_mixer --callgrind */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL2/SDL.h>
#ifdef HAVE_SDL_MIXER
#include <SDL2/SDL_mixer.h>
#endif

#include <strata/audio/mixer.h>
#include "bench.h"

enum { FRAMES = 480, BUFFERS = 200, CG_BUFFERS = 50, VOICES = MIXER_VOICES, SOUND_FRAMES = 48000 };
enum { C_MIXER, C_S16, C_NAIVE, C_LIMITED, C_FLAT, C_SDLMIX, C_COUNT };

typedef struct Naive {
    const int16_t *s;
    uint32_t frames;
    float pos, pitch, gain_l, gain_r;
} Naive;

static void naive_render(Naive *v, int n, float *out, uint32_t frames, uint32_t rate) {
    memset(out, 0, sizeof(float) * 2 * frames);
    for (int k = 0; k < n; k++)
        for (uint32_t j = 0; j < frames; j++) {
            uint32_t i = (uint32_t)v[k].pos;
            float f = v[k].pos - (float)i;
            float a = v[k].s[i] / 32768.0f, b = v[k].s[(i + 1) % v[k].frames] / 32768.0f;
            float x = a + (b - a) * f;
            out[2 * j] += x * v[k].gain_l;
            out[2 * j + 1] += x * v[k].gain_r;
            v[k].pos =
                fmodf(v[k].pos + v[k].pitch * (float)AUDIO_RATE / (float)rate, (float)v[k].frames);
        }
}

typedef struct Bench {
    Mixer *mx, *mx16, *limited, *flat;
    Naive naive[VOICES];
    int buffers;
    bool sdl_mixer; /* SDL_mixer's device is open */
} Bench;

static float out[2 * FRAMES], ref[2 * FRAMES];
static int16_t out16[2 * FRAMES];

/* ---- SDL_mixer on its own audio thread, parked in its post-mix hook between rounds. */
#ifdef HAVE_SDL_MIXER
static SDL_sem *mix_go, *mix_done;
static int mix_left = 1 << 30;    /* buffers still to mix in this round (atomic); 0: park */
static const char *mix_cg_name;   /* set: the round is a callgrind loop of that name */
static Mix_Chunk chunk[4];

static void postmix(void *u, Uint8 *stream, int len) {
    (void)u, (void)stream, (void)len;
    if (__atomic_sub_fetch(&mix_left, 1, __ATOMIC_ACQ_REL) > 0) return;
    if (mix_cg_name) bench_callgrind_end(mix_cg_name, CG_BUFFERS, "buffer", "SDL_mixer, 32 voices at pitch 1"),
                         mix_cg_name = NULL;
    SDL_SemPost(mix_done);
    SDL_SemWait(mix_go);
    if (mix_cg_name) bench_callgrind_begin();
}

static bool sdl_mixer_open(const Sound *snd, const MixerPlay *plays, Arena *perm) {
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", "/dev/null", 1);
    setenv("SDL_DISKAUDIODELAY", "0", 1);
    if (SDL_Init(SDL_INIT_AUDIO) != 0) return false;
    mix_go = SDL_CreateSemaphore(0), mix_done = SDL_CreateSemaphore(0);
    if (Mix_OpenAudioDevice(48000, AUDIO_F32SYS, 2, FRAMES, NULL, 0) != 0) {
        fprintf(stderr, "bench_mixer: SDL_mixer: %s\n", Mix_GetError());
        return false;
    }
    for (int k = 0; k < 4; k++) { /* the sounds in the device's format, as SDL_mixer keeps them */
        float *f = st_arena_push_array(perm, float, 2 * snd[k].frames);
        for (uint32_t i = 0; i < snd[k].frames; i++) f[2 * i] = f[2 * i + 1] = snd[k].samples[i] / 32768.0f;
        chunk[k] = (Mix_Chunk){.allocated = 0, .abuf = (Uint8 *)f, .alen = 8 * snd[k].frames, .volume = 128};
    }
    Mix_AllocateChannels(VOICES);
    Mix_SetPostMix(postmix, NULL);
    /* Set up while the thread runs free: a Mix_ call takes the device's lock, which the
       thread holds while it is parked. */
    for (int k = 0; k < VOICES; k++) {
        Mix_Volume(k, (int)(plays[k].volume * MIX_MAX_VOLUME));
        float l = sqrtf((1 - plays[k].pan) / 2), r = sqrtf((1 + plays[k].pan) / 2);
        Mix_SetPanning(k, (Uint8)(255 * l), (Uint8)(255 * r));
        if (Mix_PlayChannel(k, &chunk[k % 4], -1) != k) return false;
    }
    __atomic_store_n(&mix_left, 1, __ATOMIC_RELEASE);
    SDL_SemWait(mix_done); /* the next buffer parks it */
    return true;
}

static void sdl_mixer_run(int buffers) {
    __atomic_store_n(&mix_left, buffers, __ATOMIC_RELEASE);
    SDL_SemPost(mix_go);
    SDL_SemWait(mix_done);
}

static void sdl_mixer_close(void) {
    __atomic_store_n(&mix_left, 1 << 30, __ATOMIC_RELEASE); /* runs free: Mix_CloseAudio joins it */
    SDL_SemPost(mix_go);
    Mix_CloseAudio();
    SDL_Quit();
}
#endif

static void run(void *ctx, int c) {
    Bench *b = ctx;
    for (int i = 0; i < (c == C_SDLMIX ? 1 : b->buffers); i++) switch (c) {
        case C_MIXER: st_mixer_render(b->mx, out, FRAMES); break;
        case C_S16: st_mixer_render_s16(b->mx16, out16, FRAMES); break;
        case C_NAIVE: naive_render(b->naive, VOICES, ref, FRAMES, 48000); break;
        case C_LIMITED: st_mixer_render(b->limited, out, FRAMES); break;
        case C_FLAT: st_mixer_render(b->flat, out, FRAMES); break;
#ifdef HAVE_SDL_MIXER
        case C_SDLMIX: sdl_mixer_run(b->buffers); break;
#endif
        }
}

static void sounds_make(Arena *perm, Sound snd[4]) {
    uint64_t r = 0x9E3779B97F4A7C15ull; /* sines and a noise, so no voice is a trivial constant */
    for (int k = 0; k < 4; k++) {
        int16_t *p = st_arena_push_array(perm, int16_t, SOUND_FRAMES);
        for (int i = 0; i < SOUND_FRAMES; i++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            p[i] = k == 3 ? (int16_t)(r >> 48) / 4
                          : (int16_t)(12000 * sinf((float)i * 0.01f * (float)(k + 1)));
        }
        snd[k] = (Sound){p, SOUND_FRAMES};
    }
}

static void callgrind_mode(Bench *b) {
    static const char *const name[C_COUNT] = {"mixer", "mixer_s16", "naive", "mixer_limited", "mixer_pitch1",
                                                     "sdl_mixer"};
    static const char *const label[C_COUNT] = {
        "st_mixer_render, 32 voices, mixed pitches", "st_mixer_render_s16, the same",
        "naive reference, the same", "st_mixer_render with its limiter on, the same",
        "st_mixer_render, 32 voices at pitch 1", ""};
    b->buffers = CG_BUFFERS;
    for (int c = 0; c < C_COUNT; c++) {
        if (c == C_SDLMIX) {
#ifdef HAVE_SDL_MIXER
            if (!b->sdl_mixer) continue;
            mix_cg_name = name[c]; /* the audio thread begins and ends its own count */
            run(b, c);
#endif
            continue;
        }
        run(b, c); /* warm */
        bench_callgrind_begin();
        run(b, c);
        bench_callgrind_end(name[c], CG_BUFFERS, "buffer", label[c]);
    }
    bench_callgrind_pair("mixer_naive", "mixer", "naive");
    bench_callgrind_pair("mixer_limiter", "mixer", "mixer_limited");
    bench_callgrind_pair("mixer_sdl", "mixer_pitch1", "sdl_mixer");
}

static void report(Bench *b, int rounds, uint64_t *t) {
    double per[C_COUNT];
    for (int c = 0; c < C_COUNT; c++) per[c] = bench_stat_u64(t + c * rounds, rounds).median / BUFFERS;
    printf("One 10 ms buffer (%d frames at 48 kHz), %d looping voices; process CPU, %d rounds of %d buffers\n"
           "in rotating order; ratios: the median of the rounds' ratios (min-max)\n",
           FRAMES, VOICES, rounds, BUFFERS);
    printf("  %-44s %9s %14s\n", "mixed pitches", "ns/buffer", "of the 10 ms");
    printf("  %-44s %9.0f %13.2f%%\n", "st_mixer_render (float)", per[C_MIXER], per[C_MIXER] / 1e5);
    printf("  %-44s %9.0f %13.2f%%\n", "st_mixer_render_s16", per[C_S16], per[C_S16] / 1e5);
    printf("  %-44s %9.0f %13.2f%%\n", "naive reference", per[C_NAIVE], per[C_NAIVE] / 1e5);
    printf("  %-44s %9.0f %13.2f%%\n", "st_mixer_render, limiter on (as in the game)", per[C_LIMITED],
           per[C_LIMITED] / 1e5);
    BenchStat q = bench_ratio(t + C_NAIVE * rounds, t + C_MIXER * rounds, rounds);
    bench_row("naive / st_mixer_render", q, "x");
    bench_row("naive / st_mixer_render_s16", bench_ratio(t + C_NAIVE * rounds, t + C_S16 * rounds, rounds), "x");
    bench_row("limiter on / off", bench_ratio(t + C_LIMITED * rounds, t + C_MIXER * rounds, rounds), "x");
    char ours[64], alt[64];
    snprintf(ours, sizeof ours, "%.0f us/buffer (%.2f%%)", per[C_MIXER] / 1e3, per[C_MIXER] / 1e5);
    snprintf(alt, sizeof alt, "naive mixer %.0f us", per[C_NAIVE] / 1e3);
    bench_summary("mixer_naive", "mixer, 32 voices, mixed pitches: naive / ours", ours, alt, q);
    snprintf(ours, sizeof ours, "%.0f us/buffer, limiter on", per[C_LIMITED] / 1e3);
    snprintf(alt, sizeof alt, "limiter off %.0f us", per[C_MIXER] / 1e3);
    bench_summary("mixer_limiter", "the mixer's true-peak limiter: on / off",
                  ours, alt, bench_ratio(t + C_LIMITED * rounds, t + C_MIXER * rounds, rounds));
    printf("  %-44s %9s %14s\n", "every voice at pitch 1", "ns/buffer", "of the 10 ms");
    printf("  %-44s %9.0f %13.2f%%\n", "st_mixer_render (float)", per[C_FLAT], per[C_FLAT] / 1e5);
    if (!b->sdl_mixer) {
        printf("  SDL_mixer: not measured (%s)\n", "not built with it, or its device did not open");
        return;
    }
    printf("  %-44s %9.0f %13.2f%%\n", "SDL_mixer (Mix_PlayChannel, disk driver)", per[C_SDLMIX],
           per[C_SDLMIX] / 1e5);
    q = bench_ratio(t + C_SDLMIX * rounds, t + C_FLAT * rounds, rounds);
    bench_row("SDL_mixer / st_mixer_render", q, "x");
    snprintf(ours, sizeof ours, "%.0f us/buffer (%.2f%%)", per[C_FLAT] / 1e3, per[C_FLAT] / 1e5);
    snprintf(alt, sizeof alt, "SDL_mixer %.0f us", per[C_SDLMIX] / 1e3);
    bench_summary("mixer_sdl", "mixer, 32 voices at pitch 1: SDL_mixer / ours", ours, alt, q);
}

int main(int argc, char **argv) {
    bool cg = argc > 1 && strcmp(argv[1], "--callgrind") == 0;
    int rounds = argc > 1 && !cg ? atoi(argv[1]) : 31;
    if (rounds < 1 || rounds > 1000) rounds = 31;
    Arena *perm = st_arena_create((ArenaParams){.name = "bench-perm"});
    if (!perm) return 1;
    Sound snd[4];
    sounds_make(perm, snd);
    static Bench b;
    b.mx = st_mixer_create(perm, 48000), b.mx16 = st_mixer_create(perm, 48000);
    b.limited = st_mixer_create(perm, 48000), b.flat = st_mixer_create(perm, 48000);
    /* Off but in one row: the naive mix and SDL_mixer have none (they clip). */
    st_mixer_set_limiter(b.mx, false), st_mixer_set_limiter(b.mx16, false), st_mixer_set_limiter(b.flat, false);
    MixerPlay plays[VOICES];
    for (int k = 0; k < VOICES; k++) {
        MixerPlay p = {.sound = &snd[k % 4],
                       .volume = 0.5f + 0.5f * (float)(k % 5) / 4,
                       .pan = -1 + 2 * (float)k / (VOICES - 1),
                       .pitch = 0.5f + 1.5f * (float)((k * 7) % VOICES) / (VOICES - 1),
                       .loop = true,
                       .bus = k % 2 ? AUDIO_BUS_MUSIC : AUDIO_BUS_EFFECTS};
        st_mixer_play(b.mx, &p);
        st_mixer_play(b.mx16, &p);
        st_mixer_play(b.limited, &p);
        plays[k] = p, plays[k].pitch = 1;
        st_mixer_play(b.flat, &plays[k]);
        b.naive[k] = (Naive){snd[k % 4].samples, SOUND_FRAMES, 0, p.pitch, p.volume * sqrtf((1 - p.pan) / 2),
                             p.volume * sqrtf((1 + p.pan) / 2)};
    }
    /* The first buffer of each, compared: the same mix (the mixer's position is exact,
       the naive float one drifts a little, so only the start is compared). */
    st_mixer_render(b.mx, out, FRAMES);
    naive_render(b.naive, VOICES, ref, FRAMES, 48000);
    float diff = 0;
    for (int i = 0; i < 2 * FRAMES; i++) diff = fmaxf(diff, fabsf(out[i] - ref[i]));
    if (st_mixer_stats(b.mx).voices_active != VOICES) {
        fprintf(stderr, "bench_mixer: %u voices playing, not %d\n", st_mixer_stats(b.mx).voices_active, VOICES);
        return 1;
    }
#ifdef HAVE_SDL_MIXER
    b.sdl_mixer = sdl_mixer_open(snd, plays, perm);
#endif
    if (cg) {
        callgrind_mode(&b);
    } else {
        uint64_t *t = calloc((size_t)rounds * C_COUNT, 8);
        if (!t) return 1;
        b.buffers = BUFFERS;
        run(&b, C_MIXER), run(&b, C_FLAT);
        bench_rounds(b.sdl_mixer ? C_COUNT : C_COUNT - 1, rounds, run, &b, bench_process_cpu_ns, t);
        report(&b, rounds, t);
        printf("largest difference between the mixer and the naive mix in the first buffer: %.2g of full "
               "scale (the naive float position drifts)\n",
               diff);
        free(t);
    }
#ifdef HAVE_SDL_MIXER
    if (b.sdl_mixer) sdl_mixer_close();
#endif
    st_arena_release(perm);
    return 0;
}
