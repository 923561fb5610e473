/* commands.c — the command table, the shared argument helpers, and the keyspace commands
 * (DEL, EXISTS, TYPE, the EXPIRE family, TTL/PTTL, PERSIST, FLUSHALL, DBSIZE, PING, ECHO,
 * TIME, KEYS, RENAME, COPY). Arities and flags follow Redis 7.0's command table. */
#include "commands.h"
#include "server.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W CMD_WRITE
#define R CMD_READONLY
#define NS CMD_NOSCRIPT
#define PS CMD_PUBSUB
#define F CMD_FAST

/* Sorted by name (commands_at lists them in this order); see commands_lookup below. */
static const command table[] = {
    { "append", 6, 3, W, cmd_append },
    { "auth", 4, -2, NS | F, cmd_auth },
    { "bitcount", 8, -2, R, cmd_bitcount },
    { "bitfield", 8, -2, W, cmd_bitfield },
    { "bitfield_ro", 11, -2, R | F, cmd_bitfield_ro },
    { "bitop", 5, -4, W, cmd_bitop },
    { "bitpos", 6, -3, R, cmd_bitpos },
    { "blmove", 6, 6, W | NS, cmd_blmove },
    { "blmpop", 6, -5, W, cmd_blmpop },
    { "blpop", 5, -3, W | NS, cmd_blpop },
    { "brpop", 5, -3, W | NS, cmd_brpop },
    { "brpoplpush", 10, 4, W | NS, cmd_brpoplpush },
    { "bzmpop", 6, -5, W, cmd_bzmpop },
    { "bzpopmax", 8, -3, W | NS | F, cmd_bzpopmax },
    { "bzpopmin", 8, -3, W | NS | F, cmd_bzpopmin },
    { "client", 6, -2, NS, cmd_client },
    { "command", 7, -1, 0, cmd_command },
    { "config", 6, -2, NS, cmd_config },
    { "copy", 4, -3, W, cmd_copy },
    { "dbsize", 6, 1, R | F, cmd_dbsize },
    { "debug", 5, -2, NS, cmd_debug },
    { "decr", 4, 2, W | F, cmd_decr },
    { "decrby", 6, 3, W | F, cmd_decrby },
    { "del", 3, -2, W, cmd_del },
    { "discard", 7, 1, NS | F | CMD_TX, cmd_discard },
    { "dump", 4, 2, R, cmd_dump },
    { "echo", 4, 2, F, cmd_echo },
    { "eval", 4, -3, NS, cmd_eval },
    { "eval_ro", 7, -3, NS | R, cmd_eval_ro },
    { "evalsha", 7, -3, NS, cmd_evalsha },
    { "evalsha_ro", 10, -3, NS | R, cmd_evalsha_ro },
    { "exec", 4, 1, NS | CMD_TX, cmd_exec },
    { "exists", 6, -2, R | F, cmd_exists },
    { "expire", 6, -3, W | F, cmd_expire },
    { "expireat", 8, -3, W | F, cmd_expireat },
    { "expiretime", 10, 2, R | F, cmd_expiretime },
    { "fcall", 5, -3, NS, cmd_fcall },
    { "fcall_ro", 8, -3, NS | R, cmd_fcall_ro },
    { "flushall", 8, -1, W, cmd_flushall },
    { "flushdb", 7, -1, W, cmd_flushdb },
    { "function", 8, -2, NS, cmd_function },
    { "get", 3, 2, R | F, cmd_get },
    { "getbit", 6, 3, R | F, cmd_getbit },
    { "getdel", 6, 2, W | F, cmd_getdel },
    { "getex", 5, -2, W | F, cmd_getex },
    { "getrange", 8, 4, R, cmd_getrange },
    { "getset", 6, 3, W | F, cmd_getset },
    { "hdel", 4, -3, W | F, cmd_hdel },
    { "hello", 5, -1, NS | F, cmd_hello },
    { "hexists", 7, 3, R | F, cmd_hexists },
    { "hget", 4, 3, R | F, cmd_hget },
    { "hgetall", 7, 2, R, cmd_hgetall },
    { "hincrby", 7, 4, W | F, cmd_hincrby },
    { "hincrbyfloat", 12, 4, W | F, cmd_hincrbyfloat },
    { "hkeys", 5, 2, R, cmd_hkeys },
    { "hlen", 4, 2, R | F, cmd_hlen },
    { "hmget", 5, -3, R | F, cmd_hmget },
    { "hmset", 5, -4, W | F, cmd_hmset },
    { "hrandfield", 10, -2, R, cmd_hrandfield },
    { "hscan", 5, -3, R, cmd_hscan },
    { "hset", 4, -4, W | F, cmd_hset },
    { "hsetnx", 6, 4, W | F, cmd_hsetnx },
    { "hstrlen", 7, 3, R | F, cmd_hstrlen },
    { "hvals", 5, 2, R, cmd_hvals },
    { "incr", 4, 2, W | F, cmd_incr },
    { "incrby", 6, 3, W | F, cmd_incrby },
    { "incrbyfloat", 11, 3, W | F, cmd_incrbyfloat },
    { "info", 4, -1, 0, cmd_info },
    { "keys", 4, 2, R, cmd_keys },
    { "lastsave", 8, 1, F, cmd_lastsave },
    { "latency", 7, -2, 0, cmd_latency },
    { "lcs", 3, -3, R, cmd_lcs },
    { "lindex", 6, 3, R, cmd_lindex },
    { "linsert", 7, 5, W, cmd_linsert },
    { "llen", 4, 2, R | F, cmd_llen },
    { "lmove", 5, 5, W, cmd_lmove },
    { "lmpop", 5, -4, W, cmd_lmpop },
    { "lpop", 4, -2, W | F, cmd_lpop },
    { "lpos", 4, -3, R, cmd_lpos },
    { "lpush", 5, -3, W | F, cmd_lpush },
    { "lpushx", 6, -3, W | F, cmd_lpushx },
    { "lrange", 6, 4, R, cmd_lrange },
    { "lrem", 4, 4, W, cmd_lrem },
    { "lset", 4, 4, W, cmd_lset },
    { "ltrim", 5, 4, W, cmd_ltrim },
    { "memory", 6, -2, 0, cmd_memory },
    { "mget", 4, -2, R | F, cmd_mget },
    { "move", 4, 3, W | F, cmd_move },
    { "mset", 4, -3, W, cmd_mset },
    { "msetnx", 6, -3, W, cmd_msetnx },
    { "multi", 5, 1, NS | F | CMD_TX, cmd_multi },
    { "object", 6, -2, 0, cmd_object },
    { "persist", 7, 2, W | F, cmd_persist },
    { "pexpire", 7, -3, W | F, cmd_pexpire },
    { "pexpireat", 9, -3, W | F, cmd_pexpireat },
    { "pexpiretime", 11, 2, R | F, cmd_pexpiretime },
    { "ping", 4, -1, F | PS, cmd_ping },
    { "psetex", 6, 4, W, cmd_psetex },
    { "psubscribe", 10, -2, NS | PS, cmd_psubscribe },
    { "pttl", 4, 2, R | F, cmd_pttl },
    { "publish", 7, 3, F | CMD_MAY_REPLICATE, cmd_publish },
    { "pubsub", 6, -2, 0, cmd_pubsub },
    { "punsubscribe", 12, -1, NS | PS, cmd_punsubscribe },
    { "randomkey", 9, 1, R, cmd_randomkey },
    { "readonly", 8, 1, F, cmd_readonly },
    { "readwrite", 9, 1, F, cmd_readwrite },
    { "rename", 6, 3, W, cmd_rename },
    { "renamenx", 8, 3, W | F, cmd_renamenx },
    { "reset", 5, 1, NS | F | PS, cmd_reset },
    { "restore", 7, -4, W, cmd_restore },
    { "role", 4, 1, NS | F, cmd_role },
    { "rpop", 4, -2, W | F, cmd_rpop },
    { "rpoplpush", 9, 3, W, cmd_rpoplpush },
    { "rpush", 5, -3, W | F, cmd_rpush },
    { "rpushx", 6, -3, W | F, cmd_rpushx },
    { "sadd", 4, -3, W | F, cmd_sadd },
    { "save", 4, 1, NS | CMD_NO_MULTI, cmd_save },
    { "scan", 4, -2, R, cmd_scan },
    { "scard", 5, 2, R | F, cmd_scard },
    { "script", 6, -2, NS, cmd_script },
    { "sdiff", 5, -2, R, cmd_sdiff },
    { "sdiffstore", 10, -3, W, cmd_sdiffstore },
    { "select", 6, 2, F, cmd_select },
    { "set", 3, -3, W, cmd_set },
    { "setbit", 6, 4, W, cmd_setbit },
    { "setex", 5, 4, W, cmd_setex },
    { "setnx", 5, 3, W | F, cmd_setnx },
    { "setrange", 8, 4, W, cmd_setrange },
    { "shutdown", 8, -1, NS | CMD_NO_MULTI, cmd_shutdown },
    { "sinter", 6, -2, R, cmd_sinter },
    { "sintercard", 10, -3, R, cmd_sintercard },
    { "sinterstore", 11, -3, W, cmd_sinterstore },
    { "sismember", 9, 3, R | F, cmd_sismember },
    { "slowlog", 7, -2, 0, cmd_slowlog },
    { "smembers", 8, 2, R, cmd_smembers },
    { "smismember", 10, -3, R | F, cmd_smismember },
    { "smove", 5, 4, W | F, cmd_smove },
    { "sort", 4, -2, W, cmd_sort },
    { "sort_ro", 7, -2, R, cmd_sort_ro },
    { "spop", 4, -2, W | F, cmd_spop },
    { "spublish", 8, 3, F | CMD_MAY_REPLICATE, cmd_spublish },
    { "srandmember", 11, -2, R, cmd_srandmember },
    { "srem", 4, -3, W | F, cmd_srem },
    { "sscan", 5, -3, R, cmd_sscan },
    { "ssubscribe", 10, -2, NS | PS, cmd_ssubscribe },
    { "strlen", 6, 2, R | F, cmd_strlen },
    { "subscribe", 9, -2, NS | PS, cmd_subscribe },
    { "substr", 6, 4, R, cmd_substr },
    { "sunion", 6, -2, R, cmd_sunion },
    { "sunionstore", 11, -3, W, cmd_sunionstore },
    { "sunsubscribe", 12, -1, NS | PS, cmd_sunsubscribe },
    { "swapdb", 6, 3, W | F, cmd_swapdb },
    { "time", 4, 1, F, cmd_time },
    { "touch", 5, -2, R | F, cmd_touch },
    { "ttl", 3, 2, R | F, cmd_ttl },
    { "type", 4, 2, R | F, cmd_type },
    { "unlink", 6, -2, W | F, cmd_unlink },
    { "unsubscribe", 11, -1, NS | PS, cmd_unsubscribe },
    { "unwatch", 7, 1, NS | F | CMD_TX, cmd_unwatch },
    { "wait", 4, 3, NS, cmd_wait },
    { "watch", 5, -2, NS | F | CMD_TX, cmd_watch },
    { "zadd", 4, -4, W | F, cmd_zadd },
    { "zcard", 5, 2, R | F, cmd_zcard },
    { "zcount", 6, 4, R | F, cmd_zcount },
    { "zdiff", 5, -3, R, cmd_zdiff },
    { "zdiffstore", 10, -4, W, cmd_zdiffstore },
    { "zincrby", 7, 4, W | F, cmd_zincrby },
    { "zinter", 6, -3, R, cmd_zinter },
    { "zintercard", 10, -3, R, cmd_zintercard },
    { "zinterstore", 11, -4, W, cmd_zinterstore },
    { "zlexcount", 9, 4, R | F, cmd_zlexcount },
    { "zmpop", 5, -4, W, cmd_zmpop },
    { "zmscore", 7, -3, R | F, cmd_zmscore },
    { "zpopmax", 7, -2, W | F, cmd_zpopmax },
    { "zpopmin", 7, -2, W | F, cmd_zpopmin },
    { "zrandmember", 11, -2, R, cmd_zrandmember },
    { "zrange", 6, -4, R, cmd_zrange },
    { "zrangebylex", 11, -4, R, cmd_zrangebylex },
    { "zrangebyscore", 13, -4, R, cmd_zrangebyscore },
    { "zrangestore", 11, -5, W, cmd_zrangestore },
    { "zrank", 5, 3, R | F, cmd_zrank },
    { "zrem", 4, -3, W | F, cmd_zrem },
    { "zremrangebylex", 14, 4, W, cmd_zremrangebylex },
    { "zremrangebyrank", 15, 4, W, cmd_zremrangebyrank },
    { "zremrangebyscore", 16, 4, W, cmd_zremrangebyscore },
    { "zrevrange", 9, -4, R, cmd_zrevrange },
    { "zrevrangebylex", 14, -4, R, cmd_zrevrangebylex },
    { "zrevrangebyscore", 16, -4, R, cmd_zrevrangebyscore },
    { "zrevrank", 8, 3, R | F, cmd_zrevrank },
    { "zscan", 5, -3, R, cmd_zscan },
    { "zscore", 6, 3, R | F, cmd_zscore },
    { "zunion", 6, -3, R, cmd_zunion },
    { "zunionstore", 11, -4, W, cmd_zunionstore },
};

