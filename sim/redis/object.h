/* object.h — the values a key can hold, seen generically: the keyspace (store.c) frees,
 * clones and dumps values without knowing their representation. What a value is made of is
 * value.h; each aggregate's representation and API is its own file (hash.c, list.c, zset.c,
 * set.c), and its commands another (t_hash.c, t_list.c, t_zset.c, t_set.c; strings'
 * t_string.c), as Redis names them. */
#ifndef LOCKLAB_OBJECT_H
#define LOCKLAB_OBJECT_H

#include "value.h"

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

#endif
