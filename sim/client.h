/* client.h — the client processes of a world: each runs a protocol model (lua/clients/) and
 * the workload around it as Lua coroutines, against the ctx API. See client_load.c (building
 * them: the Lua state, the models), client_run.c (the runtime: coroutines, events) and
 * client_ctx.c (the ctx API).
 *
 * Clients send their requests through the net and reach the nodes only through node.h (an
 * unsubscription takes effect at once; a crash closes their connections). The world builds
 * the clients after the nodes and hands each client event back to the functions below. */
#ifndef LOCKLAB_CLIENT_H
#define LOCKLAB_CLIENT_H

#include "core.h"
#include "net.h"
#include "node.h"

struct scriptlib;
typedef struct clientrt clientrt;

typedef struct client {
    int idx;               /* actor index */
    int cidx;              /* index among clients */
    const client_cfg *cfg;
    lclock clock;
    int started, dead, done;
    int end_step;          /* exploring: the step at which it finished or vanished (-1: before the
                              log began): an event for it after that does nothing */
    int64_t paused_until_us;  /* true µs; events before it are held */
    int pause_fault;       /* the fault (its id in the run) whose pause ends at paused_until_us */
    event *held;
    int nheld, capheld;
    struct coro **coros;   /* each allocated on its own: a coroutine spawned while another runs
                              must not move the running one */
    int ncoros, capcoros;
    int *route;            /* per node index: where this client sends requests for it */
    struct subscription *subs;
    int nsubs, capsubs;
    uint64_t next_req;
    char uuid[40];         /* Redisson-style client id: lock owner = uuid:threadId */
    int ctx_ref;           /* the ctx object (Lua registry) */
} client;

/* Loads the protocol model and the workload into a new Lua state and builds the scenario's
 * clients (each registers its clock with the core and schedules its start). data_dir: where
 * lua/ lives (NULL: ll_data_dir()); lib: a loaded script index to share, or NULL. NULL on
 * error, with a one-line reason in err. */
clientrt *clients_new(core *cx, net *nt, cluster *cu, const char *data_dir, const struct scriptlib *lib,
                      buf *err);
void clients_free(clientrt *rt);
client *clients_at(clientrt *rt, int cidx);
/* The first client model error ("client A: ..."), or NULL: the run must stop. */
const char *clients_failure(const clientrt *rt);
int clients_all_done(const clientrt *rt);
/* Clients learn that shard's requests now go to node_idx. */
void clients_route(clientrt *rt, int shard, int node_idx);

/* A message for c (an EV_DELIVER event): 1 when a GC pause holds it or a coroutine keeps
 * it for ctx:receive (the client owns the event's message then), 0 when handled (the
 * caller frees it). */
int client_deliver(clientrt *rt, client *c, event *e);
/* One of c's own events: start, timer, spawn, pause end. */
void client_event(clientrt *rt, client *c, event *e);
/* Pauses c for duration µs from now; its end pushed as with the queue's sequence number since
 * (sched_push_since: a pause that landed earlier; sched_next_seq for one that lands now). */
void client_pause(clientrt *rt, client *c, int64_t duration, uint64_t since, int fault_id);
void client_crash(clientrt *rt, client *c);
/* A host crash (a power loss, a VM killed): the client stops, and sends nothing more — no FIN,
 * no reset: its connections stay open on the servers until client_drop_connections, when
 * their TCP keepalive gives up on it. */
void client_vanish(clientrt *rt, client *c);
void client_drop_connections(clientrt *rt, client *c);

#endif
