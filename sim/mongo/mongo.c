/* mongo.c — the fake MongoDB server (mongo.h). No Debian package carries MongoDB, so there
 * is no differential test: every semantic below follows the MongoDB manual (MongoDB 7.0,
 * www.mongodb.com/docs/manual/), page named.
 *
 * - A request is a command document in Extended JSON, its first field naming the command
 *   ("Database Commands", reference/command/). Database "locklab". Commands: insert, find,
 *   findAndModify, delete, createIndexes, drop. Any other: 59 CommandNotFound.
 * - _id is unique in every collection ("The _id Field": "the _id field ... is unique ... MongoDB
 *   creates a unique index on the _id field during the creation of a collection"). A write that
 *   would repeat one fails with code 11000 DuplicateKey, "E11000 duplicate key error
 *   collection: locklab.C index: _id_ dup key: { _id: V }". A document inserted without _id gets
 *   an integer one from a counter (the real server makes an ObjectId: only the type differs).
 * - Queries: equality of top-level fields (a missing field equals null), and the operators
 *   $lt, $lte, $gt, $gte, $ne, $exists; comparison operators only match values of the same
 *   BSON type ("Comparison Query Operators", type bracketing).
 * - findAndModify (reference/command/findAndModify/): query, update ($set, $setOnInsert,
 *   $unset, or a replacement document) or remove, upsert, new. The first matching document
 *   (insertion order: no sort) is modified atomically and returned as `value` (before the
 *   change, or after it with new: true); lastErrorObject { n, updatedExisting[, upserted] }.
 *   With upsert and no match, a document is inserted from the query's equality fields, then
 *   $set and $setOnInsert ("Upsert Behavior"). The manual's advice on upserts: "To avoid
 *   multiple upserts, ensure that the query fields are uniquely indexed". Here _id is the
 *   unique key and each command runs atomically, so two upserts on the same _id never both
 *   insert. If the query asks for more than the _id (a lock document in a given state) and
 *   misses a document that has that _id, the upsert's insert fails with E11000: the server
 *   retries such an insert internally only when the duplicate key matches the query's
 *   equality predicate exactly (jira.mongodb.org SERVER-14322, SERVER-47212 for
 *   findAndModify), which it does not here.
 * - TTL indexes ("TTL Indexes", core/index-ttl/): createIndexes with expireAfterSeconds on a
 *   date field. "The background task that removes expired documents runs every 60 seconds":
 *   a document whose field + expireAfterSeconds is at or before the time of a pass is deleted
 *   by that pass, so up to one period late. The period is the server option ttl_monitor (the
 *   server parameter ttlMonitorSleepSecs, default 60 s). mongod's TTLMonitor thread sleeps
 *   that long between passes on a steady clock (a condition variable's wait_for), and each
 *   pass compares the dates with the wall clock (Date_t::now()): the passes keep their rhythm
 *   through a wall-clock jump, and a jump changes only what a pass finds expired. The first
 *   pass comes a period after the process starts, or, for a node's first start, at the
 *   server option ttl_monitor_first: where the rhythm falls against a scenario's clients
 *   depends on when the server was started, which a scenario (or a sweep) places so. A
 *   field that is not a date, or missing, never expires. "On replica set members, the TTL
 *   background thread only deletes documents when a member is in state primary ... Secondary
 *   members replicate deletion operations from the primary": a secondary never sweeps.
 * - Writes on a secondary: 10107 NotWritablePrimary, "not primary". writeConcern w: 1 or w:
 *   "majority" (the implicit default since 5.0, "Default MongoDB Read Concerns/Write
 *   Concerns"); the reply says which (mgreply.majority) and the node holds a majority write's
 *   answer until a majority of the replica set has it (mongo_kind.c). Any other w is refused
 *   (code 2, BadValue). w: 1 is what can roll back ("Rollbacks During Replica Set Failover",
 *   core/replica-set-rollbacks/).
 * Not modelled: other BSON types, sort, projections, other indexes (secondary, unique beyond
 * _id), cursors beyond the first batch, transactions, sessions and retryable writes. */
#include "mongoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- collections ---- */

