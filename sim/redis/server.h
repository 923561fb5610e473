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

typedef struct server_config {
    store_clock_fn clock;         /* local time in ms */
    void *clock_ud;
    pubsub_deliver_fn deliver;    /* a message for a subscribed connection */
    void *deliver_ud;
    size_t lua_memory_limit;      /* bytes the Lua state may use; 0 = 64 MiB */
    uint64_t lua_instruction_limit; /* VM instructions one script may run; 0 = 500 million */
    script_trace_fn trace;        /* every redis.call of a script (script.h), or NULL */
    void *trace_ud;
    script_load_fn load;          /* compiles a script's body (script.h); NULL: Lua's loader */
    void *load_ud;
} server_config;

server *server_new(const server_config *cfg);
void server_free(server *srv);
store *server_store(server *srv);
pubsub *server_pubsub(server *srv);
const server_config *server_config_of(const server *srv);

/* Runs one command for conn and fills *out (released first). argv[0] is the command name. */
void server_exec(server *srv, conn *c, int argc, const slice *argv, reply *out);
/* A connection is gone: forget its transaction and watched keys (MULTI, WATCH), if any.
 * Without the call they stay until the server is freed, harmless (ids are not reused). */
void server_conn_closed(server *srv, int conn_id);
/* The same with C strings, for tests and tools. */
void server_execv(server *srv, conn *c, reply *out, int argc, const char *const *argv);
/* Runs one redis.call as a script would (script.h's scripting_call); for tests. */
void server_call_from_script(server *srv, int argc, const slice *argv, reply *out);

/* Replaces the keyspace (a restart loading its persisted data, a replica's full resync) and
 * returns the old one, which the caller now owns. The new store gets the server's clock and
 * keeps no observer: set it again. */
store *server_swap_store(server *srv, store *db);

/* Redis's active expiry over every database (store_active_expire on each, database 0
 * first); returns how many keys went. The engine expires database 0 alone: the others are
 * not the world's (db.c). */
size_t server_active_expire(server *srv);

/* Read-only replicas refuse writes from clients (READONLY). */
void server_set_replica(server *srv, int replica);

#endif
