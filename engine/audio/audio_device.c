/* audio_device.c - SDL2 audio output driving a Mixer.

   SDL owns the audio thread and calls audio_callback from it with a buffer to fill. The
   Mixer pointer is handed over through an atomic (the game thread may start the device
   while SDL's thread is already looping); everything else the callback reads was written
   before the device was unpaused, which SDL does under the device's lock. */
#include <strata/audio/audio_device.h>

#include <stdatomic.h>
#include <string.h>

#include <SDL2/SDL.h>

#include <strata/core/diag.h>

struct AudioDevice {
    SDL_AudioDeviceID id;
    uint32_t rate, frames;
    bool lost, closed;
    _Atomic(Mixer *) mixer;
    AudioDeviceHook *hook;
    void *hook_user;
};

static void audio_callback(void *user, Uint8 *stream, int len) {
    AudioDevice *d = user;
    float *out = (float *)stream;
    uint32_t frames = (uint32_t)len / (2 * sizeof(float));
    if (d->hook) d->hook(d->hook_user, out, frames, false);
    Mixer *m = atomic_load_explicit(&d->mixer, memory_order_acquire);
    if (m) st_mixer_render(m, out, frames);
    else memset(stream, 0, (size_t)len);
    if (d->hook) d->hook(d->hook_user, out, frames, true);
}

/* ALSA reports on stderr itself, before SDL hears of it: a machine without a sound card
   gets eight lines of "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" and the
   like, then SDL's own error. Its error handler is one per process, so it is set here, on
   the library SDL is about to load, to one that prints nothing: SDL's error is the one
   that says what happened. */
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
typedef void AudioAlsaHandler(const char *file, int line, const char *function, int err, const char *fmt, ...);
static void audio_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file, (void)line, (void)function, (void)err, (void)fmt;
}
#endif

static void audio_quiet_alsa(void) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
    static bool done; /* start-up, on the game thread */
    if (done) return;
    done = true;
    void *lib = SDL_LoadObject("libasound.so.2"); /* kept: the handler must outlive SDL's use */
    void *fn = lib ? SDL_LoadFunction(lib, "snd_lib_error_set_handler") : NULL;
    if (!fn) {
        SDL_ClearError(); /* no ALSA, nothing to quiet */
        return;
    }
    int (*set_handler)(AudioAlsaHandler *);
    memcpy(&set_handler, &fn, sizeof fn); /* object to function pointer, defined by POSIX */
    set_handler(audio_alsa_quiet);
#endif
}

/* One line, the same on the log and the HUD, whatever the driver said: a game without a
   sound card is not an error. The driver's words only when there are devices and the
   default one still failed, which a player can do something about. */
static void audio_no_device(const char *why) {
    if (SDL_WasInit(SDL_INIT_AUDIO) && SDL_GetNumAudioDevices(0) > 0)
        st_diag_report(DIAG_WARNING, "cannot open the sound device (%s): playing silently", why);
    else st_diag_report(DIAG_WARNING, "no sound device: playing silently");
}

AudioDevice *st_audio_device_create(Arena *perm) {
    AudioDevice *d = st_arena_push_struct(perm, AudioDevice);
    if (!d) {
        Error why;
        st_error_warn(&why, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "audio: no sound: ");
        st_arena_error(&why);
        st_error_report(&why);
        return NULL;
    }
    audio_quiet_alsa();
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
        audio_no_device(SDL_GetError());
        return NULL;
    }
    SDL_AudioSpec want = {.freq = AUDIO_RATE,
                          .format = AUDIO_F32SYS,
                          .channels = 2,
                          .samples = AUDIO_DEVICE_BUFFER,
                          .callback = audio_callback,
                          .userdata = d};
    SDL_AudioSpec have;
    /* The device's own rate is better than SDL resampling ours: the mixer resamples anyway.
       The format and channels stay ours, converted by SDL if the hardware differs, so the
       callback always writes stereo float. */
    d->id =
        SDL_OpenAudioDevice(NULL, 0, &want, &have, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_SAMPLES_CHANGE);
    if (d->id == 0) {
        audio_no_device(SDL_GetError());
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return NULL;
    }
    d->rate = (uint32_t)have.freq;
    d->frames = have.samples;
    return d;
}

uint32_t st_audio_device_rate(const AudioDevice *d) { return d ? d->rate : 0; }
uint32_t st_audio_device_buffer_frames(const AudioDevice *d) { return d ? d->frames : 0; }

void st_audio_device_set_hook(AudioDevice *d, AudioDeviceHook *fn, void *user) {
    if (!d || d->closed) return;
    SDL_LockAudioDevice(d->id); /* a hook is two words: never let the callback see half */
    d->hook = fn;
    d->hook_user = user;
    SDL_UnlockAudioDevice(d->id);
}

void st_audio_device_start(AudioDevice *d, Mixer *m) {
    if (!d || d->closed) return;
    atomic_store_explicit(&d->mixer, m, memory_order_release);
    SDL_PauseAudioDevice(d->id, 0);
}

bool st_audio_device_check(AudioDevice *d) {
    if (!d || d->closed || d->lost) return false;
    if (SDL_GetAudioDeviceStatus(d->id) != SDL_AUDIO_STOPPED) return true;
    d->lost = true;
    st_diag_report(DIAG_WARNING, "audio: the output device went away; playing silently");
    return false;
}

void st_audio_device_release(AudioDevice *d) {
    if (!d || d->closed) return;
    SDL_CloseAudioDevice(d->id); /* waits for the audio thread */
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    d->closed = true;
}
