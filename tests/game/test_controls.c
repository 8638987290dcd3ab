/* test_controls.c - the front end's input rule (controls.h), fed with synthetic SDL events:
   one press is one effect. A confirm, pause or restart reaches exactly one tick, whether the
   frame it was polled in runs zero, one or several ticks; the next frames do not see it
   again (the Input's latched edges are consumed). A focus loss pauses only while playing.
   F1 toggles the overlay once per press, F12 asks for one screenshot. Held keys give their
   bit on every tick until released; a tap shorter than a frame still gives one tick. */
#include <SDL2/SDL.h>

#include "check.h"
#include "controls.h"

static void key(Input *in, SDL_Scancode sc, bool down) {
    SDL_Event e = {0};
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    input_handle_event(in, &e);
}

static void tap(Input *in, SDL_Scancode sc) {
    key(in, sc, true);
    key(in, sc, false);
}

static void focus_lost(Input *in) {
    SDL_Event e = {0};
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_FOCUS_LOST;
    input_handle_event(in, &e);
}

int main(void) {
    Input in = {0};
    Controls c = {0};

    /* Enter: one confirm, on the first tick after the poll, never again. */
    tap(&in, SDL_SCANCODE_RETURN);
    controls_collect(&c, &in, SCREEN_TITLE);
    CHECK_EQ_U(controls_tick_input(&c, &in), GAME_IN_CONFIRM);
    CHECK_EQ_U(controls_tick_input(&c, &in), 0); /* a second tick in the same frame */
    for (int f = 0; f < 30; f++) {
        controls_collect(&c, &in, SCREEN_PLAYING);
        CHECK_EQ_U(controls_tick_input(&c, &in), 0);
    }

    /* Esc polled in a frame that runs no tick (high refresh rate): the next tick has it,
       once. Held down over many frames, it is still one press. */
    key(&in, SDL_SCANCODE_ESCAPE, true);
    controls_collect(&c, &in, SCREEN_PLAYING);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK_EQ_U(controls_tick_input(&c, &in), GAME_IN_PAUSE);
    int pauses = 0;
    for (int f = 0; f < 30; f++) {
        controls_collect(&c, &in, SCREEN_PAUSED);
        pauses += (controls_tick_input(&c, &in) & GAME_IN_PAUSE) != 0;
    }
    CHECK_EQ_I(pauses, 0);
    key(&in, SDL_SCANCODE_ESCAPE, false);
    /* R the same way. */
    tap(&in, SDL_SCANCODE_R);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK_EQ_U(controls_tick_input(&c, &in), GAME_IN_RESTART);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK_EQ_U(controls_tick_input(&c, &in), 0);

    /* Focus loss: pauses while playing, once; not on other screens (pause is a toggle, so
       it would resume a paused game). */
    focus_lost(&in);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK_EQ_U(controls_tick_input(&c, &in), GAME_IN_PAUSE);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK_EQ_U(controls_tick_input(&c, &in), 0);
    focus_lost(&in);
    controls_collect(&c, &in, SCREEN_PAUSED);
    CHECK_EQ_U(controls_tick_input(&c, &in), 0);
    focus_lost(&in);
    controls_collect(&c, &in, SCREEN_TITLE);
    CHECK_EQ_U(controls_tick_input(&c, &in), 0);

    /* F1: on with the press, and it stays on; the next press turns it off. */
    CHECK(!c.show_debug);
    key(&in, SDL_SCANCODE_F1, true);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK(c.show_debug);
    int on = 0;
    for (int f = 0; f < 30; f++) {
        controls_collect(&c, &in, SCREEN_PLAYING);
        on += c.show_debug;
    }
    CHECK_EQ_I(on, 30);
    key(&in, SDL_SCANCODE_F1, false);
    tap(&in, SDL_SCANCODE_F1);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK(!c.show_debug);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK(!c.show_debug);

    /* F12: one frame asks for a screenshot. */
    tap(&in, SDL_SCANCODE_F12);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK(c.screenshot);
    int shots = 0;
    for (int f = 0; f < 30; f++) {
        controls_collect(&c, &in, SCREEN_PLAYING);
        shots += c.screenshot;
    }
    CHECK_EQ_I(shots, 0);

    /* Held D: every tick while down, none after the release. */
    key(&in, SDL_SCANCODE_D, true);
    for (int f = 0; f < 5; f++) {
        controls_collect(&c, &in, SCREEN_PLAYING);
        CHECK_EQ_U(controls_tick_input(&c, &in), SIM_IN_RIGHT);
        CHECK_EQ_U(controls_tick_input(&c, &in), SIM_IN_RIGHT);
    }
    key(&in, SDL_SCANCODE_D, false);
    for (int f = 0; f < 5; f++) {
        controls_collect(&c, &in, SCREEN_PLAYING);
        CHECK_EQ_U(controls_tick_input(&c, &in), 0);
    }
    /* A tap of Space between two polls: one tick fires, then nothing. */
    tap(&in, SDL_SCANCODE_SPACE);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK_EQ_U(controls_tick_input(&c, &in), SIM_IN_FIRE);
    CHECK_EQ_U(controls_tick_input(&c, &in), 0);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK_EQ_U(controls_tick_input(&c, &in), 0);
    return check_result();
}
