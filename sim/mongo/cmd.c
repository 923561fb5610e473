/* cmd.c — the fake MongoDB's commands (insert, find, findAndModify, delete, createIndexes,
 * drop) over mongo.c's collections, each atomic, with the response documents and error
 * codes the manual gives (the semantics and their sources are in mongo.c's header). */
#include "mongoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- replies ---- */

void mg_reply_error(mgreply *r, int code, const char *code_name, const char *msg)
{
    memset(r, 0, sizeof *r);
    r->doc = dv_doc(doc_new());
    doc_put(r->doc.d, "ok", dv_int(0));
    doc_put(r->doc.d, "errmsg", dv_str(msg));
    doc_put(r->doc.d, "code", dv_int(code));
    doc_put(r->doc.d, "codeName", dv_str(code_name));
    r->error = 1;
}

static ddoc *reply_doc(mgreply *r)
{
    memset(r, 0, sizeof *r);
    r->doc = dv_doc(doc_new());
    return r->doc.d;
}

static void finish_ok(mgreply *r)
{
    doc_put(r->doc.d, "ok", dv_int(1));
}

static void fail(mgreply *r, int code, const char *name, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void fail(mgreply *r, int code, const char *name, const char *fmt, ...)
{
    dval_release(&r->doc);
    ddoc *d = reply_doc(r);
    va_list ap;
    va_start(ap, fmt);
    char *msg = xvformat(fmt, ap);
    va_end(ap);
    doc_put(d, "ok", dv_int(0));
    doc_put(d, "errmsg", dv_str(msg));
    doc_put(d, "code", dv_int(code));
    doc_put(d, "codeName", dv_str(name));
    free(msg);
    r->error = 1;
}

/* The duplicate key error's text, then (with_code) its code and code name, then its
 * keyPattern and keyValue fields, into d. */
static void dup_key(ddoc *d, const char *coll, const dval *id, int with_code)
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "E11000 duplicate key error collection: " DB ".%s index: _id_ dup key: { _id: ", coll);
    doc_print(id, &b);
    buf_puts(&b, " }");
    doc_put(d, "errmsg", dv_str(b.p));
    buf_release(&b);
    if (with_code) {
        doc_put(d, "code", dv_int(11000));
        doc_put(d, "codeName", dv_str("DuplicateKey"));
    }
    ddoc *kp = doc_new(), *kv = doc_new();
    doc_put(kp, "_id", dv_int(1));
    dval idc;
    dval_copy(&idc, id);
    doc_put(kv, "_id", idc);
    doc_put(d, "keyPattern", dv_doc(kp));
    doc_put(d, "keyValue", dv_doc(kv));
}

static void fail_dup(mgreply *r, const char *coll, const dval *id)
{
    dval_release(&r->doc);
    ddoc *d = reply_doc(r);
    doc_put(d, "ok", dv_int(0));
    dup_key(d, coll, id, 1);
    r->error = 1;
}

/* ---- queries ---- */

static int is_op_doc(const dval *v)
{
    return v->t == D_DOC && v->d->n > 0 && v->d->f[0].name[0] == '$';
}

static int same_type(const dval *a, const dval *b)
{
    return a->t == b->t || (a->t == D_NULL && b->t == D_NULL);
}

