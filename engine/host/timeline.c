/* timeline.c - a run's arenas over time (see timeline.h). */
#include <strata/host/timeline.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/base.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>

const char ST_TIMELINE_CSV_HEADER[] =
    "frame,level,screen,event,permanent_used,permanent_committed,permanent_high,permanent_reserved,"
    "level_used,level_committed,level_high,level_reserved,frame_used,frame_committed,frame_high,frame_reserved,"
    "scratch_used,scratch_committed,scratch_high,scratch_reserved,"
    "history_used,history_committed,history_high,history_reserved\n";

bool st_timeline_create(Timeline *t, Arena *perm, bool csv, uint32_t every) {
    memset(t, 0, sizeof *t);
    t->played_now = -1;
    t->screen = UINT16_MAX;
    t->every = every ? every : 1;
    if (!st_arena_trace_init(&t->trace, perm, TIMELINE_FRAMES, TIMELINE_MARKS)) return false;
    static const char *const names[TIMELINE_SLOTS] = {"permanent", "level",    "frame",  "scratch0",
                                                      "scratch1",  "scratch2", "history"};
    for (int i = 0; i < TIMELINE_SLOTS; i++) st_arena_trace_name(&t->trace, i, names[i]);
    return !csv || st_virtual_array_init(&t->csv, 1, 0);
}

void st_timeline_release(Timeline *t) {
    if (t->csv.base) st_virtual_array_release(&t->csv);
}

void st_timeline_mark(Timeline *t, uint64_t frame, const char *fmt, ...) {
    char text[ARENA_TRACE_MARK_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    st_arena_trace_mark(&t->trace, frame, "%s", text);
    size_t n = strlen(t->events);
    snprintf(t->events + n, sizeof t->events - n, "%s%s", n ? "; " : "", text);
}

/* Text onto the CSV buffer (NULL past its reservation: the rest of the run is not written). */
static void csv_put(Timeline *t, const char *s, size_t n) {
    char *dst = st_virtual_array_push_n(&t->csv, n);
    if (dst) memcpy(dst, s, n);
}

/* A field with a comma, a quote or a line break goes in quotes, its quotes doubled. */
static void csv_field(Timeline *t, const char *s) {
    if (!strpbrk(s, ",\"\n\r")) {
        csv_put(t, s, strlen(s));
        return;
    }
    csv_put(t, "\"", 1);
    for (const char *c = s; *c; c++) {
        if (*c == '"') csv_put(t, "\"\"", 2);
        else csv_put(t, c, 1);
    }
    csv_put(t, "\"", 1);
}

/* The game's name of screen `s` (the last scene's table), else `none`. */
static const char *screen_name(const Timeline *t, uint16_t s, const char *none) {
    return s < t->screen_count && t->screen_names ? t->screen_names[s] : none;
}

static void csv_row(Timeline *t, const ArenaTraceSample *smp) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%llu,%u,", (unsigned long long)smp->frame, smp->level);
    csv_put(t, buf, (size_t)n);
    csv_field(t, screen_name(t, smp->screen, ""));
    csv_put(t, ",", 1);
    csv_field(t, t->events);
    uint64_t used = 0, committed = 0, high = 0, reserved = 0;
    for (int i = TIMELINE_SCRATCH; i < TIMELINE_HISTORY; i++) {
        used = MAX(used, smp->used[i]), committed = MAX(committed, smp->committed[i]);
        high = MAX(high, smp->high[i]), reserved = MAX(reserved, t->trace.reserved[i]);
    }
    n = 0;
    for (int i = 0; i < TIMELINE_SCRATCH; i++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, ",%llu,%llu,%llu,%llu", (unsigned long long)smp->used[i],
                      (unsigned long long)smp->committed[i], (unsigned long long)smp->high[i],
                      (unsigned long long)t->trace.reserved[i]);
    n += snprintf(buf + n, sizeof buf - (size_t)n, ",%llu,%llu,%llu,%llu", (unsigned long long)used,
                  (unsigned long long)committed, (unsigned long long)high, (unsigned long long)reserved);
    int hs = TIMELINE_HISTORY;
    n += snprintf(buf + n, sizeof buf - (size_t)n, ",%llu,%llu,%llu,%llu\n", (unsigned long long)smp->used[hs],
                  (unsigned long long)smp->committed[hs], (unsigned long long)smp->high[hs],
                  (unsigned long long)t->trace.reserved[hs]);
    csv_put(t, buf, (size_t)n);
}

