/* reduce.c — the model checker's reductions: which alternatives a path shows to be needed.
 *
 * Time is explored by its orders, not by its values. A window (a message's delay, a sleep of
 * random length, an injected fault's exact instant) is a range of values, and the run is a
 * function of the value only through *where* the step it times, and everything that step
 * causes, falls among the other steps. A step's *cone* is the step and everything its
 * handling scheduled, transitively (a message's delivery, the reply it sends, the timer the
 * reply's handler sets, ...). Moving the window's value moves its cone by the same amount
 * and nothing else, so the run stays the same run, only with some timestamps moved, for as
 * long as
 *   - no cone step passes a step outside the cone that it depends on: one at the same actor
 *     (a master and its replicas count as one), or another client's when both record what
 *     the searched properties compare across clients (world_step.client: their monitors read
 *     those on one true-time line; model/properties.c says which for each), or any step at
 *     all when one of them touches every actor (a partition, clients learning a new master);
 *   - no clock reading inside the cone changes value (a client's ctx:now(), a TTL that leaves
 *     a node, a server's TIME): a model may use it in any way, against another reading or a
 *     constant. Clocks are read in whole ms (TIME to the µs), so a reading changes only when
 *     its step passes one of its clock's ms boundaries (world_step.tick_us and .back_us; every µs
 *     for TIME, except in a level's coarse pass: explore.c);
 *   - no deadline decided with ctx:before between a reading inside the cone and one outside
 *     it flips: its margin (world_cmp) says how far the two may move apart first, and only
 *     one direction can flip it (world_cmp.before: a reading before its deadline flips when
 *     it comes later or the deadline's reading earlier; a model may use only the boolean —
 *     the ms to spare ctx:before also returns are for ctx:log, lua/clients/README.md).
 * So a window need not be tried at every value: this file computes, from a path run with
 * the window at value v, the *next* value after v at which one of these happens first — the
 * next crossing — and enables it. The path run there computes the crossing after that, and so
 * on: every order of events the window can produce is tried once, interior positions
 * included (the digitisation argument of Henzinger, Manna and Pnueli, "What good are digital
 * clocks?", ICALP 1992: one representative per region between the instants it can be ordered
 * against). Every path enables the crossings it shows, at every window on its stack, so a
 * crossing that only later decisions expose is still reached.
 *
 * Windows on one chain of causes add up: a request late and then its reply late too. A cone
 * step is therefore compared at the latest the windows below the root on its chain can bring
 * it (their slack), and the root's crossing is the amount the others cannot make up; the
 * windows below find the rest on the path run there. Where it is now is compared too, but
 * for the part of that slack the windows below make up µs for µs (delays of 1 µs a unit, not
 * held behind another message): every order the step takes in that reach is taken at the
 * root's present value, by those windows' own crossings, on the paths below it. Without this,
 * every window up a chain (a client's five requests and replies, one after the other) was
 * tried at the crossing of the last: the same order once per window, and their combinations
 * (measured: Redlock, two clients at once over five masters — 18,000 paths of 32 distinct
 * orders, not finished in a minute; now 2,420 paths, every order, exhausted). tests/orders.c
 * holds the search against every value of the windows.
 *
 * The windows decided after the root, off their first values, are looked at once more: where
 * each sits is itself an order. A window is *anchored* to the steps its cone would pass were
 * it one unit earlier (or that share its instant): it was enabled as the crossing past them.
 * When the root's crossing is computed, such a window w is
 *   - a *follower* when it is outside the root's cone and anchored only to the root's cone (or
 *     to a follower's): its cone moves with the root's;
 *   - a *stayer* when it is below the root on its chain and anchored only outside the cone:
 *     its cone stays where it is until the root has moved by w's value, then moves with it;
 *     before that, the rest of the cone passes it where it is (but never a step of what it
 *     causes);
 *   - *floating* when it is outside the root's cone and anchored to nothing (one unit earlier
 *     passes nothing): its cone is left out;
 *   - and otherwise (anchored to a step that stays put, a clock's ms boundary, a ctx:before
 *     margin, a message ahead of it on its link) compared at its place, as before.
 * Why this loses no order. The path of the root's new value starts every later window again
 * at its first value, and their own crossings then bring each back to just after the steps
 * it is anchored to, wherever the root now puts them: a follower to the root's moved cone, a
 * stayer (coming down by as much as the root went up) to the same outside steps. So the root's
 * value needs trying only where an order changes that those walks cannot restore: where the
 * root's cone, with its followers, passes what stays; where the rest of the cone passes a
 * stayer; where a stayer can come down no further. A region of two windows has a lowest
 * value of the root at a corner where the later window is anchored to something; if that is
 * the root's cone, the crossing of the two cones together reaches it, and otherwise the
 * root's crossing past the later window's cone taken from the path where the later window
 * sits anchored there. Where the later window merely sits (floating), or where it would run
 * out of its window (its last value: a highest value of the root, never a lowest), no region
 * starts. Without this, two windows anchored to each other walk up their diagonal a µs at a
 * time: each value of one enables the next of the other (measured: Redlock, two clients at
 * once over three masters, 1-2 ms windows — not finished in hours; exhausted in 3.5 s).
 *
 * An injected fault's shift (WDEC_SHIFT) is the same with the cone moving earlier: a crash's
 * restart, the end of a pause or of a partition, brought back past the step before it. Its
 * start never crosses anything its window spans (sim/world.c bounds the window by the last
 * step it could be ordered against).
 *
 * Windows that move the other way. All of the above is of windows whose cones move the same
 * way as the root's. A window decided after the root that moves the other way (a fault's
 * shift after a delay root: its cone comes earlier as the root's goes later; a delay after a
 * shift root) approaches the root's cone, and a region of the two then has its lowest value
 * of the root where the later window is at its *last* value: a partition's end one µs
 * earlier and a request one µs later meet, where neither alone reaches the other (measured:
 * tests/orders.c's meet_problem class, problem 120 — an order of 7 never run). So a step
 * outside the root's cone is compared where those windows can bring it at the furthest
 * (reducer.opp_us), and left out where they surely bring it past already at this value of the
 * root (opp_sure_us: the paths of theirs below take that order). A ctx:before margin between
 * a reading in the cone and one such step is shortened the same way (reduce_cone.c).
 *
 * What is assumed, and why it holds: every step's effect on the world depends only on the
 * order of the steps it depends on, the clocks' whole-ms readings and the ctx:before margins
 * — the engine's handlers see time only through clock readings (core_clock_read,
 * core_clock_compare), and a node's key deadline becomes an expiry event caused by the step
 * that set it (sim/node_expiry.c), so it moves with that step like any other. A value drawn
 * with ctx:random is not a window: the model may use it in any way, so every value is tried
 * (reduce_initial_avail). */