/* Lookup runs for every command and every redis.call, so it is O(1): a perfect hash of
 * (first letter, second letter, last letter, length mixed with the third, the fourth and the
 * letter before the last: no two of Redis 7.0's 240 command names share that key),
 * case-folded, picks the one candidate that is then compared. COMMANDS_HASH_MUL was found
 * by search so that no two commands share one of the COMMANDS_SLOTS slots; slot_of[h] is the
 * table index + 1 of the command in slot h (0: none). tests/test_commands.c recomputes both
 * from the table above and, when a command is added and they no longer fit, prints a new
 * multiplier and slot table to paste here. */
#define COMMANDS_HASH_MUL 0xd7c4966du
#define COMMANDS_MIN_NAME 3
#define COMMANDS_MAX_NAME 16

static const unsigned char slot_of[COMMANDS_SLOTS] = {
     0,  0,  0, 166,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 65, 21,  0,  0, 162,  0,  0,  0,  0, 76,
     0,  0,  0,  0,  0,  0,  0,  7,  0,  0,  0,  0,  0,  0, 81,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 135,  0,  0, 128,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 126,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 109,  0,  0, 186,  0, 82,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 28,
     0,  0,  0, 115,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 107,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    122,  0,  0,  0,  0,  0, 139,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 113,  0, 116,  0,  0, 175,  0,  0,  8,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 67,  0,  0,  0,  0,  0,  0,  0,  0, 51,  0,
     0, 64,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    25,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 120,  0,
     0,  0,  0,  0,  0, 188,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0, 176,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 55,  0,  0,
     0,  0,  0, 172,  0,  0,  0,  0,  0,  0,  0, 10,  0,  0,  0, 165,
     0,  0,  0,  0, 12,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 159,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 169,
     0,  0,  0,  0,  0,  0, 103,  0,  0,  0,  0, 158,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0, 147,  0,  0, 170,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0, 164,  0,  0,  0,  0,  0, 41,
    14,  0,  0,  0,  0,  0,  0, 108,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    182,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 93,  0,  0,
    74,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 142,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 180,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 121,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    104,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 187,  0,
     0, 156, 191,  0,  0, 98,  0,  0,  0,  0,  0,  0, 131,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 47,  0, 132,  0, 146,  0,  0,  0,  0,  0,
     0,  0,  0, 71,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0, 32,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 19,  0,  0,  0,  0,  0,  0, 143,  0,  0,
    157,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 141,  0, 173,  0,  0,
     0,  0, 118,  0, 87,  0, 61,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 94,  0,  0,  0,  0,  0,
    33, 56,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 77, 39,  0,
     0,  0,  0,  0,  0,  0,  0,  0, 72,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0, 102,  0,  0,  0,  0,  0, 189,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 60,  0,  0,  0, 42,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0, 145,  0,  0,  0,  0,  0,  0,  0,  0,
     0, 100,  0,  0, 48,  0,  0, 168,  0,  0,  0,  0,  0, 179,  0,  0,
     0,  0,  0,  0,  0, 79,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0, 155,  0,  0,  0,  0,  0,  0,  0,  0, 83,  0, 86,  0,  0,  0,
     0,  0,  0, 69,  0,  0,  0,  0,  0,  0,  0,  0,  0,  6,  0,  0,
     0,  0,  0, 163,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 106,
     0,  0, 63,  0,  0,  0,  0,  0, 18,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 96,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 129,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0, 59,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    124, 31,  0,  0, 130,  0,  0,  0,  0,  0,  0,  0,  4,  0,  0,  0,
     0,  0,  0,  0,  0, 161,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0, 50,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 154,  0,  0,  0,  0,  0,  0,  0,  0,  0, 43,  0,
    119,  0,  0,  0,  0,  0, 111,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 89,  0,  0,
    190,  0,  0,  0,  0,  0,  0,  0,  0, 184,  0,  0,  0,  0,  0,  0,
    24,  0,  0, 35,  0,  0,  0, 136,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 49,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  1,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0, 54,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 140,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 68,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 133,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 23,  0,  0,  0,  0,  0,  0, 174,  0,  0, 88,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 153,  0, 125, 30,  0,  0, 148, 144,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 20,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 178,  0, 53,  0,  0, 193,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  2,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 16,
    123,  0,  0, 78,  0, 13,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 192,  0,  0,  0,  0, 84,
     0,  0,  0,  0, 40,  0,  0,  0, 34,  0,  0,  0, 62,  0,  0,  0,
    151,  0,  0,  0,  0,  0,  0, 27,  0, 75,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0, 26,  0,  0,  0,  0,  0,  0,
     0,  0,  0, 37,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0, 112,  0,  0,  0,  0, 185, 17, 138,
    36,  0,  0,  0,  0,  0, 66,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 134,  0, 11,  0,  0, 58,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0, 150, 29,  0, 105,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 57,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 110,
     0,  0,  0,  0,  0,  0,  0,  0,  0, 91,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 97,  0,  0, 149, 80,  0,  3,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0, 181,  0,  0, 85,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 127,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 160, 167, 101,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 177,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  5,  0,  0, 99, 114,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 22,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 38,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 137,  0,  0,  0,  0,  0,  0,  0,  0, 46,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0, 92,  0,  0,  0,  0,  0,  0,
     0,  0,  0, 44,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 90,  0,  0,  0,  0,  0,  0,  0,  0,  0, 45,  0,  0,  0,
     0,  0, 52,  0,  0, 73,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 117,  9, 171,  0, 183,  0,  0,  0,  0,  0,  0,  0,  0, 152,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 70,
     0,  0,  0,  0,  0, 95,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 15,  0,
};

