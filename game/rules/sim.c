/* sim.c - the rules of the game, one 60 Hz tick at a time (see sim.h). */
#include "rules/sim.h"

#include <stdio.h>
#include <string.h>

#include <strata/core/base.h>
#include <strata/core/hash.h>
#include <strata/core/path.h>
#include "level/level_load.h"

/* Which tile kinds stop what. Enemies keep off hazards and doors to other levels so that
   they stay in the part of the level they were drawn in. */
#define BIT(k) (1u << (k))
#define BLOCK_PLAYER (BIT(TILE_WALL) | BIT(TILE_WATER) | BIT(TILE_DOOR))
#define BLOCK_ENEMY (BLOCK_PLAYER | BIT(TILE_SPIKES) | BIT(TILE_EXIT) | BIT(TILE_PORTAL))
#define BLOCK_BULLET (BIT(TILE_WALL) | BIT(TILE_DOOR))
#define BLOCK_SIGHT (BIT(TILE_WALL) | BIT(TILE_DOOR))

const int32_t DIR8_X[8] = {256, 181, 0, -181, -256, -181, 0, 181};
const int32_t DIR8_Y[8] = {0, 181, 256, 181, 0, -181, -256, -181};
const int32_t DIR4_X[DIR4_COUNT] = {[DIR4_RIGHT] = 1, [DIR4_DOWN] = 0, [DIR4_LEFT] = -1, [DIR4_UP] = 0};
const int32_t DIR4_Y[DIR4_COUNT] = {[DIR4_RIGHT] = 0, [DIR4_DOWN] = 1, [DIR4_LEFT] = 0, [DIR4_UP] = -1};

/* sim.h: the union of each kind's frames in assets/sprites.png, drawn at centre - (8, 8):
   the slime's flat and tall frames, the ghost's two heights, the turret's one outline. */
const SimBox ENEMY_BODY[ENEMY_KIND_COUNT] = {
    [ENEMY_PATROLLER] = {-7, -4, 7, 8},
    [ENEMY_CHASER] = {-6, -7, 6, 8},
    [ENEMY_TURRET] = {-7, -6, 7, 6},
};

