/* stmt.c — the fake MySQL's statements: CREATE TABLE, DROP TABLE, INSERT, DELETE, UPDATE
 * and SELECT over mysql.c's tables, each atomic: every check is made before anything
 * changes, so a failed statement leaves no trace (as InnoDB's statement rollback). */
#include "mysqlint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int col_of(const mtable *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (!strcasecmp(t->cols[i].name, name)) return i;
    return -1;
}

static int no_table(mstmt *st, myreply *r)
{
    my_reply_error(r, 1146, "42S02", "Table '" DB_NAME ".%s' doesn't exist", st->table);
    return -1;
}

/* Resolves the WHERE columns into the conditions (any number of them: MariaDB sets no
 * limit); -1 with the error. */
static int resolve_where(const mtable *t, mstmt *st, myreply *r)
{
    for (int i = 0; i < st->nconds; i++) {
        st->conds[i].colno = col_of(t, st->conds[i].col);
        if (st->conds[i].colno < 0) {
            my_reply_error(r, 1054, "42S22", "Unknown column '%s' in 'WHERE'", st->conds[i].col);
            return -1;
        }
    }
    return 0;
}

static int matches(const mrow *row, const mstmt *st)
{
    for (int i = 0; i < st->nconds; i++)
        if (mval_cmp(&row->v[st->conds[i].colno], &st->conds[i].v) != 0) return 0;
    return 1;
}

/* v converted for column c of t in strict mode (at row `at`, for messages); -1 with the
 * error. out is owned by the caller afterwards. */
static int coerce(const mtable *t, int c, const mval *v, int at, mval *out, myreply *r)
{
    const mcoldef *cd = &t->cols[c];
    memset(out, 0, sizeof *out);
    if (v->t == MV_NULL) {
        if (cd->notnull) {
            my_reply_error(r, 1048, "23000", "Column '%s' cannot be null", cd->name);
            return -1;
        }
        return 0;
    }
    if (cd->type == COL_INT || cd->type == COL_BIGINT) {
        int64_t i = v->i;
        if (v->t == MV_STR) {
            char *end;
            const char *p = v->s;
            i = strtoll(p, &end, 10);
            while (*end == ' ') end++;
            if (end == p || *end || (size_t)(end - p) != v->len) {
                my_reply_error(r, 1366, "22007", "Incorrect integer value: '%s' for column `" DB_NAME "`.`%s`.`%s` at row %d",
                               v->s, t->name, cd->name, at);
                return -1;
            }
        }
        if (cd->type == COL_INT && (i > INT32_MAX || i < INT32_MIN)) {
            my_reply_error(r, 1264, "22003", "Out of range value for column '%s' at row %d", cd->name, at);
            return -1;
        }
        *out = my_int_val(i);
        return 0;
    }
    buf b;
    buf_init(&b);
    mval_print(v, &b, 0);
    size_t n = b.len;
    if (cd->type == COL_CHAR)
        while (n && b.p[n - 1] == ' ') n--; /* CHAR drops trailing spaces */
    if (n > (size_t)cd->len) {
        buf_release(&b);
        my_reply_error(r, 1406, "22001", "Data too long for column '%s' at row %d", cd->name, at);
        return -1;
    }
    out->t = MV_STR;
    out->s = xmemdup(b.p ? b.p : "", n);
    out->len = n;
    buf_release(&b);
    return 0;
}

/* Whether rows a and b collide on key k (no NULL in it, all columns equal). */
static int key_equal(const mkeydef *k, const mval *a, const mval *b)
{
    for (int i = 0; i < k->ncols; i++)
        if (mval_cmp(&a[k->cols[i]], &b[k->cols[i]]) != 0) return 0;
    return 1;
}

static void dup_error(const mkeydef *k, const mval *v, myreply *r)
{
    buf b;
    buf_init(&b);
    for (int i = 0; i < k->ncols; i++) {
        if (i) buf_putc(&b, '-');
        mval_print(&v[k->cols[i]], &b, 0);
    }
    my_reply_error(r, 1062, "23000", "Duplicate entry '%s' for key '%s'", b.p ? b.p : "", k->name);
    buf_release(&b);
}

static int is_write(const mstmt *st)
{
    return st->kind != ST_SELECT && st->kind != ST_EMPTY;
}


