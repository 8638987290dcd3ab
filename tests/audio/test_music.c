/* music: every error a score can have, with its exact path:line:col message and the
   permanent arena untouched; the fixture tests/audio/scores/loop.score rendering to its
   exact length, the same bits twice (and the bits recorded here), with no seam at the loop
   point; the shipped scores in ASSETS/music rendering to loops of their intended lengths;
   and truncated or mutated scores failing cleanly instead of crashing (run under ASan too).
   usage: test_music ASSETS_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <strata/audio/music.h>
#include <strata/core/hash.h>
#include <strata/core/os_file.h>

static Arena *perm;

/* Renders text as "t.score" and returns the message ("" on success); perm must not move
   on a failure. */
static const char *render_(const char *text) {
    static Error err;
    Sound s;
    uint64_t before = st_arena_pos(perm);
    bool ok = st_music_render(perm, st_str8_cstr(text), "t.score", &s, &err);
    if (!ok) CHECK_EQ_U(st_arena_pos(perm), before);
    st_arena_pop_to(perm, before);
    return ok ? "" : err.message;
}

#define HEAD "tempo 120\nchannels 2\ninstrument a wave=square\n"
#define PAT "pattern p 2\nC-4 a | ---\n--- | ===\nend\n"

static const struct {
    const char *text, *message;
} errors[] = {
    {"tempo 400\n", "t.score:1:7: error: tempo 400 is out of range (40..300)"},
    {"tempo 39\n", "t.score:1:7: error: tempo 39 is out of range (40..300)"},
    {"tempo fast\n", "t.score:1:7: error: expected a number after 'tempo', found 'fast'"},
    {"tempo\n", "t.score:1:6: error: expected a number after 'tempo', found the end of the line"},
    {"tempo 120\n  tempo 90\n", "t.score:2:3: error: 'tempo' given twice (first on line 1)"},
    {"tempo 120 bpm\n", "t.score:1:11: error: expected the end of the line after the number, found 'bpm'"},
    {"channels 5\n", "t.score:1:10: error: channels 5 is out of range (1..4)"},
    {"channels 0\n", "t.score:1:10: error: channels 0 is out of range (1..4)"},
    {"rows_per_beat 17\n", "t.score:1:15: error: rows_per_beat 17 is out of range (1..16)"},
    {"volume 1.5\n", "t.score:1:8: error: volume 1.5 is out of range (0..1)"},
    {"volume .5\n", "t.score:1:8: error: expected a number after 'volume', found '.5'"},
    {"speed 6\n", "t.score:1:1: error: expected tempo, rows_per_beat, channels, volume, "
                  "instrument, pattern or order, found 'speed'"},
    {"end\n", "t.score:1:1: error: 'end' outside a pattern"},
    {"instrument lead duty=0.5\n", "t.score:1:12: error: instrument 'lead' has no wave"},
    {"instrument lead wave=organ\n",
     "t.score:1:22: error: expected square, triangle, saw, sine or noise, found 'organ'"},
    {"instrument lead wave=sine atack=1\n",
     "t.score:1:27: error: unknown setting 'atack' (wave, duty, attack, decay, sustain, release, "
     "volume, vibrato, vibrato_rate, vibrato_delay, slide, slide_time, lowpass, noise)"},
    {"instrument lead wave=sine attack=5\n", "t.score:1:34: error: attack=5 is out of range (0..2)"},
    {"instrument lead wave=sine slide=-49\n", "t.score:1:33: error: slide=-49 is out of range (-48..48)"},
    {"instrument lead wave=sine lowpass=10\n", "t.score:1:35: error: lowpass=10 is out of range (20..20000)"},
    {"instrument lead wave=sine decay=long\n", "t.score:1:33: error: expected a number for 'decay', found 'long'"},
    {"instrument lead wave=sine decay=0.1.2\n", "t.score:1:33: error: expected a number for 'decay', found '0.1.2'"},
    {"instrument lead wave=sine attack=0 attack=1\n", "t.score:1:36: error: 'attack' set twice"},
    {"instrument lead square\n", "t.score:1:17: error: expected setting=value, found 'square'"},
    {"instrument lead wave=sine\ninstrument lead wave=saw\n", "t.score:2:12: error: instrument 'lead' defined twice"},
    {"instrument v12 wave=sine\n",
     "t.score:1:12: error: expected an instrument name (a letter, then letters, digits or '_', "
     "up to 16; not v<digits>), found 'v12'"},
    {"instrument\n", "t.score:1:11: error: expected an instrument name, found the end of the line"},
    {"tempo 120\npattern p 2\n", "t.score:2:1: error: 'channels' must come before the first pattern"},
    {HEAD PAT "channels 3\n", "t.score:8:1: error: 'channels' must come before the first pattern"},
    {HEAD "pattern p 300\n", "t.score:4:11: error: 300 rows is out of range (1..256)"},
    {HEAD "pattern p\n", "t.score:4:10: error: expected the number of rows, found the end of the line"},
    {HEAD "pattern 9p 2\n", "t.score:4:9: error: expected a pattern name (a letter, then letters, digits or '_', up to "
                            "16), found '9p'"},
    {HEAD PAT "pattern p 1\n", "t.score:8:9: error: pattern 'p' defined twice (first on line 4)"},
    {HEAD "pattern p 2\nC-4 a | ---\nend\n", "t.score:6:1: error: pattern 'p' has 1 row, expected 2"},
    {HEAD "pattern p 1\nC-4 a | ---\n--- | ---\nend\n", "t.score:6:1: error: pattern 'p' has more than 1 row"},
    {HEAD "pattern p 1\nC-4 a | ---\n", "t.score:4:1: error: pattern 'p' has no 'end'"},
    {HEAD "pattern p 1\nH-4 a | ---\nend\n",
     "t.score:5:1: error: expected a note (C-4, D#5), '---' or '===', found 'H-4'"},
    {HEAD "pattern p 1\nC-4 a | E#4\nend\n",
     "t.score:5:9: error: expected a note (C-4, D#5), '---' or '===', found 'E#4'"},
    {HEAD "pattern p 1\nc-4 a | ---\nend\n",
     "t.score:5:1: error: expected a note (C-4, D#5), '---' or '===', found 'c-4'"},
    {HEAD "pattern p 1\nC-10 a | ---\nend\n",
     "t.score:5:1: error: expected a note (C-4, D#5), '---' or '===', found 'C-10'"},
    {HEAD "pattern p 1\nC-4 leed | ---\nend\n", "t.score:5:5: error: unknown instrument 'leed'"},
    {HEAD "pattern p 2\nC-4 a | ---\n--- | C-4\nend\n",
     "t.score:6:7: error: the note has no instrument (the first note of a channel in a pattern "
     "names one)"},
    {HEAD "pattern p 1\nC-4 a | --- | ---\nend\n", "t.score:5:1: error: expected 2 cells split by '|', found 3"},
    {HEAD "pattern p 1\nC-4 a\nend\n", "t.score:5:1: error: expected 2 cells split by '|', found 1"},
    {HEAD "pattern p 1\nC-4 a |   \nend\n", "t.score:5:8: error: expected a note, '---' or '===', found nothing"},
    {HEAD "pattern p 1\nC-4 a |\nend\n", "t.score:5:8: error: expected a note, '---' or '===', found nothing"},
    {HEAD "pattern p 1\nC-4 a v101 | ---\nend\n", "t.score:5:7: error: volume v101 is out of range (v0..v100)"},
    {HEAD "pattern p 1\nC-4 a v5 v6 | ---\nend\n",
     "t.score:5:10: error: expected '|' or the end of the row, found 'v6'"},
    {HEAD "pattern p 1\nC-4 v5 a | ---\nend\n", "t.score:5:8: error: expected '|' or the end of the row, found 'a'"},
    {HEAD "pattern p 1\n--- a | ---\nend\n", "t.score:5:5: error: expected '|' or the end of the row, found 'a'"},
    {HEAD "pattern p 1\nC-4 a | ---\nend now\n",
     "t.score:6:5: error: expected the end of the line after 'end', found 'now'"},
    {HEAD PAT "order p q\n", "t.score:8:9: error: unknown pattern 'q'"},
    {HEAD PAT "order\n", "t.score:8:6: error: expected a pattern name, found the end of the line"},
    {HEAD PAT "order p\norder p\n", "t.score:9:1: error: 'order' given twice (first on line 8)"},
    {HEAD PAT, "t.score: error: no 'order' line"},
    {"channels 1\n", "t.score: error: no 'tempo' line"},
    {"tempo 120\n", "t.score: error: no 'channels' line"},
    {"", "t.score: error: an empty file (0 bytes): expected a score (tempo, channels, patterns, order)"},
    {"\n", "t.score: error: no 'tempo' line"},
    {"tempo 40\nrows_per_beat 1\nchannels 1\ninstrument a wave=sine\npattern p 100\n"
     "C-4 a\n" /* 99 more rows, end and order added by the test */,
     "t.score:107:1: error: the song is 150.0 s long, at most 120 s"},
    {"\xEF\xBB\xBFtempo 999\n", "t.score:1:7: error: tempo 999 is out of range (40..300)"},
};

