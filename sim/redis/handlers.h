/* handlers.h — every command's handler, by the file that holds it: what the command table
 * (commands.c) points at. Each command file includes it, so that its definitions are checked
 * against these declarations; it includes only cmdctx.h, so a command file that includes it
 * knows no other command file and no table. */
#ifndef LOCKLAB_REDIS_HANDLERS_H
#define LOCKLAB_REDIS_HANDLERS_H

#include "cmdctx.h"

/* keys (keys.c; db.c: SCAN, SELECT, MOVE, SWAPDB, OBJECT, MEMORY; dump.c: DUMP, RESTORE;
 * command_info.c: COMMAND) */
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

/* dump.c: a value as DUMP serialises it (its RDB type byte and body, no footer), which
 * DEBUG DIGEST-VALUE (debug.c) hashes too */
void dump_value(const kv *e, buf *b);

#endif
