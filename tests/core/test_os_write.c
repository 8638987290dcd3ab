/* The one writer, st_os_write_file_atomic, case by case as its header promises: a regular
   file (bytes, mode, owner kept, a new inode), a missing one, a symbolic link at the target
   (the file behind it replaced, the link kept), a dangling link, a link or a file at the old
   temporary name "<path>.tmp" (neither touched), a read-only file, hard links, a FIFO read
   live and a character device written in place, /dev/full, a directory, a missing folder, a
   file where a folder should be, a folder that vanishes after the check; a failure injected
   at every step (the old bytes stay, no temporary is left); a real size limit
   (RLIMIT_FSIZE) hit mid-write; and kill -9 at every step, in a child, leaving the old bytes
   or the new ones and nothing else. st_os_write_check answers as the write would, writing
   nothing and never blocking. Outside ASan every write is counted for heap calls: none.
   On Windows (under wine) what POSIX alone has (modes, owners, inodes, symbolic links,
   FIFOs, devices, RLIMIT_FSIZE) is left out, and Windows' own cases come in: the read-only
   attribute, attributes kept by the replace, a replace that fails because the target is
   held open (the old bytes stay), and the kill run in a child process. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(_WIN32)
#include <io.h>
#include <windows.h>
#undef ERROR_NOT_FOUND /* winerror.h's: core/error.h's is meant */
#else
#include <signal.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#endif

#include "check.h"
#include <strata/core/os_file.h>
#include "heap_count.h"

static char root[64];
static Error msg;

static const char *at(const char *name) {
    static char buf[8][PATH_MAX];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, PATH_MAX, "%s/%s", root, name);
    return p;
}

static void put(const char *path, const char *text, mode_t mode) {
    unlink(path);
#if defined(_WIN32)
    chmod(path, 0600); /* a read-only file is not removed */
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_BINARY, 0600);
#else
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
#endif
    if (fd < 0) return;
    if (write(fd, text, strlen(text)) < 0) perror(path);
    close(fd);
    chmod(path, mode);
}

/* The file's bytes, or "(none)". */
static const char *text_of(const char *path) {
    static char buf[4][256];
    static int next;
    char *b = buf[next++ % 4];
#if defined(_WIN32)
    int fd = open(path, O_RDONLY | O_BINARY);
#else
    int fd = open(path, O_RDONLY);
#endif
    if (fd < 0) return "(none)";
    ssize_t n = read(fd, b, 255);
    close(fd);
    b[n < 0 ? 0 : n] = 0;
    return b;
}

static bool said(const char *want) {
    if (strstr(msg.message, want)) return true;
    fprintf(stderr, "expected \"%s\" in the message, found \"%s\"\n", want, msg.message);
    return false;
}

/* Entries of root, other than the test's own: no temporary may be left behind. */
static int strays(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "list"});
    OsDirList l;
    int n = 0;
    if (a && st_os_list_dir(a, root, &l))
        for (uint64_t i = 0; i < l.count; i++)
            if (strstr(l.entries[i].name.data, ".tmp") && strcmp(l.entries[i].name.data, "a.lvl.tmp") != 0) {
                fprintf(stderr, "stray: %s\n", l.entries[i].name.data);
                n++;
            }
    st_arena_release(a);
    return n;
}

static bool write_text(const char *path, const char *text) {
    st_error_clear(&msg);
    return st_os_write_file_atomic(path, text, strlen(text), &msg);
}

