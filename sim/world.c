/* world.c — the simulation engine (see world.h): it builds the parts of a world, runs its
 * event loop, and injects the faults.
 *
 * The parts share a core (core.h: the time, the queue, the chooser, the history, the
 * clocks): the network (net.c: links, delays, loss, partitions), the nodes (node.c: servers,
 * persistence, replication, failover) and the clients (client_run.c: Lua coroutines running
 * their protocol models). Nodes and clients send through the net and push their own events;
 * the world hands every event to its part (dispatch) and is the only part that knows all
 * of them: nothing calls back into world.c.
 *
 * Faults are the world's: a crash, a restart, a GC pause, a clock jump or drift, a
 * partition, a lossy link, a forced failover, each at its time; while exploring, the
 * explorer's table of faults is offered at each new instant (explore_maybe_inject), and the
 * steps and decisions of the run are recorded for its reductions by steps.c (steps.h). */
#include "world.h"

#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "core.h"
#include "net.h"
#include "node.h"
#include "faults.h"
#include "kinds.h"
#include "worldint.h"


static void release_event(event *e)
{
    if (e->kind == EV_DELIVER) msg_free(e->data);
}

/* ---- faults (each kind's start, end and sentence: its file, faults.h) ---- */

/* A fault's start or end in the history: its kind, its id in the run and its parameters,
 * typed; and the sentence the trace shows. */
static hist_event *fault_note(world *w, const fault_cfg *f, int fi, hist_kind k, int target)
{
    hist_event *e = history_add(w->cx.hist, w->cx.now_us, k, target, core_local(&w->cx, target));
    e->fault = (int)f->kind;
    e->fault_id = fi;
    const fault_def *d = fault_def_of(f->kind);
    if (d->note) d->note(f, e);
    buf b;
    buf_init(&b);
    d->describe(f, &b);
    e->text = buf_steal(&b);
    return e;
}

/* Fault ids: the scenario's faults first, then those the explorer injected. */
static const fault_cfg *fault_by_id(const world *w, int fi)
{
    return fi < w->cx.sc->nfaults ? &w->cx.sc->faults[fi] : &w->injected[fi - w->cx.sc->nfaults];
}

void world_fault_start(world *w, int fi)
{
    const fault_cfg *f = fault_by_id(w, fi);
    const fault_def *d = fault_def_of(f->kind);
    int target = f->target ? core_actor(&w->cx, f->target) : -1;
    /* An explored fault may have landed earlier than the instant it is applied at, between
     * its target's last event and this one (explore_maybe_inject): nothing of the target
     * happened in between, so only what it schedules counts from its own instant. */
    int64_t early = f->at_us >= 0 && f->at_us < w->cx.now_us ? w->cx.now_us - f->at_us : 0;
    hist_event *e = fault_note(w, f, fi, H_FAULT, target);
    if (f->kind == FAULT_DRIFT && early > 0) e->since_us = w->cx.now_us - early;
    d->start(w, f, fi, target, early);
    /* its end; already due when it landed that much earlier: then at once, before anything
     * else happens now */
    if (f->duration_us >= 0 && !d->own_end) {
        if (early >= f->duration_us) world_fault_end(w, fi);
        else sched_push(w->cx.q, w->cx.now_us - early + f->duration_us, EV_FAULT_END, -1, (uint64_t)fi, NULL);
    }
}

void world_fault_end(world *w, int fi)
{
    const fault_cfg *f = fault_by_id(w, fi);
    const fault_def *d = fault_def_of(f->kind);
    int target = f->target ? core_actor(&w->cx, f->target) : -1;
    if (d->end) d->end(w, f, fi, target);
    fault_note(w, f, fi, H_FAULT_END, target);
}

/* ---- exploring: faults injected where the search (world_opts.search) says ---- */

/* The actor a fault happens at: its target; WORLD_KEY_ALL for a partition or a lossy link,
 * which change what every actor's messages do — but WORLD_KEY_CUT for a partition where no
 * node has a replica: then its start and end change nothing but what net_partitioned answers
 * (node_partitions_changed acts on masters with replicas only). */
