/* platform.c - the SDL2 window or software surface, its events, its clock (platform.h). */
#include <strata/platform/platform.h>

#include <math.h>
#include <signal.h>
#include <string.h>

#include <SDL2/SDL.h>

#if defined(SDL_VIDEO_DRIVER_X11)
/* For the window-manager-less fullscreen below (platform_x11_cover_display). Brings Xlib's
   types; its functions are looked up at run time from the libX11 SDL already uses, so the
   engine does not link X11 itself. */
#include <SDL2/SDL_syswm.h>
#define PLATFORM_X11 1
#endif

#include <strata/core/base.h>
#include <strata/core/diag.h>

#define PLATFORM_MAX_PADS 4
#define PLATFORM_FRAME_CHECKS 60 /* about a second of polls */

#if PLATFORM_X11
typedef Status XGetGeometryFn(Display *, Drawable, Window *, int *, int *, unsigned *, unsigned *, unsigned *,
                              unsigned *);
typedef int XMoveResizeWindowFn(Display *, Window, int, int, unsigned, unsigned);
typedef int XRaiseWindowFn(Display *, Window);
typedef int XSyncFn(Display *, Bool);
typedef struct PlatformX11 {
    void *lib; /* libX11, from SDL_LoadObject; NULL: not on X11 or not found */
    XGetGeometryFn *get_geometry;
    XMoveResizeWindowFn *move_resize;
    XRaiseWindowFn *raise;
    XSyncFn *sync;
} PlatformX11;
#endif

struct Platform {
    SDL_Window *window;     /* NULL headless */
    SDL_Surface *surface;   /* headless target */
    SDL_Renderer *renderer; /* RENDERER_SDL */
    SDL_GLContext gl;       /* RENDERER_GL */
    bool no_vsync;
    SDL_GameController *pads[PLATFORM_MAX_PADS];
    int logical_w, logical_h;
    bool headless;
    bool fixed_clock; /* headless, or asked for */
    uint64_t start_counter, frames;
    double counter_hz;

    int window_scale;           /* the settings: last asked for (clamped) */
    bool fullscreen;            /* headless only: windowed, SDL's flags say */
    int windowed_x, windowed_y; /* the window to come back to from fullscreen */
    int windowed_w, windowed_h;
    int out_w, out_h; /* output size the viewport was fitted to */
    int frame_checks; /* polls left to wait for the WM's frame (platform_fit_frame) */
    PlatformViewport viewport;
    bool signals; /* this one installed the quit signals' handlers (signals_install) */
#if PLATFORM_X11
    PlatformX11 x11;
#endif
};

/* ---- quit signals ---- */

#if !defined(__EMSCRIPTEN__) && !defined(_WIN32)
#define PLATFORM_SIGNALS 1
static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction signals_before[ARRAY_COUNT(quit_signals)];
static int signals_installed; /* platforms created and not released */
/* The last quit signal not yet seen by a poll. The handler sets it and nothing else: the
   frame loop does what the program must (keep unsaved work) where anything may be called. */
static volatile sig_atomic_t signal_pending;

static void on_quit_signal(int sig) { signal_pending = sig; }

/* Ours rather than SDL's, which turn these into an SDL_QUIT that looks like a closed
   window: a signal has nobody at the window to ask. */
static void signals_install(void) {
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (signals_installed++) return;
    struct sigaction sa = {.sa_handler = on_quit_signal};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < ARRAY_COUNT(quit_signals); i++) sigaction(quit_signals[i], &sa, &signals_before[i]);
}

static void signals_release(void) {
    if (signals_installed <= 0 || --signals_installed) return;
    for (size_t i = 0; i < ARRAY_COUNT(quit_signals); i++) sigaction(quit_signals[i], &signals_before[i], NULL);
}
#else
static void signals_install(void) {}
static void signals_release(void) {}
#endif

/* ---- viewport ---- */

