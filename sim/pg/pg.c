/* pg.c — the fake PostgreSQL server (pg.h): advisory locks, transaction blocks, PgBouncer's
 * transaction pooling.
 *
 * Semantics, each checked against PostgreSQL 15 (Debian's postgresql-15) by
 * tests/diff/postgresql/, from the PostgreSQL 15 documentation, 13.3.5 "Advisory Locks" and
 * 9.27.10 "Advisory Lock Functions":
 * - Keys: one bigint, or two integers; the two forms are separate spaces (the lock (0, 2) is
 *   not the lock 2, nor (1, 2) the lock 4294967298).
 * - pg_advisory_lock(key) takes the lock at session level and returns void;
 *   pg_try_advisory_lock(key) true or false at once; pg_advisory_xact_lock and
 *   pg_try_advisory_xact_lock the same at transaction level: held until the transaction ends
 *   (outside a transaction block, the statement's own transaction: they are gone when it
 *   returns). "If a session already holds a given advisory lock, additional requests by it
 *   will always succeed, even if other sessions are awaiting the lock; this statement is true
 *   regardless of whether the existing lock hold and new request are at session level or
 *   transaction level": a backend's holds are counted, at each level.
 * - pg_advisory_unlock(key) releases one session-level hold: true; false with the WARNING
 *   "you don't own a lock of type ExclusiveLock" when the backend holds it at session level
 *   not at all (a transaction-level hold cannot be released early). pg_advisory_unlock_all()
 *   releases every session-level hold of the backend; it is "implicitly invoked at session
 *   end, even if the client disconnects ungracefully".
 * - "Session-level advisory lock requests do not honor transaction semantics: a lock acquired
 *   during a transaction that is later rolled back will still be held following the
 *   rollback, and likewise an unlock is effective even if the calling transaction fails
 *   later."
 * - A NULL key gives NULL (the functions are strict). An integer literal is an integer
 *   (int4) if it fits, else a bigint, else a numeric; a quoted literal or NULL is of unknown
 *   type and coerced. A call no signature matches is 42883 "function NAME(TYPES) does not
 *   exist"; a quoted key that is not a number 22P02.
 * - BEGIN / START TRANSACTION open a block (a second one: WARNING "there is already a
 *   transaction in progress"); COMMIT / END and ROLLBACK / ABORT end it (outside one:
 *   WARNING "there is no transaction in progress"). An error inside a block aborts the
 *   transaction at once (its transaction-level locks go) and every later statement but the
 *   block's end is 25P02 "current transaction is aborted, commands ignored until end of
 *   transaction block"; COMMIT then answers ROLLBACK.
 * - SELECT evaluates its items left to right.
 * Where the fake differs: pg_advisory_lock and pg_advisory_xact_lock wait inside the server
 * until the lock frees; this fake cannot defer a reply (server_kind.h has none), so a busy
 * lock gives the error 0A000 "locklab: ... would wait" instead, and the recipes poll
 * pg_try_advisory_lock. The shared-mode functions and everything that is not the subset
 * above are 0A000 "locklab: not in the fake PostgreSQL's subset". Backend pids are numbered
 * as pg.h says, not by the operating system.
 *
 * PgBouncer (pool > 0), from its documentation (www.pgbouncer.org, "Features" and
 * "Configuration"): with pool_mode = transaction "a server connection is assigned to a client
 * only during a transaction. When PgBouncer notices that the transaction is over, the server
 * will be put back into the pool"; its feature map says session-level advisory locks are
 * never compatible with transaction pooling. Server connections are reused "in LIFO
 * (last-in, first-out) manner" (server_round_robin = 0, the default), opened as needed up to
 * default_pool_size. A client that disconnects while its server connection is inside a
 * transaction has that server connection closed (its backend ends); one that disconnects
 * between transactions leaves nothing behind — except the session-level locks it took,
 * which stay with whichever backend ran the statement. A client arriving while every server
 * connection is busy would queue in PgBouncer; the fake answers 0A000 instead. The pool's
 * assignments are checked against a real pgbouncer 1.18 (Debian's) by
 * tests/diff/postgresql/cases/pgbouncer.txt. */
