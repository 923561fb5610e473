/* zk_kind.c — the fake ZooKeeper as a server kind: the server_kind vtable over sim/zk/zk.h,
 * so that a scenario with `server = "zookeeper"` runs ZooKeeper nodes.
 *
 * A request is one of the fake's operations (connect, create, getData, ... : zk.c); its
 * reply is a zk_reply, handed to a client model as ZooKeeper's Java client returns it: a
 * path, a Stat (a table with czxid, mzxid, pzxid, version, cversion, aversion,
 * ephemeralOwner, dataLength, numChildren, ctime, mtime), the data and its Stat, the sorted
 * children, a session's id and negotiated timeout, `true` for a call that returns nothing,
 * nil for exists() of a missing node, or nil and the KeeperException.Code's name
 * ("NoNode"). Watch events go to the client's subscription to the channel "watcher"
 * (ctx:subscribe(node, "watcher") — ZooKeeper's default watcher of a handle), as
 * "NodeDeleted /path". A unit of data is a znode (its path) or a session
 * ("session:0x<id>").
 *
 * server_options: tick (zoo.cfg tickTime, default 2000 ms), min_session_timeout and
 * max_session_timeout (0: 2 and 20 ticks, the ZooKeeper Administrator's Guide's defaults). */
#include "zk_kind.h"

#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "zk/zk.h"

enum { OPT_TICK, OPT_MIN, OPT_MAX };

static const kind_option zk_options[] = {
    { "tick", 1, 2000, 1, 600000, "zoo.cfg tickTime: the unit of session timeouts; expiry is checked at tick boundaries" },
    { "min_session_timeout", 1, 0, 0, 3600000, "zoo.cfg minSessionTimeout (0: 2 ticks)" },
    { "max_session_timeout", 1, 0, 0, 3600000, "zoo.cfg maxSessionTimeout (0: 20 ticks)" },
    { NULL, 0, 0, 0, 0, NULL },
};

struct kserver {
    zk *z;
    kind_host host;
};

static void zh_changed(void *ud, zk_ev ev, slice unit)
{
    kserver *s = ud;
    s->host.changed(s->host.ud, ev == ZK_WRITTEN ? KIND_WRITTEN : ev == ZK_DELETED ? KIND_DELETED : KIND_EXPIRED, unit);
}

static void zh_push(void *ud, int client, slice event)
{
    kserver *s = ud;
    s->host.push(s->host.ud, client, SLICE_LIT("watcher"), event);
}

/* zk's clock hook gets the kserver; the node's clock wants the host's ud. */
static int64_t zh_clock(void *ud)
{
    kserver *s = ud;
    return s->host.clock(s->host.ud);
}

static kserver *zkk_create(const kind_host *host)
{
    kserver *s = xcalloc(1, sizeof *s);
    s->host = *host;
    zk_hooks h = { .ud = s, .clock = zh_clock, .changed = zh_changed, .push = zh_push };
    zk_config cfg = { 2000, 0, 0 };
    if (host->options) {
        cfg.tick_ms = host->options[OPT_TICK];
        cfg.min_timeout_ms = host->options[OPT_MIN];
        cfg.max_timeout_ms = host->options[OPT_MAX];
    }
    s->z = zk_new(&h, &cfg, host->nclients);
    return s;
}

static void zkk_destroy(kserver *s)
{
    if (!s) return;
    zk_free(s->z);
    free(s);
}

static void zkk_set_replica(kserver *s, int replica)
{
    zk_set_replica(s->z, replica);
}

/* Connection 1 is the client's subscription to its watch events: SUBSCRIBE is answered OK
 * (the events of every watch the client sets come on it, as to a ZooKeeper handle's default
 * watcher); everything else is a request of the session. */
static void zkk_exec(kserver *s, int client, int conn, int argc, const slice *argv, void *reply)
{
    zk_reply *r = reply;
    if (argc >= 1 && slice_eq_nocase(argv[0], "subscribe")) {
        memset(r, 0, sizeof *r);
        r->kind = ZR_OK;
        return;
    }
    (void)conn;
    zk_exec(s->z, client, argc, argv, r);
}

static void zkk_reply_release(void *r)
{
    zk_reply_release(r);
}

static void zkk_reply_brief(const void *r, buf *out)
{
    zk_reply_brief(r, out);
}

static int zkk_reply_is_error(const void *r)
{
    return ((const zk_reply *)r)->kind == ZR_ERROR;
}

