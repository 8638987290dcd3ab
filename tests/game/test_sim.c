/* test_sim.c - gameplay rules on the headless simulation: collision (walls, sliding,
   corners), keys and doors, pickups, damage and death, each enemy kind, pool exhaustion,
   level changes through a link, a failed load that keeps the level running, and the
   player's state crossing a level change by value over a level arena full of garbage;
   turret grace and warning, strafing, the exit/portal slack and the level-change card; the
   events each rule reports, where, with what, and what a full event list does; spikes that
   push out of themselves, enemy contact by the drawn bodies, full hearts in every level,
   and the sign near the player. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <strata/core/diag_capture.h>
#include "../assets/atlas.h"
#include <strata/asset/asset.h>
#include "check.h"
#include "portable.h"
#include <strata/core/base.h>
#include "front/draw.h"
#include "rules/game.h"
#include "rules/sim.h"
#include "level/level_load.h"

static char dir[] = "/tmp/test_sim_XXXXXX";
static Arena *level_arena;

static const char *write_level(const char *name, const char *text) {
    static char paths[32][256];
    static int n;
    char *p = paths[n++ % 32];
    snprintf(p, 256, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f) {
        perror(p);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
    return p;
}

static Sim *fresh(const char *path) {
    static Sim s;
    sim_init(&s, 7);
    Error err;
    if (!sim_load_level(&s, level_arena, path, NULL, &err)) {
        fprintf(stderr, "load failed: %s\n", err.message);
        exit(1);
    }
    return &s;
}

static void run(Sim *s, uint32_t in, int ticks) {
    for (int i = 0; i < ticks; i++) sim_tick(s, in);
}

/* The first event of `kind` in the last tick's list, or NULL. */
static const SimEvent *event_of(const Sim *s, SimEventKind kind) {
    for (int32_t i = 0; i < s->events.count; i++)
        if (s->events.list[i].kind == kind) return &s->events.list[i];
    return NULL;
}
static int events_of(const Sim *s, SimEventKind kind) {
    int n = 0;
    for (int32_t i = 0; i < s->events.count; i++) n += s->events.list[i].kind == kind;
    return n;
}

#define PXI(fix) ((fix) / FIX_ONE)

static void test_walls_and_sliding(void) {
    const char *p = write_level("room.lvl", "name: Room\nmap:\n#######\n#.....#\n#.@...#\n#.....#\n#######\nend\n");
    Sim *s = fresh(p);
    CHECK_EQ_I(s->player.x, sim_tile_center(2));
    run(s, SIM_IN_RIGHT, 200);
    /* Flush against the wall at column 6: right edge of the box exactly at 96 px. */
    CHECK_EQ_I(s->player.x, 6 * TILE_FIX - PLAYER_HALF);
    CHECK_EQ_I(s->player.y, sim_tile_center(2));
    /* Diagonal into the wall: x is stopped, y keeps sliding until the bottom wall. */
    run(s, SIM_IN_RIGHT | SIM_IN_DOWN, 200);
    CHECK_EQ_I(s->player.x, 6 * TILE_FIX - PLAYER_HALF);
    CHECK_EQ_I(s->player.y, 4 * TILE_FIX - PLAYER_HALF);
    run(s, SIM_IN_LEFT | SIM_IN_UP, 300);
    CHECK_EQ_I(s->player.x, 1 * TILE_FIX + PLAYER_HALF);
    CHECK_EQ_I(s->player.y, 1 * TILE_FIX + PLAYER_HALF);
    CHECK(!s->player.dead);
}

static void test_corner_forgiveness(void) {
    /* A one-tile doorway above; the player is a little to the right of it. */
    const char *p = write_level("door.lvl", "name: Doorway\nmap:\n#######\n###.###\n#.....#\n#..@..#\n#######\nend\n");
    Sim *s = fresh(p);
    run(s, SIM_IN_RIGHT, 4 * FIX_ONE / PLAYER_SPEED + 1); /* 4-6 px off: overlaps the wall beside the doorway */
    CHECK(s->player.x > sim_tile_center(3));
    run(s, SIM_IN_UP, 60);
    CHECK(PXI(s->player.y) < 2 * TILE_PX); /* went through into the doorway row */
    CHECK(s->player.x - PLAYER_HALF >= 3 * TILE_FIX && s->player.x + PLAYER_HALF <= 4 * TILE_FIX);

    /* 15 px off is not a corner but a wall: no nudge, the player stops flush below it. */
    s = fresh(p);
    run(s, SIM_IN_RIGHT, 15 * FIX_ONE / PLAYER_SPEED); /* ~15 px */
    run(s, SIM_IN_UP, 60);
    CHECK_EQ_I(s->player.y, 2 * TILE_FIX + PLAYER_HALF);
}

static void test_keys_and_doors(void) {
    const char *p = write_level("keys.lvl", "name: Keys\nmap:\n#########\n#@r..R.X#\n#########\nend\n");
    Sim *s = fresh(p);
    run(s, SIM_IN_RIGHT, 36 * FIX_ONE / PLAYER_SPEED); /* ~36 px: past the key, short of the door */
    CHECK_EQ_I(s->progress.keys[KEY_RED], 1);
    for (int i = 0; i < 300 && s->request.kind == SIM_REQUEST_NONE; i++) sim_tick(s, SIM_IN_RIGHT);
    CHECK_EQ_I(s->progress.keys[KEY_RED], 0); /* used up */
    CHECK(s->door_open[0]);
    CHECK_EQ_I(sim_tile(s, 5, 1), TILE_FLOOR);           /* open: floor in play ... */
    CHECK_EQ_I(level_tile(&s->level, 5, 1), TILE_DOOR); /* ... and the level as it was loaded */
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_VICTORY); /* no 'exit:' line: the run is won */

    /* The wrong colour does not open it. */
    p = write_level("keys2.lvl", "name: Wrong key\nmap:\n#########\n#@r..G.X#\n#########\nend\n");
    s = fresh(p);
    run(s, SIM_IN_RIGHT, 300);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_NONE);
    CHECK_EQ_I(s->player.x, 5 * TILE_FIX - PLAYER_HALF);
    CHECK_EQ_I(s->progress.keys[KEY_RED], 1);
    CHECK(!s->door_open[0]);
    CHECK_EQ_I(sim_tile(s, 5, 1), TILE_DOOR);
}

static void test_pickups(void) {
    const char *p = write_level("pick.lvl", "name: Pickups\nmap:\n##########\n#@$$+b..X#\n##########\nend\n");
    Sim *s = fresh(p);
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS);
    run(s, SIM_IN_RIGHT, 80);
    CHECK_EQ_I(s->progress.coins, 2);
    CHECK_EQ_I(s->progress.keys[KEY_BLUE], 1);
    /* A heart at full health raises the maximum by one. */
    CHECK_EQ_I(s->progress.max_hearts, PLAYER_START_HEARTS + 1);
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS + 1);
    int taken = 0;
    for (int i = 0; i < s->level.pickup_count; i++) taken += s->pickup_taken[i];
    CHECK_EQ_I(taken, 4);
}

static void test_damage_and_death(void) {
    const char *p = write_level("spikes.lvl", "name: Spikes\nmap:\n##################\n#@^^^^^^^^^^^^^^.#\n##################\nend\n");
    Sim *s = fresh(p);
    int hurt_at = -1;
    for (int i = 0; i < 40 && hurt_at < 0; i++) {
        sim_tick(s, SIM_IN_RIGHT);
        if (s->progress.hearts < PLAYER_START_HEARTS) hurt_at = i;
    }
    CHECK(hurt_at >= 0);
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS - 1);
    CHECK(s->player.invuln > 0);
    run(s, SIM_IN_RIGHT, 20); /* still invulnerable: no second hit yet */
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS - 1);
    for (int i = 0; i < 600 && !s->player.dead; i++) sim_tick(s, SIM_IN_RIGHT);
    CHECK(s->player.dead);
    CHECK_EQ_I(s->progress.hearts, 0);
    CHECK_EQ_I(s->progress.deaths, 1);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_DIED);
    int32_t x = s->player.x;
    run(s, SIM_IN_RIGHT, 30); /* the dead do not walk */
    CHECK_EQ_I(s->player.x, x);

    Error err;
    CHECK(sim_restart_level(s, level_arena, &err));
    CHECK(!s->player.dead);
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS);
    CHECK_EQ_I(s->progress.deaths, 1); /* the record is kept */
    CHECK_EQ_I(s->player.x, sim_tile_center(1));
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_NONE);
}

