/* input.c - SDL's events as the raw state and the game's actions (see input.h). */
#include <strata/platform/input.h>

#include <math.h>
#include <string.h>

#include <SDL2/SDL.h>

#include <strata/core/base.h>

_Static_assert(SDL_NUM_SCANCODES == INPUT_SCANCODES, "one bit per scancode");
_Static_assert(SDL_CONTROLLER_BUTTON_MAX <= 32, "pad_down is a uint32_t");

static bool bit_get(const uint32_t *bits, unsigned i) { return bits[i / 32] >> (i % 32) & 1u; }
static void bit_set(uint32_t *bits, unsigned i, bool on) {
    if (on) bits[i / 32] |= 1u << (i % 32);
    else bits[i / 32] &= ~(1u << (i % 32));
}

void st_input_set_actions(Input *in, const InputActionDesc *actions, int count) {
    in->actions = actions;
    in->action_count = count < 0 ? 0 : count > INPUT_MAX_ACTIONS ? INPUT_MAX_ACTIONS : count;
    in->bindings = st_input_bindings_default(in);
    st_input_release_all(in);
}

const char *st_input_action_name(const Input *in, int action) {
    return action >= 0 && action < in->action_count && in->actions[action].name ? in->actions[action].name : "?";
}

bool st_input_action_rebindable(const Input *in, int action) {
    return action >= 0 && action < in->action_count && in->actions[action].rebindable;
}

InputBindings st_input_bindings_default(const Input *in) {
    InputBindings b = {0};
    for (int a = 0; a < in->action_count; a++) memcpy(b.keys[a], in->actions[a].keys, sizeof b.keys[a]);
    return b;
}

bool st_input_key_held(const Input *in, uint16_t sc) { return sc < INPUT_SCANCODES && bit_get(in->key_down, sc); }
bool st_input_key_hit(const Input *in, uint16_t sc) { return sc < INPUT_SCANCODES && bit_get(in->key_hit, sc); }
bool st_input_pad_hit(const Input *in, int button) {
    return button >= 0 && button < SDL_CONTROLLER_BUTTON_MAX && (in->pad_hit >> button & 1u);
}

void st_input_end_step(Input *in) {
    memset(in->pressed, 0, sizeof in->pressed);
    memset(in->presses, 0, sizeof in->presses);
    memset(in->released, 0, sizeof in->released);
    memset(in->key_hit, 0, sizeof in->key_hit);
    in->pad_hit = 0;
    in->key_pressed = 0;
    in->focus_lost = false;
    in->key_count = 0;
    in->text_len = 0;
    in->text[0] = '\0';
    memset(in->mouse_pressed, 0, sizeof in->mouse_pressed);
    memset(in->mouse_released, 0, sizeof in->mouse_released);
    in->wheel = 0;
}

static bool stick_drives(const Input *in, uint8_t stick) {
    switch (stick) {
    case INPUT_STICK_LEFT: return in->stick_x <= -INPUT_STICK_DIGITAL;
    case INPUT_STICK_RIGHT: return in->stick_x >= INPUT_STICK_DIGITAL;
    case INPUT_STICK_UP: return in->stick_y <= -INPUT_STICK_DIGITAL;
    case INPUT_STICK_DOWN: return in->stick_y >= INPUT_STICK_DIGITAL;
    default: return false;
    }
}

/* down[] from the raw state through the game's table; edges latch until st_input_end_step. */
static void input_refresh(Input *in) {
    for (int a = 0; a < in->action_count; a++) {
        const InputActionDesc *d = &in->actions[a];
        bool now = stick_drives(in, d->stick);
        for (int s = 0; s < INPUT_KEY_SLOTS; s++)
            now |= in->bindings.keys[a][s] && st_input_key_held(in, in->bindings.keys[a][s]);
        for (int s = 0; s < INPUT_PAD_SLOTS; s++) now |= d->pads[s] && (in->pad_down >> (d->pads[s] - 1) & 1u);
        if (now && !in->down[a]) {
            in->pressed[a] = true;
            if (in->presses[a] < UINT8_MAX) in->presses[a]++;
        }
        if (!now && in->down[a]) in->released[a] = true;
        in->down[a] = now;
    }
}

void st_input_release_all(Input *in) {
    memset(in->key_down, 0, sizeof in->key_down);
    in->pad_down = 0;
    in->stick_x = in->stick_y = 0;
    input_refresh(in);
}

void st_input_set_bindings(Input *in, const InputBindings *b) {
    InputBindings next = st_input_bindings_default(in);
    if (b)
        for (int a = 0; a < in->action_count; a++)
            if (in->actions[a].rebindable) memcpy(next.keys[a], b->keys[a], sizeof next.keys[a]);
    in->bindings = next;
    /* A key held through the change would drive whatever action it now belongs to, from
       the middle of a press: forget it, the player presses again. */
    memset(in->key_down, 0, sizeof in->key_down);
    input_refresh(in);
}

