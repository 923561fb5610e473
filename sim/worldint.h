/* worldint.h — what sim/world.c, sim/world_realtime.c and sim/steps.c share: the world
 * itself, the handlers a world driven from outside calls, and the step recorder's side the
 * world calls while exploring. Not an API (world.h and steps.h are). */
#ifndef LOCKLAB_WORLDINT_H
#define LOCKLAB_WORLDINT_H

#include "client.h"
#include "core.h"
#include "net.h"
#include "node.h"
#include "steps.h"
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
    /* exploring: what the explorer's reductions read (steps.h, written by steps.c) */
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

/* ---- recording the steps while exploring (steps.c) ---- */
/* Installs the core's hooks (a window described, a reading marked, a comparison noted). */
void steps_attach(world *w);
void steps_free(world *w);
/* A new step at true time t, at the actor (-1: none; WORLD_KEY_ALL: every actor), caused by
 * step `cause` (or WORLD_CAUSE_INSTANT): its index. */
int steps_add(world *w, int64_t t, int actor, int cause);
/* The key of an actor (world_step.key): a node's is its shard's original master. */
int steps_key(const world *w, int actor);
/* The chooser's record length, and the description of decision i (OTHER by default). */
size_t steps_decisions_made(const world *w);
/* The queue's sequence number as it was at true time t (the first step handled at t or after
 * began there; the next one now if none): what an event pushed at t would have had
 * (sched_push_since). Steps are kept only in an exploring world: elsewhere, the next one. */
uint64_t steps_seq_at(const world *w, int64_t t);
world_decision *steps_decision_at(world *w, size_t i);
/* Around the handling of event e at actor (its step; di: the decisions made before it was
 * popped): begin adds and opens the step, end notes what it made (history events from h0 on,
 * a clock read, nothing changed, a stale wait) and closes it. */
int steps_event_begin(world *w, const event *e, int actor, size_t di);
void steps_event_end(world *w, int st, size_t h0);
/* The same around an injected fault's start, at step st (added with its decision). */
void steps_fault_begin(world *w, int st);
void steps_fault_end(world *w, int st, size_t h0);

#endif
