/* connection.c — the commands a client library sends about its connection and the server
 * rather than the data: HELLO, CLIENT (connection_client.c), INFO, CONFIG, READONLY,
 * READWRITE. Real clients send
 * them when they connect — ioredis its INFO ready check (it waits for `loading:0`) and
 * CLIENT SETINFO, node-redis and redis-py CLIENT SETNAME when given a name, Lettuce
 * HELLO — so `locklab serve` must answer them as redis-server 7.0.15 does, its texts byte
 * for byte (checked in tests/diff/cases/connection.txt).
 *
 * What is answered, and what is not:
 *   - HELLO answers Redis's map (server, version 7.0.15, proto, id, mode standalone, role,
 *     modules): a flat array in RESP2. HELLO 3 switches the connection to RESP3 (conn.h's
 *     resp; RESET switches back): its replies are then Redis 7.0's RESP3 ones (reply.h's
 *     tags, made RESP3 by server_exec: maps, sets, doubles, nulls, pushes for pub/sub).
 *     AUTH in HELLO is accepted for the default user whatever the password, as a Redis
 *     without requirepass does.
 *   - INFO answers the sections a client reads, each with the fields this server can fill
 *     truthfully: Server (version, mode, the host's port and uptime), Clients, Memory (the
 *     keyspace's approximate size; no eviction; the scripts cached), Persistence (never loading), Stats,
 *     Replication (role, the replicas or the master), Cluster (disabled), Keyspace (db0's
 *     keys, volatile keys, their exact average TTL), Commandstats and Errorstats (calls,
 *     refusals, failures and errors counted by server_exec), CPU and Latencystats (zeros and
 *     Redis's least latency: the simulated server spends no time; a host that measures its
 *     process may answer CPU itself).
 *   - CONFIG GET answers a fixed table of the parameters clients and tools probe, with this
 *     server's values; CONFIG SET of one of them is remembered for CONFIG GET on this server
 *     (until a restart); the encodings' limits and the script time limit act, a setting
 *     this server does not act on is refused unless it is the value in effect.
 *   - CLIENT: connection_client.c.
 * The host (server.h's server_host: locklab serve) supplies what only it knows — port,
 * connections, addresses, replicas; without one (the REPL) there is one connection and
 * Redis's defaults. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "glob.h"
#include "pubsub.h"
#include "server.h"
#include "tracking.h"

#define REDIS_VERSION "7.0.15"

static int is_replica(const cmdctx *c)
{
    return c->srv ? server_is_replica(c->srv) : store_is_replica(c->db);
}

/* ---- HELLO ---- */

void cmd_hello(cmdctx *c)
{
    int i = 1, proto = c->conn && c->conn->resp == 3 ? 3 : 2;
    if (c->argc >= 2) {
        long long ver;
        if (ll_parse_int64(c->argv[1], &ver) < 0) {
            reply_error(c->out, "ERR Protocol version is not an integer or out of range");
            return;
        }
        if (ver != 2 && ver != 3) {
            reply_error(c->out, "NOPROTO unsupported protocol version");
            return;
        }
        proto = (int)ver;
        i = 2;
    }
    slice name = { NULL, 0 };
    for (; i < c->argc; i++) {
        int more = c->argc - i - 1;
        if (slice_opt_is(c->argv[i], "auth") && more >= 2) {
            if (!slice_eq(c->argv[i + 1], slice_cstr("default"))) {
                reply_error(c->out, "WRONGPASS invalid username-password pair or user is disabled.");
                return;
            }
            i += 2;
        } else if (slice_opt_is(c->argv[i], "setname") && more >= 1) {
            name = c->argv[++i];
        } else {
            slice s = slice_cstr_prefix(c->argv[i]);
            reply_errorf(c->out, "ERR Syntax error in HELLO option '%.*s'", (int)(s.len < 128 ? s.len : 128), s.p);
            return;
        }
    }
    if (name.p) {
        for (size_t k = 0; k < name.len; k++)
            if (name.p[k] < '!' || name.p[k] > '~') {
                reply_error(c->out, "ERR Client names cannot contain spaces, newlines or special characters.");
                return;
            }
        if (c->srv && c->conn) server_conn_setname(c->srv, c->conn->id, name.p, name.len);
    }
    if (c->conn) {
        c->conn->resp = proto;
        pubsub_set_resp3(c->ps, c->conn->id, proto == 3);
    }
    reply *e = reply_array(c->out, 14);
    reply_tag(c->out, R3_MAP);
    reply_bulk_cstr(&e[0], "server");
    reply_bulk_cstr(&e[1], "redis");
    reply_bulk_cstr(&e[2], "version");
    reply_bulk_cstr(&e[3], REDIS_VERSION);
    reply_bulk_cstr(&e[4], "proto");
    reply_int(&e[5], proto);
    reply_bulk_cstr(&e[6], "id");
    reply_int(&e[7], c->conn ? c->conn->id : 0);
    reply_bulk_cstr(&e[8], "mode");
    reply_bulk_cstr(&e[9], "standalone");
    reply_bulk_cstr(&e[10], "role");
    reply_bulk_cstr(&e[11], is_replica(c) ? "replica" : "master");
    reply_bulk_cstr(&e[12], "modules");
    reply_array(&e[13], 0);
}