static void test_patroller(void) {
    const char *p = write_level("patrol.lvl", "name: Patrol\nmap:\n##########\n#@########\n##########\n#p.......#\n##########\nend\n");
    Sim *s = fresh(p);
    Enemy *e = &s->enemies[0];
    CHECK_EQ_I(e->kind, ENEMY_PATROLLER);
    int32_t max_x = e->x;
    bool turned = false;
    for (int i = 0; i < 400; i++) {
        sim_tick(s, 0);
        if (e->x > max_x) max_x = e->x;
        if (max_x == 9 * TILE_FIX - ENEMY_HALF && e->x < max_x) turned = true;
    }
    CHECK_EQ_I(max_x, 9 * TILE_FIX - ENEMY_HALF); /* walked to the wall ... */
    CHECK(turned);                                /* ... and back */
    CHECK_EQ_I(sim_tile_of(e->y), 3);
}

static void test_chaser(void) {
    /* It sees the player across water (sight passes, feet do not) and walks round it. */
    const char *p = write_level("chase.lvl",
                                "name: Chase\nmap:\n#########\n#...~...#\n#c..~..@#\n#...~...#\n#.......#\n#########\nend\n");
    Sim *s = fresh(p);
    Enemy *e = &s->enemies[0];
    bool left_row = false;
    int hit_at = -1;
    for (int i = 0; i < 900 && hit_at < 0; i++) {
        sim_tick(s, 0);
        CHECK(level_tile(&s->level, sim_tile_of(e->x), sim_tile_of(e->y)) != TILE_WATER);
        if (sim_tile_of(e->y) == 4) left_row = true;
        if (s->progress.hearts < PLAYER_START_HEARTS) hit_at = i;
    }
    CHECK(left_row);    /* the only way round is the bottom row */
    CHECK(hit_at > 0);  /* and it got there */

    /* Behind a wall it cannot see the player and stays put. */
    p = write_level("blind.lvl", "name: Blind\nmap:\n#########\n#...#...#\n#c..#..@#\n#...#...#\n#########\nend\n");
    s = fresh(p);
    e = &s->enemies[0];
    int32_t x = e->x, y = e->y;
    run(s, 0, 300);
    CHECK_EQ_I(e->x, x);
    CHECK_EQ_I(e->y, y);
    CHECK_EQ_I(e->state, 0);
}

static int alive_bullets(const Sim *s, bool from_player) {
    int n = 0;
    for (int i = 0; i < s->level.bullet_cap; i++)
        n += s->bullets[i].alive && s->bullets[i].from_player == from_player;
    return n;
}

static void test_turret_and_shooting(void) {
    const char *p = write_level("turret.lvl", "name: Turret\nmap:\n##########\n#t......@#\n##########\nend\n");
    Sim *s = fresh(p);
    int ticks_with_shot = 0;
    for (int i = 0; i < 300; i++) {
        sim_tick(s, 0);
        if (alive_bullets(s, false)) ticks_with_shot++;
    }
    CHECK(ticks_with_shot > 0);
    CHECK(s->progress.hearts < PLAYER_START_HEARTS);

    /* With a wall in the way it holds its fire. */
    p = write_level("turret2.lvl", "name: Cover\nmap:\n##########\n#t..#..@.#\n##########\nend\n");
    s = fresh(p);
    for (int i = 0; i < 300; i++) {
        sim_tick(s, 0);
        CHECK_EQ_I(alive_bullets(s, false), 0);
    }

    /* The player shoots back: each hit is reported with the enemy and the hp it has left,
       and enough hits kill, reported after the hit that did it. */
    p = write_level("turret3.lvl", "name: Duel\nmap:\n##########\n#t.....@.#\n##########\nend\n");
    s = fresh(p);
    Enemy *e = &s->enemies[0];
    int32_t hp = e->hp;
    sim_tick(s, SIM_IN_LEFT); /* face it */
    int hits = 0, kills = 0;
    for (int i = 0; i < 400 && e->alive; i++) {
        sim_tick(s, SIM_IN_FIRE);
        const SimEvent *h = event_of(s, SIM_EV_HIT);
        if (!h) continue;
        hits++;
        CHECK_EQ_I(h->index, 0);
        CHECK_EQ_I(h->a, ENEMY_TURRET);
        CHECK_EQ_I(h->b, e->hp);
        CHECK_EQ_I(h->x, e->x);
        const SimEvent *k = event_of(s, SIM_EV_KILL);
        if (k) {
            kills++;
            CHECK(k > h);
            CHECK_EQ_I(k->index, 0);
        }
    }
    CHECK(hp > 1);
    CHECK_EQ_I(hits, hp);
    CHECK_EQ_I(kills, 1);
    CHECK(!e->alive);
    CHECK_EQ_I(s->progress.kills, 1);
}

/* Grace: no turret fires in a level's first TURRET_GRACE_TICKS, and a turret must have had
   the player in sight for TURRET_WARN_TICKS (its visor blinking) before its first shot;
   losing sight disarms it again. */
static void test_turret_grace(void) {
    const char *p = write_level("grace.lvl", "name: Grace\nmap:\n##########\n#t......@#\n##########\nend\n");
    Sim *s = fresh(p);
    Enemy *e = &s->enemies[0];
    uint32_t first_shot = 0;
    for (int i = 0; i < 300 && !first_shot; i++) {
        sim_tick(s, 0);
        if (i == 1) CHECK(sim_turret_aiming(e)); /* in plain sight: the warning starts at once */
        if (alive_bullets(s, false)) first_shot = s->tick;
    }
    CHECK(first_shot >= TURRET_GRACE_TICKS);
    CHECK(first_shot < TURRET_GRACE_TICKS + TURRET_PERIOD); /* grace, not a truce */
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS);

    /* After the grace: the player steps out of cover; the first shot waits for the warning. */
    p = write_level("grace2.lvl", "name: Peek\nmap:\n#########\n#t......#\n#####.###\n#####@###\n#########\nend\n");
    s = fresh(p);
    e = &s->enemies[0];
    run(s, 0, TURRET_GRACE_TICKS + TURRET_PERIOD * 2); /* hidden: grace over, timer run down */
    CHECK(!sim_turret_aiming(e));
    CHECK_EQ_I(alive_bullets(s, false), 0);
    uint32_t seen = 0, shot = 0;
    for (int i = 0; i < 200 && !shot; i++) {
        sim_tick(s, s->player.y > sim_tile_center(1) ? SIM_IN_UP : 0);
        if (!seen && sim_turret_aiming(e)) seen = s->tick;
        if (alive_bullets(s, false)) shot = s->tick;
    }
    CHECK(seen > 0);
    CHECK(shot > 0);
    CHECK(shot - seen >= TURRET_WARN_TICKS);
    CHECK(sim_turret_armed(e));
    /* Back into cover: disarmed, the next first shot will be warned again. */
    for (int i = 0; i < 60; i++) sim_tick(s, SIM_IN_DOWN);
    CHECK(!sim_turret_aiming(e));
    CHECK(!sim_turret_armed(e));
}

/* Strafing: with fire held the facing stays, so you can back away from what you shoot. */
static void test_strafe_keeps_facing(void) {
    const char *p = write_level("strafe.lvl", "name: Strafe\nmap:\n############\n#....@.....#\n############\nend\n");
    Sim *s = fresh(p);
    sim_tick(s, SIM_IN_RIGHT); /* face right */
    CHECK_EQ_I(s->player.facing, FACE_E);
    int32_t x = s->player.x;
    for (int i = 0; i < 20; i++) {
        sim_tick(s, SIM_IN_LEFT | SIM_IN_UP | SIM_IN_FIRE);
        CHECK_EQ_I(s->player.facing, FACE_E);
    }
    CHECK(s->player.x < x); /* it did walk left */
    bool right = false, left = false;
    for (int i = 0; i < s->level.bullet_cap; i++) {
        const Bullet *b = &s->bullets[i];
        if (!b->alive || !b->from_player) continue;
        right |= b->vx > 0;
        left |= b->vx < 0;
    }
    CHECK(right && !left); /* every shot went the way it faced */
    sim_tick(s, SIM_IN_LEFT); /* fire released: it turns again */
    CHECK_EQ_I(s->player.facing, FACE_W);
}

