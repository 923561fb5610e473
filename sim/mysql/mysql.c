/* mysql.c — the fake MySQL server (mysql.h): tables, statements, user-level locks.
 *
 * Semantics, each checked against MariaDB 10.11 (Debian's mariadb-server) by
 * tests/diff/mysql/, and where MySQL 8.0 differs, said so:
 * - A statement is atomic (InnoDB rolls a failed statement back; autocommit). A multi-row
 *   INSERT that hits a duplicate inserts nothing.
 * - Keys: the primary key first, then each unique key in definition order; a row with a
 *   NULL in a unique key's columns never conflicts. The error is 1062 (23000)
 *   "Duplicate entry 'v' for key 'k'", the key columns' values joined with '-' (MySQL 8.0.19+
 *   names the key 'table.k').
 * - Strict mode (MariaDB's default sql_mode has STRICT_TRANS_TABLES): NULL into NOT NULL
 *   1048, a missing value without default 1364, too long a string 1406, an integer out of
 *   INT's range 1264, a non-integer string into an integer column 1366.
 * - Strings compare as the server's default collation does (latin1_swedish_ci with
 *   --no-defaults, utf8mb4_general_ci in Debian's configuration: both case-insensitive, PAD
 *   SPACE), for ASCII only here.
 * - UPDATE counts the rows it changed, not those it matched (the client protocol's default,
 *   without CLIENT_FOUND_ROWS). DELETE counts the rows it deleted.
 * - SELECT returns rows in primary-key order (InnoDB's clustered index); without a primary
 *   key, in insertion order (the real server may read through a covering index instead).
 * - GET_LOCK(name, timeout): 1 when this connection now holds it (again: a lock is counted,
 *   as in MySQL 5.7.5+ and MariaDB 10.0.2+, and is free only once released as many times);
 *   0 when another connection holds it — at once, where the real server waits up to
 *   `timeout` seconds first (this fake cannot defer a reply: the lock recipe polls with
 *   timeout 0). RELEASE_LOCK: 1 released once, 0 held by another connection, NULL held by
 *   nobody. IS_FREE_LOCK: 1 or 0. IS_USED_LOCK: the holder's connection id or NULL. All four
 *   give NULL for a NULL or empty name. RELEASE_ALL_LOCKS: how many acquisitions it released
 *   (re-entries count). A closed connection releases its locks. Lock names are
 *   case-sensitive in MariaDB 10.11 (its older documentation says otherwise; MySQL 8.0 folds
 *   case) and may be longer than 64 characters (MySQL 5.7.5+ refuses them, error 3057).
 *   Sources: dev.mysql.com/doc/refman/8.0/en/locking-functions.html,
 *   mariadb.com/kb/en/get_lock/.
 * - A read-only server (a replica) refuses writes with 1290, in MariaDB's words (MySQL's
 *   says "The MySQL server ...").
 * - 1054 "Unknown column" names where, in MariaDB 10.11's words: 'INSERT INTO', 'SET',
 *   'WHERE', 'SELECT' (MySQL 8.0 and older MariaDB say 'field list' and 'where clause').
 *   1064's text names "your MariaDB server version" (MySQL: "your MySQL server version"). */
#include "mysqlint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- replies ---- */

void my_reply_error(myreply *r, int code, const char *state, const char *fmt, ...)
{
    memset(r, 0, sizeof *r);
    r->type = MY_ERR;
    r->code = code;
    memcpy(r->state, state, 5);
    va_list ap;
    va_start(ap, fmt);
    r->msg = xvformat(fmt, ap);
    va_end(ap);
}

void my_reply_release(myreply *r)
{
    free(r->msg);
    for (int i = 0; i < r->ncols; i++) free(r->labels[i]);
    free(r->labels);
    for (int i = 0; i < r->ncols * r->nrows; i++) mval_release(&r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof *r);
}

void my_reply_brief(const myreply *r, buf *out)
{
    if (r->type == MY_ERR) {
        buf_printf(out, "ERROR %d (%s): %s", r->code, r->state, r->msg);
    } else if (r->type == MY_OK) {
        buf_printf(out, "OK, %lld row%s affected", (long long)r->affected, r->affected == 1 ? "" : "s");
    } else if (r->nrows == 0) {
        buf_puts(out, "Empty set");
    } else {
        for (int i = 0; i < r->nrows; i++) {
            if (i) buf_puts(out, "; ");
            for (int j = 0; j < r->ncols; j++) {
                if (j) buf_puts(out, " | ");
                mval_print(&r->cells[i * r->ncols + j], out, 0);
            }
        }
    }
}

