/* test_controls.c - the front end's input rule (controls.h), fed with synthetic SDL events:
   one press is one effect. A confirm, pause or restart reaches exactly one tick, whether the
   frame it was polled in runs zero, one or several ticks; the next frames do not see it
   again (the Input's latched edges are consumed). A focus loss pauses only while playing.
   M asks for one mute per odd number of presses in a frame (F1 and F12 are the host's:
   tests/engine/test_host.c). Held keys give their
   bit on every tick until released; a tap shorter than a frame still gives one tick.
   Two presses before a tick runs are two: two confirms on two ticks, and two Down taps two
   edges as game_update finds them (input & ~previous input), a tick without the bit between
   them; a rebind prompt sees the key that went down. */
#include <SDL2/SDL.h>
#include <string.h>

#include "check.h"
#include "front/controls.h"

static void key(Input *in, SDL_Scancode sc, bool down) {
    SDL_Event e = {0};
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    st_input_handle_event(in, &e);
}

static void tap(Input *in, SDL_Scancode sc) {
    key(in, sc, true);
    key(in, sc, false);
}

/* game.c's rule for held-style bits: a press is a bit set that the previous tick lacked. */
typedef struct EdgeCounter {
    uint8_t prev;
    int edges[8];
    int ticks;
} EdgeCounter;

static uint8_t run_tick(EdgeCounter *ec, Controls *c, const Input *in) {
    uint8_t b = controls_tick_input(c, in);
    uint8_t pressed = (uint8_t)(b & ~ec->prev);
    for (int i = 0; i < 8; i++) ec->edges[i] += (pressed >> i) & 1;
    ec->prev = b;
    ec->ticks++;
    return b;
}

static void focus_lost(Input *in) {
    SDL_Event e = {0};
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_FOCUS_LOST;
    st_input_handle_event(in, &e);
}

