/* pg_reply.h — what the fake PostgreSQL answers a statement (pg.h): a command tag, one row of
 * values, or an error with its SQLSTATE; and the warnings the statement raised. */
#ifndef LOCKLAB_PG_REPLY_H
#define LOCKLAB_PG_REPLY_H

#include <stdint.h>

#include "util.h"

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

/* r becomes an error (SQLSTATE `state`, the message), keeping its warnings. */
void pg_reply_error(pgreply *r, const char *state, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pg_reply_release(pgreply *r);
/* The reply in one line, as `locklab kind` and the differential tests print it. */
void pg_reply_brief(const pgreply *r, buf *out);

#endif
