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

#include "util.h"

typedef struct pgserver pgserver;

typedef enum pgreply_type { PG_CMD, PG_ROWS, PG_ERR } pgreply_type;
typedef enum pgval_type { PV_NULL, PV_BOOL, PV_INT, PV_VOID } pgval_type;

typedef struct pgval {
    pgval_type t;
    int64_t i; /* a boolean's 0/1, an integer */
} pgval;

/* A reply: a command tag ("BEGIN"), one row of values (a SELECT of functions), or an error
 * (SQLSTATE and the message's first line); any WARNINGs the statement raised, in order. */
typedef struct pgreply {
    pgreply_type type;
    char tag[20];
    char state[6];
    char *msg;
    int ncols;
    char **labels;
    pgval *cells;      /* one row of ncols */
    char *warnings;    /* "w1\nw2" or NULL */
} pgreply;

/* nclients clients; client c's own backend has pid conn_base + c + 1. pool > 0: the clients
 * reach the server through a PgBouncer with pool_mode = transaction and default_pool_size =
 * pool, whose server connections (backends) have pids 1001, 1002, ... */
pgserver *pg_new(int nclients, int conn_base, int pool);
void pg_free(pgserver *s);
void pg_exec(pgserver *s, int client, const char *sql, size_t len, pgreply *r);
void pg_disconnect(pgserver *s, int client); /* the client's connection closes */

void pg_reply_error(pgreply *r, const char *state, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pg_reply_release(pgreply *r);
void pg_reply_brief(const pgreply *r, buf *out);
void pg_dump(pgserver *s, buf *out); /* the locks held, then the pool's state */

#endif
