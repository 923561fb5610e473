/* pubsub.c — channels, patterns, shard channels and subscriptions (see pubsub.h), and the
 * commands: PUBLISH, SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, SPUBLISH, SSUBSCRIBE,
 * SUNSUBSCRIBE and PUBSUB (CHANNELS, NUMSUB, NUMPAT, SHARDCHANNELS, SHARDNUMSUB, HELP), with
 * Redis 7.0.15's replies (pubsub.c there).
 *
 * Three tables of the same shape, for channels, patterns and shard channels: a name maps to the
 * array of its subscribers' connection ids in subscription order; a connection maps to the
 * array of its names in subscription order (what UNSUBSCRIBE / PUNSUBSCRIBE with no
 * arguments walk). Patterns also keep the order they were first subscribed in, which is
 * the order PUBLISH tries them. All are small in lock workloads: linear scans are fine.
 * A connection's subscription count (conn.h) is its channels plus its patterns, as Redis's
 * clientSubscriptionsCount, and its shard channels are counted apart
 * (clientShardSubscriptionsCount); it is in subscribe mode while either is above 0. */
#include "pubsub.h"

#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "dict.h"

typedef struct idvec {
    int *v;
    size_t n, cap;
} idvec;

typedef struct chanvec {
    slice *v;          /* each p is an owned copy */
    size_t n, cap;
} chanvec;

/* One kind of subscription: channels or patterns. */
typedef struct subtable {
    dict *names;    /* name -> idvec */
    dict *conns;    /* conn id (as bytes) -> chanvec */
} subtable;

enum { CHANNELS, PATTERNS, SHARDS, KINDS };

struct pubsub {
    subtable t[KINDS];
    chanvec order;  /* the patterns subscribed, in the order first subscribed */
    pubsub_deliver_fn deliver;
    pubsub_push_fn push;
    void *ud;
    dict *resp3;    /* conn id (as bytes) -> nothing: the RESP3 connections; made on first use */
};

static void idvec_release(void *p)
{
    free(((idvec *)p)->v);
}

static void chanvec_release(void *p)
{
    chanvec *cv = p;
    for (size_t i = 0; i < cv->n; i++) free((void *)cv->v[i].p);
    free(cv->v);
}

static void chanvec_push(chanvec *cv, slice name)
{
    if (cv->n == cv->cap) {
        cv->cap = cv->cap ? cv->cap * 2 : 4;
        cv->v = xrealloc(cv->v, cv->cap * sizeof *cv->v);
    }
    cv->v[cv->n++] = (slice){ xmemdup(name.p, name.len), name.len };
}

static void chanvec_remove(chanvec *cv, slice name)
{
    for (size_t j = 0; j < cv->n; j++) {
        if (!slice_eq(cv->v[j], name)) continue;
        free((void *)cv->v[j].p);
        memmove(&cv->v[j], &cv->v[j + 1], (cv->n - j - 1) * sizeof *cv->v);
        cv->n--;
        return;
    }
}

pubsub *pubsub_new(pubsub_deliver_fn deliver, pubsub_push_fn push, void *ud)
{
    pubsub *ps = xcalloc(1, sizeof *ps);
    for (int k = 0; k < KINDS; k++) {
        ps->t[k].names = dict_new(sizeof(idvec));
        ps->t[k].conns = dict_new(sizeof(chanvec));
    }
    ps->deliver = deliver;
    ps->push = push;
    ps->ud = ud;
    return ps;
}

void pubsub_free(pubsub *ps)
{
    if (!ps) return;
    for (int k = 0; k < KINDS; k++) {
        dict_free(ps->t[k].names, idvec_release);
        dict_free(ps->t[k].conns, chanvec_release);
    }
    chanvec_release(&ps->order);
    if (ps->resp3) dict_free(ps->resp3, NULL);
    free(ps);
}

static slice conn_key(const int *id)
{
    return (slice){ (const char *)id, sizeof *id };
}

static int sub_add(pubsub *ps, int kind, int conn_id, slice name)
{
    subtable *t = &ps->t[kind];
    int existed;
    idvec *iv = dict_put(t->names, name, &existed);
    for (size_t i = 0; i < iv->n; i++)
        if (iv->v[i] == conn_id) return 0;
    if (!existed && kind == PATTERNS) chanvec_push(&ps->order, name);
    if (iv->n == iv->cap) {
        iv->cap = iv->cap ? iv->cap * 2 : 4;
        iv->v = xrealloc(iv->v, iv->cap * sizeof *iv->v);
    }
    iv->v[iv->n++] = conn_id;
    chanvec_push(dict_put(t->conns, conn_key(&conn_id), NULL), name);
    return 1;
}

