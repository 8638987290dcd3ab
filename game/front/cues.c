/* cues.c - the game's sound (see cues.h). */
#include "front/cues.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <strata/audio/music.h>
#include <strata/core/base.h>
#include <strata/core/diag.h>

static const char *const SOUND_FILES[CUE_SOUND_COUNT] = {
    [CUE_SHOT] = "shot.wav",           [CUE_HIT] = "hit.wav",
    [CUE_HURT] = "hurt.wav",           [CUE_KILL] = "kill.wav",
    [CUE_COIN] = "coin.wav",           [CUE_KEY] = "key.wav",
    [CUE_HEART] = "heart.wav",         [CUE_DOOR] = "door.wav",
    [CUE_EXIT] = "exit.wav",           [CUE_DEATH] = "death.wav",
    [CUE_MENU_MOVE] = "menu_move.wav", [CUE_MENU_SELECT] = "menu_select.wav",
    [CUE_PORTAL] = "portal.wav",       [CUE_REWIND] = "rewind.wav",
};
static const char *const MUSIC_FILES[CUE_MUSIC_COUNT] = {
    [CUE_MUSIC_TITLE] = "title.score", [CUE_MUSIC_PLAY] = "play.score", [CUE_MUSIC_VICTORY] = "victory.score"};

const char *cues_sound_file(CueSound s) { return (unsigned)s < CUE_SOUND_COUNT ? SOUND_FILES[s] : "?"; }
const char *cues_music_file(CueMusic m) { return (unsigned)m < CUE_MUSIC_COUNT ? MUSIC_FILES[m] : "?"; }

/* One file: loaded now, or (worker) asked of the worker and watched for later. */
static void load_one(CueBank *b, Arena *perm, AssetWatch *watch, MusicWorker *worker, const char *path,
                     AssetSoundLoad load, int slot) {
    Sound *out = slot < CUE_SOUND_COUNT ? &b->sounds[slot] : &b->music[slot - CUE_SOUND_COUNT];
    Error err;
    int track = st_music_worker_add(worker, path, load);
    bool ok = track < 0 ? st_asset_watch_sound(watch, perm, path, load, out, &err)
                        : st_asset_watch_sound_later(watch, perm, path, load, out, &err);
    if (ok && track >= 0) b->later[slot] = track + 1;
    else if (ok) b->loaded++;
    else
        b->missing++, st_diag_report(DIAG_WARNING, "%s (that %s stays silent)", err.message,
                                     slot < CUE_SOUND_COUNT ? "sound" : "music");
}

void cues_load_later(CueBank *b, Arena *perm, AssetWatch *watch, const char *assets, MusicWorker *worker,
                     CueMusic first) {
    *b = (CueBank){0};
    uint64_t before = st_arena_pos(perm);
    char path[1024];
    for (int i = 0; i < CUE_SOUND_COUNT; i++) {
        snprintf(path, sizeof path, "%s/sounds/%s", assets, SOUND_FILES[i]);
        load_one(b, perm, watch, worker, path, st_sound_load, i);
    }
    if ((unsigned)first >= CUE_MUSIC_COUNT) first = CUE_MUSIC_TITLE;
    for (int k = 0; k < CUE_MUSIC_COUNT; k++) {
        int m = (first + k) % CUE_MUSIC_COUNT;
        snprintf(path, sizeof path, "%s/music/%s", assets, MUSIC_FILES[m]);
        load_one(b, perm, watch, worker, path, st_music_load, CUE_SOUND_COUNT + m);
    }
    /* The permanent arena may chain into a new block, so its position is not a byte count
       of what was pushed; but it only grows here, and that growth is the figure. */
    b->bytes = st_arena_pos(perm) - before + st_asset_watch_stats(watch).sound_bytes;
}

void cues_load(CueBank *b, Arena *perm, AssetWatch *watch, const char *assets) {
    cues_load_later(b, perm, watch, assets, NULL, CUE_MUSIC_TITLE);
}

int32_t cues_take_later(Cues *c, CueBank *b, MusicWorker *worker, AssetWatch *watch) {
    int32_t waiting = 0;
    for (int i = 0; i < CUE_SOUND_COUNT + CUE_MUSIC_COUNT; i++) {
        Sound s;
        Error err;
        if (!b->later[i]) continue;
        if (!st_music_worker_take(worker, b->later[i] - 1, &s, &err)) {
            waiting++;
            continue;
        }
        b->later[i] = 0;
        int m = i - CUE_SOUND_COUNT;
        st_asset_watch_sound_ready(watch, m < 0 ? &b->sounds[i] : &b->music[m], &s);
        if (!s.frames) {
            b->missing++;
            st_diag_report(DIAG_WARNING, "%s (that %s stays silent)", err.message, m < 0 ? "sound" : "music");
            continue;
        }
        b->loaded++;
        b->bytes += (uint64_t)s.frames * sizeof *s.samples;
        /* The mood that has waited for this track, with nothing playing: it starts now. */
        if (m >= 0 && c->mixer && c->music == m && !c->music_voice) c->music = -1;
    }
    return waiting;
}

