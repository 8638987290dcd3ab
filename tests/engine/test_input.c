/* Input mapping from synthetic SDL events: scancodes (not keycodes) drive actions, two
   bindings of one action overlap correctly, edges latch until input_end_step, key repeat is
   not a new press, Alt+Enter is fullscreen and not confirm, pad buttons and the left stick
   (with its dead zone) map to the same actions, focus loss releases everything and raises
   focus_lost. Also the fixed-step clock and its spiral-of-death clamp. */
#include <SDL2/SDL.h>

#include "check.h"
#include "platform/platform.h"

static SDL_Event key_event(Uint32 type, SDL_Scancode sc, SDL_Keycode sym, Uint16 mod, int repeat) {
    SDL_Event e = {0};
    e.type = type;
    e.key.keysym.scancode = sc;
    e.key.keysym.sym = sym;
    e.key.keysym.mod = mod;
    e.key.repeat = (Uint8)repeat;
    e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    return e;
}
static SDL_Event button_event(Uint32 type, int b) {
    SDL_Event e = {0};
    e.type = type;
    e.cbutton.button = (Uint8)b;
    return e;
}
static SDL_Event axis_event(int axis, int value) {
    SDL_Event e = {0};
    e.type = SDL_CONTROLLERAXISMOTION;
    e.caxis.axis = (Uint8)axis;
    e.caxis.value = (Sint16)value;
    return e;
}
static SDL_Event window_event(int ev) {
    SDL_Event e = {0};
    e.type = SDL_WINDOWEVENT;
    e.window.event = (Uint8)ev;
    return e;
}

static bool feed(Input *in, SDL_Event e) { return input_handle_event(in, &e); }