#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "faults.h"
#include "exploreint.h"
#include "reduceint.h"

/* ---- the times of the cone's steps at a key, asked in time order ---- */

/* The scan asks "the latest cone time at or before t" for t that never decrease (the steps
 * are in time order), and inserts times not before the step being scanned. So a time
 * becomes an answer once the scan has reached it, and stays one: a min-heap of the times
 * not reached yet, and the greatest of those reached. O(log n) an operation (a sorted
 * vector cost a memmove an insertion: quadratic on paths of many thousand steps). An entry
 * may answer with another value than its time (tvec_insert2: order_crossing_earlier's steps
 * that take part from one time and count from another). */
typedef struct tent {
    int64_t at, val;
} tent;
typedef struct tvec {
    tent *v; /* the min-heap, by at */
    int n, cap;
    int64_t best;  /* the greatest value reached, or INT64_MIN */
    int64_t asked; /* the last time asked (they never decrease) */
} tvec;

static void tvec_clear(tvec *t)
{
    t->n = 0;
    t->best = t->asked = INT64_MIN;
}

/* An entry that answers val once the scan has reached at (at no earlier than the scan). */
static void tvec_insert2(tvec *t, int64_t at, int64_t val)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->v = xrealloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    int i = t->n++;
    while (i > 0 && t->v[(i - 1) / 2].at > at) {
        t->v[i] = t->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    t->v[i] = (tent){ at, val };
}

static void tvec_insert(tvec *t, int64_t x)
{
    tvec_insert2(t, x, x);
}

static tent tvec_pop(tvec *t)
{
    tent top = t->v[0], x = t->v[--t->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= t->n) break;
        if (c + 1 < t->n && t->v[c + 1].at < t->v[c].at) c++;
        if (t->v[c].at >= x.at) break;
        t->v[i] = t->v[c];
        i = c;
    }
    if (t->n > 0) t->v[i] = x;
    return top;
}

/* The largest value of the entries inserted at or before x, or INT64_MIN; x never less than
 * the last asked. */
static int64_t tvec_below(tvec *t, int64_t x)
{
    LL_ASSERT(x >= t->asked);
    t->asked = x;
    while (t->n > 0 && t->v[0].at <= x) {
        tent y = tvec_pop(t);
        if (y.val > t->best) t->best = y.val;
    }
    return t->best;
}

struct reducer_keys {
    tvec *k;     /* four banks of one vector per key (0..observer): the cone's steps that move
                    with it µs for µs, all of them and those not inert; then the same for the
                    steps that move in whole ms (timers and expiries set from a clock, BANK);
                    then two for every key (the global steps): rigid, in whole ms.
                    order_crossing_earlier's: the steps outside the cone, all of them and
                    those not inert, per key; then any at all */
    int nk;
    int64_t *qmin;  /* per key, all and not inert: the least move of the root that moves a step
                       of the whole-ms banks; then one for the global ones */
    int64_t *qper;  /* the same places: the longest true ms of the clocks of those steps */
};