static int exec_create(myserver *s, mstmt *st, myreply *r)
{
    if (my_find_table(s->db, st->table, strlen(st->table))) {
        if (st->if_flag) return 0; /* a note, not an error */
        my_reply_error(r, 1050, "42S01", "Table '%s' already exists", st->table);
        return -1;
    }
    for (int i = 0; i < st->ncols; i++) {
        mcoldef *c = &st->cols[i];
        if (c->has_default && c->dflt.t == MV_NULL && c->notnull) {
            my_reply_error(r, 1067, "42000", "Invalid default value for '%s'", c->name);
            return -1;
        }
    }
    /* the statement's arena owns the definition: copy it into a table of its own */
    mtable def = { .name = st->table, .ncols = st->ncols, .cols = st->cols, .nkeys = st->nkeys, .keys = st->keys };
    mtable *t = my_table_clone(&def, 0);
    my_put_table(s->db, t);
    my_report(s, t, 0, 0);
    return 0;
}

static int exec_drop(myserver *s, mstmt *st, myreply *r)
{
    mtable *t = my_find_table(s->db, st->table, strlen(st->table));
    if (!t) {
        if (st->if_flag) return 0;
        my_reply_error(r, 1051, "42S02", "Unknown table '" DB_NAME ".%s'", st->table);
        return -1;
    }
    char *name = xstrdup(t->name);
    mtable gone = { .name = name };
    my_drop_table(s->db, name);
    my_report(s, &gone, 0, 1);
    free(name);
    return 0;
}

/* Whether new row v (not yet in t; the first `nnew` rows of `fresh` are also new) collides
 * with a row on some key: the first such key reported. skip: a row index of t not to
 * compare with (the row an UPDATE replaces), or -1. */
static int collides(const mtable *t, const mval *v, mval **fresh, int nnew, int skip, myreply *r)
{
    for (int k = 0; k < t->nkeys; k++) {
        const mkeydef *kd = &t->keys[k];
        int hit = 0;
        for (int i = 0; i < t->nrows && !hit; i++)
            if (i != skip && key_equal(kd, t->rows[i].v, v)) hit = 1;
        for (int i = 0; i < nnew && !hit; i++)
            if (fresh[i] && key_equal(kd, fresh[i], v)) hit = 1;
        if (hit) {
            dup_error(kd, v, r);
            return 1;
        }
    }
    return 0;
}

static void free_vals(const mtable *t, mval *v)
{
    if (!v) return;
    for (int i = 0; i < t->ncols; i++) mval_release(&v[i]);
    free(v);
}

static int exec_insert(myserver *s, mstmt *st, myreply *r)
{
    mtable *t = my_find_table(s->db, st->table, strlen(st->table));
    if (!t) return no_table(st, r);
    int map[64];
    int n = st->nnames ? st->nnames : t->ncols;
    if (n > 64) n = 64;
    for (int i = 0; i < n; i++) {
        map[i] = st->nnames ? col_of(t, st->names[i]) : i;
        if (map[i] < 0) {
            my_reply_error(r, 1054, "42S22", "Unknown column '%s' in 'INSERT INTO'", st->names[i]);
            return -1;
        }
    }
    if (st->rowlen != n) {
        my_reply_error(r, 1136, "21S01", "Column count doesn't match value count at row 1");
        return -1;
    }
    mval **rows = xcalloc((size_t)st->nrows, sizeof *rows);
    int rc = 0;
    for (int ri = 0; ri < st->nrows && !rc; ri++) {
        mval *v = rows[ri] = xcalloc((size_t)t->ncols, sizeof *v);
        int given[64] = { 0 };
        for (int i = 0; i < n && !rc; i++) {
            mval_release(&v[map[i]]);
            rc = coerce(t, map[i], &st->vals[ri * n + i], ri + 1, &v[map[i]], r);
            given[map[i]] = 1;
        }
        for (int c = 0; c < t->ncols && !rc; c++) {
            if (given[c]) continue;
            if (t->cols[c].has_default) mval_copy(&v[c], &t->cols[c].dflt);
            else if (t->cols[c].notnull) {
                my_reply_error(r, 1364, "HY000", "Field '%s' doesn't have a default value", t->cols[c].name);
                rc = -1;
            }
        }
        if (!rc && collides(t, v, rows, ri, -1, r)) rc = -1;
    }
    if (!rc) {
        for (int ri = 0; ri < st->nrows; ri++) {
            int64_t id = s->db->next_id++;
            my_put_row(t, id, rows[ri]);
            rows[ri] = NULL;
            my_report(s, t, id, 0);
        }
        r->affected = st->nrows;
    }
    for (int ri = 0; ri < st->nrows; ri++) free_vals(t, rows[ri]);
    free(rows);
    return rc;
}

