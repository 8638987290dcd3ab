/* os_file.h - the files and folders the game touches: every open, stat, mkdir, rename,
   unlink, directory listing and path lookup of engine/ and game/ goes through here (the
   one other open is os_memory.c's, of /proc/self/statm).

   This module sits ABOVE the arena (what it reads and lists lands in an arena you name);
   the memory the arena itself stands on is os_memory.h, below it. Nothing here allocates
   from the heap (but macOS's opendir, below): plain open/read/write/getdents64 or
   CreateFileW/ReadFile/FindFirstFileExW, buffers on the stack or in your arena.
   tools/check-layering.sh fails the build's tests when another file calls the OS directly.

   Whole files are read into an arena and written in one piece:

       Str8 text;
       Error err;
       if (!st_os_read_file(scratch, "levels/01.lvl", 1 << 20, &text, &err))
           st_error_report(&err);         // levels/01.lvl: error: cannot open: No such file or directory
       if (!st_os_write_file_atomic("save/progress", text.data, text.len, &err)) st_error_report(&err);

   What is at a path, and the tree around it (false: errno says why, as in POSIX):

       OsFileInfo fi = st_os_file_info("levels/01.lvl");   // kind, size, mtime_ns; like stat
       if (fi.kind == OS_FILE_NONE) ... strerror(fi.error) ...
       st_os_make_dirs("/home/me/.local/share/my-game");          // mkdir -p
       OsDirList l;
       if (st_os_list_dir(arena, "levels", &l))
           for (uint64_t i = 0; i < l.count; i++) ... l.entries[i].name ...
       const char *bin = st_os_exe_dir(arena);               // "/opt/game/bin": no trailing '/'

   Two halves behind this one header: POSIX (Linux, the web build, macOS) in os_file.c,
   Windows in os_file_win32.c. Paths are UTF-8 on every system (on Windows they go to the
   wide calls as UTF-16; invalid UTF-8 is EILSEQ, never another file), '/' separates
   folders everywhere (Windows takes '\\' too), and what this module gives back (the
   executable's folder, a real path, a user path) uses '/'. errno values carry the reasons
   on both (Windows errors are mapped: ENOENT, EACCES, EEXIST, ENOSPC...), so messages and
   ErrorCodes are the same. Where the contracts differ, the functions say so. */
#ifndef OS_FILE_H
#define OS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/error.h>
#include <strata/core/str8.h>

/* ---- Whole files ---------------------------------------------------------------------- */

/* Reads the whole regular file at `path` into `a`. True with *out holding the bytes,
   followed by a NUL that `len` does not count (so the text may go to C string functions
   when it holds no NUL of its own), and *err cleared. False with *out {NULL, 0}, the buffer,
   if one was pushed, left in `a` for the caller's scope to rewind, and *err (when not NULL)
   saying "path: error: <what>", its code what a caller branches on:
     ERROR_NOT_FOUND  nothing there (open: ENOENT, ENOTDIR)  "cannot open: No such file or directory"
     ERROR_REFUSED    open refused (EACCES, ELOOP, ...)      "cannot open: Permission denied"
     ERROR_NOT_FILE   a directory (err_no EISDIR), a device, FIFO or socket: refused before
                      it can block                          "not a regular file (a directory)"
     ERROR_TOO_BIG    more than max_bytes                    "file too large (1234 bytes)"
     ERROR_OUT_OF_MEMORY  `a` refused the buffer             "out of memory: arena 'x' full: ..."
     ERROR_IO         fstat or read failed                   "cannot read: Input/output error"
   err_no holds the errno. A file that shrinks while it is read gives what was there; one
   that grows gives its first fstat-size bytes. */
bool st_os_read_file(Arena *a, const char *path, uint64_t max_bytes, Str8 *out, Error *err);

/* write(2) until all n bytes are written, retrying on EINTR. False with errno set (EIO
   when the OS wrote nothing without saying why). */
bool st_os_write_all(int fd, const void *p, uint64_t n);

