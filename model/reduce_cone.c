/* reduce_cone.c — what moves when a window's value moves, for model/reduce.c's crossings
 * (its header says why): the window step's cone (the step and everything its handling
 * scheduled, transitively; an injected fault moves with the step that makes its instant);
 * how much later the windows below it on a chain of causes can still bring a cone step (its
 * slack); which cone steps move in whole ms (timers and expiries set from a clock); and the
 * least move at which a clock reading in the cone changes value or a ctx:before margin
 * between the cone and the rest flips. */
#include <string.h>

#include "steps.h"
#include "exploreint.h"
#include "reduceint.h"

/* The step whose handling made s (an injected fault's: that of the step that makes its
 * instant), or -1. */
int reduce_cone_parent(const world_step *st, int n, int s)
{
    int c = st[s].cause;
    if (c != WORLD_CAUSE_INSTANT) return c;
    int s2 = reduce_cone_instant_maker(st, n, s);
    return s2 >= 0 && st[s2].cause < s ? st[s2].cause : -1;
}

/* acc_us[s]: how much later the windows on s's chain of causes (s's own included) can still
 * bring it, each from its value on this path to its last; facc_us[s], the same of the windows
 * that can bring it to every µs of that range (a delay of 1 µs a unit, not held behind
 * another message on its link). */
void reduce_cone_accumulate(reducer *r, const xpath *p)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    for (int s = 0; s < n; s++) r->acc_us[s] = r->facc_us[s] = 0;
    for (size_t i = 0; i < p->nrec; i++) {
        const world_decision *d = &p->decs[i];
        if (d->kind == WDEC_DELAY && d->step >= 0 && d->step < n) {
            int64_t left = p->rec[i].n - 1 - p->rec[i].value;
            if (left <= 0) continue;
            r->acc_us[d->step] += left > INT64_MAX / 4 / d->unit_us ? INT64_MAX / 4 : left * d->unit_us;
            if (d->unit_us == 1 && d->held_us == 0) r->facc_us[d->step] += left > INT64_MAX / 4 ? INT64_MAX / 4 : left;
        }
    }
    for (int s = 0; s < n; s++) {
        int c = reduce_cone_parent(st, n, s);
        if (c >= 0 && c < s) {
            r->acc_us[s] += r->acc_us[c];
            if (r->acc_us[s] > INT64_MAX / 4) r->acc_us[s] = INT64_MAX / 4;
            r->facc_us[s] += r->facc_us[c];
            if (r->facc_us[s] > INT64_MAX / 4) r->facc_us[s] = INT64_MAX / 4;
        }
    }
}

/* Whether x fires at a deadline of its actor's clock, set by its cause from a reading: a
 * coroutine's sleep or wait, a node's key deadline, a WAIT's timeout. */
static int is_timer(const world_step *x)
{
    return x->ev == STEP_TIMER || x->ev == STEP_EXPIRE || x->ev == STEP_WAIT_TIMEOUT;
}

int reduce_drift_moves(const world_step *st, const world_decision *d, int s)
{
    const world_step *x = &st[s];
    return x->key == d->target && x->cause >= d->step && is_timer(x);
}

/* How far a step set from a reading at c (a timer, an expiry) moves when c moves by u: a
 * whole ms of that clock for each of its ms boundaries c passes (later: the first at its tick;
 * earlier: at its back). */
static int64_t ms_moved(const world_step *c, int64_t u, int later)
{
    int64_t edge = later ? c->tick_us : c->back_us, per = c->tick_us + c->back_us - 1;
    if (per < 1) per = 1;
    if (u < edge || edge < 1) return 0;
    int64_t k = 1 + (u - edge) / per;
    return k > INT64_MAX / 4 / per ? INT64_MAX / 4 : k * per;
}

