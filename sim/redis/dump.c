/* dump.c — a key's DUMP and RESTORE (Redis 7.0's cluster.c: dumpCommand, restoreCommand;
 * rdb.c: rdbSaveObject, rdbLoadObject): one value in Redis's RDB serialisation, the object
 * type byte and its body, then the RDB version (10) and the CRC-64 of what precedes (rdb.c).
 *
 * DUMP writes what Redis 7.0.15 writes for the value's encoding: a string as an RDB string
 * (an integer of at most 32 bits in its integer form), a list as a quicklist (18) of
 * listpack nodes of at most 8 kB, a hash as a listpack (16) or field/value pairs (4), a
 * sorted set as a listpack (17) or members with binary scores, highest first (5), a set as
 * an intset (11) or its members (2). What differs: strings and blobs are never
 * LZF-compressed (Redis compresses one of more than 20 bytes when that saves at least 4: the
 * bytes then differ, and either server loads either's payload); the members of a hashtable
 * set or hash come in the fake's order (Redis: its hash order); a list's node boundaries
 * follow the 8 kB rule from an empty list (Redis's depend on the list's history).
 *
 * RESTORE reads those types and the older ones Redis still loads that are plain: a list
 * (1), set (2), hash (4) of strings; not ziplists, zipmaps or streams ("Bad data format").
 * The value then takes the server's encoding limits, as Redis converts one it loads. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "rdb.h"
#include "store.h"
#include "hash.h"
#include "list.h"
#include "set.h"
#include "zset.h"

enum {
    RDB_TYPE_STRING = 0, RDB_TYPE_LIST = 1, RDB_TYPE_SET = 2, RDB_TYPE_HASH = 4, RDB_TYPE_ZSET_2 = 5,
    RDB_TYPE_SET_INTSET = 11, RDB_TYPE_HASH_LISTPACK = 16, RDB_TYPE_ZSET_LISTPACK = 17,
    RDB_TYPE_LIST_QUICKLIST_2 = 18
};

/* ---- writing ---- */

/* rdbSaveRawString without compression: a canonical integer of 11 bytes or fewer that fits
 * 32 bits in its integer form (rdbTryIntegerEncoding), else its length and bytes. */
static void put_string(buf *b, slice s)
{
    long long v;
    if (s.len <= 11 && ll_parse_int64(s, &v) == 0 && v >= INT32_MIN && v <= INT32_MAX) {
        int bytes = v >= INT8_MIN && v <= INT8_MAX ? 1 : v >= INT16_MIN && v <= INT16_MAX ? 2 : 4;
        buf_putc(b, (char)(0xC0 | (bytes == 1 ? 0 : bytes == 2 ? 1 : 2)));
        for (int i = 0; i < bytes; i++) buf_putc(b, (char)((unsigned long long)v >> (8 * i)));
        return;
    }
    rdb_put_len(b, s.len);
    buf_append(b, s.p, s.len);
}

/* A listpack being built (listpack.c): entries appended to body, the header written last. */
typedef struct lpw {
    buf body;
    size_t n;
} lpw;

/* lpEncodeBacklen */
static void lp_backlen(buf *b, size_t l)
{
    if (l <= 127) {
        buf_putc(b, (char)l);
    } else if (l < 16383) {
        buf_putc(b, (char)(l >> 7));
        buf_putc(b, (char)((l & 127) | 128));
    } else if (l < 2097151) {
        buf_putc(b, (char)(l >> 14));
        buf_putc(b, (char)(((l >> 7) & 127) | 128));
        buf_putc(b, (char)((l & 127) | 128));
    } else if (l < 268435455) {
        buf_putc(b, (char)(l >> 21));
        buf_putc(b, (char)(((l >> 14) & 127) | 128));
        buf_putc(b, (char)(((l >> 7) & 127) | 128));
        buf_putc(b, (char)((l & 127) | 128));
    } else {
        buf_putc(b, (char)(l >> 28));
        buf_putc(b, (char)(((l >> 21) & 127) | 128));
        buf_putc(b, (char)(((l >> 14) & 127) | 128));
        buf_putc(b, (char)(((l >> 7) & 127) | 128));
        buf_putc(b, (char)((l & 127) | 128));
    }
}

/* lpEncodeGetType + lpEncodeString/lpEncodeIntegerGetType: a canonical integer of at most 20
 * bytes in the smallest integer form, anything else as a string. */
