/* test_platform.c - the window side of platform.h without a display.
   st_platform_viewport_fit: whole multiples, centred, from 1x up; below 1x a fractional scale
   that keeps the whole view and its aspect inside the window (320x200 used to crop at 1x).
   The settings calls: headless they only record; in a window (SDL's dummy video driver, a
   1024x768 display) the scale is clamped to what the display can show, fullscreen covers the
   display and comes back to the window it was, and the renderer's viewport and scale follow
   every change. PlatformDesc's scale and fullscreen work at creation. */
#include <stdlib.h>
#include <string.h>

#include <SDL2/SDL.h>

#include "check.h"
#include "portable.h"
#include <strata/platform/platform.h>

#define LW 480 /* a game's logical size (the platform takes any) */
#define LH 270

/* The picture is inside the window, and it is the logical picture scaled by v.scale. */
static void check_fit(int win_w, int win_h, PlatformViewport v) {
    CHECK(v.scale > 0);
    CHECK(v.x >= 0 && v.y >= 0 && v.w > 0 && v.h > 0);
    CHECK(v.x + v.w <= win_w && v.y + v.h <= win_h);
    CHECK(SDL_fabs(v.w - LW * v.scale) < 1.0 && SDL_fabs(v.h - LH * v.scale) < 1.0);
    /* centred: the two margins differ by at most a pixel */
    CHECK(SDL_abs((win_w - v.x - v.w) - v.x) <= 1 && SDL_abs((win_h - v.y - v.h) - v.y) <= 1);
    /* it fills the window along one side at least, unless a whole scale left a gap */
    if (v.scale < 1) CHECK(v.w == win_w || v.h == win_h);
}

