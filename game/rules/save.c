/* save.c - the progress file (checksummed) and the settings file (a person's), see save.h. */
#include "rules/save.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <strata/core/diag.h>
#include <strata/core/hash.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include <strata/core/utf8.h>

#define SAVE_MAGIC "arena-dungeon-save 2"
#define SAVE_MAGIC_V1 "arena-dungeon-save 1" /* read, never written */
#define SAVE_FAMILY "arena-dungeon-save "

/* Levels are keyed by file name; a suffix of a C string is one. */
static const char *base_name(const char *path) { return st_path_base_name(st_str8_cstr(path)).data; }

/* The checksum line's value: FNV-1a 64 of every byte before it. */
static uint64_t checksum(const char *p, size_t n) { return st_hash_fnv1a(HASH_FNV1A_INIT, p, n); }

bool save_default_path(char *out, size_t cap) {
    return st_os_user_path(out, cap, OS_USER_DATA, SAVE_GAME_NAME, "progress");
}

bool save_settings_default_path(char *out, size_t cap) {
    return st_os_user_path(out, cap, OS_USER_CONFIG, SAVE_GAME_NAME, "settings");
}

const SaveLevel *save_find(const SaveData *d, const char *level_path) {
    const char *name = base_name(level_path);
    for (int32_t i = 0; i < d->level_count; i++)
        if (strcmp(d->levels[i].file, name) == 0) return &d->levels[i];
    return NULL;
}

static const char *const BIND_NAMES[SAVE_BIND_ACTIONS] = {"up",      "down",  "left",    "right", "fire",
                                                          "confirm", "pause", "restart", "rewind"};

const char *save_bind_name(int32_t action) {
    return action >= 0 && action < SAVE_BIND_ACTIONS ? BIND_NAMES[action] : NULL;
}

/* A name in the file must be one token of printable bytes without spaces. */
static bool valid_name(const char *s, size_t n) {
    if (n == 0 || n >= SAVE_NAME_MAX) return false;
    for (size_t i = 0; i < n; i++)
        if ((uint8_t)s[i] <= ' ' || s[i] == 127) return false;
    return true;
}

