/* test_types.c — the four data types and their commands (t_string.c, t_hash.c, t_list.c,
 * t_zset.c, object.c): every command, option and error text as Redis 7.0.15 replies them
 * (each expectation was checked against a real server), empty-aggregate deletion, which
 * writes keep or clear a TTL, score formatting, the compact small hash and its conversion,
 * the canonical dump, cloning and the observer events every write must report. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "server.h"
#include "store.h"
#include "hash.h"
#include "list.h"
#include "zset.h"

#include "fixture.h"

#define EXPECT(f, want, ...) assert_string_equal(RUN(f, __VA_ARGS__), want)


#define WRONGTYPE "(error) WRONGTYPE Operation against a key holding the wrong kind of value"
#define NOT_INT "(error) ERR value is not an integer or out of range"
#define NOT_FLOAT "(error) ERR value is not a valid float"
#define SYNTAX "(error) ERR syntax error"

static const char *dump(fixture *f)
{
    buf_reset(&f->out);
    store_dump(server_store(f->srv), &f->out, 0);
    return f->out.p ? f->out.p : "";
}

/* ---------------------------------------------------------------- strings */

static void test_string_get_set_basics(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(nil)", "get", "k");
    EXPECT(f, "OK", "set", "k", "v");
    EXPECT(f, "\"v\"", "get", "k");
    EXPECT(f, "OK", "set", "k", "");
    EXPECT(f, "\"\"", "get", "k");
    EXPECT(f, "(integer) 0", "strlen", "k");
    EXPECT(f, "(integer) 1", "exists", "k"); /* an empty string is a value */
    EXPECT(f, "OK", "set", "k", "a\x01\"\n");
    EXPECT(f, "\"a\\x01\\\"\\n\"", "get", "k");
    EXPECT(f, "(error) ERR wrong number of arguments for 'get' command", "get", "a", "b");
}

static void test_string_set_nx_xx(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(nil)", "set", "k", "v", "xx");
    EXPECT(f, "(integer) 0", "exists", "k");
    EXPECT(f, "OK", "set", "k", "v", "NX");
    EXPECT(f, "(nil)", "set", "k", "v2", "nx");
    EXPECT(f, "OK", "set", "k", "v3", "Xx");
    EXPECT(f, "\"v3\"", "get", "k");
    EXPECT(f, SYNTAX, "set", "k", "v", "nx", "xx");
    EXPECT(f, SYNTAX, "set", "k", "v", "xx", "nx");
}

static void test_string_set_get_option(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(nil)", "set", "k", "v1", "GET");
    EXPECT(f, "\"v1\"", "set", "k", "v2", "get");
    EXPECT(f, "\"v2\"", "set", "k", "v5", "NX", "GET"); /* old value, and not set */
    EXPECT(f, "\"v2\"", "get", "k");
    EXPECT(f, "(nil)", "set", "n", "v", "XX", "GET");
    EXPECT(f, "(integer) 0", "exists", "n");
    EXPECT(f, "\"v2\"", "set", "k", "v3", "get", "get");
    RUN(f, "lpush", "l", "a");
    EXPECT(f, WRONGTYPE, "set", "l", "v", "GET");
    EXPECT(f, WRONGTYPE, "set", "l", "v", "NX", "GET");
    EXPECT(f, "OK", "set", "l", "v"); /* without GET, SET overwrites any type */
    EXPECT(f, "string", "type", "l");
}

static void test_string_set_expire_options(void **state)
{
    fixture *f = *state;
    EXPECT(f, "OK", "set", "k", "v", "ex", "10");
    EXPECT(f, "(integer) 10000", "pttl", "k");
    EXPECT(f, "OK", "set", "k", "v", "PX", "1500");
    EXPECT(f, "(integer) 1500", "pttl", "k");
    EXPECT(f, "OK", "set", "k", "v", "ex", "10", "ex", "20"); /* a repeat: the last wins */
    EXPECT(f, "(integer) 20", "ttl", "k");
    EXPECT(f, "OK", "set", "k", "v", "exat", "1700000100");
    EXPECT(f, "(integer) 100000", "pttl", "k");
    EXPECT(f, "OK", "set", "k", "v", "pxat", "1700000000500");
    EXPECT(f, "(integer) 500", "pttl", "k");
    EXPECT(f, "\"v\"", "set", "k", "v", "px", "5000", "nx", "get"); /* exists: not set */
    EXPECT(f, "OK", "set", "k", "v", "px", "1000");
    EXPECT(f, "(integer) 1000", "pttl", "k");
}

static void test_string_set_expire_errors(void **state)
{
    fixture *f = *state;
    const char *inv = "(error) ERR invalid expire time in 'set' command";
    EXPECT(f, SYNTAX, "set", "k", "v", "ex");
    EXPECT(f, SYNTAX, "set", "k", "v", "ex", "10", "px", "100");
    EXPECT(f, SYNTAX, "set", "k", "v", "px", "100", "keepttl");
    EXPECT(f, SYNTAX, "set", "k", "v", "keepttl", "exat", "100");
    EXPECT(f, SYNTAX, "set", "k", "v", "exat", "1", "pxat", "1");
    EXPECT(f, SYNTAX, "set", "k", "v", "foo");
    EXPECT(f, SYNTAX, "set", "k", "v", "ex", "abc", "nx", "xx"); /* syntax before value */
    EXPECT(f, inv, "set", "k", "v", "px", "0");
    EXPECT(f, inv, "set", "k", "v", "ex", "-5");
    EXPECT(f, inv, "set", "k", "v", "exat", "0");
    EXPECT(f, inv, "set", "k", "v", "ex", "9223372036854775807");
    EXPECT(f, inv, "set", "k", "v", "px", "9223372036854775807");
    EXPECT(f, NOT_INT, "set", "k", "v", "px", "abc");
    EXPECT(f, NOT_INT, "set", "k", "v", "ex", "1.5");
    EXPECT(f, NOT_INT, "set", "k", "v", "px", "1e3");
    EXPECT(f, "(integer) 0", "exists", "k");
    EXPECT(f, "(error) ERR wrong number of arguments for 'set' command", "set", "k");
}

/* Redis reads SET's options as C strings: a NUL after the option's letters ends it. */
static void test_string_set_options_end_at_nul(void **state)
{
    fixture *f = *state;
    assert_string_equal(RUN_BIN(f, SL("set"), SL("k"), SL("v"), SL("nx\0junk")), "OK");
    assert_string_equal(RUN_BIN(f, SL("set"), SL("k"), SL("w"), SL("NX\0")), "(nil)");
    assert_string_equal(RUN_BIN(f, SL("set"), SL("k"), SL("w"), SL("get\0x")), "\"v\"");
    assert_string_equal(RUN_BIN(f, SL("set"), SL("k"), SL("v"), SL("px\0"), SL("1500")), "OK");
    EXPECT(f, "(integer) 1500", "pttl", "k");
    assert_string_equal(RUN_BIN(f, SL("set"), SL("k"), SL("v"), SL("keepttl\0")), "OK");
    EXPECT(f, "(integer) 1500", "pttl", "k");
    assert_string_equal(RUN_BIN(f, SL("set"), SL("k"), SL("v"), SL("\0nx")), SYNTAX);
    assert_string_equal(RUN_BIN(f, SL("set"), SL("k"), SL("v"), SL("n\0")), SYNTAX);
    EXPECT(f, SYNTAX, "set", "k", "v", "nx ");
}

static void test_string_set_ttl_kept_or_cleared(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "k", "v", "px", "10000");
    f->now += 1;
    EXPECT(f, "OK", "set", "k", "v2", "keepttl");
    EXPECT(f, "(integer) 9999", "pttl", "k");
    EXPECT(f, "OK", "set", "k", "v2", "KEEPTTL", "keepttl");
    EXPECT(f, "(integer) 9999", "pttl", "k");
    EXPECT(f, "OK", "set", "k", "v3");
    EXPECT(f, "(integer) -1", "pttl", "k");
    RUN(f, "set", "k", "v", "px", "10000");
    EXPECT(f, "(nil)", "set", "k", "x", "nx"); /* a refused SET changes nothing */
    EXPECT(f, "(integer) 10000", "pttl", "k");
}

static void test_string_set_past_deadline_deletes(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "k", "v");
    EXPECT(f, "OK", "set", "k", "v", "EXAT", "1000");
    EXPECT(f, "(integer) 0", "exists", "k");
    EXPECT(f, "(integer) 0", "dbsize");
    RUN(f, "set", "k", "old");
    EXPECT(f, "\"old\"", "set", "k", "v", "PXAT", "1000", "GET");
    EXPECT(f, "(integer) 0", "exists", "k");
    assert_int_equal(f->events[STORE_EXPIRED], 2); /* reaped as expired keys */
    /* A deadline equal to now is still alive (expiry is strictly now > deadline). */
    EXPECT(f, "OK", "set", "k", "v", "PXAT", "1700000000000");
    EXPECT(f, "\"v\"", "get", "k");
    f->now += 1;
    EXPECT(f, "(nil)", "get", "k");
}

static void test_string_incr_decr(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 1", "incr", "n");
    EXPECT(f, "(integer) 6", "incrby", "n", "5");
    EXPECT(f, "(integer) 5", "decr", "n");
    EXPECT(f, "(integer) 2", "decrby", "n", "3");
    EXPECT(f, "(integer) -2", "decrby", "n", "4");
    EXPECT(f, "\"-2\"", "get", "n");
    EXPECT(f, "(integer) -1", "decr", "fresh");
    EXPECT(f, "(integer) 5", "decrby", "fresh2", "-5");
    EXPECT(f, NOT_INT, "incrby", "n", "abc");
    EXPECT(f, NOT_INT, "incrby", "n", "1.5");
    EXPECT(f, NOT_INT, "decrby", "n", "");
}

