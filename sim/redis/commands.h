/* commands.h — the command table and the context a handler runs in.
 *
 * A handler only parses, validates, calls the type API and replies (Redis's
 * *Command functions). It validates every argument before it changes anything, and replies
 * with Redis 7.0's exact text. Arity is checked before the handler runs: `arity` > 0 means
 * exactly that many arguments including the name, < 0 means at least -arity. */
#ifndef LOCKLAB_COMMANDS_H
#define LOCKLAB_COMMANDS_H

#include "conn.h"
#include "glob.h"
#include "reply.h"
#include "store.h"

/* The server's other parts a handler may be given (declared in pubsub.h and script.h): a
 * handler reaches its server's state through its context only, never the server itself. */
typedef struct pubsub pubsub;
typedef struct scripting scripting;
typedef struct server server;

typedef struct cmdctx {
    store *db;
    pubsub *ps;          /* the server's channels (PUBLISH, SUBSCRIBE) */
    scripting *lua;      /* the server's script engine (EVAL, SCRIPT) */
    conn *conn;          /* NULL inside a script: the script's own fake client */
    int argc;
    const slice *argv;
    reply *out;
    int in_script;       /* called through redis.call / redis.pcall */
    /* The server itself, for the commands about connections and the server (connection.c:
     * names, CONFIG, the host's INFO); NULL inside a script. Data commands never use it. */
    server *srv;
} cmdctx;

typedef void cmd_fn(cmdctx *c);

enum {
    CMD_WRITE = 1 << 0,    /* may modify the keyspace */
    CMD_READONLY = 1 << 1,
    CMD_NOSCRIPT = 1 << 2, /* refused inside scripts */
    CMD_PUBSUB = 1 << 3,   /* allowed in RESP2 subscribe mode */
    CMD_FAST = 1 << 4,
    /* Propagates without writing the keyspace (PUBLISH): a read-only script refuses it as
     * a write (Redis 7.0's may-replicate). */
    CMD_MAY_REPLICATE = 1 << 5,
    /* MULTI, EXEC, DISCARD, WATCH, UNWATCH: run by the server itself (server.c), which
     * keeps each connection's transaction; their handlers are never called. */
    CMD_TX = 1 << 6
};

typedef struct command {
    const char *name;      /* lower case */
    size_t namelen;
    int arity;
    unsigned flags;
    cmd_fn *fn;
} command;

const command *commands_lookup(slice name); /* case-insensitive; NULL if unknown */
size_t commands_count(void);
const command *commands_at(size_t i);
/* The lookup's perfect hash, exposed for tests/test_commands.c, which checks it: the slot
 * (0..COMMANDS_SLOTS-1) of a name under multiplier mul, the multiplier in use, and slot h's
 * entry (table index + 1, or 0 for none). */
#define COMMANDS_SLOTS 1024
unsigned commands_hash(slice name, uint32_t mul);
uint32_t commands_hash_mul(void);
unsigned commands_slot(unsigned h);

/* Shared reply texts (Redis 7.0). */
#define ERR_WRONGTYPE "WRONGTYPE Operation against a key holding the wrong kind of value"
#define ERR_NOT_INT "ERR value is not an integer or out of range"
#define ERR_NOT_FLOAT "ERR value is not a valid float"
#define ERR_SYNTAX "ERR syntax error"

/* Helpers for handlers. Each returns 0 on success; on failure it has already replied. */
int arg_int64(cmdctx *c, int i, long long *out);              /* ERR_NOT_INT */
int arg_double(cmdctx *c, int i, double *out);                /* ERR_NOT_FLOAT */
/* Looks up a key expecting type t: 0 with *e (NULL if missing), or -1 after WRONGTYPE. */
int lookup_typed(cmdctx *c, slice key, obj_type t, kv **e);
void reply_wrong_args(cmdctx *c);   /* ERR wrong number of arguments for '<name>' command */

/* Handlers, by file. */
/* keys (commands.c) */
cmd_fn cmd_del, cmd_exists, cmd_type, cmd_expire, cmd_pexpire, cmd_expireat, cmd_pexpireat,
    cmd_ttl, cmd_pttl, cmd_persist, cmd_flushall, cmd_flushdb, cmd_dbsize, cmd_ping, cmd_echo,
    cmd_time, cmd_keys, cmd_unlink, cmd_expiretime, cmd_pexpiretime, cmd_rename, cmd_renamenx,
    cmd_copy, cmd_scan, cmd_command;
/* pub/sub (pubsub.c) */
cmd_fn cmd_publish, cmd_subscribe, cmd_unsubscribe, cmd_psubscribe, cmd_punsubscribe, cmd_pubsub,
    cmd_spublish, cmd_ssubscribe, cmd_sunsubscribe;
/* connections and the server (connection.c) */
cmd_fn cmd_hello, cmd_client, cmd_info, cmd_config, cmd_readonly, cmd_readwrite, cmd_reset;
/* strings (t_string.c) */
cmd_fn cmd_get, cmd_set, cmd_setnx, cmd_incr, cmd_incrby, cmd_decr, cmd_decrby, cmd_getdel,
    cmd_strlen, cmd_append, cmd_mget, cmd_getex, cmd_getset, cmd_setex, cmd_psetex, cmd_mset,
    cmd_msetnx, cmd_incrbyfloat;
/* hashes (t_hash.c) */
cmd_fn cmd_hset, cmd_hsetnx, cmd_hget, cmd_hexists, cmd_hincrby, cmd_hdel, cmd_hlen,
    cmd_hgetall, cmd_hkeys, cmd_hvals, cmd_hmget;
/* lists (t_list.c) */
cmd_fn cmd_lindex, cmd_lpop, cmd_rpop, cmd_lpush, cmd_rpush, cmd_lrange, cmd_lrem, cmd_llen,
    cmd_lset, cmd_ltrim, cmd_blpop, cmd_brpop;
/* sorted sets (t_zset.c) */
cmd_fn cmd_zadd, cmd_zscore, cmd_zincrby, cmd_zrange, cmd_zrem, cmd_zcard, cmd_zrank,
    cmd_zrangebyscore, cmd_zremrangebyscore, cmd_zcount;
/* transactions (server.c runs them; these only mark the table's entries) */
cmd_fn cmd_multi, cmd_exec, cmd_discard, cmd_watch, cmd_unwatch;
/* scripting (script.c) */
cmd_fn cmd_eval, cmd_evalsha, cmd_eval_ro, cmd_evalsha_ro, cmd_script;

#endif