/* ---- tables ---- */

static void row_free(mtable *t, mrow *r)
{
    for (int i = 0; i < t->ncols; i++) mval_release(&r->v[i]);
    free(r->v);
}

mtable *my_table_clone(const mtable *t, int with_rows)
{
    mtable *c = xcalloc(1, sizeof *c);
    c->name = xstrdup(t->name);
    c->ncols = t->ncols;
    c->cols = xcalloc((size_t)t->ncols, sizeof *c->cols);
    for (int i = 0; i < t->ncols; i++) {
        c->cols[i] = t->cols[i];
        c->cols[i].name = xstrdup(t->cols[i].name);
        mval_copy(&c->cols[i].dflt, &t->cols[i].dflt);
    }
    c->nkeys = t->nkeys;
    c->keys = xcalloc((size_t)t->nkeys + 1, sizeof *c->keys);
    for (int i = 0; i < t->nkeys; i++) {
        c->keys[i] = t->keys[i];
        c->keys[i].name = xstrdup(t->keys[i].name);
    }
    if (with_rows && t->nrows) {
        c->nrows = c->cap = t->nrows;
        c->rows = xcalloc((size_t)t->nrows, sizeof *c->rows);
        for (int r = 0; r < t->nrows; r++) {
            c->rows[r].id = t->rows[r].id;
            c->rows[r].v = xcalloc((size_t)t->ncols, sizeof(mval));
            for (int i = 0; i < t->ncols; i++) mval_copy(&c->rows[r].v[i], &t->rows[r].v[i]);
        }
    }
    return c;
}

void my_table_free(mtable *t)
{
    if (!t) return;
    for (int r = 0; r < t->nrows; r++) row_free(t, &t->rows[r]);
    free(t->rows);
    for (int i = 0; i < t->ncols; i++) {
        free(t->cols[i].name);
        mval_release(&t->cols[i].dflt);
    }
    free(t->cols);
    for (int i = 0; i < t->nkeys; i++) free(t->keys[i].name);
    free(t->keys);
    free(t->name);
    free(t);
}

mydb *my_db_clone(const mydb *d)
{
    mydb *c = xcalloc(1, sizeof *c);
    c->next_id = d->next_id;
    c->ntables = d->ntables;
    c->tables = xcalloc((size_t)d->ntables + 1, sizeof *c->tables);
    for (int i = 0; i < d->ntables; i++) c->tables[i] = my_table_clone(d->tables[i], 1);
    return c;
}

void my_db_free(mydb *d)
{
    if (!d) return;
    for (int i = 0; i < d->ntables; i++) my_table_free(d->tables[i]);
    free(d->tables);
    free(d);
}

static int table_pos(const mydb *d, const char *name, size_t len, int *found)
{
    int i = 0;
    for (; i < d->ntables; i++) {
        int c = strncmp(d->tables[i]->name, name, len);
        if (c == 0 && strlen(d->tables[i]->name) == len) {
            *found = 1;
            return i;
        }
        if (c > 0 || (c == 0 && strlen(d->tables[i]->name) > len)) break;
    }
    *found = 0;
    return i;
}

mtable *my_find_table(const mydb *d, const char *name, size_t len)
{
    int found;
    int i = table_pos(d, name, len, &found);
    return found ? d->tables[i] : NULL;
}

/* Puts t in d (replacing a table of its name). */
void my_put_table(mydb *d, mtable *t)
{
    int found;
    int i = table_pos(d, t->name, strlen(t->name), &found);
    if (found) {
        my_table_free(d->tables[i]);
        d->tables[i] = t;
        return;
    }
    d->tables = xrealloc(d->tables, (size_t)(d->ntables + 1) * sizeof *d->tables);
    memmove(&d->tables[i + 1], &d->tables[i], (size_t)(d->ntables - i) * sizeof *d->tables);
    d->tables[i] = t;
    d->ntables++;
}

void my_drop_table(mydb *d, const char *name)
{
    int found;
    int i = table_pos(d, name, strlen(name), &found);
    if (!found) return;
    my_table_free(d->tables[i]);
    memmove(&d->tables[i], &d->tables[i + 1], (size_t)(d->ntables - i - 1) * sizeof *d->tables);
    d->ntables--;
}

