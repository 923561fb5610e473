/* t_set.c — the set commands (SADD, SREM, SMEMBERS, SPOP, SRANDMEMBER, SINTER, SUNION, SDIFF,
 * SSCAN ...): each parses and checks its arguments, calls the type's API (set.h, where the
 * representation and its invariants are) and replies. */
#include "set.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "handlers.h"
#include "object.h"

static int set_lookup(cmdctx *c, slice key, kv **e)
{
    return lookup_typed(c, key, OBJ_SET, e);
}

static void reply_members(reply *r, const set *s)
{
    size_t n = s ? set_len(s) : 0;
    reply *out = reply_array(r, n);
    reply_tag(r, R3_SET); /* a set in RESP3 (SRANDMEMBER's array untags it) */
    for (size_t i = 0; i < n; i++) {
        slice m = set_at(s, i);
        reply_bulk(&out[i], m.p, m.len);
    }
}

void cmd_sadd(cmdctx *c)
{
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    if (!e) e = store_add(c->db, c->argv[1], OBJ_SET, set_new());
    long long added = 0;
    for (int i = 2; i < c->argc; i++) added += set_add(e->ptr, c->argv[i], cmd_limits(c));
    if (added) store_touched(c->db, e);
    reply_int(c->out, added);
}

void cmd_srem(cmdctx *c)
{
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    long long removed = 0;
    for (int i = 2; e && i < c->argc; i++) removed += set_del(e->ptr, c->argv[i]);
    if (removed) store_touched(c->db, e);
    reply_int(c->out, removed);
}

void cmd_smembers(cmdctx *c)
{
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    reply_members(c->out, e ? e->ptr : NULL);
}

void cmd_sismember(cmdctx *c)
{
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    reply_int(c->out, e && set_has(e->ptr, c->argv[2]));
}

void cmd_smismember(cmdctx *c)
{
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    reply *out = reply_array(c->out, (size_t)(c->argc - 2));
    for (int i = 2; i < c->argc; i++) reply_int(&out[i - 2], e && set_has(e->ptr, c->argv[i]));
}

void cmd_scard(cmdctx *c)
{
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    reply_int(c->out, e ? (long long)set_len(e->ptr) : 0);
}

/* SPOP key [count]: the count must be >= 0 ("must be positive", Redis's text); a count
 * that takes everything answers the whole set in its order and deletes the key. */
void cmd_spop(cmdctx *c)
{
    if (c->argc > 3) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    long long count = -1;
    if (c->argc == 3 && (ll_parse_int64(c->argv[2], &count) < 0 || count < 0)) {
        reply_error(c->out, "ERR value is out of range, must be positive");
        return;
    }
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    if (!e) {
        if (count < 0) {
            reply_nil(c->out);
        } else {
            reply_array(c->out, 0);
            reply_tag(c->out, R3_SET);
        }
        return;
    }
    set *s = e->ptr;
    if (count < 0) {
        slice m = set_at(s, (size_t)cmd_rand(c, set_len(s)));
        reply_bulk(c->out, m.p, m.len);
        set_del(s, m);
        store_touched(c->db, e);
        return;
    }
    if ((unsigned long long)count >= set_len(s)) {
        reply_members(c->out, s);
        store_delete(c->db, c->argv[1]);
        return;
    }
    reply *out = reply_array(c->out, (size_t)count);
    reply_tag(c->out, R3_SET);
    for (size_t i = 0; i < (size_t)count; i++) {
        slice m = set_at(s, (size_t)cmd_rand(c, set_len(s)));
        reply_bulk(&out[i], m.p, m.len);
        set_del(s, (slice){ out[i].str, out[i].len });
    }
    if (count) store_touched(c->db, e);
}

/* SRANDMEMBER key [count]: a negative count may repeat members; a count at least the size
 * answers the whole set in its order. */
