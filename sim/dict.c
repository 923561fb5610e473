/* dict.c — see dict.h. */
#include "dict.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef struct dent {
    uint64_t hash;
    uint32_t klen;
    /* followed by the payload (aligned to 8), then the key bytes */
} dent;

struct dict {
    dent **slot;
    size_t cap;   /* power of two, or 0 */
    size_t count;
    size_t payload; /* rounded up to 8 */
};

#define PAYLOAD(e) ((void *)((char *)(e) + sizeof(dent)))
#define KEYP(d, e) ((char *)(e) + sizeof(dent) + (d)->payload)

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
        if (!d->slot[i]) continue;
        if (release) release(PAYLOAD(d->slot[i]));
        free(d->slot[i]);
    }
    free(d->slot);
    free(d);
}

size_t dict_size(const dict *d)
{
    return d->count;
}

static dent *find(const dict *d, slice key, uint64_t h, size_t *pos)
{
    if (!d->cap) return NULL;
    size_t mask = d->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        dent *e = d->slot[i];
        if (!e) {
            if (pos) *pos = i;
            return NULL;
        }
        if (e->hash == h && e->klen == key.len && memcmp(KEYP(d, e), key.p, key.len) == 0) {
            if (pos) *pos = i;
            return e;
        }
    }
}

void *dict_get(const dict *d, slice key)
{
    dent *e = find(d, key, dict_hash(key.p, key.len), NULL);
    return e ? PAYLOAD(e) : NULL;
}

static void grow(dict *d)
{
    size_t ncap = d->cap ? d->cap * 2 : 8;
    dent **ns = xcalloc(ncap, sizeof *ns);
    for (size_t i = 0; i < d->cap; i++) {
        dent *e = d->slot[i];
        if (!e) continue;
        size_t j = e->hash & (ncap - 1);
        while (ns[j]) j = (j + 1) & (ncap - 1);
        ns[j] = e;
    }
    free(d->slot);
    d->slot = ns;
    d->cap = ncap;
}

void *dict_put(dict *d, slice key, int *existed)
{
    uint64_t h = dict_hash(key.p, key.len);
    if ((d->count + 1) * 4 > d->cap * 3) grow(d);
    size_t pos;
    dent *e = find(d, key, h, &pos);
    if (existed) *existed = e != NULL;
    if (e) return PAYLOAD(e);
    LL_ASSERT(key.len <= UINT32_MAX);
    e = xmalloc(sizeof(dent) + d->payload + key.len);
    e->hash = h;
    e->klen = (uint32_t)key.len;
    memset(PAYLOAD(e), 0, d->payload);
    if (key.len) memcpy(KEYP(d, e), key.p, key.len);
    d->slot[pos] = e;
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
    while (d->slot[pos] != e) pos = (pos + 1) & mask;
    del_at(d, pos);
}

/* Frees the entry in slot pos and closes the hole. */
static void del_at(dict *d, size_t pos)
{
    free(d->slot[pos]);
    d->count--;
    /* Backward-shift deletion: move later members of the probe run into the hole when
     * their home slot does not lie cyclically in (hole, j]. */
    size_t mask = d->cap - 1, hole = pos;
    for (size_t j = (pos + 1) & mask; d->slot[j]; j = (j + 1) & mask) {
        size_t home = d->slot[j]->hash & mask;
        int in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (in_range) continue;
        d->slot[hole] = d->slot[j];
        hole = j;
    }
    d->slot[hole] = NULL;
}

slice dict_key_of(const dict *d, const void *payload)
{
    const dent *e = (const dent *)((const char *)payload - sizeof(dent));
    return (slice){ (const char *)payload + d->payload, e->klen };
}

void *dict_next(const dict *d, size_t *it)
{
    while (*it < d->cap) {
        dent *e = d->slot[(*it)++];
        if (e) return PAYLOAD(e);
    }
    return NULL;
}
