/* node.c — what makes a server a node of the world: a clock, up and down, persistence
 * across crashes, asynchronous replication to replicas, and failover. The server is of the
 * cluster's kind, seen only through its vtable (server_kind.h); Redis's words below (keys,
 * scripts) name what that kind calls them.
 *
 * Requests. A node runs a request atomically on its delivery, at its local time; what the
 * server changes, pushes and traces meanwhile reaches the node at once (node_changed,
 * node_push, node_trace): the history records it, the changes replicate, the pushes travel
 * to the subscribed clients. The reply goes back over the net.
 *
 * Persistence. `none`: a crash loses the data. `always`: every write is on disk before its
 * reply leaves, so a restart finds the data as it was. `everysec`: a background fsync once a
 * second (of true time) takes a snapshot; a crash loses the writes since the last one.
 *
 * Replication is by effects, as Redis 7 replicates scripts: after a key changes on a master,
 * its new state (type, value, absolute deadline) or its deletion travels to each replica as
 * a message with the replication lag; the replica applies it on arrival. A replica never
 * expires keys itself; the master's expiry reaches it as a deletion.
 *
 * Acknowledgements. Each change a master sends carries its offset on the replication stream
 * (1, 2, ...); a replica remembers the last it applied. A wait for replicas (Redis's WAIT
 * numreplicas timeout; the kind says which request is one: server_kind.is_wait) blocks its
 * client until that many replicas acknowledged the master's offset after the client's last
 * request, or its timeout passes on the node's clock; the reply is the number that did. When a
 * wait blocks, the master asks each replica for an acknowledgement (REPLCONF GETACK, on the
 * replication stream behind the changes, so with its lag); the replica answers with the
 * offset it applied (REPLCONF ACK, over the net: partitions and delays apply). The acknowledged
 * offsets (node_acked_offset, node_acked_count) are the mechanism a quorum commit can use too.
 * Unlike Redis, replicas acknowledge only when asked, not also once a second on their own.
 *
 * Quorum commit (replication.commit = "quorum": ZooKeeper, etcd). A write's reply waits for a
 * majority; and nothing else shows an entry before a majority has it (commit before visible,
 * node_commit_release): the watch events it causes (an expiry's included) are held, and the
 * requests that arrive meanwhile wait and run in order once a majority has every entry so
 * far. ZAB and Raft pipeline writes and answer other sessions' reads from the committed state
 * at once; here those requests wait one commit round instead (later answers, never an
 * uncommitted state). A master that crashes drops what it held: nobody saw it. MongoDB's w:
 * "majority" holds only the writer's reply (its reads are "local").
 *
 * The acknowledgements, the waits for them and the quorum commit are node_acks.c's; failover,
 * partitions of a master from its replicas and full resynchronisation are in
 * node_failover.c. */
#include "nodeint.h"

#include <stdlib.h>
#include <string.h>

static void node_replicate_key(cluster *cu, node *n, slice key, int deleted);
static void node_apply_replication(cluster *cu, node *n, msg *m);

void node_note(cluster *cu, node *n, hist_kind k, int peer, const char *fmt, const char *arg)
{
    hist_event *e = history_add(cu->cx->hist, cu->cx->now_us, k, n->idx, core_local(cu->cx, n->idx));
    e->peer = peer;
    if (fmt) history_set_text(e, fmt, arg);
}

static void keyspace_unit(void *ud, slice name, const char *type, int64_t deadline, slice value)
{
    history_add_unit(ud, name, type, deadline, value);
}

/* n's whole data was replaced at once (a restart, a full resynchronisation), which no key
 * event tells: record all of it, so that a reader of the history knows what n holds. */
void node_note_keyspace(cluster *cu, node *n, hist_keyspace why, const node *master)
{
    hist_event *e = history_add(cu->cx->hist, cu->cx->now_us, H_KEYSPACE, n->idx, core_local(cu->cx, n->idx));
    e->code = (int)why;
    if (why == HK_RESYNC) {
        history_set_text(e, "full resynchronisation from %s", master->cfg->name);
    } else {
        history_set_text(e, "%s", "restart");
    }
    buf b;
    buf_init(&b);
    cu->kind->dump(n->srv, &b);
    e->reply = b.p ? buf_steal(&b) : xstrdup("");
    if (cu->kind->units) {
        e->units = xcalloc(1, sizeof *e->units); /* the kind lists its units: none is an empty list */
        cu->kind->units(n->srv, keyspace_unit, e);
    }
}