static void test_string_incr_rejects_non_canonical(void **state)
{
    fixture *f = *state;
    const char *bad[] = { "1.0", " 1", "-0", "+1", "01", "", "abc", "1 ", "99999999999999999999",
                          "-", "--1", "1-", "9223372036854775808", "-9223372036854775809",
                          "18446744073709551616", "12345678901234567890", "-12345678901234567890",
                          "00", "1\xb1", "/", ":" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        RUN(f, "set", "n", bad[i]);
        EXPECT(f, NOT_INT, "incr", "n");
    }
    RUN(f, "set", "n", "-9223372036854775808");
    EXPECT(f, "(integer) -9223372036854775807", "incr", "n");
    RUN(f, "set", "n", "9223372036854775806");
    EXPECT(f, "(integer) 9223372036854775807", "incr", "n");
    RUN(f, "set", "n", "0");
    EXPECT(f, "(integer) -1", "decr", "n");
    RUN(f, "set", "n", "1234567890123456789");
    EXPECT(f, "(integer) 1234567890123456790", "incr", "n");
}

static void test_string_incr_overflow(void **state)
{
    fixture *f = *state;
    const char *ovf = "(error) ERR increment or decrement would overflow";
    RUN(f, "set", "n", "9223372036854775807");
    EXPECT(f, ovf, "incr", "n");
    RUN(f, "set", "n", "-9223372036854775808");
    EXPECT(f, ovf, "decr", "n");
    RUN(f, "set", "n", "5");
    EXPECT(f, ovf, "incrby", "n", "9223372036854775807");
    /* DECRBY's own check runs before the key is even read. */
    RUN(f, "set", "s", "notanumber");
    EXPECT(f, "(error) ERR decrement would overflow", "decrby", "s", "-9223372036854775808");
    EXPECT(f, "\"5\"", "get", "n");
}

static void test_string_incr_keeps_ttl(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "n", "100", "ex", "100");
    EXPECT(f, "(integer) 101", "incr", "n");
    EXPECT(f, "(integer) 100", "ttl", "n");
    EXPECT(f, "(integer) 6", "append", "n", "abc");
    EXPECT(f, "\"101abc\"", "get", "n");
    EXPECT(f, "(integer) 100", "ttl", "n");
}

static void test_string_append_strlen_getdel(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 3", "append", "a", "xyz");
    EXPECT(f, "(integer) 5", "append", "a", "12");
    EXPECT(f, "(integer) 5", "strlen", "a");
    EXPECT(f, "(integer) 0", "strlen", "nokey");
    EXPECT(f, "\"xyz12\"", "getdel", "a");
    EXPECT(f, "(nil)", "getdel", "a");
    EXPECT(f, "(integer) 0", "exists", "a");
}

static void test_string_setnx_and_mget(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 1", "setnx", "k", "1");
    EXPECT(f, "(integer) 0", "setnx", "k", "2");
    EXPECT(f, "\"1\"", "get", "k");
    RUN(f, "rpush", "l", "x");
    EXPECT(f, "(integer) 0", "setnx", "l", "1"); /* exists, whatever its type */
    EXPECT(f, "1) \"1\"\n2) (nil)\n3) (nil)", "mget", "k", "l", "nokey");
    EXPECT(f, "(error) ERR wrong number of arguments for 'mget' command", "mget");
}

static void test_string_wrongtype(void **state)
{
    fixture *f = *state;
    RUN(f, "hset", "h", "f", "v");
    EXPECT(f, WRONGTYPE, "get", "h");
    EXPECT(f, WRONGTYPE, "incr", "h");
    EXPECT(f, WRONGTYPE, "incrby", "h", "2");
    EXPECT(f, WRONGTYPE, "decr", "h");
    EXPECT(f, WRONGTYPE, "decrby", "h", "2");
    EXPECT(f, WRONGTYPE, "getdel", "h");
    EXPECT(f, WRONGTYPE, "strlen", "h");
    EXPECT(f, WRONGTYPE, "append", "h", "x");
    EXPECT(f, "hash", "type", "h");
}

/* ---------------------------------------------------------------- hashes */

static void test_hash_hset_counts_new_fields(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 1", "hset", "h", "f1", "v1");
    EXPECT(f, "(integer) 0", "hset", "h", "f1", "v1");
    EXPECT(f, "(integer) 2", "hset", "h", "f2", "v2", "f3", "v3", "f1", "x");
    EXPECT(f, "(integer) 1", "hset", "h", "f4", "a", "f4", "b");
    EXPECT(f, "\"b\"", "hget", "h", "f4");
    EXPECT(f, "(error) ERR wrong number of arguments for 'hset' command", "hset", "h", "f2");
    EXPECT(f, "(error) ERR wrong number of arguments for 'hset' command", "hset", "h", "a", "b", "c");
    EXPECT(f, "(integer) 4", "hlen", "h");
}

static void test_hash_small_keeps_insertion_order(void **state)
{
    fixture *f = *state;
    RUN(f, "hset", "h", "b", "1", "a", "2", "c", "3");
    RUN(f, "hset", "h", "b", "longer value");  /* an update stays in place */
    EXPECT(f, "1) \"b\"\n2) \"longer value\"\n3) \"a\"\n4) \"2\"\n5) \"c\"\n6) \"3\"", "hgetall", "h");
    RUN(f, "hdel", "h", "b");
    RUN(f, "hset", "h", "b", "x");             /* delete + add: now last */
    EXPECT(f, "1) \"a\"\n2) \"c\"\n3) \"b\"", "hkeys", "h");
    EXPECT(f, "1) \"2\"\n2) \"3\"\n3) \"x\"", "hvals", "h");
}

static void test_hash_reads(void **state)
{
    fixture *f = *state;
    RUN(f, "hset", "h", "f", "v", "", "");
    EXPECT(f, "\"v\"", "hget", "h", "f");
    EXPECT(f, "\"\"", "hget", "h", "");
    EXPECT(f, "(nil)", "hget", "h", "nof");
    EXPECT(f, "(nil)", "hget", "nokey", "f");
    EXPECT(f, "(integer) 1", "hexists", "h", "f");
    EXPECT(f, "(integer) 0", "hexists", "h", "nof");
    EXPECT(f, "(integer) 0", "hexists", "nokey", "f");
    EXPECT(f, "1) \"v\"\n2) (nil)\n3) \"\"", "hmget", "h", "f", "nof", "");
    EXPECT(f, "1) (nil)\n2) (nil)", "hmget", "nokey", "a", "b");
    EXPECT(f, "(integer) 0", "hlen", "nokey");
    EXPECT(f, "(empty array)", "hgetall", "nokey");
    EXPECT(f, "(empty array)", "hkeys", "nokey");
    EXPECT(f, "(empty array)", "hvals", "nokey");
}

static void test_hash_hsetnx(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 1", "hsetnx", "h", "f", "v");
    EXPECT(f, "(integer) 0", "hsetnx", "h", "f", "z");
    EXPECT(f, "\"v\"", "hget", "h", "f");
    EXPECT(f, "(integer) 1", "hsetnx", "h", "g", "z");
    EXPECT(f, "(integer) 2", "hlen", "h");
}

static void test_hash_hdel_deletes_empty_key(void **state)
{
    fixture *f = *state;
    RUN(f, "hset", "h", "f1", "a", "f2", "b", "f3", "c");
    RUN(f, "expire", "h", "100");
    EXPECT(f, "(integer) 2", "hdel", "h", "f1", "f2", "nof");
    EXPECT(f, "(integer) 100", "ttl", "h");
    EXPECT(f, "(integer) 0", "hdel", "h", "nof");
    EXPECT(f, "(integer) 0", "hdel", "nokey", "a");
    EXPECT(f, "(integer) 1", "hdel", "h", "f3");
    EXPECT(f, "(integer) 0", "exists", "h");
    EXPECT(f, "(integer) -2", "pttl", "h");
    EXPECT(f, "(integer) 0", "hlen", "h");
    assert_string_equal(dump(f), "");
}

static void test_hash_hincrby(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 5", "hincrby", "h", "f", "5");
    EXPECT(f, "(integer) -2", "hincrby", "h", "f", "-7");
    EXPECT(f, "\"-2\"", "hget", "h", "f");
    EXPECT(f, NOT_INT, "hincrby", "h", "f", "abc");
    EXPECT(f, NOT_INT, "hincrby", "h", "f", "1.5");
    EXPECT(f, NOT_INT, "hincrby", "nokey", "f", "1.5");
    EXPECT(f, "(integer) 0", "exists", "nokey");
    const char *bad[] = { "notanint", " 1", "+1", "01", "1.0", "" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        RUN(f, "hset", "h", "s", bad[i]);
        EXPECT(f, "(error) ERR hash value is not an integer", "hincrby", "h", "s", "1");
    }
    const char *ovf = "(error) ERR increment or decrement would overflow";
    RUN(f, "hset", "h", "big", "9223372036854775807", "small", "-9223372036854775808");
    EXPECT(f, ovf, "hincrby", "h", "big", "1");
    EXPECT(f, ovf, "hincrby", "h", "small", "-1");
    EXPECT(f, "(integer) 9223372036854775807", "hincrby", "h", "big", "0");
    EXPECT(f, "(integer) 9223372036854775806", "hincrby", "h", "big", "-1");
    /* Values rewritten in place (same length) or moved (other length) keep field order. */
    RUN(f, "hset", "m", "a", "1", "b", "22", "c", "333");
    EXPECT(f, "(integer) 23", "hincrby", "m", "b", "1");
    EXPECT(f, "(integer) 9", "hincrby", "m", "b", "-14");
    EXPECT(f, "(integer) 0", "hset", "m", "b", "");
    EXPECT(f, "(integer) 0", "hset", "m", "b", "");
    EXPECT(f, "(integer) 1", "hincrby", "m", "a", "0");
    EXPECT(f, "1) \"a\"\n2) \"1\"\n3) \"b\"\n4) \"\"\n5) \"c\"\n6) \"333\"", "hgetall", "m");
}

static void test_hash_writes_keep_ttl(void **state)
{
    fixture *f = *state;
    RUN(f, "hset", "h", "a", "1");
    RUN(f, "pexpire", "h", "30000");
    RUN(f, "hset", "h", "b", "2");
    RUN(f, "hincrby", "h", "a", "1");
    RUN(f, "hsetnx", "h", "c", "3");
    RUN(f, "hdel", "h", "b");
    EXPECT(f, "(integer) 30000", "pttl", "h");
}

