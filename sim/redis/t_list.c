/* t_list.c — the list commands (LPUSH, LPOP, LRANGE, LINSERT, LPOS, LMOVE, BLPOP, LMPOP ...):
 * each parses and checks its arguments, calls the type's API (list.h, where the representation
 * and its invariants are) and replies. */
#include "list.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "object.h"

/* Redis's index normalisation for LRANGE and LTRIM: negative indexes count from the end,
 * start is clamped to 0 and end to len - 1. Returns 0 and [*s, *e] if the range is not
 * empty. */
static int list_range(size_t len, long long start, long long end, size_t *s, size_t *e)
{
    long long n = (long long)len;
    if (start < 0) start += n;
    if (end < 0) end += n;
    if (start < 0) start = 0;
    if (start > end || start >= n) return -1;
    if (end >= n) end = n - 1;
    *s = (size_t)start;
    *e = (size_t)end;
    return 0;
}

static int list_lookup(cmdctx *c, kv **e)
{
    return lookup_typed(c, c->argv[1], OBJ_LIST, e);
}

static void list_push_command(cmdctx *c, int where)
{
    kv *e;
    if (list_lookup(c, &e) < 0) return;
    list *l = e ? e->ptr : list_new();
    for (int i = 2; i < c->argc; i++) list_push(l, c->argv[i], where);
    if (!e) e = store_set(c->db, c->argv[1], OBJ_LIST, l, 0);
    store_touched(c->db, e);
    reply_int(c->out, (long long)list_len(l));
}

void cmd_lpush(cmdctx *c)
{
    list_push_command(c, LIST_HEAD);
}

void cmd_rpush(cmdctx *c)
{
    list_push_command(c, LIST_TAIL);
}

/* LPOP/RPOP key [count]: one bulk without a count; with one, an array (a null array for a
 * missing key). The count is validated before the key is looked at. */
static void list_pop_command(cmdctx *c, int where)
{
    if (c->argc > 3) {
        reply_wrong_args(c);
        return;
    }
    int has_count = c->argc == 3;
    long long count = 1;
    if (has_count && (ll_parse_int64(c->argv[2], &count) < 0 || count < 0)) {
        reply_error(c->out, "ERR value is out of range, must be positive");
        return;
    }
    kv *e;
    if (list_lookup(c, &e) < 0) return;
    if (!e) {
        if (has_count) reply_nil_array(c->out);
        else reply_nil(c->out);
        return;
    }
    list *l = e->ptr;
    if (!has_count) {
        sstr *s = list_pop(l, where);
        reply_bulk(c->out, s->p, s->len);
        free(s);
    } else {
        size_t n = (unsigned long long)count < list_len(l) ? (size_t)count : list_len(l);
        reply *el = reply_array(c->out, n);
        for (size_t i = 0; i < n; i++) {
            sstr *s = list_pop(l, where);
            reply_bulk(&el[i], s->p, s->len);
            free(s);
        }
        if (!n) return; /* LPOP key 0: nothing changed */
    }
    store_touched(c->db, e);
}

void cmd_lpop(cmdctx *c)
{
    list_pop_command(c, LIST_HEAD);
}

void cmd_rpop(cmdctx *c)
{
    list_pop_command(c, LIST_TAIL);
}

void cmd_llen(cmdctx *c)
{
    kv *e;
    if (list_lookup(c, &e) < 0) return;
    reply_int(c->out, e ? (long long)list_len(e->ptr) : 0);
}

/* Resolves a possibly negative index against len: 0 and *i if in range. */
static int list_index(const list *l, long long index, size_t *i)
{
    if (index < 0) index += (long long)list_len(l);
    if (index < 0 || index >= (long long)list_len(l)) return -1;
    *i = (size_t)index;
    return 0;
}

/* LINDEX looks at the key before the index: a missing key is nil whatever the index. */
void cmd_lindex(cmdctx *c)
{
    kv *e;
    long long index;
    size_t i;
    if (list_lookup(c, &e) < 0) return;
    if (!e) {
        reply_nil(c->out);
        return;
    }
    if (arg_int64(c, 2, &index) < 0) return;
    if (list_index(e->ptr, index, &i) < 0) {
        reply_nil(c->out);
        return;
    }
    const sstr *s = list_at(e->ptr, i);
    reply_bulk(c->out, s->p, s->len);
}

