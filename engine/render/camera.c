/* camera.c - follow, clamp, cull. */
#include <strata/render/camera.h>

#include <math.h>

Camera st_camera_make(float view_w, float view_h) {
    Camera c = {0};
    c.size[0] = view_w;
    c.size[1] = view_h;
    return c;
}

void st_camera_set_viewport(Camera *c, float x, float y, float w, float h) {
    c->offset[0] = x;
    c->offset[1] = y;
    c->size[0] = w;
    c->size[1] = h;
    st_camera_clamp(c);
}

void st_camera_set_bounds(Camera *c, float min_x, float min_y, float max_x, float max_y) {
    c->bounds_min[0] = min_x;
    c->bounds_min[1] = min_y;
    c->bounds_max[0] = max_x;
    c->bounds_max[1] = max_y;
    c->has_bounds = true;
    st_camera_clamp(c);
}

/* One axis: inside [lo, hi - size], or centred when the level is narrower than the view. */
static float camera_clamp_axis(float p, float size, float lo, float hi) {
    if (hi - lo <= size) return lo - (size - (hi - lo)) / 2;
    if (p < lo) return lo;
    if (p > hi - size) return hi - size;
    return p;
}

void st_camera_clamp(Camera *c) {
    if (!c->has_bounds) return;
    for (int i = 0; i < 2; i++)
        c->pos[i] = camera_clamp_axis(c->pos[i], c->size[i], c->bounds_min[i], c->bounds_max[i]);
}

void st_camera_snap(Camera *c, float x, float y) {
    c->pos[0] = x - c->size[0] / 2;
    c->pos[1] = y - c->size[1] / 2;
    st_camera_clamp(c);
}

void st_camera_follow(Camera *c, float x, float y, float t) {
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    float want[2] = {x - c->size[0] / 2, y - c->size[1] / 2};
    for (int i = 0; i < 2; i++) c->pos[i] += t * (want[i] - c->pos[i]);
    st_camera_clamp(c);
}

bool st_camera_visible(const Camera *c, float x, float y, float w, float h) {
    return x < c->pos[0] + c->size[0] && x + w > c->pos[0] && y < c->pos[1] + c->size[1] && y + h > c->pos[1];
}

void st_camera_tile_range(const Camera *c, int tile_px, int *x0, int *y0, int *x1, int *y1) {
    int a = (int)floorf(c->pos[0] / tile_px), b = (int)floorf(c->pos[1] / tile_px);
    int e = (int)ceilf((c->pos[0] + c->size[0]) / tile_px);
    int f = (int)ceilf((c->pos[1] + c->size[1]) / tile_px);
    *x0 = a < 0 ? 0 : a;
    *y0 = b < 0 ? 0 : b;
    *x1 = e < 0 ? 0 : e;
    *y1 = f < 0 ? 0 : f;
}
