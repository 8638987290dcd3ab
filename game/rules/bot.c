/* bot.c - the autoplayer (see bot.h). */
#include "rules/bot.h"

#include <string.h>

#include <strata/core/base.h>

#define BOT_MAX_CELLS (256 * 256)
#define BOT_COIN_REACH 14 /* detour for coins at most this many steps away */
#define BOT_SPIKE_COST 40
#define BOT_AIM_TILES 7
#define BOT_EXPOSED_COST 6 /* a tile a live turret can see costs this many steps */
#define BOT_BULLET_LOOKAHEAD 40
#define BOT_CONTACT_LOOKAHEAD 14
#define BOT_MARGIN (2 * FIX_ONE)

static bool passable(const Sim *s, int32_t tx, int32_t ty) {
    TileKind t = sim_tile(s, tx, ty);
    if (t == TILE_WALL || t == TILE_WATER) return false;
    if (t == TILE_DOOR) {
        const LevelDoor *d = level_door_at(&s->level, tx, ty);
        return d && s->progress.keys[d->color] > 0;
    }
    return true;
}

/* Turn toward a visible enemy when a shot could hit it, then shoot. Returns input bits or 0. */
static uint32_t aim(const Sim *s) {
    const Player *pl = &s->player;
    const Level *lv = &s->level;
    int32_t best = -1;
    int64_t best_d2 = (int64_t)BOT_AIM_TILES * TILE_FIX * BOT_AIM_TILES * TILE_FIX;
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &s->enemies[i];
        if (!e->alive) continue;
        int64_t dx = e->x - pl->x, dy = e->y - pl->y, d2 = dx * dx + dy * dy;
        if (d2 >= best_d2 || !sim_line_of_sight(s, pl->x, pl->y, e->x, e->y)) continue;
        best = i;
        best_d2 = d2;
    }
    if (best < 0) return 0;
    /* The way we face already has a target on its line: shoot without turning (a turn costs
       a tick and a step toward the enemies). */
    int32_t fx = DIR8_X[pl->facing % 8], fy = DIR8_Y[pl->facing % 8];
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &s->enemies[i];
        if (!e->alive) continue;
        int64_t dx = e->x - pl->x, dy = e->y - pl->y;
        int64_t along = (dx * fx + dy * fy) / 256, across = (dx * fy - dy * fx) / 256;
        if (along <= 0 || along > (int64_t)BOT_AIM_TILES * TILE_FIX) continue;
        if ((across < 0 ? -across : across) > ENEMY_HALF) continue;
        if (sim_line_of_sight(s, pl->x, pl->y, e->x, e->y)) return SIM_IN_FIRE;
    }
    const Enemy *e = &s->enemies[best];
    int32_t dx = e->x - pl->x, dy = e->y - pl->y;
    int32_t ax = ABS(dx), ay = ABS(dy), slack = ENEMY_HALF;
    uint32_t in = 0;
    if (ay <= slack) in = dx > 0 ? SIM_IN_RIGHT : SIM_IN_LEFT;
    else if (ax <= slack) in = dy > 0 ? SIM_IN_DOWN : SIM_IN_UP;
    else if (ABS(ax - ay) <= slack * 2) in = (dx > 0 ? SIM_IN_RIGHT : SIM_IN_LEFT) | (dy > 0 ? SIM_IN_DOWN : SIM_IN_UP);
    if (!in) return 0;
    /* Fire held keeps the facing (strafing), so turn first, on a tick without fire. */
    return sim_facing_for(in, pl->facing) == pl->facing ? in | SIM_IN_FIRE : in;
}

/* ---- danger: where enemy bullets and bodies will be if we hold `first` for one tick and
   `rest` after it. Returns the first tick something would hurt us (INT32_MAX: nothing within
   the look-ahead), and sets *spiked when the held move walks onto spikes. ---- */

