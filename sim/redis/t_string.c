/* t_string.c — the string type and its commands.
 *
 * Representation: a string value is one sstr (length, bytes, a NUL that is not part of the
 * value), owned by the keyspace, which keeps the blocks of a few deleted strings for new
 * ones (store_sstr_new: a latch's "1" is deleted and set again every round). Redis also
 * keeps small integers as shared integer objects and short strings embedded in the object
 * header; none of that is visible to a client, so one representation serves. A number
 * written by INCR is stored as its canonical decimal text, which is exactly what GET shows
 * and what the next INCR parses.
 *
 * Invariants: a write through this file either replaces the whole value or creates the
 * key; it keeps the TTL (INCR, APPEND, SET KEEPTTL) unless Redis clears it (plain SET).
 * Every write ends with store_touched() so observers see it. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"

/* proto-max-bulk-len: the largest string APPEND may build (Redis's checkStringLength). */
#define STRING_MAX_LEN (512ull * 1024 * 1024)

/* ---- low level ---- */

/* Stores s (ownership taken) under key, keeping the TTL of the current value. `e` is the
 * key's live slot, or NULL if the key is missing; then the key is created without a TTL
 * (store_add also replaces a replica's logically expired leftover). */
static kv *string_put(cmdctx *c, slice key, kv *e, sstr *s)
{
    if (e) {
        free(e->ptr);
        e->ptr = s;
        e->raw = 0;
    } else {
        e = store_add(c->db, key, OBJ_STRING, s);
    }
    store_touched(c->db, e);
    return e;
}

static void reply_sstr(reply *r, const sstr *s)
{
    reply_bulk(r, s->p, s->len);
}

/* INCR and friends: the stored value must be a canonical 64-bit integer and the result
 * must not overflow. Replies the new value or an error. */
static void string_incr(cmdctx *c, long long incr)
{
    slice key = c->argv[1];
    kv *e;
    if (lookup_typed(c, key, OBJ_STRING, &e) < 0) return;
    long long value = 0;
    if (e && ll_parse_int64(sstr_slice(e->ptr), &value) < 0) {
        reply_error(c->out, ERR_NOT_INT);
        return;
    }
    if ((incr < 0 && value < 0 && incr < LLONG_MIN - value) ||
        (incr > 0 && value > 0 && incr > LLONG_MAX - value)) {
        reply_error(c->out, "ERR increment or decrement would overflow");
        return;
    }
    value += incr;
    char tmp[32];
    int n = ll_format_int64(tmp, value);
    string_put(c, key, e, store_sstr_new(c->db, tmp, (size_t)n));
    reply_int(c->out, value);
}

/* ---- SET and its options ---- */

enum {
    SET_NX = 1 << 0,
    SET_XX = 1 << 1,
    SET_GET = 1 << 2,
    SET_KEEPTTL = 1 << 3,
    SET_EX = 1 << 4,
    SET_PX = 1 << 5,
    SET_EXAT = 1 << 6,
    SET_PXAT = 1 << 7,
    SET_PERSIST = 1 << 8, /* GETEX's */
};
#define SET_ANY_EXPIRE (SET_EX | SET_PX | SET_EXAT | SET_PXAT)

/* Redis's parseExtendedStringArgumentsOrReply for SET: an option is accepted only when no
 * option it conflicts with came before it (so a repeated EX is fine and the last one wins),
 * and an expire option needs a following argument. Anything else is a syntax error. */
/* Whether opt is the lowercase-letter literal lit, in any case: the length first, then
 * (byte | 0x20), which only the two cases of a letter map to that letter. Redis reads an
 * option as a C string, so a NUL right after the letters ends it ("nx\0junk" is NX): a
 * longer argument matches if its byte n is NUL. Inline, since SET from a lock script
 * parses its PX on every call. */
static inline int set_opt_is(slice opt, const char *lit, size_t n)
{
    if (opt.len < n || (opt.len > n && opt.p[n] != '\0')) return 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)opt.p[i] | 0x20) != (unsigned char)lit[i]) return 0;
    return 1;
}
#define SET_OPT_IS(opt, lit) set_opt_is(opt, lit, sizeof lit - 1)

