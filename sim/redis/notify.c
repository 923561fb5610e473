/* notify.c — keyspace notifications (Redis 7.0's notify.c): the keys a command wrote or
 * deleted, heard by the store's watch hook (server_tx.c) while notify-keyspace-events is on,
 * published after the command by Redis's rules, command by command. */
#include <stdlib.h>
#include <string.h>

#include "pubsub.h"
#include "serverint.h"

/* "__keyspace@<db>__:<key>" <event> and "__keyevent@<db>__:<event>" <key>, as the flags ask. */
void notify_publish(server *srv, int db, int cls, const char *event, slice key)
{
    if (!(srv->notify & cls)) return;
    buf ch;
    buf_init(&ch);
    if (srv->notify & NOTIFY_KEYSPACE) {
        buf_printf(&ch, "__keyspace@%d__:", db);
        buf_append(&ch, key.p, key.len);
        pubsub_publish(srv->ps, (slice){ ch.p, ch.len }, slice_cstr(event));
    }
    if (srv->notify & NOTIFY_KEYEVENT) {
        buf_reset(&ch);
        buf_printf(&ch, "__keyevent@%d__:%s", db, event);
        pubsub_publish(srv->ps, (slice){ ch.p, ch.len }, key);
    }
    buf_release(&ch);
}

/* The event a command's write of a key is (Redis's notifyKeyspaceEvent calls, command by
 * command): the class and name for its first key (argv[1]) and for any other key. */