static int sub_remove(pubsub *ps, int kind, int conn_id, slice name)
{
    subtable *t = &ps->t[kind];
    idvec *iv = dict_get(t->names, name);
    if (!iv) return 0;
    size_t i = 0;
    while (i < iv->n && iv->v[i] != conn_id) i++;
    if (i == iv->n) return 0;
    memmove(&iv->v[i], &iv->v[i + 1], (iv->n - i - 1) * sizeof *iv->v);
    chanvec *cv = dict_get(t->conns, conn_key(&conn_id));
    LL_ASSERT(cv);
    if (--iv->n == 0) {
        if (kind == PATTERNS) chanvec_remove(&ps->order, name);
        idvec_release(iv);
        dict_del(t->names, name); /* name may be cv's copy: remove that one last */
    }
    chanvec_remove(cv, name);
    if (cv->n == 0) {
        chanvec_release(cv);
        dict_del(t->conns, conn_key(&conn_id));
    }
    return 1;
}

int pubsub_subscribe(pubsub *ps, int conn_id, slice channel) { return sub_add(ps, CHANNELS, conn_id, channel); }
int pubsub_unsubscribe(pubsub *ps, int conn_id, slice channel) { return sub_remove(ps, CHANNELS, conn_id, channel); }

static const slice *names_of(pubsub *ps, int kind, int conn_id, size_t *n)
{
    chanvec *cv = dict_get(ps->t[kind].conns, conn_key(&conn_id));
    *n = cv ? cv->n : 0;
    return cv ? cv->v : NULL;
}

const slice *pubsub_channels_of(pubsub *ps, int conn_id, size_t *n) { return names_of(ps, CHANNELS, conn_id, n); }
const slice *pubsub_patterns_of(pubsub *ps, int conn_id, size_t *n) { return names_of(ps, PATTERNS, conn_id, n); }
const slice *pubsub_shards_of(pubsub *ps, int conn_id, size_t *n) { return names_of(ps, SHARDS, conn_id, n); }

void pubsub_set_resp3(pubsub *ps, int conn_id, int on)
{
    if (on) {
        if (!ps->resp3) ps->resp3 = dict_new(1);
        dict_put(ps->resp3, conn_key(&conn_id), NULL);
    } else if (ps->resp3) {
        dict_del(ps->resp3, conn_key(&conn_id));
    }
}

static int is_resp3(const pubsub *ps, int conn_id)
{
    return ps->resp3 && dict_size(ps->resp3) && dict_get(ps->resp3, conn_key(&conn_id));
}

/* Hands m (a RESP2 array) to conn through the push callback, as a RESP3 push to a RESP3
 * connection. */
static void push_to(pubsub *ps, int conn_id, reply *m)
{
    if (!ps->push) return;
    int r3 = is_resp3(ps, conn_id);
    if (r3) m->type = REPLY_PUSH;
    ps->push(ps->ud, conn_id, m);
    if (r3) m->type = REPLY_ARRAY;
}

void pubsub_drop_conn(pubsub *ps, int conn_id)
{
    pubsub_set_resp3(ps, conn_id, 0);
    for (int kind = 0; kind < KINDS; kind++) {
        size_t n;
        const slice *names;
        while ((names = names_of(ps, kind, conn_id, &n)) && n > 0) {
            /* Copy: unsubscribing frees the slice we pass. */
            char *copy = xmemdup(names[0].p, names[0].len);
            sub_remove(ps, kind, conn_id, (slice){ copy, names[0].len });
            free(copy);
        }
    }
}

/* The ids of iv, copied: a delivery may not change subscriptions, but be safe anyway. */
static int *ids_copy(const idvec *iv, int *small)
{
    int *ids = iv->n <= 16 ? small : xmalloc(iv->n * sizeof *ids);
    memcpy(ids, iv->v, iv->n * sizeof *ids);
    return ids;
}

/* Delivers message to everyone listening; returns how many. Out of line, so that a PUBLISH
 * nobody hears (a lock released with no waiters) needs no stack frame. */
static __attribute__((noinline)) long long deliver_all(pubsub *ps, const idvec *iv, slice channel,
                                                       slice message)
{
    long long count = 0;
    int small[16];
    if (iv) {
        size_t n = iv->n;
        int *ids = ids_copy(iv, small);
        if (ps->deliver)
            for (size_t i = 0; i < n; i++) {
                if (is_resp3(ps, ids[i])) {
                    reply m;
                    reply_init(&m);
                    pubsub_message_reply(&m, channel, message);
                    push_to(ps, ids[i], &m);
                    reply_release(&m);
                } else {
                    ps->deliver(ps->ud, ids[i], channel, message);
                }
            }
        if (ids != small) free(ids);
        count += (long long)n;
    }
    for (size_t p = 0; p < ps->order.n; p++) {
        slice pat = ps->order.v[p];
        if (!glob_match(pat.p, pat.len, channel.p, channel.len)) continue;
        const idvec *pv = dict_get(ps->t[PATTERNS].names, pat);
        size_t n = pv->n;
        int *ids = ids_copy(pv, small);
        reply m;
        reply_init(&m);
        pubsub_pmessage_reply(&m, pat, channel, message);
        for (size_t i = 0; i < n; i++) push_to(ps, ids[i], &m);
        reply_release(&m);
        if (ids != small) free(ids);
        count += (long long)n;
    }
    return count;
}