void reduce_fault_targets(reducer *r, const scenario *sc)
{
    free(r->hit);
    r->nhit = sc->nnodes + sc->nclients;
    r->hit = xcalloc((size_t)r->nhit + 1, 1);
    for (int e = 0; e < sc->explore.nfaults; e++) {
        const explore_fault *ef = &sc->explore.faults[e];
        if (!fault_def_of(ef->kind)->tied) { /* it may act between any two steps */
            free(r->hit);
            r->hit = NULL;
            return;
        }
        for (int t = 0; t < ef->ntargets; t++) {
            int n = scenario_node_index(sc, ef->targets[t]), c = scenario_client_index(sc, ef->targets[t]);
            if (n >= 0) r->hit[n] = 1;
            else if (c >= 0) r->hit[sc->nnodes + c] = 1;
        }
    }
}

void reduce_release(reducer *r)
{
    free(r->fol);
    free(r->qm);
    free(r->skip);
    free(r->stay_us);
    free(r->opp_us);
    free(r->opp_sure_us);
    free(r->ldrift);
    free(r->logt);
    free(r->logb);
    free(r->tmp);
    free(r->anc);
    free(r->anc_at);
    free(r->followed);
    free(r->ufind);
    free(r->win);
    free(r->kid);
    free(r->sib);
    free(r->in);
    free(r->acc_us);
    free(r->facc_us);
    free(r->hit);
    free(r->hitkey);
    if (r->keys) {
        for (int i = 0; i < r->keys->nk; i++) free(r->keys->k[i].v);
        free(r->keys->k);
        free(r->keys->qmin);
        free(r->keys->qper);
        free(r->keys);
    }
    memset(r, 0, sizeof *r);
}

static void reducer_fit(reducer *r, int nsteps, int nkeys)
{
    if (nsteps > r->cap) {
        r->cap = nsteps * 2;
        r->in = xrealloc(r->in, (size_t)r->cap);
        r->acc_us = xrealloc(r->acc_us, (size_t)r->cap * sizeof *r->acc_us);
        r->facc_us = xrealloc(r->facc_us, (size_t)r->cap * sizeof *r->facc_us);
        r->fol = xrealloc(r->fol, (size_t)r->cap);
        r->skip = xrealloc(r->skip, (size_t)r->cap);
        memset(r->skip, 0, (size_t)r->cap); /* kept all zero but while a crossing is computed */
        r->stay_us = xrealloc(r->stay_us, (size_t)r->cap * sizeof *r->stay_us);
        r->opp_us = xrealloc(r->opp_us, (size_t)r->cap * sizeof *r->opp_us);
        r->opp_sure_us = xrealloc(r->opp_sure_us, (size_t)r->cap * sizeof *r->opp_sure_us);
        r->qm = xrealloc(r->qm, (size_t)r->cap * 4 * sizeof *r->qm);
        r->tmp = xrealloc(r->tmp, (size_t)r->cap);
        r->win = xrealloc(r->win, (size_t)r->cap * sizeof *r->win);
        r->kid = xrealloc(r->kid, (size_t)r->cap * sizeof *r->kid);
        r->sib = xrealloc(r->sib, (size_t)r->cap * sizeof *r->sib);
    }
    if (nkeys > r->nkeys) r->nkeys = nkeys;
    if (!r->keys) r->keys = xcalloc(1, sizeof *r->keys);
    if (r->keys->nk < 4 * nkeys + 2) {
        r->keys->k = xrealloc(r->keys->k, (size_t)(4 * nkeys + 2) * sizeof *r->keys->k);
        memset(r->keys->k + r->keys->nk, 0, (size_t)(4 * nkeys + 2 - r->keys->nk) * sizeof *r->keys->k);
        r->keys->nk = 4 * nkeys + 2;
        r->keys->qmin = xrealloc(r->keys->qmin, (size_t)(2 * nkeys + 1) * sizeof *r->keys->qmin);
        r->keys->qper = xrealloc(r->keys->qper, (size_t)(2 * nkeys + 1) * sizeof *r->keys->qper);
    }
}

/* The keys a step is ordered under: its key (world_step), the observer for a client's, and
 * the cut (observer + 1: a partition's start and end, WORLD_KEY_CUT) for one that asked what
 * a partition cuts (world_step.cut). Returns how many; a step with none commutes with all. */
static int step_keys(const world_step *x, int observer, int keys[3])
{
    int n = 0;
    if (x->key == WORLD_KEY_CUT) keys[n++] = observer + 1;
    else if (x->key >= 0) keys[n++] = x->key;
    if (n && x->client) keys[n++] = observer;
    if (x->cut && x->key != WORLD_KEY_CUT) keys[n++] = observer + 1;
    return n;
}

static void keys_clear(reducer *r, int observer)
{
    for (int k = 0; k < 4 * (observer + 2) + 2; k++) tvec_clear(&r->keys->k[k]);
    for (int k = 0; k < 2 * (observer + 2) + 1; k++) r->keys->qmin[k] = INT64_MAX, r->keys->qper[k] = 0;
}

/* A stale timer (world_step.stale_by) does nothing wherever it falls, as long as the step
 * that ended its wait stays before it: it takes part in the order only when that step and the
 * timer are on different sides of the cone and the move could bring the step past the timer
 * (later: the step in the cone; earlier: the timer in it). */
