/* pool_item.c — the shares of a pool (model/pool.c's header says what they are): their
 * names, a hash of the prefix, level and phase that every task computes alike; the table of
 * those known; the heap of those not taken yet, in the order they go out (fewest deviations,
 * then the earliest position, then the first known). */
#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "poolint.h"

/* ---- names ---- */

/* What a share belongs to besides its level's bound: the first level's pass with a smaller
 * fault budget (explore_run), and a level's coarse pass (readings of TIME at their whole ms)
 * or the level itself — each a search of its own, its shares not the others'. */
int pool_item_phase(const search *S)
{
    return S->pass * 2 + (S->coarse ? 1 : 0);
}

static void item_id(int pass, int bound, uint32_t m, const uint32_t *pos, const int64_t *val, uint32_t nnz,
                    uint64_t id[2])
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "%d:%d:%u", pass, bound, m);
    for (uint32_t i = 0; i < nnz; i++) buf_printf(&b, " %u=%lld", pos[i], (long long)val[i]);
    id[0] = dict_hash(b.p, b.len);
    uint64_t h = 1469598103934665603ULL; /* FNV-1a: a second, independent half of the name */
    for (size_t i = 0; i < b.len; i++) h = (h ^ (uint8_t)b.p[i]) * 1099511628211ULL;
    id[1] = h;
    buf_release(&b);
}

void pool_item_path(pool *P, const char *what, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", P->dir, what);
}

/* ---- the item table ---- */

pitem *pool_item_find(pool *P, const uint64_t id[2])
{
    if (!P->nslot) return NULL;
    for (size_t s = id[0] & (P->nslot - 1);; s = (s + 1) & (P->nslot - 1)) {
        if (!P->slot[s]) return NULL;
        pitem *it = &P->it[P->slot[s] - 1];
        if (it->id[0] == id[0] && it->id[1] == id[1]) return it;
    }
}

static void index_item(pool *P, size_t k)
{
    for (size_t s = P->it[k].id[0] & (P->nslot - 1);; s = (s + 1) & (P->nslot - 1))
        if (!P->slot[s]) {
            P->slot[s] = k + 1;
            return;
        }
}

/* The order shares are taken in: the fewest deviations first, then the earliest position
 * changed, then the first known. A share's items have one deviation more than it; the next
 * crossing of a window, as many and at the same position. So the shares that enable the most
 * go first, and a chain of crossings — each found by the path at the one before: the
 * longest wait of a search split so — goes on as fast as its paths run (measured with
 * --pool-balance 64 on the Redisson problem of make bench: three windows of 1,001 values at
 * the root, the last share ending at 1,001 paths' time, where it ends at 1,374 when the
 * shares of one deviation go first in the order they were found). */
static int share_before(const pitem *a, size_t ia, const pitem *b, size_t ib)
{
    if (a->nnz != b->nnz) return a->nnz < b->nnz;
    if (a->m != b->m) return a->m < b->m;
    return ia < ib;
}

void pool_item_heap_push(pool *P, size_t k)
{
    if (P->nheap == P->capheap) {
        P->capheap = P->capheap ? P->capheap * 2 : 1024;
        P->heap = xrealloc(P->heap, P->capheap * sizeof *P->heap);
    }
    size_t i = P->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!share_before(&P->it[k], k, &P->it[P->heap[up]], P->heap[up])) break;
        P->heap[i] = P->heap[up];
        i = up;
    }
    P->heap[i] = k;
}

size_t pool_item_heap_pop(pool *P)
{
    size_t top = P->heap[0], last = P->heap[--P->nheap], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= P->nheap) break;
        if (c + 1 < P->nheap && share_before(&P->it[P->heap[c + 1]], P->heap[c + 1], &P->it[P->heap[c]], P->heap[c])) c++;
        if (!share_before(&P->it[P->heap[c]], P->heap[c], &P->it[last], last)) break;
        P->heap[i] = P->heap[c];
        i = c;
    }
    if (P->nheap) P->heap[i] = last;
    return top;
}

/* Adds the share (a copy of its prefix) unless known; returns it, *fresh when new. */
pitem *pool_item_add(pool *P, int pass, int bound, uint32_t m, const uint32_t *pos, const int64_t *val,
                       uint32_t nnz, const uint8_t *pf, const int64_t *nalt, int *fresh)
{
    uint64_t id[2];
    item_id(pass, bound, m, pos, val, nnz, id);
    pitem *old = pool_item_find(P, id);
    *fresh = !old;
    if (old) return old;
    if (P->n == P->cap) {
        P->cap = P->cap ? P->cap * 2 : 1024;
        P->it = xrealloc(P->it, P->cap * sizeof *P->it);
    }
    if ((P->n + 1) * 2 > P->nslot) {
        free(P->slot);
        P->nslot = P->nslot ? P->nslot * 2 : 4096;
        while ((P->n + 1) * 2 > P->nslot) P->nslot *= 2;
        P->slot = xcalloc(P->nslot, sizeof *P->slot);
        for (size_t k = 0; k < P->n; k++) index_item(P, k);
    }
    pitem *it = &P->it[P->n];
    memset(it, 0, sizeof *it);
    it->id[0] = id[0];
    it->id[1] = id[1];
    it->pass = pass;
    it->bound = bound;
    it->m = m;
    it->nnz = nnz;
    it->pos = xmalloc((nnz + 1) * sizeof *it->pos);
    it->val = xmalloc((nnz + 1) * sizeof *it->val);
    it->pf = xcalloc(m / 8 + 1, 1);
    if (nnz) memcpy(it->pos, pos, nnz * sizeof *pos);
    if (nnz) memcpy(it->val, val, nnz * sizeof *val);
    memcpy(it->pf, pf, m / 8 + 1);
    if (nnz >= POOL_EXPAND) { /* a subtree's share: publish, run_share */
        it->nalt = xmalloc((m + 1) * sizeof *it->nalt);
        memcpy(it->nalt, nalt, m * sizeof *nalt);
    }
    it->owner_t = it->owner_a = -1;
    index_item(P, P->n);
    P->n++;
    pool_item_heap_push(P, P->n - 1);
    return it;
}
