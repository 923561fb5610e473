/* etcd.h — the fake etcd v3.4: one member's key space and lessor, the one door of sim/etcd/.
 *
 * What it holds is what an etcd 3.4 member holds (etcd-io/etcd at v3.4.23, the Debian package
 * etcd-server): an MVCC key space with one global revision (1 when empty; every write
 * transaction that changes something takes the next one), and per key its create_revision,
 * mod_revision, version and lease (mvcc/kvstore_txn.go); the history of every put and delete,
 * for watches that start in the past and ranges at an old revision (never compacted here);
 * the leases (lease/lessor.go): granted with a TTL in seconds, renewed to their full TTL by a
 * keep-alive, revoked with every key attached (one revision for the batch), expired by the
 * primary's lessor loop, which looks every 500 ms; on a replica a lease never expires
 * (Demote: "forever"), and when the replica becomes primary every lease gets TTL + election
 * timeout from then (Promote(electionTimeout), etcdserver/server.go).
 *
 * Requests are words (etcd_ops.c has the grammar), replies a tree shaped like the v3 API's
 * JSON (the gRPC gateway's field names: header.revision, kvs[i].create_revision, ...), or an
 * error with etcd's gRPC status text ("etcdserver: requested lease not found"). A watch is
 * a subscription whose topic says what it watches ("key K from REV", "prefix K from REV");
 * each event is pushed to its client as "PUT REV KEY" or "DELETE REV KEY".
 *
 * Units of data, as the engine names them: a key is itself; a lease is "lease <16 hex digits>"
 * (so keys of that form are refused). Effects, pushes and the clock come and go through the
 * kind_host the adapter gives (server_kind.h). */
#ifndef LOCKLAB_ETCD_H
#define LOCKLAB_ETCD_H

#include <stdint.h>

#include "server_kind.h"
#include "util.h"

#define ETCD_FOREVER INT64_MAX
#define ETCD_LESSOR_TICK_MS 500 /* lessor.go runLoop: time.After(500 * time.Millisecond) */

/* The server_options the etcd kind takes, in this order (etcd's flags, in ms). */
enum { ETCD_OPT_HEARTBEAT, ETCD_OPT_ELECTION, ETCD_NOPT };

/* ---- replies: a tree shaped like the API's JSON ---- */
typedef enum { EN_INT, EN_STR, EN_BOOL, EN_MAP, EN_LIST } enode_type;

typedef struct enode {
    const char *name; /* the field's name in its map (a static string), NULL in a list */
    enode_type type;
    int64_t i;        /* EN_INT, EN_BOOL */
    char *s;          /* EN_STR, owned, NUL-terminated */
    size_t len;
    struct enode *kids; /* EN_MAP, EN_LIST */
    size_t n, cap;
} enode;

typedef struct etcd_reply {
    char *err;    /* an error's text, or NULL */
    enode *root;  /* the response (EN_MAP), or NULL on an error */
} etcd_reply;

enode *enode_new_map(void);
enode *enode_add(enode *parent, const char *name, enode_type t);
void enode_int(enode *parent, const char *name, int64_t v);
void enode_bool(enode *parent, const char *name, int v);
void enode_str(enode *parent, const char *name, const char *p, size_t len);
void enode_free(enode *n);
/* One line: {a=1 b=[...]}, leaving out what the JSON gateway leaves out (zero numbers,
 * false, empty strings and lists: proto3's defaults). */
void etcd_reply_brief(const etcd_reply *r, buf *out);
void etcd_reply_release(etcd_reply *r);
/* a key or value as the dump and the briefs quote it: "text", with \xHH for other bytes */
void etcd_repr(buf *out, const char *p, size_t len);

/* ---- the data ---- */
typedef struct ekv {
    char *key, *val;
    size_t klen, vlen;
    int64_t create_rev, mod_rev, version, lease;
} ekv;

typedef struct elease {
    int64_t id, ttl;  /* ttl: the granted TTL, in s */
    int64_t expiry_ms; /* on the local clock; ETCD_FOREVER on a replica */
} elease;

typedef struct eevent {
    int del;      /* 0: PUT, 1: DELETE (kv.mod_rev is the deletion's revision) */
    ekv kv;
} eevent;

typedef struct etcd_data {
    int64_t rev;
    ekv *kvs;         /* sorted by key (bytes, then length) */
    size_t nkvs, capkvs;
    elease *leases;   /* sorted by id */
    size_t nleases, capleases;
    eevent *log;      /* every change, in revision order */
    size_t nlog, caplog;
    uint64_t id_suffix; /* the lease ID generator's last suffix (idutil.Generator) */
} etcd_data;

