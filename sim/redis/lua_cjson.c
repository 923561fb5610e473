/* lua_cjson.c — `cjson` for scripts: encode and decode as Redis's bundled lua-cjson does
 * them, written for locklab (Redis scripts see this library; no lock script needs it, but
 * scripts in the wild and Redis's own tests do).
 *
 * encode: nil and cjson.null → null; booleans; numbers with "%.14g" (so 3.0 → 3, as Lua 5.1
 * printed them); strings with '"', '\\', '/' and control characters escaped; a table is an
 * array when all its keys are integers >= 1 (holes become null; an excessively sparse one is
 * an error; an empty table is the object {}), otherwise an object whose keys must be strings
 * or numbers. Nesting deeper than 1000 is an error.
 *
 * decode: JSON text → Lua values; null → cjson.null; numbers become Lua integers when they
 * are integral and exactly representable, so that table.concat and tostring print them as
 * Redis's Lua 5.1 did ("0", "-5000" rather than "0.0", "-5000.0").
 *
 * The settings functions (encode_sparse_array, encode_max_depth, decode_max_depth,
 * encode_number_precision, encode_keep_buffer, encode_invalid_numbers,
 * decode_invalid_numbers), cjson.new, _NAME and _VERSION are lua-cjson 2.1's; what is said
 * above is their default. */
#include "lua_cjson.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "luaclib.h"
#include "util.h"

/* One cjson module's settings (lua-cjson 2.1's defaults; the functions encode_sparse_array,
 * encode_max_depth, ... read and change them). Every function of a module holds them as its
 * upvalue 1, a userdata; cjson.new() makes a module with settings of its own. They live as
 * long as the Lua state: a script's change stays for the next script, until SCRIPT FLUSH,
 * as in Redis. */
typedef struct cjson_cfg {
    int sparse_convert;     /* an excessively sparse array: 0 error, 1 encode as an object */
    int sparse_ratio;       /* ... is one whose largest key is above ratio * items (0: never) */
    int sparse_safe;        /* ... and above safe */
    int encode_max_depth;
    int decode_max_depth;
    int number_precision;   /* %.<n>g, 1 to 14 */
    int encode_invalid;     /* NaN and Inf: 0 an error, 1 as nan/inf/-inf, 2 as null */
    int decode_invalid;     /* accept what strtod reads beyond JSON (hex, +1, inf, nan) */
    int keep_buffer;        /* accepted and reported; no effect here */
} cjson_cfg;

static const cjson_cfg cjson_defaults = { 0, 2, 10, 1000, 1000, 14, 0, 1, 1 };

static cjson_cfg *cjson_cfg_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

static void encode_value(lua_State *L, const cjson_cfg *cfg, int idx, buf *out, int depth);

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

static void encode_number(lua_State *L, const cjson_cfg *cfg, int idx, buf *out)
{
    double d = lua_tonumber(L, idx);
    if (isinf(d) || isnan(d)) {
        if (cfg->encode_invalid == 0) {
            luaL_error(L, "Cannot serialise number: must not be NaN or Inf");
            return;
        }
        if (cfg->encode_invalid == 2 || isnan(d)) { /* no "-nan", whatever the sign bit */
            buf_puts(out, cfg->encode_invalid == 2 ? "null" : "nan");
            return;
        }
    }
    buf_printf(out, "%.*g", cfg->number_precision, d);
}

/* lua-cjson's test for an array: every key a number k >= 1 with floor(k) == k, else -1 (an
 * object). An array's length is its largest key, and the holes encode as null — unless it
 * is excessively sparse (by default: largest key over 10 and over twice the number of
 * keys), which is an error or, with encode_sparse_array(true), an object. An empty table
 * is 0. */
static lua_Integer array_length(lua_State *L, const cjson_cfg *cfg, int idx)
{
    /* lua-cjson keeps the largest key in a C int: a key from 2^31 up makes it INT_MIN
     * (x86-64), and the table is then encoded as an object, as redis-server does */
    int max = 0;
    int items = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        double k = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
        if (!(k >= 1 && floor(k) == k)) {
            lua_pop(L, 1);
            return -1;
        }
        if (k > max) max = luaclib_cvt_i32(k);
        items++;
    }
    if (cfg->sparse_ratio > 0 && (long long)max > (long long)items * cfg->sparse_ratio && max > cfg->sparse_safe) {
        if (!cfg->sparse_convert)
            luaL_error(L, "Cannot serialise %s: excessively sparse array", luaL_typename(L, idx));
        return -1;
    }
    return (lua_Integer)max;
}

