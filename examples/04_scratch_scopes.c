/* 04_scratch_scopes.c - scratch scopes, and why you name the arenas a result goes to.

   The idea: temporary work takes one of the thread's scratch arenas for the length of a
   scope (SCRATCH_SCOPE), which rewinds on every way out of it. A function that returns
   memory in an arena the caller gave (`out`) must not take that same arena as its scratch:
   rewinding it at the end would free the result. Naming `out` as a conflict makes the scope
   pick another scratch arena. That matters as soon as the caller's `out` is itself scratch.
   Look at: upper_words(), which works in scratch and writes into `out`; main(), which calls
   it with a scratch arena as `out`; and the printed arena names, never the same twice.

   Run: ./04_scratch_scopes */
#include <ctype.h>
#include <stdio.h>

#include <strata/core/arena.h>
#include <strata/core/str8.h>

/* Which of this thread's scratch arenas `a` is (they all share the name "scratch"). */
static const char *which(Arena *a) {
    static const char *names[] = {"scratch #0", "scratch #1", "scratch #2"};
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++)
        if (st_scratch_get(i) == a) return names[i];
    return st_arena_name(a);
}

/* "the quick fox" -> "THE|QUICK|FOX" in `out`; the word list is temporary. */
static Str8 upper_words(Arena *out, Str8 text) {
    SCRATCH_SCOPE(tmp, out); /* any scratch arena but `out` */
    printf("  upper_words: out is '%s', its scratch is '%s'\n", which(out), which(tmp.arena));
    Str8 *words = st_arena_push_array(tmp.arena, Str8, 16);
    int n = 0;
    for (Str8 rest = text, w; n < 16 && st_str8_next_token(&rest, ' ', &w);)
        if (w.len) words[n++] = w;
    Str8Buf b = st_str8_buf(out, text.len + 1);
    for (int i = 0; i < n; i++) {
        char *up = st_str8_to_cstr(tmp.arena, words[i]);
        for (char *c = up; *c; c++) *c = (char)toupper((unsigned char)*c);
        st_str8_buf_fmt(&b, "%s%s", i ? "|" : "", up);
    }
    return st_str8_buf_str(&b); /* tmp rewinds here; the result is in `out`, untouched */
}

/* The caller's own temporary work: a scratch arena too, passed on as `out`. */
static void report(Str8 text) {
    ArenaTemp mine = st_scratch_begin(NULL, 0);
    printf("report: works in '%s'\n", which(mine.arena));
    Str8 up = upper_words(mine.arena, text);
    printf("report: got \"%.*s\" (still valid: upper_words rewound another arena)\n", STR8_FMT(up));
    st_scratch_end(mine);
}

int main(void) {
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    if (!perm) return 1;
    Str8 text = STR8_LIT("the quick brown fox");
    Str8 kept = upper_words(perm, text); /* lives as long as perm */
    printf("main: \"%.*s\" in '%s'\n", STR8_FMT(kept), st_arena_name(perm));
    report(text);

    /* Every scope rewound: the scratch arenas are empty again. */
    ArenaStats s[ARENA_SCRATCH_COUNT];
    uint32_t n = st_scratch_stats(s, ARENA_SCRATCH_COUNT);
    for (uint32_t i = 0; i < n; i++)
        printf("scratch #%u: used %llu now, peak %llu\n", i, (unsigned long long)s[i].used,
               (unsigned long long)s[i].peak);
    st_arena_release(perm);
    return 0;
}
