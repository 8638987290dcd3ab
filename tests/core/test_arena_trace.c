/* The per-frame high mark and the trace built on it: st_arena_high_take catches a spike that
   was pushed and popped within a frame and restarts from `used`, without disturbing the
   all-time peak; the ring keeps the newest samples in order once it wraps; NULL slots
   record zeros; marks wrap, are cut, and are counted in their frame's sample whichever
   side of it they come; an arena-full report reaches the trace through a diag sink;
   recording makes no heap call; init fails cleanly, leaving perm as it was. */
#include <string.h>

#include "check.h"
#include <strata/core/arena_trace.h>
#include <strata/core/diag.h>
#include <strata/core/diag_capture.h>
#include "heap_count.h"

static void test_high_take(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "high"});
    REQUIRE_VOID(a);
    CHECK_EQ_U(st_arena_high_take(a), 0);
    st_arena_push(a, 1000, 8);
    CHECK_EQ_U(st_arena_high_take(a), 1000); /* the cursor itself, never rewound */
    CHECK_EQ_U(st_arena_high_take(a), 1000); /* restarted from `used`, which is still 1000 */
    st_arena_clear(a);
    CHECK_EQ_U(st_arena_high_take(a), 1000); /* the clear came after the last take */
    CHECK_EQ_U(st_arena_high_take(a), 0);
    /* A spike within one "frame": pushed and popped, then a smaller push. */
    uint64_t pos = st_arena_pos(a);
    st_arena_push(a, 50000, 8);
    st_arena_pop_to(a, pos);
    st_arena_push(a, 200, 8);
    CHECK_EQ_U(st_arena_pos(a), 200);
    CHECK_EQ_U(st_arena_high_take(a), 50000);
    CHECK_EQ_U(st_arena_high_take(a), 200);
    /* Nested scopes: the deepest point counts. */
    {
        ARENA_SCOPE(outer, a);
        st_arena_push(a, 3000, 8);
        {
            ARENA_SCOPE(inner, a);
            st_arena_push(a, 7000, 8);
        }
        st_arena_push(a, 100, 8);
    }
    CHECK_EQ_U(st_arena_high_take(a), 200 + 3000 + 7000);
    /* The all-time peak is untouched by the takes. */
    CHECK_EQ_U(st_arena_stats(a).peak, 50000);
    st_arena_release(a);

    /* A chaining arena: the spike crosses into a second block, which is unmapped again. */
    Arena *c = st_arena_create((ArenaParams){.reserve_size = 64 << 10, .name = "chain"});
    REQUIRE_VOID(c);
    st_arena_push(c, 1000, 8);
    st_arena_high_take(c);
    pos = st_arena_pos(c);
    st_arena_push(c, 60 << 10, 8);
    st_arena_push(c, 30 << 10, 8); /* does not fit the first block: chained */
    CHECK_EQ_U(st_arena_stats(c).blocks, 2);
    st_arena_pop_to(c, pos);
    CHECK_EQ_U(st_arena_stats(c).blocks, 1);
    CHECK_EQ_U(st_arena_high_take(c), st_arena_stats(c).peak);
    CHECK(st_arena_stats(c).peak >= 1000 + (90 << 10));
    CHECK_EQ_U(st_arena_high_take(c), 1000);
    st_arena_release(c);
}