static mcoll *coll_clone(const mcoll *c, int with_docs)
{
    mcoll *k = xcalloc(1, sizeof *k);
    k->name = xstrdup(c->name);
    k->nttl = c->nttl;
    k->ttl = xcalloc((size_t)c->nttl + 1, sizeof *k->ttl);
    for (int i = 0; i < c->nttl; i++) {
        k->ttl[i] = c->ttl[i];
        k->ttl[i].field = xstrdup(c->ttl[i].field);
        k->ttl[i].name = xstrdup(c->ttl[i].name);
    }
    if (with_docs && c->n) {
        k->n = k->cap = c->n;
        k->docs = xcalloc((size_t)c->n, sizeof *k->docs);
        for (int i = 0; i < c->n; i++) k->docs[i] = (mdoc){ c->docs[i].rid, doc_clone(c->docs[i].d) };
    }
    return k;
}

static void coll_free(mcoll *c)
{
    if (!c) return;
    for (int i = 0; i < c->n; i++) doc_free(c->docs[i].d);
    free(c->docs);
    for (int i = 0; i < c->nttl; i++) {
        free(c->ttl[i].field);
        free(c->ttl[i].name);
    }
    free(c->ttl);
    free(c->name);
    free(c);
}

static int coll_pos(const mgdb *d, const char *name, int *found)
{
    int i = 0;
    for (; i < d->n; i++) {
        int c = strcmp(d->colls[i]->name, name);
        if (c == 0) {
            *found = 1;
            return i;
        }
        if (c > 0) break;
    }
    *found = 0;
    return i;
}

mcoll *mg_coll_find(const mgdb *d, const char *name)
{
    int found;
    int i = coll_pos(d, name, &found);
    return found ? d->colls[i] : NULL;
}

static void coll_put(mgdb *d, mcoll *c)
{
    int found;
    int i = coll_pos(d, c->name, &found);
    if (found) {
        coll_free(d->colls[i]);
        d->colls[i] = c;
        return;
    }
    d->colls = xrealloc(d->colls, (size_t)(d->n + 1) * sizeof *d->colls);
    memmove(&d->colls[i + 1], &d->colls[i], (size_t)(d->n - i) * sizeof *d->colls);
    d->colls[i] = c;
    d->n++;
}

void mg_report_coll(mgserver *s, const mcoll *c, int64_t rid, int how)
{
    if (!s->changed) return;
    buf b;
    buf_init(&b);
    if (rid) buf_printf(&b, "%s/%lld", c->name, (long long)rid);
    else buf_puts(&b, c->name);
    s->changed(s->ud, how, (slice){ b.p, b.len });
    buf_release(&b);
}

mcoll *mg_coll_create(mgserver *s, const char *name, int report)
{
    mcoll *c = xcalloc(1, sizeof *c);
    c->name = xstrdup(name);
    coll_put(s->db, c);
    if (report) mg_report_coll(s, c, 0, 0);
    return c;
}

void mg_coll_drop(mgserver *s, const char *name)
{
    int found;
    int i = coll_pos(s->db, name, &found);
    if (!found) return;
    mcoll gone = { .name = (char *)name };
    coll_free(s->db->colls[i]);
    memmove(&s->db->colls[i], &s->db->colls[i + 1], (size_t)(s->db->n - i - 1) * sizeof *s->db->colls);
    s->db->n--;
    mg_report_coll(s, &gone, 0, 1);
}

int mg_doc_pos(const mcoll *c, int64_t rid, int *found)
{
    int lo = 0, hi = c->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->docs[mid].rid < rid) lo = mid + 1;
        else hi = mid;
    }
    *found = lo < c->n && c->docs[lo].rid == rid;
    return lo;
}

static void put_doc(mcoll *c, int64_t rid, ddoc *d)
{
    int found;
    int i = mg_doc_pos(c, rid, &found);
    if (found) {
        doc_free(c->docs[i].d);
        c->docs[i].d = d;
        return;
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->docs = xrealloc(c->docs, (size_t)c->cap * sizeof *c->docs);
    }
    memmove(&c->docs[i + 1], &c->docs[i], (size_t)(c->n - i) * sizeof *c->docs);
    c->docs[i] = (mdoc){ rid, d };
    c->n++;
}

int64_t mg_coll_insert(mgserver *s, mcoll *c, ddoc *d)
{
    int64_t rid = s->db->next_rid++;
    put_doc(c, rid, d);
    mg_report_coll(s, c, rid, 0);
    return rid;
}

void mg_coll_replace(mgserver *s, mcoll *c, int i, ddoc *d)
{
    doc_free(c->docs[i].d);
    c->docs[i].d = d;
    mg_report_coll(s, c, c->docs[i].rid, 0);
}

