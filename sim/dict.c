/* dict.c — see dict.h.
 *
 * A slot holds the low 32 bits of the entry's hash and its pointer (12 bytes, in two arrays:
 * the hashes, and the pointers, each aligned — a leak checker finds an entry through its
 * pointer only where the pointer is aligned), so probing compares hashes in the hash array
 * and follows a pointer only on a match, and deletion's
 * backward shift and growing find each entry's home slot without touching the entry: in a
 * big keyspace every entry read is a cache miss, and a lookup that misses at load 3/4 probes
 * several slots. A table is at most 2^32 slots. An entry's header is 8 bytes: the same 32
 * bits of hash and the key's length (its room is a function of the length), so that a key
 * of a dozen bytes with a 16-byte payload fills a 48-byte malloc chunk (issue 39: memory per
 * key).
 *
 * Entry allocations are sized to fill the malloc chunk they get (ll_chunk_size), and the
 * dict keeps up to DICT_SPARES deleted entries to reuse for keys of the same chunk size: a
 * keyspace where keys come and go (lock, latch) then rarely calls malloc or free. Under
 * AddressSanitizer the spares are poisoned, so a use of a deleted entry is still reported. */
#include "dict.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef struct dent {
    uint32_t hash;    /* the low 32 bits of the key's hash */
    uint32_t klen;
    /* followed by the payload (aligned to 8), then the key bytes (key_room of them) */
} dent;

#define DICT_SPARES 4

struct dict {
    uint32_t *sh; /* per slot: its entry's hash (meaningless where the entry is NULL) */
    dent **se;    /* per slot: the entry, NULL: empty */
    size_t cap;   /* power of two, or 0 */
    size_t count;
    size_t payload; /* rounded up to 8 */
    /* Deleted entries kept for reuse, poisoned under ASan, and their rooms (kept here: the
     * poisoned entry is not read). */
    size_t nspare;
    dent *spare[DICT_SPARES];
    uint32_t spare_room[DICT_SPARES];
};

#define PAYLOAD(e) ((void *)((char *)(e) + sizeof(dent)))
#define KEYP(d, e) ((char *)(e) + sizeof(dent) + (d)->payload)

/* The room for a key of klen bytes: what is left of the malloc chunk an entry with that
 * key needs, so that keys of one chunk size share a room. */
static size_t key_room(const dict *d, size_t klen)
{
    return ll_chunk_size(sizeof(dent) + d->payload + klen) - sizeof(dent) - d->payload;
}

static size_t entry_size(const dict *d, size_t room)
{
    return sizeof(dent) + d->payload + room;
}

/* A block for an entry with a key of klen bytes: a spare of the same room, or a new one. */
static dent *entry_alloc(dict *d, size_t klen)
{
    size_t room = key_room(d, klen);
    for (size_t i = 0; i < d->nspare; i++) {
        if (d->spare_room[i] != room) continue;
        dent *e = d->spare[i];
        LL_UNPOISON(e, entry_size(d, room));
        d->nspare--;
        d->spare[i] = d->spare[d->nspare];
        d->spare_room[i] = d->spare_room[d->nspare];
        return e;
    }
    return xmalloc(entry_size(d, room));
}

/* Keeps a deleted entry as a spare, or frees it if there are enough. */
static void entry_free(dict *d, dent *e)
{
    if (d->nspare == DICT_SPARES) {
        free(e);
        return;
    }
    uint32_t room = (uint32_t)key_room(d, e->klen);
    d->spare[d->nspare] = e;
    d->spare_room[d->nspare++] = room;
    LL_POISON(e, entry_size(d, room));
}

uint64_t dict_hash(const void *p, size_t len)
{
    return XXH3_64bits(p, len);
}

dict *dict_new(size_t payload_size)
{
    dict *d = xcalloc(1, sizeof *d);
    d->payload = (payload_size + 7) & ~(size_t)7;
    return d;
}

void dict_free(dict *d, void (*release)(void *payload))
{
    if (!d) return;
    for (size_t i = 0; i < d->cap; i++) {
        dent *e = d->se[i];
        if (!e) continue;
        if (release) release(PAYLOAD(e));
        free(e);
    }
    for (size_t i = 0; i < d->nspare; i++) {
        LL_UNPOISON(d->spare[i], entry_size(d, d->spare_room[i]));
        free(d->spare[i]);
    }
    free(d->sh);
    free(d->se);
    free(d);
}

size_t dict_size(const dict *d)
{
    return d->count;
}

/* The entry for key (hash h), or NULL; *pos (if asked) is its slot, or the empty slot
 * that ends its probe run. Inline: every lookup, insert and delete runs it. */
static inline dent *find(const dict *d, slice key, uint64_t h, size_t *pos)
{
    if (!d->cap) return NULL;
    size_t mask = d->cap - 1;
    uint32_t h32 = (uint32_t)h;
    for (size_t i = h32 & mask;; i = (i + 1) & mask) {
        dent *e = d->se[i];
        if (!e) {
            if (pos) *pos = i;
            return NULL;
        }
        if (d->sh[i] == h32 && e->klen == key.len && memcmp(KEYP(d, e), key.p, key.len) == 0) {
            if (pos) *pos = i;
            return e;
        }
    }
}