void reduce_cone_opposite(reducer *r, const xpath *p, size_t i, int later)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    int64_t *most = r->opp_us, *sure = r->opp_sure_us;
    memset(most, 0, (size_t)n * sizeof *most);
    memset(sure, 0, (size_t)n * sizeof *sure);
    r->opp = 0;
    r->nldrift = 0;
    for (size_t j = i + 1; j < p->nrec; j++) {
        const world_decision *d = &p->decs[j];
        if (d->step < 0 || d->step >= n) continue;
        int64_t left = p->rec[j].n - 1 - p->rec[j].value, unit = d->unit_us > 0 ? d->unit_us : 1;
        if (left <= 0) continue;
        int64_t us = left > INT64_MAX / 4 / unit ? INT64_MAX / 4 : left * unit;
        if (d->kind == WDEC_DRIFT) {
            if (d->rate == 0 || d->rate <= -1) continue;
            /* beginning earlier, it shifts its target's readings from then on, and brings the
             * timers set from then on earlier (a fast clock) or later (a slow one), by
             * rate/(1 + rate) of it (a µs either way for rounding) */
            double byd = (double)us * (d->rate > 0 ? d->rate : -d->rate) / (1 + d->rate);
            int64_t by = byd < 9e15 ? (int64_t)byd : INT64_MAX / 8; /* a rate near -1: no overflow */
            if (r->nldrift == r->capldrift) {
                r->capldrift = r->capldrift ? 2 * r->capldrift : 8;
                r->ldrift = xrealloc(r->ldrift, (size_t)r->capldrift * sizeof *r->ldrift);
            }
            r->ldrift[r->nldrift++] = (struct later_drift){ d->target, d->step, by + 1 };
            if ((d->rate > 0) != later) continue; /* its timers move the root's way */
            for (int s = d->step + 1; s < n; s++)
                if (reduce_drift_moves(st, d, s)) {
                    most[s] += by + 1;
                    sure[s] += by > 0 ? by - 1 : 0;
                    r->opp = 1;
                }
            continue;
        }
        if (d->kind != (later ? WDEC_SHIFT : WDEC_DELAY)) continue;
        most[d->step] += us;
        if (d->held_us == 0) sure[d->step] += us; /* held behind another message: maybe less */
        r->opp = 1;
    }
    if (!r->opp) return;
    /* the root's cone moves later for a delay: the others' come earlier (a shift), and the
     * reverse; a timer's setter moving that way passes its ms boundaries on that side */
    for (int s = 0; s < n; s++) {
        int c = reduce_cone_parent(st, n, s);
        if (c < 0 || c >= s) continue;
        if (is_timer(&st[s])) {
            /* set from a reading: it moves a whole ms of that clock at a time, or not at all */
            sure[s] += ms_moved(&st[c], sure[c], !later);
            most[s] += ms_moved(&st[c], most[c], !later);
        } else {
            sure[s] = st[s].also >= 0 ? 0 : sure[s] + sure[c]; /* held behind another: maybe not */
            most[s] += most[c];
        }
        int a = st[s].also;
        if (a >= 0 && a < s && most[a] > most[s]) most[s] = most[a];
        if (most[s] > INT64_MAX / 4) most[s] = INT64_MAX / 4;
        if (sure[s] > most[s]) sure[s] = most[s];
    }
    /* a fault's start never crosses what its window spans (its gap ends just after the last
     * step it could be ordered against, model/fault_search.c): only what it schedules moves */
    if (later)
        for (size_t j = i + 1; j < p->nrec; j++) {
            const world_decision *d = &p->decs[j];
            if (d->kind != WDEC_SHIFT || d->step < 0 || d->step >= n) continue;
            int c = reduce_cone_parent(st, n, d->step);
            most[d->step] = c >= 0 && c < d->step ? most[c] : 0;
            sure[d->step] = c >= 0 && c < d->step ? sure[c] : 0;
        }
}

/* The step that y moves with: y itself, or for an injected fault the step that makes its
 * instant — its target's first event at that instant (a crash, pause or jump lands just before
 * an event of its target: sim/world.c), else the next step that is not an injected fault; -1
 * if there is none. */
int reduce_cone_instant_maker(const world_step *st, int n, int y)
{
    if (y >= n || st[y].cause != WORLD_CAUSE_INSTANT) return y < n ? y : -1;
    for (int s = y + 1; s < n && st[s].t_us == st[y].t_us; s++)
        if (st[s].cause != WORLD_CAUSE_INSTANT && st[y].key >= 0 && st[s].key == st[y].key) return s;
    while (y < n && st[y].cause == WORLD_CAUSE_INSTANT) y++;
    return y < n ? y : -1;
}

void reduce_cone_of(const world_step *st, int n, int root, uint8_t *in)
{
    memset(in, 0, (size_t)n);
    in[root] = 1;
    for (int s = root + 1; s < n; s++) {
        int c = st[s].cause;
        if (c == WORLD_CAUSE_INSTANT) {
            /* an injected fault moves with the step that makes its instant */
            int s2 = reduce_cone_instant_maker(st, n, s);
            int c2 = s2 >= 0 ? st[s2].cause : -1;
            in[s] = s2 >= 0 && c2 >= root && c2 < s && in[c2];
        } else {
            in[s] = c >= root && c < s && in[c];
        }
        int a = st[s].also; /* held behind a message of the cone on its link: it moves too */
        if (a >= root && a < s && in[a]) in[s] = 1;
    }
}