#if defined(_WIN32)
/* Windows: the bytes replaced, the attributes kept (ReplaceFileW), a new file made. */
static void test_regular(void) {
    put(at("a.lvl"), "old", 0600);
    CHECK(SetFileAttributesA(at("a.lvl"), FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_ARCHIVE));
    /* wine keeps the attribute only where the file system has extended attributes */
    bool kept = GetFileAttributesA(at("a.lvl")) & FILE_ATTRIBUTE_HIDDEN;
    CHECK(write_text(at("a.lvl"), "new bytes"));
    CHECK(!strcmp(text_of(at("a.lvl")), "new bytes"));
    CHECK(!kept || (GetFileAttributesA(at("a.lvl")) & FILE_ATTRIBUTE_HIDDEN));
    SetFileAttributesA(at("a.lvl"), FILE_ATTRIBUTE_NORMAL);
    CHECK(write_text(at("fresh.lvl"), "fresh"));
    CHECK(!strcmp(text_of(at("fresh.lvl")), "fresh"));
    CHECK(write_text(at("empty"), ""));
    CHECK_EQ_U(st_os_file_info(at("empty")).size, 0);
    /* A user's own "<path>.tmp" is not touched. */
    put(at("a.lvl.tmp"), "my notes", 0644);
    CHECK(write_text(at("a.lvl"), "newer"));
    CHECK(!strcmp(text_of(at("a.lvl.tmp")), "my notes"));
    CHECK(!strcmp(text_of(at("a.lvl")), "newer"));
    unlink(at("a.lvl.tmp"));
    CHECK_EQ_I(strays(), 0);
}
#else
static void test_regular(void) {
    struct stat before, after;
    put(at("a.lvl"), "old", 0600);
    CHECK(stat(at("a.lvl"), &before) == 0);
    CHECK(write_text(at("a.lvl"), "new bytes"));
    CHECK(!strcmp(text_of(at("a.lvl")), "new bytes"));
    CHECK(stat(at("a.lvl"), &after) == 0);
    CHECK_EQ_U(after.st_mode & 07777, 0600); /* not 0644: the mode is kept */
    CHECK_EQ_U(after.st_uid, before.st_uid);
    CHECK_EQ_U(after.st_gid, before.st_gid);
    CHECK(after.st_ino != before.st_ino); /* replaced in one rename, not rewritten in place */
    /* A mode the umask would narrow is kept whole too. */
    mode_t old = umask(077);
    put(at("shared.lvl"), "old", 0664);
    CHECK(write_text(at("shared.lvl"), "new"));
    CHECK(stat(at("shared.lvl"), &after) == 0);
    CHECK_EQ_U(after.st_mode & 07777, 0664);
    /* A new file: 0666 less the umask, as any program's. */
    CHECK(write_text(at("fresh.lvl"), "fresh"));
    CHECK(stat(at("fresh.lvl"), &after) == 0);
    CHECK_EQ_U(after.st_mode & 07777, 0600);
    umask(old);
    CHECK(!strcmp(text_of(at("fresh.lvl")), "fresh"));
    /* Another user's file (root may write it): it stays theirs. */
    if (geteuid() == 0) {
        put(at("theirs.lvl"), "old", 0644);
        CHECK(chown(at("theirs.lvl"), 4321, 4322) == 0);
        CHECK(write_text(at("theirs.lvl"), "new"));
        CHECK(stat(at("theirs.lvl"), &after) == 0);
        CHECK_EQ_U(after.st_uid, 4321);
        CHECK_EQ_U(after.st_gid, 4322);
    }
    CHECK(write_text(at("empty"), ""));
    CHECK_EQ_U(st_os_file_info(at("empty")).size, 0);
    CHECK_EQ_I(strays(), 0);
}

#endif