static void encode_table(lua_State *L, const cjson_cfg *cfg, int idx, buf *out, int depth)
{
    if (depth + 1 > cfg->encode_max_depth) { /* the outermost table is at depth 1 */
        luaL_error(L, "Cannot serialise, excessive nesting (%d)", depth + 1);
        return;
    }
    luaL_checkstack(L, 4, "cjson");
    lua_Integer n = array_length(L, cfg, idx);
    if (n > 0) {
        buf_putc(out, '[');
        for (lua_Integer i = 1; i <= n; i++) {
            if (i > 1) buf_putc(out, ',');
            lua_rawgeti(L, idx, i);
            encode_value(L, cfg, lua_gettop(L), out, depth + 1);
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
            encode_number(L, cfg, lua_gettop(L) - 1, out);
            buf_putc(out, '"');
        }
        buf_putc(out, ':');
        encode_value(L, cfg, lua_gettop(L), out, depth + 1);
        lua_pop(L, 1);
    }
    buf_putc(out, '}');
}

static void encode_value(lua_State *L, const cjson_cfg *cfg, int idx, buf *out, int depth)
{
    switch (lua_type(L, idx)) {
    case LUA_TNIL: buf_puts(out, "null"); break;
    case LUA_TBOOLEAN: buf_puts(out, lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TNUMBER: encode_number(L, cfg, idx, out); break;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        encode_string(out, s, n);
        break;
    }
    case LUA_TTABLE: encode_table(L, cfg, idx, out, depth); break;
    case LUA_TLIGHTUSERDATA:
        if (lua_touserdata(L, idx) == NULL) {
            buf_puts(out, "null");
            break;
        }
        /* fall through */
    default: luaL_error(L, "Cannot serialise %s: type not supported", luaL_typename(L, idx));
    }
}

static int cjson_encode(lua_State *L)
{
    luaL_argcheck(L, lua_gettop(L) == 1, 1, "expected 1 argument");
    buf *b = luaclib_buf(L); /* an error raised mid-encode frees it */
    encode_value(L, cjson_cfg_of(L), 1, b, 0);
    lua_pushlstring(L, b->p ? b->p : "", b->len);
    buf_release(b);
    return 1;
}

/* ---- decode ----
 *
 * A tokenizer and a recursive parser shaped as lua-cjson 2.1's, so that what it accepts
 * and how it words a refusal match. What it accepts beyond JSON: any number strtod reads
 * (hex "0x10", "+1", "inf", "-Infinity", "nan"; a token starting with i/I/n/N/+ is tried as
 * a number when it is not true/false/null), raw control characters inside strings, and a
 * NUL byte ends the text (lua-cjson reads a C string). Errors say
 *     Expected <what> but found <token> at character <n>
 * with the token's name (T_OBJ_END, T_COMMA, ...) or, for a malformed token, what is wrong
 * with it ("invalid token", "invalid number", "invalid escape code", "invalid unicode
 * escape code", "unexpected end of string"), at the 1-based offset of the token, or of the
 * fault within a malformed string. */

typedef enum {
    T_OBJ_BEGIN, T_OBJ_END, T_ARR_BEGIN, T_ARR_END, T_STRING, T_NUMBER, T_BOOLEAN, T_NULL,
    T_COLON, T_COMMA, T_END, T_ERROR
} jtype;

static const char *const jtype_name[] = {
    "T_OBJ_BEGIN", "T_OBJ_END", "T_ARR_BEGIN", "T_ARR_END", "T_STRING", "T_NUMBER",
    "T_BOOLEAN", "T_NULL", "T_COLON", "T_COMMA", "T_END", "T_ERROR",
};

typedef struct jtoken {
    jtype type;
    size_t index;        /* offset of the token, or of the fault in a T_ERROR */
    const char *error;   /* T_ERROR: what is wrong */
    int boolean;
    double number;
} jtoken;

typedef struct jparser {
    lua_State *L;
    const cjson_cfg *cfg;
    const char *s, *p, *end; /* end: the first NUL or the end of the text */
    int depth;
    buf str;                 /* the last string token's bytes */
} jparser;

static int jat(const jparser *j, size_t k) { return j->p + k < j->end ? (unsigned char)j->p[k] : 0; }

static int jprefix(const jparser *j, const char *word, int fold)
{
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n) return 0;
    for (size_t k = 0; k < n; k++) {
        int c = (unsigned char)j->p[k];
        if (fold && c >= 'A' && c <= 'Z') c += 'a' - 'A';
        if (c != word[k]) return 0;
    }
    return 1;
}

