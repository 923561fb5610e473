/* list.c — the list type: its representation and its API (list.h).
 *
 * Representation: a ring buffer of sstr* elements. `cap` is 0 or a power of two; element i
 * (0 = head) lives at v[(head + i) & (cap - 1)]. Pushes and pops at either end are O(1)
 * amortised, which is what queues (Redisson's fair lock) do; LINDEX and LSET are O(1);
 * LREM and LTRIM first make the buffer contiguous (head = 0) and then compact it.
 *
 * Invariants: len <= cap; the slots outside [head, head + len) hold garbage and own
 * nothing; every element is owned by the list. An empty list exists only transiently: the
 * handler's store_touched() deletes the key. Redis's quicklist of listpacks is a memory
 * optimisation invisible to clients, so it is not imitated. */
#include "list.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


struct list {
    sstr **v;
    size_t head, len, cap;
};

/* ---- low level ---- */

static size_t list_slot(const list *l, size_t i)
{
    return (l->head + i) & (l->cap - 1);
}

/* Re-lays the elements out contiguously from slot 0 in a buffer of newcap slots. */
static void list_relayout(list *l, size_t newcap)
{
    sstr **v = xmalloc((newcap ? newcap : 1) * sizeof *v);
    for (size_t i = 0; i < l->len; i++) v[i] = l->v[list_slot(l, i)];
    free(l->v);
    l->v = v;
    l->cap = newcap;
    l->head = 0;
}

static void list_reserve_one(list *l)
{
    if (l->len == l->cap) list_relayout(l, l->cap ? l->cap * 2 : 4);
}

/* Makes the elements contiguous: v[0 .. len) afterwards. */
static void list_linearize(list *l)
{
    if (l->head != 0) list_relayout(l, l->cap);
}

/* ---- the type API ---- */

list *list_new(void)
{
    return xcalloc(1, sizeof(list));
}

void list_free(list *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->len; i++) free(l->v[list_slot(l, i)]);
    free(l->v);
    free(l);
}

list *list_clone(const list *l)
{
    list *c = list_new();
    for (size_t i = 0; i < l->len; i++) list_push(c, sstr_slice(list_at(l, i)), LIST_TAIL);
    return c;
}

size_t list_len(const list *l)
{
    return l->len;
}

size_t list_bytes(const list *l)
{
    size_t total = sizeof *l + l->cap * sizeof(sstr *);
    for (size_t i = 0; i < l->len; i++) total += sizeof(sstr) + list_at(l, i)->len + 1;
    return total;
}

void list_dump(const list *l, buf *out)
{
    buf_putc(out, '[');
    for (size_t i = 0; i < l->len; i++) {
        const sstr *s = list_at(l, i);
        if (i) buf_puts(out, ", ");
        dump_repr(out, s->p, s->len);
    }
    buf_putc(out, ']');
}

const sstr *list_at(const list *l, size_t i)
{
    LL_ASSERT(i < l->len);
    return l->v[list_slot(l, i)];
}

void list_push(list *l, slice v, int where)
{
    list_reserve_one(l);
    sstr *s = sstr_new(v.p, v.len);
    if (where == LIST_HEAD) {
        l->head = (l->head + l->cap - 1) & (l->cap - 1);
        l->v[l->head] = s;
    } else {
        l->v[list_slot(l, l->len)] = s;
    }
    l->len++;
}

sstr *list_pop(list *l, int where)
{
    LL_ASSERT(l->len > 0);
    sstr *s;
    if (where == LIST_HEAD) {
        s = l->v[l->head];
        l->head = (l->head + 1) & (l->cap - 1);
    } else {
        s = l->v[list_slot(l, l->len - 1)];
    }
    l->len--;
    return s;
}

/* Replaces element i (0 <= i < len) with a copy of v. */
void list_replace(list *l, size_t i, slice v)
{
    size_t k = list_slot(l, i);
    free(l->v[k]);
    l->v[k] = sstr_new(v.p, v.len);
}

/* Removes up to `max` elements equal to v (0 = all), scanning from the head, or from the
 * tail when from_tail. Returns how many were removed. */
size_t list_remove(list *l, slice v, unsigned long long max, int from_tail)
{
    list_linearize(l);
    size_t n = l->len, removed = 0;
    if (!from_tail) {
        size_t w = 0;
        for (size_t r = 0; r < n; r++) {
            sstr *s = l->v[r];
            if ((!max || removed < max) && slice_eq(sstr_slice(s), v)) {
                free(s);
                removed++;
            } else {
                l->v[w++] = s;
            }
        }
    } else {
        size_t w = n;
        for (size_t r = n; r-- > 0;) {
            sstr *s = l->v[r];
            if ((!max || removed < max) && slice_eq(sstr_slice(s), v)) {
                free(s);
                removed++;
            } else {
                l->v[--w] = s;
            }
        }
        memmove(l->v, l->v + w, (n - w) * sizeof *l->v);
    }
    l->len = n - removed;
    return removed;
}

/* Inserts a copy of v so that it becomes element i (0 <= i <= len). */
void list_insert(list *l, size_t i, slice v)
{
    list_reserve_one(l);
    list_linearize(l);
    memmove(l->v + i + 1, l->v + i, (l->len - i) * sizeof *l->v);
    l->v[i] = sstr_new(v.p, v.len);
    l->len++;
}

/* Keeps only elements [s, e] (inclusive, in range), or none when keep is 0. */
void list_keep(list *l, int keep, size_t s, size_t e)
{
    list_linearize(l);
    size_t n = l->len, lo = keep ? s : n, hi = keep ? e + 1 : n;
    for (size_t i = 0; i < n; i++)
        if (i < lo || i >= hi) free(l->v[i]);
    if (lo < hi) memmove(l->v, l->v + lo, (hi - lo) * sizeof *l->v);
    l->len = hi > lo ? hi - lo : 0;
}
