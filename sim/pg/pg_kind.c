/* pg_kind.c — the fake PostgreSQL (pg.h) as a server kind: the server_kind vtable, so the
 * engine runs PostgreSQL nodes as it runs Redis ones.
 *
 * A request is one SQL statement in one argument; a client has one connection, whose backend
 * pid is its actor number + 1 — or, with the option pgbouncer_pool = N, the client talks to
 * a PgBouncer in transaction pooling mode with N server connections in front of the server,
 * and the backend that runs a statement is the pool's choice (pg.c's header). The reply
 * reaches a model as: for a SELECT, an array with its one row, a table from column name (the
 * alias, or the function's name) to value (a boolean, an integer, "" for void; NULL leaves
 * the field nil); for BEGIN, COMMIT, ROLLBACK its command tag, a string ("ROLLBACK" for the
 * COMMIT of a failed transaction); for an error nil, the message and the SQLSTATE. WARNINGs
 * show in the history, not to the model (a driver logs them).
 *
 * Advisory locks are not data: nothing is replicated or persisted, a replica (a hot
 * standby) takes advisory locks as a primary does ("Advisory locks work normally in
 * recovery", PostgreSQL 15 documentation, 27.4.3), a promoted replica and a restarted server
 * hold none. The crash of a client closes its connection, which ends its session and
 * releases its locks, as the server does when the TCP connection of a dead process closes.
 * No expiry. A pg_advisory_lock that waits is parked (kind_host.park) with the wait's next
 * timer (lock_timeout, statement_timeout, the deadlock check: pg_wait_timer); its answer goes
 * to the node through kind_host.unpark when a later request, a disconnection or a timer ends
 * the wait (pg_answer), and server_kind.parked_timeout runs the timer. */
#include "pg_kind.h"

#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "pg.h"

struct kserver {
    pgserver *pg;
    kind_host host;
    uint64_t *ticket; /* per client: its parked statement's ticket (kind_host.park), 0: none */
    /* per client: what its waiting statement did to the locks once handed one, told once the
     * node has recorded that statement's answer (parked_answered), under its ticket */
    struct granted { uint64_t ticket; int n; int64_t *keys; } *granted;
};

enum { OPT_POOL };

static const kind_option pg_options[] = {
    { "pgbouncer_pool", 0, 0, 0, 16,
      "0: clients connect to PostgreSQL directly; N: through PgBouncer with pool_mode = transaction and "
      "default_pool_size = N" },
    { NULL, 0, 0, 0, 0, NULL },
};

/* The lock (space, key) as the unit the history names: "advisory/KEY" (one bigint key) or
 * "advisory/K1,K2" (two integer keys), the advisory lock as pg_locks shows it (locktype
 * advisory; classid, objid and objsubid 1 or 2). Models name their lock so (ctx:lock_unit). */
static void advisory_unit(int space, int64_t key, buf *out)
{
    if (space == 1) buf_printf(out, "advisory/%lld", (long long)key);
    else buf_printf(out, "advisory/%d,%d", (int32_t)(uint32_t)((uint64_t)key >> 32), (int32_t)(uint32_t)key);
}

static void tell(kserver *s, kind_event ev, int space, int64_t key)
{
    buf b;
    buf_init(&b);
    advisory_unit(space, key, &b);
    s->host.changed(s->host.ud, ev, (slice){ b.p, b.len });
    buf_release(&b);
}

/* pg.c's observer: a lock granted or ended. What a waiter's statement did once handed its
 * lock is told after its answer's exec (parked_answered), the rest at once. Each pending
 * change is three slots: granted, space, key. */