/* Exits and portals fire once the centre is within TRIGGER_SLACK_PX of their tile, not only
   on it; standing at the centre of the tile next to one does not. */
static void test_generous_triggers(void) {
    const char *p = write_level("exitslack.lvl", "name: Slack\nmap:\n########\n#@...X.#\n########\nend\n");
    Sim *s = fresh(p);
    int32_t edge = 5 * TILE_FIX; /* the exit's left edge */
    for (int i = 0; i < 200 && s->request.kind == SIM_REQUEST_NONE; i++) sim_tick(s, SIM_IN_RIGHT);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_VICTORY);
    CHECK(s->player.x < edge);                               /* the centre is not on it yet */
    CHECK(s->player.x >= edge - TRIGGER_SLACK_PX * FIX_ONE); /* but within the slack */

    p = write_level("exitnext.lvl", "name: Next\nmap:\n#####\n#.@X#\n#.^.#\n#####\nend\n");
    s = fresh(p);
    run(s, 0, 30);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_NONE);

    /* A portal, from below: the same slack. */
    write_level("portal-to.lvl", "name: To\nmap:\n####\n#@.#\n####\nend\n");
    p = write_level("portal.lvl", "name: Portal\nmap:\n#####\n#.>.#\n#...#\n#.@.#\n#####\nend\nlink 2 1 portal-to.lvl\n");
    s = fresh(p);
    int32_t bottom = 2 * TILE_FIX; /* the portal's bottom edge */
    for (int i = 0; i < 200 && s->request.kind == SIM_REQUEST_NONE; i++) sim_tick(s, SIM_IN_UP);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_LEVEL);
    CHECK(s->player.y >= bottom);
    CHECK(s->player.y < bottom + TRIGGER_SLACK_PX * FIX_ONE);
}

/* The level-change card: the clear moment keeps the finished level's numbers, and the new
   level does not run while it fades in (its turrets' grace is the player's time). */
static void test_transition(void) {
    write_level("t-next.lvl", "name: Next\nmap:\n#########\n#t.....@#\n#########\nend\n");
    const char *a = write_level("t-first.lvl", "name: First\nexit: t-next.lvl\nmap:\n#######\n#@$$.X#\n#######\nend\n");
    static Game g;
    Error err;
    CHECK(game_init(&g, level_arena, &(GameConfig){.start_level = a, .seed = 3, .skip_title = true}, &err));
    for (int i = 0; i < 300 && g.screen == SCREEN_PLAYING; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.screen, SCREEN_TRANSITION);
    CHECK_EQ_I(g.clear_coins, 2);
    CHECK_EQ_I(g.clear_coins_total, 2);
    CHECK(g.clear_ticks > 0);
    for (int i = 0; i < TRANSITION_TICKS + 5 && g.screen == SCREEN_TRANSITION; i++) game_update(&g, 0);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(strcmp(g.sim.level.name, "Next") == 0);
    CHECK_EQ_U(g.sim.tick, 0); /* nothing ran behind the card */
    CHECK_EQ_I(g.sim.enemies[0].state, 0);
}

static void test_knockback(void) {
    const char *p = write_level("kb.lvl", "name: KB\nmap:\n############\n#@.......p.#\n############\nend\n");
    Sim *s = fresh(p);
    Enemy *e = &s->enemies[0];
    sim_tick(s, SIM_IN_RIGHT);
    bool pushed = false;
    for (int i = 0; i < 120 && !pushed; i++) {
        sim_tick(s, SIM_IN_FIRE);
        if (event_of(s, SIM_EV_HIT)) pushed = e->vx > 0; /* shot from the left: shoved right */
    }
    CHECK(pushed);
}

/* Spikes throw the player back to the middle of the nearest floor tile they can walk to,
   never the way they faced, deeper into the spikes (a 0.12 s tap into the spike beside
   level 3's exit, then no input, must not cost all three hearts in two seconds). Every tap
   (7 ticks) from a floor tile into a spike round that exit, then 5 s of nothing: at most
   one heart, off the spikes, alive, still in the level. */
static void test_spike_knockback(void) {
    const char *p = LEVELS_DIR "/03-spikes-and-water.lvl";
    Sim *s = fresh(p);
    int32_t ex = -1, ey = -1;
    for (int32_t y = 0; y < s->level.height; y++)
        for (int32_t x = 0; x < s->level.width; x++)
            if (level_tile(&s->level, x, y) == TILE_EXIT) ex = x, ey = y;
    REQUIRE_VOID(ex >= 0);
    int cases = 0, worst = 0;
    for (int32_t sy = ey - 1; sy <= ey + 1; sy++)
        for (int32_t sx = ex - 1; sx <= ex + 1; sx++) {
            if (level_tile(&s->level, sx, sy) != TILE_SPIKES) continue;
            for (int d = 0; d < DIR4_COUNT; d++) {
                int32_t fx = sx - DIR4_X[d], fy = sy - DIR4_Y[d]; /* the floor the tap starts on */
                if (level_tile(&s->level, fx, fy) != TILE_FLOOR) continue;
                s = fresh(p);
                s->player.x = sim_tile_center(fx);
                s->player.y = sim_tile_center(fy);
                uint32_t tap = d == DIR4_RIGHT ? SIM_IN_RIGHT : d == DIR4_LEFT ? SIM_IN_LEFT
                               : d == DIR4_DOWN ? SIM_IN_DOWN : SIM_IN_UP;
                bool touched = false;
                for (int i = 0; i < 7; i++) {
                    sim_tick(s, tap);
                    touched |= sim_on_spikes(s, s->player.x, s->player.y);
                }
                run(s, 0, 5 * SIM_HZ);
                int lost = PLAYER_START_HEARTS - s->progress.hearts;
                if (lost > worst) worst = lost;
                cases++;
                CHECK(touched);
                CHECK(lost <= 1);
                CHECK(!s->player.dead);
                CHECK(!sim_on_spikes(s, s->player.x, s->player.y));
                CHECK_EQ_I(s->request.kind, SIM_REQUEST_NONE);
                if (lost > 1 || sim_on_spikes(s, s->player.x, s->player.y))
                    fprintf(stderr, "tap %d from %d %d into %d %d: %d hearts lost, at %d %d\n", d, fx, fy, sx, sy, lost,
                            PXI(s->player.x), PXI(s->player.y));
            }
        }
    CHECK(cases >= 4);
    fprintf(stderr, "spike taps by level 3's exit: %d cases, at most %d heart(s) lost\n", cases, worst);

    /* The push points away from the spike tapped: back the way the tap came. */
    p = write_level("tap.lvl", "name: Tap\nmap:\n#######\n#@..^.#\n#######\nend\n");
    s = fresh(p);
    s->player.x = sim_tile_center(3);
    int32_t hurt_x = 0;
    for (int i = 0; i < 20 && !hurt_x; i++) {
        sim_tick(s, SIM_IN_RIGHT);
        if (event_of(s, SIM_EV_HURT)) hurt_x = s->player.x;
    }
    REQUIRE_VOID(hurt_x);
    CHECK(s->player.kx < 0 && s->player.ky == 0);
    run(s, 0, 60);
    CHECK_EQ_I(s->player.x, sim_tile_center(3)); /* the middle of the tile it stood on, to the unit */
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS - 1);

    /* Fully inside a strip or a field of spikes: out the nearest way, one heart. */
    static const struct {
        const char *map;
        int x, y, out_x, out_y; /* where the player stands, and where the spikes throw it */
    } deep[] = {
        {"#########\n#@.^^^..#\n#########\n", 4, 1, 6, 1}, /* a strip, a tie: the search looks right first */
        {"#########\n#@.^^^^.#\n#########\n", 5, 1, 7, 1}, /* a strip: the nearer end */
        {"#######\n#.....#\n#.^^^.#\n#.^^^.#\n#.^^^.#\n#.....#\n#@....#\n#######\n", 3, 3, 5, 3},
        /* The floor behind the wall is nearer as the crow flies, but the push goes the way
           the feet would: up and out. */
        {"#########\n#@......#\n#.^^^^#.#\n#.^^^^#.#\n#.^^^^#.#\n#########\n", 5, 4, 5, 1},
        {"#########\n#@......#\n#.^^^^#.#\n#.^^^^#.#\n#.^^^^#.#\n#########\n", 2, 2, 1, 2}, /* the nearest */
    };
    for (size_t k = 0; k < sizeof deep / sizeof deep[0]; k++) {
        char text[256];
        snprintf(text, sizeof text, "name: Deep\nmap:\n%send\n", deep[k].map);
        s = fresh(write_level("deep.lvl", text));
        s->player.x = sim_tile_center(deep[k].x);
        s->player.y = sim_tile_center(deep[k].y);
        int32_t rx = 0, ry = 0;
        CHECK(sim_spike_refuge(s, s->player.x, s->player.y, &rx, &ry));
        CHECK_EQ_I(rx, sim_tile_center(deep[k].out_x));
        CHECK_EQ_I(ry, sim_tile_center(deep[k].out_y));
        run(s, 0, 3 * SIM_HZ);
        CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS - 1);
        CHECK(!sim_on_spikes(s, s->player.x, s->player.y));
        CHECK_EQ_I(sim_tile_of(s->player.x), deep[k].out_x);
        CHECK_EQ_I(sim_tile_of(s->player.y), deep[k].out_y);
    }
    /* Nowhere to go: no push, and the spikes do what spikes do. */
    s = fresh(write_level("all.lvl", "name: All\nmap:\n#########\n#@^^^^^^#\n#########\nend\nentry mid 7 1\n"));
    s->player.x = sim_tile_center(7);
    int32_t rx, ry;
    CHECK(!sim_spike_refuge(s, s->player.x, s->player.y, &rx, &ry)); /* the start is 6 tiles away */
    sim_tick(s, 0);
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS - 1);
    CHECK(s->player.kx == 0 && s->player.ky == 0);
}