/* ---- the server inside a node ---- */

static int64_t node_clock_fn(void *ud)
{
    node *n = ud;
    return n->cu->kind->monotonic ? lclock_read_monotonic(&n->clock, n->cu->cx->now_us) : lclock_read(&n->clock, n->cu->cx->now_us);
}

/* TIME: the clock to the µs. A value that changes with every µs the request moves, so the
 * step is marked as such a reading (core_clock_read_us), not as a whole-ms one. */
static int64_t node_clock_us_fn(void *ud)
{
    node *n = ud;
    core_clock_read_us(n->cu->cx);
    return lclock_read_us(&n->clock, n->cu->cx->now_us);
}

static int64_t node_steady_fn(void *ud)
{
    node *n = ud;
    return lclock_read_monotonic(&n->clock, n->cu->cx->now_us);
}

static void node_clock_seen(void *ud)
{
    node *n = ud;
    n->effects++;
    core_clock_read(n->cu->cx);
}

/* The server pushes a message to a client's subscription: it travels to the client (once
 * what it tells of is committed, under commit = "quorum"). */
static void node_push(void *ud, int client, slice channel, slice message)
{
    node *n = ud;
    cluster *cu = n->cu;
    n->effects++;
    msg *m = msg_new(MSG_PUBSUB, n->idx, cu->cx->nnodes + client, 0);
    m->label = xmemdup(channel.p, channel.len);
    m->bytes = xmemdup(message.p, message.len);
    m->nbytes = message.len;
    if (cu->cx->verbose) {
        free(n->published);
        n->published = xmemdup(channel.p, channel.len);
    }
    if (node_commit_first(cu, n)) node_held_append(&n->held_pushes, m, 0);
    else net_send(cu->net, m);
}

/* Verbose runs: every call inside a script, with its reply. */
static void node_trace(void *ud, int argc, const slice *argv, const void *reply)
{
    node *n = ud;
    cluster *cu = n->cu;
    hist_event *e = history_add(cu->cx->hist, cu->cx->now_us, H_CALL, n->idx, core_local(cu->cx, n->idx));
    buf b;
    buf_init(&b);
    for (int i = 0; i < argc; i++) {
        if (i) buf_putc(&b, ' ');
        buf_append(&b, argv[i].p, argv[i].len);
    }
    e->text = buf_steal(&b);
    if (argc > 0) e->cmd = xmemdup(argv[0].p, argv[0].len);
    buf_init(&b);
    cu->kind->reply_brief(reply, &b);
    e->reply = buf_steal(&b);
    e->label = n->published; /* the channel this call published on, if it did */
    n->published = NULL;
}

/* The server tells us about every changed key: record it, and replicate it. */
static void node_changed(void *ud, kind_event ev, slice key)
{
    node *n = ud;
    cluster *cu = n->cu;
    n->effects++;
    hist_kind k = ev == KIND_WRITTEN ? H_KEY_SET : ev == KIND_DELETED ? H_KEY_DELETED : H_KEY_EXPIRED;
    hist_event *e = history_add(cu->cx->hist, cu->cx->now_us, k, n->idx, core_local(cu->cx, n->idx));
    e->text = xmemdup(key.p, key.len);
    if (ev == KIND_WRITTEN) {
        buf b;
        buf_init(&b);
        int64_t deadline = -1;
        if (cu->kind->describe(n->srv, key, &b, &deadline)) e->reply = buf_steal(&b);
        else buf_release(&b);
        e->deadline_ms = deadline;
    }
    if (cu->cx->explore && (ev != KIND_WRITTEN || e->deadline_ms < 0)) org_remove(&n->org, key);
    n->dirty = 1;
    if (n->role == ROLE_MASTER) node_replicate_key(cu, n, key, ev != KIND_WRITTEN);
}

/* INFO's connected_slaves: the replicas of n that are up (a replica cut off by a partition
 * still counts, as Redis notices a silent link only after repl-timeout, 60 s). */
