/* server_kind.h — what a node needs from the server it runs, whatever its kind: a vtable.
 *
 * A node (node.c) is a server plus everything the world does around it: a clock, up and
 * down, persistence across crashes, replication and failover. None of that depends on what
 * the server is, so node.c, world.c and the clients see the server only through this
 * interface. Redis is its first kind (redis_kind.c, over sim/redis/server.h); another
 * system — ZooKeeper, etcd, MySQL, MongoDB — becomes a sibling folder (sim/zk/, ...) with
 * an adapter implementing this vtable, without touching the engine.
 *
 * Requests. A client sends a request as an argv of byte strings (the kind decides what they
 * mean: a Redis command and its arguments, "create /path data ephemeral", a SQL statement)
 * over one of its two connections (0: commands, 1: subscriptions). The server runs it
 * atomically, at the node's local time (kind_host.clock), and fills a reply: an opaque value
 * of reply_size bytes that travels inside the reply message (no allocation of its own), has a
 * printable form for the history (reply_brief), and is handed to the client model as Lua
 * values (reply_push) the way that system's client library would.
 *
 * Effects. While it runs a request (or expires data) the server tells its host, at once and
 * in order: each unit of data it changed (a key, a znode, a row: `changed`, named by a byte
 * string), each message for a client's subscription (`push`), and, when traced, each call
 * nested inside a script (`trace`). The node records them in the history, replicates the
 * changes and sends the pushes: what happens when is decided by the order of these calls.
 *
 * Data. Persistence and replication are the node's; a kind only copies its data: a snapshot
 * (the last fsync of `everysec`), loaded again at a restart; a full copy from another server
 * (`always` restarts from the data the crashed process had; a replica resynchronises from
 * its master); one unit's new state or deletion captured on a master and applied on a
 * replica. Expiry: the server names its next local deadline and expires what is past it when
 * the node says so. Setting a unit's deadline is told through kind_host.deadline_set (with the
 * unit it was copied from, if any), and a deadline that leaves the server (a TTL in a reply)
 * through deadline_read: the model checker makes the expiry move with the request that set
 * the deadline (a kind that does not tell must call clock_seen when it sets one). A canonical dump (one line per unit, in a stable order) serves
 * fingerprints and tests. */
#ifndef LOCKLAB_SERVER_KIND_H
#define LOCKLAB_SERVER_KIND_H

#include <stdint.h>

#include "util.h"

struct chunkcache;
struct lua_State;

typedef struct kserver kserver; /* one server process of some kind */
typedef struct kdata kdata;     /* a copy of a server's data (a snapshot) */
typedef struct kchange kchange; /* one unit of data's new state, or its deletion */

typedef enum kind_event { KIND_WRITTEN, KIND_DELETED, KIND_EXPIRED } kind_event;

/* One unit of a server's data, as server_kind.units hands it over. */
typedef void (*kind_unit_fn)(void *ud, slice name, const char *type, int64_t deadline, slice value);

/* A setting of a kind that a scenario may give in `server_options` (a ZooKeeper tick, a
 * MongoDB TTL monitor period): its name, whether it is a duration (written as one, handed to
 * the server in ms) or a whole number, its default and its range (the same units), and one
 * line of help naming the real system's setting it stands for. */
typedef struct kind_option {
    const char *name;
    int duration;
    int64_t dflt, lo, hi;
    const char *help;
} kind_option;

/* What the node gives the server it runs: its clock, and where the effects go (ud is passed
 * to every callback). */
