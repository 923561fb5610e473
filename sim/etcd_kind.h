/* etcd_kind.h — the fake etcd 3.4 (sim/etcd/) as a server kind (server_kind.h): what the world
 * names when a scenario says server = "etcd". See etcd_kind.c. */
#ifndef LOCKLAB_ETCD_KIND_H
#define LOCKLAB_ETCD_KIND_H

#include "server_kind.h"

extern const server_kind etcd_kind;

#endif
