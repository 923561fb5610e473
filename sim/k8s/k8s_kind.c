/* k8s_kind.c — the fake Kubernetes API server (k8s.h) as a server kind: the server_kind
 * vtable, so the engine runs API servers (over an etcd cluster: a primary with replicas,
 * committed on a quorum where the scenario says so) without knowing them.
 *
 * A request is words (k8s.c's header). The reply reaches a model as client-go's typed client
 * hands a Lease over, flattened: a table { name, resourceVersion (a string, opaque as the API
 * says), holderIdentity (nil when empty), leaseDurationSeconds, acquireTime, renewTime (nil
 * when unset), leaseTransitions }, or nil, the Status's reason ("NotFound", "AlreadyExists",
 * "Conflict", ...) and its message. Units of data are "lease/NAME"; nothing expires. */
#include "k8s_kind.h"

#include <lua.h>
#include <stdlib.h>

#include "k8s.h"

struct kserver {
    k8s *s;
    kind_host host;
};

static void kk_changed(void *ud, int deleted, slice unit)
{
    kserver *s = ud;
    s->host.changed(s->host.ud, deleted ? KIND_DELETED : KIND_WRITTEN, unit);
}

static kserver *kk_create(const kind_host *host)
{
    kserver *s = xcalloc(1, sizeof *s);
    s->host = *host;
    s->s = k8s_new(kk_changed, s);
    return s;
}

static void kk_destroy(kserver *s)
{
    if (!s) return;
    k8s_free(s->s);
    free(s);
}

static void kk_set_replica(kserver *s, int replica)
{
    k8s_set_readonly(s->s, replica);
}

static void kk_exec(kserver *s, int client, int conn, int argc, const slice *argv, void *reply)
{
    (void)client, (void)conn;
    k8s_exec(s->s, argc, argv, reply);
}

static void kk_reply_release(void *r)
{
    k8s_reply_release(r);
}

static void kk_reply_brief(const void *r, buf *out)
{
    k8s_reply_brief(r, out);
}

static int kk_reply_is_error(const void *r)
{
    return ((const k8s_reply *)r)->code >= 300;
}

static int kk_reply_push(lua_State *L, const void *rp)
{
    const k8s_reply *r = rp;
    if (r->code >= 300) {
        lua_pushnil(L);
        lua_pushstring(L, r->reason);
        lua_pushstring(L, r->msg);
        return 3;
    }
    const k8s_lease *l = &r->obj;
    lua_createtable(L, 0, 7);
    lua_pushstring(L, l->name);
    lua_setfield(L, -2, "name");
    char rv[24];
    int n = ll_format_int64(rv, l->rv);
    lua_pushlstring(L, rv, (size_t)n);
    lua_setfield(L, -2, "resourceVersion");
    if (l->holder && *l->holder) {
        lua_pushstring(L, l->holder);
        lua_setfield(L, -2, "holderIdentity");
    }
    lua_pushinteger(L, l->duration);
    lua_setfield(L, -2, "leaseDurationSeconds");
    if (l->acquire_ms >= 0) {
        lua_pushinteger(L, l->acquire_ms);
        lua_setfield(L, -2, "acquireTime");
    }
    if (l->renew_ms >= 0) {
        lua_pushinteger(L, l->renew_ms);
        lua_setfield(L, -2, "renewTime");
    }
    lua_pushinteger(L, l->transitions);
    lua_setfield(L, -2, "leaseTransitions");
    return 1;
}

static void kk_disconnect(kserver *s, int client)
{
    (void)s, (void)client;
}

static void kk_unsubscribe(kserver *s, int client, const char *topic)
{
    (void)s, (void)client, (void)topic;
}

static int64_t kk_next_deadline(kserver *s)
{
    (void)s;
    return INT64_MAX;
}

static void kk_expire(kserver *s)
{
    (void)s;
}

static int kk_describe(kserver *s, slice unit, buf *out, int64_t *deadline)
{
    *deadline = -1;
    return k8s_describe(s->s, unit, out);
}

static kchange *kk_capture(kserver *s, slice unit, int deleted)
{
    return (kchange *)k8s_capture(s->s, unit, deleted);
}

static void kk_apply(kserver *s, kchange *c)
{
    k8s_apply(s->s, (const k8s_lease *)c);
}

static void kk_change_free(kchange *c)
{
    k8s_lease_free((k8s_lease *)c);
}

static kdata *kk_snapshot(kserver *s)
{
    return (kdata *)k8s_clone(s->s);
}

static void kk_load(kserver *s, const kdata *d)
{
    k8s_copy_into(s->s, (const k8s *)d);
}

static void kk_copy_data(kserver *dst, kserver *src)
{
    k8s_copy_into(dst->s, src->s);
}

static void kk_data_free(kdata *d)
{
    k8s_free((k8s *)d);
}

static void kk_dump(kserver *s, buf *out)
{
    k8s_dump(s->s, out);
}

const server_kind k8s_kind = {
    .name = "kubernetes",
    .title = "Kubernetes API server, coordination.k8s.io/v1 Leases (the fake API server, sim/k8s/)",
    .reply_size = sizeof(k8s_reply),
    .create = kk_create,
    .destroy = kk_destroy,
    .set_replica = kk_set_replica,
    .exec = kk_exec,
    .reply_release = kk_reply_release,
    .reply_brief = kk_reply_brief,
    .reply_is_error = kk_reply_is_error,
    .reply_push = kk_reply_push,
    .disconnect = kk_disconnect,
    .unsubscribe = kk_unsubscribe,
    .next_deadline = kk_next_deadline,
    .expire = kk_expire,
    .describe = kk_describe,
    .capture = kk_capture,
    .apply = kk_apply,
    .change_free = kk_change_free,
    .snapshot = kk_snapshot,
    .load = kk_load,
    .copy_data = kk_copy_data,
    .data_free = kk_data_free,
    .dump = kk_dump,
};
