/* server.h — one fake Redis 7.0 server process: a keyspace, pub/sub, the script engine and
 * a clock. Commands arrive from connections (the REPL's one, or the simulated clients'),
 * run atomically and produce one reply each. A node of the simulated world (node.h) wraps a
 * server with persistence, replication and up/down state. */
#ifndef LOCKLAB_SERVER_H
#define LOCKLAB_SERVER_H

#include "conn.h"
#include "pubsub.h"
#include "reply.h"
#include "script.h"
#include "store.h"

typedef struct server server;

/* What CLIENT LIST/INFO shows of a connection that only its host knows. */
typedef struct conn_peer {
    const char *addr, *laddr; /* "127.0.0.1:54321" */
    int fd;
    long long age, idle;      /* seconds since it connected, since its last command */
    unsigned long long qbuf, obl; /* bytes read and not yet run; of replies not yet written */
} conn_peer;

/* What the host (locklab serve) tells INFO and CLIENT that the server cannot know; NULL in
 * the REPL and the simulator, where one connection and default values stand in. */
typedef struct server_host {
    /* Appends "field:value\r\n" lines to an INFO section ("server", "clients", "stats",
     * "persistence", "replication"), after the server's own. */
    void (*info)(void *ud, const char *section, buf *out);
    /* Calls fn for each live connection, oldest first, with what the host knows of it. */
    void (*each_conn)(void *ud, void (*fn)(void *arg, const conn *c, const conn_peer *p), void *arg);
    /* Closes connection id once the reply being made is written (CLIENT KILL). */
    void (*kill)(void *ud, int conn_id);
    /* A CONFIG GET parameter's value where the host sets it (port, appendonly, ...), or NULL. */
    const char *(*config)(void *ud, const char *name);
    /* CONFIG SET of a parameter the host keeps and can change (port: it listens on the new
     * one, then closes the old; client-query-buffer-limit), its value already checked as
     * Redis checks it: 0 done, -1 not done, with Redis's apply error in *err (port: the new
     * port cannot be listened on). NULL: such a parameter is refused unless it is the value
     * in effect. */
    int (*config_set)(void *ud, const char *name, const char *value, const char **err);
    /* WAIT: how many replicas have acknowledged every write this server has taken (locklab
     * serve replicates at once: the replicas that are up). NULL: none. */
    long long (*replicas)(void *ud);
    /* CLIENT UNBLOCK: 1 if connection id waits in a blocking command, which then ends (as at its timeout, or with error UNBLOCKED) once the running command has. */
    int (*unblock)(void *ud, int conn_id, int error);
    /* CONFIG RESETSTAT: the host's INFO counters start again from 0 (Redis's
     * resetServerStats: total_connections_received, total_commands_processed, ...). */
    void (*reset_stats)(void *ud);
    /* DEBUG SLEEP: the server stops for us µs, answering no one (NULL: DEBUG SLEEP is refused) */
    void (*sleep)(void *ud, long long us);
    /* CLIENT PAUSE ms WRITE (type 1) or ALL (2), CLIENT UNPAUSE (type 0); NULL: refused */
    void (*pause)(void *ud, long long ms, int type);
} server_host;

typedef struct server_config {
    store_clock_fn clock;         /* local time in ms */
    void *clock_ud;
    store_clock_fn clock_us;      /* the same in µs (TIME), or NULL: the ms clock × 1000 */
    store_clock_fn elapsed_us;    /* how long a command takes (SLOWLOG, LATENCY), µs, same ud; NULL: no time (a simulated node) */
    int track_access;             /* stamp each key's last access (OBJECT IDLETIME): store.h */
    pubsub_deliver_fn deliver;    /* a message for a subscribed connection */
    void *deliver_ud;
    size_t lua_memory_limit;      /* bytes the Lua state may use; 0 = 64 MiB */
    uint64_t lua_instruction_limit; /* VM instructions one script may run; 0 = 500 million */
    script_trace_fn trace;        /* every redis.call of a script (script.h), or NULL */
    void *trace_ud;
    script_load_fn load;          /* compiles a script's body (script.h); NULL: Lua's loader */
    void *load_ud;
    const server_host *host;      /* locklab serve's, or NULL */
    void *host_ud;
    pubsub_push_fn push;          /* a pattern's or shard channel's message for a connection, or NULL */
    script_tick_fn script_tick;   /* a running script's periodic call (script.h), or NULL */
    void *script_tick_ud;
} server_config;

server *server_new(const server_config *cfg);
void server_free(server *srv);
store *server_store(server *srv);
/* Warms the cache for requests about to run on connection c, given the key each names
 * first (store_prefetch on c's database); nothing else happens. */
