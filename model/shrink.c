/* shrink.c — the minimiser, and the pinned scenario a counter-example replays (its files
 * are written by the command line: cli/counterexample.c).
 *
 * A violation found is minimised by re-running a *pinned* scenario — the same scenario with
 * the injected faults written in at their instants and no explore table — under the same
 * remaining decisions: fewer faults, then each decision at its first alternative (shortest
 * delays, no drops, first in line), then shorter pauses and jumps (among the explore table's
 * values only: a counter-example stays within the scenario's bounds), then each fault as early
 * as it still works, then the whole run as short as it still shows the violation — each step
 * kept only while it still violates the same property. A fault pinned at instant t acts
 * before anything else at t, exactly where it was injected, so the pinned run replays the
 * explored one. The earlier instants and the shorter run are found by bisection (to the
 * millisecond, and to 100 ms), so they are earlier and shorter, not always the earliest and
 * shortest there is. A stop request (explore_minimise_hook: Ctrl-C), or a script of a model
 * ended by it or by --time (guard.h), makes every further step fail without running, so the
 * minimising ends after the run in progress with the smallest counter-example found by then,
 * which is confirmed by one run and written as usual. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunkcache.h"
#include "exploreint.h"
#include "faults.h"
#include "scriptlib.h"
#include "guard.h"

static void (*hook_minimising)(void *ud);
static void *hook_ud;
static volatile int *hook_stop;

void explore_minimise_hook(void (*minimising)(void *ud), void *ud, volatile int *stop)
{
    hook_minimising = minimising, hook_ud = ud, hook_stop = stop;
}

/* ---- pinned scenarios ---- */

typedef struct pinned {
    scenario sc;           /* a shallow copy of the original, with faults replaced */
    fault_cfg *faults;     /* the original's, then the pinned ones (whose partition groups
                              are owned here) */
    int first_pinned;
} pinned;

/* The scenario with the faults f pinned, as the counter-example's file pins them
 * (cli/counterexample.c): a crash of a node that restarts after restart_after_ms is a crash
 * and a restart fault at at + restart_after_ms. Both forms restart the node then, but an injected crash's
 * restart is the node's own event, ordered against others at its instant by a "simultaneous
 * events" decision, while a pinned restart acts before anything else at its instant (sim/
 * sched.c): a path minimised or recorded with the first form left a decision that the file's
 * run never makes, and its choice list did not replay (issue 33). So every run here is of
 * the file's form. */
/* A crash of a node that restarts by itself (a client's crash has no restart). */
static int restarts(const scenario *sc, const fault_cfg *f)
{
    return f->kind == FAULT_CRASH && f->restart_after_ms > 0 && f->target && scenario_node_index(sc, f->target) >= 0;
}

