/* reduce.c — the model checker's reductions: which alternatives a path shows to be needed.
 *
 * A step's *cone* is the step and everything its handling scheduled, transitively (a
 * message's delivery, the reply it sends, the timer the reply's handler sets, ...). When a
 * message arrives later by d, its cone moves later by d and nothing else moves, as long as
 * the order of the steps at every actor stays the same: then every actor sees the same
 * inputs in the same order, and the run is the same run with some timestamps moved. Clients'
 * steps are also compared across clients (the checker reads them on one true-time line).
 * The order changes exactly when some step outside the cone falls at most d after a cone
 * step at the same actor; that is when the late end of the window is explored. Later
 * windows on the same chain of causes can add their own widths (a request late, then its
 * reply late too): a cone step is compared at the latest it can come, d plus the widths of
 * the windows between the root and it that are still at their early end, so no combination
 * of late ends reorders what no single one was tested against. A fault
 * moved earlier by d moves its cone (its restart, the end of its pause) the same way.
 *
 * Orders are not all an actor can see: it can read its clock (a client's ctx:now(), a node's
 * TTL in a reply or a deadline it sets), and a value read inside the cone is d larger, while
 * one read outside is not. Where an actor holds both — a reading inside the cone and one
 * outside it (Redlock's elapsed time across its requests, a wait budget's deadline, a TTL
 * against the instant the key was set) — its behaviour may depend on d itself, and the late
 * end is explored too. A value crosses actors in a message (a client's clock sent as a
 * script argument, a TTL in a reply): the step that receives it counts as a reading.
 *
 * Most readings serve deadlines, and a deadline decision flips only when the clock moves by
 * the margin left. A client that reads its clock as an instant and decides with ctx:before
 * (client_ctx.c) leaves a comparison (world_cmp): its step, the step of the reading it
 * measures from, and the margin. It matters only where one of the two is inside the cone and
 * the other outside, and the cone can come late by the margin. A node's key deadline is not
 * a reading either: its expiry event is caused by the step that set it (node.c follows each
 * deadline's origin through commands, restarts and replication), so it moves with the cone
 * like any other step; only a TTL that leaves the node makes that step a reading. */
#include <stdlib.h>
#include <string.h>

#include "exploreint.h"

void reducer_release(reducer *r)
{
    free(r->in);
    free(r->acc);
    free(r->last);
    memset(r, 0, sizeof *r);
}

static void reducer_fit(reducer *r, int nsteps, int nkeys)
{
    if (nsteps > r->cap) {
        r->cap = nsteps * 2;
        r->in = xrealloc(r->in, (size_t)r->cap);
        r->acc = xrealloc(r->acc, (size_t)r->cap * sizeof *r->acc);
    }
    if (nkeys > r->nkeys) {
        r->last = xrealloc(r->last, (size_t)nkeys * sizeof *r->last);
        r->nkeys = nkeys;
    }
}

/* The step whose handling made s (an injected fault's: that of the step that makes its
 * instant), or -1. */
static int parent_of(const world_step *st, int n, int s)
{
    int c = st[s].cause;
    if (c != WORLD_CAUSE_INSTANT) return c;
    int s2 = s + 1;
    while (s2 < n && st[s2].cause == WORLD_CAUSE_INSTANT) s2++;
    return s2 < n && st[s2].cause < s ? st[s2].cause : -1;
}

/* acc[s]: the widths of the windows at their early end on s's chain of causes, s's own
 * included (a window's step is the delivery or wake-up it times). */
static void accumulate(reducer *r, const xpath *p)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    for (int s = 0; s < n; s++) r->acc[s] = 0;
    for (size_t i = 0; i < p->nrec; i++) {
        const world_decision *d = &p->decs[i];
        if (d->kind == WDEC_DELAY && d->step >= 0 && d->step < n && p->rec[i].value == 0) r->acc[d->step] += d->shift;
    }
    for (int s = 0; s < n; s++) {
        int c = parent_of(st, n, s);
        if (c >= 0 && c < s) r->acc[s] += r->acc[c];
    }
}

