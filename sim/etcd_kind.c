/* etcd_kind.c — the fake etcd as a server kind: the server_kind vtable over sim/etcd/etcd.h,
 * so the engine runs etcd members without knowing etcd.
 *
 * A request is words (sim/etcd/etcd_ops.c: PUT, GET, DEL, TXN, the LEASE_* requests); a reply
 * is an etcd_reply, a tree shaped like the v3 API's JSON, which a model receives as etcd's Go
 * client hands a response over: a table with the same fields (resp.header.revision,
 * resp.kvs[1].create_revision, resp.responses[2].response_range.kvs, resp.succeeded; every
 * field there, zeros and empty lists included, as Go's structs have them), or nil and the
 * error's text ("etcdserver: requested lease not found"). A watch is a subscription (the
 * client's second connection: ctx:subscribe(node, "key K from REV")), its events pushed as
 * "PUT REV KEY" / "DELETE REV KEY". Units of data are keys and leases ("lease <16 hex>"); a
 * change carries the primary's revisions, so a replica's revision follows its primary's. */
#include "etcd_kind.h"

#include <lua.h>
#include <stdlib.h>

#include "etcd/etcd.h"

static const kind_option etcd_options[] = {
    { "heartbeat_interval", 1, 100, 1, 10000,
      "etcd --heartbeat-interval: with the election timeout, the minimum lease TTL (3/2 election ticks)" },
    { "election_timeout", 1, 1000, 10, 50000,
      "etcd --election-timeout: added to every lease's TTL when a replica becomes primary (lessor Promote)" },
    { NULL, 0, 0, 0, 0, NULL },
};

static kserver *ek_create(const kind_host *host)
{
    return (kserver *)etcd_new(host);
}

static void ek_destroy(kserver *s)
{
    etcd_free((etcd *)s);
}

static void ek_set_replica(kserver *s, int replica)
{
    etcd_set_replica((etcd *)s, replica);
}

static void ek_exec(kserver *s, int client, int conn, int argc, const slice *argv, void *reply)
{
    (void)conn;
    etcd_exec((etcd *)s, client, argc, argv, reply);
}

static void ek_reply_release(void *r)
{
    etcd_reply_release(r);
}

static void ek_reply_brief(const void *r, buf *out)
{
    etcd_reply_brief(r, out);
}

static int ek_reply_is_error(const void *r)
{
    return ((const etcd_reply *)r)->err != NULL;
}

static void push_node(lua_State *L, const enode *n)
{
    switch (n->type) {
    case EN_INT: lua_pushinteger(L, n->i); return;
    case EN_BOOL: lua_pushboolean(L, (int)n->i); return;
    case EN_STR: lua_pushlstring(L, n->s, n->len); return;
    case EN_MAP:
    case EN_LIST:
        lua_createtable(L, n->type == EN_LIST ? (int)n->n : 0, n->type == EN_MAP ? (int)n->n : 0);
        for (size_t i = 0; i < n->n; i++) {
            push_node(L, &n->kids[i]);
            if (n->type == EN_MAP) lua_setfield(L, -2, n->kids[i].name);
            else lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return;
    }
}

static int ek_reply_push(lua_State *L, const void *r)
{
    const etcd_reply *e = r;
    if (e->err) {
        lua_pushnil(L);
        lua_pushstring(L, e->err);
        return 2;
    }
    if (!e->root) {
        lua_pushnil(L);
        return 1;
    }
    push_node(L, e->root);
    return 1;
}

static void ek_disconnect(kserver *s, int client)
{
    etcd_disconnect((etcd *)s, client);
}

static void ek_unsubscribe(kserver *s, int client, const char *topic)
{
    etcd_unsubscribe((etcd *)s, client, topic);
}

static int64_t ek_next_deadline(kserver *s)
{
    return etcd_next_deadline((etcd *)s);
}

static void ek_expire(kserver *s)
{
    etcd_expire((etcd *)s);
}

static int ek_describe(kserver *s, slice unit, buf *out, int64_t *deadline)
{
    return etcd_describe((etcd *)s, unit, out, deadline);
}

static kchange *ek_capture(kserver *s, slice unit, int deleted)
{
    return (kchange *)etcd_capture((etcd *)s, unit, deleted);
}

static void ek_apply(kserver *s, kchange *c)
{
    etcd_apply((etcd *)s, (etcd_change *)c);
}

static void ek_change_free(kchange *c)
{
    etcd_change_free((etcd_change *)c);
}

static kdata *ek_snapshot(kserver *s)
{
    return (kdata *)etcd_data_clone(((etcd *)s)->d);
}

static void ek_load(kserver *s, const kdata *d)
{
    etcd_install((etcd *)s, etcd_data_clone((const etcd_data *)d));
}

static void ek_copy_data(kserver *dst, kserver *src)
{
    etcd_install((etcd *)dst, etcd_data_clone(((etcd *)src)->d));
}

static void ek_data_free(kdata *d)
{
    etcd_data_free((etcd_data *)d);
}

static void ek_dump(kserver *s, buf *out)
{
    etcd_dump((etcd *)s, out);
}

static void ek_units(kserver *s, kind_unit_fn fn, void *ud)
{
    etcd_units((etcd *)s, fn, ud);
}

const server_kind etcd_kind = {
    .name = "etcd",
    .monotonic = 1,              /* the lessor measures leases with Go's monotonic clock */
    .title = "etcd 3.4.23 (the fake etcd, sim/etcd/)",
    .reply_size = sizeof(etcd_reply),
    .options = etcd_options,
    .create = ek_create,
    .destroy = ek_destroy,
    .set_replica = ek_set_replica,
    .exec = ek_exec,
    .reply_release = ek_reply_release,
    .reply_brief = ek_reply_brief,
    .reply_is_error = ek_reply_is_error,
    .reply_push = ek_reply_push,
    .disconnect = ek_disconnect,
    .unsubscribe = ek_unsubscribe,
    .next_deadline = ek_next_deadline,
    .expire = ek_expire,
    .describe = ek_describe,
    .capture = ek_capture,
    .apply = ek_apply,
    .change_free = ek_change_free,
    .snapshot = ek_snapshot,
    .load = ek_load,
    .copy_data = ek_copy_data,
    .data_free = ek_data_free,
    .dump = ek_dump,
    .units = ek_units,
};