/* Whether doc matches q; -1 with the error on an unknown operator. */
static int matches(const ddoc *doc, const ddoc *q, mgreply *r)
{
    static const dval null_v = { .t = D_NULL };
    for (int i = 0; q && i < q->n; i++) {
        const char *name = q->f[i].name;
        const dval *want = &q->f[i].v;
        if (name[0] == '$') {
            fail(r, 2, "BadValue", "unknown top level operator: %s", name);
            return -1;
        }
        const dval *have = doc_get(doc, name);
        if (!is_op_doc(want)) {
            if (dval_cmp(have ? have : &null_v, want) != 0) return 0;
            continue;
        }
        int all = 1;
        for (int j = 0; j < want->d->n; j++) {
            const char *op = want->d->f[j].name;
            const dval *arg = &want->d->f[j].v;
            const dval *h = have ? have : &null_v;
            int ok;
            if (!strcmp(op, "$eq")) ok = dval_cmp(h, arg) == 0;
            else if (!strcmp(op, "$ne")) ok = dval_cmp(h, arg) != 0;
            else if (!strcmp(op, "$exists")) ok = (have != NULL) == !(arg->t == D_BOOL || arg->t == D_INT ? arg->i == 0 : arg->t == D_NULL);
            else if (!strcmp(op, "$lt")) ok = have && same_type(h, arg) && dval_cmp(h, arg) < 0;
            else if (!strcmp(op, "$lte")) ok = have && same_type(h, arg) && dval_cmp(h, arg) <= 0;
            else if (!strcmp(op, "$gt")) ok = have && same_type(h, arg) && dval_cmp(h, arg) > 0;
            else if (!strcmp(op, "$gte")) ok = have && same_type(h, arg) && dval_cmp(h, arg) >= 0;
            else {
                fail(r, 2, "BadValue", "unknown operator: %s", op);
                return -1;
            }
            all &= ok;
        }
        if (!all) return 0;
    }
    return 1;
}

/* Checks a filter's operators before it runs, as the server parses it first. */
static int valid_query(const ddoc *q, mgreply *r)
{
    static const ddoc empty = { 0, 0, NULL };
    for (int i = 0; q && i < q->n; i++) {
        ddoc probe = empty;
        ddoc one = { 1, 1, &q->f[i] };
        if (matches(&probe, &one, r) < 0) return -1;
    }
    return 0;
}

/* The first document of c matching q (index), -1 none, -2 error. */
static int find_first(mcoll *c, const ddoc *q, mgreply *r)
{
    for (int i = 0; c && i < c->n; i++) {
        int m = matches(c->docs[i].d, q, r);
        if (m < 0) return -2;
        if (m) return i;
    }
    return -1;
}

static int id_taken(const mcoll *c, const dval *id)
{
    for (int i = 0; c && i < c->n; i++) {
        const dval *v = doc_get(c->docs[i].d, "_id");
        if (v && dval_cmp(v, id) == 0) return 1;
    }
    return 0;
}

/* Puts _id first, making one if there is none (an integer: ObjectIds are not modelled). */
static void ensure_id(mgserver *s, ddoc *d)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->f[i].name, "_id")) {
            dfield f = d->f[i];
            memmove(&d->f[1], &d->f[0], (size_t)i * sizeof f);
            d->f[0] = f;
            return;
        }
    doc_put(d, "_id", dv_int(s->db->next_id++));
    dfield f = d->f[d->n - 1];
    memmove(&d->f[1], &d->f[0], (size_t)(d->n - 1) * sizeof f);
    d->f[0] = f;
}

/* Applies update u to d (inserting: an upsert's new document). 0, or -1 with the error. */
static int apply_update(ddoc *d, const ddoc *u, int inserting, mgreply *r)
{
    const dval *id = doc_get(d, "_id");
    if (u->n == 0 || u->f[0].name[0] != '$') {
        /* a replacement document: everything but _id */
        const dval *nid = doc_get(u, "_id");
        if (nid && id && dval_cmp(nid, id) != 0) {
            fail(r, 66, "ImmutableField", "After applying the update, the (immutable) field '_id' was found to have "
                                          "been altered to _id: %s", nid->t == D_STR ? nid->s : "...");
            return -1;
        }
        for (int i = d->n - 1; i >= 0; i--)
            if (strcmp(d->f[i].name, "_id") != 0) doc_unset(d, d->f[i].name);
        for (int i = 0; i < u->n; i++)
            if (strcmp(u->f[i].name, "_id") != 0 || !id) doc_set(d, u->f[i].name, &u->f[i].v);
        return 0;
    }
    for (int i = 0; i < u->n; i++) {
        const char *op = u->f[i].name;
        const dval *arg = &u->f[i].v;
        int set = !strcmp(op, "$set"), soi = !strcmp(op, "$setOnInsert"), uns = !strcmp(op, "$unset");
        if (!set && !soi && !uns) {
            fail(r, 9, "FailedToParse", "Unknown modifier: %s. Expected a valid update modifier or pipeline-style "
                                        "update specified as an array", op);
            return -1;
        }
        if (arg->t != D_DOC) {
            fail(r, 9, "FailedToParse", "Modifiers operate on fields but we found type %s instead.",
                 arg->t == D_STR ? "string" : "a non-document");
            return -1;
        }
        if (soi && !inserting) continue;
        for (int j = 0; j < arg->d->n; j++) {
            const char *f = arg->d->f[j].name;
            if (!strcmp(f, "_id") && id && (uns || dval_cmp(&arg->d->f[j].v, id) != 0)) {
                fail(r, 66, "ImmutableField", "Performing an update on the path '_id' would modify the immutable "
                                              "field '_id'");
                return -1;
            }
            if (uns) doc_unset(d, f);
            else doc_set(d, f, &arg->d->f[j].v);
        }
    }
    return 0;
}

