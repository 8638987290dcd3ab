/* test_cues.c - what the game sounds like, heard offline:
   - a shot fired on a known tick is heard from exactly that tick's block of samples, on
     the side of the screen it was fired from, and nothing is heard before it;
   - a replay mixed with --audio-out (AppRunOptions.audio_out) has the replay's length, is not
     silent, and is the same bytes when mixed again; the loudest replay's true peak stays
     under the master limiter's -1 dBTP;
   - menu moves and choices tick, and a sound file that is missing is a warning and silence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <strata/core/diag_capture.h>
#include "app_run.h"
#include "check.h"
#include "portable.h"
#include <strata/audio/limiter.h>
#include <strata/audio/music.h>
#include "front/cues.h"

static char dir[] = "/tmp/test_cues_XXXXXX";

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) exit(1);
    fputs(text, f);
    fclose(f);
}

/* The first frame (of `frames` stereo frames) where either channel is not zero; -1 if none. */
static int64_t first_sound(const int16_t *pcm, uint64_t frames) {
    for (uint64_t i = 0; i < frames; i++)
        if (pcm[2 * i] || pcm[2 * i + 1]) return (int64_t)i;
    return -1;
}

static int64_t first_sound_mono(const int16_t *s, uint32_t frames) {
    for (uint32_t i = 0; i < frames; i++)
        if (s[i]) return i;
    return -1;
}

/* A corridor; the player starts at its left end facing right. Ticks of nothing, then one
   tick of fire: the shot's sound starts with the block mixed after that tick. */
static void test_shot_offset(Arena *perm) {
    char lvl[300];
    snprintf(lvl, sizeof lvl, "%s/corridor.lvl", dir);
    write_text(lvl, "name: Corridor\nmap:\n##############################\n#@...........................#\n"
                    "##############################\nend\n");
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Game *g = st_arena_push_struct(perm, Game);
    Error err;
    REQUIRE_VOID(game_init(g, level, &(GameConfig){.start_level = lvl, .seed = 1, .skip_title = true}, &err));
    /* Only the shot: no music, nothing else, so the first sample heard is the shot's. */
    CueBank bank = {0};
    Error serr;
    REQUIRE_VOID(st_sound_load(perm, SOURCE_DIR "/assets/sounds/shot.wav", &bank.sounds[CUE_SHOT], &serr));
    Mixer *mx = st_mixer_create(perm, AUDIO_RATE);
    REQUIRE_VOID(mx);
    Cues cues;
    cues_init(&cues, mx, &bank, 1);
    cues_set_volumes(&cues, &g->save.settings, false, false);
    DrawView view = draw_view_make(480, 270);
    draw_view_update(&view, g);

    enum { TICKS = 40, FIRE_TICK = 25 };
    int16_t *pcm = st_arena_push_array(perm, int16_t, 2 * APP_AUDIO_TICK_FRAMES * TICKS);
    REQUIRE_VOID(pcm);
    for (int t = 0; t < TICKS; t++) {
        game_update(g, t == FIRE_TICK ? SIM_IN_FIRE : 0);
        draw_view_update(&view, g);
        cues_update(&cues, g, &view);
        st_mixer_render_s16(mx, pcm + 2 * APP_AUDIO_TICK_FRAMES * t, APP_AUDIO_TICK_FRAMES);
    }
    /* Silence before the shot's block; from it on, the shot, once its own leading zeros (its
       attack starts at 0) have played, give or take the +-4% pitch. */
    const Sound *shot = &bank.sounds[CUE_SHOT];
    int64_t lead = first_sound_mono(shot->samples, shot->frames);
    int64_t at = first_sound(pcm, (uint64_t)APP_AUDIO_TICK_FRAMES * TICKS);
    int64_t block = (int64_t)FIRE_TICK * APP_AUDIO_TICK_FRAMES;
    CHECK(lead >= 0 && lead < 64);
    /* MIXER_LATENCY: the master limiter's look-ahead delays everything by that much. */
    CHECK(at >= block + MIXER_LATENCY && at <= block + MIXER_LATENCY + lead + 2);
    CHECK_EQ_U(cues.plays, 1);
    /* The player stands at the left of the view: the shot is louder on the left. */
    double left = 0, right = 0;
    for (int i = FIRE_TICK * APP_AUDIO_TICK_FRAMES; i < TICKS * APP_AUDIO_TICK_FRAMES; i++) {
        left += abs(pcm[2 * i]);
        right += abs(pcm[2 * i + 1]);
    }
    printf("shot heard from frame %lld, left %.0f, right %.0f\n",
           (long long)first_sound(pcm, (uint64_t)APP_AUDIO_TICK_FRAMES * TICKS), left, right);
    CHECK(left > right * 1.2);

    /* A paused game's event list is not played again. */
    uint64_t plays = cues.plays;
    game_update(g, GAME_IN_PAUSE);
    for (int t = 0; t < 10; t++) {
        game_update(g, 0);
        cues_update(&cues, g, &view);
    }
    CHECK_EQ_U(cues.plays, plays);
    st_arena_release(level);
}

