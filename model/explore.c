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
} xpath;

static void path_free(xpath *p)
{
    check_free(&p->cr);
    free(p->rec);
    free(p->inj);
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
    chooser *ch = chooser_new(CHOOSER_EXPLORE, 0);
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

int explore_run(const scenario *sc, const explore_opts *o, explore_result *r, buf *err)
{
    memset(r, 0, sizeof *r);
    if (!sc->explore.present) {
        buf_printf(err, "%s: the scenario has no explore table: say which faults to search (see scenarios/README.md)",
                   sc->path ? sc->path : "scenario");
        return -1;
    }
    choose_searched(sc, r->searched);
    scriptlib *lib = scriptlib_load(NULL, err);
    if (!lib) return -1;
    chunkcache *chunks = chunkcache_new();
    world_opts shared = { .lib = lib, .chunks = chunks };
    double t0 = now_s(), last_progress = t0;
    hset outcomes = { 0 };
    choice *prefix = NULL;
    size_t nprefix = 0;
    int max_depth = sc->explore.max_depth > 0 ? sc->explore.max_depth : INT32_MAX;
    xpath found = { 0 };
    int have_found = 0, rc = 0;
    /* Exhaustive mode searches in two phases over the same bounded space: first only the
     * fault decisions branch (every placement, with every other decision at its first
     * alternative), which finds the usual counter-examples in a handful of paths; then
     * every decision branches. Phase 2 repeats phase 1's paths; the union is exhaustive. */
    int phase = o->random_runs ? 2 : 1;
    for (uint64_t iter = 0;; iter++) {
        if (o->max_paths && r->paths >= o->max_paths) break;
        if (o->random_runs && iter >= o->random_runs) {
            r->complete = 0;
            break;
        }
        chooser *ch;
        if (o->random_runs) {
            uint64_t st = o->seed + iter;
            ch = chooser_new(CHOOSER_RUN, ll_splitmix64(&st));
        } else {
            ch = chooser_new(CHOOSER_EXPLORE, 0);
            chooser_set_script(ch, prefix, nprefix);
        }
        xpath p;
        if (run_path(sc, ch, 1, r->searched, &shared, &p, err) != 0) {
            chooser_free(ch);
            rc = -1;
            break;
        }
        chooser_free(ch);
        r->paths++;
        r->transitions += p.events;
        hset_add(&outcomes, p.hash);
        if (outcomes.n >= EXPLORE_MAX_OUTCOMES) {
            /* A clean stop before memory runs out: report what was explored. */
            r->memory_stop = 1;
            path_free(&p);
            break;
        }
        if ((int)p.nrec > r->max_depth_seen) r->max_depth_seen = (int)p.nrec;
        for (int q = 0; q < PROP_COUNT; q++)
            if (p.cr.p[q].v == VERDICT_VIOLATED) r->witnessed[q] = 1;
        if (o->progress && now_s() - last_progress > 0.25) {
            last_progress = now_s();
            o->progress(o->progress_ud, r->paths, r->transitions, (int)p.nrec, last_progress - t0);
        }
        if (p.violated >= 0) {
            found = p;
            have_found = 1;
            break;
        }
        if (!o->random_runs) {
            /* The next path: bump the deepest decision (within max_depth) with an untried
             * alternative. */
            size_t lim = p.nrec < (size_t)max_depth ? p.nrec : (size_t)max_depth;
            size_t k = lim;
            while (k > 0 && (p.rec[k - 1].value + 1 >= p.rec[k - 1].n || (phase == 1 && !is_fault_decision(&p.rec[k - 1]))))
                k--;
            if (k == 0 && phase == 1) {
                phase = 2;
                free(prefix);
                prefix = NULL;
                nprefix = 0;
                path_free(&p);
                continue;
            }
            if (k == 0) {
                r->complete = 1;
                path_free(&p);
                break;
            }
            free(prefix);
            prefix = xmalloc(k * sizeof *prefix);
            memcpy(prefix, p.rec, k * sizeof *prefix);
            prefix[k - 1].value++;
            nprefix = k;
        }
        path_free(&p);
    }
    free(prefix);
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
    r->seconds = now_s() - t0;
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
        chooser *c = chooser_new(CHOOSER_REPLAY, 0);
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
