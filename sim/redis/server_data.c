/* server_data.c — the server as a node of the simulated world sees it (server.h, its last
 * section): where its effects go, its deadlines, one key's state captured for a replica,
 * copies of the whole data for persistence and resynchronisation, a canonical dump, and a
 * client's connections ending. Only database 0 is the world's: a replica and a snapshot read
 * and write it alone (db.c); the engine's expiry reaches every database. */
#include "server.h"

#include <stdlib.h>
#include <string.h>

/* The largest value a key_set event carries in full (server_describe). */
#define SERVER_DESCRIBE_MAX 4096
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

int server_describe(server *srv, slice key, buf *out, int64_t *deadline)
{
    kv *v = store_peek(server_store(srv), key); /* an engine read: no access */
    if (!v) return 0;
    *deadline = store_expire(server_store(srv), v);
    /* Every write describes the key's new value for the history: in full up to a size, so
     * that a 512 MB SETRANGE or the 100th APPEND to a 2 MB value costs what the command
     * changed, not a rendering 4 times the value's size (issue 37, N1: minutes, with every
     * client of serve waiting). Beyond it: the first 32 bytes and the length (a string; a
     * digest of the whole would cost a pass over it at each write: 1 ms per 2 MB APPEND,
     * 500 times redis-server's), the count (a collection). */
    if (v->type == OBJ_STRING && ((const sstr *)v->ptr)->len > SERVER_DESCRIBE_MAX) {
        const sstr *str = v->ptr;
        dump_repr(out, str->p, 32);
        buf_printf(out, "... (%zu bytes)", str->len);
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
