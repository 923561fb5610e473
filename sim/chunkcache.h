/* chunkcache.h — compiled Lua chunks shared by the worlds of one process.
 *
 * Building a world compiles the same texts as the last one: the client models under
 * lua/clients/ in each world's client state, the lock scripts in each node's Lua state.
 * Parsing them was more than half the cost of a path in `locklab check`. A cache keeps
 * each text's compiled form (lua_dump, with its debug information) by chunk name and text,
 * and the next state that asks loads that instead: the same function — code, constants,
 * line numbers, source name — in about an eighth of the time.
 *
 * Only dumps made here, from text this process compiled, are ever loaded as binary; what
 * a user supplies is always compiled as text ("t"). The owner (the explorer, a sweep, the
 * verdict table) creates one, hands it to every world through world_opts, and frees it
 * after the last world. */
#ifndef LOCKLAB_CHUNKCACHE_H
#define LOCKLAB_CHUNKCACHE_H

#include <lua.h>

#include "util.h"

typedef struct chunkcache chunkcache;

chunkcache *chunkcache_new(void);
void chunkcache_free(chunkcache *c);   /* NULL is a no-op */

/* As luaL_loadbufferx(L, text, len, name, "t"): pushes the compiled function, or the error
 * message, and returns the status. c may be NULL (no cache). */
int chunkcache_load(chunkcache *c, lua_State *L, const char *text, size_t len, const char *name);

/* chunkcache_load with the cache as a void *: the shape of a fake Redis server's script
 * loader (server_config.load, script_load_fn in sim/redis/script.h), so that a server given
 * it with the cache as load_ud shares compiled scripts through the cache. */
int chunkcache_load_ud(void *c, lua_State *L, const char *text, size_t len, const char *name);

/* How many loads the cache answered, and how many texts it holds (for tests). */
size_t chunkcache_hits(const chunkcache *c);
size_t chunkcache_size(const chunkcache *c);

#endif
