/* consul.c — the fake Consul server (consul.h): sessions, KV locks, lock-delay.
 *
 * Requests (words): SESSION_CREATE TTL_MS LOCK_DELAY_MS BEHAVIOR [CHECKS] (release|delete; TTL 0:
 * no TTL; CHECKS serfHealth: the creating client's node's serf check, or none, the default here
 * as CreateNoChecks), SESSION_RENEW ID, SESSION_DESTROY ID, KV_GET KEY, KV_ACQUIRE KEY VALUE SESSION,
 * KV_RELEASE KEY VALUE SESSION. What they do, from Consul's documentation ("Sessions and
 * distributed locks overview", developer.hashicorp.com/consul/docs/automate/session, formerly
 * consul.io/docs/internals/sessions; HTTP API /v1/session and /v1/kv) and, where it is
 * silent, its source (hashicorp/consul, agent/consul/session_ttl.go, state/kvs.go,
 * kvs_endpoint.go):
 * - A session is invalidated when it is "explicitly destroyed", "Any of the health checks go to
 *   the critical state" or its "TTL expires, if applicable". The one check modelled is the
 *   node's serfHealth, which the agent gives a session by default ("By default, the gossip
 *   based failure detector is used as the associated health check"; agent/session_endpoint.go:
 *   "Default the session to our node + serf check"; api/lock.go creates its session with
 *   session.Create, which sends no Checks, so api.Lock gets it; CreateNoChecks sends an empty
 *   list): the creating client's host runs that node's agent, and the leader's gossip probes
 *   it every PROBE_INTERVAL, through the host's view of the network (kind_host.reachable: its
 *   host up, no partition between them, its link not losing everything); unreachable at a
 *   probe and still PROBE_TIMEOUT + SUSPICION later, it is declared failed and the session
 *   invalidated (memberlist's defaults, above). A paused or crashed process leaves its host's
 *   agent answering: only a vanished or cut-off host fails. "The contract of a TTL is that it represents a lower
 *   bound for invalidation; that is, Consul will not expire the session before the TTL is
 *   reached, but it is allowed to delay the expiration past the TTL": the leader's timer
 *   runs ttl x SessionTTLMultiplier (2) from the last renewal (session_ttl.go). "The TTL is
 *   renewed on session creation, on session renew, and on leader failover." TTLs are 10 s
 *   to 24 h (0: none).
 * - Invalidation: "If the release behavior is being used, any of the locks held in
 *   association with the session are released, and the ModifyIndex of the key is
 *   incremented. Alternatively, if the delete behavior is used, the key corresponding to
 *   any of the held locks is simply deleted."
 * - Lock-delay: "a time duration, between 0 and 60 seconds. When a session invalidation
 *   takes place, Consul prevents any of the previously held locks from being re-acquired for
 *   the lock-delay interval"; "the default is to use a 15 second delay". An acquire inside
 *   it answers false (kvs_endpoint.go checks it on the leader before the write). A release
 *   by the holder sets no delay: only an invalidation does.
 * - KV acquire with a session: false if another session holds the key; the holder may
 *   acquire again (its value updated, LockIndex unchanged); otherwise the key (made if
 *   absent) gets the session and LockIndex + 1. An unknown session is an error 500
 *   'invalid session "ID"'. Release: true only for the holding session, which is cleared.
 *   Every write takes the next index (Raft's); a key carries CreateIndex, ModifyIndex,
 *   LockIndex.
 * - Sessions and keys are Raft data: replicated and persisted. The lock-delay table is each
 *   server's memory, never replicated as such: every server sets its own entry when it
 *   applies the invalidation, from its own clock (state/session.go, deleteSessionTxn: "now
 *   := time.Now()", then lockDelay.SetExpiration(key, now, delay)), and only the leader
 *   consults its table, before a KV acquire goes to Raft (kvs_endpoint.go; state/delay.go:
 *   "only the opinion of the leader is respected"). Here a replica sets its entry when it
 *   applies the key's change that the invalidation made (the change carries the session's
 *   lock-delay), so a follower promoted inside a lock-delay still refuses the lock until its
 *   own entry runs out (scenarios/consul-lock-delay-failover.lua). A replica refuses writes
 *   (500 "No cluster leader", as a follower cut from its leader answers) and runs no TTL
 *   timers.
 * Session ids are "session-N" (Consul's are UUIDs); blocking queries (?index=) are not
 * modelled: a client polls. */
