/* termline.c — the compact terminal timeline printed under `locklab run`: one row per actor,
 * each column a slice of true time, a character for what the actor was doing in it.
 *
 *     A    ████▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒!!!!!▒▒▒▒▒███
 *     n1   AAAAAAAAAAAAAAAAAAAAA  BBBBBB
 *
 * A column shows the most telling thing that happened in its slice (crash over overlap over
 * pause over holding over waiting), so a 1 ms critical section in a 15 s run still shows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "timeline.h"

/* Cell values, in order of precedence (the highest wins a column). */
enum { C_EMPTY, C_WAIT, C_HOLD, C_PAUSE, C_OVERLAP, C_CRASH, C_OWNQ, C_OWN /* + owner row */ };
#define C_DOWN 1000
#define C_JUMP 1001

static const char *client_glyph[] = { " ", "─", "█", "▒", "!", "✗" };

int termline_width(void)
{
    const char *cols = getenv("COLUMNS");
    if (cols && *cols) {
        char *end;
        long v = strtol(cols, &end, 10);
        if (!*end && v > 0) return (int)v;
    }
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

static int span_rank(const tl_span *s)
{
    switch (s->kind) {
    case TL_WAIT: return C_WAIT;
    case TL_HOLD: return C_HOLD;
    case TL_PAUSE: return C_PAUSE;
    case TL_OVERLAP: return C_OVERLAP;
    case TL_CRASH: return C_CRASH;
    case TL_OWNED: return s->owner < 0 ? C_OWNQ : C_OWN + s->owner;
    case TL_DOWN: return C_DOWN;
    }
    return C_EMPTY;
}

/* Column of true time t among n columns over [0, end]. */
static int col_of(int64_t t, int64_t end, int n)
{
    int c = (int)((double)t * n / (double)end);
    return c < 0 ? 0 : c >= n ? n - 1 : c;
}

static void put_time(buf *out, int64_t us, int64_t end)
{
    if (end < 2000000) buf_printf(out, "%lldms", (long long)(us / 1000));
    else if (end < 300000000) buf_printf(out, "%.1fs", (double)us / 1e6);
    else buf_printf(out, "%.1fmin", (double)us / 6e7);
}

static void pad(buf *out, int n)
{
    for (int i = 0; i < n; i++) buf_putc(out, ' ');
}

static void render_row(const tl_model *m, int r, int *cells, int n, buf *out)
{
    for (int i = 0; i < n; i++) cells[i] = C_EMPTY;
    for (size_t i = 0; i < m->nspans; i++) {
        const tl_span *s = &m->spans[i];
        if (s->row != r) continue;
        int rank = span_rank(s);
        for (int c = col_of(s->from_us, m->end_us, n); c <= col_of(s->to_us, m->end_us, n); c++)
            if (rank > cells[c] || rank == C_DOWN) cells[c] = rank;
    }
    for (size_t i = 0; i < m->nmarks; i++)
        if (m->marks[i].row == r && m->marks[i].kind == TL_CLOCK_JUMP) cells[col_of(m->marks[i].t_us, m->end_us, n)] = C_JUMP;
    for (int i = 0; i < n; i++) {
        int v = cells[i];
        if (v == C_DOWN) buf_puts(out, "✗");
        else if (v == C_JUMP) buf_puts(out, "↯");
        else if (v == C_OWNQ) buf_putc(out, '?');
        else if (v >= C_OWN) buf_putc(out, m->rows[v - C_OWN].sym);
        else buf_puts(out, client_glyph[v]);
    }
}

/* Appends words to the legend, wrapping at width. */
static void legend_word(buf *out, int *col, int width, int indent, const char *word, int word_cols)
{
    if (*col + 2 + word_cols > width && *col > indent) {
        buf_putc(out, '\n');
        pad(out, indent);
        *col = indent;
    } else if (*col > indent + 1) {
        buf_puts(out, "  ");
        *col += 2;
    }
    buf_puts(out, word);
    *col += word_cols;
}

/* Display columns of a UTF-8 string (every glyph used here is one column wide). */
static int cols_of(const char *s)
{
    return (int)ll_utf8_width(s);
}

void termline_render(const history *h, const scenario *sc, int width, buf *out)
{
    if (width < 40) width = 40;
    if (width > 400) width = 400;
    tl_model m;
    tl_build(h, sc, &m);
    int label = 4;
    for (int r = 0; r < m.nrows; r++)
        if ((int)strlen(m.rows[r].name) + 1 > label) label = (int)strlen(m.rows[r].name) + 1;
    if (label > 12) label = 12;
    int n = width - label;
    int *cells = xmalloc((size_t)n * sizeof *cells);
    for (int r = 0; r < m.nrows; r++) {
        char name[16];
        snprintf(name, sizeof name, "%-*.*s", label, label - 1, m.rows[r].name);
        buf_puts(out, name);
        render_row(&m, r, cells, n, out);
        buf_putc(out, '\n');
    }
    /* the time axis: 0 on the left, the end on the right, the middle in between */
    buf axis, end, mid;
    buf_init(&axis);
    buf_init(&end);
    buf_init(&mid);
    put_time(&end, m.end_us, m.end_us);
    put_time(&mid, m.end_us / 2, m.end_us);
    buf_puts(&axis, "0");
    int midpos = n / 2 - (int)mid.len / 2, endpos = n - (int)end.len;
    if (midpos > 2 && midpos + (int)mid.len + 2 < endpos) {
        pad(&axis, midpos - 1);
        buf_puts(&axis, mid.p);
    }
    pad(&axis, endpos - (int)axis.len);
    buf_puts(&axis, end.p);
    pad(out, label);
    buf_puts(out, axis.p);
    buf_putc(out, '\n');
    buf_release(&axis);
    buf_release(&end);
    buf_release(&mid);

    /* the legend */
    int col = 0;
    buf_puts(out, "legend:");
    col = 8;
    buf_putc(out, ' ');
    static const char *const words[] = { "─ waiting", "█ holding", "▒ paused (GC)", "✗ crashed/down",
                                         "! two inside at once" };
    for (size_t i = 0; i < LL_ARRAY_LEN(words); i++) legend_word(out, &col, width, 8, words[i], cols_of(words[i]));
    if (m.nclients < m.nrows) {
        buf w;
        buf_init(&w);
        for (int r = 0; r < m.nclients; r++) {
            buf_reset(&w);
            buf_printf(&w, "%c lock key set by %s", m.rows[r].sym, m.rows[r].name);
            legend_word(out, &col, width, 8, w.p, cols_of(w.p));
        }
        buf_release(&w);
        legend_word(out, &col, width, 8, "↯ clock jump", cols_of("↯ clock jump"));
    }
    buf_putc(out, '\n');
    free(cells);
    tl_release(&m);
}