static int set_parse_flags(cmdctx *c, int getex, unsigned *flags, int *expire_arg)
{
    for (int j = getex ? 2 : 3; j < c->argc; j++) {
        slice opt = c->argv[j];
        int has_next = j + 1 < c->argc;
        unsigned f = *flags;
        if (!getex && SET_OPT_IS(opt, "nx") && !(f & SET_XX)) {
            *flags |= SET_NX;
        } else if (!getex && SET_OPT_IS(opt, "xx") && !(f & SET_NX)) {
            *flags |= SET_XX;
        } else if (!getex && SET_OPT_IS(opt, "get")) {
            *flags |= SET_GET;
        } else if (!getex && SET_OPT_IS(opt, "keepttl") && !(f & SET_ANY_EXPIRE)) {
            *flags |= SET_KEEPTTL;
        } else if (getex && SET_OPT_IS(opt, "persist") && !(f & SET_ANY_EXPIRE)) {
            *flags |= SET_PERSIST;
        } else {
            unsigned which = SET_OPT_IS(opt, "ex")     ? SET_EX
                             : SET_OPT_IS(opt, "px")   ? SET_PX
                             : SET_OPT_IS(opt, "exat") ? SET_EXAT
                             : SET_OPT_IS(opt, "pxat") ? SET_PXAT
                                                            : 0;
            unsigned conflicts = (SET_ANY_EXPIRE & ~which) | SET_KEEPTTL | SET_PERSIST;
            if (!which || (f & conflicts) || !has_next) {
                reply_error(c->out, ERR_SYNTAX);
                return -1;
            }
            *flags |= which;
            *expire_arg = ++j;
        }
    }
    return 0;
}

/* The absolute deadline in local ms for an expire argument, as Redis's
 * getExpireMillisecondsOrReply computes it: not an integer, not positive or overflowing
 * are errors, which name the command (`name`). */
static int set_parse_expire(cmdctx *c, unsigned flags, int arg, int64_t *when, const char *name)
{
    long long v;
    if (arg_int64(c, arg, &v) < 0) return -1;
    int seconds = (flags & (SET_EX | SET_EXAT)) != 0;
    if (v <= 0 || (seconds && v > LLONG_MAX / 1000)) goto invalid;
    if (seconds) v *= 1000;
    if (flags & (SET_EX | SET_PX)) {
        int64_t now = store_now(c->db);
        if (now > 0 && v > LLONG_MAX - now) goto invalid;
        v += now;
    }
    if (v <= 0) goto invalid;
    *when = v;
    return 0;
invalid:
    reply_errorf(c->out, "ERR invalid expire time in '%s' command", name);
    return -1;
}

/* Stores val under key as SET does: replacing any value of any type, clearing the TTL
 * unless keep_ttl, then setting deadline `when` (if >= 0). `e` is the key's live slot or
 * NULL. A deadline already behind the clock (EXAT/PXAT in the past) deletes the key at once,
 * exactly when a lookup would find it expired (now > deadline). */
static void string_set(cmdctx *c, slice key, kv *e, slice val, int keep_ttl, int64_t when, int absolute)
{
    sstr *v = store_sstr_new(c->db, val.p, val.len);
    /* A missing key (the caller's lookup) is simply added: no second lookup. */
    e = e ? store_set(c->db, key, OBJ_STRING, v, keep_ttl) : store_add(c->db, key, OBJ_STRING, v);
    if (when >= 0 && absolute) store_set_expire_fixed(c->db, e, when); /* EXAT/PXAT: fixed by the request */
    else if (when >= 0) store_set_expire(c->db, e, when);
    store_touched(c->db, e);
    if (when >= 0 && absolute) store_clock_seen(c->db); /* compared with the clock just below */
    if (when >= 0 && store_now(c->db) > when) store_delete(c->db, key);
}

void cmd_set(cmdctx *c)
{
    slice key = c->argv[1], val = c->argv[2];
    unsigned flags = 0;
    int expire_arg = 0;
    int64_t when = -1;
    if (set_parse_flags(c, 0, &flags, &expire_arg) < 0) return;
    if (expire_arg && set_parse_expire(c, flags, expire_arg, &when, "set") < 0) return;

    kv *e;
    if (flags & SET_GET) {
        /* GET checks the type (SET alone overwrites any type) and replies the old value
         * whether or not NX/XX then lets the write happen. */
        if (lookup_typed(c, key, OBJ_STRING, &e) < 0) return;
        if (e) reply_sstr(c->out, e->ptr);
        else reply_nil(c->out);
    } else {
        e = store_lookup(c->db, key);
    }
    if (((flags & SET_NX) && e) || ((flags & SET_XX) && !e)) {
        if (!(flags & SET_GET)) reply_nil(c->out);
        return;
    }
    string_set(c, key, e, val, (flags & SET_KEEPTTL) != 0, when, (flags & (SET_EXAT | SET_PXAT)) != 0);
    if (!(flags & SET_GET)) reply_ok(c->out);
}

