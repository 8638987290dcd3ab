/* sound.c - WAV and Ogg Vorbis into mono 16-bit PCM at AUDIO_RATE, without the heap.

   Both decoders end in the same place: a source that gives one mono float per frame at
   the file's rate, resampled (linearly, in integer positions, so the result is the same
   on every run) straight into the permanent arena. Everything is checked before that one
   push, so a failed decode never moves `perm`. WAV reads its samples where they lie in
   the file; Vorbis is decoded first, into scratch, by stb_vorbis working in a scratch
   buffer (stb_vorbis_alloc) that is grown and retried when it is too small. */
#include <strata/audio/sound.h>
#include <strata/audio/vorbis_check.h>

/* all of stb_vorbis's C headers, before it is included (below) */
#ifdef _WIN32
#include <malloc.h>
#else
#include <alloca.h>
#endif
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <strata/core/allocator.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>

/* glibc's qsort takes a merge buffer from malloc past 1 KiB, and stb_vorbis sorts its
   codebooks with it: a heapsort in place instead (equal keys are equal values there, so
   stability does not matter). */
typedef int SoundCompare(const void *, const void *);

static void sound_swap(uint8_t *x, uint8_t *y, size_t size) {
    for (size_t k = 0; k < size; k++) {
        uint8_t t = x[k];
        x[k] = y[k], y[k] = t;
    }
}

static void sound_sift(uint8_t *b, size_t size, size_t root, size_t end, SoundCompare *cmp) {
    for (size_t child; (child = 2 * root + 1) < end; root = child) {
        if (child + 1 < end && cmp(b + child * size, b + (child + 1) * size) < 0) child++;
        if (cmp(b + root * size, b + child * size) >= 0) return;
        sound_swap(b + root * size, b + child * size, size);
    }
}

static void sound_sort(void *base, size_t n, size_t size, SoundCompare *cmp) {
    uint8_t *b = base;
    if (n < 2) return;
    for (size_t i = n / 2; i-- > 0;) sound_sift(b, size, i, n, cmp);
    for (size_t end = n - 1; end > 0; end--) {
        sound_swap(b, b + end * size, size);
        sound_sift(b, size, 0, end, cmp);
    }
}

/* stb_vorbis gets all its memory from the buffer handed to it; should any path still ask
   the C heap, it gets nothing rather than a block from malloc (its stdlib.h is already in,
   so these macros only reach the decoder's own calls). */
#define qsort sound_sort
#define malloc(sz) ((void)(sz), (void *)0)
#define realloc(p, sz) ((void)(p), (void)(sz), (void *)0)
#define free(p) ((void)(p))
#define STB_VORBIS_NO_STDIO
#define STB_VORBIS_NO_PUSHDATA_API
#define STB_VORBIS_NO_INTEGER_CONVERSION
/* Static, the decoder's API functions this file does not call are unused; the compiler says
   so at the end of the file, so this one warning is off for all of it. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-value"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wmisleading-indentation"
/* The decoder is private to this file, so that a program with its own stb_vorbis links
   with the engine: stb_vorbis has no STATIC switch, and its API is declared `extern`, so
   `extern` reads `static` across the include (the C headers it pulls in are in already,
   and a function declared static is static at its definition too). */
#define extern static
#include <stb_vorbis.h>
#undef extern
#pragma GCC diagnostic pop
#undef qsort
#undef malloc
#undef realloc
#undef free

#define SOUND_MIN_RATE 8000
#define SOUND_MAX_RATE 192000
/* Where stb_vorbis's work buffer starts, and how far it may grow: a typical stream sets
   up in about 100 KiB; the ceiling only stops a hostile header from eating the machine. */
#define SOUND_VORBIS_WORK_MIN (256u << 10)
#define SOUND_VORBIS_WORK_MAX (64u << 20)
/* The stream's own length sizes the sample buffer up to this many frames (a minute at
   48 kHz); past it the buffer doubles as the frames come, so a header that lies about its
   length costs nothing. */
#define SOUND_VORBIS_HINT_MAX (3u << 20)

