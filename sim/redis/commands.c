/* commands.c — the command table: every command's name, arity, flags and handler, the one
 * place that knows every command file (commands.h), and its O(1) lookup. Arities and flags
 * follow Redis 7.0's command table. */
#include "commands.h"

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

/* Whether Redis 7.0 gives cmd subcommands (a container command): its error texts and CLIENT
 * LIST's cmd= name one as "client|info". */
int command_is_container(const command *cmd)
{
    return cmd->fn == cmd_pubsub || cmd->fn == cmd_client || cmd->fn == cmd_config || cmd->fn == cmd_script ||
           cmd->fn == cmd_command || cmd->fn == cmd_object || cmd->fn == cmd_memory || cmd->fn == cmd_function ||
           cmd->fn == cmd_slowlog || cmd->fn == cmd_latency;
}