/* ASCII lower case without a branch: this runs for every byte of every command name. */
static inline unsigned char fold(char c)
{
    unsigned char u = (unsigned char)c;
    return (unsigned char)(u | ((unsigned char)(u - 'A') < 26u) << 5);
}

static inline unsigned hash_of(slice name, uint32_t mul)
{
    if (name.len < 2) return 0;
    uint32_t third = name.len > 2 ? (uint32_t)fold(name.p[2]) * 31u : 0;
    uint32_t fourth = name.len > 3 ? (uint32_t)fold(name.p[3]) * 13u : 0;
    uint32_t mix = ((uint32_t)name.len ^ (uint32_t)fold(name.p[name.len - 2]) * 7u ^ third ^ fourth) & 0xffu;
    uint32_t k = (uint32_t)fold(name.p[0]) | (uint32_t)fold(name.p[1]) << 8 |
                 (uint32_t)fold(name.p[name.len - 1]) << 16 | mix << 24;
    return (unsigned)((k * mul) >> 21); /* the top 11 bits: COMMANDS_SLOTS */
}

unsigned commands_hash(slice name, uint32_t mul)
{
    return hash_of(name, mul);
}

const command *commands_lookup(slice name)
{
    if (name.len < COMMANDS_MIN_NAME || name.len > COMMANDS_MAX_NAME) return NULL;
    unsigned i = slot_of[hash_of(name, COMMANDS_HASH_MUL)];
    if (!i) return NULL;
    const command *c = &table[i - 1];
    if (c->namelen != name.len) return NULL;
    unsigned diff = 0;
    for (size_t k = 0; k < name.len; k++) diff |= fold(name.p[k]) ^ (unsigned char)c->name[k];
    return diff ? NULL : c;
}

