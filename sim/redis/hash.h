/* hash.h — the hash type's API (representation and invariants in hash.c; its commands in
 * t_hash.c). A hash value is a `hash *`; operations that may reallocate it take a `hash **`
 * and update the caller's pointer, so a handler writes the result back into its kv. */
#ifndef LOCKLAB_REDIS_HASH_H
#define LOCKLAB_REDIS_HASH_H

#include "value.h"
#include "util.h"

typedef struct hash hash;

hash *hash_new(void);
void hash_free(hash *h);                       /* NULL is a no-op */
hash *hash_clone(const hash *h);
size_t hash_len(const hash *h);
size_t hash_bytes(const hash *h);
const char *hash_encoding(const hash *h);      /* "listpack" or "hashtable" */
/* {"f": "v", ...} with fields in byte order (store.h's canonical dump). */
void hash_dump(const hash *h, buf *out);

/* Returns 1 and the value (borrowed until the next change to h) if field is present. */
int hash_get(const hash *h, slice field, slice *value);
/* Sets field to value (both copied). Returns 1 if the field is new, 0 if it was updated.
 * The hash converts to a hashtable for good when lim's listpack limits (NULL: Redis's
 * defaults) would be exceeded. */
int hash_set(hash **h, slice field, slice value, const enc_limits *lim);
/* Makes h a hashtable for good (a listpack one converts; a hashtable is left as it is). */
void hash_convert(hash **h);
/* Removes field. Returns 1 if it was there. */
int hash_del(hash **h, slice field);

/* Iteration in reply order (insertion order while small): it starts at 0; returns 0 at the
 * end. The slices are borrowed until h changes. */
int hash_next(const hash *h, size_t *it, slice *field, slice *value);

#endif
