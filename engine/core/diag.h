/* diag.h - the one way engine and game code report a problem: a level (error, warning,
   note), a message, and where it is (path:line:col) when it is about a file, handed to the
   one sink the program chose. The default sink prints the text on stderr; a test captures
   reports into an arena (DiagCapture); the game's front end also shows warnings and errors
   on screen.

       st_diag_report_at(DIAG_ERROR, "levels/01.lvl", 3, 7, "expected a wall, found '%c'", c);
           // levels/01.lvl:3:7: error: expected a wall, found 'Z'
       st_diag_report_at(DIAG_WARNING, path, 0, 0, "no entry '%s'", name);
           // levels/02.lvl: warning: no entry 'east'
       st_diag_report(DIAG_ERROR, "game: no renderer");
           // game: no renderer          (not about a file: printed as written)

   The text: with a path, "path[:line[:col]]: <level>: <message>" (line when > 0, col when
   line and col are); without one, the message as written, since it names its own subject
   ("arena 'level' full: ...", "platform: SDL_Init failed: ..."). It is formatted once, into
   a fixed buffer on the stack (DIAG_TEXT_MAX bytes; longer ones are cut): no heap.

   A function that fails and leaves the reporting to its caller (a loader that must not
   print, a parser run by a tool) fills the caller's Error (core/error.h), which formats
   with st_diag_format; underneath, st_diag_format says where the path and the message lie in the
   text, and whoever decides to report it sends it:

       char msg[512];
       DiagLayout at = st_diag_format(msg, sizeof msg, DIAG_ERROR, path, line, col, "expected %s", what);
       ...
       st_diag_send(DIAG_ERROR, msg, line, col, at);   // the sink sees path, line, col, message

   A sink receives each report as a Diag, valid until it returns:

       static void keep(void *state, const Diag *d) { ... d->level, d->path, d->line, d->text ... }
       DiagSink before = st_diag_set_sink((DiagSink){keep, &state});
       ...
       st_diag_set_sink(before);

   The sink is one for the process: set it at start-up (or around a test), not while other
   threads report. A report made while this thread is inside a sink (a capture whose arena
   is full reports that too) goes straight to stderr instead of recursing.

   Reports are for people. Code that must act on what went wrong reads the code of the
   Error the function filled (ERROR_NOT_FOUND, ERROR_PARSE...), never a look at the text.

   This header includes nothing of the engine, so the layers below the arena (os_memory.c)
   report through it as well. */
#ifndef DIAG_H
#define DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DIAG_TEXT_MAX 2048

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_LEVEL_COUNT } DiagLevel;

/* One report, as a sink sees it. `text` is the whole line (no newline), `message` its tail
   after the location and the level; both are NUL-terminated. `path` is a prefix of `text`,
   path_len bytes long (0 when the report is not about a file). */
typedef struct Diag {
    DiagLevel level;
    const char *path;
    uint32_t path_len;
    int32_t line, col; /* 1-based; 0: none (a report about the whole file, or not about one) */
    const char *message;
    const char *text;
} Diag;

typedef void DiagSinkFn(void *state, const Diag *d);
typedef struct DiagSink {
    DiagSinkFn *fn;
    void *state;
} DiagSink;

/* Where st_diag_format put the path and the message in the text it wrote: the path is
   text[0, path_len), the message starts at text + message_at. {0, 0}: no path. */
typedef struct DiagLayout {
    uint16_t path_len, message_at;
} DiagLayout;

/* A report not about a file: the message, formatted. */
void st_diag_report(DiagLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A report about `path` (NULL: none, as st_diag_report), at line and col when they are > 0. */
void st_diag_report_at(DiagLevel level, const char *path, int64_t line, int64_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Formats a report into buf (cut to cap - 1 bytes and NUL-terminated, as snprintf) without
   sending it. */
DiagLayout st_diag_format(char *buf, size_t cap, DiagLevel level, const char *path, int64_t line, int64_t col,
                          const char *fmt, ...) __attribute__((format(printf, 7, 8)));
DiagLayout st_diag_vformat(char *buf, size_t cap, DiagLevel level, const char *path, int64_t line, int64_t col,
                           const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));
/* Sends a text st_diag_format wrote (or any text, with a zero layout: not about a file). */
void st_diag_send(DiagLevel level, const char *text, int32_t line, int32_t col, DiagLayout at);

/* Installs `sink` and returns the one it replaces, so a sink can pass reports on to it.
   {NULL, NULL} installs the default, st_diag_sink_stderr. */
DiagSink st_diag_set_sink(DiagSink sink);
DiagSink st_diag_sink(void);
/* The default sink: d->text and a newline on stderr, in one write. */
void st_diag_sink_stderr(void *state, const Diag *d);

const char *st_diag_level_name(DiagLevel level); /* "error", "warning", "note" */

#endif