#include "pg.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 32
#define MAX_ARGS 4

typedef struct backend {
    int pid;
    int open;          /* pooled: this server connection is open */
    int in_tx, aborted;
} backend;

typedef struct advlock {
    int space;        /* 1: one bigint key; 2: two integer keys */
    int64_t key;      /* space 2: (k1 << 32) | (uint32) k2 */
    int owner;        /* a backend */
    int nsess, nxact; /* the owner's holds at each level */
} advlock;

struct pgserver {
    int nclients, conn_base, pool;
    backend *backends; /* direct: one per client; pooled: the pool's server connections */
    int next_pid;      /* pooled: the pid of the next server connection opened */
    int *assigned;     /* pooled: per client, its server connection, or -1 */
    int *idle, nidle;  /* pooled: idle server connections, the most recently released last */
    advlock *locks;
    int nlocks;
};

/* ---- replies ---- */

void pg_reply_error(pgreply *r, const char *state, const char *fmt, ...)
{
    char *w = r->warnings;
    r->warnings = NULL;
    pg_reply_release(r);
    r->warnings = w;
    r->type = PG_ERR;
    memcpy(r->state, state, 5);
    r->state[5] = 0;
    va_list ap;
    va_start(ap, fmt);
    r->msg = xvformat(fmt, ap);
    va_end(ap);
}

void pg_reply_release(pgreply *r)
{
    free(r->msg);
    for (int i = 0; i < r->ncols; i++) free(r->labels[i]);
    free(r->labels);
    free(r->cells);
    free(r->warnings);
    memset(r, 0, sizeof *r);
}

static void warn(pgreply *r, const char *text)
{
    if (!r->warnings) {
        r->warnings = xstrdup(text);
        return;
    }
    char *w = xformat("%s\n%s", r->warnings, text);
    free(r->warnings);
    r->warnings = w;
}

static void print_val(const pgval *v, buf *out)
{
    switch (v->t) {
    case PV_NULL: buf_puts(out, "NULL"); break;
    case PV_BOOL: buf_puts(out, v->i ? "t" : "f"); break;
    case PV_INT: buf_printf(out, "%lld", (long long)v->i); break;
    case PV_VOID: buf_puts(out, "''"); break;
    }
}

void pg_reply_brief(const pgreply *r, buf *out)
{
    if (r->type == PG_ERR) {
        buf_printf(out, "ERROR %s: %s", r->state, r->msg);
    } else if (r->type == PG_CMD) {
        buf_puts(out, r->tag);
    } else {
        for (int j = 0; j < r->ncols; j++) {
            if (j) buf_puts(out, " | ");
            print_val(&r->cells[j], out);
        }
    }
    if (r->warnings) {
        buf_puts(out, " (WARNING: ");
        for (const char *p = r->warnings; *p; p++) {
            if (*p == '\n') buf_puts(out, "; WARNING: ");
            else buf_putc(out, *p);
        }
        buf_putc(out, ')');
    }
}

/* ---- the server ---- */

pgserver *pg_new(int nclients, int conn_base, int pool)
{
    pgserver *s = xcalloc(1, sizeof *s);
    s->nclients = nclients;
    s->conn_base = conn_base;
    s->pool = pool;
    if (pool > 0) {
        s->backends = xcalloc((size_t)pool, sizeof *s->backends);
        s->assigned = xcalloc((size_t)nclients + 1, sizeof *s->assigned);
        for (int c = 0; c < nclients; c++) s->assigned[c] = -1;
        s->idle = xcalloc((size_t)pool, sizeof *s->idle);
        s->next_pid = 1001;
    } else {
        s->backends = xcalloc((size_t)nclients + 1, sizeof *s->backends);
        for (int c = 0; c < nclients; c++) s->backends[c].pid = conn_base + c + 1;
    }
    return s;
}

