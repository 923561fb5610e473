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
 * - Waits (checked by tests/diff/postgresql/cases/waits.txt and deadlock.txt):
 *   pg_advisory_lock and pg_advisory_xact_lock on a lock another backend holds wait in the
 *   server (pg.h's pg_exec returns 1; the node parks the request: server_kind.h). When the
 *   lock frees (an unlock, a transaction's or a session's end) it goes to the backend that has
 *   waited longest, and its statement runs on from that item (it may wait again). A wait ends
 *   with an error after the session's lock_timeout (55P03 "canceling statement due to lock
 *   timeout"; each lock wait separately) or statement_timeout (57014; the whole statement),
 *   which abort a transaction block as any error does; and once, deadlock_timeout (default
 *   1 s) into each lock wait, the wait checks whether it closes a cycle of waits (each waiter
 *   waits for the one holder of an exclusive lock): if so, it fails with 40P01 "deadlock
 *   detected" (PostgreSQL's CheckDeadLock runs once per wait, in the waiting backend; its
 *   statement, not its session locks, is undone). A session that ends while it waits drops
 *   its wait. SET [SESSION] lock_timeout | statement_timeout | deadlock_timeout = ms, 'N[unit]'
 *   (ms, s, min, h, d) or DEFAULT sets them (22023 for a negative or too large value).
 * Where the fake differs: the shared-mode functions and everything that is not the subset
 * above are 0A000 "locklab: not in the fake PostgreSQL's subset" (so are fractional timeouts
 * and the unit us). A SET inside a block stays after a ROLLBACK (PostgreSQL reverts it). The
 * deadlock check sees only the holders waiters wait for, not the queue order among waiters
 * (PostgreSQL's "soft" edges). A statement that waits at a second lock after a first wait is
 * checked for deadlock only if its first wait's check had not run yet (the host's timer for
 * it is the first wait's). A second statement from a client whose statement waits is an
 * error 0A000 (a connection runs one at a time). Without a host that can park a request
 * (`locklab kind` can; pg.h's clock NULL) a busy lock gives the error 0A000 "locklab: ...
 * would wait" instead. Backend pids are numbered as pg.h says, not by the operating system.
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
#include "pgint.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct backend {
    int pid;
    int open;          /* pooled: this server connection is open */
    int in_tx, aborted;
    /* the session's settings (SET), ms, 0: off */
    int64_t lock_timeout, statement_timeout, deadlock_timeout;
} backend;

typedef struct advlock {
    int space;        /* 1: one bigint key; 2: two integer keys */
    int64_t key;      /* space 2: (k1 << 32) | (uint32) k2 */
    int owner;        /* a backend */
    int nsess, nxact; /* the owner's holds at each level */
} advlock;

/* A client whose statement waits in the server for a lock (pg.h: waits). */
typedef struct pgwait {
    int active;
    int b;                /* its backend */
    struct stmt *st;      /* the statement, and the item that waits */
    int at;
    pgreply r;            /* the reply so far */
    int space;            /* the lock it waits for */
    int64_t key;
    uint64_t seq;         /* the order of the waits: the first waiter is granted first */
    int64_t lock_since;   /* local ms: this lock wait began; the statement began */
    int64_t stmt_since;
    int deadlock_checked; /* this lock wait ran its deadlock check */
} pgwait;

typedef struct pganswer {
    int client;
    pgreply r;
} pganswer;

struct pgserver {
    int nclients, conn_base, pool;
    int64_t (*clock)(void *); /* local ms; NULL: the server cannot wait (an error instead) */
    void *clock_ud;
    pgwait *waits;     /* per client */
    uint64_t wait_seq;
    pganswer *answers; /* the waits' answers, oldest first, until pg_answer takes them */
    int nanswers;
    backend *backends; /* direct: one per client; pooled: the pool's server connections */
    int next_pid;      /* pooled: the pid of the next server connection opened */
    int *assigned;     /* pooled: per client, its server connection, or -1 */
    int *idle, nidle;  /* pooled: idle server connections, the most recently released last */
    advlock *locks;
    int nlocks;
    /* pg_observe: told each lock's grant and end; waking: the client a lock is being handed
     * to by wake, else -1 */
    pg_lock_fn observe;
    void *observe_ud;
    int waking;
};

/* ---- replies (pg_reply.c; a warning added here) ---- */

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

/* ---- the server ---- */

pgserver *pg_new(int nclients, int conn_base, int pool, int64_t (*clock)(void *), void *clock_ud)
{
    pgserver *s = xcalloc(1, sizeof *s);
    s->nclients = nclients;
    s->conn_base = conn_base;
    s->pool = pool;
    s->clock = clock;
    s->clock_ud = clock_ud;
    s->waits = xcalloc((size_t)nclients + 1, sizeof *s->waits);
    s->waking = -1;
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
    for (int b = 0; b < (pool > 0 ? pool : nclients); b++) s->backends[b].deadlock_timeout = DEADLOCK_TIMEOUT_MS;
    return s;
}

static void wait_drop(pgwait *w);

void pg_free(pgserver *s)
{
    if (!s) return;
    for (int c = 0; c < s->nclients; c++) wait_drop(&s->waits[c]);
    free(s->waits);
    for (int i = 0; i < s->nanswers; i++) pg_reply_release(&s->answers[i].r);
    free(s->answers);
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

void pg_observe(pgserver *s, pg_lock_fn fn, void *ud)
{
    s->observe = fn;
    s->observe_ud = ud;
}

static void drop_if_free(pgserver *s, advlock *l)
{
    if (l->nsess > 0 || l->nxact > 0) return;
    if (s->observe) s->observe(s->observe_ud, 0, s->waking, l->space, l->key);
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

/* Backend b takes the lock (space, key) (l: its entry, or NULL: free) at item it's level. */
static void take(pgserver *s, int b, const item *it, int space, int64_t key, advlock *l)
{
    if (!l) {
        s->locks = xrealloc(s->locks, (size_t)(s->nlocks + 1) * sizeof *s->locks);
        l = &s->locks[s->nlocks++];
        *l = (advlock){ .space = space, .key = key, .owner = b };
        if (s->observe) s->observe(s->observe_ud, 1, s->waking, space, key);
    }
    if (it->f == F_LOCK || it->f == F_TRY) l->nsess++;
    else l->nxact++;
}

static void key_print(int space, int64_t key, buf *out)
{
    if (space == 1) buf_printf(out, "(%lld)", (long long)key);
    else buf_printf(out, "(%d, %d)", (int32_t)(uint32_t)((uint64_t)key >> 32), (int32_t)(uint32_t)key);
}

/* One item of a SELECT, run by backend b: 0, -1 with the error in r, or 1: it waits for a
 * lock another backend holds (only when the server can wait). */
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
        if (s->clock) return 1;
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
    take(s, b, it, space, key, l);
    *v = try ? (pgval){ PV_BOOL, 1 } : (pgval){ PV_VOID, 0 };
    return 0;
}

static void set_tag(pgreply *r, const char *tag)
{
    r->type = PG_CMD;
    snprintf(r->tag, sizeof r->tag, "%s", tag);
}

/* The statement st of client on backend b failed: its transaction aborts, its locks go. */
static void failed(pgserver *s, int b, stmt *st)
{
    free(st);
    end_xact(s, b); /* the transaction aborts: its locks go at once */
    if (s->backends[b].in_tx) s->backends[b].aborted = 1;
}

/* Runs st's items from i on (client's, on backend b): 0, done (r filled; st freed), or 1: it
 * waits (client's wait holds st and r). stmt_since: when the statement began (local ms). */
static int select_from(pgserver *s, int client, int b, stmt *st, int i, pgreply *r, int64_t stmt_since)
{
    for (; i < st->nitems; i++) {
        int rc = eval(s, b, &st->items[i], &r->cells[i], r);
        if (rc < 0) {
            failed(s, b, st);
            return 0;
        }
        if (rc > 0) {
            pgwait *w = &s->waits[client];
            int64_t now = s->clock(s->clock_ud);
            *w = (pgwait){ .active = 1, .b = b, .st = st, .at = i, .r = *r, .seq = ++s->wait_seq,
                           .lock_since = now, .stmt_since = stmt_since < 0 ? now : stmt_since };
            key_of(&st->items[i], &w->space, &w->key);
            memset(r, 0, sizeof *r);
            return 1;
        }
    }
    if (!s->backends[b].in_tx) end_xact(s, b); /* the statement's own transaction */
    free(st);
    return 0;
}

/* Statement sql of client on backend b: 0, answered in r; 1, it waits (pg.h). */
static int run(pgserver *s, int client, int b, const char *sql, size_t len, pgreply *r)
{
    backend *be = &s->backends[b];
    stmt *st = xcalloc(1, sizeof *st);
    if (pg_parse(sql, len, st, r)) goto failed;
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
    case S_SET:
        /* a session setting (SET without LOCAL is not undone by a ROLLBACK in this subset:
         * PostgreSQL reverts it with the block; the recipes set it outside blocks) */
        if (st->set == SET_LOCK_TIMEOUT) be->lock_timeout = st->set_ms;
        else if (st->set == SET_STATEMENT_TIMEOUT) be->statement_timeout = st->set_ms;
        else be->deadlock_timeout = st->set_ms;
        set_tag(r, "SET");
        break;
    case S_SELECT:
        for (int i = 0; i < st->nitems; i++)
            if (pg_check_item(&st->items[i], r)) goto failed;
        r->type = PG_ROWS;
        r->ncols = st->nitems;
        r->labels = xcalloc((size_t)st->nitems, sizeof *r->labels);
        r->cells = xcalloc((size_t)st->nitems, sizeof *r->cells);
        for (int i = 0; i < st->nitems; i++) r->labels[i] = xstrdup(st->items[i].label);
        return select_from(s, client, b, st, 0, r, -1);
    }
    free(st);
    return 0;
failed:
    failed(s, b, st);
    return 0;
}

/* Client's statement is over (answered now or after a wait): through the pool, a server
 * connection outside a transaction goes back to the pool. */
static void finish(pgserver *s, int client, int b)
{
    if (!s->pool || s->backends[b].in_tx) return;
    s->assigned[client] = -1;
    s->idle[s->nidle++] = b;
}

static void wait_drop(pgwait *w)
{
    if (!w->active) return;
    free(w->st);
    pg_reply_release(&w->r);
    memset(w, 0, sizeof *w);
}

static void answer(pgserver *s, int client, pgreply *r)
{
    s->answers = xrealloc(s->answers, (size_t)(s->nanswers + 1) * sizeof *s->answers);
    s->answers[s->nanswers].client = client;
    s->answers[s->nanswers++].r = *r;
    memset(r, 0, sizeof *r);
}

/* Locks freed: each goes to its first waiter (the one that waits longest), whose statement
 * runs on (and may free or wait again), until no waiter's lock is free. */
static void wake(pgserver *s)
{
    for (;;) {
        pgwait *w = NULL;
        for (int c = 0; c < s->nclients; c++) {
            pgwait *x = &s->waits[c];
            if (x->active && !find_lock(s, x->space, x->key) && (!w || x->seq < w->seq)) w = x;
        }
        if (!w) return;
        int client = (int)(w - s->waits), b = w->b, at = w->at;
        stmt *st = w->st;
        pgreply r = w->r;
        int64_t since = w->stmt_since;
        int space = w->space;
        int64_t key = w->key;
        memset(w, 0, sizeof *w);
        s->waking = client; /* what its statement does from here on is its own */
        take(s, b, &st->items[at], space, key, NULL);
        r.cells[at] = (pgval){ PV_VOID, 0 };
        int again = select_from(s, client, b, st, at + 1, &r, since);
        s->waking = -1;
        if (again) continue;
        finish(s, client, b);
        answer(s, client, &r);
    }
}

int pg_exec(pgserver *s, int client, const char *sql, size_t len, pgreply *r)
{
    memset(r, 0, sizeof *r);
    if (client < 0 || client >= s->nclients) {
        pg_reply_error(r, "08006", "locklab: no client %d", client);
        return 0;
    }
    if (s->waits[client].active) {
        pg_reply_error(r, "0A000",
                       "locklab: client %d's statement still waits for a lock; a connection runs one statement at a "
                       "time (the real client library would queue this one)",
                       client);
        return 0;
    }
    int b = client;
    if (s->pool) {
        b = s->assigned[client];
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
                    return 0;
                }
                s->backends[b] = (backend){ .pid = s->next_pid++, .open = 1, .deadlock_timeout = DEADLOCK_TIMEOUT_MS };
            }
            s->assigned[client] = b;
        }
    }
    int waits = run(s, client, b, sql, len, r);
    if (!waits) finish(s, client, b);
    wake(s);
    return waits;
}

