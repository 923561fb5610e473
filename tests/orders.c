/* orders.c — the model checker's reduction of time against every value of the windows.
 *
 * model/reduce.c tries a window (a message's delay) only at the values where an order of
 * events changes, and claims that every order the windows can produce is reached so. The
 * ground truth here is every value: small problems whose windows are 0-4 µs wide and whose
 * clients start within a few µs of each other (so that requests meet, tie and pass each other
 * at every µs), run with every value of each of their first decisions — the delays, the
 * choices among simultaneous events, small ctx:random draws — and the rest at their first
 * values: a corner of the whole space, every run of which is a path of the space. Each run's
 * orders (model/exploreint.h's explore_orders: the sequence of steps at each actor and on the
 * checker's time line, and the whole ms each clock reading read) are collected. The checker's
 * search of the same problem must reach every one of them, and find a violation wherever one
 * of those runs shows one. A problem where it does not fails, printed with the values of the
 * run whose orders it missed (a choice list: `locklab run FILE --choices`).
 *
 *   build/opt/tests/orders [PROBLEMS [FIRST]]
 *
 * A problem whose search does not finish in ORDERS_TIME seconds (default 20) proves nothing
 * and is counted apart, and so does one whose corner has one order only (nothing to reach) or
 * whose search found a violation no run of the corner shows (it stopped there); a suite in
 * which no problem held anything fails; ORDERS_PRINT=1 prints each problem's file. One problem
 * in seven is a lock that waits for its replica (tests/check/models/wait-ack.lua), one in seven
 * has one fault for the search to place (fault_problem), one in seven sleeps whole ms between
 * two requests, its clients starting just before a whole ms (near_ms_problem), one in seven
 * has a fault of 1 ms whose end meets a request (meet_problem), one in seven a drift of a
 * client's clock that may begin a few µs earlier (drift_problem). A run from
 * seed 1 also runs the problems that once failed (kept[] below). Prints a line a problem and
 * "N passed, N failed". ORDERS_FILE=F runs the problem in the file F instead (one problem). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "chooser.h"
#include "chunkcache.h"
#include "explore.h"
#include "exploreint.h"
#include "scenario.h"
#include "scriptlib.h"
#include "util.h"
#include "world.h"

/* At most this many runs of the corner a problem (the first decisions whose values multiply
 * to at most this many), and decisions of at most ORDERS_MAXN alternatives enumerated. */
#define ORDERS_CORNER 3000
#define ORDERS_MAXN 6
/* A drift's start (WDEC_DRIFT) is enumerated whole up to this many values (its target's gap,
 * µs): its effects (readings that shift, timers that move by a fraction of it) are what the
 * corner must hold the search against at every µs. */
#define ORDERS_DRIFTN 1500

/* Whether decision j of p is enumerated in the corner: how many of its values (1: only its first). */
static int64_t corner_n(const xpath *p, size_t j)
{
    int64_t n = p->rec[j].n;
    if (p->decs && p->decs[j].kind == WDEC_DRIFT) return n <= ORDERS_DRIFTN ? n : 1;
    return n <= ORDERS_MAXN ? n : 1;
}

typedef struct rng {
    uint64_t s;
} rng;

static int64_t rint_in(rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(ll_splitmix64(&r->s) % (uint64_t)(hi - lo + 1));
}

static void seen(void *ud, uint64_t orders, int violated)
{
    (void)violated;
    hset_add(ud, orders);
}

/* One problem in seven: a lock that waits for its replica (WAIT with a timeout of the node's
 * clock, in whole ms: reduce_cone.c moves it so), where a master's write has effects at two
 * actors (the client's reply, the replication stream) whose handling order is independent. */
static int wait_ack_problem(uint64_t seed)
{
    return seed % 7 == 3;
}

/* One problem in seven (another seven's): one fault placed by the search — a crash of a node
 * that restarts, a GC pause of a client or a partition of a node, of 1-4 ms, within the first
 * 2-5 ms — where the clients' first requests are µs apart: the corner tries it at each instant
 * with every shift its gap allows (up to ORDERS_MAXN µs), and the search must reach each of
 * those orders too. Drawn from a stream of its own: the other problems keep their draws. */
static int fault_problem(uint64_t seed)
{
    return seed % 7 == 5;
}

