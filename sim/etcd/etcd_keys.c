/* etcd_keys.c — the order of an etcd member's keys (bytes, as its index compares them) and
 * the ranges of keys a request or a watch names: a key alone, [key, end), every key from key
 * on, or a prefix (clientv3.GetPrefixRangeEnd). */
#include <string.h>

#include "etcd.h"

int etcd_key_cmp(const char *a, size_t al, const char *b, size_t bl)
{
    return slice_cmp((slice){ a, al }, (slice){ b, bl });
}

size_t etcd_prefix_end(const char *key, size_t klen, char *out)
{
    memcpy(out, key, klen);
    for (size_t i = klen; i-- > 0;) {
        if ((unsigned char)out[i] < 0xff) {
            out[i]++;
            return i + 1;
        }
    }
    out[0] = 0; /* every byte 0xff: every key from key on */
    return 1;
}

int etcd_in_range(const erange *r, const char *k, size_t kl)
{
    if (!r->has_end) return !etcd_key_cmp(k, kl, r->key.p, r->key.len);
    if (etcd_key_cmp(k, kl, r->key.p, r->key.len) < 0) return 0;
    if (r->end.len == 1 && r->end.p[0] == 0) return 1;
    return etcd_key_cmp(k, kl, r->end.p, r->end.len) < 0;
}
