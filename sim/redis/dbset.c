/* dbset.c — the server's 16 databases (dbset.h): made on first use, and SWAPDB's exchange. */
#include "dbset.h"

#include <stdlib.h>

#include "object.h"

store *dbset_peek(const dbset *d, int id)
{
    return id >= 0 && id < DB_COUNT ? d->db[id] : NULL;
}

store *dbset_get(dbset *d, int id)
{
    LL_ASSERT(id >= 0 && id < DB_COUNT);
    if (!d->db[id]) {
        d->db[id] = store_new_like(d->db[0]);
        if (d->made) d->made(d->srv);
    }
    return d->db[id];
}

/* Moves every key of `from` (a detached copy) into `to`, each reported as written. */
static void dbset_fill(store *to, store *from)
{
    size_t it = 0;
    kv *e;
    while ((e = store_next(from, &it))) {
        /* A key already past its deadline does not arrive: no watched key is touched by it
         * (Redis's touchAllWatchedKeysInDb leaves a key replaced with an expired one alone);
         * it was gone for every command already. */
        int64_t at = store_expire(from, e);
        if (at >= 0 && at <= store_now(to) && !store_is_replica(to)) continue;
        kv *d = store_set(to, store_key_of(from, e), (obj_type)e->type, obj_clone((obj_type)e->type, e->ptr), 0);
        d->raw = e->raw;
        if (at >= 0) store_set_expire_fixed(to, d, at);
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
            if (store_expire(s, e) >= 0) store_deadline_read(s, store_key_of(s, e));
    }
    dbset_empty(sa);
    dbset_empty(sb);
    dbset_fill(sa, cb);
    dbset_fill(sb, ca);
    store_free(ca);
    store_free(cb);
}
