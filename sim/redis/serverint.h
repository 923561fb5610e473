/* serverint.h — what server.c, server_tx.c, server_stats.c and notify.c share: the server's
 * struct and its parts (the connections' transactions, the databases, INFO's counters), and
 * the functions one of them calls in another. Not part of the door (server.h). */
#ifndef LOCKLAB_REDIS_SERVERINT_H
#define LOCKLAB_REDIS_SERVERINT_H

#include "commands.h"
#include "dbset.h"
#include "dict.h"
#include "server.h"

/* A key WATCHed by a connection: whether it existed then (an expiry before EXEC then
 * counts as a change, Redis 7.0's isWatchedKeyExpired). */
typedef struct watched {
    char *key;
    size_t len;
    int present;
    int db;
} watched;

/* One connection's transaction state: kept only while it is in MULTI or watches keys. */
typedef struct txstate {
    int conn_id;
    int in_multi;
    int abort;       /* a command was refused while queueing: EXEC answers EXECABORT */
    int dirty;       /* a watched key changed: EXEC answers a null array */
    struct queued { int argc; slice *argv; } *queue;
    size_t nqueue, capqueue;
    watched *keys;
    size_t nkeys, capkeys;
} txstate;

/* One command's INFO commandstats counters (Redis 7.0's calls, rejected_calls,
 * failed_calls). container: 0 not yet known, 1 a container (its subcommands are counted
 * in substats), -1 not one. */
typedef struct cmdstat {
    long long calls, rejected, failed;
    int container;
} cmdstat;

struct server {
    server_config cfg;
    server_hooks hooks;        /* where the effects go (server_data.c); every store of db 0 gets them */
    store *db;       /* == dbs.db[0] */
    dbset dbs;
    uint64_t rng;    /* cmd_rand's state */
    unsigned footprint; /* the last request's (server_footprint): FP_* of cmdctx.h */
    pubsub *ps;
    scripting *lua;
    int replica;
    txstate **tx;    /* the connections in MULTI or watching keys */
    size_t ntx, captx;
    size_t nwatching; /* of them, those watching keys: the store's watch hook is on while > 0 */
    dict *names;      /* conn id (as bytes) -> char *: CLIENT SETNAME; made on first use */
    dict *config;     /* parameter -> char *: CONFIG SET's values; made on first use */
    enc_limits lim;   /* the encodings' limits, CONFIG SET's values of their parameters */
    cmdstat *stats;   /* INFO commandstats, by command table index; made on first use */
    dict *substats;   /* a container's subcommands: "config|get" -> cmdstat; made on first use */
    dict *errstats;   /* INFO errorstats: an error's first word -> long long; made on first use */
    long long nerrors; /* INFO stats' total_error_replies: every error counted in errstats */
    int notify;       /* notify-keyspace-events' NOTIFY_* flags (server.h); 0: none */
    /* The keys a command wrote or deleted, gathered by the watch hook while notify is on,
     * published after the command (notify_flush) */
    struct pending_key { int db; int deleted; char *key; size_t len; int added; } *pending;
    size_t npending, cappending;
    struct tracking *trk; /* CLIENT TRACKING's state (tracking.c) */
    int active_expire_off; /* DEBUG SET-ACTIVE-EXPIRE 0: keys go only when a command finds them expired */
    int expiry_held;       /* CLIENT PAUSE: no key expires (server_hold_expiry) */
    long long evicted;     /* keys evicted past maxmemory (INFO's evicted_keys) */
    long long maxmemory, min_replicas; /* CONFIG SET's maxmemory (bytes), min-replicas-to-write */
    int64_t started_ms;    /* the clock when it was made (LASTSAVE) */
    /* SLOWLOG (slowlog.c): newest first; the settings' values, kept as numbers */
    struct slowentry *slow;
    size_t nslow, capslow;
    long long slowlog_next_id, slowlog_slower, slowlog_max_len;
    /* LATENCY (latency.c): latency-monitor-threshold (ms), latency-tracking */
    struct latency *lat;
    long long latency_threshold;
    int latency_tracking;
};

/* debug.c's: DEBUG SET-ACTIVE-EXPIRE */
void server_set_active_expire(server *srv, int on);
/* slowlog.c */
void slowlog_push(server *srv, const conn *c, int argc, const slice *argv, long long duration_us);
void slowlog_configure(server *srv, const char *name, const char *value);
void slowlog_free(server *srv);
/* latency.c */
void latency_command(server *srv, const command *cmd, int argc, const slice *argv, long long us);
void latency_add_sample(server *srv, const char *event, long long ms);
void latency_reset_histograms(server *srv);
void latency_free(server *srv);

/* server.c: the command path */
int server_check_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out);
void server_run_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out);

/* server_limits.c: maxmemory and min-replicas-to-write */
int server_limits_refuse(server *srv, conn *c, const command *cmd, int argc, const slice *argv, txstate *t, reply *out);
int server_function_writes(const command *cmd, int argc, const slice *argv);

/* server_tx.c: transactions and the store's watch hook */
txstate *tx_find(server *srv, int conn_id);
void tx_free(txstate *t);
void tx_watch_hook_update(server *srv);
void tx_flush_touch_watched(server *srv, int only);
void tx_queue(txstate *t, int argc, const slice *argv);
void tx_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out);
void tx_reject_command(server *srv, conn *c, const command *cmd, txstate *t, reply *out);

/* server_stats.c: INFO commandstats and errorstats */
/* how a command's run counts: a call; refused before it ran; a blocked command run again
 * by its host (not a call: Redis counts one when it blocks; served with an error, it
 * failed); a call that sent an error to another connection (CLIENT UNBLOCK ... ERROR:
 * Redis counts the error while that call runs, and so the call as failed) */
enum { STAT_CALL, STAT_REJECTED, STAT_RETRY, STAT_CALL_FAILED };
void server_stats_count(server *srv, const command *cmd, int argc, const slice *argv, const reply *out, int how);
void server_stats_error(server *srv, const char *err);
void server_stats_failed(server *srv, const command *cmd, int argc, const slice *argv, long long n);

/* notify.c: keyspace notifications */
void notify_publish(server *srv, int db, int cls, const char *event, slice key);
void notify_flush(server *srv, const command *cmd, int argc, const slice *argv, int dbid);

#endif
