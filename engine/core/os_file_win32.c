/* os_file_win32.c - the Windows half of os_file.h, on the wide (UTF-16) calls: CreateFileW,
   ReplaceFileW, MoveFileExW, FindFirstFileExW, GetFinalPathNameByHandleW. os_file.c
   includes it in place of its POSIX half (it is not built on its own), after the parts
   both share. Paths are UTF-8 at the API and UTF-16 on the stack here; invalid UTF-8 is
   EILSEQ, never a file of another name. Paths given back use '/', which Windows takes as
   well as '\', so that the engine's joins and st_path_dir work on them. */
#if defined(_WIN32) && defined(OS_PATH_CAP)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <io.h>
#include <shellapi.h>  /* CommandLineToArgvW */
#undef ERROR_NOT_FOUND /* winerror.h's: ours is ErrorCode's (core/error.h) */

/* The last Windows error as the errno POSIX would have given, so the messages and the
   codes are the same on both (ERROR_NOT_FOUND for "No such file or directory"). */
static int os_errno_of(DWORD e) {
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME: return ENOENT;
    case ERROR_DIRECTORY: return ENOTDIR;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT: return EACCES;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return EEXIST;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_INVALID_NAME:
    case ERROR_INVALID_PARAMETER:
    case ERROR_BAD_PATHNAME: return EINVAL;
    case ERROR_FILENAME_EXCED_RANGE:
    case ERROR_BUFFER_OVERFLOW:
    case ERROR_INSUFFICIENT_BUFFER: return ENAMETOOLONG;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_DIR_NOT_EMPTY: return ENOTEMPTY;
    case ERROR_NOT_SAME_DEVICE: return EXDEV;
    case ERROR_TOO_MANY_OPEN_FILES: return EMFILE;
    case ERROR_NO_UNICODE_TRANSLATION: return EILSEQ;
    default: return EIO;
    }
}

/* Sets errno from GetLastError; false, for the callers' returns. */
static bool os_fail_last(void) {
    errno = os_errno_of(GetLastError());
    return false;
}

/* UTF-8 to UTF-16 in the caller's buffer, '/' turned to '\' (the "\\?\" forms and a few
   calls take only the latter). False with errno EILSEQ for bytes that are not UTF-8,
   ENAMETOOLONG when it does not fit, ENOENT for an empty path (as POSIX open gives). */
static bool os_wide(const char *path, wchar_t *out, int cap) {
    if (!path[0]) {
        errno = ENOENT;
        return false;
    }
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, out, cap);
    if (n <= 0) return os_fail_last();
    for (wchar_t *c = out; *c; c++)
        if (*c == L'/') *c = L'\\';
    return true;
}

/* UTF-16 to UTF-8, '\' turned to '/'. False with errno ENAMETOOLONG when it does not fit. */
static bool os_narrow(const wchar_t *w, char *out, int cap) {
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, out, cap, NULL, NULL);
    if (n <= 0) return os_fail_last();
    for (char *c = out; *c; c++)
        if (*c == '\\') *c = '/';
    return true;
}

#define OS_WPATH_CAP OS_PATH_CAP

