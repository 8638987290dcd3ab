/* cues.h - what the game sounds like: one effect per simulation event, panned and
   attenuated by where it happened relative to the camera, with a little pitch variation;
   menu ticks; and music by mood (title, play, victory) with crossfades.

   Like effects.h it belongs to the front end (gamelib) and reads the Game without changing
   it: the sounds come from the event list the simulation already makes (Sim.events), the
   pitch variation from an RNG of its own seeded by the run, so nothing heard can change a
   replay's hash, and the same run always issues the same mixer commands at the same ticks
   (which is what makes `--audio-out` byte-identical across runs).

       CueBank bank;
       cues_load(&bank, perm, host->assets, "assets"); // sounds and music, watched (asset_watch.h)
       Cues cues;
       cues_init(&cues, mixer, &bank, seed);
       for (;;) {
           game_update(g, input);
           cues_update(&cues, g, &view);            // after every game_update
       }
       cues_set_volumes(&cues, &g->save.settings, muted, ducked);   // when any of them changes

   Memory: the CueBank's samples are decoded into the permanent arena, or with an asset
   watch into its slot arenas, where a changed file is decoded beside the old samples and
   swapped in (asset_watch.h; CueBank.bytes says how much the first load took). Samples are
   never written once decoded, so the audio thread reads them without a lock;
   Cues is plain data of fixed size, and the only thing shared with the audio thread is the
   mixer's command ring (audio/mixer.h). A missing or broken file is one warning and
   silence for that cue, never a failure to start. */
#ifndef CUES_H
#define CUES_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/asset/asset_watch.h>
#include <strata/audio/mixer.h>
#include <strata/audio/music_worker.h>
#include <strata/audio/sound.h>
#include "front/draw.h"
#include "rules/game.h"

typedef enum CueSound {
    CUE_SHOT,
    CUE_HIT,
    CUE_HURT,
    CUE_KILL,
    CUE_COIN,
    CUE_KEY,
    CUE_HEART,
    CUE_DOOR,
    CUE_EXIT,
    CUE_DEATH,
    CUE_MENU_MOVE,
    CUE_MENU_SELECT,
    CUE_PORTAL,
    CUE_REWIND, /* time running backwards (rules/rewind.h), again and again while it does */
    CUE_SOUND_COUNT
} CueSound;

typedef enum CueMusic { CUE_MUSIC_TITLE, CUE_MUSIC_PLAY, CUE_MUSIC_VICTORY, CUE_MUSIC_COUNT } CueMusic;

#define CUE_CROSSFADE_SECONDS 1.0f
#define CUE_DUCK 0.3f /* the master volume's share while the window is not focused */

typedef struct CueBank {
    Sound sounds[CUE_SOUND_COUNT]; /* frames 0: not loaded, plays nothing */
    Sound music[CUE_MUSIC_COUNT];
    uint64_t bytes; /* the samples and the arena bytes their first load took */
    int32_t loaded, missing;
    /* 1 + the worker's track of each sound, then each music loop; 0: loaded or not asked */
    int32_t later[CUE_SOUND_COUNT + CUE_MUSIC_COUNT];
} CueBank;

/* The file name of a cue under assets/sounds ("shot.wav") and of a mood under assets/music
   ("title.score"). */
const char *cues_sound_file(CueSound s);
const char *cues_music_file(CueMusic m);

/* Loads every sound and music loop from `assets`; what is missing or broken is reported as a
   warning and left silent. `watch` (NULL: none) reloads them when their files change; the
   bank must then outlive it. */
void cues_load(CueBank *b, Arena *perm, AssetWatch *watch, const char *assets);

/* As cues_load, but the files are left to `worker` (music_worker.h), which loads them after
   the first frame: the effects (a few milliseconds), the mood `first`, then the other
   moods. cues_take_later brings each into the bank when it is done; until then that sound
   or mood is silent. NULL worker: everything is loaded here, as by cues_load. */
void cues_load_later(CueBank *b, Arena *perm, AssetWatch *watch, const char *assets, MusicWorker *worker,
                     CueMusic first);

typedef struct Cues {
    Mixer *mixer;
    const CueBank *bank;
    uint64_t rng;
    uint32_t event_serial; /* the last SimEvents list played */
    int32_t music;         /* the mood playing, -1 none */
    VoiceId music_voice;
    uint32_t level_serial; /* a new level restarts the play music with a crossfade */
    GameScreen screen;     /* the menus' last state: a change is a tick or a choice */
    int32_t menu;
    SaveSettings settings; /* ... and its values, which tick when they change */
    uint64_t plays;        /* effects asked of the mixer so far */
    int32_t rewinding;     /* ticks the rewind has gone on (0: playing), for its sound */
    float music_volume;    /* the music bus's level as the settings have it (the rewind mutes it) */
} Cues;

void cues_init(Cues *c, Mixer *mixer, const CueBank *bank, uint64_t seed);
/* After every game_update: the new events' sounds, the menu's ticks, the mood's music. */
void cues_update(Cues *c, const Game *g, const DrawView *v);
/* Instead of cues_update on a tick that went back `speed` ticks (0: it stood at the oldest
   state): the music muted, the rewind sound repeated, higher the faster; the restored
   tick's events are not played. The next cues_update brings the music back. */
void cues_rewind(Cues *c, const Game *g, int32_t speed);
/* Game thread, every frame: what the worker has finished goes into the bank (and the
   watch), and the mood that waited for its track starts now, fading in as on a change of
   mood. The number of files still to come. */
int32_t cues_take_later(Cues *c, CueBank *b, MusicWorker *worker, AssetWatch *watch);
/* The settings' volumes (percent), times nothing when muted and CUE_DUCK when ducked. */
void cues_set_volumes(Cues *c, const SaveSettings *st, bool muted, bool ducked);

#endif
