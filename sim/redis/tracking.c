/* tracking.c — client-side caching, as Redis 7.0.15's tracking.c and CLIENT TRACKING
 * (networking.c) do it (see tracking.h):
 *   - the tracking table: a key -> the ids of the connections that read it while tracking
 *     (not BCAST). A change of the key sends each of them an invalidation and forgets the key
 *     (they read it again to track it again). Keys are names, whatever the database, as in
 *     Redis. A connection that stopped tracking or closed stays in the table and is passed
 *     over when the key changes (INFO's tracking_total_items counts it until then).
 *   - BCAST: prefixes (the empty one without PREFIX) -> their connections and the keys
 *     changed since the last broadcast (each with the connection that changed it, for NOLOOP);
 *     one message per prefix, keys in byte order, sent after the command (Redis's beforeSleep).
 *   - the message: on the connection itself in RESP3 (>2 invalidate [keys]); through REDIRECT
 *     to a RESP3 connection the same, to a RESP2 one in pub/sub mode as a message on
 *     __redis__:invalidate; none otherwise. A redirect to a connection that has gone sets
 *     broken_redirect and sends a RESP3 tracker tracking-redir-broken. A flush (FLUSHALL,
 *     FLUSHDB) sends every tracking connection a null in place of the keys (the tracker's null:
 *     $-1 in RESP2, _ in RESP3) and empties the table.
 *   - the connection whose command runs gets its own invalidations after the reply (Redis's
 *     tracking_pending_keys): after EXEC's array, after a script's reply; NOLOOP keeps it from
 *     hearing of its own writes. A script remembers its declared keys when it runs a read-only
 *     command (the caller's keys, as Redis's call() does).
 * tracking-table-max-keys is Redis's default (1,000,000) and cannot be changed here
 * (connection.c refuses another value): no key is evicted from the table. */
#include "tracking.h"

#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "serverint.h"

enum {
    T_ON = 1 << 0, T_BCAST = 1 << 1, T_OPTIN = 1 << 2, T_OPTOUT = 1 << 3, T_NOLOOP = 1 << 4,
    T_CACHING = 1 << 5, T_BROKEN = 1 << 6,
};

/* One connection that tracks (or did): by id. */
typedef struct tclient {
    int id;
    unsigned flags;
    long long redir;      /* 0: none */
    slice *prefixes;      /* BCAST's, owned, in byte order */
    size_t nprefixes;
} tclient;

/* The ids that read a key (the table's value). */
typedef struct idset {
    int *ids;
    size_t n, cap;
} idset;

/* A BCAST prefix: its connections (by id) and the keys changed since the last broadcast. */
typedef struct tprefix {
    char *p;
    size_t len;
    int *clients;
    size_t nclients;
    dict *changed;        /* key -> int: the connection that changed it last (0: an expiry) */
} tprefix;

struct tracking {
    server *srv;
    tclient *clients;     /* by id, ascending (Redis's client list order) */
    size_t nclients, capclients;
    int ntracking;        /* of them, those with T_ON: INFO's tracking_clients */
    dict *table;          /* key -> idset */
    size_t items;         /* ids in the table: tracking_total_items */
    tprefix *prefixes;    /* in byte order */
    size_t nprefixes;
    /* the command running: its connection, where its messages wait, the keys invalidated
     * for it (Redis's tracking_pending_keys; a NULL pointer: a flush) */
    conn *current;
    reply *before, *after;
    struct pending { char *key; size_t len; } *pending;
    size_t npending, cappending;
    const slice *argv;    /* the command run_command runs (a script's caller) */
    int argc;
    int in_script;        /* that command runs a script: its writes are the script's own
                             client's, not the caller's (BCAST's NOLOOP hears of them) */
    conn *late;           /* the table's eviction after a command: c's messages after its reply */
    size_t max_keys;      /* tracking-table-max-keys (0: no limit) */
    unsigned evict_rounds; /* Redis's timeout_counter: the effort grows while over the limit */
};

/* ---- bookkeeping ---- */

static void pending_add(tracking *t, const char *key, size_t len);

static int bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int r = n ? memcmp(a, b, n) : 0;
    return r ? r : (alen > blen) - (alen < blen);
}

tracking *tracking_new(server *srv)
{
    tracking *t = xcalloc(1, sizeof *t);
    t->srv = srv;
    t->max_keys = 1000000;
    return t;
}

static void idset_release(void *p)
{
    free(((idset *)p)->ids);
}

static void prefix_release(tprefix *p)
{
    free(p->p);
    free(p->clients);
    if (p->changed) dict_free(p->changed, NULL);
}

