/* sweep_plot.c — a sweep's table, CSV and gnuplot plot (see sweep_plot.h).
 *
 * Rates carry 95 % Wilson score intervals rather than the normal approximation: sweeps are
 * full of rates of exactly 0 and 1, where p ± z·sqrt(p(1-p)/n) collapses to a zero-width
 * interval, while Wilson's stays honest (0 of 100 runs: [0, 0.037]). */
#include "sweep_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"

#define Z95 1.959963984540054

void sweep_wilson(int k, int n, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double p = (double)k / n, z2 = Z95 * Z95;
    double denom = 1 + z2 / n;
    double centre = (p + z2 / (2.0 * n)) / denom;
    double half = Z95 * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denom;
    *lo = k == 0 ? 0 : fmax(0, centre - half); /* exact ends: no -0.000 or 1.0000000002 */
    *hi = k == n ? 1 : fmin(1, centre + half);
}

static int judged_anywhere(const sweep_result *r, int p)
{
    for (int i = 0; i < r->npoints; i++)
        if (r->points[i].judged[p]) return 1;
    return 0;
}

static int violated_anywhere(const sweep_result *r, int p)
{
    for (int i = 0; i < r->npoints; i++)
        if (r->points[i].violated[p]) return 1;
    return 0;
}

int sweep_shown(const sweep_result *r, int show[PROP_COUNT])
{
    int n = 0;
    for (int p = 0; p < PROP_COUNT; p++) n += show[p] = violated_anywhere(r, p);
    if (n == 0) n = show[PROP_MUTUAL_EXCLUSION] = 1;
    return n;
}

/* The x axis: durations in s, ms or µs by the size of the values; other units as they are. */
static double x_scale(const sweep_result *r, const char **unit)
{
    *unit = "";
    if (r->target.unit != VARY_DURATION && r->target.unit != VARY_SIGNED_DURATION) return 1;
    double max = 0;
    for (int i = 0; i < r->npoints; i++) max = fmax(max, fabs(r->points[i].value));
    if (max >= 2e6) {
        *unit = "s";
        return 1e6;
    }
    if (max >= 2e3) {
        *unit = "ms";
        return 1e3;
    }
    *unit = "us";
    return 1;
}

static void label(const sweep_result *r, double v, buf *out)
{
    vary_format(&r->target, v, out);
}

static void header(const sweep_result *r, buf *out, const char *prefix)
{
    const scenario *sc = r->sc;
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    label(r, r->points[0].value, &a);
    label(r, r->points[r->npoints - 1].value, &b);
    buf_printf(out, "%ssweep of \"%s\" (%s)\n", prefix, sc->name, r->scenario_arg);
    buf_printf(out, "%sprotocol %s, scripts %s; %s from %s to %s, %d point%s; %d run%s per point\n", prefix,
               sc->protocol, sc->scripts ? sc->scripts : "HEAD", r->target.name, a.p, b.p, r->npoints,
               r->npoints == 1 ? "" : "s", r->runs, r->runs == 1 ? "" : "s");
    buf_printf(out, "%sseeds: %d ll_splitmix64 draws from %llu, the same at every point\n", prefix, r->runs,
               (unsigned long long)r->seed);
    buf_release(&a);
    buf_release(&b);
}

static void pad(buf *out, const char *s, int width, int right)
{
    int len = (int)strlen(s);
    if (right) buf_printf(out, "%*s%s", width > len ? width - len : 0, "", s);
    else buf_printf(out, "%s%*s", s, width > len ? width - len : 0, "");
}