static void lp_append(lpw *w, slice s)
{
    size_t start = w->body.len;
    long long v;
    if (s.len < 21 && ll_parse_int64(s, &v) == 0) {
        unsigned long long u = (unsigned long long)v;
        int bytes = 0;
        if (v >= 0 && v <= 127) {
            buf_putc(&w->body, (char)v);
        } else if (v >= -4096 && v <= 4095) {
            unsigned x = v < 0 ? (unsigned)((1 << 13) + v) : (unsigned)v;
            buf_putc(&w->body, (char)(0xC0 | (x >> 8)));
            buf_putc(&w->body, (char)(x & 0xff));
        } else if (v >= INT16_MIN && v <= INT16_MAX) {
            buf_putc(&w->body, (char)0xF1);
            bytes = 2;
        } else if (v >= -8388608 && v <= 8388607) {
            buf_putc(&w->body, (char)0xF2);
            bytes = 3;
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            buf_putc(&w->body, (char)0xF3);
            bytes = 4;
        } else {
            buf_putc(&w->body, (char)0xF4);
            bytes = 8;
        }
        for (int i = 0; i < bytes; i++) buf_putc(&w->body, (char)(u >> (8 * i)));
    } else {
        if (s.len < 64) {
            buf_putc(&w->body, (char)(0x80 | s.len));
        } else if (s.len < 4096) {
            buf_putc(&w->body, (char)(0xE0 | (s.len >> 8)));
            buf_putc(&w->body, (char)(s.len & 0xff));
        } else {
            buf_putc(&w->body, (char)0xF0);
            for (int i = 0; i < 4; i++) buf_putc(&w->body, (char)(s.len >> (8 * i)));
        }
        buf_append(&w->body, s.p, s.len);
    }
    lp_backlen(&w->body, w->body.len - start);
    w->n++;
}

/* The listpack as an RDB string (6-byte header, entries, 0xFF), and w emptied. */
static void lp_finish(lpw *w, buf *b)
{
    size_t total = 6 + w->body.len + 1;
    rdb_put_len(b, total);
    for (int i = 0; i < 4; i++) buf_putc(b, (char)(total >> (8 * i)));
    unsigned n = w->n < 65535 ? (unsigned)w->n : 65535;
    buf_putc(b, (char)(n & 0xff));
    buf_putc(b, (char)(n >> 8));
    buf_append(b, w->body.p, w->body.len);
    buf_putc(b, (char)0xFF);
    buf_reset(&w->body);
    w->n = 0;
}