typedef struct etcd_watch {
    int client;
    char *topic;      /* as subscribed: "key K from REV" */
    char *key, *end;  /* the range watched (erange) */
    size_t klen, elen;
    int has_end;
    int64_t start;    /* the first revision it reports */
} etcd_watch;

typedef struct etcd {
    kind_host host;
    etcd_data *d;
    int replica;
    int64_t start_ms; /* the local clock when the process started: the lessor loop's phase */
    etcd_watch *watches;
    size_t nwatches, capwatches;
} etcd;

/* A change of one unit, from a primary to a replica. */
typedef struct etcd_change {
    int lease_unit, del;
    int64_t rev;      /* the primary's revision then (a deletion's revision) */
    ekv kv;           /* a key's state */
    elease lease;     /* a lease's */
    char *unit;
    size_t ulen;
} etcd_change;

/* etcd_data.c */
etcd_data *etcd_data_new(void);
void etcd_data_free(etcd_data *d);
etcd_data *etcd_data_clone(const etcd_data *d);
ekv *etcd_find(const etcd_data *d, const char *key, size_t klen);
size_t etcd_lower_bound(const etcd_data *d, const char *key, size_t klen);
elease *etcd_lease_find(const etcd_data *d, int64_t id);
elease *etcd_lease_add(etcd_data *d, int64_t id, int64_t ttl, int64_t expiry);
void etcd_lease_remove(etcd_data *d, int64_t id);
/* Writes a key at revision rev (create_revision kept if it exists, version + 1; or as's
 * counters, on a replica), logs it, reports it and notifies watches. */
void etcd_put_kv(etcd *s, const char *key, size_t klen, const char *val, size_t vlen, int64_t lease, int64_t rev,
                 const ekv *as);
/* Deletes a key at revision rev (logged, reported as ev, watched). */
void etcd_delete_kv(etcd *s, size_t idx, int64_t rev, kind_event ev);
void etcd_lease_unit(int64_t id, char out[32]);
int etcd_is_lease_unit(const char *p, size_t len, int64_t *id);
void etcd_dump(const etcd *s, buf *out);
/* The units etcd_dump shows, as records in its order (the revision as the empty key, the
 * keys, the leases): name (bytes), type ("revision", "key", "lease"), deadline (-1: none) and
 * value as the dump shows it. */
void etcd_units(const etcd *s, void (*fn)(void *ud, slice name, const char *type, int64_t deadline, slice value), void *ud);
int etcd_describe(etcd *s, slice unit, buf *out, int64_t *deadline);
etcd_change *etcd_capture(etcd *s, slice unit, int deleted);
void etcd_apply(etcd *s, etcd_change *c);
void etcd_change_free(etcd_change *c);
void etcd_install(etcd *s, etcd_data *d); /* s's data becomes d (owned) */
void ekv_copy(ekv *dst, const ekv *src);
void ekv_release(ekv *kv);

/* etcd_lease.c: the lessor, the server */
etcd *etcd_new(const kind_host *host);
void etcd_free(etcd *s);
void etcd_set_replica(etcd *s, int replica);
/* the local clock, read for a value that leaves the server (a deadline, a TTL) */
int64_t etcd_now_seen(etcd *s);
int64_t etcd_min_ttl(const etcd *s);
int64_t etcd_next_deadline(etcd *s);
void etcd_expire(etcd *s);
int etcd_revoke(etcd *s, int64_t id, kind_event ev);

/* etcd_watch.c: watches (SUBSCRIBE's topics), fed each change as it is logged */
void etcd_watch_notify(etcd *s, const eevent *ev);
void etcd_watch_add(etcd *s, int client, slice topic, etcd_reply *out);
void etcd_watch_release(etcd_watch *w);
void etcd_disconnect(etcd *s, int client);
void etcd_unsubscribe(etcd *s, int client, const char *topic);

/* etcd_ops.c: requests */
void etcd_exec(etcd *s, int client, int argc, const slice *argv, etcd_reply *out);

/* etcd_keys.c: the keys' order, and ranges of them */
int etcd_key_cmp(const char *a, size_t al, const char *b, size_t bl);
/* A range as the API gives it: key alone (end NULL, elen 0), [key, end), or every key from
 * key on (end "\0", elen 1: mkGteRange). */
typedef struct erange {
    slice key, end;
    int has_end;
} erange;
/* the range end of a prefix (clientv3.GetPrefixRangeEnd), into out (klen bytes at most) */
size_t etcd_prefix_end(const char *key, size_t klen, char *out);
int etcd_in_range(const erange *r, const char *k, size_t kl);

#endif