void cues_init(Cues *c, Mixer *mixer, const CueBank *bank, uint64_t seed) {
    *c = (Cues){.mixer = mixer,
                .bank = bank,
                .rng = seed * 0x9E3779B97F4A7C15ull + 0x5EED,
                .music = -1,
                .screen = SCREEN_COUNT,
                .menu = -1,
                .music_volume = 1};
}

/* xorshift64*: the presentation's own numbers, never the simulation's. */
static uint32_t cue_rand(Cues *c) {
    uint64_t x = c->rng;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    c->rng = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/* A sound from a place in the world: panned by where it is across the view, quieter the
   further it is from the view's centre (full inside a 120 px radius, a quarter from 520 px
   on), and pitched within +-4% so a burst of shots does not sound like a machine. */
static void play_at(Cues *c, CueSound s, const DrawView *v, int32_t fx, int32_t fy, float volume, uint8_t priority) {
    const Sound *snd = &c->bank->sounds[s];
    if (snd->frames == 0) return;
    float x = (float)fx / FIX_ONE, y = (float)fy / FIX_ONE;
    float cx = v->cam.pos[0] + v->cam.size[0] / 2, cy = v->cam.pos[1] + v->cam.size[1] / 2;
    float dx = x - cx, dy = y - cy;
    float pan = CLAMP(dx / (v->cam.size[0] / 2), -1.0f, 1.0f) * 0.7f;
    float d = sqrtf(dx * dx + dy * dy);
    float gain = d <= 120 ? 1.0f : MAX(0.25f, 1.0f - (d - 120) / 533.0f);
    float pitch = 0.96f + (float)(cue_rand(c) % 81) / 1000.0f;
    st_mixer_play(c->mixer, &(MixerPlay){.sound = snd,
                                         .volume = volume * gain,
                                         .pan = pan,
                                         .pitch = pitch,
                                         .bus = AUDIO_BUS_EFFECTS,
                                         .priority = priority});
    c->plays++;
}

/* Interface sounds: centred, at their own pitch. */
static void play_ui(Cues *c, CueSound s) {
    const Sound *snd = &c->bank->sounds[s];
    if (snd->frames == 0) return;
    st_mixer_play(c->mixer,
                  &(MixerPlay){.sound = snd, .volume = 0.7f, .pitch = 1, .bus = AUDIO_BUS_EFFECTS, .priority = 200});
    c->plays++;
}

/* One sound per event kind; the priorities keep what matters to the player (being hurt,
   dying, the exit) when a fight fills every voice (mixer.h's stealing rule). */
static void play_event(Cues *c, const Sim *s, const SimEvent *e, const DrawView *v) {
    switch ((SimEventKind)e->kind) {
    case SIM_EV_SHOT: play_at(c, CUE_SHOT, v, e->x, e->y, 0.55f, 40); break;
    case SIM_EV_ENEMY_SHOT: play_at(c, CUE_SHOT, v, e->x, e->y, 0.4f, 30); break;
    case SIM_EV_HIT: play_at(c, CUE_HIT, v, e->x, e->y, 0.8f, 60); break;
    case SIM_EV_KILL: play_at(c, CUE_KILL, v, e->x, e->y, 0.9f, 90); break;
    case SIM_EV_HURT: play_at(c, CUE_HURT, v, e->x, e->y, 1.0f, 200); break;
    case SIM_EV_DEATH: play_at(c, CUE_DEATH, v, e->x, e->y, 1.0f, 250); break;
    case SIM_EV_PICKUP:
        play_at(c, e->a == PICKUP_COIN ? CUE_COIN : e->a == PICKUP_KEY ? CUE_KEY : CUE_HEART, v, e->x, e->y, 0.8f, 120);
        break;
    case SIM_EV_DOOR: play_at(c, CUE_DOOR, v, e->x, e->y, 0.9f, 120); break;
    case SIM_EV_EXIT: {
        /* The stairs and the last level's exit sound alike; a portal has its own. */
        int32_t tx = e->x / (TILE_PX * FIX_ONE), ty = e->y / (TILE_PX * FIX_ONE);
        bool portal = level_tile(&s->level, tx, ty) == TILE_PORTAL;
        play_at(c, portal ? CUE_PORTAL : CUE_EXIT, v, e->x, e->y, 1.0f, 220);
        break;
    }
    default: break; /* walls stop bullets quietly; arrivals are the music's business */
    }
}

static bool menu_screen(GameScreen s) {
    return s == SCREEN_TITLE || s == SCREEN_PAUSED || s == SCREEN_LEVEL_SELECT || s == SCREEN_SETTINGS;
}

static int32_t mood_of(const Game *g) {
    switch (g->screen) {
    case SCREEN_TITLE:
    case SCREEN_LEVEL_SELECT: return CUE_MUSIC_TITLE;
    case SCREEN_SETTINGS: return g->settings_from == SCREEN_TITLE ? CUE_MUSIC_TITLE : CUE_MUSIC_PLAY;
    case SCREEN_VICTORY: return CUE_MUSIC_VICTORY;
    default: return CUE_MUSIC_PLAY;
    }
}

/* A new loop fades in over the old one fading out: on a change of mood, and on a new level
   (the play loop starts again from its top for every room). */
static void crossfade_to(Cues *c, int32_t mood) {
    if (c->music_voice) st_mixer_stop(c->mixer, c->music_voice, CUE_CROSSFADE_SECONDS);
    c->music_voice = 0;
    c->music = mood;
    const Sound *m = &c->bank->music[mood];
    if (m->frames == 0) return;
    c->music_voice = st_mixer_play(c->mixer, &(MixerPlay){.sound = m,
                                                          .volume = 1,
                                                          .pitch = 1,
                                                          .bus = AUDIO_BUS_MUSIC,
                                                          .loop = true,
                                                          .priority = 255,
                                                          .fade_in = CUE_CROSSFADE_SECONDS});
}

/* Rewinding: the sound again every REWIND_CUE_EVERY ticks, pitched up with the speed. */
#define REWIND_CUE_EVERY 12

void cues_rewind(Cues *c, const Game *g, int32_t speed) {
    if (!c->mixer) return;
    c->event_serial = g->sim.events.serial;
    c->level_serial = g->sim.level_serial;
    if (c->rewinding++ == 0) st_mixer_set_volume(c->mixer, AUDIO_BUS_MUSIC, 0, 0.08f);
    const Sound *snd = &c->bank->sounds[CUE_REWIND];
    if (!speed || snd->frames == 0 || (c->rewinding - 1) % REWIND_CUE_EVERY != 0) return;
    float pitch = speed >= 4 ? 1.5f : speed >= 2 ? 1.25f : 1.0f;
    st_mixer_play(
        c->mixer,
        &(MixerPlay){.sound = snd, .volume = 0.6f, .pitch = pitch, .bus = AUDIO_BUS_EFFECTS, .priority = 230});
    c->plays++;
}

void cues_update(Cues *c, const Game *g, const DrawView *v) {
    if (!c->mixer) return; /* no sound: neither device nor --audio-out */
    if (c->rewinding) st_mixer_set_volume(c->mixer, AUDIO_BUS_MUSIC, c->music_volume, 0.3f);
    c->rewinding = 0;
    const Sim *s = &g->sim;
    /* Each event list once: a paused game's list does not change, and must not replay. */
    if (s->events.serial != c->event_serial) {
        c->event_serial = s->events.serial;
        for (int32_t i = 0; i < s->events.count; i++) play_event(c, s, &s->events.list[i], v);
    }
    /* Menus: a new row or a changed value ticks, leaving the screen is a choice. */
    const SaveSettings *st = &g->save.settings;
    bool value_changed = st->scale != c->settings.scale || st->fullscreen != c->settings.fullscreen ||
                         memcmp(st->volume, c->settings.volume, sizeof st->volume) != 0;
    if (c->screen != SCREEN_COUNT && menu_screen(c->screen)) {
        if (g->screen != c->screen) play_ui(c, CUE_MENU_SELECT);
        else if (g->menu != c->menu || value_changed) play_ui(c, CUE_MENU_MOVE);
    }
    c->screen = g->screen;
    c->menu = g->menu;
    c->settings = *st;
    int32_t mood = mood_of(g);
    bool new_level = s->level_serial != c->level_serial && mood == CUE_MUSIC_PLAY && c->music == CUE_MUSIC_PLAY;
    c->level_serial = s->level_serial;
    if (mood != c->music || new_level) crossfade_to(c, mood);
}

void cues_set_volumes(Cues *c, const SaveSettings *st, bool muted, bool ducked) {
    if (!c->mixer) return;
    float master = muted ? 0 : (float)st->volume[SAVE_VOLUME_MASTER] / 100 * (ducked ? CUE_DUCK : 1);
    st_mixer_set_volume(c->mixer, MIXER_MASTER, master, 0.15f);
    c->music_volume = (float)st->volume[SAVE_VOLUME_MUSIC] / 100;
    st_mixer_set_volume(c->mixer, AUDIO_BUS_MUSIC, c->rewinding ? 0 : c->music_volume, 0.05f);
    st_mixer_set_volume(c->mixer, AUDIO_BUS_EFFECTS, (float)st->volume[SAVE_VOLUME_EFFECTS] / 100, 0.05f);
}
