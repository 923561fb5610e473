/* luaclib.c — see luaclib.h. */
#include "luaclib.h"

#include <lauxlib.h>
#include <math.h>
#include <stdint.h>

void luaclib_push_number(lua_State *L, double d)
{
    if (d == floor(d) && fabs(d) < 9007199254740992.0 && !(d == 0 && signbit(d))) lua_pushinteger(L, (lua_Integer)d);
    else lua_pushnumber(L, d);
}

lua_Integer luaclib_trunc(double d)
{
    if (fabs(d) < 9.2e18) return (lua_Integer)d;
    return d < 0 ? LUA_MININTEGER : LUA_MAXINTEGER; /* NaN fails both tests: the maximum */
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
