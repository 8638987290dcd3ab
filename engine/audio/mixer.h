/* mixer.h - plays Sounds: 32 voices, two buses and a master volume, mixed to stereo.

   Two threads, one rule: the game thread only sends commands (play, stop, volume), the
   audio thread (or an offline writer) only renders. They share a lock-free single-producer
   single-consumer ring of commands and the Sounds' samples, which never change, and
   nothing else; st_mixer_render never allocates, locks or waits.

       Mixer *mx = st_mixer_create(perm, st_audio_device_rate(dev));
       VoiceId music = st_mixer_play(mx, &(MixerPlay){.sound = &theme, .volume = 0.6f, .loop = true,
                                                   .bus = AUDIO_BUS_MUSIC, .priority = 255,
                                                   .fade_in = 2});
       st_mixer_play(mx, &(MixerPlay){.sound = &coin, .volume = 0.8f, .pan = -0.3f, .pitch = 1.1f});
       st_mixer_set_volume(mx, AUDIO_BUS_MUSIC, 0.2f, 0.5f);   // duck the music over half a second
       st_mixer_stop(mx, music, 1.0f);                         // fade out over a second
       ...
       st_mixer_render(mx, stereo, 800);                       // on the audio thread (or offline)

   Commands take effect at the start of the next st_mixer_render call, in the order they were
   sent. Output depends on nothing but the commands and the frame counts of the render
   calls between them: the same sequence gives the same bits (the offline --audio-out
   writer renders exactly 800 frames per 60 Hz tick at 48 kHz). Gains glide from one
   render block (at most MIXER_BLOCK frames) to the next instead of jumping, so volume
   changes and stops do not click; a play with fade_in 0 starts at full volume at once.

   VoiceId: the serial number of a play (never 0), kept beside its voice. A voice that
   ended or was stolen holds another serial, so a stale id matches nothing and is ignored.

   Voice stealing, when all MIXER_VOICES voices are busy, for a new play P:
   - a voice may be taken when it is already fading out after st_mixer_stop, or when its
     priority is <= P's and it does not loop unless P loops too (a looping voice, the
     music, is never stolen by a one-shot effect);
   - of those, stopping voices go first, then the lowest priority, then the voice closest
     to its end (loops last), then the lowest slot;
   - when none may be taken, P is dropped and counted in commands_dropped.
   A stolen voice stops at once (no fade: its slot is needed now).

   The master bus ends in a true-peak limiter (limiter.h): whatever the voices add up to,
   the output stays under LIMITER_CEILING_DBTP (-1 dBTP), its gain gliding down before a
   peak and back up after it. It looks ahead, so everything comes out MIXER_LATENCY frames
   (1.2 ms at 48 kHz) after the render that mixed it; st_mixer_set_limiter(m, false) takes it
   out (tests of the mix itself, tools). */
#ifndef MIXER_H
#define MIXER_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/audio/limiter.h>
#include <strata/audio/sound.h>
#include <strata/core/arena.h>

#define MIXER_VOICES 32
#define MIXER_RING 256                /* commands in flight between two renders; a power of two */
#define MIXER_BLOCK 512               /* frames a render mixes per step: gains ramp once per block */
#define MIXER_LATENCY LIMITER_LATENCY /* frames between a render's mix and its output */

typedef enum AudioBus { AUDIO_BUS_EFFECTS, AUDIO_BUS_MUSIC, AUDIO_BUS_COUNT } AudioBus;
#define MIXER_MASTER AUDIO_BUS_COUNT /* for st_mixer_set_volume */

typedef struct MixerPlay {
    const Sound *sound; /* only its samples are kept: the Sound itself may be a local */
    float volume;       /* 0..1 */
    float pan;          /* -1 left .. +1 right, equal-power */
    float pitch;        /* playback rate, 1 = as recorded; 0.25..4; 0 means 1 */
    AudioBus bus;
    bool loop;
    uint8_t priority; /* higher is stolen later */
    float fade_in;    /* seconds, 0 = at once */
} MixerPlay;

typedef uint32_t VoiceId; /* 0: none */

typedef struct MixerStats {
    uint32_t voices_active;    /* after the last render */
    uint64_t stolen;           /* voices taken from a playing sound for a new one */
    uint64_t commands_dropped; /* ring full, or a play no voice could take */
    uint64_t frames_mixed;
} MixerStats;

typedef struct Mixer Mixer;

/* NULL (and arena.h's message) when perm is full. output_rate 0 means AUDIO_RATE. */
Mixer *st_mixer_create(Arena *perm, uint32_t output_rate);

/* Game thread (one thread: the ring has a single producer). 0 when nothing will play:
   no sound, an empty one, or a full ring (counted). Out-of-range values are clamped. */
VoiceId st_mixer_play(Mixer *m, const MixerPlay *p);
/* Fades the voice out over fade_out seconds (0: within one block) and frees it. */
void st_mixer_stop(Mixer *m, VoiceId v, float fade_out);
/* bus_or_master: an AudioBus or MIXER_MASTER; volume 0..1 reached in `fade` seconds. */
void st_mixer_set_volume(Mixer *m, int bus_or_master, float volume, float fade);
/* The master limiter on (as created) or off; switched on again, it starts from silence. */
void st_mixer_set_limiter(Mixer *m, bool on);

/* A Sound's samples replaced by new ones (a file reloaded): every voice playing `old` goes
   on in `with` at the same position (past the new end, a loop wraps, a one-shot ends).
   Returns a ticket, 0 when the ring is full (nothing sent: try again later). The old
   samples may still be read until st_mixer_applied(m, ticket) is true: the audio thread has
   taken the command, and no voice, nor any play sent before it, refers to them any more.
   Plays sent after it must name the new samples (the caller updates its Sound first). */
uint32_t st_mixer_replace(Mixer *m, const int16_t *old, const Sound *with);
/* Game thread: true once the audio thread has applied every command up to `ticket` (and
   for ticket 0 or no mixer). */
bool st_mixer_applied(const Mixer *m, uint32_t ticket);

/* Audio thread (or offline): applies the commands sent so far, then mixes `frames`
   interleaved stereo frames into `stereo` (overwritten, not added to). */
void st_mixer_render(Mixer *m, float *stereo, uint32_t frames);
/* The same mix, rounded and clipped to 16 bits: the same calls give the same samples. */
void st_mixer_render_s16(Mixer *m, int16_t *stereo, uint32_t frames);

/* Any thread: counters, each read atomically (together they are a near-snapshot). */
MixerStats st_mixer_stats(const Mixer *m);

#endif
