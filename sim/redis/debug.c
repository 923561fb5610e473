/* debug.c — DEBUG, the subcommands Redis 7.0.15's own test suite sends to a server under test
 * (src/debug.c's debugCommand), with its replies and errors:
 *   - RELOAD [MERGE|NOFLUSH|NOSAVE] and LOADAOF: OK, keeping the keyspace as it is (Redis saves
 *     and loads it back; this server's state is in memory, and what it would load is what
 *     it holds).
 *   - OBJECT key: "Value at:<address> refcount:N encoding:E serializedlength:N lru:N
 *     lru_seconds_idle:N" (serializedlength is the DUMP payload's, without its type byte
 *     and footer; no ql_* fields: this server keeps no quicklist nodes).
 *   - DIGEST, DIGEST-VALUE key ...: a SHA-1 per key of its type, value (store.h's canonical
 *     dump, so equal values digest equal whatever their encoding) and TTL, XORed over the
 *     keys as Redis's xorDigest; 40 zeros for an empty dataset or a missing key. The bytes are
 *     not Redis's (its digest walks its own encodings), only the equalities are.
 *   - SLEEP seconds: the host stops answering for that long (locklab serve; the REPL and the
 *     simulated world have no one else to keep waiting, and refuse it).
 *   - SET-ACTIVE-EXPIRE 0|1: keys past their deadline stay until a command touches them.
 *   - PROTOCOL type: Redis's sample replies of each RESP3 type (RESP2 forms on RESP2).
 *   - POPULATE count [prefix] [size], ERROR text, LOG text, CHANGE-REPL-ID,
 *     STRINGMATCH-TEST, LISTPACK key, QUICKLIST key, QUICKLIST-PACKED-THRESHOLD size,
 *     SET-SKIP-CHECKSUM-VALIDATION, PAUSE-CRON, REPLYBUFFER: accepted with Redis's replies
 *     and argument checks; what they would print or tune (a listpack's layout on stdout,
 *     cron, reply buffers) this server does not have (README).
 *   - SET-DISABLE-DENY-SCRIPTS 0|1: scripts may call the commands they may not (DEBUG among
 *     them: DEBUG SLEEP inside a script, DEBUG PROTOCOL answering in the script's protocol).
 * DEBUG is refused unless the host enables it (locklab serve --enable-debug-command, Redis's
 * enable-debug-command with its error text); the REPL always runs it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha1.h>

#include "dbset.h"
#include "handlers.h"
#include "script.h"
#include "server.h"
#include "serverint.h"

static void digest_xor(unsigned char acc[20], const unsigned char d[20])
{
    for (int i = 0; i < 20; i++) acc[i] ^= d[i];
}

/* The digest of one value: its type, canonical dump and deadline. */
static void digest_value(store *db, const kv *e, unsigned char out[20])
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "%d:", e->type);
    obj_dump((obj_type)e->type, e->ptr, &b);
    if (store_expire(db, e) >= 0) buf_printf(&b, "!!expire!!%lld", (long long)store_expire(db, e));
    struct sha1_ctx ctx;
    sha1_init(&ctx);
    sha1_update(&ctx, b.len, (const uint8_t *)(b.p ? b.p : ""));
    sha1_digest(&ctx, SHA1_DIGEST_SIZE, out);
    buf_release(&b);
    (void)db;
}

