/* test_base.c - the small things written once in the core: base.h's arithmetic, hash.h's
   hashes (whose values file formats depend on) and path.h's slices. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include <strata/core/base.h>
#include <strata/core/hash.h>
#include <strata/core/path.h>

static bool str8_is(Str8 s, const char *want) { return st_str8_eq_cstr(s, want); }

static void test_base(void) {
    CHECK_EQ_I(MIN(3, -4), -4);
    CHECK_EQ_I(MAX(3, -4), 3);
    CHECK_EQ_I(CLAMP(9, -2, 5), 5);
    CHECK_EQ_I(CLAMP(-9, -2, 5), -2);
    CHECK_EQ_I(CLAMP(1, -2, 5), 1);
    CHECK_EQ_I(ABS(-7), 7);
    CHECK_EQ_I(ABS(7), 7);
    int32_t a[13];
    (void)a;
    CHECK_EQ_U(ARRAY_COUNT(a), 13);
    /* Each argument is one operand: no precedence leaks out of the macros. */
    CHECK_EQ_I(2 * MIN(1 + 1, 5), 4);
    CHECK_EQ_I(-ABS(2 - 5), -3);
}

static void test_hash(void) {
    /* FNV-1a 64's published values: a save written by an older build must still check. */
    CHECK_EQ_U(st_hash_fnv1a(HASH_FNV1A_INIT, "", 0), 0xcbf29ce484222325ull);
    CHECK_EQ_U(st_hash_fnv1a(HASH_FNV1A_INIT, "a", 1), 0xaf63dc4c8601ec8cull);
    CHECK_EQ_U(st_hash_fnv1a(HASH_FNV1A_INIT, "foobar", 6), 0x85944171f73967e8ull);
    /* An integer is its 8 bytes from the lowest, on any machine. */
    const uint8_t le[8] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
    CHECK_EQ_U(st_hash_fnv1a_u64(HASH_FNV1A_INIT, 0x0102030405060708ull), st_hash_fnv1a(HASH_FNV1A_INIT, le, 8));
    /* The floor pattern's mixer, pinned: the golden frames draw with it. */
    CHECK_EQ_U(st_hash_mix2(0, 0), 0u);
    CHECK_EQ_U(st_hash_mix2(3, 5), 0x184bc3ebu);
    CHECK(st_hash_mix2(1, 2) != st_hash_mix2(2, 1));
}

static void test_path(void) {
    Str8 p = STR8_LIT("levels/03-spikes.lvl");
    CHECK(str8_is(st_path_base_name(p), "03-spikes.lvl"));
    CHECK(str8_is(st_path_dir(p), "levels"));
    CHECK(str8_is(st_path_dir_prefix(p), "levels/"));
    Str8 deep = STR8_LIT("/home/me/.local/share/arena-dungeon/progress");
    CHECK(str8_is(st_path_base_name(deep), "progress"));
    CHECK(str8_is(st_path_dir(deep), "/home/me/.local/share/arena-dungeon"));
    Str8 bare = STR8_LIT("a.lvl");
    CHECK(str8_is(st_path_base_name(bare), "a.lvl"));
    CHECK(str8_is(st_path_dir(bare), "") && str8_is(st_path_dir_prefix(bare), ""));
    Str8 root = STR8_LIT("/progress");
    CHECK(str8_is(st_path_dir(root), "/"));
    CHECK(str8_is(st_path_dir_prefix(root), "/"));
    CHECK(str8_is(st_path_base_name(root), "progress"));
    Str8 folder = STR8_LIT("assets/");
    CHECK(str8_is(st_path_base_name(folder), ""));
    CHECK(str8_is(st_path_dir(folder), "assets"));
    /* A base name is a suffix: NUL-terminated when the path is. */
    CHECK(strcmp(st_path_base_name(st_str8_cstr("x/y/z.lvl")).data, "z.lvl") == 0);
    CHECK(st_path_base_name((Str8){0}).len == 0 && st_path_dir((Str8){0}).len == 0);
}

int main(void) {
    test_base();
    test_hash();
    test_path();
    return check_result();
}
