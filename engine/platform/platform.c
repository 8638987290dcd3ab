/* platform.c - SDL2 window / software surface, input mapping, fixed-step clock. */
#include "platform/platform.h"

#include <math.h>
#include <string.h>

#include <SDL2/SDL.h>

#include "core/base.h"
#include "core/diag.h"

#define PLATFORM_MAX_PADS 4

struct Platform {
    SDL_Window *window;   /* NULL headless */
    SDL_Surface *surface; /* headless target */
    SDL_Renderer *renderer;
    SDL_GameController *pads[PLATFORM_MAX_PADS];
    int logical_w, logical_h;
    bool headless;
    uint64_t start_counter, frames;
    double counter_hz;
};

/* ---- input ---- */

typedef struct KeyBinding {
    SDL_Scancode key;
    Action action;
} KeyBinding;

/* Scancodes: physical keys, so WASD stays under the left hand on AZERTY or Dvorak. */
static const KeyBinding key_bindings[] = {
    {SDL_SCANCODE_W, ACTION_UP},        {SDL_SCANCODE_UP, ACTION_UP},
    {SDL_SCANCODE_S, ACTION_DOWN},      {SDL_SCANCODE_DOWN, ACTION_DOWN},
    {SDL_SCANCODE_A, ACTION_LEFT},      {SDL_SCANCODE_LEFT, ACTION_LEFT},
    {SDL_SCANCODE_D, ACTION_RIGHT},     {SDL_SCANCODE_RIGHT, ACTION_RIGHT},
    {SDL_SCANCODE_SPACE, ACTION_FIRE},  {SDL_SCANCODE_J, ACTION_FIRE},
    {SDL_SCANCODE_RETURN, ACTION_CONFIRM}, {SDL_SCANCODE_KP_ENTER, ACTION_CONFIRM},
    {SDL_SCANCODE_ESCAPE, ACTION_PAUSE}, {SDL_SCANCODE_P, ACTION_PAUSE},
    {SDL_SCANCODE_R, ACTION_RESTART},   {SDL_SCANCODE_F1, ACTION_DEBUG},
    {SDL_SCANCODE_F12, ACTION_SCREENSHOT}, {SDL_SCANCODE_F11, ACTION_FULLSCREEN},
};
#define KEY_BINDING_COUNT (int)ARRAY_COUNT(key_bindings)
_Static_assert(KEY_BINDING_COUNT <= 32, "key_bits is a uint32_t");

/* Pad buttons, indexed by SDL_GameControllerButton; a button may drive two actions. */
typedef struct PadBinding {
    int button;
    Action action;
} PadBinding;
static const PadBinding pad_bindings[] = {
    {SDL_CONTROLLER_BUTTON_A, ACTION_FIRE},
    {SDL_CONTROLLER_BUTTON_A, ACTION_CONFIRM},
    {SDL_CONTROLLER_BUTTON_X, ACTION_FIRE},
    {SDL_CONTROLLER_BUTTON_START, ACTION_PAUSE},
    {SDL_CONTROLLER_BUTTON_BACK, ACTION_RESTART},
    {SDL_CONTROLLER_BUTTON_Y, ACTION_DEBUG},
    {SDL_CONTROLLER_BUTTON_DPAD_UP, ACTION_UP},
    {SDL_CONTROLLER_BUTTON_DPAD_DOWN, ACTION_DOWN},
    {SDL_CONTROLLER_BUTTON_DPAD_LEFT, ACTION_LEFT},
    {SDL_CONTROLLER_BUTTON_DPAD_RIGHT, ACTION_RIGHT},
};
#define PAD_BINDING_COUNT (int)ARRAY_COUNT(pad_bindings)
_Static_assert(SDL_CONTROLLER_BUTTON_MAX <= 32, "pad_bits is a uint32_t");

/* A stick pushed past this (after the dead zone) also counts as the digital direction, so
   menus and grid movement work with the stick. */
#define STICK_DIGITAL 0.5f

static const char *action_names[ACTION_COUNT] = {
    "up", "down", "left", "right", "fire", "confirm", "pause", "restart", "debug", "screenshot",
    "fullscreen",
};

const char *action_name(Action a) {
    return (unsigned)a < ACTION_COUNT ? action_names[a] : "?";
}

void input_end_step(Input *in) {
    memset(in->pressed, 0, sizeof in->pressed);
    memset(in->released, 0, sizeof in->released);
    in->focus_lost = false;
}

