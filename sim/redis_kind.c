/* redis_kind.c — the fake Redis as a server kind: the server_kind vtable over
 * sim/redis/server.h, so the engine runs Redis nodes without knowing Redis.
 *
 * A request is a Redis command (argv[0] is its name); its reply is a `reply` (reply.h),
 * kept in the reply message itself; a model gets it as a Redis client library hands it over:
 * the value, or nil and the error text. A unit of data is a key: its changes come from the
 * store's observer, its new state (type, value, absolute deadline) travels to a replica as
 * a change, and a snapshot (kdata) is a copy of the store that belongs to no server. Each
 * client has two connections to the server, numbered as the simulator always numbered
 * them: (client's actor) × 2 for commands, + 1 for pub/sub. */
#include "redis_kind.h"

#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chunkcache.h"
#include "pubsub.h"
#include "reply.h"
#include "server.h"
#include "store.h"

struct kserver {
    server *srv;
    kind_host host;
    conn *conns, *subconns; /* per client: its command and pub/sub connections */
};

struct kchange {
    int del;
    obj_type type;
    void *val;
    int64_t expire;
    size_t klen;
    char key[];
};

static store *db_of(kserver *s)
{
    return server_store(s->srv);
}

/* ---- the server and its effects ---- */

static void rk_observe(void *ud, store_event ev, slice key)
{
    kserver *s = ud;
    s->host.changed(s->host.ud, ev == STORE_WRITTEN ? KIND_WRITTEN : ev == STORE_DELETED ? KIND_DELETED : KIND_EXPIRED,
                    key);
}

static void rk_deliver(void *ud, int conn_id, slice channel, slice message)
{
    kserver *s = ud;
    int client = conn_id / 2 - s->host.client_base;
    if (client < 0 || client >= s->host.nclients) return;
    s->host.push(s->host.ud, client, channel, message);
}

static void rk_trace(void *ud, int argc, const slice *argv, const reply *r)
{
    kserver *s = ud;
    s->host.trace(s->host.ud, argc, argv, r);
}

/* The store gets the node's clock and reports every change. */
static void wire_store(kserver *s)
{
    store *db = db_of(s);
    store_set_clock(db, s->host.clock, s->host.ud);
    store_set_clock_seen(db, s->host.clock_seen, s->host.ud);
    store_set_deadline_hooks(db, s->host.deadline_set, s->host.deadline_read, s->host.ud);
    store_set_observer(db, rk_observe, s);
}

/* Installs db as the keyspace (freeing the old one) and rewires it. */
static void install_store(kserver *s, store *db)
{
    store_set_clock(db, s->host.clock, s->host.ud);
    store_free(server_swap_store(s->srv, db));
    wire_store(s);
}

static kserver *rk_create(const kind_host *host)
{
    kserver *s = xcalloc(1, sizeof *s);
    s->host = *host;
    server_config cfg = {
        .clock = host->clock, .clock_ud = host->ud,
        .deliver = rk_deliver, .deliver_ud = s,
        .trace = host->trace ? rk_trace : NULL, .trace_ud = s,
        .load = chunkcache_load_ud, .load_ud = host->chunks,
    };
    s->srv = server_new(&cfg);
    s->conns = xcalloc((size_t)host->nclients, sizeof *s->conns);
    s->subconns = xcalloc((size_t)host->nclients, sizeof *s->subconns);
    for (int c = 0; c < host->nclients; c++) {
        s->conns[c].id = (host->client_base + c) * 2;
        s->subconns[c].id = (host->client_base + c) * 2 + 1;
    }
    wire_store(s);
    return s;
}

static void rk_destroy(kserver *s)
{
    if (!s) return;
    server_free(s->srv);
    free(s->conns);
    free(s->subconns);
    free(s);
}

static void rk_set_replica(kserver *s, int replica)
{
    server_set_replica(s->srv, replica);
}

/* ---- requests and replies ---- */

/* INFO [replication]: the replication section only (role, connected_slaves), from the node
 * (the fake Redis has no other INFO); 1 if it was INFO. */
