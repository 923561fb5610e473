/* zk.c — the fake ZooKeeper server: requests, sessions, watches and expiry over the data of
 * tree.c, following ZooKeeper 3.8's leader (PrepRequestProcessor for the checks and their
 * order, DataTree for the Stat bookkeeping and the watches, SessionTrackerImpl for expiry).
 *
 * Requests, one argv each (words as the Java client's methods name them):
 *   connect TIMEOUT [SESSION]     a new session (a zxid), or this connection re-attached to
 *                                 a live one (SessionExpired if it is gone): (id, timeout)
 *   close                         closeSession: its ephemeral nodes go, its watches too
 *   ping                          renews the session (every request does)
 *   create PATH [DATA [MODE]]     MODE: persistent (default), ephemeral,
 *                                 persistent_sequential, ephemeral_sequential: the path made
 *   delete PATH [VERSION]         VERSION -1 (default) matches any
 *   exists PATH [watch]           the Stat, or null; the watch is set either way
 *   getData PATH [watch]          (data, Stat)
 *   setData PATH DATA [VERSION]   the new Stat
 *   getChildren PATH [watch]      the children's names, sorted bytewise: ZooKeeper returns
 *                                 them in its HashSet's order, which no client may rely on
 *                                 (Curator sorts them itself), so a fixed order loses nothing
 *   setWatches ZXID (data|exist|child PATH)...
 *                                 a reconnected client's watches carried over
 * A request on a connection that never connected, or to a replica, answers ConnectionLoss
 * (a follower cut off from its leader closes its clients' connections); one on a session
 * that expired or was closed answers SessionExpired.
 *
 * Zxids. Every write takes the next zxid before its checks, so a failed create still uses
 * one (ZooKeeper logs it as an error txn); createSession and closeSession (expiry included)
 * take one each; reads and pings none. A zxid is (epoch << 32) | counter; a replica promoted
 * to master starts a new epoch, as a new leader does. */
#include <stdlib.h>
#include <string.h>

#include "zkint.h"

typedef struct zwatch {
    char *path;
    size_t plen;
    int child; /* a child watch (getChildren), else a data watch (exists, getData) */
} zwatch;

typedef struct zconn {
    int64_t session; /* 0: not connected */
    zwatch *w;
    size_t nw, capw;
} zconn;

struct zk {
    zk_hooks h;
    zk_config cfg;
    zk_data d;
    int replica;
    int nclients;
    zconn *conns;
};

static const struct {
    int code;
    const char *name;
} err_names[] = {
    { ZK_OK, "OK" }, { ZK_CONNECTIONLOSS, "ConnectionLoss" }, { ZK_BADARGUMENTS, "BadArguments" },
    { ZK_NONODE, "NoNode" }, { ZK_BADVERSION, "BadVersion" }, { ZK_NOCHILDRENFOREPHEMERALS, "NoChildrenForEphemerals" },
    { ZK_NODEEXISTS, "NodeExists" }, { ZK_NOTEMPTY, "NotEmpty" }, { ZK_SESSIONEXPIRED, "SessionExpired" },
    { ZK_UNIMPLEMENTED, "Unimplemented" },
};

const char *zk_err_name(int err)
{
    for (size_t i = 0; i < LL_ARRAY_LEN(err_names); i++)
        if (err_names[i].code == err) return err_names[i].name;
    return "SystemError";
}

zk *zk_new(const zk_hooks *h, const zk_config *cfg, int nclients)
{
    zk *z = xcalloc(1, sizeof *z);
    z->h = *h;
    z->cfg = *cfg;
    if (z->cfg.tick_ms <= 0) z->cfg.tick_ms = 2000;
    if (z->cfg.min_timeout_ms <= 0) z->cfg.min_timeout_ms = 2 * z->cfg.tick_ms;
    if (z->cfg.max_timeout_ms <= 0) z->cfg.max_timeout_ms = 20 * z->cfg.tick_ms;
    zd_init(&z->d);
    z->nclients = nclients;
    z->conns = xcalloc((size_t)(nclients > 0 ? nclients : 1), sizeof *z->conns);
    return z;
}

