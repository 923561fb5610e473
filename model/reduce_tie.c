/* reduce_tie.c — the choice among simultaneous events (a tie: which of them sched_pop
 * offers goes first): the class of the chosen one's dependent events is permuted, the others
 * are not (a persistent set), with what a tie's steps queue at one actor at one later
 * instant (model/reduce.c's header says what a path shows to be needed; reduceint.h). */
#include <stdlib.h>
#include <string.h>

#include "reduceint.h"

/* Do two steps at one instant depend on each other (their order may matter)? The same key
 * (a node and its replicas; a client), a step that touches every actor, or two of the
 * checker's observations of clients; a partition's start or end and a step that asked what
 * a partition cuts (world_step.cut). A step that touches no actor's state (key -1) commutes
 * with everything else. */
static int tie_dependent(const world_step *x, const world_step *y)
{
    if (x->key == WORLD_KEY_ALL || y->key == WORLD_KEY_ALL) return 1;
    if (x->key == WORLD_KEY_CUT || y->key == WORLD_KEY_CUT) return x->cut || y->cut || x->key == y->key;
    if (x->key < 0 || y->key < 0) return 0;
    return x->key == y->key || (x->client && y->client);
}

static int uf_find(int *up, int i)
{
    while (up[i] != i) i = up[i] = up[up[i]];
    return i;
}

/* Whether a step other than a and b is handled by a's queue (qactor) at instant t, within a
 * µs of a's (the steps are in time order: the search starts at a). */
static int queue_busy(const xpath *p, int a, int b, int64_t t)
{
    const world_step *st = p->steps;
    for (int x = a; x >= 0 && st[x].t_us >= t; x--)
        if (x != a && x != b && st[x].t_us == t && st[x].qactor == st[a].qactor) return 1;
    for (int x = a + 1; x < p->nsteps && st[x].t_us <= t; x++)
        if (x != b && st[x].t_us == t && st[x].qactor == st[a].qactor) return 1;
    return 0;
}

/* Whether step x can move one µs (move: +1 later, -1 earlier) past its queued partner y and
 * change nothing else: no other step of its key at the instants it crosses, and nothing that
 * it causes passes a step it depends on, reads another clock value or flips a margin
 * (reduce_step_crossing, y left out). Then the window's run that moves it is the tie's other
 * order, to the µs, for as long as the windows below are as on this path; where they make
 * it cross something else, the path run there says so and the tie's classes are joined. */
static int moves_alone(reducer *r, const xpath *p, int x, int y, int move, int observer)
{
    const world_step *st = p->steps;
    int64_t t = st[x].t_us;
    /* the steps are in time order: those it passes are next to it */
    for (int s = x + move; s >= 0 && s < p->nsteps && (move > 0 ? st[s].t_us <= t + 1 : st[s].t_us >= t - 1); s += move)
        if (s != y && (tie_dependent(&st[s], &st[x]) || st[s].qactor == st[x].qactor)) return 0;
    return reduce_step_crossing(r, p, x, move > 0, observer, y) > 1;
}

/* Two events that one actor has due at one instant run in the order they were pushed
 * (sched.h: first in, first out): so two steps of a tie that each push one — two clients
 * that send a node a request over equal delays — decide that order by their own, even where
 * they commute themselves. Such steps are joined in up (their classes for reduce_tie_needed),
 * unless the two events commute (both inert), or a window reaches the other order by itself
 * and changes nothing else: the first one's delay can still grow (its crossing past the
 * second is tried), or the second's is off its first value (its earlier values put it
 * first) — where one µs that way meets nothing else in the queue, no third event of the
 * tie's meets them there, and the step moves alone (moves_alone: what it causes crosses
 * nothing else either). The steps a tie's steps cause directly are enough: what those cause
 * in turn at one instant is ordered by the tie their own instant makes (this rule again,
 * there). (Until round 4 two clients' SRANDMEMBERs racing to one node over constant delays
 * were searched in one order only; and three clients' PINGs at the top of two windows, the
 * third's SET winning only where the two keep their timing, in one order: tests/orders.c's
 * problem 1085.) */
