/* reduceint.h — what model/reduce.c, reduce_cone.c, reduce_tie.c and reduce_anchor.c share;
 * not an API. */
#ifndef LOCKLAB_REDUCEINT_H
#define LOCKLAB_REDUCEINT_H

#include <stdint.h>

#include "exploreint.h"

static inline int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}
/* How far step s's clock reading can move, later (tick) or earlier (back), and read the same
 * value: its clock's whole ms (world_step.tick_us, .back_us), except that a reading to the µs (a
 * server's TIME) reads anew every µs — but in a coarse pass (reducer.coarse, explore.c),
 * which takes it at its whole ms too. */
static inline int64_t read_tick(const reducer *r, const world_step *s)
{
    return s->clock == WORLD_READ_US && !r->coarse ? 1 : s->tick_us;
}
static inline int64_t read_back(const reducer *r, const world_step *s)
{
    return s->clock == WORLD_READ_US && !r->coarse ? 1 : s->back_us;
}
/* reduce_cone.c: what moves with a window */
/* The step whose handling made s (an injected fault's: that of the step that makes its
 * instant), or -1. */
int reduce_cone_parent(const world_step *st, int n, int s);
/* acc and facc of every step of p: how much later the windows on its chain can still bring
 * it (all of them; those that move it µs for µs) */
void reduce_cone_accumulate(reducer *r, const xpath *p);
/* How much later than its place on this path the windows on its chain can bring step s,
 * beyond what they bring the root (a follower's step: all of its chain's); the same of the
 * windows that move it µs for µs (none for a follower's). */
int64_t reduce_cone_slack(const reducer *r, int root, int s);
/* How far the root must move for step s to move m µs with it: with the windows below the root
 * on s's chain at their last values, the rest (m less their slack); where they get it there
 * alone, m, by itself (that move is theirs at this value of the root and every later one; the
 * root's corner with it is where it gets there alone on the path where they sit anchored). */
int64_t reduce_cone_rest(const reducer *r, int root, int s, int64_t m);
int64_t reduce_cone_fine_slack(const reducer *r, int root, int s);
/* opp_us and opp_sure_us of every step (reducer): how far the windows decided after decision
 * i that move their cones the other way from the root's (a fault's shift, earlier, for a
 * delay root; a delay, later, for a shift root) can bring it, each from its value on this
 * path to its last — at most, and surely (by their last values: a window held behind another
 * message, or a step held behind one, may move less). A timer set from a reading on the way
 * moves by the whole ms its setter's reading passes. */
void reduce_cone_opposite(reducer *r, const xpath *p, size_t i, int later);
/* Whether step s is a timer a drift (decision d, WDEC_DRIFT) moves as it begins earlier: one
 * of its target's, set from its beginning on (or set anew by it: a node's key deadlines). */
int reduce_drift_moves(const world_step *st, const world_decision *d, int s);
/* The least move of the root at which a step of the whole-ms banks (the first of them to
 * move at qmin, by at most qper a time) passes a step d µs ahead of it. */
int64_t reduce_cone_ms_crossing(int64_t d, int64_t qmin, int64_t qper);
/* The step that y moves with: y itself, or for an injected fault the next step that is not
 * one (the one that makes its instant); -1 if there is none. */
int reduce_cone_instant_maker(const world_step *st, int n, int y);
/* in[s] for every step: is it in the cone of root (root and what it caused, transitively)? */
void reduce_cone_of(const world_step *st, int n, int root, uint8_t *in);
/* Which steps of the cone (r->in) move in whole ms, and how (QM, QB, QP below), set from
 * which step's reading (QG). */
void reduce_cone_ms_steps(reducer *r, const xpath *p, int root);
#define QM(r, s) ((r)->qm[4 * (s)])
#define QB(r, s) ((r)->qm[4 * (s) + 1])
#define QP(r, s) ((r)->qm[4 * (s) + 2])
#define QG(r, s) ((r)->qm[4 * (s) + 3]) /* the step whose reading it was set from */
/* The least move of the cone (r->in; later, or earlier) that changes a clock reading in it
 * against one outside, or flips a ctx:before between the two; INT64_MAX when none could. */
int64_t reduce_cone_reading_crossing(reducer *r, const xpath *p, int root, int later);
int64_t reduce_cone_comparison_crossing(reducer *r, const xpath *p, int root, int later);

/* reduce_tie.c: the alternatives of a choice among simultaneous events (decision i of p)
 * that the path shows to be needed, added to a. observer: the key of the checker's line. */
void reduce_tie_needed(reducer *r, const xpath *p, size_t i, alts *a, int observer);
/* reduce.c: the least move of step root's cone (later, or earlier) that changes an order, a
 * reading or a margin, step except left out; INT64_MAX when none. */
int64_t reduce_step_crossing(reducer *r, const xpath *p, int root, int later, int observer, int except);

/* reduce_anchor.c: the windows decided after a root (the top of reduce.c) */
enum { ANCHOR_NONE = -1, ANCHOR_ELSEWHERE = -2, ANCHOR_FLOATING = -3 };
/* Per window decision of p off its first value: the steps it is anchored to (r->anc from
 * r->anc_at[j], ended by -1), ANCHOR_ELSEWHERE or ANCHOR_FLOATING; others ANCHOR_NONE. */
void reduce_anchor_compute(reducer *r, const xpath *p);
/* Shapes the cone of the root (decision i, step root) in r->in for its next crossing:
 * followers added (r->fol), stayers marked (r->stay, r->followed[j] == 2); returns whether
 * there is any stayer. */
int reduce_anchor_shape_cone(reducer *r, const xpath *p, size_t i, int root);
/* Marks in r->skip the cones of the floating windows decided after the root. */
void reduce_anchor_skip_floating(reducer *r, const xpath *p, size_t i, int root);

#endif
