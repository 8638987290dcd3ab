/* effects.h - what the game's events look like: particles, screen shake, hit flashes.

   The simulation is gameplay only (sim.h): every tick it lists what happened, with
   positions (Sim.events). Effects turns that list into sparks, a shaking view and enemies
   flashing red, with an RNG of its own, so a spark more or less, or a longer shake, never
   changes a replay's hash. It belongs to the front end (the gamelib target): the rules and
   the screens (game.h) never call it; the App calls it after every game_update.

       Effects fx;
       game_init(g, level_arena, &cfg, &err);
       effects_init(&fx, g, NULL);          // NULL: EFFECTS_TUNING_DEFAULT; seeded by the run
       for (;;) {
           game_update(g, input);
           effects_update(&fx, g);          // after every game_update, before drawing
       }
       draw_game(rd, &art, &view, g, &fx);  // the particles, the view offset, the flashes

   Memory. The Effects struct is plain data of fixed size that the caller owns (the App
   keeps it, in the permanent arena): the RNG, the shake, and a table of EFFECTS_FLASH_MAX
   enemy flashes. The particles are the current level's pool (Sim.particles, in the level
   arena beside the level's runtime state, sized by the level file's `particles:` line,
   alive flag per slot): a level's sprite pool is measured with its level when it loads
   and dies with it, and only Effects writes it - the one thing it writes through the
   `const Game *` it is given; the rules never read it. It notices a new level by
   Sim.level_serial and keeps no pointer into the level arena.

   Time. Effects advance once per simulation step, not per call and not per frame: a step
   is a new event list (SimEvents.serial), which is why pausing freezes the sparks in the
   air and a level's end lets them settle behind the card. The RNG starts from the run's
   seed (again when the title starts a new run), so headless runs and golden frames draw
   the same pixels every time. The shake's offset comes from the tick count, not the RNG. */
#ifndef EFFECTS_H
#define EFFECTS_H

#include <stdint.h>

#include "rules/game.h"

/* How much of each effect an event makes. Plain numbers, read at run time, so a test can
   play the same run with two tunings and see that only the picture changes. */
typedef struct EffectsTuning {
    int32_t shot_sparks;       /* the player's muzzle */
    int32_t enemy_shot_sparks; /* a turret's muzzle */
    int32_t hit_sparks;        /* an enemy hurt */
    int32_t kill_sparks;
    int32_t hurt_sparks; /* the player hurt */
    int32_t death_sparks;
    int32_t pickup_sparks;
    int32_t door_sparks;
    int32_t wall_sparks; /* a bullet stopped by a wall */
    int32_t shake_ticks; /* after the player is hurt */
    int32_t flash_ticks; /* an enemy's red flash after a hit */
} EffectsTuning;

extern const EffectsTuning EFFECTS_TUNING_DEFAULT;

/* Enemies flashing at once. More hits in flight than this recycle the flash closest to its
   end; each one lasts flash_ticks, so it takes 64 different enemies hit within 8 ticks. */
#define EFFECTS_FLASH_MAX 64

typedef struct EffectsFlash {
    int32_t enemy; /* index in Sim.enemies */
    int32_t ticks; /* left; 0: a free entry */
} EffectsFlash;

typedef struct Effects {
    EffectsTuning tuning;
    uint64_t rng;
    uint32_t events_serial;   /* the SimEvents.serial last turned into effects */
    uint32_t level_serial;    /* the Sim.level_serial of the pool in use */
    int32_t cursor;           /* the particle pool slot after the last spawn */
    int32_t shake;            /* ticks of shake left */
    int32_t shake_x, shake_y; /* the view's offset this tick, in pixels */
    EffectsFlash flashes[EFFECTS_FLASH_MAX];
    uint64_t spawned;  /* particles since effects_init, recycled ones included */
    uint64_t recycled; /* spawns that took the slot of a live particle (pool full) */
} Effects;

/* After game_init: latches the Game's current level and events, seeds the RNG from the
   run's seed. `tuning` is copied; NULL means EFFECTS_TUNING_DEFAULT. */
void effects_init(Effects *fx, const Game *g, const EffectsTuning *tuning);
/* Once after every game_update: if the simulation stepped, moves the particles and counts
   the shake and flashes down one tick, then turns the step's events into new ones. */
void effects_update(Effects *fx, const Game *g);
/* Instead of effects_update on a tick that went back in time (rules/rewind.h): the sparks
   are the pool restored with the level, running backwards; the restored tick's events are
   not turned into new ones, and the shake and the flashes stop. */
void effects_rewound(Effects *fx, const Game *g);
/* A particle in the level's pool: a free slot from the cursor on, else the slot at the
   cursor, which is the oldest spawn (the cursor walks round in spawn order). NULL when the
   level has no pool. */
Particle *effects_spawn_particle(Effects *fx, const Sim *s, int32_t x, int32_t y, int32_t vx, int32_t vy, int16_t ttl,
                                 uint32_t color);
/* Ticks of red flash left on enemy `index` of the current level; 0 when none. */
int32_t effects_enemy_flash(const Effects *fx, int32_t index);

#endif
