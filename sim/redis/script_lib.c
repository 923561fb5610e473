/* script_lib.c — the libraries a script sees, as Redis 7.0.15 (which embeds Lua 5.1) shows
 * them under Lua 5.4: the redis table (redis.call and redis.pcall are in script_bridge.c),
 * Lua 5.1's base, table and math functions where 5.4 differs, `bit`, and the opening of it
 * all into a state's globals (script_open_libs; script_sandbox.c then puts the tables
 * behind read-only proxies).
 *
 * Opened: base, table, string, math, coroutine (Redis 7.0 has coroutine). Removed: print,
 * dofile, loadfile, require, warn, io, os, package, debug, utf8. `load` takes a function
 * only (Lua 5.1) and `loadstring` a string; both load text chunks only, in the sandbox.
 *
 * Lua 5.1 vs 5.4 — hidden (pinned by tests/test_script.c):
 *   - integer replies become Lua integers (lua_pushinteger), so tostring(redis.call('incr',k))
 *     is "1", not "1.0";
 *   - number arguments to redis.call: floats as %.17g (Redis 7.0), integers as %lld up to
 *     2^53 and as %.17g of the double above it — exactly the text Lua 5.1's doubles give
 *     (9007199254740993 → "9007199254740992", 10^17 → "1e+17");
 *   - numbers returned to EVAL go through a double and truncate toward zero; NaN, ±inf and
 *     values outside the int64 range give LLONG_MIN as on x86 Redis (so 0x7fffffffffffffff
 *     also gives LLONG_MIN, as Lua 5.1 would);
 *   - `unpack`, `loadstring`, `gcinfo`, `table.getn`, `table.maxn`, `math.mod`,
 *     `string.gfind` exist; `load` wants a function; error(42) gets a position prefix;
 *     `pcall` unwraps {err=...} tables; pcall() says "attempt to call a boolean value";
 *   - compile errors quote the end of stream as 5.1 does ("near '<eof>'");
 *   - __gc metamethods on tables are ignored (5.1 ignores them; 5.4 would run them later,
 *     outside the script);
 *   - math.random/randomseed are Redis's redisLrand48 generator: same sequence as Redis
 *     (initial state 0x1234ABCD330E, never reseeded between scripts), kept per server.
 * Lua 5.1 vs 5.4 — still visible to a script (the lock scripts depend on none of them):
 *   - float formatting in tostring/concat: tostring(10/2) is "5.0" (5.1: "5"), 2^31 is
 *     "2147483648.0", -0.0 is "-0.0", tostring(tonumber('1.0')) is "1.0"; integers above
 *     2^53 are exact (5.1 rounds them); tostring(123456789012345) is exact (5.1: %.14g);
 *   - 5.4 syntax and library additions are accepted (// integer division, bitwise operators,
 *     goto, <const>/<close>, math.type, string.pack, table.move, integer for loops);
 *     `7 // 2` compiles (5.1: syntax error); string.format('%d', 3.5) is an error;
 *     tonumber('inf'/'nan') is nil;
 *   - runtime error texts caught by xpcall or a coroutine: "attempt to index a nil value
 *     (local 't')" (5.1: "attempt to index local 't' (a nil value)"); a type error that ends
 *     the script or that pcall catches is reworded as 5.1's (script_51_wording);
 *   - table iteration order of pairs/next (and so of {map=...}/{set=...} replies);
 *   - rawget(_G, name) is nil for every global (the globals are behind a proxy), next(_G) is
 *     nil, getmetatable of library tables is false (Redis: nil); getmetatable(_G) and
 *     getmetatable('') are read-only tables as in patched Redis (pairs sees their fields,
 *     next and rawget do not);
 *   - redis.sha1hex(3.0) hashes "3.0" (5.1: "3");
 *   - _VERSION is "Lua 5.4"; rawlen is removed (5.1 has none), but 5.4's xpcall with extra
 *     arguments, coroutine.close/isyieldable, string.pack and table.move remain;
 *   - `bit` is LuaBitOp (32-bit); `cjson`, `struct` and `cmsgpack` are lua_cjson.c,
 *     lua_struct.c and lua_cmsgpack.c.
 *   - redis.set_repl validates its argument and has no effect; redis.log validates its
 *     arguments and discards the message; redis.breakpoint returns false, redis.debug does
 *     nothing, redis.acl_check_cmd checks that the command exists and returns true.
 *   - error({}) (a table without an `err` string) crashes Redis 7.0.15; here EVAL replies
 *     "ERR Script raised an error table without an 'err' field" with the script suffix.
 */
