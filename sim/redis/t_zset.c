/* t_zset.c — the sorted set type and its commands.
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
 * zset-max-listpack-value bytes: the server's enc_limits, object.h; 128 and 64 by default)
 * stores -0 as 0, a skiplist keeps -0. A zset turns big, for good, when an insertion would
 * exceed those limits or (at creation) when the first member is too long; from then on -0
 * is kept. Only a stored result of ZUNIONSTORE and its kin, built big, turns small again
 * when it fits (zset_fit), as in Redis.
 *
 * Invariants: dict_size(d) == len; v is strictly increasing in (score, member) order with
 * -0 == 0; no score is NaN (the handlers refuse NaN before changing anything); payload
 * pointers in v stay valid because dict entries never move. An empty zset exists only
 * transiently: the handler's store_touched() deletes the key. */
#include "t_zset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "dict.h"

struct zset {
    dict *d;    /* member -> double score */
    double **v; /* payloads of d in (score, member) order */
    size_t len, cap;
    int big;
};

/* ---- low level ---- */

static slice zset_member(const zset *z, const double *p)
{
    return dict_key_of(z->d, p);
}

static int zset_cmp(const zset *z, const double *p, double score, slice member)
{
    if (*p < score) return -1;
    if (*p > score) return 1;
    return slice_cmp(zset_member(z, p), member);
}

/* First index whose (score, member) is >= the given pair. */
static size_t zset_lower(const zset *z, double score, slice member)
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
static size_t zset_score_bound(const zset *z, double s, int after)
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

static void zset_insert_at(zset *z, size_t i, double *p)
{
    if (z->len == z->cap) {
        z->cap = z->cap ? z->cap * 2 : 4;
        z->v = xrealloc(z->v, z->cap * sizeof *z->v);
    }
    memmove(z->v + i + 1, z->v + i, (z->len - i) * sizeof *z->v);
    z->v[i] = p;
    z->len++;
}

static void zset_remove_at(zset *z, size_t i)
{
    memmove(z->v + i, z->v + i + 1, (z->len - i - 1) * sizeof *z->v);
    z->len--;
}

/* The index of a member known to be present with score *p. */
static size_t zset_index_of(const zset *z, const double *p)
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
static void zset_del_range(zset *z, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) dict_del(z->d, zset_member(z, z->v[i]));
    memmove(z->v + from, z->v + to, (z->len - to) * sizeof *z->v);
    z->len -= to - from;
}

/* ---- ranges ---- */

/* A score range as Redis parses it: "(" makes a bound exclusive; the rest is strtod over
 * the whole argument (so "", " 5" and "inf" are numbers; "nan" is not). */
typedef struct zrange_score {
    double min, max;
    int minex, maxex;
} zrange_score;

static int zset_parse_score_bound(slice s, double *v, int *ex)
{
    *ex = s.len > 0 && s.p[0] == '(';
    char *tmp = xmemdup(s.p + *ex, s.len - (size_t)*ex), *end;
    *v = strtod(tmp, &end);
    int ok = *end == '\0' && !isnan(*v);
    free(tmp);
    return ok ? 0 : -1;
}

static int zset_parse_score_range(slice min, slice max, zrange_score *r)
{
    if (zset_parse_score_bound(min, &r->min, &r->minex) < 0 ||
        zset_parse_score_bound(max, &r->max, &r->maxex) < 0)
        return -1;
    return 0;
}

/* The ranks [*from, *to) whose scores lie in r. */
static void zset_score_span(const zset *z, const zrange_score *r, size_t *from, size_t *to)
{
    *from = zset_score_bound(z, r->min, r->minex);
    *to = zset_score_bound(z, r->max, !r->maxex);
    if (*to < *from) *to = *from;
}

/* A lex bound: "-" and "+" are the extremes, "[x" includes x, "(x" excludes it. */
typedef struct zlex_bound {
    int kind; /* -1 minus infinity, 1 plus infinity, 0 a string */
    int ex;
    slice s;
} zlex_bound;

