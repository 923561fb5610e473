/* node.c — what makes a fake Redis server a node of the world: persistence across crashes,
 * asynchronous replication to replicas, and failover.
 *
 * Persistence. `none`: a crash loses the keyspace. `always`: every write is on disk before
 * its reply leaves, so a restart finds the keyspace as it was. `everysec`: a background fsync
 * once a second (of true time); a crash loses the writes since the last one.
 *
 * Replication is by effects, as Redis 7 replicates scripts: after a key changes on a master,
 * its new state (type, value, absolute deadline) or its deletion travels to each replica as
 * a message with the replication lag; the replica applies it on arrival. A replica never
 * expires keys itself; the master's expiry reaches it as a deletion.
 *
 * Failover. When a master with replicas has been down for down_after, its best replica (most
 * effects applied, then the first) is promoted; clients learn the new master after the
 * detection delay. The old master, when it comes back, is a replica of the new one and
 * resynchronises in full, discarding its own data. */
#include <stdlib.h>
#include <string.h>

#include "chunkcache.h"
#include "commands.h"
#include "worldint.h"

static void install_store(node *n, store *db);

static void note(world *w, node *n, hist_kind k, int peer, const char *fmt, const char *arg)
{
    hist_event *e = history_add(w->hist, w->now, k, n->idx, world_local(w, n->idx));
    e->peer = peer;
    if (fmt) history_set_text(e, fmt, arg);
}

/* ---- the server inside a node ---- */

static int64_t node_clock_fn(void *ud)
{
    node *n = ud;
    return lclock_read(&n->clock, n->w->now);
}

static void node_deliver_pubsub(void *ud, int conn_id, slice channel, slice message)
{
    node *n = ud;
    world *w = n->w;
    int client_actor = conn_id / 2;
    if (client_actor < w->nnodes || client_actor >= w->nactors) return;
    msg *m = xcalloc(1, sizeof *m);
    m->kind = MSG_PUBSUB;
    m->from = n->idx;
    m->to = client_actor;
    m->label = xmemdup(channel.p, channel.len);
    reply_init(&m->r);
    reply_bulk(&m->r, message.p, message.len);
    world_send(w, m);
}

static void node_trace(void *ud, int argc, const slice *argv, const reply *r)
{
    node *n = ud;
    world *w = n->w;
    if (!w->verbose) return;
    hist_event *e = history_add(w->hist, w->now, H_CALL, n->idx, world_local(w, n->idx));
    buf b;
    buf_init(&b);
    for (int i = 0; i < argc; i++) {
        if (i) buf_putc(&b, ' ');
        buf_append(&b, argv[i].p, argv[i].len);
    }
    e->text = buf_steal(&b);
    buf_init(&b);
    reply_to_brief(r, &b);
    e->reply = buf_steal(&b);
}

/* The store tells us about every changed key: replicate it, and record it. */
static void node_observe(void *ud, store_event ev, slice key)
{
    node *n = ud;
    world *w = n->w;
    hist_kind k = ev == STORE_WRITTEN ? H_KEY_SET : ev == STORE_DELETED ? H_KEY_DELETED : H_KEY_EXPIRED;
    hist_event *e = history_add(w->hist, w->now, k, n->idx, world_local(w, n->idx));
    e->text = xmemdup(key.p, key.len);
    if (ev == STORE_WRITTEN) {
        kv *v = store_lookup(server_store(n->srv), key);
        if (v) {
            buf b;
            buf_init(&b);
            obj_dump((obj_type)v->type, v->ptr, &b);
            e->reply = buf_steal(&b);
        }
    }
    n->dirty = 1;
    if (n->role == ROLE_MASTER) node_replicate_key(w, n, key, ev != STORE_WRITTEN);
}

static void node_wire_store(node *n)
{
    store *db = server_store(n->srv);
    store_set_clock(db, node_clock_fn, n);
    store_set_observer(db, node_observe, n);
}

