/* Bad images: a missing file, a corrupt PNG (valid signature, garbage after), a truncated
   PNG, a non-image and a directory all come back as NULL with a message that names the
   file and the reason (stb_image's for decoding errors), and nothing crashes. A good image
   whose size is not a whole number of cells is refused too, and so is an image past
   ASSET_MAX_IMAGE_SIDE, from its header, before any decoding. A decoding error
   always has a reason after "cannot load image: ", ours where stb_image has none (a PNG cut
   to 30 bytes). An IDAT chunk that claims more bytes than the file has is refused before
   stb_image sizes a buffer by it. argv[1] is the assets dir, argv[2] a scratch directory. */
#include <string.h>

#include "engine_test.h"

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, n, f);
    fclose(f);
}

static void expect_error(TestEngine *t, const char *path, const char *reason) {
    Error err = {0};
    Texture *tex = st_asset_load_texture(t->rd, t->perm, path, 16, 16, &err);
    CHECK(tex == NULL);
    printf("%s\n", err.message);
    CHECK(strstr(err.message, path) == err.message); /* starts with the file name */
    if (!strstr(err.message, reason)) {
        fprintf(stderr, "expected \"%s\" in \"%s\"\n", reason, err.message);
        CHECK(!"reason missing");
    }
    uint8_t *px = NULL;
    int w = 0, h = 0;
    CHECK(!st_asset_load_rgba(t->perm, path, &px, &w, &h, &err));
}

