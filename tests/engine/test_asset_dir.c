/* Where the assets folder is found (asset.h): a folder the caller names wins, then
   $AD_ASSET_DIR, then assets/ beside the executable, then an install's share/<app>/assets,
   then the source tree the program was built from, and ./assets only last, so an assets
   folder in the working directory (here a decoy with a broken tiles.png) cannot hide the
   game's own. A copy of this program far from any build tree (as `cmake -S . -B /elsewhere`
   makes) still finds the source tree's assets; one laid out as an install (bin/ beside
   share/) finds share/'s. A named folder that is not one is an error naming it, and when
   nothing is found the error names every folder searched.
   argv[1] is the project's assets dir, argv[2] a scratch directory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include <strata/asset/asset.h>

static bool same_dir(const char *a, const char *b) {
    struct stat sa, sb;
    return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static void make_dirs(const char *path) {
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

static bool copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    bool ok = in && out;
    char buf[65536];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = false;
    return ok && chmod(to, 0755) == 0;
}

static void expect_in(const char *message, const char *part) {
    if (!strstr(message, part)) {
        fprintf(stderr, "expected \"%s\" in \"%s\"\n", part, message);
        CHECK(!"part missing");
    }
}

/* What `program --found`, run from `cwd`, says it found: true when it found a folder. */
static bool found_by(const char *program, const char *cwd, char *out, size_t cap) {
    char cmd[3000];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --found", cwd, program);
    FILE *p = popen(cmd, "r");
    if (!p) return false;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    out[strcspn(out, "\n")] = 0;
    int status = pclose(p);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The search as a program of this tree makes it (the game's: app_asset_search). */
static AssetSearch search(const char *given) {
    return (AssetSearch){.given = given, .env = "AD_ASSET_DIR", .app = "arena-dungeon", .source = SOURCE_DIR};
}

int main(int argc, char **argv) {
    Arena *perm = st_arena_create((ArenaParams){.name = "perm"});
    REQUIRE(perm);
    Error err = {0};
    unsetenv("AD_ASSET_DIR");

    /* Child modes, run from elsewhere: what the search said, with no source tree or prefix
       to fall back on (--nowhere), or as built (--found). */
    if (argc == 2 && !strcmp(argv[1], "--nowhere")) {
        AssetSearch s = {.env = "AD_ASSET_DIR", .app = "arena-dungeon"};
        const char *dir = st_asset_dir_search(perm, &s, &err);
        printf("%s\n", dir ? dir : err.message);
        return dir ? 1 : 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--found")) {
        AssetSearch s = search(NULL);
        const char *dir = st_asset_dir_search(perm, &s, &err);
        printf("%s\n", dir ? dir : err.message);
        return dir ? 0 : 1;
    }

    REQUIRE(argc == 3);
    char scratch[900];
    REQUIRE(realpath(argv[2], scratch) || (make_dirs(argv[2]), realpath(argv[2], scratch)));
    char decoy[1024], decoy_assets[1100], tiles[1200];
    snprintf(decoy, sizeof decoy, "%s/decoy", scratch);
    snprintf(decoy_assets, sizeof decoy_assets, "%s/assets", decoy);
    snprintf(tiles, sizeof tiles, "%s/tiles.png", decoy_assets);
    make_dirs(decoy_assets);
    FILE *f = fopen(tiles, "wb");
    REQUIRE(f);
    fputs("not a png", f);
    fclose(f);

    /* The decoy in the working directory loses to the assets above the executable. */
    REQUIRE(chdir(decoy) == 0);
    AssetSearch plain = search(NULL), named = search(argv[1]), wrong = search("/nonexistent/assets");
    const char *found = st_asset_dir_search(perm, &plain, NULL);
    printf("with a decoy ./assets: %s\n", found ? found : "(none)");
    CHECK(same_dir(found, argv[1]));
    found = st_asset_dir_search(perm, &plain, &err);
    CHECK(same_dir(found, argv[1]));

    /* $AD_ASSET_DIR beats the executable's; a named folder beats $AD_ASSET_DIR. */
    setenv("AD_ASSET_DIR", decoy_assets, 1);
    CHECK(same_dir(st_asset_dir_search(perm, &plain, &err), decoy_assets));
    CHECK(same_dir(st_asset_dir_search(perm, &named, &err), argv[1]));

    /* Named and wrong: an error naming it, not a fallback. */
    CHECK(st_asset_dir_search(perm, &wrong, &err) == NULL);
    printf("%s\n", err.message);
    expect_in(err.message, "/nonexistent/assets: cannot use as the assets folder");
    expect_in(err.message, "No such file or directory");
    setenv("AD_ASSET_DIR", "/nonexistent/env-assets", 1);
    CHECK(st_asset_dir_search(perm, &plain, &err) == NULL);
    printf("%s\n", err.message);
    expect_in(err.message, "/nonexistent/env-assets: cannot use as the assets folder ($AD_ASSET_DIR)");
    setenv("AD_ASSET_DIR", tiles, 1);
    CHECK(st_asset_dir_search(perm, &plain, &err) == NULL);
    expect_in(err.message, "not a directory");
    unsetenv("AD_ASSET_DIR");

    /* Nothing anywhere: a copy of this program five folders deep, run from a sibling. */
    char deep[1100], copy[1200], cwd[1100], cmd[3000];
    snprintf(deep, sizeof deep, "%s/nowhere/a/b/c/d/e", scratch);
    snprintf(copy, sizeof copy, "%s/test_asset_dir", deep);
    snprintf(cwd, sizeof cwd, "%s/nowhere/cwd", scratch);
    make_dirs(deep);
    make_dirs(cwd);
    REQUIRE(copy_file("/proc/self/exe", copy));
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --nowhere", cwd, copy);
    FILE *p = popen(cmd, "r");
    REQUIRE(p);
    char out[1024] = "";
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    printf("%s", out);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    expect_in(out, "no assets folder found; looked in ");
    char want[2400];
    snprintf(want, sizeof want, "%s/nowhere/a/b/c/d/e/assets, %s/nowhere/a/b/c/d/share/arena-dungeon/assets, ",
             scratch, scratch);
    expect_in(out, want);
    char here[1200];
    snprintf(here, sizeof here, "%s/assets", cwd);
    expect_in(out, here);

    /* The same copy, as built: far from the build tree, it finds the source tree's art. */
    CHECK(found_by(copy, cwd, out, sizeof out));
    printf("a copy in %s finds %s\n", deep, out);
    CHECK(same_dir(out, argv[1]));

    /* Laid out as an install: <prefix>/bin/program and <prefix>/share/arena-dungeon/assets. */
    char bin[1100], share[1200], installed[1300];
    snprintf(bin, sizeof bin, "%s/prefix/bin", scratch);
    snprintf(share, sizeof share, "%s/prefix/share/arena-dungeon/assets", scratch);
    snprintf(installed, sizeof installed, "%s/test_asset_dir", bin);
    make_dirs(bin);
    make_dirs(share);
    REQUIRE(copy_file("/proc/self/exe", installed));
    CHECK(found_by(installed, cwd, out, sizeof out));
    CHECK(same_dir(out, share));

    st_arena_release(perm);
    return check_result();
}
