/* command_info.c — COMMAND: the command table (commands.c) as Redis 7.0 describes its own,
 * so that COMMAND COUNT and COMMAND LIST say exactly what this server implements, and a
 * client library that reads COMMAND (or COMMAND INFO) at connect time finds the shape it
 * expects. Flags and ACL categories are redis-server 7.0.15's (command_docs); a command's
 * legacy key positions come from a short list of exceptions; COMMAND LIST names the
 * subcommands too (their table below); no tips, key specs in COMMAND INFO, or docs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commandint.h"


/* Each command's flags and ACL categories as redis-server 7.0.15 answers COMMAND INFO
 * (asked of the real server, one row per command of the table, in its order), so that a
 * client reading them (blocking, denyoom, movablekeys, @scripting ...) sees Redis's. */
static const struct command_doc {
    const char *name, *flags, *acl;
} command_docs[] = {
    { "append", "write denyoom fast", "@write @string @fast" },
    { "auth", "noscript loading stale fast no_auth allow_busy", "@fast @connection" },
    { "bitcount", "readonly", "@read @bitmap @slow" },
    { "bitfield", "write denyoom", "@write @bitmap @slow" },
    { "bitfield_ro", "readonly fast", "@read @bitmap @fast" },
    { "bitop", "write denyoom", "@write @bitmap @slow" },
    { "bitpos", "readonly", "@read @bitmap @slow" },
    { "blmove", "write denyoom noscript blocking", "@write @list @slow @blocking" },
    { "blmpop", "write blocking movablekeys", "@write @list @slow @blocking" },
    { "blpop", "write noscript blocking", "@write @list @slow @blocking" },
    { "brpop", "write noscript blocking", "@write @list @slow @blocking" },
    { "brpoplpush", "write denyoom noscript blocking", "@write @list @slow @blocking" },
    { "bzmpop", "write blocking movablekeys", "@write @sortedset @slow @blocking" },
    { "bzpopmax", "write noscript blocking fast", "@write @sortedset @fast @blocking" },
    { "bzpopmin", "write noscript blocking fast", "@write @sortedset @fast @blocking" },
    { "client", "", "@slow" },
    { "command", "loading stale", "@slow @connection" },
    { "config", "", "@slow" },
    { "copy", "write denyoom", "@keyspace @write @slow" },
    { "dbsize", "readonly fast", "@keyspace @read @fast" },
    { "debug", "admin noscript loading stale", "@admin @slow @dangerous" },
    { "decr", "write denyoom fast", "@write @string @fast" },
    { "decrby", "write denyoom fast", "@write @string @fast" },
    { "del", "write", "@keyspace @write @slow" },
    { "discard", "noscript loading stale fast allow_busy", "@fast @transaction" },
    { "dump", "readonly", "@keyspace @read @slow" },
    { "echo", "loading stale fast", "@fast @connection" },
    { "eval", "noscript stale skip_monitor no_mandatory_keys movablekeys", "@slow @scripting" },
    { "eval_ro", "readonly noscript stale skip_monitor no_mandatory_keys movablekeys", "@slow @scripting" },
    { "evalsha", "noscript stale skip_monitor no_mandatory_keys movablekeys", "@slow @scripting" },
    { "evalsha_ro", "readonly noscript stale skip_monitor no_mandatory_keys movablekeys", "@slow @scripting" },
    { "exec", "noscript loading stale skip_slowlog", "@slow @transaction" },
    { "exists", "readonly fast", "@keyspace @read @fast" },
    { "expire", "write fast", "@keyspace @write @fast" },
    { "expireat", "write fast", "@keyspace @write @fast" },
    { "expiretime", "readonly fast", "@keyspace @read @fast" },
    { "fcall", "noscript stale skip_monitor no_mandatory_keys movablekeys", "@slow @scripting" },
    { "fcall_ro", "readonly noscript stale skip_monitor no_mandatory_keys movablekeys", "@slow @scripting" },
    { "flushall", "write", "@keyspace @write @slow @dangerous" },
    { "flushdb", "write", "@keyspace @write @slow @dangerous" },
    { "function", "", "@slow" },
    { "get", "readonly fast", "@read @string @fast" },
    { "getbit", "readonly fast", "@read @bitmap @fast" },
    { "getdel", "write fast", "@write @string @fast" },
    { "getex", "write fast", "@write @string @fast" },
    { "getrange", "readonly", "@read @string @slow" },
    { "getset", "write denyoom fast", "@write @string @fast" },
    { "hdel", "write fast", "@write @hash @fast" },
    { "hello", "noscript loading stale fast no_auth allow_busy", "@fast @connection" },
    { "hexists", "readonly fast", "@read @hash @fast" },
    { "hget", "readonly fast", "@read @hash @fast" },
    { "hgetall", "readonly", "@read @hash @slow" },
    { "hincrby", "write denyoom fast", "@write @hash @fast" },
    { "hincrbyfloat", "write denyoom fast", "@write @hash @fast" },
    { "hkeys", "readonly", "@read @hash @slow" },
    { "hlen", "readonly fast", "@read @hash @fast" },
    { "hmget", "readonly fast", "@read @hash @fast" },
    { "hmset", "write denyoom fast", "@write @hash @fast" },
    { "hrandfield", "readonly", "@read @hash @slow" },
    { "hscan", "readonly", "@read @hash @slow" },
    { "hset", "write denyoom fast", "@write @hash @fast" },
    { "hsetnx", "write denyoom fast", "@write @hash @fast" },
    { "hstrlen", "readonly fast", "@read @hash @fast" },
    { "hvals", "readonly", "@read @hash @slow" },
    { "incr", "write denyoom fast", "@write @string @fast" },
    { "incrby", "write denyoom fast", "@write @string @fast" },
    { "incrbyfloat", "write denyoom fast", "@write @string @fast" },
    { "info", "loading stale", "@slow @dangerous" },
    { "keys", "readonly", "@keyspace @read @slow @dangerous" },
    { "lastsave", "loading stale fast", "@admin @fast @dangerous" },
    { "latency", "", "@slow" },
    { "lcs", "readonly", "@read @string @slow" },
    { "lindex", "readonly", "@read @list @slow" },
    { "linsert", "write denyoom", "@write @list @slow" },
    { "llen", "readonly fast", "@read @list @fast" },
    { "lmove", "write denyoom", "@write @list @slow" },
    { "lmpop", "write movablekeys", "@write @list @slow" },
    { "lpop", "write fast", "@write @list @fast" },
    { "lpos", "readonly", "@read @list @slow" },
    { "lpush", "write denyoom fast", "@write @list @fast" },
    { "lpushx", "write denyoom fast", "@write @list @fast" },
    { "lrange", "readonly", "@read @list @slow" },
    { "lrem", "write", "@write @list @slow" },
    { "lset", "write denyoom", "@write @list @slow" },
    { "ltrim", "write", "@write @list @slow" },
    { "memory", "", "@slow" },
    { "mget", "readonly fast", "@read @string @fast" },
    { "move", "write fast", "@keyspace @write @fast" },
    { "mset", "write denyoom", "@write @string @slow" },
    { "msetnx", "write denyoom", "@write @string @slow" },
    { "multi", "noscript loading stale fast allow_busy", "@fast @transaction" },
    { "object", "", "@slow" },
    { "persist", "write fast", "@keyspace @write @fast" },
    { "pexpire", "write fast", "@keyspace @write @fast" },
    { "pexpireat", "write fast", "@keyspace @write @fast" },
    { "pexpiretime", "readonly fast", "@keyspace @read @fast" },
    { "ping", "fast", "@fast @connection" },
    { "psetex", "write denyoom", "@write @string @slow" },
    { "psubscribe", "pubsub noscript loading stale", "@pubsub @slow" },
    { "pttl", "readonly fast", "@keyspace @read @fast" },
    { "publish", "pubsub loading stale fast", "@pubsub @fast" },
    { "pubsub", "", "@slow" },
    { "punsubscribe", "pubsub noscript loading stale", "@pubsub @slow" },
    { "randomkey", "readonly", "@keyspace @read @slow" },
    { "readonly", "loading stale fast", "@fast @connection" },
    { "readwrite", "loading stale fast", "@fast @connection" },
    { "rename", "write", "@keyspace @write @slow" },
    { "renamenx", "write fast", "@keyspace @write @fast" },
    { "reset", "noscript loading stale fast no_auth allow_busy", "@fast @connection" },
    { "restore", "write denyoom", "@keyspace @write @slow @dangerous" },
    { "role", "noscript loading stale fast", "@admin @fast @dangerous" },
    { "rpop", "write fast", "@write @list @fast" },
    { "rpoplpush", "write denyoom", "@write @list @slow" },
    { "rpush", "write denyoom fast", "@write @list @fast" },
    { "rpushx", "write denyoom fast", "@write @list @fast" },
    { "sadd", "write denyoom fast", "@write @set @fast" },
    { "save", "admin noscript no_async_loading no_multi", "@admin @slow @dangerous" },
    { "scan", "readonly", "@keyspace @read @slow" },
    { "scard", "readonly fast", "@read @set @fast" },
    { "script", "", "@slow" },
    { "sdiff", "readonly", "@read @set @slow" },
    { "sdiffstore", "write denyoom", "@write @set @slow" },
    { "select", "loading stale fast", "@fast @connection" },
    { "set", "write denyoom", "@write @string @slow" },
    { "setbit", "write denyoom", "@write @bitmap @slow" },
    { "setex", "write denyoom", "@write @string @slow" },
    { "setnx", "write denyoom fast", "@write @string @fast" },
    { "setrange", "write denyoom", "@write @string @slow" },
    { "shutdown", "admin noscript loading stale no_multi allow_busy", "@admin @slow @dangerous" },
    { "sinter", "readonly", "@read @set @slow" },
    { "sintercard", "readonly movablekeys", "@read @set @slow" },
    { "sinterstore", "write denyoom", "@write @set @slow" },
    { "sismember", "readonly fast", "@read @set @fast" },
    { "slowlog", "", "@slow" },
    { "smembers", "readonly", "@read @set @slow" },
    { "smismember", "readonly fast", "@read @set @fast" },
    { "smove", "write fast", "@write @set @fast" },
    { "sort", "write denyoom movablekeys", "@write @set @sortedset @list @slow @dangerous" },
    { "sort_ro", "readonly movablekeys", "@read @set @sortedset @list @slow @dangerous" },
    { "spop", "write fast", "@write @set @fast" },
    { "spublish", "pubsub loading stale fast", "@pubsub @fast" },
    { "srandmember", "readonly", "@read @set @slow" },
    { "srem", "write fast", "@write @set @fast" },
    { "sscan", "readonly", "@read @set @slow" },
    { "ssubscribe", "pubsub noscript loading stale", "@pubsub @slow" },
    { "strlen", "readonly fast", "@read @string @fast" },
    { "subscribe", "pubsub noscript loading stale", "@pubsub @slow" },
    { "substr", "readonly", "@read @string @slow" },
    { "sunion", "readonly", "@read @set @slow" },
    { "sunionstore", "write denyoom", "@write @set @slow" },
    { "sunsubscribe", "pubsub noscript loading stale", "@pubsub @slow" },
    { "swapdb", "write fast", "@keyspace @write @fast @dangerous" },
    { "time", "loading stale fast", "@fast" },
    { "touch", "readonly fast", "@keyspace @read @fast" },
    { "ttl", "readonly fast", "@keyspace @read @fast" },
    { "type", "readonly fast", "@keyspace @read @fast" },
    { "unlink", "write fast", "@keyspace @write @fast" },
    { "unsubscribe", "pubsub noscript loading stale", "@pubsub @slow" },
    { "unwatch", "noscript loading stale fast allow_busy", "@fast @transaction" },
    { "wait", "noscript", "@slow @connection" },
    { "watch", "noscript loading stale fast allow_busy", "@fast @transaction" },
    { "zadd", "write denyoom fast", "@write @sortedset @fast" },
    { "zcard", "readonly fast", "@read @sortedset @fast" },
    { "zcount", "readonly fast", "@read @sortedset @fast" },
    { "zdiff", "readonly movablekeys", "@read @sortedset @slow" },
    { "zdiffstore", "write denyoom movablekeys", "@write @sortedset @slow" },
    { "zincrby", "write denyoom fast", "@write @sortedset @fast" },
    { "zinter", "readonly movablekeys", "@read @sortedset @slow" },
    { "zintercard", "readonly movablekeys", "@read @sortedset @slow" },
    { "zinterstore", "write denyoom movablekeys", "@write @sortedset @slow" },
    { "zlexcount", "readonly fast", "@read @sortedset @fast" },
    { "zmpop", "write movablekeys", "@write @sortedset @slow" },
    { "zmscore", "readonly fast", "@read @sortedset @fast" },
    { "zpopmax", "write fast", "@write @sortedset @fast" },
    { "zpopmin", "write fast", "@write @sortedset @fast" },
    { "zrandmember", "readonly", "@read @sortedset @slow" },
    { "zrange", "readonly", "@read @sortedset @slow" },
    { "zrangebylex", "readonly", "@read @sortedset @slow" },
    { "zrangebyscore", "readonly", "@read @sortedset @slow" },
    { "zrangestore", "write denyoom", "@write @sortedset @slow" },
    { "zrank", "readonly fast", "@read @sortedset @fast" },
    { "zrem", "write fast", "@write @sortedset @fast" },
    { "zremrangebylex", "write", "@write @sortedset @slow" },
    { "zremrangebyrank", "write", "@write @sortedset @slow" },
    { "zremrangebyscore", "write", "@write @sortedset @slow" },
    { "zrevrange", "readonly", "@read @sortedset @slow" },
    { "zrevrangebylex", "readonly", "@read @sortedset @slow" },
    { "zrevrangebyscore", "readonly", "@read @sortedset @slow" },
    { "zrevrank", "readonly fast", "@read @sortedset @fast" },
    { "zscan", "readonly", "@read @sortedset @slow" },
    { "zscore", "readonly fast", "@read @sortedset @fast" },
    { "zunion", "readonly movablekeys", "@read @sortedset @slow" },
    { "zunionstore", "write denyoom movablekeys", "@write @sortedset @slow" },
};

