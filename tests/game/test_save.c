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

/* Plays `level` to its exit with saving on, as a player would. */
static void play_to_exit(Game *g, Arena *level, const char *lvl, const char *save_path) {
    LevelError err;
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
    Arena *level = arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    static Game g;
    char msg[700];
    SaveData back;

    /* Corrupt: kept as progress.bad, byte for byte, while a new progress file is written. */
    const char junk[] = "arena-dungeon-save 1\nfurthest 07-x.lvl\nchecksum 0123\n";
    write_file(save, junk, sizeof junk - 1);
    play_to_exit(&g, level, lvl, save);
    snprintf(bad, sizeof bad, "%s.bad", save);
    CHECK(same_file(bad, junk, sizeof junk - 1));
    CHECK(strcmp(g.save_notice, "progress unreadable: kept as progress.bad, starting fresh") == 0);
    CHECK_EQ_I(save_load(&back, save, msg, sizeof msg), SAVE_OK);
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
    CHECK_EQ_I(save_load(&back, save, msg, sizeof msg), SAVE_OTHER_VERSION);
    CHECK(strstr(msg, "another version ('arena-dungeon-save 3'") != NULL);
    play_to_exit(&g, level, lvl, save);
    snprintf(bad, sizeof bad, "%s.2.bad", save);
    CHECK(same_file(bad, v3, sizeof v3 - 1));
    CHECK(strcmp(g.save_notice, "progress from another version: kept as progress.2.bad, starting fresh") == 0);

    if (unreadable_cases) {
        /* Unreadable (no permission): set aside like a corrupt one. */
        write_file(save, "secret\n", 7);
        chmod(save, 0);
        CHECK_EQ_I(save_load(&back, save, msg, sizeof msg), SAVE_IO_ERROR);
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
    arena_release(level);
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
    /* ... and the next write replaces the file, never a file of that name: the writer's
       temporaries have names of their own. */
    save_record(&d, "levels/03-spikes-and-water.lvl", 700, 4, "levels/04-patrol.lvl");
    CHECK(save_write(&d, path, msg, sizeof msg));
    CHECK(access(tmp, F_OK) == 0);
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
    /* A valid checksum over a nonsense record is still rejected, by the record check. */
    char nonsense[256];
    const char *body = "arena-dungeon-save 1\nlevel x -5 3\n";
    snprintf(nonsense, sizeof nonsense, "%schecksum %016llx\n", body, (unsigned long long)fnv1a(body));
    write_file(path, nonsense, strlen(nonsense));
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_CORRUPT);
    CHECK(strstr(msg, ":2: warning: corrupt save (bad level record)") != NULL);
    /* The same file with a sound record loads: the checksum above is a valid one. */
    body = "arena-dungeon-save 1\nlevel x 5 3\n";
    snprintf(nonsense, sizeof nonsense, "%schecksum %016llx\n", body, (unsigned long long)fnv1a(body));
    write_file(path, nonsense, strlen(nonsense));
    CHECK_EQ_I(save_load(&back, path, msg, sizeof msg), SAVE_OK);
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
    Arena *reports = arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    diag_capture_begin(&cap, reports);
    for (int i = 0; i < 400 && g.load_failures == 0; i++) game_update(&g, i < 100 ? SIM_IN_RIGHT : 0);
    diag_capture_end(&cap);
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
    arena_release(reports);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(strcmp(g.sim.level.name, "A") == 0);
    CHECK_EQ_I(g.sim.progress.levels_completed, 0);
    char want_err[400];
    snprintf(want_err, sizeof want_err, "%s:2:7: error: expected a level path of at most", b_lvl);
    CHECK(strncmp(g.message, want_err, strlen(want_err)) == 0);
    CHECK(save_load(&back, path, msg, sizeof msg) == SAVE_MISSING); /* nothing was recorded */
    arena_release(level);

    /* Setting aside: as this user; and the permission cases where permissions bite, which
       for root means in a child that has given up root for "nobody". */
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
