/* hash.c — the hash type: its representation and its API (hash.h).
 *
 * Representation. A lock is usually a hash with one field (the owner id) holding a small
 * counter, and the simulator may hold a million of them, so a small hash is ONE contiguous
 * allocation, like Redis's listpack:
 *
 *     [enc=SMALL][count (3 bytes)][used (4 bytes)] then `count` records, `used` bytes in all:
 *     [flen][field bytes][vlen][value bytes] ...
 *
 * Lookups scan it linearly, which is faster than hashing at these sizes. Records stay in
 * insertion order (an update rewrites the value in place), so HGETALL answers in the order
 * Redis's listpack does. The header is 8 bytes; a one-field lock costs one malloc chunk.
 *
 * A hash converts, once and for good (as in Redis), to a dict (dict.h) from field to an
 * sstr* value when it would hold more than hash-max-listpack-entries fields or when a field
 * or value longer than hash-max-listpack-value bytes is written (the server's enc_limits,
 * value.h: 512 and 64 by default, as in Redis 7.0). Field order is then the dict's.
 * A length is one byte below 255 (every length, with the default limits), else the byte
 * 255 and four bytes, for limits raised by CONFIG SET.
 *
 * Invariants: a small hash has count <= hash-max-listpack-entries (and < 2^24) and every length <=
 * hash-max-listpack-value, as they were when it was written; `used` fits 32 bits; field
 * names are unique in either encoding; an empty
 * hash exists only transiently (the handler's store_touched() deletes the key). The first
 * byte of either encoding is its tag, read through an unsigned char pointer. */
#include "hash.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dict.h"

enum { HASH_SMALL = 1, HASH_BIG = 2 };

typedef struct hsmall {
    uint8_t enc;
    uint8_t count_hi; /* the count's bits 16..23 (limits raised past 65535 fields) */
    uint16_t count;   /* its bits 0..15 */
    uint32_t used;
    unsigned char data[];
} hsmall;

typedef struct hbig {
    uint8_t enc;
    dict *d; /* field -> sstr* */
} hbig;

static int hash_enc(const hash *h)
{
    return *(const unsigned char *)h;
}

#define SMALL(h) ((hsmall *)(void *)(h))
#define CSMALL(h) ((const hsmall *)(const void *)(h))
#define BIG(h) ((hbig *)(void *)(h))
#define CBIG(h) ((const hbig *)(const void *)(h))

/* ---- the small encoding ---- */

#define SMALL_MAX_COUNT 0xffffff /* past it a hash converts, whatever the limit says */

static size_t small_count(const hsmall *s)
{
    return (size_t)s->count_hi << 16 | s->count;
}

static void small_set_count(hsmall *s, size_t n)
{
    s->count_hi = (uint8_t)(n >> 16);
    s->count = (uint16_t)n;
}

/* An item's length: one byte below 255, else 255 and four bytes (little-endian). */
static size_t item_head(size_t len)
{
    return len < 255 ? 1 : 5;
}

static const unsigned char *item_read(const unsigned char *p, slice *v)
{
    if (p[0] < 255) {
        v->len = p[0];
        p += 1;
    } else {
        v->len = (size_t)p[1] | (size_t)p[2] << 8 | (size_t)p[3] << 16 | (size_t)p[4] << 24;
        p += 5;
    }
    v->p = (const char *)p;
    return p + v->len;
}

/* Reads the record at byte offset off; returns the offset of the next one. */
static size_t small_record(const hsmall *s, size_t off, slice *field, slice *value)
{
    const unsigned char *p = item_read(s->data + off, field);
    p = item_read(p, value);
    return (size_t)(p - s->data);
}

/* The byte offset of field's record, or -1. */
static long small_find(const hsmall *s, slice field, slice *value)
{
    slice f, v;
    for (size_t off = 0; off < s->used;) {
        size_t next = small_record(s, off, &f, &v);
        if (f.len == field.len && memcmp(f.p, field.p, f.len) == 0) {
            if (value) *value = v;
            return (long)off;
        }
        off = next;
    }
    return -1;
}

/* Replaces bytes [off, off + old) of the records with `len` bytes from p (copied), growing
 * or shrinking the single allocation. p must not point into s. Returns the moved hash. */
