/* asset_watch.c - polling asset files and reloading them behind their handles (see
   asset_watch.h). */
#include <strata/asset/asset_watch.h>

#include <stdio.h>
#include <string.h>

#include <strata/asset/asset.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>

typedef enum AssetKind { ASSET_TEXTURE, ASSET_SOUND } AssetKind;

typedef struct AssetEntry {
    AssetKind kind;
    const char *path;
    OsFileStamp stamp; /* the file at the last look */
    bool pending;      /* a change seen and not taken yet (the mixer holds the spare slot) */
    bool later;        /* the first load is still being made elsewhere (_sound_later) */
    Texture *tex;
    Renderer *rd; /* the texture's */
    Sound *sound;
    AssetSoundLoad load;
    Arena *slot[2]; /* the sound's samples: slot[live] plays, the other is the spare */
    int live;
    uint32_t ticket; /* the mixer's word for the last swap: the spare is free once applied */
} AssetEntry;

struct AssetWatch {
    Mixer *mixer;
    AssetWatchNotice notice;
    void *notice_state;
    AssetEntry entries[ASSET_WATCH_MAX];
    uint32_t count;
    uint64_t looks;
    uint32_t reloads, failures;
};

AssetWatch *st_asset_watch_create(Arena *perm) { return st_arena_push_struct(perm, AssetWatch); }

void st_asset_watch_set_mixer(AssetWatch *w, Mixer *mixer) {
    if (w) w->mixer = mixer;
}

void st_asset_watch_set_notice(AssetWatch *w, AssetWatchNotice fn, void *state) {
    if (w) w->notice = fn, w->notice_state = state;
}

/* Looks at the file now; true when it changed since the last look (st_os_file_changed),
   and a warning when it has gone. */
static bool entry_look(AssetEntry *e) {
    bool existed = e->stamp.kind == OS_FILE_REGULAR, changed = st_os_file_changed(e->path, &e->stamp);
    if (existed && e->stamp.kind != OS_FILE_REGULAR)
        st_diag_report(DIAG_WARNING, "%s: gone (%s); kept the one loaded before", e->path,
                       e->stamp.kind == OS_FILE_NONE ? "no such file" : "not a regular file");
    return changed;
}

/* A new entry for `path`, its file as it is now; NULL when the watch or perm is full. */
static AssetEntry *entry_add(AssetWatch *w, Arena *perm, AssetKind kind, const char *path, Error *err) {
    const char *copy = w->count < ASSET_WATCH_MAX ? st_arena_strdup(perm, path) : NULL;
    if (!copy) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, path, 0, 0, "cannot watch: %s",
                     w->count < ASSET_WATCH_MAX ? "no memory for its path" : "the watch is full");
        return NULL;
    }
    AssetEntry *e = &w->entries[w->count++];
    *e = (AssetEntry){.kind = kind, .path = copy};
    entry_look(e);
    return e;
}

Texture *st_asset_watch_texture(AssetWatch *w, Renderer *rd, Arena *perm, const char *path, int cell_w, int cell_h,
                                Error *err) {
    Texture *t = st_asset_load_texture(rd, perm, path, cell_w, cell_h, err);
    if (!t || !w) return t;
    AssetEntry *e = entry_add(w, perm, ASSET_TEXTURE, path, err);
    if (!e) return NULL;
    e->tex = t;
    e->rd = rd;
    return t;
}

/* The entry and its two slot arenas; NULL (err) when they cannot be made. */
static AssetEntry *sound_entry(AssetWatch *w, Arena *perm, const char *path, AssetSoundLoad load, Sound *out,
                               Error *err) {
    AssetEntry *e = entry_add(w, perm, ASSET_SOUND, path, err);
    if (!e) return false;
    e->sound = out;
    e->load = load;
    /* Chaining arenas: a reserve sized for the file as it is, and a longer one later goes
       on in a further block, unmapped again by the clear before the next reload. */
    uint64_t reserve = st_arena_recommend_reserve(e->stamp.size * 2 + (256u << 10));
    for (int i = 0; i < 2; i++) {
        e->slot[i] = st_arena_create((ArenaParams){.reserve_size = reserve, .name = "sound slot"});
        if (!e->slot[i]) {
            w->count--;
            if (i) st_arena_release(e->slot[0]);
            st_error_set(err, ERROR_OUT_OF_MEMORY, path, 0, 0, "cannot watch: no arena for its samples");
            return NULL;
        }
    }
    return e;
}

bool st_asset_watch_sound(AssetWatch *w, Arena *perm, const char *path, AssetSoundLoad load, Sound *out, Error *err) {
    *out = (Sound){0};
    if (!w) return load(perm, path, out, err);
    AssetEntry *e = sound_entry(w, perm, path, load, out, err);
    return e && load(e->slot[0], path, out, err);
}

