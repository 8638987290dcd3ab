/* diag.c - formatting reports and handing them to the sink (see diag.h). */
#include <strata/core/diag.h>

#include <stdio.h>
#include <string.h>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
/* Windows' C library turns every "\n" written to stdout, stderr or a file fopen'ed without
   "b" into "\r\n" (text mode). Reports, exit reports, tools' tables and files are the same
   bytes on every platform, so whatever reads them (a script, a test, a person's grep) reads
   one format: binary mode, before main, in every program that can report (every one on the
   engine). */
__attribute__((constructor)) static void diag_stdio_binary(void) {
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    *__p__fmode() = _O_BINARY;
}
#endif

static const char *const diag_level_names[DIAG_LEVEL_COUNT] = {"error", "warning", "note"};

const char *st_diag_level_name(DiagLevel level) {
    return (unsigned)level < DIAG_LEVEL_COUNT ? diag_level_names[level] : "error";
}

/* snprintf's count, clamped to what the buffer holds. */
static size_t diag_written(int n, size_t at, size_t cap) {
    if (n < 0) return at;
    size_t end = at + (size_t)n;
    return cap == 0 ? 0 : end < cap ? end : cap - 1;
}

static uint16_t diag_u16(size_t n) { return (uint16_t)(n < UINT16_MAX ? n : UINT16_MAX); }

DiagLayout st_diag_vformat(char *buf, size_t cap, DiagLevel level, const char *path, int64_t line, int64_t col,
                           const char *fmt, va_list ap) {
    if (cap) buf[0] = '\0';
    size_t at = 0, path_len = 0;
    if (path) {
        int n = snprintf(buf, cap, "%s", path);
        at = path_len = diag_written(n, 0, cap);
        if (line > 0 && col > 0) n = snprintf(buf + at, cap - at, ":%lld:%lld", (long long)line, (long long)col);
        else if (line > 0) n = snprintf(buf + at, cap - at, ":%lld", (long long)line);
        else n = 0;
        at = diag_written(n, at, cap);
        at = diag_written(snprintf(buf + at, cap - at, ": %s: ", st_diag_level_name(level)), at, cap);
    }
    if (cap > at) vsnprintf(buf + at, cap - at, fmt, ap);
    return (DiagLayout){diag_u16(path_len), diag_u16(at)};
}

DiagLayout st_diag_format(char *buf, size_t cap, DiagLevel level, const char *path, int64_t line, int64_t col,
                          const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    DiagLayout at = st_diag_vformat(buf, cap, level, path, line, col, fmt, ap);
    va_end(ap);
    return at;
}

/* ---- The sink. */

void st_diag_sink_stderr(void *state, const Diag *d) {
    (void)state;
    /* One call, so that a line is never split by another thread's. */
    fprintf(stderr, "%s\n", d->text);
}

static DiagSink diag_current = {st_diag_sink_stderr, NULL};
/* Set while this thread runs a sink: a report made from inside one (a capture whose arena
   is full reports that failure) must not re-enter it. */
static _Thread_local int diag_in_sink;

DiagSink st_diag_set_sink(DiagSink sink) {
    DiagSink before = diag_current;
    diag_current = sink.fn ? sink : (DiagSink){st_diag_sink_stderr, NULL};
    return before;
}

DiagSink st_diag_sink(void) { return diag_current; }

void st_diag_send(DiagLevel level, const char *text, int32_t line, int32_t col, DiagLayout at) {
    if (!text) text = "";
    size_t len = strlen(text);
    size_t path_len = at.path_len <= len ? at.path_len : len;
    size_t message_at = at.message_at <= len ? at.message_at : len;
    Diag d = {.level = level,
              .path = path_len ? text : NULL,
              .path_len = (uint32_t)path_len,
              .line = path_len ? line : 0,
              .col = path_len ? col : 0,
              .message = text + message_at,
              .text = text};
    if (diag_in_sink) {
        st_diag_sink_stderr(NULL, &d);
        return;
    }
    DiagSink s = diag_current;
    diag_in_sink++;
    s.fn(s.state, &d);
    diag_in_sink--;
}

void st_diag_report(DiagLevel level, const char *fmt, ...) {
    char buf[DIAG_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    DiagLayout at = st_diag_vformat(buf, sizeof buf, level, NULL, 0, 0, fmt, ap);
    va_end(ap);
    st_diag_send(level, buf, 0, 0, at);
}

void st_diag_report_at(DiagLevel level, const char *path, int64_t line, int64_t col, const char *fmt, ...) {
    char buf[DIAG_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    DiagLayout at = st_diag_vformat(buf, sizeof buf, level, path, line, col, fmt, ap);
    va_end(ap);
    st_diag_send(level, buf, (int32_t)line, (int32_t)col, at);
}