/* How much later than its place on this path the windows on its chain can bring step s,
 * beyond what they bring the root: for a cone step, those below the root on its chain; for a
 * follower's step (not on the root's chain), all of its chain's. */
int64_t reduce_cone_slack(const reducer *r, int root, int s)
{
    return r->fol[s] ? r->acc_us[s] : r->acc_us[s] - r->acc_us[root];
}

int64_t reduce_cone_rest(const reducer *r, int root, int s, int64_t m)
{
    int64_t slack = reduce_cone_slack(r, root, s);
    return m - slack > 0 ? m - slack : m;
}

/* The part of reduce_cone_slack that windows below the root moving s µs for µs make up (facc_us);
 * none for a follower's step (its chain's windows may have been decided before the root's,
 * and stay where they are on the paths below it). */
int64_t reduce_cone_fine_slack(const reducer *r, int root, int s)
{
    return r->fol[s] ? 0 : r->facc_us[s] - r->facc_us[root];
}

/* Did step s read a clock, itself or through the message that caused it (a value read at
 * another actor, carried here)? */
static int reads_clock(const world_step *st, int s)
{
    int c = st[s].cause;
    return st[s].clock || (c >= 0 && st[c].clock && st[c].key != st[s].key);
}

/* Which steps of the cone (r->in) move in whole ms: a timer, an expiry or a WAIT's timeout
 * (sim/node_acks.c: a deadline of the node's clock) set from a clock by a cone step falls on
 * a whole ms of that clock, and everything it causes moves with it. For
 * each: QM, the least move of the root that moves it (later; its setter's tick, or its
 * setter's own QM), QB the same earlier (back), QP the longest true µs of a ms of the clocks
 * on its way, QG the step whose reading set it (the windows on that step's chain move it
 * too: reduce.c's order_crossing_later); QM 0 for a step that moves µs for µs. An injected fault moves with the step
 * that makes its instant. */
void reduce_cone_ms_steps(reducer *r, const xpath *p, int root)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    for (int s = root; s < n; s++) {
        QM(r, s) = QB(r, s) = QP(r, s) = 0;
        QG(r, s) = s;
        if (!r->in[s] || s == root) continue;
        int c = st[s].cause;
        if (c < root || c >= s || !r->in[c]) continue;
        /* (a drift's cone: a timer set from a reading of the drifting clock moves with it) */
        int fixed = r->drifting && st[c].key == r->drift_key && !QM(r, c);
        if (is_timer(&st[s]) && !fixed) {
            int64_t tick = read_tick(r, &st[c]), back = read_back(r, &st[c]);
            int64_t m = tick > 1 ? tick : 1, mb = back > 1 ? back : 1;
            int64_t per = tick + back - 1;
            if (QM(r, c)) {
                /* a setter that moves in whole ms itself reads another value only when it
                 * moves: at its own first move, whatever its place in its ms (it sits on a
                 * whole ms, one µs past the last: a back of 1 that no move of the root reaches) */
                m = QM(r, c);
                mb = QB(r, c);
                if (QP(r, c) > per) per = QP(r, c);
            }
            QM(r, s) = m;
            QB(r, s) = mb;
            QP(r, s) = per > 1 ? per : 1;
            QG(r, s) = QM(r, c) ? QG(r, c) : c;
        } else if (QM(r, c)) {
            QM(r, s) = QM(r, c);
            QB(r, s) = QB(r, c);
            QP(r, s) = QP(r, c);
            QG(r, s) = QG(r, c);
        }
    }
    for (int s = n - 1; s > root; s--) {
        if (!r->in[s] || st[s].cause != WORLD_CAUSE_INSTANT) continue;
        int mk = reduce_cone_instant_maker(st, n, s);
        if (mk > s && r->in[mk]) {
            QM(r, s) = QM(r, mk);
            QB(r, s) = QB(r, mk);
            QP(r, s) = QP(r, mk);
            QG(r, s) = QG(r, mk);
        }
    }
}

/* The least move of the root at which a step of the whole-ms banks (the first of them to move
 * at qmin, by at most qper a time) passes a step d µs ahead of it: its staircase passes d after
 * at most floor(d / qper) steps of qper beyond the first. Never later than that, and at least 1. */
int64_t reduce_cone_ms_crossing(int64_t d, int64_t qmin, int64_t qper)
{
    int64_t m = qmin + (d > qper ? d - qper : 0);
    return m > 1 ? m : 1;
}