static void test_ring_wraps(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Arena *a = st_arena_create((ArenaParams){.name = "a"});
    REQUIRE_VOID(perm && a);
    ArenaTrace t;
    REQUIRE_VOID(st_arena_trace_init(&t, perm, 5, 4));
    CHECK(st_arena_pos(perm) >= ARENA_TRACE_BYTES(5, 4));
    CHECK(st_arena_trace_at(&t, 0) == NULL);
    st_arena_trace_name(&t, 0, "a");
    CHECK_EQ_I(t.arena_count, 1);
    for (uint64_t f = 100; f < 112; f++) {
        st_arena_clear(a);
        st_arena_push(a, f, 1); /* used = f: each sample is recognisable */
        st_arena_trace_sample(&t, (Arena *const[]){a}, 1, f, (uint32_t)(f / 4), (uint16_t)(f % 3));
    }
    CHECK_EQ_U(t.count, 12);
    CHECK_EQ_U(st_arena_trace_held(&t), 5);
    for (uint64_t i = 0; i < 5; i++) {
        const ArenaTraceSample *s = st_arena_trace_at(&t, i);
        REQUIRE_VOID(s);
        CHECK_EQ_U(s->frame, 107 + i);
        CHECK_EQ_U(s->used[0], 107 + i);
        CHECK_EQ_U(s->high[0], 107 + i); /* the clear folded in the previous frame's used,
                                            which is below this frame's */
        CHECK_EQ_U(s->level, (107 + i) / 4);
        CHECK_EQ_U(s->screen, (107 + i) % 3);
        CHECK(s->committed[0] >= s->used[0]);
    }
    CHECK(st_arena_trace_at(&t, 5) == NULL);
    CHECK(st_arena_trace_at(&t, UINT64_MAX) == NULL);
    CHECK(t.reserved[0] == st_arena_stats(a).reserved);
    st_arena_release(a);
    st_arena_release(perm);
}

/* The frame loop as the game runs it: clear at the top, push during the frame, sample at
   the end. Frame 3 parses something big in a scope that is gone by the end of the frame. */
