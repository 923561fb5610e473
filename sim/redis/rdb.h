/* rdb.h — Redis's RDB encoding of a value (rdb.c): what FUNCTION DUMP/RESTORE's payload is
 * made of. A payload ends with the RDB version (RDB_VERSION, two bytes little-endian) and the
 * CRC-64 (Jones, reflected, as Redis's crc64) of everything before it, eight bytes
 * little-endian. */
#ifndef LOCKLAB_REDIS_RDB_H
#define LOCKLAB_REDIS_RDB_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define RDB_VERSION 10

/* A payload being read: bytes [at, end). */
typedef struct rdb_reader {
    const unsigned char *p;
    size_t at, end;
} rdb_reader;

uint64_t rdb_crc64(const unsigned char *p, size_t n);
/* rdbSaveLen */
void rdb_put_len(buf *b, uint64_t n);
/* rdbLoadLen: 0 with *n (and *enc for an encoded string's kind, else -1), -1 if cut. */
int rdb_get_len(rdb_reader *r, uint64_t *n, int *enc);
/* lzf_decompress (liblzf, as Redis ships it): 0 if in decodes to exactly out_len bytes. */
int rdb_lzf(const unsigned char *in, size_t in_len, unsigned char *out, size_t out_len);
/* rdbGenericLoadStringObject: a string (plain, an integer, or LZF-compressed), malloc'd in
 * *out; -1 if it cannot be read. */
int rdb_get_string(rdb_reader *r, char **out, size_t *len);

#endif