static int command_doc_cmp(const void *key, const void *row)
{
    return strcmp(key, ((const struct command_doc *)row)->name);
}

const char *command_doc_flags(const char *name, int acl)
{
    const struct command_doc *d =
        bsearch(name, command_docs, LL_ARRAY_LEN(command_docs), sizeof *command_docs, command_doc_cmp);
    return d ? (acl ? d->acl : d->flags) : NULL;
}

/* Words of a space-separated list as status replies. */
static void reply_words(reply *r, const char *words)
{
    size_t n = 0;
    for (const char *p = words; *p; p++) n += (p == words || p[-1] == ' ') && *p != ' ';
    reply *e = reply_array(r, n);
    for (const char *p = words; *p;) {
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)len, p);
        reply_status(e++, word);
        p += len;
        while (*p == ' ') p++;
    }
}

/* COMMAND INFO's entry: name, arity, flags, first key, last key, step, ACL categories,
 * tips, key specs, subcommands. Flags and categories are Redis's (command_docs; for a
 * command without a row, the table's flags and read or write, fast or slow); tips, key
 * specs and subcommands are left empty. */
static void command_entry(const command *cmd, reply *r)
{
    static const struct { unsigned flag; const char *name; } flags[] = {
        { CMD_WRITE, "write" },   { CMD_READONLY, "readonly" }, { CMD_PUBSUB, "pubsub" },
        { CMD_NOSCRIPT, "noscript" }, { CMD_FAST, "fast" },     { CMD_MAY_REPLICATE, "may_replicate" },
    };
    reply *e = reply_array(r, 10);
    reply_bulk_cstr(&e[0], cmd->name);
    reply_int(&e[1], cmd->arity);
    const char *doc = command_doc_flags(cmd->name, 0);
    if (doc) {
        long long pos[3];
        command_keys(cmd, pos);
        reply_words(&e[2], doc);
        for (int i = 0; i < 3; i++) reply_int(&e[3 + i], pos[i]);
        reply_words(&e[6], command_doc_flags(cmd->name, 1));
        for (int i = 7; i < 10; i++) reply_array(&e[i], 0);
        return;
    }
    size_t nf = 0;
    for (size_t i = 0; i < LL_ARRAY_LEN(flags); i++) nf += (cmd->flags & flags[i].flag) != 0;
    reply *f = reply_array(&e[2], nf);
    for (size_t i = 0, k = 0; i < LL_ARRAY_LEN(flags); i++)
        if (cmd->flags & flags[i].flag) reply_status(&f[k++], flags[i].name);
    long long pos[3];
    command_keys(cmd, pos);
    for (int i = 0; i < 3; i++) reply_int(&e[3 + i], pos[i]);
    /* A transaction command is @transaction, listed after its speed (Redis 7.0's order). */
    reply *acl = reply_array(&e[6], 2);
    int tx = (cmd->flags & CMD_TX) != 0;
    reply_status(&acl[tx], tx ? "@transaction" : cmd->flags & CMD_WRITE ? "@write" : "@read");
    reply_status(&acl[!tx], cmd->flags & CMD_FAST ? "@fast" : "@slow");
    for (int i = 7; i < 10; i++) reply_array(&e[i], 0);
}

