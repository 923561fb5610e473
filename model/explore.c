/* explore.c — the model checker (see explore.h): the search as a whole — the levels of
 * deviations from the default schedule, the first one first in passes of a smaller fault
 * budget, a level's coarse pass where TIME is read to the µs, the random schedules after the
 * first level — and its result. One level's search is level.c's (in this process) or
 * parallel.c's (over worker processes, or a shard's share of it); one path is search.c's. A
 * violation found goes to the minimiser (shrink.c). */
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
/* One level: every path with at most `bound` deviations (-1: any number). */
static enum level_end search_level(search *S, int bound, buf *err)
{
    if (S->o->shard_count > 1 || S->o->pool || S->o->pool_balance) return parallel_shard_level(S, bound, err); /* parallel.c */
    rootpath rp;
    enum level_end end = level_run_root(S, bound, &rp, err);
    if (end != LEVEL_COMPLETE) return end;
    int cut = 0;
    size_t pos;
    int64_t alt;
    if (S->o->jobs > 1) {
        end = parallel_items(S, &rp, bound, &cut, err);
    } else {
        while (level_next_item(S, &rp, bound, &pos, &alt, &cut)) {
            end = level_run_item(S, &rp, bound, pos, alt, err);
            if (end == LEVEL_CUT) cut = 1;
            else if (end != LEVEL_COMPLETE) break;
        }
    }
    rootpath_free(&rp);
    if (end == LEVEL_CUT || end == LEVEL_COMPLETE) return cut ? LEVEL_CUT : LEVEL_COMPLETE;
    return end;
}



/* explore_opts.probes random schedules with the fault budget, after the first level: 1
 * when one violates a searched property (kept in S->found), 0 when none does, -1 on error. */
static int probe(search *S, buf *err)
{
    for (int k = 0; (uint64_t)k < S->o->probes && k < INT32_MAX && !search_should_stop(S); k++) {
        xpath p;
        int rc = search_run_probe(S, k, &p, err);
        if (rc == RUN_STOPPED) {
            search_stopped_in_run(S, err);
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




/* explore_result.found_level, the order in which one search meets what it runs: the first
 * level's passes with a smaller fault budget b (explore_run), b - max_faults (negative);
 * level k's coarse pass is 3k, the level 3k + 1, the random schedules after it 3k + 2. So
 * shards merged keep what one search would have found first. */
static int found_order(int level, int probe, int coarse, int pass, int max_faults)
{
    if (pass > 0) return pass - max_faults;
    return 3 * level + (probe ? 2 : coarse ? 0 : 1);
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
    search_choose_properties(sc, r->searched);
    scriptlib *lib = scriptlib_load(NULL, err);
    if (!lib) return -1;
    search S = { .sc = sc, .o = o, .r = r, .observer = sc->nnodes + sc->nclients };
    S.red.ends = o->delays_extremes == EXPLORE_DELAYS_ENDS;
    S.red.faults = sc->explore.max_faults;
    reduce_fault_targets(&S.red, sc);
    if (S.red.ends) r->abstracted |= EXPLORE_SAMPLED_ENDS;
    /* a stop request ends even a run in progress (a scenario of hours is one long run) */
    S.shared = (world_opts){ .lib = lib, .chunks = chunkcache_new(), .stop = o->stop };
    S.t0_s = S.last_progress_s = search_now();
    int rc = 0;
    if (o->random_runs) {
        for (uint64_t iter = 0; iter < o->random_runs && !search_should_stop(&S); iter++) {
            uint64_t st = o->seed + iter;
            chooser *ch = chooser_new(CHOOSER_RUN, ll_splitmix64(&st));
            xpath p;
            rc = search_run_path(sc, ch, 1, r->searched, &S.shared, &p, err);
            chooser_free(ch);
            if (rc == RUN_STOPPED) {
                search_stopped_in_run(&S, err);
                rc = 0;
                break;
            }
            if (rc != 0) break;
            if (search_account(&S, &p, -1)) break;
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
    reduce_release(&S.red);
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
    r->seconds = search_now() - S.t0_s;
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

