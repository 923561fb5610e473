/* matrix.c — the lock-design matrix rendered (see matrix.h): what each cell says, the text
 * table, the CSV and the heat map (the HTML pages: matrix_html.c).
 *
 * The text table puts a block of lines under each design, one per property, and a column per
 * situation; a verdict is ✓ or ✗ (· not judged there, – the situation does not apply), and a
 * mark after it says how it stands against the design's source. Under each block come the
 * source's words and the notes the table gives for its marked or violated cells, so that the
 * table can be read without the file. The HTML page is the same table with each cell a link
 * to its run's player page (html_player.c, written by the command), each tooltip saying the
 * verdict, the claim and the scenario to replay, and the notes under each design. The heat map is the same grid in colour, drawn by gnuplot. */
#include "matrixint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"

const matrix_cell *matrix_cell_at(const matrix_result *r, int row, int col)
{
    return &r->cells[row * r->t->ncols + col];
}

matrix_mark matrix_mark_of(const matrix_result *r, int row, int col, int p)
{
    const matrix_cell *c = matrix_cell_at(r, row, col);
    if (!c->ran || c->v[p] == VERDICT_NOT_JUDGED) return MARK_NONE;
    int claim = matrix_claim(r->t, &r->t->rows[row], col, p);
    int violated = c->v[p] == VERDICT_VIOLATED;
    if (claim != CLAIM_NONE) return violated == (claim == CLAIM_VIOLATED) ? MARK_AGREES : MARK_CONTRADICTS;
    return violated && r->t->rows[row].source ? MARK_UNWARNED : MARK_NONE;
}

int matrix_unmet(const matrix_result *r, int row, int col, int p)
{
    const matrix_cell *c = matrix_cell_at(r, row, col);
    if (!c->ran || c->expect[p] < 0) return 0;
    return c->v[p] == VERDICT_NOT_JUDGED || (c->v[p] == VERDICT_VIOLATED) != c->expect[p];
}

/* Property p of a row is judged in some cell, and in none did its monitor see an event of
 * the lock it judges (every judged cell holds, unobserved; a row's unobservable excuses it, and
 * then no cell records it unseen). */
static int never_observed(const matrix_result *r, int row, int p)
{
    int judged = 0;
    for (int c = 0; c < r->t->ncols; c++) {
        const matrix_cell *cell = matrix_cell_at(r, row, c);
        if (!cell->ran || cell->v[p] == VERDICT_NOT_JUDGED) continue;
        judged = 1;
        if (cell->v[p] == VERDICT_VIOLATED || !cell->unseen || !cell->unseen[p]) return 0;
    }
    return judged;
}

int matrix_hollow_total(const matrix_result *r)
{
    int n = 0;
    for (int i = 0; i < r->t->nrows * r->t->ncols; i++) {
        const matrix_cell *c = &r->cells[i];
        if (c->ran) n += c->vacuous != NULL || c->stale;
    }
    for (int row = 0; row < r->t->nrows; row++)
        for (int p = 0; p < r->t->nprops; p++) n += never_observed(r, row, p);
    return n;
}

/* A cell's scenario as outputs name it (relative: the table's shown folder). */
void matrix_shown_cell(const matrix_table *t, int row, int c, buf *out)
{
    buf_printf(out, "%s/%s/%s.lua", t->shown_dir, t->rows[row].id, t->col_id[c]);
}

/* "∅" after a verdict that has no evidence behind it: the cell's fault never reached the lock,
 * or the property holds with no event of the lock its monitor judges. */
const char *matrix_hollow(const matrix_cell *c, int p)
{
    if (!c->ran) return "";
    return c->vacuous || c->stale || (c->unseen && c->unseen[p]) ? "∅" : "";
}

int matrix_unmet_total(const matrix_result *r)
{
    int unmet = 0;
    for (int row = 0; row < r->t->nrows; row++)
        for (int c = 0; c < r->t->ncols; c++)
            for (int p = 0; p < r->t->nprops; p++) unmet += matrix_unmet(r, row, c, p);
    return unmet;
}

