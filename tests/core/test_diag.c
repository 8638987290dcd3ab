/* test_diag.c - the report channel (core/diag.h): how a report is written, what a sink
   receives, that a capture sees an arena failure and survives its own arena filling up, and
   that the default sink puts on stderr exactly the lines the engine printed before it
   existed. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

#include "check.h"
#include <strata/core/arena.h>
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>

/* This thread's last arena refusal, as a module would quote it (st_arena_error). */
static const char *last_refusal(void) {
    static Error e;
    st_error_clear(&e);
    st_arena_error(&e);
    return e.message;
}

/* The path a Diag names, as a C string for comparing. */
static const char *path_of(const Diag *d, char *buf, size_t cap) {
    snprintf(buf, cap, "%.*s", (int)d->path_len, d->path ? d->path : "");
    return buf;
}

static void test_format(void) {
    char buf[256];
    DiagLayout at = st_diag_format(buf, sizeof buf, DIAG_ERROR, "lv/a.lvl", 3, 7, "expected %s, found '%c'", "a wall", 'Z');
    CHECK_STR(buf, "lv/a.lvl:3:7: error: expected a wall, found 'Z'");
    CHECK_EQ_U(at.path_len, 8);
    CHECK_STR(buf + at.message_at, "expected a wall, found 'Z'");
    st_diag_format(buf, sizeof buf, DIAG_WARNING, "progress", 4, 0, "corrupt save (%s)", "unknown line");
    CHECK_STR(buf, "progress:4: warning: corrupt save (unknown line)"); /* a line, no column */
    st_diag_format(buf, sizeof buf, DIAG_ERROR, "a.lvl", 0, 5, "expected a level, found an empty file");
    CHECK_STR(buf, "a.lvl: error: expected a level, found an empty file"); /* line 0: the whole file */
    at = st_diag_format(buf, sizeof buf, DIAG_NOTE, NULL, 9, 9, "wrote %s", "shot.png");
    CHECK_STR(buf, "wrote shot.png"); /* not about a file: as written, no level word */
    CHECK(at.path_len == 0 && at.message_at == 0);
    /* Cut like snprintf, never past the buffer, whichever part does not fit. */
    char small[12];
    memset(small, 'x', sizeof small);
    at = st_diag_format(small, 8, DIAG_ERROR, "long/path.lvl", 1, 1, "message");
    CHECK_STR(small, "long/pa");
    CHECK(small[8] == 'x');
    CHECK(at.message_at <= 7);
    CHECK_STR(st_diag_level_name(DIAG_WARNING), "warning");
}

static void test_capture(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "reports"});
    DiagSink before = st_diag_sink();
    DiagCapture cap;
    st_diag_capture_begin(&cap, a);
    st_diag_report_at(DIAG_ERROR, "levels/01.lvl", 12, 3, "expected one '@', found %d", 2);
    st_diag_report_at(DIAG_WARNING, "levels/02.lvl", 0, 0, "no entry '%s', starting at '@'", "east");
    st_diag_report(DIAG_NOTE, "wrote %s", "shot.png");
    st_diag_capture_end(&cap);
    CHECK(st_diag_sink().fn == before.fn && st_diag_sink().state == before.state);
    st_diag_report(DIAG_NOTE, "test_diag: this note is not captured (the capture has ended)");
    CHECK_EQ_U(cap.count, 3);
    CHECK(cap.of[DIAG_ERROR] == 1 && cap.of[DIAG_WARNING] == 1 && cap.of[DIAG_NOTE] == 1);
    REQUIRE_VOID(cap.first && cap.first->next && cap.first->next->next && cap.last == cap.first->next->next);
    char p[64];
    const Diag *e = &cap.first->d, *w = &cap.first->next->d, *n = &cap.last->d;
    CHECK_EQ_I(e->level, DIAG_ERROR);
    CHECK_STR(path_of(e, p, sizeof p), "levels/01.lvl");
    CHECK(e->line == 12 && e->col == 3);
    CHECK_STR(e->message, "expected one '@', found 2");
    CHECK_STR(e->text, "levels/01.lvl:12:3: error: expected one '@', found 2");
    CHECK_EQ_I(w->level, DIAG_WARNING);
    CHECK_STR(path_of(w, p, sizeof p), "levels/02.lvl");
    CHECK(w->line == 0 && w->col == 0);
    CHECK_STR(w->text, "levels/02.lvl: warning: no entry 'east', starting at '@'");
    CHECK_EQ_I(n->level, DIAG_NOTE);
    CHECK(n->path == NULL && n->path_len == 0);
    CHECK_STR(n->message, "wrote shot.png");

    /* A text formatted earlier and sent later (what a loader's error struct holds) arrives
       with its parts, as if reported at once. */
    char kept[128];
    DiagLayout at = st_diag_format(kept, sizeof kept, DIAG_ERROR, "b.lvl", 2, 9, "expected %s", "'end'");
    st_diag_capture_begin(&cap, a);
    st_diag_send(DIAG_ERROR, kept, 2, 9, at);
    st_diag_capture_end(&cap);
    REQUIRE_VOID(cap.count == 1);
    CHECK_STR(path_of(&cap.first->d, p, sizeof p), "b.lvl");
    CHECK(cap.first->d.line == 2 && cap.first->d.col == 9);
    CHECK_STR(cap.first->d.message, "expected 'end'");
    CHECK(cap.first->d.text != kept); /* copied into the capture's arena */
    st_arena_release(a);
}

