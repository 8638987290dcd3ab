/* test_error.c - the one error value (core/error.h): its text is st_diag_format's line to the
   byte, its code and place are what the caller set, a report hands the sink the same path,
   line, column and level, and an arena's refusal comes in through st_arena_error with its own
   words after the caller's. */
#include <string.h>

#include "check.h"
#include <strata/core/arena.h>
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include <strata/core/error.h>

static void test_set(void) {
    Error e;
    CHECK(!st_error_set(&e, ERROR_PARSE, "lv/a.lvl", 3, 7, "expected %s, found '%c'", "a wall", 'Z'));
    CHECK_STR(st_error_message(&e), "lv/a.lvl:3:7: error: expected a wall, found 'Z'");
    CHECK_STR(st_error_what(&e), "expected a wall, found 'Z'");
    CHECK(e.code == ERROR_PARSE && e.level == DIAG_ERROR && e.err_no == 0);
    CHECK(e.line == 3 && e.col == 7 && e.at.path_len == 8);
    CHECK(!st_error_ok(&e));
    /* The same bytes st_diag_format writes, whatever the parts. */
    char want[256];
    st_diag_format(want, sizeof want, DIAG_ERROR, "progress", 4, 0, "corrupt save (%s)", "bad line");
    st_error_set(&e, ERROR_IO, "progress", 4, 0, "corrupt save (%s)", "bad line");
    CHECK_STR(e.message, want);
    CHECK(e.line == 4 && e.col == 0);
    /* No path: the message as written, and no line or column to point at. */
    st_error_set(&e, ERROR_REFUSED, NULL, 9, 9, "%s: cannot write: %s", "x.rep", "it is a directory");
    CHECK_STR(e.message, "x.rep: cannot write: it is a directory");
    CHECK(e.line == 0 && e.col == 0 && e.at.path_len == 0 && e.at.message_at == 0);
    CHECK_STR(st_error_what(&e), e.message);
    /* A NULL Error is a caller that only wants true or false. */
    CHECK(!st_error_set(NULL, ERROR_IO, "a", 1, 1, "x"));
    CHECK(st_error_ok(NULL) && !strcmp(st_error_message(NULL), ""));
}

static void test_levels(void) {
    Error e;
    st_error_warn(&e, ERROR_VERSION, "progress", 1, 0, "a save of another version");
    CHECK_STR(e.message, "progress:1: warning: a save of another version");
    CHECK(e.level == DIAG_WARNING && e.code == ERROR_VERSION);
    st_error_note(&e, "saved %s", "a.lvl");
    CHECK_STR(e.message, "saved a.lvl");
    CHECK(st_error_ok(&e) && e.level == DIAG_NOTE);
    st_error_append(&e, " (%s)", "and more");
    CHECK_STR(e.message, "saved a.lvl (and more)");
    st_error_clear(&e);
    CHECK(st_error_ok(&e) && e.message[0] == '\0' && e.line == 0 && e.err_no == 0);
    CHECK_STR(st_error_code_name(ERROR_NOT_FOUND), "not found");
    CHECK_STR(st_error_code_name(ERROR_OUT_OF_MEMORY), "out of memory");
    CHECK_STR(st_error_code_name((ErrorCode)99), "unknown");
}

/* Long text is cut like snprintf: inside the buffer, NUL-terminated, the start kept. */
static void test_cut(void) {
    static char big[3 * ERROR_TEXT_MAX];
    memset(big, 'x', sizeof big - 1);
    Error e;
    st_error_set(&e, ERROR_PARSE, "a.lvl", 1, 2, "%s", big);
    CHECK_EQ_U(strlen(e.message), ERROR_TEXT_MAX - 1);
    CHECK(!strncmp(e.message, "a.lvl:1:2: error: xxx", 21));
    st_error_append(&e, "%s", "more");
    CHECK_EQ_U(strlen(e.message), ERROR_TEXT_MAX - 1);
}

/* st_error_report hands the sink what st_diag_report_at would: the same text, path, line,
   column and level; an empty Error says nothing. */
static void test_report(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, a);
    Error e;
    st_error_set(&e, ERROR_PARSE, "levels/01.lvl", 12, 3, "expected one '@', found %d", 2);
    st_error_report(&e);
    st_error_warn(&e, ERROR_IO, "progress", 0, 0, "cannot read save");
    st_error_report(&e);
    st_error_clear(&e);
    st_error_report(&e);
    st_error_report(NULL);
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.count, 2);
    CHECK(cap.of[DIAG_ERROR] == 1 && cap.of[DIAG_WARNING] == 1);
    const Diag *d = &cap.first->d;
    CHECK_STR(d->text, "levels/01.lvl:12:3: error: expected one '@', found 2");
    CHECK(d->path_len == 13 && !strncmp(d->path, "levels/01.lvl", 13));
    CHECK(d->line == 12 && d->col == 3 && d->level == DIAG_ERROR);
    CHECK_STR(d->message, "expected one '@', found 2");
    d = &cap.last->d;
    CHECK_STR(d->text, "progress: warning: cannot read save");
    CHECK(d->level == DIAG_WARNING && d->line == 0);
    st_arena_release(a);
}

/* An arena's refusal: the caller's words, then the arena's, ERROR_OUT_OF_MEMORY, the
   caller's place kept. */
static void test_arena_refusal(void) {
    Arena *rep = st_arena_create((ArenaParams){.name = "reports"});
    Arena *tiny = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "tiny"});
    REQUIRE_VOID(rep && tiny);
    DiagCapture cap;
    st_diag_capture_begin(&cap, rep);
    CHECK(st_arena_push(tiny, 4000, 8) != NULL);
    CHECK(st_arena_push(tiny, 200, 8) == NULL);
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.count, 1); /* the arena said it once, as it failed */
    Error e;
    st_error_set(&e, ERROR_PARSE, "a.lvl", 0, 0, "level does not fit: ");
    CHECK(!st_arena_error(&e));
    CHECK_STR(e.message,
              "a.lvl: error: level does not fit: arena 'tiny' full: 4000 of 4096 bytes used, asked for 200 more");
    CHECK(e.code == ERROR_OUT_OF_MEMORY && e.at.path_len == 5);
    CHECK_STR(st_error_what(&e), "level does not fit: arena 'tiny' full: 4000 of 4096 bytes used, asked for 200 more");
    st_error_clear(&e);
    st_arena_error(&e);
    CHECK_STR(e.message, "arena 'tiny' full: 4000 of 4096 bytes used, asked for 200 more");
    CHECK(e.code == ERROR_OUT_OF_MEMORY && e.at.path_len == 0);
    CHECK(!st_arena_error(NULL));
    st_arena_release(tiny);
    st_arena_release(rep);
}

int main(void) {
    test_set();
    test_levels();
    test_cut();
    test_report();
    test_arena_refusal();
    return check_result();
}
