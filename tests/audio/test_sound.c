/* test_sound: every WAV format the decoder takes, built in memory and decoded back; chunk
   order and padding; every error message, word for word, with the permanent arena left
   where it was; truncations and bit flips of a valid WAV and of a real Ogg Vorbis file
   that must never crash; the committed Ogg fixtures decoded and measured; the WAV writer
   round trip; and no heap call in any of it (not under ASan, which owns malloc).
   argv[1]: the assets folder (fixtures are in ../tests/audio/fixtures); argv[2]: a
   scratch output folder. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <strata/audio/sound.h>
#include "check.h"
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include <strata/core/os_file.h>
#include "heap_count.h"

static Arena *perm;
static char fixtures[1024];

/* ---- Building WAVs */

typedef struct Wav {
    uint8_t *b;
    uint32_t n, cap;
} Wav;

static void put(Wav *w, const void *p, uint32_t n) {
    if (w->n + n > w->cap) {
        fprintf(stderr, "test WAV buffer too small\n");
        return;
    }
    memcpy(w->b + w->n, p, n);
    w->n += n;
}
static void put16(Wav *w, uint32_t v) { put(w, (uint8_t[]){(uint8_t)v, (uint8_t)(v >> 8)}, 2); }
static void put32(Wav *w, uint32_t v) { put16(w, v), put16(w, v >> 16); }

static Wav wav_begin(Arena *a, uint32_t cap) {
    Wav w = {st_arena_push_array(a, uint8_t, cap), 0, cap};
    put(&w, "RIFF\0\0\0\0WAVE", 12);
    return w;
}
static Str8 wav_end(Wav *w) {
    uint32_t riff = w->n - 8;
    memcpy(w->b + 4, (uint8_t[]){(uint8_t)riff, (uint8_t)(riff >> 8), (uint8_t)(riff >> 16), (uint8_t)(riff >> 24)}, 4);
    return (Str8){(const char *)w->b, w->n};
}
static void chunk(Wav *w, const char *id, const void *data, uint32_t size, bool pad) {
    put(w, id, 4), put32(w, size), put(w, data, size);
    if (pad && (size & 1)) put(w, "", 1);
}
/* tag 0xFFFE writes WAVE_FORMAT_EXTENSIBLE with `sub` as its sub-format. */
static void fmt_chunk(Wav *w, uint32_t tag, uint32_t sub, uint32_t channels, uint32_t rate, uint32_t bits) {
    uint32_t block = channels * bits / 8;
    put(w, "fmt ", 4), put32(w, tag == 0xFFFE ? 40 : 16);
    put16(w, tag), put16(w, channels), put32(w, rate), put32(w, rate * block), put16(w, block), put16(w, bits);
    if (tag == 0xFFFE) {
        put16(w, 22), put16(w, bits), put32(w, channels == 2 ? 3 : 4), put16(w, sub);
        put(w, "\x00\x00\x00\x00\x10\x00\x80\x00\x00\xAA\x00\x38\x9B\x71", 14);
    }
}

static Str8 wav_simple(Arena *a, uint32_t tag, uint32_t channels, uint32_t rate, uint32_t bits, const void *data,
                       uint32_t bytes) {
    Wav w = wav_begin(a, bytes + 128);
    fmt_chunk(&w, tag, tag == 0xFFFE ? 1 : 0, channels, rate, bits);
    chunk(&w, "data", data, bytes, true);
    return wav_end(&w);
}

/* Decodes and checks the perm arena moved only on success. */
static bool decode(Str8 bytes, Sound *s, Error *err) {
    uint64_t before = st_arena_pos(perm);
    bool ok = st_sound_decode(perm, bytes, "t.wav", s, err);
    if (!ok) CHECK_EQ_U(st_arena_pos(perm), before);
    return ok;
}