/* 100 ns since 1601 to ns since 1970. */
static int64_t os_ns_of(FILETIME ft) {
    int64_t t = (int64_t)(((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime);
    return (t - INT64_C(116444736000000000)) * 100;
}

static OsFileKind os_kind_of_attrs(DWORD attrs, bool links) {
    if (links && (attrs & FILE_ATTRIBUTE_REPARSE_POINT)) return OS_FILE_LINK;
    return attrs & FILE_ATTRIBUTE_DIRECTORY ? OS_FILE_DIRECTORY : OS_FILE_REGULAR;
}

/* ---- Whole files ---------------------------------------------------------------------- */

/* The open file's kind, size and time, as fstat gives them. */
static bool os_handle_info(HANDLE h, OsFileInfo *fi) {
    BY_HANDLE_FILE_INFORMATION bh;
    DWORD type = GetFileType(h);
    if (type != FILE_TYPE_DISK) {
        *fi = (OsFileInfo){.kind = OS_FILE_OTHER};
        return type != FILE_TYPE_UNKNOWN || GetLastError() == NO_ERROR || os_fail_last();
    }
    if (!GetFileInformationByHandle(h, &bh)) return os_fail_last();
    *fi = (OsFileInfo){.kind = os_kind_of_attrs(bh.dwFileAttributes, false),
                       .size = ((uint64_t)bh.nFileSizeHigh << 32) | bh.nFileSizeLow,
                       .mtime_ns = os_ns_of(bh.ftLastWriteTime)};
    return true;
}

/* The file at `w` opened to be looked at (a folder too), following links. */
static HANDLE os_open_to_look(const wchar_t *w, DWORD access) {
    return CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                       FILE_FLAG_BACKUP_SEMANTICS, NULL);
}

static bool os_read_handle(HANDLE h, char *buf, uint64_t size, uint64_t *got) {
    *got = 0;
    while (*got < size) {
        uint64_t left = size - *got;
        DWORD n = 0;
        if (!ReadFile(h, buf + *got, left < (1u << 30) ? (DWORD)left : 1u << 30, &n, NULL)) return os_fail_last();
        if (n == 0) break; /* the file shrank under us, keep what there is */
        *got += n;
    }
    return true;
}

bool st_os_read_file(Arena *a, const char *path, uint64_t max_bytes, Str8 *out, Error *err) {
    *out = (Str8){0};
    wchar_t w[OS_WPATH_CAP];
    if (!os_wide(path, w, OS_WPATH_CAP)) return os_read_cannot_open(err, path, errno);
    HANDLE h = os_open_to_look(w, GENERIC_READ);
    if (h == INVALID_HANDLE_VALUE) return os_read_cannot_open(err, path, os_errno_of(GetLastError()));
    OsFileInfo fi;
    bool ok = os_handle_info(h, &fi);
    if (!ok) os_read_fail(err, ERROR_IO, errno, path, "cannot examine: %s", strerror(errno));
    else if (fi.kind == OS_FILE_DIRECTORY)
        ok = os_read_fail(err, ERROR_NOT_FILE, EISDIR, path, "not a regular file (a directory)");
    else if (fi.kind != OS_FILE_REGULAR)
        ok = os_read_fail(err, ERROR_NOT_FILE, 0, path, "not a regular file (a device, FIFO or socket)");
    else if (fi.size > max_bytes)
        ok = os_read_fail(err, ERROR_TOO_BIG, EFBIG, path, "file too large (%llu bytes)", (unsigned long long)fi.size);
    char *buf = ok ? st_arena_push_raw(a, fi.size + 1, 16) : NULL;
    if (ok && !buf) {
        os_read_fail(err, ERROR_OUT_OF_MEMORY, ENOMEM, path, "out of memory: ");
        ok = st_arena_error(err);
    }
    uint64_t got = 0;
    if (ok && !os_read_handle(h, buf, fi.size, &got))
        ok = os_read_fail(err, ERROR_IO, errno, path, "cannot read: %s", strerror(errno));
    CloseHandle(h);
    if (!ok) return false;
    buf[got] = 0;
    *out = (Str8){buf, got};
    st_error_clear(err);
    return true;
}

bool st_os_write_all(int fd, const void *p, uint64_t n) {
    const char *c = p;
    while (n) {
        int w = _write(fd, c, n < (1u << 30) ? (unsigned)n : 1u << 30);
        if (w < 0 && errno == EINTR) continue;
        if (w == 0) errno = EIO;
        if (w <= 0) return false;
        c += w;
        n -= (uint64_t)w;
    }
    return true;
}

/* ---- The writer ---------------------------------------------------------------------- */

static void os_kill_self(void) { TerminateProcess(GetCurrentProcess(), 137); }

/* Where a write goes: `path` with '/' for its folders, in UTF-8 and in UTF-16. */
typedef struct OsWriteTarget {
    char path[OS_PATH_CAP];
    wchar_t wide[OS_WPATH_CAP];
    bool exists;
    DWORD attrs; /* the old file's, kept by the new one */
} OsWriteTarget;

/* A missing folder, or a file where one should be, said in its own words. */
static bool os_folder_refuse(Error *err, const char *path, const char *target, int e) {
    char folder[OS_PATH_CAP], why[OS_PATH_CAP + 64];
    wchar_t w[OS_WPATH_CAP];
    os_folder_of(target, folder, sizeof folder);
    DWORD attrs = os_wide(folder, w, OS_WPATH_CAP) ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
    ErrorCode code = ERROR_IO;
    if (attrs == INVALID_FILE_ATTRIBUTES && os_errno_of(GetLastError()) == ENOENT)
        snprintf(why, sizeof why, "the folder %s does not exist", folder), code = ERROR_NOT_FOUND;
    else if (e == ENOTDIR || (attrs != INVALID_FILE_ATTRIBUTES && !(attrs & FILE_ATTRIBUTE_DIRECTORY)))
        snprintf(why, sizeof why, "%s is not a folder", folder);
    else if (e == EACCES) snprintf(why, sizeof why, "the folder %s may not be written (%s)", folder, strerror(e));
    else snprintf(why, sizeof why, "%s", strerror(e));
    return os_write_say(err, code, e, path, why);
}

/* More than one name for the file: a replacement would leave the others the old bytes. */
static DWORD os_link_count(const wchar_t *w) {
    HANDLE h = os_open_to_look(w, FILE_READ_ATTRIBUTES);
    BY_HANDLE_FILE_INFORMATION bh;
    DWORD links = h != INVALID_HANDLE_VALUE && GetFileInformationByHandle(h, &bh) ? bh.nNumberOfLinks : 1;
    if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    return links;
}

/* Applies the contract's checks to `path`; fills *t with where the bytes go. */
static bool os_write_target(const char *path, OsWriteTarget *t, Error *err) {
    memset(t, 0, sizeof *t);
    if (!path[0]) return os_write_refuse(err, "(empty path)", "no file named");
    size_t len = strlen(path);
    if (len >= sizeof t->path) return os_write_fail(err, path, ENAMETOOLONG);
    if (!os_wide(path, t->wide, OS_WPATH_CAP)) return os_write_fail(err, path, errno);
    memcpy(t->path, path, len + 1);
    for (char *c = t->path; *c; c++)
        if (*c == '\\') *c = '/'; /* for os_folder_of */
    WIN32_FILE_ATTRIBUTE_DATA ad;
    if (!GetFileAttributesExW(t->wide, GetFileExInfoStandard, &ad)) {
        int e = os_errno_of(GetLastError());
        /* A new file; its folder is checked when the temporary is made. */
        return e == ENOENT ? true : os_folder_refuse(err, path, t->path, e);
    }
    t->exists = true;
    t->attrs = ad.dwFileAttributes;
    if (ad.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return os_write_refuse(err, path, "it is a directory");
    if (ad.dwFileAttributes & FILE_ATTRIBUTE_READONLY)
        return os_write_refuse(err, path, "it is read-only (the read-only attribute)");
    DWORD links = os_link_count(t->wide);
    if (links > 1) {
        char why[160];
        snprintf(why, sizeof why,
                 "it has %lu hard links, and a replacement would leave the other names with the old "
                 "bytes (remove them, or write a copy)",
                 (unsigned long)links);
        return os_write_refuse(err, path, why);
    }
    return true;
}

/* Creates the temporary beside the target, fresh (CREATE_NEW: nothing of anyone's is in
   the way), under a name new for every write. */
static HANDLE os_make_temp(const OsWriteTarget *t, wchar_t *wtmp, int cap) {
    static _Atomic unsigned serial;
    char folder[OS_PATH_CAP], tmp[OS_PATH_CAP + 64];
    os_folder_of(t->path, folder, sizeof folder);
    Str8 base = st_path_base_name(st_str8_cstr(t->path));
    for (int tries = 0; tries < 64; tries++) {
        int n = snprintf(tmp, sizeof tmp, "%s/.%.*s.%lu-%u.tmp", folder, STR8_FMT(base),
                         (unsigned long)GetCurrentProcessId(), atomic_fetch_add(&serial, 1));
        if (n < 0 || (size_t)n >= sizeof tmp) {
            errno = ENAMETOOLONG;
            return INVALID_HANDLE_VALUE;
        }
        if (!os_wide(tmp, wtmp, cap) || os_step_fails(OS_WRITE_STEP_CREATE)) return INVALID_HANDLE_VALUE;
        HANDLE h = CreateFileW(wtmp, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        if (h != INVALID_HANDLE_VALUE) return h;
        errno = os_errno_of(GetLastError());
        if (errno != EEXIST) return INVALID_HANDLE_VALUE;
    }
    errno = EEXIST;
    return INVALID_HANDLE_VALUE;
}

static bool os_write_handle(HANDLE h, const void *p, uint64_t n) {
    const char *c = p;
    while (n) {
        DWORD w = 0;
        if (!WriteFile(h, c, n < (1u << 30) ? (DWORD)n : 1u << 30, &w, NULL)) return os_fail_last();
        if (w == 0) {
            errno = EIO;
            return false;
        }
        c += w;
        n -= w;
    }
    return true;
}

/* The temporary over the target: ReplaceFileW keeps an old file's attributes and security;
   a new one is moved in place, written through. */
static bool os_put_in_place(const OsWriteTarget *t, const wchar_t *wtmp) {
    if (os_step_fails(OS_WRITE_STEP_RENAME)) return false;
    /* ReplaceFileW keeps them on Windows, not under wine: the temporary takes them first
       (best effort, as a copy's). */
    const DWORD kept =
        FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_NOT_CONTENT_INDEXED;
    if (t->exists && (t->attrs & kept)) SetFileAttributesW(wtmp, t->attrs & kept);
    bool ok = t->exists ? ReplaceFileW(t->wide, wtmp, NULL, REPLACEFILE_IGNORE_MERGE_ERRORS, NULL, NULL)
                        : MoveFileExW(wtmp, t->wide, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
    return ok || os_fail_last();
}

bool st_os_write_file_atomic(const char *path, const void *p, uint64_t n, Error *err) {
    OsWriteTarget t;
    if (!os_write_target(path, &t, err)) return false;
    wchar_t wtmp[OS_WPATH_CAP];
    HANDLE h = os_make_temp(&t, wtmp, OS_WPATH_CAP);
    if (h == INVALID_HANDLE_VALUE) {
        int e = errno;
        return e == ENOENT || e == ENOTDIR || e == EACCES ? os_folder_refuse(err, path, t.path, e)
                                                          : os_write_fail(err, path, e);
    }
    bool ok = !os_step_fails(OS_WRITE_STEP_WRITE) && os_write_handle(h, p, n);
    ok = ok && !os_step_fails(OS_WRITE_STEP_SYNC) && (FlushFileBuffers(h) || os_fail_last());
    int e = errno;
    bool closed = CloseHandle(h) || os_fail_last(); /* always: the handle goes whatever the hook says */
    if ((os_step_fails(OS_WRITE_STEP_CLOSE) || !closed) && ok) ok = false, e = errno;
    if (ok && !os_put_in_place(&t, wtmp)) ok = false, e = errno;
    if (!ok) {
        DeleteFileW(wtmp);
        return os_write_fail(err, path, e);
    }
    /* No folder to sync: the rename is in NTFS's journal. The step stays, for the hooks. */
    (void)os_step_fails(OS_WRITE_STEP_SYNC_DIR);
    return true;
}

bool st_os_write_check(const char *path, Error *err) {
    OsWriteTarget t;
    if (!os_write_target(path, &t, err)) return false;
    char folder[OS_PATH_CAP];
    wchar_t w[OS_WPATH_CAP];
    os_folder_of(t.path, folder, sizeof folder);
    if (!os_wide(folder, w, OS_WPATH_CAP)) return os_folder_refuse(err, path, t.path, errno);
    DWORD attrs = GetFileAttributesW(w);
    if (attrs == INVALID_FILE_ATTRIBUTES) return os_folder_refuse(err, path, t.path, os_errno_of(GetLastError()));
    if (!(attrs & FILE_ATTRIBUTE_DIRECTORY)) return os_folder_refuse(err, path, t.path, ENOTDIR);
    return true; /* a folder's ACL is not read here: the write itself says EACCES */
}

/* ---- What is at a path ---------------------------------------------------------------- */

static OsFileInfo os_info_fail(void) {
    return (OsFileInfo){.kind = OS_FILE_NONE, .error = os_errno_of(GetLastError())};
}

OsFileInfo st_os_link_info(const char *path) {
    wchar_t w[OS_WPATH_CAP];
    if (!os_wide(path, w, OS_WPATH_CAP)) return (OsFileInfo){.kind = OS_FILE_NONE, .error = errno};
    WIN32_FILE_ATTRIBUTE_DATA ad;
    if (!GetFileAttributesExW(w, GetFileExInfoStandard, &ad)) return os_info_fail();
    return (OsFileInfo){.kind = os_kind_of_attrs(ad.dwFileAttributes, true),
                        .size = ((uint64_t)ad.nFileSizeHigh << 32) | ad.nFileSizeLow,
                        .mtime_ns = os_ns_of(ad.ftLastWriteTime)};
}

OsFileInfo st_os_file_info(const char *path) {
    OsFileInfo fi = st_os_link_info(path);
    if (fi.kind != OS_FILE_LINK) return fi;
    /* A link: what it points to, through a handle (which follows it). */
    wchar_t w[OS_WPATH_CAP];
    os_wide(path, w, OS_WPATH_CAP);
    HANDLE h = os_open_to_look(w, FILE_READ_ATTRIBUTES);
    if (h == INVALID_HANDLE_VALUE) return os_info_fail();
    if (!os_handle_info(h, &fi)) fi = (OsFileInfo){.kind = OS_FILE_NONE, .error = errno};
    CloseHandle(h);
    return fi;
}

/* ---- Changing the tree ---------------------------------------------------------------- */

static bool os_make_dir(const char *dir) {
    wchar_t w[OS_WPATH_CAP];
    if (!os_wide(dir, w, OS_WPATH_CAP)) return false;
    if (CreateDirectoryW(w, NULL)) return true;
    DWORD e = GetLastError();
    /* EEXIST says a name is taken, not that a folder took it. A drive's root answers
       ACCESS_DENIED under some systems: it is there all the same. */
    if (e != ERROR_ALREADY_EXISTS && e != ERROR_ACCESS_DENIED) return os_fail_last();
    DWORD attrs = GetFileAttributesW(w);
    if (attrs == INVALID_FILE_ATTRIBUTES) {
        errno = os_errno_of(e);
        return false;
    }
    if (attrs & FILE_ATTRIBUTE_DIRECTORY) return true;
    errno = ENOTDIR;
    return false;
}

bool st_os_rename(const char *from, const char *to) {
    wchar_t wf[OS_WPATH_CAP], wt[OS_WPATH_CAP];
    if (!os_wide(from, wf, OS_WPATH_CAP) || !os_wide(to, wt, OS_WPATH_CAP)) return false;
    return MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING) || os_fail_last();
}

bool st_os_remove(const char *path) {
    wchar_t w[OS_WPATH_CAP];
    if (!os_wide(path, w, OS_WPATH_CAP)) return false;
    return DeleteFileW(w) || os_fail_last();
}

/* ---- Folders and paths ---------------------------------------------------------------- */

/* FindFirstFileExW of "<path>\*" failed: ENOTDIR when a file is at `path` (Windows says
   "path not found"), ENOENT for nothing there. */
static bool os_list_fail(const wchar_t *w) {
    int e = os_errno_of(GetLastError());
    DWORD attrs = GetFileAttributesW(w);
    if (attrs != INVALID_FILE_ATTRIBUTES && !(attrs & FILE_ATTRIBUTE_DIRECTORY)) e = ENOTDIR;
    errno = e;
    return false;
}

bool st_os_list_dir(Arena *a, const char *path, OsDirList *out) {
    *out = (OsDirList){0};
    wchar_t w[OS_WPATH_CAP];
    if (!os_wide(path, w, OS_WPATH_CAP - 2)) return false;
    size_t n = wcslen(w);
    wchar_t *end = w + n;
    if (n && end[-1] != L'\\') *end++ = L'\\';
    end[0] = L'*', end[1] = 0;
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileExW(w, FindExInfoBasic, &fd, FindExSearchNameMatch, NULL, 0);
    w[n] = 0;
    if (h == INVALID_HANDLE_VALUE) return GetLastError() == ERROR_FILE_NOT_FOUND || os_list_fail(w);
    SCRATCH_SCOPE(tmp, a);
    ChunkList found;
    st_chunk_list_init(&found, tmp.arena, sizeof(OsDirEntry), 64);
    int err = 0;
    do {
        if (!wcscmp(fd.cFileName, L".") || !wcscmp(fd.cFileName, L"..")) continue;
        char name[MAX_PATH * 3 + 1];
        if (!os_narrow(fd.cFileName, name, sizeof name)) {
            err = errno;
            break;
        }
        OsDirEntry *e = st_chunk_list_push(&found);
        char *copy = e ? st_arena_strdup(a, name) : NULL;
        if (!copy) {
            err = ENOMEM;
            break;
        }
        *e = (OsDirEntry){.name = {copy, strlen(copy)}, .kind = os_kind_of_attrs(fd.dwFileAttributes, true)};
    } while (FindNextFileW(h, &fd));
    if (!err && GetLastError() != ERROR_NO_MORE_FILES) err = os_errno_of(GetLastError());
    FindClose(h);
    return os_list_done(a, &found, err, out);
}

/* A folder as a string in `a`: "C:" is the drive's current folder, so a root is "C:/". */
static const char *os_dir_copy(Arena *a, Str8 folder) {
    bool drive = folder.len == 2 && folder.data[1] == ':';
    char *dir = st_arena_push_raw(a, folder.len + 2, 1);
    if (!dir) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(dir, folder.data, folder.len);
    if (drive) dir[folder.len++] = '/';
    dir[folder.len] = 0;
    return dir;
}

const char *st_os_exe_dir(Arena *a) {
    wchar_t w[OS_WPATH_CAP];
    char buf[OS_PATH_CAP];
    DWORD n = GetModuleFileNameW(NULL, w, OS_WPATH_CAP);
    if (n == 0) return os_fail_last(), NULL;
    if (n >= OS_WPATH_CAP) { /* cut to fit: not a path to trust */
        errno = ENAMETOOLONG;
        return NULL;
    }
    if (!os_narrow(w, buf, sizeof buf)) return NULL;
    Str8 folder = st_path_dir(st_str8_cstr(buf));
    if (!folder.len) {
        errno = ENOENT;
        return NULL;
    }
    return os_dir_copy(a, folder);
}

/* The final path of what is at `path` (links resolved, it must exist, as realpath), without
   the "\\?\" GetFinalPathNameByHandleW puts in front. */
bool st_os_real_path(const char *path, char *out, size_t cap) {
    wchar_t w[OS_WPATH_CAP], full[OS_WPATH_CAP];
    if (!os_wide(path, w, OS_WPATH_CAP)) return false;
    HANDLE h = os_open_to_look(w, FILE_READ_ATTRIBUTES);
    if (h == INVALID_HANDLE_VALUE) return os_fail_last();
    DWORD n = GetFinalPathNameByHandleW(h, full, OS_WPATH_CAP, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    DWORD e = GetLastError();
    CloseHandle(h);
    if (n == 0 || n >= OS_WPATH_CAP) {
        errno = n ? ENAMETOOLONG : os_errno_of(e);
        return false;
    }
    const wchar_t *s = full;
    if (!wcsncmp(s, L"\\\\?\\UNC\\", 8)) s += 6, full[6] = L'\\'; /* "\\server\share" */
    else if (!wcsncmp(s, L"\\\\?\\", 4)) s += 4;
    char buf[OS_PATH_CAP];
    if (!os_narrow(s, buf, sizeof buf)) return false;
    size_t len = strlen(buf);
    if (len >= cap) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(out, buf, len + 1);
    return true;
}

/* %APPDATA%/<app>/<file>, data and settings alike (where SDL_GetPrefPath puts them). */
bool st_os_user_path(char *out, size_t cap, OsUserDir dir, const char *app, const char *file) {
    (void)dir;
    char root[OS_PATH_CAP];
    const wchar_t *appdata = _wgetenv(L"APPDATA");
    if (!appdata || !appdata[0] || !os_narrow(appdata, root, sizeof root)) return false;
    int n = snprintf(out, cap, "%s/%s/%s", root, app, file);
    return n > 0 && (size_t)n < cap;
}

/* The command line again, from its UTF-16 form, into `a`: argv[0..argc-1] and a NULL. */
/* A standard handle that leads nowhere: a window program's, started by a double click. */
static bool os_handle_unset(DWORD which) {
    HANDLE h = GetStdHandle(which);
    return !h || h == INVALID_HANDLE_VALUE || GetFileType(h) == FILE_TYPE_UNKNOWN;
}

bool st_os_attach_console(void) {
    bool out = os_handle_unset(STD_OUTPUT_HANDLE), err = os_handle_unset(STD_ERROR_HANDLE);
    if (!out && !err) return true;
    if (!AttachConsole(ATTACH_PARENT_PROCESS)) return false;
    bool ok = true;
    if (out) ok = freopen("CONOUT$", "w", stdout) != NULL;
    if (err) ok = freopen("CONOUT$", "w", stderr) != NULL && ok;
    return ok;
}

bool st_os_args_utf8(Arena *a, int *argc, char ***argv) {
    /* Only the C library's own line (mingw hands main a copy of __argv) is the ANSI one: a
       line a caller built (a test, a launcher, SDL_main's, UTF-8 already) is taken as given. */
    char **crt_argv = *__p___argv(); /* the accessor, not the variable: no data imported */
    int crt_argc = 0;
    while (crt_argv && crt_argv[crt_argc]) crt_argc++;
    if (*argc != crt_argc || !crt_argv) return true;
    for (int i = 0; i < *argc; i++)
        if (!(*argv)[i] || !crt_argv[i] || strcmp((*argv)[i], crt_argv[i]) != 0) return true;
    int n = 0;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!w) return os_fail_last();
    char **v = st_arena_push_array(a, char *, (uint64_t)n + 1);
    bool ok = v != NULL;
    for (int i = 0; ok && i < n; i++) {
        int len = WideCharToMultiByte(CP_UTF8, 0, w[i], -1, NULL, 0, NULL, NULL);
        v[i] = len > 0 ? st_arena_push_raw(a, (uint64_t)len, 1) : NULL;
        ok = v[i] && WideCharToMultiByte(CP_UTF8, 0, w[i], -1, v[i], len, NULL, NULL) == len;
    }
    LocalFree(w); /* CommandLineToArgvW's, once at start-up */
    if (!ok) {
        errno = ENOMEM;
        return false;
    }
    v[n] = NULL;
    *argc = n;
    *argv = v;
    return true;
}
#endif
