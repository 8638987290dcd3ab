/* Bad images: a missing file, a corrupt PNG (valid signature, garbage after), a truncated
   PNG, a non-image and a directory all come back as NULL with a message that names the
   file and the reason (stb_image's for decoding errors), and nothing crashes. A good image
   whose size is not a whole number of cells is refused too. argv[1] is the assets dir,
   argv[2] a scratch directory for the broken files. */
#include <string.h>

#include "engine_test.h"

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, n, f);
    fclose(f);
}

static void expect_error(TestEngine *t, const char *path, const char *reason) {
    AssetError err = {{0}};
    Texture *tex = asset_load_texture(t->rd, t->perm, path, 16, 16, &err);
    CHECK(tex == NULL);
    printf("%s\n", err.message);
    CHECK(strstr(err.message, path) == err.message); /* starts with the file name */
    if (!strstr(err.message, reason)) {
        fprintf(stderr, "expected \"%s\" in \"%s\"\n", reason, err.message);
        CHECK(!"reason missing");
    }
    uint8_t *px = NULL;
    int w = 0, h = 0;
    CHECK(!asset_load_rgba(t->perm, path, &px, &w, &h, &err));
}

int main(int argc, char **argv) {
    REQUIRE(argc == 3);
    TestEngine t;
    REQUIRE(test_engine_open(&t, argv[1]));
    const char *dir = argv[2];
    Arena *a = t.perm;

    expect_error(&t, asset_path(a, dir, "no-such-file.png"), "No such file");

    /* corrupt: the PNG signature, then junk */
    uint8_t junk[256] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    for (int i = 8; i < 256; i++) junk[i] = (uint8_t)(i * 31 + 7);
    const char *corrupt = asset_path(a, dir, "corrupt.png");
    write_file(corrupt, junk, sizeof junk);
    expect_error(&t, corrupt, "cannot load image: ");

    /* truncated: the first half of a real PNG */
    uint8_t buf[4096];
    FILE *f = fopen(asset_path(a, argv[1], "tiles.png"), "rb");
    REQUIRE(f);
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    REQUIRE(n > 200);
    const char *trunc = asset_path(a, dir, "truncated.png");
    write_file(trunc, buf, n / 2);
    expect_error(&t, trunc, "cannot load image: ");

    const char *text = asset_path(a, dir, "not-an-image.png");
    write_file(text, "hello\n", 6);
    expect_error(&t, text, "unknown image type");

    const char *empty = asset_path(a, dir, "empty.png");
    write_file(empty, "", 0);
    expect_error(&t, empty, "cannot load image: ");

    expect_error(&t, dir, "not a regular file");

    /* a real image cut into cells that do not fit */
    AssetError err;
    CHECK(!asset_load_texture(t.rd, t.perm, asset_path(a, argv[1], "font.png"), 16, 16, &err));
    CHECK(strstr(err.message, "not a whole number of 16x16 cells") != NULL);
    printf("%s\n", err.message);

    /* and after all that, loading still works */
    CHECK(asset_load_texture(t.rd, t.perm, asset_path(a, argv[1], "tiles.png"), 16, 16, &err));
    test_engine_close(&t);
    return check_result();
}