/* SETEX key seconds value, PSETEX key milliseconds value: SET key value EX|PX time. */
static void setex_generic(cmdctx *c, unsigned unit, const char *name)
{
    int64_t when;
    if (set_parse_expire(c, unit, 2, &when, name) < 0) return;
    string_set(c, c->argv[1], store_lookup(c->db, c->argv[1]), c->argv[3], 0, when, 0);
    reply_ok(c->out);
}

void cmd_setex(cmdctx *c) { setex_generic(c, SET_EX, "setex"); }
void cmd_psetex(cmdctx *c) { setex_generic(c, SET_PX, "psetex"); }

/* GETSET key value: SET key value GET, the TTL cleared. */
void cmd_getset(cmdctx *c)
{
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    if (e) reply_sstr(c->out, e->ptr);
    else reply_nil(c->out);
    string_set(c, c->argv[1], e, c->argv[2], 0, -1, 0);
}

/* GETEX key [EX|PX|EXAT|PXAT time | PERSIST]: Redis's getexCommand. Options are parsed
 * first, then a missing key answers nil before the time is validated; the reply is the value
 * before any deletion. */
void cmd_getex(cmdctx *c)
{
    unsigned flags = 0;
    int expire_arg = 0;
    int64_t when = -1;
    slice key = c->argv[1];
    if (set_parse_flags(c, 1, &flags, &expire_arg) < 0) return;
    kv *e;
    if (lookup_typed(c, key, OBJ_STRING, &e) < 0) return;
    if (!e) {
        reply_nil(c->out);
        return;
    }
    if (expire_arg && set_parse_expire(c, flags, expire_arg, &when, "getex") < 0) return;
    reply_sstr(c->out, e->ptr);
    int absolute = (flags & (SET_EXAT | SET_PXAT)) != 0;
    if (absolute) store_clock_seen(c->db); /* an absolute time, compared with the clock */
    if (absolute && when <= store_now(c->db) && !store_is_replica(c->db)) {
        store_delete(c->db, key);
    } else if (expire_arg) {
        if (absolute) store_set_expire_fixed(c->db, e, when);
        else store_set_expire(c->db, e, when);
        store_touched_range(c->db, e, 0, 0); /* the TTL alone: no byte of the value written */
    } else if ((flags & SET_PERSIST) && store_persist(c->db, e)) {
        store_touched_range(c->db, e, 0, 0);
    }
}

/* MSET key value [key value ...], MSETNX: all or (MSETNX, when one key exists) none. */
static int mset_arity(cmdctx *c)
{
    if (c->argc % 2 == 1) return 0;
    reply_wrong_args(c);
    return -1;
}

void cmd_mset(cmdctx *c)
{
    if (mset_arity(c) < 0) return;
    for (int i = 1; i < c->argc; i += 2)
        string_set(c, c->argv[i], store_lookup(c->db, c->argv[i]), c->argv[i + 1], 0, -1, 0);
    reply_ok(c->out);
}

void cmd_msetnx(cmdctx *c)
{
    if (mset_arity(c) < 0) return;
    for (int i = 1; i < c->argc; i += 2)
        if (store_lookup(c->db, c->argv[i])) {
            reply_int(c->out, 0);
            return;
        }
    for (int i = 1; i < c->argc; i += 2)
        string_set(c, c->argv[i], store_lookup(c->db, c->argv[i]), c->argv[i + 1], 0, -1, 0);
    reply_int(c->out, 1);
}

/* ---- the other commands ---- */

void cmd_get(cmdctx *c)
{
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    if (e) reply_sstr(c->out, e->ptr);
    else reply_nil(c->out);
}

void cmd_setnx(cmdctx *c)
{
    slice key = c->argv[1], val = c->argv[2];
    if (store_lookup(c->db, key)) {
        reply_int(c->out, 0);
        return;
    }
    string_put(c, key, NULL, store_sstr_new(c->db, val.p, val.len));
    reply_int(c->out, 1);
}

void cmd_incr(cmdctx *c)
{
    string_incr(c, 1);
}

void cmd_decr(cmdctx *c)
{
    string_incr(c, -1);
}

void cmd_incrby(cmdctx *c)
{
    long long incr;
    if (arg_int64(c, 2, &incr) < 0) return;
    string_incr(c, incr);
}

