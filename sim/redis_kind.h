/* redis_kind.h — the fake Redis (sim/redis/) as a server kind (server_kind.h): what the world
 * names when it builds Redis nodes. See redis_kind.c. */
#ifndef LOCKLAB_REDIS_KIND_H
#define LOCKLAB_REDIS_KIND_H

#include "server_kind.h"

extern const server_kind redis_kind;

/* The fake Redis server inside a node's server of this kind (locklab serve runs its TCP
 * connections' commands on it directly, each with its own connection state). */
struct server;
struct server *redis_kind_server(kserver *s);

#endif
