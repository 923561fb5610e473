/* node.h — the nodes of a world: each a server of the cluster's kind (server_kind.h: a fake
 * Redis today) with a clock, up/down state, persistence across crashes, and its place in
 * replication (master or replica) and failover. The cluster holds them all: replication and
 * failover read across nodes. See node.c.
 *
 * Nodes send through the net (core.h, net.h) and push their own events (expiry, restart,
 * fsync, failover checks, the clients' route change) on the core's queue; the world hands
 * each back to the function below that handles it. Nodes know nothing of the clients but
 * their actor numbers, and nothing of the server but its vtable. */
#ifndef LOCKLAB_NODE_H
#define LOCKLAB_NODE_H

#include "core.h"
#include "net.h"
#include "server_kind.h"

typedef enum node_role { ROLE_MASTER, ROLE_REPLICA } node_role;

typedef struct cluster cluster;
typedef struct node_wait node_wait; /* a client blocked at a master until replicas acknowledge */

/* Exploring: which step set a unit's expiry deadline (its origin), so that the expiry happens
 * in the cone of that step (model/reduce.c), however many commands, restarts or replications
 * lie between. Kept per node for the units that have a deadline. */
typedef struct deadline_origin {
    char *unit;
    size_t len;
    int64_t deadline_ms;   /* the server's local ms */
    int step;              /* the step that set it (core_step) */
} deadline_origin;

typedef struct origins {
    deadline_origin *v;
    int n, cap;
} origins;

typedef struct node {
    cluster *cu;
    int idx;
    const node_cfg *cfg;
    kserver *srv;          /* the server process (of the cluster's kind) */
    lclock clock;
    int up;
    node_role role;
    int master;            /* a replica's master (node index) */
    int shard;             /* the original master's index: the name clients use */
    kdata *durable;        /* persistence everysec: the last fsynced copy, or NULL */
    origins org;           /* exploring: the deadlines' origins of the data it holds */
    origins durable_org;   /* ... and of the durable copy */
    int in_apply;          /* a replicated change is being applied ... */
    int applying;          /* ... carrying this origin (-1: none) */
    int dirty;             /* changed since the last fsync */
    int disk_stalled;      /* disk stalls in force (node_disk.c): no fsync completes */
    struct disk_held *disk_held; /* replies held by a stall (persistence always) */
    int ndisk_held, capdisk_held;
    uint64_t repl_applied; /* replication effects applied (replica ranking at failover) */
    uint64_t down_epoch;   /* bumped at every crash: stale failover checks are ignored */
    int demoted;           /* lost its master role while down or cut off: rejoins as a replica */
    int64_t cut_since_us;     /* true µs since when a partition cuts this master off from every
                              replica, or -1 */
    uint64_t cut_epoch;    /* bumped whenever that changes: stale failover checks are ignored */
    int64_t expiry_at;
    int expiry_pending;
    uint64_t expiry_gen;
    int expiry_cause;      /* exploring: the step the pending expiry event records as its cause */
    /* Replication offsets. A master numbers the changes it sends down its replication stream
     * 1, 2, ... (repl_offset: the last); a replica's repl_offset is the last one it applied.
     * acked[r] (a master, per node index): the highest offset replica r acknowledged, through
     * the net (REPLCONF GETACK / ACK), 0 none; client_off[c]: repl_offset after client c's
     * last request, what a wait of that client's waits for. */
    uint64_t repl_offset;
    uint64_t effects;      /* the server's effects so far (changes, pushes, deadlines, clock readings) */
    uint64_t *acked;
    uint64_t *client_off;
    node_wait *waits;      /* clients blocked in a wait for replicas, or parked by the
                              server (node_park.c), oldest first */
    uint64_t next_wait_id;
    const msg *exec_msg;   /* the request the server is running, while it runs */
    size_t exec_at;        /* ... its exec event */
    int parked_now;        /* ... the server parked it (kind_host.park) */
    /* commit = "quorum": what waits for a majority to have the master's entries before anyone
     * sees it (commit before visible): pushes (watch events) and requests, in order */
    struct held_msg *held_pushes, *held_reqs;
    int releasing;         /* held requests are being run */
    uint64_t acks_asked;   /* the offset the replicas were last asked to acknowledge for it */
    char *published;       /* traced runs: the channel of the pub/sub messages pushed since the
                              last traced call or request, which the next traced call (the one
                              that pushed them: a call is traced after it ran) records */
} node;

struct cluster {
    core *cx;
    net *net;
    const server_kind *kind; /* what every node runs */
    node *nodes;           /* cx->nnodes of them */
    void (*setup)(void *ud, int node, void *native); /* kind_host.setup for every server, or NULL */
    void *setup_ud;
};

/* Builds the scenario's nodes, each running a server of `kind` (each registers its clock
 * with the core). */
void cluster_init(cluster *cu, core *cx, net *nt, const server_kind *kind);
void cluster_release(cluster *cu);

/* A message for node n (the caller frees it afterwards). */
void node_deliver(cluster *cu, node *n, msg *m);
void node_on_expire(cluster *cu, node *n, uint64_t gen);
/* Reschedules n's next key expiry (after its clock changed). */
void node_schedule_expiry(cluster *cu, node *n);
/* n's clock jumped or changed its rate: its next expiry moves; the steps that set its
 * deadlines count as clock readings (the expiry no longer follows one of them alone). */
void node_clock_changed(cluster *cu, node *n);
void node_crash(cluster *cu, node *n);
void node_restart(cluster *cu, node *n);
void node_fsync(cluster *cu, node *n);
/* Its disk stalls (the disk_stall fault), until node_disk_resume: no fsync completes; with
 * persistence `always`, no reply leaves (node_disk_hold). Then the fsync that was due
 * completes and the replies held leave, in order. Stalls may overlap. */
void node_disk_stall(cluster *cu, node *n);
void node_disk_resume(cluster *cu, node *n);
/* A reply of n: held by a stall (1), or 0: send it now. */
int node_disk_hold(cluster *cu, node *n, msg *rep);
void node_disk_release(node *n);
/* Promotes old's best replica; `forced` (a failover fault): old, if up, becomes its replica
 * at once. */
void node_failover(cluster *cu, node *old_master, int forced);
void node_failover_check(cluster *cu, node *n, uint64_t epoch);
/* After a partition started or ended: masters cut off from their replicas, and replaced
 * masters that can reach the new one again. */
void node_partitions_changed(cluster *cu);
/* Acknowledged offsets: what replica r (a node index) of master m acknowledged, and how many
 * replicas of m that are up acknowledged at least `offset` (a quorum's count, a WAIT's). */
uint64_t node_acked_offset(const node *m, int r);
int node_acked_count(const cluster *cu, const node *m, uint64_t offset);
/* A client's wait for replicas (EV_WAIT_TIMEOUT) reached its timeout: it gets the count. */
void node_wait_timeout(cluster *cu, node *n, uint64_t id);
/* Client cidx's connections to n are gone (it crashed). */
void node_drop_client(cluster *cu, node *n, int cidx);
/* Client cidx stops listening on `channel` at n, at once. */
void node_unsubscribe(cluster *cu, node *n, int cidx, const char *channel);

#endif
