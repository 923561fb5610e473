/* world.c — the simulation engine (see world.h).
 *
 * Actors are numbered nodes first, then clients; the history uses the same numbers. Every
 * interaction between actors is a message that travels over a link with a delay drawn by
 * the chooser, per-link FIFO (a message never overtakes an earlier one on the same link),
 * an optional loss probability, and the partitions in force at sending and at delivery.
 *
 * Nodes run commands atomically on delivery against their store, at their local time.
 * Clients are Lua coroutines that call the ctx API (client.c); a call that waits yields, and
 * the engine resumes the coroutine when its reply, message or timer arrives. A GC pause
 * holds every event addressed to the paused client and releases them, in order, at its end.
 */
#include "world.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "commands.h"
#include "sched.h"
#include "scriptlib.h"
#include "server.h"
#include "worldint.h"

/* ---- links and messages ---- */

static link_state *link_of(world *w, int from, int to)
{
    return &w->links[from * w->nactors + to];
}

void msg_free(msg *m)
{
    if (!m) return;
    free(m->argv);
    free(m->argbuf);
    free(m->label);
    reply_release(&m->r);
    free(m->key);
    if (m->val) obj_free(m->type, m->val);
    free(m);
}

static void release_event(event *e)
{
    if (e->kind == EV_DELIVER) msg_free(e->data);
}

/* Is the link between a and b cut by a partition in force now? An actor named in no group
 * of a partition keeps talking to everyone. */
int world_partitioned(const world *w, int a, int b)
{
    for (int i = 0; i < w->npartitions; i++) {
        const int *g = w->partitions[i].group_of;
        if (g[a] >= 0 && g[b] >= 0 && g[a] != g[b]) return 1;
    }
    return 0;
}

/* ---- what the explorer reads (world_steps, world_decisions) ---- */

/* The description of decision i, growing the table (OTHER by default). */
static world_decision *dec_at(world *w, size_t i)
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

static size_t decisions_made(const world *w)
{
    size_t n;
    chooser_record(w->ch, &n);
    return n;
}

/* The key of an actor (world_step.key): a node's is its shard's original master. */
static int actor_key(const world *w, int actor)
{
    if (actor < 0) return actor == WORLD_KEY_ALL ? WORLD_KEY_ALL : -1;
    return actor < w->nnodes ? w->nodes[actor].shard : actor;
}

static int add_step(world *w, int64_t t, int actor, int cause)
{
    if (w->nsteps == w->capsteps) {
        w->capsteps = w->capsteps ? w->capsteps * 2 : 256;
        w->steps = xrealloc(w->steps, (size_t)w->capsteps * sizeof *w->steps);
    }
    w->steps[w->nsteps] = (world_step){ t, actor, actor_key(w, actor), cause, actor >= w->nnodes };
    return w->nsteps++;
}

const world_step *world_steps(const world *w, int *n)
{
    *n = w->nsteps;
    return w->steps;
}

const world_decision *world_decisions(world *w, size_t *n)
{
    *n = decisions_made(w);
    if (*n) dec_at(w, *n - 1);
    return w->decs;
}

/* A message's delay. While exploring, a delay that is a decision is described to the
 * explorer, and the delivery it times is tagged with it. */
static int64_t draw_delay(world *w, const dist *d)
{
    size_t before = world_decisions_made(w);
    int64_t v = d->a, shift = 0;
    switch (d->kind) {
    case DIST_CONST: return d->a;
    case DIST_UNIFORM: v = chooser_range(w->ch, d->a, d->b, "delay"); shift = d->b - d->a; break;
    case DIST_EXP: v = chooser_exponential(w->ch, d->a, "delay"); shift = 2 * d->a - d->a / 2; break;
    }
    world_window_decision(w, before, shift);
    return v;
}

size_t world_decisions_made(const world *w)
{
    return w->explore ? decisions_made(w) : 0;
}

