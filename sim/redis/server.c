/* server.c — one fake Redis server (see server.h): wiring, and the path every client
 * command takes: lookup, arity, the subscribe-mode gate, the read-only-replica gate, then the
 * handler, given the server's parts in its context (commands.h). A script's redis.call takes
 * its own path (scripting_call, script_bridge.c).
 *
 * Transactions (MULTI, EXEC, DISCARD, WATCH, UNWATCH; Redis 7.0's multi.c) live here too,
 * because they wrap that path: after MULTI a connection's commands are checked as usual and
 * queued (+QUEUED); a check that fails (unknown name, arity, a gate) replies its error and
 * marks the transaction, whose EXEC then answers EXECABORT; EXEC runs the queue in one go,
 * each command's reply (errors included) one element of its array. WATCH remembers keys;
 * any write, deletion or expiry of one of them (by anyone: the store's watch hook, store.h),
 * a FLUSHALL/FLUSHDB while it exists, or its deadline passing before EXEC, makes EXEC answer
 * a null array. A connection's transaction is kept here by its id, not on the connection,
 * so that a caller that drops a connection without telling the server leaves nothing
 * dangling (server_conn_closed frees it early). */
#include "server.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dict.h"
#include "pubsub.h"
#include "script.h"

/* A key WATCHed by a connection: whether it existed then (an expiry before EXEC then
 * counts as a change, Redis 7.0's isWatchedKeyExpired). */
typedef struct watched {
    char *key;
    size_t len;
    int present;
    int db;
} watched;

/* One connection's transaction state: kept only while it is in MULTI or watches keys. */
typedef struct txstate {
    int conn_id;
    int in_multi;
    int abort;       /* a command was refused while queueing: EXEC answers EXECABORT */
    int dirty;       /* a watched key changed: EXEC answers a null array */
    struct queued { int argc; slice *argv; } *queue;
    size_t nqueue, capqueue;
    watched *keys;
    size_t nkeys, capkeys;
} txstate;

/* The databases: db[0] is the keyspace the world sees (server_store); the others are made
 * by their first SELECT (or MOVE, COPY ... DB, SWAPDB) with db[0]'s clock and role. Each
 * one's watch hook is told its index through hook[i]. */
struct dbset {
    server *srv;
    store *db[DB_COUNT];
    struct dbhook { server *srv; int id; } hook[DB_COUNT];
};

/* One command's INFO commandstats counters (Redis 7.0's calls, rejected_calls,
 * failed_calls). container: 0 not yet known, 1 a container (its subcommands are counted
 * in substats), -1 not one. */
typedef struct cmdstat {
    long long calls, rejected, failed;
    int container;
} cmdstat;

struct server {
    server_config cfg;
    server_hooks hooks;        /* where the effects go (server_data.c); every store of db 0 gets them */
    store *db;       /* == dbs.db[0] */
    dbset dbs;
    uint64_t rng;    /* cmd_rand's state */
    pubsub *ps;
    scripting *lua;
    int replica;
    txstate **tx;    /* the connections in MULTI or watching keys */
    size_t ntx, captx;
    size_t nwatching; /* of them, those watching keys: the store's watch hook is on while > 0 */
    dict *names;      /* conn id (as bytes) -> char *: CLIENT SETNAME; made on first use */
    dict *config;     /* parameter -> char *: CONFIG SET's values; made on first use */
    enc_limits lim;   /* the encodings' limits, CONFIG SET's values of their parameters */
    cmdstat *stats;   /* INFO commandstats, by command table index; made on first use */
    dict *substats;   /* a container's subcommands: "config|get" -> cmdstat; made on first use */
    dict *errstats;   /* INFO errorstats: an error's first word -> long long; made on first use */
    int notify;       /* notify-keyspace-events' NOTIFY_* flags (server.h); 0: none */
    /* The keys a command wrote or deleted, gathered by the watch hook while notify is on,
     * published after the command (notify_flush) */
    struct pending_key { int db; int deleted; char *key; size_t len; } *pending;
    size_t npending, cappending;
};

static void free_string(void *p)
{
    free(*(char **)p);
}

static void tx_free(txstate *t);
static void server_wire_store(server *srv);
static void watch_hook_update(server *srv);

server *server_new(const server_config *cfg)
{
    server *srv = xcalloc(1, sizeof *srv);
    srv->cfg = *cfg;
    srv->lim = enc_limits_default;
    if (!srv->cfg.lua_memory_limit) srv->cfg.lua_memory_limit = 64u << 20;
    if (!srv->cfg.lua_instruction_limit) srv->cfg.lua_instruction_limit = 500000000u;
    srv->db = store_new(cfg->clock, cfg->clock_ud);
    store_set_track_access(srv->db, cfg->track_access);
    srv->dbs.srv = srv;
    srv->dbs.db[0] = srv->db;
    for (int i = 0; i < DB_COUNT; i++) srv->dbs.hook[i] = (struct dbhook){ srv, i };
    srv->ps = pubsub_new(cfg->deliver, cfg->push, cfg->deliver_ud);
    scripting_config lua = { .memory_limit = srv->cfg.lua_memory_limit,
                             .instruction_limit = srv->cfg.lua_instruction_limit,
                             .trace = cfg->trace, .trace_ud = cfg->trace_ud,
                             .load = cfg->load, .load_ud = cfg->load_ud,
                             .tick = cfg->script_tick, .tick_ud = cfg->script_tick_ud };
    srv->lua = scripting_new(&lua);
    return srv;
}