void pg_free(pgserver *s)
{
    if (!s) return;
    free(s->backends);
    free(s->assigned);
    free(s->idle);
    free(s->locks);
    free(s);
}

static advlock *find_lock(pgserver *s, int space, int64_t key)
{
    for (int i = 0; i < s->nlocks; i++)
        if (s->locks[i].space == space && s->locks[i].key == key) return &s->locks[i];
    return NULL;
}

static void drop_if_free(pgserver *s, advlock *l)
{
    if (l->nsess > 0 || l->nxact > 0) return;
    int i = (int)(l - s->locks);
    memmove(&s->locks[i], &s->locks[i + 1], (size_t)(s->nlocks - i - 1) * sizeof *s->locks);
    s->nlocks--;
}

/* The transaction of backend b ends: its transaction-level holds go. */
static void end_xact(pgserver *s, int b)
{
    for (int i = s->nlocks - 1; i >= 0; i--)
        if (s->locks[i].owner == b) {
            s->locks[i].nxact = 0;
            drop_if_free(s, &s->locks[i]);
        }
}

static void unlock_all_session(pgserver *s, int b)
{
    for (int i = s->nlocks - 1; i >= 0; i--)
        if (s->locks[i].owner == b) {
            s->locks[i].nsess = 0;
            drop_if_free(s, &s->locks[i]);
        }
}

/* Backend b's session ends: every lock it holds goes, and it is out of any transaction. */
static void end_session(pgserver *s, int b)
{
    end_xact(s, b);
    unlock_all_session(s, b);
    s->backends[b].in_tx = s->backends[b].aborted = 0;
}

/* ---- the statement subset: tokens ---- */

typedef enum tok_type { T_END, T_IDENT, T_INT, T_BIGNUM, T_STR, T_LP, T_RP, T_COMMA, T_SEMI, T_MINUS, T_OTHER } tok_type;

typedef struct tok {
    tok_type t;
    const char *p; /* as written */
    size_t len;
    int64_t i;
} tok;

typedef struct lexer {
    const char *p, *end;
} lexer;

static tok next_tok(lexer *lx)
{
    while (lx->p < lx->end && isspace((unsigned char)*lx->p)) lx->p++;
    tok t = { .t = T_END, .p = lx->p, .len = 0 };
    if (lx->p >= lx->end) return t;
    const char *q = lx->p;
    unsigned char c = (unsigned char)*q;
    if (isalpha(c) || c == '_') {
        while (q < lx->end && (isalnum((unsigned char)*q) || *q == '_' || *q == '$')) q++;
        t.t = T_IDENT;
    } else if (isdigit(c)) {
        while (q < lx->end && isdigit((unsigned char)*q)) q++;
        t.t = T_INT;
        long long v;
        if (ll_parse_int64((slice){ lx->p, (size_t)(q - lx->p) }, &v) == 0) t.i = v;
        else t.t = T_BIGNUM; /* beyond bigint (or leading zeros: numbers still) */
        if (t.t == T_BIGNUM) {
            /* leading zeros: a canonical parse fails though the value fits */
            const char *d = lx->p;
            while (d < q - 1 && *d == '0') d++;
            if (ll_parse_int64((slice){ d, (size_t)(q - d) }, &v) == 0) {
                t.t = T_INT;
                t.i = v;
            }
        }
    } else if (c == '\'') {
        q++;
        while (q < lx->end) {
            if (*q == '\'') {
                if (q + 1 < lx->end && q[1] == '\'') {
                    q += 2;
                    continue;
                }
                break;
            }
            q++;
        }
        if (q >= lx->end) {
            t.t = T_OTHER; /* unterminated */
            q = lx->end;
        } else {
            q++;
            t.t = T_STR;
        }
    } else {
        q++;
        t.t = c == '(' ? T_LP : c == ')' ? T_RP : c == ',' ? T_COMMA : c == ';' ? T_SEMI : c == '-' ? T_MINUS : T_OTHER;
    }
    t.len = (size_t)(q - lx->p);
    lx->p = q;
    return t;
}

