/* node_expiry.c — a node's key expiry, and, while the model checker explores, where each
 * deadline comes from (see model/reduce.c for why).
 *
 * Expiry. The server names its next deadline on its own clock (a kind whose clock is
 * monotonic ignores jumps); the node schedules one event for it and, when it fires, lets the
 * server expire what is past it. Replicas never expire on their own.
 *
 * Origins. A key's expiry happens at the deadline some request fixed, however many commands,
 * restarts or replications lie between: its event is caused by that request's step, so it
 * moves with that step's cone. The node follows each deadline's origin (origins, in node.h)
 * through the server's hooks (node_deadline_set, node_deadline_read), replication (the
 * change carries it), persistence (the durable copy keeps its own) and resynchronisation.
 * Where the origin is not known or no single step fixes the instant — a deadline fixed by no
 * request here (absolute, from another database), equal deadlines of several origins, one
 * found already passed, a clock that jumps or runs at another rate than the master's, a kind
 * that does not tell — the steps involved count as clock readings instead, which the
 * reductions treat conservatively. */
#include "nodeint.h"

#include <stdlib.h>
#include <string.h>

deadline_origin *org_find(origins *o, slice unit)
{
    for (int i = 0; i < o->n; i++)
        if (o->v[i].len == unit.len && !memcmp(o->v[i].unit, unit.p, unit.len)) return &o->v[i];
    return NULL;
}

void org_set(origins *o, slice unit, int64_t deadline, int step)
{
    deadline_origin *e = org_find(o, unit);
    if (!e) {
        if (o->n == o->cap) o->v = xrealloc(o->v, (size_t)(o->cap = o->cap ? o->cap * 2 : 8) * sizeof *o->v);
        e = &o->v[o->n++];
        e->unit = xmemdup(unit.p, unit.len);
        e->len = unit.len;
    }
    e->deadline_ms = deadline;
    e->step = step;
}

void org_remove(origins *o, slice unit)
{
    deadline_origin *e = org_find(o, unit);
    if (!e) return;
    free(e->unit);
    *e = o->v[--o->n];
}

void org_clear(origins *o)
{
    for (int i = 0; i < o->n; i++) free(o->v[i].unit);
    o->n = 0;
}

void org_copy(origins *dst, const origins *src)
{
    org_clear(dst);
    for (int i = 0; i < src->n; i++)
        org_set(dst, (slice){ src->v[i].unit, src->v[i].len }, src->v[i].deadline_ms, src->v[i].step);
}

void org_free(origins *o)
{
    org_clear(o);
    free(o->v);
    memset(o, 0, sizeof *o);
}

/* A deadline set by step `step` on `from`'s clock and kept by n (replicated): where the two
 * clocks run at different rates, its expiry on n does not move by as much as that step does,
 * so it is of unknown origin (-1), and the step read a clock. Returns the origin for n. */
int node_cross_clock(cluster *cu, const node *n, const node *from, int step)
{
    if (n->clock.drift == from->clock.drift) return step;
    core_clock_read_at(cu->cx, step);
    return -1;
}

/* The server set a unit's deadline: its origin is the step being handled, or the origin of
 * the deadline it copies, or (applying a replicated change) the master's. */
void node_deadline_set(void *ud, slice unit, int64_t deadline, const slice *from)
{
    node *n = ud;
    n->effects++;
    core *cx = n->cu->cx;
    if (!cx->explore) return;
    int step = core_step(cx);
    if (n->in_apply) {
        step = node_cross_clock(n->cu, n, &n->cu->nodes[n->master], n->applying);
    } else if (from) { /* copied from a unit (its origin, if known), or fixed by no step here */
        deadline_origin *o = from->p ? org_find(&n->org, *from) : NULL;
        step = o ? o->step : -1;
    }
    org_set(&n->org, unit, deadline, step);
}

/* A unit's deadline left the server (a TTL in a reply): the step that set it read a clock. */
void node_deadline_read(void *ud, slice unit)
{
    node *n = ud;
    n->effects++;
    deadline_origin *o = n->cu->cx->explore ? org_find(&n->org, unit) : NULL;
    if (o) core_clock_read_at(n->cu->cx, o->step);
}

/* When (true µs) n's server clock is past `deadline` (reads deadline + 1). */
static int64_t deadline_true_when(cluster *cu, node *n, int64_t deadline)
{
    return cu->kind->monotonic ? lclock_true_when_monotonic(&n->clock, cu->cx->now_us, deadline + 1)
                               : lclock_true_when(&n->clock, cu->cx->now_us, deadline + 1);
}

/* Pushes n's expiry event at `at` with `cause` (the step it moves with; -1: none). */
static void expiry_push(core *cx, node *n, int64_t at, int cause)
{
    n->expiry_at = at;
    n->expiry_pending = 1;
    n->expiry_cause = cause;
    sched_push_caused(cx->q, cause, at, EV_EXPIRE, n->idx, ++n->expiry_gen, NULL);
}

