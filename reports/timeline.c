/* timeline.c — the run as intervals (the tl_model every picture draws from) and the gnuplot
 * timeline.
 *
 * The model is one pass over the history. Client rows follow the workload's milestones
 * (acquire → acquired: waiting; cs_enter → cs_exit: holding) and the faults aimed at them
 * (GC pause → its end: paused; crash: crashed to the end). Node rows follow the scenario's lock
 * key: a key_set opens an "owned" interval whose owner is the client of the exec that set it
 * (an exec and the key changes it causes share the node and the µs); a key_set with no exec
 * (replication) takes the owner of the value it copies. key_deleted / key_expired / a crash
 * close it. Overlaps are computed afterwards from the holding intervals.
 *
 * gnuplot gets its script (with the data as inline datablocks) on stdin from an anonymous
 * temporary file, and its stderr goes to another, so nothing is left in /tmp whatever
 * happens. It writes to path.tmp.<pid>, renamed on success. */
#include "timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the model ---- */

static int has_prefix(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s && strlen(s) >= n && memcmp(s, prefix, n) == 0;
}

typedef struct open_fault {
    int actor;
    int64_t from;
    const char *text;
    int live;
} open_fault;

typedef struct owner_of {
    const char *value; /* borrowed from the history */
    int owner;
} owner_of;

typedef struct builder {
    tl_model *m;
    size_t cap_spans, cap_marks, cap_faults;
    int64_t *wait_from, *hold_from, *pause_from, *own_from, *down_from;
    int *owner, *crashed;
    int64_t *exec_t;  /* per row: the µs of its last exec, -1 */
    int *exec_peer;   /* ... and that exec's client row */
    open_fault *open; size_t nopen, cap_open;
    owner_of *values; size_t nvalues, cap_values;
    const char *lockkey;
} builder;

int tl_row_of(const tl_model *m, int actor)
{
    for (int r = 0; r < m->nrows; r++)
        if (m->rows[r].actor == actor) return r;
    return -1;
}

static void add_span(builder *b, int row, tl_span_kind k, int64_t from, int64_t to, int owner)
{
    tl_model *m = b->m;
    if (from < 0 || to < from) return;
    if (m->nspans == b->cap_spans) {
        b->cap_spans = b->cap_spans ? 2 * b->cap_spans : 64;
        m->spans = xrealloc(m->spans, b->cap_spans * sizeof *m->spans);
    }
    m->spans[m->nspans++] = (tl_span){ row, k, from, to, owner };
}

static void add_mark(builder *b, int row, tl_mark_kind k, int64_t t, int64_t value)
{
    tl_model *m = b->m;
    if (m->nmarks == b->cap_marks) {
        b->cap_marks = b->cap_marks ? 2 * b->cap_marks : 64;
        m->marks = xrealloc(m->marks, b->cap_marks * sizeof *m->marks);
    }
    m->marks[m->nmarks++] = (tl_mark){ row, k, t, value };
}

static void add_fault(builder *b, int row, int64_t from, int64_t to, const char *text)
{
    tl_model *m = b->m;
    if (m->nfaults == b->cap_faults) {
        b->cap_faults = b->cap_faults ? 2 * b->cap_faults : 16;
        m->faults = xrealloc(m->faults, b->cap_faults * sizeof *m->faults);
    }
    m->faults[m->nfaults++] = (tl_fault){ row, from, to, text ? text : "" };
}

/* Each client's symbol: its initial when no other client shares it, else its last
 * character when that is unique, else a letter by position. */
static void assign_symbols(tl_model *m)
{
    for (int pass = 0; pass < 3; pass++) {
        for (int r = 0; r < m->nclients; r++) {
            tl_row *row = &m->rows[r];
            if (pass > 0 && row->sym) continue;
            size_t len = strlen(row->name);
            char c = pass == 0 ? row->name[0] : pass == 1 ? row->name[len ? len - 1 : 0] : (char)('a' + r % 26);
            int clash = 0;
            for (int o = 0; o < m->nclients && pass < 2; o++) {
                if (o == r) continue;
                const char *on = m->rows[o].name;
                size_t ol = strlen(on);
                char oc = pass == 0 ? on[0] : m->rows[o].sym ? m->rows[o].sym : on[ol ? ol - 1 : 0];
                if (oc == c) clash = 1;
            }
            row->sym = clash || (unsigned char)c < 33 || (unsigned char)c > 126 ? 0 : c;
            if (pass == 2 && !row->sym) row->sym = '?';
        }
    }
}