void world_window_decision(world *w, size_t before, int64_t shift)
{
    if (w->explore && decisions_made(w) == before + 1) {
        world_decision *x = dec_at(w, before);
        x->kind = WDEC_DELAY;
        x->shift = shift;
        sched_tag_next(w->q, (int)before);
    }
}

void world_send(world *w, msg *m)
{
    link_state *l = link_of(w, m->from, m->to);
    if (world_partitioned(w, m->from, m->to)) {
        world_note_drop(w, m, "partition");
        msg_free(m);
        return;
    }
    double loss = l->loss;
    if (loss > 0 && chooser_chance(w->ch, loss, "loss")) {
        world_note_drop(w, m, "loss");
        msg_free(m);
        return;
    }
    int64_t d = draw_delay(w, m->kind == MSG_REPL ? &w->sc->repl_lag : &l->delay);
    int64_t at = w->now + (d < 0 ? 0 : d);
    if (at < l->last_delivery) at = l->last_delivery; /* FIFO per link, like TCP */
    l->last_delivery = at;
    sched_push(w->q, at, EV_DELIVER, m->to, 0, m);
}

void world_note_drop(world *w, const msg *m, const char *why)
{
    hist_event *e = history_add(w->hist, w->now, H_DROP, m->from, world_local(w, m->from));
    e->peer = m->to;
    history_set_text(e, "%s %s lost (%s)", msg_kind_name(m->kind), m->label ? m->label : "", why);
}

const char *msg_kind_name(msg_kind k)
{
    switch (k) {
    case MSG_REQUEST: return "request";
    case MSG_REPLY: return "reply";
    case MSG_PUBSUB: return "message";
    case MSG_REPL: return "replication";
    }
    return "?";
}

int64_t world_local(const world *w, int actor)
{
    if (actor < 0) return w->now / 1000;
    if (actor < w->nnodes) return lclock_read(&w->nodes[actor].clock, w->now);
    return lclock_read(&w->clients[actor - w->nnodes].clock, w->now);
}

/* ---- faults ---- */

static void fault_note(world *w, const fault_cfg *f, hist_kind k, int target)
{
    hist_event *e = history_add(w->hist, w->now, k, target, world_local(w, target));
    buf b;
    buf_init(&b);
    world_describe_fault(w, f, &b);
    e->text = buf_steal(&b);
}

static int actor_index(const world *w, const char *name)
{
    int i = scenario_node_index(w->sc, name);
    if (i >= 0) return i;
    i = scenario_client_index(w->sc, name);
    return i >= 0 ? w->nnodes + i : -1;
}

static lclock *clock_of(world *w, int actor)
{
    return actor < w->nnodes ? &w->nodes[actor].clock : &w->clients[actor - w->nnodes].clock;
}

/* Fault ids: the scenario's faults first, then those the explorer injected. */
static const fault_cfg *fault_by_id(const world *w, int fi)
{
    return fi < w->sc->nfaults ? &w->sc->faults[fi] : &w->injected[fi - w->sc->nfaults];
}

