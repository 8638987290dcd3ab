/* mixer.c - voices, buses and the command ring between the game and audio threads.

   The Mixer is one block in the permanent arena, in two halves on separate cache lines:
   what only the game thread writes (the ring's head, the id counter, its drop count) and
   what only the audio thread writes (the ring's tail, the voices, the buses). The ring's
   slots are written by the game thread before it publishes the head (release) and read
   by the audio thread after it loads the head (acquire); the tail goes back the same way,
   so a slot is never reused while it is being read.

   A voice's position is 32.32 fixed point in source frames, so stepping is exact and the
   same on every run; gains are evaluated once per block and ramped linearly across it. */
#include <strata/audio/mixer.h>

#include <math.h>
#include <stdatomic.h>
#include <string.h>

_Static_assert((MIXER_RING & (MIXER_RING - 1)) == 0, "MIXER_RING must be a power of two");

enum { CMD_PLAY, CMD_STOP, CMD_VOLUME, CMD_LIMITER, CMD_REPLACE };

typedef struct MixerCommand {
    uint8_t kind, bus, priority; /* bus: the play's bus, or the volume's bus_or_master */
    bool loop;
    VoiceId id;
    const int16_t *samples, *old; /* old: the replace's samples that go */
    uint32_t frames;
    float volume, pan, pitch, fade; /* fade: the play's fade_in, the stop's fade_out, the volume's */
} MixerCommand;

/* A value gliding to `target`, reached after `left` more frames. */
typedef struct Ramp {
    float value, target;
    uint32_t left;
} Ramp;

typedef struct Voice {
    const int16_t *samples;
    uint32_t frames;
    VoiceId id;                 /* 0: free */
    uint64_t pos, step;         /* 32.32 source frames */
    float volume, pan_l, pan_r; /* pan_l, pan_r carry the 1/32768 of int16 -> float */
    float gain_l, gain_r;       /* what the last block ended at: the next one starts there */
    Ramp env;                   /* fade in, fade out */
    uint8_t bus, priority;
    bool loop, stopping;
} Voice;

struct Mixer {
    uint32_t rate;
    /* Game thread. */
    _Alignas(64) _Atomic uint32_t head;
    uint32_t next_id;
    _Atomic uint64_t dropped_ring;
    /* Audio thread. */
    _Alignas(64) _Atomic uint32_t tail;
    _Atomic uint32_t voices_active;
    _Atomic uint64_t dropped_play, stolen, frames_mixed;
    Ramp volume[AUDIO_BUS_COUNT + 1]; /* the buses, then the master */
    bool limit;                       /* the master limiter is on */
    Limiter limiter;
    Voice voices[MIXER_VOICES];
    float block[MIXER_BLOCK * 2]; /* st_mixer_render_s16 mixes here before rounding */
    /* Both: written by the game thread, read by the audio thread, handed over by head/tail. */
    MixerCommand ring[MIXER_RING];
};

static float clampf(float x, float lo, float hi) { return !(x > lo) ? lo : x > hi ? hi : x; }

static uint32_t seconds_to_frames(float s, uint32_t rate) {
    return (uint32_t)(clampf(s, 0, 3600) * (float)rate + 0.5f);
}

static void ramp_to(Ramp *r, float target, uint32_t frames) {
    r->target = target;
    r->left = frames;
    if (!frames) r->value = target;
}

static float ramp_advance(Ramp *r, uint32_t n) {
    if (n >= r->left) {
        r->value = r->target;
        r->left = 0;
    } else {
        r->value += (r->target - r->value) * ((float)n / (float)r->left);
        r->left -= n;
    }
    return r->value;
}

Mixer *st_mixer_create(Arena *perm, uint32_t output_rate) {
    Mixer *m = st_arena_push_struct(perm, Mixer);
    if (!m) return NULL;
    m->rate = output_rate ? output_rate : AUDIO_RATE;
    for (int i = 0; i <= AUDIO_BUS_COUNT; i++) m->volume[i] = (Ramp){1, 1, 0};
    m->limit = true;
    st_limiter_init(&m->limiter, m->rate);
    return m;
}

/* ---- Game thread */