uint32_t commands_hash_mul(void)
{
    return COMMANDS_HASH_MUL;
}

unsigned commands_slot(unsigned h)
{
    return h < COMMANDS_SLOTS ? slot_of[h] : 0;
}

size_t commands_count(void)
{
    return LL_ARRAY_LEN(table);
}

const command *commands_at(size_t i)
{
    return i < LL_ARRAY_LEN(table) ? &table[i] : NULL;
}

/* ---- helpers ---- */

int arg_int64(cmdctx *c, int i, long long *out)
{
    if (ll_parse_int64(c->argv[i], out) == 0) return 0;
    reply_error(c->out, ERR_NOT_INT);
    return -1;
}

int arg_double(cmdctx *c, int i, double *out)
{
    if (ll_parse_double(c->argv[i], out) == 0) return 0;
    reply_error(c->out, ERR_NOT_FLOAT);
    return -1;
}

int lookup_typed(cmdctx *c, slice key, obj_type t, kv **e)
{
    *e = store_lookup(c->db, key);
    if (*e && (*e)->type != t) {
        reply_error(c->out, ERR_WRONGTYPE);
        return -1;
    }
    return 0;
}

int lookup_blocked(cmdctx *c, slice key, obj_type t, kv **e)
{
    if (!c->conn || !c->conn->block_retry) return lookup_typed(c, key, t, e);
    *e = store_lookup(c->db, key);
    if (*e && (*e)->type != t) *e = NULL;
    return 0;
}