#include "consul.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TTL_MULTIPLIER 2
#define TTL_MIN 10000
#define TTL_MAX (86400 * 1000)
#define LOCK_DELAY_MAX 60000
/* Gossip failure detection (hashicorp/memberlist, DefaultLANConfig: ProbeInterval 1 s,
 * ProbeTimeout 500 ms, SuspicionMult 4; suspicionTimeout = SuspicionMult x max(1, log10(n)) x
 * ProbeInterval = 4 s under ten members, with no confirmations awaited when n - 2 < k): a node
 * unreachable at a probe is dead 4.5 s after it, and Consul sets its serfHealth critical. */
#define PROBE_INTERVAL 1000
#define PROBE_TIMEOUT 500
#define SUSPICION 4000

typedef struct csession {
    char *id;
    int64_t ttl, lock_delay;
    int del;               /* behavior delete */
    int64_t deadline;      /* local ms; -1: none */
    int64_t create_index;
    int node;              /* the client whose node's serfHealth check it has (-1: none) */
    int64_t failing;       /* the leader: local ms its node first failed a probe (-1: healthy) */
} csession;

typedef struct ckey {
    char *key, *value, *session;
    int64_t lock_index, modify_index, create_index;
} ckey;

struct consul_data {
    csession *sessions;
    int nsessions;
    ckey *keys;
    int nkeys;
    int64_t index, next_session;
};

typedef struct cdelay {
    char *key;
    int64_t until;
    int64_t index, duration; /* the invalidation's index that set it, and its lock-delay */
} cdelay;

struct consul {
    kind_host host;
    int64_t next_probe;    /* the leader's next gossip probe of the sessions' nodes (-1: none due) */
    consul_data *d;
    cdelay *delays;
    int ndelays;
    int readonly;
};

struct consul_change {
    int is_session, deleted;
    csession s;
    ckey k;
    int64_t index, next_session;
    int64_t lock_delay;    /* a key's change made by an invalidation: its lock-delay (ms), else 0 */
};

/* ---- helpers ---- */

static int64_t now_of(consul *s)
{
    return s->host.clock(s->host.ud);
}

static int64_t now_seen(consul *s)
{
    if (s->host.clock_seen) s->host.clock_seen(s->host.ud);
    return now_of(s);
}

static void session_release(csession *x)
{
    free(x->id);
}

static void key_release(ckey *k)
{
    free(k->key);
    free(k->value);
    free(k->session);
}

static void session_copy(csession *d, const csession *x)
{
    *d = *x;
    d->id = xstrdup(x->id);
}

static void key_copy(ckey *d, const ckey *k)
{
    *d = *k;
    d->key = xstrdup(k->key);
    d->value = xstrdup(k->value);
    d->session = xstrdup(k->session);
}

static consul_data *data_new(void)
{
    consul_data *d = xcalloc(1, sizeof *d);
    d->index = 1;
    d->next_session = 1;
    return d;
}

void consul_data_free(consul_data *d)
{
    if (!d) return;
    for (int i = 0; i < d->nsessions; i++) session_release(&d->sessions[i]);
    for (int i = 0; i < d->nkeys; i++) key_release(&d->keys[i]);
    free(d->sessions);
    free(d->keys);
    free(d);
}

static consul_data *data_clone(const consul_data *d)
{
    consul_data *c = data_new();
    c->index = d->index;
    c->next_session = d->next_session;
    c->nsessions = d->nsessions;
    c->sessions = xcalloc((size_t)d->nsessions + 1, sizeof *c->sessions);
    for (int i = 0; i < d->nsessions; i++) session_copy(&c->sessions[i], &d->sessions[i]);
    c->nkeys = d->nkeys;
    c->keys = xcalloc((size_t)d->nkeys + 1, sizeof *c->keys);
    for (int i = 0; i < d->nkeys; i++) key_copy(&c->keys[i], &d->keys[i]);
    return c;
}

static int find_session(const consul_data *d, const char *id, size_t len)
{
    for (int i = 0; i < d->nsessions; i++)
        if (strlen(d->sessions[i].id) == len && !memcmp(d->sessions[i].id, id, len)) return i;
    return -1;
}

