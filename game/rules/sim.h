/* sim.h - the game's rules: a deterministic 60 Hz simulation of one level, no SDL.

   A Sim advances one tick at a time from a bitmask of held inputs and nothing else: no
   clock, no rand(), no floats, no randomness at all. The same level and inputs therefore
   give the same state, bit for bit, which is what replays and tests stand on (sim_hash
   summarises the state in one number). The Sim is gameplay only: what a tick looks or
   sounds like is not in it. Each tick it reports what happened as events with a position
   (`events`, below), which the front end turns into particles, shake and flashes
   (effects.h), and an audio module could into sound; nothing done with them can change a
   hash.

       Sim *s = st_arena_push_struct(perm, Sim);               // lives in the permanent arena
       sim_init(s, seed);
       if (!sim_load_level(s, level_arena, "levels/01-first-steps.lvl", NULL, &err)) ...
       for (;;) {
           sim_tick(s, SIM_IN_RIGHT | SIM_IN_FIRE);
           for (int32_t i = 0; i < s->events.count; i++) ...  // SimEvent: kind, x, y, payload
           if (s->request.kind != SIM_REQUEST_NONE) ...     // exit, portal or death
       }

   Lifetimes: the current level as loaded (tiles, enemy spawns, pickups, doors) is `level`,
   read only; what play changes in it (enemies, bullets, taken pickups, open doors) is the
   Sim's runtime state beside it. Both lead into the level arena: the runtime arrays are one
   block the loader reserves with the level (LevelRoom, sized by sim_runtime_bytes), so a
   level whose state would not fit fails at load time like one that does not fit itself. The
   particle pool is in that block too, but the Sim never touches it (see `particles`). The
   player's persistent state (`progress`: hearts, coins, keys, deaths, time) is a plain
   struct held by value, so it survives the level arena being cleared; so are the paths the
   Sim keeps. A level change is sim_load_level: on failure the current level keeps running
   untouched. Nothing outside the level arena may keep a pointer into it to recognise "the
   same level": compare `level_serial`, which every successful load, restart or reload
   increments.

   For level authors: sim_reload_level reads the level's file again where the player stands
   (watch.h tells when it changed), sim_load_level_text plays a level an editor holds in
   memory, and sim_place_player moves the player to a tile (play-testing from a cursor). */
#ifndef SIM_H
#define SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "level/level.h"

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
/* hit box is 10x10 px: walls, enemy bullets; the
   spikes test it 2 px smaller; enemies touch
   PLAYER_BODY (below) */
#define PLAYER_HALF (5 * FIX_ONE)
#ifndef PLAYER_SPEED                   /* a tunable a build may set (-DPLAYER_SPEED=...): the hot-reload test does */
#define PLAYER_SPEED (FIX_ONE * 7 / 4) /* 1.75 px per tick, 105 px/s */
#endif
#define PLAYER_SPIKE_SLOW 2 /* speed is divided by this while on spikes */
#define PLAYER_NUDGE_PX 6   /* corner forgiveness: slide past corners this close */
#define PLAYER_FIRE_COOLDOWN 11
#define PLAYER_INVULN_TICKS 60
#define PLAYER_START_HEARTS 3
#define PLAYER_MAX_HEARTS 5
#define BULLET_SPEED (FIX_ONE * 9 / 2) /* player bullets, 4.5 px per tick */
#define BULLET_TTL 56
#define ENEMY_BULLET_SPEED (FIX_ONE * 9 / 4) /* 2.25 px per tick: dodgeable, not ignorable */
#define ENEMY_BULLET_TTL 110
/* walls; player bullets hit 1 px more; contact is
   ENEMY_BODY (below) */
#define ENEMY_HALF (6 * FIX_ONE)
#define PATROLLER_SPEED (FIX_ONE * 1)
#define CHASER_SPEED (FIX_ONE * 5 / 4) /* 70% of the player: outrun it, or stand and fight */
#define CHASER_SIGHT_TILES 9           /* sees the player this far, if no wall is between */
#define CHASER_MEMORY_TICKS 150        /* keeps chasing this long after losing sight */
#define CHASER_SEARCH_RADIUS 14        /* the path search looks this many tiles around */
#define TURRET_SIGHT_TILES 10
#define TURRET_PERIOD 64
#define TURRET_GRACE_TICKS 90 /* no turret fires in a level's first 1.5 s */
#define TURRET_WARN_TICKS 30  /* a turret aims (visor lit) 0.5 s before it fires */
/* exits and portals fire with the centre this far
   outside their tile: the sprite already overlaps */