static int stale_inert(const reducer *r, const xpath *p, int root, int s, int later)
{
    const world_step *x = &p->steps[s];
    if (x->stale_by == WORLD_NOT_STALE) return 0;
    int y = x->stale_by;
    if (y < 0 || y >= s) return 1; /* its wait ended before the log began: nothing passes that */
    int y_in = y >= root && r->in[y];
    int x_in = s >= root && r->in[s];
    if (y_in == x_in) return 1;
    return later ? !y_in : !x_in;
}

/* Whether a fault of the explore table can hit an actor of this key (reducer.hit; every key
 * when one of them may act between any two steps). */
static int hit_key(const reducer *r, int key)
{
    return !r->hit || (key >= 0 && key < r->nhit && r->hitkey[key]);
}

/* Whether a step outside the cone came before cone step s at its instant at one of its keys,
 * one of the two a fault can hit. */
static int splits(const reducer *r, const xpath *p, int s, int observer)
{
    const world_step *st = p->steps;
    int ks[3], nks = step_keys(&st[s], observer, ks);
    for (int j = s - 1; j >= 0 && st[j].t_us == st[s].t_us; j--) {
        if (r->in[j] || !(hit_key(r, st[s].key) || hit_key(r, st[j].key))) continue;
        if (st[j].key == WORLD_KEY_ALL || st[s].key == WORLD_KEY_ALL) return 1;
        int kj[3], nkj = step_keys(&st[j], observer, kj);
        for (int a = 0; a < nks; a++)
            for (int b = 0; b < nkj; b++)
                if (ks[a] == kj[b]) return 1;
    }
    return 0;
}

/* A cone time into bank t of order_crossing_later, logged when some step outside the cone
 * can come earlier (reducer.opp: it then asks for times out of order, log_below). */
static void bank_insert(reducer *r, tvec *t, int64_t x)
{
    tvec_insert(t, x);
    if (!r->opp) return;
    if (r->nlog == r->caplog) {
        r->caplog = r->caplog ? 2 * r->caplog : 256;
        r->logt = xrealloc(r->logt, (size_t)r->caplog * sizeof *r->logt);
        r->logb = xrealloc(r->logb, (size_t)r->caplog * sizeof *r->logb);
    }
    r->logt[r->nlog] = x;
    r->logb[r->nlog++] = (int)(t - r->keys->k);
}

/* The latest time logged into bank t that is at or before x, or INT64_MIN. */
static int64_t log_below(const reducer *r, const tvec *t, int64_t x)
{
    int b = (int)(t - r->keys->k);
    int64_t best = INT64_MIN;
    for (int i = 0; i < r->nlog; i++)
        if (r->logb[i] == b && r->logt[i] <= x && r->logt[i] > best) best = r->logt[i];
    return best;
}

/* The least amount (µs) by which moving the cone of root later changes the order of some
 * dependent pair of steps: for each step x outside the cone, the latest a cone step before
 * it at one of its keys can come (its time plus the slack of the windows below the root on
 * its chain) that is still before x — before x at the earliest the windows decided after the
 * root can bring it (a fault's shift, reducer.opp_us: a restart, the end of a pause or of a
 * partition brought back towards the root's cone; the pair's region then begins with that
 * shift at its last value, where the shift's own walk from its first cannot take the root).
 * INT64_MAX when nothing can change. */
