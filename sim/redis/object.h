/* object.h — the values a key can hold, seen generically: the keyspace (store.c) frees,
 * clones and dumps values without knowing their representation. Each type lives in its own
 * file (t_string.c, t_hash.c, t_list.c, t_zset.c, t_set.c) with its representation, its type API and
 * its command handlers, as Redis arranges them. */
#ifndef LOCKLAB_OBJECT_H
#define LOCKLAB_OBJECT_H

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

const char *obj_type_name(obj_type t);       /* "string", "hash", "list", "zset", "set" */
/* OBJECT ENCODING: what Redis 7.0 reports for this value (a hash, set or zset converts
 * under the server's enc_limits as it is written, so its answer follows them). A string
 * is answered from its bytes ("int", "embstr" up to 44 bytes, else "raw"); whether APPEND,
 * SETRANGE and the like made it "raw" whatever its bytes is its key's (store.h, kv.raw). */
const char *obj_encoding(obj_type t, const void *ptr);
void obj_free(obj_type t, void *ptr);
void *obj_clone(obj_type t, const void *ptr);
size_t obj_count(obj_type t, const void *ptr); /* elements (strings: 1); 0 means "delete me" */
/* The value in canonical text (see store.h for the format), appended to out. */
void obj_dump(obj_type t, const void *ptr, buf *out);
/* Approximate bytes used, for memory reports. */
size_t obj_bytes(obj_type t, const void *ptr);

/* Appends s quoted the way redis-cli shows bulk strings ("a\nb", "\x00"). */
void dump_repr(buf *out, const char *p, size_t len);

#endif