void cmd_decrby(cmdctx *c)
{
    long long decr;
    if (arg_int64(c, 2, &decr) < 0) return;
    if (decr == LLONG_MIN) { /* its negation does not exist */
        reply_error(c->out, "ERR decrement would overflow");
        return;
    }
    string_incr(c, -decr);
}

void cmd_getdel(cmdctx *c)
{
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    if (!e) {
        reply_nil(c->out);
        return;
    }
    reply_sstr(c->out, e->ptr);
    store_delete(c->db, c->argv[1]);
}

/* INCRBYFLOAT key increment: in long double, as Redis computes it, written as ld2string's
 * human form ("%.17Lf", trailing zeros and a bare point dropped, "-0" as "0"; a number too
 * long for 5 KiB becomes "", as in Redis). The TTL stays. */
void cmd_incrbyfloat(cmdctx *c)
{
    slice key = c->argv[1];
    kv *e;
    if (lookup_typed(c, key, OBJ_STRING, &e) < 0) return;
    long double value = 0, incr;
    if ((e && string2ld(sstr_slice(e->ptr), &value) < 0) || string2ld(c->argv[2], &incr) < 0) {
        reply_error(c->out, ERR_NOT_FLOAT);
        return;
    }
    value += incr;
    if (isnan(value) || isinf(value)) {
        reply_error(c->out, "ERR increment would produce NaN or Infinity");
        return;
    }
    char tmp[LD_STRING_MAX];
    int n = ld2string(tmp, sizeof tmp, value);
    string_put(c, key, e, store_sstr_new(c->db, tmp, (size_t)n));
    reply_bulk(c->out, tmp, (size_t)n);
}

void cmd_strlen(cmdctx *c)
{
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    reply_int(c->out, e ? (long long)((sstr *)e->ptr)->len : 0);
}

/* The string of key slot e (NULL: none yet) grown with zero bytes to at least `need` bytes,
 * for SETRANGE, SETBIT and APPEND: in place, as Redis's sds grows (realloc: a large block is
 * remapped, not copied), so a write costs what it changes, not the value's size (issue 37,
 * N1: 100 one-byte APPENDs to a 2 MB value copied 200 MB). A new string when e is NULL;
 * string_done stores either. */
static sstr *string_grown(kv *e, size_t need)
{
    size_t old = e ? ((const sstr *)e->ptr)->len : 0, len = need > old ? need : old;
    sstr *s = e ? e->ptr : NULL;
    if (!s || len > old) {
        s = xrealloc(s, sstr_block_size(len));
        if (e) e->ptr = s;
        memset(s->p + old, 0, len - old);
        s->len = len;
        s->p[len] = '\0';
    }
    return s;
}

/* After string_grown and a write of bytes [off, off + len): the key's slot, the new key
 * stored or the old one marked written, with the bytes written told to the observers (the
 * history records them, not the whole value: store_touched_range). */
static kv *string_done(cmdctx *c, slice key, kv *e, sstr *s, size_t off, size_t len)
{
    if (!e) e = store_add(c->db, key, OBJ_STRING, s);
    store_touched_range(c->db, e, off, len);
    return e;
}

void cmd_append(cmdctx *c)
{
    slice key = c->argv[1], add = c->argv[2];
    kv *e;
    if (lookup_typed(c, key, OBJ_STRING, &e) < 0) return;
    size_t old = e ? ((sstr *)e->ptr)->len : 0;
    if (old + add.len > STRING_MAX_LEN) {
        reply_error(c->out, "ERR string exceeds maximum allowed size (proto-max-bulk-len)");
        return;
    }
    sstr *s = string_grown(e, old + add.len);
    if (add.len) memcpy(s->p + old, add.p, add.len);
    string_done(c, key, e, s, old, add.len)->raw = e != NULL; /* grown in place; a new key is not */
    reply_int(c->out, (long long)s->len);
}

/* MGET never fails on a type: a key holding something else reads as nil. */
void cmd_mget(cmdctx *c)
{
    reply *el = reply_array(c->out, (size_t)c->argc - 1);
    for (int i = 1; i < c->argc; i++) {
        kv *e = store_lookup(c->db, c->argv[i]);
        if (e && e->type == OBJ_STRING) reply_sstr(&el[i - 1], e->ptr);
    }
}

/* SETRANGE key offset value: Redis's order of checks; writing nothing answers the length
 * without creating the key. */