/* ---- RESET: the connection as new (Redis 7.0's resetCommand): out of MULTI, nothing
 * watched, no subscription, no name. It runs at once even in MULTI (server.c). ---- */

void cmd_reset(cmdctx *c)
{
    if (c->conn) {
        pubsub_drop_conn(c->ps, c->conn->id);
        c->conn->subscriptions = c->conn->shard_subscriptions = 0;
        c->conn->resp = 2;
        if (c->srv) server_conn_closed(c->srv, c->conn->id); /* its MULTI, WATCH and name */
    }
    reply_status(c->out, "RESET");
}

/* ---- SAVE, SHUTDOWN: known (their refusal inside MULTI is Redis's), not done: a node's
 * data outlives a restart as its persistence says, and a node stops by a fault ---- */

void cmd_save(cmdctx *c)
{
    reply_error(c->out, "ERR locklab does not implement SAVE: what a node keeps across a restart is its "
                        "persistence (locklab serve --persistence, a scenario's persistence)");
}

void cmd_shutdown(cmdctx *c)
{
    reply_error(c->out, "ERR locklab does not implement SHUTDOWN: stop locklab serve with SIGTERM, a node with "
                        "LOCKLAB CRASH");
}

/* ---- READONLY, READWRITE: cluster commands ---- */

void cmd_readonly(cmdctx *c)
{
    reply_error(c->out, "ERR This instance has cluster support disabled");
}

void cmd_readwrite(cmdctx *c)
{
    reply_error(c->out, "ERR This instance has cluster support disabled");
}

/* ---- AUTH [username] password, as Redis 7.0 answers it without a password: the default
 * user has "nopass" (any password for "default", WRONGPASS for another user). locklab
 * serve --requirepass answers AUTH itself (cli/serve.c). ---- */

void cmd_auth(cmdctx *c)
{
    if (c->argc > 3) {
        reply_error(c->out, ERR_SYNTAX);
    } else if (c->argc == 2) {
        reply_error(c->out, "ERR AUTH <password> called without any password configured for the default user. Are "
                            "you sure your configuration is correct?");
    } else if (c->argv[1].len == 7 && memcmp(c->argv[1].p, "default", 7) == 0) {
        reply_ok(c->out);
    } else {
        reply_error(c->out, "WRONGPASS invalid username-password pair or user is disabled.");
    }
}

/* ---- WAIT numreplicas timeout (Redis 7.0's waitCommand) ----
 * Refused on a replica (before its arguments are read, as Redis does); the count of
 * replicas that have every write is the host's (none without one). When it is short of
 * numreplicas, a connection that may block waits (conn.h) until the host finds enough
 * replicas or its deadline (timeout ms on this server's clock; 0 forever) passes, and then
 * answers the count; elsewhere (the REPL, MULTI, as Redis in MULTI) it answers at once.
 * The simulated world's nodes answer WAIT themselves, with their replication lag
 * (sim/node.c), and never pass it here. */

void cmd_wait(cmdctx *c)
{
    if (c->srv && server_is_replica(c->srv)) {
        reply_error(c->out, "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 "
                            "if a replica is configured to be writable (which is not the default) writes to "
                            "replicas are just local and are not propagated.");
        return;
    }
    long long want, timeout;
    if (arg_int64(c, 1, &want) < 0) return;
    if (ll_parse_int64(c->argv[2], &timeout) != 0) {
        reply_error(c->out, "ERR timeout is not an integer or out of range");
        return;
    }
    if (timeout < 0) {
        reply_error(c->out, "ERR timeout is negative");
        return;
    }
    const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
    long long acked = cfg && cfg->host && cfg->host->replicas ? cfg->host->replicas(cfg->host_ud) : 0;
    if (acked < want && c->conn && c->conn->may_block && c->conn->block_retry != 2) {
        c->conn->blocked = 1;
        c->conn->block_deadline = timeout ? store_now(c->db) + timeout : 0;
        return;
    }
    reply_int(c->out, acked);
}

/* ---- INFO ---- */

/* Redis 7.0's sections in its order; the third column: 1 in "default" (INFO alone), 0
 * only in "all" and "everything" or when named. */
static const struct { const char *name, *title; int dflt; } info_sections[] = {
    { "server", "Server", 1 },   { "clients", "Clients", 1 },         { "memory", "Memory", 1 },
    { "persistence", "Persistence", 1 }, { "stats", "Stats", 1 },     { "replication", "Replication", 1 },
    { "cpu", "CPU", 1 },         { "modules", "Modules", 1 },         { "commandstats", "Commandstats", 0 },
    { "errorstats", "Errorstats", 1 }, { "latencystats", "Latencystats", 0 },
    { "cluster", "Cluster", 1 }, { "keyspace", "Keyspace", 1 },
};