static void expect_samples(Str8 bytes, const int16_t *want, uint32_t n, int tolerance, int line) {
    Sound s = {0};
    Error err = {0};
    if (!decode(bytes, &s, &err)) {
        fprintf(stderr, "line %d: %s\n", line, err.message);
        check_failures_++;
        return;
    }
    if (s.frames != n) {
        fprintf(stderr, "line %d: %u frames, expected %u\n", line, s.frames, n);
        check_failures_++;
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        if (abs(s.samples[i] - want[i]) > tolerance) {
            fprintf(stderr, "line %d: sample %u is %d, expected %d\n", line, i, s.samples[i], want[i]);
            check_failures_++;
            return;
        }
}

static const int16_t REF[8] = {0, 1000, -1000, 32767, -32768, 12345, -256, 7};

static void test_formats(void) {
    SCRATCH_SCOPE(tmp, perm);
    Arena *a = tmp.arena;
    expect_samples(wav_simple(a, 1, 1, 48000, 16, REF, sizeof REF), REF, 8, 0, __LINE__);

    uint8_t u8[8];
    int16_t want8[8];
    for (int i = 0; i < 8; i++) u8[i] = (uint8_t)(i * 37), want8[i] = (int16_t)((i * 37 - 128) * 256);
    expect_samples(wav_simple(a, 1, 1, 48000, 8, u8, 8), want8, 8, 0, __LINE__);

    uint8_t s24[24], s32[32], f32[32];
    for (int i = 0; i < 8; i++) {
        int32_t v = REF[i] * 256, w = (int32_t)((uint32_t)(int32_t)REF[i] << 16);
        float f = REF[i] / 32768.0f;
        memcpy(s24 + 3 * i, (uint8_t[]){(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16)}, 3);
        memcpy(s32 + 4 * i, &w, 4); /* the tests run little-endian */
        memcpy(f32 + 4 * i, &f, 4);
    }
    expect_samples(wav_simple(a, 1, 1, 48000, 24, s24, sizeof s24), REF, 8, 0, __LINE__);
    expect_samples(wav_simple(a, 1, 1, 48000, 32, s32, sizeof s32), REF, 8, 0, __LINE__);
    expect_samples(wav_simple(a, 3, 1, 48000, 32, f32, sizeof f32), REF, 8, 0, __LINE__);
    expect_samples(wav_simple(a, 0xFFFE, 1, 48000, 16, REF, sizeof REF), REF, 8, 0, __LINE__);
    Wav w = wav_begin(a, 256);
    fmt_chunk(&w, 0xFFFE, 3, 1, 48000, 32);
    chunk(&w, "data", f32, sizeof f32, true);
    expect_samples(wav_end(&w), REF, 8, 0, __LINE__);

    /* Float beyond [-1, 1] clips; stereo is the mean of its two sides. */
    float loud[2] = {3.0f, -7.5f};
    expect_samples(wav_simple(a, 3, 1, 48000, 32, loud, sizeof loud), (int16_t[]){32767, -32768}, 2, 0, __LINE__);
    int16_t st[8] = {100, 300, -32768, -32768, 32767, 32767, 1001, 2000}, mono[4] = {200, -32768, 32767, 1500};
    expect_samples(wav_simple(a, 1, 2, 48000, 16, st, sizeof st), mono, 4, 1, __LINE__);
    expect_samples(wav_simple(a, 1, 2, 48000, 16, st, 12), mono, 3, 1, __LINE__);
}

static void test_resample(void) {
    SCRATCH_SCOPE(tmp, perm);
    int16_t ramp[100], up[200], down[50];
    for (int i = 0; i < 100; i++) ramp[i] = (int16_t)(i * 100 - 5000);
    for (int i = 0; i < 200; i++) up[i] = i % 2 == 0 || i / 2 + 1 >= 100 ? ramp[i / 2] : (int16_t)(ramp[i / 2] + 50);
    for (int i = 0; i < 50; i++) down[i] = ramp[2 * i];
    expect_samples(wav_simple(tmp.arena, 1, 1, 24000, 16, ramp, sizeof ramp), up, 200, 0, __LINE__);
    expect_samples(wav_simple(tmp.arena, 1, 1, 96000, 16, ramp, sizeof ramp), down, 50, 0, __LINE__);
    /* 44.1 kHz: the same duration at 48 kHz, the ramp's slope scaled by 44100/48000. */
    Sound s;
    Error err;
    CHECK(decode(wav_simple(tmp.arena, 1, 1, 44100, 16, ramp, sizeof ramp), &s, &err));
    CHECK_EQ_U(s.frames, 109); /* round(100 * 48000 / 44100) */
    for (uint32_t i = 0; i + 1 < 100; i++) {
        double at = i * 44100.0 / 48000.0, want = -5000 + 100 * at;
        if (fabs(s.samples[i] - want) > 1) {
            fprintf(stderr, "44.1k sample %u: %d, expected %.1f\n", i, s.samples[i], want);
            check_failures_++;
            break;
        }
    }
    /* One frame at any rate is one frame. */
    CHECK(decode(wav_simple(tmp.arena, 1, 1, 192000, 16, ramp, 2), &s, &err));
    CHECK_EQ_U(s.frames, 1);
}

static void test_chunk_order(void) {
    SCRATCH_SCOPE(tmp, perm);
    /* data first, an odd-sized chunk with its pad byte between, fmt last, then an odd
       chunk whose pad byte is missing at the end of the file. */
    Wav w = wav_begin(tmp.arena, 512);
    chunk(&w, "data", REF, sizeof REF, true);
    chunk(&w, "LIST", "abc", 3, true);
    fmt_chunk(&w, 1, 0, 1, 48000, 16);
    chunk(&w, "junk", "xyz", 3, false);
    expect_samples(wav_end(&w), REF, 8, 0, __LINE__);
    /* A second data chunk is ignored: the first one plays. */
    w = wav_begin(tmp.arena, 512);
    fmt_chunk(&w, 1, 0, 1, 48000, 16);
    chunk(&w, "data", REF, 4, true);
    chunk(&w, "data", REF + 2, 12, true);
    expect_samples(wav_end(&w), REF, 2, 0, __LINE__);
}

static void expect_error(Str8 bytes, const char *want, int line) {
    Sound s = {0};
    Error err = {0};
    if (decode(bytes, &s, &err)) {
        fprintf(stderr, "line %d: decoded, expected \"%s\"\n", line, want);
        check_failures_++;
    } else if (strcmp(err.message, want) != 0) {
        fprintf(stderr, "line %d: \"%s\"\n         expected \"%s\"\n", line, err.message, want);
        check_failures_++;
    }
}

static Str8 wav_fmt_only(Arena *a, const uint8_t *fmt, uint32_t fmt_size) {
    Wav w = wav_begin(a, 256);
    chunk(&w, "fmt ", fmt, fmt_size, true);
    chunk(&w, "data", REF, sizeof REF, true);
    return wav_end(&w);
}

static void test_errors(void) {
    SCRATCH_SCOPE(tmp, perm);
    Arena *a = tmp.arena;
    Str8 good = wav_simple(a, 1, 1, 48000, 16, REF, sizeof REF);
    expect_error(st_str8_prefix(good, 16), "t.wav: error: truncated chunk header at byte 12 (4 bytes left, 8 needed)",
                 __LINE__);
    expect_error(st_str8_prefix(good, 30), "t.wav: error: 'fmt ' chunk says 16 bytes but only 10 are left in the file",
                 __LINE__);
    expect_error(st_str8_prefix(good, good.len - 1),
                 "t.wav: error: 'data' chunk says 16 bytes but only 15 are left in the file (data "
                 "larger than the file)",
                 __LINE__);
    Wav w = wav_begin(a, 64);
    chunk(&w, "\x01zz\xff", "", 0, false);
    put(&w, "LIST\xff\xff\xff\xff", 8);
    expect_error(wav_end(&w), "t.wav: error: 'LIST' chunk says 4294967295 bytes but only 0 are left in the file",
                 __LINE__);

    uint8_t f[48];
    Wav fw = {f, 0, sizeof f};
    fmt_chunk(&fw, 1, 0, 1, 48000, 16);
    expect_error(wav_fmt_only(a, f + 8, 14), "t.wav: error: 'fmt ' chunk of 14 bytes is too short (at least 16)",
                 __LINE__);
    f[8] = 2;
    expect_error(wav_fmt_only(a, f + 8, 16),
                 "t.wav: error: unsupported format: tag 0x0002 (Microsoft ADPCM) (PCM and IEEE float only)", __LINE__);
    f[8] = 0x99;
    expect_error(wav_fmt_only(a, f + 8, 16), "t.wav: error: unsupported format: tag 0x0099 (PCM and IEEE float only)",
                 __LINE__);
    expect_error(wav_simple(a, 1, 0, 48000, 16, REF, 16), "t.wav: error: zero channels", __LINE__);
    expect_error(wav_simple(a, 1, 6, 48000, 16, REF, 12),
                 "t.wav: error: unsupported: 6 channels (mono and stereo only)", __LINE__);
    expect_error(wav_simple(a, 1, 1, 48000, 12, REF, 16),
                 "t.wav: error: unsupported: 12-bit PCM (8, 16, 24 and 32 only)", __LINE__);
    expect_error(wav_simple(a, 3, 1, 48000, 64, REF, 16), "t.wav: error: unsupported: 64-bit float (32 only)",
                 __LINE__);
    expect_error(wav_simple(a, 1, 1, 4000, 16, REF, 16),
                 "t.wav: error: unsupported sample rate 4000 Hz (8000 to 192000)", __LINE__);
    expect_error(wav_simple(a, 1, 1, 384000, 16, REF, 16),
                 "t.wav: error: unsupported sample rate 384000 Hz (8000 to 192000)", __LINE__);
    fw.n = 0;
    fmt_chunk(&fw, 1, 0, 2, 48000, 16);
    f[20] = 3;
    expect_error(wav_fmt_only(a, f + 8, 16), "t.wav: error: block align 3 does not match 2 channel(s) of 16 bits",
                 __LINE__);
    fw.n = 0;
    fmt_chunk(&fw, 0xFFFE, 2, 1, 48000, 16);
    expect_error(wav_fmt_only(a, f + 8, 40),
                 "t.wav: error: unsupported format: WAVE_FORMAT_EXTENSIBLE with sub-format 0x0002 "
                 "(Microsoft ADPCM) "
                 "(PCM and IEEE float only)",
                 __LINE__);
    expect_error(wav_fmt_only(a, f + 8, 24),
                 "t.wav: error: 'fmt ' chunk of 24 bytes is too short for WAVE_FORMAT_EXTENSIBLE (40)", __LINE__);
    f[39] = 0x72; /* a vendor GUID: PCM's first bytes, another suffix */
    f[32] = 1;
    expect_error(wav_fmt_only(a, f + 8, 40),
                 "t.wav: error: unsupported format: WAVE_FORMAT_EXTENSIBLE with sub-format 0x0001 "
                 "(PCM and IEEE float only)",
                 __LINE__);

    w = wav_begin(a, 64);
    chunk(&w, "data", REF, 16, true);
    expect_error(wav_end(&w), "t.wav: error: no 'fmt ' chunk", __LINE__);
    w = wav_begin(a, 64);
    fmt_chunk(&w, 1, 0, 1, 48000, 16);
    expect_error(wav_end(&w), "t.wav: error: no 'data' chunk", __LINE__);
    expect_error(wav_simple(a, 1, 2, 48000, 16, REF, 6),
                 "t.wav: error: 'data' chunk of 6 bytes is not a whole number of 4-byte frames", __LINE__);
    expect_error(wav_simple(a, 1, 1, 48000, 16, REF, 0), "t.wav: error: no samples (the sound is empty)", __LINE__);
    uint32_t long_bytes = 8000 * (SOUND_MAX_SECONDS + 1);
    uint8_t *silence = st_arena_push_array(a, uint8_t, long_bytes);
    expect_error(wav_simple(a, 1, 1, 8000, 8, silence, long_bytes),
                 "t.wav: error: too long: 601.0 s, the limit is 600 s", __LINE__);
    expect_error(STR8_LIT("hello"), "t.wav: error: not a WAV or Ogg Vorbis file (5 bytes; no RIFF/WAVE or OggS header)",
                 __LINE__);
    expect_error(STR8_LIT("RIFF\0\0\0\0AVI LIST"), "t.wav: error: a RIFF file but not WAVE", __LINE__);
    expect_error(STR8_LIT("RIFF\0\0"), "t.wav: error: a RIFF file but not WAVE (truncated header)", __LINE__);
    expect_error((Str8){0}, "t.wav: error: an empty file (0 bytes): expected a WAV or Ogg Vorbis file", __LINE__);

    /* A full arena: the message says which, and nothing moved. */
    Arena *tiny = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "tiny"});
    REQUIRE_VOID(tiny);
    Sound s;
    Error err;
    uint64_t before = st_arena_pos(tiny);
    DiagCapture cap;
    st_diag_capture_begin(&cap, a); /* the arena reports its own failure too: keep it off stderr */
    CHECK(!st_sound_decode(tiny, wav_simple(a, 1, 1, 8000, 8, silence, 8000), "big.wav", &s, &err));
    CHECK(strncmp(err.message, "big.wav: error: no room for 48000 frames of sound: arena 'tiny' full", 68) == 0);
    CHECK_EQ_U(st_arena_pos(tiny), before);
    st_diag_capture_end(&cap);
    CHECK(cap.count == 1 && strncmp(cap.first->d.text, "arena 'tiny' full", 17) == 0);
    st_arena_release(tiny);

    CHECK(!st_sound_load(perm, "/nonexistent/x.wav", &s, &err));
    CHECK(strcmp(err.message, "/nonexistent/x.wav: error: cannot open: No such file or directory") == 0);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Every prefix, and random bit flips: an error or a sound, never a crash (ASan watches
   every read). Returns how many decoded. */
