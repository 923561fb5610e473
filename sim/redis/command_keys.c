/* command_keys.c — which arguments of a call are keys, as Redis 7.0 finds them: a command's
 * legacy key positions (COMMAND INFO's first, last, step), its key specs' flags as
 * redis-server 7.0.15 gives them, and COMMAND GETKEYS / GETKEYSANDFLAGS (movable keys: a
 * numkeys argument, SORT's STORE, OBJECT's and MEMORY USAGE's key). command_info.c answers the
 * rest of COMMAND; commandint.h is what the two share. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commandint.h"

/* A command's legacy key positions (first, last, step), which Redis derives from its key
 * specs: most commands take one key, argv[1]; these are the others. */
void command_keys(const command *cmd, long long pos[3])
{
    static const struct { const char *name; long long first, last, step; } odd[] = {
        { "blpop", 1, -2, 1 },  { "brpop", 1, -2, 1 },  { "copy", 1, 2, 1 },     { "dbsize", 0, 0, 0 },
        { "del", 1, -1, 1 },    { "exists", 1, -1, 1 }, { "flushall", 0, 0, 0 }, { "flushdb", 0, 0, 0 },
        { "keys", 0, 0, 0 },    { "mget", 1, -1, 1 },   { "mset", 1, -1, 2 },    { "msetnx", 1, -1, 2 },
        { "rename", 1, 2, 1 },  { "renamenx", 1, 2, 1 }, { "scan", 0, 0, 0 },    { "unlink", 1, -1, 1 },
        { "watch", 1, -1, 1 },
        { "move", 1, 1, 1 },    { "object", 0, 0, 0 }, { "memory", 0, 0, 0 }, { "select", 0, 0, 0 },   { "swapdb", 0, 0, 0 },
        { "smove", 1, 2, 1 },   { "sinter", 1, -1, 1 }, { "sinterstore", 1, -1, 1 }, { "sunion", 1, -1, 1 },
        { "sunionstore", 1, -1, 1 }, { "sdiff", 1, -1, 1 }, { "sdiffstore", 1, -1, 1 }, { "sintercard", 0, 0, 0 },
        { "rpoplpush", 1, 2, 1 }, { "lmove", 1, 2, 1 }, { "brpoplpush", 1, 2, 1 }, { "blmove", 1, 2, 1 },
        { "lmpop", 0, 0, 0 },   { "blmpop", 0, 0, 0 },  { "zmpop", 0, 0, 0 },      { "zunionstore", 1, 1, 1 },
        { "zinterstore", 1, 1, 1 }, { "zrangestore", 1, 2, 1 }, { "zdiffstore", 1, 1, 1 }, { "zunion", 0, 0, 0 },
        { "zinter", 0, 0, 0 },  { "zdiff", 0, 0, 0 },   { "zintercard", 0, 0, 0 },   { "bzmpop", 0, 0, 0 },
        { "bzpopmin", 1, -2, 1 }, { "bzpopmax", 1, -2, 1 }, { "touch", 1, -1, 1 },   { "randomkey", 0, 0, 0 },
        { "lcs", 1, 2, 1 },     { "sort", 1, 1, 1 },    { "sort_ro", 1, 1, 1 },
        { "fcall", 0, 0, 0 },   { "fcall_ro", 0, 0, 0 },
        { "bitop", 2, -1, 1 },  { "bitfield", 1, 1, 1 }, { "bitfield_ro", 1, 1, 1 },
        /* a shard channel is a key: it picks the cluster slot */
        { "spublish", 1, 1, 1 }, { "ssubscribe", 1, -1, 1 }, { "sunsubscribe", 1, -1, 1 },
    };
    int keyed = (cmd->flags & (CMD_WRITE | CMD_READONLY)) && strncmp(cmd->name, "eval", 4) != 0;
    pos[0] = pos[1] = pos[2] = keyed;
    for (size_t i = 0; i < LL_ARRAY_LEN(odd); i++)
        if (strcmp(odd[i].name, cmd->name) == 0) {
            pos[0] = odd[i].first;
            pos[1] = odd[i].last;
            pos[2] = odd[i].step;
        }
}
/* Each command's key specs' flags, as redis-server 7.0.15's COMMAND INFO gives them (asked
 * of the real server; SORT's BY/GET spec, which finds no key by itself, left out), "|"
 * between specs: COMMAND GETKEYSANDFLAGS gives a key the flags of its spec. */