void cmd_srandmember(cmdctx *c)
{
    if (c->argc > 3) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    long long count = 0;
    if (c->argc == 3 && arg_random_count(c, NULL, &count, NULL) < 0) return;
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    if (c->argc == 2) {
        if (!e) {
            reply_nil(c->out);
            return;
        }
        slice m = set_at(e->ptr, (size_t)cmd_rand(c, set_len(e->ptr)));
        reply_bulk(c->out, m.p, m.len);
        return;
    }
    if (!e || count == 0) {
        reply_array(c->out, 0);
        return;
    }
    set *s = e->ptr;
    if (count < 0) {
        if (random_count_ok(c, (unsigned long long)-count) < 0) return;
        reply *out = reply_array(c->out, (size_t)-count);
        for (long long i = 0; i < -count; i++) {
            slice m = set_at(s, (size_t)cmd_rand(c, set_len(s)));
            reply_bulk(&out[i], m.p, m.len);
        }
        return;
    }
    if ((unsigned long long)count >= set_len(s)) {
        reply_members(c->out, s);
        reply_tag(c->out, 0); /* an array in RESP3 too */
        return;
    }
    size_t *ix = cmd_rand_distinct(c, set_len(s), (size_t)count);
    reply *out = reply_array(c->out, (size_t)count);
    for (size_t i = 0; i < (size_t)count; i++) {
        slice m = set_at(s, ix[i]);
        reply_bulk(&out[i], m.p, m.len);
    }
    free(ix);
}

void cmd_smove(cmdctx *c)
{
    kv *src = store_lookup(c->db, c->argv[1]);
    kv *dst = store_lookup(c->db, c->argv[2]);
    if (!src) {
        reply_int(c->out, 0);
        return;
    }
    if (src->type != OBJ_SET || (dst && dst->type != OBJ_SET)) {
        reply_error(c->out, ERR_WRONGTYPE);
        return;
    }
    if (src == dst) {
        reply_int(c->out, set_has(src->ptr, c->argv[3]));
        return;
    }
    if (!set_del(src->ptr, c->argv[3])) {
        reply_int(c->out, 0);
        return;
    }
    store_touched(c->db, src);
    dst = store_lookup(c->db, c->argv[2]);
    if (!dst) dst = store_add(c->db, c->argv[2], OBJ_SET, set_new());
    if (set_add(dst->ptr, c->argv[3], cmd_limits(c))) store_touched(c->db, dst); /* as Redis: no WATCH broken */
    reply_int(c->out, 1);
}

/* ---- SINTER, SUNION, SDIFF and their STORE and CARD forms ---- */

/* The sets named by keys[0..n): each NULL for a missing key; -1 after WRONGTYPE (every key
 * is checked before anything is computed, as Redis 7.0 does). */
static int sets_of(cmdctx *c, const slice *keys, int n, const set **out)
{
    for (int i = 0; i < n; i++) {
        kv *e;
        if (set_lookup(c, keys[i], &e) < 0) return -1;
        out[i] = e ? e->ptr : NULL;
    }
    return 0;
}

/* Stores r under dst (deleting dst when r is empty) and replies its size; takes r. */
static void store_result(cmdctx *c, slice dst, set *r)
{
    long long n = (long long)set_len(r);
    if (n == 0) {
        set_free(r);
        store_delete(c->db, dst);
    } else {
        store_touched(c->db, store_set(c->db, dst, OBJ_SET, r, 0));
    }
    reply_int(c->out, n);
}

static int by_size(const void *a, const void *b)
{
    size_t x = set_len((*(const set *const *)a)), y = set_len((*(const set *const *)b));
    return x < y ? -1 : x > y;
}

/* The intersection of keys[0..n): replied, stored under *dst, or counted up to limit. */
static void sinter_generic(cmdctx *c, const slice *keys, int n, const slice *dst, int card, long long limit)
{
    const set **sets = xmalloc((size_t)n * sizeof *sets);
    if (sets_of(c, keys, n, sets) < 0) goto done;
    set *r = set_new();
    int empty = 0;
    for (int i = 0; i < n; i++) empty |= sets[i] == NULL;
    if (!empty) {
        qsort(sets, (size_t)n, sizeof *sets, by_size);
        for (size_t k = 0; k < set_len(sets[0]); k++) {
            slice m = set_at(sets[0], k);
            int in_all = 1;
            for (int i = 1; i < n && in_all; i++) in_all = set_has(sets[i], m);
            if (!in_all) continue;
            set_add(r, m, cmd_limits(c));
            if (card && limit && (long long)set_len(r) >= limit) break;
        }
    }
    if (dst) {
        store_result(c, *dst, r);
    } else {
        if (card) reply_int(c->out, (long long)set_len(r));
        else reply_members(c->out, r);
        set_free(r);
    }
done:
    free(sets);
}

