/* luaclib.h — what the C libraries scripts see (lua_cjson.c, lua_struct.c, lua_cmsgpack.c)
 * share: numbers as Redis's Lua 5.1 had them, and a buffer a Lua error cannot leak. */
#ifndef LOCKLAB_LUACLIB_H
#define LOCKLAB_LUACLIB_H

#include <lua.h>
#include <stdint.h>

#include "util.h"

/* Pushes a number as Lua 5.1 would show it: an integral value below 10^14 as a Lua integer
 * (so tostring gives "2", not "2.0"), anything else (-0.0 too) as a float, which tostring
 * prints with "%.14g" as 5.1 did (2^53 is "9.007199254741e+15" there, not all its digits). */
void luaclib_push_number(lua_State *L, double d);

/* A number truncated toward zero, as Lua 5.1's lua_tointeger gave it (saturating far out
 * of range). */
lua_Integer luaclib_trunc(double d);

/* C's conversions of a double as x86-64 makes them (cvttsd2si), where Redis's libraries
 * convert: to int64_t, INT64_MIN for NaN and anything out of range; to int32_t, INT32_MIN
 * likewise; to uint64_t as GCC compiles it, 2^63 for NaN, 0 from 2^64 up, and below zero the
 * int64_t conversion's bits. Never undefined behaviour here. */
int64_t luaclib_cvt_i64(double d);
int32_t luaclib_cvt_i32(double d);
uint64_t luaclib_cvt_u64(double d);

/* luaL_checkinteger as Lua 5.1 read one into a C int: truncated, then kept in 32 bits
 * (1e10 is 1410065408). Raises for a non-number. */
int luaclib_checkint(lua_State *L, int idx);

/* A new empty buffer owned by a userdata left on the stack, freed by its __gc: whatever the
 * caller raises, the memory goes with the userdata. Release it early with buf_release. */
buf *luaclib_buf(lua_State *L);

#endif