static int rk_info(kserver *s, int argc, const slice *argv, reply *out)
{
    if (!s->host.replicas || argc < 1 || argv[0].len != 4 || strncasecmp(argv[0].p, "INFO", 4)) return 0;
    for (int i = 1; i < argc; i++) {
        int known = 0;
        static const char *const sections[] = { "replication", "all", "everything", "default" };
        for (size_t k = 0; k < sizeof sections / sizeof *sections; k++)
            if (argv[i].len == strlen(sections[k]) && !strncasecmp(argv[i].p, sections[k], argv[i].len)) known = 1;
        if (!known) {
            reply_bulk_cstr(out, "");
            return 1;
        }
    }
    int n = s->host.replicas(s->host.ud);
    char text[128];
    if (n < 0) snprintf(text, sizeof text, "# Replication\r\nrole:slave\r\n");
    else snprintf(text, sizeof text, "# Replication\r\nrole:master\r\nconnected_slaves:%d\r\n", n);
    reply_bulk_cstr(out, text);
    return 1;
}

static void rk_exec(kserver *s, int client, int which, int argc, const slice *argv, void *out)
{
    reply_init(out);
    if (rk_info(s, argc, argv, out)) return;
    server_exec(s->srv, which ? &s->subconns[client] : &s->conns[client], argc, argv, out);
}

static void rk_reply_release(void *r)
{
    reply_release(r);
}

static void rk_reply_brief(const void *r, buf *out)
{
    reply_to_brief(r, out);
}

static int rk_reply_is_error(const void *r)
{
    return reply_is_error(r);
}

