/* true_peak.h - the true-peak meter of ITU-R BS.1770-4, Annex 2: the waveform's peak
   between the samples (where a DAC, a resampler or an encoder rebuilds it, and where it can
   rise above every sample), measured on the stream oversampled 4 times with the standard's
   48-tap filter, and never below the samples' own peak. The limiter (limiter.h) keeps the
   mix under a ceiling in these units; tests and the offline mix measure with it.

       TruePeak tp;
       st_true_peak_init(&tp);
       st_true_peak_feed(&tp, stereo, frames);       // as many calls as it takes
       float dbtp = st_true_peak_dbtp(&tp);          // -INFINITY for silence

   Arithmetic only, but for the log10 of the dB figure. No allocation. */
#ifndef TRUE_PEAK_H
#define TRUE_PEAK_H

#include <stdint.h>

#define TRUE_PEAK_TAPS 12 /* per phase of the 4x interpolation filter */

/* The 4x interpolation of one stereo stream, a frame at a time: the history it needs. */
typedef struct TruePeak {
    float history[2][TRUE_PEAK_TAPS]; /* the last frames, newest first */
    float peak;                       /* the largest |value| so far, linear */
} TruePeak;

void st_true_peak_init(TruePeak *m);
/* One frame in; the largest |value| of the four oversampled steps it completes. */
float st_true_peak_step(TruePeak *m, float l, float r);
void st_true_peak_feed(TruePeak *m, const float *stereo, uint32_t frames);
void st_true_peak_feed_s16(TruePeak *m, const int16_t *stereo, uint64_t frames);
float st_true_peak_dbtp(const TruePeak *m);

#endif