static void fault_start(world *w, int fi)
{
    const fault_cfg *f = fault_by_id(w, fi);
    int target = f->target ? actor_index(w, f->target) : -1;
    fault_note(w, f, H_FAULT, target);
    switch (f->kind) {
    case FAULT_GC_PAUSE: client_pause(w, &w->clients[target - w->nnodes], f->duration); break;
    case FAULT_CRASH:
        if (target < w->nnodes) node_crash(w, &w->nodes[target]);
        else client_crash(w, &w->clients[target - w->nnodes]);
        break;
    case FAULT_RESTART: node_restart(w, &w->nodes[target]); break;
    case FAULT_CLOCK_JUMP:
        lclock_jump(clock_of(w, target), w->now, f->by_ms);
        if (target < w->nnodes) node_schedule_expiry(w, &w->nodes[target]);
        break;
    case FAULT_DRIFT:
        lclock_set_drift(clock_of(w, target), w->now, f->rate);
        if (target < w->nnodes) node_schedule_expiry(w, &w->nodes[target]);
        break;
    case FAULT_PARTITION: {
        partition *p = &w->partitions[w->npartitions++];
        p->fault = fi;
        p->group_of = xmalloc((size_t)w->nactors * sizeof *p->group_of);
        for (int a = 0; a < w->nactors; a++) p->group_of[a] = -1;
        for (int g = 0; g < f->ngroups; g++)
            for (char **nm = f->groups[g]; *nm; nm++) {
                int a = actor_index(w, *nm);
                if (a >= 0) p->group_of[a] = g;
            }
        nodes_partitions_changed(w);
        break;
    }
    case FAULT_FAILOVER: node_failover(w, &w->nodes[target], 1); break;
    case FAULT_DROP: {
        int a = actor_index(w, f->from);
        for (int b = 0; b < w->nactors; b++) {
            if (b == a || (f->to && b != actor_index(w, f->to))) continue;
            link_of(w, a, b)->loss = f->probability;
            link_of(w, b, a)->loss = f->probability;
        }
        break;
    }
    }
    if (f->kind == FAULT_CRASH && f->by_ms > 0 && target < w->nnodes)
        sched_push(w->q, w->now + f->by_ms * 1000, EV_RESTART, target, 0, NULL); /* explored restart delay */
    if (f->duration >= 0 && f->kind != FAULT_GC_PAUSE) sched_push(w->q, w->now + f->duration, EV_FAULT_END, -1, (uint64_t)fi, NULL);
}

static void fault_end(world *w, int fi)
{
    const fault_cfg *f = fault_by_id(w, fi);
    int target = f->target ? actor_index(w, f->target) : -1;
    switch (f->kind) {
    case FAULT_PARTITION:
        for (int i = 0; i < w->npartitions; i++) {
            if (w->partitions[i].fault != fi) continue;
            free(w->partitions[i].group_of);
            w->partitions[i] = w->partitions[--w->npartitions];
            break;
        }
        nodes_partitions_changed(w);
        break;
    case FAULT_DROP: {
        int a = actor_index(w, f->from);
        for (int b = 0; b < w->nactors; b++) {
            if (b == a || (f->to && b != actor_index(w, f->to))) continue;
            link_of(w, a, b)->loss = link_of(w, a, b)->base_loss;
            link_of(w, b, a)->loss = link_of(w, b, a)->base_loss;
        }
        break;
    }
    default: break;
    }
    fault_note(w, f, H_FAULT_END, target);
}

void world_describe_fault(const world *w, const fault_cfg *f, buf *out)
{
    (void)w;
    switch (f->kind) {
    case FAULT_GC_PAUSE: buf_printf(out, "GC pause of %s for %lld ms", f->target, (long long)(f->duration / 1000)); break;
    case FAULT_CRASH:
        buf_printf(out, "crash of %s", f->target);
        if (f->by_ms > 0) buf_printf(out, " (restarts after %lld ms)", (long long)f->by_ms);
        break;
    case FAULT_RESTART: buf_printf(out, "restart of %s", f->target); break;
    case FAULT_CLOCK_JUMP: buf_printf(out, "clock of %s jumps by %+lld ms", f->target, (long long)f->by_ms); break;
    case FAULT_DRIFT: buf_printf(out, "clock of %s drifts at %+g%%", f->target, f->rate * 100); break;
    case FAULT_PARTITION:
        buf_puts(out, "partition");
        for (int g = 0; g < f->ngroups; g++) {
            buf_puts(out, g ? " | " : " ");
            for (char **nm = f->groups[g]; *nm; nm++) buf_printf(out, "%s%s", nm == f->groups[g] ? "" : ",", *nm);
        }
        if (f->duration >= 0) buf_printf(out, " for %lld ms", (long long)(f->duration / 1000));
        break;
    case FAULT_FAILOVER: buf_printf(out, "failover of %s", f->target); break;
    case FAULT_DROP:
        if (f->to) buf_printf(out, "link %s-%s drops %g%% of messages", f->from, f->to, f->probability * 100);
        else buf_printf(out, "every link of %s drops %g%% of messages", f->from, f->probability * 100);
        if (f->duration >= 0) buf_printf(out, " for %lld ms", (long long)(f->duration / 1000));
        break;
    }
}

