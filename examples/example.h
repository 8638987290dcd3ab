/* example.h - what the windowed examples share, so that each file shows its one idea and
   not the table around it: the host's entries a small example leaves empty, the font (the engine's own), and
   a bar that draws how full an arena is. Nothing here is engine API: copy it or leave it.

       static const GameApi api = {EXAMPLE_API_DEFAULTS, .name = "ex", .create = my_create, ...};
       int main(int argc, char **argv) { return st_host_main(&api, argc, argv); }

   Entries named after the defaults replace them (C's designated initialisers: the last
   one given wins, which -Woverride-init would mention, so it is turned off here). */
#ifndef EXAMPLE_INCLUDED
#define EXAMPLE_INCLUDED

#include <stdio.h>

#include <strata/asset/asset.h>
#include <strata/core/str8.h>
#include <strata/host/host.h>
#include <strata/render/font.h>

#pragma GCC diagnostic ignored "-Woverride-init"

#ifndef EXAMPLE_ASSETS
#define EXAMPLE_ASSETS "assets" /* sprites.png: examples/assets */
#endif
#define EXAMPLE_W 320
#define EXAMPLE_HEIGHT 180

static inline void *example_parse(Arena *perm, const CliValue *v, HostOptions *ho) {
    (void)v, (void)ho;
    return st_arena_push(perm, 1, 1); /* no options of its own: any non-NULL answer */
}
static inline bool example_start(void *s, Host *h) { return (void)s, h->rd != NULL; }
static inline bool example_frame(void *s, Host *h) { return (void)s, !h->in.quit; }
static inline bool example_tick(void *s, Host *h) { return (void)s, (void)h, true; } /* a still picture */
static inline void example_report(void *s, const Diag *d) { (void)s, (void)d; }
static inline void example_notice(void *s, const char *line) { (void)s, (void)line; }
static inline void example_reloaded(void *s, Host *h) { (void)s, (void)h; }
static inline int example_restart(const void *s, int argc, char **argv, char **out, int cap) {
    return (void)s, (void)argc, (void)argv, (void)out, (void)cap, 0;
}
static inline int example_describe(const void *s, char *out, size_t cap) { return (void)s, snprintf(out, cap, "{}"); }
static inline int example_release(void *s, Host *h) { return (void)s, (void)h, 0; }

#define EXAMPLE_API_DEFAULTS                                                                                          \
    .version = GAME_API_VERSION, .build = "example", .title = "strata example", .version_text = "1",                  \
    .logical_w = EXAMPLE_W, .logical_h = EXAMPLE_HEIGHT, .tick_hz = 60, .clear_rgba = 0x18141EFFu,                    \
    .level_arena_bytes = 1 << 20, .usage = "\n", .help = "  (no options of its own)\n", .parse = example_parse,       \
    .start = example_start, .frame = example_frame, .tick = example_tick, .report = example_report,                   \
    .notice = example_notice, .reloaded = example_reloaded, .restart = example_restart, .describe = example_describe, \
    .release = example_release

/* The engine's built-in font (no file: st_font_default bakes it into the permanent arena). */
static inline bool example_font(Host *h, Font *out) {
    Error err;
    const Font *f = st_font_default(h->rd, h->life.perm, &err);
    if (f) return *out = *f, true;
    st_error_report(&err);
    return false;
}

/* "label  used / capacity" over a bar filled in proportion, at y. */
static inline void example_bar(Host *h, const Font *f, float y, const char *label, uint64_t used, uint64_t cap,
                               Color c) {
    float w = EXAMPLE_W - 16, fill = cap ? w * (float)((double)used / (double)cap) : 0;
    st_render_rect(h->rd, (RectF){8, y + 12, w, 6}, 1, (Color){60, 56, 70, 255});
    st_render_rect(h->rd, (RectF){8, y + 12, fill > w ? w : fill, 6}, 2, c);
    st_font_drawf(h->rd, f, 8, y, COLOR_WHITE, 3, "%s  %llu / %llu bytes", label, (unsigned long long)used,
                  (unsigned long long)cap);
}

#endif