static void pin(pinned *pn, const scenario *sc, const fault_cfg *f, int nf)
{
    pn->sc = *sc;
    pn->sc.explore.present = 0;
    int total = sc->nfaults + nf;
    for (int i = 0; i < nf; i++) total += restarts(sc, &f[i]);
    pn->faults = xcalloc((size_t)total + 1, sizeof *pn->faults);
    pn->first_pinned = sc->nfaults;
    if (sc->nfaults) memcpy(pn->faults, sc->faults, (size_t)sc->nfaults * sizeof *pn->faults);
    int k = sc->nfaults;
    for (int i = 0; i < nf; i++) {
        fault_cfg *x = &pn->faults[k++];
        *x = f[i];
        x->groups = NULL;
        x->ngroups = 0;
        const fault_def *d = fault_def_of(x->kind);
        if (d->place) d->place(x, sc);
        if (restarts(sc, x) && x->at_us + x->restart_after_ms * 1000 > sc->duration_us) {
            x->restart_after_ms = 0; /* past the run's end: never reached, and no fault a file may pin */
        } else if (restarts(sc, x)) {
            fault_cfg *r = &pn->faults[k++];
            memset(r, 0, sizeof *r);
            r->kind = FAULT_RESTART;
            r->target = x->target;
            r->at_us = x->at_us + x->restart_after_ms * 1000;
            r->duration_us = -1;
            x->restart_after_ms = 0;
        }
    }
    pn->sc.faults = pn->faults;
    pn->sc.nfaults = k;
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
static int run_pinned_as(chooser_mode mode, const scenario *sc, const fault_cfg *f, int nf, const choice *dec,
                         size_t ndec, const int *searched, const world_opts *shared, xpath *out, uint64_t *transitions)
{
    pinned pn;
    pin(&pn, sc, f, nf);
    chooser *ch = chooser_new(mode, sc->seed);
    chooser_set_script(ch, dec, ndec);
    xpath p;
    buf err;
    buf_init(&err);
    int v = -1;
    if (search_run_path(&pn.sc, ch, 0, searched, shared, &p, &err) == 0) {
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

/* Whether the minimising is to stop: a stop was requested, or a script a run made was ended
 * by the stop or --time (guard.h), so the runs no longer show what the model does. */
static int stopping(void)
{
    return (hook_stop && *hook_stop) || guard_cut();
}

/* A step of the minimising: no run, and no violation, once it is stopping. */
static int run_pinned(const scenario *sc, const fault_cfg *f, int nf, const choice *dec, size_t ndec,
                      const int *searched, const world_opts *shared, xpath *out, uint64_t *transitions)
{
    if (stopping()) return -1;
    return run_pinned_as(CHOOSER_EXPLORE, sc, f, nf, dec, ndec, searched, shared, out, transitions);
}

/* The decisions of a path other than the fault decisions (which pinning replaces). */
static choice *strip_faults(const choice *rec, size_t n, size_t *out_n)
{
    choice *v = xmalloc((n + 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!search_is_fault_decision(&rec[i])) v[k++] = rec[i];
    *out_n = k;
    return v;
}

/* Bisects *knob between lo (assumed not to violate) and its value (violates) down to step,
 * keeping the smallest value found that still violates prop. */
static void bisect_down(scenario *sc, const int *searched, const world_opts *shared, int prop, fault_cfg *faults,
                        int nf, const choice *dec, size_t ndec, uint64_t *transitions, int64_t *knob, int64_t lo,
                        int64_t step)
{
    int64_t hi = *knob;
    while (hi - lo > step) {
        int64_t mid = lo + (hi - lo) / 2;
        mid -= mid % step;
        if (mid <= lo) mid = lo + step;
        if (mid >= hi) break;
        *knob = mid;
        if (run_pinned(sc, faults, nf, dec, ndec, searched, shared, NULL, transitions) == prop) hi = mid;
        else lo = mid;
    }
    *knob = hi;
}

/* The values the explore table allows for f's parameter (a pause's or partition's length in
 * µs, a clock jump in ms): those of every entry of f's kind that names f's target, by growing
 * magnitude, at most max. An entry without params allows its default only
 * (model/fault_search.c), which f already has: none is listed. */
static int table_values(const scenario *sc, const fault_cfg *f, int64_t *out, int max)
{
    int n = 0;
    for (int e = 0; e < sc->explore.nfaults; e++) {
        const explore_fault *ef = &sc->explore.faults[e];
        if (ef->kind != f->kind) continue;
        int named = 0;
        for (int t = 0; t < ef->ntargets; t++) named |= f->target && !strcmp(ef->targets[t], f->target);
        if (!named) continue;
        for (int v = 0; v < ef->nparams && n < max; v++) {
            int64_t x = f->kind == FAULT_CLOCK_JUMP ? ef->params_us[v] / 1000 : ef->params_us[v];
            int dup = 0;
            for (int k = 0; k < n; k++) dup |= out[k] == x;
            if (!dup) out[n++] = x;
        }
    }
    for (int i = 1; i < n; i++) /* by magnitude (llabs without overflow worries: |x| < 2^62) */
        for (int j = i; j > 0 && (out[j] < 0 ? -out[j] : out[j]) < (out[j - 1] < 0 ? -out[j - 1] : out[j - 1]); j--) {
            int64_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* v is a smaller value of the same knob than was: same sign, smaller magnitude, not 0. */
static int smaller_same_sign(int64_t v, int64_t was)
{
    if (v == 0 || (v < 0) != (was < 0)) return 0;
    return v < 0 ? v > was : v < was;
}

static void minimise(scenario *sc, const int *searched, const world_opts *shared, int prop, fault_cfg **faults, int *nf, choice **dec,
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
    /* 3. Shorter pauses and partitions, smaller clock jumps: the smallest of the explore
     *    table's values for the fault's kind and target that still fails. Only those: a
     *    counter-example stays inside the bounds the scenario declared (a 1 s pause is not
     *    shortened to 562.5 ms when 1 s is the table's only length). */
    for (int i = 0; i < *nf; i++) {
        fault_cfg *f = &(*faults)[i];
        int64_t *knob = f->kind == FAULT_GC_PAUSE || f->kind == FAULT_PARTITION ? &f->duration_us
                        : f->kind == FAULT_CLOCK_JUMP                            ? &f->jump_ms
                                                                                 : NULL;
        if (!knob) continue;
        int64_t vals[64];
        int nv = table_values(sc, f, vals, 64);
        int64_t was = *knob;
        for (int v = 0; v < nv; v++) { /* by growing magnitude: the first that fails is the least */
            if (!smaller_same_sign(vals[v], was)) continue;
            *knob = vals[v];
            if (run_pinned(sc, *faults, *nf, *dec, *ndec, searched, shared, NULL, transitions) == prop) break;
            *knob = was;
        }
    }
    /* 4. Each fault as early as it still works (to the ms): at 0 if it does there, else by
     *    bisection between 0 and its instant. */
    for (int i = 0; i < *nf; i++) {
        int64_t *at = &(*faults)[i].at_us, was = *at;
        if (was <= 0) continue;
        *at = 0;
        if (run_pinned(sc, *faults, *nf, *dec, *ndec, searched, shared, NULL, transitions) == prop) continue;
        *at = was;
        bisect_down(sc, searched, shared, prop, *faults, *nf, *dec, *ndec, transitions, at, 0, 1000);
    }
    /* 5. The run as short as it still shows the violation (to 100 ms), but not shorter than
     *    its last pinned fault (a restart included): the file's faults must come within its
     *    duration, or it does not load. */
    int64_t last = 0;
    for (int i = 0; i < *nf; i++) {
        const fault_cfg *f = &(*faults)[i];
        int64_t end = restarts(sc, f) ? f->at_us + f->restart_after_ms * 1000 : f->at_us;
        if (end > last) last = end;
    }
    if (last < sc->duration_us)
        bisect_down(sc, searched, shared, prop, *faults, *nf, *dec, *ndec, transitions, &sc->duration_us, last, 100000);
    /* 6. The shortest prefix: trailing first alternatives are implied. */
    while (*ndec > 0 && (*dec)[*ndec - 1].value == 0) (*ndec)--;
}

void shrink_found(const scenario *sc, int random, const world_opts *shared_in, xpath *found_in, explore_result *r)
{
    world_opts shared = *shared_in;
    xpath found = *found_in;
    memset(found_in, 0, sizeof *found_in);
        /* Minimise, in the EXPLORE form of the decisions (indices). */
        size_t ndec;
        choice *dec = strip_faults(found.rec, found.nrec, &ndec);
        if (random) {
            /* A random path's decisions are drawn values, not the EXPLORE form's indices:
             * minimise from the first alternatives, keeping its faults; if that loses the
             * violation, the path is reported as it was found. */
            for (size_t i = 0; i < ndec; i++) dec[i].value = 0;
        }
        fault_cfg *faults = xmalloc(((size_t)found.ninj + 1) * sizeof *faults);
        memcpy(faults, found.inj, (size_t)found.ninj * sizeof *faults);
        int nf = found.ninj;
        int prop = found.violated;
        /* what the search hands over: a path that violates a property, with its evidence */
        LL_ASSERT(prop >= 0 && prop < PROP_COUNT && found.cr.p[prop].v == VERDICT_VIOLATED);
        scenario shorter = *sc; /* minimising may shorten its duration */
        if (hook_minimising) hook_minimising(hook_ud);
        if (run_pinned(sc, faults, nf, dec, ndec, r->searched, &shared, NULL, &r->transitions) == prop)
            minimise(&shorter, r->searched, &shared, prop, &faults, &nf, &dec, &ndec, &r->transitions);
        /* minimising only ever takes away: no more faults, no longer a run */
        LL_ASSERT(nf <= found.ninj && shorter.duration_us <= sc->duration_us);
        r->minimise_stopped = stopping();
        xpath fin;
        int v = run_pinned_as(CHOOSER_EXPLORE, &shorter, faults, nf, dec, ndec, r->searched, &shared, &fin, &r->transitions);
        r->duration_us = v == prop ? shorter.duration_us : sc->duration_us;
        r->found = 1;
        if (v == prop) {
            LL_ASSERT(fin.cr.p[prop].v == VERDICT_VIOLATED && fin.cr.p[prop].evidence);
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
            /* Minimisation could not reproduce it (a random path): report it unminimised, as
             * the file will run it: pinned, its other decisions replayed (REPLAY form, what
             * the simulation got). What that run records is the choice list, so the file
             * replays it exactly; only where it no longer violates, the path's own. */
            if (v >= 0) path_free(&fin);
            size_t nrep;
            choice *rep = strip_faults(found.rec, found.nrec, &nrep);
            for (size_t i = 0; i < nrep; i++) rep[i].value = rep[i].real;
            xpath again;
            int va = run_pinned_as(CHOOSER_REPLAY, sc, found.inj, found.ninj, rep, nrep, r->searched, &shared, &again,
                                   &r->transitions);
            free(rep);
            if (va == prop) {
                r->prop = (property)prop;
                r->evidence = again.cr.p[prop].evidence ? xstrdup(again.cr.p[prop].evidence) : NULL;
                r->choices = xmalloc((again.nrec + 1) * sizeof *r->choices);
                for (size_t i = 0; i < again.nrec; i++) {
                    r->choices[i] = again.rec[i];
                    r->choices[i].value = again.rec[i].real;
                }
                r->nchoices = again.nrec;
                path_free(&again);
                free(faults);
                faults = xmalloc(((size_t)found.ninj + 1) * sizeof *faults);
                memcpy(faults, found.inj, (size_t)found.ninj * sizeof *faults);
                nf = found.ninj;
                goto done;
            }
            if (va >= 0) path_free(&again);
            r->prop = (property)prop;
            r->evidence = found.cr.p[prop].evidence ? xstrdup(found.cr.p[prop].evidence) : NULL;
            r->choices = xmalloc((found.nrec + 1) * sizeof *r->choices);
            size_t k = 0;
            for (size_t i = 0; i < found.nrec; i++)
                if (!search_is_fault_decision(&found.rec[i])) {
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
    done:
        /* a client's crash has no restart (sim/fault_crash.c restarts nodes only): none is written
         * (a restart of a client is no fault a scenario may pin) */
        for (int i = 0; i < nf; i++)
            if (faults[i].kind == FAULT_CRASH && !restarts(sc, &faults[i])) faults[i].restart_after_ms = 0;
        /* nor one past the run's end, which the run never reaches (a scenario's faults come
         * within its duration, or it does not load) */
        for (int i = 0; i < nf; i++)
            if (restarts(sc, &faults[i]) && faults[i].at_us + faults[i].restart_after_ms * 1000 > r->duration_us) faults[i].restart_after_ms = 0;
        r->faults = faults;
        r->nfaults = nf;
        free(dec);
        path_free(&found);
    }

scenario *explore_pin(const scenario *sc, const fault_cfg *f, int nf)
{
    pinned *pn = xcalloc(1, sizeof *pn);
    pin(pn, sc, f, nf);
    return &pn->sc;
}

void explore_unpin(scenario *sc)
{
    pinned *pn = (pinned *)sc; /* its first member */
    unpin(pn);
    free(pn);
}

/* ---- a found path replayed: for a shard's merge (parallel.c) and the search's end ---- */

int shrink_refind(search *S, const int64_t *vals, size_t n, buf *err)
{
    static const char gone[] = "the violation found does not replay: the shard files come from another scenario or version";
    xpath p;
    if (S->level < 0) { /* one of the random schedules run after the first level: vals[0] says which */
        if (n != 1 || vals[0] < 0 || vals[0] >= INT32_MAX) {
            buf_puts(err, gone);
            return -1;
        }
        if (search_run_probe(S, (int)vals[0], &p, err) != 0) return -1;
        S->r->probe_found = (int)vals[0] + 1;
    } else {
        choice *c = xcalloc(n + 1, sizeof *c);
        for (size_t i = 0; i < n; i++) c[i].value = vals[i];
        chooser *ch = chooser_new(CHOOSER_EXPLORE, S->sc->seed);
        chooser_set_script(ch, c, n);
        free(c);
        int rc = search_run_path(S->sc, ch, 1, S->r->searched, &S->shared, &p, err);
        chooser_free(ch);
        if (rc != 0) return -1;
    }
    if (p.violated < 0) {
        path_free(&p);
        buf_puts(err, gone);
        return -1;
    }
    S->found = p;
    S->have_found = 1;
    return 0;
}

int shrink_path(const scenario *sc, const int64_t *vals, size_t n, int order, explore_result *r, buf *err)
{
    int pass = order < 0 ? sc->explore.max_faults + order : 0; /* found_order */
    int level = order < 0 ? 0 : order % 3 == 2 ? -1 : order / 3;
    search_choose_properties(sc, r->searched);
    scriptlib *lib = scriptlib_load(NULL, err);
    if (!lib) return -1;
    explore_opts o = { .max_deviations = -1 };
    search S = { .sc = sc, .o = &o, .r = r, .observer = sc->nnodes + sc->nclients, .level = level, .pass = pass };
    S.shared = (world_opts){ .lib = lib, .chunks = chunkcache_new(), .fault_budget = pass };
    int rc = shrink_refind(&S, vals, n, err);
    if (rc == 0) shrink_found(sc, level < 0, &S.shared, &S.found, r);
    scriptlib_free(lib);
    chunkcache_free(S.shared.chunks);
    return rc;
}