/* ---- commands ---- */

static mcoll *coll_for_write(mgserver *s, const char *name)
{
    mcoll *c = mg_coll_find(s->db, name);
    return c ? c : mg_coll_create(s, name, 1);
}

static const ddoc *doc_arg(const ddoc *cmd, const char *name, mgreply *r, int required)
{
    const dval *v = doc_get(cmd, name);
    if (!v) {
        if (required) fail(r, 40414, "Location40414", "BSON field '%s' is missing but a required field", name);
        return NULL;
    }
    if (v->t != D_DOC) {
        fail(r, 14, "TypeMismatch", "BSON field '%s' is the wrong type, expected type 'object'", name);
        return NULL;
    }
    return v->d;
}

static int flag(const ddoc *cmd, const char *name)
{
    const dval *v = doc_get(cmd, name);
    return v && (v->t == D_BOOL || v->t == D_INT) && v->i != 0;
}

static void cmd_insert(mgserver *s, const char *coll, const ddoc *cmd, mgreply *r)
{
    const dval *docs = doc_get(cmd, "documents");
    if (!docs || docs->t != D_ARRAY) {
        fail(r, 40414, "Location40414", "BSON field 'insert.documents' is missing but a required field");
        return;
    }
    const dval *ordered = doc_get(cmd, "ordered");
    int stop_on_error = !ordered || ordered->t != D_BOOL || ordered->i;
    ddoc *out = reply_doc(r);
    ddoc *errors = NULL;
    int64_t n = 0;
    mcoll *c = NULL;
    for (int i = 0; i < docs->d->n; i++) {
        const dval *dv = &docs->d->f[i].v;
        if (dv->t != D_DOC) continue;
        ddoc *d = doc_clone(dv->d);
        ensure_id(s, d);
        if (!c) c = coll_for_write(s, coll);
        if (id_taken(c, doc_get(d, "_id"))) {
            if (!errors) errors = doc_new();
            ddoc *e = doc_new();
            doc_put(e, "index", dv_int(i));
            doc_put(e, "code", dv_int(11000));
            dup_key(e, coll, doc_get(d, "_id"), 0);
            doc_put(errors, "", dv_doc(e));
            doc_free(d);
            if (stop_on_error) break;
            continue;
        }
        mg_coll_insert(s, c, d);
        n++;
    }
    doc_put(out, "n", dv_int(n));
    if (errors) {
        for (int i = 0; i < errors->n; i++) {
            free(errors->f[i].name);
            char idx[24];
            snprintf(idx, sizeof idx, "%d", i);
            errors->f[i].name = xstrdup(idx);
        }
        doc_put(out, "writeErrors", dv_array(errors));
        r->error = 1;
    }
    finish_ok(r);
}