static int32_t floor_div(int32_t a, int32_t b) {
    int32_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int32_t sim_isqrt(int64_t v) {
    if (v <= 0) return 0;
    uint64_t x = (uint64_t)v, r = 0, bit = 1ull << 62;
    while (bit > x) bit >>= 2;
    while (bit) {
        if (x >= r + bit) {
            x -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return (int32_t)r;
}

TileKind sim_tile(const Sim *s, int32_t tx, int32_t ty) {
    TileKind k = level_tile(&s->level, tx, ty);
    if (k == TILE_DOOR) {
        int32_t i = level_door_index(&s->level, tx, ty);
        if (i >= 0 && s->door_open[i]) return TILE_FLOOR;
    }
    return k;
}

static bool tile_in(const Sim *s, uint32_t mask, int32_t tx, int32_t ty) {
    return (mask & BIT(sim_tile(s, tx, ty))) != 0;
}

/* Does the box centred on (cx, cy) with half-size `half` touch a tile in `mask`? The box is
   [c - half, c + half) on both axes, so two boxes that merely touch do not overlap. */
static bool box_hits(const Sim *s, uint32_t mask, int32_t cx, int32_t cy, int32_t half) {
    int32_t x0 = floor_div(cx - half, TILE_FIX), x1 = floor_div(cx + half - 1, TILE_FIX);
    int32_t y0 = floor_div(cy - half, TILE_FIX), y1 = floor_div(cy + half - 1, TILE_FIX);
    for (int32_t ty = y0; ty <= y1; ty++)
        for (int32_t tx = x0; tx <= x1; tx++)
            if (tile_in(s, mask, tx, ty)) return true;
    return false;
}

bool sim_tile_blocks_walk(const Sim *s, int32_t tx, int32_t ty) { return tile_in(s, BLOCK_PLAYER, tx, ty); }
bool sim_tile_blocks_bullet(const Sim *s, int32_t tx, int32_t ty) { return tile_in(s, BLOCK_BULLET, tx, ty); }
bool sim_box_blocked(const Sim *s, int32_t cx, int32_t cy, int32_t half) {
    return box_hits(s, BLOCK_PLAYER, cx, cy, half);
}
/* The body is a little smaller than the hit box: grazing a spike tile does not count. */
bool sim_on_spikes(const Sim *s, int32_t x, int32_t y) {
    return box_hits(s, BIT(TILE_SPIKES), x, y, PLAYER_HALF - 2 * FIX_ONE);
}

bool sim_spike_refuge(const Sim *s, int32_t x, int32_t y, int32_t *rx, int32_t *ry) {
    /* Breadth-first over the tiles the player can walk on, in a window round its tile, one
       ring of steps at a time: the first ring with floor in it decides, so a floor tile
       behind a wall (near as the crow flies, far on foot) is never where the push aims. */
    enum { R = SPIKE_REFUGE_TILES, W = 2 * R + 1 };
    int32_t ptx = floor_div(x, TILE_FIX), pty = floor_div(y, TILE_FIX);
    int8_t steps[W * W];
    memset(steps, -1, sizeof steps);
    int32_t queue[W * W], head = 0, tail = 0;
    queue[tail++] = R * W + R;
    steps[R * W + R] = 0;
    int64_t best_d2 = INT64_MAX;
    int32_t best_steps = W * W;
    while (head < tail) {
        int32_t c = queue[head++], tx = ptx + c % W - R, ty = pty + c / W - R;
        if (steps[c] > best_steps) break; /* past the ring that had floor in it */
        if (sim_tile(s, tx, ty) == TILE_FLOOR) {
            int64_t dx = sim_tile_center(tx) - x, dy = sim_tile_center(ty) - y, d2 = dx * dx + dy * dy;
            if (d2 < best_d2) {
                best_d2 = d2, best_steps = steps[c];
                *rx = sim_tile_center(tx), *ry = sim_tile_center(ty);
            }
        }
        for (int d = 0; d < DIR4_COUNT; d++) {
            int32_t nx = c % W + DIR4_X[d], ny = c / W + DIR4_Y[d];
            if (nx < 0 || ny < 0 || nx >= W || ny >= W || steps[ny * W + nx] >= 0) continue;
            if (sim_tile_blocks_walk(s, ptx + nx - R, pty + ny - R)) continue;
            steps[ny * W + nx] = (int8_t)(steps[c] + 1);
            queue[tail++] = ny * W + nx;
        }
    }
    return best_d2 != INT64_MAX;
}

bool sim_enemy_touches(const Enemy *e, int32_t px, int32_t py, int32_t margin) {
    const SimBox p = PLAYER_BODY, b = ENEMY_BODY[e->kind < ENEMY_KIND_COUNT ? e->kind : 0];
    /* Half-open boxes overlap when each starts before the other ends. */
    int32_t p0x = px + p.x0 * FIX_ONE - margin, p1x = px + p.x1 * FIX_ONE + margin;
    int32_t p0y = py + p.y0 * FIX_ONE - margin, p1y = py + p.y1 * FIX_ONE + margin;
    return p0x < e->x + b.x1 * FIX_ONE && e->x + b.x0 * FIX_ONE < p1x && p0y < e->y + b.y1 * FIX_ONE &&
           e->y + b.y0 * FIX_ONE < p1y;
}

/* Moves along one axis by d (|d| < one tile) and stops flush against the first blocking
   tile. Axis-separated moves are what make a diagonal push along a wall slide along it. */
static bool slide(const Sim *s, uint32_t mask, int32_t *x, int32_t *y, int32_t half, int32_t d, bool x_axis) {
    if (d == 0) return false;
    int32_t *p = x_axis ? x : y;
    int32_t old = *p, want = old + d;
    *p = want;
    if (!box_hits(s, mask, *x, *y, half)) return false;
    int32_t flush;
    if (d > 0) flush = floor_div(want + half - 1, TILE_FIX) * TILE_FIX - half;
    else flush = (floor_div(want - half, TILE_FIX) + 1) * TILE_FIX + half;
    /* Never pull backwards (only possible if we started inside a wall). */
    *p = d > 0 ? MAX(old, MIN(flush, want)) : MIN(old, MAX(flush, want));
    if (box_hits(s, mask, *x, *y, half)) *p = old;
    return true;
}

/* A move by (dx, dy): x first, then y from where x ended (so the order is part of the
   rules, and the replays' hashes depend on it). Returns the axes that were blocked. */
enum { BLOCKED_X = 1u << 0, BLOCKED_Y = 1u << 1 };
static unsigned slide_xy(const Sim *s, uint32_t mask, int32_t *x, int32_t *y, int32_t half, int32_t dx, int32_t dy) {
    unsigned blocked = 0;
    if (slide(s, mask, x, y, half, dx, true)) blocked |= BLOCKED_X;
    if (slide(s, mask, x, y, half, dy, false)) blocked |= BLOCKED_Y;
    return blocked;
}
static unsigned move_enemy(const Sim *s, Enemy *e, int32_t dx, int32_t dy) {
    return slide_xy(s, BLOCK_ENEMY, &e->x, &e->y, ENEMY_HALF, dx, dy);
}

bool sim_line_of_sight(const Sim *s, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
    /* Samples every half tile along the segment: good enough on a 16 px grid, and integer. */
    int32_t dx = x1 - x0, dy = y1 - y0;
    int32_t len = sim_isqrt((int64_t)dx * dx + (int64_t)dy * dy);
    int32_t steps = len / (TILE_FIX / 2) + 1;
    for (int32_t i = 1; i < steps; i++) {
        int32_t x = x0 + (int32_t)((int64_t)dx * i / steps);
        int32_t y = y0 + (int32_t)((int64_t)dy * i / steps);
        if (tile_in(s, BLOCK_SIGHT, floor_div(x, TILE_FIX), floor_div(y, TILE_FIX))) return false;
    }
    return true;
}

/* ---- the bullet pool ---- */

Bullet *sim_spawn_bullet(Sim *s, int32_t x, int32_t y, int32_t vx, int32_t vy, int16_t ttl, bool from_player) {
    for (int32_t i = 0; i < s->level.bullet_cap; i++) {
        Bullet *b = &s->bullets[i];
        if (b->alive) continue;
        *b = (Bullet){.x = x, .y = y, .vx = vx, .vy = vy, .ttl = ttl, .alive = true, .from_player = from_player};
        return b;
    }
    /* Dropping beats recycling here: a bullet vanishing mid-flight would be visible and
       unfair, a shot that is never fired in a storm of 256 is not. */
    s->bullets_dropped++;
    return NULL;
}

/* ---- events ---- */

static void events_restart(Sim *s) {
    s->events.count = 0;
    s->events.serial++;
}

static uint8_t small(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); } /* a payload byte */

static void emit(Sim *s, SimEventKind kind, int32_t x, int32_t y, uint8_t a, uint8_t b, int32_t index) {
    SimEvents *ev = &s->events;
    if (ev->count >= SIM_EVENT_MAX) {
        ev->dropped++;
        return;
    }
    ev->list[ev->count++] = (SimEvent){.x = x, .y = y, .kind = (uint8_t)kind, .a = a, .b = b, .index = index};
}

/* ---- level changes ---- */

void sim_init(Sim *s, uint64_t seed) {
    memset(s, 0, sizeof *s);
    s->seed = seed;
    s->progress = (PlayerProgress){.hearts = PLAYER_START_HEARTS, .max_hearts = PLAYER_START_HEARTS};
    s->progress_entry = s->progress;
}
_Static_assert(SIM_PATH_MAX >= LEVEL_PATH_MAX, "a Sim holds every path the loader accepts");

/* ---- the level's runtime state ---- */

/* Where each array sits in the runtime block, from its start: one function for sizing the
   block and carving it, so the two cannot disagree. The block is LEVEL_ROOM_ALIGN-aligned,
   so aligning offsets aligns addresses. */
typedef struct RuntimeLayout {
    uint64_t enemies, bullets, particles, pickup_taken, door_open, end;
} RuntimeLayout;
_Static_assert(_Alignof(Enemy) <= LEVEL_ROOM_ALIGN && _Alignof(Bullet) <= LEVEL_ROOM_ALIGN &&
                   _Alignof(Particle) <= LEVEL_ROOM_ALIGN,
               "the room's alignment serves every runtime array");

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

static RuntimeLayout runtime_layout(const Level *lv) {
    RuntimeLayout r = {0};
    uint64_t at = 0;
    r.enemies = at;
    at += (uint64_t)lv->enemy_count * sizeof(Enemy);
    r.bullets = at = align_up(at, _Alignof(Bullet));
    at += (uint64_t)lv->bullet_cap * sizeof(Bullet);
    r.particles = at = align_up(at, _Alignof(Particle));
    at += (uint64_t)lv->particle_cap * sizeof(Particle);
    r.pickup_taken = at;
    at += (uint64_t)lv->pickup_count;
    r.door_open = at;
    at += (uint64_t)lv->door_count;
    r.end = at;
    return r;
}

uint64_t sim_runtime_bytes(const Level *shape) { return runtime_layout(shape).end; }

int32_t sim_enemy_hp(const EnemySpawn *spawn) {
    if (spawn->hp > 0) return spawn->hp;
    switch (spawn->kind) {
    case ENEMY_PATROLLER: return PATROLLER_HP;
    case ENEMY_CHASER: return CHASER_HP;
    default: return TURRET_HP;
    }
}

/* Carves the loader's zeroed block (sim_runtime_bytes of `lv`) into the runtime arrays and
   spawns the enemies; the pools, flags and particles start zeroed: empty, closed, untaken. */
static void runtime_start(Sim *s, const Level *lv, void *block) {
    RuntimeLayout r = runtime_layout(lv);
    uint8_t *b = block;
    s->enemies = b ? (Enemy *)(void *)(b + r.enemies) : NULL;
    s->bullets = b ? (Bullet *)(void *)(b + r.bullets) : NULL;
    s->particles = b ? (Particle *)(void *)(b + r.particles) : NULL;
    s->pickup_taken = b ? b + r.pickup_taken : NULL;
    s->door_open = b ? b + r.door_open : NULL;
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const EnemySpawn *sp = &lv->enemies[i];
        s->enemies[i] = (Enemy){.x = sim_tile_center(sp->tx),
                                .y = sim_tile_center(sp->ty),
                                .hp = sim_enemy_hp(sp),
                                .kind = sp->kind,
                                .alive = 1};
    }
}

/* The tail zeroed too: the whole buffer is copied into the Sim (level_swap), and stack
   bytes past the NUL must not ride along (a return address there looks like a pointer
   into the game library that a reload would leave dangling). */
static bool copy_str(char *dst, size_t cap, const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) return false;
    memcpy(dst, src ? src : "", n);
    memset(dst + n, 0, cap - n);
    return true;
}

