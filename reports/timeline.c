/* timeline.c — the gnuplot timeline: the tl_model of a run (tlmodel.c) written as a gnuplot
 * script, with the data as inline datablocks, and gnuplot run on it to draw a PNG or an SVG
 * (gnuplot.c: gp_render draws to a pipe; the file is written here, every write checked,
 * through a temporary renamed into place). */
#include "timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"

/* ---- the gnuplot script ---- */

/* A fault of the whole network (a partition) that lasts: drawn as a band in a row of its
 * own, "network", above the actors' rows, rather than shaded over every row (a partition
 * that outlasts the run would shade the whole picture). */
static int network_band(const tl_fault *f)
{
    return f->row < 0 && f->to_us > f->from_us;
}

static int has_network_row(const tl_model *m)
{
    for (size_t i = 0; i < m->nfaults; i++)
        if (network_band(&m->faults[i])) return 1;
    return 0;
}

/* Client colours: distinct, and none of them the red of overlaps or the orange of faults. */
static const char *const palette[] = { "#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
                                       "#17becf", "#e377c2", "#bcbd22", "#3949ab" };

static const char *client_colour(int row)
{
    return palette[(size_t)row % LL_ARRAY_LEN(palette)];
}

typedef struct tunit {
    double div;       /* µs per unit */
    const char *name; /* "ms", "s", "min" */
} tunit;

static tunit unit_for(int64_t end)
{
    if (end < 2000000) return (tunit){ 1000.0, "ms" };
    if (end < 300000000) return (tunit){ 1000000.0, "s" };
    return (tunit){ 60000000.0, "min" };
}

static double row_y(const tl_model *m, int row)
{
    return (double)(m->nrows - row);
}

/* One datablock of boxes: x y xlow xhigh ylow yhigh. Returns whether it has any line. */
static int block_spans(buf *out, const char *name, const tl_model *m, tunit u, tl_span_kind kind, int owner,
                       double half)
{
    int n = 0;
    buf_printf(out, "$%s << EOD\n", name);
    for (size_t i = 0; i < m->nspans; i++) {
        const tl_span *s = &m->spans[i];
        if (s->kind != kind) continue;
        if (kind == TL_HOLD && s->row != owner) continue;
        if (kind == TL_OWNED && s->owner != owner) continue;
        if (kind == TL_OVERLAP) continue; /* drawn by script_plot, per row */
        double y = row_y(m, s->row), x0 = (double)s->from_us / u.div, x1 = (double)s->to_us / u.div;
        buf_printf(out, "%.6f %.3f %.6f %.6f %.3f %.3f\n", (x0 + x1) / 2, y, x0, x1, y - half, y + half);
        n++;
    }
    buf_puts(out, "EOD\n");
    return n > 0;
}

static int block_marks(buf *out, const char *name, const tl_model *m, tunit u, tl_mark_kind kind)
{
    int n = 0;
    buf_printf(out, "$%s << EOD\n", name);
    for (size_t i = 0; i < m->nmarks; i++) {
        const tl_mark *k = &m->marks[i];
        if (k->kind != kind || k->row < 0) continue;
        buf_printf(out, "%.6f %.3f\n", (double)k->t_us / u.div, row_y(m, k->row));
        n++;
    }
    buf_puts(out, "EOD\n");
    return n > 0;
}