void cmd_setrange(cmdctx *c)
{
    long long offset;
    slice key = c->argv[1], v = c->argv[3];
    if (arg_int64(c, 2, &offset) < 0) return;
    if (offset < 0) {
        reply_error(c->out, "ERR offset is out of range");
        return;
    }
    kv *e;
    if (lookup_typed(c, key, OBJ_STRING, &e) < 0) return;
    if (v.len == 0) {
        reply_int(c->out, e ? (long long)((sstr *)e->ptr)->len : 0);
        return;
    }
    if ((unsigned long long)offset + v.len > STRING_MAX_LEN) {
        reply_error(c->out, "ERR string exceeds maximum allowed size (proto-max-bulk-len)");
        return;
    }
    sstr *s = string_grown(e, (size_t)offset + v.len);
    memcpy(s->p + offset, v.p, v.len);
    string_done(c, key, e, s, (size_t)offset, v.len)->raw = 1;
    reply_int(c->out, (long long)s->len);
}

void cmd_getrange(cmdctx *c)
{
    long long start, end;
    if (arg_int64(c, 2, &start) < 0 || arg_int64(c, 3, &end) < 0) return;
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    long long n = e ? (long long)((sstr *)e->ptr)->len : 0;
    if (!e || (start < 0 && end < 0 && start > end)) {
        reply_bulk(c->out, "", 0);
        return;
    }
    if (start < 0) start += n;
    if (end < 0) end += n;
    if (start < 0) start = 0;
    if (end < 0) end = 0;
    if (end >= n) end = n - 1;
    if (start > end || n == 0) reply_bulk(c->out, "", 0);
    else reply_bulk(c->out, ((sstr *)e->ptr)->p + start, (size_t)(end - start + 1));
}

void cmd_substr(cmdctx *c)
{
    cmd_getrange(c);
}

/* A bit offset as Redis's getBitOffsetFromArgument reads it: 0 .. 2^32 - 1. */
static int bit_offset(cmdctx *c, int i, unsigned long long *off)
{
    long long v;
    if (ll_parse_int64(c->argv[i], &v) < 0 || v < 0 || (unsigned long long)v >= STRING_MAX_LEN * 8) {
        reply_error(c->out, "ERR bit offset is not an integer or out of range");
        return -1;
    }
    *off = (unsigned long long)v;
    return 0;
}

/* SETBIT key offset 0|1: the bit's old value; the string grows with zero bytes. */
void cmd_setbit(cmdctx *c)
{
    unsigned long long off;
    if (bit_offset(c, 2, &off) < 0) return;
    slice b = c->argv[3];
    if (b.len != 1 || (b.p[0] != '0' && b.p[0] != '1')) {
        reply_error(c->out, "ERR bit is not an integer or out of range");
        return;
    }
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    size_t had = e ? ((const sstr *)e->ptr)->len : 0;
    sstr *s = string_grown(e, (size_t)(off >> 3) + 1);
    unsigned char mask = (unsigned char)(1u << (7 - (off & 7))), *byte = (unsigned char *)s->p + (off >> 3);
    int old = (*byte & mask) != 0;
    if (b.p[0] == '1') *byte |= mask;
    else *byte &= (unsigned char)~mask;
    if (e && s->len == had && old == (b.p[0] == '1')) {
        /* Redis's setbitCommand: a bit that does not change, in a string that does not grow,
         * is no write (no keyspace event, no touch of a WATCH, no change counted) */
        e->raw = 1; /* lookupStringForBitCommand unshares it all the same */
    } else {
        string_done(c, c->argv[1], e, s, (size_t)(off >> 3), 1)->raw = 1;
    }
    reply_int(c->out, old);
}

void cmd_getbit(cmdctx *c)
{
    unsigned long long off;
    if (bit_offset(c, 2, &off) < 0) return;
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    const sstr *s = e ? e->ptr : NULL;
    int bit = s && (off >> 3) < s->len && (((unsigned char)s->p[off >> 3] >> (7 - (off & 7))) & 1);
    reply_int(c->out, bit);
}

/* LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]: Redis 7.0's lcsCommand, the
 * dynamic-programming table and the walk back from its corner, with its way of cutting the
 * matches into ranges (a missing key is ""). The table has (len1 + 1) * (len2 + 1) cells of
 * 4 bytes: longer strings are refused with Redis's text for a table it cannot allocate. */
#define LCS_TABLE_MAX (512ull * 1024 * 1024)