int main(void) {
    Input in = {0};
    /* AZERTY: the key in the W position produces 'z' but its scancode is still W. */
    CHECK(feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_W, SDLK_z, 0, 0)));
    CHECK(in.down[ACTION_UP] && in.pressed[ACTION_UP]);
    CHECK(in.move_y == -1 && in.move_x == 0);
    /* A keycode alone means nothing: 'w' typed from another physical key is not "up". */
    Input other = {0};
    CHECK(!feed(&other, key_event(SDL_KEYDOWN, SDL_SCANCODE_Z, SDLK_w, 0, 0)));
    CHECK(!other.down[ACTION_UP]);

    input_end_step(&in);
    CHECK(in.down[ACTION_UP] && !in.pressed[ACTION_UP]);
    feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_W, SDLK_z, 0, 1)); /* auto-repeat */
    CHECK(!in.pressed[ACTION_UP]);
    feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_UP, SDLK_UP, 0, 0)); /* second binding */
    CHECK(!in.pressed[ACTION_UP]);                                  /* already down: no new edge */
    feed(&in, key_event(SDL_KEYUP, SDL_SCANCODE_W, SDLK_z, 0, 0));
    CHECK(in.down[ACTION_UP]); /* Up still held */
    feed(&in, key_event(SDL_KEYUP, SDL_SCANCODE_UP, SDLK_UP, 0, 0));
    CHECK(!in.down[ACTION_UP] && in.released[ACTION_UP]);
    CHECK(in.move_y == 0);

    /* Press and release within one step still counts as one press. */
    input_end_step(&in);
    feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    feed(&in, key_event(SDL_KEYUP, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    CHECK(in.pressed[ACTION_FIRE] && !in.down[ACTION_FIRE]);
    input_end_step(&in);
    CHECK(!in.pressed[ACTION_FIRE]);

    static const struct {
        SDL_Scancode sc;
        Action a;
    } map[] = {
        {SDL_SCANCODE_A, ACTION_LEFT},         {SDL_SCANCODE_LEFT, ACTION_LEFT},
        {SDL_SCANCODE_D, ACTION_RIGHT},        {SDL_SCANCODE_S, ACTION_DOWN},
        {SDL_SCANCODE_J, ACTION_FIRE},         {SDL_SCANCODE_RETURN, ACTION_CONFIRM},
        {SDL_SCANCODE_ESCAPE, ACTION_PAUSE},   {SDL_SCANCODE_P, ACTION_PAUSE},
        {SDL_SCANCODE_R, ACTION_RESTART},      {SDL_SCANCODE_F1, ACTION_DEBUG},
        {SDL_SCANCODE_F12, ACTION_SCREENSHOT}, {SDL_SCANCODE_F11, ACTION_FULLSCREEN},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        Input k = {0};
        feed(&k, key_event(SDL_KEYDOWN, map[i].sc, 0, 0, 0));
        for (int a = 0; a < ACTION_COUNT; a++) CHECK(k.down[a] == (a == (int)map[i].a));
    }

    /* Alt+Enter: fullscreen, not confirm. */
    Input alt = {0};
    feed(&alt, key_event(SDL_KEYDOWN, SDL_SCANCODE_RETURN, SDLK_RETURN, KMOD_LALT, 0));
    CHECK(alt.pressed[ACTION_FULLSCREEN] && !alt.down[ACTION_CONFIRM] &&
          !alt.pressed[ACTION_CONFIRM]);

    /* Pad: A fires and confirms, Start pauses, dpad moves. */
    Input pad = {0};
    feed(&pad, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_A));
    CHECK(pad.down[ACTION_FIRE] && pad.down[ACTION_CONFIRM]);
    feed(&pad, button_event(SDL_CONTROLLERBUTTONUP, SDL_CONTROLLER_BUTTON_A));
    CHECK(!pad.down[ACTION_FIRE] && pad.released[ACTION_FIRE]);
    feed(&pad, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_START));
    CHECK(pad.pressed[ACTION_PAUSE]);
    feed(&pad, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_DPAD_LEFT));
    CHECK(pad.down[ACTION_LEFT] && pad.move_x == -1);
    feed(&pad, button_event(SDL_CONTROLLERBUTTONUP, SDL_CONTROLLER_BUTTON_DPAD_LEFT));
    /* Stick: inside the dead zone nothing moves; past it, analog values and digital actions. */
    Input st = {0};
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTX, (int)(32767 * 0.2f)));
    CHECK(st.move_x == 0 && !st.down[ACTION_RIGHT]);
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTX, 32767));
    CHECK(st.move_x > 0.99f && st.down[ACTION_RIGHT] && st.pressed[ACTION_RIGHT]);
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTX, (int)(32767 * 0.4f)));
    /* rescaled from the dead zone */
    CHECK(st.move_x > 0.1f && st.move_x < 0.3f && !st.down[ACTION_RIGHT]);
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTY, -32768));
    CHECK(st.down[ACTION_UP] && st.move_y < -0.9f);
    CHECK(!feed(&st, axis_event(SDL_CONTROLLER_AXIS_RIGHTX, 32767))); /* right stick unbound */

    /* Focus loss: everything released, flag raised; regained focus does not re-press. */
    Input f = {0};
    feed(&f, key_event(SDL_KEYDOWN, SDL_SCANCODE_D, 0, 0, 0));
    feed(&f, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_A));
    input_end_step(&f);
    feed(&f, window_event(SDL_WINDOWEVENT_FOCUS_LOST));
    CHECK(f.focus_lost && !f.focused);
    for (int a = 0; a < ACTION_COUNT; a++) CHECK(!f.down[a]);
    CHECK(f.released[ACTION_RIGHT]);
    feed(&f, window_event(SDL_WINDOWEVENT_FOCUS_GAINED));
    CHECK(f.focused && !f.pressed[ACTION_RIGHT]);
    input_end_step(&f);
    CHECK(!f.focus_lost);
    SDL_Event q = {.type = SDL_QUIT};
    CHECK(input_handle_event(&f, &q) && f.quit);
    CHECK(action_name(ACTION_FIRE)[0] == 'f');

    /* Fixed step: 60 Hz, jitter tolerant, clamped after a stall. */
    FixedStep fs = fixed_step_make(60);
    CHECK_EQ_I(fixed_step_advance(&fs, 10.0), 1); /* first frame */
    CHECK_EQ_I(fixed_step_advance(&fs, 10.0 + 1.0 / 60), 1);
    CHECK_EQ_I(fixed_step_advance(&fs, 10.0 + 1.0 / 60 + 0.0166), 1); /* a hair short of a step */
    CHECK_EQ_I(fixed_step_advance(&fs, 10.0 + 1.0 / 60 + 0.0166 + 0.004), 0); /* 240 Hz display */
    int total = 0;
    double t0 = 20.0;
    fs = fixed_step_make(60);
    fixed_step_advance(&fs, t0);
    for (int i = 1; i <= 240; i++) /* 1 s at 240 Hz */
        total += fixed_step_advance(&fs, t0 + i / 240.0);
    CHECK(total >= 59 && total <= 61);
    int burst = fixed_step_advance(&fs, t0 + 1 + 3.0); /* 3 s stall (debugger) */
    CHECK_EQ_I(burst, fs.max_steps);
    CHECK(fs.dropped > 170);
    CHECK_EQ_I(fixed_step_advance(&fs, t0 + 4 + 1.0 / 60), 1); /* back to normal: no debt */
    CHECK(fs.alpha >= 0 && fs.alpha < 1);
    return check_result();
}
