/* matrix_html.c — the lock-design matrix's HTML pages (see matrix.h): the table with each cell
 * a link to its run's player page (html_player.c, written by the command), each tooltip
 * saying the verdict, the claim and the scenario to replay, and the notes under each design;
 * and the overview page, the grid at a glance. */
#include "matrixint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

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
    buf_printf(&tip, "%s, %s: %s %s", t->rows[row].title, t->col_title[c], t->props[p], matrix_verdict_text(cell, p));
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
        matrix_shown_cell(t, row, c, &tip);
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
        buf_printf(out, "\">%s</a>", matrix_glyph(cell, p));
    } else {
        buf_puts(out, matrix_glyph(cell, p));
    }
    if (m != MARK_NONE) buf_printf(out, "<sup>%s</sup>", matrix_mark_text[m]);
    if (matrix_unmet(r, row, c, p)) buf_puts(out, "<sup>≠</sup>");
    if (*matrix_hollow(cell, p)) buf_puts(out, "<sup>∅</sup>");
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
        if (c == t->ncols) matrix_observation_lines(r, row, &ev);
        any = c == t->ncols ? ev.len > 0 : matrix_evidence_lines(r, row, c, &ev, 1);
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
        const char *text = matrix_note_of(r, row, c, &mk);
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
        if (c == t->ncols) matrix_observation_lines(r, row, &ev);
        if (c == t->ncols ? ev.len > 0 : matrix_evidence_lines(r, row, c, &ev, 1))
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
        buf_printf(&names, "%s%s%s", nviol++ ? " " : "", prop_abbrev(t->props[p]), matrix_mark_text[m]);
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
    matrix_shown_cell(t, row, c, &tip);
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
    if (nviol && worst != MARK_NONE) buf_printf(out, "<sup>%s</sup>", matrix_mark_text[worst]);
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

/* The situations' heads of a table: each its short name, its title as the tooltip. */
static void column_heads(const matrix_table *t, buf *out)
{
    for (int c = 0; c < t->ncols; c++) {
        buf_puts(out, "<th title=\"");
        html_esc(out, t->col_title[c]);
        buf_puts(out, "\">");
        html_esc(out, t->col_short[c]);
        buf_puts(out, "</th>");
    }
}

/* The whole table at a glance: designs × situations, one mark per cell. */
static void html_overview(const matrix_result *r, buf *out)
{
    const matrix_table *t = r->t;
    buf_puts(out, "<section id=\"overview\">\n<h2>");
    html_esc(out, t->title);
    buf_puts(out, ": at a glance</h2>\n<table class=\"overview\">\n<thead><tr><th class=\"d\">design</th>");
    column_heads(t, out);
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
    column_heads(t, out);
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
            matrix_prop_label(t->props[p], &label);
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
