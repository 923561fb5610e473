/* lua_struct.c — `struct` for scripts: pack, unpack and size of binary records, behaving as
 * the struct library bundled with Redis 7.0 (Roberto Ierusalimschy's struct 0.2, as Redis
 * patched it), written for locklab from its observed behaviour.
 *
 * A format is a C string of options; data items are taken from (pack) or returned as
 * (unpack) Lua values in order:
 *     ' '  ignored                   '>' '<'  big / little endian from here on (default little)
 *     '!'[n]  align items to min(their size, n) bytes; n a power of 2, default 8 (none
 *             before the first '!')
 *     'x'  a zero byte               'b' 'B'  signed / unsigned char   'h' 'H'  short (2)
 *     'l' 'L' 'T'  long, unsigned long, size_t (8)   'i' 'I'[n]  an int of n bytes
 *             (default 4, at most 32)
 *     'f' 'd'  float, double         's'  a string and its terminating zero
 *     'c'[n]  n bytes of a string (default 1); 'c0': pack takes the whole string, unpack
 *             the number unpacked just before as the length
 * Anything else is "invalid format option". unpack(fmt, data [, pos]) also returns the
 * position after the last byte read.
 *
 * Numbers are Lua 5.1's doubles there: pack converts one to an integer by C's cast (what
 * x86-64 gives out of range: 0 above 2^64 and for NaN, INT64_MIN below -2^63), writing its
 * 64 bits and zeros beyond; unpack reads at most 64 bits into a double. A result that is an
 * integer below 2^53 comes back as a Lua integer, so tostring prints it as 5.1 did ("2",
 * not "2.0"). Positions and c0 lengths given as numbers are truncated toward zero. */
#include "lua_struct.h"
#include "luaclib.h"

#include <ctype.h>
#include <lauxlib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define STRUCT_MAX_INT 32   /* bytes of the widest 'i' */
#define STRUCT_MAX_ALIGN 8  /* what '!' alone means: a double's alignment on x86-64 */

typedef struct sheader {
    int big;     /* big endian */
    int align;   /* the largest alignment; 1 = none */
} sheader;

/* A count in the format (after 'i', 'c' or '!'), or df when there is none. */
static int struct_num(lua_State *L, const char **fmt, int df)
{
    if (!isdigit((unsigned char)**fmt)) return df;
    int a = 0;
    do {
        int d = *(*fmt)++ - '0';
        if (a > (INT32_MAX - d) / 10) luaL_error(L, "integral size overflow");
        a = a * 10 + d;
    } while (isdigit((unsigned char)**fmt));
    return a;
}

/* The size of option opt (its count read from fmt), 0 for options without one. */
static size_t struct_size_of(lua_State *L, int opt, const char **fmt)
{
    switch (opt) {
    case 'b': case 'B': case 'x': return 1;
    case 'h': case 'H': return 2;
    case 'l': case 'L': case 'T': case 'd': return 8;
    case 'f': return 4;
    case 'c': return (size_t)struct_num(L, fmt, 1);
    case 'i': case 'I': {
        int n = struct_num(L, fmt, 4);
        if (n > STRUCT_MAX_INT) luaL_error(L, "integral size %d is larger than limit of %d", n, STRUCT_MAX_INT);
        return (size_t)n;
    }
    default: return 0;
    }
}

/* Zero bytes before an item of this size at offset len. */
static size_t struct_padding(size_t len, const sheader *h, int opt, size_t size)
{
    if (size == 0 || opt == 'c') return 0;
    if (size > (size_t)h->align) size = (size_t)h->align;
    return (size - (len & (size - 1))) & (size - 1);
}

/* The options that are not items: spaces, byte order, alignment. */
static void struct_control(lua_State *L, int opt, const char **fmt, sheader *h)
{
    switch (opt) {
    case ' ': return;
    case '>': h->big = 1; return;
    case '<': h->big = 0; return;
    case '!': {
        int a = struct_num(L, fmt, STRUCT_MAX_ALIGN);
        if (a <= 0 || (a & (a - 1))) luaL_error(L, "alignment %d is not a power of 2", a);
        h->align = a;
        return;
    }
    default: luaL_argerror(L, 1, lua_pushfstring(L, "invalid format option '%c'", opt));
    }
}

/* A double as Redis's struct converts one: (Uinttype)(Inttype)n below zero, (Uinttype)n
 * otherwise, both as x86-64 makes them (NaN: 2^63; 2^64 and above: 0). */
static uint64_t struct_to_bits(double n)
{
    return n < 0 ? (uint64_t)luaclib_cvt_i64(n) : luaclib_cvt_u64(n);
}

static void struct_put_int(lua_State *L, luaL_Buffer *b, int arg, int big, size_t size)
{
    uint64_t v = struct_to_bits(luaL_checknumber(L, arg));
    char out[STRUCT_MAX_INT];
    for (size_t i = 0; i < size; i++) {
        out[big ? size - 1 - i : i] = (char)(v & 0xff);
        v >>= 8;
    }
    luaL_addlstring(b, out, size);
}

/* Copies n bytes in the requested byte order (the machine's is little endian). */
static void struct_put_bytes(luaL_Buffer *b, const void *p, size_t n, int big)
{
    char out[8];
    for (size_t i = 0; i < n; i++) out[i] = ((const char *)p)[big ? n - 1 - i : i];
    luaL_addlstring(b, out, n);
}

static void struct_get_bytes(const char *p, void *to, size_t n, int big)
{
    for (size_t i = 0; i < n; i++) ((char *)to)[i] = p[big ? n - 1 - i : i];
}