PlatformViewport st_platform_viewport_fit(int win_w, int win_h, int logical_w, int logical_h) {
    PlatformViewport v = {0};
    if (win_w <= 0 || win_h <= 0 || logical_w <= 0 || logical_h <= 0) return v;
    int whole = win_w / logical_w < win_h / logical_h ? win_w / logical_w : win_h / logical_h;
    if (whole >= 1) {
        /* Whole multiples keep every logical pixel the same size: crisp pixel art. */
        v.scale = (float)whole;
        v.w = logical_w * whole;
        v.h = logical_h * whole;
    } else {
        /* Smaller than 1x: a fractional scale, so the view shrinks instead of being cropped
           (the HUD and the player must stay on screen). The limiting side fills the window. */
        double sx = (double)win_w / logical_w, sy = (double)win_h / logical_h;
        double s = sx < sy ? sx : sy;
        v.scale = (float)s;
        v.w = sx <= sy ? win_w : (int)floor(logical_w * s);
        v.h = sy <= sx ? win_h : (int)floor(logical_h * s);
        if (v.w < 1) v.w = 1;
        if (v.h < 1) v.h = 1;
    }
    v.x = (win_w - v.w) / 2;
    v.y = (win_h - v.h) / 2;
    return v;
}

/* Fits the logical picture to the output as it is now. This replaces SDL's own logical size
   (SDL_RenderSetLogicalSize), whose integer mode never goes below 1x and crops, and does
   what it does: viewport in output pixels at scale 1, then the scale. SDL resets the
   viewport by itself when the window's size changes, so st_platform_poll calls this again on
   every window event. */
/* The output in pixels: the drawable of the GL context, or the SDL_Renderer's. */
static bool platform_output_pixels(Platform *pf, int *w, int *h) {
    *w = *h = 0;
    if (pf->gl) {
        SDL_GL_GetDrawableSize(pf->window, w, h);
        return true;
    }
    return pf->renderer && SDL_GetRendererOutputSize(pf->renderer, w, h) == 0;
}

static void platform_apply_viewport(Platform *pf) {
    int w = 0, h = 0;
    if (!platform_output_pixels(pf, &w, &h)) return;
    PlatformViewport v = st_platform_viewport_fit(w, h, pf->logical_w, pf->logical_h);
    if (v.scale <= 0) return; /* minimised: keep the last one */
    if (pf->renderer) {       /* the GL backend reads pf->viewport when it presents */
        SDL_RenderSetScale(pf->renderer, 1.0f, 1.0f);
        SDL_RenderSetViewport(pf->renderer, &(SDL_Rect){v.x, v.y, v.w, v.h});
        SDL_RenderSetScale(pf->renderer, v.scale, v.scale);
    }
    pf->out_w = w;
    pf->out_h = h;
    pf->viewport = v;
}

/* ---- window ---- */

/* The largest client area a window may have on the display it is on: the usable bounds
   (without panels and docks) less the window manager's frame. */
static void platform_usable_area(Platform *pf, int display, int *w, int *h) {
    SDL_Rect r;
    if (SDL_GetDisplayUsableBounds(display, &r) != 0 && SDL_GetDisplayBounds(display, &r) != 0) {
        *w = *h = 1 << 20; /* unknown: do not clamp */
        return;
    }
    int top = 0, left = 0, bottom = 0, right = 0;
    if (pf->window) SDL_GetWindowBordersSize(pf->window, &top, &left, &bottom, &right);
    *w = r.w - left - right;
    *h = r.h - top - bottom;
}

/* The window size for `scale`, lowered to the largest scale that fits the area, and below
   1x to the aspect-kept fit of the area itself (a display smaller than the logical size).
   Returns the scale used (1 in that last case). */
static int platform_fit_window(const Platform *pf, int scale, int area_w, int area_h, int *w, int *h) {
    if (scale < 1) scale = 1;
    if (scale > PLATFORM_MAX_SCALE) scale = PLATFORM_MAX_SCALE;
    while (scale > 1 && (pf->logical_w * scale > area_w || pf->logical_h * scale > area_h)) scale--;
    *w = pf->logical_w * scale;
    *h = pf->logical_h * scale;
    if (*w > area_w || *h > area_h) {
        PlatformViewport v = st_platform_viewport_fit(area_w, area_h, pf->logical_w, pf->logical_h);
        if (v.scale > 0) {
            *w = v.w;
            *h = v.h;
        }
    }
    return scale;
}

