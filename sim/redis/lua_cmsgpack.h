/* lua_cmsgpack.h — the `cmsgpack` library that Redis scripts see (see lua_cmsgpack.c). */
#ifndef LOCKLAB_LUA_CMSGPACK_H
#define LOCKLAB_LUA_CMSGPACK_H

#include <lua.h>

/* Pushes a new table with pack, unpack, unpack_one and unpack_limit. */
void lua_cmsgpack_open(lua_State *L);

#endif
