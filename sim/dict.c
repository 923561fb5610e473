/* dict.c — see dict.h.
 *
 * A slot holds the entry's hash beside its pointer, so probing compares hashes in the slot
 * array and follows a pointer only on a full-hash match, and deletion's backward shift
 * finds each entry's home slot without touching the entry: in a big keyspace every entry
 * read is a cache miss, and a lookup that misses at load 3/4 probes several slots.
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
    uint64_t hash;
    uint32_t klen;
    uint32_t room;    /* bytes allocated for the key */
    /* followed by the payload (aligned to 8), then the key bytes */
} dent;

#define DICT_SPARES 4

typedef struct dslot {
    uint64_t hash; /* the entry's hash (meaningless when e is NULL) */
    dent *e;       /* NULL: empty */
} dslot;

struct dict {
    dslot *slot;
    size_t cap;   /* power of two, or 0 */
    size_t count;
    size_t payload; /* rounded up to 8 */
    /* Deleted entries kept for reuse, poisoned under ASan, and their rooms (read here, not
     * in the poisoned entry). */
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
    LL_ASSERT(room <= UINT32_MAX);
    dent *e = xmalloc(entry_size(d, room));
    e->room = (uint32_t)room;
    return e;
}

/* Keeps a deleted entry as a spare, or frees it if there are enough. */
static void entry_free(dict *d, dent *e)
{
    if (d->nspare == DICT_SPARES) {
        free(e);
        return;
    }
    d->spare[d->nspare] = e;
    d->spare_room[d->nspare++] = e->room;
    LL_POISON(e, entry_size(d, e->room));
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
        if (!d->slot[i].e) continue;
        if (release) release(PAYLOAD(d->slot[i].e));
        free(d->slot[i].e);
    }
    for (size_t i = 0; i < d->nspare; i++) {
        LL_UNPOISON(d->spare[i], entry_size(d, d->spare_room[i]));
        free(d->spare[i]);
    }
    free(d->slot);
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
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const dslot *sl = &d->slot[i];
        if (!sl->e) {
            if (pos) *pos = i;
            return NULL;
        }
        if (sl->hash == h && sl->e->klen == key.len && memcmp(KEYP(d, sl->e), key.p, key.len) == 0) {
            if (pos) *pos = i;
            return sl->e;
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
    if (d->cap) __builtin_prefetch(&d->slot[h & (d->cap - 1)]);
}

void *dict_prefetch_entry(const dict *d, uint64_t h)
{
    if (!d->cap) return NULL;
    size_t mask = d->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const dslot *sl = &d->slot[i];
        if (!sl->e) return NULL;
        if (sl->hash == h) {
            __builtin_prefetch(sl->e);
            __builtin_prefetch(KEYP(d, sl->e) + sl->e->klen - 1); /* the key's last byte: maybe the next line */
            return PAYLOAD(sl->e);
        }
    }
}

static void grow(dict *d)
{
    size_t ncap = d->cap ? d->cap * 2 : 8;
    dslot *ns = xcalloc(ncap, sizeof *ns);
    for (size_t i = 0; i < d->cap; i++) {
        if (!d->slot[i].e) continue;
        size_t j = d->slot[i].hash & (ncap - 1);
        while (ns[j].e) j = (j + 1) & (ncap - 1);
        ns[j] = d->slot[i];
    }
    free(d->slot);
    d->slot = ns;
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
    e->hash = h;
    e->klen = (uint32_t)key.len;
    memset(PAYLOAD(e), 0, d->payload);
    if (key.len) memcpy(KEYP(d, e), key.p, key.len);
    d->slot[pos] = (dslot){ h, e };
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
    while (d->slot[pos].e != e) pos = (pos + 1) & mask;
    del_at(d, pos);
}

/* Frees the entry in slot pos and closes the hole. */
static void del_at(dict *d, size_t pos)
{
    entry_free(d, d->slot[pos].e);
    d->count--;
    /* Backward-shift deletion: move later members of the probe run into the hole when
     * their home slot does not lie cyclically in (hole, j]. */
    size_t mask = d->cap - 1, hole = pos;
    for (size_t j = (pos + 1) & mask; d->slot[j].e; j = (j + 1) & mask) {
        size_t home = d->slot[j].hash & mask;
        int in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (in_range) continue;
        d->slot[hole] = d->slot[j];
        hole = j;
    }
    d->slot[hole].e = NULL;
}

slice dict_key_of(const dict *d, const void *payload)
{
    const dent *e = (const dent *)((const char *)payload - sizeof(dent));
    return (slice){ (const char *)payload + d->payload, e->klen };
}

void *dict_next(const dict *d, size_t *it)
{
    while (*it < d->cap) {
        dent *e = d->slot[(*it)++].e;
        if (e) return PAYLOAD(e);
    }
    return NULL;
}