static TileKind trigger_under(const Level *lv, int32_t x, int32_t y, int32_t *otx, int32_t *oty);

/* Copies a path and an entry name before a load: they usually point into the level arena (a
   link of the level being left, or the level's own path), which the load is about to clear. */
static bool copy_names(char p[SIM_PATH_MAX], char e[SIM_ENTRY_MAX], const char *path, const char *entry, Error *err) {
    if (copy_str(p, SIM_PATH_MAX, path) && copy_str(e, SIM_ENTRY_MAX, entry)) return true;
    st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "%.200s: error: path or entry name too long", path ? path : "(null)");
    return false;
}

/* What every successful load does, wherever the player ends up: the new level and its
   runtime state replace the old, the level counts as changed, the events start afresh. */
static void level_swap(Sim *s, const Level *lv, void *block, const char *path, const char *entry) {
    s->level = *lv;
    runtime_start(s, lv, block);
    s->request.kind = SIM_REQUEST_NONE;
    s->level_serial++;
    s->level_from_text = false;
    memcpy(s->level_path, path, SIM_PATH_MAX);
    memcpy(s->entry_name, entry, SIM_ENTRY_MAX);
    if (lv->arena_bytes > s->level_peak_bytes) {
        s->level_peak_bytes = lv->arena_bytes;
        memcpy(s->level_peak_path, path, SIM_PATH_MAX);
    }
    /* The events of the tick before refer to the level that is gone (its enemy indices). */
    events_restart(s);
}

/* A fresh body standing on tile (tx, ty); an exit or portal under it stays quiet until the
   player steps off (arriving on one must not leave at once). */
static Player player_at(const Level *lv, int32_t tx, int32_t ty, uint8_t facing) {
    TileKind under = level_tile(lv, tx, ty);
    return (Player){.x = sim_tile_center(tx),
                    .y = sim_tile_center(ty),
                    .facing = facing,
                    .trigger_lock = under == TILE_EXIT || under == TILE_PORTAL};
}

/* Arrival in a level just swapped in, at entry `e` ("": the '@'). Callers with a cause
   other than ENTER overwrite the SIM_EV_LEVEL's `a`. */
static void arrive(Sim *s, const char *e) {
    const Level *lv = &s->level;
    int32_t tx = lv->start_tx, ty = lv->start_ty;
    if (e[0]) {
        const LevelEntry *en = level_entry_find(lv, e);
        if (en) tx = en->tx, ty = en->ty;
        else st_diag_report_at(DIAG_WARNING, s->level_path, 0, 0, "no entry '%s', starting at '@'", e);
    }
    s->player = player_at(lv, tx, ty, FACE_S);
    s->tick = 0;
    s->progress.hearts = s->progress.max_hearts; /* every level starts with full hearts */
    s->progress_entry = s->progress;
    emit(s, SIM_EV_LEVEL, s->player.x, s->player.y, SIM_LEVEL_ENTER, 0, -1);
}

static const char *run_root(const Sim *s) { return s->run_root[0] ? s->run_root : NULL; }

/* The level file at `p` loaded with its runtime room and swapped in for the current one;
   false (the current level untouched) when it does not load. */
static bool load_file(Sim *s, Arena *level_arena, const char *p, const char *e, Error *err) {
    Level lv;
    LevelRoom room = {.bytes = sim_runtime_bytes};
    LevelLoadStats stats;
    if (!level_load_ex(&lv, level_arena, p, run_root(s), &room, err, &stats)) return false;
    s->last_load = stats;
    level_swap(s, &lv, room.block, p, e);
    return true;
}

bool sim_load_level(Sim *s, Arena *level_arena, const char *path, const char *entry, Error *err) {
    char p[SIM_PATH_MAX], e[SIM_ENTRY_MAX];
    if (!copy_names(p, e, path, entry, err) || !load_file(s, level_arena, p, e, err)) return false;
    arrive(s, e);
    return true;
}

bool sim_load_level_text(Sim *s, Arena *level_arena, const char *path, Str8 text, Error *err) {
    char p[SIM_PATH_MAX], e[SIM_ENTRY_MAX];
    if (!copy_names(p, e, path, NULL, err)) return false;
    Level lv;
    LevelRoom room = {.bytes = sim_runtime_bytes};
    LevelLoadStats stats;
    if (!level_parse(&lv, level_arena, p, text.data, text.len, &room, err, &stats)) return false;
    s->last_load = stats;
    level_swap(s, &lv, room.block, p, e);
    s->level_from_text = true;
    arrive(s, e);
    return true;
}

