/* etcd_watch.c — an etcd member's watches (mvcc/watchable_store.go): a watch on a key or a
 * range from a revision reports every change at that revision or later, those already in the
 * history first, in order; its topic is how a client names it (SUBSCRIBE "key KEY from REV",
 * "prefix KEY from REV"). */
#include <stdlib.h>
#include <string.h>

#include "etcd.h"

void etcd_watch_release(etcd_watch *w)
{
    free(w->topic);
    free(w->key);
    free(w->end);
}

static void push_event(etcd *s, const etcd_watch *w, const eevent *e)
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "%s %lld ", e->del ? "DELETE" : "PUT", (long long)e->kv.mod_rev);
    buf_append(&b, e->kv.key, e->kv.klen);
    s->host.push(s->host.ud, w->client, slice_cstr(w->topic), (slice){ b.p, b.len });
    buf_release(&b);
}

static int watch_sees(const etcd_watch *w, const eevent *e)
{
    erange r = { { w->key, w->klen }, { w->end, w->elen }, w->has_end };
    return e->kv.mod_rev >= w->start && etcd_in_range(&r, e->kv.key, e->kv.klen);
}

void etcd_watch_notify(etcd *s, const eevent *e)
{
    for (size_t i = 0; i < s->nwatches; i++)
        if (watch_sees(&s->watches[i], e)) push_event(s, &s->watches[i], e);
}

static void watch_error(etcd_reply *out)
{
    out->err = xstrdup("locklab: a watch's topic is 'key KEY from REV' or 'prefix KEY from REV' (REV 0: from now)");
}

void etcd_watch_add(etcd *s, int client, slice topic, etcd_reply *out)
{
    const char *p = topic.p;
    size_t n = topic.len;
    int prefix;
    if (n > 4 && !memcmp(p, "key ", 4)) prefix = 0, p += 4, n -= 4;
    else if (n > 7 && !memcmp(p, "prefix ", 7)) prefix = 1, p += 7, n -= 7;
    else return watch_error(out);
    /* the last " from " ends the key */
    size_t at = n;
    for (size_t i = 0; i + 6 <= n; i++)
        if (!memcmp(p + i, " from ", 6)) at = i;
    if (at == n || at == 0) return watch_error(out);
    long long from;
    if (ll_parse_int64((slice){ p + at + 6, n - at - 6 }, &from) != 0 || from < 0) return watch_error(out);
    etcd_watch w = { .client = client, .topic = xmemdup(topic.p, topic.len), .key = xmemdup(p, at), .klen = at };
    if (prefix) {
        char *end = xmalloc(at + 1);
        w.elen = etcd_prefix_end(p, at, end);
        w.end = end;
        w.has_end = 1;
    }
    w.start = from ? from : s->d->rev + 1;
    for (size_t i = 0; i < s->d->nlog; i++)
        if (watch_sees(&w, &s->d->log[i])) push_event(s, &w, &s->d->log[i]);
    if (s->nwatches == s->capwatches) {
        s->capwatches = s->capwatches ? s->capwatches * 2 : 4;
        s->watches = xrealloc(s->watches, s->capwatches * sizeof *s->watches);
    }
    s->watches[s->nwatches++] = w;
    out->root = enode_new_map();
    enode_int(enode_add(out->root, "header", EN_MAP), "revision", s->d->rev);
    enode_bool(out->root, "created", 1);
}

static void drop_watch(etcd *s, size_t i)
{
    etcd_watch_release(&s->watches[i]);
    s->watches[i] = s->watches[--s->nwatches];
}

void etcd_disconnect(etcd *s, int client)
{
    for (size_t i = s->nwatches; i-- > 0;)
        if (s->watches[i].client == client) drop_watch(s, i);
}

void etcd_unsubscribe(etcd *s, int client, const char *topic)
{
    for (size_t i = s->nwatches; i-- > 0;)
        if (s->watches[i].client == client && !strcmp(s->watches[i].topic, topic)) drop_watch(s, i);
}