/* The opaque box of sprite cells [first, first + n) of sprites.png drawn with their top-left
   at (-ox, -oy) from the actor's centre: the union of the cells' boxes, or their
   intersection. */
static SimBox opaque_box(const uint8_t *px, int w, int first, int n, int ox, int oy, bool intersect) {
    SimBox u = {99, 99, -99, -99}, in = {-99, -99, 99, 99};
    for (int c = first; c < first + n; c++) {
        int cx = c % ATLAS_COLS * SPRITE_CELL, cy = c / ATLAS_COLS * SPRITE_CELL;
        SimBox b = {99, 99, -99, -99};
        for (int y = 0; y < SPRITE_CELL; y++)
            for (int x = 0; x < SPRITE_CELL; x++) {
                if (px[((size_t)(cy + y) * (size_t)w + (size_t)(cx + x)) * 4 + 3] != 255) continue;
                b.x0 = MIN(b.x0, x - ox), b.y0 = MIN(b.y0, y - oy);
                b.x1 = MAX(b.x1, x - ox + 1), b.y1 = MAX(b.y1, y - oy + 1);
            }
        u = (SimBox){MIN(u.x0, b.x0), MIN(u.y0, b.y0), MAX(u.x1, b.x1), MAX(u.y1, b.y1)};
        in = (SimBox){MAX(in.x0, b.x0), MAX(in.y0, b.y0), MIN(in.x1, b.x1), MIN(in.y1, b.y1)};
    }
    return intersect ? in : u;
}

static bool box_eq(SimBox a, SimBox b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }

/* Contact is what the player sees: an enemy that visibly overlaps the player hurts (a 9 px
   square reach would not, while the sprites meet at 12 to 13 px). The bodies are the
   sprites' opaque pixels, measured
   here again from assets/sprites.png as draw.c places them; an overlap of a pixel or more
   hurts, touching or a gap does not, from every side. */
static void test_enemy_contact(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "sprites"});
    uint8_t *px = NULL;
    int w = 0, h = 0;
    Error aerr;
    REQUIRE_VOID(st_asset_load_rgba(a, LEVELS_DIR "/../assets/sprites.png", &px, &w, &h, &aerr));
    /* draw.c: enemies at centre - (8, 8), the player at centre - (8, 10). */
    static const int first[ENEMY_KIND_COUNT] = {SPR_PATROLLER, SPR_CHASER, SPR_TURRET};
    for (int k = 0; k < ENEMY_KIND_COUNT; k++)
        CHECK(box_eq(ENEMY_BODY[k], opaque_box(px, w, first[k], ENEMY_FRAMES, 8, 8, false)));
    CHECK(box_eq(PLAYER_BODY, opaque_box(px, w, SPR_PLAYER, FACING_COUNT * PLAYER_FRAMES, 8, 10, true)));
    st_arena_release(a);

    /* The rule itself, for every kind and side: the player's body moved `gap` pixels clear of
       the enemy's (negative: overlapping). */
    const SimBox pb = PLAYER_BODY;
    for (int k = 0; k < ENEMY_KIND_COUNT; k++) {
        const SimBox eb = ENEMY_BODY[k];
        Enemy e = {.x = 100 * FIX_ONE, .y = 100 * FIX_ONE, .kind = (EnemyKind)k, .alive = 1};
        for (int gap = -3; gap <= 2; gap++) {
            int32_t g = gap * FIX_ONE;
            int32_t left = e.x + (eb.x0 - pb.x1) * FIX_ONE - g, right = e.x + (eb.x1 - pb.x0) * FIX_ONE + g;
            int32_t above = e.y + (eb.y0 - pb.y1) * FIX_ONE - g, below = e.y + (eb.y1 - pb.y0) * FIX_ONE + g;
            bool hurts = gap < 0;
            CHECK(sim_enemy_touches(&e, left, e.y, 0) == hurts);
            CHECK(sim_enemy_touches(&e, right, e.y, 0) == hurts);
            CHECK(sim_enemy_touches(&e, e.x, above, 0) == hurts);
            CHECK(sim_enemy_touches(&e, e.x, below, 0) == hurts);
            CHECK(sim_enemy_touches(&e, left, e.y, FIX_ONE * MAX(0, gap + 1))); /* a margin reaches over a gap */
        }
        /* One row apart (a walkway beside a patrol) is no contact, above or below. */
        CHECK(!sim_enemy_touches(&e, e.x, e.y + TILE_FIX, 0));
        CHECK(!sim_enemy_touches(&e, e.x, e.y - TILE_FIX, 0));
        /* Where the old 9 px reach let sprites overlap unharmed: side by side at 11 px. */
        CHECK(sim_enemy_touches(&e, e.x - 11 * FIX_ONE, e.y, 0));
    }

    /* In play, with a turret (it stands still): a pixel of overlap costs a heart on the next
       tick, touching costs nothing, from each side. */
    const char *p = write_level("contact.lvl",
                                "name: Contact\nmap:\n#########\n#@......#\n#...t...#\n#.......#\n#########\nend\n");
    for (int side = 0; side < 4; side++)
        for (int overlap = 0; overlap <= 2; overlap++) {
            Sim *s = fresh(p);
            const Enemy *t = &s->enemies[0];
            const SimBox tb = ENEMY_BODY[ENEMY_TURRET];
            int32_t o = overlap * FIX_ONE;
            s->player.x = t->x, s->player.y = t->y;
            if (side == 0) s->player.x = t->x + (tb.x0 - pb.x1) * FIX_ONE + o;
            if (side == 1) s->player.x = t->x + (tb.x1 - pb.x0) * FIX_ONE - o;
            if (side == 2) s->player.y = t->y + (tb.y0 - pb.y1) * FIX_ONE + o;
            if (side == 3) s->player.y = t->y + (tb.y1 - pb.y0) * FIX_ONE - o;
            sim_tick(s, 0);
            CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS - (overlap > 0));
        }
}

/* Every level starts with full hearts, so that damage never carries into the next level
   while a retry would refill them: by exit, by portal, on a restart; a larger maximum
   (a heart picked up at full health) carries over, and a new run starts from scratch. */