const char *st_input_key_name(uint16_t scancode) {
    if (scancode == 0) return "none";
    if (scancode >= SDL_NUM_SCANCODES) return "?";
    /* One buffer per scancode: SDL_GetKeyName writes printable keys into a single static
       buffer that the next call overwrites. 24 bytes hold every name SDL 2 has. */
    static char names[SDL_NUM_SCANCODES][24];
    SDL_Keycode key = SDL_GetKeyFromScancode((SDL_Scancode)scancode);
    /* Without a video subsystem there is no keymap (every key is SDLK_UNKNOWN): the
       scancode's own name is the key's name on a US layout. */
    const char *name = key != SDLK_UNKNOWN ? SDL_GetKeyName(key) : "";
    if (!name[0]) name = SDL_GetScancodeName((SDL_Scancode)scancode);
    if (!name[0]) name = "?";
    SDL_strlcpy(names[scancode], name, sizeof names[scancode]);
    return names[scancode];
}

/* Radial dead zone, rescaled so that just outside it the value starts from 0. */
static void input_apply_dead_zone(float *x, float *y) {
    float m = sqrtf(*x * *x + *y * *y);
    if (m < INPUT_DEAD_ZONE) {
        *x = *y = 0;
        return;
    }
    float k = (fminf(m, 1.0f) - INPUT_DEAD_ZONE) / (1.0f - INPUT_DEAD_ZONE) / m;
    *x *= k;
    *y *= k;
}

static bool input_key_event(Input *in, const SDL_KeyboardEvent *k) {
    bool down = k->type == SDL_KEYDOWN;
    SDL_Scancode sc = k->keysym.scancode;
    in->mods = (uint16_t)k->keysym.mod;
    if (down && k->repeat) return true;
    if (sc <= 0 || sc >= SDL_NUM_SCANCODES) return false;
    if (down) {
        in->key_pressed = (uint16_t)sc;
        if (in->key_count < INPUT_KEY_QUEUE) {
            in->keys[in->key_count] = (uint16_t)sc;
            in->key_mods[in->key_count] = (uint16_t)k->keysym.mod;
            in->key_text_at[in->key_count++] = (uint8_t)in->text_len;
        }
    }
    /* The engine's own: F11, and Alt+Enter, which then is no Enter of the game's. */
    bool enter = sc == SDL_SCANCODE_RETURN || sc == SDL_SCANCODE_KP_ENTER;
    if (down && (sc == SDL_SCANCODE_F11 || (enter && (k->keysym.mod & KMOD_ALT)))) {
        in->fullscreen_presses++;
        if (sc != SDL_SCANCODE_F11) return true;
    }
    if (down) bit_set(in->key_hit, (unsigned)sc, true);
    bit_set(in->key_down, (unsigned)sc, down);
    input_refresh(in);
    return true;
}

static bool input_pad_event(Input *in, const SDL_Event *e) {
    if (e->type == SDL_CONTROLLERAXISMOTION) {
        float v = e->caxis.value / 32767.0f;
        if (v < -1) v = -1;
        if (e->caxis.axis == SDL_CONTROLLER_AXIS_LEFTX) in->stick_raw_x = v;
        else if (e->caxis.axis == SDL_CONTROLLER_AXIS_LEFTY) in->stick_raw_y = v;
        else return false;
        float x = in->stick_raw_x, y = in->stick_raw_y;
        input_apply_dead_zone(&x, &y);
        in->stick_x = x;
        in->stick_y = y;
        input_refresh(in);
        return true;
    }
    int b = e->cbutton.button;
    if (b < 0 || b >= SDL_CONTROLLER_BUTTON_MAX) return false;
    if (e->type == SDL_CONTROLLERBUTTONDOWN) in->pad_down |= 1u << b, in->pad_hit |= 1u << b;
    else in->pad_down &= ~(1u << b);
    input_refresh(in);
    return true;
}

static bool input_mouse_event(Input *in, const SDL_Event *e) {
    if (e->type == SDL_MOUSEWHEEL) {
        in->wheel += e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y;
        return true;
    }
    if (e->type == SDL_MOUSEMOTION) {
        in->mouse_wx = e->motion.x, in->mouse_wy = e->motion.y;
        in->mouse_seen = true;
        return true;
    }
    int b = e->button.button;
    in->mouse_wx = e->button.x, in->mouse_wy = e->button.y;
    in->mouse_seen = true;
    if (b < 1 || b > 3) return false;
    bool down = e->type == SDL_MOUSEBUTTONDOWN;
    in->mouse_down[b] = down;
    if (down) in->mouse_pressed[b] = true;
    else in->mouse_released[b] = true;
    return true;
}

bool st_input_handle_event(Input *in, const SDL_Event *e) {
    switch (e->type) {
    case SDL_KEYDOWN:
    case SDL_KEYUP: return input_key_event(in, &e->key);
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
    case SDL_CONTROLLERAXISMOTION: return input_pad_event(in, e);
    case SDL_MOUSEMOTION:
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
    case SDL_MOUSEWHEEL: return input_mouse_event(in, e);
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
            in->focused = false;
            in->focus_lost = true;
            in->stick_raw_x = in->stick_raw_y = 0;
            st_input_release_all(in);
            return true;
        }
        if (e->window.event == SDL_WINDOWEVENT_FOCUS_GAINED) in->focused = true;
        return e->window.event == SDL_WINDOWEVENT_FOCUS_GAINED;
    case SDL_QUIT: in->quit = true; return true;
    case SDL_TEXTINPUT: {
        size_t n = strlen(e->text.text);
        if (in->text_len + (int)n < INPUT_TEXT_MAX) {
            memcpy(in->text + in->text_len, e->text.text, n + 1);
            in->text_len += (int)n;
        }
        return true;
    }
    default: return false;
    }
}
