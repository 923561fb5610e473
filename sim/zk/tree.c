/* tree.c — the data of one fake ZooKeeper server: the znode tree and the sessions.
 *
 * The tree is an array of znodes sorted bytewise by path, so that a node's descendants are
 * the contiguous run of paths that begin with its path and a slash: a child exists if the
 * first path after "P/" begins with it, and the children are the run's paths with no further
 * slash. The counts in a Stat (dataLength, numChildren) are computed when a Stat is read,
 * so a replica that applies nodes one by one never holds a stale count. The sessions (id,
 * negotiated timeout, expiry) are a second sorted array. Both are the scale of a lock's
 * waiters: a binary search and a memmove are all they need.
 *
 * A fresh tree holds what ZooKeeper 3.8's DataTree constructor makes: the root, /zookeeper,
 * /zookeeper/quota and /zookeeper/config, all with zxid 0 and no cversion change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zkint.h"

znode *znode_new(slice path, slice data)
{
    znode *n = xcalloc(1, sizeof *n);
    n->path = xmemdup(path.p, path.len);
    n->plen = path.len;
    n->data = xmemdup(data.p ? data.p : "", data.len);
    n->dlen = data.len;
    return n;
}

znode *znode_clone(const znode *n)
{
    znode *c = znode_new((slice){ n->path, n->plen }, (slice){ n->data, n->dlen });
    c->st = n->st;
    return c;
}

void znode_free(znode *n)
{
    if (!n) return;
    free(n->path);
    free(n->data);
    free(n);
}

void zd_init(zk_data *d)
{
    memset(d, 0, sizeof *d);
    d->next_session = INT64_C(0x0100000000000001); /* server id 1 in the top byte, as ZooKeeper */
    static const char *const sys[] = { "/", "/zookeeper", "/zookeeper/config", "/zookeeper/quota" };
    for (size_t i = 0; i < LL_ARRAY_LEN(sys); i++) zt_insert(d, znode_new(slice_cstr(sys[i]), (slice){ "", 0 }));
}

void zd_release(zk_data *d)
{
    for (size_t i = 0; i < d->n; i++) znode_free(d->nodes[i]);
    free(d->nodes);
    free(d->ss);
    memset(d, 0, sizeof *d);
}

void zd_copy(zk_data *dst, const zk_data *src)
{
    zd_release(dst);
    dst->n = dst->cap = src->n;
    dst->nodes = xmalloc((src->n ? src->n : 1) * sizeof *dst->nodes);
    for (size_t i = 0; i < src->n; i++) dst->nodes[i] = znode_clone(src->nodes[i]);
    dst->ns = dst->caps = src->ns;
    dst->ss = xmalloc((src->ns ? src->ns : 1) * sizeof *dst->ss);
    if (src->ns) memcpy(dst->ss, src->ss, src->ns * sizeof *dst->ss);
    dst->zxid = src->zxid;
    dst->next_session = src->next_session;
}

/* ---- znodes ---- */