static int node_replicas_fn(void *ud)
{
    node *n = ud;
    if (n->role != ROLE_MASTER) return -1;
    int k = 0;
    for (int i = 0; i < n->cu->cx->nnodes; i++) {
        const node *r = &n->cu->nodes[i];
        k += r->role == ROLE_REPLICA && r->master == n->idx && r->up;
    }
    return k;
}

/* kind_host.reachable: client's host and n, as a failure detector sees them. */
static int node_reachable_fn(void *ud, int client)
{
    node *n = ud;
    return net_reachable(n->cu->net, n->cu->cx->nnodes + client, n->idx);
}

/* A fresh server process for n: no data, no connections. */
static kserver *node_new_server(cluster *cu, node *n, int restarted)
{
    kind_host host = {
        .ud = n,
        .clock = node_clock_fn,
        .clock_us = node_clock_us_fn,
        .steady = node_steady_fn,
        .clock_seen = node_clock_seen,
        .deadline_set = node_deadline_set,
        .deadline_read = node_deadline_read,
        .changed = node_changed,
        .push = node_push,
        .trace = cu->cx->verbose ? node_trace : NULL,
        .replicas = node_replicas_fn,
        .park = node_park,
        .unpark = node_unpark,
        .reachable = node_reachable_fn,
        .nclients = cu->cx->nclients,
        .client_base = cu->cx->nnodes,
        .chunks = cu->cx->chunks,
        .options = cu->cx->sc->server_options,
        .restarted = restarted,
        .setup = cu->setup,
        .setup_ud = cu->setup_ud,
        .node = n->idx,
    };
    kserver *s = cu->kind->create(&host);
    cu->kind->set_replica(s, n->role == ROLE_REPLICA);
    return s;
}

msg *node_reply_new(cluster *cu, node *n, int to)
{
    msg *rep = msg_new(MSG_REPLY, n->idx, to, cu->kind->reply_size);
    rep->sk = cu->kind;
    rep->body = rep->tail;
    return rep;
}

/* Records that n ran a request of `from` (its reply filled in by the caller; `script`: the
 * script it ran, or NULL) and returns the event's index. */
size_t node_note_exec(cluster *cu, node *n, int from, uint64_t req_id, const char *label, const char *script)
{
    hist_event *e = history_add(cu->cx->hist, cu->cx->now_us, H_EXEC, n->idx, core_local(cu->cx, n->idx));
    e->peer = from;
    e->a = (int64_t)req_id;
    e->text = xstrdup(label ? label : "");
    e->label = script ? xstrdup(script) : NULL;
    free(n->published); /* what a request pushed outside a traced call is no call's */
    n->published = NULL;
    return history_len(cu->cx->hist) - 1;
}

void node_send_reply(cluster *cu, size_t exec_at, msg *rep, int coro, uint64_t req_id, const char *label)
{
    buf b;
    buf_init(&b);
    cu->kind->reply_brief(rep->body, &b);
    history_at_mut(cu->cx->hist, exec_at)->reply = buf_steal(&b);
    rep->coro = coro;
    rep->req_id = req_id;
    rep->label = label ? xstrdup(label) : NULL;
    const char *script = history_at(cu->cx->hist, exec_at)->label; /* the exec's: the request's script */
    rep->script = script ? xstrdup(script) : NULL;
    if (!node_disk_hold(cu, &cu->nodes[rep->from], rep)) net_send(cu->net, rep);
}