const char *matrix_glyph(const matrix_cell *c, int p)
{
    if (!c->ran) return "–";
    return c->v[p] == VERDICT_HOLDS ? "✓" : c->v[p] == VERDICT_VIOLATED ? "✗" : "·";
}

const char *matrix_verdict_text(const matrix_cell *c, int p)
{
    if (!c->ran) return "not_applicable";
    return c->v[p] == VERDICT_HOLDS ? "holds" : c->v[p] == VERDICT_VIOLATED ? "violated" : "not_judged";
}

const char *const matrix_mark_text[] = { "", "=", "!", "?" };
static const char *const mark_word[] = { "", "agrees", "contradicts", "unwarned" };

/* Display columns of UTF-8 text: one per code point. */
static int width_of(const char *s)
{
    return (int)ll_utf8_width(s);
}

static void pad(buf *out, const char *s, int width)
{
    buf_puts(out, s);
    for (int w = width_of(s); w < width; w++) buf_putc(out, ' ');
}

/* "mutual exclusion" for mutual_exclusion. */
void matrix_prop_label(const char *name, buf *out)
{
    for (; *name; name++) buf_putc(out, *name == '_' ? ' ' : *name);
}

/* text, word-wrapped to PROSE_WIDTH, after lead; the lines after the first start with
 * indent spaces. */
static void wrap(buf *out, const char *lead, int indent, const char *text)
{
    buf_puts(out, lead);
    int col = width_of(lead), fresh = 1; /* fresh: nothing on this line after the lead yet */
    for (const char *p = text; *p;) {
        if (*p == ' ' || *p == '\n') {
            p++;
            continue;
        }
        size_t n = strcspn(p, " \n");
        int w = 0;
        for (size_t i = 0; i < n; i++) w += ((unsigned char)p[i] & 0xC0) != 0x80;
        if (!fresh && col + 1 + w > PROSE_WIDTH) {
            buf_printf(out, "\n%*s", indent, "");
            col = indent;
            fresh = 1;
        }
        if (!fresh) {
            buf_putc(out, ' ');
            col++;
        }
        buf_append(out, p, n);
        col += w;
        fresh = 0;
        p += n;
    }
    buf_putc(out, '\n');
}

static int col_width(const matrix_table *t)
{
    int w = 7;
    for (int c = 0; c < t->ncols; c++)
        if (width_of(t->col_short[c]) > w) w = width_of(t->col_short[c]);
    return w + 1;
}

/* The strongest mark of a cell over its properties, for its note: ! over ? over = over none. */
static matrix_mark cell_mark(const matrix_result *r, int row, int col)
{
    static const int rank[] = { 0, 1, 3, 2 };
    matrix_mark m = MARK_NONE;
    for (int p = 0; p < r->t->nprops; p++) {
        matrix_mark k = matrix_mark_of(r, row, col, p);
        if (rank[k] > rank[m]) m = k;
    }
    return m;
}

/* A cell's note, led by its strongest mark, or by ✗ (a violation in a row without a source) or
 * ✓ (every property holds: the note says why, which a reader of a ✓ needs as much). */
const char *matrix_note_of(const matrix_result *r, int row, int col, const char **lead)
{
    const matrix_row *rw = &r->t->rows[row];
    const matrix_cell *cell = matrix_cell_at(r, row, col);
    if (!cell->ran) {
        *lead = "–";
        return rw->na[col];
    }
    matrix_mark m = cell_mark(r, row, col);
    int violated = 0;
    for (int p = 0; p < r->t->nprops; p++) violated |= cell->v[p] == VERDICT_VIOLATED;
    *lead = m != MARK_NONE ? matrix_mark_text[m] : violated ? "✗" : "✓";
    return rw->note[col];
}