#if !defined(_WIN32) /* symbolic links: POSIX (Windows wants a privilege to make one) */
static void test_links(void) {
    /* A link at the target: the file it points to gets the bytes, the link stays. */
    put(at("real.lvl"), "old", 0640);
    unlink(at("link.lvl"));
    CHECK(symlink("real.lvl", at("link.lvl")) == 0);
    CHECK(write_text(at("link.lvl"), "through the link"));
    CHECK_EQ_I(st_os_link_info(at("link.lvl")).kind, OS_FILE_LINK);
    CHECK(!strcmp(text_of(at("real.lvl")), "through the link"));
    struct stat st;
    CHECK(stat(at("real.lvl"), &st) == 0 && (st.st_mode & 07777) == 0640);
    /* A link to nothing is refused; nothing is created. */
    unlink(at("dangling.lvl"));
    CHECK(symlink("nowhere.lvl", at("dangling.lvl")) == 0);
    CHECK(!write_text(at("dangling.lvl"), "x"));
    CHECK(said("dangling.lvl: cannot write: a symbolic link to a missing file"));
    CHECK_EQ_I(st_os_file_info(at("nowhere.lvl")).kind, OS_FILE_NONE);

    /* A link planted at the old temporary name: its target is not overwritten, and the
       file does not become a link. A user's own "<path>.tmp" is not touched either. */
    put(at("victim"), "precious", 0600);
    put(at("a.lvl"), "old", 0644);
    unlink(at("a.lvl.tmp"));
    CHECK(symlink("victim", at("a.lvl.tmp")) == 0);
    CHECK(write_text(at("a.lvl"), "new"));
    CHECK(!strcmp(text_of(at("victim")), "precious"));
    CHECK_EQ_I(st_os_link_info(at("a.lvl")).kind, OS_FILE_REGULAR);
    CHECK(!strcmp(text_of(at("a.lvl")), "new"));
    unlink(at("a.lvl.tmp"));
    put(at("a.lvl.tmp"), "my notes", 0644);
    CHECK(write_text(at("a.lvl"), "newer"));
    CHECK(!strcmp(text_of(at("a.lvl.tmp")), "my notes"));
    CHECK(!strcmp(text_of(at("a.lvl")), "newer"));
    unlink(at("a.lvl.tmp"));
    CHECK_EQ_I(strays(), 0);

    /* Links, then files, planted at the real temporary names (".b.lvl.<pid>-<n>.tmp", for
       every n this process can be at): each is refused as the name is tried (O_EXCL,
       O_NOFOLLOW), the victim and the planted files keep their bytes, the target its own. */
    put(at("b.lvl"), "old", 0644);
    enum { PLANTS = 1024 };
    char name[PATH_MAX];
    for (int kind = 0; kind < 2; kind++) {
        for (int n = 0; n < PLANTS; n++) {
            snprintf(name, sizeof name, "%s/.b.lvl.%ld-%d.tmp", root, (long)getpid(), n);
            if (kind == 0) CHECK(symlink("victim", name) == 0);
            else put(name, "planted", 0644);
        }
        CHECK(!write_text(at("b.lvl"), "new"));
        CHECK(!strcmp(text_of(at("victim")), "precious"));
        CHECK(!strcmp(text_of(at("b.lvl")), "old"));
        int changed = 0;
        for (int n = 0; n < PLANTS; n++) {
            snprintf(name, sizeof name, "%s/.b.lvl.%ld-%d.tmp", root, (long)getpid(), n);
            if (kind == 1) changed += strcmp(text_of(name), "planted") != 0;
            unlink(name);
        }
        CHECK_EQ_I(changed, 0);
    }
    CHECK(write_text(at("b.lvl"), "new"));
    CHECK(!strcmp(text_of(at("b.lvl")), "new"));
    CHECK_EQ_I(strays(), 0);
}
#endif