long long pubsub_publish(pubsub *ps, slice channel, slice message)
{
    const idvec *iv = dict_get(ps->t[CHANNELS].names, channel);
    return iv || ps->order.n ? deliver_all(ps, iv, channel, message) : 0;
}

void pubsub_message_reply(reply *out, slice channel, slice message)
{
    reply *e = reply_array(out, 3);
    reply_bulk_cstr(&e[0], "message");
    reply_bulk(&e[1], channel.p, channel.len);
    reply_bulk(&e[2], message.p, message.len);
}

void pubsub_pmessage_reply(reply *out, slice pattern, slice channel, slice message)
{
    reply *e = reply_array(out, 4);
    reply_bulk_cstr(&e[0], "pmessage");
    reply_bulk(&e[1], pattern.p, pattern.len);
    reply_bulk(&e[2], channel.p, channel.len);
    reply_bulk(&e[3], message.p, message.len);
}

long long pubsub_spublish(pubsub *ps, slice channel, slice message)
{
    const idvec *iv = dict_get(ps->t[SHARDS].names, channel);
    if (!iv) return 0;
    size_t n = iv->n;
    int small[16];
    int *ids = ids_copy(iv, small);
    reply m;
    reply_init(&m);
    reply *e = reply_array(&m, 3);
    reply_bulk_cstr(&e[0], "smessage");
    reply_bulk(&e[1], channel.p, channel.len);
    reply_bulk(&e[2], message.p, message.len);
    for (size_t i = 0; i < n; i++) push_to(ps, ids[i], &m);
    reply_release(&m);
    if (ids != small) free(ids);
    return (long long)n;
}

size_t pubsub_count(const pubsub *ps, slice channel)
{
    idvec *iv = dict_get(ps->t[CHANNELS].names, channel);
    return iv ? iv->n : 0;
}

/* ---- commands ---- */

void cmd_publish(cmdctx *c)
{
    reply_int(c->out, pubsub_publish(c->ps, c->argv[1], c->argv[2]));
}

static void confirm(reply *r, const char *kind, slice channel, int count)
{
    reply *e = reply_array(r, 3);
    reply_tag(r, R3_PUSH); /* a push in RESP3 */
    reply_bulk_cstr(&e[0], kind);
    if (channel.p) reply_bulk(&e[1], channel.p, channel.len);
    reply_int(&e[2], count);
}

/* The count a confirmation carries: channels and patterns together, shard channels apart. */
static int *count_of(cmdctx *c, int kind)
{
    return kind == SHARDS ? &c->conn->shard_subscriptions : &c->conn->subscriptions;
}

/* SUBSCRIBE / PSUBSCRIBE / SSUBSCRIBE answer one confirmation per name, each a separate
 * reply. Scripts and connection-less callers cannot subscribe (the commands are NOSCRIPT). */
static void subscribe_generic(cmdctx *c, int kind)
{
    static const char *const what[] = { "subscribe", "psubscribe", "ssubscribe" };
    int *count = count_of(c, kind);
    reply *e = reply_multi(c->out, (size_t)c->argc - 1);
    for (int i = 1; i < c->argc; i++) {
        if (sub_add(c->ps, kind, c->conn->id, c->argv[i])) ++*count;
        confirm(&e[i - 1], what[kind], c->argv[i], *count);
    }
}

static void unsubscribe_generic(cmdctx *c, int kind)
{
    static const char *const whats[] = { "unsubscribe", "punsubscribe", "sunsubscribe" };
    const char *what = whats[kind];
    int *count = count_of(c, kind);
    if (c->argc == 1) {
        size_t n;
        const slice *chans = names_of(c->ps, kind, c->conn->id, &n);
        if (n == 0) {
            confirm(c->out, what, (slice){ NULL, 0 }, *count);
            return;
        }
        /* Copy the names first: unsubscribing frees them. */
        slice *names = xmalloc(n * sizeof *names);
        for (size_t i = 0; i < n; i++) names[i] = (slice){ xmemdup(chans[i].p, chans[i].len), chans[i].len };
        reply *e = reply_multi(c->out, n);
        for (size_t i = 0; i < n; i++) {
            if (sub_remove(c->ps, kind, c->conn->id, names[i])) --*count;
            confirm(&e[i], what, names[i], *count);
            free((void *)names[i].p);
        }
        free(names);
        return;
    }
    reply *e = reply_multi(c->out, (size_t)c->argc - 1);
    for (int i = 1; i < c->argc; i++) {
        if (sub_remove(c->ps, kind, c->conn->id, c->argv[i])) --*count;
        confirm(&e[i - 1], what, c->argv[i], *count);
    }
}

