/* fuzz_replay.c - libFuzzer target for the replay format (game/rules/replay.c, tests/fuzz/replay.sh).

   Beyond "no crash, no leak, no hang" it checks replay.h's promises on every input:
     - a load that fails leaves the caller's Replay and the arena as they were, and its
       message names the file ("path:line: error: ...");
     - a load that succeeds is what a playback relies on: at least one tick in every run,
       `ticks` the sum of the runs, every run stored where run_cap says, a level path of
       printable bytes that fits REPLAY_PATH_MAX, and replay_next gives exactly `ticks`
       inputs, the runs' inputs in order;
     - it survives the writer: replay_format's text loads back to the same replay (seed,
       level, ticks, levels, hash, runs) and formats to the same bytes.
   A broken promise traps, which libFuzzer reports as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <strata/core/arena.h>
#include "rules/replay.h"
#include "fuzz.h"

#define PATH "fuzz/run.rep"

static const char good[] =
    "replay 1\nseed 7\nlevel levels/01-first-steps.lvl\nticks 5\nlevels 1\nhash 00000000000000ff\n"
    "inputs\n2x00 3x08\nend\n";

static Arena *arena, *again;
static Replay base;
static uint64_t base_pos;

/* Field by field: a run's padding bytes are whatever the arena held. */
static bool same(const Replay *a, const Replay *b) {
    if (a->seed != b->seed || strcmp(a->level, b->level) != 0 || a->ticks != b->ticks || a->levels != b->levels ||
        a->has_hash != b->has_hash || (a->has_hash && a->hash != b->hash) || a->run_count != b->run_count)
        return false;
    for (uint32_t i = 0; i < a->run_count; i++)
        if (a->runs[i].count != b->runs[i].count || a->runs[i].input != b->runs[i].input) return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Error msg;
    if (!arena) {
        arena = st_arena_create((ArenaParams){.name = "fuzz"});
        again = st_arena_create((ArenaParams){.name = "again"});
        if (!replay_parse(&base, arena, "base.rep", STR8_LIT(good), &msg)) {
            fprintf(stderr, "%s\n", msg.message);
            __builtin_trap();
        }
        base_pos = st_arena_pos(arena);
    }
    st_arena_pop_to(arena, base_pos);
    st_arena_clear(again);
    Replay r = base, before = base;
    if (!replay_parse(&r, arena, PATH, st_str8_make((const char *)data, size), &msg)) {
        PROMISE(memcmp(&r, &before, sizeof r) == 0 && same(&r, &base));
        PROMISE(st_arena_pos(arena) == base_pos);
        PROMISE(strncmp(msg.message, PATH ":", strlen(PATH) + 1) == 0 && strstr(msg.message, ": error: ") != NULL);
        return 0;
    }
    uint64_t sum = 0;
    PROMISE(r.run_count <= r.run_cap && (r.run_count == 0 || r.runs));
    for (uint32_t i = 0; i < r.run_count; i++) {
        PROMISE(r.runs[i].count >= 1);
        sum += r.runs[i].count;
    }
    PROMISE(sum == r.ticks);
    size_t n = strnlen(r.level, sizeof r.level);
    PROMISE(n >= 1 && n < sizeof r.level);
    for (size_t i = 0; i < n; i++) PROMISE((uint8_t)r.level[i] >= ' ' && r.level[i] != 127);
    /* Played back: the inputs of the runs, tick by tick, and no more (capped: a run may be
       billions of ticks long). */
    if (r.ticks <= 100000) {
        Replay play = r;
        uint32_t run = 0, in_run = 0, ticks = 0;
        uint16_t b;
        while (replay_next(&play, &b)) {
            while (in_run >= r.runs[run].count) run++, in_run = 0;
            PROMISE(b == r.runs[run].input);
            in_run++, ticks++;
        }
        PROMISE(ticks == r.ticks && replay_done(&play));
    }
    Str8 text = replay_format(again, &r);
    PROMISE(text.len > 0);
    Replay back;
    bool ok = replay_parse(&back, again, "again.rep", text, &msg);
    if (!ok)
        fprintf(stderr, "written text does not load: %s\n%.*s\n", msg.message, (int)text.len, text.data);
    PROMISE(ok && same(&back, &r));
    PROMISE(st_str8_eq(replay_format(again, &back), text));
    return 0;
}
