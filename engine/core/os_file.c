/* os_file.c - the files and folders of os_file.h. This file holds what both halves share
   (the words of the errors, the write hooks, the change poll, mkdir -p's walk, the user's
   folders) and the POSIX half: whole-file reads and atomic writes on open/read/write,
   stat-like queries, rename, unlink, listing on getdents64 (opendir on macOS), the
   executable's folder and realpath. The Windows half is os_file_win32.c, included at the
   end in place of the POSIX one (it is not built on its own). Nothing here allocates from
   the heap. */
#include <strata/core/os_file.h>

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/core/chunk_list.h>
#include <strata/core/path.h>

/* The longest path either half handles, in bytes of UTF-8 (PATH_MAX on Linux). */
#define OS_PATH_CAP 4096

/* Each half's: the kill hook's end, and one mkdir. */
static void os_kill_self(void);
static bool os_make_dir(const char *dir);

/* A failed read: "path: error: <phrase>", its code and errno. */
__attribute__((format(printf, 5, 6))) static bool os_read_fail(Error *err, ErrorCode code, int e, const char *path,
                                                               const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(err, code, path, 0, 0, fmt, ap);
    va_end(ap);
    if (err) err->err_no = e;
    return false;
}

/* open(2) said no: nothing there (ENOENT, ENOTDIR), or the OS refused it (permission, a
   loop of links, too many open files). */
static bool os_read_cannot_open(Error *err, const char *path, int e) {
    ErrorCode code = e == ENOENT || e == ENOTDIR ? ERROR_NOT_FOUND : ERROR_REFUSED;
    return os_read_fail(err, code, e, path, "cannot open: %s", strerror(e));
}

/* ---- The writer ---------------------------------------------------------------------- */

static _Atomic int os_fail_step = OS_WRITE_STEPS, os_fail_errno, os_kill_step = OS_WRITE_STEPS;

void st_os_debug_write_fail(OsWriteStep step, int error) {
    atomic_store(&os_fail_errno, error);
    atomic_store(&os_fail_step, error ? (int)step : OS_WRITE_STEPS);
}

void st_os_debug_write_kill(OsWriteStep step) { atomic_store(&os_kill_step, (int)step); }

/* The hooks, at each step: true when the step is to fail (errno set). A hook fires once. */
static bool os_step_fails(OsWriteStep step) {
    int k = (int)step;
    if (atomic_load(&os_kill_step) == k) os_kill_self();
    if (atomic_load(&os_fail_step) != k) return false;
    atomic_store(&os_fail_step, OS_WRITE_STEPS);
    errno = atomic_load(&os_fail_errno);
    return true;
}

/* "path: cannot write: why", a message not about a line of the file, as written. */
static bool os_write_say(Error *err, ErrorCode code, int e, const char *path, const char *why) {
    st_error_set(err, code, NULL, 0, 0, "%s: cannot write: %s", path, why);
    if (err) err->err_no = e;
    return false;
}

static bool os_write_refuse(Error *err, const char *path, const char *why) {
    return os_write_say(err, ERROR_REFUSED, 0, path, why);
}

static bool os_write_fail(Error *err, const char *path, int e) {
    return os_write_say(err, e == ENOENT || e == ENOTDIR ? ERROR_NOT_FOUND : ERROR_IO, e, path, strerror(e));
}

/* The folder a file at `path` goes in ("." for a bare name). */
static void os_folder_of(const char *path, char *out, size_t cap) {
    Str8 folder = st_path_dir(st_str8_cstr(path)); /* "/progress": the root */
    snprintf(out, cap, "%.*s", STR8_FMT(folder.len ? folder : STR8_LIT(".")));
}

/* ---- What is at a path ---------------------------------------------------------------- */

bool st_os_file_changed(const char *path, OsFileStamp *s) {
    OsFileInfo fi = st_os_file_info(path);
    bool regular = fi.kind == OS_FILE_REGULAR;
    OsFileStamp now = {fi.kind, regular ? fi.mtime_ns : 0, regular ? fi.size : 0};
    bool changed = regular && (s->kind != OS_FILE_REGULAR || now.mtime_ns != s->mtime_ns || now.size != s->size);
    *s = now;
    return changed;
}

/* A folder separator: '/', and on Windows '\\' too. */
/* The end of every listing: the entries found (in a scratch chunk list) as one array in `a`,
   or false with errno `err` (ENOMEM when `a` cannot hold the array). */
