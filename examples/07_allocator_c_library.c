/* 07_allocator_c_library.c - giving a C library that wants malloc an arena instead.

   The idea: engine/core/allocator.h's Allocator is one function pointer and its data; an
   Allocator on an arena (st_allocator_arena) hands out memory from that arena. A library
   with allocation hooks (here cJSON, through cJSON_InitHooks) then allocates where you
   decide, and every node it made goes away with one st_arena_clear: its frees cost nothing.
   Look at: the two hooks (no size is stored: an arena never needs it), the document parsed
   twice with a clear between, and that the second parse costs exactly what the first did.
   The same works for a library of your own with your own stb: the engine's copies of stb
   are private to it (static), so a program can define STB_*_IMPLEMENTATION beside it.
   In the picture: each of cJSON's allocations a segment of the arena's bar, where it
   landed; the clear empties the bar; the second parse fills it to the same byte.

   Run: ./07_allocator_c_library --headless --frames 10 --screenshot out.png
        (link with -lcjson) */
#include <cjson/cJSON.h>

#include <strata/core/allocator.h>

#include "example.h"

static Allocator json_alloc; /* cJSON's hooks take no context: one allocator for the program */

static uint32_t allocs, alloc_at[256]; /* where each of the first parse's allocations began */

static void *json_malloc(size_t n) {
    void *p = st_allocator_alloc(json_alloc, n, 16);
    if (p && allocs < 256) alloc_at[allocs++] = (uint32_t)st_arena_pos(json_alloc.data) - (uint32_t)n;
    return p;
}
static void json_free(void *p) { (void)p; /* the arena's clear frees everything at once */ }

static const char *SETTINGS = "{\"volume\": 0.8, \"scale\": 3, \"name\": \"Ada\","
                              " \"keys\": {\"left\": \"A\", \"right\": \"D\", \"fire\": \"Space\"},"
                              " \"levels\": [\"01-first-steps\", \"02-keys-and-doors\", \"03-spikes\"]}";

static bool load_settings(Arena *arena) {
    cJSON *root = cJSON_Parse(SETTINGS);
    if (!root) return printf("settings: parse error (or the arena is full)\n"), false;
    const cJSON *name = cJSON_GetObjectItem(root, "name"), *scale = cJSON_GetObjectItem(root, "scale");
    const cJSON *levels = cJSON_GetObjectItem(root, "levels");
    printf("settings: name %s, scale %d, %d levels; cJSON used %llu bytes of '%s'\n", cJSON_GetStringValue(name),
           (int)cJSON_GetNumberValue(scale), cJSON_GetArraySize(levels), (unsigned long long)st_arena_stats(arena).used,
           st_arena_name(arena));
    cJSON_Delete(root); /* calls json_free per node: nothing happens, and that is fine */
    return true;
}

typedef struct Game {
    Font font;
    uint32_t allocs;       /* of the first parse */
    uint64_t first, again; /* bytes used by the first parse, by the second after the clear */
} Game;

static void *create(Host *h, const void *options) {
    (void)options;
    Game *g = st_arena_push_struct(h->life.perm, Game);
    Arena *arena =
        st_arena_create((ArenaParams){.reserve_size = 64 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "json"});
    if (!g || !arena) return NULL;
    json_alloc = st_allocator_arena(arena);
    cJSON_InitHooks(&(cJSON_Hooks){.malloc_fn = json_malloc, .free_fn = json_free});

    if (!load_settings(arena)) return NULL;
    g->allocs = allocs, g->first = st_arena_stats(arena).used;
    st_arena_clear(arena); /* every node of the first parse, gone */
    if (!load_settings(arena)) return NULL;
    g->again = st_arena_stats(arena).used;
    printf("second parse after a clear: %s bytes\n", g->again == g->first ? "the same" : "different");
    cJSON_InitHooks(NULL); /* cJSON back on malloc before the arena goes */
    st_arena_release(arena);
    return g->again == g->first ? g : NULL;
}

static bool start(void *s, Host *h) { return example_font(h, &((Game *)s)->font); }

static void draw(void *s, Host *h, float w, float hh) {
    (void)w, (void)hh;
    Game *g = s;
    float scale = 304.f / 1200; /* pixels per byte */
    st_font_drawf(h->rd, &g->font, 8, 8, COLOR_WHITE, 3, "cJSON_Parse, its malloc hooked to an arena");
    st_font_drawf(h->rd, &g->font, 8, 30, COLOR_WHITE, 3, "first parse: %u allocations, %llu bytes", g->allocs,
                  (unsigned long long)g->first);
    st_render_rect(h->rd, (RectF){8, 43, 304, 6}, 1, (Color){60, 56, 70, 255});
    for (uint32_t i = 0; i < g->allocs; i++) { /* each allocation from its start to the next one's */
        uint32_t end = i + 1 < g->allocs ? alloc_at[i + 1] : (uint32_t)g->first;
        Color c = i % 2 ? (Color){255, 214, 120, 255} : (Color){200, 140, 60, 255};
        st_render_rect(h->rd, (RectF){8 + alloc_at[i] * scale, 43, (float)(end - alloc_at[i]) * scale, 6}, 2, c);
    }
    example_bar(h, &g->font, 66, "st_arena_clear", 0, 1200, COLOR_WHITE);
    example_bar(h, &g->font, 102, "second parse", g->again, 1200, (Color){255, 214, 120, 255});
    st_font_drawf(h->rd, &g->font, 8, 140, (Color){90, 200, 120, 255}, 3, "the same %llu bytes; free() did nothing",
                  (unsigned long long)g->again);
    st_font_drawf(h->rd, &g->font, 8, 160, (Color){150, 150, 160, 255}, 3, "(bars: the first 1200 of 65536 bytes)");
}

static const GameApi API = {EXAMPLE_API_DEFAULTS, .name = "07_allocator_c_library", .create = create, .start = start,
                            .draw = draw};

int main(int argc, char **argv) { return st_host_main(&API, argc, argv); }
