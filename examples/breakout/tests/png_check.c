/* png_check.c - a screenshot against its golden picture, decoded with the engine's own PNG
   reader (st_asset_decode_rgba):  breakout_png_check SHOT.png GOLDEN.png
   They match when they have the same size and no channel of any pixel differs by more than
   TOLERANCE (SDL's software renderer rounds translucent blends alike from run to run; a
   brick, the ball or a line of text out of place differs by far more). Exit 0 on a match,
   1 with where they differ otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include <strata/asset/asset.h>
#include <strata/core/arena.h>
#include <strata/core/diag.h>
#include <strata/core/os_file.h>

#define TOLERANCE 2

static bool load(Arena *a, const char *path, uint8_t **px, int *w, int *h) {
    Str8 bytes;
    Error err;
    if (!st_os_read_file(a, path, 64u << 20, &bytes, &err) ||
        !st_asset_decode_rgba(a, (const uint8_t *)bytes.data, bytes.len, path, px, w, h, &err)) {
        st_error_report(&err);
        return false;
    }
    return true;
}

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: breakout_png_check SHOT.png GOLDEN.png\n"), 2;
    Arena *a = st_arena_create((ArenaParams){.name = "png_check"});
    uint8_t *p, *q;
    int w, h, gw, gh;
    if (!a || !load(a, argv[1], &p, &w, &h) || !load(a, argv[2], &q, &gw, &gh)) return 1;
    if (w != gw || h != gh) {
        st_diag_report(DIAG_ERROR, "%s is %dx%d, %s %dx%d", argv[1], w, h, argv[2], gw, gh);
        return 1;
    }
    long bad = 0, first = -1;
    for (long i = 0; i < (long)w * h * 4; i++)
        if (abs(p[i] - q[i]) > TOLERANCE && bad++ == 0) first = i / 4;
    if (bad) {
        st_diag_report(DIAG_ERROR, "%s differs from %s in %ld channels, first at pixel (%ld, %ld)", argv[1], argv[2],
                       bad, first % w, first / w);
        return 1;
    }
    printf("%s matches %s (%dx%d)\n", argv[1], argv[2], w, h);
    st_arena_release(a);
    return 0;
}
