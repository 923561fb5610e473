/* mongo_kind.c — the fake MongoDB (mongo.h) as a server kind: the server_kind vtable, so the
 * engine runs a replica set — a primary whose writes reach its secondaries asynchronously,
 * and a failover that promotes one — as it runs Redis with replicas.
 *
 * A request is one command document in Extended JSON, in one argument (argv[0]), as a driver
 * sends `db.runCommand(...)`. The reply reaches a model as a driver returns a command's
 * result: a table of the response document (documents and arrays as tables, arrays from 1,
 * dates as integer ms since the epoch, null fields absent); when the command failed (ok: 0)
 * or a write failed (writeErrors), nil, the error message and the code instead, as drivers
 * raise them.
 *
 * Replication carries documents and collection definitions (the oplog's effect). A
 * secondary never runs the TTL monitor; the primary's TTL deletions reach it as deletions.
 * Write concerns ("Write Concern", reference/write-concern/): with w: 1 a write is
 * acknowledged once the primary has it: a failover before it replicates loses it, and the old
 * primary, back as a secondary, resynchronises from the new one — the rollback of "Rollbacks
 * During Replica Set Failover" (www.mongodb.com/docs/manual/core/replica-set-rollbacks/),
 * whose rolled-back documents the real server saves to rollback files; here they are simply
 * gone. With w: "majority" — "Starting in MongoDB 5.0, the implicit default write concern is
 * w: majority" (no arbiters are modelled, so the default is always majority) — the node
 * answers a write only once a majority of the replica set has it ("Default MongoDB Read
 * Concerns/Write Concerns"), so no acknowledged write rolls back. Reads are "local": the
 * primary shows its own writes before a majority has them, as MongoDB does. Elections: a
 * secondary becomes primary only with a majority of the members' votes ("The voting majority
 * of a replica set is 1 plus half the number of voting members, rounded down"): a primary and
 * one secondary cannot elect when the primary dies; the three-member P-S-S set can.
 *
 * Server options: ttl_monitor, the TTL monitor's period (ttlMonitorSleepSecs, default 60 s);
 * ttl_monitor_first, when its first pass comes after a node's first start (default: one
 * period, as for a process just started; a restarted process always waits a period). The
 * monitor sleeps on the host's steady clock and judges dates by its wall clock (mongo.c). */
#include "mongo_kind.h"

#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "mongo.h"

struct kserver {
    mgserver *mg;
    kind_host host;
};

static const kind_option mongo_options[] = {
    { "ttl_monitor", 1, 60000, 1, 3600000,
      "the TTL monitor's period: how often expired documents are deleted (MongoDB's ttlMonitorSleepSecs, 60 s)" },
    { "ttl_monitor_first", 1, 0, 0, 3600000,
      "when the TTL monitor's first pass comes after the server's first start (0: one period): where its rhythm falls" },
    { NULL, 0, 0, 0, 0, NULL },
};

/* A written document whose TTL field holds a date has an expiry deadline now: a deadline the
 * server sets counts as a reading of its clock for the model checker (server_kind.h), though
 * here the date came from the client and the pass times from the server's start. */
static void gk_changed(void *ud, int how, slice unit)
{
    kserver *s = ud;
    int64_t deadline;
    if (how == 0 && s->host.clock_seen && mg_describe(s->mg, unit, NULL, &deadline) && deadline >= 0)
        s->host.clock_seen(s->host.ud);
    s->host.changed(s->host.ud, how == 0 ? KIND_WRITTEN : how == 1 ? KIND_DELETED : KIND_EXPIRED, unit);
}

static int64_t steady_now(const kserver *s)
{
    return s->host.steady ? s->host.steady(s->host.ud) : s->host.clock(s->host.ud);
}

static kserver *gk_create(const kind_host *host)
{
    kserver *s = xcalloc(1, sizeof *s);
    s->host = *host;
    int64_t period = host->options ? host->options[0] : mongo_options[0].dflt;
    int64_t first = host->options && !host->restarted ? host->options[1] : 0;
    s->mg = mg_new(gk_changed, s, steady_now(s), period, first);
    return s;
}

static void gk_destroy(kserver *s)
{
    if (!s) return;
    mg_free(s->mg);
    free(s);
}

static void gk_set_replica(kserver *s, int replica)
{
    mg_set_secondary(s->mg, replica);
}

static void gk_exec(kserver *s, int client, int conn, int argc, const slice *argv, void *out)
{
    (void)client, (void)conn;
    mgreply *r = out;
    if (argc != 1) {
        mg_reply_error(r, 9, "FailedToParse", "locklab: a request is one command document in one argument");
        return;
    }
    mg_exec(s->mg, argv[0].p, argv[0].len, r);
}

static void gk_reply_release(void *r)
{
    mg_reply_release(r);
}

static void gk_reply_brief(const void *r, buf *out)
{
    doc_print(&((const mgreply *)r)->doc, out);
}

