/* zk.h — the fake ZooKeeper: one server's znode tree, sessions and watches, knowing nothing
 * of the simulated world (its only doors are the hooks below: a clock, changes, pushes).
 *
 * It answers as ZooKeeper 3.8's leader does for the requests a lock recipe makes: a znode
 * tree with persistent, ephemeral and sequential nodes (the sequence suffix is the parent's
 * cversion as "%010d", PrepRequestProcessor.pRequest2TxnCreate), Stat fields, a zxid counter
 * that every write consumes — a failed write too, since ZooKeeper logs it as an error txn —
 * and ZooKeeper's error codes under the names of the Java client's KeeperException.Code
 * (NoNode, NodeExists, NotEmpty, BadVersion, NoChildrenForEphemerals, SessionExpired, ...).
 *
 * Sessions. `connect TIMEOUT` creates one (a createSession txn, a zxid) with the timeout
 * negotiated into [minSessionTimeout, maxSessionTimeout] (by default 2 and 20 tickTimes, the
 * ZooKeeper Administrator's Guide); every request or ping on it renews it; the server expires
 * it at a tick boundary, as SessionTrackerImpl's ExpiryQueue does (a session's expiry time is
 * rounded up to the next multiple of tickTime: roundToNextInterval). Expiry or `close`
 * deletes the session's ephemeral nodes and fires their watches. A dropped connection does
 * not end a session.
 *
 * Watches are one-shot and per connection (WatchManager): NodeCreated, NodeDeleted,
 * NodeDataChanged, NodeChildrenChanged, pushed once to the client that set them.
 *
 * Data (the tree, the sessions and their timeouts, the zxid) can be snapshotted, copied and
 * replicated unit by unit (a znode by its path, a session as "session:0x<id>"); a replica
 * never expires sessions, and a server that becomes the master renews every session with its
 * full timeout, as a new leader's SessionTrackerImpl does when it is built from the
 * database's sessions. See zk.c for the requests. */
#ifndef LOCKLAB_ZK_H
#define LOCKLAB_ZK_H

#include <stdint.h>

#include "util.h"

typedef struct zk zk;
typedef struct zk_data zk_data;

/* KeeperException.Code, with the Java client's values */
enum {
    ZK_OK = 0,
    ZK_CONNECTIONLOSS = -4,
    ZK_BADARGUMENTS = -8,
    ZK_NONODE = -101,
    ZK_BADVERSION = -103,
    ZK_NOCHILDRENFOREPHEMERALS = -108,
    ZK_NODEEXISTS = -110,
    ZK_NOTEMPTY = -111,
    ZK_SESSIONEXPIRED = -112,
    ZK_UNIMPLEMENTED = -6,
};

typedef enum zk_ev { ZK_WRITTEN, ZK_DELETED, ZK_EXPIRED } zk_ev;

typedef struct zk_hooks {
    void *ud;
    int64_t (*clock)(void *ud);                              /* local ms */
    void (*changed)(void *ud, zk_ev ev, slice unit);         /* a znode path or "session:0x.." */
    void (*push)(void *ud, int client, slice event);         /* a watch event, "NodeDeleted /a" */
} zk_hooks;

typedef struct zk_stat {
    int64_t czxid, mzxid, pzxid, ctime, mtime, ephemeral_owner;
    int32_t version, cversion, aversion, data_length, num_children;
} zk_stat;

typedef enum zk_reply_kind {
    ZR_ERROR, ZR_OK, ZR_PATH, ZR_NULL, ZR_STAT, ZR_DATA, ZR_CHILDREN, ZR_SESSION,
} zk_reply_kind;

/* A reply: what the Java client's call returns (a path, a Stat, data and its Stat, the
 * children's names) or a KeeperException.Code. Owns its strings (zk_reply_release). */
typedef struct zk_reply {
    zk_reply_kind kind;
    int err;
    char *str;          /* ZR_PATH, ZR_DATA */
    size_t len;
    zk_stat st;         /* ZR_STAT, ZR_DATA */
    char **names;       /* ZR_CHILDREN, sorted */
    size_t nnames;
    int64_t session;    /* ZR_SESSION */
    int32_t timeout;
} zk_reply;

typedef struct zk_config {
    int64_t tick_ms, min_timeout_ms, max_timeout_ms; /* min/max 0: 2 and 20 ticks */
} zk_config;

zk *zk_new(const zk_hooks *h, const zk_config *cfg, int nclients);
void zk_free(zk *z);
void zk_set_replica(zk *z, int replica);

/* One request of `client` on its connection: argv[0] is connect, close, ping, create,
 * delete, exists, getData, setData, getChildren (zk.c). */
void zk_exec(zk *z, int client, int argc, const slice *argv, zk_reply *r);
void zk_reply_release(zk_reply *r);
const char *zk_err_name(int err);
void zk_reply_brief(const zk_reply *r, buf *out);

/* The client's connection is gone (its watches with it); its session stays. */
void zk_disconnect(zk *z, int client);

/* Local ms before which nothing expires (the next tick boundary with a session due, minus
 * one: it expires when the clock reads the boundary); INT64_MAX: none. */
int64_t zk_next_deadline(zk *z);
void zk_expire(zk *z);

/* Data: a unit's state as one line (0: none) and when it expires (a session: its tick
 * boundary; -1: never); a copy of one unit or of everything. */
int zk_describe(zk *z, slice unit, buf *out, int64_t *deadline);
typedef struct zk_change zk_change;
zk_change *zk_capture(zk *z, slice unit, int deleted);
void zk_apply(zk *z, zk_change *c);
void zk_change_free(zk_change *c);
zk_data *zk_snapshot(zk *z);
void zk_load(zk *z, const zk_data *d);
void zk_copy_data(zk *dst, zk *src);
void zk_data_free(zk_data *d);
void zk_dump(zk *z, buf *out);
/* The units zk_dump shows, as records (the sessions, then the znodes; not the zxid): each
 * one's name (bytes), type ("session", "znode"), deadline (-1) and value as the dump shows it. */
void zk_units(zk *z, void (*fn)(void *ud, slice name, const char *type, int64_t deadline, slice value), void *ud);

#endif
