/* tracking.c — client-side caching, as Redis 7.0.15's tracking.c does it (see tracking.h;
 * CLIENT TRACKING and its kin are tracking_client.c's, the state both share trackingint.h):
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
 *   - tracking-table-max-keys (1,000,000 by default): past it keys leave the table, each
 *     invalidated (limit_keys). */
#include "tracking.h"

#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "serverint.h"
#include "trackingint.h"

/* ---- bookkeeping ---- */

static void pending_add(tracking *t, const char *key, size_t len);

int trk_bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
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

void trk_prefix_release(tprefix *p)
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
    for (size_t i = 0; i < t->nprefixes; i++) trk_prefix_release(&t->prefixes[i]);
    free(t->prefixes);
    for (size_t i = 0; i < t->npending; i++) free(t->pending[i].key);
    free(t->pending);
    free(t);
}

tclient *trk_client_find(const tracking *t, int id)
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

tclient *trk_client_get(tracking *t, int id)
{
    tclient *k = trk_client_find(t, id);
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

static void find_visit(void *arg, const conn *c, const conn_peer *p)
{
    (void)p;
    struct trk_find *f = arg;
    if (c->id != f->id || f->found) return;
    f->found = c;
    f->resp = c->resp;
    f->pubsub = c->subscriptions > 0 || c->shard_subscriptions > 0;
}

/* Whether connection id is open (its protocol and pub/sub mode in *f). Without a host the
 * running command's connection is the only one. */
int trk_conn_lookup(tracking *t, long long id, struct trk_find *f)
{
    *f = (struct trk_find){ .id = (int)id };
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
    struct trk_find self, dest;
    if (!trk_conn_lookup(t, k->id, &self)) return;
    int redirected = 0;
    if (k->redir) {
        if (!trk_conn_lookup(t, k->redir, &dest)) {
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
static void remember_command_keys(tracking *t, int id, const command *cmd, int argc, const slice *argv)
{
    const char *name = cmd->name;
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
    tclient *k = trk_client_find(t, c->id);
    if (remembers(k)) remember_command_keys(t, c->id, cmd, argc, argv);
}

void tracking_script_call(tracking *t, int argc, const slice *argv, const reply *r)
{
    if (argc < 1) return;
    if ((slice_eq_nocase(argv[0], "flushall") || slice_eq_nocase(argv[0], "flushdb")) && r->type == REPLY_STATUS) {
        invalidate_all(t); /* a script's FLUSHALL, as server_run_command's */
        return;
    }
    if (!t->ntracking || !t->current || !t->argv) return;
    tclient *k = trk_client_find(t, t->current->id);
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
        tclient *k = trk_client_find(t, ids.ids[i]);
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
    return trk_bytes_cmp(x->p, x->len, y->p, y->len);
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
            tclient *k = trk_client_find(t, p->clients[c]);
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
    tclient *k = c ? trk_client_find(t, c->id) : NULL;
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
