/* script_state.c — the Lua state a server's scripts run in (script_state_open): Lua's own
 * libraries and Redis's (script_lib.c), the globals behind their read-only proxies and the
 * fast globals (script_sandbox.c says why), the budget's and the memory cap's allocator
 * (script_alloc), the kill errors' tables. */
#include "scriptint.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>

static int script_panic(lua_State *L)
{
    fprintf(stderr, "locklab: lua panic: %s\n", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    ll_assert_fail("unprotected Lua error", __FILE__, __LINE__);
}

/* Pushes a new table with the raw fields and the metatable of the table on top (globals
 * tables: a few dozen fields). */
void script_push_copy(lua_State *L)
{
    lua_createtable(L, 0, 64);
    lua_pushnil(L);
    while (lua_next(L, -3)) {                               /* T, copy, k, v */
        lua_pushvalue(L, -2);
        lua_insert(L, -2);                                  /* T, copy, k, k, v */
        lua_rawset(L, -4);
    }
    if (lua_getmetatable(L, -2)) lua_setmetatable(L, -2);
}

/* The globals of SCRIPT_FAST_ENV scripts (and the template of their own copies): the real globals
 * table's fields and metatable (so a missing global raises as before), except that `redis`
 * is the real redis table instead of its proxy. No proxy is needed: bytecode.h has proved
 * that such a script never writes a global, never holds its globals or the real redis table
 * as a value, and never reaches the proxied globals (_G, load, loadstring). */
static void script_open_fast_globals(scripting *s)
{
    lua_State *L = s->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->globals_ref);      /* G */
    script_push_copy(L);                                    /* G, F */
    lua_pushliteral(L, "redis");
    lua_pushliteral(L, "redis");
    lua_rawget(L, -4);                                      /* G, F, "redis", proxy */
    lua_getmetatable(L, -1);
    lua_pushliteral(L, "__index");
    lua_rawget(L, -2);                                      /* ..., proxy, mt, real redis */
    lua_replace(L, -3);
    lua_pop(L, 1);                                          /* G, F, "redis", real redis */
    lua_rawset(L, -3);
    s->fast_globals_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
}

/* Opens a fresh sandboxed state into s->L (the cache dict must be empty). */
void script_state_open(scripting *s)
{
    s->mem_capped = 0;
    lua_State *L = lua_newstate(script_alloc, s);
    LL_ASSERT(L != NULL);
    lua_atpanic(L, script_panic);
    s->L = L;
    lua_gc(L, LUA_GCSTOP); /* everything built here stays: no collection until it is built */
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_settop(L, 0);
    /* luaL_requiref leaves the libraries in package.loaded (registry._LOADED); drop it. */
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);

    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);   /* G */
    script_open_libs(L);
    lua_createtable(L, 0, 1);                               /* G's metatable */
    lua_pushcfunction(L, script_global_missing);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    s->globals_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushvalue(L, -1);
    script_make_proxy(L);                                   /* G, proxy */
    /* getmetatable(_G) is, as in Redis 7.0, a read-only table whose __index raises for a
     * missing global: a proxy of G's metatable */
    lua_getmetatable(L, -2);                                /* G, proxy, G's mt */
    script_make_proxy(L);                                   /* G, proxy, proxy(mt) */
    lua_getmetatable(L, -2);                                /* G, proxy, proxy(mt), proxy's mt */
    lua_insert(L, -2);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);                                          /* G, proxy */
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "_G");
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);    /* new chunks see the proxy */
    lua_pop(L, 1);
    script_open_fast_globals(s);

    buf msg;
    buf_init(&msg);
    buf_printf(&msg, "ERR Script killed by locklab: exceeded the instruction budget of %llu instructions.",
               (unsigned long long)s->insn_limit);
    lua_createtable(L, 0, 1);
    lua_pushlstring(L, msg.p, msg.len);
    lua_setfield(L, -2, "err");
    s->kill_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    buf_release(&msg);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "ERR Script killed by user with SCRIPT KILL...");
    lua_setfield(L, -2, "err");
    s->user_kill_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 32);
    s->pin_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_gc(L, LUA_GCGEN, 0, 0);
    lua_gc(L, LUA_GCRESTART);
}
