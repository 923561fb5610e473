/* etcd_ops.c — the requests of the fake etcd: the KV and Lease services of the v3 API, as
 * words (case does not matter):
 *
 *   PUT KEY VALUE [LEASE ID] [PREV_KV] [IGNORE_VALUE] [IGNORE_LEASE]
 *   GET KEY [END K | PREFIX | FROM_KEY] [LIMIT N] [REV N] [SORT KEY|VERSION|CREATE|MOD|VALUE
 *       [NONE|ASCEND|DESCEND]] [KEYS_ONLY] [COUNT_ONLY] [MIN_MOD N] [MAX_MOD N]
 *       [MIN_CREATE N] [MAX_CREATE N] [FIRST_CREATE] [LAST_CREATE]
 *   DEL KEY [END K | PREFIX | FROM_KEY] [PREV_KV]
 *   TXN [IF CMP...] [THEN OP...] [ELSE OP...]
 *       CMP: CREATE|MOD|VERSION|VALUE|LEASE KEY =|!=|<|> VALUE [END K | PREFIX | FROM_KEY]
 *       OP: a PUT, GET or DEL as above
 *   LEASE_GRANT TTL [ID ID], LEASE_REVOKE ID, LEASE_KEEPALIVE ID, LEASE_TTL ID [KEYS],
 *   LEASE_LEASES
 *   SUBSCRIBE TOPIC (WATCH TOPIC): "key KEY from REV" or "prefix KEY from REV" (etcd_watch.c)
 *
 * PREFIX is clientv3's WithPrefix (range end = the key with its last byte plus one),
 * FROM_KEY its WithFromKey (range end "\0"); FIRST_CREATE and LAST_CREATE are WithFirstCreate
 * and WithLastCreate (prefix, sorted by create_revision, limit 1). A lease ID is decimal or
 * 0x-hexadecimal. Each request runs as etcdserver/apply.go applies it at v3.4.23: Range (fetch,
 * filter on revisions, sort, limit; count is the range's size before the filters), Put,
 * DeleteRange, Txn (the compares on the state before, then one branch, whose writes share
 * one revision; a range after a write in it sees the write), with the checks of
 * api/v3rpc/key.go and their error texts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "etcd.h"

#define MAX_TXN_OPS 128 /* embed.DefaultMaxTxnOps */
#define MAX_LEASE_TTL INT64_C(9000000000)

enum { OP_RANGE, OP_PUT, OP_DEL };
enum { SORT_KEY, SORT_VERSION, SORT_CREATE, SORT_MOD, SORT_VALUE };
enum { ORDER_NONE, ORDER_ASCEND, ORDER_DESCEND };
enum { CMP_CREATE, CMP_MOD, CMP_VERSION, CMP_VALUE, CMP_LEASE };
enum { RES_EQ, RES_NE, RES_LT, RES_GT };

typedef struct eop {
    int type;
    erange r;
    char *endmem;
    slice val;
    int64_t lease, limit, rev, min_mod, max_mod, min_create, max_create;
    int prev_kv, ignore_value, ignore_lease, keys_only, count_only, sort_target, sort_order;
} eop;

typedef struct ecmp {
    int target, result;
    erange r;
    char *endmem;
    int64_t n;
    slice v;
} ecmp;

typedef struct parser {
    int argc, i;
    const slice *argv;
    char *err;
} parser;

/* the write transaction in progress: its first revision, and whether it changed anything */
typedef struct wtxn {
    int64_t begin;
    int changed;
} wtxn;

static const char E_EMPTY_KEY[] = "etcdserver: key is not provided";
static const char E_LEASE_NOT_FOUND[] = "etcdserver: requested lease not found";

/* ---- parsing ---- */

static int fail(parser *p, const char *what)
{
    if (!p->err) {
        buf b;
        buf_init(&b);
        buf_printf(&b, "locklab: %s", what);
        if (p->i < p->argc) buf_printf(&b, " (at '%.*s')", (int)p->argv[p->i].len, p->argv[p->i].p);
        p->err = buf_steal(&b);
    }
    return -1;
}