void server_free(server *srv)
{
    if (!srv) return;
    for (size_t i = 0; i < srv->ntx; i++) tx_free(srv->tx[i]);
    free(srv->tx);
    if (srv->names) dict_free(srv->names, free_string);
    if (srv->config) dict_free(srv->config, free_string);
    if (srv->substats) dict_free(srv->substats, NULL);
    if (srv->errstats) dict_free(srv->errstats, NULL);
    for (size_t i = 0; i < srv->npending; i++) free(srv->pending[i].key);
    free(srv->pending);
    free(srv->stats);
    scripting_free(srv->lua);
    pubsub_free(srv->ps);
    for (int i = 0; i < DB_COUNT; i++) store_free(srv->dbs.db[i]);
    free(srv);
}

store *server_store(server *srv) { return srv->db; }
pubsub *server_pubsub(server *srv) { return srv->ps; }
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
    srv->db = srv->dbs.db[0] = db;
    for (int i = 1; i < DB_COUNT; i++) {
        store_free(srv->dbs.db[i]);
        srv->dbs.db[i] = NULL;
    }
    store_set_replica(db, srv->replica);
    store_set_clock(db, srv->cfg.clock, srv->cfg.clock_ud);
    store_set_track_access(db, srv->cfg.track_access);
    server_wire_store(srv);
    store_set_observer(old, NULL, NULL);
    watch_hook_update(srv);
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

size_t server_active_expire(server *srv)
{
    size_t n = 0;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i]) n += store_active_expire(srv->dbs.db[i]);
    return n;
}

int64_t server_next_expiry(server *srv)
{
    int64_t next = INT64_MAX;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i] && store_next_expiry(srv->dbs.db[i]) < next) next = store_next_expiry(srv->dbs.db[i]);
    return next;
}

store *dbset_peek(const dbset *d, int id)
{
    return id >= 0 && id < DB_COUNT ? d->db[id] : NULL;
}

store *dbset_get(dbset *d, int id)
{
    LL_ASSERT(id >= 0 && id < DB_COUNT);
    if (!d->db[id]) {
        d->db[id] = store_new_like(d->db[0]);
        watch_hook_update(d->srv);
    }
    return d->db[id];
}

/* Moves every key of `from` (a detached copy) into `to`, each reported as written. */
static void dbset_fill(store *to, store *from)
{
    size_t it = 0;
    kv *e;
    while ((e = store_next(from, &it))) {
        kv *d = store_set(to, store_key_of(from, e), (obj_type)e->type, obj_clone((obj_type)e->type, e->ptr), 0);
        d->raw = e->raw;
        if (e->expire >= 0) store_set_expire_fixed(to, d, e->expire);
        store_touched(to, d);
    }
}

/* Empties s key by key, so that its observers hear every deletion. */
static void dbset_empty(store *s)
{
    size_t it = 0, n = 0;
    kv *e;
    slice *keys = xmalloc((store_size(s) + 1) * sizeof *keys);
    while ((e = store_next(s, &it))) {
        slice k = store_key_of(s, e);
        keys[n++] = (slice){ xmemdup(k.p, k.len), k.len };
    }
    for (size_t i = 0; i < n; i++) {
        store_delete(s, keys[i]);
        free((char *)keys[i].p);
    }
    free(keys);
}

