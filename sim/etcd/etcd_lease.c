/* etcd_lease.c — an etcd member as a process: its lessor (its watches: etcd_watch.c).
 *
 * The lessor follows lease/lessor.go at v3.4.23. A lease is granted with a TTL in seconds,
 * at least the minimum etcdserver/server.go computes, minTTL = (3 * ElectionTicks / 2) *
 * heartbeat, rounded up to whole seconds (2 s with the defaults: heartbeat 100 ms, election
 * 1000 ms). On the primary its expiry is now + TTL (Lease.refresh); a keep-alive (Renew)
 * refreshes it to the full TTL again; a revoke deletes every key attached, sorted, in one
 * write transaction (one revision), then the lease. Expiry: runLoop calls
 * revokeExpiredLeases every 500 ms, and each lease found past its expiry is revoked
 * (EtcdServer.run: LeaseRevoke through raft) — so a lease ends at the first tick of that
 * loop at or after its expiry. A replica's leases never expire (Demote: forever); when it
 * becomes primary, Promote(electionTimeout) gives each lease TTL + election timeout from
 * then. A restarted member recovers its leases forever and promotes them when it leads
 * again, which for a lone member is at once: its leases too get TTL + election timeout. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "etcd.h"

static int64_t opt(const etcd *s, int i, int64_t dflt)
{
    return s->host.options ? s->host.options[i] : dflt;
}

static int64_t now_of(etcd *s)
{
    return s->host.clock(s->host.ud);
}

int64_t etcd_now_seen(etcd *s)
{
    if (s->host.clock_seen) s->host.clock_seen(s->host.ud);
    return now_of(s);
}

etcd *etcd_new(const kind_host *host)
{
    etcd *s = xcalloc(1, sizeof *s);
    s->host = *host;
    s->d = etcd_data_new();
    s->start_ms = now_of(s);
    return s;
}

void etcd_free(etcd *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nwatches; i++) etcd_watch_release(&s->watches[i]);
    free(s->watches);
    etcd_data_free(s->d);
    free(s);
}

int64_t etcd_min_ttl(const etcd *s)
{
    int64_t hb = opt(s, ETCD_OPT_HEARTBEAT, 100), el = opt(s, ETCD_OPT_ELECTION, 1000);
    int64_t ticks = hb > 0 ? el / hb : 10;
    int64_t ms = (3 * ticks) / 2 * hb;
    return (ms + 999) / 1000;
}

/* Promote: every lease lives its TTL plus the election timeout from now. */
static void promote(etcd *s)
{
    int64_t now = etcd_now_seen(s), extend = opt(s, ETCD_OPT_ELECTION, 1000);
    for (size_t i = 0; i < s->d->nleases; i++) s->d->leases[i].expiry_ms = now + extend + s->d->leases[i].ttl * 1000;
}

static void demote(etcd *s)
{
    for (size_t i = 0; i < s->d->nleases; i++) s->d->leases[i].expiry_ms = ETCD_FOREVER;
}

void etcd_set_replica(etcd *s, int replica)
{
    if (replica) demote(s);
    else if (s->replica) promote(s);
    s->replica = replica;
}

void etcd_install(etcd *s, etcd_data *d)
{
    etcd_data_free(s->d);
    s->d = d;
    /* recovered leases wait for Promote, which a primary does at once */
    if (s->replica) demote(s);
    else promote(s);
}

/* The lessor loop's first tick at or after a lease's expiry. */
static int64_t tick_after(const etcd *s, int64_t expiry)
{
    if (expiry <= s->start_ms) return s->start_ms;
    int64_t k = (expiry - s->start_ms + ETCD_LESSOR_TICK_MS - 1) / ETCD_LESSOR_TICK_MS;
    return s->start_ms + k * ETCD_LESSOR_TICK_MS;
}

int64_t etcd_next_deadline(etcd *s)
{
    if (s->replica) return INT64_MAX;
    int64_t best = INT64_MAX;
    for (size_t i = 0; i < s->d->nleases; i++) {
        if (s->d->leases[i].expiry_ms == ETCD_FOREVER) continue;
        int64_t t = tick_after(s, s->d->leases[i].expiry_ms) - 1;
        if (t < best) best = t;
    }
    return best;
}

int etcd_revoke(etcd *s, int64_t id, kind_event ev)
{
    etcd_data *d = s->d;
    if (!etcd_lease_find(d, id)) return -1;
    int64_t rev = 0;
    for (size_t i = 0; i < d->nkvs;) {
        if (d->kvs[i].lease != id) {
            i++;
            continue;
        }
        if (!rev) rev = ++d->rev; /* one write transaction for all of them */
        etcd_delete_kv(s, i, rev, ev);
    }
    etcd_lease_remove(d, id);
    char unit[32];
    etcd_lease_unit(id, unit);
    s->host.changed(s->host.ud, ev, slice_cstr(unit));
    return 0;
}

void etcd_expire(etcd *s)
{
    if (s->replica) return;
    int64_t now = now_of(s);
    for (;;) {
        /* the earliest expired lease first (then the lowest id), one revoke each */
        const elease *pick = NULL;
        for (size_t i = 0; i < s->d->nleases; i++) {
            const elease *l = &s->d->leases[i];
            if (l->expiry_ms == ETCD_FOREVER || tick_after(s, l->expiry_ms) > now) continue;
            if (!pick || l->expiry_ms < pick->expiry_ms) pick = l;
        }
        if (!pick) return;
        etcd_revoke(s, pick->id, KIND_EXPIRED);
    }
}
