/* diag_capture.c - the capturing sink (see diag_capture.h). */
#include <strata/core/diag_capture.h>

#include <string.h>

static void diag_capture_sink(void *state, const Diag *d) {
    DiagCapture *c = state;
    size_t len = strlen(d->text);
    DiagCaptured *e = st_arena_push_struct(c->arena, DiagCaptured);
    char *text = e ? st_arena_push_raw(c->arena, len + 1, 1) : NULL;
    if (!text) {
        c->lost++;
        st_diag_sink_stderr(NULL, d);
        return;
    }
    memcpy(text, d->text, len + 1);
    e->d = *d;
    e->d.text = text;
    e->d.path = d->path ? text + (d->path - d->text) : NULL;
    e->d.message = text + (d->message - d->text);
    if (c->last) c->last->next = e;
    else c->first = e;
    c->last = e;
    c->count++;
    if ((unsigned)d->level < DIAG_LEVEL_COUNT) c->of[d->level]++;
}

void st_diag_capture_begin(DiagCapture *c, Arena *arena) {
    *c = (DiagCapture){.arena = arena};
    c->before = st_diag_set_sink((DiagSink){diag_capture_sink, c});
}

void st_diag_capture_end(DiagCapture *c) { st_diag_set_sink(c->before); }
