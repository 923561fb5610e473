/* commands.c — the command table, the shared argument helpers, and the keyspace commands
 * (DEL, EXISTS, TYPE, the EXPIRE family, TTL/PTTL, PERSIST, FLUSHALL, DBSIZE, PING, ECHO,
 * TIME, KEYS). Arities and flags follow Redis 7.0's command table. */
#include "commands.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dict.h"

#define W CMD_WRITE
#define R CMD_READONLY
#define NS CMD_NOSCRIPT
#define PS CMD_PUBSUB
#define F CMD_FAST

/* Sorted by name (commands_at lists them in this order); see commands_lookup below. */
static const command table[] = {
    { "append", 6, 3, W, cmd_append },
    { "blpop", 5, -3, W | NS, cmd_blpop },
    { "brpop", 5, -3, W | NS, cmd_brpop },
    { "client", 6, -2, NS, cmd_client },
    { "command", 7, -1, 0, cmd_command },
    { "config", 6, -2, NS, cmd_config },
    { "copy", 4, -3, W, cmd_copy },
    { "dbsize", 6, 1, R | F, cmd_dbsize },
    { "decr", 4, 2, W | F, cmd_decr },
    { "decrby", 6, 3, W | F, cmd_decrby },
    { "del", 3, -2, W, cmd_del },
    { "discard", 7, 1, NS | F | CMD_TX, cmd_discard },
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
    { "flushall", 8, -1, W, cmd_flushall },
    { "flushdb", 7, -1, W, cmd_flushdb },
    { "get", 3, 2, R | F, cmd_get },
    { "getdel", 6, 2, W | F, cmd_getdel },
    { "getex", 5, -2, W | F, cmd_getex },
    { "getset", 6, 3, W | F, cmd_getset },
    { "hdel", 4, -3, W | F, cmd_hdel },
    { "hello", 5, -1, NS | F, cmd_hello },
    { "hexists", 7, 3, R | F, cmd_hexists },
    { "hget", 4, 3, R | F, cmd_hget },
    { "hgetall", 7, 2, R, cmd_hgetall },
    { "hincrby", 7, 4, W | F, cmd_hincrby },
    { "hkeys", 5, 2, R, cmd_hkeys },
    { "hlen", 4, 2, R | F, cmd_hlen },
    { "hmget", 5, -3, R | F, cmd_hmget },
    { "hset", 4, -4, W | F, cmd_hset },
    { "hsetnx", 6, 4, W | F, cmd_hsetnx },
    { "hvals", 5, 2, R, cmd_hvals },
    { "incr", 4, 2, W | F, cmd_incr },
    { "incrby", 6, 3, W | F, cmd_incrby },
    { "incrbyfloat", 11, 3, W | F, cmd_incrbyfloat },
    { "info", 4, -1, 0, cmd_info },
    { "keys", 4, 2, R, cmd_keys },
    { "lindex", 6, 3, R, cmd_lindex },
    { "llen", 4, 2, R | F, cmd_llen },
    { "lpop", 4, -2, W | F, cmd_lpop },
    { "lpush", 5, -3, W | F, cmd_lpush },
    { "lrange", 6, 4, R, cmd_lrange },
    { "lrem", 4, 4, W, cmd_lrem },
    { "lset", 4, 4, W, cmd_lset },
    { "ltrim", 5, 4, W, cmd_ltrim },
    { "mget", 4, -2, R | F, cmd_mget },
    { "mset", 4, -3, W, cmd_mset },
    { "msetnx", 6, -3, W, cmd_msetnx },
    { "multi", 5, 1, NS | F | CMD_TX, cmd_multi },
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
    { "readonly", 8, 1, F, cmd_readonly },
    { "readwrite", 9, 1, F, cmd_readwrite },
    { "rename", 6, 3, W, cmd_rename },
    { "renamenx", 8, 3, W | F, cmd_renamenx },
    { "reset", 5, 1, NS | F | PS, cmd_reset },
    { "rpop", 4, -2, W | F, cmd_rpop },
    { "rpush", 5, -3, W | F, cmd_rpush },
    { "scan", 4, -2, R, cmd_scan },
    { "script", 6, -2, NS, cmd_script },
    { "set", 3, -3, W, cmd_set },
    { "setex", 5, 4, W, cmd_setex },
    { "setnx", 5, 3, W | F, cmd_setnx },
    { "spublish", 8, 3, F | CMD_MAY_REPLICATE, cmd_spublish },
    { "ssubscribe", 10, -2, NS | PS, cmd_ssubscribe },
    { "strlen", 6, 2, R | F, cmd_strlen },
    { "subscribe", 9, -2, NS | PS, cmd_subscribe },
    { "sunsubscribe", 12, -1, NS | PS, cmd_sunsubscribe },
    { "time", 4, 1, F, cmd_time },
    { "ttl", 3, 2, R | F, cmd_ttl },
    { "type", 4, 2, R | F, cmd_type },
    { "unlink", 6, -2, W | F, cmd_unlink },
    { "unsubscribe", 11, -1, NS | PS, cmd_unsubscribe },
    { "unwatch", 7, 1, NS | F | CMD_TX, cmd_unwatch },
    { "watch", 5, -2, NS | F | CMD_TX, cmd_watch },
    { "zadd", 4, -4, W | F, cmd_zadd },
    { "zcard", 5, 2, R | F, cmd_zcard },
    { "zcount", 6, 4, R | F, cmd_zcount },
    { "zincrby", 7, 4, W | F, cmd_zincrby },
    { "zrange", 6, -4, R, cmd_zrange },
    { "zrangebyscore", 13, -4, R, cmd_zrangebyscore },
    { "zrank", 5, 3, R | F, cmd_zrank },
    { "zrem", 4, -3, W | F, cmd_zrem },
    { "zremrangebyscore", 16, 4, W, cmd_zremrangebyscore },
    { "zscore", 6, 3, R | F, cmd_zscore },
};

