/* sweep.c — `locklab sweep SCENARIO --vary NAME=FROM:TO:STEP`: run a scenario many times for
 * each value of one parameter and report how often each property was violated, with 95 %
 * Wilson score intervals: a table on stdout, a CSV, a gnuplot plot.
 *
 * Every point runs the same N seeds (ll_splitmix64 draws from --seed or the scenario's seed):
 * common random numbers, so that a change between two points comes from the parameter and
 * not from luck. The table and the CSV are a pure function of the arguments. Wall-clock time
 * is read only for the progress report on stderr: a bar redrawn in place when stderr is a
 * terminal, otherwise (a log file, a CI job) a plain line every few seconds, none at all for
 * a sweep shorter than that. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunkcache.h"
#include "check.h"
#include "cli.h"
#include "gnuplot.h"
#include "scenario.h"
#include "scenario_vary.h"
#include "sweep_plot.h"
#include "world.h"

#define MAX_POINTS 10000
#define MAX_RUNS 1000000

static void sweep_usage(FILE *f)
{
    fputs("usage: locklab sweep SCENARIO --vary NAME=FROM:TO:STEP [--runs N] [--plot FILE]\n"
          "                    [--csv FILE] [--seed S]\n"
          "\n"
          "Runs SCENARIO N times for each value of one parameter, each run with its own seed,\n"
          "and reports how often each property was violated, with 95% Wilson score intervals:\n"
          "a table on stdout, a CSV, and a plot. Every point runs the same N seeds, drawn with\n"
          "ll_splitmix64 from S; the same arguments give byte-identical table and CSV.\n"
          "The scenario file is not changed: each value is set on the loaded scenario.\n"
          "\n"
          "options:\n"
          "  --vary NAME=FROM:TO:STEP  the parameter and its values, written as the scenario\n"
          "                   format writes them: gc_pause=5s:15s:1s, drift=0:0.02:0.001\n"
          "  --runs N         runs per value (default 100)\n"
          "  --plot FILE      draw rate ± interval per property with gnuplot (.png or .svg)\n"
          "  --csv FILE       write the numbers as CSV (default: beside the plot, FILE.csv)\n"
          "  --seed S         draw the seeds from S instead of the scenario's seed\n"
          "  --help           this text\n"
          "\n"
          "parameters (NAME):\n",
          f);
    fputs(vary_help, f);
    fputs("\n"
          "Progress (points, runs/s, time left) goes to stderr: a bar when it is a terminal,\n"
          "else a line every 5 seconds.\n"
          "exit: 0 the sweep ran (violations are its result), 2 bad input (a parameter the\n"
          "      scenario does not have, an empty range, gnuplot missing), 3 internal or I/O error\n",
          f);
}

typedef struct sweep_args {
    const char *scenario, *vary, *plot, *csv;
    int runs, have_seed;
    unsigned long long seed;
} sweep_args;

static int parse_whole(const char *opt, const char *v, unsigned long long max, unsigned long long *out)
{
    if (cli_parse_whole(v, max, out) != 0) {
        cli_error("sweep: %s takes a whole number from %s to %llu, not '%s'", opt, strcmp(opt, "--seed") ? "1" : "0",
                  max, v);
        return -1;
    }
    return 0;
}

/* 0, EXIT_OK for --help (with *done set), or EXIT_USAGE. */
static int parse_args(int argc, char **argv, sweep_args *a, int *done)
{
    memset(a, 0, sizeof *a);
    a->runs = 100;
    *done = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            sweep_usage(stdout);
            *done = 1;
            return EXIT_OK;
        }
        if (!strcmp(o, "--vary") || !strcmp(o, "--runs") || !strcmp(o, "--plot") || !strcmp(o, "--csv") ||
            !strcmp(o, "--seed")) {
            if (i + 1 >= argc) {
                cli_error("sweep: %s needs a value; try 'locklab sweep --help'", o);
                return EXIT_USAGE;
            }
            const char *v = argv[++i];
            unsigned long long n;
            if (!strcmp(o, "--vary")) {
                if (a->vary) {
                    cli_error("sweep: one --vary at a time ('%s' is a second one)", v);
                    return EXIT_USAGE;
                }
                a->vary = v;
            } else if (!strcmp(o, "--plot")) a->plot = v;
            else if (!strcmp(o, "--csv")) a->csv = v;
            else if (!strcmp(o, "--runs")) {
                if (parse_whole("--runs", v, MAX_RUNS, &n)) return EXIT_USAGE;
                if (n < 1) {
                    cli_error("sweep: --runs takes a whole number from 1 to %d, not '%s'", MAX_RUNS, v);
                    return EXIT_USAGE;
                }
                a->runs = (int)n;
            } else {
                if (parse_whole("--seed", v, UINT64_MAX, &a->seed)) return EXIT_USAGE;
                a->have_seed = 1;
            }
        } else if (o[0] == '-' && o[1]) {
            cli_error("sweep: unknown option '%s'; try 'locklab sweep --help'", o);
            return EXIT_USAGE;
        } else if (!a->scenario) {
            a->scenario = o;
        } else {
            cli_error("sweep: one scenario at a time ('%s' is extra)", o);
            return EXIT_USAGE;
        }
    }
    if (!a->scenario) {
        cli_error("sweep: which scenario? usage: locklab sweep SCENARIO --vary NAME=FROM:TO:STEP");
        return EXIT_USAGE;
    }
    if (!a->vary) {
        cli_error("sweep: what to vary? add --vary NAME=FROM:TO:STEP (e.g. --vary gc_pause=5s:15s:1s)");
        return EXIT_USAGE;
    }
    if (a->plot) {
        size_t len = strlen(a->plot);
        if (len < 5 || (strcmp(a->plot + len - 4, ".png") && strcmp(a->plot + len - 4, ".svg"))) {
            cli_error("sweep: --plot '%s': name a .png or .svg file", a->plot);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* The directory of path can take a new file, and path is not a directory (checked before a
 * long sweep, not after). */
static int writable_dir(const char *path)
{
    struct stat st;
    if (!*path || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        cli_error("sweep: cannot write '%s': %s", path, strerror(*path ? EISDIR : ENOENT));
        return -1;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(dir, W_OK) == 0) return 0;
    cli_error("sweep: cannot write '%s': %s", path, strerror(errno));
    return -1;
}

/* Seconds between two progress lines when stderr is not a terminal. */
#define PROGRESS_LINE_EVERY_S 5.0

typedef struct progress {
    int tty;           /* stderr is a terminal: the bar; else a line every PROGRESS_LINE_EVERY_S */
    double start, last;
    long long total, done;
    int points;
} progress;

/* Reports progress after a run (final: after the last). At a terminal: redraws the bar at
 * most ten times a second and ends with a summary line. Elsewhere: one line every
 * PROGRESS_LINE_EVERY_S seconds and no summary, so a short sweep writes nothing there. */
static void progress_draw(progress *p, int point, int final)
{
    double t = cli_now_s();
    double el = t - p->start, rate = el > 0 ? (double)p->done / el : 0;
    double eta = rate > 0 ? (double)(p->total - p->done) / rate : 0;
    if (!p->tty) {
        if (final || t - p->last < PROGRESS_LINE_EVERY_S) return;
        p->last = t;
        fprintf(stderr, "locklab sweep: %lld/%lld runs, %d/%d points, %.0f runs/s, ETA %.0fs\n", p->done, p->total,
                point, p->points, rate, eta);
        fflush(stderr);
        return;
    }
    if (!final && t - p->last < 0.1) return;
    p->last = t;
    int width = 30, fill = p->total ? (int)(width * p->done / p->total) : width;
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = 0;
    fprintf(stderr, "\r\033[K[%s] %d/%d points  %.0f runs/s  ETA %.0fs", bar, point, p->points, rate, eta);
    if (final) fprintf(stderr, "\r\033[Ksweep: %lld runs in %.2f s (%.0f runs/s)\n", p->done, el, rate);
    fflush(stderr);
}

/* Runs every point. EXIT_OK, or EXIT_USAGE when a world cannot be built (a protocol that does
 * not load) or a value is impossible for the scenario. */
static int run_points(scenario *sc, const scenario *base, sweep_result *r, const uint64_t *seeds, progress *pg,
                      buf *first_error)
{
    buf err;
    buf_init(&err);
    int rc = EXIT_OK;
    chunkcache *chunks = chunkcache_new(); /* every world compiles the same model and scripts */
    for (int i = 0; i < r->npoints && rc == EXIT_OK; i++) {
        sweep_point *pt = &r->points[i];
        if (vary_apply(sc, base, &r->target, pt->value, &err) != 0) {
            cli_error("sweep: %s", err.p);
            rc = EXIT_USAGE;
            break;
        }
        for (int k = 0; k < r->runs; k++) {
            world_opts o = { .seed = seeds[k], .chunks = chunks };
            world *w = world_new(sc, &o, &err);
            if (!w) {
                cli_run_error(err.p, 0);
                rc = EXIT_USAGE;
                break;
            }
            pt->runs++;
            if (world_run(w, &err) != 0) {
                pt->errors++;
                if (!first_error->len) buf_printf(first_error, "%.*s", (int)strcspn(err.p, "\n"), err.p);
            } else {
                check_result cr;
                check_run(world_history(w), sc, &cr);
                for (int p = 0; p < PROP_COUNT; p++) {
                    pt->judged[p] += cr.p[p].v != VERDICT_NOT_JUDGED;
                    pt->violated[p] += cr.p[p].v == VERDICT_VIOLATED;
                }
                check_free(&cr);
            }
            world_free(w);
            buf_reset(&err);
            pg->done++;
            progress_draw(pg, i, 0);
        }
    }
    chunkcache_free(chunks);
    buf_release(&err);
    return rc;
}

/* Loads the scenario, resolves and parses --vary, and checks every value against the
 * scenario before anything runs. */
static int prepare(const sweep_args *a, scenario **sc, scenario **base, sweep_result *r)
{
    char *path = cli_resolve_scenario(a->scenario);
    if (!path) {
        cli_no_scenario("sweep", a->scenario);
        return EXIT_USAGE;
    }
    buf err;
    buf_init(&err);
    *sc = scenario_load(path, &err);
    *base = *sc ? scenario_load(path, &err) : NULL;
    free(path);
    if (!*base) {
        cli_error("%s", err.p);
        buf_release(&err);
        return EXIT_USAGE;
    }
    const char *eq = strchr(a->vary, '=');
    char name[80];
    if (!eq || eq == a->vary || (size_t)(eq - a->vary) >= sizeof name) {
        cli_error("sweep: --vary '%s' is not NAME=FROM:TO:STEP (e.g. gc_pause=5s:15s:1s)", a->vary);
        buf_release(&err);
        return EXIT_USAGE;
    }
    snprintf(name, sizeof name, "%.*s", (int)(eq - a->vary), a->vary);
    double *values = NULL;
    int n = 0;
    if (vary_resolve(*base, name, &r->target, &err) != 0 ||
        vary_parse_range(&r->target, eq + 1, MAX_POINTS, &values, &n, &err) != 0) {
        cli_error("sweep: %s", err.p);
        buf_release(&err);
        return EXIT_USAGE;
    }
    r->points = xcalloc((size_t)n, sizeof *r->points);
    r->npoints = n;
    for (int i = 0; i < n; i++) r->points[i].value = values[i];
    free(values);
    int rc = EXIT_OK;
    for (int i = 0; i < n && rc == EXIT_OK; i++)
        if (vary_apply(*sc, *base, &r->target, r->points[i].value, &err) != 0) {
            cli_error("sweep: %s", err.p);
            rc = EXIT_USAGE;
        }
    buf_release(&err);
    return rc;
}

static int write_outputs(const sweep_result *r, const char *csv, const char *plot)
{
    buf out, err;
    buf_init(&out);
    buf_init(&err);
    int rc = EXIT_OK;
    if (csv) {
        sweep_csv(r, &out);
        rc = cli_write_buf("sweep", csv, &out);
    }
    if (plot && rc == EXIT_OK && sweep_plot(r, plot, &err) != 0) {
        cli_error("sweep: %s", err.p);
        rc = EXIT_INTERNAL;
    }
    buf_release(&out);
    buf_release(&err);
    return rc;
}

int cli_sweep(int argc, char **argv)
{
    sweep_args a;
    int done;
    int rc = parse_args(argc, argv, &a, &done);
    if (rc != 0 || done) return rc;
#ifdef LOCKLAB_NO_HOST
    if (a.plot) { /* the playground (web/): no gnuplot to run; its page draws the CSV */
        cli_error("sweep: --plot is not part of the browser build (write --csv FILE: the page draws it)");
        return EXIT_USAGE;
    }
#endif
    if (a.plot && !gp_installed()) {
        cli_error("sweep: --plot needs gnuplot, which is not installed (apt-get install gnuplot-nox)");
        return EXIT_USAGE;
    }
    scenario *sc = NULL, *base = NULL;
    sweep_result r = { .scenario_arg = a.scenario, .runs = a.runs };
    rc = prepare(&a, &sc, &base, &r);
    /* --csv defaults to the plot's name with .csv */
    char *csv = a.csv ? xstrdup(a.csv) : NULL;
    if (!csv && a.plot) {
        csv = xstrdup(a.plot);
        strcpy(csv + strlen(csv) - 4, ".csv");
    }
    if (rc == EXIT_OK && ((csv && writable_dir(csv)) || (a.plot && writable_dir(a.plot)))) rc = EXIT_INTERNAL;
    if (rc == EXIT_OK) {
        r.sc = base;
        r.seed = a.have_seed ? a.seed : base->seed;
        uint64_t *seeds = xmalloc((size_t)a.runs * sizeof *seeds), state = r.seed;
        for (int k = 0; k < a.runs; k++) seeds[k] = ll_splitmix64(&state);
        double t0 = cli_now_s();
        int tty = isatty(2); /* the bar draws at once; the first plain line waits its 5 s */
        progress pg = { .tty = tty, .start = t0, .last = tty ? 0 : t0,
                        .total = (long long)r.npoints * a.runs, .points = r.npoints };
        buf first_error;
        buf_init(&first_error);
        rc = run_points(sc, base, &r, seeds, &pg, &first_error);
        progress_draw(&pg, r.npoints, 1);
        long long nerrors = 0;
        for (int i = 0; i < r.npoints; i++) nerrors += r.points[i].errors;
        if (rc == EXIT_OK) {
            buf table;
            buf_init(&table);
            sweep_table(&r, &table);
            fwrite(table.p, 1, table.len, stdout);
            fflush(stdout);
            buf_release(&table);
            /* Not one run judged: the table holds nothing but errors, which is no result. */
            if (nerrors && nerrors == (long long)r.npoints * a.runs) {
                cli_error("sweep: every run ended in a client model error; the first: %s", first_error.p);
                rc = EXIT_USAGE;
            } else {
                if (first_error.len) fprintf(stderr, "locklab: note: the first client model error: %s\n", first_error.p);
                rc = write_outputs(&r, csv, a.plot);
            }
        }
        buf_release(&first_error);
        free(seeds);
    }
    free(csv);
    free(r.points);
    scenario_free(sc);
    scenario_free(base);
    return rc;
}
