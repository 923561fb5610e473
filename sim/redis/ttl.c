/* ttl.c — the keyspace's expiry index (ttl.h).
 *
 * The keys with a TTL, ordered by (deadline, sequence number of the TTL): ties are broken by
 * sequence so that active expiry deletes keys in a deterministic order. The index has two
 * parts, and an item (a copy of the deadline, the sequence, the kv) lives in exactly one of
 * them:
 *
 *   - the run: an array of items in increasing order, [run_head, run_tail) of it in use.
 *     A new TTL goes here when its deadline is no earlier than the last item's (its
 *     sequence is the largest yet, so the order holds). Most TTLs are now + a lease, so in a
 *     lock workload almost every TTL lands here, and the key that expires next is at the
 *     head: set, remove and pop are O(1). A removed item in the middle is only marked dead
 *     (e == NULL); dead items at either end are trimmed at once, so the head and the tail
 *     are always live, and the array is compacted when it fills with no more than half of
 *     it live.
 *   - a 4-ary min-heap for the other TTLs, where changing or removing a TTL is O(log n).
 *     Its items carry their own copy of the deadline, so sifting compares within the heap
 *     array instead of visiting every kv on the path (a cache miss each with many keys),
 *     and four children per node halve the depth.
 *
 * The next deadline is the earlier of the run's head and the heap's root. Each kv knows
 * where its item is (ttl_idx: a heap index, or TTL_RUN_BIT | a run index). */
#include "ttl.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define HEAP_ARITY 4

/* ---- the expiry index: the heap ---- */

static void heap_place(ttl_index *s, size_t i, ttl_item it)
{
    s->heap[i] = it;
    it.e->ttl_idx = (uint32_t)i;
}

static void heap_up(ttl_index *s, size_t i)
{
    ttl_item it = s->heap[i];
    while (i > 0) {
        size_t p = (i - 1) / HEAP_ARITY;
        if (!ttl_less(&it, &s->heap[p])) break;
        heap_place(s, i, s->heap[p]);
        i = p;
    }
    heap_place(s, i, it);
}

static void heap_down(ttl_index *s, size_t i)
{
    ttl_item it = s->heap[i];
    for (;;) {
        size_t first = HEAP_ARITY * i + 1, m = i;
        size_t end = first + HEAP_ARITY < s->heap_len ? first + HEAP_ARITY : s->heap_len;
        const ttl_item *best = &it;
        for (size_t c = first; c < end; c++)
            if (ttl_less(&s->heap[c], best)) m = c, best = &s->heap[c];
        if (m == i) break;
        heap_place(s, i, s->heap[m]);
        i = m;
    }
    heap_place(s, i, it);
}

static void heap_push(ttl_index *s, ttl_item it)
{
    if (s->heap_len == s->heap_cap) {
        s->heap_cap = s->heap_cap ? s->heap_cap * 2 : 16;
        LL_ASSERT(s->heap_cap < TTL_RUN_BIT);
        s->heap = xrealloc(s->heap, s->heap_cap * sizeof *s->heap);
    }
    size_t i = s->heap_len++;
    heap_place(s, i, it);
    heap_up(s, i);
}

static void heap_remove_at(ttl_index *s, size_t i)
{
    s->heap_len--;
    if (i == s->heap_len) return;
    heap_place(s, i, s->heap[s->heap_len]);
    heap_up(s, i);
    heap_down(s, s->heap[i].e->ttl_idx);
}

/* ---- the expiry index: the run ---- */

static void run_place(ttl_index *s, size_t i, ttl_item it)
{
    s->run[i] = it;
    it.e->ttl_idx = TTL_RUN_BIT | (uint32_t)i;
}

/* Makes room for one more item at the tail: moves the live items to the front when at most
 * half the array is live (each move is paid for by the pops and removals that made the
 * room), else doubles the array. */
static void run_make_room(ttl_index *s)
{
    size_t live = s->run_tail - s->run_head - s->run_dead;
    if (s->run_cap && live <= s->run_cap / 2) {
        size_t n = 0;
        for (size_t i = s->run_head; i < s->run_tail; i++)
            if (s->run[i].e) run_place(s, n++, s->run[i]);
        s->run_head = 0;
        s->run_tail = n;
        s->run_dead = 0;
        return;
    }
    s->run_cap = s->run_cap ? s->run_cap * 2 : 16;
    LL_ASSERT(s->run_cap < TTL_RUN_BIT);
    s->run = xrealloc(s->run, s->run_cap * sizeof *s->run);
}

static void run_remove_at(ttl_index *s, size_t i)
{
    s->run[i].e = NULL;
    s->run_dead++;
    while (s->run_head < s->run_tail && !s->run[s->run_head].e) s->run_head++, s->run_dead--;
    while (s->run_tail > s->run_head && !s->run[s->run_tail - 1].e) s->run_tail--, s->run_dead--;
    if (s->run_head == s->run_tail) s->run_head = s->run_tail = 0;
}

/* ---- the index ---- */

void ttl_remove(ttl_index *s, kv *e)
{
    uint32_t i = e->ttl_idx;
    if (i == TTL_NONE) return;
    e->ttl_idx = TTL_NONE;
    if (i & TTL_RUN_BIT) run_remove_at(s, i & ~TTL_RUN_BIT);
    else heap_remove_at(s, i);
}

void ttl_add(ttl_index *s, kv *e, int64_t when_ms, uint64_t seq)
{
    ttl_item it = { when_ms, seq, e };
    if (s->run_head == s->run_tail || when_ms >= s->run[s->run_tail - 1].expire) {
        if (s->run_tail == s->run_cap) run_make_room(s);
        run_place(s, s->run_tail++, it);
    } else {
        heap_push(s, it);
    }
}

void ttl_clear(ttl_index *s)
{
    s->heap_len = 0;
    s->run_head = s->run_tail = s->run_dead = 0;
}

void ttl_free(ttl_index *s)
{
    free(s->heap);
    free(s->run);
}

size_t ttl_items(const ttl_index *s, ttl_item **out)
{
    ttl_item *items = xmalloc((s->heap_len + s->run_tail - s->run_head + 1) * sizeof *items);
    size_t n = s->heap_len;
    if (n) memcpy(items, s->heap, n * sizeof *items);
    for (size_t i = s->run_head; i < s->run_tail; i++)
        if (s->run[i].e) items[n++] = s->run[i];
    *out = items;
    return n;
}

size_t ttl_bytes(const ttl_index *s)
{
    return (s->heap_cap + s->run_cap) * sizeof(ttl_item);
}
