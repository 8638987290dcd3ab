/* test_host.c - a second program on the engine's host alone (host/host.h), nothing of game/:
   "Bounce", a square that moves one pixel per tick (--speed N: N pixels), written from the
   header only. Through st_host_main, as a user's main would call it:
     - the command line: the host's options and the game's in one parse (a bad value of the
       game's is refused with exit 2, the program's name first; --help prints both tables);
     - headless, the clock gives one tick per frame: after 40 frames the square has moved
       40 * speed pixels, and --screenshot's PNG shows it there on the table's clear colour;
     - the lifetimes: the game's state in the permanent arena, its "level" in the level arena
       (sized by --level-arena), per-frame text in the frame arena, which the host clears
       before every draw (its peak stays one frame's);
     - a warning reported from a tick reaches the game's `report` (the host's sink), and
       the exit status is the game's release's;
     - the exit report says when a scratch peak went past one block's reserve (chained). */
#include <SDL2/SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <strata/asset/asset.h>
#include "check.h"
#include <strata/core/str8.h>
#include <strata/host/host.h>

typedef struct Bounce {
    int32_t speed;
    float x;
    uint64_t ticks, draws, reports;
    uint8_t *level_data; /* in the level arena */
    uint64_t frame_used; /* the frame arena's use at the start of the last draw */
} Bounce;

typedef struct BounceOptions {
    int32_t speed;
} BounceOptions;

static Bounce seen; /* the state as release saw it: st_host_main has released the arenas when it returns */

enum { BO_SPEED, BO_COUNT };
static const CliOption BOUNCE_OPTIONS[BO_COUNT] = {
    [BO_SPEED] = {.name = "--speed", .arg = CLI_NUMBER, .lo = 1, .hi = 8},
};

static void *bounce_parse(Arena *perm, const CliValue *v, HostOptions *ho) {
    (void)ho;
    BounceOptions *o = st_arena_push_struct(perm, BounceOptions);
    if (o) o->speed = v[BO_SPEED].given ? (int32_t)v[BO_SPEED].n : 1;
    return o;
}

static void *bounce_create(Host *h, const void *options) {
    Bounce *b = st_arena_push_struct(h->life.perm, Bounce);
    if (!b) return NULL;
    b->speed = ((const BounceOptions *)options)->speed;
    b->level_data = st_arena_push_array(h->life.level, uint8_t, 1000);
    return b->level_data ? b : NULL;
}

static bool bounce_start(void *s, Host *h) { return (void)s, h->rd != NULL; }
static bool bounce_frame(void *s, Host *h) { return (void)s, !h->in.quit; }

/* Set: the first tick takes more scratch than one block reserves (the arena chains). */
static bool chain_scratch;

static bool bounce_tick(void *s, Host *h) {
    (void)h;
    Bounce *b = s;
    if (chain_scratch && b->ticks == 0) {
        ArenaTemp t = st_scratch_begin(NULL, 0);
        CHECK(st_arena_push_raw(t.arena, ARENA_DEFAULT_RESERVE + (1 << 20), 16) != NULL);
        st_scratch_end(t);
    }
    b->x += (float)b->speed;
    if (++b->ticks == 5) st_diag_report(DIAG_WARNING, "bounce: five ticks");
    return true;
}

static void bounce_draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Bounce *b = s;
    b->draws++;
    b->frame_used = st_arena_stats(h->life.frame).used;
    Str8 label = st_str8_fmt(h->life.frame, "tick %llu", (unsigned long long)b->ticks); /* per-frame text */
    CHECK(label.len > 0);
    st_render_rect(h->rd, (RectF){b->x, 20, 16, 16}, 10, (Color){250, 200, 40, 255});
}

static void bounce_report(void *s, const Diag *d) { ((Bounce *)s)->reports += d->level == DIAG_WARNING; }
static void bounce_notice(void *s, const char *line) { (void)s, (void)line; }
static void bounce_reloaded(void *s, Host *h) { (void)s, (void)h; }
static int bounce_restart(const void *s, int argc, char **argv, char **out, int cap) {
    return (void)s, (void)argc, (void)argv, (void)out, (void)cap, 0;
}
static int bounce_describe(const void *s, char *out, size_t cap) {
    return snprintf(out, cap, "\"x\":%d", (int)((const Bounce *)s)->x);
}
static int bounce_release(void *s, Host *h) {
    (void)h;
    seen = *(Bounce *)s;
    return 0;
}

static const GameApi BOUNCE = {
    .version = GAME_API_VERSION,
    .build = "bounce 1",
    .name = "bounce",
    .title = "Bounce",
    .version_text = "1",
    .logical_w = 160,
    .logical_h = 90,
    .tick_hz = 60,
    .clear_rgba = 0x203040FFu,
    .level_arena_bytes = 1 << 20,
    .options = BOUNCE_OPTIONS,
    .option_count = BO_COUNT,
    .usage = "[--speed N]\n",
    .help = "  --speed N            pixels per tick\n",
    .parse = bounce_parse,
    .create = bounce_create,
    .start = bounce_start,
    .frame = bounce_frame,
    .tick = bounce_tick,
    .draw = bounce_draw,
    .report = bounce_report,
    .notice = bounce_notice,
    .reloaded = bounce_reloaded,
    .restart = bounce_restart,
    .describe = bounce_describe,
    .release = bounce_release,
};

