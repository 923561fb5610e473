/* steps.c — what an exploring world records of its run for the model checker (steps.h):
 * each step (an event handled, an injected fault's start) with its actor, key, cause and
 * clock margins, the history events it made, the chooser's decisions as the world
 * describes them (a window, a fault, a shift, a tie) and the clock comparisons. The world
 * calls it around each step it handles (worldint.h: steps_event_begin and _end, and
 * steps_fault_* for a fault it injects); the core's hooks (a window, a reading, a
 * comparison) reach it through steps_attach. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worldint.h"

/* The description of decision i, growing the table (OTHER by default). */
world_decision *steps_decision_at(world *w, size_t i)
{
    if (i >= w->capdecs) {
        size_t cap = w->capdecs ? w->capdecs * 2 : 64;
        while (cap <= i) cap *= 2;
        w->decs = xrealloc(w->decs, cap * sizeof *w->decs);
        w->capdecs = cap;
    }
    while (w->ndecs <= i) w->decs[w->ndecs++] = (world_decision){ .kind = WDEC_OTHER, .step = -1, .target = -1 };
    return &w->decs[i];
}

uint64_t steps_seq_at(const world *w, int64_t t)
{
    int lo = 0, hi = w->nsteps; /* the first step at t or after: they are in time order */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (w->steps[mid].t_us < t) lo = mid + 1;
        else hi = mid;
    }
    return lo < w->nsteps ? w->steps[lo].made : sched_next_seq(w->cx.q);
}

size_t steps_decisions_made(const world *w)
{
    size_t n;
    chooser_record(w->cx.ch, &n);
    return n;
}

/* The key of an actor (world_step.key): a node's is its shard's original master. */
int steps_key(const world *w, int actor)
{
    if (actor < 0) return actor == WORLD_KEY_ALL || actor == WORLD_KEY_CUT ? actor : -1;
    return actor < w->cx.nnodes ? w->cu.nodes[actor].shard : actor;
}

/* How far a reading of clock c at true time t can move with the same whole-ms value. */
static void clock_margins(const lclock *c, int64_t t, world_step *x)
{
    int64_t ms = lclock_read(c, t);
    int64_t next = lclock_true_when(c, t, ms + 1);
    x->tick_us = next == INT64_MAX || next - t > INT32_MAX ? INT32_MAX : (int32_t)(next - t);
    /* back: the true µs since the clock began reading ms; at least 1 µs, never more than
     * the true length of one ms of that clock (a reading is moved to where it first differs) */
    double rate = 1 + c->drift;
    double exact = c->base_ms + (double)(t - c->base_true_us) * rate / 1000.0;
    x->read_ms = ms;
    x->read_us = (int64_t)floor(exact * 1000.0);
    double frac = exact - (double)ms;
    if (frac < 0) frac = 0;
    double b = rate > 0 ? frac * 1000.0 / rate : 1e9;
    x->back_us = b >= (double)INT32_MAX ? INT32_MAX : (int32_t)b + 1;
}

/* Did the history get, since event h0, an event the searched properties compare across
 * clients (world_opts.observe: a lock attempt and its outcome, a critical section's ends, a
 * write to the resource, a client's fault or end, ...)? Such a step is one of the checker's
 * observations (world_step.client). */
static int observed_since(const world *w, size_t h0)
{
    size_t n = history_len(w->cx.hist);
    for (size_t i = h0; i < n; i++) {
        const hist_event *e = history_at(w->cx.hist, i);
        if (e->kind < 0 || e->kind >= 64 || !(w->observe >> e->kind & 1)) continue;
        /* of the faults, the monitors read only a client's crash (it ends its critical
         * section: model/prop_mutual_exclusion.c); a pause or a jump of a client is no
         * observation (it changes only when that client's own steps come) */
        if ((e->kind == H_FAULT || e->kind == H_FAULT_END) && (e->actor < w->cx.nnodes || e->fault != FAULT_CRASH)) continue;
        return 1;
    }
    return 0;
}

/* The history events from h0 on were made by step st: notes it, and returns whether one of
 * them is an observation (observed_since). */
static int note_step_events(world *w, size_t h0, int st)
{
    size_t n = history_len(w->cx.hist);
    if (n > w->caphstep) {
        w->caphstep = n * 2 + 64;
        w->hstep = xrealloc(w->hstep, w->caphstep * sizeof *w->hstep);
    }
    for (size_t i = w->nhstep; i < n; i++) w->hstep[i] = i >= h0 ? st : -1;
    w->nhstep = n;
    return observed_since(w, h0);
}

const int *world_history_steps(const world *w, size_t *n)
{
    *n = w->nhstep;
    return w->hstep;
}

int steps_add(world *w, int64_t t, int actor, int cause)
{
    if (w->nsteps == w->capsteps) {
        w->capsteps = w->capsteps ? w->capsteps * 2 : 256;
        w->steps = xrealloc(w->steps, (size_t)w->capsteps * sizeof *w->steps);
    }
    world_step *x = &w->steps[w->nsteps];
    *x = (world_step){ .t_us = t, .actor = actor, .key = steps_key(w, actor), .cause = cause, .client = actor >= w->cx.nnodes,
                       .ev = STEP_FAULT, .stale_by = CORE_NOT_STALE, .also = -1, .qactor = -1,
                       .made = sched_next_seq(w->cx.q) };
    if (actor >= 0 && actor < w->cx.nactors && w->cx.clocks[actor]) clock_margins(w->cx.clocks[actor], t, x);
    return w->nsteps++;
}