void node_make_server(world *w, node *n)
{
    server_config cfg = {
        .clock = node_clock_fn, .clock_ud = n,
        .deliver = node_deliver_pubsub, .deliver_ud = n,
        .trace = node_trace, .trace_ud = n,
        .load = chunkcache_load_ud, .load_ud = w->chunks,
    };
    n->srv = server_new(&cfg);
    server_set_replica(n->srv, n->role == ROLE_REPLICA);
    node_wire_store(n);
}

/* Schedules the active-expiry event for the node's next deadline: a key expires once the
 * local clock is past its deadline, i.e. reads deadline + 1. */
void node_schedule_expiry(world *w, node *n)
{
    if (!n->up || n->role != ROLE_MASTER) return;
    int64_t deadline = store_next_expiry(server_store(n->srv));
    if (deadline == INT64_MAX) return;
    int64_t at = lclock_true_when(&n->clock, w->now, deadline + 1);
    if (at == INT64_MAX) return;
    if (n->expiry_at == at && n->expiry_pending) return;
    n->expiry_at = at;
    n->expiry_pending = 1;
    sched_push(w->q, at, EV_EXPIRE, n->idx, ++n->expiry_gen, NULL);
}

void node_on_expire(world *w, node *n, uint64_t gen)
{
    if (gen != n->expiry_gen) return;
    n->expiry_pending = 0;
    if (!n->up || n->role != ROLE_MASTER) return;
    store_active_expire(server_store(n->srv));
    node_schedule_expiry(w, n);
}

static void node_exec_request(world *w, node *n, msg *m)
{
    client *c = &w->clients[m->from - w->nnodes];
    conn *cn = m->pubsub_conn ? &n->subconns[c->cidx] : &n->conns[c->cidx];
    reply r;
    reply_init(&r);
    /* The exec event goes first, so the key changes the command makes follow it in the
     * history (the checker attributes them to it); its reply is filled in afterwards. */
    hist_event *e = history_add(w->hist, w->now, H_EXEC, n->idx, world_local(w, n->idx));
    size_t at = history_len(w->hist) - 1;
    e->peer = m->from;
    e->a = (int64_t)m->req_id;
    e->text = xstrdup(m->label ? m->label : "");
    server_exec(n->srv, cn, m->argc, m->argv, &r);
    buf b;
    buf_init(&b);
    reply_to_brief(&r, &b);
    history_at_mut(w->hist, at)->reply = buf_steal(&b);
    node_schedule_expiry(w, n);
    msg *rep = xcalloc(1, sizeof *rep);
    rep->kind = MSG_REPLY;
    rep->from = n->idx;
    rep->to = m->from;
    rep->coro = m->coro;
    rep->req_id = m->req_id;
    rep->label = m->label ? xstrdup(m->label) : NULL;
    reply_init(&rep->r);
    reply_move(&rep->r, &r);
    world_send(w, rep);
}

void node_deliver(world *w, node *n, msg *m)
{
    if (!n->up) {
        /* Whether the process or the whole host died, the client hears nothing: its request
         * ends with its timeout. */
        world_note_drop(w, m, "node down");
        return;
    }
    if (world_partitioned(w, m->from, m->to)) {
        world_note_drop(w, m, "partition");
        return;
    }
    switch (m->kind) {
    case MSG_REQUEST: node_exec_request(w, n, m); break;
    case MSG_REPL: node_apply_replication(w, n, m); break;
    default: break;
    }
}

void node_replicate_key(world *w, node *n, slice key, int deleted)
{
    kv *v = deleted ? NULL : store_lookup(server_store(n->srv), key);
    for (int i = 0; i < w->nnodes; i++) {
        node *r = &w->nodes[i];
        if (r->role != ROLE_REPLICA || r->master != n->idx) continue;
        msg *m = xcalloc(1, sizeof *m);
        m->kind = MSG_REPL;
        m->from = n->idx;
        m->to = r->idx;
        reply_init(&m->r);
        m->key = xmemdup(key.p, key.len);
        m->klen = key.len;
        m->label = xmemdup(key.p, key.len);
        m->epoch = n->down_epoch;
        if (v) {
            m->type = (obj_type)v->type;
            m->val = obj_clone((obj_type)v->type, v->ptr);
            m->expire = v->expire;
        } else {
            m->del = 1;
        }
        world_send(w, m);
    }
}

