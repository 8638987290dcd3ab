/* chunk_list.c - ChunkList: fixed-size chunks in an arena, linked in push order. */
#include <strata/core/chunk_list.h>

#include <string.h>

void st_chunk_list_init(ChunkList *l, Arena *arena, uint32_t elem_size, uint32_t per_chunk) {
    *l = (ChunkList){.arena = arena, .elem_size = elem_size ? elem_size : 1, .per_chunk = per_chunk ? per_chunk : 64};
}

void *st_chunk_list_push(ChunkList *l) {
    ChunkListChunk *c = l->last;
    if (!c || c->count == l->per_chunk) {
        /* elem_size and per_chunk are 32-bit, so this product cannot overflow 64 bits. */
        uint64_t bytes = sizeof(ChunkListChunk) + (uint64_t)l->elem_size * l->per_chunk;
        c = st_arena_push(l->arena, bytes, _Alignof(ChunkListChunk));
        if (!c) return NULL;
        if (l->last) l->last->next = c;
        else l->first = c;
        l->last = c;
    }
    /* The chunk came zeroed from the arena and no slot is handed out twice. */
    void *slot = c->data + (uint64_t)c->count * l->elem_size;
    c->count++;
    l->count++;
    return slot;
}

void *st_chunk_list_at(const ChunkList *l, uint64_t i) {
    if (i >= l->count) return NULL;
    const ChunkListChunk *c = l->first;
    for (uint64_t skip = i / l->per_chunk; skip; skip--) c = c->next;
    return (void *)(c->data + (i % l->per_chunk) * l->elem_size);
}

ChunkListIter st_chunk_list_iter(const ChunkList *l) {
    return (ChunkListIter){.chunk = l->first, .index = 0, .elem_size = l->elem_size};
}

void *st_chunk_list_next(ChunkListIter *it) {
    while (it->chunk && it->index >= it->chunk->count) {
        it->chunk = it->chunk->next;
        it->index = 0;
    }
    if (!it->chunk) return NULL;
    return (void *)(it->chunk->data + (uint64_t)it->index++ * it->elem_size);
}

Span st_chunk_list_flatten(const ChunkList *l, Arena *dst) {
    /* A valid address for "zero elements", so that data == NULL only ever means failure. */
    static _Alignas(16) unsigned char empty[16];
    if (l->count == 0) return (Span){empty, 0};
    if (l->count > UINT64_MAX / l->elem_size) return (Span){0};
    unsigned char *out = st_arena_push_raw(dst, l->count * l->elem_size, 16);
    if (!out) return (Span){0};
    unsigned char *at = out;
    for (const ChunkListChunk *c = l->first; c; c = c->next) {
        uint64_t n = (uint64_t)c->count * l->elem_size;
        memcpy(at, c->data, n);
        at += n;
    }
    return (Span){out, l->count};
}