static int word_is(parser *p, const char *w)
{
    return p->i < p->argc && slice_eq_nocase(p->argv[p->i], w);
}

static int take(parser *p, slice *out)
{
    if (p->i >= p->argc) return fail(p, "a request ended too soon");
    *out = p->argv[p->i++];
    return 0;
}

static int take_int(parser *p, int64_t *out)
{
    slice w;
    if (take(p, &w) != 0) return -1;
    long long v;
    if (w.len > 2 && w.p[0] == '0' && (w.p[1] == 'x' || w.p[1] == 'X')) {
        uint64_t x = 0;
        for (size_t i = 2; i < w.len; i++) {
            char c = w.p[i];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0 || i > 17) {
                p->i--;
                return fail(p, "not a number");
            }
            x = x * 16 + (uint64_t)d;
        }
        *out = (int64_t)x;
        return 0;
    }
    if (ll_parse_int64(w, &v) != 0) {
        p->i--;
        return fail(p, "not a number");
    }
    *out = v;
    return 0;
}

/* The range end of WithPrefix (prefix) or WithFromKey, kept in *endmem. */
static void set_end(erange *r, char **endmem, int prefix)
{
    int empty = !r->key.len;
    if (empty) r->key = (slice){ "", 1 }; /* clientv3: an empty key becomes "\0" */
    free(*endmem);
    *endmem = xmalloc(r->key.len + 1);
    if (prefix && !empty) r->end.len = etcd_prefix_end(r->key.p, r->key.len, *endmem);
    else (*endmem)[0] = 0, r->end.len = 1; /* WithPrefix of "" and WithFromKey: "\0" */
    r->end.p = *endmem;
    r->has_end = 1;
}

/* END K | PREFIX | FROM_KEY, if the next word is one: 1 taken, 0 not, -1 error */
static int range_opt(parser *p, erange *r, char **endmem)
{
    if (word_is(p, "END")) {
        p->i++;
        if (take(p, &r->end) != 0) return -1;
        r->has_end = r->end.len > 0;
        return 1;
    }
    if (word_is(p, "PREFIX") || word_is(p, "FROM_KEY")) {
        int prefix = word_is(p, "PREFIX");
        p->i++;
        set_end(r, endmem, prefix);
        return 1;
    }
    return 0;
}

