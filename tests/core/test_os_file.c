/* os_file.h, the one place engine and game code touch files and folders: what is at a path
   (kind, size, mtime, links followed or not), mkdir -p, rename, remove, the write probe,
   directory listing (several getdents64 reads and several chunks deep, kinds, a full arena,
   errors), the executable's folder and real paths. Outside AddressSanitizer (which owns
   malloc) it also counts the C heap, by interposing malloc, and requires every call here to
   make none: the game lists levels and finds its folder with them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include <strata/core/arena.h>
#include <strata/core/os_file.h>
#include "heap_count.h"

/* This thread's last arena refusal, as a module would quote it (st_arena_error). */
static const char *last_refusal(void) {
    static Error e;
    st_error_clear(&e);
    st_arena_error(&e);
    return e.message;
}

static char root[64];

static const char *at(const char *name) {
    static char buf[4][PATH_MAX];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, PATH_MAX, "%s/%s", root, name);
    return p;
}

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

#define MANY 300 /* more names than one getdents64 buffer and one chunk hold */

static void test_info(void) {
    put(at("seven"), "7 bytes");
    OsFileInfo fi = st_os_file_info(at("seven"));
    CHECK_EQ_I(fi.kind, OS_FILE_REGULAR);
    CHECK_EQ_U(fi.size, 7);
    CHECK_EQ_I(fi.error, 0);
    /* mtime to the nanosecond, as the editor will poll it. */
    struct timespec times[2] = {{1000, 0}, {1234567890, 123456789}};
    CHECK(utimensat(AT_FDCWD, at("seven"), times, 0) == 0);
    CHECK_EQ_I(st_os_file_info(at("seven")).mtime_ns, 1234567890123456789ll);
    CHECK_EQ_I(st_os_file_info(root).kind, OS_FILE_DIRECTORY);
    CHECK_EQ_I(st_os_file_info("/dev/null").kind, OS_FILE_OTHER);
    fi = st_os_file_info(at("absent"));
    CHECK_EQ_I(fi.kind, OS_FILE_NONE);
    CHECK_EQ_I(fi.error, ENOENT);
    CHECK_EQ_I(st_os_file_info(at("seven/below")).error, ENOTDIR);

    /* Links: followed by st_os_file_info, seen by st_os_link_info; a dangling one is there. */
    CHECK(symlink("seven", at("link")) == 0);
    CHECK(symlink("absent", at("dangling")) == 0);
    CHECK_EQ_I(st_os_file_info(at("link")).kind, OS_FILE_REGULAR);
    CHECK_EQ_I(st_os_link_info(at("link")).kind, OS_FILE_LINK);
    CHECK_EQ_I(st_os_file_info(at("dangling")).kind, OS_FILE_NONE);
    CHECK_EQ_I(st_os_link_info(at("dangling")).kind, OS_FILE_LINK);
}

/* Whole-file reads: the size limit is inclusive (a file of exactly max_bytes is read), the
   text is NUL-terminated, and what is not a regular file is refused before a read. */
static void test_read(Arena *a) {
    put(at("ten"), "0123456789");
    Str8 t;
    Error err;
    CHECK(st_os_read_file(a, at("ten"), 10, &t, &err));
    CHECK(st_error_ok(&err) && err.message[0] == '\0');
    CHECK_EQ_U(t.len, 10);
    CHECK(t.data && t.data[10] == 0 && !memcmp(t.data, "0123456789", 10));
    CHECK(!st_os_read_file(a, at("ten"), 9, &t, &err));
    CHECK_EQ_I(err.code, ERROR_TOO_BIG);
    CHECK(strstr(err.message, ": error: file too large (10 bytes)") != NULL);
    CHECK(t.data == NULL && t.len == 0);
    put(at("none"), "");
    CHECK(st_os_read_file(a, at("none"), 0, &t, NULL));
    CHECK(t.data && t.len == 0 && t.data[0] == 0);
    CHECK(!st_os_read_file(a, root, 100, &t, &err));
    CHECK(err.code == ERROR_NOT_FILE && err.err_no == EISDIR);
    CHECK(!st_os_read_file(a, "/dev/null", 100, &t, &err));
    CHECK(err.code == ERROR_NOT_FILE && err.err_no == 0);
    CHECK(!strcmp(err.message, "/dev/null: error: not a regular file (a device, FIFO or socket)"));
    CHECK(!st_os_read_file(a, at("absent"), 100, &t, &err));
    CHECK_EQ_I(err.code, ERROR_NOT_FOUND);
    CHECK_EQ_I(err.err_no, ENOENT);
    CHECK(!strcmp(st_error_what(&err), "cannot open: No such file or directory"));
    CHECK(err.at.path_len == strlen(at("absent")));
}

