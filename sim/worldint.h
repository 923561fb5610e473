/* worldint.h — the engine's internal types, shared by world.c (events, network, faults),
 * node.c (persistence, replication, failover) and client.c (processes, the ctx API). Not a
 * public API: everything outside the engine goes through world.h. */
#ifndef LOCKLAB_WORLDINT_H
#define LOCKLAB_WORLDINT_H

#include "chooser.h"
#include "clock.h"
#include "history.h"
#include "object.h"
#include "reply.h"
#include "scenario.h"
#include "sched.h"
#include "server.h"
#include "world.h"

/* The scenario's epoch: local clocks read 1700000000000 ms (2023-11-14T22:13:20Z) plus
 * their offset at true time 0, so times look like real Unix milliseconds. */
#define WORLD_EPOCH_MS 1700000000000LL

enum event_kind {
    EV_DELIVER,        /* a message arrives (data: msg) */
    EV_CLIENT_START,   /* a client process starts its workload */
    EV_TIMER,          /* a coroutine's sleep or wait ends (gen: coro << 32 | wait generation) */
    EV_PAUSE_END,      /* a GC pause ends */
    EV_EXPIRE,         /* a node's next key deadline (gen: node expiry generation) */
    EV_FAULT,          /* gen: fault index */
    EV_FAULT_END,
    EV_RESTART,        /* a crashed node restarts by itself (restart_delay) */
    EV_FSYNC,          /* a node's once-a-second fsync (persistence everysec) */
    EV_FAILOVER_CHECK, /* down_after has passed since a master went down (gen: down epoch) */
    EV_ROUTE,          /* clients learn a shard's new master (gen: shard << 32 | node) */
    EV_SPAWN           /* a coroutine spawned by ctx:spawn starts (gen: coro) */
};

typedef enum msg_kind { MSG_REQUEST, MSG_REPLY, MSG_PUBSUB, MSG_REPL } msg_kind;

typedef struct msg {
    msg_kind kind;
    int from, to;          /* actors */
    int coro;              /* the waiting coroutine (request/reply) */
    uint64_t req_id;
    int pubsub_conn;       /* the request goes over the client's pub/sub connection */
    int argc;
    slice *argv;           /* request arguments, pointing into argbuf */
    char *argbuf;
    char *label;           /* what it is, for traces: "EVAL redisson/lock@HEAD", a channel */
    reply r;               /* reply, or the pub/sub payload */
    /* replication: one key's new state, or its deletion */
    char *key;
    size_t klen;
    int del;
    obj_type type;
    void *val;
    int64_t expire;
    uint64_t epoch;        /* replication: the master's down_epoch when it sent this */
} msg;

typedef struct link_state {
    dist delay;
    double loss, base_loss;
    int64_t last_delivery;
} link_state;

typedef struct partition {
    int fault;
    int *group_of;         /* per actor: group index or -1 */
} partition;

typedef enum node_role { ROLE_MASTER, ROLE_REPLICA } node_role;

typedef struct world world;

typedef struct node {
    world *w;
    int idx;
    const node_cfg *cfg;
    server *srv;
    lclock clock;
    int up;
    node_role role;
    int master;            /* a replica's master (node index) */
    int shard;             /* the original master's index: the name clients use */
    conn *conns, *subconns;/* per client: its command and pub/sub connections */
    store *durable;        /* persistence everysec: the last fsynced copy */
    int dirty;
    uint64_t repl_applied; /* replication effects applied (replica ranking at failover) */
    uint64_t down_epoch;   /* bumped at every crash: stale failover checks are ignored */
    int demoted;           /* lost its master role while down or cut off: rejoins as a replica */
    int64_t cut_since;     /* true µs since when a partition cuts this master off from every
                              replica, or -1 */
    uint64_t cut_epoch;    /* bumped whenever that changes: stale failover checks are ignored */
    int64_t expiry_at;
    int expiry_pending;
    uint64_t expiry_gen;
} node;

typedef enum coro_state {
    CO_READY,       /* created, not started */
    CO_RUNNING,
    CO_WAIT_REPLY,  /* ctx:call / ctx:eval / ctx:subscribe */
    CO_SLEEP,       /* ctx:sleep */
    CO_WAIT_MSG,    /* ctx:wait */
    CO_CRITICAL,    /* inside ctx:critical, holding for work_ms */
    CO_DONE
} coro_state;

