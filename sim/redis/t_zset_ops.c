/* t_zset_ops.c — the sorted-set commands beyond the ones locks use (t_zset.c holds the type
 * and ZADD, ZRANGE and their kin): ZREVRANK, ZLEXCOUNT, ZMSCORE, ZPOPMIN, ZPOPMAX, ZMPOP and
 * their blocking forms (which need not wait here: nothing else runs while one would),
 * ZRANDMEMBER, ZREMRANGEBYRANK, ZREMRANGEBYLEX, ZUNION, ZINTER, ZDIFF and their STORE
 * forms, ZINTERCARD and ZSCAN, through the type API of zset.h, with Redis 7.0.15's order
 * of checks and error texts.
 *
 * ZUNION, ZINTER and ZDIFF take sets as inputs too (every member scored 1), as Redis
 * does. A weighted score that is NaN (inf times 0) counts 0, and so does a sum that is NaN
 * (inf + -inf), as in Redis's zunionInterAggregate. ZRANDMEMBER draws from the server's
 * generator (cmd_rand). ZSCAN answers every member in one reply, cursor 0, as Redis does
 * for a listpack-encoded zset. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "object.h"
#include "set.h"
#include "zset.h"

static int zlookup(cmdctx *c, slice key, kv **e)
{
    return lookup_typed(c, key, OBJ_ZSET, e);
}

static void reply_pair(reply **el, const zset *z, size_t i)
{
    double s;
    slice m = zset_at(z, i, &s);
    reply_bulk((*el)++, m.p, m.len);
    reply_double((*el)++, s);
}

/* The member at rank i, and its score if withscores. */
static void reply_member(reply **el, const zset *z, size_t i, int withscores)
{
    if (withscores) {
        reply_pair(el, z, i);
    } else {
        slice m = zset_at(z, i, NULL);
        reply_bulk((*el)++, m.p, m.len);
    }
}

void cmd_zrevrank(cmdctx *c)
{
    kv *e;
    double s;
    if (zlookup(c, c->argv[1], &e) < 0) return;
    if (!e || !zset_score(e->ptr, c->argv[2], &s)) {
        reply_nil(c->out);
        return;
    }
    reply_int(c->out, (long long)(zset_len(e->ptr) - 1 - zset_rank(e->ptr, c->argv[2], s)));
}

void cmd_zmscore(cmdctx *c)
{
    kv *e;
    double s;
    if (zlookup(c, c->argv[1], &e) < 0) return;
    reply *el = reply_array(c->out, (size_t)c->argc - 2);
    for (int i = 2; i < c->argc; i++)
        if (e && zset_score(e->ptr, c->argv[i], &s)) reply_double(&el[i - 2], s);
}

static const char ERR_LEX[] = "ERR min or max not valid string range item";

/* ZLEXCOUNT and ZREMRANGEBYLEX: the range is checked before the key. */
static void zlex_command(cmdctx *c, int remove)
{
    kv *e;
    size_t from = 0, to = 0;
    if (zset_lex_range(NULL, c->argv[2], c->argv[3], &from, &to) < 0) {
        reply_error(c->out, ERR_LEX);
        return;
    }
    if (zlookup(c, c->argv[1], &e) < 0) return;
    if (e) zset_lex_range(e->ptr, c->argv[2], c->argv[3], &from, &to);
    if (e && remove && to > from) {
        zset_remove_ranks(e->ptr, from, to);
        store_touched(c->db, e);
    }
    reply_int(c->out, (long long)(to - from));
}

void cmd_zlexcount(cmdctx *c) { zlex_command(c, 0); }
void cmd_zremrangebylex(cmdctx *c) { zlex_command(c, 1); }

void cmd_zremrangebyrank(cmdctx *c)
{
    long long start, end;
    kv *e;
    if (arg_int64(c, 2, &start) < 0 || arg_int64(c, 3, &end) < 0) return;
    if (zlookup(c, c->argv[1], &e) < 0) return;
    long long removed = 0;
    if (e) {
        long long n = (long long)zset_len(e->ptr);
        if (start < 0) start += n;
        if (end < 0) end += n;
        if (start < 0) start = 0;
        if (start <= end && start < n) {
            if (end >= n) end = n - 1;
            zset_remove_ranks(e->ptr, (size_t)start, (size_t)end + 1);
            removed = end - start + 1;
            store_touched(c->db, e);
        }
    }
    reply_int(c->out, removed);
}

/* ---- ZPOPMIN, ZPOPMAX, ZMPOP ---- */

/* Pops up to count members of e's zset from its low (max = 0) or high end into r: flat
 * member/score pairs, or [member, score] arrays when nested (ZMPOP). */