/* d2string: a score as Redis writes it into a listpack. */
static slice score_text(double d, char *tmp)
{
    size_t n;
    if (isnan(d)) n = (size_t)snprintf(tmp, 40, "nan");
    else if (isinf(d)) n = (size_t)snprintf(tmp, 40, d < 0 ? "-inf" : "inf");
    else if (d == 0) n = (size_t)snprintf(tmp, 40, signbit(d) ? "-0" : "0");
    else if (d >= -(double)(LLONG_MAX / 2) && d <= (double)(LLONG_MAX / 2) && (double)(long long)d == d)
        n = (size_t)snprintf(tmp, 40, "%lld", (long long)d);
    else n = (size_t)snprintf(tmp, 40, "%.17g", d);
    return (slice){ tmp, n };
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* rdbSaveObjectType + rdbSaveObject for e's value. */
void dump_value(const kv *e, buf *b)
{
    lpw w = { .n = 0 };
    buf_init(&w.body);
    switch ((obj_type)e->type) {
    case OBJ_STRING:
        buf_putc(b, RDB_TYPE_STRING);
        put_string(b, sstr_slice(e->ptr));
        break;
    case OBJ_LIST: {
        const list *l = e->ptr;
        size_t n = list_len(l);
        /* nodes of at most 8 kB (list-max-listpack-size -2): a node takes an element while
         * its bytes, the element's and 8 stay within 8192 (_quicklistNodeAllowInsert) */
        size_t nodes = 0, sz = 0;
        for (size_t i = 0; i < n; i++) {
            size_t el = list_at(l, i)->len;
            if (!i || sz + el + 8 > 8192) nodes++, sz = 6 + 1;
            sz += el + 2;
        }
        buf_putc(b, RDB_TYPE_LIST_QUICKLIST_2);
        rdb_put_len(b, nodes);
        sz = 0;
        for (size_t i = 0; i < n; i++) {
            size_t el = list_at(l, i)->len;
            if (i && sz + el + 8 > 8192) {
                rdb_put_len(b, 2); /* QUICKLIST_NODE_CONTAINER_PACKED */
                lp_finish(&w, b);
                sz = 6 + 1;
            } else if (!i) {
                sz = 6 + 1;
            }
            sz += el + 2;
            lp_append(&w, sstr_slice(list_at(l, i)));
        }
        if (n) {
            rdb_put_len(b, 2);
            lp_finish(&w, b);
        }
        break;
    }
    case OBJ_HASH: {
        const hash *h = e->ptr;
        size_t it = 0;
        slice f, v;
        if (!strcmp(hash_encoding(h), "listpack")) {
            buf_putc(b, RDB_TYPE_HASH_LISTPACK);
            while (hash_next(h, &it, &f, &v)) lp_append(&w, f), lp_append(&w, v);
            lp_finish(&w, b);
        } else {
            buf_putc(b, RDB_TYPE_HASH);
            rdb_put_len(b, hash_len(h));
            while (hash_next(h, &it, &f, &v)) put_string(b, f), put_string(b, v);
        }
        break;
    }
    case OBJ_ZSET: {
        const zset *z = e->ptr;
        size_t n = zset_len(z);
        double sc;
        if (!strcmp(zset_encoding(z), "listpack")) {
            buf_putc(b, RDB_TYPE_ZSET_LISTPACK);
            char tmp[40];
            for (size_t i = 0; i < n; i++) {
                slice m = zset_at(z, i, &sc);
                lp_append(&w, m);
                lp_append(&w, score_text(sc, tmp));
            }
            lp_finish(&w, b);
        } else {
            buf_putc(b, RDB_TYPE_ZSET_2);
            rdb_put_len(b, n);
            for (size_t i = n; i-- > 0;) { /* from the tail, as rdbSaveObject walks the skiplist */
                slice m = zset_at(z, i, &sc);
                put_string(b, m);
                uint64_t bits;
                memcpy(&bits, &sc, 8);
                for (int k = 0; k < 8; k++) buf_putc(b, (char)(bits >> (8 * k)));
            }
        }
        break;
    }
    case OBJ_SET: {
        const set *s = e->ptr;
        size_t n = set_len(s);
        if (!strcmp(set_encoding(s), "intset")) {
            long long *v = xmalloc((n + 1) * sizeof *v);
            int width = 2;
            for (size_t i = 0; i < n; i++) {
                LL_ASSERT(ll_parse_int64(set_at(s, i), &v[i]) == 0);
                if (v[i] < INT16_MIN || v[i] > INT16_MAX) width = width < 4 ? 4 : width;
                if (v[i] < INT32_MIN || v[i] > INT32_MAX) width = 8;
            }
            qsort(v, n, sizeof *v, cmp_ll);
            buf_putc(b, RDB_TYPE_SET_INTSET);
            rdb_put_len(b, 8 + n * (size_t)width);
            for (int k = 0; k < 4; k++) buf_putc(b, (char)((unsigned)width >> (8 * k)));
            for (int k = 0; k < 4; k++) buf_putc(b, (char)(n >> (8 * k)));
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < width; k++) buf_putc(b, (char)((unsigned long long)v[i] >> (8 * k)));
            free(v);
        } else {
            buf_putc(b, RDB_TYPE_SET);
            rdb_put_len(b, n);
            for (size_t i = 0; i < n; i++) put_string(b, set_at(s, i));
        }
        break;
    }
    }
    buf_release(&w.body);
    buf_putc(b, RDB_VERSION & 0xff);
    buf_putc(b, RDB_VERSION >> 8);
    uint64_t crc = rdb_crc64((const unsigned char *)b->p, b->len);
    for (int i = 0; i < 8; i++) buf_putc(b, (char)(crc >> (8 * i)));
}

void cmd_dump(cmdctx *c)
{
    kv *e = store_lookup(c->db, c->argv[1]);
    if (!e) {
        reply_nil(c->out);
        return;
    }
    buf b;
    buf_init(&b);
    dump_value(e, &b);
    reply_bulk(c->out, b.p, b.len);
    buf_release(&b);
}

/* ---- reading ---- */

/* The listpack's entries, each a string (integers in decimal), NULL if the blob is not one
 * (a shallow check, as Redis's with sanitize-dump-payload no, plus bounds on every entry). */
