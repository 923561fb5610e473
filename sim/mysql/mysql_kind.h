/* mysql_kind.h — the fake MySQL as a server kind ("mysql"): mysql_kind.c. */
#ifndef LOCKLAB_MYSQL_KIND_H
#define LOCKLAB_MYSQL_KIND_H

#include "server_kind.h"

extern const server_kind mysql_kind;

#endif
