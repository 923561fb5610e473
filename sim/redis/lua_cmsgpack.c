/* lua_cmsgpack.c — `cmsgpack` for scripts: MessagePack as Redis 7.0's bundled lua-cmsgpack
 * 0.4.0 writes and reads it, written for locklab from its observed behaviour.
 *
 * pack(v1, v2, ...) → the concatenated encodings. nil, and values MessagePack has no type
 * for (functions, userdata, threads), encode as nil; a number that is an integer in the
 * int64 range as the shortest integer form (fixint, uint8..64, int8..64), any other as a
 * float32 when that is exact, else a float64; a string as fixstr/str8/str16/str32; a table
 * whose keys are exactly 1..n (the empty table too) as an array, any other as a map in
 * table-iteration order; tables nested 16 deep encode as nil.
 *
 * unpack(s) → every value in s; unpack_one(s [, offset]) → the offset after one value (-1
 * at the end) and the value; unpack_limit(s, limit [, offset]) → the same for at most limit
 * values. Only the 2013 format is read: bin, ext and fixext bytes are "Bad data format in
 * input.", a truncated value "Missing bytes in input.". Numbers come back as Lua 5.1's
 * doubles would print: an integer below 2^53 as a Lua integer. uint64 values are read as
 * int64 (2^64 - 1 is -1), as Redis's build does.
 *
 * Where Redis would recurse without bound (a value nested a million deep) and run out of C
 * stack, unpacking stops at CMSGPACK_MAX_DEPTH with an error. */
#include "lua_cmsgpack.h"

#include <lauxlib.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "luaclib.h"
#include "util.h"

#define CMSGPACK_MAX_NESTING 16   /* lua-cmsgpack's LUACMSGPACK_MAX_NESTING */
#define CMSGPACK_MAX_DEPTH 5000   /* ours, for unpacking */

/* ---- pack ---- */

static void mp_put_be(buf *b, int tag, uint64_t v, int bytes)
{
    if (tag >= 0) buf_putc(b, (char)tag);
    for (int i = bytes - 1; i >= 0; i--) buf_putc(b, (char)(v >> (8 * i) & 0xff));
}

static void mp_put_int(buf *b, int64_t n)
{
    if (n >= 0) {
        if (n <= 127) buf_putc(b, (char)n);
        else if (n <= 0xff) mp_put_be(b, 0xcc, (uint64_t)n, 1);
        else if (n <= 0xffff) mp_put_be(b, 0xcd, (uint64_t)n, 2);
        else if (n <= 0xffffffffLL) mp_put_be(b, 0xce, (uint64_t)n, 4);
        else mp_put_be(b, 0xcf, (uint64_t)n, 8);
    } else {
        if (n >= -32) buf_putc(b, (char)(uint8_t)(int8_t)n);
        else if (n >= -128) mp_put_be(b, 0xd0, (uint64_t)n, 1);
        else if (n >= -32768) mp_put_be(b, 0xd1, (uint64_t)n, 2);
        else if (n >= -2147483648LL) mp_put_be(b, 0xd2, (uint64_t)n, 4);
        else mp_put_be(b, 0xd3, (uint64_t)n, 8);
    }
}