static void pk_lock(void *ud, int granted, int waiter, int space, int64_t key)
{
    kserver *s = ud;
    if (!s->host.changed) return;
    if (waiter >= 0) {
        struct granted *g = &s->granted[waiter];
        g->keys = xrealloc(g->keys, (size_t)(g->n + 1) * 3 * sizeof *g->keys);
        g->keys[3 * g->n] = granted;
        g->keys[3 * g->n + 1] = space;
        g->keys[3 * g->n + 2] = key;
        g->n++;
        return;
    }
    tell(s, granted ? KIND_WRITTEN : KIND_DELETED, space, key);
}

static void pk_parked_answered(kserver *s, uint64_t ticket)
{
    for (int c = 0; c < s->host.nclients; c++) {
        struct granted *g = &s->granted[c];
        if (g->ticket != ticket || !g->n) continue;
        for (int i = 0; i < g->n; i++)
            tell(s, g->keys[3 * i] ? KIND_WRITTEN : KIND_DELETED, (int)g->keys[3 * i + 1], g->keys[3 * i + 2]);
        g->n = 0;
        g->ticket = 0;
    }
}

static int64_t pk_clock(void *ud)
{
    kserver *s = ud;
    if (s->host.clock_seen) s->host.clock_seen(s->host.ud); /* a wait's timeout reads it */
    return s->host.clock(s->host.ud);
}

/* The waits that ended during the last call are answered, in the order they ended. */
static void pk_answers(kserver *s)
{
    int client;
    pgreply r;
    while (pg_answer(s->pg, &client, &r)) {
        uint64_t t = s->ticket[client];
        s->ticket[client] = 0;
        s->granted[client].ticket = t; /* its grants are told after its answer's exec */
        if (t) s->host.unpark(s->host.ud, t, &r); /* the node takes the reply */
        else pg_reply_release(&r);
    }
}

static kserver *pk_create(const kind_host *host)
{
    kserver *s = xcalloc(1, sizeof *s);
    int pool = host->options ? (int)host->options[OPT_POOL] : 0;
    s->host = *host;
    s->ticket = xcalloc((size_t)host->nclients + 1, sizeof *s->ticket);
    s->granted = xcalloc((size_t)host->nclients + 1, sizeof *s->granted);
    /* a host that can park a request lets pg_advisory_lock wait in the server */
    int waits = host->park && host->unpark;
    s->pg = pg_new(host->nclients, host->client_base, pool, waits ? pk_clock : NULL, s);
    pg_observe(s->pg, pk_lock, s);
    return s;
}

static void pk_destroy(kserver *s)
{
    if (!s) return;
    pg_free(s->pg);
    for (int c = 0; c < s->host.nclients; c++) free(s->granted[c].keys);
    free(s->granted);
    free(s->ticket);
    free(s);
}

static void pk_set_replica(kserver *s, int replica)
{
    (void)s, (void)replica;
}

static void pk_exec(kserver *s, int client, int conn, int argc, const slice *argv, void *out)
{
    (void)conn;
    pgreply *r = out;
    memset(r, 0, sizeof *r);
    if (argc != 1) {
        pg_reply_error(r, "0A000", "locklab: a request is one SQL statement in one argument (got %d arguments)", argc);
        return;
    }
    if (pg_exec(s->pg, client, argv[0].p, argv[0].len, r)) s->ticket[client] = s->host.park(s->host.ud, pg_wait_timer(s->pg, client));
    pk_answers(s);
}

static int pk_parked_timeout(kserver *s, uint64_t ticket, void *reply, int64_t *again_ms)
{
    int client = -1;
    for (int c = 0; c < s->host.nclients; c++)
        if (s->ticket[c] == ticket) client = c;
    *again_ms = 0;
    if (client < 0) return 0;
    if (!pg_wait_timeout(s->pg, client, reply, again_ms)) return 0;
    s->ticket[client] = 0;
    pk_answers(s);
    return 1;
}

static void pk_reply_release(void *r)
{
    pg_reply_release(r);
}

static void pk_reply_brief(const void *r, buf *out)
{
    pg_reply_brief(r, out);
}

static int pk_reply_is_error(const void *r)
{
    return ((const pgreply *)r)->type == PG_ERR;
}