static void cmd_find(mgserver *s, const char *coll, const ddoc *cmd, mgreply *r)
{
    const ddoc *q = doc_arg(cmd, "filter", r, 0);
    if (r->error || valid_query(q, r)) return;
    mcoll *c = mg_coll_find(s->db, coll);
    ddoc *batch = doc_new();
    for (int i = 0; c && i < c->n; i++) {
        int m = matches(c->docs[i].d, q, r);
        if (m < 0) {
            doc_free(batch);
            return;
        }
        if (m) {
            char idx[24];
            snprintf(idx, sizeof idx, "%d", batch->n);
            doc_put(batch, idx, dv_doc(doc_clone(c->docs[i].d)));
        }
    }
    ddoc *out = reply_doc(r);
    ddoc *cur = doc_new();
    doc_put(cur, "firstBatch", dv_array(batch));
    doc_put(cur, "id", dv_int(0));
    buf ns;
    buf_init(&ns);
    buf_printf(&ns, DB ".%s", coll);
    doc_put(cur, "ns", dv_str(ns.p));
    buf_release(&ns);
    doc_put(out, "cursor", dv_doc(cur));
    finish_ok(r);
}

static void cmd_find_and_modify(mgserver *s, const char *coll, const ddoc *cmd, mgreply *r)
{
    const ddoc *q = doc_arg(cmd, "query", r, 0);
    if (r->error || valid_query(q, r)) return;
    const ddoc *u = doc_arg(cmd, "update", r, 0);
    if (r->error) return;
    int remove = flag(cmd, "remove"), upsert = flag(cmd, "upsert"), want_new = flag(cmd, "new");
    if (!u == !remove) {
        fail(r, 9, "FailedToParse", "Either an update or remove=true must be specified");
        return;
    }
    if (remove && (upsert || want_new)) {
        fail(r, 9, "FailedToParse", "Cannot specify both an update and remove=true");
        return;
    }
    mcoll *c = mg_coll_find(s->db, coll);
    int i = find_first(c, q, r);
    if (i == -2) return;
    ddoc *leo = doc_new();
    dval value = { .t = D_NULL };
    if (i >= 0 && remove) {
        value = dv_doc(doc_clone(c->docs[i].d));
        mg_coll_remove(s, c, i, 1);
        doc_put(leo, "n", dv_int(1));
    } else if (i >= 0) {
        ddoc *d = doc_clone(c->docs[i].d);
        if (apply_update(d, u, 0, r) != 0) {
            doc_free(d);
            doc_free(leo);
            return;
        }
        if (!want_new) value = dv_doc(doc_clone(c->docs[i].d));
        int changed = dval_cmp(&(dval){ .t = D_DOC, .d = d }, &(dval){ .t = D_DOC, .d = c->docs[i].d }) != 0;
        if (want_new) value = dv_doc(doc_clone(d));
        if (changed) mg_coll_replace(s, c, i, d);
        else doc_free(d);
        doc_put(leo, "n", dv_int(1));
        doc_put(leo, "updatedExisting", dv_bool(1));
    } else if (upsert) {
        ddoc *d = doc_new();
        for (int k = 0; q && k < q->n; k++)
            if (!is_op_doc(&q->f[k].v)) doc_set(d, q->f[k].name, &q->f[k].v);
        if (apply_update(d, u, 1, r) != 0) {
            doc_free(d);
            doc_free(leo);
            return;
        }
        ensure_id(s, d);
        c = mg_coll_find(s->db, coll);
        if (id_taken(c, doc_get(d, "_id"))) {
            fail_dup(r, coll, doc_get(d, "_id"));
            doc_free(d);
            doc_free(leo);
            return;
        }
        if (!c) c = mg_coll_create(s, coll, 1);
        dval id;
        dval_copy(&id, doc_get(d, "_id"));
        if (want_new) value = dv_doc(doc_clone(d));
        mg_coll_insert(s, c, d);
        doc_put(leo, "n", dv_int(1));
        doc_put(leo, "updatedExisting", dv_bool(0));
        doc_put(leo, "upserted", id);
    } else {
        doc_put(leo, "n", dv_int(0));
        if (!remove) doc_put(leo, "updatedExisting", dv_bool(0));
    }
    ddoc *out = reply_doc(r);
    doc_put(out, "lastErrorObject", dv_doc(leo));
    doc_put(out, "value", value);
    finish_ok(r);
}