void server_prefetch(server *srv, const conn *c, const slice *keys, size_t n);
pubsub *server_pubsub(server *srv);
const server_config *server_config_of(const server *srv);

/* Runs one command for conn and fills *out (released first). argv[0] is the command name. */
void server_exec(server *srv, conn *c, int argc, const slice *argv, reply *out);
/* Refuses a command with the error `err` as Redis's rejectCommand does (the host's -BUSY):
 * an EXEC answers "EXECABORT Transaction discarded because of: <err>" and ends the
 * transaction; any other command of a connection in MULTI marks it for EXECABORT. */
void server_reject(server *srv, conn *c, int argc, const slice *argv, const char *err, reply *out);
/* Whether Redis 7.0 runs argv while a script is busy (past busy-reply-threshold): the
 * commands with its CMD_ALLOW_BUSY flag (processCommand; the JSON files of src/commands), AUTH, HELLO,
 * RESET, QUIT, SHUTDOWN, REPLCONF, MULTI, DISCARD, WATCH, UNWATCH, SCRIPT KILL, FUNCTION KILL
 * and FUNCTION STATS; every other command gets BUSY (server_reject). SCRIPT KILL and
 * FUNCTION KILL are the host's to answer (it knows the script it runs). */
int server_allow_busy(int argc, const slice *argv);
/* Whether a CLIENT PAUSE holds argv (Redis 7.0's processCommand): a known command with a
 * right arity, any under a pause ALL; under WRITE one that may write or replicate (its
 * flags; an EXEC of such queued commands; a script or function not declared no-writes). */
int server_pause_holds(server *srv, conn *c, int argc, const slice *argv, int write_only);
/* A connection is gone: forget its transaction and watched keys (MULTI, WATCH), if any.
 * Without the call they stay until the server is freed, harmless (ids are not reused). */
void server_conn_closed(server *srv, int conn_id);
/* The same with C strings, for tests and tools. */
void server_execv(server *srv, conn *c, reply *out, int argc, const char *const *argv);
/* Runs one redis.call as a script would (script.h's scripting_call); for tests. */
void server_call_from_script(server *srv, int argc, const slice *argv, reply *out);

/* Replaces the keyspace (a restart loading its persisted data, a replica's full resync) and
 * returns the old one, which the caller now owns (with no observer). The new store gets the
 * server's clock and its hooks (server_set_hooks). */
store *server_swap_store(server *srv, store *db);

/* Redis's active expiry over every database (store_active_expire on each, database 0
 * first); returns how many keys went; and the earliest deadline of any database (INT64_MAX:
 * none). The engine's expiry (server_next_deadline, server_expire_due) is these: every
 * database's keys expire at their deadlines, though only database 0 is persisted and
 * replicated (db.c). */
size_t server_active_expire(server *srv);
int64_t server_next_expiry(server *srv);

/* Read-only replicas refuse writes from clients (READONLY). */
void server_set_replica(server *srv, int replica);
int server_is_replica(const server *srv);
/* INFO's: the memory every database's keys take (store_bytes), maxmemory's measure; the
 * unix time the server started (LASTSAVE, rdb_last_save_time); keys evicted past maxmemory */
size_t server_used_memory(server *srv);
long long server_started_s(const server *srv);
long long server_evicted_keys(const server *srv);
/* Past maxmemory, evicts by its policy now (CONFIG SET maxmemory, as Redis's updateMaxmemory) */
void server_evict(server *srv);
/* CLIENT PAUSE's: no key expires while held (they read as missing); INFO's expired_keys */
void server_hold_expiry(server *srv, int on);
long long server_expired_keys(const server *srv);
/* INFO's rdb_changes_since_last_save: keys written or deleted since the start (it never saves) */
long long server_changes(const server *srv);

/* A connection's name (CLIENT SETNAME, HELLO SETNAME), "" if none; set it (NULL: none). */
const char *server_conn_name(const server *srv, int conn_id);
void server_conn_setname(server *srv, int conn_id, const char *name, size_t len);
/* What the last request (server_exec) touched beyond the keys it reported through the hooks
 * and the clock readings it noted: FP_* of cmdctx.h, 0 for none. A request whose footprint
 * is 0 and that reported no change changed nothing at all, and commutes with any other such
 * request (the model checker's reductions). Derived from what ran — every command, a
 * script's calls included, by its flags in Redis's table; every draw from a generator — not
 * from a list of command names. */