static int parse_op(parser *p, eop *op)
{
    memset(op, 0, sizeof *op);
    if (word_is(p, "PUT")) op->type = OP_PUT;
    else if (word_is(p, "GET")) op->type = OP_RANGE;
    else if (word_is(p, "DEL")) op->type = OP_DEL;
    else return fail(p, "expected PUT, GET or DEL");
    p->i++;
    if (take(p, &op->r.key) != 0) return -1;
    if (op->type == OP_PUT && take(p, &op->val) != 0) return -1;
    for (;;) {
        int t = op->type != OP_PUT ? range_opt(p, &op->r, &op->endmem) : 0;
        if (t < 0) return -1;
        if (t) continue;
        if (op->type == OP_PUT && word_is(p, "LEASE")) {
            p->i++;
            if (take_int(p, &op->lease) != 0) return -1;
        } else if (op->type != OP_RANGE && word_is(p, "PREV_KV")) {
            p->i++, op->prev_kv = 1;
        } else if (op->type == OP_PUT && word_is(p, "IGNORE_VALUE")) {
            p->i++, op->ignore_value = 1;
        } else if (op->type == OP_PUT && word_is(p, "IGNORE_LEASE")) {
            p->i++, op->ignore_lease = 1;
        } else if (op->type == OP_RANGE && (word_is(p, "FIRST_CREATE") || word_is(p, "LAST_CREATE"))) {
            /* clientv3's withTop: WithPrefix, WithSort(CreateRevision, order), WithLimit(1) */
            op->sort_order = word_is(p, "FIRST_CREATE") ? ORDER_ASCEND : ORDER_DESCEND;
            op->sort_target = SORT_CREATE;
            op->limit = 1;
            p->i++;
            set_end(&op->r, &op->endmem, 1);
        } else if (op->type == OP_RANGE && word_is(p, "SORT")) {
            static const char *const targets[] = { "KEY", "VERSION", "CREATE", "MOD", "VALUE" };
            p->i++;
            int found = -1;
            for (int k = 0; k < 5; k++)
                if (word_is(p, targets[k])) found = k;
            if (found < 0) return fail(p, "SORT takes KEY, VERSION, CREATE, MOD or VALUE");
            p->i++;
            op->sort_target = found;
            if (word_is(p, "NONE")) p->i++, op->sort_order = ORDER_NONE;
            else if (word_is(p, "ASCEND")) p->i++, op->sort_order = ORDER_ASCEND;
            else if (word_is(p, "DESCEND")) p->i++, op->sort_order = ORDER_DESCEND;
        } else if (op->type == OP_RANGE && word_is(p, "KEYS_ONLY")) {
            p->i++, op->keys_only = 1;
        } else if (op->type == OP_RANGE && word_is(p, "COUNT_ONLY")) {
            p->i++, op->count_only = 1;
        } else if (op->type == OP_RANGE && (word_is(p, "LIMIT") || word_is(p, "REV") || word_is(p, "MIN_MOD") ||
                                            word_is(p, "MAX_MOD") || word_is(p, "MIN_CREATE") || word_is(p, "MAX_CREATE"))) {
            int64_t *dst = word_is(p, "LIMIT") ? &op->limit : word_is(p, "REV") ? &op->rev : word_is(p, "MIN_MOD") ? &op->min_mod
                         : word_is(p, "MAX_MOD") ? &op->max_mod : word_is(p, "MIN_CREATE") ? &op->min_create : &op->max_create;
            p->i++;
            if (take_int(p, dst) != 0) return -1;
        } else {
            return 0;
        }
    }
}

static int parse_cmp(parser *p, ecmp *c)
{
    static const char *const targets[] = { "CREATE", "MOD", "VERSION", "VALUE", "LEASE" };
    static const char *const results[] = { "=", "!=", "<", ">" };
    memset(c, 0, sizeof *c);
    c->target = -1;
    for (int k = 0; k < 5; k++)
        if (word_is(p, targets[k])) c->target = k;
    if (c->target < 0) return fail(p, "a compare starts with CREATE, MOD, VERSION, VALUE or LEASE");
    p->i++;
    if (take(p, &c->r.key) != 0) return -1;
    c->result = -1;
    for (int k = 0; k < 4; k++)
        if (word_is(p, results[k])) c->result = k;
    if (c->result < 0) return fail(p, "a compare's operator is =, !=, < or >");
    p->i++;
    if (c->target == CMP_VALUE) {
        if (take(p, &c->v) != 0) return -1;
    } else if (take_int(p, &c->n) != 0) {
        return -1;
    }
    return range_opt(p, &c->r, &c->endmem) < 0 ? -1 : 0;
}

/* ---- reading ---- */

static void put_kv(enode *list, const char *name, const ekv *kv, int keys_only)
{
    enode *m = enode_add(list, name, EN_MAP);
    enode_str(m, "key", kv->key, kv->klen);
    enode_int(m, "create_revision", kv->create_rev);
    enode_int(m, "mod_revision", kv->mod_rev);
    enode_int(m, "version", kv->version);
    enode_str(m, "value", keys_only ? "" : kv->val, keys_only ? 0 : kv->vlen);
    enode_int(m, "lease", kv->lease);
}

static void header(enode *m, int64_t rev)
{
    enode_int(enode_add(m, "header", EN_MAP), "revision", rev);
}

