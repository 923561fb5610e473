/* db.c — the commands about databases and values rather than keys' contents: SELECT,
 * MOVE, SWAPDB (Redis's db.c) and OBJECT (Redis's object.c).
 *
 * A server has 16 databases (server.c's dbset): a connection's SELECT holds until it
 * selects another; a script's holds for the rest of that script only (Redis 7.0: the
 * caller's database is unchanged after EVAL). Database 0 is the simulated world's — the one
 * persisted, replicated and shown in a run's history; the others exist for clients that
 * select them, in `locklab redis` and `locklab serve`.
 *
 * OBJECT answers as Redis 7.0.15 does with its default configuration: ENCODING from the
 * value (object.h's obj_encoding), REFCOUNT 2147483647 for the shared integers 0..9999 and
 * 1 otherwise, IDLETIME 0 (this server does not keep an access clock per key: a key used a
 * moment ago is what a test sees), FREQ refused as without an LFU maxmemory policy. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "object.h"

void cmd_select(cmdctx *c)
{
    int id;
    if (arg_db_index(c, 1, &id, NULL) < 0) return;
    c->db = c->dbs ? dbset_get(c->dbs, id) : c->db;
    c->dbid = id;
    reply_ok(c->out);
}

/* MOVE key db: Redis's moveCommand, in its order of checks. */
void cmd_move(cmdctx *c)
{
    int id;
    if (arg_db_index(c, 2, &id, NULL) < 0) return;
    if (id == c->dbid) {
        reply_error(c->out, "ERR source and destination objects are the same");
        return;
    }
    kv *e = store_lookup(c->db, c->argv[1]);
    if (!e) {
        reply_int(c->out, 0);
        return;
    }
    store *to = dbset_get(c->dbs, id);
    if (store_lookup(to, c->argv[1])) {
        reply_int(c->out, 0);
        return;
    }
    obj_type t = (obj_type)e->type;
    kv *d = store_set(to, c->argv[1], t, obj_clone(t, e->ptr), 0);
    if (e->expire >= 0) store_set_expire(to, d, e->expire);
    store_touched(to, d);
    store_delete(c->db, c->argv[1]);
    reply_int(c->out, 1);
}

/* SWAPDB index1 index2: the selected database's keys change under the client's feet. */
void cmd_swapdb(cmdctx *c)
{
    int a, b;
    if (arg_db_index(c, 1, &a, "invalid first DB index") < 0) return;
    if (arg_db_index(c, 2, &b, "invalid second DB index") < 0) return;
    if (c->dbs) dbset_swap(c->dbs, a, b);
    reply_ok(c->out);
}

void cmd_object(cmdctx *c)
{
    static const char *const help[] = {
        "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
        "HELP",
        "    Prints this help.",
    };
    static const char *const subs[] = { "encoding", "freq", "idletime", "refcount", "help" };
    slice sub = c->argv[1];
    int which = -1;
    for (int i = 0; i < 5; i++)
        if (slice_opt_is(sub, subs[i])) which = i;
    if (which < 0) {
        slice s = slice_cstr_prefix(sub);
        reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try OBJECT HELP.", (int)(s.len < 128 ? s.len : 128), s.p);
        return;
    }
    if (c->argc != (which == 4 ? 2 : 3)) {
        reply_errorf(c->out, "ERR wrong number of arguments for 'object|%s' command", subs[which]);
        return;
    }
    if (which == 4) {
        reply *e = reply_array(c->out, LL_ARRAY_LEN(help));
        for (size_t i = 0; i < LL_ARRAY_LEN(help); i++) reply_status(&e[i], help[i]);
        return;
    }
    kv *e = store_lookup(c->db, c->argv[2]);
    if (!e) {
        reply_nil(c->out);
        return;
    }
    obj_type t = (obj_type)e->type;
    if (which == 0) {
        reply_bulk_cstr(c->out, obj_encoding(t, e->ptr));
    } else if (which == 1) {
        reply_error(c->out, "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please "
                            "note that when switching between policies at runtime LRU and LFU data will take "
                            "some time to adjust.");
    } else if (which == 2) {
        reply_int(c->out, 0);
    } else {
        long long v;
        const sstr *s = e->ptr;
        int shared = t == OBJ_STRING && s->len <= 20 && ll_parse_int64(sstr_slice(s), &v) == 0 && v >= 0 &&
                     v < 10000;
        reply_int(c->out, shared ? 2147483647 : 1);
    }
}
