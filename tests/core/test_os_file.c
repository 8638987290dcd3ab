/* os_file.h, the one place engine and game code touch files and folders: what is at a path
   (kind, size, mtime, links followed or not), mkdir -p, rename, remove, the write probe,
   directory listing (several getdents64 reads and several chunks deep, kinds, a full arena,
   errors), the executable's folder and real paths. Outside AddressSanitizer (which owns
   malloc) it also counts the C heap, by interposing malloc, and requires every call here to
   make none: the game lists levels and finds its folder with them. The same checks run on
   Windows (under wine), but for what POSIX alone has (symbolic links, /dev/null, an mtime
   to the nanosecond); there the heap is not counted (heap_count.h), and a path in UTF-8
   with 'é' and a space, the user folders and the UTF-8 command line are checked too. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(_WIN32)
#include <direct.h> /* _mkdir */
#include <windows.h>
#undef ERROR_NOT_FOUND /* winerror.h's: core/error.h's is meant */
#endif

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

/* Sets the file's modification time (100 ns steps on Windows, which cuts the nanoseconds). */
static bool set_mtime(const char *path, int64_t sec, long nsec) {
#if defined(_WIN32)
    HANDLE h = CreateFileA(path, FILE_WRITE_ATTRIBUTES, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
    if (h == INVALID_HANDLE_VALUE) return false;
    uint64_t t = (uint64_t)(sec * 10000000 + nsec / 100) + 116444736000000000ull;
    FILETIME ft = {(DWORD)t, (DWORD)(t >> 32)};
    bool ok = SetFileTime(h, NULL, NULL, &ft);
    CloseHandle(h);
    return ok;
#else
    struct timespec times[2] = {{1000, 0}, {sec, nsec}};
    return utimensat(AT_FDCWD, path, times, 0) == 0;
#endif
}

static void test_info(void) {
    put(at("seven"), "7 bytes");
    OsFileInfo fi = st_os_file_info(at("seven"));
    CHECK_EQ_I(fi.kind, OS_FILE_REGULAR);
    CHECK_EQ_U(fi.size, 7);
    CHECK_EQ_I(fi.error, 0);
    /* mtime to the nanosecond, as the editor will poll it. */
    CHECK(set_mtime(at("seven"), 1234567890, 123456789));
#if defined(_WIN32)
    CHECK_EQ_I(st_os_file_info(at("seven")).mtime_ns, 1234567890123456700ll);
#else
    CHECK_EQ_I(st_os_file_info(at("seven")).mtime_ns, 1234567890123456789ll);
#endif
    CHECK_EQ_I(st_os_file_info(root).kind, OS_FILE_DIRECTORY);
    fi = st_os_file_info(at("absent"));
    CHECK_EQ_I(fi.kind, OS_FILE_NONE);
    CHECK_EQ_I(fi.error, ENOENT);
#if defined(_WIN32) /* Windows says "path not found" for a file on the way */
    CHECK_EQ_I(st_os_file_info(at("seven/below")).error, ENOENT);
#else
    CHECK_EQ_I(st_os_file_info(at("seven/below")).error, ENOTDIR);
    CHECK_EQ_I(st_os_file_info("/dev/null").kind, OS_FILE_OTHER);

    /* Links: followed by st_os_file_info, seen by st_os_link_info; a dangling one is there. */
    CHECK(symlink("seven", at("link")) == 0);
    CHECK(symlink("absent", at("dangling")) == 0);
    CHECK_EQ_I(st_os_file_info(at("link")).kind, OS_FILE_REGULAR);
    CHECK_EQ_I(st_os_link_info(at("link")).kind, OS_FILE_LINK);
    CHECK_EQ_I(st_os_file_info(at("dangling")).kind, OS_FILE_NONE);
    CHECK_EQ_I(st_os_link_info(at("dangling")).kind, OS_FILE_LINK);
#endif
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
#if !defined(_WIN32) /* a device by a path: POSIX */
    CHECK(!st_os_read_file(a, "/dev/null", 100, &t, &err));
    CHECK(err.code == ERROR_NOT_FILE && err.err_no == 0);
    CHECK(!strcmp(err.message, "/dev/null: error: not a regular file (a device, FIFO or socket)"));
#endif
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
#if defined(_WIN32) /* no symbolic link made here: Windows wants a privilege for one */
    int want_links = 0;
#else
    int want_links = 1;
    CHECK(symlink("sub", at("many/link")) == 0);
#endif
    OsDirList l;
    REQUIRE_VOID(st_os_list_dir(a, at("many"), &l));
    CHECK_EQ_U(l.count, MANY + 1 + want_links);
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
    CHECK_EQ_I(links, want_links);
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
    CHECK_STR(dir, self);

    char cwd[PATH_MAX], real[PATH_MAX];
    REQUIRE_VOID(getcwd(cwd, sizeof cwd));
    for (char *c = cwd; *c; c++)
        if (*c == '\\') *c = '/'; /* Windows: what os_file.h gives back uses '/' */
    CHECK(st_os_real_path(".", real, sizeof real));
    CHECK_STR(real, cwd);
    /* Links and ".." resolved. */
    char want[PATH_MAX];
    REQUIRE_VOID(st_os_real_path(at("seven"), want, sizeof want));
#if defined(_WIN32)
    CHECK(st_os_real_path(at("a/b/../../seven"), real, sizeof real) && strcmp(real, want) == 0);
#else
    CHECK(st_os_real_path(at("a/b/../../link"), real, sizeof real) && strcmp(real, want) == 0);
#endif
    errno = 0;
    CHECK(!st_os_real_path(at("seven"), real, 4));
    CHECK_EQ_I(errno, ENAMETOOLONG);
    errno = 0;
    CHECK(!st_os_real_path(at("absent"), real, sizeof real));
    CHECK_EQ_I(errno, ENOENT);
}

/* A name in UTF-8 with 'é' and a space goes to the OS as itself (UTF-16 on Windows) and
   comes back the same from a listing; on Windows bytes that are not UTF-8 are refused. */
#define E_ACUTE "\xc3\xa9"
static void test_utf8_paths(Arena *a) {
    CHECK(st_os_make_dirs(at(E_ACUTE " x/sub")));
    const char *name = at(E_ACUTE " x/d" E_ACUTE " j\xc3\xa0.txt");
    Error err;
    CHECK(st_os_write_file_atomic(name, "accents", 7, &err));
    Str8 t;
    CHECK(st_os_read_file(a, name, 100, &t, &err) && t.len == 7 && !memcmp(t.data, "accents", 7));
    CHECK_EQ_U(st_os_file_info(name).size, 7);
    CHECK(st_os_write_file_atomic(name, "again", 5, &err)); /* the replace path */
    CHECK(st_os_read_file(a, name, 100, &t, &err) && t.len == 5);
    OsDirList l;
    REQUIRE_VOID(st_os_list_dir(a, at(E_ACUTE " x"), &l));
    int found = 0;
    for (uint64_t i = 0; i < l.count; i++) found += !strcmp(l.entries[i].name.data, "d" E_ACUTE " j\xc3\xa0.txt");
    CHECK_EQ_I(found, 1);
    CHECK_EQ_U(l.count, 2);
    char real[PATH_MAX];
    CHECK(st_os_real_path(name, real, sizeof real) && strstr(real, "/" E_ACUTE " x/d" E_ACUTE " j\xc3\xa0.txt"));
    CHECK(st_os_rename(name, at(E_ACUTE " x/\xc3\xb1.txt")));
    CHECK_EQ_U(st_os_file_info(at(E_ACUTE " x/\xc3\xb1.txt")).size, 5);
    CHECK(st_os_remove(at(E_ACUTE " x/\xc3\xb1.txt")));
#if defined(_WIN32)
    /* Windows: '\' separates too, and a drive's root is there already. */
    CHECK(st_os_make_dirs(at(E_ACUTE " x\\back\\slash")));
    CHECK_EQ_I(st_os_file_info(at(E_ACUTE " x/back/slash")).kind, OS_FILE_DIRECTORY);
    CHECK(st_os_real_path(root, real, sizeof real) && real[1] == ':');
    char deep[PATH_MAX + 32];
    snprintf(deep, sizeof deep, "%s/drive/d1\\d2/", real);
    CHECK(st_os_make_dirs(deep));
    CHECK_EQ_I(st_os_file_info(at("drive/d1/d2")).kind, OS_FILE_DIRECTORY);
    snprintf(deep, sizeof deep, "%.3s", real); /* "Z:/" */
    CHECK(st_os_make_dirs(deep));
    /* Not UTF-8: an error, never a file of another name. */
    const char *bad = at("bad\xff.txt");
    CHECK(!st_os_write_file_atomic(bad, "x", 1, &err));
    CHECK_EQ_I(err.err_no, EILSEQ);
    CHECK(!st_os_read_file(a, bad, 100, &t, &err));
    CHECK_EQ_I(err.err_no, EILSEQ);
    CHECK_EQ_I(st_os_file_info(bad).error, EILSEQ);
    errno = 0;
    CHECK(!st_os_make_dirs(bad) && errno == EILSEQ);
#endif
}

/* The user's folders: XDG's on Linux, %APPDATA% on Windows (wide, given back in UTF-8). */
static void test_user_path(void) {
    char out[PATH_MAX];
#if defined(_WIN32)
    REQUIRE_VOID(_wputenv_s(L"APPDATA", L"C:\\Users\\\u00e9 x\\AppData\\Roaming") == 0);
    CHECK(st_os_user_path(out, sizeof out, OS_USER_DATA, "my-game", "progress"));
    CHECK_STR(out, "C:/Users/" E_ACUTE " x/AppData/Roaming/my-game/progress");
    CHECK(st_os_user_path(out, sizeof out, OS_USER_CONFIG, "my-game", "settings"));
    CHECK_STR(out, "C:/Users/" E_ACUTE " x/AppData/Roaming/my-game/settings");
    CHECK(!st_os_user_path(out, 10, OS_USER_DATA, "my-game", "progress")); /* does not fit */
    REQUIRE_VOID(_wputenv_s(L"APPDATA", L"") == 0);
    CHECK(!st_os_user_path(out, sizeof out, OS_USER_DATA, "my-game", "progress"));
#else
    setenv("HOME", "/home/me", 1);
    setenv("XDG_DATA_HOME", "/data", 1);
    setenv("XDG_CONFIG_HOME", "relative/ignored", 1);
    CHECK(st_os_user_path(out, sizeof out, OS_USER_DATA, "my-game", "progress"));
    CHECK_STR(out, "/data/my-game/progress");
    CHECK(st_os_user_path(out, sizeof out, OS_USER_CONFIG, "my-game", "settings"));
    CHECK_STR(out, "/home/me/.config/my-game/settings");
    unsetenv("XDG_DATA_HOME");
    CHECK(st_os_user_path(out, sizeof out, OS_USER_DATA, "my-game", "progress"));
    CHECK_STR(out, "/home/me/.local/share/my-game/progress");
    CHECK(!st_os_user_path(out, 10, OS_USER_DATA, "my-game", "progress"));
    unsetenv("HOME");
    CHECK(!st_os_user_path(out, sizeof out, OS_USER_DATA, "my-game", "progress"));
#endif
}

/* The argument the child is given, as its command line holds it. */
#define ARGS_CHILD "--args-child"
#define ARGS_TEXT "levels/" E_ACUTE " x.lvl"

/* The child: its argv, made UTF-8, holds the one argument whole. */
static int args_child(Arena *a, int argc, char **argv) {
    CHECK(st_os_args_utf8(a, &argc, &argv));
    CHECK_EQ_I(argc, 3);
    if (argc == 3) CHECK_STR(argv[2], ARGS_TEXT);
    CHECK(argv[argc] == NULL);
    return check_result();
}

static void test_args(Arena *a, int argc, char **argv) {
#if defined(_WIN32) /* the child is given 'é' and a space, which the ANSI argv breaks */
    (void)a, (void)argc, (void)argv;
    wchar_t exe[MAX_PATH], cmd[MAX_PATH + 64];
    REQUIRE_VOID(GetModuleFileNameW(NULL, exe, MAX_PATH) < MAX_PATH);
    swprintf(cmd, sizeof cmd / sizeof cmd[0], L"\"%ls\" " ARGS_CHILD L" \"levels/\u00e9 x.lvl\"", exe);
    STARTUPINFOW si = {.cb = sizeof si};
    PROCESS_INFORMATION pi;
    REQUIRE_VOID(CreateProcessW(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi));
    WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 1;
    GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hProcess), CloseHandle(pi.hThread);
    CHECK_EQ_I(code, 0);
#else /* elsewhere argv is left as it is */
    char **before = argv;
    int n = argc;
    CHECK(st_os_args_utf8(a, &n, &argv));
    CHECK(argv == before && n == argc);
#endif
}

