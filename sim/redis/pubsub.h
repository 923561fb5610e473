/* pubsub.h — channels and their subscribers on one server. Subscribers are connection ids;
 * a PUBLISH hands each message to a delivery callback (the REPL prints it, the simulator
 * carries it over the network to the subscribed client). Deliveries happen in subscription
 * order, so a run is deterministic. */
#ifndef LOCKLAB_PUBSUB_H
#define LOCKLAB_PUBSUB_H

#include "util.h"

typedef struct pubsub pubsub;
typedef void (*pubsub_deliver_fn)(void *ud, int conn_id, slice channel, slice message);

pubsub *pubsub_new(pubsub_deliver_fn deliver, void *ud);
void pubsub_free(pubsub *ps);
/* Returns 1 if conn was newly subscribed to channel, 0 if it already was. */
int pubsub_subscribe(pubsub *ps, int conn_id, slice channel);
int pubsub_unsubscribe(pubsub *ps, int conn_id, slice channel);
/* Removes every subscription of conn (a client crash, a connection closed). */
void pubsub_drop_conn(pubsub *ps, int conn_id);
/* Delivers to every subscriber of channel; returns how many received it. */
long long pubsub_publish(pubsub *ps, slice channel, slice message);
size_t pubsub_count(const pubsub *ps, slice channel);
/* The reply a subscriber receives for a message: ["message", channel, message]. */
struct reply;
void pubsub_message_reply(struct reply *out, slice channel, slice message);
/* The channels conn is subscribed to, in subscription order (borrowed until the next
 * change); *n receives their number. */
const slice *pubsub_channels_of(pubsub *ps, int conn_id, size_t *n);

#endif