bool sim_reload_level(Sim *s, Arena *level_arena, Error *err) {
    char p[SIM_PATH_MAX], e[SIM_ENTRY_MAX];
    if (!copy_names(p, e, s->level_path, s->entry_name, err)) return false;
    Player was = s->player;
    if (!load_file(s, level_arena, p, e, err)) return false;

    /* Where they stood if the body fits there, else their tile's centre, else the '@'. */
    int32_t tx = sim_tile_of(was.x), ty = sim_tile_of(was.y);
    if (!sim_box_blocked(s, was.x, was.y, PLAYER_HALF)) {
        s->player = (Player){.x = was.x, .y = was.y, .facing = was.facing, .walk_ticks = was.walk_ticks};
        int32_t ttx, tty;
        TileKind t = trigger_under(&s->level, was.x, was.y, &ttx, &tty);
        s->player.trigger_lock = t == TILE_EXIT || t == TILE_PORTAL;
    } else if (!sim_tile_blocks_walk(s, tx, ty)) { /* off the map reads as a wall */
        s->player = player_at(&s->level, tx, ty, was.facing);
    } else {
        s->player = player_at(&s->level, s->level.start_tx, s->level.start_ty, was.facing);
    }
    /* The progress as the level was entered (its pickups are all back), as a restart has it. */
    PlayerProgress now = s->progress;
    s->progress = s->progress_entry;
    s->progress.deaths = now.deaths;
    s->progress.kills = now.kills;
    s->progress.ticks = now.ticks;
    s->progress.hearts = s->progress.max_hearts;
    emit(s, SIM_EV_LEVEL, s->player.x, s->player.y, SIM_LEVEL_RELOAD, 0, -1);
    return true;
}

void sim_place_player(Sim *s, int32_t tx, int32_t ty) {
    if (sim_tile_blocks_walk(s, tx, ty)) return;
    s->player = player_at(&s->level, tx, ty, s->player.facing);
    /* A level just loaded announced the player's arrival at the '@': it is here instead. */
    if (s->events.count == 1 && s->events.list[0].kind == SIM_EV_LEVEL) {
        s->events.list[0].x = s->player.x;
        s->events.list[0].y = s->player.y;
    }
}

bool sim_start_run(Sim *s, Arena *level_arena, const char *path, Error *err) {
    /* Zeroed: the tail past the NUL is copied into the Sim, which snapshots read whole (rewind.h). */
    char old_root[SIM_PATH_MAX], root[SIM_PATH_MAX] = {0};
    Str8 dir = st_path_dir_prefix(st_str8_cstr(path));
    int n = dir.len ? snprintf(root, sizeof root, "%.*s", STR8_FMT(dir)) : snprintf(root, sizeof root, ".");
    if (n < 0 || (size_t)n >= sizeof root) {
        st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "%.200s...: error: path too long", path);
        return false;
    }
    memcpy(old_root, s->run_root, sizeof old_root);
    memcpy(s->run_root, root, sizeof root);
    if (!sim_load_level(s, level_arena, path, NULL, err)) {
        memcpy(s->run_root, old_root, sizeof old_root);
        return false;
    }
    /* What sim_init sets and a level load does not. */
    s->progress = (PlayerProgress){.hearts = PLAYER_START_HEARTS, .max_hearts = PLAYER_START_HEARTS};
    s->progress_entry = s->progress;
    s->bullets_dropped = 0;
    s->events.list[0].a = SIM_LEVEL_RUN; /* the load's SIM_EV_LEVEL */
    return true;
}

bool sim_restart_level(Sim *s, Arena *level_arena, Error *err) {
    PlayerProgress keep = s->progress;
    PlayerProgress back = s->progress_entry;
    back.deaths = keep.deaths; /* the record of what happened is not rewound */
    back.ticks = keep.ticks;
    back.kills = keep.kills; /* (the hearts: full again, as sim_load_level starts every level) */
    char path[SIM_PATH_MAX], entry[SIM_ENTRY_MAX];
    memcpy(path, s->level_path, sizeof path);
    memcpy(entry, s->entry_name, sizeof entry);
    s->progress = back;
    if (!sim_load_level(s, level_arena, path, entry, err)) {
        s->progress = keep;
        return false;
    }
    s->events.list[0].a = SIM_LEVEL_RESTART; /* the load's SIM_EV_LEVEL */
    return true;
}

bool sim_follow_request(Sim *s, Arena *level_arena, Error *err) {
    if (s->request.kind != SIM_REQUEST_LEVEL) return false;
    SimRequest r = s->request;
    return sim_load_level(s, level_arena, r.path, r.entry, err);
}

/* ---- the player ---- */

/* How far a knockback of k (>= 0) carries the player: sim_move_player moves by it, then
   decays it by 3/4, to 0 below 16. */
static int32_t knock_travel(int32_t k) {
    int32_t t = 0;
    for (; k; k = k < 16 ? 0 : k * 3 / 4) t += k;
    return t;
}

/* The knockback along one axis that carries the player d (fixed point) and no less, unless
   that takes more than SPIKE_KNOCKBACK_MAX. knock_travel only grows with k. */
static int32_t knock_for(int32_t d) {
    int32_t lo = 0, hi = SPIKE_KNOCKBACK_MAX, want = ABS(d);
    if (knock_travel(hi) < want) return d < 0 ? -hi : hi;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (knock_travel(mid) >= want) hi = mid;
        else lo = mid + 1;
    }
    return d < 0 ? -lo : lo;
}

/* Takes a heart unless the player is invulnerable or dead; true when it did. The caller
   gives the knockback. */
static bool hurt_player(Sim *s) {
    Player *pl = &s->player;
    if (pl->invuln > 0 || pl->dead) return false;
    s->progress.hearts--;
    emit(s, SIM_EV_HURT, pl->x, pl->y, small(s->progress.hearts), 0, -1);
    pl->invuln = PLAYER_INVULN_TICKS;
    if (s->progress.hearts <= 0) {
        s->progress.hearts = 0;
        pl->dead = true;
        s->progress.deaths++;
        emit(s, SIM_EV_DEATH, pl->x, pl->y, 0, 0, -1);
        s->request.kind = SIM_REQUEST_DIED;
    }
    return true;
}

/* Hurt by something at (from_x, from_y): pushed straight away from it. */
static void hurt_player_from(Sim *s, int32_t from_x, int32_t from_y) {
    Player *pl = &s->player;
    if (!hurt_player(s)) return;
    int32_t dx = pl->x - from_x, dy = pl->y - from_y;
    int32_t len = sim_isqrt((int64_t)dx * dx + (int64_t)dy * dy);
    if (len > 0) {
        pl->kx = (int32_t)((int64_t)dx * KNOCKBACK_SPEED / len);
        pl->ky = (int32_t)((int64_t)dy * KNOCKBACK_SPEED / len);
    }
}