/* Per property of a row: where it held with no event of the lock for its monitor to judge, as
 * one line led by ∅ (NEVER OBSERVED when that is every cell judging it), or the row's reason it
 * cannot be observed (○). Lines into out, each ending in a newline. */
void matrix_observation_lines(const matrix_result *r, int row, buf *out)
{
    const matrix_table *t = r->t;
    const matrix_row *rw = &t->rows[row];
    for (int p = 0; p < t->nprops; p++) {
        buf label;
        buf_init(&label);
        matrix_prop_label(t->props[p], &label);
        if (rw->unobservable[p]) {
            buf_printf(out, "○ %s cannot be observed on this design: %s\n", label.p, rw->unobservable[p]);
            buf_release(&label);
            continue;
        }
        buf cols, why;
        buf_init(&cols);
        buf_init(&why);
        for (int c = 0; c < t->ncols; c++) {
            const matrix_cell *cell = matrix_cell_at(r, row, c);
            if (!cell->ran || !cell->unseen || !cell->unseen[p]) continue;
            buf_printf(&cols, "%s%s", cols.len ? ", " : "", t->col_short[c]);
            if (!why.len) buf_puts(&why, cell->unseen[p]);
        }
        if (cols.len && never_observed(r, row, p))
            buf_printf(out, "∅ %s NEVER OBSERVED on this row (%s): its ✓ are no evidence; report the lock's objects "
                       "in the monitors' vocabulary and declare them (ctx:lock_unit), or give the row's unobservable the "
                       "reason\n", label.p, why.p);
        else if (cols.len)
            buf_printf(out, "∅ %s holds unobserved in %s (%s)\n", label.p, cols.p, why.p);
        buf_release(&cols);
        buf_release(&why);
        buf_release(&label);
    }
}

/* What a cell's evidence says, beyond its note: its fault cannot reach the lock (the row
 * says why), never did (vacuous), or did although the row says it cannot (stale); and each
 * property that holds unobserved. Each a line led by `lead` (text) into out; 0 if none. */
int matrix_evidence_lines(const matrix_result *r, int row, int col, buf *out, int html)
{
    const matrix_table *t = r->t;
    const matrix_row *rw = &t->rows[row];
    const matrix_cell *cell = matrix_cell_at(r, row, col);
    if (!cell->ran) return 0;
    int n = 0;
    buf line;
    buf_init(&line);
    for (int k = 0; k < 3; k++) {
        buf_reset(&line);
        if (k == 0 && rw->untouched[col] && !cell->stale)
            buf_printf(&line, "○ %s (its fault cannot reach this lock): %s", html ? t->col_title[col] : t->col_short[col],
                       rw->untouched[col]);
        else if (k == 1 && cell->vacuous)
            buf_printf(&line, "∅ %s VACUOUS: %s. Change the cell so that its fault reaches the lock, or give the "
                       "column in the row's untouched with the source's reason", html ? t->col_title[col] : t->col_short[col],
                       cell->vacuous);
        else if (k == 2 && cell->stale)
            buf_printf(&line, "∅ %s: the row says its fault cannot reach the lock, but it did (%s): take it out of the "
                       "row's untouched", html ? t->col_title[col] : t->col_short[col], cell->touched);
        if (!line.len) continue;
        if (n++ && html) buf_puts(out, "\n");
        buf_append(out, line.p, line.len);
        if (!html) buf_putc(out, '\n');
    }
    buf_release(&line);
    return n;
}

