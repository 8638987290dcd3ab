/* sim.h - the game's rules: a deterministic 60 Hz simulation of one level, no SDL.

   A Sim advances one tick at a time from a bitmask of held inputs and nothing else: no
   clock, no rand(), no floats; all randomness comes from the seeded RNG inside the Sim. The
   same seed, level and inputs therefore give the same state, bit for bit, which is what
   replays and tests stand on (sim_hash summarises the state in one number).

       Sim *s = arena_push_struct(perm, Sim);               // lives in the permanent arena
       sim_init(s, seed);
       if (!sim_load_level(s, level_arena, "levels/01-first-steps.lvl", NULL, &err)) ...
       for (;;) {
           sim_tick(s, SIM_IN_RIGHT | SIM_IN_FIRE);
           if (s->request.kind != SIM_REQUEST_NONE) ...     // exit, portal or death
       }

   Lifetimes: everything about the current level (tiles, enemies, pickups, bullet and
   particle pools) is in `level`, whose pointers lead into the level arena. The player's
   persistent state (`progress`: hearts, coins, keys, deaths, time) is a plain struct held by
   value, so it survives the level arena being cleared; so are the paths the Sim keeps. A
   level change is sim_load_level: on failure the current level keeps running untouched.
   Nothing outside the level arena may keep a pointer into it to recognise "the same level":
   compare `level_serial`, which every successful load or restart increments. */
#ifndef SIM_H
#define SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "level.h"

#define SIM_HZ 60
#define SIM_PATH_MAX LEVEL_PATH_MAX /* the loader refuses longer exits and links */
#define SIM_ENTRY_MAX 64

/* One tick's input: which buttons are held. */
enum {
    SIM_IN_UP = 1u << 0,
    SIM_IN_DOWN = 1u << 1,
    SIM_IN_LEFT = 1u << 2,
    SIM_IN_RIGHT = 1u << 3,
    SIM_IN_FIRE = 1u << 4,
    SIM_IN_MASK = 0x1f
};

/* Tunables, in fixed point (FIX_ONE per pixel) and ticks. */
#define PLAYER_HALF (5 * FIX_ONE)         /* hit box is 10x10 px */
#define PLAYER_SPEED (FIX_ONE * 7 / 4)    /* 1.75 px per tick, 105 px/s */
#define PLAYER_SPIKE_SLOW 2              /* speed is divided by this while on spikes */
#define PLAYER_NUDGE_PX 6                 /* corner forgiveness: slide past corners this close */
#define PLAYER_FIRE_COOLDOWN 11
#define PLAYER_INVULN_TICKS 60
#define PLAYER_START_HEARTS 3
#define PLAYER_MAX_HEARTS 5
#define BULLET_SPEED (FIX_ONE * 9 / 2)    /* player bullets, 4.5 px per tick */
#define BULLET_TTL 56
#define ENEMY_BULLET_SPEED (FIX_ONE * 9 / 4) /* 2.25 px per tick: dodgeable, not ignorable */
#define ENEMY_BULLET_TTL 110
#define ENEMY_HALF (6 * FIX_ONE)
#define PATROLLER_SPEED (FIX_ONE * 1)
#define CHASER_SPEED (FIX_ONE * 5 / 4)  /* 70% of the player: outrun it, or stand and fight */
#define CHASER_SIGHT_TILES 9              /* sees the player this far, if no wall is between */
#define CHASER_MEMORY_TICKS 150           /* keeps chasing this long after losing sight */
#define CHASER_SEARCH_RADIUS 14           /* the path search looks this many tiles around */
#define TURRET_SIGHT_TILES 10
#define TURRET_PERIOD 64
#define TURRET_GRACE_TICKS 90             /* no turret fires in a level's first 1.5 s */
#define TURRET_WARN_TICKS 30              /* a turret aims (visor lit) 0.5 s before it fires */
#define TRIGGER_SLACK_PX 4                /* exits and portals fire with the centre this far
                                             outside their tile: the sprite already overlaps */
#define HIT_FLASH_TICKS 8
#define KNOCKBACK_SPEED (FIX_ONE * 3)
#define TILE_FIX (TILE_PX * FIX_ONE)

/* The game has two facings, and the art a third (assets/atlas.h's Facing), which only
   draw.c maps to. The player faces eight ways (Player.facing): */
typedef enum Facing8 { FACE_E, FACE_SE, FACE_S, FACE_SW, FACE_W, FACE_NW, FACE_N, FACE_NE } Facing8;
/* Enemies move along four (Enemy.facing, a uint8_t in level.h; the chaser's path search uses
   them too). Clockwise from right, like Facing8, so the reverse is two steps round. */
typedef enum Dir4 { DIR4_RIGHT, DIR4_DOWN, DIR4_LEFT, DIR4_UP, DIR4_COUNT } Dir4;
static inline Dir4 dir4_reverse(Dir4 d) { return (Dir4)((d + 2) % DIR4_COUNT); }

/* What survives a level change: plain values, no pointers. */
typedef struct PlayerProgress {
    int32_t hearts, max_hearts;
    int32_t coins;
    int32_t keys[KEY_COLOR_COUNT];
    int32_t deaths;
    int32_t kills;
    uint32_t ticks;          /* time played, in ticks */
    int32_t levels_completed;
} PlayerProgress;

