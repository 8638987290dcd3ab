/* synth.c - see synth.h. Every value is computed from the frame index and the patch alone
   (no libm, no state outside the call), so a patch renders to the same bits everywhere. */
#include <strata/audio/synth.h>

/* a * b + c must stay two roundings: fused into one FMA (clang does so by default wherever
   the target has FMA, e.g. ARM64 or -march=native) it gives other bits. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <stdbool.h>
#include <string.h>

#define SYNTH_MAX_FRAMES (1u << 31)

static uint32_t frames_of_(float seconds, uint32_t rate) {
    double f = (double)seconds * rate + 0.5;
    if (!(f >= 1.0)) return 0; /* negative and NaN too */
    return f >= SYNTH_MAX_FRAMES ? SYNTH_MAX_FRAMES : (uint32_t)f;
}

uint32_t st_synth_patch_frames(const SynthPatch *p, uint32_t rate) {
    uint64_t n = (uint64_t)frames_of_(p->duration, rate) + frames_of_(p->release, rate);
    return n >= SYNTH_MAX_FRAMES ? SYNTH_MAX_FRAMES : (uint32_t)n;
}

/* ---- Deterministic maths ------------------------------------------------------------- */

float st_synth_sin2pi(float turns) {
    if (!(turns > -1e9f && turns < 1e9f)) return 0;
    int64_t k = (int64_t)turns;
    if (turns < (float)k) k--;
    float x = turns - (float)k;
    /* Folded onto t in [-1, 1], where sin(2 pi x) = sin(pi/2 t): the odd Taylor series of
       sin(pi/2 t) to t^9 is within 4e-6 there. */
    float t = x < 0.25f ? 4 * x : x < 0.75f ? 2 - 4 * x : 4 * x - 4;
    float t2 = t * t;
    return t *
           (1.5707963268f + t2 * (-0.6459640975f + t2 * (0.0796926262f + t2 * (-0.0046817541f + t2 * 0.0001604411f))));
}

static float pow2i_(int n) { /* 2^n for n in [-126, 127], exactly, from the bits */
    uint32_t bits = (uint32_t)(n + 127) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

float st_synth_exp2(float x) {
    if (!(x > -126)) return x != x ? 1 : pow2i_(-126);
    if (x > 126) return pow2i_(126);
    int n = (int)(x + (x >= 0 ? 0.5f : -0.5f));
    float f = x - (float)n; /* in [-0.5, 0.5]: the Taylor series of 2^f to f^6 is exact to 1e-7 */
    float p =
        1 +
        f * (0.6931471806f +
             f * (0.2402265070f + f * (0.0555041087f + f * (0.0096181291f + f * (0.0013333558f + f * 0.0001540353f)))));
    return p * pow2i_(n);
}

float st_synth_log2(float x) {
    if (!(x > 0) || x > 3.4e38f) return x > 0 ? 128 : -126;
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)((bits >> 23) & 255) - 127;
    if (e == -127) return -126; /* subnormal: below anything a patch uses */
    bits = (bits & 0x7fffffu) | (127u << 23);
    float m;
    memcpy(&m, &bits, sizeof m);
    if (m > 1.41421356f) m *= 0.5f, e++;
    /* ln m = 2 atanh(y), y = (m-1)/(m+1), |y| <= 0.172: the series to y^9 is exact to 1e-8. */
    float y = (m - 1) / (m + 1), y2 = y * y;
    float ln = 2 * y * (1 + y2 * (1.0f / 3 + y2 * (1.0f / 5 + y2 * (1.0f / 7 + y2 * (1.0f / 9)))));
    return (float)e + ln * 1.4426950409f;
}

float st_synth_note_hz(int note) { return 440.0f * st_synth_exp2((float)(note - 69) / 12.0f); }

float st_synth_noise(uint32_t *state) {
    uint32_t x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (float)(int32_t)x * (1.0f / 2147483648.0f);
}

/* ---- Envelope ------------------------------------------------------------------------ */

typedef struct Env {
    uint32_t attack, decay, gate, release;
    float sustain, at_gate;                   /* at_gate: the level the release starts from */
    float per_attack, per_decay, per_release; /* 1 / frames: a multiply per sample, not a divide */
} Env;

static float env_gated_(const Env *e, uint32_t i) {
    if (i < e->attack) return (float)i * e->per_attack;
    i -= e->attack;
    if (i < e->decay) return 1 - (1 - e->sustain) * ((float)i * e->per_decay);
    return e->sustain;
}

static Env env_make_(const SynthPatch *p, uint32_t rate) {
    Env e = {.attack = frames_of_(p->attack, rate),
             .decay = frames_of_(p->decay, rate),
             .gate = frames_of_(p->duration, rate),
             .release = frames_of_(p->release, rate),
             .sustain = p->sustain};
    if (!(e.sustain >= 0)) e.sustain = 0;
    if (e.sustain > 1) e.sustain = 1;
    e.per_attack = e.attack ? 1.0f / (float)e.attack : 0;
    e.per_decay = e.decay ? 1.0f / (float)e.decay : 0;
    e.per_release = e.release ? 1.0f / (float)e.release : 0;
    e.at_gate = env_gated_(&e, e.gate);
    return e;
}

static float env_at_(const Env *e, uint32_t i) {
    if (i < e->gate) return env_gated_(e, i);
    i -= e->gate;
    if (i >= e->release) return 0;
    return e->at_gate * (1 - (float)i * e->per_release);
}