static void text_row(const matrix_result *r, int row, int cw, buf *out)
{
    const matrix_table *t = r->t;
    const matrix_row *rw = &t->rows[row];
    buf_printf(out, "\n%s", rw->title);
    if (rw->source) buf_printf(out, "   (claims: %s)", rw->source);
    buf_putc(out, '\n');
    for (int p = 0; p < t->nprops; p++) {
        buf label;
        buf_init(&label);
        buf_puts(&label, "  ");
        matrix_prop_label(t->props[p], &label);
        pad(out, label.p, LABEL_WIDTH);
        buf_release(&label);
        for (int c = 0; c < t->ncols; c++) {
            char cell[32];
            snprintf(cell, sizeof cell, "%s%s%s%s", matrix_glyph(matrix_cell_at(r, row, c), p),
                     matrix_mark_text[matrix_mark_of(r, row, c, p)], matrix_unmet(r, row, c, p) ? "≠" : "",
                     matrix_hollow(matrix_cell_at(r, row, c), p));
            pad(out, cell, c + 1 < t->ncols ? cw : 0);
        }
        buf_putc(out, '\n');
    }
    if (rw->says) {
        buf lead;
        buf_init(&lead);
        buf_printf(&lead, "  %s: ", rw->source);
        wrap(out, lead.p, 4, rw->says);
        buf_release(&lead);
    }
    for (int c = 0; c < t->ncols; c++) {
        const char *mk;
        const char *text = matrix_note_of(r, row, c, &mk);
        if (!text) continue;
        buf lead;
        buf_init(&lead);
        buf_printf(&lead, "  %s %s: ", mk, t->col_short[c]);
        wrap(out, lead.p, 4, text);
        buf_release(&lead);
    }
    for (int c = 0; c <= t->ncols; c++) {
        buf ev;
        buf_init(&ev);
        if (c == t->ncols) matrix_observation_lines(r, row, &ev);
        if (c == t->ncols ? ev.len > 0 : matrix_evidence_lines(r, row, c, &ev, 0))
            for (char *line = ev.p; *line;) {
                char *nl = strchr(line, '\n');
                *nl = 0;
                wrap(out, "  ", 4, line);
                line = nl + 1;
            }
        buf_release(&ev);
    }
}

void matrix_text(const matrix_result *r, buf *out)
{
    const matrix_table *t = r->t;
    int cw = col_width(t);
    buf_printf(out, "%s  (%s)\n", t->title, t->shown_path);
    wrap(out, "", 0, t->about);
    buf_putc(out, '\n');
    pad(out, "", LABEL_WIDTH);
    for (int c = 0; c < t->ncols; c++) pad(out, t->col_short[c], c + 1 < t->ncols ? cw : 0);
    buf_putc(out, '\n');
    for (int row = 0; row < t->nrows; row++) text_row(r, row, cw, out);
    buf cols;
    buf_init(&cols);
    for (int c = 0; c < t->ncols; c++) buf_printf(&cols, "%s%s = %s", c ? "; " : "", t->col_short[c], t->col_title[c]);
    buf_putc(&cols, '.');
    buf_putc(out, '\n');
    wrap(out, "columns: ", 2, cols.p);
    buf_release(&cols);
    buf_puts(out, "✓ holds  ✗ violated  · not judged in this situation  – does not apply\n"
                  "after a verdict: = as the source claims  ! the source claims otherwise  ? a violation the\n"
                  "source does not warn of  ≠ not what the cell's scenario expects  ∅ no evidence: the fault\n"
                  "never reached the lock, or the property holds with no event of the lock its monitor judges\n"
                  "○ the row's source says why its fault cannot reach this design's lock\n");
    buf_printf(out, "Each cell is a scenario: locklab run %s/<row>/<column>.lua\n", t->shown_dir);
    int runs = 0, unmet = matrix_unmet_total(r), hollow_n = matrix_hollow_total(r);
    for (int i = 0; i < t->nrows * t->ncols; i++) runs += r->cells[i].ran;
    buf_printf(out, "\n%d runs; %s.\n", runs, unmet ? "some verdicts are NOT what their scenarios expect" : "every verdict is what its scenario expects");
    if (hollow_n) buf_printf(out, "%d verdicts or cells have NO EVIDENCE behind them (∅):\n", hollow_n);
    else {
        int asked = 0, all = 1;
        for (int c = 0; c < t->ncols; c++) {
            asked |= r->exercised && r->exercised[c];
            all &= r->exercised && r->exercised[c];
        }
        if (all)
            buf_puts(out, "Every cell's fault reached the lock, or its row says why it cannot; every property was observed.\n");
        else
            buf_printf(out, "Every property was observed; %s column names how its fault must reach the lock (exercised), "
                            "so %s cells were not checked for it.\n", asked ? "not every" : "no", asked ? "some" : "the");
    }
    for (int row = 0; row < t->nrows && hollow_n; row++)
        for (int c = 0; c < t->ncols; c++) {
            const matrix_cell *cell = matrix_cell_at(r, row, c);
            if (!cell->ran) continue;
            buf cp;
            buf_init(&cp);
            matrix_shown_cell(t, row, c, &cp);
            if (cell->vacuous) buf_printf(out, "  %s: vacuous: %s\n", cp.p, cell->vacuous);
            if (cell->stale) buf_printf(out, "  %s: the row says untouched, but %s\n", cp.p, cell->touched);
            buf_release(&cp);
        }
    for (int row = 0; row < t->nrows && hollow_n; row++)
        for (int p = 0; p < t->nprops; p++)
            if (never_observed(r, row, p))
                buf_printf(out, "  %s: %s is never observed (no cell's monitor saw an event of the lock it judges)\n",
                           t->rows[row].id, t->props[p]);
    for (int row = 0; row < t->nrows && unmet; row++)
        for (int c = 0; c < t->ncols; c++)
            for (int p = 0; p < t->nprops; p++) {
                if (!matrix_unmet(r, row, c, p)) continue;
                const matrix_cell *cell = matrix_cell_at(r, row, c);
                buf cp;
                buf_init(&cp);
                matrix_shown_cell(t, row, c, &cp);
                buf_printf(out, "  %s: %s %s, expected %s\n", cp.p, t->props[p], matrix_verdict_text(cell, p),
                           cell->expect[p] ? "violated" : "holds");
                buf_release(&cp);
            }
}