void *dict_get(const dict *d, slice key)
{
    if (!d->count) return NULL; /* no need to hash (PUBLISH to a channel nobody heard of) */
    return dict_get_hashed(d, key, dict_hash(key.p, key.len));
}

/* Not inlined into dict_get, so that its early return needs no stack frame. */
__attribute__((noinline)) void *dict_get_hashed(const dict *d, slice key, uint64_t h)
{
    dent *e = find(d, key, h, NULL);
    return e ? PAYLOAD(e) : NULL;
}

void dict_prefetch_slot(const dict *d, uint64_t h)
{
    if (d->cap) {
        __builtin_prefetch(&d->sh[(uint32_t)h & (d->cap - 1)]);
        __builtin_prefetch(&d->se[(uint32_t)h & (d->cap - 1)]);
    }
}

void *dict_prefetch_entry(const dict *d, uint64_t h)
{
    if (!d->cap) return NULL;
    size_t mask = d->cap - 1;
    uint32_t h32 = (uint32_t)h;
    for (size_t i = h32 & mask;; i = (i + 1) & mask) {
        dent *e = d->se[i];
        if (!e) return NULL;
        if (d->sh[i] == h32) {
            __builtin_prefetch(e);
            __builtin_prefetch(KEYP(d, e) + e->klen - 1); /* the key's last byte: maybe the next line */
            return PAYLOAD(e);
        }
    }
}

static void grow(dict *d)
{
    size_t ncap = d->cap ? d->cap * 2 : 8;
    LL_ASSERT(ncap - 1 <= UINT32_MAX);
    uint32_t *nh = xcalloc(ncap, sizeof *nh);
    dent **ne = xcalloc(ncap, sizeof *ne);
    for (size_t i = 0; i < d->cap; i++) {
        if (!d->se[i]) continue;
        size_t j = d->sh[i] & (ncap - 1);
        while (ne[j]) j = (j + 1) & (ncap - 1);
        nh[j] = d->sh[i];
        ne[j] = d->se[i];
    }
    free(d->sh);
    free(d->se);
    d->sh = nh;
    d->se = ne;
    d->cap = ncap;
}

void *dict_put(dict *d, slice key, int *existed)
{
    return dict_put_hashed(d, key, dict_hash(key.p, key.len), existed);
}

void *dict_put_hashed(dict *d, slice key, uint64_t h, int *existed)
{
    if ((d->count + 1) * 4 > d->cap * 3) grow(d);
    size_t pos = 0; /* set by find: the table is not empty after grow() */
    dent *e = find(d, key, h, &pos);
    if (existed) *existed = e != NULL;
    if (e) return PAYLOAD(e);
    LL_ASSERT(key.len <= UINT32_MAX);
    e = entry_alloc(d, key.len);
    e->hash = (uint32_t)h;
    e->klen = (uint32_t)key.len;
    memset(PAYLOAD(e), 0, d->payload);
    if (key.len) memcpy(KEYP(d, e), key.p, key.len);
    d->sh[pos] = (uint32_t)h;
    d->se[pos] = e;
    d->count++;
    return PAYLOAD(e);
}

static void del_at(dict *d, size_t pos);

int dict_del(dict *d, slice key)
{
    size_t pos;
    dent *e = find(d, key, dict_hash(key.p, key.len), &pos);
    if (!e) return 0;
    del_at(d, pos);
    return 1;
}

void dict_del_payload(dict *d, void *payload)
{
    dent *e = (dent *)((char *)payload - sizeof(dent));
    size_t mask = d->cap - 1, pos = e->hash & mask;
    while (d->se[pos] != e) pos = (pos + 1) & mask;
    del_at(d, pos);
}

/* Frees the entry in slot pos and closes the hole. */
static void del_at(dict *d, size_t pos)
{
    entry_free(d, d->se[pos]);
    d->count--;
    /* Backward-shift deletion: move later members of the probe run into the hole when
     * their home slot does not lie cyclically in (hole, j]. */
    size_t mask = d->cap - 1, hole = pos;
    for (size_t j = (pos + 1) & mask; d->se[j]; j = (j + 1) & mask) {
        size_t home = d->sh[j] & mask;
        int in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (in_range) continue;
        d->sh[hole] = d->sh[j];
        d->se[hole] = d->se[j];
        hole = j;
    }
    d->sh[hole] = 0;
    d->se[hole] = NULL;
}

slice dict_key_of(const dict *d, const void *payload)
{
    const dent *e = (const dent *)((const char *)payload - sizeof(dent));
    return (slice){ (const char *)payload + d->payload, e->klen };
}

void *dict_next(const dict *d, size_t *it)
{
    while (*it < d->cap) {
        dent *e = d->se[(*it)++];
        if (e) return PAYLOAD(e);
    }
    return NULL;
}