static int32_t danger(const Sim *s, uint32_t first, uint32_t rest, bool *spiked) {
    enum { H = BOT_BULLET_LOOKAHEAD };
    const Player *pl = &s->player;
    const Level *lv = &s->level;
    /* Where we will be: the rules' own movement (walls, spikes, knockback, corners) run on a
       copy of the player, so the prediction is the step sim_tick will take. */
    Player ghost = *pl;
    int32_t px[H + 1], py[H + 1];
    px[0] = pl->x, py[0] = pl->y;
    *spiked = false;
    for (int t = 1; t <= H; t++) {
        sim_move_player(s, &ghost, t == 1 ? first : rest);
        px[t] = ghost.x, py[t] = ghost.y;
        if (t <= BOT_CONTACT_LOOKAHEAD && sim_on_spikes(s, px[t], py[t])) *spiked = true;
    }
    int32_t hit = INT32_MAX;
    for (int32_t i = 0; i < lv->bullet_cap; i++) {
        const Bullet *b = &s->bullets[i];
        if (!b->alive || b->from_player) continue;
        int32_t bx = b->x, by = b->y;
        for (int t = 1; t <= H && t < hit && t <= b->ttl; t++) {
            bx += b->vx, by += b->vy;
            if (sim_tile_blocks_bullet(s, sim_tile_of(bx), sim_tile_of(by))) break;
            int32_t r = PLAYER_HALF + BOT_MARGIN;
            if (t >= pl->invuln && ABS(bx - px[t]) < r && ABS(by - py[t]) < r) hit = t;
        }
    }
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &s->enemies[i];
        if (!e->alive || e->kind == ENEMY_TURRET) continue;
        int32_t ex = e->x, ey = e->y;
        for (int t = 1; t <= BOT_CONTACT_LOOKAHEAD && t < hit; t++) {
            int32_t vx = 0, vy = 0;
            if (e->kind == ENEMY_PATROLLER) {
                vx = DIR4_X[e->facing] * PATROLLER_SPEED, vy = DIR4_Y[e->facing] * PATROLLER_SPEED;
            } else if (e->state) {
                int32_t dx = px[t - 1] - ex, dy = py[t - 1] - ey;
                vx = CLAMP(dx, -CHASER_SPEED, CHASER_SPEED);
                vy = CLAMP(dy, -CHASER_SPEED, CHASER_SPEED);
            }
            if (!sim_box_blocked(s, ex + vx, ey + vy, ENEMY_HALF)) ex += vx, ey += vy;
            Enemy ghost_e = *e;
            ghost_e.x = ex, ghost_e.y = ey;
            if (t >= pl->invuln && sim_enemy_touches(&ghost_e, px[t], py[t], BOT_MARGIN)) hit = t;
        }
    }
    return hit;
}

/* Keeps `want` when it is safe; otherwise the move (of the nine) that is hit last, or never,
   off spikes if possible, closest to `want` among equals. */
static uint32_t dodge(const Sim *s, uint32_t want) {
    bool spiked;
    int32_t d = danger(s, want, want, &spiked);
    if (d == INT32_MAX) return want;
    static const uint32_t moves[9] = {0,
                                      SIM_IN_RIGHT,
                                      SIM_IN_LEFT,
                                      SIM_IN_DOWN,
                                      SIM_IN_UP,
                                      SIM_IN_RIGHT | SIM_IN_DOWN,
                                      SIM_IN_RIGHT | SIM_IN_UP,
                                      SIM_IN_LEFT | SIM_IN_DOWN,
                                      SIM_IN_LEFT | SIM_IN_UP};
    int wx = ((want & SIM_IN_RIGHT) != 0) - ((want & SIM_IN_LEFT) != 0);
    int wy = ((want & SIM_IN_DOWN) != 0) - ((want & SIM_IN_UP) != 0);
    uint32_t best = want;
    int32_t best_d = d, best_pref = -100;
    bool best_spiked = spiked;
    for (int i = 0; i < 9; i++) {
        uint32_t m = moves[i];
        bool sp;
        int32_t dm = danger(s, m, m, &sp);
        int mx = ((m & SIM_IN_RIGHT) != 0) - ((m & SIM_IN_LEFT) != 0);
        int my = ((m & SIM_IN_DOWN) != 0) - ((m & SIM_IN_UP) != 0);
        int pref = mx * wx + my * wy;
        bool better =
            (best_spiked && !sp) || (sp == best_spiked && (dm > best_d || (dm == best_d && pref > best_pref)));
        if (better) best = m, best_d = dm, best_pref = pref, best_spiked = sp;
    }
    return best;
}

/* Marks the tiles a live turret can see: they are worth a detour through cover. */
static void mark_exposed(const Sim *s, uint8_t *exposed) {
    const Level *lv = &s->level;
    int32_t w = lv->width, h = lv->height;
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &s->enemies[i];
        if (!e->alive || e->kind != ENEMY_TURRET) continue;
        int32_t etx = sim_tile_of(e->x), ety = sim_tile_of(e->y), r = TURRET_SIGHT_TILES;
        for (int32_t ty = MAX(0, ety - r); ty <= MIN(h - 1, ety + r); ty++)
            for (int32_t tx = MAX(0, etx - r); tx <= MIN(w - 1, etx + r); tx++) {
                if ((tx - etx) * (tx - etx) + (ty - ety) * (ty - ety) > r * r) continue;
                if (sim_line_of_sight(s, e->x, e->y, sim_tile_center(tx), sim_tile_center(ty)))
                    exposed[ty * w + tx] = 1;
            }
    }
}

/* The cost of the way from the tile whose dist is 0 to every tile (INT32_MAX: no way), and
   the tile each one is reached from. Dijkstra with a linear scan: levels are small, and
   this keeps it allocation-free. */
