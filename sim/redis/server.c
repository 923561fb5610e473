/* server.c — one fake Redis server (see server.h): wiring, and the path every client
 * command takes: lookup, arity, the subscribe-mode gate, the read-only-replica gate, then the
 * handler, given the server's parts in its context (cmdctx.h). A script's redis.call takes
 * its own path (scripting_call, script_bridge.c). Transactions, which wrap that path, are in
 * server_tx.c; INFO's counters in server_stats.c; keyspace notifications in notify.c;
 * maxmemory's evictions and refusals and min-replicas-to-write in server_limits.c; the
 * server's struct, which they share, in serverint.h. */
#include "server.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dict.h"
#include "pubsub.h"
#include "script.h"
#include "serverint.h"
#include "tracking.h"

static void free_string(void *p)
{
    free(*(char **)p);
}

static void server_wire_store(server *srv);

/* A script's redis.call, seen by client tracking (its reads) before the host's trace; in
 * INFO's stats as Redis's scriptCall counts it: a call of its command, or a refusal, and
 * its error, whether the script catches it or not. */
static void server_script_trace(void *ud, int argc, const slice *argv, const reply *r)
{
    server *srv = ud;
    int refused;
    const command *cmd = scripting_call_command(srv->lua, &refused);
    server_stats_count(srv, cmd, argc, argv, r, refused ? STAT_REJECTED : STAT_CALL);
    tracking_script_call(srv->trk, argc, argv, r);
    if (srv->cfg.trace) srv->cfg.trace(srv->cfg.trace_ud, argc, argv, r);
}

/* An error of a script's reply that Redis counts (script.h). */
static void server_script_error(void *ud, const char *err)
{
    server_stats_error(ud, err);
}

server *server_new(const server_config *cfg)
{
    server *srv = xcalloc(1, sizeof *srv);
    srv->cfg = *cfg;
    srv->lim = enc_limits_default;
    if (!srv->cfg.lua_memory_limit) srv->cfg.lua_memory_limit = 64u << 20;
    if (!srv->cfg.lua_instruction_limit) srv->cfg.lua_instruction_limit = 500000000u;
    srv->db = store_new(cfg->clock, cfg->clock_ud);
    store_set_clock_us(srv->db, cfg->clock_us);
    store_set_track_access(srv->db, cfg->track_access);
    srv->dbs.srv = srv;
    srv->dbs.made = tx_watch_hook_update;
    srv->dbs.db[0] = srv->db;
    for (int i = 0; i < DB_COUNT; i++) srv->dbs.hook[i] = (struct dbhook){ srv, i };
    srv->ps = pubsub_new(cfg->deliver, cfg->push, cfg->deliver_ud);
    scripting_config lua = { .memory_limit = srv->cfg.lua_memory_limit,
                             .instruction_limit = srv->cfg.lua_instruction_limit,
                             .trace = server_script_trace, .trace_ud = srv,
                             .load = cfg->load, .load_ud = cfg->load_ud,
                             .tick = cfg->script_tick, .tick_ud = cfg->script_tick_ud,
                             .error = server_script_error, .error_ud = srv,
                             .elapsed_us = cfg->elapsed_us, .elapsed_ud = cfg->clock_ud };
    srv->lua = scripting_new(&lua);
    srv->trk = tracking_new(srv);
    srv->slowlog_slower = 10000;
    srv->latency_tracking = 1;
    srv->slowlog_max_len = 128;
    srv->started_ms = cfg->clock ? cfg->clock(cfg->clock_ud) : 0;
    return srv;
}

long long server_evicted_keys(const server *srv)
{
    return srv->evicted;
}

long long server_started_s(const server *srv)
{
    return srv->started_ms / 1000;
}

void server_free(server *srv)
{
    if (!srv) return;
    slowlog_free(srv);
    latency_free(srv);
    for (size_t i = 0; i < srv->ntx; i++) tx_free(srv->tx[i]);
    free(srv->tx);
    if (srv->names) dict_free(srv->names, free_string);
    if (srv->config) dict_free(srv->config, free_string);
    if (srv->substats) dict_free(srv->substats, NULL);
    if (srv->errstats) dict_free(srv->errstats, NULL);
    for (size_t i = 0; i < srv->npending; i++) free(srv->pending[i].key);
    free(srv->pending);
    free(srv->stats);
    tracking_free(srv->trk);
    scripting_free(srv->lua);
    pubsub_free(srv->ps);
    for (int i = 0; i < DB_COUNT; i++) store_free(srv->dbs.db[i]);
    free(srv);
}