#define TRIGGER_SLACK_PX 4
#define KNOCKBACK_SPEED (FIX_ONE * 3) /* what a bullet or an enemy gives, decaying by 3/4 a tick */
/* spikes throw you to the nearest floor this many tiles
   round you (sim_spike_refuge) */
#define SPIKE_REFUGE_TILES 3
#define SPIKE_KNOCKBACK_MAX (FIX_ONE * 12) /* ... at most this fast: 46 px of travel */
#define SIGN_NEAR_PX 20                    /* sim_sign_near: 1.25 tiles from the sign's centre */
#define PATROLLER_HP 2                     /* hit points of an enemy without an `enemy ... hp=` */
#define CHASER_HP 3                        /* line in its level file */
#define TURRET_HP 4
#define TILE_FIX (TILE_PX * FIX_ONE)

/* Bodies: where an actor is drawn opaque, in whole pixels from its centre, the box
   [x0, x1) x [y0, y1). An enemy hurts the player when its body overlaps the player's by a
   pixel or more (sim_enemy_touches); walls and bullets keep the square hit boxes above.
   Measured from assets/sprites.png as game/front/draw.c places the cells (enemies at centre
   - (8, 8), the player at centre - (8, 10)); test_sim measures them again:
     - an enemy's body is everything any of its frames draws (the union of their boxes):
       an enemy sprite seen on the player hurts, whichever frame is showing;
     - the player's is what every facing and frame draws (their intersection): the hood's
       one-pixel bob and a side view's nose are not a target. */
typedef struct SimBox {
    int32_t x0, y0, x1, y1;
} SimBox;
#define PLAYER_BODY ((SimBox){-6, -8, 6, 6})
extern const SimBox ENEMY_BODY[ENEMY_KIND_COUNT];

/* The game has two facings, and the art a third (assets/atlas.h's Facing), which only
   draw.c maps to. The player faces eight ways (Player.facing): */
typedef enum Facing8 { FACE_E, FACE_SE, FACE_S, FACE_SW, FACE_W, FACE_NW, FACE_N, FACE_NE } Facing8;
/* Enemies move along four (Enemy.facing; the chaser's path search and the bot's use them
   too). Clockwise from right, like Facing8, so the reverse is two steps round. */
typedef enum Dir4 { DIR4_RIGHT, DIR4_DOWN, DIR4_LEFT, DIR4_UP, DIR4_COUNT } Dir4;
static inline Dir4 dir4_reverse(Dir4 d) { return (Dir4)((d + 2) % DIR4_COUNT); }
/* Their steps, for everyone who walks, searches or aims along them (defined in sim.c): a
   Dir4's tile step, and a Facing8's unit vector scaled by 256 (diagonals 181/256, about
   1/sqrt(2)). */
extern const int32_t DIR4_X[DIR4_COUNT], DIR4_Y[DIR4_COUNT];
extern const int32_t DIR8_X[8], DIR8_Y[8];

/* An enemy in play; Level.enemies[i] is where enemy i spawned. */
typedef struct Enemy {
    int32_t x, y; /* world position, fixed point; it spawns at its tile's centre */
    int32_t hp;
    EnemyKind kind;
    uint8_t state; /* AI state; 0 at spawn */
    uint8_t alive;
    uint8_t facing; /* a Dir4 */
    int32_t vx, vy; /* knockback velocity, fixed point per tick */
    int32_t timer;  /* AI timer in ticks */
} Enemy;

typedef struct Bullet {
    int32_t x, y, vx, vy;
    int16_t ttl;
    bool alive;
    bool from_player;
} Bullet;

/* A spark of the front end's (effects.h): its pool is in the Sim's runtime block but the
   rules never touch it (see Sim.particles). */