static const struct notify_rule {
    const char *cmd;
    int cls;
    const char *first, *other;
} notify_rules[] = {
    { "append", NOTIFY_STRING, "append", NULL },      { "bitfield", NOTIFY_STRING, "setbit", NULL },
    { "bitop", NOTIFY_STRING, "set", "set" },          { "blpop", NOTIFY_LIST, "lpop", "lpop" },
    { "brpop", NOTIFY_LIST, "rpop", "rpop" },          { "brpoplpush", NOTIFY_LIST, "rpop", "lpush" },
    { "bzpopmax", NOTIFY_ZSET, "zpopmax", "zpopmax" }, { "bzpopmin", NOTIFY_ZSET, "zpopmin", "zpopmin" },
    { "copy", NOTIFY_GENERIC, "copy_to", "copy_to" },  { "decr", NOTIFY_STRING, "incrby", NULL },
    { "decrby", NOTIFY_STRING, "incrby", NULL },       { "del", NOTIFY_GENERIC, "del", "del" },
    { "expire", NOTIFY_GENERIC, "expire", NULL },      { "expireat", NOTIFY_GENERIC, "expire", NULL },
    { "getdel", NOTIFY_GENERIC, "del", NULL },         { "getset", NOTIFY_STRING, "set", NULL },
    { "hdel", NOTIFY_HASH, "hdel", NULL },             { "hincrby", NOTIFY_HASH, "hincrby", NULL },
    { "hincrbyfloat", NOTIFY_HASH, "hincrbyfloat", NULL }, { "hmset", NOTIFY_HASH, "hset", NULL },
    { "hset", NOTIFY_HASH, "hset", NULL },             { "hsetnx", NOTIFY_HASH, "hset", NULL },
    { "incr", NOTIFY_STRING, "incrby", NULL },         { "incrby", NOTIFY_STRING, "incrby", NULL },
    { "incrbyfloat", NOTIFY_STRING, "incrbyfloat", NULL }, { "linsert", NOTIFY_LIST, "linsert", NULL },
    { "lpop", NOTIFY_LIST, "lpop", NULL },             { "lpush", NOTIFY_LIST, "lpush", NULL },
    { "lpushx", NOTIFY_LIST, "lpush", NULL },          { "lrem", NOTIFY_LIST, "lrem", NULL },
    { "lset", NOTIFY_LIST, "lset", NULL },             { "ltrim", NOTIFY_LIST, "ltrim", NULL },
    { "move", NOTIFY_GENERIC, "move_from", "move_to" }, { "mset", NOTIFY_STRING, "set", "set" },
    { "msetnx", NOTIFY_STRING, "set", "set" },         { "persist", NOTIFY_GENERIC, "persist", NULL },
    { "pexpire", NOTIFY_GENERIC, "expire", NULL },     { "pexpireat", NOTIFY_GENERIC, "expire", NULL },
    { "psetex", NOTIFY_STRING, "set", NULL },          { "rename", NOTIFY_GENERIC, "rename_from", "rename_to" },
    { "renamenx", NOTIFY_GENERIC, "rename_from", "rename_to" }, { "rpop", NOTIFY_LIST, "rpop", NULL },
    { "rpoplpush", NOTIFY_LIST, "rpop", "lpush" },     { "rpush", NOTIFY_LIST, "rpush", NULL },
    { "rpushx", NOTIFY_LIST, "rpush", NULL },          { "sadd", NOTIFY_SET, "sadd", NULL },
    { "sdiffstore", NOTIFY_SET, "sdiffstore", NULL },  { "set", NOTIFY_STRING, "set", NULL },
    { "setbit", NOTIFY_STRING, "setbit", NULL },       { "setex", NOTIFY_STRING, "set", NULL },
    { "setnx", NOTIFY_STRING, "set", NULL },           { "setrange", NOTIFY_STRING, "setrange", NULL },
    { "sinterstore", NOTIFY_SET, "sinterstore", NULL }, { "smove", NOTIFY_SET, "srem", "sadd" },
    { "sort", NOTIFY_LIST, "sortstore", "sortstore" }, { "spop", NOTIFY_SET, "spop", NULL },
    { "srem", NOTIFY_SET, "srem", NULL },              { "sunionstore", NOTIFY_SET, "sunionstore", NULL },
    { "unlink", NOTIFY_GENERIC, "del", "del" },        { "zadd", NOTIFY_ZSET, "zadd", NULL },
    { "zdiffstore", NOTIFY_ZSET, "zdiffstore", NULL }, { "zincrby", NOTIFY_ZSET, "zincr", NULL },
    { "zinterstore", NOTIFY_ZSET, "zinterstore", NULL }, { "zpopmax", NOTIFY_ZSET, "zpopmax", NULL },
    { "zpopmin", NOTIFY_ZSET, "zpopmin", NULL },       { "zrangestore", NOTIFY_ZSET, "zrangestore", NULL },
    { "zrem", NOTIFY_ZSET, "zrem", NULL },             { "zremrangebylex", NOTIFY_ZSET, "zremrangebylex", NULL },
    { "zremrangebyrank", NOTIFY_ZSET, "zremrangebyrank", NULL },
    { "zremrangebyscore", NOTIFY_ZSET, "zremrangebyscore", NULL }, { "zunionstore", NOTIFY_ZSET, "zunionstore", NULL },
    { "lmove", NOTIFY_LIST, "lpop", "lpush" },        { "blmove", NOTIFY_LIST, "lpop", "lpush" },
    { "lmpop", NOTIFY_LIST, "lpop", "lpop" },          { "blmpop", NOTIFY_LIST, "lpop", "lpop" },
    { "zmpop", NOTIFY_ZSET, "zpopmin", "zpopmin" },    { "bzmpop", NOTIFY_ZSET, "zpopmin", "zpopmin" },
    { "getex", NOTIFY_GENERIC, "expire", NULL },       { "restore", NOTIFY_GENERIC, "restore", NULL },
};

/* Publishes the events of the keys cmd wrote or deleted, in the order they were first
 * touched (argv[1]'s first): its own event; then "del" for a key it emptied (a pop, a removal, a store of
 * nothing); "expire" besides "set" when SET, SETEX or PSETEX set a deadline. A command
 * without a rule here (a script's: EVAL and FCALL) publishes nothing. */