static bool mixer_send(Mixer *m, const MixerCommand *c) {
    uint32_t h = atomic_load_explicit(&m->head, memory_order_relaxed);
    uint32_t t = atomic_load_explicit(&m->tail, memory_order_acquire);
    if (h - t >= MIXER_RING) {
        atomic_fetch_add_explicit(&m->dropped_ring, 1, memory_order_relaxed);
        return false;
    }
    m->ring[h & (MIXER_RING - 1)] = *c;
    atomic_store_explicit(&m->head, h + 1, memory_order_release);
    return true;
}

VoiceId st_mixer_play(Mixer *m, const MixerPlay *p) {
    if (!m || !p || !p->sound || !p->sound->samples || !p->sound->frames) return 0;
    VoiceId id = ++m->next_id ? m->next_id : ++m->next_id; /* 0 is "none", even after a wrap */
    MixerCommand c = {
        .kind = CMD_PLAY,
        .bus = (unsigned)p->bus < AUDIO_BUS_COUNT ? (uint8_t)p->bus : AUDIO_BUS_EFFECTS,
        .priority = p->priority,
        .loop = p->loop,
        .id = id,
        .samples = p->sound->samples,
        .frames = p->sound->frames,
        .volume = clampf(p->volume, 0, 1),
        .pan = clampf(p->pan, -1, 1),
        .pitch = p->pitch == 0 || p->pitch != p->pitch ? 1 : clampf(p->pitch, 0.25f, 4),
        .fade = p->fade_in,
    };
    return mixer_send(m, &c) ? id : 0;
}

void st_mixer_stop(Mixer *m, VoiceId v, float fade_out) {
    if (m && v) mixer_send(m, &(MixerCommand){.kind = CMD_STOP, .id = v, .fade = fade_out});
}

void st_mixer_set_volume(Mixer *m, int bus_or_master, float volume, float fade) {
    if (!m || bus_or_master < 0 || bus_or_master > MIXER_MASTER) return;
    mixer_send(m, &(MixerCommand){
                      .kind = CMD_VOLUME, .bus = (uint8_t)bus_or_master, .volume = clampf(volume, 0, 1), .fade = fade});
}

void st_mixer_set_limiter(Mixer *m, bool on) {
    if (m) mixer_send(m, &(MixerCommand){.kind = CMD_LIMITER, .loop = on});
}

uint32_t st_mixer_replace(Mixer *m, const int16_t *old, const Sound *with) {
    if (!m || !old || !with || !with->samples || !with->frames) return 0;
    MixerCommand c = {.kind = CMD_REPLACE, .old = old, .samples = with->samples, .frames = with->frames};
    if (!mixer_send(m, &c)) return 0;
    /* The head after the send: the count of commands up to and including this one, and
       never 0 (a head that wrapped to 0 is taken as 1: seen as applied one command late,
       never early). */
    uint32_t ticket = atomic_load_explicit(&m->head, memory_order_relaxed);
    return ticket ? ticket : 1;
}

bool st_mixer_applied(const Mixer *m, uint32_t ticket) {
    if (!m || !ticket) return true;
    Mixer *w = (Mixer *)m; /* C11's atomic loads take non-const pointers */
    uint32_t t = atomic_load_explicit(&w->tail, memory_order_acquire);
    return (int32_t)(t - ticket) >= 0;
}

/* ---- Audio thread */

/* Output frames until a one-shot runs out; loops never do. */
static uint64_t voice_remaining(const Voice *v) {
    if (v->loop) return UINT64_MAX;
    uint64_t end = (uint64_t)v->frames << 32;
    return v->pos >= end ? 0 : (end - v->pos) / v->step;
}

/* True when `a` should be stolen before `b` (see mixer.h). */
static bool steal_before(const Voice *a, const Voice *b) {
    if (a->stopping != b->stopping) return a->stopping;
    if (a->priority != b->priority) return a->priority < b->priority;
    return voice_remaining(a) < voice_remaining(b);
}

static Voice *voice_for(Mixer *m, const MixerCommand *c) {
    Voice *best = NULL;
    for (int i = 0; i < MIXER_VOICES; i++)
        if (!m->voices[i].id) return &m->voices[i];
    for (int i = 0; i < MIXER_VOICES; i++) {
        Voice *v = &m->voices[i];
        bool may = v->stopping || (v->priority <= c->priority && (!v->loop || c->loop));
        if (may && (!best || steal_before(v, best))) best = v;
    }
    if (best) atomic_fetch_add_explicit(&m->stolen, 1, memory_order_relaxed);
    else atomic_fetch_add_explicit(&m->dropped_play, 1, memory_order_relaxed);
    return best;
}