static int exec_delete(myserver *s, mstmt *st, myreply *r)
{
    mtable *t = my_find_table(s->db, st->table, strlen(st->table));
    if (!t) return no_table(st, r);
    if (resolve_where(t, st, r)) return -1;
    for (int i = 0; i < t->nrows;) {
        if (!matches(&t->rows[i], st)) {
            i++;
            continue;
        }
        int64_t id = t->rows[i].id;
        my_remove_row(t, i);
        my_report(s, t, id, 1);
        r->affected++;
    }
    return 0;
}

static int same_bytes(const mval *a, const mval *b)
{
    if (a->t != b->t) return 0;
    if (a->t == MV_INT) return a->i == b->i;
    if (a->t == MV_STR) return a->len == b->len && !memcmp(a->s, b->s, a->len);
    return 1;
}

static int exec_update(myserver *s, mstmt *st, myreply *r)
{
    mtable *t = my_find_table(s->db, st->table, strlen(st->table));
    if (!t) return no_table(st, r);
    int *set = xcalloc((size_t)st->nnames + 1, sizeof *set); /* any number of them: no limit */
    for (int i = 0; i < st->nnames; i++) {
        set[i] = col_of(t, st->names[i]);
        if (set[i] < 0) {
            my_reply_error(r, 1054, "42S22", "Unknown column '%s' in 'SET'", st->names[i]);
            free(set);
            return -1;
        }
    }
    if (resolve_where(t, st, r)) {
        free(set);
        return -1;
    }
    /* the new state of every row (NULL: unchanged), checked as a whole before it lands */
    mval **now = xcalloc((size_t)t->nrows + 1, sizeof *now);
    int rc = 0, at = 0;
    for (int i = 0; i < t->nrows && !rc; i++) {
        if (!matches(&t->rows[i], st)) continue;
        at++;
        mval *v = xcalloc((size_t)t->ncols, sizeof *v);
        for (int c = 0; c < t->ncols; c++) mval_copy(&v[c], &t->rows[i].v[c]);
        for (int j = 0; j < st->nnames && !rc; j++) {
            mval nv;
            rc = coerce(t, set[j], &st->vals[j], at, &nv, r);
            if (!rc) {
                mval_release(&v[set[j]]);
                v[set[j]] = nv;
            }
        }
        if (rc) {
            free_vals(t, v);
            break;
        }
        int changed = 0;
        for (int c = 0; c < t->ncols; c++) changed |= !same_bytes(&v[c], &t->rows[i].v[c]);
        if (changed) now[i] = v;
        else free_vals(t, v);
    }
    /* keys: each changed row against every row's new state */
    for (int i = 0; i < t->nrows && !rc; i++) {
        if (!now[i]) continue;
        for (int k = 0; k < t->nkeys && !rc; k++)
            for (int j = 0; j < t->nrows && !rc; j++) {
                if (j == i) continue;
                const mval *o = now[j] ? now[j] : t->rows[j].v;
                if (key_equal(&t->keys[k], o, now[i])) {
                    dup_error(&t->keys[k], now[i], r);
                    rc = -1;
                }
            }
    }
    int n = t->nrows;
    for (int i = 0; i < n; i++) {
        if (!now[i]) continue;
        if (rc) {
            free_vals(t, now[i]);
            continue;
        }
        my_put_row(t, t->rows[i].id, now[i]);
        my_report(s, t, t->rows[i].id, 0);
        r->affected++;
    }
    free(now);
    free(set);
    return rc;
}

