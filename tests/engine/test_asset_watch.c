/* Asset hot reload (asset_watch.h): a PNG written, loaded, changed on disk, and the same
   Texture draws the new pixels after the poll's frame, not before; a new size; a truncated
   PNG and a vanished file keep the old pixels and say why, naming the file; fixed, it loads.
   A WAV playing in the mixer is replaced and the mix changes; a second change while the
   mixer still holds the old samples waits, and those samples stay intact until it lets go;
   a broken WAV keeps the sound; a sound loaded later elsewhere is not reloaded before it is
   handed in. argv[1]: a work folder. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "portable.h"
#include <strata/asset/asset.h>
#include <strata/asset/asset_watch.h>
#include <strata/audio/mixer.h>
#include <strata/core/diag_capture.h>
#include <strata/core/os_file.h>
#include <strata/platform/platform.h>

static Arena *perm, *frame, *said;
static Renderer *rd;
static int version = 1;

/* Each write of a file gets its own modification time, a second apart, so that the change
   is seen whatever the file system's clock (its size may well be the same). */
static void stamp(const char *path) {
    struct timespec t[2] = {{.tv_sec = 1000000 + version}, {.tv_sec = 1000000 + version}};
    version++;
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

static void write_png(const char *path, int w, int h, Color c) {
    uint8_t *px = st_arena_push_raw(perm, (uint64_t)w * h * 4, 16);
    for (int i = 0; i < w * h; i++) memcpy(px + 4 * i, &c, 4);
    Error err;
    REQUIRE_VOID(st_asset_write_png(path, px, w, h, &err));
    stamp(path);
}

static void write_bytes(const char *path, const void *p, uint64_t n) {
    Error err;
    REQUIRE_VOID(st_os_write_file_atomic(path, p, n, &err));
    stamp(path);
}

/* The middle of a frame that draws cell 0 of `t` over the whole picture. */
static Color drawn(const Texture *t) {
    st_arena_clear(frame);
    st_render_begin(rd, frame, COLOR_BLACK);
    TextureInfo ti = st_render_texture_info(t);
    st_render_sprite(rd, t, (RectF){0, 0, (float)ti.cell_w, (float)ti.cell_h}, (RectF){0, 0, 480, 270}, 0, COLOR_WHITE,
                     0);
    st_render_end(rd);
    uint8_t *px;
    int w, h;
    Color c = {0};
    if (st_render_read_pixels(rd, frame, &px, &w, &h)) memcpy(&c, px + 4 * ((size_t)(h / 2) * w + w / 2), 4);
    st_render_present(rd);
    return c;
}

static bool same(Color a, Color b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

/* Frames 1..n polled; the frame the poll reloaded something on (0: none). */
static uint64_t run_frames(AssetWatch *aw, uint64_t *f, int n) {
    uint64_t at = 0;
    for (int i = 0; i < n; i++, (*f)++)
        if (st_asset_watch_poll(aw, *f) && !at) at = *f;
    return at;
}

static bool said_has(const DiagCapture *cap, DiagLevel level, const char *a, const char *b) {
    for (const DiagCaptured *c = cap->first; c; c = c->next)
        if (c->d.level == level && strstr(c->d.text, a) && (!b || strstr(c->d.text, b))) return true;
    return false;
}

static const Color RED = {200, 30, 30, 255}, BLUE = {30, 40, 220, 255}, GREEN = {20, 210, 60, 255};

static void test_texture(AssetWatch *aw, const char *dir) {
    const char *path = st_asset_path(perm, dir, "tiles.png");
    write_png(path, 32, 16, RED);
    Error err;
    Texture *t = st_asset_watch_texture(aw, rd, perm, path, 16, 16, &err);
    REQUIRE_VOID(t);
    CHECK(same(drawn(t), RED));
    uint64_t f = 1;
    write_png(path, 32, 16, BLUE);
    /* Not before the watch's frame (every ASSET_WATCH_EVERY), then at it. */
    uint64_t at = run_frames(aw, &f, ASSET_WATCH_EVERY - 2);
    CHECK_EQ_U(at, 0);
    CHECK(same(drawn(t), RED));
    at = run_frames(aw, &f, 2);
    CHECK_EQ_U(at, ASSET_WATCH_EVERY);
    CHECK(same(drawn(t), BLUE)); /* the same handle, the new pixels */
    /* A new size: a new grid behind the same handle. */
    write_png(path, 48, 32, GREEN);
    CHECK_EQ_U(st_asset_watch_check(aw), 1);
    TextureInfo ti = st_render_texture_info(t);
    CHECK(ti.w == 48 && ti.h == 32 && ti.cols == 3 && ti.rows == 2);
    CHECK(same(drawn(t), GREEN));
    /* Truncated: the old pixels stay, and the reason names the file. */
    DiagCapture cap;
    st_diag_capture_begin(&cap, said);
    /* Not a whole number of cells, which the first load refuses: refused here too. */
    write_png(path, 17, 33, BLUE);
    CHECK_EQ_U(st_asset_watch_check(aw), 0);
    ti = st_render_texture_info(t);
    CHECK(ti.w == 48 && ti.h == 32 && ti.cols == 3 && ti.rows == 2);
    CHECK(same(drawn(t), GREEN));
    CHECK(said_has(&cap, DIAG_ERROR, path, "not a whole number of 16x16 cells"));
    CHECK(st_asset_load_texture(rd, perm, path, 16, 16, &err) == NULL && strstr(err.message, "not a whole number"));
    write_png(path, 48, 32, GREEN);
    CHECK_EQ_U(st_asset_watch_check(aw), 1);
    uint32_t errors = cap.of[DIAG_ERROR];
    Str8 whole;
    REQUIRE_VOID(st_os_read_file(perm, path, 1 << 20, &whole, &err));
    write_bytes(path, whole.data, whole.len / 2);
    CHECK_EQ_U(st_asset_watch_check(aw), 0);
    CHECK(same(drawn(t), GREEN));
    CHECK(said_has(&cap, DIAG_ERROR, path, "kept the one loaded before"));
    CHECK_EQ_U(st_asset_watch_check(aw), 0); /* said once per change, not at every look */
    CHECK_EQ_U(cap.of[DIAG_ERROR], errors + 1);
    /* Gone (removed mid-save): a warning, the pixels kept; back, it loads. */
    CHECK(st_os_remove(path));
    CHECK_EQ_U(st_asset_watch_check(aw), 0);
    CHECK(said_has(&cap, DIAG_WARNING, path, "gone"));
    CHECK(same(drawn(t), GREEN));
    write_png(path, 48, 32, RED);
    CHECK_EQ_U(st_asset_watch_check(aw), 1);
    CHECK(same(drawn(t), RED));
    CHECK(said_has(&cap, DIAG_NOTE, "reloaded", path));
    st_diag_capture_end(&cap);
}

/* A mono WAV of `frames` frames at `level` (written as stereo, mixed down on load). */
static void write_wav(const char *path, int16_t level, uint32_t frames) {
    int16_t *st = st_arena_push_array(perm, int16_t, 2 * frames);
    for (uint32_t i = 0; i < 2 * frames; i++) st[i] = level;
    Error err;
    REQUIRE_VOID(st_sound_write_wav(path, st, frames, AUDIO_RATE, &err));
    stamp(path);
}

/* The mix's level over one render of 512 frames (a constant sound: the last sample). */
static float mixed(Mixer *mx) {
    static float out[2 * 512];
    st_mixer_render(mx, out, 512);
    return out[2 * 511];
}

static int notices;
static void on_notice(void *state, const char *line) {
    (void)state, (void)line;
    notices++;
}

static void test_sound(AssetWatch *aw, const char *dir) {
    const char *path = st_asset_path(perm, dir, "hum.wav");
    write_wav(path, 8000, 4800);
    Mixer *mx = st_mixer_create(perm, AUDIO_RATE);
    st_mixer_set_limiter(mx, false);
    st_asset_watch_set_mixer(aw, mx);
    Sound hum;
    Error err;
    REQUIRE_VOID(st_asset_watch_sound(aw, perm, path, st_sound_load, &hum, &err));
    CHECK(st_mixer_play(mx, &(MixerPlay){.sound = &hum, .volume = 1, .loop = true}) != 0);
    float before = mixed(mx);
    CHECK(before > 0.1f);
    /* Replaced while it plays: the voice goes on in the new samples. */
    const int16_t *first = hum.samples;
    write_wav(path, 16000, 9600);
    CHECK_EQ_U(st_asset_watch_check(aw), 1);
    CHECK(hum.samples != first && hum.frames == 9600);
    float after = mixed(mx);
    CHECK(after > before * 1.8f && after < before * 2.2f);
    /* Changed again before the mixer has taken the swap: the old slot is still read, so the
       change waits and the old samples stay as they were. */
    const int16_t *second = hum.samples;
    write_wav(path, 4000, 4800);
    CHECK_EQ_U(st_asset_watch_check(aw), 1); /* the mixer took the first swap: free */
    const int16_t *third = hum.samples;
    CHECK(third == first); /* the first slot, reused */
    write_wav(path, 2000, 4800);
    CHECK_EQ_U(st_asset_watch_check(aw), 0);
    CHECK_EQ_U(st_asset_watch_stats(aw).waiting, 1);
    CHECK(second[100] == 16000 && hum.samples == third);
    float waited = mixed(mx); /* the audio thread takes the swap */
    CHECK(waited > 0.05f && waited < before * 0.6f);
    CHECK_EQ_U(st_asset_watch_check(aw), 1);
    CHECK(hum.samples == second && hum.samples[100] == 2000);
    CHECK(mixed(mx) < before * 0.3f);
    /* A bad WAV: the sound stays, the reason names the file. */
    DiagCapture cap;
    st_diag_capture_begin(&cap, said);
    write_bytes(path, "RIFF\x10\0\0\0WAVEjunk", 16);
    CHECK_EQ_U(st_asset_watch_check(aw), 0);
    CHECK(hum.samples == second && hum.samples[100] == 2000);
    CHECK(said_has(&cap, DIAG_ERROR, path, "kept the one loaded before"));
    st_diag_capture_end(&cap);
    write_wav(path, 12000, 4800);
    CHECK_EQ_U(st_asset_watch_check(aw), 1);
    CHECK(mixed(mx) > before * 1.3f);
    /* Two versions at most, however many saves. */
    AssetWatchStats s = st_asset_watch_stats(aw);
    printf("sound slots: %llu bytes committed after %u reloads (%u failed)\n", (unsigned long long)s.sound_bytes,
           s.reloads, s.failures);
    CHECK(s.sound_bytes < 4 * 9600 * 2 + (1u << 20));
}

/* A sound loaded elsewhere, later (the music worker): silent and not reloaded until the
   result is handed in, however its file changes meanwhile; then the change waiting is
   taken at the next look. */
static void test_sound_later(AssetWatch *aw, const char *dir) {
    const char *path = st_asset_path(perm, dir, "later.wav");
    write_wav(path, 8000, 4800);
    Sound s;
    Error err;
    REQUIRE_VOID(st_asset_watch_sound_later(aw, perm, path, st_sound_load, &s, &err));
    CHECK_EQ_U(s.frames, 0);
    uint32_t reloads = st_asset_watch_stats(aw).reloads;
    write_wav(path, 16000, 4800);
    CHECK_EQ_U(st_asset_watch_check(aw), 0);
    CHECK_EQ_U(st_asset_watch_stats(aw).waiting, 1);
    CHECK(s.frames == 0 && st_asset_watch_stats(aw).reloads == reloads);
    Sound first;
    REQUIRE_VOID(st_sound_load(perm, path, &first, &err));
    write_wav(path, 4000, 2400);
    st_asset_watch_sound_ready(aw, &s, &first);
    CHECK(s.samples == first.samples && s.frames == 4800);
    CHECK_EQ_U(st_asset_watch_check(aw), 1);
    CHECK(s.samples != first.samples && s.frames == 2400 && s.samples[100] == 4000);
    CHECK_EQ_U(st_asset_watch_stats(aw).waiting, 0);
}

int main(int argc, char **argv) {
    REQUIRE(argc == 2);
    perm = st_arena_create((ArenaParams){.name = "perm"});
    frame = st_arena_create((ArenaParams){.name = "frame"});
    said = st_arena_create((ArenaParams){.name = "said"});
    REQUIRE(st_os_make_dirs(argv[1]));
    Platform *pf = st_platform_create(perm, &(PlatformDesc){.logical_w = 480, .logical_h = 270, .headless = true});
    REQUIRE(pf);
    rd = st_render_create(perm, pf);
    REQUIRE(rd);
    AssetWatch *aw = st_asset_watch_create(perm);
    REQUIRE(aw);
    st_asset_watch_set_notice(aw, on_notice, NULL);
    test_texture(aw, argv[1]);
    test_sound(aw, argv[1]);
    test_sound_later(aw, argv[1]);
    CHECK(notices == (int)st_asset_watch_stats(aw).reloads && notices >= 7);
    st_asset_watch_release(aw);
    st_render_release(rd);
    st_platform_release(pf);
    return check_result();
}
