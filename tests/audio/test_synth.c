/* synth: envelope levels at exact frames, sweeps ending on their frequency (counted in zero
   crossings), seeded noise, int16 clipping, the hand-written maths against libm, and the
   committed effects in ASSETS/sounds: exactly the game's names, each a short, unclipped,
   DC-free 16-bit mono WAV at AUDIO_RATE. usage: test_synth ASSETS_DIR */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include <strata/audio/sound.h>
#include <strata/audio/synth.h>
#include <strata/core/arena.h>
#include <strata/core/hash.h>
#include <strata/core/os_file.h>

#define RATE AUDIO_RATE

static float buf[RATE * 2];

static bool near_(float a, float b, float tol) { return fabsf(a - b) <= tol; }

static void test_envelope(void) {
    SynthPatch p = {.wave = SYNTH_SINE,
                    .freq_start = 1000,
                    .attack = 0.01f,
                    .decay = 0.02f,
                    .sustain = 0.5f,
                    .duration = 0.1f,
                    .release = 0.05f};
    CHECK_EQ_U(st_synth_patch_frames(&p, RATE), 4800 + 2400);
    CHECK(st_synth_envelope(&p, 0, RATE) == 0);
    CHECK(near_(st_synth_envelope(&p, 240, RATE), 0.5f, 1e-6f));  /* half way up the attack */
    CHECK(st_synth_envelope(&p, 480, RATE) == 1);                 /* the top, exactly at 10 ms */
    CHECK(near_(st_synth_envelope(&p, 960, RATE), 0.75f, 1e-6f)); /* half way down the decay */
    CHECK(st_synth_envelope(&p, 1440, RATE) == 0.5f);             /* sustain from 30 ms */
    CHECK(st_synth_envelope(&p, 4799, RATE) == 0.5f);
    CHECK(st_synth_envelope(&p, 4800, RATE) == 0.5f); /* the release starts there */
    CHECK(near_(st_synth_envelope(&p, 6000, RATE), 0.25f, 1e-6f));
    CHECK(st_synth_envelope(&p, 7200, RATE) == 0);
    CHECK(st_synth_envelope(&p, 100000, RATE) == 0);

    /* Released during the attack: the release starts from where the attack had got to. */
    SynthPatch q = p;
    q.duration = 0.005f;
    CHECK(near_(st_synth_envelope(&q, 240, RATE), 0.5f, 1e-6f));
    CHECK(near_(st_synth_envelope(&q, 240 + 1200, RATE), 0.25f, 1e-6f));

    /* The rendered sine follows it: its peak over one period (48 frames at 1 kHz) is the
       level times the volume, and nothing is added past the patch's end. */
    p.volume = 0.8f;
    memset(buf, 0, sizeof buf);
    st_synth_render(&p, buf, RATE, RATE, 1);
    float peak_sustain = 0, peak_attack = 0, after = 0;
    for (int i = 2000; i < 2048; i++) peak_sustain = fmaxf(peak_sustain, fabsf(buf[i]));
    for (int i = 216; i < 264; i++) peak_attack = fmaxf(peak_attack, fabsf(buf[i]));
    for (int i = 7200; i < RATE; i++) after = fmaxf(after, fabsf(buf[i]));
    CHECK(near_(peak_sustain, 0.4f, 2e-3f));
    CHECK(near_(peak_attack, 0.4f, 0.03f));
    CHECK(after == 0);
    CHECK(fabsf(buf[7199]) < 0.001f); /* the release ends at silence */
}

static uint32_t crossings_(const float *x, uint32_t from, uint32_t to) {
    uint32_t n = 0;
    for (uint32_t i = from + 1; i < to; i++) n += (x[i - 1] < 0) != (x[i] < 0);
    return n;
}