/* ---- exploring: faults injected where the chooser says ---- */

/* The actor a fault happens at: its target; WORLD_KEY_ALL for a partition or a lossy link,
 * which change what every actor's messages do. */
static int fault_actor(const world *w, const fault_cfg *f)
{
    if (f->kind == FAULT_PARTITION || f->kind == FAULT_DROP) return WORLD_KEY_ALL;
    return f->target ? actor_index(w, f->target) : -1;
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
    memset(w->due, 0, ((size_t)w->nactors + 63) / 64 * sizeof *w->due);
    for (size_t i = 0;; i++) {
        const event *e = sched_at(w->q, i);
        if (!e) break;
        if (e->time != t) continue;
        int k = actor_key(w, event_actor(w, e));
        if (k == WORLD_KEY_ALL) memset(w->due, 0xff, ((size_t)w->nactors + 63) / 64 * sizeof *w->due);
        else if (k >= 0) w->due[k / 64] |= 1ULL << (k % 64);
    }
}

/* The fault options of the explore table: kind × target × parameter. Option i is written
 * into *f (names borrowed from the scenario). Returns the number of options. */
static int explore_option(const world *w, int i, fault_cfg *f)
{
    const scenario *sc = w->sc;
    int64_t lease = sc->lease > 0 ? sc->lease : 30000000;
    int k = 0;
    for (int e = 0; e < sc->explore.nfaults; e++) {
        const explore_fault *ef = &sc->explore.faults[e];
        int nvals = ef->nparams > 0 ? ef->nparams : ef->nvalues > 0 ? ef->nvalues : 1;
        for (int t = 0; t < ef->ntargets; t++) {
            for (int v = 0; v < nvals; v++, k++) {
                if (k != i || !f) continue;
                memset(f, 0, sizeof *f);
                f->kind = ef->kind;
                f->target = ef->targets[t];
                f->duration = -1;
                int64_t p = ef->nparams > 0 ? ef->params[v] : INT64_MIN;
                int has_d = ef->nvalues > 0; /* a rate may be negative: no sentinel */
                double d = has_d ? ef->values[v] : 0;
                switch (ef->kind) {
                case FAULT_GC_PAUSE: f->duration = p != INT64_MIN ? p : lease + lease / 2; break;
                case FAULT_CRASH: f->by_ms = p != INT64_MIN ? p / 1000 : 0; break;
                case FAULT_CLOCK_JUMP: f->by_ms = p != INT64_MIN ? p / 1000 : 2 * lease / 1000; break;
                case FAULT_DRIFT: f->rate = has_d ? d : 0.1; break;
                case FAULT_DROP:
                    f->from = ef->targets[t];
                    f->target = NULL;
                    f->probability = has_d ? d : 1.0;
                    f->duration = 2 * lease;
                    break;
                case FAULT_PARTITION: f->duration = p != INT64_MIN ? p : 2 * lease; break;
                default: break;
                }
            }
        }
    }
    return k;
}

/* The options the search offers at this instant (bit 0: no fault), in EXPLORE mode. A
 * crash, pause, jump, partition or drop of X lands here only if X has an event due now:
 * between two events of X nothing of X changes, so landing it anywhere in between is the
 * same as landing it just before the next one — up to when its own consequences fall (a
 * restart, the end of a pause), which the explorer checks on the paths it runs and offers
 * the earlier instants it needs (model/explore.c). Drift and failover are offered at every
 * instant (a drift's effect grows with time), and so are partitions, lossy links and
 * failovers (they change what messages already in flight do). A crash of what is down and a
 * restart of what is up are never offered: they change nothing. At the horizon, everything
 * else is offered. */