float st_synth_envelope(const SynthPatch *p, uint32_t frame, uint32_t rate) {
    Env e = env_make_(p, rate);
    return env_at_(&e, frame);
}

/* ---- Rendering ----------------------------------------------------------------------- */

/* PolyBLEP: the step of a naive square or saw edge, replaced within one sample of it by a
   polynomial, which removes most of the aliasing that makes high notes sound harsh. */
static float blep_(float t, float dt) {
    if (t < dt) {
        t /= dt;
        return t + t - t * t - 1;
    }
    if (t > 1 - dt) {
        t = (t - 1) / dt;
        return t * t + t + t + 1;
    }
    return 0;
}

static float clampf_(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

void st_synth_render(const SynthPatch *p, float *out, uint32_t frames, uint32_t rate, uint32_t seed) {
    uint32_t total = st_synth_patch_frames(p, rate);
    if (frames > total) frames = total;
    if (!rate || !frames || p->wave >= SYNTH_WAVE_COUNT) return;

    Env env = env_make_(p, rate);
    float inv_rate = 1.0f / (float)rate;
    float volume = p->volume > 0 ? p->volume : 1;
    float f0 = p->freq_start > 0 ? p->freq_start : 0, f1 = p->freq_end > 0 ? p->freq_end : f0;
    uint32_t sweep_frames = p->sweep_time > 0 ? frames_of_(p->sweep_time, rate) : total;
    if (f1 == f0) sweep_frames = 0;
    float per_sweep = sweep_frames ? 1.0f / (float)sweep_frames : 0;
    float octaves = p->sweep == SYNTH_SWEEP_EXP && f0 > 0 ? st_synth_log2(f1 / f0) : 0;
    /* A pulse of width d averages 2d - 1: subtracted, so an envelope on a narrow pulse does
       not thump; then scaled so its larger side peaks at 1. */
    float duty = p->duty > 0 ? clampf_(p->duty, 0.01f, 0.99f) : 0.5f;
    float dc = 2 * duty - 1, norm = 1 / (2 * (duty > 0.5f ? duty : 1 - duty));
    float noise_mix = clampf_(p->noise_mix, 0, 1);
    uint32_t vib_delay = frames_of_(p->vibrato_delay, rate);
    float vib_step = p->vibrato_rate * inv_rate, vib_octaves = p->vibrato_depth / 12.0f;
    bool vibrato = vib_step > 0 && vib_octaves != 0;
    /* One-pole low-pass y += a (x - y), a = 1 - e^(-2 pi fc / rate). */
    bool filter = p->lowpass > 0;
    float lp = filter ? 1 - st_synth_exp2(-6.2831853f * p->lowpass * inv_rate * 1.4426950409f) : 1;

    uint32_t hold_state = seed * 2654435761u ^ 0x6a09e667u, white_state = seed ^ 0xbb67ae85u;
    float phase = 0, vib_phase = 0, held = st_synth_noise(&hold_state), y = 0;
    for (uint32_t i = 0; i < frames; i++) {
        float f = f1;
        if (i < sweep_frames) {
            float t = (float)i * per_sweep;
            f = p->sweep == SYNTH_SWEEP_EXP ? f0 * st_synth_exp2(octaves * t) : f0 + (f1 - f0) * t;
        }
        if (vibrato && i >= vib_delay) {
            f *= st_synth_exp2(vib_octaves * st_synth_sin2pi(vib_phase));
            vib_phase += vib_step;
            if (vib_phase >= 1) vib_phase -= 1;
        }
        float dt = f * inv_rate, v;
        switch (p->wave) {
        case SYNTH_SQUARE: {
            dt = clampf_(dt, 0, 0.5f);
            float t2 = phase - duty;
            if (t2 < 0) t2 += 1;
            v = (phase < duty ? 1.0f : -1.0f) + blep_(phase, dt) - blep_(t2, dt);
            v = (v - dc) * norm;
            break;
        }
        case SYNTH_TRIANGLE: /* starts at 0 rising, like the sine */
            dt = clampf_(dt, 0, 0.5f);
            v = phase < 0.25f ? 4 * phase : phase < 0.75f ? 2 - 4 * phase : 4 * phase - 4;
            break;
        case SYNTH_SAW:
            dt = clampf_(dt, 0, 0.5f);
            v = 2 * phase - 1 - blep_(phase, dt);
            break;
        case SYNTH_SINE:
            dt = clampf_(dt, 0, 0.5f);
            v = st_synth_sin2pi(phase);
            break;
        default: /* SYNTH_NOISE */
            dt = clampf_(dt, 0, 1);
            v = held;
            break;
        }
        phase += dt;
        if (phase >= 1) {
            phase -= 1;
            if (p->wave == SYNTH_NOISE) held = st_synth_noise(&hold_state);
        }
        if (noise_mix > 0) v += noise_mix * (st_synth_noise(&white_state) - v);
        if (filter) v = y += lp * (v - y);
        out[i] += v * env_at_(&env, i) * volume;
    }
}

uint64_t st_synth_to_i16(const float *in, int16_t *out, uint64_t n) {
    uint64_t clipped = 0;
    for (uint64_t i = 0; i < n; i++) {
        float v = in[i] * 32767.0f;
        if (v != v) v = 0;
        if (v > 32767.0f) {
            out[i] = 32767;
            clipped++;
        } else if (v < -32768.0f) {
            out[i] = -32768;
            clipped++;
        } else {
            out[i] = (int16_t)(int32_t)(v + (v >= 0 ? 0.5f : -0.5f));
        }
    }
    return clipped;
}