static bool os_list_done(Arena *a, ChunkList *found, int err, OsDirList *out) {
    Span all = err ? (Span){0} : st_chunk_list_flatten(found, a);
    if (!err && found->count && !all.data) err = ENOMEM;
    if (err) {
        errno = err;
        return false;
    }
    *out = (OsDirList){.entries = all.data, .count = found->count};
    return true;
}

static bool os_is_sep(char c) {
#if defined(_WIN32)
    if (c == '\\') return true;
#endif
    return c == '/';
}

bool st_os_make_dirs(const char *dir) {
    char p[OS_PATH_CAP];
    size_t n = strlen(dir);
    if (n == 0) {
        errno = ENOENT;
        return false;
    }
    if (n >= sizeof p) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(p, dir, n + 1);
    /* Each parent in turn, from the top; a leading '/' is the root, and "C:/" a drive's,
       made by nobody. */
    for (char *s = p + 1; *s; s++) {
        if (!os_is_sep(*s) || os_is_sep(s[-1]) || (s == p + 2 && p[1] == ':')) continue;
        char sep = *s;
        *s = '\0';
        bool ok = os_make_dir(p);
        *s = sep;
        if (!ok) return false;
    }
    return os_make_dir(p);
}

#if !defined(_WIN32)
/* "<root>/<app>/<file>", true when it fits. */
static bool os_user_join(char *out, size_t cap, const char *root, const char *under, const char *app,
                         const char *file) {
    int n = snprintf(out, cap, "%s%s%s/%s/%s", root, under[0] ? "/" : "", under, app, file);
    return n > 0 && (size_t)n < cap;
}

bool st_os_user_path(char *out, size_t cap, OsUserDir dir, const char *app, const char *file) {
    const char *home = getenv("HOME");
#if defined(__APPLE__)
    (void)dir; /* data and settings alike, where SDL_GetPrefPath puts them */
    return home && home[0] && os_user_join(out, cap, home, "Library/Application Support", app, file);
#else
    const char *xdg = getenv(dir == OS_USER_CONFIG ? "XDG_CONFIG_HOME" : "XDG_DATA_HOME");
    if (xdg && xdg[0] == '/') return os_user_join(out, cap, xdg, "", app, file);
    const char *fallback = dir == OS_USER_CONFIG ? ".config" : ".local/share";
    return home && home[0] && os_user_join(out, cap, home, fallback, app, file);
#endif
}
#endif

#if defined(_WIN32)
#include <strata/core/os_file_win32.c>
#else
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <dirent.h>
#include <mach-o/dyld.h> /* _NSGetExecutablePath */
#elif defined(__linux__)
#include <dirent.h> /* DT_* only: the listing itself is getdents64, not opendir */
#include <sys/syscall.h>
#elif defined(__EMSCRIPTEN__)
#include <dirent.h> /* musl's getdents: the same records as Linux's getdents64 */
#include <emscripten.h>
/* The web build's files live in the page's memory; the save folder is mounted on
   IndexedDB by engine/platform/web/pre.js, whose Module.adPersist copies it there
   (FS.syncfs, one at a time). Called after every atomic write, so a save the game saw
   written survives a reload. */
EM_JS(void, os_web_persist, (void), {
    if (Module["adPersist"]) Module["adPersist"]();
});
#endif
bool st_os_read_file(Arena *a, const char *path, uint64_t max_bytes, Str8 *out, Error *err) {
    *out = (Str8){0};
    /* O_NONBLOCK: opening a FIFO with no writer would otherwise hang here, before fstat
       could refuse it. It changes nothing for the regular files that get past fstat. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return os_read_cannot_open(err, path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return os_read_fail(err, ERROR_IO, e, path, "cannot examine: %s", strerror(e));
    }
    uint64_t size = (uint64_t)st.st_size;
    bool ok = false;
    if (S_ISDIR(st.st_mode)) os_read_fail(err, ERROR_NOT_FILE, EISDIR, path, "not a regular file (a directory)");
    else if (!S_ISREG(st.st_mode))
        os_read_fail(err, ERROR_NOT_FILE, 0, path, "not a regular file (a device, FIFO or socket)");
    else if (size > max_bytes)
        os_read_fail(err, ERROR_TOO_BIG, EFBIG, path, "file too large (%llu bytes)", (unsigned long long)size);
    else ok = true;
    char *buf = ok ? st_arena_push_raw(a, size + 1, 16) : NULL;
    if (ok && !buf) {
        os_read_fail(err, ERROR_OUT_OF_MEMORY, ENOMEM, path, "out of memory: ");
        ok = st_arena_error(err);
    }
    uint64_t got = 0;
    while (ok && got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) ok = os_read_fail(err, ERROR_IO, errno, path, "cannot read: %s", strerror(errno));
        if (n <= 0) break; /* 0: the file shrank under us, keep what there is */
        got += (uint64_t)n;
    }
    close(fd);
    if (!ok) return false;
    buf[got] = 0;
    *out = (Str8){buf, got};
    st_error_clear(err);
    return true;
}

