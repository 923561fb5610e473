/* explore.c — the model checker (see explore.h).
 *
 * Every path is a whole run built from scratch (a world is cheap to build). In exhaustive
 * mode the chooser follows a prefix of decisions and then takes each decision's first
 * alternative, recording how many alternatives each decision had; the next prefix bumps the
 * deepest decision (within max_depth) that has an untried alternative. Faults are decisions
 * too: at each new instant within the horizon, while the budget lasts, the world asks "no
 * fault, or which one?".
 *
 * A violation found is minimised by re-running a *pinned* scenario — the same scenario with
 * the injected faults written in at their instants and no explore table — under the same
 * remaining decisions: fewer faults, then each decision at its first alternative (shortest
 * delays, no drops, first in line), then shorter pauses and jumps, while it still violates
 * the same property. A fault pinned at instant t acts before anything else at t, exactly
 * where it was injected, so the pinned run replays the explored one. */
#include "explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chunkcache.h"
#include "dict.h"
#include "scriptlib.h"
#include "trace.h"
#include "world.h"

/* 16 bytes per distinct outcome in the visited set: 32 million is half a GiB. */
#define EXPLORE_MAX_OUTCOMES (32u << 20)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* progress and summary only: outside the simulation */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct xpath {
    int violated;          /* the first searched property violated, or -1 */
    check_result cr;
    choice *rec;
    size_t nrec;
    fault_cfg *inj;        /* copies; names borrowed from the scenario */
    int ninj;
    uint64_t events;
    uint64_t hash;         /* of the history: distinct outcomes */
    world_decision *decs;  /* per decision (exhaustive search only) */
    world_step *steps;
    int nsteps;
} xpath;

static void path_free(xpath *p)
{
    check_free(&p->cr);
    free(p->rec);
    free(p->inj);
    free(p->decs);
    free(p->steps);
    memset(p, 0, sizeof *p);
}

static uint64_t history_hash(const history *h)
{
    uint64_t acc = 1469598103934665603ULL;
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        int64_t v[5] = { e->t, e->kind, e->actor, e->a, e->b };
        acc = (acc ^ dict_hash(v, sizeof v)) * 1099511628211ULL;
    }
    return acc;
}

/* Runs sc once under ch; fills p. shared: what every world of the search shares (the
 * script index and the compiled-chunk cache, made once per search; borrowed).
 * Returns 0, or -1 with err on a model failure. */
static int run_path(const scenario *sc, chooser *ch, int explore, const int *searched, const world_opts *shared, xpath *p,
                    buf *err)
{
    memset(p, 0, sizeof *p);
    p->violated = -1;
    world_opts o = *shared;
    o.chooser = ch;
    o.explore = explore;
    world *w = world_new(sc, &o, err);
    if (!w) return -1;
    if (world_run(w, err) != 0) {
        world_free(w);
        return -1;
    }
    check_run(world_history(w), sc, &p->cr);
    for (int q = 0; q < PROP_COUNT; q++)
        if (searched[q] && p->cr.p[q].v == VERDICT_VIOLATED) {
            p->violated = q;
            break;
        }
    size_t n;
    const choice *rec = chooser_record(ch, &n);
    p->rec = xmalloc((n + 1) * sizeof *p->rec);
    memcpy(p->rec, rec, n * sizeof *rec);
    p->nrec = n;
    int ni;
    const fault_cfg *inj = world_injected(w, &ni);
    p->inj = xmalloc(((size_t)ni + 1) * sizeof *p->inj);
    for (int i = 0; i < ni; i++) {
        p->inj[i] = inj[i];
        p->inj[i].groups = NULL; /* rebuilt when pinned */
        p->inj[i].ngroups = 0;
    }
    p->ninj = ni;
    p->events = world_events(w);
    p->hash = history_hash(world_history(w));
    if (explore && chooser_mode_of(ch) == CHOOSER_EXPLORE) {
        size_t nd;
        const world_decision *d = world_decisions(w, &nd);
        p->decs = xmalloc((nd + 1) * sizeof *p->decs);
        if (nd) memcpy(p->decs, d, nd * sizeof *d);
        const world_step *st = world_steps(w, &p->nsteps);
        p->steps = xmalloc(((size_t)p->nsteps + 1) * sizeof *p->steps);
        if (p->nsteps) memcpy(p->steps, st, (size_t)p->nsteps * sizeof *st);
    }
    world_free(w);
    return 0;
}