/* ---- Writing a file: the one writer ---------------------------------------------------

   Every file the program writes goes through st_os_write_file_atomic. Its contract, case by
   case (false means nothing at `path` changed, and err says "path: cannot write: why", with
   ERROR_REFUSED for a target it will not write, ERROR_NOT_FOUND for a missing folder,
   ERROR_IO and the errno for what the OS refused):

   - a regular file, or none yet: the bytes go to a temporary file created fresh (O_EXCL,
     O_NOFOLLOW) under a unique name beside the target (".<name>.<pid>-<n>.tmp"), which is
     fsynced, renamed over the target in one step, and the folder fsynced. A crash or a
     kill -9 at any point leaves the old bytes or the new ones at `path`, never a mix (at
     worst a stray temporary beside it). A failed write, fsync, close or rename (a full
     disk, a folder that vanished) removes the temporary and leaves the old file.
   - the replaced file keeps its permission bits and, where the OS allows, its owner and
     group; a new file gets 0666 less the umask.
   - a symbolic link: the file it points to is replaced, and the link stays a link; a link
     to nothing is refused.
   - a file the caller may not write (no write permission, a read-only file system) is
     refused, although the folder would allow the rename.
   - a file with more than one hard link is refused: a replacement would split it from its
     other names, which would keep the old bytes.
   - a FIFO or a character device (/dev/null, /dev/stdout, a terminal, a named pipe) is
     written in place, never replaced: the open waits for a pipe's reader, which then reads
     as the bytes go. A block device, a socket and a directory are refused.
   - a folder on the way that does not exist, or is not a folder, is refused with the
     reason. Nothing here creates folders (st_os_make_dirs does).

   The names and the reasons are the ones a person needs: "levels/a.lvl: cannot write: it
   is read-only (mode 0444)". st_os_write_check answers "would a write succeed?" with the same
   rules before a long run, writing nothing.

   On Windows: the temporary is created with CREATE_NEW, written, FlushFileBuffers'd, and put
   in place with ReplaceFileW over an existing file (which keeps its attributes and security)
   or MoveFileExW(MOVEFILE_WRITE_THROUGH) for a new one; there is no folder to sync. A file
   with the read-only attribute is refused ("it is read-only (the read-only attribute)"), as
   are a directory and a file with more than one hard link. Special files (NUL, CON) and
   symbolic links are not told apart: the target is replaced as a file. */
bool st_os_write_file_atomic(const char *path, const void *p, uint64_t n, Error *err);

/* True when st_os_write_file_atomic(path) would get past its checks: the target is one it
   writes (above), the folder it goes to exists and may be written (for a temporary and a
   rename), or the special file may be opened for writing. False with the same message as
   the write would give. Writes nothing, creates nothing, never blocks. */
bool st_os_write_check(const char *path, Error *err);

/* The writer's steps, for tests that fail or kill a write at one of them. */
typedef enum OsWriteStep {
    OS_WRITE_STEP_CREATE, /* the temporary file (or the special file's open) */
    OS_WRITE_STEP_WRITE,  /* the bytes */
    OS_WRITE_STEP_SYNC,   /* fsync of the temporary */
    OS_WRITE_STEP_CLOSE,
    OS_WRITE_STEP_RENAME,   /* the temporary over the target */
    OS_WRITE_STEP_SYNC_DIR, /* fsync of the folder: the new file is in place already */
    OS_WRITE_STEPS,
} OsWriteStep;
/* Test hooks: the next write fails at `step` as if the OS had said `error` (an errno; 0
   cancels), or the process kills itself with SIGKILL (on Windows TerminateProcess, exit
   code 137) just before `step` (OS_WRITE_STEPS cancels). One write only: the one after it runs normally. */
void st_os_debug_write_fail(OsWriteStep step, int error);
void st_os_debug_write_kill(OsWriteStep step);

/* ---- What is at a path ---------------------------------------------------------------- */

typedef enum OsFileKind {
    OS_FILE_NONE, /* nothing the OS would show: `error` says why (ENOENT, EACCES, ...) */
    OS_FILE_REGULAR,
    OS_FILE_DIRECTORY,
    OS_FILE_LINK,  /* a symbolic link, only from st_os_link_info and st_os_list_dir */
    OS_FILE_OTHER, /* a device, FIFO or socket */
} OsFileKind;

typedef struct OsFileInfo {
    OsFileKind kind;
    int error;        /* errno when kind is OS_FILE_NONE, else 0 */
    uint64_t size;    /* bytes */
    int64_t mtime_ns; /* last modification, nanoseconds since 1970: poll it to see a change */
} OsFileInfo;

OsFileInfo st_os_file_info(const char *path); /* follows symbolic links, like stat */
OsFileInfo st_os_link_info(const char *path); /* a link is OS_FILE_LINK, like lstat */

/* What a poll remembers of a file to see it change (the level watch, the asset watch): what
   is at the path, and a regular file's modification time and size (0 for anything else). */
typedef struct OsFileStamp {
    OsFileKind kind;
    int64_t mtime_ns;
    uint64_t size;
} OsFileStamp;
/* Looks at `path` again and makes *s what is there now; true when a regular file is there
   and it was not at the last look, or its time or size differs. A file gone, or turned into
   something else, is never a change by itself (there is nothing to load): s->kind says so.
   A zero stamp is "nothing there yet", so the first look at a file is a change. */