static void remember_value(builder *b, const char *value, int owner)
{
    if (!value || owner < 0) return;
    for (size_t i = 0; i < b->nvalues; i++)
        if (!strcmp(b->values[i].value, value)) {
            b->values[i].owner = owner;
            return;
        }
    if (b->nvalues == b->cap_values) {
        b->cap_values = b->cap_values ? 2 * b->cap_values : 16;
        b->values = xrealloc(b->values, b->cap_values * sizeof *b->values);
    }
    b->values[b->nvalues++] = (owner_of){ value, owner };
}

static int owner_of_value(const builder *b, const char *value)
{
    for (size_t i = 0; value && i < b->nvalues; i++)
        if (!strcmp(b->values[i].value, value)) return b->values[i].owner;
    return -1;
}

static void close_owned(builder *b, int row, int64_t t)
{
    if (b->own_from[row] >= 0) add_span(b, row, TL_OWNED, b->own_from[row], t, b->owner[row]);
    b->own_from[row] = -1;
}

static void on_key(builder *b, const hist_event *e, int row)
{
    if (e->kind != H_KEY_SET) {
        close_owned(b, row, e->t);
        b->owner[row] = -1;
        return;
    }
    int owner;
    if (b->exec_t[row] == e->t) {
        owner = b->exec_peer[row];
        remember_value(b, e->reply, owner);
    } else {
        owner = owner_of_value(b, e->reply);
    }
    if (b->own_from[row] >= 0 && b->owner[row] == owner) return; /* same owner: renewal, re-entry */
    close_owned(b, row, e->t);
    b->own_from[row] = e->t;
    b->owner[row] = owner;
}

static void on_fault(builder *b, const hist_event *e, int row)
{
    const char *text = e->text ? e->text : "";
    if (e->kind == H_FAULT) {
        if (has_prefix(text, "GC pause") && row >= 0) b->pause_from[row] = e->t;
        if (has_prefix(text, "crash of") && row >= 0 && !b->m->rows[row].is_node) {
            b->crashed[row] = 1;
            add_span(b, row, TL_CRASH, e->t, b->m->end, -1);
            if (b->wait_from[row] >= 0) add_span(b, row, TL_WAIT, b->wait_from[row], e->t, -1);
            if (b->hold_from[row] >= 0) add_span(b, row, TL_HOLD, b->hold_from[row], e->t, -1);
            b->wait_from[row] = b->hold_from[row] = -1;
        }
        int64_t jump;
        const char *by = strstr(text, " jumps by ");
        if (by && row >= 0 && sscanf(by + 10, "%" SCNd64, &jump) == 1) add_mark(b, row, TL_CLOCK_JUMP, e->t, jump);
        if (b->nopen == b->cap_open) {
            b->cap_open = b->cap_open ? 2 * b->cap_open : 8;
            b->open = xrealloc(b->open, b->cap_open * sizeof *b->open);
        }
        b->open[b->nopen++] = (open_fault){ e->actor, e->t, text, 1 };
        return;
    }
    if (has_prefix(text, "GC pause") && row >= 0 && b->pause_from[row] >= 0) {
        add_span(b, row, TL_PAUSE, b->pause_from[row], e->t, -1);
        b->pause_from[row] = -1;
    }
    /* The end of a fault: the open one on the same actor with the same text, else the
     * earliest open one on that actor. */
    open_fault *match = NULL;
    for (size_t i = 0; i < b->nopen && !match; i++)
        if (b->open[i].live && b->open[i].actor == e->actor && !strcmp(b->open[i].text, text)) match = &b->open[i];
    for (size_t i = 0; i < b->nopen && !match; i++)
        if (b->open[i].live && b->open[i].actor == e->actor) match = &b->open[i];
    if (!match) return;
    match->live = 0;
    add_fault(b, tl_row_of(b->m, match->actor), match->from, e->t, match->text);
}