static void voice_start(Mixer *m, const MixerCommand *c) {
    Voice *v = voice_for(m, c);
    if (!v) return;
    /* sqrt, not sin/cos: the same equal power (l^2 + r^2 = 1), exactly 1 and 0 at the
       ends, and correctly rounded everywhere, so the output bits do not depend on a libm
       version. */
    float k = 1.0f / 32768;
    *v = (Voice){
        .samples = c->samples,
        .frames = c->frames,
        .id = c->id,
        .step = (uint64_t)((double)c->pitch * AUDIO_RATE / m->rate * 4294967296.0 + 0.5),
        .volume = c->volume,
        .pan_l = sqrtf((1 - c->pan) * 0.5f) * k,
        .pan_r = sqrtf((1 + c->pan) * 0.5f) * k,
        .bus = c->bus,
        .priority = c->priority,
        .loop = c->loop,
    };
    if (!v->step) v->step = 1; /* only at absurd output rates; a voice must move */
    uint32_t fade = seconds_to_frames(c->fade, m->rate);
    v->env = (Ramp){fade ? 0 : 1, 1, fade};
    float g = v->volume * v->env.value * m->volume[v->bus].value * m->volume[MIXER_MASTER].value;
    v->gain_l = g * v->pan_l;
    v->gain_r = g * v->pan_r;
}

/* Every voice on the old samples goes on from where it was in the new ones; past their
   end, a loop wraps and a one-shot ends. After this no voice holds `old`. */
static void voices_replace(Mixer *m, const MixerCommand *c) {
    for (int i = 0; i < MIXER_VOICES; i++) {
        Voice *v = &m->voices[i];
        if (!v->id || v->samples != c->old) continue;
        v->samples = c->samples;
        v->frames = c->frames;
        uint64_t end = (uint64_t)c->frames << 32;
        if (v->pos >= end && v->loop) v->pos %= end;
        else if (v->pos >= end) v->id = 0;
    }
}

static void mixer_drain(Mixer *m) {
    uint32_t t = atomic_load_explicit(&m->tail, memory_order_relaxed);
    uint32_t h = atomic_load_explicit(&m->head, memory_order_acquire);
    for (; t != h; t++) {
        const MixerCommand *c = &m->ring[t & (MIXER_RING - 1)];
        if (c->kind == CMD_PLAY) {
            voice_start(m, c);
        } else if (c->kind == CMD_STOP) {
            for (int i = 0; i < MIXER_VOICES; i++) {
                Voice *v = &m->voices[i];
                if (v->id != c->id) continue;
                v->stopping = true;
                ramp_to(&v->env, 0, seconds_to_frames(c->fade, m->rate));
            }
        } else if (c->kind == CMD_VOLUME) {
            ramp_to(&m->volume[c->bus], c->volume, seconds_to_frames(c->fade, m->rate));
        } else if (c->kind == CMD_REPLACE) {
            voices_replace(m, c);
        } else if (c->kind == CMD_LIMITER && c->loop != m->limit) {
            m->limit = c->loop;
            st_limiter_init(&m->limiter, m->rate); /* on again: from silence, not from old frames */
        }
    }
    atomic_store_explicit(&m->tail, t, memory_order_release);
}

/* Adds n frames of v into out, the gains gliding by (dl, dr) a frame from (gl, gr).
   True when a one-shot ran out. */
static bool voice_mix(Voice *v, float *out, uint32_t n, float gl, float gr, float dl, float dr) {
    const int16_t *s = v->samples;
    uint64_t end = (uint64_t)v->frames << 32, last = end - (1ull << 32);
    uint64_t pos = v->pos, step = v->step;
    for (uint32_t j = 0; j < n;) {
        if (pos >= end) {
            if (!v->loop) return true;
            pos %= end;
        }
        if (pos < last) {
            /* The run of frames whose next source frame is inside the sound: no checks. */
            uint64_t run = (last - pos + step - 1) / step;
            uint32_t k = run < n - j ? (uint32_t)run : n - j;
            float *o = out + 2 * j;
            if (dl == 0 && dr == 0) { /* the steady state: no gain to carry from frame to frame */
                for (uint32_t q = 0; q < k; q++, pos += step) {
                    uint32_t i = (uint32_t)(pos >> 32);
                    float f = (float)((uint32_t)pos >> 8) * (1.0f / 16777216), a = s[i];
                    float x = a + ((float)s[i + 1] - a) * f;
                    o[2 * q] += x * gl;
                    o[2 * q + 1] += x * gr;
                }
            } else {
                for (uint32_t q = 0; q < k; q++, pos += step) {
                    uint32_t i = (uint32_t)(pos >> 32);
                    float f = (float)((uint32_t)pos >> 8) * (1.0f / 16777216), a = s[i];
                    float x = a + ((float)s[i + 1] - a) * f;
                    gl += dl, gr += dr;
                    o[2 * q] += x * gl;
                    o[2 * q + 1] += x * gr;
                }
            }
            j += k;
        } else {
            /* The last source frame blends toward the loop's start, or toward silence. */
            float f = (float)((uint32_t)pos >> 8) * (1.0f / 16777216), a = s[v->frames - 1];
            float x = a + ((v->loop ? (float)s[0] : 0.0f) - a) * f;
            gl += dl, gr += dr;
            out[2 * j] += x * gl;
            out[2 * j + 1] += x * gr;
            j++, pos += step;
        }
    }
    v->pos = pos;
    return false;
}