static void drop_watches(zconn *c)
{
    for (size_t i = 0; i < c->nw; i++) free(c->w[i].path);
    c->nw = 0;
}

void zk_free(zk *z)
{
    if (!z) return;
    for (int i = 0; i < z->nclients; i++) {
        drop_watches(&z->conns[i]);
        free(z->conns[i].w);
    }
    free(z->conns);
    zd_release(&z->d);
    free(z);
}

static int64_t now_of(zk *z)
{
    return z->h.clock(z->h.ud);
}

/* SessionTrackerImpl.touchSession: the session expires at the first tick boundary after
 * now + timeout (ExpiryQueue.roundToNextInterval). */
static void touch(zk *z, zsession *s)
{
    int64_t t = now_of(z) + s->timeout_ms, tick = z->cfg.tick_ms;
    int64_t q = t / tick - (t % tick < 0);
    s->expires_ms = (q + 1) * tick;
}

static void renew_all(zk *z)
{
    for (size_t i = 0; i < z->d.ns; i++) {
        if (z->replica) z->d.ss[i].expires_ms = -1;
        else touch(z, &z->d.ss[i]);
    }
}

void zk_set_replica(zk *z, int replica)
{
    if (z->replica && !replica) {
        /* a new leader: a new epoch of zxids, and every session given its full timeout */
        z->d.zxid = ((z->d.zxid >> 32) + 1) << 32;
        z->replica = 0;
        renew_all(z);
    }
    z->replica = replica;
    if (replica) renew_all(z);
}

/* ---- effects ---- */

static void changed(zk *z, zk_ev ev, slice unit)
{
    if (z->h.changed) z->h.changed(z->h.ud, ev, unit);
}

static void session_changed(zk *z, zk_ev ev, int64_t id)
{
    buf b;
    buf_init(&b);
    zs_unit(id, &b);
    changed(z, ev, (slice){ b.p, b.len });
    buf_release(&b);
}

static void add_watch(zk *z, int client, slice path, int child)
{
    zconn *c = &z->conns[client];
    for (size_t i = 0; i < c->nw; i++)
        if (c->w[i].child == child && slice_eq((slice){ c->w[i].path, c->w[i].plen }, path)) return;
    if (c->nw == c->capw) {
        c->capw = c->capw ? 2 * c->capw : 4;
        c->w = xrealloc(c->w, c->capw * sizeof *c->w);
    }
    c->w[c->nw++] = (zwatch){ xmemdup(path.p, path.len), path.len, child };
}

/* A watch event, "NodeDeleted /a", to the client's watcher. */
static void push_event(zk *z, int client, const char *type, slice path)
{
    if (!z->h.push) return;
    buf ev;
    buf_init(&ev);
    buf_printf(&ev, "%s ", type);
    buf_append(&ev, path.p, path.len);
    z->h.push(z->h.ud, client, (slice){ ev.p, ev.len });
    buf_release(&ev);
}

/* WatchManager.triggerWatch for the data watches (data) and/or child watches (child) on
 * path: each connection that had one hears the event once, and its watches there go. */
static void trigger(zk *z, const char *type, slice path, int data, int child, int *fired)
{
    for (int ci = 0; ci < z->nclients; ci++) {
        zconn *c = &z->conns[ci];
        int hit = 0;
        for (size_t i = 0; i < c->nw;) {
            zwatch *w = &c->w[i];
            if (((w->child && child) || (!w->child && data)) && slice_eq((slice){ w->path, w->plen }, path)) {
                hit = 1;
                free(w->path);
                c->w[i] = c->w[--c->nw];
            } else {
                i++;
            }
        }
        if (!hit || (fired && fired[ci])) continue;
        if (fired) fired[ci] = 1;
        push_event(z, ci, type, path);
    }
}

/* ---- the tree's writes (DataTree.createNode / deleteNode) ---- */

/* DataTree.createNode: the parent's creations count (cversion) and pzxid; deleteNode: its
 * pzxid only, and only upward. */
static void parent_touched(zk *z, slice path, int64_t zxid, int created)
{
    znode *p = zt_find(&z->d, zt_parent(path));
    if (!p) return;
    if (created) p->st.cversion++;
    if (created || zxid > p->st.pzxid) p->st.pzxid = zxid;
    changed(z, ZK_WRITTEN, zt_parent(path));
}