static uint64_t offered_options(world *w, int nopts, int at_horizon, uint64_t *valid)
{
    *valid = UINT64_MAX;
    if (1 + nopts > 64) return UINT64_MAX;
    uint64_t m = 1;
    *valid = 1;
    fault_cfg f;
    for (int i = 0; i < nopts; i++) {
        explore_option(w, i, &f);
        int a = actor_key(w, fault_actor(w, &f));
        int prunable = f.kind == FAULT_CRASH || f.kind == FAULT_RESTART || f.kind == FAULT_GC_PAUSE ||
                       f.kind == FAULT_CLOCK_JUMP;
        int t = fault_actor(w, &f);
        /* crashing what is down, or restarting what is up, changes nothing */
        if (f.kind == FAULT_CRASH && t >= 0 && (t < w->nnodes ? !w->nodes[t].up : w->clients[t - w->nnodes].dead)) continue;
        if (f.kind == FAULT_RESTART && t >= 0 && t < w->nnodes && w->nodes[t].up) continue;
        *valid |= 1ULL << (i + 1);
        if (at_horizon || !prunable || a < 0 || (w->due[a / 64] >> (a % 64) & 1))
            m |= 1ULL << (i + 1);
    }
    return m;
}

/* Called at each new instant while the budget lasts: maybe inject one fault now. */
static void explore_maybe_inject(world *w, int at_horizon)
{
    int nopts = explore_option(w, -1, NULL);
    if (nopts == 0) return;
    int64_t k;
    if (chooser_mode_of(w->ch) == CHOOSER_EXPLORE) {
        if (!at_horizon) mark_due(w, w->now);
        size_t di = decisions_made(w);
        uint64_t valid, offered = offered_options(w, nopts, at_horizon, &valid);
        k = chooser_pick(w->ch, 1 + nopts, "fault");
        world_decision *x = dec_at(w, di);
        x->kind = WDEC_FAULT;
        x->t = w->now;
        x->offered = offered;
        x->valid = valid;
        if (k > 0 && k < 64 && !(valid >> k & 1)) k = 0; /* changes nothing: the explorer never asks */
        if (k > 0) {
            fault_cfg f;
            explore_option(w, (int)k - 1, &f);
            int a = fault_actor(w, &f);
            x->target = actor_key(w, a);
            x->step = add_step(w, w->now, a, WORLD_CAUSE_INSTANT);
        }
    } else {
        /* Random schedules: a fault at about one instant in twenty. */
        k = chooser_chance(w->ch, 0.05, "fault?") ? 1 + chooser_pick(w->ch, nopts, "fault") : 0;
    }
    if (k == 0) return;
    if (w->ninjected == w->capinjected) {
        w->capinjected = w->capinjected ? w->capinjected * 2 : 4;
        w->injected = xrealloc(w->injected, (size_t)w->capinjected * sizeof *w->injected);
    }
    fault_cfg *f = &w->injected[w->ninjected];
    explore_option(w, (int)k - 1, f);
    f->at = w->now;
    if (f->kind == FAULT_PARTITION) {
        f->groups = scenario_isolate_groups(w->sc, f->target);
        f->ngroups = 2;
    }
    w->ninjected++;
    w->faults_left--;
    if (w->explore && chooser_mode_of(w->ch) == CHOOSER_EXPLORE) sched_set_cause(w->q, w->nsteps - 1);
    fault_start(w, w->sc->nfaults + w->ninjected - 1);
    sched_set_cause(w->q, -1);
}

const fault_cfg *world_injected(const world *w, int *n)
{
    *n = w->ninjected;
    return w->injected;
}

/* ---- building and running ---- */

static void links_init(world *w)
{
    const scenario *sc = w->sc;
    w->links = xcalloc((size_t)w->nactors * (size_t)w->nactors, sizeof *w->links);
    for (int i = 0; i < w->nactors * w->nactors; i++) {
        w->links[i].delay = sc->delay;
        w->links[i].loss = w->links[i].base_loss = sc->loss;
    }
    for (int i = 0; i < sc->nlinks; i++) {
        const link_cfg *lc = &sc->links[i];
        int a = actor_index(w, lc->from), b = actor_index(w, lc->to);
        if (a < 0 || b < 0) continue;
        link_state *x = link_of(w, a, b), *y = link_of(w, b, a);
        x->delay = y->delay = lc->delay;
        x->loss = x->base_loss = y->loss = y->base_loss = lc->loss;
    }
}

