/* consul_kind.c — the fake Consul (consul.h) as a server kind: the server_kind vtable, so the
 * engine runs Consul servers (a leader with followers, committed on a quorum where the
 * scenario says so) without knowing Consul.
 *
 * A request is words (consul.c's header). The reply reaches a model as Consul's Go API
 * (hashicorp/consul/api) hands it over, flattened: a session id (a string) from
 * SESSION_CREATE; a session entry { ID, TTL, LockDelay (ms), Behavior } from SESSION_RENEW;
 * true or false from SESSION_DESTROY, KV_ACQUIRE and KV_RELEASE; a KVPair { Key, Value,
 * Session (nil when none), LockIndex, ModifyIndex, CreateIndex } from KV_GET, or nil when the
 * key does not exist; for an error nil, its text and the HTTP status. Units of data are
 * "session/ID" and "kv/KEY"; sessions expire by the leader's monotonic clock. */
#include "consul_kind.h"

#include <lua.h>
#include <stdlib.h>

#include "consul.h"

static kserver *ck_create(const kind_host *host)
{
    return (kserver *)consul_new(host);
}

static void ck_destroy(kserver *s)
{
    consul_free((consul *)s);
}

static void ck_set_replica(kserver *s, int replica)
{
    consul_set_replica((consul *)s, replica);
}

static void ck_exec(kserver *s, int client, int conn, int argc, const slice *argv, void *reply)
{
    (void)conn;
    consul_exec_from((consul *)s, client, argc, argv, reply);
}

static void ck_reply_release(void *r)
{
    consul_reply_release(r);
}

static void ck_reply_brief(const void *r, buf *out)
{
    consul_reply_brief(r, out);
}

static int ck_reply_is_error(const void *r)
{
    return ((const consul_reply *)r)->type == CR_ERR;
}

static void set_int(lua_State *L, const char *k, int64_t v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static int ck_reply_push(lua_State *L, const void *rp)
{
    const consul_reply *r = rp;
    switch (r->type) {
    case CR_ERR:
        lua_pushnil(L);
        lua_pushstring(L, r->text);
        lua_pushinteger(L, r->code);
        return 3;
    case CR_BOOL: lua_pushboolean(L, (int)r->b); return 1;
    case CR_ID: lua_pushstring(L, r->text); return 1;
    case CR_NONE: lua_pushnil(L); return 1;
    case CR_KEY:
        lua_createtable(L, 0, 6);
        lua_pushstring(L, r->text);
        lua_setfield(L, -2, "Key");
        lua_pushstring(L, r->value);
        lua_setfield(L, -2, "Value");
        if (*r->session) {
            lua_pushstring(L, r->session);
            lua_setfield(L, -2, "Session");
        }
        set_int(L, "LockIndex", r->lock_index);
        set_int(L, "ModifyIndex", r->modify_index);
        set_int(L, "CreateIndex", r->create_index);
        return 1;
    case CR_SESSION:
        lua_createtable(L, 0, 4);
        lua_pushstring(L, r->text);
        lua_setfield(L, -2, "ID");
        set_int(L, "TTL", r->ttl);
        set_int(L, "LockDelay", r->lock_delay);
        lua_pushstring(L, r->behavior);
        lua_setfield(L, -2, "Behavior");
        return 1;
    }
    return 0;
}

static void ck_disconnect(kserver *s, int client)
{
    (void)s, (void)client;
}

static void ck_unsubscribe(kserver *s, int client, const char *topic)
{
    (void)s, (void)client, (void)topic;
}

static int64_t ck_next_deadline(kserver *s)
{
    return consul_next_deadline((consul *)s);
}

static void ck_expire(kserver *s)
{
    consul_expire((consul *)s);
}

static int ck_describe(kserver *s, slice unit, buf *out, int64_t *deadline)
{
    return consul_describe((consul *)s, unit, out, deadline);
}

static kchange *ck_capture(kserver *s, slice unit, int deleted)
{
    return (kchange *)consul_capture((consul *)s, unit, deleted);
}

static void ck_apply(kserver *s, kchange *c)
{
    consul_apply((consul *)s, (const consul_change *)c);
}

static void ck_change_free(kchange *c)
{
    consul_change_free((consul_change *)c);
}

static kdata *ck_snapshot(kserver *s)
{
    return (kdata *)consul_snapshot((consul *)s);
}

static void ck_load(kserver *s, const kdata *d)
{
    consul_load((consul *)s, (const consul_data *)d);
}

static void ck_copy_data(kserver *dst, kserver *src)
{
    consul_data *d = consul_snapshot((consul *)src);
    consul_load((consul *)dst, d);
    consul_data_free(d);
}

static void ck_data_free(kdata *d)
{
    consul_data_free((consul_data *)d);
}

static void ck_dump(kserver *s, buf *out)
{
    consul_dump((consul *)s, out);
}

const server_kind consul_kind = {
    .name = "consul",
    .title = "Consul sessions and KV locks, with lock-delay (the fake Consul, sim/consul/)",
    .reply_size = sizeof(consul_reply),
    .monotonic = 1,
    .create = ck_create,
    .destroy = ck_destroy,
    .set_replica = ck_set_replica,
    .exec = ck_exec,
    .reply_release = ck_reply_release,
    .reply_brief = ck_reply_brief,
    .reply_is_error = ck_reply_is_error,
    .reply_push = ck_reply_push,
    .disconnect = ck_disconnect,
    .unsubscribe = ck_unsubscribe,
    .next_deadline = ck_next_deadline,
    .expire = ck_expire,
    .describe = ck_describe,
    .capture = ck_capture,
    .apply = ck_apply,
    .change_free = ck_change_free,
    .snapshot = ck_snapshot,
    .load = ck_load,
    .copy_data = ck_copy_data,
    .data_free = ck_data_free,
    .dump = ck_dump,
};