#include "scriptint.h"

#include <lauxlib.h>
#include <lualib.h>
#include <limits.h>
#include <math.h>
#include <nettle/sha1.h>
#include <string.h>

#include "lua_cjson.h"
#include "lua_cmsgpack.h"
#include "lua_struct.h"

/* The SHA1 of a script body in hex: the script cache's key (script.c) and redis.sha1hex. */
void script_sha1hex(const char *data, size_t len, char out[41])
{
    static const char hex[] = "0123456789abcdef";
    struct sha1_ctx ctx;
    uint8_t d[SHA1_DIGEST_SIZE];
    sha1_init(&ctx);
    sha1_update(&ctx, len, (const uint8_t *)data);
    sha1_digest(&ctx, sizeof d, d);
    for (int i = 0; i < SHA1_DIGEST_SIZE; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[40] = '\0';
}

/* ---------------------------------------------------------------------------------------
 * The rest of the redis table */

/* Raises {err="ERR <msg>"}, the way Redis's library functions report misuse (no position). */
static int script_raise(lua_State *L, const char *msg)
{
    script_push_error_table(L, msg, strlen(msg));
    return lua_error(L);
}

static int script_redis_error_reply(lua_State *L)
{
    if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TSTRING) {
        script_push_error_table(L, "wrong number or type of arguments", 33);
        return 1;
    }
    size_t len;
    const char *p = lua_tolstring(L, 1, &len);
    if (len > 0 && p[0] == '-') {
        script_push_error_table(L, p, len);
    } else {
        lua_pushliteral(L, "-");
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
        p = lua_tolstring(L, -1, &len);
        script_push_error_table(L, p, len);
    }
    return 1;
}

static int script_redis_status_reply(lua_State *L)
{
    if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TSTRING) {
        script_push_error_table(L, "wrong number or type of arguments", 33);
        return 1;
    }
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "ok");
    return 1;
}

static int script_redis_sha1hex(lua_State *L)
{
    if (lua_gettop(L) != 1) return script_raise(L, "wrong number of arguments");
    size_t len = 0;
    const char *p = lua_tolstring(L, 1, &len);
    char hex[41];
    script_sha1hex(p ? p : "", p ? len : 0, hex);
    lua_pushlstring(L, hex, 40);
    return 1;
}

/* A number argument as Redis's `int x = lua_tonumber(...)` reads it: truncated toward
 * zero, and INT_MIN where the double does not fit an int (what x86 gives). */
static int script_c_int(lua_State *L, int idx)
{
    lua_Number d = lua_tonumber(L, idx);
    return d > -2147483649.0 && d < 2147483648.0 ? (int)d : INT_MIN;
}

/* redis.log(level, ...): validated as Redis does; the message goes nowhere. */
static int script_redis_log(lua_State *L)
{
    if (lua_gettop(L) < 2) return script_raise(L, "redis.log() requires two arguments or more.");
    if (!lua_isnumber(L, 1)) return script_raise(L, "First argument must be a number (log level).");
    int level = script_c_int(L, 1);
    if (level < 0 || level > 3) return script_raise(L, "Invalid debug level.");
    return 0;
}