typedef struct kind_host {
    void *ud;
    int64_t (*clock)(void *ud);                                 /* local time, ms */
    /* the same clock to the µs (Redis's TIME), the reading itself noted as one that changes
     * with every µs its request moves (NULL: the ms clock × 1000) */
    int64_t (*clock_us)(void *ud);
    /* the host's monotonic clock (ms; a clock jump does not move it), for a server that
     * schedules on a steady clock what it judges on its wall clock (mongod's TTL monitor);
     * NULL: the same as clock */
    int64_t (*steady)(void *ud);
    /* the server read its clock for a value that leaves it (a TTL in a reply, a deadline set
     * from it); NULL: nobody asks */
    void (*clock_seen)(void *ud);
    /* Deadlines (NULL: not followed; then setting one counts as a clock reading): a unit's
     * expiry deadline was set now, in local ms (`from`: the unit whose deadline it copies; a
     * slice whose p is NULL: a deadline no request of this server fixed — an absolute time
     * from the request, data from elsewhere; NULL: from the clock); a unit's deadline left
     * the server (a TTL in a reply, a comparison with it). */
    void (*deadline_set)(void *ud, slice unit, int64_t deadline, const slice *from);
    void (*deadline_read)(void *ud, slice unit);
    void (*changed)(void *ud, kind_event ev, slice unit);       /* after the change */
    void (*push)(void *ud, int client, slice topic, slice payload);
    /* a call nested in a script, after it ran; NULL: not traced */
    void (*trace)(void *ud, int argc, const slice *argv, const void *reply);
    /* a master: how many replicas are connected to it; a replica: -1 (NULL: nobody says) */
    int (*replicas)(void *ud);
    /* Parked requests (a server that answers a request later: PostgreSQL's pg_advisory_lock
     * waiting for the lock, MySQL's GET_LOCK with a timeout). park: called inside exec, the
     * request being run gets no reply now (exec leaves *reply empty, as reply_release does);
     * returns its ticket. timeout_ms > 0: after that many ms of the node's clock the node
     * calls server_kind.parked_timeout with the ticket. unpark: the server answers ticket now
     * (from any exec, disconnect or parked_timeout): reply (reply_size bytes) is moved to the
     * node, which sends it once the call in progress returns, as an exec of its own; reply
     * NULL: no answer ever (its client's session ended). A ticket the node no longer knows
     * (the process crashed) is ignored. NULL: not offered. */
    uint64_t (*park)(void *ud, int64_t timeout_ms);
    void (*unpark)(void *ud, uint64_t ticket, void *reply);
    /* Whether client's host can exchange messages with this node now: the host is up (not
     * vanished; a crashed or paused process leaves it up), no partition cuts them, and their
     * link does not lose everything (a gossip failure detector's view: Consul's serfHealth).
     * NULL: nobody says (every host is reachable). */
    int (*reachable)(void *ud, int client);
    int nclients;                /* clients 0 .. nclients-1 may connect */
    int client_base;             /* client 0's actor number (how a kind may number connections) */
    struct chunkcache *chunks;   /* compiled scripts to share between servers (borrowed), or NULL */
    const int64_t *options;      /* the kind's options (server_kind.options), in that order */
    int restarted;               /* this process is a restart (not the node's first start) */
    /* An embedder's last word on the server's own configuration, just before the kind creates
     * it (locklab serve: its TCP connections' pub/sub deliveries, INFO's host, a long script's
     * tick); `native` is the kind's configuration (Redis: a server_config). NULL: none. */
    void (*setup)(void *setup_ud, int node, void *native);
    void *setup_ud;
    int node;                    /* the node's index, for setup */
} kind_host;