static void test_errors(void) {
    char long_song[4096];
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        const char *text = errors[i].text;
        if (strstr(text, "pattern p 100")) { /* the song too long: 100 beats at 40 bpm */
            size_t n = (size_t)snprintf(long_song, sizeof long_song, "%s", text);
            for (int r = 0; r < 99; r++) n += (size_t)snprintf(long_song + n, sizeof long_song - n, "---\n");
            snprintf(long_song + n, sizeof long_song - n, "end\norder p\n");
            text = long_song;
        }
        const char *got = render_(text);
        if (strcmp(got, errors[i].message)) {
            fprintf(stderr, "error case %zu:\n  got  %s\n  want %s\n", i, got, errors[i].message);
            check_failures_++;
        }
    }
    Error err;
    Sound s;
    CHECK(!st_music_load(perm, "/nonexistent/x.score", &s, &err));
    CHECK(!strcmp(err.message, "/nonexistent/x.score: error: cannot open: No such file or directory"));
}

static uint64_t hash_(Sound s) { return st_hash_fnv1a(HASH_FNV1A_INIT, s.samples, s.frames * sizeof *s.samples); }

static Str8 read_(const char *path) {
    Str8 text = {0};
    if (!st_os_read_file(perm, path, MUSIC_FILE_MAX, &text, NULL)) fprintf(stderr, "%s: cannot read\n", path);
    return text;
}