static void delete_node(zk *z, slice path, int64_t zxid, zk_ev ev)
{
    char *copy = xmemdup(path.p, path.len); /* path may point into the node */
    slice p = { copy, path.len };
    zt_remove(&z->d, p);
    changed(z, ev, p);
    parent_touched(z, p, zxid, 0);
    int *fired = xcalloc((size_t)(z->nclients > 0 ? z->nclients : 1), sizeof *fired);
    trigger(z, "NodeDeleted", p, 1, 0, fired);
    trigger(z, "NodeDeleted", p, 0, 1, fired);
    free(fired);
    trigger(z, "NodeChildrenChanged", zt_parent(p), 0, 1, NULL);
    free(copy);
}

/* closeSession (asked, or on expiry): the ephemeral nodes of the session, in path order. */
static void end_session(zk *z, int64_t id, zk_ev ev)
{
    int64_t zxid = ++z->d.zxid;
    for (int ci = 0; ci < z->nclients; ci++)
        if (z->conns[ci].session == id) drop_watches(&z->conns[ci]);
    size_t n = 0;
    char **paths = xmalloc((z->d.n ? z->d.n : 1) * sizeof *paths);
    for (size_t i = 0; i < z->d.n; i++)
        if (z->d.nodes[i]->st.ephemeral_owner == id) paths[n++] = xstrdup(z->d.nodes[i]->path);
    for (size_t i = 0; i < n; i++) {
        delete_node(z, slice_cstr(paths[i]), zxid, ev);
        free(paths[i]);
    }
    free(paths);
    zs_remove(&z->d, id);
    session_changed(z, ev, id);
}

/* ---- requests ---- */

static void set_err(zk_reply *r, int err)
{
    r->kind = ZR_ERROR;
    r->err = err;
}

/* PathUtils.validatePath, on bytes (the sequence suffix already appended). */
static int valid_path(slice p)
{
    if (p.len == 0 || p.p[0] != '/') return 0;
    if (p.len == 1) return 1;
    if (p.p[p.len - 1] == '/') return 0;
    for (size_t i = 1; i < p.len; i++) {
        unsigned char c = (unsigned char)p.p[i], last = (unsigned char)p.p[i - 1];
        if (c == 0 || (c < 0x20) || c == 0x7f) return 0;
        if (c == '/' && last == '/') return 0;
        int end = i + 1 == p.len || p.p[i + 1] == '/';
        if (c == '.' && end && (last == '/' || (last == '.' && i >= 2 && p.p[i - 2] == '/'))) return 0;
    }
    return 1;
}

/* DataTree.isSpecialPath */
static int special_path(slice p)
{
    static const char *const sp[] = { "/", "/zookeeper", "/zookeeper/quota", "/zookeeper/config" };
    for (size_t i = 0; i < LL_ARRAY_LEN(sp); i++)
        if (slice_eq(p, slice_cstr(sp[i]))) return 1;
    return 0;
}

static int parse_version(slice s, int32_t *v)
{
    long long x;
    if (ll_parse_int64(s, &x) != 0 || x < INT32_MIN || x > INT32_MAX) return -1;
    *v = (int32_t)x;
    return 0;
}

static void reply_stat(zk *z, const znode *n, zk_reply *r)
{
    r->kind = ZR_STAT;
    zt_stat(&z->d, n, &r->st);
}