static void mp_put_number(buf *b, double d)
{
    /* lua-cmsgpack's test: not infinite and equal to its own cast to int64 (-0.0 is 0; NaN,
     * 2^63 and beyond are not integers). */
    if (!isinf(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0 && (double)(int64_t)d == d) {
        mp_put_int(b, (int64_t)d);
        return;
    }
    float f = (float)d;
    if ((double)f == d) {
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        mp_put_be(b, 0xca, u, 4);
    } else {
        uint64_t u;
        memcpy(&u, &d, sizeof u);
        mp_put_be(b, 0xcb, u, 8);
    }
}

static void mp_put_string(buf *b, const char *s, size_t n)
{
    if (n < 32) buf_putc(b, (char)(0xa0 | n));
    else if (n <= 0xff) mp_put_be(b, 0xd9, n, 1);
    else if (n <= 0xffff) mp_put_be(b, 0xda, n, 2);
    else mp_put_be(b, 0xdb, n, 4);
    buf_append(b, s, n);
}

/* A header of an array (fix 0x90, 0xdc, 0xdd) or a map (fix 0x80, 0xde, 0xdf). */
static void mp_put_header(buf *b, size_t n, int map)
{
    if (n < 16) buf_putc(b, (char)((map ? 0x80 : 0x90) | n));
    else if (n <= 0xffff) mp_put_be(b, map ? 0xde : 0xdc, n, 2);
    else mp_put_be(b, map ? 0xdf : 0xdd, n, 4);
}

/* Whether every key of the table on top is a number k > 0 with k an int, and the largest
 * is their count (so the keys are 1..n). */
static int mp_is_array(lua_State *L, size_t *len)
{
    double max = 0, count = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        double k = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
        if (!(k > 0 && k <= 2147483647.0 && k == floor(k))) {
            lua_pop(L, 1);
            return 0;
        }
        if (k > max) max = k;
        count++;
    }
    *len = (size_t)max;
    return max == count;
}


/* ---- Lua 5.1's table traversal order ----
 * Redis embeds Lua 5.1, whose `next` walks a table's array part (keys 1..asize) and then its
 * node array, slot by slot; a key's slot is its main position (the string hash of Redis's
 * lstring.c, which hashes every byte with no seed; a number's two 32-bit halves added, modulo
 * (size-1)|1; a boolean's value), a colliding key taking the last free slot as luaH_newkey
 * places it. The sizes are those Lua 5.1's rehash gives a table holding these keys
 * (computesizes; the node array the next power of 2). A table grown otherwise (keys deleted,
 * a constructor's presizing) may have other sizes in Redis; keys colliding in a slot are
 * inserted in a fixed order (by main position, then type and bytes); keys of other types
 * (tables, functions) come last, in Lua 5.4's order. */

typedef struct l51key {
    int kind;          /* 0 array part, 1 node part (hashed), 2 not hashable here */
    double num;
    unsigned int hash; /* string hash, or number/boolean bits */
    int is_str, is_num, is_bool;
    const char *s;
    size_t len;
    size_t mp;         /* main position */
    size_t idx;        /* its index in the keys table (0-based) */
} l51key;

static unsigned int l51_strhash(const char *str, size_t l)
{
    unsigned int h = (unsigned int)l;
    for (size_t l1 = l; l1 >= 1; l1--) h = h ^ ((h << 5) + (h >> 2) + (unsigned char)str[l1 - 1]);
    return h;
}

static int l51_cmp(const void *pa, const void *pb)
{
    const l51key *a = pa, *b = pb;
    if (a->mp != b->mp) return a->mp < b->mp ? -1 : 1;
    int ta = a->is_str ? 0 : a->is_num ? 1 : 2, tb = b->is_str ? 0 : b->is_num ? 1 : 2;
    if (ta != tb) return ta - tb;
    if (a->is_str) {
        size_t m = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->s, b->s, m);
        if (c) return c;
        return a->len < b->len ? -1 : a->len > b->len;
    }
    if (a->is_num) return a->num < b->num ? -1 : a->num > b->num;
    return (int)a->hash - (int)b->hash;
}

/* The keys at 1..n of the table at index kt, in Lua 5.1's traversal order: a malloc'd array
 * of their 0-based indexes there. */
