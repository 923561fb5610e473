/* net.h — the network between the actors of a world: a link for every ordered pair of
 * actors, each with its delay distribution and loss probability, and the partitions in
 * force.
 *
 * Every interaction between actors is a message. net_send drops it if a partition cuts its
 * link now or the link loses it (a chooser decision), and otherwise schedules its delivery
 * after a delay drawn by the chooser from the link's distribution (the replication stream's
 * for replication), never before an earlier message on the same link (FIFO per link, like
 * TCP). A message in flight is an EV_DELIVER event in the queue, owning the message; the
 * world hands it to its receiver, which checks the partitions again at delivery.
 *
 * Nodes and clients send through the net; the world builds it and applies the faults that
 * change it (partitions, lossy links). */
#ifndef LOCKLAB_NET_H
#define LOCKLAB_NET_H

#include <stddef.h>

#include "core.h"

struct server_kind;

/* MSG_REPL: a change on the replication stream (body: the kchange, req_id: its offset), or
 * with no body a request for an acknowledgement (REPLCONF GETACK); MSG_REPL_ACK: a replica's
 * acknowledgement of the offset it applied (req_id). */
typedef enum msg_kind { MSG_REQUEST, MSG_REPLY, MSG_PUBSUB, MSG_REPL, MSG_REPL_ACK } msg_kind;

/* A message. Its payload is the server kind's (server_kind.h): the net only carries it, and
 * releases it through sk when the message is freed. */
typedef struct msg {
    msg_kind kind;
    int from, to;          /* actors */
    int coro;              /* the waiting coroutine (request/reply) */
    uint64_t req_id;
    int conn;              /* a request: the client's connection (0: commands, 1: pub/sub) */
    int async;             /* a request of ctx:send (and its reply): the coroutine did not wait */
    int refused;           /* a reply: none, the node's host refused the connection (no body) */
    int argc;
    slice *argv;           /* a request's arguments, pointing into bytes */
    char *bytes;           /* a request's arguments (NUL-separated), or a pushed message's payload */
    size_t nbytes;         /* the payload's length */
    char *label;           /* what it is, for traces: "EVAL redisson/lock@HEAD", a channel, a key */
    char *script;          /* a request that runs a script, and its reply: the script's id
                              ("redisson/lock@HEAD", a model's file), as the history's request,
                              exec and reply events carry it (owned); NULL otherwise */
    const struct server_kind *sk; /* a reply's or a replication change's kind */
    void *body;            /* MSG_REPLY: the reply (in the tail); MSG_REPL: the change (kchange) */
    uint64_t epoch;        /* replication: the master's down_epoch when it sent this */
    int origin;            /* replication, exploring: the step that set the unit's deadline, or -1 */
    int held_dec;          /* exploring: the window decision whose message this one is held
                              behind on its link (FIFO), so it moves with it; -1: none */
    max_align_t tail[];    /* room for a reply, when msg_new was asked for it */
} msg;

/* A zeroed message with `tail` bytes of room after it (msg.tail). */
msg *msg_new(msg_kind kind, int from, int to, size_t tail);
void msg_free(msg *m);
const char *msg_kind_name(msg_kind k);

typedef struct net net;

/* The links of cx's actors, as the scenario sets them; room for max_partitions partitions
 * in force at once. */
net *net_new(core *cx, int max_partitions);
void net_free(net *n);

/* Sends m (the net owns it from now on): dropped, or delivered later as an EV_DELIVER. */
void net_send(net *n, msg *m);
/* Records in the history that m was lost, and why ("partition", "node down", ...). */
void net_note_drop(net *n, const msg *m, hist_loss why);

/* network.partitions = "tcp": is m a segment of a client's TCP connection (a request, its
 * reply, a pushed message), which a cut delays rather than loses? */
int net_tcp(const net *n, const msg *m);
/* Holds m (the net owns it) until the cut between its ends heals: then it goes at TCP's next
 * retransmission, or is lost with its connection when TCP gave up before (tcp_retries2). */
void net_hold(net *n, msg *m);
/* Called when TCP gives up on the link from → to (the connection is reset there). */
void net_on_reset(net *n, void (*fn)(void *ud, int from, int to), void *ud);

/* Is the link between a and b cut by a partition in force now? */
int net_partitioned(const net *n, int a, int b);
/* A host that vanished (a client's crash with host = true): it answers nothing, not even a
 * gossip probe. Whether a and b can exchange messages now (a failure detector's view): both
 * hosts up, no partition between them, and their link not losing everything either way. */
void net_set_host_down(net *n, int actor, int down);
int net_reachable(const net *n, int a, int b);
/* A partition starts: group_of[actor] is its group or -1 (the net takes the array). */
void net_partition(net *n, int fault, int *group_of);
/* The partition started by `fault` ends. */
void net_heal(net *n, int fault);
/* Sets the loss of the links between a and b, both ways; a probability < 0 restores the
 * scenario's. */
void net_set_loss(net *n, int a, int b, double probability);

#endif
