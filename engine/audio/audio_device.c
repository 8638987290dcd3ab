/* audio_device.c - SDL2 audio output driving a Mixer.

   SDL owns the audio thread and calls audio_callback from it with a buffer to fill. The
   Mixer pointer is handed over through an atomic (the game thread may start the device
   while SDL's thread is already looping); everything else the callback reads was written
   before the device was unpaused, which SDL does under the device's lock. */
#include "audio/audio_device.h"

#include <stdatomic.h>
#include <string.h>

#include <SDL2/SDL.h>

#include "core/diag.h"

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
    if (m) mixer_render(m, out, frames);
    else memset(stream, 0, (size_t)len);
    if (d->hook) d->hook(d->hook_user, out, frames, true);
}

AudioDevice *audio_device_open(Arena *perm) {
    AudioDevice *d = arena_push_struct(perm, AudioDevice);
    if (!d) {
        diag_report(DIAG_WARNING, "audio: no sound: %s", arena_last_error());
        return NULL;
    }
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
        diag_report(DIAG_WARNING, "audio: no sound: %s", SDL_GetError());
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
    d->id = SDL_OpenAudioDevice(NULL, 0, &want, &have,
                                SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_SAMPLES_CHANGE);
    if (d->id == 0) {
        diag_report(DIAG_WARNING, "audio: no sound: cannot open the output device: %s",
                    SDL_GetError());
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return NULL;
    }
    d->rate = (uint32_t)have.freq;
    d->frames = have.samples;
    return d;
}

uint32_t audio_device_rate(const AudioDevice *d) { return d ? d->rate : 0; }
uint32_t audio_device_buffer_frames(const AudioDevice *d) { return d ? d->frames : 0; }

void audio_device_set_hook(AudioDevice *d, AudioDeviceHook *fn, void *user) {
    if (!d || d->closed) return;
    SDL_LockAudioDevice(d->id); /* a hook is two words: never let the callback see half */
    d->hook = fn;
    d->hook_user = user;
    SDL_UnlockAudioDevice(d->id);
}

void audio_device_start(AudioDevice *d, Mixer *m) {
    if (!d || d->closed) return;
    atomic_store_explicit(&d->mixer, m, memory_order_release);
    SDL_PauseAudioDevice(d->id, 0);
}

bool audio_device_check(AudioDevice *d) {
    if (!d || d->closed || d->lost) return false;
    if (SDL_GetAudioDeviceStatus(d->id) != SDL_AUDIO_STOPPED) return true;
    d->lost = true;
    diag_report(DIAG_WARNING, "audio: the output device went away; playing silently");
    return false;
}

void audio_device_close(AudioDevice *d) {
    if (!d || d->closed) return;
    SDL_CloseAudioDevice(d->id); /* waits for the audio thread */
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    d->closed = true;
}
