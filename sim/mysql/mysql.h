/* mysql.h — one fake MySQL server: tables with a primary key and unique keys, the SQL
 * subset of sql.h run one statement at a time (autocommit), and the session-bound
 * user-level locks GET_LOCK / RELEASE_LOCK. Its answers (values, affected rows, error
 * numbers, SQLSTATEs and texts) are MariaDB 10.11's, checked by tests/diff/mysql/.
 *
 * Data is tables of rows; each row has a hidden row id (as InnoDB's DB_ROW_ID), which names
 * it as a unit of data: "t" is table t's definition, "t/7" its row 7. Every change to a
 * table or a row is reported through the `changed` callback, after it happened. The
 * user-level locks are not data: they belong to connections, die with them and with the
 * server, and are neither persisted nor replicated (MySQL's binary log does not carry
 * them). */
#ifndef LOCKLAB_MYSQL_H
#define LOCKLAB_MYSQL_H

#include "sql.h"

typedef struct mydb mydb;
typedef struct myserver myserver;
typedef struct mychange mychange;

typedef enum myreply_type { MY_OK, MY_ROWS, MY_ERR } myreply_type;

/* A reply: OK with the affected rows, a result set, or an error (code, SQLSTATE, text). */
typedef struct myreply {
    myreply_type type;
    int64_t affected;
    int code;
    char state[6];
    char *msg;
    int ncols, nrows;
    char **labels;     /* ncols column names */
    mval *cells;       /* nrows × ncols */
} myreply;

typedef void (*my_changed_fn)(void *ud, int deleted, slice unit);

/* conn_base: connection c's CONNECTION_ID() is conn_base + c + 1. */
myserver *my_new(my_changed_fn changed, void *ud, int nconns, int conn_base);
void my_free(myserver *s);
void my_set_readonly(myserver *s, int ro);
void my_exec(myserver *s, int conn, const char *sql, size_t len, myreply *r);
void my_disconnect(myserver *s, int conn); /* its user-level locks are released */

void my_reply_error(myreply *r, int code, const char *state, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void my_reply_release(myreply *r);
void my_reply_brief(const myreply *r, buf *out);

/* Data copies: the tables (not the locks). */
mydb *my_db_clone(const mydb *d);
void my_db_free(mydb *d);
const mydb *my_db(const myserver *s);
void my_set_db(myserver *s, mydb *d);            /* takes d; the old data is freed */
int my_describe(myserver *s, slice unit, buf *out);
mychange *my_capture(myserver *s, slice unit, int deleted);
void my_apply(myserver *s, const mychange *c);   /* as a replica: no checks, no events */
void my_change_free(mychange *c);
void my_dump(myserver *s, buf *out);             /* tables, rows, then the locks held */

#endif