static void csv_field(buf *out, const char *s)
{
    if (!s) s = "";
    if (!strpbrk(s, ",\"\n\r")) {
        buf_puts(out, s);
        return;
    }
    buf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"') buf_putc(out, '"');
        buf_putc(out, *s);
    }
    buf_putc(out, '"');
}

void matrix_csv(const matrix_result *r, buf *out)
{
    const matrix_table *t = r->t;
    buf_puts(out, "row,design,column,situation,property,verdict,expected,claim,mark,scenario,reached,observed\n");
    for (int row = 0; row < t->nrows; row++)
        for (int c = 0; c < t->ncols; c++)
            for (int p = 0; p < t->nprops; p++) {
                const matrix_cell *cell = matrix_cell_at(r, row, c);
                int claim = matrix_claim(t, &t->rows[row], c, p);
                buf cp;
                buf_init(&cp);
                if (cell->ran) matrix_shown_cell(t, row, c, &cp);
                /* reached: the column's fault reached the lock (touched), cannot by the row's
                 * source (untouched), never did (vacuous), did against the row (stale); observed:
                 * yes, no (a verdict that holds unobserved), or the row's reason it cannot be */
                const char *reached = !cell->ran                  ? ""
                                      : cell->stale               ? "stale"
                                      : cell->vacuous             ? "vacuous"
                                      : t->rows[row].untouched[c] ? "untouched"
                                      : cell->touched             ? "touched"
                                                                  : "";
                const char *observed = !cell->ran || cell->v[p] != VERDICT_HOLDS ? ""
                                       : cell->unseen && cell->unseen[p]         ? "no"
                                       : t->rows[row].unobservable[p]            ? "unobservable"
                                                                                 : "yes";
                const char *f[12] = {
                    t->rows[row].id, t->rows[row].title, t->col_id[c], t->col_title[c], t->props[p],
                    matrix_verdict_text(cell, p),
                    cell->ran && cell->expect[p] >= 0 ? (cell->expect[p] ? "violated" : "holds") : "",
                    claim == CLAIM_NONE ? "" : claim == CLAIM_VIOLATED ? "violated" : "holds",
                    mark_word[matrix_mark_of(r, row, c, p)], cell->ran ? cp.p : "", reached, observed,
                };
                for (int k = 0; k < 12; k++) {
                    if (k) buf_putc(out, ',');
                    csv_field(out, f[k]);
                }
                buf_putc(out, '\n');
                buf_release(&cp);
            }
}