bool st_os_write_all(int fd, const void *p, uint64_t n) {
    const char *c = p;
    while (n) {
        /* One write of at most 1 GiB: some systems refuse larger counts. */
        ssize_t w = write(fd, c, n < (1u << 30) ? (size_t)n : (size_t)1 << 30);
        if (w < 0 && errno == EINTR) continue;
        if (w == 0) errno = EIO;
        if (w <= 0) return false;
        c += w;
        n -= (uint64_t)w;
    }
    return true;
}

/* Where a write goes, and how. */
typedef struct OsWriteTarget {
    char path[PATH_MAX]; /* the file replaced: `path` itself, or what its link points to */
    bool exists;
    bool in_place; /* a FIFO or character device: written, never replaced */
    struct stat st;
} OsWriteTarget;

/* A folder that is missing, or a file where a folder should be, said in its own words
   (ENOENT from open names neither). */
static bool os_folder_refuse(Error *err, const char *path, const char *target, int e) {
    char folder[PATH_MAX], why[PATH_MAX + 64];
    os_folder_of(target, folder, sizeof folder);
    struct stat st;
    ErrorCode code = ERROR_IO;
    if (stat(folder, &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
        snprintf(why, sizeof why, "the folder %s does not exist", folder), code = ERROR_NOT_FOUND;
    else if (e == ENOTDIR || (stat(folder, &st) == 0 && !S_ISDIR(st.st_mode)))
        snprintf(why, sizeof why, "%s is not a folder", folder);
    else if (e == EACCES || e == EPERM)
        snprintf(why, sizeof why, "the folder %s may not be written (%s)", folder, strerror(e));
    else snprintf(why, sizeof why, "%s", strerror(e));
    return os_write_say(err, code, e, path, why);
}

static bool os_is_read_only(const char *path, const struct stat *st, int *e) {
    *e = 0;
    if (geteuid() == 0) return (st->st_mode & 0222) == 0; /* root may write anything */
    if (access(path, W_OK) == 0) return false;
    *e = errno;
    return errno == EACCES || errno == EROFS || errno == EPERM;
}

/* Applies the contract's checks to `path`; fills *t with where the bytes go. */
static bool os_write_target(const char *path, OsWriteTarget *t, Error *err) {
    memset(t, 0, sizeof *t);
    if (!path[0]) return os_write_refuse(err, "(empty path)", "no file named");
    size_t len = strlen(path);
    if (len >= sizeof t->path) return os_write_fail(err, path, ENAMETOOLONG);
    struct stat lst;
    if (lstat(path, &lst) != 0) {
        if (errno != ENOENT) return os_folder_refuse(err, path, path, errno);
        memcpy(t->path, path, len + 1);
        return true; /* a new file; its folder is checked when the temporary is made */
    }
    if (stat(path, &t->st) != 0) /* a link that points nowhere, or into a loop */
        return os_write_refuse(err, path,
                               errno == ENOENT ? "a symbolic link to a missing file"
                                               : "a symbolic link that cannot be followed");
    t->exists = true;
    mode_t m = t->st.st_mode;
    if (S_ISDIR(m)) return os_write_refuse(err, path, "it is a directory");
    if (S_ISBLK(m)) return os_write_refuse(err, path, "it is a block device (not written in place)");
    if (S_ISSOCK(m)) return os_write_refuse(err, path, "it is a socket");
    if (!S_ISREG(m)) {
        t->in_place = true; /* /dev/stdout is a link to a link: open the name as given */
        memcpy(t->path, path, len + 1);
        int e;
        if (os_is_read_only(path, &t->st, &e)) return os_write_fail(err, path, e ? e : EACCES);
        return true;
    }
    if (S_ISLNK(lst.st_mode)) {
        if (!realpath(path, t->path)) return os_write_fail(err, path, errno);
    } else memcpy(t->path, path, len + 1);
    int e;
    if (os_is_read_only(t->path, &t->st, &e)) {
        char why[96];
        if (e == EROFS) snprintf(why, sizeof why, "it is on a read-only file system");
        else snprintf(why, sizeof why, "it is read-only (mode %04o)", (unsigned)(t->st.st_mode & 07777));
        return os_write_refuse(err, path, why);
    }
    if (t->st.st_nlink > 1) {
        char why[160];
        snprintf(why, sizeof why,
                 "it has %llu hard links, and a replacement would leave the other names with the old "
                 "bytes (remove them, or write a copy)",
                 (unsigned long long)t->st.st_nlink);
        return os_write_refuse(err, path, why);
    }
    return true;
}

static bool os_write_in_place(const char *path, const void *p, uint64_t n, Error *err) {
    int fd = os_step_fails(OS_WRITE_STEP_CREATE) ? -1 : open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return os_write_fail(err, path, errno);
    bool ok = !os_step_fails(OS_WRITE_STEP_WRITE) && st_os_write_all(fd, p, n);
    int e = errno;
    if (close(fd) != 0 && ok) ok = false, e = errno;
    return ok || os_write_fail(err, path, e);
}

/* Creates the temporary beside `target`, fresh: O_EXCL refuses whatever is at the name,
   a link above all, and the name is new for every write, so nothing of anyone's is in the
   way. The mode is the target's (the umask does not narrow it: fchmod), else 0666 less the
   umask, as open gives any new file. */
static int os_make_temp(const OsWriteTarget *t, char *tmp, size_t cap) {
    static _Atomic unsigned serial;
    char folder[PATH_MAX];
    os_folder_of(t->path, folder, sizeof folder);
    Str8 base = st_path_base_name(st_str8_cstr(t->path));
    for (int tries = 0; tries < 64; tries++) {
        int w = snprintf(tmp, cap, "%s/.%.*s.%ld-%u.tmp", folder, STR8_FMT(base), (long)getpid(),
                         atomic_fetch_add(&serial, 1));
        if (w < 0 || (size_t)w >= cap) {
            errno = ENAMETOOLONG;
            return -1;
        }
        if (os_step_fails(OS_WRITE_STEP_CREATE)) return -1;
        int fd =
            open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, t->exists ? t->st.st_mode & 0777 : 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd >= 0 && t->exists) {
            /* Owner first: a chown may clear set-id bits, which the chmod then restores.
               Both are best effort, as a copy by an unprivileged user is. */
            if (fchown(fd, t->st.st_uid, t->st.st_gid) != 0) (void)!fchown(fd, (uid_t)-1, t->st.st_gid);
            (void)!fchmod(fd, t->st.st_mode & 07777);
        }
        return fd;
    }
    errno = EEXIST;
    return -1;
}

/* To the disk: on macOS fsync reaches the drive's cache only, F_FULLFSYNC the platters
   (fsync where the file system cannot). */
static bool os_sync(int fd) {
#if defined(__APPLE__)
    if (fcntl(fd, F_FULLFSYNC) == 0) return true;
#endif
    return fsync(fd) == 0;
}

bool st_os_write_file_atomic(const char *path, const void *p, uint64_t n, Error *err) {
    OsWriteTarget t;
    if (!os_write_target(path, &t, err)) return false;
    if (t.in_place) return os_write_in_place(path, p, n, err);
    char tmp[PATH_MAX + 64];
    int fd = os_make_temp(&t, tmp, sizeof tmp);
    if (fd < 0) {
        int e = errno;
        return e == ENOENT || e == ENOTDIR || e == EACCES || e == EPERM ? os_folder_refuse(err, path, t.path, e)
                                                                        : os_write_fail(err, path, e);
    }
    bool ok = !os_step_fails(OS_WRITE_STEP_WRITE) && st_os_write_all(fd, p, n);
    ok = ok && !os_step_fails(OS_WRITE_STEP_SYNC) && os_sync(fd);
    int e = errno;
    bool closed = close(fd) == 0; /* always: the descriptor goes whatever the hook says */
    if ((os_step_fails(OS_WRITE_STEP_CLOSE) || !closed) && ok) ok = false, e = errno;
    if (ok && (os_step_fails(OS_WRITE_STEP_RENAME) || rename(tmp, t.path) != 0)) ok = false, e = errno;
    if (!ok) {
        unlink(tmp);
        return os_write_fail(err, path, e);
    }
    /* The rename is in the folder: only syncing that makes it survive a crash. Past this
       point the new file is in place, so a failure here is not reported as one. */
    char folder[PATH_MAX];
    os_folder_of(t.path, folder, sizeof folder);
    int dfd = os_step_fails(OS_WRITE_STEP_SYNC_DIR) ? -1 : open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        os_sync(dfd);
        close(dfd);
    }
#if defined(__EMSCRIPTEN__)
    os_web_persist();
#endif
    return true;
}

