/* reduce_anchor.c — where the windows decided after a root sit, for its next crossing
 * (model/reduce.c's "followers", "stayers" and "floating" windows: the top of that file says
 * what they are and why they lose no order). */
#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "exploreint.h"
#include "reduceint.h"

#define ANCHORS_MAX 16

/* Are two steps ordered against each other when one passes the other (order_crossing_*'s
 * relation, for steps not at the same instant too)? */
static int steps_dependent(const world_step *x, const world_step *y)
{
    if (x->key == WORLD_KEY_ALL || y->key == WORLD_KEY_ALL) return 1;
    if (x->key == WORLD_KEY_CUT || y->key == WORLD_KEY_CUT) return x->cut || y->cut || x->key == y->key;
    if (x->key < 0 || y->key < 0) return 0;
    if (x->client && y->client) return 1;
    return x->key == y->key && !(x->inert && y->inert);
}

/* The cone of a window's step w (reduce_cone_of), with the injected faults whose instant w makes (they
 * land just before it at its instant: reduce_cone_instant_maker), in in[] from index `from` on. */
static void window_cone(const world_step *st, int n, int w, int from, uint8_t *in)
{
    reduce_cone_of(st, n, w, in);
    for (int s = w - 1; s > from && st[s].t_us == st[w].t_us; s--)
        if (st[s].cause == WORLD_CAUSE_INSTANT && reduce_cone_instant_maker(st, n, s) == w) in[s] = 1;
}

/* For each window decision off its first value, the steps it is anchored to (r->anc from
 * r->anc_at[j], ended by -1); ANCHOR_ELSEWHERE: anchored (also) to what no root's cone can
 * hold — a clock's ms boundary or a ctx:before margin its cone's readings would cross, a
 * message held behind another, more than ANCHORS_MAX steps; ANCHOR_FLOATING: to nothing.
 * Others: ANCHOR_NONE. A step of its cone that moves in whole ms (reduce_cone_ms_steps) does not move one
 * unit back, or moves a whole ms of its clock back, passing all that ms holds. */
void reduce_anchor_compute(reducer *r, const xpath *p)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    if (p->nrec > r->capdec) {
        r->capdec = p->nrec * 2;
        r->anc_at = xrealloc(r->anc_at, r->capdec * sizeof *r->anc_at);
        r->followed = xrealloc(r->followed, r->capdec * sizeof *r->followed);
    }
    r->nanc = 0;
    uint8_t *keep = r->in;
    r->in = r->tmp; /* reduce_cone_reading_crossing and reduce_cone_comparison_crossing read the cone there */
    for (size_t j = 0; j < p->nrec; j++) {
        const world_decision *d = &p->decs[j];
        r->anc_at[j] = ANCHOR_NONE;
        if (d->kind != WDEC_DELAY || p->rec[j].value == 0 || d->step < 0 || d->step >= n) continue;
        int b = d->step;
        int64_t unit = d->unit_us > 0 ? d->unit_us : 1;
        window_cone(st, n, b, -1, r->in);
        reduce_cone_ms_steps(r, p, b);
        int z0 = b; /* its faults, at its instant before it: they move µs for µs with it */
        while (z0 > 0 && st[z0 - 1].t_us == st[b].t_us) z0--;
        for (int z = z0; z < b; z++) QM(r, z) = QB(r, z) = QP(r, z) = 0;
        int start = r->nanc, count = 0, elsewhere = 0;
        for (int z = z0; z < n && !elsewhere; z++) {
            if (!r->in[z]) continue;
            if (st[z].also >= 0 && !r->in[st[z].also]) { /* held behind a message outside */
                elsewhere = 1;
                break;
            }
            /* a step moving in whole ms does not move one unit back, unless it moves a whole
             * ms back (and passes what that ms holds) */
            int64_t reach = unit;
            if (QM(r, z)) {
                if (QB(r, z) > unit) continue;
                reach = QP(r, z);
            }
            /* a stale timer is ordered only against the step that ended its wait */
            int stale = st[z].stale_by != WORLD_NOT_STALE, ender = stale ? st[z].stale_by : -1;
            if (stale && (ender < 0 || ender >= z || r->in[ender])) continue;
            /* the steps just before it, and those at its instant after it (a tie: the
             * scheduler's order there is a decision of its own, reduce_tie_needed) */
            int yend = z + 1;
            while (yend < n && st[yend].t_us == st[z].t_us) yend++;
            for (int y = yend - 1; y >= 0 && st[y].t_us >= st[z].t_us - reach; y--) {
                if (y == z || r->in[y]) continue;
                if (stale ? y != ender : st[y].stale_by != WORLD_NOT_STALE || !steps_dependent(&st[y], &st[z])) continue;
                /* an injected fault moves with the step that makes its instant (reduce_cone_of) */
                int a = reduce_cone_instant_maker(st, n, y);
                if (a < 0 || r->in[a]) continue;
                if (count == ANCHORS_MAX) {
                    elsewhere = 1;
                    break;
                }
                if (r->nanc + 2 > r->capanc) {
                    r->capanc = r->capanc ? r->capanc * 2 : 64;
                    r->anc = xrealloc(r->anc, (size_t)r->capanc * sizeof *r->anc);
                }
                r->anc[r->nanc++] = a;
                count++;
            }
        }
        if (!elsewhere && reduce_cone_reading_crossing(r, p, b, 0) > unit && reduce_cone_comparison_crossing(r, p, b, 0) > unit) {
            if (count > 0) {
                r->anc[r->nanc++] = -1; /* room kept when the last was added */
                r->anc_at[j] = start;
            } else {
                r->anc_at[j] = ANCHOR_FLOATING;
            }
        } else {
            r->nanc = start;
            r->anc_at[j] = ANCHOR_ELSEWHERE;
        }
    }
    r->in = keep;
}

