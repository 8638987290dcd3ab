/* test_audio_device: the SDL output end to end, on SDL's `disk` driver (it writes what
   the callback renders into a file in argv[2], at the pace of a real device) and `dummy`.
   1. A driver that does not exist: NULL and exactly one warning, and every function
      takes the NULL device.
   2. A looping sound through a Mixer for about a second: the file holds it, and the
      callback thread made no heap call. heap_count.h counts every thread, so the count
      is read at the start and the end of each callback, on the callback's thread, through
      the device's test hook, while the main thread sleeps. So that the test cannot pass
      by counting nothing, the first callbacks allocate on purpose inside that window and
      must be seen doing it. Under ASan (no counting) this part exits 77 at the end.
   3. A device that goes away (the disk driver writing into /dev/full is disconnected by
      SDL, as an unplugged card is): st_audio_device_check says so once, then stays false. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL2/SDL.h>

#include <strata/audio/audio_device.h>
#include "check.h"
#include "portable.h"
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include <strata/core/os_file.h>
#include "heap_count.h"

#define LOOP_FRAMES 10000 /* 100 periods of 480 Hz at 48 kHz: a seamless loop */
#define ON_PURPOSE 5      /* callbacks that allocate deliberately, first */
/* How long a wait for the audio thread may last before it is a hang: a guard, never the
   verdict (a loaded machine runs the device's thread late, not wrong). */
#define GUARD_MS (3 * 60 * 1000)

typedef struct Probe {
    _Atomic uint32_t callbacks, on_purpose_seen, frames;
    _Atomic uint64_t calls_in_windows; /* heap calls inside the windows of the other callbacks */
    _Atomic uint32_t peak_milli;       /* loudest mixed sample, x1000 */
    uint64_t at_start;                 /* written and read on the callback thread only */
} Probe;

static void probe_hook(void *user, const float *stereo, uint32_t frames, bool mixed) {
    Probe *p = user;
    uint32_t n = atomic_load(&p->callbacks);
    if (!mixed) {
        p->at_start = heap_calls;
        if (n < ON_PURPOSE) {
            void *volatile block = malloc(64); /* volatile: the pair must not be optimised away */
            free(block);
        }
        return;
    }
    uint64_t calls = heap_calls - p->at_start;
    if (n < ON_PURPOSE) atomic_fetch_add(&p->on_purpose_seen, calls >= 1);
    else atomic_fetch_add(&p->calls_in_windows, calls);
    float peak = 0;
    for (uint32_t i = 0; i < 2 * frames; i++) peak = fmaxf(peak, fabsf(stereo[i]));
    if ((uint32_t)(peak * 1000) > atomic_load(&p->peak_milli))
        atomic_store(&p->peak_milli, (uint32_t)(peak * 1000));
    atomic_fetch_add(&p->frames, frames);
    atomic_fetch_add(&p->callbacks, 1);
}

static Arena *perm;
static int skip_heap; /* part 2 could not count: exit 77 once the rest has passed */

static void test_no_driver(void) {
    setenv("SDL_AUDIODRIVER", "no-such-driver", 1);
    DiagCapture cap;
    st_diag_capture_begin(&cap, perm);
    AudioDevice *d = st_audio_device_create(perm);
    st_diag_capture_end(&cap);
    CHECK(d == NULL);
    CHECK_EQ_U(cap.count, 1);
    CHECK_EQ_U(cap.of[DIAG_WARNING], 1);
    if (cap.first) {
        printf("no driver: %s\n", cap.first->d.text);
        CHECK(strcmp(cap.first->d.text, "no sound device: playing silently") == 0);
    }
    CHECK(!st_audio_device_check(NULL));
    CHECK_EQ_U(st_audio_device_rate(NULL), 0);
    CHECK_EQ_U(st_audio_device_buffer_frames(NULL), 0);
    st_audio_device_start(NULL, NULL);
    st_audio_device_set_hook(NULL, NULL, NULL);
    st_audio_device_release(NULL);
}

