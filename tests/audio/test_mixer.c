/* test_mixer: where a sound lands (frame, pan, volume, pitch, loops), the voice-stealing
   rule of mixer.h case by case, stale ids, fades that end exactly at their target, gains
   that glide instead of clicking, a full command ring, bit-identical output from the same
   commands, no heap call while rendering, and a producer thread hammering the ring while
   another thread renders (run it under ASan, or -fsanitize=thread by hand). Where a sample
   must land on a given frame the master limiter is off (raw_mixer): it delays everything
   by MIXER_LATENCY frames, and test_limiter tests it. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <strata/audio/mixer.h>
#include "check.h"
#if defined(__SANITIZE_THREAD__) /* a local -fsanitize=thread build: TSan owns malloc too */
#define HEAP_COUNT 0
static uint64_t heap_calls;
#else
#include "heap_count.h"
#endif

static Arena *perm;
static int16_t dc[48000];   /* a constant 1000: a voice's level shows in the output */
static int16_t ramp[48000]; /* ramp[i] = i % 20000: positions show in the output */
static float out[2 * 8192];

/* The mix itself, without the master limiter's delay (test_limiter tests that). */
static Mixer *raw_mixer(Arena *a, uint32_t rate) {
    Mixer *m = st_mixer_create(a, rate);
    st_mixer_set_limiter(m, false);
    float none[2];
    st_mixer_render(m, none, 0); /* takes the command, so the ring is empty as created */
    return m;
}

static bool near(float a, float b) { return fabsf(a - b) <= 1e-6f + 1e-5f * fabsf(b); }