uint8_t sim_facing_for(uint32_t in, uint8_t old) {
    int sx = ((in & SIM_IN_RIGHT) != 0) - ((in & SIM_IN_LEFT) != 0);
    int sy = ((in & SIM_IN_DOWN) != 0) - ((in & SIM_IN_UP) != 0);
    static const uint8_t table[3][3] = {/* [sy+1][sx+1] */
                                        {FACE_NW, FACE_N, FACE_NE},
                                        {FACE_W, 255, FACE_E},
                                        {FACE_SW, FACE_S, FACE_SE}};
    uint8_t f = table[sy + 1][sx + 1];
    return f == 255 ? old : f;
}

static void open_doors_near(Sim *s) {
    /* A door opens when the player presses against it holding its key: look at the tiles
       a box 2 px larger than the player's touches. */
    Player *pl = &s->player;
    const Level *lv = &s->level;
    int32_t h = PLAYER_HALF + 2 * FIX_ONE;
    int32_t x0 = floor_div(pl->x - h, TILE_FIX), x1 = floor_div(pl->x + h - 1, TILE_FIX);
    int32_t y0 = floor_div(pl->y - h, TILE_FIX), y1 = floor_div(pl->y + h - 1, TILE_FIX);
    for (int32_t ty = y0; ty <= y1; ty++)
        for (int32_t tx = x0; tx <= x1; tx++) {
            if (level_tile(lv, tx, ty) != TILE_DOOR) continue;
            int32_t i = level_door_index(lv, tx, ty);
            if (i < 0 || s->door_open[i]) continue;
            KeyColor color = lv->doors[i].color;
            if (s->progress.keys[color] <= 0) continue;
            s->progress.keys[color]--;
            s->door_open[i] = 1;
            emit(s, SIM_EV_DOOR, sim_tile_center(tx), sim_tile_center(ty), (uint8_t)color, 0, i);
        }
}

bool sim_move_player(const Sim *s, Player *pl, uint32_t in) {
    int sx = ((in & SIM_IN_RIGHT) != 0) - ((in & SIM_IN_LEFT) != 0);
    int sy = ((in & SIM_IN_DOWN) != 0) - ((in & SIM_IN_UP) != 0);
    /* Strafing: while fire is held the aim stays put, so you can back away from what you
       are shooting at instead of turning round to it. */
    if (!(in & SIM_IN_FIRE)) pl->facing = sim_facing_for(in, pl->facing);
    pl->moving = sx || sy;
    int32_t speed = (sx && sy) ? PLAYER_SPEED * 181 / 256 : PLAYER_SPEED;
    /* Spikes drag at your feet: crossing a strip of them costs hearts, not just a blink. */
    if (sim_on_spikes(s, pl->x, pl->y)) speed /= PLAYER_SPIKE_SLOW;
    int32_t dx = sx * speed + pl->kx, dy = sy * speed + pl->ky;
    unsigned blocked = slide_xy(s, BLOCK_PLAYER, &pl->x, &pl->y, PLAYER_HALF, dx, dy);
    bool bx = (blocked & BLOCKED_X) != 0, by = (blocked & BLOCKED_Y) != 0;

    /* Corner forgiveness: pushing straight into a wall whose corner is only a few pixels
       across our path slides us around it instead of stopping us dead. */
    if (bx && sx && !sy) {
        for (int32_t k = 1; k <= PLAYER_NUDGE_PX; k++) {
            int32_t off = k * FIX_ONE, dir = 0;
            if (!box_hits(s, BLOCK_PLAYER, pl->x + sx * FIX_ONE, pl->y - off, PLAYER_HALF)) dir = -1;
            else if (!box_hits(s, BLOCK_PLAYER, pl->x + sx * FIX_ONE, pl->y + off, PLAYER_HALF)) dir = 1;
            if (dir) {
                slide(s, BLOCK_PLAYER, &pl->x, &pl->y, PLAYER_HALF, dir * MIN(speed, off), false);
                break;
            }
        }
    }
    if (by && sy && !sx) {
        for (int32_t k = 1; k <= PLAYER_NUDGE_PX; k++) {
            int32_t off = k * FIX_ONE, dir = 0;
            if (!box_hits(s, BLOCK_PLAYER, pl->x - off, pl->y + sy * FIX_ONE, PLAYER_HALF)) dir = -1;
            else if (!box_hits(s, BLOCK_PLAYER, pl->x + off, pl->y + sy * FIX_ONE, PLAYER_HALF)) dir = 1;
            if (dir) {
                slide(s, BLOCK_PLAYER, &pl->x, &pl->y, PLAYER_HALF, dir * MIN(speed, off), true);
                break;
            }
        }
    }
    pl->kx = ABS(pl->kx) < 16 ? 0 : pl->kx * 3 / 4;
    pl->ky = ABS(pl->ky) < 16 ? 0 : pl->ky * 3 / 4;
    if (pl->moving) pl->walk_ticks++;
    return bx || by;
}

static void move_player(Sim *s, uint32_t in) {
    if (sim_move_player(s, &s->player, in)) open_doors_near(s);
}

static void player_fire(Sim *s, uint32_t in) {
    Player *pl = &s->player;
    if (pl->fire_cooldown > 0) pl->fire_cooldown--;
    if (!(in & SIM_IN_FIRE) || pl->fire_cooldown > 0) return;
    int32_t ux = DIR8_X[pl->facing], uy = DIR8_Y[pl->facing];
    int32_t bx = pl->x + ux * 6 * FIX_ONE / 256, by = pl->y + uy * 6 * FIX_ONE / 256;
    if (!sim_spawn_bullet(s, bx, by, ux * BULLET_SPEED / 256, uy * BULLET_SPEED / 256, BULLET_TTL, true)) return;
    pl->fire_cooldown = PLAYER_FIRE_COOLDOWN;
    emit(s, SIM_EV_SHOT, bx, by, pl->facing, 0, -1);
}

/* The exit or portal the player at (x, y) stands on: the tile under the centre, or one whose
   rectangle grown by TRIGGER_SLACK_PX contains it, since by then the sprite is well inside
   it. The slack stays below half a tile, so standing on the neighbouring tile's centre never
   triggers. Returns the tile kind (TILE_FLOOR when none) and its coordinates. */