/* An Input with the game's actions, as the App makes it. */
static Input game_input(void) {
    Input in = {0};
    st_input_set_actions(&in, CONTROLS_ACTIONS, ACTION_COUNT);
    return in;
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    Input in = game_input();
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

    /* M: one frame says "mute" (the App toggles the sound), the next ones do not. */
    tap(&in, SDL_SCANCODE_M);
    controls_collect(&c, &in, SCREEN_PLAYING);
    CHECK(c.mute);
    int mutes = 0;
    for (int f = 0; f < 30; f++) {
        controls_collect(&c, &in, SCREEN_PLAYING);
        mutes += c.mute;
    }
    CHECK_EQ_I(mutes, 0);

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

    /* Two Down taps 20 ms apart, both before the next tick (one displayed frame, or a frame
       that ran no tick): Down, a tick without it, Down. The menu moves two rows. */
    {
        Input mi = game_input();
        Controls mc = {0};
        EdgeCounter ec = {0};
        tap(&mi, SDL_SCANCODE_DOWN);
        tap(&mi, SDL_SCANCODE_S);
        CHECK_EQ_U(mi.presses[ACTION_DOWN], 2);
        controls_collect(&mc, &mi, SCREEN_PAUSED);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), SIM_IN_DOWN);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), 0);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), SIM_IN_DOWN);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), 0);
        for (int f = 0; f < 10; f++) {
            controls_collect(&mc, &mi, SCREEN_PAUSED);
            run_tick(&ec, &mc, &mi);
        }
        CHECK_EQ_I(ec.edges[1], 2); /* SIM_IN_DOWN */

        /* The same taps spread over frames that run no tick, then several ticks in one. */
        ec = (EdgeCounter){0};
        tap(&mi, SDL_SCANCODE_DOWN);
        controls_collect(&mc, &mi, SCREEN_PAUSED);
        tap(&mi, SDL_SCANCODE_DOWN);
        controls_collect(&mc, &mi, SCREEN_PAUSED);
        tap(&mi, SDL_SCANCODE_UP);
        controls_collect(&mc, &mi, SCREEN_PAUSED);
        for (int i = 0; i < 6; i++) run_tick(&ec, &mc, &mi);
        CHECK_EQ_I(ec.edges[1], 2);
        CHECK_EQ_I(ec.edges[0], 1);

        /* Two Confirm taps: a confirm on each of two successive ticks (edges in the byte
           itself, no gap needed), then none. */
        tap(&mi, SDL_SCANCODE_RETURN);
        tap(&mi, SDL_SCANCODE_RETURN);
        controls_collect(&mc, &mi, SCREEN_TITLE);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), GAME_IN_CONFIRM);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), GAME_IN_CONFIRM);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), 0);

        /* A held key released and pressed again within one frame is a second press: the
           game gets a tick without it, then it is held again. */
        ec = (EdgeCounter){0};
        key(&mi, SDL_SCANCODE_SPACE, true);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), SIM_IN_FIRE);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), SIM_IN_FIRE);
        key(&mi, SDL_SCANCODE_SPACE, false);
        key(&mi, SDL_SCANCODE_SPACE, true);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), 0);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), SIM_IN_FIRE);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), SIM_IN_FIRE);
        CHECK_EQ_I(ec.edges[4], 2);
        key(&mi, SDL_SCANCODE_SPACE, false);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(run_tick(&ec, &mc, &mi), 0);

        /* Esc and a focus loss in one frame while playing: one pause (a second would
           resume). Esc twice and a focus loss: three, so the game still ends up paused. */
        tap(&mi, SDL_SCANCODE_ESCAPE);
        focus_lost(&mi);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), GAME_IN_PAUSE);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), 0);
        tap(&mi, SDL_SCANCODE_ESCAPE);
        tap(&mi, SDL_SCANCODE_P);
        focus_lost(&mi);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        int n = 0;
        for (int i = 0; i < 5; i++) n += (controls_tick_input(&mc, &mi) & GAME_IN_PAUSE) != 0;
        CHECK_EQ_I(n, 3);

        /* Mashing during a stall queues at most CONTROLS_MAX_QUEUED presses. */
        for (int i = 0; i < 20; i++) tap(&mi, SDL_SCANCODE_R);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        n = 0;
        for (int i = 0; i < 30; i++) n += (controls_tick_input(&mc, &mi) & GAME_IN_RESTART) != 0;
        CHECK_EQ_I(n, CONTROLS_MAX_QUEUED);

        /* M twice in one frame: muted and back, so no toggle. */
        tap(&mi, SDL_SCANCODE_M);
        tap(&mi, SDL_SCANCODE_M);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK(!mc.mute);

        /* The rebind prompt: the last key that went down, bound or not, for one frame. */
        tap(&mi, SDL_SCANCODE_K);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(mc.key_pressed, SDL_SCANCODE_K);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(mc.key_pressed, 0);

        /* Rebound keys drive the byte: Fire on K, and Space no longer fires. */
        InputBindings b = st_input_bindings_default(&mi);
        b.keys[ACTION_FIRE][0] = SDL_SCANCODE_K;
        b.keys[ACTION_FIRE][1] = 0;
        st_input_set_bindings(&mi, &b);
        key(&mi, SDL_SCANCODE_SPACE, true);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), 0);
        key(&mi, SDL_SCANCODE_SPACE, false);
        key(&mi, SDL_SCANCODE_K, true);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), SIM_IN_FIRE);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), SIM_IN_FIRE);
        key(&mi, SDL_SCANCODE_K, false);
        controls_collect(&mc, &mi, SCREEN_PLAYING);
        CHECK_EQ_U(controls_tick_input(&mc, &mi), 0);
    }

    /* What a rebinding moved, in words (key names without a keymap: SDL's scancode names). */
    char line[160];
    CHECK(controls_bind_notice(
        &(GameBind){
            .action = 4, .key = SDL_SCANCODE_D, .taken_from = 3, .dropped = SDL_SCANCODE_RETURN, .dropped_to = -1},
        line, sizeof line));
    CHECK(strcmp(line, "'D' now for Fire (taken from Right); 'Return' unbound") == 0);
    CHECK(controls_bind_notice(
        &(GameBind){
            .action = 5, .key = SDL_SCANCODE_R, .taken_from = 7, .dropped = SDL_SCANCODE_RETURN, .dropped_to = 7},
        line, sizeof line));
    CHECK(strcmp(line, "'R' now for Confirm (taken from Restart, which gets 'Return')") == 0);
    CHECK(controls_bind_notice(
        &(GameBind){.action = 0, .key = SDL_SCANCODE_Q, .taken_from = -1, .dropped = SDL_SCANCODE_UP, .dropped_to = -1},
        line, sizeof line));
    CHECK(strcmp(line, "'Q' now for Up; 'Up' unbound") == 0);
    CHECK(controls_bind_notice(&(GameBind){.action = 0, .key = SDL_SCANCODE_Q, .taken_from = -1, .dropped_to = -1},
                               line, sizeof line));
    CHECK(strcmp(line, "'Q' now for Up") == 0);
    CHECK(!controls_bind_notice(&(GameBind){.action = -1, .taken_from = -1, .dropped_to = -1}, line, sizeof line));
    CHECK(line[0] == '\0');
    char tiny[8];
    CHECK(controls_bind_notice(
        &(GameBind){.action = 4, .key = SDL_SCANCODE_D, .taken_from = 3, .dropped = 40, .dropped_to = -1}, tiny,
        sizeof tiny));
    CHECK(strlen(tiny) == 7); /* cut, never past the buffer */
    return check_result();
}