static void test_sweeps(void) {
    /* Exponential 200 -> 800 Hz over 0.5 s, then held: the last quarter second crosses
       zero twice per period, 2 * 800 * 0.25 = 400 times. */
    SynthPatch p = {.wave = SYNTH_SINE,
                    .freq_start = 200,
                    .freq_end = 800,
                    .sweep = SYNTH_SWEEP_EXP,
                    .sweep_time = 0.5f,
                    .duration = 1,
                    .attack = 0.001f,
                    .sustain = 1};
    memset(buf, 0, sizeof buf);
    st_synth_render(&p, buf, RATE, RATE, 1);
    uint32_t end = crossings_(buf, RATE * 3 / 4, RATE);
    CHECK(end >= 399 && end <= 401);
    /* Half way through an exponential sweep is the geometric mean, 400 Hz: 16 crossings in
       20 ms (the linear one would be at 500 Hz, 20). */
    uint32_t mid = crossings_(buf, RATE / 4 - 480, RATE / 4 + 480);
    CHECK(mid >= 15 && mid <= 17);

    p.sweep = SYNTH_SWEEP_LINEAR;
    memset(buf, 0, sizeof buf);
    st_synth_render(&p, buf, RATE, RATE, 1);
    CHECK(crossings_(buf, RATE * 3 / 4, RATE) >= 399 && crossings_(buf, RATE * 3 / 4, RATE) <= 401);
    mid = crossings_(buf, RATE / 4 - 480, RATE / 4 + 480);
    CHECK(mid >= 19 && mid <= 21);

    /* A square and a saw land on the same frequency; a pulse of any width has no DC. */
    SynthWave waves[] = {SYNTH_SQUARE, SYNTH_SAW, SYNTH_TRIANGLE};
    for (int w = 0; w < 3; w++) {
        SynthPatch s = {.wave = waves[w],
                        .freq_start = 1000,
                        .freq_end = 300,
                        .sweep_time = 0.2f,
                        .duration = 1,
                        .attack = 0.001f,
                        .sustain = 1,
                        .duty = 0.2f};
        memset(buf, 0, sizeof buf);
        st_synth_render(&s, buf, RATE, RATE, 1);
        uint32_t n = crossings_(buf, RATE / 2, RATE);
        CHECK(n >= 298 && n <= 302); /* 2 * 300 * 0.5 */
        double sum = 0;
        for (int i = RATE / 2; i < RATE; i++) sum += buf[i];
        CHECK(fabs(sum / (RATE / 2)) < 0.005);
    }
}

static uint64_t hash_(const float *x, uint32_t n) {
    return st_hash_fnv1a(HASH_FNV1A_INIT, x, n * sizeof *x);
}

static void test_noise(void) {
    SynthPatch p = {
        .wave = SYNTH_NOISE, .freq_start = RATE, .duration = 0.1f, .sustain = 1, .noise_mix = 0};
    uint32_t n = st_synth_patch_frames(&p, RATE);
    memset(buf, 0, sizeof buf);
    st_synth_render(&p, buf, n, RATE, 7);
    uint64_t a = hash_(buf, n);
    memset(buf, 0, sizeof buf);
    st_synth_render(&p, buf, n, RATE, 7);
    CHECK(hash_(buf, n) == a);
    double sum = 0;
    float lo = 0, hi = 0;
    for (uint32_t i = 0; i < n; i++) sum += buf[i], lo = fminf(lo, buf[i]), hi = fmaxf(hi, buf[i]);
    CHECK(fabs(sum / n) < 0.02);
    CHECK(lo >= -1 && lo < -0.95f && hi <= 1 && hi > 0.95f);
    memset(buf, 0, sizeof buf);
    st_synth_render(&p, buf, n, RATE, 8);
    CHECK(hash_(buf, n) != a);

    /* Mixed noise is seeded too, and a pitched noise holds each value for its period. */
    SynthPatch m = {
        .wave = SYNTH_SQUARE, .freq_start = 440, .duration = 0.1f, .sustain = 1, .noise_mix = 0.5f};
    memset(buf, 0, sizeof buf);
    st_synth_render(&m, buf, n, RATE, 1);
    uint64_t b = hash_(buf, n);
    memset(buf, 0, sizeof buf);
    st_synth_render(&m, buf, n, RATE, 2);
    CHECK(hash_(buf, n) != b);
    SynthPatch slow = {
        .wave = SYNTH_NOISE, .freq_start = RATE / 10, .duration = 0.01f, .sustain = 1};
    memset(buf, 0, sizeof buf);
    st_synth_render(&slow, buf, 480, RATE, 3);
    uint32_t changes = 0;
    for (int i = 1; i < 480; i++) changes += buf[i] != buf[i - 1];
    if (changes < 46 || changes > 48) fprintf(stderr, "changes %u\n", changes);
    CHECK(changes >= 46 && changes <= 48);

    uint32_t s1 = 0, s2 = 0;
    CHECK(st_synth_noise(&s1) == st_synth_noise(&s2)); /* a zero state is replaced, not stuck */
    CHECK(s1 != 0);
}

static void test_i16(void) {
    float in[] = {0, 0.5f, 1, -1, 1.5f, -1.5f, 1e9f, -1e9f, NAN, 1.0000001f, -1.00003f, INFINITY};
    int16_t want[] = {0,     16384,  32767, -32767, 32767,  -32768,
                      32767, -32768, 0,     32767,  -32768, 32767};
    int16_t out[12];
    CHECK_EQ_U(st_synth_to_i16(in, out, 12), 6);
    for (int i = 0; i < 12; i++) CHECK_EQ_I(out[i], want[i]);
}