static void find_paths(const Sim *s, const uint8_t *exposed, int32_t *dist, int32_t *from, uint8_t *done) {
    int32_t w = s->level.width, n = w * s->level.height;
    for (;;) {
        int32_t c = -1;
        for (int32_t i = 0; i < n; i++)
            if (!done[i] && dist[i] != INT32_MAX && (c < 0 || dist[i] < dist[c])) c = i;
        if (c < 0) break;
        done[c] = 1;
        int32_t cx = c % w, cy = c / w;
        for (int d = 0; d < DIR4_COUNT; d++) {
            int32_t nx = cx + DIR4_X[d], ny = cy + DIR4_Y[d];
            if (!passable(s, nx, ny)) continue;
            int32_t ni = ny * w + nx;
            int32_t cost = sim_tile(s, nx, ny) == TILE_SPIKES ? BOT_SPIKE_COST : 1;
            if (exposed[ny * w + nx]) cost += BOT_EXPOSED_COST;
            if (dist[c] + cost < dist[ni]) {
                dist[ni] = dist[c] + cost;
                from[ni] = c;
            }
        }
    }
}

/* The tile to go to: a key, a heart when hurt, a nearby coin; else the way out. -1: none
   that can be reached. */
static int32_t pick_goal(const Sim *s, const int32_t *dist) {
    const Level *lv = &s->level;
    int32_t w = lv->width, n = w * lv->height;
    int32_t goal = -1, goal_d = INT32_MAX;
    for (int32_t i = 0; i < lv->pickup_count; i++) {
        const Pickup *p = &lv->pickups[i];
        if (s->pickup_taken[i]) continue;
        int32_t idx = p->ty * w + p->tx, d = dist[idx];
        if (d == INT32_MAX) continue;
        bool want = p->kind == PICKUP_KEY || (p->kind == PICKUP_HEART && s->progress.hearts < s->progress.max_hearts) ||
                    (p->kind == PICKUP_COIN && d <= BOT_COIN_REACH);
        if (want && d < goal_d) goal = idx, goal_d = d;
    }
    if (goal < 0) {
        for (int32_t i = 0; i < n; i++) {
            TileKind t = (TileKind)lv->tiles[i];
            if ((t == TILE_EXIT || (t == TILE_PORTAL && level_link_at(lv, i % w, i / w))) && dist[i] < goal_d)
                goal = i, goal_d = dist[i];
        }
    }
    return goal;
}

/* The move toward the goal: back along `from` to the tile after ours (`start`), and steer
   for its centre. */
static uint32_t steer(const Sim *s, const int32_t *from, int32_t start, int32_t goal) {
    const Player *pl = &s->player;
    int32_t w = s->level.width;
    int32_t next = goal;
    while (from[next] >= 0 && from[next] != start) next = from[next];
    int32_t tx = next % w, ty = next / w;
    int32_t gx = sim_tile_center(tx), gy = sim_tile_center(ty);
    int32_t dead = FIX_ONE / 2;
    uint32_t in = 0;
    if (gx - pl->x > dead) in |= SIM_IN_RIGHT;
    if (pl->x - gx > dead) in |= SIM_IN_LEFT;
    if (gy - pl->y > dead) in |= SIM_IN_DOWN;
    if (pl->y - gy > dead) in |= SIM_IN_UP;
    return in;
}

static uint32_t play(const Sim *s) {
    const Level *lv = &s->level;
    const Player *pl = &s->player;
    if (pl->dead || lv->width * lv->height > BOT_MAX_CELLS) return 0;
    uint32_t shot = aim(s);
    if (pl->fire_cooldown == 0) {
        bool spiked;
        if (shot && danger(s, shot, 0, &spiked) == INT32_MAX && !spiked) return shot;
    }
    /* Already facing a target: hold fire wherever we go, so the facing stays on it (strafe)
       and the next shot leaves as soon as the gun is ready. */
    uint32_t strafe = shot & SIM_IN_FIRE;
    int32_t w = lv->width, h = lv->height, n = w * h;
    SCRATCH_SCOPE(tmp);
    int32_t *dist = st_arena_push_array_raw(tmp.arena, int32_t, n);
    int32_t *from = st_arena_push_array_raw(tmp.arena, int32_t, n);
    uint8_t *done = st_arena_push_array(tmp.arena, uint8_t, n);
    if (!dist || !from || !done) return 0;
    for (int32_t i = 0; i < n; i++) dist[i] = INT32_MAX, from[i] = -1;
    int32_t ptx = sim_tile_of(pl->x), pty = sim_tile_of(pl->y);
    if (ptx < 0 || pty < 0 || ptx >= w || pty >= h) return 0;
    int32_t start = pty * w + ptx;
    dist[start] = 0;
    uint8_t *exposed = st_arena_push_array(tmp.arena, uint8_t, n);
    if (!exposed) return 0;
    mark_exposed(s, exposed);
    find_paths(s, exposed, dist, from, done);
    int32_t goal = pick_goal(s, dist);
    if (goal < 0) return dodge(s, 0) | strafe;
    return dodge(s, steer(s, from, start, goal)) | strafe;
}

uint32_t bot_input(const Game *g) {
    switch (g->screen) {
    case SCREEN_PLAYING: return play(&g->sim);
    case SCREEN_TITLE:
    case SCREEN_PAUSED:
    case SCREEN_GAME_OVER: return (g->ticks % 2) ? GAME_IN_CONFIRM : 0; /* edges, not a hold */
    default: return 0;
    }
}
