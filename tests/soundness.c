/* soundness.c — the model checker's "holds" against the ground truth.
 *
 * Generates small random problems (1 or 3 nodes, 2 or 3 clients, library protocols and
 * deliberately broken models from tests/check/models, delay windows from constant to 300 ms
 * wide, fault budgets of 0 to 3 of every kind the search places), asks the model checker
 * about each, and runs each problem many times at random: delays drawn from their whole
 * windows, faults pinned at instants drawn to the µs over the horizon with their parameters
 * drawn from the explore table. Every violation such a run shows must be found by the
 * checker: a "holds" that a run contradicts fails the test, with the problem and the run
 * printed so that it can be replayed (`locklab run FILE --seed S` with the faults pinned).
 * Every counter-example the checker finds must replay: its files are written as `locklab
 * check --out` writes them, loaded again and run with their choice list as `locklab run
 * BASE.lua --choices BASE.choices` runs them (every decision the one the list holds), and
 * must show the violation; one that does not fails the test too.
 *
 * Issue 33's classes (gen, K_* and S_*): the server's clock read with TIME, the server's
 * generator behind SRANDMEMBER (plain and in scripts), requests that meet at one node at one
 * instant, budgets of 2-3 faults of 2-3 kinds, partitions that heal between events, a drift
 * beginning anywhere in its target's gap (drift_shape). Those
 * whose contradictions are known and being fixed (SOUNDNESS_KNOWN, default
 * SOUNDNESS_KNOWN_DEFAULT) are printed as KNOWN and not counted; SOUNDNESS_KNOWN="" counts
 * every one (`make soundness`). SOUNDNESS_ONLY=NAME runs only the problems of one class or
 * shape (base, time, random, tie; budget, heal, drift) of those numbered.
 *
 *   build/opt/tests/soundness [PROBLEMS [RUNS [FIRST]]]
 *
 * Prints, per problem, what the checker said, what the runs saw and its class, at the end the
 * totals per class and "N passed, N failed" (a problem passes when no run contradicts the
 * checker and its counter-example replays). Problems whose search did not finish within its
 * time are counted and listed (they prove nothing either way); they are not failures, but the
 * harness says how many there were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h" /* cli_write_counterexample: the files check writes */
#include "check.h"
#include "chooser.h"
#include "explore.h"
#include "scenario.h"
#include "scriptlib.h"
#include "chunkcache.h"
#include "util.h"
#include "world.h"

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rnext(rng *r)
{
    return ll_splitmix64(&r->s);
}

static int64_t rint_in(rng *r, int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)(rnext(r) % (uint64_t)(hi - lo + 1));
}

/* Classes whose contradictions are printed and not counted in make test: none since round 4
 * (random, tie and budget contradicted before: the server's generators, requests meeting at
 * one instant; 1,300 problems with every class counted, none contradicting). A class found to
 * contradict goes here, by name, while its fix is under way. */
#define SOUNDNESS_KNOWN_DEFAULT ""

#define PICK(r, arr) (arr)[rnext(r) % (sizeof(arr) / sizeof *(arr))]

/* A fault the explore table offers: kind, target, parameter (µs, or a rate). */
typedef struct offer {
    fault_kind kind;
    const char *target;
    int64_t param;
} offer;

/* The classes of problems (issue 33), each drawn from a stream of its own so that a problem
 * of the base class keeps the text it always had:
 *   time       the server's clock read with TIME (tests/check/models/server-stamp.lua: a
 *              timestamp lock stamped and compared with n1's TIME, as a command or in a script);
 *   random     the server's generator (models/lottery.lua: SRANDMEMBER, plain or in EVALSHA,
 *              decides who takes the lock);
 *   tie        two requests at one node at one instant (models/tie-first.lua: SET NX at a
 *              clock time, A entering even when it lost);
 * and, on any of these, two shapes of the fault budget:
 *   budget     2-3 faults of 2-3 kinds (a GC pause, a crash with a restart, a partition, a
 *              clock jump), placed in the gaps between events;
 *   heal       a partition short enough (2-10 ms) to heal between two events. */
enum { K_BASE, K_TIME, K_RANDOM, K_TIE, K_NPROTO };
enum { S_BUDGET = 1, S_HEAL = 2, S_DRIFT = 4 };
static const char *const shape_names[] = { "budget", "heal", "drift" };
#define NSHAPES 3
static const char *const klass_names[] = { "base", "time", "random", "tie" };

