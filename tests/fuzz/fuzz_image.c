/* fuzz_image.c - libFuzzer target for the image loader (asset.h): PNG bytes through
   st_asset_decode_rgba, the path every texture and font of the game takes, with stb_image on
   its arena Allocator.

   Beyond "no crash, no leak, no undefined behaviour" it checks the loader's promises on
   every input:
     - not one heap call while decoding (stb_image's allocations all go to the scratch
       arena; counted with the sanitizer's allocation hooks);
     - a decode that succeeds gives 1..ASSET_MAX_IMAGE_SIDE pixels on each side, w * h * 4
       bytes of them in the arena given, at its end; the same bytes decode to the same
       pixels again;
     - a decode that fails leaves that arena where it was and says why as
       "fuzz.png: ..." in text that ends inside its buffer;
     - either way the scratch arenas are back where they were.
   A broken promise traps, which libFuzzer reports as a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <strata/asset/asset.h>
#include "fuzz.h"

/* The sanitizer runtime calls these on every allocation and free, on every thread; only
   this thread's, while `counting`, are counted. */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));
static _Thread_local int counting;
static _Thread_local uint64_t heap_calls;
static void on_malloc(const volatile void *p, size_t n) {
    (void)p, (void)n, heap_calls += counting;
}
static void on_free(const volatile void *p) { (void)p, heap_calls += counting; }

static Arena *out;

static uint64_t scratch_used(void) {
    ArenaStats st[ARENA_SCRATCH_COUNT];
    uint32_t n = st_scratch_stats(st, ARENA_SCRATCH_COUNT);
    uint64_t used = 0;
    for (uint32_t i = 0; i < n; i++) used = used * 1000003u + st[i].used;
    return used;
}

static bool decode(const uint8_t *data, size_t size, uint8_t **px, int *w, int *h,
                   Error *err) {
    heap_calls = 0;
    counting = 1;
    bool ok = st_asset_decode_rgba(out, data, size, "fuzz.png", px, w, h, err);
    counting = 0;
    PROMISE(heap_calls == 0);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!out) {
        __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
        out = st_arena_create(
            (ArenaParams){.reserve_size = 1ull << 30, .flags = ARENA_FLAG_NO_CHAIN, .name = "out"});
        /* The scratch arenas exist from here on, so a first decode does not count their making. */
        uint8_t *px;
        int w, h;
        Error err;
        st_asset_decode_rgba(out, (const uint8_t *)"", 0, "warm.png", &px, &w, &h, &err);
    }
    uint64_t before = st_arena_pos(out), scratch = scratch_used();
    uint8_t *px = NULL;
    int w = -1, h = -1;
    Error err;
    memset(&err, 0xAA, sizeof err);
    bool ok = decode(data, size, &px, &w, &h, &err);
    PROMISE(scratch_used() == scratch);
    if (!ok) {
        PROMISE(st_arena_pos(out) == before);
        size_t n = strnlen(err.message, sizeof err.message);
        PROMISE(n > 10 && n < sizeof err.message && strncmp(err.message, "fuzz.png: ", 10) == 0);
        PROMISE(strstr(err.message, "(null)") == NULL);
        return 0;
    }
    PROMISE(w >= 1 && h >= 1 && w <= ASSET_MAX_IMAGE_SIDE && h <= ASSET_MAX_IMAGE_SIDE && px);
    uint64_t bytes = (uint64_t)w * (uint64_t)h * 4, after = st_arena_pos(out);
    PROMISE(after - before >= bytes && after - before < bytes + 16);
    uint8_t *again = NULL;
    int w2 = 0, h2 = 0;
    PROMISE(decode(data, size, &again, &w2, &h2, &err));
    PROMISE(w2 == w && h2 == h && memcmp(again, px, bytes) == 0);
    st_arena_pop_to(out, before);
    return 0;
}