static uint32_t mangle(Str8 good, const char *path, uint32_t flips_rounds, uint32_t *tried) {
    SCRATCH_SCOPE(tmp, perm);
    uint8_t *b = st_arena_push_array(tmp.arena, uint8_t, good.len);
    uint32_t ok = 0;
    *tried = flips_rounds;
    uint64_t mark = st_arena_pos(perm);
    Sound s;
    Error err;
    for (uint64_t n = 0; n <= good.len; n += 1 + good.len / 600) {
        memcpy(b, good.data, n); /* a copy, so a read past n is past the buffer's use */
        bool r = st_sound_decode(perm, (Str8){(const char *)b, n}, path, &s, &err);
        CHECK(r || strncmp(err.message, path, strlen(path)) == 0);
        ok += r, ++*tried;
        st_arena_pop_to(perm, mark);
    }
    for (uint32_t i = 0; i < flips_rounds; i++) {
        memcpy(b, good.data, good.len);
        for (uint32_t k = 1 + rnd() % 4; k; k--) {
            uint32_t at = rnd() % (uint32_t)good.len;
            /* Half the time aim at the headers, where the decisions are. */
            if (rnd() & 1) at %= good.len < 200 ? (uint32_t)good.len : 200;
            b[at] ^= (uint8_t)(1u << (rnd() % 8));
        }
        bool r = st_sound_decode(perm, (Str8){(const char *)b, good.len}, path, &s, &err);
        CHECK(r || strncmp(err.message, path, strlen(path)) == 0);
        if (r) CHECK(s.frames > 0 && s.frames <= (uint32_t)SOUND_MAX_SECONDS * AUDIO_RATE);
        ok += r;
        st_arena_pop_to(perm, mark);
    }
    return ok;
}

