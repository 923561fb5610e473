/* dict.h — a hash table from binary-safe string keys to fixed-size payloads.
 *
 * Each entry is one allocation: [32 bits of hash][key length][payload][key bytes]. The
 * table is an array of entry pointers (each beside the same 32 bits of its hash) with
 * linear probing; deletion shifts the following
 * run back, so there are no tombstones and lookups stay short. A few deleted entries are
 * kept to be reused by later inserts of keys of a similar length. The payload size is
 * fixed per dict and zero-filled on insert; the caller keeps its own data there (the
 * keyspace keeps a value and where its deadline is, a big hash keeps a value string, a zset keeps a
 * score).
 *
 * Payload pointers stay valid until the entry is deleted or the dict freed (a resize moves
 * slots, never entries). Iteration order is deterministic for a given insertion history. */
#ifndef LOCKLAB_DICT_H
#define LOCKLAB_DICT_H

#include "util.h"

typedef struct dict dict;

dict *dict_new(size_t payload_size);
/* Frees the table and every entry; call `release` (if given) on each payload first. */
void dict_free(dict *d, void (*release)(void *payload));
size_t dict_size(const dict *d);

void *dict_get(const dict *d, slice key);                /* payload, or NULL */
/* Inserts key (copied) and returns its zeroed payload; *existed tells whether the key was
 * already there, in which case the existing payload is returned untouched. */
void *dict_put(dict *d, slice key, int *existed);
/* The same two, given the key's hash (dict_hash of its bytes), for a caller that has it
 * already. */
void *dict_get_hashed(const dict *d, slice key, uint64_t h);
void *dict_put_hashed(dict *d, slice key, uint64_t h, int *existed);
/* Prefetching, for a caller about to look up many keys (a pipelined batch): each memory
 * access of a lookup waits for the one before, so the batch's misses are overlapped by
 * asking for them in stages: dict_prefetch_slot for every key, then dict_prefetch_entry
 * for every key (it reads the slot the first stage asked for and asks for the entry it
 * leads to). Hints only: the dict is not changed, and a wrong guess costs nothing but the
 * fetch. dict_prefetch_entry returns the payload of the first entry under a slot of hash h
 * (not yet compared with the key: maybe another key's), or NULL. */
void dict_prefetch_slot(const dict *d, uint64_t h);
void *dict_prefetch_entry(const dict *d, uint64_t h);
/* Removes the key. Returns 1 if it was there. The caller releases the payload's contents
 * first (dict_get, then release, then dict_del). */
int dict_del(dict *d, slice key);
/* Removes the entry whose payload this is (from dict_get/dict_put, still in d): no hashing
 * or key comparison. The same caveat on the payload's contents as dict_del. */
void dict_del_payload(dict *d, void *payload);
/* The key of an entry, given its payload pointer. */
slice dict_key_of(const dict *d, const void *payload);

/* Iteration: start with it = 0; each call returns the next payload or NULL at the end.
 * The dict must not be modified during iteration. */
void *dict_next(const dict *d, size_t *it);

/* The hash used everywhere (XXH3, unseeded: deterministic across runs and machines). */
uint64_t dict_hash(const void *p, size_t len);

#endif