int pg_answer(pgserver *s, int *client, pgreply *r)
{
    if (!s->nanswers) return 0;
    *client = s->answers[0].client;
    *r = s->answers[0].r;
    memmove(s->answers, s->answers + 1, (size_t)(s->nanswers - 1) * sizeof *s->answers);
    s->nanswers--;
    return 1;
}

/* Is backend b's wait part of a cycle: the holder of the lock it waits for waits, through a
 * chain of holders that wait, for a lock b holds? (Advisory locks are exclusive here: each
 * waiter waits for one holder.) */
static int deadlocked(pgserver *s, const pgwait *w)
{
    const advlock *l = find_lock(s, w->space, w->key);
    for (int steps = 0; l && steps <= s->nclients; steps++) {
        if (l->owner == w->b) return 1;
        const pgwait *next = NULL;
        for (int c = 0; c < s->nclients; c++)
            if (s->waits[c].active && s->waits[c].b == l->owner) next = &s->waits[c];
        if (!next) return 0;
        l = find_lock(s, next->space, next->key);
    }
    return 0;
}

static int64_t earlier_us(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* ms from now to the wait's next timer (lock_timeout, statement_timeout, the deadlock
 * check), 0: none. */
static int64_t next_timer(pgserver *s, const pgwait *w, int64_t now)
{
    const backend *be = &s->backends[w->b];
    int64_t next = INT64_MAX;
    if (be->lock_timeout > 0) next = earlier_us(next, w->lock_since + be->lock_timeout);
    if (be->statement_timeout > 0) next = earlier_us(next, w->stmt_since + be->statement_timeout);
    if (!w->deadlock_checked) next = earlier_us(next, w->lock_since + be->deadlock_timeout);
    if (next == INT64_MAX) return 0;
    return next > now ? next - now : 1;
}

