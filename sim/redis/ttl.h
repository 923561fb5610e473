/* ttl.h — the keyspace's expiry index: the keys with a TTL, ordered by (deadline, sequence
 * number of the TTL), ties broken by sequence so that active expiry deletes keys in a
 * deterministic order (a run for deadlines that come in order, a 4-ary heap for the rest:
 * ttl.c says how). A kv knows where its item is (kv.ttl_idx: TTL_NONE, a heap index, or
 * TTL_RUN_BIT | a run index). The store (store.c) holds one and keeps the sequence. */
#ifndef LOCKLAB_REDIS_TTL_H
#define LOCKLAB_REDIS_TTL_H

#include <stddef.h>

#include "kv.h"

#define TTL_NONE UINT32_MAX
#define TTL_RUN_BIT (UINT32_C(1) << 31)

typedef struct ttl_item {
    int64_t expire;     /* e's deadline: kept here only (store_expire) */
    uint64_t seq;
    kv *e;              /* NULL: a dead run item */
} ttl_item;

typedef struct ttl_index {
    ttl_item *heap;
    size_t heap_len, heap_cap;
    ttl_item *run;
    size_t run_head, run_tail, run_cap, run_dead; /* dead: in [run_head, run_tail) */
} ttl_index;

/* Adds e (not in the index) with its deadline and the store's sequence number; removes it
 * (nothing if it has no TTL). */
void ttl_add(ttl_index *s, kv *e, int64_t when_ms, uint64_t seq);
void ttl_remove(ttl_index *s, kv *e);
void ttl_clear(ttl_index *s);  /* forgets every item (the keys are gone: FLUSHDB) */
void ttl_free(ttl_index *s);
/* Every live item, in no order, in an array the caller frees: their count. */
size_t ttl_items(const ttl_index *s, ttl_item **out);
size_t ttl_bytes(const ttl_index *s); /* the index's arrays, for memory reports */

static inline int ttl_less(const ttl_item *a, const ttl_item *b)
{
    if (a->expire != b->expire) return a->expire < b->expire;
    return a->seq < b->seq;
}

/* The item that expires first, or NULL if no key has a TTL. */
static inline const ttl_item *ttl_first(const ttl_index *s)
{
    const ttl_item *h = s->heap_len ? &s->heap[0] : NULL;
    const ttl_item *r = s->run_head < s->run_tail ? &s->run[s->run_head] : NULL;
    if (!h) return r;
    if (!r) return h;
    return ttl_less(r, h) ? r : h;
}

/* e's deadline, or -1 if it has none. */
static inline int64_t ttl_of(const ttl_index *s, const kv *e)
{
    uint32_t i = e->ttl_idx;
    if (i == TTL_NONE) return -1;
    return i & TTL_RUN_BIT ? s->run[i & ~TTL_RUN_BIT].expire : s->heap[i].expire;
}

#endif