static int script_redis_setresp(lua_State *L)
{
    if (lua_gettop(L) != 1) return script_raise(L, "redis.setresp() requires one argument.");
    int v = script_c_int(L, 1);
    if (v != 2 && v != 3) return script_raise(L, "RESP version must be 2 or 3.");
    script_of(L)->resp3 = v == 3;
    return 0;
}

static int script_redis_set_repl(lua_State *L)
{
    scripting *s = script_of(L);
    if (lua_gettop(L) != 1) return script_raise(L, "redis.set_repl() requires two arguments.");
    int flags = script_c_int(L, 1);
    if (flags < 0 || flags > 3)
        return script_raise(L, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
    s->repl_flags = flags;
    return 0;
}

static int script_redis_true(lua_State *L)
{
    lua_pushboolean(L, 1);
    return 1;
}

static int script_redis_false(lua_State *L)
{
    lua_pushboolean(L, 0);
    return 1;
}

static int script_redis_nothing(lua_State *L)
{
    (void)L;
    return 0;
}

/* redis.acl_check_cmd(cmd, ...): its arguments read as redis.call reads them; true for a
 * command Redis knows (there are no ACLs here: the default user may run everything). */
static int script_redis_acl_check_cmd(lua_State *L)
{
    scripting *s = script_of(L);
    int argc = lua_gettop(L);
    if (argc == 0) return script_raise(L, "Please specify at least one argument for this redis lib call");
    if (script_collect_args(s, L, argc) < 0)
        return script_raise(L, "Lua redis lib command arguments must be strings or integers");
    int container;
    const command *cmd = commands_lookup(s->argv[0]);
    const script_banned *b = script_banned_find(argc, s->argv, &container);
    if (!b && (container || !cmd)) return script_raise(L, "Invalid command passed to redis.acl_check_cmd()");
    lua_pushboolean(L, 1);
    return 1;
}

/* ---------------------------------------------------------------------------------------
 * Replaced base functions */

/* Redis's pcall: like Lua's, but an error table with an `err` string is returned as that
 * string. Implemented with lua_pcall, so it is not a yield point (as in 5.1). */
static int script_pcall(lua_State *L)
{
    int argc = lua_gettop(L);
    if (argc == 0) {
        /* Redis 5.1's version ends up calling its own placeholder boolean. */
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "attempt to call a boolean value");
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    if (lua_pcall(L, argc - 1, LUA_MULTRET, 0) != LUA_OK) {
        lua_remove(L, 1);
        if (!script_of(L)->user_error) script_51_wording(L, -1);
        script_of(L)->user_error = 0;
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "err");
            if (lua_isstring(L, -1))
                lua_replace(L, -2);
            else
                lua_pop(L, 1);
        }
        lua_pushboolean(L, 0);
        lua_insert(L, 1);
    }
    return lua_gettop(L);
}

/* error() as in 5.1: a number message gets the position prefix too. */
static int script_error(lua_State *L)
{
    int level = (int)luaL_optinteger(L, 2, 1);
    lua_settop(L, 1);
    if ((lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER) && level > 0) {
        luaL_where(L, level);
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
    }
    script_of(L)->user_error = 1;
    return lua_error(L);
}

static int script_gcinfo(lua_State *L)
{
    lua_pushinteger(L, lua_gc(L, LUA_GCCOUNT, 0));
    return 1;
}

static int script_table_getn(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

static int script_table_maxn(lua_State *L)
{
    lua_Number max = 0;
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TNUMBER) {
            lua_Number v = lua_tonumber(L, -1);
            if (v > max) max = v;
        }
    }
    if (max == floor(max) && fabs(max) < 9e15)
        lua_pushinteger(L, (lua_Integer)max);
    else
        lua_pushnumber(L, max);
    return 1;
}

static int script_math_mod(lua_State *L)
{
    lua_pushnumber(L, fmod(luaL_checknumber(L, 1), luaL_checknumber(L, 2)));
    return 1;
}

/* math.random / math.randomseed: Redis's redisLrand48 (a 48-bit LCG, a = 0x5DEECE66D,
 * c = 0xB, 31-bit outputs) with Lua 5.1's scaling; integer results are Lua integers. */
