/* t_hash.c — the hash commands (HSET, HGET, HDEL, HGETALL, HINCRBY, HRANDFIELD, HSCAN ...):
 * each parses and checks its arguments, calls the type's API (hash.h, where the representation
 * and its invariants are) and replies. */
#include "hash.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "handlers.h"
#include "object.h"

/* Looks up key as a hash for a write: 0 with *h (a new empty hash if the key is missing),
 * -1 after WRONGTYPE. */
static int hash_for_write(cmdctx *c, kv **e, hash **h)
{
    if (lookup_typed(c, c->argv[1], OBJ_HASH, e) < 0) return -1;
    *h = *e ? (*e)->ptr : hash_new();
    return 0;
}

/* Stores h (possibly moved by the type API) back under the key, creating it if it was
 * missing, and reports the write (which deletes the key if h is empty). */
static void hash_written(cmdctx *c, kv *e, hash *h)
{
    if (e) e->ptr = h;
    else e = store_add(c->db, c->argv[1], OBJ_HASH, h); /* the lookup just missed */
    store_touched(c->db, e);
}

/* Looks up key as a hash for a read: 0 with *h (NULL if missing), -1 after WRONGTYPE. */
static int hash_for_read(cmdctx *c, const hash **h)
{
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_HASH, &e) < 0) return -1;
    *h = e ? e->ptr : NULL;
    return 0;
}

/* HSET answers how many fields are new, HMSET (the legacy form) OK. */
static void hset_generic(cmdctx *c, int legacy)
{
    if (c->argc % 2 != 0) {
        reply_wrong_args(c);
        return;
    }
    kv *e;
    hash *h;
    if (hash_for_write(c, &e, &h) < 0) return;
    long long created = 0;
    /* as Redis's hashTypeTryConversion: any argument too long converts before the writes */
    for (int i = 2; i < c->argc; i++)
        if (c->argv[i].len > cmd_limits(c)->hash_value) {
            hash_convert(&h);
            break;
        }
    for (int i = 2; i < c->argc; i += 2) created += hash_set(&h, c->argv[i], c->argv[i + 1], cmd_limits(c));
    hash_written(c, e, h);
    if (legacy) reply_ok(c->out);
    else reply_int(c->out, created);
}

void cmd_hset(cmdctx *c) { hset_generic(c, 0); }
void cmd_hmset(cmdctx *c) { hset_generic(c, 1); }

void cmd_hsetnx(cmdctx *c)
{
    kv *e;
    hash *h;
    slice v;
    if (hash_for_write(c, &e, &h) < 0) return;
    if (e && hash_get(h, c->argv[2], &v)) {
        reply_int(c->out, 0);
        return;
    }
    hash_set(&h, c->argv[2], c->argv[3], cmd_limits(c));
    hash_written(c, e, h);
    reply_int(c->out, 1);
}

void cmd_hget(cmdctx *c)
{
    const hash *h;
    slice v;
    if (hash_for_read(c, &h) < 0) return;
    if (h && hash_get(h, c->argv[2], &v)) reply_bulk(c->out, v.p, v.len);
    else reply_nil(c->out);
}

void cmd_hexists(cmdctx *c)
{
    const hash *h;
    slice v;
    if (hash_for_read(c, &h) < 0) return;
    reply_int(c->out, h && hash_get(h, c->argv[2], &v));
}

void cmd_hmget(cmdctx *c)
{
    const hash *h;
    slice v;
    if (hash_for_read(c, &h) < 0) return;
    reply *el = reply_array(c->out, (size_t)c->argc - 2);
    for (int i = 2; i < c->argc; i++)
        if (h && hash_get(h, c->argv[i], &v)) reply_bulk(&el[i - 2], v.p, v.len);
}

void cmd_hlen(cmdctx *c)
{
    const hash *h;
    if (hash_for_read(c, &h) < 0) return;
    reply_int(c->out, h ? (long long)hash_len(h) : 0);
}

void cmd_hincrby(cmdctx *c)
{
    long long incr, value = 0;
    if (arg_int64(c, 3, &incr) < 0) return;
    kv *e;
    hash *h;
    slice old;
    if (hash_for_write(c, &e, &h) < 0) return;
    if (e && hash_get(h, c->argv[2], &old) && ll_parse_int64(old, &value) < 0) {
        reply_error(c->out, "ERR hash value is not an integer");
        return;
    }
    if ((incr < 0 && value < 0 && incr < LLONG_MIN - value) ||
        (incr > 0 && value > 0 && incr > LLONG_MAX - value)) {
        reply_error(c->out, "ERR increment or decrement would overflow");
        if (!e) hash_free(h);
        return;
    }
    value += incr;
    char tmp[32];
    int n = ll_format_int64(tmp, value);
    hash_set(&h, c->argv[2], (slice){ tmp, (size_t)n }, cmd_limits(c));
    hash_written(c, e, h);
    reply_int(c->out, value);
}

void cmd_hdel(cmdctx *c)
{
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_HASH, &e) < 0) return;
    long long deleted = 0;
    if (e) {
        hash *h = e->ptr;
        for (int i = 2; i < c->argc; i++) deleted += hash_del(&h, c->argv[i]);
        e->ptr = h;
        if (deleted) store_touched(c->db, e);
    }
    reply_int(c->out, deleted);
}