static void test_fuzz_wav(void) {
    SCRATCH_SCOPE(tmp, perm);
    Wav w = wav_begin(tmp.arena, 4096);
    chunk(&w, "LIST", "INFOabc", 7, true);
    fmt_chunk(&w, 1, 0, 2, 44100, 16);
    int16_t d[400];
    for (int i = 0; i < 400; i++) d[i] = (int16_t)(i * 331);
    chunk(&w, "data", d, sizeof d, true);
    uint32_t tried, ok = mangle(wav_end(&w), "fuzz.wav", 20000, &tried);
    printf("wav: %u of %u cut or bit-flipped inputs still decoded\n", ok, tried);
}

/* ---- Ogg Vorbis */

static void measure(const Sound *s, int *peak, uint32_t *crossings) {
    *peak = 0, *crossings = 0;
    for (uint32_t i = 0; i < s->frames; i++) {
        int v = abs(s->samples[i]);
        if (v > *peak) *peak = v;
        if (i && (s->samples[i - 1] < 0) != (s->samples[i] < 0)) ++*crossings;
    }
}

static void ogg_fix_crc(uint8_t *page, uint64_t size) {
    uint32_t crc = 0;
    memset(page + 22, 0, 4);
    for (uint64_t i = 0; i < size; i++) {
        crc ^= (uint32_t)page[i] << 24;
        for (int k = 0; k < 8; k++) crc = crc & 0x80000000u ? crc << 1 ^ 0x04C11DB7u : crc << 1;
    }
    for (int k = 0; k < 4; k++) page[22 + k] = (uint8_t)(crc >> 8 * k);
}

