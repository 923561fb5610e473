/* kv.h — one key's slot in a keyspace (store.h), and what the expiry index (ttl.h) keeps
 * of it. */
#ifndef LOCKLAB_REDIS_KV_H
#define LOCKLAB_REDIS_KV_H

#include <stdint.h>

/* One key's slot in the keyspace. The fields are the handlers' to read; change the value
 * only through the store and type APIs. Valid until the key is deleted. */
typedef struct kv {
    void *ptr;          /* the value, of the type below */
    /* Where its deadline sits in the expiry index (internal): the deadline is kept there
     * only (store_expire), as Redis keeps it in its expires dict, so that a key without one
     * is 16 bytes here. */
    uint32_t ttl_idx;
    uint8_t type;       /* obj_type */
    /* A string OBJECT ENCODING reports as "raw" whatever its bytes: one grown in place
     * (APPEND to an existing key, SETRANGE, SETBIT, BITFIELD) or made by BITOP, as Redis
     * keeps such a value. Set by those handlers; every new value clears it; RENAME, COPY,
     * MOVE, SWAPDB and store_clone carry it (a replica applying one key's change does not). */
    uint8_t raw;
    /* Its last access, in whole seconds of the clock modulo 2^16 (OBJECT IDLETIME), where
     * the store tracks access (store_set_track_access: locklab serve); 0 elsewhere. Redis
     * keeps 24 bits of seconds; 16 fit beside the fields above, so an idle time wraps
     * after 18.2 hours here (194 days there). */
    uint16_t lru;
} kv;

#endif
