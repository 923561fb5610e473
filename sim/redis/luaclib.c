/* luaclib.c — see luaclib.h. */
#include "luaclib.h"

#include <lauxlib.h>
#include <math.h>
#include <stdint.h>

void luaclib_push_number(lua_State *L, double d)
{
    if (d == floor(d) && fabs(d) < 1e14 && !(d == 0 && signbit(d))) lua_pushinteger(L, (lua_Integer)d);
    else lua_pushnumber(L, d);
}

lua_Integer luaclib_trunc(double d)
{
    if (fabs(d) < 9.2e18) return (lua_Integer)d;
    return d < 0 ? LUA_MININTEGER : LUA_MAXINTEGER; /* NaN fails both tests: the maximum */
}

int64_t luaclib_cvt_i64(double d)
{
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? (int64_t)d : INT64_MIN;
}

int32_t luaclib_cvt_i32(double d)
{
    return d > -2147483649.0 && d < 2147483648.0 ? (int32_t)d : INT32_MIN;
}

uint64_t luaclib_cvt_u64(double d)
{
    if (!(d >= 9223372036854775808.0)) return (uint64_t)luaclib_cvt_i64(d); /* NaN too */
    return (uint64_t)luaclib_cvt_i64(d - 9223372036854775808.0) ^ ((uint64_t)1 << 63);
}

int luaclib_checkint(lua_State *L, int idx)
{
    double d = luaL_checknumber(L, idx);
    long long wide = fabs(d) < 9.2e18 ? (long long)d : INT64_MIN;
    return (int32_t)(uint32_t)(unsigned long long)wide;
}

static int luaclib_buf_gc(lua_State *L)
{
    buf_release(lua_touserdata(L, 1));
    return 0;
}

buf *luaclib_buf(lua_State *L)
{
    buf *b = lua_newuserdatauv(L, sizeof *b, 0);
    buf_init(b);
    lua_newtable(L);
    lua_pushcfunction(L, luaclib_buf_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    return b;
}
