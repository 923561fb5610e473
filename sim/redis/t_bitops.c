/* t_bitops.c — BITCOUNT, BITPOS and BITOP over string values (Redis 7.0's bitops.c; SETBIT
 * and GETBIT live with the strings in t_string.c). A range is in bytes, or in bits with
 * BIT; negative ends count from the end; a missing key is an empty string (BITCOUNT 0,
 * BITPOS 1 finds nothing, BITPOS 0 finds bit 0). Counting and searching are done bit by bit
 * over the range, which gives what Redis's byte-masking gives. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "object.h"

/* A [start, end] range over totlen bytes, in bits when isbit, after Redis's normalisation;
 * the result in bits, [*sb, *eb], empty when *sb > *eb. */
static void bit_range(long long start, long long end, long long totlen, int isbit, long long *sb, long long *eb)
{
    if (isbit) totlen <<= 3;
    if (start < 0) start += totlen;
    if (end < 0) end += totlen;
    if (start < 0) start = 0;
    if (end < 0) end = 0;
    if (end >= totlen) end = totlen - 1;
    *sb = isbit ? start : start * 8;
    *eb = isbit ? end : end * 8 + 7;
    if (start > end) *sb = *eb + 1;
}

static int bit_at(const unsigned char *p, long long i)
{
    return (p[i >> 3] >> (7 - (i & 7))) & 1;
}

/* BYTE or BIT at argv[i]: 0 with *isbit, or -1 after a syntax error. */
static int bit_unit(cmdctx *c, int i, int *isbit)
{
    if (slice_opt_is(c->argv[i], "bit")) *isbit = 1;
    else if (slice_opt_is(c->argv[i], "byte")) *isbit = 0;
    else {
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    return 0;
}

/* BITCOUNT key [start end [BYTE|BIT]]: the key is read before the range (a missing key is
 * 0 whatever follows). */
void cmd_bitcount(cmdctx *c)
{
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    if (!e) {
        reply_int(c->out, 0);
        return;
    }
    const sstr *s = e->ptr;
    long long start = 0, end = (long long)s->len - 1, sb, eb;
    int isbit = 0;
    if (c->argc == 4 || c->argc == 5) {
        if (arg_int64(c, 2, &start) < 0 || arg_int64(c, 3, &end) < 0) return;
        if (start < 0 && end < 0 && start > end) {
            reply_int(c->out, 0);
            return;
        }
        if (c->argc == 5 && bit_unit(c, 4, &isbit) < 0) return;
    } else if (c->argc != 2) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    bit_range(start, end, (long long)s->len, isbit, &sb, &eb);
    long long n = 0;
    for (long long i = sb; i <= eb; i++) n += bit_at((const unsigned char *)s->p, i);
    reply_int(c->out, n);
}

/* BITPOS key bit [start [end [BYTE|BIT]]]: the first bit equal to `bit` in the range; for
 * 0 without an explicit end, the string counts as followed by zeros. */
void cmd_bitpos(cmdctx *c)
{
    long long bit;
    if (arg_int64(c, 2, &bit) < 0) return;
    if (bit != 0 && bit != 1) {
        reply_error(c->out, "ERR The bit argument must be 1 or 0.");
        return;
    }
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) return;
    if (!e) {
        reply_int(c->out, bit ? -1 : 0);
        return;
    }
    const sstr *s = e->ptr;
    long long totlen = (long long)s->len, start = 0, end = totlen - 1, sb, eb;
    int isbit = 0, end_given = 0;
    if (c->argc >= 4 && c->argc <= 6) {
        if (arg_int64(c, 3, &start) < 0) return;
        if (c->argc == 6 && bit_unit(c, 5, &isbit) < 0) return;
        if (c->argc >= 5) {
            if (arg_int64(c, 4, &end) < 0) return;
            end_given = 1;
        } else {
            end = isbit ? (totlen << 3) + 7 : totlen - 1;
        }
    } else if (c->argc != 3) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    bit_range(start, end, totlen, isbit, &sb, &eb);
    if (sb > eb) {
        reply_int(c->out, -1);
        return;
    }
    for (long long i = sb; i <= eb; i++)
        if (bit_at((const unsigned char *)s->p, i) == bit) {
            reply_int(c->out, i);
            return;
        }
    /* Not found: looking for a 0 past a range that ends with the string, the padding's
     * first bit (Redis's whole-byte scan finds it there too). */
    reply_int(c->out, bit == 0 && !end_given ? (eb | 7) + 1 : -1);
}

/* BITOP AND|OR|XOR|NOT destkey key [key ...]: the result, as long as the longest input
 * (shorter ones padded with zeros), stored under destkey (deleted when empty). */
void cmd_bitop(cmdctx *c)
{
    enum { AND, OR, XOR, NOT } op;
    slice o = c->argv[1];
    if (slice_opt_is(o, "and")) op = AND;
    else if (slice_opt_is(o, "or")) op = OR;
    else if (slice_opt_is(o, "xor")) op = XOR;
    else if (slice_opt_is(o, "not")) op = NOT;
    else {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    if (op == NOT && c->argc != 4) {
        reply_error(c->out, "ERR BITOP NOT must be called with a single source key.");
        return;
    }
    int n = c->argc - 3;
    slice *src = xmalloc((size_t)n * sizeof *src);
    size_t maxlen = 0;
    for (int j = 0; j < n; j++) {
        kv *e;
        if (lookup_typed(c, c->argv[3 + j], OBJ_STRING, &e) < 0) {
            free(src);
            return;
        }
        src[j] = e ? sstr_slice(e->ptr) : (slice){ "", 0 };
        if (src[j].len > maxlen) maxlen = src[j].len;
    }
    if (maxlen) {
        sstr *r = xmalloc(sstr_block_size(maxlen));
        r->len = maxlen;
        r->p[maxlen] = '\0';
        for (size_t k = 0; k < maxlen; k++) {
            unsigned char out = k < src[0].len ? (unsigned char)src[0].p[k] : 0;
            if (op == NOT) out = (unsigned char)~out;
            for (int j = 1; j < n; j++) {
                unsigned char b = k < src[j].len ? (unsigned char)src[j].p[k] : 0;
                out = op == AND ? out & b : op == OR ? out | b : out ^ b;
            }
            r->p[k] = (char)out;
        }
        store_touched(c->db, store_set(c->db, c->argv[2], OBJ_STRING, r, 0));
    } else {
        store_delete(c->db, c->argv[2]);
    }
    free(src);
    reply_int(c->out, (long long)maxlen);
}
