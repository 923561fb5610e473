/* db.c — the commands about databases and values rather than keys' contents: SELECT,
 * MOVE, SWAPDB, SCAN (Redis's db.c) and OBJECT (Redis's object.c).
 *
 * A server has 16 databases (server.c's dbset): a connection's SELECT holds until it
 * selects another; a script's holds for the rest of that script only (Redis 7.0: the
 * caller's database is unchanged after EVAL). Database 0 is the simulated world's — the one
 * persisted, replicated and shown in a run's history; the others exist for clients that
 * select them, in `locklab redis` and `locklab serve`.
 *
 * SCAN (Redis's db.c too) and the helpers SSCAN, HSCAN and ZSCAN share are here as well.
 *
 * OBJECT answers as Redis 7.0.15 does with its default configuration: ENCODING from the
 * value (object.h's obj_encoding), REFCOUNT 2147483647 for the shared integers 0..9999 and
 * 1 otherwise, IDLETIME the whole seconds since the key's last access where the store
 * tracks access (store.h: locklab serve and locklab redis; 0 in the simulated world, which
 * does not), FREQ refused as without an LFU maxmemory policy. OBJECT itself, like TYPE,
 * EXISTS, TTL and SCAN's TYPE filter, looks without touching (store_peek). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dbset.h"
#include "dict.h"
#include "handlers.h"
#include "object.h"

void cmd_select(cmdctx *c)
{
    int id;
    if (arg_db_index(c, 1, &id, NULL) < 0) return;
    c->db = dbset_get(c->dbs, id);
    c->dbid = id;
    reply_ok(c->out);
}

/* MOVE key db: Redis's moveCommand, in its order of checks. */
void cmd_move(cmdctx *c)
{
    int id;
    if (arg_db_index(c, 2, &id, NULL) < 0) return;
    if (id == c->dbid) {
        reply_error(c->out, "ERR source and destination objects are the same");
        return;
    }
    kv *e = store_lookup(c->db, c->argv[1]);
    if (!e) {
        reply_int(c->out, 0);
        return;
    }
    store *to = dbset_get(c->dbs, id);
    if (store_lookup(to, c->argv[1])) {
        reply_int(c->out, 0);
        return;
    }
    obj_type t = (obj_type)e->type;
    kv *d = store_set(to, c->argv[1], t, obj_clone(t, e->ptr), 0);
    d->raw = e->raw;
    int64_t at = store_expire(c->db, e);
    if (at >= 0) { /* the deadline leaves its keyspace for one that fixed nothing */
        store_deadline_read(c->db, c->argv[1]);
        store_set_expire_fixed(to, d, at);
    }
    store_touched(to, d);
    store_delete(c->db, c->argv[1]);
    reply_int(c->out, 1);
}

/* SWAPDB index1 index2: the selected database's keys change under the client's feet. */
void cmd_swapdb(cmdctx *c)
{
    int a, b;
    if (arg_db_index(c, 1, &a, "invalid first DB index") < 0) return;
    if (arg_db_index(c, 2, &b, "invalid second DB index") < 0) return;
    dbset_swap(c->dbs, a, b);
    reply_ok(c->out);
}

void cmd_object(cmdctx *c)
{
    static const char *const help[] = {
        "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
        "HELP",
        "    Prints this help.",
    };
    static const char *const subs[] = { "encoding", "freq", "idletime", "refcount", "help" };
    slice sub = c->argv[1];
    int which = -1;
    for (int i = 0; i < 5; i++)
        if (slice_opt_is(sub, subs[i])) which = i;
    if (which < 0) {
        slice s = slice_cstr_prefix(sub);
        reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try OBJECT HELP.", (int)(s.len < 128 ? s.len : 128), s.p);
        return;
    }
    if (c->argc != (which == 4 ? 2 : 3)) {
        reply_errorf(c->out, "ERR wrong number of arguments for 'object|%s' command", subs[which]);
        return;
    }
    if (which == 4) {
        reply *e = reply_array(c->out, LL_ARRAY_LEN(help));
        for (size_t i = 0; i < LL_ARRAY_LEN(help); i++) reply_status(&e[i], help[i]);
        return;
    }
    kv *e = store_peek(c->db, c->argv[2]);
    if (!e) {
        reply_nil(c->out);
        return;
    }
    obj_type t = (obj_type)e->type;
    if (which == 0) {
        reply_bulk_cstr(c->out, t == OBJ_STRING && e->raw ? "raw" : obj_encoding(t, e->ptr));
    } else if (which == 1) {
        if (store_lfu(c->db)) reply_int(c->out, store_freq(c->db, e));
        else reply_error(c->out, "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please "
                                 "note that when switching between policies at runtime LRU and LFU data will take "
                                 "some time to adjust.");
    } else if (which == 2) {
        if (store_lfu(c->db))
            reply_error(c->out, "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that "
                                "when switching between policies at runtime LRU and LFU data will take some time "
                                "to adjust.");
        else reply_int(c->out, store_idle_s(c->db, e));
    } else {
        long long v;
        const sstr *s = e->ptr;
        int shared = t == OBJ_STRING && !e->raw && s->len <= 20 && ll_parse_int64(sstr_slice(s), &v) == 0 && v >= 0 &&
                     v < 10000;
        reply_int(c->out, shared ? 2147483647 : 1);
    }
}