static int is_fault_decision(const choice *c)
{
    return c->what && (!strcmp(c->what, "fault") || !strcmp(c->what, "fault?"));
}

/* ---- pinned scenarios ---- */

typedef struct pinned {
    scenario sc;           /* a shallow copy of the original, with faults replaced */
    fault_cfg *faults;     /* the original's, then the pinned ones (whose partition groups
                              are owned here) */
    int first_pinned;
} pinned;

static void pin(pinned *pn, const scenario *sc, const fault_cfg *f, int nf)
{
    pn->sc = *sc;
    pn->sc.explore.present = 0;
    int total = sc->nfaults + nf;
    pn->faults = xcalloc((size_t)total + 1, sizeof *pn->faults);
    pn->first_pinned = sc->nfaults;
    if (sc->nfaults) memcpy(pn->faults, sc->faults, (size_t)sc->nfaults * sizeof *pn->faults);
    for (int i = 0; i < nf; i++) {
        fault_cfg *x = &pn->faults[sc->nfaults + i];
        *x = f[i];
        x->groups = NULL;
        x->ngroups = 0;
        if (x->kind == FAULT_PARTITION) {
            x->groups = scenario_isolate_groups(sc, x->target);
            x->ngroups = 2;
        }
    }
    pn->sc.faults = pn->faults;
    pn->sc.nfaults = total;
}

static void unpin(pinned *pn)
{
    for (int i = pn->first_pinned; i < pn->sc.nfaults; i++) {
        scenario_free_groups(pn->faults[i].groups);
    }
    free(pn->faults);
}

/* Runs the pinned scenario under the given decisions (EXPLORE form: indices; first
 * alternatives after them). Returns the violated property or -1; *out (if given) keeps
 * the path. */
static int run_pinned(const scenario *sc, const fault_cfg *f, int nf, const choice *dec, size_t ndec,
                      const int *searched, const world_opts *shared, xpath *out, uint64_t *transitions)
{
    pinned pn;
    pin(&pn, sc, f, nf);
    chooser *ch = chooser_new(CHOOSER_EXPLORE, sc->seed);
    chooser_set_script(ch, dec, ndec);
    xpath p;
    buf err;
    buf_init(&err);
    int v = -1;
    if (run_path(&pn.sc, ch, 0, searched, shared, &p, &err) == 0) {
        v = p.violated;
        *transitions += p.events;
        if (out) *out = p;
        else path_free(&p);
    }
    buf_release(&err);
    chooser_free(ch);
    unpin(&pn);
    return v;
}