int64_t pg_wait_timer(pgserver *s, int client)
{
    if (client < 0 || client >= s->nclients || !s->waits[client].active) return 0;
    return next_timer(s, &s->waits[client], s->clock(s->clock_ud));
}

int pg_wait_timeout(pgserver *s, int client, pgreply *r, int64_t *again_ms)
{
    *again_ms = 0;
    memset(r, 0, sizeof *r);
    if (client < 0 || client >= s->nclients || !s->waits[client].active) return 0;
    pgwait *w = &s->waits[client];
    const backend *be = &s->backends[w->b];
    int64_t now = s->clock(s->clock_ud);
    const char *state = NULL, *text = NULL;
    if (be->lock_timeout > 0 && now - w->lock_since >= be->lock_timeout) {
        state = "55P03", text = "canceling statement due to lock timeout";
    } else if (be->statement_timeout > 0 && now - w->stmt_since >= be->statement_timeout) {
        state = "57014", text = "canceling statement due to statement timeout";
    } else if (!w->deadlock_checked && now - w->lock_since >= be->deadlock_timeout) {
        w->deadlock_checked = 1; /* once per wait, as PostgreSQL's CheckDeadLock */
        if (deadlocked(s, w)) state = "40P01", text = "deadlock detected";
    }
    if (!state) {
        *again_ms = next_timer(s, w, now);
        return 0;
    }
    int b = w->b;
    stmt *st = w->st;
    w->st = NULL;
    wait_drop(w);
    pg_reply_error(r, state, "%s", text);
    failed(s, b, st);
    finish(s, client, b);
    wake(s);
    return 1;
}