static void cleanup(void) {
    char cmd[128];
#if defined(_WIN32)
    snprintf(cmd, sizeof cmd, "rmdir /s /q \"%s\"", root);
#else
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
#endif
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], ARGS_CHILD)) {
        Arena *args = st_arena_create((ArenaParams){.name = "args"});
        return args ? args_child(args, argc, argv) : 1;
    }
#if defined(_WIN32) /* no mkdtemp: a folder named for the process, in the test's folder */
    snprintf(root, sizeof root, "test_os_file.%lu", (unsigned long)GetCurrentProcessId());
    REQUIRE(_mkdir(root) == 0);
#else
    snprintf(root, sizeof root, "/tmp/test_os_file.XXXXXX");
    REQUIRE(mkdtemp(root));
#endif
    Arena *a = st_arena_create((ArenaParams){.name = "list"});
    REQUIRE(a);
    OsDirList warm; /* the scratch arenas exist before the heap is counted */
    st_os_list_dir(a, root, &warm);

    test_info();
    test_read(a);
    test_tree();
    test_list(a);
    test_paths(a, argv[0]);
    test_utf8_paths(a);
    test_user_path();
    test_args(a, argc, argv);
    if (HEAP_COUNT) {
        heap_calls = 0; /* the fopen of put() above is the test's own */
        OsDirList l;
        char real[PATH_MAX];
        CHECK(st_os_list_dir(a, at("many"), &l));
        CHECK(st_os_exe_dir(a) != NULL);
        CHECK(st_os_real_path(at("a/b/../../many"), real, sizeof real));
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