static void host_info(cmdctx *c, const char *section, buf *out)
{
    const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
    if (cfg && cfg->host && cfg->host->info) cfg->host->info(cfg->host_ud, section, out);
}

static void human_bytes(buf *out, const char *field, unsigned long long n)
{
    static const char units[] = "BKMGTPE";
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 6) v /= 1024, u++;
    if (u == 0) buf_printf(out, "%s:%lluB\r\n", field, n);
    else buf_printf(out, "%s:%.2f%c\r\n", field, v, units[u]);
}

/* One section's body (its lines, without the "# Name" header). */
static void info_section(cmdctx *c, const char *name, buf *out)
{
    int hosted = c->srv && server_config_of(c->srv)->host;
    if (!strcmp(name, "server")) {
        store_clock_seen(c->db);
        buf_puts(out, "redis_version:" REDIS_VERSION "\r\nredis_git_sha1:00000000\r\nredis_git_dirty:0\r\n"
                      "redis_mode:standalone\r\narch_bits:64\r\n");
        buf_printf(out, "server_time_usec:%lld\r\nhz:10\r\nconfigured_hz:10\r\n", (long long)store_now(c->db) * 1000);
    } else if (!strcmp(name, "clients")) {
        if (!hosted) buf_puts(out, "connected_clients:1\r\nmaxclients:10000\r\nblocked_clients:0\r\n");
        buf_puts(out, "cluster_connections:0\r\n");
        if (c->srv) tracking_info_clients(c->srv, out);
        else buf_puts(out, "tracking_clients:0\r\n");
    } else if (!strcmp(name, "memory")) {
        size_t bytes = c->srv ? server_used_memory(c->srv) : store_bytes(c->db);
        buf_printf(out, "used_memory:%zu\r\n", bytes);
        human_bytes(out, "used_memory_human", bytes);
        const char *maxmem = c->srv ? server_config_get(c->srv, "maxmemory") : NULL;
        const char *policy = c->srv ? server_config_get(c->srv, "maxmemory-policy") : NULL;
        long long mm = 0;
        if (maxmem) ll_parse_int64(slice_cstr(maxmem), &mm);
        buf_printf(out, "maxmemory:%lld\r\n", mm);
        human_bytes(out, "maxmemory_human", (size_t)mm);
        buf_printf(out, "maxmemory_policy:%s\r\n", policy ? policy : "noeviction");
        buf_puts(out, "mem_allocator:libc\r\n"); /* the C library's malloc, not jemalloc */
        /* frees are synchronous here: nothing is ever pending or freed lazily */
        buf_puts(out, "lazyfree_pending_objects:0\r\nlazyfreed_objects:0\r\n");
        /* no replication or AOF buffers are held apart from the keys */
        buf_puts(out, "mem_not_counted_for_evict:0\r\n");
        if (c->lua) buf_printf(out, "number_of_cached_scripts:%zu\r\n", scripting_count(c->lua));
    } else if (!strcmp(name, "persistence")) {
        buf_puts(out, "loading:0\r\nasync_loading:0\r\n");
        /* this server never forks a save or an AOF rewrite (persistence is the world's) */
        if (c->srv) buf_printf(out, "rdb_changes_since_last_save:%lld\r\n", server_changes(c->srv));
        buf_puts(out, "rdb_bgsave_in_progress:0\r\n");
        if (c->srv) buf_printf(out, "rdb_last_save_time:%lld\r\n", server_started_s(c->srv));
        if (!hosted) buf_puts(out, "aof_enabled:0\r\n");
        buf_puts(out, "aof_rewrite_in_progress:0\r\naof_rewrite_scheduled:0\r\n");
    } else if (!strcmp(name, "stats")) {
        if (!hosted) buf_puts(out, "total_connections_received:1\r\n");
        if (c->srv) tracking_info_stats(c->srv, out);
        if (c->srv) buf_printf(out, "expired_keys:%lld\r\nevicted_keys:%lld\r\n", server_expired_keys(c->srv),
                               server_evicted_keys(c->srv));
        buf_puts(out, "migrate_cached_sockets:0\r\n"); /* no MIGRATE: no socket is ever cached */
        if (c->srv) buf_printf(out, "total_error_replies:%lld\r\n", server_total_error_replies(c->srv));
    } else if (!strcmp(name, "replication")) {
        buf_printf(out, "role:%s\r\n", is_replica(c) ? "slave" : "master");
        if (!hosted) buf_puts(out, "connected_slaves:0\r\n");
        host_info(c, name, out);
        /* A replica here is sent each change whole (server_capture), never a stream with
         * offsets: the offset stays 0, as on a Redis master that never made a backlog. */
        if (!is_replica(c))
            buf_puts(out, "master_failover_state:no-failover\r\nmaster_repl_offset:0\r\nsecond_repl_offset:-1\r\n"
                          "repl_backlog_active:0\r\n");
        return;
    } else if (!strcmp(name, "cluster")) {
        buf_puts(out, "cluster_enabled:0\r\n");
    } else if (!strcmp(name, "keyspace")) {
        size_t it = 0, keys = 0, expires = 0;
        long double ttl = 0;
        int64_t now = store_now(c->db);
        kv *e;
        while ((e = store_next(c->db, &it))) {
            int64_t at = store_expire(c->db, e);
            if (at >= 0 && at <= now) continue; /* expired, not yet reaped */
            keys++;
            if (at >= 0) expires++, ttl += (long double)(at - now);
        }
        if (keys)
            buf_printf(out, "db0:keys=%zu,expires=%zu,avg_ttl=%lld\r\n", keys, expires,
                       expires ? (long long)(ttl / expires) : 0LL);
        return;
    } else if (!strcmp(name, "cpu")) {
        /* A host that measures its process says so; the simulated server uses no CPU. */
        size_t before = out->len;
        host_info(c, name, out);
        if (out->len == before)
            buf_puts(out, "used_cpu_sys:0.000000\r\nused_cpu_user:0.000000\r\nused_cpu_sys_children:0.000000\r\n"
                          "used_cpu_user_children:0.000000\r\nused_cpu_sys_main_thread:0.000000\r\n"
                          "used_cpu_user_main_thread:0.000000\r\n");
        return;
    } else if (!strcmp(name, "commandstats") || !strcmp(name, "latencystats")) {
        if (c->srv) server_command_stats(c->srv, name[0] == 'l', out);
        return;
    } else if (!strcmp(name, "errorstats")) {
        if (c->srv) server_error_stats(c->srv, out);
        return;
    }
    if (strcmp(name, "modules")) host_info(c, name, out);
}

