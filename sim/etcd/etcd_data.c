/* etcd_data.c — what an etcd member stores: the live keys (sorted, as etcd's index keeps
 * them), the leases, and the history of every change; how a write lands (mvcc/kvstore_txn.go
 * put and deleteRange: a new key takes create_revision = mod_revision = the write's revision
 * and version 1, an existing one keeps its create_revision and counts its version up, a
 * deletion leaves a tombstone in the history and a later put starts again at version 1); and
 * the copies the engine makes of it: a deep copy (a snapshot, a full resynchronisation), one
 * unit's state or deletion for a replica, the canonical dump. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etcd.h"

etcd_data *etcd_data_new(void)
{
    etcd_data *d = xcalloc(1, sizeof *d);
    d->rev = 1; /* an empty etcd answers with revision 1 */
    return d;
}

void ekv_release(ekv *kv)
{
    free(kv->key);
    free(kv->val);
    kv->key = kv->val = NULL;
}

void ekv_copy(ekv *dst, const ekv *src)
{
    *dst = *src;
    dst->key = xmemdup(src->key, src->klen);
    dst->val = xmemdup(src->val ? src->val : "", src->vlen);
}

void etcd_data_free(etcd_data *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->nkvs; i++) ekv_release(&d->kvs[i]);
    for (size_t i = 0; i < d->nlog; i++) ekv_release(&d->log[i].kv);
    free(d->kvs);
    free(d->leases);
    free(d->log);
    free(d);
}

etcd_data *etcd_data_clone(const etcd_data *d)
{
    etcd_data *c = xcalloc(1, sizeof *c);
    *c = *d;
    c->capkvs = d->nkvs;
    c->kvs = xmalloc((d->nkvs + 1) * sizeof *c->kvs);
    for (size_t i = 0; i < d->nkvs; i++) ekv_copy(&c->kvs[i], &d->kvs[i]);
    c->capleases = d->nleases;
    c->leases = xmalloc((d->nleases + 1) * sizeof *c->leases);
    if (d->nleases) memcpy(c->leases, d->leases, d->nleases * sizeof *c->leases);
    c->caplog = d->nlog;
    c->log = xmalloc((d->nlog + 1) * sizeof *c->log);
    for (size_t i = 0; i < d->nlog; i++) {
        c->log[i].del = d->log[i].del;
        ekv_copy(&c->log[i].kv, &d->log[i].kv);
    }
    return c;
}