static void do_create(zk *z, zconn *c, int argc, const slice *argv, zk_reply *r)
{
    int ephemeral = 0, sequential = 0;
    if (argc > 3) {
        slice m = argv[3];
        if (slice_eq_nocase(m, "persistent")) ;
        else if (slice_eq_nocase(m, "ephemeral")) ephemeral = 1;
        else if (slice_eq_nocase(m, "persistent_sequential")) sequential = 1;
        else if (slice_eq_nocase(m, "ephemeral_sequential")) ephemeral = sequential = 1;
        else return set_err(r, ZK_BADARGUMENTS);
    }
    int64_t zxid = ++z->d.zxid;
    /* PrepRequestProcessor.pRequest2TxnCreate's order: a slash and no NUL
     * (validatePathForCreate), the parent, the sequence suffix, the whole path
     * (validatePath), NodeExists, then NoChildrenForEphemerals. */
    slice path = argv[1];
    if (!path.len || !memchr(path.p, '/', path.len) || memchr(path.p, 0, path.len)) return set_err(r, ZK_BADARGUMENTS);
    znode *parent = zt_find(&z->d, zt_parent(path));
    if (!parent) return set_err(r, ZK_NONODE);
    buf full;
    buf_init(&full);
    buf_append(&full, path.p, path.len);
    if (sequential) buf_printf(&full, "%010d", parent->st.cversion);
    slice fp = { full.p, full.len };
    int err = !valid_path(fp) ? ZK_BADARGUMENTS : zt_find(&z->d, fp) ? ZK_NODEEXISTS
              : parent->st.ephemeral_owner != 0 ? ZK_NOCHILDRENFOREPHEMERALS : ZK_OK;
    if (err) {
        buf_release(&full);
        return set_err(r, err);
    }
    znode *n = znode_new(fp, argc > 2 ? argv[2] : (slice){ "", 0 });
    n->st.czxid = n->st.mzxid = n->st.pzxid = zxid;
    n->st.ctime = n->st.mtime = now_of(z);
    n->st.ephemeral_owner = ephemeral ? c->session : 0;
    zt_insert(&z->d, n);
    /* the parent's counters move in the node's own transaction: the node's record (captured
     * at changed()) carries them, whatever becomes of the parent's record after it */
    parent = zt_find(&z->d, zt_parent(fp)); /* found again after the insertion */
    parent->st.cversion++;
    parent->st.pzxid = zxid;
    changed(z, ZK_WRITTEN, fp);
    changed(z, ZK_WRITTEN, zt_parent(fp));
    trigger(z, "NodeCreated", fp, 1, 0, NULL);
    trigger(z, "NodeChildrenChanged", zt_parent(fp), 0, 1, NULL);
    r->kind = ZR_PATH;
    r->len = full.len;
    r->str = buf_steal(&full);
}

static void do_delete(zk *z, int argc, const slice *argv, zk_reply *r)
{
    int32_t version = -1;
    if (argc > 2 && parse_version(argv[2], &version) != 0) return set_err(r, ZK_BADARGUMENTS);
    int64_t zxid = ++z->d.zxid;
    /* getParentPathAndValidate: a slash, no NUL, not one of ZooKeeper's own nodes */
    slice path = argv[1];
    if (!path.len || !memchr(path.p, '/', path.len) || memchr(path.p, 0, path.len) || special_path(path))
        return set_err(r, ZK_BADARGUMENTS);
    if (!zt_find(&z->d, zt_parent(path))) return set_err(r, ZK_NONODE);
    znode *n = zt_find(&z->d, path);
    if (!n) return set_err(r, ZK_NONODE);
    if (version != -1 && version != n->st.version) return set_err(r, ZK_BADVERSION);
    if (zt_has_children(&z->d, path)) return set_err(r, ZK_NOTEMPTY);
    delete_node(z, path, zxid, ZK_DELETED);
    r->kind = ZR_OK;
}

static void do_set_data(zk *z, int argc, const slice *argv, zk_reply *r)
{
    int32_t version = -1;
    if (argc < 3 || (argc > 3 && parse_version(argv[3], &version) != 0)) return set_err(r, ZK_BADARGUMENTS);
    int64_t zxid = ++z->d.zxid;
    slice path = argv[1];
    if (!valid_path(path)) return set_err(r, ZK_BADARGUMENTS);
    znode *n = zt_find(&z->d, path);
    if (!n) return set_err(r, ZK_NONODE);
    if (version != -1 && version != n->st.version) return set_err(r, ZK_BADVERSION);
    free(n->data);
    n->data = xmemdup(argv[2].p, argv[2].len);
    n->dlen = argv[2].len;
    n->st.version++;
    n->st.mzxid = zxid;
    n->st.mtime = now_of(z);
    reply_stat(z, n, r);
    changed(z, ZK_WRITTEN, path);
    trigger(z, "NodeDataChanged", path, 1, 0, NULL);
}