/* down[] from the per-source bits; edges latch until input_end_step. */
static void input_refresh(Input *in) {
    bool now[ACTION_COUNT] = {0};
    for (int i = 0; i < KEY_BINDING_COUNT; i++)
        if (in->key_bits & (1u << i)) now[key_bindings[i].action] = true;
    for (int i = 0; i < PAD_BINDING_COUNT; i++)
        if (in->pad_bits & (1u << pad_bindings[i].button)) now[pad_bindings[i].action] = true;
    if (in->stick_x <= -STICK_DIGITAL) now[ACTION_LEFT] = true;
    if (in->stick_x >= STICK_DIGITAL) now[ACTION_RIGHT] = true;
    if (in->stick_y <= -STICK_DIGITAL) now[ACTION_UP] = true;
    if (in->stick_y >= STICK_DIGITAL) now[ACTION_DOWN] = true;
    for (int a = 0; a < ACTION_COUNT; a++) {
        if (now[a] && !in->down[a]) in->pressed[a] = true;
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
        if (down && e->key.repeat) return true;
        if (down && (sc == SDL_SCANCODE_RETURN || sc == SDL_SCANCODE_KP_ENTER) &&
            (e->key.keysym.mod & KMOD_ALT)) {
            in->pressed[ACTION_FULLSCREEN] = true; /* Alt+Enter is not a confirm */
            return true;
        }
        bool used = false;
        for (int i = 0; i < KEY_BINDING_COUNT; i++) {
            if (key_bindings[i].key != sc) continue;
            if (down) in->key_bits |= 1u << i;
            else in->key_bits &= ~(1u << i);
            used = true;
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
    case SDL_QUIT:
        in->quit = true;
        return true;
    default:
        return false;
    }
}

/* ---- platform ---- */

Platform *platform_create(Arena *perm, const PlatformDesc *desc) {
    PlatformDesc d = desc ? *desc : (PlatformDesc){0};
    if (!d.title) d.title = "arena dungeon";
    if (d.logical_w <= 0) d.logical_w = PLATFORM_LOGICAL_W;
    if (d.logical_h <= 0) d.logical_h = PLATFORM_LOGICAL_H;
    if (d.scale <= 0) d.scale = d.headless ? 1 : PLATFORM_DEFAULT_SCALE;

    Platform *pf = arena_push_struct(perm, Platform);
    if (!pf) return NULL;
    pf->headless = d.headless;
    pf->logical_w = d.logical_w;
    pf->logical_h = d.logical_h;

    /* Nearest filtering for every texture created from here on: pixel art stays crisp. */
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
    if (d.headless) {
        if (SDL_Init(SDL_INIT_EVENTS) != 0) {
            diag_report(DIAG_ERROR, "platform: SDL_Init failed: %s", SDL_GetError());
            return NULL;
        }
        pf->surface = SDL_CreateRGBSurfaceWithFormat(
            0, d.logical_w * d.scale, d.logical_h * d.scale, 32, SDL_PIXELFORMAT_RGBA32);
        if (pf->surface) pf->renderer = SDL_CreateSoftwareRenderer(pf->surface);
    } else {
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0");
        if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS) != 0) {
            diag_report(DIAG_ERROR, "platform: SDL_Init failed: %s", SDL_GetError());
            return NULL;
        }
        Uint32 wflags = SDL_WINDOW_RESIZABLE | (d.fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        pf->window = SDL_CreateWindow(d.title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                      d.logical_w * d.scale, d.logical_h * d.scale, wflags);
        if (pf->window) {
            SDL_SetWindowMinimumSize(pf->window, d.logical_w, d.logical_h);
            Uint32 rflags = SDL_RENDERER_ACCELERATED | (d.no_vsync ? 0 : SDL_RENDERER_PRESENTVSYNC);
            pf->renderer = SDL_CreateRenderer(pf->window, -1, rflags);
            if (!pf->renderer) /* no GPU: the software renderer still plays fine at 480x270 */
                pf->renderer = SDL_CreateRenderer(pf->window, -1, SDL_RENDERER_SOFTWARE);
        }
    }
    if (!pf->renderer) {
        diag_report(DIAG_ERROR, "platform: cannot create a %s: %s",
                    d.headless ? "software renderer" : "window and renderer", SDL_GetError());
        platform_release(pf);
        return NULL;
    }
    SDL_RenderSetLogicalSize(pf->renderer, d.logical_w, d.logical_h);
    SDL_RenderSetIntegerScale(pf->renderer, SDL_TRUE);
    pf->counter_hz = (double)SDL_GetPerformanceFrequency();
    pf->start_counter = SDL_GetPerformanceCounter();
    return pf;
}