static double struct_get_int(const char *p, int big, int issigned, size_t size)
{
    uint64_t v = 0;
    for (size_t i = 0; i < size; i++) v = v << 8 | (unsigned char)p[big ? i : size - 1 - i];
    if (!issigned || size == 0) return (double)v;
    uint64_t mask = size >= 8 ? (uint64_t)1 << 63 : ~(uint64_t)0 << (size * 8 - 1);
    if (v & mask) v |= mask; /* sign extension */
    return (double)(int64_t)v;
}

static int struct_pack(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    sheader h = { 0, 1 };
    int arg = 2;
    size_t total = 0;
    luaL_Buffer b;
    lua_pushnil(L); /* keeps the buffer's stack use apart from the arguments */
    luaL_buffinit(L, &b);
    while (*fmt) {
        int opt = *fmt++;
        size_t size = struct_size_of(L, opt, &fmt);
        size_t pad = struct_padding(total, &h, opt, size);
        total += pad;
        while (pad-- > 0) luaL_addchar(&b, '\0');
        switch (opt) {
        case 'b': case 'B': case 'h': case 'H': case 'l': case 'L': case 'T': case 'i': case 'I':
            struct_put_int(L, &b, arg++, h.big, size);
            break;
        case 'x': luaL_addchar(&b, '\0'); break;
        case 'f': {
            float f = (float)luaL_checknumber(L, arg++);
            struct_put_bytes(&b, &f, sizeof f, h.big);
            break;
        }
        case 'd': {
            double d = luaL_checknumber(L, arg++);
            struct_put_bytes(&b, &d, sizeof d, h.big);
            break;
        }
        case 'c': case 's': {
            size_t len;
            const char *s = luaL_checklstring(L, arg++, &len);
            if (size == 0) size = len;
            /* (the argument number is the next one's, as in Redis) */
            luaL_argcheck(L, len >= size, arg, "string too short");
            luaL_addlstring(&b, s, size);
            if (opt == 's') {
                luaL_addchar(&b, '\0');
                size++;
            }
            break;
        }
        default: struct_control(L, opt, &fmt, &h);
        }
        total += size;
    }
    luaL_pushresult(&b);
    return 1;
}

static int struct_unpack(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    size_t ld;
    const char *data = luaL_checklstring(L, 2, &ld);
    /* Redis keeps the offset in a size_t: -1 is past any data, only 0 is refused. */
    size_t pos = lua_isnoneornil(L, 3) ? 1 : (size_t)luaclib_trunc(luaL_checknumber(L, 3));
    luaL_argcheck(L, pos > 0, 3, "offset must be 1 or greater");
    pos--;
    sheader h = { 0, 1 };
    int n = 0;
    while (*fmt) {
        int opt = *fmt++;
        size_t size = struct_size_of(L, opt, &fmt);
        pos += struct_padding(pos, &h, opt, size);
        luaL_argcheck(L, size <= ld && pos <= ld - size, 2, "data string too short");
        luaL_checkstack(L, 2, "too many results");
        switch (opt) {
        case 'b': case 'B': case 'h': case 'H': case 'l': case 'L': case 'T': case 'i': case 'I':
            luaclib_push_number(L, struct_get_int(data + pos, h.big, islower(opt), size));
            n++;
            break;
        case 'x': break;
        case 'f': {
            float f;
            struct_get_bytes(data + pos, &f, sizeof f, h.big);
            luaclib_push_number(L, f);
            n++;
            break;
        }
        case 'd': {
            double d;
            struct_get_bytes(data + pos, &d, sizeof d, h.big);
            luaclib_push_number(L, d);
            n++;
            break;
        }
        case 'c':
            if (size == 0) { /* c0: the length is the number unpacked just before */
                if (n == 0 || !lua_isnumber(L, -1)) luaL_error(L, "format 'c0' needs a previous size");
                /* Redis: size = lua_tonumber(...), a double into a size_t: a negative one
                 * wraps and is too long, +inf is 0 */
                size = (size_t)luaclib_cvt_u64(lua_tonumber(L, -1));
                lua_pop(L, 1);
                n--;
                luaL_argcheck(L, size <= ld && pos <= ld - size, 2, "data string too short");
            }
            lua_pushlstring(L, data + pos, size);
            n++;
            break;
        case 's': {
            const char *e = memchr(data + pos, '\0', ld - pos);
            if (!e) luaL_error(L, "unfinished string in data");
            size = (size_t)(e - (data + pos)) + 1;
            lua_pushlstring(L, data + pos, size - 1);
            n++;
            break;
        }
        default: struct_control(L, opt, &fmt, &h);
        }
        pos += size;
    }
    lua_pushinteger(L, (lua_Integer)pos + 1);
    return n + 1;
}

static int struct_size(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    sheader h = { 0, 1 };
    size_t pos = 0;
    while (*fmt) {
        int opt = *fmt++;
        size_t size = struct_size_of(L, opt, &fmt);
        pos += struct_padding(pos, &h, opt, size);
        if (opt == 's') luaL_argerror(L, 1, "option 's' has no fixed size");
        else if (opt == 'c' && size == 0) luaL_argerror(L, 1, "option 'c0' has no fixed size");
        if (!isalnum(opt)) struct_control(L, opt, &fmt, &h);
        pos += size;
    }
    lua_pushinteger(L, (lua_Integer)pos);
    return 1;
}

void lua_struct_open(lua_State *L)
{
    static const luaL_Reg fns[] = {
        { "pack", struct_pack }, { "unpack", struct_unpack }, { "size", struct_size }, { NULL, NULL },
    };
    luaL_newlib(L, fns);
}