world *world_new(const scenario *sc, const world_opts *o, buf *err)
{
    world *w = xcalloc(1, sizeof *w);
    w->sc = sc;
    w->verbose = o && o->verbose;
    w->max_events = o && o->max_events ? o->max_events : WORLD_MAX_EVENTS;
    w->explore = o && o->explore && sc->explore.present;
    w->shared_lib = o ? o->lib : NULL;
    w->chunks = o ? o->chunks : NULL;
    w->faults_left = w->explore ? sc->explore.max_faults : 0;
    w->last_instant = -1;
    w->own_chooser = !(o && o->chooser);
    w->ch = w->own_chooser ? chooser_new(CHOOSER_RUN, o ? o->seed : sc->seed) : o->chooser;
    w->q = sched_new();
    w->hist = history_new();
    w->nnodes = sc->nnodes;
    w->nclients = sc->nclients;
    w->nactors = w->nnodes + w->nclients;
    w->epoch_ms = WORLD_EPOCH_MS;
    w->nodes = xcalloc((size_t)w->nnodes, sizeof *w->nodes);
    w->clients = xcalloc((size_t)w->nclients, sizeof *w->clients);
    w->partitions = xcalloc((size_t)sc->nfaults + (size_t)w->faults_left + 1, sizeof *w->partitions);
    w->due = xcalloc(((size_t)w->nactors + 63) / 64 + 1, sizeof *w->due);
    for (int i = 0; i < w->nnodes; i++) history_add_actor(w->hist, sc->nodes[i].name, 1);
    for (int i = 0; i < w->nclients; i++) history_add_actor(w->hist, sc->clients[i].name, 0);
    links_init(w);
    for (int i = 0; i < w->nnodes; i++) {
        node *n = &w->nodes[i];
        const node_cfg *nc = &sc->nodes[i];
        n->w = w;
        n->idx = i;
        n->cfg = nc;
        n->up = 1;
        n->cut_since = -1;
        n->role = nc->master < 0 ? ROLE_MASTER : ROLE_REPLICA;
        n->master = nc->master;
        n->shard = nc->master < 0 ? i : nc->master;
        lclock_init(&n->clock, w->epoch_ms, nc->clock.offset_ms, nc->clock.drift);
        n->conns = xcalloc((size_t)w->nclients, sizeof *n->conns);
        n->subconns = xcalloc((size_t)w->nclients, sizeof *n->subconns);
        for (int c = 0; c < w->nclients; c++) {
            n->conns[c].id = (w->nnodes + c) * 2;
            n->subconns[c].id = (w->nnodes + c) * 2 + 1;
        }
        node_make_server(w, n);
        if (nc->persist == PERSIST_EVERYSEC) sched_push(w->q, 1000000, EV_FSYNC, i, 0, NULL);
    }
    if (clients_init(w, o ? o->data_dir : NULL, err) != 0) {
        world_free(w);
        return NULL;
    }
    for (int i = 0; i < sc->nfaults; i++) sched_push(w->q, sc->faults[i].at, EV_FAULT, -1, (uint64_t)i, NULL);
    return w;
}

void world_free(world *w)
{
    if (!w) return;
    sched_free(w->q, release_event);
    clients_release(w);
    for (int i = 0; i < w->nnodes; i++) {
        node *n = &w->nodes[i];
        server_free(n->srv);
        store_free(n->durable);
        free(n->conns);
        free(n->subconns);
    }
    for (int i = 0; i < w->npartitions; i++) free(w->partitions[i].group_of);
    for (int i = 0; i < w->ninjected; i++) {
        fault_cfg *f = &w->injected[i];
        scenario_free_groups(f->groups);
    }
    free(w->injected);
    free(w->steps);
    free(w->decs);
    free(w->due);
    free(w->partitions);
    free(w->nodes);
    free(w->clients);
    free(w->links);
    history_free(w->hist);
    if (w->own_chooser) chooser_free(w->ch);
    free(w->failure);
    free(w);
}