/* One problem in seven (a third seven's): a lock whose clients sleep a few whole ms between
 * a round trip and their SET (tests/check/models/timer-tie.lua), and start a few µs before a
 * whole ms: where a reply lands in its ms decides the ms its sleep ends in, so two clients'
 * SETs meet at the node at one µs, or a ms apart, by a µs of a reply's delay — a step that
 * moves in whole ms (model/reduce.c, reduce_cone_ms_steps). Drawn from a stream of its own. */
static int near_ms_problem(uint64_t seed)
{
    return seed % 7 == 6;
}

/* One problem in seven (a fourth seven's): one fault of 1 ms (a delay's floor) placed by the
 * search within the first 2 ms — the restart, the end of the pause or of the partition then
 * meets a request sent a µs apart from where the fault landed, and the fault's shift (a window
 * moving it earlier) and the request's delay (later) approach each other: the order between
 * the two needs both near their ends (reduce.c, reducer.opp_us). Drawn from a stream of its own. */
static int meet_problem(uint64_t seed)
{
    return seed % 7 == 1;
}

/* One problem in seven (a fifth seven's): a drift of a node's or a client's clock (100 % or
 * 50 % fast, 30 % or 50 % slow) placed by the search within the first 2-4 ms, over constant
 * delays, clients a ms or so apart (anywhere in their ms) that retry for 30 ms against leases
 * of 5-9 ms: where the drift
 * began in its target's gap is a window (WDEC_DRIFT) of up to a ms or two, which the corner
 * runs at every µs (ORDERS_DRIFTN) — the target's readings from then on shift, its timers (a
 * node's key deadlines, a client's sleeps) move by rate/(1 + rate) of it, past other steps.
 * Drawn from streams of its own. */
static int drift_problem(uint64_t seed)
{
    return seed % 7 == 2;
}