/* The heat map's program: a box per verdict, coloured, with its glyph and mark on it; a
 * block of lines per design, a blank line between blocks, the first line of each named
 * with the design. */
static void plot_script(const void *ud, int svg, buf *gp)
{
    const matrix_result *r = ud;
    const matrix_table *t = r->t;
    int lines = t->nrows * (t->nprops + 1) - 1;
    buf_printf(gp, "set terminal %s size %d,%d font \"sans,10\" noenhanced\nset output",
               svg ? "svg dynamic background rgb \"white\"" : "pngcairo", 300 + 95 * t->ncols, 90 + 20 * lines);
    buf_puts(gp, "\nset title ");
    gp_quote(gp, t->title);
    buf_printf(gp, "\nunset key\nset border 0\nset tics scale 0\nset x2range [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
                   "unset xtics\nset x2tics (",
               t->ncols - 1, lines - 1);
    for (int c = 0; c < t->ncols; c++) {
        buf_puts(gp, c ? ", " : "");
        gp_quote_format(gp, t->col_short[c]);
        buf_printf(gp, " %d", c);
    }
    buf_puts(gp, ")\nset ytics (");
    for (int row = 0; row < t->nrows; row++)
        for (int p = 0; p < t->nprops; p++) {
            buf label;
            buf_init(&label);
            if (p == 0) buf_printf(&label, "%s   ", t->rows[row].title);
            matrix_prop_label(t->props[p], &label);
            buf_puts(gp, row || p ? ", " : "");
            gp_quote_format(gp, label.p);
            buf_printf(gp, " %d", row * (t->nprops + 1) + p);
            buf_release(&label);
        }
    buf_puts(gp, ")\n$data << EOD\n");
    for (int row = 0; row < t->nrows; row++)
        for (int c = 0; c < t->ncols; c++)
            for (int p = 0; p < t->nprops; p++) {
                const matrix_cell *cell = matrix_cell_at(r, row, c);
                unsigned colour = !cell->ran ? 0xffffff : cell->v[p] == VERDICT_HOLDS ? 0xa5d6a7
                                  : cell->v[p] == VERDICT_VIOLATED                  ? 0xef9a9a
                                                                                     : 0xeeeeee;
                buf label;
                buf_init(&label);
                buf_printf(&label, "%s%s%s", matrix_glyph(cell, p), matrix_mark_text[matrix_mark_of(r, row, c, p)],
                           matrix_unmet(r, row, c, p) ? "≠" : "");
                /* a datablock's text column: double-quoted as a data file has it; the label
                 * is locklab's own glyphs and marks, never a user's text */
                buf_printf(gp, "%d %d %u \"%s\"", c, row * (t->nprops + 1) + p, colour, label.p);
                buf_putc(gp, '\n');
                buf_release(&label);
            }
    buf_puts(gp, "EOD\nset bmargin 3\nset label 1 \"= as the source claims   ! the source claims otherwise   ? a violation the source "
                 "does not warn of\" at screen 0.5, screen 0.01 center\n"
                 "plot $data using 1:2:(0.47):(0.45):3 axes x2y1 with boxxyerror fs solid 1.0 noborder lc rgb variable, "
                 "$data using 1:2:4 axes x2y1 with labels font \",11\"\nunset output\n");
}

int matrix_plot(const matrix_result *r, const char *path, buf *err)
{
    return gp_draw(path, plot_script, r, err);
}
