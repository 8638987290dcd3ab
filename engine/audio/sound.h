/* sound.h - sound data: immutable PCM decoded once, at start-up, into the permanent arena.

   Every Sound is mono, signed 16-bit, at AUDIO_RATE (files at other rates are resampled
   when decoded), so the mixer never converts anything while it plays. A Sound is read by
   the audio thread and never written after it is made, which is what lets that thread
   read it without a lock.

       Sound shot;
       Error err;
       if (!st_sound_load(perm, "assets/sounds/shot.wav", &shot, &err))
           st_diag_report(DIAG_WARNING, "%s", err.message);   // and play nothing: silence

   Decoding needs no heap: WAV is parsed here (PCM 8/16/24/32-bit integer and 32-bit float,
   mono or stereo, which is mixed down), Ogg Vorbis goes through stb_vorbis with its work
   memory in a scratch arena (stb_vorbis_alloc), the way asset.c feeds stb_image. An Ogg
   file is checked whole first (vorbis_check.h: its pages and CRCs, then every length,
   count and index of its three Vorbis headers), so neither a cut or damaged file nor one
   crafted with correct CRCs and a lying header reaches stb_vorbis, which trusts them. */
#ifndef SOUND_H
#define SOUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/error.h>
#include <strata/core/str8.h>

#define AUDIO_RATE 48000
#define SOUND_MAX_SECONDS 600 /* longer files are refused: 10 minutes of mono is 55 MiB */
#define SOUND_FILE_MAX (64u << 20)

typedef struct Sound {
    const int16_t *samples; /* mono, AUDIO_RATE; in the arena it was decoded into */
    uint32_t frames;
} Sound;

/* Reads and decodes `path` (WAV or Ogg Vorbis, told apart by content) into `perm`. False
   with a message naming the file and what is wrong with it; `perm` is unchanged then. */
bool st_sound_load(Arena *perm, const char *path, Sound *out, Error *err);
/* The same from bytes in memory; `path` is only for messages. */
bool st_sound_decode(Arena *perm, Str8 bytes, const char *path, Sound *out, Error *err);
/* Writes interleaved stereo 16-bit PCM as a WAV file, atomically (st_os_write_file_atomic).
   False with the reason in err. */
bool st_sound_write_wav(const char *path, const int16_t *stereo, uint64_t frames, uint32_t rate, Error *err);

#endif
