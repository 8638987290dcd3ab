/* 04_scratch_scopes.c - scratch scopes, and why you name the arenas a result goes to.

   The idea: temporary work takes one of the thread's scratch arenas for the length of a
   scope (SCRATCH_SCOPE), which rewinds on every way out of it. A function that returns
   memory in an arena the caller gave (`out`) must not take that same arena as its scratch:
   rewinding it at the end would free the result. Naming `out` as a conflict makes the scope
   pick another scratch arena. That matters as soon as the caller's `out` is itself scratch.
   Look at: upper_words(), which works in scratch and writes into `out`; report(), which
   calls it with a scratch arena as `out`; and the printed arena names, never the same twice.
   In the picture: each call's arenas at the end of upper_words, before its scope rewinds:
   gold is `out` (where the result is kept), blue the scratch the scope took (rewound). In
   the second call `out` is scratch #0, named as the conflict, so the scope took #1.

   Run: ./04_scratch_scopes --headless --frames 10 --screenshot out.png */
#include <ctype.h>

#include "example.h"

enum { ARENAS = 1 + ARENA_SCRATCH_COUNT }; /* the permanent arena, then scratch #0.. */
typedef struct Call {
    int out, tmp;          /* indices into the ARENAS */
    uint64_t used[ARENAS]; /* each arena's bytes just before the scope rewinds */
} Call;
typedef struct Game {
    Font font;
    Arena *perm;
    Call calls[2];
    int ncalls;
    char kept[32];
} Game;
static Game *game; /* where upper_words records each call for the picture */

static int index_of(Arena *a) {
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++)
        if (st_scratch_get(i) == a) return 1 + (int)i;
    return 0;
}
static const char *NAMES[] = {"permanent", "scratch #0", "scratch #1", "scratch #2"};
static const char *which(Arena *a) { return NAMES[index_of(a)]; }

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
    Call *c = &game->calls[game->ncalls++];
    *c = (Call){.out = index_of(out), .tmp = index_of(tmp.arena), .used[0] = st_arena_stats(game->perm).used};
    for (uint32_t i = 0; i < ARENA_SCRATCH_COUNT; i++) c->used[1 + i] = st_arena_stats(st_scratch_get(i)).used;
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

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = game = st_arena_push_struct(h->life.perm, Game);
    if (!g || !(g->perm = st_arena_create((ArenaParams){.name = "permanent"}))) return NULL;
    Str8 text = STR8_LIT("the quick brown fox");
    Str8 kept = upper_words(g->perm, text); /* lives as long as perm */
    printf("main: \"%.*s\" in '%s'\n", STR8_FMT(kept), st_arena_name(g->perm));
    snprintf(g->kept, sizeof g->kept, "%.*s", STR8_FMT(kept));
    report(text);

    /* Every scope rewound: the scratch arenas are empty again. */
    ArenaStats s[ARENA_SCRATCH_COUNT];
    uint32_t n = st_scratch_stats(s, ARENA_SCRATCH_COUNT);
    for (uint32_t i = 0; i < n; i++)
        printf("scratch #%u: used %llu now, peak %llu\n", i, (unsigned long long)s[i].used,
               (unsigned long long)s[i].peak);
    return g;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

/* One call: a box per arena, its bytes as a bar, gold for `out`, blue for the scope's. */
static void call_row(Host *h, const Game *g, float y, const Call *c, const char *title) {
    st_font_drawf(h->rd, &g->font, 8, y, COLOR_WHITE, 3, "%s", title);
    for (int i = 0; i < ARENAS; i++) {
        float x = 8 + i * 78.f;
        Color col = i == c->out   ? (Color){255, 214, 120, 255}
                    : i == c->tmp ? (Color){70, 120, 200, 255}
                                  : (Color){110, 104, 120, 255};
        const char *role = i == c->out ? "kept" : i == c->tmp ? "rewound" : ""; /* fits a box */
        st_font_drawf(h->rd, &g->font, x, y + 13, col, 3, "%s", NAMES[i]);
        st_render_rect(h->rd, (RectF){x, y + 25, 72, 6}, 1, (Color){60, 56, 70, 255});
        st_render_rect(h->rd, (RectF){x, y + 25, c->used[i] > 360 ? 72 : c->used[i] / 5.f, 6}, 2, col);
        st_font_drawf(h->rd, &g->font, x, y + 33, col, 3, "%s %llu B", role, (unsigned long long)c->used[i]);
    }
}

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    call_row(h, g, 6, &g->calls[0], "main: upper_words(out = permanent): scope takes #0");
    call_row(h, g, 58, &g->calls[1], "report: upper_words(out = scratch #0): #0 named, takes #1");
    st_font_drawf(h->rd, &g->font, 8, 116, (Color){255, 214, 120, 255}, 3, "both results kept: \"%s\"", g->kept);
    st_font_drawf(h->rd, &g->font, 8, 132, (Color){70, 120, 200, 255}, 3,
                  "the scratch each scope took is empty again after it");
    st_font_drawf(h->rd, &g->font, 8, 152, COLOR_WHITE, 3, "SCRATCH_SCOPE(tmp, out): any scratch arena but out");
}

static int release(void *s, Host *h) {
    (void)h;
    st_arena_release(((Game *)s)->perm);
    return 0;
}

static const GameApi API = {EXAMPLE_API_DEFAULTS, .name = "04_scratch_scopes", .create = create, .start = start,
                            .draw = draw,         .release = release};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