SaveRecordResult save_record(SaveData *d, const char *level_path, uint32_t ticks, int32_t coins,
                             const char *reached_path) {
    SaveRecordResult r = {0};
    /* A name the file cannot hold (a space in it) is not recorded: written, it would make
       the whole file unreadable. */
    const char *name = base_name(level_path);
    if (valid_name(name, strlen(name))) {
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
    if (valid_name(reached, strlen(reached)) && strcmp(reached, d->furthest) > 0)
        memcpy(d->furthest, reached, strlen(reached) + 1);
    return r;
}

/* ---- One setting: its key, how its value reads and is written ---- */

enum {
    KEY_VOLUME, /* + SaveVolume */
    KEY_SCALE = KEY_VOLUME + SAVE_VOLUMES,
    KEY_FULLSCREEN,
    KEY_RENDERER,
    KEY_BIND, /* + action */
    KEY_COUNT = KEY_BIND + SAVE_BIND_ACTIONS
};

static const char *const KEY_NAMES[KEY_COUNT] = {"volume_master", "volume_music", "volume_effects", "scale",
                                                 "fullscreen",    "renderer",     "key_up",         "key_down",
                                                 "key_left",      "key_right",    "key_fire",       "key_confirm",
                                                 "key_pause",     "key_restart",  "key_rewind"};
/* The comment a key gets when the game adds its line. */
static const char *const KEY_DOCS[KEY_COUNT] = {
    [KEY_VOLUME] = "percent, 0 to 100",
    [KEY_SCALE] = "window scale, 1 to 6, or auto",
    [KEY_FULLSCREEN] = "on or off",
    [KEY_RENDERER] = "default, opengl or sdl: from the next start",
    [KEY_BIND] = "SDL scancodes, one or two (0: none)",
};
static const char *const RENDERER_NAMES[] = {"default", "opengl", "sdl"}; /* by SaveRenderer */
#define DOC_COLUMN 24                                                     /* where an added line's comment starts */

/* What separates words: every blank st_str8_trim takes off but the line end. */
static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The next word of *rest (blanks between words), false at its end. */
static bool next_word(Str8 *rest, Str8 *word) {
    uint64_t i = 0;
    while (i < rest->len && is_blank(rest->data[i])) i++;
    uint64_t start = i;
    while (i < rest->len && !is_blank(rest->data[i])) i++;
    *word = st_str8_slice(*rest, start, i);
    *rest = st_str8_skip(*rest, i);
    return word->len > 0;
}

static int32_t key_find(Str8 name) {
    for (int32_t k = 0; k < KEY_COUNT; k++)
        if (st_str8_eq_cstr(name, KEY_NAMES[k])) return k;
    return -1;
}

static bool parse_int(Str8 s, int64_t lo, int64_t hi, int64_t *out) {
    int64_t v;
    if (!st_str8_parse_i64(s, &v) || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* Sets key k from `value` (trimmed, without the key). False, with what was expected in
   `want` and *st untouched, when the value is not one the key takes. Numbers are accepted
   for fullscreen and renderer too: that is how older games wrote them. */
static bool value_apply(SaveSettings *st, int32_t k, Str8 value, const char **want) {
    int64_t v = 0;
    if (k >= KEY_VOLUME && k < KEY_VOLUME + SAVE_VOLUMES) {
        *want = "a volume in percent, 0 to 100";
        if (!parse_int(value, 0, 100, &v)) return false;
        st->volume[k - KEY_VOLUME] = (int32_t)v;
    } else if (k == KEY_SCALE) {
        *want = "a window scale, 1 to 6, or auto";
        if (!st_str8_eq_cstr(value, "auto") && !parse_int(value, 1, SAVE_SCALE_MAX, &v)) return false;
        st->scale = (int32_t)v;
    } else if (k == KEY_FULLSCREEN) {
        *want = "on or off";
        bool on = st_str8_eq_cstr(value, "on") || st_str8_eq_cstr(value, "1");
        if (!on && !st_str8_eq_cstr(value, "off") && !st_str8_eq_cstr(value, "0")) return false;
        st->fullscreen = on;
    } else if (k == KEY_RENDERER) {
        *want = "default, opengl or sdl";
        int32_t r = -1;
        for (int32_t i = 0; i < 3; i++)
            if (st_str8_eq_cstr(value, RENDERER_NAMES[i]) || (value.len == 1 && value.data[0] == '0' + i)) r = i;
        if (r < 0) return false;
        st->renderer = r;
    } else {
        *want = "one or two key numbers, 0 to 511";
        Str8 rest = value, w;
        int64_t keys[SAVE_BIND_SLOTS] = {0};
        int32_t n = 0;
        while (next_word(&rest, &w)) {
            if (n == SAVE_BIND_SLOTS || !parse_int(w, 0, SAVE_KEY_MAX - 1, &keys[n])) return false;
            n++;
        }
        if (n == 0) return false;
        /* The front slot first, and one key once. */
        if (keys[0] == 0 || keys[0] == keys[1]) keys[0] = keys[1], keys[1] = 0;
        st->binds[k - KEY_BIND][0] = (uint16_t)keys[0];
        st->binds[k - KEY_BIND][1] = (uint16_t)keys[1];
    }
    return true;
}

static int value_format(char *buf, size_t cap, const SaveSettings *st, int32_t k) {
    if (k >= KEY_VOLUME && k < KEY_VOLUME + SAVE_VOLUMES) return snprintf(buf, cap, "%d", st->volume[k - KEY_VOLUME]);
    if (k == KEY_SCALE) return st->scale > 0 ? snprintf(buf, cap, "%d", st->scale) : snprintf(buf, cap, "auto");
    if (k == KEY_FULLSCREEN) return snprintf(buf, cap, "%s", st->fullscreen ? "on" : "off");
    if (k == KEY_RENDERER) {
        int32_t r = st->renderer >= 0 && st->renderer < 3 ? st->renderer : SAVE_RENDERER_DEFAULT;
        return snprintf(buf, cap, "%s", RENDERER_NAMES[r]);
    }
    const uint16_t *b = st->binds[k - KEY_BIND];
    return b[1] ? snprintf(buf, cap, "%u %u", b[0], b[1]) : snprintf(buf, cap, "%u", b[0]);
}

/* One setting line, `key` and `value` as found at columns `key_col` and `value_col`:
   applied, or a warning (when `warn`) and false. */
static bool apply_line(SaveSettings *st, const char *path, int line_no, int32_t k, Str8 key, Str8 value,
                       int64_t key_col, int64_t value_col, bool warn) {
    const char *want = NULL;
    if (k < 0) {
        if (warn)
            st_diag_report_at(DIAG_WARNING, path, line_no, key_col, "unknown setting '%s' (line skipped)",
                              ST_QUOTE(key));
        return false;
    }
    if (value_apply(st, k, value, &want)) return true;
    if (warn)
        st_diag_report_at(DIAG_WARNING, path, line_no, value.len ? value_col : key_col,
                          "expected %s for %s, found '%s' (line skipped)", want, KEY_NAMES[k], ST_QUOTE(value));
    return false;
}

/* ---- The progress file ---- */

/* No file yet: not a failure the player hears of (a first run), but a code and words all the same. */
static ErrorCode missing(Error *err, const char *path) {
    st_error_warn(err, ERROR_NOT_FOUND, path, 0, 0, "no such file");
    return ERROR_NOT_FOUND;
}

static ErrorCode corrupt(Error *err, const char *path, int line, const char *why) {
    /* Whole-file problems (line 0) have no line to point at. */
    st_error_warn(err, ERROR_PARSE, path, line, 0, "corrupt save (%s)", why);
    return ERROR_PARSE;
}

/* An older game's setting line ("setting scale 3", "bind fire 44 13"): read over
   d->settings, or skipped with a warning when `warn`. A setting never makes the progress
   unreadable. */
static void legacy_setting(SaveData *d, const char *path, int line_no, Str8 line, bool warn) {
    bool bind = st_str8_starts_with(line, STR8_LIT("bind "));
    Str8 rest = st_str8_skip(line, bind ? 5 : 8), name;
    next_word(&rest, &name);
    int64_t name_col = (int64_t)(name.data - line.data) + 1;
    Str8 value = st_str8_trim(rest);
    int64_t value_col = value.len ? (int64_t)(value.data - line.data) + 1 : name_col;
    int32_t k = -1;
    if (bind) {
        for (int32_t a = 0; a < SAVE_BIND_ACTIONS; a++)
            if (st_str8_eq_cstr(name, BIND_NAMES[a])) k = KEY_BIND + a;
    } else {
        k = key_find(name);
        if (k >= KEY_BIND) k = -1;
    }
    apply_line(&d->settings, path, line_no, k, name, value, name_col, value_col, warn);
    d->settings_inside = true;
}

/* The lines between the first and the checksum, into d. `v2`: setting lines may appear. */
static ErrorCode parse_body(SaveData *d, const char *path, Str8 body, bool v2, bool warn, Error *err) {
    Str8 rest = body, line;
    int line_no = 0;
    while (st_str8_next_line(&rest, &line)) {
        line_no++;
        if (line_no == 1) continue; /* the magic, already checked */
        if (v2 && (st_str8_starts_with(line, STR8_LIT("setting ")) || st_str8_starts_with(line, STR8_LIT("bind ")))) {
            legacy_setting(d, path, line_no, line, warn);
        } else if (st_str8_starts_with(line, STR8_LIT("furthest "))) {
            Str8 name = st_str8_skip(line, 9);
            if (!valid_name(name.data, name.len)) return corrupt(err, path, line_no, "bad level name");
            memcpy(d->furthest, name.data, name.len);
            d->furthest[name.len] = '\0';
        } else if (st_str8_starts_with(line, STR8_LIT("level "))) {
            Str8 words = st_str8_skip(line, 6), name, ticks, coins, extra;
            uint64_t t, c;
            if (d->level_count >= SAVE_MAX_LEVELS || !next_word(&words, &name) || !next_word(&words, &ticks) ||
                !next_word(&words, &coins) || next_word(&words, &extra) || !valid_name(name.data, name.len) ||
                !st_str8_parse_u64(ticks, 10, &t) || t > UINT32_MAX || !st_str8_parse_u64(coins, 10, &c) ||
                c > INT32_MAX)
                return corrupt(err, path, line_no, "bad level record");
            SaveLevel *l = &d->levels[d->level_count++];
            memcpy(l->file, name.data, name.len);
            l->file[name.len] = '\0';
            l->best_ticks = (uint32_t)t;
            l->best_coins = (int32_t)c;
        } else if (line.len != 0) {
            return corrupt(err, path, line_no, "unknown line");
        }
    }
    return ERROR_OK;
}

ErrorCode save_parse(SaveData *out, const char *path, Str8 text, Error *err) {
    st_error_clear(err);
    if (text.len == 0) return corrupt(err, path, 1, "not a save file");
    if (memchr(text.data, '\0', text.len)) return corrupt(err, path, 0, "binary data");
    /* Another version's file may not even use our checksum: say what it is before judging. */
    int64_t eol = st_str8_find_byte(text, '\n', 0);
    Str8 first = st_str8_prefix(text, eol < 0 ? text.len : (uint64_t)eol);
    bool v1 = st_str8_eq_cstr(first, SAVE_MAGIC_V1), v2 = st_str8_eq_cstr(first, SAVE_MAGIC);
    if (st_str8_starts_with(first, STR8_LIT(SAVE_FAMILY)) && !v1 && !v2) {
        st_error_warn(err, ERROR_VERSION, path, 1, 0, "a save of another version ('%s', this game reads '%s')",
                      ST_QUOTE(first), SAVE_MAGIC);
        return ERROR_VERSION;
    }
    if (!v1 && !v2) return corrupt(err, path, 1, "not a save file");

    /* The checksum line, the last, covers every byte before it. */
    int64_t ck = -1;
    for (uint64_t at = 0; at < text.len;) {
        if (st_str8_starts_with(st_str8_skip(text, at), STR8_LIT("checksum "))) ck = (int64_t)at;
        int64_t nl = st_str8_find_byte(text, '\n', at);
        if (nl < 0) break;
        at = (uint64_t)nl + 1;
    }
    if (ck < 0) return corrupt(err, path, 0, "no checksum");
    Str8 value = st_str8_skip(text, (uint64_t)ck + sizeof "checksum " - 1);
    int64_t end = st_str8_find_byte(value, '\n', 0);
    if (end >= 0 && (uint64_t)end + 1 != value.len) return corrupt(err, path, 0, "data after the checksum");
    if (end >= 0) value = st_str8_prefix(value, (uint64_t)end);
    uint64_t stored = 0;
    if (value.len > 16 || !st_str8_parse_u64(value, 16, &stored)) return corrupt(err, path, 0, "bad checksum line");
    if (stored != checksum(text.data, (size_t)ck)) return corrupt(err, path, 0, "checksum mismatch");

    SaveData d = *out;
    memset(d.furthest, 0, sizeof d.furthest);
    memset(d.levels, 0, sizeof d.levels);
    d.level_count = 0;
    d.format = v1 ? 1 : 2;
    d.settings_inside = false;
    Str8 body = st_str8_prefix(text, (uint64_t)ck);
    ErrorCode st = parse_body(&d, path, body, v2, false, err);
    if (st != ERROR_OK) return st;
    /* The warnings for skipped settings only once the progress is known to be good: a file
       set aside as a whole gets one message. */
    if (d.settings_inside) {
        SaveData again = *out;
        parse_body(&again, path, body, v2, true, err);
    }
    *out = d;
    return ERROR_OK;
}

ErrorCode save_load(SaveData *out, const char *path, Error *err) {
    st_error_clear(err);
    SCRATCH_SCOPE(tmp);
    Str8 text;
    Error why;
    if (!st_os_read_file(tmp.arena, path, SAVE_FILE_MAX, &text, &why)) {
        /* Nothing there: no file, or a file where a folder on the way should be. */
        if (why.code == ERROR_NOT_FOUND) return missing(err, path);
        if (why.code == ERROR_TOO_BIG) return corrupt(err, path, 0, "file too large");
        st_error_warn(err, ERROR_IO, path, 0, 0, "cannot read save (%s)", st_error_what(&why));
        return ERROR_IO;
    }
    return save_parse(out, path, text, err);
}

static bool set_aside_fail(Error *err, const char *path, const char *moved_to, int e) {
    st_error_set(err, ERROR_IO, NULL, 0, 0, "%s: cannot set aside as %s: %s", path, moved_to, strerror(e));
    if (err) err->err_no = e;
    return false;
}

bool save_set_aside(const char *path, char *moved_to, size_t moved_cap, Error *err) {
    for (int n = 0; n < SAVE_ASIDE_MAX; n++) {
        int len =
            n ? snprintf(moved_to, moved_cap, "%s.%d.bad", path, n) : snprintf(moved_to, moved_cap, "%s.bad", path);
        if (len < 0 || (size_t)len >= moved_cap) {
            return st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "%s: cannot set aside: path too long", path);
        }
        OsFileInfo taken = st_os_link_info(moved_to);
        if (taken.kind != OS_FILE_NONE) continue; /* an earlier bad file, kept too */
        if (taken.error != ENOENT) {
            return set_aside_fail(err, path, moved_to, taken.error);
        }
        /* A name taken between the look and here is overwritten: only another copy of the
           game could race us, and it would be setting aside the same file. */
        if (st_os_rename(path, moved_to)) return true;
        return set_aside_fail(err, path, moved_to, errno);
    }
    return st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "%s: cannot set aside: no free name up to %s.%d.bad", path,
                        path, SAVE_ASIDE_MAX - 1);
}

/* The settings as an older game wrote them into the progress, so that it can still read
   them there. */
static void format_legacy_settings(Str8Buf *o, const SaveSettings *st) {
    if (st->scale > 0) st_str8_buf_fmt(o, "setting scale %d\n", st->scale);
    st_str8_buf_fmt(o, "setting fullscreen %d\n", st->fullscreen ? 1 : 0);
    if (st->renderer) st_str8_buf_fmt(o, "setting renderer %d\n", st->renderer);
    for (int32_t i = 0; i < SAVE_VOLUMES; i++)
        st_str8_buf_fmt(o, "setting %s %d\n", KEY_NAMES[KEY_VOLUME + i], st->volume[i]);
    for (int32_t a = 0; a < SAVE_BIND_ACTIONS; a++)
        st_str8_buf_fmt(o, "bind %s %u %u\n", BIND_NAMES[a], st->binds[a][0], st->binds[a][1]);
}

Str8 save_format(Arena *a, const SaveData *d) {
    /* Every line is bounded: a level line by its name, the settings by their numbers. */
    size_t cap = (size_t)SAVE_MAX_LEVELS * (SAVE_NAME_MAX + 40) + SAVE_NAME_MAX + 2048;
    Str8Buf o = st_str8_buf(a, cap);
    st_str8_buf_fmt(&o, "%s\n", SAVE_MAGIC);
    if (d->furthest[0]) st_str8_buf_fmt(&o, "furthest %s\n", d->furthest);
    for (int32_t i = 0; i < d->level_count && i < SAVE_MAX_LEVELS; i++)
        st_str8_buf_fmt(&o, "level %s %u %d\n", d->levels[i].file, d->levels[i].best_ticks, d->levels[i].best_coins);
    if (d->settings_inside) format_legacy_settings(&o, &d->settings);
    if (!o.cut) st_str8_buf_fmt(&o, "checksum %016llx\n", (unsigned long long)checksum(o.data, o.len));
    /* The bound is worked out to fit: a cut is a bug or a full arena, never a save. */
    return o.cut ? (Str8){0} : st_str8_buf_str(&o);
}

/* Atomically, after a mkdir -p of the folder part (none, or the root: nothing to make). */
static bool write_text(const char *path, Str8 text, Error *err) {
    char dir[SAVE_PATH_MAX];
    if (strlen(path) >= sizeof dir) {
        return st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "%.100s...: path too long", path);
    }
    Str8 folder = st_path_dir(st_str8_cstr(path));
    snprintf(dir, sizeof dir, "%.*s", STR8_FMT(folder));
    if (folder.len && !st_str8_eq_cstr(folder, "/") && !st_os_make_dirs(dir)) {
        int e = errno;
        st_error_set(err, e == ENOENT || e == ENOTDIR ? ERROR_NOT_FOUND : ERROR_IO, NULL, 0, 0,
                     "%s: cannot create directory: %s", path, strerror(e));
        if (err) err->err_no = e;
        return false;
    }
    return st_os_write_file_atomic(path, text.data, text.len, err);
}