bool st_os_write_check(const char *path, Error *err) {
    OsWriteTarget t;
    if (!os_write_target(path, &t, err)) return false;
    if (t.in_place) return true; /* os_write_target checked the permission; an open could block */
    char folder[PATH_MAX];
    os_folder_of(t.path, folder, sizeof folder);
    struct stat st;
    if (stat(folder, &st) != 0) return os_folder_refuse(err, path, t.path, errno);
    if (!S_ISDIR(st.st_mode)) return os_folder_refuse(err, path, t.path, ENOTDIR);
    if (geteuid() != 0 && access(folder, W_OK | X_OK) != 0) return os_folder_refuse(err, path, t.path, errno);
    return true;
}

/* ---- What is at a path ---------------------------------------------------------------- */

static OsFileKind os_kind_of(mode_t mode) {
    if (S_ISREG(mode)) return OS_FILE_REGULAR;
    if (S_ISDIR(mode)) return OS_FILE_DIRECTORY;
    if (S_ISLNK(mode)) return OS_FILE_LINK;
    return OS_FILE_OTHER;
}

#if defined(__APPLE__)
#define OS_MTIME(st) ((st)->st_mtimespec)
#else
#define OS_MTIME(st) ((st)->st_mtim)
#endif

static OsFileInfo os_info_of(int rc, const struct stat *st) {
    if (rc != 0) return (OsFileInfo){.kind = OS_FILE_NONE, .error = errno};
    return (OsFileInfo){.kind = os_kind_of(st->st_mode),
                        .size = (uint64_t)st->st_size,
                        .mtime_ns = (int64_t)OS_MTIME(st).tv_sec * 1000000000 + OS_MTIME(st).tv_nsec};
}

