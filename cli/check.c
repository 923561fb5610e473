/* check.c — `locklab check SCENARIO`: the model checker. Searches the faults the scenario's
 * explore table allows, and every schedule, for a violation; prints a summary; writes the
 * minimised counter-example as a scenario that `locklab run` replays. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "explore.h"
#include "scenario.h"

static void check_usage(FILE *f)
{
    fputs("usage: locklab check SCENARIO [--random N] [--seed S] [--max-paths N] [--out BASE]\n"
          "\n"
          "Searches every way the scenario can go within the bounds of its `explore` table\n"
          "(which faults, where, how many; the horizon; the depth) for a run that violates a\n"
          "property: those named in `expect`, or else mutual_exclusion, resource_safety,\n"
          "release_safety and no_deadlock. The first one found is minimised (fewest faults,\n"
          "shortest delays, shortest pauses) and written as BASE.lua (the scenario with the\n"
          "faults pinned) and BASE.choices; 'locklab run BASE.lua --choices BASE.choices'\n"
          "replays it exactly. BASE defaults to out/<scenario>-counterexample.\n"
          "\n"
          "  --random N      N random schedules instead of the exhaustive search\n"
          "  --seed S        seed for --random (default: the scenario's)\n"
          "  --max-paths N   stop after N paths\n"
          "\n"
          "exit: 1 a violation found, 0 none within the bounds, 2 bad input, 3 I/O error\n",
          f);
}

static void progress(void *ud, uint64_t paths, uint64_t transitions, int depth, double seconds)
{
    (void)ud;
    fprintf(stderr, "\r  %llu paths, %llu transitions (%.0f/s), depth %d, %.1f s   ", (unsigned long long)paths,
            (unsigned long long)transitions, seconds > 0 ? (double)transitions / seconds : 0.0, depth, seconds);
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

int cli_check(int argc, char **argv)
{
    const char *path_arg = NULL, *out_base = NULL;
    explore_opts o = { 0 };
    int have_seed = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            check_usage(stdout);
            return EXIT_OK;
        }
        if (!strcmp(a, "--random") || !strcmp(a, "--seed") || !strcmp(a, "--max-paths") || !strcmp(a, "--out")) {
            if (i + 1 >= argc) {
                cli_error("check: %s needs a value", a);
                return EXIT_USAGE;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--out")) {
                /* "" would write the hidden files .lua, .choices and .txt here */
                if (!*v || v[strlen(v) - 1] == '/') {
                    cli_error("check: --out takes a file name without extension (out/gc-cx), not '%s'", v);
                    return EXIT_USAGE;
                }
                out_base = v;
            }
            else if (parse_count(a, v, !strcmp(a, "--random") ? &o.random_runs : !strcmp(a, "--seed") ? &o.seed : &o.max_paths))
                return EXIT_USAGE;
            if (!strcmp(a, "--seed")) have_seed = 1;
            if (!strcmp(a, "--random") && o.random_runs == 0) {
                cli_error("check: --random needs at least 1 run");
                return EXIT_USAGE;
            }
            /* 0 is the explorer's "no limit": a bound asked for must bound */
            if (!strcmp(a, "--max-paths") && o.max_paths == 0) {
                cli_error("check: --max-paths needs at least 1 path");
                return EXIT_USAGE;
            }
        } else if (a[0] == '-') {
            cli_error("check: unknown option '%s'; try 'locklab check --help'", a);
            return EXIT_USAGE;
        } else if (!path_arg) {
            path_arg = a;
        } else {
            cli_error("check: one scenario at a time ('%s' is extra)", a);
            return EXIT_USAGE;
        }
    }
    scenario *sc;
    if (cli_load_scenario("check", path_arg, &sc) != EXIT_OK) return EXIT_USAGE;
    buf err;
    buf_init(&err);
    if (!sc->explore.present) {
        cli_error("check: %s has no explore table: add one saying which faults to search "
                  "(see scenarios/README.md, \"Exploring\")", sc->path);
        scenario_free(sc);
        buf_release(&err);
        return EXIT_USAGE;
    }
    if (!have_seed) o.seed = sc->seed;
    if (isatty(2)) {
        o.progress = progress;
        fprintf(stderr, "locklab check: searching %s ...\n", sc->name);
    }
    explore_result r;
    int rc = explore_run(sc, &o, &r, &err);
    if (o.progress) fputs("\n", stderr);
    if (rc != 0) {
        cli_run_error(err.p, 0);
        scenario_free(sc);
        buf_release(&err);
        return EXIT_USAGE;
    }
    printf("== %s\n", sc->name);
    printf("   %s: %llu paths, %llu transitions, %llu distinct outcomes, longest path %d decisions, %.2f s "
           "(%.0f transitions/s)\n",
           o.random_runs ? "random search" : "exhaustive search", (unsigned long long)r.paths,
           (unsigned long long)r.transitions, (unsigned long long)r.outcomes, r.max_depth_seen, r.seconds,
           r.seconds > 0 ? (double)r.transitions / r.seconds : 0.0);
    printf("   bounds: at most %d fault(s), horizon %lld ms, depth %s\n", sc->explore.max_faults,
           (long long)((sc->explore.horizon > 0 ? sc->explore.horizon : sc->duration) / 1000),
           sc->explore.max_depth > 0 ? "limited" : "unbounded");
    if (sc->explore.max_depth > 0) printf("   (decisions past number %d take their first alternative)\n", sc->explore.max_depth);
    printf("\n");
    for (int p = 0; p < PROP_COUNT; p++) {
        if (!r.searched[p]) continue;
        const char *v = r.found && r.prop == (property)p ? "VIOLATED (counter-example below)"
                        : r.witnessed[p]                  ? "VIOLATED on some path"
                        : r.complete                      ? "holds within the bounds"
                                                          : "no violation in the paths searched";
        printf("  %-17s %s\n", property_name((property)p), v);
    }
    int code = EXIT_OK;
    if (r.found) {
        code = EXIT_VIOLATION;
        printf("\ncounter-example (minimised): %d fault(s)\n", r.nfaults);
        if (r.evidence) printf("  %s\n", r.evidence);
        buf base;
        buf_init(&base);
        if (out_base) buf_puts(&base, out_base);
        else {
            mkdir("out", 0777);
            const char *slash = strrchr(sc->path, '/');
            const char *stem = slash ? slash + 1 : sc->path;
            size_t len = strlen(stem);
            if (len > 4 && !strcmp(stem + len - 4, ".lua")) len -= 4;
            buf_printf(&base, "out/%.*s-counterexample", (int)len, stem);
        }
        buf werr;
        buf_init(&werr);
        if (explore_write_counterexample(sc, &r, base.p, &werr) != 0) {
            cli_error("check: %s", werr.p);
            code = EXIT_INTERNAL;
        } else {
            printf("\nwritten: %s.lua, %s.choices and its narrated trace %s.txt\nreplay:  locklab run %s.lua --choices %s.choices\n",
                   base.p, base.p, base.p, base.p, base.p);
        }
        buf_release(&werr);
        buf_release(&base);
    } else {
        printf("\n%s\n", r.complete     ? "No violation exists within these bounds."
                         : r.memory_stop ? "Stopped before memory ran out (the visited set is full): no violation in "
                                           "the paths searched; narrow the bounds, or use --random."
                                         : "No violation found (the search did not cover the whole bounded space).");
    }
    explore_result_free(&r);
    scenario_free(sc);
    buf_release(&err);
    return code;
}