static int fault_actor(const world *w, const fault_cfg *f)
{
    const fault_def *d = fault_def_of(f->kind);
    if (d->cuts) {
        int replicas = 0;
        for (int i = 0; i < w->cx.nnodes; i++) replicas |= w->cx.sc->nodes[i].master >= 0;
        if (!replicas) return WORLD_KEY_CUT;
    }
    if (d->everywhere) return WORLD_KEY_ALL;
    return f->target ? core_actor(&w->cx, f->target) : -1;
}

/* The actor an event happens at (a fault's: its target), or -1. */
static int event_actor(const world *w, const event *e)
{
    switch (e->kind) {
    case EV_DELIVER: return ((const msg *)e->data)->to;
    case EV_FAULT:
    case EV_FAULT_END: return fault_actor(w, fault_by_id(w, (int)e->gen));
    case EV_ROUTE: return WORLD_KEY_ALL;
    default: return e->actor;
    }
}

/* Marks in w->due the actors that have an event due at time t. */
static void mark_due(world *w, int64_t t)
{
    memset(w->due, 0, ((size_t)w->cx.nactors + 63) / 64 * sizeof *w->due);
    for (size_t i = 0;; i++) {
        const event *e = sched_at(w->cx.q, i);
        if (!e) break;
        if (e->time_us != t) continue;
        int k = steps_key(w, event_actor(w, e));
        if (k == WORLD_KEY_ALL || k == WORLD_KEY_CUT) memset(w->due, 0xff, ((size_t)w->cx.nactors + 63) / 64 * sizeof *w->due);
        else if (k >= 0) w->due[k / 64] |= 1ULL << (k % 64);
    }
}

int world_fault_tied_to_target(fault_kind k)
{
    return fault_def_of(k)->tied;
}

int world_fault_key(const world *w, const fault_cfg *f)
{
    return steps_key(w, fault_actor(w, f));
}

int world_fault_idle(const world *w, const fault_cfg *f)
{
    const fault_def *d = fault_def_of(f->kind);
    return d->idle && d->idle(w, f, fault_actor(w, f));
}

int world_key_due(const world *w, int key)
{
    return key >= 0 && (w->due[key / 64] >> (key % 64) & 1);
}

int world_key_late_seen(const world *w, int key)
{
    return key >= 0 && (w->late_seen[key / 64] >> (key % 64) & 1);
}

/* Injects option k - 1 (k > 0) now; st: the step its decision added, or -1. */
static void explore_inject(world *w, int64_t k, int st)
{
    if (w->ninjected == w->capinjected) {
        w->capinjected = w->capinjected ? w->capinjected * 2 : 4;
        w->injected = xrealloc(w->injected, (size_t)w->capinjected * sizeof *w->injected);
    }
    fault_cfg *f = &w->injected[w->ninjected];
    w->search->option(w->cx.sc, (int)k - 1, f);
    f->at_us = w->cx.now_us;
    const fault_def *d = fault_def_of(f->kind);
    if (d->place) d->place(f, w->cx.sc);
    /* Where in the gap before this instant it landed: anywhere after the last event that
     * its start could be ordered against (its target's; any actor's for a partition or a
     * lossy link). Landing earlier changes only when what it schedules falls (a restart,
     * the end of a pause or of a cut), so that is a window of its own, explored like a
     * delay's (model/reduce.c); a fault whose consequences do not move has none. A drift
     * landing earlier makes its target's clock read more (or less) from then on, and its
     * timers fire sooner (later): a window too (WDEC_DRIFT). */
    int64_t gap = w->cx.explore ? w->search->gap(w, f) : 0;
    if (gap > 0) {
        size_t di = steps_decisions_made(w);
        int64_t early = chooser_range(w->cx.ch, 0, gap, "fault instant");
        f->at_us = w->cx.now_us - early;
        if (st >= 0 && steps_decisions_made(w) == di + 1) {
            world_decision *x = steps_decision_at(w, di);
            x->kind = f->kind == FAULT_DRIFT ? WDEC_DRIFT : WDEC_SHIFT;
            x->step = st;
            x->unit_us = 1;
            x->t_us = w->cx.now_us;
            if (f->kind == FAULT_DRIFT) {
                x->rate = f->rate;
                x->target = world_fault_key(w, f);
            }
        }
    }
    w->ninjected++;
    w->faults_left--;
    if (st >= 0) steps_fault_begin(w, st); /* the fault's own step (added with its decision) handles it */
    size_t h0 = history_len(w->cx.hist);
    world_fault_start(w, w->cx.sc->nfaults + w->ninjected - 1);
    if (st >= 0) steps_fault_end(w, st, h0);
    sched_set_cause(w->cx.q, -1);
}

