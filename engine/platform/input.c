/* input.c - SDL's events as the game's actions (see input.h). */
#include "platform/input.h"

#include <math.h>
#include <string.h>

#include <SDL2/SDL.h>

#include "core/base.h"

/* Scancodes: physical keys, so WASD stays under the left hand on AZERTY or Dvorak. */
static const InputBindings default_bindings = {.keys = {
                                                   [ACTION_UP] = {SDL_SCANCODE_W, SDL_SCANCODE_UP},
                                                   [ACTION_DOWN] = {SDL_SCANCODE_S, SDL_SCANCODE_DOWN},
                                                   [ACTION_LEFT] = {SDL_SCANCODE_A, SDL_SCANCODE_LEFT},
                                                   [ACTION_RIGHT] = {SDL_SCANCODE_D, SDL_SCANCODE_RIGHT},
                                                   [ACTION_FIRE] = {SDL_SCANCODE_SPACE, SDL_SCANCODE_J},
                                                   [ACTION_CONFIRM] = {SDL_SCANCODE_RETURN, SDL_SCANCODE_KP_ENTER},
                                                   [ACTION_PAUSE] = {SDL_SCANCODE_ESCAPE, SDL_SCANCODE_P},
                                                   [ACTION_RESTART] = {SDL_SCANCODE_R},
                                                   [ACTION_DEBUG] = {SDL_SCANCODE_F1},
                                                   [ACTION_SCREENSHOT] = {SDL_SCANCODE_F12},
                                                   [ACTION_FULLSCREEN] = {SDL_SCANCODE_F11},
                                                   [ACTION_MUTE] = {SDL_SCANCODE_M},
                                                   [ACTION_EDIT] = {SDL_SCANCODE_E},
                                               }};
_Static_assert(ACTION_COUNT *INPUT_KEY_SLOTS <= 32, "key_bits is a uint32_t");
_Static_assert(SDL_NUM_SCANCODES <= 65536, "scancodes are stored as uint16_t");

/* Pad buttons, indexed by SDL_GameControllerButton; a button may drive two actions. Not
   rebindable: the pad's layout is the same for everyone. */
typedef struct PadBinding {
    int button;
    Action action;
} PadBinding;
static const PadBinding pad_bindings[] = {
    {SDL_CONTROLLER_BUTTON_A, ACTION_FIRE},         {SDL_CONTROLLER_BUTTON_A, ACTION_CONFIRM},
    {SDL_CONTROLLER_BUTTON_X, ACTION_FIRE},         {SDL_CONTROLLER_BUTTON_START, ACTION_PAUSE},
    {SDL_CONTROLLER_BUTTON_BACK, ACTION_RESTART},   {SDL_CONTROLLER_BUTTON_Y, ACTION_DEBUG},
    {SDL_CONTROLLER_BUTTON_DPAD_UP, ACTION_UP},     {SDL_CONTROLLER_BUTTON_DPAD_DOWN, ACTION_DOWN},
    {SDL_CONTROLLER_BUTTON_DPAD_LEFT, ACTION_LEFT}, {SDL_CONTROLLER_BUTTON_DPAD_RIGHT, ACTION_RIGHT},
};
#define PAD_BINDING_COUNT (int)ARRAY_COUNT(pad_bindings)
_Static_assert(SDL_CONTROLLER_BUTTON_MAX <= 32, "pad_bits is a uint32_t");

/* A stick pushed past this (after the dead zone) also counts as the digital direction, so
   menus and grid movement work with the stick. */
#define STICK_DIGITAL 0.5f

static const char *action_names[ACTION_COUNT] = {
    "up",      "down",  "left",       "right",      "fire", "confirm", "pause",
    "restart", "debug", "screenshot", "fullscreen", "mute", "edit",
};

const char *input_action_name(Action a) { return (unsigned)a < ACTION_COUNT ? action_names[a] : "?"; }

InputBindings input_bindings_default(void) { return default_bindings; }

bool input_action_rebindable(Action a) { return a >= ACTION_UP && a <= ACTION_RESTART; }

static const InputBindings *input_bindings(const Input *in) {
    return in->custom_bindings ? &in->bindings : &default_bindings;
}

void input_end_step(Input *in) {
    memset(in->pressed, 0, sizeof in->pressed);
    memset(in->presses, 0, sizeof in->presses);
    memset(in->released, 0, sizeof in->released);
    in->key_pressed = 0;
    in->focus_lost = false;
    in->key_count = 0;
    in->text_len = 0;
    in->text[0] = '\0';
    memset(in->mouse_pressed, 0, sizeof in->mouse_pressed);
    memset(in->mouse_released, 0, sizeof in->mouse_released);
    in->wheel = 0;
}