static int want_watch(int argc, const slice *argv)
{
    return argc > 2 && (slice_eq_nocase(argv[2], "watch") || slice_eq_nocase(argv[2], "true"));
}

static void do_read(zk *z, int client, int op, int argc, const slice *argv, zk_reply *r)
{
    slice path = argv[1];
    znode *n = zt_find(&z->d, path);
    int watch = want_watch(argc, argv);
    if (op == 'e') { /* exists: a data watch even on a missing node (it fires NodeCreated) */
        if (watch) add_watch(z, client, path, 0);
        if (!n) r->kind = ZR_NULL;
        else reply_stat(z, n, r);
        return;
    }
    if (!n) return set_err(r, ZK_NONODE);
    if (watch) add_watch(z, client, path, op == 'c');
    if (op == 'd') {
        reply_stat(z, n, r);
        r->kind = ZR_DATA;
        r->str = xmemdup(n->data, n->dlen);
        r->len = n->dlen;
    } else {
        r->kind = ZR_CHILDREN;
        r->names = zt_children(&z->d, path, &r->nnames);
    }
}

/* setWatches RELZXID (data|exist|child PATH)...: what the Java client sends after it
 * reconnects, to carry its watches over (DataTree.setWatches): a data watch whose node is
 * gone fires NodeDeleted, one whose node changed after RELZXID (the last zxid the client
 * saw) NodeDataChanged; an exist watch whose node now exists fires NodeCreated; a child
 * watch NodeDeleted or, after a change of children, NodeChildrenChanged; the others are set
 * again. No zxid: it is not a write. */
static void do_set_watches(zk *z, int client, int argc, const slice *argv, zk_reply *r)
{
    long long rel;
    if (ll_parse_int64(argv[1], &rel) != 0 || argc % 2 != 0) return set_err(r, ZK_BADARGUMENTS);
    for (int i = 2; i < argc; i += 2)
        if (!slice_eq_nocase(argv[i], "data") && !slice_eq_nocase(argv[i], "exist") && !slice_eq_nocase(argv[i], "child"))
            return set_err(r, ZK_BADARGUMENTS);
    for (int kind = 0; kind < 3; kind++) { /* data, exist, child: DataTree.setWatches' order */
        static const char *const kinds[] = { "data", "exist", "child" };
        for (int i = 2; i < argc; i += 2) {
            if (!slice_eq_nocase(argv[i], kinds[kind])) continue;
            slice path = argv[i + 1];
            znode *n = zt_find(&z->d, path);
            const char *ev = NULL;
            if (kind == 0) ev = !n ? "NodeDeleted" : n->st.mzxid > rel ? "NodeDataChanged" : NULL;
            else if (kind == 1) ev = n ? "NodeCreated" : NULL;
            else ev = !n ? "NodeDeleted" : n->st.pzxid > rel ? "NodeChildrenChanged" : NULL;
            if (ev) push_event(z, client, ev, path);
            else add_watch(z, client, path, kind == 2);
        }
    }
    r->kind = ZR_OK;
}

static int32_t negotiate(zk *z, long long asked)
{
    if (asked < z->cfg.min_timeout_ms) return (int32_t)z->cfg.min_timeout_ms;
    if (asked > z->cfg.max_timeout_ms) return (int32_t)z->cfg.max_timeout_ms;
    return (int32_t)asked;
}

/* connect TIMEOUT [SESSION] (argc checked by zk_exec) */
static void do_connect(zk *z, zconn *c, int argc, const slice *argv, zk_reply *r)
{
    long long asked, sid = 0;
    if (ll_parse_int64(argv[1], &asked) != 0 || asked < 0) return set_err(r, ZK_BADARGUMENTS);
    if (argc == 3) {
        char tmp[24];
        size_t n = argv[2].len < sizeof tmp - 1 ? argv[2].len : sizeof tmp - 1;
        memcpy(tmp, argv[2].p, n);
        tmp[n] = 0;
        char *end;
        sid = (long long)strtoull(tmp, &end, 0);
        if (n == 0 || *end) return set_err(r, ZK_BADARGUMENTS);
    }
    drop_watches(c);
    zsession *s;
    if (sid) { /* re-attaching: ZooKeeperServer.reopenSession */
        s = zs_find(&z->d, sid);
        c->session = sid;
        if (!s) return set_err(r, ZK_SESSIONEXPIRED);
        touch(z, s);
    } else {
        zsession ns = { .id = z->d.next_session++, .timeout_ms = negotiate(z, asked) };
        z->d.zxid++; /* createSession is a txn */
        s = zs_put(&z->d, &ns);
        c->session = ns.id;
        touch(z, s); /* before the change is told: it carries the deadline */
        session_changed(z, ZK_WRITTEN, ns.id);
        s = zs_find(&z->d, ns.id);
    }
    r->kind = ZR_SESSION;
    r->session = s->id;
    r->timeout = s->timeout_ms;
}