#if PLATFORM_X11
static void platform_x11_load(Platform *pf) {
    const char *driver = SDL_GetCurrentVideoDriver();
    if (!driver || strcmp(driver, "x11") != 0) return;
    PlatformX11 x = {.lib = SDL_LoadObject("libX11.so.6")};
    if (!x.lib) return;
        /* Stored through a void * as POSIX's dlsym documents: ISO C has no cast from an object
       pointer to a function pointer. */
#define PLATFORM_X11_FN(field, name) *(void **)&x.field = SDL_LoadFunction(x.lib, name)
    PLATFORM_X11_FN(get_geometry, "XGetGeometry");
    PLATFORM_X11_FN(move_resize, "XMoveResizeWindow");
    PLATFORM_X11_FN(raise, "XRaiseWindow");
    PLATFORM_X11_FN(sync, "XSync");
#undef PLATFORM_X11_FN
    if (!x.get_geometry || !x.move_resize || !x.raise || !x.sync) {
        SDL_UnloadObject(x.lib);
        return;
    }
    pf->x11 = x;
}
#endif

/* SDL 2 on X11 goes fullscreen by asking the window manager (_NET_WM_STATE_FULLSCREEN) and
   then assumes the window covers the display. With no window manager nobody answers: the X
   window keeps its size and place while SDL, and the renderer, believe it is the display's
   size, so the picture is drawn for a surface it is not on and comes out cropped. So look
   at the real geometry, give a window manager a moment to act, and when none did, move and
   resize the window ourselves (with no WM the X server does as asked). Elsewhere a no-op. */
static void platform_x11_cover_display(Platform *pf) {
#if PLATFORM_X11
    if (!pf->x11.lib) return;
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(pf->window, &info) || info.subsystem != SDL_SYSWM_X11) return;
    SDL_Rect want;
    if (SDL_GetDisplayBounds(SDL_GetWindowDisplayIndex(pf->window), &want) != 0) return;
    Display *dpy = info.info.x11.display;
    Window win = info.info.x11.window;
    for (int waited = 0; waited <= 250; waited += 10) {
        Window root;
        int x, y;
        unsigned w, h, border, depth;
        pf->x11.sync(dpy, False);
        if (pf->x11.get_geometry(dpy, win, &root, &x, &y, &w, &h, &border, &depth) && (int)w == want.w &&
            (int)h == want.h)
            return; /* a window manager did it */
        SDL_Delay(10);
    }
    pf->x11.move_resize(dpy, win, want.x, want.y, (unsigned)want.w, (unsigned)want.h);
    pf->x11.raise(dpy, win);
    pf->x11.sync(dpy, False);
#else
    (void)pf;
#endif
}

/* SDL loads XInput at SDL_Init and frees it at SDL_Quit. Wine's XInput polls its pads on a
   thread of its own that can still be inside the DLL as it is freed: the process then
   faults at exit, now and then (wine64 8: an execute fault in hid_update_thread_proc, more
   often on a busy machine). One more reference, kept for the process's life, keeps the DLL
   mapped; on Windows it only keeps a system DLL loaded. The names are SDL's, in its order. */
static void platform_hold_xinput(void) {
#if defined(_WIN32)
    static void *held;
    static const char *const names[] = {"xinput1_4.dll", "xinput1_3.dll", "xinput9_1_0.dll"};
    for (size_t i = 0; i < ARRAY_COUNT(names) && !held; i++) held = SDL_LoadObject(names[i]);
    SDL_ClearError(); /* a name that is not there is no error of ours */
#endif
}

/* False only when SDL itself cannot start (reported); a window or renderer that cannot be
   created leaves pf->renderer NULL for st_platform_create to report. */