/* The decisions of a path other than the fault decisions (which pinning replaces). */
static choice *strip_faults(const choice *rec, size_t n, size_t *out_n)
{
    choice *v = xmalloc((n + 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_fault_decision(&rec[i])) v[k++] = rec[i];
    *out_n = k;
    return v;
}

static void minimise(const scenario *sc, const int *searched, const world_opts *shared, int prop, fault_cfg **faults, int *nf, choice **dec,
                     size_t *ndec, uint64_t *transitions)
{
    /* 1. Fewer faults. */
    for (int i = *nf - 1; i >= 0 && *nf > 1; i--) {
        fault_cfg *f = *faults;
        fault_cfg *fewer = xmalloc((size_t)*nf * sizeof *fewer);
        int k = 0;
        for (int j = 0; j < *nf; j++)
            if (j != i) fewer[k++] = f[j];
        if (run_pinned(sc, fewer, k, *dec, *ndec, searched, shared, NULL, transitions) == prop) {
            free(*faults);
            *faults = fewer;
            *nf = k;
        } else {
            free(fewer);
        }
    }
    /* 2. Each decision at its first alternative (shortest delay, no drop, first in line),
     *    from the last one back. */
    for (size_t i = *ndec; i-- > 0;) {
        if ((*dec)[i].value == 0) continue;
        int64_t was = (*dec)[i].value;
        (*dec)[i].value = 0;
        if (run_pinned(sc, *faults, *nf, *dec, *ndec, searched, shared, NULL, transitions) != prop) (*dec)[i].value = was;
    }
    /* 3. Shorter pauses and partitions, smaller clock jumps: halve while it still fails,
     *    down to 100 ms steps. */
    for (int i = 0; i < *nf; i++) {
        fault_cfg *f = &(*faults)[i];
        int64_t *knob = f->kind == FAULT_GC_PAUSE || f->kind == FAULT_PARTITION ? &f->duration : NULL;
        int64_t *jump = f->kind == FAULT_CLOCK_JUMP ? &f->by_ms : NULL;
        if (knob) {
            int64_t lo = 0, hi = *knob; /* hi fails, lo is assumed to pass */
            while (hi - lo > 100000) {
                int64_t mid = lo + (hi - lo) / 2;
                *knob = mid;
                if (run_pinned(sc, *faults, *nf, *dec, *ndec, searched, shared, NULL, transitions) == prop) hi = mid;
                else lo = mid;
            }
            *knob = hi;
        } else if (jump) {
            int64_t sign = *jump < 0 ? -1 : 1, lo = 0, hi = *jump * sign;
            while (hi - lo > 100) {
                int64_t mid = lo + (hi - lo) / 2;
                *jump = mid * sign;
                if (run_pinned(sc, *faults, *nf, *dec, *ndec, searched, shared, NULL, transitions) == prop) hi = mid;
                else lo = mid;
            }
            *jump = hi * sign;
        }
    }
    /* 4. The shortest prefix: trailing first alternatives are implied. */
    while (*ndec > 0 && (*dec)[*ndec - 1].value == 0) (*ndec)--;
}

static void choose_searched(const scenario *sc, int *searched)
{
    memset(searched, 0, PROP_COUNT * sizeof *searched);
    for (int i = 0; i < sc->nexpects; i++) {
        int p = property_from_name(sc->expects[i].property);
        if (p >= 0) searched[p] = 1;
    }
    int any = 0;
    for (int p = 0; p < PROP_COUNT; p++) any |= searched[p];
    if (!any) searched[PROP_MUTUAL_EXCLUSION] = searched[PROP_RESOURCE_SAFETY] = searched[PROP_RELEASE_SAFETY] =
        searched[PROP_NO_DEADLOCK] = 1;
}

/* A set of 64-bit hashes (distinct outcomes): open addressing, 8 bytes a slot. */
typedef struct hset {
    uint64_t *v;
    size_t cap, n;
} hset;

static void hset_add(hset *s, uint64_t h)
{
    if (h == 0) h = 1;
    if ((s->n + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 1024;
        uint64_t *nv = xcalloc(ncap, sizeof *nv);
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->v[i]) continue;
            size_t j = s->v[i] & (ncap - 1);
            while (nv[j]) j = (j + 1) & (ncap - 1);
            nv[j] = s->v[i];
        }
        free(s->v);
        s->v = nv;
        s->cap = ncap;
    }
    size_t j = h & (s->cap - 1);
    while (s->v[j]) {
        if (s->v[j] == h) return;
        j = (j + 1) & (s->cap - 1);
    }
    s->v[j] = h;
    s->n++;
}

/* ---- the reductions: which alternatives a path shows to be needed ----
 *
 * A step's *cone* is the step and everything its handling scheduled, transitively (a
 * message's delivery, the reply it sends, the timer the reply's handler sets, ...). When a
 * message arrives later by d, its cone moves later by d and nothing else moves, as long as
 * the order of the steps at every actor stays the same: then every actor sees the same
 * inputs in the same order, and the run is the same run with some timestamps moved. Clients'
 * steps are also compared across clients (the checker reads them on one true-time line).
 * The order changes exactly when some step outside the cone falls at most d after a cone
 * step at the same actor; that is when the late end of the window is explored. A fault
 * moved earlier by d moves its cone (its restart, the end of its pause) the same way. */

enum { KEY_OBSERVER_EXTRA = 1 };

typedef struct reducer {
    uint8_t *in;       /* cone membership, per step */
    int64_t *last;     /* per key: the last time seen */
    int cap, nkeys;
} reducer;

static void reducer_fit(reducer *r, int nsteps, int nkeys)
{
    if (nsteps > r->cap) {
        r->cap = nsteps * 2;
        r->in = xrealloc(r->in, (size_t)r->cap);
    }
    if (nkeys > r->nkeys) {
        r->last = xrealloc(r->last, (size_t)nkeys * sizeof *r->last);
        r->nkeys = nkeys;
    }
}

static void cone_of(const world_step *st, int n, int root, uint8_t *in)
{
    memset(in, 0, (size_t)n);
    in[root] = 1;
    for (int s = root + 1; s < n; s++) {
        int c = st[s].cause;
        if (c == WORLD_CAUSE_INSTANT) {
            /* an injected fault moves with the step that makes its instant */
            int s2 = s + 1;
            while (s2 < n && st[s2].cause == WORLD_CAUSE_INSTANT) s2++;
            int c2 = s2 < n ? st[s2].cause : -1;
            in[s] = s2 < n && c2 >= root && c2 < s && in[c2];
        } else {
            in[s] = c >= root && c < s && in[c];
        }
    }
}