void tracking_free(tracking *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->nclients; i++) {
        for (size_t k = 0; k < t->clients[i].nprefixes; k++) free((char *)t->clients[i].prefixes[k].p);
        free(t->clients[i].prefixes);
    }
    free(t->clients);
    if (t->table) dict_free(t->table, idset_release);
    for (size_t i = 0; i < t->nprefixes; i++) prefix_release(&t->prefixes[i]);
    free(t->prefixes);
    for (size_t i = 0; i < t->npending; i++) free(t->pending[i].key);
    free(t->pending);
    free(t);
}

static tclient *client_find(const tracking *t, int id)
{
    size_t lo = 0, hi = t->nclients;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->clients[mid].id == id) return &t->clients[mid];
        if (t->clients[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static tclient *client_get(tracking *t, int id)
{
    tclient *k = client_find(t, id);
    if (k) return k;
    if (t->nclients == t->capclients) {
        t->capclients = t->capclients ? 2 * t->capclients : 4;
        t->clients = xrealloc(t->clients, t->capclients * sizeof *t->clients);
    }
    size_t at = t->nclients;
    while (at > 0 && t->clients[at - 1].id > id) at--;
    memmove(&t->clients[at + 1], &t->clients[at], (t->nclients - at) * sizeof *t->clients);
    t->nclients++;
    t->clients[at] = (tclient){ .id = id };
    return &t->clients[at];
}

int tracking_active(const tracking *t)
{
    return t && t->ntracking > 0;
}

/* ---- finding connections, sending ---- */

struct find { int id; const conn *found; int resp, pubsub; };

static void find_visit(void *arg, const conn *c, const conn_peer *p)
{
    (void)p;
    struct find *f = arg;
    if (c->id != f->id || f->found) return;
    f->found = c;
    f->resp = c->resp;
    f->pubsub = c->subscriptions > 0 || c->shard_subscriptions > 0;
}

/* Whether connection id is open (its protocol and pub/sub mode in *f). Without a host the
 * running command's connection is the only one. */
static int conn_lookup(tracking *t, long long id, struct find *f)
{
    *f = (struct find){ .id = (int)id };
    if (id <= 0 || id > 0x7fffffff) return 0;
    if (t->current && t->current->id == id) {
        find_visit(f, t->current, NULL);
        return 1;
    }
    const server_config *cfg = server_config_of(t->srv);
    if (cfg->host && cfg->host->each_conn) cfg->host->each_conn(cfg->host_ud, find_visit, f);
    return f->found != NULL;
}

static void reply_append(reply *list, reply *msg)
{
    if (list->type != REPLY_MULTI) reply_multi(list, 0);
    list->elem = xrealloc(list->elem, (list->n + 1) * sizeof *list->elem);
    reply_init(&list->elem[list->n]);
    reply_move(&list->elem[list->n++], msg);
}

/* Sends msg (the destination's protocol already) to connection id: held for the running
 * command's connection (`late`: after its reply, else before), at once for another. */
static void emit(tracking *t, int id, reply *msg, int late)
{
    if (t->current && t->current->id == id) {
        reply_append(late ? t->after : t->before, msg);
        return;
    }
    if (t->late && t->late->id == id) {
        reply_append(t->after, msg);
        return;
    }
    const server_config *cfg = server_config_of(t->srv);
    if (cfg->push) cfg->push(cfg->deliver_ud, id, msg);
    reply_release(msg);
}

/* The keys of an invalidation: one key, a list in byte order (BCAST), or the tracker's
 * null (a flush). */
typedef struct tmsg {
    const slice *keys;
    size_t nkeys;
    int flush;
} tmsg;

/* Redis's sendTrackingMessage: k's invalidation to k or to the connection it redirects to. */
static void send_message(tracking *t, tclient *k, const tmsg *m, int late)
{
    struct find self, dest;
    if (!conn_lookup(t, k->id, &self)) return;
    int redirected = 0;
    if (k->redir) {
        if (!conn_lookup(t, k->redir, &dest)) {
            k->flags |= T_BROKEN;
            if (self.resp == 3) {
                reply r;
                reply_init(&r);
                r.type = REPLY_PUSH;
                r.elem = xcalloc(2, sizeof *r.elem);
                r.n = 2;
                reply_bulk_cstr(&r.elem[0], "tracking-redir-broken");
                reply_int(&r.elem[1], k->redir);
                emit(t, k->id, &r, late);
            }
            return;
        }
        redirected = 1;
    } else {
        dest = self;
    }
    reply r;
    reply_init(&r);
    reply *v;
    if (dest.resp == 3) {
        r.type = REPLY_PUSH;
        r.elem = xcalloc(2, sizeof *r.elem);
        r.n = 2;
        reply_bulk_cstr(&r.elem[0], "invalidate");
        v = &r.elem[1];
    } else if (redirected && dest.pubsub) {
        reply *e = reply_array(&r, 3);
        reply_bulk_cstr(&e[0], "message");
        reply_bulk_cstr(&e[1], "__redis__:invalidate");
        v = &e[2];
    } else {
        return; /* RESP2 on its own connection: nothing can carry it */
    }
    if (m->flush) {
        if (self.resp == 3) v->type = REPLY_NULL; /* shared.null[tracker's protocol] */
        else reply_nil(v);
    } else {
        reply *e = reply_array(v, m->nkeys);
        for (size_t i = 0; i < m->nkeys; i++) reply_bulk(&e[i], m->keys[i].p, m->keys[i].len);
    }
    emit(t, dest.found ? dest.id : k->id, &r, late);
}

/* ---- remembering keys ---- */

static void remember(tracking *t, int id, slice key)
{
    if (!t->table) t->table = dict_new(sizeof(idset));
    idset *s = dict_put(t->table, key, NULL);
    for (size_t i = 0; i < s->n; i++)
        if (s->ids[i] == id) return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 2;
        s->ids = xrealloc(s->ids, s->cap * sizeof *s->ids);
    }
    /* Redis's rax of 8-byte ids in memory order: little-endian bytes, lowest byte first */
    size_t at = s->n;
    while (at > 0 && __builtin_bswap32((uint32_t)s->ids[at - 1]) > __builtin_bswap32((uint32_t)id)) at--;
    memmove(&s->ids[at + 1], &s->ids[at], (s->n - at) * sizeof *s->ids);
    s->ids[at] = id;
    s->n++;
    t->items++;
}

/* The keys of a read-only command (Redis's getKeysFromCommand for those of the table). */
static void remember_command_keys(tracking *t, int id, int argc, const slice *argv)
{
    const char *name = NULL;
    const command *cmd = commands_lookup(argv[0]);
    if (!cmd) return;
    name = cmd->name;
    static const char *const none[] = { "dbsize", "keys", "randomkey", "scan" };
    static const char *const all[] = { "exists", "mget", "sdiff", "sinter", "sunion", "touch" };
    static const char *const numkeys[] = { "sintercard", "zdiff", "zinter", "zintercard", "zunion" };
    for (size_t i = 0; i < LL_ARRAY_LEN(none); i++)
        if (!strcmp(name, none[i])) return;
    int first = 1, last = 1;
    for (size_t i = 0; i < LL_ARRAY_LEN(all); i++)
        if (!strcmp(name, all[i])) last = argc - 1;
    if (!strcmp(name, "lcs")) last = 2;
    for (size_t i = 0; i < LL_ARRAY_LEN(numkeys); i++)
        if (!strcmp(name, numkeys[i])) {
            long long n;
            if (ll_parse_int64(argv[1], &n) < 0 || n <= 0 || n > argc - 2) return;
            first = 2;
            last = 1 + (int)n;
        }
    for (int i = first; i <= last && i < argc; i++) remember(t, id, argv[i]);
}

/* A script's declared keys (EVAL, EVALSHA, FCALL and their _RO: numkeys at argv[2]). */
static void remember_script_keys(tracking *t, int id, int argc, const slice *argv)
{
    long long n;
    if (argc < 3 || ll_parse_int64(argv[2], &n) < 0 || n <= 0 || n > argc - 3) return;
    for (int i = 3; i < 3 + n; i++) remember(t, id, argv[i]);
}

/* Whether k remembers what it reads now (OPTIN wants CACHING yes, OPTOUT no CACHING no). */
static int remembers(const tclient *k)
{
    if (!k || !(k->flags & T_ON) || (k->flags & T_BCAST)) return 0;
    if ((k->flags & T_OPTIN) && !(k->flags & T_CACHING)) return 0;
    if ((k->flags & T_OPTOUT) && (k->flags & T_CACHING)) return 0;
    return 1;
}

static int is_script(const command *cmd)
{
    return !strncmp(cmd->name, "eval", 4) || !strncmp(cmd->name, "fcall", 5);
}

void tracking_command_begin(tracking *t, const command *cmd, int argc, const slice *argv, const slice **save_argv,
                            int *save_argc)
{
    *save_argv = t->argv;
    *save_argc = t->argc;
    t->argv = argv;
    t->argc = argc;
    t->in_script += is_script(cmd);
}

/* Redis's trackingInvalidateKeysOnFlush: a null for every tracking connection, the table
 * emptied. */
static void invalidate_all(tracking *t)
{
    tmsg m = { .flush = 1 };
    for (size_t i = 0; i < t->nclients; i++) {
        tclient *k = &t->clients[i];
        if (!(k->flags & T_ON)) continue;
        if (t->current && k->id == t->current->id) pending_add(t, NULL, 0);
        else send_message(t, k, &m, 0);
    }
    if (t->table) dict_free(t->table, idset_release);
    t->table = NULL;
    t->items = 0;
}

void tracking_flushed(tracking *t)
{
    if (t) invalidate_all(t);
}

void tracking_command_end(tracking *t, conn *c, const command *cmd, int argc, const slice *argv, const reply *out,
                          const slice *save_argv, int save_argc)
{
    t->argv = save_argv;
    t->argc = save_argc;
    t->in_script -= is_script(cmd);
    if ((cmd->fn == cmd_flushall || cmd->fn == cmd_flushdb) && out->type == REPLY_STATUS) {
        invalidate_all(t);
        return;
    }
    if (!(cmd->flags & CMD_READONLY) || !c || !strncmp(cmd->name, "eval", 4) || !strcmp(cmd->name, "fcall_ro"))
        return;
    tclient *k = client_find(t, c->id);
    if (remembers(k)) remember_command_keys(t, c->id, argc, argv);
}

void tracking_script_call(tracking *t, int argc, const slice *argv)
{
    if (!t->current || !t->argv || argc < 1) return;
    tclient *k = client_find(t, t->current->id);
    if (!remembers(k)) return;
    const command *cmd = commands_lookup(argv[0]);
    if (!cmd || !(cmd->flags & CMD_READONLY)) return;
    if ((cmd->arity > 0 && argc != cmd->arity) || (cmd->arity < 0 && argc < -cmd->arity)) return; /* refused */
    remember_script_keys(t, k->id, t->argc, t->argv);
}

/* ---- invalidating ---- */

static void remember_broadcast(tracking *t, slice key, int writer)
{
    for (size_t i = 0; i < t->nprefixes; i++) {
        tprefix *p = &t->prefixes[i];
        if (p->len > key.len || (p->len && memcmp(p->p, key.p, p->len) != 0)) continue;
        if (!p->changed) p->changed = dict_new(sizeof(int));
        *(int *)dict_put(p->changed, key, NULL) = writer;
    }
}

/* Redis's trackingInvalidateKey: writer the connection that changed the key (0: none, -1: a
 * script), bcast whether BCAST hears of it, defer whether a message for the running command's
 * connection waits until after its reply (during the command: Redis's fixed_time_expire). */
static void invalidate_key(tracking *t, slice key, int writer, int bcast, int defer)
{
    if (bcast && t->nprefixes) remember_broadcast(t, key, writer);
    idset *s = t->table ? dict_get(t->table, key) : NULL;
    if (!s) return;
    idset ids = *s; /* taken: sending may not touch the table, but the key goes first */
    dict_del(t->table, key);
    t->items -= ids.n;
    tmsg m = { .keys = &key, .nkeys = 1 };
    for (size_t i = 0; i < ids.n; i++) {
        tclient *k = client_find(t, ids.ids[i]);
        if (!k || !(k->flags & T_ON) || (k->flags & T_BCAST)) continue;
        int self = t->current && k->id == t->current->id;
        if ((k->flags & T_NOLOOP) && self) continue;
        if (self && defer) pending_add(t, key.p, key.len);
        else send_message(t, k, &m, 0);
    }
    free(ids.ids);
}

void tracking_key_changed(tracking *t, slice key, int expired)
{
    if (!t || (!t->table && !t->nprefixes)) return;
    invalidate_key(t, key, expired || !t->current ? 0 : t->in_script ? -1 : t->current->id, 1, 1);
}

static int slice_order(const void *a, const void *b)
{
    const slice *x = a, *y = b;
    return bytes_cmp(x->p, x->len, y->p, y->len);
}

void tracking_broadcast(tracking *t)
{
    if (!t || !t->ntracking) return;
    for (size_t i = 0; i < t->nprefixes; i++) {
        tprefix *p = &t->prefixes[i];
        size_t n = p->changed ? dict_size(p->changed) : 0;
        if (!n) continue;
        slice *keys = xmalloc(n * sizeof *keys);
        int *writers = xmalloc(n * sizeof *writers);
        size_t it = 0, j = 0;
        int *w;
        while ((w = dict_next(p->changed, &it))) keys[j++] = dict_key_of(p->changed, w);
        qsort(keys, n, sizeof *keys, slice_order);
        for (j = 0; j < n; j++) writers[j] = *(int *)dict_get(p->changed, keys[j]);
        slice *mine = xmalloc(n * sizeof *mine);
        for (size_t c = 0; c < p->nclients; c++) {
            tclient *k = client_find(t, p->clients[c]);
            if (!k) continue;
            tmsg m = { .keys = keys, .nkeys = n };
            if (k->flags & T_NOLOOP) { /* without the keys it changed itself */
                m.keys = mine;
                m.nkeys = 0;
                for (j = 0; j < n; j++)
                    if (writers[j] != k->id) mine[m.nkeys++] = keys[j];
                if (!m.nkeys) continue;
            }
            send_message(t, k, &m, 1);
        }
        free(mine);
        free(keys);
        free(writers);
        dict_free(p->changed, NULL);
        p->changed = NULL;
    }
}

/* Redis's trackingLimitUsedSlots: over tracking-table-max-keys, keys leave the table (each
 * invalidated as if changed), at most 100 × (rounds over the limit in a row) at a time; Redis
 * picks them by a random walk, this server in its table's order. Redis's cron comes back
 * every 100 ms until the table is under the limit: this server has no cron, so after a
 * command (`all`) it goes on until then. */
static void limit_keys(tracking *t, int all)
{
    if (!t->table || !t->max_keys || dict_size(t->table) <= t->max_keys) {
        t->evict_rounds = 0;
        return;
    }
    unsigned effort = 100 * (t->evict_rounds + 1);
    while (all || effort-- > 0) {
        size_t it = 0;
        void *p = dict_next(t->table, &it);
        if (!p) break;
        slice k = dict_key_of(t->table, p);
        char *key = xmemdup(k.p, k.len);
        invalidate_key(t, (slice){ key, k.len }, 0, 0, 0);
        free(key);
        if (!t->table || dict_size(t->table) <= t->max_keys) {
            t->evict_rounds = 0;
            return;
        }
    }
    t->evict_rounds++;
}

void tracking_set_max_keys(tracking *t, size_t n)
{
    t->max_keys = n;
}

/* ---- a command's bracket ---- */

static void pending_add(tracking *t, const char *key, size_t len)
{
    if (t->npending == t->cappending) {
        t->cappending = t->cappending ? 2 * t->cappending : 4;
        t->pending = xrealloc(t->pending, t->cappending * sizeof *t->pending);
    }
    t->pending[t->npending++] = (struct pending){ key ? xmemdup(key, len) : NULL, len };
}

void tracking_enter(tracking *t, conn *c, tracking_frame *f)
{
    f->current = t->current;
    f->before = t->before;
    f->after = t->after;
    f->pending = t->pending;
    f->npending = t->npending;
    f->cappending = t->cappending;
    t->pending = NULL;
    t->npending = t->cappending = 0;
    reply_init(&f->mine_before);
    reply_init(&f->mine_after);
    t->before = &f->mine_before;
    t->after = &f->mine_after;
    t->current = c;
    if (t->ntracking) limit_keys(t, 0); /* Redis's processCommand, before the command */
}

void tracking_leave(tracking *t, conn *c, int argc, const slice *argv, reply *out, tracking_frame *f)
{
    /* the invalidations held for c (Redis's trackingHandlePendingKeyInvalidations) */
    tclient *k = c ? client_find(t, c->id) : NULL;
    for (size_t i = 0; i < t->npending; i++) {
        if (k) {
            slice key = { t->pending[i].key, t->pending[i].len };
            tmsg m = { .keys = &key, .nkeys = 1, .flush = t->pending[i].key == NULL };
            send_message(t, k, &m, 1);
        }
        free(t->pending[i].key);
    }
    free(t->pending);
    if (t->ntracking) { /* and its cron's, later: no connection's doing, after the reply */
        conn *late = t->late;
        t->current = NULL;
        t->late = c;
        limit_keys(t, 1);
        t->late = late;
        t->current = c;
    }
    tracking_broadcast(t);
    /* CLIENT CACHING lasts for the next command, or the next transaction */
    if (k && (k->flags & T_CACHING) && !(argc >= 1 && slice_eq_nocase(argv[0], "client")) &&
        server_conn_multi(t->srv, c->id) < 0)
        k->flags &= ~T_CACHING;
    t->current = f->current;
    t->before = f->before;
    t->after = f->after;
    t->pending = f->pending;
    t->npending = f->npending;
    t->cappending = f->cappending;
    if (f->mine_before.type != REPLY_MULTI && f->mine_after.type != REPLY_MULTI) return;
    reply all;
    reply_init(&all);
    reply_multi(&all, 0);
    if (f->mine_before.type == REPLY_MULTI)
        for (size_t j = 0; j < f->mine_before.n; j++) reply_append(&all, &f->mine_before.elem[j]);
    if (out->type == REPLY_MULTI) {
        for (size_t j = 0; j < out->n; j++) reply_append(&all, &out->elem[j]);
    } else {
        reply_append(&all, out);
    }
    if (f->mine_after.type == REPLY_MULTI)
        for (size_t j = 0; j < f->mine_after.n; j++) reply_append(&all, &f->mine_after.elem[j]);
    reply_release(&f->mine_before);
    reply_release(&f->mine_after);
    reply_move(out, &all);
}

/* ---- connections: closing, CLIENT, INFO ---- */

static int prefix_find(const tracking *t, slice p, size_t *at)
{
    size_t i = 0;
    while (i < t->nprefixes && bytes_cmp(t->prefixes[i].p, t->prefixes[i].len, p.p, p.len) < 0) i++;
    *at = i;
    return i < t->nprefixes && bytes_cmp(t->prefixes[i].p, t->prefixes[i].len, p.p, p.len) == 0;
}

/* Redis's disableTracking. */
static void tracking_off(tracking *t, tclient *k)
{
    for (size_t i = 0; i < k->nprefixes; i++) {
        size_t at;
        if (prefix_find(t, k->prefixes[i], &at)) {
            tprefix *p = &t->prefixes[at];
            for (size_t j = 0; j < p->nclients; j++)
                if (p->clients[j] == k->id) {
                    memmove(&p->clients[j], &p->clients[j + 1], (p->nclients - j - 1) * sizeof *p->clients);
                    p->nclients--;
                    break;
                }
            if (!p->nclients) { /* its last connection: the prefix goes */
                prefix_release(p);
                memmove(p, p + 1, (t->nprefixes - at - 1) * sizeof *p);
                t->nprefixes--;
            }
        }
        free((char *)k->prefixes[i].p);
    }
    free(k->prefixes);
    k->prefixes = NULL;
    k->nprefixes = 0;
    if (k->flags & T_ON) t->ntracking--;
    k->flags = 0;
}

void tracking_conn_closed(tracking *t, int conn_id)
{
    tclient *k = t ? client_find(t, conn_id) : NULL;
    if (k) tracking_off(t, k);
}

/* Redis's enableBcastTrackingForPrefix. */
static void bcast_prefix(tracking *t, tclient *k, slice p)
{
    size_t at;
    if (!prefix_find(t, p, &at)) {
        t->prefixes = xrealloc(t->prefixes, (t->nprefixes + 1) * sizeof *t->prefixes);
        memmove(&t->prefixes[at + 1], &t->prefixes[at], (t->nprefixes - at) * sizeof *t->prefixes);
        t->nprefixes++;
        t->prefixes[at] = (tprefix){ .p = xmemdup(p.p, p.len), .len = p.len };
    }
    tprefix *tp = &t->prefixes[at];
    size_t j = 0;
    while (j < tp->nclients && tp->clients[j] < k->id) j++;
    if (j < tp->nclients && tp->clients[j] == k->id) return;
    tp->clients = xrealloc(tp->clients, (tp->nclients + 1) * sizeof *tp->clients);
    memmove(&tp->clients[j + 1], &tp->clients[j], (tp->nclients - j) * sizeof *tp->clients);
    tp->clients[j] = k->id;
    tp->nclients++;
    size_t i = 0;
    while (i < k->nprefixes && bytes_cmp(k->prefixes[i].p, k->prefixes[i].len, p.p, p.len) < 0) i++;
    k->prefixes = xrealloc(k->prefixes, (k->nprefixes + 1) * sizeof *k->prefixes);
    memmove(&k->prefixes[i + 1], &k->prefixes[i], (k->nprefixes - i) * sizeof *k->prefixes);
    k->prefixes[i] = (slice){ xmemdup(p.p, p.len), p.len };
    k->nprefixes++;
}

static int prefix_overlap(slice a, slice b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    return n == 0 || memcmp(a.p, b.p, n) == 0;
}

/* Redis's checkPrefixCollisionsOrReply (its messages print the prefixes as C strings). */
static int prefixes_ok(cmdctx *c, const tclient *k, const slice *pre, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; k && j < k->nprefixes; j++)
            if (prefix_overlap(k->prefixes[j], pre[i])) {
                reply_errorf(c->out,
                             "ERR Prefix '%.*s' overlaps with an existing prefix '%s'. Prefixes for a single client "
                             "must not overlap.",
                             (int)strnlen(pre[i].p, pre[i].len), pre[i].p, k->prefixes[j].p);
                return 0;
            }
        for (size_t j = i + 1; j < n; j++)
            if (prefix_overlap(pre[i], pre[j])) {
                reply_errorf(c->out,
                             "ERR Prefix '%.*s' overlaps with another provided prefix '%.*s'. Prefixes for a single "
                             "client must not overlap.",
                             (int)strnlen(pre[i].p, pre[i].len), pre[i].p, (int)strnlen(pre[j].p, pre[j].len),
                             pre[j].p);
                return 0;
            }
    }
    return 1;
}