static slice *lp_read(const char *blob, size_t len, size_t *count, char **texts)
{
    const unsigned char *p = (const unsigned char *)blob;
    if (len < 7 || ((size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 | (size_t)p[3] << 24) != len ||
        p[len - 1] != 0xFF)
        return NULL;
    size_t cap = 8, n = 0, at = 6, end = len - 1;
    slice *v = xmalloc(cap * sizeof *v);
    buf nums; /* integers' texts, at offsets: the slices are fixed up at the end */
    buf_init(&nums);
    size_t *numat = xmalloc(cap * sizeof *numat);
    while (at < end) {
        if (n == cap) {
            cap *= 2;
            v = xrealloc(v, cap * sizeof *v);
            numat = xrealloc(numat, cap * sizeof *numat);
        }
        size_t start = at;
        unsigned char b = p[at];
        long long iv = 0;
        int is_int = 1;
        size_t slen = 0, hdr = 0;
        if (b < 0x80) {
            iv = b, at += 1;
        } else if ((b & 0xC0) == 0x80) {
            is_int = 0, slen = b & 0x3f, hdr = 1;
        } else if ((b & 0xE0) == 0xC0) {
            if (end - at < 2) goto bad;
            unsigned x = (unsigned)(b & 0x1f) << 8 | p[at + 1];
            iv = x >= (1u << 12) ? (long long)x - (1 << 13) : x;
            at += 2;
        } else if ((b & 0xF0) == 0xE0) {
            if (end - at < 2) goto bad;
            is_int = 0, slen = (size_t)(b & 0x0f) << 8 | p[at + 1], hdr = 2;
        } else if (b >= 0xF1 && b <= 0xF4) {
            int bytes = b == 0xF1 ? 2 : b == 0xF2 ? 3 : b == 0xF3 ? 4 : 8;
            if (end - at < (size_t)bytes + 1) goto bad;
            unsigned long long u = 0;
            for (int i = 0; i < bytes; i++) u |= (unsigned long long)p[at + 1 + i] << (8 * i);
            if (bytes < 8 && (u >> (8 * bytes - 1)) & 1) u |= ~0ULL << (8 * bytes); /* sign */
            iv = (long long)u;
            at += 1 + (size_t)bytes;
        } else if (b == 0xF0) {
            if (end - at < 5) goto bad;
            is_int = 0, slen = (size_t)p[at + 1] | (size_t)p[at + 2] << 8 | (size_t)p[at + 3] << 16 | (size_t)p[at + 4] << 24;
            hdr = 5;
        } else {
            goto bad;
        }
        if (is_int) {
            numat[n] = nums.len;
            char t[24];
            int tl = ll_format_int64(t, iv);
            buf_append(&nums, t, (size_t)tl);
            v[n] = (slice){ NULL, (size_t)tl };
        } else {
            if (end - at < hdr || end - at - hdr < slen) goto bad;
            v[n] = (slice){ blob + at + hdr, slen };
            at += hdr + slen;
        }
        /* the back length: 1 to 5 bytes, the last without the continuation bit */
        size_t l = at - start, bl = l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
        if (end - at < bl) goto bad;
        at += bl;
        n++;
    }
    *texts = nums.p ? nums.p : xstrdup("");
    for (size_t i = 0; i < n; i++)
        if (!v[i].p) v[i].p = *texts + numat[i];
    free(numat);
    *count = n;
    return v;
bad:
    free(v);
    free(numat);
    buf_release(&nums);
    return NULL;
}

static int get_double(rdb_reader *r, double *d)
{
    if (r->end - r->at < 8) return -1;
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++) bits |= (uint64_t)r->p[r->at + i] << (8 * i);
    r->at += 8;
    memcpy(d, &bits, 8);
    return isnan(*d) ? -1 : 0;
}

/* rdbLoadObject for the types above: the value (its type in *t), NULL if the payload is not
 * one of them, is cut, or holds an empty aggregate. */