static void check_renderer_matches(Platform *pf) {
    SDL_Renderer *r = st_platform_renderer(pf);
    PlatformViewport v = st_platform_viewport(pf);
    float sx = 0, sy = 0;
    SDL_RenderGetScale(r, &sx, &sy);
    CHECK(sx == v.scale && sy == v.scale);
    SDL_Rect vp;
    SDL_RenderGetViewport(r, &vp); /* in logical units: the whole logical picture */
    CHECK(SDL_abs(vp.w - LW) <= 1 && SDL_abs(vp.h - LH) <= 1);
    int ow = 0, oh = 0, pw = 0, ph = 0;
    SDL_GetRendererOutputSize(r, &ow, &oh);
    st_platform_output_size(pf, &pw, &ph);
    CHECK_EQ_I(pw, ow);
    CHECK_EQ_I(ph, oh);
    check_fit(ow, oh, v);
}

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    /* ---- the pure fit ---- */
    PlatformViewport v = st_platform_viewport_fit(1440, 810, LW, LH);
    CHECK(v.scale == 3 && v.x == 0 && v.y == 0 && v.w == 1440 && v.h == 810);
    v = st_platform_viewport_fit(1500, 900, LW, LH);
    CHECK(v.scale == 3 && v.w == 1440 && v.h == 810 && v.x == 30 && v.y == 45);
    check_fit(1500, 900, v);
    v = st_platform_viewport_fit(480, 270, LW, LH);
    CHECK(v.scale == 1 && v.x == 0 && v.y == 0 && v.w == 480 && v.h == 270);
    v = st_platform_viewport_fit(1920, 1080, LW, LH);
    CHECK(v.scale == 4 && v.w == 1920);
    v = st_platform_viewport_fit(1280, 1024, LW, LH); /* 4:5: bars above and below */
    CHECK(v.scale == 2 && v.x == 160 && v.y == 242);
    v = st_platform_viewport_fit(959, 2000, LW, LH); /* just short of 2x across */
    CHECK(v.scale == 1 && v.w == 480);

    /* Below 1x: the whole view, scaled down, letterboxed, aspect kept. */
    v = st_platform_viewport_fit(320, 200, LW, LH);
    check_fit(320, 200, v);
    CHECK(v.scale < 1 && v.w == 320 && v.h == 180 && v.x == 0 && v.y == 10);
    v = st_platform_viewport_fit(479, 270, LW, LH);
    check_fit(479, 270, v);
    CHECK(v.scale < 1 && v.w == 479);
    v = st_platform_viewport_fit(270, 480, LW, LH); /* portrait */
    check_fit(270, 480, v);
    CHECK(v.w == 270 && v.h == 151 && v.y == (480 - 151) / 2);
    v = st_platform_viewport_fit(400, 100, LW, LH); /* limited by the height */
    check_fit(400, 100, v);
    CHECK(v.h == 100 && v.w == 177);
    for (int w = 1; w <= 1000; w += 37)
        for (int h = 1; h <= 700; h += 23) check_fit(w, h, st_platform_viewport_fit(w, h, LW, LH));
    v = st_platform_viewport_fit(0, 0, LW, LH); /* minimised */
    CHECK(v.scale == 0 && v.w == 0 && v.h == 0);
    CHECK(st_platform_viewport_fit(100, 100, 0, 0).scale == 0);

    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    REQUIRE(perm);

    /* ---- headless: the settings are recorded, nothing else moves ---- */
    Platform *pf = st_platform_create(perm, &(PlatformDesc){.logical_w = LW, .logical_h = LH, .headless = true});
    REQUIRE(pf);
    CHECK_EQ_I(st_platform_window_scale(pf), 1);
    CHECK(!st_platform_is_fullscreen(pf));
    check_renderer_matches(pf);
    CHECK(st_platform_viewport(pf).scale == 1);
    st_platform_set_window_scale(pf, 4);
    CHECK_EQ_I(st_platform_window_scale(pf), 4);
    st_platform_set_window_scale(pf, 0);
    CHECK_EQ_I(st_platform_window_scale(pf), 1);
    st_platform_set_window_scale(pf, 99);
    CHECK_EQ_I(st_platform_window_scale(pf), PLATFORM_MAX_SCALE);
    st_platform_set_fullscreen(pf, true);
    CHECK(st_platform_is_fullscreen(pf));
    st_platform_toggle_fullscreen(pf);
    CHECK(!st_platform_is_fullscreen(pf));
    int ow, oh;
    st_platform_output_size(pf, &ow, &oh);
    CHECK(ow == LW && oh == LH); /* the surface did not change */
    st_platform_release(pf);

    pf = st_platform_create(
        perm, &(PlatformDesc){.logical_w = LW, .logical_h = LH, .headless = true, .scale = 2, .fullscreen = true});
    REQUIRE(pf);
    CHECK_EQ_I(st_platform_window_scale(pf), 2);
    CHECK(st_platform_is_fullscreen(pf));
    v = st_platform_viewport(pf);
    CHECK(v.scale == 2 && v.w == 960 && v.h == 540);
    check_renderer_matches(pf);
    st_platform_release(pf);

    /* ---- a window on SDL's dummy video driver: one 1024x768 display ---- */
    /* The window class comes from the environment (SDL 2 has no other way): the app id,
       unless the user set one. */
    SDL_setenv("SDL_VIDEO_WAYLAND_WMCLASS", "mine", 1);
    unsetenv("SDL_VIDEO_X11_WMCLASS");
    Input in = {0};
    pf =
        st_platform_create(perm, &(PlatformDesc){.logical_w = LW, .logical_h = LH, .title = "test", .app_id = "test-app"});
    if (!pf) {
        fprintf(stderr, "no dummy window (SDL_VIDEODRIVER=%s)\n", SDL_getenv("SDL_VIDEODRIVER"));
        return 1;
    }
    st_platform_poll(pf, &in);
    const char *wmclass = SDL_getenv("SDL_VIDEO_X11_WMCLASS");
    CHECK(wmclass && strcmp(wmclass, "test-app") == 0); /* the game's own, not the engine's */
    CHECK(strcmp(SDL_getenv("SDL_VIDEO_WAYLAND_WMCLASS"), "mine") == 0);
    /* The default 3x (1440x810) does not fit 1024x768: 2x. */
    CHECK_EQ_I(st_platform_window_scale(pf), 2);
    SDL_Window *win = SDL_RenderGetWindow(st_platform_renderer(pf));
    REQUIRE(win);
    int w, h;
    SDL_GetWindowSize(win, &w, &h);
    CHECK(w == 960 && h == 540);
    int min_w, min_h;
    SDL_GetWindowMinimumSize(win, &min_w, &min_h);
    CHECK(min_w == LW && min_h == LH);
    check_renderer_matches(pf);
    CHECK(st_platform_viewport(pf).scale == 2);

    st_platform_set_window_scale(pf, 1);
    SDL_GetWindowSize(win, &w, &h);
    CHECK(w == LW && h == LH && st_platform_window_scale(pf) == 1);
    check_renderer_matches(pf);
    CHECK(st_platform_viewport(pf).scale == 1);
    st_platform_set_window_scale(pf, 5);
    CHECK_EQ_I(st_platform_window_scale(pf), 2);
    SDL_GetWindowSize(win, &w, &h);
    CHECK(w == 960 && h == 540);

    st_platform_set_fullscreen(pf, true);
    CHECK(st_platform_is_fullscreen(pf));
    st_platform_poll(pf, &in);
    st_platform_output_size(pf, &ow, &oh);
    CHECK(ow == 1024 && oh == 768);
    v = st_platform_viewport(pf);
    CHECK(v.scale == 2 && v.x == 32 && v.y == 114);
    check_renderer_matches(pf);
    /* Back: the window it was. F11 goes through st_platform_poll. */
    SDL_Event f11 = {0};
    f11.type = SDL_KEYDOWN;
    f11.key.keysym.scancode = SDL_SCANCODE_F11;
    SDL_PushEvent(&f11);
    f11.type = SDL_KEYUP;
    SDL_PushEvent(&f11);
    st_platform_poll(pf, &in);
    CHECK(!st_platform_is_fullscreen(pf));
    CHECK_EQ_I(in.fullscreen_presses, 0); /* consumed by the platform */
    SDL_GetWindowSize(win, &w, &h);
    CHECK(w == 960 && h == 540);
    check_renderer_matches(pf);
    /* F11 twice before one poll: on and off again, nothing to see. */
    for (int i = 0; i < 2; i++) {
        f11.type = SDL_KEYDOWN;
        SDL_PushEvent(&f11);
        f11.type = SDL_KEYUP;
        SDL_PushEvent(&f11);
    }
    st_platform_poll(pf, &in);
    CHECK(!st_platform_is_fullscreen(pf));
    /* A scale asked for while fullscreen leaves fullscreen. */
    st_platform_set_fullscreen(pf, true);
    st_platform_set_window_scale(pf, 1);
    CHECK(!st_platform_is_fullscreen(pf));
    SDL_GetWindowSize(win, &w, &h);
    CHECK(w == LW && h == LH);
    check_renderer_matches(pf);
    /* A resize from outside (a window manager, the user): the next poll refits. */
    SDL_SetWindowSize(win, 1000, 700);
    st_platform_poll(pf, &in);
    v = st_platform_viewport(pf);
    CHECK(v.scale == 2 && v.x == 20 && v.y == 80);
    check_renderer_matches(pf);
    st_platform_release(pf);

    /* Fullscreen and a scale at creation. */
    pf = st_platform_create(
        perm, &(PlatformDesc){.logical_w = LW, .logical_h = LH, .title = "test", .scale = 1, .fullscreen = true});
    REQUIRE(pf);
    st_platform_poll(pf, &in);
    CHECK(st_platform_is_fullscreen(pf));
    CHECK_EQ_I(st_platform_window_scale(pf), 1);
    st_platform_output_size(pf, &ow, &oh);
    CHECK(ow == 1024 && oh == 768);
    check_renderer_matches(pf);
    st_platform_set_fullscreen(pf, false);
    win = SDL_RenderGetWindow(st_platform_renderer(pf));
    SDL_GetWindowSize(win, &w, &h);
    CHECK(w == LW && h == LH);
    st_platform_release(pf);

    st_arena_release(perm);
    return check_result();
}