static int64_t order_crossing_later(reducer *r, const xpath *p, int root, int observer)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    int nk1 = observer + 2; /* the actors' keys, the observer's and the cut's (step_keys) */
#define BANK(q, f, key) (&r->keys->k[((q) * 2 + (f)) * nk1 + (key)])
    tvec *all[2] = { &r->keys->k[4 * nk1], &r->keys->k[4 * nk1 + 1] }; /* what a global step is ordered against */
    int64_t *qmin = r->keys->qmin, *qmin_all = &r->keys->qmin[2 * nk1];
    int64_t *qper = r->keys->qper, *qper_all = &r->keys->qper[2 * nk1];
    keys_clear(r, observer);
    r->nlog = 0;
    int64_t least = INT64_MAX;
    for (int s = root; s < n && least > 1; s++) {
        const world_step *x = &st[s];
        if (r->skip[s]) continue;
        /* outside the cone, how much earlier the windows decided after the root can bring it:
         * surely (a cone step it can pass so already is passed on the paths of theirs, at
         * this value of the root) and at most (what is left is the root's to move) */
        int64_t sure = r->opp ? r->opp_sure_us[s] : 0, xt = x->t_us - (r->opp ? r->opp_us[s] : 0);
        if (x->stale_by != WORLD_NOT_STALE) {
            /* A stale step does nothing wherever it falls after the step y that ended its wait:
             * all that can change is y passing it (y in the cone, the step outside it). */
            if (stale_inert(r, p, root, s, 1)) continue;
            int y = x->stale_by;
            int64_t late_y = st[y].t_us + reduce_cone_slack(r, root, y); /* a stayer's: later still */
            if (x->t_us - sure < st[y].t_us) continue; /* x passes y already, at this value of the root */
            int64_t cand = xt > st[y].t_us ? xt - st[y].t_us : 1;
            if (late_y < xt && xt - late_y < cand) cand = xt - late_y;
            if (cand < least) least = cand;
            continue;
        }
        int keys[3], nk = step_keys(x, observer, keys);
        if (r->in[s]) {
            /* a step after another of its key at its instant: a fault still in the budget
             * can land between the two only once a µs parts them (faults come first at an
             * instant, sched.h) */
            if (r->split && least > 1 && splits(r, p, s, observer)) least = 1;
            /* a step that moves in whole ms (reduce_cone_ms_steps) is kept in banks of its own */
            int q = QM(r, s) > 0;
            /* a step moving in whole ms moves with the reading it was set from, which the
             * windows below the root on that reading's chain carry too (reduce_cone_rest, as
             * for the readings and margins). Until round 4, where they carried it to its ms
             * alone, this was one µs: the root walked a µs at a time along the diagonal of the
             * windows below, running every fault placement again at each (measured: the 9c
             * bench row, two deviations, more than 300,000 paths; now 3,388) */
            int64_t m = q ? reduce_cone_rest(r, root, (int)QG(r, s), QM(r, s)) : 1, per = QP(r, s);
            /* a stayer's step moves once the root has moved by its stay */
            int64_t now = x->t_us - r->stay_us[s];
            int64_t late = now + reduce_cone_slack(r, root, s);
            /* at the latest the windows below can bring it, and where it is now — but for the
             * µs those below that move it µs for µs can carry it by themselves: every order
             * it takes there is taken at this value of the root, on the paths of theirs
             * (a step that moves in whole ms: where it is) */
            int64_t near = now + (q ? 0 : reduce_cone_fine_slack(r, root, s));
            if (near > late) near = late;
            int times = late > near ? 2 : 1;
            for (int twice = 0; twice < times; twice++, late = near) {
                if (x->key == WORLD_KEY_ALL) {
                    /* ordered against every step: kept in every key's vectors */
                    for (int k = 0; k <= observer + 1; k++)
                        for (int f = 0; f < 2; f++) {
                            bank_insert(r, BANK(q, f, k), late);
                            if (q && m < qmin[f * nk1 + k]) qmin[f * nk1 + k] = m;
                            if (q && per > qper[f * nk1 + k]) qper[f * nk1 + k] = per;
                        }
                } else {
                    for (int j = 0; j < nk; j++)
                        /* two inert steps commute: an inert one goes only where all are */
                        for (int f = 0; f < (!x->inert || j > 0 ? 2 : 1); f++) {
                            bank_insert(r, BANK(q, f, keys[j]), late);
                            if (q && m < qmin[f * nk1 + keys[j]]) qmin[f * nk1 + keys[j]] = m;
                            if (q && per > qper[f * nk1 + keys[j]]) qper[f * nk1 + keys[j]] = per;
                        }
                }
                bank_insert(r, all[q], late);
                if (q && m < *qmin_all) *qmin_all = m;
                if (q && per > *qper_all) *qper_all = per;
            }
            continue;
        }
        /* at the same instant the order may be the scheduler's own (an expiry before a delivery,
         * not a decision): one µs more puts the cone step after */
        for (int q = 0; q < 2; q++) {
            if (x->key == WORLD_KEY_ALL) {
                int64_t b = sure ? log_below(r, all[q], x->t_us - sure) : tvec_below(all[q], x->t_us);
                if (b == INT64_MIN) continue;
                int64_t cand = xt > b ? xt - b : 1;
                if (q) cand = reduce_cone_ms_crossing(cand, *qmin_all, *qper_all);
                if (cand < least) least = cand;
                continue;
            }
            for (int j = 0; j < nk; j++) {
                /* an inert step outside the cone is ordered against the cone's steps that are not */
                int f = x->inert && j == 0;
                int64_t b = sure ? log_below(r, BANK(q, f, keys[j]), x->t_us - sure) : tvec_below(BANK(q, f, keys[j]), x->t_us);
                if (b == INT64_MIN) continue;
                int64_t cand = xt > b ? xt - b : 1;
                if (q) cand = reduce_cone_ms_crossing(cand, qmin[f * nk1 + keys[j]], qper[f * nk1 + keys[j]]);
                if (cand < least) least = cand;
            }
        }
    }
#undef BANK
    return least;
}

/* The same for moving the cone of root earlier (an injected fault's consequences): for each
 * cone step but the root, the last step outside the cone before it at one of its keys — at
 * the latest the windows decided after the root can bring that step (delays, reducer.opp_us:
 * a request or a reply late towards the root's cone). The banks hold those latest times; a
 * step that can come past the cone step already, at this value of the root, asks nothing. */