static void on_event(builder *b, const hist_event *e)
{
    tl_model *m = b->m;
    int row = tl_row_of(m, e->actor);
    switch (e->kind) {
    case H_ACQUIRE:
        if (row >= 0 && b->wait_from[row] < 0 && !b->crashed[row]) b->wait_from[row] = e->t;
        break;
    case H_ACQUIRED:
        if (e->a >= 0) add_mark(b, row, TL_TOKEN, e->t, e->a);
        /* fall through */
    case H_ACQUIRE_FAILED:
        if (row >= 0 && b->wait_from[row] >= 0) add_span(b, row, TL_WAIT, b->wait_from[row], e->t, -1);
        if (row >= 0) b->wait_from[row] = -1;
        break;
    case H_CS_ENTER:
        if (row >= 0 && b->hold_from[row] < 0) b->hold_from[row] = e->t;
        break;
    case H_CS_EXIT:
        if (row >= 0 && b->hold_from[row] >= 0) add_span(b, row, TL_HOLD, b->hold_from[row], e->t, -1);
        if (row >= 0) b->hold_from[row] = -1;
        break;
    case H_WRITE: add_mark(b, row, e->b ? TL_WRITE_OK : TL_WRITE_REJECTED, e->t, e->a); break;
    case H_EXEC:
        if (row >= 0) {
            b->exec_t[row] = e->t;
            b->exec_peer[row] = tl_row_of(m, e->peer);
        }
        break;
    case H_KEY_SET:
    case H_KEY_DELETED:
    case H_KEY_EXPIRED:
        if (row >= 0 && m->rows[row].is_node && e->text && !strcmp(e->text, b->lockkey)) on_key(b, e, row);
        break;
    case H_NODE_DOWN:
        if (row < 0) break;
        if (b->down_from[row] < 0) b->down_from[row] = e->t;
        close_owned(b, row, e->t);
        break;
    case H_NODE_UP:
        if (row < 0) break;
        if (b->down_from[row] >= 0) add_span(b, row, TL_DOWN, b->down_from[row], e->t, -1);
        b->down_from[row] = -1;
        for (size_t i = 0; i < b->nopen; i++) /* the crash fault lasts until the restart */
            if (b->open[i].live && b->open[i].actor == e->actor && has_prefix(b->open[i].text, "crash of")) {
                b->open[i].live = 0;
                add_fault(b, row, b->open[i].from, e->t, b->open[i].text);
            }
        /* Persistence kept the key, as far as the history tells: the owner is back. */
        if (b->owner[row] >= 0 && !(e->text && strstr(e->text, "empty"))) b->own_from[row] = e->t;
        else b->owner[row] = -1;
        break;
    case H_PROMOTED: add_mark(b, row, TL_PROMOTED, e->t, tl_row_of(m, e->peer)); break;
    case H_FAULT:
    case H_FAULT_END: on_fault(b, e, row); break;
    default: break;
    }
}

/* Closes what is still open when the history ends. */
static void finish(builder *b)
{
    tl_model *m = b->m;
    for (int r = 0; r < m->nrows; r++) {
        if (b->wait_from[r] >= 0) add_span(b, r, TL_WAIT, b->wait_from[r], m->end, -1);
        if (b->hold_from[r] >= 0) add_span(b, r, TL_HOLD, b->hold_from[r], m->end, -1);
        if (b->pause_from[r] >= 0) add_span(b, r, TL_PAUSE, b->pause_from[r], m->end, -1);
        if (b->down_from[r] >= 0) add_span(b, r, TL_DOWN, b->down_from[r], m->end, -1);
        close_owned(b, r, m->end);
    }
    for (size_t i = 0; i < b->nopen; i++) {
        open_fault *f = &b->open[i];
        if (!f->live) continue;
        int lasting = has_prefix(f->text, "crash of") || has_prefix(f->text, "GC pause") ||
                      has_prefix(f->text, "partition");
        add_fault(b, tl_row_of(m, f->actor), f->from, lasting ? m->end : f->from, f->text);
    }
}

/* Where two clients hold at once, both get an overlap span. */
static void find_overlaps(builder *b)
{
    tl_model *m = b->m;
    size_t n = m->nspans;
    for (size_t i = 0; i < n; i++) {
        const tl_span *x = &m->spans[i];
        if (x->kind != TL_HOLD) continue;
        for (size_t j = 0; j < n; j++) {
            const tl_span y = m->spans[j];
            if (y.kind != TL_HOLD || y.row == x->row) continue;
            int64_t from = x->from > y.from ? x->from : y.from, to = x->to < y.to ? x->to : y.to;
            if (from < to) add_span(b, m->spans[i].row, TL_OVERLAP, from, to, y.row);
            x = &m->spans[i]; /* add_span may move the array */
        }
    }
}