/* HGETALL, HKEYS, HVALS: fields and/or values in iteration order. */
static void hash_reply_all(cmdctx *c, int fields, int values)
{
    const hash *h;
    if (hash_for_read(c, &h) < 0) return;
    if (!h) {
        reply_array(c->out, 0);
        if (fields && values) reply_tag(c->out, R3_MAP);
        return;
    }
    size_t per = (size_t)(fields + values), it = 0;
    reply *el = reply_array(c->out, hash_len(h) * per);
    if (fields && values) reply_tag(c->out, R3_MAP); /* HGETALL: a map in RESP3 */
    slice f, v;
    while (hash_next(h, &it, &f, &v)) {
        if (fields) reply_bulk(el++, f.p, f.len);
        if (values) reply_bulk(el++, v.p, v.len);
    }
}

void cmd_hgetall(cmdctx *c)
{
    hash_reply_all(c, 1, 1);
}

void cmd_hkeys(cmdctx *c)
{
    hash_reply_all(c, 1, 0);
}

void cmd_hvals(cmdctx *c)
{
    hash_reply_all(c, 0, 1);
}

void cmd_hstrlen(cmdctx *c)
{
    const hash *h;
    slice v;
    if (hash_for_read(c, &h) < 0) return;
    reply_int(c->out, h && hash_get(h, c->argv[2], &v) ? (long long)v.len : 0);
}

/* HINCRBYFLOAT key field increment: Redis's order of checks, in long double, the result
 * in ld2string's human form. */
void cmd_hincrbyfloat(cmdctx *c)
{
    long double incr, value = 0;
    if (string2ld(c->argv[3], &incr) < 0) {
        reply_error(c->out, ERR_NOT_FLOAT);
        return;
    }
    if (isinf(incr)) {
        reply_error(c->out, "ERR value is NaN or Infinity");
        return;
    }
    kv *e;
    hash *h;
    slice old;
    if (hash_for_write(c, &e, &h) < 0) return;
    if (e && hash_get(h, c->argv[2], &old) && string2ld(old, &value) < 0) {
        reply_error(c->out, "ERR hash value is not a float");
        return;
    }
    value += incr;
    if (isnan(value) || isinf(value)) {
        reply_error(c->out, "ERR increment would produce NaN or Infinity");
        if (!e) hash_free(h);
        return;
    }
    char tmp[LD_STRING_MAX];
    int n = ld2string(tmp, sizeof tmp, value);
    hash_set(&h, c->argv[2], (slice){ tmp, (size_t)n }, cmd_limits(c));
    hash_written(c, e, h);
    reply_bulk(c->out, tmp, (size_t)n);
}

/* The field and value at position i of the iteration order. */
static void hash_at(const hash *h, size_t i, slice *f, slice *v)
{
    size_t it = 0;
    *f = *v = (slice){ "", 0 };
    for (size_t k = 0; hash_next(h, &it, f, v) && k < i; k++) continue;
}

static void reply_field(reply **el, const hash *h, size_t i, int withvalues)
{
    slice f, v;
    hash_at(h, i, &f, &v);
    reply_bulk((*el)++, f.p, f.len);
    if (withvalues) reply_bulk((*el)++, v.p, v.len);
}

/* HRANDFIELD key [count [WITHVALUES]]: a negative count may repeat fields; a count at least
 * the size answers the whole hash in its order. Draws from the server's generator. */
void cmd_hrandfield(cmdctx *c)
{
    long long count = 0;
    int withvalues = 0;
    if (c->argc >= 3 && arg_random_count(c, "withvalues", &count, &withvalues) < 0) return;
    const hash *h;
    if (hash_for_read(c, &h) < 0) return;
    if (c->argc == 2) {
        slice f, v;
        if (!h) {
            reply_nil(c->out);
            return;
        }
        hash_at(h, (size_t)cmd_rand(c, hash_len(h)), &f, &v);
        reply_bulk(c->out, f.p, f.len);
        return;
    }
    if (!h || count == 0) {
        reply_array(c->out, 0);
        return;
    }
    size_t size = hash_len(h), per = withvalues ? 2 : 1;
    if (count < 0) {
        if (random_count_ok(c, (unsigned long long)-count) < 0) return;
        reply *el = reply_array(c->out, (size_t)-count * per);
        if (withvalues) reply_tag(c->out, R3_PAIRS);
        for (long long i = 0; i < -count; i++) reply_field(&el, h, (size_t)cmd_rand(c, size), withvalues);
        return;
    }
    size_t n = (unsigned long long)count >= size ? size : (size_t)count;
    size_t *ix = n < size ? cmd_rand_distinct(c, size, n) : NULL;
    reply *el = reply_array(c->out, n * per);
    if (withvalues) reply_tag(c->out, R3_PAIRS);
    for (size_t i = 0; i < n; i++) reply_field(&el, h, ix ? ix[i] : i, withvalues);
    free(ix);
}

/* HSCAN key cursor [MATCH pattern] [COUNT count]: every field in one reply, cursor 0, as
 * Redis answers a listpack-encoded hash (SCAN's guarantees hold; COUNT is a hint). */
void cmd_hscan(cmdctx *c)
{
    uint64_t cursor;
    if (arg_scan_cursor(c, 2, &cursor) < 0) return;
    const hash *h;
    if (hash_for_read(c, &h) < 0) return;
    if (!h) {
        reply_empty_scan(c->out);
        return;
    }
    slice pat, f, v;
    if (scan_options(c, 3, &pat) < 0) return;
    size_t it = 0, n = 0;
    while (hash_next(h, &it, &f, &v)) n += scan_match(pat, f);
    reply *out = reply_array(c->out, 2);
    reply_bulk_cstr(&out[0], "0");
    reply *el = reply_array(&out[1], n * 2);
    it = 0;
    while (hash_next(h, &it, &f, &v)) {
        if (!scan_match(pat, f)) continue;
        reply_bulk(el++, f.p, f.len);
        reply_bulk(el++, v.p, v.len);
    }
}
