/* zset.c — the sorted set type: its representation and its API (zset.h).
 *
 * Representation: a dict (dict.h) from member to its score (the dict payload is one
 * double), plus an array `v` of pointers to those payloads kept sorted by (score, member
 * in byte order) — Redis's order. The member of v[i] is dict_key_of(d, v[i]), so a member's
 * bytes are stored once. ZSCORE is a dict lookup; a rank is a binary search; ZADD and ZREM
 * are a lookup, a binary search and one memmove of pointers: O(log n) plus a memmove, like
 * a skiplist in practice for the sizes locks use.
 *
 * `big` imitates the one difference between Redis's two encodings a client can see: a
 * listpack-encoded zset (at most zset-max-listpack-entries members of at most
 * zset-max-listpack-value bytes: the server's enc_limits, value.h; 128 and 64 by default)
 * stores -0 as 0, a skiplist keeps -0. A zset turns big, for good, when an insertion would
 * exceed those limits or (at creation) when the first member is too long; from then on -0
 * is kept. Only a stored result of ZUNIONSTORE and its kin, built big, turns small again
 * when it fits (zset_fit), as in Redis.
 *
 * Invariants: dict_size(d) == len; v is strictly increasing in (score, member) order with
 * -0 == 0; no score is NaN (the handlers refuse NaN before changing anything); payload
 * pointers in v stay valid because dict entries never move. An empty zset exists only
 * transiently: the handler's store_touched() deletes the key. */
#include "zset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "zsetint.h"


/* ---- low level ---- */

slice zset_member(const zset *z, const double *p)
{
    return dict_key_of(z->d, p);
}

int zset_cmp(const zset *z, const double *p, double score, slice member)
{
    if (*p < score) return -1;
    if (*p > score) return 1;
    return slice_cmp(zset_member(z, p), member);
}