bool st_os_file_changed(const char *path, OsFileStamp *s);

/* ---- Changing the tree ---------------------------------------------------------------- */

/* mkdir -p: creates `dir` (mode 0755 before the umask) and every missing folder above it
   (on Windows '/' and '\\' both separate, and "C:/" is a drive's root, made by nobody).
   True when it is a folder at the end, already there or made; false with errno set
   (ENOTDIR when something on the way is a file). */
bool st_os_make_dirs(const char *dir);
/* rename(2), MoveFileExW(MOVEFILE_REPLACE_EXISTING) on Windows: replaces `to` when it
   exists; both in one file system. False with errno. */
bool st_os_rename(const char *from, const char *to);
/* Removes a file (not a folder). False with errno. */
bool st_os_remove(const char *path);

/* ---- Folders and paths ---------------------------------------------------------------- */

typedef struct OsDirEntry {
    Str8 name;       /* NUL-terminated in the arena; "." and ".." are left out */
    OsFileKind kind; /* of the entry itself: a link is OS_FILE_LINK */
} OsDirEntry;

typedef struct OsDirList {
    OsDirEntry *entries; /* in the order the file system gives: sort them if order matters */
    uint64_t count;
} OsDirList;

/* Lists the folder `path` into `a` (names and the array; the work buffers are on the stack
   and in a scratch arena, so glibc's opendir, which takes its DIR from the heap, is not
   used). False with errno set, *out then {NULL, 0} and the names pushed so far left in `a`
   for the caller's scope to rewind: ENOMEM when `a` is full (the arena reported why). On
   Windows it is FindFirstFileExW (nothing from the heap either); on macOS, which has no
   getdents64, libc's opendir/readdir, whose DIR comes from the heap (once per listing). */
bool st_os_list_dir(Arena *a, const char *path, OsDirList *out);

/* The folder of the running executable, from /proc/self/exe (so symbolic links on the way
   are resolved; macOS: _NSGetExecutablePath and realpath; Windows: GetModuleFileNameW,
   given back with '/': "C:/Games/strata"), in `a`, with no trailing '/' ("/" for the root,
   "C:/" for a drive's). NULL with errno set. */
const char *st_os_exe_dir(Arena *a);

/* Where a program keeps its files for this user, the folders SDL_GetPrefPath gives too:
   - Linux and the rest: "<$XDG_DATA_HOME, when absolute, else ~/.local/share>/<app>/<file>"
     (OS_USER_DATA), or the same under $XDG_CONFIG_HOME and ~/.config (OS_USER_CONFIG);
   - Windows: "%APPDATA%/<app>/<file>" for both ("C:/Users/me/AppData/Roaming/my-game/save",
     from the wide environment, in UTF-8, with '/');
   - macOS: "~/Library/Application Support/<app>/<file>" for both.
   False when there is no home (no APPDATA) or it does not fit in cap. */
typedef enum OsUserDir { OS_USER_DATA, OS_USER_CONFIG } OsUserDir;
bool st_os_user_path(char *out, size_t cap, OsUserDir dir, const char *app, const char *file);

/* realpath(3) into the caller's buffer: the absolute path of `path` with ".", ".." and
   symbolic links resolved; it must exist. On Windows GetFinalPathNameByHandleW, with '/'
   and no "\\?\" ("C:/Games/x.lvl"). False with errno set (ENAMETOOLONG when cap is too
   small). */
bool st_os_real_path(const char *path, char *out, size_t cap);

/* The command line in UTF-8. On Windows main's argv is in the ANSI code page, which has no
   'é' to give ("levels/é x.lvl" arrives broken): this rebuilds *argc and *argv from the
   UTF-16 command line (GetCommandLineW, CommandLineToArgvW), the strings and the array in
   `a`, argv[argc] NULL; an argv that is not the C library's own (one a caller built) is
   left as it is. Elsewhere argv is left as it is (UTF-8 already). Call it first in
   main; false with errno set (ENOMEM: `a` is full), argv then untouched.

       int main(int argc, char **argv) {
           Arena *perm = st_arena_create(...);
           if (!st_os_args_utf8(perm, &argc, &argv)) return 1;
           ... */
bool st_os_args_utf8(Arena *a, int *argc, char ***argv);

/* Windows: a window program (linked with no console of its own, as a shipped game.exe is)
   that was started from a console (cmd, PowerShell) writes its reports there: stdout and
   stderr reopened on that console, each unless it already goes somewhere (a file, a pipe).
   False when there is no console to attach to. Elsewhere nothing to do: true. */
bool st_os_attach_console(void);

#endif