static void jfail(jparser *j, jtoken *t, const char *what)
{
    t->type = T_ERROR;
    t->index = (size_t)(j->p - j->s);
    t->error = what;
}

static _Noreturn void jthrow(jparser *j, const char *expected, const jtoken *t)
{
    buf_release(&j->str);
    luaL_error(j->L, "Expected %s but found %s at character %d", expected,
               t->type == T_ERROR ? t->error : jtype_name[t->type], (int)t->index + 1);
    abort(); /* not reached: luaL_error does not return */
}

static int hex4(const jparser *j, size_t at, unsigned *out)
{
    unsigned v = 0;
    for (size_t i = 0; i < 4; i++) {
        int c = jat(j, at + i);
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
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

/* A \uXXXX escape at p (a surrogate pair takes two): appended as UTF-8, p moved past it.
 * -1, p unmoved, when the hex is bad or a surrogate is unpaired. */
static int junicode(jparser *j)
{
    unsigned cp, lo;
    if (hex4(j, 2, &cp) != 0) return -1;
    size_t used = 6;
    if (cp >= 0xdc00 && cp < 0xe000) return -1;
    if (cp >= 0xd800 && cp < 0xdc00) {
        if (jat(j, 6) != '\\' || jat(j, 7) != 'u' || hex4(j, 8, &lo) != 0 || lo < 0xdc00 || lo >= 0xe000)
            return -1;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        used = 12;
    }
    put_utf8(&j->str, cp);
    j->p += used;
    return 0;
}

static void jstring(jparser *j, jtoken *t)
{
    j->str.len = 0;
    j->p++; /* the opening quote */
    for (;;) {
        int c = jat(j, 0);
        if (c == '"') break;
        if (c == 0) { jfail(j, t, "unexpected end of string"); return; }
        if (c == '\\') {
            int e = jat(j, 1);
            if (e == 'u') {
                if (junicode(j) != 0) { jfail(j, t, "invalid unicode escape code"); return; }
                continue;
            }
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *hit = e ? strchr(from, e) : NULL;
            if (!hit) { jfail(j, t, "invalid escape code"); return; }
            c = (unsigned char)to[hit - from];
            j->p++;
        }
        buf_putc(&j->str, (char)c);
        j->p++;
    }
    j->p++; /* the closing quote */
    t->type = T_STRING;
}

/* A number token: what strtod reads from p, which is never more than the run of letters,
 * digits, signs and dots there (copied, since the text need not end in a NUL). */
static void jnumber(jparser *j, jtoken *t)
{
    size_t n = 0;
    for (int c; (c = jat(j, n)) == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
                (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');)
        n++;
    char small[128];
    char *tmp = n < sizeof small ? small : xmalloc(n + 1);
    memcpy(tmp, j->p, n);
    tmp[n] = '\0';
    char *endp;
    t->number = strtod(tmp, &endp);
    size_t used = (size_t)(endp - tmp);
    if (tmp != small) free(tmp);
    if (used == 0) {
        jfail(j, t, "invalid number");
        return;
    }
    t->type = T_NUMBER;
    j->p += used;
}

/* Numbers JSON forbids, which lua-cjson still hands to strtod: +1, 0x1f, 007, inf, nan. */
static int jinvalid_number(const jparser *j)
{
    size_t k = 0;
    if (jat(j, 0) == '+') return 1;
    if (jat(j, 0) == '-') k++;
    int c = jat(j, k);
    if (c == '0') {
        int c2 = jat(j, k + 1);
        return (c2 | 0x20) == 'x' || (c2 >= '0' && c2 <= '9');
    }
    if (c >= '0' && c <= '9') return 0;
    jparser at = *j;
    at.p += k;
    return jprefix(&at, "inf", 1) || jprefix(&at, "nan", 1);
}

static void jnext(jparser *j, jtoken *t)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
    t->index = (size_t)(j->p - j->s);
    int c = jat(j, 0);
    switch (c) {
    case 0: t->type = T_END; return;
    case '{': t->type = T_OBJ_BEGIN; break;
    case '}': t->type = T_OBJ_END; break;
    case '[': t->type = T_ARR_BEGIN; break;
    case ']': t->type = T_ARR_END; break;
    case ',': t->type = T_COMMA; break;
    case ':': t->type = T_COLON; break;
    case '"': jstring(j, t); return;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (!j->cfg->decode_invalid && jinvalid_number(j)) jfail(j, t, "invalid number");
            else jnumber(j, t);
            return;
        }
        if (jprefix(j, "true", 0) || jprefix(j, "false", 0)) {
            t->type = T_BOOLEAN;
            t->boolean = c == 't';
            j->p += t->boolean ? 4 : 5;
            return;
        }
        if (jprefix(j, "null", 0)) {
            t->type = T_NULL;
            j->p += 4;
            return;
        }
        if (j->cfg->decode_invalid && strchr("iInN+", c) && jinvalid_number(j)) {
            jnumber(j, t);
            return;
        }
        jfail(j, t, "invalid token");
        return;
    }
    j->p++;
}

static void jdescend(jparser *j, int slots)
{
    if (++j->depth <= j->cfg->decode_max_depth && lua_checkstack(j->L, slots)) return;
    buf_release(&j->str);
    luaL_error(j->L, "Found too many nested data structures (%d) at character %d", j->depth,
               (int)(j->p - j->s));
}

static void jvalue(jparser *j, jtoken *t);

static void jobject(jparser *j)
{
    jtoken t;
    jdescend(j, 3);
    lua_newtable(j->L);
    jnext(j, &t);
    if (t.type != T_OBJ_END) {
        for (;;) {
            if (t.type != T_STRING) jthrow(j, "object key string", &t);
            lua_pushlstring(j->L, j->str.p ? j->str.p : "", j->str.len);
            jnext(j, &t);
            if (t.type != T_COLON) jthrow(j, "colon", &t);
            jnext(j, &t);
            jvalue(j, &t);
            lua_rawset(j->L, -3);
            jnext(j, &t);
            if (t.type == T_OBJ_END) break;
            if (t.type != T_COMMA) jthrow(j, "comma or object end", &t);
            jnext(j, &t);
        }
    }
    j->depth--;
}

static void jarray(jparser *j)
{
    jtoken t;
    jdescend(j, 2);
    lua_newtable(j->L);
    jnext(j, &t);
    if (t.type != T_ARR_END) {
        for (lua_Integer i = 1;; i++) {
            jvalue(j, &t);
            lua_rawseti(j->L, -2, i);
            jnext(j, &t);
            if (t.type == T_ARR_END) break;
            if (t.type != T_COMMA) jthrow(j, "comma or array end", &t);
            jnext(j, &t);
        }
    }
    j->depth--;
}

/* Pushes the value that starts with token t. A number that is integral and exact in a
 * double becomes a Lua integer, so that tostring and table.concat print it as Lua 5.1
 * printed a double ("0", "-5000", not "0.0", "-5000.0"). */
static void jvalue(jparser *j, jtoken *t)
{
    switch (t->type) {
    case T_STRING: lua_pushlstring(j->L, j->str.p ? j->str.p : "", j->str.len); break;
    case T_NUMBER:
        luaclib_push_number(j->L, t->number);
        break;
    case T_BOOLEAN: lua_pushboolean(j->L, t->boolean); break;
    case T_NULL: lua_pushlightuserdata(j->L, NULL); break;
    case T_OBJ_BEGIN: jobject(j); break;
    case T_ARR_BEGIN: jarray(j); break;
    default: jthrow(j, "value", t);
    }
}

static int jparser_gc(lua_State *L)
{
    jparser *j = lua_touserdata(L, 1);
    buf_release(&j->str);
    return 0;
}

/* The string buffer lives in a userdata with a __gc, so an error raised mid-parse (a
 * memory error too) frees it. */
static int cjson_decode(lua_State *L)
{
    luaL_argcheck(L, lua_gettop(L) == 1, 1, "expected 1 argument");
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    if (n >= 2 && (!s[0] || !s[1])) luaL_error(L, "JSON parser does not support UTF-16 or UTF-32");
    const char *nul = memchr(s, '\0', n);
    jparser *j = lua_newuserdatauv(L, sizeof *j, 0);
    *j = (jparser){ L, cjson_cfg_of(L), s, s, nul ? nul : s + n, 0, { 0 } };
    buf_init(&j->str);
    lua_newtable(L);
    lua_pushcfunction(L, jparser_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    jtoken t;
    jnext(j, &t);
    jvalue(j, &t);
    jnext(j, &t);
    if (t.type != T_END) jthrow(j, "the end", &t);
    buf_release(&j->str);
    return 1;
}

/* ---- settings ----
 * As lua-cjson 2.1 checks them: at most N arguments ("found too many arguments"); nil
 * leaves a setting as it is; integers within bounds (the error names argument #1 whichever
 * it was, as lua-cjson's does); on/off options take booleans or "on"/"off". Each returns
 * the settings after the change. */

/* Refuses more than n arguments, then pads them with nils to n, so the results pushed
 * above them are never read as arguments. */
static void cjson_max_args(lua_State *L, int n)
{
    luaL_argcheck(L, lua_gettop(L) <= n, n + 1, "found too many arguments");
    lua_settop(L, n);
}

/* An integer argument as Redis's Lua 5.1 reads one (luaclib_checkint), checked against
 * [min, max]. */
static void cjson_int_option(lua_State *L, int idx, int *setting, int min, int max)
{
    if (!lua_isnoneornil(L, idx)) {
        int v = luaclib_checkint(L, idx);
        char msg[64];
        snprintf(msg, sizeof msg, "expected integer between %d and %d", min, max);
        luaL_argcheck(L, min <= v && v <= max, 1, msg);
        *setting = v;
    }
    lua_pushinteger(L, *setting);
}

/* options: NULL for on/off; else the names, whose index 1 also reads as `true`. */
static void cjson_enum_option(lua_State *L, int idx, int *setting, const char *const *options)
{
    static const char *const onoff[] = { "off", "on", NULL };
    if (!options) options = onoff;
    if (!lua_isnoneornil(L, idx)) {
        if (lua_isboolean(L, idx)) *setting = lua_toboolean(L, idx);
        else *setting = luaL_checkoption(L, idx, NULL, options);
    }
    if (*setting <= 1) lua_pushboolean(L, *setting);
    else lua_pushstring(L, options[*setting]);
}

static int cjson_encode_sparse_array(lua_State *L)
{
    cjson_cfg *cfg = cjson_cfg_of(L);
    cjson_max_args(L, 3);
    cjson_enum_option(L, 1, &cfg->sparse_convert, NULL);
    cjson_int_option(L, 2, &cfg->sparse_ratio, 0, INT_MAX);
    cjson_int_option(L, 3, &cfg->sparse_safe, 0, INT_MAX);
    return 3;
}

static int cjson_encode_max_depth(lua_State *L)
{
    cjson_max_args(L, 1);
    cjson_int_option(L, 1, &cjson_cfg_of(L)->encode_max_depth, 1, INT_MAX);
    return 1;
}

static int cjson_decode_max_depth(lua_State *L)
{
    cjson_max_args(L, 1);
    cjson_int_option(L, 1, &cjson_cfg_of(L)->decode_max_depth, 1, INT_MAX);
    return 1;
}

static int cjson_encode_number_precision(lua_State *L)
{
    cjson_max_args(L, 1);
    cjson_int_option(L, 1, &cjson_cfg_of(L)->number_precision, 1, 14);
    return 1;
}

static int cjson_encode_keep_buffer(lua_State *L)
{
    cjson_max_args(L, 1);
    cjson_enum_option(L, 1, &cjson_cfg_of(L)->keep_buffer, NULL);
    return 1;
}

static int cjson_encode_invalid_numbers(lua_State *L)
{
    static const char *const options[] = { "off", "on", "null", NULL };
    cjson_max_args(L, 1);
    cjson_enum_option(L, 1, &cjson_cfg_of(L)->encode_invalid, options);
    return 1;
}

static int cjson_decode_invalid_numbers(lua_State *L)
{
    cjson_max_args(L, 1);
    cjson_enum_option(L, 1, &cjson_cfg_of(L)->decode_invalid, NULL);
    return 1;
}

static int cjson_new(lua_State *L)
{
    lua_cjson_open(L);
    return 1;
}

void lua_cjson_open(lua_State *L)
{
    static const luaL_Reg fns[] = {
        { "encode", cjson_encode },
        { "decode", cjson_decode },
        { "encode_sparse_array", cjson_encode_sparse_array },
        { "encode_max_depth", cjson_encode_max_depth },
        { "decode_max_depth", cjson_decode_max_depth },
        { "encode_number_precision", cjson_encode_number_precision },
        { "encode_keep_buffer", cjson_encode_keep_buffer },
        { "encode_invalid_numbers", cjson_encode_invalid_numbers },
        { "decode_invalid_numbers", cjson_decode_invalid_numbers },
        { "new", cjson_new },
        { NULL, NULL },
    };
    lua_createtable(L, 0, 13);
    cjson_cfg *cfg = lua_newuserdatauv(L, sizeof *cfg, 0);
    *cfg = cjson_defaults;
    luaL_setfuncs(L, fns, 1); /* every function shares cfg as upvalue 1 */
    lua_pushlightuserdata(L, NULL);
    lua_setfield(L, -2, "null");
    lua_pushliteral(L, "cjson");
    lua_setfield(L, -2, "_NAME");
    lua_pushliteral(L, "2.1.0");
    lua_setfield(L, -2, "_VERSION");
}