static void zpop_into(cmdctx *c, kv *e, int max, long long count, reply *r, int nested)
{
    zset *z = e->ptr;
    size_t n = (unsigned long long)count < zset_len(z) ? (size_t)count : zset_len(z);
    reply *el = reply_array(r, nested ? n : 2 * n), *flat = el;
    for (size_t k = 0; k < n; k++) {
        size_t i = max ? zset_len(z) - 1 : 0;
        if (nested) {
            reply *pair = reply_array(&el[k], 2);
            reply_pair(&pair, z, i);
        } else {
            reply_pair(&flat, z, i);
        }
        zset_remove_ranks(z, i, i + 1);
    }
    if (n) store_touched(c->db, e);
}

static void zpop_command(cmdctx *c, int max)
{
    if (c->argc > 3) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    long long count = 1;
    if (c->argc == 3 && (ll_parse_int64(c->argv[2], &count) < 0 || count < 0)) {
        reply_error(c->out, "ERR value is out of range, must be positive");
        return;
    }
    kv *e;
    if (zlookup(c, c->argv[1], &e) < 0) return;
    if (!e || count == 0) {
        reply_array(c->out, 0);
        return;
    }
    zpop_into(c, e, max, count, c->out, 0);
    if (c->argc == 3) reply_tag(c->out, R3_PAIRS); /* with a count: [member, score] pairs in RESP3 */
}

void cmd_zpopmin(cmdctx *c) { zpop_command(c, 0); }
void cmd_zpopmax(cmdctx *c) { zpop_command(c, 1); }

/* BZPOPMIN/BZPOPMAX key [key ...] timeout: the first non-empty zset's lowest (highest)
 * member as [key, member, score]; when every zset is empty the wait could only end with its
 * timeout here (nothing else runs while a command waits, as BLPOP says in t_list.c). */
static void bzpop_command(cmdctx *c, int max)
{
    long long timeout;
    if (arg_timeout(c, c->argv[c->argc - 1], &timeout) < 0) return;
    for (int i = 1; i < c->argc - 1; i++) {
        kv *e;
        if (lookup_blocked(c, c->argv[i], OBJ_ZSET, &e) < 0) return;
        if (!e) continue;
        reply *el = reply_array(c->out, 3);
        reply_bulk(&el[0], c->argv[i].p, c->argv[i].len);
        reply tmp;
        reply_init(&tmp);
        zpop_into(c, e, max, 1, &tmp, 0);
        reply_move(&el[1], &tmp.elem[0]);
        reply_move(&el[2], &tmp.elem[1]);
        reply_release(&tmp);
        return;
    }
    cmd_block_or_nil(c, timeout);
}

void cmd_bzpopmin(cmdctx *c) { bzpop_command(c, 0); }
void cmd_bzpopmax(cmdctx *c) { bzpop_command(c, 1); }

/* ZMPOP numkeys key [key ...] MIN|MAX [COUNT count] (at argv[k] on; BZMPOP's timeout
 * before them): LMPOP's parsing (arg_mpop), then the first non-empty zset's members as
 * [key, [[member, score], ...]], or a null array. */
static void zmpop_command(cmdctx *c, int k)
{
    int first, nkeys, max;
    long long count, timeout;
    if (arg_mpop(c, k, "min", "max", &first, &nkeys, &max, &count) < 0) return;
    if (k == 2 && arg_timeout(c, c->argv[1], &timeout) < 0) return;
    for (int i = first; i < first + nkeys; i++) {
        kv *e;
        if (lookup_blocked(c, c->argv[i], OBJ_ZSET, &e) < 0) return;
        if (!e) continue;
        reply *out = reply_array(c->out, 2);
        reply_bulk(&out[0], c->argv[i].p, c->argv[i].len);
        zpop_into(c, e, max, count, &out[1], 1);
        return;
    }
    if (k == 2) cmd_block_or_nil(c, timeout);
    else reply_nil_array(c->out);
}

void cmd_zmpop(cmdctx *c) { zmpop_command(c, 1); }
void cmd_bzmpop(cmdctx *c) { zmpop_command(c, 2); }

/* ---- ZRANDMEMBER ---- */