bool save_write(const SaveData *d, const char *path, Error *err) {
    SCRATCH_SCOPE(tmp);
    Str8 text = save_format(tmp.arena, d);
    if (!text.len)
        return st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "%s: cannot write: out of scratch memory", path);
    return write_text(path, text, err);
}

/* ---- The settings file ---- */

/* A line cut into its key, its value and its comment (from the first '#'). */
typedef struct SettingLine {
    Str8 key, value, comment;
    int64_t key_col, value_col, comment_col; /* 1-based; comment_col 0: none */
} SettingLine;

static SettingLine split_line(Str8 line) {
    SettingLine s = {0};
    int64_t hash = st_str8_find_byte(line, '#', 0);
    Str8 body = hash < 0 ? line : st_str8_prefix(line, (uint64_t)hash);
    if (hash >= 0) s.comment = st_str8_trim_right(st_str8_skip(line, (uint64_t)hash)), s.comment_col = hash + 1;
    Str8 rest = body;
    if (next_word(&rest, &s.key)) s.key_col = (int64_t)(s.key.data - line.data) + 1;
    s.value = st_str8_trim(rest);
    s.value_col = s.value.len ? (int64_t)(s.value.data - line.data) + 1 : 0;
    return s;
}

int32_t save_settings_parse(SaveSettings *st, const char *path, Str8 text) {
    Str8 rest = text, line;
    int line_no = 0;
    int32_t skipped = 0;
    while (st_str8_next_line(&rest, &line)) {
        line_no++;
        SettingLine s = split_line(line);
        if (!s.key.len) continue; /* blank, or a comment */
        skipped += !apply_line(st, path, line_no, key_find(s.key), s.key, s.value, s.key_col, s.value_col, true);
    }
    return skipped;
}