static const struct { const char *name, *specs; } key_specs[] = {
    { "append", "RW insert" },
    { "auth", "" },
    { "bitcount", "RO access" },
    { "bitfield", "RW access update variable_flags" },
    { "bitfield_ro", "RO access" },
    { "bitop", "OW update|RO access" },
    { "bitpos", "RO access" },
    { "blmove", "RW access delete|RW insert" },
    { "blmpop", "RW access delete" },
    { "blpop", "RW access delete" },
    { "brpop", "RW access delete" },
    { "brpoplpush", "RW access delete|RW insert" },
    { "bzmpop", "RW access delete" },
    { "bzpopmax", "RW access delete" },
    { "bzpopmin", "RW access delete" },
    { "client", "" },
    { "command", "" },
    { "config", "" },
    { "copy", "RO access|OW update" },
    { "dbsize", "" },
    { "debug", "" },
    { "decr", "RW access update" },
    { "decrby", "RW access update" },
    { "del", "RM delete" },
    { "discard", "" },
    { "dump", "RO access" },
    { "echo", "" },
    { "eval", "RW access update" },
    { "eval_ro", "RO access" },
    { "evalsha", "RW access update" },
    { "evalsha_ro", "RO access" },
    { "exec", "" },
    { "exists", "RO" },
    { "expire", "RW update" },
    { "expireat", "RW update" },
    { "expiretime", "RO access" },
    { "fcall", "RW access update" },
    { "fcall_ro", "RO access" },
    { "flushall", "" },
    { "flushdb", "" },
    { "function", "" },
    { "get", "RO access" },
    { "getbit", "RO access" },
    { "getdel", "RW access delete" },
    { "getex", "RW access update" },
    { "getrange", "RO access" },
    { "getset", "RW access update" },
    { "hdel", "RW delete" },
    { "hello", "" },
    { "hexists", "RO" },
    { "hget", "RO access" },
    { "hgetall", "RO access" },
    { "hincrby", "RW access update" },
    { "hincrbyfloat", "RW access update" },
    { "hkeys", "RO access" },
    { "hlen", "RO" },
    { "hmget", "RO access" },
    { "hmset", "RW update" },
    { "hrandfield", "RO access" },
    { "hscan", "RO access" },
    { "hset", "RW update" },
    { "hsetnx", "RW insert" },
    { "hstrlen", "RO" },
    { "hvals", "RO access" },
    { "incr", "RW access update" },
    { "incrby", "RW access update" },
    { "incrbyfloat", "RW access update" },
    { "info", "" },
    { "keys", "" },
    { "lastsave", "" },
    { "lcs", "RO access" },
    { "lindex", "RO access" },
    { "linsert", "RW insert" },
    { "llen", "RO" },
    { "lmove", "RW access delete|RW insert" },
    { "lmpop", "RW access delete" },
    { "lpop", "RW access delete" },
    { "lpos", "RO access" },
    { "lpush", "RW insert" },
    { "lpushx", "RW insert" },
    { "lrange", "RO access" },
    { "lrem", "RW delete" },
    { "lset", "RW update" },
    { "ltrim", "RW delete" },
    { "memory", "" },
    { "mget", "RO access" },
    { "move", "RW access update" },
    { "mset", "OW update" },
    { "msetnx", "OW insert" },
    { "multi", "" },
    { "object", "" },
    { "persist", "RW update" },
    { "pexpire", "RW update" },
    { "pexpireat", "RW update" },
    { "pexpiretime", "RO access" },
    { "ping", "" },
    { "psetex", "OW update" },
    { "psubscribe", "" },
    { "pttl", "RO access" },
    { "publish", "" },
    { "pubsub", "" },
    { "punsubscribe", "" },
    { "randomkey", "" },
    { "readonly", "" },
    { "readwrite", "" },
    { "rename", "RW access delete|OW update" },
    { "renamenx", "RW access delete|OW insert" },
    { "reset", "" },
    { "restore", "OW update" },
    { "role", "" },
    { "rpop", "RW access delete" },
    { "rpoplpush", "RW access delete|RW insert" },
    { "rpush", "RW insert" },
    { "rpushx", "RW insert" },
    { "sadd", "RW insert" },
    { "save", "" },
    { "scan", "" },
    { "scard", "RO" },
    { "script", "" },
    { "sdiff", "RO access" },
    { "sdiffstore", "OW update|RO access" },
    { "select", "" },
    { "set", "RW access update variable_flags" },
    { "setbit", "RW access update" },
    { "setex", "OW update" },
    { "setnx", "OW insert" },
    { "setrange", "RW update" },
    { "shutdown", "" },
    { "sinter", "RO access" },
    { "sintercard", "RO access" },
    { "sinterstore", "RW update|RO access" },
    { "sismember", "RO" },
    { "slowlog", "" },
    { "smembers", "RO access" },
    { "smismember", "RO access" },
    { "smove", "RW access delete|RW insert" },
    { "sort", "RO access|OW update" },
    { "sort_ro", "RO access" },
    { "spop", "RW access delete" },
    { "spublish", "not_key" },
    { "srandmember", "RO access" },
    { "srem", "RW delete" },
    { "sscan", "RO access" },
    { "ssubscribe", "not_key" },
    { "strlen", "RO" },
    { "subscribe", "" },
    { "substr", "RO access" },
    { "sunion", "RO access" },
    { "sunionstore", "OW update|RO access" },
    { "sunsubscribe", "not_key" },
    { "swapdb", "" },
    { "time", "" },
    { "touch", "RO" },
    { "ttl", "RO access" },
    { "type", "RO" },
    { "unlink", "RM delete" },
    { "unsubscribe", "" },
    { "unwatch", "" },
    { "wait", "" },
    { "watch", "RO" },
    { "zadd", "RW update" },
    { "zcard", "RO" },
    { "zcount", "RO access" },
    { "zdiff", "RO access" },
    { "zdiffstore", "OW update|RO access" },
    { "zincrby", "RW access update" },
    { "zinter", "RO access" },
    { "zintercard", "RO access" },
    { "zinterstore", "OW update|RO access" },
    { "zlexcount", "RO access" },
    { "zmpop", "RW access delete" },
    { "zmscore", "RO access" },
    { "zpopmax", "RW access delete" },
    { "zpopmin", "RW access delete" },
    { "zrandmember", "RO access" },
    { "zrange", "RO access" },
    { "zrangebylex", "RO access" },
    { "zrangebyscore", "RO access" },
    { "zrangestore", "OW update|RO access" },
    { "zrank", "RO access" },
    { "zrem", "RW delete" },
    { "zremrangebylex", "RW delete" },
    { "zremrangebyrank", "RW delete" },
    { "zremrangebyscore", "RW delete" },
    { "zrevrange", "RO access" },
    { "zrevrangebylex", "RO access" },
    { "zrevrangebyscore", "RO access" },
    { "zrevrank", "RO access" },
    { "zscan", "RO access" },
    { "zscore", "RO access" },
    { "zunion", "RO access" },
    { "zunionstore", "OW update|RO access" },
};

