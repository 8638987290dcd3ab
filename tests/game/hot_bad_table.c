/* hot_bad_table.c - game libraries whose table lies (test_hot_refuse.c): the right
   GAME_API_VERSION and GAME_LAYOUT_HASH, with entries that would crash a host that took the
   table at its word. One source, built once per kind (BAD_TABLE_KIND):
     1 every entry NULL            2 tick at address 0x1000
     3 tick is the host's own app_tick, outside the library
     4 the table itself at a wild address   5 no build name
     6 a sound table of stubs (the control: it must be taken). */
#include "app/app.h"
#include "game_layout.h"

#define UNUSED __attribute__((unused)) static
UNUSED void *stub_parse(Arena *p, const CliValue *v, HostOptions *o) { return (void)p, (void)v, (void)o, NULL; }
UNUSED void *stub_create(Host *h, const void *o) { return (void)h, (void)o, NULL; }
UNUSED bool stub_start(void *s, Host *h) { return (void)s, (void)h, false; }
UNUSED bool stub_frame(void *s, Host *h) { return (void)s, (void)h, false; }
UNUSED bool stub_tick(void *s, Host *h) { return (void)s, (void)h, false; }
UNUSED void stub_draw(void *s, Host *h, float w, float hh) { (void)s, (void)h, (void)w, (void)hh; }
UNUSED void stub_report(void *s, const Diag *d) { (void)s, (void)d; }
UNUSED void stub_notice(void *s, const char *l) { (void)s, (void)l; }
UNUSED void stub_reloaded(void *s, Host *h) { (void)s, (void)h; }
UNUSED int stub_restart(const void *s, int c, char **v, char **o, int n) {
    return (void)s, (void)c, (void)v, (void)o, n * 0;
}
UNUSED int stub_describe(const void *s, char *o, size_t n) { return (void)s, (void)o, (void)n, 0; }
UNUSED int stub_release(void *s, Host *h) { return (void)s, (void)h, 0; }

#define STUBS                                                                                                  \
    .name = "stub", .title = "Stub", .version_text = "0", .usage = "\n", .help = "\n", .parse = stub_parse,    \
    .create = stub_create, .start = stub_start, .frame = stub_frame, .draw = stub_draw, .report = stub_report, \
    .notice = stub_notice, .reloaded = stub_reloaded, .restart = stub_restart, .describe = stub_describe,      \
    .release = stub_release

__attribute__((visibility("default"))) const GameApi *game_api(void) {
    static const GameApi api = {
        .version = GAME_API_VERSION,
        .layout_hash = GAME_LAYOUT_HASH,
#if BAD_TABLE_KIND == 1
        .build = "null entries",
#elif BAD_TABLE_KIND == 2
        .build = "wild entry",
        STUBS,
        .tick = (bool (*)(void *, Host *))(uintptr_t)0x1000,
#elif BAD_TABLE_KIND == 3
        .build = "host entry",
        STUBS,
        .tick = app_tick,
#elif BAD_TABLE_KIND == 5
        STUBS,
        .tick = stub_tick,
#else
        .build = "stubs",
        STUBS,
        .tick = stub_tick,
#endif
    };
#if BAD_TABLE_KIND == 4
    return (void)api, (const GameApi *)(uintptr_t)0x10000;
#else
    return &api;
#endif
}