/* Whether cmd is in ACL category `cat` (without its '@'), by its row of command_docs. */
static int acl_has(const char *acl, slice cat)
{
    for (const char *p = acl; *p;) {
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len - 1 == cat.len && strncasecmp(p + 1, cat.p, cat.len) == 0) return 1;
        p += len;
        while (*p == ' ') p++;
    }
    return 0;
}

static int command_in_category(const command *cmd, slice cat)
{
    const char *acl = command_doc_flags(cmd->name, 1);
    if (!acl) {
        const char *kind = cmd->flags & CMD_TX ? "transaction" : cmd->flags & CMD_WRITE ? "write" : "read";
        return slice_opt_is(cat, kind) || slice_opt_is(cat, cmd->flags & CMD_FAST ? "fast" : "slow");
    }
    return acl_has(acl, cat);
}

/* The subcommands of the container commands this server has, as redis-server 7.0.15's
 * COMMAND INFO gives them (asked of the real server), with their ACL categories: COMMAND
 * LIST names them after their command ("client|list"). MEMORY has only USAGE and HELP here. */
static const struct { const char *name, *acl; } subcommands[] = {
    { "client|caching", "@slow @connection" },
    { "client|getname", "@slow @connection" },
    { "client|getredir", "@slow @connection" },
    { "client|help", "@slow @connection" },
    { "client|id", "@slow @connection" },
    { "client|info", "@slow @connection" },
    { "client|kill", "@admin @slow @dangerous @connection" },
    { "client|list", "@admin @slow @dangerous @connection" },
    { "client|no-evict", "@admin @slow @dangerous @connection" },
    { "client|pause", "@admin @slow @dangerous @connection" },
    { "client|reply", "@slow @connection" },
    { "client|setname", "@slow @connection" },
    { "client|tracking", "@slow @connection" },
    { "client|trackinginfo", "@slow @connection" },
    { "client|unblock", "@admin @slow @dangerous @connection" },
    { "client|unpause", "@admin @slow @dangerous @connection" },
    { "command|count", "@slow @connection" },
    { "command|docs", "@slow @connection" },
    { "command|getkeys", "@slow @connection" },
    { "command|getkeysandflags", "@slow @connection" },
    { "command|help", "@slow @connection" },
    { "command|info", "@slow @connection" },
    { "command|list", "@slow @connection" },
    { "config|get", "@admin @slow @dangerous" },
    { "config|help", "@slow" },
    { "config|resetstat", "@admin @slow @dangerous" },
    { "config|rewrite", "@admin @slow @dangerous" },
    { "config|set", "@admin @slow @dangerous" },
    { "function|delete", "@write @slow @scripting" },
    { "function|dump", "@slow @scripting" },
    { "function|flush", "@write @slow @scripting" },
    { "function|help", "@slow @scripting" },
    { "function|kill", "@slow @scripting" },
    { "function|list", "@slow @scripting" },
    { "function|load", "@write @slow @scripting" },
    { "function|restore", "@write @slow @scripting" },
    { "function|stats", "@slow @scripting" },
    { "latency|doctor", "@admin @slow @dangerous" },
    { "latency|graph", "@admin @slow @dangerous" },
    { "latency|help", "@slow" },
    { "latency|histogram", "@admin @slow @dangerous" },
    { "latency|history", "@admin @slow @dangerous" },
    { "latency|latest", "@admin @slow @dangerous" },
    { "latency|reset", "@admin @slow @dangerous" },
    { "memory|help", "@slow" },
    { "memory|usage", "@read @slow" },
    { "object|encoding", "@keyspace @read @slow" },
    { "object|freq", "@keyspace @read @slow" },
    { "object|help", "@keyspace @slow" },
    { "object|idletime", "@keyspace @read @slow" },
    { "object|refcount", "@keyspace @read @slow" },
    { "pubsub|channels", "@pubsub @slow" },
    { "pubsub|help", "@slow" },
    { "pubsub|numpat", "@pubsub @slow" },
    { "pubsub|numsub", "@pubsub @slow" },
    { "pubsub|shardchannels", "@pubsub @slow" },
    { "pubsub|shardnumsub", "@pubsub @slow" },
    { "script|debug", "@slow @scripting" },
    { "script|exists", "@slow @scripting" },
    { "script|flush", "@slow @scripting" },
    { "script|help", "@slow @scripting" },
    { "script|kill", "@slow @scripting" },
    { "script|load", "@slow @scripting" },
    { "slowlog|get", "@admin @slow @dangerous" },
    { "slowlog|help", "@slow" },
    { "slowlog|len", "@admin @slow @dangerous" },
    { "slowlog|reset", "@admin @slow @dangerous" },
};

