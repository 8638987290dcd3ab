/* test_save.c - the progress file: default location from XDG_DATA_HOME, round trip,
   missing and corrupt files (fresh start with a warning, never a crash), a crashed write
   (a half-written temporary left behind) that loses nothing, and the game recording a
   completed level. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <strata/core/diag_capture.h>
#include "check.h"
#include <strata/core/os_file.h>
#include "rules/game.h"
#include "rules/save.h"

static char dir[] = "/tmp/test_save_XXXXXX";

static void write_file(const char *path, const char *text, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) exit(1);
    fwrite(text, 1, n, f);
    fclose(f);
}

static size_t read_file(const char *path, char *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n;
}

/* The save file's checksum (FNV-1a 64 over every byte before the checksum line), written
   out here so a test can make a file whose checksum is valid and whose content is not. */
static uint64_t fnv1a(const char *s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

static bool same_file(const char *path, const char *text, size_t n) {
    char buf[4096];
    size_t got = read_file(path, buf, sizeof buf);
    return got == n && memcmp(buf, text, n) == 0;
}

static bool same_progress(const SaveData *a, const SaveData *b) {
    return strcmp(a->furthest, b->furthest) == 0 && a->level_count == b->level_count &&
           memcmp(a->levels, b->levels, sizeof a->levels) == 0;
}

/* Plays `level` to its exit with saving on, as a player would. */
static void play_to_exit(Game *g, Arena *level, const char *lvl, const char *save_path) {
    Error err;
    CHECK(game_init(g, level, &(GameConfig){.start_level = lvl, .seed = 1, .skip_title = true, .save_path = save_path}, &err));
    for (int i = 0; i < 200 && g->screen == SCREEN_PLAYING; i++) game_update(g, SIM_IN_RIGHT);
    CHECK_EQ_I(g->screen, SCREEN_VICTORY);
}

static const char short_lvl[] = "name: Short\nmap:\n######\n#@$.X#\n######\nend\n";

/* A save that cannot be used is kept, never overwritten: set aside under a free name, said
   on stderr and on the title screen; and if it cannot be moved, nothing is written. `where`
   is a folder this process can write. */
static void check_set_aside(const char *where, bool unreadable_cases) {
    char lvl[300], save[300], bad[320];
    snprintf(lvl, sizeof lvl, "%s/09-short.lvl", where);
    write_file(lvl, short_lvl, strlen(short_lvl));
    snprintf(save, sizeof save, "%s/data/progress", where);
    snprintf(bad, sizeof bad, "%s/data", where);
    mkdir(bad, 0755);
    Arena *level = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    static Game g;
    Error msg;
    SaveData back;

    /* Corrupt: kept as progress.bad, byte for byte, while a new progress file is written. */
    const char junk[] = "arena-dungeon-save 1\nfurthest 07-x.lvl\nchecksum 0123\n";
    write_file(save, junk, sizeof junk - 1);
    play_to_exit(&g, level, lvl, save);
    snprintf(bad, sizeof bad, "%s.bad", save);
    CHECK(same_file(bad, junk, sizeof junk - 1));
    CHECK(strcmp(g.save_notice, "progress unreadable: kept as progress.bad, starting fresh") == 0);
    CHECK_EQ_I(save_load(&back, save, &msg), ERROR_OK);
    CHECK(strcmp(back.furthest, "09-short.lvl") == 0);

    /* Again: the first bad file stays, the second goes to progress.1.bad. */
    write_file(save, "nonsense\n", 9);
    play_to_exit(&g, level, lvl, save);
    CHECK(same_file(bad, junk, sizeof junk - 1));
    snprintf(bad, sizeof bad, "%s.1.bad", save);
    CHECK(same_file(bad, "nonsense\n", 9));

    /* Another version's save: recognised as such, and kept for it. */
    const char v3[] = "arena-dungeon-save 3\nsomething new\nchecksum 77\n";
    write_file(save, v3, sizeof v3 - 1);
    CHECK_EQ_I(save_load(&back, save, &msg), ERROR_VERSION);
    CHECK(strstr(msg.message, "another version ('arena-dungeon-save 3'") != NULL);
    play_to_exit(&g, level, lvl, save);
    snprintf(bad, sizeof bad, "%s.2.bad", save);
    CHECK(same_file(bad, v3, sizeof v3 - 1));
    CHECK(strcmp(g.save_notice, "progress from another version: kept as progress.2.bad, starting fresh") == 0);

    if (unreadable_cases) {
        /* Unreadable (no permission): set aside like a corrupt one. */
        write_file(save, "secret\n", 7);
        chmod(save, 0);
        CHECK_EQ_I(save_load(&back, save, &msg), ERROR_IO);
        play_to_exit(&g, level, lvl, save);
        snprintf(bad, sizeof bad, "%s.3.bad", save);
        CHECK(access(bad, F_OK) == 0);
        CHECK(g.save_enabled);

        /* Unreadable and in a folder that cannot change: nothing is moved, nothing written. */
        write_file(save, "secret\n", 7);
        chmod(save, 0);
        snprintf(bad, sizeof bad, "%s/data", where);
        chmod(bad, 0555);
        play_to_exit(&g, level, lvl, save);
        CHECK(!g.save_enabled);
        CHECK(strcmp(g.save_notice, "progress unreadable and cannot be moved: not saving") == 0);
        chmod(bad, 0755);
        chmod(save, 0644);
        CHECK(same_file(save, "secret\n", 7)); /* what could not be read is still there */
        snprintf(bad, sizeof bad, "%s.4.bad", save);
        CHECK(access(bad, F_OK) != 0);
    }
    st_arena_release(level);
}

/* A progress file with a valid checksum over `body`. */
static void write_progress(const char *path, const char *body) {
    char text[4096];
    snprintf(text, sizeof text, "%schecksum %016llx\n", body, (unsigned long long)fnv1a(body));
    write_file(path, text, strlen(text));
}

static const uint16_t KEYS[SAVE_BIND_ACTIONS][SAVE_BIND_SLOTS] = {
    {26, 82}, {22, 81}, {4, 80}, {7, 79}, {44, 13}, {40, 88}, {41, 19}, {21, 0}};

/* The game's defaults, as game_init sets them before reading any file. */
static SaveSettings defaults(void) {
    SaveSettings st = {.volume = {80, 60, 90}};
    memcpy(st.binds, KEYS, sizeof KEYS);
    return st;
}

static bool start_game(Game *g, Arena *level, const char *lvl, const char *progress, const char *settings) {
    GameConfig cfg = {.start_level = lvl, .seed = 1, .save_path = progress, .settings_path = settings};
    memcpy(cfg.default_binds, KEYS, sizeof KEYS);
    Error err;
    bool ok = game_init(g, level, &cfg, &err);
    if (!ok) fprintf(stderr, "%s\n", err.message);
    return ok;
}

static bool has_line(Str8 text, const char *line) {
    Str8 rest = text, l;
    while (st_str8_next_line(&rest, &l))
        if (st_str8_eq_cstr(l, line)) return true;
    return false;
}

/* The settings file: where it is, a hand-written one read line by line (a bad line is a
   warning and skipped, never the others), and rewritten with the person's lines kept. */
static void test_settings_file(const char *where) {
    char path[SAVE_PATH_MAX], want[SAVE_PATH_MAX];
    Error msg;
    setenv("XDG_CONFIG_HOME", where, 1);
    CHECK(save_settings_default_path(path, sizeof path));
    snprintf(want, sizeof want, "%s/arena-dungeon/settings", where);
    CHECK(strcmp(path, want) == 0);
    setenv("XDG_CONFIG_HOME", "relative/dir", 1); /* not absolute: ignored, as the spec says */
    setenv("HOME", "/home/someone", 1);
    CHECK(save_settings_default_path(want, sizeof want));
    CHECK(strcmp(want, "/home/someone/.config/arena-dungeon/settings") == 0);
    unsetenv("XDG_CONFIG_HOME");

    static const char text[] = "# my settings\n"
                               "volume_master 55   # quieter\n"
                               "scale 7\n"
                               "renderer 3\n"
                               "key_fire 512 44\n"
                               "volume_music 101\n"
                               "fullscreen on\n"
                               "colour blue\n"
                               "key_up 26\n"
                               "\n"
                               "renderer sdl\r\n"
                               "  volume_effects\t30\n";
    Arena *a = st_arena_create((ArenaParams){.name = "settings test"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, a);
    SaveSettings st = defaults();
    int32_t skipped = save_settings_parse(&st, "cfg/settings", STR8_LIT(text));
    st_diag_capture_end(&cap);
    CHECK_EQ_I(skipped, 5);
    CHECK_EQ_U(cap.count, 5);
    CHECK_EQ_U(cap.of[DIAG_WARNING], 5);
    static const int lines[5] = {3, 4, 5, 6, 8};
    int i = 0;
    for (DiagCaptured *c = cap.first; c && i < 5; c = c->next, i++) {
        CHECK(c->d.path_len == 12 && memcmp(c->d.path, "cfg/settings", 12) == 0);
        CHECK_EQ_I(c->d.line, lines[i]);
    }
    CHECK(cap.first && strcmp(cap.first->d.text, "cfg/settings:3:7: warning: expected a window scale, 1 to 6, or auto "
                                                 "for scale, found '7' (line skipped)") == 0);
    CHECK(cap.last && strcmp(cap.last->d.text, "cfg/settings:8:1: warning: unknown setting 'colour' (line skipped)") == 0);
    /* Every good line counts; every bad one left its setting as it was. */
    CHECK_EQ_I(st.volume[SAVE_VOLUME_MASTER], 55);
    CHECK_EQ_I(st.volume[SAVE_VOLUME_MUSIC], 60);
    CHECK_EQ_I(st.volume[SAVE_VOLUME_EFFECTS], 30);
    CHECK_EQ_I(st.scale, 0);
    CHECK(st.fullscreen);
    CHECK_EQ_I(st.renderer, SAVE_RENDERER_SDL);
    CHECK(st.binds[0][0] == 26 && st.binds[0][1] == 0);
    CHECK(st.binds[4][0] == 44 && st.binds[4][1] == 13);

    /* Written back: the person's lines stay, the known keys get their values (a comment
       kept at its column), the bad ones are corrected, the missing ones added. */
    st.volume[SAVE_VOLUME_MASTER] = 70;
    Str8 out = save_settings_format(a, &st, STR8_LIT(text));
    CHECK(st_str8_starts_with(out, STR8_LIT("# my settings\nvolume_master 70   # quieter\nscale auto\nrenderer sdl\n"
                                         "key_fire 44 13\nvolume_music 60\nfullscreen on\ncolour blue\nkey_up 26\n\n"
                                         "renderer sdl\nvolume_effects 30\n")));
    CHECK(has_line(out, "key_restart 21"));
    CHECK(has_line(out, "key_down 22 81"));
    SaveSettings back = defaults();
    st_diag_capture_begin(&cap, a);
    CHECK_EQ_I(save_settings_parse(&back, "x", out), 1); /* colour blue, still there */
    st_diag_capture_end(&cap);
    CHECK(memcmp(&back, &st, sizeof st) == 0);
    Str8 again = save_settings_format(a, &st, out);
    CHECK(st_str8_eq(again, out));
    /* A fresh file names every key, with a comment that says how to edit it. */
    Str8 fresh = save_settings_format(a, &st, (Str8){0});
    CHECK(st_str8_starts_with(fresh, STR8_LIT("# Arena Dungeon's settings")));
    CHECK(has_line(fresh, "volume_master 70        # percent, 0 to 100"));
    CHECK(has_line(fresh, "scale auto              # window scale, 1 to 6, or auto"));
    back = defaults();
    CHECK_EQ_I(save_settings_parse(&back, "x", fresh), 0);
    CHECK(memcmp(&back, &st, sizeof st) == 0);

    /* On disk: written (the folders made), read back, and a line added by hand survives the
       next write. */
    snprintf(path, sizeof path, "%s/cfg/arena-dungeon/settings", where);
    CHECK(save_settings_write(&st, path, &msg));
    back = defaults();
    CHECK_EQ_I(save_settings_load(&back, path, &skipped, &msg), ERROR_OK);
    CHECK_EQ_I(skipped, 0);
    CHECK(memcmp(&back, &st, sizeof st) == 0);
    FILE *f = fopen(path, "ab");
    REQUIRE_VOID(f);
    fputs("# keep me\n", f);
    fclose(f);
    st.scale = 2;
    CHECK(save_settings_write(&st, path, &msg));
    char buf[4096];
    size_t n = read_file(path, buf, sizeof buf);
    CHECK(has_line(st_str8_make(buf, n), "# keep me") && has_line(st_str8_make(buf, n), "scale 2                 # window scale, 1 to 6, or auto"));
    /* Missing, and unreadable (a directory): the caller's settings untouched. */
    SaveSettings kept = st;
    CHECK_EQ_I(save_settings_load(&st, "/nonexistent/settings", NULL, &msg), ERROR_NOT_FOUND);
    CHECK_EQ_I(save_settings_load(&st, where, NULL, &msg), ERROR_IO);
    CHECK(strncmp(msg.message, where, strlen(where)) == 0 && strstr(msg.message, "warning: cannot read the settings") != NULL);
    CHECK(memcmp(&st, &kept, sizeof st) == 0);
    st_arena_release(a);
}

/* An older game's progress with settings lines of every bad kind: the progress is kept
   (never set aside for a setting), each bad setting is a warning with its line, and the
   good ones count. */
static void test_legacy_bad_settings(const char *where) {
    char path[SAVE_PATH_MAX];
    Error msg;
    snprintf(path, sizeof path, "%s/legacy-progress", where);
    write_progress(path, "arena-dungeon-save 2\nfurthest 03-spikes-and-water.lvl\nlevel 01-first-steps.lvl 900 3\n"
                         "setting scale 7\nsetting renderer 3\nsetting volume_master 101\nsetting volume_music 40\n"
                         "bind fire 512 44\nbind up 26 82\nsetting colour 1\nbind jump 1 2\nsetting fullscreen 1\n");
    Arena *a = st_arena_create((ArenaParams){.name = "legacy test"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, a);
    SaveData d = {.settings = defaults()};
    d.settings.binds[0][0] = 1;
    ErrorCode st = save_load(&d, path, &msg);
    st_diag_capture_end(&cap);
    CHECK_EQ_I(st, ERROR_OK);
    CHECK(strcmp(d.furthest, "03-spikes-and-water.lvl") == 0 && d.level_count == 1);
    CHECK(d.settings_inside);
    CHECK_EQ_I(cap.of[DIAG_WARNING], 6);
    CHECK(cap.first && cap.first->d.line == 4 && strstr(cap.first->d.text, "legacy-progress:4:15: warning: expected a window scale") != NULL);
    CHECK_EQ_I(d.settings.scale, 0);
    CHECK_EQ_I(d.settings.renderer, SAVE_RENDERER_DEFAULT);
    CHECK_EQ_I(d.settings.volume[SAVE_VOLUME_MASTER], 80);
    CHECK_EQ_I(d.settings.volume[SAVE_VOLUME_MUSIC], 40);
    CHECK(d.settings.binds[4][0] == 44 && d.settings.binds[4][1] == 13);
    CHECK(d.settings.binds[0][0] == 26 && d.settings.binds[0][1] == 82);
    CHECK(d.settings.fullscreen);
    st_arena_release(a);
}

/* Moving an older game's settings out of its progress file (format 2), through game_init:
   the settings file is written first, the progress rewritten without them only then; when
   the settings file cannot be written the progress keeps them, untouched, and later writes
   keep them too; a settings file already there wins, and gains what it lacked. */
static void test_migration(const char *where) {
    char lvl[SAVE_PATH_MAX], progress[SAVE_PATH_MAX], settings[SAVE_PATH_MAX], blocker[SAVE_PATH_MAX];
    Error msg;
    snprintf(lvl, sizeof lvl, "%.900s/09-short.lvl", where);
    write_file(lvl, short_lvl, strlen(short_lvl));
    snprintf(progress, sizeof progress, "%.900s/data/progress", where);
    snprintf(settings, sizeof settings, "%.900s/config/arena-dungeon/settings", where);
    snprintf(blocker, sizeof blocker, "%.900s/blocker", where);
    write_file(blocker, "a file, not a folder\n", 21);
    char blocked[SAVE_PATH_MAX + 16];
    snprintf(blocked, sizeof blocked, "%s/settings", blocker);
    char data[SAVE_PATH_MAX];
    snprintf(data, sizeof data, "%.900s/data", where);
    mkdir(data, 0755);
    static const char v2[] = "arena-dungeon-save 2\nfurthest 02-keys-and-doors.lvl\nlevel 01-first-steps.lvl 900 3\n"
                             "setting scale 4\nsetting fullscreen 1\nsetting renderer 2\nsetting volume_master 10\n"
                             "setting volume_music 20\nsetting volume_effects 30\nbind up 1 2\nbind down 3 0\n"
                             "bind left 4 5\nbind right 6 7\nbind fire 8 9\nbind confirm 10 11\nbind pause 12 13\n"
                             "bind restart 14 0\n";
    SaveSettings want = {.scale = 4, .fullscreen = true, .renderer = SAVE_RENDERER_SDL, .volume = {10, 20, 30},
                         .binds = {{1, 2}, {3, 0}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 0}}};
    Arena *level = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    static Game g;

    /* The settings file cannot be made (a file where its folder should be): nothing moves. */
    write_progress(progress, v2);
    char before[4096];
    size_t before_n = read_file(progress, before, sizeof before);
    REQUIRE_VOID(start_game(&g, level, lvl, progress, blocked));
    CHECK(memcmp(&g.save.settings, &want, sizeof want) == 0);
    CHECK(g.save.settings_inside);
    CHECK(same_file(progress, before, before_n)); /* not rewritten */
    /* A setting changed and a level completed: both kept in the progress, as before. */
    g.save.settings.volume[SAVE_VOLUME_MASTER] = 15;
    g.settings_dirty = true;
    game_save_settings(&g);
    SaveData back = {.settings = defaults()};
    CHECK_EQ_I(save_load(&back, progress, &msg), ERROR_OK);
    CHECK(back.settings_inside && back.settings.volume[SAVE_VOLUME_MASTER] == 15);
    game_update(&g, GAME_IN_CONFIRM); /* New run */
    for (int i = 0; i < 200 && g.screen == SCREEN_PLAYING; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.screen, SCREEN_VICTORY);
    back = (SaveData){.settings = defaults()};
    CHECK_EQ_I(save_load(&back, progress, &msg), ERROR_OK);
    CHECK(back.settings_inside && back.settings.volume[SAVE_VOLUME_MASTER] == 15);
    CHECK(save_find(&back, "09-short.lvl") && save_find(&back, "01-first-steps.lvl"));
    want.volume[SAVE_VOLUME_MASTER] = 15;

    /* Now with a settings file that can be written: it gets the settings, then the
       progress loses them, its records intact. */
    REQUIRE_VOID(start_game(&g, level, lvl, progress, settings));
    CHECK(memcmp(&g.save.settings, &want, sizeof want) == 0);
    CHECK(!g.save.settings_inside);
    SaveSettings file = defaults();
    int32_t skipped = -1;
    CHECK_EQ_I(save_settings_load(&file, settings, &skipped, &msg), ERROR_OK);
    CHECK_EQ_I(skipped, 0);
    CHECK(memcmp(&file, &want, sizeof want) == 0);
    char after[4096];
    size_t after_n = read_file(progress, after, sizeof after);
    CHECK(after_n > 0 && strstr(after, "setting ") == NULL && strstr(after, "bind ") == NULL);
    back = (SaveData){.settings = defaults()};
    CHECK_EQ_I(save_load(&back, progress, &msg), ERROR_OK);
    CHECK(!back.settings_inside && back.level_count == 2 && strcmp(back.furthest, "09-short.lvl") == 0);
    CHECK(memcmp(&back.settings, &file, sizeof file) != 0); /* they are not in it any more */
    /* The next start reads them from their file alone. */
    REQUIRE_VOID(start_game(&g, level, lvl, progress, settings));
    CHECK(memcmp(&g.save.settings, &want, sizeof want) == 0);
    CHECK(same_file(progress, after, after_n));

    /* A settings file already there (an interrupted move, or a person's) wins key by key,
       and gets the keys it lacked from the progress. */
    write_progress(progress, v2);
    write_file(settings, "volume_master 5 # mine\n", 23);
    REQUIRE_VOID(start_game(&g, level, lvl, progress, settings));
    CHECK_EQ_I(g.save.settings.volume[SAVE_VOLUME_MASTER], 5);
    CHECK_EQ_I(g.save.settings.scale, 4);
    file = defaults();
    CHECK_EQ_I(save_settings_load(&file, settings, NULL, &msg), ERROR_OK);
    CHECK(file.volume[SAVE_VOLUME_MASTER] == 5 && file.scale == 4 && file.binds[7][0] == 14);
    char text[4096];
    size_t n = read_file(settings, text, sizeof text);
    CHECK(st_str8_starts_with(st_str8_make(text, n), STR8_LIT("volume_master 5 # mine\n")));
    back = (SaveData){0};
    CHECK_EQ_I(save_load(&back, progress, &msg), ERROR_OK);
    CHECK(!back.settings_inside);

    /* A bad line in the settings file: said on the title, the rest read, nothing set aside. */
    write_file(settings, "scale 9\nvolume_music 33\n", 24);
    REQUIRE_VOID(start_game(&g, level, lvl, progress, settings));
    CHECK(strcmp(g.save_notice, "settings: 1 bad line skipped (see the log)") == 0);
    CHECK_EQ_I(g.save.settings.volume[SAVE_VOLUME_MUSIC], 33);
    CHECK(same_file(settings, "scale 9\nvolume_music 33\n", 24));
    /* An unreadable one (a folder): set aside, the defaults, and a new file when written. */
    unlink(settings);
    mkdir(settings, 0755);
    REQUIRE_VOID(start_game(&g, level, lvl, progress, settings));
    CHECK(strcmp(g.save_notice, "settings unreadable: kept as settings.bad, using the defaults") == 0);
    SaveSettings dflt = defaults();
    CHECK(memcmp(&g.save.settings, &dflt, sizeof dflt) == 0);
    g.settings_dirty = true;
    game_save_settings(&g);
    CHECK_EQ_I(save_settings_load(&file, settings, NULL, &msg), ERROR_OK);
    char bad_dir[SAVE_PATH_MAX + 8];
    snprintf(bad_dir, sizeof bad_dir, "%s.bad", settings);
    CHECK(st_os_file_info(bad_dir).kind == OS_FILE_DIRECTORY);
    st_arena_release(level);
}

int main(void) {
    if (!mkdtemp(dir)) return 1;
    setenv("XDG_DATA_HOME", dir, 1);
    char path[SAVE_PATH_MAX], want[SAVE_PATH_MAX];
    Error msg;
    CHECK(save_default_path(path, sizeof path));
    snprintf(want, sizeof want, "%s/%s/progress", dir, SAVE_GAME_NAME);
    CHECK(strcmp(path, want) == 0);
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", "/home/someone", 1);
    char home_path[SAVE_PATH_MAX];
    CHECK(save_default_path(home_path, sizeof home_path));
    CHECK(strcmp(home_path, "/home/someone/.local/share/" SAVE_GAME_NAME "/progress") == 0);

    SaveData d = {0};
    CHECK_EQ_I(save_load(&d, path, &msg), ERROR_NOT_FOUND);
    CHECK_EQ_I(d.level_count, 0);

    save_record(&d, "levels/01-first-steps.lvl", 1800, 10, "levels/02-keys-and-doors.lvl");
    save_record(&d, "other/dir/01-first-steps.lvl", 1500, 7, "levels/02-keys-and-doors.lvl");
    save_record(&d, "levels/02-keys-and-doors.lvl", 900, 3, "levels/03-spikes-and-water.lvl");
    save_record(&d, "levels/01-first-steps.lvl", 2000, 12, "levels/02-keys-and-doors.lvl");
    CHECK_EQ_I(d.level_count, 2);
    const SaveLevel *l = save_find(&d, "01-first-steps.lvl");
    CHECK(l && l->best_ticks == 1500 && l->best_coins == 12);
    CHECK(strcmp(d.furthest, "03-spikes-and-water.lvl") == 0); /* never goes back */
    /* A tie is not a record: neither the time nor the coins. */
    SaveRecordResult tie = save_record(&d, "levels/01-first-steps.lvl", 1500, 12, NULL);
    CHECK(!tie.first && !tie.best_time && !tie.best_coins);
    SaveRecordResult better = save_record(&d, "levels/01-first-steps.lvl", 1499, 13, NULL);
    CHECK(better.best_time && better.best_coins);
    save_record(&d, "levels/01-first-steps.lvl", 1500, 12, NULL);
    l = save_find(&d, "01-first-steps.lvl");
    CHECK(l && l->best_ticks == 1499 && l->best_coins == 13);
    /* A level whose file name the file cannot hold (a space) is not recorded: written, it
       would make the whole file unreadable. */
    SaveRecordResult spaced = save_record(&d, "levels/05 my level.lvl", 100, 1, "levels/06 next.lvl");
    CHECK(!spaced.first && save_find(&d, "levels/05 my level.lvl") == NULL);
    CHECK_EQ_I(d.level_count, 2);
    CHECK(strcmp(d.furthest, "03-spikes-and-water.lvl") == 0);
    CHECK(save_write(&d, path, &msg)); /* creates the directories */

    SaveData back = {0};
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_OK);
    CHECK(same_progress(&back, &d));
    CHECK_EQ_I(back.format, SAVE_FORMAT);

    /* A crash after the temporary was half written: the real file is still the old one. */
    char tmp[SAVE_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    write_file(tmp, "arena-dungeon-save 1\nlevel 0", 28);
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_OK);
    CHECK(same_progress(&back, &d));
    /* ... and the next write replaces the file, never a file of that name: the writer's
       temporaries have names of their own. */
    save_record(&d, "levels/03-spikes-and-water.lvl", 700, 4, "levels/04-patrol.lvl");
    CHECK(save_write(&d, path, &msg));
    CHECK(access(tmp, F_OK) == 0);
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_OK);
    CHECK_EQ_I(back.level_count, 3);

    /* Corruption of every kind: a flipped byte, a truncation, binary junk, an empty file. */
    char good[4096];
    size_t n = read_file(path, good, sizeof good);
    CHECK(n > 40);
    char bad[4096];
    memcpy(bad, good, n);
    bad[30] ^= 0x01;
    write_file(path, bad, n);
    st_error_clear(&msg);
    SaveData kept = back;
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_PARSE);
    CHECK(strstr(msg.message, "corrupt save") != NULL);
    CHECK(strncmp(msg.message, path, strlen(path)) == 0);
    CHECK(memcmp(&back, &kept, sizeof back) == 0); /* a failed load changes nothing */
    write_file(path, good, n / 2);
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_PARSE);
    write_file(path, "\x7f" "ELF\0\0\1\2", 8);
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_PARSE);
    write_file(path, "", 0);
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_PARSE);
    /* A valid checksum over a nonsense record is still rejected, by the record check. */
    char nonsense[256];
    const char *body = "arena-dungeon-save 1\nlevel x -5 3\n";
    snprintf(nonsense, sizeof nonsense, "%schecksum %016llx\n", body, (unsigned long long)fnv1a(body));
    write_file(path, nonsense, strlen(nonsense));
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_PARSE);
    CHECK(strstr(msg.message, ":2: warning: corrupt save (bad level record)") != NULL);
    /* The same file with a sound record loads: the checksum above is a valid one. */
    body = "arena-dungeon-save 1\nlevel x 5 3\n";
    snprintf(nonsense, sizeof nonsense, "%schecksum %016llx\n", body, (unsigned long long)fnv1a(body));
    write_file(path, nonsense, strlen(nonsense));
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_OK);
    /* A directory where the file should be. */
    unlink(path);
    mkdir(path, 0755);
    CHECK(save_load(&back, path, &msg) != ERROR_OK);
    CHECK(!save_write(&d, path, &msg)); /* rename onto a directory fails, cleanly */
    rmdir(path);
    /* A parent that is a file: cannot create the directory, no crash. */
    char blocked[SAVE_PATH_MAX + 16];
    snprintf(blocked, sizeof blocked, "%s/plainfile", dir);
    write_file(blocked, "x", 1);
    snprintf(blocked, sizeof blocked, "%s/plainfile/sub/progress", dir);
    CHECK(!save_write(&d, blocked, &msg));

    /* The game records a completed level through the same file. */
    char lvl[300];
    snprintf(lvl, sizeof lvl, "%s/09-short.lvl", dir);
    write_file(lvl, short_lvl, strlen(short_lvl));
    Arena *level = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    static Game g;
    Error err;
    CHECK(game_init(&g, level, &(GameConfig){.start_level = lvl, .seed = 1, .skip_title = true, .save_path = path}, &err));
    for (int i = 0; i < 200 && g.screen == SCREEN_PLAYING; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.screen, SCREEN_VICTORY);
    CHECK_EQ_I(save_load(&back, path, &msg), ERROR_OK);
    l = save_find(&back, "09-short.lvl");
    CHECK(l && l->best_coins == 1 && l->best_ticks > 0);
    CHECK(strcmp(back.furthest, "09-short.lvl") == 0);

    /* An exit into a level that does not load (its own exit is too long a path) is not a
       completion: the error names the broken file and line, play goes on in the level that
       was left, and the save never calls the broken level the furthest. */
    char a_lvl[300], b_lvl[300], b_text[1024];
    snprintf(a_lvl, sizeof a_lvl, "%s/10-a.lvl", dir);
    snprintf(b_lvl, sizeof b_lvl, "%s/11-b.lvl", dir);
    const char *a_text = "name: A\nexit: 11-b.lvl\nmap:\n######\n#@..X#\n######\nend\n";
    write_file(a_lvl, a_text, strlen(a_text));
    int k = snprintf(b_text, sizeof b_text, "name: B\nexit: ");
    for (int i = 0; i < 300; i++) k += snprintf(b_text + k, sizeof b_text - (size_t)k, "./");
    k += snprintf(b_text + k, sizeof b_text - (size_t)k, "11-b.lvl\nmap:\n###\n#@#\n###\nend\n");
    write_file(b_lvl, b_text, (size_t)k);
    unlink(path);
    CHECK(game_init(&g, level, &(GameConfig){.start_level = a_lvl, .seed = 1, .skip_title = true, .save_path = path}, &err));
    /* The failure travels through core/diag.h: a captured sink sees it as one error, with
       its file, line and column apart, and hands the same text to the HUD. */
    Arena *reports = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    for (int i = 0; i < 400 && g.load_failures == 0; i++) game_update(&g, i < 100 ? SIM_IN_RIGHT : 0);
    st_diag_capture_end(&cap);
    CHECK_EQ_U(g.load_failures, 1);
    CHECK_EQ_U(cap.count, 1);
    CHECK_EQ_U(cap.of[DIAG_ERROR], 1);
    const Diag *rep = cap.first ? &cap.first->d : &(Diag){0};
    CHECK_EQ_I(rep->level, DIAG_ERROR);
    CHECK(rep->path && rep->path_len == strlen(b_lvl) && memcmp(rep->path, b_lvl, rep->path_len) == 0);
    CHECK_EQ_I(rep->line, 2);
    CHECK_EQ_I(rep->col, 7);
    CHECK(rep->message && strncmp(rep->message, "expected a level path of at most", 32) == 0);
    CHECK(g.message[0] == '\0'); /* the game never writes to the screen itself */
    if (cap.first) game_show_report(&g, rep);
    st_arena_release(reports);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(strcmp(g.sim.level.name, "A") == 0);
    CHECK_EQ_I(g.sim.progress.levels_completed, 0);
    char want_err[400];
    snprintf(want_err, sizeof want_err, "%s:2:7: error: expected a level path of at most", b_lvl);
    CHECK(strncmp(g.message, want_err, strlen(want_err)) == 0);
    CHECK(save_load(&back, path, &msg) == ERROR_NOT_FOUND); /* nothing was recorded */
    st_arena_release(level);

    /* Setting aside: as this user; and the permission cases where permissions bite, which
       for root means in a child that has given up root for "nobody". */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/settings-file", dir);
    mkdir(sub, 0755);
    test_settings_file(sub);
    snprintf(sub, sizeof sub, "%s/legacy", dir);
    mkdir(sub, 0755);
    test_legacy_bad_settings(sub);
    snprintf(sub, sizeof sub, "%s/migration", dir);
    mkdir(sub, 0755);
    test_migration(sub);

    char aside[300];
    snprintf(aside, sizeof aside, "%s/aside", dir);
    mkdir(aside, 0755);
    check_set_aside(aside, geteuid() != 0);
    if (geteuid() == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            char own[] = "/tmp/test_save_nobody_XXXXXX";
            if (setgid(65534) != 0 || setuid(65534) != 0 || !mkdtemp(own)) _exit(3);
            check_failures_ = 0;
            check_set_aside(own, true);
            char rm[80];
            snprintf(rm, sizeof rm, "rm -rf '%s'", own);
            if (system(rm) != 0) _exit(4);
            _exit(check_failures_ ? 1 : 0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
    return check_result();
}
