/* nodeint.h — what node.c and node_expiry.c share: the deadline origins (not an API). */
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

#endif
