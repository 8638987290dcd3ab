/* test_host_watch.c - the host's --watch-assets, end to end, in a game of a few lines
   ("Swatch") on the engine's host alone: its start loads swatch.png through Host.assets and
   it draws it every frame; at tick 10 the game itself writes the file again in another
   colour, as an artist's save would.
     - --watch-assets on: the screenshot after 40 frames shows the new colour through the
       same Texture, and the reload's note reached the game's notice line;
     - headless without the option (off there by default): the old colour, no notice;
     - a broken file written at tick 10 keeps the old colour, and the error names the file. */
#include <stdio.h>
#include <string.h>

#include <strata/asset/asset.h>
#include <strata/asset/asset_watch.h>
#include <strata/core/os_file.h>
#include <strata/host/host.h>

#include "check.h"

static char png_path[512];
static bool write_broken;
static struct { int notices, reloaded, errors_naming_file; } seen;

typedef struct Swatch {
    Texture *tex;
    uint64_t ticks;
} Swatch;

static bool write_swatch(uint8_t r, uint8_t g, uint8_t b) {
    uint8_t px[16 * 16 * 4];
    for (int i = 0; i < 16 * 16; i++) px[i * 4] = r, px[i * 4 + 1] = g, px[i * 4 + 2] = b, px[i * 4 + 3] = 255;
    Error err;
    return st_asset_write_png(png_path, px, 16, 16, &err);
}

static void *sw_parse(Arena *perm, const CliValue *v, HostOptions *ho) { return (void)v, (void)ho, perm; }
static void *sw_create(Host *h, const void *o) { return (void)o, st_arena_push_struct(h->life.perm, Swatch); }
static bool sw_start(void *s, Host *h) {
    Error err;
    ((Swatch *)s)->tex = st_asset_watch_texture(h->assets, h->rd, h->life.perm, png_path, 0, 0, &err);
    return ((Swatch *)s)->tex != NULL;
}
static bool sw_frame(void *s, Host *h) { return (void)s, !h->in.quit; }
static bool sw_tick(void *s, Host *h) {
    (void)h;
    if (++((Swatch *)s)->ticks == 10) {
        if (write_broken) {
            const char junk[] = "\x89PNG\r\n\x1a\n not a whole image";
            Error err;
            CHECK(st_os_write_file_atomic(png_path, junk, sizeof junk - 1, &err));
        } else {
            CHECK(write_swatch(40, 90, 250));
        }
    }
    return true;
}
static void sw_draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    st_render_cell(h->rd, ((Swatch *)s)->tex, 0, 20, 20, 0, 0);
}
static void sw_report(void *s, const Diag *d) {
    (void)s;
    if (d->level == DIAG_ERROR && strstr(d->message, png_path)) seen.errors_naming_file++;
}
static void sw_notice(void *s, const char *line) {
    (void)s;
    seen.notices++;
    if (strstr(line, "reloaded") && strstr(line, "swatch.png")) seen.reloaded++;
}
static void sw_reloaded(void *s, Host *h) { (void)s, (void)h; }
static int sw_restart(const void *s, int argc, char **argv, char **out, int cap) {
    return (void)s, (void)argc, (void)argv, (void)out, (void)cap, 0;
}
static int sw_describe(const void *s, char *out, size_t cap) { return (void)s, (void)out, (void)cap, 0; }
static int sw_release(void *s, Host *h) { return (void)s, (void)h, 0; }

static const GameApi SWATCH = {
    .version = GAME_API_VERSION,
    .build = "swatch 1",
    .name = "swatch",
    .title = "Swatch",
    .version_text = "1",
    .logical_w = 64,
    .logical_h = 64,
    .tick_hz = 60,
    .clear_rgba = 0x000000FFu,
    .level_arena_bytes = 1 << 16,
    .usage = "",
    .help = "",
    .parse = sw_parse,
    .create = sw_create,
    .start = sw_start,
    .frame = sw_frame,
    .tick = sw_tick,
    .draw = sw_draw,
    .report = sw_report,
    .notice = sw_notice,
    .reloaded = sw_reloaded,
    .restart = sw_restart,
    .describe = sw_describe,
    .release = sw_release,
};

/* Runs Swatch for 40 frames from a red swatch.png; the colour of the screenshot's swatch. */
static void run(const char *dir, bool watch, bool broken, uint8_t out[3]) {
    memset(&seen, 0, sizeof seen);
    write_broken = broken;
    memset(out, 0, 3);
    REQUIRE_VOID(write_swatch(250, 40, 40));
    char shot[512];
    snprintf(shot, sizeof shot, "%s/swatch_shot.png", dir);
    char *on[] = {"swatch", "--headless", "--frames", "40", "--screenshot", shot, "--watch-assets", "on"};
    fflush(NULL);
    CHECK_EQ_I(st_host_main(&SWATCH, watch ? 8 : 6, on), 0);
    Arena *tmp = st_arena_create((ArenaParams){.name = "test"});
    uint8_t *rgba;
    int w, h;
    Error err;
    REQUIRE_VOID(tmp && st_asset_load_rgba(tmp, shot, &rgba, &w, &h, &err) && w == 64 && h == 64);
    memcpy(out, rgba + (28 * w + 28) * 4, 3);
    st_arena_release(tmp);
}

int main(int argc, char **argv) {
    if (argc != 2) return fprintf(stderr, "usage: test_host_watch WORK_DIR\n"), 2;
    snprintf(png_path, sizeof png_path, "%s/swatch.png", argv[1]);
    uint8_t c[3];
    run(argv[1], true, false, c);
    CHECK(c[0] == 40 && c[1] == 90 && c[2] == 250);
    CHECK_EQ_I(seen.reloaded, 1);

    run(argv[1], false, false, c); /* headless: off unless asked for */
    CHECK(c[0] == 250 && c[1] == 40 && c[2] == 40);
    CHECK_EQ_I(seen.notices, 0);

    run(argv[1], true, true, c); /* broken: the red one kept, the error names the file */
    CHECK(c[0] == 250 && c[1] == 40 && c[2] == 40);
    CHECK_EQ_I(seen.errors_naming_file, 1);
    CHECK_EQ_I(seen.reloaded, 0);
    return check_result();
}
