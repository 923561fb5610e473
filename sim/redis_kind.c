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
#include "guard.h"
#include "server.h"

struct kserver {
    server *srv;
    kind_host host;
    conn *conns, *subconns; /* per client: its command and pub/sub connections */
    int info;               /* the last request was INFO, answered here (rk_info) */
};

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

static kserver *rk_create(const kind_host *host)
{
    kserver *s = xcalloc(1, sizeof *s);
    s->host = *host;
    server_config cfg = {
        .clock = host->clock, .clock_us = host->clock_us, .clock_ud = host->ud,
        .deliver = rk_deliver, .deliver_ud = s,
        .trace = host->trace ? rk_trace : NULL, .trace_ud = s,
        .load = chunkcache_load_ud, .load_ud = host->chunks,
    };
    if (host->setup) host->setup(host->setup_ud, host->node, &cfg);
    /* a stop request ends a script (guard.h): a tick per 100 instructions, as serve's, so that
     * a loop around a 30 MB search (a few ms a turn, more on a loaded machine) is stopped
     * within a second (a tick per 1,000 took 5-10 s here: audit N3); a short script, most of
     * them, sees one tick in a few runs */
    if (!cfg.script_tick) cfg.script_tick = guard_script_tick;
    s->srv = server_new(&cfg);
    s->conns = xcalloc((size_t)host->nclients, sizeof *s->conns);
    s->subconns = xcalloc((size_t)host->nclients, sizeof *s->subconns);
    for (int c = 0; c < host->nclients; c++) {
        s->conns[c].id = (host->client_base + c) * 2;
        s->subconns[c].id = (host->client_base + c) * 2 + 1;
    }
    server_hooks hooks = {
        .observer = rk_observe, .observer_ud = s,
        .clock_seen = host->clock_seen, .deadline_set = host->deadline_set, .deadline_read = host->deadline_read,
        .ud = host->ud,
    };
    server_set_hooks(s->srv, &hooks);
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
    s->info = rk_info(s, argc, argv, out);
    if (s->info) return;
    guard_request_begin(); /* its scripts are under the models' CPU-time net (guard.h) */
    server_exec(s->srv, which ? &s->subconns[client] : &s->conns[client], argc, argv, out);
    guard_request_end();
}

/* The request just run touched nothing but what it reported (server_footprint); INFO answered
 * here (the node's replication) is not asked about and counts as touching anything. */
static int rk_inert(kserver *s, int which)
{
    return !which && !s->info && server_footprint(s->srv) == 0;
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
    case REPLY_NIL_ARRAY:
    case REPLY_NULL: lua_pushnil(L); return 1;
    case REPLY_STATUS:
    case REPLY_BULK:
    case REPLY_DOUBLE:
    case REPLY_RAW: lua_pushlstring(L, r->str, r->len); return 1;
    case REPLY_ERROR:
        lua_pushnil(L);
        lua_pushlstring(L, r->str, r->len);
        return 2;
    case REPLY_INTEGER:
    case REPLY_BOOL: lua_pushinteger(L, r->integer); return 1;
    case REPLY_ARRAY:
    case REPLY_MULTI:
    case REPLY_MAP: /* RESP3's types: never in the simulated world, which speaks RESP2 */
    case REPLY_SET:
    case REPLY_PUSH:
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
    server_drop_conn(s->srv, &s->conns[client]);
    server_drop_conn(s->srv, &s->subconns[client]);
}

static void rk_unsubscribe(kserver *s, int client, const char *channel)
{
    server_unsubscribe(s->srv, &s->subconns[client], slice_cstr(channel));
}

static int64_t rk_next_deadline(kserver *s)
{
    return server_next_deadline(s->srv);
}

static void rk_expire(kserver *s)
{
    server_expire_due(s->srv);
}

/* ---- data ---- */

static int rk_describe(kserver *s, slice key, buf *out, int64_t *deadline)
{
    return server_describe(s->srv, key, out, deadline);
}

static kchange *rk_capture(kserver *s, slice key, int deleted)
{
    return (kchange *)server_capture(s->srv, key, deleted);
}

static void rk_apply(kserver *s, kchange *c)
{
    server_apply(s->srv, (server_change *)c);
}

static void rk_change_free(kchange *c)
{
    server_change_free((server_change *)c);
}

static kdata *rk_snapshot(kserver *s)
{
    return (kdata *)server_snapshot(s->srv);
}

static void rk_load(kserver *s, const kdata *d)
{
    server_load(s->srv, (const server_data *)d);
}

static void rk_copy_data(kserver *dst, kserver *src)
{
    server_copy_data(dst->srv, src->srv);
}

static void rk_data_free(kdata *d)
{
    server_data_free((server_data *)d);
}

static void rk_dump(kserver *s, buf *out)
{
    server_dump(s->srv, out);
}

typedef struct named_kv {
    slice key;
    const kv *e;
} named_kv;

static int cmp_named(const void *a, const void *b)
{
    return slice_cmp(((const named_kv *)a)->key, ((const named_kv *)b)->key);
}

/* The keys server_dump shows (the live ones, by name: keys are distinct, so any sort gives
 * its order), each with its type, absolute deadline and value in the dump's form. */
static void rk_units(kserver *s, kind_unit_fn fn, void *ud)
{
    store *st = server_store(s->srv);
    size_t n = 0, cap = 16, it = 0;
    named_kv *v = xmalloc(cap * sizeof *v);
    int64_t now = store_now(st);
    kv *e;
    while ((e = store_next(st, &it))) {
        if (store_expire(st, e) >= 0 && now > store_expire(st, e)) continue; /* past its deadline, not yet reaped */
        if (n == cap) v = xrealloc(v, (cap *= 2) * sizeof *v);
        v[n++] = (named_kv){ store_key_of(st, e), e };
    }
    qsort(v, n, sizeof *v, cmp_named);
    buf val;
    buf_init(&val);
    for (size_t i = 0; i < n; i++) {
        buf_reset(&val);
        obj_dump((obj_type)v[i].e->type, v[i].e->ptr, &val);
        fn(ud, v[i].key, obj_type_name((obj_type)v[i].e->type), store_expire(st, v[i].e), (slice){ val.p, val.len });
    }
    buf_release(&val);
    free(v);
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
    .inert = rk_inert,
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
    .units = rk_units,
    .is_wait = rk_is_wait,
    .reply_wait = rk_reply_wait,
};

/* ---- for locklab serve ---- */

server *redis_kind_server(kserver *s)
{
    return s ? s->srv : NULL;
}
