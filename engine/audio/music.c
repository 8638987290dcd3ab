/* music.c - see music.h. Two passes: the text is parsed into a Score in scratch memory
   (every check done, with its line and column), then each channel's notes are rendered
   with st_synth_render into a float mix in scratch, and only the final PCM goes to `perm`. */
#include <strata/audio/music.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <strata/audio/synth.h>
#include <strata/core/base.h>
#include <strata/core/diag.h>
#include <strata/core/hash.h>
#include <strata/core/os_file.h>
#include <strata/core/utf8.h>

#define MUSIC_NAME_MAX 16
#define MUSIC_MAX_INSTRUMENTS 32
#define MUSIC_MAX_PATTERNS 64
#define MUSIC_MAX_ROWS 256
#define MUSIC_MAX_ORDER 256
#define MUSIC_CUT_SECONDS 0.003f /* the fade of a note cut by the next: no click */
#define MUSIC_MIN_ATTACK 0.001f  /* an instant attack clicks; 1 ms is still a hard hit */
#define MUSIC_MAX_RELEASE 2.0f
#define MUSIC_NOISE_CLOCK 16.0f /* noise notes: C-6 changes 16.7k times a second, a hiss */

enum { CELL_HOLD, CELL_NOTE, CELL_OFF };
typedef struct Cell {
    uint8_t kind, note, instrument, volume;
} Cell;

typedef struct Instrument {
    Str8 name;
    SynthPatch patch; /* everything but pitch, gate and release-on-cut */
    float slide, slide_time;
    uint32_t set; /* bit per setting, to refuse one given twice */
} Instrument;

typedef struct Pattern {
    Str8 name;
    uint32_t rows, filled;
    int64_t line;
    Cell *cells; /* rows * channels, row by row */
} Pattern;

typedef struct Score {
    int64_t tempo, rows_per_beat, channels;
    int64_t tempo_line, rows_line, channels_line, volume_line, order_line;
    float volume;
    Instrument instruments[MUSIC_MAX_INSTRUMENTS];
    uint32_t instrument_count;
    Pattern patterns[MUSIC_MAX_PATTERNS];
    uint32_t pattern_count;
    Str8 order_names[MUSIC_MAX_ORDER];
    int64_t order_cols[MUSIC_MAX_ORDER];
    uint32_t order[MUSIC_MAX_ORDER], order_count;
} Score;

typedef struct Parser {
    const char *path;
    Error *err;
    Arena *tmp;
    Score *s;
    Str8 line; /* the current line, comment cut off; columns count from its first byte */
    int64_t line_no;
    Pattern *open;                      /* between `pattern` and `end` */
    int32_t sticky[MUSIC_MAX_CHANNELS]; /* the instrument each channel plays, -1: none yet */
} Parser;

