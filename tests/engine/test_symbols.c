/* test_symbols - a program with names of its own links and runs with the engine.

   It defines the generic names the engine used to export (list_add, path_dir, temp_reset,
   input_update, font_make...) and compiles its own stb_image, stb_image_write, stb_sprintf
   and stb_vorbis, in the same file that includes the engine's headers: with every engine
   name behind st_ and the engine's stb copies static, nothing is defined twice. Both sides
   then work on the same data: a PNG the engine writes is read back by this program's
   stb_image, one this program's stb_image_write makes is read by the engine, and both
   formatters print the same line. (The nm check beside it, engine_symbols in
   CMakeLists.txt, says the same of the archive: no stb symbol, no name without st_.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_SPRINTF_IMPLEMENTATION
#define STB_SPRINTF_NOUNALIGNED /* UBSan checks alignment */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-value"
#pragma GCC diagnostic ignored "-Wmisleading-indentation"
#include <stb_image.h>
#include <stb_image_write.h>
#include <stb_sprintf.h>
#include <stb_vorbis.h>
#pragma GCC diagnostic pop
#undef CHECK /* stb_vorbis has one of its own */

#include <strata/asset/asset.h>
#include <strata/core/arena.h>
#include <strata/core/list.h>
#include <strata/core/path.h>
#include <strata/core/str8.h>

#include "check.h"

/* The program's own functions, by the names a program is likely to pick. */
typedef struct {
    int n;
} MyList;
int list_add(MyList *l, int x) { return l->n += x; }
MyList list_make(void) { return (MyList){0}; }
const char *path_dir(const char *p) { return p; }
int temp_reset(int x) { return x + 1; }
int input_update(int x) { return x * 2; }
int font_make(int x) { return x - 1; }
int system_allocator(void) { return 7; }
int camera_make(void) { return 3; }
int arena_push(int x) { return x * 3; }

static void own_names(void) {
    MyList l = list_make();
    list_add(&l, 5);
    CHECK(l.n == 5);
    CHECK(strcmp(path_dir("x"), "x") == 0);
    CHECK(temp_reset(1) == 2 && input_update(2) == 4 && font_make(3) == 2);
    CHECK(system_allocator() == 7 && camera_make() == 3 && arena_push(2) == 6);
}

static void engine_names(Arena *a) {
    List xs = st_list_make(sizeof(int), st_allocator_arena(a));
    int *x = st_list_add(&xs);
    REQUIRE_VOID(x != NULL);
    *x = 42;
    CHECK(xs.count == 1 && ((int *)xs.data)[0] == 42);
    CHECK(st_str8_eq_cstr(st_path_dir(st_str8_cstr("levels/a.lvl")), "levels"));
}

/* The engine writes a PNG, this program's stb_image reads it; this program's stb_image_write
   makes one, the engine reads it. */
static void png_both_ways(Arena *a, const char *dir) {
    uint8_t px[4 * 4 * 4];
    for (int i = 0; i < (int)sizeof px; i++) px[i] = (uint8_t)(i * 7);
    char path[512];
    snprintf(path, sizeof path, "%s/symbols.png", dir);
    Error err = {0};
    CHECK(st_asset_write_png(path, px, 4, 4, &err));
    int w = 0, h = 0, n = 0;
    uint8_t *back = stbi_load(path, &w, &h, &n, 4);
    REQUIRE_VOID(back != NULL);
    CHECK(w == 4 && h == 4 && memcmp(back, px, sizeof px) == 0);
    stbi_image_free(back);

    int len = 0;
    uint8_t *png = stbi_write_png_to_mem(px, 16, 4, 4, 4, &len);
    REQUIRE_VOID(png != NULL && len > 0);
    uint8_t *rgba = NULL;
    REQUIRE_VOID(st_asset_decode_rgba(a, png, (uint64_t)len, "mine.png", &rgba, &w, &h, &err));
    CHECK(w == 4 && h == 4 && memcmp(rgba, px, sizeof px) == 0);
    STBIW_FREE(png);
}

static void formatters_agree(Arena *a) {
    char mine[64];
    stbsp_snprintf(mine, sizeof mine, "%s %d %.2f", "peak", 4096, 1.5);
    Str8 engine = st_str8_fmt(a, "%s %d %.2f", "peak", 4096, 1.5);
    CHECK(st_str8_eq_cstr(engine, mine));
    int vorbis_err = 0;
    unsigned char junk[8] = {0};
    CHECK(stb_vorbis_open_memory(junk, sizeof junk, &vorbis_err, NULL) == NULL && vorbis_err != 0);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_symbols OUT_DIR\n");
        return 2;
    }
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1 << 20});
    REQUIRE(a != NULL);
    own_names();
    engine_names(a);
    png_both_ways(a, argv[1]);
    formatters_agree(a);
    st_arena_release(a);
    return check_result();
}