void cmd_lset(cmdctx *c)
{
    kv *e;
    long long index;
    size_t i;
    if (list_lookup(c, &e) < 0) return;
    if (!e) {
        reply_error(c->out, "ERR no such key");
        return;
    }
    if (arg_int64(c, 2, &index) < 0) return;
    if (list_index(e->ptr, index, &i) < 0) {
        reply_error(c->out, "ERR index out of range");
        return;
    }
    list_replace(e->ptr, i, c->argv[3]);
    store_touched(c->db, e);
    reply_ok(c->out);
}

void cmd_lrange(cmdctx *c)
{
    long long start, end;
    kv *e;
    size_t s, t;
    if (arg_int64(c, 2, &start) < 0 || arg_int64(c, 3, &end) < 0) return;
    if (list_lookup(c, &e) < 0) return;
    if (!e || list_range(list_len(e->ptr), start, end, &s, &t) < 0) {
        reply_array(c->out, 0);
        return;
    }
    reply *el = reply_array(c->out, t - s + 1);
    for (size_t i = s; i <= t; i++) {
        const sstr *v = list_at(e->ptr, i);
        reply_bulk(&el[i - s], v->p, v->len);
    }
}

void cmd_ltrim(cmdctx *c)
{
    long long start, end;
    kv *e;
    size_t s = 0, t = 0;
    if (arg_int64(c, 2, &start) < 0 || arg_int64(c, 3, &end) < 0) return;
    if (list_lookup(c, &e) < 0) return;
    if (e) {
        list *l = e->ptr;
        size_t before = list_len(l);
        int keep = list_range(list_len(l), start, end, &s, &t) == 0;
        list_keep(l, keep, s, t);
        if (list_len(l) != before) store_touched(c->db, e);
    }
    reply_ok(c->out);
}

void cmd_lrem(cmdctx *c)
{
    long long count;
    kv *e;
    if (arg_int64(c, 2, &count) < 0) return;
    if (list_lookup(c, &e) < 0) return;
    size_t removed = 0;
    if (e) {
        /* |LLONG_MIN| does not fit a long long: take the magnitude as unsigned. */
        unsigned long long max = count < 0 ? 0ull - (unsigned long long)count : (unsigned long long)count;
        removed = list_remove(e->ptr, c->argv[3], max, count < 0);
        if (removed) store_touched(c->db, e);
    }
    reply_int(c->out, (long long)removed);
}

/* BLPOP/BRPOP key [key ...] timeout: the first non-empty list of the keys, popped, as
 * [key, value]. When every list is empty, a connection that may block (conn.h: locklab
 * serve's) is marked blocked with its deadline on this server's clock and gets no reply: its
 * host runs the command again as keys change and answers the null array at the deadline.
 * Elsewhere nothing can push while a command waits (a REPL session is one connection;
 * simulated clients do not block; MULTI), so the wait can only end with its timeout: the
 * reply is the null array Redis sends then, at once, without moving virtual time. Refused
 * inside scripts, as in Redis. */
static void list_bpop_command(cmdctx *c, int where)
{
    long long timeout;
    if (arg_timeout(c, c->argv[c->argc - 1], &timeout) < 0) return;
    for (int i = 1; i < c->argc - 1; i++) {
        kv *e;
        if (lookup_blocked(c, c->argv[i], OBJ_LIST, &e) < 0) return;
        if (!e) continue;
        sstr *s = list_pop(e->ptr, where);
        reply *el = reply_array(c->out, 2);
        reply_bulk(&el[0], c->argv[i].p, c->argv[i].len);
        reply_bulk(&el[1], s->p, s->len);
        free(s);
        store_touched(c->db, e);
        return;
    }
    cmd_block_or_nil(c, timeout);
}

void cmd_blpop(cmdctx *c)
{
    list_bpop_command(c, LIST_HEAD);
}

void cmd_brpop(cmdctx *c)
{
    list_bpop_command(c, LIST_TAIL);
}

/* ---- LPUSHX, RPUSHX, LINSERT, LPOS ---- */

static void list_pushx_command(cmdctx *c, int where)
{
    kv *e;
    if (list_lookup(c, &e) < 0) return;
    if (!e) {
        reply_int(c->out, 0);
        return;
    }
    for (int i = 2; i < c->argc; i++) list_push(e->ptr, c->argv[i], where);
    store_touched(c->db, e);
    reply_int(c->out, (long long)list_len(e->ptr));
}

