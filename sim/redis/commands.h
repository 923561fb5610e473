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

/* The server's 16 databases (SELECT, MOVE, SWAPDB, COPY ... DB, FLUSHALL; server.c). A
 * database other than 0 is made on first use. */
#define DB_COUNT 16
typedef struct dbset dbset;
store *dbset_get(dbset *d, int id);             /* 0 <= id < DB_COUNT; made if need be */
store *dbset_peek(const dbset *d, int id);      /* NULL if never used */
/* SWAPDB: exchanges the keys of two databases, each reported to the stores' observers as
 * deleted from one and written to the other. */
void dbset_swap(dbset *d, int a, int b);

typedef struct cmdctx {
    store *db;
    pubsub *ps;          /* the server's channels (PUBLISH, SUBSCRIBE) */
    scripting *lua;      /* the server's script engine (EVAL, SCRIPT) */
    conn *conn;          /* NULL inside a script: the script's own fake client */
    int argc;
    const slice *argv;
    reply *out;
    int in_script;       /* called through redis.call / redis.pcall */
    dbset *dbs;          /* the server's databases */
    int dbid;            /* db's index: SELECT changes db and dbid, the caller keeps them */
    uint64_t *rng;       /* the server's random generator (cmd_rand) */
    /* What the request touched beyond the keys its store reports and the clock readings it
     * notes (FP_*), for the model checker's question "did it change nothing?" (server.h's
     * server_footprint); NULL: nobody asks. Copied into a script's calls. */
    unsigned *footprint;
    /* The server itself, for the commands about connections and the server (connection.c:
     * names, CONFIG, the host's INFO); NULL inside a script. Data commands never use it. */
    server *srv;
    const enc_limits *lim; /* the encodings' limits (CONFIG SET); NULL: Redis's defaults */
    /* The error this command sent to another connection (CLIENT UNBLOCK ... ERROR), which
     * errorstats count and which fails the command, as Redis counts it; NULL: none. */
    const char *error_sent;
    /* A script ran (EVAL, FCALL...): its reply's errors were counted as Redis counts them
     * (script.h's script_error_fn), script_errors of them; script_counted more were errors
     * redis.call or pcall handed it, counted when their command replied. */
    int script_ran, script_errors, script_counted;
} cmdctx;

/* A request's footprint beyond its keys and clock readings (cmdctx.footprint):
 * FP_RNG   it drew from a server generator (SRANDMEMBER, SPOP, RANDOMKEY, HRANDFIELD,
 *          ZRANDMEMBER, a script's math.random): the next draw depends on it;
 * FP_STATE it ran a command that is not a read or write of keys (Redis's own flags: neither
 *          readonly, write nor may-replicate), or changed connection or server state
 *          (MULTI, the script cache, a rejected command): assumed to touch anything. */
#define FP_RNG 1u
#define FP_STATE 2u
static inline void cmd_footprint(const struct cmdctx *c, unsigned what)
{
    if (c->footprint) *c->footprint |= what;
}
/* The footprint of running cmd: a command whose flags say neither read, write nor
 * may-replicate is taken to touch server state (a script runner is judged by its calls). */
#define CMD_KEYSPACE_FLAGS (CMD_READONLY | CMD_WRITE | CMD_MAY_REPLICATE)

static inline const enc_limits *cmd_limits(const cmdctx *c)
{
    return c->lim ? c->lim : &enc_limits_default;
}

typedef void cmd_fn(cmdctx *c);

/* dump.c: a value as DUMP serialises it (its RDB type byte and body, no footer) */
void dump_value(const kv *e, buf *b);

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
    CMD_TX = 1 << 6,
    CMD_NO_MULTI = 1 << 7  /* refused inside MULTI, the transaction then aborted (SAVE, SHUTDOWN) */
};

typedef struct command {
    const char *name;      /* lower case */
    size_t namelen;
    int arity;
    unsigned flags;
    cmd_fn *fn;
} command;

/* command_info.c: whether Redis 7.0 flags cmd denyoom (refused past maxmemory) */
int command_denyoom(const command *cmd);
int command_skip_slowlog(const command *cmd); /* EXEC, AUTH, HELLO, ... (skip_slowlog) */
int command_may_replicate(const command *cmd); /* flagged write or may_replicate */

const command *commands_lookup(slice name); /* case-insensitive; NULL if unknown */
/* COMMAND INFO's flags (acl 0) or ACL categories (acl 1) of a command, as redis-server
 * 7.0.15 gives them, space-separated; NULL for a name without a row (command_info.c). */