/* Called at each new instant while the budget lasts: the search may inject faults now, one
 * decision each, while the budget lasts (two faults in one gap of their target's are two
 * faults at the instant that ends it). Which options it offers is the search's
 * (world_search); the world marks which actors have an event due at the instant, records
 * each decision and its step, and applies the fault. */
static void explore_maybe_inject(world *w, int phase)
{
    const world_search *s = w->search;
    int nopts = s ? s->option(w->cx.sc, -1, NULL) : 0;
    if (nopts == 0) return;
    if (chooser_mode_of(w->cx.ch) != CHOOSER_EXPLORE) {
        int64_t k = s->random(w->cx.ch, nopts);
        if (k > 0) explore_inject(w, k, -1);
        return;
    }
    if (phase != WORLD_PHASE_HORIZON) mark_due(w, w->cx.now_us);
    uint64_t valid, offered = s->offered(w, nopts, phase, &valid);
    if (phase == WORLD_PHASE_LATE) {
        size_t nw = ((size_t)w->cx.nactors + 63) / 64;
        for (size_t i = 0; i < nw; i++) w->late_seen[i] |= w->due[i];
        w->late_open = s->late_open(w, nopts);
    }
    if (phase != WORLD_PHASE_BEFORE && offered == 1) return; /* nothing to decide */
    for (;;) {
        size_t di = steps_decisions_made(w);
        int64_t k = chooser_pick(w->cx.ch, 1 + nopts, "fault");
        world_decision *x = steps_decision_at(w, di);
        x->kind = WDEC_FAULT;
        x->t_us = w->cx.now_us;
        x->offered = offered;
        x->valid = valid;
        if (k > 0 && k < 64 && !(valid >> k & 1)) k = 0; /* changes nothing: the explorer never asks */
        if (k == 0) return;
        fault_cfg f;
        s->option(w->cx.sc, (int)k - 1, &f);
        int a = fault_actor(w, &f);
        x->target = steps_key(w, a);
        x->step = steps_add(w, w->cx.now_us, a, WORLD_CAUSE_INSTANT);
        explore_inject(w, k, w->cx.explore ? x->step : -1);
        if (w->faults_left <= 0) return;
        s->offered(w, nopts, phase, &valid); /* what the one just landed left to change */
    }
}

const fault_cfg *world_injected(const world *w, int *n)
{
    *n = w->ninjected;
    return w->injected;
}

/* ---- building and running ---- */

