/* lua_cjson.c — `cjson` for scripts: encode and decode as Redis's bundled lua-cjson does
 * them, written for locklab (Redis scripts see this library; no lock script needs it, but
 * scripts in the wild and Redis's own tests do).
 *
 * encode: nil and cjson.null → null; booleans; numbers with "%.14g" (so 3.0 → 3, as Lua 5.1
 * printed them); strings with '"', '\\', '/' and control characters escaped; a table is an
 * array when its keys are exactly 1..n (an empty table is the object {}), otherwise an object
 * whose keys must be strings or numbers. Nesting deeper than 1000 is an error.
 *
 * decode: JSON text → Lua values; null → cjson.null; numbers become Lua integers when they
 * are integral and exactly representable, so that table.concat and tostring print them as
 * Redis's Lua 5.1 did ("0", "-5000" rather than "0.0", "-5000.0"). */
#include "lua_cjson.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define CJSON_MAX_DEPTH 1000

static void encode_value(lua_State *L, int idx, buf *out, int depth);

static void encode_string(buf *out, const char *s, size_t n)
{
    buf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': buf_puts(out, "\\\""); break;
        case '\\': buf_puts(out, "\\\\"); break;
        case '/': buf_puts(out, "\\/"); break;
        case '\b': buf_puts(out, "\\b"); break;
        case '\f': buf_puts(out, "\\f"); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\r': buf_puts(out, "\\r"); break;
        case '\t': buf_puts(out, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7f) buf_printf(out, "\\u%04x", c);
            else buf_putc(out, (char)c);
        }
    }
    buf_putc(out, '"');
}

static void encode_number(lua_State *L, int idx, buf *out)
{
    double d = lua_tonumber(L, idx);
    if (isinf(d) || isnan(d)) {
        luaL_error(L, "Cannot serialise number: must not be NaN or Inf");
        return;
    }
    buf_printf(out, "%.14g", d);
}

/* The length n if the table at idx has exactly the keys 1..n (n > 0), else -1. */
static lua_Integer array_length(lua_State *L, int idx)
{
    lua_Integer max = 0, count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TNUMBER || !lua_isinteger(L, -1)) {
            double d = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
            if (lua_type(L, -1) != LUA_TNUMBER || d != floor(d) || d < 1) {
                lua_pop(L, 1);
                return -1;
            }
            if ((lua_Integer)d > max) max = (lua_Integer)d;
        } else {
            lua_Integer k = lua_tointeger(L, -1);
            if (k < 1) {
                lua_pop(L, 1);
                return -1;
            }
            if (k > max) max = k;
        }
        count++;
    }
    return count > 0 && max == count ? max : -1;
}

static void encode_table(lua_State *L, int idx, buf *out, int depth)
{
    if (depth > CJSON_MAX_DEPTH) {
        luaL_error(L, "Cannot serialise, excessive nesting (%d)", depth);
        return;
    }
    luaL_checkstack(L, 4, "cjson");
    lua_Integer n = array_length(L, idx);
    if (n > 0) {
        buf_putc(out, '[');
        for (lua_Integer i = 1; i <= n; i++) {
            if (i > 1) buf_putc(out, ',');
            lua_rawgeti(L, idx, i);
            encode_value(L, lua_gettop(L), out, depth + 1);
            lua_pop(L, 1);
        }
        buf_putc(out, ']');
        return;
    }
    buf_putc(out, '{');
    int first = 1;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int kt = lua_type(L, -2);
        if (kt != LUA_TSTRING && kt != LUA_TNUMBER) {
            luaL_error(L, "Cannot serialise %s: table key must be a number or string", luaL_typename(L, -2));
            return;
        }
        if (!first) buf_putc(out, ',');
        first = 0;
        if (kt == LUA_TSTRING) {
            size_t kn;
            const char *k = lua_tolstring(L, -2, &kn);
            encode_string(out, k, kn);
        } else {
            buf_putc(out, '"');
            encode_number(L, lua_gettop(L) - 1, out);
            buf_putc(out, '"');
        }
        buf_putc(out, ':');
        encode_value(L, lua_gettop(L), out, depth + 1);
        lua_pop(L, 1);
    }
    buf_putc(out, '}');
}

