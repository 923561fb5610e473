/* kinds.h — the kinds of server a scenario may name in `server` (server_kind.h): one table,
 * so that a new kind is one line here and a sibling folder (sim/<kind>/), and nothing else in
 * the engine changes. See kinds.c. */
#ifndef LOCKLAB_KINDS_H
#define LOCKLAB_KINDS_H

#include "server_kind.h"

/* The kind called `name` ("redis"), or NULL. */
const server_kind *server_kind_find(const char *name);
/* The i-th kind (i from 0), or NULL past the last: for listings and error messages. */
const server_kind *server_kind_at(int i);
/* The number of options of k (0 if none). */
int server_kind_noptions(const server_kind *k);

#endif
