/* explore.c — the model checker (see explore.h): the systematic search and its levels.
 *
 * Every path is a whole run built from scratch (a world is cheap to build). The chooser
 * follows a prefix of decisions and then takes each decision's first alternative, recording
 * how many each had. Faults are decisions too: at each new instant within the horizon, while
 * the budget lasts, the world asks "no fault, or which one?". The search of a level starts
 * from the default path (every decision at its first alternative) and splits into items, one
 * per (position, alternative) enabled off it; each item is the depth-first search of the
 * subtree below it (the deepest decision with an alternative still to take changes next).
 * Which alternatives are enabled is the reductions' business (reduce.c); the deviation bound
 * of the level and explore.max_depth keep non-fault alternatives from being taken, never a
 * fault's. A violation found goes to the minimiser (shrink.c). */
#include "explore.h"
#include "exploreint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chunkcache.h"
#include "monitor.h"
#include "dict.h"
#include "scriptlib.h"
#include "world.h"

/* 16 bytes per distinct outcome in the visited set: 32 million is half a GiB. */
#define EXPLORE_MAX_OUTCOMES (32u << 20)

double explore_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* progress and summary only: outside the simulation */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}


void path_free(xpath *p)
{
    check_free(&p->cr);
    free(p->rec);
    free(p->inj);
    free(p->decs);
    free(p->steps);
    free(p->cmps);
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

typedef struct stretch_acc {
    xpath *p;
    const history *h;
    const int *hstep;
    size_t nhstep;
    int cap;
} stretch_acc;

static void add_stretch_cmp(stretch_acc *s, size_t from, size_t to, int64_t bound)
{
    int64_t len = history_at(s->h, to)->t - history_at(s->h, from)->t;
    if (len > bound) return;
    if (s->p->ncmps == s->cap) {
        s->cap = s->cap * 2 + 8;
        s->p->cmps = xrealloc(s->p->cmps, (size_t)s->cap * sizeof *s->p->cmps);
    }
    s->p->cmps[s->p->ncmps++] = (world_cmp){ .step = to < s->nhstep ? s->hstep[to] : -1,
                                             .origin = from < s->nhstep ? s->hstep[from] : -1,
                                             .margin = bound - len, .true_time = 1, .before = 1 };
}

/* A stretch of no_deadlock: a comparison of its end's instant with its start's, with the bound
 * minus its length to spare (a stretch already longer is a violation: the path stops the
 * search). One still open when the run ends is judged at the run's last event, whichever
 * that is: any later event moved past the last one would lengthen it, so each is compared. */
static void add_stretch(void *ud, size_t from, size_t to, int64_t bound)
{
    stretch_acc *s = ud;
    if (to + 1 < history_len(s->h)) {
        add_stretch_cmp(s, from, to, bound);
        return;
    }
    int last = -2;
    for (size_t k = from + 1; k <= to; k++) {
        int st = k < s->nhstep ? s->hstep[k] : -1;
        if (st == last && k < to) continue; /* one comparison a step (its events share its instant) */
        last = st;
        add_stretch_cmp(s, from, k, bound);
    }
    if (from == to) add_stretch_cmp(s, from, to, bound);
}

int run_path(const scenario *sc, chooser *ch, int explore, const int *searched, const world_opts *shared, xpath *p,
                    buf *err)
{
    memset(p, 0, sizeof *p);
    p->violated = -1;
    world_opts o = *shared;
    o.chooser = ch;
    o.explore = explore;
    o.search = &fault_search;
    o.observe = properties_observed(searched);
    world *w = world_new(sc, &o, err);
    if (!w) return -1;
    int wrc = world_run(w, err);
    if (wrc != 0) {
        world_free(w);
        return wrc == WORLD_STOPPED ? RUN_STOPPED : -1;
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
    if (n) memcpy(p->rec, rec, n * sizeof *rec);
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
        const world_cmp *cm = world_comparisons(w, &p->ncmps);
        p->cmps = xmalloc(((size_t)p->ncmps + 1) * sizeof *p->cmps);
        if (p->ncmps) memcpy(p->cmps, cm, (size_t)p->ncmps * sizeof *cm);
        if (searched[PROP_NO_DEADLOCK]) {
            stretch_acc acc = { .p = p, .h = world_history(w), .cap = p->ncmps + 1 };
            acc.hstep = world_history_steps(w, &acc.nhstep);
            no_deadlock_stretches(acc.h, sc, add_stretch, &acc);
        }
    }
    world_free(w);
    return 0;
}

int is_placement(const world_decision *d)
{
    return d->kind == WDEC_FAULT || d->kind == WDEC_SHIFT;
}

int is_fault_decision(const choice *c)
{
    return c->what && (!strcmp(c->what, "fault") || !strcmp(c->what, "fault?") || !strcmp(c->what, "fault instant"));
}


void choose_searched(const scenario *sc, int *searched)
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


void hset_add(hset *s, uint64_t h)
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


/* ---- the search ---- */



int should_stop(search *S)
{
    const explore_opts *o = S->o;
    if (o->stop && *o->stop) return S->r->interrupted = 1;
    if (o->max_paths && S->r->paths >= o->max_paths) return 1;
    if (o->time_limit > 0 && explore_now() - S->t0 >= o->time_limit) return S->r->timed_out = 1;
    if (S->outcomes.n >= EXPLORE_MAX_OUTCOMES) return S->r->memory_stop = 1;
    return 0;
}

/* A run the stop request (explore_opts.stop) ended midway: the search stops there, as
 * between two runs, and the run's partial path counts for nothing. */
enum level_end stopped_in_run(search *S, buf *err)
{
    buf_reset(err);
    S->r->interrupted = 1;
    return LEVEL_STOPPED;
}

/* A model failed on a path of the search (its error in err): say which path, by the values
 * its decisions took (a choice file of them replays it: locklab run --choices). */
static void note_failing_path(search *S, chooser *ch, buf *err)
{
    size_t n;
    const choice *rec = chooser_record(ch, &n);
    buf note;
    buf_init(&note);
    buf_printf(&note, " [on path %llu of the search; its decisions, as a choice file's values:",
               (unsigned long long)S->r->paths + 1);
    for (size_t i = 0; i < n && i < 64; i++) buf_printf(&note, " %lld", (long long)rec[i].real);
    buf_puts(&note, n > 64 ? " ...]" : n ? "]" : " none]");
    /* after the message's first line (a Lua traceback may follow) */
    const char *nl = err->p ? strchr(err->p, '\n') : NULL;
    buf out;
    buf_init(&out);
    if (nl) {
        buf_append(&out, err->p, (size_t)(nl - err->p));
        buf_append(&out, note.p, note.len);
        buf_puts(&out, nl);
    } else {
        if (err->p) buf_puts(&out, err->p);
        buf_append(&out, note.p, note.len);
    }
    buf_reset(err);
    buf_append(err, out.p, out.len);
    buf_release(&out);
    buf_release(&note);
}

/* Accounts for one path run; returns 1 when it violates a searched property (kept). */
int account(search *S, xpath *p, int bound)
{
    explore_result *r = S->r;
    if (S->o->path_seen && p->steps) S->o->path_seen(S->o->path_seen_ud, explore_orders(p), p->violated >= 0);
    r->paths++;
    r->transitions += p->events;
    hset_add(&S->outcomes, p->hash);
    if ((int)p->nrec > r->max_depth_seen) r->max_depth_seen = (int)p->nrec;
    for (int q = 0; q < PROP_COUNT; q++)
        if (p->cr.p[q].v == VERDICT_VIOLATED) r->witnessed[q] = 1;
    if (S->o->progress && explore_now() - S->last_progress > 0.25) {
        S->last_progress = explore_now();
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

/* Explores every path below prefix[0..nfixed) (those decisions stay as they are). anc holds,
 * per position of the prefix, the alternatives enabled so far; alternatives its paths enable
 * at the fixed positions (the item's own included: a window's next crossing) are added to
 * fresh[] (the caller's to take: in a search split into items, those are new items). */
static enum level_end explore_below(search *S, int bound, const choice *prefix0, size_t nfixed, const alts *anc,
                                    alts *fresh, buf *err)
{
    const scenario *sc = S->sc;
    int max_depth = sc->explore.max_depth > 0 ? sc->explore.max_depth : INT32_MAX;
    choice *prefix = xmalloc((nfixed + 1) * sizeof *prefix);
    if (nfixed) memcpy(prefix, prefix0, nfixed * sizeof *prefix);
    size_t nprefix = nfixed, capavail = nfixed + 1;
    alts *avail = alts_array(capavail);
    for (size_t j = 0; j < nfixed; j++) alts_copy(&avail[j], &anc[j]);
    int *dev = xmalloc(capavail * sizeof *dev);
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
        if (rc == RUN_STOPPED) {
            chooser_free(ch);
            end = stopped_in_run(S, err);
            break;
        }
        if (rc != 0) note_failing_path(S, ch, err);
        chooser_free(ch);
        if (rc != 0) {
            end = LEVEL_ERROR;
            break;
        }
        if (account(S, &p, bound)) {
            end = LEVEL_FOUND;
            break;
        }
        LL_ASSERT(p.nrec >= nfixed); /* a prefix replays: its decisions come back, in order */
        for (size_t i = 0; i < nfixed; i++) LL_ASSERT(p.rec[i].value == prefix[i].value || p.rec[i].n <= prefix[i].value);
        if (p.nrec + 1 > capavail) {
            size_t ncap = (p.nrec + 1) * 2;
            avail = xrealloc(avail, (ncap + 1) * sizeof *avail);
            memset(avail + capavail, 0, (ncap + 1 - capavail) * sizeof *avail);
            dev = xrealloc(dev, ncap * sizeof *dev);
            capavail = ncap;
        }
        for (size_t i = nprefix; i < p.nrec; i++)
            if (initial_avail(&avail[i], &p.decs[i], &p.rec[i], S->o->delays_extremes))
                S->r->abstracted |= EXPLORE_SAMPLED_RANDOM;
        reduce_analyse(&S->red, &p, avail, S->observer);
        for (size_t j = 0; fresh && j < nfixed; j++) alts_union(&fresh[j], &avail[j], NULL);
        int d = 0;
        for (size_t i = 0; i < p.nrec; i++) {
            dev[i] = d;
            if (!is_placement(&p.decs[i]) && p.rec[i].value != 0) d++;
        }
        /* The next path: the deepest free decision with an alternative still to take. */
        size_t k = p.nrec;
        int64_t next = -1;
        while (k > nfixed) {
            size_t i = k - 1;
            int64_t v = p.rec[i].value, n = p.rec[i].n;
            int fault = is_placement(&p.decs[i]);
            int64_t u = alts_next(&avail[i], v, n);
            if (u >= 0) {
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
    alts_array_free(avail, capavail);
    free(dev);
    return end;
}

void rootpath_free(rootpath *rp)
{
    free(rp->rec);
    free(rp->decs);
    alts_array_free(rp->avail, rp->n);
    alts_array_free(rp->done, rp->n);
    alts_array_free(rp->initial, rp->n);
    memset(rp, 0, sizeof *rp);
}

/* Shards split the items the default path enables by a hash of (position, alternative),
 * the same at every level; an item a shard's own paths enable is that shard's too. */
static int shard_owns(const explore_opts *o, const rootpath *rp, size_t pos, int64_t alt)
{
    if (o->shard_count <= 1 || !alts_has(&rp->initial[pos], alt)) return 1;
    uint64_t h = ((uint64_t)pos << 32) ^ (uint64_t)alt;
    return ll_splitmix64(&h) % (uint64_t)o->shard_count == (uint64_t)(o->shard_index - 1);
}

/* The next item (position, alternative) still to take; 0 when there is none. Items the
 * bounds forbid are marked taken, and say so in *cut. */
int next_item(search *S, rootpath *rp, int bound, size_t *pos, int64_t *alt, int *cut)
{
    int max_depth = S->sc->explore.max_depth > 0 ? S->sc->explore.max_depth : INT32_MAX;
    for (size_t k = rp->n; k-- > 0;) {
        for (int64_t u = alts_next(&rp->avail[k], 0, rp->rec[k].n); u > 0; u = alts_next(&rp->avail[k], u, rp->rec[k].n)) {
            if (alts_has(&rp->done[k], u)) continue;
            alts_add(&rp->done[k], u);
            if (!shard_owns(S->o, rp, k, u)) continue;
            int fault = is_placement(&rp->decs[k]);
            if (!fault && (int)k >= max_depth) {
                S->r->depth_cut = 1;
                continue;
            }
            if (!fault && bound == 0) {
                *cut = 1;
                continue;
            }
            *pos = k;
            *alt = u;
            return 1;
        }
    }
    return 0;
}

/* Runs the default path of a level; fills rp. */
enum level_end run_root(search *S, int bound, rootpath *rp, buf *err)
{
    memset(rp, 0, sizeof *rp);
    chooser *ch = chooser_new(CHOOSER_EXPLORE, S->sc->seed);
    xpath p;
    int rc = run_path(S->sc, ch, 1, S->r->searched, &S->shared, &p, err);
    if (rc != 0 && rc != RUN_STOPPED) note_failing_path(S, ch, err);
    chooser_free(ch);
    if (rc == RUN_STOPPED) return stopped_in_run(S, err);
    if (rc != 0) return LEVEL_ERROR;
    if (account(S, &p, bound)) return LEVEL_FOUND;
    if (S->level == 0 && !S->pass)
        for (int s = 0; s < p.nsteps; s++) S->read_us |= p.steps[s].clock == WORLD_READ_US;
    rp->n = p.nrec;
    rp->rec = p.rec;
    rp->decs = p.decs;
    p.rec = NULL;
    p.decs = NULL;
    rp->avail = alts_array(rp->n);
    rp->done = alts_array(rp->n);
    rp->initial = alts_array(rp->n);
    for (size_t i = 0; i < rp->n; i++)
        if (initial_avail(&rp->avail[i], &rp->decs[i], &rp->rec[i], S->o->delays_extremes))
            S->r->abstracted |= EXPLORE_SAMPLED_RANDOM;
    p.rec = rp->rec; /* analyse reads them through p */
    p.decs = rp->decs;
    reduce_analyse(&S->red, &p, rp->avail, S->observer);
    p.rec = NULL;
    p.decs = NULL;
    path_free(&p);
    for (size_t i = 0; i < rp->n; i++) alts_copy(&rp->initial[i], &rp->avail[i]);
    return LEVEL_COMPLETE;
}

/* Explores item (pos, alt) of rp; the alternatives it enables on rp are added to rp. */
enum level_end run_item(search *S, rootpath *rp, int bound, size_t pos, int64_t alt, buf *err)
{
    choice *prefix = xmalloc((pos + 1) * sizeof *prefix);
    memcpy(prefix, rp->rec, (pos + 1) * sizeof *prefix);
    prefix[pos].value = alt;
    alts *fresh = alts_array(pos + 1);
    enum level_end end = explore_below(S, bound, prefix, pos + 1, rp->avail, fresh, err);
    for (size_t j = 0; j <= pos; j++) alts_union(&rp->avail[j], &fresh[j], NULL);
    alts_array_free(fresh, pos + 1);
    free(prefix);
    return end;
}

/* One level: every path with at most `bound` deviations (-1: any number). */
static enum level_end search_level(search *S, int bound, buf *err)
{
    if (S->o->shard_count > 1) return shard_level(S, bound, err); /* parallel.c */
    rootpath rp;
    enum level_end end = run_root(S, bound, &rp, err);
    if (end != LEVEL_COMPLETE) return end;
    int cut = 0;
    size_t pos;
    int64_t alt;
    if (S->o->jobs > 1) {
        end = parallel_items(S, &rp, bound, &cut, err);
    } else {
        while (next_item(S, &rp, bound, &pos, &alt, &cut)) {
            end = run_item(S, &rp, bound, pos, alt, err);
            if (end == LEVEL_CUT) cut = 1;
            else if (end != LEVEL_COMPLETE) break;
        }
    }
    rootpath_free(&rp);
    if (end == LEVEL_CUT || end == LEVEL_COMPLETE) return cut ? LEVEL_CUT : LEVEL_COMPLETE;
    return end;
}

/* The seed of random schedule k of those run after the first level: the scenario's,
 * so that every shard and any --jobs run the same ones. */
static uint64_t probe_seed(const scenario *sc, int k)
{
    uint64_t s = sc->seed * 0x9e3779b97f4a7c15ULL + 0x70726f6265ULL + (uint64_t)k;
    return ll_splitmix64(&s);
}

/* Runs random schedule k of those run after the first level; fills p. */
static int run_probe(search *S, int k, xpath *p, buf *err)
{
    chooser *ch = chooser_new(CHOOSER_RUN, probe_seed(S->sc, k));
    int rc = run_path(S->sc, ch, 1, S->r->searched, &S->shared, p, err);
    chooser_free(ch);
    return rc;
}

/* explore_opts.probes random schedules with the fault budget, after the first level: 1
 * when one violates a searched property (kept in S->found), 0 when none does, -1 on error. */
static int probe(search *S, buf *err)
{
    for (int k = 0; (uint64_t)k < S->o->probes && k < INT32_MAX && !should_stop(S); k++) {
        xpath p;
        int rc = run_probe(S, k, &p, err);
        if (rc == RUN_STOPPED) {
            stopped_in_run(S, err);
            return 0;
        }
        if (rc != 0) return -1;
        S->r->probes++;
        S->r->transitions += p.events;
        hset_add(&S->outcomes, p.hash);
        for (int q = 0; q < PROP_COUNT; q++)
            if (p.cr.p[q].v == VERDICT_VIOLATED) S->r->witnessed[q] = 1;
        if (p.violated >= 0) {
            S->found = p;
            S->have_found = 1;
            S->r->probe_found = k + 1;
            return 1;
        }
        path_free(&p);
    }
    return 0;
}

int explore_refind(search *S, const int64_t *vals, size_t n, buf *err)
{
    static const char gone[] = "the violation found does not replay: the shard files come from another scenario or version";
    xpath p;
    if (S->level < 0) { /* one of the random schedules run after the first level: vals[0] says which */
        if (n != 1 || vals[0] < 0 || vals[0] >= INT32_MAX) {
            buf_puts(err, gone);
            return -1;
        }
        if (run_probe(S, (int)vals[0], &p, err) != 0) return -1;
        S->r->probe_found = (int)vals[0] + 1;
    } else {
        choice *c = xcalloc(n + 1, sizeof *c);
        for (size_t i = 0; i < n; i++) c[i].value = vals[i];
        chooser *ch = chooser_new(CHOOSER_EXPLORE, S->sc->seed);
        chooser_set_script(ch, c, n);
        free(c);
        int rc = run_path(S->sc, ch, 1, S->r->searched, &S->shared, &p, err);
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

/* explore_result.found_level, the order in which one search meets what it runs: the first
 * level's passes with a smaller fault budget b (explore_run), b - max_faults (negative);
 * level k's coarse pass is 3k, the level 3k + 1, the random schedules after it 3k + 2. So
 * shards merged keep what one search would have found first. */
static int found_order(int level, int probe, int coarse, int pass, int max_faults)
{
    if (pass > 0) return pass - max_faults;
    return 3 * level + (probe ? 2 : coarse ? 0 : 1);
}

int explore_shrink_path(const scenario *sc, const int64_t *vals, size_t n, int order, explore_result *r, buf *err)
{
    int pass = order < 0 ? sc->explore.max_faults + order : 0; /* found_order */
    int level = order < 0 ? 0 : order % 3 == 2 ? -1 : order / 3;
    choose_searched(sc, r->searched);
    scriptlib *lib = scriptlib_load(NULL, err);
    if (!lib) return -1;
    explore_opts o = { .max_deviations = -1 };
    search S = { .sc = sc, .o = &o, .r = r, .observer = sc->nnodes + sc->nclients, .level = level, .pass = pass };
    S.shared = (world_opts){ .lib = lib, .chunks = chunkcache_new(), .fault_budget = pass };
    int rc = explore_refind(&S, vals, n, err);
    if (rc == 0) shrink_found(sc, level < 0, &S.shared, &S.found, r);
    scriptlib_free(lib);
    chunkcache_free(S.shared.chunks);
    return rc;
}

int explore_run(const scenario *sc, const explore_opts *o, explore_result *r, buf *err)
{
    memset(r, 0, sizeof *r);
    r->deviations_exhausted = r->deviation_bound = -1;
    r->bound_by_option = o->max_deviations >= 0;
    if (!sc->explore.present) {
        buf_printf(err, "%s: the scenario has no explore table: say which faults to search (see scenarios/README.md)",
                   sc->path ? sc->path : "scenario");
        return -1;
    }
    choose_searched(sc, r->searched);
    for (int i = 0; i < sc->explore.nfaults; i++)
        if (sc->explore.faults[i].kind == FAULT_DRIFT) r->abstracted |= EXPLORE_SAMPLED_DRIFT;
    scriptlib *lib = scriptlib_load(NULL, err);
    if (!lib) return -1;
    search S = { .sc = sc, .o = o, .r = r, .observer = sc->nnodes + sc->nclients };
    S.red.ends = o->delays_extremes == EXPLORE_DELAYS_ENDS;
    if (S.red.ends) r->abstracted |= EXPLORE_SAMPLED_ENDS;
    /* a stop request ends even a run in progress (a scenario of hours is one long run) */
    S.shared = (world_opts){ .lib = lib, .chunks = chunkcache_new(), .stop = o->stop };
    S.t0 = S.last_progress = explore_now();
    int rc = 0;
    if (o->random_runs) {
        for (uint64_t iter = 0; iter < o->random_runs && !should_stop(&S); iter++) {
            uint64_t st = o->seed + iter;
            chooser *ch = chooser_new(CHOOSER_RUN, ll_splitmix64(&st));
            xpath p;
            rc = run_path(sc, ch, 1, r->searched, &S.shared, &p, err);
            chooser_free(ch);
            if (rc == RUN_STOPPED) {
                stopped_in_run(&S, err);
                rc = 0;
                break;
            }
            if (rc != 0) break;
            if (account(&S, &p, -1)) break;
            path_free(&p);
        }
    } else {
        /* Iterative deepening on deviations from the default schedule, unless a bound is
         * given: every fault placement at every level. */
        int fixed = o->max_deviations >= 0 ? o->max_deviations : sc->explore.max_deviations;
        /* The first level with a smaller fault budget first, one more fault a pass: a violation
         * one fault shows is met among the placements of one fault, not after every placement
         * of a second fault that changes nothing beside it (a GC pause in a gap with a budget
         * of two: 3 paths, where the whole level walks 100,000 and more). The last pass, the
         * full budget, is the level itself: what it covers is what a search without passes
         * covers. */
        int first = fixed >= 0 ? fixed : 0;
        for (int b = 1; b < sc->explore.max_faults && first == 0 && rc == 0; b++) {
            S.pass = b;
            S.level = r->deviation_bound = 0;
            S.shared.fault_budget = b;
            enum level_end end = search_level(&S, 0, err);
            if (end == LEVEL_ERROR) rc = -1;
            if (end == LEVEL_FOUND || end == LEVEL_STOPPED || end == LEVEL_ERROR) goto searched;
        }
        S.pass = 0;
        S.shared.fault_budget = 0;
        for (int bound = first;; bound++) {
            r->deviation_bound = S.level = bound;
            enum level_end end;
            /* A level's coarse pass: where the default path read a server's clock to the µs
             * (TIME), each µs of a window is a reading of its own (a window of 200 ms: 200,000
             * paths, measured: not finished in a minute); the coarse pass takes such readings
             * at their whole ms, like every other clock, so a violation a whole ms of
             * difference shows is met in a few hundred paths (a real run: its reading is the
             * µs where its step falls). It proves nothing: the level itself follows it. */
            if (S.read_us && bound > 0) {
                S.coarse = S.red.coarse = 1;
                end = search_level(&S, bound, err);
                S.red.coarse = 0;
                if (end == LEVEL_ERROR) {
                    rc = -1;
                    break;
                }
                if (end == LEVEL_FOUND || end == LEVEL_STOPPED) break; /* S.coarse: where it was found */
                S.coarse = 0;
            }
            end = search_level(&S, bound, err);
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
            if (!r->probes && o->probes) { /* after the first level: random schedules (explore.h) */
                S.level = -1;
                int pr = probe(&S, err);
                S.level = bound;
                if (pr != 0) {
                    rc = pr < 0 ? -1 : 0;
                    S.probe_after = bound;
                    break;
                }
            }
        }
    }
searched:;
    xpath found = S.found;
    int have_found = S.have_found;
    hset outcomes = S.outcomes;
    chunkcache *chunks = S.shared.chunks;
    world_opts shared = S.shared;
    shared.stop = NULL; /* the minimiser stops between its runs (explore_minimise_hook) */
    reducer_release(&S.red);
    if (rc == 0 && have_found && !o->random_runs) {
        r->found_path = xmalloc((found.nrec + 1) * sizeof *r->found_path);
        for (size_t i = 0; i < found.nrec; i++) r->found_path[i] = found.rec[i].value;
        r->nfound_path = found.nrec;
        r->found_level = r->probe_found ? found_order(S.probe_after, 1, 0, 0, 0)
                                        : found_order(S.level, 0, S.coarse, S.pass, sc->explore.max_faults);
        if (r->probe_found) { /* a random schedule: its index */
            r->found_path[0] = r->probe_found - 1;
            r->nfound_path = 1;
        }
    }
    if (o->shard_count >= 1) { /* a shard file's outcomes, 1 of 1 too */
        r->hashes = xmalloc((outcomes.n + 1) * sizeof *r->hashes);
        for (size_t i = 0; i < outcomes.cap; i++)
            if (outcomes.v[i]) r->hashes[r->nhashes++] = outcomes.v[i];
    }
    if (rc == 0 && have_found) shrink_found(sc, o->random_runs != 0 || r->probe_found, &shared, &found, r);
    r->outcomes = outcomes.n;
    free(outcomes.v);
    scriptlib_free(lib);
    chunkcache_free(chunks);
    r->seconds = explore_now() - S.t0;
    return rc;
}

void explore_result_free(explore_result *r)
{
    free(r->found_path);
    free(r->hashes);
    free(r->evidence);
    free(r->faults);
    free(r->choices);
    memset(r, 0, sizeof *r);
}