static void test_hearts_each_level(void) {
    write_level("h-c.lvl", "name: C\nmap:\n#####\n#@..#\n#####\nend\nentry in 3 1\n");
    write_level("h-b.lvl", "name: B\nmap:\n########\n#@.^..>#\n########\nend\nlink 6 1 h-c.lvl in\n");
    const char *a = write_level("h-a.lvl", "name: A\nexit: h-b.lvl\nmap:\n##########\n#@+.^...X#\n##########\nend\n");
    Sim *s = fresh(a);
    Error err;
    CHECK(sim_start_run(s, level_arena, a, &err));
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS);
    for (int i = 0; i < 400 && s->request.kind == SIM_REQUEST_NONE; i++) sim_tick(s, SIM_IN_RIGHT);
    CHECK_EQ_I(s->progress.max_hearts, PLAYER_START_HEARTS + 1); /* the heart at full health */
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS);         /* then the spikes */
    REQUIRE_VOID(s->request.kind == SIM_REQUEST_LEVEL);
    CHECK(sim_follow_request(s, level_arena, &err)); /* by the exit */
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS + 1);
    CHECK_EQ_I(s->progress.max_hearts, PLAYER_START_HEARTS + 1);
    for (int i = 0; i < 400 && s->request.kind == SIM_REQUEST_NONE; i++) sim_tick(s, SIM_IN_RIGHT);
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS);
    REQUIRE_VOID(s->request.kind == SIM_REQUEST_LEVEL);
    CHECK(sim_follow_request(s, level_arena, &err)); /* by the portal */
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS + 1);
    /* A restart after damage: full again, as entered. */
    s->progress.hearts = 1;
    CHECK(sim_restart_level(s, level_arena, &err));
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS + 1);
    CHECK_EQ_I(s->progress_entry.hearts, s->progress.max_hearts);
    /* A new run: the start's hearts, not the last run's maximum. */
    CHECK(sim_start_run(s, level_arena, a, &err));
    CHECK_EQ_I(s->progress.hearts, PLAYER_START_HEARTS);
    CHECK_EQ_I(s->progress.max_hearts, PLAYER_START_HEARTS);
}

/* The sign the player stands near: within SIGN_NEAR_PX of its tile centre, the nearest one,
   none when dead. Signs are not solid. */
static void test_sign_near(void) {
    const char *p = write_level("signs.lvl", "name: Signs\nmap:\n##########\n#@.......#\n#..^^^^^^#\n##########\nend\n"
                                             "sign 2 1 Hello there.\nsign 5 1 Second: 100% sure, (no) #comment\n"
                                             "sign 4 1 Third\n");
    Sim *s = fresh(p);
    REQUIRE_VOID(s->level.sign_count == 3);
    CHECK(strcmp(s->level.signs[1].text.data, "Second: 100% sure, (no)") == 0);
    CHECK_EQ_I(sim_sign_near(s), 0); /* 16 px from the start */
    s->player.x = sim_tile_center(2) + TILE_FIX / 2; /* 8 px from the sign at column 2 */
    CHECK_EQ_I(sim_sign_near(s), 0);
    s->player.x = sim_tile_center(3) + TILE_FIX / 2; /* 8 px from column 4's, 24 from column 2's */
    CHECK_EQ_I(sim_sign_near(s), 2);
    s->player.x = sim_tile_center(4) + TILE_FIX / 2; /* 8 px from columns 4 and 5: the lower index */
    CHECK_EQ_I(sim_sign_near(s), 1);
    s->player.x = sim_tile_center(5) + SIGN_NEAR_PX * FIX_ONE;
    CHECK_EQ_I(sim_sign_near(s), 1);                 /* at the edge */
    s->player.x += 1;
    CHECK_EQ_I(sim_sign_near(s), -1);                /* past it */
    s->player.x = sim_tile_center(1);
    s->player.y = sim_tile_center(1);
    run(s, SIM_IN_RIGHT, 60);                        /* walks over them: not solid */
    CHECK(s->player.x > sim_tile_center(5));
    CHECK_EQ_I(s->player.y, sim_tile_center(1));
    s->player.x = sim_tile_center(4);
    s->player.dead = true;
    CHECK_EQ_I(sim_sign_near(s), -1);
}

static void test_pools(void) {
    const char *p = write_level("pool.lvl", "name: Pool\nbullets: 4\nmap:\n#####\n#@..#\n#####\nend\n");
    Sim *s = fresh(p);
    CHECK_EQ_I(s->level.bullet_cap, 4);
    for (int i = 0; i < 4; i++) CHECK(sim_spawn_bullet(s, i * 100, 0, 0, 0, 100, true) != NULL);
    CHECK(sim_spawn_bullet(s, 999, 0, 0, 0, 100, true) == NULL); /* full: dropped */
    CHECK_EQ_U(s->bullets_dropped, 1);
    for (int i = 0; i < 4; i++) CHECK_EQ_I(s->bullets[i].x, i * 100); /* untouched */

    /* Firing into a full pool in play never overflows: 4 live bullets at most. Down a long
       corridor a bullet lives BULLET_TTL ticks and a new one leaves every cooldown, so more
       would be in flight than the pool holds: it fills, and the rest are dropped. */
    p = write_level("range.lvl", "name: Range\nbullets: 4\nmap:\n" "##################################################\n"
                                 "#@...............................................#\n"
                                 "##################################################\nend\n");
    s = fresh(p);
    _Static_assert(BULLET_TTL / PLAYER_FIRE_COOLDOWN > 4, "the corridor test needs more bullets in flight than 4");
    sim_tick(s, SIM_IN_RIGHT); /* face down the corridor */
    int most = 0;
    for (int i = 0; i < 200; i++) {
        sim_tick(s, SIM_IN_FIRE);
        int n = alive_bullets(s, true);
        CHECK(n <= 4);
        if (n > most) most = n;
    }
    CHECK_EQ_I(most, 4);
    CHECK(s->bullets_dropped > 0);
}

static void test_level_change_by_value(void) {
    write_level("b.lvl", "name: Level B\nmap:\n#######\n#@....#\n#.....#\n#######\nend\nentry arrive 4 2\n");
    const char *a = write_level("a.lvl", "name: Level A\nmap:\n########\n#@$r.>.#\n########\nend\nlink 5 1 b.lvl arrive\n");
    Sim *s = fresh(a);
    for (int i = 0; i < 200 && s->request.kind == SIM_REQUEST_NONE; i++) sim_tick(s, SIM_IN_RIGHT);
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_LEVEL);
    CHECK(strstr(s->request.path, "b.lvl") != NULL);
    CHECK(strcmp(s->request.entry, "arrive") == 0);
    PlayerProgress before = s->progress;
    CHECK_EQ_I(before.coins, 1);
    CHECK_EQ_I(before.keys[KEY_RED], 1);

    /* Everything in the level arena is now garbage. What the Sim keeps about the player and
       the request must not care. */
    st_arena_clear(level_arena);
    uint64_t cap = st_arena_capacity(level_arena);
    void *junk = st_arena_push(level_arena, cap / 2, 8);
    CHECK(junk != NULL);
    if (junk) memset(junk, 0xA5, cap / 2);
    Error err;
    CHECK(sim_follow_request(s, level_arena, &err));
    CHECK(memcmp(&before, &s->progress, sizeof before) == 0);
    CHECK(strcmp(s->level.name, "Level B") == 0);
    CHECK_EQ_I(s->player.x, sim_tile_center(4));
    CHECK_EQ_I(s->player.y, sim_tile_center(2));
    CHECK_EQ_I(s->request.kind, SIM_REQUEST_NONE);
    CHECK_EQ_I(s->progress.levels_completed, 1);
    run(s, SIM_IN_LEFT, 10); /* and it plays */
    CHECK(s->player.x < sim_tile_center(4));
}

