/* server_tx.c — transactions (MULTI, EXEC, DISCARD, WATCH, UNWATCH; Redis 7.0's multi.c),
 * which wrap the command path (server.c): after MULTI a connection's commands are checked as
 * usual and queued (+QUEUED); a check that fails (unknown name, arity, a gate) replies its
 * error and marks the transaction, whose EXEC then answers EXECABORT; EXEC runs the queue in
 * one go, each command's reply (errors included) one element of its array. WATCH remembers
 * keys; any write, deletion or expiry of one of them (by anyone: the store's watch hook,
 * store.h), a FLUSHALL/FLUSHDB while it exists, or its deadline passing before EXEC, makes
 * EXEC answer a null array. A connection's transaction is kept here by its id, not on the
 * connection, so that a caller that drops a connection without telling the server leaves
 * nothing dangling (server_conn_closed frees it early). The store's watch hook also gathers
 * the keys a command wrote for keyspace notifications (notify.c). */
#include <stdlib.h>
#include <string.h>

#include "serverint.h"
#include "tracking.h"

txstate *tx_find(server *srv, int conn_id)
{
    for (size_t i = 0; i < srv->ntx; i++)
        if (srv->tx[i]->conn_id == conn_id) return srv->tx[i];
    return NULL;
}

static txstate *tx_get(server *srv, int conn_id)
{
    txstate *t = tx_find(srv, conn_id);
    if (t) return t;
    t = xcalloc(1, sizeof *t);
    t->conn_id = conn_id;
    if (srv->ntx == srv->captx) {
        srv->captx = srv->captx ? srv->captx * 2 : 4;
        srv->tx = xrealloc(srv->tx, srv->captx * sizeof *srv->tx);
    }
    srv->tx[srv->ntx++] = t;
    return t;
}

static void tx_clear_queue(txstate *t)
{
    for (size_t i = 0; i < t->nqueue; i++) {
        for (int j = 0; j < t->queue[i].argc; j++) free((char *)t->queue[i].argv[j].p);
        free(t->queue[i].argv);
    }
    t->nqueue = 0;
    t->in_multi = t->abort = 0;
}

static void tx_unwatch(server *srv, txstate *t)
{
    if (t->nkeys) srv->nwatching--;
    for (size_t k = 0; k < t->nkeys; k++) free(t->keys[k].key);
    t->nkeys = 0;
    t->dirty = 0;
}

void tx_free(txstate *t)
{
    tx_clear_queue(t);
    free(t->queue);
    for (size_t k = 0; k < t->nkeys; k++) free(t->keys[k].key);
    free(t->keys);
    free(t);
}

/* Forgets t when it holds nothing any more (not in MULTI, no keys). */
static void tx_drop_if_idle(server *srv, txstate *t)
{
    if (t->in_multi || t->nkeys) return;
    for (size_t i = 0; i < srv->ntx; i++)
        if (srv->tx[i] == t) {
            srv->tx[i] = srv->tx[--srv->ntx];
            break;
        }
    tx_free(t);
    tx_watch_hook_update(srv);
}

static void watch_event(void *ud, store_event ev, slice key)
{
    const struct dbhook *h = ud;
    server *srv = h->srv;
    tracking_key_changed(srv->trk, key, ev == STORE_EXPIRED); /* client tracking's invalidations */
    if (srv->notify) {
        if (ev == STORE_EXPIRED) {
            notify_publish(srv, h->id, NOTIFY_EXPIRED, "expired", key);
        } else {
            size_t i = 0;
            while (i < srv->npending && !(srv->pending[i].db == h->id && srv->pending[i].len == key.len &&
                                          memcmp(srv->pending[i].key, key.p, key.len) == 0))
                i++;
            if (i == srv->npending) {
                if (srv->npending == srv->cappending) {
                    srv->cappending = srv->cappending ? 2 * srv->cappending : 8;
                    srv->pending = xrealloc(srv->pending, srv->cappending * sizeof *srv->pending);
                }
                srv->pending[srv->npending++] = (struct pending_key){ h->id, 0, xmemdup(key.p, key.len), key.len, 0 };
            }
            srv->pending[i].deleted = ev == STORE_DELETED; /* the key's last state counts */
            if (ev == STORE_ADDED) srv->pending[i].added = 1; /* the class n's "new" */
        }
    }
    if (!srv->nwatching) return;
    for (size_t i = 0; i < srv->ntx; i++) {
        txstate *t = srv->tx[i];
        for (size_t k = 0; k < t->nkeys && !t->dirty; k++)
            if (t->keys[k].db == h->id && t->keys[k].len == key.len && memcmp(t->keys[k].key, key.p, key.len) == 0)
                t->dirty = 1;
    }
}

