/* store.h — one Redis node's keyspace: keys mapped to typed values, each with an optional
 * expiry deadline in ms on the node's *local* clock (read through a clock function, so the
 * simulator's drift and jumps change when keys expire).
 *
 * Expiry is lazy, as in Redis: a lookup of a key whose deadline has passed (now > deadline,
 * strictly) deletes it and reports it missing. On top of that the engine calls
 * store_active_expire() at the deadlines store_next_expiry() tells it, standing in for
 * Redis's active expire cycle. A replica store never deletes expired keys itself (it waits
 * for its master's DEL) but answers reads of them as missing.
 *
 * Every change to a key is reported to an optional observer (replication, persistence, the
 * history of who owned a lock key). Command handlers report their writes with
 * store_touched(); deletions and expiries are reported by the store itself.
 *
 * Canonical dump: one line per key, keys in byte order:
 *     "key" <type> pttl=<ms left, or -1> <value>
 * where <value> is "s" for a string, {"f": "v", ...} for a hash (fields in byte order),
 * ["a", "b"] for a list, {"a", "b"} for a set (members in byte order), and {"m": score, ...}
 * for a zset in (score, member) order, with
 * scores printed as Redis 7.0 prints them. With `absolute`, pttl= becomes at=<deadline>. */
#ifndef LOCKLAB_STORE_H
#define LOCKLAB_STORE_H

#include "kv.h"
#include "object.h"
#include "util.h"

typedef struct store store;

typedef int64_t (*store_clock_fn)(void *ud);

/* STORE_ADDED (a key that did not exist is made: Redis's dbAdd) is heard by the watch hook
 * only (store_set_watch), never by the observer. */
typedef enum store_event { STORE_WRITTEN, STORE_DELETED, STORE_EXPIRED, STORE_ADDED } store_event;
typedef void (*store_observer_fn)(void *ud, store_event ev, slice key);

store *store_new(store_clock_fn clock, void *clock_ud);
/* An empty store with model's clock, clock-seen hook and role (another database of the
 * same server); no observer. */
store *store_new_like(const store *model);
void store_free(store *s);
store *store_clone(const store *s);         /* deep copy; observer not copied */
void store_flush(store *s);                 /* FLUSHALL: no events reported */
void store_set_observer(store *s, store_observer_fn fn, void *ud);
/* A second observer, the server's own (WATCH: a watched key written, deleted or expired);
 * it hears every event the observer hears, and is not copied by store_clone either. */
void store_set_watch(store *s, store_observer_fn fn, void *ud);
void store_set_clock(store *s, store_clock_fn clock, void *clock_ud);
void store_set_replica(store *s, int replica);
int store_is_replica(const store *s);

int64_t store_now(const store *s);          /* local ms, from the clock function */
/* The same clock to the µs (Redis's TIME, in a script too): a function of the clock's ud, or
 * NULL for the ms clock × 1000. */
void store_set_clock_us(store *s, store_clock_fn clock_us);
int64_t store_now_us(const store *s);
/* Access tracking for OBJECT IDLETIME (off by default: the simulated world does not ask,
 * and it costs a clock read per lookup): each lookup and each new value stamps the key. */
void store_set_track_access(store *s, int on);
/* An LFU maxmemory-policy: kv.lru becomes a decaying logarithmic access counter (OBJECT FREQ). */
void store_set_lfu(store *s, int on);
int store_lfu(const store *s);
long long store_freq(const store *s, const kv *e);
/* RESTORE's IDLETIME (idle_s >= 0, LRU) or FREQ (freq >= 0, LFU), where access is tracked */
void store_set_access(store *s, kv *e, long long idle_s, long long freq);
/* A lookup that leaves the access time alone (Redis's LOOKUP_NOTOUCH: OBJECT, TYPE,
 * EXISTS, TTL and the like, SCAN's TYPE filter); otherwise store_lookup's. */
kv *store_peek(store *s, slice key);
/* The entry as it is, a key past its deadline included (DEBUG OBJECT, DIGEST-VALUE: Redis's
 * dictFind), with no access, no expiry */
kv *store_find(store *s, slice key);
/* Seconds since e was last accessed (0 when access is not tracked). */
long long store_idle_s(const store *s, const kv *e);
/* Reading the clock for a value that leaves the keyspace's own bookkeeping — a deadline set
 * from it, a TTL or the time in a reply — is reported to this hook (the model checker's
 * reductions must know where behaviour can depend on a clock's value, not only on the order
 * of events); expiry checks are not reported (the deadlines they compare with are events). */