/* Lookup runs for every command and every redis.call, so it is O(1): a perfect hash of
 * (first letter, second letter, last letter, length mixed with the letter before the last),
 * case-folded, picks the one candidate that is then compared. COMMANDS_HASH_MUL was found
 * by search so that no two commands share one of the COMMANDS_SLOTS slots; slot_of[h] is the
 * table index + 1 of the command in slot h (0: none). tests/test_commands.c recomputes both
 * from the table above and, when a command is added and they no longer fit, prints a new
 * multiplier and slot table to paste here. */
#define COMMANDS_HASH_MUL 0x3a5a1869u
#define COMMANDS_MIN_NAME 3
#define COMMANDS_MAX_NAME 16

static const unsigned char slot_of[COMMANDS_SLOTS] = {
     0,  0, 99, 81,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 48,  0,
    40,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 65,  0,  3,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0, 80,  0, 72,  0, 49,  0,  0,
     0,  0, 58,  0,  0,  0,  0,  0,  0,  0,  0,  0, 42,  0, 21,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 41,  0,  0,  0,  0,  0,  0,  0, 26,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 77,  0,  0,
     0, 61,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  5,  0,  0,
     0,  0,  0,  0,  0,  0, 89,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 63,  0,  0,  0,  0, 53,
     0,  0,  0,  0, 43,  0,  0,  0,  0, 94,  0, 39,  0,  0, 16,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  4,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 101, 24,  0,  0,  0, 91,  0,  0,  0,  0,  0,  0,
     0,  0, 18,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 83,  0,
     0,  0,  0,  0,  0,  0,  0,  0, 70, 17, 37,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0, 95, 98,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0, 92,  0,  0,  0,  0,  7,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 11, 15,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0, 76,  0, 56,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 79, 74,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 69,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 75,  0,  0, 19,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  6,  0,  0,  0,  0,  0,  0,  0,  0,  0, 85,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 60,  0,  0,  0,  0,  0,  0,  0,  0,  0, 34,  0,  0,  0,
    84,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 12,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 50,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 66,  0, 78,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0, 82,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 86, 96,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 32,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 45,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0, 27,  0,  0, 35,  0,  0, 13, 30,  0,  0,  0,  0,
    90,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,
    14,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0, 44,  0,  0,  0,  8,  0, 20,  0,  0,  0, 22,  0,  0,
     0, 47,  0,  0,  0,  0,  0,  0, 97,  0,  0,  0,  0,  0,  0,  0,
     0,  0, 51,  0,  0, 102,  0,  0,  0,  0,  0,  0,  0,  0, 62,  0,
     0,  0,  0,  0,  0,  0, 52,  0,  0,  0,  0, 54,  0,  0,  0, 68,
     0, 10,  0,  0,  0,  0,  0, 67,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0, 73,  0,  0,  0,  0,  9,  0,  0,  0,  0,  0,
    46,  0,  0,  0,  0, 29,  0,  0,  0,  0,  0,  0, 36,  0,  0,  0,
     0,  0,  0,  0,  0, 25,  0,  0,  0,  0,  0,  0, 87,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 57,  0,  0, 31,  0,  0,  0,  0,  0, 88,
    38,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0, 28,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0, 64,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0, 23,  0,  0,  0,  0, 33,  0,
     0,  0,  0,  0,  0,  0,  0,  0, 71,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0, 100,  0,  0,  0,  2,  0, 93,  0,  0,  0,
     0,  0,  0,  0,  0, 59,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 55,
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
    uint32_t mix = ((uint32_t)name.len ^ (uint32_t)fold(name.p[name.len - 2]) * 7u) & 0xffu;
    uint32_t k = (uint32_t)fold(name.p[0]) | (uint32_t)fold(name.p[1]) << 8 |
                 (uint32_t)fold(name.p[name.len - 1]) << 16 | mix << 24;
    return (unsigned)((k * mul) >> 22);
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

void reply_wrong_args(cmdctx *c)
{
    const command *cmd = commands_lookup(c->argv[0]);
    reply_errorf(c->out, "ERR wrong number of arguments for '%s' command", cmd ? cmd->name : "?");
}

/* ---- keyspace commands ---- */

void cmd_del(cmdctx *c)
{
    long long n = 0;
    for (int i = 1; i < c->argc; i++) n += store_delete(c->db, c->argv[i]);
    reply_int(c->out, n);
}

void cmd_unlink(cmdctx *c)
{
    cmd_del(c);
}

void cmd_exists(cmdctx *c)
{
    long long n = 0;
    for (int i = 1; i < c->argc; i++) n += store_lookup(c->db, c->argv[i]) != NULL;
    reply_int(c->out, n);
}

void cmd_type(cmdctx *c)
{
    kv *e = store_lookup(c->db, c->argv[1]);
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
    long long cur = e->expire;
    if (((flags & EXP_NX) && cur != -1) || ((flags & EXP_XX) && cur == -1) ||
        ((flags & EXP_GT) && (when <= cur || cur == -1)) || ((flags & EXP_LT) && cur != -1 && when >= cur)) {
        reply_int(c->out, 0);
        return;
    }
    if (when <= store_now(c->db) && !store_is_replica(c->db)) {
        store_delete(c->db, c->argv[1]);
    } else {
        store_set_expire(c->db, e, when);
        store_touched(c->db, e);
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
    kv *e = store_lookup(c->db, c->argv[1]);
    if (!e) {
        reply_int(c->out, -2);
        return;
    }
    if (e->expire < 0) {
        reply_int(c->out, -1);
        return;
    }
    store_clock_seen(c->db);
    long long ttl = absolute ? e->expire : e->expire - store_now(c->db);
    if (ttl < 0) ttl = 0;
    reply_int(c->out, ms ? ttl : (ttl + 500) / 1000);
}

void cmd_ttl(cmdctx *c) { ttl_generic(c, 0, 0); }
void cmd_pttl(cmdctx *c) { ttl_generic(c, 1, 0); }
void cmd_expiretime(cmdctx *c) { ttl_generic(c, 0, 1); }
void cmd_pexpiretime(cmdctx *c) { ttl_generic(c, 1, 1); }

/* Stores a copy of e's value, with its TTL, under dst (replacing what dst held). */
static void copy_value(cmdctx *c, const kv *e, slice dst)
{
    obj_type t = (obj_type)e->type;
    int64_t expire = e->expire;
    kv *d = store_set(c->db, dst, t, obj_clone(t, e->ptr), 0);
    if (expire >= 0) store_set_expire(c->db, d, expire);
    store_touched(c->db, d);
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
    copy_value(c, e, dst);
    store_delete(c->db, src);
    if (nx) reply_int(c->out, 1);
    else reply_ok(c->out);
}

void cmd_rename(cmdctx *c) { rename_generic(c, 0); }
void cmd_renamenx(cmdctx *c) { rename_generic(c, 1); }

/* COPY source destination [DB destination-db] [REPLACE]: Redis's copyCommand. This server
 * has one database (no SELECT): DB 0 is it, DB 1 to 15 are refused with a reason. */
void cmd_copy(cmdctx *c)
{
    int replace = 0;
    for (int j = 3; j < c->argc; j++) {
        if (slice_opt_is(c->argv[j], "replace")) {
            replace = 1;
        } else if (slice_opt_is(c->argv[j], "db") && j + 1 < c->argc) {
            long long db;
            if (arg_int64(c, ++j, &db) < 0) return;
            if (db < INT_MIN || db > INT_MAX) {
                reply_error(c->out, "ERR value is out of range, value must between -2147483648 and 2147483647");
                return;
            }
            if (db < 0 || db >= 16) {
                reply_error(c->out, "ERR DB index is out of range");
                return;
            }
            if (db != 0) {
                reply_error(c->out, "ERR locklab has one database, 0 (no SELECT): COPY to another is not supported");
                return;
            }
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    slice src = c->argv[1], dst = c->argv[2];
    if (slice_eq(src, dst)) {
        reply_error(c->out, "ERR source and destination objects are the same");
        return;
    }
    kv *e = store_lookup(c->db, src);
    if (!e || (store_lookup(c->db, dst) && !replace)) {
        reply_int(c->out, 0);
        return;
    }
    copy_value(c, e, dst);
    reply_int(c->out, 1);
}

void cmd_persist(cmdctx *c)
{
    kv *e = store_lookup(c->db, c->argv[1]);
    int removed = e && store_persist(c->db, e);
    if (removed) store_touched(c->db, e);
    reply_int(c->out, removed);
}

static void flush_generic(cmdctx *c)
{
    if (c->argc > 2 || (c->argc == 2 && !slice_opt_is(c->argv[1], "async") && !slice_opt_is(c->argv[1], "sync"))) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    store_flush(c->db);
    reply_ok(c->out);
}

void cmd_flushall(cmdctx *c) { flush_generic(c); }
void cmd_flushdb(cmdctx *c) { flush_generic(c); }

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
    if (c->conn && (c->conn->subscriptions > 0 || c->conn->shard_subscriptions > 0)) {
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

void cmd_time(cmdctx *c)
{
    store_clock_seen(c->db);
    long long ms = store_now(c->db);
    char tmp[32];
    reply *e = reply_array(c->out, 2);
    snprintf(tmp, sizeof tmp, "%lld", ms / 1000);
    reply_bulk_cstr(&e[0], tmp);
    snprintf(tmp, sizeof tmp, "%lld", (ms % 1000) * 1000);
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
        if (e->expire >= 0 && store_now(c->db) > e->expire) continue;
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

/* SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]. Redis's cursor walks its hash
 * table's buckets in reverse-binary order, so that a resize between calls neither loses
 * nor repeats keys; this keyspace probes linearly, where that trick does not hold. Here the
 * cursor is a position in the order of the keys' (unseeded, fixed) 64-bit hashes: a call
 * returns up to COUNT keys whose hash is at least the cursor, all keys sharing the last
 * hash returned, and the next hash after them as the cursor (0 at the end). So every key
 * present from the first call to the last is returned exactly once, whatever happens in
 * between, as Redis promises; the price is one pass over the keyspace per call. The order
 * differs from Redis's, which seeds its hash at random each start. Arguments are checked as
 * in Redis 7.0 (the cursor by strtoul: "-1" and "+5" are cursors, " 5" is not; an unknown
 * TYPE matches nothing). */
typedef struct scan_hit {
    uint64_t hash;
    slice key;
} scan_hit;

static int scan_hit_cmp(const void *a, const void *b)
{
    const scan_hit *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return slice_cmp(x->key, y->key);
}

static int scan_parse_cursor(slice arg, uint64_t *cursor)
{
    char tmp[64];
    slice s = slice_cstr_prefix(arg);
    if (s.len >= sizeof tmp) return -1;
    memcpy(tmp, s.p, s.len);
    tmp[s.len] = '\0';
    char *end;
    errno = 0;
    unsigned long v = strtoul(tmp, &end, 10);
    if (isspace((unsigned char)tmp[0]) || *end != '\0' || errno == ERANGE) return -1;
    *cursor = v;
    return 0;
}

void cmd_scan(cmdctx *c)
{
    uint64_t cursor;
    if (scan_parse_cursor(c->argv[1], &cursor) < 0) {
        reply_error(c->out, "ERR invalid cursor");
        return;
    }
    long long count = 10;
    slice pat = SLICE_LIT("*");
    const char *type = NULL;
    for (int i = 2; i < c->argc; i += 2) {
        int has_value = i + 1 < c->argc;
        if (slice_opt_is(c->argv[i], "count") && has_value) {
            if (arg_int64(c, i + 1, &count) < 0) return;
            if (count < 1) {
                reply_error(c->out, ERR_SYNTAX);
                return;
            }
        } else if (slice_opt_is(c->argv[i], "match") && has_value) {
            pat = c->argv[i + 1];
        } else if (slice_opt_is(c->argv[i], "type") && has_value) {
            type = c->argv[i + 1].p;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    /* The keys from the cursor on, the COUNT lowest hashes of them kept (sorted later). */
    size_t it = 0, n = 0, cap = 0;
    scan_hit *hit = NULL;
    kv *e;
    int64_t now = store_now(c->db);
    while ((e = store_next(c->db, &it))) {
        slice k = store_key_of(c->db, e);
        uint64_t h = dict_hash(k.p, k.len);
        if (h < cursor) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            hit = xrealloc(hit, cap * sizeof *hit);
        }
        hit[n++] = (scan_hit){ h, k };
    }
    qsort(hit, n, sizeof *hit, scan_hit_cmp);
    size_t take = n < (size_t)count ? n : (size_t)count;
    while (take > 0 && take < n && hit[take].hash == hit[take - 1].hash) take++;
    uint64_t next = take < n ? hit[take].hash : 0;
    int all = pat.len == 1 && pat.p[0] == '*';
    size_t kept = 0;
    for (size_t i = 0; i < take; i++) {
        kv *v = store_lookup(c->db, hit[i].key);
        if (!v || (v->expire >= 0 && now > v->expire)) continue;
        if (!all && !glob_match(pat.p, pat.len, hit[i].key.p, hit[i].key.len)) continue;
        if (type && strcasecmp(type, obj_type_name((obj_type)v->type)) != 0) continue;
        hit[kept++] = hit[i];
    }
    reply *out = reply_array(c->out, 2);
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)next);
    reply_bulk_cstr(&out[0], tmp);
    reply *keys = reply_array(&out[1], kept);
    for (size_t i = 0; i < kept; i++) reply_bulk(&keys[i], hit[i].key.p, hit[i].key.len);
    free(hit);
}