/* The loop point: the last sample runs into the first as any two neighbours do. A note cut
   dead at the end would jump by thousands; the fold keeps it under 1000 (3% of full scale). */
static void check_seam_(const char *what, Sound s) {
    int32_t seam = abs(s.samples[s.frames - 1] - s.samples[0]);
    if (seam > 1000) fprintf(stderr, "%s: seam %d\n", what, seam);
    CHECK(seam <= 1000);
}

static void test_fixture(const char *assets) {
    char path[1024];
    snprintf(path, sizeof path, "%s/../tests/audio/scores/loop.score", assets);
    Str8 text = read_(path);
    REQUIRE_VOID(text.len > 0);
    Error err;
    Sound a, b;
    uint64_t before = st_arena_pos(perm);
    bool ok = st_music_render(perm, text, path, &a, &err);
    if (!ok) fprintf(stderr, "%s\n", err.message);
    REQUIRE_VOID(ok);
    CHECK_EQ_U(a.frames, 120000);                        /* 20 rows of 6000 frames */
    CHECK_EQ_U(st_arena_pos(perm) - before, 120000 * 2); /* the PCM and nothing else */
    REQUIRE_VOID(st_music_render(perm, text, path, &b, &err));
    CHECK(a.frames == b.frames && hash_(a) == hash_(b));
    /* The bits themselves, recorded when the fixture was written: a change here means the
       synth or the renderer changed every shipped loop too (update it only on purpose). */
    if (hash_(a) != 0xf7dcea8175187bd7ull) fprintf(stderr, "loop.score hash 0x%016llx\n", (unsigned long long)hash_(a));
    CHECK(hash_(a) == 0xf7dcea8175187bd7ull);
    int32_t peak = 0;
    double sum = 0;
    for (uint32_t i = 0; i < a.frames; i++) {
        peak = abs(a.samples[i]) > peak ? abs(a.samples[i]) : peak;
        sum += a.samples[i];
    }
    CHECK(peak > 8000 && peak < 32767);
    CHECK(sum / a.frames > -100 && sum / a.frames < 100);
    check_seam_("loop.score", a);
    /* The held notes are sounding at the seam: it is not quiet there by luck. */
    int32_t near_end = 0;
    for (uint32_t i = a.frames - 480; i < a.frames; i++)
        near_end = abs(a.samples[i]) > near_end ? abs(a.samples[i]) : near_end;
    CHECK(near_end > 2000);
}