OsFileInfo st_os_file_info(const char *path) {
    struct stat st;
    int rc = stat(path, &st);
    return os_info_of(rc, &st);
}

OsFileInfo st_os_link_info(const char *path) {
    struct stat st;
    int rc = lstat(path, &st);
    return os_info_of(rc, &st);
}

/* ---- Changing the tree ---------------------------------------------------------------- */

static bool os_make_dir(const char *dir) {
    if (mkdir(dir, 0755) == 0) return true;
    if (errno != EEXIST) return false;
    /* EEXIST says a name is taken, not that a folder took it. */
    struct stat st;
    if (stat(dir, &st) != 0) return false;
    if (S_ISDIR(st.st_mode)) return true;
    errno = ENOTDIR;
    return false;
}

bool st_os_rename(const char *from, const char *to) { return rename(from, to) == 0; }

bool st_os_remove(const char *path) { return unlink(path) == 0; }

/* ---- Folders and paths ---------------------------------------------------------------- */

#if defined(__linux__) || defined(__EMSCRIPTEN__)
/* What getdents64 fills in; glibc declares it only from 2.30 on, the kernel always. */
typedef struct OsDirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
} OsDirent64;

static OsFileKind os_kind_of_entry(int dfd, const OsDirent64 *d) {
    switch (d->d_type) {
    case DT_REG: return OS_FILE_REGULAR;
    case DT_DIR: return OS_FILE_DIRECTORY;
    case DT_LNK: return OS_FILE_LINK;
    case DT_UNKNOWN: break; /* some file systems never say: ask */
    default: return OS_FILE_OTHER;
    }
    struct stat st;
    if (fstatat(dfd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) return OS_FILE_NONE;
    return os_kind_of(st.st_mode);
}

bool st_os_list_dir(Arena *a, const char *path, OsDirList *out) {
    *out = (OsDirList){0};
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return false;
    SCRATCH_SCOPE(tmp, a);
    ChunkList found;
    st_chunk_list_init(&found, tmp.arena, sizeof(OsDirEntry), 64);
    _Alignas(16) char buf[8192];
    int err = 0;
    for (;;) {
#if defined(__EMSCRIPTEN__)
        long n = getdents(fd, (struct dirent *)buf, sizeof buf);
#else
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
#endif
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) err = errno;
        if (n <= 0) break;
        for (long at = 0; at < n && !err;) {
            const OsDirent64 *d = (const OsDirent64 *)(buf + at);
            at += d->d_reclen;
            if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..")) continue;
            OsDirEntry *e = st_chunk_list_push(&found);
            char *name = e ? st_arena_strdup(a, d->d_name) : NULL;
            if (!name) {
                err = ENOMEM;
                break;
            }
            *e = (OsDirEntry){.name = {name, strlen(name)}, .kind = os_kind_of_entry(fd, d)};
        }
        if (err) break;
    }
    close(fd);
    return os_list_done(a, &found, err, out);
}