static bool sound_fail_code(Error *err, ErrorCode code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool sound_fail_code(Error *err, ErrorCode code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(err, code, path ? path : "(sound)", 0, 0, fmt, ap);
    va_end(ap);
    return false;
}
#define sound_fail(err, path, ...) sound_fail_code((err), ERROR_PARSE, (path), __VA_ARGS__)

/* An arena refused: `lead`, then the arena's words. */
static bool sound_fail_memory(Error *err, const char *path, const char *lead) {
    sound_fail_code(err, ERROR_OUT_OF_MEMORY, path, "%s", lead);
    return st_arena_error(err);
}

/* ---- The common tail: mono float source -> int16 at AUDIO_RATE, in perm */

typedef float SoundFetch(const void *src, uint64_t frame);

static int16_t sound_to_i16(float x) {
    float s = x * 32768.0f;
    if (!(s > -32768.0f)) return -32768; /* NaN too: a broken float file is loud, not undefined */
    if (s >= 32767.0f) return 32767;
    return (int16_t)lrintf(s);
}

/* Frames at AUDIO_RATE for `frames` at `rate`: the same duration, rounded, never 0. */
static uint64_t sound_out_frames(uint64_t frames, uint32_t rate) {
    uint64_t n = (frames * AUDIO_RATE + rate / 2) / rate;
    return n ? n : 1;
}

static bool sound_finish(Arena *perm, const char *path, const void *src, SoundFetch *fetch, uint64_t frames,
                         uint32_t rate, Sound *out, Error *err) {
    uint64_t n = rate == AUDIO_RATE ? frames : sound_out_frames(frames, rate);
    int16_t *pcm = st_arena_push_array_raw(perm, int16_t, n);
    if (!pcm) {
        char lead[80];
        snprintf(lead, sizeof lead, "no room for %llu frames of sound: ", (unsigned long long)n);
        return sound_fail_memory(err, path, lead);
    }
    if (rate == AUDIO_RATE) {
        for (uint64_t i = 0; i < n; i++) pcm[i] = sound_to_i16(fetch(src, i));
    } else {
        /* Output frame i sits at i * rate / AUDIO_RATE in the source: integer part and
           remainder exactly, so no position drifts however long the sound. */
        for (uint64_t i = 0; i < n; i++) {
            uint64_t at = i * rate, k = at / AUDIO_RATE;
            float t = (float)(at % AUDIO_RATE) * (1.0f / AUDIO_RATE);
            float a = fetch(src, k), b = k + 1 < frames ? fetch(src, k + 1) : a;
            pcm[i] = sound_to_i16(a + (b - a) * t);
        }
    }
    out->samples = pcm;
    out->frames = (uint32_t)n;
    return true;
}

static bool sound_check_length(const char *path, uint64_t frames, uint32_t rate, Error *err) {
    if (frames == 0) return sound_fail(err, path, "no samples (the sound is empty)");
    if (frames > (uint64_t)SOUND_MAX_SECONDS * rate)
        return sound_fail(err, path, "too long: %.1f s, the limit is %d s", (double)frames / rate, SOUND_MAX_SECONDS);
    return true;
}

/* ---- WAV */

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | rd16(p + 2) << 16; }

enum { WAV_PCM = 1, WAV_FLOAT = 3, WAV_EXTENSIBLE = 0xFFFE };

typedef struct WavSource {
    const uint8_t *data;
    uint32_t channels, bytes, block; /* bytes per sample, per frame */
    bool is_float;
} WavSource;

static float wav_sample(const WavSource *w, const uint8_t *p) {
    if (w->is_float) {
        float f;
        uint32_t bits = rd32(p); /* little-endian in the file whatever the machine */
        memcpy(&f, &bits, 4);
        return f;
    }
    switch (w->bytes) {
    case 1: return (float)((int32_t)p[0] - 128) * (1.0f / 128);
    case 2: return (float)(int16_t)rd16(p) * (1.0f / 32768);
    case 3: return (float)((int32_t)(rd16(p) << 8 | (uint32_t)p[2] << 24) >> 8) * (1.0f / 8388608);
    default: return (float)(int32_t)rd32(p) * (1.0f / 2147483648.0f);
    }
}

static float wav_fetch(const void *src, uint64_t frame) {
    const WavSource *w = src;
    const uint8_t *p = w->data + frame * w->block;
    float s = wav_sample(w, p);
    return w->channels == 1 ? s : (s + wav_sample(w, p + w->bytes)) * 0.5f;
}

static const char *wav_format_name(uint32_t tag) {
    switch (tag) {
    case 0x0002: return " (Microsoft ADPCM)";
    case 0x0006: return " (A-law)";
    case 0x0007: return " (mu-law)";
    case 0x0011: return " (IMA ADPCM)";
    case 0x0050: return " (MPEG)";
    case 0x0055: return " (MP3)";
    default: return "";
    }
}

