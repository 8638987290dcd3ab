/* asset_watch.h - textures, sounds and music reloaded while the program runs, when their
   files change on disk. No thread, no inotify: the caller polls, and a poll looks at every
   file (one stat(2) each, st_os_file_info) every ASSET_WATCH_EVERY frames.

       AssetWatch *aw = st_asset_watch_create(perm);
       Error err;
       Texture *tiles = st_asset_watch_texture(aw, rd, perm, "assets/tiles.png", 16, 16, &err);
       Sound shot;
       st_asset_watch_sound(aw, perm, "assets/sounds/shot.wav", st_sound_load, &shot, &err);
       Sound theme;                                            // music.h: the same shape
       st_asset_watch_sound(aw, perm, "assets/music/title.score", st_music_load, &theme, &err);
       st_asset_watch_set_mixer(aw, mixer);                    // the voices that may play them
       ...                                                     // every frame:
       st_asset_watch_poll(aw, frame);                         // reloads what changed
       ...
       st_asset_watch_release(aw);                             // after the audio device is closed

   A NULL watch loads once, as st_asset_load_texture and `load` do, into `perm`: a program
   with the watch off calls the same functions. The host makes one (host.h, --watch-assets).

   What the handles do. A Texture stays the same pointer: its new pixels are uploaded into
   the backend's texture behind it (st_render_texture_replace), so every draw through it
   shows them. A Sound is the caller's struct, rewritten in place on the game thread, so the
   next play takes the new samples; voices already playing the old ones are moved onto the
   new ones by the mixer (st_mixer_replace) at the same position.

   Where the memory is, and why it is bounded:
     - texture pixels are decoded in a scratch scope, uploaded, and the scope rewinds: a
       reload costs no arena bytes (the GPU/SDL texture holds the only copy);
     - a watched sound owns two arenas, its slots. The samples playing are in one; a reload
       clears the other, decodes into it, and swaps. The old slot is cleared only at the
       next reload, and only once the mixer says no voice reads it any more
       (st_mixer_applied), so a voice never reads freed memory and a sound never holds more
       than two versions, however often it is saved. Until the mixer has taken the last swap
       (an audio device that is paused), a change waits, and is taken at a later poll;
     - nothing is pushed on `perm` after start-up: the entries, paths and slot arenas are
       made when a file is first watched.

   A change that does not load (a truncated PNG, a WAV with a bad header, a file removed
   half-way through a save) keeps what was loaded before and is reported once, through
   core/diag.h as an error naming the file ("assets/tiles.png: cannot load image: ...;
   kept the one loaded before"); a file that disappears is a warning. The next change,
   the file fixed, loads. A reload is a note ("reloaded assets/tiles.png"), also sent to
   the notice function (the game's notice line). A change is a new modification time or
   size, as level/watch.h sees it, with the same blind spot (a save of the same size within
   one tick of a coarse file-system clock).

   Heap: a poll is stat(2) calls only. A reload of the same size uploads into the textures
   there (no allocation of ours); a texture whose size changed makes a new SDL/GL texture
   (the backend's allocation, that once). */
#ifndef ASSET_WATCH_H
#define ASSET_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/audio/mixer.h>
#include <strata/audio/sound.h>
#include <strata/core/arena.h>
#include <strata/core/error.h>
#include <strata/render/render.h>

#define ASSET_WATCH_MAX 64   /* files one watch follows */
#define ASSET_WATCH_EVERY 15 /* frames between two looks: four a second at 60 Hz */

/* st_sound_load and st_music_load have this shape. */
typedef bool (*AssetSoundLoad)(Arena *a, const char *path, Sound *out, Error *err);
typedef void (*AssetWatchNotice)(void *state, const char *line);

typedef struct AssetWatch AssetWatch;

typedef struct AssetWatchStats {
    uint32_t files;       /* watched */
    uint64_t looks;       /* polls that looked at the files */
    uint32_t reloads;     /* changes loaded */
    uint32_t failures;    /* changes that did not load (the old asset kept) */
    uint32_t waiting;     /* changes held until the mixer has let go of a sound's old slot */
    uint64_t sound_bytes; /* committed in the sounds' slot arenas now */
} AssetWatchStats;

/* A watch in `perm`; NULL when perm is full. */
AssetWatch *st_asset_watch_create(Arena *perm);
/* The mixer that plays the watched sounds (NULL: none plays them). Before the first poll. */
void st_asset_watch_set_mixer(AssetWatch *w, Mixer *mixer);
/* Who hears of a reload besides the log (a game's notice line); NULL: nobody. */
void st_asset_watch_set_notice(AssetWatch *w, AssetWatchNotice fn, void *state);

/* Loads the texture as st_asset_load_texture does and watches its file. NULL + err as
   there; a load that failed is not watched. The Texture lives in `perm`. */
Texture *st_asset_watch_texture(AssetWatch *w, Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h,
                                Error *err);
/* Loads the sound with `load` into its first slot and watches its file; the entry in
   `perm`. `out` must outlive the watch: reloads write it. False + err as `load`; the
   file is watched even then (frames 0: silence), so fixing it loads it. */
bool st_asset_watch_sound(AssetWatch *w, Arena *perm, const char *path, AssetSoundLoad load, Sound *out, Error *err);

/* Watches a sound whose first load is made elsewhere, later (music rendered on a thread
   after the first frame: music_worker.h): `out` is silent (frames 0) until
   st_asset_watch_sound_ready hands the result in, and a change of the file meanwhile waits
   for it. Reloads then go through `load`, as st_asset_watch_sound's. NULL w: nothing. */
bool st_asset_watch_sound_later(AssetWatch *w, Arena *perm, const char *path, AssetSoundLoad load, Sound *out,
                                Error *err);
/* Game thread: the later load's Sound into `out` (the one given to _later); its samples
   must outlive the watch. With no watch, or `out` not watched, *out = *s all the same. */
void st_asset_watch_sound_ready(AssetWatch *w, Sound *out, const Sound *s);

/* On every ASSET_WATCH_EVERY-th frame, looks at the files and reloads what changed (and
   what waited). The number of assets reloaded. */
uint32_t st_asset_watch_poll(AssetWatch *w, uint64_t frame);
/* Looks now, whatever the frame (tests, a "reload all" key). */
uint32_t st_asset_watch_check(AssetWatch *w);
AssetWatchStats st_asset_watch_stats(const AssetWatch *w);
/* The slot arenas. The mixer must not render the sounds any more (the device closed). */
void st_asset_watch_release(AssetWatch *w);

#endif
