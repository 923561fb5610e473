/* store.c — the keyspace and its expiry (see store.h).
 *
 * Representation: a dict from key to kv; keys with a TTL also sit in the expiry index
 * (ttl.h), ordered by (deadline, sequence number of the TTL), so that active expiry deletes
 * keys in a deterministic order.
 *
 * Three small caches serve a script that names a few keys several times and a keyspace
 * where keys come and go: the entry last found or added, the key last missed (with its
 * hash), and the blocks of a few deleted string values. None of them changes an answer. */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "dict.h"
#include "ttl.h"

#define MISS_KEY_MAX 96
#define STR_SPARES 2

struct store {
    dict *keys;
    ttl_index ttl;       /* the keys with a TTL (ttl.h) */
    uint64_t seq;
    store_clock_fn clock;
    void *clock_ud;
    store_clock_fn clock_us; /* the same clock to the µs (TIME), or NULL: clock × 1000 */
    void (*clock_seen)(void *ud);
    void *clock_seen_ud;
    store_deadline_set_fn deadline_set;
    store_deadline_read_fn deadline_read;
    void *deadline_ud;
    store_observer_fn observer;
    void *observer_ud;
    store_observer_fn watch;   /* the server's WATCH bookkeeping (server.c), or NULL */
    void *watch_ud;
    int replica;
    int track_access;          /* store_set_track_access */
    int lfu;                   /* store_set_lfu: kv.lru holds an LFU counter */
    int expire_held;           /* store_hold_expiry: expired keys stay (CLIENT PAUSE) */
    uint64_t expired;          /* keys removed at their deadline (INFO's expired_keys) */
    uint64_t changes;          /* keys written or deleted by commands (rdb_changes_since_last_save) */
    uint64_t lfu_rng;          /* LFULogIncr's draws (splitmix64, fixed seed) */
    int touch_ranged;          /* inside store_touched_range: its bytes */
    size_t touch_off, touch_len;
    /* The entry the last lookup found or the last add made (NULL after any removal): a
     * command usually names the same key several times, and comparing its bytes is cheaper
     * than hashing them again. */
    kv *last;
    /* The blocks of string values of deleted keys, kept for new ones (a latch's "1"):
     * poisoned under ASan, sizes here. */
    size_t nstr_spare;
    sstr *str_spare[STR_SPARES];
    size_t str_spare_size[STR_SPARES];
    /* The last key a lookup did not find (if it is at most MISS_KEY_MAX bytes): a copy and
     * its hash, and whether it is still known to be missing (until the next add). A key
     * found missing is usually added next (HINCRBY, SET), after being looked up again (a
     * script's EXISTS, then HINCRBY), and comparing bytes is cheaper than hashing them. */
    uint64_t miss_hash;
    size_t miss_len;    /* SIZE_MAX: none */
    int miss_still;
    char miss_key[MISS_KEY_MAX];
};

static void kv_release(void *payload)
{
    kv *e = payload;
    obj_free((obj_type)e->type, e->ptr);
}

store *store_new(store_clock_fn clock, void *clock_ud)
{
    store *s = xcalloc(1, sizeof *s);
    s->keys = dict_new(sizeof(kv));
    s->miss_len = SIZE_MAX;
    s->clock = clock;
    s->clock_ud = clock_ud;
    return s;
}

store *store_new_like(const store *model)
{
    store *s = store_new(model->clock, model->clock_ud);
    s->clock_us = model->clock_us;
    s->clock_seen = model->clock_seen;
    s->clock_seen_ud = model->clock_seen_ud;
    s->replica = model->replica;
    s->track_access = model->track_access;
    s->lfu = model->lfu;
    s->expire_held = model->expire_held;
    return s;
}

void store_set_track_access(store *s, int on)
{
    s->track_access = on;
}

static inline uint16_t lru_now(const store *s)
{
    int64_t now = store_now(s);
    return (uint16_t)((now >= 0 ? now : 0) / 1000);
}

/* ---- LFU (an LFU maxmemory-policy: Redis's evict.c) ----
 * kv.lru then holds the minute of the last decrement (8 bits: it wraps after 4 hours 16
 * minutes, Redis's 16 bits after 45 days) and the logarithmic counter (8 bits), new keys at
 * LFU_INIT_VAL; lfu-log-factor 10 and lfu-decay-time 1 minute, Redis's defaults. */
#define LFU_INIT_VAL 5
#define LFU_LOG_FACTOR 10

static inline uint8_t lfu_minutes(const store *s)
{
    int64_t now = store_now(s);
    return (uint8_t)((now >= 0 ? now : 0) / 60000);
}

