/* mongo_kind.h — the fake MongoDB as a server kind ("mongodb"): mongo_kind.c. */
#ifndef LOCKLAB_MONGO_KIND_H
#define LOCKLAB_MONGO_KIND_H

#include "server_kind.h"

extern const server_kind mongo_kind;

#endif
