/* alts.c — sets of alternatives (exploreint.h): which values of a decision the search has
 * enabled or taken. Values below 64 in a bit mask, the rest in a sorted vector; `all` for a
 * decision whose every value is enabled. And their form in the messages to search workers. */
#include "exploreint.h"

#include <stdlib.h>
#include <string.h>

void alts_clear(alts *a)
{
    a->all = 0;
    a->mask = 0;
    a->n = 0;
}

void alts_free(alts *a)
{
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* Where u is, or would go, in a's sorted values. */
static uint32_t alts_pos(const alts *a, int64_t u)
{
    uint32_t lo = 0, hi = a->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (a->v[mid] < u) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

int alts_has(const alts *a, int64_t u)
{
    if (a->all) return 1;
    if (u >= 0 && u < 64) return (int)(a->mask >> u & 1);
    uint32_t i = alts_pos(a, u);
    return i < a->n && a->v[i] == u;
}

void alts_add(alts *a, int64_t u)
{
    LL_ASSERT(u >= 0);
    if (a->all) return;
    if (u < 64) {
        a->mask |= 1ULL << u;
        return;
    }
    uint32_t i = alts_pos(a, u);
    if (i < a->n && a->v[i] == u) return;
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 4;
        a->v = xrealloc(a->v, a->cap * sizeof *a->v);
    }
    memmove(a->v + i + 1, a->v + i, (a->n - i) * sizeof *a->v);
    a->v[i] = u;
    a->n++;
}

int64_t alts_next(const alts *a, int64_t u, int64_t n)
{
    int64_t x = -1;
    if (a->all) x = u + 1;
    else {
        for (int64_t b = u + 1 < 0 ? 0 : u + 1; b < 64; b++)
            if (a->mask >> b & 1) {
                x = b;
                break;
            }
        if (x < 0) {
            uint32_t i = alts_pos(a, u + 1 < 64 ? 64 : u + 1);
            if (i < a->n) x = a->v[i];
        }
    }
    return x >= 0 && x < n ? x : -1;
}

int alts_union(alts *dst, const alts *src, alts *fresh)
{
    int any = 0;
    if (src->all && !dst->all) {
        dst->all = 1;
        if (fresh) fresh->all = 1;
        return 1;
    }
    uint64_t m = src->mask & ~dst->mask;
    if (m && !dst->all) {
        dst->mask |= m;
        if (fresh) fresh->mask |= m;
        any = 1;
    }
    for (uint32_t i = 0; i < src->n; i++)
        if (!alts_has(dst, src->v[i])) {
            alts_add(dst, src->v[i]);
            if (fresh) alts_add(fresh, src->v[i]);
            any = 1;
        }
    return any;
}

void alts_copy(alts *dst, const alts *src)
{
    alts_clear(dst);
    alts_union(dst, src, NULL);
}

alts *alts_array(size_t n)
{
    return xcalloc(n + 1, sizeof(alts));
}

void alts_array_free(alts *a, size_t n)
{
    if (!a) return;
    for (size_t i = 0; i < n; i++) free(a[i].v);
    free(a);
}

void alts_write(buf *b, const alts *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t head[3] = { (uint64_t)a[i].all, a[i].mask, a[i].n };
        buf_append(b, (const char *)head, sizeof head);
        if (a[i].n) buf_append(b, (const char *)a[i].v, a[i].n * sizeof *a[i].v);
    }
}

int alts_read(int fd, alts *a, size_t n, int (*read_full)(int, void *, size_t))
{
    for (size_t i = 0; i < n; i++) {
        uint64_t head[3];
        if (read_full(fd, head, sizeof head)) return -1;
        if (head[2] > (1u << 26)) return -1;
        alts_clear(&a[i]);
        a[i].all = (int)head[0];
        a[i].mask = head[1];
        if (head[2]) {
            if (a[i].cap < head[2]) {
                a[i].cap = (uint32_t)head[2];
                a[i].v = xrealloc(a[i].v, a[i].cap * sizeof *a[i].v);
            }
            if (read_full(fd, a[i].v, head[2] * sizeof *a[i].v)) return -1;
            a[i].n = (uint32_t)head[2];
        }
    }
    return 0;
}