static void test_refusals(void) {
    /* Read-only: refused with the mode, although the folder would allow the rename. */
    put(at("ro.lvl"), "keep", 0400);
#if defined(_WIN32) /* the read-only attribute */
    CHECK(SetFileAttributesA(at("ro.lvl"), FILE_ATTRIBUTE_READONLY));
    const char *ro_why = "read-only (the read-only attribute)";
#else
    const char *ro_why = "read-only (mode 0400)";
#endif
    CHECK(!write_text(at("ro.lvl"), "x"));
    CHECK(said("ro.lvl: cannot write: it is "));
    CHECK(said(ro_why));
    CHECK(!strcmp(text_of(at("ro.lvl")), "keep"));
    CHECK(!st_os_write_check(at("ro.lvl"), &msg));
    CHECK(said(ro_why));
    chmod(at("ro.lvl"), 0600);

    /* Hard links: refused, both names keep their bytes. */
    put(at("one.lvl"), "linked", 0644);
    unlink(at("two.lvl"));
#if defined(_WIN32)
    CHECK(CreateHardLinkA(at("two.lvl"), at("one.lvl"), NULL));
#else
    CHECK(link(at("one.lvl"), at("two.lvl")) == 0);
#endif
    CHECK(!write_text(at("one.lvl"), "x"));
    CHECK(said("one.lvl: cannot write: it has 2 hard links"));
    CHECK(!strcmp(text_of(at("two.lvl")), "linked"));
    CHECK(!strcmp(text_of(at("one.lvl")), "linked"));
    unlink(at("two.lvl"));
    CHECK(write_text(at("one.lvl"), "alone now"));

    /* A directory, a missing folder, a file where a folder should be. */
#if defined(_WIN32)
#define mkdir(path, mode) mkdir(path)
#endif
    mkdir(at("dir"), 0755);
    CHECK(!write_text(at("dir"), "x"));
    CHECK(said("dir: cannot write: it is a directory"));
    CHECK(!write_text(at("nodir/x.lvl"), "x"));
    CHECK(said("nodir/x.lvl: cannot write: the folder "));
    CHECK(said("/nodir does not exist"));
    CHECK(!st_os_write_check(at("nodir/x.lvl"), &msg));
    CHECK(said("/nodir does not exist"));
    CHECK(!write_text(at("one.lvl/x.lvl"), "x"));
    CHECK(said("one.lvl/x.lvl: cannot write: "));
    CHECK(said("is not a folder"));
    CHECK(!write_text("", "x"));

    /* A folder checked at the start of a long run and gone at its end. */
    mkdir(at("gone"), 0755);
    CHECK(st_os_write_check(at("gone/run.rep"), &msg));
    CHECK_EQ_I(st_os_file_info(at("gone/run.rep")).kind, OS_FILE_NONE); /* the check wrote nothing */
    rmdir(at("gone"));
    CHECK(!write_text(at("gone/run.rep"), "x"));
    CHECK(said("gone/run.rep: cannot write: the folder "));
    CHECK_EQ_I(st_os_file_info(at("gone")).kind, OS_FILE_NONE);

#if !defined(_WIN32) /* a folder's mode: POSIX */
    /* A folder that may not be written (not for root, who may). */
    if (geteuid() != 0) {
        mkdir(at("locked"), 0555);
        CHECK(!write_text(at("locked/x"), "x"));
        CHECK(said("may not be written"));
        CHECK(!st_os_write_check(at("locked/x"), &msg));
        chmod(at("locked"), 0755);
    }
#endif
    CHECK_EQ_I(strays(), 0);
}

#if !defined(_WIN32) /* FIFOs and device nodes: POSIX */
static void test_special(void) {
    /* A FIFO: written in place, and its reader reads the bytes; it stays a FIFO. */
    unlink(at("pipe"));
    CHECK(mkfifo(at("pipe"), 0644) == 0);
    CHECK(st_os_write_check(at("pipe"), &msg)); /* no reader: the check does not block */
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(at("pipe"), O_RDONLY);
        char buf[64] = {0};
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        _exit(n == 11 && !memcmp(buf, "streamed in", 11) ? 0 : 1);
    }
    CHECK(write_text(at("pipe"), "streamed in"));
    /* A FIFO replaced by a file would leave the reader waiting for a writer forever. */
    CHECK_EQ_I(st_os_link_info(at("pipe")).kind, OS_FILE_OTHER);
    if (st_os_link_info(at("pipe")).kind != OS_FILE_OTHER) kill(pid, SIGKILL);
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* Character devices. As root, a broken writer would replace the machine's own
       /dev/null: root tests private nodes of the same devices instead. */
    const char *null_dev = "/dev/null", *full_dev = "/dev/full";
    if (geteuid() == 0) {
        unlink(at("null")), unlink(at("full"));
        null_dev = mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0 ? at("null") : NULL;
        full_dev = mknod(at("full"), S_IFCHR | 0666, makedev(1, 7)) == 0 ? at("full") : NULL;
        if (!null_dev) fprintf(stderr, "note: cannot make a device node here; the device cases are skipped\n");
    }
    if (null_dev) {
        CHECK(write_text(null_dev, "into nothing"));
        CHECK_EQ_I(st_os_link_info(null_dev).kind, OS_FILE_OTHER); /* still a device */
    }
    /* A block device is refused, not written in place (major 240 is for local use: an
       open of it, were the refusal gone, would fail rather than write a disk). */
    if (geteuid() == 0 && mknod(at("disk"), S_IFBLK | 0600, makedev(240, 0)) == 0) {
        CHECK(!write_text(at("disk"), "x"));
        CHECK(said("disk: cannot write: it is a block device"));
        CHECK_EQ_I(st_os_link_info(at("disk")).kind, OS_FILE_OTHER);
    }
    if (full_dev && st_os_file_info(full_dev).kind == OS_FILE_OTHER) {
        CHECK(!write_text(full_dev, "x"));
        CHECK(said(": cannot write: No space left on device"));
        CHECK_EQ_I(st_os_link_info(full_dev).kind, OS_FILE_OTHER);
    }
    CHECK_EQ_I(strays(), 0);
}