static void expect_ogg_error(Str8 bytes, const char *want, int line) {
    Sound s = {0};
    Error err = {0};
    if (st_sound_decode(perm, bytes, "t.ogg", &s, &err)) {
        fprintf(stderr, "line %d: decoded, expected \"%s\"\n", line, want);
        check_failures_++;
    } else if (strcmp(err.message, want) != 0) {
        fprintf(stderr, "line %d: \"%s\"\n         expected \"%s\"\n", line, err.message, want);
        check_failures_++;
    }
}

static void test_ogg(void) {
    char path[1100];
    Sound s;
    Error err;
    int peak;
    uint32_t cross;
    /* 0.5 s of a 441 Hz sine at half scale, mono at 22050 Hz: resampled to 48 kHz. */
    snprintf(path, sizeof path, "%s/sine441-mono-22050.ogg", fixtures);
    if (!st_sound_load(perm, path, &s, &err)) {
        fprintf(stderr, "%s\n", err.message);
        check_failures_++;
        return;
    }
    measure(&s, &peak, &cross);
    printf("ogg mono 22050: %u frames, peak %d, %u zero crossings\n", s.frames, peak, cross);
    CHECK(s.frames >= 23900 && s.frames <= 24100);
    CHECK(peak > 14000 && peak < 19000);
    CHECK(cross >= 436 && cross <= 446);
    /* 0.25 s, stereo at 48 kHz, a 1 kHz sine at half scale on the left only: the mono mix
       is at a quarter scale. */
    snprintf(path, sizeof path, "%s/sine1000-left-stereo-48000.ogg", fixtures);
    REQUIRE_VOID(st_sound_load(perm, path, &s, &err));
    measure(&s, &peak, &cross);
    printf("ogg stereo 48000: %u frames, peak %d, %u zero crossings\n", s.frames, peak, cross);
    CHECK(s.frames >= 11950 && s.frames <= 12050);
    CHECK(peak > 7000 && peak < 11000);
    CHECK(cross >= 495 && cross <= 505);

    /* Broken streams: a clear message, the arena unmoved, never a crash. */
    SCRATCH_SCOPE(tmp, perm);
    Str8 file;
    REQUIRE_VOID(st_os_read_file(tmp.arena, path, 1 << 20, &file, NULL));
    uint64_t before = st_arena_pos(perm);
    expect_ogg_error(st_str8_prefix(file, 40), "t.ogg: error: truncated Ogg page at byte 0: 58 bytes, 40 left",
                     __LINE__);
    expect_ogg_error(STR8_LIT("OggS but nothing else"), "t.ogg: error: truncated Ogg page header at byte 0", __LINE__);
    /* The pages of the file: a cut at a page boundary is still a cut. */
    uint64_t second = 58, third = 0;
    REQUIRE_VOID(file.len > 200 && !memcmp(file.data + second, "OggS", 4));
    third = second + 27 + (uint8_t)file.data[second + 26];
    for (uint32_t i = 0; i < (uint8_t)file.data[second + 26]; i++) third += (uint8_t)file.data[second + 27 + i];
    expect_ogg_error(st_str8_prefix(file, third),
                     "t.ogg: error: truncated Ogg stream: no end-of-stream page after 2 pages", __LINE__);
    uint8_t *copy = st_arena_push_array(tmp.arena, uint8_t, 2 * file.len);
    memcpy(copy, file.data, file.len);
    copy[100] ^= 0x10;
    expect_ogg_error((Str8){(const char *)copy, file.len}, "t.ogg: error: corrupt Ogg page at byte 58 (CRC mismatch)",
                     __LINE__);
    copy[100] ^= 0x10;
    copy[4] = 1;
    expect_ogg_error((Str8){(const char *)copy, file.len}, "t.ogg: error: unknown Ogg version 1 at byte 0", __LINE__);
    copy[4] = 0;
    memcpy(copy + file.len, file.data, file.len); /* two streams, one after the other */
    char want[200];
    snprintf(want, sizeof want,
             "t.ogg: error: more data after the end of the Ogg stream at byte %llu (chained "
             "streams are not supported)",
             (unsigned long long)file.len);
    expect_ogg_error((Str8){(const char *)copy, 2 * file.len}, want, __LINE__);
    memcpy(copy + second, "OggX", 4);
    expect_ogg_error((Str8){(const char *)copy, file.len}, "t.ogg: error: no Ogg page at byte 58", __LINE__);
    CHECK_EQ_U(st_arena_pos(perm), before);
    /* Garbage in well-formed pages (the CRCs made right again): what only a crafted file
       could hold. The decoder must still come back, or the header check say no: in the
       audio pages, and (every other round) in the header pages too. */
    uint32_t garbage_ok = 0;
    for (uint32_t round = 0; round < 300; round++) {
        memcpy(copy, file.data, file.len);
        uint64_t at = round % 2 ? 0 : third;
        while (at + 27 < file.len) {
            uint64_t size = 27 + (uint8_t)copy[at + 26];
            for (uint32_t i = 0; i < (uint8_t)copy[at + 26]; i++) size += (uint8_t)copy[at + 27 + i];
            if (rnd() % 2)
                copy[at + 27 + copy[at + 26] + rnd() % (size - 27 - copy[at + 26])] ^= (uint8_t)(1u << rnd() % 8);
            ogg_fix_crc(copy + at, size);
            at += size;
        }
        Sound g;
        bool r = st_sound_decode(perm, (Str8){(const char *)copy, file.len}, "garbage.ogg", &g, &err);
        CHECK(r || strncmp(err.message, "garbage.ogg: error: ", 20) == 0);
        garbage_ok += r;
        st_arena_pop_to(perm, before);
    }
    printf("ogg: %u of 300 streams with flipped bits in valid pages decoded\n", garbage_ok);
    uint32_t tried, ok = mangle(file, "fuzz.ogg", 3000, &tried);
    printf("ogg: %u of %u cut or bit-flipped inputs still decoded\n", ok, tried);
}