static void mixer_block(Mixer *m, float *out, uint32_t n) {
    memset(out, 0, sizeof(float) * 2 * n);
    float master = ramp_advance(&m->volume[MIXER_MASTER], n), bus[AUDIO_BUS_COUNT];
    for (int b = 0; b < AUDIO_BUS_COUNT; b++) bus[b] = ramp_advance(&m->volume[b], n) * master;
    float per_frame = 1.0f / (float)n;
    for (int i = 0; i < MIXER_VOICES; i++) {
        Voice *v = &m->voices[i];
        if (!v->id) continue;
        float env = ramp_advance(&v->env, n), g = v->volume * env * bus[v->bus];
        float gl = g * v->pan_l, gr = g * v->pan_r;
        bool ended =
            voice_mix(v, out, n, v->gain_l, v->gain_r, (gl - v->gain_l) * per_frame, (gr - v->gain_r) * per_frame);
        v->gain_l = gl, v->gain_r = gr;
        if (ended || (v->stopping && v->env.left == 0)) v->id = 0;
    }
}

static void mixer_finish(Mixer *m, uint32_t frames) {
    uint32_t active = 0;
    for (int i = 0; i < MIXER_VOICES; i++) active += m->voices[i].id != 0;
    atomic_store_explicit(&m->voices_active, active, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->frames_mixed, frames, memory_order_relaxed);
}

void st_mixer_render(Mixer *m, float *stereo, uint32_t frames) {
    mixer_drain(m);
    for (uint32_t at = 0; at < frames; at += MIXER_BLOCK) {
        uint32_t n = frames - at < MIXER_BLOCK ? frames - at : MIXER_BLOCK;
        mixer_block(m, stereo + 2 * (uint64_t)at, n);
        if (m->limit) st_limiter_process(&m->limiter, stereo + 2 * (uint64_t)at, n);
    }
    mixer_finish(m, frames);
}

void st_mixer_render_s16(Mixer *m, int16_t *stereo, uint32_t frames) {
    mixer_drain(m);
    for (uint32_t at = 0; at < frames; at += MIXER_BLOCK) {
        uint32_t n = frames - at < MIXER_BLOCK ? frames - at : MIXER_BLOCK;
        mixer_block(m, m->block, n);
        if (m->limit) st_limiter_process(&m->limiter, m->block, n);
        int16_t *o = stereo + 2 * (uint64_t)at;
        for (uint32_t i = 0; i < 2 * n; i++) {
            float s = m->block[i] * 32768.0f;
            o[i] = !(s > -32768.0f) ? -32768 : s >= 32767.0f ? 32767 : (int16_t)lrintf(s);
        }
    }
    mixer_finish(m, frames);
}

MixerStats st_mixer_stats(const Mixer *m) {
    Mixer *w = (Mixer *)m; /* C11's atomic loads take non-const pointers (fixed in C17) */
    return (MixerStats){
        .voices_active = atomic_load_explicit(&w->voices_active, memory_order_relaxed),
        .stolen = atomic_load_explicit(&w->stolen, memory_order_relaxed),
        .commands_dropped = atomic_load_explicit(&w->dropped_ring, memory_order_relaxed) +
                            atomic_load_explicit(&w->dropped_play, memory_order_relaxed),
        .frames_mixed = atomic_load_explicit(&w->frames_mixed, memory_order_relaxed),
    };
}
