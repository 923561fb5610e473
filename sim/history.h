/* history.h — the record of one run: typed events in true-time order, each with the actor's
 * local time and its details. The checker judges a history, the reports render it, and it is
 * written as JSONL with a stable schema (docs/history.md):
 *
 *     {"t":1250.000,"ev":"reply","actor":"A","local":1700000001250,"peer":"n1",...}
 *
 * "t" is true time in ms with µs precision; "local" is the actor's clock in ms. Strings are
 * owned by the history. Every string is written binary-safe: valid UTF-8 as it is, each
 * ill-formed part as U+FFFD, and then the exact bytes in a NAME_b64 field beside it. */
#ifndef LOCKLAB_HISTORY_H
#define LOCKLAB_HISTORY_H

#include <stdint.h>

#include "clock.h"
#include "util.h"

/* The typed vocabulary of a history. Every detail a reader acts on is a field of these
 * types; an event's `text` is prose for people (written once, where the event is recorded,
 * by a describe function), and nothing reads it back.
 *
 * The kinds of fault, one row each (the fault's own file, sim/fault_<name>.c, holds the rest:
 * how a scenario gives it, what it does, how it is told and how the search offers it; the
 * table sim/faults.c is built from these rows): its FAULT_* kind, its name as a scenario writes
 * it and --json shows it, and its typed fields in the history's `fault` event: the JSON name
 * of `param_ms` (NULL: none) and when it is written (FJ_*), and the JSON name of `rate`. */
#define FAULT_KINDS(X)                                                                        \
    /* kind       name          param           written      rate */                          \
    X(GC_PAUSE,   gc_pause,     "duration",      FJ_NONNEG,   NULL)                           \
    X(CRASH,      crash,        "restart_after", FJ_POSITIVE, NULL)                           \
    X(RESTART,    restart,      NULL,            FJ_NEVER,    NULL)                           \
    X(CLOCK_JUMP, clock_jump,   "by",            FJ_ALWAYS,   NULL)                           \
    X(DRIFT,      drift,        NULL,            FJ_NEVER,    "rate")                         \
    X(PARTITION,  partition,    "duration",      FJ_NONNEG,   NULL)                           \
    X(FAILOVER,   failover,     NULL,            FJ_NEVER,    NULL)                           \
    X(DROP,       drop,         "duration",      FJ_NONNEG,   "probability")                  \
    X(DISK_STALL, disk_stall,   "duration",      FJ_NONNEG,   NULL)
/* When a fault event's `param_ms` is written: never, always, when >= 0 (-1: none), when > 0. */
enum { FJ_NEVER, FJ_ALWAYS, FJ_NONNEG, FJ_POSITIVE };

#define FAULT_KIND_ENUM_(k, n, p, w, r) FAULT_##k,
typedef enum fault_kind { FAULT_KINDS(FAULT_KIND_ENUM_) FAULT_KIND_COUNT } fault_kind;
#undef FAULT_KIND_ENUM_
/* Their names, as a scenario writes them and --json shows them: "gc_pause", ... */
extern const char *const fault_kind_names[FAULT_KIND_COUNT];
const char *fault_kind_name(int k);

/* A lost message: what it was (hist_event.msg), and why it was lost (hist_event.code). */
typedef enum hist_msg { HM_REQUEST, HM_REPLY, HM_MESSAGE, HM_REPLICATION, HM_REPLICATION_ACK, HM_COUNT } hist_msg;
typedef enum hist_loss {
    HL_LOSS,            /* a lossy link */
    HL_PARTITION,       /* a partition between sender and receiver */
    HL_NODE_DOWN,       /* it reached a node that was down */
    HL_MASTER_CRASHED,  /* its master crashed before sending it (replication) */
    HL_TCP_RESET,       /* TCP gave up retransmitting it across a partition: the connection reset */
    HL_COUNT
} hist_loss;
const char *hist_msg_name(int m);   /* "request", "reply", "message", "replication", ... */
const char *hist_loss_name(int l);  /* "loss", "partition", "node down", ... */

/* The outcome of a lock operation (acquire_failed, released: hist_event.code), as the
 * workload records it (ctx:record's third argument). */
typedef enum hist_outcome {
    HO_RELEASED,        /* released: the release succeeded */
    HO_NOT_RELEASED,    /* released: it did not (the lock was no longer the client's, ...) */
    HO_GAVE_UP,         /* acquire_failed: the wait ran out, or the protocol gave up */
    HO_REENTRY_FAILED,  /* acquire_failed: a holder's re-entrant acquire failed */
    HO_COUNT
} hist_outcome;
const char *hist_outcome_name(int o); /* "released", "not_released", "gave_up", "reentry_failed" */
int hist_outcome_find(const char *name); /* -1 if none */

/* What a protocol model says of its lock (lock_unit: hist_event.code; ctx:lock_unit). The
 * lock is a server object, or the objects under a prefix (text: the name, as the key events
 * of its kind name it); a re-entrant acquire adds a hold to the one the workload's
 * `acquired` began, an inner release undoes one. */
