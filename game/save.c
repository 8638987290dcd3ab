/* save.c - progress file: atomic write, tolerant read (see save.h). */
#include "save.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/hash.h"
#include "core/os_file.h"
#include "core/path.h"

#define SAVE_MAGIC "arena-dungeon-save 2"
#define SAVE_MAGIC_V1 "arena-dungeon-save 1" /* read, never written */
#define SAVE_FILE_MAX (64u << 10)

/* Levels are keyed by file name; a suffix of a C string is one. */
static const char *base_name(const char *path) { return path_base_name(str8_cstr(path)).data; }

/* The checksum line's value: FNV-1a 64 of every byte before it. */
static uint64_t checksum(const char *p, size_t n) { return hash_fnv1a(HASH_FNV1A_INIT, p, n); }

bool save_default_path(char *out, size_t cap) {
    const char *xdg = getenv("XDG_DATA_HOME");
    int n;
    if (xdg && xdg[0] == '/') {
        n = snprintf(out, cap, "%s/%s/progress", xdg, SAVE_GAME_NAME);
    } else {
        const char *home = getenv("HOME");
        if (!home || !home[0]) return false;
        n = snprintf(out, cap, "%s/.local/share/%s/progress", home, SAVE_GAME_NAME);
    }
    return n > 0 && (size_t)n < cap;
}

const SaveLevel *save_find(const SaveData *d, const char *level_path) {
    const char *name = base_name(level_path);
    for (int32_t i = 0; i < d->level_count; i++)
        if (strcmp(d->levels[i].file, name) == 0) return &d->levels[i];
    return NULL;
}

static const char *const BIND_NAMES[SAVE_BIND_ACTIONS] = {"up", "down", "left", "right",
                                                          "fire", "confirm", "pause", "restart"};

const char *save_bind_name(int32_t action) {
    return action >= 0 && action < SAVE_BIND_ACTIONS ? BIND_NAMES[action] : NULL;
}

SaveRecordResult save_record(SaveData *d, const char *level_path, uint32_t ticks, int32_t coins,
                             const char *reached_path) {
    SaveRecordResult r = {0};
    const char *name = base_name(level_path);
    if (strlen(name) < SAVE_NAME_MAX) {
        SaveLevel *l = (SaveLevel *)save_find(d, level_path);
        if (!l && d->level_count < SAVE_MAX_LEVELS) {
            l = &d->levels[d->level_count++];
            memcpy(l->file, name, strlen(name) + 1);
            l->best_ticks = ticks;
            l->best_coins = coins;
            r.first = true;
        } else if (l) {
            r.best_time = ticks < l->best_ticks;
            r.best_coins = coins > l->best_coins;
            if (r.best_time) l->best_ticks = ticks;
            if (r.best_coins) l->best_coins = coins;
        }
    }
    const char *reached = base_name(reached_path ? reached_path : level_path);
    if (strlen(reached) < SAVE_NAME_MAX && strcmp(reached, d->furthest) > 0)
        memcpy(d->furthest, reached, strlen(reached) + 1);
    return r;
}

/* A name in the file must be one token of printable bytes without spaces. */
static bool valid_name(const char *s, size_t n) {
    if (n == 0 || n >= SAVE_NAME_MAX) return false;
    for (size_t i = 0; i < n; i++)
        if ((uint8_t)s[i] <= ' ' || s[i] == 127) return false;
    return true;
}

static const char *const VOLUME_NAMES[SAVE_VOLUMES] = {"volume_master", "volume_music", "volume_effects"};

/* "scale 3", "fullscreen 0", "renderer 2", "volume_music 70". */
static bool parse_setting(SaveSettings *st, const char *text) {
    char key[32];
    long v;
    int used = 0;
    if (sscanf(text, "%31s %ld%n", key, &v, &used) != 2 || text[used] != '\0') return false;
    if (strcmp(key, "scale") == 0 && v >= 1 && v <= SAVE_SCALE_MAX) st->scale = (int32_t)v;
    else if (strcmp(key, "fullscreen") == 0 && (v == 0 || v == 1)) st->fullscreen = v == 1;
    else if (strcmp(key, "renderer") == 0 && v >= SAVE_RENDERER_DEFAULT && v <= SAVE_RENDERER_SDL)
        st->renderer = (int32_t)v;
    else {
        for (int32_t i = 0; i < SAVE_VOLUMES; i++) {
            if (strcmp(key, VOLUME_NAMES[i]) != 0 || v < 0 || v > 100) continue;
            /* A file names every volume or none, like the binds. */
            st->has_volume = true;
            st->volume[i] = (int32_t)v;
            return true;
        }
        return false;
    }
    return true;
}

/* "fire 44 13": an action's keys, as SDL scancodes (below 512; 0 is none). A file binds
   every action or none, so one line makes the others explicit too: they start from zero. */
