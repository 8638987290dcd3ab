/* Camera: centring on a target, clamping to level bounds on every side, a level smaller
   than the view is centred, smooth follow converges, visibility and tile-range culling,
   st_camera_clamp pulls back a position set by hand, and without bounds nothing is clamped. */
#include <math.h>

#include "check.h"
#include <strata/render/camera.h>

static bool near(float a, float b) { return fabsf(a - b) < 1e-3f; }

int main(void) {
    Camera c = st_camera_make(480, 270);
    st_camera_set_bounds(&c, 0, 0, 1600, 800);
    st_camera_snap(&c, 800, 400);
    CHECK(near(c.pos[0], 560) && near(c.pos[1], 265));
    st_camera_snap(&c, 10, 10); /* top-left corner */
    CHECK(near(c.pos[0], 0) && near(c.pos[1], 0));
    st_camera_snap(&c, 5000, 5000); /* bottom-right corner */
    CHECK(near(c.pos[0], 1600 - 480) && near(c.pos[1], 800 - 270));
    st_camera_snap(&c, -300, 700);
    CHECK(near(c.pos[0], 0) && near(c.pos[1], 800 - 270));

    /* Narrower and shorter than the view: centred, on both axes. */
    Camera s = st_camera_make(480, 270);
    st_camera_set_bounds(&s, 0, 0, 320, 160);
    st_camera_snap(&s, 0, 0);
    CHECK(near(s.pos[0], -80) && near(s.pos[1], -55));
    st_camera_snap(&s, 999, 999);
    CHECK(near(s.pos[0], -80) && near(s.pos[1], -55));

    /* Follow: 20% per step converges on the centred position, never leaves the bounds. */
    st_camera_snap(&c, 240, 135);
    for (int i = 0; i < 200; i++) {
        st_camera_follow(&c, 900, 500, 0.2f);
        CHECK(c.pos[0] >= 0 && c.pos[0] <= 1120 && c.pos[1] >= 0 && c.pos[1] <= 530);
    }
    CHECK(near(c.pos[0], 660) && near(c.pos[1], 365));
    st_camera_follow(&c, -9999, 900, 1.0f);
    CHECK(near(c.pos[0], 0) && near(c.pos[1], 530));

    /* Visibility and tiles. */
    st_camera_snap(&c, 800, 400); /* view [560, 1040) x [265, 535) */
    CHECK(st_camera_visible(&c, 560, 265, 1, 1));
    CHECK(st_camera_visible(&c, 545, 250, 16, 16));  /* overlaps the corner */
    CHECK(!st_camera_visible(&c, 544, 265, 16, 16)); /* ends exactly at the left edge */
    CHECK(!st_camera_visible(&c, 1040, 300, 16, 16));
    CHECK(!st_camera_visible(&c, 700, 535, 16, 16));
    int x0, y0, x1, y1;
    st_camera_tile_range(&c, 16, &x0, &y0, &x1, &y1);
    CHECK_EQ_I(x0, 35);
    CHECK_EQ_I(y0, 16);
    CHECK_EQ_I(x1, 65);
    CHECK_EQ_I(y1, 34);
    st_camera_tile_range(&s, 16, &x0, &y0, &x1, &y1); /* negative side clamps at 0 */
    CHECK(x0 == 0 && y0 == 0 && x1 == 25 && y1 == 14);

    /* A position set by hand is pulled back inside. */
    c.pos[0] = -50;
    c.pos[1] = 9999;
    st_camera_clamp(&c);
    CHECK(near(c.pos[0], 0) && near(c.pos[1], 800 - 270));
    Camera free_cam = st_camera_make(480, 270); /* no bounds: anywhere goes */
    st_camera_snap(&free_cam, -1000, 50);
    CHECK(near(free_cam.pos[0], -1240) && near(free_cam.pos[1], -85));

    /* A viewport below an 18 px bar: clamping and centring use its 480x252, culling too,
       and world-to-screen adds its offset. */
    Camera v = st_camera_make(480, 270);
    st_camera_set_viewport(&v, 0, 18, 480, 252);
    st_camera_set_bounds(&v, 0, 0, 1600, 800);
    st_camera_snap(&v, 5000, 5000);
    CHECK(near(v.pos[0], 1600 - 480) && near(v.pos[1], 800 - 252));
    CHECK(near(st_camera_view_x(&v), 1120) && near(st_camera_view_y(&v), 800 - 252 - 18));
    CHECK(!st_camera_visible(&v, 1200, 800 - 252 - 16, 16, 16)); /* above the view: under the bar */
    CHECK(st_camera_visible(&v, 1200, 800 - 252 - 15, 16, 16));
    st_camera_set_bounds(&v, 0, 0, 320, 240); /* shorter than the viewport: centred in it */
    CHECK(near(v.pos[1], -6) && near(st_camera_view_y(&v), -24)); /* on screen: rows 24..264 */
    return check_result();
}