static int key_spec_cmp(const void *key, const void *row)
{
    return strcmp(key, *(const char *const *)row);
}

/* The flags of spec i of cmd (the last one past its count), as a space-separated list. */
static void key_spec_flags(const command *cmd, int i, reply *out)
{
    const char *specs = "";
    const char *const *row = bsearch(cmd->name, key_specs, LL_ARRAY_LEN(key_specs), sizeof *key_specs, key_spec_cmp);
    if (row) specs = row[1];
    const char *p = specs;
    for (int k = 0; k < i; k++) {
        const char *bar = strchr(p, '|');
        if (!bar) break;
        p = bar + 1;
    }
    size_t len = strcspn(p, "|");
    size_t n = 0;
    for (size_t j = 0; j < len; j++) n += (j == 0 || p[j - 1] == ' ') && p[j] != ' ';
    reply *e = reply_array(out, n);
    size_t at = 0;
    for (size_t j = 0; j < len;) {
        size_t w = strcspn(p + j, " |");
        if (j + w > len) w = len - j;
        if (w) reply_status_len(&e[at++], p + j, w);
        j += w + 1;
    }
}

/* COMMAND GETKEYS command arg ...: the keys a call would touch, as Redis 7.0 finds them
 * (its key specs: the legacy positions of command_keys, and the movable ones: a numkeys
 * argument, SORT's STORE, OBJECT's and MEMORY USAGE's key), with its errors. */