typedef struct server_kind {
    const char *name;            /* "redis": what a scenario's `server` names */
    const char *title;           /* "Redis 7.0.15": what the real system is, for users */
    size_t reply_size;           /* bytes of a reply; pointer-aligned storage */
    const kind_option *options;  /* NULL-terminated by name, or NULL: none */
    const char *requests;        /* the requests a person types at `locklab kind NAME`, with
                                    their words, for its .help; NULL: none listed */
    int monotonic;               /* kind_host.clock is the host's monotonic clock: a clock jump
                                    moves none of its deadlines (ZooKeeper's session expiry,
                                    etcd's leases); else the wall clock (Redis's expiry) */

    kserver *(*create)(const kind_host *host);  /* a fresh process: no data, no connections */
    void (*destroy)(kserver *s);                /* NULL: nothing */
    void (*set_replica)(kserver *s, int replica); /* read-only replica, or master */

    /* Runs one request of `client` over connection `conn`; *reply is reply_size bytes of
     * uninitialised storage, filled here (release it with reply_release). */
    void (*exec)(kserver *s, int client, int conn, int argc, const slice *argv, void *reply);
    /* Optional (NULL: never): did the request exec just ran touch nothing but the units it
     * reported through `changed`, the clock readings it noted and the messages it pushed?
     * Derived from what it did (sim/redis: server_footprint), never from its name. A run of
     * such a request that reported nothing changed nothing: the model checker then treats
     * two of them at a node as commuting. Asked right after exec, for that request. */
    int (*inert)(kserver *s, int conn);
    void (*reply_release)(void *reply);
    void (*reply_brief)(const void *reply, buf *out);  /* one line, for the history */
    int (*reply_is_error)(const void *reply);
    /* Pushes the reply on L as the client library returns it; the number of values. */
    int (*reply_push)(struct lua_State *L, const void *reply);

    /* Connections: a client's are gone (it crashed); one of its subscriptions ends now. */
    void (*disconnect)(kserver *s, int client);
    void (*unsubscribe)(kserver *s, int client, const char *topic);

    /* Time: the next local deadline (ms; INT64_MAX: none); expire what is past it. */
    int64_t (*next_deadline)(kserver *s);
    void (*expire)(kserver *s);

    /* Data. describe: a unit's current value, for the history, and its expiry deadline in
     * the server's local ms (-1: none) (0: it has none). */
    int (*describe)(kserver *s, slice unit, buf *out, int64_t *deadline);
    kchange *(*capture)(kserver *s, slice unit, int deleted);
    void (*apply)(kserver *s, kchange *c);      /* may take from c; c is freed afterwards */
    void (*change_free)(kchange *c);
    kdata *(*snapshot)(kserver *s);             /* a deep copy of s's data */
    void (*load)(kserver *s, const kdata *d);   /* s's data becomes a copy of d */
    void (*copy_data)(kserver *dst, kserver *src); /* dst's data becomes a copy of src's */
    void (*data_free)(kdata *d);                /* NULL: nothing */
    void (*dump)(kserver *s, buf *out);         /* canonical, for fingerprints and tests */
    /* Optional (NULL: none): each unit of the data the dump shows, in the dump's order, as a
     * record (a node's keyspace event carries them; nobody parses the dump): its name, its
     * type ("string", "znode", "key", ...), its deadline in the server's local ms (-1: none)
     * and its value as the dump shows it. */
    void (*units)(kserver *s, kind_unit_fn fn, void *ud);
    /* Waiting for replicas (optional; NULL: the kind has no such request). is_wait: is this
     * request a wait until the caller's writes are acknowledged by replicas (Redis's WAIT
     * numreplicas timeout)? 0: an ordinary request; 1: yes, with how many replicas and the
     * timeout (ms of the node's clock, 0: none), *reply untouched; -1: a malformed one, *reply
     * filled with its error. The node does the waiting (node.c) and answers with reply_wait:
     * the number of replicas that acknowledged, or the error `error` when not NULL. */
    int (*is_wait)(int argc, const slice *argv, int64_t *replicas, int64_t *timeout_ms, void *reply);
    void (*reply_wait)(void *reply, int64_t acked, const char *error);
    /* Acknowledgement by a majority, per request (optional; NULL: none). A write whose reply
     * says so (MongoDB's writeConcern w: "majority") is answered only once a majority of the
     * replica set (the master and its replicas, up or not, the master counting) has it, as
     * replication.commit = "quorum" does for every write. */
    int (*reply_needs_majority)(const void *reply);
    /* Elections (0: the world's failover promotes the best replica that is up, as Redis
     * Sentinel does). 1: a replica is promoted only with the votes of a majority of the
     * replica set: itself and the members up and reachable from it (MongoDB: "The voting
     * majority of a replica set is 1 plus half the number of voting members, rounded down"). */
    int elects_by_majority;
    /* A parked request's timeout (kind_host.park) came: 1, the server answers it now with
     * *reply (reply_size bytes, filled here; the ticket is done: no unpark for it); 0, it goes
     * on waiting, with a new timeout after *again_ms of the node's clock (0: none). NULL: the
     * kind parks nothing with a timeout. */
    int (*parked_timeout)(kserver *s, uint64_t ticket, void *reply, int64_t *again_ms);
    /* The node recorded the exec of a parked request's answer (ticket): the server tells now,
     * through kind_host.changed, what that answer did to its data (PostgreSQL: the lock it
     * handed the waiter), so that the history shows it as the waiter's, after its exec.
     * NULL: the kind reports everything at once. */
    void (*parked_answered)(kserver *s, uint64_t ticket);
} server_kind;

#endif