static int tok_is(const tok *t, const char *word)
{
    return t->t == T_IDENT && t->len == strlen(word) && !strncasecmp(t->p, word, t->len);
}

/* ---- the statement subset: parsing ---- */

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

typedef enum stmt_kind { S_BEGIN, S_START, S_COMMIT, S_ROLLBACK, S_SELECT } stmt_kind;

typedef struct stmt {
    stmt_kind k;
    int nitems;
    item items[MAX_ITEMS];
} stmt;

static const struct {
    const char *name;
    fn_id f;
    int nargs; /* -1: one bigint or two integers */
} fns[] = {
    { "pg_advisory_lock", F_LOCK, -1 },       { "pg_try_advisory_lock", F_TRY, -1 },
    { "pg_advisory_xact_lock", F_XLOCK, -1 }, { "pg_try_advisory_xact_lock", F_XTRY, -1 },
    { "pg_advisory_unlock", F_UNLOCK, -1 },   { "pg_advisory_unlock_all", F_UNLOCK_ALL, 0 },
    { "pg_backend_pid", F_PID, 0 },
};

static const char *const other_fns[] = {
    "pg_advisory_lock_shared", "pg_try_advisory_lock_shared", "pg_advisory_xact_lock_shared",
    "pg_try_advisory_xact_lock_shared", "pg_advisory_unlock_shared",
};

static void lower_copy(char *dst, size_t cap, const char *p, size_t n)
{
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) dst[i] = (char)tolower((unsigned char)p[i]);
    dst[n] = 0;
}

static int syntax_error(pgreply *r, const tok *t)
{
    if (t->t == T_END) pg_reply_error(r, "42601", "syntax error at end of input");
    else pg_reply_error(r, "42601", "syntax error at or near \"%.*s\"", (int)t->len, t->p);
    return -1;
}

static int subset_error(pgreply *r, const tok *t)
{
    if (t->t == T_END)
        pg_reply_error(r, "0A000", "locklab: not in the fake PostgreSQL's subset: the statement ends too early");
    else
        pg_reply_error(r, "0A000", "locklab: not in the fake PostgreSQL's subset at \"%.*s\"", (int)t->len, t->p);
    return -1;
}

/* A literal: an integer (with a sign), a quoted string, NULL. */
static int parse_literal(lexer *lx, tok *t, arg *a, pgreply *r)
{
    int neg = 0;
    if (t->t == T_MINUS) {
        neg = 1;
        *t = next_tok(lx);
    }
    if (t->t == T_INT) {
        int64_t v = t->i;
        if (neg) v = -v;
        a->t = v >= INT32_MIN && v <= INT32_MAX ? A_INTEGER : A_BIGINT;
        a->i = v;
    } else if (t->t == T_BIGNUM) {
        /* -9223372036854775808 is a bigint: the grammar negates the constant's text */
        if (neg && t->len == 19 && !strncmp(t->p, "9223372036854775808", 19)) {
            a->t = A_BIGINT;
            a->i = INT64_MIN;
        } else {
            a->t = A_NUMERIC;
        }
    } else if (!neg && t->t == T_STR) {
        a->t = A_STR;
        a->p = t->p;
        a->len = t->len;
    } else if (!neg && tok_is(t, "null")) {
        a->t = A_NULL;
    } else {
        return subset_error(r, t);
    }
    *t = next_tok(lx);
    return 0;
}

