/* 12_peak_sizing.c - sizing arenas from measured peaks instead of guesses.

   The idea: give arenas generous sizes while developing, measure what a real run used, and
   then size them from the measurement. Three numbers answer it: st_arena_stats(a).peak (the
   worst moment since creation, surviving clears), st_arena_high_take(a) (the worst moment
   since the last take: a per-frame high that catches a push-then-pop spike), and
   st_arena_recommend_reserve(peak) (that plus 25%, rounded up to 64 KiB). An ArenaTrace
   records the use of several arenas frame by frame, to find *when* the peak happened.
   (A program on the host gets the same: the arena report at exit and --arena-trace FILE.)
   Look at: the spike in frame 150 that the end-of-frame `used` never shows, and the table.

   Run: ./12_peak_sizing */
#include <stdio.h>

#include <strata/core/arena.h>
#include <strata/core/arena_trace.h>

enum { FRAMES = 300 };

int main(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    Arena *level = st_arena_create((ArenaParams){.name = "level"});
    Arena *frame = st_arena_create((ArenaParams){.name = "frame"});
    if (!perm || !level || !frame) return 1;
    ArenaTrace trace;
    if (!st_arena_trace_init(&trace, perm, FRAMES, 16)) return 1;
    const char *names[] = {"permanent", "level", "frame"};
    for (int i = 0; i < 3; i++) st_arena_trace_name(&trace, i, names[i]);

    uint64_t spike_frame = 0, spike = 0;
    for (uint64_t f = 0; f < FRAMES; f++) {
        if (f % 100 == 0) { /* a new level: bigger each time */
            st_arena_clear(level);
            st_arena_push(level, 40000 + f * 300, 16);
            st_arena_trace_mark(&trace, f, "level %llu", (unsigned long long)(f / 100 + 1));
        }
        st_arena_clear(frame);
        st_arena_push(frame, 2000 + f % 7 * 100, 16); /* draw commands, HUD text */
        ArenaTemp t = st_arena_temp_begin(frame);
        st_arena_push(frame, f == 150 ? 50000 : 500, 16); /* a one-frame spike, popped at once */
        st_arena_temp_end(t);
        uint64_t high = st_arena_high_take(frame);
        if (high > spike) spike = high, spike_frame = f;
        st_arena_trace_sample(&trace, (Arena *const[]){perm, level, frame}, 3, f, (uint32_t)(f / 100 + 1), 0);
    }
    printf("frame arena: used %llu at the last frame's end; worst frame %llu with %llu bytes\n",
           (unsigned long long)st_arena_stats(frame).used, (unsigned long long)spike_frame, (unsigned long long)spike);
    for (uint64_t i = 0; i < st_arena_trace_marks_held(&trace); i++)
        printf("mark at frame %llu: %s\n", (unsigned long long)st_arena_trace_mark_at(&trace, i)->frame,
               st_arena_trace_mark_at(&trace, i)->text);
    printf("%-10s %10s %14s\n", "arena", "peak", "recommended");
    Arena *all[] = {perm, level, frame};
    for (int i = 0; i < 3; i++) {
        uint64_t peak = st_arena_stats(all[i]).peak;
        printf("%-10s %10llu %14llu\n", names[i], (unsigned long long)peak,
               (unsigned long long)st_arena_recommend_reserve(peak));
    }
    for (int i = 2; i >= 0; i--) st_arena_release(all[i]);
    return 0;
}