static void test_spike_and_null_slots(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Arena *frame = st_arena_create((ArenaParams){.name = "frame"});
    Arena *level = st_arena_create(
        (ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    REQUIRE_VOID(perm && frame && level);
    ArenaTrace t;
    REQUIRE_VOID(st_arena_trace_init(&t, perm, 16, 0));
    st_arena_push(level, 4096, 8);
    for (uint64_t f = 0; f < 6; f++) {
        st_arena_clear(frame);
        st_arena_push(frame, 104, 8);
        if (f == 3) {
            ARENA_SCOPE(tmp, frame);
            st_arena_push(frame, 50000, 8);
        }
        /* slot 1 is a scratch arena that does not exist yet; it appears in frame 4 */
        Arena *slots[3] = {frame, f >= 4 ? level : NULL, perm};
        st_arena_trace_sample(&t, slots, 3, f, 0, 0);
    }
    CHECK_EQ_I(t.arena_count, 3);
    for (uint64_t f = 0; f < 6; f++) {
        const ArenaTraceSample *s = st_arena_trace_at(&t, f);
        REQUIRE_VOID(s);
        CHECK_EQ_U(s->used[0], 104); /* what the end of the frame sees */
        CHECK_EQ_U(s->high[0], f == 3 ? 104 + 50000 : 104);
        if (f < 4) CHECK(s->used[1] == 0 && s->committed[1] == 0 && s->high[1] == 0);
        else CHECK(s->used[1] == 4096 && s->high[1] == 4096 && s->committed[1] >= 4096);
        CHECK(s->used[2] > 0); /* the trace's own ring */
        for (int i = 3; i < ARENA_TRACE_ARENAS; i++)
            CHECK(s->used[i] == 0 && s->committed[i] == 0 && s->high[i] == 0);
    }
    CHECK_EQ_U(t.reserved[1], 1 << 20);
    CHECK_EQ_U(t.peak[0], 104 + 50000);
    /* A slot that goes back to NULL (an editor closed) records zeros again. */
    st_arena_trace_sample(&t, (Arena *const[]){frame, NULL}, 2, 6, 0, 0);
    const ArenaTraceSample *s = st_arena_trace_at(&t, 6);
    REQUIRE_VOID(s);
    CHECK(s->used[1] == 0 && s->high[1] == 0 && t.reserved[1] == 0 && s->used[2] == 0);
    /* count past ARENA_TRACE_ARENAS is cut, a negative count or NULL array is none. */
    Arena *many[ARENA_TRACE_ARENAS + 2];
    for (int i = 0; i < ARENA_TRACE_ARENAS + 2; i++) many[i] = frame;
    st_arena_trace_sample(&t, many, ARENA_TRACE_ARENAS + 2, 7, 0, 0);
    CHECK_EQ_I(t.arena_count, ARENA_TRACE_ARENAS);
    st_arena_trace_sample(&t, NULL, 3, 8, 0, 0);
    st_arena_trace_sample(&t, many, -1, 9, 0, 0);
    CHECK(st_arena_trace_at(&t, 8)->used[0] == 0 && st_arena_trace_at(&t, 9)->used[0] == 0);
    st_arena_release(level);
    st_arena_release(frame);
    st_arena_release(perm);
}

static void sink_to_trace(void *state, const Diag *d) { st_arena_trace_mark_diag(state, 42, d); }

static void test_marks(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    REQUIRE_VOID(perm);
    ArenaTrace t;
    REQUIRE_VOID(st_arena_trace_init(&t, perm, 8, 3));
    for (int i = 0; i < 7; i++) st_arena_trace_mark(&t, (uint64_t)i, "m%d", i);
    CHECK_EQ_U(t.mark_count, 7);
    CHECK_EQ_U(st_arena_trace_marks_held(&t), 3);
    for (uint64_t i = 0; i < 3; i++) {
        const ArenaTraceMark *m = st_arena_trace_mark_at(&t, i);
        REQUIRE_VOID(m);
        char want[8];
        snprintf(want, sizeof want, "m%d", (int)(4 + i));
        CHECK(strcmp(m->text, want) == 0);
        CHECK_EQ_U(m->frame, 4 + i);
    }
    CHECK(st_arena_trace_mark_at(&t, 3) == NULL);
    /* A long text is cut, still terminated. */
    char longer[300];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    st_arena_trace_mark(&t, 7, "level %s", longer);
    const ArenaTraceMark *m = st_arena_trace_mark_at(&t, 2);
    CHECK_EQ_U(strlen(m->text), ARENA_TRACE_MARK_TEXT - 1);
    CHECK(strncmp(m->text, "level xxx", 9) == 0);

    /* Counted in their frame's sample: before it is taken, and after (same frame). Marks of
       a frame that is never sampled do not leak into the next one. */
    st_arena_trace_mark(&t, 10, "before");
    st_arena_trace_mark(&t, 10, "before too");
    st_arena_trace_sample(&t, NULL, 0, 10, 0, 0);
    CHECK_EQ_U(st_arena_trace_at(&t, 0)->marks, 2);
    st_arena_trace_mark(&t, 10, "after");
    CHECK_EQ_U(st_arena_trace_at(&t, 0)->marks, 3);
    st_arena_trace_mark(&t, 11, "frame 11 is skipped");
    st_arena_trace_sample(&t, NULL, 0, 12, 0, 0);
    CHECK_EQ_U(st_arena_trace_at(&t, 1)->marks, 0);

    /* An arena failure, through a diag sink, lands on the timeline; notes do not. */
    Arena *tiny = st_arena_create(
        (ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN, .name = "tiny"});
    REQUIRE_VOID(tiny);
    uint64_t before = t.mark_count;
    DiagSink old = st_diag_set_sink((DiagSink){sink_to_trace, &t});
    st_diag_report(DIAG_NOTE, "a note is not an event");
    CHECK(st_arena_push(tiny, 8192, 8) == NULL);
    st_diag_set_sink(old);
    CHECK_EQ_U(t.mark_count, before + 1);
    m = st_arena_trace_mark_at(&t, 2);
    CHECK(m && m->frame == 42 && strstr(m->text, "arena 'tiny' full") != NULL);
    st_arena_release(tiny);
    st_arena_release(perm);
}

static void test_no_heap(void) {
    if (!HEAP_COUNT) {
        printf("heap count skipped: AddressSanitizer owns malloc (the release build counts)\n");
        return;
    }
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Arena *frame = st_arena_create((ArenaParams){.name = "frame"});
    REQUIRE_VOID(perm && frame);
    heap_calls = 0;
    heap_counting = 1;
    ArenaTrace t;
    bool ok = st_arena_trace_init(&t, perm, 600, 16);
    for (uint64_t f = 0; f < 2000; f++) {
        st_arena_clear(frame);
        st_arena_push(frame, 64 + f % 500, 8);
        if (f % 97 == 0)
            st_arena_trace_mark(&t, f, "level %s %d %.2f %llu", "x.lvl", (int)f, 1.5,
                             (unsigned long long)f);
        st_arena_trace_sample(&t, (Arena *const[]){perm, frame, NULL}, 3, f, 1, 2);
    }
    heap_counting = 0;
    CHECK(ok);
    CHECK_EQ_U(heap_calls, 0);
    CHECK_EQ_U(st_arena_trace_held(&t), 600);
    st_arena_release(frame);
    st_arena_release(perm);
}

static void test_init_fails_cleanly(void) {
    ArenaTrace t;
    memset(&t, 0xAB, sizeof t);
    CHECK(!st_arena_trace_init(&t, NULL, 10, 10));
    CHECK(t.samples == NULL && t.count == 0);
    CHECK(!st_arena_trace_init(NULL, NULL, 10, 10));

    Arena *scratch = st_arena_create((ArenaParams){.name = "capture"});
    Arena *small = st_arena_create((ArenaParams){
        .reserve_size = 16 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "small-perm"});
    REQUIRE_VOID(scratch && small);
    st_arena_push(small, 100, 8);
    uint64_t pos = st_arena_pos(small);
    CHECK(!st_arena_trace_init(&t, small, 0, 4)); /* nothing to record into */
    DiagCapture cap;
    st_diag_capture_begin(&cap, scratch);
    CHECK(!st_arena_trace_init(&t, small, 3600, 64)); /* the samples do not fit */
    CHECK_EQ_U(st_arena_pos(small), pos);
    CHECK(!st_arena_trace_init(&t, small, 10, 1000)); /* the samples fit, the marks do not */
    CHECK_EQ_U(st_arena_pos(small), pos);
    st_diag_capture_end(&cap);
    CHECK_EQ_U(cap.of[DIAG_ERROR], 2);
    CHECK(cap.first && strstr(cap.first->d.text, "arena 'small-perm' full") != NULL);
    /* The failed trace is inert: nothing recorded, nothing read, no crash. */
    CHECK(t.samples == NULL && t.marks == NULL);
    st_arena_trace_sample(&t, (Arena *const[]){small}, 1, 1, 0, 0);
    st_arena_trace_mark(&t, 1, "ignored");
    CHECK_EQ_U(t.count, 0);
    CHECK_EQ_U(t.mark_count, 0);
    CHECK(st_arena_trace_at(&t, 0) == NULL && st_arena_trace_mark_at(&t, 0) == NULL);
    /* What fits, fits: exactly the bytes ARENA_TRACE_BYTES says, alignment aside. */
    CHECK(st_arena_trace_init(&t, small, 10, 4));
    CHECK(st_arena_pos(small) - pos >= ARENA_TRACE_BYTES(10, 4));
    CHECK(st_arena_pos(small) - pos < ARENA_TRACE_BYTES(10, 4) + 16);
    /* Calls on NULL do nothing. */
    st_arena_trace_name(NULL, 0, "x");
    st_arena_trace_name(&t, ARENA_TRACE_ARENAS, "past the end");
    st_arena_trace_name(&t, -1, "before the start");
    CHECK_EQ_I(t.arena_count, 0);
    st_arena_trace_sample(NULL, NULL, 0, 0, 0, 0);
    st_arena_trace_mark(NULL, 0, "x");
    st_arena_trace_mark_diag(&t, 0, NULL);
    CHECK(st_arena_trace_held(NULL) == 0 && st_arena_trace_at(NULL, 0) == NULL);
    st_arena_release(small);
    st_arena_release(scratch);
}

int main(void) {
    heap_counting = 0;
    test_high_take();
    test_ring_wraps();
    test_spike_and_null_slots();
    test_marks();
    test_no_heap();
    test_init_fails_cleanly();
    printf("sample %zu bytes, mark %zu bytes; 60 s at 60 Hz + 64 marks: %llu bytes\n",
           sizeof(ArenaTraceSample), sizeof(ArenaTraceMark),
           (unsigned long long)ARENA_TRACE_BYTES(3600, 64));
    return check_result();
}