/* MEMORY USAGE key [SAMPLES count] and MEMORY HELP (Redis 7.0's texts). USAGE answers
 * this server's own estimate of what the key costs it (the value's obj_bytes, the key, its
 * entry: what INFO's used_memory adds up), not jemalloc's figure for Redis's encodings; it
 * never samples. DOCTOR, MALLOC-STATS, PURGE and STATS are not kept: they answer Redis's
 * unknown subcommand. */
void cmd_memory(cmdctx *c)
{
    static const char *const help[] = {
        "MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "DOCTOR",
        "    Return memory problems reports.",
        "MALLOC-STATS",
        "    Return internal statistics report from the memory allocator.",
        "PURGE",
        "    Attempt to purge dirty pages for reclamation by the allocator.",
        "STATS",
        "    Return information about the memory usage of the server.",
        "USAGE <key> [SAMPLES <count>]",
        "    Return memory in bytes used by <key> and its value. Nested values are",
        "    sampled up to <count> times (default: 5, 0 means sample all).",
        "HELP",
        "    Prints this help.",
    };
    slice sub = c->argv[1];
    if (slice_opt_is(sub, "help") && c->argc == 2) {
        reply *e = reply_array(c->out, LL_ARRAY_LEN(help));
        for (size_t i = 0; i < LL_ARRAY_LEN(help); i++) reply_status(&e[i], help[i]);
        return;
    }
    if (!slice_opt_is(sub, "usage")) {
        slice s = slice_cstr_prefix(sub);
        if (slice_opt_is(sub, "help"))
            reply_error(c->out, "ERR wrong number of arguments for 'memory|help' command");
        else
            reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try MEMORY HELP.", (int)(s.len < 128 ? s.len : 128), s.p);
        return;
    }
    if (c->argc < 3) {
        reply_error(c->out, "ERR wrong number of arguments for 'memory|usage' command");
        return;
    }
    for (int j = 3; j < c->argc; j += 2) {
        long long samples;
        if (slice_opt_is(c->argv[j], "samples") && j + 1 < c->argc) {
            if (arg_int64(c, j + 1, &samples) < 0) return;
            if (samples < 0) {
                reply_error(c->out, ERR_SYNTAX);
                return;
            }
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    kv *e = store_peek(c->db, c->argv[2]);
    if (!e) {
        reply_nil(c->out);
        return;
    }
    reply_int(c->out, (long long)(16 + sizeof(kv) + c->argv[2].len + obj_bytes((obj_type)e->type, e->ptr)));
}

/* SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]. Redis's cursor walks its hash
 * table's buckets in reverse-binary order, so that a resize between calls neither loses
 * nor repeats keys; this keyspace probes linearly, where that trick does not hold. Here the
 * cursor is a position in the order of the keys' (unseeded, fixed) hashes, their top 32
 * bits: a call returns up to COUNT keys whose hash is at least the cursor, all keys sharing
 * the last hash returned, and the next hash after them as the cursor (0 at the end). The
 * cursors stay below 2^32, as Redis's stay below its table's size: node-redis 4 reads a
 * cursor as a JavaScript number, exact only up to 2^53 (a 64-bit cursor lost keys). So every key
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

void cmd_scan(cmdctx *c)
{
    uint64_t cursor;
    if (arg_scan_cursor(c, 1, &cursor) < 0) return;
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
        uint64_t h = dict_hash(k.p, k.len) >> 32; /* small cursors: JavaScript reads them */
        if (h < cursor) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            hit = xrealloc(hit, cap * sizeof *hit);
        }
        hit[n++] = (scan_hit){ h, k };
    }
    if (n > 1) qsort(hit, n, sizeof *hit, scan_hit_cmp); /* never qsort(NULL, 0): undefined */
    size_t take = n < (size_t)count ? n : (size_t)count;
    while (take > 0 && take < n && hit[take].hash == hit[take - 1].hash) take++;
    uint64_t next = take < n ? hit[take].hash : 0;
    int all = pat.len == 1 && pat.p[0] == '*';
    size_t kept = 0;
    for (size_t i = 0; i < take; i++) {
        kv *v = store_peek(c->db, hit[i].key);
        if (!v || (store_expire(c->db, v) >= 0 && now > store_expire(c->db, v))) continue;
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
