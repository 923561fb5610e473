/* zk_kind.h — the fake ZooKeeper (sim/zk/) as a server kind (server_kind.h), named
 * "zookeeper" in the table of kinds (kinds.c). See zk_kind.c. */
#ifndef LOCKLAB_ZK_KIND_H
#define LOCKLAB_ZK_KIND_H

#include "server_kind.h"

extern const server_kind zk_kind;

#endif