static int pk_reply_push(lua_State *L, const void *rp)
{
    const pgreply *r = rp;
    switch (r->type) {
    case PG_ERR:
        lua_pushnil(L);
        lua_pushstring(L, r->msg);
        lua_pushstring(L, r->state);
        return 3;
    case PG_CMD:
        lua_pushstring(L, r->tag);
        return 1;
    case PG_ROWS:
        lua_createtable(L, 1, 0);
        lua_createtable(L, 0, r->ncols);
        for (int j = 0; j < r->ncols; j++) {
            const pgval *v = &r->cells[j];
            if (v->t == PV_NULL) continue;
            if (v->t == PV_BOOL) lua_pushboolean(L, (int)v->i);
            else if (v->t == PV_INT) lua_pushinteger(L, v->i);
            else lua_pushliteral(L, "");
            lua_setfield(L, -2, r->labels[j]);
        }
        lua_rawseti(L, -2, 1);
        return 1;
    }
    return 0;
}

static void pk_disconnect(kserver *s, int client)
{
    if (pg_disconnect(s->pg, client) && s->ticket[client]) s->host.unpark(s->host.ud, s->ticket[client], NULL);
    if (client >= 0 && client < s->host.nclients) s->ticket[client] = 0;
    pk_answers(s);
}

static void pk_unsubscribe(kserver *s, int client, const char *topic)
{
    (void)s, (void)client, (void)topic;
}

static int64_t pk_next_deadline(kserver *s)
{
    (void)s;
    return INT64_MAX;
}

static void pk_expire(kserver *s)
{
    (void)s;
}

static int pk_describe(kserver *s, slice unit, buf *out, int64_t *deadline)
{
    (void)s, (void)unit, (void)out;
    *deadline = -1;
    return 0;
}

/* No data: a change, a snapshot are empty. */
struct kchange {
    int unused;
};
struct kdata {
    int unused;
};

static kchange *pk_capture(kserver *s, slice unit, int deleted)
{
    (void)s, (void)unit, (void)deleted;
    return xcalloc(1, sizeof(kchange));
}

static void pk_apply(kserver *s, kchange *c)
{
    (void)s, (void)c;
}

static void pk_change_free(kchange *c)
{
    free(c);
}

static kdata *pk_snapshot(kserver *s)
{
    (void)s;
    return xcalloc(1, sizeof(kdata));
}

static void pk_load(kserver *s, const kdata *d)
{
    (void)s, (void)d;
}

static void pk_copy_data(kserver *dst, kserver *src)
{
    (void)dst, (void)src;
}

static void pk_data_free(kdata *d)
{
    free(d);
}

static void pk_dump(kserver *s, buf *out)
{
    pg_dump(s->pg, out);
}

const server_kind pg_kind = {
    .name = "postgresql",
    .title = "PostgreSQL advisory locks (the fake PostgreSQL, sim/pg/; checked against PostgreSQL 15)",
    .reply_size = sizeof(pgreply),
    .options = pg_options,
    .create = pk_create,
    .destroy = pk_destroy,
    .set_replica = pk_set_replica,
    .exec = pk_exec,
    .reply_release = pk_reply_release,
    .reply_brief = pk_reply_brief,
    .reply_is_error = pk_reply_is_error,
    .reply_push = pk_reply_push,
    .disconnect = pk_disconnect,
    .unsubscribe = pk_unsubscribe,
    .next_deadline = pk_next_deadline,
    .expire = pk_expire,
    .describe = pk_describe,
    .capture = pk_capture,
    .apply = pk_apply,
    .change_free = pk_change_free,
    .snapshot = pk_snapshot,
    .load = pk_load,
    .copy_data = pk_copy_data,
    .data_free = pk_data_free,
    .dump = pk_dump,
    .parked_timeout = pk_parked_timeout,
    .parked_answered = pk_parked_answered,
};
