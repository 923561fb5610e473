/* scenario_int.h — what the scenario loader's files share (sim/scenario.c, scenario_nodes.c,
 * scenario_faults.c, scenario_vary.c); not an API.
 *
 * The loader is the schema on top of the generic reader (scenario_reader.h): scenario.c
 * reads the top-level fields, expect and options (scenario_nodes.c the nodes, clients, the
 * network and links, per-node settings), and checks the protocol and script version the file names;
 * scenario_faults.c reads the faults and the explore table, and answers which actors exist
 * (links name actors too). */
#ifndef LOCKLAB_SCENARIO_INT_H
#define LOCKLAB_SCENARIO_INT_H

#include "scenario.h"
#include "scenario_reader.h"

/* The loader's limits (scenario_vary.c keeps to MAX_MASTERS when it sets the node count). */
enum {
    MAX_MASTERS = 64,
    MAX_REPLICAS = 8,
    MAX_NODES = MAX_MASTERS * (1 + MAX_REPLICAS),
    MAX_CLIENTS = 256,
    MAX_FAULTS = 10000,
    MAX_LINKS = 4096,
    MAX_ROUNDS = 1000000,
};

/* An actor by name, for lookups: a fault list may name hundreds of actors thousands of
 * times (10 000 partitions of 832 actors), which a linear search per name cannot afford. */
typedef struct actor_ref {
    const char *name; /* borrowed from the scenario */
    int node, client; /* its index, or -1 */
} actor_ref;

typedef struct loader {
    reader rd;
    scenario *s;
    actor_ref *actors; /* every node and client, sorted by name; built at the first lookup,
                          once nodes and clients are loaded */
    int nactors;
    int *seen_stamp, *seen_group; /* per actor: the partition that named it last, and where */
    int stamp;
} loader;

/* The kinds of actor a field may name (faults.h's FT_* are the same). */
enum { ACT_NODE = 1, ACT_CLIENT = 2, ACT_MASTER = 4 /* a master node only */ };

/* scenario_faults.c. An actor's name, checked to be one of `kinds` (`user` names what
 * needs it, for messages), copied to the heap. Only once nodes and clients are loaded. */
char *scenario_actor_name(loader *ld, int idx, const char *path, int kinds, const char *user);
/* The index of actor `name` (which exists) in the loader's sorted index (seen_stamp, ...). */
int scenario_actor_index(loader *ld, const char *name);
/* The faults list and the explore table of the scenario table at root (after duration). */
void scenario_load_faults(loader *ld, int root);
void scenario_load_explore(loader *ld, int root);
/* scenario_nodes.c. The nodes, per-node settings, network, clients and links of the scenario
 * table at root, in the order scenario.c calls them. */
void scenario_load_nodes(loader *ld, int root);
void scenario_load_per_node(loader *ld, int root);
void scenario_load_network(loader *ld, int root);
void scenario_load_clients(loader *ld, int root);
void scenario_load_links(loader *ld, int root);

#endif
