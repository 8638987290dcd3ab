/* bot.c - the autoplayer (see bot.h). */
#include "bot.h"

#include <string.h>

#define BOT_MAX_CELLS (256 * 256)
#define BOT_COIN_REACH 14   /* detour for coins at most this many steps away */
#define BOT_SPIKE_COST 40
#define BOT_AIM_TILES 7

static const int32_t D4X[4] = {1, 0, -1, 0};
static const int32_t D4Y[4] = {0, 1, 0, -1};

static int32_t iabs32(int32_t v) { return v < 0 ? -v : v; }

static bool passable(const Sim *s, int32_t tx, int32_t ty) {
    const Level *lv = &s->level;
    TileKind t = level_tile(lv, tx, ty);
    if (t == TILE_WALL || t == TILE_WATER) return false;
    if (t == TILE_DOOR) {
        const LevelDoor *d = level_door_at(lv, tx, ty);
        return d && s->progress.keys[d->color] > 0;
    }
    return true;
}

/* Turn toward a visible enemy when a shot could hit it. Returns input bits or 0. */
static uint32_t aim(const Sim *s) {
    const Player *pl = &s->player;
    const Level *lv = &s->level;
    int32_t best = -1;
    int64_t best_d2 = (int64_t)BOT_AIM_TILES * TILE_FIX * BOT_AIM_TILES * TILE_FIX;
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const Enemy *e = &lv->enemies[i];
        if (!e->alive) continue;
        int64_t dx = e->x - pl->x, dy = e->y - pl->y, d2 = dx * dx + dy * dy;
        if (d2 >= best_d2 || !sim_line_of_sight(lv, pl->x, pl->y, e->x, e->y)) continue;
        best = i;
        best_d2 = d2;
    }
    if (best < 0) return 0;
    const Enemy *e = &lv->enemies[best];
    int32_t dx = e->x - pl->x, dy = e->y - pl->y;
    int32_t ax = iabs32(dx), ay = iabs32(dy), slack = ENEMY_HALF;
    uint32_t in = 0;
    if (ay <= slack) in = dx > 0 ? SIM_IN_RIGHT : SIM_IN_LEFT;
    else if (ax <= slack) in = dy > 0 ? SIM_IN_DOWN : SIM_IN_UP;
    else if (iabs32(ax - ay) <= slack * 2)
        in = (dx > 0 ? SIM_IN_RIGHT : SIM_IN_LEFT) | (dy > 0 ? SIM_IN_DOWN : SIM_IN_UP);
    return in ? in | SIM_IN_FIRE : 0;
}

static uint32_t play(const Sim *s) {
    const Level *lv = &s->level;
    const Player *pl = &s->player;
    if (pl->dead || lv->width * lv->height > BOT_MAX_CELLS) return 0;
    if (pl->fire_cooldown == 0) {
        uint32_t shot = aim(s);
        if (shot) return shot;
    }
    int32_t w = lv->width, h = lv->height, n = w * h;
    SCRATCH_SCOPE(tmp);
    int32_t *dist = arena_push_array_raw(tmp.arena, int32_t, n);
    int32_t *from = arena_push_array_raw(tmp.arena, int32_t, n);
    uint8_t *done = arena_push_array(tmp.arena, uint8_t, n);
    if (!dist || !from || !done) return 0;
    for (int32_t i = 0; i < n; i++) dist[i] = INT32_MAX, from[i] = -1;
    int32_t ptx = sim_tile_of(pl->x), pty = sim_tile_of(pl->y);
    if (ptx < 0 || pty < 0 || ptx >= w || pty >= h) return 0;
    int32_t start = pty * w + ptx;
    dist[start] = 0;
    /* Dijkstra with a linear scan: levels are small, and this keeps it allocation-free. */
    for (;;) {
        int32_t c = -1;
        for (int32_t i = 0; i < n; i++)
            if (!done[i] && dist[i] != INT32_MAX && (c < 0 || dist[i] < dist[c])) c = i;
        if (c < 0) break;
        done[c] = 1;
        int32_t cx = c % w, cy = c / w;
        for (int d = 0; d < 4; d++) {
            int32_t nx = cx + D4X[d], ny = cy + D4Y[d];
            if (!passable(s, nx, ny)) continue;
            int32_t ni = ny * w + nx;
            int32_t cost = level_tile(lv, nx, ny) == TILE_SPIKES ? BOT_SPIKE_COST : 1;
            if (dist[c] + cost < dist[ni]) {
                dist[ni] = dist[c] + cost;
                from[ni] = c;
            }
        }
    }
    /* Pick a goal: a key, a heart when hurt, a nearby coin; else the way out. */
    int32_t goal = -1, goal_d = INT32_MAX;
    for (int32_t i = 0; i < lv->pickup_count; i++) {
        const Pickup *p = &lv->pickups[i];
        if (p->taken) continue;
        int32_t idx = p->ty * w + p->tx, d = dist[idx];
        if (d == INT32_MAX) continue;
        bool want = p->kind == PICKUP_KEY ||
                    (p->kind == PICKUP_HEART && s->progress.hearts < s->progress.max_hearts) ||
                    (p->kind == PICKUP_COIN && d <= BOT_COIN_REACH);
        if (want && d < goal_d) goal = idx, goal_d = d;
    }
    if (goal < 0) {
        for (int32_t i = 0; i < n; i++) {
            TileKind t = (TileKind)lv->tiles[i];
            if ((t == TILE_EXIT || (t == TILE_PORTAL && level_link_at(lv, i % w, i / w))) &&
                dist[i] < goal_d)
                goal = i, goal_d = dist[i];
        }
    }
    if (goal < 0) return 0;
    /* Walk back to the tile after ours and steer for its centre. */
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

uint32_t bot_input(const Game *g) {
    switch (g->screen) {
    case SCREEN_PLAYING: return play(&g->sim);
    case SCREEN_TITLE:
    case SCREEN_PAUSED:
    case SCREEN_GAME_OVER: return (g->ticks % 2) ? GAME_IN_CONFIRM : 0; /* edges, not a hold */
    default: return 0;
    }
}