ErrorCode save_settings_load(SaveSettings *st, const char *path, int32_t *skipped, Error *err) {
    st_error_clear(err);
    if (skipped) *skipped = 0;
    SCRATCH_SCOPE(tmp);
    Str8 text;
    Error why;
    if (!st_os_read_file(tmp.arena, path, SAVE_FILE_MAX, &text, &why)) {
        if (why.code == ERROR_NOT_FOUND) return missing(err, path);
        st_error_warn(err, ERROR_IO, path, 0, 0, "cannot read the settings (%s)", st_error_what(&why));
        return ERROR_IO;
    }
    int32_t n = save_settings_parse(st, path, text);
    if (skipped) *skipped = n;
    return ERROR_OK;
}

/* "key value", then the comment at its old column when there is room (one blank else). */
static void format_setting(Str8Buf *o, const SaveSettings *st, int32_t k, Str8 comment, int64_t comment_col) {
    char value[32];
    value_format(value, sizeof value, st, k);
    size_t start = o->len;
    st_str8_buf_fmt(o, "%s %s", KEY_NAMES[k], value);
    if (comment.len) {
        int64_t at = (int64_t)(o->len - start) + 1;
        for (int64_t c = at; c < comment_col; c++) st_str8_buf_fmt(o, " ");
        if (at >= comment_col) st_str8_buf_fmt(o, " ");
        st_str8_buf_put(o, comment);
    }
    st_str8_buf_fmt(o, "\n");
}

