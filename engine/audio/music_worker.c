/* music_worker.c - scores rendered on a thread after the first frame (see music_worker.h). */
#include <strata/audio/music_worker.h>

#include <SDL2/SDL_mutex.h>
#include <SDL2/SDL_thread.h>
#include <SDL2/SDL_timer.h>
#include <stdatomic.h>

#include <strata/core/diag.h>

typedef struct MusicTrack {
    const char *path;
    MusicWorkerLoad load;
    Sound sound;
    Error err;
    uint32_t ms;
    bool taken;
} MusicTrack;

struct MusicWorker {
    Arena *samples;
    SDL_Thread *thread;
    SDL_sem *go;
    bool going;
    atomic_bool stop;
    atomic_int done; /* tracks[0, done) are rendered: release on the worker, acquire here */
    int count;
    uint64_t go_ms;
    MusicTrack tracks[MUSIC_WORKER_TRACKS];
};

static int worker_main(void *data) {
    MusicWorker *w = data;
    SDL_SemWait(w->go);
    for (int i = 0; i < w->count && !atomic_load(&w->stop); i++) {
        MusicTrack *t = &w->tracks[i];
        if (!t->load(w->samples, t->path, &t->sound, &t->err)) t->sound = (Sound){0};
        t->ms = (uint32_t)(SDL_GetTicks64() - w->go_ms);
        atomic_store_explicit(&w->done, i + 1, memory_order_release);
    }
    return 0;
}

MusicWorker *st_music_worker_create(Arena *perm) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    (void)perm;
    return NULL; /* no threads in this build: the caller renders up front, as it always did */
#endif
    MusicWorker *w = st_arena_push_struct(perm, MusicWorker);
    if (!w) return NULL;
    w->samples = st_arena_create((ArenaParams){.reserve_size = MUSIC_WORKER_RESERVE, .name = "music"});
    w->go = w->samples ? SDL_CreateSemaphore(0) : NULL;
    w->thread = w->go ? SDL_CreateThread(worker_main, "music", w) : NULL;
    if (w->thread) return w;
    st_diag_report(DIAG_WARNING, "music: no thread to render it on (%s); rendered before the first frame",
                   w->samples ? SDL_GetError() : "no arena for its samples");
    if (w->go) SDL_DestroySemaphore(w->go);
    if (w->samples) st_arena_release(w->samples);
    return NULL;
}

int st_music_worker_add(MusicWorker *w, const char *path, MusicWorkerLoad load) {
    if (!w || w->going || w->count == MUSIC_WORKER_TRACKS) return -1;
    /* The worker's arena, not perm: the thread reads it, and perm grows on this one. */
    const char *copy = st_arena_strdup(w->samples, path);
    if (!copy) return -1;
    w->tracks[w->count] = (MusicTrack){.path = copy, .load = load};
    return w->count++;
}

void st_music_worker_go(MusicWorker *w) {
    if (!w || w->going) return;
    w->going = true;
    w->go_ms = SDL_GetTicks64();
    SDL_SemPost(w->go);
}

bool st_music_worker_take(MusicWorker *w, int i, Sound *out, Error *err) {
    if (!w || i < 0 || i >= atomic_load_explicit(&w->done, memory_order_acquire) || w->tracks[i].taken) return false;
    MusicTrack *t = &w->tracks[i];
    t->taken = true;
    *out = t->sound;
    *err = t->err;
    return true;
}

uint32_t st_music_worker_ms(const MusicWorker *w, int i) {
    return w && i >= 0 && i < atomic_load_explicit(&((MusicWorker *)w)->done, memory_order_acquire) ? w->tracks[i].ms
                                                                                                    : 0;
}

void st_music_worker_wait(MusicWorker *w) {
    if (!w) return;
    st_music_worker_go(w);
    while (atomic_load_explicit(&w->done, memory_order_acquire) < w->count) SDL_Delay(1);
}

void st_music_worker_release(MusicWorker *w) {
    if (!w || !w->thread) return;
    atomic_store(&w->stop, true);
    if (!w->going) SDL_SemPost(w->go); /* it waits there: let it see the stop */
    SDL_WaitThread(w->thread, NULL);
    SDL_DestroySemaphore(w->go);
    st_arena_release(w->samples);
    w->thread = NULL;
}