void tl_build(const history *h, const scenario *sc, tl_model *m)
{
    memset(m, 0, sizeof *m);
    size_t na = history_actors(h);
    m->rows = xcalloc(na ? na : 1, sizeof *m->rows);
    for (int pass = 0; pass < 2; pass++)
        for (size_t a = 0; a < na; a++)
            if (history_actor_is_node(h, (int)a) == pass)
                m->rows[m->nrows++] = (tl_row){ (int)a, pass, history_actor_name(h, (int)a), 0 };
    for (int r = 0; r < m->nrows; r++) m->nclients += !m->rows[r].is_node;
    assign_symbols(m);
    m->end = 1;
    for (size_t i = 0; i < history_len(h); i++)
        if (history_at(h, i)->t > m->end) m->end = history_at(h, i)->t;

    builder b = { .m = m, .lockkey = sc && sc->lock ? sc->lock : "lock" };
    size_t nr = (size_t)(m->nrows ? m->nrows : 1);
    int64_t **starts[] = { &b.wait_from, &b.hold_from, &b.pause_from, &b.own_from, &b.down_from, &b.exec_t };
    for (size_t i = 0; i < LL_ARRAY_LEN(starts); i++) {
        *starts[i] = xmalloc(nr * sizeof(int64_t));
        for (size_t r = 0; r < nr; r++) (*starts[i])[r] = -1;
    }
    b.owner = xmalloc(nr * sizeof(int));
    b.exec_peer = xmalloc(nr * sizeof(int));
    b.crashed = xcalloc(nr, sizeof(int));
    for (size_t r = 0; r < nr; r++) b.owner[r] = b.exec_peer[r] = -1;

    for (size_t i = 0; i < history_len(h); i++) on_event(&b, history_at(h, i));
    finish(&b);
    find_overlaps(&b);

    for (size_t i = 0; i < LL_ARRAY_LEN(starts); i++) free(*starts[i]);
    free(b.owner);
    free(b.exec_peer);
    free(b.crashed);
    free(b.open);
    free(b.values);
}

void tl_release(tl_model *m)
{
    free(m->rows);
    free(m->spans);
    free(m->marks);
    free(m->faults);
    memset(m, 0, sizeof *m);
}

/* ---- writing files ---- */

static void tmp_name(const char *path, buf *out)
{
    buf_printf(out, "%s.tmp.%d", path, (int)getpid());
}

int tl_write_file(const char *path, const buf *content, buf *err, int *io)
{
    if (ll_write_file(path, content->p, content->len, err) == 0) return 0;
    *io = 1;
    return -1;
}

/* ---- the gnuplot script ---- */

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

/* A gnuplot double-quoted string. */
static void gp_str(buf *out, const char *s)
{
    buf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') buf_putc(out, '\\');
        if (*s == '\n') buf_puts(out, "\\n");
        else buf_putc(out, *s);
    }
    buf_putc(out, '"');
}