static void test_failed_load_keeps_level(void) {
    write_level("broken.lvl", "name: Broken\nmap:\n#####\n#@.Z#\n#####\nend\n");
    const char *a = write_level("c.lvl", "name: Level C\nexit: broken.lvl\nmap:\n#######\n#@$..X#\n#######\nend\n");
    static Game g;
    Error err;
    CHECK(game_init(&g, level_arena, &(GameConfig){.start_level = a, .seed = 3, .skip_title = true}, &err));
    for (int i = 0; i < 300 && g.screen == SCREEN_PLAYING; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.screen, SCREEN_TRANSITION);
    const uint8_t *tiles = g.sim.level.tiles;
    /* The failure is reported (core/diag.h), naming the broken file where it breaks. */
    Arena *reports = st_arena_create((ArenaParams){.name = "reports"});
    DiagCapture cap;
    st_diag_capture_begin(&cap, reports);
    for (int i = 0; i < TRANSITION_OUT_TICKS + 5 && g.screen == SCREEN_TRANSITION; i++) game_update(&g, 0);
    st_diag_capture_end(&cap);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK_EQ_U(g.load_failures, 1);
    CHECK_EQ_U(cap.of[DIAG_ERROR], 1);
    const Diag *d = cap.first ? &cap.first->d : &(Diag){0};
    CHECK(d->path && d->path_len > 10 && memcmp(d->path + d->path_len - 10, "broken.lvl", 10) == 0);
    CHECK(d->line == 4 && d->col == 4);
    CHECK(strstr(d->text, "broken.lvl:4:4: error: ") != NULL);
    st_arena_release(reports);
    CHECK(strcmp(g.sim.level.name, "Level C") == 0);
    CHECK(g.sim.level.tiles == tiles);
    CHECK_EQ_I(level_tile(&g.sim.level, 5, 1), TILE_EXIT);
    CHECK_EQ_I(g.sim.progress.coins, 1);
    CHECK_EQ_I(g.sim.progress.levels_completed, 0);
    /* Standing on the exit does not retry at once; walking off and back on does. */
    game_update(&g, 0);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    for (int i = 0; i < 30; i++) game_update(&g, SIM_IN_LEFT);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    for (int i = 0; i < 60 && g.screen == SCREEN_PLAYING; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.screen, SCREEN_TRANSITION);
}