static bool fail_(Parser *p, int64_t line, int64_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail_(Parser *p, int64_t line, int64_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st_error_vset(p->err, ERROR_PARSE, p->path, line, col, fmt, ap);
    va_end(ap);
    return false;
}

/* An arena refused: `lead`, then the arena's words. */
static bool fail_memory_(Parser *p, const char *lead) {
    fail_(p, 0, 0, "%s", lead);
    return st_arena_error(p->err);
}

/* ---- Words --------------------------------------------------------------------------- */

static bool blank_(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static bool next_word_(Str8 *rest, Str8 *word) {
    uint64_t i = 0, j;
    while (i < rest->len && blank_(rest->data[i])) i++;
    for (j = i; j < rest->len && !blank_(rest->data[j]);) j++;
    *word = st_str8_slice(*rest, i, j);
    *rest = st_str8_skip(*rest, j);
    return word->len > 0;
}

static int64_t col_(const Parser *p, Str8 w) { return (int64_t)(w.data - p->line.data) + 1; }
static int64_t end_col_(const Parser *p) { return (int64_t)p->line.len + 1; }

static bool expect_end_(Parser *p, Str8 rest, const char *after) {
    Str8 w;
    if (!next_word_(&rest, &w)) return true;
    return fail_(p, p->line_no, col_(p, w), "expected the end of the line after %s, found '%s'", after, ST_QUOTE(w));
}

static bool name_ok_(Str8 w) {
    if (w.len == 0 || w.len > MUSIC_NAME_MAX) return false;
    for (uint64_t i = 0; i < w.len; i++) {
        char c = w.data[i];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!letter && !(i > 0 && ((c >= '0' && c <= '9') || c == '_'))) return false;
    }
    return true;
}

static bool volume_word_(Str8 w) { /* v0 .. v100, told apart from instrument names by shape */
    if (w.len < 2 || w.data[0] != 'v') return false;
    for (uint64_t i = 1; i < w.len; i++)
        if (w.data[i] < '0' || w.data[i] > '9') return false;
    return true;
}

/* [-]digits[.digits], at most 9 digits: exact in a double, then rounded once to float, so
   "0.1" is the same float everywhere without depending on strtod or the locale. */
static bool parse_decimal_(Str8 w, float *out) {
    uint64_t i = 0, digits = 0, frac = 0, mant = 0;
    bool neg = w.len > 0 && w.data[0] == '-', dot = false;
    for (i = neg; i < w.len; i++) {
        char c = w.data[i];
        if (c == '.' && !dot && digits > 0) {
            dot = true;
            continue;
        }
        if (c < '0' || c > '9' || ++digits > 9) return false;
        mant = mant * 10 + (uint64_t)(c - '0');
        frac += dot;
    }
    if (digits == 0 || (dot && frac == 0)) return false;
    double v = (double)mant;
    for (uint64_t k = 0; k < frac; k++) v /= 10;
    *out = (float)(neg ? -v : v);
    return true;
}

/* C-4 = MIDI 60; -1 when it is not a note. */
static int note_of_(Str8 w) {
    static const int semitone[7] = {9, 11, 0, 2, 4, 5, 7}; /* A B C D E F G */
    if (w.len != 3 || w.data[0] < 'A' || w.data[0] > 'G' || w.data[2] < '0' || w.data[2] > '9') return -1;
    int n = semitone[w.data[0] - 'A'];
    if (w.data[1] == '#' && w.data[0] != 'E' && w.data[0] != 'B') n++;
    else if (w.data[1] != '-') return -1;
    return (w.data[2] - '0' + 1) * 12 + n;
}

/* ---- Top-level lines ----------------------------------------------------------------- */

static bool parse_int_(Parser *p, Str8 *rest, Str8 key, int64_t lo, int64_t hi, int64_t *out, int64_t *line_seen) {
    if (*line_seen)
        return fail_(p, p->line_no, col_(p, key), "'%s' given twice (first on line %lld)", ST_QUOTE(key),
                     (long long)*line_seen);
    Str8 w;
    int64_t v;
    if (!next_word_(rest, &w))
        return fail_(p, p->line_no, end_col_(p), "expected a number after '%s', found the end of the line",
                     ST_QUOTE(key));
    if (!st_str8_parse_i64(w, &v))
        return fail_(p, p->line_no, col_(p, w), "expected a number after '%s', found '%s'", ST_QUOTE(key), ST_QUOTE(w));
    if (v < lo || v > hi)
        return fail_(p, p->line_no, col_(p, w), "%s %lld is out of range (%lld..%lld)", ST_QUOTE(key), (long long)v,
                     (long long)lo, (long long)hi);
    *out = v;
    *line_seen = p->line_no;
    return expect_end_(p, *rest, "the number");
}

typedef struct Setting {
    const char *key;
    float lo, hi;
    size_t offset; /* into Instrument */
} Setting;

#define AT_(f) offsetof(Instrument, f)
static const Setting settings_[] = {
    {"wave", 0, 0, 0},
    {"duty", 0.05f, 0.95f, AT_(patch.duty)},
    {"attack", 0, 2, AT_(patch.attack)},
    {"decay", 0, 4, AT_(patch.decay)},
    {"sustain", 0, 1, AT_(patch.sustain)},
    {"release", 0, MUSIC_MAX_RELEASE, AT_(patch.release)},
    {"volume", 0, 1, AT_(patch.volume)},
    {"vibrato", 0, 2, AT_(patch.vibrato_depth)},
    {"vibrato_rate", 0, 20, AT_(patch.vibrato_rate)},
    {"vibrato_delay", 0, 2, AT_(patch.vibrato_delay)},
    {"slide", -48, 48, AT_(slide)},
    {"slide_time", 0, 4, AT_(slide_time)},
    {"lowpass", 20, 20000, AT_(patch.lowpass)},
    {"noise", 0, 1, AT_(patch.noise_mix)},
};
static const char *const waves_[SYNTH_WAVE_COUNT] = {"square", "triangle", "saw", "sine", "noise"};

static int32_t find_instrument_(const Score *s, Str8 name) {
    for (uint32_t i = 0; i < s->instrument_count; i++)
        if (st_str8_eq(s->instruments[i].name, name)) return (int32_t)i;
    return -1;
}

static bool parse_setting_(Parser *p, Instrument *in, Str8 w) {
    int64_t eq = st_str8_find_byte(w, '=', 0);
    if (eq <= 0) return fail_(p, p->line_no, col_(p, w), "expected setting=value, found '%s'", ST_QUOTE(w));
    Str8 key = st_str8_prefix(w, (uint64_t)eq), value = st_str8_skip(w, (uint64_t)eq + 1);
    uint32_t k = 0;
    while (k < ARRAY_COUNT(settings_) && !st_str8_eq_cstr(key, settings_[k].key)) k++;
    if (k == ARRAY_COUNT(settings_))
        return fail_(p, p->line_no, col_(p, w),
                     "unknown setting '%s' (wave, duty, attack, decay, sustain, release, volume, "
                     "vibrato, vibrato_rate, vibrato_delay, slide, slide_time, lowpass, noise)",
                     ST_QUOTE(key));
    if (in->set & (1u << k)) return fail_(p, p->line_no, col_(p, w), "'%s' set twice", settings_[k].key);
    in->set |= 1u << k;
    int64_t vcol = col_(p, w) + eq + 1;
    if (k == 0) {
        for (uint32_t i = 0; i < SYNTH_WAVE_COUNT; i++)
            if (st_str8_eq_cstr(value, waves_[i])) {
                in->patch.wave = (SynthWave)i;
                return true;
            }
        return fail_(p, p->line_no, vcol, "expected square, triangle, saw, sine or noise, found '%s'", ST_QUOTE(value));
    }
    float v;
    if (!parse_decimal_(value, &v))
        return fail_(p, p->line_no, vcol, "expected a number for '%s', found '%s'", settings_[k].key, ST_QUOTE(value));
    if (v < settings_[k].lo || v > settings_[k].hi)
        return fail_(p, p->line_no, vcol, "%s=%s is out of range (%g..%g)", settings_[k].key, ST_QUOTE(value),
                     (double)settings_[k].lo, (double)settings_[k].hi);
    memcpy((char *)in + settings_[k].offset, &v, sizeof v);
    return true;
}

static bool parse_instrument_(Parser *p, Str8 rest) {
    Score *s = p->s;
    Str8 name, w;
    if (!next_word_(&rest, &name))
        return fail_(p, p->line_no, end_col_(p), "expected an instrument name, found the end of the line");
    if (!name_ok_(name) || volume_word_(name))
        return fail_(p, p->line_no, col_(p, name),
                     "expected an instrument name (a letter, then letters, digits or '_', up to 16; "
                     "not v<digits>), found '%s'",
                     ST_QUOTE(name));
    if (find_instrument_(s, name) >= 0)
        return fail_(p, p->line_no, col_(p, name), "instrument '%s' defined twice", ST_QUOTE(name));
    if (s->instrument_count == MUSIC_MAX_INSTRUMENTS)
        return fail_(p, p->line_no, col_(p, name), "too many instruments (at most %d)", MUSIC_MAX_INSTRUMENTS);
    Instrument *in = &s->instruments[s->instrument_count];
    *in = (Instrument){.name = name, .patch = {.volume = 1, .vibrato_rate = 5.5f}};
    while (next_word_(&rest, &w))
        if (!parse_setting_(p, in, w)) return false;
    if (!(in->set & 1u)) return fail_(p, p->line_no, col_(p, name), "instrument '%s' has no wave", ST_QUOTE(name));
    s->instrument_count++;
    return true;
}

static bool parse_pattern_(Parser *p, Str8 rest, int64_t keyword_col) {
    Score *s = p->s;
    Str8 name, w;
    if (!s->channels_line) return fail_(p, p->line_no, keyword_col, "'channels' must come before the first pattern");
    if (!next_word_(&rest, &name))
        return fail_(p, p->line_no, end_col_(p), "expected a pattern name, found the end of the line");
    if (!name_ok_(name))
        return fail_(p, p->line_no, col_(p, name),
                     "expected a pattern name (a letter, then letters, digits or '_', up to 16), "
                     "found '%s'",
                     ST_QUOTE(name));
    for (uint32_t i = 0; i < s->pattern_count; i++)
        if (st_str8_eq(s->patterns[i].name, name))
            return fail_(p, p->line_no, col_(p, name), "pattern '%s' defined twice (first on line %lld)",
                         ST_QUOTE(name), (long long)s->patterns[i].line);
    if (s->pattern_count == MUSIC_MAX_PATTERNS)
        return fail_(p, p->line_no, col_(p, name), "too many patterns (at most %d)", MUSIC_MAX_PATTERNS);
    int64_t rows;
    if (!next_word_(&rest, &w))
        return fail_(p, p->line_no, end_col_(p), "expected the number of rows, found the end of the line");
    if (!st_str8_parse_i64(w, &rows))
        return fail_(p, p->line_no, col_(p, w), "expected the number of rows, found '%s'", ST_QUOTE(w));
    if (rows < 1 || rows > MUSIC_MAX_ROWS)
        return fail_(p, p->line_no, col_(p, w), "%lld rows is out of range (1..%d)", (long long)rows, MUSIC_MAX_ROWS);
    if (!expect_end_(p, rest, "the number of rows")) return false;
    Pattern *pat = &s->patterns[s->pattern_count];
    *pat = (Pattern){.name = name, .rows = (uint32_t)rows, .line = p->line_no};
    pat->cells = st_arena_push_array(p->tmp, Cell, (uint64_t)rows * (uint64_t)s->channels);
    if (!pat->cells) return fail_memory_(p, "out of memory: ");
    s->pattern_count++;
    p->open = pat;
    for (int c = 0; c < MUSIC_MAX_CHANNELS; c++) p->sticky[c] = -1;
    return true;
}

static bool parse_order_(Parser *p, Str8 rest, int64_t keyword_col) {
    Score *s = p->s;
    Str8 w;
    if (s->order_line)
        return fail_(p, p->line_no, keyword_col, "'order' given twice (first on line %lld)", (long long)s->order_line);
    s->order_line = p->line_no;
    while (next_word_(&rest, &w)) {
        if (s->order_count == MUSIC_MAX_ORDER)
            return fail_(p, p->line_no, col_(p, w), "the order is too long (at most %d patterns)", MUSIC_MAX_ORDER);
        s->order_names[s->order_count] = w; /* resolved at the end: patterns may follow */
        s->order_cols[s->order_count++] = col_(p, w);
    }
    if (!s->order_count) return fail_(p, p->line_no, end_col_(p), "expected a pattern name, found the end of the line");
    return true;
}

static bool parse_top_(Parser *p) {
    Score *s = p->s;
    Str8 rest = p->line, key;
    if (!next_word_(&rest, &key)) return true;
    int64_t kcol = col_(p, key);
    if (st_str8_eq_cstr(key, "tempo")) return parse_int_(p, &rest, key, 40, 300, &s->tempo, &s->tempo_line);
    if (st_str8_eq_cstr(key, "rows_per_beat"))
        return parse_int_(p, &rest, key, 1, 16, &s->rows_per_beat, &s->rows_line);
    if (st_str8_eq_cstr(key, "channels")) {
        if (s->pattern_count) return fail_(p, p->line_no, kcol, "'channels' must come before the first pattern");
        return parse_int_(p, &rest, key, 1, MUSIC_MAX_CHANNELS, &s->channels, &s->channels_line);
    }
    if (st_str8_eq_cstr(key, "volume")) {
        Str8 w;
        if (s->volume_line)
            return fail_(p, p->line_no, kcol, "'volume' given twice (first on line %lld)", (long long)s->volume_line);
        if (!next_word_(&rest, &w))
            return fail_(p, p->line_no, end_col_(p), "expected a number after 'volume', found the end of the line");
        if (!parse_decimal_(w, &s->volume))
            return fail_(p, p->line_no, col_(p, w), "expected a number after 'volume', found '%s'", ST_QUOTE(w));
        if (s->volume < 0 || s->volume > 1)
            return fail_(p, p->line_no, col_(p, w), "volume %s is out of range (0..1)", ST_QUOTE(w));
        s->volume_line = p->line_no;
        return expect_end_(p, rest, "the number");
    }
    if (st_str8_eq_cstr(key, "instrument")) return parse_instrument_(p, rest);
    if (st_str8_eq_cstr(key, "pattern")) return parse_pattern_(p, rest, kcol);
    if (st_str8_eq_cstr(key, "order")) return parse_order_(p, rest, kcol);
    if (st_str8_eq_cstr(key, "end")) return fail_(p, p->line_no, kcol, "'end' outside a pattern");
    return fail_(p, p->line_no, kcol,
                 "expected tempo, rows_per_beat, channels, volume, instrument, pattern or order, "
                 "found '%s'",
                 ST_QUOTE(key));
}

/* ---- Pattern rows -------------------------------------------------------------------- */

static bool parse_cell_(Parser *p, Str8 text, int channel, Cell *out) {
    Str8 w, rest = text;
    if (!next_word_(&rest, &w))
        return fail_(p, p->line_no, col_(p, text), "expected a note, '---' or '===', found nothing");
    *out = (Cell){.kind = CELL_HOLD, .volume = 100};
    if (st_str8_eq_cstr(w, "---") || st_str8_eq_cstr(w, "===")) {
        out->kind = w.data[0] == '-' ? CELL_HOLD : CELL_OFF;
        if (!next_word_(&rest, &w)) return true;
        return fail_(p, p->line_no, col_(p, w), "expected '|' or the end of the row, found '%s'", ST_QUOTE(w));
    }
    int note = note_of_(w);
    if (note < 0)
        return fail_(p, p->line_no, col_(p, w), "expected a note (C-4, D#5), '---' or '===', found '%s'", ST_QUOTE(w));
    out->kind = CELL_NOTE;
    out->note = (uint8_t)note;
    int64_t note_col = col_(p, w);
    int32_t instrument = -1;
    bool has_volume = false;
    while (next_word_(&rest, &w)) {
        if (volume_word_(w) && !has_volume) {
            int64_t v = 101;
            if (w.len <= 4) st_str8_parse_i64(st_str8_skip(w, 1), &v);
            if (v > 100) return fail_(p, p->line_no, col_(p, w), "volume %s is out of range (v0..v100)", ST_QUOTE(w));
            out->volume = (uint8_t)v;
            has_volume = true;
        } else if (instrument < 0 && !has_volume && name_ok_(w)) {
            instrument = find_instrument_(p->s, w);
            if (instrument < 0) return fail_(p, p->line_no, col_(p, w), "unknown instrument '%s'", ST_QUOTE(w));
        } else {
            return fail_(p, p->line_no, col_(p, w), "expected '|' or the end of the row, found '%s'", ST_QUOTE(w));
        }
    }
    if (instrument < 0) instrument = p->sticky[channel];
    if (instrument < 0)
        return fail_(p, p->line_no, note_col,
                     "the note has no instrument (the first note of a channel in a pattern names one)");
    p->sticky[channel] = instrument;
    out->instrument = (uint8_t)instrument;
    return true;
}

static bool parse_row_(Parser *p) {
    Pattern *pat = p->open;
    Str8 rest = p->line, first;
    if (!next_word_(&rest, &first)) return true;
    if (st_str8_eq_cstr(first, "end")) {
        if (!expect_end_(p, rest, "'end'")) return false;
        if (pat->filled != pat->rows)
            return fail_(p, p->line_no, col_(p, first), "pattern '%s' has %u row%s, expected %u", ST_QUOTE(pat->name),
                         pat->filled, pat->filled == 1 ? "" : "s", pat->rows);
        p->open = NULL;
        return true;
    }
    if (pat->filled == pat->rows)
        return fail_(p, p->line_no, col_(p, first), "pattern '%s' has more than %u row%s", ST_QUOTE(pat->name),
                     pat->rows, pat->rows == 1 ? "" : "s");
    int64_t cells = 1;
    for (uint64_t i = 0; i < p->line.len; i++) cells += p->line.data[i] == '|';
    if (cells != p->s->channels)
        return fail_(p, p->line_no, col_(p, first), "expected %lld cells split by '|', found %lld",
                     (long long)p->s->channels, (long long)cells);
    Str8 line = p->line, cell;
    for (int c = 0; st_str8_next_token(&line, '|', &cell); c++)
        if (!parse_cell_(p, cell, c, &pat->cells[pat->filled * p->s->channels + (uint32_t)c])) return false;
    if (cells > 1 && p->line.data[p->line.len - 1] == '|') /* next_token drops an empty last cell */
        return fail_(p, p->line_no, end_col_(p), "expected a note, '---' or '===', found nothing");
    pat->filled++;
    return true;
}

/* The line without its comment: a '#' that starts a word ("C#4" is a note, not one). */
static Str8 strip_comment_(Str8 line) {
    for (uint64_t i = 0; i < line.len; i++)
        if (line.data[i] == '#' && (i == 0 || blank_(line.data[i - 1]))) return st_str8_prefix(line, i);
    return line;
}

static bool parse_(Parser *p, Str8 text) {
    Score *s = p->s;
    if (st_str8_starts_with(text, STR8_LIT("\xEF\xBB\xBF"))) text = st_str8_skip(text, 3);
    Str8 raw;
    while (st_str8_next_line(&text, &raw)) {
        p->line_no++;
        p->line = strip_comment_(raw);
        if (!(p->open ? parse_row_(p) : parse_top_(p))) return false;
    }
    if (p->open) return fail_(p, p->open->line, 1, "pattern '%s' has no 'end'", ST_QUOTE(p->open->name));
    if (!s->tempo_line) return fail_(p, 0, 0, "no 'tempo' line");
    if (!s->channels_line) return fail_(p, 0, 0, "no 'channels' line");
    if (!s->order_line) return fail_(p, 0, 0, "no 'order' line");
    for (uint32_t i = 0; i < s->order_count; i++) {
        uint32_t k = 0;
        while (k < s->pattern_count && !st_str8_eq(s->patterns[k].name, s->order_names[i])) k++;
        if (k == s->pattern_count)
            return fail_(p, s->order_line, s->order_cols[i], "unknown pattern '%s'", ST_QUOTE(s->order_names[i]));
        s->order[i] = k;
    }
    return true;
}

/* ---- Rendering ----------------------------------------------------------------------- */

static uint64_t row_frame_(const Score *s, uint64_t row) {
    return row * AUDIO_RATE * 60 / (uint64_t)(s->tempo * s->rows_per_beat);
}

static void render_note_(const Score *s, float *mix, uint64_t start, uint64_t gate, bool cut, Cell c, uint32_t seed) {
    const Instrument *in = &s->instruments[c.instrument];
    SynthPatch patch = in->patch;
    float gain = in->patch.volume * (float)c.volume / 100.0f * s->volume;
    if (!(gain > 0) || gate == 0) return; /* a patch volume of 0 would mean "default" */
    patch.volume = gain;
    patch.freq_start = st_synth_note_hz(c.note) * (patch.wave == SYNTH_NOISE ? MUSIC_NOISE_CLOCK : 1);
    if (in->slide != 0) {
        patch.freq_end = patch.freq_start * st_synth_exp2(in->slide / 12.0f);
        patch.sweep = SYNTH_SWEEP_EXP;
        patch.sweep_time = in->slide_time;
    }
    if (patch.attack < MUSIC_MIN_ATTACK) patch.attack = MUSIC_MIN_ATTACK;
    patch.duration = (float)((double)gate / AUDIO_RATE);
    if (cut) patch.release = MUSIC_CUT_SECONDS;
    st_synth_render(&patch, mix + start, st_synth_patch_frames(&patch, AUDIO_RATE), AUDIO_RATE, seed);
}

static void render_(const Score *s, float *mix, uint64_t song_frames) {
    for (uint32_t ch = 0; ch < (uint32_t)s->channels; ch++) {
        bool on = false;
        Cell playing = {0};
        uint64_t on_start = 0, on_row = 0, row = 0;
        for (uint32_t o = 0; o < s->order_count; o++) {
            const Pattern *pat = &s->patterns[s->order[o]];
            for (uint32_t r = 0; r < pat->rows; r++, row++) {
                Cell c = pat->cells[r * (uint32_t)s->channels + ch];
                if (c.kind == CELL_HOLD) continue;
                uint64_t at = row_frame_(s, row);
                if (on)
                    render_note_(s, mix, on_start, at - on_start, c.kind == CELL_NOTE, playing,
                                 st_hash_mix2((int32_t)ch, (int32_t)on_row));
                on = c.kind == CELL_NOTE;
                playing = c, on_start = at, on_row = row;
            }
        }
        if (on)
            render_note_(s, mix, on_start, song_frames - on_start, false, playing,
                         st_hash_mix2((int32_t)ch, (int32_t)on_row));
    }
}

bool st_music_render(Arena *perm, Str8 text, const char *path, Sound *out, Error *err) {
    SCRATCH_SCOPE(tmp, perm);
    st_error_clear(err);
    Score *s = st_arena_push_struct(tmp.arena, Score);
    Parser p = {.path = path ? path : "(score)", .err = err, .tmp = tmp.arena, .s = s};
    if (!s) return fail_memory_(&p, "out of memory: ");
    *s = (Score){.rows_per_beat = 4, .volume = 1};
    if (!text.len)
        return fail_(&p, 0, 0, "an empty file (0 bytes): expected a score (tempo, channels, patterns, order)");
    if (!parse_(&p, text)) return false;

    uint64_t rows = 0;
    for (uint32_t i = 0; i < s->order_count; i++) rows += s->patterns[s->order[i]].rows;
    uint64_t frames = row_frame_(s, rows);
    if (frames > (uint64_t)MUSIC_MAX_SECONDS * AUDIO_RATE)
        return fail_(&p, s->order_line, 1, "the song is %.1f s long, at most %d s", (double)frames / AUDIO_RATE,
                     MUSIC_MAX_SECONDS);
    if (frames == 0) return fail_(&p, s->order_line, 1, "the song is shorter than one frame");

    /* Room past the end for the longest release, plus the cut fade and rounding. */
    uint64_t tail = (uint64_t)((MUSIC_MAX_RELEASE + MUSIC_CUT_SECONDS) * AUDIO_RATE) + 2;
    float *mix = st_arena_push_array(tmp.arena, float, frames + tail);
    if (!mix) return fail_memory_(&p, "out of memory for the mix: ");
    render_(s, mix, frames);
    for (uint64_t i = frames; i < frames + tail; i++) mix[i % frames] += mix[i];

    int16_t *pcm = st_arena_push_array_raw(perm, int16_t, frames);
    if (!pcm) return fail_memory_(&p, "cannot keep the music: ");
    st_synth_to_i16(mix, pcm, frames);
    *out = (Sound){.samples = pcm, .frames = (uint32_t)frames};
    return true;
}

bool st_music_load(Arena *perm, const char *path, Sound *out, Error *err) {
    SCRATCH_SCOPE(tmp, perm);
    Str8 text;
    if (!st_os_read_file(tmp.arena, path, MUSIC_FILE_MAX, &text, err)) return false;
    return st_music_render(perm, text, path, out, err);
}