static int parse_select(lexer *lx, stmt *st, pgreply *r)
{
    tok t = next_tok(lx);
    st->k = S_SELECT;
    st->nitems = 0;
    for (;;) {
        if (st->nitems == MAX_ITEMS) return subset_error(r, &t);
        item *it = &st->items[st->nitems++];
        memset(it, 0, sizeof *it);
        if (t.t == T_IDENT && !tok_is(&t, "null")) {
            lower_copy(it->name, sizeof it->name, t.p, t.len);
            tok name = t;
            t = next_tok(lx);
            if (t.t != T_LP) return subset_error(r, &name);
            it->f = F_UNKNOWN;
            for (size_t i = 0; i < LL_ARRAY_LEN(fns); i++)
                if (!strcmp(it->name, fns[i].name)) it->f = fns[i].f;
            for (size_t i = 0; i < LL_ARRAY_LEN(other_fns); i++)
                if (!strcmp(it->name, other_fns[i])) return subset_error(r, &name);
            t = next_tok(lx);
            if (t.t != T_RP)
                for (;;) {
                    if (it->nargs == MAX_ARGS) return subset_error(r, &t);
                    if (parse_literal(lx, &t, &it->args[it->nargs++], r)) return -1;
                    if (t.t == T_RP) break;
                    if (t.t != T_COMMA) return t.t == T_END ? syntax_error(r, &t) : subset_error(r, &t);
                    t = next_tok(lx);
                }
            t = next_tok(lx);
            memcpy(it->label, it->name, sizeof it->label);
        } else {
            it->f = F_LITERAL;
            it->nargs = 1;
            if (parse_literal(lx, &t, &it->args[0], r)) return -1;
            if (it->args[0].t == A_STR || it->args[0].t == A_NUMERIC) return subset_error(r, &t);
            strcpy(it->label, "?column?");
        }
        if (tok_is(&t, "as")) {
            t = next_tok(lx);
            if (t.t != T_IDENT) return syntax_error(r, &t);
        }
        if (t.t == T_IDENT && !tok_is(&t, "from")) {
            lower_copy(it->label, sizeof it->label, t.p, t.len);
            t = next_tok(lx);
        }
        if (t.t == T_COMMA) {
            t = next_tok(lx);
            continue;
        }
        break;
    }
    if (t.t == T_SEMI) t = next_tok(lx);
    if (t.t != T_END) return subset_error(r, &t);
    return 0;
}

static int parse(const char *sql, size_t len, stmt *st, pgreply *r)
{
    lexer lx = { sql, sql + len };
    tok t = next_tok(&lx);
    if (t.t == T_END || t.t == T_SEMI) return subset_error(r, &t);
    if (tok_is(&t, "select")) return parse_select(&lx, st, r);
    if (tok_is(&t, "begin") || tok_is(&t, "commit") || tok_is(&t, "end") || tok_is(&t, "rollback") ||
        tok_is(&t, "abort")) {
        st->k = tok_is(&t, "begin") ? S_BEGIN : tok_is(&t, "commit") || tok_is(&t, "end") ? S_COMMIT : S_ROLLBACK;
        t = next_tok(&lx);
        if (tok_is(&t, "work") || tok_is(&t, "transaction")) t = next_tok(&lx);
    } else if (tok_is(&t, "start")) {
        st->k = S_START;
        t = next_tok(&lx);
        if (!tok_is(&t, "transaction")) return syntax_error(r, &t);
        t = next_tok(&lx);
    } else {
        static const char *const known[] = { "insert", "update", "delete", "create", "drop", "alter", "set",
                                             "show", "values", "with", "lock", "table", "savepoint", "release",
                                             "prepare", "execute", "discard", "reset", "listen", "notify" };
        for (size_t i = 0; i < LL_ARRAY_LEN(known); i++)
            if (tok_is(&t, known[i])) return subset_error(r, &t);
        return syntax_error(r, &t);
    }
    if (t.t == T_SEMI) t = next_tok(&lx);
    if (t.t != T_END) return t.t == T_IDENT ? subset_error(r, &t) : syntax_error(r, &t);
    return 0;
}

/* ---- the statement subset: checking (PostgreSQL's analysis, before anything runs) ---- */

