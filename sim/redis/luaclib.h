/* luaclib.h — what the C libraries scripts see (lua_cjson.c, lua_struct.c, lua_cmsgpack.c)
 * share: numbers as Redis's Lua 5.1 had them, and a buffer a Lua error cannot leak. */
#ifndef LOCKLAB_LUACLIB_H
#define LOCKLAB_LUACLIB_H

#include <lua.h>

#include "util.h"

/* Pushes a number as Lua 5.1 would show it: an integral value below 2^53 as a Lua integer
 * (so tostring gives "2", not "2.0"), anything else (-0.0 too) as a float. */
void luaclib_push_number(lua_State *L, double d);

/* A number truncated toward zero, as Lua 5.1's lua_tointeger gave it (saturating far out
 * of range). */
lua_Integer luaclib_trunc(double d);

/* luaL_checkinteger as Lua 5.1 read one into a C int: truncated, then kept in 32 bits
 * (1e10 is 1410065408). Raises for a non-number. */
int luaclib_checkint(lua_State *L, int idx);

/* A new empty buffer owned by a userdata left on the stack, freed by its __gc: whatever the
 * caller raises, the memory goes with the userdata. Release it early with buf_release. */
buf *luaclib_buf(lua_State *L);

#endif
