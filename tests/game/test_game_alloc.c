/* test_game_alloc.c - no heap allocation during play: after start-up (arenas created, the
   first level and the replay loaded), the whole committed full-run replay - seven levels,
   six level changes, saves of progress included - runs without one call to malloc,
   calloc, realloc or their kin. The count comes from an interposer defined here, which the
   dynamic linker prefers to libc's; it forwards to glibc's __libc_* entry points. (Not built
   under the sanitizers, which bring their own allocator.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "game.h"
#include "replay.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static volatile int counting;
static volatile unsigned long allocations;

void *malloc(size_t n) {
    if (counting) allocations++;
    return __libc_malloc(n);
}
void *calloc(size_t a, size_t b) {
    if (counting) allocations++;
    return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n) {
    if (counting) allocations++;
    return __libc_realloc(p, n);
}
void free(void *p) { __libc_free(p); }
void *memalign(size_t al, size_t n) {
    if (counting) allocations++;
    return __libc_memalign(al, n);
}
void *aligned_alloc(size_t al, size_t n) { return memalign(al, n); }
int posix_memalign(void **out, size_t al, size_t n) {
    void *p = memalign(al, n);
    if (!p) return 12;
    *out = p;
    return 0;
}

int main(void) {
    if (chdir(SOURCE_DIR) != 0) return 1;
    /* The interposer is live: a malloc during start-up is counted when asked. */
    counting = 1;
    void *probe = malloc(16);
    counting = 0;
    CHECK_EQ_U(allocations, 1);
    free(probe);
    allocations = 0;

    char save_dir[] = "/tmp/test_game_alloc_XXXXXX";
    if (!mkdtemp(save_dir)) return 1;
    char save_path[SAVE_PATH_MAX];
    snprintf(save_path, sizeof save_path, "%s/progress", save_dir);

    Arena *perm = arena_create((ArenaParams){.name = "permanent"});
    Arena *level = arena_create((ArenaParams){.reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Replay r;
    char msg[600];
    if (!replay_load(&r, perm, REPLAYS_DIR "/full-run.rep", msg, sizeof msg)) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    Game *g = arena_push_struct(perm, Game);
    LevelError err;
    CHECK(game_init(g, level, &(GameConfig){.start_level = r.level, .seed = r.seed, .skip_title = true, .save_path = save_path}, &err));
    /* Warm the scratch arenas the path searches use, as the first frames of a game would. */
    scratch_get(0);
    scratch_get(1);

    counting = 1;
    uint8_t in;
    while (replay_next(&r, &in)) game_update(g, in);
    counting = 0;

    printf("full run: %d levels, %u ticks, %lu heap allocations during play\n",
           g->sim.progress.levels_completed, r.ticks, allocations);
    CHECK(g->sim.progress.levels_completed >= 6);
    CHECK_EQ_I(g->screen, SCREEN_VICTORY);
    CHECK_EQ_U(game_hash(g), r.hash);
    CHECK_EQ_U(allocations, 0);
    SaveData d;
    CHECK_EQ_I(save_load(&d, save_path, msg, sizeof msg), SAVE_OK); /* saves did happen */
    CHECK(d.level_count >= 6);

    arena_release(level);
    arena_release(perm);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", save_dir);
    if (system(cmd) != 0) return 1;
    return check_result();
}