void cmd_lcs(cmdctx *c)
{
    kv *ea = store_lookup(c->db, c->argv[1]), *eb = store_lookup(c->db, c->argv[2]);
    if ((ea && ea->type != OBJ_STRING) || (eb && eb->type != OBJ_STRING)) {
        reply_error(c->out, "ERR The specified keys must contain string values");
        return;
    }
    slice a = ea ? sstr_slice(ea->ptr) : (slice){ "", 0 }, b = eb ? sstr_slice(eb->ptr) : (slice){ "", 0 };
    int getlen = 0, getidx = 0, withmatchlen = 0;
    long long minmatchlen = 0;
    for (int j = 3; j < c->argc; j++) {
        slice o = c->argv[j];
        if (slice_opt_is(o, "idx")) getidx = 1;
        else if (slice_opt_is(o, "len")) getlen = 1;
        else if (slice_opt_is(o, "withmatchlen")) withmatchlen = 1;
        else if (slice_opt_is(o, "minmatchlen") && j + 1 < c->argc) {
            if (arg_int64(c, ++j, &minmatchlen) < 0) return;
            if (minmatchlen < 0) minmatchlen = 0;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    if (getidx && getlen) {
        reply_error(c->out, "ERR If you want both the length and indexes, please just use IDX.");
        return;
    }
    size_t alen = a.len, blen = b.len;
    if ((alen + 1) * (blen + 1) > LCS_TABLE_MAX / sizeof(uint32_t)) {
        reply_error(c->out, "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
        return;
    }
    uint32_t *dp = xmalloc((alen + 1) * (blen + 1) * sizeof *dp);
#define LCS(A, B) dp[(B) + (A) * (blen + 1)]
    for (size_t i = 0; i <= alen; i++)
        for (size_t j = 0; j <= blen; j++) {
            if (i == 0 || j == 0) LCS(i, j) = 0;
            else if (a.p[i - 1] == b.p[j - 1]) LCS(i, j) = LCS(i - 1, j - 1) + 1;
            else LCS(i, j) = LCS(i - 1, j) > LCS(i, j - 1) ? LCS(i - 1, j) : LCS(i, j - 1);
        }
    uint32_t total = LCS(alen, blen), idx = total;
    char *result = xmalloc((size_t)total + 1);
    /* The ranges, collected as they are found (from the ends backwards). */
    struct lcs_range { size_t a0, a1, b0, b1; } *ranges = NULL;
    size_t nranges = 0, cap = 0;
    size_t as = alen, ae = 0, bs = 0, be = 0; /* as == alen: no range open */
    size_t i = alen, j = blen;
    int compute = getidx || !getlen;
    while (compute && i > 0 && j > 0) {
        int emit = 0;
        if (a.p[i - 1] == b.p[j - 1]) {
            result[idx - 1] = a.p[i - 1];
            if (as == alen) {
                as = ae = i - 1;
                bs = be = j - 1;
            } else if (as == i && bs == j) {
                as--;
                bs--;
            } else {
                emit = 1;
            }
            if (as == 0 || bs == 0) emit = 1;
            idx--;
            i--;
            j--;
        } else {
            if (LCS(i - 1, j) > LCS(i, j - 1)) i--;
            else j--;
            if (as != alen) emit = 1;
        }
        if (emit) {
            size_t len = ae - as + 1;
            if (getidx && (minmatchlen == 0 || (long long)len >= minmatchlen)) {
                if (nranges == cap) {
                    cap = cap ? cap * 2 : 8;
                    ranges = xrealloc(ranges, cap * sizeof *ranges);
                }
                ranges[nranges++] = (struct lcs_range){ as, ae, bs, be };
            }
            as = alen;
        }
    }
#undef LCS
    if (getidx) {
        reply *m = reply_array(c->out, 4);
        reply_bulk_cstr(&m[0], "matches");
        reply *el = reply_array(&m[1], nranges);
        for (size_t k = 0; k < nranges; k++) {
            reply *r = reply_array(&el[k], withmatchlen ? 3 : 2);
            reply *ra = reply_array(&r[0], 2), *rb = reply_array(&r[1], 2);
            reply_int(&ra[0], (long long)ranges[k].a0);
            reply_int(&ra[1], (long long)ranges[k].a1);
            reply_int(&rb[0], (long long)ranges[k].b0);
            reply_int(&rb[1], (long long)ranges[k].b1);
            if (withmatchlen) reply_int(&r[2], (long long)(ranges[k].a1 - ranges[k].a0 + 1));
        }
        reply_bulk_cstr(&m[2], "len");
        reply_int(&m[3], total);
    } else if (getlen) {
        reply_int(c->out, total);
    } else {
        reply_bulk(c->out, result, total);
    }
    free(ranges);
    free(result);
    free(dp);
}