typedef enum hist_unit {
    HU_KEY,            /* the lock is the object `text` (a Redis key, a row, a document) */
    HU_PREFIX,         /* ... every object whose name starts with `text` (a znode's children,
                        * an etcd key prefix, a table's rows) */
    HU_REENTERED,      /* the holder took the lock again: one more hold to undo */
    HU_INNER_RELEASED, /* it undid one hold, and holds the lock still */
    HU_COUNT
} hist_unit;
const char *hist_unit_name(int u);  /* "key", "prefix", "reentered", "inner_released" */
int hist_unit_find(const char *name); /* -1 if none */

/* Why a node's whole data was replaced (keyspace: hist_event.code). */
typedef enum hist_keyspace { HK_RESTART, HK_RESYNC } hist_keyspace;

/* One unit of a node's data as a keyspace event carries it (hist_event.units), from the
 * server's own store (server_kind.units), never from a dump's text: its name (bytes), its
 * type as the kind names it ("string", "znode", "key", "lease", ...), its expiry deadline
 * in the node's local ms (-1: none), and its value as the kind shows it to people. */
typedef struct hist_unitrec {
    char *name;
    size_t nlen;
    char *type;
    int64_t deadline_ms;
    char *value;
    size_t vlen;
} hist_unitrec;

/* The properties a run is judged on, by name: a scenario's `expect` and the matrix's
 * `properties` name them; model/properties.c holds the table of their monitors. */
typedef enum property {
    PROP_MUTUAL_EXCLUSION,
    PROP_RESOURCE_SAFETY,
    PROP_RELEASE_SAFETY,
    PROP_NO_DEADLOCK,
    PROP_FAIRNESS,
    PROP_REENTRANCY,
    PROP_COUNT
} property;
extern const char *const property_names[PROP_COUNT]; /* "mutual_exclusion", ... */

typedef enum hist_kind {
    H_START,          /* a client process starts */
    H_REQUEST,        /* a client sends a command or script (text: what, a: request id) */
    H_EXEC,           /* a node runs a request (text: what, reply: the reply) */
    H_CALL,           /* verbose: a redis.call inside a script (text: argv, reply; cmd: argv[0];
                       * label: the channel of the pub/sub messages it sent, if it sent any) */
    H_REPLY,          /* the reply reaches the client (reply) */
    H_TIMEOUT,        /* the client gave up waiting for a reply */
    H_DROP,           /* a message was lost (msg: which kind, code: hist_loss, label: the message) */
    H_PUBLISH,        /* a pub/sub message reaches a subscriber (text: channel, reply: msg) */
    H_ACQUIRE,        /* a lock attempt starts */
    H_ACQUIRED,       /* ... succeeds (a: token or -1) */
    H_ACQUIRE_FAILED, /* ... gives up */
    H_RELEASE,        /* a release starts */
    H_RELEASED,       /* ... ends (code: its hist_outcome; text: the workload's words) */
    H_CS_ENTER,       /* the client enters its critical section (a: token) */
    H_CS_EXIT,
    H_WRITE,          /* a write to the shared resource (a: token, b: 1 accepted / 0 rejected) */
    H_KEY_SET,        /* a key changed on a node (text: key, reply: new value brief, deadline) */
    H_KEY_DELETED,    /* deleted by a command */
    H_KEY_EXPIRED,    /* expired on a node */
    H_FAULT,          /* a fault starts (fault, fault_id, param_ms, rate; text: its description) */
    H_FAULT_END,      /* ... ends (fault, fault_id) */
    H_NODE_DOWN,
    H_NODE_UP,        /* code: 1 its persistence kept its data, 0 it restarted empty */
    H_PROMOTED,       /* a replica became master (peer: old master) */
    H_LOG,            /* ctx:log from a client model */
    H_ERROR,          /* a client model raised an error (text: message with traceback) */
    H_END,            /* a client process finished its workload */
    H_DEMOTED,        /* a former master, reachable again, became a replica (peer: new master) */
    H_KEYSPACE,       /* a node's whole data replaced (restart, full resync): text: why, reply:
                       * every key, one per line, in the canonical absolute dump form (for
                       * people); units: the same keys as records, what readers read */
    H_LOCK_UNIT,      /* a client's model says what its lock is, or what it did to its holds
                       * (code: hist_unit; text: the object or prefix) */
    H_KIND_COUNT
} hist_kind;