/* Are all of window j's anchors in the moving cone (r->in, not staying)? */
static int anchored_in(const reducer *r, size_t j, int root)
{
    for (int k = r->anc_at[j]; r->anc[k] >= 0; k++)
        if (r->anc[k] < root || !r->in[r->anc[k]] || r->stay_us[r->anc[k]]) return 0;
    return 1;
}

/* Shapes the root's cone (r->in; root's step `root`, decision i) for its next crossing.
 * Followers: the windows decided after the root, outside its cone, anchored only to its cone
 * (or a follower's), transitively, are added to it (r->fol marks their steps). Stayers: a
 * window below the root on its chain (its step in the root's cone) anchored only outside the
 * cone stays where it is while the root moves up to its value (µs): its path starts it again
 * at its first value, and its crossings bring it back to just after the same steps. Its
 * cone's steps get that value in r->stay_us. A follower anchored to a stayer stays too: it is
 * not followed (its cone is compared where it is). Returns whether there is any stayer. */
int reduce_anchor_shape_cone(reducer *r, const xpath *p, size_t i, int root)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    memset(r->stay_us, 0, (size_t)n * sizeof *r->stay_us);
    for (size_t j = i + 1; j < p->nrec; j++) r->followed[j] = 0; /* 2: a stayer */
    for (;;) {
        /* followers, with the stayers known so far staying */
        reduce_cone_of(st, n, root, r->in);
        memset(r->fol, 0, (size_t)n);
        for (size_t j = i + 1; j < p->nrec; j++)
            if (r->followed[j] == 1) r->followed[j] = 0;
        for (int changed = 1; changed;) {
            changed = 0;
            for (size_t j = i + 1; j < p->nrec; j++) {
                const world_decision *d = &p->decs[j];
                if (r->followed[j] || r->anc_at[j] < 0 || d->step < root || r->in[d->step] || !anchored_in(r, j, root))
                    continue;
                r->followed[j] = 1;
                changed = 1;
                window_cone(st, n, d->step, root, r->tmp);
                for (int s = root + 1; s < n; s++)
                    if (r->tmp[s] && !r->in[s]) r->in[s] = r->fol[s] = 1;
            }
        }
        /* stayers: in the root's own cone, anchored only outside the moving cone */
        int more = 0;
        for (size_t j = i + 1; j < p->nrec; j++) {
            const world_decision *d = &p->decs[j];
            if (r->followed[j] || r->anc_at[j] < 0 || d->step <= root || !r->in[d->step] || r->fol[d->step]) continue;
            int outside = 1;
            for (int k = r->anc_at[j]; r->anc[k] >= 0 && outside; k++) outside = !(r->anc[k] >= root && r->in[r->anc[k]]);
            if (!outside) continue;
            r->followed[j] = 2;
            more = 1;
            int64_t unit = d->unit_us > 0 ? d->unit_us : 1;
            int64_t v = p->rec[j].value;
            int64_t can = v > INT64_MAX / 4 / unit ? INT64_MAX / 4 : v * unit;
            window_cone(st, n, d->step, root, r->tmp);
            for (int s = root + 1; s < n; s++)
                if (r->tmp[s]) r->stay_us[s] += can; /* nested stayers: each comes down by its own */
        }
        if (!more) break;
        /* a follower anchored to a stayer's cone stays too: find the followers again */
        int conflict = 0;
        for (size_t j = i + 1; j < p->nrec && !conflict; j++)
            if (r->followed[j] == 1 && !anchored_in(r, j, root)) conflict = 1;
        if (!conflict) break;
    }
    for (size_t j = i + 1; j < p->nrec; j++)
        if (r->followed[j] == 2) return 1;
    return 0;
}

/* Floating windows: decided after the root, outside its cone, off their first values but
 * anchored to nothing (one unit earlier passes nothing). Where such a window sits inside its
 * region is not an order of anything: the root's crossings against its cone there are not
 * needed — the root's path starts it again at its first value, and from the paths where its
 * crossings have anchored it (to a step, or its first value) the root's crossings past it
 * are taken. Their cones are left out of the root's order crossing (r->skip). */
void reduce_anchor_skip_floating(reducer *r, const xpath *p, size_t i, int root)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    for (size_t j = i + 1; j < p->nrec; j++) {
        const world_decision *d = &p->decs[j];
        if (r->anc_at[j] != ANCHOR_FLOATING || d->step < root || r->in[d->step]) continue;
        window_cone(st, n, d->step, root, r->tmp);
        for (int s = root + 1; s < n; s++)
            if (r->tmp[s] && !r->in[s]) r->skip[s] = 1;
    }
}