void node_exec_request(cluster *cu, node *n, msg *m)
{
    const server_kind *sk = cu->kind;
    msg *rep = node_reply_new(cu, n, m->from);
    int64_t want = 0, timeout = 0;
    int wait = sk->is_wait ? sk->is_wait(m->argc, m->argv, &want, &timeout, rep->body) : 0;
    if (wait > 0 && node_wait_begin(cu, n, m, rep, want, timeout)) return;
    /* The exec event goes first, so the key changes the command makes follow it in the
     * history (the checker attributes them to it); its reply is filled in afterwards. */
    size_t at = node_note_exec(cu, n, m->from, m->req_id, m->label, m->script);
    uint64_t before = n->repl_offset, effects = n->effects;
    n->exec_msg = m; /* what kind_host.park parks */
    n->exec_at = at;
    n->parked_now = 0;
    if (!wait) sk->exec(n->srv, m->from - cu->cx->nnodes, m->conn, m->argc, m->argv, rep->body);
    n->exec_msg = NULL;
    /* it changed nothing: it commutes */
    if (!wait && cu->cx->explore && sk->inert && sk->inert(n->srv, m->conn) && n->effects == effects) cu->cx->inert = 1;
    int client = m->from - cu->cx->nnodes;
    if (n->role == ROLE_MASTER && client >= 0 && client < cu->cx->nclients) n->client_off[client] = n->repl_offset;
    node_schedule_expiry(cu, n);
    int majority = cu->cx->sc->repl_quorum || (sk->reply_needs_majority && sk->reply_needs_majority(rep->body));
    if (n->parked_now) { /* the server answers later (node_park.c) */
        node_park_begun(cu, n, at, rep);
        node_commit_release(cu, n);
        return;
    }
    if (n->role == ROLE_MASTER && majority && n->repl_offset > before && node_hold_for_quorum(cu, n, m, rep, at)) {
        node_commit_release(cu, n);
        node_park_flush(cu, n);
        return;
    }
    rep->async = m->async;
    node_send_reply(cu, at, rep, m->coro, m->req_id, m->label);
    node_commit_release(cu, n);
    node_park_flush(cu, n);
}

void node_deliver(cluster *cu, node *n, msg *m)
{
    if (!n->up) {
        /* nothing changes at the node either way: two such steps commute (world_step.inert) */
        if (cu->cx->explore) cu->cx->inert = 1;
        /* A dead host (or one cut off) says nothing: the request ends with its timeout. A
         * host whose server process died (down = "refuses") answers the connection with a
         * reset at once: the client hears "connection refused" one trip later. */
        if (cu->cx->sc->down_refuses && m->kind == MSG_REQUEST && !net_partitioned(cu->net, m->from, m->to)) {
            msg *rep = msg_new(MSG_REPLY, n->idx, m->from, 0);
            rep->refused = 1;
            rep->coro = m->coro;
            rep->req_id = m->req_id;
            rep->async = m->async;
            rep->label = m->label ? xstrdup(m->label) : NULL;
            rep->script = m->script ? xstrdup(m->script) : NULL;
            net_send(cu->net, rep);
            return;
        }
        net_note_drop(cu->net, m, HL_NODE_DOWN);
        return;
    }
    if (net_partitioned(cu->net, m->from, m->to)) {
        if (net_tcp(cu->net, m)) {
            /* on its way when the cut came: TCP retransmits it (the message is taken over;
             * the husk is freed by the caller) */
            msg *k = msg_new(m->kind, m->from, m->to, 0);
            *k = *m;
            m->argv = NULL;
            m->bytes = NULL;
            m->label = NULL;
            m->script = NULL;
            net_hold(cu->net, k);
            return;
        }
        net_note_drop(cu->net, m, HL_PARTITION);
        return;
    }
    switch (m->kind) {
    case MSG_REQUEST:
        if (node_commit_first(cu, n) && (n->held_reqs || !node_committed(cu, n, n->repl_offset))) {
            /* an entry is not committed yet: this request sees the state once it is (the
             * message is taken over; the net frees the husk) */
            msg *k = msg_new(MSG_REQUEST, m->from, m->to, 0);
            *k = *m;
            m->argv = NULL;
            m->bytes = NULL;
            m->label = NULL;
            m->script = NULL;
            node_held_append(&n->held_reqs, k, 0);
            node_commit_release(cu, n);
            break;
        }
        node_exec_request(cu, n, m);
        break;
    case MSG_REPL: node_apply_replication(cu, n, m); break;
    case MSG_REPL_ACK: node_on_ack(cu, n, m); break;
    default: break;
    }
}