/* No sound card, through ALSA (the driver SDL ends on where there is none): the one short
   warning, and not a line of ALSA's own on stderr, which is caught here in a file. On a
   machine with a card the device opens and there is nothing to see. */
static void test_no_card(void) {
    setenv("SDL_AUDIODRIVER", "alsa", 1);
    char path[] = "/tmp/test_audio_stderr_XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    REQUIRE_VOID(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    DiagCapture cap;
    st_diag_capture_begin(&cap, perm);
    AudioDevice *d = st_audio_device_create(perm);
    st_diag_capture_end(&cap);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[4096] = "";
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    close(fd);
    unlink(path);
    text[n > 0 ? n : 0] = '\0';
    if (d) {
        printf("no card: skipped, this machine has a sound device\n");
        st_audio_device_release(d);
        return;
    }
    if (text[0]) fprintf(stderr, "stderr while opening:\n%s", text);
    CHECK(text[0] == '\0');
    CHECK_EQ_U(cap.count, 1);
    if (cap.first) {
        printf("no card: %s\n", cap.first->d.text);
        CHECK(strcmp(cap.first->d.text, "no sound device: playing silently") == 0 ||
              strncmp(cap.first->d.text, "cannot open the sound device (", 30) == 0);
    }
}

static void test_playback(const char *out_dir, const Sound *loop) {
    char path[1100];
    snprintf(path, sizeof path, "%s/test_audio_device.raw", out_dir);
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", path, 1);
    AudioDevice *d = st_audio_device_create(perm);
    REQUIRE_VOID(d);
    uint32_t rate = st_audio_device_rate(d), frames = st_audio_device_buffer_frames(d);
    printf("disk device: %u Hz, %u frames a buffer = %.1f ms of latency\n", rate, frames,
           1000.0 * frames / rate);
    CHECK(rate >= 8000 && frames >= 64 && frames <= 4096);
    Mixer *m = st_mixer_create(perm, rate);
    REQUIRE_VOID(m);
    static Probe probe;
    st_audio_device_set_hook(d, probe_hook, &probe);
    st_mixer_play(m, &(MixerPlay){.sound = loop, .volume = 1, .loop = true, .bus = AUDIO_BUS_MUSIC});
    uint64_t all_threads = heap_calls;
    st_audio_device_start(d, m);
    CHECK(st_audio_device_check(d));
    /* About a second of buffers, however long the device's thread takes to deliver them. */
    for (uint64_t until = SDL_GetTicks64() + GUARD_MS; atomic_load(&probe.callbacks) < 20 && SDL_GetTicks64() < until;)
        SDL_Delay(10);
    CHECK(st_audio_device_check(d));
    all_threads = heap_calls - all_threads;
    st_audio_device_release(d);
    uint32_t callbacks = atomic_load(&probe.callbacks);
    printf("callbacks: %u (%u frames), loudest sample %.3f; heap calls: %u of %d deliberate ones "
           "seen, %llu in the "
           "other %u callbacks\n",
           callbacks, atomic_load(&probe.frames), atomic_load(&probe.peak_milli) / 1000.0,
           atomic_load(&probe.on_purpose_seen), ON_PURPOSE,
           (unsigned long long)atomic_load(&probe.calls_in_windows),
           callbacks > ON_PURPOSE ? callbacks - ON_PURPOSE : 0);
    /* The buffers waited for, and the sine at its level, sqrt(1/2) of 0.5 on each side. */
    CHECK(callbacks >= 20);
    CHECK(atomic_load(&probe.peak_milli) >= 340 && atomic_load(&probe.peak_milli) <= 360);
    if (HEAP_COUNT) {
        /* For the record: the whole process during that second, SDL's own thread included. */
        printf("heap calls of every thread during the second: %llu (%d on purpose)\n",
               (unsigned long long)all_threads, ON_PURPOSE);
        CHECK_EQ_U(atomic_load(&probe.on_purpose_seen), ON_PURPOSE);
        CHECK_EQ_U(atomic_load(&probe.calls_in_windows), 0);
    } else {
        skip_heap = 1;
    }
    /* What reached the "device": the same stereo float the callback saw. */
    SCRATCH_SCOPE(tmp, perm);
    Str8 raw;
    REQUIRE_VOID(st_os_read_file(tmp.arena, path, 64 << 20, &raw, NULL));
    uint64_t n = raw.len / sizeof(float);
    const float *f = (const float *)raw.data;
    float peak = 0;
    for (uint64_t i = 0; i < n; i++) peak = fmaxf(peak, fabsf(f[i]));
    printf("disk file: %llu frames, peak %.3f\n", (unsigned long long)(n / 2), peak);
    CHECK(n / 2 >= 20ull * frames);
    CHECK(fabsf(peak - atomic_load(&probe.peak_milli) / 1000.0f) < 0.002f);
    if (n > 2) CHECK(f[0] == f[1]); /* centred: the same on both sides */
    st_os_remove(path);
}

