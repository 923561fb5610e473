/* pgint.h — what the fake PostgreSQL's two files share (pg.c runs statements, pg_sql.c reads
 * them): the statement subset as parsed, its limits and the timeouts' bounds. Not an API. */
#ifndef LOCKLAB_PGINT_H
#define LOCKLAB_PGINT_H

#include "pg.h"

#define MAX_ITEMS 32
#define MAX_ARGS 4
#define DEADLOCK_TIMEOUT_MS 1000 /* deadlock_timeout's default, 1 s */
#define TIMEOUT_MAX_MS 2147483647

typedef enum arg_type { A_NULL, A_INTEGER, A_BIGINT, A_NUMERIC, A_STR } arg_type;

typedef struct arg {
    arg_type t;
    int64_t i;
    const char *p; /* A_STR: the literal's text, quotes included */
    size_t len;
} arg;

typedef enum fn_id { F_LOCK, F_TRY, F_XLOCK, F_XTRY, F_UNLOCK, F_UNLOCK_ALL, F_PID, F_LITERAL, F_UNKNOWN } fn_id;

typedef struct item {
    fn_id f;
    char name[64];
    int nargs;
    arg args[MAX_ARGS];
    char label[64];
} item;

typedef enum stmt_kind { S_BEGIN, S_START, S_COMMIT, S_ROLLBACK, S_SELECT, S_SET } stmt_kind;

typedef enum setting { SET_LOCK_TIMEOUT, SET_STATEMENT_TIMEOUT, SET_DEADLOCK_TIMEOUT } setting;

typedef struct stmt {
    stmt_kind k;
    int nitems;
    item items[MAX_ITEMS];
    setting set;       /* S_SET: which, and its value in ms */
    int64_t set_ms;
} stmt;

/* sql (len bytes) as one statement of the subset: 0, or -1 with the error in r. */
int pg_parse(const char *sql, size_t len, stmt *st, pgreply *r);
/* A SELECT item's signature and quoted arguments checked, as PostgreSQL's analysis does before
 * anything runs: 0, or -1 with the error in r. */
int pg_check_item(item *it, pgreply *r);

#endif