void tx_watch_hook_update(server *srv)
{
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i])
            store_set_watch(srv->dbs.db[i], srv->nwatching || srv->notify || tracking_active(srv->trk) ? watch_event : NULL, &srv->dbs.hook[i]);
}

int server_conn_multi(const server *srv, int conn_id)
{
    for (size_t i = 0; i < srv->ntx; i++)
        if (srv->tx[i]->conn_id == conn_id) return srv->tx[i]->in_multi ? (int)srv->tx[i]->nqueue : -1;
    return -1;
}

void server_conn_closed(server *srv, int conn_id)
{
    if (srv->names) server_conn_setname(srv, conn_id, "", 0);
    tracking_conn_closed(srv->trk, conn_id);
    txstate *t = tx_find(srv, conn_id);
    if (!t) return;
    tx_unwatch(srv, t);
    tx_clear_queue(t);
    tx_drop_if_idle(srv, t);
}

/* Ends t's transaction and its watches (EXEC, DISCARD, EXECABORT). */
static void tx_end(server *srv, txstate *t)
{
    tx_clear_queue(t);
    tx_unwatch(srv, t);
    tx_drop_if_idle(srv, t);
}

static void tx_watch(server *srv, txstate *t, int dbid, int argc, const slice *argv)
{
    if (!t->nkeys && argc > 1) srv->nwatching++;
    for (int i = 1; i < argc; i++) {
        size_t k;
        for (k = 0; k < t->nkeys; k++)
            if (t->keys[k].db == dbid && slice_eq((slice){ t->keys[k].key, t->keys[k].len }, argv[i])) break;
        if (k < t->nkeys) continue;
        if (t->nkeys == t->capkeys) {
            t->capkeys = t->capkeys ? t->capkeys * 2 : 4;
            t->keys = xrealloc(t->keys, t->capkeys * sizeof *t->keys);
        }
        /* The lookup first: a key found expired is deleted now (lazy expiry), before it is
         * watched, so that deletion changes nothing (Redis 7.0 watches it as "expired"). */
        int present = store_lookup(dbset_get(&srv->dbs, dbid), argv[i]) != NULL;
        t->keys[t->nkeys++] = (watched){ xmemdup(argv[i].p, argv[i].len), argv[i].len, present, dbid };
    }
    tx_watch_hook_update(srv);
}

/* Whether a watched key changed: an event said so, or a key present at WATCH is gone (its
 * deadline passed; on a master the lookup deletes it, as EXEC's own commands would). */
static int tx_watch_failed(server *srv, txstate *t)
{
    for (size_t k = 0; k < t->nkeys && !t->dirty; k++)
        if (t->keys[k].present && !store_lookup(dbset_get(&srv->dbs, t->keys[k].db), (slice){ t->keys[k].key, t->keys[k].len }))
            t->dirty = 1;
    return t->dirty;
}

/* FLUSHALL / FLUSHDB report no events: they touch the watched keys that exist (in every
 * database, or in database `only`). */
void tx_flush_touch_watched(server *srv, int only)
{
    for (size_t i = 0; i < srv->ntx; i++) {
        txstate *t = srv->tx[i];
        for (size_t k = 0; k < t->nkeys; k++) {
            store *db = srv->dbs.db[t->keys[k].db];
            if ((only < 0 || t->keys[k].db == only) && db &&
                store_lookup(db, (slice){ t->keys[k].key, t->keys[k].len }))
                t->dirty = 1;
        }
    }
}

void tx_queue(txstate *t, int argc, const slice *argv)
{
    if (t->nqueue == t->capqueue) {
        t->capqueue = t->capqueue ? t->capqueue * 2 : 8;
        t->queue = xrealloc(t->queue, t->capqueue * sizeof *t->queue);
    }
    slice *v = xmalloc((size_t)argc * sizeof *v);
    for (int i = 0; i < argc; i++) v[i] = (slice){ xmemdup(argv[i].p, argv[i].len), argv[i].len };
    t->queue[t->nqueue++] = (struct queued){ argc, v };
}

/* The table's handlers for the five: server_exec runs them itself (tx_command), and scripts
 * refuse them (NOSCRIPT), so these only stand in. */
static void tx_handler(cmdctx *c)
{
    reply_error(c->out, "ERR transaction commands are run by the server");
}

