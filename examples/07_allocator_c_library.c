/* 07_allocator_c_library.c - giving a C library that wants malloc an arena instead.

   The idea: engine/core/allocator.h's Allocator is one function pointer and its data; an
   Allocator on an arena (st_allocator_arena) hands out memory from that arena. A library
   with allocation hooks (here cJSON, through cJSON_InitHooks) then allocates where you
   decide, and every node it made goes away with one st_arena_clear: its frees cost nothing.
   Look at: the two hooks (no size is stored: an arena never needs it), the document parsed
   twice with a clear between, and that the second parse costs exactly what the first did.
   The same works for a library of your own with your own stb: the engine's copies of stb
   are private to it (static), so a program can define STB_*_IMPLEMENTATION beside it.

   Run: ./07_allocator_c_library   (link with -lcjson) */
#include <cjson/cJSON.h>
#include <stdio.h>

#include <strata/core/allocator.h>
#include <strata/core/arena.h>

static Allocator json_alloc; /* cJSON's hooks take no context: one allocator for the program */

static void *json_malloc(size_t n) { return st_allocator_alloc(json_alloc, n, 16); }
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

int main(void) {
    Arena *arena =
        st_arena_create((ArenaParams){.reserve_size = 64 << 10, .flags = ARENA_FLAG_NO_CHAIN, .name = "json"});
    if (!arena) return 1;
    json_alloc = st_allocator_arena(arena);
    cJSON_InitHooks(&(cJSON_Hooks){.malloc_fn = json_malloc, .free_fn = json_free});

    if (!load_settings(arena)) return 1;
    uint64_t first = st_arena_stats(arena).used;
    st_arena_clear(arena); /* every node of the first parse, gone */
    if (!load_settings(arena)) return 1;
    bool same = st_arena_stats(arena).used == first;
    printf("second parse after a clear: %s bytes\n", same ? "the same" : "different");
    st_arena_release(arena);
    return same ? 0 : 1;
}
