/* bench_mixer: what one 10 ms audio buffer costs, 480 frames at 48 kHz with all 32 voices
   playing (looping, every one at its own pitch between 0.5 and 2, its own pan and volume).

     mixer   st_mixer_render, the engine's: 32.32 fixed-point positions, interpolation runs
             without bounds checks, gains ramped per block;
     s16     st_mixer_render_s16: the same mix, rounded to 16 bits;
     naive   a reference written here the obvious way: a float position advanced by
             pitch * rate / output_rate, divided per sample, wrapped with fmodf, samples
             divided by 32768, no ramps (so it does less than the mixer, not more).
   Interleaved round by round, medians of ROUNDS rounds of BUFFERS buffers each; the ratio
   naive / mixer is the result (absolute times on a shared machine are noise). The largest
   difference between the two outputs is printed to show they compute the same mix. With
   perf events available, instructions per buffer too.

   Usage: bench_mixer [ROUNDS]   (default 31) */
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <strata/audio/mixer.h>
#include "bench.h"

enum { FRAMES = 480, BUFFERS = 200, VOICES = MIXER_VOICES, SOUND_FRAMES = 48000 };

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

static int perf_fd = -1;
static void perf_open(void) {
    struct perf_event_attr pe = {.type = PERF_TYPE_HARDWARE,
                                 .size = sizeof pe,
                                 .config = PERF_COUNT_HW_INSTRUCTIONS,
                                 .disabled = 1,
                                 .exclude_kernel = 1,
                                 .exclude_hv = 1};
    perf_fd = (int)syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
}
static uint64_t perf_read(void) {
    uint64_t v = 0;
    return perf_fd >= 0 && read(perf_fd, &v, sizeof v) == sizeof v ? v : 0;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 31;
    if (rounds < 1 || rounds > 1000) rounds = 31;
    Arena *perm = st_arena_create((ArenaParams){.name = "bench-perm"});
    if (!perm) return 1;
    /* Four sounds of a second: sines and a noise, so no voice is a trivial constant. */
    Sound snd[4];
    uint64_t r = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 4; k++) {
        int16_t *p = st_arena_push_array(perm, int16_t, SOUND_FRAMES);
        for (int i = 0; i < SOUND_FRAMES; i++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            p[i] = k == 3 ? (int16_t)(r >> 48) / 4
                          : (int16_t)(12000 * sinf((float)i * 0.01f * (float)(k + 1)));
        }
        snd[k] = (Sound){p, SOUND_FRAMES};
    }
    Mixer *mx = st_mixer_create(perm, 48000), *mx16 = st_mixer_create(perm, 48000);
    Naive naive[VOICES];
    for (int k = 0; k < VOICES; k++) {
        MixerPlay p = {.sound = &snd[k % 4],
                       .volume = 0.5f + 0.5f * (float)(k % 5) / 4,
                       .pan = -1 + 2 * (float)k / (VOICES - 1),
                       .pitch = 0.5f + 1.5f * (float)((k * 7) % VOICES) / (VOICES - 1),
                       .loop = true,
                       .bus = k % 2 ? AUDIO_BUS_MUSIC : AUDIO_BUS_EFFECTS};
        st_mixer_play(mx, &p);
        st_mixer_play(mx16, &p);
        naive[k] = (Naive){snd[k % 4].samples,
                           SOUND_FRAMES,
                           0,
                           p.pitch,
                           p.volume * sqrtf((1 - p.pan) / 2),
                           p.volume * sqrtf((1 + p.pan) / 2)};
    }
    static float out[2 * FRAMES], ref[2 * FRAMES];
    static int16_t out16[2 * FRAMES];
    /* The first buffer of each, compared: the same mix (the mixer's position is exact,
       the naive float one drifts a little, so only the start is compared). */
    st_mixer_render(mx, out, FRAMES);
    st_mixer_render_s16(mx16, out16, FRAMES);
    naive_render(naive, VOICES, ref, FRAMES, 48000);
    float diff = 0;
    for (int i = 0; i < 2 * FRAMES; i++) diff = fmaxf(diff, fabsf(out[i] - ref[i]));
    if (st_mixer_stats(mx).voices_active != VOICES) {
        fprintf(stderr, "bench_mixer: %u voices playing, not %d\n", st_mixer_stats(mx).voices_active,
                VOICES);
        return 1;
    }

    uint64_t *tm = calloc((size_t)rounds, 8), *t16 = calloc((size_t)rounds, 8),
             *tn = calloc((size_t)rounds, 8);
    if (!tm || !t16 || !tn) return 1;
    for (int rd = 0; rd < rounds; rd++) {
        uint64_t t0 = bench_thread_cpu_ns();
        for (int b = 0; b < BUFFERS; b++) st_mixer_render(mx, out, FRAMES);
        uint64_t t1 = bench_thread_cpu_ns();
        for (int b = 0; b < BUFFERS; b++) st_mixer_render_s16(mx16, out16, FRAMES);
        uint64_t t2 = bench_thread_cpu_ns();
        for (int b = 0; b < BUFFERS; b++) naive_render(naive, VOICES, ref, FRAMES, 48000);
        uint64_t t3 = bench_thread_cpu_ns();
        tm[rd] = t1 - t0, t16[rd] = t2 - t1, tn[rd] = t3 - t2;
    }
    double m = (double)bench_median_u64(tm, rounds) / BUFFERS,
           m16 = (double)bench_median_u64(t16, rounds) / BUFFERS;
    double n = (double)bench_median_u64(tn, rounds) / BUFFERS;

    perf_open();
    uint64_t ins_m = 0, ins_n = 0;
    if (perf_fd >= 0) {
        ioctl(perf_fd, PERF_EVENT_IOC_RESET, 0), ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0);
        uint64_t a = perf_read();
        for (int b = 0; b < BUFFERS; b++) st_mixer_render(mx, out, FRAMES);
        uint64_t c = perf_read();
        for (int b = 0; b < BUFFERS; b++) naive_render(naive, VOICES, ref, FRAMES, 48000);
        ins_m = (c - a) / BUFFERS, ins_n = (perf_read() - c) / BUFFERS;
    }

    printf("One 10 ms buffer (%d frames at 48 kHz), %d looping voices at mixed pitches and pans;\n"
           "median of %d rounds of %d buffers, thread CPU time\n",
           FRAMES, VOICES, rounds, BUFFERS);
    printf("%-26s %12s %12s %14s\n", "mixer", "ns/buffer", "vs naive", "of the 10 ms");
    printf("%-26s %12.0f %11.2fx %13.2f%%\n", "st_mixer_render (float)", m, n / m, m / 1e5);
    printf("%-26s %12.0f %11.2fx %13.2f%%\n", "st_mixer_render_s16", m16, n / m16, m16 / 1e5);
    printf("%-26s %12.0f %11.2fx %13.2f%%\n", "naive reference", n, 1.0, n / 1e5);
    if (perf_fd >= 0)
        printf("instructions per buffer: mixer %llu (%.1f per voice-frame), naive %llu\n",
               (unsigned long long)ins_m, (double)ins_m / (FRAMES * VOICES),
               (unsigned long long)ins_n);
    else printf("instructions per buffer: n/a (perf events not available here)\n");
    printf("largest difference between the two mixes in the first buffer: %.2g of full scale "
           "(the naive float position drifts)\n",
           diff);
    free(tm), free(t16), free(tn);
    st_arena_release(perm);
    return 0;
}