void cmd_zrandmember(cmdctx *c)
{
    long long count = 0;
    int withscores = 0;
    if (c->argc >= 3 && arg_random_count(c, "withscores", &count, &withscores) < 0) return;
    kv *e;
    if (zlookup(c, c->argv[1], &e) < 0) return;
    if (c->argc == 2) {
        if (!e) {
            reply_nil(c->out);
            return;
        }
        slice m = zset_at(e->ptr, (size_t)cmd_rand(c, zset_len(e->ptr)), NULL);
        reply_bulk(c->out, m.p, m.len);
        return;
    }
    if (!e || count == 0) {
        reply_array(c->out, 0);
        return;
    }
    const zset *z = e->ptr;
    size_t size = zset_len(z), per = withscores ? 2 : 1;
    if (count < 0) {
        if (random_count_ok(c, (unsigned long long)-count) < 0) return;
        reply *el = reply_array(c->out, (size_t)-count * per);
        if (withscores) reply_tag(c->out, R3_PAIRS);
        for (long long k = 0; k < -count; k++) reply_member(&el, z, (size_t)cmd_rand(c, size), withscores);
        return;
    }
    /* A count that takes every member answers them from the highest rank down, as Redis's
     * iterator over the whole zset does. */
    size_t n = (unsigned long long)count >= size ? size : (size_t)count;
    size_t *ix = n < size ? cmd_rand_distinct(c, size, n) : NULL;
    reply *el = reply_array(c->out, n * per);
    if (withscores) reply_tag(c->out, R3_PAIRS);
    for (size_t k = 0; k < n; k++) reply_member(&el, z, ix ? ix[k] : size - 1 - k, withscores);
    free(ix);
}

/* ---- ZUNIONSTORE, ZINTERSTORE ---- */

enum { AGG_SUM, AGG_MIN, AGG_MAX };

typedef struct zsrc {
    const kv *e;    /* NULL: a missing key, an empty input */
    double weight;
} zsrc;

static size_t zsrc_len(const zsrc *s)
{
    if (!s->e) return 0;
    return s->e->type == OBJ_SET ? set_len(s->e->ptr) : zset_len(s->e->ptr);
}

/* The i-th member of an input and its (unweighted) score. */
static slice zsrc_at(const zsrc *s, size_t i, double *score)
{
    if (s->e->type == OBJ_SET) {
        *score = 1.0;
        return set_at(s->e->ptr, i);
    }
    return zset_at(s->e->ptr, i, score);
}

static int zsrc_score(const zsrc *s, slice m, double *score)
{
    if (!s->e) return 0;
    if (s->e->type == OBJ_SET) {
        *score = 1.0;
        return set_has(s->e->ptr, m);
    }
    return zset_score(s->e->ptr, m, score);
}

static double weighted(const zsrc *s, double v)
{
    double w = s->weight * v;
    return isnan(w) ? 0.0 : w;
}

static double aggregate(int agg, double a, double b)
{
    if (agg == AGG_MIN) return b < a ? b : a;
    if (agg == AGG_MAX) return b > a ? b : a;
    double t = a + b;
    return isnan(t) ? 0.0 : t;
}

static int by_len(const void *a, const void *b)
{
    size_t x = zsrc_len(a), y = zsrc_len(b);
    return x < y ? -1 : x > y;
}

enum { ZOP_UNION, ZOP_INTER, ZOP_DIFF };

/* Redis's zunionInterDiffGenericCommand: ZUNION, ZINTER, ZDIFF (reply), their STORE forms
 * (dst = 1: argv[1] is the destination) and ZINTERCARD (card). numkeys is at argv[dst + 1];
 * it is checked, then every input's type, then the options. */
