/* object.c — values seen generically (see object.h).
 *
 * The keyspace stores a value as (type tag, pointer) and never looks inside: this file maps
 * each generic operation — free, clone, count, dump, size — onto the type that owns the
 * representation. Strings are simple enough to live here (an sstr: length, then the bytes,
 * then a NUL that is not part of the value, in a block of sstr_block_size(len) bytes, which
 * lets the keyspace reuse a deleted string's block); the aggregates keep their
 * representations to themselves in t_hash.c, t_list.c, t_zset.c and t_set.c.
 *
 * Invariant the keyspace relies on: obj_count() is 0 exactly when an aggregate is empty, so
 * store_touched() can delete empty hashes, lists and sorted sets as Redis does. A string
 * counts 1 even when it is "" (an empty string is a value, not a missing key). */
#include "object.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_zset.h"

sstr *sstr_new(const char *p, size_t len)
{
    return sstr_fill(xmalloc(sstr_block_size(len)), p, len);
}

sstr *sstr_fill(void *block, const char *p, size_t len)
{
    sstr *s = block;
    s->len = len;
    if (len) memcpy(s->p, p, len);
    s->p[len] = '\0';
    return s;
}

const enc_limits enc_limits_default = { 512, 64, 512, 128, 64 };

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

/* sdscatrepr: the quoting redis-cli uses for bulk strings. isprint() is asked about the C
 * locale's idea of printable, as Redis does, so bytes >= 0x80 come out as \xHH. */
void dump_repr(buf *out, const char *p, size_t len)
{
    buf_putc(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        switch (c) {
        case '\\': buf_puts(out, "\\\\"); break;
        case '"': buf_puts(out, "\\\""); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\r': buf_puts(out, "\\r"); break;
        case '\t': buf_puts(out, "\\t"); break;
        case '\a': buf_puts(out, "\\a"); break;
        case '\b': buf_puts(out, "\\b"); break;
        default:
            if (c < 0x80 && isprint(c)) buf_putc(out, (char)c);
            else buf_printf(out, "\\x%02x", c);
        }
    }
    buf_putc(out, '"');
}