enum { OP_CONNECT, OP_CLOSE, OP_PING, OP_CREATE, OP_DELETE, OP_EXISTS, OP_GET_DATA, OP_SET_DATA, OP_GET_CHILDREN, OP_SET_WATCHES };

static const struct {
    const char *name;
    int minargs, maxargs;
} ops[] = {
    [OP_CONNECT] = { "connect", 2, 3 }, [OP_CLOSE] = { "close", 1, 1 }, [OP_PING] = { "ping", 1, 1 },
    [OP_CREATE] = { "create", 2, 4 }, [OP_DELETE] = { "delete", 2, 3 }, [OP_EXISTS] = { "exists", 2, 3 },
    [OP_GET_DATA] = { "getData", 2, 3 }, [OP_SET_DATA] = { "setData", 3, 4 },
    [OP_GET_CHILDREN] = { "getChildren", 2, 3 }, [OP_SET_WATCHES] = { "setWatches", 2, 64 },
};

void zk_exec(zk *z, int client, int argc, const slice *argv, zk_reply *r)
{
    memset(r, 0, sizeof *r);
    size_t op = 0;
    while (op < LL_ARRAY_LEN(ops) && !(argc > 0 && slice_eq_nocase(argv[0], ops[op].name))) op++;
    if (op == LL_ARRAY_LEN(ops)) return set_err(r, ZK_UNIMPLEMENTED);
    if (argc < ops[op].minargs || argc > ops[op].maxargs || client < 0 || client >= z->nclients)
        return set_err(r, ZK_BADARGUMENTS);
    if (z->replica) return set_err(r, ZK_CONNECTIONLOSS);
    zconn *c = &z->conns[client];
    if (op == OP_CONNECT) return do_connect(z, c, argc, argv, r);
    if (!c->session) return set_err(r, ZK_CONNECTIONLOSS);
    zsession *s = zs_find(&z->d, c->session);
    if (!s) return set_err(r, ZK_SESSIONEXPIRED);
    touch(z, s);
    switch (op) {
    case OP_CLOSE:
        end_session(z, c->session, ZK_DELETED);
        r->kind = ZR_OK;
        break;
    case OP_PING: r->kind = ZR_OK; break;
    case OP_CREATE: do_create(z, c, argc, argv, r); break;
    case OP_DELETE: do_delete(z, argc, argv, r); break;
    case OP_EXISTS: do_read(z, client, 'e', argc, argv, r); break;
    case OP_GET_DATA: do_read(z, client, 'd', argc, argv, r); break;
    case OP_SET_DATA: do_set_data(z, argc, argv, r); break;
    case OP_GET_CHILDREN: do_read(z, client, 'c', argc, argv, r); break;
    default: do_set_watches(z, client, argc, argv, r); break;
    }
}

void zk_reply_release(zk_reply *r)
{
    free(r->str);
    for (size_t i = 0; i < r->nnames; i++) free(r->names[i]);
    free(r->names);
    memset(r, 0, sizeof *r);
}

static void brief_stat(const zk_stat *st, buf *out)
{
    buf_printf(out, "czxid=0x%llx mzxid=0x%llx pzxid=0x%llx version=%d cversion=%d aversion=%d ephemeralOwner=0x%llx "
               "dataLength=%d numChildren=%d",
               (unsigned long long)st->czxid, (unsigned long long)st->mzxid, (unsigned long long)st->pzxid, st->version,
               st->cversion, st->aversion, (unsigned long long)st->ephemeral_owner, st->data_length, st->num_children);
}