static void digest_hex(const unsigned char d[20], char out[41])
{
    for (int i = 0; i < 20; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void debug_digest(cmdctx *c)
{
    unsigned char acc[20] = { 0 };
    for (int id = 0; id < DB_COUNT; id++) {
        store *db = id == c->dbid ? c->db : dbset_peek(c->dbs, id);
        if (!db || !store_size(db)) continue;
        size_t it = 0;
        kv *e;
        while ((e = store_next(db, &it))) {
            slice k = store_key_of(db, e);
            unsigned char v[20], d[20];
            digest_value(db, e, v);
            struct sha1_ctx ctx;
            sha1_init(&ctx);
            uint32_t dbid = (uint32_t)id;
            sha1_update(&ctx, sizeof dbid, (const uint8_t *)&dbid);
            sha1_update(&ctx, k.len, (const uint8_t *)k.p);
            sha1_update(&ctx, 20, v);
            sha1_digest(&ctx, SHA1_DIGEST_SIZE, d);
            digest_xor(acc, d);
        }
    }
    char hex[41];
    digest_hex(acc, hex);
    reply_status(c->out, hex);
}

static void debug_protocol(cmdctx *c)
{
    slice t = c->argv[2];
    /* a script's call answers in the protocol the script chose (redis.setresp) */
    int r3 = c->in_script ? c->lua && scripting_resp(c->lua) == 3 : c->conn && c->conn->resp == 3;
    if (slice_opt_is(t, "string")) {
        reply_bulk_cstr(c->out, "Hello World");
    } else if (slice_opt_is(t, "integer")) {
        reply_int(c->out, 12345);
    } else if (slice_opt_is(t, "double")) {
        reply_double(c->out, 3.141);
    } else if (slice_opt_is(t, "bignum")) {
        if (r3) reply_raw(c->out, "(1234567999999999999999999999999999999\r\n", 40);
        else reply_bulk_cstr(c->out, "1234567999999999999999999999999999999");
    } else if (slice_opt_is(t, "null")) {
        reply_nil(c->out);
    } else if (slice_opt_is(t, "array") || slice_opt_is(t, "set")) {
        reply *e = reply_array(c->out, 3);
        for (int j = 0; j < 3; j++) reply_int(&e[j], j);
        if (slice_opt_is(t, "set")) c->out->integer = R3_SET;
    } else if (slice_opt_is(t, "map")) {
        reply *e = reply_array(c->out, 6);
        for (int j = 0; j < 3; j++) {
            reply_int(&e[2 * j], j);
            if (r3) reply_bool(&e[2 * j + 1], j == 1);
            else reply_int(&e[2 * j + 1], j == 1);
        }
        c->out->integer = R3_MAP;
    } else if (slice_opt_is(t, "attrib")) {
        static const char a[] = "|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n"
                                "$39\r\nSome real reply following the attribute\r\n";
        /* a script sees the reply after the attribute (Redis's parser drops attributes) */
        if (r3 && !c->in_script) reply_raw(c->out, a, sizeof a - 1);
        else reply_bulk_cstr(c->out, "Some real reply following the attribute");
    } else if (slice_opt_is(t, "push")) {
        static const char p[] = ">2\r\n$16\r\nserver-cpu-usage\r\n:42\r\n"
                                "$40\r\nSome real reply following the push reply\r\n";
        if (!r3) reply_error(c->out, "ERR RESP2 is not supported by this command");
        else reply_raw(c->out, p, sizeof p - 1);
    } else if (slice_opt_is(t, "true") || slice_opt_is(t, "false")) {
        if (r3) reply_bool(c->out, slice_opt_is(t, "true"));
        else reply_int(c->out, slice_opt_is(t, "true"));
    } else if (slice_opt_is(t, "verbatim")) {
        static const char v[] = "=29\r\ntxt:This is a verbatim\nstring\r\n";
        if (r3) reply_raw(c->out, v, sizeof v - 1);
        else reply_bulk_cstr(c->out, "This is a verbatim\nstring");
    } else {
        reply_error(c->out, "ERR Wrong protocol type name. Please use one of the following: "
                            "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
    }
}

static void debug_object(cmdctx *c)
{
    kv *e = store_find(c->db, c->argv[2]); /* a key past its deadline too, as Redis's dictFind */
    if (!e) {
        reply_error(c->out, "ERR no such key");
        return;
    }
    obj_type t = (obj_type)e->type;
    const char *enc = t == OBJ_STRING && e->raw ? "raw" : obj_encoding(t, e->ptr);
    buf payload;
    buf_init(&payload);
    dump_value(e, &payload);
    size_t serialized = payload.len > 11 ? payload.len - 11 : 0; /* without its type byte and footer */
    buf_release(&payload);
    long long v;
    const sstr *s = e->ptr;
    int shared = t == OBJ_STRING && !e->raw && s->len <= 20 && ll_parse_int64(sstr_slice(s), &v) == 0 && v >= 0 &&
                 v < 10000;
    long long idle = store_idle_s(c->db, e);
    long long lru = ((store_now(c->db) / 1000) - idle) & ((1 << 24) - 1);
    char text[256];
    snprintf(text, sizeof text, "Value at:%p refcount:%d encoding:%s serializedlength:%zu lru:%lld lru_seconds_idle:%lld",
             (void *)e, shared ? 2147483647 : 1, enc, serialized, lru, idle);
    reply_status(c->out, text);
}

/* a key of the given encoding, or the error Redis gives */
static void debug_print_structure(cmdctx *c, const char *enc, const char *printed, const char *not)
{
    kv *e = store_lookup(c->db, c->argv[2]);
    if (!e) {
        reply_error(c->out, "ERR no such key");
        return;
    }
    obj_type t = (obj_type)e->type;
    const char *has = t == OBJ_STRING && e->raw ? "raw" : obj_encoding(t, e->ptr);
    if (strcmp(has, enc)) reply_error(c->out, not);
    else reply_status(c->out, printed);
}

static void debug_populate(cmdctx *c)
{
    long long keys, size = 0;
    if (ll_parse_int64(c->argv[2], &keys) < 0 || keys < 0 ||
        (c->argc == 5 && (ll_parse_int64(c->argv[4], &size) < 0 || size < 0))) {
        reply_error(c->out, "ERR value is out of range, must be positive");
        return;
    }
    slice prefix = c->argc >= 4 ? c->argv[3] : slice_cstr("key");
    buf k;
    buf_init(&k);
    for (long long j = 0; j < keys; j++) {
        k.len = 0;
        buf_append(&k, prefix.p, prefix.len);
        buf_printf(&k, ":%lld", j);
        slice key = { k.p, k.len };
        if (store_lookup(c->db, key)) continue;
        char val[64];
        int n = snprintf(val, sizeof val, "value:%lld", j);
        sstr *sv;
        if (!size) {
            sv = store_sstr_new(c->db, val, (size_t)n);
        } else {
            char *p = xcalloc(1, (size_t)size + 1);
            memcpy(p, val, (size_t)size <= (size_t)n ? (size_t)size : (size_t)n);
            sv = store_sstr_new(c->db, p, (size_t)size);
            free(p);
        }
        store_add(c->db, key, OBJ_STRING, sv);
    }
    buf_release(&k);
    reply_ok(c->out);
}

/* 0|1 as Redis's atoi reads it */
static int debug_flag(slice s)
{
    char tmp[32];
    size_t n = s.len < sizeof tmp - 1 ? s.len : sizeof tmp - 1;
    memcpy(tmp, s.p, n);
    tmp[n] = '\0';
    return atoi(tmp);
}

void cmd_debug(cmdctx *c)
{
    const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
    const char *enabled = cfg && cfg->host && cfg->host->config ? cfg->host->config(cfg->host_ud, "enable-debug-command") : NULL;
    if (enabled && !strcmp(enabled, "no")) {
        reply_error(c->out, "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", "
                            "you can run it from a local connection, otherwise you need to set this option in the "
                            "configuration file, and then restart the server.");
        return;
    }
    slice sub = c->argv[1];
    int argc = c->argc;
    if (slice_opt_is(sub, "reload")) {
        int noflush = 0, merge = 0;
        for (int j = 2; j < argc; j++) {
            if (slice_opt_is(c->argv[j], "merge")) merge = 1;
            else if (slice_opt_is(c->argv[j], "noflush")) noflush = 1;
            else if (!slice_opt_is(c->argv[j], "nosave")) {
                reply_error(c->out, "ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
                return;
            }
        }
        /* NOFLUSH without MERGE loads the dump over what is there: Redis's load fails on the
         * first library it already holds (on a key it holds, redis-server 7.0.15 exits) */
        int held = c->lua && function_loaded(c->lua);
        for (int id = 0; id < DB_COUNT && !held; id++) {
            store *db = id == c->dbid ? c->db : dbset_peek(c->dbs, id);
            held = db && store_size(db) > 0;
        }
        if (noflush && !merge && held) reply_error(c->out, "ERR Error trying to load the RDB dump");
        else reply_ok(c->out);
    } else if (slice_opt_is(sub, "loadaof")) {
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "object") && argc == 3) {
        debug_object(c);
    } else if (slice_opt_is(sub, "listpack") && argc == 3) {
        debug_print_structure(c, "listpack", "Listpack structure printed on stdout", "ERR Not a listpack encoded object.");
    } else if (slice_opt_is(sub, "quicklist") && (argc == 3 || argc == 4)) {
        debug_print_structure(c, "quicklist", "Quicklist structure printed on stdout", "ERR Not a quicklist encoded object.");
    } else if (slice_opt_is(sub, "populate") && argc >= 3 && argc <= 5) {
        debug_populate(c);
    } else if (slice_opt_is(sub, "digest") && argc == 2) {
        debug_digest(c);
    } else if (slice_opt_is(sub, "digest-value") && argc >= 2) {
        reply *e = reply_array(c->out, (size_t)(argc - 2));
        for (int j = 2; j < argc; j++) {
            unsigned char d[20] = { 0 };
            kv *k = store_find(c->db, c->argv[j]); /* logically expired keys too (dictFind) */
            if (k) digest_value(c->db, k, d);
            char hex[41];
            digest_hex(d, hex);
            reply_status(&e[j - 2], hex);
        }
    } else if (slice_opt_is(sub, "protocol") && argc == 3) {
        debug_protocol(c);
    } else if (slice_opt_is(sub, "sleep") && argc == 3) {
        char tmp[64];
        size_t n = c->argv[2].len < sizeof tmp - 1 ? c->argv[2].len : sizeof tmp - 1;
        memcpy(tmp, c->argv[2].p, n);
        tmp[n] = '\0';
        double secs = strtod(tmp, NULL);
        if (!cfg || !cfg->host || !cfg->host->sleep) {
            reply_error(c->out, "ERR DEBUG SLEEP needs locklab serve (nothing else is waiting here)");
            return;
        }
        if (secs > 0) cfg->host->sleep(cfg->host_ud, (long long)(secs * 1000000));
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "set-active-expire") && argc == 3) {
        server_set_active_expire(c->srv, debug_flag(c->argv[2]) != 0);
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "quicklist-packed-threshold") && argc == 3) {
        long long sz;
        if (config_parse_memory(c->argv[2], &sz) < 0 || sz > (1LL << 32) - (1 << 20))
            reply_error(c->out, "ERR argument must be a memory value bigger than 1 and smaller than 4gb");
        else reply_ok(c->out);
    } else if (slice_opt_is(sub, "set-disable-deny-scripts") && argc == 3) {
        if (c->lua) scripting_set_deny_off(c->lua, debug_flag(c->argv[2]) != 0);
        reply_ok(c->out);
    } else if ((slice_opt_is(sub, "set-skip-checksum-validation") || slice_opt_is(sub, "pause-cron") ||
                slice_opt_is(sub, "aof-flush-sleep")) && argc == 3) {
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "replybuffer") && argc == 4) {
        if (slice_opt_is(c->argv[2], "peak-reset-time")) {
            long long v;
            if (!slice_opt_is(c->argv[3], "never") && !slice_opt_is(c->argv[3], "reset") &&
                ll_parse_int64(c->argv[3], &v) < 0) {
                reply_error(c->out, "ERR value is not an integer or out of range");
                return;
            }
        } else if (!slice_opt_is(c->argv[2], "resizing")) {
            reply_errorf(c->out, "ERR unknown subcommand or wrong number of arguments for '%.*s'. Try DEBUG HELP.",
                         (int)(sub.len < 128 ? sub.len : 128), sub.p);
            return;
        }
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "change-repl-id") && argc == 2) {
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "stringmatch-test") && argc == 2) {
        reply_status(c->out, "Apparently Redis did not crash: test passed");
    } else if (slice_opt_is(sub, "log") && argc == 3) {
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "error") && argc == 3) {
        reply_errorf(c->out, "%.*s", (int)c->argv[2].len, c->argv[2].p);
    } else {
        reply_errorf(c->out, "ERR unknown subcommand or wrong number of arguments for '%.*s'. Try DEBUG HELP.",
                     (int)(sub.len < 128 ? sub.len : 128), sub.p);
    }
}
