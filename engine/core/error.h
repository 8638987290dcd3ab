/* error.h - the one error value every module fills when an operation fails: what kind of
   failure it was (the code, for the caller that acts on it), the errno when the OS said
   why, where (path:line:col) when it is about a file, and the message, already the line
   core/diag.h would print. It is plain data of a fixed size, kept on the stack or in the
   caller's struct: no heap, nothing to release.

       Error err;
       Str8 text;
       if (!st_os_read_file(scratch, path, 1 << 20, &text, &err)) {
           if (err.code == ERROR_NOT_FOUND) ...              // the code is for code
           st_error_report(&err);                               // the message is for people
       }   // levels/01.lvl: error: cannot open: No such file or directory

   The function that fails fills it, formatted by st_diag_format, so the text is exactly the
   report's, "levels/01.lvl:3:7: error: expected a wall, found 'Z'" (or, with no path, the
   message as written); st_error_report sends it through the sink with its line and column
   apart, at its level (an unreadable save is a warning):

       return st_error_set(err, ERROR_PARSE, path, line, col, "expected %s, found '%c'", what, c);

   st_error_set returns false, so a failing `bool` function ends in one line; a NULL Error is
   allowed and ignored (a caller that only wants true or false). An arena's refusal comes in
   through st_arena_error (core/arena.h), which fills an Error with ERROR_OUT_OF_MEMORY and the
   arena's own words after the caller's. An operation that succeeds may leave a note in it
   (st_error_note: ERROR_OK, DIAG_NOTE, "saved levels/a.lvl") for a status line.

   Why one fixed-size value and not a pointer to a message: a failure must be reportable
   with every arena full, and a caller keeps it across calls (the editor shows it, a loader
   hands it up) without caring who formatted it. 2 KiB on the stack is the price. */
#ifndef ERROR_H
#define ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <strata/core/diag.h>

#define ERROR_TEXT_MAX 2048 /* room for a folder search's list of the folders it tried */

/* winerror.h (<windows.h>) has an ERROR_NOT_FOUND of its own (1168), which would rename
   ours: a file that includes <windows.h> after this header #undefs it (os_file_win32.c). */
#if defined(_WIN32) && defined(ERROR_NOT_FOUND)
#undef ERROR_NOT_FOUND
#endif

/* What callers branch on; anything finer is in the message. */
typedef enum ErrorCode {
    ERROR_OK,
    ERROR_NOT_FOUND,     /* nothing at the path (ENOENT, ENOTDIR) */
    ERROR_IO,            /* the OS failed to examine, read or write: `err_no` says why */
    ERROR_NOT_FILE,      /* a directory (`err_no` EISDIR) or a device, FIFO or socket */
    ERROR_TOO_BIG,       /* past a size limit */
    ERROR_PARSE,         /* the bytes are not what was expected (damaged, or not this format) */
    ERROR_VERSION,       /* another version of the format: not ours to read or replace */
    ERROR_OUT_OF_MEMORY, /* an arena refused (st_arena_error) */
    ERROR_REFUSED,       /* a check said no, or the OS would not open it (permissions, a link) */
    ERROR_CODE_COUNT
} ErrorCode;

typedef struct Error {
    ErrorCode code;
    DiagLevel level;              /* what st_error_report sends it as, and the word in `message` */
    int err_no;                   /* errno when the OS said why, else 0 */
    int32_t line, col;            /* 1-based; 0 when about the whole file, or not about one */
    DiagLayout at;                /* where the path and the message lie in `message` */
    char message[ERROR_TEXT_MAX]; /* the whole report line, no newline */
} Error;

/* Fills *e (when e is not NULL) at DIAG_ERROR, errno 0; returns false. */
bool st_error_set(Error *e, ErrorCode code, const char *path, int64_t line, int64_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
bool st_error_vset(Error *e, ErrorCode code, const char *path, int64_t line, int64_t col, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));
/* The same at DIAG_WARNING: a failure the caller survives (a save it cannot read). */
bool st_error_warn(Error *e, ErrorCode code, const char *path, int64_t line, int64_t col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* ERROR_OK with an empty message: what a function that succeeds leaves. */
void st_error_clear(Error *e);
/* ERROR_OK with a message at DIAG_NOTE: what an operation that succeeded did, for a status
   line ("saved levels/a.lvl"), never about a file's line. */
void st_error_note(Error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds to the end of the message, cut at ERROR_TEXT_MAX as the rest. */
void st_error_append(Error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline bool st_error_ok(const Error *e) { return !e || e->code == ERROR_OK; }
/* The whole line ("path:line:col: error: ..."); "" for a cleared one. */
static inline const char *st_error_message(const Error *e) { return e ? e->message : ""; }
/* The message after the location and the level word: the text a caller quotes in its own. */
static inline const char *st_error_what(const Error *e) { return e ? e->message + e->at.message_at : ""; }
const char *st_error_code_name(ErrorCode code); /* "not found", "parse", ... */

/* Sends it through core/diag.h at its level (nothing when the message is empty). */
void st_error_report(const Error *e);

#endif