typedef struct hist_event {
    int64_t t_us;    /* true time */
    hist_kind kind;
    int actor;       /* index into the actor names; -1 for the world */
    int64_t local_ms; /* the actor's local clock */
    int peer;        /* the other actor or -1 */
    int64_t a, b;    /* numeric details, per kind */
    char *text;      /* owned, may be NULL */
    char *reply;     /* owned brief rendering of a reply, may be NULL */
    int64_t deadline_ms; /* key_set: the key's expiry deadline on the node's local clock; -1 none */
    /* the typed payload (-1 where a kind has none) */
    int fault;       /* fault, fault_end: its fault_kind */
    int fault_id;    /* fault, fault_end: which fault of the run (a fault and its end share it) */
    int64_t param_ms; /* fault: what FAULT_KINDS says (gc_pause, partition, drop, disk_stall:
                      * duration, -1 none; clock_jump: by; crash: restart delay, 0 none) */
    double rate;     /* fault: drift: its rate; drop: its probability */
    int64_t since_us; /* fault: drift: the true instant it began, -1 when at t_us (the explorer
                       * applies a drift that landed earlier in its target's gap at the
                       * instant that ends the gap) */
    int msg;         /* drop: the lost message's hist_msg */
    int code;        /* drop: hist_loss; node_up: kept data 1/0; keyspace: hist_keyspace;
                      * acquire_failed, released: hist_outcome; lock_unit: hist_unit */
    char *label;     /* drop: the lost message's label; call: the channel of the pub/sub
                      * messages it sent; request, exec, reply: the script it ran ("id@version",
                      * a model's file) (owned, may be NULL) */
    char *cmd;       /* call: the command's name, its first argument (owned, may be NULL) */
    hist_unitrec *units; /* keyspace: the node's data, in its dump's order (owned) */
    size_t nunits;
} hist_event;

typedef struct history history;

history *history_new(void);
void history_free(history *h);
void history_clear(history *h);
/* Actors are named once (clients and nodes); events refer to them by index. */
int history_add_actor(history *h, const char *name, int is_node);
const char *history_actor_name(const history *h, int actor);
/* An actor's clock as the run began (offset from the epoch, drift): with the drift and
 * clock_jump faults the history records, what its local clock read at any true time. */
void history_set_actor_clock(history *h, int actor, int64_t offset_ms, double drift);
int history_actor_is_node(const history *h, int actor);
size_t history_actors(const history *h);

/* Appends an event: t never goes back (true time is monotonic), kind and actor are valid. */
hist_event *history_add(history *h, int64_t t, hist_kind kind, int actor, int64_t local);
void history_set_text(hist_event *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends one unit of data to a keyspace event (the bytes are copied). */
void history_add_unit(hist_event *e, slice name, const char *type, int64_t deadline, slice value);
size_t history_len(const history *h);
/* Asserts what every reader of a history relies on, for every event: its kind, its actor and
 * peer, true time never going back, and its typed payload consistent with its kind (each
 * event is also checked when the next one is appended). Exits with status 3 if one fails. */
void history_check(const history *h);
const hist_event *history_at(const history *h, size_t i);
hist_event *history_at_mut(history *h, size_t i); /* for filling in details afterwards */
const char *hist_kind_name(hist_kind k);

/* The epoch of every local clock: 2023-11-14T22:13:20Z in ms. */
#define HISTORY_EPOCH_MS 1700000000000LL

/* The one rebuilding of an actor's local clock from a history (the judge's evidence and the
 * player page read clocks through it): its clock at the start, then after each instant at
 * which the history records a drift or clock_jump fault on it (all the faults of that
 * instant applied, in the order they happened), up to true time `until` (µs). fn is called
 * with the clock at the start (first = 1) and after each such instant. */
typedef void (*history_clock_fn)(void *ud, const lclock *c, int first);
void history_clock_walk(const history *h, int actor, int64_t until, history_clock_fn fn, void *ud);
/* The actor's local clock (ms) at true time t. */
int64_t history_local_at(const history *h, int actor, int64_t t);

/* One JSON object per line, in event order. */
void history_write_jsonl(const history *h, buf *out);
/* One event as its JSON object (no newline), given its actor's and peer's names (peer NULL:
 * none) and the event kind's name: the one writer of the schema, for a run's history and for
 * `locklab serve`'s (whose events have kinds of their own: connect, protocol_error, ...). */
void history_write_event(buf *out, const hist_event *e, const char *ev, const char *actor_name, const char *peer_name);

/* The JSON string writer every JSON file locklab writes shares (docs/history.md, "Strings").
 * json_string appends s quoted: valid UTF-8 as it is, '"', '\\', control characters and DEL
 * escaped, each maximal ill-formed subpart as \ufffd. json_field appends "name":"s" and, when
 * s is not valid UTF-8, ,"name_b64":"<its exact bytes in base64>". */
int json_utf8_valid(const char *s);
/* The length of the well-formed UTF-8 sequence at s (1 to 4; 1 for ASCII and for the NUL),
 * or 0 when s starts an ill-formed one, with *bad = the bytes of its maximal subpart. */
size_t utf8_seq(const char *s, size_t *bad);
void json_string(buf *out, const char *s);
void json_field(buf *out, const char *name, const char *s);

#endif