void cmd_info(cmdctx *c)
{
    int want[LL_ARRAY_LEN(info_sections)] = { 0 };
    if (c->argc == 1) {
        for (size_t k = 0; k < LL_ARRAY_LEN(info_sections); k++) want[k] = info_sections[k].dflt;
    }
    for (int i = 1; i < c->argc; i++) {
        int all = slice_opt_is(c->argv[i], "all") || slice_opt_is(c->argv[i], "everything");
        int dflt = slice_opt_is(c->argv[i], "default");
        for (size_t k = 0; k < LL_ARRAY_LEN(info_sections); k++)
            if (all || (dflt && info_sections[k].dflt) || slice_opt_is(c->argv[i], info_sections[k].name)) want[k] = 1;
    }
    buf out;
    buf_init(&out);
    int first = 1;
    for (size_t k = 0; k < LL_ARRAY_LEN(info_sections); k++) {
        if (!want[k]) continue;
        if (!first) buf_puts(&out, "\r\n");
        first = 0;
        buf_printf(&out, "# %s\r\n", info_sections[k].title);
        info_section(c, info_sections[k].name, &out);
    }
    reply_bulk(c->out, out.p ? out.p : "", out.len);
    buf_release(&out);
}

/* ---- CONFIG ---- */

/* The parameters CONFIG GET knows, with this server's values. CONFIG SET replaces a value
 * in the server's own copy (server_config_set), which CONFIG GET reads. `honoured`: 1 the
 * server acts on it (the encodings' limits, which the types read through enc_limits;
 * maxmemory with its policies, min-replicas-to-write, the slow log's, notify-keyspace-events,
 * busy-reply-threshold, tracking-table-max-keys); 0 a setting of the process or the
 * simulated world (the port, the persistence, the buffers' limits: serve's own options) is
 * refused unless it is the value in effect; 2 accepted and kept for CONFIG GET, and inert:
 * what it tunes this server does not have (replication's timings, AOF rewriting, the
 * allocator's and the cron's knobs, OOM scores; README's list); 3 immutable in Redis too
 * (databases, io-threads, cluster-enabled, daemonize); 4 the host's to change (server_host's
 * config_set: locklab serve moves its port, changes its query buffer's limit), refused as 0
 * where the host cannot (the REPL, the simulated world). key-load-delay and
 * rdb-key-save-delay are hidden as in Redis: CONFIG GET gives them only by their name.
 * maxmemory-policy is honoured in the sense Redis gives it: without maxmemory it changes
 * nothing there either; so are the list node settings (list-max-listpack-size, alias
 * list-max-ziplist-size, and list-compress-depth): a Redis 7.0 list is a quicklist whatever
 * they say, and they change only its nodes' memory, which no command shows. */
/* integer: 0 a string, 1 an integer, 2 a memory value (Redis's memtoull: digits and an
 * optional unit b, k, kb, m, mb, g, gb). */