static const char *type_name(arg_type t)
{
    switch (t) {
    case A_NULL:
    case A_STR: return "unknown";
    case A_INTEGER: return "integer";
    case A_BIGINT: return "bigint";
    case A_NUMERIC: return "numeric";
    }
    return "?";
}

/* A quoted key coerced to bigint (bits 64) or integer (32): 0, or -1 with the error. */
static int coerce_str(arg *a, int bits, pgreply *r)
{
    const char *p = a->p + 1;
    size_t n = a->len - 2;
    char *text = xmemdup(p, n);
    /* '' inside the literal stands for one quote */
    char *w = text;
    for (char *q = text; *q; q++) {
        *w++ = *q;
        if (*q == '\'' && q[1] == '\'') q++;
    }
    *w = 0;
    const char *b = text, *e = text + strlen(text);
    while (b < e && isspace((unsigned char)*b)) b++;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    const char *d = b;
    if (d < e && (*d == '-' || *d == '+')) d++;
    int ok = d < e;
    for (const char *q = d; q < e; q++)
        if (!isdigit((unsigned char)*q)) ok = 0;
    const char *tn = bits == 64 ? "bigint" : "integer";
    if (!ok) {
        pg_reply_error(r, "22P02", "invalid input syntax for type %s: \"%s\"", tn, text);
        free(text);
        return -1;
    }
    char *num = xmemdup(b, (size_t)(e - b));
    errno = 0;
    long long v = strtoll(num, NULL, 10);
    int range = errno == ERANGE;
    if (!range && bits == 32 && (v < INT32_MIN || v > INT32_MAX)) range = 1;
    free(num);
    if (range) {
        pg_reply_error(r, "22003", "value \"%s\" is out of range for type %s", text, tn);
        free(text);
        return -1;
    }
    free(text);
    a->t = bits == 64 ? A_BIGINT : A_INTEGER;
    a->i = v;
    return 0;
}

static int check_item(item *it, pgreply *r)
{
    if (it->f == F_LITERAL) return 0;
    int want = -2;
    for (size_t i = 0; i < LL_ARRAY_LEN(fns); i++)
        if (fns[i].f == it->f) want = fns[i].nargs;
    int match = 0;
    if (want == 0) {
        match = it->nargs == 0;
    } else if (want == -1 && it->nargs == 1) {
        match = it->args[0].t != A_NUMERIC;
    } else if (want == -1 && it->nargs == 2) {
        match = 1;
        for (int i = 0; i < 2; i++)
            if (it->args[i].t == A_BIGINT || it->args[i].t == A_NUMERIC) match = 0;
    }
    if (it->f == F_UNKNOWN || !match) {
        buf b;
        buf_init(&b);
        for (int i = 0; i < it->nargs; i++) buf_printf(&b, "%s%s", i ? ", " : "", type_name(it->args[i].t));
        pg_reply_error(r, "42883", "function %s(%s) does not exist", it->name, b.p ? b.p : "");
        buf_release(&b);
        return -1;
    }
    for (int i = 0; i < it->nargs; i++)
        if (it->args[i].t == A_STR && coerce_str(&it->args[i], it->nargs == 1 ? 64 : 32, r)) return -1;
    return 0;
}

/* ---- running a statement ---- */

static void key_of(const item *it, int *space, int64_t *key)
{
    if (it->nargs == 1) {
        *space = 1;
        *key = it->args[0].i;
    } else {
        *space = 2;
        *key = (int64_t)(((uint64_t)(uint32_t)it->args[0].i << 32) | (uint32_t)it->args[1].i);
    }
}

static void key_print(int space, int64_t key, buf *out)
{
    if (space == 1) buf_printf(out, "(%lld)", (long long)key);
    else buf_printf(out, "(%d, %d)", (int32_t)(uint32_t)((uint64_t)key >> 32), (int32_t)(uint32_t)key);
}