static void plot_clause(buf *out, int *first, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void plot_clause(buf *out, int *first, const char *fmt, ...)
{
    buf_puts(out, *first ? "plot " : ", \\\n     ");
    *first = 0;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(out, fmt, ap);
    va_end(ap);
}

static void script_header(buf *out, const tl_model *m, const scenario *sc, uint64_t seed, int png, tunit u)
{
    int height = 260 + 70 * m->nrows + 40 * (m->nclients + 6) / 4;
    if (png) buf_printf(out, "set terminal pngcairo size 1600,%d font 'DejaVu Sans,15' noenhanced\n", height);
    else buf_printf(out, "set terminal svg size 1300,%d font 'DejaVu Sans,15' noenhanced background '#ffffff'\n", height);
    buf_puts(out, "set encoding utf8\nset output\nset title ");
    buf tt;
    buf_init(&tt);
    buf_printf(&tt, "%s\nprotocol %s · scripts %s · seed %llu", sc->name, sc->protocol, sc->scripts ? sc->scripts : "HEAD",
               (unsigned long long)seed);
    gp_quote(out, tt.p);
    buf_release(&tt);
    buf_puts(out, " font ',20'\n");
    double xmax = (double)m->end_us / u.div * 1.02;
    int net = has_network_row(m);
    buf_printf(out, "set xrange [0:%.6f]\nset yrange [0.4:%.2f]\n", xmax, m->nrows + (net ? 1.75 : 0.75));
    buf_printf(out, "set xlabel 'true time (%s)'\nset xtics nomirror\nset mxtics 5\nset grid xtics lc rgb '#dddddd'\n", u.name);
    buf_puts(out, "set ytics nomirror scale 0 (");
    for (int r = 0; r < m->nrows; r++) {
        buf_puts(out, r ? ", " : "");
        /* a drifting clock, in the row's label: "A\nclock +3 %" */
        buf name;
        buf_init(&name);
        buf_puts(&name, m->rows[r].name);
        if (m->rows[r].drift != 0) buf_printf(&name, "\nclock %+.3g %%", m->rows[r].drift * 100);
        gp_quote_format(out, name.p); /* ytics labels are formats: each % doubled */
        buf_release(&name);
        buf_printf(out, " %.1f", row_y(m, r));
    }
    if (net) buf_printf(out, ", 'network' %.1f", (double)m->nrows + 1);
    buf_puts(out, ") font ',17'\n");
    if (net)
        buf_printf(out, "set arrow from graph 0, first %.2f to graph 1, first %.2f nohead lc rgb '#888888' dt 2\n",
                   m->nrows + 0.5, m->nrows + 0.5);
    buf_puts(out, "set key outside below horizontal maxrows 3 width 2 reverse Left font ',14'\nset border 3\n");
    buf_puts(out, "set style fill solid 1.0 noborder\n");
    if (m->nclients > 0 && m->nclients < m->nrows)
        buf_printf(out, "set arrow from graph 0, first %.2f to graph 1, first %.2f nohead lc rgb '#888888' dt 2\n",
                   row_y(m, m->nclients) + 0.5, row_y(m, m->nclients) + 0.5);
}

/* Faults: intervals shaded over the whole chart, instants as dashed lines; their labels sit
 * above the chart in lanes, a label going to the first lane where it covers no other. A
 * lasting fault of the whole network is a band in the "network" row, labelled inside, with a
 * thin line across the chart where it starts and where it ends within the run. */
static void script_faults(buf *out, const tl_model *m, tunit u)
{
    enum { LANES = 5 };
    double lane_end[LANES];
    for (int l = 0; l < LANES; l++) lane_end[l] = -1e300;
    double xmax = (double)m->end_us / u.div * 1.02, char_w = xmax * 8.5 / 1400;
    int nlanes = 0;
    for (size_t i = 0; i < m->nfaults; i++) {
        const tl_fault *f = &m->faults[i];
        double x0 = (double)f->from_us / u.div, x1 = (double)f->to_us / u.div;
        if (network_band(f)) {
            double y = (double)m->nrows + 1;
            buf_printf(out, "set object rect from %.6f, %.2f to %.6f, %.2f behind fc rgb '#ff9800' "
                            "fs solid 0.45 border lc rgb '#e65100'\n", x0, y - 0.28, x1, y + 0.28);
            buf_printf(out, "set arrow from %.6f, graph 0 to %.6f, first %.2f nohead lc rgb '#e65100' lw 1 dt 3 back\n", x0,
                       x0, y - 0.28);
            if (f->to_us < m->end_us)
                buf_printf(out, "set arrow from %.6f, graph 0 to %.6f, first %.2f nohead lc rgb '#e65100' lw 1 dt 3 back\n",
                           x1, x1, y - 0.28);
            buf tb;
            buf_init(&tb);
            buf_printf(&tb, "⚡ %s", f->text);
            buf_puts(out, "set label ");
            gp_quote(out, tb.p);
            buf_release(&tb);
            buf_printf(out, " at %.6f, %.2f left offset 0.5, 0 font ',13' tc rgb '#3e2723' front\n", x0, y);
            continue;
        }
        if (f->to_us > f->from_us)
            buf_printf(out, "set object rect from %.6f, graph 0 to %.6f, graph 1 behind fc rgb '#ff9800' "
                            "fs transparent solid 0.13 noborder\n", x0, x1);
        else
            buf_printf(out, "set arrow from %.6f, graph 0 to %.6f, graph 1 nohead lc rgb '#e65100' lw 2 dt 2 back\n",
                       x0, x0);
        buf tx;
        buf_init(&tx);
        buf_printf(&tx, "⚡ %s", f->text);
        double width = (double)(strlen(f->text) + 3) * char_w;
        int lane = 0;
        while (lane < LANES - 1 && lane_end[lane] > x0) lane++;
        lane_end[lane] = x0 + width;
        if (lane + 1 > nlanes) nlanes = lane + 1;
        buf_puts(out, "set label ");
        gp_quote(out, tx.p);
        buf_release(&tx);
        buf_printf(out, " at %.6f, graph 1 left offset 0, %.2f font ',13' tc rgb '#bf360c' front\n", x0,
                   0.9 + 1.3 * lane);
    }
    buf_printf(out, "set tmargin %.1f\n", 4.5 + 1.3 * nlanes);
    /* the overlaps, as a red band over the client rows */
    for (size_t i = 0; i < m->nspans; i++) {
        const tl_span *s = &m->spans[i];
        if (s->kind != TL_OVERLAP || s->owner < s->row) continue; /* each pair once */
        buf_printf(out, "set object rect from %.6f, %.2f to %.6f, %.2f behind fc rgb '#e53935' "
                        "fs transparent solid 0.15 noborder\n",
                   (double)s->from_us / u.div, row_y(m, m->nclients - 1) - 0.5, (double)s->to_us / u.div,
                   row_y(m, 0) + 0.5);
    }
}

/* Labels inside boxes (owners on node rows), tokens, clock jumps. */
static void script_labels(buf *out, const tl_model *m, tunit u)
{
    double min_w = (double)m->end_us / u.div / 40;
    for (size_t i = 0; i < m->nspans; i++) {
        const tl_span *s = &m->spans[i];
        if (s->kind != TL_OWNED || s->owner < 0) continue;
        double x0 = (double)s->from_us / u.div, x1 = (double)s->to_us / u.div;
        if (x1 - x0 < min_w) continue;
        buf_puts(out, "set label ");
        gp_quote(out, m->rows[s->owner].name);
        buf_printf(out, " at %.6f, %.3f center front tc rgb '#ffffff' font ',15'\n", (x0 + x1) / 2, row_y(m, s->row));
    }
    for (size_t i = 0; i < m->nmarks; i++) {
        const tl_mark *k = &m->marks[i];
        if (k->row < 0) continue;
        double x = (double)k->t_us / u.div, y = row_y(m, k->row);
        if (k->kind == TL_TOKEN)
            buf_printf(out, "set label 'token %lld' at %.6f, %.3f left front font ',13' tc rgb '#000000'\n",
                       (long long)k->value, x, y + 0.45);
        else if (k->kind == TL_CLOCK_JUMP)
            buf_printf(out, "set label 'clock %+.3gs' at %.6f, %.3f left offset 0.6,0 front font ',13' tc rgb '#bf360c'\n",
                       (double)k->value / 1000.0, x, y + 0.45);
        else if (k->kind == TL_PROMOTED)
            buf_printf(out, "set label '▲ promoted to master' at %.6f, %.3f left front font ',13' tc rgb '#000000'\n", x,
                       y + 0.45);
    }
}

static void script_plot(buf *out, const tl_model *m, tunit u)
{
    int first = 1;
    buf cmd;
    buf_init(&cmd);
    buf_puts(out, "$none << EOD\n0 -10\nEOD\n");
    if (block_spans(out, "wait", m, u, TL_WAIT, -1, 0.1))
        plot_clause(&cmd, &first, "$wait using 1:2:3:4:5:6 with boxxyerror fc rgb '#9e9e9e' title 'waiting for the lock'");
    for (int r = 0; r < m->nclients; r++) {
        char name[32];
        snprintf(name, sizeof name, "hold%d", r);
        int any = block_spans(out, name, m, u, TL_HOLD, r, 0.3);
        char oname[32];
        snprintf(oname, sizeof oname, "own%d", r);
        any |= block_spans(out, oname, m, u, TL_OWNED, r, 0.3);
        if (!any) continue;
        buf tt;
        buf_init(&tt);
        buf_printf(&tt, "%s: holding / owner", m->rows[r].name);
        plot_clause(&cmd, &first, "$%s using 1:2:3:4:5:6 with boxxyerror fc rgb '%s' title ", name, client_colour(r));
        gp_quote(&cmd, tt.p);
        buf_printf(&cmd, ", \\\n     $%s using 1:2:3:4:5:6 with boxxyerror fc rgb '%s' notitle", oname, client_colour(r));
        buf_release(&tt);
    }
    if (block_spans(out, "ownq", m, u, TL_OWNED, -1, 0.3))
        plot_clause(&cmd, &first, "$ownq using 1:2:3:4:5:6 with boxxyerror fc rgb '#bdbdbd' title 'owner unknown'");
    buf_puts(out, "$overlap << EOD\n");
    int noverlap = 0;
    for (size_t i = 0; i < m->nspans; i++) {
        const tl_span *s = &m->spans[i];
        if (s->kind != TL_OVERLAP) continue;
        double y = row_y(m, s->row), x0 = (double)s->from_us / u.div, x1 = (double)s->to_us / u.div;
        buf_printf(out, "%.6f %.3f %.6f %.6f %.3f %.3f\n", (x0 + x1) / 2, y, x0, x1, y - 0.38, y + 0.38);
        noverlap++;
    }
    buf_puts(out, "EOD\n");
    if (noverlap)
        plot_clause(&cmd, &first, "$overlap using 1:2:3:4:5:6 with boxxyerror lc rgb '#d50000' lw 4 fs empty border lc rgb '#d50000' "
                                 "title 'two clients inside at once'");
    if (block_spans(out, "pause", m, u, TL_PAUSE, -1, 0.22))
        plot_clause(&cmd, &first, "$pause using 1:2:3:4:5:6 with boxxyerror fs pattern 4 border lc rgb '#ef6c00' "
                                 "fc rgb '#ef6c00' title 'paused (GC)'");
    if (block_spans(out, "crash", m, u, TL_CRASH, -1, 0.3))
        plot_clause(&cmd, &first, "$crash using 1:2:3:4:5:6 with boxxyerror fs pattern 2 border lc rgb '#212121' "
                                 "fc rgb '#212121' title 'crashed'");
    if (block_spans(out, "down", m, u, TL_DOWN, -1, 0.3))
        plot_clause(&cmd, &first, "$down using 1:2:3:4:5:6 with boxxyerror fs pattern 2 border lc rgb '#212121' "
                                 "fc rgb '#212121' title 'node down'");
    if (block_marks(out, "wok", m, u, TL_WRITE_OK))
        plot_clause(&cmd, &first, "$wok using 1:2 with points pt 7 ps 1.1 lc rgb '#000000' title 'write accepted'");
    if (block_marks(out, "wno", m, u, TL_WRITE_REJECTED))
        plot_clause(&cmd, &first, "$wno using 1:2 with points pt 2 ps 3 lw 4 lc rgb '#d50000' title 'write REJECTED (fencing)'");
    if (block_marks(out, "jump", m, u, TL_CLOCK_JUMP))
        plot_clause(&cmd, &first, "$jump using 1:2 with points pt 9 ps 2.5 lc rgb '#bf360c' title 'clock jump'");
    plot_clause(&cmd, &first, "$none using 1:2 with points ps 0 notitle");
    buf_append(out, cmd.p, cmd.len);
    buf_puts(out, "\n");
    buf_release(&cmd);
}

static void timeline_script(const tl_model *m, const scenario *sc, uint64_t seed, int png, buf *out)
{
    tunit u = unit_for(m->end_us);
    script_header(out, m, sc, seed, png, u);
    script_faults(out, m, u);
    script_labels(out, m, u);
    script_plot(out, m, u);
}

/* ---- running gnuplot ---- */

int timeline_path_ok(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && (!strcasecmp(path + n - 4, ".png") || !strcasecmp(path + n - 4, ".svg"));
}

/* Draws the picture into image. */
static int render(const history *h, const scenario *sc, uint64_t seed, int png, buf *image, buf *err, int *io)
{
    tl_model m;
    tl_build(h, sc, &m);
    buf script;
    buf_init(&script);
    timeline_script(&m, sc, seed, png, &script);
    int rc = gp_render(&script, !png, image, err, io);
    buf_release(&script);
    tl_release(&m);
    return rc;
}

int timeline_plot(const history *h, const scenario *sc, uint64_t seed, const char *path, buf *err, int *io)
{
    *io = 0;
    if (!timeline_path_ok(path)) {
        buf_printf(err, "--plot: '%s' should end in .png or .svg", path);
        return -1;
    }
    size_t n = strlen(path);
    int png = !strcasecmp(path + n - 4, ".png");
    buf image;
    buf_init(&image);
    int rc = render(h, sc, seed, png, &image, err, io);
    if (rc == 0 && ll_write_file(path, image.p, image.len, err) != 0) {
        *io = 1;
        rc = -1;
    }
    buf_release(&image);
    return rc;
}

int timeline_svg(const history *h, const scenario *sc, uint64_t seed, buf *out, buf *err, int *io)
{
    *io = 0;
    return render(h, sc, seed, 0, out, err, io);
}