static size_t *lua51_order(lua_State *L, int kt, size_t n)
{
    l51key *k = calloc(n ? n : 1, sizeof *k);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!k || !order) {
        free(k);
        free(order);
        luaL_error(L, "not enough memory");
    }
    int nums[32] = { 0 };
    int nasize = 0;
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, kt, (lua_Integer)i + 1);
        l51key *e = &k[i];
        e->idx = i;
        e->kind = 1;
        switch (lua_type(L, -1)) {
        case LUA_TSTRING:
            e->is_str = 1;
            e->s = lua_tolstring(L, -1, &e->len); /* kept alive by the keys table */
            e->hash = l51_strhash(e->s, e->len);
            break;
        case LUA_TNUMBER: {
            e->is_num = 1;
            e->num = lua_tonumber(L, -1);
            double d = e->num;
            if (d >= 1 && d <= (double)(1 << 26) && d == floor(d)) { /* countint: a candidate for the array part */
                int key = (int)d, lg = 0;
                while ((1 << lg) < key) lg++;
                nums[lg]++;
                nasize++;
            }
            unsigned int a[2];
            memcpy(a, &d, sizeof a);
            e->hash = a[0] + a[1];
            break;
        }
        case LUA_TBOOLEAN:
            e->is_bool = 1;
            e->hash = (unsigned int)lua_toboolean(L, -1);
            break;
        default: e->kind = 2;
        }
        lua_pop(L, 1);
    }
    /* computesizes */
    int asize = 0, a = 0, na = 0;
    for (int i = 0, twotoi = 1; i < 32 && twotoi / 2 < nasize; i++, twotoi *= 2) {
        if (nums[i] > 0) {
            a += nums[i];
            if (a > twotoi / 2) {
                asize = twotoi;
                na = a;
            }
        }
        if (a == nasize) break;
    }
    (void)na;
    size_t nnode = 0, nother = 0;
    for (size_t i = 0; i < n; i++) {
        if (k[i].is_num && k[i].num >= 1 && k[i].num <= asize && k[i].num == floor(k[i].num)) k[i].kind = 0;
        if (k[i].kind == 1) nnode++;
        if (k[i].kind == 2) nother++;
    }
    size_t size = 1;
    while (size < nnode + nother) size <<= 1;
    for (size_t i = 0; i < n; i++) {
        l51key *e = &k[i];
        if (e->kind != 1) continue;
        if (e->is_num) e->mp = e->num == 0 ? 0 : e->hash % ((unsigned int)(size - 1) | 1u);
        else e->mp = e->hash & (size - 1);
    }
    /* the array part first, in key order */
    size_t out = 0;
    for (int j = 1; j <= asize; j++)
        for (size_t i = 0; i < n; i++)
            if (k[i].kind == 0 && k[i].num == j) order[out++] = i;
    /* then the node array: insert as luaH_newkey does */
    l51key *ins = malloc((nnode ? nnode : 1) * sizeof *ins);
    long *slot = malloc(size * sizeof *slot), *next = malloc(size * sizeof *next);
    if (!ins || !slot || !next) {
        free(ins); free(slot); free(next); free(k); free(order);
        luaL_error(L, "not enough memory");
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (k[i].kind == 1) ins[m++] = k[i];
    qsort(ins, m, sizeof *ins, l51_cmp);
    for (size_t i = 0; i < size; i++) slot[i] = next[i] = -1;
    long lastfree = (long)size; /* getfreepos's, from the end down */
    for (size_t i = 0; i < m; i++) {
        size_t mp = ins[i].mp;
        if (slot[mp] >= 0) {
            size_t f = SIZE_MAX;
            while (lastfree > 0)
                if (slot[--lastfree] < 0) {
                    f = (size_t)lastfree;
                    break;
                }
            if (f == SIZE_MAX) break; /* cannot happen: size >= m */
            size_t othern = ins[slot[mp]].mp;
            if (othern != mp) { /* the colliding key is not in its main position: move it */
                while ((size_t)next[othern] != mp) othern = (size_t)next[othern];
                next[othern] = (long)f;
                slot[f] = slot[mp];
                next[f] = next[mp];
                next[mp] = -1;
                slot[mp] = -1;
            } else {
                next[f] = next[mp];
                next[mp] = (long)f;
                mp = f;
            }
        }
        slot[mp] = (long)i;
    }
    for (size_t i = 0; i < size; i++)
        if (slot[i] >= 0) order[out++] = ins[slot[i]].idx;
    for (size_t i = 0; i < n; i++)
        if (k[i].kind == 2) order[out++] = i;
    free(ins);
    free(slot);
    free(next);
    free(k);
    return order;
}