void dbset_swap(dbset *d, int a, int b)
{
    if (a == b) return;
    store *sa = dbset_get(d, a), *sb = dbset_get(d, b);
    store *ca = store_clone(sa), *cb = store_clone(sb);
    for (int k = 0; k < 2; k++) { /* the deadlines leaving a keyspace the host follows */
        store *s = k ? sb : sa;
        size_t it = 0;
        kv *e;
        while ((e = store_next(s, &it)))
            if (e->expire >= 0) store_deadline_read(s, store_key_of(s, e));
    }
    dbset_empty(sa);
    dbset_empty(sb);
    dbset_fill(sa, cb);
    dbset_fill(sb, ca);
    store_free(ca);
    store_free(cb);
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
    if (!strcmp(name, "notify-keyspace-events")) { /* its canonical form (connection.c) */
        static const char classes[] = "g$lshzxetdKE";
        srv->notify = 0;
        for (const char *p = value; *p; p++)
            if (*p == 'A') srv->notify |= NOTIFY_ALL;
            else if (strchr(classes, *p)) srv->notify |= 1 << (strchr(classes, *p) - classes);
        if (!(srv->notify & (NOTIFY_KEYSPACE | NOTIFY_KEYEVENT))) srv->notify = 0; /* nothing is published */
        watch_hook_update(srv);
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

/* ---- transactions ---- */

static txstate *tx_find(server *srv, int conn_id)
{
    for (size_t i = 0; i < srv->ntx; i++)
        if (srv->tx[i]->conn_id == conn_id) return srv->tx[i];
    return NULL;
}

static txstate *tx_get(server *srv, int conn_id)
{
    txstate *t = tx_find(srv, conn_id);
    if (t) return t;
    t = xcalloc(1, sizeof *t);
    t->conn_id = conn_id;
    if (srv->ntx == srv->captx) {
        srv->captx = srv->captx ? srv->captx * 2 : 4;
        srv->tx = xrealloc(srv->tx, srv->captx * sizeof *srv->tx);
    }
    srv->tx[srv->ntx++] = t;
    return t;
}

static void tx_clear_queue(txstate *t)
{
    for (size_t i = 0; i < t->nqueue; i++) {
        for (int j = 0; j < t->queue[i].argc; j++) free((char *)t->queue[i].argv[j].p);
        free(t->queue[i].argv);
    }
    t->nqueue = 0;
    t->in_multi = t->abort = 0;
}

static void tx_unwatch(server *srv, txstate *t)
{
    if (t->nkeys) srv->nwatching--;
    for (size_t k = 0; k < t->nkeys; k++) free(t->keys[k].key);
    t->nkeys = 0;
    t->dirty = 0;
}

static void tx_free(txstate *t)
{
    tx_clear_queue(t);
    free(t->queue);
    for (size_t k = 0; k < t->nkeys; k++) free(t->keys[k].key);
    free(t->keys);
    free(t);
}

/* Forgets t when it holds nothing any more (not in MULTI, no keys). */
static void tx_drop_if_idle(server *srv, txstate *t)
{
    if (t->in_multi || t->nkeys) return;
    for (size_t i = 0; i < srv->ntx; i++)
        if (srv->tx[i] == t) {
            srv->tx[i] = srv->tx[--srv->ntx];
            break;
        }
    tx_free(t);
    watch_hook_update(srv);
}

static void notify_publish(server *srv, int db, int cls, const char *event, slice key);

static void watch_event(void *ud, store_event ev, slice key)
{
    const struct dbhook *h = ud;
    server *srv = h->srv;
    if (srv->notify) {
        if (ev == STORE_EXPIRED) {
            notify_publish(srv, h->id, NOTIFY_EXPIRED, "expired", key);
        } else {
            size_t i = 0;
            while (i < srv->npending && !(srv->pending[i].db == h->id && srv->pending[i].len == key.len &&
                                          memcmp(srv->pending[i].key, key.p, key.len) == 0))
                i++;
            if (i == srv->npending) {
                if (srv->npending == srv->cappending) {
                    srv->cappending = srv->cappending ? 2 * srv->cappending : 8;
                    srv->pending = xrealloc(srv->pending, srv->cappending * sizeof *srv->pending);
                }
                srv->pending[srv->npending++] = (struct pending_key){ h->id, 0, xmemdup(key.p, key.len), key.len };
            }
            srv->pending[i].deleted = ev == STORE_DELETED; /* the key's last state counts */
        }
    }
    if (!srv->nwatching) return;
    for (size_t i = 0; i < srv->ntx; i++) {
        txstate *t = srv->tx[i];
        for (size_t k = 0; k < t->nkeys && !t->dirty; k++)
            if (t->keys[k].db == h->id && t->keys[k].len == key.len && memcmp(t->keys[k].key, key.p, key.len) == 0)
                t->dirty = 1;
    }
}

static void watch_hook_update(server *srv)
{
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i])
            store_set_watch(srv->dbs.db[i], srv->nwatching || srv->notify ? watch_event : NULL, &srv->dbs.hook[i]);
}

int server_conn_multi(const server *srv, int conn_id)
{
    for (size_t i = 0; i < srv->ntx; i++)
        if (srv->tx[i]->conn_id == conn_id) return srv->tx[i]->in_multi ? (int)srv->tx[i]->nqueue : -1;
    return -1;
}

void server_conn_closed(server *srv, int conn_id)
{
    if (srv->names) server_conn_setname(srv, conn_id, "", 0);
    txstate *t = tx_find(srv, conn_id);
    if (!t) return;
    tx_unwatch(srv, t);
    tx_clear_queue(t);
    tx_drop_if_idle(srv, t);
}

/* Ends t's transaction and its watches (EXEC, DISCARD, EXECABORT). */
static void tx_end(server *srv, txstate *t)
{
    tx_clear_queue(t);
    tx_unwatch(srv, t);
    tx_drop_if_idle(srv, t);
}

static void tx_watch(server *srv, txstate *t, int dbid, int argc, const slice *argv)
{
    if (!t->nkeys && argc > 1) srv->nwatching++;
    for (int i = 1; i < argc; i++) {
        size_t k;
        for (k = 0; k < t->nkeys; k++)
            if (t->keys[k].db == dbid && slice_eq((slice){ t->keys[k].key, t->keys[k].len }, argv[i])) break;
        if (k < t->nkeys) continue;
        if (t->nkeys == t->capkeys) {
            t->capkeys = t->capkeys ? t->capkeys * 2 : 4;
            t->keys = xrealloc(t->keys, t->capkeys * sizeof *t->keys);
        }
        /* The lookup first: a key found expired is deleted now (lazy expiry), before it is
         * watched, so that deletion changes nothing (Redis 7.0 watches it as "expired"). */
        int present = store_lookup(dbset_get(&srv->dbs, dbid), argv[i]) != NULL;
        t->keys[t->nkeys++] = (watched){ xmemdup(argv[i].p, argv[i].len), argv[i].len, present, dbid };
    }
    watch_hook_update(srv);
}

/* Whether a watched key changed: an event said so, or a key present at WATCH is gone (its
 * deadline passed; on a master the lookup deletes it, as EXEC's own commands would). */