void zk_reply_brief(const zk_reply *r, buf *out)
{
    switch (r->kind) {
    case ZR_ERROR: buf_printf(out, "(error) %s", zk_err_name(r->err)); break;
    case ZR_OK: buf_puts(out, "OK"); break;
    case ZR_PATH: buf_append(out, r->str, r->len); break;
    case ZR_NULL: buf_puts(out, "(null)"); break;
    case ZR_STAT: brief_stat(&r->st, out); break;
    case ZR_DATA:
        buf_putc(out, '"');
        for (size_t i = 0; i < r->len; i++) {
            unsigned char ch = (unsigned char)r->str[i];
            if (ch == '"' || ch == '\\') buf_printf(out, "\\%c", ch);
            else if (ch < 0x20 || ch >= 0x7f) buf_printf(out, "\\x%02x", ch);
            else buf_putc(out, (char)ch);
        }
        buf_puts(out, "\" ");
        brief_stat(&r->st, out);
        break;
    case ZR_CHILDREN:
        buf_putc(out, '[');
        for (size_t i = 0; i < r->nnames; i++) buf_printf(out, "%s%s", i ? ", " : "", r->names[i]);
        buf_putc(out, ']');
        break;
    case ZR_SESSION:
        buf_printf(out, "session 0x%llx timeout %d", (unsigned long long)r->session, r->timeout);
        break;
    }
}

void zk_disconnect(zk *z, int client)
{
    if (client < 0 || client >= z->nclients) return;
    drop_watches(&z->conns[client]);
    z->conns[client].session = 0;
}

/* ---- expiry ---- */

int64_t zk_next_deadline(zk *z)
{
    if (z->replica) return INT64_MAX;
    int64_t m = INT64_MAX;
    for (size_t i = 0; i < z->d.ns; i++)
        if (z->d.ss[i].expires_ms >= 0 && z->d.ss[i].expires_ms < m) m = z->d.ss[i].expires_ms;
    return m == INT64_MAX ? m : m - 1;
}

void zk_expire(zk *z)
{
    if (z->replica) return;
    int64_t now = now_of(z);
    for (;;) { /* in id order; each end may change the array */
        size_t i = 0;
        while (i < z->d.ns && !(z->d.ss[i].expires_ms >= 0 && z->d.ss[i].expires_ms <= now)) i++;
        if (i == z->d.ns) break;
        end_session(z, z->d.ss[i].id, ZK_EXPIRED);
    }
}

/* ---- data: describe, replicate, snapshot, dump ---- */

int zk_describe(zk *z, slice unit, buf *out, int64_t *deadline)
{
    int64_t id;
    *deadline = -1;
    if (zs_parse_unit(unit, &id)) {
        zsession *s = zs_find(&z->d, id);
        if (!s) return 0;
        buf_printf(out, "timeout=%d", s->timeout_ms);
        *deadline = s->expires_ms;
        return 1;
    }
    znode *n = zt_find(&z->d, unit);
    if (!n) return 0;
    zd_describe_node(&z->d, n, out);
    return 1;
}

zk_change *zk_capture(zk *z, slice unit, int deleted)
{
    zk_change *c = xcalloc(1, sizeof *c);
    c->unit = xmemdup(unit.p, unit.len);
    c->ulen = unit.len;
    c->zxid = z->d.zxid;
    c->next_session = z->d.next_session;
    int64_t id;
    if (zs_parse_unit(unit, &id)) {
        zsession *s = deleted ? NULL : zs_find(&z->d, id);
        c->is_session = 1;
        c->s.id = id;
        if (s) c->s = *s;
        else c->del = 1;
    } else {
        znode *n = deleted ? NULL : zt_find(&z->d, unit);
        if (n) c->node = znode_clone(n);
        else c->del = 1;
        znode *p = n ? zt_find(&z->d, zt_parent(unit)) : NULL;
        if (p && p != n) {
            c->has_parent = 1;
            c->parent_cversion = p->st.cversion;
            c->parent_pzxid = p->st.pzxid;
        }
    }
    return c;
}