static void mp_put_value(lua_State *L, buf *b, int level);

static void mp_put_table(lua_State *L, buf *b, int level)
{
    luaL_checkstack(L, 4, "cmsgpack");
    size_t len;
    if (mp_is_array(L, &len)) {
        mp_put_header(b, len, 0);
        for (size_t i = 1; i <= len; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i);
            mp_put_value(L, b, level + 1);
            lua_pop(L, 1);
        }
        return;
    }
    /* A map: its keys in the order Redis's Lua 5.1 `next` gives them (lua51_order), not
     * Lua 5.4's, whose string hashes are seeded per state. */
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        n++;
    }
    mp_put_header(b, n, 1);
    lua_createtable(L, (int)n, 0); /* the keys, 1..n */
    lua_pushnil(L);
    size_t i = 0;
    while (lua_next(L, -3)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, (lua_Integer)++i);
    }
    size_t *order = lua51_order(L, lua_gettop(L), n);
    for (i = 0; i < n; i++) {
        lua_rawgeti(L, -1, (lua_Integer)order[i] + 1);
        mp_put_value(L, b, level + 1); /* the key */
        lua_rawget(L, -3);
        mp_put_value(L, b, level + 1); /* the value */
        lua_pop(L, 1);
    }
    free(order);
    lua_pop(L, 1);
}

/* Appends the value on top of the stack (left there). */
static void mp_put_value(lua_State *L, buf *b, int level)
{
    int t = lua_type(L, -1);
    if (t == LUA_TTABLE && level == CMSGPACK_MAX_NESTING) t = LUA_TNIL;
    switch (t) {
    case LUA_TBOOLEAN: buf_putc(b, (char)(lua_toboolean(L, -1) ? 0xc3 : 0xc2)); break;
    case LUA_TNUMBER: mp_put_number(b, lua_tonumber(L, -1)); break;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, -1, &n);
        mp_put_string(b, s, n);
        break;
    }
    case LUA_TTABLE: mp_put_table(L, b, level); break;
    default: buf_putc(b, (char)0xc0);
    }
}

static int mp_pack(lua_State *L)
{
    int nargs = lua_gettop(L);
    if (nargs == 0) return luaL_argerror(L, 0, "MessagePack pack needs input.");
    buf *b = luaclib_buf(L); /* a memory error mid-pack frees it */
    for (int i = 1; i <= nargs; i++) {
        lua_pushvalue(L, i);
        mp_put_value(L, b, 0);
        lua_pop(L, 1);
    }
    lua_pushlstring(L, b->p ? b->p : "", b->len);
    buf_release(b);
    return 1;
}

/* ---- unpack ---- */

typedef enum { MP_OK, MP_EOF, MP_BADFMT } mp_err;

typedef struct mp_cur {
    const unsigned char *p;
    size_t left;
    mp_err err;
    int depth;
} mp_cur;

static uint64_t mp_be(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | p[i];
    return v;
}

/* Whether n more bytes are there; marks a truncated input otherwise. */
static int mp_need(mp_cur *c, size_t n)
{
    if (c->left >= n) return 1;
    c->err = MP_EOF;
    return 0;
}

static void mp_get_value(lua_State *L, mp_cur *c);

/* Sets t[k] = v for the key and value on top (t below them), refusing a nil or NaN key with
 * Lua 5.1's words (5.4 says "index is nil"); no position, as a table error has none. */
static void mp_settable(lua_State *L)
{
    if (lua_isnil(L, -2) || (lua_type(L, -2) == LUA_TNUMBER && isnan(lua_tonumber(L, -2)))) {
        lua_pushstring(L, lua_isnil(L, -2) ? "table index is nil" : "table index is NaN");
        lua_error(L);
    }
    lua_settable(L, -3);
}