/* The problem of seed: Lua text. */
static void gen(buf *b, uint64_t seed, const char *models)
{
    rng r = { seed * 0x9e3779b97f4a7c15ULL + 4242 };
    static const char *const protocols[] = { "set-nx-del", "distlock", "setnx-expire", "redlock",
                                             "MODEL:rtt-shortcut", "MODEL:tie-first" };
    const char *proto = protocols[rint_in(&r, 0, 5)];
    int wait_ack = wait_ack_problem(seed); /* the other problems as they were */
    if (wait_ack) proto = "MODEL:wait-ack";
    int near_ms = near_ms_problem(seed);
    rng m = { seed ^ 0x6e6561726d73ULL };
    if (near_ms) proto = "MODEL:timer-tie";
    int nodes = !strcmp(proto, "redlock") ? (int)rint_in(&r, 2, 3) : 1;
    int nclients = rint_in(&r, 0, 2) ? 2 : 3;
    if (near_ms) nclients = 3;
    int64_t width = rint_in(&r, 0, 4); /* µs */
    if (drift_problem(seed)) width = 0; /* the corner's runs go to the drift's start, every µs of it */
    if (meet_problem(seed) && width == 0) width = 1; /* a window to approach with */
    buf_printf(b, "return {\n  name = \"orders problem %llu\", about = [[generated by tests/orders.c]],\n",
               (unsigned long long)seed);
    if (!strncmp(proto, "MODEL:", 6)) buf_printf(b, "  protocol = \"%s/%s.lua\",\n", models, proto + 6);
    else buf_printf(b, "  protocol = \"%s\",\n", proto);
    if (!strcmp(proto, "MODEL:tie-first")) buf_printf(b, "  options = { at = %lld },\n", (long long)rint_in(&r, 0, 2));
    int64_t sleep_ms = rint_in(&m, 1, 4);
    if (near_ms) buf_printf(b, "  options = { ms = %lld },\n", (long long)sleep_ms);
    if (nodes > 1) buf_puts(b, "  mode = \"redlock\",\n");
    /* retries (a sleep of whole ms, 50-200) of two clients only: three retrying seldom finish */
    int64_t lease = rint_in(&r, 5, 40);
    const char *wait = rint_in(&r, 0, 1) || nclients > 2 ? "1ms" : "30ms";
    rng dr = { seed ^ 0x64726966745fULL }; /* the drift class's own draws */
    if (drift_problem(seed)) { /* short leases, clients that retry: deadlines and retries meet */
        lease = rint_in(&dr, 5, 9);
        wait = "30ms";
    }
    buf_printf(b, "  nodes = %d, lease = \"%lldms\", wait = \"%s\",\n", nodes, (long long)lease, wait);
    if (width == 0) buf_puts(b, "  network = { delay = \"1000us\" },\n");
    else buf_printf(b, "  network = { delay = { \"1000us\", \"%lldus\" } },\n", (long long)(1000 + width));
    if (wait_ack)
        buf_printf(b, "  options = { wait = %d }, replicas = 1, replication = { lag = { \"1000us\", \"%lldus\" } },\n",
                   (int)(1 + seed % 2), (long long)(1000 + width));
    int64_t shift = near_ms ? 997 - 2 * width + rint_in(&m, 0, 2) : 0;
    buf_puts(b, "  clients = {");
    for (int c = 0; c < nclients; c++) {
        int64_t work = rint_in(&r, 1, 8); /* drawn first, as the problems have always been */
        int64_t start = shift + (c ? rint_in(&r, 0, 3) : 0);
        /* a ms or so apart, anywhere in their ms: the node's gaps are a ms or two, and what it
         * reads falls anywhere in its ms (a shift of its readings passes a boundary) */
        if (drift_problem(seed) && c) start += 1000 * c + rint_in(&dr, 0, 999);
        if (near_ms && c == 2) start = (2 + sleep_ms) * 1000 + rint_in(&m, 0, 999); /* C: its SET as it starts */
        buf_printf(b, " { name = \"%c\", start = \"%lldus\", work = \"%lldms\" },", 'A' + c, (long long)start, (long long)work);
    }
    buf_puts(b, " },\n  duration = \"200ms\",\n");
    buf_printf(b, "  expect = { mutual_exclusion = \"holds\"%s },\n", rint_in(&r, 0, 3) ? "" : ", no_deadlock = \"holds\"");
    if (drift_problem(seed)) {
        rng d = { seed ^ 0x6472696674ULL };
        char tgt[8];
        if (rint_in(&d, 0, 1)) snprintf(tgt, sizeof tgt, "n1");
        else snprintf(tgt, sizeof tgt, "%c", (int)('A' + rint_in(&d, 0, nclients - 1)));
        static const char *const rates[] = { "1.0", "0.5", "-0.3", "-0.5" };
        buf_printf(b, "  explore = { faults = { drift = { targets = { \"%s\" }, params = { %s } } }, max_faults = 1, horizon = \"%lldms\" },\n}\n",
                   tgt, rates[rint_in(&d, 0, 3)], (long long)rint_in(&d, 2, 4));
        return;
    }
    if (!fault_problem(seed) && !meet_problem(seed)) {
        buf_puts(b, "  explore = { faults = { }, max_faults = 0 },\n}\n");
        return;
    }
    int meet = meet_problem(seed);
    rng f = { seed ^ (meet ? 0x6d656574ULL : 0x6661756c74ULL) };
    int64_t len = meet ? 1 : rint_in(&f, 1, 4), kind = rint_in(&f, 0, 2);
    if (kind == 0) buf_printf(b, "  explore = { faults = { crash = { targets = { \"n1\" }, params = { \"%lldms\" } } }", (long long)len);
    else if (kind == 1)
        buf_printf(b, "  explore = { faults = { gc_pause = { targets = { \"%c\" }, params = { \"%lldms\" } } }",
                   (int)('A' + rint_in(&f, 0, nclients - 1)), (long long)len);
    else buf_printf(b, "  explore = { faults = { partition = { targets = { \"n1\" }, params = { \"%lldms\" } } }", (long long)len);
    buf_printf(b, ", max_faults = 1, horizon = \"%lldms\" },\n}\n", (long long)(meet ? 2 : rint_in(&f, 2, 5)));
}

/* One order of the corner, with the values of the first run that showed it. */
typedef struct shown {
    uint64_t orders;
    int64_t *real;
    size_t n;
} shown;

/* Every run of the corner: each of the first decisions at every value (those of at most
 * ORDERS_MAXN alternatives), the rest at their first. Fills truth (its orders), *sh (one run
 * of each) and *violating (the values of a run that violates, if any). 0, or -1 with err. */