static void set_int(lua_State *L, const char *k, int64_t v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void push_stat(lua_State *L, const zk_stat *st)
{
    lua_createtable(L, 0, 11);
    set_int(L, "czxid", st->czxid);
    set_int(L, "mzxid", st->mzxid);
    set_int(L, "pzxid", st->pzxid);
    set_int(L, "ctime", st->ctime);
    set_int(L, "mtime", st->mtime);
    set_int(L, "version", st->version);
    set_int(L, "cversion", st->cversion);
    set_int(L, "aversion", st->aversion);
    set_int(L, "ephemeralOwner", st->ephemeral_owner);
    set_int(L, "dataLength", st->data_length);
    set_int(L, "numChildren", st->num_children);
}

static int zkk_reply_push(lua_State *L, const void *reply)
{
    const zk_reply *r = reply;
    switch (r->kind) {
    case ZR_ERROR:
        lua_pushnil(L);
        lua_pushstring(L, zk_err_name(r->err));
        return 2;
    case ZR_OK: lua_pushboolean(L, 1); return 1;
    case ZR_PATH: lua_pushlstring(L, r->str, r->len); return 1;
    case ZR_NULL: lua_pushnil(L); return 1;
    case ZR_STAT: push_stat(L, &r->st); return 1;
    case ZR_DATA:
        lua_pushlstring(L, r->str ? r->str : "", r->len);
        push_stat(L, &r->st);
        return 2;
    case ZR_CHILDREN:
        lua_createtable(L, (int)r->nnames, 0);
        for (size_t i = 0; i < r->nnames; i++) {
            lua_pushstring(L, r->names[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return 1;
    case ZR_SESSION:
        lua_pushinteger(L, r->session);
        lua_pushinteger(L, r->timeout);
        return 2;
    }
    return 0;
}

static void zkk_disconnect(kserver *s, int client)
{
    zk_disconnect(s->z, client);
}

static void zkk_unsubscribe(kserver *s, int client, const char *topic)
{
    (void)s, (void)client, (void)topic; /* a client that stops listening ignores what comes */
}

static int64_t zkk_next_deadline(kserver *s)
{
    return zk_next_deadline(s->z);
}

static void zkk_expire(kserver *s)
{
    zk_expire(s->z);
}

static int zkk_describe(kserver *s, slice unit, buf *out, int64_t *deadline)
{
    return zk_describe(s->z, unit, out, deadline);
}

static kchange *zkk_capture(kserver *s, slice unit, int deleted)
{
    return (kchange *)zk_capture(s->z, unit, deleted);
}

static void zkk_apply(kserver *s, kchange *c)
{
    zk_apply(s->z, (zk_change *)c);
}

static void zkk_change_free(kchange *c)
{
    zk_change_free((zk_change *)c);
}

static kdata *zkk_snapshot(kserver *s)
{
    return (kdata *)zk_snapshot(s->z);
}

static void zkk_load(kserver *s, const kdata *d)
{
    zk_load(s->z, (const zk_data *)d);
}

static void zkk_copy_data(kserver *dst, kserver *src)
{
    zk_copy_data(dst->z, src->z);
}

static void zkk_data_free(kdata *d)
{
    zk_data_free((zk_data *)d);
}

static void zkk_dump(kserver *s, buf *out)
{
    zk_dump(s->z, out);
}

static void zkk_units(kserver *s, kind_unit_fn fn, void *ud)
{
    zk_units(s->z, fn, ud);
}

const server_kind zk_kind = {
    .name = "zookeeper",
    .monotonic = 1,              /* sessions expire by Time.currentElapsedTime() */
    .title = "ZooKeeper 3.8 (the fake ZooKeeper, sim/zk/)",
    .reply_size = sizeof(zk_reply),
    .options = zk_options,
    /* sim/zk/zk.c's requests, as its header lists them */
    .requests = "connect TIMEOUT_MS [SESSION] first (a session; later requests need one), then: "
                "create PATH [DATA [persistent|ephemeral|persistent_sequential|ephemeral_sequential]], "
                "delete PATH [VERSION], exists PATH [watch], getData PATH [watch], setData PATH DATA [VERSION], "
                "getChildren PATH [watch], setWatches ZXID (data|exist|child PATH)..., ping, close",
    .create = zkk_create,
    .destroy = zkk_destroy,
    .set_replica = zkk_set_replica,
    .exec = zkk_exec,
    .reply_release = zkk_reply_release,
    .reply_brief = zkk_reply_brief,
    .reply_is_error = zkk_reply_is_error,
    .reply_push = zkk_reply_push,
    .disconnect = zkk_disconnect,
    .unsubscribe = zkk_unsubscribe,
    .next_deadline = zkk_next_deadline,
    .expire = zkk_expire,
    .describe = zkk_describe,
    .capture = zkk_capture,
    .apply = zkk_apply,
    .change_free = zkk_change_free,
    .snapshot = zkk_snapshot,
    .load = zkk_load,
    .copy_data = zkk_copy_data,
    .data_free = zkk_data_free,
    .dump = zkk_dump,
    .units = zkk_units,
};