/* The key's position (sorted), *found says whether it is there. */
static int find_key(const consul_data *d, const char *key, size_t len, int *found)
{
    int i = 0;
    for (; i < d->nkeys; i++) {
        int c = strncmp(d->keys[i].key, key, len);
        if (c == 0 && strlen(d->keys[i].key) == len) {
            *found = 1;
            return i;
        }
        if (c > 0) break;
    }
    *found = 0;
    return i;
}

static void report(consul *s, const char *kind, const char *name, int deleted)
{
    if (!s->host.changed) return;
    char unit[512];
    int n = snprintf(unit, sizeof unit, "%s/%s", kind, name);
    s->host.changed(s->host.ud, deleted ? KIND_DELETED : KIND_WRITTEN,
                    (slice){ unit, (size_t)(n < (int)sizeof unit ? n : (int)sizeof unit - 1) });
}

/* ---- the server ---- */

consul *consul_new(const kind_host *host)
{
    consul *s = xcalloc(1, sizeof *s);
    s->host = *host;
    s->d = data_new();
    s->next_probe = -1;
    return s;
}

static void delays_clear(consul *s)
{
    for (int i = 0; i < s->ndelays; i++) free(s->delays[i].key);
    free(s->delays);
    s->delays = NULL;
    s->ndelays = 0;
}

void consul_free(consul *s)
{
    if (!s) return;
    consul_data_free(s->d);
    delays_clear(s);
    free(s);
}

static void reset_timer(consul *s, csession *x, int64_t now)
{
    x->deadline = x->ttl > 0 ? now + x->ttl * TTL_MULTIPLIER : -1;
}

void consul_set_replica(consul *s, int replica)
{
    int was = s->readonly;
    s->readonly = replica;
    if (was && !replica) {
        /* a new leader: every session's TTL starts again (initializeSessionTimers) */
        int64_t now = now_seen(s);
        for (int i = 0; i < s->d->nsessions; i++) {
            reset_timer(s, &s->d->sessions[i], now);
            s->d->sessions[i].failing = -1; /* the new leader's memberlist judges afresh */
        }
        s->next_probe = -1;
    }
}

static cdelay *find_delay(consul *s, const char *key, size_t len)
{
    for (int i = 0; i < s->ndelays; i++)
        if (strlen(s->delays[i].key) == len && !memcmp(s->delays[i].key, key, len)) return &s->delays[i];
    return NULL;
}

/* The lock-delay of key runs to `until`, set by the invalidation at `index`. */
static void set_delay(consul *s, const char *key, int64_t until, int64_t index, int64_t duration)
{
    cdelay *e = find_delay(s, key, strlen(key));
    if (e) {
        e->until = until, e->index = index, e->duration = duration;
        return;
    }
    s->delays = xrealloc(s->delays, (size_t)(s->ndelays + 1) * sizeof *s->delays);
    s->delays[s->ndelays++] = (cdelay){ xstrdup(key), until, index, duration };
}

static int64_t delay_of(consul *s, const char *key, size_t len)
{
    const cdelay *e = find_delay(s, key, len);
    return e ? e->until : INT64_MIN;
}

/* Session i is invalidated: its locks are released or deleted, its lock-delay set. */
static void invalidate(consul *s, int i)
{
    consul_data *d = s->d;
    csession x = d->sessions[i];
    memmove(&d->sessions[i], &d->sessions[i + 1], (size_t)(d->nsessions - i - 1) * sizeof *d->sessions);
    d->nsessions--;
    int64_t idx = ++d->index;
    int64_t now = x.lock_delay > 0 ? now_seen(s) : 0;
    for (int k = d->nkeys - 1; k >= 0; k--) {
        ckey *e = &d->keys[k];
        if (strcmp(e->session, x.id)) continue;
        char *name = xstrdup(e->key);
        if (x.lock_delay > 0) set_delay(s, name, now + x.lock_delay, idx, x.lock_delay);
        if (x.del) {
            key_release(e);
            memmove(&d->keys[k], &d->keys[k + 1], (size_t)(d->nkeys - k - 1) * sizeof *d->keys);
            d->nkeys--;
            report(s, "kv", name, 1);
        } else {
            free(e->session);
            e->session = xstrdup("");
            e->modify_index = idx;
            report(s, "kv", name, 0);
        }
        free(name);
    }
    report(s, "session", x.id, 1);
    session_release(&x);
}

/* Whether the leader probes a session's node: it has the check and the host can tell. */
static int probed(const consul *s, const csession *x)
{
    return x->node >= 0 && s->host.reachable;
}

