/* arena_trace.c - the per-frame ring of arena samples and its marks. */
#include <strata/core/arena_trace.h>

#include <stdarg.h>
#include <string.h>

#include <strata/core/str8.h>

bool st_arena_trace_init(ArenaTrace *t, Arena *perm, uint32_t capacity, uint32_t mark_capacity) {
    if (!t) return false;
    *t = (ArenaTrace){0};
    if (!perm || capacity == 0) return false;
    /* Both rings or neither: a mark ring that does not fit gives back the samples. */
    uint64_t pos = st_arena_pos(perm);
    ArenaTraceSample *samples = st_arena_push_array(perm, ArenaTraceSample, capacity);
    ArenaTraceMark *marks = NULL;
    if (samples && mark_capacity) marks = st_arena_push_array(perm, ArenaTraceMark, mark_capacity);
    if (!samples || (mark_capacity && !marks)) {
        st_arena_pop_to(perm, pos);
        return false;
    }
    t->samples = samples;
    t->capacity = capacity;
    t->marks = marks;
    t->mark_capacity = marks ? mark_capacity : 0;
    return true;
}

void st_arena_trace_name(ArenaTrace *t, int slot, const char *name) {
    if (!t || slot < 0 || slot >= ARENA_TRACE_ARENAS) return;
    t->names[slot] = name;
    if (slot + 1 > t->arena_count) t->arena_count = slot + 1;
}

void st_arena_trace_sample(ArenaTrace *t, Arena *const *arenas, int count, uint64_t frame, uint32_t level,
                           uint16_t screen) {
    if (!t || !t->samples) return;
    if (count < 0 || !arenas) count = 0;
    if (count > ARENA_TRACE_ARENAS) count = ARENA_TRACE_ARENAS;
    ArenaTraceSample *s = &t->samples[t->count % t->capacity];
    s->frame = frame;
    s->level = level;
    s->screen = screen;
    uint32_t marks = t->pending_frame == frame ? t->pending_marks : 0;
    s->marks = (uint16_t)(marks < UINT16_MAX ? marks : UINT16_MAX);
    t->pending_marks = 0;
    for (int i = 0; i < ARENA_TRACE_ARENAS; i++) {
        Arena *a = i < count ? arenas[i] : NULL;
        if (!a) {
            s->used[i] = s->committed[i] = s->high[i] = t->reserved[i] = 0;
            continue;
        }
        /* The high mark first: taking it updates the peak that st_arena_stats reports. */
        s->high[i] = st_arena_high_take(a);
        ArenaStats st = st_arena_stats(a);
        s->used[i] = st.used;
        s->committed[i] = st.committed;
        t->reserved[i] = st.reserved;
        t->peak[i] = st.peak;
    }
    if (count > t->arena_count) t->arena_count = count;
    t->count++;
}

/* The sample of `frame` if it is the newest one held, else NULL. */
static ArenaTraceSample *trace_newest_of(ArenaTrace *t, uint64_t frame) {
    if (!t->samples || t->count == 0) return NULL;
    ArenaTraceSample *s = &t->samples[(t->count - 1) % t->capacity];
    return s->frame == frame ? s : NULL;
}

static void trace_count_mark(ArenaTrace *t, uint64_t frame) {
    ArenaTraceSample *s = trace_newest_of(t, frame);
    if (s) {
        if (s->marks < UINT16_MAX) s->marks++;
        return;
    }
    if (t->pending_frame != frame) t->pending_frame = frame, t->pending_marks = 0;
    if (t->pending_marks < UINT32_MAX) t->pending_marks++;
}

__attribute__((format(printf, 3, 0))) static void trace_vmark(ArenaTrace *t, uint64_t frame, const char *fmt,
                                                              va_list ap) {
    if (!t || !t->samples) return;
    trace_count_mark(t, frame);
    if (!t->mark_capacity) return;
    ArenaTraceMark *m = &t->marks[t->mark_count % t->mark_capacity];
    m->frame = frame;
    if (fmt) st_str8_vsnprintf(m->text, ARENA_TRACE_MARK_TEXT, fmt, ap); /* no locale, no heap */
    else m->text[0] = 0;
    t->mark_count++;
}

void st_arena_trace_mark(ArenaTrace *t, uint64_t frame, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    trace_vmark(t, frame, fmt, ap);
    va_end(ap);
}

void st_arena_trace_mark_diag(ArenaTrace *t, uint64_t frame, const Diag *d) {
    if (!d || (d->level != DIAG_ERROR && d->level != DIAG_WARNING)) return;
    st_arena_trace_mark(t, frame, "%s", d->text ? d->text : "");
}

uint64_t st_arena_trace_held(const ArenaTrace *t) {
    if (!t || !t->samples) return 0;
    return t->count < t->capacity ? t->count : t->capacity;
}

const ArenaTraceSample *st_arena_trace_at(const ArenaTrace *t, uint64_t i) {
    uint64_t held = st_arena_trace_held(t);
    if (i >= held) return NULL;
    return &t->samples[(t->count - held + i) % t->capacity];
}

uint64_t st_arena_trace_marks_held(const ArenaTrace *t) {
    if (!t || !t->marks) return 0;
    return t->mark_count < t->mark_capacity ? t->mark_count : t->mark_capacity;
}

const ArenaTraceMark *st_arena_trace_mark_at(const ArenaTrace *t, uint64_t i) {
    uint64_t held = st_arena_trace_marks_held(t);
    if (i >= held) return NULL;
    return &t->marks[(t->mark_count - held + i) % t->mark_capacity];
}
