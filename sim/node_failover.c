/* node_failover.c — a master replaced by its replica. When a master with replicas has been
 * down for down_after, its best replica (most effects applied, then the first) is promoted;
 * clients learn the new master after the detection delay. The old master, when it comes back,
 * is a replica of the new one and resynchronises in full, discarding its own data. A master
 * cut off from its replicas for down_after is replaced the same way while it goes on
 * accepting writes on its side (node_partitions_changed). (Moved from node.c.) */
#include "nodeint.h"

#include <string.h>

static node *best_replica(cluster *cu, node *m)
{
    node *best = NULL;
    for (int i = 0; i < cu->cx->nnodes; i++) {
        node *r = &cu->nodes[i];
        if (r->role != ROLE_REPLICA || r->master != m->idx || !r->up) continue;
        if (!best || r->repl_applied > best->repl_applied) best = r;
    }
    return best;
}

/* A kind that elects by majority: can r gather the votes of a majority of old's replica set
 * (old and its replicas), counting itself and every member up and reachable from it? */
static int wins_election(cluster *cu, node *old, node *r)
{
    int group = 1, votes = 0;
    for (int i = 0; i < cu->cx->nnodes; i++) {
        node *o = &cu->nodes[i];
        if (o != old && !(o->role == ROLE_REPLICA && o->master == old->idx)) continue;
        if (o != old) group++;
        if (o == r || (o->up && !net_partitioned(cu->net, r->idx, o->idx))) votes++;
    }
    return votes >= group / 2 + 1;
}

void node_failover(cluster *cu, node *old, int forced)
{
    if (old->role != ROLE_MASTER) return;
    node *r = best_replica(cu, old);
    if (!r) return;
    if (cu->kind->elects_by_majority && !wins_election(cu, old, r)) return; /* no primary: writes fail */
    r->role = ROLE_MASTER;
    r->master = -1;
    memset(r->acked, 0, (size_t)cu->cx->nnodes * sizeof *r->acked);
    r->acks_asked = 0;
    cu->kind->set_replica(r->srv, 0);
    node_note(cu, r, H_PROMOTED, old->idx, "promoted to master in place of %s", old->cfg->name);
    for (int i = 0; i < cu->cx->nnodes; i++) {
        node *o = &cu->nodes[i];
        if (o != r && o->role == ROLE_REPLICA && o->master == old->idx) {
            o->master = r->idx;
            if (o->up) node_resync(cu, o, r);
        }
    }
    old->master = r->idx;
    if (old->up && forced) {
        node_unblock_waits(cu, old);
        old->role = ROLE_REPLICA;
        cu->kind->set_replica(old->srv, 1);
        node_resync(cu, old, r);
    } else {
        old->demoted = 1;
        /* a quorum's leader cut off in a minority stops leading once the majority has elected
         * another (ZooKeeper's leader loses its followers' pings and goes back to looking; an
         * etcd leader that cannot hear a quorum steps down): it answers as a member without a
         * leader does, and expires no session or lease of its own */
        if (old->up && cu->cx->sc->repl_quorum) cu->kind->set_replica(old->srv, 1);
    }
    node_schedule_expiry(cu, r);
    sched_push(cu->cx->q, cu->cx->now_us + cu->cx->sc->detection_us, EV_ROUTE, -1, ((uint64_t)old->shard << 32) | (uint64_t)r->idx, NULL);
}

#define CUT_CHECK (1ULL << 63)

void node_failover_check(cluster *cu, node *n, uint64_t epoch)
{
    if (n->role != ROLE_MASTER || n->demoted) return;
    if (epoch & CUT_CHECK) {
        /* Cut off from its replicas (and so, in this model, from the sentinels beside them)
         * for down_after: they elect a new master, while this one, still up, goes on
         * accepting writes from the clients on its side of the partition. */
        if ((epoch & ~CUT_CHECK) != n->cut_epoch || n->cut_since_us < 0) return;
    } else if (n->up || n->down_epoch != epoch) {
        return;
    }
    node_failover(cu, n, 0);
}

/* Is master m cut off from every replica it has that is up? */
static int cut_off(cluster *cu, node *m)
{
    int replicas = 0;
    for (int i = 0; i < cu->cx->nnodes; i++) {
        node *r = &cu->nodes[i];
        if (r->role != ROLE_REPLICA || r->master != m->idx || !r->up) continue;
        replicas++;
        if (!net_partitioned(cu->net, m->idx, r->idx)) return 0;
    }
    return replicas > 0;
}

void node_partitions_changed(cluster *cu)
{
    for (int i = 0; i < cu->cx->nnodes; i++) {
        node *n = &cu->nodes[i];
        if (!n->up) continue;
        if (n->role == ROLE_MASTER && n->demoted) {
            /* A master replaced while it was cut off: once it can reach the new master again,
             * it is reconfigured as its replica and throws its own data away. */
            node *m = &cu->nodes[n->master];
            if (m->up && !net_partitioned(cu->net, n->idx, m->idx)) {
                node_unblock_waits(cu, n);
                n->role = ROLE_REPLICA;
                n->demoted = 0;
                n->cut_since_us = -1;
                cu->kind->set_replica(n->srv, 1);
                node_note(cu, n, H_DEMOTED, m->idx, "rejoins as a replica of %s, discarding its own writes", m->cfg->name);
                node_resync(cu, n, m);
            }
            continue;
        }
        if (n->role != ROLE_MASTER) continue;
        int cut = cut_off(cu, n);
        if (cut && n->cut_since_us < 0) {
            n->cut_since_us = cu->cx->now_us;
            n->cut_epoch++;
            sched_push(cu->cx->q, cu->cx->now_us + cu->cx->sc->down_after_us, EV_FAILOVER_CHECK, n->idx, CUT_CHECK | n->cut_epoch, NULL);
        } else if (!cut && n->cut_since_us >= 0) {
            n->cut_since_us = -1;
            n->cut_epoch++;
        }
    }
}

/* A full resynchronisation: the replica's data becomes a copy of the master's. */
void node_resync(cluster *cu, node *replica, node *master)
{
    cu->kind->copy_data(replica->srv, master->srv);
    org_copy(&replica->org, &master->org);
    if (cu->cx->explore)
        for (int i = 0; i < replica->org.n; i++) replica->org.v[i].step = node_cross_clock(cu, replica, master, replica->org.v[i].step);
    replica->repl_offset = master->repl_offset;
    node_note_keyspace(cu, replica, HK_RESYNC, master);
}