/* The keys at revision rev, replayed from the history (a read in the past). */
static etcd_data *at_revision(const etcd_data *d, int64_t rev)
{
    etcd_data *old = etcd_data_new();
    for (size_t i = 0; i < d->nlog && d->log[i].kv.mod_rev <= rev; i++) {
        const ekv *kv = &d->log[i].kv;
        size_t at = etcd_lower_bound(old, kv->key, kv->klen);
        int found = at < old->nkvs && !etcd_key_cmp(old->kvs[at].key, old->kvs[at].klen, kv->key, kv->klen);
        if (d->log[i].del) {
            if (found) {
                ekv_release(&old->kvs[at]);
                memmove(&old->kvs[at], &old->kvs[at + 1], (old->nkvs - at - 1) * sizeof *old->kvs);
                old->nkvs--;
            }
            continue;
        }
        if (!found) {
            if (old->nkvs == old->capkvs) {
                old->capkvs = old->capkvs ? old->capkvs * 2 : 8;
                old->kvs = xrealloc(old->kvs, old->capkvs * sizeof *old->kvs);
            }
            memmove(&old->kvs[at + 1], &old->kvs[at], (old->nkvs - at) * sizeof *old->kvs);
            old->nkvs++;
        } else {
            ekv_release(&old->kvs[at]);
        }
        ekv_copy(&old->kvs[at], kv);
    }
    return old;
}

static int64_t sort_value(const ekv *kv, int target)
{
    switch (target) {
    case SORT_VERSION: return kv->version;
    case SORT_CREATE: return kv->create_rev;
    case SORT_MOD: return kv->mod_rev;
    }
    return 0;
}

static int before(const ekv *a, const ekv *b, int target)
{
    if (target == SORT_KEY) return etcd_key_cmp(a->key, a->klen, b->key, b->klen) < 0;
    if (target == SORT_VALUE) return etcd_key_cmp(a->val, a->vlen, b->val, b->vlen) < 0;
    return sort_value(a, target) < sort_value(b, target);
}

static const char *check_range(const etcd *s, const eop *op)
{
    if (op->rev > s->d->rev) return "etcdserver: mvcc: required revision is a future revision";
    return NULL;
}

static void do_range(etcd *s, const eop *op, enode *resp)
{
    const etcd_data *d = s->d;
    etcd_data *old = op->rev > 0 && op->rev < d->rev ? at_revision(d, op->rev) : NULL;
    const etcd_data *v = old ? old : d;
    header(resp, d->rev);
    size_t n = 0, count = 0;
    const ekv **pick = xmalloc((v->nkvs + 1) * sizeof *pick);
    for (size_t i = etcd_lower_bound(v, op->r.key.p, op->r.key.len); i < v->nkvs; i++) {
        const ekv *kv = &v->kvs[i];
        if (!etcd_in_range(&op->r, kv->key, kv->klen)) break;
        count++;
        if (op->max_mod && kv->mod_rev > op->max_mod) continue;
        if (op->min_mod && kv->mod_rev < op->min_mod) continue;
        if (op->max_create && kv->create_rev > op->max_create) continue;
        if (op->min_create && kv->create_rev < op->min_create) continue;
        pick[n++] = kv;
    }
    int order = op->sort_order;
    if (op->sort_target != SORT_KEY && order == ORDER_NONE) order = ORDER_ASCEND;
    if (order != ORDER_NONE) {
        /* insertion sort: stable, so ties keep key order */
        for (size_t i = 1; i < n; i++) {
            const ekv *x = pick[i];
            size_t j = i;
            while (j > 0 && (order == ORDER_ASCEND ? before(x, pick[j - 1], op->sort_target) : before(pick[j - 1], x, op->sort_target))) {
                pick[j] = pick[j - 1];
                j--;
            }
            pick[j] = x;
        }
    }
    enode *kvs = enode_add(resp, "kvs", EN_LIST);
    int more = op->limit > 0 && n > (size_t)op->limit;
    if (more) n = (size_t)op->limit;
    if (!op->count_only)
        for (size_t i = 0; i < n; i++) put_kv(kvs, NULL, pick[i], op->keys_only);
    enode_bool(resp, "more", more && !op->count_only);
    enode_int(resp, "count", (int64_t)count);
    free(pick);
    etcd_data_free(old);
}