static int tx_watch_failed(server *srv, txstate *t)
{
    for (size_t k = 0; k < t->nkeys && !t->dirty; k++)
        if (t->keys[k].present && !store_lookup(dbset_get(&srv->dbs, t->keys[k].db), (slice){ t->keys[k].key, t->keys[k].len }))
            t->dirty = 1;
    return t->dirty;
}

/* FLUSHALL / FLUSHDB report no events: they touch the watched keys that exist (in every
 * database, or in database `only`). */
static void flush_touch_watched(server *srv, int only)
{
    for (size_t i = 0; i < srv->ntx; i++) {
        txstate *t = srv->tx[i];
        for (size_t k = 0; k < t->nkeys; k++) {
            store *db = srv->dbs.db[t->keys[k].db];
            if ((only < 0 || t->keys[k].db == only) && db &&
                store_lookup(db, (slice){ t->keys[k].key, t->keys[k].len }))
                t->dirty = 1;
        }
    }
}

static void tx_queue(txstate *t, int argc, const slice *argv)
{
    if (t->nqueue == t->capqueue) {
        t->capqueue = t->capqueue ? t->capqueue * 2 : 8;
        t->queue = xrealloc(t->queue, t->capqueue * sizeof *t->queue);
    }
    slice *v = xmalloc((size_t)argc * sizeof *v);
    for (int i = 0; i < argc; i++) v[i] = (slice){ xmemdup(argv[i].p, argv[i].len), argv[i].len };
    t->queue[t->nqueue++] = (struct queued){ argc, v };
}

/* The table's handlers for the five: server_exec runs them itself (tx_command), and scripts
 * refuse them (NOSCRIPT), so these only stand in. */
static void tx_handler(cmdctx *c)
{
    reply_error(c->out, "ERR transaction commands are run by the server");
}

void cmd_multi(cmdctx *c) { tx_handler(c); }
void cmd_exec(cmdctx *c) { tx_handler(c); }
void cmd_discard(cmdctx *c) { tx_handler(c); }
void cmd_watch(cmdctx *c) { tx_handler(c); }
void cmd_unwatch(cmdctx *c) { tx_handler(c); }

/* ---- the command path ---- */

/* Redis 7.0's container commands: their subcommands have their own commandstats lines. */
static int is_container(const char *name)
{
    static const char *const names[] = { "acl", "client", "cluster", "command", "config", "function", "latency",
                                         "memory", "module", "object", "pubsub", "script", "slowlog", "xgroup",
                                         "xinfo" };
    for (size_t i = 0; i < LL_ARRAY_LEN(names); i++)
        if (!strcmp(name, names[i])) return 1;
    return 0;
}

/* The counters of cmd as called with argv, or NULL (a container's unknown subcommand). */
static cmdstat *stat_of(server *srv, const command *cmd, int argc, const slice *argv)
{
    if (!srv->stats) srv->stats = xcalloc(commands_count(), sizeof *srv->stats);
    cmdstat *st = &srv->stats[cmd - commands_at(0)];
    if (!st->container) st->container = is_container(cmd->name) ? 1 : -1;
    if (st->container < 0 || argc < 2) return st;
    char key[96];
    size_t n = strlen(cmd->name);
    memcpy(key, cmd->name, n);
    key[n++] = '|';
    for (size_t i = 0; i < argv[1].len && n < sizeof key; i++) key[n++] = (char)tolower((unsigned char)argv[1].p[i]);
    if (!srv->substats) srv->substats = dict_new(sizeof(cmdstat));
    return dict_put(srv->substats, (slice){ key, n }, NULL);
}

static void stat_count(server *srv, const command *cmd, int argc, const slice *argv, const reply *out, int rejected)
{
    if (out->type == REPLY_ERROR && out->str) {
        size_t n = strcspn(out->str, " ");
        if (!srv->errstats) srv->errstats = dict_new(sizeof(long long));
        ++*(long long *)dict_put(srv->errstats, (slice){ out->str, n }, NULL);
    }
    if (!cmd) return;
    int unknown_sub = out->type == REPLY_ERROR && out->str && !strncmp(out->str, "ERR unknown subcommand", 22);
    if (unknown_sub && argc >= 2 && is_container(cmd->name)) return; /* Redis: no command, no stats */
    cmdstat *st = stat_of(srv, cmd, argc, argv);
    if (rejected) {
        st->rejected++;
        return;
    }
    st->calls++;
    if (out->type == REPLY_ERROR) st->failed++;
}

typedef struct stat_line {
    const char *name;
    size_t len;
    const cmdstat *st;
} stat_line;

static int stat_line_cmp(const void *a, const void *b)
{
    const stat_line *x = a, *y = b;
    return slice_cmp((slice){ x->name, x->len }, (slice){ y->name, y->len });
}

void server_error_stats(const server *srv, buf *out)
{
    size_t n = 0, it = 0;
    stat_line *v = xmalloc(((srv->errstats ? dict_size(srv->errstats) : 0) + 1) * sizeof *v);
    const long long *count;
    while (srv->errstats && (count = dict_next(srv->errstats, &it))) {
        slice k = dict_key_of(srv->errstats, count);
        v[n++] = (stat_line){ k.p, k.len, (const cmdstat *)(const void *)count };
    }
    qsort(v, n, sizeof *v, stat_line_cmp);
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "errorstat_%.*s:count=%lld\r\n", (int)v[i].len, v[i].name, *(const long long *)(const void *)v[i].st);
    free(v);
}

