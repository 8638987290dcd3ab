/* test_limiter: the master bus's true-peak limiter (limiter.h) and its meter.
   - the meter: a DC level reads its own dBTP; a sine at a quarter of the rate, sampled at
     45 degrees, reads 3 dB over its samples (the peak between them);
   - the ceiling: signals far over full scale (sines up to the top of the band, square
     waves, noise, clicks, bursts after silence) come out at or under -1 dBTP, through the
     limiter alone and through a Mixer summing loud voices;
   - below the ceiling it is a delay and nothing else: the same bits LIMITER_LATENCY
     frames later;
   - its gain glides: from one frame to the next it moves by at most 1/LIMITER_ATTACK, so
     a loud onset does not click, and it comes back up after the peak;
   - the same input gives the same bits, in blocks of any size. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <strata/audio/limiter.h>
#include <strata/audio/mixer.h>
#include "check.h"

#define N 48000
static float in[2 * N], out[2 * N], again[2 * N];

static float meter(const float *x, uint32_t frames) {
    TruePeak tp;
    st_true_peak_init(&tp);
    st_true_peak_feed(&tp, x, frames);
    return st_true_peak_dbtp(&tp);
}

/* Through a fresh limiter in blocks of `block` frames. */
static void limit(const float *x, float *y, uint32_t frames, uint32_t block) {
    static Limiter l;
    st_limiter_init(&l, 48000);
    memcpy(y, x, sizeof(float) * 2 * frames);
    for (uint32_t at = 0; at < frames; at += block)
        st_limiter_process(&l, y + 2 * at, frames - at < block ? frames - at : block);
}

static void test_meter(void) {
    /* A DC level, read once the filter has its history (the step from silence to it does
       overshoot between samples, by 1 dB). */
    for (uint32_t i = 0; i < N; i++) in[2 * i] = in[2 * i + 1] = 0.5f;
    TruePeak tp;
    st_true_peak_init(&tp);
    st_true_peak_feed(&tp, in, TRUE_PEAK_TAPS);
    CHECK(st_true_peak_dbtp(&tp) > -6.0f);
    tp.peak = 0;
    st_true_peak_feed(&tp, in + 2 * TRUE_PEAK_TAPS, N - TRUE_PEAK_TAPS);
    float dc = st_true_peak_dbtp(&tp);
    printf("meter: DC 0.5 reads %.3f dBTP\n", (double)dc);
    CHECK(fabsf(dc - -6.0206f) < 0.05f);
    /* +a, +a, -a, -a: a sine at rate / 4 sampled at 45 degrees, its peak 3 dB over them. */
    for (uint32_t i = 0; i < N; i++)
        in[2 * i] = in[2 * i + 1] = (i / 2) % 2 ? -0.70710678f : 0.70710678f;
    float quarter = meter(in, N);
    printf("meter: samples at -3.01 dBFS of a sine at rate/4 read %.3f dBTP\n", (double)quarter);
    CHECK(quarter > -0.3f && quarter < 0.3f);
    memset(in, 0, sizeof in);
    CHECK(meter(in, N) == -INFINITY);
}

static uint32_t rnd_state = 1;
static float rnd(void) {
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (float)(rnd_state >> 8) / 8388608.0f - 1;
}

static void fill(int kind, float amp, float freq) {
    for (uint32_t i = 0; i < N; i++) {
        float t = (float)i / 48000, v;
        switch (kind) {
        case 0: v = sinf(6.2831853f * freq * t + 0.785398f); break;
        case 1: v = (int)(2 * freq * t) % 2 ? 1.0f : -1.0f; break;
        case 2: v = rnd(); break;
        case 3: v = i % 4801 == 0 ? 1.0f : i % 4801 == 1 ? -1.0f : 0; break;
        default: v = (i / 2400) % 2 ? sinf(6.2831853f * freq * t) : 0; break;
        }
        in[2 * i] = amp * v;
        in[2 * i + 1] = amp * (kind == 2 ? rnd() : v);
    }
}

static void test_ceiling(void) {
    static const char *names[] = {"sine", "square", "noise", "clicks", "bursts"};
    static const float freqs[] = {50, 1000, 6000, 12000, 19000, 23000};
    float worst = -100;
    for (int kind = 0; kind < 5; kind++)
        for (int f = 0; f < 6; f++)
            for (float amp = 0.9f; amp < 8; amp *= 2.2f) {
                fill(kind, amp, freqs[f]);
                limit(in, out, N / 4, 800); /* a quarter of a second each */
                float tp = meter(out, N / 4);
                if (tp > worst) worst = tp;
                if (tp > LIMITER_CEILING_DBTP) {
                    fprintf(stderr, "%s at %.0f Hz x%.2f: %.3f dBTP out (%.2f in)\n", names[kind],
                            (double)freqs[f], (double)amp, (double)tp, (double)meter(in, N));
                    check_failures_++;
                }
            }
    printf("ceiling: the loudest of 150 signals, up to +18 dBTP in, came out at %.3f dBTP\n",
           (double)worst);
}