store *server_store(server *srv) { return srv->db; }
pubsub *server_pubsub(server *srv) { return srv->ps; }

void server_prefetch(server *srv, const conn *c, const slice *keys, size_t n)
{
    store *db = c->db >= 0 && c->db < DB_COUNT ? srv->dbs.db[c->db] : NULL;
    if (db) store_prefetch(db, keys, n);
}
const server_config *server_config_of(const server *srv) { return &srv->cfg; }

/* Only database 0 is the world's (persisted, replicated, snapshotted): a keyspace
 * replaced — a restart's load, a full resync — leaves databases 1 to 15 empty, as a restart
 * of a server that persisted only database 0 would. */
store *server_swap_store(server *srv, store *db)
{
    store *old = srv->db;
    /* A keyspace replaced (a restart's load, a full resync) touches every watched key that
     * existed in the old one or exists in the new (Redis's touchAllWatchedKeysInDb). */
    for (size_t i = 0; i < srv->ntx; i++) {
        txstate *t = srv->tx[i];
        for (size_t k = 0; k < t->nkeys; k++) {
            slice key = { t->keys[k].key, t->keys[k].len };
            store *other = t->keys[k].db ? srv->dbs.db[t->keys[k].db] : NULL;
            if (t->keys[k].db == 0 ? store_lookup(old, key) || store_lookup(db, key)
                                   : other && store_lookup(other, key))
                t->dirty = 1;
        }
    }
    store_set_watch(old, NULL, NULL);
    tracking_flushed(srv->trk); /* Redis's emptyData: a null to every tracking connection */
    srv->db = srv->dbs.db[0] = db;
    for (int i = 1; i < DB_COUNT; i++) {
        store_free(srv->dbs.db[i]);
        srv->dbs.db[i] = NULL;
    }
    store_set_replica(db, srv->replica);
    store_set_clock(db, srv->cfg.clock, srv->cfg.clock_ud);
    store_set_clock_us(db, srv->cfg.clock_us);
    store_set_track_access(db, srv->cfg.track_access);
    server_wire_store(srv);
    store_set_observer(old, NULL, NULL);
    tx_watch_hook_update(srv);
    return old;
}

void server_set_hooks(server *srv, const server_hooks *h)
{
    srv->hooks = *h;
    server_wire_store(srv);
}

/* Database 0 reports to the host's hooks. */
static void server_wire_store(server *srv)
{
    const server_hooks *h = &srv->hooks;
    store_set_clock_seen(srv->db, h->clock_seen, h->ud);
    store_set_deadline_hooks(srv->db, h->deadline_set, h->deadline_read, h->ud);
    store_set_observer(srv->db, h->observer, h->observer_ud);
}

void server_set_replica(server *srv, int replica)
{
    srv->replica = replica;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i]) store_set_replica(srv->dbs.db[i], replica);
}

void server_hold_expiry(server *srv, int on)
{
    srv->expiry_held = on;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i]) store_hold_expiry(srv->dbs.db[i], on);
}

long long server_changes(const server *srv)
{
    long long n = 0;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i]) n += (long long)store_changes(srv->dbs.db[i]);
    return n;
}

long long server_expired_keys(const server *srv)
{
    long long n = 0;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i]) n += (long long)store_expired_count(srv->dbs.db[i]);
    return n;
}

void server_set_active_expire(server *srv, int on)
{
    if (srv) srv->active_expire_off = !on;
}

size_t server_active_expire(server *srv)
{
    size_t n = 0;
    if (srv->active_expire_off) return 0;
    store_clock_fn tick = srv->latency_threshold > 0 ? srv->cfg.elapsed_us : NULL; /* no time in a simulated node */
    int64_t t0 = tick ? tick(srv->cfg.clock_ud) : 0;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i]) n += store_active_expire(srv->dbs.db[i]);
    tracking_broadcast(srv->trk); /* BCAST's expired keys (Redis's beforeSleep) */
    if (tick) { /* the monitor's expire-cycle event */
        long long ms = (tick(srv->cfg.clock_ud) - t0) / 1000;
        if (ms >= srv->latency_threshold) latency_add_sample(srv, "expire-cycle", ms);
    }
    return n;
}