static bool platform_init_window(Platform *pf, const PlatformDesc *d) {
    /* The class name the window manager (and the desktop's launcher) files the window
       under; SDL 2 reads it only from the environment, at SDL_Init. A value the user set wins. */
    if (d->app_id) {
        SDL_setenv("SDL_VIDEO_X11_WMCLASS", d->app_id, 0);
        SDL_setenv("SDL_VIDEO_WAYLAND_WMCLASS", d->app_id, 0);
    }
    SDL_SetHint(SDL_HINT_APP_NAME, d->title);
    SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER | SDL_INIT_EVENTS) != 0) {
        st_diag_report(DIAG_ERROR, "platform: SDL_Init failed: %s", SDL_GetError());
        return false;
    }
    platform_hold_xinput();
#if PLATFORM_X11
    platform_x11_load(pf);
#endif
    int area_w, area_h, w, h;
    platform_usable_area(pf, 0, &area_w, &area_h);
    pf->window_scale = platform_fit_window(pf, d->scale, area_w, area_h, &w, &h);
    /* Created windowed even when fullscreen is asked for: SDL ignores the minimum size of a
       fullscreen window, and the window must know where to come back to. */
    bool want_gl = d->renderer != RENDERER_SDL;
    if (want_gl) {
        /* 3.3 core: see render/gl/render_gl.h for why this version; in the browser its
           sibling, OpenGL ES 3.0 (WebGL 2). No depth, no stencil. */
#if defined(__EMSCRIPTEN__)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
#else
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
#endif
        SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
        SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
    }
    Uint32 wflags = SDL_WINDOW_RESIZABLE | (want_gl ? SDL_WINDOW_OPENGL : 0);
    pf->window = SDL_CreateWindow(d->title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, wflags);
    if (!pf->window && want_gl) /* no GL-capable visual at all */
        pf->window =
            SDL_CreateWindow(d->title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, SDL_WINDOW_RESIZABLE);
    if (!pf->window) return true;
    if (want_gl && (SDL_GetWindowFlags(pf->window) & SDL_WINDOW_OPENGL)) {
        pf->gl = SDL_GL_CreateContext(pf->window);
        if (pf->gl) {
            /* Vsync unless asked not to; the window still works when the driver says no. */
            if (!d->no_vsync) SDL_GL_SetSwapInterval(1);
            else SDL_GL_SetSwapInterval(0);
        }
    }
    if (want_gl && !pf->gl) {
        char why[256];
        SDL_snprintf(why, sizeof why, "no OpenGL 3.3 core context: %s", SDL_GetError());
        if (!st_platform_use_sdl_renderer(pf, why)) return true;
    } else if (!want_gl) {
        st_platform_use_sdl_renderer(pf, NULL);
    }
    if (!pf->renderer && !pf->gl) return true;
    /* Only now: an OpenGL renderer re-creates the X window (SDL_RecreateWindow), and the
       new one gets no minimum-size hint, so one set before never reaches the window manager.
       Not more than the display can show. */
    int min_w, min_h;
    platform_fit_window(pf, 1, area_w, area_h, &min_w, &min_h);
    SDL_SetWindowMinimumSize(pf->window, min_w, min_h);
    pf->windowed_w = w;
    pf->windowed_h = h;
    pf->frame_checks = PLATFORM_FRAME_CHECKS;
    if (d->fullscreen) st_platform_set_fullscreen(pf, true);
    return true;
}

bool st_platform_use_sdl_renderer(Platform *pf, const char *why) {
    if (pf->renderer) return true;
    if (why) st_diag_report(DIAG_WARNING, "renderer: %s; drawing with SDL_Renderer", why);
    if (pf->gl) {
        SDL_GL_DeleteContext(pf->gl);
        pf->gl = NULL;
    }
    SDL_GL_ResetAttributes(); /* SDL's own GL renderer asks for what it needs */
    Uint32 rflags = SDL_RENDERER_ACCELERATED | (pf->no_vsync ? 0 : SDL_RENDERER_PRESENTVSYNC);
    pf->renderer = SDL_CreateRenderer(pf->window, -1, rflags);
    if (!pf->renderer) /* no GPU: the software renderer still draws pixel art fine */
        pf->renderer = SDL_CreateRenderer(pf->window, -1, SDL_RENDERER_SOFTWARE);
    if (!pf->renderer) {
        st_diag_report(DIAG_ERROR, "platform: cannot create an SDL_Renderer: %s", SDL_GetError());
        return false;
    }
    /* SDL's GL renderer may have re-created the X window, which drops the minimum-size
       hint; set it again. */
    int area_w, area_h, min_w, min_h;
    platform_usable_area(pf, 0, &area_w, &area_h);
    platform_fit_window(pf, 1, area_w, area_h, &min_w, &min_h);
    SDL_SetWindowMinimumSize(pf->window, min_w, min_h);
    platform_apply_viewport(pf);
    return true;
}

