/* compare_png.c - the gallery's golden check: two PNGs decoded by the engine's own loader
   (st_asset_load_rgba) must be the same size and the same pixels, exactly (the software
   renderer blits integer pixels: nothing is left to a GPU).

       compare_png GOLDEN.png ACTUAL.png     exit 0 same, 1 different, 2 unreadable */
#include <stdio.h>
#include <string.h>

#include <strata/asset/asset.h>
#include <strata/core/arena.h>

int main(int argc, char **argv) {
    if (argc != 3) return fprintf(stderr, "usage: compare_png GOLDEN.png ACTUAL.png\n"), 2;
    Arena *a = st_arena_create((ArenaParams){.name = "compare"});
    uint8_t *g, *p;
    int gw, gh, pw, ph;
    Error err;
    if (!a || !st_asset_load_rgba(a, argv[1], &g, &gw, &gh, &err) ||
        !st_asset_load_rgba(a, argv[2], &p, &pw, &ph, &err))
        return st_error_report(&err), 2;
    if (gw != pw || gh != ph) return printf("FAIL: %s is %dx%d, the golden %dx%d\n", argv[2], pw, ph, gw, gh), 1;
    long differ = 0, first = -1;
    for (long i = 0; i < (long)gw * gh; i++)
        if (memcmp(g + 4 * i, p + 4 * i, 4)) differ++, first = first < 0 ? i : first;
    if (differ)
        printf("FAIL: %s: %ld of %d pixels differ from %s, the first at (%ld, %ld)\n", argv[2], differ, gw * gh,
               argv[1], first % gw, first / gw);
    else printf("%s matches %s (%dx%d)\n", argv[2], argv[1], gw, gh);
    st_arena_release(a);
    return differ ? 1 : 0;
}