static void test_tree(void) {
    CHECK(st_os_make_dirs(at("a/b//c/")));
    CHECK_EQ_I(st_os_file_info(at("a/b/c")).kind, OS_FILE_DIRECTORY);
    CHECK(st_os_make_dirs(at("a/b/c"))); /* already there */
    errno = 0;
    CHECK(!st_os_make_dirs(at("seven/sub"))); /* a file on the way */
    CHECK_EQ_I(errno, ENOTDIR);
    errno = 0;
    CHECK(!st_os_make_dirs(at("seven"))); /* a file at the end */
    CHECK_EQ_I(errno, ENOTDIR);
    CHECK(!st_os_make_dirs(""));

    put(at("from"), "moved");
    CHECK(st_os_rename(at("from"), at("a/to")));
    CHECK_EQ_I(st_os_file_info(at("from")).kind, OS_FILE_NONE);
    CHECK_EQ_U(st_os_file_info(at("a/to")).size, 5);
    errno = 0;
    CHECK(!st_os_rename(at("from"), at("again")));
    CHECK_EQ_I(errno, ENOENT);
    CHECK(st_os_remove(at("a/to")));
    CHECK_EQ_I(st_os_file_info(at("a/to")).kind, OS_FILE_NONE);
    CHECK(!st_os_remove(at("a/to")));
    CHECK(!st_os_remove(at("a"))); /* a folder is not removed */

    /* The write check leaves an absent file absent and an existing one as it was. */
    Error msg;
    CHECK(st_os_write_check(at("probe"), &msg));
    CHECK_EQ_I(st_os_file_info(at("probe")).kind, OS_FILE_NONE);
    CHECK(st_os_write_check(at("seven"), &msg));
    CHECK_EQ_U(st_os_file_info(at("seven")).size, 7);
    CHECK(!st_os_write_check(at("a"), &msg));
    CHECK(strstr(msg.message, "it is a directory") != NULL);
    CHECK(!st_os_write_check(at("nowhere/probe"), &msg));
    CHECK(strstr(msg.message, "does not exist") != NULL);
}

static void test_list(Arena *a) {
    CHECK(st_os_make_dirs(at("many/sub")));
    for (int i = 0; i < MANY; i++) {
        char name[64];
        snprintf(name, sizeof name, "many/entry-with-a-longish-name-%03d.txt", i);
        put(at(name), "");
    }
    CHECK(symlink("sub", at("many/link")) == 0);
    OsDirList l;
    REQUIRE_VOID(st_os_list_dir(a, at("many"), &l));
    CHECK_EQ_U(l.count, MANY + 2);
    static bool seen[MANY];
    int subs = 0, links = 0, others = 0;
    for (uint64_t i = 0; i < l.count; i++) {
        const OsDirEntry *e = &l.entries[i];
        CHECK(strlen(e->name.data) == e->name.len); /* NUL-terminated, and no NUL inside */
        int n;
        char tail[8];
        if (sscanf(e->name.data, "entry-with-a-longish-name-%3d.%3s", &n, tail) == 2 && n >= 0 &&
            n < MANY && !strcmp(tail, "txt") && e->kind == OS_FILE_REGULAR) {
            CHECK(!seen[n]);
            seen[n] = true;
        } else if (!strcmp(e->name.data, "sub") && e->kind == OS_FILE_DIRECTORY) {
            subs++;
        } else if (!strcmp(e->name.data, "link") && e->kind == OS_FILE_LINK) {
            links++;
        } else {
            fprintf(stderr, "unexpected entry '%s' (kind %d)\n", e->name.data, (int)e->kind);
            others++;
        }
    }
    for (int i = 0; i < MANY; i++) CHECK(seen[i]);
    CHECK_EQ_I(subs, 1);
    CHECK_EQ_I(links, 1);
    CHECK_EQ_I(others, 0); /* "." and ".." included */

    REQUIRE_VOID(st_os_list_dir(a, at("many/sub"), &l));
    CHECK_EQ_U(l.count, 0);
    errno = 0;
    CHECK(!st_os_list_dir(a, at("absent"), &l));
    CHECK_EQ_I(errno, ENOENT);
    CHECK(l.entries == NULL && l.count == 0);
    errno = 0;
    CHECK(!st_os_list_dir(a, at("seven"), &l));
    CHECK_EQ_I(errno, ENOTDIR);

    /* An arena too small for the names fails cleanly, and says so. */
    Arena *small = st_arena_create((ArenaParams){.reserve_size = 4096, .flags = ARENA_FLAG_NO_CHAIN,
                                              .name = "small"});
    REQUIRE_VOID(small);
    errno = 0;
    CHECK(!st_os_list_dir(small, at("many"), &l));
    CHECK_EQ_I(errno, ENOMEM);
    CHECK(strstr(last_refusal(), "arena 'small' full") != NULL);
    st_arena_release(small);
}

