/* test_save.c - the progress file: default location from XDG_DATA_HOME, round trip,
   missing and corrupt files (fresh start with a warning, never a crash), a crashed write
   (a half-written temporary left behind) that loses nothing, and the game recording a
   completed level. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "game.h"
#include "save.h"

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

int main(void) {
    if (!mkdtemp(dir)) return 1;
    setenv("XDG_DATA_HOME", dir, 1);
    char path[SAVE_PATH_MAX], want[SAVE_PATH_MAX], msg[700];
    CHECK(save_default_path(path, sizeof path));
    snprintf(want, sizeof want, "%s/%s/progress", dir, SAVE_GAME_NAME);
    CHECK(strcmp(path, want) == 0);
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", "/home/someone", 1);
    char home_path[SAVE_PATH_MAX];
    CHECK(save_default_path(home_path, sizeof home_path));
    CHECK(strcmp(home_path, "/home/someone/.local/share/" SAVE_GAME_NAME "/progress") == 0);

    SaveData d;
    CHECK_EQ_I(save_load(&d, path, msg, sizeof msg), SAVE_MISSING);
    CHECK_EQ_I(d.level_count, 0);

    save_record(&d, "levels/01-first-steps.lvl", 1800, 10, "levels/02-keys-and-doors.lvl");
    save_record(&d, "other/dir/01-first-steps.lvl", 1500, 7, "levels/02-keys-and-doors.lvl");
    save_record(&d, "levels/02-keys-and-doors.lvl", 900, 3, "levels/03-spikes-and-water.lvl");
    save_record(&d, "levels/01-first-steps.lvl", 2000, 12, "levels/02-keys-and-doors.lvl");
    CHECK_EQ_I(d.level_count, 2);
    const SaveLevel *l = save_find(&d, "01-first-steps.lvl");
    CHECK(l && l->best_ticks == 1500 && l->best_coins == 12);
    CHECK(strcmp(d.furthest, "03-spikes-and-water.lvl") == 0); /* never goes back */
    CHECK(save_write(&d, path, msg, sizeof msg)); /* creates the directories */

    SaveData back;
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_OK);
    CHECK(memcmp(&back, &d, sizeof d) == 0);

    /* A crash after the temporary was half written: the real file is still the old one. */
    char tmp[SAVE_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    write_file(tmp, "arena-dungeon-save 1\nlevel 0", 28);
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_OK);
    CHECK(memcmp(&back, &d, sizeof d) == 0);
    /* ... and the next write replaces both. */
    save_record(&d, "levels/03-spikes-and-water.lvl", 700, 4, "levels/04-patrol.lvl");
    CHECK(save_write(&d, path, msg, sizeof msg));
    CHECK(access(tmp, F_OK) != 0);
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_OK);
    CHECK_EQ_I(back.level_count, 3);

    /* Corruption of every kind: a flipped byte, a truncation, binary junk, an empty file. */
    char good[4096];
    size_t n = read_file(path, good, sizeof good);
    CHECK(n > 40);
    char bad[4096];
    memcpy(bad, good, n);
    bad[30] ^= 0x01;
    write_file(path, bad, n);
    msg[0] = 0;
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_CORRUPT);
    CHECK(strstr(msg, "corrupt save") != NULL);
    CHECK_EQ_I(back.level_count, 0);
    CHECK(back.furthest[0] == 0);
    write_file(path, good, n / 2);
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_CORRUPT);
    write_file(path, "\x7f" "ELF\0\0\1\2", 8);
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_CORRUPT);
    write_file(path, "", 0);
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_CORRUPT);
    /* A valid checksum over a nonsense record is still rejected. */
    const char *nonsense = "arena-dungeon-save 1\nlevel x -5 3\nchecksum 0000000000000000\n";
    write_file(path, nonsense, strlen(nonsense));
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_CORRUPT);
    /* A directory where the file should be. */
    unlink(path);
    mkdir(path, 0755);
    CHECK(save_load(&back, path, msg, sizeof msg) != SAVE_OK);
    CHECK(!save_write(&d, path, msg, sizeof msg)); /* rename onto a directory fails, cleanly */
    rmdir(path);
    /* A parent that is a file: cannot create the directory, no crash. */
    char blocked[SAVE_PATH_MAX + 16];
    snprintf(blocked, sizeof blocked, "%s/plainfile", dir);
    write_file(blocked, "x", 1);
    snprintf(blocked, sizeof blocked, "%s/plainfile/sub/progress", dir);
    CHECK(!save_write(&d, blocked, msg, sizeof msg));

    /* The game records a completed level through the same file. */
    char lvl[300];
    snprintf(lvl, sizeof lvl, "%s/09-short.lvl", dir);
    const char *short_lvl = "name: Short\nmap:\n######\n#@$.X#\n######\nend\n";
    write_file(lvl, short_lvl, strlen(short_lvl));
    Arena *level = arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    static Game g;
    LevelError err;
    CHECK(game_init(&g, level, &(GameConfig){.start_level = lvl, .seed = 1, .skip_title = true, .save_path = path}, &err));
    for (int i = 0; i < 200 && g.screen == SCREEN_PLAYING; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.screen, SCREEN_VICTORY);
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_OK);
    l = save_find(&back, "09-short.lvl");
    CHECK(l && l->best_coins == 1 && l->best_ticks > 0);
    CHECK(strcmp(back.furthest, "09-short.lvl") == 0);
    arena_release(level);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
    return check_result();
}