void sweep_table(const sweep_result *r, buf *out)
{
    int show[PROP_COUNT], errors = 0;
    sweep_shown(r, show);
    for (int i = 0; i < r->npoints; i++) errors += r->points[i].errors;
    header(r, out, "");
    buf_puts(out, "violation rate per property: violated/judged  rate [95% Wilson score interval]\n\n");
    /* cells first, then column widths */
    int cols = 2 + PROP_COUNT + 1;
    char ***cell = xcalloc((size_t)r->npoints + 1, sizeof *cell);
    int width[2 + PROP_COUNT + 1] = { 0 };
    for (int i = 0; i <= r->npoints; i++) {
        cell[i] = xcalloc((size_t)cols, sizeof **cell);
        buf c;
        buf_init(&c);
        for (int k = 0; k < cols; k++) {
            buf_reset(&c);
            if (i == 0) {
                buf_puts(&c, k == 0 ? r->target.name : k == 1 ? "runs" : k == cols - 1 ? "errors"
                                                       : property_name((property)(k - 2)));
            } else {
                const sweep_point *pt = &r->points[i - 1];
                if (k == 0) label(r, pt->value, &c);
                else if (k == 1) buf_printf(&c, "%d", pt->runs);
                else if (k == cols - 1) buf_printf(&c, "%d", pt->errors);
                else {
                    int p = k - 2;
                    double lo, hi;
                    sweep_wilson(pt->violated[p], pt->judged[p], &lo, &hi);
                    buf_printf(&c, "%d/%d  %.3f [%.3f, %.3f]", pt->violated[p], pt->judged[p],
                               pt->judged[p] ? (double)pt->violated[p] / pt->judged[p] : 0.0, lo, hi);
                }
            }
            cell[i][k] = buf_steal(&c);
            int len = (int)strlen(cell[i][k]);
            if (len > width[k]) width[k] = len;
        }
        buf_release(&c);
    }
    for (int i = 0; i <= r->npoints; i++) {
        for (int k = 0; k < cols; k++) {
            int on = k < 2 || (k == cols - 1 ? errors > 0 : show[k - 2]);
            if (on) {
                if (k) buf_puts(out, "   ");
                pad(out, cell[i][k], width[k], k < 2 || k == cols - 1);
            }
            free(cell[i][k]);
        }
        /* no trailing blanks */
        while (out->len && out->p[out->len - 1] == ' ') out->p[--out->len] = 0;
        buf_putc(out, '\n');
        free(cell[i]);
    }
    free(cell);
    buf never, unjudged;
    buf_init(&never);
    buf_init(&unjudged);
    for (int p = 0; p < PROP_COUNT; p++) {
        if (show[p]) continue;
        buf *b = judged_anywhere(r, p) ? &never : &unjudged;
        buf_printf(b, "%s%s", b->len ? ", " : "", property_name((property)p));
    }
    if (never.len) buf_printf(out, "\nnever violated: %s\n", never.p);
    if (unjudged.len) buf_printf(out, "%snot judged in this scenario: %s\n", never.len ? "" : "\n", unjudged.p);
    if (errors)
        buf_printf(out, "%d run%s ended in a client model error and %s not judged\n", errors, errors == 1 ? "" : "s",
                   errors == 1 ? "was" : "were");
    buf_release(&never);
    buf_release(&unjudged);
}

void sweep_csv(const sweep_result *r, buf *out)
{
    const char *unit;
    double scale = x_scale(r, &unit);
    buf_printf(out, "%s%s%s,label,runs,errors", r->target.name, *unit ? "_" : "", unit);
    for (int p = 0; p < PROP_COUNT; p++)
        if (judged_anywhere(r, p)) {
            const char *n = property_name((property)p);
            buf_printf(out, ",%s_violated,%s_judged,%s_rate,%s_lo,%s_hi", n, n, n, n, n);
        }
    buf_putc(out, '\n');
    for (int i = 0; i < r->npoints; i++) {
        const sweep_point *pt = &r->points[i];
        buf_printf(out, "%.12g,", pt->value / scale);
        label(r, pt->value, out);
        buf_printf(out, ",%d,%d", pt->runs, pt->errors);
        for (int p = 0; p < PROP_COUNT; p++) {
            if (!judged_anywhere(r, p)) continue;
            double lo, hi;
            sweep_wilson(pt->violated[p], pt->judged[p], &lo, &hi);
            buf_printf(out, ",%d,%d,%.6f,%.6f,%.6f", pt->violated[p], pt->judged[p],
                       pt->judged[p] ? (double)pt->violated[p] / pt->judged[p] : 0.0, lo, hi);
        }
        buf_putc(out, '\n');
    }
}

/* The gnuplot program: the data inline (a datablock), a band for each interval, a line for
 * each rate, dashed marks at the scenario's own value and, for durations, at the lease, their
 * labels above the plot (the lease's to the left of its line, the value's to the right). */