/* ---- writing ---- */

static int64_t write_rev(etcd *s, wtxn *t)
{
    if (!t->changed) {
        t->changed = 1;
        s->d->rev = t->begin + 1;
    }
    return t->begin + 1;
}

static const char *check_put(const etcd *s, const eop *op)
{
    if (op->lease && !etcd_lease_find(s->d, op->lease)) return E_LEASE_NOT_FOUND;
    if ((op->ignore_value || op->ignore_lease) && !etcd_find(s->d, op->r.key.p, op->r.key.len)) return "etcdserver: key not found";
    return NULL;
}

static void do_put(etcd *s, const eop *op, wtxn *t, enode *resp)
{
    const ekv *old = etcd_find(s->d, op->r.key.p, op->r.key.len);
    slice val = op->val;
    int64_t lease = op->lease;
    if (op->ignore_value) val = (slice){ old->val, old->vlen };
    if (op->ignore_lease) lease = old->lease;
    int64_t rev = write_rev(s, t);
    enode *h = enode_add(resp, "header", EN_MAP);
    if (op->prev_kv && old) put_kv(resp, "prev_kv", old, 0);
    char *v = xmemdup(val.p, val.len); /* val may point into the old value */
    etcd_put_kv(s, op->r.key.p, op->r.key.len, v, val.len, lease, rev, NULL);
    free(v);
    enode_int(h, "revision", rev);
}

static void do_del(etcd *s, const eop *op, wtxn *t, enode *resp)
{
    enode *h = enode_add(resp, "header", EN_MAP);
    enode *deleted = enode_add(resp, "deleted", EN_INT);
    enode *prev = enode_add(resp, "prev_kvs", EN_LIST);
    int64_t n = 0;
    for (size_t i = etcd_lower_bound(s->d, op->r.key.p, op->r.key.len); i < s->d->nkvs;) {
        const ekv *kv = &s->d->kvs[i];
        if (!etcd_in_range(&op->r, kv->key, kv->klen)) break;
        if (op->prev_kv) put_kv(prev, NULL, kv, 0);
        etcd_delete_kv(s, i, write_rev(s, t), KIND_DELETED);
        n++;
    }
    deleted->i = n;
    enode_int(h, "revision", t->changed ? t->begin + 1 : t->begin);
}

static const char *check_op_request(const eop *op)
{
    if (!op->r.key.len) return E_EMPTY_KEY;
    if (op->type != OP_PUT) return NULL;
    if (op->ignore_value && op->val.len) return "etcdserver: value is provided";
    if (op->ignore_lease && op->lease) return "etcdserver: lease is provided";
    if (etcd_is_lease_unit(op->r.key.p, op->r.key.len, NULL))
        return "locklab: keys of the form 'lease <16 hex digits>' name leases in locklab's history";
    return NULL;
}

static void run_op(etcd *s, const eop *op, wtxn *t, enode *resp)
{
    if (op->type == OP_RANGE) do_range(s, op, resp);
    else if (op->type == OP_PUT) do_put(s, op, t, resp);
    else do_del(s, op, t, resp);
}

/* ---- transactions ---- */

static int cmp_kv(const ecmp *c, const ekv *kv)
{
    int r;
    if (c->target == CMP_VALUE) {
        r = etcd_key_cmp(kv ? kv->val : "", kv ? kv->vlen : 0, c->v.p, c->v.len);
    } else {
        int64_t x = !kv ? 0 : c->target == CMP_CREATE ? kv->create_rev : c->target == CMP_MOD ? kv->mod_rev
                  : c->target == CMP_VERSION ? kv->version : kv->lease;
        r = x < c->n ? -1 : x > c->n;
    }
    switch (c->result) {
    case RES_EQ: return r == 0;
    case RES_NE: return r != 0;
    case RES_LT: return r < 0;
    default: return r > 0;
    }
}