static void zset_op(cmdctx *c, int dst, int op, int card)
{
    long long num, limit = 0;
    int ni = dst + 1;
    if (arg_int64(c, ni, &num) < 0) return;
    if (num < 1) {
        reply_errorf(c->out, "ERR at least 1 input key is needed for '%s' command", c->name ? c->name : "?");
        return;
    }
    if (num > c->argc - ni - 1) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    int n = (int)num, j = ni + 1 + n, agg = AGG_SUM, withscores = 0;
    zsrc *src = xmalloc((size_t)n * sizeof *src);
    for (int i = 0; i < n; i++) {
        kv *e = store_lookup(c->db, c->argv[ni + 1 + i]);
        if (e && e->type != OBJ_ZSET && e->type != OBJ_SET) {
            reply_error(c->out, ERR_WRONGTYPE);
            goto done;
        }
        src[i] = (zsrc){ e, 1.0 };
    }
    while (j < c->argc) {
        int remaining = c->argc - j, mixes = op != ZOP_DIFF && !card;
        if (mixes && remaining >= n + 1 && slice_opt_is(c->argv[j], "weights")) {
            j++;
            for (int i = 0; i < n; i++, j++) {
                if (ll_parse_double(c->argv[j], &src[i].weight) < 0) {
                    reply_error(c->out, "ERR weight value is not a float");
                    goto done;
                }
            }
        } else if (mixes && remaining >= 2 && slice_opt_is(c->argv[j], "aggregate")) {
            slice a = c->argv[j + 1];
            if (slice_opt_is(a, "sum")) agg = AGG_SUM;
            else if (slice_opt_is(a, "min")) agg = AGG_MIN;
            else if (slice_opt_is(a, "max")) agg = AGG_MAX;
            else {
                reply_error(c->out, ERR_SYNTAX);
                goto done;
            }
            j += 2;
        } else if (!dst && !card && slice_opt_is(c->argv[j], "withscores")) {
            withscores = 1;
            j++;
        } else if (card && remaining >= 2 && slice_opt_is(c->argv[j], "limit")) {
            if (ll_parse_int64(c->argv[j + 1], &limit) < 0 || limit < 0) {
                reply_error(c->out, "ERR LIMIT can't be negative");
                goto done;
            }
            j += 2;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            goto done;
        }
    }
    zset *r = zset_new();
    zset_to_skiplist(r); /* Redis builds the result as a skiplist (and keeps -0 meanwhile) */
    if (op == ZOP_INTER) {
        qsort(src, (size_t)n, sizeof *src, by_len);
        for (size_t k = 0; k < zsrc_len(&src[0]); k++) {
            double v, other;
            slice m = zsrc_at(&src[0], k, &v);
            double score = weighted(&src[0], v);
            int in_all = 1;
            for (int i = 1; i < n && in_all; i++) {
                in_all = zsrc_score(&src[i], m, &other);
                if (in_all) score = aggregate(agg, score, weighted(&src[i], other));
            }
            if (!in_all) continue;
            zset_set(r, m, score, NULL);
            if (card && limit && (long long)zset_len(r) >= limit) break;
        }
    } else if (op == ZOP_DIFF) {
        for (size_t k = 0; k < zsrc_len(&src[0]); k++) {
            double v, other;
            slice m = zsrc_at(&src[0], k, &v);
            int elsewhere = 0;
            for (int i = 1; i < n && !elsewhere; i++) elsewhere = zsrc_score(&src[i], m, &other);
            if (!elsewhere) zset_set(r, m, v, NULL);
        }
    } else {
        for (int i = 0; i < n; i++) {
            for (size_t k = 0; k < zsrc_len(&src[i]); k++) {
                double v, cur;
                slice m = zsrc_at(&src[i], k, &v);
                double score = weighted(&src[i], v);
                if (zset_score(r, m, &cur)) score = aggregate(agg, cur, score);
                zset_set(r, m, score, NULL);
            }
        }
    }
    size_t size = zset_len(r);
    if (card) {
        reply_int(c->out, (long long)size);
    } else if (!dst) {
        reply *el = reply_array(c->out, size * (withscores ? 2 : 1));
        if (withscores) reply_tag(c->out, R3_PAIRS);
        for (size_t i = 0; i < size; i++) reply_member(&el, r, i, withscores);
    } else if (size) {
        zset_fit(r, cmd_limits(c));
        store_touched(c->db, store_set(c->db, c->argv[1], OBJ_ZSET, r, 0));
        r = NULL;
        reply_int(c->out, (long long)size);
    } else {
        store_delete(c->db, c->argv[1]);
        reply_int(c->out, 0);
    }
    zset_free(r);
done:
    free(src);
}

void cmd_zunionstore(cmdctx *c) { zset_op(c, 1, ZOP_UNION, 0); }
void cmd_zinterstore(cmdctx *c) { zset_op(c, 1, ZOP_INTER, 0); }
void cmd_zdiffstore(cmdctx *c) { zset_op(c, 1, ZOP_DIFF, 0); }
void cmd_zunion(cmdctx *c) { zset_op(c, 0, ZOP_UNION, 0); }
void cmd_zinter(cmdctx *c) { zset_op(c, 0, ZOP_INTER, 0); }
void cmd_zdiff(cmdctx *c) { zset_op(c, 0, ZOP_DIFF, 0); }
void cmd_zintercard(cmdctx *c) { zset_op(c, 0, ZOP_INTER, 1); }

void cmd_zscan(cmdctx *c)
{
    uint64_t cursor;
    if (arg_scan_cursor(c, 2, &cursor) < 0) return;
    kv *e;
    if (zlookup(c, c->argv[1], &e) < 0) return;
    if (!e) {
        reply_empty_scan(c->out);
        return;
    }
    slice pat;
    if (scan_options(c, 3, &pat) < 0) return;
    const zset *z = e->ptr;
    size_t n = 0;
    for (size_t i = 0; i < zset_len(z); i++) n += scan_match(pat, zset_at(z, i, NULL));
    reply *out = reply_array(c->out, 2);
    reply_bulk_cstr(&out[0], "0");
    reply *el = reply_array(&out[1], 2 * n);
    for (size_t i = 0; i < zset_len(z); i++)
        if (scan_match(pat, zset_at(z, i, NULL))) reply_pair(&el, z, i);
}