Platform *st_platform_create(Arena *perm, const PlatformDesc *desc) {
    PlatformDesc d = desc ? *desc : (PlatformDesc){0};
    if (!d.title) d.title = "untitled";
    if (d.logical_w <= 0) d.logical_w = PLATFORM_DEFAULT_LOGICAL_W;
    if (d.logical_h <= 0) d.logical_h = PLATFORM_DEFAULT_LOGICAL_H;
    if (d.scale <= 0) d.scale = d.headless ? 1 : PLATFORM_DEFAULT_SCALE;

    Platform *pf = st_arena_push_struct(perm, Platform);
    if (!pf) return NULL;
    pf->headless = d.headless;
    pf->fixed_clock = d.headless || d.fixed_clock;
    if (d.fixed_clock) d.no_vsync = true; /* the clock does not wait, neither does the screen */
    pf->no_vsync = d.no_vsync;
    pf->logical_w = d.logical_w;
    pf->logical_h = d.logical_h;

    /* Nearest filtering for every texture created from here on: pixel art stays crisp. */
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
    signals_install();
    pf->signals = true;
    if (d.headless) {
        if (SDL_Init(SDL_INIT_EVENTS) != 0) {
            st_diag_report(DIAG_ERROR, "platform: SDL_Init failed: %s", SDL_GetError());
            signals_release();
            return NULL;
        }
        pf->surface =
            SDL_CreateRGBSurfaceWithFormat(0, d.logical_w * d.scale, d.logical_h * d.scale, 32, SDL_PIXELFORMAT_RGBA32);
        if (pf->surface) pf->renderer = SDL_CreateSoftwareRenderer(pf->surface);
        /* The settings are only recorded headless; start from what was asked. */
        pf->window_scale = d.scale < PLATFORM_MAX_SCALE ? d.scale : PLATFORM_MAX_SCALE;
        pf->fullscreen = d.fullscreen;
    } else if (!platform_init_window(pf, &d)) {
        signals_release();
        return NULL;
    }
    if (!pf->renderer && !pf->gl) {
        st_diag_report(DIAG_ERROR, "platform: cannot create a %s: %s",
                       d.headless ? "software renderer" : "window and renderer", SDL_GetError());
        st_platform_release(pf);
        return NULL;
    }
    platform_apply_viewport(pf);
    pf->counter_hz = (double)SDL_GetPerformanceFrequency();
    pf->start_counter = SDL_GetPerformanceCounter();
    return pf;
}

void st_platform_release(Platform *pf) {
    if (!pf) return;
    for (int i = 0; i < PLATFORM_MAX_PADS; i++)
        if (pf->pads[i]) SDL_GameControllerClose(pf->pads[i]);
    if (pf->renderer) SDL_DestroyRenderer(pf->renderer);
    if (pf->gl) SDL_GL_DeleteContext(pf->gl);
    if (pf->surface) SDL_FreeSurface(pf->surface);
    if (pf->window) SDL_DestroyWindow(pf->window);
    SDL_Quit();
    if (pf->signals) signals_release();
#if PLATFORM_X11
    if (pf->x11.lib) SDL_UnloadObject(pf->x11.lib);
#endif
    memset(pf, 0, sizeof *pf);
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
        in->stick_raw_x = in->stick_raw_y = 0;
        st_input_release_all(in);
        return;
    }
}

/* The window manager draws its frame after the window is up (_NET_FRAME_EXTENTS on X11), so
   at creation the window was fitted to the display without it. Once the frame is known, a
   window that does not fit with it is made smaller, once; with no frame (no WM, borderless)
   there is nothing to do and the checks run out. */