static const struct { const char *name, *value; int integer, honoured; } config_defaults[] = {
    { "active-expire-effort", "1", 1, 2 }, { "activerehashing", "yes", 0, 2 },
    { "appendfsync", "everysec", 0, 0 },  { "appendonly", "no", 0, 2 },
    { "aof-use-rdb-preamble", "yes", 0, 2 }, { "auto-aof-rewrite-percentage", "100", 1, 2 },
    { "bind", "127.0.0.1", 0, 0 },        { "busy-reply-threshold", "5000", 1, 1 },
    { "client-output-buffer-limit", "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60", 0, 2 },
    { "client-query-buffer-limit", "1073741824", 2, 4 },
    { "cluster-enabled", "no", 0, 3 },    { "daemonize", "no", 0, 3 },
    { "databases", "16", 1, 3 },
    { "dynamic-hz", "yes", 0, 2 },
    { "hash-max-listpack-entries", "512", 1, 1 }, { "hash-max-listpack-value", "64", 2, 1 },
    { "hash-max-ziplist-entries", "512", 1, 1 }, { "hash-max-ziplist-value", "64", 2, 1 },
    { "hz", "10", 1, 2 },                 { "io-threads", "1", 1, 3 },
    { "key-load-delay", "0", 1, 2 },
    { "latency-monitor-threshold", "0", 1, 1 }, { "latency-tracking", "yes", 0, 1 },
    { "latency-tracking-info-percentiles", "50 99 99.9", 0, 2 },
    { "lazyfree-lazy-user-del", "no", 0, 2 }, { "lazyfree-lazy-user-flush", "no", 0, 2 },
    { "lfu-decay-time", "1", 1, 2 },      { "lfu-log-factor", "10", 1, 2 },
    { "list-compress-depth", "0", 1, 1 }, { "list-max-listpack-size", "-2", 1, 1 },
    { "list-max-ziplist-size", "-2", 1, 1 },
    { "loglevel", "notice", 0, 2 },
    { "lua-time-limit", "5000", 1, 1 },   { "maxclients", "10000", 1, 0 },
    { "maxmemory", "0", 2, 1 },           { "maxmemory-clients", "0", 0, 2 },
    { "maxmemory-eviction-tenacity", "10", 1, 2 },
    { "maxmemory-policy", "noeviction", 0, 1 }, { "maxmemory-samples", "5", 1, 2 },
    { "min-replicas-max-lag", "10", 1, 2 }, { "min-replicas-to-write", "0", 1, 1 },
    { "notify-keyspace-events", "", 0, 1 }, { "oom-score-adj", "no", 0, 2 },
    { "oom-score-adj-values", "0 200 800", 0, 2 }, { "port", "6379", 1, 4 },
    { "proto-max-bulk-len", "536870912", 2, 0 }, { "rdb-key-save-delay", "0", 1, 2 },
    { "repl-backlog-size", "1048576", 2, 2 }, { "repl-ping-replica-period", "10", 1, 2 },
    { "repl-timeout", "60", 1, 2 },       { "replica-read-only", "yes", 0, 0 },
    { "replicaof", "", 0, 0 },
    { "replica-serve-stale-data", "yes", 0, 2 },
    { "save", "", 0, 2 },                 { "set-max-intset-entries", "512", 1, 1 },
    { "slaveof", "", 0, 0 },
    { "slowlog-log-slower-than", "10000", 1, 1 },
    { "slowlog-max-len", "128", 1, 1 },   { "tcp-keepalive", "300", 1, 0 },
    { "timeout", "0", 1, 0 },             { "tracking-table-max-keys", "1000000", 1, 1 },
    { "zset-max-listpack-entries", "128", 1, 1 }, { "zset-max-listpack-value", "64", 2, 1 },
    { "zset-max-ziplist-entries", "128", 1, 1 }, { "zset-max-ziplist-value", "64", 2, 1 },
};

/* One setting under two names in Redis 7.0 (the second is the old one): CONFIG SET of
 * either sets both. */
static const char *const config_aliases[][2] = {
    { "busy-reply-threshold", "lua-time-limit" },
    { "list-max-listpack-size", "list-max-ziplist-size" },
    { "hash-max-listpack-entries", "hash-max-ziplist-entries" },
    { "hash-max-listpack-value", "hash-max-ziplist-value" },
    { "zset-max-listpack-entries", "zset-max-ziplist-entries" },
    { "zset-max-listpack-value", "zset-max-ziplist-value" },
};

/* notify-keyspace-events (Redis 7.0's keyspaceEventsStringToFlags): the NOTIFY_* flags
 * (server.h), -1 for a character Redis refuses, -2 for the class this server does not
 * keep (m: key misses). */