static void dispatch(world *w, event *e)
{
    switch (e->kind) {
    case EV_DELIVER: {
        msg *m = e->data;
        if (m->to < w->nnodes) node_deliver(w, &w->nodes[m->to], m);
        else if (client_deliver(w, &w->clients[m->to - w->nnodes], e)) return; /* held by a pause */
        msg_free(m);
        break;
    }
    case EV_CLIENT_START:
    case EV_TIMER:
    case EV_PAUSE_END:
    case EV_SPAWN:
        client_event(w, &w->clients[e->actor - w->nnodes], e);
        break;
    case EV_EXPIRE: node_on_expire(w, &w->nodes[e->actor], e->gen); break;
    case EV_FAULT: fault_start(w, (int)e->gen); break;
    case EV_FAULT_END: fault_end(w, (int)e->gen); break;
    case EV_RESTART: node_restart(w, &w->nodes[e->actor]); break;
    case EV_FSYNC: node_fsync(w, &w->nodes[e->actor]); break;
    case EV_FAILOVER_CHECK: node_failover_check(w, &w->nodes[e->actor], e->gen); break;
    case EV_ROUTE: clients_route(w, (int)(e->gen >> 32), (int)(e->gen & 0xffffffff)); break;
    }
}

int world_run(world *w, buf *err)
{
    event e;
    int64_t horizon = w->sc->explore.horizon > 0 ? w->sc->explore.horizon : w->sc->duration;
    for (;;) {
        int64_t next = sched_peek_time(w->q);
        if (next == INT64_MAX) break;
        if (w->faults_left > 0 && next > w->last_instant && next <= horizon) {
            /* A new instant: the explorer may land a fault here, before anything else
             * happens at it (as a fault pinned at this time would). */
            w->now = next;
            w->last_instant = next;
            explore_maybe_inject(w, 0);
        } else if (w->faults_left > 0 && next > horizon && w->last_instant < horizon && w->explore &&
                   horizon < w->sc->duration) {
            /* The horizon itself is an instant: a fault there acts on every actor's next
             * event beyond it. */
            w->now = horizon;
            w->last_instant = horizon;
            explore_maybe_inject(w, 1);
            continue;
        }
        if (!sched_pop(w->q, w->ch, &e)) break;
        w->last_instant = e.time;
        if (e.time > w->sc->duration) {
            release_event(&e);
            break;
        }
        w->now = e.time;
        if (++w->events > w->max_events) {
            release_event(&e);
            if (err)
                buf_printf(err, "%s: the run passed %g million events at %.3fs of its %.3fs; a run that "
                           "long would not fit in memory: shorten its duration, or give fewer clients, "
                           "rounds or faults", w->sc->path ? w->sc->path : w->sc->name,
                           (double)w->max_events / 1e6, (double)w->now / 1e6, (double)w->sc->duration / 1e6);
            return WORLD_TOO_LONG;
        }
        if (w->explore) {
            int st = add_step(w, e.time, event_actor(w, &e), e.cause);
            if (e.dec >= 0) dec_at(w, (size_t)e.dec)->step = st;
            sched_set_cause(w->q, st);
            dispatch(w, &e);
            sched_set_cause(w->q, -1);
        } else {
            dispatch(w, &e);
        }
        if (w->failed) {
            if (err) buf_puts(err, w->failure ? w->failure : "client model failed");
            return -1;
        }
        if (clients_all_done(w)) break;
    }
    return 0;
}

const history *world_history(const world *w)
{
    return w->hist;
}

uint64_t world_events(const world *w)
{
    return w->events;
}

int64_t world_now(const world *w)
{
    return w->now;
}