void server_command_stats(const server *srv, int latency, buf *out)
{
    size_t n = 0, cap = commands_count() + (srv->substats ? dict_size(srv->substats) : 0);
    stat_line *v = xmalloc((cap + 1) * sizeof *v);
    for (size_t i = 0; srv->stats && i < commands_count(); i++)
        if (srv->stats[i].calls || srv->stats[i].rejected)
            v[n++] = (stat_line){ commands_at(i)->name, commands_at(i)->namelen, &srv->stats[i] };
    size_t it = 0;
    const cmdstat *st;
    while (srv->substats && (st = dict_next(srv->substats, &it))) {
        slice k = dict_key_of(srv->substats, st);
        v[n++] = (stat_line){ k.p, k.len, st };
    }
    qsort(v, n, sizeof *v, stat_line_cmp);
    for (size_t i = 0; i < n; i++) {
        const cmdstat *s = v[i].st;
        if (!latency)
            /* usec: the simulated server spends no time on a command */
            buf_printf(out, "cmdstat_%.*s:calls=%lld,usec=0,usec_per_call=0.00,rejected_calls=%lld,failed_calls=%lld\r\n",
                       (int)v[i].len, v[i].name, s->calls, s->rejected, s->failed);
        else if (s->calls)
            /* Redis's histogram records at least 1 ns */
            buf_printf(out, "latency_percentiles_usec_%.*s:p50=0.001,p99=0.001,p99.9=0.001\r\n", (int)v[i].len,
                       v[i].name);
    }
    free(v);
}

/* The checks before a handler runs; 0 if it may run, else -1 with the error in *out. */
static int check_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out)
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
        if (argc >= 2 && (cmd->fn == cmd_pubsub || cmd->fn == cmd_client || cmd->fn == cmd_config ||
                          cmd->fn == cmd_script || cmd->fn == cmd_command)) {
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

static void run_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out);

/* ---- keyspace notifications (Redis 7.0's notify.c) ---- */

/* "__keyspace@<db>__:<key>" <event> and "__keyevent@<db>__:<event>" <key>, as the flags ask. */
static void notify_publish(server *srv, int db, int cls, const char *event, slice key)
{
    if (!(srv->notify & cls)) return;
    buf ch;
    buf_init(&ch);
    if (srv->notify & NOTIFY_KEYSPACE) {
        buf_printf(&ch, "__keyspace@%d__:", db);
        buf_append(&ch, key.p, key.len);
        pubsub_publish(srv->ps, (slice){ ch.p, ch.len }, slice_cstr(event));
    }
    if (srv->notify & NOTIFY_KEYEVENT) {
        buf_reset(&ch);
        buf_printf(&ch, "__keyevent@%d__:%s", db, event);
        pubsub_publish(srv->ps, (slice){ ch.p, ch.len }, key);
    }
    buf_release(&ch);
}

/* The event a command's write of a key is (Redis's notifyKeyspaceEvent calls, command by
 * command): the class and name for its first key (argv[1]) and for any other key. */