/* The player's body in the current level. */
typedef struct Player {
    int32_t x, y;   /* centre, fixed point */
    int32_t kx, ky; /* knockback velocity, decays */
    uint8_t facing; /* Facing8 */
    bool moving;
    bool dead;
    int32_t invuln; /* ticks of invulnerability left (blinks) */
    int32_t fire_cooldown;
    int32_t walk_ticks; /* animation clock: advances while moving */
    bool trigger_lock;  /* on an exit or portal that must not fire (arrived on it, or its
                           level failed to load) until the player steps off */
} Player;

typedef enum SimRequestKind {
    SIM_REQUEST_NONE,
    SIM_REQUEST_LEVEL,   /* exit or portal: load `path`, arrive at `entry` ("" = start) */
    SIM_REQUEST_VICTORY, /* the exit of the last level */
    SIM_REQUEST_DIED
} SimRequestKind;

typedef struct SimRequest {
    SimRequestKind kind;
    char path[SIM_PATH_MAX];
    char entry[SIM_ENTRY_MAX];
} SimRequest;

typedef enum SimSound { /* events of the last tick, for the front end's feedback */
    SIM_EV_SHOT = 1u << 0,
    SIM_EV_HIT = 1u << 1,
    SIM_EV_HURT = 1u << 2,
    SIM_EV_PICKUP = 1u << 3,
    SIM_EV_DOOR = 1u << 4,
    SIM_EV_KILL = 1u << 5,
} SimSound;

typedef struct Sim {
    Level level; /* pointers into the level arena: valid until the next load */
    Player player;
    PlayerProgress progress;       /* by value: survives level changes */
    PlayerProgress progress_entry; /* as it was when this level was entered (restart) */
    SimRequest request;            /* set by sim_tick; cleared by the caller */
    uint64_t rng;
    uint64_t seed;
    uint32_t tick;        /* ticks in this level */
    uint32_t events;      /* SimSound bits of the last tick */
    int32_t particle_cursor;
    uint32_t bullets_dropped; /* spawns refused because the pool was full */
    int32_t shake;            /* screen shake ticks (presentation only, deterministic) */
    char run_root[SIM_PATH_MAX];   /* folder of the level the run started on: exits and
                                      links must stay inside it (level_load_ex) */
    char level_path[SIM_PATH_MAX]; /* the level loaded now, for restart */
    char entry_name[SIM_ENTRY_MAX];
    uint32_t level_serial; /* +1 on every level change (load, restart), never on a failed
                              one: what the front end compares to notice a change. A pointer
                              into the level arena cannot tell: a reload of the same file
                              puts its tiles at the same address. */
    uint64_t level_peak_bytes;     /* most level-arena bytes any level took */
    char level_peak_path[SIM_PATH_MAX];
} Sim;

void sim_init(Sim *s, uint64_t seed);
/* A new run on `path`: loads it (its folder becomes the run's root), then resets the
   progress and the RNG to the seed. On failure (err filled) nothing changes. */
bool sim_start_run(Sim *s, Arena *level_arena, const char *path, LevelError *err);
/* Loads `path` into the level arena and puts the player at `entry` (NULL or "": the
   level's '@'). The player's progress is kept. On failure (err filled) nothing changes. */
bool sim_load_level(Sim *s, Arena *level_arena, const char *path, const char *entry,
                    LevelError *err);
/* Reloads the current level, with the progress it was entered with (deaths and time kept). */
bool sim_restart_level(Sim *s, Arena *level_arena, LevelError *err);
/* Acts on s->request when it is SIM_REQUEST_LEVEL; clears it on success. */
bool sim_follow_request(Sim *s, Arena *level_arena, LevelError *err);
/* Drops a pending request (its level failed to load): play goes on where it was, and the
   exit or portal the player stands on stays quiet until they step off it. */
void sim_cancel_request(Sim *s);
void sim_tick(Sim *s, uint32_t input);
uint64_t sim_hash(const Sim *s);

/* Pools: a full bullet pool refuses the new bullet (NULL, counted in bullets_dropped); a
   full particle pool recycles the slot at its cursor, the oldest spawn. */
Bullet *sim_spawn_bullet(Sim *s, int32_t x, int32_t y, int32_t vx, int32_t vy, int16_t ttl,
                         bool from_player);
Particle *sim_spawn_particle(Sim *s, int32_t x, int32_t y, int32_t vx, int32_t vy, int16_t ttl,
                             uint32_t color);

/* Helpers the front end and the bot use too. */
bool sim_tile_blocks_walk(const Sim *s, int32_t tx, int32_t ty); /* for the player */
bool sim_box_blocked(const Sim *s, int32_t cx, int32_t cy, int32_t half);
bool sim_line_of_sight(const Level *lv, int32_t x0, int32_t y0, int32_t x1, int32_t y1);
uint32_t sim_rand(Sim *s);
/* The Facing8 the direction bits of `in` point to; `old` when they point nowhere. */
uint8_t sim_facing_for(uint32_t in, uint8_t old);
int32_t sim_isqrt(int64_t v);
/* A turret's warning, for the front end: it has the player in sight and is counting down
   to its first shot (aiming), or has counted down and fires on its period (armed). */
static inline bool sim_turret_aiming(const Enemy *e) { return e->kind == ENEMY_TURRET && e->state >= 2; }
static inline bool sim_turret_armed(const Enemy *e) {
    return e->kind == ENEMY_TURRET && e->state >= 2 + TURRET_WARN_TICKS;
}
static inline int32_t sim_tile_of(int32_t fix) { return fix >= 0 ? fix / TILE_FIX : -1; }
static inline int32_t sim_tile_center(int32_t t) { return t * TILE_FIX + TILE_FIX / 2; }

#endif