/* An arena that fills up reports it through the channel, as an error about no file, with
   the very text last_refusal() keeps for the loaders to quote. */
static void test_arena_failure(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "reports"});
    Arena *tiny = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "tiny"});
    REQUIRE_VOID(a && tiny);
    REQUIRE_VOID(st_arena_push(tiny, 4000, 8));
    DiagCapture cap;
    st_diag_capture_begin(&cap, a);
    CHECK(st_arena_push(tiny, 200, 8) == NULL);
    st_diag_capture_end(&cap);
    REQUIRE_VOID(cap.count == 1);
    const Diag *d = &cap.first->d;
    CHECK_EQ_I(d->level, DIAG_ERROR);
    CHECK(d->path == NULL && d->line == 0 && d->col == 0);
    CHECK_STR(d->text, "arena 'tiny' full: 4000 of 4096 bytes used, asked for 200 more");
    CHECK_STR(d->message, d->text);
    CHECK_STR(last_refusal(), d->text);
    st_arena_release(tiny);
    st_arena_release(a);
}

/* A capture whose own arena is full loses the report (counted, and printed instead) and the
   arena's complaint about it goes to stderr rather than back into the capture, forever. */
static void test_capture_full(void) {
    Arena *tiny = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "capture"});
    REQUIRE_VOID(tiny);
    REQUIRE_VOID(st_arena_push(tiny, 4000, 8));
    DiagCapture cap;
    st_diag_capture_begin(&cap, tiny);
    st_diag_report(DIAG_NOTE, "test_diag: a note the full capture cannot keep (expected on stderr)");
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.count, 0);
    CHECK_EQ_U(cap.lost, 1);
    st_arena_release(tiny);
}

/* A sink passes reports on to the one it replaced; {NULL, NULL} is the default again. */
static int relayed;
static DiagSink relay_next;
static void relay(void *state, const Diag *d) {
    (*(int *)state)++;
    relay_next.fn(relay_next.state, d);
}

/* What the default sink writes, read back from a file stderr pointed at meanwhile. */
static void test_default_sink(void) {
#if defined(_WIN32)
    char path[] = "test_diag_XXXXXX"; /* in the test's folder: Windows has no /tmp */
#else
    char path[] = "/tmp/test_diag_XXXXXX";
#endif
    int fd = mkstemp(path);
    REQUIRE_VOID(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    REQUIRE_VOID(saved >= 0 && dup2(fd, 2) != -1); /* msvcrt gives 0, POSIX the fd */

    st_diag_set_sink((DiagSink){0});
    Arena *tiny = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    st_arena_push(tiny, 4000, 8);
    st_arena_push(tiny, 200, 8);
    relay_next = st_diag_set_sink((DiagSink){relay, &relayed});
    st_diag_report_at(DIAG_ERROR, "levels/03.lvl", 5, 5, "expected a row of %d tiles like the first, found %d", 5, 4);
    st_diag_report_at(DIAG_WARNING, "levels/03.lvl", 0, 0, "no entry '%s', starting at '@'", "west");
    CHECK(st_diag_set_sink((DiagSink){0}).fn == relay);
    st_diag_report(DIAG_ERROR, "platform: SDL_Init failed: %s", "no display");
    st_arena_release(tiny);

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char got[1024] = {0};
#if defined(_WIN32) /* no pread */
    long n = _lseek(fd, 0, SEEK_SET) == 0 ? _read(fd, got, sizeof got - 1) : -1;
#else
    ssize_t n = pread(fd, got, sizeof got - 1, 0);
#endif
    close(fd);
    unlink(path);
    CHECK(n > 0);
    /* The lines as the engine printed them with fprintf before the channel existed. */
    CHECK_STR(got, "arena 'level' full: 4000 of 4096 bytes used, asked for 200 more\n"
                   "levels/03.lvl:5:5: error: expected a row of 5 tiles like the first, found 4\n"
                   "levels/03.lvl: warning: no entry 'west', starting at '@'\n"
                   "platform: SDL_Init failed: no display\n");
    CHECK_EQ_I(relayed, 2);
}

int main(void) {
    test_format();
    test_capture();
    test_arena_failure();
    test_capture_full();
    test_default_sink();
    return check_result();
}
