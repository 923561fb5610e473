/* lua_struct.h — the `struct` library that Redis scripts see (see lua_struct.c). */
#ifndef LOCKLAB_LUA_STRUCT_H
#define LOCKLAB_LUA_STRUCT_H

#include <lua.h>

/* Pushes a new table with pack, unpack and size. */
void lua_struct_open(lua_State *L);

#endif
