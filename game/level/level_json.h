/* level_json.h - the JSON of a Tiled map, read in place: a strict check of the whole text
   first (so that a syntax error anywhere is reported before any meaning is looked at, with
   its line and column), which leaves an index of where each string, array and object ends;
   then values are found and walked in the text itself, skipping any array or object in one
   step, and decoded only when asked. Nothing is built per value: a tile layer of a million
   numbers costs its text and no more. The index takes 8 bytes per string, array or object,
   on the arena given; a number, true, false or null takes nothing.

       LevelJson j;
       if (!level_json_parse(&j, scratch, path, text, len, err)) return false;
       static const char *const keys[] = {"width", "data"};
       LevelJsonValue m[2], v;
       level_json_members(&j, level_json_root(&j), keys, 2, m);
       for (LevelJsonIter it = level_json_iter(&j, m[1]); level_json_next(&it, &v);)
           sum += level_json_number(&j, v);

   Strict RFC 8259 JSON, with two exceptions kept from the reader this replaces: control
   characters inside a string are taken as they are (the level's own checks name them), and
   "\u0000" is refused (no name, sign or path of a level may hold a NUL). Nesting is at most
   LEVEL_JSON_MAX_DEPTH deep. */
#ifndef LEVEL_JSON_H
#define LEVEL_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/error.h>
#include <strata/core/str8.h>

#define LEVEL_JSON_MAX_DEPTH 1000

typedef enum LevelJsonKind {
    LEVEL_JSON_NONE, /* a member that is not there */
    LEVEL_JSON_NULL,
    LEVEL_JSON_FALSE,
    LEVEL_JSON_TRUE,
    LEVEL_JSON_NUMBER,
    LEVEL_JSON_STRING,
    LEVEL_JSON_ARRAY,
    LEVEL_JSON_OBJECT,
} LevelJsonKind;

typedef struct LevelJsonSpan {
    uint32_t end;   /* the offset past the closing quote or bracket */
    uint32_t inner; /* array, object: the spans inside it; string: 1 when it has escapes */
} LevelJsonSpan;

typedef struct LevelJson {
    const char *text;
    uint64_t len;
    LevelJsonSpan *spans; /* one per string, array and object, in the order they open */
    uint32_t span_count;
} LevelJson;

/* A value: where it starts in the text, and the index of the first span at or after it. */
typedef struct LevelJsonValue {
    uint32_t at, span;
} LevelJsonValue;

typedef struct LevelJsonIter {
    const LevelJson *j;
    uint32_t at, span;
    bool object, done;
} LevelJsonIter;

/* Checks text[0..len) and indexes it in `a`. Fails with "path:line:col: error: expected JSON
   (a Tiled map), found ..." (or "expected end of file after the map", "expected text
   without U+0000 in a string"), or on the arena's refusal. */
bool level_json_parse(LevelJson *j, Arena *a, const char *path, const char *text, uint64_t len, Error *err);

LevelJsonValue level_json_root(const LevelJson *j);
LevelJsonKind level_json_kind(const LevelJson *j, LevelJsonValue v);

/* out[i] is the first member of object `obj` named keys[i], or a LEVEL_JSON_NONE value; all
   NONE when obj is not an object. One walk over the members, whatever n. */
void level_json_members(const LevelJson *j, LevelJsonValue obj, const char *const *keys, uint32_t n,
                        LevelJsonValue *out);

/* The elements of an array or the values of an object, in order; nothing for anything else. */
LevelJsonIter level_json_iter(const LevelJson *j, LevelJsonValue v);
bool level_json_next(LevelJsonIter *it, LevelJsonValue *out);

/* Up to n of an array's next elements that are whole numbers written in plain digits (no
   sign, fraction or exponent) below 2^32, into out, in one loop without a value per element:
   a tile layer's ids. Stops before the first element that is not one (level_json_next then
   gives it) or at the end; returns how many it read. */
uint32_t level_json_next_uints(LevelJsonIter *it, uint32_t *out, uint32_t n);

/* A number's value as the C library reads it (strtod); 0 for anything else. */
double level_json_number(const LevelJson *j, LevelJsonValue v);

/* A string's value, decoded into `a` when it has escapes and in the text itself when not
   (not NUL-terminated then); "" for anything else. False only when `a` refuses. */
bool level_json_string(const LevelJson *j, LevelJsonValue v, Arena *a, Str8 *out);

#endif