static void test_hash_wrongtype(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "s", "v");
    EXPECT(f, WRONGTYPE, "hset", "s", "a", "b");
    EXPECT(f, WRONGTYPE, "hsetnx", "s", "a", "b");
    EXPECT(f, WRONGTYPE, "hget", "s", "a");
    EXPECT(f, WRONGTYPE, "hexists", "s", "a");
    EXPECT(f, WRONGTYPE, "hincrby", "s", "a", "1");
    EXPECT(f, NOT_INT, "hincrby", "s", "a", "x"); /* the increment is checked first */
    EXPECT(f, WRONGTYPE, "hdel", "s", "a");
    EXPECT(f, WRONGTYPE, "hlen", "s");
    EXPECT(f, WRONGTYPE, "hgetall", "s");
    EXPECT(f, WRONGTYPE, "hkeys", "s");
    EXPECT(f, WRONGTYPE, "hvals", "s");
    EXPECT(f, WRONGTYPE, "hmget", "s", "a");
}

/* A lock is a hash with one field: it must be one small allocation. */
static void test_hash_small_is_compact(void **state)
{
    fixture *f = *state;
    RUN(f, "hset", "lock", "8743b52063cd84097a65d1633f5c74f5:1", "1");
    kv *e = store_lookup(server_store(f->srv), SLICE_LIT("lock"));
    assert_non_null(e);
    assert_true(obj_bytes(OBJ_HASH, e->ptr) <= 48);
    EXPECT(f, "(integer) 2", "hincrby", "lock", "8743b52063cd84097a65d1633f5c74f5:1", "1");
    assert_true(obj_bytes(OBJ_HASH, e->ptr) <= 48);
}

static void test_hash_converts_past_512_fields(void **state)
{
    fixture *f = *state;
    char fld[16], val[16];
    for (int i = 0; i < 600; i++) {
        snprintf(fld, sizeof fld, "f%d", i);
        snprintf(val, sizeof val, "v%d", i);
        EXPECT(f, "(integer) 1", "hset", "h", fld, val);
    }
    EXPECT(f, "(integer) 600", "hlen", "h");
    EXPECT(f, "\"hashtable\"", "object", "encoding", "h"); /* past hash-max-listpack-entries, 512 */
    EXPECT(f, "\"v77\"", "hget", "h", "f77");
    EXPECT(f, "(integer) 1", "hdel", "h", "f77");
    EXPECT(f, "(nil)", "hget", "h", "f77");
    EXPECT(f, "(integer) 6", "hincrby", "h", "n", "6");
    EXPECT(f, "1) \"v1\"\n2) (nil)\n3) \"6\"", "hmget", "h", "f1", "f77", "n");
    /* Every field comes back once, whatever the order. */
    RUN(f, "hkeys", "h");
    assert_int_equal(f->r.n, 600);
    RUN(f, "hgetall", "h");
    assert_int_equal(f->r.n, 1200);
    for (int i = 0; i < 600; i++) {
        snprintf(fld, sizeof fld, "f%d", i);
        RUN(f, "hdel", "h", fld);
    }
    RUN(f, "hdel", "h", "n");
    EXPECT(f, "(integer) 0", "exists", "h");
}

static void test_hash_converts_on_long_value(void **state)
{
    fixture *f = *state;
    char big[66];
    memset(big, 'x', 65);
    big[65] = '\0';
    RUN(f, "hset", "h", "a", "1", "b", "2");
    EXPECT(f, "(integer) 0", "hset", "h", "a", big);
    EXPECT(f, "(integer) 2", "hlen", "h");
    EXPECT(f, "\"2\"", "hget", "h", "b");
    RUN(f, "hget", "h", "a");
    assert_int_equal(f->r.len, 65);
    EXPECT(f, "(integer) 1", "hset", "h2", big, "v"); /* a long field */
    EXPECT(f, "\"v\"", "hget", "h2", big);
    /* 64 bytes is still small: the order stays the insertion order. */
    big[64] = '\0';
    RUN(f, "hset", "h3", "z", "1", "a", big);
    EXPECT(f, "1) \"z\"\n2) \"a\"", "hkeys", "h3");
}

/* ---------------------------------------------------------------- lists */

static void test_list_push_and_range(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 3", "rpush", "l", "a", "b", "c");
    EXPECT(f, "(integer) 5", "lpush", "l", "z", "y");
    EXPECT(f, "1) \"y\"\n2) \"z\"\n3) \"a\"\n4) \"b\"\n5) \"c\"", "lrange", "l", "0", "-1");
    EXPECT(f, "(integer) 5", "llen", "l");
    EXPECT(f, "(integer) 0", "llen", "nokey");
    EXPECT(f, "1) \"z\"\n2) \"a\"", "lrange", "l", "1", "2");
    EXPECT(f, "1) \"a\"\n2) \"b\"\n3) \"c\"", "lrange", "l", "-3", "-1");
    EXPECT(f, "(integer) 5", "llen", "l");
    RUN(f, "lrange", "l", "-100", "100");
    assert_int_equal(f->r.n, 5);
    EXPECT(f, "(empty array)", "lrange", "l", "3", "1");
    EXPECT(f, "(empty array)", "lrange", "l", "10", "20");
    EXPECT(f, "(empty array)", "lrange", "nokey", "0", "-1");
    EXPECT(f, NOT_INT, "lrange", "l", "a", "1");
    EXPECT(f, NOT_INT, "lrange", "nokey", "0", "b");
    EXPECT(f, "(error) ERR wrong number of arguments for 'lpush' command", "lpush", "l");
}

static void test_list_lindex(void **state)
{
    fixture *f = *state;
    RUN(f, "rpush", "l", "a", "b", "c");
    EXPECT(f, "\"a\"", "lindex", "l", "0");
    EXPECT(f, "\"c\"", "lindex", "l", "-1");
    EXPECT(f, "\"a\"", "lindex", "l", "-3");
    EXPECT(f, "(nil)", "lindex", "l", "3");
    EXPECT(f, "(nil)", "lindex", "l", "100");
    EXPECT(f, "(nil)", "lindex", "l", "-100");
    EXPECT(f, NOT_INT, "lindex", "l", "abc");
    EXPECT(f, "(nil)", "lindex", "nokey", "abc"); /* the key is looked at first */
    EXPECT(f, "(nil)", "lindex", "nokey", "0");
}

static void test_list_pop_without_count(void **state)
{
    fixture *f = *state;
    RUN(f, "rpush", "l", "a", "b", "c");
    RUN(f, "pexpire", "l", "5000");
    EXPECT(f, "\"a\"", "lpop", "l");
    EXPECT(f, "\"c\"", "rpop", "l");
    EXPECT(f, "(integer) 5000", "pttl", "l");
    EXPECT(f, "\"b\"", "rpop", "l");
    EXPECT(f, "(integer) 0", "exists", "l"); /* the last pop deletes the key */
    EXPECT(f, "(integer) -2", "pttl", "l");
    EXPECT(f, "(nil)", "lpop", "l");
    EXPECT(f, "(nil)", "rpop", "nokey");
}

static void test_list_pop_with_count(void **state)
{
    fixture *f = *state;
    const char *pos = "(error) ERR value is out of range, must be positive";
    RUN(f, "rpush", "l", "a", "b", "c", "d", "e");
    EXPECT(f, "1) \"a\"\n2) \"b\"", "lpop", "l", "2");
    EXPECT(f, "1) \"e\"\n2) \"d\"", "rpop", "l", "2");
    EXPECT(f, "(empty array)", "lpop", "l", "0");
    EXPECT(f, "1) \"c\"", "lpop", "l", "10");
    EXPECT(f, "(integer) 0", "exists", "l");
    EXPECT(f, "(nil)", "lpop", "l", "1"); /* a null array */
    RUN(f, "lpop", "l", "0");
    assert_int_equal(f->r.type, REPLY_NIL_ARRAY);
    EXPECT(f, pos, "lpop", "l", "-1");
    EXPECT(f, pos, "rpop", "l", "-1");
    EXPECT(f, pos, "rpop", "l", "x");
    EXPECT(f, "(error) ERR wrong number of arguments for 'lpop' command", "lpop", "l", "1", "2");
    EXPECT(f, "(error) ERR wrong number of arguments for 'rpop' command", "rpop", "l", "1", "2");
    RUN(f, "set", "s", "v");
    EXPECT(f, pos, "lpop", "s", "abc"); /* the count is checked before the type */
    EXPECT(f, WRONGTYPE, "lpop", "s", "0");
}

static void test_list_lrem(void **state)
{
    fixture *f = *state;
    RUN(f, "rpush", "q", "a", "b", "a", "c", "a", "d", "a");
    EXPECT(f, "(integer) 2", "lrem", "q", "2", "a");
    EXPECT(f, "1) \"b\"\n2) \"c\"\n3) \"a\"\n4) \"d\"\n5) \"a\"", "lrange", "q", "0", "-1");
    EXPECT(f, "(integer) 1", "lrem", "q", "-1", "a");
    EXPECT(f, "1) \"b\"\n2) \"c\"\n3) \"a\"\n4) \"d\"", "lrange", "q", "0", "-1");
    EXPECT(f, "(integer) 1", "lrem", "q", "0", "a");
    EXPECT(f, "(integer) 0", "lrem", "q", "0", "zz");
    EXPECT(f, NOT_INT, "lrem", "q", "x", "a");
    EXPECT(f, NOT_INT, "lrem", "nokey", "x", "a");
    EXPECT(f, "(integer) 0", "lrem", "nokey", "1", "a");
    EXPECT(f, "(integer) 1", "lrem", "q", "-9223372036854775808", "b");
    EXPECT(f, "(integer) 1", "lrem", "q", "0", "c");
    EXPECT(f, "(integer) 1", "lrem", "q", "9223372036854775807", "d");
    EXPECT(f, "(integer) 0", "exists", "q");
    RUN(f, "rpush", "r", "x", "y", "x", "x");
    EXPECT(f, "(integer) 2", "lrem", "r", "-2", "x");
    EXPECT(f, "1) \"x\"\n2) \"y\"", "lrange", "r", "0", "-1");
}

static void test_list_lset(void **state)
{
    fixture *f = *state;
    RUN(f, "rpush", "s", "a", "b", "c");
    EXPECT(f, "OK", "lset", "s", "0", "A");
    EXPECT(f, "OK", "lset", "s", "-1", "C");
    EXPECT(f, "1) \"A\"\n2) \"b\"\n3) \"C\"", "lrange", "s", "0", "-1");
    EXPECT(f, "(error) ERR index out of range", "lset", "s", "3", "x");
    EXPECT(f, "(error) ERR index out of range", "lset", "s", "-4", "x");
    EXPECT(f, NOT_INT, "lset", "s", "x", "y");
    EXPECT(f, "(error) ERR no such key", "lset", "nokey", "abc", "x");
}