/* One item of a SELECT, run by backend b: 0, or -1 with the error in r. */
static int eval(pgserver *s, int b, const item *it, pgval *v, pgreply *r)
{
    if (it->f == F_LITERAL) {
        *v = it->args[0].t == A_NULL ? (pgval){ PV_NULL, 0 } : (pgval){ PV_INT, it->args[0].i };
        return 0;
    }
    if (it->f == F_PID) {
        *v = (pgval){ PV_INT, s->backends[b].pid };
        return 0;
    }
    if (it->f == F_UNLOCK_ALL) {
        unlock_all_session(s, b);
        *v = (pgval){ PV_VOID, 0 };
        return 0;
    }
    for (int i = 0; i < it->nargs; i++)
        if (it->args[i].t == A_NULL) {
            *v = (pgval){ PV_NULL, 0 };
            return 0;
        }
    int space;
    int64_t key;
    key_of(it, &space, &key);
    advlock *l = find_lock(s, space, key);
    if (it->f == F_UNLOCK) {
        if (l && l->owner == b && l->nsess > 0) {
            l->nsess--;
            drop_if_free(s, l);
            *v = (pgval){ PV_BOOL, 1 };
        } else {
            warn(r, "you don't own a lock of type ExclusiveLock");
            *v = (pgval){ PV_BOOL, 0 };
        }
        return 0;
    }
    int try = it->f == F_TRY || it->f == F_XTRY;
    if (l && l->owner != b) {
        if (try) {
            *v = (pgval){ PV_BOOL, 0 };
            return 0;
        }
        buf k;
        buf_init(&k);
        key_print(space, key, &k);
        pg_reply_error(r, "0A000",
                       "locklab: %s%s would wait for the lock held by pid %d; this fake cannot defer a reply "
                       "(poll with pg_try_advisory%s_lock)",
                       it->name, k.p, s->backends[l->owner].pid, it->f == F_XLOCK ? "_xact" : "");
        buf_release(&k);
        return -1;
    }
    if (!l) {
        s->locks = xrealloc(s->locks, (size_t)(s->nlocks + 1) * sizeof *s->locks);
        l = &s->locks[s->nlocks++];
        *l = (advlock){ .space = space, .key = key, .owner = b };
    }
    if (it->f == F_LOCK || it->f == F_TRY) l->nsess++;
    else l->nxact++;
    *v = try ? (pgval){ PV_BOOL, 1 } : (pgval){ PV_VOID, 0 };
    return 0;
}

static void set_tag(pgreply *r, const char *tag)
{
    r->type = PG_CMD;
    snprintf(r->tag, sizeof r->tag, "%s", tag);
}

/* Statement sql on backend b. */
static void run(pgserver *s, int b, const char *sql, size_t len, pgreply *r)
{
    backend *be = &s->backends[b];
    stmt *st = xcalloc(1, sizeof *st);
    if (parse(sql, len, st, r)) goto failed;
    if (be->aborted && st->k != S_COMMIT && st->k != S_ROLLBACK) {
        pg_reply_error(r, "25P02", "current transaction is aborted, commands ignored until end of transaction block");
        goto failed;
    }
    switch (st->k) {
    case S_BEGIN:
    case S_START:
        if (be->in_tx) warn(r, "there is already a transaction in progress");
        be->in_tx = 1;
        set_tag(r, st->k == S_BEGIN ? "BEGIN" : "START TRANSACTION");
        break;
    case S_COMMIT:
    case S_ROLLBACK:
        if (!be->in_tx) warn(r, "there is no transaction in progress");
        set_tag(r, st->k == S_COMMIT && !be->aborted ? "COMMIT" : "ROLLBACK");
        end_xact(s, b);
        be->in_tx = be->aborted = 0;
        break;
    case S_SELECT:
        for (int i = 0; i < st->nitems; i++)
            if (check_item(&st->items[i], r)) goto failed;
        r->type = PG_ROWS;
        r->ncols = st->nitems;
        r->labels = xcalloc((size_t)st->nitems, sizeof *r->labels);
        r->cells = xcalloc((size_t)st->nitems, sizeof *r->cells);
        for (int i = 0; i < st->nitems; i++) r->labels[i] = xstrdup(st->items[i].label);
        for (int i = 0; i < st->nitems; i++)
            if (eval(s, b, &st->items[i], &r->cells[i], r)) goto failed;
        if (!be->in_tx) end_xact(s, b); /* the statement's own transaction */
        break;
    }
    free(st);
    return;
failed:
    free(st);
    end_xact(s, b); /* the transaction aborts: its locks go at once */
    if (be->in_tx) be->aborted = 1;
}

