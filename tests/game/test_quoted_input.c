/* test_quoted_input.c - every reader that quotes what it read in a message (levels, Tiled
   maps, scores, settings, replays, saves) quotes it through st_utf8_quote: fed a terminal's
   escape sequence, a bell and raw control bytes (a level, which refuses those as binary
   data, a right-to-left override and bytes that are not UTF-8), each says what it found
   with those bytes as \xHH, and no message carries a control byte to the terminal. And an
   empty image, level or Tiled map is called an empty file. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include <strata/asset/asset.h>
#include <strata/audio/music.h>
#include <strata/audio/sound.h>
#include <strata/core/diag_capture.h>
#include "level/level_load.h"
#include "rules/replay.h"
#include "rules/save.h"

#define HOSTILE "\x1b[31mRED\x07\x01\x02"
#define SHOWN "\\x1b[31mRED\\x07\\x01\\x02"
#define HOSTILE_TEXT "\xe2\x80\xaeRED\xff\xfe"
#define SHOWN_TEXT "\\xe2\\x80\\xaeRED\\xff\\xfe"

/* No byte below a space, nor DEL, in what would reach the terminal. */
static bool printable(const char *s) {
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return false;
    return true;
}

/* The message is safe; with `shown`, it has the hostile bytes so escaped. */
static void check_message(const char *reader, const char *msg, const char *shown) {
    printf("%-9s %s\n", reader, msg);
    CHECK(printable(msg));
    if (shown) CHECK(strstr(msg, shown) != NULL);
}

int main(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "test"});
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    REQUIRE(a && level);
    Error err;

    /* A level: an unknown header key, and a bad property of an enemy. */
    static const char *const levels[] = {HOSTILE_TEXT ": x\nmap:\n###\n#@#\n###\nend\n",
                                         "name: x\nmap:\n####\n#@p#\n####\nend\nenemy 2 1 " HOSTILE_TEXT "\n"};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        Level lv;
        CHECK(!level_parse(&lv, level, "x.lvl", levels[i], strlen(levels[i]), NULL, &err, NULL));
        check_message("level", err.message, SHOWN_TEXT);
    }
    /* A Tiled map that is not JSON. */
    Level lv;
    CHECK(!level_parse(&lv, level, "x.tmj", HOSTILE, strlen(HOSTILE), NULL, &err, NULL));
    check_message("tiled", err.message, SHOWN);
    /* A score: a bad word where a setting's value goes. */
    Sound snd;
    static const char score[] = "instrument lead wave=" HOSTILE "\n";
    CHECK(!st_music_render(a, st_str8_make(score, sizeof score - 1), "x.score", &snd, &err));
    check_message("score", err.message, SHOWN);
    /* Settings: an unknown key, then a bad value, each a warning. */
    Arena *reports = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    SaveSettings st = {0};
    static const char settings[] = HOSTILE " 5\nscale " HOSTILE "\n";
    CHECK_EQ_I(save_settings_parse(&st, "settings", st_str8_make(settings, sizeof settings - 1)), 2);
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.count, 2);
    for (const DiagCaptured *d = cap.first; d; d = d->next) check_message("settings", d->d.text, SHOWN);
    /* A save of another version. */
    SaveData sd = {0};
    static const char save[] = "arena-dungeon-save " HOSTILE "\nchecksum 0\n";
    CHECK(save_parse(&sd, "progress", st_str8_make(save, sizeof save - 1), &err) != ERROR_OK);
    check_message("save", err.message, SHOWN);
    /* A replay: its words are never quoted, and its messages stay printable. */
    static const char *const replays[] = {"replay 3\nseed " HOSTILE "\nlevel x.lvl\ninputs\nend\n",
                                          "replay 3\nseed 1\nlevel x.lvl\n" HOSTILE "\ninputs\nend\n",
                                          "replay 3\nseed 1\nlevel x.lvl\ninputs\n1x" HOSTILE "\nend\n"};
    for (size_t i = 0; i < sizeof replays / sizeof replays[0]; i++) {
        Replay r;
        CHECK(!replay_parse(&r, a, "x.rep", st_str8_cstr(replays[i]), &err));
        check_message("replay", err.message, NULL);
    }
    /* Empty files. */
    uint8_t *px;
    int w, h;
    CHECK(!st_asset_decode_rgba(a, (const uint8_t *)"", 0, "x.png", &px, &w, &h, &err));
    check_message("png", err.message, "an empty file");
    CHECK(!level_parse(&lv, level, "x.lvl", "", 0, NULL, &err, NULL));
    check_message("level", err.message, "an empty file");
    CHECK(!level_parse(&lv, level, "x.tmj", "", 0, NULL, &err, NULL));
    check_message("tiled", err.message, "an empty file");
    st_arena_release(reports);
    st_arena_release(level);
    st_arena_release(a);
    return check_result();
}
