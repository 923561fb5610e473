/* node_acks.c — a master's replicas' acknowledgements and what waits for them (nodeint.h):
 * a client's wait for replicas (Redis's WAIT: answered with the count once enough replicas
 * acknowledged, or at its timeout), and the quorum commit (replication.commit = "quorum": a
 * write's reply, and the watch events and requests behind it, held until a majority has
 * every entry; node.c's header says why). A replica acknowledges when asked (REPLCONF GETACK
 * on the replication stream, answered over the net). */
#include "nodeint.h"

#include <stdlib.h>
#include <string.h>

static int quorum_replicas(const cluster *cu, const node *m);

/* commit = "quorum": a master with replicas shows nothing (a watch event, a read) before a
 * majority has the entries it follows. */
int node_commit_first(const cluster *cu, const node *n)
{
    return cu->cx->sc->repl_quorum && n->role == ROLE_MASTER && quorum_replicas(cu, n) > 0;
}

void node_held_append(held_msg **list, msg *m, uint64_t offset)
{
    held_msg *h = xcalloc(1, sizeof *h);
    h->m = m;
    h->offset = offset;
    while (*list) list = &(*list)->next;
    *list = h;
}

void node_held_drop(held_msg **list)
{
    while (*list) {
        held_msg *h = *list;
        *list = h->next;
        msg_free(h->m);
        free(h);
    }
}

/* Asks each replica of master n for an acknowledgement of what it applied: a message on the
 * replication stream without a change (REPLCONF GETACK). */
static void request_acks(cluster *cu, node *n)
{
    for (int i = 0; i < cu->cx->nnodes; i++) {
        node *r = &cu->nodes[i];
        if (r->role != ROLE_REPLICA || r->master != n->idx) continue;
        msg *m = msg_new(MSG_REPL, n->idx, r->idx, 0);
        m->label = xstrdup("REPLCONF GETACK");
        m->epoch = n->down_epoch;
        m->sk = cu->kind;
        net_send(cu->net, m);
    }
}

/* A new wait of request m for `replicas` replicas to acknowledge `offset`, queued last. */
node_wait *node_wait_add(node *n, const msg *m, uint64_t offset, int64_t replicas)
{
    node_wait *w = xcalloc(1, sizeof *w);
    w->id = ++n->next_wait_id;
    w->from = m->from;
    w->conn = m->conn;
    w->coro = m->coro;
    w->async = m->async;
    w->req_id = m->req_id;
    w->label = xstrdup(m->label ? m->label : "");
    w->offset = offset;
    w->replicas = replicas;
    node_wait **tail = &n->waits;
    while (*tail) tail = &(*tail)->next;
    *tail = w;
    return w;
}

/* Arms w's timer: timeout_ms of the node's clock from now (none when <= 0), an
 * EV_WAIT_TIMEOUT. The deadline comes from the node's clock: a clock reading. */
void node_wait_arm(cluster *cu, node *n, node_wait *w, int64_t timeout_ms)
{
    if (timeout_ms <= 0) return;
    core_clock_read(cu->cx);
    int64_t at = lclock_true_when(&n->clock, cu->cx->now_us, lclock_read(&n->clock, cu->cx->now_us) + timeout_ms);
    if (at != INT64_MAX) sched_push(cu->cx->q, at, EV_WAIT_TIMEOUT, n->idx, w->id, NULL);
}

/* A wait for `want` replicas (timeout ms, 0: none) from request m: answered now (into rep;
 * returns 0) or blocked (rep freed; returns 1). */
int node_wait_begin(cluster *cu, node *n, msg *m, msg *rep, int64_t want, int64_t timeout)
{
    const server_kind *sk = cu->kind;
    if (n->role != ROLE_MASTER) {
        sk->reply_wait(rep->body, 0, "ERR WAIT cannot be used with replica instances. Please also note that "
                       "since Redis 4.0 if a replica is configured to be writable (which is not the default) "
                       "writes to replicas are just local and are not propagated.");
        return 0;
    }
    int client = m->from - cu->cx->nnodes;
    uint64_t offset = client >= 0 && client < cu->cx->nclients ? n->client_off[client] : n->repl_offset;
    int acked = node_acked_count(cu, n, offset);
    if (acked >= want) {
        sk->reply_wait(rep->body, acked, NULL);
        return 0;
    }
    node_wait *w = node_wait_add(n, m, offset, want);
    node_wait_arm(cu, n, w, timeout);
    request_acks(cu, n);
    rep->body = NULL; /* never filled */
    msg_free(rep);
    return 1;
}

/* Answers the blocked wait w (unlinked by the caller) with the count acknowledged now, or
 * with the error `error`. */
static void wait_answer(cluster *cu, node *n, node_wait *w, const char *error)
{
    if (w->held) { /* committed: the write's own reply goes out now; no error is told */
        if (!error) node_send_reply(cu, w->exec_at, w->held, w->coro, w->req_id, w->label);
        else msg_free(w->held);
        free(w->label);
        free(w);
        return;
    }
    msg *rep = node_reply_new(cu, n, w->from);
    cu->kind->reply_wait(rep->body, node_acked_count(cu, n, w->offset), error);
    rep->async = w->async;
    node_send_reply(cu, node_note_exec(cu, n, w->from, w->req_id, w->label, NULL), rep, w->coro, w->req_id, w->label);
    free(w->label);
    free(w);
}

