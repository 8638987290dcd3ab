/* history.c - the ring of past states behind history.h.

   Layout in the arena: the History, its entries (one per tick held, at tick % ticks), the
   last keyframe's raw bytes (`base`, what deltas are taken against; deltas only), then the
   ring of coded snapshots. A snapshot is coded in place, where the ring has room for its
   worst case (code_bound), and takes only what it came to. A ring that grows starts with
   no `base` and gives it room as larger states come (grow_base: the ring's bytes moved up),
   so that the arena's peak is the largest state recorded, not state_max.

   Coding: a region's bytes (a keyframe) or their XOR with the keyframe's (a delta) as
   tokens [varint zeros][varint literals][literal bytes]; a literal run ends where eight
   zero bytes in a row begin, so a token never costs more than it saves and the worst case
   is the bytes themselves plus a few. Equal words are skipped eight bytes at a time, which
   is what makes a delta of a mostly unchanged state cheap.

   The ring holds the coded snapshots in tick order; the oldest entry held is always a
   keyframe (a keyframe is dropped with the entries that need it), so the ring's used part
   runs from the oldest entry's offset to the end of the newest snapshot, wrapping once. */
#include <strata/core/history.h>

#include <string.h>

#define HISTORY_DEFAULT_STATE (1ull << 20)
#define HISTORY_DEFAULT_EVERY 60
#define HISTORY_HEADER_MAX (1 + 10 * HISTORY_REGIONS_MAX) /* a keyframe's count and sizes */
#define HISTORY_BASE_ALIGN 64                             /* the keyframe copy grows in these steps */

typedef struct HistoryEntry {
    uint64_t offset; /* in the ring */
    uint32_t size;   /* coded bytes; 0: the input alone */
    uint32_t back;   /* ticks back to its keyframe; 0: it is one */
    uint16_t input;
} HistoryEntry;

struct History {
    Arena *arena;
    HistoryParams p;
    HistoryEntry *entries;
    uint8_t *base;      /* the raw state of keyframe base_tick, regions end to end */
    uint64_t base_cap;  /* its bytes (0 without deltas: a restore never reads it) */
    uint64_t base_tick; /* HISTORY_NONE: no keyframe to take a delta against */
    uint64_t base_sizes[HISTORY_REGIONS_MAX];
    uint32_t base_count;
    uint8_t *ring;
    uint64_t ring_cap, ring_pushed; /* ring_pushed: how much of it the arena has handed out */
    bool grows;
    uint64_t first, next; /* ticks held: [first, next) */
    uint64_t head_tick;   /* the newest entry with a snapshot; HISTORY_NONE: none */
    HistoryStats st;
};

/* A region resolved: where its bytes are and how many. */
typedef struct Span {
    uint8_t *p;
    uint64_t n;
} Span;

static HistoryEntry *entry(const History *h, uint64_t tick) { return &h->entries[tick % h->p.ticks]; }

static uint8_t *put_varint(uint8_t *o, uint64_t v) {
    while (v >= 0x80) *o++ = (uint8_t)(v | 0x80), v >>= 7;
    *o++ = (uint8_t)v;
    return o;
}

static const uint8_t *get_varint(const uint8_t *c, uint64_t *v) {
    uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t b = *c++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) break;
    }
    *v = x;
    return c;
}

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The bytes cur[0, n), or their XOR with base[0, n) when base is given, coded (above). */
static uint8_t *code_stream(uint8_t *o, const uint8_t *cur, const uint8_t *base, uint64_t n) {
    static const uint8_t zeros[8];
    uint64_t i = 0;
    while (i < n) {
        uint64_t z0 = i;
        while (i + 8 <= n && load64(cur + i) == (base ? load64(base + i) : 0)) i += 8;
        while (i < n && cur[i] == (base ? base[i] : 0)) i++;
        uint64_t l0 = i;
        uint32_t run = 0;
        while (i < n && run < 8) run = cur[i] == (base ? base[i] : 0) ? run + 1 : 0, i++;
        if (run == 8) i -= 8;
        o = put_varint(o, l0 - z0);
        o = put_varint(o, i - l0);
        const uint8_t *b = base ? base + l0 : zeros;
        for (uint64_t k = l0; k < i; k++) *o++ = cur[k] ^ (base ? b[k - l0] : 0);
    }
    return o;
}