bool st_asset_watch_sound_later(AssetWatch *w, Arena *perm, const char *path, AssetSoundLoad load, Sound *out,
                                Error *err) {
    *out = (Sound){0};
    if (!w) return true;
    AssetEntry *e = sound_entry(w, perm, path, load, out, err);
    if (e) e->later = true;
    return e != NULL;
}

void st_asset_watch_sound_ready(AssetWatch *w, Sound *out, const Sound *s) {
    *out = *s;
    for (uint32_t i = 0; w && i < w->count; i++)
        if (w->entries[i].sound == out) w->entries[i].later = false;
}

static void watch_said(AssetWatch *w, const char *path) {
    char line[1100];
    snprintf(line, sizeof line, "reloaded %s", path);
    st_diag_report(DIAG_NOTE, "%s", line);
    if (w->notice) w->notice(w->notice_state, line);
    w->reloads++;
}

static void watch_failed(AssetWatch *w, const Error *err) {
    st_diag_report(DIAG_ERROR, "%s; kept the one loaded before", err->message);
    w->failures++;
}

static bool reload_texture(AssetWatch *w, AssetEntry *e) {
    Error err;
    uint8_t *px;
    int pw, ph;
    SCRATCH_SCOPE(tmp);
    if (!st_asset_load_rgba(tmp.arena, e->path, &px, &pw, &ph, &err)) {
        watch_failed(w, &err);
        return false;
    }
    TextureInfo now = st_render_texture_info(e->tex);
    if (!st_asset_check_sheet(e->path, pw, ph, now.cell_w, now.cell_h, &err)) {
        watch_failed(w, &err);
        return false;
    }
    if (!st_render_texture_replace(e->rd, e->tex, px, pw, ph)) { /* the renderer said why */
        w->failures++;
        return false;
    }
    watch_said(w, e->path);
    return true;
}

/* Into the spare slot, then swapped in; the mixer moves the voices over. False while the
   mixer still holds the spare (e->pending stays: a later look takes it). */
static bool reload_sound(AssetWatch *w, AssetEntry *e) {
    if (!st_mixer_applied(w->mixer, e->ticket)) return false;
    e->ticket = 0;
    Arena *spare = e->slot[!e->live];
    st_arena_clear(spare);
    Sound fresh;
    Error err;
    e->pending = false;
    if (!e->load(spare, e->path, &fresh, &err)) {
        st_arena_clear(spare);
        watch_failed(w, &err);
        return false;
    }
    uint32_t ticket = 0;
    if (w->mixer && e->sound->samples) {
        ticket = st_mixer_replace(w->mixer, e->sound->samples, &fresh);
        if (!ticket) { /* the ring is full this frame: again at the next look */
            st_arena_clear(spare);
            e->pending = true;
            return false;
        }
    }
    *e->sound = fresh;
    e->live = !e->live;
    e->ticket = ticket;
    watch_said(w, e->path);
    return true;
}

uint32_t st_asset_watch_check(AssetWatch *w) {
    if (!w) return 0;
    uint32_t done = 0;
    w->looks++;
    for (uint32_t i = 0; i < w->count; i++) {
        AssetEntry *e = &w->entries[i];
        if (entry_look(e)) e->pending = true;
        if (!e->pending || e->later) continue;
        if (e->kind == ASSET_TEXTURE) {
            e->pending = false;
            done += reload_texture(w, e);
        } else {
            done += reload_sound(w, e);
        }
    }
    return done;
}

uint32_t st_asset_watch_poll(AssetWatch *w, uint64_t frame) {
    return w && frame % ASSET_WATCH_EVERY == 0 ? st_asset_watch_check(w) : 0;
}

AssetWatchStats st_asset_watch_stats(const AssetWatch *w) {
    AssetWatchStats s = {0};
    if (!w) return s;
    s = (AssetWatchStats){.files = w->count, .looks = w->looks, .reloads = w->reloads, .failures = w->failures};
    for (uint32_t i = 0; i < w->count; i++) {
        const AssetEntry *e = &w->entries[i];
        s.waiting += e->pending;
        for (int k = 0; k < 2; k++)
            if (e->slot[k]) s.sound_bytes += st_arena_stats(e->slot[k]).committed;
    }
    return s;
}

void st_asset_watch_release(AssetWatch *w) {
    if (!w) return;
    for (uint32_t i = 0; i < w->count; i++) {
        AssetEntry *e = &w->entries[i];
        for (int k = 0; k < 2; k++)
            if (e->slot[k]) st_arena_release(e->slot[k]);
        if (e->sound) *e->sound = (Sound){0};
        e->slot[0] = e->slot[1] = NULL;
    }
    w->count = 0;
}