static void test_list_ltrim(void **state)
{
    fixture *f = *state;
    RUN(f, "rpush", "s", "a", "b", "c", "d", "e");
    EXPECT(f, "OK", "ltrim", "s", "1", "-2");
    EXPECT(f, "1) \"b\"\n2) \"c\"\n3) \"d\"", "lrange", "s", "0", "-1");
    EXPECT(f, "OK", "ltrim", "s", "-1", "100");
    EXPECT(f, "1) \"d\"", "lrange", "s", "0", "-1");
    EXPECT(f, "OK", "ltrim", "s", "5", "10");
    EXPECT(f, "(integer) 0", "exists", "s");
    EXPECT(f, "OK", "ltrim", "nokey", "0", "1");
    EXPECT(f, NOT_INT, "ltrim", "nokey", "a", "1");
    RUN(f, "rpush", "t", "1", "2", "3", "4", "5");
    EXPECT(f, "OK", "ltrim", "t", "-100", "1");
    EXPECT(f, "1) \"1\"\n2) \"2\"", "lrange", "t", "0", "-1");
    EXPECT(f, "OK", "ltrim", "t", "1", "0");
    EXPECT(f, "(integer) 0", "exists", "t");
}

/* A ring buffer wraps around: mixed pushes and pops at both ends keep the order. */
static void test_list_ring_buffer_wraps(void **state)
{
    fixture *f = *state;
    char v[16];
    for (int i = 0; i < 50; i++) {
        snprintf(v, sizeof v, "%d", i);
        RUN(f, "rpush", "l", v);
        snprintf(v, sizeof v, "-%d", i);
        RUN(f, "lpush", "l", v);
        if (i % 3 == 0) RUN(f, "lpop", "l");
    }
    EXPECT(f, "(integer) 83", "llen", "l");
    EXPECT(f, "\"-49\"", "lindex", "l", "0");
    EXPECT(f, "\"49\"", "lindex", "l", "-1");
    EXPECT(f, "\"0\"", "lindex", "l", "33");
    EXPECT(f, "(integer) 1", "lrem", "l", "0", "-40");
    EXPECT(f, "\"-35\"", "lindex", "l", "8");
    EXPECT(f, "OK", "ltrim", "l", "30", "35");
    EXPECT(f, "1) \"-2\"\n2) \"-1\"\n3) \"0\"\n4) \"1\"\n5) \"2\"\n6) \"3\"", "lrange", "l", "0", "-1");
}

/* BLPOP's timeout is a long double in seconds, truncated to whole ms: -0.0009 s is 0 ms
 * (block forever, not an error); a product past the 64-bit range (inf, 1e20, 1e400) is
 * what x86-64's conversion makes of it, LLONG_MIN: negative. */
static void test_list_blpop_timeout_parsing(void **state)
{
    fixture *f = *state;
    const char *neg = "(error) ERR timeout is negative";
    const char *bad = "(error) ERR timeout is not a float or out of range";
    RUN(f, "rpush", "l", "a", "b", "c", "d", "e", "f", "g", "h");
    EXPECT(f, "1) \"l\"\n2) \"a\"", "blpop", "l", "-0.0009");
    EXPECT(f, "1) \"l\"\n2) \"b\"", "blpop", "l", "-0");
    EXPECT(f, "1) \"l\"\n2) \"c\"", "blpop", "l", "1e-4000");
    EXPECT(f, "1) \"l\"\n2) \"d\"", "blpop", "l", "9223372036854775");
    EXPECT(f, "1) \"l\"\n2) \"h\"", "brpop", "l", "0x10");
    EXPECT(f, neg, "blpop", "l", "-0.01");
    EXPECT(f, neg, "blpop", "l", "inf");
    EXPECT(f, neg, "blpop", "l", "1e20");
    EXPECT(f, neg, "blpop", "l", "1e400");
    EXPECT(f, neg, "blpop", "l", "9223372036854775807");
    EXPECT(f, bad, "blpop", "l", "nan");
    EXPECT(f, bad, "blpop", "l", "");
    EXPECT(f, bad, "blpop", "l", " 1");
    EXPECT(f, bad, "blpop", "l", "1e-5000");
    assert_string_equal(RUN_BIN(f, SL("blpop"), SL("l"), SL("1\0")), bad);
    char *longest = malloc(5121);
    memset(longest, '0', 5120);
    longest[5119] = '1';
    longest[5120] = '\0';
    EXPECT(f, bad, "blpop", "l", longest); /* 5120 bytes: past Redis's buffer */
    EXPECT(f, "1) \"l\"\n2) \"e\"", "blpop", "l", longest + 1);
    free(longest);
    EXPECT(f, "(integer) 2", "llen", "l");
}

static void test_list_wrongtype(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "s", "v");
    EXPECT(f, WRONGTYPE, "lpush", "s", "a");
    EXPECT(f, WRONGTYPE, "rpush", "s", "a");
    EXPECT(f, WRONGTYPE, "lpop", "s");
    EXPECT(f, WRONGTYPE, "rpop", "s", "1");
    EXPECT(f, WRONGTYPE, "llen", "s");
    EXPECT(f, WRONGTYPE, "lrange", "s", "0", "1");
    EXPECT(f, WRONGTYPE, "lindex", "s", "x");
    EXPECT(f, WRONGTYPE, "lrem", "s", "0", "a");
    EXPECT(f, WRONGTYPE, "lset", "s", "0", "a");
    EXPECT(f, WRONGTYPE, "ltrim", "s", "0", "1");
}

/* ---------------------------------------------------------------- sorted sets */

static void test_zset_zadd_counts(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 1", "zadd", "z", "1", "a");
    EXPECT(f, "(integer) 0", "zadd", "z", "1", "a");
    EXPECT(f, "(integer) 0", "zadd", "z", "5", "a");
    EXPECT(f, "(integer) 2", "zadd", "z", "2", "b", "3", "c", "4", "a");
    EXPECT(f, "(integer) 2", "zadd", "z", "CH", "5", "a", "3", "c", "9", "d");
    EXPECT(f, "1) \"b\"\n2) \"2\"\n3) \"c\"\n4) \"3\"\n5) \"a\"\n6) \"5\"\n7) \"d\"\n8) \"9\"",
           "zrange", "z", "0", "-1", "withscores");
    EXPECT(f, "(integer) 1", "zadd", "m", "1", "a", "1", "a", "2", "a");
    EXPECT(f, "\"2\"", "zscore", "m", "a");
    EXPECT(f, "(integer) 0", "zadd", "m", "ch", "2", "a", "2", "a");
}

static void test_zset_zadd_nx_xx_gt_lt(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "z", "5", "a");
    EXPECT(f, "(integer) 0", "zadd", "z", "XX", "100", "a", "8", "f");
    EXPECT(f, "(nil)", "zscore", "z", "f");
    EXPECT(f, "\"100\"", "zscore", "z", "a");
    EXPECT(f, "(integer) 1", "zadd", "z", "NX", "1", "a", "8", "f");
    EXPECT(f, "\"100\"", "zscore", "z", "a");
    EXPECT(f, "(integer) 1", "zadd", "z", "GT", "CH", "10", "newm"); /* GT still adds */
    EXPECT(f, "(integer) 0", "zadd", "z", "GT", "CH", "1", "a");
    EXPECT(f, "(integer) 1", "zadd", "z", "GT", "CH", "150", "a");
    EXPECT(f, "(integer) 1", "zadd", "z", "LT", "CH", "160", "a", "1", "f");
    EXPECT(f, "\"150\"", "zscore", "z", "a");
    EXPECT(f, "\"1\"", "zscore", "z", "f");
    EXPECT(f, "(integer) 0", "zadd", "zx", "XX", "1", "a");
    EXPECT(f, "(integer) 0", "exists", "zx"); /* XX on a missing key creates nothing */
}

static void test_zset_zadd_incr(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "z", "5", "b");
    EXPECT(f, "\"6\"", "zadd", "z", "INCR", "1", "b");
    EXPECT(f, "(nil)", "zadd", "z", "INCR", "NX", "1", "b");
    EXPECT(f, "(nil)", "zadd", "z", "INCR", "XX", "1", "nob");
    EXPECT(f, "(nil)", "zadd", "z", "INCR", "GT", "-1", "b");
    EXPECT(f, "\"5\"", "zadd", "z", "INCR", "LT", "-1", "b");
    EXPECT(f, "(nil)", "zadd", "z", "INCR", "LT", "1", "b");
    EXPECT(f, "\"5\"", "zadd", "z", "INCR", "0", "b");
    EXPECT(f, "\"3\"", "zadd", "z", "incr", "3", "new");
    EXPECT(f, "(nil)", "zadd", "zx", "XX", "INCR", "1", "a");
    EXPECT(f, "(integer) 0", "exists", "zx");
}

static void test_zset_zadd_errors(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "z", "1", "a");
    EXPECT(f, "(error) ERR XX and NX options at the same time are not compatible", "zadd", "z", "XX", "NX", "1", "a");
    const char *gtlt = "(error) ERR GT, LT, and/or NX options at the same time are not compatible";
    EXPECT(f, gtlt, "zadd", "z", "GT", "LT", "1", "a");
    EXPECT(f, gtlt, "zadd", "z", "NX", "GT", "1", "a");
    EXPECT(f, gtlt, "zadd", "z", "NX", "LT", "1", "a");
    EXPECT(f, "(error) ERR INCR option supports a single increment-element pair", "zadd", "z", "INCR", "1", "a", "2", "b");
    EXPECT(f, SYNTAX, "zadd", "z", "1", "a", "2");
    EXPECT(f, SYNTAX, "zadd", "z", "XX", "NX", "INCR", "1", "a", "2"); /* syntax first */
    EXPECT(f, SYNTAX, "zadd", "z", "NX", "CH");
    EXPECT(f, NOT_FLOAT, "zadd", "z", "nan", "a");
    EXPECT(f, NOT_FLOAT, "zadd", "z", "abc", "a");
    EXPECT(f, NOT_FLOAT, "zadd", "z", "1", "b", "x", "c"); /* nothing is added */
    EXPECT(f, "(integer) 1", "zcard", "z");
    EXPECT(f, "(error) ERR wrong number of arguments for 'zadd' command", "zadd", "z", "NX");
    EXPECT(f, NOT_FLOAT, "zincrby", "z", "abc", "a");
    EXPECT(f, NOT_FLOAT, "zincrby", "z", "nan", "a");
    EXPECT(f, SYNTAX, "zincrby", "z", "nx", "a");
}