static int64_t order_crossing_earlier(reducer *r, const xpath *p, int root, int observer)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    int nk1 = observer + 2;
    keys_clear(r, observer);
    tvec *any = &r->keys->k[4 * nk1];
    tvec *last = &r->keys->k[0], *last2 = &r->keys->k[nk1]; /* per key: any step; one not inert */
    int64_t least = INT64_MAX;
    for (int s = 0; s < n && least > 1; s++) {
        const world_step *x = &st[s];
        if (x->stale_by != WORLD_NOT_STALE) {
            /* a stale step in the cone matters only if it comes before the step y that ended
             * its wait (y outside the cone) */
            if (stale_inert(r, p, root, s, 0)) continue;
            int y = x->stale_by;
            if (r->opp && st[y].t_us + r->opp_sure_us[y] > x->t_us) continue; /* passed already */
            int64_t yt = st[y].t_us + (r->opp ? r->opp_us[y] : 0);
            int64_t cand = x->t_us > yt ? x->t_us - yt : 1;
            if (cand < least) least = cand;
            continue;
        }
        int keys[3], nk = step_keys(x, observer, keys);
        int cone = s >= root && r->in[s];
        if (!cone) {
            /* from where the windows decided after the root surely bring it (a cone step it
             * passes so already is passed on the paths of theirs), at the latest they can */
            int64_t at = x->t_us + (r->opp ? r->opp_sure_us[s] : 0), late = x->t_us + (r->opp ? r->opp_us[s] : 0);
            if (x->key == WORLD_KEY_ALL) {
                for (int k = 0; k <= observer + 1; k++) tvec_insert2(&last[k], at, late), tvec_insert2(&last2[k], at, late);
            } else {
                for (int j = 0; j < nk; j++) {
                    tvec_insert2(&last[keys[j]], at, late);
                    if (!x->inert || j > 0) tvec_insert2(&last2[keys[j]], at, late);
                }
            }
            if (nk > 0 || x->key == WORLD_KEY_ALL) tvec_insert2(any, at, late);
            continue;
        }
        if (s == root) continue;
        int64_t prev = INT64_MIN;
        if (x->key == WORLD_KEY_ALL) prev = tvec_below(any, x->t_us);
        else
            for (int j = 0; j < nk; j++) {
                int64_t l = tvec_below(x->inert && j == 0 ? &last2[keys[j]] : &last[keys[j]], x->t_us);
                if (l > prev) prev = l;
            }
        if (prev != INT64_MIN && (x->t_us > prev ? x->t_us - prev : 1) < least) least = x->t_us > prev ? x->t_us - prev : 1;
    }
    return least;
}

/* The least µs by which moving the root's cone (as shaped) later or earlier changes an order,
 * a reading or a ctx:before margin; INT64_MAX when nothing can. */
static int64_t cone_crossing(reducer *r, const xpath *p, int root, int later, int observer)
{
    reduce_cone_ms_steps(r, p, root);
    int64_t us = later ? order_crossing_later(r, p, root, observer) : order_crossing_earlier(r, p, root, observer);
    if (us > 1) us = min64(us, reduce_cone_comparison_crossing(r, p, root, later));
    if (us > 1) us = min64(us, reduce_cone_reading_crossing(r, p, root, later));
    return us;
}

/* The least move (µs; later, or earlier) of step root and all it causes that changes an order,
 * a clock reading or a ctx:before margin, step except left out (INT64_MAX: none): the cone
 * as it is, without the windows decided after it (reduce_tie.c's queued steps). Moving it
 * earlier leaves the root's own place out (order_crossing_earlier), which the caller sees. */
int64_t reduce_step_crossing(reducer *r, const xpath *p, int root, int later, int observer, int except)
{
    int n = p->nsteps;
    reduce_cone_of(p->steps, n, root, r->in);
    memset(r->fol, 0, (size_t)n);
    memset(r->stay_us, 0, (size_t)n * sizeof *r->stay_us);
    memset(r->skip, 0, (size_t)n);
    r->skip[except] = 1;
    r->opp = 0, r->nldrift = 0;
    int64_t us = cone_crossing(r, p, root, later, observer);
    r->skip[except] = 0;
    return us;
}

/* The value of window d, at v of 0..last, that moves its step us µs on (at least one unit:
 * a unit too large only takes a smaller step), or -1 past its last. */
static int64_t value_after(const world_decision *d, int64_t v, int64_t last, int64_t us)
{
    int64_t unit = d->unit_us > 0 ? d->unit_us : 1;
    int64_t k = us / unit + (us % unit != 0);
    if (k < 1) k = 1;
    return k > last - v ? -1 : v + k;
}

