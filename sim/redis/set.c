/* set.c — the set type: its representation and its API (set.h) (Redis 7.0's t_set.c).
 *
 * Representation: a dict (dict.h) from member to a small payload (its index in `v`, and its
 * integer value while the set is an intset), plus `v`, the payloads in reply order, so that
 * a random member (SPOP, SRANDMEMBER) is one index away and a reply walks an array.
 *
 * Redis 7.0 has two encodings a client can see through the order of SMEMBERS and through
 * OBJECT ENCODING: an intset (every member a canonical 64-bit integer, at most
 * set-max-intset-entries of them: the server's enc_limits, value.h, 512 by default), kept
 * sorted by value, and a hashtable, whose
 * order follows a hash Redis seeds at random at each start. `intset` imitates the first
 * exactly: while it holds, v is ascending by value, so SMEMBERS, SUNION, SINTER and the
 * rest answer integer sets in the order Redis does. A set converts for good (as in Redis)
 * when a non-integer member or one past the limit is added; from then on v is in the order
 * members came, with a removed member's place taken by the last one. That order is as
 * good as Redis's (which no client may rely on), and deterministic.
 *
 * Random draws (SPOP, SRANDMEMBER) come from the server's generator (cmd_rand), which
 * starts from a fixed seed: a run is a function of its commands, never of the hour.
 *
 * Invariants: dict_size(d) == len; v[p->idx] == p for every payload p; while intset, v is
 * strictly increasing by ival; an empty set exists only transiently (the handler's
 * store_touched() deletes the key). */
#include "set.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dict.h"


typedef struct smember {
    size_t idx;
    long long ival; /* while the set is an intset */
} smember;

struct set {
    dict *d;       /* member -> smember */
    smember **v;   /* payloads of d in reply order */
    size_t len, cap;
    int intset;
};

/* ---- the type API ---- */

set *set_new(void)
{
    set *s = xcalloc(1, sizeof *s);
    s->d = dict_new(sizeof(smember));
    s->intset = 1;
    return s;
}

void set_free(set *s)
{
    if (!s) return;
    dict_free(s->d, NULL);
    free(s->v);
    free(s);
}

static slice set_member(const set *s, const smember *p)
{
    return dict_key_of(s->d, p);
}

set *set_clone(const set *s)
{
    set *c = set_new();
    c->intset = s->intset;
    c->cap = s->len ? s->len : 1;
    c->v = xmalloc(c->cap * sizeof *c->v);
    for (size_t i = 0; i < s->len; i++) {
        smember *p = dict_put(c->d, set_member(s, s->v[i]), NULL);
        *p = *s->v[i];
        c->v[i] = p;
    }
    c->len = s->len;
    return c;
}

size_t set_len(const set *s)
{
    return s->len;
}

size_t set_bytes(const set *s)
{
    size_t total = sizeof *s + 64 + s->cap * sizeof *s->v;
    for (size_t i = 0; i < s->len; i++) total += 40 + set_member(s, s->v[i]).len;
    return total;
}

const char *set_encoding(const set *s)
{
    return s->intset ? "intset" : "hashtable";
}

static int cmp_slices(const void *a, const void *b)
{
    return slice_cmp(*(const slice *)a, *(const slice *)b);
}

void set_dump(const set *s, buf *out)
{
    slice *m = xmalloc((s->len ? s->len : 1) * sizeof *m);
    for (size_t i = 0; i < s->len; i++) m[i] = set_member(s, s->v[i]);
    qsort(m, s->len, sizeof *m, cmp_slices);
    buf_putc(out, '{');
    for (size_t i = 0; i < s->len; i++) {
        if (i) buf_puts(out, ", ");
        dump_repr(out, m[i].p, m[i].len);
    }
    buf_putc(out, '}');
    free(m);
}

int set_has(const set *s, slice member)
{
    return dict_get(s->d, member) != NULL;
}

slice set_at(const set *s, size_t i)
{
    LL_ASSERT(i < s->len);
    return set_member(s, s->v[i]);
}

/* Renumbers v[from..len) after a move. */
static void set_reindex(set *s, size_t from)
{
    for (size_t i = from; i < s->len; i++) s->v[i]->idx = i;
}

int set_add(set *s, slice member, const enc_limits *lim)
{
    if (dict_get(s->d, member)) return 0;
    long long iv = 0;
    /* Redis caps the limit at 2^30 (its intset's internals) */
    unsigned long long max = lim ? lim->set_intset : enc_limits_default.set_intset;
    if (max > 1u << 30) max = 1u << 30;
    if (s->intset && (s->len + 1 > max || ll_parse_int64(member, &iv) < 0)) s->intset = 0;
    if (s->len == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4;
        s->v = xrealloc(s->v, s->cap * sizeof *s->v);
    }
    smember *p = dict_put(s->d, member, NULL);
    p->ival = iv;
    size_t at = s->len;
    if (s->intset) {
        size_t lo = 0, hi = s->len;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->v[mid]->ival < iv) lo = mid + 1;
            else hi = mid;
        }
        at = lo;
        memmove(s->v + at + 1, s->v + at, (s->len - at) * sizeof *s->v);
    }
    s->v[at] = p;
    s->len++;
    set_reindex(s, at);
    return 1;
}

int set_del(set *s, slice member)
{
    smember *p = dict_get(s->d, member);
    if (!p) return 0;
    size_t i = p->idx;
    if (s->intset) {
        memmove(s->v + i, s->v + i + 1, (s->len - i - 1) * sizeof *s->v);
        s->len--;
        set_reindex(s, i);
    } else {
        s->v[i] = s->v[--s->len];
        s->v[i]->idx = i;
    }
    dict_del_payload(s->d, p);
    return 1;
}