typedef struct coro {
    int idx;               /* its index in the client's coros (timers and replies name it) */
    void *L;               /* lua_State* of the coroutine */
    int ref;               /* registry reference that anchors it */
    coro_state state;
    uint64_t wait_gen;     /* bumped whenever the coroutine stops waiting */
    uint64_t req_id;       /* the reply it waits for */
    int sub;               /* the subscription it waits on */
    int64_t token;         /* ctx:critical's token (-1: none) */
    int is_main;
} coro;

typedef struct subscription {
    int shard;             /* the node name the client used */
    int node;              /* the node actually subscribed to */
    char *channel;
    char **queue;          /* messages not yet taken by ctx:wait */
    int nqueue, capqueue;
} subscription;

typedef struct client {
    int idx;               /* actor index */
    int cidx;              /* index among clients */
    const client_cfg *cfg;
    lclock clock;
    int started, dead, done;
    int64_t paused_until;  /* true µs; events before it are held */
    event *held;
    int nheld, capheld;
    coro **coros;          /* each allocated on its own: a coroutine spawned while another runs
                              must not move the running one */
    int ncoros, capcoros;
    int *route;            /* per node index: where this client sends requests for it */
    subscription *subs;
    int nsubs, capsubs;
    uint64_t next_req;
    char uuid[40];         /* Redisson-style client id: lock owner = uuid:threadId */
    int ctx_ref;           /* the ctx object (Lua registry) */
} client;

struct world {
    const scenario *sc;
    chooser *ch;
    int own_chooser;
    sched *q;
    history *hist;
    int64_t now;
    int64_t epoch_ms;
    uint64_t events;
    uint64_t max_events; /* world_opts.max_events or WORLD_MAX_EVENTS */
    int verbose;
    int nnodes, nclients, nactors;
    node *nodes;
    client *clients;
    link_state *links;
    partition *partitions;
    int npartitions;
    struct clientrt *rt;   /* the clients' shared Lua runtime (client.c) */
    int64_t resource_max_token; /* the fenced resource's highest accepted token */
    int failed;
    char *failure;
    int explore;           /* inject the scenario's explore faults (locklab check) */
    const struct scriptlib *shared_lib; /* borrowed script index, or NULL: load our own */
    struct chunkcache *chunks;          /* borrowed compiled-chunk cache, or NULL */
    int faults_left;
    int64_t last_instant;  /* the last instant at which injection was considered */
    fault_cfg *injected;   /* the faults injected so far, in order */
    int ninjected, capinjected;
    /* exploring: what the explorer's reductions read (world_steps, world_decisions) */
    world_step *steps;
    int nsteps, capsteps;
    world_decision *decs;
    size_t ndecs, capdecs;
    uint64_t *due;         /* scratch: per actor, an event is due at the current instant */
};

/* world.c */
void world_send(world *w, msg *m);
/* A window: a decision that only says *when* something happens (a message's delay, a sleep
 * of random length). Call world_decisions_made before drawing it, then
 * world_window_decision with that count and the window's width (µs) just before pushing
 * the event it times: while exploring, the explorer then branches on it only where its
 * later end reorders something (model/explore.c). */
size_t world_decisions_made(const world *w);
void world_window_decision(world *w, size_t before, int64_t shift);
void world_note_drop(world *w, const msg *m, const char *why);
int64_t world_local(const world *w, int actor);
int world_partitioned(const world *w, int a, int b);
void world_describe_fault(const world *w, const fault_cfg *f, buf *out);
const char *msg_kind_name(msg_kind k);
void msg_free(msg *m);
void node_schedule_expiry(world *w, node *n);

/* node.c */
void node_make_server(world *w, node *n);
void node_rebuild_server(world *w, node *n);
void node_resync(world *w, node *replica, node *master);
void node_deliver(world *w, node *n, msg *m);
void node_on_expire(world *w, node *n, uint64_t gen);
void node_replicate_key(world *w, node *n, slice key, int deleted);
void node_apply_replication(world *w, node *n, msg *m);
void node_crash(world *w, node *n);
void node_restart(world *w, node *n);
void node_fsync(world *w, node *n);
void node_failover(world *w, node *old_master, int forced);
void node_failover_check(world *w, node *n, uint64_t epoch);
void nodes_partitions_changed(world *w);

/* client.c */
int clients_init(world *w, const char *data_dir, buf *err);
void clients_release(world *w);
int client_deliver(world *w, client *c, event *e);   /* 1: held by a GC pause */
void client_event(world *w, client *c, event *e);
void client_pause(world *w, client *c, int64_t duration);
void client_crash(world *w, client *c);
void clients_route(world *w, int shard, int node_idx);
int clients_all_done(const world *w);

#endif
