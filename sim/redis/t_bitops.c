/* t_bitops.c — BITCOUNT, BITPOS, BITOP and BITFIELD over string values (Redis 7.0's
 * bitops.c; SETBIT and GETBIT live with the strings in t_string.c). A range is in bytes, or in bits with
 * BIT; negative ends count from the end; a missing key is an empty string (BITCOUNT 0,
 * BITPOS 1 finds nothing, BITPOS 0 finds bit 0). Counting and searching are done bit by bit
 * over the range, which gives what Redis's byte-masking gives. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
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
        kv *d = store_set(c->db, c->argv[2], OBJ_STRING, r, 0);
        d->raw = 1;
        store_touched(c->db, d);
    } else {
        store_delete(c->db, c->argv[2]);
    }
    free(src);
    reply_int(c->out, (long long)maxlen);
}

/* ---- BITFIELD, BITFIELD_RO ---- */

enum { BF_GET, BF_SET, BF_INCRBY };
enum { BF_WRAP, BF_SAT, BF_FAIL };

typedef struct bf_op {
    uint64_t offset;
    int64_t value;
    int opcode, overflow, sign, bits;
} bf_op;

/* `bits` bits from bit `offset` of p (most significant first), as an unsigned number. */
static uint64_t bf_get_u(const unsigned char *p, size_t len, uint64_t offset, int bits)
{
    uint64_t v = 0;
    for (int i = 0; i < bits; i++, offset++) {
        int b = (offset >> 3) < len ? (p[offset >> 3] >> (7 - (offset & 7))) & 1 : 0;
        v = v << 1 | (uint64_t)b;
    }
    return v;
}

static int64_t bf_get_s(const unsigned char *p, size_t len, uint64_t offset, int bits)
{
    uint64_t v = bf_get_u(p, len, offset, bits);
    if (bits < 64 && (v & (UINT64_C(1) << (bits - 1)))) v |= UINT64_MAX << bits; /* sign-extend */
    return (int64_t)v;
}

static void bf_set(unsigned char *p, uint64_t offset, int bits, uint64_t v)
{
    for (int i = bits - 1; i >= 0; i--, offset++) {
        unsigned char mask = (unsigned char)(1u << (7 - (offset & 7)));
        if ((v >> i) & 1) p[offset >> 3] |= mask;
        else p[offset >> 3] &= (unsigned char)~mask;
    }
}

/* value + incr in an unsigned field of `bits` bits: 0 if it fits, else 1 with *limit the
 * wrapped or saturated result (Redis's checkUnsignedBitfieldOverflow). */
static int bf_overflow_u(uint64_t value, int64_t incr, int bits, int ow, uint64_t *limit)
{
    uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    int64_t maxincr = (int64_t)(max - value), minincr = -(int64_t)value;
    int over = value > max || (incr > 0 && incr > maxincr), under = !over && incr < 0 && incr < minincr;
    if (!over && !under) return 0;
    if (ow == BF_WRAP) *limit = (value + (uint64_t)incr) & max;
    else if (ow == BF_SAT) *limit = over ? max : 0;
    return 1;
}

/* The same for a signed field (Redis's checkSignedBitfieldOverflow). */
static int bf_overflow_s(int64_t value, int64_t incr, int bits, int ow, int64_t *limit)
{
    int64_t max = bits == 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << (bits - 1)) - 1), min = -max - 1;
    int64_t maxincr = (int64_t)((uint64_t)max - (uint64_t)value), minincr = (int64_t)((uint64_t)min - (uint64_t)value);
    int over = value > max || (bits != 64 && incr > maxincr) || (value >= 0 && incr > 0 && incr > maxincr);
    int under = !over && (value < min || (bits != 64 && incr < minincr) || (value < 0 && incr < 0 && incr < minincr));
    if (!over && !under) return 0;
    if (ow == BF_WRAP) {
        uint64_t r = (uint64_t)value + (uint64_t)incr;
        if (bits < 64) {
            uint64_t mask = UINT64_MAX << bits;
            r = (r & (UINT64_C(1) << (bits - 1))) ? r | mask : r & ~mask;
        }
        *limit = (int64_t)r;
    } else if (ow == BF_SAT) {
        *limit = over ? max : min;
    }
    return 1;
}

static const char BF_TYPE_ERR[] =
    "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.";

