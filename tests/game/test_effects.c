/* test_effects.c - the seam between the rules and their looks (effects.h), without SDL.

   Every committed replay plays through game_update and the effects module three times: with
   no effects at all, with the default tuning, and with another (a 7th hit spark instead of
   6, every other count doubled, longer shakes and flashes). All three must end on the
   replay's committed hash, while the particles spawned differ: how a hit looks cannot
   change what the hit did. (Before the simulation was split from its effects, its RNG fed
   the sparks and sim_hash, and a 7th hit spark changed five of the eight hashes.)
   Then the module on its own: the particle pool's recycling, the flash table, the shake, a
   pause that freezes the sparks, and a level change that empties the pool. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "front/effects.h"
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/rewind.h"

static Arena *perm, *level_arena, *history_arena;

typedef struct RunResult {
    uint64_t hash;
    uint32_t ticks;
    int32_t levels;
    uint64_t spawned;
    uint64_t rng;
} RunResult;

/* One replay through the screens (and the rewind, rules/rewind.h) and, unless `tuning` is
   NULL, the effects after each tick, the way app_tick calls them. */
static bool play(const char *path, const EffectsTuning *tuning, RunResult *out) {
    Error msg;
    Replay r;
    if (!replay_load(&r, perm, path, &msg)) {
        fprintf(stderr, "%s\n", msg.message);
        return false;
    }
    static Game g;
    static Effects fx;
    Error err;
    if (!game_init(&g, level_arena,
                   &(GameConfig){.start_level = r.level, .seed = r.seed, .skip_title = true},
                   &err)) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    if (tuning) effects_init(&fx, &g, tuning);
    static Rewind rw;
    st_arena_clear(history_arena);
    CHECK(rewind_init(&rw, history_arena, &g, &err));
    uint16_t in;
    *out = (RunResult){0};
    while (replay_next(&r, &in)) {
        rewind_update(&rw, &g, in);
        if (tuning && (rw.speed || rw.at_start)) effects_rewound(&fx, &g);
        else if (tuning) effects_update(&fx, &g);
        out->ticks++;
    }
    out->hash = game_hash(&g);
    out->levels = g.sim.progress.levels_completed;
    out->spawned = tuning ? fx.spawned : 0;
    out->rng = tuning ? fx.rng : 0;
    CHECK(r.has_hash);
    CHECK_EQ_U(out->hash, r.hash);
    CHECK_EQ_I(out->levels, r.levels);
    CHECK_EQ_U(out->ticks, r.ticks);
    return true;
}

static void test_replays_ignore_effects(void) {
    EffectsTuning more = EFFECTS_TUNING_DEFAULT;
    more.hit_sparks = 7;
    more.shot_sparks *= 2, more.enemy_shot_sparks *= 2, more.kill_sparks *= 2,
        more.hurt_sparks *= 2;
    more.death_sparks *= 2, more.pickup_sparks *= 2, more.door_sparks *= 2, more.wall_sparks *= 2;
    more.shake_ticks *= 2, more.flash_ticks *= 2;
    DIR *d = opendir(REPLAYS_DIR);
    REQUIRE_VOID(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".rep") != 0) continue;
        char path[600];
        snprintf(path, sizeof path, "%s/%s", REPLAYS_DIR, e->d_name);
        RunResult none, normal, other;
        REQUIRE_VOID(play(path, NULL, &none) && play(path, &EFFECTS_TUNING_DEFAULT, &normal) &&
                     play(path, &more, &other));
        printf("%-24s %5u ticks  hash %016llx  particles %6llu (default) %6llu (more)\n", e->d_name,
               none.ticks, (unsigned long long)none.hash, (unsigned long long)normal.spawned,
               (unsigned long long)other.spawned);
        /* The tunings really were different looks of the same run. */
        CHECK(normal.spawned > 0);
        CHECK(other.spawned > normal.spawned);
        CHECK(other.rng != normal.rng);
        CHECK_EQ_U(none.hash, normal.hash);
        CHECK_EQ_U(normal.hash, other.hash);
        files++;
    }
    closedir(d);
    CHECK(files >= 8);
}

