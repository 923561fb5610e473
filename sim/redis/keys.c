/* keys.c — the keyspace commands: DEL, UNLINK, EXISTS, TOUCH, TYPE, RANDOMKEY, the EXPIRE
 * family, TTL/PTTL, EXPIRETIME, PERSIST, RENAME, COPY, FLUSHALL, FLUSHDB, DBSIZE, KEYS, and
 * the connection-free PING, ECHO and TIME (Redis's db.c, expire.c and server.c). */
#include "handlers.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbset.h"
#include "object.h"

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
invalid:
    reply_errorf(c->out, "ERR invalid expire time in '%s' command", c->name ? c->name : "expire");
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
