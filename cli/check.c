/* check.c — `locklab check SCENARIO`: the model checker. Searches the faults the scenario's
 * explore table allows, and every schedule, for a violation; says exactly what it covered;
 * writes the minimised counter-example as a scenario that `locklab run` replays. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "explore.h"
#include "guard.h"
#include "world.h"
#include "scenario.h"

#define CHECK_DEFAULT_TIME 60

static void check_usage(FILE *f)
{
    fputs("usage: locklab check SCENARIO [--time S] [--max-deviations K] [--delays orders|extremes|ends]\n"
          "                               [--jobs N] [--random N] [--seed S] [--max-paths N] [--out BASE]\n"
          "                               [--probes N]\n"
          "       locklab check SCENARIO --shard I/N [--pool DIR] [--save FILE] [options as above]\n"
          "       locklab check SCENARIO --merge FILE... [--out BASE]\n"
          "       locklab check SCENARIO --pool-balance N [options as above]\n"
          "\n"
          "Searches every way the scenario can go within the bounds of its `explore` table\n"
          "for a run that violates a property: those named in `expect`, or else\n"
          "mutual_exclusion, resource_safety, release_safety and no_deadlock.\n"
          "\n"
          "What is searched. Every placement of at most max_faults of the table's faults\n"
          "within the horizon, to the µs, always, whatever else is bounded. Every other\n"
          "decision (which of two simultaneous events goes first, a message lost, a value of\n"
          "ctx:random, where in its window a delay or a random sleep ends) has a default, its\n"
          "first alternative; a path's deviations are its decisions off their default.\n"
          "Without a bound the search deepens: all paths with 0 deviations, then 1, 2, ...\n"
          "until none is left (the whole space) or --time runs out, and it says the largest\n"
          "number of deviations it exhausted. After the first level, --probes random\n"
          "schedules (default 128) drawn from the scenario's seed are run: a violation many\n"
          "schedules show, but only with many deviations, is found there.\n"
          "\n"
          "Time is searched by its orders (see README.md, \"The model checker\"): a window is\n"
          "tried at each value where the step it times, or anything that step causes, falls\n"
          "elsewhere among the steps it depends on (the same actor's; the clients' on the\n"
          "checker's time line), where a clock reading changes its whole-ms value against a\n"
          "reading outside what moves, or where a ctx:before deadline could flip: one value\n"
          "per order, interior ones included. A fault's instant is a window back to the last\n"
          "event it could be ordered against. Lock values drawn with ctx:unique are not\n"
          "choices; every value of ctx:random is (up to 4096 values; wider ranges are sampled\n"
          "and the answer says so).\n"
          "\n"
          "The first violation found is minimised (fewest faults, shortest delays, shortest\n"
          "pauses) and written as BASE.lua (the scenario with the faults pinned) and\n"
          "BASE.choices; 'locklab run BASE.lua --choices BASE.choices' replays it exactly.\n"
          "BASE defaults to out/<scenario>-counterexample. Ctrl-C while it is minimised stops\n"
          "the minimising after the run in progress and writes the smallest found by then.\n"
          "\n"
          "  --time S            stop deepening after S seconds (default 60; 0: no limit)\n"
          "  --max-deviations K  search exactly the paths with at most K deviations\n"
          "                      (default: the table's max_deviations, else deepening);\n"
          "                      not a proof where paths with more deviations exist\n"
          "  --delays extremes   also try the last value of every window\n"
          "  --delays ends       each window at its two ends only and each fault at the\n"
          "                      instant of an event, as a discrete-time checker (SPIN in\n"
          "                      make bench) searches: not a proof of the values between\n"
          "  --random N          N random schedules instead of the systematic search\n"
          "  --seed S            seed for --random (default: the scenario's)\n"
          "  --max-paths N       stop after N paths\n"
          "  --probes N          random schedules after the first level (default 128; 0: none)\n"
          "  --out BASE          where to write the counter-example\n"
          "  --jobs N            search with N processes (default: the cores present); the\n"
          "                      answer and the counter-example do not depend on N\n"
          "  --shard I/N         search only the I-th of N shares of the space (for a batch\n"
          "                      system: GNU parallel, a Slurm array, Kubernetes Jobs) and\n"
          "                      save what it found to FILE (default out/<scenario>.shard-I-of-N);\n"
          "                      one process (more cores: more shards)\n"
          "  --pool DIR          with --shard I/N: task I of N that hand the shares out among\n"
          "                      themselves through DIR, an empty folder they all see (a task\n"
          "                      that finishes early takes the next share nobody has taken;\n"
          "                      what a task killed had claimed is taken over), instead of a\n"
          "                      fixed share each (README, \"More than one machine\": the\n"
          "                      balance measured)\n"
          "  --pool-balance N    search in one process, handing the shares out as N tasks of\n"
          "                      a --pool would if each path took the same time, and print\n"
          "                      each task's paths: how the search would balance over N\n"
          "  --merge FILE...     combine the N shard files into the answer of one search; a\n"
          "                      shard or a pool's share missing is named (exit 4: not\n"
          "                      finished), and a file of another scenario, build, N or\n"
          "                      options, or an index twice, is refused (exit 2).\n"
          "                      tools/slurm-check.sh runs the tasks as a Slurm array job\n"
          "                      sharing a --pool and merges them\n"
          "\n"
          "Progress goes to stderr (a line every 2 s when it is not a terminal); Ctrl-C stops\n"
          "the search and prints what it covered.\n"
          "\n"
          "exit: 1 a violation found, 0 none exists within the bounds (proven), 4 none found but\n"
          "      not proven (stopped by --time or --max-paths, a deviation bound that left paths\n"
          "      out, --random, sampled values, a shard missing from --merge), 2 bad input, 3 I/O\n"
          "      error, 130 interrupted with none found (what it covered is printed)\n",
          f);
}

static int progress_tty;
static double progress_last = -10;

static void progress(void *ud, uint64_t paths, uint64_t transitions, int bound, double seconds)
{
    (void)ud;
    if (!progress_tty && seconds - progress_last < 2) return;
    progress_last = seconds;
    char dev[32];
    if (bound >= 0) snprintf(dev, sizeof dev, "<= %d deviations", bound);
    else snprintf(dev, sizeof dev, "random");
    fprintf(stderr, "%s  %llu paths, %llu transitions (%.0f/s), %s, %.1f s%s", progress_tty ? "\r" : "locklab check:",
            (unsigned long long)paths, (unsigned long long)transitions, seconds > 0 ? (double)transitions / seconds : 0.0,
            dev, seconds, progress_tty ? "   " : "\n");
    fflush(stderr);
}

static volatile int stop_requested;

/* The first Ctrl-C or SIGTERM asks the search to stop where it is and say what it covered;
 * a second one (work that cannot stop soon: analysing one very long run) ends the process. */