/* Appends cmd's name, then those of its subcommands that match (all: match NULL), to out. */
static void list_with_subcommands(const command *cmd, int (*match)(const char *name, const char *acl, void *ud),
                                  void *ud, int top, buf *names, size_t *n)
{
    if (top) {
        buf_append(names, cmd->name, cmd->namelen + 1);
        (*n)++;
    }
    for (size_t i = 0; i < LL_ARRAY_LEN(subcommands); i++) {
        const char *sub = subcommands[i].name;
        if (strncmp(sub, cmd->name, cmd->namelen) || sub[cmd->namelen] != '|') continue;
        if (match && !match(sub, subcommands[i].acl, ud)) continue;
        buf_append(names, sub, strlen(sub) + 1);
        (*n)++;
    }
}

static int sub_matches(const char *name, const char *acl, void *ud)
{
    const slice *f = ud; /* f[0]: aclcat (p non-NULL) or pattern in f[1] */
    if (f[0].p) return acl_has(acl, f[0]);
    return glob_match_nocase(f[1].p, f[1].len, name, strlen(name));
}

static void reply_names(reply *out, const buf *names, size_t n)
{
    reply *e = reply_array(out, n);
    const char *p = names->p;
    for (size_t i = 0; i < n; i++) {
        reply_bulk_cstr(&e[i], p);
        p += strlen(p) + 1;
    }
}