void mg_coll_remove(mgserver *s, mcoll *c, int i, int how)
{
    int64_t rid = c->docs[i].rid;
    doc_free(c->docs[i].d);
    memmove(&c->docs[i], &c->docs[i + 1], (size_t)(c->n - i - 1) * sizeof *c->docs);
    c->n--;
    mg_report_coll(s, c, rid, how);
}

/* ---- the server ---- */

mgserver *mg_new(mg_changed_fn changed, void *ud, int64_t start, int64_t ttl_monitor_ms, int64_t first_ms)
{
    mgserver *s = xcalloc(1, sizeof *s);
    s->db = xcalloc(1, sizeof *s->db);
    s->db->next_rid = s->db->next_id = 1;
    s->changed = changed;
    s->ud = ud;
    s->start = start;
    s->period = ttl_monitor_ms > 0 ? ttl_monitor_ms : 60000;
    s->next_pass = start + (first_ms > 0 ? first_ms : s->period);
    return s;
}

void mg_db_free(mgdb *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) coll_free(d->colls[i]);
    free(d->colls);
    free(d);
}

void mg_free(mgserver *s)
{
    if (!s) return;
    mg_db_free(s->db);
    free(s);
}

void mg_set_secondary(mgserver *s, int secondary)
{
    s->secondary = secondary;
}

void mg_reply_release(mgreply *r)
{
    dval_release(&r->doc);
    r->error = 0;
}

/* ---- the TTL monitor ---- */

/* Whether some document of c has a date in a TTL index's field: something to judge. */
static int has_ttl_work(const mcoll *c)
{
    for (int t = 0; t < c->nttl; t++)
        for (int i = 0; i < c->n; i++) {
            const dval *v = doc_get(c->docs[i].d, c->ttl[t].field);
            if (v && v->t == D_DATE) return 1;
        }
    return 0;
}

/* Passes that came and went with nothing to judge: the monitor woke and slept again. */
static void skip_passes(mgserver *s, int64_t steady, int inclusive)
{
    while (s->next_pass < steady || (inclusive && s->next_pass == steady)) s->next_pass += s->period;
}

int64_t mg_next_pass(mgserver *s, int64_t steady)
{
    int work = 0;
    for (int i = 0; i < s->db->n && !work; i++) work = has_ttl_work(s->db->colls[i]);
    if (!work || s->secondary) {
        s->idle = 1; /* no pass is asked for: those that come meanwhile find nothing */
        return INT64_MAX;
    }
    if (s->idle) skip_passes(s, steady, 0);
    s->idle = 0;
    return s->next_pass;
}

void mg_ttl_pass(mgserver *s, int64_t now, int64_t steady)
{
    if (s->secondary || steady < s->next_pass) return;
    for (int ci = 0; ci < s->db->n; ci++) {
        mcoll *c = s->db->colls[ci];
        for (int i = 0; i < c->n;) {
            int expired = 0;
            for (int t = 0; t < c->nttl && !expired; t++) {
                const dval *v = doc_get(c->docs[i].d, c->ttl[t].field);
                expired = v && v->t == D_DATE && v->i + c->ttl[t].after_ms <= now;
            }
            if (expired) mg_coll_remove(s, c, i, 2);
            else i++;
        }
    }
    /* the next pass: a period after this one, on the monitor's rhythm */
    skip_passes(s, steady, 1);
}

/* ---- data: units, copies, the dump ---- */

mgdb *mg_db_clone(const mgdb *d)
{
    mgdb *c = xcalloc(1, sizeof *c);
    c->next_rid = d->next_rid;
    c->next_id = d->next_id;
    c->n = d->n;
    c->colls = xcalloc((size_t)d->n + 1, sizeof *c->colls);
    for (int i = 0; i < d->n; i++) c->colls[i] = coll_clone(d->colls[i], 1);
    return c;
}

const mgdb *mg_db(const mgserver *s)
{
    return s->db;
}

void mg_set_db(mgserver *s, mgdb *d)
{
    mg_db_free(s->db);
    s->db = d;
}

static void print_doc(const ddoc *d, buf *out)
{
    dval v = { .t = D_DOC, .d = (ddoc *)d };
    doc_print(&v, out);
}