/* The 'fmt ' chunk into *w and *rate. */
static bool wav_parse_fmt(const char *path, const uint8_t *c, uint32_t size, WavSource *w, uint32_t *rate, Error *err) {
    if (size < 16) return sound_fail(err, path, "'fmt ' chunk of %u bytes is too short (at least 16)", size);
    uint32_t tag = rd16(c), channels = rd16(c + 2), block = rd16(c + 12), bits = rd16(c + 14);
    *rate = rd32(c + 4);
    if (tag == WAV_EXTENSIBLE) {
        /* The real format is the first two bytes of the sub-format GUID; the rest must be
           the standard KSDATAFORMAT suffix, or it is some vendor's format. */
        static const uint8_t suffix[14] = {0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80,
                                           0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71};
        if (size < 40 || rd16(c + 16) < 22)
            return sound_fail(err, path, "'fmt ' chunk of %u bytes is too short for WAVE_FORMAT_EXTENSIBLE (40)", size);
        uint32_t sub = rd16(c + 24);
        if (memcmp(c + 26, suffix, sizeof suffix) != 0 || (sub != WAV_PCM && sub != WAV_FLOAT))
            return sound_fail(err, path,
                              "unsupported format: WAVE_FORMAT_EXTENSIBLE with sub-format 0x%04x%s "
                              "(PCM and IEEE float only)",
                              sub, wav_format_name(sub));
        tag = sub;
    }
    if (tag != WAV_PCM && tag != WAV_FLOAT)
        return sound_fail(err, path, "unsupported format: tag 0x%04x%s (PCM and IEEE float only)", tag,
                          wav_format_name(tag));
    if (channels == 0) return sound_fail(err, path, "zero channels");
    if (channels > 2) return sound_fail(err, path, "unsupported: %u channels (mono and stereo only)", channels);
    if (tag == WAV_PCM && bits != 8 && bits != 16 && bits != 24 && bits != 32)
        return sound_fail(err, path, "unsupported: %u-bit PCM (8, 16, 24 and 32 only)", bits);
    if (tag == WAV_FLOAT && bits != 32) return sound_fail(err, path, "unsupported: %u-bit float (32 only)", bits);
    if (*rate < SOUND_MIN_RATE || *rate > SOUND_MAX_RATE)
        return sound_fail(err, path, "unsupported sample rate %u Hz (%d to %d)", *rate, SOUND_MIN_RATE, SOUND_MAX_RATE);
    if (block != channels * bits / 8)
        return sound_fail(err, path, "block align %u does not match %u channel(s) of %u bits", block, channels, bits);
    *w = (WavSource){.channels = channels, .bytes = bits / 8, .block = block, .is_float = tag == WAV_FLOAT};
    return true;
}

static bool wav_decode(Arena *perm, const uint8_t *b, uint64_t len, const char *path, Sound *out, Error *err) {
    const uint8_t *fmt = NULL, *data = NULL;
    uint32_t fmt_size = 0, data_size = 0;
    /* Chunks come in any order and unknown ones are skipped. Each is padded to an even
       size; a pad byte missing at the very end of the file is forgiven (writers forget it). */
    for (uint64_t at = 12; at < len;) {
        if (len - at < 8)
            return sound_fail(err, path, "truncated chunk header at byte %llu (%llu bytes left, 8 needed)",
                              (unsigned long long)at, (unsigned long long)(len - at));
        const uint8_t *c = b + at;
        uint32_t size = rd32(c + 4);
        uint64_t left = len - at - 8;
        char id[5] = {0};
        for (int i = 0; i < 4; i++) id[i] = c[i] >= 32 && c[i] < 127 ? (char)c[i] : '?';
        if (size > left)
            return sound_fail(err, path, "'%s' chunk says %u bytes but only %llu are left in the file%s", id, size,
                              (unsigned long long)left, memcmp(id, "data", 4) ? "" : " (data larger than the file)");
        if (!memcmp(c, "fmt ", 4) && !fmt) fmt = c + 8, fmt_size = size;
        else if (!memcmp(c, "data", 4) && !data) data = c + 8, data_size = size;
        at += 8 + (uint64_t)size + (size & 1);
    }
    if (!fmt) return sound_fail(err, path, "no 'fmt ' chunk");
    WavSource w;
    uint32_t rate = 0;
    if (!wav_parse_fmt(path, fmt, fmt_size, &w, &rate, err)) return false;
    if (!data) return sound_fail(err, path, "no 'data' chunk");
    if (data_size % w.block)
        return sound_fail(err, path, "'data' chunk of %u bytes is not a whole number of %u-byte frames", data_size,
                          w.block);
    uint64_t frames = data_size / w.block;
    if (!sound_check_length(path, frames, rate, err)) return false;
    w.data = data;
    return sound_finish(perm, path, &w, wav_fetch, frames, rate, out, err);
}