void pg_exec(pgserver *s, int client, const char *sql, size_t len, pgreply *r)
{
    memset(r, 0, sizeof *r);
    if (client < 0 || client >= s->nclients) {
        pg_reply_error(r, "08006", "locklab: no client %d", client);
        return;
    }
    if (!s->pool) {
        run(s, client, sql, len, r);
        return;
    }
    int b = s->assigned[client];
    if (b < 0) {
        if (s->nidle) {
            b = s->idle[--s->nidle];
        } else {
            for (int i = 0; i < s->pool && b < 0; i++)
                if (!s->backends[i].open) b = i;
            if (b < 0) {
                pg_reply_error(r, "0A000",
                               "locklab: all %d server connections of PgBouncer's pool are inside other clients' "
                               "transactions; PgBouncer would queue this client, which the fake cannot (it cannot "
                               "defer a reply)",
                               s->pool);
                return;
            }
            s->backends[b] = (backend){ .pid = s->next_pid++, .open = 1 };
        }
        s->assigned[client] = b;
    }
    run(s, b, sql, len, r);
    if (!s->backends[b].in_tx) {
        /* the transaction is over: the server connection goes back to the pool */
        s->assigned[client] = -1;
        s->idle[s->nidle++] = b;
    }
}

void pg_disconnect(pgserver *s, int client)
{
    if (client < 0 || client >= s->nclients) return;
    if (!s->pool) {
        end_session(s, client);
        return;
    }
    int b = s->assigned[client];
    if (b < 0) return; /* between transactions: its server connections stay as they are */
    /* inside a transaction: PgBouncer closes the server connection, and its backend ends */
    end_session(s, b);
    s->backends[b].open = 0;
    s->assigned[client] = -1;
}

static int by_key(const void *a, const void *b)
{
    const advlock *x = a, *y = b;
    if (x->space != y->space) return x->space - y->space;
    return x->key < y->key ? -1 : x->key > y->key;
}

void pg_dump(pgserver *s, buf *out)
{
    advlock *sorted = xcalloc((size_t)s->nlocks + 1, sizeof *sorted);
    if (s->nlocks) memcpy(sorted, s->locks, (size_t)s->nlocks * sizeof *sorted);
    qsort(sorted, (size_t)s->nlocks, sizeof *sorted, by_key);
    for (int i = 0; i < s->nlocks; i++) {
        buf_puts(out, "advisory lock ");
        key_print(sorted[i].space, sorted[i].key, out);
        buf_printf(out, " held by pid %d (session %d, transaction %d)\n", s->backends[sorted[i].owner].pid,
                   sorted[i].nsess, sorted[i].nxact);
    }
    free(sorted);
    for (int b = 0; b < s->pool; b++) {
        const backend *be = &s->backends[b];
        if (!be->open) continue;
        int client = -1;
        for (int c = 0; c < s->nclients; c++)
            if (s->assigned[c] == b) client = c;
        if (client >= 0) buf_printf(out, "server connection pid %d in a transaction of client %d\n", be->pid, client);
        else buf_printf(out, "server connection pid %d idle\n", be->pid);
    }
    for (int b = 0; b < (s->pool ? 0 : s->nclients); b++)
        if (s->backends[b].in_tx)
            buf_printf(out, "pid %d in a transaction%s\n", s->backends[b].pid, s->backends[b].aborted ? " (aborted)" : "");
}