static TileKind trigger_under(const Level *lv, int32_t x, int32_t y, int32_t *otx, int32_t *oty) {
    int32_t slack = TRIGGER_SLACK_PX * FIX_ONE;
    int32_t cx = floor_div(x, TILE_FIX), cy = floor_div(y, TILE_FIX);
    int32_t xs[3] = {cx, floor_div(x - slack, TILE_FIX), floor_div(x + slack, TILE_FIX)};
    int32_t ys[3] = {cy, floor_div(y - slack, TILE_FIX), floor_div(y + slack, TILE_FIX)};
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            TileKind k = level_tile(lv, xs[i], ys[j]);
            if (k != TILE_EXIT && k != TILE_PORTAL) continue;
            *otx = xs[i];
            *oty = ys[j];
            return k;
        }
    *otx = cx;
    *oty = cy;
    return TILE_FLOOR;
}

static void touch_tiles(Sim *s) {
    Player *pl = &s->player;
    const Level *lv = &s->level;
    /* Spikes push out of themselves, never the way you face (which was deeper in): back to
       the middle of the nearest floor tile (sim_spike_refuge), with a knockback sized to
       end there. */
    int32_t rx, ry;
    if (sim_on_spikes(s, pl->x, pl->y) && hurt_player(s) && sim_spike_refuge(s, pl->x, pl->y, &rx, &ry)) {
        pl->kx = knock_for(rx - pl->x);
        pl->ky = knock_for(ry - pl->y);
    }
    if (pl->dead) return;
    int32_t tx, ty;
    TileKind t = trigger_under(lv, pl->x, pl->y, &tx, &ty);
    if (t != TILE_EXIT && t != TILE_PORTAL) pl->trigger_lock = false;
    if (pl->trigger_lock) return;
    /* The loader keeps every path and entry name within these buffers; if one did not fit
       after all, the trigger stays quiet rather than lead to a truncated name. */
    if (t == TILE_EXIT) {
        if (lv->exit_to) {
            if (!copy_str(s->request.path, sizeof s->request.path, lv->exit_to)) return;
            s->request.entry[0] = '\0';
            s->request.kind = SIM_REQUEST_LEVEL;
        } else {
            s->request.kind = SIM_REQUEST_VICTORY;
        }
        s->progress.levels_completed++;
        emit(s, SIM_EV_EXIT, pl->x, pl->y, (uint8_t)s->request.kind, 0, -1);
    } else if (t == TILE_PORTAL) {
        const LevelLink *link = level_link_at(lv, tx, ty);
        if (link && copy_str(s->request.path, sizeof s->request.path, link->target_path) &&
            copy_str(s->request.entry, sizeof s->request.entry, link->entry)) {
            s->progress.levels_completed++;
            s->request.kind = SIM_REQUEST_LEVEL;
            emit(s, SIM_EV_EXIT, pl->x, pl->y, (uint8_t)s->request.kind, 0, -1);
        }
    }
}

static void take_pickups(Sim *s) {
    Player *pl = &s->player;
    const Level *lv = &s->level;
    int32_t reach = PLAYER_HALF + 4 * FIX_ONE;
    for (int32_t i = 0; i < lv->pickup_count; i++) {
        const Pickup *p = &lv->pickups[i];
        if (s->pickup_taken[i]) continue;
        int32_t cx = sim_tile_center(p->tx), cy = sim_tile_center(p->ty);
        if (ABS(pl->x - cx) >= reach || ABS(pl->y - cy) >= reach) continue;
        switch (p->kind) {
        case PICKUP_COIN: s->progress.coins++; break;
        case PICKUP_KEY: s->progress.keys[p->color]++; break;
        case PICKUP_HEART:
            if (s->progress.hearts >= s->progress.max_hearts) {
                /* A full health bar grows instead, up to the cap; otherwise leave it. */
                if (s->progress.max_hearts >= PLAYER_MAX_HEARTS) continue;
                s->progress.max_hearts++;
            }
            s->progress.hearts++;
            break;
        default: continue;
        }
        s->pickup_taken[i] = 1;
        emit(s, SIM_EV_PICKUP, cx, cy, (uint8_t)p->kind, p->kind == PICKUP_KEY ? (uint8_t)p->color : 0, i);
    }
}

/* ---- enemies ---- */

static void hurt_enemy(Sim *s, Enemy *e, int32_t vx, int32_t vy) {
    e->hp--;
    int32_t index = (int32_t)(e - s->enemies);
    emit(s, SIM_EV_HIT, e->x, e->y, (uint8_t)e->kind, small(e->hp), index);
    if (e->kind == ENEMY_CHASER) { /* being shot gives us away; re-plan after the shove */
        e->timer = CHASER_MEMORY_TICKS;
        e->state = 2;
    }
    if (e->kind != ENEMY_TURRET) {
        int32_t len = sim_isqrt((int64_t)vx * vx + (int64_t)vy * vy);
        if (len > 0) {
            e->vx = (int32_t)((int64_t)vx * KNOCKBACK_SPEED / len);
            e->vy = (int32_t)((int64_t)vy * KNOCKBACK_SPEED / len);
        }
    }
    if (e->hp <= 0) {
        e->alive = 0;
        s->progress.kills++;
        emit(s, SIM_EV_KILL, e->x, e->y, (uint8_t)e->kind, 0, index);
    }
}

static bool player_visible(const Sim *s, const Enemy *e, int32_t range_tiles) {
    const Player *pl = &s->player;
    if (pl->dead) return false;
    int32_t dx = pl->x - e->x, dy = pl->y - e->y, r = range_tiles * TILE_FIX;
    if ((int64_t)dx * dx + (int64_t)dy * dy > (int64_t)r * r) return false;
    return sim_line_of_sight(s, e->x, e->y, pl->x, pl->y);
}

/* Breadth-first search on the tile grid from the player's tile outward, in a window around
   the chaser, in a scratch scope: one search gives every tile its distance to the player,
   and the chaser steps to the neighbour that is closer. Returns a Dir4, or -1. */