static void mp_get_items(lua_State *L, mp_cur *c, uint64_t n, int map)
{
    if (++c->depth > CMSGPACK_MAX_DEPTH) luaL_error(L, "Too many nested values in input (more than %d).", CMSGPACK_MAX_DEPTH);
    luaL_checkstack(L, 4, "cmsgpack");
    lua_newtable(L);
    for (uint64_t j = 0; j < n; j++) {
        if (map) {
            mp_get_value(L, c);
            if (c->err) return;
        } else {
            lua_pushinteger(L, (lua_Integer)j + 1);
        }
        mp_get_value(L, c);
        if (c->err) return;
        mp_settable(L);
    }
    c->depth--;
}

static void mp_get_string(lua_State *L, mp_cur *c, size_t head, int lenbytes)
{
    if (!mp_need(c, head)) return;
    size_t n = lenbytes ? (size_t)mp_be(c->p + 1, lenbytes) : (size_t)(c->p[0] & 0x1f);
    if (!mp_need(c, head + n)) return;
    lua_pushlstring(L, (const char *)c->p + head, n);
    c->p += head + n;
    c->left -= head + n;
}

/* Pushes one value and moves the cursor past it; on c->err the cursor and stack are left as
 * they are (the caller raises). */
static void mp_get_value(lua_State *L, mp_cur *c)
{
    luaL_checkstack(L, 2, "cmsgpack");
    if (!mp_need(c, 1)) return;
    unsigned t = c->p[0];
    size_t size = 0; /* bytes of a fixed-size value, header included */
    if (t <= 0x7f) {
        lua_pushinteger(L, t);
        size = 1;
    } else if (t >= 0xe0) {
        lua_pushinteger(L, (int8_t)t);
        size = 1;
    } else if (t >= 0xa0 && t <= 0xbf) {
        mp_get_string(L, c, 1, 0);
        return;
    } else if (t >= 0x80 && t <= 0x9f) {
        c->p++;
        c->left--;
        mp_get_items(L, c, t & 0x0f, t < 0x90);
        return;
    } else {
        static const signed char fixed[] = { /* 0xc0..0xd3: size, or -1 for a bad byte */
            1, -1, 1, 1, -1, -1, -1, -1, -1, -1, 5, 9, 2, 3, 5, 9, 2, 3, 5, 9,
        };
        if (t <= 0xd3) {
            if (fixed[t - 0xc0] < 0) {
                c->err = MP_BADFMT;
                return;
            }
            size = (size_t)fixed[t - 0xc0];
            if (!mp_need(c, size)) return;
            const unsigned char *p = c->p + 1;
            switch (t) {
            case 0xc0: lua_pushnil(L); break;
            case 0xc2: lua_pushboolean(L, 0); break;
            case 0xc3: lua_pushboolean(L, 1); break;
            case 0xca: {
                uint32_t u = (uint32_t)mp_be(p, 4);
                float f;
                memcpy(&f, &u, sizeof f);
                luaclib_push_number(L, f);
                break;
            }
            case 0xcb: {
                uint64_t u = mp_be(p, 8);
                double d;
                memcpy(&d, &u, sizeof d);
                luaclib_push_number(L, d);
                break;
            }
            case 0xcc: case 0xcd: case 0xce: luaclib_push_number(L, (double)mp_be(p, (int)size - 1)); break;
            case 0xcf: luaclib_push_number(L, (double)(int64_t)mp_be(p, 8)); break;
            case 0xd0: luaclib_push_number(L, (int8_t)p[0]); break;
            case 0xd1: luaclib_push_number(L, (int16_t)mp_be(p, 2)); break;
            case 0xd2: luaclib_push_number(L, (int32_t)mp_be(p, 4)); break;
            case 0xd3: luaclib_push_number(L, (double)(int64_t)mp_be(p, 8)); break;
            }
        } else {
            switch (t) {
            case 0xd9: mp_get_string(L, c, 2, 1); return;
            case 0xda: mp_get_string(L, c, 3, 2); return;
            case 0xdb: mp_get_string(L, c, 5, 4); return;
            case 0xdc: case 0xdd: case 0xde: case 0xdf: {
                int bytes = (t == 0xdc || t == 0xde) ? 2 : 4;
                if (!mp_need(c, 1 + (size_t)bytes)) return;
                uint64_t n = mp_be(c->p + 1, bytes);
                c->p += 1 + bytes;
                c->left -= 1 + (size_t)bytes;
                mp_get_items(L, c, n, t >= 0xde);
                return;
            }
            default: c->err = MP_BADFMT; return; /* fixext, ext, and 0xd4-0xd8 */
            }
        }
    }
    c->p += size;
    c->left -= size;
}

