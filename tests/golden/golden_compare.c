/* golden_compare.c - compares a screenshot with its committed golden image.

       golden_compare GOLDEN.png ACTUAL.png [TOLERANCE]

   Both PNGs are decoded to RGBA8 (st_asset_load_rgba, stb_image). ACTUAL may be the golden
   scaled by a whole factor k (a window at scale k): then each golden pixel is compared with
   the centre of the k x k block that drew it. A pixel differs when any of
   its four channels differs by more than TOLERANCE (default 0: an exact match, which is what
   the SDL software renderer gives: integer blits, no GPU, no driver). The program prints the
   number of differing pixels, the largest channel difference and the box around them, and on
   a mismatch writes ACTUAL.diff.png next to ACTUAL: the golden dimmed to grey, differing
   pixels in red (brighter = larger difference).

   Exit 0: the images match; 1: they differ (or differ in size); 2: usage or I/O error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/asset/asset.h>
#include <strata/core/arena.h>

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: golden_compare GOLDEN.png ACTUAL.png [TOLERANCE 0..255]\n");
        return 2;
    }
    const char *golden = argv[1], *actual = argv[2];
    int tol = 0;
    if (argc == 4) {
        char *end;
        long t = strtol(argv[3], &end, 10);
        if (*end || t < 0 || t > 255) {
            fprintf(stderr, "golden_compare: bad tolerance '%s'\n", argv[3]);
            return 2;
        }
        tol = (int)t;
    }
    Arena *a = st_arena_create((ArenaParams){.name = "golden"});
    if (!a) return 2;
    Error err;
    uint8_t *g, *p;
    int gw, gh, pw, ph;
    if (!st_asset_load_rgba(a, golden, &g, &gw, &gh, &err) || !st_asset_load_rgba(a, actual, &p, &pw, &ph, &err)) {
        fprintf(stderr, "golden_compare: %s\n", err.message);
        st_arena_release(a);
        return 2;
    }
    int k = gw > 0 ? pw / gw : 0;
    if (k < 1 || pw != gw * k || ph != gh * k) {
        printf("golden_compare: FAIL: %s is %dx%d, the golden %s is %dx%d (or a whole multiple)\n", actual,
               pw, ph, golden, gw, gh);
        st_arena_release(a);
        return 1;
    }
    long n = (long)gw * gh, differing = 0;
    int max_diff = 0, x0 = gw, y0 = gh, x1 = -1, y1 = -1;
    uint8_t *diff = st_arena_push_raw(a, (uint64_t)n * 4, 16);
    if (!diff) {
        st_arena_release(a);
        return 2;
    }
    for (long i = 0; i < n; i++) {
        long gx = i % gw, gy = i / gw;
        const uint8_t *gp = g + i * 4, *pp = p + ((gy * k + k / 2) * (long)pw + gx * k + k / 2) * 4;
        int d = 0;
        for (int c = 0; c < 4; c++) {
            int dc = abs((int)gp[c] - (int)pp[c]);
            if (dc > d) d = dc;
        }
        uint8_t *o = diff + i * 4;
        if (d > tol) {
            differing++;
            int x = (int)(i % gw), y = (int)(i / gw);
            if (x < x0) x0 = x;
            if (y < y0) y0 = y;
            if (x > x1) x1 = x;
            if (y > y1) y1 = y;
            o[0] = (uint8_t)(128 + d / 2), o[1] = 0, o[2] = 0;
        } else {
            uint8_t grey = (uint8_t)((gp[0] * 77 + gp[1] * 150 + gp[2] * 29) >> 10); /* a quarter */
            o[0] = o[1] = o[2] = grey;
        }
        o[3] = 255;
        if (d > max_diff) max_diff = d;
    }
    printf("golden_compare: %s vs %s (%dx%d%s): %ld of %ld pixels differ (tolerance %d), max channel difference %d\n",
           actual, golden, gw, gh, k > 1 ? ", the actual at scale k" : "", differing, n, tol, max_diff);
    int rc = 0;
    if (differing) {
        printf("golden_compare: differing pixels lie in x %d..%d, y %d..%d\n", x0, x1, y0, y1);
        size_t len = strlen(actual);
        char *path = st_arena_push_raw(a, len + 16, 1);
        const char *dot = len >= 4 && !strcmp(actual + len - 4, ".png") ? actual + len - 4 : actual + len;
        snprintf(path, len + 16, "%.*s.diff.png", (int)(dot - actual), actual);
        if (st_asset_write_png(path, diff, gw, gh, &err))
            printf("golden_compare: FAIL: diff image (differences in red) written to %s\n", path);
        else
            printf("golden_compare: FAIL (and the diff image could not be written: %s)\n", err.message);
        rc = 1;
    }
    st_arena_release(a);
    return rc;
}
