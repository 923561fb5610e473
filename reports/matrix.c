/* matrix.c — the lock-design matrix rendered (see matrix.h): text, CSV, HTML and a heat map.
 *
 * The text table puts a block of lines under each design, one per property, and a column per
 * situation; a verdict is ✓ or ✗ (· not judged there, – the situation does not apply), and a
 * mark after it says how it stands against the design's source. Under each block come the
 * source's words and the notes the table gives for its marked or violated cells, so that the
 * table can be read without the file. The HTML page is the same table with each cell a link
 * to its run's player page (html_player.c, written by the command), each tooltip saying the
 * verdict, the claim and the scenario to replay, and the notes under each design. The heat map is the same grid in colour, drawn by gnuplot. */
#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "html.h"

enum { PROSE_WIDTH = 92, LABEL_WIDTH = 20 };

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
static void shown_cell(const matrix_table *t, int row, int c, buf *out)
{
    buf_printf(out, "%s/%s/%s.lua", t->shown_dir, t->rows[row].id, t->col_id[c]);
}

/* "∅" after a verdict that has no evidence behind it: the cell's fault never reached the lock,
 * or the property holds with no event of the lock its monitor judges. */
static const char *hollow(const matrix_cell *c, int p)
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

static const char *glyph(const matrix_cell *c, int p)
{
    if (!c->ran) return "–";
    return c->v[p] == VERDICT_HOLDS ? "✓" : c->v[p] == VERDICT_VIOLATED ? "✗" : "·";
}

static const char *verdict_text(const matrix_cell *c, int p)
{
    if (!c->ran) return "not_applicable";
    return c->v[p] == VERDICT_HOLDS ? "holds" : c->v[p] == VERDICT_VIOLATED ? "violated" : "not_judged";
}

static const char *const mark_text[] = { "", "=", "!", "?" };
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
static void prop_label(const char *name, buf *out)
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
static const char *note_of(const matrix_result *r, int row, int col, const char **lead)
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
    *lead = m != MARK_NONE ? mark_text[m] : violated ? "✗" : "✓";
    return rw->note[col];
}

/* Per property of a row: where it held with no event of the lock for its monitor to judge, as
 * one line led by ∅ (NEVER OBSERVED when that is every cell judging it), or the row's reason it
 * cannot be observed (○). Lines into out, each ending in a newline. */