/* First index whose (score, member) is >= the given pair. */
size_t zset_lower(const zset *z, double score, slice member)
{
    size_t lo = 0, hi = z->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (zset_cmp(z, z->v[mid], score, member) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* First index whose score is > s (after = 1) or >= s (after = 0). */
size_t zset_score_bound(const zset *z, double s, int after)
{
    size_t lo = 0, hi = z->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        double m = *z->v[mid];
        if (after ? m <= s : m < s) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void zset_insert_at(zset *z, size_t i, double *p)
{
    if (z->len == z->cap) {
        z->cap = z->cap ? z->cap * 2 : 4;
        z->v = xrealloc(z->v, z->cap * sizeof *z->v);
    }
    memmove(z->v + i + 1, z->v + i, (z->len - i) * sizeof *z->v);
    z->v[i] = p;
    z->len++;
}

void zset_remove_at(zset *z, size_t i)
{
    memmove(z->v + i, z->v + i + 1, (z->len - i - 1) * sizeof *z->v);
    z->len--;
}

/* The index of a member known to be present with score *p. */
size_t zset_index_of(const zset *z, const double *p)
{
    size_t i = zset_lower(z, *p, zset_member(z, p));
    LL_ASSERT(i < z->len && z->v[i] == p);
    return i;
}

/* ---- the type API ---- */

zset *zset_new(void)
{
    zset *z = xcalloc(1, sizeof *z);
    z->d = dict_new(sizeof(double));
    return z;
}

void zset_free(zset *z)
{
    if (!z) return;
    dict_free(z->d, NULL);
    free(z->v);
    free(z);
}

zset *zset_clone(const zset *z)
{
    zset *c = zset_new();
    c->big = z->big;
    c->cap = z->len;
    c->v = xmalloc((z->len ? z->len : 1) * sizeof *c->v);
    for (size_t i = 0; i < z->len; i++) {
        double *p = dict_put(c->d, zset_member(z, z->v[i]), NULL);
        *p = *z->v[i];
        c->v[i] = p;
    }
    c->len = z->len;
    return c;
}

size_t zset_len(const zset *z)
{
    return z->len;
}

const char *zset_encoding(const zset *z)
{
    return z->big ? "skiplist" : "listpack";
}

size_t zset_bytes(const zset *z)
{
    size_t total = sizeof *z + 64 + z->cap * sizeof *z->v;
    for (size_t i = 0; i < z->len; i++) total += 48 + zset_member(z, z->v[i]).len;
    return total;
}

static void dump_score(buf *out, double d)
{
    char tmp[64];
    ll_format_double(tmp, sizeof tmp, d);
    buf_puts(out, tmp);
}

void zset_dump(const zset *z, buf *out)
{
    buf_putc(out, '{');
    for (size_t i = 0; i < z->len; i++) {
        slice m = zset_member(z, z->v[i]);
        if (i) buf_puts(out, ", ");
        dump_repr(out, m.p, m.len);
        buf_puts(out, ": ");
        dump_score(out, *z->v[i]);
    }
    buf_putc(out, '}');
}

int zset_score(const zset *z, slice member, double *score)
{
    const double *p = dict_get(z->d, member);
    if (p) *score = *p;
    return p != NULL;
}

int zset_set(zset *z, slice member, double score, const enc_limits *lim)
{
    LL_ASSERT(!isnan(score));
    if (!lim) lim = &enc_limits_default;
    double *p = dict_get(z->d, member);
    int added = p == NULL;
    if (added && !z->big && (z->len + 1 > lim->zset_entries || member.len > lim->zset_value)) z->big = 1;
    if (!z->big && score == 0) score = 0.0; /* the listpack stores -0 as 0 */
    if (p) {
        if (*p == score && signbit(*p) == signbit(score)) return 0;
        zset_remove_at(z, zset_index_of(z, p));
    } else {
        p = dict_put(z->d, member, NULL);
    }
    *p = score;
    zset_insert_at(z, zset_lower(z, score, member), p);
    return added;
}

int zset_del(zset *z, slice member)
{
    double *p = dict_get(z->d, member);
    if (!p) return 0;
    zset_remove_at(z, zset_index_of(z, p));
    dict_del(z->d, member);
    return 1;
}

slice zset_at(const zset *z, size_t i, double *score)
{
    LL_ASSERT(i < z->len);
    if (score) *score = *z->v[i];
    return zset_member(z, z->v[i]);
}

/* Removes ranks [from, to). */
void zset_del_range(zset *z, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) dict_del(z->d, zset_member(z, z->v[i]));
    memmove(z->v + from, z->v + to, (z->len - to) * sizeof *z->v);
    z->len -= to - from;
}

/* ---- ranges ---- */


int zset_parse_score_bound(slice s, double *v, int *ex)
{
    *ex = s.len > 0 && s.p[0] == '(';
    char *tmp = xmemdup(s.p + *ex, s.len - (size_t)*ex), *end;
    *v = strtod(tmp, &end);
    int ok = *end == '\0' && !isnan(*v);
    free(tmp);
    return ok ? 0 : -1;
}

int zset_parse_score_range(slice min, slice max, zrange_score *r)
{
    if (zset_parse_score_bound(min, &r->min, &r->minex) < 0 ||
        zset_parse_score_bound(max, &r->max, &r->maxex) < 0)
        return -1;
    return 0;
}

/* The ranks [*from, *to) whose scores lie in r. */
void zset_score_span(const zset *z, const zrange_score *r, size_t *from, size_t *to)
{
    *from = zset_score_bound(z, r->min, r->minex);
    *to = zset_score_bound(z, r->max, !r->maxex);
    if (*to < *from) *to = *from;
}


int zset_parse_lex_bound(slice a, zlex_bound *b)
{
    b->kind = 0;
    b->ex = 0;
    if (a.len == 1 && a.p[0] == '-') b->kind = -1;
    else if (a.len == 1 && a.p[0] == '+') b->kind = 1;
    else if (a.len >= 1 && (a.p[0] == '(' || a.p[0] == '[')) {
        b->ex = a.p[0] == '(';
        b->s = (slice){ a.p + 1, a.len - 1 };
    } else return -1;
    return 0;
}

/* Redis's sdscmplex of a member against a bound: "-" is below and "+" above everything. */
int zset_lex_cmp(slice m, const zlex_bound *b)
{
    return b->kind ? -b->kind : slice_cmp(m, b->s);
}

int zset_lex_gte_min(slice m, const zlex_bound *min)
{
    int c = zset_lex_cmp(m, min);
    return min->ex ? c > 0 : c >= 0;
}

int zset_lex_lte_max(slice m, const zlex_bound *max)
{
    int c = zset_lex_cmp(m, max);
    return max->ex ? c < 0 : c <= 0;
}

/* Whether no string can lie in [min, max]: min above max, or equal with one end open. Two
 * "-" (or two "+") compare equal, as the one shared object they are in Redis. */
int zset_lex_range_empty(const zlex_bound *min, const zlex_bound *max)
{
    int c;
    if (min->kind && min->kind == max->kind) c = 0;
    else if (min->kind < 0 || max->kind > 0) c = -1;
    else if (min->kind > 0 || max->kind < 0) c = 1;
    else c = slice_cmp(min->s, max->s);
    return c > 0 || (c == 0 && (min->ex || max->ex));
}

/* The ranks [*from, *to) a BYLEX range replies, `offset` already skipped; the reply walks
 * them backwards when rev. Redis walks a listpack from one end: forwards, from the first
 * member >= min (which must be <= max), past `offset` members, then while members are
 * <= max; backwards symmetrically. Members are in byte order when all scores are equal,
 * which is what BYLEX is for: then this is plain range arithmetic. With unequal scores
 * Redis's reply is "unspecified" but, on a listpack, exactly this walk, so it is imitated
 * for small zsets; a big zset (a skiplist with random levels in Redis, so not reproducible
 * anyway) takes the binary searches, which agree whenever the members are in order. */
void zset_lex_span(const zset *z, const zlex_bound *min, const zlex_bound *max, int rev,
                          long long offset, size_t *from, size_t *to)
{
    size_t n = z->len;
    *from = *to = 0;
    if (!n || offset < 0 || zset_lex_range_empty(min, max) ||
        !zset_lex_gte_min(zset_member(z, z->v[n - 1]), min) || !zset_lex_lte_max(zset_member(z, z->v[0]), max))
        return;
    if (!rev) {
        size_t f = 0;
        if (z->big) {
            size_t lo = 0, hi = n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (zset_lex_gte_min(zset_member(z, z->v[mid]), min)) hi = mid;
                else lo = mid + 1;
            }
            f = lo;
        } else {
            while (f < n && !zset_lex_gte_min(zset_member(z, z->v[f]), min)) f++;
        }
        if (f == n || !zset_lex_lte_max(zset_member(z, z->v[f]), max)) return;
        if ((unsigned long long)offset >= n - f) return;
        size_t t = f + (size_t)offset;
        *from = t;
        while (t < n && zset_lex_lte_max(zset_member(z, z->v[t]), max)) t++;
        *to = t;
    } else {
        size_t l = n; /* one past the last member <= max */
        if (z->big) {
            size_t lo = 0, hi = n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (zset_lex_lte_max(zset_member(z, z->v[mid]), max)) lo = mid + 1;
                else hi = mid;
            }
            l = lo;
        } else {
            while (l > 0 && !zset_lex_lte_max(zset_member(z, z->v[l - 1]), max)) l--;
        }
        if (l == 0 || !zset_lex_gte_min(zset_member(z, z->v[l - 1]), min)) return;
        if ((unsigned long long)offset >= l) return;
        size_t t = l - (size_t)offset;
        *to = t;
        while (t > 0 && zset_lex_gte_min(zset_member(z, z->v[t - 1]), min)) t--;
        *from = t;
    }
}

/* ---- for t_zset_ops.c ---- */

size_t zset_rank(const zset *z, slice member, double score)
{
    return zset_lower(z, score, member);
}

int zset_lex_range(const zset *z, slice min, slice max, size_t *from, size_t *to)
{
    zlex_bound lmin, lmax;
    if (zset_parse_lex_bound(min, &lmin) < 0 || zset_parse_lex_bound(max, &lmax) < 0) return -1;
    if (z) zset_lex_span(z, &lmin, &lmax, 0, 0, from, to);
    return 0;
}

void zset_remove_ranks(zset *z, size_t from, size_t to)
{
    zset_del_range(z, from, to);
}

void zset_to_skiplist(zset *z)
{
    z->big = 1;
}

void zset_fit(zset *z, const enc_limits *lim)
{
    if (!z->big || z->len > lim->zset_entries) return;
    for (size_t i = 0; i < z->len; i++)
        if (zset_member(z, z->v[i]).len > lim->zset_value) return;
    z->big = 0;
    for (size_t i = 0; i < z->len; i++)
        if (*z->v[i] == 0) *z->v[i] = 0.0; /* the listpack stores -0 as 0 */
}