/* The allocation behind a small hash of `used` record bytes: a function of `used` alone
 * (no stored capacity), in 32-byte steps from 64, so a new hash takes its first field
 * (a lock's owner and count) without a realloc. */
static size_t small_alloc_size(size_t used)
{
    size_t n = (sizeof(hsmall) + used + 31) & ~(size_t)31;
    return n < 64 ? 64 : n;
}

static hsmall *small_splice(hsmall *s, size_t off, size_t old, const void *p, size_t len)
{
    size_t used = s->used, tail = used - off - old, nused = used - old + len;
    LL_ASSERT(nused <= UINT32_MAX);
    int resize = small_alloc_size(nused) != small_alloc_size(used);
    if (len > old && resize) s = xrealloc(s, small_alloc_size(nused));
    memmove(s->data + off + len, s->data + off + old, tail);
    if (len) memcpy(s->data + off, p, len);
    if (len < old && resize) s = xrealloc(s, small_alloc_size(nused));
    s->used = (uint32_t)nused;
    return s;
}

/* A [len][bytes] item for the small encoding, written to dst (which holds
 * item_head(len) + len). */
static size_t small_item(unsigned char *dst, slice v)
{
    size_t h = item_head(v.len);
    if (h == 1) {
        dst[0] = (unsigned char)v.len;
    } else {
        LL_ASSERT(v.len <= UINT32_MAX);
        dst[0] = 255;
        for (int i = 0; i < 4; i++) dst[1 + i] = (unsigned char)(v.len >> (8 * i));
    }
    if (v.len) memcpy(dst + h, v.p, v.len);
    return h + v.len;
}

/* ---- the big encoding ---- */

static void big_release(void *payload)
{
    free(*(sstr **)payload);
}

static hbig *big_new(void)
{
    hbig *b = xmalloc(sizeof *b);
    b->enc = HASH_BIG;
    b->d = dict_new(sizeof(sstr *));
    return b;
}

static int big_set(hbig *b, slice field, slice value)
{
    int existed;
    sstr **slot = dict_put(b->d, field, &existed);
    free(*slot);
    *slot = sstr_new(value.p, value.len);
    return !existed;
}

/* Converts a small hash to the big encoding, in record order; frees s. */
static hbig *small_to_big(hsmall *s)
{
    hbig *b = big_new();
    slice f, v;
    for (size_t off = 0; off < s->used;) {
        off = small_record(s, off, &f, &v);
        big_set(b, f, v);
    }
    free(s);
    return b;
}

/* ---- the type API ---- */

hash *hash_new(void)
{
    hsmall *s = xmalloc(small_alloc_size(0));
    s->enc = HASH_SMALL;
    small_set_count(s, 0);
    s->used = 0;
    return (hash *)(void *)s;
}

void hash_free(hash *h)
{
    if (!h) return;
    if (hash_enc(h) == HASH_BIG) dict_free(BIG(h)->d, big_release);
    free(h);
}

hash *hash_clone(const hash *h)
{
    if (hash_enc(h) == HASH_SMALL) {
        size_t n = sizeof(hsmall) + CSMALL(h)->used;
        hash *c = xmalloc(small_alloc_size(CSMALL(h)->used));
        memcpy(c, h, n);
        return c;
    }
    hbig *b = big_new();
    size_t it = 0;
    sstr **v;
    while ((v = dict_next(CBIG(h)->d, &it))) big_set(b, dict_key_of(CBIG(h)->d, v), sstr_slice(*v));
    return (hash *)(void *)b;
}

size_t hash_len(const hash *h)
{
    return hash_enc(h) == HASH_SMALL ? small_count(CSMALL(h)) : dict_size(CBIG(h)->d);
}

const char *hash_encoding(const hash *h)
{
    return hash_enc(h) == HASH_SMALL ? "listpack" : "hashtable";
}

size_t hash_bytes(const hash *h)
{
    if (hash_enc(h) == HASH_SMALL) return sizeof(hsmall) + CSMALL(h)->used;
    size_t total = sizeof(hbig) + 64, it = 0;
    sstr **v;
    while ((v = dict_next(CBIG(h)->d, &it)))
        total += 48 + dict_key_of(CBIG(h)->d, v).len + sizeof(sstr) + (*v)->len + 1;
    return total;
}