/* A coded stream onto dst[0, n): written (xor false: zero runs zeroed) or XORed in. NULL
   when the code does not fit n (it never should: the history coded it). */
static const uint8_t *apply_stream(uint8_t *dst, uint64_t n, const uint8_t *c, bool xor) {
    uint64_t i = 0;
    while (i < n) {
        uint64_t z, l;
        c = get_varint(get_varint(c, &z), &l);
        if (z > n - i || l > n - i - z) return NULL;
        if (!xor) memset(dst + i, 0, z);
        i += z;
        if (xor)
            for (uint64_t k = 0; k < l; k++) dst[i + k] ^= c[k];
        else memcpy(dst + i, c, l);
        c += l, i += l;
    }
    return c;
}

static HistoryParams with_defaults(const HistoryParams *p) {
    HistoryParams q = *p;
    if (!q.state_max) q.state_max = HISTORY_DEFAULT_STATE;
    if (!q.keyframe_every) q.keyframe_every = HISTORY_DEFAULT_EVERY;
    return q;
}

uint64_t st_history_size(const HistoryParams *p) {
    HistoryParams q = with_defaults(p);
    return sizeof(History) + (uint64_t)q.ticks * sizeof(HistoryEntry) + (q.deltas && q.bytes ? q.state_max : 0) +
           3 * HISTORY_BASE_ALIGN;
}

History *st_history_create(Arena *arena, const HistoryParams *p, Error *err) {
    HistoryParams q = with_defaults(p);
    if (!q.ticks) {
        st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "history: a ring of 0 ticks");
        return NULL;
    }
    uint64_t pos = st_arena_pos(arena);
    /* Too small is said here, once: a push that fails would have the arena say it too. */
    uint64_t need = st_history_size(&q) + (q.bytes ? q.bytes : 1);
    if (!st_arena_fits(arena, need, 1)) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0,
                     "history: no room for %u ticks of states up to %llu bytes: arena '%s' has %llu of %llu bytes"
                     " free, needs %llu",
                     q.ticks, (unsigned long long)q.state_max, st_arena_name(arena),
                     (unsigned long long)(st_arena_capacity(arena) - pos), (unsigned long long)st_arena_capacity(arena),
                     (unsigned long long)need);
        return NULL;
    }
    History *h = st_arena_push_struct(arena, History);
    HistoryEntry *e = h ? st_arena_push_array(arena, HistoryEntry, q.ticks) : NULL;
    /* A fixed ring is pushed whole at once, the copy of the keyframe with it; a ring that
       grows gives the copy room as states come (grow_base). */
    uint64_t base_cap = q.deltas && q.bytes ? q.state_max : 0;
    uint8_t *base = e ? st_arena_push_raw(arena, base_cap, HISTORY_BASE_ALIGN) : NULL;
    uint8_t *ring = NULL;
    if (base && q.bytes) ring = st_arena_push_array_raw(arena, uint8_t, q.bytes);
    else if (base) ring = st_arena_push_raw(arena, 0, 1); /* the cursor: the ring grows from here */
    uint64_t cap = q.bytes ? q.bytes : st_arena_capacity(arena) - st_arena_pos(arena);
    if (!ring || !st_arena_base(arena) || cap == 0) {
        if (st_arena_pos(arena) > pos) st_arena_pop_to(arena, pos);
        st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0,
                     "history: no room for %u ticks of states up to %llu bytes: ", q.ticks,
                     (unsigned long long)q.state_max);
        if (ring && st_arena_base(arena)) st_error_append(err, "arena '%s' too small", st_arena_name(arena));
        else st_arena_error(err);
        return NULL;
    }
    *h = (History){.arena = arena,
                   .p = q,
                   .entries = e,
                   .base = base,
                   .base_cap = base_cap,
                   .base_tick = HISTORY_NONE,
                   .ring = ring,
                   .ring_cap = cap,
                   .ring_pushed = q.bytes,
                   .grows = !q.bytes,
                   .head_tick = HISTORY_NONE};
    h->st.ring_bytes = cap;
    return h;
}

uint32_t st_history_count(const History *h) { return (uint32_t)(h->next - h->first); }