tracking *server_tracking(server *srv)
{
    return srv->trk;
}

static tracking *tracking_of(cmdctx *c)
{
    return c->srv ? server_tracking(c->srv) : NULL;
}

/* CLIENT TRACKING ON|OFF [REDIRECT id] [BCAST] [PREFIX p ...] [OPTIN] [OPTOUT] [NOLOOP] */
void tracking_cmd_tracking(cmdctx *c)
{
    tracking *t = tracking_of(c);
    long long redir = 0;
    unsigned opts = 0;
    slice *pre = xmalloc((size_t)c->argc * sizeof *pre);
    size_t npre = 0;
    for (int j = 3; j < c->argc; j++) {
        int more = c->argc - 1 - j;
        slice a = c->argv[j];
        if (slice_opt_is(a, "redirect") && more) {
            j++;
            if (redir) {
                reply_error(c->out, "ERR A client can only redirect to a single other client");
                goto out;
            }
            if (ll_parse_int64(c->argv[j], &redir) < 0) {
                reply_error(c->out, ERR_NOT_INT);
                goto out;
            }
            struct find f;
            if (!t || !conn_lookup(t, redir, &f)) {
                reply_error(c->out, "ERR The client ID you want redirect to does not exist");
                goto out;
            }
        } else if (slice_opt_is(a, "bcast")) {
            opts |= T_BCAST;
        } else if (slice_opt_is(a, "optin")) {
            opts |= T_OPTIN;
        } else if (slice_opt_is(a, "optout")) {
            opts |= T_OPTOUT;
        } else if (slice_opt_is(a, "noloop")) {
            opts |= T_NOLOOP;
        } else if (slice_opt_is(a, "prefix") && more) {
            pre[npre++] = c->argv[++j];
        } else {
            reply_error(c->out, ERR_SYNTAX);
            goto out;
        }
    }
    tclient *k = t && c->conn ? client_find(t, c->conn->id) : NULL;
    unsigned now = k ? k->flags : 0;
    if (slice_opt_is(c->argv[2], "on")) {
        const char *err = NULL;
        if (!(opts & T_BCAST) && npre)
            err = "ERR PREFIX option requires BCAST mode to be enabled";
        else if ((now & T_ON) && !!(now & T_BCAST) != !!(opts & T_BCAST))
            err = "ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then "
                  "re-enabling it with a different mode.";
        else if ((opts & T_BCAST) && (opts & (T_OPTIN | T_OPTOUT)))
            err = "ERR OPTIN and OPTOUT are not compatible with BCAST";
        else if ((opts & T_OPTIN) && (opts & T_OPTOUT))
            err = "ERR You can't specify both OPTIN mode and OPTOUT mode";
        else if (((opts & T_OPTIN) && (now & T_OPTOUT)) || ((opts & T_OPTOUT) && (now & T_OPTIN)))
            err = "ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then "
                  "re-enabling it with a different mode.";
        if (err) {
            reply_error(c->out, err);
            goto out;
        }
        if ((opts & T_BCAST) && !prefixes_ok(c, k, pre, npre)) goto out;
        if (!t || !c->conn) {
            reply_error(c->out, "ERR CLIENT TRACKING needs a connection"); /* a script's: never reached */
            goto out;
        }
        k = client_get(t, c->conn->id);
        if (!(k->flags & T_ON)) t->ntracking++;
        k->flags = (k->flags & T_CACHING) | T_ON | (opts & (T_OPTIN | T_OPTOUT | T_NOLOOP));
        k->redir = redir;
        if (opts & T_BCAST) {
            k->flags |= T_BCAST;
            if (!npre) bcast_prefix(t, k, (slice){ "", 0 });
            for (size_t i = 0; i < npre; i++) bcast_prefix(t, k, pre[i]);
        }
        watch_hook_update(c->srv);
    } else if (slice_opt_is(c->argv[2], "off")) {
        if (k) tracking_off(t, k);
    } else {
        reply_error(c->out, ERR_SYNTAX);
        goto out;
    }
    reply_ok(c->out);
out:
    free(pre);
}

