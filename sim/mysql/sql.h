/* sql.h — the SQL statements the fake MySQL understands, parsed into a struct.
 *
 * A small, documented subset of MySQL's grammar (sim/mysql/README.md lists it whole), enough
 * for the two lock designs of the comparison table and their differential test:
 *
 *   CREATE TABLE [IF NOT EXISTS] t (col INT|BIGINT|VARCHAR(n)|CHAR(n) [NOT NULL|NULL]
 *       [DEFAULT v] [PRIMARY KEY|UNIQUE [KEY]], ..., PRIMARY KEY (c, ...),
 *       UNIQUE [KEY|INDEX] [name] (c, ...))
 *   DROP TABLE [IF EXISTS] t
 *   INSERT INTO t [(c, ...)] VALUES (v, ...)[, (v, ...)]...
 *   DELETE FROM t [WHERE c = v [AND c = v]...]
 *   UPDATE t SET c = v[, c = v]... [WHERE ...]
 *   SELECT e [[AS] alias], ... [FROM t [WHERE ...]]
 *       e: *, a column, a literal, or GET_LOCK(s, n), RELEASE_LOCK(s), IS_FREE_LOCK(s),
 *          IS_USED_LOCK(s), RELEASE_ALL_LOCKS(), CONNECTION_ID()
 *
 * Values are integers, strings ('..' or "..", with '' and backslash escapes) and NULL.
 * Keywords, function names and column names are case-insensitive, as in MySQL. A statement
 * outside the subset is a syntax error (1064) naming, as MySQL does, the text from where
 * parsing stopped. */
#ifndef LOCKLAB_MYSQL_SQL_H
#define LOCKLAB_MYSQL_SQL_H

#include <stdint.h>

#include "util.h"

typedef enum mv_type { MV_NULL, MV_INT, MV_STR } mv_type;

/* A value: NULL, an integer or a byte string (s owned by whatever holds the value). */
typedef struct mval {
    mv_type t;
    int64_t i;
    char *s;
    size_t len;
} mval;

typedef enum mcol_type { COL_INT, COL_BIGINT, COL_VARCHAR, COL_CHAR } mcol_type;

typedef struct mcoldef {
    char *name;
    mcol_type type;
    int len;           /* VARCHAR(n), CHAR(n) */
    int notnull;
    int has_default;
    mval dflt;
} mcoldef;

#define MKEY_MAXCOLS 8
typedef struct mkeydef {
    char *name;        /* "PRIMARY" for the primary key */
    int primary;
    int ncols;
    int cols[MKEY_MAXCOLS]; /* column indexes */
} mkeydef;

/* ST_EMPTY: a comment and nothing else (answered OK); empty text or a lone ';' is error 1065 */
typedef enum mst_kind { ST_CREATE, ST_DROP, ST_INSERT, ST_DELETE, ST_UPDATE, ST_SELECT, ST_EMPTY } mst_kind;

typedef enum mex_kind { EX_LIT, EX_COL, EX_STAR, EX_FUNC } mex_kind;

typedef struct mexpr {
    mex_kind kind;
    mval lit;          /* EX_LIT */
    char *name;        /* EX_COL: the column; EX_FUNC: the function, upper case */
    int nargs;
    mval args[2];      /* EX_FUNC: literal arguments */
    char *label;       /* the column's name in the result: the alias, or the text as written */
} mexpr;

typedef struct mcond {
    char *col;
    mval v;
    int colno;          /* the column of the statement's table it names (stmt.c resolves it) */
} mcond;

typedef struct mstmt {
    mst_kind kind;
    char *table;
    int if_flag;        /* IF NOT EXISTS (CREATE), IF EXISTS (DROP) */
    /* CREATE */
    int ncols;
    mcoldef *cols;
    int nkeys;
    mkeydef *keys;      /* the primary key first, then the unique keys in order */
    /* INSERT: the column list (nnames, or 0: all); UPDATE: the columns SET */
    int nnames;
    char **names;
    /* INSERT: nrows rows of rowlen values; UPDATE: one row, the values SET */
    int nrows, rowlen;
    mval *vals;
    /* WHERE */
    int nconds;
    mcond *conds;
    /* SELECT */
    int nexprs;
    mexpr *exprs;
    void *arena;        /* everything above is allocated here */
} mstmt;

/* Parses one statement (an optional trailing ';'). 0, or -1 with err filled: the MySQL
 * error number, its SQLSTATE and message (a syntax error, or a bad column definition). */
typedef struct msql_error {
    int code;
    char state[6];
    char msg[512];
} msql_error;

int sql_parse(const char *text, size_t len, mstmt *st, msql_error *err);
void sql_free(mstmt *st);

/* Compares two values as MySQL's default collation does for a key or a WHERE clause:
 * integers by value, strings ASCII case-insensitively with trailing spaces ignored (PAD
 * SPACE). 0 when equal. NULL equals nothing (returns nonzero). */
int mval_cmp(const mval *a, const mval *b);
/* Appends v as text: NULL, the integer, the string's bytes (quote: in single quotes). */
void mval_print(const mval *v, buf *out, int quote);
void mval_copy(mval *dst, const mval *src);
void mval_release(mval *v);

#endif
