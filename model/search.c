/* search.c — one path of the search and what the search keeps of it: a path is a whole run
 * built from scratch (a world is cheap to build) by a chooser that follows a prefix of
 * decisions and then takes each decision's first alternative, recording how many each had;
 * its record (the decisions, the steps, the comparisons) for the reductions; the accounting
 * of each path (totals, the visited outcomes, a violation kept), the search's stop
 * conditions, and the random schedules (--probes, --random). */
#include "explore.h"
#include "exploreint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dict.h"
#include "monitor.h"
#include "world.h"

/* 16 bytes per distinct outcome in the visited set: 32 million is half a GiB. */
#define EXPLORE_MAX_OUTCOMES (32u << 20)

typedef struct stretch_acc {
    xpath *p;
    const history *h;
    const int *hstep;
    size_t nhstep;
    int cap;
} stretch_acc;
double search_now(void)
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
        int64_t v[5] = { e->t_us, e->kind, e->actor, e->a, e->b };
        acc = (acc ^ dict_hash(v, sizeof v)) * 1099511628211ULL;
    }
    return acc;
}

static void add_stretch_cmp(stretch_acc *s, size_t from, size_t to, int64_t bound)
{
    int64_t len = history_at(s->h, to)->t_us - history_at(s->h, from)->t_us;
    if (len > bound) return;
    if (s->p->ncmps == s->cap) {
        s->cap = s->cap * 2 + 8;
        s->p->cmps = xrealloc(s->p->cmps, (size_t)s->cap * sizeof *s->p->cmps);
    }
    s->p->cmps[s->p->ncmps++] = (world_cmp){ .step = to < s->nhstep ? s->hstep[to] : -1,
                                             .origin = from < s->nhstep ? s->hstep[from] : -1,
                                             .margin_us = bound - len, .true_time = 1, .before = 1 };
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

int search_run_path(const scenario *sc, chooser *ch, int explore, const int *searched, const world_opts *shared, xpath *p,
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

int search_is_placement(const world_decision *d)
{
    return d->kind == WDEC_FAULT || d->kind == WDEC_SHIFT || d->kind == WDEC_DRIFT;
}

int search_is_fault_decision(const choice *c)
{
    return c->what && (!strcmp(c->what, "fault") || !strcmp(c->what, "fault?") || !strcmp(c->what, "fault instant"));
}

void search_choose_properties(const scenario *sc, int *searched)
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

int hset_has(const hset *s, uint64_t h)
{
    if (h == 0) h = 1;
    if (!s->cap) return 0;
    for (size_t j = h & (s->cap - 1); s->v[j]; j = (j + 1) & (s->cap - 1))
        if (s->v[j] == h) return 1;
    return 0;
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

int search_should_stop(search *S)
{
    const explore_opts *o = S->o;
    if (o->stop && *o->stop) return S->r->interrupted = 1;
    if (o->max_paths && S->r->paths >= o->max_paths) return 1;
    if (o->time_limit_s > 0 && search_now() - S->t0_s >= o->time_limit_s) return S->r->timed_out = 1;
    if (S->outcomes.n >= EXPLORE_MAX_OUTCOMES) return S->r->memory_stop = 1;
    return 0;
}

/* A run the stop request (explore_opts.stop) ended midway: the search stops there, as
 * between two runs, and the run's partial path counts for nothing. */
enum level_end search_stopped_in_run(search *S, buf *err)
{
    buf_reset(err);
    S->r->interrupted = 1;
    return LEVEL_STOPPED;
}

/* A model failed on a path of the search (its error in err): say which path, by the values
 * its decisions took (a choice file of them replays it: locklab run --choices). */
void search_note_failing_path(search *S, chooser *ch, buf *err)
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
int search_account(search *S, xpath *p, int bound)
{
    explore_result *r = S->r;
    if (S->o->path_seen && p->steps) S->o->path_seen(S->o->path_seen_ud, explore_orders(p), p->violated >= 0);
    r->paths++;
    r->transitions += p->events;
    hset_add(&S->outcomes, p->hash);
    if ((int)p->nrec > r->max_depth_seen) r->max_depth_seen = (int)p->nrec;
    for (int q = 0; q < PROP_COUNT; q++)
        if (p->cr.p[q].v == VERDICT_VIOLATED) r->witnessed[q] = 1;
    if (S->o->progress && search_now() - S->last_progress_s > 0.25) {
        S->last_progress_s = search_now();
        S->o->progress(S->o->progress_ud, r->paths, r->transitions, bound, S->last_progress_s - S->t0_s);
    }
    if (p->violated >= 0) {
        S->found = *p;
        S->have_found = 1;
        memset(p, 0, sizeof *p);
        return 1;
    }
    return 0;
}

/* The seed of random schedule k of those run after the first level: the scenario's,
 * so that every shard and any --jobs run the same ones. */
static uint64_t probe_seed(const scenario *sc, int k)
{
    uint64_t s = sc->seed * 0x9e3779b97f4a7c15ULL + 0x70726f6265ULL + (uint64_t)k;
    return ll_splitmix64(&s);
}

/* Runs random schedule k of those run after the first level; fills p. */
int search_run_probe(search *S, int k, xpath *p, buf *err)
{
    chooser *ch = chooser_new(CHOOSER_RUN, probe_seed(S->sc, k));
    int rc = search_run_path(S->sc, ch, 1, S->r->searched, &S->shared, p, err);
    chooser_free(ch);
    return rc;
}