/* CLIENT CACHING YES|NO */
void tracking_cmd_caching(cmdctx *c)
{
    tracking *t = tracking_of(c);
    tclient *k = t && c->conn ? client_find(t, c->conn->id) : NULL;
    if (!k || !(k->flags & T_ON)) {
        reply_error(c->out, "ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or "
                            "OPTOUT mode enabled");
    } else if (slice_opt_is(c->argv[2], "yes")) {
        if (k->flags & T_OPTIN) {
            k->flags |= T_CACHING;
            reply_ok(c->out);
        } else {
            reply_error(c->out, "ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
        }
    } else if (slice_opt_is(c->argv[2], "no")) {
        if (k->flags & T_OPTOUT) {
            k->flags |= T_CACHING;
            reply_ok(c->out);
        } else {
            reply_error(c->out, "ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
        }
    } else {
        reply_error(c->out, ERR_SYNTAX);
    }
}

void tracking_cmd_getredir(cmdctx *c)
{
    tracking *t = tracking_of(c);
    tclient *k = t && c->conn ? client_find(t, c->conn->id) : NULL;
    reply_int(c->out, k && (k->flags & T_ON) ? k->redir : -1);
}

/* CLIENT TRACKINGINFO: a map of flags (a set), redirect, prefixes. */
void tracking_cmd_trackinginfo(cmdctx *c)
{
    tracking *t = tracking_of(c);
    tclient *k = t && c->conn ? client_find(t, c->conn->id) : NULL;
    unsigned fl = k ? k->flags : 0;
    const char *names[8];
    size_t n = 0;
    names[n++] = fl & T_ON ? "on" : "off";
    if (fl & T_BCAST) names[n++] = "bcast";
    if (fl & T_OPTIN) {
        names[n++] = "optin";
        if (fl & T_CACHING) names[n++] = "caching-yes";
    }
    if (fl & T_OPTOUT) {
        names[n++] = "optout";
        if (fl & T_CACHING) names[n++] = "caching-no";
    }
    if (fl & T_NOLOOP) names[n++] = "noloop";
    if (fl & T_BROKEN) names[n++] = "broken_redirect";
    reply *m = reply_array(c->out, 6);
    c->out->integer = R3_MAP;
    reply_bulk_cstr(&m[0], "flags");
    reply *f = reply_array(&m[1], n);
    m[1].integer = R3_SET;
    for (size_t i = 0; i < n; i++) reply_bulk_cstr(&f[i], names[i]);
    reply_bulk_cstr(&m[2], "redirect");
    reply_int(&m[3], fl & T_ON ? k->redir : -1);
    reply_bulk_cstr(&m[4], "prefixes");
    size_t np = k ? k->nprefixes : 0;
    reply *p = reply_array(&m[5], np);
    for (size_t i = 0; i < np; i++) reply_bulk(&p[i], k->prefixes[i].p, k->prefixes[i].len);
}

long long tracking_client_flags(server *srv, int conn_id, char **p)
{
    tracking *t = server_tracking(srv);
    tclient *k = t ? client_find(t, conn_id) : NULL;
    if (!k || !(k->flags & T_ON)) return -1;
    *(*p)++ = 't';
    if (k->flags & T_BROKEN) *(*p)++ = 'R';
    if (k->flags & T_BCAST) *(*p)++ = 'B';
    return k->redir;
}

void tracking_info_clients(server *srv, buf *out)
{
    tracking *t = server_tracking(srv);
    buf_printf(out, "tracking_clients:%d\r\n", t ? t->ntracking : 0);
}

void tracking_info_stats(server *srv, buf *out)
{
    tracking *t = server_tracking(srv);
    buf_printf(out, "tracking_total_keys:%zu\r\ntracking_total_items:%zu\r\ntracking_total_prefixes:%zu\r\n",
               t && t->table ? dict_size(t->table) : 0, t ? t->items : 0, t ? t->nprefixes : 0);
}
