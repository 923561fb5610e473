/* mysql_kind.c — the fake MySQL (mysql.h) as a server kind: the server_kind vtable, so the
 * engine runs MySQL nodes — a primary with asynchronous replicas and failover — as it runs
 * Redis ones.
 *
 * A request is one SQL statement in one argument (argv[0]: the text, as a client library
 * sends it to the server); a client has one connection, whose CONNECTION_ID() is its actor
 * number + 1. The reply reaches a model as lua-resty-mysql's `db:query` returns it: for a
 * statement without a result set a table { affected_rows = N }; for a SELECT an array of rows,
 * each a table from column name (the alias, or the expression as written) to value (an
 * integer, a string; NULL leaves the field nil); for an error nil, the message, the error
 * number and the SQLSTATE.
 *
 * Replication carries rows and table definitions, as MySQL's row-based binary log does
 * (binlog_format=ROW): a replica applies them without checks. User-level locks are not data:
 * a replica promoted by a failover holds none, and a restarted server none either. The
 * crash of a client closes its connection, which releases its locks, as the server does
 * when the TCP connection of a dead process closes. No expiry: nothing in a table ever
 * times out. */
#include "mysql_kind.h"

#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "mysql.h"

struct kserver {
    myserver *my;
    kind_host host;
};

static void mk_changed(void *ud, int deleted, slice unit)
{
    kserver *s = ud;
    s->host.changed(s->host.ud, deleted ? KIND_DELETED : KIND_WRITTEN, unit);
}

static kserver *mk_create(const kind_host *host)
{
    kserver *s = xcalloc(1, sizeof *s);
    s->host = *host;
    s->my = my_new(mk_changed, s, host->nclients, host->client_base);
    return s;
}

static void mk_destroy(kserver *s)
{
    if (!s) return;
    my_free(s->my);
    free(s);
}

static void mk_set_replica(kserver *s, int replica)
{
    my_set_readonly(s->my, replica);
}

static void mk_exec(kserver *s, int client, int conn, int argc, const slice *argv, void *out)
{
    (void)conn;
    myreply *r = out;
    if (argc != 1) {
        my_reply_error(r, 1064, "42000",
                       "locklab: a request is one SQL statement in one argument (got %d arguments)", argc);
        return;
    }
    my_exec(s->my, client, argv[0].p, argv[0].len, r);
}

static void mk_reply_release(void *r)
{
    my_reply_release(r);
}

static void mk_reply_brief(const void *r, buf *out)
{
    my_reply_brief(r, out);
}

static int mk_reply_is_error(const void *r)
{
    return ((const myreply *)r)->type == MY_ERR;
}

static void push_val(lua_State *L, const mval *v)
{
    if (v->t == MV_INT) lua_pushinteger(L, v->i);
    else if (v->t == MV_STR) lua_pushlstring(L, v->s, v->len);
    else lua_pushnil(L);
}

static int mk_reply_push(lua_State *L, const void *rp)
{
    const myreply *r = rp;
    switch (r->type) {
    case MY_ERR:
        lua_pushnil(L);
        lua_pushstring(L, r->msg);
        lua_pushinteger(L, r->code);
        lua_pushstring(L, r->state);
        return 4;
    case MY_OK:
        lua_createtable(L, 0, 1);
        lua_pushinteger(L, r->affected);
        lua_setfield(L, -2, "affected_rows");
        return 1;
    case MY_ROWS:
        lua_createtable(L, r->nrows, 0);
        for (int i = 0; i < r->nrows; i++) {
            lua_createtable(L, 0, r->ncols);
            for (int j = 0; j < r->ncols; j++) {
                push_val(L, &r->cells[i * r->ncols + j]);
                lua_setfield(L, -2, r->labels[j]);
            }
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return 1;
    }
    return 0;
}

static void mk_disconnect(kserver *s, int client)
{
    my_disconnect(s->my, client);
}

static void mk_unsubscribe(kserver *s, int client, const char *topic)
{
    (void)s, (void)client, (void)topic;
}

static int64_t mk_next_deadline(kserver *s)
{
    (void)s;
    return INT64_MAX;
}

static void mk_expire(kserver *s)
{
    (void)s;
}

static int mk_describe(kserver *s, slice unit, buf *out, int64_t *deadline)
{
    *deadline = -1;
    return my_describe(s->my, unit, out);
}

static kchange *mk_capture(kserver *s, slice unit, int deleted)
{
    return (kchange *)my_capture(s->my, unit, deleted);
}

static void mk_apply(kserver *s, kchange *c)
{
    my_apply(s->my, (const mychange *)c);
}

static void mk_change_free(kchange *c)
{
    my_change_free((mychange *)c);
}

static kdata *mk_snapshot(kserver *s)
{
    return (kdata *)my_db_clone(my_db(s->my));
}

static void mk_load(kserver *s, const kdata *d)
{
    my_set_db(s->my, my_db_clone((const mydb *)d));
}

static void mk_copy_data(kserver *dst, kserver *src)
{
    my_set_db(dst->my, my_db_clone(my_db(src->my)));
}

static void mk_data_free(kdata *d)
{
    my_db_free((mydb *)d);
}

static void mk_dump(kserver *s, buf *out)
{
    my_dump(s->my, out);
}

const server_kind mysql_kind = {
    .name = "mysql",
    .title = "MySQL (the fake MySQL, sim/mysql/; checked against MariaDB 10.11)",
    .reply_size = sizeof(myreply),
    .create = mk_create,
    .destroy = mk_destroy,
    .set_replica = mk_set_replica,
    .exec = mk_exec,
    .reply_release = mk_reply_release,
    .reply_brief = mk_reply_brief,
    .reply_is_error = mk_reply_is_error,
    .reply_push = mk_reply_push,
    .disconnect = mk_disconnect,
    .unsubscribe = mk_unsubscribe,
    .next_deadline = mk_next_deadline,
    .expire = mk_expire,
    .describe = mk_describe,
    .capture = mk_capture,
    .apply = mk_apply,
    .change_free = mk_change_free,
    .snapshot = mk_snapshot,
    .load = mk_load,
    .copy_data = mk_copy_data,
    .data_free = mk_data_free,
    .dump = mk_dump,
};
