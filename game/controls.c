/* controls.c - Input to the game's input byte (see controls.h). */
#include "controls.h"

static uint32_t held_bits(const Input *in) {
    uint32_t b = 0;
    if (in->down[ACTION_UP] || in->move_y < -0.5f) b |= SIM_IN_UP;
    if (in->down[ACTION_DOWN] || in->move_y > 0.5f) b |= SIM_IN_DOWN;
    if (in->down[ACTION_LEFT] || in->move_x < -0.5f) b |= SIM_IN_LEFT;
    if (in->down[ACTION_RIGHT] || in->move_x > 0.5f) b |= SIM_IN_RIGHT;
    if (in->down[ACTION_FIRE]) b |= SIM_IN_FIRE;
    return b;
}

void controls_collect(Controls *c, Input *in, GameScreen screen) {
    if (in->pressed[ACTION_CONFIRM]) c->pending |= GAME_IN_CONFIRM;
    if (in->pressed[ACTION_PAUSE] || (in->focus_lost && screen == SCREEN_PLAYING)) c->pending |= GAME_IN_PAUSE;
    if (in->pressed[ACTION_RESTART]) c->pending |= GAME_IN_RESTART;
    /* A key pressed and released between two polls is not down any more, but it was a
       press: the next tick still sees it held once (a menu step, a shot). */
    if (in->pressed[ACTION_UP]) c->pending |= SIM_IN_UP;
    if (in->pressed[ACTION_DOWN]) c->pending |= SIM_IN_DOWN;
    if (in->pressed[ACTION_LEFT]) c->pending |= SIM_IN_LEFT;
    if (in->pressed[ACTION_RIGHT]) c->pending |= SIM_IN_RIGHT;
    if (in->pressed[ACTION_FIRE]) c->pending |= SIM_IN_FIRE;
    if (in->pressed[ACTION_DEBUG]) c->show_debug = !c->show_debug;
    c->screenshot = in->pressed[ACTION_SCREENSHOT];
    /* Everything the edges mean is in `c` now; left latched, they would act again on every
       later frame. */
    input_end_step(in);
}

uint8_t controls_tick_input(Controls *c, const Input *in) {
    uint8_t b = (uint8_t)(held_bits(in) | c->pending);
    c->pending = 0;
    return b;
}