/* Parses the operations from argv[2] on; the count, or -1 after replying. */
static int bf_parse(cmdctx *c, bf_op **ops, uint64_t *highest, int *writes)
{
    int n = 0, ow = BF_WRAP;
    *writes = 0;
    for (int j = 2; j < c->argc; j++) {
        int rem = c->argc - j - 1, opcode;
        slice a = c->argv[j];
        if (slice_opt_is(a, "get") && rem >= 2) opcode = BF_GET;
        else if (slice_opt_is(a, "set") && rem >= 3) opcode = BF_SET;
        else if (slice_opt_is(a, "incrby") && rem >= 3) opcode = BF_INCRBY;
        else if (slice_opt_is(a, "overflow") && rem >= 1) {
            slice t = c->argv[++j];
            if (slice_opt_is(t, "wrap")) ow = BF_WRAP;
            else if (slice_opt_is(t, "sat")) ow = BF_SAT;
            else if (slice_opt_is(t, "fail")) ow = BF_FAIL;
            else {
                reply_error(c->out, "ERR Invalid OVERFLOW type specified");
                return -1;
            }
            continue;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return -1;
        }
        slice type = slice_cstr_prefix(c->argv[j + 1]), off = c->argv[j + 2];
        long long bits, offset, value = 0;
        int sign = type.len > 0 && type.p[0] == 'i';
        if (type.len < 2 || (type.p[0] != 'i' && type.p[0] != 'u') ||
            ll_parse_int64((slice){ type.p + 1, type.len - 1 }, &bits) < 0 || bits < 1 || bits > (sign ? 64 : 63)) {
            reply_error(c->out, BF_TYPE_ERR);
            return -1;
        }
        /* "#n": the n-th field of this width */
        int hash = off.len > 0 && off.p[0] == '#';
        int ok = ll_parse_int64((slice){ off.p + hash, off.len - (size_t)hash }, &offset) == 0;
        if (ok && hash) {
            ok = offset <= LLONG_MAX / bits && offset >= LLONG_MIN / bits;
            offset *= bits;
        }
        if (!ok || offset < 0 || (offset >> 3) >= 512LL * 1024 * 1024) {
            reply_error(c->out, "ERR bit offset is not an integer or out of range");
            return -1;
        }
        if (opcode != BF_GET) {
            *writes = 1;
            if (arg_int64(c, j + 3, &value) < 0) return -1;
            if ((uint64_t)offset + (uint64_t)bits - 1 > *highest) *highest = (uint64_t)offset + (uint64_t)bits - 1;
        }
        *ops = xrealloc(*ops, (size_t)(n + 1) * sizeof **ops);
        (*ops)[n++] = (bf_op){ (uint64_t)offset, value, opcode, ow, sign, (int)bits };
        j += opcode == BF_GET ? 2 : 3;
    }
    return n;
}

static void bitfield_generic(cmdctx *c, int readonly)
{
    bf_op *ops = NULL;
    uint64_t highest = 0;
    int writes, n = bf_parse(c, &ops, &highest, &writes);
    if (n < 0) goto done;
    kv *e;
    if (lookup_typed(c, c->argv[1], OBJ_STRING, &e) < 0) goto done;
    sstr *s = e ? e->ptr : NULL;
    int grown = 0, changes = 0; /* Redis's bitfieldGeneric: dirty, changes */
    if (writes) {
        if (readonly) {
            reply_error(c->out, "ERR BITFIELD_RO only supports the GET subcommand");
            goto done;
        }
        /* the string grown to the farthest bit written, before any operation runs */
        size_t need = (size_t)(highest >> 3) + 1, old = s ? s->len : 0;
        if (!s || need > old) { /* in place, as string_grown (t_string.c) does */
            grown = 1;
            sstr *g = xrealloc(s, sstr_block_size(need > old ? need : old));
            memset(g->p + old, 0, (need > old ? need : old) - old);
            g->len = need > old ? need : old;
            g->p[g->len] = '\0';
            if (e) e->ptr = g;
            else e = store_add(c->db, c->argv[1], OBJ_STRING, g);
            s = g;
        }
        e->raw = 1;
    }
    reply *el = reply_array(c->out, (size_t)n);
    for (int k = 0; k < n; k++) {
        const bf_op *op = &ops[k];
        unsigned char *p = s ? (unsigned char *)s->p : NULL;
        size_t len = s ? s->len : 0;
        if (op->opcode == BF_GET) {
            if (op->sign) reply_int(&el[k], bf_get_s(p, len, op->offset, op->bits));
            else reply_int(&el[k], (long long)bf_get_u(p, len, op->offset, op->bits));
            continue;
        }
        int incr = op->opcode == BF_INCRBY, over;
        if (op->sign) {
            int64_t old = bf_get_s(p, len, op->offset, op->bits), nv, wrapped = 0;
            nv = incr ? (int64_t)((uint64_t)old + (uint64_t)op->value) : op->value;
            over = bf_overflow_s(incr ? old : op->value, incr ? op->value : 0, op->bits, op->overflow, &wrapped);
            if (over) nv = wrapped;
            if (over && op->overflow == BF_FAIL) continue; /* nil, nothing written */
            reply_int(&el[k], incr ? nv : old);
            bf_set(p, op->offset, op->bits, (uint64_t)nv);
            changes += grown || old != nv;
        } else {
            uint64_t old = bf_get_u(p, len, op->offset, op->bits), nv, wrapped = 0;
            nv = incr ? old + (uint64_t)op->value : (uint64_t)op->value;
            over = bf_overflow_u(incr ? old : (uint64_t)op->value, incr ? op->value : 0, op->bits, op->overflow,
                                 &wrapped);
            if (over) nv = wrapped;
            if (over && op->overflow == BF_FAIL) continue;
            reply_int(&el[k], (long long)(incr ? nv : old));
            bf_set(p, op->offset, op->bits, nv);
            changes += grown || old != nv;
        }
    }
    /* a write that changes no bit of a string that did not grow is no write; one that does
     * is told by the bytes from its lowest bit written to its highest */
    if (changes || grown) {
        uint64_t lowest = highest;
        for (int k = 0; k < n; k++)
            if (ops[k].opcode != BF_GET && ops[k].offset < lowest) lowest = ops[k].offset;
        store_touched_range(c->db, e, (size_t)(lowest >> 3), (size_t)((highest >> 3) - (lowest >> 3) + 1));
    }
done:
    free(ops);
}

void cmd_bitfield(cmdctx *c) { bitfield_generic(c, 0); }
void cmd_bitfield_ro(cmdctx *c) { bitfield_generic(c, 1); }