world *world_new(const scenario *sc, const world_opts *o, buf *err)
{
    world *w = xcalloc(1, sizeof *w);
    core *cx = &w->cx;
    cx->sc = sc;
    cx->verbose = o && o->verbose;
    w->max_events = o && o->max_events ? o->max_events : WORLD_MAX_EVENTS;
    w->stop = o ? o->stop : NULL;
    w->observe = o && o->observe ? o->observe : WORLD_OBSERVE_ALL;
    cx->explore = o && o->explore && sc->explore.present;
    cx->chunks = o ? o->chunks : NULL;
    w->faults_left = !cx->explore ? 0 : o->fault_budget > 0 && o->fault_budget < sc->explore.max_faults ? o->fault_budget : sc->explore.max_faults;
    w->last_instant = -1;
    w->own_chooser = !(o && o->chooser);
    cx->ch = w->own_chooser ? chooser_new(CHOOSER_RUN, o ? o->seed : sc->seed) : o->chooser;
    cx->q = sched_new();
    cx->hist = history_new();
    cx->nnodes = sc->nnodes;
    cx->nclients = sc->nclients;
    cx->nactors = cx->nnodes + cx->nclients;
    cx->clocks = xcalloc((size_t)cx->nactors + 1, sizeof *cx->clocks);
    steps_attach(w);
    cx->step = -1;
    cx->stale_by = CORE_NOT_STALE;
    w->due = xcalloc(((size_t)cx->nactors + 63) / 64 + 1, sizeof *w->due);
    w->late_seen = xcalloc(((size_t)cx->nactors + 63) / 64 + 1, sizeof *w->late_seen);
    w->late_open = 1;
    w->search = o ? o->search : NULL;
    for (int i = 0; i < cx->nnodes; i++) {
        int a = history_add_actor(cx->hist, sc->nodes[i].name, 1);
        history_set_actor_clock(cx->hist, a, sc->nodes[i].clock.offset_ms, sc->nodes[i].clock.drift);
    }
    for (int i = 0; i < cx->nclients; i++) {
        int a = history_add_actor(cx->hist, sc->clients[i].name, 0);
        history_set_actor_clock(cx->hist, a, sc->clients[i].clock.offset_ms, sc->clients[i].clock.drift);
    }
    w->net = net_new(cx, sc->nfaults + w->faults_left + (o ? o->extra_partitions : 0));
    /* the nodes run the kind the scenario names (the fake Redis by default) */
    const server_kind *kind = sc->server ? server_kind_find(sc->server) : NULL;
    w->cu.setup = o ? o->server_setup : NULL;
    w->cu.setup_ud = o ? o->server_setup_ud : NULL;
    cluster_init(&w->cu, cx, w->net, kind ? kind : server_kind_find("redis"));
    w->rt = clients_new(cx, w->net, &w->cu, o ? o->data_dir : NULL, o ? o->lib : NULL, err);
    if (!w->rt) {
        world_free(w);
        return NULL;
    }
    for (int i = 0; i < sc->nfaults; i++) sched_push(cx->q, sc->faults[i].at_us, EV_FAULT, -1, (uint64_t)i, NULL);
    return w;
}

void world_free(world *w)
{
    if (!w) return;
    sched_free(w->cx.q, release_event);
    clients_free(w->rt);
    cluster_release(&w->cu);
    net_free(w->net);
    for (int i = 0; i < w->ninjected; i++) {
        fault_cfg *f = &w->injected[i];
        scenario_free_groups(f->groups);
    }
    free(w->injected);
    steps_free(w);
    free(w->due);
    free(w->late_seen);
    free(w->cx.clocks);
    history_free(w->cx.hist);
    if (w->own_chooser) chooser_free(w->cx.ch);
    free(w);
}

void world_dispatch(world *w, event *e)
{
    switch (e->kind) {
    case EV_DELIVER: {
        msg *m = e->data;
        if (m->to < w->cx.nnodes) node_deliver(&w->cu, &w->cu.nodes[m->to], m);
        else if (client_deliver(w->rt, clients_at(w->rt, m->to - w->cx.nnodes), e)) return; /* held by a pause */
        msg_free(m);
        break;
    }
    case EV_CLIENT_START:
    case EV_TIMER:
    case EV_PAUSE_END:
    case EV_SPAWN:
        client_event(w->rt, clients_at(w->rt, e->actor - w->cx.nnodes), e);
        break;
    case EV_EXPIRE: node_on_expire(&w->cu, &w->cu.nodes[e->actor], e->gen); break;
    case EV_FAULT: world_fault_start(w, (int)e->gen); break;
    case EV_FAULT_END: world_fault_end(w, (int)e->gen); break;
    case EV_RESTART: node_restart(&w->cu, &w->cu.nodes[e->actor]); break;
    case EV_FSYNC: node_fsync(&w->cu, &w->cu.nodes[e->actor]); break;
    case EV_FAILOVER_CHECK: node_failover_check(&w->cu, &w->cu.nodes[e->actor], e->gen); break;
    case EV_ROUTE: clients_route(w->rt, (int)(e->gen >> 32), (int)(e->gen & 0xffffffff)); break;
    case EV_WAIT_TIMEOUT: node_wait_timeout(&w->cu, &w->cu.nodes[e->actor], e->gen); break;
    }
}