static int notify_parse(slice v)
{
    static const char classes[] = "g$lshzxetdKE";
    int flags = 0, unkept = 0;
    for (size_t i = 0; i < v.len; i++) {
        const char *at = v.p[i] ? strchr(classes, v.p[i]) : NULL;
        if (v.p[i] == 'A') flags |= NOTIFY_ALL;
        else if (v.p[i] == 'n') flags |= NOTIFY_NEW;
        else if (v.p[i] == 'm') unkept = 1;
        else if (at) flags |= 1 << (at - classes);
        else return -1;
    }
    return unkept ? -2 : flags;
}

/* keyspaceEventsFlagsToString: what CONFIG GET answers (shown: Redis drops n after A, though
 * the class stays on); else the form kept, with n. */
static char *notify_string(int flags, int shown)
{
    char out[16];
    size_t n = 0;
    if ((flags & NOTIFY_ALL) == NOTIFY_ALL) {
        out[n++] = 'A';
        if (!shown && (flags & NOTIFY_NEW)) out[n++] = 'n';
    } else {
        for (int i = 0; i < 10; i++)
            if (flags & (1 << i)) out[n++] = "g$lshzxetd"[i];
        if (flags & NOTIFY_NEW) out[n++] = 'n'; /* not after A: Redis drops it there */
    }
    if (flags & NOTIFY_KEYSPACE) out[n++] = 'K';
    if (flags & NOTIFY_KEYEVENT) out[n++] = 'E';
    out[n] = '\0';
    return xstrdup(out);
}

/* Settings that take 0 ... LLONG_MAX only. */
static int config_unsigned(const char *name)
{
    static const char *const names[] = {
        "busy-reply-threshold", "lua-time-limit", "set-max-intset-entries",
        "hash-max-listpack-entries", "hash-max-ziplist-entries", "hash-max-listpack-value",
        "hash-max-ziplist-value", "zset-max-listpack-entries", "zset-max-ziplist-entries",
        "zset-max-listpack-value", "zset-max-ziplist-value", "tracking-table-max-keys",
    };
    for (size_t i = 0; i < LL_ARRAY_LEN(names); i++)
        if (!strcmp(name, names[i])) return 1;
    return 0;
}

/* maxmemory-policy's values (Redis 7.0's maxmemory_policy_enum). */
static const char *const config_policies[] = {
    "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl",
    "allkeys-lru",  "allkeys-lfu",  "allkeys-random",  "noeviction",
};

static const char *const config_help[] = {
    "CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "GET <pattern>",
    "    Return parameters matching the glob-like <pattern> and their values.",
    "SET <directive> <value>",
    "    Set the configuration <directive> to <value>.",
    "RESETSTAT",
    "    Reset statistics reported by the INFO command.",
    "REWRITE",
    "    Rewrite the configuration file.",
    "HELP",
    "    Prints this help.",
};

static int config_index(slice name)
{
    for (size_t k = 0; k < LL_ARRAY_LEN(config_defaults); k++)
        if (slice_opt_is(name, config_defaults[k].name)) return (int)k;
    return -1;
}

static const char *config_value(cmdctx *c, size_t k)
{
    const char *set = c->srv ? server_config_get(c->srv, config_defaults[k].name) : NULL;
    if (set) return set;
    const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
    const char *hosted = cfg && cfg->host && cfg->host->config ? cfg->host->config(cfg->host_ud, config_defaults[k].name) : NULL;
    return hosted ? hosted : config_defaults[k].value;
}

static void config_get(cmdctx *c)
{
    int hit[LL_ARRAY_LEN(config_defaults)] = { 0 };
    size_t n = 0;
    for (int i = 2; i < c->argc; i++)
        for (size_t k = 0; k < LL_ARRAY_LEN(config_defaults); k++) {
            const char *name = config_defaults[k].name;
            int hidden = !strcmp(name, "key-load-delay") || !strcmp(name, "rdb-key-save-delay");
            int match = hidden ? slice_opt_is(c->argv[i], name)
                               : glob_match_nocase(c->argv[i].p, c->argv[i].len, name, strlen(name));
            if (!hit[k] && match) hit[k] = 1, n++;
        }
    reply *e = reply_array(c->out, n * 2);
    reply_tag(c->out, R3_MAP);
    for (size_t k = 0, at = 0; k < LL_ARRAY_LEN(config_defaults); k++) {
        if (!hit[k]) continue;
        reply_bulk_cstr(&e[at++], config_defaults[k].name);
        if (!strcmp(config_defaults[k].name, "notify-keyspace-events")) {
            char *shown = notify_string(notify_parse(slice_cstr(config_value(c, k))), 1);
            reply_bulk_cstr(&e[at++], shown);
            free(shown);
        } else {
            reply_bulk_cstr(&e[at++], config_value(c, k));
        }
    }
}

