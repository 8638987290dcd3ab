/* sim.h - breakout's rules: one fixed step of the paddle, the ball and the wall from the
   step's buttons, in integer arithmetic (positions in 1/256 pixel), so the same buttons
   give the same game on every machine, natively and in a browser. No SDL, no drawing.

       Sim s;
       sim_init(&s);
       sim_step(&s, level_arena, SIM_LEFT | SIM_FIRE);    // once per tick
       if (s.events & SIM_EV_BRICK) ...                     // what the step did, for sound
       uint64_t h = sim_hash(&s);                           // a replay's verdict

   The wall of the current level lives in the level arena: sim_step clears that arena and
   lays out the next wall whenever the level changes, so nothing of an old level is kept. */
#ifndef BREAKOUT_SIM_H_
#define BREAKOUT_SIM_H_

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>

#define SIM_W 320 /* the picture, in logical pixels */
#define SIM_H 180
#define SIM_FP 256 /* subpixels per pixel */
#define SIM_FIELD_X0 10
#define SIM_FIELD_X1 310
#define SIM_FIELD_Y0 20
#define SIM_COLS 15
#define SIM_ROWS 8
#define SIM_BRICK_W 20
#define SIM_BRICK_H 8
#define SIM_WALL_Y 32
#define SIM_PADDLE_Y 164
#define SIM_PADDLE_H 5
#define SIM_PADDLE_W 36
#define SIM_BALL 4
#define SIM_LIVES 3
#define SIM_PARTICLES 64

/* A step's buttons: the input log stores these bits, one byte a tick. */
enum { SIM_LEFT = 1, SIM_RIGHT = 2, SIM_FIRE = 4, SIM_PAUSE = 8 };

/* What a step did (Sim.events), for the sound and the screen's flashes. */
enum {
    SIM_EV_PADDLE = 1,
    SIM_EV_WALL = 2,
    SIM_EV_BRICK = 4,
    SIM_EV_METAL = 8,
    SIM_EV_LOST = 16,
    SIM_EV_CLEAR = 32,
    SIM_EV_OVER = 64,
    SIM_EV_LAUNCH = 128,
    SIM_EV_START = 256
};

typedef enum SimScreen { SIM_TITLE, SIM_SERVE, SIM_PLAY, SIM_CLEAR, SIM_OVER } SimScreen;

/* Brick kinds: 1..6 take one hit (the colour rows), silver two, gold never breaks. */
enum { BRICK_NONE = 0, BRICK_SILVER = 7, BRICK_GOLD = 8 };

/* One level's wall, in the level arena. */
typedef struct Wall {
    uint8_t kind[SIM_ROWS][SIM_COLS];
    uint8_t hp[SIM_ROWS][SIM_COLS];
    int32_t breakable; /* bricks left to clear the level */
    const char *name;
} Wall;

/* Debris of a broken brick: looks only, never hashed. */
typedef struct Particle {
    int32_t x, y, vx, vy;
    uint8_t kind, life;
} Particle;

typedef struct Sim {
    SimScreen screen;
    bool paused;
    uint64_t tick, level_serial; /* level_serial: how many walls were laid so far */
    int32_t level, loop;         /* the layout's index; how many times all were cleared */
    int32_t lives, score, best;
    int32_t paddle_x;               /* left edge, subpixels */
    int32_t ball_x, ball_y, vx, vy; /* top-left, subpixels; per tick */
    int32_t speed;                  /* subpixels per tick */
    int32_t timer;                  /* ticks left on a CLEAR or OVER screen */
    int32_t last_dir;               /* -1 or 1: the way the paddle last moved */
    uint32_t rng;                   /* the debris' xorshift */
    uint32_t events;                /* SIM_EV_* of the last step */
    uint8_t prev_buttons;
    Wall *wall; /* in the level arena, replaced on every level */
    Particle particles[SIM_PARTICLES];
} Sim;

void sim_init(Sim *s);
/* One tick. False when the level arena could not hold a wall (reported). */
bool sim_step(Sim *s, Arena *level, uint8_t buttons);
/* FNV-1a of everything the rules decide (not the debris). */
uint64_t sim_hash(const Sim *s);
/* How many layouts there are, and the name of one. */
int32_t sim_level_count(void);
/* The buttons a deterministic player would press now (--autoplay). */
uint8_t sim_bot(const Sim *s);
const char *sim_screen_name(SimScreen screen);

#endif
