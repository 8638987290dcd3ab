/* 11_input.c - input: actions, keys and gamepads, driven here by synthetic events.

   The idea: a game names its actions once (InputActionDesc: a name, default keys, pad
   buttons, a stick direction) and asks "is `jump` down / pressed this step?", whatever
   pressed it. The host polls SDL into h->in every frame; st_input_end_step clears the
   edges after the ticks. Because the input is SDL events, a program (or a test, or a demo
   mode) can push its own: this one plays a scripted sequence of key and pad events, so it
   runs the same headless as in a window.
   Look at: the ACTIONS table, script() pushing SDL events, and tick() reading only actions.

   Run: ./11_input --headless --frames 120 --screenshot out.png */
#include <SDL2/SDL.h>

#include "example.h"

enum { ACT_LEFT, ACT_RIGHT, ACT_JUMP, ACT_COUNT };
static const InputActionDesc ACTIONS[ACT_COUNT] = {
    [ACT_LEFT] = {"left", {SDL_SCANCODE_LEFT, SDL_SCANCODE_A}, {SDL_CONTROLLER_BUTTON_DPAD_LEFT + 1}, INPUT_STICK_LEFT},
    [ACT_RIGHT] = {"right",
                   {SDL_SCANCODE_RIGHT, SDL_SCANCODE_D},
                   {SDL_CONTROLLER_BUTTON_DPAD_RIGHT + 1},
                   INPUT_STICK_RIGHT},
    [ACT_JUMP] = {"jump", {SDL_SCANCODE_SPACE}, {SDL_CONTROLLER_BUTTON_A + 1}},
};

typedef struct Game {
    Font font;
    float x, y, vy;
    int jumps;
    const char *last; /* what the script did last: a string constant */
} Game;

static void key(SDL_Scancode sc, bool down) {
    SDL_Event e = {.type = down ? SDL_KEYDOWN : SDL_KEYUP};
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED, e.key.keysym.scancode = sc;
    SDL_PushEvent(&e);
}
static void pad(SDL_GameControllerButton b, bool down) {
    SDL_Event e = {.type = down ? SDL_CONTROLLERBUTTONDOWN : SDL_CONTROLLERBUTTONUP};
    e.cbutton.button = (Uint8)b, e.cbutton.state = down ? SDL_PRESSED : SDL_RELEASED;
    SDL_PushEvent(&e);
}

/* Frame by frame: the keyboard walks right and jumps, then the pad walks left and jumps. */
static void script(Game *g, uint64_t f) {
    if (f == 5) key(SDL_SCANCODE_D, true), g->last = "key D down";
    if (f == 20) key(SDL_SCANCODE_SPACE, true), g->last = "key Space";
    if (f == 21) key(SDL_SCANCODE_SPACE, false);
    if (f == 50) key(SDL_SCANCODE_D, false), g->last = "key D up";
    if (f == 60) pad(SDL_CONTROLLER_BUTTON_DPAD_LEFT, true), g->last = "pad left down";
    if (f == 75) pad(SDL_CONTROLLER_BUTTON_A, true), g->last = "pad A";
    if (f == 76) pad(SDL_CONTROLLER_BUTTON_A, false);
    if (f == 100) pad(SDL_CONTROLLER_BUTTON_DPAD_LEFT, false), g->last = "pad left up";
}

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    if (g) g->x = 150, g->y = 120, g->last = "(nothing yet)";
    return g;
}

static bool start(void *s, Host *h) {
    st_input_set_actions(&h->in, ACTIONS, ACT_COUNT);
    return example_font(h, &((Game *)s)->font);
}

static bool frame(void *s, Host *h) {
    script(s, h->frames); /* pushed now, polled by the host at the next frame */
    return !h->in.quit;
}

static bool tick(void *s, Host *h) {
    Game *g = s;
    const Input *in = &h->in;
    g->x += (float)(in->down[ACT_RIGHT] - in->down[ACT_LEFT]) * 2;
    if (in->pressed[ACT_JUMP] && g->y >= 120) g->vy = -5, g->jumps++;
    g->vy += 0.25f, g->y += g->vy;
    if (g->y > 120) g->y = 120, g->vy = 0;
    return true;
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)hh;
    Game *g = s;
    st_render_rect(h->rd, (RectF){0, 136, w, 4}, 0, (Color){90, 80, 110, 255});
    st_render_rect(h->rd, (RectF){g->x, g->y, 16, 16}, 1, (Color){250, 200, 40, 255});
    for (int a = 0; a < ACT_COUNT; a++) {
        Color c = h->in.down[a] ? (Color){120, 230, 120, 255} : (Color){110, 110, 120, 255};
        st_font_drawf(h->rd, &g->font, 8 + a * 60.f, 8, c, 3, "%s", st_input_action_name(&h->in, a));
    }
    st_font_drawf(h->rd, &g->font, 8, 24, COLOR_WHITE, 3, "last event: %s", g->last);
    st_font_drawf(h->rd, &g->font, 8, 160, COLOR_WHITE, 3, "x %d, jumps %d", (int)g->x, g->jumps);
}

static int release(void *s, Host *h) {
    (void)h;
    Game *g = s;
    printf("x %d, jumps %d\n", (int)g->x, g->jumps);
    return 0;
}

static const GameApi API = {EXAMPLE_API_DEFAULTS, .name = "11_input", .create = create, .start = start,
                            .frame = frame,       .tick = tick,       .draw = draw,     .release = release};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