/* Bounds Redis gives a parameter beyond its type's (0 when it has none). */
static int config_range(const char *name, long long *lo, long long *hi)
{
    if (!strcmp(name, "port")) *lo = 0, *hi = 65535;
    else if (!strcmp(name, "client-query-buffer-limit")) *lo = 1024 * 1024, *hi = LLONG_MAX;
    else return 0;
    return 1;
}

/* Whether this server's host changes the parameters it keeps (honoured 4). */
static int config_host_sets(const cmdctx *c)
{
    const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
    return cfg && cfg->host && cfg->host->config_set;
}

/* A parameter's new value in the form it is kept: a memory value in bytes, the keyspace
 * events' canonical string, else as given. */
static char *config_kept_form(size_t k, slice arg)
{
    long long n;
    if (config_defaults[k].integer == 2 && config_parse_memory(arg, &n) == 0) return xformat("%lld", n);
    if (config_defaults[k].honoured == 4 && config_defaults[k].integer == 1 && ll_parse_int64(arg, &n) == 0)
        return xformat("%lld", n); /* the host's port: a number (CONFIG GET port after 07000 is 7000) */
    if (!strcmp(config_defaults[k].name, "notify-keyspace-events")) return notify_string(notify_parse(arg), 0);
    return xmemdup(arg.p, arg.len);
}

static void config_keep(cmdctx *c, const char *name, const char *v)
{
    server_config_set(c->srv, name, v);
    for (size_t a = 0; a < LL_ARRAY_LEN(config_aliases); a++)
        for (int w = 0; w < 2; w++)
            if (!strcmp(name, config_aliases[a][w])) server_config_set(c->srv, config_aliases[a][!w], v);
}

/* CONFIG SET's checked values applied, as Redis's configSetCommand applies them: each set,
 * then the host's applied in the order given; when one of those fails (a port that cannot be
 * listened on), every parameter of the command goes back to the value it had — the host's
 * already changed ones changed back — and the error is answered (-1). */
static int config_apply(cmdctx *c)
{
    const server_config *cfg = server_config_of(c->srv);
    int n = (c->argc - 2) / 2;
    char **old = xcalloc((size_t)n, sizeof *old), **now = xcalloc((size_t)n, sizeof *now);
    for (int j = 0; j < n; j++) {
        size_t k = (size_t)config_index(c->argv[2 + 2 * j]);
        old[j] = xstrdup(config_value(c, k));
        now[j] = config_kept_form(k, c->argv[3 + 2 * j]);
        if (config_defaults[k].honoured != 4) config_keep(c, config_defaults[k].name, now[j]);
    }
    int failed = -1;
    const char *err = NULL;
    for (int j = 0; j < n && failed < 0; j++) {
        size_t k = (size_t)config_index(c->argv[2 + 2 * j]);
        if (config_defaults[k].honoured == 4 && config_host_sets(c) && strcmp(old[j], now[j]) &&
            cfg->host->config_set(cfg->host_ud, config_defaults[k].name, now[j], &err) < 0)
            failed = j;
    }
    if (failed >= 0) {
        for (int j = n - 1; j >= 0; j--) {
            size_t k = (size_t)config_index(c->argv[2 + 2 * j]);
            const char *unused;
            if (config_defaults[k].honoured != 4) config_keep(c, config_defaults[k].name, old[j]);
            else if (j < failed && config_host_sets(c) && strcmp(old[j], now[j]))
                cfg->host->config_set(cfg->host_ud, config_defaults[k].name, old[j], &unused);
        }
        size_t k = (size_t)config_index(c->argv[2 + 2 * failed]);
        reply_errorf(c->out, "ERR CONFIG SET failed (possibly related to argument '%s') - %s", config_defaults[k].name,
                     err ? err : "apply failed");
    }
    for (int j = 0; j < n; j++) free(old[j]), free(now[j]);
    free(old);
    free(now);
    return failed >= 0 ? -1 : 0;
}