const char *st_os_exe_dir(Arena *a) {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf);
    if (n < 0) return NULL;
    if ((size_t)n >= sizeof buf) { /* readlink cuts silently: a full buffer may be cut */
        errno = ENAMETOOLONG;
        return NULL;
    }
    Str8 folder = st_path_dir(st_str8_make(buf, (uint64_t)n)); /* "/game" -> "/" */
    if (!folder.len) { /* the kernel gives an absolute path; anything else is not one to trust */
        errno = ENOENT;
        return NULL;
    }
    char *dir = st_str8_to_cstr(a, folder);
    if (!dir) errno = ENOMEM;
    return dir;
}
#elif defined(__APPLE__)
static OsFileKind os_kind_of_dirent(DIR *d, const struct dirent *e) {
    switch (e->d_type) {
    case DT_REG: return OS_FILE_REGULAR;
    case DT_DIR: return OS_FILE_DIRECTORY;
    case DT_LNK: return OS_FILE_LINK;
    case DT_UNKNOWN: break;
    default: return OS_FILE_OTHER;
    }
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) return OS_FILE_NONE;
    return os_kind_of(st.st_mode);
}

/* No getdents64 here: libc's opendir, whose DIR comes from the heap (os_file.h says so). */
bool st_os_list_dir(Arena *a, const char *path, OsDirList *out) {
    *out = (OsDirList){0};
    DIR *d = opendir(path);
    if (!d) return false;
    SCRATCH_SCOPE(tmp, a);
    ChunkList found;
    st_chunk_list_init(&found, tmp.arena, sizeof(OsDirEntry), 64);
    int err = 0;
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(d);
        if (!e) {
            err = errno;
            break;
        }
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        OsDirEntry *slot = st_chunk_list_push(&found);
        char *name = slot ? st_arena_strdup(a, e->d_name) : NULL;
        if (!name) {
            err = ENOMEM;
            break;
        }
        *slot = (OsDirEntry){.name = {name, strlen(name)}, .kind = os_kind_of_dirent(d, e)};
    }
    closedir(d);
    return os_list_done(a, &found, err, out);
}

/* _NSGetExecutablePath may name the program through a link: realpath resolves it, as
   /proc/self/exe does on Linux. */
const char *st_os_exe_dir(Arena *a) {
    char raw[PATH_MAX], buf[PATH_MAX];
    uint32_t size = sizeof raw;
    if (_NSGetExecutablePath(raw, &size) != 0) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    if (!realpath(raw, buf)) return NULL;
    Str8 folder = st_path_dir(st_str8_cstr(buf));
    char *dir = folder.len ? st_str8_to_cstr(a, folder) : NULL;
    if (!dir) errno = folder.len ? ENOMEM : ENOENT;
    return dir;
}
#else
bool st_os_list_dir(Arena *a, const char *path, OsDirList *out) {
    (void)a, (void)path;
    *out = (OsDirList){0};
    errno = ENOSYS;
    return false;
}

const char *st_os_exe_dir(Arena *a) {
    (void)a;
    errno = ENOSYS;
    return NULL;
}
#endif

bool st_os_real_path(const char *path, char *out, size_t cap) {
    /* With a buffer of its own, realpath takes nothing from the heap (NULL would). */
    char buf[PATH_MAX];
    if (!realpath(path, buf)) return false;
    size_t n = strlen(buf);
    if (n >= cap) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(out, buf, n + 1);
    return true;
}

static void os_kill_self(void) { raise(SIGKILL); }

bool st_os_args_utf8(Arena *a, int *argc, char ***argv) {
    (void)a, (void)argc, (void)argv; /* the bytes the shell gave: UTF-8 already, as paths are */
    return true;
}

bool st_os_attach_console(void) { return true; } /* stdout and stderr are the terminal's already */
#endif