static bool parse_bind(SaveSettings *st, const char *text) {
    char name[32];
    long k0, k1;
    int used = 0;
    if (sscanf(text, "%31s %ld %ld%n", name, &k0, &k1, &used) != 3 || text[used] != '\0') return false;
    if (k0 < 0 || k0 >= 512 || k1 < 0 || k1 >= 512) return false;
    for (int32_t a = 0; a < SAVE_BIND_ACTIONS; a++) {
        if (strcmp(name, BIND_NAMES[a]) != 0) continue;
        st->has_binds = true;
        st->binds[a][0] = (uint16_t)k0;
        st->binds[a][1] = (uint16_t)k1;
        return true;
    }
    return false;
}

static SaveStatus corrupt(SaveData *out, char *msg, size_t cap, const char *path, int line,
                          const char *why) {
    memset(out, 0, sizeof *out);
    /* Whole-file problems (line 0) have no line to point at. */
    diag_format(msg, cap, DIAG_WARNING, path, line, 0, "corrupt save (%s)", why);
    return SAVE_CORRUPT;
}

SaveStatus save_load(SaveData *out, const char *path, char *msg, size_t msg_cap) {
    memset(out, 0, sizeof *out);
    if (msg_cap) msg[0] = '\0';
    SCRATCH_SCOPE(tmp);
    Str8 text;
    OsReadResult r = os_read_file(tmp.arena, path, SAVE_FILE_MAX, &text);
    if (r.status == OS_READ_CANNOT_OPEN && r.error == ENOENT) return SAVE_MISSING;
    if (r.status == OS_READ_TOO_LARGE) return corrupt(out, msg, msg_cap, path, 0, "file too large");
    if (r.status != OS_READ_OK) {
        char why[300];
        diag_format(msg, msg_cap, DIAG_WARNING, path, 0, 0, "cannot read save (%s)",
                    os_read_describe(r, why, sizeof why));
        return SAVE_IO_ERROR;
    }
    /* The parse below cuts lines in place: the buffer is ours, NUL-terminated by os_read_file. */
    char *buf = (char *)text.data;
    size_t len = (size_t)text.len;
    if (memchr(buf, '\0', len)) return corrupt(out, msg, msg_cap, path, 0, "binary data");
    /* Another version's file may not even use our checksum: say what it is before judging. */
    static const char family[] = "arena-dungeon-save ";
    size_t first = strcspn(buf, "\n");
    bool v1 = first == sizeof SAVE_MAGIC_V1 - 1 && strncmp(buf, SAVE_MAGIC_V1, first) == 0;
    bool v2 = first == sizeof SAVE_MAGIC - 1 && strncmp(buf, SAVE_MAGIC, first) == 0;
    if (strncmp(buf, family, sizeof family - 1) == 0 && !v1 && !v2) {
        diag_format(msg, msg_cap, DIAG_WARNING, path, 1, 0, "a save of another version ('%.*s', this game reads '%s')",
                    (int)(first < 60 ? first : 60), buf, SAVE_MAGIC);
        return SAVE_OTHER_VERSION;
    }

    /* The checksum line covers every byte before it. */
    char *ck = NULL;
    for (char *p = buf; (p = strstr(p, "checksum ")) != NULL; p++)
        if (p == buf || p[-1] == '\n') ck = p;
    if (!ck) return corrupt(out, msg, msg_cap, path, 0, "no checksum");
    /* At most 16 hex digits, then the end of the line (or of the file). */
    Str8 value = str8_skip(str8_cstr(ck), sizeof "checksum " - 1);
    int64_t eol = str8_find_byte(value, '\n', 0);
    if (eol >= 0) value = str8_prefix(value, (uint64_t)eol);
    uint64_t stored = 0;
    if (value.len > 16 || !str8_parse_u64(value, 16, &stored))
        return corrupt(out, msg, msg_cap, path, 0, "bad checksum line");
    if (stored != checksum(buf, (size_t)(ck - buf)))
        return corrupt(out, msg, msg_cap, path, 0, "checksum mismatch");

    int line_no = 0;
    char *line = buf;
    while (line < ck) {
        char *end = memchr(line, '\n', (size_t)(ck - line));
        if (!end) return corrupt(out, msg, msg_cap, path, line_no + 1, "unterminated line");
        *end = '\0';
        line_no++;
        if (line_no == 1) {
            if (!v1 && !v2) return corrupt(out, msg, msg_cap, path, line_no, "not a save file");
        } else if (v2 && strncmp(line, "setting ", 8) == 0) {
            if (!parse_setting(&out->settings, line + 8))
                return corrupt(out, msg, msg_cap, path, line_no, "bad setting");
        } else if (v2 && strncmp(line, "bind ", 5) == 0) {
            if (!parse_bind(&out->settings, line + 5))
                return corrupt(out, msg, msg_cap, path, line_no, "bad key binding");
        } else if (strncmp(line, "furthest ", 9) == 0) {
            const char *name = line + 9;
            if (!valid_name(name, strlen(name)))
                return corrupt(out, msg, msg_cap, path, line_no, "bad level name");
            memcpy(out->furthest, name, strlen(name) + 1);
        } else if (strncmp(line, "level ", 6) == 0) {
            char name[SAVE_NAME_MAX];
            unsigned long ticks;
            long coins;
            int used = 0;
            if (out->level_count >= SAVE_MAX_LEVELS ||
                sscanf(line + 6, "%127s %lu %ld%n", name, &ticks, &coins, &used) != 3 ||
                line[6 + used] != '\0' || ticks > UINT32_MAX || coins < 0 || coins > INT32_MAX ||
                !valid_name(name, strlen(name)))
                return corrupt(out, msg, msg_cap, path, line_no, "bad level record");
            SaveLevel *l = &out->levels[out->level_count++];
            memcpy(l->file, name, strlen(name) + 1);
            l->best_ticks = (uint32_t)ticks;
            l->best_coins = (int32_t)coins;
        } else if (line[0] != '\0') {
            return corrupt(out, msg, msg_cap, path, line_no, "unknown line");
        }
        line = end + 1;
    }
    if (line_no == 0) return corrupt(out, msg, msg_cap, path, 1, "not a save file");
    return SAVE_OK;
}

