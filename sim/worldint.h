/* worldint.h — what sim/world.c and sim/world_realtime.c share: the world itself, and the
 * handlers a world driven from outside calls. Not an API (world.h is). */
#ifndef LOCKLAB_WORLDINT_H
#define LOCKLAB_WORLDINT_H

#include "client.h"
#include "core.h"
#include "net.h"
#include "node.h"
#include "world.h"

struct world {
    core cx;               /* what the parts share: time, queue, chooser, history, clocks */
    net *net;
    cluster cu;            /* the nodes */
    clientrt *rt;          /* the clients and their Lua runtime */
    int own_chooser;
    uint64_t events;
    uint64_t max_events; /* world_opts.max_events or WORLD_MAX_EVENTS */
    volatile int *stop;  /* world_opts.stop */
    uint64_t observe;    /* world_opts.observe (never 0 here) */
    int faults_left;
    int64_t last_instant;  /* the last instant at which injection was considered */
    fault_cfg *injected;   /* the faults injected so far, in order */
    int ninjected, capinjected;
    /* exploring: what the explorer's reductions read (world_steps, world_decisions) */
    world_step *steps;
    int nsteps, capsteps;
    world_cmp *cmps;       /* clock comparisons (core_clock_compare) */
    int ncmps, capcmps;
    world_decision *decs;
    size_t ndecs, capdecs;
    int *hstep;            /* per history event: the step that made it (-1: none) */
    size_t nhstep, caphstep;
    uint64_t *due;         /* scratch: per actor, an event is due at the current instant */
    uint64_t *late_seen;   /* per actor: it has had an instant past the horizon (faults due at the
                              horizon land before its next event: explore_maybe_inject) */
    int late_open;         /* some target of a crash, pause or jump has not had that instant yet */
    const world_search *search; /* world_opts.search: which faults the search offers where */
};

/* Handles one event of the queue (its kind's part of the world). */
void world_dispatch(world *w, event *e);
/* The scenario's or an injected fault number id begins, or ends. */
void world_fault_start(world *w, int id);
void world_fault_end(world *w, int id);

#endif
