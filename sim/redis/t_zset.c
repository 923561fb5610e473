/* t_zset.c — the sorted set commands (ZADD, ZSCORE, ZRANGE and its kin, ZREM, ZCOUNT ...; the
 * rest in t_zset_ops.c): each parses and checks its arguments, calls the type's API (zset.h,
 * where the representation and its invariants are) and replies. */
#include "zset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "handlers.h"
#include "object.h"
#include "zsetint.h"

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
