/* true_peak.c - BS.1770-4's 4x interpolation, one frame at a time (see true_peak.h). */
#include <strata/audio/true_peak.h>

#include <math.h>
#include <string.h>

/* ITU-R BS.1770-4, Annex 2: the 48-tap interpolation filter as its four phases. */
static const float true_peak_phase[4][TRUE_PEAK_TAPS] = {
    {0.0017089843750f, 0.0109863281250f, -0.0196533203125f, 0.0332031250000f, -0.0594482421875f, 0.1373291015625f,
     0.9721679687500f, -0.1022949218750f, 0.0476074218750f, -0.0266113281250f, 0.0148925781250f, -0.0083007812500f},
    {-0.0291748046875f, 0.0292968750000f, -0.0517578125000f, 0.0891113281250f, -0.1665039062500f, 0.4650878906250f,
     0.7797851562500f, -0.2003173828125f, 0.1015625000000f, -0.0582275390625f, 0.0330810546875f, -0.0189208984375f},
    {-0.0189208984375f, 0.0330810546875f, -0.0582275390625f, 0.1015625000000f, -0.2003173828125f, 0.7797851562500f,
     0.4650878906250f, -0.1665039062500f, 0.0891113281250f, -0.0517578125000f, 0.0292968750000f, -0.0291748046875f},
    {-0.0083007812500f, 0.0148925781250f, -0.0266113281250f, 0.0476074218750f, -0.1022949218750f, 0.9721679687500f,
     0.1373291015625f, -0.0594482421875f, 0.0332031250000f, -0.0196533203125f, 0.0109863281250f, 0.0017089843750f},
};

void st_true_peak_init(TruePeak *m) { memset(m, 0, sizeof *m); }

float st_true_peak_step(TruePeak *m, float l, float r) {
    float peak = 0;
    for (int c = 0; c < 2; c++) {
        float *h = m->history[c];
        memmove(h + 1, h, sizeof(float) * (TRUE_PEAK_TAPS - 1));
        h[0] = c ? r : l;
        /* The sample itself too: the filter's phase 0 weighs it by 0.97, not 1, and a true
           peak is never below a sample peak. */
        if (fabsf(h[6]) > peak) peak = fabsf(h[6]);
        for (int k = 0; k < 4; k++) {
            float y = 0;
            for (int j = 0; j < TRUE_PEAK_TAPS; j++) y += true_peak_phase[k][j] * h[j];
            y = fabsf(y);
            if (y > peak) peak = y;
        }
    }
    if (peak > m->peak) m->peak = peak;
    return peak;
}

void st_true_peak_feed(TruePeak *m, const float *stereo, uint32_t frames) {
    for (uint32_t i = 0; i < frames; i++) st_true_peak_step(m, stereo[2 * i], stereo[2 * i + 1]);
}

void st_true_peak_feed_s16(TruePeak *m, const int16_t *stereo, uint64_t frames) {
    for (uint64_t i = 0; i < frames; i++)
        st_true_peak_step(m, (float)stereo[2 * i] * (1.0f / 32768), (float)stereo[2 * i + 1] * (1.0f / 32768));
}

float st_true_peak_dbtp(const TruePeak *m) { return m->peak > 0 ? 20.0f * log10f(m->peak) : -INFINITY; }