static void node_replicate_key(cluster *cu, node *n, slice key, int deleted)
{
    n->repl_offset++;
    for (int i = 0; i < cu->cx->nnodes; i++) {
        node *r = &cu->nodes[i];
        if (r->role != ROLE_REPLICA || r->master != n->idx) continue;
        msg *m = msg_new(MSG_REPL, n->idx, r->idx, 0);
        m->label = xmemdup(key.p, key.len);
        m->epoch = n->down_epoch;
        m->sk = cu->kind;
        m->body = cu->kind->capture(n->srv, key, deleted);
        const deadline_origin *o = cu->cx->explore && !deleted ? org_find(&n->org, key) : NULL;
        m->origin = o ? o->step : -1;
        m->req_id = n->repl_offset;
        net_send(cu->net, m);
    }
}

static void node_apply_replication(cluster *cu, node *n, msg *m)
{
    if (n->role != ROLE_REPLICA || n->master != m->from) return; /* from a former master */
    if (cu->nodes[m->from].down_epoch != m->epoch) {
        /* The lag is the time the write spends in the master's buffers and on the wire; a
         * master that crashed meanwhile never finished sending it. */
        net_note_drop(cu->net, m, HL_MASTER_CRASHED);
        return;
    }
    if (!m->body) {
        /* REPLCONF GETACK: the offset applied so far goes back to the master */
        msg *ack = msg_new(MSG_REPL_ACK, n->idx, m->from, 0);
        ack->req_id = n->repl_offset;
        buf b;
        buf_init(&b);
        buf_printf(&b, "REPLCONF ACK %llu", (unsigned long long)n->repl_offset);
        ack->label = buf_steal(&b);
        net_send(cu->net, ack);
        return;
    }
    n->in_apply = 1;
    n->applying = m->origin;
    cu->kind->apply(n->srv, m->body);
    n->in_apply = 0;
    n->repl_applied++;
    n->repl_offset = m->req_id;
}

void node_crash(cluster *cu, node *n)
{
    if (!n->up) return;
    n->up = 0;
    n->down_epoch++;
    n->expiry_pending = 0;
    node_drop_waits(n);
    node_held_drop(&n->held_pushes); /* never committed: nobody sees them */
    node_held_drop(&n->held_reqs);   /* their clients hear nothing: they time out */
    node_note(cu, n, H_NODE_DOWN, -1, NULL, NULL);
    /* Every client connection is gone with the process: subscriptions too. */
    for (int c = 0; c < cu->cx->nclients; c++) node_drop_client(cu, n, c);
    if (n->cfg->restart_delay_us >= 0) sched_push(cu->cx->q, cu->cx->now_us + n->cfg->restart_delay_us, EV_RESTART, n->idx, 0, NULL);
    if (n->role == ROLE_MASTER) {
        int has_replica = 0;
        for (int i = 0; i < cu->cx->nnodes; i++)
            if (cu->nodes[i].role == ROLE_REPLICA && cu->nodes[i].master == n->idx) has_replica = 1;
        if (has_replica) sched_push(cu->cx->q, cu->cx->now_us + cu->cx->sc->down_after_us, EV_FAILOVER_CHECK, n->idx, n->down_epoch, NULL);
    }
}

void node_restart(cluster *cu, node *n)
{
    if (n->up) return;
    /* The process restarts: a fresh server (empty script cache, no connections) with what
     * persistence kept. */
    kserver *old = n->srv;
    n->srv = node_new_server(cu, n, 1);
    switch (n->cfg->persist) {
    case PERSIST_NONE: org_clear(&n->org); break;
    case PERSIST_EVERYSEC:
        if (n->durable) cu->kind->load(n->srv, n->durable);
        org_copy(&n->org, &n->durable_org);
        break;
    case PERSIST_ALWAYS: cu->kind->copy_data(n->srv, old); break;
    }
    cu->kind->destroy(old);
    n->up = 1;
    int redis = !strcmp(cu->kind->name, "redis"); /* Redis's words for its persistence */
    node_note(cu, n, H_NODE_UP, -1, n->cfg->persist == PERSIST_NONE ? "restarted empty (no persistence)" : "restarted from %s",
         n->cfg->persist == PERSIST_ALWAYS ? (redis ? "its AOF (fsync always)" : "its log (every write on disk)")
                                           : (redis ? "its last fsync (everysec)" : "its last sync to disk (each second)"));
    history_at_mut(cu->cx->hist, history_len(cu->cx->hist) - 1)->code = n->cfg->persist != PERSIST_NONE;
    node_note_keyspace(cu, n, HK_RESTART, NULL);
    if (n->role == ROLE_REPLICA || n->demoted) {
        /* A former master that lost its role while down comes back as a replica and
         * resynchronises in full from the current master. */
        node *m = &cu->nodes[n->master];
        n->role = ROLE_REPLICA;
        n->demoted = 0;
        cu->kind->set_replica(n->srv, 1);
        if (m->up) node_resync(cu, n, m);
    }
    node_schedule_expiry(cu, n);
}

