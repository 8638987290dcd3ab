/* effects.c - particles, shake and flashes from the simulation's events (see effects.h). */
#include "front/effects.h"

#include <string.h>

#include <strata/core/hash.h>
#include "front/palette.h"

const EffectsTuning EFFECTS_TUNING_DEFAULT = {
    .shot_sparks = 3,
    .enemy_shot_sparks = 3,
    .hit_sparks = 6,
    .kill_sparks = 24,
    .hurt_sparks = 10,
    .death_sparks = 40,
    .pickup_sparks = 8,
    .door_sparks = 16,
    .wall_sparks = 4,
    .shake_ticks = 10,
    .flash_ticks = 8,
};

static const uint32_t ENEMY_RGBA[ENEMY_KIND_COUNT] = {0x60c040ffu, 0xc060e0ffu, 0xa0a0b0ffu};
#define SPARK_PLAYER 0xfff0a0ffu
#define SPARK_ENEMY 0xff9040ffu

static uint64_t seed_state(uint64_t seed) { return seed ? seed : 0x9E3779B97F4A7C15ull; }

static uint32_t next_rand(Effects *fx) { /* xorshift64*: tiny, and the whole state is one word */
    uint64_t x = fx->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    fx->rng = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}
static int32_t rand_range(Effects *fx, int32_t lo, int32_t hi) { /* [lo, hi] */
    return lo + (int32_t)(next_rand(fx) % (uint32_t)(hi - lo + 1));
}

void effects_init(Effects *fx, const Game *g, const EffectsTuning *tuning) {
    memset(fx, 0, sizeof *fx);
    fx->tuning = tuning ? *tuning : EFFECTS_TUNING_DEFAULT;
    fx->rng = seed_state(g->sim.seed);
    fx->events_serial = g->sim.events.serial;
    fx->level_serial = g->sim.level_serial;
}

Particle *effects_spawn_particle(Effects *fx, const Sim *s, int32_t x, int32_t y, int32_t vx, int32_t vy, int16_t ttl,
                                 uint32_t color) {
    if (s->level.particle_cap <= 0 || !s->particles) return NULL;
    int32_t cap = s->level.particle_cap, slot = fx->cursor % cap;
    bool free_slot = false;
    for (int32_t n = 0; n < cap; n++) {
        int32_t i = (fx->cursor + n) % cap;
        if (!s->particles[i].alive) {
            slot = i;
            free_slot = true;
            break;
        }
    }
    fx->cursor = (slot + 1) % cap;
    fx->spawned++;
    fx->recycled += !free_slot;
    Particle *p = &s->particles[slot];
    *p = (Particle){.x = x, .y = y, .vx = vx, .vy = vy, .ttl = ttl, .max_ttl = ttl, .color = color, .alive = true};
    return p;
}

static void burst(Effects *fx, const Sim *s, int32_t x, int32_t y, int32_t n, int32_t speed, int16_t ttl,
                  uint32_t color) {
    for (int32_t i = 0; i < n; i++) {
        int32_t d = rand_range(fx, 0, 7);
        int32_t sp = rand_range(fx, speed / 3, speed);
        int32_t jx = rand_range(fx, -64, 64), jy = rand_range(fx, -64, 64);
        int16_t life = (int16_t)rand_range(fx, ttl / 2, ttl);
        effects_spawn_particle(fx, s, x, y, DIR8_X[d] * sp / 256 + jx, DIR8_Y[d] * sp / 256 + jy, life, color);
    }
}

/* Muzzle sparks fly the way the shot went, a little spread. */
static void muzzle(Effects *fx, const Sim *s, int32_t x, int32_t y, uint8_t facing, int32_t n) {
    int32_t ux = DIR8_X[facing % 8], uy = DIR8_Y[facing % 8];
    for (int32_t i = 0; i < n; i++) {
        int32_t jy = rand_range(fx, -80, 80), jx = rand_range(fx, -80, 80);
        effects_spawn_particle(fx, s, x, y, ux * FIX_ONE / 256 + jx, uy * FIX_ONE / 256 + jy, 8, SPARK_PLAYER);
    }
}

static void flash_enemy(Effects *fx, int32_t enemy) {
    EffectsFlash *slot = NULL;
    for (int i = 0; i < EFFECTS_FLASH_MAX; i++) {
        EffectsFlash *f = &fx->flashes[i];
        if (f->ticks > 0 && f->enemy == enemy) {
            slot = f;
            break;
        }
        if (!slot || f->ticks < slot->ticks) slot = f; /* a free one, else the nearest its end */
    }
    *slot = (EffectsFlash){.enemy = enemy, .ticks = fx->tuning.flash_ticks};
}