bool save_set_aside(const char *path, char *moved_to, size_t moved_cap, char *msg, size_t msg_cap) {
    for (int n = 0; n < SAVE_ASIDE_MAX; n++) {
        int len = n ? snprintf(moved_to, moved_cap, "%s.%d.bad", path, n) : snprintf(moved_to, moved_cap, "%s.bad", path);
        if (len < 0 || (size_t)len >= moved_cap) {
            snprintf(msg, msg_cap, "%s: cannot set aside: path too long", path);
            return false;
        }
        OsFileInfo taken = os_link_info(moved_to);
        if (taken.kind != OS_FILE_NONE) continue; /* an earlier bad file, kept too */
        if (taken.error != ENOENT) {
            snprintf(msg, msg_cap, "%s: cannot set aside as %s: %s", path, moved_to, strerror(taken.error));
            return false;
        }
        /* A name taken between the look and here is overwritten: only another copy of the
           game could race us, and it would be setting aside the same file. */
        if (os_rename(path, moved_to)) return true;
        snprintf(msg, msg_cap, "%s: cannot set aside as %s: %s", path, moved_to, strerror(errno));
        return false;
    }
    snprintf(msg, msg_cap, "%s: cannot set aside: no free name up to %s.%d.bad", path, path, SAVE_ASIDE_MAX - 1);
    return false;
}

bool save_write(const SaveData *d, const char *path, char *msg, size_t msg_cap) {
    SCRATCH_SCOPE(tmp);
    char *buf = arena_push_array_raw(tmp.arena, char, SAVE_FILE_MAX);
    if (!buf) {
        snprintf(msg, msg_cap, "%s: cannot write: out of scratch memory", path);
        return false;
    }
    size_t cap = SAVE_FILE_MAX, len = 0;
    int n = d->furthest[0] ? snprintf(buf, cap, "%s\nfurthest %s\n", SAVE_MAGIC, d->furthest)
                           : snprintf(buf, cap, "%s\n", SAVE_MAGIC);
    len = (size_t)n;
    for (int32_t i = 0; i < d->level_count && i < SAVE_MAX_LEVELS; i++) {
        const SaveLevel *l = &d->levels[i];
        n = snprintf(buf + len, cap - len, "level %s %u %d\n", l->file, l->best_ticks,
                     l->best_coins);
        if (n < 0 || (size_t)n >= cap - len) break;
        len += (size_t)n;
    }
    const SaveSettings *st = &d->settings;
    if (st->scale > 0) len += (size_t)snprintf(buf + len, cap - len, "setting scale %d\n", st->scale);
    len += (size_t)snprintf(buf + len, cap - len, "setting fullscreen %d\n", st->fullscreen ? 1 : 0);
    if (st->renderer) len += (size_t)snprintf(buf + len, cap - len, "setting renderer %d\n", st->renderer);
    for (int32_t i = 0; st->has_volume && i < SAVE_VOLUMES; i++)
        len += (size_t)snprintf(buf + len, cap - len, "setting %s %d\n", VOLUME_NAMES[i], st->volume[i]);
    for (int32_t a = 0; st->has_binds && a < SAVE_BIND_ACTIONS; a++)
        len += (size_t)snprintf(buf + len, cap - len, "bind %s %u %u\n", BIND_NAMES[a], st->binds[a][0],
                                st->binds[a][1]);
    n = snprintf(buf + len, cap - len, "checksum %016llx\n",
                 (unsigned long long)checksum(buf, len));
    len += (size_t)n;

    char dir[SAVE_PATH_MAX];
    if (strlen(path) >= sizeof dir) {
        snprintf(msg, msg_cap, "save path too long");
        return false;
    }
    /* mkdir -p of the folder part; none (or the root): nothing to make. */
    Str8 folder = path_dir(str8_cstr(path));
    snprintf(dir, sizeof dir, "%.*s", STR8_FMT(folder));
    if (folder.len && !str8_eq_cstr(folder, "/") && !os_make_dirs(dir)) {
        snprintf(msg, msg_cap, "%s: cannot create directory: %s", path, strerror(errno));
        return false;
    }
    return os_write_file_atomic(path, buf, len, msg, msg_cap);
}