size_t zt_lower(const zk_data *d, slice path)
{
    size_t lo = 0, hi = d->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (slice_cmp((slice){ d->nodes[mid]->path, d->nodes[mid]->plen }, path) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

znode *zt_find(const zk_data *d, slice path)
{
    size_t i = zt_lower(d, path);
    if (i < d->n && slice_eq((slice){ d->nodes[i]->path, d->nodes[i]->plen }, path)) return d->nodes[i];
    return NULL;
}

znode *zt_insert(zk_data *d, znode *n)
{
    slice p = { n->path, n->plen };
    size_t i = zt_lower(d, p);
    if (i < d->n && slice_eq((slice){ d->nodes[i]->path, d->nodes[i]->plen }, p)) {
        znode_free(d->nodes[i]);
        d->nodes[i] = n;
        return n;
    }
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 16;
        d->nodes = xrealloc(d->nodes, d->cap * sizeof *d->nodes);
    }
    memmove(d->nodes + i + 1, d->nodes + i, (d->n - i) * sizeof *d->nodes);
    d->nodes[i] = n;
    d->n++;
    return n;
}

void zt_remove(zk_data *d, slice path)
{
    size_t i = zt_lower(d, path);
    if (i >= d->n || !slice_eq((slice){ d->nodes[i]->path, d->nodes[i]->plen }, path)) return;
    znode_free(d->nodes[i]);
    memmove(d->nodes + i, d->nodes + i + 1, (d->n - i - 1) * sizeof *d->nodes);
    d->n--;
}

/* The prefix every descendant of path starts with: "P/" ("/" for the root). */
static void child_prefix(slice path, buf *b)
{
    buf_append(b, path.p, path.len);
    if (!(path.len == 1 && path.p[0] == '/')) buf_putc(b, '/');
}

/* Visits the children of path in order; stops early when fn returns nonzero. */
static int each_child(const zk_data *d, slice path, int (*fn)(void *, const znode *), void *arg)
{
    buf pre;
    buf_init(&pre);
    child_prefix(path, &pre);
    int rc = 0;
    for (size_t i = zt_lower(d, (slice){ pre.p, pre.len }); i < d->n; i++) {
        const znode *n = d->nodes[i];
        if (n->plen < pre.len || memcmp(n->path, pre.p, pre.len) != 0) break;
        if (n->plen == pre.len) continue; /* the root itself, under the prefix "/" */
        if (memchr(n->path + pre.len, '/', n->plen - pre.len)) continue; /* a grandchild */
        if ((rc = fn(arg, n)) != 0) break;
    }
    buf_release(&pre);
    return rc;
}

static int stop_at_first(void *arg, const znode *n)
{
    (void)arg, (void)n;
    return 1;
}

int zt_has_children(const zk_data *d, slice path)
{
    return each_child(d, path, stop_at_first, NULL);
}

static int count_one(void *arg, const znode *n)
{
    (void)n;
    ++*(int32_t *)arg;
    return 0;
}

int32_t zt_count_children(const zk_data *d, slice path)
{
    int32_t k = 0;
    each_child(d, path, count_one, &k);
    return k;
}

typedef struct names {
    char **v;
    size_t n, cap;
} names;

static int collect(void *arg, const znode *n)
{
    names *a = arg;
    const char *slash = strrchr(n->path, '/');
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 8;
        a->v = xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = xstrdup(slash + 1);
    return 0;
}

char **zt_children(const zk_data *d, slice path, size_t *n)
{
    names a = { 0 };
    each_child(d, path, collect, &a);
    *n = a.n;
    return a.v;
}

slice zt_parent(slice path)
{
    size_t i = path.len;
    while (i > 0 && path.p[i - 1] != '/') i--;
    return (slice){ path.p, i > 1 ? i - 1 : 1 };
}

/* The Stat a client sees. A node keeps in cversion the number of children ever created
 * under it (the sequence counter); the cversion reported counts deletions too, as
 * DataNode.copyStat computes it: creations * 2 - the children still there. */
void zt_stat(const zk_data *d, const znode *n, zk_stat *out)
{
    *out = n->st;
    out->data_length = (int32_t)n->dlen;
    out->num_children = zt_count_children(d, (slice){ n->path, n->plen });
    out->cversion = n->st.cversion * 2 - out->num_children;
}

/* ---- sessions ---- */

static size_t zs_lower(const zk_data *d, int64_t id)
{
    size_t lo = 0, hi = d->ns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->ss[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

zsession *zs_find(const zk_data *d, int64_t id)
{
    size_t i = zs_lower(d, id);
    return i < d->ns && d->ss[i].id == id ? &d->ss[i] : NULL;
}

zsession *zs_put(zk_data *d, const zsession *s)
{
    size_t i = zs_lower(d, s->id);
    if (!(i < d->ns && d->ss[i].id == s->id)) {
        if (d->ns == d->caps) {
            d->caps = d->caps ? 2 * d->caps : 8;
            d->ss = xrealloc(d->ss, d->caps * sizeof *d->ss);
        }
        memmove(d->ss + i + 1, d->ss + i, (d->ns - i) * sizeof *d->ss);
        d->ns++;
    }
    d->ss[i] = *s;
    return &d->ss[i];
}

void zs_remove(zk_data *d, int64_t id)
{
    size_t i = zs_lower(d, id);
    if (!(i < d->ns && d->ss[i].id == id)) return;
    memmove(d->ss + i, d->ss + i + 1, (d->ns - i - 1) * sizeof *d->ss);
    d->ns--;
}

void zs_unit(int64_t id, buf *out)
{
    buf_printf(out, ZK_SESSION_PREFIX "0x%llx", (unsigned long long)id);
}

int zs_parse_unit(slice unit, int64_t *id)
{
    size_t pl = sizeof ZK_SESSION_PREFIX - 1;
    if (unit.len <= pl + 2 || memcmp(unit.p, ZK_SESSION_PREFIX "0x", pl + 2) != 0 || unit.len > pl + 2 + 16) return 0;
    unsigned long long v = 0;
    for (size_t i = pl + 2; i < unit.len; i++) {
        char c = unit.p[i];
        int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (x < 0) return 0;
        v = v * 16 + (unsigned)x;
    }
    *id = (int64_t)v;
    return 1;
}

/* ---- printing ---- */

void zd_put_bytes(buf *out, const char *p, size_t n)
{
    buf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '"' || c == '\\') buf_printf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f) buf_printf(out, "\\x%02x", c);
        else buf_putc(out, (char)c);
    }
    buf_putc(out, '"');
}

void zd_describe_node(const zk_data *d, const znode *n, buf *out)
{
    zk_stat st;
    zt_stat(d, n, &st);
    zd_put_bytes(out, n->data, n->dlen);
    buf_printf(out, " czxid=0x%llx mzxid=0x%llx pzxid=0x%llx version=%d cversion=%d", (unsigned long long)st.czxid,
               (unsigned long long)st.mzxid, (unsigned long long)st.pzxid, st.version, st.cversion);
    if (st.ephemeral_owner) buf_printf(out, " ephemeralOwner=0x%llx", (unsigned long long)st.ephemeral_owner);
}