int32_t effects_enemy_flash(const Effects *fx, int32_t index) {
    for (int i = 0; i < EFFECTS_FLASH_MAX; i++)
        if (fx->flashes[i].ticks > 0 && fx->flashes[i].enemy == index) return fx->flashes[i].ticks;
    return 0;
}

static void advance(Effects *fx, const Sim *s) {
    for (int32_t i = 0; i < s->level.particle_cap; i++) {
        Particle *p = &s->particles[i];
        if (!p->alive) continue;
        p->x += p->vx;
        p->y += p->vy;
        p->vx = p->vx * 7 / 8;
        p->vy = p->vy * 7 / 8;
        if (--p->ttl <= 0) p->alive = false;
    }
    if (fx->shake > 0) fx->shake--;
    for (int i = 0; i < EFFECTS_FLASH_MAX; i++)
        if (fx->flashes[i].ticks > 0) fx->flashes[i].ticks--;
}

static void react(Effects *fx, const Game *g, const SimEvent *e) {
    const EffectsTuning *t = &fx->tuning;
    const Sim *s = &g->sim;
    switch ((SimEventKind)e->kind) {
    case SIM_EV_SHOT: muzzle(fx, s, e->x, e->y, e->a, t->shot_sparks); break;
    case SIM_EV_ENEMY_SHOT: burst(fx, s, e->x, e->y, t->enemy_shot_sparks, FIX_ONE / 2, 10, SPARK_ENEMY); break;
    case SIM_EV_HIT:
        flash_enemy(fx, e->index);
        burst(fx, s, e->x, e->y, t->hit_sparks, FIX_ONE * 3 / 2, 16, 0xffffffffu);
        break;
    case SIM_EV_KILL:
        burst(fx, s, e->x, e->y, t->kill_sparks, FIX_ONE * 5 / 2, 40, ENEMY_RGBA[e->a % ENEMY_KIND_COUNT]);
        break;
    case SIM_EV_HURT:
        fx->shake = t->shake_ticks;
        burst(fx, s, e->x, e->y, t->hurt_sparks, FIX_ONE * 2, 24, 0xff4060ffu);
        break;
    case SIM_EV_DEATH: burst(fx, s, e->x, e->y, t->death_sparks, FIX_ONE * 3, 50, 0xffd060ffu); break;
    case SIM_EV_PICKUP: {
        uint32_t c = e->a == PICKUP_KEY     ? PALETTE_KEY_RGBA[e->b % KEY_COLOR_COUNT]
                     : e->a == PICKUP_HEART ? 0xff5070ffu
                                            : 0xffd040ffu;
        burst(fx, s, e->x, e->y, t->pickup_sparks, FIX_ONE, 20, c);
        break;
    }
    case SIM_EV_DOOR:
        burst(fx, s, e->x, e->y, t->door_sparks, FIX_ONE * 2, 30, PALETTE_KEY_RGBA[e->a % KEY_COLOR_COUNT]);
        break;
    case SIM_EV_WALL: burst(fx, s, e->x, e->y, t->wall_sparks, FIX_ONE, 12, e->a ? SPARK_PLAYER : SPARK_ENEMY); break;
    case SIM_EV_LEVEL:
        /* A run started from the title draws the same sparks as one started by game_init. */
        if (e->a == SIM_LEVEL_RUN) fx->rng = seed_state(g->sim.seed);
        break;
    case SIM_EV_EXIT:
    case SIM_EV_KIND_COUNT: break;
    }
}

void effects_update(Effects *fx, const Game *g) {
    const Sim *s = &g->sim;
    if (s->events.serial != fx->events_serial) {
        fx->events_serial = s->events.serial;
        if (s->level_serial != fx->level_serial) { /* a fresh pool, and nothing left to shake or flash */
            fx->level_serial = s->level_serial;
            fx->cursor = 0;
            fx->shake = 0;
            memset(fx->flashes, 0, sizeof fx->flashes);
        }
        advance(fx, s);
        for (int32_t i = 0; i < s->events.count; i++) react(fx, g, &s->events.list[i]);
    }
    fx->shake_x = fx->shake_y = 0;
    if (fx->shake > 0) {
        fx->shake_x = (int32_t)(st_hash_mix2((int32_t)g->ticks, 1) % 5) - 2;
        fx->shake_y = (int32_t)(st_hash_mix2((int32_t)g->ticks, 2) % 5) - 2;
    }
}

void effects_rewound(Effects *fx, const Game *g) {
    fx->events_serial = g->sim.events.serial;
    fx->level_serial = g->sim.level_serial;
    fx->shake = fx->shake_x = fx->shake_y = 0;
    memset(fx->flashes, 0, sizeof fx->flashes);
}