static int zset_parse_lex_bound(slice a, zlex_bound *b)
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
static int zset_lex_cmp(slice m, const zlex_bound *b)
{
    return b->kind ? -b->kind : slice_cmp(m, b->s);
}

static int zset_lex_gte_min(slice m, const zlex_bound *min)
{
    int c = zset_lex_cmp(m, min);
    return min->ex ? c > 0 : c >= 0;
}

static int zset_lex_lte_max(slice m, const zlex_bound *max)
{
    int c = zset_lex_cmp(m, max);
    return max->ex ? c < 0 : c <= 0;
}

/* Whether no string can lie in [min, max]: min above max, or equal with one end open. Two
 * "-" (or two "+") compare equal, as the one shared object they are in Redis. */
static int zset_lex_range_empty(const zlex_bound *min, const zlex_bound *max)
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
static void zset_lex_span(const zset *z, const zlex_bound *min, const zlex_bound *max, int rev,
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

/* ---- commands ---- */

static int zset_lookup(cmdctx *c, kv **e)
{
    return lookup_typed(c, c->argv[1], OBJ_ZSET, e);
}

static void reply_member(reply *r, const zset *z, size_t i)
{
    slice m = zset_member(z, z->v[i]);
    reply_bulk(r, m.p, m.len);
}

enum {
    ZADD_NX = 1 << 0,
    ZADD_XX = 1 << 1,
    ZADD_GT = 1 << 2,
    ZADD_LT = 1 << 3,
    ZADD_CH = 1 << 4,
    ZADD_INCR = 1 << 5,
};

/* Redis's zsetAdd for one element: whether it was added, updated, or left alone (nop);
 * *newscore receives the resulting score. Returns -1 if an increment gives NaN. */
typedef enum zadd_outcome { ZADD_NOP, ZADD_SAME, ZADD_UPDATED, ZADD_ADDED, ZADD_NAN } zadd_outcome;

static zadd_outcome zset_add_one(zset *z, slice member, double score, unsigned flags, double *newscore,
                                 const enc_limits *lim)
{
    double cur;
    if (!zset_score(z, member, &cur)) {
        if (flags & ZADD_XX) return ZADD_NOP;
        zset_set(z, member, score, lim);
        *newscore = score;
        return ZADD_ADDED;
    }
    if (flags & ZADD_NX) return ZADD_NOP;
    if (flags & ZADD_INCR) {
        score += cur;
        if (isnan(score)) return ZADD_NAN;
    }
    if (((flags & ZADD_LT) && score >= cur) || ((flags & ZADD_GT) && score <= cur)) return ZADD_NOP;
    *newscore = score;
    if (score == cur) return ZADD_SAME; /* processed, but not an update (0 == -0 too) */
    zset_set(z, member, score, lim);
    return ZADD_UPDATED;
}

/* ZADD and ZINCRBY: parse and validate every option and score first, then apply. */
static void zset_add_command(cmdctx *c, unsigned flags, int scoreidx)
{
    /* Options compare as Redis's strcasecmp does (slice_opt_is), here and in ZRANGE. */
    for (; scoreidx < c->argc; scoreidx++) {
        slice o = c->argv[scoreidx];
        if (slice_opt_is(o, "nx")) flags |= ZADD_NX;
        else if (slice_opt_is(o, "xx")) flags |= ZADD_XX;
        else if (slice_opt_is(o, "ch")) flags |= ZADD_CH;
        else if (slice_opt_is(o, "incr")) flags |= ZADD_INCR;
        else if (slice_opt_is(o, "gt")) flags |= ZADD_GT;
        else if (slice_opt_is(o, "lt")) flags |= ZADD_LT;
        else break;
    }
    int elements = c->argc - scoreidx;
    if (elements % 2 || !elements) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    elements /= 2;
    if ((flags & ZADD_NX) && (flags & ZADD_XX)) {
        reply_error(c->out, "ERR XX and NX options at the same time are not compatible");
        return;
    }
    if (((flags & ZADD_GT) && (flags & ZADD_NX)) || ((flags & ZADD_LT) && (flags & ZADD_NX)) ||
        ((flags & ZADD_GT) && (flags & ZADD_LT))) {
        reply_error(c->out, "ERR GT, LT, and/or NX options at the same time are not compatible");
        return;
    }
    if ((flags & ZADD_INCR) && elements > 1) {
        reply_error(c->out, "ERR INCR option supports a single increment-element pair");
        return;
    }
    double *scores = xmalloc((size_t)elements * sizeof *scores);
    for (int j = 0; j < elements; j++) {
        if (arg_double(c, scoreidx + 2 * j, &scores[j]) < 0) {
            free(scores);
            return;
        }
    }

    kv *e;
    if (zset_lookup(c, &e) < 0) {
        free(scores);
        return;
    }
    long long added = 0, updated = 0, processed = 0;
    double score = 0;
    zset *z = e ? e->ptr : NULL;
    if (!z && !(flags & ZADD_XX)) {
        z = zset_new();
        z->big = cmd_limits(c)->zset_entries == 0 || c->argv[scoreidx + 1].len > cmd_limits(c)->zset_value;
        e = store_set(c->db, c->argv[1], OBJ_ZSET, z, 0);
    }
    for (int j = 0; z && j < elements; j++) {
        zadd_outcome o = zset_add_one(z, c->argv[scoreidx + 2 * j + 1], scores[j], flags, &score, cmd_limits(c));
        if (o == ZADD_NAN) {
            reply_error(c->out, "ERR resulting score is not a number (NaN)");
            break;
        }
        added += o == ZADD_ADDED;
        updated += o == ZADD_UPDATED;
        processed += o != ZADD_NOP;
    }
    free(scores);
    /* A key created here always gained a member (only an existing member can be blocked
     * or give NaN); the emptiness check is belt and braces. */
    if (e && (added || updated || zset_len(z) == 0)) store_touched(c->db, e);
    if (reply_is_error(c->out)) return;
    if (flags & ZADD_INCR) {
        if (processed) reply_double(c->out, score);
        else reply_nil(c->out);
    } else {
        reply_int(c->out, (flags & ZADD_CH) ? added + updated : added);
    }
}

void cmd_zadd(cmdctx *c)
{
    zset_add_command(c, 0, 2);
}

/* ZINCRBY key increment member: ZADD key INCR increment member, options not accepted. */
void cmd_zincrby(cmdctx *c)
{
    zset_add_command(c, ZADD_INCR, 2);
}

void cmd_zscore(cmdctx *c)
{
    kv *e;
    double s;
    if (zset_lookup(c, &e) < 0) return;
    if (e && zset_score(e->ptr, c->argv[2], &s)) reply_double(c->out, s);
    else reply_nil(c->out);
}

void cmd_zcard(cmdctx *c)
{
    kv *e;
    if (zset_lookup(c, &e) < 0) return;
    reply_int(c->out, e ? (long long)zset_len(e->ptr) : 0);
}

void cmd_zrank(cmdctx *c)
{
    kv *e;
    double s;
    if (zset_lookup(c, &e) < 0) return;
    if (!e || !zset_score(e->ptr, c->argv[2], &s)) {
        reply_nil(c->out);
        return;
    }
    reply_int(c->out, (long long)zset_lower(e->ptr, s, c->argv[2]));
}

void cmd_zrem(cmdctx *c)
{
    kv *e;
    if (zset_lookup(c, &e) < 0) return;
    long long removed = 0;
    for (int i = 2; e && i < c->argc; i++) removed += zset_del(e->ptr, c->argv[i]);
    if (removed) store_touched(c->db, e);
    reply_int(c->out, removed);
}

void cmd_zcount(cmdctx *c)
{
    zrange_score r;
    kv *e;
    size_t from = 0, to = 0;
    if (zset_parse_score_range(c->argv[2], c->argv[3], &r) < 0) {
        reply_error(c->out, "ERR min or max is not a float");
        return;
    }
    if (zset_lookup(c, &e) < 0) return;
    if (e) zset_score_span(e->ptr, &r, &from, &to);
    reply_int(c->out, (long long)(to - from));
}

void cmd_zremrangebyscore(cmdctx *c)
{
    zrange_score r;
    kv *e;
    size_t from = 0, to = 0;
    if (zset_parse_score_range(c->argv[2], c->argv[3], &r) < 0) {
        reply_error(c->out, "ERR min or max is not a float");
        return;
    }
    if (zset_lookup(c, &e) < 0) return;
    if (e) {
        zset_score_span(e->ptr, &r, &from, &to);
        zset_del_range(e->ptr, from, to);
        if (to > from) store_touched(c->db, e);
    }
    reply_int(c->out, (long long)(to - from));
}

/* ---- ZRANGE and ZRANGEBYSCORE (Redis 7.0's zrangeGenericCommand) ---- */

enum { ZR_AUTO, ZR_RANK, ZR_SCORE, ZR_LEX };

typedef struct zrange_req {
    int key;        /* argv index of the source key: 1, or 2 for ZRANGESTORE */
    zset *store;    /* ZRANGESTORE: the result is collected here instead of replied */
    int type;       /* ZR_RANK, ZR_SCORE, ZR_LEX */
    int rev;
    int withscores;
    long long offset, limit; /* limit -1: no LIMIT given, or unlimited */
    int minidx, maxidx;      /* argv positions of the range, after REV's swap */
} zrange_req;

/* Parses options from argv[key + 3] on; `rev` is the direction when rev_allowed is 0
 * (ZREVRANGE...). Returns 0, or -1 after replying an error. */
static int zrange_parse(cmdctx *c, zrange_req *q, int type, int rev_allowed, int rev)
{
    int dir_set = !rev_allowed;
    q->type = type;
    q->rev = rev;
    q->withscores = 0;
    q->offset = 0;
    q->limit = -1;
    for (int j = q->key + 3; j < c->argc; j++) {
        slice o = c->argv[j];
        int left = c->argc - j - 1;
        if (!q->store && slice_opt_is(o, "withscores")) {
            q->withscores = 1;
        } else if (slice_opt_is(o, "limit") && left >= 2) {
            if (arg_int64(c, j + 1, &q->offset) < 0 || arg_int64(c, j + 2, &q->limit) < 0) return -1;
            j += 2;
        } else if (!dir_set && slice_opt_is(o, "rev")) {
            q->rev = 1;
            dir_set = 1;
        } else if (q->type == ZR_AUTO && slice_opt_is(o, "bylex")) {
            q->type = ZR_LEX;
        } else if (q->type == ZR_AUTO && slice_opt_is(o, "byscore")) {
            q->type = ZR_SCORE;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return -1;
        }
    }
    if (q->type == ZR_AUTO) q->type = ZR_RANK;
    if (q->limit != -1 && q->type == ZR_RANK) {
        reply_error(c->out, "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
        return -1;
    }
    if (q->withscores && q->type == ZR_LEX) {
        reply_error(c->out, "ERR syntax error, WITHSCORES not supported in combination with BYLEX");
        return -1;
    }
    /* BYSCORE and BYLEX with REV take the range as max, min. */
    int swap = q->rev && q->type != ZR_RANK;
    q->minidx = q->key + (swap ? 2 : 1);
    q->maxidx = q->key + (swap ? 1 : 2);
    return 0;
}

/* Replies ranks [from, to) of z, walked backwards when rev, after skipping `offset` and
 * taking at most `limit` (negative: all), with scores if asked. */
static void zrange_emit(cmdctx *c, const zset *z, const zrange_req *q, size_t from, size_t to,
                        long long offset, long long limit)
{
    size_t span = to > from ? to - from : 0;
    if (offset < 0 || (unsigned long long)offset >= span) span = 0;
    else span -= (size_t)offset;
    if (limit >= 0 && (unsigned long long)limit < span) span = (size_t)limit;
    if (q->store) {
        for (size_t k = 0; k < span; k++) {
            size_t i = q->rev ? to - 1 - (size_t)offset - k : from + (size_t)offset + k;
            zset_set(q->store, zset_member(z, z->v[i]), *z->v[i], NULL);
        }
        return;
    }
    size_t per = q->withscores ? 2 : 1;
    reply *el = reply_array(c->out, span * per);
    if (q->withscores) reply_tag(c->out, R3_PAIRS);
    for (size_t k = 0; k < span; k++) {
        size_t i = q->rev ? to - 1 - (size_t)offset - k : from + (size_t)offset + k;
        reply_member(el++, z, i);
        if (q->withscores) reply_double(el++, *z->v[i]);
    }
}

static void zrange_run(cmdctx *c, int type, int rev_allowed, int rev, zset *into)
{
    zrange_req q = { .key = into ? 2 : 1, .store = into };
    long long start = 0, end = 0;
    zrange_score rs;
    zlex_bound lmin, lmax;
    if (zrange_parse(c, &q, type, rev_allowed, rev) < 0) return;
    switch (q.type) {
    case ZR_RANK:
        if (arg_int64(c, q.minidx, &start) < 0 || arg_int64(c, q.maxidx, &end) < 0) return;
        break;
    case ZR_SCORE:
        if (zset_parse_score_range(c->argv[q.minidx], c->argv[q.maxidx], &rs) < 0) {
            reply_error(c->out, "ERR min or max is not a float");
            return;
        }
        break;
    default:
        if (zset_parse_lex_bound(c->argv[q.minidx], &lmin) < 0 ||
            zset_parse_lex_bound(c->argv[q.maxidx], &lmax) < 0) {
            reply_error(c->out, "ERR min or max not valid string range item");
            return;
        }
        break;
    }
    kv *e;
    if (lookup_typed(c, c->argv[q.key], OBJ_ZSET, &e) < 0) return;
    if (!e) {
        reply_array(c->out, 0);
        return;
    }
    const zset *z = e->ptr;
    size_t from = 0, to = 0;
    if (q.type == ZR_RANK) {
        /* LRANGE's normalisation; REV counts ranks from the top. */
        long long n = (long long)z->len;
        if (start < 0) start += n;
        if (end < 0) end += n;
        if (start < 0) start = 0;
        if (start <= end && start < n) {
            if (end >= n) end = n - 1;
            from = q.rev ? (size_t)(n - 1 - end) : (size_t)start;
            to = q.rev ? (size_t)(n - start) : (size_t)end + 1;
        }
        zrange_emit(c, z, &q, from, to, 0, -1);
        return;
    }
    if (q.type == ZR_SCORE) {
        zset_score_span(z, &rs, &from, &to);
        zrange_emit(c, z, &q, from, to, q.offset, q.limit);
        return;
    }
    zset_lex_span(z, &lmin, &lmax, q.rev, q.offset, &from, &to);
    zrange_emit(c, z, &q, from, to, 0, q.limit);
}

void cmd_zrange(cmdctx *c) { zrange_run(c, ZR_AUTO, 1, 0, NULL); }
void cmd_zrangebyscore(cmdctx *c) { zrange_run(c, ZR_SCORE, 0, 0, NULL); }
void cmd_zrevrange(cmdctx *c) { zrange_run(c, ZR_RANK, 0, 1, NULL); }
void cmd_zrevrangebyscore(cmdctx *c) { zrange_run(c, ZR_SCORE, 0, 1, NULL); }
void cmd_zrangebylex(cmdctx *c) { zrange_run(c, ZR_LEX, 0, 0, NULL); }
void cmd_zrevrangebylex(cmdctx *c) { zrange_run(c, ZR_LEX, 0, 1, NULL); }

/* ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]: ZRANGE's
 * selection stored under dst (an empty one deletes dst); its size is the reply. */
void cmd_zrangestore(cmdctx *c)
{
    zset *r = zset_new();
    r->big = 1;
    zrange_run(c, ZR_AUTO, 1, 0, r);
    if (c->out->type == REPLY_ERROR) {
        zset_free(r);
        return;
    }
    zset_fit(r, cmd_limits(c));
    long long n = (long long)r->len;
    if (n) store_touched(c->db, store_set(c->db, c->argv[1], OBJ_ZSET, r, 0));
    else {
        zset_free(r);
        store_delete(c->db, c->argv[1]);
    }
    reply_int(c->out, n);
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
