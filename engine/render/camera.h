/* camera.h - a 2D camera over a level: follow a target, stay inside the level, cull.

   The camera is the top-left corner of the view in world pixels plus the view size. It
   follows a point smoothly, is clamped so it never shows outside the level (a level smaller
   than the view is centred instead), and answers "is this rectangle visible" and "which
   tiles are visible" so the game pushes only what can be seen.

       Camera cam = st_camera_make(480, 270);
       st_camera_set_bounds(&cam, 0, 0, level_w_px, level_h_px);
       st_camera_snap(&cam, px, py);                        // on level load: no slide-in
       ...
       st_camera_follow(&cam, px, py, 0.2f);                // per step: 20% of the way there
       st_render_set_view(rd, st_camera_view_x(&cam), st_camera_view_y(&cam)); // rounds to pixels
       int x0, y0, x1, y1;
       st_camera_tile_range(&cam, 16, &x0, &y0, &x1, &y1);  // draw tiles x0..x1-1, y0..y1-1

   The view need not be the whole screen: st_camera_set_viewport(&cam, 0, 18, 480, 252) makes it
   the part below an 18 px status bar. Clamping, centring and culling then use that area,
   and world-to-screen adds the viewport's offset.

   World-to-screen is a translation by (offset - pos) and nothing else (no zoom, no
   rotation), so the camera keeps no matrix: st_render_set_view(rd, st_camera_view_x(&cam),
   st_camera_view_y(&cam)) applies it to every later push (the game adds its screen shake to
   the offset it passes there). */
#ifndef CAMERA_H
#define CAMERA_H

#include <stdbool.h>

/* Each pair is {x, y}. */
typedef struct Camera {
    float pos[2];        /* top-left of the view, world pixels (clamped) */
    float size[2];       /* view size, logical pixels */
    float offset[2];     /* where the view's top-left is on the screen (0, 0: the corner) */
    float bounds_min[2]; /* level rectangle the view must stay inside */
    float bounds_max[2];
    bool has_bounds;
} Camera;

Camera st_camera_make(float view_w, float view_h);
/* The view is the screen rectangle (x, y, w, h): a status bar or a split screen keeps the
   rest. Clamps again. */
void st_camera_set_viewport(Camera *c, float x, float y, float w, float h);
/* The offset to pass to st_render_set_view: world minus this is the screen position. */
static inline float st_camera_view_x(const Camera *c) { return c->pos[0] - c->offset[0]; }
static inline float st_camera_view_y(const Camera *c) { return c->pos[1] - c->offset[1]; }
void st_camera_set_bounds(Camera *c, float min_x, float min_y, float max_x, float max_y);
/* Centre on the point (x, y) at once / move `t` (0..1) of the way there; both clamp. */
void st_camera_snap(Camera *c, float x, float y);
void st_camera_follow(Camera *c, float x, float y, float t);
void st_camera_clamp(Camera *c);
/* Does the world rectangle overlap the view? */
bool st_camera_visible(const Camera *c, float x, float y, float w, float h);
/* Half-open tile range [x0, x1) x [y0, y1) covering the view (clamped at 0 below; clamp
   above against the level size yourself or via bounds). */
void st_camera_tile_range(const Camera *c, int tile_px, int *x0, int *y0, int *x1, int *y1);

#endif