size_t etcd_lower_bound(const etcd_data *d, const char *key, size_t klen)
{
    size_t lo = 0, hi = d->nkvs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (etcd_key_cmp(d->kvs[mid].key, d->kvs[mid].klen, key, klen) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

ekv *etcd_find(const etcd_data *d, const char *key, size_t klen)
{
    size_t i = etcd_lower_bound(d, key, klen);
    if (i < d->nkvs && !etcd_key_cmp(d->kvs[i].key, d->kvs[i].klen, key, klen)) return &d->kvs[i];
    return NULL;
}

elease *etcd_lease_find(const etcd_data *d, int64_t id)
{
    for (size_t i = 0; i < d->nleases; i++)
        if (d->leases[i].id == id) return &d->leases[i];
    return NULL;
}

elease *etcd_lease_add(etcd_data *d, int64_t id, int64_t ttl, int64_t expiry)
{
    elease *l = etcd_lease_find(d, id);
    if (!l) {
        if (d->nleases == d->capleases) {
            d->capleases = d->capleases ? d->capleases * 2 : 4;
            d->leases = xrealloc(d->leases, d->capleases * sizeof *d->leases);
        }
        size_t i = 0;
        while (i < d->nleases && d->leases[i].id < id) i++;
        memmove(&d->leases[i + 1], &d->leases[i], (d->nleases - i) * sizeof *d->leases);
        d->nleases++;
        l = &d->leases[i];
    }
    *l = (elease){ .id = id, .ttl = ttl, .expiry_ms = expiry };
    uint64_t suffix = (uint64_t)id & ((UINT64_C(1) << 48) - 1);
    if (suffix > d->id_suffix) d->id_suffix = suffix;
    return l;
}

void etcd_lease_remove(etcd_data *d, int64_t id)
{
    elease *l = etcd_lease_find(d, id);
    if (!l) return;
    size_t i = (size_t)(l - d->leases);
    memmove(&d->leases[i], &d->leases[i + 1], (d->nleases - i - 1) * sizeof *d->leases);
    d->nleases--;
}

static void log_event(etcd *s, int del, const ekv *kv)
{
    etcd_data *d = s->d;
    if (d->nlog == d->caplog) {
        d->caplog = d->caplog ? d->caplog * 2 : 16;
        d->log = xrealloc(d->log, d->caplog * sizeof *d->log);
    }
    eevent *e = &d->log[d->nlog++];
    e->del = del;
    ekv_copy(&e->kv, kv);
    etcd_watch_notify(s, e);
}

void etcd_put_kv(etcd *s, const char *key, size_t klen, const char *val, size_t vlen, int64_t lease, int64_t rev,
                 const ekv *as)
{
    etcd_data *d = s->d;
    size_t i = etcd_lower_bound(d, key, klen);
    ekv *kv;
    if (i < d->nkvs && !etcd_key_cmp(d->kvs[i].key, d->kvs[i].klen, key, klen)) {
        kv = &d->kvs[i];
        free(kv->val);
    } else {
        if (d->nkvs == d->capkvs) {
            d->capkvs = d->capkvs ? d->capkvs * 2 : 8;
            d->kvs = xrealloc(d->kvs, d->capkvs * sizeof *d->kvs);
        }
        memmove(&d->kvs[i + 1], &d->kvs[i], (d->nkvs - i) * sizeof *d->kvs);
        d->nkvs++;
        kv = &d->kvs[i];
        memset(kv, 0, sizeof *kv);
        kv->key = xmemdup(key, klen);
        kv->klen = klen;
        kv->create_rev = rev;
    }
    kv->val = xmemdup(val ? val : "", vlen);
    kv->vlen = vlen;
    kv->mod_rev = rev;
    kv->version++;
    kv->lease = lease;
    if (as) { /* a replica takes the primary's counters, whatever it had seen */
        kv->create_rev = as->create_rev;
        kv->version = as->version;
    }
    ekv ev = *kv;
    s->host.changed(s->host.ud, KIND_WRITTEN, (slice){ key, klen });
    log_event(s, 0, &ev); /* the watchers hear of it after the change */
}

void etcd_delete_kv(etcd *s, size_t idx, int64_t rev, kind_event ev)
{
    etcd_data *d = s->d;
    ekv gone = d->kvs[idx];
    memmove(&d->kvs[idx], &d->kvs[idx + 1], (d->nkvs - idx - 1) * sizeof *d->kvs);
    d->nkvs--;
    ekv tomb = { .key = gone.key, .klen = gone.klen, .val = "", .mod_rev = rev };
    s->host.changed(s->host.ud, ev, (slice){ gone.key, gone.klen });
    log_event(s, 1, &tomb);
    ekv_release(&gone);
}

void etcd_lease_unit(int64_t id, char out[32])
{
    snprintf(out, 32, "lease %016" PRIx64, (uint64_t)id);
}

int etcd_is_lease_unit(const char *p, size_t len, int64_t *id)
{
    if (len != 22 || memcmp(p, "lease ", 6) != 0) return 0;
    uint64_t v = 0;
    for (size_t i = 6; i < len; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return 0;
        v = v * 16 + (uint64_t)d;
    }
    if (id) *id = (int64_t)v;
    return 1;
}

static int64_t lease_deadline(const etcd_data *d, int64_t lease)
{
    const elease *l = lease ? etcd_lease_find(d, lease) : NULL;
    return l && l->expiry_ms != ETCD_FOREVER ? l->expiry_ms : -1;
}

static void kv_text(const ekv *kv, buf *out)
{
    etcd_repr(out, kv->val, kv->vlen);
    buf_printf(out, " create=%lld mod=%lld version=%lld", (long long)kv->create_rev, (long long)kv->mod_rev,
               (long long)kv->version);
    if (kv->lease) buf_printf(out, " lease=%016" PRIx64, (uint64_t)kv->lease);
}

/* One line per unit, sorted: the revision (as the empty key, which etcd refuses), the keys,
 * the leases; each as "NAME TYPE at=DEADLINE VALUE" (the layout the HTML player reads). */
void etcd_dump(const etcd *s, buf *out)
{
    const etcd_data *d = s->d;
    buf_printf(out, "\"\" revision at=-1 %lld\n", (long long)d->rev);
    for (size_t i = 0; i < d->nkvs; i++) {
        const ekv *kv = &d->kvs[i];
        etcd_repr(out, kv->key, kv->klen);
        buf_printf(out, " key at=%lld ", (long long)lease_deadline(d, kv->lease));
        kv_text(kv, out);
        buf_putc(out, '\n');
    }
    for (size_t i = 0; i < d->nleases; i++) {
        const elease *l = &d->leases[i];
        char unit[32];
        etcd_lease_unit(l->id, unit);
        buf_printf(out, "\"%s\" lease at=%lld ttl=%lld\n", unit, (long long)(l->expiry_ms == ETCD_FOREVER ? -1 : l->expiry_ms),
                   (long long)l->ttl);
    }
}

void etcd_units(const etcd *s, void (*fn)(void *ud, slice name, const char *type, int64_t deadline, slice value), void *ud)
{
    const etcd_data *d = s->d;
    buf v;
    buf_init(&v);
    buf_printf(&v, "%lld", (long long)d->rev);
    fn(ud, (slice){ "", 0 }, "revision", -1, (slice){ v.p, v.len });
    for (size_t i = 0; i < d->nkvs; i++) {
        const ekv *kv = &d->kvs[i];
        buf_reset(&v);
        kv_text(kv, &v);
        fn(ud, (slice){ kv->key, kv->klen }, "key", lease_deadline(d, kv->lease), (slice){ v.p, v.len });
    }
    for (size_t i = 0; i < d->nleases; i++) {
        const elease *l = &d->leases[i];
        char unit[32];
        etcd_lease_unit(l->id, unit);
        buf_reset(&v);
        buf_printf(&v, "ttl=%lld", (long long)l->ttl);
        fn(ud, (slice){ unit, strlen(unit) }, "lease", l->expiry_ms == ETCD_FOREVER ? -1 : l->expiry_ms, (slice){ v.p, v.len });
    }
    buf_release(&v);
}

int etcd_describe(etcd *s, slice unit, buf *out, int64_t *deadline)
{
    int64_t id;
    if (etcd_is_lease_unit(unit.p, unit.len, &id)) {
        const elease *l = etcd_lease_find(s->d, id);
        if (!l) return 0;
        buf_printf(out, "lease ttl=%llds", (long long)l->ttl);
        *deadline = l->expiry_ms == ETCD_FOREVER ? -1 : l->expiry_ms;
        return 1;
    }
    const ekv *kv = etcd_find(s->d, unit.p, unit.len);
    if (!kv) return 0;
    kv_text(kv, out);
    *deadline = lease_deadline(s->d, kv->lease);
    return 1;
}

etcd_change *etcd_capture(etcd *s, slice unit, int deleted)
{
    etcd_change *c = xcalloc(1, sizeof *c);
    c->unit = xmemdup(unit.p, unit.len);
    c->ulen = unit.len;
    c->rev = s->d->rev;
    c->del = 1;
    int64_t id;
    if (etcd_is_lease_unit(unit.p, unit.len, &id)) {
        c->lease_unit = 1;
        c->lease.id = id;
        const elease *l = deleted ? NULL : etcd_lease_find(s->d, id);
        if (l) {
            c->lease = *l;
            c->del = 0;
        }
        return c;
    }
    const ekv *kv = deleted ? NULL : etcd_find(s->d, unit.p, unit.len);
    if (kv) {
        ekv_copy(&c->kv, kv);
        c->del = 0;
    }
    return c;
}

/* On a replica: the primary's change, with its revisions (the replica's revision follows). */
void etcd_apply(etcd *s, etcd_change *c)
{
    etcd_data *d = s->d;
    if (c->lease_unit) {
        char unit[32];
        etcd_lease_unit(c->lease.id, unit);
        if (c->del) {
            if (!etcd_lease_find(d, c->lease.id)) return;
            etcd_lease_remove(d, c->lease.id);
            s->host.changed(s->host.ud, KIND_DELETED, slice_cstr(unit));
        } else {
            etcd_lease_add(d, c->lease.id, c->lease.ttl, s->replica ? ETCD_FOREVER : c->lease.expiry_ms);
            s->host.changed(s->host.ud, KIND_WRITTEN, slice_cstr(unit));
        }
        return;
    }
    if (c->del) {
        size_t i = etcd_lower_bound(d, c->unit, c->ulen);
        if (c->rev > d->rev) d->rev = c->rev;
        if (i < d->nkvs && !etcd_key_cmp(d->kvs[i].key, d->kvs[i].klen, c->unit, c->ulen))
            etcd_delete_kv(s, i, c->rev, KIND_DELETED);
        return;
    }
    if (c->kv.mod_rev > d->rev) d->rev = c->kv.mod_rev;
    etcd_put_kv(s, c->kv.key, c->kv.klen, c->kv.val, c->kv.vlen, c->kv.lease, c->kv.mod_rev, &c->kv);
}

void etcd_change_free(etcd_change *c)
{
    if (!c) return;
    ekv_release(&c->kv);
    free(c->unit);
    free(c);
}