int world_run(world *w, buf *err)
{
    event e;
    int64_t horizon = w->cx.sc->explore.horizon_us > 0 ? w->cx.sc->explore.horizon_us : w->cx.sc->duration_us;
    for (;;) {
        if (w->stop && *w->stop) { /* a signal: one long run does not hold the command up */
            if (err) buf_puts(err, "the run was stopped");
            return WORLD_STOPPED;
        }
        int64_t next = sched_peek_time(w->cx.q);
        if (next == INT64_MAX) break;
        if (w->faults_left > 0 && next > w->last_instant && next <= horizon) {
            /* A new instant: the explorer may land a fault here, before anything else
             * happens at it (as a fault pinned at this time would). */
            w->cx.now_us = next;
            w->last_instant = next;
            explore_maybe_inject(w, WORLD_PHASE_BEFORE);
        } else if (w->faults_left > 0 && next > horizon && w->last_instant < horizon && w->cx.explore &&
                   horizon < w->cx.sc->duration_us) {
            /* The horizon itself is an instant (for the faults offered at every instant) */
            w->cx.now_us = horizon;
            w->last_instant = horizon;
            explore_maybe_inject(w, WORLD_PHASE_HORIZON);
            continue;
        } else if (w->faults_left > 0 && w->late_open && next > horizon && next > w->last_instant && w->cx.explore &&
                   next <= w->cx.sc->duration_us) {
            /* ... and one tied to its target lands before the target's first event past it */
            w->cx.now_us = next;
            w->last_instant = next;
            explore_maybe_inject(w, WORLD_PHASE_LATE);
        }
        size_t di = w->cx.explore ? steps_decisions_made(w) : 0;
        if (!sched_pop(w->cx.q, w->cx.ch, &e)) break;
        w->last_instant = e.time_us;
        if (e.time_us > w->cx.sc->duration_us) {
            release_event(&e);
            break;
        }
        w->cx.now_us = e.time_us;
        if (++w->events > w->max_events) {
            release_event(&e);
            if (err)
                buf_printf(err, "%s: the run passed %g million events at %.3fs of its %.3fs; a run that "
                           "long would not fit in memory: shorten its duration, or give fewer clients, "
                           "rounds or faults", w->cx.sc->path ? w->cx.sc->path : w->cx.sc->name,
                           (double)w->max_events / 1e6, (double)w->cx.now_us / 1e6, (double)w->cx.sc->duration_us / 1e6);
            return WORLD_TOO_LONG;
        }
        if (w->cx.explore) { /* the step it makes, for the search (steps.c) */
            int st = steps_event_begin(w, &e, event_actor(w, &e), di);
            size_t h0 = history_len(w->cx.hist);
            world_dispatch(w, &e);
            steps_event_end(w, st, h0);
        } else {
            world_dispatch(w, &e);
        }
        const char *failure = clients_failure(w->rt);
        if (failure) {
            if (err) buf_puts(err, failure);
            return -1;
        }
        if (clients_all_done(w->rt)) break;
    }
    return 0;
}

const history *world_history(const world *w)
{
    return w->cx.hist;
}

uint64_t world_events(const world *w)
{
    return w->events;
}

int64_t world_now(const world *w)
{
    return w->cx.now_us;
}

const scenario *world_scenario(const world *w)
{
    return w->cx.sc;
}