static const struct notify_rule {
    const char *cmd;
    int cls;
    const char *first, *other;
} notify_rules[] = {
    { "append", NOTIFY_STRING, "append", NULL },      { "bitfield", NOTIFY_STRING, "setbit", NULL },
    { "bitop", NOTIFY_STRING, "set", "set" },          { "blpop", NOTIFY_LIST, "lpop", "lpop" },
    { "brpop", NOTIFY_LIST, "rpop", "rpop" },          { "brpoplpush", NOTIFY_LIST, "rpop", "lpush" },
    { "bzpopmax", NOTIFY_ZSET, "zpopmax", "zpopmax" }, { "bzpopmin", NOTIFY_ZSET, "zpopmin", "zpopmin" },
    { "copy", NOTIFY_GENERIC, "copy_to", "copy_to" },  { "decr", NOTIFY_STRING, "incrby", NULL },
    { "decrby", NOTIFY_STRING, "incrby", NULL },       { "del", NOTIFY_GENERIC, "del", "del" },
    { "expire", NOTIFY_GENERIC, "expire", NULL },      { "expireat", NOTIFY_GENERIC, "expire", NULL },
    { "getdel", NOTIFY_GENERIC, "del", NULL },         { "getset", NOTIFY_STRING, "set", NULL },
    { "hdel", NOTIFY_HASH, "hdel", NULL },             { "hincrby", NOTIFY_HASH, "hincrby", NULL },
    { "hincrbyfloat", NOTIFY_HASH, "hincrbyfloat", NULL }, { "hmset", NOTIFY_HASH, "hset", NULL },
    { "hset", NOTIFY_HASH, "hset", NULL },             { "hsetnx", NOTIFY_HASH, "hset", NULL },
    { "incr", NOTIFY_STRING, "incrby", NULL },         { "incrby", NOTIFY_STRING, "incrby", NULL },
    { "incrbyfloat", NOTIFY_STRING, "incrbyfloat", NULL }, { "linsert", NOTIFY_LIST, "linsert", NULL },
    { "lpop", NOTIFY_LIST, "lpop", NULL },             { "lpush", NOTIFY_LIST, "lpush", NULL },
    { "lpushx", NOTIFY_LIST, "lpush", NULL },          { "lrem", NOTIFY_LIST, "lrem", NULL },
    { "lset", NOTIFY_LIST, "lset", NULL },             { "ltrim", NOTIFY_LIST, "ltrim", NULL },
    { "move", NOTIFY_GENERIC, "move_from", "move_to" }, { "mset", NOTIFY_STRING, "set", "set" },
    { "msetnx", NOTIFY_STRING, "set", "set" },         { "persist", NOTIFY_GENERIC, "persist", NULL },
    { "pexpire", NOTIFY_GENERIC, "expire", NULL },     { "pexpireat", NOTIFY_GENERIC, "expire", NULL },
    { "psetex", NOTIFY_STRING, "set", NULL },          { "rename", NOTIFY_GENERIC, "rename_from", "rename_to" },
    { "renamenx", NOTIFY_GENERIC, "rename_from", "rename_to" }, { "rpop", NOTIFY_LIST, "rpop", NULL },
    { "rpoplpush", NOTIFY_LIST, "rpop", "lpush" },     { "rpush", NOTIFY_LIST, "rpush", NULL },
    { "rpushx", NOTIFY_LIST, "rpush", NULL },          { "sadd", NOTIFY_SET, "sadd", NULL },
    { "sdiffstore", NOTIFY_SET, "sdiffstore", NULL },  { "set", NOTIFY_STRING, "set", NULL },
    { "setbit", NOTIFY_STRING, "setbit", NULL },       { "setex", NOTIFY_STRING, "set", NULL },
    { "setnx", NOTIFY_STRING, "set", NULL },           { "setrange", NOTIFY_STRING, "setrange", NULL },
    { "sinterstore", NOTIFY_SET, "sinterstore", NULL }, { "smove", NOTIFY_SET, "srem", "sadd" },
    { "sort", NOTIFY_LIST, "sortstore", "sortstore" }, { "spop", NOTIFY_SET, "spop", NULL },
    { "srem", NOTIFY_SET, "srem", NULL },              { "sunionstore", NOTIFY_SET, "sunionstore", NULL },
    { "unlink", NOTIFY_GENERIC, "del", "del" },        { "zadd", NOTIFY_ZSET, "zadd", NULL },
    { "zdiffstore", NOTIFY_ZSET, "zdiffstore", NULL }, { "zincrby", NOTIFY_ZSET, "zincr", NULL },
    { "zinterstore", NOTIFY_ZSET, "zinterstore", NULL }, { "zpopmax", NOTIFY_ZSET, "zpopmax", NULL },
    { "zpopmin", NOTIFY_ZSET, "zpopmin", NULL },       { "zrangestore", NOTIFY_ZSET, "zrangestore", NULL },
    { "zrem", NOTIFY_ZSET, "zrem", NULL },             { "zremrangebylex", NOTIFY_ZSET, "zremrangebylex", NULL },
    { "zremrangebyrank", NOTIFY_ZSET, "zremrangebyrank", NULL },
    { "zremrangebyscore", NOTIFY_ZSET, "zremrangebyscore", NULL }, { "zunionstore", NOTIFY_ZSET, "zunionstore", NULL },
    { "lmove", NOTIFY_LIST, "lpop", "lpush" },        { "blmove", NOTIFY_LIST, "lpop", "lpush" },
    { "lmpop", NOTIFY_LIST, "lpop", "lpop" },          { "blmpop", NOTIFY_LIST, "lpop", "lpop" },
    { "zmpop", NOTIFY_ZSET, "zpopmin", "zpopmin" },    { "bzmpop", NOTIFY_ZSET, "zpopmin", "zpopmin" },
    { "getex", NOTIFY_GENERIC, "expire", NULL },
};

/* Publishes the events of the keys cmd wrote or deleted, in the order they were first
 * touched (argv[1]'s first): its own event; then "del" for a key it emptied (a pop, a removal, a store of
 * nothing); "expire" besides "set" when SET, SETEX or PSETEX set a deadline. A command
 * without a rule here (a script's: EVAL and FCALL) publishes nothing. */
