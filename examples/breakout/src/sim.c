/* sim.c - breakout's rules (sim.h). */
#include "sim.h"

#include <string.h>

#include <strata/core/base.h>
#include <strata/core/diag.h>
#include <strata/core/hash.h>

typedef struct Layout {
    const char *name;
    const char *rows[SIM_ROWS]; /* SIM_COLS characters: '.' none, 1-6 colours, S silver, G gold */
} Layout;

static const Layout LAYOUTS[] = {
    {"Classic",
     {"666666666666666", "555555555555555", "444444444444444", "333333333333333", "222222222222222",
      "111111111111111"}},
    {"Pyramid",
     {".......S.......", "......666......", ".....55555.....", "....4444444....", "...333333333...", "..22222222222..",
      ".1111111111111."}},
    {"Fort",
     {"S.S.S.S.S.S.S.S", "666666666666666", "5.............5", "4.GGG.....GGG.4", "3.............3", "222222222222222",
      "S1S1S1S1S1S1S1S"}},
    {"Checkers",
     {"6.6.6.6.6.6.6.6", ".5.5.5.5.5.5.5.", "4.4.4.4.4.4.4.4", ".3.3.3.3.3.3.3.", "SSSSSSSSSSSSSSS", "2.2.2.2.2.2.2.2",
      ".1.1.1.1.1.1.1."}},
    {"Invader",
     {"...6.......6...", "....5.....5....", "...SSSSSSSSS...", "..33.33333.33..", ".4444444444444.", ".2.222222222.2.",
      ".1.1.......1.1.", "....11...11...."}},
};

/* Directions off the paddle by where it was hit: 60, 45, 30 and 15 degrees from the
   vertical on either side, as 256 * sin and 256 * cos. */
static const int32_t DIR_X[8] = {-222, -181, -128, -66, 66, 128, 181, 222};
static const int32_t DIR_Y[8] = {128, 181, 222, 247, 247, 222, 181, 128};

#define PADDLE_SPEED (7 * SIM_FP / 2)
#define SPEED_START (5 * SIM_FP / 2)
#define SPEED_STEP 8 /* subpixels per tick faster for every brick hit */
#define SPEED_MAX (15 * SIM_FP / 4)

int32_t sim_level_count(void) { return (int32_t)ARRAY_COUNT(LAYOUTS); }

const char *sim_screen_name(SimScreen screen) {
    static const char *const NAMES[] = {"title", "serve", "play", "clear", "over"};
    return screen <= SIM_OVER ? NAMES[screen] : "?";
}

void sim_init(Sim *s) {
    int32_t best = s->best;
    *s = (Sim){.screen = SIM_TITLE, .rng = 0x9e3779b9u, .last_dir = 1, .best = best};
    s->paddle_x = ((SIM_FIELD_X0 + SIM_FIELD_X1 - SIM_PADDLE_W) / 2) * SIM_FP;
}

/* The level arena holds one wall: cleared, then the next laid out in it. */
static bool lay_wall(Sim *s, Arena *level) {
    st_arena_clear(level);
    s->wall = st_arena_push_struct(level, Wall);
    if (!s->wall) {
        st_diag_report(DIAG_ERROR, "breakout: the level arena cannot hold a wall of %zu bytes", sizeof(Wall));
        return false;
    }
    const Layout *l = &LAYOUTS[s->level];
    s->wall->name = l->name;
    for (int r = 0; r < SIM_ROWS; r++)
        for (int c = 0; l->rows[r] && c < SIM_COLS; c++) {
            char ch = l->rows[r][c];
            uint8_t k = ch >= '1' && ch <= '6' ? (uint8_t)(ch - '0')
                        : ch == 'S'            ? BRICK_SILVER
                        : ch == 'G'            ? BRICK_GOLD
                                               : 0;
            s->wall->kind[r][c] = k;
            s->wall->hp[r][c] = k == BRICK_SILVER ? 2 : k ? 1 : 0;
            s->wall->breakable += k && k != BRICK_GOLD;
        }
    s->level_serial++;
    return true;
}

static void serve(Sim *s) {
    s->screen = SIM_SERVE;
    s->speed = SPEED_START + s->loop * 2 * SIM_FP / 8 + s->level * SIM_FP / 16;
    s->vx = s->vy = 0;
}

static void ball_on_paddle(Sim *s) {
    s->ball_x = s->paddle_x + (SIM_PADDLE_W - SIM_BALL) / 2 * SIM_FP;
    s->ball_y = (SIM_PADDLE_Y - SIM_BALL) * SIM_FP;
}

static void move_paddle(Sim *s, uint8_t b) {
    int32_t dx = ((b & SIM_RIGHT) ? PADDLE_SPEED : 0) - ((b & SIM_LEFT) ? PADDLE_SPEED : 0);
    if (dx) s->last_dir = dx > 0 ? 1 : -1;
    s->paddle_x = CLAMP(s->paddle_x + dx, SIM_FIELD_X0 * SIM_FP, (SIM_FIELD_X1 - SIM_PADDLE_W) * SIM_FP);
}