/* Pushes a reply the way a client library hands it over: (value) or (nil, error). */
static int push_reply(lua_State *L, const reply *r)
{
    switch (r->type) {
    case REPLY_NIL:
    case REPLY_NIL_ARRAY: lua_pushnil(L); return 1;
    case REPLY_STATUS:
    case REPLY_BULK: lua_pushlstring(L, r->str, r->len); return 1;
    case REPLY_ERROR:
        lua_pushnil(L);
        lua_pushlstring(L, r->str, r->len);
        return 2;
    case REPLY_INTEGER: lua_pushinteger(L, r->integer); return 1;
    case REPLY_ARRAY:
    case REPLY_MULTI:
        lua_createtable(L, (int)r->n, 0);
        for (size_t i = 0; i < r->n; i++) {
            if (r->elem[i].type == REPLY_NIL || r->elem[i].type == REPLY_NIL_ARRAY) lua_pushboolean(L, 0);
            else if (r->elem[i].type == REPLY_ERROR) lua_pushlstring(L, r->elem[i].str, r->elem[i].len);
            else push_reply(L, &r->elem[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return 1;
    }
    return 0;
}

static int rk_reply_push(lua_State *L, const void *r)
{
    return push_reply(L, r);
}

/* ---- connections and time ---- */

static void rk_disconnect(kserver *s, int client)
{
    pubsub_drop_conn(server_pubsub(s->srv), s->conns[client].id);
    pubsub_drop_conn(server_pubsub(s->srv), s->subconns[client].id);
    s->conns[client].subscriptions = s->subconns[client].subscriptions = 0;
    s->conns[client].db = s->subconns[client].db = 0; /* a new connection starts in database 0 */
    server_conn_closed(s->srv, s->conns[client].id); /* its MULTI and WATCH, if any */
}

static void rk_unsubscribe(kserver *s, int client, const char *channel)
{
    if (pubsub_unsubscribe(server_pubsub(s->srv), s->subconns[client].id, slice_cstr(channel)))
        s->subconns[client].subscriptions--;
}

static int64_t rk_next_deadline(kserver *s)
{
    return store_next_expiry(db_of(s));
}

static void rk_expire(kserver *s)
{
    store_active_expire(db_of(s));
}

/* ---- data ---- */

static int rk_describe(kserver *s, slice key, buf *out, int64_t *deadline)
{
    kv *v = store_lookup(db_of(s), key);
    if (!v) return 0;
    obj_dump((obj_type)v->type, v->ptr, out);
    *deadline = v->expire;
    return 1;
}

static kchange *rk_capture(kserver *s, slice key, int deleted)
{
    kv *v = deleted ? NULL : store_lookup(db_of(s), key);
    kchange *c = xcalloc(1, sizeof *c + key.len + 1);
    memcpy(c->key, key.p, key.len);
    c->klen = key.len;
    if (v) {
        c->type = (obj_type)v->type;
        c->val = obj_clone((obj_type)v->type, v->ptr);
        c->expire = v->expire;
    } else {
        c->del = 1;
    }
    return c;
}

static void rk_apply(kserver *s, kchange *c)
{
    store *db = db_of(s);
    slice key = { c->key, c->klen };
    if (c->del) {
        store_delete(db, key);
    } else {
        kv *e = store_set(db, key, c->type, c->val, 0);
        c->val = NULL; /* the store owns it now */
        if (c->expire >= 0) store_set_expire(db, e, c->expire);
        store_touched(db, e);
    }
}

static void rk_change_free(kchange *c)
{
    if (!c) return;
    if (c->val) obj_free(c->type, c->val);
    free(c);
}

static kdata *rk_snapshot(kserver *s)
{
    return (kdata *)store_clone(db_of(s));
}

static void rk_load(kserver *s, const kdata *d)
{
    install_store(s, store_clone((const store *)d));
}

static void rk_copy_data(kserver *dst, kserver *src)
{
    install_store(dst, store_clone(db_of(src)));
}

static void rk_data_free(kdata *d)
{
    store_free((store *)d);
}

static void rk_dump(kserver *s, buf *out)
{
    store_dump(db_of(s), out, 1);
}

/* WAIT numreplicas timeout: Redis 7.0's argument checks (getLongFromObjectOrReply,
 * getTimeoutFromObjectOrReply); the waiting is the node's. */
static int rk_is_wait(int argc, const slice *argv, int64_t *replicas, int64_t *timeout_ms, void *out)
{
    if (argc < 1 || argv[0].len != 4 || strncasecmp(argv[0].p, "WAIT", 4)) return 0;
    reply *r = out;
    reply_init(r);
    if (argc != 3) {
        reply_error(r, "ERR wrong number of arguments for 'wait' command");
        return -1;
    }
    long long n, t;
    if (ll_parse_int64(argv[1], &n) != 0) {
        reply_error(r, "ERR value is not an integer or out of range");
        return -1;
    }
    if (ll_parse_int64(argv[2], &t) != 0) {
        reply_error(r, "ERR timeout is not an integer or out of range");
        return -1;
    }
    if (t < 0) {
        reply_error(r, "ERR timeout is negative");
        return -1;
    }
    *replicas = n;
    *timeout_ms = t;
    return 1;
}

static void rk_reply_wait(void *out, int64_t acked, const char *error)
{
    reply *r = out;
    reply_init(r);
    if (error) reply_error(r, error);
    else reply_int(r, acked);
}

const server_kind redis_kind = {
    .name = "redis",
    .title = "Redis 7.0.15 (the fake Redis, sim/redis/)",
    .reply_size = sizeof(reply),
    .create = rk_create,
    .destroy = rk_destroy,
    .set_replica = rk_set_replica,
    .exec = rk_exec,
    .reply_release = rk_reply_release,
    .reply_brief = rk_reply_brief,
    .reply_is_error = rk_reply_is_error,
    .reply_push = rk_reply_push,
    .disconnect = rk_disconnect,
    .unsubscribe = rk_unsubscribe,
    .next_deadline = rk_next_deadline,
    .expire = rk_expire,
    .describe = rk_describe,
    .capture = rk_capture,
    .apply = rk_apply,
    .change_free = rk_change_free,
    .snapshot = rk_snapshot,
    .load = rk_load,
    .copy_data = rk_copy_data,
    .data_free = rk_data_free,
    .dump = rk_dump,
    .is_wait = rk_is_wait,
    .reply_wait = rk_reply_wait,
};