int my_row_pos(const mtable *t, int64_t id, int *found)
{
    int lo = 0, hi = t->nrows;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->rows[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    *found = lo < t->nrows && t->rows[lo].id == id;
    return lo;
}

/* Puts a row (taking v) with id into t, replacing the row of that id. */
void my_put_row(mtable *t, int64_t id, mval *v)
{
    int found;
    int i = my_row_pos(t, id, &found);
    if (found) {
        row_free(t, &t->rows[i]);
        t->rows[i].v = v;
        return;
    }
    if (t->nrows == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->rows = xrealloc(t->rows, (size_t)t->cap * sizeof *t->rows);
    }
    memmove(&t->rows[i + 1], &t->rows[i], (size_t)(t->nrows - i) * sizeof *t->rows);
    t->rows[i] = (mrow){ id, v };
    t->nrows++;
}

void my_remove_row(mtable *t, int i)
{
    row_free(t, &t->rows[i]);
    memmove(&t->rows[i], &t->rows[i + 1], (size_t)(t->nrows - i - 1) * sizeof *t->rows);
    t->nrows--;
}

/* ---- the server ---- */

myserver *my_new(my_changed_fn changed, void *ud, int nconns, int conn_base)
{
    myserver *s = xcalloc(1, sizeof *s);
    s->db = xcalloc(1, sizeof *s->db);
    s->db->next_id = 1;
    s->changed = changed;
    s->ud = ud;
    s->nconns = nconns;
    s->conn_base = conn_base;
    return s;
}

void my_free(myserver *s)
{
    if (!s) return;
    my_db_free(s->db);
    for (int i = 0; i < s->nlocks; i++) free(s->locks[i].name);
    free(s->locks);
    free(s);
}

void my_set_readonly(myserver *s, int ro)
{
    s->readonly = ro;
}

const mydb *my_db(const myserver *s)
{
    return s->db;
}

void my_set_db(myserver *s, mydb *d)
{
    my_db_free(s->db);
    s->db = d;
}

void my_report(myserver *s, const mtable *t, int64_t id, int deleted)
{
    if (!s->changed) return;
    char unit[512];
    int n = id ? snprintf(unit, sizeof unit, "%s/%lld", t->name, (long long)id)
               : snprintf(unit, sizeof unit, "%s", t->name);
    s->changed(s->ud, deleted, (slice){ unit, (size_t)(n < (int)sizeof unit ? n : (int)sizeof unit - 1) });
}

/* ---- user-level locks ---- */

static mlock *find_lock(myserver *s, const mval *name)
{
    for (int i = 0; i < s->nlocks; i++)
        if (strlen(s->locks[i].name) == name->len && !memcmp(s->locks[i].name, name->s, name->len))
            return &s->locks[i];
    return NULL;
}

/* A user-level lock's grant (0) or end (1), as the unit "user_lock:NAME" (performance_schema's
 * metadata_locks shows it as OBJECT_TYPE 'USER LEVEL LOCK'): not data — a name no table has,
 * so a replica that hears of it finds nothing to change. */
static void report_lock(myserver *s, const char *name, size_t len, int deleted)
{
    if (!s->changed) return;
    buf b;
    buf_init(&b);
    buf_puts(&b, "user_lock:");
    buf_append(&b, name, len);
    s->changed(s->ud, deleted, (slice){ b.p, b.len });
    buf_release(&b);
}

static void drop_lock(myserver *s, mlock *l)
{
    report_lock(s, l->name, strlen(l->name), 1);
    free(l->name);
    int i = (int)(l - s->locks);
    memmove(&s->locks[i], &s->locks[i + 1], (size_t)(s->nlocks - i - 1) * sizeof *s->locks);
    s->nlocks--;
}

void my_disconnect(myserver *s, int conn)
{
    for (int i = s->nlocks - 1; i >= 0; i--)
        if (s->locks[i].owner == conn) drop_lock(s, &s->locks[i]);
}

static const char *const lock_funcs[] = { "GET_LOCK", "RELEASE_LOCK", "IS_FREE_LOCK", "IS_USED_LOCK",
                                          "RELEASE_ALL_LOCKS", "CONNECTION_ID" };
static const int lock_arity[] = { 2, 1, 1, 1, 0, 0 };

/* Checks a function call before anything runs: its name, arity and argument types. */
int my_check_func(const mexpr *e, myreply *r)
{
    for (size_t f = 0; f < LL_ARRAY_LEN(lock_funcs); f++) {
        if (strcmp(e->name, lock_funcs[f]) != 0) continue;
        if (e->nargs != lock_arity[f]) {
            my_reply_error(r, 1582, "42000", "Incorrect parameter count in the call to native function '%s'",
                           e->name);
            return -1;
        }
        if (e->nargs >= 1 && e->args[0].t == MV_INT) {
            buf lower;
            buf_init(&lower);
            for (const char *c = e->name; *c; c++) buf_putc(&lower, (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c));
            my_reply_error(r, 4079, "HY000", "Illegal parameter data type int for operation '%s'", lower.p);
            buf_release(&lower);
            return -1;
        }
        return 0;
    }
    my_reply_error(r, 1305, "42000", "FUNCTION " DB_NAME ".%s does not exist", e->name);
    return -1;
}

mval my_int_val(int64_t i)
{
    return (mval){ .t = MV_INT, .i = i };
}

mval my_call_func(myserver *s, int conn, const mexpr *e)
{
    const mval *name = &e->args[0];
    if (!strcmp(e->name, "CONNECTION_ID")) return my_int_val(s->conn_base + conn + 1);
    if (!strcmp(e->name, "RELEASE_ALL_LOCKS")) {
        int64_t n = 0;
        for (int i = s->nlocks - 1; i >= 0; i--)
            if (s->locks[i].owner == conn) {
                n += s->locks[i].count;
                drop_lock(s, &s->locks[i]);
            }
        return my_int_val(n);
    }
    if (name->t == MV_NULL || name->len == 0) return (mval){ .t = MV_NULL }; /* a NULL or empty name */
    mlock *l = find_lock(s, name);
    if (!strcmp(e->name, "GET_LOCK")) {
        if (l && l->owner != conn) return my_int_val(0);
        if (l) {
            l->count++;
            return my_int_val(1);
        }
        s->locks = xrealloc(s->locks, (size_t)(s->nlocks + 1) * sizeof *s->locks);
        s->locks[s->nlocks++] = (mlock){ xmemdup(name->s, name->len), conn, 1 };
        report_lock(s, name->s, name->len, 0);
        return my_int_val(1);
    }
    if (!strcmp(e->name, "RELEASE_LOCK")) {
        if (!l) return (mval){ .t = MV_NULL };
        if (l->owner != conn) return my_int_val(0);
        if (--l->count == 0) drop_lock(s, l);
        return my_int_val(1);
    }
    if (!strcmp(e->name, "IS_FREE_LOCK")) return my_int_val(l ? 0 : 1);
    /* IS_USED_LOCK */
    return l ? my_int_val(s->conn_base + l->owner + 1) : (mval){ .t = MV_NULL };
}


/* ---- data: units, copies, the dump ---- */

static void print_row(const mtable *t, const mval *v, buf *out)
{
    buf_putc(out, '(');
    for (int i = 0; i < t->ncols; i++) {
        buf_printf(out, "%s%s=", i ? ", " : "", t->cols[i].name);
        mval_print(&v[i], out, 1);
    }
    buf_putc(out, ')');
}

static void print_def(const mtable *t, buf *out)
{
    static const char *const types[] = { "INT", "BIGINT", "VARCHAR", "CHAR" };
    buf_putc(out, '(');
    for (int i = 0; i < t->ncols; i++) {
        const mcoldef *c = &t->cols[i];
        buf_printf(out, "%s%s %s", i ? ", " : "", c->name, types[c->type]);
        if (c->type == COL_VARCHAR || c->type == COL_CHAR) buf_printf(out, "(%d)", c->len);
        if (c->notnull) buf_puts(out, " NOT NULL");
        if (c->has_default) {
            buf_puts(out, " DEFAULT ");
            mval_print(&c->dflt, out, 1);
        }
    }
    for (int k = 0; k < t->nkeys; k++) {
        const mkeydef *kd = &t->keys[k];
        if (kd->primary) buf_puts(out, ", PRIMARY KEY (");
        else buf_printf(out, ", UNIQUE KEY %s (", kd->name);
        for (int i = 0; i < kd->ncols; i++) buf_printf(out, "%s%s", i ? ", " : "", t->cols[kd->cols[i]].name);
        buf_putc(out, ')');
    }
    buf_putc(out, ')');
}

/* Splits a unit name: "t" (id 0) or "t/ID". */
static mtable *unit_of(myserver *s, slice unit, int64_t *id)
{
    size_t n = unit.len;
    *id = 0;
    for (size_t i = unit.len; i > 0; i--)
        if (unit.p[i - 1] == '/') {
            n = i - 1;
            *id = strtoll(unit.p + i, NULL, 10);
            break;
        }
    return my_find_table(s->db, unit.p, n);
}

int my_describe(myserver *s, slice unit, buf *out)
{
    int64_t id;
    mtable *t = unit_of(s, unit, &id);
    if (!t) return 0;
    if (!id) {
        print_def(t, out);
        return 1;
    }
    int found;
    int i = my_row_pos(t, id, &found);
    if (!found) return 0;
    print_row(t, t->rows[i].v, out);
    return 1;
}

mychange *my_capture(myserver *s, slice unit, int deleted)
{
    int64_t id;
    mtable *t = unit_of(s, unit, &id);
    mychange *c = xcalloc(1, sizeof *c);
    c->deleted = deleted;
    if (!t) {
        /* a dropped table: only its name travels */
        c->deleted = 1;
        c->def = xcalloc(1, sizeof *c->def);
        c->def->name = xmemdup(unit.p, unit.len);
        return c;
    }
    c->def = my_table_clone(t, 0);
    c->id = id;
    int found = 0;
    int i = id ? my_row_pos(t, id, &found) : 0;
    if (id && !found) c->deleted = 1;
    if (id && found && !deleted) {
        c->v = xcalloc((size_t)t->ncols, sizeof *c->v);
        for (int j = 0; j < t->ncols; j++) mval_copy(&c->v[j], &t->rows[i].v[j]);
    }
    return c;
}

void my_apply(myserver *s, const mychange *c)
{
    mtable *t = my_find_table(s->db, c->def->name, strlen(c->def->name));
    if (!c->id) {
        if (c->deleted) {
            if (t) {
                mtable gone = { .name = c->def->name };
                my_drop_table(s->db, c->def->name);
                my_report(s, &gone, 0, 1);
            }
            return;
        }
        if (t) return; /* already there (a row's change created it) */
        t = my_table_clone(c->def, 0);
        my_put_table(s->db, t);
        my_report(s, t, 0, 0);
        return;
    }
    if (!t) {
        t = my_table_clone(c->def, 0);
        my_put_table(s->db, t);
    }
    if (c->id >= s->db->next_id) s->db->next_id = c->id + 1;
    int found;
    int i = my_row_pos(t, c->id, &found);
    if (c->deleted) {
        if (found) {
            my_remove_row(t, i);
            my_report(s, t, c->id, 1);
        }
        return;
    }
    mval *v = xcalloc((size_t)t->ncols, sizeof *v);
    for (int j = 0; j < t->ncols && j < c->def->ncols; j++) mval_copy(&v[j], &c->v[j]);
    my_put_row(t, c->id, v);
    my_report(s, t, c->id, 0);
}

void my_change_free(mychange *c)
{
    if (!c) return;
    if (c->v)
        for (int j = 0; j < c->def->ncols; j++) mval_release(&c->v[j]);
    free(c->v);
    my_table_free(c->def);
    free(c);
}

static int by_lock_name(const void *a, const void *b)
{
    return strcmp(((const mlock *)a)->name, ((const mlock *)b)->name);
}

void my_dump(myserver *s, buf *out)
{
    for (int i = 0; i < s->db->ntables; i++) {
        const mtable *t = s->db->tables[i];
        buf_printf(out, "table %s ", t->name);
        print_def(t, out);
        buf_putc(out, '\n');
        for (int r = 0; r < t->nrows; r++) {
            buf_printf(out, "row %s/%lld ", t->name, (long long)t->rows[r].id);
            print_row(t, t->rows[r].v, out);
            buf_putc(out, '\n');
        }
    }
    mlock *sorted = xcalloc((size_t)s->nlocks + 1, sizeof *sorted);
    if (s->nlocks) memcpy(sorted, s->locks, (size_t)s->nlocks * sizeof *sorted);
    if (s->nlocks > 1) qsort(sorted, (size_t)s->nlocks, sizeof *sorted, by_lock_name);
    for (int i = 0; i < s->nlocks; i++)
        buf_printf(out, "lock '%s' held by connection %d (%d time%s)\n", sorted[i].name,
                   s->conn_base + sorted[i].owner + 1, sorted[i].count, sorted[i].count == 1 ? "" : "s");
    free(sorted);
}