/* The union (diff = 0) or the difference of keys[0..n). */
static void sunion_diff_generic(cmdctx *c, const slice *keys, int n, const slice *dst, int diff)
{
    const set **sets = xmalloc((size_t)n * sizeof *sets);
    if (sets_of(c, keys, n, sets) < 0) goto done;
    set *r = set_new();
    if (!diff) {
        for (int i = 0; i < n; i++)
            for (size_t k = 0; sets[i] && k < set_len(sets[i]); k++) set_add(r, set_at(sets[i], k), cmd_limits(c));
    } else if (sets[0]) {
        for (size_t k = 0; k < set_len(sets[0]); k++) {
            slice m = set_at(sets[0], k);
            int elsewhere = 0;
            for (int i = 1; i < n && !elsewhere; i++) elsewhere = sets[i] && set_has(sets[i], m);
            if (!elsewhere) set_add(r, m, cmd_limits(c));
        }
    }
    if (dst) {
        store_result(c, *dst, r);
    } else {
        reply_members(c->out, r);
        set_free(r);
    }
done:
    free(sets);
}

void cmd_sinter(cmdctx *c) { sinter_generic(c, c->argv + 1, c->argc - 1, NULL, 0, 0); }
void cmd_sinterstore(cmdctx *c) { sinter_generic(c, c->argv + 2, c->argc - 2, &c->argv[1], 0, 0); }
void cmd_sunion(cmdctx *c) { sunion_diff_generic(c, c->argv + 1, c->argc - 1, NULL, 0); }
void cmd_sunionstore(cmdctx *c) { sunion_diff_generic(c, c->argv + 2, c->argc - 2, &c->argv[1], 0); }
void cmd_sdiff(cmdctx *c) { sunion_diff_generic(c, c->argv + 1, c->argc - 1, NULL, 1); }
void cmd_sdiffstore(cmdctx *c) { sunion_diff_generic(c, c->argv + 2, c->argc - 2, &c->argv[1], 1); }

/* SINTERCARD numkeys key [key ...] [LIMIT limit]: LIMIT 0 means none; a repeated LIMIT's
 * last one counts. */
void cmd_sintercard(cmdctx *c)
{
    long long numkeys, limit = 0;
    if (ll_parse_int64(c->argv[1], &numkeys) < 0 || numkeys < 1) {
        reply_error(c->out, "ERR numkeys should be greater than 0");
        return;
    }
    if (numkeys > c->argc - 2) {
        reply_error(c->out, "ERR Number of keys can't be greater than number of args");
        return;
    }
    for (int j = 2 + (int)numkeys; j < c->argc; j++) {
        if (slice_opt_is(c->argv[j], "limit") && j + 1 < c->argc) {
            if (ll_parse_int64(c->argv[++j], &limit) < 0 || limit < 0) {
                reply_error(c->out, "ERR LIMIT can't be negative");
                return;
            }
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    sinter_generic(c, c->argv + 2, (int)numkeys, NULL, 1, limit);
}

/* SSCAN key cursor [MATCH pattern] [COUNT count]: every member in one reply, cursor 0, as
 * Redis answers a set in its intset encoding (SCAN's guarantees hold; COUNT is a hint). */
void cmd_sscan(cmdctx *c)
{
    uint64_t cursor;
    if (arg_scan_cursor(c, 2, &cursor) < 0) return;
    kv *e;
    if (set_lookup(c, c->argv[1], &e) < 0) return;
    slice pat;
    if (!e) {
        reply_empty_scan(c->out);
        return;
    }
    if (scan_options(c, 3, &pat) < 0) return;
    set *s = e->ptr;
    reply *out = reply_array(c->out, 2);
    reply_bulk_cstr(&out[0], "0");
    size_t n = 0;
    for (size_t i = 0; i < set_len(s); i++) n += scan_match(pat, set_at(s, i));
    reply *items = reply_array(&out[1], n);
    for (size_t i = 0, k = 0; i < set_len(s); i++) {
        slice m = set_at(s, i);
        if (scan_match(pat, m)) reply_bulk(&items[k++], m.p, m.len);
    }
}