/* Eight loud voices of a square wave at once: about +12 dB over full scale, summed. */
static void test_mixer(void) {
    static int16_t square[4800];
    for (int i = 0; i < 4800; i++) square[i] = (int16_t)((i / 24) % 2 ? 30000 : -30000);
    Sound s = {square, 4800};
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Mixer *m = st_mixer_create(perm, 48000);
    for (int v = 0; v < 8; v++) st_mixer_play(m, &(MixerPlay){.sound = &s, .volume = 1, .loop = true});
    st_mixer_render(m, out, N);
    float tp = meter(out, N);
    printf("mixer: 8 full-scale square waves come out at %.3f dBTP\n", (double)tp);
    CHECK(tp <= LIMITER_CEILING_DBTP && tp > LIMITER_CEILING_DBTP - 1);
    st_arena_release(perm);
}

static void test_transparent(void) {
    fill(0, 0.5f, 1000); /* -6 dBFS: nothing to do */
    limit(in, out, N, 512);
    for (uint32_t i = 0; i < 2 * LIMITER_LATENCY; i++) CHECK(out[i] == 0);
    uint32_t same = 0;
    for (uint32_t i = 0; i + LIMITER_LATENCY < N; i++)
        same += out[2 * (i + LIMITER_LATENCY)] == in[2 * i] &&
                out[2 * (i + LIMITER_LATENCY) + 1] == in[2 * i + 1];
    printf("transparent: %u of %u frames the same bits, %d frames late\n", same,
           N - LIMITER_LATENCY, LIMITER_LATENCY);
    CHECK_EQ_U(same, N - LIMITER_LATENCY);
}

static void test_glide(void) {
    /* Silence, then a full-scale 1 kHz sine at +9.5 dB: the gain falls before the onset
       reaches the output and never jumps. */
    for (uint32_t i = 0; i < N; i++) {
        float v = i < N / 4 || i > N / 2 ? 0 : 3.0f * sinf(6.2831853f * 1000 * (float)i / 48000);
        in[2 * i] = in[2 * i + 1] = v;
    }
    limit(in, out, N, 800);
    float prev = 1, worst_step = 0, lowest = 1;
    for (uint32_t i = 0; i + LIMITER_LATENCY < N; i++) {
        float x = in[2 * i], y = out[2 * (i + LIMITER_LATENCY)];
        if (fabsf(x) < 0.05f) continue; /* too small to read the gain from */
        float g = y / x, step = fabsf(g - prev);
        if (prev != 1 || i > (uint32_t)N / 4 + 1)
            worst_step = step > worst_step ? step : worst_step;
        prev = g;
        lowest = g < lowest ? g : lowest;
    }
    printf("glide: gain down to %.3f, at most %.5f a frame (1/%d = %.5f)\n", (double)lowest,
           (double)worst_step, LIMITER_ATTACK, 1.0 / LIMITER_ATTACK);
    CHECK(lowest < 0.35f && lowest > 0.25f);
    CHECK(worst_step <= 1.0f / LIMITER_ATTACK + 1e-4f);
    CHECK(meter(out, N) <= LIMITER_CEILING_DBTP);
    /* 0.4 s after the sine stops, a quiet one passes at full gain again. */
    for (uint32_t i = 0; i < N; i++) {
        float loud = i < N / 4 ? 2.0f : i > N * 3 / 4 ? 0.25f : 0;
        in[2 * i] = in[2 * i + 1] = loud * sinf(0.13f * (float)i);
    }
    limit(in, out, N, 800);
    uint32_t i = N - 100;
    CHECK(fabsf(out[2 * (i + LIMITER_LATENCY)] - in[2 * i]) <= 1e-3f * fabsf(in[2 * i]) + 1e-6f);
}

static void test_determinism(void) {
    fill(2, 3.0f, 0);
    limit(in, out, N, 800);
    limit(in, again, N, 1);
    CHECK(memcmp(out, again, sizeof out) == 0);
    limit(in, again, N, 4097);
    CHECK(memcmp(out, again, sizeof out) == 0);
}

int main(void) {
    test_meter();
    test_ceiling();
    test_mixer();
    test_transparent();
    test_glide();
    test_determinism();
    return check_result();
}