/* ---- Ogg Vorbis */

static const char *vorbis_reason(int e) {
    switch (e) {
    case VORBIS_outofmem: return "needs more work memory than the limit";
    case VORBIS_feature_not_supported: return "uses a feature stb_vorbis does not support (floor 0?)";
    case VORBIS_too_many_channels: return "too many channels";
    case VORBIS_unexpected_eof: return "the stream ends too early (truncated)";
    case VORBIS_invalid_setup: return "invalid setup header";
    case VORBIS_invalid_stream: return "invalid stream";
    case VORBIS_missing_capture_pattern: return "not an Ogg page where one should start";
    case VORBIS_invalid_stream_structure_version: return "unknown Ogg stream structure version";
    case VORBIS_continued_packet_flag_invalid: return "invalid continued-packet flag";
    case VORBIS_incorrect_stream_serial_number: return "pages of another stream interleaved";
    case VORBIS_invalid_first_page: return "the first page is not a Vorbis identification header";
    case VORBIS_bad_packet_type: return "bad packet type (not Vorbis, or headers out of order)";
    case VORBIS_cant_find_last_page: return "cannot find the last page";
    case VORBIS_ogg_skeleton_not_supported: return "Ogg skeleton streams are not supported";
    default: return "cannot decode";
    }
}

static float ogg_fetch(const void *src, uint64_t frame) { return ((const float *)src)[frame]; }

static bool ogg_decode(Arena *perm, Arena *tmp, const uint8_t *b, uint64_t len, const char *path, Sound *out,
                       Error *err) {
    if (len > INT_MAX) return sound_fail(err, path, "too large for the Ogg decoder");
    /* stb_vorbis trusts its input, so nothing reaches it unchecked (vorbis_check.h). */
    Error why;
    if (!st_vorbis_check(b, len, tmp, &why)) return sound_fail_code(err, why.code, path, "%.400s", why.message);
    stb_vorbis *v = NULL;
    int e = 0;
    uint64_t mark = st_arena_pos(tmp);
    for (uint32_t work = SOUND_VORBIS_WORK_MIN; !v; work *= 2) {
        st_arena_pop_to(tmp, mark);
        char *buf = st_arena_push_raw(tmp, work, 16);
        if (!buf) return sound_fail_memory(err, path, "no scratch memory for the Ogg decoder: ");
        stb_vorbis_alloc alloc = {buf, (int)work};
        v = stb_vorbis_open_memory(b, (int)len, &e, &alloc);
        if (!v && (e != VORBIS_outofmem || work >= SOUND_VORBIS_WORK_MAX))
            return sound_fail(err, path, "cannot open Ogg Vorbis stream: %s", vorbis_reason(e));
    }
    stb_vorbis_info info = stb_vorbis_get_info(v);
    if (info.channels <= 0) return sound_fail(err, path, "zero channels");
    if (info.sample_rate < SOUND_MIN_RATE || info.sample_rate > SOUND_MAX_RATE)
        return sound_fail(err, path, "unsupported sample rate %u Hz (%d to %d)", info.sample_rate, SOUND_MIN_RATE,
                          SOUND_MAX_RATE);
    /* The last page's position is a hint for the buffer, not a promise: a damaged stream
       may decode to more or less. It grows in place (it is the scratch arena's last block). */
    uint64_t max_frames = (uint64_t)SOUND_MAX_SECONDS * info.sample_rate;
    uint64_t cap = stb_vorbis_stream_length_in_samples(v);
    cap = cap < 4096 ? 4096 : cap > SOUND_VORBIS_HINT_MAX ? SOUND_VORBIS_HINT_MAX : cap;
    Allocator grow = st_allocator_arena(tmp);
    float *mono = st_allocator_new(grow, float, cap);
    if (!mono) return sound_fail_memory(err, path, "no scratch memory for decoded samples: ");
    uint64_t frames = 0;
    for (;;) {
        int ch = 0;
        float **pcm = NULL;
        int n = stb_vorbis_get_frame_float(v, &ch, &pcm);
        if (n <= 0) break;
        if (frames + (uint64_t)n > max_frames)
            return sound_check_length(path, frames + (uint64_t)n, info.sample_rate, err);
        if (frames + (uint64_t)n > cap) {
            uint64_t grown = cap * 2 > frames + (uint64_t)n ? cap * 2 : frames + (uint64_t)n;
            mono = st_allocator_realloc(grow, mono, cap * sizeof *mono, grown * sizeof *mono, 16);
            if (!mono) return sound_fail_memory(err, path, "no scratch memory for decoded samples: ");
            cap = grown;
        }
        float scale = 1.0f / (float)ch;
        for (int i = 0; i < n; i++) {
            float s = 0;
            for (int c = 0; c < ch; c++) s += pcm[c][i];
            mono[frames + (uint64_t)i] = s * scale;
        }
        frames += (uint64_t)n;
    }
    /* A stream that breaks after its headers ends early rather than failing; say so only
       when nothing came out at all. */
    e = stb_vorbis_get_error(v);
    if (frames == 0 && e != VORBIS__no_error)
        return sound_fail(err, path, "cannot decode Ogg Vorbis audio: %s", vorbis_reason(e));
    if (!sound_check_length(path, frames, info.sample_rate, err)) return false;
    return sound_finish(perm, path, mono, ogg_fetch, frames, info.sample_rate, out, err);
}