int64_t consul_next_deadline(consul *s)
{
    if (s->readonly) return INT64_MAX;
    int64_t t = INT64_MAX;
    int probes = 0;
    for (int i = 0; i < s->d->nsessions; i++) {
        const csession *x = &s->d->sessions[i];
        if (x->deadline >= 0 && x->deadline < t) t = x->deadline;
        probes |= probed(s, x);
        if (probed(s, x) && x->failing >= 0 && x->failing + PROBE_TIMEOUT + SUSPICION < t)
            t = x->failing + PROBE_TIMEOUT + SUSPICION; /* its suspicion runs out */
    }
    if (!probes) {
        s->next_probe = -1;
        return t;
    }
    if (s->next_probe < 0) s->next_probe = now_of(s) + PROBE_INTERVAL;
    return s->next_probe < t ? s->next_probe : t;
}

/* Gossip: at a probe (tick) every node a session's check names is probed, and one that does
 * not answer becomes suspect (failing: since that probe); one that answers again refutes it. A
 * suspect still unreachable PROBE_TIMEOUT + SUSPICION after its failed probe is declared dead,
 * its serfHealth goes critical, and "any of the health checks go to the critical state"
 * invalidates the session. */
static void probe(consul *s, int64_t now, int tick)
{
    for (int i = s->d->nsessions - 1; i >= 0; i--) {
        csession *x = &s->d->sessions[i];
        if (!probed(s, x)) continue;
        int up = s->host.reachable(s->host.ud, x->node);
        if (up) x->failing = -1;
        else if (x->failing < 0 && tick) x->failing = now;
        else if (x->failing >= 0 && now - x->failing >= PROBE_TIMEOUT + SUSPICION) invalidate(s, i);
    }
}

void consul_expire(consul *s)
{
    if (s->readonly) return;
    int64_t now = now_of(s);
    for (int i = s->d->nsessions - 1; i >= 0; i--)
        if (s->d->sessions[i].deadline >= 0 && s->d->sessions[i].deadline <= now) invalidate(s, i);
    int tick = s->next_probe >= 0 && now >= s->next_probe;
    if (tick) s->next_probe = now + PROBE_INTERVAL;
    probe(s, now, tick);
}

/* ---- replies ---- */

