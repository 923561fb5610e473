/* lua_cjson.h — the `cjson` library that Redis scripts see (see lua_cjson.c). */
#ifndef LOCKLAB_LUA_CJSON_H
#define LOCKLAB_LUA_CJSON_H

#include <lua.h>

/* Pushes a new table with encode, decode and null. */
void lua_cjson_open(lua_State *L);

#endif