HistoryStats st_history_stats(const History *h) {
    HistoryStats s = h->st;
    s.first = h->first, s.next = h->next, s.count = st_history_count(h);
    return s;
}

uint16_t st_history_input(const History *h, uint64_t tick) {
    return tick >= h->first && tick < h->next ? entry(h, tick)->input : 0;
}

/* The regions as spans; false when one cannot be (more than HISTORY_REGIONS_MAX, an arena
   of several blocks, a NULL data). */
static bool resolve(const HistoryRegion *r, uint32_t n, Span *out, uint64_t *total) {
    if (n > HISTORY_REGIONS_MAX) return false;
    *total = 0;
    for (uint32_t i = 0; i < n; i++) {
        out[i] =
            r[i].arena ? (Span){st_arena_base(r[i].arena), st_arena_pos(r[i].arena)} : (Span){r[i].data, r[i].size};
        if (!out[i].p && out[i].n) return false;
        *total += out[i].n;
    }
    return true;
}

static void drop_entry_bytes(History *h, const HistoryEntry *e) {
    h->st.held_bytes -= e->size;
    if (e->size && !e->back) h->st.keyframes--;
}

/* The oldest entry, and the ones after it that need its keyframe. */
static void drop_oldest(History *h) {
    do {
        drop_entry_bytes(h, entry(h, h->first));
        h->first++;
        h->st.dropped++;
    } while (h->first < h->next && entry(h, h->first)->back != 0);
    if (h->first == h->next) h->head_tick = HISTORY_NONE;
    if (h->base_tick != HISTORY_NONE && h->base_tick < h->first) h->base_tick = HISTORY_NONE;
}

/* Where `size` coded bytes go in the ring (below), or false when they do not fit now. */
static bool ring_place(const History *h, uint64_t size, uint64_t *at) {
    if (h->head_tick == HISTORY_NONE) {
        *at = 0;
        return size <= h->ring_cap;
    }
    const HistoryEntry *newest = entry(h, h->head_tick);
    uint64_t tail = entry(h, h->first)->offset, head = newest->offset + newest->size;
    if (newest->offset >= tail) { /* one piece, [tail, head) */
        /* Back to the start once the room before the tail is twice a full ring's worth:
           the ring then stays within about three times its live bytes (and the arena's
           peak says so) instead of running through all of its capacity first. A full
           ring's worth, not what is held now: after a clear or a rewind little is held,
           and a start sized by that would meet the tail before `ticks` entries, dropping
           entries for bytes with most of the ring unused. */
        uint64_t held = head - tail, count = h->next - h->first;
        uint64_t full = held / count * h->p.ticks;
        if (full < held) full = held;
        if (tail >= size && tail - size >= 2 * full) return *at = 0, true;
        if (h->ring_cap - head >= size) return *at = head, true;
        return *at = 0, tail >= size;
    }
    return *at = head, tail - head >= size; /* wrapped: room between the head and the tail */
}

/* Makes room for one entry of `size` coded bytes, oldest first; false when even an empty
   ring cannot take it. */
static bool make_room(History *h, uint64_t size, uint64_t *at) {
    while (h->first < h->next && st_history_count(h) >= h->p.ticks) drop_oldest(h);
    while (!ring_place(h, size, at)) {
        if (h->first == h->next) return false;
        drop_oldest(h);
        h->st.dropped_for_bytes++;
    }
    if (h->grows && *at + size > h->ring_pushed) {
        uint64_t more = *at + size - h->ring_pushed;
        uint8_t *p = st_arena_push_raw(h->arena, more, 1);
        if (p != h->ring + h->ring_pushed) return false; /* someone else pushed into the arena */
        h->ring_pushed += more;
    }
    return true;
}

/* The furthest byte of the ring a snapshot held reaches. */
static uint64_t ring_used(const History *h) {
    uint64_t end = 0;
    for (uint64_t t = h->first; t < h->next; t++) {
        const HistoryEntry *e = entry(h, t);
        if (e->size && e->offset + e->size > end) end = e->offset + e->size;
    }
    return end;
}

/* Room for a keyframe of `need` raw bytes in the copy (a ring that grows): the arena gives
   the difference at its end and the ring's bytes move up by it (rare: a larger state than
   any before), the oldest dropped first when the arena's end cannot take it. False, with
   nothing dropped, when the ring left could not take `room` coded bytes even empty. */
