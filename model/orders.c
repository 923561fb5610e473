/* orders.c — a path's orders (exploreint.h's explore_orders): what model/reduce.c claims
 * to search once each, as a hash, for tests/orders.c to hold the search against every value
 * of the windows (explore_opts.path_seen). */
#include <stdlib.h>

#include "dict.h"
#include "exploreint.h"

/* Whether step b is the end of fault step c (a node's restart, a pause's end, a partition's
 * heal) with nothing of its key since the fault began: the two are one, as a fault that
 * landed more than its whole length early begins and ends (sim/world.c, fault_crash.c,
 * fault_gc_pause.c). A pause's end that released nothing is one with it too: nothing of its
 * client came while it lasted (a delivery at its very end is not held). */
static int fault_end_at_once(const xpath *p, int c, int b, const uint8_t *made)
{
    int ev = p->steps[b].ev;
    if ((ev != STEP_RESTART && ev != STEP_PAUSE_END && ev != STEP_FAULT_END) || p->steps[c].ev != STEP_FAULT) return 0;
    if (ev == STEP_PAUSE_END && !made[b]) return 1;
    for (int j = c + 1; j < b; j++)
        if (p->steps[j].key == p->steps[b].key || p->steps[j].key == WORLD_KEY_ALL) return 0;
    return 1;
}

uint64_t explore_orders(const xpath *p)
{
    int nkeys = 2;
    for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].key + 2 > nkeys) nkeys = p->steps[i].key + 2;
    uint64_t *id = xcalloc((size_t)p->nsteps + 1, sizeof *id);
    uint64_t *at_key = xcalloc((size_t)nkeys + 1, sizeof *at_key);
    uint64_t *inert = xcalloc((size_t)nkeys + 1, sizeof *inert);
    uint64_t *changed = xcalloc((size_t)nkeys + 1, sizeof *changed);
    int *scheduled = xcalloc((size_t)nkeys + 1, sizeof *scheduled);
    /* the steps none of whose consequences anything sees: no effects, not observed, and only
     * such steps after them at their key (a no-op expiry the run ends before or after) */
    uint8_t *unseen = xcalloc((size_t)p->nsteps + 1, 1), *seen_later = xcalloc((size_t)nkeys + 1, 1);
    uint8_t *merged = xcalloc((size_t)p->nsteps + 1, 1), *made = xcalloc((size_t)p->nsteps + 1, 1);
    for (int i = 0; i < p->nsteps; i++)
        if (p->steps[i].cause >= 0 && p->steps[i].cause < i) made[p->steps[i].cause] = 1;
    /* a pause whose end released nothing changed nothing: no client step was held by it */
    uint8_t *idle = xcalloc((size_t)p->nsteps + 1, 1);
    for (int i = 0; i < p->nsteps; i++) {
        int c = p->steps[i].cause;
        if (c < 0 || c >= i) continue;
        if (fault_end_at_once(p, c, i, made)) {
            merged[i] = 1; /* one step with its fault (below) */
            if (p->steps[i].ev == STEP_PAUSE_END && !made[i]) idle[c] = 1;
        } else
            unseen[c] = 2; /* has effects */
    }
    for (int i = p->nsteps - 1; i >= 0; i--) {
        const world_step *st = &p->steps[i];
        if (merged[i]) continue;
        int key = st->key >= 0 ? st->key + 1 : 0;
        if (unseen[i] == 0 && idle[i]) unseen[i] = 1; /* wherever it falls among its client's */
        else if (unseen[i] == 0 && !st->client && st->key >= 0 && !seen_later[key]) unseen[i] = 1;
        else seen_later[key] = 1;
    }
    uint64_t line = 0;
    for (int i = 0; i < p->nsteps; i++) {
        const world_step *st = &p->steps[i];
        int c = st->cause;
        /* the scenario's own (no cause): which of its actor's; an effect: its place among what
         * its cause's handling made, in the order it made them (not the order they are handled
         * in, which independent steps can flip); one pushed later for it (a key's expiry
         * re-armed at the deadline it set): -1 */
        int k;
        if (c < 0 || c >= i) k = scheduled[st->key >= 0 ? st->key + 1 : 0]++;
        else if (st->seq >= p->steps[c].made && (c + 1 >= p->nsteps || st->seq < p->steps[c + 1].made))
            k = (int)(st->seq - p->steps[c].made);
        else
            k = -1;
        /* a reading: the value it read (the local µs for a server's TIME, else the whole ms) */
        int64_t v[5] = { st->ev, st->actor, c >= 0 && c < i ? (int64_t)id[c] : c, k,
                         st->clock == WORLD_READ_US ? st->read_us : st->clock ? st->read_ms : INT64_MIN };
        id[i] = dict_hash(v, sizeof v);
        if (merged[i]) {
            id[i] = id[c];
            continue;
        }
        if (st->client) line = (line ^ id[i]) * 1099511628211ULL;
        /* a timer whose wait had ended does nothing where it falls after what ended it */
        if (st->stale_by != WORLD_NOT_STALE || unseen[i] == 1) continue;
        int key = st->key >= 0 ? st->key + 1 : 0; /* no key, or every key's: one sequence */
        if (st->inert) { /* two steps that changed nothing commute: only where among the others */
            int64_t w[2] = { (int64_t)id[i], (int64_t)changed[key] };
            inert[key] += dict_hash(w, sizeof w);
            continue;
        }
        changed[key]++;
        at_key[key] = (at_key[key] ^ id[i]) * 1099511628211ULL;
    }
    uint64_t acc = line;
    for (int k = 0; k <= nkeys; k++) {
        uint64_t w[2] = { at_key[k], inert[k] };
        acc = (acc ^ dict_hash(w, sizeof w)) * 1099511628211ULL;
    }
    free(id);
    free(at_key);
    free(inert);
    free(changed);
    free(scheduled);
    free(unseen);
    free(merged);
    free(made);
    free(idle);
    free(seen_later);
    return acc;
}