static void test_shipped(const char *assets) {
    static const struct {
        const char *name;
        double lo, hi; /* seconds */
    } scores[] = {{"title", 16, 24}, {"play", 24, 32}, {"victory", 8, 12}};
    for (size_t i = 0; i < 3; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/music/%s.score", assets, scores[i].name);
        Error err;
        Sound s;
        bool ok = st_music_load(perm, path, &s, &err);
        if (!ok) fprintf(stderr, "%s\n", err.message);
        CHECK(ok);
        if (!ok) continue;
        double seconds = (double)s.frames / AUDIO_RATE;
        CHECK(seconds >= scores[i].lo && seconds <= scores[i].hi);
        uint32_t clipped = 0;
        for (uint32_t k = 0; k < s.frames; k++) clipped += s.samples[k] == 32767 || s.samples[k] == -32768;
        CHECK_EQ_U(clipped, 0);
        check_seam_(path, s);
    }
}

static uint32_t rng_ = 12345;
static uint32_t next_(void) {
    rng_ ^= rng_ << 13, rng_ ^= rng_ >> 17, rng_ ^= rng_ << 5;
    return rng_;
}

/* Any failure is a proper message; a success is a real loop. */
static void check_outcome_(bool ok, Sound s, const Error *err) {
    if (ok) CHECK(s.frames > 0 && s.frames <= MUSIC_MAX_SECONDS * AUDIO_RATE && s.samples);
    else CHECK(!strncmp(err->message, "f.score", 7) && strstr(err->message, ": error: "));
}

static void test_fuzz(const char *assets) {
    char path[1024];
    snprintf(path, sizeof path, "%s/../tests/audio/scores/loop.score", assets);
    Str8 text = read_(path);
    REQUIRE_VOID(text.len > 0);
    char *buf = malloc(text.len + 1); /* a test: the heap shows ASan any read past the end */
    REQUIRE_VOID(buf);
    /* Cut anywhere before the order's last name, the score is incomplete: always an error. */
    const char *order = strstr(text.data, "order a b a");
    REQUIRE_VOID(order);
    uint64_t must_fail = (uint64_t)(order - text.data) + strlen("order a");
    for (uint64_t n = 0; n <= text.len; n++) {
        memcpy(buf, text.data, n);
        Error err;
        Sound s;
        uint64_t before = st_arena_pos(perm);
        bool ok = st_music_render(perm, st_str8_make(buf, n), "f.score", &s, &err);
        check_outcome_(ok, s, &err);
        if (n < must_fail) CHECK(!ok);
        st_arena_pop_to(perm, before);
    }
    /* Mutations: a few bytes replaced by the characters the format gives meaning to, and by
       bytes it has none for. */
    static const char alphabet[] = "|#-=.v \n\t0123456789ABCDEFG#abz\xff\x00";
    uint32_t failed = 0, runs = 3000;
    for (uint32_t r = 0; r < runs; r++) {
        memcpy(buf, text.data, text.len);
        uint32_t edits = 1 + next_() % 4;
        for (uint32_t e = 0; e < edits; e++) buf[next_() % text.len] = alphabet[next_() % (sizeof alphabet - 1)];
        uint64_t len = next_() % 8 == 0 ? next_() % text.len : text.len;
        Error err;
        Sound s;
        uint64_t before = st_arena_pos(perm);
        bool ok = st_music_render(perm, st_str8_make(buf, len), "f.score", &s, &err);
        check_outcome_(ok, s, &err);
        if (!ok) CHECK_EQ_U(st_arena_pos(perm), before);
        failed += !ok;
        st_arena_pop_to(perm, before);
    }
    CHECK(failed > runs / 2); /* strict: most damage is caught, not played */
    free(buf);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_music ASSETS_DIR\n");
        return 2;
    }
    perm = st_arena_create((ArenaParams){.name = "perm"});
    REQUIRE(perm);
    test_errors();
    test_fixture(argv[1]);
    test_shipped(argv[1]);
    test_fuzz(argv[1]);
    st_arena_release(perm);
    return check_result();
}