/* ---- Entry points */

bool st_sound_decode(Arena *perm, Str8 bytes, const char *path, Sound *out, Error *err) {
    const uint8_t *b = (const uint8_t *)bytes.data;
    if (bytes.len >= 12 && !memcmp(b, "RIFF", 4) && !memcmp(b + 8, "WAVE", 4))
        return wav_decode(perm, b, bytes.len, path, out, err);
    if (bytes.len >= 4 && !memcmp(b, "OggS", 4)) {
        SCRATCH_SCOPE(tmp, perm);
        return ogg_decode(perm, tmp.arena, b, bytes.len, path, out, err);
    }
    if (bytes.len >= 4 && !memcmp(b, "RIFF", 4))
        return sound_fail(err, path, "a RIFF file but not WAVE%s", bytes.len < 12 ? " (truncated header)" : "");
    if (!bytes.len) return sound_fail(err, path, "an empty file (0 bytes): expected a WAV or Ogg Vorbis file");
    return sound_fail(err, path, "not a WAV or Ogg Vorbis file (%llu bytes; no RIFF/WAVE or OggS header)",
                      (unsigned long long)bytes.len);
}

bool st_sound_load(Arena *perm, const char *path, Sound *out, Error *err) {
    SCRATCH_SCOPE(tmp, perm);
    Str8 file;
    if (!st_os_read_file(tmp.arena, path, SOUND_FILE_MAX, &file, err)) return false;
    return st_sound_decode(perm, file, path, out, err);
}

static void wr16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void wr32(uint8_t *p, uint32_t v) { wr16(p, v), wr16(p + 2, v >> 16); }

bool st_sound_write_wav(const char *path, const int16_t *stereo, uint64_t frames, uint32_t rate, Error *err) {
    const char *why = NULL;
    if (rate == 0) why = "sample rate 0";
    else if (frames && !stereo) why = "no samples given";
    else if (frames > (UINT32_MAX - 36) / 4) why = "too long for a WAV file (4 GiB)";
    if (why) return st_error_set(err, ERROR_REFUSED, path, 0, 0, "cannot write: %s", why);
    SCRATCH_SCOPE(tmp);
    uint32_t data = (uint32_t)frames * 4;
    uint8_t *f = st_arena_push_raw(tmp.arena, 44 + (uint64_t)data, 16);
    if (!f) return sound_fail_memory(err, path, "cannot write: ");
    memcpy(f, "RIFF", 4), wr32(f + 4, 36 + data), memcpy(f + 8, "WAVEfmt ", 8);
    wr32(f + 16, 16), wr16(f + 20, WAV_PCM), wr16(f + 22, 2), wr32(f + 24, rate);
    wr32(f + 28, rate * 4), wr16(f + 32, 4), wr16(f + 34, 16);
    memcpy(f + 36, "data", 4), wr32(f + 40, data);
    for (uint64_t i = 0; i < frames * 2; i++) wr16(f + 44 + 2 * i, (uint16_t)stereo[i]);
    return st_os_write_file_atomic(path, f, 44 + (uint64_t)data, err);
}