static uint64_t read_file(const char *path, char *buf, uint64_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint64_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* One replay mixed offline twice: its length, not silent, the same bytes. */
static void test_audio_out(Arena *perm) {
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/a.wav", dir);
    snprintf(b, sizeof b, "%s/b.wav", dir);
    const char *paths[2] = {a, b};
    uint32_t ticks = 0;
    for (int run = 0; run < 2; run++) {
        App *app = app_run_create(perm, &(AppRunOptions){.replay = SOURCE_DIR "/tests/replays/01-first-steps.rep",
                                                         .headless = true,
                                                         .skip_title = true,
                                                         .no_save = true,
                                                         .audio_out = paths[run]});
        REQUIRE_VOID(app);
        CHECK(app->mixer && !app->audio);
        CHECK_EQ_I(app->bank.missing, 0);
        while (app_run_frame(app)) {
        }
        ticks = app->replay.ticks;
        CHECK_EQ_I(app_run_release(app), 0);
    }
    uint64_t want = 44 + (uint64_t)ticks * APP_AUDIO_TICK_FRAMES * 4;
    static char da[64 << 20], db[64 << 20];
    uint64_t na = read_file(a, da, sizeof da), nb = read_file(b, db, sizeof db);
    printf("--audio-out: %u ticks, %llu bytes\n", ticks, (unsigned long long)na);
    CHECK_EQ_U(na, want);
    CHECK_EQ_U(nb, want);
    CHECK(na == nb && memcmp(da, db, na) == 0);
    CHECK(na > 44 && memcmp(da, "RIFF", 4) == 0 && memcmp(da + 8, "WAVE", 4) == 0);
    /* Not silent: a good share of the frames carry sound (the music loops throughout). */
    const int16_t *pcm = (const int16_t *)(da + 44);
    uint64_t frames = (na - 44) / 4, loud = 0;
    for (uint64_t i = 0; i < frames; i++) loud += abs(pcm[2 * i]) > 64 || abs(pcm[2 * i + 1]) > 64;
    printf("--audio-out: %llu of %llu frames above -54 dBFS\n", (unsigned long long)loud, (unsigned long long)frames);
    CHECK(loud > frames / 4);
}

/* The mastered output stays under -1 dBTP: the replay of the vault, whose unlimited mix
   peaks at +0.07 dBTP (samples at full scale), mixed offline and measured 4x oversampled. */
static void test_true_peak(Arena *perm) {
    char path[300];
    snprintf(path, sizeof path, "%s/vault.wav", dir);
    App *app = app_run_create(perm, &(AppRunOptions){.replay = SOURCE_DIR "/tests/replays/07-the-vault.rep",
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .audio_out = path});
    REQUIRE_VOID(app);
    while (app_run_frame(app)) {
    }
    CHECK_EQ_I(app_run_release(app), 0); /* the replay's hash: the sim does not hear the limiter */
    static char wav[256 << 20];
    uint64_t n = read_file(path, wav, sizeof wav);
    REQUIRE_VOID(n > 44);
    const int16_t *pcm = (const int16_t *)(wav + 44);
    uint64_t frames = (n - 44) / 4;
    int peak = 0;
    for (uint64_t i = 0; i < 2 * frames; i++) peak = abs(pcm[i]) > peak ? abs(pcm[i]) : peak;
    TruePeak tp;
    st_true_peak_init(&tp);
    st_true_peak_feed_s16(&tp, pcm, frames);
    printf("vault --audio-out: %llu frames, sample peak %d, true peak %.2f dBTP (ceiling %.1f)\n",
           (unsigned long long)frames, peak, (double)st_true_peak_dbtp(&tp), (double)LIMITER_CEILING_DBTP);
    CHECK(st_true_peak_dbtp(&tp) <= LIMITER_CEILING_DBTP);
    CHECK(peak > 16384); /* limited, not silenced */
}

/* A hostile Ogg as a sound of the game (--assets DIR): a warning naming it and what is
   wrong, that sound silent, the game running. It used to crash at start-up inside
   stb_vorbis (the file's CRCs are right; its setup header lies). */
static void test_hostile_sound(Arena *perm) {
    char assets[300], shot[340], out[340];
    snprintf(assets, sizeof assets, "%s/hostile-assets", dir);
    snprintf(shot, sizeof shot, "%s/sounds/shot.wav", assets);
    REQUIRE_VOID(test_copy_tree(SOURCE_DIR "/assets", assets, NULL));
    REQUIRE_VOID(test_copy_file(SOURCE_DIR "/tests/audio/fixtures/hostile/residue2-scratch.ogg", shot));
    snprintf(out, sizeof out, "%s/hostile.wav", dir);
    Arena *reports = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    App *app = app_run_create(perm, &(AppRunOptions){.level = SOURCE_DIR "/levels/01-first-steps.lvl",
                                                     .assets = assets,
                                                     .headless = true,
                                                     .skip_title = true,
                                                     .no_save = true,
                                                     .audio_out = out});
    REQUIRE_VOID(app);
    CHECK_EQ_I(app->bank.missing, 1);
    CHECK(app->bank.sounds[CUE_SHOT].frames == 0 && app->bank.sounds[CUE_COIN].frames > 0);
    bool named = false;
    for (const DiagCaptured *c = cap.first; c; c = c->next)
        named |= strstr(c->d.text, "shot.wav: error: invalid Vorbis setup header") != NULL;
    for (int i = 0; i < 60; i++) CHECK(app_run_frame(app));
    app_run_release(app); /* the sink back to the capture */
    st_diag_capture_end(&cap);
    CHECK(named);
    st_arena_release(reports);
}

/* Menus tick; a missing file is a warning and silence. */
static void test_menus_and_missing(Arena *perm) {
    char assets[300];
    snprintf(assets, sizeof assets, "%s/assets", dir);
    char sub[340];
    snprintf(sub, sizeof sub, "%s/sounds", assets);
    char music[340];
    snprintf(music, sizeof music, "%s/music", assets);
    REQUIRE_VOID(st_os_make_dirs(sub) && st_os_make_dirs(music));
    OsDirList sounds;
    REQUIRE_VOID(st_os_list_dir(perm, SOURCE_DIR "/assets/sounds", &sounds));
    for (uint64_t i = 0; i < sounds.count; i++) {
        const char *name = sounds.entries[i].name.data;
        if (strncmp(name, "menu_", 5) != 0 || !st_str8_ends_with(sounds.entries[i].name, STR8_LIT(".wav"))) continue;
        char from[400], to[400];
        snprintf(from, sizeof from, "%s/assets/sounds/%s", SOURCE_DIR, name);
        snprintf(to, sizeof to, "%s/%s", sub, name);
        REQUIRE_VOID(test_copy_file(from, to));
    }
    Arena *reports = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    CueBank bank;
    cues_load(&bank, perm, NULL, assets);
    st_diag_capture_end(&cap);
    CHECK_EQ_I(bank.loaded, 2);
    CHECK_EQ_I(bank.missing, CUE_SOUND_COUNT + CUE_MUSIC_COUNT - 2);
    CHECK_EQ_U(cap.of[DIAG_WARNING], (uint32_t)bank.missing);
    CHECK(bank.sounds[CUE_SHOT].frames == 0 && bank.sounds[CUE_MENU_MOVE].frames > 0);
    st_arena_release(reports);

    char lvl[300];
    snprintf(lvl, sizeof lvl, "%s/corridor.lvl", dir);
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Game *g = st_arena_push_struct(perm, Game);
    Error err;
    REQUIRE_VOID(game_init(g, level, &(GameConfig){.start_level = lvl, .seed = 1}, &err));
    Mixer *mx = st_mixer_create(perm, AUDIO_RATE);
    Cues cues;
    cues_init(&cues, mx, &bank, 1);
    DrawView view = draw_view_make(480, 270);
    cues_update(&cues, g, &view); /* the title as it opens: nothing yet */
    CHECK_EQ_U(cues.plays, 0);
    game_update(g, SIM_IN_DOWN);
    cues_update(&cues, g, &view);
    CHECK_EQ_U(cues.plays, 1); /* a move */
    game_update(g, 0);
    cues_update(&cues, g, &view);
    game_update(g, GAME_IN_CONFIRM); /* Level select */
    cues_update(&cues, g, &view);
    CHECK_EQ_I(g->screen, SCREEN_LEVEL_SELECT);
    CHECK_EQ_U(cues.plays, 2);
    st_arena_release(level);
}

/* Music by mood: the title's loop, then on New run the play loop fading in while the
   title's fades out (two voices for the crossfade), one voice once it is over, and a new
   level starts the play loop again the same way. */
static void test_music_moods(Arena *perm) {
    CueBank bank = {0};
    Error serr;
    REQUIRE_VOID(st_music_load(perm, SOURCE_DIR "/assets/music/title.score", &bank.music[CUE_MUSIC_TITLE], &serr));
    REQUIRE_VOID(st_music_load(perm, SOURCE_DIR "/assets/music/play.score", &bank.music[CUE_MUSIC_PLAY], &serr));
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Game *g = st_arena_push_struct(perm, Game);
    Error err;
    REQUIRE_VOID(
        game_init(g, level, &(GameConfig){.start_level = SOURCE_DIR "/levels/01-first-steps.lvl", .seed = 1}, &err));
    Mixer *mx = st_mixer_create(perm, AUDIO_RATE);
    Cues cues;
    cues_init(&cues, mx, &bank, 1);
    DrawView view = draw_view_make(480, 270);
    int16_t buf[2 * APP_AUDIO_TICK_FRAMES];
    cues_update(&cues, g, &view);
    st_mixer_render_s16(mx, buf, APP_AUDIO_TICK_FRAMES);
    CHECK_EQ_I(cues.music, CUE_MUSIC_TITLE);
    CHECK_EQ_U(st_mixer_stats(mx).voices_active, 1);
    VoiceId title = cues.music_voice;
    game_update(g, GAME_IN_CONFIRM); /* New run */
    CHECK_EQ_I(g->screen, SCREEN_PLAYING);
    cues_update(&cues, g, &view);
    st_mixer_render_s16(mx, buf, APP_AUDIO_TICK_FRAMES);
    CHECK_EQ_I(cues.music, CUE_MUSIC_PLAY);
    CHECK(cues.music_voice != title && cues.music_voice != 0);
    CHECK_EQ_U(st_mixer_stats(mx).voices_active, 2);
    for (int t = 0; t < (int)(CUE_CROSSFADE_SECONDS * SIM_HZ) + 2; t++) {
        game_update(g, 0);
        cues_update(&cues, g, &view);
        st_mixer_render_s16(mx, buf, APP_AUDIO_TICK_FRAMES);
    }
    CHECK_EQ_U(st_mixer_stats(mx).voices_active, 1);
    /* Restarting the level is a new level for the music too. */
    VoiceId play = cues.music_voice;
    game_update(g, GAME_IN_RESTART);
    cues_update(&cues, g, &view);
    st_mixer_render_s16(mx, buf, APP_AUDIO_TICK_FRAMES);
    CHECK(cues.music_voice != play);
    CHECK_EQ_U(st_mixer_stats(mx).voices_active, 2);
    st_arena_release(level);
}

/* With a sound device neither the music nor the effects are made before the first frame:
   the worker goes once a frame is shown, and the title's loop starts (fading in) on the tick
   after its track comes in, the same samples st_music_load makes. */
static void test_music_after_first_frame(Arena *perm) {
    App *app = app_run_create(perm, &(AppRunOptions){.level = SOURCE_DIR "/levels/01-first-steps.lvl",
                                                     .headless = true,
                                                     .no_save = true,
                                                     .audio = APP_AUDIO_DEVICE});
    REQUIRE_VOID(app);
    CHECK(app->audio && app->mixer && app->music); /* SDL's dummy driver */
    for (int i = 0; i < CUE_MUSIC_COUNT; i++) CHECK_EQ_U(app->bank.music[i].frames, 0);
    for (int i = 0; i < CUE_SOUND_COUNT; i++) CHECK_EQ_U(app->bank.sounds[i].frames, 0);
    CHECK_EQ_I(app->music_waiting, CUE_SOUND_COUNT + CUE_MUSIC_COUNT);
    CHECK(app_run_frame(app)); /* the first frame: still no music made */
    CHECK_EQ_U(app->bank.music[CUE_MUSIC_TITLE].frames, 0);
    CHECK_EQ_U(app->bank.sounds[CUE_MENU_MOVE].frames, 0);
    CHECK(app_run_frame(app)); /* the worker goes */
    st_music_worker_wait(app->music);
    CHECK(app_run_frame(app)); /* the tracks come in; the tick after, the title's loop */
    CHECK(app_run_frame(app));
    CHECK_EQ_I(app->music_waiting, 0);
    CHECK_EQ_I(app->bank.missing, 0);
    CHECK_EQ_I(app->bank.loaded, CUE_SOUND_COUNT + CUE_MUSIC_COUNT);
    CHECK_EQ_I(app->cues.music, CUE_MUSIC_TITLE);
    CHECK(app->cues.music_voice != 0);
    Sound want;
    Error err;
    REQUIRE_VOID(st_music_load(perm, SOURCE_DIR "/assets/music/title.score", &want, &err));
    const Sound *got = &app->bank.music[CUE_MUSIC_TITLE];
    CHECK_EQ_U(got->frames, want.frames);
    CHECK(got->frames == want.frames && memcmp(got->samples, want.samples, want.frames * sizeof *want.samples) == 0);
    CHECK(app->bank.sounds[CUE_MENU_MOVE].frames > 0);
    printf("after the first frame: the effects ready %u ms, the title's loop %u ms after the worker went\n",
           st_music_worker_ms(app->music, CUE_SOUND_COUNT - 1), st_music_worker_ms(app->music, CUE_SOUND_COUNT));
    CHECK_EQ_I(app_run_release(app), 0);
    /* A run that ends before its second frame never renders the music, and ends at once. */
    app = app_run_create(perm, &(AppRunOptions){.level = SOURCE_DIR "/levels/01-first-steps.lvl",
                                                .headless = true,
                                                .no_save = true,
                                                .audio = APP_AUDIO_DEVICE});
    REQUIRE_VOID(app);
    CHECK(app_run_frame(app));
    CHECK_EQ_I(app_run_release(app), 0);
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    REQUIRE(mkdtemp(dir) != NULL);
    REQUIRE(chdir(SOURCE_DIR) == 0); /* replays name their level from the repository's root */
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    REQUIRE(perm);
    test_shot_offset(perm);
    test_audio_out(perm);
    test_true_peak(perm);
    test_hostile_sound(perm);
    test_menus_and_missing(perm);
    test_music_moods(perm);
    test_music_after_first_frame(perm);
    st_arena_release(perm);
    CHECK(test_remove_tree(dir));
    return check_result();
}
