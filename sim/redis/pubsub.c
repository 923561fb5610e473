/* pubsub.c — channels and subscriptions (see pubsub.h), and the PUBLISH / SUBSCRIBE /
 * UNSUBSCRIBE commands.
 *
 * A channel maps to the array of its subscribers' connection ids in subscription order; a
 * connection maps to the array of its channels in subscription order (what UNSUBSCRIBE with
 * no arguments walks). Both are small in lock workloads: linear scans are fine. */
#include "pubsub.h"

#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dict.h"

typedef struct idvec {
    int *v;
    size_t n, cap;
} idvec;

typedef struct chanvec {
    slice *v;          /* each p is an owned copy */
    size_t n, cap;
} chanvec;

struct pubsub {
    dict *channels; /* channel -> idvec */
    dict *conns;    /* conn id (as bytes) -> chanvec */
    pubsub_deliver_fn deliver;
    void *ud;
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

pubsub *pubsub_new(pubsub_deliver_fn deliver, void *ud)
{
    pubsub *ps = xcalloc(1, sizeof *ps);
    ps->channels = dict_new(sizeof(idvec));
    ps->conns = dict_new(sizeof(chanvec));
    ps->deliver = deliver;
    ps->ud = ud;
    return ps;
}

void pubsub_free(pubsub *ps)
{
    if (!ps) return;
    dict_free(ps->channels, idvec_release);
    dict_free(ps->conns, chanvec_release);
    free(ps);
}

static slice conn_key(const int *id)
{
    return (slice){ (const char *)id, sizeof *id };
}

int pubsub_subscribe(pubsub *ps, int conn_id, slice channel)
{
    idvec *iv = dict_put(ps->channels, channel, NULL);
    for (size_t i = 0; i < iv->n; i++)
        if (iv->v[i] == conn_id) return 0;
    if (iv->n == iv->cap) {
        iv->cap = iv->cap ? iv->cap * 2 : 4;
        iv->v = xrealloc(iv->v, iv->cap * sizeof *iv->v);
    }
    iv->v[iv->n++] = conn_id;
    chanvec *cv = dict_put(ps->conns, conn_key(&conn_id), NULL);
    if (cv->n == cv->cap) {
        cv->cap = cv->cap ? cv->cap * 2 : 4;
        cv->v = xrealloc(cv->v, cv->cap * sizeof *cv->v);
    }
    cv->v[cv->n++] = (slice){ xmemdup(channel.p, channel.len), channel.len };
    return 1;
}

int pubsub_unsubscribe(pubsub *ps, int conn_id, slice channel)
{
    idvec *iv = dict_get(ps->channels, channel);
    if (!iv) return 0;
    size_t i = 0;
    while (i < iv->n && iv->v[i] != conn_id) i++;
    if (i == iv->n) return 0;
    memmove(&iv->v[i], &iv->v[i + 1], (iv->n - i - 1) * sizeof *iv->v);
    if (--iv->n == 0) {
        idvec_release(iv);
        dict_del(ps->channels, channel);
    }
    chanvec *cv = dict_get(ps->conns, conn_key(&conn_id));
    LL_ASSERT(cv);
    for (size_t j = 0; j < cv->n; j++) {
        if (!slice_eq(cv->v[j], channel)) continue;
        free((void *)cv->v[j].p);
        memmove(&cv->v[j], &cv->v[j + 1], (cv->n - j - 1) * sizeof *cv->v);
        cv->n--;
        break;
    }
    if (cv->n == 0) {
        chanvec_release(cv);
        dict_del(ps->conns, conn_key(&conn_id));
    }
    return 1;
}

void pubsub_drop_conn(pubsub *ps, int conn_id)
{
    size_t n;
    const slice *chans;
    while ((chans = pubsub_channels_of(ps, conn_id, &n)) && n > 0) {
        /* Copy: unsubscribing frees the slice we pass. */
        slice ch = chans[0];
        char *copy = xmemdup(ch.p, ch.len);
        pubsub_unsubscribe(ps, conn_id, (slice){ copy, ch.len });
        free(copy);
    }
}

/* Delivers message to the subscribers in iv; returns how many. Out of line, so that a
 * PUBLISH nobody hears (a lock released with no waiters) needs no stack frame. */
static __attribute__((noinline)) long long deliver_all(pubsub *ps, const idvec *iv, slice channel,
                                                       slice message)
{
    /* A delivery callback may not change subscriptions; copy to be safe anyway. */
    size_t n = iv->n;
    int small[16];
    int *ids = n <= 16 ? small : xmalloc(n * sizeof *ids);
    memcpy(ids, iv->v, n * sizeof *ids);
    if (ps->deliver)
        for (size_t i = 0; i < n; i++) ps->deliver(ps->ud, ids[i], channel, message);
    if (ids != small) free(ids);
    return (long long)n;
}

long long pubsub_publish(pubsub *ps, slice channel, slice message)
{
    const idvec *iv = dict_get(ps->channels, channel);
    return iv ? deliver_all(ps, iv, channel, message) : 0;
}

void pubsub_message_reply(reply *out, slice channel, slice message)
{
    reply *e = reply_array(out, 3);
    reply_bulk_cstr(&e[0], "message");
    reply_bulk(&e[1], channel.p, channel.len);
    reply_bulk(&e[2], message.p, message.len);
}

size_t pubsub_count(const pubsub *ps, slice channel)
{
    idvec *iv = dict_get(ps->channels, channel);
    return iv ? iv->n : 0;
}

const slice *pubsub_channels_of(pubsub *ps, int conn_id, size_t *n)
{
    chanvec *cv = dict_get(ps->conns, conn_key(&conn_id));
    *n = cv ? cv->n : 0;
    return cv ? cv->v : NULL;
}

/* ---- commands ---- */

void cmd_publish(cmdctx *c)
{
    reply_int(c->out, pubsub_publish(c->ps, c->argv[1], c->argv[2]));
}

static void confirm(reply *r, const char *kind, slice channel, int count)
{
    reply *e = reply_array(r, 3);
    reply_bulk_cstr(&e[0], kind);
    if (channel.p) reply_bulk(&e[1], channel.p, channel.len);
    reply_int(&e[2], count);
}

/* SUBSCRIBE answers one confirmation per channel, each a separate reply. Scripts and
 * connection-less callers cannot subscribe (the command is flagged NOSCRIPT). */
void cmd_subscribe(cmdctx *c)
{
    pubsub *ps = c->ps;
    reply *e = reply_multi(c->out, (size_t)c->argc - 1);
    for (int i = 1; i < c->argc; i++) {
        if (pubsub_subscribe(ps, c->conn->id, c->argv[i])) c->conn->subscriptions++;
        confirm(&e[i - 1], "subscribe", c->argv[i], c->conn->subscriptions);
    }
}

void cmd_unsubscribe(cmdctx *c)
{
    pubsub *ps = c->ps;
    if (c->argc == 1) {
        size_t n;
        const slice *chans = pubsub_channels_of(ps, c->conn->id, &n);
        if (n == 0) {
            confirm(c->out, "unsubscribe", (slice){ NULL, 0 }, 0);
            return;
        }
        /* Copy the names first: unsubscribing frees them. */
        slice *names = xmalloc(n * sizeof *names);
        for (size_t i = 0; i < n; i++) names[i] = (slice){ xmemdup(chans[i].p, chans[i].len), chans[i].len };
        reply *e = reply_multi(c->out, n);
        for (size_t i = 0; i < n; i++) {
            if (pubsub_unsubscribe(ps, c->conn->id, names[i])) c->conn->subscriptions--;
            confirm(&e[i], "unsubscribe", names[i], c->conn->subscriptions);
            free((void *)names[i].p);
        }
        free(names);
        return;
    }
    reply *e = reply_multi(c->out, (size_t)c->argc - 1);
    for (int i = 1; i < c->argc; i++) {
        if (pubsub_unsubscribe(ps, c->conn->id, c->argv[i])) c->conn->subscriptions--;
        confirm(&e[i - 1], "unsubscribe", c->argv[i], c->conn->subscriptions);
    }
}