static const char *write_level(const char *name, const char *text) {
    static char path[256];
    snprintf(path, sizeof path, "/tmp/%s-%d.lvl", name, (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
    return path;
}

static int alive_particles(const Sim *s) {
    int n = 0;
    for (int32_t i = 0; i < s->level.particle_cap; i++) n += s->particles[i].alive;
    return n;
}

/* A full pool recycles the oldest spawn, then the next oldest. */
static void test_pool(void) {
    const char *p =
        write_level("fx-pool", "name: Pool\nparticles: 8\nmap:\n#####\n#@..#\n#####\nend\n");
    static Game g;
    Error err;
    REQUIRE_VOID(game_init(&g, level_arena,
                           &(GameConfig){.start_level = p, .seed = 5, .skip_title = true}, &err));
    unlink(p);
    Effects fx;
    effects_init(&fx, &g, NULL);
    const Sim *lv = &g.sim; /* the pool is the level's, in the Sim's runtime block */
    CHECK_EQ_I(lv->level.particle_cap, 8);
    for (int i = 0; i < 8; i++)
        CHECK(effects_spawn_particle(&fx, lv, i, 0, 0, 0, 50, 0x11u) != NULL);
    CHECK_EQ_U(fx.recycled, 0);
    Particle *q =
        effects_spawn_particle(&fx, lv, 77, 0, 0, 0, 9, 0x22u); /* full: the oldest goes */
    CHECK(q == &lv->particles[0]);
    CHECK_EQ_I(q->x, 77);
    CHECK_EQ_I(alive_particles(lv), 8);
    q = effects_spawn_particle(&fx, lv, 78, 0, 0, 0, 9, 0x22u);
    CHECK(q == &lv->particles[1]); /* then the next oldest */
    CHECK_EQ_U(fx.recycled, 2);
    CHECK_EQ_U(fx.spawned, 10);
}

/* Shooting a patroller: sparks at the muzzle and the hit, a flash on that enemy counting
   down over flash_ticks, none on the other; a pause freezes them; getting hurt shakes the
   view for shake_ticks; a restart empties the pool and stops shake and flash. */
static void test_events_to_effects(void) {
    const char *p =
        write_level("fx-duel", "name: Duel\nmap:\n############\n#@...p....p#\n############\nend\n");
    static Game g;
    Error err;
    REQUIRE_VOID(game_init(&g, level_arena,
                           &(GameConfig){.start_level = p, .seed = 5, .skip_title = true}, &err));
    Effects fx;
    EffectsTuning t = EFFECTS_TUNING_DEFAULT;
    t.shake_ticks = 12;
    effects_init(&fx, &g, &t);
    const Sim *lv = &g.sim;

    game_update(&g, SIM_IN_RIGHT);
    effects_update(&fx, &g);
    CHECK_EQ_I(alive_particles(lv), 0); /* a step without events makes nothing */
    game_update(&g, SIM_IN_FIRE);
    effects_update(&fx, &g);
    CHECK_EQ_I(alive_particles(lv), t.shot_sparks);
    int hit_at = -1;
    for (int i = 0; i < 40 && hit_at < 0; i++) {
        game_update(&g, 0);
        effects_update(&fx, &g);
        for (int32_t k = 0; k < g.sim.events.count; k++)
            if (g.sim.events.list[k].kind == SIM_EV_HIT) hit_at = i;
    }
    REQUIRE_VOID(hit_at >= 0);
    CHECK_EQ_I(effects_enemy_flash(&fx, 0), t.flash_ticks);
    CHECK_EQ_I(effects_enemy_flash(&fx, 1), 0);
    int sparks = alive_particles(lv);
    CHECK(sparks >= t.hit_sparks);

    /* Paused, nothing moves: not the sparks, not the flash. */
    game_update(&g, GAME_IN_PAUSE);
    effects_update(&fx, &g);
    Particle before[64];
    int32_t n = lv->level.particle_cap < 64 ? lv->level.particle_cap : 64;
    memcpy(before, lv->particles, sizeof(Particle) * (size_t)n);
    for (int i = 0; i < 30; i++) {
        game_update(&g, 0);
        effects_update(&fx, &g);
    }
    CHECK_EQ_I(g.screen, SCREEN_PAUSED);
    CHECK(memcmp(before, lv->particles, sizeof(Particle) * (size_t)n) == 0);
    CHECK_EQ_I(effects_enemy_flash(&fx, 0), t.flash_ticks);
    game_update(&g, GAME_IN_PAUSE);
    effects_update(&fx, &g);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);

    /* One step a call: the flash runs out after flash_ticks steps. */
    for (int i = 0; i < t.flash_ticks; i++) {
        game_update(&g, 0);
        effects_update(&fx, &g);
    }
    CHECK_EQ_I(effects_enemy_flash(&fx, 0), 0);

    /* Walk into the patroller: hurt, and the view shakes for shake_ticks steps. */
    int hurt_at = -1;
    for (int i = 0; i < 200 && hurt_at < 0; i++) {
        game_update(&g, SIM_IN_RIGHT);
        effects_update(&fx, &g);
        if (g.sim.progress.hearts < PLAYER_START_HEARTS) hurt_at = i;
    }
    REQUIRE_VOID(hurt_at >= 0);
    CHECK_EQ_I(fx.shake, t.shake_ticks);
    bool moved = false;
    for (int i = 1; i < t.shake_ticks; i++) {
        game_update(&g, SIM_IN_LEFT);
        effects_update(&fx, &g);
        moved |= fx.shake_x != 0 || fx.shake_y != 0;
        CHECK(fx.shake_x >= -2 && fx.shake_x <= 2 && fx.shake_y >= -2 && fx.shake_y <= 2);
    }
    CHECK(moved);
    game_update(&g, SIM_IN_LEFT);
    effects_update(&fx, &g);
    CHECK_EQ_I(fx.shake, 0);
    CHECK(fx.shake_x == 0 && fx.shake_y == 0);

    /* A restart: a new pool (the level arena was cleared), nothing left to shake or flash. */
    game_update(&g, SIM_IN_FIRE);
    effects_update(&fx, &g);
    game_update(&g, GAME_IN_RESTART);
    effects_update(&fx, &g);
    CHECK_EQ_I(alive_particles(lv), 0);
    CHECK_EQ_I(fx.shake, 0);
    CHECK_EQ_U(fx.level_serial, g.sim.level_serial);
    CHECK_EQ_I(fx.cursor, 0);
    unlink(p);
}

int main(void) {
    if (chdir(SOURCE_DIR) != 0) return 1; /* replays name levels relative to the repository */
    perm = st_arena_create((ArenaParams){.name = "permanent"});
    level_arena = st_arena_create((ArenaParams){
        .reserve_size = LEVEL_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    history_arena = st_arena_create(
        (ArenaParams){.reserve_size = REWIND_ARENA_BYTES, .flags = ARENA_FLAG_NO_CHAIN, .name = "history"});
    test_replays_ignore_effects();
    test_pool();
    test_events_to_effects();
    st_arena_release(history_arena);
    st_arena_release(level_arena);
    st_arena_release(perm);
    return check_result();
}
