/* cmdctx.h — what a command handler runs in and works with: its context (cmdctx), Redis's
 * shared error texts, and the argument parsers and reply helpers every command file uses.
 *
 * A handler only parses, validates, calls the type API and replies (Redis's *Command
 * functions). It validates every argument before it changes anything, and replies with
 * Redis 7.0's exact text. Arity is checked before the handler runs (commands.h's table).
 * This header knows no command and no table: the command files include it (and
 * handlers.h for their own declarations), and only the table (commands.c) knows them all. */
#ifndef LOCKLAB_CMDCTX_H
#define LOCKLAB_CMDCTX_H

#include "conn.h"
#include "glob.h"
#include "reply.h"
#include "store.h"

/* The server's other parts a handler may be given (declared in pubsub.h, script.h,
 * dbset.h, server.h): a handler reaches its server's state through its context only. */
typedef struct pubsub pubsub;
typedef struct scripting scripting;
typedef struct server server;
typedef struct dbset dbset;

typedef struct cmdctx {
    store *db;
    pubsub *ps;          /* the server's channels (PUBLISH, SUBSCRIBE) */
    scripting *lua;      /* the server's script engine (EVAL, SCRIPT) */
    conn *conn;          /* NULL inside a script: the script's own fake client */
    int argc;
    const slice *argv;
    reply *out;
    int in_script;       /* called through redis.call / redis.pcall */
    dbset *dbs;          /* the server's databases (dbset.h) */
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
    /* The command's name as the table spells it (lower case), set by whoever runs the
     * handler (server.c's server_run_command, a script's redis.call): the name in Redis's errors
     * ("wrong number of arguments for 'hset' command"). */
    const char *name;
} cmdctx;

typedef void cmd_fn(cmdctx *c);

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

static inline const enc_limits *cmd_limits(const cmdctx *c)
{
    return c->lim ? c->lim : &enc_limits_default;
}

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
 * human form of a result, written to tmp (at most cap bytes; 5 KiB always suffices: Redis's
 * MAX_LONG_DOUBLE_CHARS), its length returned (0: the number did not fit, as Redis). */
#define LD_STRING_MAX (5 * 1024)
int string2ld(slice s, long double *out);
int ld2string(char *tmp, size_t cap, long double value);
/* A blocking command's timeout in seconds, as Redis 7.0's getTimeoutFromObjectOrReply reads
 * it, in whole ms. 0, or -1 after replying the error. */
int arg_timeout(cmdctx *c, slice arg, long long *ms);
/* A blocking command found nothing to pop: a connection whose host can park it (conn.h's
 * may_block: locklab serve) is marked blocked until its deadline (timeout ms on this
 * server's clock, 0: for ever) and gets no reply yet; elsewhere the timeout's null array is
 * the answer at once (t_list.c, BLPOP's comment). */
void cmd_block_or_nil(cmdctx *c, long long timeout);
/* A database index at argv[i] for SELECT, MOVE, COPY ... DB, SWAPDB: not an integer (in
 * int range) is msg if given, else Redis's getIntFromObject text; outside 0..15 "ERR DB
 * index is out of range". 0, or -1 after replying. */
int arg_db_index(cmdctx *c, int i, int *id, const char *msg);

/* A container command's (CLIENT, CONFIG, DEBUG, SLOWLOG, LATENCY ...) replies: an unknown
 * subcommand, a subcommand's wrong arity, HELP's lines (one status line each). */
void reply_unknown_sub(cmdctx *c, const char *cmd);               /* ERR unknown subcommand 'x'. Try CMD HELP. */
void reply_sub_args(cmdctx *c, const char *cmd, const char *sub); /* ERR wrong number of arguments for 'cmd|sub' */
void reply_lines(cmdctx *c, const char *const *lines, size_t n);
int config_parse_memory(slice s, long long *v);                   /* Redis's memtoull; -1 if not one */

#endif
