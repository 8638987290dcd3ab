/* Input from synthetic SDL events, through a game's own table of actions (this test's: the
   engine names none): scancodes (not keycodes) drive actions, two bindings of one action
   overlap correctly, edges latch until st_input_end_step, key repeat is not a new press, F11
   and Alt+Enter are the engine's fullscreen (and Alt+Enter no confirm), pad buttons and the
   left stick (with its dead zone) map to actions as the table says, focus loss releases
   everything and raises focus_lost. Presses are counted (two taps before a step are two),
   raw keys and buttons are seen whether bound or not, the last key down is kept for a
   rebind prompt and each key's place in the text typed, the table's rebindable actions can
   be rebound (the others cannot), a rebind releases whatever was held, key names follow the
   layout and work without a window. Also the fixed-step clock and its spiral-of-death clamp. */
#include <string.h>

#include <SDL2/SDL.h>

#include "check.h"
#include <strata/platform/platform.h>

/* A game's actions, as a game would declare them. */
enum { ACTION_UP, ACTION_DOWN, ACTION_LEFT, ACTION_RIGHT, ACTION_FIRE, ACTION_CONFIRM, ACTION_PAUSE,
       ACTION_RESTART, ACTION_DEBUG, ACTION_SCREENSHOT, ACTION_COUNT };
typedef int Action;
#define PAD(b) (uint8_t)(SDL_CONTROLLER_BUTTON_##b + 1)
static const InputActionDesc actions[ACTION_COUNT] = {
    [ACTION_UP] = {"up", {SDL_SCANCODE_W, SDL_SCANCODE_UP}, {PAD(DPAD_UP)}, INPUT_STICK_UP, true},
    [ACTION_DOWN] = {"down", {SDL_SCANCODE_S, SDL_SCANCODE_DOWN}, {PAD(DPAD_DOWN)}, INPUT_STICK_DOWN, true},
    [ACTION_LEFT] = {"left", {SDL_SCANCODE_A, SDL_SCANCODE_LEFT}, {PAD(DPAD_LEFT)}, INPUT_STICK_LEFT, true},
    [ACTION_RIGHT] = {"right", {SDL_SCANCODE_D, SDL_SCANCODE_RIGHT}, {PAD(DPAD_RIGHT)}, INPUT_STICK_RIGHT, true},
    [ACTION_FIRE] = {"fire", {SDL_SCANCODE_SPACE, SDL_SCANCODE_J}, {PAD(A), PAD(X)}, 0, true},
    [ACTION_CONFIRM] = {"confirm", {SDL_SCANCODE_RETURN, SDL_SCANCODE_KP_ENTER}, {PAD(A)}, 0, true},
    [ACTION_PAUSE] = {"pause", {SDL_SCANCODE_ESCAPE, SDL_SCANCODE_P}, {PAD(START)}, 0, true},
    [ACTION_RESTART] = {"restart", {SDL_SCANCODE_R}, {PAD(BACK)}, 0, true},
    [ACTION_DEBUG] = {"debug", {SDL_SCANCODE_F1}, {PAD(Y)}, 0, false},
    [ACTION_SCREENSHOT] = {"screenshot", {SDL_SCANCODE_F12}, {0}, 0, false},
};

static Input fresh(void) {
    Input in = {0};
    st_input_set_actions(&in, actions, ACTION_COUNT);
    return in;
}

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