static void notify_flush(server *srv, const command *cmd, int argc, const slice *argv)
{
    const struct notify_rule *r = NULL;
    for (size_t i = 0; i < LL_ARRAY_LEN(notify_rules) && !r; i++)
        if (!strcmp(notify_rules[i].cmd, cmd->name)) r = &notify_rules[i];
    /* argv[1]'s events first (RENAME's rename_from before rename_to, SMOVE's srem before
     * sadd, as Redis publishes them), then the others in the order they were touched */
    for (size_t n = 0; n < 2 * srv->npending && r; n++) {
        struct pending_key *p = &srv->pending[n % srv->npending];
        slice key = { p->key, p->len };
        int first = argc > 1 && slice_eq(key, argv[1]);
        if (first != (n < srv->npending)) continue;
        int cls = r->cls;
        const char *ev = first || !r->other ? r->first : r->other;
        const char *name = cmd->name;
        if (!strcmp(name, "lmove") || !strcmp(name, "blmove")) /* LEFT/RIGHT of each side */
            ev = first ? (slice_opt_is(argv[3], "left") ? "lpop" : "rpop") : (slice_opt_is(argv[4], "left") ? "lpush" : "rpush");
        for (int k = 2; k < argc; k++) { /* the side LMPOP and ZMPOP pop from */
            if ((!strcmp(name, "lmpop") || !strcmp(name, "blmpop")) && slice_opt_is(argv[k], "right")) ev = "rpop";
            if ((!strcmp(name, "zmpop") || !strcmp(name, "bzmpop")) && slice_opt_is(argv[k], "max")) ev = "zpopmax";
            if (!strcmp(name, "getex") && slice_opt_is(argv[k], "persist")) ev = "persist";
        }
        if (!strcmp(name, "zadd"))
            for (int k = 2; k < argc; k++)
                if (slice_opt_is(argv[k], "incr")) ev = "zincr";
        int gone = p->deleted;
        if (gone && (!strcmp(ev, "del") || !strcmp(ev, "rename_from") || !strcmp(ev, "move_from"))) {
            notify_publish(srv, p->db, cls, ev, key);
            continue;
        }
        if (gone && cls == NOTIFY_GENERIC && !strcmp(ev, "expire")) { /* a deadline in the past */
            notify_publish(srv, p->db, NOTIFY_GENERIC, "del", key);
            continue;
        }
        if (gone && (strstr(ev, "store") || !strcmp(ev, "set"))) { /* a store of nothing */
            notify_publish(srv, p->db, NOTIFY_GENERIC, "del", key);
            continue;
        }
        notify_publish(srv, p->db, cls, ev, key);
        if (!gone && (!strcmp(name, "setex") || !strcmp(name, "psetex"))) notify_publish(srv, p->db, NOTIFY_GENERIC, "expire", key);
        if (!gone && !strcmp(name, "set"))
            for (int k = 3; k < argc; k++)
                if (slice_opt_is(argv[k], "ex") || slice_opt_is(argv[k], "px") || slice_opt_is(argv[k], "exat") ||
                    slice_opt_is(argv[k], "pxat"))
                    notify_publish(srv, p->db, NOTIFY_GENERIC, "expire", key);
        if (gone) notify_publish(srv, p->db, NOTIFY_GENERIC, "del", key);
    }
    for (size_t i = 0; i < srv->npending; i++) free(srv->pending[i].key);
    srv->npending = 0;
}

/* EXEC: Redis 7.0's execCommand. */
static void exec_command(server *srv, conn *c, txstate *t, reply *out)
{
    if (!t || !t->in_multi) {
        reply_error(out, "ERR EXEC without MULTI");
        return;
    }
    if (t->abort) {
        reply_error(out, "EXECABORT Transaction discarded because of previous errors.");
        tx_end(srv, t);
        return;
    }
    if (tx_watch_failed(srv, t)) {
        reply_nil_array(out);
        tx_end(srv, t);
        return;
    }
    /* Unwatch first (as Redis does): the transaction's own writes change nothing for it. */
    tx_unwatch(srv, t);
    watch_hook_update(srv);
    size_t n = t->nqueue;
    struct queued *q = t->queue;
    t->queue = NULL;
    t->nqueue = t->capqueue = 0;
    t->in_multi = 0;
    tx_drop_if_idle(srv, t);
    reply *r = reply_array(out, n);
    int may_block = c ? c->may_block : 0; /* nothing blocks inside EXEC */
    if (c) c->may_block = 0;
    for (size_t i = 0; i < n; i++) {
        const command *cmd = commands_lookup(q[i].argv[0]);
        if (check_command(srv, c, cmd, q[i].argc, q[i].argv, &r[i]) == 0)
            run_command(srv, c, cmd, q[i].argc, q[i].argv, &r[i]);
        for (int j = 0; j < q[i].argc; j++) free((char *)q[i].argv[j].p);
        free(q[i].argv);
    }
    if (c) c->may_block = may_block;
    free(q);
}

/* MULTI, EXEC, DISCARD, WATCH, UNWATCH: they need the server, not only a handler's context. */
static void tx_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out)
{
    int id = c ? c->id : 0;
    txstate *t = srv->ntx ? tx_find(srv, id) : NULL;
    if (cmd->fn == cmd_multi) {
        if (t && t->in_multi) {
            reply_error(out, "ERR MULTI calls can not be nested");
            return;
        }
        tx_get(srv, id)->in_multi = 1;
        reply_ok(out);
    } else if (cmd->fn == cmd_exec) {
        exec_command(srv, c, t, out);
    } else if (cmd->fn == cmd_discard) {
        if (!t || !t->in_multi) {
            reply_error(out, "ERR DISCARD without MULTI");
            return;
        }
        tx_end(srv, t);
        reply_ok(out);
    } else if (cmd->fn == cmd_watch) {
        if (t && t->in_multi) {
            reply_error(out, "ERR WATCH inside MULTI is not allowed");
            return;
        }
        t = tx_get(srv, id);
        tx_watch(srv, t, c ? c->db : 0, argc, argv);
        tx_drop_if_idle(srv, t);
        reply_ok(out);
    } else { /* UNWATCH */
        if (t) {
            tx_unwatch(srv, t);
            tx_drop_if_idle(srv, t);
            watch_hook_update(srv);
        }
        reply_ok(out);
    }
}