void platform_release(Platform *pf) {
    if (!pf) return;
    for (int i = 0; i < PLATFORM_MAX_PADS; i++)
        if (pf->pads[i]) SDL_GameControllerClose(pf->pads[i]);
    if (pf->renderer) SDL_DestroyRenderer(pf->renderer);
    if (pf->surface) SDL_FreeSurface(pf->surface);
    if (pf->window) SDL_DestroyWindow(pf->window);
    memset(pf, 0, sizeof *pf);
    SDL_Quit();
}

static void platform_pad_added(Platform *pf, int device_index, Input *in) {
    if (!SDL_IsGameController(device_index)) return;
    SDL_JoystickID id = SDL_JoystickGetDeviceInstanceID(device_index);
    for (int i = 0; i < PLATFORM_MAX_PADS; i++)
        if (pf->pads[i] && SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(pf->pads[i])) == id)
            return; /* already open (the start-up enumeration and the event both report it) */
    for (int i = 0; i < PLATFORM_MAX_PADS; i++) {
        if (pf->pads[i]) continue;
        pf->pads[i] = SDL_GameControllerOpen(device_index);
        if (pf->pads[i]) in->pads++;
        return;
    }
}

static void platform_pad_removed(Platform *pf, SDL_JoystickID id, Input *in) {
    for (int i = 0; i < PLATFORM_MAX_PADS; i++) {
        if (!pf->pads[i]) continue;
        if (SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(pf->pads[i])) != id) continue;
        SDL_GameControllerClose(pf->pads[i]);
        pf->pads[i] = NULL;
        in->pads--;
        /* A pad unplugged mid-press never sends its releases. */
        in->pad_bits = 0;
        in->stick_x = in->stick_y = 0;
        in->stick_raw_x = in->stick_raw_y = 0;
        input_release_all(in);
        return;
    }
}

bool platform_poll(Platform *pf, Input *in) {
    if (pf->frames++ == 0 && !pf->headless) in->focused = true;
    if (pf->headless) in->focused = true;
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_CONTROLLERDEVICEADDED)
            platform_pad_added(pf, e.cdevice.which, in);
        else if (e.type == SDL_CONTROLLERDEVICEREMOVED)
            platform_pad_removed(pf, e.cdevice.which, in);
        else
            input_handle_event(in, &e);
    }
    if (in->pressed[ACTION_FULLSCREEN]) {
        in->pressed[ACTION_FULLSCREEN] = false; /* consumed here, not by the game */
        platform_toggle_fullscreen(pf);
    }
    return !in->quit;
}

double platform_seconds(const Platform *pf) {
    if (pf->headless) return (double)pf->frames / 60.0;
    return (double)(SDL_GetPerformanceCounter() - pf->start_counter) / pf->counter_hz;
}

void platform_toggle_fullscreen(Platform *pf) {
    if (!pf->window) return;
    Uint32 fs = SDL_GetWindowFlags(pf->window) & SDL_WINDOW_FULLSCREEN_DESKTOP;
    SDL_SetWindowFullscreen(pf->window, fs ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
}

bool platform_is_headless(const Platform *pf) { return pf->headless; }
struct SDL_Renderer *platform_renderer(Platform *pf) { return pf->renderer; }

void platform_logical_size(const Platform *pf, int *w, int *h) {
    if (w) *w = pf->logical_w;
    if (h) *h = pf->logical_h;
}

/* ---- fixed step ---- */

FixedStep fixed_step_make(int hz) {
    if (hz <= 0) hz = 60;
    return (FixedStep){.dt = 1.0 / hz, .last = -1, .max_steps = 5};
}

int fixed_step_advance(FixedStep *fs, double now) {
    if (fs->last < 0) {
        /* First frame: simulate one step so the first picture is of a live world. */
        fs->last = now;
        fs->steps++;
        return 1;
    }
    double elapsed = now - fs->last;
    fs->last = now;
    if (elapsed < 0) elapsed = 0;
    fs->accumulator += elapsed;
    /* Tolerate timer jitter: a frame of 16.6 ms vs a 16.67 ms step should not alternate
       between 0 and 2 steps, so round to the nearest step within 1/8 of one. */
    int n = (int)((fs->accumulator + fs->dt / 8) / fs->dt);
    if (n > fs->max_steps) {
        fs->dropped += (uint64_t)(n - fs->max_steps);
        n = fs->max_steps;
        fs->accumulator = n * fs->dt; /* the surplus is forgotten, not owed */
    }
    fs->accumulator -= n * fs->dt;
    if (fs->accumulator < 0) fs->accumulator = 0;
    fs->alpha = fs->accumulator / fs->dt;
    fs->steps += (uint64_t)n;
    return n;
}
