/* soundness.c — the model checker's "holds" against the ground truth.
 *
 * Generates small random problems (1 or 3 nodes, 2 or 3 clients, library protocols and
 * deliberately broken models from tests/check/models, delay windows from constant to 300 ms
 * wide, fault budgets of 0 to 2 of every kind the search places), asks the model checker
 * about each, and runs each problem many times at random: delays drawn from their whole
 * windows, faults pinned at instants drawn to the µs over the horizon with their parameters
 * drawn from the explore table. Every violation such a run shows must be found by the
 * checker: a "holds" that a run contradicts fails the test, with the problem and the run
 * printed so that it can be replayed (`locklab run FILE --seed S` with the faults pinned).
 *
 *   build/opt/tests/soundness [PROBLEMS [RUNS [FIRST]]]
 *
 * Prints, per problem, what the checker said and what the runs saw, and at the end
 * "N passed, N failed" (a problem passes when no run contradicts the checker). Problems whose
 * search did not finish within its time are counted and listed (they prove nothing either
 * way); they are not failures, but the harness says how many there were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#define PICK(r, arr) (arr)[rnext(r) % (sizeof(arr) / sizeof *(arr))]

/* A fault the explore table offers: kind, target, parameter (µs, or a rate). */
typedef struct offer {
    fault_kind kind;
    const char *target;
    int64_t param;
} offer;

