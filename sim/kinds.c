/* kinds.c — the table of server kinds. The world builds its nodes from the kind the
 * scenario's `server` names (default "redis"); the scenario loader checks the name and the
 * kind's `server_options` against it; `locklab list` shows it. A new kind adds its adapter's
 * vtable to `kinds` below and nothing else here. */
#include "kinds.h"

#include <string.h>

#include "consul/consul_kind.h"
#include "etcd_kind.h"
#include "k8s/k8s_kind.h"
#include "redis_kind.h"
#include "mongo/mongo_kind.h"
#include "mysql/mysql_kind.h"
#include "pg/pg_kind.h"
#include "zk_kind.h"

static const server_kind *const kinds[] = {
    &redis_kind,
    &zk_kind,
    &etcd_kind,
    &mysql_kind,
    &mongo_kind,
    &pg_kind,
    &k8s_kind,
    &consul_kind,
};

const server_kind *server_kind_find(const char *name)
{
    for (size_t i = 0; i < LL_ARRAY_LEN(kinds); i++)
        if (!strcmp(kinds[i]->name, name)) return kinds[i];
    return NULL;
}

const server_kind *server_kind_at(int i)
{
    return i >= 0 && (size_t)i < LL_ARRAY_LEN(kinds) ? kinds[i] : NULL;
}

int server_kind_noptions(const server_kind *k)
{
    int n = 0;
    while (k->options && k->options[n].name) n++;
    return n;
}