static void print_indexes(const mcoll *c, buf *out)
{
    buf_puts(out, "indexes [_id_");
    for (int t = 0; t < c->nttl; t++)
        buf_printf(out, ", %s {%s: 1} expireAfterSeconds %lld", c->ttl[t].name, c->ttl[t].field,
                   (long long)(c->ttl[t].after_ms / 1000));
    buf_putc(out, ']');
}

static mcoll *unit_of(mgserver *s, slice unit, int64_t *rid)
{
    size_t n = unit.len;
    *rid = 0;
    for (size_t i = unit.len; i > 0; i--)
        if (unit.p[i - 1] == '/') {
            n = i - 1;
            *rid = strtoll(unit.p + i, NULL, 10);
            break;
        }
    char *name = xmemdup(unit.p, n);
    mcoll *c = mg_coll_find(s->db, name);
    free(name);
    return c;
}

/* The earliest time a TTL index would let d expire (-1: never), for the history. */
static int64_t doc_deadline(const mcoll *c, const ddoc *d)
{
    int64_t best = -1;
    for (int t = 0; t < c->nttl; t++) {
        const dval *v = doc_get(d, c->ttl[t].field);
        if (v && v->t == D_DATE && (best < 0 || v->i + c->ttl[t].after_ms < best)) best = v->i + c->ttl[t].after_ms;
    }
    return best;
}

int mg_describe(mgserver *s, slice unit, buf *out, int64_t *deadline)
{
    int64_t rid;
    mcoll *c = unit_of(s, unit, &rid);
    *deadline = -1;
    if (!c) return 0;
    if (!rid) {
        if (out) print_indexes(c, out);
        return 1;
    }
    int found;
    int i = mg_doc_pos(c, rid, &found);
    if (!found) return 0;
    if (out) print_doc(c->docs[i].d, out);
    *deadline = doc_deadline(c, c->docs[i].d);
    return 1;
}

mgchange *mg_capture(mgserver *s, slice unit, int deleted)
{
    int64_t rid;
    mcoll *c = unit_of(s, unit, &rid);
    mgchange *ch = xcalloc(1, sizeof *ch);
    ch->deleted = deleted;
    if (!c) {
        ch->deleted = 1;
        ch->def = xcalloc(1, sizeof *ch->def);
        ch->def->name = xmemdup(unit.p, unit.len);
        return ch;
    }
    ch->def = coll_clone(c, 0);
    ch->rid = rid;
    int found = 0;
    int i = rid ? mg_doc_pos(c, rid, &found) : 0;
    if (rid && !found) ch->deleted = 1;
    if (rid && found && !deleted) ch->d = doc_clone(c->docs[i].d);
    return ch;
}

void mg_apply(mgserver *s, const mgchange *ch)
{
    mcoll *c = mg_coll_find(s->db, ch->def->name);
    if (!ch->rid) {
        if (ch->deleted) {
            if (c) mg_coll_drop(s, ch->def->name);
            return;
        }
        /* a new collection, or new indexes on one: its documents stay */
        mcoll *def = coll_clone(ch->def, 0);
        if (c) {
            def->n = c->n;
            def->cap = c->cap;
            def->docs = c->docs;
            c->n = c->cap = 0;
            c->docs = NULL;
        }
        coll_put(s->db, def);
        mg_report_coll(s, ch->def, 0, 0);
        return;
    }
    if (!c) {
        c = coll_clone(ch->def, 0);
        coll_put(s->db, c);
    }
    if (ch->rid >= s->db->next_rid) s->db->next_rid = ch->rid + 1;
    int found;
    int i = mg_doc_pos(c, ch->rid, &found);
    if (ch->deleted) {
        if (found) mg_coll_remove(s, c, i, 1);
        return;
    }
    put_doc(c, ch->rid, doc_clone(ch->d));
    mg_report_coll(s, c, ch->rid, 0);
}

void mg_change_free(mgchange *ch)
{
    if (!ch) return;
    doc_free(ch->d);
    coll_free(ch->def);
    free(ch);
}

void mg_dump(mgserver *s, buf *out)
{
    for (int i = 0; i < s->db->n; i++) {
        const mcoll *c = s->db->colls[i];
        buf_printf(out, "collection %s ", c->name);
        print_indexes(c, out);
        buf_putc(out, '\n');
        for (int j = 0; j < c->n; j++) {
            buf_printf(out, "doc %s/%lld ", c->name, (long long)c->docs[j].rid);
            print_doc(c->docs[j].d, out);
            buf_putc(out, '\n');
        }
    }
}