/* The window at w x h, centred on its display, remembered as the windowed size. */
static void platform_place_window(Platform *pf, int display, int w, int h) {
    SDL_SetWindowSize(pf->window, w, h);
    SDL_SetWindowPosition(pf->window, SDL_WINDOWPOS_CENTERED_DISPLAY(display), SDL_WINDOWPOS_CENTERED_DISPLAY(display));
    pf->windowed_w = w;
    pf->windowed_h = h;
    platform_apply_viewport(pf);
}

static void platform_fit_frame(Platform *pf) {
    int top = 0, left = 0, bottom = 0, right = 0;
    if (SDL_GetWindowBordersSize(pf->window, &top, &left, &bottom, &right) != 0) {
        pf->frame_checks = 0; /* this video driver cannot tell */
        return;
    }
    if ((top | left | bottom | right) == 0) {
        pf->frame_checks--; /* no frame yet */
        return;
    }
    pf->frame_checks = 0;
    if (st_platform_is_fullscreen(pf)) return;
    int display = SDL_GetWindowDisplayIndex(pf->window);
    if (display < 0) display = 0;
    int area_w, area_h, w, h, cur_w, cur_h;
    platform_usable_area(pf, display, &area_w, &area_h);
    SDL_GetWindowSize(pf->window, &cur_w, &cur_h);
    if (cur_w <= area_w && cur_h <= area_h) return;
    pf->window_scale = platform_fit_window(pf, pf->window_scale, area_w, area_h, &w, &h);
    int min_w, min_h;
    platform_fit_window(pf, 1, area_w, area_h, &min_w, &min_h);
    SDL_SetWindowMinimumSize(pf->window, min_w, min_h);
    platform_place_window(pf, display, w, h);
}

bool st_platform_poll(Platform *pf, Input *in) {
    if (pf->frames++ == 0 && !pf->headless) in->focused = true;
    if (pf->fixed_clock) in->focused = true; /* a scripted run never pauses on focus */
    bool refit = false;
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_CONTROLLERDEVICEADDED) platform_pad_added(pf, e.cdevice.which, in);
        else if (e.type == SDL_CONTROLLERDEVICEREMOVED) platform_pad_removed(pf, e.cdevice.which, in);
        else st_input_handle_event(in, &e);
        /* SDL's renderer resets the viewport on a size change (and its scale goes stale). */
        if (e.type == SDL_WINDOWEVENT) refit = true;
    }
#if PLATFORM_SIGNALS
    int sig = signal_pending;
    if (sig) {
        signal_pending = 0;
        in->quit = true;
        in->quit_signal = sig;
    }
#endif
    /* Consumed here, not by the game; F11 twice before a poll is on and off again. */
    int toggles = in->fullscreen_presses;
    in->fullscreen_presses = 0;
    if (toggles % 2) st_platform_toggle_fullscreen(pf);
    if (pf->frame_checks > 0) platform_fit_frame(pf);
    if (!refit && pf->window) {
        int w = 0, h = 0;
        platform_output_pixels(pf, &w, &h);
        refit = w != pf->out_w || h != pf->out_h;
    }
    if (refit) platform_apply_viewport(pf);
    /* The mouse in logical pixels, through the viewport the picture is drawn in. */
    PlatformViewport vp = pf->viewport;
    if (vp.scale > 0 && vp.w > 0) {
        in->mouse_x = ((float)in->mouse_wx - (float)vp.x) / vp.scale;
        in->mouse_y = ((float)in->mouse_wy - (float)vp.y) / vp.scale;
    } else {
        in->mouse_x = (float)in->mouse_wx, in->mouse_y = (float)in->mouse_wy;
    }
    return !in->quit;
}

double st_platform_seconds(const Platform *pf) {
    if (pf->fixed_clock) return (double)pf->frames / 60.0;
    return (double)(SDL_GetPerformanceCounter() - pf->start_counter) / pf->counter_hz;
}

bool st_platform_is_fullscreen(const Platform *pf) {
    if (!pf->window) return pf->fullscreen;
    return (SDL_GetWindowFlags(pf->window) & SDL_WINDOW_FULLSCREEN) != 0;
}