static void *load_value(rdb_reader *r, const enc_limits *lim, obj_type *t)
{
    if (r->at >= r->end) return NULL;
    int type = r->p[r->at++];
    uint64_t n;
    int enc;
    char *blob = NULL;
    size_t blen = 0;
    switch (type) {
    case RDB_TYPE_STRING: {
        char *s;
        size_t len;
        if (rdb_get_string(r, &s, &len) < 0) return NULL;
        *t = OBJ_STRING;
        sstr *v = sstr_new(s, len);
        free(s);
        return v;
    }
    case RDB_TYPE_LIST: case RDB_TYPE_SET: case RDB_TYPE_HASH: case RDB_TYPE_ZSET_2: {
        if (rdb_get_len(r, &n, &enc) < 0 || enc >= 0 || n == 0) return NULL;
        size_t per = type == RDB_TYPE_HASH ? 2 : 1;
        if (n > (r->end - r->at) / per) return NULL;
        list *l = NULL;
        set *st = NULL;
        hash *h = NULL;
        zset *z = NULL;
        if (type == RDB_TYPE_LIST) l = list_new(), *t = OBJ_LIST;
        if (type == RDB_TYPE_SET) st = set_new(), *t = OBJ_SET;
        if (type == RDB_TYPE_HASH) h = hash_new(), *t = OBJ_HASH;
        if (type == RDB_TYPE_ZSET_2) z = zset_new(), *t = OBJ_ZSET;
        for (uint64_t i = 0; i < n; i++) {
            char *a, *b = NULL;
            size_t al, bl = 0;
            double d = 0;
            int ok = rdb_get_string(r, &a, &al) == 0;
            if (ok && h) {
                ok = rdb_get_string(r, &b, &bl) == 0;
                if (!ok) free(a);
            }
            if (ok && z && get_double(r, &d) < 0) {
                free(a);
                ok = 0;
            }
            if (!ok) {
                list_free(l), set_free(st), hash_free(h), zset_free(z);
                return NULL;
            }
            slice as = { a, al };
            if (l) list_push(l, as, 1);
            if (st) set_add(st, as, lim);
            if (h) hash_set(&h, as, (slice){ b, bl }, lim);
            if (z) zset_set(z, as, d, lim);
            free(a);
            free(b);
        }
        if (z) zset_fit(z, lim);
        return l ? (void *)l : st ? (void *)st : h ? (void *)h : (void *)z;
    }
    case RDB_TYPE_SET_INTSET: {
        if (rdb_get_string(r, &blob, &blen) < 0) return NULL;
        const unsigned char *p = (const unsigned char *)blob;
        if (blen < 8) goto bad_blob;
        uint32_t width = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        uint32_t cnt = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        if ((width != 2 && width != 4 && width != 8) || cnt == 0 || (blen - 8) / width != cnt || (blen - 8) % width)
            goto bad_blob;
        set *st = set_new();
        for (uint32_t i = 0; i < cnt; i++) {
            unsigned long long u = 0;
            for (uint32_t k = 0; k < width; k++) u |= (unsigned long long)p[8 + i * width + k] << (8 * k);
            if (width < 8 && (u >> (8 * width - 1)) & 1) u |= ~0ULL << (8 * width);
            char tx[24];
            int tl = ll_format_int64(tx, (long long)u);
            set_add(st, (slice){ tx, (size_t)tl }, lim);
        }
        free(blob);
        *t = OBJ_SET;
        return st;
    }
    case RDB_TYPE_HASH_LISTPACK: case RDB_TYPE_ZSET_LISTPACK: {
        if (rdb_get_string(r, &blob, &blen) < 0) return NULL;
        size_t cnt;
        char *texts;
        slice *v = lp_read(blob, blen, &cnt, &texts);
        if (!v) goto bad_blob;
        if (cnt == 0 || cnt % 2) {
            free(v);
            free(texts);
            goto bad_blob;
        }
        void *out;
        if (type == RDB_TYPE_HASH_LISTPACK) {
            hash *h = hash_new();
            for (size_t i = 0; i < cnt; i += 2) hash_set(&h, v[i], v[i + 1], lim);
            out = h;
            *t = OBJ_HASH;
        } else {
            zset *z = zset_new();
            out = z;
            *t = OBJ_ZSET;
            for (size_t i = 0; i < cnt && out; i += 2) {
                double d;
                if (ll_parse_double(v[i + 1], &d) < 0) {
                    zset_free(z);
                    out = NULL;
                } else {
                    zset_set(z, v[i], d, lim);
                }
            }
        }
        free(v);
        free(texts);
        free(blob);
        return out;
    }
    case RDB_TYPE_LIST_QUICKLIST_2: {
        if (rdb_get_len(r, &n, &enc) < 0 || enc >= 0 || n == 0 || n > r->end - r->at) return NULL;
        list *l = list_new();
        for (uint64_t i = 0; i < n; i++) {
            uint64_t container;
            if (rdb_get_len(r, &container, &enc) < 0 || enc >= 0 || (container != 1 && container != 2) ||
                rdb_get_string(r, &blob, &blen) < 0) {
                list_free(l);
                return NULL;
            }
            if (container == 1) { /* a plain node: one element */
                list_push(l, (slice){ blob, blen }, 1);
            } else {
                size_t cnt;
                char *texts;
                slice *v = lp_read(blob, blen, &cnt, &texts);
                if (!v || cnt == 0) { /* Redis refuses an empty node too */
                    free(v);
                    if (v) free(texts);
                    list_free(l);
                    goto bad_blob;
                }
                for (size_t k = 0; k < cnt; k++) list_push(l, v[k], 1);
                free(v);
                free(texts);
            }
            free(blob);
            blob = NULL;
        }
        *t = OBJ_LIST;
        return l;
    }
    default:
        return NULL;
    }
bad_blob:
    free(blob);
    return NULL;
}

/* RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]: Redis
 * 7.0's checks in its order. IDLETIME sets the key's last access (OBJECT IDLETIME) unless
 * the maxmemory-policy is an LFU one, FREQ its access counter (OBJECT FREQ) if it is, as
 * Redis's objectSetLRUOrLFU, where access is tracked (locklab serve). */
void cmd_restore(cmdctx *c)
{
    int replace = 0, absttl = 0, idle = 0, freq = 0;
    long long idle_v = -1, freq_v = -1;
    for (int j = 4; j < c->argc; j++) {
        int more = c->argc - j - 1;
        long long v;
        if (slice_opt_is(c->argv[j], "replace")) {
            replace = 1;
        } else if (slice_opt_is(c->argv[j], "absttl")) {
            absttl = 1;
        } else if (slice_opt_is(c->argv[j], "idletime") && more >= 1 && !freq) {
            if (ll_parse_int64(c->argv[j + 1], &v) < 0) {
                reply_error(c->out, ERR_NOT_INT);
                return;
            }
            if (v < 0) {
                reply_error(c->out, "ERR Invalid IDLETIME value, must be >= 0");
                return;
            }
            idle = 1;
            idle_v = v;
            j++;
        } else if (slice_opt_is(c->argv[j], "freq") && more >= 1 && !idle) {
            if (ll_parse_int64(c->argv[j + 1], &v) < 0) {
                reply_error(c->out, ERR_NOT_INT);
                return;
            }
            if (v < 0 || v > 255) {
                reply_error(c->out, "ERR Invalid FREQ value, must be >= 0 and <= 255");
                return;
            }
            freq = 1;
            freq_v = v;
            j++;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    slice key = c->argv[1];
    if (!replace && store_lookup(c->db, key)) {
        reply_error(c->out, "BUSYKEY Target key name already exists.");
        return;
    }
    long long ttl;
    if (ll_parse_int64(c->argv[2], &ttl) < 0) {
        reply_error(c->out, ERR_NOT_INT);
        return;
    }
    if (ttl < 0) {
        reply_error(c->out, "ERR Invalid TTL value, must be >= 0");
        return;
    }
    /* verifyDumpPayload */
    slice data = c->argv[3];
    const unsigned char *p = (const unsigned char *)data.p;
    if (data.len < 10 || ((unsigned)p[data.len - 9] << 8 | p[data.len - 10]) > RDB_VERSION) {
        reply_error(c->out, "ERR DUMP payload version or checksum are wrong");
        return;
    }
    uint64_t want = 0;
    for (int i = 0; i < 8; i++) want |= (uint64_t)p[data.len - 8 + i] << (8 * i);
    if (rdb_crc64(p, data.len - 8) != want) {
        reply_error(c->out, "ERR DUMP payload version or checksum are wrong");
        return;
    }
    /* the body is read from the whole payload, footer included (Redis reads it off a buffer
     * of the payload: a string cut short takes the footer's bytes) */
    rdb_reader r = { p, 0, data.len };
    obj_type t = OBJ_STRING;
    void *v = load_value(&r, c->lim, &t);
    if (!v) {
        reply_error(c->out, "ERR Bad data format");
        return;
    }
    if (ttl) {
        if (!absttl) ttl += store_now(c->db);
        if (ttl <= store_now(c->db) && !store_is_replica(c->db)) { /* checkAlreadyExpired */
            store_clock_seen(c->db);
            if (replace) store_delete(c->db, key);
            obj_free(t, v);
            reply_ok(c->out);
            return;
        }
    }
    kv *e = store_set(c->db, key, t, v, 0);
    if (ttl) {
        if (absttl) store_set_expire_fixed(c->db, e, ttl);
        else store_set_expire(c->db, e, ttl);
    }
    store_touched(c->db, e);
    store_set_access(c->db, e, idle_v, freq_v); /* objectSetLRUOrLFU */
    reply_ok(c->out);
}