/* applyCompare: every key of the range must pass; an empty range compares a zero key,
 * except a VALUE compare, which then fails. */
static int compare(const etcd *s, const ecmp *c)
{
    int any = 0;
    for (size_t i = etcd_lower_bound(s->d, c->r.key.p, c->r.key.len); i < s->d->nkvs; i++) {
        const ekv *kv = &s->d->kvs[i];
        if (!etcd_in_range(&c->r, kv->key, kv->klen)) break;
        any = 1;
        if (!cmp_kv(c, kv)) return 0;
    }
    if (!any) return c->target == CMP_VALUE ? 0 : cmp_kv(c, NULL);
    return 1;
}

/* checkIntervals: two puts of one key, or a put inside a deleted range, in one branch */
static int duplicate(const eop *ops, int n)
{
    for (int i = 0; i < n; i++) {
        if (ops[i].type != OP_PUT) continue;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            if (ops[j].type == OP_PUT && j < i && !etcd_key_cmp(ops[i].r.key.p, ops[i].r.key.len, ops[j].r.key.p, ops[j].r.key.len))
                return 1;
            if (ops[j].type == OP_DEL && etcd_in_range(&ops[j].r, ops[i].r.key.p, ops[i].r.key.len)) return 1;
        }
    }
    return 0;
}

static void free_ops(eop *ops, int n)
{
    for (int i = 0; i < n; i++) free(ops[i].endmem);
    free(ops);
}

static void exec_txn(etcd *s, parser *p, etcd_reply *out)
{
    int ncmp = 0, nthen = 0, nelse = 0;
    ecmp *cmps = xcalloc((size_t)p->argc + 1, sizeof *cmps);
    eop *thens = xcalloc((size_t)p->argc + 1, sizeof *thens), *elses = xcalloc((size_t)p->argc + 1, sizeof *elses);
    if (word_is(p, "IF")) {
        p->i++;
        while (p->i < p->argc && !word_is(p, "THEN") && !word_is(p, "ELSE"))
            if (parse_cmp(p, &cmps[ncmp++]) != 0) goto done;
    }
    if (word_is(p, "THEN")) {
        p->i++;
        while (p->i < p->argc && !word_is(p, "ELSE"))
            if (parse_op(p, &thens[nthen++]) != 0) goto done;
    }
    if (word_is(p, "ELSE")) {
        p->i++;
        while (p->i < p->argc)
            if (parse_op(p, &elses[nelse++]) != 0) goto done;
    }
    if (p->i < p->argc) {
        fail(p, "TXN takes IF compares, THEN operations, ELSE operations, in that order");
        goto done;
    }
    const char *e = NULL;
    if (ncmp > MAX_TXN_OPS || nthen > MAX_TXN_OPS || nelse > MAX_TXN_OPS) e = "etcdserver: too many operations in txn request";
    for (int i = 0; !e && i < ncmp; i++)
        if (!cmps[i].r.key.len) e = E_EMPTY_KEY;
    for (int i = 0; !e && i < nthen; i++) e = check_op_request(&thens[i]);
    for (int i = 0; !e && i < nelse; i++) e = check_op_request(&elses[i]);
    if (!e && (duplicate(thens, nthen) || duplicate(elses, nelse))) e = "etcdserver: duplicate key given in txn request";
    int ok = 1;
    for (int i = 0; !e && ok && i < ncmp; i++) ok = compare(s, &cmps[i]);
    eop *ops = ok ? thens : elses;
    int nops = ok ? nthen : nelse;
    for (int i = 0; !e && i < nops; i++) e = ops[i].type == OP_PUT ? check_put(s, &ops[i]) : NULL;
    for (int i = 0; !e && i < nops; i++) e = ops[i].type == OP_RANGE ? check_range(s, &ops[i]) : NULL;
    if (e) {
        out->err = xstrdup(e);
        goto done;
    }
    wtxn t = { .begin = s->d->rev };
    out->root = enode_new_map();
    enode *h = enode_add(out->root, "header", EN_MAP);
    enode_bool(out->root, "succeeded", ok);
    enode *resps = enode_add(out->root, "responses", EN_LIST);
    for (int i = 0; i < nops; i++) {
        enode *r = enode_add(resps, NULL, EN_MAP);
        const char *name = ops[i].type == OP_RANGE ? "response_range" : ops[i].type == OP_PUT ? "response_put" : "response_delete_range";
        run_op(s, &ops[i], &t, enode_add(r, name, EN_MAP));
    }
    enode_int(h, "revision", t.changed ? t.begin + 1 : t.begin);
done:
    for (int i = 0; i < ncmp; i++) free(cmps[i].endmem);
    free(cmps);
    free_ops(thens, nthen);
    free_ops(elses, nelse);
}