typedef struct problem {
    buf text;
    int klass;  /* K_* */
    int shapes; /* S_* */
    offer offers[16];
    int noffers, max_faults;
    int64_t timeout; /* ms, the per-request timeout; 0: the default */
    int64_t horizon;
} problem;

static const char *const client_names[] = { "A", "B", "C" };
static const char *const node_names[] = { "n1", "n2", "n3" };

static void add_offer(problem *p, fault_kind k, const char *target, int64_t param)
{
    if (p->noffers < 16) p->offers[p->noffers++] = (offer){ k, target, param };
}

/* More shapes, drawn from a stream of their own so that the problems above keep their draws:
 * the table may also offer a crash of a client (it vanishes with whatever it holds) or a clock
 * jump of a client (its timers and ctx:before deadlines are in its own time), when it has no
 * crash or jump of a node already; the horizon may cut the clients' retries short (10-100 ms);
 * and a per-request timeout may make clients give up while their requests or replies are in
 * flight — the replies and timers they leave behind are the stale events of model/reduce.c (not
 * for the models of tests/check/models, which do not expect a call to time out). */
static void more_shapes(problem *p, uint64_t seed, int nclients, unsigned kinds_used, int model)
{
    rng x = { seed * 0xd1b54a32d192ed03ULL + 777 };
    buf *b = &p->text;
    if (p->max_faults > 0 && rint_in(&x, 0, 2) == 0) {
        const char *tgt = client_names[rint_in(&x, 0, nclients - 1)];
        if (!(kinds_used & 2u) && rint_in(&x, 0, 1)) {
            buf_printf(b, " crash = { targets = { \"%s\" } },", tgt);
            add_offer(p, FAULT_CRASH, tgt, 0);
        } else if (!(kinds_used & 8u)) {
            int64_t by = PICK(&x, ((const int64_t[]){ -300, -60, 60, 300 })) * 1000;
            buf_printf(b, " clock_jump = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(by / 1000));
            add_offer(p, FAULT_CLOCK_JUMP, tgt, by);
        }
    }
    if (rint_in(&x, 0, 3) == 0) p->horizon = rint_in(&x, 10, 100) * 1000;
    if (rint_in(&x, 0, 2) == 0 && !model) p->timeout = rint_in(&x, 5, 120);
}

/* S_DRIFT (a fifth of the problems, a stream of its own): a drift of a node's or a client's
 * clock (20 % or 50 % fast, 30 % slow) that the search places, where in its target's gap it
 * began being a window of its own (model/reduce.c, WDEC_DRIFT): the random runs begin it at
 * any µs of the horizon. */
static void drift_shape(problem *p, uint64_t seed, int nclients, int nodes)
{
    rng d = { seed ^ 0x6472696674ULL };
    if (rint_in(&d, 0, 4) != 0) return;
    p->shapes |= S_DRIFT;
    const char *tgt = rint_in(&d, 0, 1) ? client_names[rint_in(&d, 0, nclients - 1)] : node_names[rint_in(&d, 0, nodes - 1)];
    int64_t permille = PICK(&d, ((const int64_t[]){ 200, 500, -300 }));
    buf_printf(&p->text, " drift = { targets = { \"%s\" }, params = { %g } },", tgt, (double)permille / 1000);
    add_offer(p, FAULT_DRIFT, tgt, permille);
    if (p->max_faults < 1) p->max_faults = 1;
}

/* Issue 33's shapes of the fault budget (rk, the classes' stream): S_BUDGET raises the budget
 * to 2-3 and adds kinds the table lacks until it has 2-3 (a pause of a client, a crash of a node
 * with a restart, a partition, a clock jump of a node); S_HEAL adds a partition of 2-10 ms,
 * short enough to heal between two events, where the table has none. One entry per kind (a Lua
 * table key once); kinds_used is the bit per kind (0 pause, 1 crash, 2 partition, 3 jump). */
static void more_faults(problem *p, rng *rk, int nclients, int nodes, unsigned *kinds_used)
{
    buf *b = &p->text;
    if (p->shapes & S_HEAL) {
        if (!(*kinds_used & 4u)) {
            const char *tgt = rint_in(rk, 0, 1) ? client_names[rint_in(rk, 0, nclients - 1)] : node_names[rint_in(rk, 0, nodes - 1)];
            int64_t par = PICK(rk, ((const int64_t[]){ 2, 5, 10 })) * 1000;
            buf_printf(b, " partition = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
            add_offer(p, FAULT_PARTITION, tgt, par);
            *kinds_used |= 4u;
        }
        if (p->max_faults < 1) p->max_faults = 1;
    }
    if (!(p->shapes & S_BUDGET)) return;
    p->max_faults = (int)rint_in(rk, 2, 3);
    int want = (int)rint_in(rk, 2, 3), have = 0;
    for (int k = 0; k < 4; k++) have += (*kinds_used >> k) & 1u;
    for (int tries = 0; have < want && tries < 8; tries++) {
        int k = (int)rint_in(rk, 0, 3);
        if (*kinds_used & (1u << k)) continue;
        const char *tgt;
        int64_t par;
        switch (k) {
        case 0:
            tgt = client_names[rint_in(rk, 0, nclients - 1)];
            par = PICK(rk, ((const int64_t[]){ 30, 120 })) * 1000;
            buf_printf(b, " gc_pause = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
            add_offer(p, FAULT_GC_PAUSE, tgt, par);
            break;
        case 1:
            tgt = node_names[rint_in(rk, 0, nodes - 1)];
            par = PICK(rk, ((const int64_t[]){ 40, 250 })) * 1000;
            buf_printf(b, " crash = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
            add_offer(p, FAULT_CRASH, tgt, par);
            break;
        case 2:
            tgt = rint_in(rk, 0, 1) ? client_names[rint_in(rk, 0, nclients - 1)] : node_names[rint_in(rk, 0, nodes - 1)];
            par = PICK(rk, ((const int64_t[]){ 5, 20 })) * 1000;
            buf_printf(b, " partition = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
            add_offer(p, FAULT_PARTITION, tgt, par);
            break;
        default:
            tgt = node_names[rint_in(rk, 0, nodes - 1)];
            par = PICK(rk, ((const int64_t[]){ -150, 80 })) * 1000;
            buf_printf(b, " clock_jump = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
            add_offer(p, FAULT_CLOCK_JUMP, tgt, par);
            break;
        }
        *kinds_used |= 1u << k;
        have++;
    }
}

static void gen(problem *p, uint64_t seed, const char *models)
{
    rng r = { seed * 0x9e3779b97f4a7c15ULL + 12345 };
    /* A quarter of the problems have their clients contend at once (they start within 3 ms of
     * each other over 1-2..5 ms windows): the windows then decide who is first at each node, and
     * the reduction's followers and stayers (model/reduce.c) are what keeps their search small.
     * Drawn from a stream of their own, like more_shapes, so that the other draws stay. */
    rng rc = { seed ^ 0x636f6e74656e64ULL };
    int contend = rint_in(&rc, 0, 3) == 0;
    /* issue 33's classes: 3 problems of 10 have a model of a new class, a quarter a budget of
     * 2-3 faults, a fifth a partition that heals between events (a stream of their own) */
    rng rk = { seed ^ 0x6973737565203333ULL };
    int64_t kd = rint_in(&rk, 0, 9);
    p->klass = kd < 7 ? K_BASE : kd == 7 ? K_TIME : kd == 8 ? K_RANDOM : K_TIE;
    p->shapes = (rint_in(&rk, 0, 3) == 0 ? S_BUDGET : 0) | (rint_in(&rk, 0, 4) == 0 ? S_HEAL : 0);
    int script = (int)rint_in(&rk, 0, 1), constant = (int)rint_in(&rk, 0, 1);
    int64_t at = rint_in(&rk, 20, 80); /* when the random and tie models draw or ask (ms) */
    /* half the budget problems are small: constant delays, no slow link, faults within the
     * first 3-15 ms — where a search of 2-3 faults could finish and its proofs meet the random
     * runs (measured: 0 of make test's 77 proven at 0.3 s; they test what a search finds and
     * that it replays). Drawn only for them: the other problems keep their draws. */
    int small = (p->shapes & S_BUDGET) && rint_in(&rk, 0, 1);
    buf_init(&p->text);
    p->noffers = 0;
    p->timeout = 0;
    static const char *const protocols[] = { "distlock", "set-nx-del", "setnx-expire", "redlock", "distlock",
                                             "MODEL:rtt-shortcut", "MODEL:stamp-carry" };
    const char *proto = PICK(&r, protocols);
    if (p->klass == K_TIME) proto = "MODEL:server-stamp";
    if (p->klass == K_RANDOM) proto = "MODEL:lottery";
    if (p->klass == K_TIE) proto = "MODEL:tie-first";
    int nodes = !strcmp(proto, "redlock") ? 3 : 1;
    int nclients = rint_in(&r, 0, 3) ? 2 : 3;
    if (p->klass == K_TIME) nclients = 2; /* with three, every reading against every other: not finished */
    int64_t lease = PICK(&r, ((const int64_t[]){ 100, 200, 500 }));
    int64_t dmax = PICK(&r, ((const int64_t[]){ 1, 2, 3, 5, 20, 100, 300 }));
    if (contend) dmax = PICK(&rc, ((const int64_t[]){ 2, 2, 3, 5 }));
    if (!strncmp(proto, "MODEL:stamp", 11) && dmax > 5) dmax = 5; /* raw readings: every ms is tried */
    if (p->klass == K_TIME && dmax > 3) dmax = 3;
    if ((p->klass == K_RANDOM || p->klass == K_TIE) && constant) dmax = 1; /* requests meet at one instant */
    if (small) dmax = 1;
    buf *b = &p->text;
    buf_printf(b, "return {\n  name = \"soundness problem %llu\", about = [[generated by tests/soundness.c]],\n",
               (unsigned long long)seed);
    if (!strncmp(proto, "MODEL:", 6)) buf_printf(b, "  protocol = \"%s/%s.lua\",\n", models, proto + 6);
    else buf_printf(b, "  protocol = \"%s\",\n", proto);
    if (p->klass == K_TIME && script) buf_puts(b, "  options = { script = true },\n");
    if (p->klass == K_RANDOM) buf_printf(b, "  options = { draw_at = %lld%s },\n", (long long)at, script ? "" : ", plain = true");
    if (p->klass == K_TIE) buf_printf(b, "  options = { at = %lld },\n", (long long)at);
    if (nodes == 3) buf_puts(b, "  mode = \"redlock\",\n");
    const char *wait = PICK(&r, ((const char *const[]){ "1ms", "1ms", "150ms" }));
    if (p->klass == K_TIME) wait = "1ms"; /* one try: every retry is another reading */
    buf_printf(b, "  nodes = %d, lease = \"%lldms\", wait = \"%s\",\n", nodes, (long long)lease, wait);
    if (dmax == 1) buf_puts(b, "  network = { delay = \"1ms\" },\n");
    else buf_printf(b, "  network = { delay = { \"1ms\", \"%lldms\" } },\n", (long long)dmax);
    if (rint_in(&r, 0, 2) == 0) { /* one slow, wide link */
        /* its width drawn before its client, as the problems have always been drawn */
        int64_t wide = strncmp(proto, "MODEL:stamp", 11) && p->klass != K_TIME ? PICK(&r, ((const int64_t[]){ 50, 150, 300 })) : 4;
        const char *from = client_names[rint_in(&r, 0, nclients - 1)];
        if (!small) buf_printf(b, "  links = { { from = \"%s\", to = \"n1\", delay = { \"1ms\", \"%lldms\" } } },\n", from, (long long)wide);
    }
    buf_puts(b, "  clients = {");
    for (int c = 0; c < nclients; c++) {
        int64_t start = c ? rint_in(&r, 0, 120) : 0;
        if (contend && c) start = rint_in(&rc, 0, 3);
        buf_printf(b, " { name = \"%s\", start = \"%lldms\", work = \"%lldms\" },", client_names[c], (long long)start,
                   (long long)rint_in(&r, 20, lease + lease / 4));
    }
    buf_puts(b, " },\n  duration = \"1s\",\n");
    buf_printf(b, "  expect = { mutual_exclusion = \"holds\"%s },\n",
               rint_in(&r, 0, 3) == 0 ? ", no_deadlock = \"holds\"" : "");
    p->max_faults = PICK(&r, ((const int[]){ 0, 1, 1, 2 }));
    p->horizon = rint_in(&r, 100, 700) * 1000;
    buf_puts(b, "  explore = { faults = {");
    unsigned kinds_used = 0; /* bit per kind the table already has (one entry per kind) */
    if (p->max_faults > 0) {
        int kinds = (int)rint_in(&r, 1, 2);
        int first_kind = (int)rint_in(&r, 0, 3);
        for (int k = 0; k < kinds; k++) {
            int which = (first_kind + k * (int)rint_in(&r, 1, 3)) % 4; /* two different kinds */
            kinds_used |= 1u << which;
            const char *tgt;
            int64_t par;
            switch (which) {
            case 0:
                tgt = client_names[rint_in(&r, 0, nclients - 1)];
                par = PICK(&r, ((const int64_t[]){ 30, 120, 400 })) * 1000;
                buf_printf(b, " gc_pause = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
                add_offer(p, FAULT_GC_PAUSE, tgt, par);
                break;
            case 1:
                tgt = node_names[rint_in(&r, 0, nodes - 1)];
                par = PICK(&r, ((const int64_t[]){ 0, 40, 250 })) * 1000;
                buf_printf(b, " crash = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
                add_offer(p, FAULT_CRASH, tgt, par);
                break;
            case 2:
                tgt = rint_in(&r, 0, 1) ? client_names[rint_in(&r, 0, nclients - 1)] : node_names[rint_in(&r, 0, nodes - 1)];
                par = PICK(&r, ((const int64_t[]){ 20, 150 })) * 1000;
                buf_printf(b, " partition = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
                add_offer(p, FAULT_PARTITION, tgt, par);
                break;
            default:
                tgt = node_names[rint_in(&r, 0, nodes - 1)];
                par = PICK(&r, ((const int64_t[]){ -150, 80, 300 })) * 1000;
                buf_printf(b, " clock_jump = { targets = { \"%s\" }, params = { \"%lldms\" } },", tgt, (long long)(par / 1000));
                add_offer(p, FAULT_CLOCK_JUMP, tgt, par);
                break;
            }
        }
    }
    more_faults(p, &rk, nclients, nodes, &kinds_used);
    more_shapes(p, seed, nclients, kinds_used, !strncmp(proto, "MODEL:", 6));
    drift_shape(p, seed, nclients, nodes);
    if (small) p->horizon = rint_in(&rk, 3, 15) * 1000;
    /* the new models at most one fault unless the budget is their shape: two faults of two
     * kinds seldom finish in the time here (the budget class measures that), and a search
     * that does not finish tests nothing */
    if (p->klass != K_BASE && !(p->shapes & S_BUDGET) && p->max_faults > 1) p->max_faults = 1;
    /* a TIME reading differs with every fault placement (a distinct outcome each): none, but
     * in the shapes that are about faults */
    if (p->klass == K_TIME && !p->shapes) p->max_faults = 0;
    buf_printf(b, " }, max_faults = %d, horizon = \"%lldms\" },\n", p->max_faults, (long long)(p->horizon / 1000));
    if (p->timeout) buf_printf(b, "  timeout = \"%lldms\",\n", (long long)p->timeout);
    buf_puts(b, "}\n");
}

/* A random run of sc: delays drawn from their windows (seed), and k of the offered faults
 * pinned at instants drawn over the horizon. Returns the first violated searched property,
 * or -1; fills the description of what it pinned. */
static int random_run(const scenario *sc, const problem *pb, const int *searched, uint64_t seed, const world_opts *shared,
                      buf *what)
{
    rng r = { seed ^ 0x5eedULL };
    int k = pb->noffers ? (int)rint_in(&r, 0, pb->max_faults) : 0;
    fault_cfg *f = xcalloc((size_t)k + 1, sizeof *f);
    for (int i = 0; i < k; i++) {
        const offer *o = &pb->offers[rnext(&r) % (uint64_t)pb->noffers];
        f[i].kind = o->kind;
        f[i].at_us = rint_in(&r, 0, pb->horizon);
        f[i].target = (char *)o->target;
        f[i].duration_us = -1;
        switch (o->kind) {
        case FAULT_GC_PAUSE: f[i].duration_us = o->param; break;
        case FAULT_CRASH: f[i].restart_after_ms = o->param / 1000; break;
        case FAULT_CLOCK_JUMP: f[i].jump_ms = o->param / 1000; break;
        case FAULT_DRIFT: f[i].rate = (double)o->param / 1000; break;
        case FAULT_PARTITION:
            f[i].duration_us = o->param;
            f[i].groups = scenario_isolate_groups(sc, o->target);
            f[i].ngroups = 2;
            break;
        default: break;
        }
        buf_printf(what, "%s{ at = \"%lldus\", %s = \"%s\"", i ? ", " : "", (long long)f[i].at_us, fault_kind_name(o->kind),
                   o->target);
        if (o->kind == FAULT_GC_PAUSE || o->kind == FAULT_PARTITION)
            buf_printf(what, ", duration = \"%lldms\"", (long long)(o->param / 1000));
        if (o->kind == FAULT_CLOCK_JUMP) buf_printf(what, ", by = \"%lldms\"", (long long)(o->param / 1000));
        if (o->kind == FAULT_DRIFT) buf_printf(what, ", rate = %g", (double)o->param / 1000);
        if (o->kind == FAULT_CRASH && o->param) buf_printf(what, " --[[ restarts after %lld ms ]]", (long long)(o->param / 1000));
        buf_puts(what, " }");
    }
    /* pinned faults are in time order */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && f[j].at_us < f[j - 1].at_us; j--) {
            fault_cfg t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
        }
    scenario pinned = *sc;
    pinned.explore.present = 0;
    pinned.faults = f;
    pinned.nfaults = k;
    world_opts o = *shared;
    o.seed = seed;
    o.chooser = NULL;
    buf err;
    buf_init(&err);
    int v = -1;
    world *w = world_new(&pinned, &o, &err);
    if (w && world_run(w, &err) == 0) {
        check_result cr;
        check_run(world_history(w), &pinned, &cr);
        for (int q = 0; q < PROP_COUNT; q++)
            if (searched[q] && cr.p[q].v == VERDICT_VIOLATED) {
                v = q;
                break;
            }
        check_free(&cr);
    }
    world_free(w);
    buf_release(&err);
    for (int i = 0; i < k; i++) scenario_free_groups(f[i].groups);
    free(f);
    return v;
}

/* The counter-example check found, replayed as a user replays it: the files `locklab check
 * --out` writes (cli_write_counterexample: BASE.lua wrapping the problem's file with the
 * faults pinned, BASE.choices), loaded again and run with the choice list in REPLAY mode, as
 * `locklab run BASE.lua --choices BASE.choices` does (cli/run.c: every decision the run makes
 * must be the one the list holds, label and value). 0 when it replays and shows the violation
 * found; else -1 with the reason in why. */
static int replay_counterexample(const scenario *sc, const explore_result *r, const char *dir, int i, buf *why)
{
    char base[4200];
    snprintf(base, sizeof base, "%s/ce-%d", dir, i);
    buf err, path, text;
    buf_init(&err);
    buf_init(&path);
    buf_init(&text);
    int rc = -1;
    scenario *ce = NULL;
    choice *want = NULL;
    choice_where *src = NULL;
    size_t nwant = 0;
    chooser *ch = NULL;
    world *w = NULL;
    if (cli_write_counterexample(sc, r, base, &err) != 0) {
        buf_printf(why, "the counter-example could not be written: %s", err.p);
        goto out;
    }
    buf_printf(&path, "%s.lua", base);
    if (!(ce = scenario_load(path.p, &err))) {
        buf_printf(why, "the counter-example does not load: %s", err.p);
        goto out;
    }
    buf_reset(&path);
    buf_printf(&path, "%s.choices", base);
    if (ll_read_file(path.p, (size_t)64 << 20, &text) != 0 ||
        chooser_parse_where(text.p ? text.p : "", &want, &src, &nwant, &err) != 0) {
        buf_printf(why, "its choice list does not parse: %s", err.p ? err.p : "unreadable");
        goto out;
    }
    ch = chooser_new(CHOOSER_REPLAY, ce->seed);
    chooser_set_script(ch, want, nwant);
    world_opts o = { .chooser = ch };
    if (!(w = world_new(ce, &o, &err)) || world_run(w, &err) != 0) {
        buf_printf(why, "the replay does not run: %s", err.p ? err.p : "?");
        goto out;
    }
    size_t nrec;
    const choice *rec = chooser_record(ch, &nrec);
    for (size_t k = 0; k < nrec && k < nwant; k++) {
        const char *what = rec[k].what ? rec[k].what : "";
        if (src[k].len && (strlen(what) != src[k].len || memcmp(what, src[k].label, src[k].len) != 0)) {
            buf_printf(why, "decision %zu is '%.*s' in the file but '%s' in the replay", k + 1, (int)src[k].len,
                       src[k].label, what);
            goto out;
        }
        if (rec[k].real != want[k].value) {
            buf_printf(why, "decision %zu (%s) is %lld in the file, but the replay took %lld", k + 1, what,
                       (long long)want[k].value, (long long)rec[k].real);
            goto out;
        }
    }
    if (chooser_exhausted(ch)) {
        buf_puts(why, "the choice list ran out before the replay ended");
        goto out;
    }
    check_result cr;
    check_run(world_history(w), ce, &cr);
    rc = cr.p[r->prop].v == VERDICT_VIOLATED ? 0 : -1;
    if (rc) buf_printf(why, "the replay does not violate %s", property_name(r->prop));
    check_free(&cr);
out:
    world_free(w);
    chooser_free(ch);
    free(want);
    free(src);
    scenario_free(ce);
    static const char *const ext[] = { ".lua", ".choices", ".txt" };
    for (int k = 0; k < 3; k++) {
        buf_reset(&path);
        buf_printf(&path, "%s%s", base, ext[k]);
        unlink(path.p);
    }
    buf_release(&err);
    buf_release(&path);
    buf_release(&text);
    return rc;
}

/* Whether name is an entry of the comma-separated list. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int nproblems = argc > 1 ? atoi(argv[1]) : 300;
    int nruns = argc > 2 ? atoi(argv[2]) : 200;
    int first = argc > 3 ? atoi(argv[3]) : 1;
    int print_only = getenv("SOUNDNESS_PRINT") != NULL;
    double limit = getenv("SOUNDNESS_TIME") ? atof(getenv("SOUNDNESS_TIME")) : 20;
    const char *models = getenv("SOUNDNESS_MODELS") ? getenv("SOUNDNESS_MODELS") : "tests/check/models";
    char absmodels[4096];
    if (models[0] != '/' && realpath(models, absmodels)) models = absmodels;
    buf err;
    buf_init(&err);
    scriptlib *lib = scriptlib_load(NULL, &err);
    if (!lib) {
        fprintf(stderr, "soundness: %s\n", err.p);
        return 3;
    }
    world_opts shared = { .lib = lib, .chunks = chunkcache_new() };
    /* each problem is a file there (a counter-example wraps its problem's file), and so is
     * each counter-example while it is replayed */
    char dir[] = "/tmp/locklab-soundness.XXXXXX";
    if (!print_only && !mkdtemp(dir)) {
        perror("soundness: mkdtemp");
        return 3;
    }
    int passed = 0, failed = 0, unfinished = 0, found = 0, proven = 0, runs_violating = 0, missed = 0;
    int replayed = 0, not_replayed = 0, known_bad = 0;
    /* Classes and shapes whose contradictions are known (issue 33, being fixed): printed as
     * KNOWN, not counted as failures. SOUNDNESS_KNOWN="" counts every one (make soundness). */
    const char *known = getenv("SOUNDNESS_KNOWN") ? getenv("SOUNDNESS_KNOWN") : SOUNDNESS_KNOWN_DEFAULT;
    /* per class (K_*), then per shape (budget, heal): problems, violated, proven, contradictions */
    int kstat[K_NPROTO + NSHAPES][4];
    memset(kstat, 0, sizeof kstat);
    const char *only = getenv("SOUNDNESS_ONLY"); /* a class or a shape: the others skipped */
    int ran = 0;
    for (int i = first; i < first + nproblems; i++) {
        problem pb;
        gen(&pb, (uint64_t)i, models);
        int mine = !only || !strcmp(only, klass_names[pb.klass]);
        for (int k = 0; k < NSHAPES; k++)
            if (only && pb.shapes & (1 << k) && !strcmp(only, shape_names[k])) mine = 1;
        if (!mine) {
            buf_release(&pb.text);
            continue;
        }
        ran++;
        buf_reset(&err);
        char name[4200];
        snprintf(name, sizeof name, "%s/soundness-%d.lua", dir, i);
        if (print_only) {
            fputs(pb.text.p, stdout);
            buf_release(&pb.text);
            continue;
        }
        scenario *sc = ll_write_file(name, pb.text.p, pb.text.len, &err) == 0 ? scenario_load(name, &err) : NULL;
        if (!sc) {
            printf("problem %d: does not load: %s\n%s", i, err.p, pb.text.p);
            failed++;
            buf_release(&pb.text);
            continue;
        }
        explore_opts o = { .max_deviations = -1, .time_limit_s = limit, .jobs = 1, .probes = EXPLORE_PROBES };
        explore_result r;
        buf_reset(&err);
        if (explore_run(sc, &o, &r, &err) != 0) {
            printf("problem %d: check failed: %s\n%s", i, err.p, pb.text.p);
            failed++;
            scenario_free(sc);
            buf_release(&pb.text);
            continue;
        }
        int holds = !r.found && r.complete && !r.abstracted;
        int is_known = listed(known, klass_names[pb.klass]);
        for (int k = 0; k < NSHAPES; k++)
            if (pb.shapes & (1 << k) && listed(known, shape_names[k])) is_known = 1;
        const char *contra = is_known ? "KNOWN CONTRADICTION (issue 33; not counted)" : "CONTRADICTION";
        found += r.found;
        proven += holds;
        if (!r.found && !holds) unfinished++;
        int bad = 0, seen = 0;
        if (r.found) { /* every counter-example replays (issue 33) */
            buf why;
            buf_init(&why);
            if (replay_counterexample(sc, &r, dir, i, &why) == 0) replayed++;
            else {
                printf("%s: problem %d: its counter-example (%s, %d fault(s)) does not replay: %s\n%s", contra, i,
                       property_name(r.prop), r.nfaults, why.p, pb.text.p);
                not_replayed++;
                bad = 1;
            }
            buf_release(&why);
        }
        for (int k = 0; k < nruns && !bad; k++) {
            buf what;
            buf_init(&what);
            uint64_t seed = (uint64_t)i * 1000003u + (uint64_t)k;
            int v = random_run(sc, &pb, r.searched, seed, &shared, &what);
            if (v >= 0) {
                seen++;
                if (holds) {
                    printf("%s: problem %d: check says holds (%llu paths), but a run violates %s\n"
                           "  seed %llu, faults { %s }\n%s",
                           contra, i, (unsigned long long)r.paths, property_name((property)v), (unsigned long long)seed,
                           what.p ? what.p : "", pb.text.p);
                    bad = 1;
                }
            }
            buf_release(&what);
        }
        if (seen) runs_violating++;
        if (seen && !r.found) missed++;
        printf("problem %3d: %-9s %6llu paths %6.2f s; random runs violating: %d of %d  [%s%s%s%s]\n", i,
               r.found ? "violated" : holds ? "holds" : "unproven", (unsigned long long)r.paths, r.seconds, seen, nruns,
               klass_names[pb.klass], pb.shapes & S_BUDGET ? " budget" : "", pb.shapes & S_HEAL ? " heal" : "",
               pb.shapes & S_DRIFT ? " drift" : "");
        fflush(stdout);
        for (int k = 0; k < K_NPROTO + NSHAPES; k++) {
            int in = k < K_NPROTO ? pb.klass == k : (pb.shapes & (1 << (k - K_NPROTO))) != 0;
            if (!in) continue;
            kstat[k][0]++;
            kstat[k][1] += r.found;
            kstat[k][2] += holds;
            kstat[k][3] += bad;
        }
        if (bad && is_known) known_bad++;
        else if (bad) failed++;
        else passed++;
        explore_result_free(&r);
        scenario_free(sc);
        buf_release(&pb.text);
    }
    printf("soundness: %d problems: %d violated (found by check), %d proven, %d unfinished in %.1f s; "
           "%d with a violating random run, %d of them not found by check in its time\n",
           ran, found, proven, unfinished, limit, runs_violating, missed);
    printf("counter-examples: %d replayed, %d did not\n", replayed, not_replayed);
    if (!print_only)
        for (int k = 0; k < K_NPROTO + NSHAPES; k++)
            printf("  class %-7s %4d problems: %4d violated, %4d proven, %3d contradicting\n",
                   k < K_NPROTO ? klass_names[k] : shape_names[k - K_NPROTO], kstat[k][0], kstat[k][1],
                   kstat[k][2], kstat[k][3]);
    if (known_bad)
        printf("%d problems of the classes known to contradict today (SOUNDNESS_KNOWN=\"%s\") contradicted: "
               "printed as KNOWN above, not counted\n", known_bad, known);
    printf("%d passed, %d failed\n", passed, failed);
    if (!print_only) {
        char name[4200];
        for (int i = first; i < first + nproblems; i++) {
            snprintf(name, sizeof name, "%s/soundness-%d.lua", dir, i);
            unlink(name);
        }
        rmdir(dir);
    }
    scriptlib_free(lib);
    chunkcache_free(shared.chunks);
    buf_release(&err);
    return failed ? 1 : 0;
}