static int32_t script_lrand48(scripting *s)
{
    cmd_footprint(&s->call, FP_RNG); /* the server's generator: the next script's draws depend on it */
    s->rand48 = (s->rand48 * 0x5DEECE66DULL + 0xBULL) & 0xFFFFFFFFFFFFULL;
    return (int32_t)(s->rand48 >> 17);
}

static int script_math_random(lua_State *L)
{
    scripting *s = script_of(L);
    double r = (double)(script_lrand48(s) % INT32_MAX) / (double)INT32_MAX;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, r);
        break;
    case 1: {
        int u = (int)luaL_checknumber(L, 1);
        luaL_argcheck(L, 1 <= u, 1, "interval is empty");
        lua_pushinteger(L, (lua_Integer)floor(r * u) + 1);
        break;
    }
    case 2: {
        int l = (int)luaL_checknumber(L, 1);
        int u = (int)luaL_checknumber(L, 2);
        luaL_argcheck(L, l <= u, 2, "interval is empty");
        lua_pushinteger(L, (lua_Integer)floor(r * ((double)u - l + 1)) + l);
        break;
    }
    default:
        return luaL_error(L, "wrong number of arguments");
    }
    return 1;
}

static int script_math_randomseed(lua_State *L)
{
    scripting *s = script_of(L);
    uint32_t seed = (uint32_t)(int32_t)luaL_checknumber(L, 1);
    s->rand48 = ((uint64_t)seed << 16) | 0x330E;
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * bit (LuaBitOp semantics: 32-bit, results as signed 32-bit numbers) */

static uint32_t script_tobit(lua_State *L, int i)
{
    lua_Number n = luaL_checknumber(L, i);
    /* LuaBitOp's barg(), bit for bit: add 2^52+2^51 and keep the low 32 bits of the
     * double's representation. In range that is the rounded value modulo 2^32; beyond 2^51
     * it is whatever those bits hold (bit.tobit(2^54+4) is 1, bit.tobit(1e300) -2013235812
     * on redis-server 7.0.15), and NaN and the infinities give 0. No float-to-integer
     * conversion, so no value is out of range. */
    volatile double sum = n + 6755399441055744.0;
    uint64_t bits;
    double d = sum;
    memcpy(&bits, &d, sizeof bits);
    return (uint32_t)bits;
}

static int script_bit_ret(lua_State *L, uint32_t v)
{
    lua_pushinteger(L, (lua_Integer)(int32_t)v);
    return 1;
}

static int script_bit_tobit(lua_State *L) { return script_bit_ret(L, script_tobit(L, 1)); }
static int script_bit_bnot(lua_State *L) { return script_bit_ret(L, ~script_tobit(L, 1)); }

static int script_bit_fold(lua_State *L, int op)
{
    int n = lua_gettop(L);
    uint32_t v = script_tobit(L, 1);
    for (int i = 2; i <= n; i++) {
        uint32_t w = script_tobit(L, i);
        v = op == 0 ? v & w : op == 1 ? v | w : v ^ w;
    }
    return script_bit_ret(L, v);
}

static int script_bit_band(lua_State *L) { return script_bit_fold(L, 0); }
static int script_bit_bor(lua_State *L) { return script_bit_fold(L, 1); }
static int script_bit_bxor(lua_State *L) { return script_bit_fold(L, 2); }

static int script_bit_shift(lua_State *L, int op)
{
    uint32_t v = script_tobit(L, 1), n = script_tobit(L, 2) & 31;
    switch (op) {
    case 0: v = v << n; break;
    case 1: v = v >> n; break;
    case 2: v = (uint32_t)((int32_t)v >> n); break;
    case 3: v = n ? (v << n) | (v >> (32 - n)) : v; break;
    default: v = n ? (v >> n) | (v << (32 - n)) : v; break;
    }
    return script_bit_ret(L, v);
}

static int script_bit_lshift(lua_State *L) { return script_bit_shift(L, 0); }
static int script_bit_rshift(lua_State *L) { return script_bit_shift(L, 1); }
static int script_bit_arshift(lua_State *L) { return script_bit_shift(L, 2); }
static int script_bit_rol(lua_State *L) { return script_bit_shift(L, 3); }
static int script_bit_ror(lua_State *L) { return script_bit_shift(L, 4); }

static int script_bit_bswap(lua_State *L)
{
    uint32_t v = script_tobit(L, 1);
    v = (v >> 24) | ((v >> 8) & 0xff00) | ((v & 0xff00) << 8) | (v << 24);
    return script_bit_ret(L, v);
}

static int script_bit_tohex(lua_State *L)
{
    uint32_t b = script_tobit(L, 1);
    int32_t n = lua_isnone(L, 2) ? 8 : (int32_t)script_tobit(L, 2);
    const char *hexdigits = "0123456789abcdef";
    char digits[8];
    /* as redis-server 7.0.15 (the CVE-2024-31449 fix of LuaBitOp): -2^31 has no negation in
     * 32 bits, so it counts as -(2^31 - 1): 8 upper-case digits */
    if (n == INT32_MIN) n = INT32_MIN + 1;
    if (n < 0) {
        n = -n;
        hexdigits = "0123456789ABCDEF";
    }
    if (n > 8) n = 8;
    for (int i = n; --i >= 0;) {
        digits[i] = hexdigits[b & 15];
        b >>= 4;
    }
    lua_pushlstring(L, digits, (size_t)n);
    return 1;
}

/* ---------------------------------------------------------------------------------------
 * Opening the libraries */

static void script_set_funcs(lua_State *L, const luaL_Reg *fns)
{
    for (; fns->name; fns++) {
        lua_pushcfunction(L, fns->func);
        lua_setfield(L, -2, fns->name);
    }
}

static void script_open_redis(lua_State *L)
{
    static const luaL_Reg fns[] = {
        { "call", script_redis_call },
        { "pcall", script_redis_pcall },
        { "error_reply", script_redis_error_reply },
        { "status_reply", script_redis_status_reply },
        { "sha1hex", script_redis_sha1hex },
        { "log", script_redis_log },
        { "setresp", script_redis_setresp },
        { "set_repl", script_redis_set_repl },
        { "replicate_commands", script_redis_true },
        { "breakpoint", script_redis_false },
        { "debug", script_redis_nothing },
        { "acl_check_cmd", script_redis_acl_check_cmd },
        { NULL, NULL },
    };
    static const struct { const char *name; int v; } consts[] = {
        { "LOG_DEBUG", 0 }, { "LOG_VERBOSE", 1 }, { "LOG_NOTICE", 2 }, { "LOG_WARNING", 3 },
        { "REPL_NONE", 0 }, { "REPL_AOF", 1 }, { "REPL_SLAVE", 2 }, { "REPL_REPLICA", 2 },
        { "REPL_ALL", 3 }, { "REDIS_VERSION_NUM", 0x0007000f },
    };
    lua_createtable(L, 0, 24);
    script_set_funcs(L, fns);
    for (size_t i = 0; i < LL_ARRAY_LEN(consts); i++) {
        lua_pushinteger(L, consts[i].v);
        lua_setfield(L, -2, consts[i].name);
    }
    lua_pushliteral(L, "7.0.15");
    lua_setfield(L, -2, "REDIS_VERSION");
}

static void script_open_bit(lua_State *L)
{
    static const luaL_Reg fns[] = {
        { "tobit", script_bit_tobit }, { "bnot", script_bit_bnot }, { "band", script_bit_band },
        { "bor", script_bit_bor }, { "bxor", script_bit_bxor }, { "lshift", script_bit_lshift },
        { "rshift", script_bit_rshift }, { "arshift", script_bit_arshift },
        { "rol", script_bit_rol }, { "ror", script_bit_ror }, { "bswap", script_bit_bswap },
        { "tohex", script_bit_tohex }, { NULL, NULL },
    };
    lua_createtable(L, 0, 12);
    script_set_funcs(L, fns);
}

/* Fills the globals table G (on top of the stack) and replaces every library table in it
 * by its read-only proxy. */
void script_open_libs(lua_State *L)
{
    int G = lua_gettop(L);
    static const char *const removed[] = { "print", "dofile", "loadfile", "require", "warn", "rawlen", NULL };
    for (const char *const *r = removed; *r; r++) {
        lua_pushnil(L);
        lua_setfield(L, G, *r);
    }
    static const luaL_Reg base[] = {
        { "pcall", script_pcall }, { "error", script_error }, { "rawset", script_rawset },
        { "setmetatable", script_setmetatable }, { "gcinfo", script_gcinfo }, { NULL, NULL },
    };
    script_set_funcs(L, base);
    lua_getfield(L, G, "load");
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, script_loadstring, 1);
    lua_setfield(L, G, "loadstring");
    lua_pushcclosure(L, script_load, 1);
    lua_setfield(L, G, "load");

    static const luaL_Reg table[] = { { "getn", script_table_getn }, { "maxn", script_table_maxn },
                                      { NULL, NULL } };
    lua_getfield(L, G, "table");
    lua_getfield(L, -1, "unpack");
    lua_setfield(L, G, "unpack");
    script_set_funcs(L, table);
    lua_pop(L, 1);

    static const luaL_Reg math[] = { { "random", script_math_random },
                                     { "randomseed", script_math_randomseed },
                                     { "mod", script_math_mod }, { NULL, NULL } };
    lua_getfield(L, G, "math");
    script_set_funcs(L, math);
    lua_pop(L, 1);

    lua_getfield(L, G, "coroutine");
    static const char *const makers[] = { "create", "wrap", NULL };
    for (const char *const *m = makers; *m; m++) {
        lua_getfield(L, -1, *m);
        lua_pushcclosure(L, script_coroutine_new, 1);
        lua_setfield(L, -2, *m);
    }
    lua_pop(L, 1);

    lua_getfield(L, G, "string");
    lua_getfield(L, -1, "gmatch");
    lua_setfield(L, -2, "gfind");
    lua_pop(L, 1);

    script_open_redis(L);
    lua_setfield(L, G, "redis");
    script_open_bit(L);
    lua_setfield(L, G, "bit");
    lua_cjson_open(L);
    lua_setfield(L, G, "cjson");
    lua_struct_open(L);
    lua_setfield(L, G, "struct");
    lua_cmsgpack_open(L);
    lua_setfield(L, G, "cmsgpack");

    static const char *const libs[] = { "redis", "string", "table", "math", "coroutine", "bit", "cjson",
                                        "struct", "cmsgpack", NULL };
    for (const char *const *lib = libs; *lib; lib++) {
        lua_getfield(L, G, *lib);
        if (strcmp(*lib, "string") == 0) {
            /* String methods resolve through the string metatable's __index: point it at
             * the proxy, and make the metatable itself read-only to scripts. */
            lua_pushliteral(L, "");
            lua_getmetatable(L, -1);
            lua_remove(L, -2);
            script_make_proxy(L);                  /* ... string, proxy(mt) */
            lua_pushliteral(L, "");
            lua_getmetatable(L, -1);               /* ... string, proxy(mt), "", mt */
            lua_pushvalue(L, -3);
            lua_setfield(L, -2, "__metatable");
            lua_pop(L, 3);                         /* ... string */
            script_make_proxy(L);
            lua_pushliteral(L, "");
            lua_getmetatable(L, -1);
            lua_pushvalue(L, -3);
            lua_setfield(L, -2, "__index");
            lua_pop(L, 2);
        } else {
            script_make_proxy(L);
        }
        lua_setfield(L, G, *lib);
    }
}