void reply_wrong_args(cmdctx *c)
{
    const command *cmd = commands_lookup(c->argv[0]);
    reply_errorf(c->out, "ERR wrong number of arguments for '%s' command", cmd ? cmd->name : "?");
}

uint64_t cmd_rand(cmdctx *c, uint64_t n)
{
    cmd_footprint(c, FP_RNG); /* the next draw depends on this one */
    uint64_t z = (*c->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z % n;
}

int random_count_ok(cmdctx *c, unsigned long long draws)
{
    if (draws <= RANDOM_REPLY_MAX) return 0;
    reply_errorf(c->out, "ERR locklab builds at most %d random draws in one reply", RANDOM_REPLY_MAX);
    return -1;
}

int arg_random_count(cmdctx *c, const char *with, long long *count, int *withflag)
{
    if (arg_int64(c, 2, count) < 0) return -1;
    if (*count == LLONG_MIN) {
        reply_error(c->out, "ERR value is out of range, value must between -9223372036854775807 and "
                            "9223372036854775807");
        return -1;
    }
    if (!with) return 0;
    if (c->argc > 4 || (c->argc == 4 && !slice_opt_is(c->argv[3], with))) {
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    *withflag = c->argc == 4;
    if (*withflag && (*count < -LLONG_MAX / 2 || *count > LLONG_MAX / 2)) {
        reply_error(c->out, "ERR value is out of range");
        return -1;
    }
    return 0;
}

int arg_mpop(cmdctx *c, int nk, const char *end0, const char *end1, int *first, int *nkeys, int *end,
             long long *count)
{
    long long numkeys;
    if (ll_parse_int64(c->argv[nk], &numkeys) < 0 || numkeys < 1) {
        reply_error(c->out, "ERR numkeys should be greater than 0");
        return -1;
    }
    if (numkeys >= c->argc - nk - 1) { /* no room for the keys and the end's word */
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    int wi = nk + 1 + (int)numkeys;
    if (slice_opt_is(c->argv[wi], end0)) *end = 0;
    else if (slice_opt_is(c->argv[wi], end1)) *end = 1;
    else {
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    *count = -1;
    for (int j = wi + 1; j < c->argc; j++) {
        if (*count == -1 && slice_opt_is(c->argv[j], "count") && j + 1 < c->argc) {
            if (ll_parse_int64(c->argv[++j], count) < 0 || *count < 1) {
                reply_error(c->out, "ERR count should be greater than 0");
                return -1;
            }
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return -1;
        }
    }
    if (*count == -1) *count = 1;
    *first = nk + 1;
    *nkeys = (int)numkeys;
    return 0;
}

size_t *cmd_rand_distinct(cmdctx *c, size_t size, size_t n)
{
    size_t *ix = xmalloc((size ? size : 1) * sizeof *ix);
    for (size_t i = 0; i < size; i++) ix[i] = i;
    for (size_t i = 0; i < n; i++) {
        size_t j = i + (size_t)cmd_rand(c, size - i), t = ix[i];
        ix[i] = ix[j];
        ix[j] = t;
    }
    return ix;
}

/* ---- keyspace commands ---- */

void cmd_del(cmdctx *c)
{
    long long n = 0;
    for (int i = 1; i < c->argc; i++) n += store_delete(c->db, c->argv[i]);
    reply_int(c->out, n);
}

/* TOUCH key [key ...]: how many exist (this server keeps no access time to update). */
void cmd_touch(cmdctx *c)
{
    long long n = 0;
    for (int i = 1; i < c->argc; i++) n += store_lookup(c->db, c->argv[i]) != NULL;
    reply_int(c->out, n);
}

/* RANDOMKEY: a live key drawn from the server's generator, or nil. */
void cmd_randomkey(cmdctx *c)
{
    size_t it = 0, n = 0, cap = 0;
    kv *e, **live = NULL;
    int64_t now = store_now(c->db);
    while ((e = store_next(c->db, &it))) {
        if (store_expire(c->db, e) >= 0 && now > store_expire(c->db, e)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            live = xrealloc(live, cap * sizeof *live);
        }
        live[n++] = e;
    }
    if (!n) {
        reply_nil(c->out);
    } else {
        slice k = store_key_of(c->db, live[cmd_rand(c, n)]);
        reply_bulk(c->out, k.p, k.len);
    }
    free(live);
}

void cmd_unlink(cmdctx *c)
{
    cmd_del(c);
}

void cmd_exists(cmdctx *c)
{
    long long n = 0;
    for (int i = 1; i < c->argc; i++) n += store_peek(c->db, c->argv[i]) != NULL;
    reply_int(c->out, n);
}

void cmd_type(cmdctx *c)
{
    kv *e = store_peek(c->db, c->argv[1]);
    reply_status(c->out, e ? obj_type_name((obj_type)e->type) : "none");
}

enum { EXP_NX = 1, EXP_XX = 2, EXP_GT = 4, EXP_LT = 8 };

/* EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT key time [NX|XX|GT|LT]: Redis's expireGenericCommand.
 * Options are parsed before the time; overflow checks come before the key lookup; a deadline
 * not in the future deletes the key on a master (a replica stores it: it waits for the DEL). */
static void expire_generic(cmdctx *c, long long basetime, int seconds)
{
    int flags = 0;
    for (int j = 3; j < c->argc; j++) {
        /* Redis sees an option as a C string: up to its first NUL, in matching ("nx\0x"
         * is NX) and in the error text. */
        slice o = slice_cstr_prefix(c->argv[j]);
        if (slice_eq_nocase(o, "nx")) flags |= EXP_NX;
        else if (slice_eq_nocase(o, "xx")) flags |= EXP_XX;
        else if (slice_eq_nocase(o, "gt")) flags |= EXP_GT;
        else if (slice_eq_nocase(o, "lt")) flags |= EXP_LT;
        else {
            reply_errorf(c->out, "ERR Unsupported option %.*s", (int)o.len, o.p);
            return;
        }
    }
    if ((flags & EXP_NX) && (flags & (EXP_XX | EXP_GT | EXP_LT))) {
        reply_error(c->out, "ERR NX and XX, GT or LT options at the same time are not compatible");
        return;
    }
    if ((flags & EXP_GT) && (flags & EXP_LT)) {
        reply_error(c->out, "ERR GT and LT options at the same time are not compatible");
        return;
    }
    long long when;
    if (arg_int64(c, 2, &when)) return;
    if (seconds) {
        if (when > LLONG_MAX / 1000 || when < LLONG_MIN / 1000) goto invalid;
        when *= 1000;
    }
    if (when > LLONG_MAX - basetime) goto invalid;
    when += basetime;

    kv *e = store_lookup(c->db, c->argv[1]);
    if (!e) {
        reply_int(c->out, 0);
        return;
    }
    long long cur = store_expire(c->db, e);
    if ((flags & (EXP_GT | EXP_LT)) && cur != -1) { /* the new deadline against the old one */
        store_deadline_read(c->db, c->argv[1]);
        if (basetime) store_clock_seen(c->db);
    }
    if (((flags & EXP_NX) && cur != -1) || ((flags & EXP_XX) && cur == -1) ||
        ((flags & EXP_GT) && (when <= cur || cur == -1)) || ((flags & EXP_LT) && cur != -1 && when >= cur)) {
        reply_int(c->out, 0);
        return;
    }
    if (!basetime) store_clock_seen(c->db); /* an absolute time, compared with the clock */
    if (when <= store_now(c->db) && !store_is_replica(c->db)) {
        store_delete(c->db, c->argv[1]);
    } else {
        if (basetime) store_set_expire(c->db, e, when);
        else store_set_expire_fixed(c->db, e, when);
        store_touched_range(c->db, e, 0, 0); /* no byte of the value written: its TTL */
    }
    reply_int(c->out, 1);
    return;
invalid:;
    const command *cmd = commands_lookup(c->argv[0]);
    reply_errorf(c->out, "ERR invalid expire time in '%s' command", cmd ? cmd->name : "expire");
}

void cmd_expire(cmdctx *c) { expire_generic(c, store_now(c->db), 1); }
void cmd_pexpire(cmdctx *c) { expire_generic(c, store_now(c->db), 0); }
void cmd_expireat(cmdctx *c) { expire_generic(c, 0, 1); }
void cmd_pexpireat(cmdctx *c) { expire_generic(c, 0, 0); }

/* TTL, PTTL, EXPIRETIME, PEXPIRETIME: Redis's ttlGenericCommand. Seconds are rounded to the
 * nearest (the absolute ones too). */
static void ttl_generic(cmdctx *c, int ms, int absolute)
{
    kv *e = store_peek(c->db, c->argv[1]);
    if (!e) {
        reply_int(c->out, -2);
        return;
    }
    int64_t at = store_expire(c->db, e);
    if (at < 0) {
        reply_int(c->out, -1);
        return;
    }
    store_clock_seen(c->db);
    store_deadline_read(c->db, c->argv[1]);
    long long ttl = absolute ? at : at - store_now(c->db);
    if (ttl < 0) ttl = 0;
    reply_int(c->out, ms ? ttl : (ttl + 500) / 1000);
}

void cmd_ttl(cmdctx *c) { ttl_generic(c, 0, 0); }
void cmd_pttl(cmdctx *c) { ttl_generic(c, 1, 0); }
void cmd_expiretime(cmdctx *c) { ttl_generic(c, 0, 1); }
void cmd_pexpiretime(cmdctx *c) { ttl_generic(c, 1, 1); }

/* Stores a copy of e's value (a key of `from`), with its TTL, under dst in to (replacing what
 * dst held). */
static void copy_value(store *from, store *to, const kv *e, slice dst)
{
    obj_type t = (obj_type)e->type;
    int64_t expire = store_expire(from, e);
    slice src = store_key_of(from, e);
    char *name = xmemdup(src.p, src.len); /* the source's name outlives a rehash */
    int replaced = store_lookup(to, dst) != NULL;
    kv *d = store_set(to, dst, t, obj_clone(t, e->ptr), 0);
    if (replaced) store_remade(to, d); /* Redis deletes dst and adds it again: a "new" key */
    d->raw = e->raw;
    /* a deadline copied within a keyspace keeps its origin (the model checker's); into
     * another database it is the engine's no longer (only database 0 is the world's) */
    if (expire >= 0 && to == from) store_copy_expire(to, d, expire, (slice){ name, src.len });
    else if (expire >= 0) {
        store_deadline_read(from, src); /* the deadline leaves its keyspace */
        store_set_expire_fixed(to, d, expire);
    }
    free(name);
    store_touched(to, d);
}

/* RENAME / RENAMENX key newkey: Redis's renameGenericCommand. The value moves with its TTL;
 * a key renamed to itself is only checked for existence. */
static void rename_generic(cmdctx *c, int nx)
{
    slice src = c->argv[1], dst = c->argv[2];
    kv *e = store_lookup(c->db, src);
    if (!e) {
        reply_error(c->out, "ERR no such key");
        return;
    }
    if (slice_eq(src, dst)) {
        if (nx) reply_int(c->out, 0);
        else reply_ok(c->out);
        return;
    }
    if (nx && store_lookup(c->db, dst)) {
        reply_int(c->out, 0);
        return;
    }
    copy_value(c->db, c->db, e, dst);
    store_delete(c->db, src);
    if (nx) reply_int(c->out, 1);
    else reply_ok(c->out);
}

void cmd_rename(cmdctx *c) { rename_generic(c, 0); }
void cmd_renamenx(cmdctx *c) { rename_generic(c, 1); }

/* COPY source destination [DB destination-db] [REPLACE]: Redis's copyCommand. */
void cmd_copy(cmdctx *c)
{
    int replace = 0, dbid = c->dbid;
    for (int j = 3; j < c->argc; j++) {
        if (slice_opt_is(c->argv[j], "replace")) {
            replace = 1;
        } else if (slice_opt_is(c->argv[j], "db") && j + 1 < c->argc) {
            if (arg_db_index(c, ++j, &dbid, NULL) < 0) return;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    slice src = c->argv[1], dst = c->argv[2];
    if (dbid == c->dbid && slice_eq(src, dst)) {
        reply_error(c->out, "ERR source and destination objects are the same");
        return;
    }
    store *to = dbid == c->dbid ? c->db : dbset_get(c->dbs, dbid);
    kv *e = store_lookup(c->db, src);
    if (!e || (store_lookup(to, dst) && !replace)) {
        reply_int(c->out, 0);
        return;
    }
    copy_value(c->db, to, e, dst);
    reply_int(c->out, 1);
}

void cmd_persist(cmdctx *c)
{
    kv *e = store_lookup(c->db, c->argv[1]);
    int removed = e && store_persist(c->db, e);
    if (removed) store_touched_range(c->db, e, 0, 0); /* its TTL, no byte of the value */
    reply_int(c->out, removed);
}

static void flush_generic(cmdctx *c, int all)
{
    if (c->argc > 2 || (c->argc == 2 && !slice_opt_is(c->argv[1], "async") && !slice_opt_is(c->argv[1], "sync"))) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    if (all) {
        for (int i = 0; i < DB_COUNT; i++)
            if (dbset_peek(c->dbs, i)) store_flush(dbset_peek(c->dbs, i));
    } else {
        store_flush(c->db);
    }
    reply_ok(c->out);
}

void cmd_flushall(cmdctx *c) { flush_generic(c, 1); }
void cmd_flushdb(cmdctx *c) { flush_generic(c, 0); }

void cmd_dbsize(cmdctx *c)
{
    reply_int(c->out, (long long)store_size(c->db));
}

void cmd_ping(cmdctx *c)
{
    if (c->argc > 2) {
        reply_wrong_args(c);
        return;
    }
    if (c->conn && c->conn->resp != 3 && (c->conn->subscriptions > 0 || c->conn->shard_subscriptions > 0)) {
        reply *e = reply_array(c->out, 2);
        reply_bulk_cstr(&e[0], "pong");
        if (c->argc == 2) reply_bulk(&e[1], c->argv[1].p, c->argv[1].len);
        else reply_bulk(&e[1], "", 0);
        return;
    }
    if (c->argc == 2) reply_bulk(c->out, c->argv[1].p, c->argv[1].len);
    else reply_status(c->out, "PONG");
}

void cmd_echo(cmdctx *c)
{
    reply_bulk(c->out, c->argv[1].p, c->argv[1].len);
}

/* TIME: seconds and microseconds, from the server's µs clock where its host has one (a node
 * of the simulated world, locklab serve's), in a script too; else the ms clock's × 1000 (the
 * REPL's). */
void cmd_time(cmdctx *c)
{
    store_clock_seen(c->db);
    long long us = store_now_us(c->db);
    char tmp[32];
    reply *e = reply_array(c->out, 2);
    snprintf(tmp, sizeof tmp, "%lld", us / 1000000);
    reply_bulk_cstr(&e[0], tmp);
    snprintf(tmp, sizeof tmp, "%lld", us % 1000000);
    reply_bulk_cstr(&e[1], tmp);
}

void cmd_keys(cmdctx *c)
{
    size_t it = 0, n = 0;
    kv *e;
    slice pat = c->argv[1];
    slice *found = NULL;
    size_t cap = 0;
    /* Exactly "*" lists every key without matching (so also the key ""), as in Redis. */
    int all = pat.len == 1 && pat.p[0] == '*';
    while ((e = store_next(c->db, &it))) {
        slice k = store_key_of(c->db, e);
        if (!all && !glob_match(pat.p, pat.len, k.p, k.len)) continue;
        if (store_expire(c->db, e) >= 0 && store_now(c->db) > store_expire(c->db, e)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            found = xrealloc(found, cap * sizeof *found);
        }
        found[n++] = k;
    }
    reply *out = reply_array(c->out, n);
    for (size_t i = 0; i < n; i++) reply_bulk(&out[i], found[i].p, found[i].len);
    free(found);
}