Str8 save_settings_format(Arena *a, const SaveSettings *st, Str8 old) {
    /* A line of `old` grows by at most its new value and one blank; added lines and the
       header are short. */
    uint64_t lines = 1;
    for (uint64_t i = 0; i < old.len; i++) lines += old.data[i] == '\n';
    uint64_t cap = old.len + lines * 48 + KEY_COUNT * 96 + 512;
    Str8Buf o = st_str8_buf(a, cap);
    if (!old.len)
        st_str8_buf_fmt(&o, "# Arena Dungeon's settings: one \"key value\" a line; '#' starts a comment.\n"
                            "# A bad line is skipped with a warning and its setting keeps its default. The game\n"
                            "# rewrites the values it knows and keeps every other line as it is.\n");
    bool seen[KEY_COUNT] = {0};
    Str8 rest = old, line;
    while (st_str8_next_line(&rest, &line)) {
        SettingLine s = split_line(line);
        int32_t k = key_find(s.key);
        if (k < 0) {
            /* As it was, but for carriage returns at its end: the line end is ours. */
            while (line.len && line.data[line.len - 1] == '\r') line.len--;
            st_str8_buf_put(&o, line);
            st_str8_buf_fmt(&o, "\n");
            continue;
        }
        seen[k] = true;
        format_setting(&o, st, k, s.comment, s.comment_col);
    }
    for (int32_t k = 0; k < KEY_COUNT; k++) {
        if (seen[k]) continue;
        char doc[64];
        snprintf(doc, sizeof doc, "# %s", KEY_DOCS[k] ? KEY_DOCS[k] : "");
        format_setting(&o, st, k, KEY_DOCS[k] ? st_str8_cstr(doc) : (Str8){0}, DOC_COLUMN + 1);
    }
    return o.cut ? (Str8){0} : st_str8_buf_str(&o);
}

bool save_settings_write(const SaveSettings *st, const char *path, Error *err) {
    SCRATCH_SCOPE(tmp);
    Str8 old = {0};
    /* What a person wrote there is kept; a file that cannot be read gives a fresh one. */
    if (!st_os_read_file(tmp.arena, path, SAVE_FILE_MAX, &old, NULL)) old = (Str8){0};
    Str8 text = save_settings_format(tmp.arena, st, old);
    if (!text.len)
        return st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "%s: cannot write: out of scratch memory", path);
    return write_text(path, text, err);
}
