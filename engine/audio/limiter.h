/* limiter.h - the master bus's true-peak limiter (its meter is true_peak.h).

   Peaks between samples: a DAC (or a resampler, or a lossy encoder) rebuilds the waveform
   between the samples, and it can rise above every sample, so a mix whose samples stay
   under full scale can still clip after them. "True peak" is that waveform's peak, in
   dBTP, measured on the signal oversampled 4 times with the interpolation filter of ITU-R
   BS.1770-4, Annex 2, and never below the samples' own peak (true_peak.h). The limiter
   keeps the mix under LIMITER_CEILING_DBTP
   of it: it looks LIMITER_LATENCY frames ahead, works out from the same oversampled
   signal the gain every coming peak needs, and glides down to it over LIMITER_ATTACK
   frames before the peak arrives (no click) and back up over about 50 ms after. Both
   channels get the same gain, so the stereo image does not move.

       Limiter lim;
       st_limiter_init(&lim, 48000);
       st_limiter_process(&lim, stereo, frames);     // in place; the output is LIMITER_LATENCY late

   Arithmetic only (no libm beyond the meter's log10 for dB): the same input gives the
   same output bits on every machine, as the mixer promises. No allocation; the state is a
   few KiB, kept in the Mixer. */
#ifndef LIMITER_H
#define LIMITER_H

#include <stdint.h>

#include <strata/audio/true_peak.h>

#define LIMITER_CEILING_DBTP (-1.0f)
#define LIMITER_ATTACK 48                                     /* frames to glide down to a peak's gain */
#define LIMITER_LATENCY (LIMITER_ATTACK + TRUE_PEAK_TAPS - 2) /* frames the output is late */
#define LIMITER_RING 64                                       /* > LIMITER_LATENCY, a power of two */

typedef struct Limiter {
    TruePeak detect;
    float delay[LIMITER_RING][2]; /* the input, waiting LIMITER_LATENCY frames */
    float need[LIMITER_RING];     /* the gain each oversampled step asks for (<= 1) */
    float hold[LIMITER_RING];     /* the attack's floor: the least need ahead, with release */
    float release;                /* gain recovered per frame, as a share of what is left */
    float held;                   /* hold[] of the frame before */
    int64_t frames;               /* frames taken in so far */
    int64_t need_low, hold_low;   /* the last frame whose need, and whose hold, was < 1 */
} Limiter;

void st_limiter_init(Limiter *l, uint32_t rate);
/* Limits `frames` interleaved stereo frames in place: frame i of the output is frame
   i - LIMITER_LATENCY of the input (silence before the first), scaled so that its true
   peak stays under the ceiling. */
void st_limiter_process(Limiter *l, float *stereo, uint32_t frames);

#endif