static void config_set(cmdctx *c)
{
    if (c->argc < 4 || c->argc % 2) {
        reply_sub_args(c, "config", "set");
        return;
    }
    for (int i = 2; i < c->argc; i += 2) {
        int k = config_index(c->argv[i]);
        if (k < 0) {
            slice s = slice_cstr_prefix(c->argv[i]);
            reply_errorf(c->out, "ERR Unknown option or number of arguments for CONFIG SET - '%.*s'",
                         (int)(s.len < 128 ? s.len : 128), s.p);
            return;
        }
        for (int j = 2; j < i; j += 2)
            if (config_index(c->argv[j]) == k) {
                reply_errorf(c->out, "ERR CONFIG SET failed (possibly related to argument '%s') - duplicate parameter",
                             config_defaults[k].name);
                return;
            }
        if (config_defaults[k].honoured == 3) {
            reply_errorf(c->out, "ERR CONFIG SET failed (possibly related to argument '%s') - can't set immutable config",
                         config_defaults[k].name);
            return;
        }
        if (!strcmp(config_defaults[k].name, "maxmemory-clients")) { /* a memory value or a percentage */
            slice v = c->argv[i + 1];
            long long m, pct;
            int ok = v.len && v.p[v.len - 1] == '%' ? ll_parse_int64((slice){ v.p, v.len - 1 }, &pct) == 0
                                                     : config_parse_memory(v, &m) == 0;
            if (v.len && v.p[v.len - 1] == '%' && ok && pct > 100) {
                reply_error(c->out, "ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - "
                                    "percentage argument must be less or equal to 100");
                return;
            }
            if (!ok || (v.len && v.p[v.len - 1] == '%' && pct < 0)) {
                reply_error(c->out, "ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - "
                                    "argument must be a memory or percent value");
                return;
            }
        }
        long long v, now;
        if (config_defaults[k].integer == 2 && config_parse_memory(c->argv[i + 1], &v) < 0) {
            reply_errorf(c->out, "ERR CONFIG SET failed (possibly related to argument '%s') - argument must be a memory value",
                         config_defaults[k].name);
            return;
        }
        if (config_defaults[k].integer == 1 && ll_parse_int64(c->argv[i + 1], &v) < 0) {
            reply_errorf(c->out,
                         "ERR CONFIG SET failed (possibly related to argument '%s') - argument couldn't be "
                         "parsed into an integer",
                         config_defaults[k].name);
            return;
        }
        if (config_unsigned(config_defaults[k].name) && v < 0) {
            reply_errorf(c->out, "ERR CONFIG SET failed (possibly related to argument '%s') - argument must be "
                                 "between 0 and 9223372036854775807 inclusive",
                         config_defaults[k].name);
            return;
        }
        long long lo, hi;
        if (config_range(config_defaults[k].name, &lo, &hi) && (v < lo || v > hi)) {
            reply_errorf(c->out, "ERR CONFIG SET failed (possibly related to argument '%s') - argument must be "
                                 "between %lld and %lld inclusive",
                         config_defaults[k].name, lo, hi);
            return;
        }
        if (!strcmp(config_defaults[k].name, "notify-keyspace-events")) {
            int flags = notify_parse(c->argv[i + 1]);
            if (flags == -1) {
                reply_error(c->out, "ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - "
                                    "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
                return;
            }
            if (flags == -2) {
                reply_error(c->out, "ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - "
                                    "locklab does not implement the class 'm' (key misses)");
                return;
            }
        }
        if (!strcmp(config_defaults[k].name, "maxmemory-policy")) {
            int known = 0;
            for (size_t p = 0; p < LL_ARRAY_LEN(config_policies); p++) known |= slice_opt_is(c->argv[i + 1], config_policies[p]);
            if (!known) {
                reply_errorf(c->out, "ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - "
                                     "argument(s) must be one of the following: volatile-lru, volatile-lfu, "
                                     "volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, "
                                     "noeviction");
                return;
            }
        }
        const char *cur = config_value(c, (size_t)k);
        int same = config_defaults[k].integer ? ll_parse_int64(slice_cstr(cur), &now) == 0 && now == v
                                              : slice_opt_is(c->argv[i + 1], cur);
        int hosted = config_defaults[k].honoured == 4 && config_host_sets(c);
        if ((!config_defaults[k].honoured || (config_defaults[k].honoured == 4 && !hosted)) && !same) {
            /* honoured 2: accepted, inert (README) */
            reply_errorf(c->out,
                         "ERR CONFIG SET failed (possibly related to argument '%s') - locklab does not "
                         "implement it: only its current value '%s' is accepted",
                         config_defaults[k].name, cur);
            return;
        }
    }
    if (c->srv && config_apply(c) < 0) return;
    /* Redis's updateMaxmemory evicts at once */
    for (int i = 2; c->srv && i < c->argc; i += 2)
        if (slice_opt_is(c->argv[i], "maxmemory")) server_evict(c->srv);
    reply_ok(c->out);
}

void cmd_config(cmdctx *c)
{
    slice sub = c->argv[1];
    if (slice_opt_is(sub, "get")) {
        if (c->argc < 3) reply_sub_args(c, "config", "get");
        else config_get(c);
    } else if (slice_opt_is(sub, "set")) {
        config_set(c);
    } else if (slice_opt_is(sub, "resetstat")) {
        if (c->argc != 2) {
            reply_sub_args(c, "config", "resetstat");
        } else {
            if (c->srv) server_reset_stats(c->srv);
            reply_ok(c->out);
        }
    } else if (slice_opt_is(sub, "rewrite")) {
        if (c->argc != 2) reply_sub_args(c, "config", "rewrite");
        else reply_error(c->out, "ERR The server is running without a config file");
    } else if (slice_opt_is(sub, "help") && c->argc == 2) {
        reply_lines(c, config_help, LL_ARRAY_LEN(config_help));
    } else {
        reply_unknown_sub(c, "CONFIG");
    }
}