void cmd_lpushx(cmdctx *c) { list_pushx_command(c, LIST_HEAD); }
void cmd_rpushx(cmdctx *c) { list_pushx_command(c, LIST_TAIL); }

/* LINSERT key BEFORE|AFTER pivot element: the new length, 0 for a missing key, -1 when the
 * pivot is not there. */
void cmd_linsert(cmdctx *c)
{
    int after;
    if (slice_opt_is(c->argv[2], "after")) after = 1;
    else if (slice_opt_is(c->argv[2], "before")) after = 0;
    else {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    kv *e;
    if (list_lookup(c, &e) < 0) return;
    if (!e) {
        reply_int(c->out, 0);
        return;
    }
    list *l = e->ptr;
    for (size_t i = 0; i < list_len(l); i++) {
        if (!slice_eq(sstr_slice(list_at(l, i)), c->argv[3])) continue;
        list_insert(l, i + (size_t)after, c->argv[4]);
        store_touched(c->db, e);
        reply_int(c->out, (long long)list_len(l));
        return;
    }
    reply_int(c->out, -1);
}

/* LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]: Redis's lposCommand. */
void cmd_lpos(cmdctx *c)
{
    long long rank = 1, count = -1, maxlen = 0;
    for (int j = 3; j < c->argc; j++) {
        int more = j + 1 < c->argc;
        if (slice_opt_is(c->argv[j], "rank") && more) {
            if (arg_int64(c, ++j, &rank) < 0) return;
            if (rank == 0) {
                reply_error(c->out, "ERR RANK can't be zero: use 1 to start from the first match, 2 from the "
                                    "second ... or use negative to start from the end of the list");
                return;
            }
        } else if (slice_opt_is(c->argv[j], "count") && more) {
            if (ll_parse_int64(c->argv[++j], &count) < 0 || count < 0) {
                reply_error(c->out, "ERR COUNT can't be negative");
                return;
            }
        } else if (slice_opt_is(c->argv[j], "maxlen") && more) {
            if (ll_parse_int64(c->argv[++j], &maxlen) < 0 || maxlen < 0) {
                reply_error(c->out, "ERR MAXLEN can't be negative");
                return;
            }
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    int from_tail = rank < 0;
    /* Redis 7.0.15 negates the rank in a long: LLONG_MIN stays negative, and every match is
     * at least that rank (so the first match from the tail answers). */
    unsigned long long want = rank == LLONG_MIN ? 0 : from_tail ? 0ull - (unsigned long long)rank : (unsigned long long)rank;
    kv *e;
    if (list_lookup(c, &e) < 0) return;
    if (!e) {
        if (count != -1) reply_array(c->out, 0);
        else reply_nil(c->out);
        return;
    }
    const list *l = e->ptr;
    size_t n = list_len(l), found = 0, cap = 0;
    long long *hits = NULL;
    unsigned long long matches = 0;
    for (size_t k = 0; k < n && (maxlen == 0 || (long long)k < maxlen); k++) {
        size_t i = from_tail ? n - 1 - k : k;
        if (!slice_eq(sstr_slice(list_at(l, i)), c->argv[2])) continue;
        if (++matches < want) continue;
        if (found == cap) {
            cap = cap ? cap * 2 : 8;
            hits = xrealloc(hits, cap * sizeof *hits);
        }
        hits[found++] = (long long)i;
        if (count == -1 || (count && (long long)found >= count)) break;
    }
    if (count == -1) {
        if (found) reply_int(c->out, hits[0]);
        else reply_nil(c->out);
    } else {
        reply *el = reply_array(c->out, found);
        for (size_t i = 0; i < found; i++) reply_int(&el[i], hits[i]);
    }
    free(hits);
}

/* ---- RPOPLPUSH, LMOVE and their blocking forms ---- */

static int list_where(cmdctx *c, int i, int *where)
{
    if (slice_opt_is(c->argv[i], "left")) *where = LIST_HEAD;
    else if (slice_opt_is(c->argv[i], "right")) *where = LIST_TAIL;
    else {
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    return 0;
}

/* Pops from argv[1]'s list at `from`, pushes onto argv[2]'s at `to` (the same list
 * rotates); nil when the source is missing. `timeout` >= 0 (BRPOPLPUSH, BLMOVE): a missing
 * source is a wait (cmd_block_or_nil). */
static void list_move(cmdctx *c, int from, int to, long long timeout)
{
    kv *src, *dst;
    if (lookup_blocked(c, c->argv[1], OBJ_LIST, &src) < 0) return;
    if (!src) {
        if (timeout >= 0) cmd_block_or_nil(c, timeout);
        else reply_nil(c->out);
        return;
    }
    if (lookup_typed(c, c->argv[2], OBJ_LIST, &dst) < 0) return;
    sstr *v = list_pop(src->ptr, from);
    if (!dst) {
        dst = store_add(c->db, c->argv[2], OBJ_LIST, list_new());
        src = store_lookup(c->db, c->argv[1]);
    }
    list_push(dst->ptr, sstr_slice(v), to);
    reply_bulk(c->out, v->p, v->len);
    free(v);
    store_touched(c->db, dst);
    if (src != dst) store_touched(c->db, src);
}

void cmd_rpoplpush(cmdctx *c) { list_move(c, LIST_TAIL, LIST_HEAD, -1); }

void cmd_lmove(cmdctx *c)
{
    int from, to;
    if (list_where(c, 3, &from) < 0 || list_where(c, 4, &to) < 0) return;
    list_move(c, from, to, -1);
}

void cmd_brpoplpush(cmdctx *c)
{
    long long timeout;
    if (arg_timeout(c, c->argv[3], &timeout) < 0) return;
    list_move(c, LIST_TAIL, LIST_HEAD, timeout);
}

void cmd_blmove(cmdctx *c)
{
    int from, to;
    long long timeout;
    if (list_where(c, 3, &from) < 0 || list_where(c, 4, &to) < 0) return;
    if (arg_timeout(c, c->argv[5], &timeout) < 0) return;
    list_move(c, from, to, timeout);
}

/* ---- LMPOP, BLMPOP ---- */

/* [BL]MPOP's arguments from argv[nk] (numkeys) on (arg_mpop), LEFT|RIGHT as the end. */
static int mpop_parse(cmdctx *c, int nk, int *first, int *nkeys, int *where, long long *count)
{
    int right;
    if (arg_mpop(c, nk, "left", "right", first, nkeys, &right, count) < 0) return -1;
    *where = right ? LIST_TAIL : LIST_HEAD;
    return 0;
}

/* Pops up to count elements from the first non-empty list of the keys: [key, [elements]],
 * or a null array (`timeout` >= 0, BLMPOP: a wait, cmd_block_or_nil). */
static void mpop_run(cmdctx *c, int first, int nkeys, int where, long long count, long long timeout)
{
    for (int i = first; i < first + nkeys; i++) {
        kv *e;
        if (lookup_blocked(c, c->argv[i], OBJ_LIST, &e) < 0) return;
        if (!e) continue;
        list *l = e->ptr;
        size_t n = (unsigned long long)count < list_len(l) ? (size_t)count : list_len(l);
        reply *out = reply_array(c->out, 2);
        reply_bulk(&out[0], c->argv[i].p, c->argv[i].len);
        reply *el = reply_array(&out[1], n);
        for (size_t k = 0; k < n; k++) {
            sstr *s = list_pop(l, where);
            reply_bulk(&el[k], s->p, s->len);
            free(s);
        }
        store_touched(c->db, e);
        return;
    }
    if (timeout >= 0) cmd_block_or_nil(c, timeout);
    else reply_nil_array(c->out);
}

void cmd_lmpop(cmdctx *c)
{
    int first, nkeys, where;
    long long count;
    if (mpop_parse(c, 1, &first, &nkeys, &where, &count) < 0) return;
    mpop_run(c, first, nkeys, where, count, -1);
}

/* BLMPOP timeout numkeys key ...: the timeout is read after the rest, as Redis does; with
 * every list empty the wait could only time out here (BLPOP's comment). */
void cmd_blmpop(cmdctx *c)
{
    int first, nkeys, where;
    long long count, timeout;
    if (mpop_parse(c, 2, &first, &nkeys, &where, &count) < 0) return;
    if (arg_timeout(c, c->argv[1], &timeout) < 0) return;
    mpop_run(c, first, nkeys, where, count, timeout);
}
