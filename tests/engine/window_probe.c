/* window_probe.c - a Platform in a real window for tests/engine/window_test.sh: it draws a
   test card (the logical picture's outline and corners) and prints, whenever it changes,
   what the platform believes, so the script can hold it against what the X server shows
   (xwininfo):

       state out=960x540 viewport=0,0,960x540 scale=2.0000 fullscreen=0 window_scale=2 max_scale=2 pos=160,242

   Keys, besides the platform's own F11: 1..6 st_platform_set_window_scale, F
   st_platform_set_fullscreen(!on), Q quits. Options: --scale N, --fullscreen, --renderer gl|sdl,
   --seconds S (it quits by itself after S seconds, 60 by default, so a lost test cannot leave
   it running). The card is drawn through render.h, so it shows what either backend puts on
   screen: its letterbox, its scaling, its viewport. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL2/SDL.h>

#include <strata/platform/platform.h>
#include <strata/render/render.h>

static void print_state(Platform *pf, char *last, size_t cap) {
    int ow, oh, x = 0, y = 0;
    st_platform_output_size(pf, &ow, &oh);
    SDL_Window *win = st_platform_window(pf);
    if (win) SDL_GetWindowPosition(win, &x, &y);
    PlatformViewport v = st_platform_viewport(pf);
    char line[256];
    snprintf(line, sizeof line,
             "state out=%dx%d viewport=%d,%d,%dx%d scale=%.4f fullscreen=%d window_scale=%d"
             " max_scale=%d pos=%d,%d",
             ow, oh, v.x, v.y, v.w, v.h, v.scale, st_platform_is_fullscreen(pf), st_platform_window_scale(pf),
             st_platform_max_window_scale(pf), x, y);
    if (strcmp(line, last) == 0) return;
    snprintf(last, cap, "%s", line);
    printf("%s\n", line);
    fflush(stdout);
}

int main(int argc, char **argv) {
    PlatformDesc desc = {
        .title = "window probe", .app_id = "window-probe", .logical_w = 480, .logical_h = 270, .no_vsync = true};
    double seconds = 60;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--scale") && i + 1 < argc) desc.scale = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--fullscreen")) desc.fullscreen = true;
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--renderer") && i + 1 < argc && st_platform_renderer_parse(argv[i + 1], &desc.renderer))
            i++;
        else {
            fprintf(stderr, "usage: window_probe [--scale N] [--fullscreen] [--renderer gl|sdl] [--seconds S]\n");
            return 2;
        }
    }
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    Arena *frame = st_arena_create((ArenaParams){.name = "frame"});
    if (!perm || !frame) return 1;
    Platform *pf = st_platform_create(perm, &desc);
    if (!pf) return 1;
    Renderer *rd = st_render_create(perm, pf);
    if (!rd) return 1;
    printf("renderer %s: %s\n", st_platform_renderer_name(st_render_kind(rd)), st_render_describe(rd));
    int lw, lh;
    st_platform_logical_size(pf, &lw, &lh);
    Input in = {0};
    char last[256] = "";
    while (st_platform_poll(pf, &in) && st_platform_seconds(pf) < seconds) {
        uint16_t k = in.key_pressed;
        if (k >= SDL_SCANCODE_1 && k <= SDL_SCANCODE_6) st_platform_set_window_scale(pf, k - SDL_SCANCODE_1 + 1);
        if (k == SDL_SCANCODE_F) st_platform_set_fullscreen(pf, !st_platform_is_fullscreen(pf));
        if (k == SDL_SCANCODE_Q) break;
        st_input_end_step(&in);
        print_state(pf, last, sizeof last);

        /* The logical picture grey with a white outline and a colour in each corner: a
           cropped picture loses an edge or a corner. */
        st_arena_clear(frame);
        st_render_begin(rd, frame, (Color){90, 90, 90, 255});
        st_render_rect_outline(rd, (RectF){0, 0, (float)lw, (float)lh}, 0, COLOR_WHITE);
        static const Color corner[4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}};
        for (int c = 0; c < 4; c++)
            st_render_rect(rd, (RectF){c % 2 ? lw - 16 : 0, c / 2 ? lh - 16 : 0, 16, 16}, 1, corner[c]);
        st_render_end(rd);
        st_render_present(rd);
        SDL_Delay(10);
    }
    st_render_release(rd);
    st_platform_release(pf);
    st_arena_release(frame);
    st_arena_release(perm);
    return 0;
}