static uint32_t next_rng(Sim *s) {
    uint32_t x = s->rng;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return s->rng = x;
}

static void burst(Sim *s, int r, int c, uint8_t kind) {
    for (int n = 0; n < 6; n++) {
        Particle *p = &s->particles[next_rng(s) % SIM_PARTICLES];
        int32_t x = (SIM_FIELD_X0 + c * SIM_BRICK_W + SIM_BRICK_W / 2) * SIM_FP;
        int32_t y = (SIM_WALL_Y + r * SIM_BRICK_H + SIM_BRICK_H / 2) * SIM_FP;
        *p = (Particle){.x = x,
                        .y = y,
                        .vx = (int32_t)(next_rng(s) % 512) - 256,
                        .vy = -(int32_t)(next_rng(s) % 384),
                        .kind = kind,
                        .life = 40};
    }
}

static void hit_brick(Sim *s, int r, int c) {
    Wall *w = s->wall;
    if (w->kind[r][c] == BRICK_GOLD || w->kind[r][c] == BRICK_SILVER) s->events |= SIM_EV_METAL;
    if (w->kind[r][c] == BRICK_GOLD) return;
    s->events |= SIM_EV_BRICK;
    if (--w->hp[r][c]) return;
    s->score += w->kind[r][c] == BRICK_SILVER ? 50 : 10 * w->kind[r][c];
    s->best = MAX(s->best, s->score);
    s->speed = MIN(s->speed + SPEED_STEP, SPEED_MAX);
    w->breakable--;
    burst(s, r, c, w->kind[r][c]);
    w->kind[r][c] = BRICK_NONE;
}

/* Hits every brick the ball overlaps; true when there was one. */
static bool hit_bricks(Sim *s) {
    int32_t x0 = s->ball_x / SIM_FP - SIM_FIELD_X0, y0 = s->ball_y / SIM_FP - SIM_WALL_Y;
    int32_t c0 = x0 / SIM_BRICK_W, c1 = (x0 + SIM_BALL - 1) / SIM_BRICK_W;
    int32_t r0 = y0 < 0 ? -1 : y0 / SIM_BRICK_H, r1 = y0 + SIM_BALL - 1 < 0 ? -1 : (y0 + SIM_BALL - 1) / SIM_BRICK_H;
    bool any = false;
    for (int32_t r = MAX(r0, 0); r <= r1 && r < SIM_ROWS; r++)
        for (int32_t c = MAX(c0, 0); c <= c1 && c < SIM_COLS; c++)
            if (s->wall->kind[r][c]) hit_brick(s, r, c), any = true;
    return any;
}

static void bounce_paddle(Sim *s) {
    int32_t bottom = s->ball_y + SIM_BALL * SIM_FP, top = SIM_PADDLE_Y * SIM_FP;
    if (s->vy <= 0 || bottom < top || bottom - s->vy > top + SIM_FP) return;
    int32_t cx = s->ball_x + SIM_BALL * SIM_FP / 2 - s->paddle_x;
    if (cx < -SIM_FP || cx > (SIM_PADDLE_W + 1) * SIM_FP) return;
    int32_t i = CLAMP(cx * 8 / (SIM_PADDLE_W * SIM_FP), 0, 7);
    s->vx = DIR_X[i] * s->speed / 256;
    s->vy = -DIR_Y[i] * s->speed / 256;
    s->ball_y = top - SIM_BALL * SIM_FP;
    s->events |= SIM_EV_PADDLE;
}

/* The ball, one axis at a time: a move into a brick or a wall is taken back and that
   axis turned round, so the ball never enters anything solid. */
static void move_ball(Sim *s) {
    s->ball_x += s->vx;
    int32_t lo = SIM_FIELD_X0 * SIM_FP, hi = (SIM_FIELD_X1 - SIM_BALL) * SIM_FP;
    if (s->ball_x < lo || s->ball_x > hi) {
        s->ball_x = CLAMP(s->ball_x, lo, hi), s->vx = -s->vx, s->events |= SIM_EV_WALL;
    } else if (hit_bricks(s)) {
        s->ball_x -= s->vx, s->vx = -s->vx;
    }
    s->ball_y += s->vy;
    if (s->ball_y < SIM_FIELD_Y0 * SIM_FP) {
        s->ball_y = SIM_FIELD_Y0 * SIM_FP, s->vy = -s->vy, s->events |= SIM_EV_WALL;
    } else if (hit_bricks(s)) {
        s->ball_y -= s->vy, s->vy = -s->vy;
    }
    bounce_paddle(s);
}