void cmd_multi(cmdctx *c) { tx_handler(c); }
void cmd_exec(cmdctx *c) { tx_handler(c); }
void cmd_discard(cmdctx *c) { tx_handler(c); }
void cmd_watch(cmdctx *c) { tx_handler(c); }
void cmd_unwatch(cmdctx *c) { tx_handler(c); }

/* EXEC: Redis 7.0's execCommand. */
static void exec_command(server *srv, conn *c, txstate *t, reply *out)
{
    if (!t || !t->in_multi) {
        reply_error(out, "ERR EXEC without MULTI");
        return;
    }
    if (t->abort) {
        reply_error(out, "EXECABORT Transaction discarded because of previous errors.");
        tx_end(srv, t);
        return;
    }
    if (tx_watch_failed(srv, t)) {
        reply_nil_array(out);
        tx_end(srv, t);
        return;
    }
    /* Unwatch first (as Redis does): the transaction's own writes change nothing for it. */
    tx_unwatch(srv, t);
    tx_watch_hook_update(srv);
    size_t n = t->nqueue;
    struct queued *q = t->queue;
    t->queue = NULL;
    t->nqueue = t->capqueue = 0;
    t->in_multi = 0;
    tx_drop_if_idle(srv, t);
    reply *r = reply_array(out, n);
    int may_block = c ? c->may_block : 0; /* nothing blocks inside EXEC */
    if (c) c->may_block = 0;
    for (size_t i = 0; i < n; i++) {
        const command *cmd = commands_lookup(q[i].argv[0]);
        if (server_check_command(srv, c, cmd, q[i].argc, q[i].argv, &r[i]) == 0)
            server_run_command(srv, c, cmd, q[i].argc, q[i].argv, &r[i]);
        for (int j = 0; j < q[i].argc; j++) free((char *)q[i].argv[j].p);
        free(q[i].argv);
    }
    if (c) c->may_block = may_block;
    free(q);
}

/* MULTI, EXEC, DISCARD, WATCH, UNWATCH: they need the server, not only a handler's context. */
void tx_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out)
{
    int id = c ? c->id : 0;
    txstate *t = srv->ntx ? tx_find(srv, id) : NULL;
    if (cmd->fn == cmd_multi) {
        if (t && t->in_multi) {
            reply_error(out, "ERR MULTI calls can not be nested");
            return;
        }
        tx_get(srv, id)->in_multi = 1;
        reply_ok(out);
    } else if (cmd->fn == cmd_exec) {
        exec_command(srv, c, t, out);
    } else if (cmd->fn == cmd_discard) {
        if (!t || !t->in_multi) {
            reply_error(out, "ERR DISCARD without MULTI");
            return;
        }
        tx_end(srv, t);
        reply_ok(out);
    } else if (cmd->fn == cmd_watch) {
        if (t && t->in_multi) {
            reply_error(out, "ERR WATCH inside MULTI is not allowed");
            return;
        }
        t = tx_get(srv, id);
        tx_watch(srv, t, c ? c->db : 0, argc, argv);
        tx_drop_if_idle(srv, t);
        reply_ok(out);
    } else { /* UNWATCH */
        if (t) {
            tx_unwatch(srv, t);
            tx_drop_if_idle(srv, t);
            tx_watch_hook_update(srv);
        }
        reply_ok(out);
    }
}

/* A command refused (its error in out; Redis 7.0's rejectCommand, flagTransaction): a
 * refused EXEC answers EXECABORT, in MULTI or not, and ends the transaction; any other
 * refusal in MULTI marks it. */
void tx_reject_command(server *srv, conn *c, const command *cmd, txstate *t, reply *out)
{
    int in_multi = t && t->in_multi;
    if (cmd && cmd->fn == cmd_exec) {
        const char *msg = out->str && strncmp(out->str, "ERR ", 4) == 0 ? out->str + 4 : out->str;
        char *why = xstrdup(msg ? msg : "");
        reply_errorf(out, "EXECABORT Transaction discarded because of: %s", why);
        free(why);
        if (in_multi) tx_end(srv, t);
    } else if (in_multi) {
        t->abort = 1;
    }
    (void)c;
}

void server_reject(server *srv, conn *c, int argc, const slice *argv, const char *err, reply *out)
{
    reply_release(out);
    LL_ASSERT(argc >= 1);
    reply_error(out, err);
    tx_reject_command(srv, c, commands_lookup(argv[0]), srv->ntx ? tx_find(srv, c ? c->id : 0) : NULL, out);
}
