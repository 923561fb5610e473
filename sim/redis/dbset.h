/* dbset.h — the server's 16 databases (SELECT, MOVE, SWAPDB, COPY ... DB, FLUSHALL): db[0]
 * is the keyspace the world sees (server.h's server_store); the others are made by their
 * first SELECT (or MOVE, COPY ... DB, SWAPDB) with db[0]'s clock and role, and start empty
 * after a restart or a resync. */
#ifndef LOCKLAB_REDIS_DBSET_H
#define LOCKLAB_REDIS_DBSET_H

#include "store.h"

#define DB_COUNT 16

typedef struct server server;

/* Each database's watch hook is told its index through hook[i]; `made` is called when a
 * database is made (the server wires its watch hook: server_tx.c's tx_watch_hook_update). */
typedef struct dbset {
    server *srv;
    store *db[DB_COUNT];
    struct dbhook { server *srv; int id; } hook[DB_COUNT];
    void (*made)(server *srv);
} dbset;

store *dbset_get(dbset *d, int id);             /* 0 <= id < DB_COUNT; made if need be */
store *dbset_peek(const dbset *d, int id);      /* NULL if never used */
/* SWAPDB: exchanges the keys of two databases, each reported to the stores' observers as
 * deleted from one and written to the other. */
void dbset_swap(dbset *d, int a, int b);

#endif