static void test_screens(void) {
    const char *a = write_level("d.lvl", "name: Level D\nmap:\n#######\n#@...X#\n#######\nend\n");
    static Game g;
    Error err;
    CHECK(game_init(&g, level_arena, &(GameConfig){.start_level = a, .seed = 3}, &err));
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
    game_update(&g, GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    game_update(&g, GAME_IN_PAUSE);
    CHECK_EQ_I(g.screen, SCREEN_PAUSED);
    int32_t x = g.sim.player.x;
    for (int i = 0; i < 20; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.sim.player.x, x); /* paused: the world waits (the menu moved instead) */
    game_update(&g, GAME_IN_PAUSE);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    for (int i = 0; i < 20; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK(g.sim.player.x > x);
    game_update(&g, GAME_IN_RESTART);
    CHECK_EQ_I(g.sim.player.x, x);
    for (int i = 0; i < 200 && g.screen == SCREEN_PLAYING; i++) game_update(&g, SIM_IN_RIGHT);
    CHECK_EQ_I(g.screen, SCREEN_VICTORY);
    /* Pause menu: up (wrapping) to the last row, confirm = back to the title, not quit. */
    CHECK(game_init(&g, level_arena, &(GameConfig){.start_level = a, .seed = 3, .skip_title = true}, &err));
    game_update(&g, GAME_IN_PAUSE);
    game_update(&g, SIM_IN_UP);
    game_update(&g, 0);
    CHECK_EQ_I(g.menu, PAUSE_TITLE);
    game_update(&g, GAME_IN_CONFIRM);
    CHECK(!g.quit);
    CHECK_EQ_I(g.screen, SCREEN_TITLE);
}

/* Every rule reports what it did, where, with its payload (sim.h's table); the list is the
   last tick's only, and a level load starts it afresh with the arrival. */
static void test_events(void) {
    /* Walking right: a coin, a red key, the red door, the exit. */
    const char *p = write_level("ev-walk.lvl", "name: Walk\nmap:\n##########\n#@$r.R..X#\n##########\nend\n");
    Sim *s = fresh(p);
    CHECK_EQ_I(s->events.count, 1);
    CHECK_EQ_I(s->events.list[0].kind, SIM_EV_LEVEL);
    CHECK_EQ_I(s->events.list[0].a, SIM_LEVEL_ENTER);
    CHECK_EQ_I(s->events.list[0].x, s->player.x);
    uint32_t serial = s->events.serial;
    int seen[SIM_EV_KIND_COUNT] = {0};
    for (int i = 0; i < 300 && s->request.kind == SIM_REQUEST_NONE; i++) {
        sim_tick(s, SIM_IN_RIGHT);
        CHECK_EQ_U(s->events.serial, serial + 1 + (uint32_t)i); /* one fresh list per tick */
        for (int32_t k = 0; k < s->events.count; k++) {
            const SimEvent *e = &s->events.list[k];
            seen[e->kind]++;
            if (e->kind == SIM_EV_PICKUP) {
                const Pickup *pk = &s->level.pickups[e->index];
                CHECK(s->pickup_taken[e->index]);
                CHECK_EQ_I(e->a, pk->kind);
                CHECK_EQ_I(e->x, sim_tile_center(pk->tx));
                CHECK_EQ_I(e->y, sim_tile_center(pk->ty));
                if (pk->kind == PICKUP_KEY) CHECK_EQ_I(e->b, KEY_RED);
            } else if (e->kind == SIM_EV_DOOR) {
                CHECK_EQ_I(e->index, 0);
                CHECK_EQ_I(e->a, KEY_RED);
                CHECK_EQ_I(e->x, sim_tile_center(5));
                CHECK(s->door_open[0]);
            } else if (e->kind == SIM_EV_EXIT) {
                CHECK_EQ_I(e->a, SIM_REQUEST_VICTORY);
                CHECK_EQ_I(e->x, s->player.x);
            }
        }
    }
    CHECK_EQ_I(seen[SIM_EV_PICKUP], 2);
    CHECK_EQ_I(seen[SIM_EV_DOOR], 1);
    CHECK_EQ_I(seen[SIM_EV_EXIT], 1);
    CHECK_EQ_I(seen[SIM_EV_HURT] + seen[SIM_EV_HIT] + seen[SIM_EV_SHOT] + seen[SIM_EV_LEVEL], 0);

    /* A shot at the muzzle, facing its way; its bullet stops at the wall. */
    p = write_level("ev-shot.lvl", "name: Shot\nmap:\n#######\n#@....#\n#######\nend\n");
    s = fresh(p);
    sim_tick(s, SIM_IN_RIGHT); /* face right: with fire held it would keep facing down */
    sim_tick(s, SIM_IN_FIRE);
    const SimEvent *e = event_of(s, SIM_EV_SHOT);
    REQUIRE_VOID(e);
    CHECK_EQ_I(e->a, FACE_E);
    CHECK(e->x > s->player.x && e->y == s->player.y);
    int walls = 0;
    for (int i = 0; i < 60; i++) {
        sim_tick(s, 0);
        if ((e = event_of(s, SIM_EV_WALL)) != NULL) {
            walls++;
            CHECK_EQ_I(e->a, 1);
            CHECK(e->x < 6 * TILE_FIX && e->x > 5 * TILE_FIX - BULLET_SPEED);
        }
    }
    CHECK_EQ_I(walls, 1);
    CHECK_EQ_I(alive_bullets(s, true), 0);

    /* Spikes: a hurt per heart with the hearts left, then the death after the last one. */
    p = write_level("ev-spikes.lvl", "name: Spikes\nmap:\n##################\n#@^^^^^^^^^^^^^^.#\n##################\nend\n");
    s = fresh(p);
    int hurts = 0, deaths = 0;
    for (int i = 0; i < 600 && !s->player.dead; i++) {
        sim_tick(s, SIM_IN_RIGHT);
        if ((e = event_of(s, SIM_EV_HURT)) != NULL) {
            hurts++;
            CHECK_EQ_I(e->a, s->progress.hearts);
            CHECK_EQ_I(e->x, s->player.x);
        }
        const SimEvent *d = event_of(s, SIM_EV_DEATH);
        if (d) {
            deaths++;
            CHECK(e && d > e);
        }
    }
    CHECK_EQ_I(hurts, PLAYER_START_HEARTS);
    CHECK_EQ_I(deaths, 1);
    Error err;
    CHECK(sim_restart_level(s, level_arena, &err));
    CHECK_EQ_I(s->events.count, 1);
    CHECK_EQ_I(s->events.list[0].kind, SIM_EV_LEVEL);
    CHECK_EQ_I(s->events.list[0].a, SIM_LEVEL_RESTART);
    CHECK(sim_start_run(s, level_arena, p, &err));
    CHECK_EQ_I(s->events.list[0].a, SIM_LEVEL_RUN);
    /* A failed load reports nothing: the level, and its list, are as they were. */
    serial = s->events.serial;
    CHECK(!sim_load_level(s, level_arena, "/nonexistent/x.lvl", NULL, &err));
    CHECK_EQ_U(s->events.serial, serial);
    CHECK_EQ_I(s->events.count, 1);

    /* A turret's shot, from its muzzle, with its index. */
    p = write_level("ev-turret.lvl", "name: Turret\nmap:\n##########\n#.t.....@#\n##########\nend\n");
    s = fresh(p);
    int shots = 0;
    for (int i = 0; i < 200; i++) {
        sim_tick(s, 0);
        if ((e = event_of(s, SIM_EV_ENEMY_SHOT)) == NULL) continue;
        shots++;
        CHECK_EQ_I(e->index, 0);
        CHECK_EQ_I(e->a, ENEMY_TURRET);
        CHECK(e->x > s->enemies[0].x && e->x < s->enemies[0].x + TILE_FIX);
    }
    CHECK(shots >= 1);

    /* A full list keeps the first SIM_EVENT_MAX events and counts the rest: 100 bullets
       that all stop at the wall in the same tick. The rules go on regardless. */
    p = write_level("ev-many.lvl", "name: Many\nbullets: 128\nmap:\n#####\n#@..#\n#####\nend\n");
    s = fresh(p);
    for (int i = 0; i < 100; i++) CHECK(sim_spawn_bullet(s, 3 * TILE_FIX + TILE_FIX / 2, sim_tile_center(1), TILE_FIX, 0, 50, false));
    uint64_t before = sim_hash(s);
    sim_tick(s, 0);
    CHECK_EQ_I(s->events.count, SIM_EVENT_MAX);
    CHECK_EQ_I(events_of(s, SIM_EV_WALL), SIM_EVENT_MAX);
    CHECK_EQ_U(s->events.dropped, 100 - SIM_EVENT_MAX);
    CHECK_EQ_I(alive_bullets(s, false), 0);
    CHECK(sim_hash(s) != before);
}

/* Stretches of 37 ticks: right with `fire` held (the facing stays), down, right (it turns). */
static uint32_t pattern(int i, uint32_t fire) {
    int k = (i / 37) % 3;
    return k == 0 ? SIM_IN_RIGHT | fire : k == 1 ? SIM_IN_DOWN : SIM_IN_RIGHT;
}

static void test_determinism(void) {
    const char *p = LEVELS_DIR "/05-the-hunt.lvl";
    /* The run ends 5 ticks into a stretch of firing right, with the shots in flight. */
    enum { TICKS = 37 * 3 + 5 };
    uint64_t h[2];
    for (int k = 0; k < 2; k++) {
        Sim *s = fresh(p);
        for (int i = 0; i < TICKS; i++) sim_tick(s, pattern(i, SIM_IN_FIRE));
        h[k] = sim_hash(s);
        CHECK(alive_bullets(s, true) > 0);
    }
    CHECK_EQ_U(h[0], h[1]);
    Sim *s = fresh(p);
    for (int i = 0; i < TICKS; i++) sim_tick(s, pattern(i, 0));
    CHECK(sim_hash(s) != h[0]); /* the hash does see the difference firing makes: the bullets */
}

/* The camera snaps on a level change, also when the level is reloaded (R, or "try again"
   after a game over) into the very same level-arena addresses: a DrawView must notice the
   change by the Sim's serial, not by a pointer into the arena it outlived. */
static void test_restart_snaps_camera(void) {
    const char *a = write_level("wide.lvl", "name: Wide\nmap:\n"
                                            "##################################################\n"
                                            "#@...............................................#\n"
                                            "##################################################\n"
                                            "end\n");
    static Game g;
    Error err;
    CHECK(game_init(&g, level_arena, &(GameConfig){.start_level = a, .seed = 3, .skip_title = true}, &err));
    DrawView v = draw_view_make(480, 270);
    draw_view_update(&v, &g);
    CHECK(v.cam.pos[0] == 0.0f); /* snapped to the left edge of the level */
    uint32_t serial = g.sim.level_serial;
    for (int i = 0; i < 240; i++) {
        game_update(&g, SIM_IN_RIGHT);
        draw_view_update(&v, &g);
    }
    CHECK(v.cam.pos[0] > 100.0f); /* followed the player right */
    const uint8_t *tiles = g.sim.level.tiles;
    game_update(&g, GAME_IN_RESTART);
    CHECK(g.sim.level.tiles == tiles); /* the same file lands at the same address ... */
    CHECK(g.sim.level_serial != serial); /* ... yet it is a level change */
    draw_view_update(&v, &g);
    CHECK(v.cam.pos[0] == 0.0f); /* a snap back, not a slide */
    /* A failed load is no level change: the serial stays. */
    serial = g.sim.level_serial;
    CHECK(!sim_load_level(&g.sim, level_arena, "/nonexistent/x.lvl", NULL, &err));
    CHECK_EQ_U(g.sim.level_serial, serial);
    /* Starting a run from the title reloads the first level too, through sim_init. */
    CHECK(game_init(&g, level_arena, &(GameConfig){.start_level = a, .seed = 3}, &err));
    serial = g.sim.level_serial;
    game_update(&g, GAME_IN_CONFIRM);
    CHECK_EQ_I(g.screen, SCREEN_PLAYING);
    CHECK(g.sim.level_serial != serial);
}

/* The Level is what was loaded, and play never writes it: doors opened, keys and coins
   taken, enemies shot dead and moved, bullets in flight all live in the Sim's runtime state.
   The level's bytes after a busy stretch are the bytes after the load. */
static void test_level_stays_as_loaded(void) {
    const char *p = write_level("const.lvl", "name: Const\nmap:\n############\n#@$r.R.p..t#\n#..........#\n############\nend\n"
                                             "enemy 7 1 hp=1\n");
    Sim *s = fresh(p);
    const Level *lv = &s->level;
    uint64_t n_tiles = (uint64_t)lv->width * (uint64_t)lv->height;
    static uint8_t tiles[64];
    static EnemySpawn enemies[4];
    static Pickup pickups[4];
    static LevelDoor doors[4];
    REQUIRE_VOID(n_tiles <= sizeof tiles && lv->enemy_count <= 4 && lv->pickup_count <= 4 && lv->door_count <= 4);
    memcpy(tiles, lv->tiles, n_tiles);
    memcpy(enemies, lv->enemies, sizeof(EnemySpawn) * (size_t)lv->enemy_count);
    memcpy(pickups, lv->pickups, sizeof(Pickup) * (size_t)lv->pickup_count);
    memcpy(doors, lv->doors, sizeof(LevelDoor) * (size_t)lv->door_count);
    Level shallow = *lv;
    for (int i = 0; i < 400 && s->request.kind == SIM_REQUEST_NONE; i++) sim_tick(s, i % 3 ? SIM_IN_RIGHT : SIM_IN_FIRE);
    /* It was a busy stretch ... */
    CHECK(s->door_open[0]);
    CHECK(s->pickup_taken[0] && s->pickup_taken[1]);
    CHECK(!s->enemies[0].alive);
    /* ... and the level is as loaded. */
    CHECK(memcmp(&shallow, lv, sizeof shallow) == 0);
    CHECK(memcmp(tiles, lv->tiles, n_tiles) == 0);
    CHECK(memcmp(enemies, lv->enemies, sizeof(EnemySpawn) * (size_t)lv->enemy_count) == 0);
    CHECK(memcmp(pickups, lv->pickups, sizeof(Pickup) * (size_t)lv->pickup_count) == 0);
    CHECK(memcmp(doors, lv->doors, sizeof(LevelDoor) * (size_t)lv->door_count) == 0);
    CHECK_EQ_I(level_tile(lv, 5, 1), TILE_DOOR);
}

/* An enemy without an `enemy ... hp=` line has its kind's hit points, which are the
   simulation's tunables; one with a line has the line's. */
static void test_default_hp(void) {
    const char *p = write_level("hp.lvl", "name: HP\nmap:\n########\n#@.pct.#\n#.....p#\n########\nend\nenemy 6 2 hp=7\n");
    Sim *s = fresh(p);
    REQUIRE_VOID(s->level.enemy_count == 4);
    CHECK_EQ_I(s->level.enemies[0].hp, 0); /* the file gave none */
    CHECK_EQ_I(s->enemies[0].hp, PATROLLER_HP);
    CHECK_EQ_I(s->enemies[1].hp, CHASER_HP);
    CHECK_EQ_I(s->enemies[2].hp, TURRET_HP);
    CHECK_EQ_I(s->enemies[3].hp, 7);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_I(s->enemies[i].hp, sim_enemy_hp(&s->level.enemies[i]));
        CHECK(s->enemies[i].alive && s->enemies[i].kind == s->level.enemies[i].kind);
        CHECK_EQ_I(s->enemies[i].x, sim_tile_center(s->level.enemies[i].tx));
        CHECK_EQ_I(s->enemies[i].y, sim_tile_center(s->level.enemies[i].ty));
    }
}

/* The runtime state is measured with the level: what a load takes is the level plus
   sim_runtime_bytes, to the byte; a level whose runtime state does not fit fails at load
   time with the arena-full message, and the running level keeps running. */
static void test_runtime_fits(void) {
    const char *small =
        write_level("fit-small.lvl", "name: Small\nbullets: 8\nparticles: 8\nmap:\n#####\n#@.p#\n#####\nend\n");
    const char *big =
        write_level("fit-big.lvl", "name: Big\nbullets: 4096\nparticles: 8\nmap:\n#####\n#@.p#\n#####\nend\n");
    Arena *probe = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Level alone;
    Error err;
    REQUIRE_VOID(level_load(&alone, probe, small, &err));
    uint64_t level_only = alone.arena_bytes;
    st_arena_release(probe);

    static Sim s;
    sim_init(&s, 1);
    /* An arena of exactly what the small level and its runtime state need. */
    Arena *arena = NULL;
    {
        Arena *wide = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
        REQUIRE_VOID(sim_load_level(&s, wide, small, NULL, &err));
        uint64_t need = s.level.arena_bytes;
        CHECK_EQ_U(need, st_arena_pos(wide));
        CHECK(need >= level_only + sim_runtime_bytes(&s.level));
        CHECK(need < level_only + sim_runtime_bytes(&s.level) + LEVEL_ROOM_ALIGN);
        st_arena_release(wide);
        arena = st_arena_create((ArenaParams){.reserve_size = need, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
        REQUIRE_VOID(arena && st_arena_capacity(arena) == need);
    }
    sim_init(&s, 1);
    REQUIRE_VOID(sim_load_level(&s, arena, small, NULL, &err));
    CHECK_EQ_U(st_arena_pos(arena), st_arena_capacity(arena));
    run(&s, SIM_IN_RIGHT, 5);
    uint64_t hash = sim_hash(&s);
    uint32_t serial = s.level_serial;
    /* The big level is the same map with a larger bullet pool: only its runtime state grew. */
    CHECK(!sim_load_level(&s, arena, big, NULL, &err));
    CHECK(strstr(err.message, "level does not fit: arena 'level' full") != NULL);
    CHECK_EQ_U(sim_hash(&s), hash);
    CHECK_EQ_U(s.level_serial, serial);
    CHECK(strcmp(s.level.name, "Small") == 0);
    int32_t x = s.player.x;
    run(&s, SIM_IN_LEFT, 5); /* and it plays on */
    CHECK(s.player.x < x);
    st_arena_release(arena);

    /* levelcheck's figure (level_load_ex with sim_runtime_bytes as the room) is the game's. */
    const char *vault = LEVELS_DIR "/07-the-vault.lvl";
    Arena *a1 = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    Arena *a2 = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    LevelLoadStats st;
    Level lv;
    CHECK(level_load_ex(&lv, a1, vault, NULL, &(LevelRoom){.bytes = sim_runtime_bytes}, &err, &st));
    sim_init(&s, 1);
    CHECK(sim_load_level(&s, a2, vault, NULL, &err));
    CHECK_EQ_U(st.level_bytes, s.level.arena_bytes);
    CHECK_EQ_U(st.level_bytes, st_arena_pos(a2));
    st_arena_release(a2);
    st_arena_release(a1);
}

/* sim_move_player is the movement sim_tick makes, to the fixed-point unit: predicted on a
   copy of the player, then made by the tick, through walls, corners, spikes, a door and
   knockback. The bot predicts with it, so this is what makes its predictions exact. */
static void test_move_prediction(void) {
    const char *p = write_level("predict.lvl", "name: Predict\nmap:\n############\n###.########\n"
                                               "#r.@..^^.B.#\n#.....p....#\n############\nend\n");
    Sim *s = fresh(p);
    static const uint32_t script[] = {SIM_IN_LEFT,  SIM_IN_LEFT | SIM_IN_UP,     SIM_IN_RIGHT, SIM_IN_UP,
                                      SIM_IN_DOWN | SIM_IN_RIGHT, SIM_IN_RIGHT | SIM_IN_FIRE, SIM_IN_DOWN, SIM_IN_RIGHT};
    int mismatches = 0, moved = 0;
    for (int i = 0; i < 480 && !s->player.dead && s->request.kind == SIM_REQUEST_NONE; i++) {
        uint32_t in = script[(i / 20) % (sizeof script / sizeof script[0])];
        Player ghost = s->player;
        sim_move_player(s, &ghost, in);
        int32_t x = s->player.x, y = s->player.y;
        sim_tick(s, in);
        mismatches += ghost.x != s->player.x || ghost.y != s->player.y;
        moved += x != s->player.x || y != s->player.y;
    }
    CHECK_EQ_I(mismatches, 0);
    CHECK(moved > 100);
    CHECK(s->progress.hearts < PLAYER_START_HEARTS); /* spikes or the patroller: knockback was in it */
}

/* Every screen is registered: a name of its own, and an update that runs. */
static void test_screen_table(void) {
    const char *a = write_level("screens.lvl", "name: Screens\nmap:\n#######\n#@...X#\n#######\nend\n");
    static Game g;
    Error err;
    for (int i = 0; i < SCREEN_COUNT; i++) {
        const char *name = game_screen_name((GameScreen)i);
        CHECK(strcmp(name, "?") != 0);
        for (int j = 0; j < i; j++) CHECK(strcmp(name, game_screen_name((GameScreen)j)) != 0);
        CHECK(game_init(&g, level_arena, &(GameConfig){.start_level = a, .seed = 3, .skip_title = true}, &err));
        g.screen = (GameScreen)i;
        uint32_t ticks = g.sim.progress.ticks;
        for (int k = 0; k < 3; k++) game_update(&g, 0);
        /* The screens that step the rules do so; none of them crashes. */
        if (i == SCREEN_PLAYING) CHECK_EQ_U(g.sim.progress.ticks, ticks + 3);
        if (i == SCREEN_TITLE || i == SCREEN_PAUSED) CHECK_EQ_U(g.sim.progress.ticks, ticks);
    }
    CHECK(strcmp(game_screen_name(SCREEN_COUNT), "?") == 0);
}

int main(void) {
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    level_arena = st_arena_create((ArenaParams){.reserve_size = 1 << 20, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    test_walls_and_sliding();
    test_corner_forgiveness();
    test_keys_and_doors();
    test_pickups();
    test_damage_and_death();
    test_patroller();
    test_chaser();
    test_turret_and_shooting();
    test_turret_grace();
    test_strafe_keeps_facing();
    test_generous_triggers();
    test_transition();
    test_knockback();
    test_spike_knockback();
    test_enemy_contact();
    test_hearts_each_level();
    test_sign_near();
    test_pools();
    test_level_change_by_value();
    test_failed_load_keeps_level();
    test_screens();
    test_determinism();
    test_restart_snaps_camera();
    test_events();
    test_level_stays_as_loaded();
    test_default_hp();
    test_runtime_fits();
    test_move_prediction();
    test_screen_table();
    st_arena_release(level_arena);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_result();
}