/* COMMAND LIST FILTERBY MODULE name | ACLCAT category | PATTERN glob (ignoring case, as
 * Redis's stringmatchlen with nocase): no modules here; the categories are command_entry's. */
static void command_list_filtered(cmdctx *c)
{
    if (c->argc != 5 || !slice_opt_is(c->argv[2], "filterby")) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    slice by = c->argv[3], what = c->argv[4];
    int module = slice_opt_is(by, "module"), aclcat = slice_opt_is(by, "aclcat");
    if (!module && !aclcat && !slice_opt_is(by, "pattern")) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    size_t n = commands_count(), k = 0;
    buf names;
    buf_init(&names);
    slice f[2] = { aclcat ? what : (slice){ NULL, 0 }, what };
    for (size_t i = 0; i < n && !module; i++) {
        const command *cmd = commands_at(i);
        int match = aclcat ? command_in_category(cmd, what)
                           : glob_match_nocase(what.p, what.len, cmd->name, cmd->namelen);
        list_with_subcommands(cmd, sub_matches, f, match, &names, &k);
    }
    reply_names(c->out, &names, k);
    buf_release(&names);
}


/* COMMAND, COMMAND COUNT, COMMAND LIST, COMMAND INFO [name ...], COMMAND DOCS [name ...]
 * (an empty answer: there are no docs here) and COMMAND HELP, with Redis 7.0's errors. */