static int corner(const scenario *sc, const int *searched, const world_opts *shared, hset *truth, shown **sh,
                  choice **violating, size_t *nviolating, size_t *runs, buf *err)
{
    choice *prefix = NULL;
    size_t nprefix = 0, depth = 0;
    *runs = 0;
    for (;;) {
        chooser *ch = chooser_new(CHOOSER_EXPLORE, sc->seed);
        chooser_set_script(ch, prefix, nprefix);
        xpath p;
        int rc = search_run_path(sc, ch, 1, searched, shared, &p, err);
        chooser_free(ch);
        if (rc != 0) {
            free(prefix);
            return -1;
        }
        if (*runs == 0) { /* how many first decisions: their alternatives multiply to the bound */
            uint64_t prod = 1;
            while (depth < p.nrec) {
                int64_t n = corner_n(&p, depth);
                if (prod * (uint64_t)n > ORDERS_CORNER) break;
                prod *= (uint64_t)n;
                depth++;
            }
        }
        uint64_t o = explore_orders(&p);
        size_t before = truth->n;
        hset_add(truth, o);
        if (truth->n > before) {
            *sh = xrealloc(*sh, truth->n * sizeof **sh);
            shown *w = &(*sh)[truth->n - 1];
            w->orders = o;
            w->n = p.nrec;
            w->real = xmalloc((p.nrec + 1) * sizeof *w->real);
            for (size_t j = 0; j < p.nrec; j++) w->real[j] = p.rec[j].real;
        }
        if (p.violated >= 0 && !*violating) {
            *violating = xmalloc((p.nrec + 1) * sizeof **violating);
            memcpy(*violating, p.rec, p.nrec * sizeof **violating);
            *nviolating = p.nrec;
        }
        (*runs)++;
        size_t k = depth < p.nrec ? depth : p.nrec;
        while (k > 0 && !(corner_n(&p, k - 1) > 1 && p.rec[k - 1].value + 1 < p.rec[k - 1].n)) k--;
        if (k == 0 || *runs >= 4 * ORDERS_CORNER) {
            path_free(&p);
            break;
        }
        free(prefix);
        prefix = xmalloc(k * sizeof *prefix);
        memcpy(prefix, p.rec, k * sizeof *prefix);
        prefix[k - 1].value++;
        nprefix = k;
        path_free(&p);
    }
    free(prefix);
    return 0;
}