/* A gnuplot single-quoted string (no escapes but '' for a quote): for file names. */
static void gp_path(buf *out, const char *s)
{
    buf_putc(out, '\'');
    for (; *s; s++) {
        if (*s == '\'') buf_putc(out, '\'');
        buf_putc(out, *s);
    }
    buf_putc(out, '\'');
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
        double y = row_y(m, s->row), x0 = (double)s->from / u.div, x1 = (double)s->to / u.div;
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
        buf_printf(out, "%.6f %.3f\n", (double)k->t / u.div, row_y(m, k->row));
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

static void script_header(buf *out, const tl_model *m, const scenario *sc, uint64_t seed, int png, const char *output,
                          tunit u)
{
    int height = 260 + 70 * m->nrows + 40 * (m->nclients + 6) / 4;
    if (png) buf_printf(out, "set terminal pngcairo size 1600,%d font 'DejaVu Sans,15' noenhanced\n", height);
    else buf_printf(out, "set terminal svg size 1300,%d font 'DejaVu Sans,15' noenhanced background '#ffffff'\n", height);
    buf_puts(out, "set encoding utf8\nset output ");
    gp_path(out, output);
    buf_puts(out, "\nset title ");
    buf tt;
    buf_init(&tt);
    buf_printf(&tt, "%s\nprotocol %s · scripts %s · seed %llu", sc->name, sc->protocol, sc->scripts ? sc->scripts : "HEAD",
               (unsigned long long)seed);
    gp_str(out, tt.p);
    buf_release(&tt);
    buf_puts(out, " font ',20'\n");
    double xmax = (double)m->end / u.div * 1.02;
    buf_printf(out, "set xrange [0:%.6f]\nset yrange [0.4:%.2f]\n", xmax, m->nrows + 0.75);
    buf_printf(out, "set xlabel 'true time (%s)'\nset xtics nomirror\nset mxtics 5\nset grid xtics lc rgb '#dddddd'\n", u.name);
    buf_puts(out, "set ytics nomirror scale 0 (");
    for (int r = 0; r < m->nrows; r++) {
        buf_puts(out, r ? ", " : "");
        gp_str(out, m->rows[r].name);
        buf_printf(out, " %.1f", row_y(m, r));
    }
    buf_puts(out, ") font ',17'\n");
    buf_puts(out, "set key outside below horizontal maxrows 3 width 2 reverse Left font ',14'\nset border 3\n");
    buf_puts(out, "set style fill solid 1.0 noborder\n");
    if (m->nclients > 0 && m->nclients < m->nrows)
        buf_printf(out, "set arrow from graph 0, first %.2f to graph 1, first %.2f nohead lc rgb '#888888' dt 2\n",
                   row_y(m, m->nclients) + 0.5, row_y(m, m->nclients) + 0.5);
}

/* Faults: intervals shaded over the whole chart, instants as dashed lines; their labels sit
 * above the chart in lanes, a label going to the first lane where it covers no other. */
static void script_faults(buf *out, const tl_model *m, tunit u)
{
    enum { LANES = 5 };
    double lane_end[LANES];
    for (int l = 0; l < LANES; l++) lane_end[l] = -1e300;
    double xmax = (double)m->end / u.div * 1.02, char_w = xmax * 8.5 / 1400;
    int nlanes = 0;
    for (size_t i = 0; i < m->nfaults; i++) {
        const tl_fault *f = &m->faults[i];
        double x0 = (double)f->from / u.div, x1 = (double)f->to / u.div;
        if (f->to > f->from)
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
        gp_str(out, tx.p);
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
                   (double)s->from / u.div, row_y(m, m->nclients - 1) - 0.5, (double)s->to / u.div,
                   row_y(m, 0) + 0.5);
    }
}

/* Labels inside boxes (owners on node rows), tokens, clock jumps. */
static void script_labels(buf *out, const tl_model *m, tunit u)
{
    double min_w = (double)m->end / u.div / 40;
    for (size_t i = 0; i < m->nspans; i++) {
        const tl_span *s = &m->spans[i];
        if (s->kind != TL_OWNED || s->owner < 0) continue;
        double x0 = (double)s->from / u.div, x1 = (double)s->to / u.div;
        if (x1 - x0 < min_w) continue;
        buf_puts(out, "set label ");
        gp_str(out, m->rows[s->owner].name);
        buf_printf(out, " at %.6f, %.3f center front tc rgb '#ffffff' font ',15'\n", (x0 + x1) / 2, row_y(m, s->row));
    }
    for (size_t i = 0; i < m->nmarks; i++) {
        const tl_mark *k = &m->marks[i];
        if (k->row < 0) continue;
        double x = (double)k->t / u.div, y = row_y(m, k->row);
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
        gp_str(&cmd, tt.p);
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
        double y = row_y(m, s->row), x0 = (double)s->from / u.div, x1 = (double)s->to / u.div;
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

static void timeline_script(const tl_model *m, const scenario *sc, uint64_t seed, int png, const char *output, buf *out)
{
    tunit u = unit_for(m->end);
    script_header(out, m, sc, seed, png, output, u);
    script_faults(out, m, u);
    script_labels(out, m, u);
    script_plot(out, m, u);
}

/* ---- running gnuplot ---- */

/* 1 when an executable `name` is on $PATH. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    buf b;
    buf_init(&b);
    int found = 0;
    while (!found) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        buf_reset(&b);
        if (len) buf_append(&b, path, len);
        else buf_putc(&b, '.');
        buf_printf(&b, "/%s", name);
        found = access(b.p, X_OK) == 0;
        if (!colon) break;
        path = colon + 1;
    }
    buf_release(&b);
    return found;
}

/* An anonymous temporary file (already unlinked), or -1. */
static int anon_file(void)
{
    const char *dir = getenv("TMPDIR");
    buf b;
    buf_init(&b);
    buf_printf(&b, "%s/locklab-gnuplot-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(b.p);
    if (fd >= 0) unlink(b.p);
    buf_release(&b);
    return fd;
}

/* The first line of gnuplot's complaint that says something. */
static void first_error_line(int fd, buf *err)
{
    char text[2048];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0) {
        buf_puts(err, "no message");
        return;
    }
    text[n] = 0;
    char *line = text, *best = NULL;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (!best && (strstr(line, "rror") || !strncmp(line, "line ", 5) || strstr(line, " line "))) best = line;
        line = nl ? nl + 1 : NULL;
    }
    buf_puts(err, best ? best : text);
}

/* Runs gnuplot on script; -1 with err and *io set when it is missing (io 0) or fails (io 1). */
static int run_gnuplot(const buf *script, buf *err, int *io)
{
    if (!on_path("gnuplot")) {
        buf_puts(err, "gnuplot is not installed (install it with 'make deps' or 'apt-get install gnuplot-nox')");
        *io = 0;
        return -1;
    }
    int in = anon_file(), errfd = anon_file();
    if (in < 0 || errfd < 0 || write(in, script->p, script->len) != (ssize_t)script->len || lseek(in, 0, SEEK_SET) != 0) {
        buf_printf(err, "cannot make a temporary file for gnuplot: %s", strerror(errno));
        if (in >= 0) close(in);
        if (errfd >= 0) close(errfd);
        *io = 1;
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in, 0);
        dup2(errfd, 1);
        dup2(errfd, 2);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    int status = 0, rc = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) {
        buf_printf(err, "cannot run gnuplot: %s", strerror(errno));
        rc = -1;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        buf_puts(err, "gnuplot failed: ");
        first_error_line(errfd, err);
        rc = -1;
    }
    close(in);
    close(errfd);
    if (rc) *io = 1;
    return rc;
}