void node_apply_replication(world *w, node *n, msg *m)
{
    if (n->role != ROLE_REPLICA || n->master != m->from) return; /* from a former master */
    if (w->nodes[m->from].down_epoch != m->epoch) {
        /* The lag is the time the write spends in the master's buffers and on the wire; a
         * master that crashed meanwhile never finished sending it. */
        world_note_drop(w, m, "its master crashed before sending it");
        return;
    }
    store *db = server_store(n->srv);
    slice key = { m->key, m->klen };
    if (m->del) {
        store_delete(db, key);
    } else {
        kv *e = store_set(db, key, m->type, m->val, 0);
        m->val = NULL; /* the store owns it now */
        if (m->expire >= 0) store_set_expire(db, e, m->expire);
        store_touched(db, e);
    }
    n->repl_applied++;
}

void node_crash(world *w, node *n)
{
    if (!n->up) return;
    n->up = 0;
    n->down_epoch++;
    n->expiry_pending = 0;
    note(w, n, H_NODE_DOWN, -1, NULL, NULL);
    /* Every client connection is gone with the process: subscriptions too. */
    for (int c = 0; c < w->nclients; c++) {
        pubsub_drop_conn(server_pubsub(n->srv), n->conns[c].id);
        pubsub_drop_conn(server_pubsub(n->srv), n->subconns[c].id);
        n->conns[c].subscriptions = n->subconns[c].subscriptions = 0;
    }
    if (n->cfg->restart_delay >= 0) sched_push(w->q, w->now + n->cfg->restart_delay, EV_RESTART, n->idx, 0, NULL);
    if (n->role == ROLE_MASTER) {
        int has_replica = 0;
        for (int i = 0; i < w->nnodes; i++)
            if (w->nodes[i].role == ROLE_REPLICA && w->nodes[i].master == n->idx) has_replica = 1;
        if (has_replica) sched_push(w->q, w->now + w->sc->down_after, EV_FAILOVER_CHECK, n->idx, n->down_epoch, NULL);
    }
}

/* Installs db as the node's keyspace (freeing the old one) and rewires it. */
static void install_store(node *n, store *db)
{
    store_set_clock(db, node_clock_fn, n);
    store *old = server_swap_store(n->srv, db);
    store_free(old);
    node_wire_store(n);
}

void node_restart(world *w, node *n)
{
    if (n->up) return;
    /* The process restarts: a fresh server (empty script cache, no connections) with what
     * persistence kept. */
    store *kept = NULL;
    switch (n->cfg->persist) {
    case PERSIST_NONE: break;
    case PERSIST_EVERYSEC: kept = n->durable ? store_clone(n->durable) : NULL; break;
    case PERSIST_ALWAYS: kept = store_clone(server_store(n->srv)); break;
    }
    node_rebuild_server(w, n);
    if (kept) install_store(n, kept);
    n->up = 1;
    note(w, n, H_NODE_UP, -1, n->cfg->persist == PERSIST_NONE ? "restarted empty (no persistence)" : "restarted from %s",
         n->cfg->persist == PERSIST_ALWAYS ? "its AOF (fsync always)" : "its last fsync (everysec)");
    if (n->role == ROLE_REPLICA || n->demoted) {
        /* A former master that lost its role while down comes back as a replica and
         * resynchronises in full from the current master. */
        node *m = &w->nodes[n->master];
        n->role = ROLE_REPLICA;
        n->demoted = 0;
        server_set_replica(n->srv, 1);
        if (m->up) install_store(n, store_clone(server_store(m->srv)));
    }
    node_schedule_expiry(w, n);
}

void node_fsync(world *w, node *n)
{
    if (n->up && n->dirty) {
        store_free(n->durable);
        n->durable = store_clone(server_store(n->srv));
        n->dirty = 0;
    }
    sched_push(w->q, w->now + 1000000, EV_FSYNC, n->idx, 0, NULL);
}

static node *best_replica(world *w, node *m)
{
    node *best = NULL;
    for (int i = 0; i < w->nnodes; i++) {
        node *r = &w->nodes[i];
        if (r->role != ROLE_REPLICA || r->master != m->idx || !r->up) continue;
        if (!best || r->repl_applied > best->repl_applied) best = r;
    }
    return best;
}