int64_t server_next_expiry(server *srv)
{
    int64_t next = INT64_MAX;
    if (srv->active_expire_off || srv->expiry_held) return next;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i] && store_next_expiry(srv->dbs.db[i]) < next) next = store_next_expiry(srv->dbs.db[i]);
    return next;
}

int server_is_replica(const server *srv)
{
    return srv->replica;
}

/* ---- what connection.c keeps: names, CONFIG SET ---- */

static slice id_key(const int *id)
{
    return (slice){ (const char *)id, sizeof *id };
}

const char *server_conn_name(const server *srv, int conn_id)
{
    char **p = srv->names ? dict_get(srv->names, id_key(&conn_id)) : NULL;
    return p ? *p : "";
}

void server_conn_setname(server *srv, int conn_id, const char *name, size_t len)
{
    if (!srv->names) srv->names = dict_new(sizeof(char *));
    char **p = dict_get(srv->names, id_key(&conn_id));
    if (p) {
        free(*p);
        dict_del(srv->names, id_key(&conn_id));
    }
    if (len) *(char **)dict_put(srv->names, id_key(&conn_id), NULL) = xmemdup(name, len);
}

const char *server_config_get(const server *srv, const char *name)
{
    char **p = srv->config ? dict_get(srv->config, slice_cstr(name)) : NULL;
    return p ? *p : NULL;
}

/* The encodings' limits among the parameters, under both of Redis 7.0's names. */
static const struct { const char *name; size_t off; } enc_params[] = {
    { "hash-max-listpack-entries", offsetof(enc_limits, hash_entries) },
    { "hash-max-ziplist-entries", offsetof(enc_limits, hash_entries) },
    { "hash-max-listpack-value", offsetof(enc_limits, hash_value) },
    { "hash-max-ziplist-value", offsetof(enc_limits, hash_value) },
    { "set-max-intset-entries", offsetof(enc_limits, set_intset) },
    { "zset-max-listpack-entries", offsetof(enc_limits, zset_entries) },
    { "zset-max-ziplist-entries", offsetof(enc_limits, zset_entries) },
    { "zset-max-listpack-value", offsetof(enc_limits, zset_value) },
    { "zset-max-ziplist-value", offsetof(enc_limits, zset_value) },
};

void server_config_set(server *srv, const char *name, const char *value)
{
    if (!strncmp(name, "slowlog-", 8)) slowlog_configure(srv, name, value);
    if (!strcmp(name, "latency-monitor-threshold")) srv->latency_threshold = atoll(value);
    if (!strcmp(name, "maxmemory")) srv->maxmemory = atoll(value);
    if (!strcmp(name, "min-replicas-to-write")) srv->min_replicas = atoll(value);
    if (!strcmp(name, "latency-tracking")) srv->latency_tracking = !strcmp(value, "yes");
    if (!strcmp(name, "maxmemory-policy"))
        for (int i = 0; i < DB_COUNT; i++)
            if (srv->dbs.db[i]) store_set_lfu(srv->dbs.db[i], strstr(value, "lfu") != NULL);
    if (!strcmp(name, "notify-keyspace-events")) { /* its canonical form (connection.c) */
        static const char classes[] = "g$lshzxetdKE";
        srv->notify = 0;
        for (const char *p = value; *p; p++)
            if (*p == 'A') srv->notify |= NOTIFY_ALL;
            else if (*p == 'n') srv->notify |= NOTIFY_NEW;
            else if (strchr(classes, *p)) srv->notify |= 1 << (strchr(classes, *p) - classes);
        if (!(srv->notify & (NOTIFY_KEYSPACE | NOTIFY_KEYEVENT))) srv->notify = 0; /* nothing is published */
        tx_watch_hook_update(srv);
    }
    if (!strcmp(name, "tracking-table-max-keys")) {
        long long v;
        if (ll_parse_int64(slice_cstr(value), &v) == 0 && v >= 0) tracking_set_max_keys(srv->trk, (size_t)v);
    }
    for (size_t i = 0; i < LL_ARRAY_LEN(enc_params); i++)
        if (!strcmp(name, enc_params[i].name)) {
            long long v;
            if (ll_parse_int64(slice_cstr(value), &v) == 0 && v >= 0)
                *(unsigned long long *)(void *)((char *)&srv->lim + enc_params[i].off) = (unsigned long long)v;
        }
    if (!srv->config) srv->config = dict_new(sizeof(char *));
    int existed;
    char **p = dict_put(srv->config, slice_cstr(name), &existed);
    if (existed) free(*p);
    *p = xstrdup(value);
}