static int run(int argc, char **argv) {
    memset(&seen, 0, sizeof seen);
    fflush(NULL);
    return st_host_main(&BOUNCE, argc, argv);
}

static void tap(SDL_Scancode sc) {
    SDL_Event e = {0};
    e.type = SDL_KEYDOWN;
    e.key.state = SDL_PRESSED;
    e.key.keysym.scancode = sc;
    CHECK(SDL_PushEvent(&e) == 1);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    CHECK(SDL_PushEvent(&e) == 1);
}

/* The host's own keys, whatever the game: F1 toggles the arena panel once per press (two in
   one frame are on and off again) and the panel takes its width from the game's picture. */
static void check_host_keys(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    REQUIRE_VOID(perm);
    Host *h = st_host_create(perm, &BOUNCE, &(HostOptions){.headless = true}, &(BounceOptions){.speed = 1});
    REQUIRE_VOID(h);
    h->font = NULL; /* Bounce has no font: the panel is not drawn, only toggled */
    CHECK(st_host_frame(h) && !h->show_debug);
    tap(SDL_SCANCODE_F1);
    CHECK(st_host_frame(h) && h->show_debug);
    CHECK(st_host_frame(h) && h->show_debug); /* it stays on */
    tap(SDL_SCANCODE_F1), tap(SDL_SCANCODE_F1);
    CHECK(st_host_frame(h) && h->show_debug);
    tap(SDL_SCANCODE_F1);
    CHECK(st_host_frame(h) && !h->show_debug);
    CHECK_EQ_I(st_host_release(h), 0);
    st_arena_release(perm);
}

static void pixel(const uint8_t *rgba, int w, int x, int y, uint8_t out[3]) { memcpy(out, rgba + (y * w + x) * 4, 3); }

int main(int argc, char **argv) {
    if (argc != 2) return fprintf(stderr, "usage: test_host WORK_DIR\n"), 2;
    char shot[512];
    snprintf(shot, sizeof shot, "%s/bounce.png", argv[1]);
    remove(shot);
    char *line[] = {"bounce", "--headless",    "--frames", "40",           "--speed",
                    "2",      "--level-arena", "64K",      "--screenshot", shot};
    CHECK_EQ_I(run(10, line), 0);
    CHECK_EQ_U(seen.ticks, 40);
    CHECK_EQ_U(seen.draws, 40);
    CHECK_EQ_I((int)seen.x, 80);
    CHECK_EQ_U(seen.reports, 1);
    /* Cleared before every draw: one frame's text is all the frame arena ever holds then. */
    CHECK(seen.frame_used < 64);

    /* The picture: the square where 40 ticks of 2 px put it, on the clear colour. */
    Arena *tmp = st_arena_create((ArenaParams){.name = "test"});
    uint8_t *rgba;
    int w, h;
    Error err;
    REQUIRE(tmp && st_asset_load_rgba(tmp, shot, &rgba, &w, &h, &err));
    CHECK_EQ_I(w, 160);
    CHECK_EQ_I(h, 90);
    uint8_t p[3];
    pixel(rgba, w, 88, 28, p);
    CHECK(p[0] == 250 && p[1] == 200 && p[2] == 40);
    pixel(rgba, w, 70, 28, p); /* where it was ten ticks before */
    CHECK(p[0] == 0x20 && p[1] == 0x30 && p[2] == 0x40);
    st_arena_release(tmp);

    /* The game's option and the host's in one parse: a bad one of the game's is refused. */
    char *bad[] = {"bounce", "--headless", "--speed", "9"};
    CHECK_EQ_I(run(4, bad), 2);
    char *both[] = {"bounce", "--speed", "1", "--frames"};
    CHECK_EQ_I(run(4, both), 2);
    /* The exit report: a peak past one block's reserve says more blocks were chained, and
       a peak within it does not. */
    char log[512];
    snprintf(log, sizeof log, "%s/report.txt", argv[1]);
    for (int chained = 0; chained < 2; chained++) {
        chain_scratch = chained;
        char *few[] = {"bounce", "--headless", "--frames", "3"};
        fflush(stderr);
        int saved = dup(2);
        FILE *f = fopen(log, "wb");
        REQUIRE(saved >= 0 && f);
        dup2(fileno(f), 2);
        int rc = run(4, few);
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        fclose(f);
        CHECK_EQ_I(rc, 0);
        char text[4096] = {0};
        f = fopen(log, "rb");
        REQUIRE(f);
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = 0;
        const char *line = strstr(text, "scratch arena: peak ");
        CHECK(line != NULL);
        bool says = line && strstr(line, "bytes, past one block's reserve: more blocks were chained") &&
                    strstr(line, "bytes, past one block's reserve") < strchr(line, '\n');
        if (says != (chained == 1)) fprintf(stderr, "the exit report, chained %d:\n%s", chained, text);
        CHECK(says == (chained == 1));
    }
    chain_scratch = false;

    char *help[] = {"bounce", "--help"};
    CHECK_EQ_I(run(2, help), 0);
    check_host_keys();
    return check_result();
}
