/* nodeint.h — what node.c, node_expiry.c and node_failover.c share: the deadline origins,
 * the history's lines, resynchronisation (not an API). */
#ifndef LOCKLAB_NODEINT_H
#define LOCKLAB_NODEINT_H

#include "node.h"

deadline_origin *org_find(origins *o, slice unit);
void org_set(origins *o, slice unit, int64_t deadline, int step);
void org_remove(origins *o, slice unit);
void org_clear(origins *o);
void org_copy(origins *dst, const origins *src);
void org_free(origins *o);
/* A replicated or copied origin on n, from node `from`: kept where both clocks run alike,
 * else unknown (-1) and the setting step a clock reading. */
int cross_clock(cluster *cu, const node *n, const node *from, int step);
/* The server's hooks (kind_host.deadline_set, deadline_read). */
void node_deadline_set(void *ud, slice unit, int64_t deadline, const slice *from);
void node_deadline_read(void *ud, slice unit);
/* commit = "quorum": what was held until a majority has the master's entries goes out now
 * that it has (node.c). */
void node_commit_release(cluster *cu, node *n);
/* What node.c and node_failover.c share: a node's line in the history, its keyspace's, the
 * waits a master answers when it stops being one, a replica's full resynchronisation. */
void node_note(cluster *cu, node *n, hist_kind k, int peer, const char *fmt, const char *arg);
void node_note_keyspace(cluster *cu, node *n, hist_keyspace why, const node *master);
void node_unblock_waits(cluster *cu, node *n);
void node_resync(cluster *cu, node *replica, node *master);

#endif