static void run_command(server *srv, conn *c, const command *cmd, int argc, const slice *argv, reply *out)
{
    if (cmd->flags & CMD_TX) {
        tx_command(srv, c, cmd, argc, argv, out);
        stat_count(srv, cmd, argc, argv, out, 0);
        return;
    }
    int dbid = c ? c->db : 0;
    if (srv->nwatching && (cmd->fn == cmd_flushall || cmd->fn == cmd_flushdb))
        flush_touch_watched(srv, cmd->fn == cmd_flushall ? -1 : dbid);
    cmdctx ctx = { .db = dbid ? dbset_get(&srv->dbs, dbid) : srv->db, .ps = srv->ps, .lua = srv->lua, .conn = c,
                   .argc = argc, .argv = argv, .out = out, .dbs = &srv->dbs, .dbid = dbid, .rng = &srv->rng,
                   .srv = srv, .lim = &srv->lim };
    if (c) c->last_cmd = cmd->name;
    cmd->fn(&ctx);
    if (c) c->db = ctx.dbid;
    stat_count(srv, cmd, argc, argv, out, 0);
    if (srv->npending) notify_flush(srv, cmd, argc, argv);
}

/* A command refused (its error in out; Redis 7.0's rejectCommand, flagTransaction): a
 * refused EXEC answers EXECABORT, in MULTI or not, and ends the transaction; any other
 * refusal in MULTI marks it. */
static void reject_command(server *srv, conn *c, const command *cmd, txstate *t, reply *out)
{
    int in_multi = t && t->in_multi;
    if (cmd && cmd->fn == cmd_exec) {
        const char *msg = out->str && strncmp(out->str, "ERR ", 4) == 0 ? out->str + 4 : out->str;
        char *why = xstrdup(msg ? msg : "");
        reply_errorf(out, "EXECABORT Transaction discarded because of: %s", why);
        free(why);
        if (in_multi) tx_end(srv, t);
    } else if (in_multi) {
        t->abort = 1;
    }
    (void)c;
}

void server_reject(server *srv, conn *c, int argc, const slice *argv, const char *err, reply *out)
{
    reply_release(out);
    LL_ASSERT(argc >= 1);
    reply_error(out, err);
    reject_command(srv, c, commands_lookup(argv[0]), srv->ntx ? tx_find(srv, c ? c->id : 0) : NULL, out);
}

static void exec_one(server *srv, conn *c, int argc, const slice *argv, reply *out);

void server_exec(server *srv, conn *c, int argc, const slice *argv, reply *out)
{
    exec_one(srv, c, argc, argv, out);
    if (!c) return;
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
}

static void exec_one(server *srv, conn *c, int argc, const slice *argv, reply *out)
{
    reply_release(out);
    LL_ASSERT(argc >= 1);
    const command *cmd = commands_lookup(argv[0]);
    txstate *t = srv->ntx ? tx_find(srv, c ? c->id : 0) : NULL;
    int in_multi = t && t->in_multi;
    if (check_command(srv, c, cmd, argc, argv, out) < 0) {
        stat_count(srv, cmd, argc, argv, out, 1);
        reject_command(srv, c, cmd, t, out);
        return;
    }
    if (!in_multi) {
        run_command(srv, c, cmd, argc, argv, out);
        return;
    }
    if ((cmd->flags & CMD_TX) && cmd->fn != cmd_unwatch) {
        tx_command(srv, c, cmd, argc, argv, out);
        stat_count(srv, cmd, argc, argv, out, 0);
        return;
    }
    if (cmd->fn == cmd_reset) { /* not queued: it ends the transaction (Redis 7.0) */
        run_command(srv, c, cmd, argc, argv, out);
        return;
    }
    tx_queue(t, argc, argv);
    reply_status(out, "QUEUED");
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
                   .in_script = 1, .dbs = &srv->dbs, .rng = &srv->rng, .lim = &srv->lim };
    scripting_call(&ctx);
}

/* The commands whose only state is the keyspace (and whose reads touch nothing else): the
 * reads and the conditional writes lock protocols use, and the scripts. */
static const char *const pure_commands[] = {
    "get", "exists", "pttl", "ttl", "type", "strlen", "mget", "getrange", "hget", "hexists", "hgetall",
    "hlen", "hmget", "hkeys", "hvals", "llen", "lrange", "lindex", "scard", "sismember", "smembers",
    "zcard", "zscore", "zrange", "zrank", "set", "setnx", "setex", "psetex", "getset", "getdel", "del",
    "unlink", "incr", "incrby", "decr", "decrby", "expire", "pexpire", "expireat", "pexpireat",
    "persist", "hset", "hsetnx", "hdel", "hincrby", "lpush", "rpush", "lpop", "rpop", "sadd", "srem",
    "zadd", "zrem", "publish", "eval", "evalsha", "eval_ro", "evalsha_ro", NULL
};

int server_request_pure(server *srv, int conn_id, int argc, const slice *argv)
{
    if (argc < 1 || argv[0].len > 15 || server_conn_multi(srv, conn_id) >= 0) return 0;
    char name[16];
    for (size_t i = 0; i < argv[0].len; i++) {
        char ch = argv[0].p[i];
        name[i] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
    }
    name[argv[0].len] = 0;
    for (const char *const *p = pure_commands; *p; p++) {
        if (strcmp(*p, name) != 0) continue;
        /* EVAL adds its script to the cache the first time */
        if ((!strcmp(name, "eval") || !strcmp(name, "eval_ro")) && (argc < 2 || !scripting_cached(srv->lua, argv[1])))
            return 0;
        return 1;
    }
    return 0;
}