int pg_disconnect(pgserver *s, int client)
{
    if (client < 0 || client >= s->nclients) return 0;
    int waited = s->waits[client].active;
    wait_drop(&s->waits[client]);
    if (!s->pool) {
        end_session(s, client);
    } else {
        int b = s->assigned[client];
        if (b >= 0) {
            /* inside a transaction, or waiting: PgBouncer closes the server connection, and its
             * backend ends */
            end_session(s, b);
            s->backends[b].open = 0;
            s->assigned[client] = -1;
        }
    }
    wake(s);
    return waited;
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
    for (uint64_t after = 0;;) { /* the waits, in their order */
        const pgwait *w = NULL;
        for (int c = 0; c < s->nclients; c++)
            if (s->waits[c].active && s->waits[c].seq > after && (!w || s->waits[c].seq < w->seq)) w = &s->waits[c];
        if (!w) break;
        after = w->seq;
        buf_printf(out, "pid %d waits for advisory lock ", s->backends[w->b].pid);
        key_print(w->space, w->key, out);
        buf_putc(out, '\n');
    }
    for (int b = 0; b < (s->pool ? 0 : s->nclients); b++)
        if (s->backends[b].in_tx)
            buf_printf(out, "pid %d in a transaction%s\n", s->backends[b].pid, s->backends[b].aborted ? " (aborted)" : "");
}