static void test_zset_infinities_and_nan(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 3", "zadd", "z", "inf", "i1", "+inf", "i2", "-inf", "i3");
    EXPECT(f, "1) \"i3\"\n2) \"-inf\"\n3) \"i1\"\n4) \"inf\"\n5) \"i2\"\n6) \"inf\"",
           "zrange", "z", "0", "-1", "withscores");
    EXPECT(f, "\"inf\"", "zincrby", "z", "1", "i1");
    const char *nan = "(error) ERR resulting score is not a number (NaN)";
    EXPECT(f, nan, "zincrby", "z", "-inf", "i1");
    EXPECT(f, nan, "zadd", "z", "INCR", "-inf", "i2");
    EXPECT(f, "\"inf\"", "zscore", "z", "i1");
}

static void test_zset_score_formatting(void **state)
{
    fixture *f = *state;
    static const char *const cases[][2] = {
        { "1700000000000", "1700000000000" },
        { "1.7e12", "1700000000000" },
        { "1700000000000.5", "1700000000000.5" },
        { "0.1", "0.10000000000000001" },
        { "1.5", "1.5" },
        { "-2", "-2" },
        { "0", "0" },
        { "3.0", "3" },
        { "1e15", "1000000000000000" },
        { "1e16", "10000000000000000" },
        { "1e17", "1e+17" },
        { "1e21", "1e+21" },
        { "1e308", "1e+308" },
        { "123456789012345678", "1.2345678901234568e+17" },
        { "0.30000000000000004", "0.30000000000000004" },
        { "1e-5", "1.0000000000000001e-05" },
        { "9007199254740993", "9007199254740992" },
        { "2.5e-300", "2.5e-300" },
    };
    char want[64];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        RUN(f, "zadd", "z", cases[i][0], "m");
        snprintf(want, sizeof want, "\"%s\"", cases[i][1]);
        EXPECT(f, want, "zscore", "z", "m");
    }
    RUN(f, "zadd", "zi", "1", "m");
    EXPECT(f, "\"1.1000000000000001\"", "zincrby", "zi", "0.1", "m");
    EXPECT(f, "\"1.3\"", "zincrby", "zi", "0.2", "m");
}

/* A small (listpack) zset stores -0 as 0; a big (skiplist) one keeps -0. The reply to an
 * increment is the computed value either way. */
static void test_zset_negative_zero(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 1", "zadd", "z", "-0", "m");
    EXPECT(f, "\"0\"", "zscore", "z", "m");
    EXPECT(f, "\"-0\"", "zadd", "z", "INCR", "-0", "n");
    EXPECT(f, "\"0\"", "zscore", "z", "n");
    char m[16], sc[16];
    for (int i = 1; i <= 130; i++) {
        snprintf(m, sizeof m, "m%d", i);
        snprintf(sc, sizeof sc, "%d", i);
        RUN(f, "zadd", "big", sc, m);
    }
    EXPECT(f, "(integer) 1", "zadd", "big", "-0", "zz");
    EXPECT(f, "\"-0\"", "zscore", "big", "zz");
    EXPECT(f, "\"-0\"", "zincrby", "big", "-0", "yy");
    EXPECT(f, "1) \"yy\"\n2) \"-0\"\n3) \"zz\"\n4) \"-0\"\n5) \"m1\"\n6) \"1\"",
           "zrange", "big", "0", "2", "withscores");
    /* A first member longer than 64 bytes makes the zset big from the start. */
    char lng[70];
    memset(lng, 'x', 65);
    lng[65] = '\0';
    RUN(f, "zadd", "lm", "-0", lng);
    RUN(f, "zadd", "lm", "-0", "b");
    EXPECT(f, "\"-0\"", "zscore", "lm", "b");
}

static void test_zset_zscore_zcard_zrank(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "z", "1", "b", "1", "a", "0", "c", "2", "d");
    EXPECT(f, "(nil)", "zscore", "z", "nom");
    EXPECT(f, "(nil)", "zscore", "nokey", "m");
    EXPECT(f, "(integer) 4", "zcard", "z");
    EXPECT(f, "(integer) 0", "zcard", "nokey");
    EXPECT(f, "(integer) 0", "zrank", "z", "c");
    EXPECT(f, "(integer) 1", "zrank", "z", "a"); /* equal scores: byte order */
    EXPECT(f, "(integer) 2", "zrank", "z", "b");
    EXPECT(f, "(integer) 3", "zrank", "z", "d");
    EXPECT(f, "(nil)", "zrank", "z", "nom");
    EXPECT(f, "(nil)", "zrank", "nokey", "a");
}

static void test_zset_zrem_deletes_empty_key(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "z", "1", "a", "2", "b");
    RUN(f, "expire", "z", "100");
    EXPECT(f, "(integer) 1", "zrem", "z", "a", "nom");
    EXPECT(f, "(integer) 100", "ttl", "z");
    EXPECT(f, "(integer) 0", "zrem", "z", "nom");
    EXPECT(f, "(integer) 0", "zrem", "nokey", "a");
    EXPECT(f, "(integer) 1", "zrem", "z", "b");
    EXPECT(f, "(integer) 0", "exists", "z");
    EXPECT(f, "(integer) -2", "pttl", "z");
}

static void test_zset_zcount_and_zremrangebyscore(void **state)
{
    fixture *f = *state;
    const char *nf = "(error) ERR min or max is not a float";
    RUN(f, "zadd", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
    EXPECT(f, "(integer) 5", "zcount", "z", "-inf", "+inf");
    EXPECT(f, "(integer) 3", "zcount", "z", "2", "4");
    EXPECT(f, "(integer) 1", "zcount", "z", "(2", "(4");
    EXPECT(f, "(integer) 0", "zcount", "z", "(2", "(2");
    EXPECT(f, "(integer) 1", "zcount", "z", "2", "2");
    EXPECT(f, "(integer) 0", "zcount", "z", "4", "2");
    EXPECT(f, "(integer) 0", "zcount", "nokey", "0", "1");
    EXPECT(f, nf, "zcount", "z", "abc", "1");
    EXPECT(f, nf, "zcount", "nokey", "nan", "1");
    EXPECT(f, nf, "zremrangebyscore", "nokey", "1", "x");
    EXPECT(f, "(integer) 0", "zremrangebyscore", "nokey", "0", "1");
    EXPECT(f, "(integer) 2", "zremrangebyscore", "z", "(1", "3");
    EXPECT(f, "1) \"a\"\n2) \"d\"\n3) \"e\"", "zrange", "z", "0", "-1");
    EXPECT(f, "(integer) 3", "zremrangebyscore", "z", "-inf", "+inf");
    EXPECT(f, "(integer) 0", "exists", "z");
}

static void test_zset_zrange_by_rank(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "r", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
    EXPECT(f, "1) \"a\"\n2) \"b\"", "zrange", "r", "0", "1");
    EXPECT(f, "1) \"d\"\n2) \"e\"", "zrange", "r", "-2", "-1");
    EXPECT(f, "(empty array)", "zrange", "r", "3", "1");
    EXPECT(f, "(empty array)", "zrange", "r", "5", "10");
    RUN(f, "zrange", "r", "-100", "100");
    assert_int_equal(f->r.n, 5);
    EXPECT(f, "1) \"e\"\n2) \"5\"\n3) \"d\"\n4) \"4\"", "zrange", "r", "0", "1", "rev", "withscores");
    EXPECT(f, "1) \"b\"\n2) \"a\"", "zrange", "r", "-2", "-1", "REV");
    /* LIMIT 0 -1 is the same as no LIMIT, so a rank range accepts it. */
    RUN(f, "zrange", "r", "0", "-1", "limit", "0", "-1");
    assert_int_equal(f->r.n, 5);
    EXPECT(f, "(empty array)", "zrange", "nokey", "0", "-1");
    EXPECT(f, NOT_INT, "zrange", "r", "a", "1");
}

static void test_zset_zrange_by_score(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "r", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
    EXPECT(f, "1) \"b\"\n2) \"2\"\n3) \"c\"\n4) \"3\"", "zrange", "r", "(1", "3", "byscore", "withscores");
    EXPECT(f, "1) \"a\"\n2) \"b\"", "zrange", "r", "1", "(3", "BYSCORE");
    EXPECT(f, "(empty array)", "zrange", "r", "(1", "(1", "byscore");
    EXPECT(f, "1) \"b\"\n2) \"c\"", "zrange", "r", "-inf", "+inf", "byscore", "limit", "1", "2");
    EXPECT(f, "(empty array)", "zrange", "r", "-inf", "+inf", "byscore", "limit", "-1", "2");
    RUN(f, "zrange", "r", "-inf", "+inf", "byscore", "limit", "1", "-1");
    assert_int_equal(f->r.n, 4);
    EXPECT(f, "(empty array)", "zrange", "r", "-inf", "+inf", "byscore", "limit", "1", "0");
    EXPECT(f, "(empty array)", "zrange", "r", "-inf", "+inf", "byscore", "limit", "10", "1");
    /* REV takes the range as max, min. */
    EXPECT(f, "1) \"d\"\n2) \"4\"\n3) \"c\"\n4) \"3\"", "zrange", "r", "4", "(2", "byscore", "rev", "withscores");
    EXPECT(f, "1) \"d\"\n2) \"c\"", "zrange", "r", "+inf", "-inf", "byscore", "rev", "limit", "1", "2");
    EXPECT(f, "(empty array)", "zrange", "r", "-inf", "+inf", "byscore", "rev");
    /* Bounds are strtod over the whole argument: "" is 0, " 2" is 2, hex is accepted. */
    EXPECT(f, "1) \"a\"\n2) \"b\"", "zrange", "r", "", "2", "byscore");
    EXPECT(f, "1) \"b\"\n2) \"c\"", "zrange", "r", " 2", "3", "byscore");
    EXPECT(f, "1) \"b\"\n2) \"c\"", "zrange", "r", "0x2", "3", "byscore");
    EXPECT(f, "(error) ERR min or max is not a float", "zrange", "r", "abc", "1", "byscore");
    EXPECT(f, "(empty array)", "zrange", "nokey", "0", "1", "byscore");
}

static void test_zset_zrange_by_lex(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "r", "0", "a", "0", "b", "0", "c", "0", "d", "0", "e");
    RUN(f, "zrange", "r", "-", "+", "bylex");
    assert_int_equal(f->r.n, 5);
    EXPECT(f, "1) \"b\"\n2) \"c\"", "zrange", "r", "[b", "(d", "bylex");
    EXPECT(f, "1) \"b\"\n2) \"c\"", "zrange", "r", "(a", "[c", "bylex");
    EXPECT(f, "1) \"e\"\n2) \"d\"", "zrange", "r", "+", "-", "bylex", "rev", "limit", "0", "2");
    EXPECT(f, "(empty array)", "zrange", "r", "+", "-", "bylex");
    EXPECT(f, "1) \"c\"\n2) \"b\"\n3) \"a\"", "zrange", "r", "[c", "[a", "bylex", "rev");
    EXPECT(f, "(error) ERR min or max not valid string range item", "zrange", "r", "a", "c", "bylex");
    EXPECT(f, "(error) ERR syntax error, WITHSCORES not supported in combination with BYLEX",
           "zrange", "r", "-", "+", "bylex", "withscores");
}