/* ---- leases ---- */

static void lease_grant(etcd *s, int64_t ttl, int64_t id, etcd_reply *out)
{
    if (ttl > MAX_LEASE_TTL) {
        out->err = xstrdup("etcdserver: too large lease TTL");
        return;
    }
    int64_t now = etcd_now_seen(s);
    if (!id) {
        /* EtcdServer.LeaseGrant: reqIDGen.Next() & (1<<63 - 1); idutil.Generator: the member
         * ID's low 16 bits, then a 48-bit suffix counting up from the time in ms << 8 */
        uint64_t t = ((uint64_t)now & ((UINT64_C(1) << 40) - 1)) << 8;
        uint64_t suffix = s->d->id_suffix + 1 > t ? s->d->id_suffix + 1 : t;
        id = (int64_t)(((UINT64_C(0x694d) << 48) | (suffix & ((UINT64_C(1) << 48) - 1))) & INT64_MAX);
    }
    if (etcd_lease_find(s->d, id)) {
        out->err = xstrdup("etcdserver: lease already exists");
        return;
    }
    int64_t min = etcd_min_ttl(s);
    if (ttl < min) ttl = min;
    etcd_lease_add(s->d, id, ttl, s->replica ? ETCD_FOREVER : now + ttl * 1000);
    char unit[32];
    etcd_lease_unit(id, unit);
    s->host.changed(s->host.ud, KIND_WRITTEN, slice_cstr(unit));
    out->root = enode_new_map();
    header(out->root, s->d->rev);
    enode_int(out->root, "ID", id);
    enode_int(out->root, "TTL", ttl);
}