int timeline_path_ok(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && (!strcasecmp(path + n - 4, ".png") || !strcasecmp(path + n - 4, ".svg"));
}

/* Renders into `target` (which must not exist yet or may be overwritten). */
static int render(const history *h, const scenario *sc, uint64_t seed, int png, const char *target, buf *err, int *io)
{
    tl_model m;
    tl_build(h, sc, &m);
    buf script;
    buf_init(&script);
    timeline_script(&m, sc, seed, png, target, &script);
    int rc = run_gnuplot(&script, err, io);
    struct stat st;
    if (rc == 0 && (stat(target, &st) != 0 || st.st_size == 0)) {
        buf_puts(err, "gnuplot failed: it wrote nothing");
        *io = 1;
        rc = -1;
    }
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
    buf tmp;
    buf_init(&tmp);
    tmp_name(path, &tmp);
    /* Can we write there at all? Say so in our words, before gnuplot tries. */
    FILE *probe = fopen(tmp.p, "wb");
    if (!probe) {
        buf_printf(err, "cannot write '%s': %s", path, strerror(errno));
        buf_release(&tmp);
        *io = 1;
        return -1;
    }
    fclose(probe);
    int rc = render(h, sc, seed, png, tmp.p, err, io);
    if (rc == 0 && rename(tmp.p, path) != 0) {
        buf_printf(err, "cannot write '%s': %s", path, strerror(errno));
        *io = 1;
        rc = -1;
    }
    if (rc) remove(tmp.p);
    buf_release(&tmp);
    return rc;
}

int timeline_svg(const history *h, const scenario *sc, uint64_t seed, buf *out, buf *err, int *io)
{
    *io = 0;
    const char *dir = getenv("TMPDIR");
    buf tmp;
    buf_init(&tmp);
    buf_printf(&tmp, "%s/locklab-timeline-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp.p);
    if (fd < 0) {
        buf_printf(err, "cannot make a temporary file for gnuplot: %s", strerror(errno));
        buf_release(&tmp);
        *io = 1;
        return -1;
    }
    close(fd);
    int rc = render(h, sc, seed, 0, tmp.p, err, io);
    if (rc == 0) {
        FILE *f = fopen(tmp.p, "rb");
        char chunk[8192];
        size_t n;
        while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_append(out, chunk, n);
        if (f) fclose(f);
    }
    remove(tmp.p);
    buf_release(&tmp);
    return rc;
}