/* The level now played: its record, found or added (a level played twice is one row). */
static void level_changed(Timeline *t, const TimelineScene *sc) {
    const char *path = sc->level_path ? sc->level_path : "";
    int32_t i = 0;
    while (i < t->played_count && strcmp(t->played[i].path, path) != 0) i++;
    if (i == t->played_count && t->played_count < TIMELINE_LEVELS_MAX)
        snprintf(t->played[t->played_count++].path, sizeof t->played[0].path, "%s", path);
    t->played_now = i < t->played_count ? i : -1;
    if (t->played_now < 0) return;
    TimelineLevel *r = &t->played[t->played_now];
    r->level_bytes = MAX(r->level_bytes, sc->level_bytes);
    r->scratch_load = MAX(r->scratch_load, sc->scratch_load);
}

void st_timeline_frame(Timeline *t, const TimelineScene *sc, Arena *const arenas[TIMELINE_SLOTS], uint64_t frame) {
    t->screen_names = sc->screen_names, t->screen_count = sc->screen_count;
    if (sc->level_serial != t->level_serial) {
        t->level_serial = sc->level_serial;
        st_timeline_mark(t, frame, "level %s",
                         st_path_base_name(st_str8_cstr(sc->level_path ? sc->level_path : "")).data);
        level_changed(t, sc);
    }
    if (sc->screen != t->screen) {
        if (t->screen != UINT16_MAX) st_timeline_mark(t, frame, "screen %s", screen_name(t, sc->screen, "?"));
        t->screen = sc->screen;
    }
    st_arena_trace_sample(&t->trace, arenas, TIMELINE_SLOTS, frame, (uint32_t)(t->played_now + 1), sc->screen);
    const ArenaTraceSample *smp = st_arena_trace_at(&t->trace, st_arena_trace_held(&t->trace) - 1);
    if (t->played_now >= 0 && smp)
        t->played[t->played_now].frame_peak = MAX(t->played[t->played_now].frame_peak, smp->high[TIMELINE_FRAME]);
    if (t->csv.base && smp && (frame % t->every == 0 || t->events[0])) csv_row(t, smp);
    t->events[0] = '\0';
}

uint64_t st_timeline_report(const Timeline *t) {
    if (t->played_count == 0) return 0;
    uint64_t largest = 0;
    for (int32_t i = 0; i < t->played_count; i++) largest = MAX(largest, t->played[i].level_bytes);
    /* Output like the arena lines before it: what sized arenas come from, in a fixed form. */
    fprintf(stderr, "levels played: level arena bytes, frame arena peak while played, scratch peak while loading\n");
    for (int32_t i = 0; i < t->played_count; i++)
        fprintf(stderr, "  %-40s %10llu %10llu %10llu\n", t->played[i].path,
                (unsigned long long)t->played[i].level_bytes, (unsigned long long)t->played[i].frame_peak,
                (unsigned long long)t->played[i].scratch_load);
    uint64_t rec = st_arena_recommend_reserve(largest);
    fprintf(stderr, "recommended LEVEL_ARENA_BYTES=%llu (largest need + 25%%, rounded up to 64 KiB)\n",
            (unsigned long long)rec);
    return rec;
}

bool st_timeline_write_csv(const Timeline *t, const char *path, uint64_t recommended, Error *err) {
    char pre[sizeof ST_TIMELINE_CSV_HEADER + 64];
    int n = snprintf(pre, sizeof pre, "# recommended_level_arena_bytes=%llu\n%s", (unsigned long long)recommended,
                     ST_TIMELINE_CSV_HEADER);
    /* One piece, so the file is written atomically like every other output. */
    SCRATCH_SCOPE(tmp);
    uint64_t len = (uint64_t)n + t->csv.count;
    char *all = st_arena_push_array_raw(tmp.arena, char, len);
    if (!all) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "%s: cannot write: no memory for %llu bytes", path,
                     (unsigned long long)len);
        return false;
    }
    memcpy(all, pre, (size_t)n);
    if (t->csv.count) memcpy(all + n, t->csv.base, t->csv.count);
    return st_os_write_file_atomic(path, all, len, err);
}
