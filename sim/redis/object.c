/* object.c — values seen generically (see object.h).
 *
 * The keyspace stores a value as (type tag, pointer) and never looks inside: this file maps
 * each generic operation — free, clone, count, dump, size — onto the type that owns the
 * representation: a string is an sstr (value.h); the aggregates keep their representations
 * to themselves in hash.c, list.c, zset.c and set.c.
 *
 * Invariant the keyspace relies on: obj_count() is 0 exactly when an aggregate is empty, so
 * store_touched() can delete empty hashes, lists and sorted sets as Redis does. A string
 * counts 1 even when it is "" (an empty string is a value, not a missing key). */
#include "object.h"

#include <stdlib.h>

#include "hash.h"
#include "list.h"
#include "set.h"
#include "zset.h"

const char *obj_type_name(obj_type t)
{
    switch (t) {
    case OBJ_STRING: return "string";
    case OBJ_HASH: return "hash";
    case OBJ_LIST: return "list";
    case OBJ_ZSET: return "zset";
    case OBJ_SET: return "set";
    }
    LL_ASSERT(!"unknown object type");
}

void obj_free(obj_type t, void *ptr)
{
    switch (t) {
    case OBJ_STRING: free(ptr); return;
    case OBJ_HASH: hash_free(ptr); return;
    case OBJ_LIST: list_free(ptr); return;
    case OBJ_ZSET: zset_free(ptr); return;
    case OBJ_SET: set_free(ptr); return;
    }
    LL_ASSERT(!"unknown object type");
}

void *obj_clone(obj_type t, const void *ptr)
{
    switch (t) {
    case OBJ_STRING: {
        const sstr *s = ptr;
        return sstr_new(s->p, s->len);
    }
    case OBJ_HASH: return hash_clone(ptr);
    case OBJ_LIST: return list_clone(ptr);
    case OBJ_ZSET: return zset_clone(ptr);
    case OBJ_SET: return set_clone(ptr);
    }
    LL_ASSERT(!"unknown object type");
}

size_t obj_count(obj_type t, const void *ptr)
{
    switch (t) {
    case OBJ_STRING: return 1;
    case OBJ_HASH: return hash_len(ptr);
    case OBJ_LIST: return list_len(ptr);
    case OBJ_ZSET: return zset_len(ptr);
    case OBJ_SET: return set_len(ptr);
    }
    LL_ASSERT(!"unknown object type");
}

void obj_dump(obj_type t, const void *ptr, buf *out)
{
    switch (t) {
    case OBJ_STRING: {
        const sstr *s = ptr;
        dump_repr(out, s->p, s->len);
        return;
    }
    case OBJ_HASH: hash_dump(ptr, out); return;
    case OBJ_LIST: list_dump(ptr, out); return;
    case OBJ_ZSET: zset_dump(ptr, out); return;
    case OBJ_SET: set_dump(ptr, out); return;
    }
    LL_ASSERT(!"unknown object type");
}

size_t obj_bytes(obj_type t, const void *ptr)
{
    switch (t) {
    case OBJ_STRING: return sizeof(sstr) + ((const sstr *)ptr)->len + 1;
    case OBJ_HASH: return hash_bytes(ptr);
    case OBJ_LIST: return list_bytes(ptr);
    case OBJ_ZSET: return zset_bytes(ptr);
    case OBJ_SET: return set_bytes(ptr);
    }
    LL_ASSERT(!"unknown object type");
}

const char *obj_encoding(obj_type t, const void *ptr)
{
    switch (t) {
    case OBJ_STRING: {
        const sstr *s = ptr;
        long long v;
        if (s->len <= 20 && ll_parse_int64((slice){ s->p, s->len }, &v) == 0) return "int";
        return s->len <= 44 ? "embstr" : "raw";
    }
    case OBJ_HASH: return hash_encoding(ptr);
    case OBJ_LIST: return "quicklist"; /* Redis 7.0 has no listpack lists yet (7.2 has) */
    case OBJ_ZSET: return zset_encoding(ptr);
    case OBJ_SET: return set_encoding(ptr);
    }
    LL_ASSERT(!"unknown object type");
}
