/* level.c — one level of the search, in this process: its default path (every decision at
 * its first alternative) and its items, one per (position, alternative) enabled off it; each
 * item is the depth-first search of the subtree below it (the deepest decision with an
 * alternative still to take changes next). Faults are decisions too: at each new instant
 * within the horizon, while the budget lasts, the world asks "no fault, or which one?".
 * Which alternatives are enabled is the reductions' business (reduce.c); the deviation bound
 * of the level and explore.max_depth keep non-fault alternatives from being taken, never a
 * fault's. A shard takes its share of the items (shard_owns); parallel.c hands the items to
 * worker processes. */
#include "explore.h"
#include "exploreint.h"

#include <stdlib.h>
#include <string.h>

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
        if (search_should_stop(S)) {
            end = LEVEL_STOPPED;
            break;
        }
        chooser *ch = chooser_new(CHOOSER_EXPLORE, sc->seed);
        chooser_set_script(ch, prefix, nprefix);
        xpath p;
        int rc = search_run_path(sc, ch, 1, S->r->searched, &S->shared, &p, err);
        if (rc == RUN_STOPPED) {
            chooser_free(ch);
            end = search_stopped_in_run(S, err);
            break;
        }
        if (rc != 0) search_note_failing_path(S, ch, err);
        chooser_free(ch);
        if (rc != 0) {
            end = LEVEL_ERROR;
            break;
        }
        if (search_account(S, &p, bound)) {
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
            if (reduce_initial_avail(&avail[i], &p.decs[i], &p.rec[i], S->o->delays_extremes))
                S->r->abstracted |= EXPLORE_SAMPLED_RANDOM;
        reduce_analyse(&S->red, &p, avail, S->observer);
        for (size_t j = 0; fresh && j < nfixed; j++) alts_union(&fresh[j], &avail[j], NULL);
        int d = 0;
        for (size_t i = 0; i < p.nrec; i++) {
            dev[i] = d;
            if (!search_is_placement(&p.decs[i]) && p.rec[i].value != 0) d++;
        }
        /* The next path: the deepest free decision with an alternative still to take. */
        size_t k = p.nrec;
        int64_t next = -1;
        while (k > nfixed) {
            size_t i = k - 1;
            int64_t v = p.rec[i].value, n = p.rec[i].n;
            int fault = search_is_placement(&p.decs[i]);
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

int level_item_before(uint64_t pa, int64_t aa, uint64_t pb, int64_t ab)
{
    return pa != pb ? pa > pb : aa < ab;
}

/* The next item (position, alternative) still to take; 0 when there is none. Items the
 * bounds forbid are marked taken, and say so in *cut. */
int level_next_item(search *S, rootpath *rp, int bound, size_t *pos, int64_t *alt, int *cut)
{
    int max_depth = S->sc->explore.max_depth > 0 ? S->sc->explore.max_depth : INT32_MAX;
    for (size_t k = rp->n; k-- > 0;) {
        for (int64_t u = alts_next(&rp->avail[k], 0, rp->rec[k].n); u > 0; u = alts_next(&rp->avail[k], u, rp->rec[k].n)) {
            if (alts_has(&rp->done[k], u)) continue;
            alts_add(&rp->done[k], u);
            if (!shard_owns(S->o, rp, k, u)) continue;
            int fault = search_is_placement(&rp->decs[k]);
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
enum level_end level_run_root(search *S, int bound, rootpath *rp, buf *err)
{
    memset(rp, 0, sizeof *rp);
    chooser *ch = chooser_new(CHOOSER_EXPLORE, S->sc->seed);
    xpath p;
    int rc = search_run_path(S->sc, ch, 1, S->r->searched, &S->shared, &p, err);
    if (rc != 0 && rc != RUN_STOPPED) search_note_failing_path(S, ch, err);
    chooser_free(ch);
    if (rc == RUN_STOPPED) return search_stopped_in_run(S, err);
    if (rc != 0) return LEVEL_ERROR;
    if (search_account(S, &p, bound)) return LEVEL_FOUND;
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
        if (reduce_initial_avail(&rp->avail[i], &rp->decs[i], &rp->rec[i], S->o->delays_extremes))
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
enum level_end level_run_item(search *S, rootpath *rp, int bound, size_t pos, int64_t alt, buf *err)
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