unsigned server_footprint(const server *srv);
/* The commands a connection has queued in MULTI, or -1 outside one (CLIENT LIST's multi=). */
int server_conn_multi(const server *srv, int conn_id);
/* CONFIG SET's remembered values (connection.c), NULL where none was set. */
const char *server_config_get(const server *srv, const char *name);
/* Keyspace notifications' classes (Redis 7.0's NOTIFY_*, in the order of the characters
 * "g$lshzxetd", then K and E), as CONFIG SET notify-keyspace-events gives them. */
enum {
    NOTIFY_GENERIC = 1 << 0, NOTIFY_STRING = 1 << 1, NOTIFY_LIST = 1 << 2, NOTIFY_SET = 1 << 3,
    NOTIFY_HASH = 1 << 4, NOTIFY_ZSET = 1 << 5, NOTIFY_EXPIRED = 1 << 6, NOTIFY_EVICTED = 1 << 7,
    NOTIFY_STREAM = 1 << 8, NOTIFY_MODULE = 1 << 9, NOTIFY_KEYSPACE = 1 << 10, NOTIFY_KEYEVENT = 1 << 11,
    NOTIFY_ALL = (1 << 10) - 1,
    NOTIFY_NEW = 1 << 12, /* n: a key made (Redis's dbAdd); not in A */
};
void server_config_set(server *srv, const char *name, const char *value);
/* INFO commandstats' lines ("cmdstat_get:calls=...") and, with latency set, latencystats'
 * ("latency_percentiles_usec_get:..."), appended to out: each command run, refused or
 * failed through server_exec (and EXEC), by name ("config|get" for a container's
 * subcommand), in name order. */
void server_command_stats(const server *srv, int latency, buf *out);
/* INFO errorstats' lines ("errorstat_ERR:count=2"): the error replies of server_exec, by
 * their first word, in name order. */
void server_error_stats(const server *srv, buf *out);
/* CLIENT UNBLOCK ended a blocked command (argc, argv), as its timeout or with UNBLOCKED:
 * Redis 7.0 counts it failed (updateStatsOnUnblock), either way. */
void server_count_unblocked(server *srv, int argc, const slice *argv);
/* INFO stats' total_error_replies: the error replies counted in errorstats, all together. */
long long server_total_error_replies(const server *srv);
/* CONFIG RESETSTAT: the commandstats, errorstats and total_error_replies start again from
 * nothing, and the host's counters (server_host's reset_stats). */
void server_reset_stats(server *srv);

/* ---- the server as a node of the simulated world sees it (server_data.c) ----
 *
 * What a host (sim/redis_kind.c) needs and nothing more: where its effects go, its
 * deadlines, one key's state and its copies for replication, whole copies of the data for
 * persistence, a canonical dump, and a client's connections ending. Only database 0 is the
 * world's: these read and write it alone. */

/* Where the server's effects go; kept across keyspace swaps (a load, a copy). Any may be
 * NULL. */
typedef struct server_hooks {
    store_observer_fn observer;                      /* a key written, deleted, expired */
    void *observer_ud;
    void (*clock_seen)(void *ud);                    /* store.h: a clock value leaves */
    store_deadline_set_fn deadline_set;              /* store.h: deadlines set and read */
    store_deadline_read_fn deadline_read;
    void *ud;                                        /* clock_seen's and the deadlines' */
} server_hooks;
void server_set_hooks(server *srv, const server_hooks *h);

int64_t server_next_deadline(server *srv);           /* INT64_MAX: none (every database) */
void server_expire_due(server *srv);                 /* the keys past their deadline go (every database) */

/* A key's value (obj_dump's form) and deadline (-1: none); 0 if it does not exist. */
int server_describe(server *srv, slice key, buf *out, int64_t *deadline);

/* One key's new state, or its deletion: captured on a master, applied on a replica. */
typedef struct server_change server_change;
server_change *server_capture(server *srv, slice key, int deleted);
void server_apply(server *srv, server_change *c);    /* takes its value */
void server_change_free(server_change *c);

/* A copy of the world's data (a snapshot: the last fsync), loaded again at a restart. */
typedef struct server_data server_data;
server_data *server_snapshot(server *srv);
void server_load(server *srv, const server_data *d);
void server_copy_data(server *dst, server *src);     /* dst's data becomes a copy of src's */
void server_data_free(server_data *d);
void server_dump(server *srv, buf *out);             /* canonical: absolute deadlines */

/* A client's connection is gone (a crash): its subscriptions, transaction and watched keys,
 * and its database (a new one starts in 0). */
void server_drop_conn(server *srv, conn *c);
/* conn stops listening on channel at once; 1 if it was. */
int server_unsubscribe(server *srv, conn *c, slice channel);

#endif