/* Step st read a clock for a value while it was handled (core_clock_read): its margins are
 * its clock's whole ms (steps_add) either way; one read to the µs (a server's TIME) reads
 * anew every µs (world_step.clock says which). */
static void note_clock_read(world *w, int st)
{
    if (!w->cx.clock_read) return;
    w->steps[st].clock = w->cx.clock_read == CORE_READ_US ? WORLD_READ_US : WORLD_READ_MS;
}

const world_step *world_steps(const world *w, int *n)
{
    *n = w->nsteps;
    return w->steps;
}

const world_cmp *world_comparisons(const world *w, int *n)
{
    *n = w->ncmps;
    return w->cmps;
}

/* The core's hooks for clock readings: an earlier step's reading left its holder; the step
 * being handled compared a clock with an instant read at `origin`. */
static void mark_reading(void *ud, int step)
{
    world *w = ud;
    if (step >= 0 && step < w->nsteps) w->steps[step].clock = 1;
}

static void note_comparison(void *ud, int origin, int64_t margin, int before)
{
    world *w = ud;
    if (w->cx.step < 0) return;
    if (w->ncmps == w->capcmps) {
        w->capcmps = w->capcmps ? w->capcmps * 2 : 64;
        w->cmps = xrealloc(w->cmps, (size_t)w->capcmps * sizeof *w->cmps);
    }
    w->cmps[w->ncmps++] = (world_cmp){ .step = w->cx.step, .origin = origin, .margin_us = margin, .before = before };
}

const world_decision *world_decisions(world *w, size_t *n)
{
    *n = steps_decisions_made(w);
    if (*n) steps_decision_at(w, *n - 1);
    return w->decs;
}

/* The core's window hook: decision i is a delay of a message or a sleep, each alternative
 * `unit` µs later than the one before. */
static void describe_window(void *ud, size_t i, int64_t unit, int64_t held)
{
    world_decision *x = steps_decision_at(ud, i);
    x->kind = WDEC_DELAY;
    if (unit > 0) x->unit_us = unit;
    x->held_us = held;
}

/* The core's hooks, installed on the world's core. */
void steps_attach(world *w)
{
    w->cx.window = describe_window;
    w->cx.window_ud = w;
    w->cx.mark = mark_reading;
    w->cx.compare = note_comparison;
}

void steps_free(world *w)
{
    free(w->steps);
    free(w->cmps);
    free(w->decs);
    free(w->hstep);
}

/* The step record's name for an event's kind (steps.h's enum step_kind). */
static int step_kind_of(enum event_kind k)
{
    switch (k) {
    case EV_DELIVER: return STEP_DELIVER;
    case EV_CLIENT_START: return STEP_CLIENT_START;
    case EV_TIMER: return STEP_TIMER;
    case EV_PAUSE_END: return STEP_PAUSE_END;
    case EV_EXPIRE: return STEP_EXPIRE;
    case EV_FAULT: return STEP_SCHEDULED_FAULT;
    case EV_FAULT_END: return STEP_FAULT_END;
    case EV_RESTART: return STEP_RESTART;
    case EV_FSYNC: return STEP_FSYNC;
    case EV_FAILOVER_CHECK: return STEP_FAILOVER_CHECK;
    case EV_ROUTE: return STEP_ROUTE;
    case EV_SPAWN: return STEP_SPAWN;
    case EV_WAIT_TIMEOUT: return STEP_WAIT_TIMEOUT;
    }
    return STEP_FAULT;
}
int steps_event_begin(world *w, const event *e, int actor, size_t di)
{
    int st = steps_add(w, e->time_us, actor, e->cause);
    w->steps[st].ev = step_kind_of(e->kind);
    w->steps[st].qactor = e->actor;
    w->steps[st].seq = e->seq;
    if (sched_last_tie(w->cx.q) > 1 && steps_decisions_made(w) == di + 1) {
        world_decision *d = steps_decision_at(w, di);
        d->tie = sched_last_tie(w->cx.q);
        d->step = st;
        d->t_us = e->time_us;
    }
    if (e->dec >= 0) steps_decision_at(w, (size_t)e->dec)->step = st;
    if (e->kind == EV_DELIVER) {
        const msg *m = e->data;
        if (m->held_dec >= 0 && (size_t)m->held_dec < w->ndecs) w->steps[st].also = w->decs[m->held_dec].step;
    }
    sched_set_cause(w->cx.q, st);
    w->cx.clock_read = 0;
    w->cx.stale_by = CORE_NOT_STALE;
    w->cx.inert = 0;
    w->cx.cut_read = 0;
    w->cx.step = st;
    return st;
}

void steps_event_end(world *w, int st, size_t h0)
{
    w->steps[st].client = note_step_events(w, h0, st);
    w->steps[st].stale_by = w->cx.stale_by;
    w->steps[st].inert = w->cx.inert;
    w->steps[st].cut = w->cx.cut_read;
    note_clock_read(w, st);
    w->cx.step = -1;
    sched_set_cause(w->cx.q, -1);
}

void steps_fault_begin(world *w, int st)
{
    sched_set_cause(w->cx.q, st);
    w->cx.step = st;
    w->cx.clock_read = 0;
}

void steps_fault_end(world *w, int st, size_t h0)
{
    w->steps[st].client = note_step_events(w, h0, st);
    note_clock_read(w, st);
    w->cx.step = -1;
}