void node_fsync(cluster *cu, node *n)
{
    if (n->up && n->dirty && !n->disk_stalled) {
        cu->kind->data_free(n->durable);
        n->durable = cu->kind->snapshot(n->srv);
        org_copy(&n->durable_org, &n->org);
        n->dirty = 0;
    }
    sched_push(cu->cx->q, cu->cx->now_us + 1000000, EV_FSYNC, n->idx, 0, NULL);
}

/* ---- the cluster and the clients' connections ---- */

/* TCP gave up on a server's segments to a client (network.partitions = "tcp"): the server's
 * end of the connection is reset, as if the client had gone (its session ends). */
static void node_tcp_reset(void *ud, int from, int to)
{
    cluster *cu = ud;
    int c = to - cu->cx->nnodes;
    if (from < cu->cx->nnodes && c >= 0 && c < cu->cx->nclients && cu->nodes[from].up)
        node_drop_client(cu, &cu->nodes[from], c);
}

void cluster_init(cluster *cu, core *cx, net *nt, const server_kind *kind)
{
    cu->cx = cx;
    cu->net = nt;
    cu->kind = kind;
    net_on_reset(nt, node_tcp_reset, cu);
    cu->nodes = xcalloc((size_t)cx->nnodes, sizeof *cu->nodes);
    for (int i = 0; i < cx->nnodes; i++) {
        node *n = &cu->nodes[i];
        const node_cfg *nc = &cx->sc->nodes[i];
        n->cu = cu;
        n->idx = i;
        n->cfg = nc;
        n->up = 1;
        n->cut_since_us = -1;
        n->role = nc->master < 0 ? ROLE_MASTER : ROLE_REPLICA;
        n->master = nc->master;
        n->shard = nc->master < 0 ? i : nc->master;
        lclock_init(&n->clock, WORLD_EPOCH_MS, nc->clock.offset_ms, nc->clock.drift);
        cx->clocks[i] = &n->clock;
        n->srv = node_new_server(cu, n, 0);
        n->acked = xcalloc((size_t)cx->nnodes, sizeof *n->acked);
        n->client_off = xcalloc((size_t)cx->nclients + 1, sizeof *n->client_off);
        if (nc->persist == PERSIST_EVERYSEC) sched_push(cx->q, 1000000, EV_FSYNC, i, 0, NULL);
    }
}

void cluster_release(cluster *cu)
{
    if (!cu->nodes) return;
    for (int i = 0; i < cu->cx->nnodes; i++) {
        cu->kind->destroy(cu->nodes[i].srv);
        cu->kind->data_free(cu->nodes[i].durable);
        org_free(&cu->nodes[i].org);
        org_free(&cu->nodes[i].durable_org);
        node_drop_waits(&cu->nodes[i]);
        node_held_drop(&cu->nodes[i].held_pushes);
        node_held_drop(&cu->nodes[i].held_reqs);
        node_disk_release(&cu->nodes[i]);
        free(cu->nodes[i].published);
        free(cu->nodes[i].acked);
        free(cu->nodes[i].client_off);
    }
    free(cu->nodes);
    cu->nodes = NULL;
}

void node_drop_client(cluster *cu, node *n, int cidx)
{
    cu->kind->disconnect(n->srv, cidx);
    if (n->up) node_commit_release(cu, n);
    if (n->up) node_park_flush(cu, n);
}

/* Unsubscribing is modelled as immediate and reliable: a client that stops listening
 * simply ignores what arrives later. */
void node_unsubscribe(cluster *cu, node *n, int cidx, const char *channel)
{
    if (n->up) cu->kind->unsubscribe(n->srv, cidx, channel);
}