#endif

static const OsWriteStep failing_steps[] = {OS_WRITE_STEP_CREATE, OS_WRITE_STEP_WRITE, OS_WRITE_STEP_SYNC,
                                            OS_WRITE_STEP_CLOSE, OS_WRITE_STEP_RENAME};

#if defined(_WIN32)
/* wine's ReplaceFileW moves the old file aside to a GetTempFileNameW name ("rfXXXX.tmp")
   and leaves that file behind when the move fails (Windows' own makes none): removed here,
   under wine only, so that strays() still sees any temporary of ours. */
static void wine_leftovers(void) {
    if (!GetProcAddress(GetModuleHandleA("ntdll.dll"), "wine_get_version")) return;
    Arena *a = st_arena_create((ArenaParams){.name = "list"});
    OsDirList l;
    if (a && st_os_list_dir(a, root, &l))
        for (uint64_t i = 0; i < l.count; i++) {
            const char *n = l.entries[i].name.data;
            if (!strncmp(n, "rf", 2) && strstr(n, ".tmp")) st_os_remove(at(n));
        }
    st_arena_release(a);
}
#endif

static void test_faults(void) {
#if defined(_WIN32)
    static const int errors[] = {EIO, ENOSPC, EACCES};
#else
    static const int errors[] = {EIO, ENOSPC, EDQUOT};
#endif
    for (size_t i = 0; i < sizeof failing_steps / sizeof failing_steps[0]; i++) {
        for (size_t e = 0; e < sizeof errors / sizeof errors[0]; e++) {
            put(at("save"), "good save", 0600);
            st_os_debug_write_fail(failing_steps[i], errors[e]);
            CHECK(!write_text(at("save"), "truncated sa"));
            CHECK(said(strerror(errors[e])));
            CHECK(said("save: cannot write: "));
            CHECK(!strcmp(text_of(at("save")), "good save"));
            CHECK_EQ_I(strays(), 0);
        }
    }
    /* The folder's fsync comes after the rename: the new file is there, and it is said so. */
    st_os_debug_write_fail(OS_WRITE_STEP_SYNC_DIR, EIO);
    CHECK(write_text(at("save"), "new save"));
    CHECK(!strcmp(text_of(at("save")), "new save"));
    /* A hook fires once. */
    st_os_debug_write_fail(OS_WRITE_STEP_WRITE, EIO);
    CHECK(!write_text(at("save"), "a"));
    CHECK(write_text(at("save"), "b"));
#if defined(_WIN32)
    /* A real failure at the replace: the target held open, not shared for deletion, so
       ReplaceFileW is refused; the old bytes stay, the temporary goes. */
    put(at("held"), "held bytes", 0644);
    HANDLE h = CreateFileA(at("held"), GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
    CHECK(h != INVALID_HANDLE_VALUE);
    CHECK(!write_text(at("held"), "replacement"));
    CHECK(said("held: cannot write: "));
    CloseHandle(h);
    CHECK(!strcmp(text_of(at("held")), "held bytes"));
    wine_leftovers();
    CHECK_EQ_I(strays(), 0);
    CHECK(write_text(at("held"), "replacement")); /* let go: it is replaced */
    CHECK(!strcmp(text_of(at("held")), "replacement"));
#else
    /* A FIFO fails at its write the same way (its reader sees the end of the file). */
    pid_t reader = fork();
    if (reader == 0) {
        int fd = open(at("pipe"), O_RDONLY);
        char c;
        _exit(fd >= 0 && read(fd, &c, 1) == 0 ? 0 : 1);
    }
    st_os_debug_write_fail(OS_WRITE_STEP_WRITE, ENOSPC);
    CHECK(!write_text(at("pipe"), "x"));
    CHECK(said("pipe: cannot write: No space left on device"));
    waitpid(reader, NULL, 0);

    /* A real limit, not a hook: a file size limit makes the write fail half way. */
    put(at("big"), "good", 0644);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &rl);
        static char bytes[65536];
        memset(bytes, 'x', sizeof bytes);
        bool ok = st_os_write_file_atomic(at("big"), bytes, sizeof bytes, &msg);
        _exit(!ok && strstr(msg.message, strerror(EFBIG)) ? 0 : 1);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(!strcmp(text_of(at("big")), "good"));
    CHECK_EQ_I(strays(), 0);
#endif
}