/* "unknown command 'foo', with args beginning with: 'a' 'b' " — Redis caps the echoed
 * arguments at 128 bytes and turns newlines into spaces (error replies are one line). */
static void reply_unknown(reply *out, int argc, const slice *argv)
{
    buf args;
    buf_init(&args);
    for (int i = 1; i < argc && args.len < 128; i++) {
        int room = 128 - (int)args.len;
        int n = argv[i].len < (size_t)room ? (int)argv[i].len : room;
        buf_printf(&args, "'%.*s' ", n, argv[i].p);
    }
    int nlen = argv[0].len < 128 ? (int)argv[0].len : 128;
    reply_errorf(out, "ERR unknown command '%.*s', with args beginning with: %s", nlen, argv[0].p,
                 args.p ? args.p : "");
    for (size_t i = 0; i < out->len; i++)
        if (out->str[i] == '\r' || out->str[i] == '\n') out->str[i] = ' ';
    buf_release(&args);
}

/* ---- the command path ---- */

/* The checks before a handler runs; 0 if it may run, else -1 with the error in *out. */
int server_check_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out)
{
    if (!cmd) {
        reply_unknown(out, argc, argv);
        return -1;
    }
    if ((cmd->arity > 0 && argc != cmd->arity) || (cmd->arity < 0 && argc < -cmd->arity)) {
        reply_errorf(out, "ERR wrong number of arguments for '%s' command", cmd->name);
        return -1;
    }
    if (c && c->resp != 3 && (c->subscriptions > 0 || c->shard_subscriptions > 0) && !(cmd->flags & CMD_PUBSUB)) {
        /* A container command is named with its subcommand ("pubsub|numpat"), as Redis does. */
        char sub[64] = "";
        if (argc >= 2 && command_is_container(cmd)) {
            size_t n = argv[1].len < sizeof sub - 2 ? argv[1].len : sizeof sub - 2;
            sub[0] = '|';
            for (size_t i = 0; i < n; i++) sub[i + 1] = (char)tolower((unsigned char)argv[1].p[i]);
            sub[n + 1] = '\0';
        }
        reply_errorf(out,
                     "ERR Can't execute '%s%s': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / "
                     "QUIT / RESET are allowed in this context",
                     cmd->name, sub);
        return -1;
    }
    if (srv->replica && (cmd->flags & CMD_WRITE)) {
        reply_error(out, "READONLY You can't write against a read only replica.");
        return -1;
    }
    return 0;
}