static void observation_lines(const matrix_result *r, int row, buf *out)
{
    const matrix_table *t = r->t;
    const matrix_row *rw = &t->rows[row];
    for (int p = 0; p < t->nprops; p++) {
        buf label;
        buf_init(&label);
        prop_label(t->props[p], &label);
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
static int evidence_lines(const matrix_result *r, int row, int col, buf *out, int html)
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
        prop_label(t->props[p], &label);
        pad(out, label.p, LABEL_WIDTH);
        buf_release(&label);
        for (int c = 0; c < t->ncols; c++) {
            char cell[32];
            snprintf(cell, sizeof cell, "%s%s%s%s", glyph(matrix_cell_at(r, row, c), p),
                     mark_text[matrix_mark_of(r, row, c, p)], matrix_unmet(r, row, c, p) ? "≠" : "",
                     hollow(matrix_cell_at(r, row, c), p));
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
        const char *text = note_of(r, row, c, &mk);
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
        if (c == t->ncols) observation_lines(r, row, &ev);
        if (c == t->ncols ? ev.len > 0 : evidence_lines(r, row, c, &ev, 0))
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
            shown_cell(t, row, c, &cp);
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
                shown_cell(t, row, c, &cp);
                buf_printf(out, "  %s: %s %s, expected %s\n", cp.p, t->props[p], verdict_text(cell, p),
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
                if (cell->ran) shown_cell(t, row, c, &cp);
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
                    verdict_text(cell, p),
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

static const char css[] =
    "body{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:16px;line-height:1.4;margin:1.5em auto;"
    "max-width:1400px;padding:0 1em;color:#212121;background:#fff}"
    "h1{font-size:1.6em;margin:.2em 0}.about{background:#f5f7fa;border-left:6px solid #1565c0;padding:.5em 1em}"
    "table.matrix{border-collapse:collapse;margin:1em 0}"
    ".matrix th,.matrix td{border:1px solid #ccc;padding:.2em .45em;text-align:center}"
    ".matrix th.d{text-align:left;vertical-align:top;max-width:14em;background:#fafafa}"
    ".matrix td.p{text-align:left;color:#444;white-space:nowrap}"
    ".matrix td.holds{background:#c8e6c9}.matrix td.violated{background:#ffcdd2}"
    ".matrix td.nj{background:#f5f5f5;color:#999}.matrix td.na{background:#fff;color:#999}"
    ".matrix td{white-space:nowrap}.matrix td.n{white-space:normal;text-align:left}.matrix td a{color:inherit;text-decoration:none;font-weight:bold}"
    ".matrix td.contradicts{outline:3px solid #b71c1c;outline-offset:-3px}"
    ".matrix td.unmet{outline:3px dashed #000;outline-offset:-3px}"
    "sup{font-weight:bold;color:#b71c1c}.src{font-size:.85em;color:#555}"
    ".notes{font-size:.92em;margin:.2em 0 1.2em 1em}.notes li{margin:.2em 0}.legend{font-size:.92em;color:#333}"
    /* the detailed table's headers stay in view while it scrolls */
    ".matrix thead th{position:sticky;top:0;z-index:2;background:#eceff1;box-shadow:0 1px 0 #ccc}"
    /* the overview: the whole table in one screen (1280 × 800) */
    "#overview{width:1240px;max-width:100%;font-size:13px;line-height:1.2}"
    "#overview h2{font-size:17px;margin:0 0 4px}"
    "table.overview{border-collapse:collapse;table-layout:fixed;width:100%}"
    ".overview th,.overview td{border:1px solid #bbb;padding:2px 3px;text-align:center;height:22px;overflow:hidden;line-height:1.1}"
    ".overview thead th{background:#eceff1;font-weight:bold}"
    ".overview th.d{text-align:left;width:250px;white-space:nowrap;text-overflow:ellipsis;font-weight:normal;background:#fafafa}"
    ".overview td a{color:inherit;text-decoration:none;display:block}"
    ".overview td small{font-size:9px;color:#333;margin-left:2px;white-space:normal}"
    ".overview td.ok{background:#c8e6c9}.overview td.warned{background:#fff3c4}"
    ".overview td.unwarned{background:#ffcc80}.overview td.contra{background:#ef9a9a}.overview td.plain{background:#ffcdd2}"
    ".overview td.na{background:#fff;color:#999}.overview td.unmet{outline:2px dashed #000;outline-offset:-2px}"
    "#overview .key span{display:inline-block;padding:0 6px;margin-right:6px;border:1px solid #bbb}"
    /* a phone or a narrow window: each table scrolls sideways in its own box, not the page */
    "@media (max-width:900px){body{font-size:14px;margin:.5em auto;padding:0 .5em}"
    "table.matrix,table.overview{display:block;overflow-x:auto;max-width:100%}"
    "table.overview{width:auto}.overview th.d{width:auto;max-width:12em}"
    ".matrix thead th{position:static}}";

static void html_cell(const matrix_result *r, int row, int c, int p, buf *out)
{
    const matrix_table *t = r->t;
    const matrix_cell *cell = matrix_cell_at(r, row, c);
    matrix_mark m = matrix_mark_of(r, row, c, p);
    const char *cls = !cell->ran ? "na" : cell->v[p] == VERDICT_HOLDS ? "holds" : cell->v[p] == VERDICT_VIOLATED ? "violated" : "nj";
    buf tip;
    buf_init(&tip);
    buf_printf(&tip, "%s, %s: %s %s", t->rows[row].title, t->col_title[c], t->props[p], verdict_text(cell, p));
    int claim = matrix_claim(t, &t->rows[row], c, p);
    if (claim != CLAIM_NONE) buf_printf(&tip, "; %s claims it %s", t->rows[row].source, claim ? "is violated" : "holds");
    if (m == MARK_UNWARNED) buf_printf(&tip, "; %s does not warn of it", t->rows[row].source);
    if (matrix_unmet(r, row, c, p)) buf_puts(&tip, "; NOT what the scenario expects");
    if (!cell->ran && t->rows[row].na[c]) buf_printf(&tip, ": %s", t->rows[row].na[c]);
    if (cell->ran && cell->touched && !cell->stale) buf_printf(&tip, "; the situation reached the lock: %s", cell->touched);
    if (cell->ran && (cell->vacuous || cell->stale)) buf_puts(&tip, "; NO EVIDENCE: the fault never reached the lock");
    if (cell->ran && cell->unseen && cell->unseen[p]) buf_printf(&tip, "; UNOBSERVED: %s", cell->unseen[p]);
    if (cell->ran) {
        buf_puts(&tip, ". Replay: locklab run ");
        shown_cell(t, row, c, &tip);
    }
    buf_printf(out, "<td class=\"%s%s%s\" title=\"", cls, m == MARK_CONTRADICTS ? " contradicts" : "",
               matrix_unmet(r, row, c, p) ? " unmet" : "");
    html_esc(out, tip.p);
    buf_puts(out, "\">");
    buf_release(&tip);
    if (cell->ran && cell->page) {
        buf_puts(out, "<a href=\"");
        html_esc(out, cell->page);
        if (cell->v[p] == VERDICT_VIOLATED) { /* the player opens at the moment it breaks */
            buf_puts(out, "#violation=");
            html_esc(out, t->props[p]);
        }
        buf_printf(out, "\">%s</a>", glyph(cell, p));
    } else {
        buf_puts(out, glyph(cell, p));
    }
    if (m != MARK_NONE) buf_printf(out, "<sup>%s</sup>", mark_text[m]);
    if (matrix_unmet(r, row, c, p)) buf_puts(out, "<sup>≠</sup>");
    if (*hollow(cell, p)) buf_puts(out, "<sup>∅</sup>");
    buf_puts(out, "</td>");
}

static void html_notes(const matrix_result *r, int row, buf *out)
{
    const matrix_table *t = r->t;
    const matrix_row *rw = &t->rows[row];
    int any = rw->says != NULL;
    for (int c = 0; c < t->ncols && !any; c++) any = rw->note[c] || rw->na[c] || rw->untouched[c];
    for (int c = 0; c <= t->ncols && !any; c++) {
        buf ev;
        buf_init(&ev);
        if (c == t->ncols) observation_lines(r, row, &ev);
        any = c == t->ncols ? ev.len > 0 : evidence_lines(r, row, c, &ev, 1);
        buf_release(&ev);
    }
    if (!any) return;
    buf_printf(out, "<tr><td class=\"n\" colspan=\"%d\"><ul class=\"notes\">", t->ncols + 2);
    if (rw->says) {
        buf_puts(out, "<li><b>");
        html_esc(out, rw->source);
        buf_puts(out, " says:</b> ");
        html_esc(out, rw->says);
        buf_puts(out, "</li>");
    }
    for (int c = 0; c < t->ncols; c++) {
        const char *mk;
        const char *text = note_of(r, row, c, &mk);
        if (!text) continue;
        buf_printf(out, "<li><b>%s ", mk);
        html_esc(out, t->col_title[c]);
        buf_puts(out, ":</b> ");
        html_esc(out, text);
        buf_puts(out, "</li>");
    }
    for (int c = 0; c <= t->ncols; c++) {
        buf ev;
        buf_init(&ev);
        if (c == t->ncols) observation_lines(r, row, &ev);
        if (c == t->ncols ? ev.len > 0 : evidence_lines(r, row, c, &ev, 1))
            for (char *line = ev.p; line && *line;) {
                char *nl = strchr(line, '\n');
                if (nl) *nl = 0;
                buf_puts(out, "<li>");
                html_esc(out, line);
                buf_puts(out, "</li>");
                line = nl ? nl + 1 : NULL;
            }
        buf_release(&ev);
    }
    buf_puts(out, "</ul></td></tr>\n");
}

/* A property's short name in the overview: ME, RS, Rel, ND, Re (others: as named). */
static const char *prop_abbrev(const char *name)
{
    static const char *const k[][2] = { { "mutual_exclusion", "ME" }, { "resource_safety", "RS" },
                                        { "release_safety", "Rel" }, { "no_deadlock", "ND" }, { "reentrancy", "Re" } };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(name, k[i][0])) return k[i][1];
    return name;
}

/* One overview cell: ✓ when every judged property holds, else ✗ with the strongest mark among
 * the violated ones (! over ? over =), coloured by it, and each violated property named with
 * its own mark ("ME= RS?"), so that a cell whose source warns of one violation and not of
 * another says which; a click opens the run, where the first violation breaks. */
static void overview_cell(const matrix_result *r, int row, int c, buf *out)
{
    const matrix_table *t = r->t;
    const matrix_cell *cell = matrix_cell_at(r, row, c);
    if (!cell->ran) {
        buf_puts(out, "<td class=\"na\" title=\"");
        buf tip;
        buf_init(&tip);
        buf_printf(&tip, "%s, %s: does not apply%s%s", t->rows[row].title, t->col_title[c], t->rows[row].na[c] ? ": " : "",
                   t->rows[row].na[c] ? t->rows[row].na[c] : "");
        html_esc(out, tip.p);
        buf_release(&tip);
        buf_puts(out, "\">–</td>");
        return;
    }
    int nviol = 0, first = -1, unmet = 0, mixed = 0;
    matrix_mark worst = MARK_NONE, first_mark = MARK_NONE;
    static const int rank[] = { [MARK_NONE] = 0, [MARK_AGREES] = 1, [MARK_UNWARNED] = 2, [MARK_CONTRADICTS] = 3 };
    buf names, plain, tip;
    buf_init(&names);
    buf_init(&plain);
    buf_init(&tip);
    buf_printf(&tip, "%s, %s:", t->rows[row].title, t->col_title[c]);
    for (int p = 0; p < t->nprops; p++) {
        unmet |= matrix_unmet(r, row, c, p);
        if (cell->v[p] != VERDICT_VIOLATED) continue;
        matrix_mark m = matrix_mark_of(r, row, c, p);
        if (rank[m] > rank[worst]) worst = m;
        if (first < 0) first = p;
        buf_printf(&names, "%s%s%s", nviol++ ? " " : "", prop_abbrev(t->props[p]), mark_text[m]);
        buf_printf(&plain, "%s%s", plain.len ? " " : "", prop_abbrev(t->props[p]));
        if (nviol == 1) first_mark = m;
        else if (m != first_mark) mixed = 1;
        buf_printf(&tip, " %s violated%s%s%s;", t->props[p], m == MARK_AGREES ? " (as the source says)" : "",
                   m == MARK_CONTRADICTS ? " (the source claims otherwise)" : "",
                   m == MARK_UNWARNED ? " (the source does not warn of it)" : "");
    }
    if (!nviol) buf_puts(&tip, " every property holds;");
    if (unmet) buf_puts(&tip, " NOT what the scenario expects;");
    int hollow_any = cell->vacuous || cell->stale; /* the overview: a cell without evidence */
    if (cell->touched && !cell->stale) buf_printf(&tip, " the situation reached the lock: %s;", cell->touched);
    if (hollow_any) buf_puts(&tip, " NO EVIDENCE behind a verdict (see the notes);");
    if (t->rows[row].note[c]) buf_printf(&tip, " %s;", t->rows[row].note[c]);
    buf_puts(&tip, " replay: locklab run ");
    shown_cell(t, row, c, &tip);
    const char *cls = !nviol                      ? "ok"
                      : worst == MARK_CONTRADICTS ? "contra"
                      : worst == MARK_UNWARNED    ? "unwarned"
                      : worst == MARK_AGREES      ? "warned"
                                                  : "plain"; /* a row without a source */
    buf_printf(out, "<td class=\"%s%s\" title=\"", cls, unmet ? " unmet" : "");
    html_esc(out, tip.p);
    buf_puts(out, "\">");
    if (cell->page) {
        buf_puts(out, "<a href=\"");
        html_esc(out, cell->page);
        if (first >= 0) {
            buf_puts(out, "#violation=");
            html_esc(out, t->props[first]);
        }
        buf_puts(out, "\">");
    }
    buf_puts(out, nviol ? "✗" : "✓");
    if (nviol && worst != MARK_NONE) buf_printf(out, "<sup>%s</sup>", mark_text[worst]);
    if (hollow_any) buf_puts(out, "<sup>∅</sup>");
    if (nviol) { /* each property's own mark where they differ: "ME= RS?" */
        buf_puts(out, "<small>");
        html_esc(out, mixed ? names.p : plain.p);
        buf_puts(out, "</small>");
    }
    if (cell->page) buf_puts(out, "</a>");
    buf_puts(out, "</td>");
    buf_release(&names);
    buf_release(&plain);
    buf_release(&tip);
}

/* The whole table at a glance: designs × situations, one mark per cell. */
static void html_overview(const matrix_result *r, buf *out)
{
    const matrix_table *t = r->t;
    buf_puts(out, "<section id=\"overview\">\n<h2>");
    html_esc(out, t->title);
    buf_puts(out, ": at a glance</h2>\n<table class=\"overview\">\n<thead><tr><th class=\"d\">design</th>");
    for (int c = 0; c < t->ncols; c++) {
        buf_puts(out, "<th title=\"");
        html_esc(out, t->col_title[c]);
        buf_puts(out, "\">");
        html_esc(out, t->col_short[c]);
        buf_puts(out, "</th>");
    }
    buf_puts(out, "</tr></thead>\n<tbody>\n");
    for (int row = 0; row < t->nrows; row++) {
        buf_puts(out, "<tr><th class=\"d\" title=\"");
        html_esc(out, t->rows[row].title);
        if (t->rows[row].source) {
            buf_puts(out, " (claims: ");
            html_esc(out, t->rows[row].source);
            buf_puts(out, ")");
        }
        buf_puts(out, "\"><a href=\"#row-");
        html_esc(out, t->rows[row].id);
        buf_puts(out, "\">");
        html_esc(out, t->rows[row].title);
        buf_puts(out, "</a></th>");
        for (int c = 0; c < t->ncols; c++) overview_cell(r, row, c, out);
        buf_puts(out, "</tr>\n");
    }
    buf_puts(out, "</tbody></table>\n<p class=\"key\"><span class=\"ok\" style=\"background:#c8e6c9\">✓ every property "
                  "holds</span><span style=\"background:#fff3c4\">✗<sup>=</sup> as the source warns</span><span "
                  "style=\"background:#ffcc80\">✗<sup>?</sup> not warned of</span><span style=\"background:#ef9a9a\">✗"
                  "<sup>!</sup> the source claims otherwise</span><span style=\"background:#ffcdd2\">✗ no source to set it "
                  "beside</span><br>The colour and mark are the cell's worst; where its violations' marks differ, each "
                  "follows its property (ME= RS?: the source warns of one, not the other). ME mutual exclusion · RS "
                  "resource safety · Rel release safety · ND no deadlock · Re re-entrancy</p>\n</section>\n");
}

void matrix_overview_page(const matrix_result *r, buf *out)
{
    const matrix_table *t = r->t;
    buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    html_esc(out, t->title);
    buf_printf(out, "</title>\n<style>%s body{margin:12px;max-width:none}</style></head><body>\n", css);
    html_overview(r, out);
    buf_puts(out, "</body></html>\n");
}

void matrix_html(const matrix_result *r, buf *out)
{
    const matrix_table *t = r->t;
    buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    html_esc(out, t->title);
    buf_printf(out, "</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<style>%s</style></head><body>\n<h1>", css);
    html_esc(out, t->title);
    buf_puts(out, "</h1>\n<p class=\"about\">");
    html_esc(out, t->about);
    buf_puts(out, "</p>\n<p class=\"legend\">✓ holds · ✗ violated · “·” not judged in this situation · – does "
                  "not apply. After a verdict: <sup>=</sup> as the design's source claims, <sup>!</sup> the source "
                  "claims otherwise (outlined), <sup>?</sup> a violation the source does not warn of, <sup>≠</sup> not "
                  "what the cell's scenario expects. Each verdict opens its run, to step through.</p>\n");
    html_overview(r, out);
    buf_puts(out, "<h2>Every property</h2>\n<table class=\"matrix\">\n<thead><tr><th>design</th><th>property</th>");
    for (int c = 0; c < t->ncols; c++) {
        buf_puts(out, "<th title=\"");
        html_esc(out, t->col_title[c]);
        buf_puts(out, "\">");
        html_esc(out, t->col_short[c]);
        buf_puts(out, "</th>");
    }
    buf_puts(out, "</tr></thead>\n");
    for (int row = 0; row < t->nrows; row++) {
        const matrix_row *rw = &t->rows[row];
        buf_puts(out, "<tbody id=\"row-");
        html_esc(out, rw->id);
        buf_puts(out, "\">\n");
        for (int p = 0; p < t->nprops; p++) {
            buf_puts(out, "<tr>");
            if (p == 0) {
                buf_printf(out, "<th class=\"d\" rowspan=\"%d\">", t->nprops);
                html_esc(out, rw->title);
                if (rw->source) {
                    buf_puts(out, "<br><span class=\"src\">claims: ");
                    html_esc(out, rw->source);
                    buf_puts(out, "</span>");
                }
                buf_puts(out, "</th>");
            }
            buf_puts(out, "<td class=\"p\">");
            buf label;
            buf_init(&label);
            prop_label(t->props[p], &label);
            html_esc(out, label.p);
            buf_release(&label);
            buf_puts(out, "</td>");
            for (int c = 0; c < t->ncols; c++) html_cell(r, row, c, p, out);
            buf_puts(out, "</tr>\n");
        }
        html_notes(r, row, out);
        buf_puts(out, "</tbody>\n");
    }
    buf_puts(out, "</table>\n<p class=\"legend\">Columns: ");
    for (int c = 0; c < t->ncols; c++) {
        buf_puts(out, c ? "; <b>" : "<b>");
        html_esc(out, t->col_short[c]);
        buf_puts(out, "</b> ");
        html_esc(out, t->col_title[c]);
    }
    buf_puts(out, ". Each cell is a scenario file: <code>locklab run ");
    html_esc(out, t->shown_dir);
    buf_puts(out, "/&lt;row&gt;/&lt;column&gt;.lua</code>.</p>\n</body></html>\n");
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
            prop_label(t->props[p], &label);
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
                buf_printf(&label, "%s%s%s", glyph(cell, p), mark_text[matrix_mark_of(r, row, c, p)],
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