static void encode_value(lua_State *L, int idx, buf *out, int depth)
{
    switch (lua_type(L, idx)) {
    case LUA_TNIL: buf_puts(out, "null"); break;
    case LUA_TBOOLEAN: buf_puts(out, lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TNUMBER: encode_number(L, idx, out); break;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        encode_string(out, s, n);
        break;
    }
    case LUA_TTABLE: encode_table(L, idx, out, depth); break;
    case LUA_TLIGHTUSERDATA:
        if (lua_touserdata(L, idx) == NULL) {
            buf_puts(out, "null");
            break;
        }
        /* fall through */
    default: luaL_error(L, "Cannot serialise %s: type not supported", luaL_typename(L, idx));
    }
}

/* The buffer lives in a userdata with a __gc, so an error raised mid-encode frees it. */
static int buf_gc(lua_State *L)
{
    buf_release(lua_touserdata(L, 1));
    return 0;
}

static int cjson_encode(lua_State *L)
{
    luaL_argcheck(L, lua_gettop(L) == 1, 1, "expected 1 argument");
    buf *b = lua_newuserdatauv(L, sizeof *b, 0);
    buf_init(b);
    lua_newtable(L);
    lua_pushcfunction(L, buf_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    encode_value(L, 1, b, 0);
    lua_pushlstring(L, b->p ? b->p : "", b->len);
    buf_release(b);
    return 1;
}

/* ---- decode ---- */

typedef struct jparser {
    lua_State *L;
    const char *s, *p, *end;
    int depth;
} jparser;

/* What lua-cjson calls the token at p, for its error messages. */
static const char *token_name(const jparser *j)
{
    if (j->p >= j->end) return "T_END";
    switch (*j->p) {
    case '{': return "T_OBJ_BEGIN";
    case '}': return "T_OBJ_END";
    case '[': return "T_ARR_BEGIN";
    case ']': return "T_ARR_END";
    case '"': return "T_STRING";
    case ':': return "T_COLON";
    case ',': return "T_COMMA";
    case 't':
    case 'f': return "T_BOOLEAN";
    case 'n': return "T_NULL";
    default: return (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) ? "T_NUMBER" : "invalid token";
    }
}

static _Noreturn void jerror(jparser *j, const char *what)
{
    luaL_error(j->L, "Expected %s but found %s at character %d", what, token_name(j), (int)(j->p - j->s) + 1);
    abort(); /* not reached: luaL_error does not return */
}

static void skip_ws(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static void put_utf8(buf *b, unsigned cp)
{
    if (cp < 0x80) buf_putc(b, (char)cp);
    else if (cp < 0x800) {
        buf_putc(b, (char)(0xc0 | (cp >> 6)));
        buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        buf_putc(b, (char)(0xe0 | (cp >> 12)));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else {
        buf_putc(b, (char)(0xf0 | (cp >> 18)));
        buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    }
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

static void parse_string(jparser *j)
{
    j->p++; /* the opening quote */
    luaL_Buffer lb;
    buf b;
    buf_init(&b);
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if ((unsigned char)c < 0x20) {
            buf_release(&b);
            jerror(j, "string");
        }
        if (c != '\\') {
            buf_putc(&b, c);
            continue;
        }
        if (j->p >= j->end) break;
        char e = *j->p++;
        switch (e) {
        case '"': buf_putc(&b, '"'); break;
        case '\\': buf_putc(&b, '\\'); break;
        case '/': buf_putc(&b, '/'); break;
        case 'b': buf_putc(&b, '\b'); break;
        case 'f': buf_putc(&b, '\f'); break;
        case 'n': buf_putc(&b, '\n'); break;
        case 'r': buf_putc(&b, '\r'); break;
        case 't': buf_putc(&b, '\t'); break;
        case 'u': {
            unsigned cp;
            if (j->end - j->p < 4 || hex4(j->p, &cp) != 0) {
                buf_release(&b);
                jerror(j, "unicode escape");
            }
            j->p += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u') {
                unsigned lo;
                if (hex4(j->p + 2, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    j->p += 6;
                }
            }
            put_utf8(&b, cp);
            break;
        }
        default: buf_release(&b); jerror(j, "escape");
        }
    }
    if (j->p >= j->end) {
        buf_release(&b);
        jerror(j, "string end");
    }
    j->p++; /* the closing quote */
    luaL_buffinit(j->L, &lb);
    luaL_addlstring(&lb, b.p ? b.p : "", b.len);
    buf_release(&b);
    luaL_pushresult(&lb);
}

static void parse_number(jparser *j)
{
    char tmp[64];
    size_t n = 0;
    while (j->p + n < j->end && n < sizeof tmp - 1 && strchr("+-0123456789.eE", j->p[n])) n++;
    memcpy(tmp, j->p, n);
    tmp[n] = '\0';
    char *endp;
    double d = strtod(tmp, &endp);
    if (endp == tmp) jerror(j, "value");
    j->p += endp - tmp;
    if (d == floor(d) && fabs(d) < 9007199254740992.0 && !(d == 0 && signbit(d))) lua_pushinteger(j->L, (lua_Integer)d);
    else lua_pushnumber(j->L, d);
}

static void parse_value(jparser *j);

static void parse_container(jparser *j, int object)
{
    if (++j->depth > CJSON_MAX_DEPTH) luaL_error(j->L, "Found too many nested data structures (%d) at character %d", j->depth, (int)(j->p - j->s) + 1);
    luaL_checkstack(j->L, 4, "cjson");
    j->p++;
    lua_newtable(j->L);
    skip_ws(j);
    if (j->p < j->end && *j->p == (object ? '}' : ']')) {
        j->p++;
        j->depth--;
        return;
    }
    for (lua_Integer i = 1;; i++) {
        skip_ws(j);
        if (object) {
            if (j->p >= j->end || *j->p != '"') jerror(j, "object key string");
            parse_string(j);
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':') jerror(j, "colon");
            j->p++;
            skip_ws(j);
            parse_value(j);
            lua_rawset(j->L, -3);
        } else {
            parse_value(j);
            lua_rawseti(j->L, -2, i);
        }
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == (object ? '}' : ']')) {
            j->p++;
            break;
        }
        jerror(j, object ? "comma or object end" : "comma or array end");
    }
    j->depth--;
}

static void parse_value(jparser *j)
{
    skip_ws(j);
    if (j->p >= j->end) jerror(j, "value");
    char c = *j->p;
    if (c == '{' || c == '[') parse_container(j, c == '{');
    else if (c == '"') parse_string(j);
    else if (c == '-' || (c >= '0' && c <= '9')) parse_number(j);
    else if (j->end - j->p >= 4 && !memcmp(j->p, "true", 4)) j->p += 4, lua_pushboolean(j->L, 1);
    else if (j->end - j->p >= 5 && !memcmp(j->p, "false", 5)) j->p += 5, lua_pushboolean(j->L, 0);
    else if (j->end - j->p >= 4 && !memcmp(j->p, "null", 4)) j->p += 4, lua_pushlightuserdata(j->L, NULL);
    else jerror(j, "value");
}

static int cjson_decode(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    jparser j = { L, s, s, s + n, 0 };
    parse_value(&j);
    skip_ws(&j);
    if (j.p != j.end) jerror(&j, "the end");
    return 1;
}

void lua_cjson_open(lua_State *L)
{
    static const luaL_Reg fns[] = { { "encode", cjson_encode }, { "decode", cjson_decode }, { NULL, NULL } };
    luaL_newlib(L, fns);
    lua_pushlightuserdata(L, NULL);
    lua_setfield(L, -2, "null");
}