int hash_next(const hash *h, size_t *it, slice *field, slice *value)
{
    if (hash_enc(h) == HASH_SMALL) {
        if (*it >= CSMALL(h)->used) return 0;
        *it = small_record(CSMALL(h), *it, field, value);
        return 1;
    }
    sstr **v = dict_next(CBIG(h)->d, it);
    if (!v) return 0;
    *field = dict_key_of(CBIG(h)->d, v);
    *value = sstr_slice(*v);
    return 1;
}

typedef struct hpair {
    slice f, v;
} hpair;

static int hpair_cmp(const void *a, const void *b)
{
    return slice_cmp(((const hpair *)a)->f, ((const hpair *)b)->f);
}

void hash_dump(const hash *h, buf *out)
{
    size_t n = hash_len(h), i = 0, it = 0;
    hpair *v = xmalloc((n + 1) * sizeof *v);
    while (hash_next(h, &it, &v[i].f, &v[i].v)) i++;
    qsort(v, n, sizeof *v, hpair_cmp);
    buf_putc(out, '{');
    for (i = 0; i < n; i++) {
        if (i) buf_puts(out, ", ");
        dump_repr(out, v[i].f.p, v[i].f.len);
        buf_puts(out, ": ");
        dump_repr(out, v[i].v.p, v[i].v.len);
    }
    buf_putc(out, '}');
    free(v);
}

int hash_get(const hash *h, slice field, slice *value)
{
    if (hash_enc(h) == HASH_SMALL) return small_find(CSMALL(h), field, value) >= 0;
    sstr **v = dict_get(CBIG(h)->d, field);
    if (v) *value = sstr_slice(*v);
    return v != NULL;
}

void hash_convert(hash **hp)
{
    if (hash_enc(*hp) == HASH_SMALL) *hp = (hash *)(void *)small_to_big(SMALL(*hp));
}

int hash_set(hash **hp, slice field, slice value, const enc_limits *lim)
{
    if (!lim) lim = &enc_limits_default;
    hash *h = *hp;
    if (hash_enc(h) == HASH_SMALL && (field.len > lim->hash_value || value.len > lim->hash_value))
        h = *hp = (hash *)(void *)small_to_big(SMALL(h));
    if (hash_enc(h) == HASH_BIG) return big_set(BIG(h), field, value);

    hsmall *s = SMALL(h);
    unsigned char small[2 + 2 * 254], *rec = small;
    if (field.len > 254 || value.len > 254) rec = xmalloc(10 + field.len + value.len);
    slice old;
    long off = small_find(s, field, &old);
    if (off >= 0) { /* rewrite the value item in place: the record keeps its position */
        size_t voff = (size_t)off + item_head(field.len) + field.len;
        if (value.len == old.len) { /* HINCRBY's usual case: no bytes move */
            if (value.len) memcpy(s->data + voff + item_head(old.len), value.p, value.len);
        } else {
            size_t n = small_item(rec, value);
            *hp = (hash *)(void *)small_splice(s, voff, item_head(old.len) + old.len, rec, n);
        }
        if (rec != small) free(rec);
        return 0;
    }
    if (small_count(s) >= lim->hash_entries || small_count(s) == SMALL_MAX_COUNT) {
        if (rec != small) free(rec);
        *hp = (hash *)(void *)small_to_big(s);
        return big_set(BIG(*hp), field, value);
    }
    size_t n = small_item(rec, field);
    n += small_item(rec + n, value);
    s = small_splice(s, s->used, 0, rec, n);
    small_set_count(s, small_count(s) + 1);
    if (rec != small) free(rec);
    *hp = (hash *)(void *)s;
    return 1;
}

int hash_del(hash **hp, slice field)
{
    hash *h = *hp;
    if (hash_enc(h) == HASH_BIG) {
        sstr **v = dict_get(BIG(h)->d, field);
        if (!v) return 0;
        free(*v);
        return dict_del(BIG(h)->d, field);
    }
    hsmall *s = SMALL(h);
    slice v;
    long off = small_find(s, field, &v);
    if (off < 0) return 0;
    s = small_splice(s, (size_t)off, item_head(field.len) + field.len + item_head(v.len) + v.len, NULL, 0);
    small_set_count(s, small_count(s) - 1);
    *hp = (hash *)(void *)s;
    return 1;
}
