/* reduceint.h — what model/reduce.c, reduce_tie.c and reduce_anchor.c share; not an API. */
#ifndef LOCKLAB_REDUCEINT_H
#define LOCKLAB_REDUCEINT_H

#include <stdint.h>

#include "exploreint.h"

int64_t min64(int64_t a, int64_t b);
/* How far step s's clock reading can move, later (tick) or earlier (back), and read the same
 * value: its clock's whole ms (world_step.tick, .back), except that a reading to the µs (a
 * server's TIME) reads anew every µs — but in a coarse pass (reducer.coarse, explore.c),
 * which takes it at its whole ms too. */
static inline int64_t read_tick(const reducer *r, const world_step *s)
{
    return s->clock == WORLD_READ_US && !r->coarse ? 1 : s->tick;
}
static inline int64_t read_back(const reducer *r, const world_step *s)
{
    return s->clock == WORLD_READ_US && !r->coarse ? 1 : s->back;
}
/* The step that y moves with: y itself, or for an injected fault the next step that is not
 * one (the one that makes its instant); -1 if there is none. */
int instant_maker(const world_step *st, int n, int y);
/* in[s] for every step: is it in the cone of root (root and what it caused, transitively)? */
void cone_of(const world_step *st, int n, int root, uint8_t *in);
/* Which steps of the cone (r->in) move in whole ms, and how (QM, QB, QP below). */
void ms_steps(reducer *r, const xpath *p, int root);
#define QM(r, s) ((r)->qm[3 * (s)])
#define QB(r, s) ((r)->qm[3 * (s) + 1])
#define QP(r, s) ((r)->qm[3 * (s) + 2])
/* The least move of the cone (r->in; later, or earlier) that changes a clock reading in it
 * against one outside, or flips a ctx:before between the two; INT64_MAX when none could. */
int64_t reading_crossing(reducer *r, const xpath *p, int root, int later);
int64_t comparison_crossing(reducer *r, const xpath *p, int root, int later);

/* reduce_tie.c: the alternatives of a choice among simultaneous events (decision i of p)
 * that the path shows to be needed, added to a. */
void tie_needed(reducer *r, const xpath *p, size_t i, alts *a);

/* reduce_anchor.c: the windows decided after a root (the top of reduce.c) */
enum { ANCHOR_NONE = -1, ANCHOR_ELSEWHERE = -2, ANCHOR_FLOATING = -3 };
/* Per window decision of p off its first value: the steps it is anchored to (r->anc from
 * r->anc_at[j], ended by -1), ANCHOR_ELSEWHERE or ANCHOR_FLOATING; others ANCHOR_NONE. */
void anchors_compute(reducer *r, const xpath *p);
/* Shapes the cone of the root (decision i, step root) in r->in for its next crossing:
 * followers added (r->fol), stayers marked (r->stay, r->followed[j] == 2); returns whether
 * there is any stayer. */
int shape_cone(reducer *r, const xpath *p, size_t i, int root);
/* Marks in r->skip the cones of the floating windows decided after the root. */
void skip_floating(reducer *r, const xpath *p, size_t i, int root);

#endif