static void test_paths(Arena *a, const char *argv0) {
    /* The test binary's folder, by the real path of argv[0] (ctest runs it by full path). */
    char self[PATH_MAX];
    REQUIRE_VOID(st_os_real_path(argv0, self, sizeof self));
    *strrchr(self, '/') = '\0';
    const char *dir = st_os_exe_dir(a);
    REQUIRE_VOID(dir);
    CHECK(strcmp(dir, self) == 0);

    char cwd[PATH_MAX], real[PATH_MAX];
    REQUIRE_VOID(getcwd(cwd, sizeof cwd));
    CHECK(st_os_real_path(".", real, sizeof real) && strcmp(real, cwd) == 0);
    /* Links and ".." resolved. */
    char want[PATH_MAX];
    REQUIRE_VOID(st_os_real_path(at("seven"), want, sizeof want));
    CHECK(st_os_real_path(at("a/b/../../link"), real, sizeof real) && strcmp(real, want) == 0);
    errno = 0;
    CHECK(!st_os_real_path(at("seven"), real, 4));
    CHECK_EQ_I(errno, ENAMETOOLONG);
    errno = 0;
    CHECK(!st_os_real_path(at("absent"), real, sizeof real));
    CHECK_EQ_I(errno, ENOENT);
}

static void cleanup(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
}

int main(int argc, char **argv) {
    (void)argc;
    snprintf(root, sizeof root, "/tmp/test_os_file.XXXXXX");
    REQUIRE(mkdtemp(root));
    Arena *a = st_arena_create((ArenaParams){.name = "list"});
    REQUIRE(a);
    OsDirList warm; /* the scratch arenas exist before the heap is counted */
    st_os_list_dir(a, root, &warm);

    test_info();
    test_read(a);
    test_tree();
    test_list(a);
    test_paths(a, argv[0]);
    if (HEAP_COUNT) {
        heap_calls = 0; /* the fopen of put() above is the test's own */
        OsDirList l;
        char real[PATH_MAX];
        CHECK(st_os_list_dir(a, at("many"), &l));
        CHECK(st_os_exe_dir(a) != NULL);
        CHECK(st_os_real_path(at("a/b/../../link"), real, sizeof real));
        CHECK(st_os_make_dirs(at("x/y/z")));
        Error msg;
        CHECK(st_os_write_check(at("x/probe"), &msg));
        CHECK(st_os_file_info(at("seven")).kind == OS_FILE_REGULAR);
        CHECK(st_os_rename(at("seven"), at("x/seven")) && st_os_remove(at("x/seven")));
        Str8 text;
        CHECK(st_os_read_file(a, at("many/entry-with-a-longish-name-000.txt"), 100, &text, NULL));
        CHECK(st_os_write_file_atomic(at("x/atomic"), "data", 4, &msg));
        CHECK_EQ_U(heap_calls, 0);
    }
    st_arena_release(a);
    cleanup();
    return check_result();
}
