/* error.c - filling and reporting the one error value (see error.h). */
#include <strata/core/error.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const error_code_names[ERROR_CODE_COUNT] = {
    "ok", "not found", "io", "not a file", "too big", "parse", "version", "out of memory", "refused"};

const char *st_error_code_name(ErrorCode code) {
    return (unsigned)code < ERROR_CODE_COUNT ? error_code_names[code] : "unknown";
}

static void error_fill(Error *e, DiagLevel level, ErrorCode code, const char *path, int64_t line, int64_t col,
                       const char *fmt, va_list ap) {
    e->code = code;
    e->level = level;
    e->err_no = 0;
    /* The report names a line only with a path, and a column only with a line (diag.h). */
    e->line = path && line > 0 ? (int32_t)line : 0;
    e->col = e->line && col > 0 ? (int32_t)col : 0;
    e->at = st_diag_vformat(e->message, sizeof e->message, level, path, line, col, fmt, ap);
}

bool st_error_vset(Error *e, ErrorCode code, const char *path, int64_t line, int64_t col, const char *fmt, va_list ap) {
    if (e) error_fill(e, DIAG_ERROR, code, path, line, col, fmt, ap);
    return false;
}

bool st_error_set(Error *e, ErrorCode code, const char *path, int64_t line, int64_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(e, code, path, line, col, fmt, ap);
    va_end(ap);
    return false;
}

bool st_error_warn(Error *e, ErrorCode code, const char *path, int64_t line, int64_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (e) error_fill(e, DIAG_WARNING, code, path, line, col, fmt, ap);
    va_end(ap);
    return false;
}

void st_error_clear(Error *e) {
    if (!e) return;
    memset(e, 0, offsetof(Error, message));
    e->message[0] = '\0';
}

void st_error_note(Error *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (e) error_fill(e, DIAG_NOTE, ERROR_OK, NULL, 0, 0, fmt, ap);
    va_end(ap);
}

void st_error_append(Error *e, const char *fmt, ...) {
    if (!e) return;
    size_t n = strnlen(e->message, sizeof e->message - 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message + n, sizeof e->message - n, fmt, ap);
    va_end(ap);
}

void st_error_report(const Error *e) {
    if (!e || !e->message[0]) return;
    st_diag_send(e->level, e->message, e->line, e->col, e->at);
}