void server_run_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out)
{
    if (cmd->flags & CMD_TX) {
        srv->footprint |= FP_STATE;
        tx_command(srv, c, cmd, argc, argv, out);
        server_stats_count(srv, cmd, argc, argv, out, STAT_CALL);
        return;
    }
    int dbid = c ? c->db : 0;
    if (srv->nwatching && (cmd->fn == cmd_flushall || cmd->fn == cmd_flushdb))
        tx_flush_touch_watched(srv, cmd->fn == cmd_flushall ? -1 : dbid);
    cmdctx ctx = { .db = dbid ? dbset_get(&srv->dbs, dbid) : srv->db, .ps = srv->ps, .lua = srv->lua, .conn = c,
                   .argc = argc, .argv = argv, .out = out, .dbs = &srv->dbs, .dbid = dbid, .rng = &srv->rng,
                   .srv = srv, .lim = &srv->lim, .footprint = &srv->footprint, .name = cmd->name };
    if (c) {
        c->last_cmd = cmd->name;
        if (argc >= 2 && command_is_container(cmd) && argv[1].len < sizeof c->last_full - strlen(cmd->name) - 1) {
            /* Redis names a subcommand by its full name (CLIENT LIST's cmd=client|info) */
            size_t n = strlen(cmd->name);
            memcpy(c->last_full, cmd->name, n);
            c->last_full[n] = '|';
            for (size_t i = 0; i < argv[1].len; i++) c->last_full[n + 1 + i] = (char)tolower((unsigned char)argv[1].p[i]);
            c->last_full[n + 1 + argv[1].len] = '\0';
            c->last_cmd = c->last_full;
        }
    }
    const slice *tk_argv;
    int tk_argc;
    tracking_command_begin(srv->trk, cmd, argc, argv, &tk_argv, &tk_argc);
    /* a command's duration: the host's real time (serve); a simulated node's commands take no
     * time, and reading its µs clock would tell the model checker that the request depends
     * on where in the µs it lands (core_clock_read_us) */
    store_clock_fn tick = srv->cfg.elapsed_us;
    int timed = (srv->slowlog_slower >= 0 || srv->latency_tracking || srv->latency_threshold > 0) && tick &&
                !(c && c->blocked);
    int64_t t0 = timed ? tick(srv->cfg.clock_ud) : 0;
    cmd->fn(&ctx);
    if (!(cmd->flags & CMD_KEYSPACE_FLAGS) && !ctx.script_ran) srv->footprint |= FP_STATE; /* a script: its calls say */
    if (timed && !(c && c->blocked)) { /* the slow log and latency (a blocked command: once it is served) */
        long long took = tick(srv->cfg.clock_ud) - t0;
        if (srv->slowlog_slower >= 0 && took >= srv->slowlog_slower && !command_skip_slowlog(cmd)) {
            slowlog_push(srv, c, argc, argv, took);
            srv->footprint |= FP_STATE; /* the log's order is the requests' */
        }
        latency_command(srv, cmd, argc, argv, took);
    }
    tracking_command_end(srv->trk, c, cmd, argc, argv, out, tk_argv, tk_argc);
    if (c) c->db = ctx.dbid;
    if (ctx.error_sent) server_stats_error(srv, ctx.error_sent);
    if (ctx.script_ran) { /* its reply's errors are counted already */
        server_stats_count(srv, cmd, argc, argv, &(reply){ .type = REPLY_NIL }, ctx.script_errors ? STAT_CALL_FAILED : STAT_CALL);
        /* Redis's afterErrorReply fails the call once more for each error it does not count */
        server_stats_failed(srv, cmd, argc, argv, ctx.script_counted);
    } else
        server_stats_count(srv, cmd, argc, argv, out, c && c->block_retry ? STAT_RETRY : ctx.error_sent ? STAT_CALL_FAILED : STAT_CALL);
    if (srv->npending) notify_flush(srv, cmd, argc, argv, dbid);
}

static void exec_one(server *srv, conn *c, int argc, const slice *argv, reply *out);

void server_exec(server *srv, conn *c, int argc, const slice *argv, reply *out)
{
    /* Redis's performEvictions, before the command: an evicted key's invalidation goes
     * before its reply */
    if (srv->maxmemory > 0) server_evict(srv);
    tracking_frame tf;
    size_t cached = scripting_count(srv->lua);
    /* the footprint of this request alone; a tracking connection remembers reads, and a
     * connection inside MULTI changes its queue (exec_one) */
    srv->footprint = tracking_active(srv->trk) ? FP_STATE : 0;
    tracking_enter(srv->trk, c, &tf);
    exec_one(srv, c, argc, argv, out);
    if (scripting_count(srv->lua) != cached) srv->footprint |= FP_STATE; /* the script cache changed */
    if (!c) {
        tracking_leave(srv->trk, c, argc, argv, out, &tf);
        return;
    }
    if (c->reply_skip || c->reply_off) {
        /* CLIENT REPLY OFF or SKIP: nothing is sent but pub/sub's pushes */
        const reply *first = out->type == REPLY_MULTI && out->n ? &out->elem[0] : out;
        int push = first->type == REPLY_ARRAY && first->integer == R3_PUSH;
        if (!push) reply_multi(out, 0);
        c->reply_skip = 0;
    }
    if (c->reply_skip_next) {
        c->reply_skip = 1;
        c->reply_skip_next = 0;
    }
    if (c->resp == 3) reply_resp3(out);
    /* the invalidations for c, already in its protocol, after its reply */
    tracking_leave(srv->trk, c, argc, argv, out, &tf);
}

