/* rdb.c — Redis's RDB encoding of a value, as DUMP-style payloads carry it (Redis 7.0's
 * rdb.c, crc64.c, lzf_d.c): lengths (rdbSaveLen, rdbLoadLen), strings (plain, integer or
 * LZF-compressed), and the CRC-64 of the payload's footer. */
#include "rdb.h"

#include <stdlib.h>
#include <string.h>

uint64_t rdb_crc64(const unsigned char *p, size_t n)
{
    uint64_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0x95ac9329ac4bc9b5ULL & (0 - (crc & 1)));
    }
    return crc;
}

/* rdbSaveLen */
void rdb_put_len(buf *b, uint64_t n)
{
    if (n < 64) {
        buf_putc(b, (char)n);
    } else if (n < 16384) {
        buf_putc(b, (char)(0x40 | (n >> 8)));
        buf_putc(b, (char)(n & 0xff));
    } else if (n <= UINT32_MAX) {
        buf_putc(b, (char)0x80);
        for (int i = 3; i >= 0; i--) buf_putc(b, (char)(n >> (8 * i)));
    } else {
        buf_putc(b, (char)0x81);
        for (int i = 7; i >= 0; i--) buf_putc(b, (char)(n >> (8 * i)));
    }
}

/* rdbLoadLen: 0 with *n (and *enc for an encoded string's kind, else -1), -1 if cut. */
int rdb_get_len(rdb_reader *r, uint64_t *n, int *enc)
{
    if (r->at >= r->end) return -1;
    unsigned char b = r->p[r->at++];
    *enc = -1;
    switch (b >> 6) {
    case 0: *n = b & 0x3f; return 0;
    case 1:
        if (r->at >= r->end) return -1;
        *n = (uint64_t)(b & 0x3f) << 8 | r->p[r->at++];
        return 0;
    case 2: {
        int bytes = b == 0x80 ? 4 : b == 0x81 ? 8 : 0;
        if (!bytes || r->end - r->at < (size_t)bytes) return -1;
        *n = 0;
        for (int i = 0; i < bytes; i++) *n = *n << 8 | r->p[r->at++];
        return 0;
    }
    default: *enc = b & 0x3f; *n = 0; return 0;
    }
}

/* lzf_decompress (liblzf, as Redis ships it): 0 if in decodes to exactly out_len bytes. */
int rdb_lzf(const unsigned char *in, size_t in_len, unsigned char *out, size_t out_len)
{
    size_t ip = 0, op = 0;
    while (ip < in_len) {
        unsigned ctrl = in[ip++];
        if (ctrl < 32) { /* a literal run of ctrl + 1 bytes */
            size_t n = ctrl + 1;
            if (in_len - ip < n || out_len - op < n) return -1;
            memcpy(out + op, in + ip, n);
            ip += n, op += n;
        } else { /* a back reference */
            size_t n = ctrl >> 5;
            size_t back = (size_t)(ctrl & 0x1f) << 8;
            if (n == 7) {
                if (ip >= in_len) return -1;
                n += in[ip++];
            }
            if (ip >= in_len) return -1;
            back += in[ip++];
            n += 2;
            if (back + 1 > op || out_len - op < n) return -1;
            for (size_t k = 0; k < n; k++, op++) out[op] = out[op - back - 1];
        }
    }
    return op == out_len ? 0 : -1;
}

/* rdbGenericLoadStringObject: a string (plain, an integer, or LZF-compressed), malloc'd in
 * *out; -1 if it cannot be read. */
int rdb_get_string(rdb_reader *r, char **out, size_t *len)
{
    uint64_t n;
    int enc;
    if (rdb_get_len(r, &n, &enc) < 0) return -1;
    if (enc >= 0 && enc <= 2) { /* an integer of 1, 2 or 4 bytes, little-endian */
        size_t bytes = (size_t)1 << enc;
        if (r->end - r->at < bytes) return -1;
        uint64_t u = 0;
        for (size_t i = 0; i < bytes; i++) u |= (uint64_t)r->p[r->at + i] << (8 * i);
        r->at += bytes;
        long long v = enc == 0 ? (int8_t)u : enc == 1 ? (int16_t)u : (int32_t)u;
        *out = xformat("%lld", v);
        *len = strlen(*out);
        return 0;
    }
    if (enc == 3) {
        uint64_t clen, ulen;
        int e2;
        if (rdb_get_len(r, &clen, &e2) < 0 || e2 >= 0 || rdb_get_len(r, &ulen, &e2) < 0 || e2 >= 0) return -1;
        if (clen > r->end - r->at || ulen > (64u << 20) || ulen == 0) return -1;
        char *u = xmalloc(ulen + 1);
        if (rdb_lzf(r->p + r->at, clen, (unsigned char *)u, ulen) < 0) {
            free(u);
            return -1;
        }
        u[ulen] = '\0';
        r->at += clen;
        *out = u;
        *len = ulen;
        return 0;
    }
    if (enc >= 0 || n > r->end - r->at) return -1;
    *out = xmemdup((const char *)r->p + r->at, n);
    *len = n;
    r->at += n;
    return 0;
}