static void cmd_delete(mgserver *s, const char *coll, const ddoc *cmd, mgreply *r)
{
    const dval *dels = doc_get(cmd, "deletes");
    if (!dels || dels->t != D_ARRAY) {
        fail(r, 40414, "Location40414", "BSON field 'delete.deletes' is missing but a required field");
        return;
    }
    mcoll *c = mg_coll_find(s->db, coll);
    int64_t n = 0;
    /* every statement's filter is checked before anything is deleted */
    for (int k = 0; k < dels->d->n; k++) {
        const dval *st = &dels->d->f[k].v;
        const dval *q = st->t == D_DOC ? doc_get(st->d, "q") : NULL;
        const dval *limit = st->t == D_DOC ? doc_get(st->d, "limit") : NULL;
        if (!q || q->t != D_DOC || !limit || limit->t != D_INT || (limit->i != 0 && limit->i != 1)) {
            fail(r, 9, "FailedToParse", "a delete statement is {q: <filter>, limit: 0 or 1}");
            return;
        }
        if (valid_query(q->d, r)) return;
    }
    for (int k = 0; k < dels->d->n && c; k++) {
        const ddoc *st = dels->d->f[k].v.d;
        const ddoc *q = doc_get(st, "q")->d;
        int64_t limit = doc_get(st, "limit")->i;
        for (int i = 0; i < c->n;) {
            if (matches(c->docs[i].d, q, r) == 1) {
                mg_coll_remove(s, c, i, 1);
                n++;
                if (limit == 1) break;
            } else {
                i++;
            }
        }
    }
    ddoc *out = reply_doc(r);
    doc_put(out, "n", dv_int(n));
    finish_ok(r);
}

static void cmd_create_indexes(mgserver *s, const char *coll, const ddoc *cmd, mgreply *r)
{
    const dval *ix = doc_get(cmd, "indexes");
    if (!ix || ix->t != D_ARRAY || ix->d->n == 0) {
        fail(r, 2, "BadValue", "Must specify at least one index.");
        return;
    }
    /* checked whole first */
    for (int k = 0; k < ix->d->n; k++) {
        const dval *spec = &ix->d->f[k].v;
        const dval *key = spec->t == D_DOC ? doc_get(spec->d, "key") : NULL;
        const dval *name = spec->t == D_DOC ? doc_get(spec->d, "name") : NULL;
        const dval *after = spec->t == D_DOC ? doc_get(spec->d, "expireAfterSeconds") : NULL;
        int id_index = key && key->t == D_DOC && key->d->n == 1 && !strcmp(key->d->f[0].name, "_id");
        if (!key || key->t != D_DOC || key->d->n != 1 || !name || name->t != D_STR) {
            fail(r, 9, "FailedToParse", "an index is {key: {field: 1}, name: \"...\"[, expireAfterSeconds: N]}");
            return;
        }
        if (!id_index && (!after || after->t != D_INT || after->i < 0)) {
            fail(r, 2, "BadValue", "locklab: only the _id index and TTL indexes (expireAfterSeconds) are modelled");
            return;
        }
    }
    mcoll *c = mg_coll_find(s->db, coll);
    int created = c == NULL;
    if (!c) c = mg_coll_create(s, coll, 0); /* reported below, with its indexes */
    int before = 1 + c->nttl;
    for (int k = 0; k < ix->d->n; k++) {
        const ddoc *spec = ix->d->f[k].v.d;
        const ddoc *key = doc_get(spec, "key")->d;
        if (!strcmp(key->f[0].name, "_id")) continue;
        const char *name = doc_get(spec, "name")->s;
        int dup = 0;
        for (int t = 0; t < c->nttl; t++) dup |= !strcmp(c->ttl[t].name, name);
        if (dup) continue;
        c->ttl = xrealloc(c->ttl, (size_t)(c->nttl + 1) * sizeof *c->ttl);
        c->ttl[c->nttl++] = (mttl){ xstrdup(key->f[0].name), xstrdup(name),
                                    doc_get(spec, "expireAfterSeconds")->i * 1000 };
    }
    if (created || 1 + c->nttl != before) mg_report_coll(s, c, 0, 0);
    ddoc *out = reply_doc(r);
    doc_put(out, "numIndexesBefore", dv_int(before));
    doc_put(out, "numIndexesAfter", dv_int(1 + c->nttl));
    if (1 + c->nttl == before) doc_put(out, "note", dv_str("all indexes already exist"));
    doc_put(out, "createdCollectionAutomatically", dv_bool(created));
    finish_ok(r);
}

