/* world_realtime.c — a world driven from outside rather than run to its end (world.h;
 * locklab serve): moved to a true time, faults injected and ended on demand, its nodes read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worldint.h"

/* ---- a world driven from outside (world.h; locklab serve) ---- */

void world_advance(world *w, int64_t until)
{
    event e;
    while (sched_peek_time(w->cx.q) <= until && sched_pop(w->cx.q, w->cx.ch, &e)) {
        w->cx.now_us = e.time_us;
        w->events++;
        world_dispatch(w, &e);
    }
    if (until > w->cx.now_us) w->cx.now_us = until;
}

int64_t world_next_event(const world *w)
{
    return sched_peek_time(w->cx.q);
}

int world_inject(world *w, const fault_cfg *f)
{
    if (w->ninjected == w->capinjected) {
        w->capinjected = w->capinjected ? w->capinjected * 2 : 8;
        w->injected = xrealloc(w->injected, (size_t)w->capinjected * sizeof *w->injected);
    }
    fault_cfg *x = &w->injected[w->ninjected++];
    *x = *f;
    x->at_us = w->cx.now_us;
    int id = w->cx.sc->nfaults + w->ninjected - 1;
    world_fault_start(w, id);
    return id;
}

void world_end_fault(world *w, int id)
{
    world_fault_end(w, id);
}

int world_node_up(const world *w, int ni)
{
    return w->cu.nodes[ni].up;
}

int world_node_master(const world *w, int ni)
{
    const node *n = &w->cu.nodes[ni];
    return n->role == ROLE_MASTER ? -1 : n->master;
}

struct kserver *world_node_server(world *w, int ni)
{
    return w->cu.nodes[ni].up ? w->cu.nodes[ni].srv : NULL;
}

int64_t world_node_clock_us(const world *w, int ni)
{
    const lclock *c = &w->cu.nodes[ni].clock;
    double ms = c->base_ms + (double)(w->cx.now_us - c->base_true_us) * (1.0 + c->drift) / 1000.0;
    return (int64_t)floor(ms * 1000.0 + 1e-3);
}

uint64_t world_node_offset(const world *w, int ni)
{
    return w->cu.nodes[ni].repl_offset;
}

void world_node_ran(world *w, int ni)
{
    node_schedule_expiry(&w->cu, &w->cu.nodes[ni]);
}

hist_event *world_record(world *w, hist_kind kind, int actor)
{
    return history_add(w->cx.hist, w->cx.now_us, kind, actor, core_local(&w->cx, actor));
}

void world_forget(world *w)
{
    history_clear(w->cx.hist);
    chooser_forget(w->cx.ch);
}
