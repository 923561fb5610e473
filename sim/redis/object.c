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
 * locale's idea of printable, as Redis does, so bytes >= 0x80 come out as \xHH. Written into
 * room reserved a piece at a time (at most 4 bytes a byte), not a printf a byte: the history
 * describes every write with it, and a printf for each of a large value's first 32 bytes was
 * 3/4 of serve's time on an APPEND (issue 37, perf). */
void dump_repr(buf *out, const char *p, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    buf_putc(out, '"');
    for (size_t at = 0; at < len; at += 4096) {
        size_t end = len - at > 4096 ? at + 4096 : len;
        buf_reserve(out, 4 * (end - at));
        char *w = out->p + out->len;
        for (size_t i = at; i < end; i++) {
            unsigned char c = (unsigned char)p[i];
            char esc = 0;
            switch (c) {
            case '\\': esc = '\\'; break;
            case '"': esc = '"'; break;
            case '\n': esc = 'n'; break;
            case '\r': esc = 'r'; break;
            case '\t': esc = 't'; break;
            case '\a': esc = 'a'; break;
            case '\b': esc = 'b'; break;
            default:
                if (c < 0x80 && isprint(c)) *w++ = (char)c;
                else *w++ = '\\', *w++ = 'x', *w++ = hex[c >> 4], *w++ = hex[c & 15];
                continue;
            }
            *w++ = '\\', *w++ = esc;
        }
        out->len = (size_t)(w - out->p);
        out->p[out->len] = '\0';
    }
    buf_putc(out, '"');
}
