/* portable.h - what the tests use to set up and clear away their files and environment
   on every platform: folder trees copied and removed through the engine's os_file (no shell:
   Windows has no rm or cp), and the few POSIX calls (mkdtemp, setenv, unsetenv, utimensat,
   pread) spelt for mingw-w64's C library, which names them differently or lacks them.
   Tests only. Include it after the system headers. */
#ifndef TESTS_PORTABLE_H
#define TESTS_PORTABLE_H

#if defined(_WIN32)
#include <direct.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <windows.h>

/* "dirXXXXXX": the X's made unique, the folder made. */
static inline char *test_mkdtemp(char *tmpl) {
    if (_mktemp_s(tmpl, strlen(tmpl) + 1) != 0) return NULL;
    return _mkdir(tmpl) == 0 ? tmpl : NULL;
}
#define mkdtemp test_mkdtemp

static inline int test_setenv(const char *name, const char *value, int overwrite) {
    if (!overwrite && getenv(name)) return 0;
    return _putenv_s(name, value) == 0 ? 0 : -1;
}
#define setenv test_setenv
/* An empty value removes the variable (_putenv_s's own rule). */
static inline int test_unsetenv(const char *name) { return _putenv_s(name, "") == 0 ? 0 : -1; }
#define unsetenv test_unsetenv

#ifndef AT_FDCWD
#define AT_FDCWD (-100)
#endif
/* utimensat(AT_FDCWD, path, {atime, mtime}, 0) to the 100 ns Windows keeps. */
static inline int test_utimensat(int dirfd, const char *path, const struct timespec ts[2], int flags) {
    (void)dirfd, (void)flags;
    HANDLE h = CreateFileA(path, FILE_WRITE_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE) return -1;
    FILETIME ft[2];
    for (int i = 0; i < 2; i++) {
        /* 100 ns steps since 1601. */
        uint64_t t = (uint64_t)ts[i].tv_sec * 10000000u + (uint64_t)ts[i].tv_nsec / 100u + 116444736000000000u;
        ft[i] = (FILETIME){(DWORD)t, (DWORD)(t >> 32)};
    }
    BOOL ok = SetFileTime(h, NULL, &ft[0], &ft[1]);
    CloseHandle(h);
    return ok ? 0 : -1;
}
#define utimensat test_utimensat

static inline long long test_pread(int fd, void *buf, size_t n, long long at) {
    if (_lseeki64(fd, at, SEEK_SET) < 0) return -1;
    return _read(fd, buf, (unsigned)n);
}
#define pread test_pread
#endif

#include <stdbool.h>
#include <stdio.h>
#if !defined(_WIN32)
#include <unistd.h> /* rmdir */
#endif

#include <strata/core/arena.h>
#include <strata/core/os_file.h>
#include <strata/core/str8.h>

/* rm -rf DIR: every file and folder under it, then it. */
static inline bool test_remove_tree(const char *dir) {
    SCRATCH_SCOPE(tmp);
    OsDirList l;
    if (!st_os_list_dir(tmp.arena, dir, &l)) return false;
    bool ok = true;
    for (uint64_t i = 0; i < l.count; i++) {
        const char *p = st_str8_fmt(tmp.arena, "%s/%s", dir, l.entries[i].name.data).data;
        ok = (l.entries[i].kind == OS_FILE_DIRECTORY ? test_remove_tree(p) : st_os_remove(p)) && ok;
    }
    return rmdir(dir) == 0 && ok;
}

/* cp FROM TO, one file. */
static inline bool test_copy_file(const char *from, const char *to) {
    SCRATCH_SCOPE(tmp);
    Str8 bytes;
    Error err;
    if (!st_os_read_file(tmp.arena, from, 1ull << 30, &bytes, &err) ||
        !st_os_write_file_atomic(to, bytes.data, bytes.len, &err)) {
        fprintf(stderr, "test_copy_file: %s\n", err.message);
        return false;
    }
    return true;
}

/* cp -r FROM TO (TO made, as cp -r makes it when it is not there), or with `suffix` set,
   only FROM's files whose names end in it, into the folder TO. */
static inline bool test_copy_tree(const char *from, const char *to, const char *suffix) {
    SCRATCH_SCOPE(tmp);
    OsDirList l;
    if (!st_os_make_dirs(to) || !st_os_list_dir(tmp.arena, from, &l)) return false;
    bool ok = true;
    for (uint64_t i = 0; i < l.count && ok; i++) {
        Str8 name = l.entries[i].name;
        const char *src = st_str8_fmt(tmp.arena, "%s/%s", from, name.data).data;
        const char *dst = st_str8_fmt(tmp.arena, "%s/%s", to, name.data).data;
        if (l.entries[i].kind == OS_FILE_DIRECTORY) ok = suffix || test_copy_tree(src, dst, NULL);
        else if (!suffix || st_str8_ends_with(name, st_str8_cstr(suffix))) ok = test_copy_file(src, dst);
    }
    return ok;
}

#endif