/* down[] from the per-source bits; edges latch until input_end_step. */
static void input_refresh(Input *in) {
    bool now[ACTION_COUNT] = {0};
    for (int a = 0; a < ACTION_COUNT; a++)
        for (int s = 0; s < INPUT_KEY_SLOTS; s++)
            if (in->key_bits & (1u << (a * INPUT_KEY_SLOTS + s))) now[a] = true;
    for (int i = 0; i < PAD_BINDING_COUNT; i++)
        if (in->pad_bits & (1u << pad_bindings[i].button)) now[pad_bindings[i].action] = true;
    if (in->stick_x <= -STICK_DIGITAL) now[ACTION_LEFT] = true;
    if (in->stick_x >= STICK_DIGITAL) now[ACTION_RIGHT] = true;
    if (in->stick_y <= -STICK_DIGITAL) now[ACTION_UP] = true;
    if (in->stick_y >= STICK_DIGITAL) now[ACTION_DOWN] = true;
    for (int a = 0; a < ACTION_COUNT; a++) {
        if (now[a] && !in->down[a]) {
            in->pressed[a] = true;
            if (in->presses[a] < UINT8_MAX) in->presses[a]++;
        }
        if (!now[a] && in->down[a]) in->released[a] = true;
        in->down[a] = now[a];
    }
    float dx = (float)in->down[ACTION_RIGHT] - (float)in->down[ACTION_LEFT];
    float dy = (float)in->down[ACTION_DOWN] - (float)in->down[ACTION_UP];
    /* Analog only when the stick is the sole source, so a diagonal stays analog while a
       key press gives a clean full-strength direction. */
    bool digital = in->key_bits || (in->pad_bits & ~(1u << SDL_CONTROLLER_BUTTON_A));
    in->move_x = digital ? dx : in->stick_x;
    in->move_y = digital ? dy : in->stick_y;
}

void input_release_all(Input *in) {
    in->key_bits = 0;
    in->pad_bits = 0;
    in->stick_x = in->stick_y = 0;
    input_refresh(in);
}

void input_set_bindings(Input *in, const InputBindings *b) {
    InputBindings next = default_bindings;
    if (b)
        for (int a = 0; a < ACTION_COUNT; a++)
            if (input_action_rebindable((Action)a)) memcpy(next.keys[a], b->keys[a], sizeof next.keys[a]);
    in->bindings = next;
    in->custom_bindings = true;
    /* key_bits name binding slots, not keys: under the new table a held bit would belong to
       whatever key now sits in that slot, and its release would never come. */
    in->key_bits = 0;
    input_refresh(in);
}

const char *input_key_name(uint16_t scancode) {
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

bool input_handle_event(Input *in, const SDL_Event *e) {
    switch (e->type) {
    case SDL_KEYDOWN:
    case SDL_KEYUP: {
        bool down = e->type == SDL_KEYDOWN;
        SDL_Scancode sc = e->key.keysym.scancode;
        in->mods = (uint16_t)e->key.keysym.mod;
        if (down && e->key.repeat) return true;
        if (down && sc > 0 && sc < SDL_NUM_SCANCODES) {
            in->key_pressed = (uint16_t)sc;
            if (in->key_count < INPUT_KEY_QUEUE) {
                in->keys[in->key_count] = (uint16_t)sc;
                in->key_mods[in->key_count++] = (uint16_t)e->key.keysym.mod;
            }
        }
        if (down && (sc == SDL_SCANCODE_RETURN || sc == SDL_SCANCODE_KP_ENTER) && (e->key.keysym.mod & KMOD_ALT)) {
            in->pressed[ACTION_FULLSCREEN] = true; /* Alt+Enter is not a confirm */
            if (in->presses[ACTION_FULLSCREEN] < UINT8_MAX) in->presses[ACTION_FULLSCREEN]++;
            return true;
        }
        const InputBindings *b = input_bindings(in);
        bool used = false;
        for (int a = 0; a < ACTION_COUNT; a++) {
            for (int s = 0; s < INPUT_KEY_SLOTS; s++) {
                if (b->keys[a][s] == 0 || b->keys[a][s] != sc) continue;
                uint32_t bit = 1u << (a * INPUT_KEY_SLOTS + s);
                if (down) in->key_bits |= bit;
                else in->key_bits &= ~bit;
                used = true;
            }
        }
        if (used) input_refresh(in);
        return used;
    }
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP: {
        int b = e->cbutton.button;
        if (b < 0 || b >= SDL_CONTROLLER_BUTTON_MAX) return false;
        if (e->type == SDL_CONTROLLERBUTTONDOWN) in->pad_bits |= 1u << b;
        else in->pad_bits &= ~(1u << b);
        input_refresh(in);
        return true;
    }
    case SDL_CONTROLLERAXISMOTION: {
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
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
            in->focused = false;
            in->focus_lost = true;
            in->stick_raw_x = in->stick_raw_y = 0;
            input_release_all(in);
            return true;
        }
        if (e->window.event == SDL_WINDOWEVENT_FOCUS_GAINED) {
            in->focused = true;
            return true;
        }
        return false;
    case SDL_QUIT: in->quit = true; return true;
    case SDL_TEXTINPUT: {
        size_t n = strlen(e->text.text);
        if (in->text_len + (int)n < INPUT_TEXT_MAX) {
            memcpy(in->text + in->text_len, e->text.text, n + 1);
            in->text_len += (int)n;
        }
        return true;
    }
    case SDL_MOUSEMOTION:
        in->mouse_wx = e->motion.x, in->mouse_wy = e->motion.y;
        in->mouse_seen = true;
        return true;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
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
    case SDL_MOUSEWHEEL:
        in->wheel += e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y;
        return true;
    default: return false;
    }
}