/* The order a SELECT returns rows in: the primary key's (InnoDB's clustered index). */
static const mtable *sort_table;
static int by_primary(const void *a, const void *b)
{
    const mrow *x = &sort_table->rows[*(const int *)a], *y = &sort_table->rows[*(const int *)b];
    const mkeydef *k = &sort_table->keys[0];
    for (int i = 0; i < k->ncols; i++) {
        int c = mval_cmp(&x->v[k->cols[i]], &y->v[k->cols[i]]);
        if (c) return c;
    }
    return x->id < y->id ? -1 : x->id > y->id;
}

static int exec_select(myserver *s, int conn, mstmt *st, myreply *r)
{
    mtable *t = NULL;
    if (st->table && !(t = my_find_table(s->db, st->table, strlen(st->table)))) return no_table(st, r);
    int ncols = 0;
    for (int i = 0; i < st->nexprs; i++) {
        mexpr *e = &st->exprs[i];
        if (e->kind == EX_STAR && !t) {
            my_reply_error(r, 1096, "HY000", "No tables used");
            return -1;
        }
        if (e->kind == EX_COL && (!t || col_of(t, e->name) < 0)) {
            my_reply_error(r, 1054, "42S22", "Unknown column '%s' in 'SELECT'", e->name);
            return -1;
        }
        if (e->kind == EX_FUNC && my_check_func(e, r)) return -1;
        ncols += e->kind == EX_STAR ? t->ncols : 1;
    }
    if (t && resolve_where(t, st, r)) return -1;
    int *order = xcalloc(t ? (size_t)t->nrows + 1 : 1, sizeof *order);
    int nrows = 0;
    if (t) {
        for (int i = 0; i < t->nrows; i++)
            if (matches(&t->rows[i], st)) order[nrows++] = i;
        if (t->nkeys && t->keys[0].primary) {
            sort_table = t;
            if (nrows > 1) qsort(order, (size_t)nrows, sizeof *order, by_primary);
        }
    } else {
        nrows = 1;
    }
    r->type = MY_ROWS;
    r->ncols = ncols;
    r->nrows = nrows;
    r->labels = xcalloc((size_t)ncols + 1, sizeof *r->labels);
    r->cells = xcalloc((size_t)(ncols * nrows) + 1, sizeof *r->cells);
    for (int i = 0, c = 0; i < st->nexprs; i++) {
        mexpr *e = &st->exprs[i];
        if (e->kind == EX_STAR)
            for (int j = 0; j < t->ncols; j++) r->labels[c++] = xstrdup(t->cols[j].name);
        else r->labels[c++] = xstrdup(e->label);
    }
    for (int ri = 0; ri < nrows; ri++) {
        mval *out = &r->cells[ri * ncols];
        const mrow *row = t ? &t->rows[order[ri]] : NULL;
        for (int i = 0; i < st->nexprs; i++) {
            mexpr *e = &st->exprs[i];
            switch (e->kind) {
            case EX_STAR:
                for (int j = 0; j < t->ncols; j++) mval_copy(out++, &row->v[j]);
                break;
            case EX_COL: mval_copy(out++, &row->v[col_of(t, e->name)]); break;
            case EX_LIT: mval_copy(out++, &e->lit); break;
            case EX_FUNC: *out++ = my_call_func(s, conn, e); break;
            }
        }
    }
    free(order);
    return 0;
}

void my_exec(myserver *s, int conn, const char *sql, size_t len, myreply *r)
{
    memset(r, 0, sizeof *r);
    mstmt st;
    msql_error err;
    if (sql_parse(sql, len, &st, &err) != 0) {
        my_reply_error(r, err.code, err.state, "%s", err.msg);
        return;
    }
    if (s->readonly && is_write(&st)) {
        my_reply_error(r, 1290, "HY000",
                       "The MariaDB server is running with the --read-only option so it cannot execute this statement");
        sql_free(&st);
        return;
    }
    int rc = 0;
    switch (st.kind) {
    case ST_CREATE: rc = exec_create(s, &st, r); break;
    case ST_DROP: rc = exec_drop(s, &st, r); break;
    case ST_INSERT: rc = exec_insert(s, &st, r); break;
    case ST_DELETE: rc = exec_delete(s, &st, r); break;
    case ST_UPDATE: rc = exec_update(s, &st, r); break;
    case ST_SELECT: rc = exec_select(s, conn, &st, r); break;
    case ST_EMPTY: break;
    }
    (void)rc;
    sql_free(&st);
}
