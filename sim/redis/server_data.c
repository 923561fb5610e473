/* server_data.c — the server as a node of the simulated world sees it (server.h, its last
 * section): where its effects go, its deadlines, one key's state captured for a replica,
 * copies of the whole data for persistence and resynchronisation, a canonical dump, and a
 * client's connections ending. Only database 0 is the world's: a replica and a snapshot read
 * and write it alone (db.c); the engine's expiry reaches every database. */
#include "server.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* The largest value a key_set event carries in full (server_describe). */
#define SERVER_DESCRIBE_MAX 4096
/* The same for a string written in place (store_touched_range): past it, the write is told by
 * what it did (1,000 one-byte APPENDs to a 4 KB string rendered 4 MB). */
#define SERVER_DESCRIBE_MAX_RANGED 64
#define SERVER_DESCRIBE_MAX_ITEMS 1024

struct server_change {
    int del;
    obj_type type;
    void *val;
    int64_t expire;
    size_t klen;
    char key[];
};

int64_t server_next_deadline(server *srv)
{
    return server_next_expiry(srv);
}

void server_expire_due(server *srv)
{
    server_active_expire(srv);
}

/* "digest <16 hex digits>": XXH3-64 of p[0..len) (the hash the keyspace uses, dict.c). */
static void put_digest(buf *out, const char *p, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    uint64_t h = XXH3_64bits(p, len);
    char d[24] = "digest ";
    for (int i = 0; i < 16; i++) d[7 + i] = hex[(h >> (60 - 4 * i)) & 15];
    buf_append(out, d, 23);
}

/* A string past SERVER_DESCRIBE_MAX bytes (SERVER_DESCRIBE_MAX_RANGED when written in place),
 * by its length and what the write did, never by a copy of the value (issue 37: a run's
 * memory and time do not grow with its values). A write in place (APPEND, SETRANGE, SETBIT,
 * BITFIELD: store_touched_range) is told by its offset, its length and its bytes (their
 * digest past 32), so that it costs what the command wrote, however large the value (a
 * digest of the whole at each APPEND to 2 MB was 1 ms, 500 times redis-server's APPEND); the
 * history's writes to the key then determine its value. Any other write (SET, GETSET,
 * RESTORE, BITOP, a replica's copy ...) carried the whole value over: its first 32 bytes and
 * its digest, one pass over what was written. E.g.
 *     (2000002 bytes; wrote 1 at 2000001: "y")
 *     (2000002 bytes; wrote 100 at 0, digest 0c6fa4d3b2e19a87)
 *     (2000002 bytes; unchanged)    (EXPIRE, PERSIST: its TTL alone)
 *     "abcabcabcabcabcabcabcabcabcabcab"... (1048576 bytes, digest 8f1d7c2a0e4b5d63) */
static void describe_large(const store *db, const sstr *str, buf *out)
{
    char n[24];
    size_t off, len;
    int ranged = store_touched_bytes(db, &off, &len) && off <= str->len && len <= str->len - off;
    buf_reserve(out, 2 + 4 * 32 + 80); /* at most: a rendering of 32 bytes, the rest */
    if (!ranged) {
        dump_repr(out, str->p, 32);
        buf_puts(out, "... ");
    }
    buf_putc(out, '(');
    buf_append(out, n, (size_t)ll_format_int64(n, (long long)str->len));
    if (ranged && len == 0) { /* EXPIRE, PERSIST, GETEX, APPEND of nothing */
        buf_puts(out, " bytes; unchanged");
    } else if (ranged) {
        buf_puts(out, " bytes; wrote ");
        buf_append(out, n, (size_t)ll_format_int64(n, (long long)len));
        buf_puts(out, " at ");
        buf_append(out, n, (size_t)ll_format_int64(n, (long long)off));
        if (len <= 32) {
            buf_puts(out, ": ");
            dump_repr(out, str->p + off, len);
        } else {
            buf_puts(out, ", ");
            put_digest(out, str->p + off, len);
        }
    } else {
        buf_puts(out, " bytes, ");
        put_digest(out, str->p, str->len);
    }
    buf_putc(out, ')');
}