static bool feed(Input *in, SDL_Event e) { return st_input_handle_event(in, &e); }

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    Input in = fresh();
    /* AZERTY: the key in the W position produces 'z' but its scancode is still W. */
    CHECK(feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_W, SDLK_z, 0, 0)));
    CHECK(in.down[ACTION_UP] && in.pressed[ACTION_UP]);
    /* A keycode alone means nothing: 'w' typed from another physical key is not "up". */
    Input other = fresh();
    CHECK(feed(&other, key_event(SDL_KEYDOWN, SDL_SCANCODE_Z, SDLK_w, 0, 0))); /* a key, seen raw */
    CHECK(!other.down[ACTION_UP] && st_input_key_held(&other, SDL_SCANCODE_Z) && st_input_key_hit(&other, SDL_SCANCODE_Z));
    CHECK(!st_input_key_held(&other, SDL_SCANCODE_W));

    st_input_end_step(&in);
    CHECK(in.down[ACTION_UP] && !in.pressed[ACTION_UP]);
    feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_W, SDLK_z, 0, 1)); /* auto-repeat */
    CHECK(!in.pressed[ACTION_UP]);
    feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_UP, SDLK_UP, 0, 0)); /* second binding */
    CHECK(!in.pressed[ACTION_UP]);                                  /* already down: no new edge */
    feed(&in, key_event(SDL_KEYUP, SDL_SCANCODE_W, SDLK_z, 0, 0));
    CHECK(in.down[ACTION_UP]); /* Up still held */
    feed(&in, key_event(SDL_KEYUP, SDL_SCANCODE_UP, SDLK_UP, 0, 0));
    CHECK(!in.down[ACTION_UP] && in.released[ACTION_UP]);

    /* Press and release within one step still counts as one press. */
    st_input_end_step(&in);
    feed(&in, key_event(SDL_KEYDOWN, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    feed(&in, key_event(SDL_KEYUP, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    CHECK(in.pressed[ACTION_FIRE] && !in.down[ACTION_FIRE]);
    st_input_end_step(&in);
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
        {SDL_SCANCODE_F12, ACTION_SCREENSHOT},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        Input k = fresh();
        feed(&k, key_event(SDL_KEYDOWN, map[i].sc, 0, 0, 0));
        for (int a = 0; a < ACTION_COUNT; a++) CHECK(k.down[a] == (a == (int)map[i].a));
    }

    /* F11 and Alt+Enter: the engine's fullscreen, and Alt+Enter is no confirm. F11 drives no
       action of the table (it has none), but is seen raw. */
    Input alt = fresh();
    feed(&alt, key_event(SDL_KEYDOWN, SDL_SCANCODE_RETURN, SDLK_RETURN, KMOD_LALT, 0));
    CHECK_EQ_I(alt.fullscreen_presses, 1);
    CHECK(!alt.down[ACTION_CONFIRM] && !alt.pressed[ACTION_CONFIRM] && !st_input_key_hit(&alt, SDL_SCANCODE_RETURN));
    feed(&alt, key_event(SDL_KEYDOWN, SDL_SCANCODE_F11, SDLK_F11, 0, 0));
    CHECK_EQ_I(alt.fullscreen_presses, 2);
    CHECK(st_input_key_hit(&alt, SDL_SCANCODE_F11));
    for (int a = 0; a < ACTION_COUNT; a++) CHECK(!alt.down[a]);

    /* Pad: A fires and confirms, Start pauses, dpad moves. */
    Input pad = fresh();
    feed(&pad, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_A));
    CHECK(pad.down[ACTION_FIRE] && pad.down[ACTION_CONFIRM]);
    feed(&pad, button_event(SDL_CONTROLLERBUTTONUP, SDL_CONTROLLER_BUTTON_A));
    CHECK(!pad.down[ACTION_FIRE] && pad.released[ACTION_FIRE]);
    feed(&pad, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_START));
    CHECK(pad.pressed[ACTION_PAUSE]);
    feed(&pad, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_DPAD_LEFT));
    CHECK(pad.down[ACTION_LEFT] && st_input_pad_hit(&pad, SDL_CONTROLLER_BUTTON_DPAD_LEFT));
    CHECK(st_input_pad_hit(&pad, SDL_CONTROLLER_BUTTON_START) && !st_input_pad_hit(&pad, SDL_CONTROLLER_BUTTON_Y));
    feed(&pad, button_event(SDL_CONTROLLERBUTTONUP, SDL_CONTROLLER_BUTTON_DPAD_LEFT));
    /* Stick: inside the dead zone nothing moves; past it, analog values and digital actions. */
    Input st = fresh();
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTX, (int)(32767 * 0.2f)));
    CHECK(st.stick_x == 0 && !st.down[ACTION_RIGHT]);
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTX, 32767));
    CHECK(st.stick_x > 0.99f && st.down[ACTION_RIGHT] && st.pressed[ACTION_RIGHT]);
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTX, (int)(32767 * 0.4f)));
    /* rescaled from the dead zone */
    CHECK(st.stick_x > 0.1f && st.stick_x < 0.3f && !st.down[ACTION_RIGHT]);
    feed(&st, axis_event(SDL_CONTROLLER_AXIS_LEFTY, -32768));
    CHECK(st.down[ACTION_UP] && st.stick_y < -0.9f);
    CHECK(!feed(&st, axis_event(SDL_CONTROLLER_AXIS_RIGHTX, 32767))); /* right stick unbound */

    /* Focus loss: everything released, flag raised; regained focus does not re-press. */
    Input f = fresh();
    feed(&f, key_event(SDL_KEYDOWN, SDL_SCANCODE_D, 0, 0, 0));
    feed(&f, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_A));
    st_input_end_step(&f);
    feed(&f, window_event(SDL_WINDOWEVENT_FOCUS_LOST));
    CHECK(f.focus_lost && !f.focused);
    for (int a = 0; a < ACTION_COUNT; a++) CHECK(!f.down[a]);
    CHECK(f.released[ACTION_RIGHT]);
    feed(&f, window_event(SDL_WINDOWEVENT_FOCUS_GAINED));
    CHECK(f.focused && !f.pressed[ACTION_RIGHT]);
    st_input_end_step(&f);
    CHECK(!f.focus_lost);
    SDL_Event q = {.type = SDL_QUIT};
    CHECK(st_input_handle_event(&f, &q) && f.quit);
    CHECK(st_input_action_name(&f, ACTION_FIRE)[0] == 'f');
    CHECK(st_input_action_name(&f, ACTION_COUNT)[0] == '?');

    /* Two taps of one action before a step: pressed once, counted twice; a second binding
       going down while the first is held is no new press; end_step forgets the count. */
    Input tp = fresh();
    feed(&tp, key_event(SDL_KEYDOWN, SDL_SCANCODE_DOWN, 0, 0, 0));
    feed(&tp, key_event(SDL_KEYUP, SDL_SCANCODE_DOWN, 0, 0, 0));
    feed(&tp, key_event(SDL_KEYDOWN, SDL_SCANCODE_S, 0, 0, 0));
    feed(&tp, key_event(SDL_KEYDOWN, SDL_SCANCODE_DOWN, 0, 0, 0)); /* S still held */
    feed(&tp, key_event(SDL_KEYDOWN, SDL_SCANCODE_S, 0, 0, 1));    /* repeat */
    CHECK(tp.pressed[ACTION_DOWN] && tp.down[ACTION_DOWN]);
    CHECK_EQ_U(tp.presses[ACTION_DOWN], 2);
    CHECK_EQ_U(tp.presses[ACTION_UP], 0);
    st_input_end_step(&tp);
    CHECK_EQ_U(tp.presses[ACTION_DOWN], 0);
    feed(&tp, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_START));
    feed(&tp, button_event(SDL_CONTROLLERBUTTONUP, SDL_CONTROLLER_BUTTON_START));
    feed(&tp, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_START));
    CHECK_EQ_U(tp.presses[ACTION_PAUSE], 2);

    /* key_pressed: the last key down, bound or not, repeats ignored, until end_step. */
    Input kp = fresh();
    CHECK_EQ_U(kp.key_pressed, 0);
    CHECK(feed(&kp, key_event(SDL_KEYDOWN, SDL_SCANCODE_K, SDLK_k, 0, 0))); /* unbound: raw only */
    CHECK_EQ_U(kp.key_pressed, SDL_SCANCODE_K);
    feed(&kp, key_event(SDL_KEYDOWN, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    feed(&kp, key_event(SDL_KEYDOWN, SDL_SCANCODE_K, SDLK_k, 0, 1)); /* K repeating */
    CHECK_EQ_U(kp.key_pressed, SDL_SCANCODE_SPACE);
    feed(&kp, key_event(SDL_KEYUP, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    CHECK_EQ_U(kp.key_pressed, SDL_SCANCODE_SPACE);
    st_input_end_step(&kp);
    CHECK_EQ_U(kp.key_pressed, 0);

    /* Default bindings: today's keys, two per action where there were two. */
    InputBindings def = st_input_bindings_default(&kp);
    CHECK_EQ_U(def.keys[ACTION_UP][0], SDL_SCANCODE_W);
    CHECK_EQ_U(def.keys[ACTION_UP][1], SDL_SCANCODE_UP);
    CHECK_EQ_U(def.keys[ACTION_FIRE][0], SDL_SCANCODE_SPACE);
    CHECK_EQ_U(def.keys[ACTION_FIRE][1], SDL_SCANCODE_J);
    CHECK_EQ_U(def.keys[ACTION_CONFIRM][1], SDL_SCANCODE_KP_ENTER);
    CHECK_EQ_U(def.keys[ACTION_RESTART][0], SDL_SCANCODE_R);
    CHECK_EQ_U(def.keys[ACTION_RESTART][1], 0);
    CHECK_EQ_U(def.keys[ACTION_DEBUG][0], SDL_SCANCODE_F1);
    for (int a = 0; a < ACTION_COUNT; a++) CHECK(st_input_action_rebindable(&kp, a) == (a <= ACTION_RESTART));
    CHECK(!st_input_action_rebindable(&kp, ACTION_COUNT));

    /* Rebinding: Fire to K and L; Space no longer fires; the debug key cannot move. */
    Input rb = fresh();
    InputBindings b = def;
    b.keys[ACTION_FIRE][0] = SDL_SCANCODE_K;
    b.keys[ACTION_FIRE][1] = SDL_SCANCODE_L;
    b.keys[ACTION_DEBUG][0] = SDL_SCANCODE_X; /* ignored */
    st_input_set_bindings(&rb, &b);
    feed(&rb, key_event(SDL_KEYDOWN, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    CHECK(!rb.down[ACTION_FIRE]);
    CHECK(feed(&rb, key_event(SDL_KEYDOWN, SDL_SCANCODE_L, SDLK_l, 0, 0)));
    CHECK(rb.down[ACTION_FIRE] && rb.pressed[ACTION_FIRE]);
    feed(&rb, key_event(SDL_KEYDOWN, SDL_SCANCODE_X, SDLK_x, 0, 0));
    CHECK(!rb.down[ACTION_DEBUG]);
    feed(&rb, key_event(SDL_KEYDOWN, SDL_SCANCODE_F1, SDLK_F1, 0, 0));
    CHECK(rb.down[ACTION_DEBUG]);
    CHECK_EQ_U(rb.bindings.keys[ACTION_DEBUG][0], SDL_SCANCODE_F1);
    /* One key on two actions drives both, as pad A does. */
    b.keys[ACTION_CONFIRM][1] = SDL_SCANCODE_K;
    st_input_set_bindings(&rb, &b);
    feed(&rb, key_event(SDL_KEYDOWN, SDL_SCANCODE_K, SDLK_k, 0, 0));
    CHECK(rb.down[ACTION_FIRE] && rb.down[ACTION_CONFIRM]);

    /* No stuck keys: everything held through a key is released by a rebind, and the old
       key's release afterwards changes nothing. W is held while Up moves to I and K; Space
       is held while it moves to Fire's other slot; a pad button holds Fire meanwhile. */
    Input st2 = fresh();
    feed(&st2, key_event(SDL_KEYDOWN, SDL_SCANCODE_W, SDLK_w, 0, 0));
    feed(&st2, key_event(SDL_KEYDOWN, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    feed(&st2, button_event(SDL_CONTROLLERBUTTONDOWN, SDL_CONTROLLER_BUTTON_X)); /* pad fire */
    st_input_end_step(&st2);
    InputBindings nb = def;
    nb.keys[ACTION_UP][0] = SDL_SCANCODE_I;
    nb.keys[ACTION_UP][1] = SDL_SCANCODE_K;
    nb.keys[ACTION_FIRE][0] = SDL_SCANCODE_J;
    nb.keys[ACTION_FIRE][1] = SDL_SCANCODE_SPACE; /* Space moves to slot 1 */
    st_input_set_bindings(&st2, &nb);
    CHECK(!st2.down[ACTION_UP] && st2.released[ACTION_UP]);
    CHECK(st2.down[ACTION_FIRE]); /* the pad still holds Fire: pads are not rebound */
    feed(&st2, button_event(SDL_CONTROLLERBUTTONUP, SDL_CONTROLLER_BUTTON_X));
    CHECK(!st2.down[ACTION_FIRE]);
    feed(&st2, key_event(SDL_KEYUP, SDL_SCANCODE_W, SDLK_w, 0, 0));
    feed(&st2, key_event(SDL_KEYUP, SDL_SCANCODE_SPACE, SDLK_SPACE, 0, 0));
    for (int a = 0; a < ACTION_COUNT; a++) CHECK(!st2.down[a]);
    /* Pressing under the new bindings works; a slot left empty (0) matches no key. */
    feed(&st2, key_event(SDL_KEYDOWN, SDL_SCANCODE_K, SDLK_k, 0, 0));
    CHECK(st2.down[ACTION_UP]);
    SDL_Event none = key_event(SDL_KEYDOWN, (SDL_Scancode)0, 0, 0, 0);
    CHECK(!st_input_handle_event(&st2, &none));
    /* NULL: back to the defaults. */
    st_input_set_bindings(&st2, NULL);
    CHECK(!st2.down[ACTION_UP]);
    feed(&st2, key_event(SDL_KEYDOWN, SDL_SCANCODE_W, SDLK_w, 0, 0));
    CHECK(st2.down[ACTION_UP]);

    /* Each key's place in the text typed: the prompt a key opens takes the text after it. */
    Input tx = fresh();
    SDL_Event t = {.type = SDL_TEXTINPUT};
    feed(&tx, key_event(SDL_KEYDOWN, SDL_SCANCODE_N, SDLK_n, 0, 0));
    strcpy(t.text.text, "n");
    feed(&tx, t);
    feed(&tx, key_event(SDL_KEYDOWN, SDL_SCANCODE_H, SDLK_h, 0, 0));
    strcpy(t.text.text, "h");
    feed(&tx, t);
    feed(&tx, key_event(SDL_KEYDOWN, SDL_SCANCODE_I, SDLK_i, 0, 0));
    strcpy(t.text.text, "i");
    feed(&tx, t);
    CHECK_EQ_I(tx.key_count, 3);
    CHECK(tx.key_text_at[0] == 0 && tx.key_text_at[1] == 1 && tx.key_text_at[2] == 2 && !strcmp(tx.text, "nhi"));

    /* Key names: without any SDL subsystem (US names from the scancode), then with the
       dummy video driver's keymap. Two names at once stay distinct. */
    CHECK(strcmp(st_input_key_name(0), "none") == 0);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) CHECK(SDL_Init(SDL_INIT_VIDEO) == 0);
        const char *w = st_input_key_name(SDL_SCANCODE_W), *sp = st_input_key_name(SDL_SCANCODE_SPACE);
        CHECK(strcmp(w, "W") == 0);
        CHECK(strcmp(sp, "Space") == 0);
        CHECK(strcmp(st_input_key_name(SDL_SCANCODE_RETURN), "Return") == 0);
        CHECK(strcmp(st_input_key_name(SDL_SCANCODE_F11), "F11") == 0);
        CHECK(strcmp(w, "W") == 0); /* not overwritten by the later calls */
        CHECK(strcmp(st_input_key_name(SDL_SCANCODE_J), "J") == 0);
        CHECK(st_input_key_name(SDL_NUM_SCANCODES)[0] != 0);
    }
    SDL_Quit();

    /* Fixed step: 60 Hz, jitter tolerant, clamped after a stall. */
    FixedStep fs = st_fixed_step_make(60);
    CHECK_EQ_I(st_fixed_step_advance(&fs, 10.0), 1); /* first frame */
    CHECK_EQ_I(st_fixed_step_advance(&fs, 10.0 + 1.0 / 60), 1);
    CHECK_EQ_I(st_fixed_step_advance(&fs, 10.0 + 1.0 / 60 + 0.0166), 1); /* a hair short of a step */
    CHECK_EQ_I(st_fixed_step_advance(&fs, 10.0 + 1.0 / 60 + 0.0166 + 0.004), 0); /* 240 Hz display */
    int total = 0;
    double t0 = 20.0;
    fs = st_fixed_step_make(60);
    st_fixed_step_advance(&fs, t0);
    for (int i = 1; i <= 240; i++) /* 1 s at 240 Hz */
        total += st_fixed_step_advance(&fs, t0 + i / 240.0);
    CHECK(total >= 59 && total <= 61);
    int burst = st_fixed_step_advance(&fs, t0 + 1 + 3.0); /* 3 s stall (debugger) */
    CHECK_EQ_I(burst, fs.max_steps);
    CHECK(fs.dropped > 170);
    CHECK_EQ_I(st_fixed_step_advance(&fs, t0 + 4 + 1.0 / 60), 1); /* back to normal: no debt */
    CHECK(fs.alpha >= 0 && fs.alpha < 1);
    return check_result();
}