#define CHECK_NEAR(a, b)                                                                           \
    do {                                                                                           \
        float a_ = (a), b_ = (b);                                                                  \
        if (!near(a_, b_)) {                                                                       \
            fprintf(stderr, "%s:%d: %s = %.9g, expected %.9g\n", __FILE__, __LINE__, #a, a_, b_);  \
            check_failures_++;                                                                     \
        }                                                                                          \
    } while (0)

static void test_placement(void) {
    Mixer *m = raw_mixer(perm, 48000);
    Sound s = {ramp, 64};
    st_mixer_render(m, out, 37);
    for (int i = 0; i < 74; i++) CHECK(out[i] == 0);
    /* Hard left at half volume: the samples themselves, scaled, from the next frame on. */
    VoiceId v = st_mixer_play(m, &(MixerPlay){.sound = &s, .volume = 0.5f, .pan = -1});
    CHECK(v != 0);
    st_mixer_render(m, out, 100);
    for (int i = 0; i < 100; i++) {
        CHECK_NEAR(out[2 * i], i < 64 ? ramp[i] * 0.5f / 32768 : 0);
        CHECK(out[2 * i + 1] == 0);
    }
    CHECK_EQ_U(st_mixer_stats(m).voices_active, 0); /* a one-shot frees its voice at the end */
    /* Equal power: l^2 + r^2 is the volume^2 wherever the pan is. */
    float pans[5] = {-1, -0.5f, 0, 0.5f, 1};
    for (int p = 0; p < 5; p++) {
        Sound one = {dc, 8};
        st_mixer_play(m, &(MixerPlay){.sound = &one, .volume = 1, .pan = pans[p]});
        st_mixer_render(m, out, 4);
        float l = out[0] * 32768 / 1000, r = out[1] * 32768 / 1000;
        CHECK_NEAR(l * l + r * r, 1);
        CHECK_NEAR(l, sqrtf((1 - pans[p]) / 2));
        st_mixer_render(m, out, 8);
    }
    /* Pitch 2 reads every other frame; pitch 0.5 reads between frames; so does a 24 kHz
       output at pitch 1. */
    Sound r = {ramp, 4000};
    st_mixer_play(m, &(MixerPlay){.sound = &r, .volume = 1, .pan = -1, .pitch = 2});
    st_mixer_render(m, out, 100);
    for (int i = 0; i < 100; i++) CHECK_NEAR(out[2 * i], ramp[2 * i] / 32768.0f);
    st_mixer_render(m, out, 2000);
    st_mixer_play(m, &(MixerPlay){.sound = &r, .volume = 1, .pan = -1, .pitch = 0.5f});
    st_mixer_render(m, out, 100);
    for (int i = 0; i < 100; i++) CHECK_NEAR(out[2 * i], (i / 2 + (i % 2) * 0.5f) / 32768);
    Mixer *slow = raw_mixer(perm, 24000);
    st_mixer_play(slow, &(MixerPlay){.sound = &r, .volume = 1, .pan = -1});
    st_mixer_render(slow, out, 100);
    for (int i = 0; i < 100; i++) CHECK_NEAR(out[2 * i], ramp[2 * i] / 32768.0f);
    /* A loop comes round without a seam: the frame after the last is the first. */
    Mixer *lm = raw_mixer(perm, 48000);
    Sound ten = {ramp, 10};
    st_mixer_play(lm, &(MixerPlay){.sound = &ten, .volume = 1, .pan = -1, .loop = true});
    st_mixer_render(lm, out, 1000);
    for (int i = 0; i < 1000; i++) CHECK_NEAR(out[2 * i], ramp[i % 10] / 32768.0f);
    CHECK_EQ_U(st_mixer_stats(lm).voices_active, 1);
    /* Nothing to play is no voice. */
    CHECK_EQ_U(st_mixer_play(lm, &(MixerPlay){.sound = &(Sound){ramp, 0}, .volume = 1}), 0);
    CHECK_EQ_U(st_mixer_play(lm, &(MixerPlay){.volume = 1}), 0);
}

/* ---- Stealing. Voice k of a full mixer plays dc at volume (k + 1) / 64 hard left, so the
   left output drops by exactly that much when k is stolen by a silent play. */

static Mixer *full_mixer(VoiceId ids[MIXER_VOICES], const uint32_t *frames, const uint8_t *prio,
                         const bool *loop) {
    Mixer *m = raw_mixer(perm, 48000);
    for (int k = 0; k < MIXER_VOICES; k++) {
        Sound s = {dc, frames ? frames[k] : 40000};
        ids[k] = st_mixer_play(
            m, &(MixerPlay){.sound = &s,
                            .volume = (k + 1) / 64.0f,
                            .pan = -1,
                            .priority = prio ? prio[k] : 0,
                            .loop = loop && loop[k],
                            .bus = loop && loop[k] ? AUDIO_BUS_MUSIC : AUDIO_BUS_EFFECTS});
    }
    st_mixer_render(m, out, 64);
    CHECK_EQ_U(st_mixer_stats(m).voices_active, MIXER_VOICES);
    return m;
}

/* Which voice the play took: -1 when none (the play was dropped). */
static int stolen_by(Mixer *m, MixerPlay p) {
    Sound silent = {dc, 40000};
    p.sound = &silent;
    p.volume = 0;
    st_mixer_render(m, out, 16);
    float before = out[30];
    st_mixer_play(m, &p);
    st_mixer_render(m, out, 16);
    float drop = (before - out[0]) * 32768 / 1000 * 64;
    int k = (int)lrintf(drop) - 1;
    CHECK(fabsf(drop - (float)(k + 1)) < 0.01f);
    return k;
}

static void test_stealing(void) {
    VoiceId ids[MIXER_VOICES];
    uint32_t frames[MIXER_VOICES];
    uint8_t prio[MIXER_VOICES];
    bool loop[MIXER_VOICES];
    /* Equal priorities: the one closest to its end goes. */
    for (int k = 0; k < MIXER_VOICES; k++) frames[k] = 30000 + 100 * (uint32_t)k;
    frames[17] = 20000;
    Mixer *m = full_mixer(ids, frames, NULL, NULL);
    CHECK_EQ_I(stolen_by(m, (MixerPlay){0}), 17);
    CHECK_EQ_U(st_mixer_stats(m).stolen, 1);
    /* Lower priority goes first, however far from its end. */
    for (int k = 0; k < MIXER_VOICES; k++) prio[k] = k == 5 ? 3 : 10;
    m = full_mixer(ids, frames, prio, NULL);
    CHECK_EQ_I(stolen_by(m, (MixerPlay){.priority = 10}), 5);
    /* A play never takes a voice of higher priority: dropped and counted. */
    CHECK_EQ_I(stolen_by(m, (MixerPlay){.priority = 2}), -1);
    CHECK_EQ_U(st_mixer_stats(m).commands_dropped, 1);
    /* A voice fading out after st_mixer_stop goes before anything, even at priority 255. */
    for (int k = 0; k < MIXER_VOICES; k++) prio[k] = k == 9 ? 255 : 0;
    m = full_mixer(ids, frames, prio, NULL);
    st_mixer_stop(m, ids[9], 10);
    CHECK_EQ_I(stolen_by(m, (MixerPlay){0}), 9);
    /* Loops (the music) are never taken by a one-shot, whatever the priorities ... */
    for (int k = 0; k < MIXER_VOICES; k++) loop[k] = k != 20 && k != 21, prio[k] = 0;
    frames[20] = 39000, frames[21] = 38000;
    m = full_mixer(ids, frames, prio, loop);
    CHECK_EQ_I(stolen_by(m, (MixerPlay){.priority = 255}), 21);
    CHECK_EQ_I(stolen_by(m, (MixerPlay){.priority = 255}), 20); /* the silent play of before */
    for (int k = 0; k < MIXER_VOICES; k++) loop[k] = true;
    m = full_mixer(ids, frames, prio, loop);
    CHECK_EQ_I(stolen_by(m, (MixerPlay){.priority = 255}), -1);
    CHECK_EQ_U(st_mixer_stats(m).commands_dropped, 1);
    /* ... but a loop may take a loop of no higher priority: the lowest slot of equals. */
    CHECK_EQ_I(stolen_by(m, (MixerPlay){.loop = true, .bus = AUDIO_BUS_MUSIC}), 0);
}

static void test_stale_ids(void) {
    Mixer *m = raw_mixer(perm, 48000);
    Sound shortie = {dc, 100}, longer = {dc, 40000};
    VoiceId a = st_mixer_play(m, &(MixerPlay){.sound = &shortie, .volume = 1, .pan = -1});
    st_mixer_render(m, out, 200); /* a is over; its voice is free */
    VoiceId b = st_mixer_play(m, &(MixerPlay){.sound = &longer, .volume = 1, .pan = -1});
    CHECK(a != b && a && b);
    st_mixer_stop(m, a, 0); /* stale: must not touch b, which took a's voice */
    st_mixer_stop(m, 0, 0);
    st_mixer_stop(m, 0xDEADBEEF, 0);
    st_mixer_render(m, out, 600);
    CHECK_EQ_U(st_mixer_stats(m).voices_active, 1);
    CHECK_NEAR(out[1198], 1000 / 32768.0f);
    st_mixer_stop(m, b, 0);
    st_mixer_render(m, out, 600);
    CHECK_EQ_U(st_mixer_stats(m).voices_active, 0);
}

static float max_step(const float *o, uint32_t frames) {
    float worst = 0;
    for (uint32_t i = 1; i < frames; i++) worst = fmaxf(worst, fabsf(o[2 * i] - o[2 * i - 2]));
    return worst;
}

static void test_fades(void) {
    Mixer *m = raw_mixer(perm, 48000);
    Sound s = {dc, 48000};
    float full = 1000 / 32768.0f;
    /* A fade-in rises from silence and arrives. */
    VoiceId v = st_mixer_play(
        m, &(MixerPlay){.sound = &s, .volume = 1, .pan = -1, .fade_in = 0.05f, .loop = true});
    st_mixer_render(m, out, 4800);
    CHECK(out[0] < full * 0.01f);
    CHECK(out[2 * 1200] > full * 0.2f && out[2 * 1200] < full * 0.8f);
    CHECK_NEAR(out[2 * 4799], full);
    /* The master, then a bus, to a new level over 0.1 s: exactly there afterwards. */
    st_mixer_set_volume(m, MIXER_MASTER, 0.25f, 0.1f);
    st_mixer_render(m, out, 4800);
    CHECK(max_step(out, 4800) < full * 0.01f);
    CHECK_NEAR(out[2 * 4799], full * 0.25f);
    st_mixer_render(m, out, 100);
    CHECK(out[0] == out[198]); /* and no further */
    st_mixer_set_volume(m, AUDIO_BUS_EFFECTS, 0.5f, 0.1f);
    st_mixer_set_volume(m, AUDIO_BUS_MUSIC, 0.0f, 0); /* not this voice's bus */
    st_mixer_render(m, out, 4800);
    CHECK_NEAR(out[2 * 4799], full * 0.125f);
    /* A change "at once" still glides across one block, so it does not click. */
    st_mixer_set_volume(m, MIXER_MASTER, 1, 0);
    st_mixer_render(m, out, MIXER_BLOCK);
    CHECK(max_step(out, MIXER_BLOCK) < full * 0.5f * 2.5f / MIXER_BLOCK);
    CHECK_NEAR(out[2 * (MIXER_BLOCK - 1)], full * 0.5f);
    /* A stop fades to nothing by its time (rounded up to a block), then frees the voice. */
    st_mixer_stop(m, v, 0.05f);
    st_mixer_render(m, out, 2400);
    CHECK(out[0] > full * 0.45f && fabsf(out[2 * 2399]) < 1e-7f);
    st_mixer_render(m, out, MIXER_BLOCK);
    CHECK_EQ_U(st_mixer_stats(m).voices_active, 0);
    /* A stop with no fade: one block, no click. */
    v = st_mixer_play(m, &(MixerPlay){.sound = &s, .volume = 1, .pan = -1, .loop = true});
    st_mixer_render(m, out, 64);
    st_mixer_stop(m, v, 0);
    st_mixer_render(m, out, MIXER_BLOCK * 2);
    CHECK(max_step(out, MIXER_BLOCK) < full * 0.5f * 1.5f / MIXER_BLOCK);
    CHECK(out[2 * (MIXER_BLOCK - 1)] < full * 0.5f / MIXER_BLOCK * 1.5f &&
          out[2 * MIXER_BLOCK] == 0);
    CHECK_EQ_U(st_mixer_stats(m).voices_active, 0);
}

static void test_ring_full(void) {
    Mixer *m = raw_mixer(perm, 48000);
    Sound s = {dc, 40000};
    uint32_t accepted = 0, refused = 0;
    for (int i = 0; i < MIXER_RING + 44; i++) {
        if (st_mixer_play(m, &(MixerPlay){.sound = &s, .volume = 0.01f})) accepted++;
        else refused++;
    }
    CHECK_EQ_U(accepted, MIXER_RING);
    CHECK_EQ_U(refused, 44);
    CHECK_EQ_U(st_mixer_stats(m).commands_dropped, 44);
    st_mixer_set_volume(m, MIXER_MASTER, 0.5f, 0); /* still full: dropped too */
    st_mixer_stop(m, 1, 0);
    CHECK_EQ_U(st_mixer_stats(m).commands_dropped, 46);
    st_mixer_render(m, out, 64);
    MixerStats st = st_mixer_stats(m);
    CHECK_EQ_U(st.voices_active, MIXER_VOICES);
    CHECK_EQ_U(st.stolen, MIXER_RING - MIXER_VOICES);
    CHECK_EQ_U(st.frames_mixed, 64);
    CHECK(st_mixer_play(m, &(MixerPlay){.sound = &s, .volume = 0.01f}) != 0); /* room again */
}

/* A scripted session of random plays, stops and volume changes, rendered in 800-frame
   ticks, into `pcm` (float) or `pcm16`. */
static void session(Mixer *m, float *pcm, int16_t *pcm16, int ticks) {
    uint64_t r = 12345;
    VoiceId live[16] = {0};
    for (int t = 0; t < ticks; t++) {
        for (int c = 0; c < 3; c++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            uint32_t x = (uint32_t)(r >> 11);
            Sound s = {x & 1 ? ramp : dc, 500 + x % 20000};
            switch (x % 5) {
            case 0:
            case 1:
                live[x % 16] = st_mixer_play(m, &(MixerPlay){.sound = &s,
                                                          .volume = (x % 100) / 100.0f,
                                                          .pan = (float)(x % 201) / 100 - 1,
                                                          .pitch = 0.25f + (x % 375) / 100.0f,
                                                          .bus = x % 7 == 0,
                                                          .loop = x % 11 == 0,
                                                          .priority = (uint8_t)(x >> 8),
                                                          .fade_in = (x % 3) * 0.01f});
                break;
            case 2: st_mixer_stop(m, live[(x >> 4) % 16], (x % 4) * 0.02f); break;
            case 3: st_mixer_set_volume(m, (int)(x % 3), (x % 10) / 9.0f, (x % 2) * 0.05f); break;
            default: break;
            }
        }
        if (pcm) st_mixer_render(m, pcm + (size_t)t * 1600, 800);
        else st_mixer_render_s16(m, pcm16 + (size_t)t * 1600, 800);
    }
}

enum { TICKS = 120 };
static float det_a[TICKS * 1600], det_b[TICKS * 1600];
static int16_t det_s16[TICKS * 1600];

static void test_determinism(void) {
    session(st_mixer_create(perm, 48000), det_a, NULL, TICKS);
    uint64_t heap_before = heap_calls;
    session(st_mixer_create(perm, 48000), det_b, NULL, TICKS);
    if (HEAP_COUNT)
        CHECK_EQ_U(heap_calls - heap_before, 0); /* playing, stopping, mixing: no heap */
    CHECK(memcmp(det_a, det_b, sizeof det_a) == 0);
    session(st_mixer_create(perm, 48000), NULL, det_s16, TICKS);
    uint32_t mismatches = 0, loud = 0;
    for (size_t i = 0; i < TICKS * 1600; i++) {
        float x = det_a[i] * 32768;
        int16_t want = x >= 32767 ? 32767 : x <= -32768 ? -32768 : (int16_t)lrintf(x);
        mismatches += want != det_s16[i];
        loud += fabsf(det_a[i]) > 0.01f;
    }
    CHECK_EQ_U(mismatches, 0);
    CHECK(loud > TICKS * 800); /* the session did make sound */
    printf("determinism: %d ticks of 800 frames, float and s16 identical across mixers\n", TICKS);
}

/* ---- Two threads */

typedef struct Shared {
    Mixer *m;
    _Atomic int started, done;
    _Atomic uint32_t renders;
    uint64_t attempts, accepted, ops;
} Shared;

/* Plays, stops and volume changes until the other thread, which waits for this one to
   start, has rendered 3000 buffers, so that the two really overlap (yielding now and
   then, or the ring is only ever full). */
static void *producer(void *arg) {
    Shared *sh = arg;
    uint64_t r = 99;
    VoiceId last = 0;
    static Sound s[4] = {{dc, 700}, {ramp, 3000}, {dc, 48000}, {ramp, 1}};
    atomic_store(&sh->started, 1);
    for (uint32_t i = 0; atomic_load(&sh->renders) < 3000 || i < 100000; i++, sh->ops++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        uint32_t x = (uint32_t)(r >> 11);
        if (x % 4 < 2) {
            VoiceId v = st_mixer_play(sh->m, &(MixerPlay){.sound = &s[x % 4],
                                                       .volume = 0.1f,
                                                       .pitch = 0.3f + (x % 30) / 10.0f,
                                                       .loop = x % 13 == 0,
                                                       .priority = (uint8_t)x,
                                                       .pan = 0.5f});
            sh->attempts++;
            if (v) last = v, sh->accepted++;
        } else if (x % 4 == 2) {
            st_mixer_stop(sh->m, last - x % 3, 0.001f * (x % 5));
        } else {
            st_mixer_set_volume(sh->m, (int)(x % 3), 0.5f + (x % 2) * 0.5f, 0.01f);
        }
        if (i % 16 == 0) sched_yield();
    }
    atomic_store(&sh->done, 1);
    return NULL;
}

static void *consumer(void *arg) {
    Shared *sh = arg;
    static float buf[2 * 256];
    while (!atomic_load(&sh->started)) sched_yield();
    while (!atomic_load(&sh->done)) {
        st_mixer_render(sh->m, buf, 256);
        for (int i = 0; i < 512; i++)
            if (!(fabsf(buf[i]) < 100)) {
                fprintf(stderr, "render %u: sample %d is %g\n", atomic_load(&sh->renders), i,
                        buf[i]);
                check_failures_++;
                atomic_store(&sh->renders, 1u << 30);
                return NULL;
            }
        atomic_fetch_add(&sh->renders, 1);
    }
    return NULL;
}

static void test_threads(void) {
    Shared sh = {.m = st_mixer_create(perm, 48000)};
    pthread_t p, c;
    REQUIRE_VOID(pthread_create(&c, NULL, consumer, &sh) == 0);
    REQUIRE_VOID(pthread_create(&p, NULL, producer, &sh) == 0);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    st_mixer_render(sh.m, out, 16); /* whatever is left in the ring */
    MixerStats st = st_mixer_stats(sh.m);
    printf("threads: %llu commands, %llu plays tried, %llu accepted, %llu commands dropped, %llu "
           "stolen, %llu "
           "frames\n",
           (unsigned long long)sh.ops, (unsigned long long)sh.attempts,
           (unsigned long long)sh.accepted, (unsigned long long)st.commands_dropped,
           (unsigned long long)st.stolen, (unsigned long long)st.frames_mixed);
    CHECK(sh.accepted > 0 && st.frames_mixed > 0);
    CHECK(st.commands_dropped >= sh.attempts - sh.accepted);
}

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    perm = st_arena_create((ArenaParams){.name = "perm"});
    REQUIRE(perm);
    for (int i = 0; i < 48000; i++) dc[i] = 1000, ramp[i] = (int16_t)(i % 20000);
    test_placement();
    test_stealing();
    test_stale_ids();
    test_fades();
    test_ring_full();
    test_determinism();
    test_threads();
    st_arena_release(perm);
    return check_result();
}