void cmd_command(cmdctx *c)
{
    size_t n = commands_count();
    if (c->argc == 1) {
        reply *e = reply_array(c->out, n);
        for (size_t i = 0; i < n; i++) command_entry(commands_at(i), &e[i]);
        return;
    }
    slice sub = c->argv[1];
    if (slice_opt_is(sub, "list") && c->argc > 2) {
        command_list_filtered(c);
    } else if (slice_opt_is(sub, "count") || slice_opt_is(sub, "list") || slice_opt_is(sub, "help")) {
        if (c->argc != 2) {
            slice s = slice_cstr_prefix(sub);
            char name[16];
            size_t k;
            for (k = 0; k < s.len && k + 1 < sizeof name; k++) name[k] = (char)tolower((unsigned char)s.p[k]);
            name[k] = '\0';
            reply_errorf(c->out, "ERR wrong number of arguments for 'command|%s' command", name);
            return;
        }
        if (slice_opt_is(sub, "count")) {
            reply_int(c->out, (long long)n);
        } else if (slice_opt_is(sub, "list")) { /* the commands, each followed by its subcommands */
            buf names;
            buf_init(&names);
            size_t k = 0;
            for (size_t i = 0; i < n; i++) list_with_subcommands(commands_at(i), NULL, NULL, 1, &names, &k);
            reply_names(c->out, &names, k);
            buf_release(&names);
        } else {
            static const char *const help[] = {
                "COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                "(no subcommand)", "    Return details about all Redis commands.", "COUNT",
                "    Return the total number of commands in this Redis server.", "LIST",
                "    Return a list of all commands in this Redis server.", "INFO [<command-name> ...]",
                "    Return details about multiple Redis commands.", "    If no command names are given, documentation details for all", "    commands are returned.",
                "DOCS [<command-name> ...]", "    Return documentation details about multiple Redis commands.",
                "    If no command names are given, documentation details for all", "    commands are returned.",
                "GETKEYS <full-command>", "    Return the keys from a full Redis command.",
                "GETKEYSANDFLAGS <full-command>", "    Return the keys and the access flags from a full Redis command.",
                "HELP", "    Prints this help.",
            };
            reply *e = reply_array(c->out, LL_ARRAY_LEN(help));
            for (size_t i = 0; i < LL_ARRAY_LEN(help); i++) reply_status(&e[i], help[i]);
        }
    } else if (slice_opt_is(sub, "info")) {
        if (c->argc == 2) {
            reply *e = reply_array(c->out, n);
            for (size_t i = 0; i < n; i++) command_entry(commands_at(i), &e[i]);
            return;
        }
        reply *e = reply_array(c->out, (size_t)c->argc - 2);
        for (int i = 2; i < c->argc; i++) {
            const command *cmd = commands_lookup(c->argv[i]);
            if (cmd) command_entry(cmd, &e[i - 2]);
        }
    } else if (slice_opt_is(sub, "docs")) {
        reply_array(c->out, 0);
    } else if (slice_opt_is(sub, "getkeys")) {
        command_getkeys(c, 0);
    } else if (slice_opt_is(sub, "getkeysandflags")) {
        command_getkeys(c, 1);
    } else {
        slice s = slice_cstr_prefix(sub);
        reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try COMMAND HELP.", (int)(s.len < 128 ? s.len : 128), s.p);
    }
}

/* Whether Redis's flags of cmd hold `flag`, cached by table index (0 unknown, 1 no, 2 yes). */
static int command_flagged(const command *cmd, const char *flag, unsigned char known[256])
{
    size_t i = (size_t)(cmd - commands_at(0));
    if (i < 256 && known[i]) return known[i] == 2;
    const char *f = command_doc_flags(cmd->name, 0);
    int yes = f && strstr(f, flag) != NULL;
    if (i < 256) known[i] = (unsigned char)(yes ? 2 : 1);
    return yes;
}

int command_denyoom(const command *cmd)
{
    static unsigned char known[256];
    return command_flagged(cmd, "denyoom", known);
}

int command_may_replicate(const command *cmd)
{
    static unsigned char w[256], m[256];
    return command_flagged(cmd, "write", w) || command_flagged(cmd, "may_replicate", m);
}

int command_skip_slowlog(const command *cmd)
{
    static unsigned char known[256];
    return command_flagged(cmd, "skip_slowlog", known);
}