void notify_flush(server *srv, const command *cmd, int argc, const slice *argv, int dbid)
{
    const struct notify_rule *r = NULL;
    for (size_t i = 0; i < LL_ARRAY_LEN(notify_rules) && !r; i++)
        if (!strcmp(notify_rules[i].cmd, cmd->name)) r = &notify_rules[i];
    /* "new" for a key the command made (class n: Redis's dbAdd publishes it as it makes
     * the key): before the key's own events, and for RENAME and MOVE, which make their
     * destination before they publish anything, first of all. */
    int new_first = r && (!strcmp(cmd->name, "rename") || !strcmp(cmd->name, "renamenx") || !strcmp(cmd->name, "move"));
    for (size_t n = 0; n < srv->npending && new_first; n++)
        if (srv->pending[n].added)
            notify_publish(srv, srv->pending[n].db, NOTIFY_NEW, "new", (slice){ srv->pending[n].key, srv->pending[n].len });
    /* argv[1]'s events (in the command's database) first (RENAME's rename_from before
     * rename_to, SMOVE's srem before sadd, MOVE's move_from before move_to, as Redis
     * publishes them), then the others in the order they were touched; but LMOVE and its
     * kin push to their destination before they publish the pop (lmoveHandlePush). */
    const char *name = cmd->name;
    int dst_first = !strcmp(name, "lmove") || !strcmp(name, "blmove") || !strcmp(name, "rpoplpush") ||
                    !strcmp(name, "brpoplpush");
    for (size_t n = 0; n < 2 * srv->npending && r; n++) {
        struct pending_key *p = &srv->pending[n % srv->npending];
        slice key = { p->key, p->len };
        int first = argc > 1 && p->db == dbid && slice_eq(key, argv[1]);
        if ((first ^ dst_first) != (n < srv->npending)) continue;
        if (p->added && !new_first) notify_publish(srv, p->db, NOTIFY_NEW, "new", key);
        int cls = r->cls;
        const char *ev = first || !r->other ? r->first : r->other;
        if (!strcmp(name, "lmove") || !strcmp(name, "blmove")) /* LEFT/RIGHT of each side */
            ev = first ? (slice_opt_is(argv[3], "left") ? "lpop" : "rpop") : (slice_opt_is(argv[4], "left") ? "lpush" : "rpush");
        for (int k = 2; k < argc; k++) { /* the side LMPOP and ZMPOP pop from */
            if ((!strcmp(name, "lmpop") || !strcmp(name, "blmpop")) && slice_opt_is(argv[k], "right")) ev = "rpop";
            if ((!strcmp(name, "zmpop") || !strcmp(name, "bzmpop")) && slice_opt_is(argv[k], "max")) ev = "zpopmax";
            if (!strcmp(name, "getex") && slice_opt_is(argv[k], "persist")) ev = "persist";
        }
        if (!strcmp(name, "zadd"))
            for (int k = 2; k < argc; k++)
                if (slice_opt_is(argv[k], "incr")) ev = "zincr";
        int gone = p->deleted;
        if (gone && (!strcmp(ev, "del") || !strcmp(ev, "rename_from") || !strcmp(ev, "move_from"))) {
            notify_publish(srv, p->db, cls, ev, key);
            continue;
        }
        if (gone && cls == NOTIFY_GENERIC && (!strcmp(ev, "expire") || !strcmp(ev, "restore"))) { /* a deadline in the past */
            notify_publish(srv, p->db, NOTIFY_GENERIC, "del", key);
            continue;
        }
        if (gone && (strstr(ev, "store") || !strcmp(ev, "set"))) { /* a store of nothing */
            notify_publish(srv, p->db, NOTIFY_GENERIC, "del", key);
            continue;
        }
        notify_publish(srv, p->db, cls, ev, key);
        if (!gone && (!strcmp(name, "setex") || !strcmp(name, "psetex"))) notify_publish(srv, p->db, NOTIFY_GENERIC, "expire", key);
        if (!gone && !strcmp(name, "set"))
            for (int k = 3; k < argc; k++)
                if (slice_opt_is(argv[k], "ex") || slice_opt_is(argv[k], "px") || slice_opt_is(argv[k], "exat") ||
                    slice_opt_is(argv[k], "pxat"))
                    notify_publish(srv, p->db, NOTIFY_GENERIC, "expire", key);
        if (gone) notify_publish(srv, p->db, NOTIFY_GENERIC, "del", key);
    }
    for (size_t i = 0; i < srv->npending; i++) free(srv->pending[i].key);
    srv->npending = 0;
}
