/* mysqlint.h — what the fake MySQL's files share inside sim/mysql/: the data structures
 * and the table, row and lock helpers of mysql.c that stmt.c's statements use. */
#ifndef LOCKLAB_MYSQLINT_H
#define LOCKLAB_MYSQLINT_H

#include "mysql.h"

#define DB_NAME "locklab"

typedef struct mrow {
    int64_t id;
    mval *v;
} mrow;

typedef struct mtable {
    char *name;
    int ncols;
    mcoldef *cols;
    int nkeys;
    mkeydef *keys;
    int nrows, cap;
    mrow *rows;        /* by id */
} mtable;

struct mydb {
    int ntables;
    mtable **tables;   /* by name */
    int64_t next_id;
};

typedef struct mlock {
    char *name;
    int owner;
    int count;
} mlock;

struct myserver {
    mydb *db;
    mlock *locks;
    int nlocks;
    int readonly;
    int nconns, conn_base;
    my_changed_fn changed;
    void *ud;
};

struct mychange {
    int deleted;
    mtable *def;       /* the table's definition (no rows), so a change stands on its own */
    int64_t id;        /* a row's id, or 0: the table itself */
    mval *v;
};

mtable *my_table_clone(const mtable *t, int with_rows);
void my_table_free(mtable *t);
mtable *my_find_table(const mydb *d, const char *name, size_t len);
void my_put_table(mydb *d, mtable *t);
void my_drop_table(mydb *d, const char *name);
int my_row_pos(const mtable *t, int64_t id, int *found);
void my_put_row(mtable *t, int64_t id, mval *v);
void my_remove_row(mtable *t, int i);
void my_report(myserver *s, const mtable *t, int64_t id, int deleted);
int my_check_func(const mexpr *e, myreply *r);
mval my_call_func(myserver *s, int conn, const mexpr *e);
mval my_int_val(int64_t i);

#endif