static int gk_reply_is_error(const void *r)
{
    return ((const mgreply *)r)->error;
}

static void push_value(lua_State *L, const dval *v)
{
    switch (v->t) {
    case D_NULL: lua_pushnil(L); break;
    case D_BOOL: lua_pushboolean(L, (int)v->i); break;
    case D_INT:
    case D_DATE: lua_pushinteger(L, v->i); break;
    case D_STR: lua_pushlstring(L, v->s, v->len); break;
    case D_DOC:
    case D_ARRAY:
        lua_createtable(L, v->t == D_ARRAY ? v->d->n : 0, v->t == D_DOC ? v->d->n : 0);
        for (int i = 0; i < v->d->n; i++) {
            push_value(L, &v->d->f[i].v);
            if (v->t == D_ARRAY) lua_rawseti(L, -2, (lua_Integer)i + 1);
            else lua_setfield(L, -2, v->d->f[i].name);
        }
        break;
    }
}

static int gk_reply_push(lua_State *L, const void *rp)
{
    const mgreply *r = rp;
    if (!r->error) {
        push_value(L, &r->doc);
        return 1;
    }
    const ddoc *d = r->doc.d;
    const dval *we = doc_get(d, "writeErrors");
    if (we && we->t == D_ARRAY && we->d->n && we->d->f[0].v.t == D_DOC) d = we->d->f[0].v.d;
    const dval *msg = doc_get(d, "errmsg"), *code = doc_get(d, "code");
    lua_pushnil(L);
    if (msg && msg->t == D_STR) lua_pushlstring(L, msg->s, msg->len);
    else lua_pushliteral(L, "error");
    lua_pushinteger(L, code && code->t == D_INT ? code->i : 0);
    return 3;
}

static void gk_disconnect(kserver *s, int client)
{
    (void)s, (void)client; /* nothing belongs to a connection */
}

static void gk_unsubscribe(kserver *s, int client, const char *topic)
{
    (void)s, (void)client, (void)topic;
}

/* The node expires what is past the deadline once its clock reads deadline + 1: the pass
 * at time P is asked for as P - 1, on the wall clock the node follows: the steady instant of
 * the pass, as the wall clock reads it now (the two run at one rate between jumps, and the
 * node asks again after a jump). */
static int64_t gk_next_deadline(kserver *s)
{
    int64_t steady = steady_now(s);
    int64_t p = mg_next_pass(s->mg, steady);
    return p == INT64_MAX ? p : s->host.clock(s->host.ud) + (p - steady) - 1;
}

static void gk_expire(kserver *s)
{
    mg_ttl_pass(s->mg, s->host.clock(s->host.ud), steady_now(s));
}

static int gk_describe(kserver *s, slice unit, buf *out, int64_t *deadline)
{
    return mg_describe(s->mg, unit, out, deadline);
}

static kchange *gk_capture(kserver *s, slice unit, int deleted)
{
    return (kchange *)mg_capture(s->mg, unit, deleted);
}

static void gk_apply(kserver *s, kchange *c)
{
    mg_apply(s->mg, (const mgchange *)c);
}

static void gk_change_free(kchange *c)
{
    mg_change_free((mgchange *)c);
}

static kdata *gk_snapshot(kserver *s)
{
    return (kdata *)mg_db_clone(mg_db(s->mg));
}

static void gk_load(kserver *s, const kdata *d)
{
    mg_set_db(s->mg, mg_db_clone((const mgdb *)d));
}

static void gk_copy_data(kserver *dst, kserver *src)
{
    mg_set_db(dst->mg, mg_db_clone(mg_db(src->mg)));
}

static void gk_data_free(kdata *d)
{
    mg_db_free((mgdb *)d);
}

static void gk_dump(kserver *s, buf *out)
{
    mg_dump(s->mg, out);
}

static int gk_reply_needs_majority(const void *r)
{
    return ((const mgreply *)r)->majority;
}

const server_kind mongo_kind = {
    .name = "mongodb",
    .title = "MongoDB (the fake mongod, sim/mongo/; after the MongoDB 7.0 manual)",
    .reply_size = sizeof(mgreply),
    .options = mongo_options,
    .reply_needs_majority = gk_reply_needs_majority,
    .elects_by_majority = 1,
    .create = gk_create,
    .destroy = gk_destroy,
    .set_replica = gk_set_replica,
    .exec = gk_exec,
    .reply_release = gk_reply_release,
    .reply_brief = gk_reply_brief,
    .reply_is_error = gk_reply_is_error,
    .reply_push = gk_reply_push,
    .disconnect = gk_disconnect,
    .unsubscribe = gk_unsubscribe,
    .next_deadline = gk_next_deadline,
    .expire = gk_expire,
    .describe = gk_describe,
    .capture = gk_capture,
    .apply = gk_apply,
    .change_free = gk_change_free,
    .snapshot = gk_snapshot,
    .load = gk_load,
    .copy_data = gk_copy_data,
    .data_free = gk_data_free,
    .dump = gk_dump,
};