static void cmd_drop(mgserver *s, const char *coll, mgreply *r)
{
    mcoll *c = mg_coll_find(s->db, coll);
    if (!c) {
        fail(r, 26, "NamespaceNotFound", "ns not found");
        return;
    }
    int n = 1 + c->nttl;
    mg_coll_drop(s, coll);
    ddoc *out = reply_doc(r);
    doc_put(out, "nIndexesWas", dv_int(n));
    buf ns;
    buf_init(&ns);
    buf_printf(&ns, DB ".%s", coll);
    doc_put(out, "ns", dv_str(ns.p));
    buf_release(&ns);
    finish_ok(r);
}

void mg_exec(mgserver *s, const char *json, size_t len, mgreply *r)
{
    memset(r, 0, sizeof *r);
    dval cmd;
    buf err;
    buf_init(&err);
    if (doc_parse(json, len, &cmd, &err) != 0) {
        fail(r, 9, "FailedToParse", "%s", err.p ? err.p : "bad request");
        buf_release(&err);
        return;
    }
    buf_release(&err);
    const ddoc *c = cmd.d;
    static const char *const names[] = { "insert", "find", "findAndModify", "delete", "createIndexes", "drop" };
    int which = -1;
    for (int i = 0; c->n && i < (int)LL_ARRAY_LEN(names); i++)
        if (!strcmp(c->f[0].name, names[i]) || (i == 2 && !strcmp(c->f[0].name, "findandmodify"))) which = i;
    const dval *wc = doc_get(c, "writeConcern");
    const dval *w = wc && wc->t == D_DOC ? doc_get(wc->d, "w") : NULL;
    if (which < 0) {
        fail(r, 59, "CommandNotFound", "no such command: '%s'", c->n ? c->f[0].name : "");
    } else if (c->f[0].v.t != D_STR) {
        fail(r, 73, "InvalidNamespace", "collection name has invalid type %s",
             c->f[0].v.t == D_INT ? "int" : "other than string");
    } else if (w && !(w->t == D_INT && w->i == 1) && !(w->t == D_STR && !strcmp(w->s, "majority"))) {
        fail(r, 2, "BadValue", "locklab: only writeConcern {w: 1} and {w: \"majority\"} are modelled");
    } else if (s->secondary && which != 1) {
        fail(r, 10107, "NotWritablePrimary", "not primary");
    } else if (s->secondary) {
        fail(r, 13435, "NotPrimaryNoSecondaryOk", "not primary and secondaryOk=false");
    } else {
        const char *coll = c->f[0].v.s;
        switch (which) {
        case 0: cmd_insert(s, coll, c, r); break;
        case 1: cmd_find(s, coll, c, r); break;
        case 2: cmd_find_and_modify(s, coll, c, r); break;
        case 3: cmd_delete(s, coll, c, r); break;
        case 4: cmd_create_indexes(s, coll, c, r); break;
        case 5: cmd_drop(s, coll, r); break;
        }
        /* the implicit default since 5.0 is w: "majority" (no arbiters here) */
        r->majority = which != 1 && !(w && w->t == D_INT);
    }
    dval_release(&cmd);
}
