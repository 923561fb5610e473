/* nodeint.h — what node.c, node_acks.c, node_expiry.c, node_failover.c, node_park.c and
 * node_disk.c share: the deadline origins, the history's lines, resynchronisation, waits,
 * acknowledgements and replies (not an API). */
#ifndef LOCKLAB_NODEINT_H
#define LOCKLAB_NODEINT_H

#include "node.h"

/* A message held by a quorum master until what it shows is committed (offset 0: tagged with
 * the master's offset at the next release, when the change that produced it is counted). */
typedef struct held_msg {
    struct held_msg *next;
    msg *m;
    uint64_t offset;
} held_msg;

/* A request blocked at a node: a client's wait for replicas (Redis's WAIT), a write's reply
 * held for a quorum, or a request its server parked (kind_host.park, node_park.c). */
struct node_wait {
    node_wait *next;
    uint64_t id;
    int from, conn, coro;  /* the blocked request: its client's actor, connection, coroutine */
    int async;             /* sent with ctx:send */
    uint64_t req_id;
    char *label;
    uint64_t offset;       /* what the replicas must have acknowledged */
    int64_t replicas;      /* how many of them */
    msg *held;             /* a write's reply held until a quorum has it (commit = "quorum"),
                              or NULL: a WAIT, answered with the count */
    size_t exec_at;        /* held: the write's exec event */
    int parked;            /* parked by the server: it answers through kind_host.unpark */
    char *script;          /* parked: the request's script, for its exec event */
    msg *ready;            /* parked: its answer, sent at the next node_park_flush */
};

deadline_origin *org_find(origins *o, slice unit);
void org_set(origins *o, slice unit, int64_t deadline, int step);
void org_remove(origins *o, slice unit);
void org_clear(origins *o);
void org_copy(origins *dst, const origins *src);
void org_free(origins *o);
/* A replicated or copied origin on n, from node `from`: kept where both clocks run alike,
 * else unknown (-1) and the setting step a clock reading. */
int node_cross_clock(cluster *cu, const node *n, const node *from, int step);
/* The server's hooks (kind_host.deadline_set, deadline_read). */
void node_deadline_set(void *ud, slice unit, int64_t deadline, const slice *from);
void node_deadline_read(void *ud, slice unit);
/* ---- node_acks.c: the replicas' acknowledgements, waits for them, the quorum commit ----
 * commit = "quorum": whether master n shows nothing before a majority has it; a message held
 * until then (appended to a list, or a list dropped); what was held goes out once a majority
 * has the master's entries (node_commit_release); whether `offset` is committed. */
int node_commit_first(const cluster *cu, const node *n);
void node_held_append(held_msg **list, msg *m, uint64_t offset);
void node_held_drop(held_msg **list);
void node_commit_release(cluster *cu, node *n);
int node_committed(const cluster *cu, const node *n, uint64_t offset);
/* A wait for replicas (Redis's WAIT) of request m, whose reply is rep: 1 when it blocks. A
 * quorum write's reply held until a majority has it: 1 when held. */
int node_wait_begin(cluster *cu, node *n, msg *m, msg *rep, int64_t want, int64_t timeout);
int node_hold_for_quorum(cluster *cu, node *n, msg *m, msg *rep, size_t at);
/* A replica's acknowledgement arrived at master n; a master's waits dropped (it crashed). */
void node_on_ack(cluster *cu, node *n, msg *m);
void node_drop_waits(node *n);
/* node.c: runs request m on n's server (a request held for a quorum, released). */
void node_exec_request(cluster *cu, node *n, msg *m);
/* What node.c and node_failover.c share: a node's line in the history, its keyspace's, the
 * waits a master answers when it stops being one, a replica's full resynchronisation. */
void node_note(cluster *cu, node *n, hist_kind k, int peer, const char *fmt, const char *arg);
void node_note_keyspace(cluster *cu, node *n, hist_keyspace why, const node *master);
void node_unblock_waits(cluster *cu, node *n);
void node_resync(cluster *cu, node *replica, node *master);
/* What node.c and node_park.c share: a reply, an exec event, a reply's sending, a wait and
 * its timer. */
msg *node_reply_new(cluster *cu, node *n, int to);
size_t node_note_exec(cluster *cu, node *n, int from, uint64_t req_id, const char *label, const char *script);
void node_send_reply(cluster *cu, size_t exec_at, msg *rep, int coro, uint64_t req_id, const char *label);
node_wait *node_wait_add(node *n, const msg *m, uint64_t offset, int64_t replicas);
void node_wait_arm(cluster *cu, node *n, node_wait *w, int64_t timeout_ms);
/* node_park.c: requests a server answers later (kind_host.park and unpark). node_park_begun:
 * the request just run (exec event `at`, its unused reply `rep`) was parked; node_park_flush
 * sends the answers the server gave meanwhile; node_park_timeout: a parked wait's timer. */
uint64_t node_park(void *ud, int64_t timeout_ms);
void node_unpark(void *ud, uint64_t ticket, void *reply);
void node_park_begun(cluster *cu, node *n, size_t at, msg *rep);
void node_park_flush(cluster *cu, node *n);
void node_park_timeout(cluster *cu, node *n, node_wait *w);

#endif