static void test_device_lost(const Sound *loop) {
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", "/dev/full", 1);
    DiagCapture cap;
    st_diag_capture_begin(&cap, perm);
    AudioDevice *d = st_audio_device_create(perm);
    if (!d) {
        st_diag_capture_end(&cap);
        printf("cannot open the disk driver on /dev/full here; device loss not tested\n");
        return;
    }
    Mixer *m = st_mixer_create(perm, st_audio_device_rate(d));
    st_mixer_play(m, &(MixerPlay){.sound = loop, .volume = 1, .loop = true});
    /* No check before the start: SDL's disk driver writes (silence) from the open on, so on
       /dev/full the device may already be gone; what matters is that it is noticed once. */
    st_audio_device_start(d, m);
    bool gone = false;
    for (uint64_t until = SDL_GetTicks64() + GUARD_MS; !gone && SDL_GetTicks64() < until;) {
        SDL_Delay(10);
        gone = !st_audio_device_check(d);
    }
    CHECK(gone);
    CHECK(!st_audio_device_check(d)); /* still silent, and not said twice */
    CHECK(!st_audio_device_check(d));
    st_audio_device_release(d);
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.count, 1);
    CHECK_EQ_U(cap.of[DIAG_WARNING], 1);
    if (cap.first) printf("device lost: %s\n", cap.first->d.text);
}

static void test_dummy(const Sound *loop) {
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    AudioDevice *d = st_audio_device_create(perm);
    REQUIRE_VOID(d);
    Mixer *m = st_mixer_create(perm, st_audio_device_rate(d));
    st_mixer_play(m, &(MixerPlay){.sound = loop, .volume = 1, .loop = true});
    st_audio_device_start(d, m);
    SDL_Delay(100);
    CHECK(st_audio_device_check(d));
    st_audio_device_release(d);
    st_audio_device_release(d); /* twice is harmless */
    CHECK(!st_audio_device_check(d));
}

int main(int argc, char **argv) {
    REQUIRE(argc == 3);
    perm = st_arena_create((ArenaParams){.name = "perm"});
    REQUIRE(perm);
    int16_t *pcm = st_arena_push_array(perm, int16_t, LOOP_FRAMES);
    for (int i = 0; i < LOOP_FRAMES; i++)
        pcm[i] = (int16_t)lrintf(16384 * sinf(6.2831853f * (float)(i % 100) / 100));
    Sound loop = {pcm, LOOP_FRAMES};
    test_no_driver();
    test_no_card();
    test_playback(argv[2], &loop);
    test_device_lost(&loop);
    test_dummy(&loop);
    st_arena_release(perm);
    if (check_failures_) return check_result();
    if (skip_heap) {
        printf("skip: the heap count of the callback thread needs heap_count.h, which is off under "
               "ASan\n");
        return 77;
    }
    return 0;
}
