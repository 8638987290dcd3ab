/* music.h - the game's music: small text scores, tracker-like, rendered once at start-up
   into looping Sounds with synth.h. A loop of 30 s costs 2.9 MB of PCM in the permanent
   arena and no files to ship but a few KB of text; the score text and the float mix live
   in a scratch arena while it renders.

       Sound title;
       Error err;
       if (!st_music_load(perm, "assets/music/title.score", &title, &err))
           st_diag_report(DIAG_WARNING, "%s", err.message);   // and play no music

   The score (assets/music/README.md has a walk-through):

       # a comment: '#' at the start of a word, up to the end of the line
       tempo 120              # beats per minute, 40..300             (required)
       rows_per_beat 4        # 1..16; a row is the smallest step     (default 4)
       channels 3             # voices playing at once, 1..4           (required)
       volume 0.3             # master gain, 0..1: channels add, past 1 clips (default 1)
       instrument lead wave=square duty=0.25 attack=0.01 decay=0.2 sustain=0.5 release=0.1
       instrument bass wave=triangle sustain=1 release=0.05 volume=0.6
       instrument kick wave=sine decay=0.12 slide=-24 slide_time=0.08
       pattern verse 4        # a name and its number of rows, 1..256
       C-5 lead v80 | C-3 bass | C-2 kick
       ---          | ---      | ---
       E-5          | ===      | C-2
       ===          | G-2      | ---
       end
       order verse verse      # the song: patterns by name, played in turn, then looped

   A row has one cell per channel, split by '|'. A cell is a note (C-4, D#5: C C# D D# E F
   F# G G# A A# B with '-' for natural, octave 0..9, A-4 = 440 Hz), then optionally an
   instrument name and a volume v0..v100 (percent, default 100); or '---', which holds what
   the channel plays (or its silence); or '===', which releases the note. A new note cuts
   the one before it on its channel (a 3 ms fade, no click). The first note of each
   channel in a pattern names its instrument; later ones may leave it out to keep it.

   Instruments come before the patterns that play them. Their settings (key=value, any
   order; only wave is required): wave = square, triangle, saw, sine or noise; duty
   0.05..0.95 (square, default 0.5); attack 0..2, decay 0..4, release 0..2 (seconds);
   sustain 0..1; volume 0..1 (default 1); vibrato 0..2 (semitones) with vibrato_rate 0..20
   Hz (default 5.5) and vibrato_delay 0..2 s; slide -48..48 semitones over slide_time 0..4
   s (0: the whole note); lowpass 20..20000 Hz; noise 0..1 (white noise mixed in). For a
   noise wave the note sets how fast the noise changes: 16 times the note's frequency, so
   high notes hiss and low ones rumble.

   The loop is exactly the song: rows * 60 * AUDIO_RATE / (tempo * rows_per_beat) frames.
   Whatever still sounds at the end (a held note's release, the fade of a cut) is folded
   back onto the start, so the loop point has no seam. At most MUSIC_MAX_SECONDS.

   Every mistake is an error naming path:line:col ("title.score:12:14: error: unknown
   instrument 'leed'"); nothing is rendered then and `perm` is unchanged. */
#ifndef MUSIC_H
#define MUSIC_H

#include <stdbool.h>

#include <strata/audio/sound.h>
#include <strata/core/arena.h>
#include <strata/core/error.h>
#include <strata/core/str8.h>

#define MUSIC_MAX_SECONDS 120
#define MUSIC_MAX_CHANNELS 4
#define MUSIC_FILE_MAX (1u << 20)

/* Renders score text into a looping mono Sound at AUDIO_RATE in `perm`. False with
   "path:line:col: error: ..." in err (perm unchanged on failure). */
bool st_music_render(Arena *perm, Str8 text, const char *path, Sound *out, Error *err);
/* Reads the file (st_os_read_file into scratch, at most MUSIC_FILE_MAX bytes) and renders it. */
bool st_music_load(Arena *perm, const char *path, Sound *out, Error *err);

#endif