/* The keys a step is compared under: its key (world_step), and the observer for a
 * client's. Returns how many (0: it touches no actor's state). */
static int step_keys(const world_step *x, int observer, int keys[2])
{
    if (x->key < 0) return 0;
    keys[0] = x->key;
    if (x->client) {
        keys[1] = observer;
        return 2;
    }
    return 1;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* Would moving the cone of root later by shift reorder the steps at some actor? A step that
 * touches every actor (WORLD_KEY_ALL) is compared with every other. */
static int cone_later_reorders(reducer *r, const world_step *st, int n, int root, int64_t shift, int observer)
{
    int64_t any = INT64_MIN, all = INT64_MIN; /* the last cone step anywhere; the last global one */
    for (int k = 0; k <= observer; k++) r->last[k] = INT64_MIN;
    for (int s = root; s < n; s++) {
        int64_t t = st[s].t;
        if (st[s].key == WORLD_KEY_ALL) {
            if (r->in[s]) all = any = t;
            else if (any != INT64_MIN && t - any <= shift) return 1;
            continue;
        }
        int keys[2], nk = step_keys(&st[s], observer, keys);
        for (int j = 0; j < nk; j++) {
            int64_t last = max64(r->last[keys[j]], all);
            if (r->in[s]) r->last[keys[j]] = any = t;
            else if (last != INT64_MIN && t - last <= shift) return 1;
        }
    }
    return 0;
}

/* The least amount by which moving the cone of root earlier reorders some actor's steps. */
static int64_t cone_earlier_slack(reducer *r, const world_step *st, int n, int root, int observer)
{
    int64_t slack = INT64_MAX, any = INT64_MIN, all = INT64_MIN; /* the last step outside the cone
                                                                     anywhere; the last global one */
    for (int k = 0; k <= observer; k++) r->last[k] = INT64_MIN;
    for (int s = 0; s < n; s++) {
        int64_t t = st[s].t;
        int cone = s >= root && r->in[s];
        if (st[s].key == WORLD_KEY_ALL) {
            if (!cone) all = any = t;
            else if (any != INT64_MIN && t - any < slack) slack = t - any;
            continue;
        }
        int keys[2], nk = step_keys(&st[s], observer, keys);
        for (int j = 0; j < nk; j++) {
            int64_t last = max64(r->last[keys[j]], all);
            if (!cone) r->last[keys[j]] = any = t;
            else if (last != INT64_MIN && t - last < slack) slack = t - last;
        }
    }
    return slack;
}

static int alt_enabled(uint64_t avail, int64_t u)
{
    return avail == UINT64_MAX || (u < 64 && (avail >> u & 1));
}

/* What a new decision offers before any path says more: a fault decision, what the world
 * offered at its instant; a delay, its first end (its later end only when a path shows it
 * reorders something, or with --delays extremes); anything else, every alternative. */
static uint64_t initial_avail(const world_decision *d, int extremes)
{
    switch (d->kind) {
    case WDEC_FAULT: return d->offered;
    case WDEC_DELAY: return extremes ? UINT64_MAX : 1;
    default: return UINT64_MAX;
    }
}

/* Reads path p and enables the alternatives it shows to be needed, anywhere on its stack. */
static void analyse(reducer *r, const xpath *p, uint64_t *avail, int observer, explore_result *res)
{
    reducer_fit(r, p->nsteps + 1, observer + 1);
    for (size_t i = 0; i < p->nrec; i++) {
        const world_decision *d = &p->decs[i];
        if (d->step < 0 || d->step >= p->nsteps) continue;
        if (d->kind == WDEC_DELAY && p->rec[i].value == 0 && avail[i] != UINT64_MAX && !(avail[i] & 2)) {
            cone_of(p->steps, p->nsteps, d->step, r->in);
            if (cone_later_reorders(r, p->steps, p->nsteps, d->step, d->shift, observer)) avail[i] = UINT64_MAX;
            else res->delays_abstracted = 1, res->pruned_delays++;
        } else if (d->kind == WDEC_FAULT && p->rec[i].value > 0) {
            /* The same fault at an earlier instant, after its target's last step before it:
             * the same run but for where its consequences fall. */
            int64_t v = p->rec[i].value, prev_t = INT64_MIN;
            for (int s = d->step - 1; s >= 0; s--)
                if (p->steps[s].key == d->target || p->steps[s].key == WORLD_KEY_ALL) {
                    prev_t = p->steps[s].t;
                    break;
                }
            cone_of(p->steps, p->nsteps, d->step, r->in);
            int64_t slack = cone_earlier_slack(r, p->steps, p->nsteps, d->step, observer);
            if (slack == INT64_MAX) continue;
            for (size_t j = i; j-- > 0;) {
                const world_decision *e = &p->decs[j];
                if (e->kind != WDEC_FAULT) continue;
                if (p->rec[j].value != 0 || e->t <= prev_t) break;
                if (d->t - e->t >= slack) {
                    if (!alt_enabled(avail[j], v) && alt_enabled(e->valid, v)) {
                        avail[j] |= 1ULL << v;
                        res->earlier_faults++;
                    }
                    break;
                }
            }
        }
    }
}

/* ---- the search ---- */

typedef struct search {
    const scenario *sc;
    const explore_opts *o;
    explore_result *r;
    world_opts shared;
    hset outcomes;
    reducer red;
    int observer;
    double t0, last_progress;
    int have_found;
    xpath found;
} search;

enum level_end { LEVEL_FOUND, LEVEL_COMPLETE, LEVEL_CUT, LEVEL_STOPPED, LEVEL_ERROR };

static int should_stop(search *S)
{
    const explore_opts *o = S->o;
    if (o->stop && *o->stop) return S->r->interrupted = 1;
    if (o->max_paths && S->r->paths >= o->max_paths) return 1;
    if (o->time_limit > 0 && now_s() - S->t0 >= o->time_limit) return S->r->timed_out = 1;
    if (S->outcomes.n >= EXPLORE_MAX_OUTCOMES) return S->r->memory_stop = 1;
    return 0;
}

/* Accounts for one path run; returns 1 when it violates a searched property (kept). */
static int account(search *S, xpath *p, int bound)
{
    explore_result *r = S->r;
    r->paths++;
    r->transitions += p->events;
    hset_add(&S->outcomes, p->hash);
    if ((int)p->nrec > r->max_depth_seen) r->max_depth_seen = (int)p->nrec;
    for (int q = 0; q < PROP_COUNT; q++)
        if (p->cr.p[q].v == VERDICT_VIOLATED) r->witnessed[q] = 1;
    if (S->o->progress && now_s() - S->last_progress > 0.25) {
        S->last_progress = now_s();
        S->o->progress(S->o->progress_ud, r->paths, r->transitions, bound, S->last_progress - S->t0);
    }
    if (p->violated >= 0) {
        S->found = *p;
        S->have_found = 1;
        memset(p, 0, sizeof *p);
        return 1;
    }
    return 0;
}

/* One depth-first search of every path with at most `bound` deviations (-1: any number):
 * each fault decision takes every alternative offered or shown needed; every other
 * decision's non-first alternative is a deviation. */
static enum level_end search_level(search *S, int bound, buf *err)
{
    const scenario *sc = S->sc;
    int max_depth = sc->explore.max_depth > 0 ? sc->explore.max_depth : INT32_MAX;
    choice *prefix = NULL;
    size_t nprefix = 0, capavail = 0;
    uint64_t *avail = NULL;
    int *dev = NULL;
    enum level_end end = LEVEL_COMPLETE;
    for (;;) {
        if (should_stop(S)) {
            end = LEVEL_STOPPED;
            break;
        }
        chooser *ch = chooser_new(CHOOSER_EXPLORE, sc->seed);
        chooser_set_script(ch, prefix, nprefix);
        xpath p;
        int rc = run_path(sc, ch, 1, S->r->searched, &S->shared, &p, err);
        chooser_free(ch);
        if (rc != 0) {
            end = LEVEL_ERROR;
            break;
        }
        if (account(S, &p, bound)) {
            end = LEVEL_FOUND;
            break;
        }
        if (p.nrec + 1 > capavail) {
            capavail = (p.nrec + 1) * 2;
            avail = xrealloc(avail, capavail * sizeof *avail);
            dev = xrealloc(dev, capavail * sizeof *dev);
        }
        for (size_t i = nprefix; i < p.nrec; i++) avail[i] = initial_avail(&p.decs[i], S->o->delays_extremes);
        analyse(&S->red, &p, avail, S->observer, S->r);
        /* deviations before each position */
        int d = 0;
        for (size_t i = 0; i < p.nrec; i++) {
            dev[i] = d;
            if (p.decs[i].kind != WDEC_FAULT && p.rec[i].value != 0) d++;
        }
        /* The next path: the deepest decision with an alternative still to take. */
        size_t k = p.nrec;
        int64_t next = -1;
        while (k > 0) {
            size_t i = k - 1;
            int64_t v = p.rec[i].value, n = p.rec[i].n;
            int fault = p.decs[i].kind == WDEC_FAULT;
            int64_t u = v + 1;
            while (u < n && !alt_enabled(avail[i], u)) u++;
            if (u < n) {
                if (!fault && (int)i >= max_depth) S->r->depth_cut = 1;
                else if (!fault && v == 0 && bound >= 0 && dev[i] + 1 > bound) end = LEVEL_CUT;
                else {
                    next = u;
                    break;
                }
            }
            k--;
        }
        if (next < 0) {
            path_free(&p);
            break;
        }
        free(prefix);
        prefix = xmalloc(k * sizeof *prefix);
        memcpy(prefix, p.rec, k * sizeof *prefix);
        prefix[k - 1].value = next;
        nprefix = k;
        path_free(&p);
    }
    free(prefix);
    free(avail);
    free(dev);
    return end;
}

int explore_run(const scenario *sc, const explore_opts *o, explore_result *r, buf *err)
{
    memset(r, 0, sizeof *r);
    r->deviations_exhausted = r->deviation_bound = -1;
    if (!sc->explore.present) {
        buf_printf(err, "%s: the scenario has no explore table: say which faults to search (see scenarios/README.md)",
                   sc->path ? sc->path : "scenario");
        return -1;
    }
    choose_searched(sc, r->searched);
    scriptlib *lib = scriptlib_load(NULL, err);
    if (!lib) return -1;
    search S = { .sc = sc, .o = o, .r = r, .observer = sc->nnodes + sc->nclients };
    S.shared = (world_opts){ .lib = lib, .chunks = chunkcache_new() };
    S.t0 = S.last_progress = now_s();
    int rc = 0;
    if (o->random_runs) {
        for (uint64_t iter = 0; iter < o->random_runs && !should_stop(&S); iter++) {
            uint64_t st = o->seed + iter;
            chooser *ch = chooser_new(CHOOSER_RUN, ll_splitmix64(&st));
            xpath p;
            rc = run_path(sc, ch, 1, r->searched, &S.shared, &p, err);
            chooser_free(ch);
            if (rc != 0) break;
            if (account(&S, &p, -1)) break;
            path_free(&p);
        }
    } else {
        /* Iterative deepening on deviations from the default schedule, unless a bound is
         * given: every fault placement at every level. */
        int fixed = o->max_deviations >= 0 ? o->max_deviations : sc->explore.max_deviations;
        for (int bound = fixed >= 0 ? fixed : 0;; bound++) {
            r->deviation_bound = bound;
            enum level_end end = search_level(&S, bound, err);
            if (end == LEVEL_ERROR) {
                rc = -1;
                break;
            }
            if (end == LEVEL_FOUND || end == LEVEL_STOPPED) break;
            r->deviations_exhausted = bound;
            if (end == LEVEL_COMPLETE || fixed >= 0) {
                r->complete = 1;
                if (end == LEVEL_COMPLETE) r->deviation_bound = -1; /* no bound was needed */
                break;
            }
        }
    }
    xpath found = S.found;
    int have_found = S.have_found;
    hset outcomes = S.outcomes;
    chunkcache *chunks = S.shared.chunks;
    world_opts shared = S.shared;
    free(S.red.in);
    free(S.red.last);
    if (rc == 0 && have_found) {
        /* Minimise, in the EXPLORE form of the decisions (indices). */
        size_t ndec;
        choice *dec = strip_faults(found.rec, found.nrec, &ndec);
        if (o->random_runs) {
            /* A random path's decisions are drawn values, not the EXPLORE form's indices:
             * minimise from the first alternatives, keeping its faults; if that loses the
             * violation, the path is reported as it was found. */
            for (size_t i = 0; i < ndec; i++) dec[i].value = 0;
        }
        fault_cfg *faults = xmalloc(((size_t)found.ninj + 1) * sizeof *faults);
        memcpy(faults, found.inj, (size_t)found.ninj * sizeof *faults);
        int nf = found.ninj;
        int prop = found.violated;
        if (run_pinned(sc, faults, nf, dec, ndec, r->searched, &shared, NULL, &r->transitions) == prop)
            minimise(sc, r->searched, &shared, prop, &faults, &nf, &dec, &ndec, &r->transitions);
        xpath fin;
        int v = run_pinned(sc, faults, nf, dec, ndec, r->searched, &shared, &fin, &r->transitions);
        r->found = 1;
        if (v == prop) {
            r->prop = (property)prop;
            r->evidence = fin.cr.p[prop].evidence ? xstrdup(fin.cr.p[prop].evidence) : NULL;
            /* The decisions in REPLAY form: what the simulation got. */
            r->choices = xmalloc((fin.nrec + 1) * sizeof *r->choices);
            for (size_t i = 0; i < fin.nrec; i++) {
                r->choices[i] = fin.rec[i];
                r->choices[i].value = fin.rec[i].real; /* REPLAY form: value and real agree */
            }
            r->nchoices = fin.nrec;
            path_free(&fin);
        } else {
            /* Minimisation could not reproduce it (a random path): report it unminimised. */
            if (v >= 0) path_free(&fin);
            r->prop = (property)prop;
            r->evidence = found.cr.p[prop].evidence ? xstrdup(found.cr.p[prop].evidence) : NULL;
            r->choices = xmalloc((found.nrec + 1) * sizeof *r->choices);
            size_t k = 0;
            for (size_t i = 0; i < found.nrec; i++)
                if (!is_fault_decision(&found.rec[i])) {
                    r->choices[k] = found.rec[i];
                    r->choices[k].value = found.rec[i].real;
                    k++;
                }
            r->nchoices = k;
            free(faults);
            faults = xmalloc(((size_t)found.ninj + 1) * sizeof *faults);
            memcpy(faults, found.inj, (size_t)found.ninj * sizeof *faults);
            nf = found.ninj;
        }
        r->faults = faults;
        r->nfaults = nf;
        free(dec);
        path_free(&found);
    }
    r->outcomes = outcomes.n;
    free(outcomes.v);
    scriptlib_free(lib);
    chunkcache_free(chunks);
    r->seconds = now_s() - S.t0;
    return rc;
}

void explore_result_free(explore_result *r)
{
    free(r->evidence);
    free(r->faults);
    free(r->choices);
    memset(r, 0, sizeof *r);
}

/* ---- writing the counter-example ---- */

static void put_us(buf *b, int64_t us)
{
    if (us % 1000 == 0) buf_printf(b, "\"%lldms\"", (long long)(us / 1000));
    else buf_printf(b, "\"%lldus\"", (long long)us);
}

static void put_fault(buf *b, const scenario *sc, const fault_cfg *f)
{
    switch (f->kind) {
    case FAULT_GC_PAUSE:
        buf_printf(b, "  { at = ");
        put_us(b, f->at);
        buf_printf(b, ", gc_pause = \"%s\", duration = ", f->target);
        put_us(b, f->duration);
        buf_puts(b, " },\n");
        break;
    case FAULT_CRASH:
        buf_puts(b, "  { at = ");
        put_us(b, f->at);
        buf_printf(b, ", crash = \"%s\" },\n", f->target);
        if (f->by_ms > 0) {
            buf_puts(b, "  { at = ");
            put_us(b, f->at + f->by_ms * 1000);
            buf_printf(b, ", restart = \"%s\" },\n", f->target);
        }
        break;
    case FAULT_RESTART:
    case FAULT_FAILOVER:
        buf_puts(b, "  { at = ");
        put_us(b, f->at);
        buf_printf(b, ", %s = \"%s\" },\n", f->kind == FAULT_RESTART ? "restart" : "failover", f->target);
        break;
    case FAULT_CLOCK_JUMP:
        buf_puts(b, "  { at = ");
        put_us(b, f->at);
        buf_printf(b, ", clock_jump = \"%s\", by = %lld },\n", f->target, (long long)f->by_ms);
        break;
    case FAULT_DRIFT:
        buf_puts(b, "  { at = ");
        put_us(b, f->at);
        buf_printf(b, ", drift = \"%s\", rate = %.17g },\n", f->target, f->rate);
        break;
    case FAULT_PARTITION:
        buf_puts(b, "  { at = ");
        put_us(b, f->at);
        buf_printf(b, ", partition = { { \"%s\" }, {", f->target);
        for (int i = 0; i < sc->nnodes; i++)
            if (strcmp(sc->nodes[i].name, f->target)) buf_printf(b, " \"%s\",", sc->nodes[i].name);
        for (int i = 0; i < sc->nclients; i++)
            if (strcmp(sc->clients[i].name, f->target)) buf_printf(b, " \"%s\",", sc->clients[i].name);
        buf_puts(b, " } }, duration = ");
        put_us(b, f->duration);
        buf_puts(b, " },\n");
        break;
    case FAULT_DROP: {
        const char *names[512];
        int n = 0;
        for (int i = 0; i < sc->nnodes && n < 512; i++) names[n++] = sc->nodes[i].name;
        for (int i = 0; i < sc->nclients && n < 512; i++) names[n++] = sc->clients[i].name;
        for (int i = 0; i < n; i++) {
            if (!strcmp(names[i], f->from) || (f->to && strcmp(names[i], f->to))) continue;
            buf_puts(b, "  { at = ");
            put_us(b, f->at);
            buf_printf(b, ", drop = { \"%s\", \"%s\" }, probability = %.17g", f->from, names[i], f->probability);
            if (f->duration >= 0) {
                buf_puts(b, ", duration = ");
                put_us(b, f->duration);
            }
            buf_puts(b, " },\n");
        }
        break;
    }
    }
}

static int write_atomic(const char *fpath, const buf *content, buf *err)
{
    return ll_write_file(fpath, content->p, content->len, err);
}

int explore_write_counterexample(const scenario *sc, const explore_result *r, const char *base, buf *err)
{
    buf src, file, fpath;
    buf_init(&src);
    buf_init(&file);
    buf_init(&fpath);
    FILE *in = sc->path ? fopen(sc->path, "rb") : NULL;
    if (!in) {
        buf_printf(err, "cannot read the scenario '%s' to wrap it", sc->path ? sc->path : "?");
        return -1;
    }
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, in)) > 0) buf_append(&src, tmp, n);
    fclose(in);
    const char *slash = strrchr(base, '/');
    buf_printf(&file,
               "-- A counter-example found and minimised by `locklab check %s`:\n"
               "-- %s is violated. Replay it exactly with\n"
               "--     locklab run %s.lua --choices %s.choices\n"
               "-- This file wraps the original scenario, pins the faults the search placed, and\n"
               "-- drops its explore table.\n"
               "local scenario = (function()\n",
               sc->path, property_name(r->prop), base, slash ? slash + 1 : base);
    buf_append(&file, src.p ? src.p : "", src.len);
    buf_puts(&file, "\nend)()\n");
    buf_puts(&file, "scenario.name = scenario.name .. \" (counter-example)\"\nscenario.explore = nil\n");
    buf_puts(&file, "scenario.faults = scenario.faults or {}\nlocal pinned = {\n");
    for (int i = 0; i < r->nfaults; i++) put_fault(&file, sc, &r->faults[i]);
    buf_puts(&file, "}\nfor i = 1, #pinned do scenario.faults[#scenario.faults + 1] = pinned[i] end\n");
    buf_printf(&file, "scenario.expect = { %s = \"violated\" }\nreturn scenario\n", property_name(r->prop));
    buf_printf(&fpath, "%s.lua", base);
    int rc = write_atomic(fpath.p, &file, err);
    if (rc == 0) {
        buf_reset(&file);
        buf_printf(&file, "# decisions of the counter-example for %s.lua (locklab run --choices)\n", base);
        chooser_write_list(r->choices, r->nchoices, &file);
        buf_reset(&fpath);
        buf_printf(&fpath, "%s.choices", base);
        rc = write_atomic(fpath.p, &file, err);
    }
    if (rc == 0) {
        /* The narrated trace of the replayed counter-example, beside it. */
        pinned pn;
        pin(&pn, sc, r->faults, r->nfaults);
        chooser *c = chooser_new(CHOOSER_REPLAY, sc->seed);
        chooser_set_script(c, r->choices, r->nchoices);
        world_opts o = { .chooser = c };
        buf werr;
        buf_init(&werr);
        world *w = world_new(&pn.sc, &o, &werr);
        if (w) {
            world_run(w, &werr);
            buf_reset(&file);
            buf_printf(&file, "== %s (counter-example)\n\n", sc->name);
            trace_render(world_history(w), TRACE_NORMAL, &file);
            buf_reset(&fpath);
            buf_printf(&fpath, "%s.txt", base);
            rc = write_atomic(fpath.p, &file, err);
            world_free(w);
        }
        buf_release(&werr);
        chooser_free(c);
        unpin(&pn);
    }
    buf_release(&src);
    buf_release(&file);
    buf_release(&fpath);
    return rc;
}