/* The next value of window decision i (of p) worth a path of its own, or -1. */
static int64_t next_crossing(reducer *r, const xpath *p, size_t i, int observer)
{
    const world_decision *d = &p->decs[i];
    int64_t v = p->rec[i].value, last = p->rec[i].n - 1;
    LL_ASSERT(v >= 0 && d->step >= 0 && d->step < p->nsteps);
    if (v >= last) return -1;
    int root = d->step, n = p->nsteps;
    reduce_cone_of(p->steps, n, root, r->in);
    int later = d->kind == WDEC_DELAY, stayers = 0;
    reduce_cone_opposite(r, p, i, later);
    int64_t us;
    if (!later) {
        memset(r->fol, 0, (size_t)n);
        memset(r->stay_us, 0, (size_t)n * sizeof *r->stay_us);
        us = cone_crossing(r, p, root, 0, observer);
    } else {
        stayers = reduce_anchor_shape_cone(r, p, i, root); /* r->in anew */
        /* the stayers' steps move once the root has moved past their values (reduce_cone_slack) */
        reduce_anchor_skip_floating(r, p, i, root);
        us = cone_crossing(r, p, root, 1, observer);
        if (stayers && us > 1) {
            /* and before that the rest of the cone passes them where they are: the rest against
             * everything else, and then the rest but the stayers' causes (a step never passes
             * what it causes) against the stayers' steps */
            for (int s = root; s < n; s++)
                if (r->stay_us[s]) r->in[s] = 0, r->skip[s] = 1;
            memset(r->stay_us, 0, (size_t)n * sizeof *r->stay_us);
            int64_t u2 = cone_crossing(r, p, root, 1, observer);
            memset(r->skip, 0, (size_t)n);
            reduce_anchor_skip_floating(r, p, i, root);
            for (size_t j = i + 1; j < p->nrec; j++) {
                if (r->followed[j] != 2) continue;
                for (int w = reduce_cone_parent(p->steps, n, p->decs[j].step); w >= root; w = reduce_cone_parent(p->steps, n, w)) {
                    r->skip[w] = 1;
                    if (w == root) break;
                }
            }
            int64_t u3 = cone_crossing(r, p, root, 1, observer);
            us = min64(us, min64(u2, u3));
        }
        memset(r->skip, 0, (size_t)n);
    }
    if (us == INT64_MAX) return -1;
    if (later && d->held_us > 0) us += d->held_us; /* it moves only past what holds it back */
    return value_after(d, v, last, us);
}

/* How much earlier a drift must begin (µs) for an effect of its of `effect` µs — a reading
 * shifted, a timer moved — at per µs of it a µs of effect (less a µs for rounding; at least 1). */
static int64_t drift_u(double per, int64_t effect)
{
    double u = effect > 1 ? (double)(effect - 1) * per : 1;
    return u < 4e18 ? (int64_t)u : INT64_MAX / 2;
}

/* The next value of a drift's start (decision i, WDEC_DRIFT) worth a path of its own, or -1.
 * Beginning u µs earlier, the drift makes its target's clock read u * rate µs more (less, for
 * a slow clock) at every reading from then on, brings the timers of that clock set from then
 * on (and its node's key deadlines, set anew by the drift) earlier (later) by
 * u * |rate| / (1 + rate), and what they cause with them; nothing else moves. So the next
 * value is the least u at which a reading of the target's clock passes a ms boundary, the
 * moving timers' cones (as a root's cone) change an order, a reading or a margin, or a
 * ctx:before between a reading of that clock and one before the drift flips. */
static int64_t drift_crossing(reducer *r, const xpath *p, size_t i, int observer)
{
    const world_decision *d = &p->decs[i];
    const world_step *st = p->steps;
    int n = p->nsteps, S = d->step, key = d->target;
    int64_t v = p->rec[i].value, last = p->rec[i].n - 1;
    if (v >= last || d->rate == 0 || d->rate <= -1) return -1;
    double per = (1 + d->rate) / (d->rate > 0 ? d->rate : -d->rate); /* µs of u per µs of effect */
    int fast = d->rate > 0;
    int64_t least = INT64_MAX;
    /* its moving timers and their cones, as one cone moving earlier (later), rooted at the
     * drift's own step, which is not in it (every timer of it is compared, the first too) */
    int moving = 0;
    for (int s = 0; s < n; s++) {
        int c = s > S ? reduce_cone_parent(st, n, s) : -1, a = st[s].also;
        r->in[s] = s > S && (reduce_drift_moves(st, d, s) || (c > S && c < s && r->in[c]) || (a > S && a < s && r->in[a]));
        moving |= r->in[s];
    }
    /* the readings of its clock from its beginning on (a step's reading at its own actor), but
     * in that cone: there the clock and the step move together */
    for (int s = S + 1; s < n; s++) {
        if (st[s].key != key || !st[s].clock || r->in[s]) continue;
        int64_t u = drift_u(per, fast ? read_tick(r, &st[s]) : read_back(r, &st[s]));
        if (u < least) least = u;
    }
    /* a ctx:before between a reading of its clock from then on and one that is not */
    for (int k = 0; k < p->ncmps; k++) {
        const world_cmp *c = &p->cmps[k];
        int ins = c->step > S && c->step < n && st[c->step].key == key;
        int ino = c->origin > S && c->origin < n && st[c->origin].key == key;
        if (ins == ino) continue;
        int64_t u = drift_u(per, c->margin_us < INT64_MAX ? c->margin_us + 1 : INT64_MAX);
        if (u < least) least = u;
    }
    if (moving && least > 1) {
        /* each step compared at the latest all the windows on its chain can bring it (as a
         * follower's: the timers are not one root's chain) */
        memcpy(r->fol, r->in, (size_t)n);
        memset(r->stay_us, 0, (size_t)n * sizeof *r->stay_us);
        reduce_cone_opposite(r, p, i, !fast);
        r->drifting = 1, r->drift_key = key;
        int64_t m = cone_crossing(r, p, S, !fast, observer);
        r->drifting = 0;
        if (m != INT64_MAX && drift_u(per, m) < least) least = drift_u(per, m);
    }
    return least == INT64_MAX ? -1 : value_after(d, v, last, least);
}

