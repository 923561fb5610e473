/* value.h — what every value a key holds is made of: the type tags, the string value
 * (sstr), the encodings' limits CONFIG SET gives, and redis-cli's quoting of bytes. Each
 * type's representation (hash.h, list.h, set.h, zset.h) builds on it; object.h sees them all
 * generically. */
#ifndef LOCKLAB_REDIS_VALUE_H
#define LOCKLAB_REDIS_VALUE_H

#include "util.h"

typedef enum obj_type { OBJ_STRING = 0, OBJ_HASH, OBJ_LIST, OBJ_ZSET, OBJ_SET } obj_type;

/* A string value: length-prefixed bytes, NUL-terminated for convenience. */
typedef struct sstr {
    size_t len;
    char p[];
} sstr;

sstr *sstr_new(const char *p, size_t len);
/* The size of the block behind an sstr of len bytes (its malloc chunk's: ll_chunk_size), so
 * that the block of a freed string serves any string of the same block size. */
static inline size_t sstr_block_size(size_t len) { return ll_chunk_size(sizeof(sstr) + len + 1); }
/* Makes the block (of at least sstr_block_size(len) bytes) the string p[0..len). */
sstr *sstr_fill(void *block, const char *p, size_t len);
static inline slice sstr_slice(const sstr *s) { return (slice){ s->p, s->len }; }

/* The encodings' limits, as CONFIG SET hash-max-listpack-entries and the like set them
 * (Redis 7.0's names; the -ziplist- ones are aliases): past them a hash, set or sorted set
 * converts, for good, to its big encoding, and OBJECT ENCODING says so. */
typedef struct enc_limits {
    unsigned long long hash_entries, hash_value; /* hash-max-listpack-entries, -value: 512, 64 */
    unsigned long long set_intset;               /* set-max-intset-entries: 512 */
    unsigned long long zset_entries, zset_value; /* zset-max-listpack-entries, -value: 128, 64 */
} enc_limits;
extern const enc_limits enc_limits_default;

/* Appends s quoted the way redis-cli shows bulk strings ("a\nb", "\x00"). */
void dump_repr(buf *out, const char *p, size_t len);

#endif