typedef struct problem {
    buf text;
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

static void gen(problem *p, uint64_t seed, const char *models)
{
    rng r = { seed * 0x9e3779b97f4a7c15ULL + 12345 };
    /* A quarter of the problems have their clients contend at once (they start within 3 ms of
     * each other over 1-2..5 ms windows): the windows then decide who is first at each node, and
     * the reduction's followers and stayers (model/reduce.c) are what keeps their search small.
     * Drawn from a stream of their own, like more_shapes, so that the other draws stay. */
    rng rc = { seed ^ 0x636f6e74656e64ULL };
    int contend = rint_in(&rc, 0, 3) == 0;
    buf_init(&p->text);
    p->noffers = 0;
    p->timeout = 0;
    static const char *const protocols[] = { "distlock", "set-nx-del", "setnx-expire", "redlock", "distlock",
                                             "MODEL:rtt-shortcut", "MODEL:stamp-carry" };
    const char *proto = PICK(&r, protocols);
    int nodes = !strcmp(proto, "redlock") ? 3 : 1;
    int nclients = rint_in(&r, 0, 3) ? 2 : 3;
    int64_t lease = PICK(&r, ((const int64_t[]){ 100, 200, 500 }));
    int64_t dmax = PICK(&r, ((const int64_t[]){ 1, 2, 3, 5, 20, 100, 300 }));
    if (contend) dmax = PICK(&rc, ((const int64_t[]){ 2, 2, 3, 5 }));
    if (!strncmp(proto, "MODEL:stamp", 11) && dmax > 5) dmax = 5; /* raw readings: every ms is tried */
    buf *b = &p->text;
    buf_printf(b, "return {\n  name = \"soundness problem %llu\", about = [[generated by tests/soundness.c]],\n",
               (unsigned long long)seed);
    if (!strncmp(proto, "MODEL:", 6)) buf_printf(b, "  protocol = \"%s/%s.lua\",\n", models, proto + 6);
    else buf_printf(b, "  protocol = \"%s\",\n", proto);
    if (nodes == 3) buf_puts(b, "  mode = \"redlock\",\n");
    buf_printf(b, "  nodes = %d, lease = \"%lldms\", wait = \"%s\",\n", nodes, (long long)lease,
               PICK(&r, ((const char *const[]){ "1ms", "1ms", "150ms" })));
    if (dmax == 1) buf_puts(b, "  network = { delay = \"1ms\" },\n");
    else buf_printf(b, "  network = { delay = { \"1ms\", \"%lldms\" } },\n", (long long)dmax);
    if (rint_in(&r, 0, 2) == 0) /* one slow, wide link */
        buf_printf(b, "  links = { { from = \"%s\", to = \"n1\", delay = { \"1ms\", \"%lldms\" } } },\n",
                   client_names[rint_in(&r, 0, nclients - 1)],
                   (long long)(strncmp(proto, "MODEL:stamp", 11) ? PICK(&r, ((const int64_t[]){ 50, 150, 300 })) : 4));
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
    more_shapes(p, seed, nclients, kinds_used, !strncmp(proto, "MODEL:", 6));
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
        f[i].at = rint_in(&r, 0, pb->horizon);
        f[i].target = (char *)o->target;
        f[i].duration = -1;
        switch (o->kind) {
        case FAULT_GC_PAUSE: f[i].duration = o->param; break;
        case FAULT_CRASH: f[i].by_ms = o->param / 1000; break;
        case FAULT_CLOCK_JUMP: f[i].by_ms = o->param / 1000; break;
        case FAULT_PARTITION:
            f[i].duration = o->param;
            f[i].groups = scenario_isolate_groups(sc, o->target);
            f[i].ngroups = 2;
            break;
        default: break;
        }
        buf_printf(what, "%s{ at = \"%lldus\", %s = \"%s\"", i ? ", " : "", (long long)f[i].at, fault_kind_name(o->kind),
                   o->target);
        if (o->kind == FAULT_GC_PAUSE || o->kind == FAULT_PARTITION)
            buf_printf(what, ", duration = \"%lldms\"", (long long)(o->param / 1000));
        if (o->kind == FAULT_CLOCK_JUMP) buf_printf(what, ", by = \"%lldms\"", (long long)(o->param / 1000));
        if (o->kind == FAULT_CRASH && o->param) buf_printf(what, " --[[ restarts after %lld ms ]]", (long long)(o->param / 1000));
        buf_puts(what, " }");
    }
    /* pinned faults are in time order */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && f[j].at < f[j - 1].at; j--) {
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
    int passed = 0, failed = 0, unfinished = 0, found = 0, proven = 0, runs_violating = 0, missed = 0;
    for (int i = first; i < first + nproblems; i++) {
        problem pb;
        gen(&pb, (uint64_t)i, models);
        buf_reset(&err);
        char name[64];
        snprintf(name, sizeof name, "soundness-%d.lua", i);
        if (print_only) {
            fputs(pb.text.p, stdout);
            buf_release(&pb.text);
            continue;
        }
        scenario *sc = scenario_load_string(name, pb.text.p, &err);
        if (!sc) {
            printf("problem %d: does not load: %s\n%s", i, err.p, pb.text.p);
            failed++;
            buf_release(&pb.text);
            continue;
        }
        explore_opts o = { .max_deviations = -1, .time_limit = limit, .jobs = 1, .probes = EXPLORE_PROBES };
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
        found += r.found;
        proven += holds;
        if (!r.found && !holds) unfinished++;
        int bad = 0, seen = 0;
        for (int k = 0; k < nruns && !bad; k++) {
            buf what;
            buf_init(&what);
            uint64_t seed = (uint64_t)i * 1000003u + (uint64_t)k;
            int v = random_run(sc, &pb, r.searched, seed, &shared, &what);
            if (v >= 0) {
                seen++;
                if (holds) {
                    printf("CONTRADICTION: problem %d: check says holds (%llu paths), but a run violates %s\n"
                           "  seed %llu, faults { %s }\n%s",
                           i, (unsigned long long)r.paths, property_name((property)v), (unsigned long long)seed, what.p,
                           pb.text.p);
                    bad = 1;
                }
            }
            buf_release(&what);
        }
        if (seen) runs_violating++;
        if (seen && !r.found) missed++;
        printf("problem %3d: %-9s %6llu paths %6.2f s; random runs violating: %d of %d\n", i,
               r.found ? "violated" : holds ? "holds" : "unproven", (unsigned long long)r.paths, r.seconds, seen, nruns);
        fflush(stdout);
        if (bad) failed++;
        else passed++;
        explore_result_free(&r);
        scenario_free(sc);
        buf_release(&pb.text);
    }
    printf("soundness: %d problems: %d violated (found by check), %d proven, %d unfinished in %.1f s; "
           "%d with a violating random run, %d of them not found by check in its time\n",
           nproblems, found, proven, unfinished, limit, runs_violating, missed);
    printf("%d passed, %d failed\n", passed, failed);
    scriptlib_free(lib);
    chunkcache_free(shared.chunks);
    buf_release(&err);
    return failed ? 1 : 0;
}