/* The text after "cannot load image: " is a reason, not nothing. */
static void expect_reason(TestEngine *t, const char *path) {
    Error err = {0};
    CHECK(!st_asset_load_texture(t->rd, t->perm, path, 16, 16, &err));
    const char *tag = "cannot load image: ";
    const char *why = strstr(err.message, tag);
    CHECK(why != NULL);
    if (why && !why[strlen(tag)]) fprintf(stderr, "no reason in \"%s\"\n", err.message);
    CHECK(why && why[strlen(tag)] != '\0');
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static uint32_t crc32_png(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return c ^ 0xffffffffu;
}

/* A PNG of only its signature, IHDR (w x h, 8-bit RGBA) and IEND: a header that claims a
   size, and no pixel data at all, so only a check of the header can report the size. */
static void write_png_header(const char *path, uint32_t w, uint32_t h) {
    uint8_t png[8 + 25 + 12] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t *ihdr = png + 8;
    put_be32(ihdr, 13);
    memcpy(ihdr + 4, "IHDR", 4);
    put_be32(ihdr + 8, w);
    put_be32(ihdr + 12, h);
    ihdr[16] = 8, ihdr[17] = 6; /* depth, colour type RGBA; compression, filter, interlace 0 */
    put_be32(ihdr + 21, crc32_png(ihdr + 4, 17));
    uint8_t *iend = png + 33;
    put_be32(iend, 0);
    memcpy(iend + 4, "IEND", 4);
    put_be32(iend + 8, crc32_png(iend + 4, 4));
    write_file(path, png, sizeof png);
}

/* A 2x2 RGBA PNG whose first IDAT chunk says it holds `claim` bytes; its data (a real
   zlib stream of the pixels) follows in a second IDAT, or in the first when claim is its
   true length, 17. */
static size_t write_png_idat(const char *path, uint32_t claim) {
    static const uint8_t z[] = {0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x84,
                                0x19, 0x60, 0x0C, 0x00, 0x47, 0xCA, 0x07, 0xF9}; /* 2 rows of red */
    uint8_t png[8 + 25 + 12 + 12 + sizeof z + 12] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t *c = png + 8;
    put_be32(c, 13);
    memcpy(c + 4, "IHDR", 4);
    put_be32(c + 8, 2), put_be32(c + 12, 2);
    c[16] = 8, c[17] = 6;
    put_be32(c + 21, crc32_png(c + 4, 17));
    c += 25;
    if (claim != sizeof z) { /* the lying (or empty) chunk first, with nothing in it */
        put_be32(c, claim);
        memcpy(c + 4, "IDAT", 4);
        put_be32(c + 8, crc32_png(c + 4, 4));
        c += 12;
    }
    put_be32(c, sizeof z);
    memcpy(c + 4, "IDAT", 4);
    memcpy(c + 8, z, sizeof z);
    put_be32(c + 8 + sizeof z, crc32_png(c + 4, 4 + sizeof z));
    c += 12 + sizeof z;
    put_be32(c, 0);
    memcpy(c + 4, "IEND", 4);
    put_be32(c + 8, crc32_png(c + 4, 4));
    c += 12;
    write_file(path, png, (size_t)(c - png));
    return (size_t)(c - png);
}

static uint64_t scratch_peak(void) {
    ArenaStats st[ARENA_SCRATCH_COUNT];
    uint32_t n = st_scratch_stats(st, ARENA_SCRATCH_COUNT);
    uint64_t peak = 0;
    for (uint32_t i = 0; i < n; i++) peak = st[i].peak > peak ? st[i].peak : peak;
    return peak;
}

int main(int argc, char **argv) {
    REQUIRE(argc == 3);
    TestEngine t;
    REQUIRE(test_engine_open(&t, argv[1]));
    const char *dir = argv[2];
    Arena *a = t.perm;
    Error err0;

    expect_error(&t, st_asset_path(a, dir, "no-such-file.png"), "No such file");

    /* corrupt: the PNG signature, then junk */
    uint8_t junk[256] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    for (int i = 8; i < 256; i++) junk[i] = (uint8_t)(i * 31 + 7);
    const char *corrupt = st_asset_path(a, dir, "corrupt.png");
    write_file(corrupt, junk, sizeof junk);
    expect_error(&t, corrupt, "cannot load image: ");

    /* truncated: the first half of a real PNG */
    uint8_t buf[4096];
    FILE *f = fopen(st_asset_path(a, argv[1], "tiles.png"), "rb");
    REQUIRE(f);
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    REQUIRE(n > 200);
    const char *trunc = st_asset_path(a, dir, "truncated.png");
    write_file(trunc, buf, n / 2);
    expect_error(&t, trunc, "cannot load image: ");

    /* cut to 30 bytes: the whole IHDR, one byte of its CRC. stb_image then reads the next
       chunk type as four zero bytes and fails with an empty reason. */
    const char *trunc30 = st_asset_path(a, dir, "truncated-30.png");
    write_file(trunc30, buf, 30);
    expect_error(&t, trunc30, "cannot load image: truncated or corrupt PNG data");
    expect_reason(&t, trunc30);
    expect_reason(&t, trunc); /* cut inside its IDAT: the lengths, ours */

    /* Too large: the header of an 8192x8192 image (a valid one is 261 KB and decodes to
       256 MiB) is refused by its size, with no pixel data to decode. */
    const char *huge = st_asset_path(a, dir, "huge.png");
    write_png_header(huge, 8192, 8192);
    expect_error(&t, huge, "image too large: 8192x8192, the limit is 4096x4096");
    /* A real, decodable image one pixel past the limit on one side, and one at the limit. */
    static uint8_t row[4 * (ASSET_MAX_IMAGE_SIDE + 1)];
    for (size_t i = 0; i < sizeof row; i++) row[i] = (uint8_t)(i % 4 == 3 ? 255 : i);
    const char *wide = st_asset_path(a, dir, "wide.png");
    REQUIRE(st_asset_write_png(wide, row, ASSET_MAX_IMAGE_SIDE + 1, 1, &err0));
    expect_error(&t, wide, "image too large: 4097x1, the limit is 4096x4096");
    const char *tall = st_asset_path(a, dir, "tall.png");
    REQUIRE(st_asset_write_png(tall, row, 1, ASSET_MAX_IMAGE_SIDE + 1, &err0));
    expect_error(&t, tall, "image too large: 1x4097, the limit is 4096x4096");
    const char *edge = st_asset_path(a, dir, "edge.png");
    REQUIRE(st_asset_write_png(edge, row, ASSET_MAX_IMAGE_SIDE, 1, &err0));
    Texture *at_limit = st_asset_load_texture(t.rd, t.perm, edge, 0, 0, &err0);
    CHECK(at_limit && st_render_texture_info(at_limit).w == ASSET_MAX_IMAGE_SIDE &&
          st_render_texture_info(at_limit).h == 1);

    /* Image data that lies: stb_image grew its buffer to an IDAT's word before finding the
       file too short, so 80 bytes claiming 1 GiB made the scratch arena commit and zero a
       gigabyte; refused from the chunk lengths now, the scratch as small as before. An
       empty IDAT first had it copy into the buffer it did not have yet. */
    const char *good = st_asset_path(a, dir, "idat-good.png");
    write_png_idat(good, 17);
    CHECK(st_asset_load_texture(t.rd, t.perm, good, 0, 0, &err0) != NULL);
    const char *liar = st_asset_path(a, dir, "idat-liar.png");
    write_png_idat(liar, 1u << 30);
    expect_error(&t, liar, "chunk IDAT at byte 33 says 1073741824 bytes");
    printf("scratch peak after the lying IDAT: %llu bytes\n", (unsigned long long)scratch_peak());
    CHECK(scratch_peak() < (64u << 20));
    const char *empty_idat = st_asset_path(a, dir, "idat-empty-first.png");
    write_png_idat(empty_idat, 0);
    expect_error(&t, empty_idat, "an empty IDAT chunk at byte 33 before any image data");

    const char *text = st_asset_path(a, dir, "not-an-image.png");
    write_file(text, "hello\n", 6);
    expect_error(&t, text, "unknown image type");

    const char *empty = st_asset_path(a, dir, "empty.png");
    write_file(empty, "", 0);
    expect_error(&t, empty, "cannot load image: ");

    expect_error(&t, dir, "not a regular file");

    /* a real image cut into cells that do not fit */
    Error err;
    CHECK(!st_asset_load_texture(t.rd, t.perm, st_asset_path(a, argv[1], "font.png"), 16, 16, &err));
    CHECK(strstr(err.message, "not a whole number of 16x16 cells") != NULL);
    printf("%s\n", err.message);

    /* and after all that, loading still works */
    CHECK(st_asset_load_texture(t.rd, t.perm, st_asset_path(a, argv[1], "tiles.png"), 16, 16, &err));
    test_engine_close(&t);
    return check_result();
}