void st_platform_set_fullscreen(Platform *pf, bool on) {
    if (!pf->window) {
        pf->fullscreen = on;
        return;
    }
    if (on == st_platform_is_fullscreen(pf)) return;
    if (on) {
        SDL_GetWindowPosition(pf->window, &pf->windowed_x, &pf->windowed_y);
        SDL_GetWindowSize(pf->window, &pf->windowed_w, &pf->windowed_h);
        if (SDL_SetWindowFullscreen(pf->window, SDL_WINDOW_FULLSCREEN_DESKTOP) != 0) {
            st_diag_report(DIAG_WARNING, "platform: cannot go fullscreen: %s", SDL_GetError());
            return;
        }
        platform_x11_cover_display(pf);
    } else {
        SDL_SetWindowFullscreen(pf->window, 0);
        /* A window manager restores the window it had; without one the window stays where
           and as large as the display: put it back ourselves. */
        int x, y, w, h;
        SDL_GetWindowSize(pf->window, &w, &h);
        if (pf->windowed_w > 0 && (w != pf->windowed_w || h != pf->windowed_h))
            SDL_SetWindowSize(pf->window, pf->windowed_w, pf->windowed_h);
        SDL_GetWindowPosition(pf->window, &x, &y);
        if (pf->windowed_w > 0 && (x != pf->windowed_x || y != pf->windowed_y))
            SDL_SetWindowPosition(pf->window, pf->windowed_x, pf->windowed_y);
    }
    platform_apply_viewport(pf);
}

void st_platform_toggle_fullscreen(Platform *pf) { st_platform_set_fullscreen(pf, !st_platform_is_fullscreen(pf)); }

void st_platform_set_window_scale(Platform *pf, int scale) {
    if (scale < 1) scale = 1;
    if (scale > PLATFORM_MAX_SCALE) scale = PLATFORM_MAX_SCALE;
    if (!pf->window) {
        pf->window_scale = scale;
        return;
    }
    st_platform_set_fullscreen(pf, false);
    int display = SDL_GetWindowDisplayIndex(pf->window);
    if (display < 0) display = 0;
    int area_w, area_h, w, h;
    platform_usable_area(pf, display, &area_w, &area_h);
    pf->window_scale = platform_fit_window(pf, scale, area_w, area_h, &w, &h);
    platform_place_window(pf, display, w, h);
}

int st_platform_window_scale(const Platform *pf) { return pf->window_scale; }

int st_platform_max_window_scale(Platform *pf) {
    if (!pf->window) return PLATFORM_MAX_SCALE;
    int display = SDL_GetWindowDisplayIndex(pf->window);
    if (display < 0) display = 0;
    int area_w, area_h, w, h;
    platform_usable_area(pf, display, &area_w, &area_h);
    return platform_fit_window(pf, PLATFORM_MAX_SCALE, area_w, area_h, &w, &h);
}

bool st_platform_is_headless(const Platform *pf) { return pf->headless; }
struct SDL_Renderer *st_platform_renderer(Platform *pf) {
    return pf->renderer;
}
struct SDL_Window *st_platform_window(Platform *pf) {
    return pf->window;
}
RendererKind st_platform_renderer_kind(const Platform *pf) { return pf->gl ? RENDERER_GL : RENDERER_SDL; }

const char *st_platform_renderer_name(RendererKind k) {
    return k == RENDERER_GL ? "gl" : k == RENDERER_SDL ? "sdl" : "default";
}

bool st_platform_renderer_parse(const char *s, RendererKind *out) {
    if (s && SDL_strcmp(s, "gl") == 0) *out = RENDERER_GL;
    else if (s && SDL_strcmp(s, "sdl") == 0) *out = RENDERER_SDL;
    else return false;
    return true;
}

void st_platform_logical_size(const Platform *pf, int *w, int *h) {
    if (w) *w = pf->logical_w;
    if (h) *h = pf->logical_h;
}

void st_platform_output_size(const Platform *pf, int *w, int *h) {
    if (w) *w = pf->out_w;
    if (h) *h = pf->out_h;
}

PlatformViewport st_platform_viewport(const Platform *pf) { return pf->viewport; }
