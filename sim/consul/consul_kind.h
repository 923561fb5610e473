/* consul_kind.h — the fake Consul as a server kind ("consul"): consul_kind.c. */
#ifndef LOCKLAB_CONSUL_KIND_H
#define LOCKLAB_CONSUL_KIND_H

#include "server_kind.h"

extern const server_kind consul_kind;

#endif