/* Whether what step s reads is the drifting clock of a drift's root (reducer.drift_key): in
 * its moving cone, the clock and the step move together and it reads the same. */
static int reading_fixed(const reducer *r, const world_step *st, int s)
{
    if (!r->drifting) return 0;
    int c = st[s].cause;
    return st[s].clock ? st[s].key == r->drift_key : c >= 0 && st[c].key == r->drift_key;
}

/* The least tick (later) or back (earlier) of a clock reading inside the cone; INT64_MAX when
 * the cone reads no clock. A reading is compared with whatever the model holds: another
 * reading, or a constant (`TIME`'s µs against 7, ctx:now() against a date written in the
 * model) — the clocks' origin, their value at 0 s, is a reading outside every cone. (Until
 * round 4 a cone whose readings had no reading outside it was taken as moving freely: a model
 * comparing the server's TIME with a constant was proven safe where runs violate it.) */
int64_t reduce_cone_reading_crossing(reducer *r, const xpath *p, int root, int later)
{
    const world_step *st = p->steps;
    int inside = 0;
    int64_t least = INT64_MAX;
    for (int s = 0; s < p->nsteps; s++) {
        if (!reads_clock(st, s) || (!later && s == root)) continue; /* a fault's start moves in its gap */
        if (reading_fixed(r, st, s)) continue;
        if (s >= root && r->in[s]) {
            /* a step moving in whole ms reads another value at its first move */
            int64_t m = later ? (QM(r, s) ? QM(r, s) : read_tick(r, &st[s])) + r->stay_us[s] : QM(r, s) ? QB(r, s) : read_back(r, &st[s]);
            if (later) m = reduce_cone_rest(r, root, s, m);
            if (m > 0 && m < least) least = m;
            inside = 1;
        }
    }
    return inside ? least : INT64_MAX;
}

/* The least move of the cone that could flip a deadline decided with ctx:before between a
 * reading inside the cone and one outside it: its margin, and at least until the cone's
 * reading changes value. INT64_MAX when none could. */
int64_t reduce_cone_comparison_crossing(reducer *r, const xpath *p, int root, int later)
{
    int64_t least = INT64_MAX;
    for (int k = 0; k < p->ncmps; k++) {
        const world_cmp *c = &p->cmps[k];
        int s = c->step, o = c->origin;
        int in_s = s >= root && s < p->nsteps && r->in[s];
        int in_o = o >= root && o < p->nsteps && r->in[o];
        if (in_s == in_o) continue;
        /* it flips one way only: its reading later or its origin earlier when it read before
         * the instant; the cone moves later for a delay, earlier for a fault's shift */
        if ((in_s == later) != (c->before != 0)) continue;
        int x = in_s ? s : o, y = in_s ? o : s;
        if (reading_fixed(r, p->steps, x)) continue; /* it reads the same (a drift's cone) */
        int64_t need = c->margin_us < INT64_MAX ? c->margin_us + 1 : INT64_MAX;
        /* the windows decided after the root that move the other way bring the reading outside
         * towards it (reducer.opp_us): the root need move only the rest of the margin — but for
         * readings in whole ms its own reading must still change (grain); a margin of true time
         * they surely eat alone flips at this value of the root, on the paths of theirs */
        if (r->opp && y >= 0 && y < p->nsteps && r->opp_us[y] > 0) {
            if (c->true_time && r->opp_sure_us[y] > c->margin_us) continue;
            need = need > r->opp_us[y] ? need - r->opp_us[y] : 1;
        }
        /* a drift decided after the root shifts the readings of its clock from its beginning
         * on: where it shifts one of the two and not the other, by as much as it can */
        for (int j = 0; j < r->nldrift && !c->true_time; j++) {
            const struct later_drift *ld = &r->ldrift[j];
            int sx = x > ld->step && x < p->nsteps && p->steps[x].key == ld->key;
            int sy = y > ld->step && y < p->nsteps && p->steps[y].key == ld->key;
            if (sx != sy) need = need > ld->us ? need - ld->us : 1;
        }
        int64_t m = need;
        int64_t grain = c->true_time ? 0 : later ? read_tick(r, &p->steps[x]) : read_back(r, &p->steps[x]);
        if (grain > m) m = grain;
        /* a step moving in whole ms: from its first move, a ms of its clock at a time */
        if (x >= root && QM(r, x)) m = reduce_cone_ms_crossing(need, later ? QM(r, x) : QB(r, x), QP(r, x));
        if (later) m += r->stay_us[x];
        if (later) m = reduce_cone_rest(r, root, x, m);
        if (m > 0 && m < least) least = m;
    }
    return least;
}