int server_describe(server *srv, slice key, buf *out, int64_t *deadline)
{
    kv *v = store_peek(server_store(srv), key); /* an engine read: no access */
    if (!v) return 0;
    *deadline = store_expire(server_store(srv), v);
    /* Every write describes the key's new value for the history: in full up to a size, so
     * that a 512 MB SETRANGE or the 100th APPEND to a 2 MB value costs what the command
     * changed, not a rendering 4 times the value's size (issue 37, N1: minutes, with every
     * client of serve waiting). Beyond it, a string by what it is now and what the write
     * did (describe_large), a collection by its count. */
    size_t off, len;
    if (v->type == OBJ_STRING && ((const sstr *)v->ptr)->len >
        (store_touched_bytes(server_store(srv), &off, &len) ? SERVER_DESCRIBE_MAX_RANGED : SERVER_DESCRIBE_MAX)) {
        describe_large(server_store(srv), v->ptr, out);
        return 1;
    }
    size_t n = obj_count((obj_type)v->type, v->ptr);
    if (v->type != OBJ_STRING && n > SERVER_DESCRIBE_MAX_ITEMS) {
        static const char *const what[] = { [OBJ_HASH] = "a hash of %zu fields", [OBJ_LIST] = "a list of %zu elements",
                                            [OBJ_SET] = "a set of %zu members", [OBJ_ZSET] = "a sorted set of %zu members" };
        buf_putc(out, '(');
        buf_printf(out, what[v->type], n);
        buf_putc(out, ')');
        return 1;
    }
    obj_dump((obj_type)v->type, v->ptr, out);
    return 1;
}

server_change *server_capture(server *srv, slice key, int deleted)
{
    kv *v = deleted ? NULL : store_peek(server_store(srv), key); /* an engine read: no access */
    server_change *c = xcalloc(1, sizeof *c + key.len + 1);
    memcpy(c->key, key.p, key.len);
    c->klen = key.len;
    if (v) {
        c->type = (obj_type)v->type;
        c->val = obj_clone((obj_type)v->type, v->ptr);
        c->expire = store_expire(server_store(srv), v);
    } else {
        c->del = 1;
    }
    return c;
}

void server_apply(server *srv, server_change *c)
{
    store *db = server_store(srv);
    slice key = { c->key, c->klen };
    if (c->del) {
        store_delete(db, key);
        return;
    }
    kv *e = store_set(db, key, c->type, c->val, 0);
    c->val = NULL; /* the store owns it now */
    if (c->expire >= 0) store_set_expire(db, e, c->expire);
    store_touched(db, e);
}

void server_change_free(server_change *c)
{
    if (!c) return;
    if (c->val) obj_free(c->type, c->val);
    free(c);
}

/* A snapshot is a keyspace of its own that belongs to no server. */
server_data *server_snapshot(server *srv)
{
    return (server_data *)store_clone(server_store(srv));
}

void server_load(server *srv, const server_data *d)
{
    store_free(server_swap_store(srv, store_clone((const store *)d)));
}

void server_copy_data(server *dst, server *src)
{
    store_free(server_swap_store(dst, store_clone(server_store(src))));
}

void server_data_free(server_data *d)
{
    store_free((store *)d);
}

void server_dump(server *srv, buf *out)
{
    store_dump(server_store(srv), out, 1);
}

void server_drop_conn(server *srv, conn *c)
{
    pubsub_drop_conn(server_pubsub(srv), c->id);
    c->subscriptions = 0;
    c->db = 0; /* a new connection starts in database 0 */
    server_conn_closed(srv, c->id); /* its MULTI and WATCH, if any */
}

int server_unsubscribe(server *srv, conn *c, slice channel)
{
    if (!pubsub_unsubscribe(server_pubsub(srv), c->id, channel)) return 0;
    c->subscriptions--;
    return 1;
}
