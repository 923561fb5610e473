/* sweep_plot.h — the results of a sweep (locklab sweep) and their three renderings: a text
 * table, a CSV and a gnuplot plot of each violated property's rate against the parameter,
 * with 95 % Wilson score intervals. The table and CSV are pure functions of the results, so
 * the same sweep gives byte-identical text. */
#ifndef LOCKLAB_SWEEP_PLOT_H
#define LOCKLAB_SWEEP_PLOT_H

#include <stdint.h>

#include "check.h"
#include "scenario.h"
#include "scenario_vary.h"
#include "util.h"

/* One value of the parameter: how many runs judged each property and how many violated it. */
typedef struct sweep_point {
    double value;
    int runs;                     /* runs made */
    int errors;                   /* runs that ended in a client model error (not judged) */
    int judged[PROP_COUNT];
    int violated[PROP_COUNT];
} sweep_point;

typedef struct sweep_result {
    const scenario *sc;           /* borrowed: the scenario as loaded */
    const char *scenario_arg;     /* as the user named it */
    vary_target target;
    int runs;                     /* per point */
    uint64_t seed;                /* the seeds are ll_splitmix64 draws from this */
    sweep_point *points;
    int npoints;
} sweep_result;

/* The 95 % Wilson score interval of k successes in n trials (z = 1.959964); [0, 1] for n = 0. */
void sweep_wilson(int k, int n, double *lo, double *hi);

/* Which properties appear: those violated somewhere (mutual_exclusion when none is). */
int sweep_shown(const sweep_result *r, int show[PROP_COUNT]);

void sweep_table(const sweep_result *r, buf *out);
void sweep_csv(const sweep_result *r, buf *out);

/* Draws the plot into path (.png or .svg) with gnuplot, through a temporary file renamed
 * into place. 0, or -1 with a one-line reason in err. */
int sweep_plot(const sweep_result *r, const char *path, buf *err);

#endif