static bool grow_base(History *h, uint64_t need, uint64_t room) {
    if (need <= h->base_cap) return true;
    uint64_t shift = (need - h->base_cap + HISTORY_BASE_ALIGN - 1) / HISTORY_BASE_ALIGN * HISTORY_BASE_ALIGN;
    uint8_t *arena_base = st_arena_base(h->arena);
    uint64_t ring_at = (uint64_t)(h->ring - arena_base);
    if (!h->grows || !arena_base || st_arena_pos(h->arena) != ring_at + h->ring_pushed) return false;
    if (h->ring_cap < shift || h->ring_cap - shift < room) return false;
    uint64_t used = ring_used(h);
    if (st_arena_capacity(h->arena) - st_arena_pos(h->arena) < shift) {
        while (used + shift > h->ring_cap && h->first < h->next) drop_oldest(h), used = ring_used(h);
        st_arena_pop_to(h->arena, ring_at + used);
        h->ring_pushed = used;
    }
    uint8_t *p = st_arena_push_raw(h->arena, shift, 1);
    if (p != h->ring + h->ring_pushed) return false;
    memmove(h->ring + shift, h->ring, used);
    h->ring += shift, h->ring_cap -= shift, h->base_cap += shift;
    h->st.ring_bytes = h->ring_cap;
    return true;
}

/* The most code_stream writes for a region: every token but the first starts with eight
   zero bytes or more, which cost its two varints and more, so only the first token can
   grow the bytes, by its two varints (at most 10 bytes for any region below 2^35). */
static uint64_t code_bound(const Span *s, uint32_t n) {
    uint64_t b = HISTORY_HEADER_MAX;
    for (uint32_t i = 0; i < n; i++) b += s[i].n + 16;
    return b;
}

/* The state coded at `o`: a keyframe (its count and sizes, then each region) or a delta
   against `base`. Returns the coded size. */
static uint64_t code_state(const History *h, uint8_t *o, const Span *s, uint32_t n, bool key) {
    uint8_t *start = o;
    if (key) {
        *o++ = (uint8_t)n;
        for (uint32_t i = 0; i < n; i++) o = put_varint(o, s[i].n);
    }
    const uint8_t *b = h->base;
    for (uint32_t i = 0; i < n; i++) {
        o = code_stream(o, s[i].p, key ? NULL : b, s[i].n);
        b += s[i].n;
    }
    return (uint64_t)(o - start);
}

static bool same_shape(const History *h, const Span *s, uint32_t n) {
    if (h->base_tick == HISTORY_NONE || n != h->base_count) return false;
    for (uint32_t i = 0; i < n; i++)
        if (s[i].n != h->base_sizes[i]) return false;
    return true;
}

uint64_t st_history_record(History *h, uint16_t input, const HistoryRegion *r, uint32_t n, Error *err) {
    Span s[HISTORY_REGIONS_MAX];
    uint64_t total = 0;
    if (!resolve(r, n, s, &total) || total > h->p.state_max) {
        st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "history: a state of %u regions, %llu bytes (at most %d, %llu)", n,
                     (unsigned long long)total, HISTORY_REGIONS_MAX, (unsigned long long)h->p.state_max);
        return HISTORY_NONE;
    }
    uint64_t t = h->next, size = 0, at = 0;
    bool key = !same_shape(h, s, n) || t - h->base_tick >= h->p.keyframe_every;
    uint64_t room = key || h->p.deltas ? code_bound(s, n) : 0;
    bool placed = !key || !h->p.deltas || grow_base(h, total, room);
    placed = placed && make_room(h, room, &at);
    if (!key && h->base_tick == HISTORY_NONE) { /* its keyframe went for room: a keyframe instead */
        key = true, room = code_bound(s, n);
        placed = make_room(h, room, &at);
    }
    if (!placed) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0,
                     "history: a snapshot of up to %llu bytes does not fit the ring of %llu in arena '%s'",
                     (unsigned long long)room, (unsigned long long)h->ring_cap, st_arena_name(h->arena));
        return HISTORY_NONE;
    }
    if (room) size = code_state(h, h->ring + at, s, n, key);
    *entry(h, t) = (HistoryEntry){
        .offset = at, .size = (uint32_t)size, .back = key ? 0 : (uint32_t)(t - h->base_tick), .input = input};
    h->next = t + 1;
    if (size) h->head_tick = t;
    if (key) {
        uint8_t *b = h->base;
        for (uint32_t i = 0; i < n; i++) {
            if (h->p.deltas) memcpy(b, s[i].p, s[i].n), b += s[i].n;
            h->base_sizes[i] = s[i].n;
        }
        h->base_count = n, h->base_tick = t;
        h->st.keyframes++;
    }
    h->st.held_bytes += size, h->st.recorded_bytes += size, h->st.recorded++;
    if (size > h->st.largest) h->st.largest = size;
    return t;
}

