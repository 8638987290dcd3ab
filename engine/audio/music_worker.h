/* music_worker.h - music rendered on a thread of its own, after the first frame: a score
   costs tens of milliseconds of synthesis (music.h), which a window need not wait for to
   show its first picture; sound files may go the same way (st_sound_load). The thread is
   made at start-up and waits; the game lets it go once a frame is on screen, and takes
   each track as it is done.

       MusicWorker *mw = st_music_worker_create(perm);  // NULL: no thread, load the music at once
       int title = st_music_worker_add(mw, "assets/music/title.score", st_music_load);
       ...                                              // the first frame is shown
       st_music_worker_go(mw);
       ...                                              // every frame, on the game thread:
       Sound theme;
       Error err;
       if (st_music_worker_take(mw, title, &theme, &err)) play(theme);  // once, when done
       ...
       st_music_worker_release(mw);                     // after the audio device is closed

   Memory: the samples go in an arena of the worker's own (reserved at create, committed as
   the tracks are rendered); the scores' text and float mixes in the thread's own scratch
   arenas, released when it ends. Thread, semaphore and arena are made by create; after it
   nothing here touches the heap. The two threads share the results and one atomic count of
   the tracks done (written with release, read with acquire), nothing else: a track's Sound
   is never written again once counted, so the mixer may play it from any thread.
   Tracks are rendered in the order they were added; release stops the thread after the
   track it is on (the rest is never rendered) and waits for it. */
#ifndef MUSIC_WORKER_H
#define MUSIC_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/audio/sound.h>
#include <strata/core/arena.h>
#include <strata/core/error.h>

#define MUSIC_WORKER_TRACKS 32
#define MUSIC_WORKER_RESERVE (256ull << 20) /* address space for the samples of every track */

typedef struct MusicWorker MusicWorker;
/* st_music_load and st_sound_load have this shape; called on the worker's thread. */
typedef bool (*MusicWorkerLoad)(Arena *a, const char *path, Sound *out, Error *err);

/* The worker in `perm`, its arena and its waiting thread; NULL (reported) when any of them
   cannot be made, and the caller renders the music itself. */
MusicWorker *st_music_worker_create(Arena *perm);
/* Game thread, before go: a file to load with `load` (the path is copied); its index, or
   -1 when the worker is NULL, already going or full. */
int st_music_worker_add(MusicWorker *w, const char *path, MusicWorkerLoad load);
/* Game thread: start rendering; a second call does nothing. */
void st_music_worker_go(MusicWorker *w);
/* Game thread: true once track `i` is done, the first time only: *out is its Sound, or
   frames 0 and err the reason when it did not render. */
bool st_music_worker_take(MusicWorker *w, int i, Sound *out, Error *err);
/* Milliseconds from go to the end of track `i`'s render (0 while not done). */
uint32_t st_music_worker_ms(const MusicWorker *w, int i);
/* Game thread: waits until every track added is done (lets it go first). */
void st_music_worker_wait(MusicWorker *w);
/* Stops after the track being rendered, waits for the thread, releases the arena: the
   samples with it, so only once nothing plays them any more. NULL does nothing. */
void st_music_worker_release(MusicWorker *w);

#endif
