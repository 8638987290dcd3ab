/* limiter.c - look ahead, find the gain each oversampled peak needs, glide to it.

   For each frame n taken in, the detector runs the 4x interpolation over the last
   TRUE_PEAK_TAPS frames and gives need[n]: the gain that keeps those four oversampled values
   under the target. Frame t is one of the TRUE_PEAK_TAPS frames of the steps t .. t + 11, so
   its gain must be at most the least need among them. The gain applied to frame t is the
   mean of hold[] over the LIMITER_ATTACK frames up to t, where hold[u] is the least need
   in [u, u + LIMITER_LATENCY] (or the release from hold[u - 1], if lower): each of those
   windows holds [t, t + 11], so the mean is never above what frame t needs, and it
   moves from frame to frame by at most 1/LIMITER_ATTACK of a step, a ramp rather than a
   jump. The newest need the window reads is frame t + LIMITER_LATENCY's: the delay. */
#include <strata/audio/limiter.h>

#include <math.h>
#include <string.h>

_Static_assert((LIMITER_RING & (LIMITER_RING - 1)) == 0 && LIMITER_RING > LIMITER_LATENCY &&
                   LIMITER_RING >= LIMITER_ATTACK,
               "LIMITER_RING: a power of two that holds the delay and the attack");

/* 10^(-1/20): the ceiling, linear. The target sits 0.1 dB under it: the gain changes
   across the filter's span, which moves the oversampled peaks by a little. */
#define LIMITER_CEILING 0.891250938f
#define LIMITER_TARGET (LIMITER_CEILING * 0.98855309f)
#define LIMITER_RELEASE_SECONDS 0.05f

void st_limiter_init(Limiter *l, uint32_t rate) {
    memset(l, 0, sizeof *l);
    for (int i = 0; i < LIMITER_RING; i++) l->need[i] = l->hold[i] = 1;
    l->held = 1;
    l->release = 1.0f / (LIMITER_RELEASE_SECONDS * (float)(rate ? rate : 48000));
    l->need_low = l->hold_low = INT64_MIN / 2; /* long ago, as far as the windows see */
}

void st_limiter_process(Limiter *l, float *stereo, uint32_t frames) {
    enum { MASK = LIMITER_RING - 1, WINDOW = LIMITER_LATENCY + 1 };
    for (uint32_t i = 0; i < frames; i++) {
        /* t: the frame that leaves now. Before the first one (t < 0) the pipeline runs on
           the silence that came before, so that the attack's mean has a whole window of
           hold[] by frame 0 (its delay slots are still the zeros of st_limiter_init). */
        int64_t n = l->frames++, t = n - LIMITER_LATENCY;
        float in_l = stereo[2 * i], in_r = stereo[2 * i + 1];
        float peak = st_true_peak_step(&l->detect, in_l, in_r);
        l->need[n & MASK] = peak > LIMITER_TARGET ? LIMITER_TARGET / peak : 1;
        if (peak > LIMITER_TARGET) l->need_low = n;
        l->delay[n & MASK][0] = in_l, l->delay[n & MASK][1] = in_r;
        /* The windows only read 1s when nothing was limited lately: the same result, fast. */
        float least = 1;
        if (n - l->need_low < WINDOW)
            for (int64_t k = 0; k < WINDOW; k++) {
                float v = l->need[(t + k) & MASK];
                if (v < least) least = v;
            }
        float up = l->held + (1 - l->held) * l->release;
        l->held = least < up ? least : up;
        l->hold[t & MASK] = l->held;
        if (l->held < 1) l->hold_low = t;
        float gain = 1;
        if (t - l->hold_low < LIMITER_ATTACK) {
            float sum = 0;
            for (int64_t k = 0; k < LIMITER_ATTACK; k++) sum += l->hold[(t - k) & MASK];
            gain = sum / LIMITER_ATTACK;
        }
        stereo[2 * i] = l->delay[t & MASK][0] * gain;
        stereo[2 * i + 1] = l->delay[t & MASK][1] * gain;
    }
}