static void cone_of(const world_step *st, int n, int root, uint8_t *in)
{
    memset(in, 0, (size_t)n);
    in[root] = 1;
    for (int s = root + 1; s < n; s++) {
        int c = st[s].cause;
        if (c == WORLD_CAUSE_INSTANT) {
            /* an injected fault moves with the step that makes its instant */
            int s2 = s + 1;
            while (s2 < n && st[s2].cause == WORLD_CAUSE_INSTANT) s2++;
            int c2 = s2 < n ? st[s2].cause : -1;
            in[s] = s2 < n && c2 >= root && c2 < s && in[c2];
        } else {
            in[s] = c >= root && c < s && in[c];
        }
    }
}

/* The keys a step is compared under: its key (world_step), and the observer for a
 * client's. Returns how many (0: it touches no actor's state). */
static int step_keys(const world_step *x, int observer, int keys[2])
{
    if (x->key < 0) return 0;
    keys[0] = x->key;
    if (x->client) {
        keys[1] = observer;
        return 2;
    }
    return 1;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* Did step s read a clock, itself or through the message that caused it? */
static int reads_clock(const world_step *st, int s)
{
    int c = st[s].cause;
    return st[s].clock || (c >= 0 && st[c].clock && st[c].key != st[s].key);
}

/* Does some actor read its clock both inside the cone of root and outside it? (r->in holds
 * the cone; r->last is used as scratch: bit 0 a reading inside, bit 1 one outside.) */
static int cone_splits_readings(reducer *r, const world_step *st, int n, int root, int observer)
{
    for (int k = 0; k <= observer; k++) r->last[k] = 0;
    for (int s = 0; s < n; s++) {
        int k = st[s].key;
        if (k < 0 || k > observer || !reads_clock(st, s)) continue;
        r->last[k] |= s >= root && r->in[s] ? 1 : 2;
        if (r->last[k] == 3) return 1;
    }
    return 0;
}

/* Does some comparison of a clock with an instant (ctx:before) have one reading inside the
 * cone and the other outside, so that moving the cone by up to `late` (per step: how much
 * later it can come; NULL: by any amount) could use up its margin? */
static int cone_flips_comparison(reducer *r, const xpath *p, int root, int64_t base)
{
    for (int k = 0; k < p->ncmps; k++) {
        const world_cmp *c = &p->cmps[k];
        int s = c->step, o = c->origin;
        int in_s = s >= root && s < p->nsteps && r->in[s];
        int in_o = o >= root && o < p->nsteps && r->in[o];
        if (in_s == in_o) continue;
        if (base == INT64_MIN) return 1;
        int x = in_s ? s : o;
        if (r->acc[x] - base >= c->margin) return 1;
    }
    return 0;
}

/* Would moving the cone of root later by shift reorder the steps at some actor, or change
 * what an actor reads from its clock against what it read before (or decides on a deadline
 * against a reading outside the cone)? A step that touches every actor (WORLD_KEY_ALL) is
 * compared with every other. */
static int cone_later_reorders(reducer *r, const xpath *p, int root, int64_t shift, int observer)
{
    const world_step *st = p->steps;
    int n = p->nsteps;
    if (cone_splits_readings(r, st, n, root, observer)) return 1;
    if (cone_flips_comparison(r, p, root, r->acc[root] - shift)) return 1;
    /* per key, and anywhere, and for the global steps: the latest a cone step can come */
    int64_t any = INT64_MIN, all = INT64_MIN, base = r->acc[root] - shift;
    for (int k = 0; k <= observer; k++) r->last[k] = INT64_MIN;
    for (int s = root; s < n; s++) {
        int64_t t = st[s].t, late = t + (r->acc[s] - base);
        if (st[s].key == WORLD_KEY_ALL) {
            if (r->in[s]) all = any = max64(any, late);
            else if (t <= any) return 1;
            continue;
        }
        int keys[2], nk = step_keys(&st[s], observer, keys);
        for (int j = 0; j < nk; j++) {
            int64_t last = max64(r->last[keys[j]], all);
            if (r->in[s]) {
                r->last[keys[j]] = max64(r->last[keys[j]], late);
                any = max64(any, late);
            } else if (last != INT64_MIN && t <= last) return 1;
        }
    }
    return 0;
}

/* The least amount by which moving the cone of root earlier reorders some actor's steps. */
static int64_t cone_earlier_slack(reducer *r, const world_step *st, int n, int root, int observer)
{
    int64_t slack = INT64_MAX, any = INT64_MIN, all = INT64_MIN; /* the last step outside the cone
                                                                     anywhere; the last global one */
    for (int k = 0; k <= observer; k++) r->last[k] = INT64_MIN;
    for (int s = 0; s < n; s++) {
        int64_t t = st[s].t;
        int cone = s >= root && r->in[s];
        if (st[s].key == WORLD_KEY_ALL) {
            if (!cone) all = any = t;
            else if (any != INT64_MIN && t - any < slack) slack = t - any;
            continue;
        }
        int keys[2], nk = step_keys(&st[s], observer, keys);
        for (int j = 0; j < nk; j++) {
            int64_t last = max64(r->last[keys[j]], all);
            if (!cone) r->last[keys[j]] = any = t;
            else if (last != INT64_MIN && t - last < slack) slack = t - last;
        }
    }
    return slack;
}

int alt_enabled(uint64_t avail, int64_t u)
{
    return avail == UINT64_MAX || (u < 64 && (avail >> u & 1));
}

/* What a new decision offers before any path says more: a fault decision, what the world
 * offered at its instant; a delay, its first end (its later end only when a path shows it
 * reorders something, or with --delays extremes); anything else, every alternative. */
uint64_t initial_avail(const world_decision *d, int extremes)
{
    switch (d->kind) {
    case WDEC_FAULT: return d->offered;
    case WDEC_DELAY: return extremes ? UINT64_MAX : 1;
    default: return UINT64_MAX;
    }
}

/* Reads path p and enables the alternatives it shows to be needed, anywhere on its stack. */
void reduce_analyse(reducer *r, const xpath *p, uint64_t *avail, int observer, explore_result *res)
{
    reducer_fit(r, p->nsteps + 1, observer + 1);
    accumulate(r, p);
    for (size_t i = 0; i < p->nrec; i++) {
        const world_decision *d = &p->decs[i];
        if (d->step < 0 || d->step >= p->nsteps) continue;
        if (d->kind == WDEC_DELAY && p->rec[i].value == 0 && avail[i] != UINT64_MAX && !(avail[i] & 2)) {
            cone_of(p->steps, p->nsteps, d->step, r->in);
            if (cone_later_reorders(r, p, d->step, d->shift, observer)) avail[i] = UINT64_MAX;
            else res->delays_abstracted = 1;
        } else if (d->kind == WDEC_FAULT && p->rec[i].value > 0) {
            /* The same fault at an earlier instant, after its target's last step before it:
             * the same run but for where its consequences fall. */
            int64_t v = p->rec[i].value, prev_t = INT64_MIN;
            for (int s = d->step - 1; s >= 0; s--)
                if (p->steps[s].key == d->target || p->steps[s].key == WORLD_KEY_ALL) {
                    prev_t = p->steps[s].t;
                    break;
                }
            cone_of(p->steps, p->nsteps, d->step, r->in);
            /* moving it earlier shifts clock readings inside its cone against those outside:
             * then any earlier instant may matter, the nearest first */
            int64_t slack = cone_splits_readings(r, p->steps, p->nsteps, d->step, observer) ||
                                    cone_flips_comparison(r, p, d->step, INT64_MIN)
                                ? 0
                                : cone_earlier_slack(r, p->steps, p->nsteps, d->step, observer);
            if (slack == INT64_MAX) continue;
            for (size_t j = i; j-- > 0;) {
                const world_decision *e = &p->decs[j];
                if (e->kind != WDEC_FAULT) continue;
                if (p->rec[j].value != 0 || e->t <= prev_t) break;
                if (d->t - e->t >= slack) {
                    if (!alt_enabled(avail[j], v) && alt_enabled(e->valid, v)) avail[j] |= 1ULL << v;
                    break;
                }
            }
        }
    }
}