/* Every step that set a deadline equal to `deadline` counts as a clock reading. */
static void origins_read(core *cx, const node *n, int64_t deadline)
{
    for (int j = 0; j < n->org.n; j++)
        if (n->org.v[j].deadline_ms == deadline) core_clock_read_at(cx, n->org.v[j].step);
}

/* Schedules the active-expiry event for the node's next deadline: a key expires once the
 * local clock is past its deadline, i.e. reads deadline + 1. */
void node_schedule_expiry(cluster *cu, node *n)
{
    if (!n->up || n->role != ROLE_MASTER) return;
    int64_t deadline = cu->kind->next_deadline(n->srv);
    if (deadline == INT64_MAX) return;
    int64_t at = deadline_true_when(cu, n, deadline);
    if (at == INT64_MAX) return;
    core *cx = cu->cx;
    /* The expiry's instant is its deadline's: its cause is the step that set it, unless the
     * deadline has passed already (then it expires now, whenever now is). Deadlines of
     * several origins falling together: each origin counts as a clock reading. This holds
     * also when the instant is that of the pending expiry: a second key's deadline equal to
     * the first's, or the same key's deadline set again to the same instant by another step. */
    int cause = -1, found = 0, unknown = 0;
    if (cx->explore && at <= cx->now_us) {
        /* Passed already (a restart, a promotion): that it has depends on when each passed
         * deadline was set against the clock now, so its origin and this step both read a
         * clock. */
        for (int i = 0; i < n->org.n; i++)
            if (deadline_true_when(cu, n, n->org.v[i].deadline_ms) <= cx->now_us) core_clock_read_at(cx, n->org.v[i].step);
        core_clock_read(cx);
    }
    for (int i = 0; cx->explore && at > cx->now_us && i < n->org.n; i++) {
        const deadline_origin *o = &n->org.v[i];
        if (o->deadline_ms != deadline) continue;
        if (o->step < 0) { /* of unknown origin (a master's deadline it had none for) */
            unknown = 1;
            continue;
        }
        if (found && o->step != cause) {
            origins_read(cx, n, deadline);
            if (o->step > cause) cause = o->step;
        } else if (!found) {
            cause = o->step;
        }
        found = 1;
    }
    if (unknown && found) { /* falling together with one of unknown origin: all as unknown */
        origins_read(cx, n, deadline);
        found = 0;
    }
    /* A deadline of unknown origin (a server kind that does not say which request set it, as
     * ZooKeeper's sessions, touched by every request): this step may have set it, and reads
     * the clock, whether or not the instant of the pending expiry changes. */
    if (cx->explore && !found && at > cx->now_us) core_clock_read(cx);
    /* Of unknown origin: a reading here (above) and where it expires (node_on_expire); its
     * expiry does not move with this step (a lease's expiry falls on the lessor's tick). A
     * deadline already passed expires now, moving with this step. */
    if (!found) cause = at > cx->now_us ? -1 : core_step(cx);
    if (n->expiry_at == at && n->expiry_pending && (!cx->explore || n->expiry_cause == cause)) return;
    expiry_push(cx, n, at, cause);
}

void node_clock_changed(cluster *cu, node *n)
{
    /* The expiry now depends on the clock's change as well as on its deadline's origin: both
     * count as clock readings, and it follows the change. */
    core *cx = cu->cx;
    for (int i = 0; cx->explore && i < n->org.n; i++) core_clock_read_at(cx, n->org.v[i].step);
    core_clock_read(cx);
    if (!n->up || n->role != ROLE_MASTER) return;
    int64_t deadline = cu->kind->next_deadline(n->srv);
    if (deadline == INT64_MAX) return;
    int64_t at = deadline_true_when(cu, n, deadline);
    if (at == INT64_MAX || (n->expiry_at == at && n->expiry_pending)) return;
    expiry_push(cx, n, at, core_step(cx));
}

void node_on_expire(cluster *cu, node *n, uint64_t gen)
{
    if (gen != n->expiry_gen) return;
    n->expiry_pending = 0;
    if (!n->up || n->role != ROLE_MASTER) return;
    if (cu->cx->explore) {
        /* A deadline whose origin is unknown (a server kind that does not report it, such as
         * etcd's leases): its expiry does not move with the step that set it, so here the
         * clock is compared with it. */
        int64_t deadline = cu->kind->next_deadline(n->srv);
        int known = 0, unknown = 0;
        for (int i = 0; i < n->org.n; i++)
            if (n->org.v[i].deadline_ms == deadline) *(n->org.v[i].step >= 0 ? &known : &unknown) = 1;
        if (!known || unknown) core_clock_read(cu->cx);
    }
    cu->kind->expire(n->srv);
    node_schedule_expiry(cu, n);
    node_commit_release(cu, n);
}
