/* pg_kind.h — the fake PostgreSQL as a server kind ("postgresql"): pg_kind.c. */
#ifndef LOCKLAB_PG_KIND_H
#define LOCKLAB_PG_KIND_H

#include "server_kind.h"

extern const server_kind pg_kind;

#endif