/* lua-cmsgpack's mp_unpack_full: limit values from offset (both 0: everything, and no
 * offset returned); with a limit or offset, the next offset (-1 at the end) comes first. */
static int mp_unpack_full(lua_State *L, lua_Integer limit, lua_Integer offset)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    int all = !limit && !offset;
    if (offset < 0 || limit < 0) /* (the length where the limit belongs: lua-cmsgpack's words) */
        return luaL_error(L, "Invalid request to unpack with offset of %d and limit of %d.", (int)offset, (int)len);
    if ((size_t)offset > len)
        return luaL_error(L, "Start offset %d greater than input length %d.", (int)offset, (int)len);
    if (all) limit = INT32_MAX;
    mp_cur c = { (const unsigned char *)s + offset, len - (size_t)offset, MP_OK, 0 };
    int n = 0;
    for (; c.left > 0 && n < limit; n++) {
        mp_get_value(L, &c);
        if (c.err == MP_EOF) return luaL_error(L, "Missing bytes in input.");
        if (c.err == MP_BADFMT) return luaL_error(L, "Bad data format in input.");
    }
    if (all) return n;
    lua_pushinteger(L, c.left == 0 ? -1 : (lua_Integer)(len - c.left));
    lua_insert(L, 2);
    return n + 1;
}

/* An integer argument as Lua 5.1's luaL_checkinteger read it into a lua_Integer (a
 * ptrdiff_t: NaN and anything beyond 2^63 are INT64_MIN); 0 when optional and absent. */
static lua_Integer mp_int_arg(lua_State *L, int idx, int optional)
{
    return optional && lua_isnoneornil(L, idx) ? 0 : (lua_Integer)luaclib_cvt_i64(luaL_checknumber(L, idx));
}

static int mp_unpack(lua_State *L)
{
    return mp_unpack_full(L, 0, 0);
}

static int mp_unpack_one(lua_State *L)
{
    lua_Integer offset = mp_int_arg(L, 2, 1);
    lua_settop(L, 1);
    return mp_unpack_full(L, 1, offset);
}

static int mp_unpack_limit(lua_State *L)
{
    lua_Integer limit = mp_int_arg(L, 2, 0);
    lua_Integer offset = mp_int_arg(L, 3, 1);
    lua_settop(L, 1);
    return mp_unpack_full(L, limit, offset);
}

void lua_cmsgpack_open(lua_State *L)
{
    static const luaL_Reg fns[] = {
        { "pack", mp_pack }, { "unpack", mp_unpack }, { "unpack_one", mp_unpack_one },
        { "unpack_limit", mp_unpack_limit }, { NULL, NULL },
    };
    luaL_newlib(L, fns);
    lua_pushliteral(L, "cmsgpack");
    lua_setfield(L, -2, "_NAME");
    lua_pushliteral(L, "lua-cmsgpack 0.4.0");
    lua_setfield(L, -2, "_VERSION");
    lua_pushliteral(L, "Copyright (C) 2012, Salvatore Sanfilippo");
    lua_setfield(L, -2, "_COPYRIGHT");
    lua_pushliteral(L, "MessagePack C implementation for Lua");
    lua_setfield(L, -2, "_DESCRIPTION");
}
