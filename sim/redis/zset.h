/* zset.h — the sorted set type's API (representation and invariants in zset.c; its commands in
 * t_zset.c). */
#ifndef LOCKLAB_REDIS_ZSET_H
#define LOCKLAB_REDIS_ZSET_H

#include "value.h"
#include "util.h"

typedef struct zset zset;

zset *zset_new(void);
void zset_free(zset *z);                       /* NULL is a no-op */
zset *zset_clone(const zset *z);
size_t zset_len(const zset *z);
size_t zset_bytes(const zset *z);
const char *zset_encoding(const zset *z);      /* "listpack" or "skiplist" */
void zset_dump(const zset *z, buf *out);       /* {"m": score, ...} in (score, member) order */

/* Returns 1 and the score if member is present. */
int zset_score(const zset *z, slice member, double *score);
/* Sets member's score (member copied). Returns 1 if the member is new. A new member past
 * lim's listpack limits (NULL: Redis's defaults) makes z a skiplist for good. */
int zset_set(zset *z, slice member, double score, const enc_limits *lim);
/* Removes member. Returns 1 if it was there. */
int zset_del(zset *z, slice member);
/* The element of rank 0 <= i < len (ascending): its member (borrowed until z changes). */
slice zset_at(const zset *z, size_t i, double *score);
/* The rank of a member present with this score. */
size_t zset_rank(const zset *z, slice member, double score);
/* A BYLEX range ("-", "+", "[x", "(x"): -1 if a bound is not valid, else 0 and the ranks
 * [*from, *to) in it (z may be NULL: only the bounds are checked). */
int zset_lex_range(const zset *z, slice min, slice max, size_t *from, size_t *to);
/* Removes ranks [from, to). */
void zset_remove_ranks(zset *z, size_t from, size_t to);
/* Makes z a skiplist for good (OBJECT ENCODING, and -0 kept from then on), as SORT does. */
void zset_to_skiplist(zset *z);
/* A result built as a skiplist and stored (ZUNIONSTORE and its kin, ZRANGESTORE) becomes a
 * listpack if it fits lim's limits, as Redis's zsetConvertToListpackIfNeeded does. */
void zset_fit(zset *z, const enc_limits *lim);

#endif
