/* pg.h — one fake PostgreSQL server, for its advisory locks: the session-level and
 * transaction-level exclusive advisory lock functions, transaction blocks (BEGIN, COMMIT,
 * ROLLBACK), and, when asked, a PgBouncer in front of it in transaction pooling mode. Its
 * answers (values, command tags, warnings, SQLSTATEs and the first line of error texts) are
 * PostgreSQL 15's (Debian's postgresql-15), checked by tests/diff/postgresql/.
 *
 * Advisory locks are not data: they live in the server's shared memory, belong to the
 * backend (the session) that took them, die with it and with the server, and are never
 * WAL-logged, so neither persisted nor replicated (PostgreSQL 15 documentation, 13.3.5
 * "Advisory Locks", and 27.4.3 "Hot Standby": "advisory locks are never WAL logged"). The
 * fake has no tables: there is nothing else to copy. */
#ifndef LOCKLAB_PG_H
#define LOCKLAB_PG_H

#include <stdint.h>

#include "pg_reply.h"
#include "util.h"

typedef struct pgserver pgserver;

/* nclients clients; client c's own backend has pid conn_base + c + 1. pool > 0: the clients
 * reach the server through a PgBouncer with pool_mode = transaction and default_pool_size =
 * pool, whose server connections (backends) have pids 1001, 1002, ... clock: the server's
 * local time in ms, for its waits' timeouts; NULL: the server cannot wait, and a lock that
 * would wait is the error 0A000 instead (`locklab kind`, one statement at a time). */
pgserver *pg_new(int nclients, int conn_base, int pool, int64_t (*clock)(void *), void *clock_ud);
void pg_free(pgserver *s);
/* Runs client's statement: 0, answered in r; 1, it waits for a lock (r left empty): its
 * answer comes later through pg_answer, after the pg_exec, pg_disconnect or pg_wait_timeout
 * that ends the wait. A client whose statement waits gets an error for another one. */
int pg_exec(pgserver *s, int client, const char *sql, size_t len, pgreply *r);
/* The oldest answer to a wait not yet taken: 1 with its client and reply (the caller's to
 * release), 0 none. */
int pg_answer(pgserver *s, int *client, pgreply *r);
/* Waits' timers, on the clock: ms from now to client's wait's next (0: none); that time came:
 * 1, the wait ends with the error in r (lock_timeout 55P03, statement_timeout 57014, a
 * deadlock found at deadlock_timeout 40P01); 0, it goes on, its next timer after *again_ms. */
int64_t pg_wait_timer(pgserver *s, int client);
int pg_wait_timeout(pgserver *s, int client, pgreply *r, int64_t *again_ms);
/* The client's connection closes: its session ends (its locks go to their waiters); 1 if it
 * was waiting (that wait is dropped, never answered). */
int pg_disconnect(pgserver *s, int client);

/* Whom to tell when an advisory lock is granted (a backend that held none of it takes it:
 * granted 1) or ends (its last hold goes: granted 0), as the lock (space 1: one bigint key;
 * 2: (k1 << 32) | (uint32) k2). waiter: the client whose waiting statement, handed a freed
 * lock, goes on and did this (its answer comes through pg_answer), else -1. */
typedef void (*pg_lock_fn)(void *ud, int granted, int waiter, int space, int64_t key);
void pg_observe(pgserver *s, pg_lock_fn fn, void *ud);

void pg_dump(pgserver *s, buf *out); /* the locks held, the pool's state, the waits in order, open transactions */

#endif