static void reply_error(consul_reply *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reply_error(consul_reply *r, int code, const char *fmt, ...)
{
    memset(r, 0, sizeof *r);
    r->type = CR_ERR;
    r->code = code;
    va_list ap;
    va_start(ap, fmt);
    r->text = xvformat(fmt, ap);
    va_end(ap);
}

static void reply_bool(consul_reply *r, int b)
{
    memset(r, 0, sizeof *r);
    r->type = CR_BOOL;
    r->code = 200;
    r->b = b;
}

static void reply_key(consul_reply *r, const ckey *k)
{
    memset(r, 0, sizeof *r);
    r->type = CR_KEY;
    r->code = 200;
    r->text = xstrdup(k->key);
    r->value = xstrdup(k->value);
    r->session = xstrdup(k->session);
    r->lock_index = k->lock_index;
    r->modify_index = k->modify_index;
    r->create_index = k->create_index;
}

static void reply_session(consul_reply *r, const csession *x)
{
    memset(r, 0, sizeof *r);
    r->type = CR_SESSION;
    r->code = 200;
    r->text = xstrdup(x->id);
    r->ttl = x->ttl;
    r->lock_delay = x->lock_delay;
    snprintf(r->behavior, sizeof r->behavior, "%s", x->del ? "delete" : "release");
    r->create_index = x->create_index;
}

void consul_reply_release(consul_reply *r)
{
    free(r->text);
    free(r->value);
    free(r->session);
    memset(r, 0, sizeof *r);
}

void consul_reply_brief(const consul_reply *r, buf *out)
{
    switch (r->type) {
    case CR_ERR: buf_printf(out, "%d %s", r->code, r->text); break;
    case CR_BOOL: buf_puts(out, r->b ? "true" : "false"); break;
    case CR_ID: buf_puts(out, r->text); break;
    case CR_NONE: buf_puts(out, "404 (no such key)"); break;
    case CR_KEY:
        buf_printf(out, "%s=%s session=%s lock_index=%lld modify_index=%lld", r->text, r->value,
                   *r->session ? r->session : "\"\"", (long long)r->lock_index, (long long)r->modify_index);
        break;
    case CR_SESSION:
        buf_printf(out, "%s ttl=%lldms lock_delay=%lldms behavior=%s", r->text, (long long)r->ttl,
                   (long long)r->lock_delay, r->behavior);
        break;
    }
}

/* ---- requests ---- */

static int is(slice a, const char *w)
{
    return slice_eq_nocase(a, w);
}

static int64_t num(slice a, int *bad)
{
    long long v;
    if (ll_parse_int64(a, &v)) {
        *bad = 1;
        return 0;
    }
    return v;
}

static void write_key(consul *s, int i, int found, slice key, slice value, const char *session, int64_t lock_index,
                      consul_reply *r)
{
    consul_data *d = s->d;
    int64_t idx = ++d->index;
    if (!found) {
        d->keys = xrealloc(d->keys, (size_t)(d->nkeys + 1) * sizeof *d->keys);
        memmove(&d->keys[i + 1], &d->keys[i], (size_t)(d->nkeys - i) * sizeof *d->keys);
        d->nkeys++;
        d->keys[i] = (ckey){ xmemdup(key.p, key.len), xmemdup(value.p, value.len), xstrdup(session), lock_index, idx,
                             idx };
    } else {
        ckey *e = &d->keys[i];
        free(e->value);
        free(e->session);
        e->value = xmemdup(value.p, value.len);
        e->session = xstrdup(session);
        e->lock_index = lock_index;
        e->modify_index = idx;
    }
    report(s, "kv", d->keys[i].key, 0);
    reply_bool(r, 1);
}

void consul_exec(consul *s, int argc, const slice *argv, consul_reply *r)
{
    consul_exec_from(s, -1, argc, argv, r);
}

void consul_exec_from(consul *s, int client, int argc, const slice *argv, consul_reply *r)
{
    memset(r, 0, sizeof *r);
    consul_data *d = s->d;
    int bad = 0;
    if ((argc == 4 || argc == 5) && is(argv[0], "SESSION_CREATE")) {
        int64_t ttl = num(argv[1], &bad), delay = num(argv[2], &bad);
        int del = is(argv[3], "delete");
        int checks = argc == 5 && is(argv[4], "serfHealth");
        if (bad || (!del && !is(argv[3], "release")) || (argc == 5 && !checks && !is(argv[4], "none"))) {
            reply_error(r, 400, "locklab: SESSION_CREATE TTL_MS LOCK_DELAY_MS release|delete [serfHealth|none]");
            return;
        }
        if (checks && client < 0) {
            reply_error(r, 400, "locklab: a session with serfHealth needs the client's node (a request from a client)");
            return;
        }
        if (ttl != 0 && (ttl < TTL_MIN || ttl > TTL_MAX)) {
            reply_error(r, 400, "Invalid Session TTL '%lldms', must be between [10s=24h0m0s]", (long long)ttl);
            return;
        }
        if (delay < 0 || delay > LOCK_DELAY_MAX) {
            reply_error(r, 400, "locklab: a lock-delay is between 0 and 60 seconds (%lldms)", (long long)delay);
            return;
        }
        if (s->readonly) {
            reply_error(r, 500, "No cluster leader");
            return;
        }
        char id[32];
        snprintf(id, sizeof id, "session-%lld", (long long)d->next_session++);
        d->sessions = xrealloc(d->sessions, (size_t)(d->nsessions + 1) * sizeof *d->sessions);
        csession *x = &d->sessions[d->nsessions++];
        *x = (csession){ xstrdup(id), ttl, delay, del, -1, ++d->index, checks ? client : -1, -1 };
        if (ttl > 0) reset_timer(s, x, now_seen(s));
        report(s, "session", id, 0);
        r->type = CR_ID;
        r->code = 200;
        r->text = xstrdup(id);
        return;
    }
    if (argc == 2 && (is(argv[0], "SESSION_RENEW") || is(argv[0], "SESSION_DESTROY"))) {
        if (s->readonly) {
            reply_error(r, 500, "No cluster leader");
            return;
        }
        int i = find_session(d, argv[1].p, argv[1].len);
        if (is(argv[0], "SESSION_DESTROY")) {
            if (i >= 0) invalidate(s, i);
            reply_bool(r, 1);
            return;
        }
        if (i < 0) {
            reply_error(r, 404, "Session id '%.*s' not found", (int)argv[1].len, argv[1].p);
            return;
        }
        reset_timer(s, &d->sessions[i], now_seen(s));
        reply_session(r, &d->sessions[i]);
        return;
    }
    if (argc == 2 && is(argv[0], "KV_GET")) {
        int found;
        int i = find_key(d, argv[1].p, argv[1].len, &found);
        if (!found) {
            r->type = CR_NONE;
            r->code = 404;
        } else {
            reply_key(r, &d->keys[i]);
        }
        return;
    }
    if (argc == 4 && (is(argv[0], "KV_ACQUIRE") || is(argv[0], "KV_RELEASE"))) {
        if (s->readonly) {
            reply_error(r, 500, "No cluster leader");
            return;
        }
        int si = find_session(d, argv[3].p, argv[3].len);
        if (si < 0) {
            reply_error(r, 500, "invalid session \"%.*s\"", (int)argv[3].len, argv[3].p);
            return;
        }
        const char *sid = d->sessions[si].id;
        int found;
        int i = find_key(d, argv[1].p, argv[1].len, &found);
        if (is(argv[0], "KV_RELEASE")) {
            if (!found || strcmp(d->keys[i].session, sid)) {
                reply_bool(r, 0);
                return;
            }
            write_key(s, i, 1, argv[1], argv[2], "", d->keys[i].lock_index, r);
            return;
        }
        if (delay_of(s, argv[1].p, argv[1].len) > now_seen(s)) {
            reply_bool(r, 0); /* inside the lock-delay */
            return;
        }
        if (found && *d->keys[i].session && strcmp(d->keys[i].session, sid)) {
            reply_bool(r, 0);
            return;
        }
        int64_t li = !found ? 1 : !strcmp(d->keys[i].session, sid) ? d->keys[i].lock_index : d->keys[i].lock_index + 1;
        write_key(s, i, found, argv[1], argv[2], sid, li, r);
        return;
    }
    reply_error(r, 400,
                "locklab: SESSION_CREATE TTL_MS LOCK_DELAY_MS release|delete, SESSION_RENEW ID, SESSION_DESTROY ID, "
                "KV_GET KEY, KV_ACQUIRE KEY VALUE SESSION, KV_RELEASE KEY VALUE SESSION");
}

/* ---- data ---- */

consul_data *consul_snapshot(consul *s)
{
    return data_clone(s->d);
}

void consul_load(consul *s, const consul_data *d)
{
    consul_data_free(s->d);
    s->d = data_clone(d);
    /* timers start again from now, as a leader's do */
    int64_t now = now_seen(s);
    for (int i = 0; i < s->d->nsessions; i++) reset_timer(s, &s->d->sessions[i], now);
}

static const char *unit_split(slice unit, int *is_session, size_t *len)
{
    if (unit.len > 8 && !memcmp(unit.p, "session/", 8)) {
        *is_session = 1;
        *len = unit.len - 8;
        return unit.p + 8;
    }
    if (unit.len > 3 && !memcmp(unit.p, "kv/", 3)) {
        *is_session = 0;
        *len = unit.len - 3;
        return unit.p + 3;
    }
    return NULL;
}

int consul_describe(consul *s, slice unit, buf *out, int64_t *deadline)
{
    *deadline = -1;
    int is_session;
    size_t len;
    const char *name = unit_split(unit, &is_session, &len);
    if (!name) return 0;
    if (is_session) {
        int i = find_session(s->d, name, len);
        if (i < 0) return 0;
        const csession *x = &s->d->sessions[i];
        buf_printf(out, "ttl=%lldms lock_delay=%lldms behavior=%s", (long long)x->ttl, (long long)x->lock_delay,
                   x->del ? "delete" : "release");
        *deadline = x->deadline;
        return 1;
    }
    int found;
    int i = find_key(s->d, name, len, &found);
    if (!found) return 0;
    const ckey *k = &s->d->keys[i];
    buf_printf(out, "%s session=%s lock_index=%lld", k->value, *k->session ? k->session : "\"\"",
               (long long)k->lock_index);
    return 1;
}

consul_change *consul_capture(consul *s, slice unit, int deleted)
{
    consul_change *c = xcalloc(1, sizeof *c);
    c->index = s->d->index;
    c->next_session = s->d->next_session;
    int is_session;
    size_t len;
    const char *name = unit_split(unit, &is_session, &len);
    c->deleted = 1;
    if (!name) {
        c->k.key = xstrdup("");
        return c;
    }
    c->is_session = is_session;
    if (is_session) {
        int i = find_session(s->d, name, len);
        if (i >= 0 && !deleted) {
            session_copy(&c->s, &s->d->sessions[i]);
            c->deleted = 0;
        } else {
            c->s.id = xmemdup(name, len);
        }
        return c;
    }
    int found;
    int i = find_key(s->d, name, len, &found);
    if (found && !deleted) {
        key_copy(&c->k, &s->d->keys[i]);
        c->deleted = 0;
    } else {
        c->k.key = xmemdup(name, len);
    }
    /* the key's last change was an invalidation's (nothing written since): the replica sets
     * its own lock-delay when it applies it */
    const cdelay *e = find_delay(s, name, len);
    if (e && e->index == s->d->index) c->lock_delay = e->duration;
    return c;
}

void consul_apply(consul *s, const consul_change *c)
{
    consul_data *d = s->d;
    if (c->index > d->index) d->index = c->index;
    if (c->next_session > d->next_session) d->next_session = c->next_session;
    if (c->is_session) {
        int i = find_session(d, c->s.id, strlen(c->s.id));
        if (c->deleted) {
            if (i < 0) return;
            session_release(&d->sessions[i]);
            memmove(&d->sessions[i], &d->sessions[i + 1], (size_t)(d->nsessions - i - 1) * sizeof *d->sessions);
            d->nsessions--;
            report(s, "session", c->s.id, 1);
            return;
        }
        if (i < 0) {
            d->sessions = xrealloc(d->sessions, (size_t)(d->nsessions + 1) * sizeof *d->sessions);
            i = d->nsessions++;
        } else {
            session_release(&d->sessions[i]);
        }
        session_copy(&d->sessions[i], &c->s);
        reset_timer(s, &d->sessions[i], now_of(s));
        report(s, "session", c->s.id, 0);
        return;
    }
    int found;
    int i = find_key(d, c->k.key, strlen(c->k.key), &found);
    if (c->lock_delay > 0) set_delay(s, c->k.key, now_seen(s) + c->lock_delay, c->index, c->lock_delay);
    if (c->deleted) {
        if (!found) return;
        key_release(&d->keys[i]);
        memmove(&d->keys[i], &d->keys[i + 1], (size_t)(d->nkeys - i - 1) * sizeof *d->keys);
        d->nkeys--;
        report(s, "kv", c->k.key, 1);
        return;
    }
    if (found) {
        key_release(&d->keys[i]);
    } else {
        d->keys = xrealloc(d->keys, (size_t)(d->nkeys + 1) * sizeof *d->keys);
        memmove(&d->keys[i + 1], &d->keys[i], (size_t)(d->nkeys - i) * sizeof *d->keys);
        d->nkeys++;
    }
    key_copy(&d->keys[i], &c->k);
    report(s, "kv", c->k.key, 0);
}

void consul_change_free(consul_change *c)
{
    if (!c) return;
    free(c->s.id);
    key_release(&c->k);
    free(c);
}

void consul_dump(consul *s, buf *out)
{
    for (int i = 0; i < s->d->nsessions; i++) {
        const csession *x = &s->d->sessions[i];
        buf_printf(out, "session %s ttl=%lldms lock_delay=%lldms behavior=%s", x->id, (long long)x->ttl,
                   (long long)x->lock_delay, x->del ? "delete" : "release");
        if (x->node >= 0) buf_printf(out, " checks=serfHealth(client %d)", x->node);
        if (x->deadline >= 0 && !s->readonly) buf_printf(out, " invalidated at %lld", (long long)x->deadline);
        buf_putc(out, '\n');
    }
    for (int i = 0; i < s->d->nkeys; i++) {
        const ckey *k = &s->d->keys[i];
        buf_printf(out, "kv %s=%s session=%s lock_index=%lld modify_index=%lld\n", k->key, k->value,
                   *k->session ? k->session : "\"\"", (long long)k->lock_index, (long long)k->modify_index);
    }
    for (int i = 0; i < s->ndelays; i++)
        if (s->delays[i].until > now_of(s))
            buf_printf(out, "lock-delay %s until %lld\n", s->delays[i].key, (long long)s->delays[i].until);
}