static void queued_behind(reducer *r, const xpath *p, int s0, int end, int *up, int observer)
{
    const world_step *st = p->steps;
    for (int ca = s0; ca < end; ca++)
        for (int a = r->kid[ca]; a >= 0; a = r->sib[a]) { /* what the tie's steps caused */
            if (st[a].qactor < 0) continue;
            int wa = r->win[a];
            for (int b = a + 1; b < p->nsteps && st[b].t_us == st[a].t_us; b++) {
                int cb = st[b].cause;
                if (cb < s0 || cb >= end || cb == ca || st[b].qactor != st[a].qactor) continue;
                if (st[a].inert && st[b].inert) continue; /* they commute: their order decides nothing */
                /* a window that reaches the other order by itself (above) — never with
                 * --delays ends, which tries no window a µs off its ends */
                int64_t t = st[a].t_us;
                if (!r->ends && !queue_busy(p, a, b, t)) {
                    if (wa >= 0 && p->rec[wa].value < p->rec[wa].n - 1 && !queue_busy(p, a, b, t + 1) && moves_alone(r, p, a, b, 1, observer)) continue;
                    if (r->win[b] >= 0 && p->rec[r->win[b]].value > 0 && !queue_busy(p, a, b, t - 1) && moves_alone(r, p, b, a, -1, observer)) continue;
                }
                up[uf_find(up, ca - s0)] = uf_find(up, cb - s0);
            }
        }
}

/* The alternatives of tie decision i (which of several simultaneous events goes first) that
 * need paths of their own: a persistent set (Godefroid, 1996). The events handled at that
 * instant from the decision on fall into classes of steps that depend on each other,
 * transitively (an actor's later events at the instant with its first); an order of them all
 * is equivalent to one that starts with an event of the chosen one's class, since the others
 * commute with that whole class. So the candidates of the chosen one's class are enabled.
 * All are, when the instant's events are not exactly the ones pending at the decision (one
 * caused another at the same instant) or the path cannot be matched to the candidates. */
void reduce_tie_needed(reducer *r, const xpath *p, size_t i, alts *a, int observer)
{
    const world_decision *d = &p->decs[i];
    const world_step *st = p->steps;
    int n = (int)p->rec[i].n, v = (int)p->rec[i].value, s0 = d->step;
    if (s0 < 0 || s0 >= p->nsteps || st[s0].t_us != d->t_us || n > 16) {
        a->all = 1;
        return;
    }
    int end = s0;
    while (end < p->nsteps && st[end].t_us == d->t_us) end++;
    int m = end - s0;
    for (int s = s0; s < end; s++)
        if (st[s].cause >= s0 || st[s].cause == WORLD_CAUSE_INSTANT || st[s].qactor < 0) {
            a->all = 1; /* caused at this instant, or a fault: not among the decision's events */
            return;
        }
    /* the candidates: each queue actor's first event at the instant, in sequence order */
    int cand[16], nc = 0;
    for (int s = s0; s < end; s++) {
        int first = 1;
        for (int q = s0; q < s && first; q++) first = st[q].qactor != st[s].qactor;
        if (!first) continue;
        if (nc == 16) { /* more actors than sched_pop offers: not matched */
            a->all = 1;
            return;
        }
        int at = nc++;
        while (at > 0 && st[cand[at - 1]].seq > st[s].seq) {
            cand[at] = cand[at - 1];
            at--;
        }
        cand[at] = s;
    }
    if (nc != n || cand[v] != s0) {
        a->all = 1;
        return;
    }
    int *up = r->ufind = xrealloc(r->ufind, (size_t)(m + 1) * sizeof *up);
    for (int k = 0; k < m; k++) up[k] = k;
    for (int x = s0; x < end; x++)
        for (int y = x + 1; y < end; y++)
            if (st[x].qactor == st[y].qactor || tie_dependent(&st[x], &st[y])) up[uf_find(up, x - s0)] = uf_find(up, y - s0);
    queued_behind(r, p, s0, end, up, observer);
    int root = uf_find(up, 0);
    for (int j = 0; j < n; j++)
        if (uf_find(up, cand[j] - s0) == root) alts_add(a, j);
}