/* BYLEX over unequal scores: Redis calls the reply unspecified, but on a listpack it walks
 * from one end to the first member in range, skips the offset without looking, then goes
 * on while members are within the far bound (each reply checked against a real server). */
static void test_zset_zrange_by_lex_unequal_scores(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "y", "1", "b", "2", "z", "3", "a", "4", "c", "5", "y");
    EXPECT(f, "1) \"b\"", "zrange", "y", "-", "[c", "bylex");
    EXPECT(f, "1) \"a\"\n2) \"c\"", "zrange", "y", "-", "[c", "bylex", "limit", "2", "10");
    EXPECT(f, "1) \"b\"\n2) \"z\"\n3) \"a\"\n4) \"c\"\n5) \"y\"", "zrange", "y", "[b", "+", "bylex");
    EXPECT(f, "(empty array)", "zrange", "y", "[a", "[a", "bylex");
    EXPECT(f, "1) \"c\"", "zrange", "y", "[y", "[b", "bylex", "rev", "limit", "1", "10"); /* a < b ends it */
    EXPECT(f, "1) \"y\"\n2) \"c\"\n3) \"a\"\n4) \"z\"\n5) \"b\"", "zrange", "y", "(z", "-", "bylex", "rev");
}

static void test_zset_zrange_option_errors(void **state)
{
    fixture *f = *state;
    const char *lim = "(error) ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
    RUN(f, "zadd", "r", "1", "a");
    EXPECT(f, lim, "zrange", "r", "0", "-1", "limit", "0", "2");
    EXPECT(f, lim, "zrange", "nokey", "0", "1", "limit", "0", "1");
    EXPECT(f, SYNTAX, "zrange", "r", "0", "-1", "limit", "0");
    EXPECT(f, SYNTAX, "zrange", "r", "0", "-1", "rev", "rev");
    EXPECT(f, SYNTAX, "zrange", "r", "0", "-1", "byscore", "byscore");
    EXPECT(f, SYNTAX, "zrange", "r", "0", "-1", "bylex", "byscore");
    EXPECT(f, SYNTAX, "zrange", "r", "0", "-1", "foo");
    EXPECT(f, NOT_INT, "zrange", "r", "-inf", "+inf", "byscore", "limit", "a", "1");
}

static void test_zset_zrangebyscore(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "r", "1", "a", "2", "b", "3", "c");
    EXPECT(f, "1) \"a\"\n2) \"b\"\n3) \"c\"", "zrangebyscore", "r", "1", "3");
    EXPECT(f, "1) \"b\"\n2) \"2\"", "zrangebyscore", "r", "1", "3", "withscores", "limit", "1", "1");
    EXPECT(f, "1) \"b\"\n2) \"c\"", "zrangebyscore", "r", "(1", "+inf", "LIMIT", "0", "2");
    EXPECT(f, SYNTAX, "zrangebyscore", "r", "1", "3", "rev");
    EXPECT(f, SYNTAX, "zrangebyscore", "r", "1", "3", "byscore");
    EXPECT(f, SYNTAX, "zrangebyscore", "r", "1", "3", "limit", "1");
    EXPECT(f, "(error) ERR min or max is not a float", "zrangebyscore", "r", "x", "1");
    EXPECT(f, "(empty array)", "zrangebyscore", "nokey", "1", "3");
}

static void test_zset_writes_keep_ttl(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "z", "1", "a");
    RUN(f, "expire", "z", "100");
    RUN(f, "zadd", "z", "2", "b");
    RUN(f, "zincrby", "z", "1", "a");
    RUN(f, "zrem", "z", "a");
    RUN(f, "zremrangebyscore", "z", "100", "200");
    EXPECT(f, "(integer) 100", "ttl", "z");
    EXPECT(f, "\"5\"", "zincrby", "zn", "5", "x");
    EXPECT(f, "(integer) -1", "ttl", "zn");
}

static void test_zset_many_members(void **state)
{
    fixture *f = *state;
    char m[16], s[16];
    /* Scores in a scrambled order; the ranks must come out sorted. */
    for (int i = 0; i < 300; i++) {
        int k = (i * 7919) % 300;
        snprintf(m, sizeof m, "m%03d", k);
        snprintf(s, sizeof s, "%d", k);
        RUN(f, "zadd", "z", s, m);
    }
    EXPECT(f, "(integer) 300", "zcard", "z");
    EXPECT(f, "(integer) 123", "zrank", "z", "m123");
    EXPECT(f, "1) \"m298\"\n2) \"m299\"", "zrange", "z", "-2", "-1");
    EXPECT(f, "(integer) 11", "zcount", "z", "100", "110");
    EXPECT(f, "\"1000\"", "zincrby", "z", "1000", "m000");
    EXPECT(f, "(integer) 299", "zrank", "z", "m000");
    EXPECT(f, "(integer) 100", "zremrangebyscore", "z", "(0", "100");
    EXPECT(f, "1) \"m101\"\n2) \"101\"", "zrange", "z", "0", "0", "withscores");
}

/* Options of ZADD and ZRANGE end at a NUL, as Redis's strcasecmp sees them; a score has no
 * length limit (600 leading zeros are still a number). */
static void test_zset_options_end_at_nul_and_long_scores(void **state)
{
    fixture *f = *state;
    RUN(f, "zadd", "z", "1", "a", "2", "b");
    assert_string_equal(RUN_BIN(f, SL("zadd"), SL("z"), SL("incr\0"), SL("5"), SL("a")), "\"6\"");
    assert_string_equal(RUN_BIN(f, SL("zadd"), SL("z"), SL("nx\0x"), SL("9"), SL("a")), "(integer) 0");
    assert_string_equal(RUN_BIN(f, SL("zrange"), SL("z"), SL("0"), SL("-1"), SL("rev\0")),
                        "1) \"a\"\n2) \"b\"");
    assert_string_equal(RUN_BIN(f, SL("zrange"), SL("z"), SL("0"), SL("-1"), SL("withscores\0")),
                        "1) \"b\"\n2) \"2\"\n3) \"a\"\n4) \"6\"");
    char score[700];
    memset(score, '0', 600);
    strcpy(score + 600, "2.5");
    EXPECT(f, "(integer) 1", "zadd", "z", score, "c");
    EXPECT(f, "\"2.5\"", "zscore", "z", "c");
    EXPECT(f, "\"5\"", "zincrby", "z", score, "c");
    memset(score, '1', 400);
    score[400] = '\0';
    EXPECT(f, NOT_FLOAT, "zadd", "z", score, "d"); /* 1.1e399 overflows */
}

static void test_zset_wrongtype(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "s", "v");
    EXPECT(f, WRONGTYPE, "zadd", "s", "1", "a");
    EXPECT(f, NOT_FLOAT, "zadd", "s", "x", "a"); /* scores are checked first */
    EXPECT(f, WRONGTYPE, "zscore", "s", "a");
    EXPECT(f, WRONGTYPE, "zincrby", "s", "1", "a");
    EXPECT(f, WRONGTYPE, "zrange", "s", "0", "1");
    EXPECT(f, WRONGTYPE, "zrangebyscore", "s", "0", "1");
    EXPECT(f, WRONGTYPE, "zrem", "s", "a");
    EXPECT(f, WRONGTYPE, "zcard", "s");
    EXPECT(f, WRONGTYPE, "zrank", "s", "a");
    EXPECT(f, WRONGTYPE, "zcount", "s", "0", "1");
    EXPECT(f, WRONGTYPE, "zremrangebyscore", "s", "0", "1");
    EXPECT(f, "(error) ERR min or max is not a float", "zcount", "s", "x", "1");
}

/* ---------------------------------------------------------------- objects, dump, events */

static void test_object_dump_canonical(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "s", "a\"b\\c\n\x01\xff");
    RUN(f, "hset", "h", "zf", "1", "af", "2", "m\tf", "3");
    RUN(f, "rpush", "l", "x", "", "y");
    RUN(f, "zadd", "z", "2", "b", "1", "c", "1", "a", "0.1", "d", "-inf", "e");
    RUN(f, "pexpire", "h", "1500");
    assert_string_equal(dump(f),
                        "\"h\" hash pttl=1500 {\"af\": \"2\", \"m\\tf\": \"3\", \"zf\": \"1\"}\n"
                        "\"l\" list pttl=-1 [\"x\", \"\", \"y\"]\n"
                        "\"s\" string pttl=-1 \"a\\\"b\\\\c\\n\\x01\\xff\"\n"
                        "\"z\" zset pttl=-1 {\"e\": -inf, \"d\": 0.10000000000000001, \"a\": 1, \"c\": 1, \"b\": 2}\n");
    buf b;
    buf_init(&b);
    dump_repr(&b, "\a\b\r ~", 5);
    assert_string_equal(b.p, "\"\\a\\b\\r ~\"");
    buf_release(&b);
}