void command_getkeys(cmdctx *c, int flags)
{
    if (c->argc < 4) { /* Redis's arity for it: -4 */
        reply_errorf(c->out, "ERR wrong number of arguments for 'command|%s' command", flags ? "getkeysandflags" : "getkeys");
        return;
    }
    const slice *a = c->argv + 2;
    int n = c->argc - 2;
    const command *cmd = commands_lookup(a[0]);
    if (!cmd) {
        reply_error(c->out, "ERR Invalid command specified");
        return;
    }
    if ((cmd->arity > 0 && n != cmd->arity) || n < -cmd->arity) {
        reply_error(c->out, "ERR Invalid number of arguments specified for command");
        return;
    }
    const char *name = cmd->name;
    int first = -1, count = 0, step = 1, extra = -1; /* keys a[first], a[first + step], ...; then a[extra] */
    int bad = 0;
    long long nk;
    if (!strncmp(name, "eval", 4) || !strncmp(name, "fcall", 5)) {
        /* numkeys at a[2]: a wrong one finds no keys (the call itself would fail) */
        if (ll_parse_int64(a[2], &nk) == 0 && nk >= 0 && nk <= n - 3) first = 3, count = (int)nk;
        else first = 3, count = 0;
    } else if (!strcmp(name, "lmpop") || !strcmp(name, "zmpop") || !strcmp(name, "zunion") || !strcmp(name, "zinter") ||
               !strcmp(name, "zdiff") || !strcmp(name, "zintercard") || !strcmp(name, "sintercard") ||
               !strcmp(name, "blmpop") || !strcmp(name, "bzmpop")) {
        int at = name[0] == 'b' ? 2 : 1;
        if (ll_parse_int64(a[at], &nk) < 0 || nk <= 0 || nk > n - at - 1) bad = 1;
        else first = at + 1, count = (int)nk;
    } else if (!strcmp(name, "zunionstore") || !strcmp(name, "zinterstore") || !strcmp(name, "zdiffstore")) {
        if (ll_parse_int64(a[2], &nk) < 0 || nk <= 0 || nk > n - 3) bad = 1;
        else first = 3, count = (int)nk, extra = 1;
    } else if (!strcmp(name, "sort") || !strcmp(name, "sort_ro")) {
        first = 1, count = 1;
        for (int j = 2; name[4] == '\0' && j < n; j++) {
            if (slice_opt_is(a[j], "limit")) j += 2;
            else if (slice_opt_is(a[j], "get") || slice_opt_is(a[j], "by")) j += 1;
            else if (slice_opt_is(a[j], "store") && j + 1 < n) extra = j + 1, j++;
        }
    } else if (!strcmp(name, "object") || !strcmp(name, "memory")) {
        if (n >= 3 && (!strcmp(name, "object") || slice_opt_is(a[1], "usage"))) first = 2, count = 1;
        else bad = 2;
    } else {
        long long pos[3];
        command_keys(cmd, pos);
        if (pos[0] == 0) {
            bad = 2;
        } else {
            long long last = pos[1] < 0 ? n + pos[1] : pos[1];
            first = (int)pos[0], step = (int)pos[2];
            count = last >= pos[0] ? (int)((last - pos[0]) / pos[2] + 1) : 0;
        }
    }
    if (bad == 1) {
        reply_error(c->out, "ERR Invalid arguments specified for command");
        return;
    }
    if (bad == 2) {
        reply_error(c->out, "ERR The command has no key arguments");
        return;
    }
    int total = count + (extra >= 0);
    reply *e = reply_array(c->out, (size_t)total);
    int k = 0;
    const slice **keys = xcalloc((size_t)total + 1, sizeof *keys);
    if (extra >= 0 && extra < first) keys[k++] = &a[extra];
    for (int i = 0; i < count; i++) keys[k++] = &a[first + i * step];
    if (extra >= 0 && extra > first) keys[k++] = &a[extra];
    for (int i = 0; i < k; i++) {
        if (!flags) {
            reply_bulk(&e[i], keys[i]->p, keys[i]->len);
            continue;
        }
        /* [key, [flags...]]: the key's spec is its rank, the last spec for the rest */
        reply *pair = reply_array(&e[i], 2);
        reply_bulk(&pair[0], keys[i]->p, keys[i]->len);
        const char *var = NULL; /* variable_flags: Redis's setGetKeys, bitfieldGetKeys */
        if (!strcmp(name, "set")) {
            var = "OW update";
            for (int j = 3; j < n; j++)
                if (a[j].len == 3 && slice_opt_is(a[j], "get")) var = "RW access update";
        } else if (!strcmp(name, "bitfield")) {
            int ro = 1;
            for (int j = 2; j < n; j++) {
                int rem = n - j - 1;
                if (slice_opt_is(a[j], "get") && rem >= 2) j += 2;
                else if ((slice_opt_is(a[j], "set") || slice_opt_is(a[j], "incrby")) && rem >= 3) { ro = 0; break; }
                else if (slice_opt_is(a[j], "overflow") && rem >= 1) j += 1;
                else { ro = 0; break; }
            }
            var = ro ? "RO access" : "RW access update";
        }
        if (var) {
            reply *f = reply_array(&pair[1], strchr(var, ' ') == strrchr(var, ' ') ? 2 : 3);
            const char *p = var;
            for (size_t w = 0; *p; w++) {
                size_t len = strcspn(p, " ");
                reply_status_len(&f[w], p, len);
                p += len + (p[len] == ' ');
            }
        } else {
            key_spec_flags(cmd, i, &pair[1]);
        }
    }
    free(keys);
}