static uint8_t lfu_decr(const store *s, const kv *e)
{
    uint8_t counter = (uint8_t)(e->lru & 0xff), then = (uint8_t)(e->lru >> 8);
    uint8_t elapsed = (uint8_t)(lfu_minutes(s) - then);
    return elapsed > counter ? 0 : (uint8_t)(counter - elapsed);
}

static void lfu_touch(store *s, kv *e)
{
    uint8_t counter = lfu_decr(s, e);
    if (counter < 255) {
        uint64_t z = (s->lfu_rng += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        double r = (double)(z >> 11) / (double)(1ull << 53);
        double base = counter > LFU_INIT_VAL ? counter - LFU_INIT_VAL : 0;
        if (r < 1.0 / (base * LFU_LOG_FACTOR + 1)) counter++;
    }
    e->lru = (uint16_t)(lfu_minutes(s) << 8 | counter);
}

void store_set_lfu(store *s, int on)
{
    if (s->lfu == !!on) return;
    s->lfu = !!on;
    size_t it = 0; /* Redis keeps the field and reads it the new way; here it restarts */
    kv *e;
    while ((e = store_next(s, &it))) e->lru = on ? (uint16_t)(lfu_minutes(s) << 8 | LFU_INIT_VAL) : lru_now(s);
}

int store_lfu(const store *s)
{
    return s->lfu;
}

long long store_freq(const store *s, const kv *e)
{
    return s->lfu ? lfu_decr(s, e) : 0;
}

void store_set_access(store *s, kv *e, long long idle_s, long long freq)
{
    if (!s->track_access) return;
    if (s->lfu && freq >= 0) e->lru = (uint16_t)(lfu_minutes(s) << 8 | (uint8_t)freq);
    else if (!s->lfu && idle_s >= 0) e->lru = (uint16_t)(lru_now(s) - (uint16_t)idle_s);
}

long long store_idle_s(const store *s, const kv *e)
{
    return s->track_access && !s->lfu ? (uint16_t)(lru_now(s) - e->lru) : 0;
}

void store_free(store *s)
{
    if (!s) return;
    dict_free(s->keys, kv_release);
    for (size_t i = 0; i < s->nstr_spare; i++) {
        LL_UNPOISON(s->str_spare[i], s->str_spare_size[i]);
        free(s->str_spare[i]);
    }
    ttl_free(&s->ttl);
    free(s);
}

void store_set_observer(store *s, store_observer_fn fn, void *ud)
{
    s->observer = fn;
    s->observer_ud = ud;
}

void store_set_clock(store *s, store_clock_fn clock, void *clock_ud)
{
    s->clock = clock;
    s->clock_ud = clock_ud;
}

void store_set_clock_us(store *s, store_clock_fn clock_us)
{
    s->clock_us = clock_us;
}

int64_t store_now_us(const store *s)
{
    return s->clock_us ? s->clock_us(s->clock_ud) : store_now(s) * 1000;
}

void store_set_replica(store *s, int replica)
{
    s->replica = replica;
}

int store_is_replica(const store *s)
{
    return s->replica;
}

int64_t store_now(const store *s)
{
    return s->clock ? s->clock(s->clock_ud) : 0;
}

void store_set_clock_seen(store *s, void (*fn)(void *ud), void *ud)
{
    s->clock_seen = fn;
    s->clock_seen_ud = ud;
}

void store_clock_seen(store *s)
{
    if (s->clock_seen) s->clock_seen(s->clock_seen_ud);
}

void store_set_deadline_hooks(store *s, store_deadline_set_fn set, store_deadline_read_fn read, void *ud)
{
    s->deadline_set = set;
    s->deadline_read = read;
    s->deadline_ud = ud;
}

void store_deadline_read(store *s, slice key)
{
    if (s->deadline_read) s->deadline_read(s->deadline_ud, key);
}

size_t store_size(const store *s)
{
    return dict_size(s->keys);
}

slice store_key_of(const store *s, const kv *e)
{
    return dict_key_of(s->keys, e);
}

static void notify(store *s, store_event ev, slice key)
{
    if (s->observer) s->observer(s->observer_ud, ev, key);
    if (s->watch) s->watch(s->watch_ud, ev, key);
}

void store_set_watch(store *s, store_observer_fn fn, void *ud)
{
    s->watch = fn;
    s->watch_ud = ud;
}

static void set_expire(store *s, kv *e, int64_t when_ms, const slice *from);

void store_set_expire(store *s, kv *e, int64_t when_ms)
{
    set_expire(s, e, when_ms, NULL);
}

void store_copy_expire(store *s, kv *e, int64_t when_ms, slice from)
{
    set_expire(s, e, when_ms, &from);
}

void store_set_expire_fixed(store *s, kv *e, int64_t when_ms)
{
    static const slice none = { NULL, 0 };
    set_expire(s, e, when_ms, &none);
}

static void set_expire(store *s, kv *e, int64_t when_ms, const slice *from)
{
    if (s->deadline_set) s->deadline_set(s->deadline_ud, store_key_of(s, e), when_ms, from);
    else store_clock_seen(s);
    ttl_remove(&s->ttl, e);
    ttl_add(&s->ttl, e, when_ms, s->seq++);
}

int store_persist(store *s, kv *e)
{
    if (e->ttl_idx == TTL_NONE) return 0;
    ttl_remove(&s->ttl, e);
    return 1;
}

int64_t store_expire(const store *s, const kv *e)
{
    return ttl_of(&s->ttl, e);
}

int64_t store_next_expiry(const store *s)
{
    const ttl_item *it = ttl_first(&s->ttl);
    return it ? it->expire : INT64_MAX;
}

/* ---- keys ---- */

static int is_expired(const store *s, const kv *e)
{
    return e->ttl_idx != TTL_NONE && store_now(s) > ttl_of(&s->ttl, e);
}


/* Frees a deleted key's value, keeping a string's block as a spare when there is room. */
static void value_free(store *s, kv *e)
{
    if (e->type != OBJ_STRING || s->nstr_spare == STR_SPARES) {
        obj_free((obj_type)e->type, e->ptr);
        return;
    }
    size_t size = sstr_block_size(((sstr *)e->ptr)->len);
    s->str_spare[s->nstr_spare] = e->ptr;
    s->str_spare_size[s->nstr_spare++] = size;
    LL_POISON(e->ptr, size);
}

void store_prefetch(const store *s, const slice *keys, size_t n)
{
    uint64_t h[STORE_PREFETCH_MAX];
    const kv *e[STORE_PREFETCH_MAX];
    if (n > STORE_PREFETCH_MAX) n = STORE_PREFETCH_MAX;
    for (size_t i = 0; i < n; i++) {
        h[i] = dict_hash(keys[i].p, keys[i].len);
        dict_prefetch_slot(s->keys, h[i]);
    }
    for (size_t i = 0; i < n; i++) e[i] = dict_prefetch_entry(s->keys, h[i]);
    /* the value: what GET copies, what SET frees (its allocator's header just before it) */
    for (size_t i = 0; i < n; i++) {
        if (!e[i] || !e[i]->ptr) continue;
        __builtin_prefetch((const char *)e[i]->ptr - sizeof(size_t));
        __builtin_prefetch(e[i]->ptr);
    }
}

sstr *store_sstr_new(store *s, const char *p, size_t len)
{
    size_t size = sstr_block_size(len);
    for (size_t i = 0; i < s->nstr_spare; i++) {
        if (s->str_spare_size[i] != size) continue;
        sstr *v = s->str_spare[i];
        LL_UNPOISON(v, size);
        s->nstr_spare--;
        s->str_spare[i] = s->str_spare[s->nstr_spare];
        s->str_spare_size[i] = s->str_spare_size[s->nstr_spare];
        return sstr_fill(v, p, len);
    }
    return sstr_new(p, len);
}

static void remove_entry(store *s, kv *e, store_event ev)
{
    if (ev == STORE_EXPIRED) s->expired++;
    ttl_remove(&s->ttl, e);
    value_free(s, e);
    e->ptr = NULL;
    s->last = NULL;
    if (!s->observer && !s->watch) {
        dict_del_payload(s->keys, e);
        return;
    }
    /* The observer hears of the key once it is gone, and its bytes live in the dict
     * entry: copy them first. */
    slice key = dict_key_of(s->keys, e);
    char small[128];
    char *copy = key.len <= sizeof small ? small : xmalloc(key.len);
    memcpy(copy, key.p, key.len);
    dict_del_payload(s->keys, e);
    notify(s, ev, (slice){ copy, key.len });
    if (copy != small) free(copy);
}

/* Whether key is the last missed one (then its hash is s->miss_hash). */
static int is_miss_key(const store *s, slice key)
{
    return key.len == s->miss_len && memcmp(key.p, s->miss_key, key.len) == 0;
}

/* The entry for key in the dict (expired or not), or NULL; remembers a miss. */
static kv *find_entry(store *s, slice key)
{
    if (is_miss_key(s, key))
        return s->miss_still ? NULL : dict_get_hashed(s->keys, key, s->miss_hash);
    uint64_t h = dict_hash(key.p, key.len);
    kv *e = dict_get_hashed(s->keys, key, h);
    if (!e && key.len <= MISS_KEY_MAX) {
        memcpy(s->miss_key, key.p, key.len);
        s->miss_len = key.len;
        s->miss_hash = h;
        s->miss_still = 1;
    }
    return e;
}

static inline kv *lookup_entry(store *s, slice key)
{
    kv *e = s->last;
    slice k = e ? dict_key_of(s->keys, e) : (slice){ NULL, 0 };
    if (!e || k.len != key.len || memcmp(k.p, key.p, key.len) != 0) {
        e = find_entry(s, key);
        if (!e) return NULL;
        s->last = e;
    }
    if (is_expired(s, e)) {
        if (!s->replica && !s->expire_held) remove_entry(s, e, STORE_EXPIRED);
        return NULL;
    }
    return e;
}

kv *store_lookup(store *s, slice key)
{
    kv *e = lookup_entry(s, key);
    if (e && s->track_access) {
        if (s->lfu) lfu_touch(s, e);
        else e->lru = lru_now(s);
    }
    return e;
}

kv *store_find(store *s, slice key)
{
    return find_entry(s, key);
}

kv *store_peek(store *s, slice key)
{
    return lookup_entry(s, key);
}

kv *store_add(store *s, slice key, obj_type t, void *ptr)
{
    int existed;
    uint64_t h = is_miss_key(s, key) ? s->miss_hash : dict_hash(key.p, key.len);
    kv *e = dict_put_hashed(s->keys, key, h, &existed);
    s->miss_still = 0; /* whichever key this was, the missed one may be it */
    if (existed) {
        /* Only a replica keeps a logically expired key around; a new value replaces it. */
        LL_ASSERT(is_expired(s, e));
        ttl_remove(&s->ttl, e);
        obj_free((obj_type)e->type, e->ptr);
    }
    e->ptr = ptr;
    e->type = (uint8_t)t;
    e->raw = 0;
    e->lru = !s->track_access ? 0 : s->lfu ? (uint16_t)(lfu_minutes(s) << 8 | LFU_INIT_VAL) : lru_now(s);
    e->ttl_idx = TTL_NONE;
    s->last = e;
    if (s->watch && !existed) s->watch(s->watch_ud, STORE_ADDED, key);
    return e;
}

void store_remade(store *s, kv *e)
{
    if (s->watch) s->watch(s->watch_ud, STORE_ADDED, dict_key_of(s->keys, e));
}

kv *store_set(store *s, slice key, obj_type t, void *ptr, int keep_ttl)
{
    kv *e = store_lookup(s, key);
    /* store_add also replaces a replica's logically expired leftover (a primary's lookup
     * has just removed it). */
    if (!e) return store_add(s, key, t, ptr);
    obj_free((obj_type)e->type, e->ptr);
    e->ptr = ptr;
    e->type = (uint8_t)t;
    e->raw = 0;
    if (!keep_ttl) store_persist(s, e);
    return e;
}

int store_delete(store *s, slice key)
{
    kv *e = store_lookup(s, key);
    if (!e) return 0;
    s->changes++;
    remove_entry(s, e, STORE_DELETED);
    return 1;
}

uint64_t store_changes(const store *s)
{
    return s->changes;
}

int store_touched(store *s, kv *e)
{
    s->changes++;
    /* A string is never empty (obj_count is 1): no call to ask. */
    if (e->type != OBJ_STRING && obj_count((obj_type)e->type, e->ptr) == 0) {
        remove_entry(s, e, STORE_DELETED);
        return 1;
    }
    if (s->observer || s->watch) notify(s, STORE_WRITTEN, dict_key_of(s->keys, e));
    return 0;
}

void store_touched_range(store *s, kv *e, size_t off, size_t len)
{
    s->touch_ranged = 1, s->touch_off = off, s->touch_len = len;
    store_touched(s, e);
    s->touch_ranged = 0;
}

int store_touched_bytes(const store *s, size_t *off, size_t *len)
{
    if (!s->touch_ranged) return 0;
    *off = s->touch_off, *len = s->touch_len;
    return 1;
}

void store_hold_expiry(store *s, int on)
{
    s->expire_held = on;
}

uint64_t store_expired_count(const store *s)
{
    return s->expired;
}

size_t store_active_expire(store *s)
{
    if (s->replica || s->expire_held) return 0;
    size_t n = 0;
    int64_t now = store_now(s);
    const ttl_item *it;
    while ((it = ttl_first(&s->ttl)) && now > it->expire) {
        remove_entry(s, it->e, STORE_EXPIRED);
        n++;
    }
    return n;
}

void store_flush(store *s)
{
    s->changes += dict_size(s->keys);
    dict_free(s->keys, kv_release);
    s->keys = dict_new(sizeof(kv));
    ttl_clear(&s->ttl);
    s->last = NULL;
}

kv *store_next(const store *s, size_t *it)
{
    return dict_next(s->keys, it);
}

static int ttl_seq_cmp(const void *a, const void *b)
{
    uint64_t x = ((const ttl_item *)a)->seq, y = ((const ttl_item *)b)->seq;
    return (x > y) - (x < y);
}

store *store_clone(const store *s)
{
    store *c = store_new(s->clock, s->clock_ud);
    c->clock_us = s->clock_us;
    c->replica = s->replica;
    c->track_access = s->track_access;
    c->lfu = s->lfu;
    size_t it = 0;
    kv *e;
    while ((e = dict_next(s->keys, &it)))
    {
        kv *ce = store_add(c, dict_key_of(s->keys, e), (obj_type)e->type, obj_clone((obj_type)e->type, e->ptr));
        ce->raw = e->raw;
        ce->lru = e->lru;
    }
    /* Re-set the TTLs in the order they were set (sequence numbers are unique), which
     * reproduces the original tie order. */
    ttl_item *items;
    size_t n = ttl_items(&s->ttl, &items);
    qsort(items, n, sizeof *items, ttl_seq_cmp);
    for (size_t i = 0; i < n; i++) {
        kv *ce = dict_get(c->keys, dict_key_of(s->keys, items[i].e));
        store_set_expire(c, ce, items[i].expire);
    }
    free(items);
    return c;
}

/* ---- dump and fingerprint ---- */

static int cmp_kv(const void *a, const void *b, void *ud)
{
    const dict *d = ud;
    return slice_cmp(dict_key_of(d, *(kv *const *)a), dict_key_of(d, *(kv *const *)b));
}

/* qsort_r is a GNU extension; a small merge sort keeps this portable and stable. */
static void sort_kvs(kv **v, size_t n, const dict *d)
{
    if (n < 2) return;
    kv **tmp = xmalloc(n * sizeof *tmp);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = cmp_kv(&v[j], &v[i], (void *)d) < 0 ? v[j++] : v[i++];
            while (i < mid) tmp[k++] = v[i++];
            while (j < hi) tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    free(tmp);
}

void store_dump_key(const store *s, const kv *e, buf *out, int absolute)
{
    slice key = dict_key_of(s->keys, e);
    dump_repr(out, key.p, key.len);
    buf_printf(out, " %s ", obj_type_name((obj_type)e->type));
    if (absolute) {
        buf_printf(out, "at=%lld ", (long long)ttl_of(&s->ttl, e));
    } else {
        long long left = -1;
        if (e->ttl_idx != TTL_NONE) {
            left = ttl_of(&s->ttl, e) - store_now(s);
            if (left < 0) left = 0;
        }
        buf_printf(out, "pttl=%lld ", left);
    }
    obj_dump((obj_type)e->type, e->ptr, out);
    buf_putc(out, '\n');
}

void store_dump(const store *s, buf *out, int absolute)
{
    size_t n = 0, it = 0;
    kv **v = xmalloc((dict_size(s->keys) + 1) * sizeof *v);
    kv *e;
    while ((e = dict_next(s->keys, &it)))
        if (!is_expired(s, e)) v[n++] = e;
    sort_kvs(v, n, s->keys);
    for (size_t i = 0; i < n; i++) store_dump_key(s, v[i], out, absolute);
    free(v);
}

uint64_t store_fingerprint(const store *s)
{
    buf b;
    buf_init(&b);
    store_dump(s, &b, 1);
    uint64_t h = dict_hash(b.p ? b.p : "", b.len);
    buf_release(&b);
    return h;
}

size_t store_bytes(const store *s)
{
    size_t total = sizeof *s + ttl_bytes(&s->ttl);
    size_t it = 0;
    kv *e;
    while ((e = dict_next(s->keys, &it)))
        total += 16 + sizeof(kv) + dict_key_of(s->keys, e).len + obj_bytes((obj_type)e->type, e->ptr);
    return total;
}
