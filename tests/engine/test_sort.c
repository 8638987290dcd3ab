/* The draw-list sort: ordered by (layer, texture), stable (equal keys keep push order), on
   random input including every layer and texture id extreme, checked against a reference
   insertion sort (stable by construction). st_render_sort_commands builds its order with the
   function st_render_end draws by, over the same 1024-command chunks, so lists of up to 5000
   commands also cross chunk boundaries as a busy frame does. */
#include <string.h>

#include "check.h"
#include <strata/render/render.h>

static uint32_t rng_state = 12345;
static uint32_t rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static uint32_t sort_key(const DrawCmd *c) { return (uint32_t)c->layer << 16 | c->tex; }

int main(void) {
    Arena *a = st_arena_create((ArenaParams){.name = "test"});
    REQUIRE(a);
    for (int round = 0; round < 20; round++) {
        uint32_t n = round == 0 ? 1 : 1 + rng_next() % 5000;
        DrawCmd *in = st_arena_push_array(a, DrawCmd, n);
        DrawCmd *out = st_arena_push_array(a, DrawCmd, n);
        DrawCmd *ref = st_arena_push_array(a, DrawCmd, n);
        REQUIRE(in && out && ref);
        for (uint32_t i = 0; i < n; i++) {
            /* few distinct keys, so that ties are common; round 1 uses the extremes */
            in[i].layer = (uint16_t)(round == 1 ? (rng_next() & 1) * 255 : rng_next() % 6);
            in[i].tex = (uint16_t)(round == 1 ? (rng_next() & 1) * 255 : rng_next() % 4);
            in[i].x = (float)i; /* push order */
        }
        st_render_sort_commands(in, out, n);
        memcpy(ref, in, sizeof(DrawCmd) * n);
        for (uint32_t i = 1; i < n; i++) {
            DrawCmd v = ref[i];
            uint32_t j = i;
            while (j > 0 && sort_key(&ref[j - 1]) > sort_key(&v)) {
                ref[j] = ref[j - 1];
                j--;
            }
            ref[j] = v;
        }
        int bad = 0;
        for (uint32_t i = 0; i < n; i++) bad += memcmp(&out[i], &ref[i], sizeof(DrawCmd)) != 0;
        CHECK_EQ_I(bad, 0);
        for (uint32_t i = 1; i < n; i++) {
            CHECK(sort_key(&out[i - 1]) <= sort_key(&out[i]));
            if (sort_key(&out[i - 1]) == sort_key(&out[i])) CHECK(out[i - 1].x < out[i].x);
        }
        st_arena_clear(a);
    }
    st_render_sort_commands(NULL, NULL, 0); /* empty is fine */
    st_arena_release(a);
    return check_result();
}