void zk_apply(zk *z, zk_change *c)
{
    if (c->is_session) {
        if (c->del) zs_remove(&z->d, c->s.id);
        else {
            zsession *s = zs_put(&z->d, &c->s);
            if (z->replica) s->expires_ms = -1;
            else touch(z, s);
        }
    } else if (c->del) {
        zt_remove(&z->d, (slice){ c->unit, c->ulen });
    } else {
        zt_insert(&z->d, c->node);
        c->node = NULL;
        znode *p = c->has_parent ? zt_find(&z->d, zt_parent((slice){ c->unit, c->ulen })) : NULL;
        if (p) {
            if (c->parent_cversion > p->st.cversion) p->st.cversion = c->parent_cversion;
            if (c->parent_pzxid > p->st.pzxid) p->st.pzxid = c->parent_pzxid;
        }
    }
    if (c->zxid > z->d.zxid) z->d.zxid = c->zxid;
    if (c->next_session > z->d.next_session) z->d.next_session = c->next_session;
}

void zk_change_free(zk_change *c)
{
    if (!c) return;
    znode_free(c->node);
    free(c->unit);
    free(c);
}

zk_data *zk_snapshot(zk *z)
{
    zk_data *d = xcalloc(1, sizeof *d);
    zd_copy(d, &z->d);
    return d;
}

/* A server that loads data (a restart, a resynchronisation) builds its session tracker from
 * it: every session starts a full timeout from now (SessionTrackerImpl's constructor). */
void zk_load(zk *z, const zk_data *d)
{
    zd_copy(&z->d, d);
    renew_all(z);
}

void zk_copy_data(zk *dst, zk *src)
{
    zk_load(dst, &src->d);
}

void zk_data_free(zk_data *d)
{
    if (!d) return;
    zd_release(d);
    free(d);
}

/* One line per unit, in the form of the Redis store's dump (so that the HTML player shows
 * them): the last zxid, then each session by id ("session:0x.." session at=-1 timeout=..)
 * and each znode by path ("/path" znode at=-1 "data" Stat), without ZooKeeper's own
 * /zookeeper subtree. When a session expires is the master's bookkeeping, not data: a
 * replica's dump is the master's. */
void zk_dump(zk *z, buf *out)
{
    buf_printf(out, "zxid 0x%llx\n", (unsigned long long)z->d.zxid);
    for (size_t i = 0; i < z->d.ns; i++) {
        buf u;
        buf_init(&u);
        zs_unit(z->d.ss[i].id, &u);
        zd_put_bytes(out, u.p, u.len);
        buf_release(&u);
        buf_printf(out, " session at=-1 timeout=%d\n", z->d.ss[i].timeout_ms);
    }
    for (size_t i = 0; i < z->d.n; i++) {
        const znode *n = z->d.nodes[i];
        if (!strncmp(n->path, "/zookeeper", 10) && (n->plen == 10 || n->path[10] == '/')) continue;
        zd_put_bytes(out, n->path, n->plen);
        buf_puts(out, " znode at=-1 ");
        zd_describe_node(&z->d, n, out);
        buf_putc(out, '\n');
    }
}

void zk_units(zk *z, void (*fn)(void *ud, slice name, const char *type, int64_t deadline, slice value), void *ud)
{
    buf u, v;
    buf_init(&u);
    buf_init(&v);
    for (size_t i = 0; i < z->d.ns; i++) {
        buf_reset(&u);
        buf_reset(&v);
        zs_unit(z->d.ss[i].id, &u);
        buf_printf(&v, "timeout=%d", z->d.ss[i].timeout_ms);
        fn(ud, (slice){ u.p, u.len }, "session", -1, (slice){ v.p, v.len });
    }
    for (size_t i = 0; i < z->d.n; i++) {
        const znode *n = z->d.nodes[i];
        if (!strncmp(n->path, "/zookeeper", 10) && (n->plen == 10 || n->path[10] == '/')) continue;
        buf_reset(&v);
        zd_describe_node(&z->d, n, &v);
        fn(ud, (slice){ n->path, n->plen }, "znode", -1, (slice){ v.p, v.len });
    }
    buf_release(&u);
    buf_release(&v);
}
