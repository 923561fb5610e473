/* pubsub.h — channels, patterns and their subscribers on one server. Subscribers are
 * connection ids; a PUBLISH hands each message to a delivery callback (the REPL prints it,
 * the simulator carries it over the network to the subscribed client, `locklab serve`
 * writes it to the socket): first to the channel's subscribers in subscription order, then,
 * for each pattern in the order it was first subscribed that matches the channel (Redis's
 * glob), to that pattern's subscribers, as a pattern message. A run is deterministic. */
#ifndef LOCKLAB_PUBSUB_H
#define LOCKLAB_PUBSUB_H

#include "util.h"

typedef struct pubsub pubsub;
typedef void (*pubsub_deliver_fn)(void *ud, int conn_id, slice channel, slice message);
/* Any other message, as the reply the connection receives: a pattern's subscriber's
 * ["pmessage", pattern, channel, message], a shard channel's ["smessage", channel, message]. */
struct reply;
typedef void (*pubsub_push_fn)(void *ud, int conn_id, const struct reply *msg);

pubsub *pubsub_new(pubsub_deliver_fn deliver, pubsub_push_fn push, void *ud);
void pubsub_free(pubsub *ps);
/* Returns 1 if conn was newly subscribed to channel, 0 if it already was. */
int pubsub_subscribe(pubsub *ps, int conn_id, slice channel);
int pubsub_unsubscribe(pubsub *ps, int conn_id, slice channel);
/* Shard channels (SSUBSCRIBE, SPUBLISH): a namespace of their own, as in a standalone Redis
 * 7.0; SPUBLISH delivers ["smessage", channel, message] to their subscribers only. */
long long pubsub_spublish(pubsub *ps, slice channel, slice message);
/* Removes every subscription of conn, channels, patterns and shard channels (a client crash, a connection
 * closed, RESET). */
void pubsub_drop_conn(pubsub *ps, int conn_id);
/* Whether conn speaks RESP3 (HELLO 3): its messages then go to the push callback as RESP3
 * pushes, a channel's included. pubsub_drop_conn forgets it. */
void pubsub_set_resp3(pubsub *ps, int conn_id, int on);
/* Delivers to every subscriber of channel and of each matching pattern; returns how many
 * deliveries were made (a connection subscribed both ways counts twice, as in Redis). */
long long pubsub_publish(pubsub *ps, slice channel, slice message);
size_t pubsub_count(const pubsub *ps, slice channel);
/* The reply a subscriber receives for a message: ["message", channel, message]; for a
 * pattern's: ["pmessage", pattern, channel, message]. */
void pubsub_message_reply(struct reply *out, slice channel, slice message);
void pubsub_pmessage_reply(struct reply *out, slice pattern, slice channel, slice message);
/* The channels (patterns) conn is subscribed to, in subscription order (borrowed until the
 * next change); *n receives their number. */
const slice *pubsub_channels_of(pubsub *ps, int conn_id, size_t *n);
const slice *pubsub_patterns_of(pubsub *ps, int conn_id, size_t *n);
const slice *pubsub_shards_of(pubsub *ps, int conn_id, size_t *n);

#endif