static void test_object_dump_big_hash_sorted(void **state)
{
    fixture *f = *state;
    char fld[16];
    for (int i = 199; i >= 0; i--) {
        snprintf(fld, sizeof fld, "f%03d", i);
        RUN(f, "hset", "h", fld, "v");
    }
    const char *d = dump(f);
    assert_non_null(strstr(d, "{\"f000\": \"v\", \"f001\": \"v\", \"f002\": \"v\""));
    assert_non_null(strstr(d, "\"f198\": \"v\", \"f199\": \"v\"}\n"));
}

static void test_object_clone_is_deep(void **state)
{
    fixture *f = *state;
    char fld[16];
    RUN(f, "set", "s", "v");
    RUN(f, "hset", "h", "a", "1");
    for (int i = 0; i < 150; i++) {
        snprintf(fld, sizeof fld, "f%d", i);
        RUN(f, "hset", "bh", fld, "v");
        RUN(f, "zadd", "z", fld + 1, fld);
    }
    RUN(f, "rpush", "l", "a", "b");
    RUN(f, "lpush", "l", "c");
    RUN(f, "pexpire", "l", "100");
    RUN(f, "pexpire", "s", "100"); /* a tie: clone keeps the order */
    store *orig = server_store(f->srv);
    store *copy = store_clone(orig);
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    store_dump(orig, &a, 1);
    store_dump(copy, &b, 1);
    assert_string_equal(a.p, b.p);
    assert_int_equal(store_fingerprint(orig), store_fingerprint(copy));
    RUN(f, "hset", "h", "a", "2");
    RUN(f, "zadd", "z", "1000", "f1");
    RUN(f, "lpop", "l");
    buf_reset(&b);
    store_dump(copy, &b, 1);
    assert_string_equal(a.p, b.p);
    buf_release(&a);
    buf_release(&b);
    store_free(copy);
}

static void test_object_type_api(void **state)
{
    (void)state;
    assert_string_equal(obj_type_name(OBJ_STRING), "string");
    assert_string_equal(obj_type_name(OBJ_HASH), "hash");
    assert_string_equal(obj_type_name(OBJ_LIST), "list");
    assert_string_equal(obj_type_name(OBJ_ZSET), "zset");
    sstr *s = sstr_new("abc", 3);
    assert_int_equal(obj_count(OBJ_STRING, s), 1);
    assert_int_equal(s->p[3], '\0');
    obj_free(OBJ_STRING, s);
    hash_free(NULL);
    list_free(NULL);
    zset_free(NULL);
    hash *h = hash_new();
    assert_int_equal(hash_len(h), 0);
    assert_int_equal(hash_set(&h, SLICE_LIT("f"), SLICE_LIT("v"), NULL), 1);
    assert_int_equal(hash_set(&h, SLICE_LIT("f"), SLICE_LIT("w"), NULL), 0);
    slice v;
    assert_true(hash_get(h, SLICE_LIT("f"), &v) && slice_eq(v, SLICE_LIT("w")));
    assert_int_equal(hash_del(&h, SLICE_LIT("f")), 1);
    assert_int_equal(hash_del(&h, SLICE_LIT("f")), 0);
    assert_int_equal(obj_count(OBJ_HASH, h), 0);
    hash_free(h);
    zset *z = zset_new();
    assert_int_equal(zset_set(z, SLICE_LIT("a"), 2, NULL), 1);
    assert_int_equal(zset_set(z, SLICE_LIT("b"), 1, NULL), 1);
    double sc;
    assert_true(slice_eq(zset_at(z, 0, &sc), SLICE_LIT("b")));
    assert_true(sc == 1);
    assert_int_equal(zset_del(z, SLICE_LIT("b")), 1);
    assert_int_equal(zset_len(z), 1);
    zset_free(z);
}

/* Every write reports itself to the observer; emptied aggregates are reported deleted. */
static void test_object_writes_notify_observer(void **state)
{
    fixture *f = *state;
    const char *writes[][6] = {
        { "set", "s", "v" }, { "incr", "n" }, { "append", "s", "x" }, { "setnx", "t", "1" },
        { "hset", "h", "f", "v" }, { "hsetnx", "h", "g", "v" }, { "hincrby", "h", "i", "1" },
        { "rpush", "l", "a", "b" }, { "lpush", "l", "c" }, { "lset", "l", "0", "z" },
        { "zadd", "z", "1", "a" }, { "zincrby", "z", "1", "b" },
    };
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++) {
        int before = f->events[STORE_WRITTEN];
        const char **w = writes[i];
        int n = 0;
        while (n < 6 && w[n]) n++;
        server_execv(f->srv, &f->c, &f->r, n, w);
        assert_false(reply_is_error(&f->r));
        assert_int_equal(f->events[STORE_WRITTEN], before + 1);
    }
    /* Failed or no-op writes report nothing. */
    int before = f->events[STORE_WRITTEN];
    RUN(f, "set", "s", "v", "nx");
    RUN(f, "hdel", "h", "nof");
    RUN(f, "zrem", "z", "nom");
    RUN(f, "lrem", "l", "0", "nothere");
    RUN(f, "zadd", "z", "1", "a");
    RUN(f, "hincrby", "s", "f", "1");
    assert_int_equal(f->events[STORE_WRITTEN], before);
    int deleted = f->events[STORE_DELETED];
    RUN(f, "hdel", "h", "f", "g", "i");
    RUN(f, "lpop", "l", "5");
    RUN(f, "zremrangebyscore", "z", "-inf", "+inf");
    RUN(f, "getdel", "s");
    assert_int_equal(f->events[STORE_DELETED], deleted + 4);
    EXPECT(f, "(integer) 2", "dbsize");
}

/* The reply's own text (INFO's bulk string), not redis-cli's print of it. */
#define INFO(f, ...) (RUN(f, __VA_ARGS__), (const char *)(f)->r.str)

/* INFO's CPU, Commandstats, Errorstats and Latencystats sections (Redis 7.0's): calls,
 * refusals (arity) and failures (an error reply) per command, a container's subcommands
 * apart; "default" and INFO alone leave out commandstats and latencystats, "all" has them. */
static void test_info_command_stats(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "a", "1");
    RUN(f, "set", "a", "1");
    RUN(f, "get");
    RUN(f, "incr", "a", "x");
    RUN(f, "incr", "nope", "x");
    RUN(f, "lpush", "a", "x");
    RUN(f, "config", "get", "timeout");
    RUN(f, "config", "nosuch");
    RUN(f, "nosuchcommand");
    const char *s = INFO(f, "info", "commandstats");
    assert_non_null(strstr(s, "# Commandstats\r\n"));
    assert_non_null(strstr(s, "cmdstat_set:calls=2,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=0\r\n"));
    assert_non_null(strstr(s, "cmdstat_get:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,failed_calls=0\r\n"));
    assert_non_null(strstr(s, "cmdstat_lpush:calls=1,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=1\r\n"));
    assert_non_null(strstr(s, "cmdstat_config|get:calls=1,"));
    assert_null(strstr(s, "nosuch"));
    assert_null(strstr(s, "used_memory"));
    s = INFO(f, "info", "errorstats");
    assert_non_null(strstr(s, "errorstat_ERR:count=5\r\nerrorstat_WRONGTYPE:count=1\r\n"));
    s = INFO(f, "info", "latencystats");
    assert_non_null(strstr(s, "latency_percentiles_usec_set:p50=0.001,p99=0.001,p99.9=0.001\r\n"));
    assert_null(strstr(s, "latency_percentiles_usec_get:")); /* never called, only refused */
    s = INFO(f, "info", "CPU");
    assert_non_null(strstr(s, "# CPU\r\nused_cpu_sys:0.000000\r\nused_cpu_user:0.000000\r\n"));
    s = INFO(f, "info");
    assert_non_null(strstr(s, "used_cpu_user_children:"));
    assert_null(strstr(s, "rejected_calls"));
    s = INFO(f, "info", "default");
    assert_null(strstr(s, "rejected_calls"));
    assert_non_null(strstr(s, "# Errorstats"));
    s = INFO(f, "info", "cpu", "all");
    assert_non_null(strstr(s, "rejected_calls"));
    assert_non_null(strstr(s, "used_memory"));
    assert_null(strstr(strstr(s, "used_cpu_user_children") + 1, "used_cpu_user_children"));
}

/* INFO stats' total_error_replies, as Redis 7.0.15 counts it (afterErrorReply): every error
 * reply, one in EXEC's array or a script's too, a redis.call's error once even when the
 * script returns it or catches it; CONFIG RESETSTAT starts it again (and errorstats). */
static void test_info_total_error_replies(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "s", "abc");
    RUN(f, "incr", "s");
    RUN(f, "get");
    assert_non_null(strstr(INFO(f, "info", "stats"), "total_error_replies:2\r\n"));
    RUN(f, "multi");
    RUN(f, "incr", "s");
    RUN(f, "lpush", "s", "x");
    RUN(f, "exec");
    assert_non_null(strstr(INFO(f, "info", "stats"), "total_error_replies:4\r\n"));
    RUN(f, "eval", "return redis.call('incr', 's')", "0");               /* 1: the INCR's */
    RUN(f, "eval", "redis.pcall('incr', 's') return 1", "0");             /* 1, caught */
    RUN(f, "eval", "return {1, {err='MINE x'}, redis.pcall('incr', 's')}", "0"); /* 2 */
    RUN(f, "eval", "return redis.call()", "0");                           /* 1: the script's */
    assert_non_null(strstr(INFO(f, "info", "stats"), "total_error_replies:9\r\n"));
    const char *s = INFO(f, "info", "errorstats");
    assert_non_null(strstr(s, "errorstat_ERR:count=7\r\nerrorstat_MINE:count=1\r\nerrorstat_WRONGTYPE:count=1\r\n"));
    s = INFO(f, "info", "commandstats");
    /* a call that returned errors redis.call counted fails once for each (Redis's
     * ERR_REPLY_FLAG_NO_STATS_UPDATE), and once more if it made one itself */
    assert_non_null(strstr(s, "cmdstat_eval:calls=4,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=4\r\n"));
    RUN(f, "config", "resetstat");
    assert_non_null(strstr(INFO(f, "info", "stats"), "total_error_replies:0\r\n"));
    assert_null(strstr(INFO(f, "info", "errorstats"), "errorstat_"));
}

/* The encodings' limits: CONFIG SET changes them for the next writes (conversions one-way,
 * as in Redis); fields and values past 255 bytes stay in a listpack when the limit allows. */