/* The destination spans for keyframe `k`'s shape, its arenas' cursors moved there; false,
   and nothing changed, when the regions are not that shape. */
static bool restore_spans(const History *h, uint64_t k, const HistoryRegion *r, uint32_t n, Span *s,
                          const uint8_t **code) {
    const uint8_t *c = h->ring + entry(h, k)->offset;
    uint64_t sizes[HISTORY_REGIONS_MAX];
    if (*c++ != n || n > HISTORY_REGIONS_MAX) return false;
    for (uint32_t i = 0; i < n; i++) {
        c = get_varint(c, &sizes[i]);
        bool fits = r[i].arena ? sizes[i] <= st_arena_capacity(r[i].arena) && st_arena_base(r[i].arena)
                               : sizes[i] == r[i].size && (r[i].data || !sizes[i]);
        if (!fits) return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (r[i].arena && !st_arena_set_pos(r[i].arena, sizes[i])) return false;
        s[i] = (Span){r[i].arena ? st_arena_base(r[i].arena) : r[i].data, sizes[i]};
    }
    *code = c;
    return true;
}

uint64_t st_history_restore(History *h, uint64_t tick, const HistoryRegion *r, uint32_t n) {
    if (h->first == h->next || tick < h->first) return HISTORY_NONE;
    if (tick >= h->next) tick = h->next - 1;
    if (!entry(h, tick)->size) tick -= entry(h, tick)->back; /* an input alone: its keyframe */
    const HistoryEntry *e = entry(h, tick);
    uint64_t k = tick - e->back;
    Span s[HISTORY_REGIONS_MAX];
    const uint8_t *c;
    if (!restore_spans(h, k, r, n, s, &c)) return HISTORY_NONE;
    /* A delta against the keyframe still in `base` starts from that copy, not its code. */
    bool from_base = e->back && h->base_tick == k;
    const uint8_t *b = h->base;
    for (uint32_t i = 0; i < n && c; i++) {
        if (from_base) memcpy(s[i].p, b, s[i].n), b += s[i].n;
        else c = apply_stream(s[i].p, s[i].n, c, false);
    }
    if (c && e->back) {
        c = h->ring + e->offset;
        for (uint32_t i = 0; i < n && c; i++) c = apply_stream(s[i].p, s[i].n, c, true);
    }
    return c ? tick : HISTORY_NONE;
}

void st_history_truncate(History *h, uint64_t tick) {
    if (tick + 1 >= h->next) return;
    while (h->next > h->first && h->next > tick + 1) {
        h->next--;
        drop_entry_bytes(h, entry(h, h->next));
        if (h->base_tick == h->next) h->base_tick = HISTORY_NONE;
    }
    if (h->first == h->next) h->first = h->next = tick + 1;
    h->head_tick = HISTORY_NONE;
    for (uint64_t t = h->next; t > h->first; t--)
        if (entry(h, t - 1)->size) {
            h->head_tick = t - 1;
            break;
        }
}

uint64_t st_history_pop(History *h, const HistoryRegion *r, uint32_t n) {
    if (h->first == h->next) return HISTORY_NONE;
    uint64_t t = h->next - 1;
    if (!entry(h, t)->size || st_history_restore(h, t, r, n) != t) return HISTORY_NONE;
    if (t == 0) st_history_clear(h, 0);
    else st_history_truncate(h, t - 1);
    return t;
}

void st_history_clear(History *h, uint64_t next) {
    h->first = h->next = next;
    h->head_tick = h->base_tick = HISTORY_NONE;
    h->st.held_bytes = 0, h->st.keyframes = 0;
}