/* ---- Vorbis headers that lie, with valid CRCs */

/* A whole Vorbis stream, built here bit by bit: the three headers and a few silent audio
   packets, each packet on a page of its own. The setup header is the smallest there is: one
   codebook of two one-bit codes with values, one floor of type 1 with two points, one
   residue, one mapping, one mode; `lie` replaces one part of it with a crafted one. */
enum { LIE_NONE, LIE_LONG_CODE, LIE_LATTICE, LIE_SUBMAPS };

typedef struct Bits {
    uint8_t b[512];
    uint32_t pos;
} Bits;

static void bits(Bits *w, uint32_t v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++, w->pos++)
        if (v >> i & 1) w->b[w->pos >> 3] |= (uint8_t)(1u << (w->pos & 7));
}

static uint32_t ogg_page(uint8_t *out, const uint8_t *packet, uint32_t n, uint32_t seq, uint8_t flags,
                         uint64_t granule) {
    uint32_t segs = n / 255 + 1, at = 27 + segs;
    memcpy(out, "OggS", 4);
    out[4] = 0, out[5] = flags;
    for (int i = 0; i < 8; i++) out[6 + i] = (uint8_t)(granule >> 8 * i);
    memcpy(out + 14, "\x01\x02\x03\x04", 4);
    for (int i = 0; i < 4; i++) out[18 + i] = (uint8_t)(seq >> 8 * i);
    out[26] = (uint8_t)segs;
    for (uint32_t i = 0; i < segs; i++) out[27 + i] = (uint8_t)(i + 1 < segs ? 255 : n % 255);
    memcpy(out + at, packet, n);
    ogg_fix_crc(out, at + n);
    return at + n;
}

static Str8 vorbis_stream(Arena *a, int lie) {
    uint8_t *out = st_arena_push_array(a, uint8_t, 8192), id[30] = {1, 'v', 'o', 'r', 'b', 'i', 's'};
    id[11] = 1;                   /* one channel */
    id[12] = 0x80, id[13] = 0xBB; /* 48000 Hz */
    id[28] = 0x88, id[29] = 1;    /* blocks of 256 and 256; framing */
    static const uint8_t comment[] = "\x03vorbis\x04\0\0\0test\0\0\0\0\x01";
    Bits w = {{5, 'v', 'o', 'r', 'b', 'i', 's'}, 56};
    bits(&w, 0, 8); /* one codebook */
    bits(&w, 0x564342, 24);
    bits(&w, lie == LIE_LATTICE ? 32 : 1, 16);                          /* dimensions */
    bits(&w, lie == LIE_LATTICE ? 1 : 2, 24);                           /* entries */
    bits(&w, 0, 1), bits(&w, 0, 1);                                     /* not ordered, not sparse */
    bits(&w, 0, 5);                                                     /* entry 0: a 1-bit code */
    if (lie != LIE_LATTICE) bits(&w, lie == LIE_LONG_CODE ? 30 : 0, 5); /* entry 1: 1 bit, or 31 */
    bits(&w, 1, 4);                                                     /* lookup type 1 */
    bits(&w, 0x60200000, 32), bits(&w, 0x60200000, 32), bits(&w, 0, 4), bits(&w, 0, 1);
    bits(&w, 0, lie == LIE_LATTICE ? 1 : 2);        /* the lookup values, one bit each */
    bits(&w, 0, 6), bits(&w, 0, 16);                /* one time domain transform, 0 */
    bits(&w, 0, 6), bits(&w, 1, 16);                /* one floor, type 1 */
    bits(&w, 0, 5), bits(&w, 0, 2), bits(&w, 4, 4); /* no partitions, multiplier 1, 4 range bits */
    bits(&w, 0, 6), bits(&w, 0, 16);                /* one residue, type 0 */
    bits(&w, 0, 24), bits(&w, 0, 24), bits(&w, 0, 24), bits(&w, 0, 6), bits(&w, 0, 8);
    bits(&w, 0, 3), bits(&w, 0, 1);  /* its one classification: no books */
    bits(&w, 0, 6), bits(&w, 0, 16); /* one mapping, type 0 */
    uint32_t submaps = lie == LIE_SUBMAPS ? 16 : 1;
    bits(&w, submaps > 1, 1);
    if (submaps > 1) bits(&w, submaps - 1, 4);
    bits(&w, 0, 1), bits(&w, 0, 2);  /* no coupling, reserved */
    if (submaps > 1) bits(&w, 0, 4); /* the channel's submap */
    for (uint32_t i = 0; i < submaps; i++) bits(&w, 0, 8), bits(&w, 0, 8), bits(&w, 0, 8);
    bits(&w, 0, 6), bits(&w, 0, 1), bits(&w, 0, 16), bits(&w, 0, 16), bits(&w, 0, 8); /* one mode */
    bits(&w, 1, 1);                                                                   /* framing */
    uint32_t n = ogg_page(out, id, sizeof id, 0, 2, 0);
    n += ogg_page(out + n, comment, sizeof comment - 1, 1, 0, 0);
    n += ogg_page(out + n, w.b, (w.pos + 7) / 8, 2, 0, 0);
    static const uint8_t silent[1] = {0}; /* audio, floor unused: a block of silence */
    for (uint32_t i = 0; i < 8; i++) n += ogg_page(out + n, silent, 1, 3 + i, i == 7 ? 4 : 0, 128 * (i + 1));
    return (Str8){(const char *)out, n};
}