static int chaser_next_dir(const Sim *s, int32_t etx, int32_t ety, int32_t ptx, int32_t pty) {
    enum { R = CHASER_SEARCH_RADIUS, W = 2 * R + 1 };
    if (ABS(ptx - etx) > R || ABS(pty - ety) > R) return -1;
    SCRATCH_SCOPE(tmp);
    int16_t *dist = st_arena_push_array_raw(tmp.arena, int16_t, W * W);
    int32_t *queue = st_arena_push_array_raw(tmp.arena, int32_t, W * W);
    if (!dist || !queue) return -1;
    for (int i = 0; i < W * W; i++) dist[i] = -1;
    int32_t ox = etx - R, oy = ety - R; /* window origin */
    int32_t head = 0, tail = 0;
    int32_t start = (pty - oy) * W + (ptx - ox);
    dist[start] = 0;
    queue[tail++] = start;
    int32_t goal = (ety - oy) * W + (etx - ox);
    while (head < tail && dist[goal] < 0) {
        int32_t c = queue[head++], cx = c % W, cy = c / W;
        for (int d = 0; d < DIR4_COUNT; d++) {
            int32_t nx = cx + DIR4_X[d], ny = cy + DIR4_Y[d];
            if (nx < 0 || ny < 0 || nx >= W || ny >= W) continue;
            int32_t n = ny * W + nx;
            if (dist[n] >= 0) continue;
            if (n != goal && tile_in(s, BLOCK_ENEMY, nx + ox, ny + oy)) continue;
            dist[n] = (int16_t)(dist[c] + 1);
            queue[tail++] = n;
        }
    }
    if (dist[goal] < 0) return -1;
    int best = -1;
    for (int d = 0; d < DIR4_COUNT; d++) {
        int32_t nx = R + DIR4_X[d], ny = R + DIR4_Y[d];
        int16_t dn = dist[ny * W + nx];
        if (dn >= 0 && dn < dist[goal] && (best < 0 || dn < dist[(R + DIR4_Y[best]) * W + R + DIR4_X[best]])) best = d;
    }
    return best;
}

static void update_patroller(Sim *s, Enemy *e) {
    if (e->state == 0) { /* first tick: walk along the longer free axis */
        e->state = 1;
        int32_t tx = sim_tile_of(e->x), ty = sim_tile_of(e->y);
        bool h = !tile_in(s, BLOCK_ENEMY, tx + 1, ty) || !tile_in(s, BLOCK_ENEMY, tx - 1, ty);
        e->facing = h ? (tile_in(s, BLOCK_ENEMY, tx + 1, ty) ? DIR4_LEFT : DIR4_RIGHT)
                      : (tile_in(s, BLOCK_ENEMY, tx, ty + 1) ? DIR4_UP : DIR4_DOWN);
    }
    int32_t dx = DIR4_X[e->facing] * PATROLLER_SPEED, dy = DIR4_Y[e->facing] * PATROLLER_SPEED;
    if (move_enemy(s, e, dx, dy)) e->facing = (uint8_t)dir4_reverse((Dir4)e->facing);
}

static void update_chaser(Sim *s, Enemy *e) {
    const Player *pl = &s->player;
    if (player_visible(s, e, CHASER_SIGHT_TILES)) {
        e->timer = CHASER_MEMORY_TICKS;
        if (e->state == 0) e->state = 2; /* 2: chasing, direction to be decided */
    } else if (e->timer > 0 && --e->timer == 0) {
        e->state = 0;
    }
    if (e->state == 0 || pl->dead) return;
    int32_t tx = sim_tile_of(e->x), ty = sim_tile_of(e->y);
    int32_t cx = sim_tile_center(tx), cy = sim_tile_center(ty);
    int32_t ptx = sim_tile_of(pl->x), pty = sim_tile_of(pl->y);
    if (tx == ptx && ty == pty) { /* same tile: home in directly */
        int32_t dx = pl->x - e->x, dy = pl->y - e->y;
        int32_t len = sim_isqrt((int64_t)dx * dx + (int64_t)dy * dy);
        if (len > 0) {
            move_enemy(s, e, (int32_t)((int64_t)dx * CHASER_SPEED / len), (int32_t)((int64_t)dy * CHASER_SPEED / len));
        }
        e->state = 2;
        return;
    }
    /* Decide only at tile centres, so it moves centre to centre and never clips corners. */
    bool at_centre = ABS(e->x - cx) < CHASER_SPEED && ABS(e->y - cy) < CHASER_SPEED;
    if (at_centre) {
        e->x = cx;
        e->y = cy;
        int dir = chaser_next_dir(s, tx, ty, ptx, pty);
        if (dir < 0) {
            e->state = 2;
            return;
        }
        e->facing = (uint8_t)dir;
        e->state = 1;
    } else if (e->state == 2) { /* off centre without a plan: back to the centre first */
        int32_t dx = cx - e->x, dy = cy - e->y;
        move_enemy(s, e, CLAMP(dx, -CHASER_SPEED, CHASER_SPEED), CLAMP(dy, -CHASER_SPEED, CHASER_SPEED));
        return;
    }
    int32_t dx = DIR4_X[e->facing] * CHASER_SPEED, dy = DIR4_Y[e->facing] * CHASER_SPEED;
    if (move_enemy(s, e, dx, dy)) e->state = 2;
}

/* Turret state: 0 before its first tick, then 1 + the ticks it has seen the player without
   a break, capped at 2 + TURRET_WARN_TICKS (armed: more than TURRET_WARN_TICKS of sight).
   Losing sight disarms it, so every first shot at you comes after the visor has blinked
   for TURRET_WARN_TICKS. */
static void update_turret(Sim *s, Enemy *e, int32_t index) {
    if (e->state == 0) { /* stagger turrets so a row of them does not fire as one */
        e->state = 1;
        e->timer = TURRET_PERIOD / 2 + (index * 23) % TURRET_PERIOD;
    }
    if (e->timer > 0) e->timer--;
    if (!player_visible(s, e, TURRET_SIGHT_TILES)) {
        e->state = 1;
        return;
    }
    if (e->state < 2 + TURRET_WARN_TICKS) e->state++;
    const Player *pl = &s->player;
    int32_t dx = pl->x - e->x, dy = pl->y - e->y;
    e->facing = (uint8_t)(ABS(dx) >= ABS(dy) ? (dx >= 0 ? DIR4_RIGHT : DIR4_LEFT) : (dy >= 0 ? DIR4_DOWN : DIR4_UP));
    /* Arriving in a room must never cost a heart before you can react. */
    if (e->timer > 0 || s->tick < TURRET_GRACE_TICKS || e->state < 2 + TURRET_WARN_TICKS) return;
    e->timer = TURRET_PERIOD;
    int32_t len = sim_isqrt((int64_t)dx * dx + (int64_t)dy * dy);
    if (len == 0) return;
    int32_t vx = (int32_t)((int64_t)dx * ENEMY_BULLET_SPEED / len);
    int32_t vy = (int32_t)((int64_t)dy * ENEMY_BULLET_SPEED / len);
    /* Reported even when a full pool refused the bullet: the turret did fire, and its
       muzzle flash is the player's warning either way. */
    sim_spawn_bullet(s, e->x + vx * 4, e->y + vy * 4, vx, vy, ENEMY_BULLET_TTL, false);
    emit(s, SIM_EV_ENEMY_SHOT, e->x + vx * 4, e->y + vy * 4, (uint8_t)e->kind, 0, index);
}