void store_set_clock_seen(store *s, void (*fn)(void *ud), void *ud);
void store_clock_seen(store *s);
/* Deadlines, told apart when the host follows them (the model checker): a key's deadline was
 * set now (`from`: the key whose deadline it copies, as COPY and RENAME do; a slice without
 * bytes: a deadline no step of this keyspace fixed, store_set_expire_fixed; NULL: from the
 * clock and the command's arguments), or a key's deadline left the keyspace (a TTL in a
 * reply, a comparison with it, the key moved to another database). Without these hooks a
 * deadline set counts as a clock reading. */
typedef void (*store_deadline_set_fn)(void *ud, slice key, int64_t when_ms, const slice *from);
typedef void (*store_deadline_read_fn)(void *ud, slice key);
void store_set_deadline_hooks(store *s, store_deadline_set_fn set, store_deadline_read_fn read, void *ud);
void store_deadline_read(store *s, slice key);
size_t store_size(const store *s);          /* keys, including not yet reaped expired ones */

/* Warms the cache for the lookups of these keys that are about to come (a pipelined batch
 * of requests): their slots, entries and values, in stages (dict_prefetch_slot). Changes
 * nothing; at most STORE_PREFETCH_MAX keys are looked at. */
#define STORE_PREFETCH_MAX 64
void store_prefetch(const store *s, const slice *keys, size_t n);

/* Lookups. Both return NULL for a missing or logically expired key; on a master they also
 * delete the expired key (lazy expiry). */
kv *store_lookup(store *s, slice key);
/* Adds a new key (it must not exist, or be a replica's logically expired leftover, which is
 * replaced) holding ptr (ownership taken); no expiry. */
kv *store_add(store *s, slice key, obj_type t, void *ptr);
/* A new string value (to store under a key of s): in the block of a string value s deleted
 * recently when one of the same size is at hand, else from sstr_new. */
sstr *store_sstr_new(store *s, const char *p, size_t len);
/* SET semantics: replaces any value (of any type) and clears the TTL unless keep_ttl. */
kv *store_set(store *s, slice key, obj_type t, void *ptr, int keep_ttl);
/* e's value was replaced as Redis's dbDelete then dbAdd replace it (RENAME, COPY REPLACE
 * onto a key that exists): the watch hook hears it made (STORE_ADDED). */
void store_remade(store *s, kv *e);
int store_delete(store *s, slice key);      /* 1 if a live key was deleted */
slice store_key_of(const store *s, const kv *e);

/* e's deadline: absolute, in local ms, or -1 (none) */
int64_t store_expire(const store *s, const kv *e);
void store_set_expire(store *s, kv *e, int64_t when_ms);
/* The same, for a deadline copied from another key (COPY, RENAME): `from` names it. */
void store_copy_expire(store *s, kv *e, int64_t when_ms, slice from);
/* The same, for a deadline no step of this keyspace fixed: an absolute time from the command
 * (EXPIREAT, SET PXAT), or a key come from another database (MOVE, COPY DB, SWAPDB). The
 * hook hears `from` as a slice without bytes. */
void store_set_expire_fixed(store *s, kv *e, int64_t when_ms);
int store_persist(store *s, kv *e);         /* 1 if a TTL was removed */
/* After a handler changed e's value in place: deletes the key if its aggregate is empty
 * (returns 1 then) and reports the write to the observer. */
int store_touched(store *s, kv *e);
/* store_touched for a write in place: a string's bytes [off, off + len) (APPEND, SETRANGE,
 * SETBIT, BITFIELD; a new key's other bytes are zeros), or with len 0 no byte of any value
 * (EXPIRE, PERSIST: its TTL). An observer may ask which bytes (store_touched_bytes), to record
 * the write by what it did, not by the whole value. */
void store_touched_range(store *s, kv *e, size_t off, size_t len);
/* Inside a store_touched_range, 1 and its bytes; otherwise 0. */
int store_touched_bytes(const store *s, size_t *off, size_t *len);

int64_t store_next_expiry(const store *s);  /* earliest deadline, or INT64_MAX */
size_t store_active_expire(store *s);       /* deletes keys past their deadline; count */
/* CLIENT PAUSE: keys past their deadline read as missing but are not removed, actively or
 * lazily, until it ends (Redis 7.0 skips expiry while clients are paused) */
void store_hold_expiry(store *s, int on);
uint64_t store_expired_count(const store *s); /* keys removed at their deadline so far */
/* Keys written (store_touched) or deleted (store_delete, store_flush) so far: INFO's
 * rdb_changes_since_last_save, which Redis counts in its own units per command (elements for
 * SADD, HSET, LPUSH ...; a key here) */
uint64_t store_changes(const store *s);

void store_dump(const store *s, buf *out, int absolute);
uint64_t store_fingerprint(const store *s); /* hash of the absolute dump */
void store_dump_key(const store *s, const kv *e, buf *out, int absolute);
/* Iterates live and not-yet-reaped keys in no particular order; it starts at 0. */
kv *store_next(const store *s, size_t *it);
size_t store_bytes(const store *s);         /* approximate memory in use */

#endif