void node_failover(world *w, node *old, int forced)
{
    if (old->role != ROLE_MASTER) return;
    node *r = best_replica(w, old);
    if (!r) return;
    r->role = ROLE_MASTER;
    r->master = -1;
    server_set_replica(r->srv, 0);
    note(w, r, H_PROMOTED, old->idx, "promoted to master in place of %s", old->cfg->name);
    for (int i = 0; i < w->nnodes; i++) {
        node *o = &w->nodes[i];
        if (o != r && o->role == ROLE_REPLICA && o->master == old->idx) {
            o->master = r->idx;
            if (o->up) node_resync(w, o, r);
        }
    }
    old->master = r->idx;
    if (old->up && forced) {
        old->role = ROLE_REPLICA;
        server_set_replica(old->srv, 1);
        node_resync(w, old, r);
    } else {
        old->demoted = 1;
    }
    node_schedule_expiry(w, r);
    sched_push(w->q, w->now + w->sc->detection, EV_ROUTE, -1, ((uint64_t)old->shard << 32) | (uint64_t)r->idx, NULL);
}

#define CUT_CHECK (1ULL << 63)

void node_failover_check(world *w, node *n, uint64_t epoch)
{
    if (n->role != ROLE_MASTER || n->demoted) return;
    if (epoch & CUT_CHECK) {
        /* Cut off from its replicas (and so, in this model, from the sentinels beside them)
         * for down_after: they elect a new master, while this one, still up, goes on
         * accepting writes from the clients on its side of the partition. */
        if ((epoch & ~CUT_CHECK) != n->cut_epoch || n->cut_since < 0) return;
    } else if (n->up || n->down_epoch != epoch) {
        return;
    }
    node_failover(w, n, 0);
}

/* Is master m cut off from every replica it has that is up? */
static int cut_off(world *w, node *m)
{
    int replicas = 0;
    for (int i = 0; i < w->nnodes; i++) {
        node *r = &w->nodes[i];
        if (r->role != ROLE_REPLICA || r->master != m->idx || !r->up) continue;
        replicas++;
        if (!world_partitioned(w, m->idx, r->idx)) return 0;
    }
    return replicas > 0;
}

void nodes_partitions_changed(world *w)
{
    for (int i = 0; i < w->nnodes; i++) {
        node *n = &w->nodes[i];
        if (!n->up) continue;
        if (n->role == ROLE_MASTER && n->demoted) {
            /* A master replaced while it was cut off: once it can reach the new master again,
             * it is reconfigured as its replica and throws its own data away. */
            node *m = &w->nodes[n->master];
            if (m->up && !world_partitioned(w, n->idx, m->idx)) {
                n->role = ROLE_REPLICA;
                n->demoted = 0;
                n->cut_since = -1;
                server_set_replica(n->srv, 1);
                note(w, n, H_DEMOTED, m->idx, "rejoins as a replica of %s, discarding its own writes", m->cfg->name);
                node_resync(w, n, m);
            }
            continue;
        }
        if (n->role != ROLE_MASTER) continue;
        int cut = cut_off(w, n);
        if (cut && n->cut_since < 0) {
            n->cut_since = w->now;
            n->cut_epoch++;
            sched_push(w->q, w->now + w->sc->down_after, EV_FAILOVER_CHECK, n->idx, CUT_CHECK | n->cut_epoch, NULL);
        } else if (!cut && n->cut_since >= 0) {
            n->cut_since = -1;
            n->cut_epoch++;
        }
    }
}

void node_rebuild_server(world *w, node *n)
{
    server_free(n->srv);
    node_make_server(w, n);
    for (int c = 0; c < w->nclients; c++) n->conns[c].subscriptions = n->subconns[c].subscriptions = 0;
}

/* A full resynchronisation: the replica's keyspace becomes a copy of the master's. */
void node_resync(world *w, node *replica, node *master)
{
    (void)w;
    store *copy = store_clone(server_store(master->srv));
    install_store(replica, copy);
}