static void play(Sim *s, Arena *level, uint8_t b) {
    move_paddle(s, b);
    move_ball(s);
    if (s->wall->breakable == 0) {
        s->screen = SIM_CLEAR, s->timer = 120, s->events |= SIM_EV_CLEAR;
    } else if (s->ball_y > SIM_H * SIM_FP) {
        s->events |= SIM_EV_LOST;
        if (--s->lives > 0) serve(s);
        else s->screen = SIM_OVER, s->timer = 90, s->events |= SIM_EV_OVER;
    }
    (void)level;
}

static void particles_step(Sim *s) {
    for (int i = 0; i < SIM_PARTICLES; i++) {
        Particle *p = &s->particles[i];
        if (!p->life) continue;
        p->x += p->vx, p->y += p->vy, p->vy += 24, p->life--;
    }
}

static bool start_game(Sim *s, Arena *level) {
    sim_init(s);
    s->lives = SIM_LIVES;
    s->events |= SIM_EV_START;
    serve(s);
    return lay_wall(s, level);
}

bool sim_step(Sim *s, Arena *level, uint8_t b) {
    uint8_t hit = b & ~s->prev_buttons; /* went down this step */
    s->prev_buttons = b;
    s->events = 0;
    s->tick++;
    particles_step(s);
    if ((hit & SIM_PAUSE) && (s->screen == SIM_SERVE || s->screen == SIM_PLAY)) s->paused = !s->paused;
    if (s->paused) return true;
    switch (s->screen) {
    case SIM_TITLE:
        if (hit & SIM_FIRE) return start_game(s, level);
        break;
    case SIM_SERVE:
        move_paddle(s, b);
        ball_on_paddle(s);
        if (hit & SIM_FIRE) {
            int32_t i = s->last_dir > 0 ? 5 : 2;
            s->vx = DIR_X[i] * s->speed / 256, s->vy = -DIR_Y[i] * s->speed / 256;
            s->screen = SIM_PLAY, s->events |= SIM_EV_LAUNCH;
        }
        break;
    case SIM_PLAY: play(s, level, b); break;
    case SIM_CLEAR:
        if (--s->timer > 0) break;
        s->level = (s->level + 1) % sim_level_count();
        s->loop += s->level == 0;
        serve(s);
        return lay_wall(s, level);
    case SIM_OVER:
        if (s->timer > 0) s->timer--;
        else if (hit & SIM_FIRE) s->screen = SIM_TITLE;
        break;
    }
    return true;
}

uint64_t sim_hash(const Sim *s) {
    uint64_t h = HASH_FNV1A_INIT;
    const int64_t f[] = {s->screen, s->paused, s->tick,  s->level_serial, s->level,   s->loop,
                         s->lives,  s->score,  s->best,  s->paddle_x,     s->ball_x,  s->ball_y,
                         s->vx,     s->vy,     s->speed, s->timer,        s->last_dir};
    for (size_t i = 0; i < ARRAY_COUNT(f); i++) h = st_hash_fnv1a_u64(h, (uint64_t)f[i]);
    if (s->wall) h = st_hash_fnv1a(h, s->wall->hp, sizeof s->wall->hp);
    return h;
}

/* Where the ball will cross the paddle's line, folded back off the side walls. */
static int32_t landing_x(const Sim *s) {
    if (s->vy <= 0) return s->ball_x;
    int32_t t = ((SIM_PADDLE_Y - SIM_BALL) * SIM_FP - s->ball_y) / s->vy;
    int32_t lo = SIM_FIELD_X0 * SIM_FP, span = (SIM_FIELD_X1 - SIM_BALL - SIM_FIELD_X0) * SIM_FP;
    int32_t x = s->ball_x - lo + s->vx * MAX(t, 0);
    x %= 2 * span;
    if (x < 0) x += 2 * span;
    return lo + (x > span ? 2 * span - x : x);
}

uint8_t sim_bot(const Sim *s) {
    if (s->screen == SIM_TITLE || s->screen == SIM_OVER) return (s->tick / 20) % 2 ? SIM_FIRE : 0;
    /* Now and then it looks away for a second, so a demo loses a ball too. */
    if (s->screen == SIM_CLEAR || s->tick % 1020 >= 960) return 0;
    /* Aim off-centre by an amount that wanders, so the ball goes everywhere. */
    int32_t aim = (int32_t)((s->tick / 97 + (uint64_t)s->score / 10) % 7) - 3;
    int32_t want = (s->screen == SIM_SERVE ? (SIM_FIELD_X0 + 40 + (int32_t)(s->tick % 200)) * SIM_FP : landing_x(s)) +
                   SIM_BALL * SIM_FP / 2 - (SIM_PADDLE_W / 2 + aim * 5) * SIM_FP;
    uint8_t b = 0;
    if (want < s->paddle_x - SIM_FP) b |= SIM_LEFT;
    if (want > s->paddle_x + SIM_FP) b |= SIM_RIGHT;
    if (s->screen == SIM_SERVE && s->tick % 90 == 0) b |= SIM_FIRE;
    return b;
}