typedef struct Particle {
    int32_t x, y, vx, vy;
    int16_t ttl, max_ttl;
    uint32_t color; /* 0xRRGGBBAA */
    bool alive;
} Particle;

/* What survives a level change: plain values, no pointers. Hearts do not: every level
   starts with full hearts (hearts = max_hearts), entered by a new run, an exit, a portal or
   a restart alike; max_hearts is what carries over. */
typedef struct PlayerProgress {
    int32_t hearts, max_hearts;
    int32_t coins;
    int32_t keys[KEY_COLOR_COUNT];
    int32_t deaths;
    int32_t kills;
    uint32_t ticks; /* time played, in ticks */
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
    /* on an exit or portal that must not fire (arrived on it, or its
       level failed to load) until the player steps off */
    bool trigger_lock;
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

/* What happened in a tick, for the front end's particles, shake, flashes and sound. Each
   event has a world position (fixed point, like everything in the Sim) and a payload whose
   meaning depends on the kind:
     kind                where                          a                 b          index
     SIM_EV_SHOT         the player's muzzle            Facing8           -          -1
     SIM_EV_ENEMY_SHOT   the turret's muzzle            EnemyKind         -          enemy
     SIM_EV_HIT          the enemy a bullet hurt        EnemyKind         hp left*   enemy
     SIM_EV_KILL         the enemy, as it dies          EnemyKind         -          enemy
     SIM_EV_HURT         the player, losing a heart     hearts left*      -          -1
     SIM_EV_DEATH        the player, as they die        -                 -          -1
     SIM_EV_PICKUP       the pickup's tile centre       PickupKind        KeyColor   pickup
     SIM_EV_DOOR         the door's tile centre         KeyColor          -          door
     SIM_EV_WALL         where a bullet hit a wall      1: the player's   -          -1
     SIM_EV_EXIT         the player, on exit or portal  SimRequestKind    -          -1
     SIM_EV_LEVEL        the player's arrival           SimLevelCause     -          -1
   (*: capped at 255.) A kill follows the hit that caused it; a death follows its hurt. */
typedef enum SimEventKind {
    SIM_EV_SHOT,
    SIM_EV_ENEMY_SHOT,
    SIM_EV_HIT,
    SIM_EV_KILL,
    SIM_EV_HURT,
    SIM_EV_DEATH,
    SIM_EV_PICKUP,
    SIM_EV_DOOR,
    SIM_EV_WALL,
    SIM_EV_EXIT,
    SIM_EV_LEVEL,
    SIM_EV_KIND_COUNT
} SimEventKind;

typedef enum SimLevelCause {                    /* SIM_EV_LEVEL's `a`: why a level was (re)loaded */
                             SIM_LEVEL_RUN,     /* sim_start_run: a new run */
                             SIM_LEVEL_ENTER,   /* an exit, a portal or sim_load_level */
                             SIM_LEVEL_RESTART, /* sim_restart_level */
                             SIM_LEVEL_RELOAD, /* sim_reload_level: the same level, edited, the player where they were */
} SimLevelCause;

typedef struct SimEvent {
    int32_t x, y;  /* world position, fixed point */
    uint8_t kind;  /* SimEventKind */
    uint8_t a, b;  /* payload: see the table above */
    int32_t index; /* the enemy, pickup or door in level's arrays; -1 for none */
} SimEvent;

/* The events of the last tick, or of the last level load, which starts the list afresh
   too (then it holds the one SIM_EV_LEVEL). A fixed array in the Sim, so reporting costs no
   memory: a tick with more than SIM_EVENT_MAX events keeps the first ones and counts the
   rest in `dropped` (64 in one tick takes dozens of bullets landing at once, far past
   anything the shipped levels do; the rules never read the list, so a dropped event costs
   a spark or a sound, never a state change). `serial` goes up by one every
   time the list is started afresh, so a reader that remembers it sees each list once. */
#define SIM_EVENT_MAX 64
typedef struct SimEvents {
    SimEvent list[SIM_EVENT_MAX];
    int32_t count;
    uint32_t dropped; /* events refused since sim_init: what tells SIM_EVENT_MAX is too small */
    uint32_t serial;
} SimEvents;

typedef struct Sim {
    Level level; /* as loaded, read only; pointers into the level arena until the next load */
    /* The level's runtime state: one zeroed block in the level arena beside the level,
       carved into these arrays at load (sim_runtime_bytes), gone with the level. */
    Enemy *enemies;        /* level.enemy_count, spawned from level.enemies */
    Bullet *bullets;       /* level.bullet_cap, a pool with an alive flag */
    uint8_t *pickup_taken; /* level.pickup_count: 1 once picked up */
    uint8_t *door_open;    /* level.door_count: 1 once unlocked; sim_tile reads it as floor */
    /* level.particle_cap sparks, the front end's (effects.h moves and draws them) and never
       read by the rules or the hash. It is here, not in Effects, because its size is the
       level file's and its life the level's, and the level is loaded here (inside
       game_update), so only this load can measure it with the level and make a level whose
       pool does not fit fail to load; not in the Level, because it changes every tick. */
    Particle *particles;
    Player player;
    PlayerProgress progress;       /* by value: survives level changes */
    PlayerProgress progress_entry; /* as it was when this level was entered (restart) */
    SimRequest request;            /* set by sim_tick; cleared by the caller */
    uint64_t seed;                 /* the run's seed: replays record it; no rule draws on it yet */
    uint32_t tick;                 /* ticks in this level */
    SimEvents events;              /* what the last tick (or load) did, for the front end */
    uint32_t bullets_dropped;      /* spawns refused because the pool was full */
    /* folder of the level the run started on: exits and
       links must stay inside it (level_load_ex) */
    char run_root[SIM_PATH_MAX];
    char level_path[SIM_PATH_MAX]; /* the level loaded now, for restart and reload */
    char entry_name[SIM_ENTRY_MAX];
    /* it came from sim_load_level_text: the file at level_path may
       differ or be missing, and a restart or reload reads that file */
    bool level_from_text;
    /* +1 on every level change (load, restart), never on a failed
       one: what the front end compares to notice a change. A pointer
       into the level arena cannot tell: a reload of the same file
       puts its tiles at the same address. */
    uint32_t level_serial;
    uint64_t level_peak_bytes; /* most level-arena bytes any level took */
    char level_peak_path[SIM_PATH_MAX];
    LevelLoadStats last_load; /* the last successful load's level bytes and scratch peak */
} Sim;

void sim_init(Sim *s, uint64_t seed);
/* A new run on `path`: loads it (its folder becomes the run's root), then resets the
   progress. On failure (err filled) nothing changes. */
bool sim_start_run(Sim *s, Arena *level_arena, const char *path, Error *err);
/* Loads `path` into the level arena and puts the player at `entry` (NULL or "": the
   level's '@'). The player's progress is kept, hearts refilled to max_hearts. On failure
   (err filled) nothing changes. */
bool sim_load_level(Sim *s, Arena *level_arena, const char *path, const char *entry, Error *err);
/* Reloads the current level, with the progress it was entered with (deaths and time kept). */
bool sim_restart_level(Sim *s, Arena *level_arena, Error *err);
/* Reads the current level's file (level_path) again, for a level being edited. On success
   the new level runs with:
     - the player where they stood, when their hit box fits there in the new level; else at
       the centre of their tile if it is walkable; else at the level's '@'. Facing kept;
       knockback, invulnerability and the gun's cooldown reset; an exit or portal under
       them stays quiet until they step off it (as on arrival).
     - the enemies, pickups and doors as the new file has them (all spawned, untaken,
       closed) and no bullets in flight.
     - the progress the level was entered with (progress_entry), like a restart, with full
       hearts: the file's pickups are all back, so keeping what was taken here would count
       its coins and keys twice. Deaths, kills and time played are kept.
     - the level's clock (tick) running on: the clear card and the records count from the
       level's entry, not from an edit.
   level_serial goes up and the events start afresh with SIM_EV_LEVEL (SIM_LEVEL_RELOAD);
   a pending request is dropped. On failure (err filled: path:line:col) nothing changes,
   the running level included. */
bool sim_reload_level(Sim *s, Arena *level_arena, Error *err);
/* Loads a level from `text` (not read from disk: level_parse) as if it were the file `path`:
   its exit and links are resolved against path's folder, and it becomes level_path (a
   restart or reload reads that file; level_from_text says so). Otherwise sim_load_level
   with no entry: progress kept, full hearts, the player at '@'. `text` must not lie in the
   level arena. On failure (err filled) nothing changes. */
bool sim_load_level_text(Sim *s, Arena *level_arena, const char *path, Str8 text, Error *err);
/* Puts the player on the centre of tile (tx, ty), standing still, when the player may walk
   there now (sim_tile_blocks_walk: not a wall, water or a closed door, inside the map);
   otherwise leaves them where they are. An exit or portal there stays quiet until they
   step off it. */
void sim_place_player(Sim *s, int32_t tx, int32_t ty);
/* Acts on s->request when it is SIM_REQUEST_LEVEL; clears it on success. */
bool sim_follow_request(Sim *s, Arena *level_arena, Error *err);
/* Drops a pending request (its level failed to load): play goes on where it was, and the
   exit or portal the player stands on stays quiet until they step off it. */
void sim_cancel_request(Sim *s);
void sim_tick(Sim *s, uint32_t input);
uint64_t sim_hash(const Sim *s);

/* The bytes of runtime state a level of this shape needs (its counts and pool sizes): the
   LevelRoom that sim_load_level asks the loader for, and what levelcheck adds to a level's
   need so that its figures are the game's. */
uint64_t sim_runtime_bytes(const Level *shape);
/* The hit points a level's enemy spawns with: its `enemy` line's, else its kind's default. */
int32_t sim_enemy_hp(const EnemySpawn *spawn);

/* A full bullet pool refuses the new bullet (NULL, counted in bullets_dropped). */
Bullet *sim_spawn_bullet(Sim *s, int32_t x, int32_t y, int32_t vx, int32_t vy, int16_t ttl, bool from_player);

/* Helpers the front end and the bot use too. */
/* The tile as it is now: the level's, with an unlocked door read as floor. */
TileKind sim_tile(const Sim *s, int32_t tx, int32_t ty);
bool sim_tile_blocks_walk(const Sim *s, int32_t tx, int32_t ty); /* for the player */
bool sim_tile_blocks_bullet(const Sim *s, int32_t tx, int32_t ty);
bool sim_box_blocked(const Sim *s, int32_t cx, int32_t cy, int32_t half);
/* Is the player's body at (x, y) on spikes (what slows and hurts it)? */
bool sim_on_spikes(const Sim *s, int32_t x, int32_t y);
/* Where spikes throw a player hurt at (x, y): the centre of a floor tile (open doors count;
   exits, portals and spikes do not) that the player could walk to from its tile in the
   fewest steps, tile to tile, within SPIKE_REFUGE_TILES; of those, the nearest to (x, y),
   and on a tie the one the search meets first (it looks right, down, left, up). False when
   there is none: then the spikes do not push. The push is a knockback sized to end there
   (capped at SPIKE_KNOCKBACK_MAX), so a tap into spikes puts you back in the middle of the
   tile you stood on, and standing deep in them takes you out the shortest way. */
bool sim_spike_refuge(const Sim *s, int32_t x, int32_t y, int32_t *rx, int32_t *ry);
/* Does enemy `e` touch the player's body at (px, py) grown by `margin` (fixed point) on
   every side? The contact rule of the game with margin 0. */
bool sim_enemy_touches(const Enemy *e, int32_t px, int32_t py, int32_t margin);
/* The sign the player stands near: the nearest whose tile centre is within SIGN_NEAR_PX of
   the player's centre (the lower index on a tie), or -1 when there is none or the player
   is dead. For the front end to show Level.signs[i].text. */
int32_t sim_sign_near(const Sim *s);
bool sim_line_of_sight(const Sim *s, int32_t x0, int32_t y0, int32_t x1, int32_t y1);
/* One tick of the player's movement holding `in`, applied to `pl`: facing, speed (diagonals,
   spikes), knockback, sliding along walls and round corners. It is the movement sim_tick
   makes, without its consequences (doors, pickups, hurt), so the bot can predict with the
   same code on a copy of the player. Returns true when a wall stopped it on an axis. */
bool sim_move_player(const Sim *s, Player *pl, uint32_t in);
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