#if defined(_WIN32)
/* The child of test_kill: killed (TerminateProcess) at `step` of its write. */
static int kill_child(int step) {
    st_os_debug_write_kill((OsWriteStep)step);
    write_text(at("progress"), "new progress, longer");
    return 0;
}

static int run_kill_child(int step) {
    char cmd[PATH_MAX * 2];
    char exe[PATH_MAX];
    if (GetModuleFileNameA(NULL, exe, sizeof exe) >= sizeof exe) return -1;
    snprintf(cmd, sizeof cmd, "\"%s\" --kill \"%s\" %d", exe, root, step);
    STARTUPINFOA si = {.cb = sizeof si};
    PROCESS_INFORMATION pi;
    if (!CreateProcessA(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) return -1;
    WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 0;
    GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hProcess), CloseHandle(pi.hThread);
    return (int)code;
}
#endif

/* kill -9 just before each step, in a child: the file holds the old bytes or the new ones,
   nothing else; before the rename it is the old, from the rename on the new. */
static void test_kill(void) {
    for (int step = OS_WRITE_STEP_CREATE; step < OS_WRITE_STEPS; step++) {
        put(at("progress"), "old progress", 0600);
#if defined(_WIN32)
        CHECK_EQ_I(run_kill_child(step), 137); /* TerminateProcess's code, as the hook says */
#else
        pid_t pid = fork();
        if (pid == 0) {
            st_os_debug_write_kill((OsWriteStep)step);
            write_text(at("progress"), "new progress, longer");
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
#endif
        const char *now = text_of(at("progress"));
        CHECK(!strcmp(now, step <= OS_WRITE_STEP_RENAME ? "old progress" : "new progress, longer"));
#if !defined(_WIN32)
        struct stat st;
        CHECK(stat(at("progress"), &st) == 0 && (st.st_mode & 07777) == 0600);
#endif
        /* What a kill leaves is a temporary beside the file, never in its place. */
        Arena *a = st_arena_create((ArenaParams){.name = "list"});
        OsDirList l;
        if (a && st_os_list_dir(a, root, &l))
            for (uint64_t i = 0; i < l.count; i++)
                if (!strncmp(l.entries[i].name.data, ".progress.", 10)) unlink(at(l.entries[i].name.data));
        st_arena_release(a);
    }
}

static void cleanup(void) {
    char cmd[160];
#if defined(_WIN32)
    snprintf(cmd, sizeof cmd, "rmdir /s /q \"%s\"", root);
#else
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", root, root);
#endif
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
}

int main(int argc, char **argv) {
#if defined(_WIN32) /* no mkdtemp: a folder named for the process, in the test's folder */
    if (argc == 4 && !strcmp(argv[1], "--kill")) {
        snprintf(root, sizeof root, "%s", argv[2]);
        return kill_child(atoi(argv[3]));
    }
    snprintf(root, sizeof root, "test_os_write.%lu", (unsigned long)GetCurrentProcessId());
    REQUIRE(mkdir(root, 0755) == 0);
#else
    (void)argc, (void)argv;
    snprintf(root, sizeof root, "/tmp/test_os_write.XXXXXX");
    REQUIRE(mkdtemp(root));
#endif
    test_regular();
#if !defined(_WIN32)
    test_links();
#endif
    test_refusals();
#if !defined(_WIN32)
    test_special();
#endif
    test_faults();
    test_kill();
    if (HEAP_COUNT) {
        heap_calls = 0;
        CHECK(write_text(at("counted"), "no heap"));
        CHECK(write_text(at("link.lvl"), "no heap either"));
        CHECK(!write_text(at("nodir/x"), "refused"));
        CHECK(st_os_write_check(at("counted"), &msg));
        CHECK_EQ_U(heap_calls, 0);
    }
    cleanup();
    return check_result();
}