const char *command_doc_flags(const char *name, int acl);
size_t commands_count(void);
const command *commands_at(size_t i);
/* The lookup's perfect hash, exposed for tests/test_commands.c, which checks it: the slot
 * (0..COMMANDS_SLOTS-1) of a name under multiplier mul, the multiplier in use, and slot h's
 * entry (table index + 1, or 0 for none). */
#define COMMANDS_SLOTS 2048
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
/* The same for the key a blocking command pops from; but when the host runs a blocked
 * command again (conn.block_retry), a key of another type is missing (*e NULL), not an
 * error: Redis serves a blocked client only from keys holding the type it waits for. */
int lookup_blocked(cmdctx *c, slice key, obj_type t, kv **e);
void reply_wrong_args(cmdctx *c);   /* ERR wrong number of arguments for '<name>' command */
/* A draw in [0, n) from the server's generator (n > 0): splitmix64 from a fixed seed, so
 * SPOP, SRANDMEMBER, HRANDFIELD and ZRANDMEMBER are the same in every run. */
uint64_t cmd_rand(cmdctx *c, uint64_t n);
/* A negative count of SRANDMEMBER, HRANDFIELD or ZRANDMEMBER asks for that many draws with
 * repeats: this fake builds at most RANDOM_REPLY_MAX of them in one reply (Redis builds any
 * number, or runs out of memory). 0, or -1 after replying the refusal. */
#define RANDOM_REPLY_MAX 1000000
int random_count_ok(cmdctx *c, unsigned long long draws);
/* HRANDFIELD's and ZRANDMEMBER's count at argv[2] and their WITHVALUES / WITHSCORES (`with`)
 * at argv[3], checked in Redis's order; SRANDMEMBER's count alone (with NULL). 0, or -1
 * after replying. */
int arg_random_count(cmdctx *c, const char *with, long long *count, int *withflag);
/* n < size distinct indexes of [0, size), in the order drawn (a partial Fisher-Yates
 * shuffle): an array the caller frees. */
size_t *cmd_rand_distinct(cmdctx *c, size_t size, size_t n);
/* LMPOP's, BLMPOP's, ZMPOP's and BZMPOP's arguments from argv[nk] (numkeys) on: the keys
 * (*nkeys of them from argv[*first]), which of the words end0 and end1 follows them (*end 0
 * or 1: LEFT|RIGHT, MIN|MAX), the COUNT (1 when none). 0, or -1 after replying. */
int arg_mpop(cmdctx *c, int nk, const char *end0, const char *end1, int *first, int *nkeys, int *end,
             long long *count);
/* SSCAN, HSCAN, ZSCAN: the cursor at argv[i] ("ERR invalid cursor"), the MATCH and COUNT
 * options from argv[from] on (*pat "*" when none), whether a member matches, and the reply
 * for a missing key. The two parsers return 0, or -1 after replying. */
int arg_scan_cursor(cmdctx *c, int i, uint64_t *cursor);
int scan_options(cmdctx *c, int from, slice *pat);
int scan_match(slice pat, slice member);
void reply_empty_scan(reply *r);
/* Redis's string2ld (INCRBYFLOAT, HINCRBYFLOAT): 0, or -1 for no valid number; and ld2string's
 * human form of a result, written to tmp (at most cap bytes; 5 KiB always suffices), its
 * length returned (0: the number did not fit, as Redis). */
#define LD_STRING_MAX (5 * 1024)
int string2ld(slice s, long double *out);
int ld2string(char *tmp, size_t cap, long double value);
/* A blocking command's timeout in seconds, as Redis 7.0's getTimeoutFromObjectOrReply reads
 * it, in whole ms (t_list.c). 0, or -1 after replying the error. */
int arg_timeout(cmdctx *c, slice arg, long long *ms);
/* A database index at argv[i] for SELECT, MOVE, COPY ... DB, SWAPDB: not an integer (in
 * int range) is msg if given, else Redis's getIntFromObject text; outside 0..15 "ERR DB
 * index is out of range". 0, or -1 after replying. */
int arg_db_index(cmdctx *c, int i, int *id, const char *msg);

/* Handlers, by file. */
/* keys (commands.c) */
cmd_fn cmd_del, cmd_exists, cmd_type, cmd_expire, cmd_pexpire, cmd_expireat, cmd_pexpireat,
    cmd_ttl, cmd_pttl, cmd_persist, cmd_flushall, cmd_flushdb, cmd_dbsize, cmd_ping, cmd_echo,
    cmd_time, cmd_keys, cmd_unlink, cmd_expiretime, cmd_pexpiretime, cmd_rename, cmd_renamenx,
    cmd_copy, cmd_dump, cmd_restore, cmd_scan, cmd_command, cmd_select, cmd_move, cmd_swapdb, cmd_object, cmd_memory, cmd_touch, cmd_randomkey;