static void exec_one(server *srv, conn *c, int argc, const slice *argv, reply *out)
{
    reply_release(out);
    LL_ASSERT(argc >= 1);
    const command *cmd = commands_lookup(argv[0]);
    txstate *t = srv->ntx ? tx_find(srv, c ? c->id : 0) : NULL;
    int in_multi = t && t->in_multi;
    if (in_multi) srv->footprint |= FP_STATE; /* the connection's queue */
    if (server_check_command(srv, c, cmd, argc, argv, out) < 0) {
        srv->footprint |= FP_STATE; /* an error reply read the connection's state */
        server_stats_count(srv, cmd, argc, argv, out, STAT_REJECTED);
        tx_reject_command(srv, c, cmd, t, out);
        return;
    }
    if (in_multi && (cmd->flags & CMD_NO_MULTI)) { /* Redis's processCommand, after the arity */
        reply_error(out, "ERR Command not allowed inside a transaction");
        server_stats_count(srv, cmd, argc, argv, out, STAT_REJECTED);
        tx_reject_command(srv, c, cmd, t, out);
        return;
    }
    if (server_limits_refuse(srv, c, cmd, argc, argv, t, out)) {
        server_stats_count(srv, cmd, argc, argv, out, STAT_REJECTED);
        tx_reject_command(srv, c, cmd, t, out);
        return;
    }
    if (!in_multi) {
        server_run_command(srv, c, cmd, argc, argv, out);
        return;
    }
    if ((cmd->flags & CMD_TX) && cmd->fn != cmd_unwatch) {
        tx_command(srv, c, cmd, argc, argv, out);
        server_stats_count(srv, cmd, argc, argv, out, STAT_CALL);
        return;
    }
    if (cmd->fn == cmd_reset) { /* not queued: it ends the transaction (Redis 7.0) */
        server_run_command(srv, c, cmd, argc, argv, out);
        return;
    }
    tx_queue(t, argc, argv);
    reply_status(out, "QUEUED");
}

int server_pause_holds(server *srv, conn *c, int argc, const slice *argv, int write_only)
{
    if (argc < 1) return 0;
    const command *cmd = commands_lookup(argv[0]);
    if (!cmd || (cmd->arity > 0 && argc != cmd->arity) || (cmd->arity < 0 && argc < -cmd->arity)) return 0;
    if (!write_only) return 1;
    if (cmd->fn == cmd_eval || cmd->fn == cmd_evalsha || cmd->fn == cmd_fcall)
        return scripting_may_write(srv->lua, argc, argv);
    if (cmd->fn == cmd_exec) {
        txstate *t = srv->ntx ? tx_find(srv, c ? c->id : 0) : NULL;
        for (size_t i = 0; t && t->in_multi && i < t->nqueue; i++) {
            const command *q = commands_lookup(t->queue[i].argv[0]);
            if (!q) continue;
            if (q->fn == cmd_eval || q->fn == cmd_evalsha || q->fn == cmd_fcall) {
                if (scripting_may_write(srv->lua, t->queue[i].argc, t->queue[i].argv)) return 1;
            } else if (command_may_replicate(q)) {
                return 1;
            }
        }
        return 0;
    }
    if (cmd->fn == cmd_function && argc >= 2)
        return server_function_writes(cmd, argc, argv) || slice_eq_nocase(argv[1], "delete") || slice_eq_nocase(argv[1], "flush");
    return command_may_replicate(cmd);
}

int server_allow_busy(int argc, const slice *argv)
{
    static const char *const plain[] = { "auth", "hello", "reset", "quit", "shutdown", "replconf",
                                         "multi", "discard", "watch", "unwatch" };
    if (argc < 1) return 0;
    for (size_t i = 0; i < LL_ARRAY_LEN(plain); i++)
        if (slice_eq_nocase(argv[0], plain[i])) return 1;
    if (argc < 2) return 0;
    if (slice_eq_nocase(argv[0], "script")) return slice_eq_nocase(argv[1], "kill");
    if (slice_eq_nocase(argv[0], "function"))
        return slice_eq_nocase(argv[1], "kill") || slice_eq_nocase(argv[1], "stats");
    return 0;
}

void server_execv(server *srv, conn *c, reply *out, int argc, const char *const *argv)
{
    slice small[16] = { { NULL, 0 } };
    slice *v = argc <= 16 ? small : xmalloc((size_t)argc * sizeof *v);
    for (int i = 0; i < argc; i++) v[i] = slice_cstr(argv[i]);
    server_exec(srv, c, argc, v, out);
    if (v != small) free(v);
}

void server_call_from_script(server *srv, int argc, const slice *argv, reply *out)
{
    cmdctx ctx = { .db = srv->db, .ps = srv->ps, .lua = srv->lua, .argc = argc, .argv = argv, .out = out,
                   .in_script = 1, .dbs = &srv->dbs, .rng = &srv->rng, .lim = &srv->lim,
                   .footprint = &srv->footprint };
    scripting_call(&ctx);
}

unsigned server_footprint(const server *srv)
{
    return srv->footprint;
}