static void test_encoding_limits(void **state)
{
    fixture *f = *state;
    assert_string_equal(RUN(f, "config", "set", "hash-max-ziplist-entries", "1"), "OK");
    RUN(f, "hset", "h", "a", "1");
    assert_string_equal(RUN(f, "object", "encoding", "h"), "\"listpack\"");
    RUN(f, "hset", "h", "b", "1");
    assert_string_equal(RUN(f, "object", "encoding", "h"), "\"hashtable\"");
    RUN(f, "hdel", "h", "b");
    assert_string_equal(RUN(f, "object", "encoding", "h"), "\"hashtable\"");
    assert_string_equal(RUN(f, "config", "set", "hash-max-listpack-entries", "10", "hash-max-listpack-value", "1mb"), "OK");
    char big[300];
    memset(big, 'v', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    RUN(f, "hset", "h2", big, big, "x", "1");
    assert_string_equal(RUN(f, "object", "encoding", "h2"), "\"listpack\"");
    assert_string_equal(RUN(f, "hstrlen", "h2", big), "(integer) 299");
    assert_string_equal(RUN(f, "hset", "h2", big, "short"), "(integer) 0");
    assert_string_equal(RUN(f, "hget", "h2", big), "\"short\"");
    assert_string_equal(RUN(f, "hdel", "h2", big), "(integer) 1");
    assert_string_equal(RUN(f, "hgetall", "h2"), "1) \"x\"\n2) \"1\"");
    assert_string_equal(RUN(f, "config", "set", "set-max-intset-entries", "2"), "OK");
    RUN(f, "sadd", "s", "1", "2");
    assert_string_equal(RUN(f, "object", "encoding", "s"), "\"intset\"");
    RUN(f, "sadd", "s", "3");
    assert_string_equal(RUN(f, "object", "encoding", "s"), "\"hashtable\"");
    assert_string_equal(RUN(f, "config", "set", "zset-max-ziplist-entries", "0"), "OK");
    RUN(f, "zadd", "z", "1", "a");
    assert_string_equal(RUN(f, "object", "encoding", "z"), "\"skiplist\"");
    assert_string_equal(RUN(f, "config", "get", "zset-max-listpack-entries"), "1) \"zset-max-listpack-entries\"\n2) \"0\"");
}

/* CLIENT REPLY OFF / SKIP (redis-cli would wait for them): nothing is sent (an empty
 * REPLY_MULTI) but pub/sub's confirmations; ON answers OK again. */
static void test_client_reply_off_skip(void **state)
{
    fixture *f = *state;
    assert_string_equal(RUN(f, "client", "reply", "maybe"), "(error) ERR syntax error");
    RUN(f, "client", "reply", "skip");
    assert_int_equal(f->r.type, REPLY_MULTI);
    assert_int_equal(f->r.n, 0);
    RUN(f, "set", "k", "1");
    assert_int_equal(f->r.type, REPLY_MULTI);
    assert_string_equal(RUN(f, "get", "k"), "\"1\"");
    RUN(f, "client", "reply", "off");
    RUN(f, "incr", "k");
    assert_int_equal(f->r.type, REPLY_MULTI);
    assert_int_equal(f->r.n, 0);
    RUN(f, "subscribe", "ch");
    assert_int_equal(f->r.type, REPLY_MULTI);
    assert_int_equal(f->r.n, 1); /* the confirmation still goes */
    RUN(f, "unsubscribe");
    assert_string_equal(RUN(f, "client", "reply", "on"), "OK");
    assert_string_equal(RUN(f, "get", "k"), "\"2\"");
}

/* Keyspace notifications: what a subscriber of __keyspace@*__ and __keyevent@*__ receives,
 * command by command, as Redis 7.0's notify.c publishes (checked against redis-server
 * 7.0.15 by hand: the same messages in the same order). */
static buf notified;

static void notify_deliver(void *ud, int conn_id, slice channel, slice message)
{
    (void)ud, (void)conn_id;
    buf_append(&notified, channel.p, channel.len);
    buf_putc(&notified, ' ');
    buf_append(&notified, message.p, message.len);
    buf_putc(&notified, '|');
}

static void notify_push(void *ud, int conn_id, const reply *m) /* ["pmessage", pattern, channel, message] */
{
    notify_deliver(ud, conn_id, (slice){ m->elem[2].str, m->elem[2].len }, (slice){ m->elem[3].str, m->elem[3].len });
}

static void test_keyspace_notifications(void **state)
{
    (void)state;
    fixture f = { .now = 1700000000000 };
    server_config cfg = { .clock = fixture_clock, .clock_ud = &f, .deliver = notify_deliver, .push = notify_push };
    f.srv = server_new(&cfg);
    f.c.id = 1;
    reply_init(&f.r);
    buf_init(&f.out);
    buf_init(&notified);
    conn sub = { .id = 2 };
    server_execv(f.srv, &sub, &f.r, 2, (const char *[]){ "psubscribe", "__key*__:*" });
    assert_null(notified.p);
    assert_string_equal(RUN(&f, "config", "set", "notify-keyspace-events", "KEA"), "OK");
    assert_string_equal(RUN(&f, "config", "get", "notify-keyspace-events"), "1) \"notify-keyspace-events\"\n2) \"AKE\"");
    assert_string_equal(RUN(&f, "config", "set", "notify-keyspace-events", "Kq"),
                        "(error) ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - "
                        "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
    RUN(&f, "set", "a", "1", "px", "100");
    RUN(&f, "lpush", "l", "x");
    RUN(&f, "lpop", "l");
    RUN(&f, "rename", "a", "b");
    RUN(&f, "hset", "h", "f", "v");
    RUN(&f, "del", "h", "nosuch");
    f.now += 200;
    RUN(&f, "get", "b");
    assert_string_equal(notified.p,
                        "__keyspace@0__:a set|__keyevent@0__:set a|__keyspace@0__:a expire|__keyevent@0__:expire a|"
                        "__keyspace@0__:l lpush|__keyevent@0__:lpush l|__keyspace@0__:l lpop|__keyevent@0__:lpop l|"
                        "__keyspace@0__:l del|__keyevent@0__:del l|__keyspace@0__:a rename_from|"
                        "__keyevent@0__:rename_from a|__keyspace@0__:b rename_to|__keyevent@0__:rename_to b|"
                        "__keyspace@0__:h hset|__keyevent@0__:hset h|__keyspace@0__:h del|__keyevent@0__:del h|"
                        "__keyspace@0__:b expired|__keyevent@0__:expired b|");
    buf_reset(&notified);
    assert_string_equal(RUN(&f, "config", "set", "notify-keyspace-events", "El"), "OK");
    RUN(&f, "rpush", "l", "1");
    RUN(&f, "set", "s", "1");
    assert_string_equal(notified.p, "__keyevent@0__:rpush l|");
    buf_reset(&notified);
    assert_string_equal(RUN(&f, "config", "set", "notify-keyspace-events", "Kn"), "OK");
    RUN(&f, "set", "s", "2");
    RUN(&f, "set", "t", "1");
    assert_string_equal(notified.p, "__keyspace@0__:t new|"); /* s is overwritten, t is made */
    assert_string_equal(RUN(&f, "config", "set", "notify-keyspace-events", "Km"),
                        "(error) ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - "
                        "locklab does not implement the class 'm' (key misses)");
    buf_release(&notified);
    reply_release(&f.r);
    buf_release(&f.out);
    server_free(f.srv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_string_get_set_basics),
        T(test_string_set_nx_xx),
        T(test_string_set_get_option),
        T(test_string_set_expire_options),
        T(test_string_set_expire_errors),
        T(test_string_set_options_end_at_nul),
        T(test_string_set_ttl_kept_or_cleared),
        T(test_string_set_past_deadline_deletes),
        T(test_string_incr_decr),
        T(test_string_incr_rejects_non_canonical),
        T(test_string_incr_overflow),
        T(test_string_incr_keeps_ttl),
        T(test_string_append_strlen_getdel),
        T(test_string_setnx_and_mget),
        T(test_string_wrongtype),
        T(test_hash_hset_counts_new_fields),
        T(test_hash_small_keeps_insertion_order),
        T(test_hash_reads),
        T(test_hash_hsetnx),
        T(test_hash_hdel_deletes_empty_key),
        T(test_hash_hincrby),
        T(test_hash_writes_keep_ttl),
        T(test_hash_wrongtype),
        T(test_hash_small_is_compact),
        T(test_hash_converts_past_512_fields),
        T(test_hash_converts_on_long_value),
        T(test_list_push_and_range),
        T(test_list_lindex),
        T(test_list_pop_without_count),
        T(test_list_pop_with_count),
        T(test_list_lrem),
        T(test_list_lset),
        T(test_list_ltrim),
        T(test_list_ring_buffer_wraps),
        T(test_list_blpop_timeout_parsing),
        T(test_list_wrongtype),
        T(test_zset_zadd_counts),
        T(test_zset_zadd_nx_xx_gt_lt),
        T(test_zset_zadd_incr),
        T(test_zset_zadd_errors),
        T(test_zset_infinities_and_nan),
        T(test_zset_score_formatting),
        T(test_zset_negative_zero),
        T(test_zset_zscore_zcard_zrank),
        T(test_zset_zrem_deletes_empty_key),
        T(test_zset_zcount_and_zremrangebyscore),
        T(test_zset_zrange_by_rank),
        T(test_zset_zrange_by_score),
        T(test_zset_zrange_by_lex),
        T(test_zset_zrange_by_lex_unequal_scores),
        T(test_zset_zrange_option_errors),
        T(test_zset_zrangebyscore),
        T(test_zset_writes_keep_ttl),
        T(test_zset_many_members),
        T(test_zset_options_end_at_nul_and_long_scores),
        T(test_zset_wrongtype),
        T(test_object_dump_canonical),
        T(test_object_dump_big_hash_sorted),
        T(test_object_clone_is_deep),
        T(test_object_type_api),
        T(test_object_writes_notify_observer),
        T(test_info_command_stats),
        T(test_info_total_error_replies),
        T(test_encoding_limits),
        T(test_client_reply_off_skip),
        cmocka_unit_test(test_keyspace_notifications),
#undef T
    };
    return cmocka_run_group_tests_name("types", tests, NULL, NULL);
}