/* pub/sub (pubsub.c) */
cmd_fn cmd_publish, cmd_subscribe, cmd_unsubscribe, cmd_psubscribe, cmd_punsubscribe, cmd_pubsub,
    cmd_spublish, cmd_ssubscribe, cmd_sunsubscribe;
/* connections and the server (connection.c) */
cmd_fn cmd_auth, cmd_hello, cmd_client, cmd_info, cmd_config, cmd_readonly, cmd_readwrite, cmd_reset, cmd_wait;
cmd_fn cmd_debug, cmd_slowlog, cmd_role, cmd_lastsave, cmd_latency;
int command_is_container(const command *cmd); /* server.c: it has subcommands (CLIENT, CONFIG, ...) */
cmd_fn cmd_save, cmd_shutdown;
/* strings (t_string.c) */
cmd_fn cmd_get, cmd_set, cmd_setnx, cmd_incr, cmd_incrby, cmd_decr, cmd_decrby, cmd_getdel,
    cmd_strlen, cmd_append, cmd_mget, cmd_getex, cmd_getset, cmd_setex, cmd_psetex, cmd_mset,
    cmd_msetnx, cmd_incrbyfloat, cmd_setrange, cmd_getrange, cmd_setbit, cmd_getbit, cmd_substr,
    cmd_lcs;
/* hashes (t_hash.c) */
cmd_fn cmd_hset, cmd_hsetnx, cmd_hget, cmd_hexists, cmd_hincrby, cmd_hdel, cmd_hlen,
    cmd_hgetall, cmd_hkeys, cmd_hvals, cmd_hmget, cmd_hmset, cmd_hstrlen, cmd_hrandfield,
    cmd_hincrbyfloat, cmd_hscan;
/* lists (t_list.c) */
cmd_fn cmd_lindex, cmd_lpop, cmd_rpop, cmd_lpush, cmd_rpush, cmd_lrange, cmd_lrem, cmd_llen,
    cmd_lset, cmd_ltrim, cmd_blpop, cmd_brpop, cmd_lpushx, cmd_rpushx, cmd_linsert, cmd_lpos,
    cmd_rpoplpush, cmd_lmove, cmd_brpoplpush, cmd_blmove, cmd_lmpop, cmd_blmpop;
/* A blocking command found nothing to pop: a connection whose host can park it (conn.h's
 * may_block: locklab serve) is marked blocked until its deadline (timeout ms on this
 * server's clock, 0: for ever) and gets no reply yet; elsewhere the timeout's null array is
 * the answer at once (t_list.c, BLPOP's comment). */
void cmd_block_or_nil(cmdctx *c, long long timeout);
/* sorted sets (t_zset.c) */
cmd_fn cmd_zadd, cmd_zscore, cmd_zincrby, cmd_zrange, cmd_zrem, cmd_zcard, cmd_zrank,
    cmd_zrangebyscore, cmd_zremrangebyscore, cmd_zcount, cmd_zrevrange, cmd_zrevrangebyscore,
    cmd_zrangebylex, cmd_zrevrangebylex, cmd_zrangestore;
/* sorted sets (t_zset_ops.c) */
cmd_fn cmd_zrevrank, cmd_zmscore, cmd_zlexcount, cmd_zremrangebylex, cmd_zremrangebyrank, cmd_zpopmin,
    cmd_zpopmax, cmd_zmpop, cmd_zrandmember, cmd_zunionstore, cmd_zinterstore, cmd_zscan, cmd_zdiffstore,
    cmd_zunion, cmd_zinter, cmd_zdiff, cmd_zintercard, cmd_bzpopmin, cmd_bzpopmax, cmd_bzmpop;
/* sets (t_set.c) */
cmd_fn cmd_sadd, cmd_srem, cmd_smembers, cmd_sismember, cmd_smismember, cmd_scard, cmd_spop,
    cmd_srandmember, cmd_smove, cmd_sinter, cmd_sintercard, cmd_sinterstore, cmd_sunion,
    cmd_sunionstore, cmd_sdiff, cmd_sdiffstore, cmd_sscan;
/* bit operations (t_bitops.c) */
cmd_fn cmd_bitcount, cmd_bitpos, cmd_bitop, cmd_bitfield, cmd_bitfield_ro;
/* SORT (t_sort.c) */
cmd_fn cmd_sort, cmd_sort_ro;
/* transactions (server.c runs them; these only mark the table's entries) */
cmd_fn cmd_multi, cmd_exec, cmd_discard, cmd_watch, cmd_unwatch;
/* scripting (script.c) */
cmd_fn cmd_eval, cmd_evalsha, cmd_eval_ro, cmd_evalsha_ro, cmd_script, cmd_fcall, cmd_fcall_ro, cmd_function;

#endif