static void expect_refused(Str8 bytes, const char *says, int line) {
    Sound s = {0};
    Error err = {0};
    uint64_t before = st_arena_pos(perm);
    if (st_sound_decode(perm, bytes, "lie.ogg", &s, &err)) {
        fprintf(stderr, "line %d: decoded %u frames, expected \"%s\"\n", line, s.frames, says);
        check_failures_++;
    } else if (strncmp(err.message, "lie.ogg: error: ", 16) || !strstr(err.message, says)) {
        fprintf(stderr, "line %d: \"%s\"\n         expected \"%s\"\n", line, err.message, says);
        check_failures_++;
    } else {
        printf("refused: %s\n", err.message);
    }
    CHECK_EQ_U(st_arena_pos(perm), before);
}

/* Files the sound fuzz target found (tests/fuzz/sound.sh), each a way through stb_vorbis
   that its own checks miss, refused by the header check with why. */
static void test_hostile(void) {
    static const struct {
        const char *name, *says;
    } cases[] = {
        /* A type-2 residue whose partitions outgrow the scratch stb_vorbis set aside at
           setup: its allocation failed mid-packet and it wrote through the NULL. */
        {"residue2-scratch.ogg", "residue 2 of type 2 reads 8192 partitions, more than stb_vorbis makes room for"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/hostile/%s", fixtures, cases[i].name);
        SCRATCH_SCOPE(tmp, perm);
        Str8 file;
        REQUIRE_VOID(st_os_read_file(tmp.arena, path, 1 << 20, &file, NULL));
        expect_refused(file, cases[i].says, __LINE__);
    }
}

/* The synthetic fixtures (fixtures/make_synthetic.py): every kind of codebook, floor,
   residue and mapping the format has, each file sound, so each must decode. */
static void test_synthetic(void) {
    static const char *names[] = {
        "vorbis-stereo-48000.ogg", "vorbis-mono-22050.ogg",  "vorbis-3ch-44100.ogg",
        "pcm8-mono-8000.wav",      "pcm16-stereo-44100.wav", "pcm24-mono-48000.wav",
        "pcm32-stereo-96000.wav",  "float32-mono-48000.wav", "extensible-float-stereo-22050.wav"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/synthetic/%s", fixtures, names[i]);
        Sound s;
        Error err;
        uint64_t before = st_arena_pos(perm);
        bool ok = st_sound_load(perm, path, &s, &err);
        if (!ok) fprintf(stderr, "%s\n", err.message);
        CHECK(ok && s.frames > 0);
        st_arena_pop_to(perm, before);
    }
}

static void test_ogg_headers(void) {
    SCRATCH_SCOPE(tmp, perm);
    /* The control: the stream as built is sound and decodes (to silence). */
    Sound s;
    Error err;
    uint64_t before = st_arena_pos(perm);
    bool ok = st_sound_decode(perm, vorbis_stream(tmp.arena, LIE_NONE), "built.ogg", &s, &err);
    if (!ok) fprintf(stderr, "%s\n", err.message);
    CHECK(ok && s.frames > 0);
    st_arena_pop_to(perm, before);
    /* What stb_vorbis would take at its word: a 31-bit code in a book it searches with an
       int shift, a lattice whose size overflows its pow() casts, 16 submaps for its 15. */
    expect_refused(vorbis_stream(tmp.arena, LIE_LONG_CODE), "codebook 0: a 31-bit code among 2 entries", __LINE__);
    expect_refused(vorbis_stream(tmp.arena, LIE_LATTICE), "codebook 0: 1 entries of 32 dimensions as a lattice",
                   __LINE__);
    expect_refused(vorbis_stream(tmp.arena, LIE_SUBMAPS), "mapping 0: 16 submaps", __LINE__);
    /* The comment header of a real file: its lengths made to lie. A vendor string longer
       than the packet sent stb_vorbis writing out of bounds; a comment count beyond it had
       it shift the end-of-packet marker (-1). */
    char path[1100];
    snprintf(path, sizeof path, "%s/sine441-mono-22050.ogg", fixtures);
    Str8 file;
    REQUIRE_VOID(st_os_read_file(tmp.arena, path, 1 << 20, &file, NULL));
    uint8_t *b = st_arena_push_array(tmp.arena, uint8_t, file.len);
    memcpy(b, file.data, file.len);
    const uint64_t page = 58;
    REQUIRE_VOID(!memcmp(b + page, "OggS", 4));
    uint64_t size = 27 + b[page + 26];
    for (uint32_t i = 0; i < b[page + 26]; i++) size += b[page + 27 + i];
    uint8_t *body = b + page + 27 + b[page + 26];
    REQUIRE_VOID(body[0] == 3 && !memcmp(body + 1, "vorbis", 6));
    uint32_t vendor = body[7] | body[8] << 8 | body[9] << 16 | (uint32_t)body[10] << 24;
    uint8_t *count = body + 11 + vendor;
    Str8 lie = {(const char *)b, file.len};
    memcpy(body + 7, "\xF0\xFF\xFF\xFF", 4);
    ogg_fix_crc(b + page, size);
    expect_refused(lie, "invalid Vorbis comment header: a vendor string of 4294967280 bytes", __LINE__);
    memcpy(body + 7, file.data + (body + 7 - b), 4);
    memcpy(count, "\xE8\x03\0\0", 4); /* 1000 comments */
    ogg_fix_crc(b + page, size);
    expect_refused(lie, "invalid Vorbis comment header: 1000 comments", __LINE__);
}

/* ---- Writing */

static void test_write(const char *out_dir) {
    char path[1100];
    snprintf(path, sizeof path, "%s/test_sound_out.wav", out_dir);
    int16_t st[6] = {1000, 3000, -32768, -32768, 5, 7};
    Error msg;
    REQUIRE_VOID(st_sound_write_wav(path, st, 3, 48000, &msg));
    SCRATCH_SCOPE(tmp, perm);
    Str8 f;
    REQUIRE_VOID(st_os_read_file(tmp.arena, path, 1 << 20, &f, NULL));
    CHECK_EQ_U(f.len, 44 + 12);
    CHECK(memcmp(f.data,
                 "RIFF\x30\0\0\0WAVEfmt "
                 "\x10\0\0\0\x01\0\x02\0\x80\xbb\0\0\0\xee\x02\0\x04\0\x10\0data\x0c\0\0\0",
                 44) == 0);
    CHECK(memcmp(f.data + 44, st, 12) == 0);
    Sound s;
    Error err;
    REQUIRE_VOID(st_sound_load(perm, path, &s, &err));
    CHECK_EQ_U(s.frames, 3);
    CHECK_EQ_I(s.samples[0], 2000);
    CHECK_EQ_I(s.samples[1], -32768);
    CHECK_EQ_I(s.samples[2], 6);
    st_os_remove(path);
    CHECK(!st_sound_write_wav("/nonexistent/dir/x.wav", st, 3, 48000, &msg));
    CHECK(strncmp(msg.message, "/nonexistent/dir/x.wav", 22) == 0 &&
          strstr(msg.message, ": cannot write: the folder /nonexistent/dir does not exist"));
    CHECK(!st_sound_write_wav(path, st, 3, 0, &msg));
    CHECK(strcmp(msg.message, path) > 0 && strstr(msg.message, ": error: cannot write: sample rate 0"));
    CHECK(!st_sound_write_wav(path, NULL, 3, 48000, &msg));
    CHECK(strstr(msg.message, ": error: cannot write: no samples given") != NULL);
    CHECK(st_os_file_info(path).kind == OS_FILE_NONE);
}

/* Not a pass/fail figure: how fast a decode is, printed for the report. */
static void decode_speed(void) {
    SCRATCH_SCOPE(tmp, perm);
    uint32_t frames = 44100 * 30;
    int16_t *d = st_arena_push_array(tmp.arena, int16_t, 2 * (uint64_t)frames);
    for (uint32_t i = 0; i < 2 * frames; i++) d[i] = (int16_t)(i * 7919);
    Str8 wav = wav_simple(tmp.arena, 1, 2, 44100, 16, d, frames * 4);
    uint64_t mark = st_arena_pos(perm);
    struct timespec t0, t1;
    Sound s;
    Error err;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK(st_sound_decode(perm, wav, "speed.wav", &s, &err));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("decode: 30 s of 44.1 kHz stereo 16-bit WAV -> 48 kHz mono in %.1f ms (%.0fx real time)\n", ms, 30e3 / ms);
    st_arena_pop_to(perm, mark);
    char path[1100];
    snprintf(path, sizeof path, "%s/sine441-mono-22050.ogg", fixtures);
    Str8 ogg;
    if (!st_os_read_file(tmp.arena, path, 1 << 20, &ogg, NULL)) return;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < 20; i++, st_arena_pop_to(perm, mark)) CHECK(st_sound_decode(perm, ogg, "speed.ogg", &s, &err));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ms = ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6) / 20;
    printf("decode: 0.5 s of 22.05 kHz mono Ogg Vorbis -> 48 kHz in %.2f ms (%.0fx real time)\n", ms, 500 / ms);
}

int main(int argc, char **argv) {
    REQUIRE(argc == 3);
    snprintf(fixtures, sizeof fixtures, "%s/../tests/audio/fixtures", argv[1]);
    perm = st_arena_create((ArenaParams){.name = "perm"});
    REQUIRE(perm);
    static char out_buf[1 << 14]; /* stdout's buffer, so printing is not a heap call either */
    setvbuf(stdout, out_buf, _IOLBF, sizeof out_buf);
    /* Everything below decodes without the heap (scratch arenas come from mmap). */
    uint64_t heap_before = heap_calls;
    test_formats();
    test_resample();
    test_chunk_order();
    test_errors();
    test_fuzz_wav();
    test_ogg();
    test_ogg_headers();
    test_synthetic();
    test_hostile();
    test_write(argv[2]);
    decode_speed();
    if (HEAP_COUNT) {
        printf("heap calls while decoding: %llu\n", (unsigned long long)(heap_calls - heap_before));
        CHECK_EQ_U(heap_calls - heap_before, 0);
    }
    st_arena_release(perm);
    return check_result();
}