/* What a new decision offers before any path says more: a fault decision, what the world
 * offered at its instant; a window, its first value (and its last with --delays extremes);
 * anything else, every alternative — but a value drawn from a range wider than
 * EXPLORE_RANDOM_ALL (ctx:random) only at evenly spaced values, which returns 1 (sampled). */
int reduce_initial_avail(alts *a, const world_decision *d, const choice *c, int extremes)
{
    alts_clear(a);
    switch (d->kind) {
    case WDEC_FAULT: a->mask = d->offered; return 0;
    case WDEC_DELAY:
    case WDEC_SHIFT:
    case WDEC_DRIFT:
        alts_add(a, 0);
        /* with EXPLORE_DELAYS_ENDS, a window's last value only where it changes an order
         * (reduce_analyse), and a fault's shift 0: at its event's instant */
        if (extremes == EXPLORE_DELAYS_EXTREMES && c->n > 1) alts_add(a, c->n - 1);
        return 0;
    default:
        if (d->tie) { /* which simultaneous event goes first: those the path shows (reduce_tie_needed) */
            alts_add(a, 0);
            return 0;
        }
        if (c->kind == 1 && c->n > EXPLORE_RANDOM_ALL) {
            for (int64_t k = 0; k < EXPLORE_RANDOM_ALL; k++)
                alts_add(a, (int64_t)((double)(c->n - 1) * (double)k / (double)(EXPLORE_RANDOM_ALL - 1)));
            return 1;
        }
        a->all = 1;
        return 0;
    }
}

/* Reads path p and enables the alternatives it shows to be needed, anywhere on its stack. */
void reduce_analyse(reducer *r, const xpath *p, alts *avail, int observer)
{
    r->split = p->ninj < r->faults;
    if (r->split && r->hit) { /* the keys of the actors a fault can hit */
        r->hitkey = xrealloc(r->hitkey, (size_t)r->nhit + 1);
        memset(r->hitkey, 0, (size_t)r->nhit + 1);
        for (int s = 0; s < p->nsteps; s++) {
            const world_step *x = &p->steps[s];
            if (x->actor >= 0 && x->actor < r->nhit && r->hit[x->actor] && x->key >= 0 && x->key < r->nhit) r->hitkey[x->key] = 1;
        }
    }
    reducer_fit(r, p->nsteps + 1, observer + 2);
    reduce_cone_accumulate(r, p);
    r->opp = 0, r->nldrift = 0; /* set per root (next_crossing); the anchors are the cones as they are */
    reduce_anchor_compute(r, p);
    for (int s = 0; s < p->nsteps; s++) r->win[s] = -1;
    /* each step's effects, in order: kid, the first; sib, the next of the same cause */
    for (int s = 0; s < p->nsteps; s++) r->kid[s] = r->sib[s] = -1;
    for (int s = p->nsteps - 1; s >= 0; s--) {
        int c = p->steps[s].cause;
        if (c >= 0 && c < s) {
            r->sib[s] = r->kid[c];
            r->kid[c] = s;
        }
    }
    for (size_t i = 0; i < p->nrec; i++)
        if (p->decs[i].kind == WDEC_DELAY && p->decs[i].step >= 0 && p->decs[i].step < p->nsteps) r->win[p->decs[i].step] = (int)i;
    for (size_t i = 0; i < p->nrec; i++) {
        const world_decision *d = &p->decs[i];
        if (d->kind == WDEC_OTHER && d->tie) {
            reduce_tie_needed(r, p, i, &avail[i], observer);
            continue;
        }
        if ((d->kind != WDEC_DELAY && d->kind != WDEC_SHIFT && d->kind != WDEC_DRIFT) || d->step < 0 || d->step >= p->nsteps)
            continue;
        int64_t next = d->kind != WDEC_DELAY && r->ends ? -1
                       : d->kind == WDEC_DRIFT ? drift_crossing(r, p, i, observer)
                                               : next_crossing(r, p, i, observer);
        if (r->ends) {
            /* EXPLORE_DELAYS_ENDS: a window at its two ends only — its last value where moving
             * it there changes an order (a crossing within the window), as SPIN's partial-order
             * reduction leaves out what commutes */
            if (next > 0) alts_add(&avail[i], p->rec[i].n - 1);
            continue;
        }
        if (next > 0) alts_add(&avail[i], next);
    }
}