int main(int argc, char **argv)
{
    int nproblems = argc > 1 ? atoi(argv[1]) : 60;
    uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    double limit = getenv("ORDERS_TIME") ? atof(getenv("ORDERS_TIME")) : 20;
    char *models = realpath(getenv("ORDERS_MODELS") ? getenv("ORDERS_MODELS") : "tests/check/models", NULL);
    if (!models) {
        perror("orders: tests/check/models");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line a problem, as it goes */
    char dir[] = "/tmp/locklab-orders.XXXXXX";
    if (!mkdtemp(dir)) {
        perror("orders: mkdtemp");
        return 2;
    }
    buf err;
    buf_init(&err);
    scriptlib *lib = scriptlib_load(NULL, &err);
    if (!lib) {
        fprintf(stderr, "orders: %s\n", err.p);
        return 2;
    }
    world_opts shared = { .lib = lib, .chunks = chunkcache_new() };
    int passed = 0, failed = 0, unfinished = 0, idle = 0;
    uint64_t truth_total = 0, runs_total = 0, paths_total = 0;
    /* after the run of problems from seed 1 (make test's), the problems that once failed */
    static const uint64_t kept[] = {
        1085, /* three clients' first requests meet at the node at the top of two windows:
               * the order between two of them was searched only a µs apart (reduce_tie.c) */
        83, 251, /* B's reply reaches it at its next whole ms only with both its windows at
                  * their tops: its sleep then ends a ms later, its SET after C's — a step
                  * moving in whole ms was moved by the root alone, without the windows below
                  * on its reading's chain (reduce.c, order_crossing_later) */
    };
    int nkept = first == 1 ? (int)(sizeof kept / sizeof kept[0]) : 0;
    for (int i = 0; i < nproblems + nkept; i++) {
        uint64_t seed = i < nproblems ? first + (uint64_t)i : kept[i - nproblems];
        if (getenv("ORDERS_FILE") && i > 0) break;
        buf text;
        buf_init(&text);
        if (getenv("ORDERS_FILE")) {
            if (ll_read_file(getenv("ORDERS_FILE"), 1 << 20, &text) != 0) {
                fprintf(stderr, "orders: cannot read %s\n", getenv("ORDERS_FILE"));
                return 2;
            }
        } else {
            gen(&text, seed, models);
        }
        if (getenv("ORDERS_PRINT")) printf("%s", text.p);
        char name[4200];
        snprintf(name, sizeof name, "%s/problem-%llu.lua", dir, (unsigned long long)seed);
        buf_reset(&err);
        scenario *sc = ll_write_file(name, text.p, text.len, &err) == 0 ? scenario_load(name, &err) : NULL;
        if (!sc) {
            printf("problem %llu: does not load: %s\n%s", (unsigned long long)seed, err.p, text.p);
            failed++;
            buf_release(&text);
            continue;
        }
        int searched[PROP_COUNT];
        search_choose_properties(sc, searched);
        hset truth = { 0 }, reached = { 0 };
        shown *sh = NULL;
        choice *violating = NULL;
        size_t nviolating = 0, runs = 0;
        if (corner(sc, searched, &shared, &truth, &sh, &violating, &nviolating, &runs, &err) != 0) {
            printf("problem %llu: a run fails: %s\n", (unsigned long long)seed, err.p);
            failed++;
            goto next;
        }
        explore_opts o = { .max_deviations = -1, .time_limit_s = limit, .jobs = 1, .path_seen = seen, .path_seen_ud = &reached };
        explore_result r;
        if (explore_run(sc, &o, &r, &err) != 0) {
            printf("problem %llu: check fails: %s\n", (unsigned long long)seed, err.p);
            failed++;
            goto next;
        }
        size_t missed = 0, one = 0;
        for (size_t j = 0; j < truth.n; j++)
            if (!hset_has(&reached, sh[j].orders) && !missed++) one = j;
        const char *said = r.found ? "violated" : r.complete ? "holds" : "unfinished";
        int bad = 0;
        if (violating && !r.found && r.complete) bad = 1; /* a "holds" a run of the corner contradicts */
        if (!r.found && r.complete && missed) bad = 1;    /* an order the search never ran */
        printf("problem %llu: %-10s %6llu paths; the corner: %5zu runs, %4zu orders%s\n", (unsigned long long)seed,
               said, (unsigned long long)r.paths, runs, truth.n, violating ? ", violating" : "");
        if (!r.found && r.complete && missed) {
            printf("   orders of the corner the search never ran: %zu of %zu; the first (%016llx) shown by the decisions:", missed,
                   truth.n, (unsigned long long)sh[one].orders);
            for (size_t j = 0; j < sh[one].n; j++) printf(" %lld", (long long)sh[one].real[j]);
            printf("\n");
        }
        if (bad) {
            failed++;
            printf("   FAIL: %s\n%s", violating ? "a run of the corner violates, the search says it holds" : "orders missed", text.p);
            if (violating) {
                printf("   the run's decisions:");
                for (size_t j = 0; j < nviolating; j++) printf(" %lld", (long long)violating[j].real);
                printf("\n");
            }
        } else if (!r.found && !r.complete) {
            unfinished++;
        } else if ((!r.found && truth.n >= 2) || (r.found && violating)) {
            passed++; /* the search ran the corner's orders (two or more), or found what it showed */
        } else {
            idle++; /* one order to run, or a violation the corner never showed: nothing held */
        }
        truth_total += truth.n;
        runs_total += runs;
        paths_total += r.paths;
        explore_result_free(&r);
    next:
        for (size_t j = 0; j < truth.n; j++) free(sh[j].real);
        free(sh);
        free(truth.v);
        free(reached.v);
        free(violating);
        scenario_free(sc);
        unlink(name);
        buf_release(&text);
    }
    rmdir(dir);
    printf("%d problems: %llu runs of their corners (%llu orders), %llu paths of the search; %d unfinished, %d that "
           "held nothing (a corner of one order, or a violation found beyond it)\n",
           nproblems + nkept, (unsigned long long)runs_total, (unsigned long long)truth_total, (unsigned long long)paths_total,
           unfinished, idle);
    if (nproblems > 0 && passed == 0 && !failed) { /* a suite that exercised nothing is no pass */
        printf("orders: no problem held the search against its corner\n");
        failed = 1;
    }
    printf("%d passed, %d failed\n", passed, failed);
    scriptlib_free(lib);
    chunkcache_free(shared.chunks);
    buf_release(&err);
    free(models);
    return failed ? 1 : 0;
}