static void test_maths(void) {
    double worst = 0;
    for (int i = -4000; i <= 4000; i++) {
        float t = (float)i * 0.00123f;
        worst = fmax(worst, fabs(st_synth_sin2pi(t) - sin(2 * M_PI * (double)t)));
    }
    CHECK(worst < 4e-6);
    worst = 0;
    for (int i = -2000; i <= 2000; i++) {
        float x = (float)i * 0.01f;
        worst = fmax(worst, fabs(st_synth_exp2(x) / exp2((double)x) - 1));
    }
    CHECK(worst < 3e-7);
    worst = 0;
    for (int i = 1; i <= 4000; i++) {
        float x = (float)i * 0.37f;
        worst = fmax(worst, fabs(st_synth_log2(x) - log2((double)x)));
    }
    CHECK(worst < 1e-6);
    CHECK(st_synth_note_hz(69) == 440.0f && st_synth_note_hz(81) == 880.0f &&
          st_synth_note_hz(57) == 220.0f);
    CHECK(near_(st_synth_note_hz(60), 261.6256f, 1e-3f));
    CHECK(st_synth_log2(0) == -126 && st_synth_log2(-1) == -126 && st_synth_log2(NAN) == -126);
    CHECK(st_synth_exp2(1000) > 1e37f && st_synth_exp2(-1000) > 0 && st_synth_sin2pi(NAN) == 0);
}

/* The committed effects, by name: the game plays exactly these. */
static const char *const names[] = {"shot",      "hit",         "hurt",  "kill", "coin",
                                    "key",       "heart",       "door",  "exit", "death",
                                    "menu_move", "menu_select", "portal", "rewind"};

static uint32_t rd16_(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32_(const uint8_t *p) { return rd16_(p) | rd16_(p + 2) << 16; }

static void check_wav_(Arena *a, const char *dir, const char *name) {
    char path[1024];
    REQUIRE_VOID(snprintf(path, sizeof path, "%s/%s.wav", dir, name) < (int)sizeof path);
    Str8 f;
    bool read = st_os_read_file(a, path, 1 << 24, &f, NULL);
    if (!read) fprintf(stderr, "%s: cannot read\n", path);
    REQUIRE_VOID(read && f.len >= 44);
    const uint8_t *h = (const uint8_t *)f.data;
    CHECK(!memcmp(h, "RIFF", 4) && !memcmp(h + 8, "WAVEfmt ", 8) && !memcmp(h + 36, "data", 4));
    CHECK(rd16_(h + 20) == 1 && rd16_(h + 22) == 1 && rd32_(h + 24) == RATE && rd16_(h + 34) == 16);
    uint32_t frames = rd32_(h + 40) / 2;
    REQUIRE_VOID(44 + (uint64_t)frames * 2 == f.len && frames > 0);
    bool long_one = !strcmp(name, "death") || !strcmp(name, "exit") || !strcmp(name, "portal");
    CHECK(frames < (long_one ? RATE * 12 / 10 : RATE / 2));
    int32_t peak = 0;
    double sum = 0;
    for (uint32_t i = 0; i < frames; i++) {
        int32_t v = (int16_t)rd16_(h + 44 + 2 * i);
        peak = v < 0 ? (-v > peak ? -v : peak) : (v > peak ? v : peak);
        sum += v;
    }
    double peak_db = 20 * log10(peak / 32767.0);
    if (peak_db > -1 || peak_db < -10 || fabs(sum / frames / 32767) > 0.01)
        fprintf(stderr, "%s: peak %.2f dBFS, dc %.4f\n", path, peak_db, sum / frames / 32767);
    CHECK(peak_db <= -1 && peak_db >= -10);   /* loud enough, never clipping */
    CHECK(fabs(sum / frames / 32767) < 0.01); /* no DC offset to thump the speaker */
}

static void test_assets(const char *assets) {
    ARENA_SCOPE(scope, st_scratch_get(0));
    char dir[900];
    REQUIRE_VOID(snprintf(dir, sizeof dir, "%s/sounds", assets) < (int)sizeof dir);
    OsDirList l;
    REQUIRE_VOID(st_os_list_dir(scope.arena, dir, &l));
    uint32_t wavs = 0;
    for (uint64_t i = 0; i < l.count; i++) {
        Str8 n = l.entries[i].name;
        if (!st_str8_ends_with(n, STR8_LIT(".wav"))) continue;
        wavs++;
        bool known = false;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            known |= st_str8_eq(st_str8_prefix(n, n.len - 4), st_str8_cstr(names[k]));
        if (!known) fprintf(stderr, "%s/%.*s: not a sound the game plays\n", dir, STR8_FMT(n));
        CHECK(known);
    }
    CHECK_EQ_U(wavs, sizeof names / sizeof names[0]);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        check_wav_(scope.arena, dir, names[k]);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_synth ASSETS_DIR\n");
        return 2;
    }
    test_envelope();
    test_sweeps();
    test_noise();
    test_i16();
    test_maths();
    test_assets(argv[1]);
    return check_result();
}