static void update_enemies(Sim *s) {
    Player *pl = &s->player;
    for (int32_t i = 0; i < s->level.enemy_count; i++) {
        Enemy *e = &s->enemies[i];
        if (!e->alive) continue;
        if (e->vx || e->vy) { /* knockback, then back to its own business */
            move_enemy(s, e, e->vx, e->vy);
            e->vx = ABS(e->vx) < 32 ? 0 : e->vx * 3 / 4;
            e->vy = ABS(e->vy) < 32 ? 0 : e->vy * 3 / 4;
        } else {
            switch (e->kind) {
            case ENEMY_PATROLLER: update_patroller(s, e); break;
            case ENEMY_CHASER: update_chaser(s, e); break;
            case ENEMY_TURRET: update_turret(s, e, i); break;
            default: break;
            }
        }
        if (!pl->dead && sim_enemy_touches(e, pl->x, pl->y, 0)) hurt_player_from(s, e->x, e->y);
    }
}

static void update_bullets(Sim *s) {
    const Level *lv = &s->level;
    Player *pl = &s->player;
    for (int32_t i = 0; i < lv->bullet_cap; i++) {
        Bullet *b = &s->bullets[i];
        if (!b->alive) continue;
        b->x += b->vx;
        b->y += b->vy;
        if (--b->ttl <= 0) {
            b->alive = false;
            continue;
        }
        if (tile_in(s, BLOCK_BULLET, floor_div(b->x, TILE_FIX), floor_div(b->y, TILE_FIX))) {
            b->alive = false;
            emit(s, SIM_EV_WALL, b->x - b->vx, b->y - b->vy, b->from_player, 0, -1);
            continue;
        }
        if (b->from_player) {
            for (int32_t j = 0; j < lv->enemy_count; j++) {
                Enemy *e = &s->enemies[j];
                if (!e->alive || ABS(b->x - e->x) >= ENEMY_HALF + FIX_ONE || ABS(b->y - e->y) >= ENEMY_HALF + FIX_ONE)
                    continue;
                b->alive = false;
                hurt_enemy(s, e, b->vx, b->vy);
                break;
            }
        } else if (!pl->dead && ABS(b->x - pl->x) < PLAYER_HALF && ABS(b->y - pl->y) < PLAYER_HALF) {
            b->alive = false;
            hurt_player_from(s, b->x - b->vx, b->y - b->vy);
        }
    }
}

int32_t sim_sign_near(const Sim *s) {
    const Player *pl = &s->player;
    if (pl->dead) return -1;
    int32_t best = -1;
    int64_t r = (int64_t)SIGN_NEAR_PX * FIX_ONE, best_d2 = r * r;
    for (int32_t i = 0; i < s->level.sign_count; i++) {
        const LevelSign *g = &s->level.signs[i];
        int64_t dx = sim_tile_center(g->tx) - pl->x, dy = sim_tile_center(g->ty) - pl->y;
        int64_t d2 = dx * dx + dy * dy;
        if (d2 < best_d2 || (d2 == best_d2 && best < 0)) best = i, best_d2 = d2;
    }
    return best;
}

void sim_cancel_request(Sim *s) {
    if (s->request.kind == SIM_REQUEST_LEVEL || s->request.kind == SIM_REQUEST_VICTORY) {
        s->player.trigger_lock = true;
        s->progress.levels_completed--;
    }
    s->request.kind = SIM_REQUEST_NONE;
}

void sim_tick(Sim *s, uint32_t input) {
    events_restart(s);
    if (s->request.kind != SIM_REQUEST_NONE) return; /* frozen until the caller acts */
    s->tick++;
    s->progress.ticks++;
    Player *pl = &s->player;
    if (!pl->dead) {
        if (pl->invuln > 0) pl->invuln--;
        move_player(s, input & SIM_IN_MASK);
        player_fire(s, input);
        take_pickups(s);
        touch_tiles(s);
    }
    update_enemies(s);
    update_bullets(s);
}

/* ---- hashing ---- */

typedef struct Fnv {
    uint64_t h;
} Fnv;
static void fnv_u64(Fnv *f, uint64_t v) { f->h = st_hash_fnv1a_u64(f->h, v); }

uint64_t sim_hash(const Sim *s) {
    /* Field by field, so padding bytes never leak in. */
    Fnv f = {HASH_FNV1A_INIT};
    const PlayerProgress *g = &s->progress;
    const Player *p = &s->player;
    const Level *lv = &s->level;
    /* Gameplay state only: the event list is a report of what changed, not state, and the
       particle pool the Sim carries is the front end's. The level as loaded is not hashed
       either: it is the same file every time, and play never changes it. */
    fnv_u64(&f, s->tick);
    fnv_u64(&f, (uint64_t)s->request.kind);
    int32_t pv[] = {
        g->hearts,         g->max_hearts,       g->coins, g->keys[0], g->keys[1], g->keys[2], g->deaths, g->kills,
        (int32_t)g->ticks, g->levels_completed, p->x,     p->y,       p->kx,      p->ky,      p->facing, p->dead,
        p->invuln,         p->fire_cooldown};
    for (size_t i = 0; i < ARRAY_COUNT(pv); i++) fnv_u64(&f, (uint64_t)(uint32_t)pv[i]);
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &s->enemies[i];
        int32_t ev[] = {e->x, e->y, e->hp, e->alive, e->state, e->facing, e->vx, e->vy, e->timer};
        for (size_t k = 0; k < ARRAY_COUNT(ev); k++) fnv_u64(&f, (uint64_t)(uint32_t)ev[k]);
    }
    for (int32_t i = 0; i < lv->pickup_count; i++) fnv_u64(&f, s->pickup_taken[i]);
    for (int32_t i = 0; i < lv->door_count; i++) fnv_u64(&f, s->door_open[i]);
    for (int32_t i = 0; i < lv->bullet_cap; i++) {
        const Bullet *b = &s->bullets[i];
        if (!b->alive) continue;
        fnv_u64(&f, (uint64_t)i);
        fnv_u64(&f, ((uint64_t)(uint32_t)b->x << 32) | (uint32_t)b->y);
    }
    return f.h;
}
