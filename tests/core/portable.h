/* portable.h - the few POSIX calls the tests use to set up their files and environment
   (mkdtemp, setenv, unsetenv, utimensat, pread), for the Windows build: mingw-w64's C
   library spells them differently or lacks them. Tests only; on POSIX this is empty.
   Include it after the system headers. */
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

#endif