void cmd_subscribe(cmdctx *c) { subscribe_generic(c, CHANNELS); }
void cmd_unsubscribe(cmdctx *c) { unsubscribe_generic(c, CHANNELS); }
void cmd_psubscribe(cmdctx *c) { subscribe_generic(c, PATTERNS); }
void cmd_punsubscribe(cmdctx *c) { unsubscribe_generic(c, PATTERNS); }
void cmd_ssubscribe(cmdctx *c) { subscribe_generic(c, SHARDS); }
void cmd_sunsubscribe(cmdctx *c) { unsubscribe_generic(c, SHARDS); }

void cmd_spublish(cmdctx *c)
{
    reply_int(c->out, pubsub_spublish(c->ps, c->argv[1], c->argv[2]));
}

static const char *const pubsub_help[] = {
    "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CHANNELS [<pattern>]",
    "    Return the currently active channels matching a <pattern> (default: '*').",
    "NUMPAT",
    "    Return number of subscriptions to patterns.",
    "NUMSUB [<channel> ...]",
    "    Return the number of subscribers for the specified channels, excluding",
    "    pattern subscriptions(default: no channels).",
    "SHARDCHANNELS [<pattern>]",
    "    Return the currently active shard level channels matching a <pattern> (default: '*').",
    "SHARDNUMSUB [<shardchannel> ...]",
    "    Return the number of subscribers for the specified shard level channel(s)",
    "HELP",
    "    Prints this help.",
};

/* PUBSUB CHANNELS: the channels with a subscriber matching the pattern, in the table's
 * order (Redis's is its own dict's: a client must not rely on either). */
static void pubsub_channels(cmdctx *c, dict *names)
{
    slice pat = c->argc == 3 ? c->argv[2] : (slice){ NULL, 0 };
    size_t n = 0, it = 0;
    void *p;
    while ((p = dict_next(names, &it))) {
        slice k = dict_key_of(names, p);
        n += !pat.p || glob_match(pat.p, pat.len, k.p, k.len);
    }
    reply *e = reply_array(c->out, n);
    it = 0;
    for (size_t i = 0; (p = dict_next(names, &it));) {
        slice k = dict_key_of(names, p);
        if (!pat.p || glob_match(pat.p, pat.len, k.p, k.len)) reply_bulk(&e[i++], k.p, k.len);
    }
}

void cmd_pubsub(cmdctx *c)
{
    slice sub = c->argv[1];
    if (c->argc == 2 && slice_opt_is(sub, "help")) {
        reply *e = reply_array(c->out, LL_ARRAY_LEN(pubsub_help));
        for (size_t i = 0; i < LL_ARRAY_LEN(pubsub_help); i++) reply_status(&e[i], pubsub_help[i]);
    } else if (slice_opt_is(sub, "channels") && (c->argc == 2 || c->argc == 3)) {
        pubsub_channels(c, c->ps->t[CHANNELS].names);
    } else if (slice_opt_is(sub, "shardchannels") && (c->argc == 2 || c->argc == 3)) {
        pubsub_channels(c, c->ps->t[SHARDS].names);
    } else if (slice_opt_is(sub, "numpat") && c->argc == 2) {
        reply_int(c->out, (long long)dict_size(c->ps->t[PATTERNS].names));
    } else if (slice_opt_is(sub, "numsub") || slice_opt_is(sub, "shardnumsub")) {
        int shard = slice_opt_is(sub, "shardnumsub");
        reply *e = reply_array(c->out, (size_t)(c->argc - 2) * 2);
        for (int i = 2; i < c->argc; i++) {
            reply_bulk(&e[(i - 2) * 2], c->argv[i].p, c->argv[i].len);
            const idvec *iv = dict_get(c->ps->t[shard ? SHARDS : CHANNELS].names, c->argv[i]);
            reply_int(&e[(i - 2) * 2 + 1], iv ? (long long)iv->n : 0);
        }
    } else {
        const char *names[] = { "channels", "shardchannels", "numpat", "numsub", "shardnumsub", "help" };
        for (size_t i = 0; i < LL_ARRAY_LEN(names); i++)
            if (slice_opt_is(sub, names[i])) {
                reply_errorf(c->out, "ERR wrong number of arguments for 'pubsub|%s' command", names[i]);
                return;
            }
        slice s = slice_cstr_prefix(sub);
        reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try PUBSUB HELP.", (int)(s.len < 128 ? s.len : 128), s.p);
        for (size_t i = 0; i < c->out->len; i++)
            if (c->out->str[i] == '\r' || c->out->str[i] == '\n') c->out->str[i] = ' ';
    }
}
