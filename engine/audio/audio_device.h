/* audio_device.h - the sound card, through SDL2: a callback on SDL's audio thread that
   renders a Mixer into each buffer the device asks for.

       AudioDevice *dev = st_audio_device_create(perm);           // NULL: no sound, one warning
       Mixer *mx = st_mixer_create(perm, dev ? st_audio_device_rate(dev) : AUDIO_RATE);
       if (dev) st_audio_device_start(dev, mx);
       st_diag_report(DIAG_NOTE, "audio: %u frames at %u Hz", st_audio_device_buffer_frames(dev),
                   st_audio_device_rate(dev));                   // the latency, if you want it
       while (running) {
           st_audio_device_check(dev);                           // once per frame: hot-unplug
           st_mixer_play(mx, ...);                               // the game talks to the mixer only
       }
       st_audio_device_release(dev);

   The game never waits for the device and never shares memory with its thread except
   through the Mixer (see mixer.h). The callback makes no heap calls, takes no locks and
   touches no level or frame arena: only the Mixer, in perm, and the Sounds' samples.
   Every function accepts NULL for the device (a game without sound), doing nothing. */
#ifndef AUDIO_DEVICE_H
#define AUDIO_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/audio/mixer.h>
#include <strata/core/arena.h>

#define AUDIO_DEVICE_BUFFER 512 /* frames asked for: 10.7 ms at 48 kHz; the device may differ */

typedef struct AudioDevice AudioDevice;

/* Opens the default output (SDL_InitSubSystem(SDL_INIT_AUDIO)): 48 kHz or the device's own
   rate, stereo float (SDL converts when the hardware wants another format), a buffer of
   about AUDIO_DEVICE_BUFFER frames, paused until st_audio_device_start. NULL with ONE
   DIAG_WARNING (core/diag.h) when there is no device, "no sound device: playing silently",
   and nothing else on stderr (ALSA's own lines are silenced): the game plays silently. */
AudioDevice *st_audio_device_create(Arena *perm);
uint32_t st_audio_device_rate(const AudioDevice *d);          /* Hz; 0 for NULL */
uint32_t st_audio_device_buffer_frames(const AudioDevice *d); /* frames per callback; 0 for NULL */
/* The callback renders m from now on (NULL: silence). m must outlive the device's use of it. */
void st_audio_device_start(AudioDevice *d, Mixer *m);
/* Once per frame on the game thread: notices a device that went away (hot-plug: SDL marks
   it stopped, SDL_GetAudioDeviceStatus) and reports it once, as a warning; false while
   silent (the device is gone, or was never there). */
bool st_audio_device_check(AudioDevice *d);
/* Stops the callback (it is not running when this returns), closes the device and SDL's
   audio. The AudioDevice's memory stays in perm. */
void st_audio_device_release(AudioDevice *d);

/* Test hook, called on the audio thread at each callback, before the mix (mixed false)
   and after it (true), with the buffer; NULL removes it. Setting it takes the device lock.
   Tests use it to prove what the callback thread does (tests/audio/test_audio_device.c). */
typedef void AudioDeviceHook(void *user, const float *stereo, uint32_t frames, bool mixed);
void st_audio_device_set_hook(AudioDevice *d, AudioDeviceHook *fn, void *user);

#endif