static void plot_script(const void *ud, int svg, buf *gp)
{
    const sweep_result *r = ud;
    int show[PROP_COUNT];
    sweep_shown(r, show);
    const char *unit;
    double scale = x_scale(r, &unit);
    buf_printf(gp, "set terminal %s size 1000,600 font \"sans,11\" noenhanced\n",
               svg ? "svg dynamic background rgb \"white\"" : "pngcairo");
    buf_puts(gp, "set output");
    buf t;
    buf_init(&t);
    buf_printf(&t, "%s  (%s)\nprotocol %s, scripts %s; %d runs per point; bands: 95%% Wilson score intervals",
               r->sc->name, r->scenario_arg, r->sc->protocol, r->sc->scripts ? r->sc->scripts : "HEAD", r->runs);
    buf_puts(gp, "\nset title ");
    gp_quote(gp, t.p);
    buf_reset(&t);
    buf_printf(&t, "%s%s%s%s", r->target.name, *unit ? " (" : "", unit, *unit ? ")" : "");
    buf_puts(gp, "\nset xlabel ");
    gp_quote(gp, t.p);
    buf_release(&t);
    buf_puts(gp, "\nset ylabel \"violation rate\"\n"
                 "set yrange [-0.03:1.03]\nset ytics 0,0.1,1\nset grid lc rgb \"#dddddd\"\n"
                 "set tmargin 5\nset key below horizontal\nset border 3\nset tics nomirror\n");
    double x0 = r->points[0].value / scale, x1 = r->points[r->npoints - 1].value / scale;
    double margin = x1 > x0 ? (x1 - x0) * 0.02 : 1;
    buf_printf(gp, "set xrange [%.12g:%.12g]\n", x0 - margin, x1 + margin);
    double own = vary_get(r->sc, &r->target);
    int arrows = 0;
    if (!isnan(own) && own / scale >= x0 && own / scale <= x1) {
        buf b;
        buf_init(&b);
        vary_format(&r->target, own, &b);
        buf_printf(gp, "set arrow %d from %.12g, graph 0 to %.12g, graph 1 nohead dt 3 lc rgb \"#888888\"\n", ++arrows,
                   own / scale, own / scale);
        buf_printf(gp, "set label \"scenario: %s\" at %.12g, graph 1 left offset 0.5,0.7 tc rgb \"#666666\"\n", b.p, own / scale);
        buf_release(&b);
    }
    int durations = r->target.unit == VARY_DURATION || r->target.unit == VARY_SIGNED_DURATION;
    if (durations && r->sc->lease_us > 0 && r->sc->lease_us / scale >= x0 && r->sc->lease_us / scale <= x1 &&
        strcmp(r->target.name, "lease") != 0) {
        buf b;
        buf_init(&b);
        vary_format(&r->target, (double)r->sc->lease_us, &b);
        double lx = (double)r->sc->lease_us / scale;
        buf_printf(gp, "set arrow %d from %.12g, graph 0 to %.12g, graph 1 nohead dt 2 lc rgb \"#cc4444\"\n", ++arrows, lx, lx);
        buf_printf(gp, "set label \"lease %s\" at %.12g, graph 1 right offset -0.5,0.7 tc rgb \"#cc4444\"\n", b.p, lx);
        buf_release(&b);
    }
    buf_puts(gp, "$data << EOD\n");
    for (int i = 0; i < r->npoints; i++) {
        const sweep_point *pt = &r->points[i];
        buf_printf(gp, "%.12g", pt->value / scale);
        for (int p = 0; p < PROP_COUNT; p++) {
            if (!show[p]) continue;
            double lo, hi;
            sweep_wilson(pt->violated[p], pt->judged[p], &lo, &hi);
            buf_printf(gp, " %.6f %.6f %.6f", pt->judged[p] ? (double)pt->violated[p] / pt->judged[p] : 0.0, lo, hi);
        }
        buf_putc(gp, '\n');
    }
    buf_puts(gp, "EOD\n");
    static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b" };
    buf_puts(gp, "plot ");
    int col = 2, k = 0;
    for (int p = 0; p < PROP_COUNT; p++) {
        if (!show[p]) continue;
        /* later properties are drawn thinner and dashed so that equal curves stay visible */
        buf_printf(gp, "%s$data using 1:%d:%d with filledcurves fs transparent solid 0.15 noborder lc rgb \"%s\" notitle, "
                       "$data using 1:%d with linespoints lw %d dt %d pt %d ps 0.8 lc rgb \"%s\" title \"%s\"",
                   k ? ", " : "", col + 1, col + 2, colours[k % 6], col, k ? 2 : 3, k + 1, 7 - 2 * (k % 3),
                   colours[k % 6], property_name((property)p));
        col += 3;
        k++;
    }
    buf_puts(gp, "\nunset output\n");
}

int sweep_plot(const sweep_result *r, const char *path, buf *err)
{
    return gp_draw(path, plot_script, r, err);
}