/* After an acknowledgement: the waits it satisfies are answered, oldest first. */
static void waits_check(cluster *cu, node *n)
{
    node_wait **p = &n->waits;
    while (*p) {
        node_wait *w = *p;
        if (node_acked_count(cu, n, w->offset) >= w->replicas) {
            *p = w->next;
            wait_answer(cu, n, w, NULL);
        } else {
            p = &w->next;
        }
    }
}

void node_wait_timeout(cluster *cu, node *n, uint64_t id)
{
    for (node_wait **p = &n->waits; *p; p = &(*p)->next) {
        if ((*p)->id != id) continue;
        node_wait *w = *p;
        if (w->parked) {
            node_park_timeout(cu, n, w);
            return;
        }
        *p = w->next;
        wait_answer(cu, n, w, NULL);
        return;
    }
}

/* n becomes a replica: like Redis (replicationSetMaster → disconnectAllBlockedClients), its
 * blocked clients are unblocked with an error. */
void node_unblock_waits(cluster *cu, node *n)
{
    node_wait **p = &n->waits;
    while (*p) {
        node_wait *w = *p;
        if (w->parked) { /* the server's own wait (node_park.c): its server decides */
            p = &w->next;
            continue;
        }
        *p = w->next;
        /* a held write is not told anything: its client loses the connection */
        wait_answer(cu, n, w, "UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)");
    }
}

/* The blocked clients of n lose their wait (n crashed): they hear nothing, and their requests
 * end with their timeouts. */
void node_drop_waits(node *n)
{
    while (n->waits) {
        node_wait *w = n->waits;
        n->waits = w->next;
        msg_free(w->held);
        msg_free(w->ready);
        free(w->script);
        free(w->label);
        free(w);
    }
}

/* commit = "quorum" (or a write that asks for a majority): how many of master m's replicas
 * must have a write before it is acknowledged — a majority of the group (m and every replica
 * it has, up or not) counts m. */
static int quorum_replicas(const cluster *cu, const node *m)
{
    int group = 1;
    for (int i = 0; i < cu->cx->nnodes; i++)
        if (cu->nodes[i].role == ROLE_REPLICA && cu->nodes[i].master == m->idx) group++;
    return group / 2;
}

/* Holds the reply of a write request m (exec event at `at`) until a quorum acknowledged
 * offset; 1 if held, 0 if the quorum has it already. */
int node_hold_for_quorum(cluster *cu, node *n, msg *m, msg *rep, size_t at)
{
    int need = quorum_replicas(cu, n);
    if (need == 0 || node_acked_count(cu, n, n->repl_offset) >= need) return 0;
    node_wait *w = node_wait_add(n, m, n->repl_offset, need);
    w->held = rep;
    w->exec_at = at;
    rep->async = m->async;
    request_acks(cu, n);
    return 1;
}

uint64_t node_acked_offset(const node *m, int r)
{
    return m->acked[r];
}

int node_acked_count(const cluster *cu, const node *m, uint64_t offset)
{
    int n = 0;
    for (int i = 0; i < cu->cx->nnodes; i++) {
        const node *r = &cu->nodes[i];
        if (r->role == ROLE_REPLICA && r->master == m->idx && r->up && m->acked[i] >= offset) n++;
    }
    return n;
}

void node_on_ack(cluster *cu, node *n, msg *m)
{
    if (n->role != ROLE_MASTER) return;
    if (m->req_id > n->acked[m->from]) n->acked[m->from] = m->req_id;
    waits_check(cu, n);
    node_commit_release(cu, n);
}

int node_committed(const cluster *cu, const node *n, uint64_t offset)
{
    return node_acked_count(cu, n, offset) >= quorum_replicas(cu, n);
}


/* ZAB and Raft apply an entry, fire its watches, expire sessions and leases and answer reads
 * only once a majority has it ("A read will never return data that has not been made
 * durable": etcd's API guarantees). Here the master runs a write at once and holds what would
 * show it: the watch events it caused go out, and requests that came meanwhile run, once a
 * majority has acknowledged every entry before them. */
void node_commit_release(cluster *cu, node *n)
{
    if (n->releasing) return;
    if (!node_commit_first(cu, n)) { /* no longer a quorum master: what it held never shows */
        node_held_drop(&n->held_pushes);
        node_held_drop(&n->held_reqs);
        return;
    }
    n->releasing = 1;
    for (;;) {
        for (held_msg *h = n->held_pushes; h; h = h->next)
            if (!h->offset) h->offset = n->repl_offset ? n->repl_offset : 1;
        while (n->held_pushes && node_committed(cu, n, n->held_pushes->offset)) {
            held_msg *h = n->held_pushes;
            n->held_pushes = h->next;
            net_send(cu->net, h->m);
            free(h);
        }
        if (!n->held_reqs || !node_committed(cu, n, n->repl_offset) || !n->up) {
            /* something waits for entries a majority has not acknowledged: ask, once per
             * offset (the answers come back behind the entries, on the replication stream) */
            if ((n->held_reqs || n->held_pushes) && n->acks_asked < n->repl_offset) {
                n->acks_asked = n->repl_offset;
                request_acks(cu, n);
            }
            break;
        }
        held_msg *h = n->held_reqs;
        n->held_reqs = h->next;
        node_exec_request(cu, n, h->m);
        msg_free(h->m);
        free(h);
    }
    n->releasing = 0;
}