static void lease_request(etcd *s, parser *p, const char *w, etcd_reply *out)
{
    int64_t a = 0, id = 0;
    int keys = 0;
    if (strcasecmp(w, "LEASE_LEASES") && take_int(p, &a) != 0) return;
    if (!strcasecmp(w, "LEASE_GRANT") && word_is(p, "ID")) {
        p->i++;
        if (take_int(p, &id) != 0) return;
    }
    if (!strcasecmp(w, "LEASE_TTL") && word_is(p, "KEYS")) p->i++, keys = 1;
    if (p->i < p->argc) {
        fail(p, "too many arguments");
        return;
    }
    if (!strcasecmp(w, "LEASE_GRANT")) return lease_grant(s, a, id, out);
    elease *l = etcd_lease_find(s->d, a);
    if (!strcasecmp(w, "LEASE_REVOKE")) {
        if (etcd_revoke(s, a, KIND_DELETED) != 0) {
            out->err = xstrdup(E_LEASE_NOT_FOUND);
            return;
        }
        out->root = enode_new_map();
        header(out->root, s->d->rev);
        return;
    }
    out->root = enode_new_map();
    header(out->root, s->d->rev);
    if (!strcasecmp(w, "LEASE_LEASES")) {
        enode *list = enode_add(out->root, "leases", EN_LIST);
        for (size_t i = 0; i < s->d->nleases; i++) enode_int(enode_add(list, NULL, EN_MAP), "ID", s->d->leases[i].id);
        return;
    }
    int64_t now = etcd_now_seen(s);
    enode_int(out->root, "ID", a);
    if (!strcasecmp(w, "LEASE_KEEPALIVE")) {
        /* Renew: an expired lease waits for its revoke, then is not found: TTL 0 */
        if (!l || (l->expiry_ms != ETCD_FOREVER && l->expiry_ms <= now)) {
            enode_int(out->root, "TTL", 0);
            return;
        }
        if (!s->replica) l->expiry_ms = now + l->ttl * 1000;
        enode_int(out->root, "TTL", l->ttl);
        return;
    }
    /* LEASE_TTL: int64(Remaining().Seconds()), truncated; -1 when not found */
    if (!l) {
        enode_int(out->root, "TTL", -1);
        return;
    }
    int64_t left = l->expiry_ms == ETCD_FOREVER ? INT64_MAX / 1000000 : (l->expiry_ms - now) / 1000;
    enode_int(out->root, "TTL", left);
    enode_int(out->root, "grantedTTL", l->ttl);
    if (keys) {
        enode *list = enode_add(out->root, "keys", EN_LIST);
        for (size_t i = 0; i < s->d->nkvs; i++)
            if (s->d->kvs[i].lease == a) enode_str(list, NULL, s->d->kvs[i].key, s->d->kvs[i].klen);
    }
}

/* ---- one request ---- */

void etcd_exec(etcd *s, int client, int argc, const slice *argv, etcd_reply *out)
{
    memset(out, 0, sizeof *out);
    parser p = { .argc = argc, .argv = argv };
    if (argc == 0) {
        out->err = xstrdup("locklab: an empty request");
        return;
    }
    char w[24];
    snprintf(w, sizeof w, "%.*s", (int)(argv[0].len < 23 ? argv[0].len : 23), argv[0].p);
    if (!strcasecmp(w, "SUBSCRIBE") || !strcasecmp(w, "WATCH")) {
        if (argc != 2) out->err = xstrdup("locklab: SUBSCRIBE takes one topic: 'key KEY from REV' or 'prefix KEY from REV'");
        else etcd_watch_add(s, client, argv[1], out);
        return;
    }
    if (!strcasecmp(w, "TXN")) {
        p.i = 1;
        exec_txn(s, &p, out);
    } else if (!strncasecmp(w, "LEASE_", 6)) {
        static const char *const names[] = { "LEASE_GRANT", "LEASE_REVOKE", "LEASE_KEEPALIVE", "LEASE_TTL", "LEASE_LEASES" };
        int known = 0;
        for (int i = 0; i < 5; i++) known |= !strcasecmp(w, names[i]);
        p.i = 1;
        if (known) lease_request(s, &p, w, out);
        else fail(&p, "unknown request");
    } else if (!strcasecmp(w, "PUT") || !strcasecmp(w, "GET") || !strcasecmp(w, "DEL")) {
        eop op;
        if (parse_op(&p, &op) == 0 && p.i < argc) fail(&p, "unknown option");
        const char *e = p.err ? NULL : check_op_request(&op);
        if (!e && !p.err) e = op.type == OP_PUT ? check_put(s, &op) : op.type == OP_RANGE ? check_range(s, &op) : NULL;
        if (e) out->err = xstrdup(e);
        else if (!p.err) {
            wtxn t = { .begin = s->d->rev };
            out->root = enode_new_map();
            run_op(s, &op, &t, out->root);
        }
        free(op.endmem);
    } else {
        fail(&p, "unknown request; PUT, GET, DEL, TXN, LEASE_GRANT, LEASE_REVOKE, LEASE_KEEPALIVE, LEASE_TTL, LEASE_LEASES, SUBSCRIBE");
    }
    if (p.err) {
        enode_free(out->root);
        out->root = NULL;
        free(out->err);
        out->err = p.err;
    }
}