static void on_interrupt(int sig)
{
    stop_requested = 1;
    signal(sig, SIG_DFL);
}

/* explore_minimise_hook: the search is over, the minimising starts (it may take a while). */
static void on_minimising(void *ud)
{
    (void)ud;
    fprintf(stderr, "%slocklab check: a violation found; minimising it (Ctrl-C stops there and keeps the smallest "
            "counter-example so far) ...\n", progress_tty ? "\n" : "");
    fflush(stderr);
}

static int parse_count(const char *opt, const char *v, uint64_t *out)
{
    unsigned long long x;
    if (cli_parse_whole(v, UINT64_MAX, &x) != 0) {
        cli_error("check: %s takes a whole number, not '%s'", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* "every placement of at most 2 faults (crash of A, B or C) within the first 6 s": the faults
 * the search places (with every = 0: "placements of ..."). */
static void describe_budget(const scenario *sc, int every, buf *b)
{
    const explore_cfg *x = &sc->explore;
    if (x->max_faults == 0 || x->nfaults == 0) {
        buf_puts(b, "no fault (the budget is none)");
        return;
    }
    buf_printf(b, "%s of at most %d fault%s (", every ? "every placement" : "placements", x->max_faults,
               x->max_faults == 1 ? "" : "s");
    for (int i = 0; i < x->nfaults; i++) {
        const explore_fault *f = &x->faults[i];
        buf_printf(b, "%s%s of ", i ? "; " : "", fault_kind_name(f->kind));
        for (int t = 0; t < f->ntargets; t++)
            buf_printf(b, "%s%s", t == 0 ? "" : t + 1 == f->ntargets ? " or " : ", ", f->targets[t]);
    }
    int64_t h = sc->explore.horizon_us > 0 ? sc->explore.horizon_us : sc->duration_us;
    buf_printf(b, ") within the first %.3g s", (double)h / 1e6);
    if (h >= sc->duration_us) return;
    int tied = 0;
    for (int i = 0; i < x->nfaults; i++)
        tied |= world_fault_tied_to_target(x->faults[i].kind);
    if (tied) buf_puts(b, " (a crash, pause or clock jump: up to its target's first event past that)");
}

/* A deviation bound (--max-deviations, or the table's max_deviations) that kept some path
 * from the search: what it searched is not the whole bounded space. */
static int bound_cut(const explore_result *r)
{
    return r->complete && r->deviation_bound >= 0;
}

/* Whether the search covered the whole bounded space, nothing sampled: its "holds" is a proof. */
static int proven(const explore_opts *o, const explore_result *r)
{
    return !o->random_runs && r->complete && !r->abstracted && !bound_cut(r);
}

/* What was covered, and nothing more: a search that stopped before its first level was done
 * did not cover every placement of the faults; a drift's start sampled is not every placement
 * either. */
static void print_coverage(const scenario *sc, const explore_opts *o, const explore_result *r)
{
    if (o->random_runs) {
        printf("   covered: %llu random schedules with the fault budget (not exhaustive)\n",
               (unsigned long long)r->paths);
        return;
    }
    buf b;
    buf_init(&b);
    int level_done = r->complete || r->deviations_exhausted >= 0;
    describe_budget(sc, level_done, &b);
    const char *covered = r->complete ? "covered:" : "covered (before it stopped):";
    int nofault = sc->explore.max_faults == 0 || sc->explore.nfaults == 0;
    if (!level_done && nofault)
        printf("   %s %llu paths, %s;\n", covered, (unsigned long long)r->paths, b.p);
    else if (!level_done)
        printf("   %s %llu paths, not every one of the %s;\n", covered, (unsigned long long)r->paths, b.p);
    else
        printf("   %s %s;\n", covered, b.p);
    if (!level_done)
        printf("            not even every path without deviations");
    else if (r->complete && r->deviation_bound < 0 && r->depth_cut)
        printf("            every order of events up to decision %d of a path", sc->explore.max_depth);
    else if (r->complete && r->deviation_bound < 0 && (r->abstracted & EXPLORE_SAMPLED_ENDS))
        printf("            every path of the windows' two ends (no bound on deviations was needed)");
    else if (r->complete && r->deviation_bound < 0)
        printf("            every order of events (no bound on deviations was needed)");
    else if (bound_cut(r))
        printf("            every path with at most %d deviation%s from the default schedule, and no more:\n"
               "            %s left the paths with more unsearched",
               r->deviations_exhausted, r->deviations_exhausted == 1 ? "" : "s",
               r->bound_by_option ? "--max-deviations" : "explore.max_deviations");
    else
        printf("            every path with at most %d deviation%s from the default schedule", r->deviations_exhausted,
               r->deviations_exhausted == 1 ? "" : "s");
    printf("%s\n", r->depth_cut ? ";\n            decisions past explore.max_depth kept their default (max_depth cut the search)" : "");
    if (r->abstracted & EXPLORE_SAMPLED_ENDS)
        printf("   time: each window at its two ends, not by the orders of events (SAMPLED, below)\n");
    else if (r->complete && !bound_cut(r))
        printf("   time: every order of events that the windows can produce (delays, random sleeps, each fault's\n"
               "            instant to the µs), interior values included; each clock reading to its resolution\n"
               "            (whole ms; a server's TIME to the µs)\n");
    else
        printf("   time: by the orders of events that the windows can produce (delays, random sleeps, each fault's\n"
               "            instant to the µs), each clock reading to its resolution (whole ms; a server's TIME to\n"
               "            the µs): those within the deviations above\n");
    if (o->delays_extremes == EXPLORE_DELAYS_EXTREMES) printf("   delays: both ends of every window tried as well\n");
    if (r->abstracted & EXPLORE_SAMPLED_ENDS)
        printf("   SAMPLED: each window at its two ends only (a message's delay, a random sleep), each fault\n"
               "            at the instant of an event (--delays ends): no value between them was tried\n");
    if (r->abstracted & EXPLORE_SAMPLED_RANDOM)
        printf("   SAMPLED: a ctx:random range wider than %d values was tried at %d evenly spaced values only\n",
               EXPLORE_RANDOM_ALL, EXPLORE_RANDOM_ALL);
    if (o->max_paths && r->paths >= o->max_paths && !r->complete)
        printf("   stopped by --max-paths after %llu paths\n", (unsigned long long)r->paths);
    if (r->timed_out) printf("   stopped by --time after %.1f s\n", r->seconds);
    if (r->interrupted) printf("   interrupted after %.1f s\n", r->seconds);
    buf_release(&b);
}

/* out/<scenario file's stem><suffix> */
static void out_path(const scenario *sc, const char *suffix, buf *b)
{
    mkdir("out", 0777);
    const char *slash = strrchr(sc->path, '/');
    const char *stem = slash ? slash + 1 : sc->path;
    size_t len = strlen(stem);
    if (len > 4 && !strcmp(stem + len - 4, ".lua")) len -= 4;
    buf_printf(b, "out/%.*s%s", (int)len, stem, suffix);
}

static int write_counterexample(const scenario *sc, const explore_result *r, const char *out_base)
{
    buf base;
    buf_init(&base);
    if (out_base) buf_puts(&base, out_base);
    else out_path(sc, "-counterexample", &base);
    buf werr;
    buf_init(&werr);
    int code = EXIT_VIOLATION;
    if (cli_write_counterexample(sc, r, base.p, &werr) != 0) {
        cli_error("check: %s", werr.p);
        code = EXIT_INTERNAL;
    } else {
        printf("\nwritten: %s.lua, %s.choices and its narrated trace %s.txt\nreplay:  locklab run %s.lua --choices %s.choices\n",
               base.p, base.p, base.p, base.p, base.p);
    }
    buf_release(&werr);
    buf_release(&base);
    return code;
}

/* The summary, the verdicts and the counter-example. Returns the exit code. */
static int report(const scenario *sc, const explore_opts *o, const explore_result *r, const char *out_base)
{
    printf("== %s\n", sc->name);
    if (r->probe_found) {
        printf("   systematic search: %llu paths (the first level), then random schedules with the fault budget: "
               "number %d violated; %llu transitions, %.2f s\n",
               (unsigned long long)r->paths, r->probe_found, (unsigned long long)r->transitions, r->seconds);
    } else {
        printf("   %s: %llu paths, %llu transitions, %llu distinct outcomes, longest path %d decisions, %.2f s "
               "(%.0f transitions/s)\n",
               o->random_runs ? "random search" : "systematic search", (unsigned long long)r->paths,
               (unsigned long long)r->transitions, (unsigned long long)r->outcomes, r->max_depth_seen, r->seconds,
               r->seconds > 0 ? (double)r->transitions / r->seconds : 0.0);
    }
    if (r->probes && !r->probe_found)
        printf("   and, after its first level, %llu random schedules with the fault budget, none violating\n",
               (unsigned long long)r->probes);
    if (!r->found) print_coverage(sc, o, r);
    printf("\n");
    /* "holds" only where the whole bounded space was searched; anything less is said so on
     * the property's own line, with why */
    int proof = proven(o, r);
    const char *why = o->random_runs                  ? "random schedules"
                      : r->abstracted && r->complete ? "values sampled"
                      : bound_cut(r)                 ? "bounded deviations"
                      : r->timed_out                 ? "stopped by --time"
                      : r->interrupted               ? "interrupted"
                      : r->memory_stop               ? "stopped, memory full"
                                                     : "stopped by --max-paths";
    for (int p = 0; p < PROP_COUNT; p++) {
        if (!r->searched[p]) continue;
        char line[128];
        snprintf(line, sizeof line, "no violation found (not a proof: %s)", why);
        const char *said = r->found && r->prop == (property)p ? "VIOLATED (counter-example below)"
                           : r->witnessed[p]                   ? "VIOLATED on some path"
                           : proof && r->depth_cut             ? "holds within the bounds, max_depth among them"
                           : proof                             ? "holds within the bounds"
                                                               : line;
        printf("  %-17s %s\n", property_name((property)p), said);
    }
    if (r->found) {
        if (r->minimise_stopped)
            printf("\ncounter-example (minimising stopped by Ctrl-C or --time: the smallest found by then, not "
                   "minimised further): %d fault(s)\n", r->nfaults);
        else printf("\ncounter-example (minimised): %d fault(s)\n", r->nfaults);
        if (r->evidence) printf("  %s\n", r->evidence);
        return write_counterexample(sc, r, out_base);
    }
    printf("\n%s\n", o->random_runs ? "No violation in the random schedules run: not a proof (the systematic search is)."
                     : proof && r->depth_cut
                         ? "No violation exists within these bounds; max_depth is one of them (decisions past it "
                           "were not branched): without it the search covers more."
                     : proof ? "No violation exists within these bounds."
                     : r->complete && r->abstracted ? "No violation found, but not a proof: some values were sampled (above)."
                     : bound_cut(r)
                         ? "No violation found within the deviation bound, but not a proof: paths with more deviations "
                           "were not searched. Without the bound the search deepens until the space is exhausted."
                     : r->memory_stop ? "Not finished: stopped before memory ran out (the visited set is full); no violation in "
                                        "the paths searched. Narrow the bounds."
                     : r->deviations_exhausted >= 0
                         ? "Not finished: no violation within the deviations exhausted; a longer --time searches further."
                         : "Not finished: no violation in the paths searched, which are not the whole bounded space.");
    return proof ? EXIT_OK : EXIT_UNPROVEN;
}

static int merge_shards(const scenario *sc, const char *const *files, int n, const char *out_base)
{
    explore_opts o = { .max_deviations = -1 };
    explore_result r;
    buf err;
    buf_init(&err);
    int code;
    int rc = shard_file_merge(sc, files, n, &r, &err);
    if (rc != 0) {
        cli_run_error(err.p, 0);
        code = rc == -2 ? EXIT_UNPROVEN : EXIT_USAGE; /* a shard missing: not finished */
    } else {
        printf("   (merged from %d shard file%s)\n", n, n == 1 ? "" : "s");
        code = report(sc, &o, &r, out_base);
        explore_result_free(&r);
    }
    buf_release(&err);
    return code;
}

static int save_shard(const scenario *sc, const explore_opts *o, const explore_result *r, const char *save)
{
    buf path, err;
    buf_init(&path);
    buf_init(&err);
    if (save) buf_puts(&path, save);
    else {
        char suffix[64];
        snprintf(suffix, sizeof suffix, ".shard-%d-of-%d", o->shard_index, o->shard_count);
        out_path(sc, suffix, &path);
    }
    int code = EXIT_OK;
    if (shard_file_write(sc, o, r, path.p, &err) != 0) {
        cli_error("check: %s", err.p);
        code = EXIT_INTERNAL;
    } else {
        printf("\nshard %d of %d saved to %s; when every shard is done:\n  locklab check %s --merge FILE...\n",
               o->shard_index, o->shard_count, path.p, sc->path);
    }
    buf_release(&path);
    buf_release(&err);
    return code;
}

int cli_check(int argc, char **argv)
{
    const char *out_base = NULL, *save = NULL;
    explore_opts o = { .max_deviations = -1, .time_limit_s = CHECK_DEFAULT_TIME, .probes = EXPLORE_PROBES };
#ifdef LOCKLAB_NO_HOST
    o.jobs = 1; /* the playground (web/): one process, no fork */
#else
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = ncpu > 0 ? (int)(ncpu > 64 ? 64 : ncpu) : 1;
#endif
    int have_seed = 0, merge = 0, have_jobs = 0;
    static const struct option longopts[] = {
        { "help", no_argument, NULL, 'h' },          { "random", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 's' },     { "max-paths", required_argument, NULL, 'p' },
        { "out", required_argument, NULL, 'o' },      { "time", required_argument, NULL, 't' },
        { "max-deviations", required_argument, NULL, 'k' }, { "delays", required_argument, NULL, 'd' },
        { "jobs", required_argument, NULL, 'j' },     { "shard", required_argument, NULL, 'S' },
        { "save", required_argument, NULL, 'w' },     { "merge", no_argument, NULL, 'm' },
        { "probes", required_argument, NULL, 'P' },   { "pool", required_argument, NULL, 'L' },
        { "pool-balance", required_argument, NULL, 'B' },
        { NULL, 0, NULL, 0 }
    };
    opterr = 0;
    optind = 1;
    int c;
    uint64_t v = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': check_usage(stdout); return EXIT_OK;
        case 'r':
            if (parse_count("--random", optarg, &o.random_runs)) return EXIT_USAGE;
            if (o.random_runs == 0) {
                cli_error("check: --random needs at least 1 run");
                return EXIT_USAGE;
            }
            break;
        case 's':
            if (parse_count("--seed", optarg, &o.seed)) return EXIT_USAGE;
            have_seed = 1;
            break;
        case 'P':
            if (parse_count("--probes", optarg, &o.probes)) return EXIT_USAGE;
            if (o.probes > 1000000) {
                cli_error("check: --probes %s: at most 1000000 random schedules", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'p':
            if (parse_count("--max-paths", optarg, &o.max_paths)) return EXIT_USAGE;
            /* 0 is the explorer's "no limit": a bound asked for must bound */
            if (o.max_paths == 0) {
                cli_error("check: --max-paths needs at least 1 path");
                return EXIT_USAGE;
            }
            break;
        case 't':
            if (parse_count("--time", optarg, &v)) return EXIT_USAGE;
            if (v > 100000000) {
                cli_error("check: --time takes seconds, at most 100000000");
                return EXIT_USAGE;
            }
            o.time_limit_s = (double)v;
            break;
        case 'k':
            if (parse_count("--max-deviations", optarg, &v)) return EXIT_USAGE;
            if (v > 1000000) {
                cli_error("check: --max-deviations takes at most 1000000");
                return EXIT_USAGE;
            }
            o.max_deviations = (int)v;
            break;
        case 'd':
            if (!strcmp(optarg, "orders")) o.delays_extremes = 0;
            else if (!strcmp(optarg, "extremes")) o.delays_extremes = EXPLORE_DELAYS_EXTREMES;
            else if (!strcmp(optarg, "ends")) o.delays_extremes = EXPLORE_DELAYS_ENDS;
            else {
                cli_error("check: --delays takes 'orders', 'extremes' or 'ends', not '%s'", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'j':
            if (parse_count("--jobs", optarg, &v)) return EXIT_USAGE;
            if (v < 1 || v > 64) {
                cli_error("check: --jobs takes 1 to 64 processes, not %llu", (unsigned long long)v);
                return EXIT_USAGE;
            }
#ifdef LOCKLAB_NO_HOST
            if (v > 1) {
                cli_error("check: --jobs %llu: the browser build searches in one process (it cannot fork)",
                          (unsigned long long)v);
                return EXIT_USAGE;
            }
#endif
            o.jobs = (int)v;
            have_jobs = 1;
            break;
        case 'S': {
            int i, n, used = 0;
            if (sscanf(optarg, "%d/%d%n", &i, &n, &used) != 2 || optarg[used] || n < 1 || n > 100000 || i < 1 || i > n) {
                cli_error("check: --shard takes I/N with 1 <= I <= N (such as 2/8), not '%s'", optarg);
                return EXIT_USAGE;
            }
            o.shard_index = i;
            o.shard_count = n;
            break;
        }
        case 'B': {
            int n, used = 0;
            if (sscanf(optarg, "%d%n", &n, &used) != 1 || optarg[used] || n < 1 || n > 100000) {
                cli_error("check: --pool-balance takes a number of tasks from 1 to 100000, not '%s'", optarg);
                return EXIT_USAGE;
            }
            o.pool_balance = n;
            break;
        }
        case 'L':
            if (!*optarg) {
                cli_error("check: --pool takes a folder the tasks share");
                return EXIT_USAGE;
            }
            o.pool = optarg;
            break;
        case 'w':
            if (!*optarg) {
                cli_error("check: --save takes a file name");
                return EXIT_USAGE;
            }
            save = optarg;
            break;
        case 'm': merge = 1; break;
        case 'o':
            /* "" would write the hidden files .lua, .choices and .txt here */
            if (!*optarg || optarg[strlen(optarg) - 1] == '/') {
                cli_error("check: --out takes a file name without extension (out/gc-cx), not '%s'", optarg);
                return EXIT_USAGE;
            }
            out_base = optarg;
            break;
        default:
            if (optopt && strchr("rspotkdjSw", optopt)) cli_error("check: %s needs a value", argv[optind - 1]);
            else {
                const char *word = argv[optind - 1], *names[64], *near = NULL;
                size_t n = 0;
                for (int i = 0; longopts[i].name && n < 64; i++) names[n++] = longopts[i].name;
                if (!strncmp(word, "--", 2)) near = ll_nearest(word + 2, names, n);
                if (near) cli_error("check: unknown option '%s'; did you mean '--%s'? (try 'locklab check --help')", word, near);
                else cli_error("check: unknown option '%s'; try 'locklab check --help'", word);
            }
            return EXIT_USAGE;
        }
    }
    const char *path_arg = optind < argc ? argv[optind] : NULL;
    if (!merge && optind + 1 < argc) {
        cli_error("check: one scenario at a time ('%s' is extra)", argv[optind + 1]);
        return EXIT_USAGE;
    }
    if (merge && optind + 1 >= argc) {
        cli_error("check: --merge needs the shard files after the scenario");
        return EXIT_USAGE;
    }
    if (merge && (o.shard_count || o.random_runs)) {
        cli_error("check: --merge combines shard files: it takes no --shard or --random");
        return EXIT_USAGE;
    }
    if (o.pool_balance && (o.shard_count || merge || o.random_runs || (have_jobs && o.jobs > 1))) {
        cli_error("check: --pool-balance searches in one process as a pool of N tasks would: it takes no --shard, "
                  "--merge, --random or --jobs");
        return EXIT_USAGE;
    }
    if (o.pool_balance) o.jobs = 1;
    if (o.pool && !o.shard_count) {
        cli_error("check: --pool goes with --shard I/N (task I of the N that share DIR)");
        return EXIT_USAGE;
    }
    if (save && !o.shard_count) {
        cli_error("check: --save goes with --shard");
        return EXIT_USAGE;
    }
    if (o.shard_count && have_jobs && o.jobs > 1) {
        cli_error("check: --shard searches its share in one process: for more cores, run more shards (not --jobs %d)", o.jobs);
        return EXIT_USAGE;
    }
    if (o.shard_count) o.jobs = 1;
    if (o.shard_count && o.random_runs) {
        cli_error("check: --shard splits the systematic search; --random needs no shards");
        return EXIT_USAGE;
    }
    scenario *sc;
    if (cli_load_scenario("check", path_arg, &sc) != EXIT_OK) return EXIT_USAGE;
    if (!sc->explore.present) {
        cli_error("check: %s has no explore table: add one saying which faults to search "
                  "(see scenarios/README.md, \"Exploring\")", sc->path);
        scenario_free(sc);
        return EXIT_USAGE;
    }
    if (out_base) {
        /* BASE.lua must not be the scenario itself: the counter-example would replace it */
        buf lua;
        buf_init(&lua);
        buf_printf(&lua, "%s.lua", out_base);
        int same = ll_same_file(lua.p, sc->path);
        buf_release(&lua);
        if (same) {
            cli_error("check: --out %s would write the counter-example over the scenario %s; give another BASE",
                      out_base, sc->path);
            scenario_free(sc);
            return EXIT_USAGE;
        }
    }
    if (merge) {
        int code = merge_shards(sc, (const char *const *)argv + optind + 1, argc - optind - 1, out_base);
        scenario_free(sc);
        return code;
    }
    if (!have_seed) o.seed = sc->seed;
    progress_tty = isatty(2);
    o.progress = progress;
    o.stop = &stop_requested;
    fprintf(stderr, "locklab check: searching %s ...\n", sc->name);
    struct sigaction sa = { .sa_handler = on_interrupt }, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    /* the same flag and --time end a script a model's request runs on a node (guard.h) */
    guard_set_stop(&stop_requested, o.time_limit_s > 0 ? guard_now() + o.time_limit_s : 0);
    explore_minimise_hook(on_minimising, NULL, &stop_requested); /* Ctrl-C while minimising: what it has */
    explore_result r;
    buf err;
    buf_init(&err);
    int rc = explore_run(sc, &o, &r, &err);
    explore_minimise_hook(NULL, NULL, NULL);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    int cut = guard_cut();
    if (cut & GUARD_CUT_STOP) r.interrupted = 1; /* a path whose script it ended is not finished */
    if (cut & GUARD_CUT_DEADLINE) r.timed_out = 1;
    /* where a script had to be ended, the runs that write the counter-example end it as the
     * search's runs did (a model's runaway EVAL: audit N3), else nothing ends scripts now */
    if (!cut) guard_set_stop(NULL, 0);
    if (progress_tty) fputs("\n", stderr);
    if (rc != 0) {
        guard_set_stop(NULL, 0);
        cli_run_error(err.p, 0);
        explore_result_free(&r); /* a shard's outcomes, gathered before the error */
        scenario_free(sc);
        buf_release(&err);
        return EXIT_USAGE;
    }
    int code = report(sc, &o, &r, out_base);
    guard_set_stop(NULL, 0);
    if (code != EXIT_VIOLATION && r.interrupted) code = 128 + SIGINT; /* a shell's code for a search cut short */
    const uint64_t *load;
    uint64_t makespan;
    int nb = explore_pool_balance(&load, &makespan);
    if (nb > 0) {
        uint64_t sum = 0, max = 0;
        for (int i = 0; i < nb; i++) sum += load[i], max = load[i] > max ? load[i] : max;
        double mean = (double)sum / nb;
        printf("\nAs %d tasks of a --pool (every path the same time): the largest task ran %llu paths, the mean %.1f "
               "(%.2fx); the last share ended after %llu paths' time, %.1fx sooner than one process (%llu paths)\n",
               nb, (unsigned long long)max, mean, mean > 0 ? (double)max / mean : 0.0, (unsigned long long)makespan,
               makespan ? (double)r.paths / (double)makespan : 0.0, (unsigned long long)r.paths);
        printf("tasks' paths:");
        for (int i = 0; i < nb; i++) printf(" %llu", (unsigned long long)load[i]);
        printf("\n");
    }
    if (o.shard_count) {
        int saved = save_shard(sc, &o, &r, save);
        if (saved != EXIT_OK) code = saved;
    }
    explore_result_free(&r);
    scenario_free(sc);
    buf_release(&err);
    return code;
}
