/* zkint.h — what zk.c (requests, sessions, watches) and tree.c (the data) share: a server's
 * data as a sorted array of znodes and one of sessions, and the helpers over them. Not a
 * door: the rest of locklab sees zk.h only. */
#ifndef LOCKLAB_ZKINT_H
#define LOCKLAB_ZKINT_H

#include "zk.h"

typedef struct znode {
    char *path;         /* NUL-terminated as well */
    size_t plen;
    char *data;
    size_t dlen;
    zk_stat st;         /* data_length, num_children are computed when read; cversion here
                         * counts child creations only (zt_stat reports ZooKeeper's) */
} znode;

typedef struct zsession {
    int64_t id;
    int32_t timeout_ms; /* negotiated */
    int64_t expires_ms; /* on the local clock: a tick boundary (the master's; -1 on a replica) */
} zsession;

/* Everything a server persists and replicates: ZooKeeper's DataTree plus the sessions with
 * their timeouts (both are in its snapshots and its txn log). */
struct zk_data {
    znode **nodes;      /* sorted by path, bytewise */
    size_t n, cap;
    zsession *ss;       /* sorted by id */
    size_t ns, caps;
    int64_t zxid;       /* the last zxid used */
    int64_t next_session;
};

struct zk_change {
    int del;
    znode *node;        /* a znode's new state (NULL: a session, or a deletion) */
    int is_session;
    zsession s;
    int64_t zxid, next_session;
    char *unit;
    size_t ulen;
    /* a created node's parent's counters as its transaction left them (DataTree.createNode
     * moves both in the same transaction): applied with the node, so a replica that gets the
     * node and loses the parent's own record (its master crashed in between) still numbers
     * the next sequential child after it */
    int has_parent;
    int32_t parent_cversion;
    int64_t parent_pzxid;
};

#define ZK_SESSION_PREFIX "session:"

void zd_init(zk_data *d);
void zd_release(zk_data *d);
void zd_copy(zk_data *dst, const zk_data *src);

size_t zt_lower(const zk_data *d, slice path);
znode *zt_find(const zk_data *d, slice path);
znode *zt_insert(zk_data *d, znode *n);      /* takes n; replaces a node of that path */
void zt_remove(zk_data *d, slice path);
int zt_has_children(const zk_data *d, slice path);
int32_t zt_count_children(const zk_data *d, slice path);
/* The children's names of path, sorted; *n their number (caller frees each and the array). */
char **zt_children(const zk_data *d, slice path, size_t *n);
slice zt_parent(slice path);
znode *znode_new(slice path, slice data);
znode *znode_clone(const znode *n);
void znode_free(znode *n);
void zt_stat(const zk_data *d, const znode *n, zk_stat *out);

zsession *zs_find(const zk_data *d, int64_t id);
zsession *zs_put(zk_data *d, const zsession *s);
void zs_remove(zk_data *d, int64_t id);
void zs_unit(int64_t id, buf *out);          /* "session:0x..." */
int zs_parse_unit(slice unit, int64_t *id);  /* 1 if unit names a session */

void zd_describe_node(const zk_data *d, const znode *n, buf *out);
void zd_put_bytes(buf *out, const char *p, size_t n); /* "quoted", as redis-cli quotes */

#endif
